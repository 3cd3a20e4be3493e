//! The node's event stream: Server-Sent Events at `/sse`.
//!
//! Every merod from 0.10.0 to the 0.11 rcs serves SSE (on by default) beside
//! the WebSocket at `/ws`; SSE rides the same HTTP client as every other
//! request (TLS, token, refresh, masking), so calimcp needs no WebSocket
//! stack. The exchange (calimero-server `sse/handlers.rs`):
//!
//! 1. `GET /sse` opens a session: the `X-SSE-Session-ID` header and a first
//!    `message` event `{"type":"connect","session_id":"N","reconnect":false}`.
//! 2. `POST /sse/subscription` `{"id":"N","method":"subscribe","params":{"contextIds":[…]}}`
//!    answers `{"result":{"status":"subscribed","contexts":[…]}}` (404 when
//!    the session is gone).
//! 3. Each event of a subscribed context arrives as `data: {"result":<NodeEvent>}`,
//!    a NodeEvent being `{"contextId","type","data"}` (calimero-primitives
//!    `events.rs`); `StateMutation` carries the app's events as
//!    `{"kind","data":[bytes],"handler"}`. Comment lines keep the connection alive.
//!
//! The node mounts `/sse` at the root of the server even under
//! `NODE_PATH_PREFIX` (as it does `/auth`): calimcp tries `{base}/sse` first
//! and the origin's `/sse` when that answers 404 and the base has a path.
//! The subscription's answer lists the contexts the node subscribed to: rc.18
//! and later leave out those the caller may not observe (not a member, a
//! token without access); a context left out is an error (exit 3) before
//! anything is read. Opening the stream and subscribing are bounded by the
//! request bound (`--timeout`): a node that never sends `connect` is an error.
//! When the stream drops, calimcp reconnects with `Last-Event-ID` (the node
//! keeps the session and its subscriptions) and subscribes again; events the
//! node produced in between are lost (the node buffers nothing), which the
//! caller is told with how long the stream was down. Reconnection backs off
//! (1, 2, 4 … 30 s) and gives up when the stream has been down for
//! [`Reconnect::for_`] (5 minutes by default); a stream that closes right
//! after opening counts as still down. Each read waits at most the timeout
//! (45 s at least; the node sends a keep-alive every 15 s); the stream as a
//! whole is unbounded.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::time::Instant;

use reqwest::{Method, Url};
use serde_json::{Value, json};

use super::http::{Cap, Reply};
use super::{Client, ids};
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::text::sanitize_line;
use calimcp_core::text::size;

/// The shortest wait for one read of the stream: three of the node's keep-alives.
pub(crate) const MIN_READ_TIMEOUT: Duration = Duration::from_secs(45);
/// How long a dropped stream is tried again, and how fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reconnect {
    /// Give up when the stream has been down this long.
    pub for_: Duration,
}

impl Default for Reconnect {
    fn default() -> Reconnect {
        Reconnect {
            for_: DEFAULT_RECONNECT_FOR,
        }
    }
}

/// How long a dropped stream is tried again by default.
pub(crate) const DEFAULT_RECONNECT_FOR: Duration = Duration::from_secs(300);

impl Reconnect {
    /// The first wait between tries: 1 s, less for a short `for_`.
    fn first(self) -> Duration {
        Duration::from_secs(1).min(self.for_ / 100)
    }

    /// The longest wait between tries: 30 s, less for a short `for_`.
    fn most(self) -> Duration {
        Duration::from_secs(30).min(self.for_ / 10)
    }

    /// The wait before try `n` (1-based) of one outage: none before the
    /// first, then doubling from [`Reconnect::first`] up to [`Reconnect::most`].
    pub(crate) fn backoff(self, n: u32) -> Duration {
        if n <= 1 {
            return Duration::ZERO;
        }
        let doubled = self.first().saturating_mul(1 << (n - 2).min(20));
        doubled.min(self.most())
    }
}

/// Contexts whose sync status a new subscription asks (one request each).
const MAX_STATUS_CHECKS: usize = 16;

/// Longest `Last-Event-ID` kept (the node writes `{session}-{n}`).
const MAX_EVENT_ID: usize = 128;
/// The cap on an error body read from the stream endpoint.
const ERROR_BODY: u64 = 64 << 10;

/// One event the node pushed.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeEvent {
    /// The context, as the node wrote it (base58 up to rc.25, hex from
    /// rc.27); empty for a group's event.
    pub context_id: String,
    /// The group (hex) of a group-keyed event (`MemberJoined`,
    /// `MigrationStarted`, …: 0.11.0-rc.18 on, for a subscription that
    /// named the group), which names no context.
    pub group_id: Option<String>,
    /// `StateMutation`, `SyncStatus`, `AppVersionChanged`, … (passed through).
    pub kind: String,
    /// The type's payload; for a `StateMutation` read off the stream, without
    /// its `events` (they are in [`NodeEvent::events`]).
    pub data: Value,
    /// A `StateMutation`'s application events, read straight into bytes.
    pub events: Vec<AppEvent>,
}

/// One application event inside a `StateMutation`.
#[derive(Debug, Clone, PartialEq)]
pub struct AppEvent {
    pub kind: String,
    /// The bytes the app emitted: the JSON of the payload, `null`, or nothing.
    pub data: Vec<u8>,
    pub handler: Option<String>,
}

impl NodeEvent {
    /// The application events a `StateMutation` carries (none for other
    /// types): [`NodeEvent::events`], else those in `data` (an event built
    /// by hand).
    pub fn app_events(&self) -> std::borrow::Cow<'_, [AppEvent]> {
        use std::borrow::Cow;
        if self.kind != "StateMutation" {
            return Cow::Borrowed(&[]);
        }
        if !self.events.is_empty() {
            return Cow::Borrowed(&self.events);
        }
        let Some(list) = self.data.get("events").and_then(Value::as_array) else {
            return Cow::Borrowed(&[]);
        };
        list.iter()
            .map(|e| AppEvent {
                kind: e
                    .get("kind")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                data: bytes_of(e.get("data")),
                handler: e.get("handler").and_then(Value::as_str).map(str::to_string),
            })
            .collect()
    }
}

/// `Vec<u8>` as serde writes it (an array of numbers); a string as its bytes.
fn bytes_of(v: Option<&Value>) -> Vec<u8> {
    match v {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_u64)
            .filter_map(|n| u8::try_from(n).ok())
            .collect(),
        Some(Value::String(s)) => s.as_bytes().to_vec(),
        _ => Vec::new(),
    }
}

/// What [`Subscription::next`] yields.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Event(NodeEvent),
    /// The stream dropped; the next item comes once it is open again
    /// ([`Item::Reconnected`]) or says why it cannot be.
    Dropped,
    /// The stream dropped and was opened again after being down this long;
    /// events the node produced in that time are lost.
    Reconnected {
        down: Duration,
    },
    /// A subscribed context has no state on this node yet: its events come
    /// only once the node has synced it (then in bursts, at each sync).
    Uninitialized {
        context: String,
        why: super::sync::Diagnosis,
    },
}

/// `d` for messages: `0.3 s`, `12 s`, `5 min 3 s`.
pub fn span(d: Duration) -> String {
    let secs = d.as_secs();
    if secs >= 60 {
        format!("{} min {} s", secs / 60, secs % 60)
    } else if secs >= 10 {
        format!("{secs} s")
    } else if d >= Duration::from_millis(100) || d.is_zero() {
        format!("{:.1} s", d.as_secs_f64())
    } else if d >= Duration::from_millis(1) {
        format!("{} ms", d.as_millis())
    } else {
        // `--timeout 0.0001` waited 100 µs, not "0 s".
        format!("{} µs", d.as_micros().max(1))
    }
}

/// One Server-Sent Events frame.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Frame {
    pub event: Option<String>,
    pub id: Option<String>,
    pub data: String,
}

/// Splits a byte stream into SSE frames (WHATWG rules: `\n`, `\r\n` or `\r`
/// end lines, a blank line ends a frame, `:` lines are comments), holding at
/// most `cap` bytes of one frame.
#[derive(Debug)]
pub(crate) struct Parser {
    line: Vec<u8>,
    frame: Frame,
    has_data: bool,
    held: usize,
    cap: usize,
    after_cr: bool,
}

impl Parser {
    pub(crate) fn new(cap: usize) -> Parser {
        Parser {
            line: Vec::new(),
            frame: Frame::default(),
            has_data: false,
            held: 0,
            cap,
            after_cr: false,
        }
    }

    /// Feeds bytes; returns the frames they complete, or the size problem.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> std::result::Result<Vec<Frame>, String> {
        let mut out = Vec::new();
        for &b in bytes {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    let line = std::mem::take(&mut self.line);
                    if let Some(frame) = self.line_done(line) {
                        out.push(frame);
                    }
                }
                _ => {
                    self.line.push(b);
                    self.held += 1;
                    if self.held > self.cap {
                        return Err(format!(
                            "an event from the node is larger than {}",
                            size(self.cap as u64)
                        ));
                    }
                }
            }
        }
        Ok(out)
    }

    fn line_done(&mut self, mut line: Vec<u8>) -> Option<Frame> {
        if line.is_empty() {
            self.held = 0;
            let frame = std::mem::take(&mut self.frame);
            let had = std::mem::replace(&mut self.has_data, false);
            return had.then_some(frame);
        }
        if line[0] == b':' {
            return None;
        }
        // The first data line of a frame becomes its data without a copy
        // (an event is one data line, up to the cap).
        if !self.has_data && line.starts_with(b"data:") {
            let skip = if line.get(5) == Some(&b' ') { 6 } else { 5 };
            line.drain(..skip);
            self.frame.data = match String::from_utf8(line) {
                Ok(s) => s,
                Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            };
            self.has_data = true;
            return None;
        }
        let line = String::from_utf8_lossy(&line);
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (&*line, ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.frame.data.push('\n');
                }
                self.frame.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.frame.event = Some(value.to_string()),
            // An id a header cannot carry (control characters, too long)
            // is not kept: it would break the next reconnection.
            "id" if value.len() <= MAX_EVENT_ID && !value.chars().any(char::is_control) => {
                self.frame.id = Some(value.to_string());
            }
            _ => {}
        }
        None
    }
}

/// What a frame's data says.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Message {
    Connect {
        session: String,
    },
    Event(NodeEvent),
    /// The node ends the stream (`{"type":"close","reason"}`).
    Close(String),
    /// The node reports an error (`{"error": …}` or `{"type":"error","message"}`).
    Error(String),
    /// Anything else: skipped.
    Other,
}

/// `{"result":{"contextId","type","data"}}`, the data left unparsed.
#[derive(serde::Deserialize)]
struct WireEvent<'a> {
    #[serde(borrow)]
    result: WireResult<'a>,
}

#[derive(serde::Deserialize)]
struct WireResult<'a> {
    #[serde(rename = "contextId")]
    context_id: String,
    #[serde(rename = "type")]
    kind: String,
    #[serde(borrow, default)]
    data: Option<&'a serde_json::value::RawValue>,
}

/// A `StateMutation`'s data: `{"newRoot","events":[{"kind","data":[bytes],"handler"}]}`.
#[derive(serde::Deserialize)]
struct WireMutation {
    #[serde(rename = "newRoot", default)]
    new_root: Option<Value>,
    #[serde(default)]
    events: Vec<WireAppEvent>,
}

#[derive(serde::Deserialize)]
struct WireAppEvent {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    data: Bytes,
    #[serde(default)]
    handler: Option<String>,
}

/// `Vec<u8>` as serde writes it (numbers; one outside 0–255 is skipped), a
/// string as its bytes, anything else as none — read without a `Value` per
/// byte, so an event costs a small multiple of its size.
#[derive(Default)]
struct Bytes(Vec<u8>);

impl<'de> serde::Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Bytes, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Bytes, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
                while let Some(b) = seq.next_element::<Byte>()? {
                    out.extend(b.0);
                }
                Ok(Bytes(out))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> std::result::Result<Bytes, E> {
                Ok(Bytes(s.as_bytes().to_vec()))
            }
            fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<Bytes, E> {
                Ok(Bytes::default())
            }
            fn visit_none<E: serde::de::Error>(self) -> std::result::Result<Bytes, E> {
                Ok(Bytes::default())
            }
            fn visit_bool<E: serde::de::Error>(self, _: bool) -> std::result::Result<Bytes, E> {
                Ok(Bytes::default())
            }
            fn visit_u64<E: serde::de::Error>(self, _: u64) -> std::result::Result<Bytes, E> {
                Ok(Bytes::default())
            }
            fn visit_i64<E: serde::de::Error>(self, _: i64) -> std::result::Result<Bytes, E> {
                Ok(Bytes::default())
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> std::result::Result<Bytes, E> {
                Ok(Bytes::default())
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Bytes, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(Bytes::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// One element of a byte list: a byte, or nothing for anything else.
struct Byte(Option<u8>);

impl<'de> serde::Deserialize<'de> for Byte {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Byte, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Byte;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a byte")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> std::result::Result<Byte, E> {
                Ok(Byte(u8::try_from(n).ok()))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> std::result::Result<Byte, E> {
                Ok(Byte(u8::try_from(n).ok()))
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> std::result::Result<Byte, E> {
                Ok(Byte(None))
            }
            fn visit_str<E: serde::de::Error>(self, _: &str) -> std::result::Result<Byte, E> {
                Ok(Byte(None))
            }
            fn visit_bool<E: serde::de::Error>(self, _: bool) -> std::result::Result<Byte, E> {
                Ok(Byte(None))
            }
            fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<Byte, E> {
                Ok(Byte(None))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Byte, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Byte(None))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Byte, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(Byte(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// Messages other than events are small; a larger one that is not an event
/// is not read into a tree.
const MAX_OTHER_MESSAGE: usize = 64 << 10;

/// An event read straight into its parts, or `None` when `data` is not one.
fn event_message(data: &str) -> Option<NodeEvent> {
    let w: WireEvent<'_> = serde_json::from_str(data).ok()?;
    let r = w.result;
    let raw = r.data.map_or("null", |d| d.get());
    if r.kind == "StateMutation"
        && let Ok(m) = serde_json::from_str::<WireMutation>(raw)
    {
        let mut data = serde_json::Map::new();
        if let Some(root) = m.new_root {
            data.insert("newRoot".into(), root);
        }
        let events = m
            .events
            .into_iter()
            .map(|e| AppEvent {
                kind: e.kind,
                data: e.data.0,
                handler: e.handler,
            })
            .collect();
        return Some(NodeEvent {
            context_id: r.context_id,
            group_id: None,
            kind: r.kind,
            data: Value::Object(data),
            events,
        });
    }
    Some(NodeEvent {
        context_id: r.context_id,
        group_id: None,
        kind: r.kind,
        data: serde_json::from_str(raw).unwrap_or(Value::Null),
        events: Vec::new(),
    })
}

/// Reads one frame's data.
pub(crate) fn message(data: &str) -> Message {
    if data.contains("\"result\"")
        && let Some(e) = event_message(data)
    {
        return Message::Event(e);
    }
    if data.len() > MAX_OTHER_MESSAGE {
        return Message::Other;
    }
    let Ok(v) = serde_json::from_str::<Value>(data) else {
        return Message::Other;
    };
    let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default();
    match v.get("type").and_then(Value::as_str) {
        Some("connect") => {
            let session = match v.get("session_id") {
                Some(Value::Number(n)) => n.to_string(),
                _ => text("session_id").to_string(),
            };
            return Message::Connect { session };
        }
        Some("close") => return Message::Close(sanitize_line(text("reason"))),
        Some("error") => return Message::Error(sanitize_line(text("message"))),
        _ => {}
    }
    if let Some(r) = v.get("result") {
        let context_id = r.get("contextId").and_then(Value::as_str);
        let kind = r.get("type").and_then(Value::as_str);
        if let (Some(context_id), Some(kind)) = (context_id, kind) {
            return Message::Event(NodeEvent {
                context_id: context_id.to_string(),
                group_id: None,
                kind: kind.to_string(),
                data: r.get("data").cloned().unwrap_or(Value::Null),
                events: Vec::new(),
            });
        }
        // A group-keyed event: `{"groupId","type","data"}`, no context.
        let group_id = r.get("groupId").and_then(Value::as_str);
        if let (Some(group_id), Some(kind)) = (group_id, kind) {
            return Message::Event(NodeEvent {
                context_id: String::new(),
                group_id: Some(group_id.to_string()),
                kind: kind.to_string(),
                data: r.get("data").cloned().unwrap_or(Value::Null),
                events: Vec::new(),
            });
        }
        return Message::Other;
    }
    if let Some(e) = v.get("error") {
        let text = match e {
            Value::String(s) => s.clone(),
            Value::Object(o) => o
                .get("data")
                .or_else(|| o.get("message"))
                .map(|d| d.as_str().map_or_else(|| d.to_string(), str::to_string))
                .unwrap_or_else(|| e.to_string()),
            other => other.to_string(),
        };
        return Message::Error(sanitize_line(&text));
    }
    Message::Other
}

/// A group (or namespace) id as `watch --group` and `wait_for_events`
/// take it: 64 hex characters (every node writes group ids in hex),
/// lowercased; anything else is bad input.
pub fn group_id(given: &str) -> Result<String> {
    let g = given.trim();
    if g.len() == 64 && g.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(g.to_ascii_lowercase());
    }
    Err(Error::input(
        Code::Usage,
        format!(
            "`{}` is not a group id: a group (or namespace) id is 64 hex characters",
            sanitize_line(given)
        ),
    )
    .with_hint("`meroctl namespace list` and `meroctl group list` show the ids"))
}

/// An open subscription to some contexts' events.
pub struct Subscription {
    client: Client,
    /// `…/sse` where the node answered, and its shown form.
    url: String,
    shown: String,
    resp: Option<reqwest::Response>,
    parser: Parser,
    pending: VecDeque<Frame>,
    session: String,
    contexts: Vec<String>,
    /// Groups subscribed with `groupIds` (hex, lowercase).
    groups: Vec<String>,
    /// The same contexts by their bytes, for the check of each event.
    keys: std::collections::HashSet<ids::IdKey>,
    last_id: Option<String>,
    policy: Reconnect,
    /// When the stream was last opened, and whether an event came since.
    opened_at: Instant,
    delivered: bool,
    /// The outage being repaired: since when, and how many tries so far.
    outage: Option<(Instant, u32)>,
    /// Items to yield before reading the stream (uninitialized contexts).
    notices: VecDeque<Item>,
    /// The stream dropped and [`Item::Dropped`] was yielded: reopen it next.
    dropped: bool,
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("url", &self.shown)
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// Opens the event stream and subscribes to `contexts` (ids in either
    /// form); a context the node has no state for yet is said first.
    pub async fn subscribe(&self, contexts: &[String]) -> Result<Subscription> {
        let mut sub = self.subscribe_only(contexts).await?;
        // A context the node has no state for yet is worth saying at once.
        for ctx in sub.contexts.iter().take(MAX_STATUS_CHECKS) {
            if let Some(why) = self.uninitialized_why(ctx, false).await {
                sub.notices.push_back(Item::Uninitialized {
                    context: ctx.clone(),
                    why,
                });
            }
        }
        Ok(sub)
    }

    /// [`Client::subscribe`] without asking the node about the contexts'
    /// state (no request but the stream's own): for `serve`, which follows
    /// the served contexts' version changes.
    pub async fn subscribe_only(&self, contexts: &[String]) -> Result<Subscription> {
        self.subscribe_with_groups(contexts, &[]).await
    }

    /// Opens the event stream and subscribes to `contexts` and to the
    /// groups `groups` (64 hex: a namespace or a group), whose membership and
    /// migration events (`MemberJoined`, `MemberAdded`, `MemberRemoved`,
    /// `MigrationStarted`, `MigrationProgress`, `CascadeProgress`,
    /// `MigrationCompleted`) the node sends from 0.11.0-rc.18 on. An older
    /// node (rc.4) has no `groupIds` in its subscription and ignores the key,
    /// so it would never send one: that is an error naming the version,
    /// before anything is read.
    pub async fn subscribe_groups(
        &self,
        contexts: &[String],
        groups: &[String],
    ) -> Result<Subscription> {
        let mut sub = self.subscribe_with_groups(contexts, groups).await?;
        for ctx in sub.contexts.iter().take(MAX_STATUS_CHECKS) {
            if let Some(why) = self.uninitialized_why(ctx, false).await {
                sub.notices.push_back(Item::Uninitialized {
                    context: ctx.clone(),
                    why,
                });
            }
        }
        Ok(sub)
    }

    async fn subscribe_with_groups(
        &self,
        contexts: &[String],
        groups: &[String],
    ) -> Result<Subscription> {
        let groups: Vec<String> = groups.iter().map(|g| g.to_ascii_lowercase()).collect();
        let contexts: Vec<String> = contexts.iter().map(|c| self.node_id(c)).collect();
        let (url, shown) = self.endpoint(&["sse"], None);
        let mut place = (url, shown);
        let mut opened = self.open_stream(&place.0, &place.1, None).await?;
        if let Err(reply) = &opened
            && reply.status == 404
            && !self.inner.base.path().trim_matches('/').is_empty()
        {
            let mut origin: Url = self.inner.base.clone();
            origin.set_path("");
            place = self.endpoint_at(&origin, &["sse"], None);
            self.log(format_args!(
                "  (no /sse under the base path; the node serves it at the root)"
            ));
            opened = self.open_stream(&place.0, &place.1, None).await?;
        }
        let resp = match opened {
            Ok(resp) => resp,
            Err(reply) if reply.status == 404 => {
                return Err(Error::new(
                    ErrorKind::Remote,
                    Code::NoEventStream,
                    format!(
                        "the node at {} has no event stream ({} answered HTTP 404)",
                        self.inner.shown, place.1
                    ),
                )
                .with_hint(
                    "calimcp reads events over SSE (/sse), which merod serves from 0.10.0 on unless its config turns `sse` off",
                ));
            }
            Err(reply) => return Err(self.scrub_err(self.status_error(&reply, &place.1))),
        };
        let mut sub = Subscription {
            client: self.clone(),
            url: place.0,
            shown: place.1,
            resp: Some(resp),
            parser: Parser::new(self.inner.max_response as usize),
            pending: VecDeque::new(),
            session: String::new(),
            keys: contexts.iter().map(|c| ids::key(c)).collect(),
            contexts,
            groups,
            last_id: None,
            policy: Reconnect::default(),
            opened_at: Instant::now(),
            delivered: false,
            outage: None,
            notices: VecDeque::new(),
            dropped: false,
        };
        sub.start().await?;
        Ok(sub)
    }

    /// `GET` the stream: the response when 2xx, else the (small) answer, after
    /// one renewal of the token when the node asked for it.
    async fn open_stream(
        &self,
        url: &str,
        shown: &str,
        last_id: Option<&str>,
    ) -> Result<std::result::Result<reqwest::Response, Reply>> {
        let http = match self.inner.stream_http.get() {
            Some(h) => h,
            None => {
                let built = reqwest::Client::builder()
                    .redirect(reqwest::redirect::Policy::none())
                    .connect_timeout(self.inner.connect_timeout)
                    .read_timeout(self.inner.timeout.max(MIN_READ_TIMEOUT))
                    .user_agent(concat!("calimcp/", env!("CARGO_PKG_VERSION")))
                    .build()
                    .map_err(|e| Error::internal(format!("cannot set up the HTTP client: {e}")))?;
                self.inner.stream_http.get_or_init(|| built)
            }
        };
        let mut token = self.current_token().await?;
        for attempt in 0..2 {
            self.log(format_args!("> GET {shown} (event stream)"));
            let mut req = http
                .request(Method::GET, url)
                .header(reqwest::header::ACCEPT, "text/event-stream");
            if let Some(t) = &token {
                self.log(format_args!("> authorization: Bearer ***"));
                req = req.bearer_auth(t);
            }
            if let Some(id) =
                last_id.filter(|id| reqwest::header::HeaderValue::from_str(id).is_ok())
            {
                req = req.header("Last-Event-ID", id);
            }
            let resp = req
                .send()
                .await
                .map_err(|e| self.scrub_err(self.transport_error(&e, shown)))?;
            let status = resp.status();
            self.log(format_args!("< {status}"));
            if status.is_success() {
                return Ok(Ok(resp));
            }
            let cap = Cap {
                bytes: ERROR_BODY,
                var: "CALIMCP_MAX_RESPONSE",
                bound: self.inner.timeout,
            };
            let mut reply = self.reply(resp, shown, cap).await?;
            reply.key_id_missing = token.as_deref().is_some_and(super::auth::lacks_key_id);
            if attempt == 0
                && let Some(t) = self
                    .renewed(reply.status, reply.auth_error.as_deref(), token.as_deref())
                    .await?
            {
                token = Some(t);
                continue;
            }
            return Ok(Err(reply));
        }
        Err(Error::internal("the event stream was not opened"))
    }
}

impl Subscription {
    /// How long a dropped stream is tried again ([`Reconnect::default`]).
    pub fn set_reconnect(&mut self, policy: Reconnect) {
        self.policy = policy;
    }

    /// Reads the session id and subscribes, within the request bound.
    async fn start(&mut self) -> Result<()> {
        let bound = self.client.inner.timeout;
        match tokio::time::timeout(bound, self.start_unbounded()).await {
            Ok(done) => done,
            Err(_) => Err(Error::new(
                ErrorKind::Unreachable,
                Code::StreamTimeout,
                format!(
                    "the node at {} opened its event stream ({}) but did not start it (no `connect` message, or no answer to the subscription) within {}",
                    self.client.url(),
                    self.shown,
                    super::http::seconds(bound)
                ),
            )
            .with_hint("is the node overloaded, or something between calimcp and the node holding the stream? Raise the bound with --timeout SECS")
            .retryable()),
        }
    }

    async fn start_unbounded(&mut self) -> Result<()> {
        let header = self
            .resp
            .as_ref()
            .and_then(|r| r.headers().get("x-sse-session-id"))
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        self.session = match header {
            Some(s) => s,
            None => loop {
                let frame = self.frame().await?.ok_or_else(|| self.closed())?;
                if let Message::Connect { session } = message(&frame.data) {
                    break session;
                }
            },
        };
        // `groupIds` only when asked, as the node's SDKs send it (rc.83:
        // the params refuse unknown keys; rc.4 has no such key).
        let params = if self.groups.is_empty() {
            json!({"contextIds": self.contexts})
        } else {
            json!({"contextIds": self.contexts, "groupIds": self.groups})
        };
        let body = json!({
            "id": self.session,
            "method": "subscribe",
            "params": params,
        });
        let url = format!("{}/subscription", self.url.trim_end_matches('/'));
        let shown = format!("{}/subscription", self.shown.trim_end_matches('/'));
        let c = &self.client;
        let reply = c
            .request(Method::POST, &url, &shown, Some(&body))
            .await
            .map_err(|e| c.scrub_err(e))?;
        // rc.4 refuses a subscription without `contextIds` (400 "missing
        // field `contextIds`"): it has no group subscriptions.
        if !self.groups.is_empty() && reply.status == 400 && self.contexts.is_empty() {
            return Err(self.no_group_events());
        }
        let v = c.check(reply, &shown).map_err(|e| c.scrub_err(e))?;
        if let Some(e) = v.get("error").filter(|e| !e.is_null()) {
            let why = match e {
                Value::String(s) => sanitize_line(s),
                other => sanitize_line(&other.to_string()),
            };
            return Err(Error::new(
                ErrorKind::Remote,
                Code::SubscribeFailed,
                format!("the node refused the subscription ({shown}): {why}"),
            ));
        }
        self.check_ack(&v)
    }

    /// A node whose subscription has no `groupIds` (before 0.11.0-rc.18:
    /// rc.4 ignores the key).
    fn no_group_events(&self) -> Error {
        Error::new(
            ErrorKind::Input,
            Code::GroupEventsUnsupported,
            format!(
                "the node at {} sends no group events: its event subscription has no `groupIds` (merod before 0.11.0-rc.18, such as 0.11.0-rc.4, ignores them), so no membership or migration event would ever arrive",
                self.client.url()
            ),
        )
        .with_hint("watch a group on merod 0.11.0-rc.18 or later; on this node, watch the contexts of the group (their AppVersionChanged and SyncStatus events come with --all)")
    }

    /// The groups the node subscribed to (rc.18 on: `groups` in its answer,
    /// without those the caller may not see); an answer without `groups`
    /// is a node that has no group subscriptions.
    fn check_groups(&self, v: &Value) -> Result<()> {
        if self.groups.is_empty() {
            return Ok(());
        }
        let Some(listed) = v
            .get("result")
            .and_then(|r| r.get("groups"))
            .and_then(Value::as_array)
        else {
            return Err(self.no_group_events());
        };
        let left_out: Vec<String> = self
            .groups
            .iter()
            .filter(|g| {
                !listed
                    .iter()
                    .filter_map(Value::as_str)
                    .any(|l| l.eq_ignore_ascii_case(g))
            })
            .map(|g| sanitize_line(g))
            .collect();
        if left_out.is_empty() {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::Auth,
            Code::NotSubscribed,
            format!(
                "the node at {} did not subscribe to group{} {}: a node leaves out the groups the caller may not see (it is not a member, or the group does not exist), so no event of {} would ever arrive",
                self.client.url(),
                if left_out.len() == 1 { "" } else { "s" },
                left_out.join(", "),
                if left_out.len() == 1 { "it" } else { "them" },
            ),
        )
        .with_hint("name a group or namespace this node is a member of (its id, 64 hex), or watch through a node that is a member"))
    }

    /// The node answers with the contexts it subscribed to; rc.18 and later
    /// leave out those the caller may not observe. Compared by bytes.
    fn check_ack(&self, v: &Value) -> Result<()> {
        self.check_groups(v)?;
        let Some(listed) = v
            .get("result")
            .and_then(|r| r.get("contexts"))
            .and_then(Value::as_array)
        else {
            // An answer without the list (no released node) is taken as is.
            return Ok(());
        };
        let listed: std::collections::HashSet<ids::IdKey> = listed
            .iter()
            .filter_map(Value::as_str)
            .map(ids::key)
            .collect();
        let left_out: Vec<String> = self
            .contexts
            .iter()
            .filter(|c| !listed.contains(&ids::key(c)))
            .map(|c| sanitize_line(c))
            .collect();
        if left_out.is_empty() {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::Auth,
            Code::NotSubscribed,
            format!(
                "the node at {} did not subscribe to context{} {}: a node leaves out the contexts the caller may not observe, so no event of {} would ever arrive",
                self.client.url(),
                if left_out.len() == 1 { "" } else { "s" },
                left_out.join(", "),
                if left_out.len() == 1 { "it" } else { "them" },
            ),
        )
        .with_hint("the token's identity is not a member of the context, or the token has no access to it: use a member's token (or the node owner's), or watch through a node that is a member"))
    }

    fn closed(&self) -> Error {
        Error::new(
            ErrorKind::Unreachable,
            Code::StreamClosed,
            format!(
                "the node at {} closed the event stream ({})",
                self.client.url(),
                self.shown
            ),
        )
    }

    /// The next frame, or `None` when the stream ended.
    async fn frame(&mut self) -> Result<Option<Frame>> {
        loop {
            if let Some(f) = self.pending.pop_front() {
                if f.id.is_some() {
                    self.last_id.clone_from(&f.id);
                }
                return Ok(Some(f));
            }
            let Some(resp) = self.resp.as_mut() else {
                return Ok(None);
            };
            match resp.chunk().await {
                Ok(Some(bytes)) => {
                    let frames = self.parser.push(&bytes).map_err(|why| {
                        Error::new(ErrorKind::Remote, Code::ResponseTooLarge, why).with_hint(
                            "raise the limit with CALIMCP_MAX_RESPONSE=SIZE (e.g. CALIMCP_MAX_RESPONSE=64MiB)",
                        )
                    })?;
                    self.pending.extend(frames);
                }
                Ok(None) => {
                    self.resp = None;
                    return Ok(None);
                }
                Err(e) => {
                    self.client
                        .log(format_args!("< the event stream broke: {}", e));
                    self.resp = None;
                    return Ok(None);
                }
            }
        }
    }

    /// Opens the stream again (keeping the session when the node still has
    /// it) and subscribes again, backing off between tries; returns how long
    /// the stream was down. A stream that closed soon after it was opened,
    /// having delivered nothing, counts as the same outage, so its tries keep
    /// backing off and the outage keeps its start.
    async fn reconnect(&mut self) -> Result<Duration> {
        let stable = self.delivered || self.opened_at.elapsed() >= self.policy.most();
        let (since, mut tries) = match self.outage.take() {
            Some(outage) if !stable => outage,
            _ => (Instant::now(), 0),
        };
        let mut last_err = self.closed();
        loop {
            let wait = self.policy.backoff(tries + 1);
            let give_up_at = since + self.policy.for_;
            if tries > 0 && Instant::now() + wait > give_up_at {
                return Err(self.gave_up(since, tries, last_err));
            }
            tokio::time::sleep(wait).await;
            tries += 1;
            let last = self
                .last_id
                .clone()
                .or_else(|| (!self.session.is_empty()).then(|| format!("{}-0", self.session)));
            match self
                .client
                .open_stream(&self.url, &self.shown, last.as_deref())
                .await
            {
                Ok(Ok(resp)) => {
                    self.resp = Some(resp);
                    self.parser = Parser::new(self.client.inner.max_response as usize);
                    self.pending.clear();
                    match self.start().await {
                        Ok(()) => {
                            self.outage = Some((since, tries));
                            self.opened_at = Instant::now();
                            self.delivered = false;
                            return Ok(since.elapsed());
                        }
                        Err(e) if e.kind == ErrorKind::Auth => return Err(e),
                        Err(e) => last_err = e,
                    }
                }
                Ok(Err(reply)) => {
                    let e = self.client.status_error(&reply, &self.shown);
                    if e.kind == ErrorKind::Auth {
                        return Err(self.client.scrub_err(e));
                    }
                    last_err = e;
                }
                Err(e) if e.kind == ErrorKind::Auth => return Err(e),
                Err(e) => last_err = e,
            }
            self.resp = None;
        }
    }

    /// The error of an outage that lasted past [`Reconnect::for_`].
    fn gave_up(&self, since: Instant, tries: u32, last: Error) -> Error {
        let last = self.client.scrub_err(last);
        Error::new(
            ErrorKind::Unreachable,
            Code::StreamLost,
            format!(
                "gave up reopening the event stream of the node at {}: it has been down for {} ({tries} tries); the last: {}",
                self.client.url(),
                span(since.elapsed()),
                last.message
            ),
        )
        .with_hint(last.hint.unwrap_or_else(|| {
            "is merod running there? A longer outage can be waited out with a longer reconnect time".into()
        }))
        .retryable()
    }

    /// The next event of a subscribed context. When the stream drops it
    /// says so ([`Item::Dropped`]), then reconnects (yielding
    /// [`Item::Reconnected`]); fails when it cannot, or when the node closes
    /// the stream or reports an error.
    pub async fn next(&mut self) -> Result<Item> {
        if let Some(item) = self.notices.pop_front() {
            return Ok(item);
        }
        if std::mem::take(&mut self.dropped) {
            let down = self.reconnect().await?;
            return Ok(Item::Reconnected { down });
        }
        loop {
            let Some(frame) = self.frame().await? else {
                self.dropped = true;
                return Ok(Item::Dropped);
            };
            match message(&frame.data) {
                Message::Event(e) if e.group_id.is_some() => {
                    self.delivered = true;
                    let g = e.group_id.as_deref().unwrap_or_default();
                    if !self.groups.iter().any(|s| s.eq_ignore_ascii_case(g)) {
                        self.client.log(format_args!(
                            "  (skipped an event of group {}, which is not subscribed)",
                            sanitize_line(g)
                        ));
                        continue;
                    }
                    return Ok(Item::Event(e));
                }
                Message::Event(e) => {
                    self.delivered = true;
                    // Only the subscribed contexts count: a node (or whatever
                    // answers in its place) may send others, or ids that are
                    // not contexts at all.
                    if !self.keys.contains(&ids::key(&e.context_id)) {
                        self.client.log(format_args!(
                            "  (skipped an event of context {}, which is not subscribed)",
                            sanitize_line(&e.context_id)
                        ));
                        continue;
                    }
                    self.client.saw_id(&e.context_id);
                    return Ok(Item::Event(e));
                }
                Message::Close(reason) => {
                    let mut e = self.closed();
                    if !reason.is_empty() {
                        e.message = format!("{}: {reason}", e.message);
                    }
                    return Err(e);
                }
                Message::Error(why) => {
                    return Err(Error::new(
                        ErrorKind::Remote,
                        Code::StreamError,
                        format!("the node's event stream reported an error: {why}"),
                    ));
                }
                Message::Connect { .. } | Message::Other => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What axum's `Sse` writes for the node's first event, a keep-alive
    /// and a state mutation (calimero-server 0.11.0-rc.4 `sse/handlers.rs`).
    const STREAM: &str = "event: message\nid: 77-0\nretry: 3000\ndata: {\"type\":\"connect\",\"session_id\":\"77\",\"reconnect\":false}\n\n:\n\nevent: message\r\nid: 77-1\r\ndata: {\"result\":{\"contextId\":\"7Xo\",\"type\":\"StateMutation\",\"data\":{\"newRoot\":\"H\",\"events\":[{\"kind\":\"Inserted\",\"data\":[123,125],\"handler\":null}]}}}\r\n\r\n";

    #[test]
    fn frames_split_on_any_line_ending_in_any_chunking() {
        for step in [1, 2, 7, STREAM.len()] {
            let mut p = Parser::new(1 << 20);
            let mut frames = Vec::new();
            for chunk in STREAM.as_bytes().chunks(step) {
                frames.extend(p.push(chunk).unwrap());
            }
            assert_eq!(frames.len(), 2, "chunks of {step}");
            assert_eq!(frames[0].id.as_deref(), Some("77-0"));
            assert_eq!(
                message(&frames[0].data),
                Message::Connect {
                    session: "77".into()
                }
            );
            let Message::Event(e) = message(&frames[1].data) else {
                panic!("{:?}", frames[1]);
            };
            assert_eq!(e.context_id, "7Xo");
            let app = e.app_events();
            assert_eq!(app.len(), 1);
            assert_eq!(app[0].kind, "Inserted");
            assert_eq!(app[0].data, b"{}");
            assert_eq!(app[0].handler, None);
        }
    }

    /// An event's byte list is read straight into bytes (issue 24.2): one
    /// megabyte of payload, no `Value` per byte, and the bytes are exact.
    #[test]
    fn a_large_event_is_read_into_bytes() {
        let payload: Vec<u8> = (0..1_000_000u32).map(|i| (i % 251) as u8).collect();
        let list: Vec<String> = payload.iter().map(u8::to_string).collect();
        let frame = format!(
            "data: {{\"result\":{{\"contextId\":\"C\",\"type\":\"StateMutation\",\"data\":{{\"newRoot\":\"R\",\"events\":[{{\"kind\":\"Big\",\"data\":[{}],\"handler\":null}}]}}}}}}\n\n",
            list.join(",")
        );
        let mut p = Parser::new(16 << 20);
        let frames = p.push(frame.as_bytes()).unwrap();
        let Message::Event(e) = message(&frames[0].data) else {
            panic!("not an event")
        };
        assert_eq!(e.events.len(), 1);
        assert_eq!(e.events[0].data, payload);
        assert_eq!(e.data, serde_json::json!({"newRoot": "R"}));
        assert_eq!(&*e.app_events(), &e.events[..]);
        // Odd shapes stay readable: a number out of range is skipped, a
        // string is its bytes, and a message that is not an event is not
        // read into a tree past 64 KiB.
        let Message::Event(e) = message(
            r#"{"result":{"contextId":"C","type":"StateMutation","data":{"events":[{"kind":"A","data":[1,300,2]},{"kind":"B","data":"hi"}]}}}"#,
        ) else {
            panic!()
        };
        assert_eq!(e.events[0].data, [1, 2]);
        assert_eq!(e.events[1].data, b"hi");
        let huge = format!("{{\"x\":[{}]}}", "1,".repeat(40_000) + "1");
        assert_eq!(message(&huge), Message::Other);
    }

    #[test]
    fn a_frame_past_the_cap_is_an_error() {
        let mut p = Parser::new(16);
        assert!(p.push(b"data: 0123456789abcdef").is_err());
        let mut p = Parser::new(16);
        assert_eq!(p.push(b"data: 1\n\ndata: 2\n\n").unwrap().len(), 2);
    }

    #[test]
    fn messages_other_than_events_are_read() {
        assert_eq!(
            message(r#"{"type":"close","reason":"bye"}"#),
            Message::Close("bye".into())
        );
        assert_eq!(
            message(r#"{"error":{"type":"ParseError","data":"bad"}}"#),
            Message::Error("bad".into())
        );
        assert_eq!(message("not json"), Message::Other);
        let Message::Event(e) = message(
            r#"{"result":{"contextId":"C","type":"SyncStatus","data":{"syncState":"Idle","failureCount":0}}}"#,
        ) else {
            panic!()
        };
        assert!(e.app_events().is_empty());
        assert_eq!(e.kind, "SyncStatus");
    }
}
