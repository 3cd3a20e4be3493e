//! `calimcp diff` by the node's own rules (issue 30): the node's app as a
//! side (fake node here; tests/realnode_diff.rs on merod rc.25), xcall access
//! as the node gates it, stored-state verdicts from the byte layout, the
//! module's ABI section the node keeps, and recursion at scale (output that
//! cannot act on a CI runner: tests/diff.rs). The pairs with their expected verdicts are the
//! fixtures in tests/diff_pairs/ (each says why in its `about`).

mod support;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::calimcp;
use support::fake_node::{self, FakeNode};

fn write(dir: &Path, name: &str, v: &Value) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_vec_pretty(v).unwrap()).unwrap();
    p
}

fn offline(home: &Path) -> assert_cmd::Command {
    let mut c = calimcp(home);
    c.env("CALIMCP_OFFLINE", "1");
    c
}

type Verdict = (String, String, String);

/// `(rule, level, path)` of each finding (or expected finding) in `list`, sorted.
fn triples(list: &Value) -> Vec<Verdict> {
    let field = |f: &Value, k: &str| f[k].as_str().unwrap().to_string();
    let mut v: Vec<Verdict> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (field(f, "rule"), field(f, "level"), field(f, "path")))
        .collect();
    v.sort();
    v
}

/// The verdicts of a `--json` report.
fn verdicts(report: &Value) -> Vec<Verdict> {
    triples(&report["findings"])
}

fn json_run(cmd: &mut assert_cmd::Command) -> (Option<i32>, Value, String) {
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{err}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code(), v, err)
}

fn pairs() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff_pairs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let v: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
            (p.file_stem().unwrap().to_string_lossy().into_owned(), v)
        })
        .collect()
}

// ---------------------------------------------------------------- the pairs

#[test]
fn every_pair_has_its_expected_verdict() {
    let pairs = pairs();
    assert!(pairs.len() >= 14, "{}", pairs.len());
    let home = tempfile::tempdir().unwrap();
    for (name, pair) in pairs {
        let (code, report, err) = compare(home.path(), &pair["old"], &pair["new"], &[]);
        let want = triples(&pair["expect"]);
        assert_eq!(verdicts(&report), want, "{name}: {report:#}\n{err}");
        // Where the fixture says why, the finding's message does too.
        for e in pair["expect"].as_array().unwrap() {
            let Some(says) = e["says"].as_str() else {
                continue;
            };
            let f = report["findings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["rule"] == e["rule"] && f["path"] == e["path"])
                .unwrap();
            assert!(f["message"].as_str().unwrap().contains(says), "{name}: {f}");
        }
        assert_eq!(
            code,
            pair["exit"].as_i64().map(|c| c as i32),
            "{name}: {err}"
        );
    }
}

#[test]
fn the_fixture_pairs_use_only_known_rules() {
    let rules: Vec<&str> = calimcp_core::mapping::diff::RULES
        .iter()
        .map(|r| r.id)
        .collect();
    for (name, pair) in pairs() {
        assert!(
            pair["about"].as_str().is_some_and(|a| !a.is_empty()),
            "{name}"
        );
        for e in pair["expect"].as_array().unwrap() {
            let rule = e["rule"].as_str().unwrap();
            let known = calimcp_core::mapping::diff::rule_by_id(rule)
                .unwrap_or_else(|| panic!("{name}: unknown rule {rule} (of {rules:?})"));
            // The level a fixture expects is the rule's (none of them declares a migration).
            assert_eq!(e["level"], known.level.name(), "{name}: {rule}");
        }
    }
}

// ---------------------------------------------------------------- the ABI section the node keeps

/// A module with a type section then one `calimero_abi_v1` section per payload.
fn module(sections: &[&[u8]]) -> Vec<u8> {
    let mut m = wasm_encoder::Module::new();
    let mut types = wasm_encoder::TypeSection::new();
    types.ty().function([], []);
    m.section(&types);
    for payload in sections {
        m.section(&wasm_encoder::CustomSection {
            name: std::borrow::Cow::Borrowed("calimero_abi_v1"),
            data: std::borrow::Cow::Borrowed(payload),
        });
    }
    m.finish()
}

fn manifest_with(methods: &[&str]) -> Value {
    json!({
        "schema_version": "wasm-abi/1",
        "types": {},
        "methods": methods.iter().map(|m| json!({"name": m, "params": [], "returns": {"kind": "unit"}})).collect::<Vec<_>>(),
        "events": []
    })
}

#[test]
fn a_module_is_read_by_the_nodes_rule_the_last_section_it_accepts() {
    let home = tempfile::tempdir().unwrap();
    let valid = serde_json::to_vec(&manifest_with(&["a_get", "b_put"])).unwrap();
    // Parses, but the node's validate_manifest refuses it (methods unsorted):
    // the node ignores it and keeps the valid one before it.
    let refused = serde_json::to_vec(&manifest_with(&["z_last", "a_get"])).unwrap();
    let dangling = serde_json::to_vec(&json!({
        "schema_version": "wasm-abi/1", "types": {},
        "methods": [{"name": "a_get", "params": [{"name": "x", "type": {"$ref": "Nope"}}], "returns": {"kind": "unit"}}],
        "events": []
    }))
    .unwrap();
    let plain = write(
        home.path(),
        "plain.json",
        &manifest_with(&["a_get", "b_put"]),
    );
    for (label, second) in [("unsorted", &refused), ("dangling", &dangling)] {
        let wasm = home.path().join(format!("{label}.wasm"));
        std::fs::write(&wasm, module(&[&valid, second])).unwrap();
        // As NEW: compared (not exit 2), the same as the valid section, said
        // once; as OLD: no method reads as removed.
        for (old, new) in [(&plain, &wasm), (&wasm, &plain)] {
            let (code, report, err) = json_run(
                offline(home.path())
                    .args(["diff", "--package", "app", "--json"])
                    .arg(old)
                    .arg(new),
            );
            assert_eq!(code, Some(0), "{label}: {report:#}\n{err}");
            assert_eq!(verdicts(&report), vec![], "{label}: {report:#}");
            assert!(
                err.contains("the last one the node accepts"),
                "{label}: {err}"
            );
        }
    }
    // No section the node accepts: the last that parses, and NEW is refused (exit 2).
    let wasm = home.path().join("none.wasm");
    std::fs::write(&wasm, module(&[&refused, b"not json"])).unwrap();
    let out = offline(home.path())
        .args(["diff", "--package", "app", "--json"])
        .arg(&plain)
        .arg(&wasm)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("the node refuses"));
}

// ---------------------------------------------------------------- recursion at scale

/// `methods` methods `m0…` each taking a chain `T0 { next: T1 } … T{depth-1} { v: u64 }`;
/// `doc` is the last type's field doc.
fn deep_chain(methods: usize, depth: usize, doc: &str, leaf: &str) -> Value {
    let mut types = serde_json::Map::new();
    for i in 0..depth {
        let ty = if i + 1 == depth {
            json!({"kind": "record", "fields": [{"name": "v", "type": {"kind": leaf}, "doc": doc}]})
        } else {
            json!({"kind": "record", "fields": [{"name": "next", "type": {"$ref": format!("T{}", i + 1)}}]})
        };
        types.insert(format!("T{i}"), ty);
    }
    let mut names: Vec<String> = (0..methods).map(|i| format!("m{i}")).collect();
    names.sort();
    json!({
        "schema_version": "wasm-abi/1",
        "types": types,
        "methods": names.iter().map(|n| json!({"name": n, "params": [{"name": "p", "type": {"$ref": "T0"}}], "returns": {"kind": "unit"}})).collect::<Vec<_>>(),
        "events": []
    })
}

/// `n` record types in a ring `R0 → R1 → … → R{n-1} → R0` (each optional),
/// with `doc` on each; one method per type.
fn ring(n: usize, doc: &str) -> Value {
    let mut types = serde_json::Map::new();
    for i in 0..n {
        types.insert(
            format!("R{i}"),
            json!({"kind": "record", "doc": doc, "fields": [
                {"name": "v", "type": {"kind": "u32"}, "doc": doc},
                {"name": "next", "type": {"$ref": format!("R{}", (i + 1) % n)}, "nullable": true}
            ]}),
        );
    }
    let mut names: Vec<(String, usize)> = (0..n).map(|i| (format!("r{i}"), i)).collect();
    names.sort();
    json!({
        "schema_version": "wasm-abi/1",
        "types": types,
        "methods": names.iter().map(|(m, i)| json!({"name": m, "params": [{"name": "p", "type": {"$ref": format!("R{i}")}}], "returns": {"$ref": format!("R{i}")}})).collect::<Vec<_>>(),
        "events": []
    })
}

fn rules_count(report: &Value) -> std::collections::BTreeMap<(String, String), usize> {
    let mut out = std::collections::BTreeMap::new();
    for (rule, level, _) in verdicts(report) {
        *out.entry((rule, level)).or_default() += 1;
    }
    out
}

/// `calimcp diff --package app --json ARGS OLD NEW` offline, on two written manifests.
fn compare(home: &Path, old: &Value, new: &Value, args: &[&str]) -> (Option<i32>, Value, String) {
    let (o, n) = (write(home, "o.json", old), write(home, "n.json", new));
    json_run(
        offline(home)
            .args(["diff", "--package", "app", "--json"])
            .args(args)
            .arg(&o)
            .arg(&n),
    )
}

#[test]
fn a_docs_only_change_of_deep_and_recursive_types_is_compatible() {
    let home = tempfile::tempdir().unwrap();
    let cases = [
        // 600 deep (past the 512 limit) under many methods, one leaf doc changed.
        (
            deep_chain(200, 600, "old", "u64"),
            deep_chain(200, 600, "new", "u64"),
            200,
        ),
        // A ring of types, every doc changed.
        (ring(300, "old"), ring(300, "new"), 300),
    ];
    for (old, new, methods) in cases {
        let (code, report, err) = compare(home.path(), &old, &new, &["--fail-on", "warning"]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(
            rules_count(&report),
            [(("schema-changed".to_string(), "info".to_string()), methods)].into(),
            "{report:#}"
        );
    }
}

#[test]
fn past_the_depth_limit_is_remembered_and_never_compatible() {
    let home = tempfile::tempdir().unwrap();
    // The leaf's type really changes 600 deep: every method reports the
    // limit (breaking), each from the one walk it took.
    let (old, new) = (
        deep_chain(200, 600, "d", "u64"),
        deep_chain(200, 600, "d", "u32"),
    );
    let (code, report, err) = compare(home.path(), &old, &new, &[]);
    assert_eq!(code, Some(1), "{err}");
    let counts = rules_count(&report);
    let limit = (
        "comparison-limit-reached".to_string(),
        "breaking".to_string(),
    );
    assert_eq!(counts.get(&limit), Some(&200), "{counts:?}");
    assert!(
        !counts.keys().any(|(r, _)| r == "schema-changed"),
        "{counts:?}"
    );
}

// ---------------------------------------------------------------- the node's app as a side

/// A bundle directory of the example kv-store (package
/// com.calimero.kv-store) with `get` removed: what the developer is about
/// to install over the node's copy.
fn changed_kv_bundle(dir: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kv-store");
    let bundle = dir.join("kv-store");
    std::fs::create_dir_all(&bundle).unwrap();
    std::fs::copy(root.join("manifest.json"), bundle.join("manifest.json")).unwrap();
    let mut abi: Value =
        serde_json::from_slice(&std::fs::read(root.join("abi.json")).unwrap()).unwrap();
    abi["methods"]
        .as_array_mut()
        .unwrap()
        .retain(|m| m["name"] != "get");
    write(&bundle, "abi.json", &abi);
    bundle
}

fn with_node(home: &Path, url: &str) -> assert_cmd::Command {
    let mut c = calimcp(home);
    c.env("CALIMERO_NODE_URL", url);
    c
}

#[test]
fn a_name_the_node_has_is_the_nodes_app_even_when_a_local_app_shares_its_package() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let bundle = changed_kv_bundle(home.path());
    // The node's version → the local one: two sides, not the local one twice.
    let (code, report, err) = json_run(
        with_node(home.path(), &node.url)
            .args(["diff", "com.calimero.kv-store", "--json"])
            .arg(&bundle),
    );
    assert_eq!(code, Some(1), "{report:#}\n{err}");
    assert!(
        verdicts(&report).contains(&("method-removed".into(), "breaking".into(), "get".into())),
        "{report:#}"
    );
    assert_eq!(report["sides"]["old"]["from"], "node", "{report:#}");
    assert_eq!(report["sides"]["old"]["node"], node.url.as_str());
    assert_eq!(
        report["sides"]["old"]["application_id"],
        node.id(fake_node::KV).as_str()
    );
    assert_eq!(report["sides"]["new"]["from"], "local");
    // The other way round: NEW is the node's.
    let (code, report, _) = json_run(
        with_node(home.path(), &node.url)
            .args(["diff", "--json"])
            .arg(&bundle)
            .arg("com.calimero.kv-store"),
    );
    assert_eq!(code, Some(0));
    assert!(
        verdicts(&report).contains(&("method-added".into(), "info".into(), "get".into())),
        "{report:#}"
    );
    assert_eq!(report["sides"]["new"]["from"], "node");
    // By application id, and by a loose name, the same.
    for old in [node.id(fake_node::KV), "kv-store".to_string()] {
        let (code, report, err) = json_run(
            with_node(home.path(), &node.url)
                .args(["diff", "--json", &old])
                .arg(&bundle),
        );
        assert_eq!(code, Some(1), "{old}: {err}");
        assert_eq!(report["sides"]["old"]["from"], "node", "{old}");
    }
    // An --apps directory holding the package does not take the name from the node.
    let (code, report, _) = json_run(
        with_node(home.path(), &node.url)
            .args([
                "--apps",
                "examples",
                "diff",
                "com.calimero.kv-store",
                "--json",
            ])
            .arg(&bundle),
    );
    assert_eq!(code, Some(1));
    assert_eq!(report["sides"]["old"]["from"], "node");
    // The text header says where each side came from.
    let out = with_node(home.path(), &node.url)
        .args(["diff", "com.calimero.kv-store"])
        .arg(&bundle)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.contains(&format!("(the node at {}", node.url)) && last.contains("(local)"),
        "{text}"
    );
}

#[test]
fn a_name_only_an_apps_directory_has_is_local_and_the_node_is_not_required() {
    let home = tempfile::tempdir().unwrap();
    let bundle = changed_kv_bundle(home.path());
    // No node answers at the default address: the --apps directory answers the name.
    let (code, report, err) = json_run(
        calimcp(home.path())
            .env("CALIMERO_NODE_URL", fake_node::closed_port_url())
            .env("CALIMCP_OFFLINE", "1")
            .args([
                "--apps",
                "examples",
                "diff",
                "com.calimero.kv-store",
                "--json",
            ])
            .arg(&bundle),
    );
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(report["sides"]["old"]["from"], "local", "{report:#}");
    assert_eq!(report["sides"]["old"]["source"], "examples/kv-store");
    // A node that is named but down: a name neither has is an error naming both.
    let out = calimcp(home.path())
        .env("CALIMERO_NODE_URL", fake_node::closed_port_url())
        .args(["diff", "com.example.nowhere"])
        .arg(&bundle)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("com.example.nowhere") && err.contains("could not be asked"),
        "{err}"
    );
}
