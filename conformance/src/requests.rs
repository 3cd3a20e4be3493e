//! calimcp's request bodies (`tests/golden/requests/*.json`, written by the
//! main suite from what calimcp itself sends), parsed with the node's own
//! request types the way the node parses them.

use calimero_primitives::alias::Alias;
use calimero_primitives::context::ContextId;
use calimero_primitives::identity::PublicKey;
use calimero_server_primitives::jsonrpc::{Request, RequestPayload};
use calimero_server_primitives::validation::Validate;
use serde_json::Value;

use crate::mirror::{mero_auth, server_0_10};
use crate::responses::Result;

/// The message `POST /jsonrpc` of 0.11.0-rc.5 answers for `bytes`, as
/// `calimero-server` `jsonrpc.rs` computes it: `Ok(None)` when the payload
/// parses as `execute` and validates (the call would run), `Ok(Some(message))`
/// for the `ParseError` it would answer, `Err` when the body is not even a
/// JSON-RPC request (axum's 422).
pub fn jsonrpc_rc5(bytes: &[u8]) -> Result<Option<String>> {
    // `Json<PrimitiveRequest<serde_json::Value>>`
    let request: Request<Value> =
        serde_json::from_slice(bytes).map_err(|e| format!("HTTP 422: {e}"))?;
    // `serde_json::from_value::<RequestPayload>(request.payload.clone())`
    match serde_json::from_value::<RequestPayload>(request.payload) {
        Err(e) => Ok(Some(e.to_string())),
        Ok(RequestPayload::Execute(exec)) => {
            let errors = exec.validate();
            if errors.is_empty() {
                Ok(None)
            } else {
                let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
                Ok(Some(messages.join("; ")))
            }
        }
        Ok(other) => Err(format!("parsed as another method: {other:?}")),
    }
}

/// What the 0.11.0-rc.5 socket makes of a text message: `Err` when it is not
/// a request at all (no answer), `Ok(Some(message))` for the ParseError it
/// answers, `Ok(None)` when a method runs.
pub fn ws_rc5(bytes: &[u8]) -> Result<Option<String>> {
    use calimero_server_primitives::ws;
    let message: ws::Request<Value> =
        serde_json::from_slice(bytes).map_err(|e| format!("no answer: {e}"))?;
    match serde_json::from_value::<ws::RequestPayload>(message.payload) {
        Err(e) => Ok(Some(e.to_string())),
        Ok(_) => Ok(None),
    }
}

/// The same for a 0.10.0 node (executor required).
pub fn jsonrpc_0_10(bytes: &[u8]) -> Result<Option<String>> {
    let request: Request<Value> =
        serde_json::from_slice(bytes).map_err(|e| format!("HTTP 422: {e}"))?;
    match serde_json::from_value::<server_0_10::RequestPayload>(request.payload) {
        Err(e) => Ok(Some(e.to_string())),
        Ok(server_0_10::RequestPayload::Execute(_)) => Ok(None),
    }
}

/// How a 32-byte argument must read inside the app.
#[derive(Clone, Copy, Debug)]
enum Arg32 {
    /// `PublicKey`/`ContextId`/…: the SDK's type reads a base58 string only.
    Key,
    /// `[u8; 32]`: an array of 32 integers.
    Raw,
}

/// What each request must do at the node. A request golden without an entry
/// here fails: decide what the node must make of it.
struct Expect {
    /// `None`: accepted by 0.11.0-rc.5; `Some(m)`: rejected with ParseError `m`.
    rc5: Option<&'static str>,
    /// The same on 0.10.0.
    v0_10: Option<&'static str>,
    /// Arguments read by the app's own types: (name, form).
    args32: &'static [(&'static str, Arg32)],
    /// Arguments (JSON pointers into `argsJson`) whose exact number must
    /// reach the app.
    numbers: &'static [(&'static str, Number)],
}

#[derive(Clone, Copy, Debug)]
enum Number {
    U64(u64),
    I64(i64),
    U32(u32),
    I32(i32),
}

const NO_EXECUTOR: Option<&str> = Some("missing field `executorPublicKey`");
const HEX_ID: Option<&str> =
    Some("buffer provided to decode base58 encoded string into was too small");

const fn ok_rc5() -> Expect {
    Expect {
        rc5: None,
        v0_10: NO_EXECUTOR,
        args32: &[],
        numbers: &[],
    }
}

fn expectation(name: &str) -> Option<Expect> {
    Some(match name {
        "execute-kv-set"
        | "execute-no-args"
        | "execute-record-variant-bytes"
        | "execute-tagged-untagged"
        | "execute-map-list"
        | "execute-recursive"
        | "execute-internally-tagged"
        | "execute-hex-accounts" => ok_rc5(),
        // `--as` a base58 key, and (once calimcp converts it to the node's
        // form) a 64-hex one: both must run on 0.10.0.
        "execute-kv-set-as" | "execute-as-hex" => Expect {
            v0_10: None,
            ..ok_rc5()
        },
        // Sent as given when nothing told calimcp the node's form; the node
        // answers this ParseError and calimcp converts and retries.
        "execute-hex-context" => Expect {
            rc5: HEX_ID,
            v0_10: HEX_ID,
            ..ok_rc5()
        },
        "execute-scalar-extremes" => Expect {
            numbers: &[
                ("/u64", Number::U64(u64::MAX)),
                ("/i64", Number::I64(i64::MIN)),
                ("/u32", Number::U32(u32::MAX)),
                ("/i32", Number::I32(i32::MIN)),
            ],
            ..ok_rc5()
        },
        "execute-tuple-nested-extremes" => Expect {
            numbers: &[
                ("/meta/n", Number::U64(u64::MAX)),
                ("/pair/1", Number::I64(i64::MIN)),
            ],
            ..ok_rc5()
        },
        "execute-base58-key" => Expect {
            args32: &[("key", Arg32::Key)],
            ..ok_rc5()
        },
        // A 32-byte id given as base58 (sent as given) and `[u8; 32]` as an
        // array: each as the app's own type reads it.
        "execute-id32-base58" => Expect {
            args32: &[("key", Arg32::Key), ("raw", Arg32::Raw)],
            ..ok_rc5()
        },
        "execute-id32-array" => Expect {
            args32: &[("raw", Arg32::Raw)],
            ..ok_rc5()
        },
        _ => return None,
    })
}

/// The argument bytes the app receives: `serde_json::to_vec(&args_json)`
/// (`calimero-server` `execute.rs`).
fn app_args(body: &Value) -> Result<Vec<u8>> {
    serde_json::to_vec(&body["params"]["argsJson"]).map_err(|e| e.to_string())
}

fn check_execute(name: &str, body: &Value, expect: &Expect) -> Vec<String> {
    let mut problems = Vec::new();
    // calimcp sends `serde_json::to_vec` of this value (compact, same order).
    let bytes = match serde_json::to_vec(body) {
        Ok(b) => b,
        Err(e) => return vec![e.to_string()],
    };
    for (node, got, want) in [
        ("0.11.0-rc.5", jsonrpc_rc5(&bytes), expect.rc5),
        ("0.10.0", jsonrpc_0_10(&bytes), expect.v0_10),
    ] {
        match got {
            Err(e) => problems.push(format!("{name}: {node} cannot read it: {e}")),
            Ok(got) if got.as_deref() != want => problems.push(format!(
                "{name}: {node} {}, expected {}",
                got.map_or("runs it".to_owned(), |m| format!(
                    "answers ParseError {m:?}"
                )),
                want.map_or("it to run".to_owned(), |m| format!("ParseError {m:?}")),
            )),
            Ok(_) => {}
        }
    }
    let args: Value =
        match app_args(body).and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string())) {
            Ok(v) => v,
            Err(e) => return vec![format!("{name}: argsJson: {e}")],
        };
    for &(arg, form) in expect.args32 {
        let v = args[arg].clone();
        let read = match form {
            Arg32::Key => serde_json::from_value::<PublicKey>(v.clone()).map(|_| ()),
            Arg32::Raw => serde_json::from_value::<[u8; 32]>(v.clone()).map(|_| ()),
        };
        if let Err(e) = read {
            problems.push(format!(
                "{name}: the app cannot read `{arg}` ({form:?}) = {v}: {e}"
            ));
        }
    }
    for &(arg, want) in expect.numbers {
        let v = args.pointer(arg).unwrap_or(&Value::Null);
        let same = match want {
            Number::U64(n) => serde_json::from_value::<u64>(v.clone()).ok() == Some(n),
            Number::I64(n) => serde_json::from_value::<i64>(v.clone()).ok() == Some(n),
            Number::U32(n) => serde_json::from_value::<u32>(v.clone()).ok() == Some(n),
            Number::I32(n) => serde_json::from_value::<i32>(v.clone()).ok() == Some(n),
        };
        if !same {
            problems.push(format!(
                "{name}: `{arg}` reaches the app as {v}, not {want:?}"
            ));
        }
    }
    problems
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Checks one request golden; returns its problems.
pub fn check(name: &str, golden: &Value) -> Vec<String> {
    let method = golden["method"].as_str().unwrap_or_default();
    let path = golden["path"].as_str().unwrap_or_default();
    let body = &golden["body"];
    let segments: Vec<String> = path
        .trim_start_matches('/')
        .split('/')
        .map(percent_decode)
        .collect();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    match (method, segments.as_slice()) {
        ("POST", ["jsonrpc"]) => match expectation(name) {
            Some(expect) => check_execute(name, body, &expect),
            None => vec![format!(
                "{name}: no expectation for this execute request in conformance/src/requests.rs"
            )],
        },
        // A WebSocket text message (`subscribe`, `unsubscribe`, `execute`).
        ("WS", ["ws"]) => match serde_json::to_vec(body)
            .map_err(|e| e.to_string())
            .and_then(|b| ws_rc5(&b))
        {
            Ok(None) => vec![],
            Ok(Some(m)) => vec![format!("{name}: the socket answers ParseError {m:?}")],
            Err(e) => vec![format!("{name}: {e}")],
        },
        // `Path<Alias<ContextId>>`; the body is not read.
        ("POST", ["admin-api", "alias", "lookup", "context", alias]) => {
            match serde_json::from_value::<Alias<ContextId>>(Value::from(*alias)) {
                Ok(_) => vec![],
                Err(e) => vec![format!("{name}: alias {alias:?}: {e} (HTTP 400)")],
            }
        }
        // `Path<(ContextId, Alias<PublicKey>)>`.
        ("POST", ["admin-api", "alias", "lookup", "identity", context, alias]) => {
            let mut problems = vec![];
            if let Err(e) = serde_json::from_value::<ContextId>(Value::from(*context)) {
                problems.push(format!("{name}: context {context:?}: {e} (HTTP 400)"));
            }
            if let Err(e) = serde_json::from_value::<Alias<PublicKey>>(Value::from(*alias)) {
                problems.push(format!("{name}: alias {alias:?}: {e} (HTTP 400)"));
            }
            problems
        }
        // mero-auth's `ValidatedJson<TokenRequest>`, then the provider's data.
        ("POST", ["auth", "token"]) => {
            match serde_json::from_value::<mero_auth::BaseTokenRequest>(body.clone()) {
                Err(e) => vec![format!("{name}: {e}")],
                Ok(r) => {
                    let mut problems: Vec<String> = r
                        .validate()
                        .iter()
                        .map(|e| format!("{name}: {e}"))
                        .collect();
                    if r.auth_method != "user_password" {
                        problems.push(format!("{name}: auth_method {:?}", r.auth_method));
                    }
                    if let Err(e) = serde_json::from_value::<mero_auth::UserPasswordAuthData>(
                        r.provider_data.clone(),
                    ) {
                        problems.push(format!("{name}: provider_data: {e}"));
                    }
                    problems
                }
            }
        }
        ("POST", ["auth", "refresh"]) => {
            match serde_json::from_value::<mero_auth::RefreshTokenRequest>(body.clone()) {
                Err(e) => vec![format!("{name}: {e}")],
                Ok(r) => r
                    .validate()
                    .iter()
                    .map(|e| format!("{name}: {e}"))
                    .collect(),
            }
        }
        _ => crate::lifecycle::check(name, method, &segments, body)
            .unwrap_or_else(|| vec![format!("{name}: the node has no route {method} {path}")]),
    }
}
