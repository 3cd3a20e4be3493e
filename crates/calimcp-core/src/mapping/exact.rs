//! Method results as every MCP client reads them exactly: a `u64` or `i64`
//! beyond ±(2^53−1) ([`MAX_SAFE_INTEGER`]) becomes a decimal string, since
//! JavaScript clients (most agent hosts) round such JSON numbers (RFC 8259
//! §6: only integers within that range are interoperable). Driven by the ABI
//! type of the result, never by guessing: an integer where the ABI says `f64`
//! or nothing stays as it came. The output schemas say the same
//! ([`super::schema`]); inputs take a decimal string by the same rule,
//! except inside an untagged enum, where calimcp converts no argument.
//! Pure: no I/O. The CLI prints results as the node sent them.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::abi::{Manifest, Method, Record, Scalar, Tagging, TypeDefKind, TypeRef, Variant};

/// The largest integer a JSON number carries exactly in every client (2^53−1).
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Nesting followed into a value; deeper parts are left as they are (the
/// node's JSON is parsed with a smaller depth limit anyway).
pub(crate) const MAX_DEPTH: usize = 512;

/// Levels [`fits`] looks into when choosing an untagged enum's member.
const FIT_DEPTH: usize = 4;

/// `output`, a result of `method`, with every 64-bit integer beyond
/// ±[`MAX_SAFE_INTEGER`] written as a decimal string.
pub fn result(m: &Manifest, method: &Method, output: Value) -> Value {
    match &method.returns {
        Some(t) => exact(m, t, output),
        None => output,
    }
}

/// `value`, of ABI type `t`, with every 64-bit integer beyond
/// ±[`MAX_SAFE_INTEGER`] written as a decimal string.
pub fn exact(m: &Manifest, t: &TypeRef, mut value: Value) -> Value {
    convert(m, t, &mut value, 0, &mut Fits::default());
    value
}

/// What [`fits`] decided about an untagged enum for one node of one value:
/// each (enum, node, levels left, exactness) is decided once, so nested
/// untagged enums of k members in a value of n nodes cost O(k·n), not a
/// new look at every member's members at every level. Nodes are known by
/// their address: valid while the value is only changed below the node
/// being decided (results are converted top-down, arguments not at all).
#[derive(Default)]
pub(crate) struct Fits {
    known: HashMap<(usize, usize, usize, bool), bool>,
    /// Members looked at, for tests of the cost.
    looked: u64,
}

impl Fits {
    /// How many members were looked at so far.
    #[cfg(test)]
    pub(crate) fn looked(&self) -> u64 {
        self.looked
    }
}

/// Whether a JSON number is an integer a JavaScript client would round.
pub(crate) fn unsafe_integer(n: &serde_json::Number) -> bool {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => u > MAX_SAFE_INTEGER,
        (None, Some(i)) => i.unsigned_abs() > MAX_SAFE_INTEGER,
        _ => false,
    }
}

/// A type with aliases, references and CRDT cells looked through.
enum Shape<'a> {
    /// `u64` or `i64`.
    Int64(Scalar),
    Other(Scalar),
    List(&'a TypeRef),
    Map(&'a TypeRef),
    Tuple(Vec<(&'a TypeRef, bool)>),
    Record(&'a Record),
    Variant(&'a Variant),
    /// Bytes or unknown: nothing to convert.
    Opaque,
}

fn shape<'a>(m: &'a Manifest, t: &'a TypeRef) -> Shape<'a> {
    let mut t = t;
    // An alias chain without a cycle is no longer than the type table.
    for _ in 0..=m.types.len() + 1 {
        let record = match t {
            TypeRef::Scalar(s @ (Scalar::U64 | Scalar::I64)) => return Shape::Int64(*s),
            TypeRef::Scalar(s) => return Shape::Other(*s),
            TypeRef::List { items, .. } => return Shape::List(items),
            TypeRef::Map { value, .. } => return Shape::Map(value),
            TypeRef::Tuple { elements, .. } => {
                return Shape::Tuple(elements.iter().map(|e| (e, false)).collect());
            }
            TypeRef::Bytes(_) | TypeRef::Unknown(_) => return Shape::Opaque,
            TypeRef::Record(r) => r,
            TypeRef::Ref(name) => match m.types.get(name).map(|d| &d.kind) {
                Some(TypeDefKind::Alias(target)) => {
                    t = target;
                    continue;
                }
                Some(TypeDefKind::Record(r)) => r,
                Some(TypeDefKind::Variant(v)) => return Shape::Variant(v),
                _ => return Shape::Opaque,
            },
        };
        if record.crdt.is_some() {
            match &record.inner {
                Some(inner) => t = inner,
                None => return Shape::Opaque,
            }
        } else if record.is_positional() {
            return Shape::Tuple(record.fields.iter().map(|f| (&f.ty, f.nullable)).collect());
        } else {
            return Shape::Record(record);
        }
    }
    Shape::Opaque
}

pub(crate) fn convert(m: &Manifest, t: &TypeRef, v: &mut Value, depth: usize, memo: &mut Fits) {
    if depth > MAX_DEPTH || v.is_null() {
        return;
    }
    match (shape(m, t), v) {
        (Shape::Int64(_), v @ Value::Number(_)) => {
            if let Value::Number(n) = &*v
                && unsafe_integer(n)
            {
                *v = Value::String(n.to_string());
            }
        }
        (Shape::List(items), Value::Array(a)) => {
            for e in a {
                convert(m, items, e, depth + 1, memo);
            }
        }
        (Shape::Map(value), Value::Object(o)) => {
            for e in o.values_mut() {
                convert(m, value, e, depth + 1, memo);
            }
        }
        (Shape::Tuple(elements), Value::Array(a)) => {
            for ((t, _), e) in elements.into_iter().zip(a) {
                convert(m, t, e, depth + 1, memo);
            }
        }
        // A one-field tuple struct that serde wrote as its field.
        (Shape::Tuple(elements), v) if elements.len() == 1 => {
            convert(m, elements[0].0, v, depth + 1, memo);
        }
        (Shape::Record(r), Value::Object(o)) => fields(m, r, o, None, depth, memo),
        (Shape::Variant(var), v) => variant(m, var, v, depth, memo),
        _ => {}
    }
}

pub(crate) fn fields(
    m: &Manifest,
    r: &Record,
    o: &mut Map<String, Value>,
    skip: Option<&str>,
    depth: usize,
    memo: &mut Fits,
) {
    for f in &r.fields {
        if Some(f.name.as_str()) == skip {
            continue;
        }
        if let Some(e) = o.get_mut(&f.name) {
            convert(m, &f.ty, e, depth + 1, memo);
        }
    }
}

pub(crate) fn variant(m: &Manifest, var: &Variant, v: &mut Value, depth: usize, memo: &mut Fits) {
    let case = |name: &str| var.variants.iter().find(|c| c.name == name);
    match (&var.tagging, v) {
        (Tagging::External, Value::Object(o)) if o.len() == 1 => {
            let Some((name, payload)) = o.iter_mut().next() else {
                return;
            };
            if let Some(t) = case(name).and_then(|c| c.payload.as_ref()) {
                convert(m, t, payload, depth + 1, memo);
            }
        }
        (Tagging::Internal { tag }, Value::Object(o)) => {
            let Some(t) = o
                .get(tag)
                .and_then(Value::as_str)
                .and_then(case)
                .and_then(|c| c.payload.as_ref())
            else {
                return;
            };
            match shape(m, t) {
                Shape::Record(r) => fields(m, r, o, Some(tag), depth, memo),
                Shape::Map(value) => {
                    for (k, e) in o.iter_mut() {
                        if k != tag {
                            convert(m, value, e, depth + 1, memo);
                        }
                    }
                }
                _ => {}
            }
        }
        (Tagging::Adjacent { tag, content }, Value::Object(o)) => {
            let t = o
                .get(tag)
                .and_then(Value::as_str)
                .and_then(case)
                .and_then(|c| c.payload.as_ref());
            if let (Some(t), Some(e)) = (t, o.get_mut(content)) {
                convert(m, t, e, depth + 1, memo);
            }
        }
        // serde writes the member's payload alone; the first member it fits
        // is the one serde would read it as.
        (Tagging::Untagged, v) => {
            let chosen = var
                .variants
                .iter()
                .filter_map(|c| c.payload.as_ref())
                .find(|t| fits(m, t, v, FIT_DEPTH, true, memo));
            if let Some(t) = chosen {
                convert(m, t, v, depth + 1, memo);
            }
        }
        _ => {}
    }
}

/// Whether an argument `v` has the form of type `t` looked at a few levels
/// deep, integers included (exactly within their kind): the untagged member
/// serde reads it as is the first one it fits ([`super::args::check_values`]).
pub(crate) fn fits_exactly(m: &Manifest, t: &TypeRef, v: &Value, memo: &mut Fits) -> bool {
    fits(m, t, v, FIT_DEPTH, true, memo)
}

/// Whether an argument `v` has the form of type `t` apart from its integers:
/// any JSON number fits an integer kind here, so that an untagged member
/// whose integer is out of range or not written in digits is still the one
/// to report ([`super::args::check_values`] checks it exactly).
pub(crate) fn has_form(m: &Manifest, t: &TypeRef, v: &Value, memo: &mut Fits) -> bool {
    fits(m, t, v, FIT_DEPTH, false, memo)
}

/// Whether `v` has the form of type `t`, looked at `budget` levels deep;
/// with `exact_ints`, an integer kind takes only an integer within 64 bits.
fn fits(
    m: &Manifest,
    t: &TypeRef,
    v: &Value,
    budget: usize,
    exact_ints: bool,
    memo: &mut Fits,
) -> bool {
    if budget == 0 {
        return true;
    }
    let mut fits_in = |t: &TypeRef, v: &Value| fits(m, t, v, budget - 1, exact_ints, memo);
    match (shape(m, t), v) {
        (Shape::Other(s), Value::Number(_)) if !exact_ints && s.is_integer() => true,
        (Shape::Int64(_), Value::Number(_)) if !exact_ints => true,
        // serde reads a u64 only from a non-negative integer, an i64 only
        // from one within i64 (a float such as `1.0` is neither).
        (Shape::Int64(Scalar::U64), Value::Number(n)) => n.as_u64().is_some(),
        (Shape::Int64(_), Value::Number(n)) => n.as_i64().is_some(),
        (Shape::Other(s), v) => scalar_fits(s, v),
        (Shape::List(items), Value::Array(a)) => a.iter().all(|e| fits_in(items, e)),
        (Shape::Map(value), Value::Object(o)) => o.values().all(|e| fits_in(value, e)),
        (Shape::Tuple(elements), Value::Array(a)) => {
            a.len() == elements.len()
                && elements
                    .iter()
                    .zip(a)
                    .all(|((t, null), e)| (*null && e.is_null()) || fits_in(t, e))
        }
        (Shape::Tuple(elements), v) if elements.len() == 1 => fits_in(elements[0].0, v),
        (Shape::Record(r), Value::Object(o)) => r.fields.iter().all(|f| match o.get(&f.name) {
            Some(Value::Null) => f.nullable,
            Some(e) => fits_in(&f.ty, e),
            None => f.nullable,
        }),
        (Shape::Variant(var), v) => match &var.tagging {
            Tagging::External => match v {
                Value::String(s) => var.variants.iter().any(|c| &c.name == s),
                Value::Object(o) if o.len() == 1 => o.keys().all(|k| {
                    var.variants
                        .iter()
                        .any(|c| &c.name == k && c.payload.is_some())
                }),
                _ => false,
            },
            Tagging::Internal { tag } | Tagging::Adjacent { tag, .. } => v
                .get(tag)
                .and_then(Value::as_str)
                .is_some_and(|s| var.variants.iter().any(|c| c.name == s)),
            Tagging::Untagged => fits_untagged(m, var, v, budget, exact_ints, memo),
        },
        (Shape::Opaque, _) => true,
        _ => false,
    }
}

/// Whether `v` has the form of scalar `s` (integers exactly within their kind).
fn scalar_fits(s: Scalar, v: &Value) -> bool {
    match (s, v) {
        (Scalar::Bool, Value::Bool(_))
        | (Scalar::String, Value::String(_))
        | (Scalar::Unit, Value::Null)
        | (Scalar::F32 | Scalar::F64, Value::Number(_)) => true,
        (Scalar::I32, Value::Number(n)) => n.as_i64().is_some_and(|i| i32::try_from(i).is_ok()),
        (Scalar::U32, Value::Number(n)) => n.as_u64().is_some_and(|i| u32::try_from(i).is_ok()),
        _ => false,
    }
}

/// Whether `v` fits some member of the untagged enum `var` ([`fits`] at
/// `budget`, which is more than 0), decided once per enum, value, budget
/// and kind of integer check (`memo`).
fn fits_untagged(
    m: &Manifest,
    var: &Variant,
    v: &Value,
    budget: usize,
    exact_ints: bool,
    memo: &mut Fits,
) -> bool {
    let key = (
        std::ptr::from_ref(var) as usize,
        std::ptr::from_ref(v) as usize,
        budget,
        exact_ints,
    );
    if let Some(&known) = memo.known.get(&key) {
        return known;
    }
    let mut any = false;
    for c in &var.variants {
        memo.looked += 1;
        let fit = match &c.payload {
            Some(t) => fits(m, t, v, budget - 1, exact_ints, memo),
            None => v.is_null(),
        };
        if fit {
            any = true;
            break;
        }
    }
    memo.known.insert(key, any);
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::parse_manifest;
    use serde_json::json;

    fn manifest(types: &str, returns: &str) -> Manifest {
        let m = format!(
            r#"{{"schema_version":"wasm-abi/1","types":{types},
            "methods":[{{"name":"m","params":[],"returns":{returns}}}],"events":[]}}"#
        );
        parse_manifest(m.as_bytes(), &mut Vec::new()).unwrap()
    }

    fn run(types: &str, returns: &str, value: Value) -> Value {
        let m = manifest(types, returns);
        result(&m, &m.methods[0], value)
    }

    #[test]
    fn integers_beyond_two_to_the_53_become_strings_and_the_rest_stay_numbers() {
        let u = r#"{"kind":"u64"}"#;
        assert_eq!(run("{}", u, json!(u64::MAX)), json!("18446744073709551615"));
        assert_eq!(
            run("{}", u, json!(MAX_SAFE_INTEGER + 1)),
            json!("9007199254740992")
        );
        assert_eq!(
            run("{}", u, json!(MAX_SAFE_INTEGER)),
            json!(MAX_SAFE_INTEGER)
        );
        assert_eq!(run("{}", u, json!(0)), json!(0));
        assert_eq!(run("{}", u, Value::Null), Value::Null);
        let i = r#"{"kind":"i64"}"#;
        assert_eq!(run("{}", i, json!(i64::MIN)), json!("-9223372036854775808"));
        assert_eq!(
            run("{}", i, json!(-(MAX_SAFE_INTEGER as i64) - 1)),
            json!("-9007199254740992")
        );
        assert_eq!(
            run("{}", i, json!(-(MAX_SAFE_INTEGER as i64))),
            json!(-(MAX_SAFE_INTEGER as i64))
        );
    }

    #[test]
    fn only_what_the_abi_calls_a_64_bit_integer_changes() {
        // An f64, an unknown type, a string, a u32: left as they came.
        let big = json!(u64::MAX);
        assert_eq!(run("{}", r#"{"kind":"f64"}"#, big.clone()), big);
        assert_eq!(run("{}", r#"{"kind":"string"}"#, json!("x")), json!("x"));
        assert_eq!(run("{}", r#"{"kind":"weird"}"#, big.clone()), big);
        // A float beyond 2^53 is a float, not an integer the app wrote.
        assert_eq!(run("{}", r#"{"kind":"u64"}"#, json!(1e300)), json!(1e300));
    }

    #[test]
    fn nested_values_follow_the_type() {
        let types = r#"{
            "Entry":{"kind":"record","fields":[
                {"name":"n","type":{"kind":"u64"}},
                {"name":"f","type":{"kind":"f64"}},
                {"name":"opt","type":{"kind":"i64"},"nullable":true}]},
            "Id":{"kind":"alias","target":{"kind":"u64"}},
            "Pair":{"kind":"record","fields":[{"name":"field_0","type":{"$ref":"Id"}},{"name":"field_1","type":{"kind":"string"}}]}
        }"#;
        let returns = r#"{"kind":"record","fields":[
            {"name":"list","type":{"kind":"list","items":{"$ref":"Entry"}}},
            {"name":"map","type":{"kind":"map","key":{"kind":"string"},"value":{"$ref":"Id"}}},
            {"name":"pair","type":{"$ref":"Pair"}},
            {"name":"tuple","type":{"kind":"tuple","elements":[{"kind":"u64"},{"kind":"f64"}]}}]}"#;
        let big = u64::MAX;
        let out = run(
            types,
            returns,
            json!({
                "list": [{"n": big, "f": 1.5, "opt": null}, {"n": 1, "f": 2.0, "opt": i64::MIN}],
                "map": {"a": big, "b": 7},
                "pair": [big, "x"],
                "tuple": [big, 3.5],
            }),
        );
        assert_eq!(
            out,
            json!({
                "list": [{"n": big.to_string(), "f": 1.5, "opt": null}, {"n": 1, "f": 2.0, "opt": i64::MIN.to_string()}],
                "map": {"a": big.to_string(), "b": 7},
                "pair": [big.to_string(), "x"],
                "tuple": [big.to_string(), 3.5],
            })
        );
    }

    #[test]
    fn variants_in_every_tagging() {
        let big = u64::MAX;
        let s = big.to_string();
        let cases = r#"[{"name":"Unit"},{"name":"Big","payload":{"kind":"u64"}},
            {"name":"Rec","payload":{"kind":"record","fields":[{"name":"n","type":{"kind":"u64"}}]}}]"#;
        for (tagging, value, want) in [
            ("", json!({"Big": big}), json!({"Big": s})),
            ("", json!("Unit"), json!("Unit")),
            (
                r#","tag":"t""#,
                json!({"t": "Rec", "n": big}),
                json!({"t": "Rec", "n": s}),
            ),
            (
                r#","tag":"t","content":"c""#,
                json!({"t": "Big", "c": big}),
                json!({"t": "Big", "c": s}),
            ),
            (r#","untagged":true"#, json!(big), json!(s)),
            (r#","untagged":true"#, json!({"n": big}), json!({"n": s})),
        ] {
            let types = format!(r#"{{"E":{{"kind":"variant","variants":{cases}{tagging}}}}}"#);
            let m = manifest(&types, r#"{"$ref":"E"}"#);
            if !matches!(
                m.types.get("E").map(|d| &d.kind),
                Some(TypeDefKind::Variant(_))
            ) {
                panic!("not a variant: {types}");
            }
            assert_eq!(result(&m, &m.methods[0], value), want, "{tagging}");
        }
    }

    #[test]
    fn an_untagged_member_is_chosen_by_form() {
        // A float member first: an integer still reads as the u64 member only
        // when it is one; serde would read 1.5 as the float.
        let types = r#"{"E":{"kind":"variant","untagged":true,"variants":[
            {"name":"S","payload":{"kind":"string"}},
            {"name":"N","payload":{"kind":"u64"}}]}}"#;
        assert_eq!(
            run(types, r#"{"$ref":"E"}"#, json!(u64::MAX)),
            json!(u64::MAX.to_string())
        );
        assert_eq!(run(types, r#"{"$ref":"E"}"#, json!("7")), json!("7"));
    }

    /// Inside an untagged enum (through a record and a list), results are
    /// converted by the member the value fits, and the output schema takes
    /// exactly what comes out, in both ref modes.
    #[test]
    fn untagged_results_are_converted_and_match_the_output_schema() {
        let types = r#"{
            "Amount":{"kind":"record","fields":[{"name":"value","type":{"kind":"u64"}},{"name":"delta","type":{"kind":"i64"}}]},
            "Loose":{"kind":"variant","untagged":true,"variants":[
                {"name":"U","payload":{"kind":"u64"}},
                {"name":"I","payload":{"kind":"i64"}},
                {"name":"A","payload":{"$ref":"Amount"}}]}}"#;
        let returns = r#"{"kind":"record","fields":[{"name":"items","type":{"kind":"list","items":{"$ref":"Loose"}}}]}"#;
        let m = manifest(types, returns);
        let value = json!({"items": [u64::MAX, i64::MIN, 5, {"value": u64::MAX, "delta": i64::MIN}, {"value": 1, "delta": -1}]});
        let out = result(&m, &m.methods[0], value);
        assert_eq!(
            out,
            json!({"items": [u64::MAX.to_string(), i64::MIN.to_string(), 5,
                {"value": u64::MAX.to_string(), "delta": i64::MIN.to_string()}, {"value": 1, "delta": -1}]})
        );
        for mode in [super::super::RefMode::Inline, super::super::RefMode::Defs] {
            let s = super::super::method_schemas(&m, &m.methods[0], mode)
                .output
                .unwrap();
            let v = jsonschema::draft202012::new(&s).unwrap();
            assert!(v.is_valid(&out), "{mode:?}: {s:#}");
            // The unconverted number is what a JavaScript client would round.
            let raw = json!({"items": [u64::MAX]});
            assert!(!v.is_valid(&raw), "{mode:?}");
        }
    }

    /// Issue 28.12: k untagged members nested D deep. Each member's first
    /// field is the enum again, so looking at every member's members anew
    /// costs about k^4 per level; decided once per node, it is O(k·D).
    #[test]
    fn nested_untagged_enums_cost_members_times_nodes() {
        let (k, d) = (60usize, 40usize);
        let mut members: Vec<String> = (0..k - 1)
            .map(|i| {
                format!(
                    r#"{{"name":"M{i}","payload":{{"kind":"record","fields":[{{"name":"next","type":{{"$ref":"E"}}}},{{"name":"f{i}","type":{{"kind":"u64"}}}}]}}}}"#
                )
            })
            .collect();
        members.push(r#"{"name":"Last","payload":{"kind":"record","fields":[{"name":"next","type":{"$ref":"E"},"nullable":true},{"name":"n","type":{"kind":"u64"}}]}}"#.into());
        let types = format!(
            r#"{{"E":{{"kind":"variant","untagged":true,"variants":[{}]}}}}"#,
            members.join(",")
        );
        let m = manifest(&types, r#"{"$ref":"E"}"#);
        let mut value = json!({"next": null, "n": u64::MAX});
        for _ in 0..d {
            value = json!({"next": value, "n": u64::MAX});
        }
        let t = m.methods[0].returns.clone().unwrap();
        let mut memo = Fits::default();
        let mut out = value.clone();
        convert(&m, &t, &mut out, 0, &mut memo);
        assert_eq!(out["n"], json!(u64::MAX.to_string()));
        let looked = memo.looked();
        let bound = (k * (d + 2) * FIT_DEPTH) as u64;
        assert!(
            looked <= bound,
            "{looked} members looked at, more than {bound}"
        );
        // Checking the same value as an argument: the same bound.
        let mut memo = Fits::default();
        let mut args = serde_json::Map::new();
        args.insert("e".into(), value);
        let am = parse_manifest(
            format!(
                r#"{{"schema_version":"wasm-abi/1","types":{types},
                "methods":[{{"name":"m","params":[{{"name":"e","type":{{"$ref":"E"}}}}],"returns":null}}],"events":[]}}"#
            )
            .as_bytes(),
            &mut Vec::new(),
        )
        .unwrap();
        let problems = super::super::args::check_values_with(&am, &am.methods[0], &args, &mut memo);
        assert!(problems.is_empty(), "{problems:?}");
        assert!(
            memo.looked() <= 2 * bound,
            "{} members looked at",
            memo.looked()
        );
    }

    #[test]
    fn alias_cycles_and_deep_values_end() {
        let types = r#"{"A":{"kind":"alias","target":{"$ref":"B"}},"B":{"kind":"alias","target":{"$ref":"A"}},
            "L":{"kind":"alias","target":{"kind":"list","items":{"$ref":"L"}}}}"#;
        assert_eq!(
            run(types, r#"{"$ref":"A"}"#, json!(u64::MAX)),
            json!(u64::MAX)
        );
        let mut deep = json!([]);
        for _ in 0..100 {
            deep = json!([deep]);
        }
        assert_eq!(run(types, r#"{"$ref":"L"}"#, deep.clone()), deep);
    }
}
