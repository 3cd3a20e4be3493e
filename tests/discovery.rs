//! Finding the local node with no `--node`, no CALIMERO_NODE_URL and no
//! current node: the desktop app's hand-off file
//! (`~/.config/calimero/mcp/agent.json`, loopback only, its token sent as
//! the bearer), then the one node home under `~/.calimero` (or
//! CALIMERO_HOME; `default` among several), then a node listening on a
//! probed loopback port (`CALIMCP_PROBE_PORTS` names the test's ports), in a
//! scratch HOME, against the fake node.

mod support;

use std::path::Path;

use predicates::prelude::*;
use support::Env;
use support::fake_node::{FakeNode, closed_port_url};

const TOKEN: &str = "handoff-access-token-7f3a";

/// Writes the desktop app's hand-off file as it writes it
/// (`{nodeUrl, accessToken, refreshToken}`: ../shared/reference/prior-art-mero-mcp.md §2.4).
fn handoff(home: &Path, url: &str) {
    let dir = home.join(".config/calimero/mcp");
    std::fs::create_dir_all(&dir).unwrap();
    let body = serde_json::json!({"nodeUrl": url, "accessToken": TOKEN, "refreshToken": "r-1"});
    std::fs::write(dir.join("agent.json"), body.to_string()).unwrap();
}

/// A node home `NAME` under `dir` whose config.toml listens on `url`'s port,
/// as `merod init` writes its `[server]` table.
fn node_home(dir: &Path, name: &str, url: &str) {
    let port = url.rsplit(':').next().unwrap();
    let home = dir.join(name);
    std::fs::create_dir_all(&home).unwrap();
    let config = format!(
        "[identity]\npeer_id = \"x\"\n\n[swarm]\nlisten = [\"/ip4/0.0.0.0/tcp/2528\"]\n\n[server]\nlisten = [\n    \"/ip4/127.0.0.1/tcp/{port}\",\n    \"/ip6/::1/tcp/{port}\",\n]\n"
    );
    std::fs::write(home.join("config.toml"), config).unwrap();
}

fn bearers(node: &FakeNode) -> Vec<String> {
    node.requests()
        .iter()
        .filter_map(|r| r.header("authorization").map(str::to_string))
        .collect()
}

fn apps(env: &Env) -> assert_cmd::assert::Assert {
    env.bare()
        .args(["apps", "--json", "--timeout", "5"])
        .assert()
}

#[test]
fn the_handoff_file_names_the_node_and_its_token_is_the_bearer() {
    let env = Env::new();
    handoff(env.home.path(), &env.node.url);
    let a = apps(&env).success();
    let out = a.get_output();
    assert!(
        !env.node.requests().is_empty(),
        "the hand-off node was asked"
    );
    let sent = bearers(&env.node);
    assert!(
        !sent.is_empty() && sent.iter().all(|b| b == &format!("Bearer {TOKEN}")),
        "{sent:?}"
    );
    // -v says where the node came from, and never prints the token.
    let v = env
        .bare()
        .args(["apps", "-v", "--timeout", "5"])
        .assert()
        .success();
    let all = format!(
        "{}{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&v.get_output().stdout),
        String::from_utf8_lossy(&v.get_output().stderr)
    );
    assert!(all.contains("hand-off file"), "{all}");
    assert!(!all.contains(TOKEN), "{all}");
    let list = env.bare().args(["node", "list"]).assert().success();
    let err = support::stderr_of(&list);
    assert!(
        err.contains(&env.node.url) && err.contains("hand-off file"),
        "{err}"
    );
}

#[test]
fn a_handoff_to_another_host_is_ignored_with_a_warning() {
    let env = Env::new();
    handoff(env.home.path(), "http://10.255.255.1:2528");
    node_home(&env.home.path().join(".calimero"), "default", &env.node.url);
    let a = apps(&env).success();
    let err = support::stderr_of(&a);
    assert!(
        err.contains("hand-off file") && err.contains("ignored"),
        "{err}"
    );
    assert!(!err.contains(TOKEN), "{err}");
    assert!(!env.node.requests().is_empty(), "the node home was used");
    assert!(bearers(&env.node).is_empty(), "{:?}", bearers(&env.node));
}

#[test]
fn the_one_node_home_is_the_node() {
    let env = Env::new();
    node_home(&env.home.path().join(".calimero"), "node1", &env.node.url);
    apps(&env).success();
    assert!(!env.node.requests().is_empty());
    // CALIMERO_HOME replaces ~/.calimero.
    let other = tempfile::tempdir().unwrap();
    let node2 = FakeNode::start();
    node_home(other.path(), "n", &node2.url);
    env.bare()
        .env("CALIMERO_HOME", other.path())
        .args(["apps", "--json", "--timeout", "5"])
        .assert()
        .success();
    assert!(!node2.requests().is_empty());
}

#[test]
fn among_several_node_homes_default_is_the_node() {
    let env = Env::new();
    let dir = env.home.path().join(".calimero");
    node_home(&dir, "a", &closed_port_url());
    node_home(&dir, "default", &env.node.url);
    node_home(&dir, "z", &closed_port_url());
    apps(&env).success();
    assert!(!env.node.requests().is_empty());
}

#[test]
fn several_node_homes_and_no_default_is_a_usage_error_naming_them() {
    let env = Env::new();
    let dir = env.home.path().join(".calimero");
    node_home(&dir, "alpha", &env.node.url);
    node_home(&dir, "beta", &closed_port_url());
    apps(&env)
        .code(2)
        .stderr(predicate::str::contains("several nodes found"))
        .stderr(predicate::str::contains("alpha"))
        .stderr(predicate::str::contains("beta"))
        .stderr(predicate::str::contains("--node"))
        .stderr(predicate::str::contains("calimcp node use"));
    assert!(env.node.requests().is_empty());
    // A command that never uses the node still runs.
    env.bare()
        .args(["schema", "examples/every-kind.json"])
        .assert()
        .success();
}

#[test]
fn a_given_or_current_node_wins_over_the_found_ones() {
    let env = Env::new();
    let found = FakeNode::start();
    handoff(env.home.path(), &found.url);
    node_home(&env.home.path().join(".calimero"), "default", &found.url);
    let given = &env.node;
    env.bare()
        .args(["apps", "--json", "--node", &given.url])
        .assert()
        .success();
    env.bare()
        .env("CALIMERO_NODE_URL", &given.url)
        .args(["apps", "--json"])
        .assert()
        .success();
    env.bare()
        .args(["node", "add", "mine", &given.url])
        .assert()
        .success();
    env.bare().args(["node", "use", "mine"]).assert().success();
    apps(&env).success();
    assert!(!given.requests().is_empty());
    assert!(found.requests().is_empty(), "{:?}", found.requests());
    assert!(bearers(given).is_empty(), "{:?}", bearers(given));
}

#[test]
fn with_nothing_configured_a_node_on_a_probed_port_is_the_node() {
    let env = Env::new();
    let port = env.node.url.rsplit(':').next().unwrap().to_string();
    let closed = closed_port_url();
    let closed = closed.rsplit(':').next().unwrap();
    let ports = format!("{closed},{port}");
    env.bare()
        .env("CALIMCP_PROBE_PORTS", &ports)
        .args(["apps", "--json", "--timeout", "5"])
        .assert()
        .success();
    assert!(!env.node.requests().is_empty(), "the probed node was asked");
    env.bare()
        .env("CALIMCP_PROBE_PORTS", &ports)
        .args(["node", "list"])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "a node listening on 127.0.0.1:{port} (probed)"
        )));
    // Two answering: which one is not guessed.
    let other = FakeNode::start();
    let other_port = other.url.rsplit(':').next().unwrap();
    env.bare()
        .env("CALIMCP_PROBE_PORTS", format!("{port},{other_port}"))
        .args(["apps", "--json", "--timeout", "5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "several ports on this machine answer",
        ))
        .stderr(predicate::str::contains("--node"));
    // A list that is not ports is said.
    env.bare()
        .env("CALIMCP_PROBE_PORTS", "2528,x")
        .args(["apps", "--json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("CALIMCP_PROBE_PORTS=2528,x"));
}
