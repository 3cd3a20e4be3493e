//! The app lifecycle against the fake node (issue 43): `app install`,
//! `context create` with init arguments checked before anything is sent,
//! `context invite` on one node and `context join` on another, aliases,
//! `context delete` and `app uninstall` with their confirmations, on rc.4
//! and rc.25 (the routes' bodies differ between them), install and create
//! on rc.83 too (its recorded wire; strict bodies).

mod support;

use std::path::PathBuf;

use serde_json::{Value, json};
use support::fake_node::{self, FakeNode, Profile};
use support::json_schema::assert_valid;
use support::{calimcp, stderr_of};

const REGISTRY: &str = "com.example.registry";

fn registry_abi() -> Value {
    let text = include_str!("../testapps/registry/abi.json");
    serde_json::from_str(text).unwrap()
}

/// The registry test app's module (its ABI embedded), written to `dir`.
fn registry_wasm(dir: &std::path::Path) -> PathBuf {
    let path = dir.join("registry.wasm");
    std::fs::write(&path, fake_node::wasm_module(Some(&registry_abi()))).unwrap();
    path
}

struct Run {
    code: Option<i32>,
    out: String,
    err: String,
}

fn run(home: &std::path::Path, node: &FakeNode, args: &[&str]) -> Run {
    outcome(calimcp(home).env("CALIMERO_NODE_URL", &node.url).args(args))
}

fn outcome(cmd: &mut assert_cmd::Command) -> Run {
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code(),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn json_ok(home: &std::path::Path, node: &FakeNode, args: &[&str]) -> Value {
    let r = run(home, node, args);
    assert_eq!(r.code, Some(0), "{args:?}: {}", r.err);
    serde_json::from_str(&r.out).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", r.out))
}

fn install(home: &std::path::Path, node: &FakeNode) -> String {
    let wasm = registry_wasm(home);
    let v = json_ok(
        home,
        node,
        &[
            "app",
            "install",
            wasm.to_str().unwrap(),
            "--package",
            REGISTRY,
            "--version",
            "0.1.0",
            "--json",
        ],
    );
    assert_valid("app-install", &v);
    assert_eq!(v["package"], REGISTRY);
    assert_eq!(v["version"], "0.1.0");
    v["applicationId"].as_str().unwrap().to_string()
}

#[test]
fn install_by_path_sends_the_nodes_body_and_the_same_bytes_give_the_same_id() {
    // rc.83 (its recorded wire) refuses a body's unknown keys.
    for p in [Profile::Rc4, Profile::Rc25, Profile::Rc83] {
        let node = FakeNode::with_profile(p);
        let home = tempfile::tempdir().unwrap();
        let id = install(home.path(), &node);
        let req = node
            .requests()
            .into_iter()
            .find(|r| r.path.ends_with("/admin-api/install-dev-application"))
            .unwrap();
        let body = req.json();
        let abs = std::fs::canonicalize(home.path().join("registry.wasm")).unwrap();
        assert_eq!(body["path"], abs.to_str().unwrap(), "{}", p.name());
        assert_eq!(body["metadata"], json!([]), "metadata is a byte array");
        assert_eq!(body["package"], REGISTRY);
        // Again: not an error, the same id.
        assert_eq!(install(home.path(), &node), id);
        // The app is then a name calimcp knows, with its init.
        let r = run(home.path(), &node, &["describe", REGISTRY]);
        assert_eq!(r.code, Some(0), "{}", r.err);
    }
}

/// A bundle (.mpk) installed without --metadata: its manifest's `metadata`
/// is what the node stores; --metadata, when given, wins.
#[test]
fn a_bundles_metadata_is_the_default_and_metadata_overrides_it() {
    let node = FakeNode::with_profile(Profile::Rc4);
    let home = tempfile::tempdir().unwrap();
    let own = json!({"name": "Registry", "description": "keeps an owner"});
    let manifest = json!({
        "version": "1.0",
        "package": REGISTRY,
        "appVersion": "0.2.0",
        "metadata": own,
        "wasm": {"path": "app.wasm"},
        "abi": {"path": "abi.json"}
    });
    let bundle = home.path().join("registry.mpk");
    let bytes = support::mpk(&[
        ("manifest.json", manifest.to_string().into_bytes()),
        ("app.wasm", fake_node::wasm_module(Some(&registry_abi()))),
        ("abi.json", registry_abi().to_string().into_bytes()),
    ]);
    std::fs::write(&bundle, bytes).unwrap();
    let sent_metadata = |args: &[&str]| -> Value {
        node.clear_requests();
        let r = run(home.path(), &node, args);
        assert_eq!(r.code, Some(0), "{args:?}: {}", r.err);
        node.installed_metadata()
    };
    let path = bundle.to_str().unwrap();
    assert_eq!(sent_metadata(&["app", "install", path]), own);
    let given = json!({"name": "Mine"});
    assert_eq!(
        sent_metadata(&["app", "install", path, "--metadata", &given.to_string()]),
        given
    );
    // A module has no manifest: no metadata unless given.
    let wasm = registry_wasm(home.path());
    node.clear_requests();
    let r = run(
        home.path(),
        &node,
        &["app", "install", wasm.to_str().unwrap()],
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    let req = node
        .requests()
        .into_iter()
        .find(|r| r.path.ends_with("/admin-api/install-dev-application"))
        .unwrap();
    assert_eq!(req.json()["metadata"], json!([]));
}

#[test]
fn install_says_why_when_the_node_cannot_read_the_path_or_has_no_registry() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let home = tempfile::tempdir().unwrap();
    let wasm = registry_wasm(home.path());
    // Loaded locally first: a file that is not an app is refused before anything is sent.
    let junk = home.path().join("junk.wasm");
    std::fs::write(&junk, b"not wasm").unwrap();
    let r = run(
        home.path(),
        &node,
        &["app", "install", junk.to_str().unwrap()],
    );
    assert_eq!(r.code, Some(2), "{}", r.err);
    assert!(
        !node.requests().iter().any(|r| r.path.contains("install")),
        "nothing sent"
    );
    // An ABI the node would ignore (methods not sorted): refused, nothing sent.
    let mut abi = registry_abi();
    abi["methods"].as_array_mut().unwrap().reverse();
    let unsorted = home.path().join("unsorted.wasm");
    std::fs::write(&unsorted, fake_node::wasm_module(Some(&abi))).unwrap();
    let r = run(
        home.path(),
        &node,
        &["app", "install", unsorted.to_str().unwrap(), "--json"],
    );
    assert_eq!(r.code, Some(2), "{}", r.err);
    assert!(
        r.err.contains("\"invalid_abi\"") && r.err.contains("sorted"),
        "{}",
        r.err
    );
    assert!(!node.requests().iter().any(|r| r.path.contains("install")));
    // PACKAGE@VERSION: no registry on rc.4 / rc.25.
    let r = run(
        home.path(),
        &node,
        &["app", "install", "com.x.kv@1.0.0", "--json"],
    );
    assert_eq!(r.code, Some(2));
    assert!(r.err.contains("\"registry_unavailable\""), "{}", r.err);
    // A URL on a loopback host: rc.25 refuses it, and calimcp says what to do.
    let r = run(
        home.path(),
        &node,
        &["app", "install", "http://127.0.0.1:1/x.wasm"],
    );
    assert_eq!(r.code, Some(5), "{}", r.err);
    assert!(
        r.err.contains("non-public") && r.err.contains("public hosts"),
        "{}",
        r.err
    );
    // A path the node does not see (here: removed after the local check is impossible,
    // so a node answering "not found" is simulated by a path removed in between).
    drop(wasm);
    let gone = home.path().join("gone.wasm");
    let r = run(
        home.path(),
        &node,
        &["app", "install", gone.to_str().unwrap()],
    );
    assert_eq!(r.code, Some(2), "a missing local file: {}", r.err);
}

#[test]
fn init_arguments_are_checked_before_anything_is_sent() {
    for p in [Profile::Rc4, Profile::Rc25, Profile::Rc83] {
        let node = FakeNode::with_profile(p);
        let home = tempfile::tempdir().unwrap();
        install(home.path(), &node);
        let before = node.context_count();
        node.clear_requests();
        // Missing and wrongly typed: each named, with the init signature.
        let r = run(
            home.path(),
            &node,
            &["context", "create", REGISTRY, "--limit", "-3"],
        );
        assert_eq!(r.code, Some(2), "{}", r.err);
        assert!(r.err.contains("owner"), "{}", r.err);
        assert!(
            r.err.contains("init(owner: string, limit: u32)"),
            "{}",
            r.err
        );
        let r = run(
            home.path(),
            &node,
            &[
                "context",
                "create",
                REGISTRY,
                "--args",
                r#"{"owner":"a","limit":"x"}"#,
                "--json",
            ],
        );
        assert_eq!(r.code, Some(2));
        assert!(
            r.err.contains("\"invalid_arguments\"") && r.err.contains("limit"),
            "{}",
            r.err
        );
        // An argument init does not take.
        let r = run(
            home.path(),
            &node,
            &[
                "context", "create", REGISTRY, "--owner", "a", "--limit", "3", "--colour", "red",
            ],
        );
        assert_eq!(r.code, Some(2));
        assert!(r.err.contains("--colour"), "{}", r.err);
        assert_eq!(
            node.context_count(),
            before,
            "{}: nothing created",
            p.name()
        );
        assert!(
            !node.requests().iter().any(|r| r.method == "POST"
                && (r.path.ends_with("/admin-api/contexts") || r.path.ends_with("/namespaces"))),
            "{}: nothing sent",
            p.name()
        );
        // Good arguments: a namespace, then the context with the init JSON as bytes.
        let v = json_ok(
            home.path(),
            &node,
            &[
                "--json", "context", "create", REGISTRY, "--owner", "alice", "--limit", "10",
                "--alias", "reg",
            ],
        );
        assert_valid("context-create", &v);
        let ctx = v["contextId"].as_str().unwrap();
        assert_eq!(v["alias"], "reg");
        assert_eq!(v["namespaceId"].as_str().unwrap().len(), 64);
        let params = node.init_params(ctx).unwrap();
        let sent: Value = serde_json::from_slice(&params).unwrap();
        assert_eq!(sent, json!({"owner": "alice", "limit": 10}));
        let ns = node
            .requests()
            .into_iter()
            .find(|r| r.path.ends_with("/admin-api/namespaces"))
            .unwrap()
            .json();
        // rc.4 requires it, rc.25 ignores it; a node writing hex ids is
        // not sent it (rc.83 would refuse the key).
        let policy = (p != Profile::Rc83).then_some("LazyOnAccess");
        assert_eq!(ns["upgradePolicy"].as_str(), policy, "{}", p.name());
        assert_eq!(node.aliases().get("reg").map(String::as_str), Some(ctx));
        // The new context is usable at once.
        let r = run(home.path(), &node, &["contexts", REGISTRY, "--json"]);
        assert!(r.out.contains(ctx), "{}", r.out);
    }
}

#[test]
fn calling_init_says_to_create_a_context() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    install(home.path(), &node);
    let r = run(home.path(), &node, &["call", &format!("{REGISTRY}.init")]);
    assert_eq!(r.code, Some(2), "{}", r.err);
    assert!(
        r.err
            .contains("calimcp context create com.example.registry")
            && r.err.contains("init(owner: string, limit: u32)"),
        "{}",
        r.err
    );
}

#[test]
fn an_init_without_parameters_refuses_arguments() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let r = run(
        home.path(),
        &node,
        &[
            "context",
            "create",
            "com.calimero.kv-store",
            "--args",
            r#"{"x":1}"#,
        ],
    );
    assert_eq!(r.code, Some(2), "{}", r.err);
    assert!(r.err.contains("takes no arguments"), "{}", r.err);
}

/// `calimcp ARGS` with no node in the environment (the line names it).
fn run_bare(home: &std::path::Path, args: &[&str]) -> Run {
    outcome(calimcp(home).args(args))
}

/// calimcp's global options work anywhere on a `context create` line, as on
/// `call`'s: after APP, between the init flags, at the end; so do
/// `create`'s own options (the line is parsed by the rule `call` uses).
#[test]
fn global_options_work_anywhere_on_a_create_line() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let home = tempfile::tempdir().unwrap();
    install(home.path(), &node);
    let url = node.url.as_str();
    let r = run_bare(
        home.path(),
        &[
            "context", "create", REGISTRY, "--owner", "alice", "--node", url, "--limit", "7",
            "--alias", "reg", "--json",
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    let v: Value = serde_json::from_str(&r.out).unwrap_or_else(|e| panic!("{e}: {}", r.out));
    assert_valid("context-create", &v);
    assert_eq!(v["alias"], "reg");
    let ctx = v["contextId"].as_str().unwrap();
    let sent: Value = serde_json::from_slice(&node.init_params(ctx).unwrap()).unwrap();
    assert_eq!(sent, json!({"owner": "alice", "limit": 7}));
    // `--node=URL` right after APP, `--args` after a global one, `--json` first.
    let r = run_bare(
        home.path(),
        &[
            "--json",
            "context",
            "create",
            REGISTRY,
            &format!("--node={url}"),
            "--args",
            r#"{"owner":"bob","limit":1}"#,
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    // Errors follow a `--json` given after the init arguments too.
    let before = node.context_count();
    let r = run_bare(
        home.path(),
        &[
            "context", "create", REGISTRY, "--owner", "a", "--limit", "x", "--node", url, "--json",
        ],
    );
    assert_eq!(r.code, Some(2), "{}", r.err);
    assert!(
        r.err.contains("\"invalid_arguments\"") && r.err.contains("--limit"),
        "{}",
        r.err
    );
    // An init that takes none: an init flag is a usage error, wherever --node is.
    let r = run_bare(
        home.path(),
        &[
            "context",
            "create",
            "com.calimero.kv-store",
            "--node",
            url,
            "--x",
            "1",
        ],
    );
    assert_eq!(r.code, Some(2), "{}", r.err);
    assert!(
        r.err.contains("`--x`") && r.err.contains("takes no arguments"),
        "{}",
        r.err
    );
    assert_eq!(node.context_count(), before, "nothing created");
}

/// On a terminal, the required init arguments not given are asked for (an
/// answer `init`'s schema refuses is asked again) and the command without
/// prompts is shown; `--no-input` and `--json` never ask; off a terminal a
/// missing one is the error it always was
/// (`init_arguments_are_checked_before_anything_is_sent`).
#[test]
fn missing_init_arguments_are_asked_for_on_a_terminal() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let home = tempfile::tempdir().unwrap();
    install(home.path(), &node);
    let before = node.context_count();
    let args = format!(
        "--node {} context create {REGISTRY} --owner alice --alias reg",
        node.url
    );
    // `-1` is refused for a u32 and asked again.
    let Some(out) = support::on_a_terminal(home.path(), &args, "-1\n12\n") else {
        return;
    };
    assert!(out.contains("limit (u32)"), "{out}");
    assert!(out.contains("-1"), "{out}");
    assert!(
        out.contains(&format!(
            "the same command without prompts:\r\n  calimcp {args} --limit 12"
        )),
        "{out}"
    );
    assert_eq!(node.context_count(), before + 1, "{out}");
    let ctx = node.aliases().get("reg").cloned().unwrap();
    let sent: Value = serde_json::from_slice(&node.init_params(&ctx).unwrap()).unwrap();
    assert_eq!(sent, json!({"owner": "alice", "limit": 12}));
    for flag in ["--no-input", "--json"] {
        let out = support::on_a_terminal(home.path(), &format!("{args} {flag}"), "12\n").unwrap();
        assert!(
            out.contains("limit") && !out.contains("limit (u32)"),
            "{flag}: {out}"
        );
        assert_eq!(
            node.context_count(),
            before + 1,
            "{flag}: nothing created: {out}"
        );
    }
}

#[test]
fn invite_on_one_node_join_on_another_then_alias_delete_uninstall() {
    for p in [Profile::Rc4, Profile::Rc25] {
        let n1 = FakeNode::with_profile(p);
        let n2 = FakeNode::with_profile(p);
        let home = tempfile::tempdir().unwrap();
        install(home.path(), &n1);
        let v = json_ok(
            home.path(),
            &n1,
            &[
                "context",
                "create",
                REGISTRY,
                "--args",
                r#"{"owner":"o","limit":1}"#,
                "--json",
            ],
        );
        let (ctx, ns) = (
            v["contextId"].as_str().unwrap().to_string(),
            v["namespaceId"].as_str().unwrap().to_string(),
        );
        let file = home.path().join("inv.json");
        let r = run(
            home.path(),
            &n1,
            &["context", "invite", &ctx, "-o", file.to_str().unwrap()],
        );
        assert_eq!(r.code, Some(0), "{}", r.err);
        let inv: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_valid("context-invite", &inv);
        assert_eq!(inv["namespaceId"], ns.as_str());
        assert_eq!(inv["contextId"], ctx.as_str());
        assert_eq!(
            inv["invitation"].get("inviter_account").is_some(),
            p == Profile::Rc25,
            "the node's object, verbatim"
        );
        // Node 2 gets the app and the state by joining.
        n2.offer(
            &ns,
            &ctx,
            fake_node::wasm_module(Some(&registry_abi())),
            registry_abi(),
        );
        let v = json_ok(
            home.path(),
            &n2,
            &[
                "context",
                "join",
                file.to_str().unwrap(),
                "--alias",
                "reg2",
                "--json",
            ],
        );
        assert_valid("context-join", &v);
        assert_eq!(v["contextId"], ctx.as_str(), "{}", p.name());
        assert_eq!(v["ready"], true);
        assert_eq!(v["alias"], "reg2");
        let join = n2
            .requests()
            .into_iter()
            .find(|r| r.path.ends_with("/join") && r.path.contains("namespaces"))
            .unwrap()
            .json();
        assert_eq!(join["invitation"], inv["invitation"], "sent byte for byte");
        // A second join is not an error (what is done is not repeated by the node).
        json_ok(
            home.path(),
            &n2,
            &["context", "join", file.to_str().unwrap(), "--json"],
        );
        // Aliases.
        let rows = json_ok(home.path(), &n2, &["context", "alias", "list", "--json"]);
        assert_valid("context-alias-list", &rows);
        assert!(
            rows.as_array()
                .unwrap()
                .iter()
                .any(|r| r["alias"] == "reg2")
        );
        let r = run(
            home.path(),
            &n2,
            &["context", "alias", "add", "reg2", &ctx, "--json"],
        );
        assert_eq!(r.code, Some(2), "a duplicate alias: {}", r.err);
        assert!(r.err.contains("\"alias_taken\""), "{}: {}", p.name(), r.err);
        json_ok(
            home.path(),
            &n2,
            &["context", "alias", "remove", "reg2", "--json"],
        );
        assert!(!n2.aliases().contains_key("reg2"));
        // Delete: off a terminal --yes is required.
        let r = run(home.path(), &n1, &["context", "delete", &ctx]);
        assert_eq!(r.code, Some(2));
        assert!(r.err.contains("--yes"), "{}", r.err);
        // Uninstall is refused while the context runs the app.
        let r = run(
            home.path(),
            &n1,
            &["app", "uninstall", REGISTRY, "--yes", "--json"],
        );
        assert_eq!(r.code, Some(2), "{}", r.err);
        assert!(
            r.err.contains("\"app_in_use\"") && r.err.contains(&ctx),
            "{}",
            r.err
        );
        let v = json_ok(
            home.path(),
            &n1,
            &["context", "delete", &ctx, "--yes", "--json"],
        );
        assert_eq!(v["deleted"], true, "{}", p.name());
        if p == Profile::Rc4 {
            let del = n1
                .requests()
                .into_iter()
                .rfind(|r| r.method == "DELETE")
                .unwrap()
                .json();
            assert!(
                del["requester"].is_string(),
                "rc.4 needs the requester: {del}"
            );
        }
        let v = json_ok(
            home.path(),
            &n1,
            &["app", "uninstall", REGISTRY, "--yes", "--json"],
        );
        assert_eq!(v["applicationIds"].as_array().unwrap().len(), 1);
        let r = run(home.path(), &n1, &["describe", REGISTRY]);
        assert_eq!(r.code, Some(2), "gone: {}", r.err);
    }
}

#[test]
fn a_join_that_does_not_complete_says_what_it_waits_for() {
    let n1 = FakeNode::with_profile(Profile::Rc25);
    let n2 = FakeNode::with_profile(Profile::Rc25);
    let home = tempfile::tempdir().unwrap();
    install(home.path(), &n1);
    let v = json_ok(
        home.path(),
        &n1,
        &[
            "context",
            "create",
            REGISTRY,
            "--args",
            r#"{"owner":"o","limit":1}"#,
            "--json",
        ],
    );
    let ctx = v["contextId"].as_str().unwrap().to_string();
    let file = home.path().join("inv.json");
    assert_eq!(
        run(
            home.path(),
            &n1,
            &["context", "invite", &ctx, "-o", file.to_str().unwrap()]
        )
        .code,
        Some(0)
    );
    // Node 2 never learns of the context (nothing offered).
    let r = run(
        home.path(),
        &n2,
        &[
            "context",
            "join",
            file.to_str().unwrap(),
            "--within",
            "1",
            "--json",
        ],
    );
    assert_eq!(r.code, Some(124), "{}", r.err);
    assert!(r.err.contains("\"join_incomplete\""), "{}", r.err);
    assert!(r.err.contains("namespace was joined"), "{}", r.err);
    // A file that is not an invitation.
    let bad = home.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"namespaceId":"zz","contextId":"x","invitation":{}}"#,
    )
    .unwrap();
    let r = run(
        home.path(),
        &n2,
        &["context", "join", bad.to_str().unwrap(), "--json"],
    );
    assert_eq!(r.code, Some(2));
    assert!(r.err.contains("\"invalid_invitation\""), "{}", r.err);
    let _ = stderr_of;
}
