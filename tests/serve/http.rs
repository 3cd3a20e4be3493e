//! `calimcp serve --http`: rmcp's Streamable HTTP client against the real
//! binary on a loopback port the OS picks, plus the DNS-rebinding checks.

use crate::support;

use std::process::{Command, Stdio};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use support::serve::*;

#[tokio::test]
async fn http_lists_the_same_tools_and_validates_calls() {
    let Some(fx) = fixtures("http_lists_the_same_tools") else {
        return;
    };
    install_crypto();
    let apps = apps_dir(&fx, &[("apps-kv-store.json", "kv-store.json")]);
    let dir = apps.path().to_str().unwrap();
    let server = HttpServer::start(&["--apps", dir, "--read-only"]);
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    assert!(server.url.ends_with("/mcp"));

    let transport = StreamableHttpClientTransport::from_uri(server.url.clone());
    let client = Watcher::default().serve(transport).await.unwrap();
    let info = client.peer().peer_info().unwrap();
    assert_eq!(info.server_info.as_ref().unwrap().name, "calimcp");
    let listed = listed_app_tools(&client).await;
    let expected = run_json(&["tools", "--json", "--apps", dir, "--read-only"]);
    assert_eq!(listed, expected);

    let r = call(&client, "kv_store_get", json!({})).await.unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(
        text(&r).contains("key: missing required argument"),
        "{}",
        text(&r)
    );
    let err = call(&client, "kv_store_set", json!({"key": "a", "value": "b"}))
        .await
        .unwrap_err();
    assert!(format!("{err}").contains("--read-only"), "{err}");
    client.cancel().await.unwrap();
    assert_eq!(
        server.stop(),
        Some(0),
        "SIGTERM ends the HTTP server cleanly"
    );
}

#[tokio::test]
async fn http_rejects_foreign_hosts_and_origins() {
    let Some(fx) = fixtures("http_rejects_foreign_hosts") else {
        return;
    };
    install_crypto();
    let apps = apps_dir(&fx, &[("apps-kv-store.json", "kv-store.json")]);
    let server = HttpServer::start(&["--apps", apps.path().to_str().unwrap()]);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}});
    let http = reqwest::Client::new();
    let post = |extra: Option<(&'static str, &'static str)>| {
        let mut req = http
            .post(&server.url)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .body(init.to_string());
        if let Some((k, v)) = extra {
            req = req.header(k, v);
        }
        req.send()
    };
    let ok = post(None).await.unwrap();
    assert!(ok.status().is_success(), "{}", ok.status());
    let ok = post(Some(("Origin", "http://localhost:3000")))
        .await
        .unwrap();
    assert!(ok.status().is_success(), "{}", ok.status());
    let rebound = post(Some(("Host", "attacker.example"))).await.unwrap();
    assert_eq!(rebound.status().as_u16(), 403, "foreign Host");
    let foreign = post(Some(("Origin", "https://attacker.example")))
        .await
        .unwrap();
    assert_eq!(foreign.status().as_u16(), 403, "foreign Origin");
    assert_eq!(server.stop(), Some(0));
}

/// `--allow-origin`: a browser's CORS preflight from an allowed origin is
/// answered (methods, the MCP headers, the session id exposed), its requests
/// carry `Access-Control-Allow-Origin`; another origin gets 403 and no CORS
/// header, its preflight too.
#[tokio::test]
async fn http_answers_cors_for_allowed_origins_only() {
    let Some(fx) = fixtures("http_answers_cors") else {
        return;
    };
    install_crypto();
    let apps = apps_dir(&fx, &[("apps-kv-store.json", "kv-store.json")]);
    let server = HttpServer::start(&[
        "--apps",
        apps.path().to_str().unwrap(),
        "--allow-origin",
        "https://app.example",
    ]);
    let http = reqwest::Client::new();
    let preflight = |origin: &'static str| {
        http.request(reqwest::Method::OPTIONS, &server.url)
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
            .header(
                "Access-Control-Request-Headers",
                "content-type,mcp-protocol-version,mcp-session-id",
            )
            .send()
    };
    let ok = preflight("https://app.example").await.unwrap();
    assert_eq!(ok.status().as_u16(), 204);
    let h = |r: &reqwest::Response, name: &str| {
        r.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    assert_eq!(
        h(&ok, "access-control-allow-origin").as_deref(),
        Some("https://app.example")
    );
    let methods = h(&ok, "access-control-allow-methods").unwrap();
    for m in ["GET", "POST", "DELETE"] {
        assert!(methods.contains(m), "{methods}");
    }
    let headers = h(&ok, "access-control-allow-headers").unwrap();
    for name in [
        "content-type",
        "mcp-protocol-version",
        "mcp-session-id",
        "last-event-id",
    ] {
        assert!(headers.contains(name), "{headers}");
    }
    let denied = preflight("https://other.example").await.unwrap();
    assert_eq!(denied.status().as_u16(), 403);
    assert_eq!(h(&denied, "access-control-allow-origin"), None);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}});
    let posted = http
        .post(&server.url)
        .header("Origin", "https://app.example")
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .body(init.to_string())
        .send()
        .await
        .unwrap();
    assert!(posted.status().is_success(), "{}", posted.status());
    assert_eq!(
        h(&posted, "access-control-allow-origin").as_deref(),
        Some("https://app.example")
    );
    assert!(
        h(&posted, "access-control-expose-headers")
            .unwrap()
            .contains("mcp-session-id")
    );
    assert!(h(&posted, "mcp-session-id").is_some());
    assert_eq!(server.stop(), Some(0));
}

/// A port another process holds: the same `error:` line as every other
/// failure, with the hint, exit 2 (the report had `Error:`).
#[test]
fn http_on_a_busy_port_says_so_like_every_error() {
    let held = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = held.local_addr().unwrap().to_string();
    let args = ["serve", "--apps", ".", "--http", addr.as_str()];
    let out = isolate(&mut Command::new(BIN), &args)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with(&format!("error: cannot listen on {addr}")),
        "{err}"
    );
    assert!(err.contains("hint: pick another port"), "{err}");
    assert!(!err.contains("Error:"), "{err}");
}

#[test]
fn http_refuses_a_malformed_allow_origin() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let args = [
        "serve",
        "--apps",
        examples,
        "--http",
        "127.0.0.1:0",
        "--allow-origin",
        "app.example/path",
    ];
    let out = isolate(&mut Command::new(BIN), &args)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--allow-origin `app.example/path`"), "{err}");
}

#[test]
fn http_refuses_a_bad_address() {
    let args = ["serve", "--apps", ".", "--http", "not an address"];
    let out = isolate(&mut Command::new(BIN), &args)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--http not an address"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn http_sessions_get_list_changed_and_run_calls_on_the_node() {
    install_crypto();
    let node = support::fake_node::FakeNode::start();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start(&["--apps", &ex, "--node", &node.url, "--refresh", "1"]);
    let watcher = Watcher::default();
    let transport = StreamableHttpClientTransport::from_uri(server.url.clone());
    let client = watcher.clone().serve(transport).await.unwrap();
    let before = listed_app_tools(&client).await;
    assert!(before.to_string().contains("\"typed_noop\""));
    let r = call(&client, "kv_store_set", json!({"key": "h", "value": "1"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let r = call(&client, "kv_store_get", json!({"key": "h"}))
        .await
        .unwrap();
    assert_eq!(r.structured_content, Some(json!({"result": "1"})));
    let abi: serde_json::Value =
        serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap();
    node.install("com.example.web", abi);
    assert!(
        watcher.wait_for(1, Duration::from_secs(20)).await,
        "list_changed over the session's stream"
    );
    assert!(
        listed_app_tools(&client)
            .await
            .to_string()
            .contains("\"web_get\"")
    );
    client.cancel().await.unwrap();
    assert_eq!(server.stop(), Some(0));
}

#[tokio::test]
async fn sessionless_select_app_does_not_claim_a_pin() {
    install_crypto();
    let node = support::fake_node::FakeNode::start();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start(&["--apps", &ex, "--node", &node.url]);
    // The 2026-07-28 protocol: no initialize, no Mcp-Session-Id, the
    // protocol travels in each request's _meta.
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
    "name": "select_app", "arguments": {"app": "kv-store"},
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    }}});
    let resp = reqwest::Client::new()
        .post(&server.url)
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "select_app")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let text = resp.text().await.unwrap();
    assert!(
        !text.contains("now run in this context"),
        "a pin is claimed on a sessionless request: {text}"
    );
    assert!(text.contains("pins are not kept"), "{text}");
    assert!(text.contains("_context"), "{text}");
    assert_eq!(server.stop(), Some(0));
}

#[tokio::test]
async fn sessionless_hints_never_suggest_a_pin() {
    install_crypto();
    let node = support::fake_node::FakeNode::start();
    let server = HttpServer::start(&["--node", &node.url]);
    // A context of another app: the error lists the app's contexts; the hint
    // must not send a sessionless agent to select_app (nothing keeps a pin).
    let body = json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {
    "name": "kv_store_get", "arguments": {"key": "a", "_context": "pages-main"},
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    }}});
    let resp = reqwest::Client::new()
        .post(&server.url)
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "kv_store_get")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let text = resp.text().await.unwrap();
    assert!(text.contains("runs com.example.notebook"), "{text}");
    assert!(text.contains("isError"), "{text}");
    assert!(!text.contains("select_app"), "a pin is suggested: {text}");
    assert!(text.contains("nothing is pinned"), "{text}");
    assert_eq!(server.stop(), Some(0));
}

#[tokio::test]
async fn http_bad_body_is_a_jsonrpc_400_and_delete_answers_204() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start(&["--apps", &ex, "--offline"]);
    let raw = RawHttp::new(&server.url);
    let bad = raw.post("{not json", None, None).await;
    assert_eq!(bad.status().as_u16(), 400);
    let v: serde_json::Value = bad.json().await.unwrap();
    assert_eq!(v["error"]["code"], -32700, "{v}");
    let sid = raw.initialize().await;
    let closed = raw
        .http
        .delete(&server.url)
        .header("Mcp-Session-Id", sid)
        .send()
        .await
        .unwrap();
    assert!(
        matches!(closed.status().as_u16(), 200 | 204),
        "DELETE answered {}",
        closed.status()
    );
    assert_eq!(server.stop(), Some(0));
}

/// An abandoned session is closed after `--session-idle` and its memory
/// reclaimed: the test waits out a 1-second idle time once.
#[tokio::test]
async fn an_idle_session_is_reclaimed() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start(&["--apps", &ex, "--offline", "--session-idle", "1"]);
    let raw = RawHttp::new(&server.url);
    let sid = raw.initialize().await;
    let in_session = Some(sid.as_str());
    let version = Some("2025-03-26");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let r = raw.post(initialized, in_session, version).await;
    assert!(r.status().is_success(), "{}", r.status());
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let r = raw.post(&list, in_session, version).await;
    assert!(r.status().is_success(), "in use: {}", r.status());
    drop(r);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let r = raw.post(&list, in_session, version).await;
    assert_eq!(r.status().as_u16(), 404, "an idle session is gone");
    assert_eq!(server.stop(), Some(0));
}

/// Protocol 2025-03-26 requires servers to take JSON-RPC batches: over HTTP
/// each message of a batch is handled as if it came alone and the answers to
/// its requests come back as one array; later revisions, `initialize` inside a
/// batch and an empty batch are refused with a JSON-RPC error.
#[tokio::test]
async fn http_takes_batches_under_2025_03_26_and_refuses_them_after() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start(&["--apps", &ex, "--offline"]);
    let raw = RawHttp::new(&server.url);
    let sid = raw.initialize().await;
    let sid = Some(sid.as_str());
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert!(
        raw.post(initialized, sid, Some("2025-03-26"))
            .await
            .status()
            .is_success()
    );

    let batch = json!([
        {"jsonrpc": "2.0", "id": "list", "method": "tools/list"},
        {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 8, "method": "ping"}
    ]);
    // With the header and without it (absent means 2025-03-26).
    for version in [Some("2025-03-26"), None] {
        let r = raw.post(batch.clone(), sid, version).await;
        assert_eq!(r.status().as_u16(), 200, "{version:?}");
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/json")
        );
        let answers: serde_json::Value = r.json().await.unwrap();
        let answers = answers.as_array().unwrap();
        let ids: Vec<&serde_json::Value> = answers.iter().map(|a| &a["id"]).collect();
        assert_eq!(ids, [&json!("list"), &json!(7), &json!(8)], "{answers:?}");
        assert!(answers[0]["result"]["tools"].as_array().unwrap().len() > 3);
        let unknown = answers[1].to_string();
        assert!(unknown.contains("no_such_tool"), "{unknown}");
        assert_eq!(answers[2]["result"], json!({}));
    }
    // Only notifications: accepted, nothing to answer.
    let quiet = json!([{"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}]);
    assert_eq!(raw.post(quiet, sid, None).await.status().as_u16(), 202);

    let refused = |r: reqwest::Response| async move {
        assert_eq!(r.status().as_u16(), 400);
        let v: serde_json::Value = r.json().await.unwrap();
        v["error"]["message"].as_str().unwrap().to_string()
    };
    let later = refused(raw.post(batch.clone(), sid, Some("2025-06-18")).await).await;
    assert!(later.contains("2025-03-26 only"), "{later}");
    let init_in_batch = json!([{"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": {}}]);
    let msg = refused(raw.post(init_in_batch, sid, None).await).await;
    assert!(msg.contains("initialize must not be part"), "{msg}");
    let msg = refused(raw.post(json!([]), sid, None).await).await;
    assert!(msg.contains("empty batch"), "{msg}");
    // An unknown session fails the batch as it fails one message: 404.
    let r = raw.post(batch, Some("no-such-session"), None).await;
    assert_eq!(r.status().as_u16(), 404);
    assert_eq!(server.stop(), Some(0));
}

/// The text of an answer, JSON or SSE alike.
async fn body_text(r: reqwest::Response) -> String {
    r.text().await.unwrap()
}

/// Opens a 2025-03-26 session and sends `notifications/initialized`.
async fn session(raw: &RawHttp) -> String {
    let sid = raw.initialize().await;
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let r = raw.post(initialized, Some(&sid), Some("2025-03-26")).await;
    assert!(r.status().is_success(), "{}", r.status());
    sid
}

/// MCP sets no range on integer request ids: ids beyond i64 (which rmcp
/// cannot hold) are echoed exactly over HTTP too, alone and in a batch; a
/// request that is not JSON-RPC 2.0 (no `jsonrpc`, `"1.0"`, a fractional id)
/// is an Invalid Request (−32600) with the id as it came.
#[tokio::test]
async fn http_echoes_ids_beyond_64_bits_and_refuses_what_is_not_json_rpc_2() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start(&["--apps", &ex, "--offline"]);
    let raw = RawHttp::new(&server.url);
    let sid = session(&raw).await;
    let sid = Some(sid.as_str());
    let v = Some("2025-03-26");
    for id in [
        "9223372036854775808",
        "18446744073709551615",
        "123456789012345678901234567890",
        "-9223372036854775809",
    ] {
        let r = raw
            .post(
                format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
                sid,
                v,
            )
            .await;
        assert_eq!(r.status().as_u16(), 200, "id {id}");
        let text = body_text(r).await;
        assert!(
            text.contains(&format!(r#""id":{id},"#)) || text.contains(&format!(r#""id":{id}}}"#)),
            "id {id} not echoed exactly: {text}"
        );
        assert!(text.contains(r#""result""#), "{text}");
    }
    let batch = r#"[{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#;
    let r = raw.post(batch, sid, v).await;
    assert_eq!(r.status().as_u16(), 200);
    let text = body_text(r).await;
    assert!(
        text.starts_with(r#"[{"jsonrpc":"2.0","id":18446744073709551616,"result""#),
        "{text}"
    );
    for (body, id) in [
        (r#"{"id":5,"method":"ping"}"#, json!(5)),
        (r#"{"jsonrpc":"1.0","id":"x","method":"ping"}"#, json!("x")),
        (r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, json!(1.5)),
    ] {
        let r = raw.post(body, sid, v).await;
        assert_eq!(r.status().as_u16(), 400, "{body}");
        let answer: serde_json::Value = r.json().await.unwrap();
        assert_eq!(answer["error"]["code"], -32600, "{body}: {answer}");
        assert_eq!(answer["id"], id, "{body}: {answer}");
    }
    assert_eq!(server.stop(), Some(0));
}

/// Protocol 2025-11-25: a DELETE of a session the server does not have is
/// 404 (it was 204: a client could not tell its session was already gone).
#[tokio::test]
async fn http_delete_of_an_unknown_session_is_404() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start(&["--apps", &ex, "--offline"]);
    let raw = RawHttp::new(&server.url);
    let delete = |sid: String| {
        raw.http
            .delete(&server.url)
            .header("Mcp-Session-Id", sid)
            .header("MCP-Protocol-Version", "2025-11-25")
            .send()
    };
    let r = delete("no-such-session".into()).await.unwrap();
    assert_eq!(r.status().as_u16(), 404);
    let sid = session(&raw).await;
    let r = delete(sid.clone()).await.unwrap();
    assert_eq!(r.status().as_u16(), 204);
    let r = delete(sid).await.unwrap();
    assert_eq!(r.status().as_u16(), 404, "a session closed once is gone");
    assert_eq!(server.stop(), Some(0));
}

/// A batch holds at most `CALIMCP_MAX_BATCH` messages (refused whole past
/// it), and its answer at most `CALIMCP_MAX_ANSWER` bytes: a request whose
/// answer would pass it gets an error naming the limit instead, and every
/// request still gets an answer.
#[tokio::test]
async fn http_batches_and_their_answers_are_bounded() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start_env(
        &["--apps", &ex, "--offline"],
        &[("CALIMCP_MAX_BATCH", "5"), ("CALIMCP_MAX_ANSWER", "4K")],
    );
    let raw = RawHttp::new(&server.url);
    let sid = session(&raw).await;
    let sid = Some(sid.as_str());
    let pings: Vec<serde_json::Value> = (0..6)
        .map(|i| json!({"jsonrpc": "2.0", "id": i, "method": "ping"}))
        .collect();
    let r = raw.post(json!(pings), sid, None).await;
    assert_eq!(r.status().as_u16(), 400);
    let v: serde_json::Value = r.json().await.unwrap();
    assert_eq!(v["error"]["code"], -32600, "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("CALIMCP_MAX_BATCH"), "{message}");
    // Five pings fit; a tools/list of the examples (tens of KiB) does not.
    let r = raw.post(json!(pings[..5]), sid, None).await;
    assert_eq!(r.status().as_u16(), 200);
    let v: serde_json::Value = r.json().await.unwrap();
    assert_eq!(v.as_array().map(Vec::len), Some(5), "{v}");
    let batch = json!([
        {"jsonrpc": "2.0", "id": "list", "method": "tools/list"},
        {"jsonrpc": "2.0", "id": "again", "method": "tools/list"},
    ]);
    let r = raw.post(batch, sid, None).await;
    assert_eq!(r.status().as_u16(), 200);
    let text = body_text(r).await;
    assert!(text.len() < 4096 + 1024, "{} bytes", text.len());
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let answers = v.as_array().unwrap();
    assert_eq!(answers.len(), 2, "{v}");
    for (a, id) in answers.iter().zip(["list", "again"]) {
        assert_eq!(a["id"], id, "{v}");
        let message = a["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("CALIMCP_MAX_ANSWER"), "{v}");
    }
    assert_eq!(server.stop(), Some(0));
}

/// At most `CALIMCP_MAX_SESSIONS` sessions live at once: a further
/// `initialize` is refused with 503 (and a JSON-RPC error naming the limit)
/// until one ends.
#[tokio::test]
async fn http_sessions_are_capped() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start_env(
        &["--apps", &ex, "--offline"],
        &[("CALIMCP_MAX_SESSIONS", "3")],
    );
    let raw = RawHttp::new(&server.url);
    let mut sids = Vec::new();
    for _ in 0..3 {
        sids.push(raw.initialize().await);
    }
    let init = json!({"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}});
    let r = raw.post(&init, None, None).await;
    assert_eq!(r.status().as_u16(), 503);
    let v: serde_json::Value = r.json().await.unwrap();
    assert_eq!(v["id"], 9, "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("CALIMCP_MAX_SESSIONS"), "{message}");
    // Ending one makes room.
    let r = raw
        .http
        .delete(&server.url)
        .header("Mcp-Session-Id", sids.pop().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 204);
    raw.initialize().await;
    assert_eq!(server.stop(), Some(0));
}

/// A 2026-07-28 `subscriptions/listen` request asking for tool-list changes.
fn listen_request(id: &str) -> serde_json::Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
        "params": {"_meta": meta_2026(), "notifications": {"toolsListChanged": true}}})
}

/// Opens a listen stream; its answer once the server said something (the
/// acknowledgement of an open stream, or a refusal), or a failure naming
/// what went unanswered for 15 s.
async fn open_listen(raw: &RawHttp, id: &str, sid: Option<&str>) -> reqwest::Response {
    let mut r = tokio::time::timeout(
        Duration::from_secs(15),
        raw.post(listen_request(id), sid, Some("2026-07-28")),
    )
    .await
    .unwrap_or_else(|_| panic!("listen {id}: no answer within 15 s"));
    if r.status() == 200 {
        let first = tokio::time::timeout(Duration::from_secs(15), r.chunk())
            .await
            .unwrap_or_else(|_| panic!("listen {id}: no acknowledgement within 15 s"));
        assert!(matches!(first, Ok(Some(_))), "listen {id}: {first:?}");
    }
    r
}

/// The JSON-RPC error message of a 503 refusal.
async fn busy_message(r: reqwest::Response, id: &str) -> String {
    assert_eq!(r.status().as_u16(), 503, "{id}");
    assert_eq!(r.headers()["retry-after"], "5");
    let v: serde_json::Value = r.json().await.unwrap();
    assert_eq!(v["id"], id, "{v}");
    v["error"]["message"].as_str().unwrap().to_string()
}

/// Issue 47: open `subscriptions/listen` streams count with the sessions
/// against `CALIMCP_MAX_SESSIONS`: past it a listen (even one naming a
/// session, which a 2026-07-28 request does not use) and an `initialize` get
/// 503 and a message that names the limit; a stream that ends makes room.
#[tokio::test]
async fn listen_streams_count_with_the_sessions() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start_env(
        &["--apps", &ex, "--offline"],
        &[("CALIMCP_MAX_SESSIONS", "3")],
    );
    let raw = RawHttp::new(&server.url);
    let sid = raw.initialize().await;
    let mut streams = vec![
        open_listen(&raw, "a", None).await,
        open_listen(&raw, "b", Some(&sid)).await,
    ];
    assert!(streams.iter().all(|r| r.status() == 200));
    for sid in [None, Some(sid.as_str()), Some("not-a-session")] {
        let message = busy_message(open_listen(&raw, "c", sid).await, "c").await;
        assert!(
            message.contains("1 sessions and 2 subscriptions/listen streams are open")
                && message.contains("CALIMCP_MAX_SESSIONS=3")
                && message.contains("cancel a listen stream"),
            "{message}"
        );
    }
    let init = json!({"jsonrpc": "2.0", "id": "i", "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}});
    let message = busy_message(raw.post(&init, None, None).await, "i").await;
    assert!(message.contains("CALIMCP_MAX_SESSIONS=3"), "{message}");
    // The session still works meanwhile.
    let (status, _) = raw
        .rpc(
            &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
            Some(&sid),
            Some("2025-03-26"),
        )
        .await;
    assert_eq!(status, 200);
    // A stream the client closes makes room (once the server saw it close).
    drop(streams.pop());
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let r = open_listen(&raw, "d", None).await;
        if r.status() == 200 {
            streams.push(r);
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no room after 15 s");
        tokio::task::yield_now().await;
    }
    drop(streams);
    assert_eq!(server.stop(), Some(0));
}

/// Issue 47: under a low descriptor limit, idle `subscriptions/listen`
/// streams cannot take every descriptor: the server caps them (with the
/// sessions) below the limit, so past the cap a new client's `initialize`
/// and a further listen are still answered (503, saying why), the server's
/// pages and open sessions still answer, and a stream that ends lets a new
/// client in. Without the cap, the streams ran the server out of
/// descriptors and new clients got no answer at all.
#[tokio::test]
async fn listen_streams_leave_descriptors_for_new_clients() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start_nofile(&["--apps", &ex, "--offline"], &[], 96);
    let raw = RawHttp::new(&server.url);
    let sid = raw.initialize().await;
    let mut streams = Vec::new();
    let refused = loop {
        let id = format!("l{}", streams.len());
        let r = open_listen(&raw, &id, None).await;
        if r.status() != 200 {
            break busy_message(r, &id).await;
        }
        streams.push(r);
        assert!(
            streams.len() < 96,
            "{} listen streams open under a limit of 96 descriptors",
            streams.len()
        );
    };
    // 96 descriptors: 64 kept for streams and sessions (one session is open).
    assert_eq!(streams.len(), 63, "{refused}");
    assert!(
        refused.contains("lowered by the descriptor limit of 96"),
        "{refused}"
    );
    // A new client is answered, and told why it cannot have a session yet.
    let fresh = RawHttp::new(&server.url);
    let init = json!({"jsonrpc": "2.0", "id": "new", "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}});
    let answer = tokio::time::timeout(Duration::from_secs(15), fresh.post(&init, None, None))
        .await
        .expect("a new client's initialize is answered within 15 s");
    let message = busy_message(answer, "new").await;
    assert!(message.contains("descriptor limit"), "{message}");
    // The pages and the open session still answer.
    let page = fresh
        .http
        .get(server.url.trim_end_matches("/mcp").to_string() + "/")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let (status, _) = fresh
        .rpc(
            &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
            Some(&sid),
            Some("2025-03-26"),
        )
        .await;
    assert_eq!(status, 200);
    // Streams that end make room: a new client gets its session.
    streams.truncate(streams.len() - 4);
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let r = fresh.post(&init, None, None).await;
        if r.status().is_success() {
            assert!(r.headers().contains_key("mcp-session-id"));
            break;
        }
        assert_eq!(r.status().as_u16(), 503);
        assert!(std::time::Instant::now() < deadline, "no room after 15 s");
        tokio::task::yield_now().await;
    }
    drop(streams);
    assert_eq!(server.stop(), Some(0));
}

/// A connection that never finishes its request's headers is closed after
/// `CALIMCP_HEADER_TIMEOUT` seconds, so half-sent requests cannot hold the
/// server's descriptors; the server answers others meanwhile.
#[tokio::test]
async fn half_sent_requests_are_closed_after_the_header_timeout() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start_env(
        &["--apps", &ex, "--offline"],
        &[("CALIMCP_HEADER_TIMEOUT", "1")],
    );
    let addr = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_string();
    let mut half = Vec::new();
    for _ in 0..20 {
        let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
        s.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl")
            .await
            .unwrap();
        half.push(s);
    }
    // The server still answers.
    let raw = RawHttp::new(&server.url);
    raw.initialize().await;
    // Each half-sent connection is closed by the server (EOF or reset),
    // well within the bound.
    for mut s in half {
        let mut buf = [0u8; 1024];
        let read = tokio::time::timeout(Duration::from_secs(15), async {
            loop {
                match s.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
            }
        })
        .await;
        assert!(
            read.is_ok(),
            "a half-sent request was still open after 15 s"
        );
    }
    assert_eq!(server.stop(), Some(0));
}

/// A client that leaves in the middle of a call (stdin and stdout closed
/// while a slow call runs) is no error of the server's: rmcp's "failed to
/// send pending response during drain" is not logged at the default level.
#[test]
fn a_client_leaving_mid_call_is_not_logged_as_an_error() {
    use std::io::{BufRead, BufReader, Read, Write};
    let node = support::fake_node::FakeNode::start();
    let mut child = isolate(&mut Command::new(BIN), &["--node"])
        .args(["serve", "--node", &node.url])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for msg in [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    ] {
        writeln!(stdin, "{msg}").unwrap();
    }
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    for id in 1..=3 {
        writeln!(
            stdin,
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"faults_slow","arguments":{{}}}}}}"#
        )
        .unwrap();
    }
    stdin.flush().unwrap();
    // Wait until the node has the calls, then leave.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while node.executes().len() < 3 && std::time::Instant::now() < deadline {
        std::thread::park_timeout(Duration::from_millis(20));
    }
    // The client stops reading; an answer written now finds stdout closed.
    drop(stdout);
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":9,"method":"ping"}}"#).unwrap();
    stdin.flush().unwrap();
    drop(stdin);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let _ = child.wait();
    assert!(
        !stderr.contains("failed to send pending response"),
        "{stderr}"
    );
    assert!(!stderr.contains(": error"), "{stderr}");
}

/// Stopping an HTTP server is graceful: a call in flight when SIGTERM comes
/// (the fake node answers `slow` after 3 s) still gets its answer, and the
/// server then exits 0.
#[tokio::test]
async fn a_call_in_flight_at_shutdown_gets_its_answer() {
    install_crypto();
    let node = support::fake_node::FakeNode::start();
    let server = HttpServer::start(&["--node", &node.url]);
    let raw = RawHttp::new(&server.url);
    let version = "2025-11-25";
    let sid = raw.open(version).await;
    let call = json!({"jsonrpc": "2.0", "id": "slow", "method": "tools/call",
        "params": {"name": "faults_slow", "arguments": {}}});
    let pending = tokio::spawn(async move { raw.answer(&call, Some(&sid), Some(version)).await });
    tokio::time::timeout(Duration::from_secs(20), async {
        while node.executes().is_empty() {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the slow call reached the node");
    let code = tokio::task::spawn_blocking(move || server.stop())
        .await
        .unwrap();
    let answer = pending.await.expect("the call's answer");
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(code, Some(0));
}
