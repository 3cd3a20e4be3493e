//! `calimcp serve` against the fake node: node apps in tools/list, calls that
//! run, `_context` both ways, select_app, node errors, exact 64-bit integers,
//! the live catalog (list_changed after an install, a node down at start and
//! up later, a hanging node), concurrent calls and a cancelled call.

use crate::support;

use std::time::{Duration, Instant};

use calimcp_core::mapping::names::id_tail;
use serde_json::{Value, json};
use support::fake_node::{self, FakeNode, Profile};
use support::serve::*;

fn examples() -> String {
    format!("{}/examples", env!("CARGO_MANIFEST_DIR"))
}

/// The tool prefix of the first `io.example.KV_Store` signer (two contexts).
fn kv2_prefix() -> String {
    format!("kv_store_{}", id_tail(&fake_node::id(fake_node::KV2_A)))
}

fn result_json(r: &rmcp::model::CallToolResult) -> Value {
    serde_json::from_str(&text(r)).unwrap_or_else(|e| panic!("{e}: {}", text(r)))
}

#[tokio::test]
async fn tools_list_with_a_node_equals_tools_json() {
    let node = FakeNode::start();
    let ex = examples();
    for extra in [
        vec![],
        vec!["--read-only"],
        vec![
            "--deny",
            "kv_store_*",
            "--allow",
            "*_get*",
            "--allow",
            "typed_*",
        ],
    ] {
        let mut args = vec!["--apps", ex.as_str(), "--node", node.url.as_str()];
        args.extend(&extra);
        let client = stdio_client(&args).await;
        let listed = listed_app_tools(&client).await;
        let mut tools_args = vec!["tools", "--json"];
        tools_args.extend(&args);
        assert_eq!(
            listed,
            run_json(&tools_args),
            "serve {extra:?} vs tools --json"
        );
        let names: Vec<&str> = listed
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert!(
            names.iter().any(|n| n.starts_with("typed_")),
            "node apps are listed at once: {names:?}"
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn calls_run_on_the_node_with_structured_results() {
    let node = FakeNode::start();
    let ex = examples();
    let client = stdio_client(&["--apps", &ex, "--node", &node.url]).await;
    let r = call(&client, "kv_store_set", json!({"key": "a", "value": "1"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert_eq!(text(&r), "null");
    assert_eq!(
        r.structured_content, None,
        "a unit return has no output schema"
    );
    let r = call(&client, "kv_store_get", json!({"key": "a"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert_eq!(text(&r), r#""1""#);
    assert_eq!(r.structured_content, Some(json!({"result": "1"})));
    let r = call(&client, "kv_store_entries", json!({})).await.unwrap();
    assert_eq!(r.structured_content, Some(json!({"result": {"a": "1"}})));
    assert_eq!(
        node.kv(&fake_node::id(fake_node::CTX_KV)).get("a").unwrap(),
        "1"
    );
    // What reached the node: the declared parameters only.
    let sent = node.executes().last().unwrap().json();
    assert_eq!(sent["params"]["method"], "entries");
    assert_eq!(sent["params"]["argsJson"], json!({}));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn injected_context_targets_one_call_and_never_reaches_the_app() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url]).await;
    // `prod` is an alias of the kv-store's context.
    let r = call(
        &client,
        "kv_store_set",
        json!({"key": "k", "value": "v", "_context": "prod"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let sent = node.executes().last().unwrap().json();
    assert_eq!(
        sent["params"]["contextId"],
        fake_node::id(fake_node::CTX_KV)
    );
    assert_eq!(
        sent["params"]["argsJson"],
        json!({"key": "k", "value": "v"})
    );
    // An unknown alias is an error result that lists the app's contexts.
    let r = call(
        &client,
        "kv_store_get",
        json!({"key": "k", "_context": "nope"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(
        text(&r).contains("`nope`") && text(&r).contains(&fake_node::id(fake_node::CTX_KV)),
        "{}",
        text(&r)
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_declared_context_parameter_wins_and_reaches_the_app() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url]).await;
    let tools = client.peer().list_all_tools().await.unwrap();
    let with = tools
        .iter()
        .find(|t| t.name == "typed_with_context")
        .unwrap();
    let required = with.input_schema["required"].as_array().unwrap();
    assert!(
        required.contains(&json!("_context")),
        "the method's own parameter"
    );
    let r = call(
        &client,
        "typed_with_context",
        json!({"_context": "mine", "note": "n"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let sent = node.executes().last().unwrap().json();
    // The app's only context runs it; `_context` is the app's argument.
    assert_eq!(
        sent["params"]["contextId"],
        fake_node::id(fake_node::CTX_TYPED)
    );
    assert_eq!(
        sent["params"]["argsJson"],
        json!({"_context": "mine", "note": "n"})
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn several_contexts_need_a_choice_and_select_app_pins_one() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url]).await;
    // Two contexts of one service, neither aliased `default`: a choice.
    let r = call(&client, "notebook_pages_words", json!({}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    let t = text(&r);
    assert!(t.contains("has 2 contexts"), "{t}");
    assert!(t.contains("pass one of them as `_context`"), "{t}");
    assert!(t.contains(&fake_node::id(fake_node::CTX_PAGES_1)), "{t}");
    assert!(!t.contains("calimcp use"), "CLI advice stays out: {t}");
    assert!(!t.contains("--context"), "CLI advice stays out: {t}");
    assert!(node.executes().is_empty(), "nothing ran");
    let sel = call(
        &client,
        "select_app",
        json!({"app": "notebook", "service": "pages"}),
    )
    .await
    .unwrap();
    assert_eq!(sel.is_error, Some(false));
    let v = result_json(&sel);
    assert_eq!(v["context"], Value::Null);
    assert!(
        v["note"].as_str().unwrap().contains("no context pinned"),
        "{v}"
    );

    // Two contexts, one aliased `default`: used as the CLI uses it.
    let get = format!("{}_get", kv2_prefix());
    let r = call(&client, &get, json!({"key": "a"})).await.unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert_eq!(
        node.executes().last().unwrap().json()["params"]["contextId"],
        fake_node::id(fake_node::CTX_KV2_2)
    );
    let app = fake_node::id(fake_node::KV2_A);
    let ctx = fake_node::id(fake_node::CTX_KV2_1);
    let sel = call(&client, "select_app", json!({"app": app, "context": ctx}))
        .await
        .unwrap();
    assert_eq!(sel.is_error, Some(false), "{}", text(&sel));
    let v = result_json(&sel);
    assert_eq!(v["context"], ctx);
    assert!(v["tools"].as_array().unwrap().contains(&json!(get)));
    let r = call(&client, &get, json!({"key": "a"})).await.unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert_eq!(
        node.executes().last().unwrap().json()["params"]["contextId"],
        ctx
    );
    // `_context` still overrides the pin for one call.
    let other = fake_node::id(fake_node::CTX_KV2_2);
    call(&client, &get, json!({"key": "a", "_context": other}))
        .await
        .unwrap();
    assert_eq!(
        node.executes().last().unwrap().json()["params"]["contextId"],
        other
    );
    // A context that does not exist is an error for select_app.
    let bad = call(
        &client,
        "select_app",
        json!({"app": app, "context": "no-such"}),
    )
    .await
    .unwrap();
    assert_eq!(bad.is_error, Some(true));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn node_and_app_errors_are_error_results_with_the_decoded_message() {
    for p in [Profile::Rc4, Profile::Rc25, Profile::Rc83] {
        let node = FakeNode::with_profile(p);
        let client = stdio_client(&["--node", &node.url]).await;
        let r = call(&client, "faults_boom", json!({})).await.unwrap();
        assert_eq!(r.is_error, Some(true));
        assert!(
            text(&r).contains("the key is missing"),
            "{p:?}: {}",
            text(&r)
        );
        let r = call(&client, "faults_panic", json!({})).await.unwrap();
        assert_eq!(r.is_error, Some(true));
        assert!(text(&r).contains("index out of bounds"), "{}", text(&r));
        let r = call(&client, "faults_html", json!({})).await.unwrap();
        assert_eq!(r.is_error, Some(true));
        assert!(!text(&r).contains("<html"), "{}", text(&r));
        // Uninitialized: what the node's sync_status says comes with it.
        let r = call(&client, "faults_uninit", json!({})).await.unwrap();
        assert_eq!(r.is_error, Some(true));
        assert!(
            text(&r).contains(
                "it tries again in 30 s (3 failed attempts; last error: No peers to sync with)"
            ),
            "{}",
            text(&r)
        );
        let r = call(&client, "lonely_len", json!({})).await.unwrap();
        assert_eq!(r.is_error, Some(true));
        assert!(text(&r).contains("no context"), "{}", text(&r));
        client.cancel().await.unwrap();
    }
}

#[test]
fn exact_64_bit_integers_both_ways() {
    let node = FakeNode::start();
    let args = ["--node", node.url.as_str()];
    let mut cmd = std::process::Command::new(BIN);
    let mut child = isolate(&mut cmd, &args)
        .arg("serve")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    use std::io::{BufRead, Write};
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for msg in [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"typed_echo_numbers","arguments":{"small":4294967295,"big":18446744073709551615,"neg":-9223372036854775808,"delta":-2147483648}}}"#,
    ] {
        writeln!(stdin, "{msg}").unwrap();
    }
    loop {
        line.clear();
        stdout.read_line(&mut line).unwrap();
        if line.contains(r#""id":1"#) {
            break;
        }
    }
    // The wire, not a parsed f64: the digits arrive exactly.
    assert!(line.contains("18446744073709551615"), "{line}");
    assert!(line.contains("-9223372036854775808"), "{line}");
    assert!(!line.contains(r#""isError":true"#), "{line}");
    let sent = &node.executes()[0].body;
    assert!(sent.contains(r#""big":18446744073709551615"#), "{sent}");
    assert!(sent.contains(r#""neg":-9223372036854775808"#), "{sent}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[tokio::test]
async fn list_changed_after_the_node_installs_an_app() {
    let node = FakeNode::start();
    let watcher = Watcher::default();
    let (client, _stderr) =
        stdio_client_with(&["--node", &node.url, "--refresh", "1"], watcher.clone()).await;
    let before = listed_app_tools(&client).await;
    assert!(!before.to_string().contains("\"fresh_"));
    let abi: Value = serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap();
    node.install("com.example.fresh", abi);
    assert!(
        watcher.wait_for(1, Duration::from_secs(20)).await,
        "notifications/tools/list_changed after the install"
    );
    let after = listed_app_tools(&client).await;
    let names: Vec<&str> = after
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"fresh_set"), "{names:?}");
    let r = call(&client, "fresh_set", json!({"key": "a", "value": "b"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_call_naming_a_new_app_reads_the_node_again() {
    let node = FakeNode::start();
    let watcher = Watcher::default();
    // A long refresh: only the call can make the server look again.
    let (client, _stderr) =
        stdio_client_with(&["--node", &node.url, "--refresh", "3600"], watcher.clone()).await;
    let before = listed_app_tools(&client).await;
    assert!(!before.to_string().contains("\"latest_"));
    let abi: Value = serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap();
    node.install("com.example.latest", abi);
    let r = call(&client, "latest_set", json!({"key": "a", "value": "b"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert!(watcher.wait_for(1, Duration::from_secs(20)).await);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_node_down_at_start_is_picked_up_when_it_answers() {
    let node = FakeNode::start();
    node.set_down(true);
    let ex = examples();
    let watcher = Watcher::default();
    let (client, mut stderr) = stdio_client_with(
        &["--apps", &ex, "--node", &node.url, "--refresh", "3600"],
        watcher.clone(),
    )
    .await;
    let line = stderr_line(&mut stderr, "not answering").await;
    assert!(line.contains(&node.url), "{line}");
    let tools = listed_app_tools(&client).await;
    assert_eq!(
        tools,
        run_json(&["tools", "--json", "--apps", &ex]),
        "local apps only while the node is down"
    );
    // While down, a node app is unknown; once up, naming it reads the node again.
    let r = call(
        &client,
        "describe_app",
        json!({"app": "com.calimero.typed"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    node.set_down(false);
    let r = call(
        &client,
        "describe_app",
        json!({"app": "com.calimero.typed"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert!(
        watcher.wait_for(1, Duration::from_secs(20)).await,
        "list_changed"
    );
    stderr_line(&mut stderr, "answers").await;
    let names = listed_app_tools(&client).await.to_string();
    assert!(names.contains("\"typed_echo_numbers\""));
    client.cancel().await.unwrap();
}

/// A node that accepts connections and never answers must not hold the
/// handshake or the first tools/list for long.
#[tokio::test]
async fn a_hanging_node_does_not_hold_the_first_tools_list() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let held = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let keep = held.clone();
    std::thread::spawn(move || {
        for s in listener.incoming().flatten() {
            keep.lock().unwrap().push(s);
        }
    });
    let ex = examples();
    let t0 = Instant::now();
    let client = stdio_client(&["--apps", &ex, "--node", &url, "--timeout", "60"]).await;
    let tools = listed_app_tools(&client).await;
    let waited = t0.elapsed();
    assert!(waited < Duration::from_secs(10), "took {waited:?}");
    assert!(tools.to_string().contains("\"kv_store_get\""));
    client.cancel().await.unwrap();
}

/// notifications/cancelled stops a tools/call, and with it the node request:
/// the server closes that connection at once instead of at --timeout.
#[tokio::test]
async fn a_cancelled_call_drops_its_node_request() {
    use std::io::{BufRead, Read};
    // A node that reads every request and never answers; it reports when the
    // connection carrying the call's first node request arrives and closes:
    // the context check (`GET …/admin-api/contexts/:id`) comes before the
    // execute (`POST …/jsonrpc`), and hangs here.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let tx = tx.clone();
            std::thread::spawn(move || {
                let mut reader = std::io::BufReader::new(stream);
                let mut line = String::new();
                let _ = reader.read_line(&mut line);
                let execute = (line.starts_with("POST ") && line.contains("/jsonrpc"))
                    || (line.starts_with("GET ") && line.contains("/admin-api/contexts/"));
                if execute {
                    let _ = tx.send("sent");
                }
                let _ = reader.read_to_end(&mut Vec::new());
                if execute {
                    let _ = tx.send("closed");
                }
            });
        }
    });
    let ex = examples();
    let client = stdio_client(&["--apps", &ex, "--node", &url, "--timeout", "300"]).await;
    let params = rmcp::model::CallToolRequestParams::new("kv_store_get").with_arguments(
        json!({"key": "a", "_context": fake_node::hex_id(7)})
            .as_object()
            .unwrap()
            .clone(),
    );
    let request =
        rmcp::model::ClientRequest::CallToolRequest(rmcp::model::CallToolRequest::new(params));
    let handle = client
        .peer()
        .send_cancellable_request(request, rmcp::service::PeerRequestOptions::no_options())
        .await
        .unwrap();
    let within = Duration::from_secs(20);
    let sent = tokio::time::timeout(within, rx.recv()).await;
    assert_eq!(sent, Ok(Some("sent")), "the execute reached the node");
    handle
        .cancel(Some("the test cancels".into()))
        .await
        .unwrap();
    let closed = tokio::time::timeout(within, rx.recv()).await;
    assert_eq!(
        closed,
        Ok(Some("closed")),
        "the server dropped the node request after the cancel (--timeout is 300 s)"
    );
    // The server goes on serving.
    assert!(
        listed_app_tools(&client)
            .await
            .to_string()
            .contains("\"kv_store_get\"")
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_slow_call_does_not_hold_up_the_others() {
    let node = FakeNode::start();
    let client = std::sync::Arc::new(stdio_client(&["--node", &node.url]).await);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let slow = {
        let (client, tx) = (client.clone(), tx.clone());
        tokio::spawn(async move {
            let r = call(&client, "faults_slow", json!({})).await.unwrap();
            tx.send("slow").unwrap();
            r
        })
    };
    // Wait until the slow call has reached the node, then make a quick one.
    tokio::time::timeout(Duration::from_secs(20), async {
        while node.executes().is_empty() {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the slow call reached the node");
    let r = call(&client, "typed_noop", json!({})).await.unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    tx.send("quick").unwrap();
    assert_eq!(
        rx.recv().await,
        Some("quick"),
        "the quick call finished first"
    );
    assert_eq!(slow.await.unwrap().is_error, Some(false));
    assert_eq!(rx.recv().await, Some("slow"));
}

/// An answer that does not match the method's declared return type is
/// reported, never passed off as valid structured content.
#[tokio::test]
async fn output_that_breaks_the_declared_return_type_is_an_error_result() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url]).await;
    listed_app_tools(&client).await;
    // The fake node echoes the arguments back: an object, not the u32 declared.
    let abi = json!({"schema_version": "wasm-abi/1", "types": {}, "events": [], "methods": [
        {"name": "count", "params": [{"name": "x", "type": {"kind": "string"}}],
         "returns": {"kind": "u32"}, "intent": "read_only"}]});
    node.install("com.example.liar", abi);
    let r = call(&client, "liar_count", json!({"x": "a"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    let t = text(&r);
    assert!(t.contains("does not match the declared return type"), "{t}");
    assert!(t.contains(r#"output: {"x":"a"}"#), "{t}");
    // No `result`: the structured content is the error, as for any failure.
    let s = r.structured_content.unwrap();
    assert_eq!(s.get("result"), None, "{s}");
    assert_eq!(s["error"]["code"], "unexpected_response", "{s}");
    client.cancel().await.unwrap();
}

/// With `-v` the node client logs every request — on stderr; stdout carries
/// nothing but JSON-RPC.
#[test]
fn verbose_node_logging_never_reaches_stdout() {
    use std::io::Write;
    let node = FakeNode::start();
    let args = ["--node", node.url.as_str(), "-v", "--log-level", "debug"];
    let mut child = isolate(&mut std::process::Command::new(BIN), &args)
        .arg("serve")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for msg in [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"kv_store_set","arguments":{"key":"a","value":"b"}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no\u001b[2Jsuch","arguments":{}}}"#,
    ] {
        writeln!(stdin, "{msg}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut ids = Vec::new();
    for line in stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
        assert_eq!(v["jsonrpc"], "2.0", "{line}");
        ids.push(v["id"].clone());
        assert!(
            !line.contains('\u{1b}'),
            "no escape sequence reaches the client: {line}"
        );
    }
    ids.sort_by_key(|v| v.as_u64());
    assert_eq!(
        ids,
        [json!(0), json!(1), json!(2), json!(3)],
        "every request answered"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("/jsonrpc"),
        "the -v log is on stderr: {stderr}"
    );
}

/// The node scenarios of `serve` on every merod version the fake speaks as:
/// tools of node apps (ABIs from the route or the modules), calls with and
/// without `_context` (hex and base58), the executor 0.10 needs, a 32-byte
/// array argument and decoded app errors — through the same node client as
/// `call`.
#[tokio::test]
async fn node_scenarios_pass_on_every_profile() {
    for p in Profile::ALL {
        let node = FakeNode::with_profile(p);
        let client = stdio_client(&["--node", &node.url]).await;
        let tools = client.peer().list_all_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        for want in [
            "kv_store_get",
            "typed_echo_numbers",
            "ids_digest",
            "faults_boom",
        ] {
            assert!(names.contains(&want), "{p:?}: {names:?}");
        }
        let ctx = node.id(fake_node::CTX_KV);
        let r = call(&client, "kv_store_set", json!({"key": "k", "value": "v"}))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{p:?}: {}", text(&r));
        let sent = node.executes().last().unwrap().json();
        assert_eq!(sent["params"]["contextId"], ctx.as_str(), "{p:?}");
        if p.executor_required() {
            assert_eq!(
                sent["params"]["executorPublicKey"],
                node.id(fake_node::owner_seed(fake_node::CTX_KV)).as_str()
            );
        }
        for given in [node.id(fake_node::CTX_KV), node.other_id(fake_node::CTX_KV)] {
            let r = call(
                &client,
                "kv_store_get",
                json!({"key": "k", "_context": given}),
            )
            .await
            .unwrap();
            assert_eq!(text(&r), r#""v""#, "{p:?} {given}");
            let sent = node.executes().last().unwrap().json();
            assert_eq!(sent["params"]["contextId"], ctx.as_str(), "{p:?}");
        }
        if p.executor_required() {
            // The executor is found once per context for the life of the server.
            let asked = node
                .requests()
                .iter()
                .filter(|r| r.path.ends_with("/identities-owned"))
                .count();
            assert_eq!(asked, 1, "{p:?}");
        }
        let hash: Vec<u8> = (0..32).collect();
        let r = call(&client, "ids_digest", json!({ "hash": hash }))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{p:?}: {}", text(&r));
        assert_eq!(result_json(&r), json!(hash));
        let r = call(&client, "faults_boom", json!({})).await.unwrap();
        assert_eq!(r.is_error, Some(true));
        assert!(
            text(&r).contains("the key is missing"),
            "{p:?}: {}",
            text(&r)
        );
        client.cancel().await.unwrap();
    }
}

/// Token expiry under `serve`, on every profile: the cached pair is
/// refreshed once (at the origin, under a base path) and the call goes on.
#[tokio::test]
async fn expired_tokens_are_refreshed_on_every_profile() {
    use calimcp_node::auth::{Tokens, cache_path, write_cache};
    for p in Profile::ALL {
        let node = FakeNode::builder()
            .profile(p)
            .auth("admin", "pw")
            .base_path("/node")
            .start();
        let (access, refresh) = node.mint(1_000 + p as u64);
        let path = cache_path(&state_dir(), &node.url, None);
        write_cache(
            &path,
            &node.url,
            None,
            &Tokens {
                access: Some(access),
                refresh: Some(refresh),
            },
        )
        .unwrap();
        let client = stdio_client(&["--node", &node.url]).await;
        let r = call(&client, "kv_store_len", json!({})).await.unwrap();
        assert_eq!(r.is_error, Some(false), "{p:?}: {}", text(&r));
        node.expire_tokens();
        let r = call(&client, "kv_store_len", json!({})).await.unwrap();
        assert_eq!(r.is_error, Some(false), "{p:?}: {}", text(&r));
        assert_eq!(node.refreshes(), 1, "{p:?}");
        let refreshed: Vec<String> = node
            .requests()
            .into_iter()
            .filter(|r| r.path.ends_with("/refresh"))
            .map(|r| r.path)
            .collect();
        assert_eq!(refreshed.last().map(String::as_str), Some("/auth/refresh"));
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn serve_as_executes_every_call_as_that_identity_on_a_0_10_node() {
    let node = FakeNode::with_profile(Profile::V010);
    let owner = node.id(fake_node::owner_seed(fake_node::CTX_TYPED));
    let client = stdio_client(&["--node", &node.url, "--as", "me"]).await;
    let r = call(
        &client,
        "typed_echo_numbers",
        json!({"small": 1, "big": 2, "neg": 3}),
    )
    .await
    .unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    let sent: Vec<Value> = node.executes().iter().map(|e| e.json()).collect();
    assert_eq!(
        sent.len(),
        1,
        "the identity is known before the first try: {sent:?}"
    );
    assert_eq!(sent[0]["params"]["executorPublicKey"], owner.as_str());
    client.cancel().await.unwrap();
}

/// A login the node has revoked (its whole token family, as rc.25 does when
/// a refresh token is used twice) is reported as such, with how to log in
/// again — not as a node that does not answer.
#[tokio::test]
async fn a_revoked_login_is_said_to_be_refused_not_unanswered() {
    // rc.19 on answer a revoked token 403 `token_revoked` (rc.4: a bare 401).
    for p in [Profile::Rc25, Profile::Rc83] {
        let node = FakeNode::builder().profile(p).auth("admin", "pw").start();
        let (access, refresh) = node.mint(1_800_000_000);
        node.revoke_tokens();
        let ex = examples();
        let (client, mut stderr) = stdio_client_env(
            &["--apps", &ex, "--node", &node.url, "--refresh", "3600"],
            &[
                ("CALIMERO_AUTH_TOKEN", access.as_str()),
                ("CALIMERO_REFRESH_TOKEN", refresh.as_str()),
            ],
            Watcher::default(),
        )
        .await;
        let line = stderr_line(&mut stderr, &node.url).await;
        assert!(line.contains("refuses calimcp's login"), "{p:?}: {line}");
        assert!(line.contains("revoked"), "{line}");
        assert!(line.contains("calimcp login"), "{line}");
        assert!(!line.contains("not answering"), "{line}");
        assert!(
            !line.contains(&access) && !line.contains(&refresh),
            "{line}"
        );
        client.cancel().await.unwrap();
    }
}

/// One session under both faces: a context pinned with `calimcp use` is
/// the one `serve` runs an app's tools in when the agent names none (as
/// `calimcp call` does, over the `default` alias), and `select_app`'s pin
/// comes before it for its MCP session.
#[tokio::test]
async fn serve_honours_the_pins_of_calimcp_use_as_the_cli_does() {
    let node = FakeNode::start();
    let state = tempfile::tempdir().unwrap();
    let state_env = [("CALIMCP_STATE_DIR", state.path().to_str().unwrap())];
    let app = fake_node::id(fake_node::KV2_A);
    let pinned = fake_node::id(fake_node::CTX_KV2_1);
    let get = format!("{}_get", kv2_prefix());
    let cli = |args: &[&str]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_calimcp"));
        let mut all = vec!["--node", node.url.as_str()];
        all.extend_from_slice(args);
        let out = isolate(&mut cmd, &all)
            .envs(state_env)
            .args(&all)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let last_context = || node.executes().last().unwrap().json()["params"]["contextId"].clone();
    cli(&["use", &app, "--context", &pinned]);
    cli(&["call", &get, "--key", "a"]);
    assert_eq!(last_context(), pinned, "the CLI runs in the pinned context");

    let (client, _) =
        stdio_client_env(&["--node", &node.url], &state_env, Watcher::default()).await;
    let r = call(&client, &get, json!({"key": "a"})).await.unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert_eq!(last_context(), pinned, "serve runs where the CLI does");
    // select_app's pin comes first for its session.
    let other = fake_node::id(fake_node::CTX_KV2_2);
    let sel = call(&client, "select_app", json!({"app": app, "context": other}))
        .await
        .unwrap();
    assert_eq!(sel.is_error, Some(false), "{}", text(&sel));
    call(&client, &get, json!({"key": "a"})).await.unwrap();
    assert_eq!(last_context(), other);
    client.cancel().await.unwrap();
}

/// rc.83's `ReadOnlyWriteRefused` on the MCP face: an error result with the
/// words the CLI gives, the stable code and `retryable: false`.
#[tokio::test]
async fn a_write_the_node_discarded_read_only_is_an_error_result_with_its_code() {
    let node = FakeNode::with_profile(Profile::Rc83);
    let ctx = node.id(fake_node::CTX_KV);
    let client = stdio_client(&["--node", &node.url]).await;
    node.refuse_next_write_read_only(&ctx);
    let r = call(
        &client,
        "kv_store_set",
        json!({"key": "k", "value": "v", "_context": ctx}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    let t = text(&r);
    for words in [
        "ran `set` read-only",
        "discarded its write",
        "read-only member",
        "hint: call the method through a node that is a writing member",
        "code: read_only_write_refused",
    ] {
        assert!(t.contains(words), "{words}: {t}");
    }
    assert!(t.ends_with("retryable: false"), "{t}");
    client.cancel().await.unwrap();
}

/// With no node given, the node found under ~/.calimero is served, and the
/// server's instructions say where it was found (an agent never sees stderr).
#[tokio::test]
async fn instructions_say_where_a_found_node_came_from() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let port = node.url.rsplit(':').next().unwrap();
    let dir = home.path().join(".calimero/default");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.toml"),
        format!("[server]\nlisten = [\"/ip4/127.0.0.1/tcp/{port}\"]\n"),
    )
    .unwrap();
    let home_s = home.path().to_str().unwrap();
    let (client, _) = stdio_client_env(
        &[],
        &[("HOME", home_s), ("CALIMCP_OFFLINE", "")],
        Watcher::default(),
    )
    .await;
    let info = client.peer().peer_info().expect("server info");
    let instructions = info.instructions.clone().unwrap_or_default();
    assert!(
        instructions.contains(&format!(
            "The node ({}) was found from the node home `default`",
            node.url
        )),
        "{instructions}"
    );
    let tools = listed_app_tools(&client).await;
    client.cancel().await.unwrap();
    assert!(
        !node.requests().is_empty(),
        "the found node was read: {tools}"
    );
}

/// A W3C `traceparent` in a tools/call's `_meta` goes to the node as the
/// `traceparent` header (with `tracestate`) on the requests that call makes;
/// a call without one, or with a malformed one, sends none.
#[tokio::test]
async fn a_traceparent_in_meta_is_forwarded_to_the_node() {
    use rmcp::model::{CallToolRequestParams, MetaObject, RequestMetaObject};
    const PARENT: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    let node = FakeNode::start();
    let ex = examples();
    let client = stdio_client(&["--apps", &ex, "--node", &node.url]).await;
    let traced = |parent: &str| {
        let mut meta = MetaObject::new();
        meta.set_traceparent(parent);
        meta.set_tracestate("calimcp=t1");
        let mut params = CallToolRequestParams::new("kv_store_get")
            .with_arguments(json!({"key": "a"}).as_object().unwrap().clone());
        params.meta = Some(RequestMetaObject(meta));
        params
    };
    let r = client.peer().call_tool(traced(PARENT)).await.unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let sent = node.executes().last().unwrap().clone();
    assert_eq!(sent.header("traceparent"), Some(PARENT));
    assert_eq!(sent.header("tracestate"), Some("calimcp=t1"));
    let before = node.requests().len();
    call(&client, "kv_store_get", json!({"key": "a"}))
        .await
        .unwrap();
    let bad = client
        .peer()
        .call_tool(traced("00-not-a-trace-01"))
        .await
        .unwrap();
    assert_eq!(bad.is_error, Some(false), "{}", text(&bad));
    let later = node.requests();
    assert!(later.len() > before);
    for r in &later[before..] {
        assert_eq!(r.header("traceparent"), None, "{} {}", r.method, r.path);
    }
    client.cancel().await.unwrap();
}

/// A failed call's answer carries the error `--json` prints as
/// `structuredContent` (code, message, hint, retryable), valid against the
/// tool's outputSchema; the text stays for clients that read text.
#[tokio::test]
async fn a_failed_call_carries_its_error_as_data() {
    let node = FakeNode::start();
    let ex = examples();
    let client = stdio_client(&["--apps", &ex, "--node", &node.url]).await;
    let tools = client.peer().list_all_tools().await.unwrap();
    let get = tools.iter().find(|t| t.name == "kv_store_get").unwrap();
    let schema = serde_json::to_value(get.output_schema.as_deref().unwrap()).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    // Refused before sending: invalid arguments, with the problems.
    let r = call(&client, "kv_store_get", json!({"key": 1}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    let error = r.structured_content.clone().unwrap();
    assert_eq!(error["error"]["code"], "invalid_arguments", "{error}");
    assert_eq!(error["error"]["retryable"], false);
    assert_eq!(error["error"]["problems"][0]["path"], "key", "{error}");
    assert!(text(&r).contains("key: expected a string"), "{}", text(&r));
    assert!(validator.is_valid(&error), "{error} against {schema}");
    // Failed on the node: its code, and whether to try again.
    node.answer_next_execute(503);
    let r = call(&client, "kv_store_get", json!({"key": "a"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    let error = r.structured_content.clone().unwrap();
    assert_eq!(error["error"]["retryable"], true, "{error}");
    assert!(
        text(&r).contains(&format!(
            "code: {}",
            error["error"]["code"].as_str().unwrap()
        )),
        "{}",
        text(&r)
    );
    assert!(validator.is_valid(&error), "{error}");
    client.cancel().await.unwrap();
}
