//! `state_version` and `migrations`, read leniently: the declared state
//! version and migration edges that a node's upgrade gate plans from
//! (calimero-wasm-abi 1.0.0-rc.8 `schema.rs`: `Manifest::state_version`,
//! `MigrationEdgeAbi { method, fromVersion }`). Separate from the parser so
//! any parser can call it with the two raw values.

use serde_json::Value;

use super::Warning;
use super::model::Migration;

/// The state version and migration edges of a manifest's top level; anything
/// malformed is dropped with a warning.
pub fn state_meta(
    state_version: Option<&Value>,
    migrations: Option<&Value>,
    warnings: &mut Vec<Warning>,
) -> (Option<u32>, Vec<Migration>) {
    let version = match state_version {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) => Some(n),
            None => {
                warnings.push(Warning::new(
                    "$.state_version",
                    "expected an unsigned 32-bit integer; ignored",
                ));
                None
            }
        },
    };
    let mut edges = Vec::new();
    match migrations {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let method = item.get("method").and_then(Value::as_str);
                let from = item
                    .get("fromVersion")
                    .or_else(|| item.get("from_version"))
                    .and_then(Value::as_u64)
                    .and_then(|n| u32::try_from(n).ok());
                match (method, from) {
                    (Some(method), Some(from_version)) => edges.push(Migration {
                        method: method.to_string(),
                        from_version,
                    }),
                    _ => warnings.push(Warning::new(
                        format!("$.migrations[{i}]"),
                        "expected {\"method\": string, \"fromVersion\": integer}; ignored",
                    )),
                }
            }
        }
        Some(_) => warnings.push(Warning::new(
            "$.migrations",
            "expected an array of migration edges; ignored",
        )),
    }
    (version, edges)
}
