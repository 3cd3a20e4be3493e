//! `calimcp diff` with the node's app as a side, on a real merod 0.11.0-rc.25
//! (issue 30.1): the version installed on the node against a changed local
//! bundle of the same package — two sides, the node's ABI fetched from it.

mod support;

use std::path::Path;

use serde_json::{Value, json};
use support::realnode::{RealNode, Version};

/// A bundle of `package` at `version` whose ABI is the kv test app's
/// without `count`, and with `echo` taking a u32 where it took a string.
fn changed_bundle(dir: &Path, package: &str, version: &str) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut abi: Value =
        serde_json::from_slice(&std::fs::read(root.join("testapps/kv/abi.json")).unwrap()).unwrap();
    let methods = abi["methods"].as_array_mut().unwrap();
    methods.retain(|m| m["name"] != "count");
    for m in methods.iter_mut().filter(|m| m["name"] == "echo") {
        for p in m["params"].as_array_mut().unwrap() {
            p["type"] = json!({"kind": "u32"});
        }
    }
    let bundle = dir.join("kv-c");
    std::fs::create_dir_all(&bundle).unwrap();
    std::fs::write(
        bundle.join("abi.json"),
        serde_json::to_vec_pretty(&abi).unwrap(),
    )
    .unwrap();
    let manifest = json!({
        "version": "1.0", "package": package, "appVersion": version,
        "minRuntimeVersion": "0.1.0", "metadata": {"name": "kv-c"},
        "wasm": {"path": "app.wasm", "size": 0, "hash": null},
        "abi": {"path": "abi.json", "size": 0, "hash": null}
    });
    std::fs::write(
        bundle.join("manifest.json"),
        serde_json::to_vec_pretty(&manifest).unwrap(),
    )
    .unwrap();
    bundle
}

fn findings(report: &Value) -> Vec<(String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_installed_version_against_a_changed_local_bundle_on_rc25() {
    let Some(node) = RealNode::start_on(
        Version::Rc25,
        "the_installed_version_against_a_changed_local_bundle_on_rc25",
    ) else {
        return;
    };
    let app_id = node.install(&support::realnode::kv_app(), "com.example.kv-c", "1.0.0");
    let dir = tempfile::tempdir().unwrap();
    let bundle = changed_bundle(dir.path(), "com.example.kv-c", "1.1.0");
    // By package, by a trailing part of it, and by application id: the node's
    // installed version is OLD, the local bundle of the same package NEW.
    for old in ["com.example.kv-c", "kv-c", app_id.as_str()] {
        let out = node
            .calimcp()
            .args(["diff", old, "--json"])
            .arg(&bundle)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{old}: {err}");
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let found = findings(&report);
        assert!(
            found.contains(&("method-removed".into(), "count".into())),
            "{old}: {found:?}"
        );
        assert!(
            found.contains(&("param-type-changed".into(), "echo.params.message".into())),
            "{old}: {found:?}"
        );
        let sides = &report["sides"];
        assert_eq!(sides["old"]["from"], "node", "{old}: {sides}");
        assert_eq!(sides["old"]["node"], node.url.as_str(), "{sides}");
        assert_eq!(sides["old"]["application_id"], app_id.as_str(), "{sides}");
        assert_eq!(sides["old"]["version"], "1.0.0", "{sides}");
        assert_eq!(sides["new"]["from"], "local", "{sides}");
    }
    // The same local bundle against itself is no change: the finding above
    // came from the node's ABI, not from the bundle compared with itself.
    let out = node
        .calimcp()
        .args(["diff", "--json"])
        .arg(&bundle)
        .arg(&bundle)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(findings(&report), vec![]);
}

/// The node's ABI route drops every `doc` on rc.25, while the module embeds
/// them: calimcp reads them from the module, so the same build compared
/// with its own abi.json is no change (no `method-doc-changed`), and
/// `describe` shows what the developer wrote.
#[test]
fn the_docs_of_a_node_app_come_from_its_module_on_rc25() {
    let Some(node) = RealNode::start_on(
        Version::Rc25,
        "the_docs_of_a_node_app_come_from_its_module_on_rc25",
    ) else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let abi_file = root.join("testapps/kv/abi.json");
    let abi: Value = serde_json::from_slice(&std::fs::read(&abi_file).unwrap()).unwrap();
    let documented: Vec<(&str, &str)> = abi["methods"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| Some((m["name"].as_str()?, m["doc"].as_str()?)))
        .collect();
    assert!(!documented.is_empty(), "the kv test app documents methods");
    node.install(&support::realnode::kv_app(), "com.example.kv-c", "1.0.0");
    let out = node
        .calimcp()
        .args(["diff", "com.example.kv-c", "--json", "--fail-on", "any"])
        .arg(&abi_file)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(findings(&report), vec![], "{report}");
    assert_eq!(out.status.code(), Some(0));
    let out = node
        .calimcp()
        .args(["describe", "com.example.kv-c", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let described: Value = serde_json::from_slice(&out.stdout).unwrap();
    for (name, doc) in documented {
        let m = described["methods"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {described}"));
        assert_eq!(m["doc"], doc, "{name}: {m}");
    }
}
