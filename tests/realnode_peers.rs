//! Several peered real nodes (issue 19), on rc.4 and rc.25: state and events
//! that arrive from a peer, a node restarted under a watch, and a freshly
//! joined node. Node 1 installs the app and creates the context; node 2 joined
//! it (tests/support/realnode.rs `Cluster`). On node 2 the app is named by its
//! application id: a joined node gets the app by blob share without package or
//! version (issue 18 is about naming it as node 1 does).

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::realnode::{Cluster, RealNode, Version, Watch, ZERO_ROOT, on_each_version, test_app};

const EVENTS: &str = "com.example.events";
const KV: &str = "com.example.kv-c";

fn run(node: &RealNode, args: &[&str]) -> (Option<i32>, String, String) {
    let out = node.calimcp().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// `calimcp call` on a node; panics unless it exits 0.
fn call_ok(node: &RealNode, args: &[&str]) -> String {
    let (code, out, err) = run(node, args);
    assert_eq!(code, Some(0), "call {args:?}: {err}");
    out
}

/// Two peered nodes with `testapps/NAME` as `package`; node 2 has the state.
fn cluster(test: &str, v: Version, name: &str, package: &str) -> Option<Cluster> {
    let c = Cluster::start(test, v, 2, &test_app(name), package)?;
    c.wait_initialized(2, &c.context);
    Some(c)
}

on_each_version! {
fn a_call_on_node_1_is_seen_decoded_by_watch_on_node_2(v) {
    let Some(c) = cluster("a_call_on_node_1_is_seen_decoded_by_watch_on_node_2", v, "events", EVENTS) else {
        return;
    };
    let mut w = Watch::start(
        c.node(2),
        &[&c.app, "-c", &c.context, "--json", "--count", "2", "--timeout", "120"],
    );
    call_ok(c.node(1), &["call", &format!("{EVENTS}.insert"), "--key", "from-1", "--n", "18446744073709551615"]);
    let first: Value = serde_json::from_str(&w.next_line(Duration::from_secs(60)).expect("an event on node 2")).unwrap();
    assert_eq!(first["event"], "Inserted", "{first}");
    assert_eq!(first["context"], c.context.as_str());
    assert_eq!(first["payload"], json!({"key": "from-1", "n": u64::MAX}));
    assert_eq!(first["valid"], true);
    call_ok(c.node(1), &["call", &format!("{EVENTS}.clear")]);
    let (code, out, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    let second: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(second["event"], "Cleared", "{second}");
    assert_eq!(second["payload"], Value::Null);
}
}

on_each_version! {
async fn wait_for_events_through_serve_on_node_2_sees_a_call_on_node_1(v) {
    let test = "wait_for_events_through_serve_on_node_2_sees_a_call_on_node_1";
    let Some(c) = tokio::task::spawn_blocking(move || cluster(test, v, "events", EVENTS)).await.unwrap() else {
        return;
    };
    let client = support::serve::stdio_client(&["--node", &c.node(2).url]).await;
    let peer = client.peer().clone();
    let (app, ctx) = (c.app.clone(), c.context.clone());
    let waiting = tokio::spawn(async move {
        let args = json!({"app": app, "context": ctx, "events": ["Inserted"], "max": 1, "timeout": 60});
        peer.call_tool(
            rmcp::model::CallToolRequestParams::new("wait_for_events")
                .with_arguments(args.as_object().cloned().unwrap()),
        )
        .await
    });
    // Calls on node 1 until the wait on node 2 returns (the wait subscribes first).
    let (url, state) = (c.node(1).url.clone(), c.node(1).state.path().to_path_buf());
    let mut calls = 0;
    while !waiting.is_finished() && calls < 200 {
        calls += 1;
        let (url, state, n) = (url.clone(), state.clone(), calls.to_string());
        let out = tokio::task::spawn_blocking(move || {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("calimcp"))
                .env("CALIMERO_NODE_URL", url)
                .env("CALIMCP_STATE_DIR", state)
                .env_remove("CALIMCP_APPS")
                .args(["call", &format!("{EVENTS}.insert"), "--key", "peer", "--n", &n])
                .output()
                .unwrap()
        })
        .await
        .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let r = waiting.await.unwrap().unwrap();
    assert_ne!(r.is_error, Some(true), "{}", support::serve::text(&r));
    let v = r.structured_content.expect("structuredContent");
    assert_eq!(v["timedOut"], false, "{v}");
    assert_eq!(v["context"], c.context.as_str());
    let e = &v["events"][0];
    assert_eq!(e["event"], "Inserted", "{v}");
    assert_eq!(e["payload"]["key"], "peer");
    assert_eq!(e["valid"], true);
    client.cancel().await.unwrap();
    tokio::task::spawn_blocking(move || drop(c)).await.unwrap();
}
}

/// `calimcp call APP.get` on `node` until it prints `want` (60 s at most): a
/// write reaches a peer a moment after the call that made it returns.
fn read_until(node: &RealNode, app: &str, ctx: &str, key: &str, want: &Value) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let out = call_ok(
            node,
            &["call", &format!("{app}.get"), "-c", ctx, "--key", key],
        );
        let got: Value = serde_json::from_str(out.trim()).unwrap();
        if &got == want {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "node still reads {got} for {key}, not {want}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

on_each_version! {
fn a_view_on_node_2_reads_node_1s_write_and_back(v) {
    let Some(c) = cluster("a_view_on_node_2_reads_node_1s_write_and_back", v, "kv", KV) else {
        return;
    };
    call_ok(c.node(1), &["call", &format!("{KV}.set"), "--key", "k", "--value", "from node 1"]);
    read_until(c.node(2), &c.app, &c.context, "k", &json!("from node 1"));
    // And a write on node 2 (the joined node executes as its own member) reaches node 1.
    call_ok(c.node(2), &["call", &format!("{}.set", c.app), "-c", &c.context, "--key", "k2", "--value", "from node 2"]);
    read_until(c.node(1), KV, &c.context, "k2", &json!("from node 2"));
    let count = call_ok(c.node(2), &["call", &format!("{}.count", c.app), "-c", &c.context]);
    assert_eq!(count.trim(), "3", "init and two sets, counted on node 2");
}
}

on_each_version! {
fn wait_and_call_until_replace_sleep_loops_on_a_joined_node(v) {
    // Issue 22.4: what `wait_initialized` and `read_until` do by hand.
    let test = "wait_and_call_until_replace_sleep_loops_on_a_joined_node";
    let Some(c) = Cluster::start(test, v, 2, &test_app("kv"), KV) else {
        return;
    };
    let (code, out, err) = run(c.node(2), &["wait", &c.context, "--within", "120", "--every", "0.2", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let waited: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(waited["initialized"], true, "{waited}");
    assert_ne!(c.node(2).context_root(&c.context), ZERO_ROOT, "calimcp wait returned early");
    call_ok(c.node(1), &["call", &format!("{KV}.set"), "--key", "k", "--value", "from node 1"]);
    let out = call_ok(c.node(2), &[
        "call", &format!("{}.get", c.app), "-c", &c.context, "--key", "k",
        "--until", "from node 1", "--every", "0.2", "--within", "60",
    ]);
    assert_eq!(out.trim(), "\"from node 1\"");
    // A [mut] method is never repeated.
    let (code, _, err) = run(c.node(2), &[
        "call", &format!("{}.set", c.app), "-c", &c.context, "--key", "k", "--value", "v", "--until", "null",
    ]);
    assert_eq!(code, Some(2), "{err}");
}
}

on_each_version! {
fn node_2_killed_and_restarted_mid_watch_gets_node_1s_next_events(v) {
    let Some(mut c) = cluster("node_2_killed_and_restarted_mid_watch_gets_node_1s_next_events", v, "events", EVENTS) else {
        return;
    };
    let (app, ctx) = (c.app.clone(), c.context.clone());
    let mut w = Watch::start(c.node(2), &[&app, "-c", &ctx, "--json", "--timeout", "240"]);
    call_ok(c.node(1), &["call", &format!("{EVENTS}.insert"), "--key", "before", "--n", "1"]);
    let line = w.next_line(Duration::from_secs(60)).expect("the first event on node 2");
    assert!(line.contains("\"before\""), "{line}");
    c.node_mut(2).restart();
    w.wait_stderr("opened again", Duration::from_secs(90));
    // Node 2 is back, but it has to find node 1 again before deltas flow:
    // insert on node 1 until one reaches the watch on node 2.
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut n = 0;
    let after = loop {
        n += 1;
        call_ok(c.node(1), &["call", &format!("{EVENTS}.insert"), "--key", &format!("after-{n}"), "--n", "2"]);
        if let Some(line) = w.next_line(Duration::from_secs(2)) {
            break line;
        }
        assert!(Instant::now() < deadline, "no event on node 2 after its restart; stderr: {:?}", w.seen);
    };
    let after: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(after["event"], "Inserted", "{after}");
    assert!(after["payload"]["key"].as_str().unwrap().starts_with("after-"), "{after}");
    assert!(w.seen.join("\n").contains("events the node produced in between are lost"), "{:?}", w.seen);
}
}

/// A context of the shared `app/kv.c` (a C app that keeps no calimero-storage
/// entities and commits a made-up root) shared with node 2: node 2 is a member
/// with a peer that has the state, and stays uninitialized for ever (rc4: the
/// snapshot it gets has a zero root; rc25: node 1 refuses the snapshot,
/// "Boundary mismatch"). The project's test apps do not do this (see
/// testapps/include/calimero.h).
fn never_initialized(test: &str, v: Version) -> Option<(Cluster, String)> {
    let c = cluster(test, v, "events", EVENTS)?;
    let node1 = c.node(1);
    let app = node1.install(
        &support::realnode::shared_kv_app(),
        "com.example.kv-c",
        "0.1.0",
    );
    let (ns, ctx) = node1.create_namespace_context(&app);
    c.share(1, &ns, &ctx);
    assert_eq!(c.node(2).context_root(&ctx), ZERO_ROOT);
    Some((c, ctx))
}

on_each_version! {
fn a_joined_context_that_never_initializes_is_reported_as_uninitialized(v) {
    let Some((c, ctx)) = never_initialized("a_joined_context_that_never_initializes_is_reported_as_uninitialized", v) else {
        return;
    };
    let kv = support::realnode::shared_kv_app();
    let (code, _, err) = run(c.node(2), &["call", &format!("{}.add", kv.display()), "-c", &ctx, "--a", "1", "--b", "2"]);
    assert_eq!(code, Some(5), "{err}");
    // Which case it is (issue 20.6): between sync attempts, syncing, failed.
    assert!(err.contains("has no state on this node yet") && err.contains("nothing ran"), "{err}");
    // Node 1 runs the same call.
    let (code, out, err) = run(c.node(1), &["call", &format!("{}.add", kv.display()), "-c", &ctx, "--a", "1", "--b", "2"]);
    assert_eq!((code, out.trim()), (Some(0), "3"), "{err}");
}
}

on_each_version! {
fn watch_on_an_uninitialized_context_says_so(v) {
    let Some((c, ctx)) = never_initialized("watch_on_an_uninitialized_context_says_so", v) else {
        return;
    };
    let kv = support::realnode::shared_kv_app();
    let w = Watch::start(c.node(2), &[&kv.display().to_string(), "-c", &ctx, "--stop-after", "1"]);
    let (_, _, err) = w.finish();
    assert!(err.contains("uninitialized") || err.contains("no state"), "{err}");
}
}

/// rc25: node 2 joins the namespace, node 1 stops, node 2 joins the context:
/// the context is there, its state is not and cannot arrive (no peer has it),
/// and the app's code may or may not have come with the namespace join. rc4
/// cannot be brought there: its namespace join fetches the namespace's
/// contexts with their state from a peer inside the join call ("could not
/// open a namespace-join stream to any mesh peer" without one).
#[test]
fn rc25_a_context_joined_while_its_only_peer_is_down_is_reported_as_uninitialized() {
    let test = "rc25_a_context_joined_while_its_only_peer_is_down_is_reported_as_uninitialized";
    let Some(mut c) = Cluster::start(test, Version::Rc25, 2, &test_app("events"), EVENTS) else {
        return;
    };
    let node1 = c.node(1);
    let wasm = support::realnode::test_app_variant("events", "stranded");
    let app = node1.install(&wasm, "com.example.stranded", "0.1.0");
    let (ns, ctx) = node1.create_namespace_context(&app);
    let inv = node1.admin(
        "POST",
        &format!("/admin-api/namespaces/{ns}/invite"),
        Some(&json!({})),
    );
    let body = json!({"invitation": inv["data"]["invitation"]});
    c.node(2).admin(
        "POST",
        &format!("/admin-api/namespaces/{ns}/join"),
        Some(&body),
    );
    c.node_mut(1).kill();
    c.node(2).admin(
        "POST",
        &format!("/admin-api/contexts/{ctx}/join"),
        Some(&json!({})),
    );
    assert_eq!(
        c.node(2).context_root(&ctx),
        ZERO_ROOT,
        "node 2 cannot have synced"
    );
    // With the app's own file the call reaches the node, which has no state for it.
    let (code, _, err) = run(
        c.node(2),
        &[
            "call",
            &format!("{}.insert", wasm.display()),
            "-c",
            &ctx,
            "--key",
            "k",
            "--n",
            "1",
        ],
    );
    assert_eq!(code, Some(5), "{err}");
    assert!(err.contains("has no state on this node yet"), "{err}");
    // Its only peer is down: said so, with a hint that fits.
    assert!(
        err.contains("connected to no peers") || err.contains("sync"),
        "{err}"
    );
    // By the node's name for the app: callable once its code is there; until
    // then, said to be arriving (not an old SDK).
    let (code, _, err) = run(
        c.node(2),
        &[
            "call",
            &format!("{app}.insert"),
            "-c",
            &ctx,
            "--key",
            "k",
            "--n",
            "1",
        ],
    );
    if err.contains("has not arrived") {
        assert!(!err.contains("SDK"), "{err}");
    } else {
        assert_eq!(code, Some(5), "{err}");
        assert!(err.contains("has no state on this node yet"), "{err}");
    }
}
