//! JSON → [`Manifest`], leniently, in one typed pass.
//!
//! serde visitors read each part of the document straight into the model:
//! no intermediate `serde_json::Value` tree is built, strings are copied once,
//! keys nobody reads are skipped without allocating, and a JSON path is only
//! formatted when a warning or an error needs it. The document is read once:
//! each top-level section as it comes, its warnings set aside, then the
//! sections are put together in a fixed order, so messages do not depend on
//! the order of keys in the file (a document that is not valid JSON, or
//! nests too deeply, is refused as a whole, wherever that is).
//!
//! Hard errors are kept for what makes a document unusable as an ABI (not an
//! object, no `methods`, a schema major other than 1, a method without a name);
//! everything else that is unexpected becomes a [`Warning`] with the JSON path
//! where it was found. Inside one object, keys may come in any order: each
//! key's value is read with its warnings set aside, and the object is put
//! together afterwards, keeping the warnings of the keys its kind uses.
//!
//! Here: the entry points, the top level and the parser's state; `read` holds
//! the serde plumbing (leaves, keys, seeds, lists), `items` methods,
//! parameters, events and the named types, `types` type objects.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::model::*;
use super::{AbiError, JsonPath, Seg, Warning};
use crate::text::sanitize_line;

/// Parses a manifest from raw bytes.
pub fn parse_manifest(bytes: &[u8], warnings: &mut Vec<Warning>) -> Result<Manifest, AbiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(AbiError::new(
            "$",
            "the file is empty; expected a wasm-abi/1 JSON manifest",
        ));
    }
    let mut parser = Parser::new(warnings);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let top = TopSeed(&mut parser)
        .deserialize(&mut de)
        .and_then(|top| de.end().map(|()| top))
        .map_err(json_error)?;
    parser.manifest(top)
}

/// Parses a manifest that is already a JSON value (e.g. from the node).
pub fn parse_manifest_value(
    value: &Value,
    warnings: &mut Vec<Warning>,
) -> Result<Manifest, AbiError> {
    let mut p = Parser::new(warnings);
    let top = match value {
        Value::Object(map) => {
            let mut top = Top::empty(None);
            for (key, v) in map {
                if let Some(&key) = TOP_KEYS.iter().find(|k| **k == key.as_str()) {
                    top.read_value(&mut p, key, v);
                }
            }
            top
        }
        other => Top::empty(Some(kind_of(other))),
    };
    p.manifest(top)
}

fn json_error(e: serde_json::Error) -> AbiError {
    let what = if e.to_string().contains("recursion limit") {
        "the JSON nests too deeply (more than 128 levels)".to_string()
    } else {
        format!("not valid JSON: {e}")
    };
    AbiError::new("$", what)
}

/// How a JSON value is named in messages: `an object`, `a string`, `null`.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `visit_*` for every kind but objects, each answering `self.other(kind)`
/// (arrays are skipped); `but_str` leaves strings, `but_seq` arrays to the
/// visitor.
macro_rules! other_kinds {
    () => {
        other_kinds!(but_str);
        other_kinds!(str);
    };
    (but_str) => {
        other_kinds!(scalars);
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(self.other("an array"))
        }
    };
    (but_seq) => {
        other_kinds!(scalars);
        other_kinds!(str);
    };
    (str) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok(self.other("a string"))
        }
    };
    (scalars) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok(self.other("a boolean"))
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok(self.other("a number"))
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok(self.other("a number"))
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok(self.other("a number"))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(self.other("null"))
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(self.other("null"))
        }
    };
}

mod items;
mod read;
mod types;

use items::{EventR, MethodR, TypesR};
use read::*;

// ---------------------------------------------------------------------------
// The top level: each section read as it comes, put together in a fixed order.

/// A section as read: its value (or why it could not be read: JSON nested
/// too deeply, from a value) and its warnings, set aside.
type Section<T> = Option<Slot<Result<T, AbiError>>>;

/// The top-level sections calimcp reads.
struct Top {
    /// What the document is instead, when it is not an object.
    not_object: Option<&'static str>,
    schema_version: Section<Leaf>,
    methods: Section<<List<MethodR> as Read>::Out>,
    types: Section<<TypesR as Read>::Out>,
    events: Section<<List<EventR> as Read>::Out>,
    state_root: Section<Leaf>,
    state_version: Section<Value>,
    migrations: Section<Value>,
    /// `services`, `wasm` or `package` is present: a bundle's manifest.json.
    bundle_keys: bool,
}

const TOP_KEYS: &[&str] = &[
    "schema_version",
    "methods",
    "types",
    "events",
    "state_root",
    "state_version",
    "migrations",
    "services",
    "wasm",
    "package",
];

/// Reads the value of `key` (one of [`TOP_KEYS`]) into its section with
/// `$read(R, key)`, or notes a bundle's key. A key given twice keeps its last value.
macro_rules! read_top_key {
    ($top:expr, $key:expr, $read:ident) => {
        match $key {
            "schema_version" => {
                $top.schema_version = Some($read!(PhantomData<Leaf>, "schema_version"))
            }
            "methods" => $top.methods = Some($read!(List<MethodR>, "methods")),
            "types" => $top.types = Some($read!(TypesR, "types")),
            "events" => $top.events = Some($read!(List<EventR>, "events")),
            "state_root" => $top.state_root = Some($read!(PhantomData<Leaf>, "state_root")),
            "state_version" => {
                $top.state_version = Some($read!(PhantomData<Value>, "state_version"))
            }
            "migrations" => $top.migrations = Some($read!(PhantomData<Value>, "migrations")),
            _ => $top.bundle_keys = true,
        }
    };
}

impl Top {
    /// No sections yet; `not_object`: what the document is instead of an object.
    fn empty(not_object: Option<&'static str>) -> Self {
        Top {
            not_object,
            schema_version: None,
            methods: None,
            types: None,
            events: None,
            state_root: None,
            state_version: None,
            migrations: None,
            bundle_keys: false,
        }
    }

    /// Reads `key` of a manifest given as a value.
    fn read_value(&mut self, p: &mut Parser<'_>, key: &'static str, v: &Value) {
        macro_rules! of_value {
            ($r:ty, $key:expr) => {
                p.section_of_value::<$r>(v, $key)
            };
        }
        read_top_key!(self, key, of_value);
    }
}

/// The document's top level, read in one pass.
struct TopSeed<'p, 'w>(&'p mut Parser<'w>);

impl<'de> DeserializeSeed<'de> for TopSeed<'_, '_> {
    type Value = Top;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Top, D::Error> {
        struct V<'p, 'w>(&'p mut Parser<'w>);
        impl V<'_, '_> {
            fn other(self, kind: &'static str) -> Top {
                Top::empty(Some(kind))
            }
        }
        impl<'de> Visitor<'de> for V<'_, '_> {
            type Value = Top;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON document")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
                let p = self.0;
                let mut top = Top::empty(None);
                while let Some(key) = map.next_key_seed(Key(TOP_KEYS))? {
                    let Some(key) = key else {
                        // Unknown keys are still checked to be valid JSON.
                        map.next_value::<IgnoredAny>()?;
                        continue;
                    };
                    macro_rules! from_map {
                        ($r:ty, $key:expr) => {{
                            let slot = p.slot::<A, $r>(&mut map, $key)?;
                            Slot {
                                value: Ok(slot.value),
                                warnings: slot.warnings,
                            }
                        }};
                    }
                    if matches!(key, "services" | "wasm" | "package") {
                        map.next_value::<IgnoredAny>()?;
                    }
                    read_top_key!(top, key, from_map);
                }
                Ok(top)
            }
            other_kinds!();
        }
        d.deserialize_any(V(self.0))
    }
}

// ---------------------------------------------------------------------------
// The parser: warnings, the current JSON path, and reading with a seed.

struct Parser<'w> {
    warnings: &'w mut Vec<Warning>,
    path: JsonPath<'static>,
}

impl<'w> Parser<'w> {
    fn new(warnings: &'w mut Vec<Warning>) -> Self {
        Parser {
            warnings,
            path: JsonPath::default(),
        }
    }

    fn seed<R: Read>(&mut self) -> Seed<'_, 'w, R> {
        Seed(self, PhantomData)
    }

    fn path(&self) -> String {
        self.path.to_string()
    }

    fn path_to(&self, key: &str) -> String {
        self.path.to(key)
    }

    /// A warning about the value being read.
    fn warn(&mut self, message: impl Into<String>) {
        let path = self.path();
        self.warnings.push(Warning::new(path, message));
    }

    /// A warning about `key` of the object being read.
    fn warn_at(&mut self, key: &str, message: impl Into<String>) {
        let path = self.path_to(key);
        self.warnings.push(Warning::new(path, message));
    }

    fn error(&self, message: impl Into<String>) -> AbiError {
        AbiError::new(self.path(), message)
    }

    /// Reads the value of the current map entry under `key`, its warnings set aside.
    fn slot<'de, A: MapAccess<'de>, R: Read>(
        &mut self,
        map: &mut A,
        key: &'static str,
    ) -> Result<Slot<R::Out>, A::Error> {
        let Slot { value, warnings } = self.set_aside(key, |p| map.next_value_seed(p.seed::<R>()));
        Ok(Slot {
            value: value?,
            warnings,
        })
    }

    /// What `read` gives for the value under `key`, read at that path, with
    /// the warnings it raised set aside.
    fn set_aside<T>(&mut self, key: &'static str, read: impl FnOnce(&mut Self) -> T) -> Slot<T> {
        let mark = self.warnings.len();
        self.path.push(Seg::Key(key));
        let value = read(self);
        self.path.pop();
        Slot {
            value,
            warnings: self.warnings.split_off(mark),
        }
    }

    /// A set-aside value, with its warnings.
    fn keep<T>(&mut self, slot: Slot<T>) -> T {
        self.warnings.extend(slot.warnings);
        slot.value
    }

    /// A list-valued key's items with their warnings, or why there are none:
    /// `Err(None)` absent, `Err(Some(kind))` not an array.
    fn list<T>(&mut self, slot: Listed<T>) -> Result<Vec<T>, Option<&'static str>> {
        match slot {
            None => Err(None),
            Some(Slot {
                value: Err(kind), ..
            }) => Err(Some(kind)),
            Some(Slot {
                value: Ok(items),
                warnings,
            }) => Ok(self.keep(Slot {
                value: items,
                warnings,
            })),
        }
    }

    /// Reads a top-level section `key` of a manifest given as a value, its
    /// warnings set aside.
    fn section_of_value<R: Read>(
        &mut self,
        v: &Value,
        key: &'static str,
    ) -> Slot<Result<R::Out, AbiError>> {
        self.set_aside(key, |p| p.seed::<R>().deserialize(v).map_err(json_error))
    }

    /// The manifest from its sections, put together in a fixed order.
    fn manifest(&mut self, top: Top) -> Result<Manifest, AbiError> {
        if let Some(found) = top.not_object {
            return Err(AbiError::new(
                "$",
                format!("expected a JSON object (a wasm-abi/1 manifest), found {found}"),
            ));
        }
        let schema_version = self.schema_version(top.schema_version)?;
        let Some(methods) = top.methods else {
            let hint = if top.bundle_keys {
                "; this looks like a bundle's manifest.json: pass the bundle directory or .mpk instead"
            } else {
                ""
            };
            return Err(AbiError::new(
                "$",
                format!("no `methods` key: not a wasm-abi/1 ABI manifest{hint}"),
            ));
        };
        // The methods' warnings follow the types' (kept below).
        let methods_in = match methods.value? {
            Ok(list) => Slot {
                value: list,
                warnings: methods.warnings,
            },
            Err(found) => {
                return Err(AbiError::new(
                    "$.methods",
                    format!("expected an array of methods, found {found}"),
                ));
            }
        };

        let mut m = Manifest {
            schema_version,
            ..Manifest::default()
        };
        if let Some(types) = top.types {
            match self.keep(types)? {
                Ok(types) => m.types = types,
                Err(found) => {
                    return Err(AbiError::new(
                        "$.types",
                        format!("expected an object of named types, found {found}"),
                    ));
                }
            }
        }
        // In place: a `Result<Method, _>` is laid out as a `Method`, so the
        // list's buffer becomes the manifest's (no second growing Vec).
        m.methods = self
            .keep(methods_in)
            .into_iter()
            .collect::<Result<_, _>>()?;
        if let Some(events) = top.events
            && let Ok(events) = self.keep(events)?
        {
            m.events = events;
        }
        if let Some(root) = top.state_root {
            m.state_root = self.keep(root)?.into_string();
        }
        let version = match top.state_version {
            Some(v) => Some(self.keep(v)?),
            None => None,
        };
        let migrations = match top.migrations {
            Some(v) => Some(self.keep(v)?),
            None => None,
        };
        (m.state_version, m.migrations) =
            super::state::state_meta(version.as_ref(), migrations.as_ref(), self.warnings);
        Ok(m)
    }

    fn schema_version(&mut self, src: Section<Leaf>) -> Result<String, AbiError> {
        let path = "$.schema_version";
        let version = match src {
            None => {
                self.warnings.push(Warning::new(
                    path,
                    "no `schema_version`; reading it as wasm-abi/1",
                ));
                return Ok("wasm-abi/1".into());
            }
            Some(src) => match self.keep(src)? {
                Leaf::Str(s) => s,
                other => {
                    return Err(AbiError::new(
                        path,
                        format!(
                            "expected a string like \"wasm-abi/1\", found {}",
                            other.kind()
                        ),
                    ));
                }
            },
        };
        let Some(rest) = version.strip_prefix("wasm-abi/") else {
            return Err(AbiError::new(
                path,
                format!(
                    "unknown schema version {:?}; calimcp reads wasm-abi/1 manifests",
                    sanitize_line(&version)
                ),
            ));
        };
        let major = rest.split('.').next().unwrap_or_default();
        match major.parse::<u32>() {
            Ok(1) => Ok(version),
            Ok(_) => Err(AbiError::new(
                path,
                format!(
                    "unsupported schema version {:?}: calimcp reads major version 1 (wasm-abi/1.x); upgrade calimcp for newer manifests",
                    sanitize_line(&version)
                ),
            )),
            Err(_) => Err(AbiError::new(
                path,
                format!(
                    "malformed schema version {:?}; expected wasm-abi/<major>[.<minor>]",
                    sanitize_line(&version)
                ),
            )),
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Result<Manifest, AbiError>, Vec<Warning>) {
        let mut w = Vec::new();
        let m = parse_manifest(text.as_bytes(), &mut w);
        (m, w)
    }

    /// What a parse gives, as text: the manifest (or error) and the warnings.
    fn shown(text: &str) -> String {
        let (m, w) = parse(text);
        format!("{m:?}\n{w:?}")
    }

    #[test]
    fn bytes_and_a_value_read_alike() {
        let every = include_str!("../../../../../examples/every-kind.json");
        let odd = r#"{"methods": [{"name": "m", "params": [{"name": "p", "type": {"items": 3, "kind": "list", "crdt_type": "nope"}}],
            "returns": {"kind": "tuple", "elements": [true]}, "intent": "weird"}],
            "types": {"V": {"kind": "variant", "variants": [{"payload": "x"}, {"name": "A", "payload": null}], "content": "c"}},
            "events": [{"name": "E", "payload": {"$ref": 1}}], "state_version": -1}"#;
        for text in [every, odd] {
            let value: Value = serde_json::from_str(text).unwrap();
            let mut w = Vec::new();
            let m = parse_manifest_value(&value, &mut w);
            assert_eq!(format!("{m:?}\n{w:?}"), shown(text));
        }
        let (m, w) = parse(odd);
        assert!(m.is_ok());
        let paths: Vec<&str> = w.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "$.schema_version",
                "$.types.V.variants[0]",
                "$.types.V",
                "$.methods[0].params[0].type.crdt_type",
                "$.methods[0].params[0].type.items",
                "$.methods[0].returns.elements[0]",
                "$.methods[0].intent",
                "$.events[0].payload",
                "$.state_version",
            ]
        );
    }

    #[test]
    fn the_order_of_keys_does_not_matter() {
        let a = r#"{"schema_version": "wasm-abi/1", "types": {"T": {"kind": "record", "fields": [{"name": "f", "type": {"kind": "map", "key": "string", "value": {"kind": "x"}}}]}},
            "methods": [{"name": "m", "params": [{"name": "p", "type": {"$ref": "T"}}]}]}"#;
        let b = r#"{"methods": [{"params": [{"type": {"$ref": "T"}, "name": "p"}], "name": "m"}],
            "types": {"T": {"fields": [{"type": {"value": {"kind": "x"}, "key": "string", "kind": "map"}, "name": "f"}], "kind": "record"}}, "schema_version": "wasm-abi/1"}"#;
        assert_eq!(shown(a), shown(b));
        let (_, w) = parse(a);
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].path, "$.types.T.fields[0].type.value.kind");
    }

    #[test]
    fn keys_the_kind_does_not_use_are_not_warned_about() {
        let (m, w) = parse(
            r#"{"methods": [{"name": "m", "params": [{"name": "p", "type": {"kind": "bytes", "size": 4, "items": 42, "variants": 1}}]}]}"#,
        );
        let m = m.unwrap();
        assert!(matches!(
            &m.methods[0].params[0].ty,
            TypeRef::Bytes(Bytes { size: Some(4), .. })
        ));
        assert_eq!(w.len(), 1, "only the missing schema_version: {w:?}");
    }

    #[test]
    fn a_type_named_twice_keeps_the_last_definition_and_its_warnings() {
        let (m, w) = parse(
            r#"{"schema_version": "wasm-abi/1", "methods": [], "types": {"T": {"kind": "nope"}, "U": {"kind": "alias", "target": "u32"}, "T": {"kind": "bytes"}}}"#,
        );
        let m = m.unwrap();
        assert!(matches!(m.types["T"].kind, TypeDefKind::Bytes(_)));
        assert!(w.is_empty(), "{w:?}");
    }

    /// One pass still checks the whole document: values of keys nobody
    /// reads, and what follows the top-level object.
    #[test]
    fn the_whole_document_must_be_valid_json() {
        for text in [
            r#"{"methods": [], "x": [1, }"#,
            r#"{"methods": [], "package": {"a" 1}}"#,
            r#"{"methods": []} {}"#,
            r#"{"methods": [], "x": "\q"}"#,
        ] {
            let e = parse(text).0.unwrap_err();
            assert!(e.message.starts_with("not valid JSON"), "{text}: {e:?}");
        }
        let ty = format!(
            "{}\"u8\"{}",
            r#"{"kind": "list", "items": "#.repeat(130),
            "}".repeat(130)
        );
        let deep = format!(
            r#"{{"methods": [{{"name": "m", "params": [{{"name": "p", "type": {ty}}}]}}]}}"#
        );
        let e = parse(&deep).0.unwrap_err();
        assert!(e.message.contains("nests too deeply"), "{e:?}");
    }

    #[test]
    fn hard_errors_win_over_key_order() {
        let e = parse(r#"{"methods": [{"params": 3}], "schema_version": "wasm-abi/2"}"#)
            .0
            .unwrap_err();
        assert_eq!(e.path, "$.schema_version");
        let e = parse(r#"{"methods": [{"params": 3, "name": "m"}]}"#)
            .0
            .unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.message.as_str()),
            ("$.methods[0].params", "expected an array, found a number")
        );
        let e = parse(r#"{"methods": [{"params": [{"name": 1}]}]}"#)
            .0
            .unwrap_err();
        assert_eq!(e.path, "$.methods[0].name", "the name is checked first");
        let e = parse("[1, 2]").0.unwrap_err();
        assert!(e.message.contains("found an array"), "{e:?}");
        let e = parse(r#"{"services": []}"#).0.unwrap_err();
        assert!(e.message.contains("bundle"), "{e:?}");
    }
}
