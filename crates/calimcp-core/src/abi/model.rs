//! The `wasm-abi/1` manifest as calimcp understands it.
//!
//! The model is deliberately lenient: anything a newer or older SDK may emit that
//! we do not know becomes an explicit `Unknown`/`Other` value (and a warning when
//! it is parsed), never a parse failure. Strings that came from the manifest and
//! may reach a terminal (docs) are sanitised when parsed; names are kept exactly,
//! because they travel to the node, and are sanitised when displayed.

use std::collections::BTreeMap;

/// A parsed ABI manifest.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Manifest {
    pub schema_version: String,
    pub types: BTreeMap<String, TypeDef>,
    pub methods: Vec<Method>,
    pub events: Vec<Event>,
    pub state_root: Option<String>,
    /// `state_version`: the app's declared state schema version (a node reads
    /// a missing one as 1).
    pub state_version: Option<u32>,
    /// `migrations`: the declared `fromVersion → fromVersion + 1` edges.
    pub migrations: Vec<Migration>,
}

/// One declared migration edge: `method` carries state from `from_version`
/// to `from_version + 1` (calimero-wasm-abi 1.0.0-rc.8 `MigrationEdgeAbi`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Migration {
    pub method: String,
    pub from_version: u32,
}

impl Manifest {
    /// The method called `name`, if the manifest declares it.
    pub fn method(&self, name: &str) -> Option<&Method> {
        self.methods.iter().find(|m| m.name == name)
    }
}

/// A method an application exposes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Method {
    pub name: String,
    pub params: Vec<Param>,
    pub returns: Option<TypeRef>,
    pub returns_nullable: bool,
    pub returns_doc: Option<String>,
    pub intent: Intent,
    pub doc: Option<String>,
    pub destructive: bool,
    pub idempotent: bool,
    /// `xcall_callable`: an `#[app::xcall]` cross-context entry point (when
    /// any method sets it, the node lets xcalls reach only those).
    pub xcall_callable: bool,
    /// `xcall_callers`: who may xcall it (`any_in_namespace` when absent, `same_app`).
    pub xcall_callers: Option<String>,
    /// `handler`: an event handler (the node runs only these on events).
    pub handler: bool,
}

impl Method {
    /// `[view]` methods are the ones the ABI marks `read_only`.
    pub fn is_view(&self) -> bool {
        self.intent == Intent::ReadOnly
    }
}

/// A method parameter or a record field.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: TypeRef,
    pub nullable: bool,
    pub doc: Option<String>,
}

/// Records use the same shape as parameters.
pub(crate) type Field = Param;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Event {
    pub name: String,
    pub payload: Option<TypeRef>,
}

/// What a method declares about its effect on state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Intent {
    ReadOnly,
    Mutating,
    #[default]
    Unspecified,
    Other(String),
}

/// The scalar kinds of the format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    Bool,
    I32,
    I64,
    U32,
    U64,
    F32,
    F64,
    String,
    Unit,
}

impl Scalar {
    pub(crate) fn parse(kind: &str) -> Option<Scalar> {
        Some(match kind {
            "bool" => Scalar::Bool,
            "i32" => Scalar::I32,
            "i64" => Scalar::I64,
            "u32" => Scalar::U32,
            "u64" => Scalar::U64,
            "f32" => Scalar::F32,
            "f64" => Scalar::F64,
            "string" => Scalar::String,
            "unit" => Scalar::Unit,
            _ => return None,
        })
    }

    /// The ABI kind name, which is also how signatures render the scalar.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::U32 => "u32",
            Scalar::U64 => "u64",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
            Scalar::String => "string",
            Scalar::Unit => "unit",
        }
    }

    pub fn is_integer(self) -> bool {
        matches!(self, Scalar::I32 | Scalar::I64 | Scalar::U32 | Scalar::U64)
    }
}

/// The CRDT tag a collection or cell may carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crdt(pub String);

impl Crdt {
    /// Tags known to this version of calimcp; any other is kept and warned about.
    pub(crate) const KNOWN: &'static [&'static str] = &[
        "lww_register",
        "shared_storage",
        "unordered_map",
        "sorted_map",
        "authored_map",
        "authored_sorted_map",
        "vector",
        "unordered_set",
        "sorted_set",
        "authored_vector",
        "counter",
        "replicated_growable_array",
        "fugue_text",
    ];
}

/// A use of a type: a reference, a scalar, bytes or an inline collection.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeRef {
    Ref(String),
    Scalar(Scalar),
    Bytes(Bytes),
    List {
        items: Box<TypeRef>,
        crdt: Option<Crdt>,
    },
    Map {
        key: Box<TypeRef>,
        value: Box<TypeRef>,
        crdt: Option<Crdt>,
    },
    Tuple {
        elements: Vec<TypeRef>,
        crdt: Option<Crdt>,
    },
    Record(Record),
    /// A kind this version does not know; mapped to "unknown" (accepted unvalidated).
    Unknown(String),
}

/// `bytes`, optionally fixed-size and optionally string-encoded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bytes {
    pub size: Option<u64>,
    pub encoding: Option<String>,
}

/// An inline or named record. `crdt` + `inner` make it a CRDT cell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record {
    pub fields: Vec<Field>,
    pub crdt: Option<Crdt>,
    pub inner: Option<Box<TypeRef>>,
}

impl Record {
    /// The record is a tuple on the wire: fields `field_0..field_{n-1}` or all `unnamed`.
    pub(crate) fn is_positional(&self) -> bool {
        !self.fields.is_empty()
            && (self.fields.iter().all(|f| f.name == "unnamed")
                || self
                    .fields
                    .iter()
                    .enumerate()
                    .all(|(i, f)| f.name.strip_prefix("field_") == Some(&i.to_string())))
    }
}

/// A named type definition (the values of `types`).
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    pub kind: TypeDefKind,
    pub doc: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TypeDefKind {
    Record(Record),
    Variant(Variant),
    Alias(TypeRef),
    Bytes(Bytes),
    Unknown(String),
}

/// A Rust enum and how serde tags it on the wire.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Variant {
    pub variants: Vec<VariantCase>,
    pub tagging: Tagging,
}

#[derive(Debug, Clone, PartialEq)]
pub struct VariantCase {
    pub name: String,
    pub payload: Option<TypeRef>,
    pub doc: Option<String>,
}

/// serde's enum representations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Tagging {
    #[default]
    External,
    Internal {
        tag: String,
    },
    Adjacent {
        tag: String,
        content: String,
    },
    Untagged,
}
