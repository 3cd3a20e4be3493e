//! MCP `upgrade_app` (issue 45) against the fake node, rc.4 and rc.25: the
//! same gate as `calimcp app upgrade`; a breaking build is an error result
//! whose structured content lists the findings as data (rule, path, level,
//! message) with nothing installed or moved; a compatible one upgrades the
//! group; a path outside `--install-from` is never read.

use crate::support;

use serde_json::{Value, json};
use support::fake_node::{self, FakeNode, Profile};
use support::serve::*;

fn kv_build(dir: &std::path::Path, name: &str, edit: impl FnOnce(&mut Value)) -> String {
    let path = fake_node::kv_build(dir, name, edit);
    path.to_str().unwrap().to_string()
}

fn cli(home: &std::path::Path, node: &FakeNode, args: &[&str]) -> Value {
    let out = support::calimcp(home)
        .args(["--node", &node.url, "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Installs, creates a context aliased `a1`; the namespace.
fn setup(home: &std::path::Path, node: &FakeNode, v1: &str) -> String {
    cli(
        home,
        node,
        &[
            "app",
            "install",
            v1,
            "--package",
            "com.example.kv",
            "--version",
            "0.1.0",
        ],
    );
    let c = cli(
        home,
        node,
        &["context", "create", "com.example.kv", "--alias", "a1"],
    );
    c["namespaceId"].as_str().unwrap().to_string()
}

fn changes(node: &FakeNode) -> usize {
    node.installs_and_upgrades().len()
}

#[tokio::test]
async fn a_breaking_build_is_refused_with_its_findings_as_data_and_a_compatible_one_upgrades() {
    for p in [Profile::Rc4, Profile::Rc25] {
        let node = FakeNode::with_profile(p);
        let dir = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let v1 = kv_build(dir.path(), "v1.wasm", |_| {});
        let ns = setup(home.path(), &node, &v1);
        let before_target = node.namespace_target(&ns).unwrap();
        let retyped = kv_build(dir.path(), "v3.wasm", |abi| {
            for m in abi["methods"].as_array_mut().unwrap() {
                if m["name"] == "echo" {
                    m["params"][0]["type"] = json!({"kind": "u64"});
                }
            }
        });
        let added = kv_build(dir.path(), "v2.wasm", |abi| {
            let methods = abi["methods"].as_array_mut().unwrap();
            methods.push(json!({"name": "version", "params": [], "returns": {"kind": "string"}}));
            methods.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
        });
        let from = dir.path().to_str().unwrap();
        let client = stdio_client(&[
            "--node",
            &node.url,
            "--toolsets",
            "lifecycle",
            "--install-from",
            from,
        ])
        .await;
        let before = changes(&node);
        let r = call(
            &client,
            "upgrade_app",
            json!({"context": "a1", "to": retyped}),
        )
        .await
        .unwrap();
        assert_eq!(r.is_error, Some(true), "{}", text(&r));
        let data = r.structured_content.clone().expect("the findings as data");
        assert_eq!(data["refused"], true);
        // Errors as data: the error beside the findings, as for any failure.
        assert_eq!(data["error"]["code"], "findings", "{data}");
        let f = data["findings"].as_array().unwrap();
        assert!(
            f.iter().any(|f| f["rule"] == "param-type-changed"
                && f["path"] == "echo.params.message"
                && f["level"] == "breaking"
                && f["message"].as_str().is_some_and(|m| !m.is_empty())),
            "{data}"
        );
        assert_eq!(changes(&node), before, "nothing installed or moved");
        assert_eq!(node.namespace_target(&ns).unwrap(), before_target);
        // The compatible build goes through.
        let r = call(
            &client,
            "upgrade_app",
            json!({"context": "a1", "to": added, "version": "0.2.0"}),
        )
        .await
        .unwrap();
        assert_ne!(r.is_error, Some(true), "{}", text(&r));
        let done = r.structured_content.unwrap();
        assert_eq!(done["upgraded"], true, "{done}");
        assert_eq!(
            node.namespace_target(&ns).unwrap(),
            done["to"]["application_id"].as_str().unwrap()
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_path_outside_install_from_is_never_read() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let v1 = kv_build(dir.path(), "v1.wasm", |_| {});
    setup(home.path(), &node, &v1);
    let client = stdio_client(&["--node", &node.url, "--toolsets", "lifecycle"]).await;
    let before = changes(&node);
    let r = call(&client, "upgrade_app", json!({"context": "a1", "to": v1}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("--install-from"), "{}", text(&r));
    let e = r.structured_content.clone().unwrap();
    assert_eq!(e["error"]["code"], "invalid_arguments", "{e}");
    // A URL other than https is not downloaded (as install_application).
    let r = call(
        &client,
        "upgrade_app",
        json!({"context": "a1", "to": "http://127.0.0.1:9/kv.wasm"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("only https URLs"), "{}", text(&r));
    assert_eq!(changes(&node), before);
    client.cancel().await.unwrap();
}
