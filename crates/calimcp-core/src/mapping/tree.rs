//! The tree a schema is built as ([`super::schema`]): JSON objects in
//! insertion order, keys and text borrowed (from the manifest, or static)
//! where they can be, constant parts shared instead of copied. It writes
//! exactly as the `serde_json::Value` it converts to ([`Node::into_value`]),
//! so `tools --json` streams a tool's schemas without building a `Value`
//! tree for each: a `Value` object is an `IndexMap` whose every key is an
//! allocated, hashed `String` (BENCHMARKS.md, issue 34).

use std::borrow::Cow;
use std::collections::HashMap;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Number, Value};

/// Text of a tree: a key or a string value.
pub(crate) type Text<'a> = Cow<'a, str>;

/// One JSON value of a schema.
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    Null,
    Bool(bool),
    Num(Number),
    Str(Text<'a>),
    Arr(Vec<Node<'a>>),
    Obj(Obj<'a>),
    /// A constant part, shared (copied only when changed, [`Node::obj_mut`]).
    Shared(&'a Node<'a>),
}

/// Objects this long or longer find keys through an index, not by scanning.
const INDEXED: usize = 16;

/// A JSON object: keys in insertion order; inserting a key it has replaces
/// the value in place (as `serde_json::Map` with `preserve_order` does).
#[derive(Debug, Clone, Default)]
pub struct Obj<'a> {
    entries: Vec<(Text<'a>, Node<'a>)>,
    /// Key → position, once the object has [`INDEXED`] entries.
    index: Option<HashMap<Text<'a>, usize>>,
}

impl PartialEq for Obj<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl<'a> Obj<'a> {
    pub(crate) fn new() -> Self {
        Obj::default()
    }

    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.entries.iter().position(|(k, _)| k == key),
        }
    }

    /// Sets `key`; returns whether it was there already (its value replaced in place).
    pub(crate) fn insert(&mut self, key: impl Into<Text<'a>>, value: impl Into<Node<'a>>) -> bool {
        let (key, value) = (key.into(), value.into());
        if let Some(at) = self.position(&key) {
            self.entries[at].1 = value;
            return true;
        }
        if let Some(index) = &mut self.index {
            index.insert(key.clone(), self.entries.len());
        } else if self.entries.len() + 1 >= INDEXED {
            let mut index: HashMap<Text<'a>, usize> = self
                .entries
                .iter()
                .enumerate()
                .map(|(i, (k, _))| (k.clone(), i))
                .collect();
            index.insert(key.clone(), self.entries.len());
            self.index = Some(index);
        }
        self.entries.push((key, value));
        false
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Node<'a>> {
        self.position(key).map(|at| &self.entries[at].1)
    }

    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Takes `key` out; the entries after it keep their order.
    pub(crate) fn remove(&mut self, key: &str) -> Option<Node<'a>> {
        let at = self.position(key)?;
        let (_, value) = self.entries.remove(at);
        if let Some(index) = &mut self.index {
            index.remove(key);
            for i in index.values_mut().filter(|i| **i > at) {
                *i -= 1;
            }
        }
        Some(value)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_ref())
    }

    /// Appends (or replaces) every entry of `other`, in its order.
    pub(crate) fn extend(&mut self, other: Obj<'a>) {
        for (k, v) in other.entries {
            self.insert(k, v);
        }
    }

    pub(crate) fn into_value(self) -> Map<String, Value> {
        self.entries
            .into_iter()
            .map(|(k, v)| (k.into_owned(), v.into_value()))
            .collect()
    }
}

impl<'a> Node<'a> {
    /// The object this is, if it is one (a shared one read in place).
    pub(crate) fn as_obj(&self) -> Option<&Obj<'a>> {
        match self {
            Node::Obj(o) => Some(o),
            Node::Shared(n) => n.as_obj(),
            _ => None,
        }
    }

    /// The object this is, to change (a shared one copied first).
    pub(crate) fn obj_mut(&mut self) -> Option<&mut Obj<'a>> {
        if let Node::Shared(n) = *self {
            *self = n.clone();
        }
        match self {
            Node::Obj(o) => Some(o),
            _ => None,
        }
    }

    /// This node as an object to own (a shared one copied).
    pub(crate) fn into_obj(self) -> Result<Obj<'a>, Node<'a>> {
        match self {
            Node::Obj(o) => Ok(o),
            Node::Shared(n) if matches!(n, Node::Obj(_) | Node::Shared(_)) => n.clone().into_obj(),
            other => Err(other),
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Node::Str(s) => Some(s),
            Node::Shared(n) => n.as_str(),
            _ => None,
        }
    }

    /// Element `i` of an array.
    pub(crate) fn at(&self, i: usize) -> Option<&Node<'a>> {
        match self {
            Node::Arr(a) => a.get(i),
            Node::Shared(n) => n.at(i),
            _ => None,
        }
    }

    /// The same value as a `serde_json::Value`.
    pub(crate) fn into_value(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(b),
            Node::Num(n) => Value::Number(n),
            Node::Str(s) => Value::String(s.into_owned()),
            Node::Arr(a) => Value::Array(a.into_iter().map(Node::into_value).collect()),
            Node::Obj(o) => Value::Object(o.into_value()),
            Node::Shared(n) => n.clone().into_value(),
        }
    }
}

impl<'a> From<Obj<'a>> for Node<'a> {
    fn from(o: Obj<'a>) -> Self {
        Node::Obj(o)
    }
}

impl<'a> From<Vec<Node<'a>>> for Node<'a> {
    fn from(a: Vec<Node<'a>>) -> Self {
        Node::Arr(a)
    }
}

impl<'a> From<&'a str> for Node<'a> {
    fn from(s: &'a str) -> Self {
        Node::Str(Cow::Borrowed(s))
    }
}

impl From<String> for Node<'_> {
    fn from(s: String) -> Self {
        Node::Str(Cow::Owned(s))
    }
}

impl From<bool> for Node<'_> {
    fn from(b: bool) -> Self {
        Node::Bool(b)
    }
}

macro_rules! from_number {
    ($($t:ty),*) => {$(
        impl From<$t> for Node<'_> {
            fn from(n: $t) -> Self {
                Node::Num(Number::from(n))
            }
        }
    )*};
}
from_number!(i32, u32, i64, u64, usize);

impl Serialize for Node<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Null => s.serialize_unit(),
            Node::Bool(b) => s.serialize_bool(*b),
            Node::Num(n) => n.serialize(s),
            Node::Str(t) => s.serialize_str(t),
            Node::Arr(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for n in a {
                    seq.serialize_element(n)?;
                }
                seq.end()
            }
            Node::Obj(o) => o.serialize(s),
            Node::Shared(n) => n.serialize(s),
        }
    }
}

impl Serialize for Obj<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k.as_ref(), v)?;
        }
        map.end()
    }
}

/// An object from `key => value` pairs, each value converted into a [`Node`].
macro_rules! node {
    ($($k:expr => $v:expr),* $(,)?) => {{
        #[allow(unused_mut)]
        let mut o = $crate::mapping::tree::Obj::new();
        $( o.insert($k, $crate::mapping::tree::Node::from($v)); )*
        $crate::mapping::tree::Node::Obj(o)
    }};
}
pub(crate) use node;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writes_as_the_value_it_converts_to() {
        let shared = node! {"type" => "string"};
        let mut o = Obj::new();
        o.insert("type", "object");
        o.insert("minimum", i64::MIN);
        o.insert("maximum", u64::MAX);
        o.insert("empty", Node::Obj(Obj::new()));
        o.insert(
            "list",
            vec![Node::Shared(&shared), Node::Null, Node::from(true)],
        );
        o.insert("text", String::from("a \"quoted\"\n\u{1b} line"));
        let n = Node::Obj(o);
        let v = n.clone().into_value();
        assert_eq!(serde_json::to_string(&n).unwrap(), v.to_string());
        assert_eq!(
            serde_json::to_string_pretty(&n).unwrap(),
            serde_json::to_string_pretty(&v).unwrap()
        );
        assert_eq!(
            v,
            json!({"type": "object", "minimum": i64::MIN, "maximum": u64::MAX, "empty": {},
                   "list": [{"type": "string"}, null, true], "text": "a \"quoted\"\n\u{1b} line"})
        );
    }

    #[test]
    fn an_object_keeps_insertion_order_and_replaces_in_place() {
        // Long enough to go through the index, as a record with many fields does.
        for n in [3, INDEXED - 1, INDEXED, 3 * INDEXED] {
            let mut o = Obj::new();
            let mut m = Map::new();
            for i in (0..n).rev() {
                assert!(!o.insert(format!("k{i}"), i));
                m.insert(format!("k{i}"), i.into());
            }
            assert!(o.insert("k1", "again"));
            m.insert("k1".into(), "again".into());
            assert_eq!(o.get("k1").and_then(Node::as_str), Some("again"));
            assert_eq!(o.remove("k2"), Some(Node::from(2usize)));
            m.shift_remove("k2");
            assert!(!o.contains_key("k2"));
            assert!(!o.insert("k2", 7));
            m.insert("k2".into(), 7.into());
            let got = Node::Obj(o);
            assert_eq!(
                serde_json::to_string(&got).unwrap(),
                Value::Object(m).to_string()
            );
        }
    }

    #[test]
    fn a_shared_part_is_copied_only_when_changed() {
        let shared = node! {"type" => "integer"};
        let mut n = Node::Shared(&shared);
        assert_eq!(
            n.as_obj()
                .and_then(|o| o.get("type"))
                .and_then(Node::as_str),
            Some("integer")
        );
        n.obj_mut().unwrap().insert("description", "changed");
        assert_eq!(
            n.into_value(),
            json!({"type": "integer", "description": "changed"})
        );
        assert_eq!(shared.into_value(), json!({"type": "integer"}));
    }
}
