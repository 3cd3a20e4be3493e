//! Human-readable method signatures: `[view] get(key: string) -> string | null`.
//!
//! Type names follow the schemas: `T[]`, `map<K, V>`, `(A, B)`, `$ref` names,
//! CRDT wrappers unwrapped to their inner type; scalars by their ABI kind name.
//! Every name from the manifest is sanitised, so a signature is safe to print.

use crate::abi::*;
use crate::text::sanitize_line;

/// `[view]` or `[mut]`.
pub fn tag(method: &Method) -> &'static str {
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
}
