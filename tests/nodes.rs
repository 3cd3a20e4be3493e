//! Named nodes (`calimcp node add|list|use|remove|import`) and `--node NAME`:
//! the profile file in the XDG config directory, the current node as the
//! default, names resolved wherever a node is given, pins kept per URL, and
//! meroctl's nodes.toml imported without its tokens.

mod support;

use std::path::PathBuf;

use predicates::prelude::*;
use serde_json::Value;
use support::Env;
use support::fake_node::{self, FakeNode};

/// What the named-node tests ask of [`Env`]: calimcp with no
/// CALIMERO_NODE_URL (the node comes from --node or the profile).
trait NodesEnv {
    fn ok(&self, args: &[&str]) -> String;
    fn json(&self, args: &[&str]) -> Value;
    fn profile_file(&self) -> PathBuf;
}

impl NodesEnv for Env {
    fn ok(&self, args: &[&str]) -> String {
        let a = self.bare().args(args).assert().success();
        String::from_utf8_lossy(&a.get_output().stdout).into_owned()
    }

    fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.push("--json");
        serde_json::from_str(&self.ok(&all)).unwrap()
    }

    fn profile_file(&self) -> PathBuf {
        self.home.path().join(".config/calimcp/nodes.json")
    }
}

#[test]
fn nodes_are_added_listed_used_and_removed() {
    let env = Env::new();
    let node = FakeNode::start();
    // A trailing slash and a query are not kept.
    let given = format!("{}/?x=1", node.url);
    env.ok(&["node", "add", "local", &given]);
    env.ok(&["node", "add", "other", "http://127.0.0.1:9/base/"]);
    let list = env.json(&["node", "list"]);
    assert_eq!(
        list,
        serde_json::json!([
            {"name": "local", "url": node.url, "current": false},
            {"name": "other", "url": "http://127.0.0.1:9/base", "current": false},
        ])
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(env.profile_file())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // Adding a name again with another URL needs --force.
    env.bare()
        .args(["node", "add", "local", "http://127.0.0.1:1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--force"));
    // `use` marks the current node, which is the node when none is given.
    env.ok(&["node", "use", "local"]);
    let text = env.ok(&["node", "list"]);
    assert!(
        text.lines()
            .any(|l| l.starts_with('*') && l.contains("local")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| !l.starts_with('*') && l.contains("other")),
        "{text}"
    );
    let apps = env.json(&["apps"]);
    assert!(
        apps.as_array()
            .unwrap()
            .iter()
            .any(|a| a["id"] == node.id(fake_node::KV).as_str()),
        "{apps}"
    );
    assert!(!node.requests().is_empty(), "the current node was asked");
    // --node and CALIMERO_NODE_URL take a name or a URL and win over the current node.
    env.bare()
        .args(["apps", "--json", "--node", "other", "--timeout", "2"])
        .assert()
        .code(4)
        .stderr(predicate::str::contains("http://127.0.0.1:9/base"));
    env.bare()
        .env("CALIMERO_NODE_URL", "other")
        .args(["apps", "--json", "--timeout", "2"])
        .assert()
        .code(4);
    node.clear_requests();
    env.ok(&["apps", "--node", &node.url]);
    env.ok(&["apps", "--node", "local"]);
    assert!(!node.requests().is_empty());
    // Neither a URL nor a known name: a usage error listing the names.
    env.bare()
        .args(["apps", "--node", "nosuch"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "`nosuch` is neither a node URL nor a known node name",
        ))
        .stderr(predicate::str::contains("local, other"));
    // Removing the current node leaves none current.
    let removed = env.json(&["node", "remove", "local"]);
    assert_eq!(removed["was_current"], true, "{removed}");
    let list = env.json(&["node", "list"]);
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    env.bare()
        .args(["node", "use", "local"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the named nodes are: other"));
    env.bare()
        .args(["node", "remove", "local"])
        .assert()
        .code(2);
    env.ok(&["node", "use", "other"]);
    env.ok(&["node", "use", "--clear"]);
    assert_eq!(env.json(&["node", "list"])[0]["current"], false);
}

#[test]
fn names_and_urls_are_checked() {
    let env = Env::new();
    for bad in ["bad name", "_x", "a/b", "a:b", "é", "x\u{1b}[31m"] {
        let a = env
            .cmd()
            .args(["node", "add", bad, "http://127.0.0.1:1"])
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(err.contains("not a valid node name"), "{bad}: {err}");
        assert!(!err.contains('\u{1b}'), "{err}");
    }
    for bad in ["ftp://x", "127.0.0.1", "http//x"] {
        env.bare()
            .args(["node", "add", "n", bad])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("URL"));
    }
    assert!(!env.profile_file().exists(), "nothing was written");
    // Credentials in a URL are kept (the file is 0600) but never shown.
    let out = env.ok(&["node", "add", "cred", "http://u:hunter22@127.0.0.1:1"]);
    let list = env.ok(&["node", "list"]);
    let json = env.ok(&["node", "list", "--json"]);
    for text in [&out, &list, &json] {
        assert!(!text.contains("hunter22"), "{text}");
        assert!(text.contains("127.0.0.1:1"), "{text}");
    }
    std::fs::remove_file(env.profile_file()).unwrap();
    // A broken profile file is named in the error.
    std::fs::create_dir_all(env.profile_file().parent().unwrap()).unwrap();
    std::fs::write(env.profile_file(), "{not json").unwrap();
    env.bare()
        .args(["apps", "--node", "n"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nodes.json"));
}

#[test]
fn the_profile_file_follows_xdg_config_home() {
    let env = Env::new();
    let xdg = env.home.path().join("xdg");
    env.bare()
        .env("XDG_CONFIG_HOME", &xdg)
        .args(["node", "add", "n", "http://127.0.0.1:1"])
        .assert()
        .success();
    assert!(xdg.join("calimcp/nodes.json").exists());
    assert!(!env.profile_file().exists());
    // A relative XDG_CONFIG_HOME is ignored, as the specification says.
    env.bare()
        .env("XDG_CONFIG_HOME", "rel")
        .args(["node", "add", "m", "http://127.0.0.1:1"])
        .assert()
        .success();
    assert!(env.profile_file().exists());
}

#[test]
fn pins_follow_the_url_whatever_name_gave_it() {
    let env = Env::new();
    let node = FakeNode::start();
    env.ok(&["node", "add", "a", &node.url]);
    env.ok(&["node", "add", "b", &format!("{}/", node.url)]);
    let ctx = node.id(fake_node::CTX_KV);
    env.ok(&[
        "use",
        "com.calimero.kv-store",
        "--context",
        &ctx,
        "--node",
        "a",
    ]);
    let shown = env.json(&["use", "com.calimero.kv-store", "--node", "b"]);
    assert_eq!(shown["context"], ctx.as_str(), "{shown}");
    let shown = env.json(&["use", "com.calimero.kv-store", "--node", &node.url]);
    assert_eq!(shown["context"], ctx.as_str(), "{shown}");
    env.ok(&["node", "use", "b"]);
    env.ok(&["call", "kv_store_len"]);
    let sent = node.executes().last().unwrap().json();
    assert_eq!(sent["params"]["contextId"], ctx.as_str());
}

#[test]
fn meroctl_nodes_are_imported_without_their_tokens() {
    let env = Env::new();
    let meroctl = env.home.path().join(".config/calimero/meroctl");
    std::fs::create_dir_all(&meroctl).unwrap();
    std::fs::write(
        meroctl.join("nodes.toml"),
        r#"active_node = "node1"

[nodes.node1]
url = "http://127.0.0.1:2528/"

[nodes.node1.jwt_tokens]
access_token = "eyJhbGciOiJIUzI1NiJ9.eyJpYXQiOjF9.secret-access"
refresh_token = "secret-refresh"

[nodes.home]
path = "/home/u/.calimero/node1"

[nodes."bad name"]
url = "http://127.0.0.1:2529"

[nodes.taken]
url = "http://127.0.0.1:2530"
"#,
    )
    .unwrap();
    env.ok(&["node", "add", "taken", "http://127.0.0.1:1"]);
    let a = env
        .cmd()
        .args(["node", "import", "--json"])
        .assert()
        .success();
    let out: Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert_eq!(
        out["imported"],
        serde_json::json!([{"name": "node1", "url": "http://127.0.0.1:2528"}]),
        "{out}"
    );
    // meroctl's active node is the current node now (there was none).
    assert_eq!(out["current"], "node1", "{out}");
    let list = env.json(&["node", "list"]);
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|n| n["name"] == "node1" && n["current"] == true),
        "{list}"
    );
    assert!(err.contains("home: skipped, a local node"), "{err}");
    assert!(err.contains("bad name: skipped"), "{err}");
    assert!(err.contains("taken: skipped, the name exists"), "{err}");
    let file = std::fs::read_to_string(env.profile_file()).unwrap();
    assert!(!file.contains("secret"), "{file}");
    assert!(!file.contains("jwt"), "{file}");
    // No token reached calimcp's token cache either.
    let state = env.home.path().join("state");
    if state.exists() {
        for f in std::fs::read_dir(&state).unwrap().flatten() {
            let text = std::fs::read_to_string(f.path()).unwrap_or_default();
            assert!(!text.contains("secret"), "{:?}", f.path());
        }
    }
    // --force replaces a name's URL; a path names another file.
    let path = meroctl.join("nodes.toml");
    env.ok(&["node", "use", "taken"]);
    let a = env
        .cmd()
        .args([
            "node",
            "import",
            path.to_str().unwrap(),
            "--force",
            "--json",
        ])
        .assert()
        .success();
    let out: Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    // A current node chosen in calimcp stays: the active node does not override it.
    assert_eq!(out["current"], Value::Null, "{out}");
    let list = env.json(&["node", "list"]);
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|n| n["name"] == "taken" && n["current"] == true),
        "{list}"
    );
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|n| n["name"] == "taken" && n["url"] == "http://127.0.0.1:2530"),
        "{list}"
    );
    env.bare()
        .args(["node", "import", "/nonexistent/nodes.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read meroctl's node list"));
}

#[test]
fn node_names_complete_with_their_urls() {
    let env = Env::new();
    env.ok(&["node", "add", "local", "http://u:hunter22@127.0.0.1:2528"]);
    env.ok(&["node", "add", "staging", "https://staging.example/node"]);
    let complete = |words: &[&str]| -> String {
        let a = env
            .cmd()
            .env("COMPLETE", "fish")
            .arg("--")
            .arg("calimcp")
            .args(words)
            .assert()
            .success();
        String::from_utf8_lossy(&a.get_output().stdout).into_owned()
    };
    let out = complete(&["apps", "--node", "st"]);
    assert_eq!(out.trim(), "staging\thttps://staging.example/node", "{out}");
    let out = complete(&["node", "use", ""]);
    assert!(out.contains("local\thttp://127.0.0.1:2528"), "{out}");
    assert!(!out.contains("hunter22"), "{out}");
    assert!(complete(&["node", "remove", "l"]).starts_with("local"));
}

/// The `error.code` of a `--json` failure (its one line on stderr).
fn error_code(a: &assert_cmd::assert::Assert) -> String {
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    let line = err.lines().last().unwrap_or_default();
    let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {err}"));
    v["error"]["code"].as_str().unwrap_or_default().to_string()
}

/// A broken profile file, with no node given, fails only what uses the
/// node: the current node is unknown, so the first use of the node is its
/// error (never the default address instead), while local-only commands run.
#[test]
fn a_broken_profile_file_fails_only_what_uses_the_node() {
    let env = Env::new();
    let node = FakeNode::start();
    std::fs::create_dir_all(env.profile_file().parent().unwrap()).unwrap();
    std::fs::write(env.profile_file(), "{not json").unwrap();
    env.ok(&["describe", "examples/kv-store"]);
    env.ok(&["schema", "examples/kv-store", "set"]);
    env.ok(&["diff", "examples/kv-store", "examples/kv-store"]);
    env.ok(&["tools", "--apps", "examples", "--offline"]);
    env.ok(&["describe", "kv-store", "--apps", "examples"]);
    let zero = "0".repeat(64);
    // What needs the node names the file (exit 2), not "unreachable".
    for args in [
        &["apps"][..],
        &["contexts", "kv-store", "--apps", "examples"],
        &["call", "kv_store_len", "--apps", "examples"],
        &[
            "call",
            "kv_store_len",
            "--apps",
            "examples",
            "--dry-run",
            "-c",
            &zero,
        ],
        &[
            "use",
            "kv-store",
            "--apps",
            "examples",
            "--offline",
            "-c",
            &zero,
        ],
        &["auth", "token"],
        &["logout"],
    ] {
        let a = env.bare().args(args).assert().code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(
            err.contains("nodes.json") && err.contains("not valid"),
            "{args:?}: {err}"
        );
        let a = env.bare().args(args).arg("--json").assert().code(2);
        assert_eq!(error_code(&a), "unreadable", "{args:?}");
    }
    // A node given explicitly needs no profile file.
    env.ok(&["apps", "--node", &node.url]);
    assert!(!node.requests().is_empty());
    // A name given explicitly needs it: its error at once.
    let a = env
        .cmd()
        .args(["describe", "examples/kv-store", "--node", "local"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("nodes.json"), "{err}");
}

/// An unknown node name is `unknown_node` (exit 2) wherever it is given.
#[test]
fn an_unknown_node_name_has_its_own_code() {
    let env = Env::new();
    env.ok(&["node", "add", "local", "http://127.0.0.1:1"]);
    for args in [
        &["apps", "--node", "nosuch", "--json"][..],
        &["node", "use", "nosuch", "--json"],
        &["node", "remove", "nosuch", "--json"],
    ] {
        let a = env.bare().args(args).assert().code(2);
        assert_eq!(error_code(&a), "unknown_node", "{args:?}");
    }
    let a = env
        .cmd()
        .env("CALIMERO_NODE_URL", "nosuch")
        .args(["apps", "--json"])
        .assert()
        .code(2);
    assert_eq!(error_code(&a), "unknown_node");
}
