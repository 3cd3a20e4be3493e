//! `call_many` against the fake node: answers in the order given, consecutive
//! [view] calls overlapping on the node and each [mut] call alone, one
//! failure not failing the rest, the bounds and nesting refused before
//! anything runs, and `--read-only` refusing a [mut] call inside.

use crate::support;

use serde_json::{Value, json};
use support::fake_node::FakeNode;
use support::serve::*;

/// The index in `node.requests()` of the execute of `method`.
fn execute_of(node: &FakeNode, method: &str) -> usize {
    node.requests()
        .iter()
        .position(|r| r.path.ends_with("/jsonrpc") && r.json()["params"]["method"] == method)
        .unwrap_or_else(|| panic!("no execute of {method}"))
}

/// Where request `i` arrived (`false`) or was answered (`true`) in the timeline.
fn at(timeline: &[(usize, bool)], i: usize, answered: bool) -> usize {
    timeline
        .iter()
        .position(|&e| e == (i, answered))
        .unwrap_or_else(|| panic!("request {i} not in {timeline:?}"))
}

fn calls(list: &[&str]) -> Value {
    json!({"calls": list.iter().map(|t| json!({"tool": t, "arguments": {}})).collect::<Vec<_>>()})
}

#[tokio::test]
async fn views_overlap_muts_run_alone_and_answers_keep_the_order() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url]).await;
    let list = [
        "faults_slow",
        "faults_boom",
        "typed_noop",
        "kv_store_entries",
    ];
    let methods = ["slow", "boom", "noop", "entries"];
    let r = call(&client, "call_many", calls(&list)).await.unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let out = r.structured_content.clone().unwrap();
    assert_eq!(serde_json::from_str::<Value>(&text(&r)).unwrap(), out);
    let results = out["results"].as_array().unwrap();
    assert_eq!(results.len(), 4, "{out}");
    assert_eq!(results[0], json!({"ok": true, "result": null}));
    // One failure does not fail the rest; its error is the CLI's --json one.
    assert_eq!(results[1]["ok"], false, "{out}");
    assert_eq!(results[1]["error"]["code"], "app_error", "{out}");
    assert_eq!(results[1]["error"]["retryable"], false, "{out}");
    assert!(results[1]["error"]["message"].is_string(), "{out}");
    assert_eq!(results[2], json!({"ok": true, "result": null}));
    assert_eq!(results[3]["ok"], true, "{out}");
    let t = node.timeline();
    let [slow, boom, noop, entries] = methods.map(|m| execute_of(&node, m));
    // The two views overlapped: boom arrived, and was answered, while slow ran.
    assert!(at(&t, boom, false) < at(&t, slow, true), "{t:?}");
    assert!(at(&t, boom, true) < at(&t, slow, true), "{t:?}");
    // The [mut] call ran alone: after both views were answered, and before
    // the view after it started.
    assert!(at(&t, slow, true) < at(&t, noop, false), "{t:?}");
    assert!(at(&t, noop, true) < at(&t, entries, false), "{t:?}");
    assert_eq!(node.executes().len(), 4, "each call sent once");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn bounds_and_nesting_are_refused_before_anything_runs() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url]).await;
    let many: Vec<&str> = vec!["kv_store_entries"; 33];
    let nested = json!({"calls": [
        {"tool": "kv_store_entries", "arguments": {}},
        {"tool": "call_many", "arguments": {"calls": [{"tool": "kv_store_entries"}]}}
    ]});
    for (args, says) in [
        (calls(&[]), "calls: "),
        (calls(&many), "calls: "),
        (nested, "call_many cannot be nested"),
        (
            calls(&["kv_store_entries", "describe_app"]),
            "app tools only",
        ),
    ] {
        let r = call(&client, "call_many", args).await.unwrap();
        assert_eq!(r.is_error, Some(true), "{}", text(&r));
        assert!(text(&r).contains(says), "{}", text(&r));
    }
    assert!(node.executes().is_empty(), "nothing ran");
    // 32 is within the bound.
    let r = call(&client, "call_many", calls(&vec!["kv_store_entries"; 32]))
        .await
        .unwrap();
    let out = r.structured_content.unwrap();
    assert_eq!(out["results"].as_array().unwrap().len(), 32, "{out}");
    assert_eq!(node.executes().len(), 32);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn read_only_keeps_call_many_and_refuses_a_mut_call_inside() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url, "--read-only"]).await;
    let tools = client.peer().list_all_tools().await.unwrap();
    let listed = tools
        .iter()
        .find(|t| t.name == "call_many")
        .expect("listed");
    assert!(listed.output_schema.is_some());
    let list = ["typed_noop", "kv_store_entries", "no_such_tool"];
    let r = call(&client, "call_many", calls(&list)).await.unwrap();
    let out = r.structured_content.unwrap();
    let results = &out["results"];
    assert_eq!(results[0]["ok"], false, "{out}");
    assert_eq!(results[0]["error"]["code"], "usage", "{out}");
    assert_eq!(results[1]["ok"], true, "{out}");
    assert_eq!(results[2]["error"]["code"], "unknown_tool", "{out}");
    let sent: Vec<Value> = node
        .executes()
        .iter()
        .map(|r| r.json()["params"]["method"].clone())
        .collect();
    assert_eq!(
        sent,
        vec![json!("entries")],
        "the [mut] call never reached the node"
    );
    client.cancel().await.unwrap();
}
