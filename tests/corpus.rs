//! The real-world corpus: every manifest in ../shared/fixtures/abi loads and maps,
//! and no method of a real fixture degrades to unknown except through an opaque CRDT cell.

mod support;

use calimcp_core::abi::{LoadOptions, load_path};
use calimcp_core::mapping::{RefMode, ToolOptions, build};
use serde_json::Value;

/// Paths of `{}` (accept-anything) subschemas; opaque CRDT cells carry a description.
fn unknowns(schema: &Value, path: &str, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) if map.is_empty() => out.push(path.to_string()),
        Value::Object(map) => {
            for (k, v) in map {
                if k == "properties" || k == "$defs" {
                    if let Value::Object(props) = v {
                        for (name, s) in props {
                            unknowns(s, &format!("{path}/{k}/{name}"), out);
                        }
                    }
                } else if k != "const" && k != "enum" {
                    unknowns(v, &format!("{path}/{k}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                unknowns(v, &format!("{path}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_fixture_loads_and_maps_without_degrading() {
    let Some(dir) = support::fixtures("every_fixture_loads_and_maps_without_degrading") else {
        return;
    };
    let files = support::fixture_manifests(&dir);
    assert!(
        files.len() >= 17,
        "expected the 17 corpus manifests, found {}",
        files.len()
    );
    let mut total_tools = 0;
    for file in &files {
        let mut skipped = Vec::new();
        let apps = load_path(file, &LoadOptions::default(), &mut skipped)
            .unwrap_or_else(|e| panic!("{} failed to load: {e}", file.display()));
        assert!(skipped.is_empty());
        let synthetic = file
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("synthetic"));
        for mode in [RefMode::Inline, RefMode::Defs] {
            let set = build(
                &apps,
                &ToolOptions {
                    refs: mode,
                    ..ToolOptions::default()
                },
            );
            total_tools += set.tools.len();
            for tool in &set.tools {
                assert!(
                    regex_like_name(&tool.name),
                    "{}: bad tool name {}",
                    file.display(),
                    tool.name
                );
                if synthetic && mode == RefMode::Inline {
                    continue; // recursion is capped at depth 8 by design
                }
                let schemas = tool.schemas();
                let mut found = Vec::new();
                unknowns(&schemas.input, "input", &mut found);
                if let Some(out) = &schemas.output {
                    unknowns(out, "output", &mut found);
                }
                assert!(
                    found.is_empty(),
                    "{} {}: degraded to unknown at {found:?}",
                    file.display(),
                    tool.name
                );
                assert!(
                    schemas.warnings.is_empty(),
                    "{} {}: {:?}",
                    file.display(),
                    tool.name,
                    schemas.warnings
                );
            }
        }
    }
    assert!(
        total_tools > 300,
        "the corpus should yield hundreds of tools, got {total_tools}"
    );
}

fn regex_like_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 49
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

#[test]
fn the_binary_maps_every_fixture() {
    let Some(dir) = support::fixtures("the_binary_maps_every_fixture") else {
        return;
    };
    for file in support::fixture_manifests(&dir) {
        for args in [
            vec!["tools", "--json"],
            vec!["describe"],
            vec!["schema"],
            vec!["schema", "--output"],
        ] {
            let mut cmd = support::offline();
            cmd.args(&args).arg(&file).arg("--quiet");
            let out = cmd.assert().success().get_output().stdout.clone();
            if args[0] != "describe" {
                serde_json::from_slice::<Value>(&out)
                    .unwrap_or_else(|e| panic!("{args:?} {}: not JSON: {e}", file.display()));
            }
        }
    }
}

#[test]
fn the_whole_corpus_as_an_apps_directory() {
    let Some(dir) = support::fixtures("the_whole_corpus_as_an_apps_directory") else {
        return;
    };
    // The bundle manifest.json in the corpus is not an ABI: it is skipped with a warning.
    let out = support::offline()
        .args(["tools", "--json", "--apps"])
        .arg(&dir)
        .assert()
        .success()
        .get_output()
        .clone();
    let tools: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(names, sorted, "tools are sorted by name and unique");
    assert!(String::from_utf8_lossy(&out.stderr).contains("bundle-apps-mero-drive-manifest.json"));
}
