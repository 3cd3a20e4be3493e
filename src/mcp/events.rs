//! `wait_for_events`: an agent waits for an app's events in a context.
//!
//! The [`Hub`] holds at most one node subscription per context, shared by
//! every waiter of every session: the first waiter starts opening it, later
//! ones join it, and when the last one is done the subscription is dropped,
//! closing the stream. Opening runs in the feed's own task, so it counts
//! against each waiter's own `timeout` and never holds up a waiter of another
//! context (there is no server-wide lock). Events are decoded and checked
//! against the app's ABI by the mapping core, in the shape `calimcp watch
//! --json` prints; only the asked context's events count, and what one wait
//! keeps is bounded in bytes ([`MAX_WAIT_BYTES`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, SystemTime};

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};
use tokio::sync::broadcast;

use calimcp_catalog::backend::Backend;
use calimcp_catalog::events::{Item, NodeEvent, span};
use calimcp_catalog::ids;
use calimcp_core::abi::Manifest;
use calimcp_core::error::{Error, Result};
use calimcp_core::mapping::events::{Decoder, group_record, record};
use calimcp_core::mapping::filter::glob_match;
use calimcp_core::text::rfc3339;

use super::fixed::{DEFAULT_MAX, DEFAULT_WAIT, MAX_WAIT, WAIT_FOR_EVENTS};

/// The most JSON one wait returns (its events' records); the wait ends
/// early, with a note, when the next event would pass it (the first event is
/// always returned; one event is itself capped by `CALIMCP_MAX_RESPONSE`).
pub(crate) const MAX_WAIT_BYTES: usize = 8 << 20;
/// Events a slow waiter may fall behind by before it is told some were dropped.
const BACKLOG: usize = 4096;

/// An event and when it arrived from the node (the same time for every waiter).
pub(crate) struct Arrived {
    at: SystemTime,
    event: NodeEvent,
}

/// What a feed tells its waiters.
#[derive(Clone)]
enum Message {
    Event(Arc<Arrived>),
    /// The stream dropped and was opened again after being down this long.
    Reconnected(Duration),
    /// The subscription could not be opened, or the stream ended.
    Failed(Error),
}

/// One context's subscription, alive while someone waits on it.
pub(crate) struct Feed {
    tx: broadcast::Sender<Message>,
    task: tokio::task::AbortHandle,
    /// The node accepted the subscription.
    opened: Arc<AtomicBool>,
    /// The feed's task has ended (opening failed or the stream ended).
    dead: Arc<AtomicBool>,
    /// Why the context has no state on the node, when it has none.
    uninit: Arc<Mutex<Option<String>>>,
}

impl Drop for Feed {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A waiter's end of a feed.
pub(crate) struct Receiver {
    rx: broadcast::Receiver<Message>,
    opened: Arc<AtomicBool>,
    uninit: Arc<Mutex<Option<String>>>,
}

/// The subscriptions of the server, one per context.
#[derive(Default)]
pub(crate) struct Hub {
    feeds: Mutex<HashMap<String, Weak<Feed>>>,
}

impl Hub {
    /// Joins the subscription to `context`, starting to open it when nobody
    /// holds it; returns at once (opening is the feed's task's work, and
    /// counts against each waiter's own timeout). Keep the `Arc` for as long
    /// as the receiver is read.
    pub(crate) async fn join(
        &self,
        backend: &Arc<dyn Backend>,
        context: &str,
        groups: &[String],
    ) -> Result<(Arc<Feed>, Receiver)> {
        let mut feeds = self.feeds.lock().unwrap_or_else(|e| e.into_inner());
        feeds.retain(|_, w| w.strong_count() > 0);
        // A wait that also names groups has a subscription of its own.
        let mut key = context_key(context);
        if !groups.is_empty() {
            let mut sorted = groups.to_vec();
            sorted.sort();
            key = format!("{key}+{}", sorted.join("+"));
        }
        if let Some(feed) = feeds
            .get(&key)
            .and_then(Weak::upgrade)
            .filter(|f| !f.dead.load(Ordering::SeqCst))
        {
            let rx = Receiver {
                rx: feed.tx.subscribe(),
                opened: feed.opened.clone(),
                uninit: feed.uninit.clone(),
            };
            return Ok((feed, rx));
        }
        let (tx, rx) = broadcast::channel(BACKLOG);
        let opened = Arc::new(AtomicBool::new(false));
        let dead = Arc::new(AtomicBool::new(false));
        let uninit = Arc::new(Mutex::new(None));
        let task = tokio::spawn(pump(
            backend.clone(),
            context.to_string(),
            groups.to_vec(),
            tx.clone(),
            opened.clone(),
            dead.clone(),
            uninit.clone(),
        ))
        .abort_handle();
        let feed = Arc::new(Feed {
            tx,
            task,
            opened: opened.clone(),
            dead,
            uninit: uninit.clone(),
        });
        feeds.insert(key, Arc::downgrade(&feed));
        Ok((feed, Receiver { rx, opened, uninit }))
    }

    /// How many contexts have a subscription open (for tests).
    #[cfg(test)]
    pub(crate) fn open(&self) -> usize {
        self.feeds
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|w| w.strong_count() > 0)
            .count()
    }
}

/// A feed's task: opens the subscription to `context` (and `groups`), then
/// hands what arrives to the waiters until the stream fails; a failure is
/// the last message, and marks the feed dead.
async fn pump(
    backend: Arc<dyn Backend>,
    context: String,
    groups: Vec<String>,
    sender: broadcast::Sender<Message>,
    opened: Arc<AtomicBool>,
    dead: Arc<AtomicBool>,
    uninit: Arc<Mutex<Option<String>>>,
) {
    let fail = |e: Error| {
        dead.store(true, Ordering::SeqCst);
        let _ = sender.send(Message::Failed(e));
    };
    let subscribed = if groups.is_empty() {
        backend.subscribe(std::slice::from_ref(&context)).await
    } else {
        backend
            .subscribe_groups(std::slice::from_ref(&context), &groups)
            .await
    };
    let mut events = match subscribed {
        Ok(events) => events,
        Err(e) => return fail(e),
    };
    opened.store(true, Ordering::SeqCst);
    loop {
        match events.next().await {
            Ok(Item::Event(event)) => {
                let at = SystemTime::now();
                let _ = sender.send(Message::Event(Arc::new(Arrived { at, event })));
            }
            // Waiters are told once it is back (or failed).
            Ok(Item::Dropped) => {}
            Ok(Item::Reconnected { down }) => {
                let _ = sender.send(Message::Reconnected(down));
            }
            Ok(Item::Uninitialized { why, .. }) => {
                let note = format!(
                    "the context has no state on this node yet: {}; its events come once the node has synced it, in bursts at each sync ({})",
                    why.why, why.hint
                );
                *uninit.lock().unwrap_or_else(|e| e.into_inner()) = Some(note);
            }
            Err(e) => return fail(e),
        }
    }
}

/// The length of `v` as JSON, counted without writing it anywhere.
fn json_len(v: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}

/// A context's map key: its bytes in hex when it is an id (either form).
fn context_key(context: &str) -> String {
    ids::to_form(context, ids::IdForm::Hex)
}

// What `wait_for_events` answers (its structuredContent, and as JSON its
// text); the tool's outputSchema is generated from this type, whose doc
// comments below are what an agent reads.
/// The events that came while waiting, and why the wait ended.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EventsWaited<'a> {
    /// The context waited in.
    pub context: &'a str,
    /// The events that came, in order, as `calimcp watch --json` prints
    /// them (but for a payload's big integers: see `payload`).
    #[schemars(with = "Vec<calimcp_core::mapping::events::EventLine<'static>>")]
    pub events: Vec<Value>,
    /// Whether the wait ended at `timeout` rather than at `max` events.
    pub timed_out: bool,
    /// What ended the wait early or what to know (the stream ended, the
    /// byte bound was reached, the context is not initialized).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What an event's payload is in `structuredContent`, where it differs from
/// a `watch --json` line: the schema's description of it.
const EXACT_PAYLOAD: &str = "The payload as the ABI types it; in structuredContent a u64 or i64 beyond ±(2^53−1) is a decimal string (\"18446744073709551615\"), as in tool results, so JavaScript clients read it exactly; the text content keeps the node's digits.";

/// [`EventsWaited`]'s JSON Schema, as MCP clients read an `outputSchema`:
/// an object with its parts inlined (no `$defs`) and no `$schema`; an
/// event's payload described as [`EXACT_PAYLOAD`].
fn output_schema() -> Value {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12().for_serialize();
    settings.inline_subschemas = true;
    let schema = settings
        .into_generator()
        .into_root_schema_for::<EventsWaited>();
    let mut v = schema.to_value();
    if let Some(m) = v.as_object_mut() {
        m.remove("$schema");
        m.remove("title");
    }
    if let Some(p) = v.pointer_mut("/properties/events/items/properties/payload") {
        p["description"] = EXACT_PAYLOAD.into();
    }
    calimcp_core::mapping::schema::admit_error(v)
}

/// The tool as listed.
pub(crate) fn tool() -> Value {
    json!({
        "name": WAIT_FOR_EVENTS,
        "title": "Wait for an app's events",
        "description": format!("Waits for the events an app emits in a context and returns them, each decoded and checked against the app's ABI (`valid`, and `problem` when it does not match). Returns as soon as `max` events came, else after `timeout` seconds (default {DEFAULT_WAIT}, at most {MAX_WAIT}) with what came (`timedOut`: true). Only events emitted while waiting are seen: to see what a call causes, start waiting first, then call. The context: `context` (an id or alias), else the one select_app pinned, else the app's only context. `groups` (group or namespace ids) adds their membership and migration events (merod 0.11.0-rc.18 and later; an older node is refused)."),
        "inputSchema": super::fixed::args::schema_of(WAIT_FOR_EVENTS),
        "outputSchema": output_schema(),
        "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false}
    })
}

/// `out` of [`collect`] as `structuredContent` gives it: each event's payload
/// exact for every JSON client ([`calimcp_core::mapping::exact`]: a 64-bit integer
/// beyond ±(2^53−1) where the ABI types one becomes a decimal string), as
/// tool results are. Events the ABI does not type stay as they came.
pub(crate) fn exact_payloads(manifest: &Manifest, out: &Value) -> Value {
    let mut out = out.clone();
    if let Some(events) = out.get_mut("events").and_then(Value::as_array_mut) {
        for rec in events {
            let Some(t) = rec["event"].as_str().and_then(|name| {
                manifest
                    .events
                    .iter()
                    .find(|e| e.name == name)
                    .and_then(|e| e.payload.as_ref())
            }) else {
                continue;
            };
            if let Some(payload) = rec.get_mut("payload") {
                *payload = calimcp_core::mapping::exact::exact(manifest, t, payload.take());
            }
        }
    }
    out
}

/// The tool's arguments.
pub(crate) struct WaitArgs {
    pub app: String,
    pub context: Option<String>,
    pub service: Option<String>,
    pub events: Vec<String>,
    /// Groups (64 hex, lowercase) whose events count too.
    pub groups: Vec<String>,
    pub timeout: Duration,
    pub max: u64,
}

/// Reads and checks the arguments ([`super::fixed::args`]); every problem at once.
pub(crate) fn parse(args: &Map<String, Value>) -> std::result::Result<WaitArgs, String> {
    let a: super::fixed::args::WaitForEventsInput =
        super::fixed::args::parse(WAIT_FOR_EVENTS, args)?;
    if let (Some(x), Some(y)) = (&a.context, &a.context_alias)
        && x != y
    {
        return Err(super::fixed::args::invalid(
            WAIT_FOR_EVENTS,
            ["_context: names another context than `context`; give one of them".to_string()],
        ));
    }
    let mut groups = Vec::new();
    let mut bad = Vec::new();
    for g in a.groups.unwrap_or_default() {
        match calimcp_catalog::events::group_id(&g) {
            Ok(id) => groups.push(id),
            Err(e) => bad.push(format!("groups: {}", e.message)),
        }
    }
    if !bad.is_empty() {
        return Err(super::fixed::args::invalid(WAIT_FOR_EVENTS, bad));
    }
    Ok(WaitArgs {
        groups,
        app: a.app,
        context: a.context.or(a.context_alias),
        service: a.service,
        events: a.events.unwrap_or_default(),
        timeout: Duration::from_secs_f64(a.timeout.unwrap_or(DEFAULT_WAIT)),
        max: a.max.unwrap_or(DEFAULT_MAX),
    })
}

/// Reads `rx` until `max` matching events came, `timeout` passed (opening
/// the subscription included) or the events kept reach [`MAX_WAIT_BYTES`];
/// the structured result. An error from the stream ends the wait: with events
/// already received it becomes a note, otherwise it is returned.
pub(crate) async fn collect(
    rx: &mut Receiver,
    manifest: &Manifest,
    context: &str,
    args: &WaitArgs,
) -> Result<Value> {
    collect_within(rx, manifest, context, args, MAX_WAIT_BYTES).await
}

async fn collect_within(
    rx: &mut Receiver,
    manifest: &Manifest,
    context: &str,
    args: &WaitArgs,
    max_bytes: usize,
) -> Result<Value> {
    let deadline = tokio::time::Instant::now() + args.timeout;
    let mut decoder = Decoder::new(manifest);
    let mut kept = Kept {
        events: Vec::new(),
        bytes: 0,
        max_bytes,
        notes: Vec::new(),
    };
    let mut timed_out = false;
    while (kept.events.len() as u64) < args.max {
        let arrived = match next_arrival(rx, deadline, args, &mut kept).await? {
            Next::Arrived(a) => a,
            Next::Skip => continue,
            Next::TimedOut => {
                timed_out = true;
                break;
            }
            Next::Ended => break,
        };
        let (time, event) = (rfc3339(arrived.at), &arrived.event);
        // A group's event, of a group asked for: the node's payload as is.
        if let Some(group) = &event.group_id {
            if !args.groups.iter().any(|g| g.eq_ignore_ascii_case(group))
                || !wanted(args, &event.kind)
            {
                continue;
            }
            if !kept.push(group_record(&time, group, &event.kind, &event.data)) {
                break;
            }
            continue;
        }
        // Only the asked context counts (a node may send others' events).
        if !ids::same(&event.context_id, context) {
            continue;
        }
        if !keep_app_events(&mut kept, &mut decoder, &time, event, args) {
            break;
        }
    }
    let mut notes = kept.notes;
    if let Some(note) = rx.uninit.lock().unwrap_or_else(|e| e.into_inner()).clone() {
        notes.insert(0, note);
    }
    let out = EventsWaited {
        context,
        events: kept.events,
        timed_out,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
    };
    Ok(serde_json::to_value(out).unwrap_or_default())
}

/// Whether an event called `kind` is one the wait asks for.
fn wanted(args: &WaitArgs, kind: &str) -> bool {
    args.events.is_empty() || args.events.iter().any(|p| glob_match(p, kind))
}

/// The app events of one node event that the wait asks for, decoded and
/// kept; `false` when the wait is over (enough events, or too many bytes).
fn keep_app_events(
    kept: &mut Kept,
    decoder: &mut Decoder,
    time: &str,
    event: &NodeEvent,
    args: &WaitArgs,
) -> bool {
    for e in event.app_events().iter() {
        if !wanted(args, &e.kind) {
            continue;
        }
        let d = decoder.decode(&e.kind, &e.data);
        let rec = record(
            time,
            &event.context_id,
            &d.event,
            &d.payload,
            Some(d.valid),
            d.problem.as_deref(),
            d.raw.as_deref(),
        );
        if !kept.push(rec) {
            return false;
        }
        if kept.events.len() as u64 >= args.max {
            break;
        }
    }
    true
}

/// The events a wait keeps, within its byte budget, and its notes.
struct Kept {
    events: Vec<Value>,
    bytes: usize,
    max_bytes: usize,
    notes: Vec<String>,
}

impl Kept {
    /// Keeps `rec`, unless it would take the events kept past the budget
    /// (with some kept already): then says so in a note and returns `false`.
    fn push(&mut self, rec: Value) -> bool {
        let size = json_len(&rec);
        if self.bytes + size > self.max_bytes && !self.events.is_empty() {
            self.notes.push(format!(
                "stopped after {} events: they take {} bytes of JSON, and one wait returns at most {}; wait again for the next ones",
                self.events.len(),
                self.bytes,
                self.max_bytes
            ));
            return false;
        }
        self.bytes += size;
        self.events.push(rec);
        true
    }
}

/// What the next message of a feed means for a wait.
enum Next {
    Arrived(Arc<Arrived>),
    /// Nothing to keep (noted when worth saying): read on.
    Skip,
    TimedOut,
    /// The stream ended (noted).
    Ended,
}

/// The next message of `rx` before `deadline`, noted in `kept` when it is
/// no event; an error opening the stream before any event is returned.
async fn next_arrival(
    rx: &mut Receiver,
    deadline: tokio::time::Instant,
    args: &WaitArgs,
    kept: &mut Kept,
) -> Result<Next> {
    let notes = &mut kept.notes;
    let message = match tokio::time::timeout_at(deadline, rx.rx.recv()).await {
        Err(_) => {
            if !rx.opened.load(Ordering::SeqCst) {
                notes.push(format!(
                    "the node did not open its event stream within the {} s waited",
                    args.timeout.as_secs_f64()
                ));
            }
            return Ok(Next::TimedOut);
        }
        Ok(Ok(m)) => m,
        Ok(Err(broadcast::error::RecvError::Lagged(n))) => {
            notes.push(format!(
                "{n} events came faster than they were read and were skipped"
            ));
            return Ok(Next::Skip);
        }
        Ok(Err(broadcast::error::RecvError::Closed)) => {
            notes.push("the node's event stream ended".into());
            return Ok(Next::Ended);
        }
    };
    Ok(match message {
        Message::Event(a) => Next::Arrived(a),
        Message::Reconnected(down) => {
            notes.push(format!(
                "the event stream dropped and was opened again after {}; events in between are lost",
                span(down)
            ));
            Next::Skip
        }
        Message::Failed(e) if kept.events.is_empty() => return Err(e),
        Message::Failed(e) => {
            notes.push(format!("the node's event stream ended: {}", e.message));
            Next::Ended
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn arguments_are_checked_all_at_once() {
        let a = parse(&args(
            json!({"app": "kv", "_context": "c", "events": ["In*"], "timeout": 0.5, "max": 2}),
        ))
        .unwrap();
        assert_eq!(a.context.as_deref(), Some("c"));
        assert_eq!(a.timeout, Duration::from_millis(500));
        assert_eq!(a.max, 2);
        let d = parse(&args(json!({"app": "kv"}))).unwrap();
        assert_eq!(d.timeout, Duration::from_secs(10));
        assert_eq!(d.max, DEFAULT_MAX);
        let e = parse(&args(
            json!({"timeout": 61, "max": 0, "events": "x", "what": 1}),
        ))
        .err()
        .unwrap();
        for needle in [
            "app: missing",
            "timeout:",
            "max:",
            "events:",
            "what: unknown",
        ] {
            assert!(e.contains(needle), "{needle}: {e}");
        }
    }

    /// A backend whose subscriptions count themselves and yield what the test sends.
    struct Fake {
        opened: std::sync::atomic::AtomicUsize,
        live: Arc<std::sync::atomic::AtomicUsize>,
        tx: broadcast::Sender<NodeEvent>,
    }

    struct FakeEvents {
        rx: broadcast::Receiver<NodeEvent>,
        live: Arc<std::sync::atomic::AtomicUsize>,
    }

    impl Drop for FakeEvents {
        fn drop(&mut self) {
            self.live.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    impl calimcp_catalog::backend::Events for FakeEvents {
        fn next(&mut self) -> calimcp_catalog::backend::BoxFuture<'_, Result<Item>> {
            Box::pin(async move {
                self.rx
                    .recv()
                    .await
                    .map(Item::Event)
                    .map_err(|e| Error::internal(e.to_string()))
            })
        }
    }

    impl Backend for Fake {
        fn url(&self) -> String {
            "fake".into()
        }
        fn apps(
            &self,
        ) -> calimcp_catalog::backend::BoxFuture<'_, Result<calimcp_catalog::backend::NodeApps>>
        {
            Box::pin(async { Ok((Vec::new(), Vec::new())) })
        }
        fn forget(&self) {}
        fn apps_except<'a>(
            &'a self,
            _: &'a std::collections::HashSet<String>,
        ) -> calimcp_catalog::backend::BoxFuture<'a, Result<calimcp_catalog::backend::NodeApps>>
        {
            self.apps()
        }
        fn context_ids<'a>(
            &'a self,
            _: &'a [calimcp_core::abi::App],
        ) -> calimcp_catalog::backend::BoxFuture<'a, Result<Vec<String>>> {
            Box::pin(async { Ok(Vec::new()) })
        }
        fn subscribe_only<'a>(
            &'a self,
            contexts: &'a [String],
        ) -> calimcp_catalog::backend::BoxFuture<
            'a,
            Result<Box<dyn calimcp_catalog::backend::Events>>,
        > {
            self.subscribe(contexts)
        }
        fn subscribe_groups<'a>(
            &'a self,
            contexts: &'a [String],
            _: &'a [String],
        ) -> calimcp_catalog::backend::BoxFuture<
            'a,
            Result<Box<dyn calimcp_catalog::backend::Events>>,
        > {
            self.subscribe(contexts)
        }
        fn subscribe<'a>(
            &'a self,
            contexts: &'a [String],
        ) -> calimcp_catalog::backend::BoxFuture<
            'a,
            Result<Box<dyn calimcp_catalog::backend::Events>>,
        > {
            use std::sync::atomic::Ordering::SeqCst;
            if contexts[0] == "STALL" {
                // A node that never answers the subscription.
                return Box::pin(std::future::pending());
            }
            self.opened.fetch_add(1, SeqCst);
            self.live.fetch_add(1, SeqCst);
            let ev = FakeEvents {
                rx: self.tx.subscribe(),
                live: self.live.clone(),
            };
            Box::pin(async move { Ok(Box::new(ev) as Box<dyn calimcp_catalog::backend::Events>) })
        }
    }

    /// A hub and a fake backend whose subscriptions carry what the test
    /// sends (up to `capacity` events not yet read).
    fn fake_hub(capacity: usize) -> (Arc<Fake>, Arc<dyn Backend>, Hub) {
        let (tx, _) = broadcast::channel(capacity);
        let fake = Arc::new(Fake {
            opened: 0.into(),
            live: Arc::new(0.into()),
            tx,
        });
        let backend: Arc<dyn Backend> = fake.clone();
        (fake, backend, Hub::default())
    }

    /// An `Inserted` event of context `C` with payload `{"key": key, "n": n}`.
    fn inserted_at(key: &str, n: u64) -> NodeEvent {
        let data: Vec<Value> = format!(r#"{{"key":"{key}","n":{n}}}"#)
            .bytes()
            .map(Value::from)
            .collect();
        NodeEvent {
            context_id: "C".into(),
            group_id: None,
            kind: "StateMutation".into(),
            data: json!({"newRoot": "R", "events": [{"kind": "Inserted", "data": data, "handler": null}]}),
            events: Vec::new(),
        }
    }

    fn inserted(n: u64) -> NodeEvent {
        inserted_at("k", n)
    }

    #[tokio::test]
    async fn waiters_share_one_subscription_per_context_and_none_is_held_after() {
        use std::sync::atomic::Ordering::SeqCst;
        let (fake, backend, hub) = fake_hub(16);
        let (f1, mut r1) = hub.join(&backend, "C", &[]).await.unwrap();
        let (f2, mut r2) = hub.join(&backend, "C", &[]).await.unwrap();
        settle(|| fake.opened.load(SeqCst) == 1).await;
        assert_eq!(
            fake.opened.load(SeqCst),
            1,
            "one node subscription for two waiters"
        );
        assert_eq!(hub.open(), 1);
        let m = r#"{"schema_version":"wasm-abi/1","types":{"E":{"kind":"record","fields":[{"name":"key","type":{"kind":"string"}},{"name":"n","type":{"kind":"u64"}}]}},"methods":[],"events":[{"name":"Inserted","payload":{"$ref":"E"}}]}"#;
        let manifest = calimcp_core::abi::parse_manifest(m.as_bytes(), &mut Vec::new()).unwrap();
        let wait = parse(&args(json!({"app": "a", "max": 2, "timeout": 30}))).unwrap();
        // Both waiters are subscribed before anything is sent: nothing is lost.
        fake.tx.send(inserted(1)).unwrap();
        fake.tx.send(inserted(u64::MAX)).unwrap();
        let (a, b) = tokio::join!(
            collect(&mut r1, &manifest, "C", &wait),
            collect(&mut r2, &manifest, "C", &wait)
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a["events"], b["events"]);
        assert_eq!(a["timedOut"], false);
        assert_eq!(a["events"][1]["payload"]["n"], json!(u64::MAX));
        assert_eq!(a["events"][1]["valid"], true);
        let exact = exact_payloads(&manifest, &a);
        assert_eq!(
            exact["events"][1]["payload"],
            json!({"key": "k", "n": "18446744073709551615"}),
            "beyond 2^53: a decimal string"
        );
        assert_eq!(
            exact["events"][0]["payload"]["n"],
            json!(1),
            "small: a number"
        );
        conforms(&a);
        conforms(&exact);
        drop((f1, f2, r1, r2));
        // The subscription's task is aborted; its stream is dropped soon after.
        settle(|| fake.live.load(SeqCst) == 0).await;
        assert_eq!(
            fake.live.load(SeqCst),
            0,
            "no subscription held when nobody waits"
        );
        assert_eq!(hub.open(), 0);
        // A new waiter opens a new one; a short wait with nothing times out.
        let (_f, mut r) = hub.join(&backend, "C", &[]).await.unwrap();
        settle(|| fake.opened.load(SeqCst) == 2).await;
        assert_eq!(fake.opened.load(SeqCst), 2);
        let short = parse(&args(json!({"app": "a", "timeout": 0.05}))).unwrap();
        let v = collect(&mut r, &manifest, "C", &short).await.unwrap();
        assert_eq!(v["timedOut"], true);
        assert_eq!(v["events"], json!([]));
        conforms(&v);
    }

    /// Fails unless `answer` is valid against the listed outputSchema.
    fn conforms(answer: &Value) {
        let listed = tool()["outputSchema"].clone();
        assert!(listed.get("$defs").is_none(), "inlined: {listed}");
        let v = jsonschema::draft202012::new(&listed).unwrap();
        let errors: Vec<String> = v.iter_errors(answer).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}\n{answer}");
    }

    /// Lets spawned tasks run until `done` (bounded).
    async fn settle(done: impl Fn() -> bool) {
        for _ in 0..10_000 {
            if done() {
                return;
            }
            tokio::task::yield_now().await;
        }
        panic!("never settled");
    }

    fn kv_manifest() -> Manifest {
        let m = r#"{"schema_version":"wasm-abi/1","types":{},"methods":[],"events":[{"name":"Inserted"}]}"#;
        calimcp_core::abi::parse_manifest(m.as_bytes(), &mut Vec::new()).unwrap()
    }

    /// A subscription the node never answers holds up no other wait, and its
    /// own waiters return at their timeout saying so (issue 24.4); events of
    /// other contexts are not returned (24.7); a wait keeps a bounded number
    /// of bytes (24.2).
    #[tokio::test]
    async fn a_stalled_open_blocks_nobody_and_only_the_asked_context_counts() {
        use std::sync::atomic::Ordering::SeqCst;
        let (fake, backend, hub) = fake_hub(64);
        let manifest = kv_manifest();
        let (_stalled, mut rs) = hub.join(&backend, "STALL", &[]).await.unwrap();
        let (_f, mut r) = hub.join(&backend, "C", &[]).await.unwrap();
        settle(|| fake.opened.load(SeqCst) == 1).await;
        let mut foreign = inserted(1);
        foreign.context_id = "NotAContext".into();
        fake.tx.send(foreign).unwrap();
        fake.tx.send(inserted(2)).unwrap();
        let one = parse(&args(json!({"app": "a", "max": 1, "timeout": 30}))).unwrap();
        let v = collect(&mut r, &manifest, "C", &one).await.unwrap();
        assert_eq!(v["events"].as_array().unwrap().len(), 1);
        assert_eq!(v["events"][0]["context"], "C");
        assert_eq!(v["events"][0]["payload"]["n"], 2);
        let short = parse(&args(json!({"app": "a", "timeout": 0.05}))).unwrap();
        let v = collect(&mut rs, &manifest, "STALL", &short).await.unwrap();
        assert_eq!(v["timedOut"], true);
        assert!(v["note"].as_str().unwrap().contains("did not open"), "{v}");
        // Bytes: three events of ~1 KiB with room for two.
        for n in 0..3 {
            fake.tx.send(inserted_at(&"k".repeat(1000), n)).unwrap();
        }
        let all = parse(&args(json!({"app": "a", "max": 3, "timeout": 30}))).unwrap();
        let v = collect_within(&mut r, &manifest, "C", &all, 2400)
            .await
            .unwrap();
        assert_eq!(v["events"].as_array().unwrap().len(), 2, "{v}");
        assert!(v["note"].as_str().unwrap().contains("at most 2400"), "{v}");
        conforms(&v);
    }

    #[test]
    fn the_listed_tool_is_a_valid_mcp_tool() {
        let t: rmcp::model::Tool = serde_json::from_value(tool()).unwrap();
        assert_eq!(t.name, WAIT_FOR_EVENTS);
        assert!(t.output_schema.is_some());
    }
}
