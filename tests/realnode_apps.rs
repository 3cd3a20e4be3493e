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

#[test]
fn a_node_only_app_is_described_and_called_through_an_alias() {
    let Some(node) = RealNode::start("a_node_only_app_is_described_and_called_through_an_alias")
    else {
        return;
    };
    node.setup(
        &realnode_support::shared_kv_app(),
        "com.example.kv-c",
        Some("kvmain"),
    );
    // The ABI comes from the bytecode blob (rc.4 has no ABI route).
    let out = node
        .calimcp()
        .args(["describe", "com.example.kv-c"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("add(a: u64, b: u64) -> u64"), "{text}");
    let out = node
        .calimcp()
        .args([
            "call",
            "com.example.kv-c.add",
            "-c",
            "kvmain",
            "--a",
            "2",
            "--b",
            "40",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "42");
}
