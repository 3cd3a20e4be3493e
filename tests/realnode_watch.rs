//! `calimcp watch` against a real Calimero node (issue 9): the project's own
//! events app (testapps/events) emits events the way the SDK does, the real
//! node delivers them over SSE, and calimcp decodes and checks them.

mod support;

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use support::realnode::{
    Options, PASSWORD, RealNode, USER, Version, Watch, on_each_version, test_app,
};

const APP: &str = "com.example.events";

fn call(node: &RealNode, method: &str, args: &[&str]) {
    let out = node
        .calimcp()
        .args(["call", &format!("{APP}.{method}"), "-c", "evmain"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "call {method}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A node with the events app installed, a context aliased `evmain`, and
/// (with embedded auth) a user `watcher` logged in.
fn events_node(test: &str, opts: Options) -> Option<(RealNode, String)> {
    let auth = opts.embedded_auth;
    let mut node = RealNode::start_with(test, opts)?;
    if auth {
        let _ = node.login_user();
    }
    let wasm = test_app("events");
    let (_, ctx) = node.setup(Path::new(&wasm), APP, Some("evmain"));
    Some((node, ctx))
}

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

on_each_version! {
fn events_arrive_decoded_and_checked_against_the_abi(v) {
    let Some((node, ctx)) = events_node(
        "events_arrive_decoded_and_checked_against_the_abi",
        Options::on(v),
    ) else {
        return;
    };
    let w = Watch::start(
        &node,
        &[APP, "--json", "--count", "4", "--stop-after", "120"],
    );
    call(
        &node,
        "insert",
        &["--key", "a", "--n", "18446744073709551615"],
    );
    call(&node, "clear", &[]);
    call(&node, "bad", &[]);
    call(&node, "mystery", &[]);
    let (code, out, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4, "{out}");
    for l in &lines {
        assert_eq!(l["context"], ctx.as_str(), "{l}");
        assert!(l["time"].as_str().unwrap().ends_with('Z'), "{l}");
    }
    // The exact u64 survives, and the payload matches the ABI's Entry.
    assert_eq!(lines[0]["event"], "Inserted");
    assert_eq!(
        lines[0]["payload"],
        serde_json::json!({"key": "a", "n": u64::MAX})
    );
    assert_eq!(lines[0]["valid"], true);
    // The SDK writes `null` for a payload-less variant.
    assert_eq!(lines[1]["event"], "Cleared");
    assert_eq!(lines[1]["payload"], Value::Null);
    assert_eq!(lines[1]["valid"], true);
    // A payload the ABI forbids, and an event it does not declare: shown, marked, warned once.
    assert_eq!(lines[2]["event"], "Inserted");
    assert_eq!(lines[2]["valid"], false);
    assert!(
        lines[2]["problem"].as_str().unwrap().contains("/key"),
        "{}",
        lines[2]
    );
    assert_eq!(lines[3]["event"], "Mystery");
    assert_eq!(lines[3]["valid"], false);
    assert_eq!(lines[3]["payload"]["what"], "undeclared");
    assert_eq!(err.matches("warning: event `Inserted`").count(), 1, "{err}");
    assert_eq!(err.matches("warning: event `Mystery`").count(), 1, "{err}");
}
}

on_each_version! {
fn until_filters_exec_and_timeout_are_what_a_ci_script_needs(v) {
    let Some((node, ctx)) = events_node(
        "until_filters_exec_and_timeout_are_what_a_ci_script_needs",
        Options::on(v),
    ) else {
        return;
    };
    let log = node.state.path().join("exec.log");
    let exec = format!(
        "sh -c 'printf \"%s %s %s \" \"$CALIMCP_EVENT\" \"$CALIMCP_APP\" \"$CALIMCP_CONTEXT\" >> \"$0\"; cat >> \"$0\"' '{}'",
        log.display()
    );
    // Text output; only Cleared is wanted (a glob), and it ends the watch.
    let w = Watch::start(
        &node,
        &[
            APP,
            "-c",
            "evmain",
            "--event",
            "Clear*",
            "--until",
            "Cleared",
            "--exec",
            &exec,
            "--stop-after",
            "120",
        ],
    );
    call(&node, "insert", &["--key", "k", "--n", "1"]);
    call(&node, "clear", &[]);
    let (code, out, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let short: String = ctx.chars().take(8).collect();
    assert!(
        lines[0].ends_with(&format!(" {short} Cleared")),
        "{}",
        lines[0]
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.starts_with(&format!("Cleared {APP} {ctx} {{")),
        "{logged}"
    );
    assert!(logged.contains(r#""event":"Cleared""#), "{logged}");

    // Nothing matching comes: the documented exit code, and why.
    let w = Watch::start(&node, &[APP, "--until", "Never", "--stop-after", "0.5"]);
    call(&node, "insert", &["--key", "k", "--n", "2"]);
    let (code, out, err) = w.finish();
    assert_eq!(code, 124, "{err}");
    assert!(out.contains("Inserted"), "{out}");
    assert!(
        err.contains("no `Never` event arrived within 0.5 s"),
        "{err}"
    );
}
}

on_each_version! {
fn all_shows_the_nodes_own_events_in_the_same_shape(v) {
    let Some((node, ctx)) = events_node(
        "all_shows_the_nodes_own_events_in_the_same_shape",
        Options::on(v),
    ) else {
        return;
    };
    let w = Watch::start(
        &node,
        &[
            APP,
            "--all",
            "--json",
            "--event",
            "StateMutation",
            "--count",
            "1",
            "--stop-after",
            "120",
        ],
    );
    call(&node, "touch", &[]);
    let (code, out, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{out}");
    assert_eq!(lines[0]["event"], "StateMutation");
    assert_eq!(lines[0]["context"], ctx.as_str());
    assert_eq!(lines[0]["valid"], Value::Null);
    assert!(lines[0]["payload"]["newRoot"].is_string(), "{}", lines[0]);
}
}

on_each_version! {
fn watch_logs_in_and_finds_the_stream_at_the_root_under_a_path_prefix(v) {
    let Some((node, _ctx)) = events_node(
        "watch_logs_in_and_finds_the_stream_at_the_root_under_a_path_prefix",
        Options {
 version: v,
            embedded_auth: true,
            path_prefix: Some("/node".into()),
            ..Options::default()
        },
    ) else {
        return;
    };
    let mut cmd = node.calimcp_std();
    cmd.env("CALIMERO_USERNAME", USER)
        .env("CALIMERO_PASSWORD", PASSWORD);
    let w = Watch::spawn(cmd, &[APP, "--json", "--count", "1", "--stop-after", "120"]);
    let out = node
        .calimcp()
        .env("CALIMERO_USERNAME", USER)
        .env("CALIMERO_PASSWORD", PASSWORD)
        .args([
            "call",
            &format!("{APP}.insert"),
            "-c",
            "evmain",
            "--key",
            "z",
            "--n",
            "9",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (code, out, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["payload"]["key"], "z");
    assert!(!err.contains(PASSWORD), "{err}");
}
}

on_each_version! {
fn call_wait_event_subscribes_first_and_prints_result_and_event(v) {
    let Some((node, ctx)) = events_node(
        "call_wait_event_subscribes_first_and_prints_result_and_event",
        Options::on(v),
    ) else {
        return;
    };
    let out = node
        .calimcp()
        .args([
            "call",
            &format!("{APP}.insert"),
            "-c",
            "evmain",
            "--key",
            "w",
            "--n",
            "3",
            "--wait-event",
            "Inserted",
            "--wait-timeout",
            "120",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"], Value::Null);
    assert_eq!(v["event"]["event"], "Inserted");
    assert_eq!(v["event"]["context"], ctx.as_str());
    assert_eq!(
        v["event"]["payload"],
        serde_json::json!({"key": "w", "n": 3})
    );
    assert_eq!(v["event"]["valid"], true);

    // An event that never comes: the result is still printed, then exit 124.
    let out = node
        .calimcp()
        .args([
            "call",
            &format!("{APP}.clear"),
            "-c",
            "evmain",
            "--wait-event",
            "Inserted",
            "--wait-timeout",
            "0.5",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(124), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "null");
    assert!(
        err.contains("the call succeeded, but no `Inserted` event arrived within 0.5 s"),
        "{err}"
    );
}
}

on_each_version! {
async fn agents_wait_for_events_over_mcp(v) {
    let Some((node, ctx)) = events_node("agents_wait_for_events_over_mcp", Options::on(v))
    else {
        return;
    };
    let client = support::serve::stdio_client(&["--node", &node.url]).await;
    let tools = client.peer().list_all_tools().await.unwrap();
    let tool = tools
        .iter()
        .find(|t| t.name == "wait_for_events")
        .expect("wait_for_events is listed");
    assert!(tool.output_schema.is_some());
    assert_eq!(
        tool.annotations.as_ref().and_then(|a| a.read_only_hint),
        Some(true)
    );

    // Wait first, then cause events until the wait returns (no sleeping: each
    // call is a round trip, and the wait subscribes before it reads).
    let peer = client.peer().clone();
    let waiting = tokio::spawn(async move {
        let args = serde_json::json!({"app": APP, "context": "evmain", "events": ["Ins*"], "max": 1, "timeout": 60});
        let args = args.as_object().cloned().unwrap();
        peer.call_tool(
            rmcp::model::CallToolRequestParams::new("wait_for_events").with_arguments(args),
        )
        .await
    });
    let mut calls = 0;
    while !waiting.is_finished() && calls < 500 {
        calls += 1;
        let n = calls.to_string();
        let node_url = node.url.clone();
        let state = node.state.path().to_path_buf();
        let out = tokio::task::spawn_blocking(move || {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("calimcp"))
                .env("CALIMERO_NODE_URL", node_url)
                .env("CALIMCP_STATE_DIR", state)
                .env_remove("CALIMCP_APPS")
                .args([
                    "call",
                    &format!("{APP}.insert"),
                    "-c",
                    "evmain",
                    "--key",
                    "m",
                    "--n",
                    &n,
                ])
                .output()
                .unwrap()
        })
        .await
        .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let r = waiting.await.unwrap().unwrap();
    assert_ne!(r.is_error, Some(true), "{}", support::serve::text(&r));
    let v = r.structured_content.expect("structuredContent");
    assert_eq!(v["timedOut"], false, "{v}");
    assert_eq!(v["context"], ctx.as_str());
    let e = &v["events"][0];
    assert_eq!(e["event"], "Inserted", "{v}");
    assert_eq!(e["payload"]["key"], "m");
    assert_eq!(e["valid"], true);

    // Nothing matching within the bound: an empty list, timedOut.
    let r = support::serve::call(
        &client,
        "wait_for_events",
        serde_json::json!({"app": APP, "context": "evmain", "events": ["Never"], "timeout": 0.2}),
    )
    .await
    .unwrap();
    let v = r.structured_content.expect("structuredContent");
    assert_eq!(v["timedOut"], true);
    assert_eq!(v["events"], serde_json::json!([]));

    // Bad arguments are an isError result naming each.
    let r = support::serve::call(
        &client,
        "wait_for_events",
        serde_json::json!({"app": APP, "timeout": 600}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(
        support::serve::text(&r).contains("timeout: 600 is greater than the maximum of 60"),
        "{}",
        support::serve::text(&r)
    );
    client.cancel().await.unwrap();
}
}

on_each_version! {
fn watch_reconnects_when_the_node_restarts_and_says_so(v) {
    let Some((mut node, _ctx)) = events_node(
        "watch_reconnects_when_the_node_restarts_and_says_so",
        Options::on(v),
    ) else {
        return;
    };
    let mut w = Watch::start(
        &node,
        &[APP, "--json", "--count", "2", "--stop-after", "120"],
    );
    call(&node, "insert", &["--key", "before", "--n", "1"]);
    node.restart();
    // The watch reopens the stream (the node kept the SSE session) and warns.
    loop {
        let line = w
            .stderr
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no reconnection notice; stderr: {:?}", w.seen));
        let done = line.contains("opened again");
        w.seen.push(line);
        if done {
            break;
        }
    }
    call(&node, "insert", &["--key", "after", "--n", "2"]);
    let (code, out, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0]["payload"]["key"], "before");
    assert_eq!(lines[1]["payload"]["key"], "after");
    assert!(
        err.contains("events the node produced in between are lost"),
        "{err}"
    );
}
}

on_each_version! {
/// A node down for longer than the old 15 s of tries (issue 20.2): the watch
/// waits it out, says how long the stream was down, and events after it come.
fn watch_waits_out_a_restart_longer_than_15_s(v) {
    let Some((mut node, _ctx)) = events_node(
        "watch_waits_out_a_restart_longer_than_15_s",
        Options::on(v),
    ) else {
        return;
    };
    let mut w = Watch::start(
        &node,
        &[APP, "--json", "--count", "2", "--stop-after", "240"],
    );
    call(&node, "insert", &["--key", "before", "--n", "1"]);
    // Down for 20 s (the node's own downtime, not a timing guess).
    node.kill();
    std::thread::sleep(Duration::from_secs(20));
    node.restart();
    loop {
        let line = w
            .stderr
            .recv_timeout(Duration::from_secs(90))
            .unwrap_or_else(|_| panic!("no reconnection notice; stderr: {:?}", w.seen));
        let done = line.contains("opened again after");
        w.seen.push(line);
        if done {
            break;
        }
    }
    let notice = w.seen.last().unwrap().clone();
    assert!(
        !notice.contains("after 0."),
        "down for 20 s at least: {notice}"
    );
    call(&node, "insert", &["--key", "after", "--n", "2"]);
    let (code, out, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[1]["payload"]["key"], "after");
}
}

/// Issue 20.3 on the real rc.25 node: a caller that may not observe the
/// context. rc.25 `sse/handlers.rs` drops from a subscription the contexts
/// the caller is not a member of (`ws/subscribe.rs` `may_observe_context`);
/// only a token whose root key carries an Ed25519 public key is such a
/// caller (`auth.rs`: a username/password key or a client key is the node
/// owner, who may observe everything). An admin makes one with `POST
/// /admin/keys` (user_password with a public key of its own). Its watch is
/// exit 3 `not_subscribed` before "watching"; the owner's starts.
#[test]
fn a_context_the_node_leaves_out_of_the_subscription_is_not_subscribed_rc25() {
    let opts = Options {
        version: Version::Rc25,
        embedded_auth: true,
        ..Options::default()
    };
    let Some((node, ctx)) = events_node("not_subscribed_rc25", opts) else {
        return;
    };
    // Not a member of any context: a public key nobody joined with.
    let stranger = bs58::encode([0x42u8; 32]).into_string();
    node.admin(
        "POST",
        "/admin/keys",
        Some(&json!({
            "public_key": stranger, "auth_method": "user_password",
            "provider_data": {"username": "observer", "password": "observer-password"}
        })),
    );
    let out = node
        .calimcp()
        .env("CALIMERO_USERNAME", "observer")
        .env("CALIMERO_PASSWORD", "observer-password")
        .args(["watch", APP, "-c", &ctx, "--json", "--count", "1"])
        .args(["--stop-after", "60"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(3), "{err}");
    let line: Value = serde_json::from_str(err.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(line["error"]["code"], "not_subscribed", "{err}");
    let message = line["error"]["message"].as_str().unwrap();
    assert!(message.contains(&ctx), "{message}");
    // How to fix it is the hint, a field of its own (issue 31).
    let hint = line["error"]["hint"].as_str().unwrap_or_default();
    assert!(hint.contains("not a member"), "{err}");
    assert!(!err.contains("watching"), "{err}");
    // The node owner's watch of the same context is subscribed.
    let mut cmd = node.calimcp_std();
    cmd.env("CALIMERO_USERNAME", USER)
        .env("CALIMERO_PASSWORD", PASSWORD);
    let w = Watch::spawn(
        cmd,
        &[
            APP,
            "-c",
            &ctx,
            "--json",
            "--count",
            "1",
            "--stop-after",
            "120",
        ],
    );
    let out = node
        .calimcp()
        .env("CALIMERO_USERNAME", USER)
        .env("CALIMERO_PASSWORD", PASSWORD)
        .args([
            "call",
            &format!("{APP}.insert"),
            "-c",
            &ctx,
            "--key",
            "k",
            "--n",
            "1",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (code, out, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_lines(&out)[0]["payload"]["key"], "k", "{out}");
}

/// Group events on a real rc.25 (issue 48): `watch --group NAMESPACE` on the
/// two members of a namespace, then a third node joins it (node 1 invites).
/// A member's node gets `MemberJoined` keyed by the namespace's group id
/// (research note §9: the inviting node may not), which `watch` prints with
/// `group` set and the node's payload (`memberAccount`, `role`).
#[test]
fn rc25_group_membership_events_are_watched() {
    use support::realnode::Cluster;
    let test = "rc25_group_membership_events_are_watched";
    let Some(c) = Cluster::start(test, Version::Rc25, 2, &test_app("events"), APP) else {
        return;
    };
    let ns = c.namespace.clone();
    let args = [
        "--group",
        ns.as_str(),
        "--json",
        "--until",
        "MemberJoined",
        "--stop-after",
        "90",
    ];
    let w1 = Watch::start(c.node(1), &args);
    let w2 = Watch::start(c.node(2), &args);
    // A third node, booting from node 1, joins the namespace.
    let Some(third) = RealNode::start_booting(
        test,
        Options::on(Version::Rc25),
        vec![c.node(1).peer_addr()],
    ) else {
        return;
    };
    let inv = c.node(1).admin(
        "POST",
        &format!("/admin-api/namespaces/{ns}/invite"),
        Some(&json!({})),
    );
    let body = json!({ "invitation": inv["data"]["invitation"].clone() });
    let path = format!("/admin-api/namespaces/{ns}/join");
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        let (status, text) = third.try_admin("POST", &path, Some(&body));
        if (200..300).contains(&status) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline && text.contains("mesh peer"),
            "{path}: HTTP {status}: {text}"
        );
        std::thread::sleep(Duration::from_secs(1));
    }
    let outcomes = [w1.finish(), w2.finish()];
    let joined: Vec<Value> = outcomes
        .iter()
        .flat_map(|(_, out, _)| out.lines())
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["event"] == "MemberJoined")
        .collect();
    assert!(
        !joined.is_empty(),
        "no MemberJoined on either member: {outcomes:?}"
    );
    for l in &joined {
        assert_eq!(l["group"], ns.as_str(), "{l}");
        assert_eq!(l["context"], "", "{l}");
        assert!(l["payload"]["memberAccount"].is_string(), "{l}");
        support::json_schema::assert_valid("watch", l);
    }
    // The watch that saw it stopped there (exit 0).
    assert!(
        outcomes.iter().any(|(code, _, _)| *code == 0),
        "{outcomes:?}"
    );
}

/// rc.4's subscription has no `groupIds` (it ignores the key): a group
/// watch is refused before anything is read, naming the version.
#[test]
fn rc4_refuses_a_group_watch() {
    let Some(node) = RealNode::start_on(Version::Rc4, "rc4_refuses_a_group_watch") else {
        return;
    };
    let out = node
        .calimcp()
        .args([
            "watch",
            "--group",
            &"ab".repeat(32),
            "--json",
            "--stop-after",
            "30",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("group_events_unsupported") && err.contains("0.11.0-rc.18"),
        "{err}"
    );
}
