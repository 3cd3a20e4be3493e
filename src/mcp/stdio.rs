//! The stdio transport: newline-delimited JSON-RPC on stdin/stdout.
//!
//! rmcp's own stdio transport drops a line that is not JSON without a word
//! (rust-sdk #938) and reads stdin on tokio's blocking pool, where a pending
//! read cannot be cancelled at shutdown. This one differs in exactly those two
//! ways: a garbage line gets a JSON-RPC parse error (`-32700`, id `null`) and
//! the server keeps serving; stdin and stdout are driven by two plain threads,
//! so SIGTERM never waits for input. It also takes JSON-RPC batches (an
//! array of messages, required by protocol 2025-03-26), answering a batch
//! with one array: an answer per request and per member that is not a valid
//! message, in the batch's order (JSON-RPC 2.0 §6). Integer ids outside i64
//! are echoed exactly. Message handling stays rmcp's.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, ClientRequest, CompleteRequestParams, ErrorCode,
    InitializeRequestParams, JsonRpcMessage, PaginatedRequestParams, ReadResourceRequestParams,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};

use super::log;
use calimcp_core::text::sanitize_line;

/// Longest message accepted on one line (the limit rmcp uses too).
pub(crate) const MAX_LINE: usize = 16 * 1024 * 1024;

/// Lines to write, in order; `None` asks the writer to stop.
type Out = std::sync::mpsc::Sender<Option<Vec<u8>>>;

/// The stdio transport and the two threads behind it.
pub(crate) struct Stdio {
    rx: tokio::sync::mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    out: Option<Out>,
    closed: Arc<AtomicBool>,
}

/// Stops the writer once everything queued so far is written.
pub(crate) struct Flush(Out, Option<JoinHandle<()>>);

impl Flush {
    pub(crate) fn wait(mut self) {
        let _ = self.0.send(None);
        if let Some(h) = self.1.take() {
            let _ = h.join();
        }
    }
}

/// A JSON-RPC batch being answered: one slot per member that gets an answer
/// (JSON-RPC 2.0 §6: every request, and every member that is not a valid
/// message), in the batch's order, and the ids of the requests whose answers
/// rmcp has not written yet with their slots; the answers go out together, as
/// one array, when the last one comes.
#[derive(Default)]
struct Batch {
    pending: Vec<(String, usize)>,
    answers: Vec<Option<Vec<u8>>>,
}

impl Batch {
    /// The array line, once every slot is filled.
    fn line(&self) -> Option<Vec<u8>> {
        if !self.pending.is_empty() || self.answers.is_empty() {
            return None;
        }
        let mut out = b"[".to_vec();
        for (i, a) in self.answers.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(a.as_deref()?);
        }
        out.extend_from_slice(b"]\n");
        Some(out)
    }
}

type Batches = Arc<std::sync::Mutex<Vec<Batch>>>;

/// An outgoing line, or `None` when it belongs to a batch still awaiting
/// answers (or the batch it completes, as one array line).
fn batched(batches: &Batches, line: Vec<u8>) -> Option<Vec<u8>> {
    let mut batches = batches.lock().unwrap_or_else(|e| e.into_inner());
    if batches.is_empty() {
        return Some(line);
    }
    let id = std::str::from_utf8(&line)
        .ok()
        .and_then(|t| find_id(t).map(|(_, raw)| raw.to_string()));
    let Some(id) = id else {
        return Some(line);
    };
    let Some((at, pos)) = batches.iter().enumerate().find_map(|(at, b)| {
        b.pending
            .iter()
            .position(|(p, _)| p == &id)
            .map(|pos| (at, pos))
    }) else {
        return Some(line);
    };
    let batch = &mut batches[at];
    let (_, slot) = batch.pending.remove(pos);
    let mut answer = line;
    while answer.last().is_some_and(u8::is_ascii_whitespace) {
        answer.pop();
    }
    batch.answers[slot] = Some(answer);
    let out = batch.line()?;
    batches.remove(at);
    Some(out)
}

/// Starts the reader and writer threads.
pub(crate) fn stdio() -> (Stdio, Flush) {
    let (out, lines) = std::sync::mpsc::channel::<Option<Vec<u8>>>();
    let closed = Arc::new(AtomicBool::new(false));
    let batches: Batches = Arc::default();
    let writer = {
        let closed = closed.clone();
        let batches = batches.clone();
        std::thread::Builder::new()
            .name("calimcp-stdout".into())
            .spawn(move || {
                let mut stdout = std::io::stdout().lock();
                for line in lines.iter().map_while(|l| l) {
                    let line = unalias_id(line);
                    let Some(line) = batched(&batches, line) else {
                        continue;
                    };
                    // A batch's answers filled in by the reader carry aliases too.
                    let line = unalias_id(line);
                    if stdout
                        .write_all(&line)
                        .and_then(|()| stdout.flush())
                        .is_err()
                    {
                        closed.store(true, Ordering::Release);
                        break;
                    }
                }
            })
            .ok()
    };
    let (tx, rx) = tokio::sync::mpsc::channel(64);
    let reader_out = out.clone();
    let _ = std::thread::Builder::new()
        .name("calimcp-stdin".into())
        .spawn(move || read_loop(tx, reader_out, batches));
    (
        Stdio {
            rx,
            out: Some(out.clone()),
            closed,
        },
        Flush(out, writer),
    )
}

fn read_loop(
    tx: tokio::sync::mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    out: Out,
    batches: Batches,
) {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    let mut before_init = BeforeInit::default();
    loop {
        line.clear();
        match read_line(&mut input, &mut line) {
            Ok(ReadLine::Eof) => break,
            Ok(ReadLine::TooLong) => {
                log::warn!("dropped a message longer than {MAX_LINE} bytes");
                send_error(
                    &out,
                    top_level_id(&line).unwrap_or(Value::Null),
                    ErrorCode::INVALID_REQUEST.0,
                    format!("Invalid Request: message longer than {MAX_LINE} bytes"),
                );
                continue;
            }
            Ok(ReadLine::Line) => {}
            Err(e) => {
                log::error!("cannot read stdin: {e}");
                break;
            }
        }
        let bytes = trimmed(&line);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        // A JSON-RPC batch (2025-03-26 requires servers to take them): each
        // message is handled as if it came alone, and the answers to its
        // requests go out together as one array.
        if bytes.first() == Some(&b'[') {
            if !read_batch(bytes, &mut before_init, &tx, &out, &batches) {
                return;
            }
            continue;
        }
        let aliased = alias_id(bytes);
        let bytes = aliased.as_deref().unwrap_or(bytes);
        if !handle(before_init.check(bytes, decode(bytes)), &tx, &out) {
            break;
        }
    }
}

/// A line without its line ending and a leading byte order mark.
fn trimmed(line: &[u8]) -> &[u8] {
    let mut bytes = line;
    bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes
}

/// A line holding a JSON-RPC batch: its members handed on one by one, its
/// answer held until rmcp answered each request. `false` once the server
/// stops taking messages.
fn read_batch(
    bytes: &[u8],
    before_init: &mut BeforeInit,
    tx: &tokio::sync::mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    out: &Out,
    batches: &Batches,
) -> bool {
    let Some(items) = batch_items(bytes, out) else {
        return true;
    };
    let decoded: Vec<(Option<String>, Decoded)> = items
        .iter()
        .map(|item| {
            let text = item.get();
            let id = find_id(text)
                .map(|(_, raw)| raw.to_string())
                .filter(|raw| raw != "null");
            let aliased = alias_id(text.as_bytes());
            let bytes = aliased.as_deref().unwrap_or(text.as_bytes());
            (id, before_init.check(bytes, decode(bytes)))
        })
        .collect();
    let (batch, messages) = batch_slots(decoded);
    if let Some(line) = batch.line() {
        // Nothing for rmcp to answer: the batch's answer is complete.
        let _ = out.send(Some(line));
    } else if !batch.answers.is_empty() {
        batches
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(batch);
    }
    for d in messages {
        if !handle(d, tx, out) {
            return false;
        }
    }
    true
}

/// A batch's members, or `None` when it is refused whole (not an array of
/// messages, empty, or more than `CALIMCP_MAX_BATCH`), its error sent.
fn batch_items(bytes: &[u8], out: &Out) -> Option<Vec<Box<serde_json::value::RawValue>>> {
    let Ok(items) = serde_json::from_slice::<Vec<Box<serde_json::value::RawValue>>>(bytes) else {
        send_error(
            out,
            Value::Null,
            ErrorCode::PARSE_ERROR.0,
            "Parse error: a batch that is not a JSON array of messages".into(),
        );
        return None;
    };
    if items.is_empty() {
        send_error(
            out,
            Value::Null,
            ErrorCode::INVALID_REQUEST.0,
            "Invalid Request: an empty batch".into(),
        );
        return None;
    }
    let max = super::batch::limits().max_batch;
    if items.len() > max {
        send_error(
            out,
            Value::Null,
            ErrorCode::INVALID_REQUEST.0,
            format!(
                "Invalid Request: a batch of {} messages; at most {max} are taken (CALIMCP_MAX_BATCH): send it in parts",
                items.len()
            ),
        );
        return None;
    }
    Some(items)
}

/// A batch's answer with a slot for each request (rmcp answers it) and each
/// member that is no valid message (answered here, in place), and the
/// messages for rmcp.
fn batch_slots(decoded: Vec<(Option<String>, Decoded)>) -> (Batch, Vec<Decoded>) {
    let mut batch = Batch::default();
    let mut messages = Vec::new();
    for (id, d) in decoded {
        match d {
            Decoded::Reply { id, code, message } => {
                log::debug!("{message}");
                batch.answers.push(Some(error_line(id, code, message)));
            }
            Decoded::Answer(answer) => {
                batch.answers.push(Some(answer.to_string().into_bytes()));
            }
            Decoded::Message(m) => {
                if let (Some(id), JsonRpcMessage::Request(_)) = (id, &*m) {
                    batch.pending.push((id, batch.answers.len()));
                    batch.answers.push(None);
                }
                messages.push(Decoded::Message(m));
            }
            ignored @ Decoded::Ignore(_) => messages.push(ignored),
        }
    }
    (batch, messages)
}

/// Until `initialize`: a request other than `ping` that does not carry its
/// own protocol version in `_meta` (as protocol 2026-07-28 requests do) is
/// answered "not initialized" (rmcp would read it as a 2026-07-28 request
/// and complain about its `_meta`, which misleads a client that simply
/// forgot the handshake).
#[derive(Default)]
struct BeforeInit {
    initialized: bool,
}

/// The LSP code for a request before the handshake (a JSON-RPC server error).
const NOT_INITIALIZED: i32 = -32002;

impl BeforeInit {
    fn check(&mut self, bytes: &[u8], d: Decoded) -> Decoded {
        if self.initialized {
            return d;
        }
        let Decoded::Message(m) = &d else { return d };
        let JsonRpcMessage::Request(r) = &**m else {
            return d;
        };
        let method = r.request.method();
        if method == "initialize" {
            self.initialized = true;
            return d;
        }
        if matches!(method, "ping" | "server/discover") || has_request_version(bytes) {
            return d;
        }
        Decoded::Reply {
            id: serde_json::to_value(&r.id).unwrap_or_default(),
            code: NOT_INITIALIZED,
            message: format!(
                "Server not initialized: send initialize first (`{}` came before it); under protocol 2026-07-28, give each request's _meta its protocolVersion instead",
                sanitize_line(method)
            ),
        }
    }
}

/// Whether a request names its protocol version in `params._meta` (2026-07-28).
fn has_request_version(bytes: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Params {
        #[serde(rename = "_meta")]
        meta: Option<serde_json::Map<String, Value>>,
    }
    #[derive(serde::Deserialize)]
    struct Request {
        params: Option<Params>,
    }
    serde_json::from_slice::<Request>(bytes)
        .ok()
        .and_then(|r| r.params?.meta)
        .is_some_and(|m| m.contains_key("io.modelcontextprotocol/protocolVersion"))
}

/// Acts on one decoded message; `false` when the server has gone.
fn handle(
    d: Decoded,
    tx: &tokio::sync::mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    out: &Out,
) -> bool {
    match d {
        Decoded::Message(m) => return tx.blocking_send(*m).is_ok(),
        Decoded::Reply { id, code, message } => {
            log::debug!("{message}");
            send_error(out, id, code, message);
        }
        Decoded::Answer(answer) => {
            let mut line = answer.to_string().into_bytes();
            line.push(b'\n');
            let _ = out.send(Some(line));
        }
        Decoded::Ignore(why) => log::debug!("ignored a message: {why}"),
    }
    true
}

/// Marks a request id rmcp cannot hold (an integer outside i64, e.g. 2^64):
/// it travels through rmcp as the string `"<ALIAS>digits"` and is written back
/// as the exact digits, never through a float.
const ALIAS: &str = "\u{1}calimcp-id:";

#[derive(serde::Deserialize)]
struct IdProbe<'a> {
    #[serde(borrow)]
    id: Option<&'a serde_json::value::RawValue>,
}

/// Where the top-level `id` of a JSON object line sits, and its text.
fn find_id(text: &str) -> Option<(usize, &str)> {
    let probe: IdProbe = serde_json::from_str(text).ok()?;
    let raw = probe.id?.get();
    let at = raw.as_ptr() as usize - text.as_ptr() as usize;
    Some((at, raw))
}

/// The line with an out-of-range integer id replaced by its alias, if it has one.
pub(super) fn alias_id(bytes: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let (at, raw) = find_id(text)?;
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || raw.parse::<i64>().is_ok()
    {
        return None;
    }
    let alias = serde_json::to_string(&format!("{ALIAS}{raw}")).ok()?;
    Some(
        [&text[..at], &alias, &text[at + raw.len()..]]
            .concat()
            .into_bytes(),
    )
}

/// Outgoing JSON text with every aliased id (a JSON string
/// `"\u0001calimcp-id:<digits>"`, wherever it sits: a message, the members of
/// a batch's array, an SSE `data:` line) written back as the client's digits.
pub(super) fn unalias_id(text: Vec<u8>) -> Vec<u8> {
    const MARKER: &[u8] = b"\"\\u0001calimcp-id:";
    if !text.windows(MARKER.len()).any(|w| w == MARKER) {
        return text;
    }
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i..].starts_with(MARKER) {
            let start = i + MARKER.len();
            let end = text[start..]
                .iter()
                .position(|&b| !(b.is_ascii_digit() || b == b'-'))
                .map(|n| start + n);
            if let Some(end) = end.filter(|&e| e > start && text[e] == b'"') {
                out.extend_from_slice(&text[start..end]);
                i = end + 1;
                continue;
            }
        }
        out.push(text[i]);
        i += 1;
    }
    out
}

enum ReadLine {
    Line,
    Eof,
    TooLong,
}

/// How much of an over-long line is kept to find its id.
const HEAD: usize = 64 * 1024;

/// The top-level `"id"` of a JSON object whose text starts with `head` (the
/// rest cut off): a number or a string, read exactly; `None` when the id is
/// not within the head.
fn top_level_id(head: &[u8]) -> Option<Value> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < head.len() {
        match head[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.checked_sub(1)?,
            b'"' => {
                let start = i;
                i += 1;
                while i < head.len() && head[i] != b'"' {
                    if head[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if depth == 1 && &head[start..(i + 1).min(head.len())] == b"\"id\"" {
                    let mut j = i + 1;
                    while j < head.len() && head[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if head.get(j) != Some(&b':') {
                        return None;
                    }
                    // The value runs to the next `,` or `}` outside a string.
                    let rest = &head[j + 1..];
                    let mut de = serde_json::Deserializer::from_slice(rest).into_iter::<Value>();
                    return match de.next() {
                        Some(Ok(v @ (Value::Number(_) | Value::String(_)))) => Some(v),
                        _ => None,
                    };
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Reads one line into `buf` without ever holding more than [`MAX_LINE`]
/// bytes; of a longer one, only its first [`HEAD`] bytes stay in `buf`.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<ReadLine> {
    let mut too_long = false;
    loop {
        let available = match input.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(if too_long {
                ReadLine::TooLong
            } else if buf.is_empty() {
                ReadLine::Eof
            } else {
                ReadLine::Line
            });
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let take = newline.map_or(available.len(), |i| i + 1);
        if !too_long {
            if buf.len() + take > MAX_LINE {
                // Keep the head: the request's id is usually in it.
                too_long = true;
                buf.truncate(HEAD);
            } else {
                buf.extend_from_slice(&available[..take]);
            }
        }
        input.consume(take);
        if newline.is_some() {
            return Ok(if too_long {
                ReadLine::TooLong
            } else {
                ReadLine::Line
            });
        }
    }
}

enum Decoded {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Answer with this message, as it is.
    Answer(Value),
    /// Answer with a JSON-RPC error.
    Reply {
        id: Value,
        code: i32,
        message: String,
    },
    Ignore(String),
}

/// One input line through the server's decoding, as the fuzz target
/// `mcp_line` drives it (`fuzz/`): the decision and the id an error answer
/// would carry. Never panics, whatever the bytes.
#[doc(hidden)]
pub fn fuzz_line(bytes: &[u8]) -> Option<Value> {
    let _ = decode(bytes);
    top_level_id(bytes)
}

/// A message's top-level `jsonrpc`, `id` and `method`, as written (one
/// pass over its text; the checks below share it).
#[derive(serde::Deserialize)]
pub(super) struct Envelope<'a> {
    #[serde(borrow)]
    jsonrpc: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow)]
    id: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow)]
    method: Option<&'a serde_json::value::RawValue>,
}

impl<'a> Envelope<'a> {
    /// The envelope of a JSON object's text; `None` when it is no JSON object.
    pub(super) fn read(text: &'a [u8]) -> Option<Envelope<'a>> {
        serde_json::from_slice(text).ok()
    }

    /// Whether its id is an integer rmcp cannot hold (outside i64), which
    /// [`alias_id`] rewrites.
    pub(super) fn id_needs_alias(&self) -> bool {
        let Some(raw) = self.id.map(|r| r.get()) else {
            return false;
        };
        let digits = raw.strip_prefix('-').unwrap_or(raw);
        !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && raw.parse::<i64>().is_err()
    }
}

/// A request (a method and an id) that is not JSON-RPC 2.0: `jsonrpc`
/// missing or not `"2.0"`, or an id that is neither a string nor an integer
/// (`1.5`, `1e3`, `true`). The answer: −32600 with the id as received when it
/// is a number or a string (else `null`), and why.
pub(super) fn bad_envelope(text: &[u8]) -> Option<(Value, String)> {
    envelope_problem(&Envelope::read(text)?)
}

/// [`bad_envelope`] of an envelope already read.
pub(super) fn envelope_problem(e: &Envelope) -> Option<(Value, String)> {
    let (raw, _) = (e.id?, e.method?);
    let id: Value = serde_json::from_str(raw.get()).ok()?;
    let why = match &id {
        Value::String(_) => None,
        Value::Number(n) if n.is_i64() || n.is_u64() => None,
        Value::Number(_) => Some("the id must be a string or an integer"),
        _ => Some("the id must be a string or an integer"),
    };
    let why = why.or_else(|| {
        (e.jsonrpc.map(|v| v.get()) != Some("\"2.0\"")).then_some("`jsonrpc` must be \"2.0\"")
    })?;
    let id = if id.is_string() || id.is_number() {
        id
    } else {
        Value::Null
    };
    Some((id, format!("Invalid Request: {why}")))
}

/// A `tools/call` whose JSON gives a key twice in one object (a parser
/// would keep the last, silently): its `isError` result, as for any bad
/// argument; nothing reaches the node.
pub(super) fn duplicate_keys_answer(text: &[u8]) -> Option<Value> {
    duplicate_keys_in(&Envelope::read(text)?, text)
}

/// [`duplicate_keys_answer`] of `text`, whose envelope is `e`.
pub(super) fn duplicate_keys_in(e: &Envelope, text: &[u8]) -> Option<Value> {
    if e.method?.get() != "\"tools/call\"" {
        return None;
    }
    let id: Value = serde_json::from_str(e.id?.get()).ok()?;
    let why = calimcp_core::mapping::args::duplicate_key(text)?;
    Some(json!({"jsonrpc": "2.0", "id": id, "result": {
        "content": [{"type": "text", "text": format!("Invalid arguments: {why}; nothing was sent")}],
        "isError": true,
    }}))
}

/// The answer to a message that is not one rmcp takes (invalid JSON-RPC,
/// bad params of a standard request, not JSON): its JSON-RPC error with the
/// message's id, as stdio gives it; `None` for a valid message and for a
/// notification, which is never answered.
pub(super) fn refusal(bytes: &[u8]) -> Option<Value> {
    match decode(bytes) {
        Decoded::Reply { id, code, message } => {
            Some(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}))
        }
        Decoded::Answer(answer) => Some(answer),
        Decoded::Message(_) | Decoded::Ignore(_) => None,
    }
}

/// What to do with one input line.
fn decode(bytes: &[u8]) -> Decoded {
    if let Some((id, message)) = bad_envelope(bytes) {
        return Decoded::Reply {
            id,
            code: ErrorCode::INVALID_REQUEST.0,
            message,
        };
    }
    if let Some(answer) = duplicate_keys_answer(bytes) {
        return Decoded::Answer(answer);
    }
    let e = match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(bytes) {
        Ok(JsonRpcMessage::Request(r)) if malformed_standard(&r.request).is_some() => {
            let (method, why) = malformed_standard(&r.request).unwrap_or_default();
            return Decoded::Reply {
                id: serde_json::to_value(&r.id).unwrap_or_default(),
                code: ErrorCode::INVALID_PARAMS.0,
                message: format!("Invalid params for `{method}`: {why}"),
            };
        }
        Ok(m) => return Decoded::Message(Box::new(m)),
        Err(e) => e,
    };
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(_) if e.to_string().contains("recursion limit") => {
            // Too deep for a tree, yet often readable enough for its id.
            let id = std::str::from_utf8(bytes)
                .ok()
                .and_then(find_id)
                .and_then(|(_, raw)| serde_json::from_str::<Value>(raw).ok())
                .filter(|v| v.is_string() || v.is_number())
                .unwrap_or(Value::Null);
            return Decoded::Reply {
                id,
                code: ErrorCode::INVALID_REQUEST.0,
                message: format!("Invalid Request: the message is nested too deep ({e})"),
            };
        }
        Err(_) => {
            return Decoded::Reply {
                id: Value::Null,
                code: ErrorCode::PARSE_ERROR.0,
                message: format!("Parse error: the line is not JSON ({e})"),
            };
        }
    };
    let id = value.get("id").cloned();
    let method = value.get("method").and_then(Value::as_str);
    match (id, method) {
        // A notification nobody asked for (e.g. another protocol's): JSON-RPC
        // says never to answer a notification.
        (None, Some(m)) => Decoded::Ignore(format!("notification `{m}`: {e}")),
        (Some(id @ (Value::String(_) | Value::Number(_))), Some(m)) => Decoded::Reply {
            id,
            code: ErrorCode::INVALID_PARAMS.0,
            message: format!("Invalid params for `{m}`: {e}"),
        },
        (Some(id @ (Value::String(_) | Value::Number(_))), None) => Decoded::Reply {
            id,
            code: ErrorCode::INVALID_REQUEST.0,
            message: format!("Invalid Request: {e}"),
        },
        _ => Decoded::Reply {
            id: Value::Null,
            code: ErrorCode::INVALID_REQUEST.0,
            message: "Invalid Request: not a JSON-RPC 2.0 message".into(),
        },
    }
}

/// rmcp reads a standard request whose params do not fit as a custom request
/// and would answer "method not found"; say what is wrong instead.
fn malformed_standard(request: &ClientRequest) -> Option<(String, String)> {
    let ClientRequest::CustomRequest(custom) = request else {
        return None;
    };
    let why = malformed_params(&custom.method, custom.params.clone())?;
    Some((custom.method.clone(), why))
}

/// Why `params` do not fit the standard request `method` (rmcp reads such a
/// request as a custom one); `None` when they fit or the method is not one
/// calimcp serves. Both transports answer it −32602 (stdio here, HTTP in the
/// session's `on_custom_request`).
pub(super) fn malformed_params(method: &str, params: Option<Value>) -> Option<String> {
    use serde_json::from_value;
    let params = params.unwrap_or(Value::Null);
    let why = match method {
        "tools/call" => from_value::<CallToolRequestParams>(params).err()?,
        "initialize" => from_value::<InitializeRequestParams>(params).err()?,
        "tools/list" | "resources/list" | "resources/templates/list" => {
            from_value::<Option<PaginatedRequestParams>>(params).err()?
        }
        "resources/read" => from_value::<ReadResourceRequestParams>(params).err()?,
        "completion/complete" => from_value::<CompleteRequestParams>(params).err()?,
        _ => return None,
    };
    Some(why.to_string())
}

/// A JSON-RPC error answer, without its newline.
fn error_line(id: Value, code: i32, message: String) -> Vec<u8> {
    let reply = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    reply.to_string().into_bytes()
}

fn send_error(out: &Out, id: Value, code: i32, message: String) {
    let mut line = error_line(id, code, message);
    line.push(b'\n');
    let _ = out.send(Some(line));
}

impl Transport<RoleServer> for Stdio {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let result = (|| {
            if self.closed.load(Ordering::Acquire) {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::BrokenPipe,
                    "stdout is closed",
                ));
            }
            let mut line = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            line.push(b'\n');
            self.out
                .as_ref()
                .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotConnected, "closed"))?
                .send(Some(line))
                .map_err(|_| {
                    std::io::Error::new(std::io::ErrorKind::BrokenPipe, "stdout is closed")
                })
        })();
        std::future::ready(result)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        self.rx.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.out = None;
        self.rx.close();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(bytes: &[u8]) -> (Value, i32) {
        match decode(bytes) {
            Decoded::Reply { id, code, .. } => (id, code),
            Decoded::Message(_) => panic!("decoded as a message"),
            Decoded::Answer(a) => panic!("answered: {a}"),
            Decoded::Ignore(w) => panic!("ignored: {w}"),
        }
    }

    #[test]
    fn garbage_is_a_parse_error() {
        assert_eq!(reply(b"this is not json"), (Value::Null, -32700));
        assert_eq!(reply(b"{\"jsonrpc\":"), (Value::Null, -32700));
    }

    #[test]
    fn json_that_is_not_a_message_is_an_invalid_request() {
        assert_eq!(reply(b"[1,2]"), (Value::Null, -32600));
        assert_eq!(reply(b"{\"id\":7}"), (json!(7), -32600));
        assert_eq!(
            reply(br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":5}}"#),
            (json!("a"), -32602)
        );
    }

    #[test]
    fn requests_that_are_not_json_rpc_2_are_invalid_requests() {
        assert_eq!(reply(br#"{"id":1,"method":"ping"}"#), (json!(1), -32600));
        assert_eq!(
            reply(br#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#),
            (json!("a"), -32600)
        );
        assert_eq!(
            reply(br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#),
            (json!(1.5), -32600)
        );
        assert_eq!(
            reply(br#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#),
            (Value::Null, -32600)
        );
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#),
            Decoded::Reply { .. } | Decoded::Message(_)
        ));
    }

    #[test]
    fn aliased_ids_are_written_back_wherever_they_sit() {
        let line =
            alias_id(br#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#).unwrap();
        let text = String::from_utf8(line).unwrap();
        let answer = text.replace(r#","method":"ping""#, r#","result":{}"#);
        let batch = format!("[{answer},{answer}]");
        assert_eq!(
            String::from_utf8(unalias_id(batch.into_bytes())).unwrap(),
            r#"[{"jsonrpc":"2.0","id":18446744073709551616,"result":{}},{"jsonrpc":"2.0","id":18446744073709551616,"result":{}}]"#
        );
        let sse = format!("event: message\ndata: {answer}\n\n");
        assert!(
            String::from_utf8(unalias_id(sse.into_bytes()))
                .unwrap()
                .contains(r#""id":18446744073709551616,"#)
        );
    }

    #[test]
    fn stray_notifications_are_ignored_and_messages_decode() {
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}"#),
            Decoded::Ignore(_) | Decoded::Message(_)
        ));
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Decoded::Message(_)
        ));
    }

    #[test]
    fn long_lines_are_dropped_whole() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\n{}\n");
        let mut input = std::io::Cursor::new(data);
        let mut buf = Vec::new();
        assert!(matches!(
            read_line(&mut input, &mut buf).unwrap(),
            ReadLine::TooLong
        ));
        buf.clear();
        assert!(matches!(
            read_line(&mut input, &mut buf).unwrap(),
            ReadLine::Line
        ));
        assert_eq!(buf, b"{}\n");
    }

    #[test]
    fn the_id_of_an_over_long_line_is_read_from_its_head() {
        let head = br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"id":7,"a":"xxxx"#;
        assert_eq!(top_level_id(head), Some(Value::from(42)));
        let head = br#"{"params":{"id":7,"s":"\"id\":9"},"id" : "abc","method":"#;
        assert_eq!(top_level_id(head), Some(Value::from("abc")));
        let head = br#"{"jsonrpc":"2.0","method":"x","params":{"id":7,"a":"xxxx"#;
        assert_eq!(top_level_id(head), None);
        assert_eq!(top_level_id(b"[1,2"), None);
    }
}
