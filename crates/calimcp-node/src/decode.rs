//! Turning what the node sends back into values and honest errors.
//!
//! Pure functions, no I/O: JSON-RPC errors (a `FunctionCallError` carries the
//! app's error as a Rust Debug byte list, or a guest panic as plain text),
//! HTTP errors (the node's `{"error": "…"}` passes through verbatim; anything
//! else is quoted, HTML reduced to its text), and app metadata bytes.

use serde_json::Value;

use calimcp_core::error::{Code, Error, ErrorKind, NodeSaid};
use calimcp_core::text::{sanitize_doc, sanitize_line};

/// Longest piece of a node's body quoted in an error message.
const QUOTE_LIMIT: usize = 300;

/// The text inside a `FunctionCallError`'s `data`.
///
/// `"the method call returned an error: [34, 110, 111, 34]"` is the Debug
/// form of the error's JSON bytes: decoded to UTF-8, and a JSON string is
/// unquoted (`no`). Data without a byte list (a guest panic) is kept verbatim.
pub(crate) fn function_call_error(data: &Value) -> String {
    let text = match data {
        Value::String(s) => s.as_str(),
        Value::Null => return String::new(),
        other => return other.to_string(),
    };
    if let Some(decoded) = byte_list(text) {
        let decoded = decoded.trim();
        return match serde_json::from_str::<Value>(decoded) {
            Ok(Value::String(s)) => s,
            _ => decoded.to_string(),
        };
    }
    text.trim().to_string()
}

/// Decodes the first `[n, n, …]` list of byte values in `text` as UTF-8.
fn byte_list(text: &str) -> Option<String> {
    let start = text.find('[')?;
    let end = start + text[start..].find(']')?;
    let inner = text[start + 1..end].trim();
    if inner.is_empty() {
        return Some(String::new());
    }
    let bytes: Option<Vec<u8>> = inner.split(',').map(|n| n.trim().parse().ok()).collect();
    String::from_utf8(bytes?).ok()
}

/// The error a JSON-RPC `error` object stands for (always [`ErrorKind::Remote`]
/// but for a caller who is not a member, [`ErrorKind::Auth`]): the app's own
/// failure ([`function_call_failed`]), a refusal the node types
/// ([`typed_refusal`]), else the node's words as they came.
pub(crate) fn rpc_error(method: &str, context_id: &str, error: &Value) -> Error {
    let method = sanitize_line(method);
    let context = sanitize_line(context_id);
    let data = error.get("data").unwrap_or(&Value::Null);
    match error.get("type").and_then(Value::as_str) {
        Some("FunctionCallError") => function_call_failed(&method, &context, data),
        Some(kind) => typed_refusal(kind, &method, &context, data),
        None => {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .map(sanitize_line)
                .unwrap_or_else(|| sanitize_line(&error.to_string()));
            remote(
                Code::RpcError,
                format!("the node refused `{method}`: {message}"),
            )
        }
    }
}

fn remote(code: Code, msg: String) -> Error {
    Error::new(ErrorKind::Remote, code, msg)
}

/// A `FunctionCallError`: a method the module lacks, a caller who is not a
/// member (rc.25 checks membership before anything runs), or the app's own
/// error.
fn function_call_failed(method: &str, context: &str, data: &Value) -> Error {
    let said = function_call_error(data);
    match said.trim() {
        // The module does not export a method its ABI declares.
        t if t == format!("method {method:?} not found") => {
            remote(
                Code::MethodNotInModule,
                format!(
                    "`{method}` is declared in the app's ABI, but the app's module on the node does not export it"
                ),
            )
            .with_hint("the ABI and the module come from different builds: rebuild the app (cargo mero build) and install it again")
        }
        t if t.eq_ignore_ascii_case("Caller is not a member of this context") => {
            Error::new(
                ErrorKind::Auth,
                Code::NotAMember,
                format!("the node refused `{method}`: the caller (the token's identity) is not a member of context {context}"),
            )
            .with_hint("use a token of a member of the context (or the node owner's), or call through a node whose identity is a member")
        }
        _ => {
            let text = sanitize_doc(&said);
            let what = if text.is_empty() {
                "failed without a message".to_string()
            } else if data.as_str().is_some_and(|d| byte_list(d).is_some()) {
                format!("returned an error: {text}")
            } else {
                format!("failed: {text}")
            };
            let mut e = remote(Code::AppError, format!("`{method}` {what}"));
            e.said = NodeSaid::recognise(None, &text);
            e
        }
    }
}

/// A refusal the node names by its `type` (nothing ran, or the node failed),
/// else the type and its data as they came.
fn typed_refusal(kind: &str, method: &str, context: &str, data: &Value) -> Error {
    match kind {
        "Uninitialized" => remote(
            Code::Uninitialized,
            format!(
                "context {context} has no state on this node yet (the node answered Uninitialized; nothing ran)"
            ),
        )
        .with_hint("wait for the node to sync the context, then call again")
        .retryable(),
        "ContextNotFound" => remote(
            Code::ContextNotFound,
            format!("the node has no context {context}"),
        )
        .with_hint("pass another --context, or pin one with `calimcp use APP --context ID`"),
        "GroupKeyPending" => remote(
            Code::GroupKeyPending,
            format!(
                "the node cannot run `{method}` in context {context} yet: the context's group key has not been delivered to it (nothing ran)"
            ),
        )
        .with_hint("this passes on its own once the key arrives from the group: retry shortly")
        .retryable(),
        "UpgradeInProgress" => remote(
            Code::UpgradeInProgress,
            format!(
                "the node refused `{method}` in context {context}: its group is being upgraded to a new app version, and writes wait until that completes (nothing ran; reads still work)"
            ),
        )
        .with_hint("retry once the group's upgrade has completed")
        .retryable(),
        "XCallNotPermitted" => remote(
            Code::XcallNotPermitted,
            format!(
                "`{method}` made a cross-context call to a method of context {} that is not an `#[app::xcall]` entry point, and the node refused it",
                named_context(data, context)
            ),
        )
        .with_hint("mark the target method `#[app::xcall]` in the called app, or call it directly"),
        // merod 0.11.0-rc.83 (`execute.rs` `refuse_discarded_write`): the
        // node is a read-only member of the context (a ReadOnly role, a
        // read-only replica): it ran the method, and dropped what it wrote.
        "ReadOnlyWriteRefused" => remote(
            Code::ReadOnlyWriteRefused,
            format!(
                "the node ran `{method}` read-only in context {} and discarded its write: the node is a read-only member of that context (its identity holds a read-only role in the context's group, as a read-only replica does), so it keeps no change a method makes there; nothing was written",
                named_context(data, context)
            ),
        )
        .with_hint("call the method through a node that is a writing member of the context, or have an admin of the context's group give this node's identity a writing role (Member or Admin); repeating the call here changes nothing"),
        "InternalError" => internal_error(method, context, data),
        "ApplicationNotInstalled" => remote(
            Code::ApplicationNotInstalled,
            format!(
                "the application of context {context} is not installed on this node ({})",
                sanitize_line(&compact(data))
            ),
        ),
        other => untyped_refusal(other, method, data),
    }
}

/// The context a refusal's `data` names, else the one called.
fn named_context(data: &Value, context: &str) -> String {
    sanitize_line(
        data.get("context_id")
            .and_then(Value::as_str)
            .unwrap_or(context),
    )
}

/// The node failed internally; its `data.kind` says where.
fn internal_error(method: &str, context: &str, data: &Value) -> Error {
    let what = match data.get("kind").and_then(Value::as_str) {
        Some("context") => "loading the context, its config or its identity failed",
        Some("group") => "loading the context's group or upgrade metadata failed",
        Some("encryption") => "loading a state encryption key failed",
        Some("runtime") => "the WASM runtime failed",
        Some("merge") => "merging the root state failed",
        Some("ipc") => "an internal channel of the node closed",
        _ => "the node did not say what",
    };
    remote(
        Code::NodeInternalError,
        format!("the node failed internally while running `{method}` in context {context}: {what}"),
    )
    .with_hint(
        "the node's log says more (merod's output); this is not a problem of the call's arguments",
    )
}

/// A refusal of a type calimcp does not know: the type and its data as
/// they came (sanitised).
fn untyped_refusal(kind: &str, method: &str, data: &Value) -> Error {
    let kind = sanitize_line(kind);
    let detail = match data {
        Value::Null => String::new(),
        Value::Object(o) if o.is_empty() => String::new(),
        Value::String(s) => format!(": {}", sanitize_doc(s.trim())),
        d => format!(": {}", sanitize_line(&d.to_string())),
    };
    remote(
        Code::RpcError,
        format!("the node refused `{method}`: {kind}{detail}"),
    )
}

fn compact(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// The error for an HTTP response outside 2xx, from `url` (query already stripped).
///
/// 401 and 403 are [`ErrorKind::Auth`]; everything else is [`ErrorKind::Remote`].
pub(crate) fn http_error(
    status: u16,
    reason: &str,
    content_type: &str,
    body: &[u8],
    url: &str,
) -> Error {
    let kind = if status == 401 || status == 403 {
        ErrorKind::Auth
    } else {
        ErrorKind::Remote
    };
    let code = if kind == ErrorKind::Auth {
        Code::Auth
    } else {
        Code::HttpError
    };
    // 503: the node is starting, draining or not ready for this yet.
    let not_yet = |mut e: Error| {
        e.status = Some(status);
        e.said = NodeSaid::recognise(Some(status), &String::from_utf8_lossy(body));
        if status == 503 {
            e.with_hint("the node is not ready for this yet (starting, or an operation in progress): retry shortly")
                .retryable()
        } else {
            e
        }
    };
    if let Some(message) = node_message(body) {
        return not_yet(Error::new(kind, code, message));
    }
    let text = String::from_utf8_lossy(body);
    let text = if content_type.contains("html") || text.trim_start().starts_with('<') {
        html_text(&text)
    } else {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let text = sanitize_line(&text);
    let said = if text.is_empty() {
        "the node returned no message".to_string()
    } else if text.chars().count() > QUOTE_LIMIT {
        format!(
            "the node said: {}…",
            text.chars().take(QUOTE_LIMIT).collect::<String>()
        )
    } else {
        format!("the node said: {text}")
    };
    not_yet(Error::new(
        kind,
        code,
        format!("HTTP {status} {reason} from {url} - {said}"),
    ))
}

/// The node's own `{"error": "…"}` message, if the body is one.
pub(crate) fn node_message(body: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let msg = without_repeated_prefix(v.get("error")?.as_str()?.trim());
    (!msg.is_empty()).then(|| sanitize_doc(msg))
}

/// The node's message without a prefix it repeats: merod's auth service
/// answers a failed login with "Authentication failed: Authentication
/// failed: Invalid username or password".
fn without_repeated_prefix(msg: &str) -> &str {
    let mut msg = msg;
    while let Some((head, rest)) = msg.split_once(": ")
        && rest.starts_with(head)
        && rest[head.len()..].starts_with(": ")
    {
        msg = rest;
    }
    msg
}

/// The readable text of an HTML page: the title, else the text without tags.
fn html_text(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    if let (Some(a), Some(b)) = (lower.find("<title>"), lower.find("</title>"))
        && a + 7 <= b
    {
        let title = html[a + 7..b].trim();
        if !title.is_empty() {
            return title.split_whitespace().collect::<Vec<_>>().join(" ");
        }
    }
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An application's `metadata`: a JSON array of byte values holding UTF-8 JSON.
/// Returns the JSON object, or `None` when it is absent or not an object.
pub(crate) fn metadata(value: &Value) -> Option<serde_json::Map<String, Value>> {
    let bytes: Vec<u8> = match value {
        Value::Array(items) => items
            .iter()
            .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
            .collect::<Option<_>>()?,
        Value::String(s) => s.as_bytes().to_vec(),
        Value::Object(o) => return Some(o.clone()),
        _ => return None,
    };
    match serde_json::from_slice(&bytes).ok()? {
        Value::Object(o) => Some(o),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_repeated_prefix_of_the_node_is_said_once() {
        let body = br#"{"error":"Authentication failed: Authentication failed: Invalid username or password"}"#;
        assert_eq!(
            node_message(body).as_deref(),
            Some("Authentication failed: Invalid username or password")
        );
        assert_eq!(without_repeated_prefix("a: b: c"), "a: b: c");
        assert_eq!(without_repeated_prefix("x: x: x: y"), "x: y");
    }

    fn debug_bytes(s: &str) -> String {
        format!("{:?}", s.as_bytes())
    }

    #[test]
    fn function_call_error_byte_list_is_decoded_and_unquoted() {
        let data = format!(
            "the method call returned an error: {}",
            debug_bytes("\"key not found: a\"")
        );
        assert_eq!(function_call_error(&json!(data)), "key not found: a");
        let obj = format!("x {}", debug_bytes("{\"code\":7}"));
        assert_eq!(function_call_error(&json!(obj)), "{\"code\":7}");
        assert_eq!(function_call_error(&json!("x []")), "");
    }

    /// merod 0.11.0-rc.83's read-only refusal (the body of the wire record,
    /// ../shared/reference/merod-rc83-wire.md §5, `execute.rs`
    /// `refuse_discarded_write`): its own code, never retryable, and words
    /// that say the write ran read-only and was discarded, and why.
    #[test]
    fn a_discarded_read_only_write_has_its_own_code() {
        let ctx = "ab".repeat(32);
        let e = rpc_error(
            "set",
            &ctx,
            &json!({"type": "ReadOnlyWriteRefused", "data": {"context_id": ctx}}),
        );
        assert_eq!(
            (e.kind, e.code, e.retryable),
            (ErrorKind::Remote, Code::ReadOnlyWriteRefused, false)
        );
        for words in [
            "read-only",
            "discarded",
            "read-only member",
            "nothing was written",
            &ctx,
        ] {
            assert!(e.message.contains(words), "{words}: {}", e.message);
        }
        assert!(e.hint.as_deref().unwrap().contains("writing member"));
    }

    /// rc.25's transient and refused answers (calimero-context-primitives
    /// `messages.rs` ExecuteError, calimero-server `execute.rs`).
    #[test]
    fn transient_errors_are_retryable_and_membership_is_auth() {
        let ctx = "US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx";
        let e = rpc_error(
            "set",
            ctx,
            &json!({"type": "GroupKeyPending", "data": {"context_id": ctx}}),
        );
        assert_eq!(
            (e.kind, e.code, e.retryable),
            (ErrorKind::Remote, Code::GroupKeyPending, true)
        );
        assert!(e.message.contains("nothing ran"), "{}", e.message);
        let e = rpc_error(
            "set",
            ctx,
            &json!({"type": "UpgradeInProgress", "data": {"group_id": "ab".repeat(32)}}),
        );
        assert_eq!((e.code, e.retryable), (Code::UpgradeInProgress, true));
        assert!(e.message.contains("reads still work"));
        let e = rpc_error(
            "set",
            ctx,
            &json!({"type": "FunctionCallError", "data": "Caller is not a member of this context"}),
        );
        assert_eq!(
            (e.kind, e.code, e.retryable),
            (ErrorKind::Auth, Code::NotAMember, false)
        );
        let e = rpc_error(
            "set",
            ctx,
            &json!({"type": "XCallNotPermitted", "data": {"context_id": "Other"}}),
        );
        assert_eq!(e.code, Code::XcallNotPermitted);
        assert!(e.message.contains("context Other") && e.hint.unwrap().contains("#[app::xcall]"));
        let e = rpc_error(
            "set",
            ctx,
            &json!({"type": "InternalError", "data": {"kind": "runtime"}}),
        );
        assert_eq!(e.code, Code::NodeInternalError);
        assert!(e.message.contains("WASM runtime"), "{}", e.message);
        assert!(!e.retryable);
        let e = rpc_error("set", ctx, &json!({"type": "InternalError", "data": {}}));
        assert!(e.message.contains("did not say"), "{}", e.message);
        let e = http_error(
            503,
            "Service Unavailable",
            "application/json",
            br#"{"data":{"status":"starting"}}"#,
            "http://n/admin-api/x",
        );
        assert!(e.retryable && e.hint.unwrap().contains("retry shortly"));
        assert!(!http_error(500, "Internal Server Error", "", b"", "u").retryable);
    }

    #[test]
    fn guest_panic_is_verbatim() {
        let data = "guest panicked: index out of bounds at src/lib.rs:10:5";
        assert_eq!(function_call_error(&json!(data)), data);
        let e = rpc_error(
            "get",
            "ctx",
            &json!({"type": "FunctionCallError", "data": data}),
        );
        assert_eq!(e.kind, ErrorKind::Remote);
        assert_eq!(e.message, format!("`get` failed: {data}"));
    }

    #[test]
    fn a_list_that_is_not_bytes_stays_text() {
        // 300 is not a byte: the message is not a Debug byte list.
        let data = "guest panicked: bad index [300, 2]";
        assert_eq!(function_call_error(&json!(data)), data);
    }

    #[test]
    fn app_error_message_names_the_method() {
        let data = format!(
            "the method call returned an error: {}",
            debug_bytes("\"nope\"")
        );
        let e = rpc_error(
            "set",
            "c",
            &json!({"type": "FunctionCallError", "data": data}),
        );
        assert_eq!(e.message, "`set` returned an error: nope");
        assert_eq!(e.code, Code::AppError);
    }

    #[test]
    fn other_rpc_errors_are_named_with_their_data() {
        let e = rpc_error("get", "C1", &json!({"type": "Uninitialized"}));
        assert!(
            e.message.contains("has no state on this node yet"),
            "{}",
            e.message
        );
        assert!(e.hint.unwrap().contains("wait"));
        let e = rpc_error(
            "get",
            "C1",
            &json!({"type": "SerdeError", "data": {"message": "bad"}}),
        );
        assert_eq!(
            e.message,
            "the node refused `get`: SerdeError: {\"message\":\"bad\"}"
        );
        let e = rpc_error("get", "C1", &json!({"type": "InternalError", "data": {}}));
        assert_eq!(
            e.message,
            "the node failed internally while running `get` in context C1: the node did not say what"
        );
        let e = rpc_error("get", "C1", &json!({"code": -32601, "message": "nope"}));
        assert_eq!(e.message, "the node refused `get`: nope");
    }

    #[test]
    fn http_errors_quote_the_node() {
        let e = http_error(
            400,
            "Bad Request",
            "application/json",
            br#"{"error":"application has multiple services"}"#,
            "http://n/x",
        );
        assert_eq!(e.message, "application has multiple services");
        assert_eq!(e.kind, ErrorKind::Remote);
        let html =
            b"<html><head><title>502 Bad Gateway</title></head><body><h1>oops</h1></body></html>";
        let e = http_error(
            500,
            "Internal Server Error",
            "text/html",
            html,
            "http://n/jsonrpc",
        );
        assert_eq!(
            e.message,
            "HTTP 500 Internal Server Error from http://n/jsonrpc - the node said: 502 Bad Gateway"
        );
        let e = http_error(
            500,
            "Internal Server Error",
            "text/html",
            b"<p>a <b>b</b></p>",
            "u",
        );
        assert!(e.message.ends_with("the node said: a b"), "{}", e.message);
        let e = http_error(404, "Not Found", "", b"", "u");
        assert!(e.message.ends_with("the node returned no message"));
        let e = http_error(401, "Unauthorized", "", b"", "u");
        assert_eq!(e.kind, ErrorKind::Auth);
        let long = "x".repeat(1000);
        let e = http_error(502, "Bad Gateway", "text/plain", long.as_bytes(), "u");
        assert!(e.message.chars().count() < 400);
    }

    #[test]
    fn control_characters_never_pass() {
        let e = http_error(400, "Bad Request", "", b"{\"error\":\"a\\u001b[2Jb\"}", "u");
        assert_eq!(e.message, "a[2Jb");
    }

    #[test]
    fn metadata_bytes_are_decoded() {
        let bytes: Vec<Value> = br#"{"name":"KV Store"}"#.iter().map(|&b| json!(b)).collect();
        let m = metadata(&Value::Array(bytes)).unwrap();
        assert_eq!(m["name"], "KV Store");
        assert!(metadata(&json!([])).is_none());
        assert!(metadata(&json!([300])).is_none());
        assert!(metadata(&Value::Null).is_none());
    }
}
