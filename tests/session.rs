//! The session layer on the fake node (issue 18): a context is used only with
//! its own app, by every entry point of both faces, and nothing is sent
//! otherwise; `contexts` and `describe_app` list an app's contexts with their
//! aliases; the CLI's on rc.4, rc.25 and rc.83 ([`VERSIONS`]). (Real
//! nodes: tests/realnode_session.rs.)

mod support;

use serde_json::{Value, json};
use support::calimcp;
use support::fake_node::{self, FakeNode, Profile, id};

/// The versions the CLI's context tests run on: rc.4 and rc.25 (real
/// nodes) and rc.83 (its recorded wire: hex ids only).
const VERSIONS: [Profile; 3] = [Profile::Rc4, Profile::Rc25, Profile::Rc83];

fn cmd(node: &FakeNode, home: &std::path::Path) -> assert_cmd::Command {
    let mut c = calimcp(home);
    c.env("CALIMERO_NODE_URL", &node.url);
    c
}

fn refused(node: &FakeNode, home: &std::path::Path, args: &[&str]) -> String {
    let out = cmd(node, home).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    err
}

#[test]
fn a_context_of_another_app_is_refused_by_every_cli_entry_point() {
    support::side_by_side(&VERSIONS, |p| {
        let node = FakeNode::with_profile(p);
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        // `pages-main` is an alias of a context of com.example.notebook.
        let err = refused(
            &node,
            h,
            &["call", "kv_store_get", "--key", "a", "-c", "pages-main"],
        );
        assert!(
        err.contains(
            "context pages-main runs com.example.notebook 0.3.0, not com.calimero.kv-store: nothing was sent"
        ),
        "{err}"
    );
        // The tool's app's own contexts are listed with their aliases.
        assert!(
            err.contains(&format!(
                "{} (alias prod, name main)",
                node.id(fake_node::CTX_KV)
            )),
            "{err}"
        );
        let args = json!({"key": "a", "_context": "pages-main"}).to_string();
        refused(&node, h, &["call", "kv-store.get", "--args", &args]);
        // By id, in the other id form, and pinned.
        let hex = node.other_id(fake_node::CTX_PAGES_1);
        refused(
            &node,
            h,
            &["call", "kv_store_get", "--key", "a", "-c", &hex],
        );
        refused(&node, h, &["use", "kv-store", "-c", "pages-main"]);
        refused(&node, h, &["watch", "kv-store", "-c", "pages-main"]);
        // --json: the stable code.
        let out = cmd(&node, h)
            .args([
                "call",
                "kv_store_get",
                "--key",
                "a",
                "-c",
                "pages-main",
                "--json",
            ])
            .output()
            .unwrap();
        let line: Value = serde_json::from_slice(&out.stderr).unwrap();
        assert_eq!(line["error"]["code"], "foreign_context", "{line}");
        assert!(
            node.executes().is_empty(),
            "nothing reached the node's jsonrpc"
        );
        // The app's own context runs.
        cmd(&node, h)
            .args(["call", "kv_store_get", "--key", "a", "-c", "prod"])
            .assert()
            .success();
        assert_eq!(node.executes().len(), 1);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_context_of_another_app_is_an_error_result_for_agents() {
    let node = FakeNode::start();
    let client = support::serve::stdio_client(&["--node", &node.url]).await;
    let r = support::serve::call(
        &client,
        "kv_store_get",
        json!({"key": "a", "_context": "pages-main"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    let text = support::serve::text(&r);
    assert!(text.contains("runs com.example.notebook"), "{text}");
    assert!(
        text.contains("_context"),
        "the hint speaks of `_context`: {text}"
    );
    let r = support::serve::call(
        &client,
        "select_app",
        json!({"app": "kv-store", "context": "pages-main"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true), "{}", support::serve::text(&r));
    let r = support::serve::call(
        &client,
        "wait_for_events",
        json!({"app": "kv-store", "context": "pages-main", "timeout": 1}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true), "{}", support::serve::text(&r));
    assert!(node.executes().is_empty());
    // describe_app lists the app's contexts with their aliases.
    let r = support::serve::call(&client, "describe_app", json!({"app": "kv-store"}))
        .await
        .unwrap();
    let v: Value = serde_json::from_str(&support::serve::text(&r)).unwrap();
    let contexts = v["contexts"].as_array().expect("contexts");
    assert_eq!(contexts.len(), 1, "{v}");
    assert_eq!(contexts[0]["id"], id(fake_node::CTX_KV));
    assert_eq!(contexts[0]["aliases"], json!(["prod"]));
    client.cancel().await.unwrap();
}

#[test]
fn contexts_lists_each_context_with_its_aliases_version_and_state() {
    support::side_by_side(&VERSIONS, |p| {
        let node = FakeNode::with_profile(p);
        let home = tempfile::tempdir().unwrap();
        let out = cmd(&node, home.path())
            .args(["contexts", "notebook", "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
        let rows = rows.as_array().unwrap();
        assert_eq!(rows.len(), 3, "{rows:?}");
        let main = rows
            .iter()
            .find(|r| r["id"] == node.id(fake_node::CTX_PAGES_1))
            .expect("pages-main");
        assert_eq!(main["aliases"], json!(["pages-main"]));
        assert_eq!(main["service"], "pages");
        assert_eq!(main["app"], "com.example.notebook");
        assert_eq!(main["initialized"], true);
        // Every app's, as a table.
        let out = cmd(&node, home.path()).args(["contexts"]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success());
        assert!(text.starts_with("CONTEXT"), "{text}");
        assert!(
            text.contains(&node.id(fake_node::CTX_KV)) && text.contains("prod"),
            "{text}"
        );
        // Offline there are none to list.
        cmd(&node, home.path())
            .args(["contexts", "--offline"])
            .assert()
            .code(2);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_call_says_whether_to_retry() {
    let node = FakeNode::start();
    let client = support::serve::stdio_client(&["--node", &node.url]).await;
    let ctx = id(fake_node::CTX_KV);
    node.fail_next_execute(json!({"type": "GroupKeyPending", "data": {"context_id": ctx}}));
    let r = support::serve::call(&client, "kv_store_set", json!({"key": "a", "value": "1"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    let text = support::serve::text(&r);
    assert!(text.ends_with("retryable: true"), "{text}");
    // An app's own error is final.
    let r = support::serve::call(
        &client,
        "kv_store_get",
        json!({"key": "a", "_context": "nope"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(
        support::serve::text(&r).ends_with("retryable: false"),
        "{}",
        support::serve::text(&r)
    );
    client.cancel().await.unwrap();
}

/// Issue 22.1: `describe --json` of a node app carries its contexts (each
/// service its own), as `contexts --json` lists them.
#[test]
fn describe_json_of_a_node_app_lists_its_contexts() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let out = cmd(&node, home.path())
        .args(["describe", "kv-store", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["contexts"].as_array().expect("a contexts array");
    assert_eq!(rows.len(), 1, "{v}");
    assert_eq!(rows[0]["id"], id(fake_node::CTX_KV));
    assert_eq!(rows[0]["aliases"], json!(["prod"]));
    assert_eq!(rows[0]["initialized"], true);
    assert!(rows[0]["version"].is_string(), "{v}");
    // A multi-service app: each service lists its own contexts.
    let out = cmd(&node, home.path())
        .args(["describe", "notebook", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let per_service: Vec<(String, usize)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["service"].as_str().unwrap_or_default().to_string(),
                s["contexts"].as_array().map_or(0, Vec::len),
            )
        })
        .collect();
    assert!(
        per_service.contains(&("pages".into(), 2)),
        "{per_service:?}"
    );
    assert!(
        per_service.contains(&("registry".into(), 1)),
        "{per_service:?}"
    );
    // A local app (no node app): no contexts field.
    let out = cmd(&node, home.path())
        .args(["describe", "examples/kv-store", "--json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.get("contexts").is_none(), "{v}");
}

/// Issue 22.1: `use APP` without a pin says which case the app is in on the
/// node: its only context, or several (listed with their aliases).
#[test]
fn use_without_a_pin_lists_the_apps_contexts() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let out = cmd(&node, home.path())
        .args(["use", "kv-store"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("calls use the app's only context there"),
        "{text}"
    );
    assert!(
        text.contains(&format!("{} (alias prod", id(fake_node::CTX_KV))),
        "{text}"
    );
    let out = cmd(&node, home.path())
        .args(["use", "notebook", "--service", "pages"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("only context"), "{text}");
    assert!(text.contains("the app has 2 contexts there"), "{text}");
    assert!(text.contains("calls need --context"), "{text}");
    assert!(
        text.contains(&format!("{} (alias pages-main", id(fake_node::CTX_PAGES_1)))
            && text.contains(&id(fake_node::CTX_PAGES_2)),
        "{text}"
    );
    // --json carries the same rows.
    let out = cmd(&node, home.path())
        .args(["use", "notebook", "--service", "pages", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["context"], Value::Null);
    assert_eq!(v["contexts"].as_array().map(Vec::len), Some(2), "{v}");
}

/// Issue 22.1: the ambiguity error's `--json` form carries the contexts as
/// data, not only inside the message.
#[test]
fn the_ambiguity_error_carries_the_contexts_as_data() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let out = cmd(&node, home.path())
        .args(["call", "notebook_pages_words", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let line: Value = serde_json::from_slice(&out.stderr)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(line["error"]["code"], "ambiguous_context");
    let rows = line["error"]["contexts"].as_array().expect("contexts");
    let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 2, "{line}");
    assert!(ids.contains(&id(fake_node::CTX_PAGES_1).as_str()), "{line}");
    assert!(ids.contains(&id(fake_node::CTX_PAGES_2).as_str()), "{line}");
    let main = rows
        .iter()
        .find(|r| r["id"] == id(fake_node::CTX_PAGES_1))
        .unwrap();
    assert_eq!(main["aliases"], json!(["pages-main"]));
    assert_eq!(main["service"], "pages");
    assert_eq!(node.executes().len(), 0, "nothing was sent");
}

/// `unknown_context` and `foreign_context` carry the app's contexts as data
/// too (rows as `calimcp contexts --json` prints them), not only inside the
/// message, as `ambiguous_context` does.
#[test]
fn unknown_and_foreign_context_errors_carry_the_contexts_as_data() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let out = cmd(&node, h)
        .args(["contexts", "kv-store", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    let nowhere = fake_node::hex_id(99);
    for (ctx, code) in [
        ("pages-main", "foreign_context"),
        ("no-such-alias", "unknown_context"),
        (nowhere.as_str(), "unknown_context"),
    ] {
        let out = cmd(&node, h)
            .args(["call", "kv_store_get", "--key", "a", "-c", ctx, "--json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{ctx}");
        let line: Value = serde_json::from_slice(&out.stderr)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
        assert_eq!(line["error"]["code"], code, "{line}");
        assert_eq!(line["error"]["contexts"], listed, "{ctx}: {line}");
    }
    assert!(node.executes().is_empty(), "nothing was sent");
}

/// MCP: a `_context` error names the context as the agent gave it (here
/// 64 hex), not in the node's own form (base58), as the CLI does for `-c`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_context_error_names_the_context_as_the_agent_gave_it() {
    let node = FakeNode::start();
    let client = support::serve::stdio_client(&["--node", &node.url]).await;
    let hex = fake_node::hex_id(fake_node::CTX_FAULTS);
    let b58 = id(fake_node::CTX_FAULTS);
    let r = support::serve::call(&client, "faults_uninit", json!({"_context": hex}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    let text = support::serve::text(&r);
    assert!(text.contains("has no state on this node yet"), "{text}");
    assert!(text.contains(&hex) && !text.contains(&b58), "{text}");
    // A context of another app, and select_app, alike.
    let pages = fake_node::hex_id(fake_node::CTX_PAGES_1);
    for (tool, args) in [
        ("kv_store_get", json!({"key": "a", "_context": pages})),
        ("select_app", json!({"app": "kv-store", "context": pages})),
    ] {
        let r = support::serve::call(&client, tool, args).await.unwrap();
        assert_eq!(r.is_error, Some(true), "{tool}");
        let text = support::serve::text(&r);
        assert!(
            text.contains(&pages) && !text.contains(&id(fake_node::CTX_PAGES_1)),
            "{tool}: {text}"
        );
    }
    client.cancel().await.unwrap();
}

/// How many times the node was asked for each listing (applications,
/// an application's contexts, the context aliases), by path.
fn listings(node: &FakeNode) -> std::collections::BTreeMap<String, usize> {
    let mut n = std::collections::BTreeMap::new();
    for r in node.requests() {
        let listing = r.path == "/admin-api/applications"
            || r.path.starts_with("/admin-api/contexts/for-application/")
            || r.path == "/admin-api/alias/list/context";
        if r.method == "GET" && listing {
            *n.entry(r.path).or_insert(0) += 1;
        }
    }
    n
}

/// One command reads each listing once: a refused context (its app's row,
/// the app's contexts, their aliases) and a call in the app's own context,
/// with the node's app and with a local one. Requests per command on the
/// fake node (fresh state each), before → after the client kept its
/// listings: refused 18 → 15, refused with a local app 11 → 5, in the
/// app's own context 14 → 14 and 4 → 4. Since the docs come from the
/// modules (the ABI route drops them), a cold cache adds one blob read per
/// node app whose module documents it (9 here): 15 → 24 and 14 → 23.
#[test]
fn one_command_reads_each_listing_once() {
    let node = FakeNode::start();
    let apps = tempfile::tempdir().unwrap();
    let bundle = apps.path().join("kv");
    std::fs::create_dir(&bundle).unwrap();
    std::fs::copy("tests/support/abi/kv-store.json", bundle.join("abi.json")).unwrap();
    std::fs::write(
        bundle.join("manifest.json"),
        r#"{"package":"com.calimero.kv-store","abi":{"path":"abi.json"}}"#,
    )
    .unwrap();
    let dir = apps.path().to_str().unwrap();
    let get = ["call", "kv_store_get", "--key", "a", "-c"];
    let cases: [(&[&str], &str, i32, usize); 4] = [
        (&[], "pages-main", 2, 24),
        (&["--apps", dir], "pages-main", 2, 5),
        (&[], "prod", 0, 23),
        (&["--apps", dir], "prod", 0, 4),
    ];
    for (before, context, code, requests) in cases {
        let home = tempfile::tempdir().unwrap();
        node.clear_requests();
        let out = cmd(&node, home.path())
            .args(before)
            .args(get)
            .arg(context)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{before:?} {context}: {err}");
        let n = listings(&node);
        assert!(n.values().all(|&k| k == 1), "{before:?} {context}: {n:?}");
        if code == 2 {
            assert!(err.contains("(alias prod, name main)"), "{err}");
            assert_eq!(n.len(), 3, "apps, the app's contexts, aliases: {n:?}");
        }
        assert_eq!(
            node.requests().len(),
            requests,
            "{before:?} {context}: {:?}",
            node.requests()
        );
    }
}
