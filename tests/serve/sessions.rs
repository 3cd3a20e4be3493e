//! `calimcp serve --http`: sessions live while they are used (a call in
//! flight, an open GET stream), an ended one answers 404, and JSON-RPC
//! batches and bodies that are no JSON-RPC message are answered member by
//! member with their ids, as on stdio.

use crate::support;

use std::time::Duration;

use serde_json::{Value, json};
use support::fake_node::FakeNode;
use support::serve::*;

const V0326: &str = "2025-03-26";

/// A `tools/call` that outlives `--session-idle` gets its answer, and the
/// session still answers afterwards: the idle time counts from the end of
/// the last request, not its start. The call is `call_until` repeating the
/// fake node's `faults_slow` (3 s a try) for 5 s, under a 2 s idle time.
#[tokio::test]
async fn a_call_longer_than_the_idle_time_returns_and_the_session_lives_on() {
    install_crypto();
    let node = FakeNode::start();
    let server = HttpServer::start(&["--node", &node.url, "--session-idle", "2"]);
    let raw = RawHttp::new(&server.url);
    for version in ["2025-03-26", "2025-06-18", "2025-11-25"] {
        let sid = raw.open(version).await;
        let sid = Some(sid.as_str());
        let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
            "name": "call_until",
            "arguments": {"tool": "faults_slow", "until": "never", "within": 5, "every": 0.01}}});
        let answer = raw.answer(&call, sid, Some(version)).await;
        let text = answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(
            text.contains("within 5 s (2 tries") && text.ends_with("timedOut: true"),
            "{version}: the 5 s call's own answer: {answer}"
        );
        let ping = json!({"jsonrpc": "2.0", "id": 6, "method": "ping"});
        let (status, messages) = raw.rpc(&ping, sid, Some(version)).await;
        assert_eq!(status, 200, "{version}: the session lives on: {messages:?}");
        assert_eq!(messages.last().unwrap()["id"], 6, "{messages:?}");
    }
    assert_eq!(server.stop(), Some(0));
}

/// A session whose only use is an open GET stream (how clients wait for
/// `list_changed`) is kept past the idle time and gets the notification on
/// that stream; once the stream closes, the idle time runs and the session
/// ends: 404, never 500. Waits out a 1-second idle time twice.
#[tokio::test]
async fn an_open_get_stream_keeps_its_session_and_gets_list_changed() {
    install_crypto();
    let node = FakeNode::start();
    let server = HttpServer::start(&["--node", &node.url, "--session-idle", "1", "--refresh", "1"]);
    let raw = RawHttp::new(&server.url);
    let sid = raw.open(V0326).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let listed = raw.answer(&list, Some(&sid), Some(V0326)).await;
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    let mut stream = raw
        .http
        .get(&server.url)
        .header("Accept", "text/event-stream")
        .header("Mcp-Session-Id", &sid)
        .header("MCP-Protocol-Version", V0326)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status().as_u16(), 200);
    // Longer than the idle time, with nothing but the stream open.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let ping = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"});
    let (status, _) = raw.rpc(&ping, Some(&sid), Some(V0326)).await;
    assert_eq!(status, 200, "the open stream kept the session");
    let abi: Value = serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap();
    node.install("com.example.web", abi);
    let got = tokio::time::timeout(Duration::from_secs(20), async {
        let mut seen = String::new();
        while let Some(chunk) = stream.chunk().await.unwrap() {
            seen.push_str(&String::from_utf8_lossy(&chunk));
            if seen.contains("notifications/tools/list_changed") {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(got, Ok(true), "list_changed on the GET stream");
    drop(stream);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (status, _) = raw.rpc(&ping, Some(&sid), Some(V0326)).await;
    assert_eq!(status, 404, "idle once the stream closed: ended, so 404");
    let batch = json!([ping]);
    let r = raw.post(batch, Some(&sid), Some(V0326)).await;
    assert_eq!(r.status().as_u16(), 404, "a batch too");
    assert_eq!(server.stop(), Some(0));
}

/// A batch holding members that are no valid message is answered member by
/// member, as stdio answers it: −32600 (or −32602 for a standard request's
/// bad params) with each member's id, the valid members run.
#[tokio::test]
async fn a_batch_with_invalid_members_is_answered_member_by_member() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start(&["--apps", &ex, "--offline"]);
    let raw = RawHttp::new(&server.url);
    let sid = raw.open(V0326).await;
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": "no-method"},
        1,
        {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": 5}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": 5}},
        {"jsonrpc": "2.0", "method": "notifications/unknown", "params": 1},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/list"}
    ]);
    let r = raw.post(&batch, Some(&sid), Some(V0326)).await;
    assert_eq!(r.status().as_u16(), 200);
    let answers: Value = r.json().await.unwrap();
    let answers = answers.as_array().unwrap_or_else(|| panic!("{answers}"));
    let brief: Vec<(Value, Value)> = answers
        .iter()
        .map(|a| (a["id"].clone(), a["error"]["code"].clone()))
        .collect();
    assert_eq!(
        brief,
        [
            (json!(1), Value::Null),
            (json!("no-method"), json!(-32600)),
            (Value::Null, json!(-32600)),
            (json!(3), json!(-32602)),
            (json!(4), json!(-32602)),
            (json!(6), Value::Null),
        ],
        "{answers:?}"
    );
    assert!(answers[5]["result"]["tools"].is_array());
    assert_eq!(server.stop(), Some(0));
}

/// A body that is JSON but no JSON-RPC message, sent alone, gets its id
/// back (−32600, or −32602 for a standard request's bad params), as on
/// stdio; a notification of that kind is accepted without an answer.
#[tokio::test]
async fn a_lone_body_that_is_no_message_gets_its_id_back() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start(&["--apps", &ex, "--offline"]);
    let raw = RawHttp::new(&server.url);
    for version in ["2025-03-26", "2025-06-18", "2025-11-25"] {
        let sid = raw.open(version).await;
        let sid = Some(sid.as_str());
        for (body, id, code) in [
            (json!({"jsonrpc": "2.0", "id": "x"}), json!("x"), -32600),
            (
                json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": []}}),
                json!(9),
                -32602,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 10, "method": "resources/read", "params": {}}),
                json!(10),
                -32602,
            ),
        ] {
            let (status, messages) = raw.rpc(&body, sid, Some(version)).await;
            assert!(status == 200 || status == 400, "{version} {body}: {status}");
            let answer = messages
                .last()
                .unwrap_or_else(|| panic!("{version} {body}: no answer"));
            assert_eq!(answer["id"], id, "{version} {body}: {answer}");
            assert_eq!(answer["error"]["code"], code, "{version} {body}: {answer}");
        }
        let r = raw
            .post(
                json!({"jsonrpc": "2.0", "method": "notifications/x", "params": 1}),
                sid,
                Some(version),
            )
            .await;
        assert_eq!(r.status().as_u16(), 202, "{version}");
    }
    assert_eq!(server.stop(), Some(0));
}

/// A request answered at once gets its answer as `application/json` (no
/// event-stream parser needed on the client); one that takes longer than
/// half a second (the fake node's `faults_slow`, 3 s) keeps its SSE stream,
/// so keep-alives hold the connection while it runs.
#[tokio::test]
async fn quick_answers_are_json_and_slow_ones_a_stream() {
    install_crypto();
    let node = FakeNode::start();
    let server = HttpServer::start(&["--node", &node.url]);
    let raw = RawHttp::new(&server.url);
    let version = "2025-06-18";
    let sid = raw.open(version).await;
    let content_type = |r: &reqwest::Response| {
        r.headers()[reqwest::header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_string()
    };
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let r = raw.post(&list, Some(&sid), Some(version)).await;
    assert!(content_type(&r).starts_with("application/json"), "{r:?}");
    let answer: Value = r.json().await.unwrap();
    assert_eq!(answer["id"], 2, "{answer}");
    let slow = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "faults_slow", "arguments": {}}});
    let r = raw.post(&slow, Some(&sid), Some(version)).await;
    assert!(content_type(&r).starts_with("text/event-stream"), "{r:?}");
    let text = r.text().await.unwrap();
    assert!(
        text.contains("\nid: ") && text.contains("\nretry: "),
        "a priming event with an id and a retry field: {text}"
    );
    let messages = messages_of(&text);
    let answer = messages.iter().find(|m| m["id"] == 3).expect("the answer");
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(server.stop(), Some(0));
}
