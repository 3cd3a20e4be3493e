//! `calimcp serve` against a real Calimero node (issues 13 and 14): real
//! calls with `_context`, `select_app` and `--read-only`, and the tool list
//! announced when the node's apps change after idle refreshes.

mod support;

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::{Value, json};
use support::realnode::{RealNode, kv_app, on_each_version};
use support::serve::{Stderr, Watcher, call, listed_app_tools, stdio_client_with, text};

/// The debug line the server logs after each read of the node's apps.
const READ: &str = "read the node's apps";

/// Reads stderr until `n` more node reads were logged (bounded).
async fn reads(lines: &mut Stderr, n: usize) {
    for _ in 0..n {
        support::serve::stderr_line(lines, READ).await;
    }
}

/// Reads stderr until the server says it notified; how many node reads came before.
async fn reads_until_notified(lines: &mut Stderr) -> usize {
    let mut reads = 0;
    tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if line.contains(READ) {
                reads += 1;
            }
            if line.contains("tool list changed; notifying clients") {
                return;
            }
        }
        panic!("stderr ended before the server notified");
    })
    .await
    .expect("the server notified within 30 s");
    reads
}

fn serve_args(node: &RealNode) -> Vec<String> {
    vec![
        "--node".into(),
        node.url.clone(),
        "--refresh".into(),
        "1".into(),
        "--log-level".into(),
        "debug".into(),
    ]
}

on_each_version! {
async fn apps_that_appear_and_disappear_after_idle_refreshes_are_announced(v) {
    let Some(node) =
        RealNode::start_on(v, "apps_that_appear_and_disappear_after_idle_refreshes_are_announced")
    else {
        return;
    };
    let watcher = Watcher::default();
    let args = serve_args(&node);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (client, mut stderr) = stdio_client_with(&args, watcher.clone()).await;
    assert_eq!(listed_app_tools(&client).await, json!([]));
    // Three refreshes that change nothing: no notification, the mark is kept.
    reads(&mut stderr, 3).await;
    assert_eq!(watcher.changes.load(Ordering::SeqCst), 0);

    let app = node.install(&kv_app(), "com.example.kv-c", "0.1.0");
    let before = reads_until_notified(&mut stderr).await;
    assert!(
        before <= 2,
        "announced after {before} reads (one interval: at most 2)"
    );
    assert!(watcher.wait_for(1, Duration::from_secs(10)).await);
    let tools = listed_app_tools(&client).await.to_string();
    assert!(tools.contains("\"kv_c_add\""), "{tools}");

    // More idle refreshes, then the app goes away: announced as well.
    reads(&mut stderr, 3).await;
    node.admin("DELETE", &format!("/admin-api/applications/{app}"), None);
    let before = reads_until_notified(&mut stderr).await;
    assert!(before <= 2, "announced after {before} reads");
    assert!(watcher.wait_for(2, Duration::from_secs(10)).await);
    assert_eq!(listed_app_tools(&client).await, json!([]));
    client.cancel().await.unwrap();
}
}

on_each_version! {
async fn real_calls_with_context_select_app_and_read_only(v) {
    let Some(node) = RealNode::start_on(v, "real_calls_with_context_select_app_and_read_only") else {
        return;
    };
    let (_, ctx) = node.setup(&kv_app(), "com.example.kv-c", Some("kvmain"));
    let (client, _stderr) = stdio_client_with(&["--node", &node.url], Watcher::default()).await;

    // `_context` by alias; the exact u64 in structuredContent: past 2^53 − 1
    // a decimal string (what a JavaScript client reads exactly), in the text
    // content the number itself.
    let r = call(
        &client,
        "kv_c_add",
        json!({"a": "18446744073709551614", "b": 1, "_context": "kvmain"}),
    )
    .await
    .unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    assert_eq!(
        r.structured_content,
        Some(json!({"result": u64::MAX.to_string()}))
    );
    assert_eq!(text(&r), u64::MAX.to_string());

    // The app's only context needs no pin; select_app pins it anyway and says so.
    let r = call(&client, "select_app", json!({"app": "com.example.kv-c"}))
        .await
        .unwrap();
    let v: Value = serde_json::from_str(&text(&r)).unwrap();
    assert_eq!(v["context"], ctx.as_str(), "{v}");
    let r = call(&client, "kv_c_set", json!({"key": "k", "value": "v"}))
        .await
        .unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    let r = call(&client, "kv_c_get", json!({"key": "k"}))
        .await
        .unwrap();
    assert_eq!(r.structured_content, Some(json!({"result": "v"})));

    // An app error and a guest panic come back as isError with the app's words.
    let r = call(&client, "kv_c_add", json!({"a": u64::MAX, "b": 1}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("overflow"), "{}", text(&r));
    let r = call(&client, "kv_c_boom", json!({"message": "kaboom"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("kaboom"), "{}", text(&r));
    client.cancel().await.unwrap();

    // --read-only: the mutating tool is refused by name, nothing is sent.
    let (client, _stderr) =
        stdio_client_with(&["--node", &node.url, "--read-only"], Watcher::default()).await;
    let e = call(&client, "kv_c_set", json!({"key": "k", "value": "w"}))
        .await
        .unwrap_err();
    assert!(format!("{e}").contains("read-only"), "{e}");
    let r = call(&client, "kv_c_get", json!({"key": "k"}))
        .await
        .unwrap();
    assert_eq!(r.structured_content, Some(json!({"result": "v"})));
    client.cancel().await.unwrap();
}
}

on_each_version! {
async fn serve_over_http_runs_real_calls(v) {
    let Some(node) = RealNode::start_on(v, "serve_over_http_runs_real_calls") else {
        return;
    };
    node.setup(&kv_app(), "com.example.kv-c", Some("kvmain"));
    support::serve::install_crypto();
    let server = support::serve::HttpServer::start(&["--node", &node.url]);
    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(server.url.clone());
    use rmcp::ServiceExt;
    let client = ().serve(transport).await.expect("connect over HTTP");
    let args = json!({"a": 40, "b": 2}).as_object().cloned().unwrap();
    let r = client
        .peer()
        .call_tool(rmcp::model::CallToolRequestParams::new("kv_c_add").with_arguments(args))
        .await
        .unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    assert_eq!(r.structured_content, Some(json!({"result": 42})));
    client.cancel().await.unwrap();

    // A JSON-RPC batch (protocol 2025-03-26): two real calls, one answer array.
    let raw = support::serve::RawHttp::new(&server.url);
    let sid = raw.initialize().await;
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    raw.post(initialized, Some(&sid), None).await;
    let call = |id: u32, a: i64, b: i64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "kv_c_add", "arguments": {"a": a, "b": b}}})
    };
    let r = raw
        .post(json!([call(2, 40, 2), call(3, 1, 1)]), Some(&sid), None)
        .await;
    assert_eq!(r.status().as_u16(), 200);
    let answers: serde_json::Value = r.json().await.unwrap();
    assert_eq!(answers[0]["id"], 2, "{answers}");
    assert_eq!(
        answers[0]["result"]["structuredContent"],
        json!({"result": 42})
    );
    assert_eq!(answers[1]["id"], 3, "{answers}");
    assert_eq!(
        answers[1]["result"]["structuredContent"],
        json!({"result": 2})
    );
    assert_eq!(server.stop(), Some(0));
}
}
