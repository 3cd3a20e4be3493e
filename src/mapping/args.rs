//! Arguments: checking them against a tool's input schema, and building the
//! `argsJson` the node receives.
//!
//! The outgoing object holds the declared parameters only, so the injected
//! `_context` can never reach the application; hex strings for plain `bytes`
//! become byte arrays (what the node's serde wants), and integral numbers at
//! integer positions are written as exact integers.

use std::fmt;

use serde_json::{Map, Value};

use super::schema::CONTEXT_PARAM;
use crate::abi::*;
use crate::text::{did_you_mean, sanitize_line};

/// One thing wrong with the arguments: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Argument path, e.g. `key`, `p.tags[2]`; empty for the whole object.
    pub path: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// A compiled input schema.
pub struct Validator {
    schema: Value,
    compiled: jsonschema::Validator,
}

/// `/a/0/b` → `a[0].b`.
fn pointer_to_path(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&sanitize_line(&seg));
        }
    }
    out
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn shown(v: &Value) -> String {
    let s = sanitize_line(&v.to_string());
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(59).collect::<String>())
    } else {
        s
    }
}

/// A short human description of what a schema accepts.
pub fn summary(s: &Value) -> String {
    if let Some(d) = s.get("description").and_then(Value::as_str) {
        if let Some(bytes) = d
            .rsplit("(bytes: ")
            .next()
            .filter(|_| d.contains("(bytes: "))
        {
            return format!("bytes: {}", bytes.trim_end_matches(')'));
        }
        if d.starts_with("bytes: ") {
            return d.to_string();
        }
    }
    if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
        let parts: Vec<String> = any.iter().map(summary).collect();
        return parts.join(" or ");
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        let names: Vec<String> = e.iter().map(|v| v.to_string()).collect();
        return format!("one of {}", names.join(", "));
    }
    if s.get("oneOf").is_some() {
        return "one of the enum's variants".into();
    }
    match s.get("type").and_then(Value::as_str) {
        Some("integer") => match (s.get("minimum"), s.get("maximum")) {
            (Some(lo), Some(hi)) => format!("an integer from {lo} to {hi}"),
            _ => "an integer".into(),
        },
        Some("array") if s.get("prefixItems").is_some() => {
            format!(
                "an array of {} items",
                s.get("minItems").map(Value::to_string).unwrap_or_default()
            )
        }
        Some("object") if s.get("additionalProperties").is_some_and(Value::is_object) => {
            "a map (JSON object)".into()
        }
        Some("string") => "a string".into(),
        Some("boolean") => "a boolean (true or false)".into(),
        Some("number") => "a number".into(),
        Some("null") => "null".into(),
        Some("array") => "an array".into(),
        Some("object") => "an object".into(),
        _ => "any JSON value".into(),
    }
}

impl std::fmt::Debug for Validator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Validator").finish_non_exhaustive()
    }
}

impl Validator {
    pub fn new(schema: &Value) -> Result<Self, String> {
        let compiled = jsonschema::draft202012::new(schema)
            .map_err(|e| format!("invalid generated schema: {e}"))?;
        Ok(Validator {
            schema: schema.clone(),
            compiled,
        })
    }

    /// Every problem with `args`, in a stable order; empty when they are valid.
    pub fn check(&self, args: &Value) -> Vec<Problem> {
        let mut problems = Vec::new();
        let Value::Object(obj) = args else {
            return vec![Problem {
                path: String::new(),
                message: format!(
                    "expected a JSON object of arguments, got {}",
                    json_type(args)
                ),
            }];
        };
        let props = self.schema.get("properties").and_then(Value::as_object);
        let known: Vec<&str> = props
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        for key in obj.keys() {
            if !known.contains(&key.as_str()) {
                let suggestions =
                    did_you_mean(key, known.iter().copied().filter(|k| *k != CONTEXT_PARAM));
                let hint = match suggestions.first() {
                    Some(s) => format!("; did you mean `{s}`?"),
                    None if known.len() > 1 || !known.contains(&CONTEXT_PARAM) => format!(
                        "; known: {}",
                        known
                            .iter()
                            .filter(|k| **k != CONTEXT_PARAM)
                            .copied()
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    None => "; this method takes no arguments".into(),
                };
                problems.push(Problem {
                    path: sanitize_line(key),
                    message: format!("unknown argument{hint}"),
                });
            }
        }
        let mut queue: std::collections::VecDeque<jsonschema::ValidationError<'static>> = self
            .compiled
            .iter_errors(args)
            .map(jsonschema::ValidationError::to_owned)
            .collect();
        while let Some(err) = queue.pop_front() {
            // A value of the right type for exactly one `anyOf` branch (a
            // nullable record with a bad field, a hex string of the wrong
            // length) is reported by that branch's own problems, at their paths.
            if let Some(branch) = only_typed_branch(&err) {
                if let jsonschema::error::ValidationErrorKind::AnyOf { context } =
                    err.into_parts().kind
                {
                    queue.extend(context.into_iter().nth(branch).unwrap_or_default());
                }
                continue;
            }
            let path = pointer_to_path(err.instance_path().as_str());
            let node_at = |schema_path: &str| {
                let parent = schema_path.rsplit_once('/').map_or("", |(p, _)| p);
                self.schema.pointer(parent).cloned()
            };
            let message = match err.kind() {
                jsonschema::error::ValidationErrorKind::AdditionalProperties { .. }
                    if path.is_empty() =>
                {
                    continue;
                }
                jsonschema::error::ValidationErrorKind::Required { property } => {
                    let name = property.as_str().unwrap_or_default().to_string();
                    let expected = props.and_then(|p| p.get(&name)).map(summary).or_else(|| {
                        node_at(err.schema_path().as_str()).and_then(|n| {
                            n.get("properties").and_then(|p| p.get(&name)).map(summary)
                        })
                    });
                    let full = if path.is_empty() {
                        sanitize_line(&name)
                    } else {
                        format!("{path}.{}", sanitize_line(&name))
                    };
                    problems.push(Problem {
                        path: full,
                        message: format!(
                            "missing required argument (expected {})",
                            expected.unwrap_or_else(|| "a value".into())
                        ),
                    });
                    continue;
                }
                jsonschema::error::ValidationErrorKind::Type { .. }
                | jsonschema::error::ValidationErrorKind::AnyOf { .. }
                | jsonschema::error::ValidationErrorKind::OneOfNotValid { .. }
                | jsonschema::error::ValidationErrorKind::Enum { .. } => {
                    match node_at(err.schema_path().as_str()) {
                        Some(node) => format!(
                            "expected {}, got {}: {}",
                            summary(&node),
                            json_type(err.instance()),
                            shown(err.instance())
                        ),
                        None => sanitize_line(&err.to_string()),
                    }
                }
                jsonschema::error::ValidationErrorKind::Pattern { .. } => {
                    match node_at(err.schema_path().as_str()) {
                        Some(node)
                            if node
                                .get("pattern")
                                .and_then(Value::as_str)
                                .is_some_and(|p| p.contains("0-9a-fA-F")) =>
                        {
                            format!(
                                "{} is not a hex string of the right length",
                                shown(err.instance())
                            )
                        }
                        _ => sanitize_line(&err.to_string()),
                    }
                }
                _ => sanitize_line(&err.to_string()),
            };
            problems.push(Problem { path, message });
        }
        problems.dedup();
        problems
    }
}

/// For an `anyOf` failure of a non-null value: the one branch whose errors are
/// not about the value's type at this place, if exactly one is.
fn only_typed_branch(err: &jsonschema::ValidationError<'_>) -> Option<usize> {
    let jsonschema::error::ValidationErrorKind::AnyOf { context } = err.kind() else {
        return None;
    };
    if err.instance().is_null() {
        return None;
    }
    let here = err.instance_path().as_str();
    let typed: Vec<usize> = context
        .iter()
        .enumerate()
        .filter(|(_, errors)| {
            !errors.is_empty()
                && !errors.iter().any(|e| {
                    e.instance_path().as_str() == here
                        && matches!(
                            e.kind(),
                            jsonschema::error::ValidationErrorKind::Type { .. }
                                | jsonschema::error::ValidationErrorKind::Constant { .. }
                                | jsonschema::error::ValidationErrorKind::Enum { .. }
                        )
                })
        })
        .map(|(i, _)| i)
        .collect();
    match typed.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

fn hex_to_bytes(s: &str) -> Option<Vec<Value>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(s.get(i..i + 2)?, 16)
                .ok()
                .map(Value::from)
        })
        .collect()
}

/// The `argsJson` object: declared parameters only, converted for the wire.
pub fn outgoing(m: &Manifest, method: &Method, args: &Map<String, Value>) -> Value {
    let mut out = Map::new();
    for p in &method.params {
        if let Some(v) = args.get(&p.name) {
            out.insert(p.name.clone(), convert(m, &p.ty, v.clone(), 0));
        }
    }
    Value::Object(out)
}

/// Aliases may chain; this bounds following `$ref`s without descending into the value.
const MAX_ALIAS_HOPS: u32 = 64;

fn convert(m: &Manifest, t: &TypeRef, v: Value, hops: u32) -> Value {
    match (t, v) {
        (TypeRef::Ref(name), v) => match m.types.get(name) {
            Some(def) if hops < MAX_ALIAS_HOPS => convert_def(m, def, v, hops + 1),
            _ => v,
        },
        (TypeRef::Bytes(b), Value::String(s)) if b.encoding.is_none() => match hex_to_bytes(&s) {
            Some(bytes) => Value::Array(bytes),
            None => Value::String(s),
        },
        (TypeRef::Scalar(s), Value::Number(n)) if s.is_integer() && n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.fract() == 0.0 && f >= i64::MIN as f64 && f < i64::MAX as f64 {
                Value::from(f as i64)
            } else if f.fract() == 0.0 && f >= 0.0 && f < u64::MAX as f64 {
                Value::from(f as u64)
            } else {
                Value::Number(n)
            }
        }
        (TypeRef::List { items, .. }, Value::Array(a)) => {
            Value::Array(a.into_iter().map(|x| convert(m, items, x, 0)).collect())
        }
        (TypeRef::Map { value, .. }, Value::Object(o)) => Value::Object(
            o.into_iter()
                .map(|(k, x)| (k, convert(m, value, x, 0)))
                .collect(),
        ),
        (TypeRef::Tuple { elements, .. }, Value::Array(a)) => Value::Array(
            a.into_iter()
                .enumerate()
                .map(|(i, x)| match elements.get(i) {
                    Some(t) => convert(m, t, x, 0),
                    None => x,
                })
                .collect(),
        ),
        (TypeRef::Record(r), v) => convert_record(m, r, v, hops),
        (_, v) => v,
    }
}

fn convert_record(m: &Manifest, r: &Record, v: Value, hops: u32) -> Value {
    if r.crdt.is_some() {
        return match &r.inner {
            Some(inner) => convert(m, inner, v, hops),
            None => v,
        };
    }
    match v {
        Value::Array(a) if r.is_positional() => Value::Array(
            a.into_iter()
                .enumerate()
                .map(|(i, x)| match r.fields.get(i) {
                    Some(f) => convert(m, &f.ty, x, 0),
                    None => x,
                })
                .collect(),
        ),
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, x)| {
                    let x = match r.fields.iter().find(|f| f.name == k) {
                        Some(f) => convert(m, &f.ty, x, 0),
                        None => x,
                    };
                    (k, x)
                })
                .collect(),
        ),
        v => v,
    }
}

fn convert_def(m: &Manifest, def: &TypeDef, v: Value, hops: u32) -> Value {
    match &def.kind {
        TypeDefKind::Alias(t) => convert(m, t, v, hops),
        TypeDefKind::Bytes(b) => convert(m, &TypeRef::Bytes(b.clone()), v, hops),
        TypeDefKind::Record(r) => convert_record(m, r, v, hops),
        TypeDefKind::Variant(var) => convert_variant(m, var, v),
        TypeDefKind::Unknown(_) => v,
    }
}

fn convert_variant(m: &Manifest, var: &Variant, v: Value) -> Value {
    let case = |name: &str| var.variants.iter().find(|c| c.name == name);
    match (&var.tagging, v) {
        (Tagging::External, Value::Object(o)) if o.len() == 1 => Value::Object(
            o.into_iter()
                .map(|(k, x)| {
                    let x = match case(&k).and_then(|c| c.payload.as_ref()) {
                        Some(p) => convert(m, p, x, 0),
                        None => x,
                    };
                    (k, x)
                })
                .collect(),
        ),
        (Tagging::Internal { tag }, Value::Object(o)) => {
            let payload = o
                .get(tag)
                .and_then(Value::as_str)
                .and_then(case)
                .and_then(|c| c.payload.clone());
            match payload {
                Some(p) => {
                    let tag_value = o.get(tag).cloned();
                    let mut converted = match convert(m, &p, Value::Object(o), 0) {
                        Value::Object(c) => c,
                        _ => Map::new(),
                    };
                    if let Some(t) = tag_value {
                        converted.insert(tag.clone(), t);
                    }
                    Value::Object(converted)
                }
                None => Value::Object(o),
            }
        }
        (Tagging::Adjacent { tag, content }, Value::Object(mut o)) => {
            let payload = o
                .get(tag)
                .and_then(Value::as_str)
                .and_then(case)
                .and_then(|c| c.payload.clone());
            if let (Some(p), Some(x)) = (payload, o.remove(content)) {
                o.insert(content.clone(), convert(m, &p, x, 0));
            }
            Value::Object(o)
        }
        // Untagged members take bytes as arrays only, so nothing changes.
        (_, v) => v,
    }
}
