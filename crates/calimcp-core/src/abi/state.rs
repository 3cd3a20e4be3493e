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
pub(crate) fn state_meta(
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_version_and_edges_and_warns_on_the_rest() {
        let mut w = Vec::new();
        let (v, edges) = state_meta(
            Some(&json!(2)),
            Some(&json!([{"method": "carry_v1", "fromVersion": 1}, {"method": 3}])),
            &mut w,
        );
        assert_eq!(v, Some(2));
        assert_eq!(
            edges,
            [Migration {
                method: "carry_v1".into(),
                from_version: 1
            }]
        );
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].path, "$.migrations[1]");
        let (v, edges) = state_meta(Some(&json!(-1)), Some(&json!("x")), &mut w);
        assert_eq!((v, edges.len(), w.len()), (None, 0, 3));
        assert_eq!(state_meta(None, None, &mut w), (None, Vec::new()));
    }
}
