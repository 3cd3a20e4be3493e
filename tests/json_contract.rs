//! Every `--json` output validates against its published schema
//! (docs/json/COMMAND.schema.json, generated from the types that print it:
//! tests/generated.rs keeps the files current). Each command runs on the
//! example apps, the shared ABI fixtures or the fake node, in the cases that
//! give its output different shapes (one service or several, a node app
//! with versions and contexts, an error with problems or contexts).
//! `watch --json` lines, and the `note` and `error` lines it writes on
//! stderr, are checked in tests/watch.rs.

mod support;

use std::path::Path;

use serde_json::Value;
use support::calimcp;
use support::fake_node::{self, FakeNode};
use support::json_schema::assert_valid;

fn stdout_json(a: &assert_cmd::assert::Assert) -> Value {
    serde_json::from_slice(&a.get_output().stdout).expect("JSON on stdout")
}

/// The one JSON line a failing `--json` command writes on stderr.
fn stderr_json(a: &assert_cmd::assert::Assert) -> Value {
    let err = String::from_utf8_lossy(&a.get_output().stderr);
    let line = err
        .lines()
        .find(|l| l.starts_with("{\"error\""))
        .unwrap_or_else(|| panic!("no error line in {err}"));
    serde_json::from_str(line).unwrap()
}

/// `calimcp ARGS` with the fake node as the node.
fn on_node(node: &FakeNode, home: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut c = calimcp(home);
    c.env("CALIMERO_NODE_URL", &node.url).args(args);
    c
}

#[test]
fn local_outputs_validate() {
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let a = calimcp(home.path())
            .args(["--offline", "--apps", "examples"])
            .args(args)
            .assert()
            .success();
        stdout_json(&a)
    };
    let apps = run(&["apps", "--json"]);
    assert!(apps.as_array().is_some_and(|a| a.len() >= 3), "{apps}");
    assert_valid("apps", &apps);
    // One service (an object) and several (an array).
    for app in ["kv-store", "examples/multi-service"] {
        assert_valid("describe", &run(&["describe", app, "--json"]));
    }
    let several = run(&["describe", "examples/multi-service", "--json"]);
    assert!(several.is_array(), "{several}");
    assert_valid("tools", &run(&["tools", "--json"]));
    for args in [
        &["schema", "kv-store"][..],
        &["schema", "kv-store", "--output"],
        &["schema", "kv-store", "get"],
        &["schema", "kv-store", "clear", "--output"],
        &["schema", "examples/multi-service"],
    ] {
        assert_valid("schema", &run(args));
    }
    // An empty listing is an empty array too.
    let empty = tempfile::tempdir().unwrap();
    let a = calimcp(home.path())
        .args(["--offline", "--apps"])
        .arg(empty.path())
        .args(["apps", "--json"])
        .assert()
        .success();
    assert_valid("apps", &stdout_json(&a));
}

#[test]
fn describe_validates_on_every_shared_fixture() {
    let Some(dir) = support::fixtures("describe_validates_on_every_shared_fixture") else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let a = calimcp(home.path())
            .args(["--offline", "describe"])
            .arg(&path)
            .arg("--json")
            .assert();
        // A fixture calimcp refuses is an error line, in its schema too.
        let out = a.get_output();
        if out.status.success() {
            assert_valid("describe", &stdout_json(&a));
            seen += 1;
        } else {
            assert_valid("error", &stderr_json(&a));
        }
    }
    assert!(seen > 0, "no fixture in {}", dir.display());
}

#[test]
fn diff_validates_with_findings_and_without() {
    let home = tempfile::tempdir().unwrap();
    let diff = |old: &str, new: &str| {
        let a = calimcp(home.path())
            .args(["--offline", "diff", old, new, "--json", "--fail-on", "none"])
            .assert()
            .success();
        stdout_json(&a)
    };
    let v = diff("examples/older/kv-store.json", "examples/kv-store");
    assert!(
        v["findings"].as_array().is_some_and(|f| !f.is_empty()),
        "{v}"
    );
    assert_valid("diff", &v);
    assert_valid(
        "diff",
        &diff("examples/multi-service", "examples/multi-service"),
    );
}

#[test]
fn node_outputs_validate() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| stdout_json(&on_node(&node, home.path(), args).assert().success());
    let apps = run(&["apps", "--json"]);
    assert!(
        apps.as_array()
            .unwrap()
            .iter()
            .any(|a| a["versions"].as_array().is_some_and(|v| !v.is_empty())),
        "a node app lists its versions: {apps}"
    );
    assert_valid("apps", &apps);
    // A node app's description carries its contexts.
    let kv = run(&["describe", "kv-store", "--json"]);
    assert!(kv["contexts"].is_array(), "{kv}");
    assert_valid("describe", &kv);
    assert_valid("describe", &run(&["describe", "notebook", "--json"]));
    assert_valid("contexts", &run(&["contexts", "--json"]));
    assert_valid("tools", &run(&["tools", "kv-store", "--json"]));
    // use: unpinned (with the contexts), pinned, and cleared.
    let unpinned = run(&["use", "notebook", "--service", "pages", "--json"]);
    assert!(unpinned["contexts"].is_array(), "{unpinned}");
    assert_valid("use", &unpinned);
    assert_valid(
        "use",
        &run(&["use", "kv-store", "--context", "prod", "--json"]),
    );
    assert_valid("use", &run(&["use", "kv-store", "--json"]));
    assert_valid("use", &run(&["use", "kv-store", "--clear", "--json"]));
    let ctx = node.id(fake_node::CTX_KV);
    assert_valid("wait", &run(&["wait", &ctx, "--json"]));
    // node list: empty, then with a named node.
    assert_valid("node-list", &run(&["node", "list", "--json"]));
    on_node(&node, home.path(), &["node", "add", "fake", &node.url])
        .assert()
        .success();
    let nodes = run(&["node", "list", "--json"]);
    assert_eq!(nodes.as_array().map(Vec::len), Some(1), "{nodes}");
    assert_valid("node-list", &nodes);
}

#[test]
fn auth_status_validates() {
    let node = FakeNode::builder().auth("admin", "s3cret").start();
    let home = tempfile::tempdir().unwrap();
    assert_valid(
        "auth-status",
        &stdout_json(
            &on_node(&node, home.path(), &["auth", "status", "--json"])
                .assert()
                .success(),
        ),
    );
    on_node(
        &node,
        home.path(),
        &["login", "-u", "admin", "--password-stdin"],
    )
    .write_stdin("s3cret\n")
    .assert()
    .success();
    let v = stdout_json(
        &on_node(&node, home.path(), &["auth", "status", "--json"])
            .assert()
            .success(),
    );
    assert_eq!(v.as_array().map(Vec::len), Some(1), "{v}");
    assert_valid("auth-status", &v);
}

#[test]
fn error_lines_validate() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let failed = |args: &[&str]| stderr_json(&on_node(&node, home.path(), args).assert().failure());
    // A plain error.
    let unknown = failed(&[
        "--offline",
        "--apps",
        "examples",
        "describe",
        "nosuch",
        "--json",
    ]);
    assert_valid("error", &unknown);
    // Bad arguments: problems.
    let bad = failed(&[
        "--apps",
        "examples",
        "call",
        "every_kind_echo_scalars",
        "--u64",
        "many",
        "--json",
    ]);
    assert!(bad["error"]["problems"].is_array(), "{bad}");
    assert_valid("error", &bad);
    // Several contexts and none chosen: the contexts to choose from.
    let choose = failed(&["call", "notebook_pages_words", "--json"]);
    assert!(choose["error"]["contexts"].is_array(), "{choose}");
    assert_valid("error", &choose);
}

#[test]
fn call_outputs_validate() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| stdout_json(&on_node(&node, home.path(), args).assert().success());
    let set = [
        "call",
        "kv_store_set",
        "--key",
        "a",
        "--value",
        "1",
        "-c",
        "prod",
    ];
    // A method that returns nothing prints null; one that does, its result.
    let unit = run(&[&set[..], &["--json"]].concat());
    assert!(unit.is_null(), "{unit}");
    assert_valid("call", &unit);
    let get = ["call", "kv_store_get", "--key", "a", "-c", "prod", "--json"];
    let got = run(&get);
    assert_eq!(got, "1");
    assert_valid("call", &got);
    assert_valid("call", &run(&[&get[..], &["--until", "\"1\""]].concat()));
    let dry = run(&["call", "kv_store_len", "--dry-run", "--json", "-c", "prod"]);
    assert_eq!(dry["method"], "POST", "{dry}");
    assert_eq!(dry["body"]["method"], "execute", "{dry}");
    assert_valid("call-dry-run", &dry);
    let waited = run(&[
        &set[..],
        &["--json", "--wait-event", "Inserted", "--wait-timeout", "30"],
    ]
    .concat());
    assert_eq!(waited["event"]["event"], "Inserted", "{waited}");
    assert!(waited["result"].is_null(), "{waited}");
    assert_valid("call-wait-event", &waited);
}

#[test]
fn login_logout_and_token_validate() {
    let node = FakeNode::builder().auth("admin", "s3cret").start();
    let home = tempfile::tempdir().unwrap();
    let login = |args: &[&str]| {
        stdout_json(
            &on_node(&node, home.path(), args)
                .args(["login", "-u", "admin", "--password-stdin", "--json"])
                .write_stdin("s3cret\n")
                .assert()
                .success(),
        )
    };
    let v = login(&[]);
    assert!(v["name"].is_null(), "{v}");
    assert_valid("login", &v);
    // Through a name, the name is said.
    on_node(&node, home.path(), &["node", "add", "fake", &node.url])
        .assert()
        .success();
    let named = login(&["--node", "fake"]);
    assert_eq!(named["name"], "fake", "{named}");
    assert_valid("login", &named);
    let token = stdout_json(
        &on_node(&node, home.path(), &["auth", "token", "--json"])
            .assert()
            .success(),
    );
    assert!(
        token["token"].as_str().is_some_and(|t| !t.is_empty()),
        "{token}"
    );
    assert_valid("auth-token", &token);
    let logout = |home: &Path| {
        stdout_json(
            &on_node(&node, home, &["logout", "--json"])
                .assert()
                .success(),
        )
    };
    let out = logout(home.path());
    assert_eq!(out["logged_out"], serde_json::json!(["admin"]), "{out}");
    assert_valid("logout", &out);
    // Nobody logged in: an empty list.
    let again = logout(home.path());
    assert_eq!(again["logged_out"], serde_json::json!([]), "{again}");
    assert_valid("logout", &again);
}

#[test]
fn node_changes_validate() {
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        stdout_json(
            &calimcp(home.path())
                .arg("node")
                .args(args)
                .arg("--json")
                .assert()
                .success(),
        )
    };
    let added = run(&["add", "a", "http://127.0.0.1:2528"]);
    assert_eq!(added["name"], "a", "{added}");
    assert_valid("node-add", &added);
    let used = run(&["use", "a"]);
    assert_eq!(used["url"], "http://127.0.0.1:2528", "{used}");
    assert_valid("node-use", &used);
    let cleared = run(&["use", "--clear"]);
    assert!(cleared["current"].is_null(), "{cleared}");
    assert_valid("node-use", &cleared);
    let removed = run(&["remove", "a"]);
    assert_eq!(removed["was_current"], false, "{removed}");
    assert_valid("node-remove", &removed);
    // import: no meroctl list, then one with a node.
    assert_valid("node-import", &run(&["import"]));
    let meroctl = home.path().join(".config/calimero/meroctl");
    std::fs::create_dir_all(&meroctl).unwrap();
    std::fs::write(
        meroctl.join("nodes.toml"),
        "active_node = \"n1\"\n\n[nodes.n1]\nurl = \"http://127.0.0.1:2529\"\n",
    )
    .unwrap();
    let imported = run(&["import"]);
    assert_eq!(imported["current"], "n1", "{imported}");
    assert_eq!(
        imported["imported"].as_array().map(Vec::len),
        Some(1),
        "{imported}"
    );
    assert_valid("node-import", &imported);
}
