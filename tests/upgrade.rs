//! `calimcp app upgrade` against the fake node (issue 45), on rc.4 and rc.25
//! (their upgrade answers differ): the diff gate runs before anything is
//! installed, a breaking build is refused with nothing installed or moved,
//! a compatible one is installed and the group upgraded, `contexts` shows
//! the pending move until a context's next execution, `--dry-run` and a
//! missing `--yes` change nothing, `--force` says what it went past, a build
//! the node has (its bytes, or PACKAGE@VERSION) is not installed again and a
//! group that targets it already is not sent an upgrade.

mod support;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::calimcp;
use support::fake_node::{self, FakeNode, Profile};
use support::json_schema::assert_valid;

const KV: &str = "com.example.kv";

/// The kv test app with `edit` applied to its ABI, written to `dir/name`.
fn build(dir: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    fake_node::kv_build(dir, name, edit)
}

/// A method added: compatible.
fn added(abi: &mut Value) {
    let methods = abi["methods"].as_array_mut().unwrap();
    methods.push(
        json!({"name": "version", "params": [], "returns": {"kind": "string"},
                        "intent": "read_only"}),
    );
    methods.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
}

/// `echo`'s `message` from string to u64: breaking.
fn retyped(abi: &mut Value) {
    let echo = abi["methods"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|m| m["name"] == "echo")
        .unwrap();
    echo["params"][0]["type"] = json!({"kind": "u64"});
}

struct Run {
    code: Option<i32>,
    out: String,
    err: String,
}

fn run(home: &Path, node: &FakeNode, args: &[&str]) -> Run {
    let out = calimcp(home)
        .env("CALIMERO_NODE_URL", &node.url)
        .args(args)
        .output()
        .unwrap();
    Run {
        code: out.status.code(),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn json_ok(home: &Path, node: &FakeNode, args: &[&str]) -> Value {
    let r = run(home, node, args);
    assert_eq!(r.code, Some(0), "{args:?}: {}", r.err);
    serde_json::from_str(&r.out).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", r.out))
}

/// v1 installed, two contexts in one namespace (`a1` and `b1`): the
/// namespace and v1's id.
fn setup(home: &Path, node: &FakeNode) -> (String, String) {
    let v1 = build(home, "v1.wasm", |_| {});
    let v = json_ok(
        home,
        node,
        &[
            "app",
            "install",
            v1.to_str().unwrap(),
            "--package",
            KV,
            "--version",
            "0.1.0",
            "--json",
        ],
    );
    let id1 = v["applicationId"].as_str().unwrap().to_string();
    let a = json_ok(
        home,
        node,
        &["context", "create", KV, "--alias", "a1", "--json"],
    );
    let ns = a["namespaceId"].as_str().unwrap().to_string();
    json_ok(
        home,
        node,
        &[
            "context",
            "create",
            KV,
            "--alias",
            "b1",
            "--namespace",
            &ns,
            "--json",
        ],
    );
    (ns, id1)
}

fn changes(node: &FakeNode) -> Vec<String> {
    node.installs_and_upgrades()
}

fn target(node: &FakeNode, ns: &str) -> String {
    node.namespace_target(ns).expect("the namespace")
}

/// `calimcp app upgrade a1 --to TO EXTRA…`.
fn upgrade(home: &Path, node: &FakeNode, to: &str, extra: &[&str]) -> Run {
    let mut args = vec!["app", "upgrade", "a1", "--to", to];
    args.extend_from_slice(extra);
    run(home, node, &args)
}

/// The same with `--json`, which must succeed: its answer.
fn upgrade_ok(home: &Path, node: &FakeNode, to: &str, extra: &[&str]) -> Value {
    let r = upgrade(home, node, to, &[extra, &["--json"]].concat());
    assert_eq!(r.code, Some(0), "{to} {extra:?}: {}", r.err);
    let v: Value = serde_json::from_str(&r.out).unwrap();
    assert_valid("app-upgrade", &v);
    v
}

fn has_finding(v: &Value, rule: &str, level: &str) -> bool {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["rule"] == rule && f["level"] == level)
}

#[test]
fn a_breaking_build_is_refused_before_anything_is_installed_or_moved() {
    for p in [Profile::Rc4, Profile::Rc25] {
        let node = FakeNode::with_profile(p);
        let home = tempfile::tempdir().unwrap();
        let (ns, id1) = setup(home.path(), &node);
        let before = changes(&node);
        let v3 = build(home.path(), "v3.wasm", retyped);
        let v3 = v3.to_str().unwrap();
        let r = upgrade(home.path(), &node, v3, &["--yes"]);
        assert_eq!(r.code, Some(1), "{}: {} {}", p.name(), r.err, r.out);
        assert!(
            r.out.contains("param-type-changed"),
            "as diff prints it: {}",
            r.out
        );
        assert!(r.out.contains("refused: group"), "{}", r.out);
        assert!(r.err.contains("--force goes on anyway"), "{}", r.err);
        assert_eq!(changes(&node), before, "nothing installed or upgraded");
        assert_eq!(target(&node, &ns), id1);
        // --json: the same refusal as data, valid against its schema.
        let r = upgrade(home.path(), &node, v3, &["--yes", "--json"]);
        assert_eq!(r.code, Some(1), "{}", r.err);
        let v: Value = serde_json::from_str(&r.out).unwrap();
        assert_valid("app-upgrade", &v);
        assert_eq!(
            (v["refused"].clone(), v["upgraded"].clone()),
            (json!(true), json!(false))
        );
        assert!(has_finding(&v, "param-type-changed", "breaking"), "{v}");
        assert_eq!(changes(&node), before);
        // --fail-on none lets it through the gate; --dry-run still changes nothing.
        let r = upgrade(home.path(), &node, v3, &["--fail-on", "none", "--dry-run"]);
        assert_eq!(r.code, Some(0), "{}", r.err);
        let said = "dry run: would install the build and upgrade group";
        assert!(r.out.contains(said), "{}", r.out);
        assert_eq!(changes(&node), before);
    }
}

#[test]
fn a_compatible_build_is_installed_and_the_group_upgraded_with_the_target_alone() {
    for p in [Profile::Rc4, Profile::Rc25] {
        let node = FakeNode::with_profile(p);
        let home = tempfile::tempdir().unwrap();
        let (ns, id1) = setup(home.path(), &node);
        let v2 = build(home.path(), "v2.wasm", added);
        let to = v2.to_str().unwrap();
        // Off a terminal without --yes: refused, nothing changed.
        let before = changes(&node);
        let r = upgrade(home.path(), &node, to, &["--version", "0.2.0"]);
        assert_eq!(r.code, Some(2), "{}", r.err);
        assert!(r.err.contains("--yes"), "{}", r.err);
        assert_eq!(changes(&node), before);
        let v = upgrade_ok(home.path(), &node, to, &["--version", "0.2.0", "--yes"]);
        let done = (
            v["refused"].clone(),
            v["installed"].clone(),
            v["upgraded"].clone(),
        );
        assert_eq!(done, (json!(false), json!(true), json!(true)), "{v}");
        assert_eq!(v["node_status"], "completed", "{}", p.name());
        let id2 = v["to"]["application_id"].as_str().unwrap().to_string();
        assert_ne!(id2, id1);
        assert!(has_finding(&v, "method-added", "info"), "{v}");
        // The node was sent the target alone (both versions default the rest).
        let sent = node
            .requests()
            .into_iter()
            .find(|r| r.path.ends_with("/upgrade"))
            .unwrap();
        assert_eq!(sent.path, format!("/admin-api/groups/{ns}/upgrade"));
        let body: Value = serde_json::from_str(&sent.body).unwrap();
        assert_eq!(body, json!({"targetApplicationId": id2}));
        assert_eq!(target(&node, &ns), id2);
        let contexts = v["contexts"].as_array().unwrap();
        assert_eq!(contexts.len(), 2);
        let pending = |c: &Value| c["version"] == "0.1.0" && c["moves_to"] == id2.as_str();
        assert!(contexts.iter().all(pending), "{v}");
    }
}

/// The `pendingVersion` of the context aliased `alias` in `contexts --json`.
fn pending(home: &Path, node: &FakeNode, alias: &str) -> Value {
    let rows = json_ok(home, node, &["contexts", "--json"]);
    assert_valid("contexts", &rows);
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["aliases"][0] == alias);
    row.unwrap()["pendingVersion"].clone()
}

#[test]
fn contexts_show_the_pending_move_until_each_contexts_next_call() {
    for p in [Profile::Rc4, Profile::Rc25] {
        let node = FakeNode::with_profile(p);
        let home = tempfile::tempdir().unwrap();
        setup(home.path(), &node);
        let v2 = build(home.path(), "v2.wasm", added);
        upgrade_ok(
            home.path(),
            &node,
            v2.to_str().unwrap(),
            &["--version", "0.2.0", "--yes"],
        );
        assert_eq!(pending(home.path(), &node, "a1"), "0.2.0");
        let r = run(home.path(), &node, &["contexts"]);
        assert!(
            r.out.contains("0.1.0 → 0.2.0 (at its next execution)"),
            "{}",
            r.out
        );
        let r = run(home.path(), &node, &["call", "kv_count", "-c", "a1"]);
        assert_eq!(r.code, Some(0), "{}", r.err);
        assert_eq!(
            pending(home.path(), &node, "a1"),
            Value::Null,
            "moved at its call"
        );
        assert_eq!(pending(home.path(), &node, "b1"), "0.2.0", "not called yet");
    }
}

#[test]
fn a_build_the_node_has_already_is_not_installed_again() {
    let node = FakeNode::with_profile(Profile::Rc4);
    let home = tempfile::tempdir().unwrap();
    let (ns, _) = setup(home.path(), &node);
    let v2 = build(home.path(), "v2.wasm", added);
    let to = v2.to_str().unwrap();
    let args = [
        "app",
        "install",
        to,
        "--package",
        KV,
        "--version",
        "0.2.0",
        "--json",
    ];
    let id2 = json_ok(home.path(), &node, &args)["applicationId"]
        .as_str()
        .unwrap()
        .to_string();
    let before = changes(&node).len();
    // PACKAGE@VERSION of an installed version names it too (a dry run).
    let v = upgrade_ok(home.path(), &node, &format!("{KV}@0.2.0"), &["--dry-run"]);
    assert_eq!(v["to"]["application_id"], id2.as_str(), "{v}");
    assert_eq!(changes(&node).len(), before);
    let v = upgrade_ok(home.path(), &node, to, &["--yes"]);
    assert_eq!(
        (v["installed"].clone(), v["to"]["application_id"].clone()),
        (json!(false), json!(id2)),
        "{v}"
    );
    assert_eq!(
        changes(&node).len(),
        before + 1,
        "the upgrade alone: {:?}",
        changes(&node)
    );
    assert_eq!(target(&node, &ns), id2);
    // Again: the group targets it already, so nothing is sent (the node
    // would refuse it).
    let v = upgrade_ok(home.path(), &node, to, &["--yes"]);
    assert_eq!(
        (v["already"].clone(), v["upgraded"].clone()),
        (json!(true), json!(false)),
        "{v}"
    );
    assert_eq!(changes(&node).len(), before + 1);
    let r = upgrade(home.path(), &node, to, &["--yes"]);
    assert!(r.out.contains("already targets"), "{}", r.out);
}

#[test]
fn force_goes_past_the_gate_and_says_what_it_overrode() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let home = tempfile::tempdir().unwrap();
    let (ns, id1) = setup(home.path(), &node);
    let v3 = build(home.path(), "v3.wasm", retyped);
    let r = run(
        home.path(),
        &node,
        &[
            "app",
            "upgrade",
            "--group",
            &ns,
            "--to",
            v3.to_str().unwrap(),
            "--force",
            "--yes",
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.err.contains("--force: went past")
            && r.err.contains("param-type-changed at echo.params.message"),
        "{}",
        r.err
    );
    assert!(r.out.contains("upgraded group"), "{}", r.out);
    assert_ne!(target(&node, &ns), id1);
}

#[test]
fn bad_input_says_what_is_wrong() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let home = tempfile::tempdir().unwrap();
    setup(home.path(), &node);
    let before = changes(&node);
    for (args, says) in [
        (
            &[
                "app",
                "upgrade",
                "a1",
                "--to",
                "com.example.other@9.9.9",
                "--yes",
            ][..],
            "cannot be read here",
        ),
        (
            &[
                "app",
                "upgrade",
                "a1",
                "--to",
                "/nonexistent/kv.wasm",
                "--yes",
            ][..],
            "kv.wasm",
        ),
        (
            &["app", "upgrade", "--to", "x.wasm", "--yes"][..],
            "--group",
        ),
    ] {
        let r = run(home.path(), &node, args);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.err);
        assert!(r.err.contains(says), "{args:?}: {}", r.err);
    }
    assert_eq!(changes(&node), before);
}

/// Serves `body` to every GET on a loopback port the test owns (no other
/// network); its URL for `name`, and the number of downloads so far.
fn serve_build(
    body: Vec<u8>,
    name: &str,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/{name}", listener.local_addr().unwrap());
    let served = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = served.clone();
    std::thread::spawn(move || {
        for mut conn in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let _ = conn.read(&mut buf);
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/wasm\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                body.len()
            );
            let _ = conn.write_all(head.as_bytes());
            let _ = conn.write_all(&body);
        }
    });
    (url, served)
}

/// `--to URL`: the build is downloaded and gated before the node is asked
/// to install it. A breaking one is refused with nothing installed; a
/// compatible one is handed to the node's install by URL — which a node
/// refuses for a loopback address (rc.25: 400; rc.4 cannot fetch it), said
/// with the group unmoved; `--dry-run` downloads and changes nothing.
#[test]
fn a_build_from_a_url_is_read_and_gated_before_the_node_installs_it() {
    for p in [Profile::Rc4, Profile::Rc25] {
        let node = FakeNode::with_profile(p);
        let home = tempfile::tempdir().unwrap();
        let (ns, id1) = setup(home.path(), &node);
        let before = changes(&node);
        let v3 = std::fs::read(build(home.path(), "v3.wasm", retyped)).unwrap();
        let (url, served) = serve_build(v3, "kv-v3.wasm");
        let r = upgrade(home.path(), &node, &url, &["--yes", "--json"]);
        assert_eq!(r.code, Some(1), "{}: {}", p.name(), r.err);
        let v: Value = serde_json::from_str(&r.out).unwrap();
        assert!(has_finding(&v, "param-type-changed", "breaking"), "{v}");
        assert_eq!(v["source"], url.as_str());
        assert_eq!(served.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert_eq!(changes(&node), before, "nothing installed or upgraded");
        let v2 = std::fs::read(build(home.path(), "v2.wasm", added)).unwrap();
        let (url, _) = serve_build(v2, "kv-v2.wasm");
        let v = upgrade_ok(home.path(), &node, &url, &["--dry-run"]);
        assert_eq!(
            (v["refused"].clone(), v["installed"].clone()),
            (json!(false), json!(false))
        );
        assert_eq!(changes(&node), before, "a dry run changes nothing");
        let r = upgrade(home.path(), &node, &url, &["--yes"]);
        assert_ne!(
            r.code,
            Some(0),
            "{}: a loopback URL is not fetched by the node",
            p.name()
        );
        assert!(r.err.contains("error:"), "{}", r.err);
        assert_eq!(target(&node, &ns), id1, "the group still targets v1");
    }
}
