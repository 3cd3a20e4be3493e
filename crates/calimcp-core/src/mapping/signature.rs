//! Human-readable method signatures: `[view] get(key: string) -> string | null`.
//!
//! Type names follow the schemas: `T[]`, `map<K, V>`, `(A, B)`, `$ref` names,
//! CRDT wrappers unwrapped to their inner type; scalars by their ABI kind name.
//! [`shape`] says in one line what a value of a type looks like, for help.
//! Every name from the manifest is sanitised, so a signature is safe to print.

use crate::abi::*;
use crate::text::sanitize_line;

/// `[view]` or `[mut]`.
pub(crate) fn tag(method: &Method) -> &'static str {
    if method.is_view() { "[view]" } else { "[mut]" }
}

/// The method's signature, e.g. `[mut] set(key: string, value: string) -> unit`.
pub fn signature(method: &Method) -> String {
    let params: Vec<String> = method
        .params
        .iter()
        .map(|p| {
            format!(
                "{}{}: {}",
                sanitize_line(&p.name),
                if p.nullable { "?" } else { "" },
                type_name(&p.ty)
            )
        })
        .collect();
    let ret = method
        .returns
        .as_ref()
        .map_or_else(|| "unit".to_string(), type_name);
    let null = if method.returns_nullable {
        " | null"
    } else {
        ""
    };
    format!(
        "{} {}({}) -> {ret}{null}",
        tag(method),
        sanitize_line(&method.name),
        params.join(", ")
    )
}

/// How a type renders inside a signature.
pub fn type_name(t: &TypeRef) -> String {
    match t {
        TypeRef::Ref(name) => sanitize_line(name),
        TypeRef::Scalar(s) => s.name().to_string(),
        TypeRef::Bytes(_) => "bytes".into(),
        TypeRef::List { items, .. } => format!("{}[]", type_name(items)),
        TypeRef::Map { key, value, .. } => format!("map<{}, {}>", type_name(key), type_name(value)),
        TypeRef::Tuple { elements, .. } => tuple(elements.iter()),
        TypeRef::Record(r) => match (&r.crdt, &r.inner) {
            (Some(_), Some(inner)) => type_name(inner),
            (Some(crdt), None) => sanitize_line(&crdt.0),
            (None, _) if r.is_positional() => tuple(r.fields.iter().map(|f| &f.ty)),
            (None, _) => "record".into(),
        },
        TypeRef::Unknown(_) => "unknown".into(),
    }
}

/// Longest shape shown; longer ones end in `…`.
const MAX_SHAPE: usize = 200;

/// What a value of `t` looks like on the command line, in one line, for
/// `call TOOL --help`: the names of a unit-only variant (`Red | Green | Blue`),
/// the JSON of a record (`{"x": i64, "tags": string[]}`), of a variant with
/// payloads (`"Empty" | {"Circle": u32}`), of lists, maps and tuples, and
/// `null` for unit. `None` where the type name says it all (scalars, bytes).
pub fn shape(m: &Manifest, t: &TypeRef) -> Option<String> {
    let mut t = t;
    for _ in 0..8 {
        let TypeRef::Ref(name) = t else { break };
        match m.types.get(name).map(|d| &d.kind) {
            Some(TypeDefKind::Alias(target)) => t = target,
            Some(TypeDefKind::Record(r)) => return Some(cut(record_shape(r))),
            Some(TypeDefKind::Variant(v)) => return Some(cut(variant_shape(v))),
            _ => return None,
        }
    }
    let s = match t {
        TypeRef::Scalar(Scalar::Unit) => "null".to_string(),
        TypeRef::List { items, crdt: None } => format!("[{}, …]", type_name(items)),
        TypeRef::Map {
            key,
            value,
            crdt: None,
        } => format!("{{\"<{}>\": {}}}", type_name(key), type_name(value)),
        TypeRef::Tuple { elements, .. } => {
            let parts: Vec<String> = elements.iter().map(type_name).collect();
            format!("[{}]", parts.join(", "))
        }
        TypeRef::Record(r) if r.crdt.is_none() => record_shape(r),
        _ => return None,
    };
    Some(cut(s))
}

fn record_shape(r: &Record) -> String {
    if r.is_positional() {
        let parts: Vec<String> = r.fields.iter().map(|f| type_name(&f.ty)).collect();
        return format!("[{}]", parts.join(", "));
    }
    let fields: Vec<String> = r
        .fields
        .iter()
        .map(|f| {
            let null = if f.nullable { " | null" } else { "" };
            format!("\"{}\": {}{null}", sanitize_line(&f.name), type_name(&f.ty))
        })
        .collect();
    format!("{{{}}}", fields.join(", "))
}

fn variant_shape(v: &Variant) -> String {
    let case = |c: &VariantCase| {
        let name = sanitize_line(&c.name);
        match (&v.tagging, &c.payload) {
            (Tagging::Untagged, Some(p)) => type_name(p),
            (Tagging::Untagged, None) => "null".into(),
            (Tagging::External, Some(p)) => format!("{{\"{name}\": {}}}", type_name(p)),
            (Tagging::Internal { tag }, _) => {
                format!("{{\"{}\": \"{name}\", …}}", sanitize_line(tag))
            }
            (Tagging::Adjacent { tag, content }, Some(p)) => format!(
                "{{\"{}\": \"{name}\", \"{}\": {}}}",
                sanitize_line(tag),
                sanitize_line(content),
                type_name(p)
            ),
            (Tagging::Adjacent { tag, .. }, None) => {
                format!("{{\"{}\": \"{name}\"}}", sanitize_line(tag))
            }
            (Tagging::External, None) => name,
        }
    };
    let cases: Vec<String> = v.variants.iter().map(case).collect();
    cases.join(" | ")
}

fn cut(s: String) -> String {
    if s.chars().count() <= MAX_SHAPE {
        return s;
    }
    let mut out: String = s.chars().take(MAX_SHAPE).collect();
    out.push('…');
    out
}

fn tuple<'a>(elements: impl Iterator<Item = &'a TypeRef>) -> String {
    let parts: Vec<String> = elements.map(type_name).collect();
    format!("({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str, ty: TypeRef, nullable: bool) -> Param {
        Param {
            name: name.into(),
            ty,
            nullable,
            doc: None,
        }
    }

    #[test]
    fn renders_the_spec_examples() {
        let get = Method {
            name: "get".into(),
            params: vec![p("key", TypeRef::Scalar(Scalar::String), false)],
            returns: Some(TypeRef::Scalar(Scalar::String)),
            returns_nullable: true,
            intent: Intent::ReadOnly,
            ..Method::default()
        };
        assert_eq!(signature(&get), "[view] get(key: string) -> string | null");
        let set = Method {
            name: "set".into(),
            params: vec![
                p("key", TypeRef::Scalar(Scalar::String), false),
                p("value", TypeRef::Scalar(Scalar::String), false),
            ],
            ..Method::default()
        };
        assert_eq!(
            signature(&set),
            "[mut] set(key: string, value: string) -> unit"
        );
    }

    #[test]
    fn composite_names_and_crdt_unwrapping() {
        let cell = TypeRef::Record(Record {
            fields: vec![],
            crdt: Some(Crdt("lww_register".into())),
            inner: Some(Box::new(TypeRef::Scalar(Scalar::U32))),
        });
        let map = TypeRef::Map {
            key: Box::new(TypeRef::Scalar(Scalar::String)),
            value: Box::new(cell),
            crdt: Some(Crdt("unordered_map".into())),
        };
        assert_eq!(type_name(&map), "map<string, u32>");
        let tuple = TypeRef::Tuple {
            elements: vec![
                TypeRef::Scalar(Scalar::String),
                TypeRef::Bytes(Bytes::default()),
            ],
            crdt: None,
        };
        assert_eq!(
            type_name(&TypeRef::List {
                items: Box::new(tuple),
                crdt: None
            }),
            "(string, bytes)[]"
        );
        let m = Method {
            name: "x\u{1b}[2J".into(),
            params: vec![p("o", TypeRef::Ref("Opt\u{7}".into()), true)],
            ..Method::default()
        };
        assert_eq!(signature(&m), "[mut] x[2J(o?: Opt) -> unit");
    }

    #[test]
    fn shapes_say_what_a_value_looks_like() {
        let m = crate::abi::parse_manifest(
            br#"{"schema_version":"wasm-abi/1","types":{
                "Color":{"kind":"variant","variants":[{"name":"Red"},{"name":"Green"}]},
                "Shape":{"kind":"variant","variants":[{"name":"Empty"},{"name":"Circle","payload":{"kind":"u32"}}]},
                "P":{"kind":"record","fields":[{"name":"x","type":{"kind":"i64"}},{"name":"l","type":{"kind":"string"},"nullable":true}]},
                "A":{"kind":"alias","target":{"$ref":"Color"}}},
              "methods":[]}"#,
            &mut Vec::new(),
        )
        .unwrap();
        let r = |n: &str| TypeRef::Ref(n.into());
        assert_eq!(shape(&m, &r("Color")).unwrap(), "Red | Green");
        assert_eq!(shape(&m, &r("A")).unwrap(), "Red | Green");
        assert_eq!(
            shape(&m, &r("Shape")).unwrap(),
            r#"Empty | {"Circle": u32}"#
        );
        assert_eq!(
            shape(&m, &r("P")).unwrap(),
            r#"{"x": i64, "l": string | null}"#
        );
        assert_eq!(shape(&m, &TypeRef::Scalar(Scalar::Unit)).unwrap(), "null");
        assert_eq!(shape(&m, &TypeRef::Scalar(Scalar::U64)), None);
    }
}
