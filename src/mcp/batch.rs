//! JSON-RPC batches over Streamable HTTP.
//!
//! Protocol 2025-03-26 lets a client POST an array of messages; rmcp's
//! transport takes one message per POST. A batch is split here: each message
//! goes to the MCP service as a POST of its own with the batch's headers
//! (session, protocol version), all at once, and the answers to its requests
//! come back together as one JSON array in the batch's order (a batch of
//! notifications and responses only: 202, as for one). Later revisions
//! dropped batches, so a batch on a connection that declares one of them in
//! `MCP-Protocol-Version` is refused with a JSON-RPC error (400), and so is
//! `initialize` inside a batch, which 2025-03-26 forbids. Notifications a
//! request sends on its way (progress, log messages) are not part of a batch's
//! answer. A failure that is not a JSON-RPC answer (an unknown session: 404)
//! is returned as it came, so the client reacts as it would to one message.

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};
use tower::ServiceExt;

/// Largest POST body read, as rmcp's own limit (4 MiB).
const MAX_BODY: usize = 4 << 20;

/// The only revision with batches; a request without the header is read as it.
const BATCH_REVISION: &str = "2025-03-26";

/// Hands a POSTed batch to `svc` message by message; anything else passes through.
pub async fn handle<S>(svc: S, req: axum::extract::Request) -> Response
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
        return forward(
            svc,
            axum::extract::Request::from_parts(parts, Body::from(bytes)),
        )
        .await;
    }
    let declared = parts
        .headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok())
        .unwrap_or(BATCH_REVISION);
    if declared != BATCH_REVISION {
        return refused(format!(
            "Invalid Request: JSON-RPC batches are part of protocol {BATCH_REVISION} only, and this session uses {declared}; send one message per POST"
        ));
    }
    let messages: Vec<Value> = match serde_json::from_slice(&bytes) {
        Ok(Value::Array(messages)) => messages,
        _ => return parse_error("a batch that is not a JSON array of messages"),
    };
    if messages.is_empty() {
        return refused("Invalid Request: an empty batch".into());
    }
    if messages.iter().any(|m| m["method"] == "initialize") {
        return refused(
            "Invalid Request: initialize must not be part of a JSON-RPC batch; send it alone first"
                .into(),
        );
    }
    let mut calls = tokio::task::JoinSet::new();
    for (at, message) in messages.into_iter().enumerate() {
        let mut one = axum::http::Request::builder()
            .method(Method::POST)
            .uri(parts.uri.clone())
            .body(Body::from(message.to_string()))
            .unwrap_or_default();
        *one.headers_mut() = parts.headers.clone();
        one.headers_mut().remove(header::CONTENT_LENGTH);
        let svc = svc.clone();
        calls.spawn(async move {
            let id = message.get("id").cloned();
            let is_request = message.get("method").is_some() && id.is_some();
            (at, answer(svc, one, id, is_request).await)
        });
    }
    let mut answers: Vec<(usize, Value)> = Vec::new();
    while let Some(done) = calls.join_next().await {
        match done {
            Ok((at, Ok(Some(answer)))) => answers.push((at, answer)),
            Ok((_, Ok(None))) => {}
            // A failure that is not a JSON-RPC answer ends the batch as it came.
            Ok((_, Err(response))) => return response,
            Err(e) => {
                return plain(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    &format!("a batch message failed: {e}"),
                );
            }
        }
    }
    if answers.is_empty() {
        return Response::builder()
            .status(StatusCode::ACCEPTED)
            .body(Body::empty())
            .unwrap_or_default();
    }
    answers.sort_by_key(|(at, _)| *at);
    let array = Value::Array(answers.into_iter().map(|(_, a)| a).collect());
    json_response(StatusCode::OK, &array)
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

/// One message's answer: `Some` JSON-RPC response for a request, `None` for
/// a notification or response that was accepted, `Err` for an HTTP failure
/// that is not a JSON-RPC answer.
async fn answer<S>(
    svc: S,
    req: axum::extract::Request,
    id: Option<Value>,
    is_request: bool,
) -> Result<Option<Value>, Response>
where
    S: tower::Service<axum::extract::Request, Response = Response>,
    S::Error: std::fmt::Display,
{
    let response = forward(svc, req).await;
    let status = response.status();
    let sse = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    let (parts, body) = response.into_parts();
    // The stream of one request ends after its answer.
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        return Err(plain(
            StatusCode::BAD_GATEWAY,
            "a batch message's answer was cut off",
        ));
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
        (None, false) => Err(Response::from_parts(parts, Body::from(bytes))),
    }
}

/// The JSON messages of an SSE body (`data:` lines; comments and priming events skipped).
fn sse_messages(body: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(body);
    text.split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(|d| d.strip_prefix(' ').unwrap_or(d))
                .collect();
            serde_json::from_str(&data.join("\n")).ok()
        })
        .collect()
}

fn json_response(status: StatusCode, value: &Value) -> Response {
    Response::builder()
        .status(status)
        .header(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )
        .body(Body::from(value.to_string()))
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
