//! The fake node's bodies are the real node's bodies.
//!
//! `tests/golden/responses/*.json` are written by `conformance/` (a separate
//! cargo project, run by `.ci/run`) from the node's own published types, fed
//! the sample values in `tests/golden/samples.json`. Here the same values go
//! through `tests/support/wire.rs` — the builders the fake node answers with —
//! and must produce the golden bytes exactly.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use support::wire::{self, App, Blob, Context};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn samples() -> Value {
    let path = golden_dir().join("samples.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("sample field `{key}` is not a string in {v}"))
}

fn opt<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn blob(v: &Value) -> Blob<'_> {
    Blob {
        bytecode: s(v, "bytecode"),
        compiled: s(v, "compiled"),
    }
}

/// The body `wire.rs` builds for one sample entry.
fn build(name: &str, sample: &Value) -> String {
    let id = &sample["id"];
    match s(sample, "kind") {
        "rpc_ok" => wire::rpc_ok(id, &sample["output"]),
        "rpc_error" => wire::rpc_error(id, s(sample, "type"), sample.get("data")),
        kind @ ("apps_list" | "apps_list_v010") => {
            let list = sample["apps"].as_array().expect("apps");
            let services: Vec<Vec<(&str, Blob<'_>)>> = list
                .iter()
                .map(|a| {
                    a["services"]
                        .as_object()
                        .expect("services")
                        .iter()
                        .map(|(k, b)| (k.as_str(), blob(b)))
                        .collect()
                })
                .collect();
            let apps: Vec<App<'_>> = list
                .iter()
                .zip(&services)
                .map(|(a, services)| App {
                    id: s(a, "id"),
                    blob: blob(&a["blob"]),
                    size: a["size"].as_u64().expect("size"),
                    source: s(a, "source"),
                    metadata: s(a, "metadata").as_bytes(),
                    signer_id: s(a, "signer_id"),
                    package: s(a, "package"),
                    version: s(a, "version"),
                    services,
                })
                .collect();
            if kind == "apps_list" {
                wire::apps_list(&apps)
            } else {
                wire::apps_list_v010(&apps)
            }
        }
        kind @ ("contexts_list" | "contexts_list_v010") => {
            let list = sample["contexts"].as_array().expect("contexts");
            let heads: Vec<Vec<[u8; 32]>> = list
                .iter()
                .map(|c| serde_json::from_value(c["dag_heads"].clone()).expect("dag_heads"))
                .collect();
            let contexts: Vec<Context<'_>> = list
                .iter()
                .zip(&heads)
                .map(|(c, heads)| Context {
                    id: s(c, "id"),
                    application_id: s(c, "application_id"),
                    service_name: opt(c, "service_name"),
                    root_hash: s(c, "root_hash"),
                    dag_heads: heads,
                    application_version: opt(c, "application_version"),
                    name: opt(c, "name"),
                    group_id: opt(c, "group_id"),
                })
                .collect();
            if kind == "contexts_list" {
                wire::contexts_list(&contexts)
            } else {
                wire::contexts_list_v010(&contexts)
            }
        }
        "identities_owned" => {
            let ids: Vec<&str> = sample["identities"]
                .as_array()
                .expect("identities")
                .iter()
                .map(|v| v.as_str().expect("identity"))
                .collect();
            wire::identities_owned(&ids)
        }
        "alias_hit" => wire::alias_hit(s(sample, "value")),
        "alias_miss" => wire::alias_miss(),
        "login_ok" => wire::login_ok(s(sample, "access_token"), s(sample, "refresh_token")),
        "refresh_ok" => wire::refresh_ok(s(sample, "access_token"), s(sample, "refresh_token")),
        "login_failed" => wire::login_failed(s(sample, "message")),
        "auth_error" => wire::auth_error(s(sample, "message")),
        "guard_denied" => wire::guard_denied(),
        other => panic!("sample `{name}`: no wire.rs builder for kind `{other}`"),
    }
}

#[test]
fn every_builder_reproduces_the_nodes_bytes() {
    let samples = samples();
    let responses = samples["responses"].as_object().expect("responses");
    assert!(!responses.is_empty(), "samples.json has no responses");
    let mut failures = Vec::new();
    for (name, sample) in responses {
        let path = golden_dir().join("responses").join(format!("{name}.json"));
        let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (run the conformance project with --write)",
                path.display()
            )
        });
        let built = build(name, sample);
        if built != golden {
            failures.push(format!("{name}:\n  node: {golden}\n  wire: {built}"));
        }
    }
    assert!(
        failures.is_empty(),
        "wire.rs differs from the node's bytes:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_golden_has_its_sample_values() {
    let samples = samples();
    let named: BTreeSet<String> = samples["responses"]
        .as_object()
        .expect("responses")
        .keys()
        .cloned()
        .collect();
    let on_disk: BTreeSet<String> = std::fs::read_dir(golden_dir().join("responses"))
        .expect("tests/golden/responses")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .map(|f| f.strip_suffix(".json").map(str::to_owned).unwrap_or(f))
        .collect();
    assert_eq!(
        named, on_disk,
        "tests/golden/responses and samples.json name different bodies"
    );
}

#[test]
fn json_rpc_errors_read_type_first_and_unit_variants_have_no_data() {
    // What a fake written from notes got wrong: the node's build keeps
    // declaration order, so `"type"` comes before `"data"`.
    let id = Value::from(7);
    assert_eq!(
        wire::rpc_error(&id, "FunctionCallError", Some(&"x".into())),
        r#"{"jsonrpc":"2.0","id":7,"error":{"type":"FunctionCallError","data":"x"}}"#
    );
    assert_eq!(
        wire::rpc_error(&id, "ContextNotFound", None),
        r#"{"jsonrpc":"2.0","id":7,"error":{"type":"ContextNotFound"}}"#
    );
    assert_eq!(wire::guard_denied(), "");
}
