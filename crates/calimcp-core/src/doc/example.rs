//! An example argument object for a tool, built from its input schema (the
//! schema calimcp emits: `type`, `properties`, `required`, `items`,
//! `prefixItems`, `minItems`, `minimum`, `pattern`, `const`, `enum`,
//! `anyOf`/`oneOf`/`allOf`, `$ref` into `$defs`). Only required properties
//! are filled, and an added `_context` is left out: it is chosen on the page. A test
//! checks that every fixture's examples validate against their schemas.

use serde_json::{Map, Value, json};

use crate::mapping::schema::CONTEXT_PARAM;

/// How deep a recursive type is followed before the example takes the
/// shortest way out (`null`, an empty list).
const MAX_DEPTH: usize = 8;

/// The example arguments of `input` (a tool's `inputSchema`); `_context`
/// is left out when calimcp added it (`context_injected`).
pub fn arguments(input: &Value, context_injected: bool) -> Value {
    let mut v = value(input, input, 0);
    if let Some(o) = v.as_object_mut().filter(|_| context_injected) {
        o.remove(CONTEXT_PARAM);
    }
    v
}

fn value(root: &Value, s: &Value, depth: usize) -> Value {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").unwrap_or(r);
        return match root.get("$defs").and_then(|d| d.get(name)) {
            Some(def) if depth < MAX_DEPTH * 2 => value(root, def, depth + 1),
            _ => Value::Null,
        };
    }
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    if let Some(first) = s
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = s.get(key).and_then(Value::as_array) {
            return branch(root, branches, depth);
        }
    }
    if let Some(all) = s.get("allOf").and_then(Value::as_array)
        && let Some(first) = all.first()
    {
        return value(root, first, depth);
    }
    let ty = match s.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts.first().and_then(Value::as_str).unwrap_or("null"),
        _ => return Value::Null,
    };
    match ty {
        "object" => object(root, s, depth),
        "array" => array(root, s, depth),
        "integer" => json!(lowest(s).max(0)),
        "number" => json!(0),
        "boolean" => json!(false),
        "string" => Value::String(string(s)),
        _ => Value::Null,
    }
}

/// The first branch, unless the example is deep in a recursive type: then
/// a `null` branch ends it.
fn branch(root: &Value, branches: &[Value], depth: usize) -> Value {
    if depth >= MAX_DEPTH
        && branches
            .iter()
            .any(|b| b.get("type").and_then(Value::as_str) == Some("null"))
    {
        return Value::Null;
    }
    branches
        .first()
        .map_or(Value::Null, |b| value(root, b, depth + 1))
}

fn object(root: &Value, s: &Value, depth: usize) -> Value {
    let mut out = Map::new();
    let props = s.get("properties").and_then(Value::as_object);
    for name in s
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let sub = props.and_then(|p| p.get(name)).unwrap_or(&Value::Null);
        out.insert(name.to_string(), value(root, sub, depth + 1));
    }
    Value::Object(out)
}

fn array(root: &Value, s: &Value, depth: usize) -> Value {
    let mut out: Vec<Value> = s
        .get("prefixItems")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|p| value(root, p, depth + 1))
        .collect();
    let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
    if let Some(items) = s.get("items").filter(|i| i.is_object()) {
        while out.len() < min.min(4096) {
            out.push(value(root, items, depth + 1));
        }
    }
    Value::Array(out)
}

fn lowest(s: &Value) -> i64 {
    s.get("minimum").and_then(Value::as_i64).unwrap_or(0)
}

/// A string the schema's `pattern` accepts: the first of a few candidates
/// that match (empty, hex digits of each length the pattern names, a base58
/// id), else `"text"`.
fn string(s: &Value) -> String {
    let Some(pattern) = s.get("pattern").and_then(Value::as_str) else {
        return "text".into();
    };
    let mut candidates = vec![String::new(), "1".repeat(32), "0".into()];
    for n in pattern
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|d| d.parse::<usize>().ok())
        .filter(|&n| n <= 1 << 16)
    {
        candidates.push("0".repeat(n));
    }
    let Ok(check) = jsonschema::validator_for(&json!({"type": "string", "pattern": pattern}))
    else {
        return "text".into();
    };
    candidates
        .into_iter()
        .find(|c| check.is_valid(&Value::String(c.clone())))
        .unwrap_or_else(|| "text".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_required_properties_only() {
        let s = json!({"type": "object", "properties": {
            "key": {"type": "string"}, "n": {"type": "integer", "minimum": 3},
            "opt": {"type": "string"}, "_context": {"type": "string"},
            "id": {"anyOf": [{"type": "string", "pattern": "^(?:0[xX])?[0-9a-fA-F]{64}$"}, {"type": "array"}]},
            "pair": {"type": "array", "prefixItems": [{"type": "boolean"}, {"type": "null"}]}
        }, "required": ["key", "n", "id", "pair"], "additionalProperties": false});
        assert_eq!(
            arguments(&s, true),
            json!({"key": "text", "n": 3, "id": "0".repeat(64), "pair": [false, null]})
        );
    }

    #[test]
    fn recursive_types_end() {
        let s = json!({"type": "object", "properties": {"t": {"$ref": "#/$defs/T"}}, "required": ["t"],
            "$defs": {"T": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/T"}, {"type": "null"}]}}, "required": ["next"]}}});
        let v = arguments(&s, true);
        assert!(jsonschema::validator_for(&s).unwrap().is_valid(&v), "{v}");
    }
}
