//! Methods, parameters, events and the named types.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::Parser;
use super::read::*;
use super::types::{OptTypeR, TypeDefR, TypeRefR};
use crate::abi::model::*;
use crate::abi::{AbiError, Seg, Warning};
use crate::text::sanitize_line;
/// `types`: name → definition; `Err(kind)` when not an object. A name given
/// twice keeps its last definition (and only that one's warnings).
pub(super) struct TypesR;

impl Read for TypesR {
    type Out = Result<BTreeMap<String, TypeDef>, &'static str>;
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<Self::Out, D::Error> {
        struct V<'p, 'w>(&'p mut Parser<'w>);
        impl V<'_, '_> {
            fn other<T>(self, kind: &'static str) -> Result<T, &'static str> {
                Err(kind)
            }
        }
        impl<'de> Visitor<'de> for V<'_, '_> {
            type Value = Result<BTreeMap<String, TypeDef>, &'static str>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let p = self.0;
                // name → (first position, definition, its warnings)
                let mut defs: BTreeMap<String, (usize, TypeDef, Vec<Warning>)> = BTreeMap::new();
                let mut n = 0;
                while let Some(name) = map.next_key::<String>()? {
                    let mark = p.warnings.len();
                    p.path.push(Seg::Name(name.into()));
                    let def = map.next_value_seed(p.seed::<TypeDefR>())?;
                    let Some(Seg::Name(name)) = p.path.pop() else {
                        unreachable!("the name pushed above")
                    };
                    let ws = p.warnings.split_off(mark);
                    let name = name.into_owned();
                    match defs.get_mut(&name) {
                        Some(entry) => (entry.1, entry.2) = (def, ws),
                        None => {
                            defs.insert(name, (n, def, ws));
                            n += 1;
                        }
                    }
                }
                let mut ordered: Vec<(usize, Vec<Warning>)> = Vec::new();
                let types = defs
                    .into_iter()
                    .map(|(name, (at, def, ws))| {
                        if !ws.is_empty() {
                            ordered.push((at, ws));
                        }
                        (name, def)
                    })
                    .collect();
                ordered.sort_by_key(|(at, _)| *at);
                for (_, ws) in ordered {
                    p.warnings.extend(ws);
                }
                Ok(Ok(types))
            }
            other_kinds!();
        }
        d.deserialize_any(V(p))
    }
}

pub(super) const METHOD_KEYS: &[&str] = &[
    "name",
    "params",
    "returns",
    "returns_nullable",
    "returns_doc",
    "intent",
    "doc",
    "destructive",
    "idempotent",
    "xcall_callable",
    "xcall_callers",
    "handler",
];

pub(super) struct MethodR;

impl Read for MethodR {
    type Out = Result<Method, AbiError>;
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<Self::Out, D::Error> {
        struct V<'p, 'w>(&'p mut Parser<'w>);
        impl V<'_, '_> {
            fn other(self, kind: &'static str) -> Result<Method, AbiError> {
                Err(self
                    .0
                    .error(format!("expected a method object, found {kind}")))
            }
        }
        impl<'de> Visitor<'de> for V<'_, '_> {
            type Value = Result<Method, AbiError>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a method object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let p = self.0;
                let (mut name, mut params, mut returns) = (None, None, None);
                let (mut returns_nullable, mut returns_doc, mut intent) = (None, None, None);
                let (mut doc_, mut destructive, mut idempotent) = (None, None, None);
                let (mut xcall_callable, mut xcall_callers, mut handler) = (None, None, None);
                while let Some(key) = map.next_key_seed(Key(METHOD_KEYS))? {
                    match key {
                        Some("name") => name = Some(map.next_value::<Leaf>()?),
                        Some("params") => {
                            params = Some(p.slot::<A, List<ParamR>>(&mut map, "params")?)
                        }
                        Some("returns") => {
                            returns = Some(p.slot::<A, OptTypeR>(&mut map, "returns")?)
                        }
                        Some("returns_nullable") => returns_nullable = Some(map.next_value()?),
                        Some("returns_doc") => returns_doc = Some(map.next_value()?),
                        Some("intent") => intent = Some(map.next_value::<Leaf>()?),
                        Some("doc") => doc_ = Some(map.next_value()?),
                        Some("destructive") => destructive = Some(map.next_value()?),
                        Some("idempotent") => idempotent = Some(map.next_value()?),
                        Some("xcall_callable") => xcall_callable = Some(map.next_value()?),
                        Some("xcall_callers") => xcall_callers = Some(map.next_value::<Leaf>()?),
                        Some("handler") => handler = Some(map.next_value()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                let name = match name {
                    Some(Leaf::Str(s)) if !s.is_empty() => s,
                    _ => {
                        return Ok(Err(AbiError::new(
                            p.path_to("name"),
                            "every method needs a non-empty string `name`",
                        )));
                    }
                };
                let params = match method_params(p, params) {
                    Ok(list) => list,
                    Err(e) => return Ok(Err(e)),
                };
                let returns = returns.and_then(|s| p.keep(s));
                let intent = method_intent(p, intent.as_ref());
                Ok(Ok(Method {
                    name,
                    params,
                    returns,
                    returns_nullable: flag(&returns_nullable),
                    returns_doc: doc(returns_doc),
                    intent,
                    doc: doc(doc_),
                    destructive: flag(&destructive),
                    idempotent: flag(&idempotent),
                    xcall_callable: flag(&xcall_callable),
                    xcall_callers: string(xcall_callers),
                    handler: flag(&handler),
                }))
            }
            other_kinds!();
        }
        d.deserialize_any(V(p))
    }
}

/// A method's `params`: its parameters (none when absent or null), or the
/// first error in them.
fn method_params(
    p: &mut Parser<'_>,
    params: Listed<Result<Param, AbiError>>,
) -> Result<Vec<Param>, AbiError> {
    match p.list(params) {
        Ok(list) => list.into_iter().collect(),
        Err(None | Some("null")) => Ok(Vec::new()),
        Err(Some(found)) => Err(AbiError::new(
            p.path_to("params"),
            format!("expected an array, found {found}"),
        )),
    }
}

/// A method's `intent`; an unknown one is warned about and kept.
fn method_intent(p: &mut Parser<'_>, intent: Option<&Leaf>) -> Intent {
    match intent.and_then(Leaf::as_str) {
        None | Some("unspecified") => Intent::Unspecified,
        Some("read_only") => Intent::ReadOnly,
        Some("mutating") => Intent::Mutating,
        Some(other) => {
            p.warn_at(
                "intent",
                format!(
                    "unknown intent {:?}; treating the method as [mut]",
                    sanitize_line(other)
                ),
            );
            Intent::Other(other.to_string())
        }
    }
}

pub(super) const PARAM_KEYS: &[&str] = &["name", "type", "nullable", "doc"];

/// A parameter or a record field.
pub(super) struct ParamR;

impl Read for ParamR {
    type Out = Result<Param, AbiError>;
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<Self::Out, D::Error> {
        struct V<'p, 'w>(&'p mut Parser<'w>);
        impl V<'_, '_> {
            fn other(self, kind: &'static str) -> Result<Param, AbiError> {
                Err(self.0.error(format!(
                    "expected an object with `name` and `type`, found {kind}"
                )))
            }
        }
        impl<'de> Visitor<'de> for V<'_, '_> {
            type Value = Result<Param, AbiError>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a parameter object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let p = self.0;
                let (mut name, mut ty, mut nullable, mut doc_) = (None, None, None, None);
                while let Some(key) = map.next_key_seed(Key(PARAM_KEYS))? {
                    match key {
                        Some("name") => name = Some(map.next_value::<Leaf>()?),
                        Some("type") => ty = Some(p.slot::<A, TypeRefR>(&mut map, "type")?),
                        Some("nullable") => nullable = Some(map.next_value()?),
                        Some("doc") => doc_ = Some(map.next_value()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                let Some(Leaf::Str(name)) = name else {
                    return Ok(Err(AbiError::new(
                        p.path_to("name"),
                        "expected a string `name`",
                    )));
                };
                let ty = match ty {
                    Some(slot) => p.keep(slot),
                    None => {
                        p.warn("no `type`; the value is accepted unvalidated");
                        TypeRef::Unknown("missing".into())
                    }
                };
                Ok(Ok(Param {
                    name,
                    ty,
                    nullable: flag(&nullable),
                    doc: doc(doc_),
                }))
            }
            other_kinds!();
        }
        d.deserialize_any(V(p))
    }
}

/// A record field: one that cannot be read is skipped with a warning.
pub(super) struct FieldR;

impl Read for FieldR {
    type Out = Option<Field>;
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<Self::Out, D::Error> {
        Ok(match ParamR::read(p, d)? {
            Ok(f) => Some(f),
            Err(e) => {
                p.warnings.push(Warning::new(
                    e.path,
                    format!("{}; field skipped", e.message),
                ));
                None
            }
        })
    }
}

pub(super) const EVENT_KEYS: &[&str] = &["name", "payload"];

pub(super) struct EventR;

impl Read for EventR {
    type Out = Event;
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<Event, D::Error> {
        struct V<'p, 'w>(&'p mut Parser<'w>);
        impl V<'_, '_> {
            fn other(self, _: &'static str) -> Event {
                Event::default()
            }
        }
        impl<'de> Visitor<'de> for V<'_, '_> {
            type Value = Event;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an event object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Event, A::Error> {
                let p = self.0;
                let (mut name, mut payload) = (None, None);
                while let Some(key) = map.next_key_seed(Key(EVENT_KEYS))? {
                    match key {
                        Some("name") => name = Some(map.next_value::<Leaf>()?),
                        Some("payload") => {
                            payload = Some(p.slot::<A, OptTypeR>(&mut map, "payload")?);
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(Event {
                    name: string(name).unwrap_or_default(),
                    payload: payload.and_then(|s| p.keep(s)),
                })
            }
            other_kinds!();
        }
        d.deserialize_any(V(p))
    }
}
