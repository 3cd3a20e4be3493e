//! `calimcp serve`'s waiting tools against the fake node: `wait_for_context`
//! (until a context is initialized on the node) and `call_until` (a [view]
//! tool repeated until its result is as expected). Time is driven by the
//! fake: it answers "no state yet" for a set number of listings, and a write
//! arrives before a set execute.

use crate::support;

use serde_json::{Value, json};
use support::fake_node::{self, FakeNode};
use support::serve::*;

fn structured(r: &rmcp::model::CallToolResult) -> Value {
    r.structured_content
        .clone()
        .unwrap_or_else(|| serde_json::from_str(&text(r)).unwrap())
}

#[tokio::test]
async fn both_are_listed_read_only_beside_the_other_fixed_tools() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url]).await;
    let tools = client.peer().list_all_tools().await.unwrap();
    for name in ["wait_for_context", "call_until"] {
        let t = tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} is listed"));
        let a = t.annotations.as_ref().unwrap();
        assert_eq!(a.read_only_hint, Some(true), "{name}");
        assert_eq!(
            t.input_schema.get("additionalProperties"),
            Some(&json!(false)),
            "{name}"
        );
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn wait_for_context_returns_once_the_node_has_the_state() {
    let node = FakeNode::start();
    let ctx = node.id(fake_node::CTX_KV);
    let client = stdio_client(&["--node", &node.url]).await;
    // Once the server has read the node (its own listings would count too).
    call(&client, "describe_app", json!({})).await.unwrap();
    node.uninitialized_for(&ctx, 3);
    let r = call(
        &client,
        "wait_for_context",
        json!({"context": ctx, "every": 0.01}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let v = structured(&r);
    assert_eq!(v["context"], ctx.as_str());
    assert_eq!(v["initialized"], true);
    // Three listings without state, then one with it (fewer checks only if
    // the server's own reading of the node took some of them).
    let checks = v["checks"].as_u64().unwrap();
    assert!((2..=4).contains(&checks), "{v}");
    // By alias; already initialized.
    let r = call(&client, "wait_for_context", json!({"context": "prod"}))
        .await
        .unwrap();
    assert_eq!(structured(&r)["checks"], 1, "{}", text(&r));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn wait_for_context_times_out_saying_why_and_checks_its_arguments() {
    let node = FakeNode::start();
    let ctx = node.id(fake_node::CTX_KV);
    node.uninitialized_for(&ctx, u32::MAX);
    node.set_peers(0);
    let client = stdio_client(&["--node", &node.url]).await;
    let r = call(
        &client,
        "wait_for_context",
        json!({"context": ctx, "within": 0.2, "every": 0.05}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    let t = text(&r);
    assert!(
        t.contains("still not initialized")
            && t.contains("connected to no peers")
            && t.ends_with("timedOut: true"),
        "{t}"
    );
    let r = call(
        &client,
        "wait_for_context",
        json!({"context": 3, "within": 601, "x": 1}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    let t = text(&r);
    assert!(
        t.starts_with("Invalid arguments for wait_for_context")
            && t.contains("context: expected")
            && t.contains("within: 601 is greater than the maximum of 600")
            && t.contains("x: unknown argument"),
        "{t}"
    );
    let r = call(&client, "wait_for_context", json!({"context": "nope"}))
        .await
        .unwrap();
    assert!(
        text(&r).contains("neither a context id nor an alias"),
        "{}",
        text(&r)
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn call_until_repeats_a_view_tool_until_the_result_matches() {
    let node = FakeNode::start();
    let ctx = node.id(fake_node::CTX_KV);
    node.write_at_execute(&ctx, 3, "k", "done");
    let client = stdio_client(&["--node", &node.url]).await;
    let r = call(
        &client,
        "call_until",
        json!({"tool": "kv_store_get", "arguments": {"key": "k"}, "until": "done", "every": 0.01}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert_eq!(text(&r), "\"done\"", "the tool's own result");
    assert_eq!(node.executes().len(), 3);
    // A part of the result, by dotted path; any JSON value.
    node.write_at_execute(&ctx, 2, "n", "7");
    let r = call(
        &client,
        "call_until",
        json!({"tool": "kv_store_entries", "until_path": "n", "until": "7", "every": 0.01}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert_eq!(node.executes().len(), 5);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn call_until_refuses_mut_tools_and_times_out_with_the_last_answer() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url]).await;
    let r = call(
        &client,
        "call_until",
        json!({"tool": "kv_store_set", "arguments": {"key": "a", "value": "b"}, "until": null}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("is [mut]"), "{}", text(&r));
    assert!(node.executes().is_empty(), "nothing was sent");
    let r = call(
        &client,
        "call_until",
        json!({"tool": "kv_store_get", "arguments": {"key": "never"}, "until": 1, "within": 0.2, "every": 0.05}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    let t = text(&r);
    assert!(
        t.contains("kv_store_get did not return a result equal to 1 within 0.2 s")
            && t.contains("the last answer: null")
            && t.ends_with("timedOut: true"),
        "{t}"
    );
    // Bad arguments of the tool itself come back at once.
    node.clear_requests();
    let r = call(
        &client,
        "call_until",
        json!({"tool": "kv_store_get", "arguments": {"key": 5}, "until": 1}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(
        text(&r).contains("Invalid arguments for kv_store_get"),
        "{}",
        text(&r)
    );
    assert!(node.executes().is_empty());
    let r = call(&client, "call_until", json!({"tool": "kv_store_get"}))
        .await
        .unwrap();
    assert!(
        text(&r).contains("until: missing required argument"),
        "{}",
        text(&r)
    );
    client.cancel().await.unwrap();
}

// ---- issue 27: decisions follow the version the context runs ----

/// `com.example.events`: `insert` is [mut] in 0.1.0 and [view] in 0.2.0
/// (the newest, which names and lists the tools); it echoes its arguments.
fn events_abi(insert_view: bool) -> Value {
    let intent = if insert_view { "read_only" } else { "mutating" };
    json!({"schema_version": "wasm-abi/1", "types": {}, "events": [], "methods": [
        {"name": "insert", "params": [{"name": "key", "type": {"kind": "string"}}],
         "returns": {"kind": "map", "key": {"kind": "string"}, "value": {"kind": "string"}},
         "intent": intent}]})
}

#[tokio::test]
async fn call_until_and_read_only_follow_the_kind_in_the_contexts_version() {
    let node = FakeNode::start();
    let (_, old) = node.install_version("com.example.events", "0.1.0", events_abi(false));
    let (_, new) = node.install_version("com.example.events", "0.2.0", events_abi(true));
    let client = stdio_client(&["--node", &node.url]).await;
    let until = |ctx: &str| {
        json!({"tool": "events_insert", "arguments": {"key": "a", "_context": ctx},
               "until_path": "key", "until": "a", "within": 3, "every": 0.05})
    };
    let r = call(&client, "call_until", until(&old)).await.unwrap();
    assert_eq!(r.is_error, Some(true));
    let t = text(&r);
    assert!(t.contains("`insert` is [mut] in version 0.1.0"), "{t}");
    assert!(node.executes().is_empty(), "nothing executed");
    let r = call(&client, "call_until", until(&new)).await.unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert_eq!(node.executes().len(), 1);
    client.cancel().await.unwrap();

    node.clear_requests();
    let client = stdio_client(&["--node", &node.url, "--read-only"]).await;
    let e = call(
        &client,
        "events_insert",
        json!({"key": "a", "_context": old}),
    )
    .await
    .unwrap_err();
    assert!(e.to_string().contains("--read-only"), "{e}");
    assert!(node.executes().is_empty(), "nothing executed");
    let r = call(
        &client,
        "events_insert",
        json!({"key": "a", "_context": new}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn call_until_tries_at_the_deadline_and_bounds_finding_the_context() {
    let node = FakeNode::start();
    let ctx = node.id(fake_node::CTX_KV);
    let client = stdio_client(&["--node", &node.url]).await;
    let r = call(
        &client,
        "call_until",
        json!({"tool": "kv_store_get", "arguments": {"key": "never"}, "until": 1, "within": 0.5, "every": 10}),
    )
    .await
    .unwrap();
    let t = text(&r);
    assert!(t.contains("within 0.5 s (2 tries, "), "{t}");
    assert_eq!(
        node.executes().len(),
        2,
        "one at the start, one at the deadline"
    );
    node.delay_context_lookups(std::time::Duration::from_secs(8));
    let r = call(
        &client,
        "call_until",
        json!({"tool": "kv_store_get", "arguments": {"key": "never", "_context": ctx}, "until": 1, "within": 0.5}),
    )
    .await
    .unwrap();
    let t = text(&r);
    assert!(
        t.contains("did not finish within 0.5 s (0 tries") && t.ends_with("timedOut: true"),
        "{t}"
    );
    let r = call(
        &client,
        "wait_for_context",
        json!({"context": ctx, "within": 0.5}),
    )
    .await
    .unwrap();
    assert!(text(&r).ends_with("timedOut: true"), "{}", text(&r));
    client.cancel().await.unwrap();
}

/// `serve` of `node` over HTTP and over stdio: the HTTP server, and a client of each.
async fn both_ways(node: &FakeNode) -> (HttpServer, Client, Client) {
    use rmcp::ServiceExt;
    install_crypto();
    let http = HttpServer::start(&["--node", &node.url]);
    let over_http = Watcher::default()
        .serve(rmcp::transport::StreamableHttpClientTransport::from_uri(
            http.url.clone(),
        ))
        .await
        .unwrap();
    let over_stdio = stdio_client(&["--node", &node.url]).await;
    (http, over_http, over_stdio)
}

/// `call_until` compares exactly (issue 29 §3), over stdio and HTTP: what a
/// JavaScript client sends for u64::MAX (2^64 through a double) does not
/// match u64::MAX, and u64::MAX as a decimal string, as results carry it,
/// does.
#[tokio::test]
async fn call_until_compares_64_bit_results_exactly() {
    let node = FakeNode::start();
    let (http, over_http, over_stdio) = both_ways(&node).await;
    for (how, client) in [("stdio", &over_stdio), ("HTTP", &over_http)] {
        let wait = |until: Value| {
            json!({"tool": "typed_exact_numbers", "until_path": "big", "until": until,
                "within": 0.3, "every": 0.01,
                "arguments": {"big": "18446744073709551615", "neg": 0, "small": 0}})
        };
        let as_js_sends: Value = serde_json::from_str("18446744073709552000").unwrap();
        let r = call(client, "call_until", wait(as_js_sends)).await.unwrap();
        assert_eq!(r.is_error, Some(true), "{how}: {}", text(&r));
        assert!(text(&r).ends_with("timedOut: true"), "{how}: {}", text(&r));
        let r = call(client, "call_until", wait(json!("18446744073709551615")))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{how}: {}", text(&r));
        assert_eq!(
            structured(&r)["result"]["big"],
            "18446744073709551615",
            "{how}"
        );
    }
    over_stdio.cancel().await.unwrap();
    over_http.cancel().await.unwrap();
    assert_eq!(http.stop(), Some(0));
}

/// `com.example.counter`: one [view] method and two events, `Ticked` (a
/// record with a u64 and an i64) and `Raw` (a u64 alone).
fn counter_abi() -> Value {
    json!({"schema_version": "wasm-abi/1",
        "types": {"Tick": {"kind": "record", "fields": [
            {"name": "n", "type": {"kind": "u64"}},
            {"name": "delta", "type": {"kind": "i64"}},
            {"name": "small", "type": {"kind": "u32"}}]}},
        "events": [
            {"name": "Ticked", "payload": {"$ref": "Tick"}},
            {"name": "Raw", "payload": {"kind": "u64"}}],
        "methods": [{"name": "get", "params": [], "returns": {"kind": "u64"}, "intent": "read_only"}]})
}

/// `wait_for_events` (issue 29 §4), over stdio and HTTP: integers the ABI
/// types as 64-bit arrive in `structuredContent` as exact decimal strings
/// when they pass 2^53 (the text content keeps the node's digits), smaller
/// ones and other types stay numbers, and the output schema says so.
#[tokio::test]
async fn wait_for_events_payloads_carry_64_bit_integers_exactly() {
    let node = FakeNode::start();
    let (_, ctx) = node.install("com.example.counter", counter_abi());
    let (http, over_http, over_stdio) = both_ways(&node).await;
    for (how, client) in [("stdio", &over_stdio), ("HTTP", &over_http)] {
        let tools = client.peer().list_all_tools().await.unwrap();
        let tool = tools.iter().find(|t| t.name == "wait_for_events").unwrap();
        let schema = serde_json::to_value(tool.output_schema.as_ref().unwrap()).unwrap();
        let payload = &schema["properties"]["events"]["items"]["properties"]["payload"];
        let said = payload["description"].as_str().unwrap_or_default();
        assert!(
            said.contains("decimal string") && said.contains("2^53"),
            "{how}: {payload}"
        );

        let wait = call(
            client,
            "wait_for_events",
            json!({"app": "counter", "context": ctx, "max": 3, "timeout": 30}),
        );
        // The three events travel in one node event; it is sent again until
        // the wait (subscribed by then) has it, so no timing is assumed.
        let emit = async {
            loop {
                node.emit(
                    &ctx,
                    &[
                        (
                            "Ticked",
                            br#"{"n":18446744073709551615,"delta":-9223372036854775808,"small":7}"#,
                        ),
                        ("Raw", b"9007199254740993"),
                        ("Raw", b"42"),
                    ],
                );
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        };
        let r = tokio::select! {
            r = wait => r.unwrap(),
            () = emit => unreachable!(),
        };
        assert_eq!(r.is_error, Some(false), "{how}: {}", text(&r));
        let v = r.structured_content.clone().expect("structuredContent");
        let payloads: Vec<&Value> = v["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| &e["payload"])
            .collect();
        assert_eq!(
            payloads,
            [
                &json!({"n": "18446744073709551615", "delta": "-9223372036854775808", "small": 7}),
                &json!("9007199254740993"),
                &json!(42),
            ],
            "{how}: {v}"
        );
        assert!(
            v["events"]
                .as_array()
                .unwrap()
                .iter()
                .all(|e| e["valid"] == true),
            "{how}: {v}"
        );
        // The text content keeps the node's digits, as numbers.
        let t = text(&r);
        assert!(
            t.contains(r#""n":18446744073709551615"#) && t.contains(":9007199254740993"),
            "{how}: {t}"
        );
    }
    over_stdio.cancel().await.unwrap();
    over_http.cancel().await.unwrap();
    assert_eq!(http.stop(), Some(0));
}

/// `wait_for_events` with `groups` (issue 48): a group's membership event
/// comes back in the shape `watch --group --json` prints (rc.83's recorded
/// wire); on rc.4, whose subscription has no `groupIds`, an error result
/// naming the version.
#[tokio::test]
async fn wait_for_events_takes_groups_where_the_node_sends_group_events() {
    use support::fake_node::Profile;
    let group = "ab".repeat(32);
    let node = FakeNode::with_profile(Profile::Rc83);
    let client = stdio_client(&["--node", &node.url]).await;
    let wait = call(
        &client,
        "wait_for_events",
        json!({"app": "kv-store", "groups": [group.to_uppercase()], "events": ["Member*"], "max": 1, "timeout": 30}),
    );
    let emit = async {
        loop {
            node.emit_group(
                &group,
                "MemberAdded",
                &json!({"memberAccount": "12".repeat(32), "role": "ReadOnly"}),
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    };
    let r = tokio::select! {
        r = wait => r.unwrap(),
        () = emit => unreachable!(),
    };
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let v = structured(&r);
    let e = &v["events"][0];
    assert_eq!(e["event"], "MemberAdded", "{v}");
    assert_eq!(e["group"], group.as_str(), "{v}");
    assert_eq!(e["context"], "", "{v}");
    assert_eq!(e["payload"]["role"], "ReadOnly", "{v}");
    // The server may also subscribe to follow its contexts' versions (no
    // groups in that one): the wait's own subscription is the one that names
    // groups, in the node's form.
    let subs: Vec<Value> = node
        .requests()
        .into_iter()
        .filter(|r| r.path == "/sse/subscription")
        .map(|r| r.json())
        .collect();
    let sub = subs
        .iter()
        .find(|s| s["params"].get("groupIds").is_some())
        .unwrap_or_else(|| panic!("no subscription names groups: {subs:?}"));
    assert_eq!(sub["params"]["groupIds"], json!([group]), "{sub}");
    client.cancel().await.unwrap();

    let old = FakeNode::with_profile(Profile::Rc4);
    let client = stdio_client(&["--node", &old.url]).await;
    let r = call(
        &client,
        "wait_for_events",
        json!({"app": "kv-store", "groups": [group], "timeout": 5}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true), "{}", text(&r));
    assert!(text(&r).contains("0.11.0-rc.18"), "{}", text(&r));
    // A group id that is not one: refused with the other argument problems.
    let r = call(
        &client,
        "wait_for_events",
        json!({"app": "kv-store", "groups": ["nope"]}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("is not a group id"), "{}", text(&r));
    client.cancel().await.unwrap();
}
