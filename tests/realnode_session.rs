//! The session layer on real nodes (issue 18), each scenario on rc.4 and
//! rc.25: a context is used only with its own app (every entry point, nothing
//! executed), one app has one name on every node (a joined node with the
//! app's file at hand, names that do not move when another app arrives),
//! versions of one package are one app and each context is checked with the
//! ABI of the version it runs, and `serve` announces at once a context's move
//! to another version.

mod support;

use std::time::Duration;

use serde_json::{Value, json};
use support::realnode::{Cluster, RealNode, Watch, on_each_version, test_app, test_app_variant};

fn run(c: &mut assert_cmd::Command) -> (i32, String, String) {
    let out = c.output().expect("calimcp runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json_of(out: &str) -> Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// `events` (com.example.events) with its ABI edited: another module.
fn events_with_abi(tag: &str, edit: impl Fn(&mut Value)) -> std::path::PathBuf {
    support::realnode::test_app_with_abi("events", tag, edit)
}

on_each_version! {
    /// Two apps that share every method name (the same code built as two
    /// modules: two application ids). A context of one, named for a tool of
    /// the other in any way, is refused before anything is sent; the other
    /// app's events show that nothing ran there.
    fn a_context_of_another_app_is_refused_everywhere_and_nothing_runs(v) {
        let Some(node) = RealNode::start_on(v, "foreign_context") else { return };
        let a = node.install(&test_app("events"), "com.example.events", "0.1.0");
        let b = node.install(&test_app_variant("events", "second"), "com.example.other-events", "0.1.0");
        assert_ne!(a, b, "two modules, two application ids");
        let (ctx_a, _) = node.create_context(&a);
        let (ctx_b, _) = node.create_context(&b);
        // What arrives in A's context from now on.
        let mut watch = Watch::start(&node, &["events", "-c", &ctx_a, "--json", "--count", "1"]);
        let refused = |args: &[&str]| {
            let (code, _, err) = run(node.calimcp().args(args).arg("-v"));
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(err.contains("runs com.example.events"), "{args:?}: {err}");
            assert!(err.contains(&ctx_b) || err.contains("Contexts of com.example.other-events"), "{err}");
            assert!(!err.contains("/jsonrpc"), "{args:?} sent a call: {err}");
        };
        refused(&["call", "other_events_insert", "--key", "x", "--n", "1", "-c", &ctx_a]);
        let args = json!({"key": "x", "n": 1, "_context": ctx_a}).to_string();
        refused(&["call", "other-events.insert", "--args", &args]);
        refused(&["use", "other-events", "-c", &ctx_a]);
        refused(&["watch", "other-events", "-c", &ctx_a, "--count", "1"]);
        // The MCP face: `_context` and `select_app`.
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async {
            let client = support::serve::stdio_client(&["--node", &node.url]).await;
            let r = support::serve::call(&client, "other_events_insert", json!({"key": "x", "n": 1, "_context": ctx_a}))
                .await
                .unwrap();
            assert_eq!(r.is_error, Some(true));
            assert!(support::serve::text(&r).contains("runs com.example.events"), "{}", support::serve::text(&r));
            let r = support::serve::call(&client, "select_app", json!({"app": "other-events", "context": ctx_a}))
                .await
                .unwrap();
            assert_eq!(r.is_error, Some(true), "{}", support::serve::text(&r));
            // The right pairing runs.
            let r = support::serve::call(&client, "other_events_insert", json!({"key": "y", "n": 2, "_context": ctx_b}))
                .await
                .unwrap();
            assert_ne!(r.is_error, Some(true), "{}", support::serve::text(&r));
            client.cancel().await.unwrap();
        });
        // The first event in A's context is the one sent there on purpose.
        let (code, _, err) = run(node.calimcp().args(["call", "events_insert", "--key", "legit", "--n", "7", "-c", &ctx_a]));
        assert_eq!(code, 0, "{err}");
        let line = watch.next_line(Duration::from_secs(30)).expect("the legit event");
        assert!(line.contains("legit"), "something else ran in A's context first: {line}");
    }
}

on_each_version! {
    /// Two versions of one package, a context on each: one app with one set
    /// of names, and each call checked with the ABI of its context's version.
    fn versions_of_one_package_are_one_app_and_each_context_keeps_its_abi(v) {
        let Some(node) = RealNode::start_on(v, "versions") else { return };
        // 0.1.0 declares no `touch`; 0.2.0 (the app as built) does.
        let old = events_with_abi("v1", |abi| {
            abi["methods"].as_array_mut().unwrap().retain(|m| m["name"] != "touch");
        });
        let id1 = node.install(&old, "com.example.events", "0.1.0");
        let (ctx1, _) = node.create_context(&id1);
        let id2 = node.install(&test_app("events"), "com.example.events", "0.2.0");
        let (ctx2, _) = node.create_context(&id2);
        // One app, its versions as installs, named once.
        let (code, out, err) = run(node.calimcp().args(["apps", "--json"]));
        assert_eq!(code, 0, "{err}");
        let apps = json_of(&out);
        let events: Vec<&Value> = apps.as_array().unwrap().iter()
            .filter(|a| a["package"] == "com.example.events").collect();
        assert_eq!(events.len(), 1, "{apps}");
        assert_eq!(events[0]["version"], "0.2.0", "{apps}");
        let versions: Vec<&str> = events[0]["versions"].as_array().unwrap().iter()
            .map(|v| v["version"].as_str().unwrap()).collect();
        if id1 != id2 {
            assert_eq!(versions, ["0.2.0", "0.1.0"], "{apps}");
        }
        let (code, out, _) = run(node.calimcp().args(["tools", "--json"]));
        assert_eq!(code, 0);
        let tools = out.to_string();
        assert!(tools.contains("\"events_touch\"") && !tools.contains("events_2"), "{tools}");
        // Both contexts are the app's.
        let (code, out, err) = run(node.calimcp().args(["contexts", "events", "--json"]));
        if code == 0 {
            let listed = out.to_string();
            assert!(listed.contains(&ctx1) && listed.contains(&ctx2), "{listed}");
        } else {
            assert!(err.contains("unrecognized subcommand"), "{err}");
        }
        // `touch` is in 0.2.0's ABI only: refused in the 0.1.0 context, nothing sent.
        let (code, _, err) = run(node.calimcp().args(["call", "events_touch", "-c", &ctx1, "-v"]));
        if id1 != id2 {
            assert_eq!(code, 2, "{err}");
            assert!(err.contains("which has no method `touch`"), "{err}");
            assert!(!err.contains("/jsonrpc"), "{err}");
        }
        let (code, _, err) = run(node.calimcp().args(["call", "events_touch", "-c", &ctx2]));
        assert_eq!(code, 0, "{err}");
        // A method both versions have runs in both.
        for ctx in [&ctx1, &ctx2] {
            let (code, _, err) = run(node.calimcp().args(["call", "events_insert", "--key", "k", "--n", "1", "-c", ctx]));
            assert_eq!(code, 0, "{ctx}: {err}");
        }
    }
}

on_each_version! {
    /// Node 2 joined node 1's context: it has the app by blob share, without
    /// package or version. With the app's file at hand it has node 1's names
    /// (and lists the app once); the names stay when node 2 joins another app.
    fn a_joined_node_names_the_app_as_node_1_does(v) {
        let wasm = test_app("events");
        let Some(c) = Cluster::start("joined_names", v, 2, &wasm, "com.example.events") else { return };
        let tools = |i: usize, extra: &[&str]| -> Vec<String> {
            let mut cmd = c.node(i).calimcp();
            cmd.args(["tools", "--json"]).args(extra);
            let deadline = std::time::Instant::now() + Duration::from_secs(60);
            loop {
                let (code, out, err) = run(&mut cmd);
                if code == 0 {
                    let v = json_of(&out);
                    let names: Vec<String> = v.as_array().unwrap().iter()
                        .map(|t| t["name"].as_str().unwrap().to_string()).collect();
                    return names;
                }
                // Until the code has arrived from node 1: said so, not an old SDK.
                assert!(err.contains("has not arrived") || err.contains("no apps"), "{err}");
                assert!(std::time::Instant::now() < deadline, "node {i}: {err}");
                std::thread::sleep(Duration::from_millis(500));
            }
        };
        let on_1 = tools(1, &[]);
        assert!(on_1.contains(&"events_insert".to_string()), "{on_1:?}");
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(&wasm, dir.path().join("events.wasm")).unwrap();
        let apps = dir.path().to_str().unwrap();
        // The local file's package is its stem here: name it as node 1 does.
        let on_2 = tools(2, &["--apps", apps, "--package", "com.example.events"]);
        assert_eq!(on_1, on_2, "node 2 with the app's file names its tools as node 1");
        let (code, out, err) = run(c.node(2).calimcp().args(["apps", "--json", "--apps", apps, "--package", "com.example.events"]));
        assert_eq!(code, 0, "{err}");
        assert_eq!(json_of(&out).as_array().unwrap().len(), 1, "listed once: {out}");
        // Without the file node 2 names the app after its id, and the name
        // does not move when node 2 joins another app.
        let before = tools(2, &[]);
        // A short prefix of the app's id, then the method (never a hash in its place).
        let prefix = calimcp_core::mapping::names::id_prefix(&c.app, 6);
        assert!(before.contains(&format!("{prefix}_insert")), "{before:?}");
        assert!(before.iter().all(|n| n.starts_with(&format!("{prefix}_"))), "one prefix: {before:?}");
        let other = c.node(1).install(&test_app_variant("events", "another"), "com.example.another", "0.1.0");
        let (ns, ctx) = c.node(1).create_namespace_context(&other);
        c.join(1, 2, &ns, &ctx);
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let after = loop {
            let now = tools(2, &[]);
            if now.len() > before.len() || std::time::Instant::now() > deadline {
                break now;
            }
            std::thread::sleep(Duration::from_millis(500));
        };
        for name in &before {
            assert!(after.contains(name), "{name} moved: {before:?} → {after:?}");
        }
        // node 1's name on node 2: the tools with that method are suggested.
        let (code, _, err) = run(c.node(2).calimcp().args(["call", "events_insert", "--key", "a", "--n", "1"]));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("_insert"), "suggests the tools with that method: {err}");
    }
}

on_each_version! {
    /// A context moved to another version of its app (`POST
    /// /admin-api/contexts/:id/application`; both nodes then send
    /// `AppVersionChanged`): a running `serve` announces it at once (its
    /// `--refresh` is an hour away), and the context's next call is checked
    /// with the new version's ABI.
    async fn serve_announces_a_contexts_version_change_at_once(v) {
        let Some(node) = RealNode::start_on(v, "version_change") else { return };
        let old = events_with_abi("upgrade-v1", |abi| {
            abi["methods"].as_array_mut().unwrap().retain(|m| m["name"] != "touch");
        });
        let id1 = node.install(&old, "com.example.events", "0.1.0");
        let (ctx, member) = node.create_context(&id1);
        let id2 = node.install(&test_app("events"), "com.example.events", "0.2.0");
        assert_ne!(id1, id2);
        let watcher = support::serve::Watcher::default();
        let (client, mut stderr) = support::serve::stdio_client_with(
            &["--node", &node.url, "--refresh", "3600", "--log-level", "debug"],
            watcher.clone(),
        )
        .await;
        // A client that listed the tools is told of changes.
        let listed = support::serve::listed_app_tools(&client).await.to_string();
        assert!(listed.contains("\"events_touch\""), "{listed}");
        // Before: `touch` is not in the version the context runs.
        let r = support::serve::call(&client, "events_touch", json!({"_context": ctx})).await.unwrap();
        assert_eq!(r.is_error, Some(true), "{}", support::serve::text(&r));
        support::serve::stderr_line(&mut stderr, "following the version changes").await;
        node.admin(
            "POST",
            &format!("/admin-api/contexts/{ctx}/application"),
            Some(&json!({"applicationId": id2, "executorPublicKey": member})),
        );
        let line = support::serve::stderr_line(&mut stderr, "now runs version").await;
        assert!(line.contains("0.2.0 of its app (was 0.1.0)"), "{line}");
        assert!(
            watcher.wait_for(1, Duration::from_secs(30)).await,
            "notifications/tools/list_changed after the upgrade"
        );
        let r = support::serve::call(&client, "events_touch", json!({"_context": ctx})).await.unwrap();
        assert_ne!(r.is_error, Some(true), "{}", support::serve::text(&r));
        client.cancel().await.unwrap();
    }
}
