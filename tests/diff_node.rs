//! `calimcp diff` by the node's own rules (issue 30): the node's app as a
//! side (fake node here; tests/realnode_diff.rs on merod rc.25), xcall access
//! as the node gates it, stored-state verdicts from the byte layout, the
//! module's ABI section the node keeps, output that cannot act on a CI runner,
//! and recursion at scale. The pairs with their expected verdicts are the
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

/// `(rule, level, path)` of every finding of a `--json` report, sorted.
fn verdicts(report: &Value) -> Vec<(String, String, String)> {
    let mut v: Vec<(String, String, String)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["level"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    v.sort();
    v
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
        let old = write(home.path(), &format!("{name}.old.json"), &pair["old"]);
        let new = write(home.path(), &format!("{name}.new.json"), &pair["new"]);
        let (code, report, err) = json_run(
            offline(home.path())
                .args(["diff", "--package", "app", "--json"])
                .arg(&old)
                .arg(&new),
        );
        let mut want: Vec<(String, String, String)> = pair["expect"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["rule"].as_str().unwrap().to_string(),
                    e["level"].as_str().unwrap().to_string(),
                    e["path"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        want.sort();
        assert_eq!(verdicts(&report), want, "{name}: {report:#}\n{err}");
        assert_eq!(
            code,
            pair["exit"].as_i64().map(|c| c as i32),
            "{name}: {err}"
        );
    }
}

#[test]
fn the_fixture_pairs_use_only_known_rules() {
    let rules: Vec<&str> = calimcp::mapping::diff::RULES.iter().map(|r| r.id).collect();
    for (name, pair) in pairs() {
        assert!(
            pair["about"].as_str().is_some_and(|a| !a.is_empty()),
            "{name}"
        );
        for e in pair["expect"].as_array().unwrap() {
            let rule = e["rule"].as_str().unwrap();
            let known = calimcp::mapping::diff::rule_by_id(rule)
                .unwrap_or_else(|| panic!("{name}: unknown rule {rule} (of {rules:?})"));
            // The level a fixture expects is the rule's (none of them declares a migration).
            assert_eq!(e["level"], known.level.name(), "{name}: {rule}");
        }
    }
}

#[test]
fn messages_say_why_the_moved_and_the_gate_readings_hold() {
    let home = tempfile::tempdir().unwrap();
    let message = |pair: &str, rule: &str, path: &str| -> String {
        let p = pairs().into_iter().find(|(n, _)| n == pair).unwrap().1;
        let old = write(home.path(), "m.old.json", &p["old"]);
        let new = write(home.path(), "m.new.json", &p["new"]);
        let (_, report, _) = json_run(
            offline(home.path())
                .args(["diff", "--package", "app", "--json"])
                .arg(&old)
                .arg(&new),
        );
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["rule"] == rule && f["path"] == path)
            .unwrap_or_else(|| panic!("{pair}: no {rule} at {path}: {report:#}"))["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let moved = message(
        "state-fields-swap-names-equal-types",
        "state-field-moved",
        "state.a",
    );
    assert!(moved.contains("could be two renames in place"), "{moved}");
    assert!(moved.contains("reads it as a move"), "{moved}");
    let gate = message(
        "xcall-only-same-app-mark-dropped-two-methods",
        "xcall-gate-removed",
        "admin",
    );
    assert!(gate.contains("no longer marks any method"), "{gate}");
    let widened = message(
        "xcall-only-same-app-mark-dropped",
        "xcall-callers-widened",
        "ping",
    );
    assert!(widened.contains("stops gating"), "{widened}");
    let text = message(
        "state-bytes-to-string",
        "state-type-reinterpreted",
        "state.name",
    );
    assert!(text.contains("UTF-8"), "{text}");
    let sorted = message(
        "state-unordered-map-to-sorted-map",
        "state-layout-same",
        "state.items",
    );
    assert!(
        sorted.contains("same handle, entries and merge"),
        "{sorted}"
    );
}

// ---------------------------------------------------------------- output that cannot act on a runner

/// A release whose every kind of string (method, parameter, enum-case and
/// nested field names, docs) tries to be a workflow command or a control.
fn hostile_pair() -> (Value, Value) {
    let evil_case = "::error::case";
    let old = json!({
        "schema_version": "wasm-abi/1",
        "types": {
            "Mode": {"kind": "variant", "variants": [{"name": "Plain"}, {"name": evil_case}]},
            "Item": {"kind": "record", "fields": [
                {"name": "##[add-mask]nested", "type": {"kind": "u64"}},
                {"name": "ok\u{7}bell", "type": {"kind": "u32"}}
            ]}
        },
        "methods": [
            {"name": "put", "params": [
                {"name": "mode", "type": {"$ref": "Mode"}},
                {"name": "item", "type": {"$ref": "Item"}}
            ], "returns": {"kind": "unit"},
             "doc": "Puts.\n::error::from-a-doc\n##[warning]legacy"}
        ],
        "events": []
    });
    let new = json!({
        "schema_version": "wasm-abi/1",
        "types": {
            "Mode": {"kind": "variant", "variants": [{"name": "Plain"}]},
            "Item": {"kind": "record", "fields": [
                {"name": "##[add-mask]nested", "type": {"kind": "u32"}},
                {"name": "ok\u{7}bell", "type": {"kind": "u64"}}
            ]}
        },
        "methods": [
            {"name": "put", "params": [
                {"name": "mode", "type": {"$ref": "Mode"}},
                {"name": "item", "type": {"$ref": "Item"}}
            ], "returns": {"kind": "unit"},
             "doc": "Puts again.\n::warning::from-a-doc"}
        ],
        "events": []
    });
    (old, new)
}

/// Every string and key of `v`, recursively.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            out.push(k.clone());
            strings(v, out)
        }),
        _ => {}
    }
}

#[test]
fn no_string_of_any_format_can_act_on_a_runner() {
    let home = tempfile::tempdir().unwrap();
    let (old, new) = hostile_pair();
    let old = write(home.path(), "abi.json", &old);
    let new = write(home.path(), "new.json", &new);
    let run = |format: &str| {
        let out = offline(home.path())
            .args([
                "diff",
                "--package",
                "app",
                "--fail-on",
                "none",
                "--format",
                format,
            ])
            .arg(&old)
            .arg(&new)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}");
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    // JSON: every value is what `jq -r` would print; none may start a
    // workflow command, carry a legacy one, or hold a control character.
    let (json_text, _) = run("json");
    let report: Value = serde_json::from_str(&json_text).unwrap();
    assert!(
        report["findings"].as_array().unwrap().len() >= 3,
        "{report:#}"
    );
    let mut all = Vec::new();
    strings(&report, &mut all);
    let paths: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    // The names are there, neutralised, not dropped.
    assert!(paths.iter().any(|p| p.contains("add-mask")), "{paths:?}");
    assert!(all.iter().any(|s| s.contains("from-a-doc")), "{all:?}");
    for s in &all {
        for line in s.lines() {
            assert!(!line.trim_start().starts_with("::"), "{s:?}");
        }
        assert!(!s.contains("##["), "{s:?}");
        assert!(!s.chars().any(char::is_control), "{s:?}");
    }
    // An example that named a hostile case is no longer faithful once
    // neutralised, so there is none.
    for f in report["findings"].as_array().unwrap() {
        if let Some(e) = f["example"].as_str() {
            assert!(!e.contains("::"), "{f}");
        }
    }
    // The other formats, line by line (stderr too).
    for format in ["text", "markdown", "github"] {
        let (out, err) = run(format);
        assert!(out.contains("add-mask"), "{format}: {out}");
        for line in out.lines().chain(err.lines()) {
            assert!(!line.contains("##["), "{format}: {line}");
            let own = format == "github"
                && ["::error ", "::warning ", "::notice "]
                    .iter()
                    .any(|c| line.starts_with(c));
            assert!(
                own || !line.trim_start().starts_with("::"),
                "{format}: {line}"
            );
            assert!(
                !line.chars().any(|c| c.is_control() && c != '\t'),
                "{format}: {line:?}"
            );
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
        // As NEW: compared (not exit 2), and the same as the valid section.
        let (code, report, err) = json_run(
            offline(home.path())
                .args(["diff", "--package", "app", "--json"])
                .arg(&plain)
                .arg(&wasm),
        );
        assert_eq!(code, Some(0), "{label}: {report:#}\n{err}");
        assert_eq!(verdicts(&report), vec![], "{label}: {report:#}");
        assert!(
            err.contains("the last one the node accepts"),
            "{label}: {err}"
        );
        // As OLD: no method reads as removed.
        let (code, report, err) = json_run(
            offline(home.path())
                .args(["diff", "--package", "app", "--json"])
                .arg(&wasm)
                .arg(&plain),
        );
        assert_eq!(code, Some(0), "{label}: {report:#}\n{err}");
        assert_eq!(verdicts(&report), vec![], "{label}: {report:#}");
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

#[test]
fn a_docs_only_change_of_deep_and_recursive_types_is_compatible() {
    let home = tempfile::tempdir().unwrap();
    // 600 deep (past the 512 limit) under many methods, one leaf doc changed.
    let old = write(
        home.path(),
        "chain.json",
        &deep_chain(200, 600, "old", "u64"),
    );
    let new = write(
        home.path(),
        "chain2.json",
        &deep_chain(200, 600, "new", "u64"),
    );
    let (code, report, err) = json_run(
        offline(home.path())
            .args(["diff", "--package", "app", "--json", "--fail-on", "warning"])
            .arg(&old)
            .arg(&new),
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        rules_count(&report),
        [(("schema-changed".to_string(), "info".to_string()), 200)].into(),
        "{report:#}"
    );
    // A ring of types, every doc changed.
    let old = write(home.path(), "ring.json", &ring(300, "old"));
    let new = write(home.path(), "ring2.json", &ring(300, "new"));
    let (code, report, err) = json_run(
        offline(home.path())
            .args(["diff", "--package", "app", "--json", "--fail-on", "warning"])
            .arg(&old)
            .arg(&new),
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        rules_count(&report),
        [(("schema-changed".to_string(), "info".to_string()), 300)].into(),
        "{report:#}"
    );
}

#[test]
fn past_the_depth_limit_is_remembered_and_never_compatible() {
    let home = tempfile::tempdir().unwrap();
    // The leaf's type really changes 600 deep: every method reports the
    // limit (breaking), each from the one walk it took.
    let old = write(home.path(), "chain.json", &deep_chain(200, 600, "d", "u64"));
    let new = write(
        home.path(),
        "chain2.json",
        &deep_chain(200, 600, "d", "u32"),
    );
    let (code, report, err) = json_run(
        offline(home.path())
            .args(["diff", "--package", "app", "--json"])
            .arg(&old)
            .arg(&new),
    );
    assert_eq!(code, Some(1), "{err}");
    let counts = rules_count(&report);
    assert_eq!(
        counts.get(&(
            "comparison-limit-reached".to_string(),
            "breaking".to_string()
        )),
        Some(&200),
        "{counts:?}"
    );
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
