//! JSON-RPC batches over Streamable HTTP, and the checks every POSTed
//! message passes first.
//!
//! Protocol 2025-03-26 lets a client POST an array of messages; rmcp's
//! transport takes one message per POST. A batch is split here: each message
//! goes to the MCP service as a POST of its own with the batch's headers
//! (session, protocol version), a few at a time, and the answers to its
//! requests come back together as one JSON array in the batch's order (a batch
//! of notifications and responses only: 202, as for one). Later revisions
//! dropped batches, so a batch on a connection that declares one of them in
//! `MCP-Protocol-Version` is refused with a JSON-RPC error (400), and so is
//! `initialize` inside a batch, which 2025-03-26 forbids. Notifications a
//! request sends on its way (progress, log messages) are not part of a batch's
//! answer. A failure that is not a JSON-RPC answer (an unknown session: 404)
//! is returned as it came, so the client reacts as it would to one message.
//!
//! A batch holds at most [`Limits::max_batch`] messages and its answer at
//! most [`Limits::max_answer`] bytes: past that, each further request is
//! answered with an error instead of its result. A request that is not
//! JSON-RPC 2.0 (no `jsonrpc: "2.0"`, a fractional id) is refused with −32600
//! and its id; an integer id beyond i64, which rmcp cannot hold, travels
//! through it aliased (as on stdio) and is echoed exactly.

use std::sync::OnceLock;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tower::ServiceExt;

use super::stdio::{
    Envelope, alias_id, bad_envelope, duplicate_keys_answer, duplicate_keys_in, envelope_problem,
    refusal, unalias_id,
};

/// Largest POST body read, as rmcp's own limit (4 MiB).
const MAX_BODY: usize = 4 << 20;

/// The only revision with batches; a request without the header is read as it.
const BATCH_REVISION: &str = "2025-03-26";

/// Messages of one batch handled at the same time.
const IN_FLIGHT: usize = 4;

/// What one client may make the server hold (`CALIMCP_MAX_*`, read by `serve`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Messages in one JSON-RPC batch (`CALIMCP_MAX_BATCH`).
    pub max_batch: usize,
    /// Bytes of one batch's answer (`CALIMCP_MAX_ANSWER`).
    pub max_answer: usize,
    /// Live Streamable HTTP sessions (`CALIMCP_MAX_SESSIONS`).
    pub max_sessions: usize,
    /// Seconds a client has to send a request's headers (`CALIMCP_HEADER_TIMEOUT`).
    pub header_timeout: std::time::Duration,
}

impl Limits {
    pub(crate) const DEFAULT: Limits = Limits {
        max_batch: 100,
        max_answer: 32 << 20,
        max_sessions: 1000,
        header_timeout: std::time::Duration::from_secs(10),
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

static LIMITS: OnceLock<Limits> = OnceLock::new();

/// Sets the process-wide limits (once, at start; later calls are ignored).
pub fn set_limits(limits: Limits) {
    let _ = LIMITS.set(limits);
}

/// The limits in force.
pub fn limits() -> Limits {
    LIMITS.get().copied().unwrap_or_default()
}

/// Hands a POSTed batch to `svc` message by message; anything else passes through.
pub(crate) async fn handle<S>(svc: S, req: axum::extract::Request) -> Response
where
    S: tower::Service<axum::extract::Request, Response = Response> + Clone + Send + 'static,
    S::Future: Send,
    S::Error: std::fmt::Display,
{
    if req.method() != Method::POST {
        return forward(svc, req).await;
    }
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return plain(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Payload Too Large: the body is longer than 4 MiB",
        );
    };
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'[') {
        return single(svc, parts, bytes).await;
    }
    let limits = limits();
    let messages = match batch_messages(&parts, &bytes, limits) {
        Ok(messages) => messages,
        Err(refused) => return refused,
    };
    match run_batch(svc, &parts, messages, limits).await {
        Ok(answers) => batch_answer(answers),
        Err(response) => response,
    }
}

/// One message POSTed alone: its envelope checked, then handed to `svc`.
async fn single<S>(svc: S, parts: axum::http::request::Parts, bytes: Bytes) -> Response
where
    S: tower::Service<axum::extract::Request, Response = Response>,
    S::Error: std::fmt::Display,
{
    // The message's envelope is read once for the checks before rmcp
    // (which reads the message itself); an id beyond i64 is the rare case
    // that reads it again, aliased.
    let envelope = Envelope::read(&bytes);
    let aliased = envelope
        .as_ref()
        .filter(|e| e.id_needs_alias())
        .and_then(|_| alias_id(&bytes));
    let checked = match &aliased {
        Some(text) => Envelope::read(text).map(|e| (e, text.as_slice())),
        None => envelope.map(|e| (e, &bytes[..])),
    };
    if let Some((envelope, text)) = &checked {
        if let Some((id, message)) = envelope_problem(envelope) {
            let answer =
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": message}});
            return json_text(
                StatusCode::BAD_REQUEST,
                unalias_id(answer.to_string().into_bytes()),
            );
        }
        if let Some(answer) = duplicate_keys_in(envelope, text) {
            return json_text(StatusCode::OK, unalias_id(answer.to_string().into_bytes()));
        }
    }
    let Some(aliased) = aliased else {
        let response = forward(
            svc,
            axum::extract::Request::from_parts(parts, Body::from(bytes.clone())),
        )
        .await;
        return super::answer::json_when_quick(refused_alone(response, &bytes)).await;
    };
    single_aliased(svc, parts, aliased).await
}

/// One message whose id is beyond i64, sent as `aliased`: the answer carries
/// the alias, so it is read whole (its stream ends after the answer) and the
/// client's digits written back.
async fn single_aliased<S>(
    svc: S,
    mut parts: axum::http::request::Parts,
    aliased: Vec<u8>,
) -> Response
where
    S: tower::Service<axum::extract::Request, Response = Response>,
    S::Error: std::fmt::Display,
{
    parts.headers.remove(header::CONTENT_LENGTH);
    let response = forward(
        svc,
        axum::extract::Request::from_parts(parts, Body::from(aliased.clone())),
    )
    .await;
    let response = refused_alone(response, &aliased);
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, limits().max_answer).await else {
        return plain(
            StatusCode::BAD_GATEWAY,
            "the answer was cut off, or longer than CALIMCP_MAX_ANSWER",
        );
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(unalias_id(bytes.to_vec())))
}

/// A batch's messages as they travel through rmcp (an id beyond i64
/// aliased), each with its value when it is JSON; `Err` the answer refusing
/// the whole batch.
// The refusal is the HTTP answer itself, passed on as it is.
#[allow(clippy::result_large_err)]
fn batch_messages(
    parts: &axum::http::request::Parts,
    bytes: &[u8],
    limits: Limits,
) -> Result<Vec<(String, Option<Value>)>, Response> {
    let declared = parts
        .headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok())
        .unwrap_or(BATCH_REVISION);
    if declared != BATCH_REVISION {
        return Err(refused(format!(
            "Invalid Request: JSON-RPC batches are part of protocol {BATCH_REVISION} only, and this session uses {declared}; send one message per POST"
        )));
    }
    let items: Vec<Box<RawValue>> = match serde_json::from_slice(bytes) {
        Ok(items) => items,
        _ => return Err(parse_error("a batch that is not a JSON array of messages")),
    };
    if items.is_empty() {
        return Err(refused("Invalid Request: an empty batch".into()));
    }
    if items.len() > limits.max_batch {
        return Err(refused(format!(
            "Invalid Request: a batch of {} messages; at most {} are taken (CALIMCP_MAX_BATCH): send it in parts",
            items.len(),
            limits.max_batch
        )));
    }
    // Each message as it travels through rmcp (an id beyond i64 aliased).
    let messages: Vec<(String, Option<Value>)> = items
        .iter()
        .map(|item| {
            let text = item.get();
            let text = alias_id(text.as_bytes())
                .and_then(|a| String::from_utf8(a).ok())
                .unwrap_or_else(|| text.to_string());
            let value = serde_json::from_str::<Value>(&text).ok();
            (text, value)
        })
        .collect();
    drop(items);
    if messages
        .iter()
        .any(|(_, m)| m.as_ref().is_some_and(|m| m["method"] == "initialize"))
    {
        return Err(refused(
            "Invalid Request: initialize must not be part of a JSON-RPC batch; send it alone first"
                .into(),
        ));
    }
    Ok(messages)
}

/// What one message of a batch came back with: its place, its answer, its id.
type Done = (usize, Result<Option<Value>, Failure>, Option<Value>);

/// Runs a batch's messages through `svc`, [`IN_FLIGHT`] at a time: the
/// answers by place, or `Err` a failure that ends the batch as it came.
async fn run_batch<S>(
    svc: S,
    parts: &axum::http::request::Parts,
    messages: Vec<(String, Option<Value>)>,
    limits: Limits,
) -> Result<Vec<(usize, Value)>, Response>
where
    S: tower::Service<axum::extract::Request, Response = Response> + Clone + Send + 'static,
    S::Future: Send,
    S::Error: std::fmt::Display,
{
    let mut answers: Vec<(usize, Value)> = Vec::new();
    let mut size = 0usize;
    let mut calls = tokio::task::JoinSet::new();
    let mut queue = messages.into_iter().enumerate();
    loop {
        while calls.len() < IN_FLIGHT {
            let Some((at, (text, message))) = queue.next() else {
                break;
            };
            let id = message.as_ref().and_then(|m| m.get("id").cloned());
            let is_request =
                message.as_ref().is_some_and(|m| m.get("method").is_some()) && id.is_some();
            if let Some((id, why)) = bad_envelope(text.as_bytes()) {
                answers.push((at, error(id, -32600, why)));
                continue;
            }
            if let Some(answer) = duplicate_keys_answer(text.as_bytes()) {
                answers.push((at, answer));
                continue;
            }
            if size > limits.max_answer {
                // The answer is full: a request still gets an answer, nothing
                // else runs.
                if is_request {
                    answers.push((at, too_long(id, limits.max_answer)));
                }
                continue;
            }
            let sent = Bytes::from(text);
            let one = one_request(parts, sent.clone());
            let svc = svc.clone();
            let room = limits.max_answer.saturating_sub(size);
            calls.spawn(async move {
                let answer = answer(svc, one, &sent, id.clone(), is_request, room).await;
                (at, answer, id)
            });
        }
        let Some(done) = calls.join_next().await else {
            break;
        };
        record(done, &mut answers, &mut size, limits)?;
    }
    Ok(answers)
}

/// One message of a batch as a POST of its own, with the batch's headers.
fn one_request(parts: &axum::http::request::Parts, sent: Bytes) -> axum::extract::Request {
    let mut one = axum::http::Request::builder()
        .method(Method::POST)
        .uri(parts.uri.clone())
        .body(Body::from(sent))
        .unwrap_or_default();
    *one.headers_mut() = parts.headers.clone();
    one.headers_mut().remove(header::CONTENT_LENGTH);
    one
}

/// Takes a finished message's answer into `answers` (an error in its place
/// once the batch's answer passes `limits.max_answer` bytes, counted in
/// `size`); `Err` a failure that ends the batch as it came.
// The refusal is the HTTP answer itself, passed on as it is.
#[allow(clippy::result_large_err)]
fn record(
    done: Result<Done, tokio::task::JoinError>,
    answers: &mut Vec<(usize, Value)>,
    size: &mut usize,
    limits: Limits,
) -> Result<(), Response> {
    match done {
        Ok((at, Ok(Some(answer)), id)) => {
            let len = answer.to_string().len();
            if size.saturating_add(len) > limits.max_answer {
                *size = size.saturating_add(len);
                answers.push((at, too_long(id, limits.max_answer)));
            } else {
                *size += len;
                answers.push((at, answer));
            }
        }
        Ok((_, Ok(None), _)) => {}
        Ok((at, Err(Failure::TooLong), id)) => {
            *size = usize::MAX;
            answers.push((at, too_long(id, limits.max_answer)));
        }
        // A failure that is not a JSON-RPC answer ends the batch as it came.
        Ok((_, Err(Failure::Http(response)), _)) => return Err(response),
        Err(e) => {
            return Err(plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!("a batch message failed: {e}"),
            ));
        }
    }
    Ok(())
}

/// The batch's answer: its requests' answers in the batch's order, or 202
/// when it held none.
fn batch_answer(mut answers: Vec<(usize, Value)>) -> Response {
    if answers.is_empty() {
        return Response::builder()
            .status(StatusCode::ACCEPTED)
            .body(Body::empty())
            .unwrap_or_default();
    }
    answers.sort_by_key(|(at, _)| *at);
    let array = Value::Array(answers.into_iter().map(|(_, a)| a).collect());
    json_text(StatusCode::OK, unalias_id(array.to_string().into_bytes()))
}

fn error(id: Value, code: i32, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn too_long(id: Option<Value>, max: usize) -> Value {
    error(
        id.unwrap_or(Value::Null),
        -32603,
        format!(
            "Internal error: the batch's answer passed {} bytes (CALIMCP_MAX_ANSWER); send this request alone or in a smaller batch",
            max
        ),
    )
}

/// Why a message of a batch has no JSON-RPC answer.
enum Failure {
    /// An HTTP failure, returned as it came.
    Http(Response),
    /// Its answer is longer than the room left in the batch's.
    TooLong,
}

async fn forward<S>(svc: S, req: axum::extract::Request) -> Response
where
    S: tower::Service<axum::extract::Request, Response = Response>,
    S::Error: std::fmt::Display,
{
    match svc.oneshot(req).await {
        Ok(response) => response,
        Err(e) => plain(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// One message's answer: `Some` JSON-RPC response for a request (or for a
/// member that is no valid message, as stdio answers it), `None` for a
/// notification or response that was accepted, `Err` for an HTTP failure
/// that is not a JSON-RPC answer or an answer longer than `room` bytes.
async fn answer<S>(
    svc: S,
    req: axum::extract::Request,
    sent: &[u8],
    id: Option<Value>,
    is_request: bool,
    room: usize,
) -> Result<Option<Value>, Failure>
where
    S: tower::Service<axum::extract::Request, Response = Response>,
    S::Error: std::fmt::Display,
{
    let response = forward(svc, req).await;
    let status = response.status();
    if status == StatusCode::UNSUPPORTED_MEDIA_TYPE {
        // Not a message rmcp takes: answered here, as on stdio.
        return Ok(refusal(sent));
    }
    let sse = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    let (parts, body) = response.into_parts();
    // The stream of one request ends after its answer.
    let bytes = match axum::body::to_bytes(body, room).await {
        Ok(bytes) => bytes,
        Err(e) if is_length_limit(&e) => return Err(Failure::TooLong),
        Err(_) => {
            return Err(Failure::Http(plain(
                StatusCode::BAD_GATEWAY,
                "a batch message's answer was cut off",
            )));
        }
    };
    let messages: Vec<Value> = if sse {
        sse_messages(&bytes)
    } else {
        serde_json::from_slice(&bytes).into_iter().collect()
    };
    let mine = messages.into_iter().find(|m| {
        m.get("method").is_none() && (m.get("result").is_some() || m.get("error").is_some())
    });
    match (mine, status.is_success()) {
        (Some(mut answer), _) => {
            if let (Some(id), Some(obj)) = (&id, answer.as_object_mut())
                && obj.get("id").is_none_or(Value::is_null)
            {
                obj.insert("id".into(), id.clone());
            }
            Ok(Some(answer))
        }
        (None, true) if !is_request => Ok(None),
        (None, true) => Ok(Some(json!({
            "jsonrpc": "2.0", "id": id,
            "error": {"code": -32603, "message": "Internal error: the request ended without an answer"}
        }))),
        (None, false) => Err(Failure::Http(Response::from_parts(
            parts,
            Body::from(bytes),
        ))),
    }
}

/// A message sent alone that rmcp did not take (it answers 415 "fail to
/// deserialize"): its JSON-RPC error with its id (400) when it is JSON, as on
/// stdio; 202 for a notification; anything else as it came.
fn refused_alone(response: Response, sent: &[u8]) -> Response {
    if response.status() != StatusCode::UNSUPPORTED_MEDIA_TYPE
        || serde_json::from_slice::<serde::de::IgnoredAny>(sent).is_err()
    {
        return response;
    }
    match refusal(sent) {
        Some(answer) => json_text(
            StatusCode::BAD_REQUEST,
            unalias_id(answer.to_string().into_bytes()),
        ),
        None => Response::builder()
            .status(StatusCode::ACCEPTED)
            .body(Body::empty())
            .unwrap_or_default(),
    }
}

/// Whether reading a body failed on its length limit.
fn is_length_limit(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        // http_body_util's LengthLimitError, which axum does not re-export.
        if s.to_string() == "length limit exceeded" {
            return true;
        }
        source = s.source();
    }
    false
}

/// The JSON messages of an SSE body (`data:` lines; comments and priming events skipped).
fn sse_messages(body: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(body);
    text.split("\n\n")
        .filter_map(|event| serde_json::from_str(&super::answer::event_data(event)).ok())
        .collect()
}

fn json_response(status: StatusCode, value: &Value) -> Response {
    json_text(status, value.to_string().into_bytes())
}

fn json_text(status: StatusCode, text: Vec<u8>) -> Response {
    Response::builder()
        .status(status)
        .header(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )
        .body(Body::from(text))
        .unwrap_or_default()
}

fn refused(message: String) -> Response {
    json_response(
        StatusCode::BAD_REQUEST,
        &json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": message}}),
    )
}

/// A JSON-RPC parse error (400) with no id, for a body that is not a message.
pub(super) fn parse_error(what: &str) -> Response {
    json_response(
        StatusCode::BAD_REQUEST,
        &json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {what}")}}),
    )
}

fn plain(status: StatusCode, text: &str) -> Response {
    Response::builder()
        .status(status)
        .body(Body::from(Bytes::from(text.to_string())))
        .unwrap_or_default()
}
