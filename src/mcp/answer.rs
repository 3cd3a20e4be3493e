//! A request's answer over Streamable HTTP as plain JSON when it comes at
//! once. rmcp answers every POSTed request with an SSE stream (a priming
//! event, then the response); a client must then run an event-stream parser
//! for each call, which in Node (the MCP TypeScript SDK, the Inspector) costs
//! several times the call itself and held HTTP to a fraction of stdio's
//! throughput. The protocol lets the server pick `application/json` or
//! `text/event-stream` for each request; here a response whose first message
//! is its answer and which comes within [`QUICK`] is sent as
//! `application/json`. A request that sends anything first (progress, a log
//! message), or takes longer (a `call_until` of minutes: SSE keep-alives hold
//! the connection, and a client's header timeout does not run out), keeps
//! its stream, with what was read of it sent first.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

/// How long an answer may take and still be sent as JSON.
pub(crate) const QUICK: Duration = Duration::from_millis(500);

/// Most bytes read ahead looking for the answer.
const MAX_AHEAD: usize = 4 << 20;

/// `response` (rmcp's answer to one POSTed request) as JSON when its first
/// message is the answer and comes within [`QUICK`]; else as it was.
pub(crate) async fn json_when_quick(response: Response) -> Response {
    let sse = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    if response.status() != StatusCode::OK || !sse {
        return response;
    }
    let (mut parts, mut body) = response.into_parts();
    let mut ahead: Vec<u8> = Vec::new();
    let deadline = tokio::time::Instant::now() + QUICK;
    loop {
        match first_message(&ahead) {
            First::Answer(json) => {
                parts.headers.insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
                parts.headers.remove(header::CONTENT_LENGTH);
                parts.headers.remove(header::CACHE_CONTROL);
                return Response::from_parts(parts, Body::from(json));
            }
            First::Other => break,
            First::NotYet if ahead.len() > MAX_AHEAD => break,
            First::NotYet => {}
        }
        let frame = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx));
        match tokio::time::timeout_at(deadline, frame).await {
            Ok(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    ahead.extend_from_slice(&data);
                }
            }
            // Ended, failed or slow: the stream as it goes on.
            _ => break,
        }
    }
    let body = Body::new(Prefixed {
        head: (!ahead.is_empty()).then(|| Bytes::from(ahead)),
        rest: body,
    });
    Response::from_parts(parts, body)
}

/// What the SSE text read so far starts with.
enum First {
    /// Its first message is a response (`result` or `error`): its JSON text.
    Answer(String),
    /// Its first message is something else (a notification, a request).
    Other,
    /// No whole message yet.
    NotYet,
}

fn first_message(text: &[u8]) -> First {
    let text = String::from_utf8_lossy(text);
    let text = if text.contains('\r') {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        text
    };
    let mut events = text.split("\n\n").collect::<Vec<_>>();
    // The last piece is not yet a whole event.
    events.pop();
    for event in events {
        let data = event_data(event);
        if data.trim().is_empty() {
            // A priming event, a comment or a keep-alive.
            continue;
        }
        #[derive(serde::Deserialize)]
        struct Probe {
            method: Option<serde::de::IgnoredAny>,
            result: Option<serde::de::IgnoredAny>,
            error: Option<serde::de::IgnoredAny>,
        }
        return match serde_json::from_str::<Probe>(&data) {
            Ok(p) if p.method.is_none() && (p.result.is_some() || p.error.is_some()) => {
                First::Answer(data)
            }
            _ => First::Other,
        };
    }
    First::NotYet
}

/// The data of one SSE event (its `data:` lines joined; empty for a
/// priming event, a comment or a keep-alive).
pub(super) fn event_data(event: &str) -> String {
    let data: Vec<&str> = event
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(|d| d.strip_prefix(' ').unwrap_or(d))
        .collect();
    data.join("\n")
}

/// A body whose first bytes were already read: those, then the rest.
struct Prefixed {
    head: Option<Bytes>,
    rest: Body,
}

impl HttpBody for Prefixed {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, axum::Error>>> {
        if let Some(head) = self.head.take() {
            return Poll::Ready(Some(Ok(hyper::body::Frame::data(head))));
        }
        Pin::new(&mut self.rest).poll_frame(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_message_is_found_after_priming_events() {
        let answer = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        let sse = format!("id: 0\nretry: 3000\ndata: \n\ndata: {answer}\n\n");
        assert!(matches!(first_message(sse.as_bytes()), First::Answer(a) if a == answer));
        assert!(matches!(
            first_message(
                b"id: 0\nretry: 3000\ndata: \n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"res"
            ),
            First::NotYet
        ));
        let progress =
            "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n";
        assert!(matches!(first_message(progress.as_bytes()), First::Other));
        let error = "data: {\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-1,\"message\":\"x\"}}\r\n\r\n";
        assert!(matches!(first_message(error.as_bytes()), First::Answer(_)));
        assert!(matches!(first_message(b""), First::NotYet));
    }
}
