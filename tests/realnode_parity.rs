//! The parity matrix of issue 27 on real nodes: each scenario (a row) runs
//! through every CLI entry point and every `serve` entry point, and both
//! faces must come to the same outcome — refused with the same code and
//! nothing executed (checked on the node's state: the context's `count`),
//! or run.
//!
//! The world: two peered nodes of one version; node 1 has two apps with the
//! same ABI and different bytes (`testapps/kv` as `com.example.kv-c`, and the
//! same code as another module as `com.example.kv-d`), a context of each, and
//! node 2 joined both (it lists them without package). A row picks the node,
//! what is at hand locally (nothing, the app's `.wasm` under its package or
//! under another name, or its `abi.json` only) and the context (the app's
//! own, or the other app's). Besides the matrix: the `default` alias on both
//! faces, `wait` / `wait_for_context`, and the versions rows on node 1 and on
//! the joined node 2.

mod support;

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use support::realnode::{Cluster, Version, on_each_version, test_app, test_app_variant};

/// What is at hand besides the node.
#[derive(Clone, Copy, Debug, PartialEq)]
enum File {
    /// Nothing: the node's apps only.
    Nothing,
    /// The app's `.wasm`, under its package (`--package com.example.kv-c`).
    Package,
    /// The app's `.wasm` as `kv.wasm` (package `kv`, unless the node lists
    /// the app's own).
    OtherName,
    /// The app's `abi.json` only, as `kv.json`: no module.
    AbiOnly,
}

/// Which context a row names.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ctx {
    Own,
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    Ran,
    Refused(&'static str),
}

struct Row {
    node: usize,
    file: File,
    ctx: Ctx,
    expect: Expect,
}

const fn row(node: usize, file: File, ctx: Ctx, expect: Expect) -> Row {
    Row {
        node,
        file,
        ctx,
        expect,
    }
}

use Ctx::{Other, Own};
use Expect::{Ran, Refused};
use File::{AbiOnly, Nothing, OtherName, Package};

const FOREIGN: Expect = Refused("foreign_context");
const AMBIGUOUS: Expect = Refused("ambiguous_identity");

/// The matrix: one scenario a row, on node 1 and on the joined node 2.
const ROWS: &[Row] = &[
    row(1, Nothing, Own, Ran),
    row(1, Nothing, Other, FOREIGN),
    row(1, Package, Own, Ran),
    row(1, Package, Other, FOREIGN),
    row(1, OtherName, Own, Ran),
    row(1, OtherName, Other, FOREIGN),
    row(1, AbiOnly, Own, AMBIGUOUS),
    row(1, AbiOnly, Other, AMBIGUOUS),
    row(2, Nothing, Own, Ran),
    row(2, Nothing, Other, FOREIGN),
    row(2, Package, Own, Ran),
    row(2, Package, Other, FOREIGN),
    row(2, OtherName, Own, Ran),
    row(2, OtherName, Other, FOREIGN),
    row(2, AbiOnly, Own, AMBIGUOUS),
    row(2, AbiOnly, Other, AMBIGUOUS),
];

struct World {
    cluster: Cluster,
    /// App C (the one whose file is at hand) and its context.
    app: String,
    own: String,
    /// App D (same ABI, other bytes) and its context.
    other: String,
    wasm: std::path::PathBuf,
}

fn world(v: Version) -> Option<World> {
    let wasm = test_app("kv");
    let cluster = Cluster::start("parity", v, 2, &wasm, "com.example.kv-c")?;
    let d = cluster
        .node(1)
        .install(&test_app_variant("kv", "d"), "com.example.kv-d", "0.1.0");
    let (ns, other) = cluster.node(1).create_namespace_context(&d);
    cluster.share(1, &ns, &other);
    let (app, own) = (cluster.app.clone(), cluster.context.clone());
    for ctx in [&own, &other] {
        cluster.wait_initialized(2, ctx);
    }
    Some(World {
        cluster,
        app,
        own,
        other,
        wasm,
    })
}

/// A row's local files and the names it calls the app and its `set`/`get` by.
struct Local {
    _dir: tempfile::TempDir,
    /// `--apps DIR [--package P]`, or nothing.
    args: Vec<String>,
    app: String,
    tool: String,
}

impl World {
    fn local(&self, r: &Row) -> Local {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap().to_string();
        let apps = |extra: &[&str]| {
            let mut a = vec!["--apps".to_string(), d.clone()];
            a.extend(extra.iter().map(|s| s.to_string()));
            a
        };
        let (args, app, slug) = match r.file {
            Nothing if r.node == 1 => (vec![], "kv-c".to_string(), "kv_c".to_string()),
            Nothing => (
                vec![],
                self.app.clone(),
                calimcp_core::mapping::names::id_prefix(&self.app, 6),
            ),
            Package => {
                std::fs::copy(&self.wasm, dir.path().join("kv-c.wasm")).unwrap();
                (
                    apps(&["--package", "com.example.kv-c"]),
                    "kv-c".into(),
                    "kv_c".into(),
                )
            }
            // The node's package wins over the file's name where the node
            // lists one (node 1); a joined node lists none: the file names it.
            OtherName if r.node == 1 => {
                std::fs::copy(&self.wasm, dir.path().join("kv.wasm")).unwrap();
                (apps(&[]), "kv-c".into(), "kv_c".into())
            }
            OtherName => {
                std::fs::copy(&self.wasm, dir.path().join("kv.wasm")).unwrap();
                (apps(&[]), "kv".into(), "kv".into())
            }
            AbiOnly => {
                let abi = Path::new(env!("CARGO_MANIFEST_DIR")).join("testapps/kv/abi.json");
                std::fs::copy(abi, dir.path().join("kv.json")).unwrap();
                (apps(&[]), "kv".into(), "kv".into())
            }
        };
        Local {
            _dir: dir,
            args,
            app,
            tool: slug,
        }
    }

    fn context(&self, r: &Row) -> &str {
        match r.ctx {
            Own => &self.own,
            Other => &self.other,
        }
    }

    /// The context's `count` on node 1 (the state every node converges to).
    fn count(&self, ctx: &str) -> Value {
        let v = self.cluster.node(1).execute(ctx, "count", json!({}));
        v.get("result").cloned().unwrap_or(v)
    }
}

/// How an outcome reads on the CLI: exit code and `--json` error code.
fn cli_outcome(code: i32, err: &str) -> Result<(), String> {
    if code == 0 || code == 124 {
        return Ok(());
    }
    let line = err
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or(err);
    let v: Value = serde_json::from_str(line).unwrap_or(Value::Null);
    Err(v["error"]["code"]
        .as_str()
        .map_or_else(|| format!("exit {code}: {err}"), str::to_string))
}

/// The code an MCP `isError` text stands for (the server says it in words).
fn mcp_code(text: &str) -> String {
    if text.contains("cannot be told apart") {
        "ambiguous_identity".into()
    } else if text.contains("which has no method") {
        "method_not_in_version".into()
    } else if text.contains("nothing was sent") && text.contains(" runs ") {
        "foreign_context".into()
    } else if text.contains(" contexts on the node at ") && text.contains("choose one of") {
        "ambiguous_context".into()
    } else if text.contains("the node failed internally") {
        "node_internal_error".into()
    } else {
        format!("other: {text}")
    }
}

fn expect_cli(what: &str, r: &Row, got: Result<(), String>) {
    match (r.expect, got) {
        (Ran, Ok(())) => {}
        (Refused(code), Err(c)) if c == code => {}
        (want, got) => panic!(
            "node {} {:?} {:?}: CLI {what}: want {want:?}, got {got:?}",
            r.node, r.file, r.ctx
        ),
    }
}

fn expect_mcp(what: &str, r: &Row, r2: &rmcp::model::CallToolResult) {
    let text = support::serve::text(r2);
    match r.expect {
        Ran => assert_ne!(
            r2.is_error,
            Some(true),
            "node {} {:?} {:?}: MCP {what}: {text}",
            r.node,
            r.file,
            r.ctx
        ),
        Refused(code) => {
            assert_eq!(r2.is_error, Some(true), "MCP {what}: {text}");
            assert_eq!(
                mcp_code(&text),
                code,
                "node {} {:?} {:?}: MCP {what}",
                r.node,
                r.file,
                r.ctx
            );
        }
    }
}

fn run_cli(w: &World, r: &Row, l: &Local, args: &[&str]) -> Result<(), String> {
    let out = w
        .cluster
        .node(r.node)
        .calimcp()
        .args(&l.args)
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    cli_outcome(
        out.status.code().unwrap_or(-1),
        &String::from_utf8_lossy(&out.stderr),
    )
}

/// Every CLI entry point of one row.
fn cli_row(w: &World, r: &Row, l: &Local, key: &str) {
    let ctx = w.context(r);
    let set = format!("{}_set", l.tool);
    let get = format!("{}.get", l.app);
    let got = run_cli(
        w,
        r,
        l,
        &["call", &set, "--key", key, "--value", "v", "-c", ctx],
    );
    expect_cli("call -c", r, got);
    let args = json!({"key": key, "value": "v", "_context": ctx}).to_string();
    let got = run_cli(
        w,
        r,
        l,
        &["call", &format!("{}.set", l.app), "--args", &args],
    );
    expect_cli("--args _context", r, got);
    let got = run_cli(
        w,
        r,
        l,
        &[
            "call", &set, "--key", key, "--value", "v", "-c", ctx, "--retry", "2",
        ],
    );
    expect_cli("--retry", r, got);
    let got = run_cli(
        w,
        r,
        l,
        &[
            "call", &get, "--key", key, "-c", ctx, "--until", "v", "--within", "30",
        ],
    );
    expect_cli("--until", r, got);
    let got = run_cli(w, r, l, &["watch", &l.app, "-c", ctx, "--stop-after", "1"]);
    expect_cli("watch -c", r, got);
    let got = run_cli(w, r, l, &["use", &l.app, "-c", ctx]);
    expect_cli("use", r, got);
    let _ = run_cli(w, r, l, &["use", &l.app, "--clear"]);
    // `wait` takes a context, no app: whatever the row, the context is
    // there and initialized, on both faces (`wait_for_context` below).
    let got = run_cli(w, r, l, &["wait", ctx, "--within", "20"]);
    assert_eq!(
        got,
        Ok(()),
        "node {} {:?} {:?}: CLI wait",
        r.node,
        r.file,
        r.ctx
    );
}

/// Every `serve` entry point of one row.
async fn mcp_row(w: &World, r: &Row, l: &Local, key: &str) {
    let ctx = w.context(r).to_string();
    let url = w.cluster.node(r.node).url.clone();
    let state = w.cluster.node(r.node).state.path().to_path_buf();
    let env = [("CALIMCP_STATE_DIR", state.to_str().unwrap())];
    let mut args: Vec<&str> = vec!["--node", &url];
    args.extend(l.args.iter().map(String::as_str));
    let (client, _) =
        support::serve::stdio_client_env(&args, &env, support::serve::Watcher::default()).await;
    let set = format!("{}_set", l.tool);
    let get = format!("{}_get", l.tool);
    let res = support::serve::call(
        &client,
        &set,
        json!({"key": key, "value": "v", "_context": ctx}),
    )
    .await
    .unwrap();
    expect_mcp("_context", r, &res);
    let res = support::serve::call(
        &client,
        "call_until",
        json!({"tool": get, "arguments": {"key": key, "_context": ctx}, "until": "v", "within": 30}),
    )
    .await
    .unwrap();
    expect_mcp("call_until", r, &res);
    let res = support::serve::call(
        &client,
        "wait_for_events",
        json!({"app": l.app, "context": ctx, "timeout": 1}),
    )
    .await
    .unwrap();
    expect_mcp("wait_for_events", r, &res);
    let res = support::serve::call(&client, "select_app", json!({"app": l.app, "context": ctx}))
        .await
        .unwrap();
    expect_mcp("select_app", r, &res);
    let res = support::serve::call(
        &client,
        "wait_for_context",
        json!({"context": ctx, "within": 20}),
    )
    .await
    .unwrap();
    assert_ne!(
        res.is_error,
        Some(true),
        "node {} {:?} {:?}: MCP wait_for_context: {}",
        r.node,
        r.file,
        r.ctx,
        support::serve::text(&res)
    );
    client.cancel().await.unwrap();
    // --read-only: a view with `_context` alike.
    args.push("--read-only");
    let (client, _) =
        support::serve::stdio_client_env(&args, &env, support::serve::Watcher::default()).await;
    let res = support::serve::call(&client, &get, json!({"key": key, "_context": ctx}))
        .await
        .unwrap();
    expect_mcp("--read-only _context", r, &res);
    client.cancel().await.unwrap();
}

on_each_version! {
    async fn both_faces_come_to_the_same_outcome_in_every_row(v) {
        let Some(w) = tokio::task::spawn_blocking(move || world(v)).await.unwrap() else { return };
        // Names on the joined node without a file: the id prefix and the method.
        for (i, r) in ROWS.iter().enumerate() {
            let l = w.local(r);
            let ctx = w.context(r).to_string();
            let before = w.count(&ctx);
            let key = format!("k{i}");
            cli_row(&w, r, &l, &key);
            mcp_row(&w, r, &l, &key).await;
            let after = w.count(&ctx);
            match r.expect {
                Refused(_) => assert_eq!(before, after, "row {i}: something ran in {ctx}"),
                Ran => assert_ne!(before, after, "row {i}: nothing ran in {ctx}"),
            }
        }
        let _ = Duration::ZERO;
    }
}

// ---------------------------------------------------------------------------
// The `default` alias: the CLI's fallback and `serve`'s are one rule. App C
// gets a second context (so it has no "only context"); on each node, with
// `default` naming app D's context, a call of C's `set` with no context is
// refused alike on both faces and nothing runs anywhere; with `default`
// naming C's own context both faces run there (and only there), and `wait
// default` / `wait_for_context` find it ready.

/// The outcome of a call of `tool` with no context on node `n`: the CLI's
/// `--json` error code (or `ran`), and the same through `serve`.
async fn no_context_call(w: &World, n: usize, tool: &str, key: &str) -> (String, String) {
    let node = w.cluster.node(n);
    let out = node
        .calimcp()
        .args(["call", tool, "--key", key, "--value", "v", "--json"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let cli = match cli_outcome(out.status.code().unwrap_or(-1), &err) {
        Ok(()) => "ran".to_string(),
        Err(code) => code,
    };
    let state = node.state.path().to_str().unwrap().to_string();
    let env = [("CALIMCP_STATE_DIR", state.as_str())];
    let (client, _) = support::serve::stdio_client_env(
        &["--node", &node.url],
        &env,
        support::serve::Watcher::default(),
    )
    .await;
    let res = support::serve::call(
        &client,
        tool,
        json!({"key": format!("{key}m"), "value": "v"}),
    )
    .await
    .unwrap();
    let wait = support::serve::call(
        &client,
        "wait_for_context",
        json!({"context": "default", "within": 20}),
    )
    .await
    .unwrap();
    client.cancel().await.unwrap();
    let mcp = if res.is_error != Some(true) {
        "ran".to_string()
    } else {
        mcp_code(&support::serve::text(&res))
    };
    let cli_wait = node
        .calimcp()
        .args(["wait", "default", "--within", "20"])
        .output()
        .unwrap();
    assert_eq!(
        (cli_wait.status.code(), wait.is_error == Some(true)),
        (Some(0), false),
        "node {n}: `wait default` and wait_for_context: {} / {}",
        String::from_utf8_lossy(&cli_wait.stderr),
        support::serve::text(&wait)
    );
    (cli, mcp)
}

on_each_version! {
    async fn the_default_alias_binds_the_same_context_on_both_faces(v) {
        let Some(w) = tokio::task::spawn_blocking(move || {
            let w = world(v)?;
            let (ns, second) = w.cluster.node(1).create_namespace_context(&w.app);
            w.cluster.share(1, &ns, &second);
            w.cluster.wait_initialized(2, &second);
            Some((w, second))
        })
        .await
        .unwrap() else { return };
        let (w, second) = w;
        for n in [1, 2] {
            // Node 1's calls have reached node 2 before node 2's counts are taken.
            let count = |n: usize, c: &str| {
                let v = w.cluster.node(n).execute(c, "count", json!({}));
                v.get("result").cloned().unwrap_or(v)
            };
            let deadline = std::time::Instant::now() + Duration::from_secs(60);
            while n == 2
                && [&w.own, &second, &w.other].iter().any(|c| count(1, c) != count(2, c))
            {
                assert!(std::time::Instant::now() < deadline, "node 2 never caught up with node 1");
                std::thread::sleep(Duration::from_millis(200));
            }
            let tool = if n == 1 {
                "kv_c_set".to_string()
            } else {
                format!("{}_set", calimcp_core::mapping::names::id_prefix(&w.app, 6))
            };
            let node = w.cluster.node(n);
            // Each context's `count` on the node the calls went to.
            let counts = || [&w.own, &second, &w.other].map(|c| count(n, c));

            node.alias_context("default", &w.other);
            let before = counts();
            let (cli, mcp) = no_context_call(&w, n, &tool, &format!("d{n}f")).await;
            assert_eq!(cli, "ambiguous_context", "node {n}: `default` names another app's context");
            assert_eq!(cli, mcp, "node {n}: `default` of another app: CLI and serve differ");
            assert_eq!(before, counts(), "node {n}: something ran");
            node.admin("POST", "/admin-api/alias/delete/context/default", None);

            node.alias_context("default", &w.own);
            let [own, sec, oth] = counts();
            let (cli, mcp) = no_context_call(&w, n, &tool, &format!("d{n}o")).await;
            assert_eq!((cli.as_str(), mcp.as_str()), ("ran", "ran"), "node {n}: `default` of the app's own");
            let after = counts();
            assert_ne!(after[0], own, "node {n}: nothing ran in the `default` context");
            assert_eq!((&after[1], &after[2]), (&sec, &oth), "node {n}: ran elsewhere");
            node.admin("POST", "/admin-api/alias/delete/context/default", None);

            // A context the node does not have: `wait` and `wait_for_context`
            // refuse it alike (the same error, in the same words).
            let nowhere = "11111111111111111111111111111111";
            let out = node
                .calimcp()
                .args(["wait", nowhere, "--within", "5", "--json"])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            let line = err.lines().rev().find(|l| l.starts_with('{')).unwrap_or_default();
            let cli: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {err}"));
            assert_ne!(out.status.code(), Some(0), "node {n}: {err}");
            assert_eq!(cli["error"]["code"], "unknown_context", "node {n}: {err}");
            // (The message without a hint folded into it, if it is.)
            let message = cli["error"]["message"].as_str().expect("a message");
            let message = message.split(" (hint: ").next().unwrap_or(message).to_string();
            let state = node.state.path().to_str().unwrap().to_string();
            let (client, _) = support::serve::stdio_client_env(
                &["--node", &node.url],
                &[("CALIMCP_STATE_DIR", state.as_str())],
                support::serve::Watcher::default(),
            )
            .await;
            let res = support::serve::call(
                &client,
                "wait_for_context",
                json!({"context": nowhere, "within": 5}),
            )
            .await
            .unwrap();
            client.cancel().await.unwrap();
            let text = support::serve::text(&res);
            assert_eq!(res.is_error, Some(true), "node {n}: {text}");
            assert!(
                text.contains(&message),
                "node {n}: wait says {:?} ({}), wait_for_context {text:?}",
                message,
                cli["error"]["code"]
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Versions: two versions of one package, a context on each. 0.1.0 has no
// `touch` and `insert` is [mut]; in 0.2.0 `touch` exists and `insert` is
// [view]. A row names a method, the context and the entry points it runs
// through; the state check is the context's root hash.

/// Entry points of the versions rows.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Entry {
    CliCall,
    CliArgs,
    CliRetry,
    CliUntil,
    McpContext,
    McpCallUntil,
    McpReadOnly,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Version2 {
    V1,
    V2,
}

struct VRow {
    method: &'static str,
    ctx: Version2,
    entries: &'static [Entry],
    /// `Ran`, `Refused("method_not_in_version")`, or `Refused("mut")`: a
    /// [mut] method refused by what repeats calls or serves read-only.
    expect: Expect,
    /// Why a row fails on this branch, when it does (said in the report).
    needs: Option<&'static str>,
}

const SEND: &[Entry] = &[
    Entry::CliCall,
    Entry::CliArgs,
    Entry::CliRetry,
    Entry::McpContext,
];
const REPEAT: &[Entry] = &[Entry::CliUntil, Entry::McpCallUntil, Entry::McpReadOnly];

const VROWS: &[VRow] = &[
    VRow {
        method: "touch",
        ctx: Version2::V1,
        entries: SEND,
        expect: Refused("method_not_in_version"),
        needs: None,
    },
    VRow {
        method: "touch",
        ctx: Version2::V2,
        entries: SEND,
        expect: Ran,
        needs: None,
    },
    // The method's kind follows the version the context runs (issue 27
    // point 6: the one call pipeline, engine-core's part).
    VRow {
        method: "insert",
        ctx: Version2::V1,
        entries: REPEAT,
        expect: Refused("mut"),
        needs: Some("engine-core: decisions on the method's kind from the context's version"),
    },
];

struct VWorld {
    node: support::realnode::RealNode,
    v1: String,
    v2: String,
}

/// The `events` app as 0.1.0 (no `touch`, `insert` [mut]) and as 0.2.0
/// (`touch`, `insert` [view]), built as `{tag}1` and `{tag}2`.
fn version_apps(tag: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let old = support::realnode::test_app_with_abi("events", &format!("{tag}1"), |abi| {
        abi["methods"]
            .as_array_mut()
            .unwrap()
            .retain(|m| m["name"] != "touch");
    });
    let new = support::realnode::test_app_with_abi("events", &format!("{tag}2"), |abi| {
        for m in abi["methods"].as_array_mut().unwrap() {
            if m["name"] == "insert" {
                m["intent"] = json!("read_only");
            }
        }
    });
    (old, new)
}

fn vworld(v: Version) -> Option<VWorld> {
    let node = support::realnode::RealNode::start_on(v, "parity_versions")?;
    let (old, new) = version_apps("parity-v");
    let id1 = node.install(&old, "com.example.events", "0.1.0");
    let (v1, _) = node.create_context(&id1);
    let id2 = node.install(&new, "com.example.events", "0.2.0");
    let (v2, _) = node.create_context(&id2);
    Some(VWorld { node, v1, v2 })
}

/// The outcome of one entry, as a code: `ran`, or the refusal's code.
async fn entry_outcome(
    node: &support::realnode::RealNode,
    e: Entry,
    tool: &str,
    ctx: &str,
) -> String {
    // `insert` takes a key and a number; `touch` nothing.
    let margs = if tool.ends_with("insert") {
        json!({"key": "k", "n": 1})
    } else {
        json!({})
    };
    let cli = |extra: &[&str]| {
        let out = node.calimcp().args(extra).arg("--json").output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        match cli_outcome(out.status.code().unwrap_or(-1), &err) {
            Ok(()) => "ran".to_string(),
            Err(_) if err.contains("[mut]") => "mut".to_string(),
            Err(code) => code,
        }
    };
    let with_ctx = |mut a: Value| {
        a["_context"] = json!(ctx);
        a
    };
    let p: Vec<String> = margs
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(k, v)| {
            [
                format!("--{k}"),
                v.to_string().trim_matches('"').to_string(),
            ]
        })
        .collect();
    let p: Vec<&str> = p.iter().map(String::as_str).collect();
    match e {
        Entry::CliCall => cli(&[&["call", tool, "-c", ctx][..], &p].concat()),
        Entry::CliArgs => cli(&["call", tool, "--args", &with_ctx(margs.clone()).to_string()]),
        Entry::CliRetry => cli(&[&["call", tool, "-c", ctx, "--retry", "2"][..], &p].concat()),
        Entry::CliUntil => cli(&[
            &["call", tool, "-c", ctx, "--until", "null", "--within", "5"][..],
            &p,
        ]
        .concat()),
        Entry::McpContext | Entry::McpCallUntil | Entry::McpReadOnly => {
            let url = node.url.clone();
            let state = node.state.path().to_str().unwrap().to_string();
            let env = [("CALIMCP_STATE_DIR", state.as_str())];
            let mut sargs = vec!["--node", url.as_str()];
            if e == Entry::McpReadOnly {
                sargs.push("--read-only");
            }
            let (client, _) =
                support::serve::stdio_client_env(&sargs, &env, support::serve::Watcher::default())
                    .await;
            let res = match e {
                Entry::McpCallUntil => {
                    support::serve::call(
                        &client,
                        "call_until",
                        json!({"tool": tool, "arguments": with_ctx(margs.clone()), "until": null, "within": 5}),
                    )
                    .await
                }
                _ => support::serve::call(&client, tool, with_ctx(margs.clone())).await,
            };
            client.cancel().await.unwrap();
            match res {
                Ok(r) if r.is_error != Some(true) => "ran".to_string(),
                Ok(r) => {
                    let text = support::serve::text(&r);
                    if text.contains("[mut]") {
                        "mut".into()
                    } else if text.contains("which has no method") {
                        "method_not_in_version".into()
                    } else {
                        mcp_code(&text)
                    }
                }
                // A JSON-RPC error: the tool is not served (--read-only).
                Err(e) => {
                    let text = e.to_string();
                    if text.contains("read-only") || text.contains("[mut]") {
                        "mut".into()
                    } else {
                        format!("other: {text}")
                    }
                }
            }
        }
    }
}

on_each_version! {
    async fn versions_each_context_decides_by_the_version_it_runs(v) {
        let Some(w) = tokio::task::spawn_blocking(move || vworld(v)).await.unwrap() else { return };
        let mut failed = Vec::new();
        for (i, r) in VROWS.iter().enumerate() {
            let ctx = match r.ctx {
                Version2::V1 => w.v1.clone(),
                Version2::V2 => w.v2.clone(),
            };
            let tool = format!("events_{}", r.method);
            let before = w.node.context_root(&ctx);
            let want = match r.expect {
                Ran => "ran",
                Refused(code) => code,
            };
            for &e in r.entries {
                let got = entry_outcome(&w.node, e, &tool, &ctx).await;
                if got != want {
                    failed.push(format!("row {i} {tool} in {:?} via {e:?}: want {want}, got {got}{}", r.ctx,
                        r.needs.map(|n| format!(" (needs {n})")).unwrap_or_default()));
                }
            }
            let after = w.node.context_root(&ctx);
            match r.expect {
                Refused(_) if before != after => failed.push(format!("row {i}: something ran in {ctx}")),
                // (`touch` leaves the root hash as it is on both versions:
                // only the refusals are checked on the state for it.)
                Ran if before == after && r.method != "touch" => {
                    failed.push(format!("row {i}: nothing ran in {ctx}"))
                }
                _ => {}
            }
        }
        assert!(failed.is_empty(), "rows that fail:\n{}", failed.join("\n"));
    }
}

// The versions rows on the joined node 2: node 1 installs 0.1.0 and 0.2.0
// of `com.example.events` with a context on each, node 2 joins both. Node 2
// lists the two apps without package (rc.25) or as `unknown` 0.0.0 (rc.4),
// so it cannot know they are versions of one package: its tools are named
// by each app's id prefix, `touch` is a tool of the 0.2.0 app only, and in
// the 0.1.0 context it is a context of another app. Every entry point of a
// row must come to one outcome on both faces, and the refused ones leave the
// context's root hash on node 2 as it was.
on_each_version! {
    async fn versions_on_the_joined_node_2_come_to_one_outcome_on_both_faces(v) {
        let Some((cluster, id1, v1, id2, v2)) = tokio::task::spawn_blocking(move || {
            let (old, new) = version_apps("parity-j");
            let cluster = Cluster::start("parity_joined_versions", v, 2, &old, "com.example.events")?;
            let id2 = cluster.node(1).install(&new, "com.example.events", "0.2.0");
            let (ns, v2) = cluster.node(1).create_namespace_context(&id2);
            cluster.share(1, &ns, &v2);
            let (id1, v1) = (cluster.app.clone(), cluster.context.clone());
            for ctx in [&v1, &v2] {
                cluster.wait_initialized(2, ctx);
            }
            Some((cluster, id1, v1, id2, v2))
        })
        .await
        .unwrap() else { return };
        let node = cluster.node(2);
        let name = |id: &str, method: &str| {
            format!("{}_{method}", calimcp_core::mapping::names::id_prefix(id, 6))
        };
        // `touch` in the 0.2.0 context is sent: it runs as a raw execute
        // on node 2 does — which fails in the node's runtime on rc.4 and
        // rc.25 alike (the `events` test app bumps a raw-storage counter,
        // which a joined node cannot write; the `kv` app of the matrix keeps
        // calimero-storage entries and writes on node 2).
        let raw = node.execute(&v2, "touch", json!({}));
        let sent = if raw.get("error").is_some() { "node_internal_error" } else { "ran" };
        // (tool, context, entry points, the outcome every one must have)
        let rows: [(String, &str, &[Entry], &str); 3] = [
            (name(&id2, "touch"), &v1, SEND, "foreign_context"),
            (name(&id2, "touch"), &v2, SEND, sent),
            (name(&id1, "insert"), &v1, REPEAT, "mut"),
        ];
        let mut failed = Vec::new();
        for (i, (tool, ctx, entries, want)) in rows.iter().enumerate() {
            let before = node.context_root(ctx);
            for &e in *entries {
                let got = entry_outcome(node, e, tool, ctx).await;
                if got != *want {
                    failed.push(format!("row {i} {tool} in {ctx} via {e:?}: want {want}, got {got}"));
                }
            }
            if *want != "ran" && *want != sent && node.context_root(ctx) != before {
                failed.push(format!("row {i}: something ran in {ctx}"));
            }
        }
        assert!(failed.is_empty(), "rows that fail on node 2:\n{}", failed.join("\n"));
    }
}

// Both versions (the group routes and `POST /admin-api/groups/:id/upgrade`
// are in rc.4 too — core tags from 0.10.1-rc.7): a group upgrade under
// `LazyOnAccess` (the namespaces the harness creates) moves each context to
// the new version at its next use, and until then the node still says the
// old one. A method only the new version has is not refused: the CLI says
// the context moves on this call, and `serve` runs it too (another context
// of the group, not moved yet).
on_each_version! {
fn a_lazy_group_upgrade_moves_the_context_on_its_next_call(v) {
    let Some(node) = support::realnode::RealNode::start_on(v, "parity_lazy") else {
        return;
    };
    let old = support::realnode::test_app_with_abi("events", "lazy-v1", |abi| {
        abi["methods"]
            .as_array_mut()
            .unwrap()
            .retain(|m| m["name"] != "touch");
    });
    let id1 = node.install(&old, "com.example.events", "0.1.0");
    let (ns, a, _) = node.create_context_full(&id1, None);
    let b = node.admin(
        "POST",
        "/admin-api/contexts",
        Some(
            &json!({"applicationId": id1, "contextSeed": null, "initializationParams": [],
                     "groupId": ns, "identitySecret": null}),
        ),
    )["data"]["contextId"]
        .as_str()
        .unwrap()
        .to_string();
    let id2 = node.install(&test_app("events"), "com.example.events", "0.2.0");
    let group = node.admin("GET", &format!("/admin-api/contexts/{a}/group"), None)["data"]
        .as_str()
        .expect("the context's group")
        .to_string();
    node.admin(
        "POST",
        &format!("/admin-api/groups/{group}/upgrade"),
        Some(&json!({"targetApplicationId": id2})),
    );
    let runs = |ctx: &str| {
        node.admin("GET", &format!("/admin-api/contexts/{ctx}"), None)["data"]["applicationId"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(runs(&a), id1, "lazy: the node still says the old version");
    let out = node
        .calimcp()
        .args(["call", "events_touch", "-c", &a])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("moves to com.example.events 0.2.0 on this call"),
        "{err}"
    );
    assert_eq!(runs(&b), id1, "the other context has not moved");
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let client = support::serve::stdio_client(&["--node", &node.url]).await;
        let r = support::serve::call(&client, "events_touch", json!({"_context": b}))
            .await
            .unwrap();
        assert_ne!(r.is_error, Some(true), "{}", support::serve::text(&r));
        client.cancel().await.unwrap();
    });
}
}

/// The object keys of a JSON body, `data`'s when it has one, in order.
fn keys(body: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    let o = v.get("data").filter(|d| d.is_object()).unwrap_or(&v);
    o.as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

// The group routes the lazy upgrade reads answer as the goldens the fake
// node serves say (tests/golden/responses, written from the node's types):
// a context's group (and `null` for a context the node does not have), the
// group's fields in the golden's order (rc.4 with `upgradePolicy`), and a
// group the node does not have word for word.
on_each_version! {
    fn the_group_routes_answer_as_the_goldens_say(v) {
        let Some(node) = support::realnode::RealNode::start_on(v, "parity_groups") else {
            return;
        };
        let golden = |name: &str| {
            std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/responses/{name}.json")),
            )
            .unwrap()
        };
        let app = node.install(&test_app("events"), "com.example.events", "0.1.0");
        let (ns, ctx, _) = node.create_context_full(&app, None);
        let (status, body) = node.try_admin("GET", &format!("/admin-api/contexts/{ctx}/group"), None);
        assert_eq!((status, body.clone()), (200, json!({"data": ns}).to_string()));
        assert_eq!(keys(&body), keys(&golden("context-group")));
        let nowhere = "11111111111111111111111111111111";
        assert_eq!(
            node.try_admin("GET", &format!("/admin-api/contexts/{nowhere}/group"), None),
            (200, golden("context-group-none"))
        );
        let (status, body) = node.try_admin("GET", &format!("/admin-api/groups/{ns}"), None);
        assert_eq!(status, 200, "{body}");
        let info = if v == Version::Rc4 { "group-info-rc4" } else { "group-info" };
        assert_eq!(keys(&body), keys(&golden(info)), "{body}");
        let target: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(target["data"]["targetApplicationId"], app.as_str());
        let missing = if v == Version::Rc4 { "group-not-found-rc4" } else { "group-not-found" };
        assert_eq!(
            node.try_admin("GET", &format!("/admin-api/groups/{}", "cd".repeat(32)), None),
            (500, golden(missing))
        );
    }
}
