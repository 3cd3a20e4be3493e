//! Arguments: checking them against a tool's input schema and, exactly, on
//! the values themselves ([`check_values`]: integer bounds on the decimal
//! value, never through a float; u64/i64 decimal strings; 32-byte strings;
//! bytes written in digits; f32 within its range), keys given twice
//! ([`duplicate_key`]), and building the `argsJson` the node receives.
//!
//! The outgoing object holds the declared parameters only, so the injected
//! `_context` can never reach the application; hex strings (`0x` optional)
//! for plain `bytes` become byte arrays (what the node's serde wants), except
//! a 32-byte value without an encoding, which goes exactly as given; a u64 or
//! i64 given as a decimal string goes as that exact number.
//!
//! Inside an untagged enum nothing is converted (the app's serde picks the
//! member from the raw JSON): there u64/i64 are JSON integers only and bytes
//! arrays only, and the exact checks follow the member serde would read.

use std::fmt;

use serde_json::{Map, Value};

use super::schema::CONTEXT_PARAM;
use crate::abi::*;
use crate::text::{did_you_mean, sanitize_line};

pub use crate::error::Problem;

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

/// How one variant of a `oneOf` is written: `"Ping"` (a unit variant),
/// `{"Rename": …}` (externally tagged), `{"kind": "circle", …}` (a tag
/// field); `None` for a shape without a name (untagged).
fn variant_word(v: &Value) -> Option<String> {
    if let Some([name]) = v.get("enum").and_then(Value::as_array).map(Vec::as_slice) {
        return Some(shown(name));
    }
    if let Some(c) = v.get("const") {
        return Some(shown(c));
    }
    let props = v.get("properties")?.as_object()?;
    if let Some((tag, c)) = props.iter().find_map(|(k, p)| Some((k, p.get("const")?))) {
        return Some(format!(
            "{{{}: {}, …}}",
            shown(&Value::String(tag.clone())),
            shown(c)
        ));
    }
    match props.keys().collect::<Vec<_>>().as_slice() {
        [only] => Some(format!("{{{}: …}}", shown(&Value::String((*only).clone())))),
        _ => None,
    }
}

/// A short human description of what a schema accepts.
pub(crate) fn summary(s: &Value) -> String {
    if let Some(d) = s.get("description").and_then(Value::as_str) {
        for prefix in ["bytes: ", "u64: ", "i64: "] {
            let inner = format!("({prefix}");
            if let Some(hint) = d
                .rsplit(inner.as_str())
                .next()
                .filter(|_| d.contains(&inner))
            {
                return format!("{prefix}{}", hint.trim_end_matches(')'));
            }
            if d.starts_with(prefix) {
                return d.to_string();
            }
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
    if let Some(variants) = s.get("oneOf").and_then(Value::as_array) {
        let words: Option<Vec<String>> = variants.iter().map(variant_word).collect();
        return match words {
            Some(w) if !w.is_empty() => format!("one of the variants {}", w.join(", ")),
            _ => "one of the enum's variants".into(),
        };
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
        let Value::Object(obj) = args else {
            return vec![Problem::mismatch(
                "",
                "a JSON object of arguments".into(),
                json_type(args).into(),
            )];
        };
        let props = self.schema.get("properties").and_then(Value::as_object);
        let known: Vec<&str> = props
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let mut problems = unknown_arguments(obj, &known);
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
            // A variant value whose tag names one variant (`{"Move": [1]}`,
            // `{"kind": "circle"}`) is reported by that variant's problems.
            if let Some(branch) = tagged_branch(&err) {
                if let jsonschema::error::ValidationErrorKind::OneOfNotValid { context } =
                    err.into_parts().kind
                {
                    queue.extend(context.into_iter().nth(branch).unwrap_or_default());
                }
                continue;
            }
            problems.extend(self.problem(&err, props));
        }
        problems.dedup();
        problems
    }

    /// The schema node holding the keyword at `schema_path`.
    fn node_at(&self, schema_path: &str) -> Option<Value> {
        let parent = schema_path.rsplit_once('/').map_or("", |(p, _)| p);
        self.schema.pointer(parent).cloned()
    }

    /// The problem one schema error reports (`None`: one reported otherwise);
    /// `props` are the schema's top-level properties.
    fn problem(
        &self,
        err: &jsonschema::ValidationError<'_>,
        props: Option<&Map<String, Value>>,
    ) -> Option<Problem> {
        use jsonschema::error::ValidationErrorKind as K;
        let path = pointer_to_path(err.instance_path().as_str());
        Some(match err.kind() {
            K::AdditionalProperties { .. } if path.is_empty() => return None,
            K::Required { property } => {
                let name = property.as_str().unwrap_or_default().to_string();
                let expected = props.and_then(|p| p.get(&name)).map(summary).or_else(|| {
                    self.node_at(err.schema_path().as_str())
                        .and_then(|n| n.get("properties").and_then(|p| p.get(&name)).map(summary))
                });
                let full = if path.is_empty() {
                    sanitize_line(&name)
                } else {
                    format!("{path}.{}", sanitize_line(&name))
                };
                Problem::missing(full, expected.unwrap_or_else(|| "a value".into()))
            }
            K::Type { .. } | K::AnyOf { .. } | K::OneOfNotValid { .. } | K::Enum { .. } => {
                match self.node_at(err.schema_path().as_str()) {
                    Some(node) => Problem::mismatch(
                        path,
                        summary(&node),
                        format!("{}: {}", json_type(err.instance()), shown(err.instance())),
                    ),
                    None => Problem::new(path, sanitize_line(&err.to_string())),
                }
            }
            K::Pattern { .. } => self.pattern_problem(err, path),
            K::MinItems { limit } | K::MaxItems { limit } => self.items_problem(err, path, *limit),
            _ => Problem::new(path, sanitize_line(&err.to_string())),
        })
    }

    /// A string that does not match its pattern: for a hex string, its length.
    fn pattern_problem(&self, err: &jsonschema::ValidationError<'_>, path: String) -> Problem {
        match self.node_at(err.schema_path().as_str()) {
            Some(node)
                if node
                    .get("pattern")
                    .and_then(Value::as_str)
                    .is_some_and(|p| p.contains("0-9a-fA-F")) =>
            {
                Problem::new(
                    path,
                    format!(
                        "{} is not a hex string of the right length",
                        shown(err.instance())
                    ),
                )
            }
            _ => Problem::new(path, sanitize_line(&err.to_string())),
        }
    }

    /// An array with too few or too many items: exactly, at least or at most `limit`.
    fn items_problem(
        &self,
        err: &jsonschema::ValidationError<'_>,
        path: String,
        limit: u64,
    ) -> Problem {
        let got = err.instance().as_array().map_or(0, Vec::len);
        let node = self.node_at(err.schema_path().as_str());
        let bound = |k: &str| node.as_ref().and_then(|n| n.get(k)).and_then(Value::as_u64);
        let exact = bound("minItems").is_some() && bound("minItems") == bound("maxItems");
        let what = match err.kind() {
            _ if exact => "",
            jsonschema::error::ValidationErrorKind::MinItems { .. } => "at least ",
            _ => "at most ",
        };
        let items = if limit == 1 { "item" } else { "items" };
        Problem::mismatch(path, format!("{what}{limit} {items}"), got.to_string())
    }
}

/// Arguments the schema does not know, each with a suggestion: the name
/// meant, the known ones, or that the method takes none.
fn unknown_arguments(obj: &Map<String, Value>, known: &[&str]) -> Vec<Problem> {
    let mut problems = Vec::new();
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
            problems.push(Problem::new(
                sanitize_line(key),
                format!("unknown argument{hint}"),
            ));
        }
    }
    problems
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

/// For a `oneOf` failure of an object (a variant with a payload, or an
/// internally or adjacently tagged one): the one branch whose tag the value
/// carries, if exactly one does. A branch is another variant's when it
/// refuses the value at its own place for its type, a constant, an enum or a
/// property it does not have (the external tag: `{"Move": …}` is an unknown
/// property to every other variant), or refuses the constant of a direct
/// property (the internal and adjacent tag: `"kind": "square"`).
fn tagged_branch(err: &jsonschema::ValidationError<'_>) -> Option<usize> {
    use jsonschema::error::ValidationErrorKind as K;
    let K::OneOfNotValid { context } = err.kind() else {
        return None;
    };
    if !err.instance().is_object() {
        return None;
    }
    let here = err.instance_path().as_str();
    let child = |path: &str| {
        path.strip_prefix(here)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
    };
    let claims: Vec<usize> = context
        .iter()
        .enumerate()
        .filter(|(_, errors)| {
            !errors.is_empty()
                && !errors.iter().any(|e| {
                    let at = e.instance_path().as_str();
                    (at == here
                        && matches!(
                            e.kind(),
                            K::Type { .. }
                                | K::Constant { .. }
                                | K::Enum { .. }
                                | K::AdditionalProperties { .. }
                        ))
                        || (child(at) && matches!(e.kind(), K::Constant { .. }))
                })
        })
        .map(|(i, _)| i)
        .collect();
    match claims.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

fn hex_to_bytes(s: &str) -> Option<Vec<Value>> {
    let s = strip_0x(s);
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

/// `s` without a leading `0x` or `0X`.
fn strip_0x(s: &str) -> &str {
    s.strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s)
}

/// Whether `s` is a 32-byte value in string form: 64 hex digits (`0x`
/// optional) or base58 that decodes to exactly 32 bytes.
pub(crate) fn is_id32_string(s: &str) -> bool {
    let hex = strip_0x(s);
    if hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return true;
    }
    s.len() <= 44
        && bs58::decode(s)
            .into_vec()
            .is_ok_and(|bytes| bytes.len() == 32)
}

/// The exact value of a decimal integer string (`-?[0-9]+`, no sign `+`, no
/// leading zeros, no spaces), if it has one that fits an `i128`.
fn exact_decimal(s: &str) -> Option<i128> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && s != "-0";
    if !canonical {
        return None;
    }
    // Too many digits for any 64-bit kind: out of range, whatever they say.
    if digits.len() > 30 {
        return Some(if s.starts_with('-') {
            i128::MIN
        } else {
            i128::MAX
        });
    }
    s.parse().ok()
}

/// The range of an integer kind, exactly.
pub(crate) fn int_range(s: Scalar) -> (i128, i128) {
    match s {
        Scalar::U32 => (0, u32::MAX.into()),
        Scalar::U64 => (0, u64::MAX.into()),
        Scalar::I32 => (i32::MIN.into(), i32::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    }
}

/// Whether the kind also takes a decimal string (u64 and i64: JavaScript
/// hosts round numbers above 2^53 before calimcp sees them).
pub(crate) fn takes_decimal_string(s: Scalar) -> bool {
    matches!(s, Scalar::U64 | Scalar::I64)
}

/// The exact value of a JSON number, when it is an integer JSON stored
/// exactly (written in digits, within 64 bits). Never goes through a float.
fn exact_number(n: &serde_json::Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

fn exact_value(v: i128) -> Value {
    match (i64::try_from(v), u64::try_from(v)) {
        (Ok(i), _) => Value::from(i),
        (_, Ok(u)) => Value::from(u),
        _ => Value::Null,
    }
}

/// A place in the arguments where the ABI type says something about the value.
enum Leaf<'m> {
    Int(Scalar),
    Bytes(&'m Bytes),
    F32,
    /// An untagged enum's value: not walked into (which member it is, is
    /// the app's serde's choice; calimcp converts nothing there), but
    /// [`check_values`] checks it against the member serde would read.
    Untagged(&'m Variant),
}

/// Aliases may chain; this bounds following `$ref`s without descending into the value.
const MAX_ALIAS_HOPS: u32 = 64;

/// Visits every integer and bytes position of `v` typed `t`: through named
/// types, aliases, CRDT wrappers, lists, maps, tuples, records and tagged
/// variants. An untagged variant is a leaf ([`Leaf::Untagged`]): which member
/// a value means is the app's serde's choice, not calimcp's. `path` is kept
/// in the `a.b[2]` form.
fn walk<'m>(
    m: &'m Manifest,
    t: &'m TypeRef,
    v: &mut Value,
    path: &mut String,
    f: &mut dyn FnMut(Leaf<'m>, &mut Value, &str),
) {
    let mut t = t;
    for _ in 0..MAX_ALIAS_HOPS {
        match t {
            TypeRef::Ref(name) => match m.types.get(name).map(|d| &d.kind) {
                Some(TypeDefKind::Alias(target)) => t = target,
                Some(TypeDefKind::Bytes(b)) => return f(Leaf::Bytes(b), v, path),
                Some(TypeDefKind::Record(r)) => return walk_record(m, r, v, path, f),
                Some(TypeDefKind::Variant(var)) => return walk_variant(m, var, v, path, f),
                _ => return,
            },
            TypeRef::Record(r) if r.crdt.is_some() => match &r.inner {
                Some(inner) => t = inner,
                None => return,
            },
            TypeRef::Record(r) => return walk_record(m, r, v, path, f),
            TypeRef::Scalar(s) if s.is_integer() => return f(Leaf::Int(*s), v, path),
            TypeRef::Scalar(Scalar::F32) => return f(Leaf::F32, v, path),
            TypeRef::Bytes(b) => return f(Leaf::Bytes(b), v, path),
            TypeRef::List { items, .. } => {
                if let Value::Array(a) = v {
                    for (i, x) in a.iter_mut().enumerate() {
                        at_index(path, i, |path| walk(m, items, x, path, f));
                    }
                }
                return;
            }
            TypeRef::Map { value, .. } => {
                if let Value::Object(o) = v {
                    for (k, x) in o.iter_mut() {
                        at_key(path, k, |path| walk(m, value, x, path, f));
                    }
                }
                return;
            }
            TypeRef::Tuple { elements, .. } => {
                if let Value::Array(a) = v {
                    for (i, (x, t)) in a.iter_mut().zip(elements).enumerate() {
                        at_index(path, i, |path| walk(m, t, x, path, f));
                    }
                }
                return;
            }
            TypeRef::Scalar(_) | TypeRef::Unknown(_) => return,
        }
    }
}

fn at_index(path: &mut String, i: usize, go: impl FnOnce(&mut String)) {
    let len = path.len();
    path.push_str(&format!("[{i}]"));
    go(path);
    path.truncate(len);
}

fn at_key(path: &mut String, k: &str, go: impl FnOnce(&mut String)) {
    let len = path.len();
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(&sanitize_line(k));
    go(path);
    path.truncate(len);
}

fn walk_record<'m>(
    m: &'m Manifest,
    r: &'m Record,
    v: &mut Value,
    path: &mut String,
    f: &mut dyn FnMut(Leaf<'m>, &mut Value, &str),
) {
    if r.crdt.is_some() {
        if let Some(inner) = &r.inner {
            walk(m, inner, v, path, f);
        }
        return;
    }
    match v {
        Value::Array(a) if r.is_positional() => {
            for (i, (x, field)) in a.iter_mut().zip(&r.fields).enumerate() {
                at_index(path, i, |path| walk(m, &field.ty, x, path, f));
            }
        }
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                if let Some(field) = r.fields.iter().find(|field| field.name == *k) {
                    at_key(path, k, |path| walk(m, &field.ty, x, path, f));
                }
            }
        }
        _ => {}
    }
}

fn walk_variant<'m>(
    m: &'m Manifest,
    var: &'m Variant,
    v: &mut Value,
    path: &mut String,
    f: &mut dyn FnMut(Leaf<'m>, &mut Value, &str),
) {
    let payload = |name: &str| {
        var.variants
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.payload.as_ref())
    };
    if var.tagging == Tagging::Untagged {
        return f(Leaf::Untagged(var), v, path);
    }
    let Value::Object(o) = v else { return };
    match &var.tagging {
        Tagging::External if o.len() == 1 => {
            for (k, x) in o.iter_mut() {
                if let Some(p) = payload(k) {
                    at_key(path, k, |path| walk(m, p, x, path, f));
                }
            }
        }
        Tagging::Internal { tag } => {
            let Some(p) = o.get(tag).and_then(Value::as_str).and_then(payload) else {
                return;
            };
            // The payload's fields sit beside the tag (not a field, so left alone).
            walk(m, p, v, path, f);
        }
        Tagging::Adjacent { tag, content } => {
            let Some(p) = o.get(tag).and_then(Value::as_str).and_then(payload) else {
                return;
            };
            if let Some(x) = o.get_mut(content) {
                at_key(path, content, |path| walk(m, p, x, path, f));
            }
        }
        _ => {}
    }
}

/// Walks every declared parameter present in `args`.
fn walk_params<'m>(
    m: &'m Manifest,
    method: &'m Method,
    args: &mut Map<String, Value>,
    f: &mut dyn FnMut(Leaf<'m>, &mut Value, &str),
) {
    let mut path = String::new();
    for p in &method.params {
        if let Some(v) = args.get_mut(&p.name) {
            at_key(&mut path, &p.name, |path| walk(m, &p.ty, v, path, f));
        }
    }
}

/// What the JSON Schema cannot say exactly, checked on the values themselves:
/// integers against their kind's bounds on the exact decimal value (a number
/// JSON could not store as an exact 64-bit integer, such as
/// `-9223372036854775809` or `1e3`, is refused rather than rounded), u64 and
/// i64 decimal strings, and 32-byte values given as strings.
pub fn check_values(m: &Manifest, method: &Method, args: &Map<String, Value>) -> Vec<Problem> {
    // One memo for the whole value: each untagged member is decided once per node.
    check_values_with(m, method, args, &mut super::exact::Fits::default())
}

/// [`check_values`] with the memo of untagged decisions given.
pub(crate) fn check_values_with(
    m: &Manifest,
    method: &Method,
    args: &Map<String, Value>,
    memo: &mut super::exact::Fits,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut args = args.clone();
    walk_params(m, method, &mut args, &mut |leaf, v, path| {
        check_leaf(m, leaf, v, path, false, &mut problems, memo)
    });
    problems
}

/// [`check_values`] for one value `v` of type `t` at `path`; `raw` inside an
/// untagged enum, where calimcp converts nothing.
fn check_value(
    m: &Manifest,
    t: &TypeRef,
    v: &mut Value,
    path: &str,
    raw: bool,
    memo: &mut super::exact::Fits,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut path = path.to_string();
    walk(m, t, v, &mut path, &mut |leaf, v, path| {
        check_leaf(m, leaf, v, path, raw, &mut problems, memo)
    });
    problems
}

/// An untagged enum's value, checked as the member the app's serde reads it
/// as, as [`super::exact`] chooses it for results: the first member it fits
/// exactly ([`super::exact::fits_exactly`], a few levels deep); failing that,
/// the first member it has the form of apart from its integers
/// ([`super::exact::has_form`]), whose problems (an out-of-range or
/// not-in-digits number, a decimal string: the app reads a string as a
/// string) are reported. A value with no member's form is left to the
/// schema. One member is checked per value, so nested untagged enums cost
/// one walk, never one per combination of members; and `memo` decides each
/// member once per node of the value ([`super::exact::Fits`]).
fn check_untagged(
    m: &Manifest,
    var: &Variant,
    v: &mut Value,
    path: &str,
    problems: &mut Vec<Problem>,
    memo: &mut super::exact::Fits,
) {
    let mut members = var.variants.iter().filter_map(|c| c.payload.as_ref());
    let chosen = members
        .clone()
        .find(|t| super::exact::fits_exactly(m, t, v, memo))
        .or_else(|| members.find(|t| super::exact::has_form(m, t, v, memo)));
    if let Some(t) = chosen {
        problems.extend(check_value(m, t, v, path, true, memo));
    }
}

/// One place [`walk`] met, checked exactly; its problems go to `problems`.
/// `raw`: inside an untagged enum (a u64 or i64 is a JSON integer only).
fn check_leaf(
    m: &Manifest,
    leaf: Leaf<'_>,
    v: &mut Value,
    path: &str,
    raw: bool,
    problems: &mut Vec<Problem>,
    memo: &mut super::exact::Fits,
) {
    let problem = match (leaf, &*v) {
        (Leaf::Untagged(var), _) => return check_untagged(m, var, v, path, problems, memo),
        (Leaf::Int(s), Value::Number(n)) => int_number(s, n, v, path, raw),
        (Leaf::Int(s), Value::String(_)) if raw => Some(
            Problem::mismatch(
                path,
                format!("{} as a JSON number", int_expected(s)),
                format!("a string: {}", shown(v)),
            )
            .followed_by(": inside an untagged enum the app reads a string as a string"),
        ),
        (Leaf::Int(s), Value::String(text)) if takes_decimal_string(s) => {
            int_decimal_string(s, text, v, path)
        }
        // JSON Schema counts `1.0` as an integer; the app's serde reads
        // a byte only from digits, so `[1.0]` would reach it as floats.
        (Leaf::Bytes(_), Value::Array(items)) => byte_digits(items, path),
        // An f32 past its range would reach the app as infinity.
        (Leaf::F32, Value::Number(n)) => f32_in_range(n, v, path),
        (Leaf::Bytes(b), Value::String(text)) if super::schema::is_id32(b) => {
            if is_id32_string(text) {
                return;
            }
            Some(Problem::mismatch(
                path,
                "32 bytes: a base58 string that decodes to 32 bytes, 64 hex digits or an array of 32 integers 0-255".into(),
                shown(v),
            ))
        }
        _ => return,
    };
    problems.extend(problem);
}

/// What an integer of kind `s` must be: its range and kind.
fn int_expected(s: Scalar) -> String {
    let (lo, hi) = int_range(s);
    format!("an integer from {lo} to {hi} ({})", s.name())
}

/// An integer of kind `s` given as the JSON number `n` (`v`): in range and
/// written in digits.
fn int_number(
    s: Scalar,
    n: &serde_json::Number,
    v: &Value,
    path: &str,
    raw: bool,
) -> Option<Problem> {
    let (lo, hi) = int_range(s);
    match exact_number(n) {
        Some(x) if (lo..=hi).contains(&x) => None,
        // The schema's exact bounds say it for the 32-bit kinds.
        Some(_) if !takes_decimal_string(s) => None,
        Some(_) => Some(
            Problem::new(
                path,
                format!("{n} is out of range for {} ({lo} to {hi})", s.name()),
            )
            .expected(int_expected(s))
            .got(n.to_string()),
        ),
        None => Some(
            Problem::mismatch(path, int_expected(s), shown(v)).followed_by(format_args!(
                ": out of range, or not written in digits{}",
                if takes_decimal_string(s) && !raw {
                    " (give the exact digits, as a number or a decimal string)"
                } else {
                    " (give the exact digits, without a fraction or exponent)"
                }
            )),
        ),
    }
}

/// A u64 or i64 given as the decimal string `text` (`v`): digits, in range.
fn int_decimal_string(s: Scalar, text: &str, v: &Value, path: &str) -> Option<Problem> {
    let (lo, hi) = int_range(s);
    match exact_decimal(text) {
        Some(x) if (lo..=hi).contains(&x) => None,
        Some(_) => Some(
            Problem::new(
                path,
                format!(
                    "\"{}\" is out of range for {} ({lo} to {hi})",
                    shown_str(text),
                    s.name()
                ),
            )
            .expected(int_expected(s))
            .got(shown(v)),
        ),
        None => Some(Problem::mismatch(
            path,
            format!(
                "{} as a number or a decimal string of digits",
                int_expected(s)
            ),
            shown(v),
        )),
    }
}

/// Bytes given as an array: the first item not written in digits, if any.
fn byte_digits(items: &[Value], path: &str) -> Option<Problem> {
    let (i, bad) = items.iter().enumerate().find(|(_, x)| match x {
        Value::Number(n) => exact_number(n).is_none(),
        _ => false,
    })?;
    Some(
        Problem::mismatch(
            format!("{path}[{i}]"),
            "a byte (an integer 0-255 written in digits)".into(),
            shown(bad),
        )
        .followed_by(": the app cannot read a fraction or exponent"),
    )
}

/// An f32 given as the JSON number `n` (`v`): within f32's range.
fn f32_in_range(n: &serde_json::Number, v: &Value, path: &str) -> Option<Problem> {
    let x = n.as_f64().unwrap_or(f64::INFINITY);
    if x.is_finite() && x.abs() <= f64::from(f32::MAX) {
        return None;
    }
    Some(
        Problem::new(
            path,
            format!(
                "{} is out of range for f32 (at most \u{b1}{:e}); the app would read it as infinity",
                shown(v),
                f32::MAX
            ),
        )
        .expected(format!("a number of at most \u{b1}{:e} (f32)", f32::MAX))
        .got(shown(v)),
    )
}

/// The first key given twice in one object of the JSON `text` (JSON
/// parsers keep the last, silently): a message naming it and where, or
/// `None` when every object's keys are distinct or the text is not JSON
/// (its parser says why).
pub fn duplicate_key(text: &[u8]) -> Option<String> {
    use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

    struct Distinct;
    impl<'de> Deserialize<'de> for Distinct {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(Distinct)
        }
    }
    impl<'de> Visitor<'de> for Distinct {
        type Value = Distinct;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("JSON")
        }
        fn visit_bool<E>(self, _: bool) -> Result<Distinct, E> {
            Ok(Distinct)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Distinct, E> {
            Ok(Distinct)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Distinct, E> {
            Ok(Distinct)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Distinct, E> {
            Ok(Distinct)
        }
        fn visit_str<E>(self, _: &str) -> Result<Distinct, E> {
            Ok(Distinct)
        }
        fn visit_unit<E>(self) -> Result<Distinct, E> {
            Ok(Distinct)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Distinct, A::Error> {
            while a.next_element::<Distinct>()?.is_some() {}
            Ok(Distinct)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Distinct, A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(k) = a.next_key::<String>()? {
                if !seen.insert(k.clone()) {
                    return Err(de::Error::custom(format_args!(
                        "{DUPLICATE} {:?}",
                        shown_str(&k)
                    )));
                }
                a.next_value::<Distinct>()?;
            }
            Ok(Distinct)
        }
    }
    const DUPLICATE: &str = "the key is given twice in one object:";
    let e = serde_json::from_slice::<Distinct>(text).err()?;
    let message = e.to_string();
    message
        .starts_with(DUPLICATE)
        .then(|| format!("{message} (JSON keeps only the last of them; give each key once)"))
}

fn shown_str(s: &str) -> String {
    let s = sanitize_line(s);
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(59).collect::<String>())
    } else {
        s
    }
}

/// How a 32-byte value was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Form32 {
    String,
    /// 64 hex digits; the same 32 bytes in base58.
    Hex(String),
    Array,
}

/// The 32-byte values (bytes of size 32 without an encoding) in arguments as
/// sent, with the form each was given in: when the app then fails to read its
/// arguments, the other form is the likely fix.
pub fn id32_forms(m: &Manifest, method: &Method, args: &Value) -> Vec<(String, Form32)> {
    let mut out = Vec::new();
    let Some(obj) = args.as_object() else {
        return out;
    };
    let mut args = obj.clone();
    walk_params(m, method, &mut args, &mut |leaf, v, path| {
        if let Leaf::Bytes(b) = leaf
            && super::schema::is_id32(b)
        {
            match v {
                Value::String(s) => {
                    let hex = s.strip_prefix("0x").unwrap_or(s);
                    let bytes: Option<Vec<u8>> = (hex.len() == 64)
                        .then(|| {
                            (0..32)
                                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
                                .collect()
                        })
                        .flatten();
                    let form = match bytes {
                        Some(b) => Form32::Hex(bs58::encode(b).into_string()),
                        None => Form32::String,
                    };
                    out.push((path.to_string(), form));
                }
                Value::Array(_) => out.push((path.to_string(), Form32::Array)),
                _ => {}
            }
        }
    });
    out
}

/// The hint for an app that failed to read its arguments, when some 32-byte
/// values were given in one form and the app may want the other.
pub fn id32_hint(forms: &[(String, Form32)]) -> Option<String> {
    if forms.is_empty() {
        return None;
    }
    let list = |form: Form32| {
        forms
            .iter()
            .filter(|(_, f)| *f == form)
            .map(|(p, _)| format!("`{p}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    for (p, form) in forms {
        if let Form32::Hex(b58) = form {
            parts.push(format!(
                "`{p}` went as a hex string; if the app takes an id (PublicKey, ContextId, BlobId, ApplicationId), pass the same 32 bytes in base58: {b58}; if it takes a plain [u8; 32], an array of 32 integers 0-255"
            ));
        }
    }
    let strings = list(Form32::String);
    if !strings.is_empty() {
        parts.push(format!(
            "{strings} went as a string; if the app takes a plain [u8; 32], pass an array of 32 integers 0-255 instead"
        ));
    }
    let arrays = list(Form32::Array);
    if !arrays.is_empty() {
        parts.push(format!(
            "{arrays} went as an array; if the app takes an id (PublicKey, ContextId, BlobId, ApplicationId), pass its base58 string instead"
        ));
    }
    Some(format!(
        "the ABI writes ids and [u8; 32] alike as 32 bytes, so calimcp sends them as given: {}",
        parts.join("; ")
    ))
}

/// The `argsJson` object: declared parameters only, converted for the wire:
/// hex for plain `bytes` becomes a byte array (a 32-byte value without an
/// encoding is sent as given), a `0x` before explicitly hex-encoded bytes is
/// dropped, and a u64 or i64 given as a decimal string becomes that exact number.
pub fn outgoing(m: &Manifest, method: &Method, args: &Map<String, Value>) -> Value {
    let mut out = Map::new();
    for p in &method.params {
        if let Some(v) = args.get(&p.name) {
            out.insert(p.name.clone(), v.clone());
        }
    }
    walk_params(m, method, &mut out, &mut |leaf, v, _| match (leaf, &*v) {
        (Leaf::Int(s), Value::String(text)) if takes_decimal_string(s) => {
            let (lo, hi) = int_range(s);
            if let Some(x) = exact_decimal(text).filter(|x| (lo..=hi).contains(x)) {
                *v = exact_value(x);
            }
        }
        (Leaf::Bytes(b), Value::String(text)) if !super::schema::is_id32(b) => {
            match b
                .encoding
                .as_deref()
                .map(str::to_ascii_lowercase)
                .as_deref()
            {
                None => {
                    if let Some(bytes) = hex_to_bytes(text) {
                        *v = Value::Array(bytes);
                    }
                }
                Some("hex") => {
                    let stripped = strip_0x(text);
                    if stripped.len() != text.len() {
                        *v = Value::String(stripped.to_string());
                    }
                }
                Some(_) => {}
            }
        }
        _ => {}
    });
    Value::Object(out)
}

/// Problems from the schema and from [`check_values`] together: where both
/// speak of the same path, the exact check's words are kept.
pub fn merge(schema: Vec<Problem>, exact: Vec<Problem>) -> Vec<Problem> {
    if exact.is_empty() {
        return schema;
    }
    let mut out: Vec<Problem> = schema
        .into_iter()
        .filter(|p| !exact.iter().any(|e| e.path == p.path))
        .collect();
    out.extend(exact);
    out
}
