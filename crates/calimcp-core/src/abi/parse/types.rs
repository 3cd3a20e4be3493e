//! Types: one reader for type uses and named definitions, put together
//! once all of an object's keys are read.

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::Parser;
use super::items::FieldR;
use super::read::*;
use crate::abi::model::*;
use crate::text::sanitize_line;

pub(super) const TYPE_KEYS: &[&str] = &[
    "$ref",
    "kind",
    "items",
    "key",
    "value",
    "elements",
    "fields",
    "crdt_type",
    "inner_type",
    "size",
    "encoding",
    "doc",
    "variants",
    "tag",
    "content",
    "untagged",
    "target",
];

/// A type object's keys, each read on its own, before its kind is known.
#[derive(Default)]
pub(super) struct TypeObj {
    r#ref: Option<Leaf>,
    kind: Option<Leaf>,
    items: Option<Slot<TypeRef>>,
    key: Option<Slot<TypeRef>>,
    value: Option<Slot<TypeRef>>,
    inner_type: Option<Slot<TypeRef>>,
    target: Option<Slot<TypeRef>>,
    elements: Listed<TypeRef>,
    fields: Listed<Option<Field>>,
    variants: Listed<Option<VariantCase>>,
    crdt_type: Option<Leaf>,
    size: Option<Leaf>,
    encoding: Option<Leaf>,
    doc: Option<Leaf>,
    tag: Option<Leaf>,
    content: Option<Leaf>,
    untagged: Option<Leaf>,
}

/// A type as written: a bare string, another non-object, or an object.
pub(super) enum RawType {
    Str(String),
    Other(&'static str),
    Obj(Box<TypeObj>),
}

impl RawType {
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<RawType, D::Error> {
        struct V<'p, 'w>(&'p mut Parser<'w>);
        impl V<'_, '_> {
            fn other(self, kind: &'static str) -> RawType {
                RawType::Other(kind)
            }
        }
        impl<'de> Visitor<'de> for V<'_, '_> {
            type Value = RawType;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a type")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawType, E> {
                Ok(RawType::Str(v.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawType, A::Error> {
                let p = self.0;
                let mut o = Box::<TypeObj>::default();
                while let Some(key) = map.next_key_seed(Key(TYPE_KEYS))? {
                    match key {
                        Some("$ref") => o.r#ref = Some(map.next_value()?),
                        Some("kind") => o.kind = Some(map.next_value()?),
                        Some(k @ ("items" | "key" | "value" | "inner_type" | "target")) => {
                            let slot = Some(p.slot::<A, TypeRefR>(&mut map, k)?);
                            match k {
                                "items" => o.items = slot,
                                "key" => o.key = slot,
                                "value" => o.value = slot,
                                "inner_type" => o.inner_type = slot,
                                _ => o.target = slot,
                            }
                        }
                        Some("elements") => {
                            o.elements = Some(p.slot::<A, List<TypeRefR>>(&mut map, "elements")?);
                        }
                        Some("fields") => {
                            o.fields = Some(p.slot::<A, List<FieldR>>(&mut map, "fields")?);
                        }
                        Some("variants") => {
                            o.variants = Some(p.slot::<A, List<CaseR>>(&mut map, "variants")?);
                        }
                        Some("crdt_type") => o.crdt_type = Some(map.next_value()?),
                        Some("size") => o.size = Some(map.next_value()?),
                        Some("encoding") => o.encoding = Some(map.next_value()?),
                        Some("doc") => o.doc = Some(map.next_value()?),
                        Some("tag") => o.tag = Some(map.next_value()?),
                        Some("content") => o.content = Some(map.next_value()?),
                        Some("untagged") => o.untagged = Some(map.next_value()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(RawType::Obj(o))
            }
            other_kinds!(but_str);
        }
        d.deserialize_any(V(p))
    }
}

/// A use of a type (a parameter's, a field's, an element's).
pub(super) struct TypeRefR;

impl Read for TypeRefR {
    type Out = TypeRef;
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<TypeRef, D::Error> {
        let raw = RawType::read(p, d)?;
        Ok(p.type_ref(raw))
    }
}

/// A type use where `null` means none (a return, a payload).
pub(super) struct OptTypeR;

impl Read for OptTypeR {
    type Out = Option<TypeRef>;
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<Self::Out, D::Error> {
        struct V<'p, 'w>(&'p mut Parser<'w>);
        impl<'de> Visitor<'de> for V<'_, '_> {
            type Value = Option<TypeRef>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a type or null")
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                TypeRefR::read(self.0, d).map(Some)
            }
        }
        d.deserialize_option(V(p))
    }
}

/// A named type's definition (the values of `types`).
pub(super) struct TypeDefR;

impl Read for TypeDefR {
    type Out = TypeDef;
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<TypeDef, D::Error> {
        let raw = RawType::read(p, d)?;
        Ok(p.type_def(raw))
    }
}

pub(super) const CASE_KEYS: &[&str] = &["name", "payload", "doc"];

/// A variant's case; one without a name is skipped with a warning.
pub(super) struct CaseR;

impl Read for CaseR {
    type Out = Option<VariantCase>;
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<Self::Out, D::Error> {
        struct V<'p, 'w>(&'p mut Parser<'w>);
        impl V<'_, '_> {
            fn other(self, _: &'static str) -> Option<VariantCase> {
                self.0.warn("a variant needs a string `name`; skipped");
                None
            }
        }
        impl<'de> Visitor<'de> for V<'_, '_> {
            type Value = Option<VariantCase>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a variant case")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let p = self.0;
                let (mut name, mut payload, mut doc_) = (None, None, None);
                while let Some(key) = map.next_key_seed(Key(CASE_KEYS))? {
                    match key {
                        Some("name") => name = Some(map.next_value::<Leaf>()?),
                        Some("payload") => {
                            payload = Some(p.slot::<A, OptTypeR>(&mut map, "payload")?);
                        }
                        Some("doc") => doc_ = Some(map.next_value()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                let Some(Leaf::Str(name)) = name else {
                    p.warn("a variant needs a string `name`; skipped");
                    return Ok(None);
                };
                Ok(Some(VariantCase {
                    name,
                    payload: payload.and_then(|s| p.keep(s)),
                    doc: doc(doc_),
                }))
            }
            other_kinds!();
        }
        d.deserialize_any(V(p))
    }
}

impl Parser<'_> {
    /// A type use, put together once all of its object's keys are read.
    fn type_ref(&mut self, raw: RawType) -> TypeRef {
        let o = match raw {
            // The map key may be given as the bare string "string".
            RawType::Str(s) => {
                if let Some(scalar) = Scalar::parse(&s) {
                    return TypeRef::Scalar(scalar);
                }
                self.warn("expected a type object, found a string; accepted unvalidated");
                return TypeRef::Unknown("malformed".into());
            }
            RawType::Other(kind) => {
                self.warn(format!(
                    "expected a type object, found {kind}; accepted unvalidated"
                ));
                return TypeRef::Unknown("malformed".into());
            }
            RawType::Obj(o) => *o,
        };
        if let Some(r) = o.r#ref {
            if let Leaf::Str(name) = r {
                return TypeRef::Ref(name);
            }
            self.warn("`$ref` is not a string; accepted unvalidated");
            return TypeRef::Unknown("malformed".into());
        }
        let Some(kind) = string(o.kind) else {
            self.warn("a type needs `kind` or `$ref`; accepted unvalidated");
            return TypeRef::Unknown("malformed".into());
        };
        if let Some(scalar) = Scalar::parse(&kind) {
            return TypeRef::Scalar(scalar);
        }
        match kind.as_str() {
            "bytes" => TypeRef::Bytes(bytes(&o.size, o.encoding)),
            "list" => {
                let crdt = self.crdt(o.crdt_type);
                TypeRef::List {
                    items: Box::new(self.sub(o.items, "items")),
                    crdt,
                }
            }
            "map" => {
                let crdt = self.crdt(o.crdt_type);
                let key = Box::new(self.sub(o.key, "key"));
                TypeRef::Map {
                    key,
                    value: Box::new(self.sub(o.value, "value")),
                    crdt,
                }
            }
            "tuple" => {
                let crdt = self.crdt(o.crdt_type);
                let elements = self.list(o.elements).unwrap_or_default();
                TypeRef::Tuple { elements, crdt }
            }
            "record" => TypeRef::Record(self.record(o.crdt_type, o.inner_type, o.fields)),
            other => {
                self.warn_at(
                    "kind",
                    format!(
                        "unknown kind {:?}; accepted unvalidated",
                        sanitize_line(other)
                    ),
                );
                TypeRef::Unknown(other.to_string())
            }
        }
    }

    /// A named type's definition, put together once its keys are read.
    fn type_def(&mut self, raw: RawType) -> TypeDef {
        let o = match raw {
            RawType::Obj(o) => *o,
            RawType::Str(_) | RawType::Other(_) => {
                let kind = match raw {
                    RawType::Other(kind) => kind,
                    _ => "a string",
                };
                self.warn(format!(
                    "expected a type definition object, found {kind}; accepted unvalidated"
                ));
                return TypeDef {
                    kind: TypeDefKind::Unknown("malformed".into()),
                    doc: None,
                };
            }
        };
        let doc = doc(o.doc);
        let kind = match o.kind.as_ref().and_then(Leaf::as_str) {
            Some("record") => TypeDefKind::Record(self.record(o.crdt_type, o.inner_type, o.fields)),
            Some("variant") => {
                TypeDefKind::Variant(self.variant(o.variants, o.tag, o.content, &o.untagged))
            }
            Some("alias") => TypeDefKind::Alias(self.sub(o.target, "target")),
            Some("bytes") => TypeDefKind::Bytes(bytes(&o.size, o.encoding)),
            Some(other) => {
                let other = other.to_string();
                self.warn_at(
                    "kind",
                    format!(
                        "unknown type kind {:?}; accepted unvalidated",
                        sanitize_line(&other)
                    ),
                );
                TypeDefKind::Unknown(other)
            }
            None => {
                self.warn("a type definition needs `kind`; accepted unvalidated");
                TypeDefKind::Unknown("malformed".into())
            }
        };
        TypeDef { kind, doc }
    }

    fn crdt(&mut self, tag: Option<Leaf>) -> Option<Crdt> {
        let tag = string(tag)?;
        if !Crdt::KNOWN.contains(&tag.as_str()) {
            self.warn_at(
                "crdt_type",
                format!(
                    "unknown crdt_type {:?}; mapped by its shape",
                    sanitize_line(&tag)
                ),
            );
        }
        Some(Crdt(tag))
    }

    /// A type-valued key the kind needs; missing, it is unknown with a warning.
    fn sub(&mut self, slot: Option<Slot<TypeRef>>, key: &str) -> TypeRef {
        match slot {
            Some(slot) => self.keep(slot),
            None => {
                self.warn(format!("no `{key}`; the value is accepted unvalidated"));
                TypeRef::Unknown("missing".into())
            }
        }
    }

    fn record(
        &mut self,
        crdt: Option<Leaf>,
        inner: Option<Slot<TypeRef>>,
        fields: Listed<Option<Field>>,
    ) -> Record {
        let crdt = self.crdt(crdt);
        let inner = inner.map(|s| Box::new(self.keep(s)));
        let fields = self.list(fields).unwrap_or_default();
        let fields = fields.into_iter().flatten().collect();
        Record {
            fields,
            crdt,
            inner,
        }
    }

    fn variant(
        &mut self,
        cases: Listed<Option<VariantCase>>,
        tag: Option<Leaf>,
        content: Option<Leaf>,
        untagged: &Option<Leaf>,
    ) -> Variant {
        let variants = match self.list(cases) {
            Ok(cases) => cases.into_iter().flatten().collect(),
            Err(_) => {
                self.warn("a variant type needs a `variants` array");
                Vec::new()
            }
        };
        let (tag, content) = (string(tag), string(content));
        let tagging = match (flag(untagged), tag, content) {
            (true, None, None) => Tagging::Untagged,
            (true, _, _) => {
                self.warn(
                    "`untagged` together with `tag`/`content`; treating the enum as untagged",
                );
                Tagging::Untagged
            }
            (false, Some(tag), Some(content)) => Tagging::Adjacent { tag, content },
            (false, Some(tag), None) => Tagging::Internal { tag },
            (false, None, Some(_)) => {
                self.warn("`content` without `tag`; treating the enum as externally tagged");
                Tagging::External
            }
            (false, None, None) => Tagging::External,
        };
        Variant { variants, tagging }
    }
}

pub(super) fn bytes(size: &Option<Leaf>, encoding: Option<Leaf>) -> Bytes {
    Bytes {
        size: match size {
            Some(Leaf::U64(n)) => Some(*n),
            _ => None,
        },
        encoding: string(encoding),
    }
}
