//! calimcp against a real Calimero node (issue 13): the harness and the
//! first end-to-end checks.

mod realnode_support;

use assert_cmd::Command;
use realnode_support::RealNode;

#[test]
fn apps_on_an_empty_real_node_reaches_it() {
    let Some(node) = RealNode::start("apps_on_an_empty_real_node_reaches_it") else {
        return;
    };
    let out = Command::cargo_bin("calimcp")
        .unwrap()
        .args(["apps", "--json", "--node", &node.url])
        .env("CALIMCP_STATE_DIR", node_state())
        .output()
        .unwrap();
    // An empty node is reached (not `unreachable`) and reports it has no apps.
    let err =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("no_apps"), "{err}");
    assert!(!err.contains("unreachable"), "{err}");
}

fn node_state() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("calimcp-realnode-{}", std::process::id()))
}
