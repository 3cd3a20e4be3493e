//! The serde side of the parser: leaves, keys, seeds and lists.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::Parser;
use crate::abi::{Seg, Warning};
use crate::text::sanitize_doc_owned;

/// A value read only for what it is: strings kept, containers skipped.
#[derive(Debug)]
pub(super) enum Leaf {
    Null,
    Bool(bool),
    U64(u64),
    Number,
    Str(String),
    Array,
    Object,
}

impl Leaf {
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Leaf::Null => "null",
            Leaf::Bool(_) => "a boolean",
            Leaf::U64(_) | Leaf::Number => "a number",
            Leaf::Str(_) => "a string",
            Leaf::Array => "an array",
            Leaf::Object => "an object",
        }
    }

    pub(super) fn as_str(&self) -> Option<&str> {
        match self {
            Leaf::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(super) fn into_string(self) -> Option<String> {
        match self {
            Leaf::Str(s) => Some(s),
            _ => None,
        }
    }
}

pub(super) fn flag(leaf: &Option<Leaf>) -> bool {
    matches!(leaf, Some(Leaf::Bool(true)))
}

pub(super) fn string(leaf: Option<Leaf>) -> Option<String> {
    leaf.and_then(Leaf::into_string)
}

pub(super) fn doc(leaf: Option<Leaf>) -> Option<String> {
    leaf.and_then(Leaf::into_string)
        .map(sanitize_doc_owned)
        .filter(|d| !d.trim().is_empty())
}

impl<'de> de::Deserialize<'de> for Leaf {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Leaf;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Leaf, E> {
                Ok(Leaf::Bool(v))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Leaf, E> {
                Ok(Leaf::Number)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Leaf, E> {
                Ok(Leaf::U64(v))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Leaf, E> {
                Ok(Leaf::Number)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Leaf, E> {
                Ok(Leaf::Str(v.to_string()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Leaf, E> {
                Ok(Leaf::Str(v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Leaf, E> {
                Ok(Leaf::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<Leaf, E> {
                Ok(Leaf::Null)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Leaf, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Leaf::Array)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Leaf, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Leaf::Object)
            }
        }
        d.deserialize_any(V)
    }
}

/// An object key: which of `known` it is, without allocating.
pub(super) struct Key(pub(super) &'static [&'static str]);

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Option<&'static str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for Key {
    type Value = Option<&'static str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(self.0.iter().copied().find(|k| *k == v))
    }
}

/// A value read with its warnings set aside, to keep or drop.
pub(super) struct Slot<T> {
    pub(super) value: T,
    pub(super) warnings: Vec<Warning>,
}

/// A list-valued key: absent, or read (`Err(kind)` when it is not an array).
pub(super) type Listed<T> = Option<Slot<Result<Vec<T>, &'static str>>>;

/// Something read from JSON by the parser ([`Seed`] makes it a serde seed).
pub(super) trait Read {
    type Out;
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<Self::Out, D::Error>;
}

pub(super) struct Seed<'p, 'w, R>(pub(super) &'p mut Parser<'w>, pub(super) PhantomData<R>);

impl<'de, R: Read> DeserializeSeed<'de> for Seed<'_, '_, R> {
    type Value = R::Out;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<R::Out, D::Error> {
        R::read(self.0, d)
    }
}

/// A plain serde value, read as is.
impl<T: for<'de> de::Deserialize<'de>> Read for PhantomData<T> {
    type Out = T;
    fn read<'de, D: Deserializer<'de>>(_: &mut Parser<'_>, d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }
}

// ---------------------------------------------------------------------------
// Lists.

/// An array of `R`, each element read at its index; `Err(kind)` when the
/// value is not an array.
pub(super) struct List<R>(PhantomData<R>);

impl<R: Read> Read for List<R> {
    type Out = Result<Vec<R::Out>, &'static str>;
    fn read<'de, D: Deserializer<'de>>(p: &mut Parser<'_>, d: D) -> Result<Self::Out, D::Error> {
        struct V<'p, 'w, R>(&'p mut Parser<'w>, PhantomData<R>);
        impl<R> V<'_, '_, R> {
            fn other<T>(self, kind: &'static str) -> Result<T, &'static str> {
                Err(kind)
            }
        }
        impl<'de, R: Read> Visitor<'de> for V<'_, '_, R> {
            type Value = Result<Vec<R::Out>, &'static str>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let p = self.0;
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                loop {
                    p.path.push(Seg::Index(out.len()));
                    let item = seq.next_element_seed(p.seed::<R>())?;
                    p.path.pop();
                    match item {
                        Some(item) => out.push(item),
                        None => return Ok(Ok(out)),
                    }
                }
            }
            other_kinds!(but_seq);
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(self.other("an object"))
            }
        }
        d.deserialize_any(V::<R>(p, PhantomData))
    }
}
