//! The published JSON Schemas of the `--json` outputs (docs/json/), and a
//! check of an output against one.

use serde_json::Value;

/// docs/json/`name`.schema.json, as checked in.
pub fn published(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/json")
        .join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Fails, naming every error, unless `value` is valid against the
/// published schema `name`.
pub fn assert_valid(name: &str, value: &Value) {
    let schema = published(name);
    let validator = jsonschema::draft202012::new(&schema)
        .unwrap_or_else(|e| panic!("docs/json/{name}.schema.json does not compile: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "output does not match docs/json/{name}.schema.json:\n{}\n{value}",
        errors.join("\n")
    );
}
