//! ABI types → JSON Schema (dialect 2020-12, written so draft-07 validators
//! never reject a valid value).
//!
//! Two ways to handle named types: `Inline` (the default) expands every `$ref`
//! in place, counting expansions on the path from the parameter and degrading
//! the 9th nested one to unknown (`{}`); `Defs` emits each named type once
//! under `$defs` and references it, which handles recursion exactly. Inline
//! expansion is also bounded in total size, so a wide type graph cannot explode.
//!
//! Schemas are built as [`Node`] trees ([`MethodTrees`]): names and docs
//! borrowed from the manifest, constant parts (scalars, `_context`) shared.
//! A listing writes them as they are; everything else takes them as
//! `serde_json::Value`s ([`MethodSchemas`]), the same JSON.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use serde_json::Value;

use super::tree::{Node, Obj, node};
use crate::abi::*;

/// How named types are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RefMode {
    #[default]
    Inline,
    Defs,
}

/// Arguments going to the node, or a return value coming back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
}

/// Nested `$ref` expansions allowed on one path before degrading to unknown.
pub(crate) const MAX_REF_DEPTH: u32 = 8;
/// Schema nodes one inline schema may grow to before further expansions degrade.
pub(crate) const MAX_INLINE_NODES: usize = 20_000;
/// Bytes (names, docs and structure, estimated) one inline schema may grow to
/// before further expansions degrade: repeated expansion of a type with long
/// names must not multiply them. One type met past it still expands once, so
/// a schema stays within this plus the size of the manifest's largest type.
pub(crate) const MAX_INLINE_BYTES: usize = 1 << 20;
/// Bytes (estimated as for [`MAX_INLINE_BYTES`]) the schemas of one listing
/// may add up to: a `schema` or `tools --json` run, the tools a server lists.
/// Past it, each further method's schemas are built without expanding named
/// types (see [`SchemaBudget`]), so output and memory stay within this plus a
/// small multiple of the manifest, however many methods share a large type.
pub const MAX_LISTING_BYTES: usize = 16 << 20;
/// Longest doc kept in a description, in characters; longer ones end in a marker.
pub(crate) const MAX_DOC_CHARS: usize = 4_000;
/// In `--refs defs` mode, named types first met this many definitions deep are
/// built after the current one instead of inside it, so a long `$ref` chain
/// cannot exhaust the stack. Shallower graphs keep the first-met `$defs` order.
const MAX_DEF_NESTING: u32 = 16;

/// The description of the injected `_context` argument, as the spec words it.
pub(crate) const CONTEXT_DESCRIPTION: &str =
    "Context id or alias to execute against; defaults to the selected context.";
/// The injected argument's name.
pub const CONTEXT_PARAM: &str = "_context";

/// The schemas of one method, as JSON values.
#[derive(Debug, Clone)]
pub struct MethodSchemas {
    /// The tool's `inputSchema`.
    pub input: Value,
    /// The return schema, unwrapped; `None` for a unit return.
    pub output: Option<Value>,
    /// Degradations worth telling the user about.
    pub warnings: Vec<String>,
    /// The estimated size of both schemas, in bytes (what budgets count).
    pub size: usize,
}

/// The schemas of one method as they are built ([`Node`] trees, borrowing
/// from the manifest): written out as they are (`tools --json`), or made
/// [`MethodSchemas`] ([`MethodTrees::into_values`]).
#[derive(Debug, Clone)]
pub struct MethodTrees<'m> {
    pub input: Node<'m>,
    pub output: Option<Node<'m>>,
    pub warnings: Vec<String>,
    pub size: usize,
}

impl MethodTrees<'_> {
    pub(crate) fn into_values(self) -> MethodSchemas {
        MethodSchemas {
            input: self.input.into_value(),
            output: self.output.map(Node::into_value),
            warnings: self.warnings,
            size: self.size,
        }
    }
}

/// Builds the input and output schemas of `method`.
pub fn method_schemas(m: &Manifest, method: &Method, mode: RefMode) -> MethodSchemas {
    listed_method_schemas(m, method, mode, false)
}

/// [`method_schemas`] as a listing shows them: in full, or, once its budget
/// is `spent` ([`SchemaBudget`]), with named types not expanded (each is
/// unknown, `{}`) and a warning.
pub(crate) fn listed_method_schemas(
    m: &Manifest,
    method: &Method,
    mode: RefMode,
    spent: bool,
) -> MethodSchemas {
    listed_method_trees(m, method, mode, spent).into_values()
}

/// [`listed_method_schemas`] as trees ([`MethodTrees`]).
pub fn listed_method_trees<'m>(
    m: &'m Manifest,
    method: &'m Method,
    mode: RefMode,
    spent: bool,
) -> MethodTrees<'m> {
    let mut warnings = Vec::new();
    let mut size = 0;
    let input = input_schema(m, method, (mode, spent), &mut warnings, &mut size);
    let output = output_schema(m, method, (mode, spent), &mut warnings, &mut size);
    MethodTrees {
        input,
        output,
        warnings,
        size,
    }
}

/// The running total of a listing's schemas, in listing order: once it
/// passes [`MAX_LISTING_BYTES`], every further method is built spent. Both
/// faces walk their listing in name order, so `tools --json` and `tools/list`
/// cut at the same tool.
#[derive(Debug)]
pub struct SchemaBudget {
    used: usize,
    limit: usize,
}

impl SchemaBudget {
    /// A budget of `limit` bytes ([`MAX_LISTING_BYTES`] unless raised).
    pub fn new(limit: usize) -> Self {
        SchemaBudget { used: 0, limit }
    }

    /// Whether the listing has passed its budget (the next method is built spent).
    pub fn spent(&self) -> bool {
        self.used > self.limit
    }

    /// Counts one method's schemas ([`MethodSchemas::size`]).
    pub fn add(&mut self, size: usize) {
        self.used = self.used.saturating_add(size);
    }
}

fn input_schema<'m>(
    m: &'m Manifest,
    method: &'m Method,
    (mode, spent): (RefMode, bool),
    warnings: &mut Vec<String>,
    size: &mut usize,
) -> Node<'m> {
    let mut b = Builder::new(m, Direction::Input, mode, spent);
    // The object around the parameters, and `_context`.
    b.bytes += 250;
    let mut props = Obj::new();
    let mut required = Vec::new();
    let mut twice = false;
    for p in &method.params {
        b.bytes +=
            10 + 2 * p.name.len() + p.doc.as_ref().map_or(0, |d| d.len().min(MAX_DOC_CHARS * 4));
        let mut s = b.ty(&p.ty, Ctx::default());
        apply_doc(&mut s, p.doc.as_deref());
        if p.nullable {
            s = nullable(s);
        } else {
            required.push(Node::from(p.name.as_str()));
        }
        if props.insert(p.name.as_str(), s) {
            twice = true;
            b.warn(format!(
                "parameter {:?} is declared twice; the last one wins",
                p.name
            ));
        }
    }
    if twice {
        required = required_once(method.params.iter().map(|p| (p.name.as_str(), !p.nullable)));
    }
    if !props.contains_key(CONTEXT_PARAM) {
        static CONTEXT: Constant =
            LazyLock::new(|| node! {"type" => "string", "description" => CONTEXT_DESCRIPTION});
        props.insert(CONTEXT_PARAM, Node::Shared(&CONTEXT));
    }
    let mut root = Obj::new();
    root.insert("type", "object");
    root.insert("properties", props);
    root.insert("required", required);
    root.insert("additionalProperties", false);
    *size += b.bytes;
    b.finish(&mut root, warnings);
    Node::Obj(root)
}

/// True when `t` (through aliases) is unit, i.e. the method returns nothing.
pub(crate) fn is_unit(m: &Manifest, t: &TypeRef) -> bool {
    let mut t = t;
    for _ in 0..=MAX_REF_DEPTH {
        match t {
            TypeRef::Scalar(Scalar::Unit) => return true,
            TypeRef::Ref(name) => match m.types.get(name).map(|d| &d.kind) {
                Some(TypeDefKind::Alias(target)) => t = target,
                _ => return false,
            },
            _ => return false,
        }
    }
    false
}

fn output_schema<'m>(
    m: &'m Manifest,
    method: &'m Method,
    (mode, spent): (RefMode, bool),
    warnings: &mut Vec<String>,
    size: &mut usize,
) -> Option<Node<'m>> {
    let ret = method.returns.as_ref().filter(|t| !is_unit(m, t))?;
    let mut b = Builder::new(m, Direction::Output, mode, spent);
    // A result reaches MCP clients through `exact::result`.
    b.exact = true;
    b.bytes += 40;
    let mut s = b.ty(ret, Ctx::default());
    apply_doc(&mut s, method.returns_doc.as_deref());
    // The SDK does not flag `Result<Option<T>>` as nullable, so every return may be null.
    let s = nullable(s);
    let mut root = as_root(s);
    *size += b.bytes;
    b.finish(&mut root, warnings);
    Some(Node::Obj(root))
}

/// The schema of an event's payload, read as a method result is (output
/// mode: bytes as the SDK writes them, variants, `$ref`s). `None` for an event
/// without a payload (or a unit one).
pub(crate) fn event_schema<'m>(
    m: &'m Manifest,
    event: &'m Event,
    mode: RefMode,
) -> (Option<Value>, Vec<String>) {
    let mut warnings = Vec::new();
    let Some(ty) = event.payload.as_ref().filter(|t| !is_unit(m, t)) else {
        return (None, warnings);
    };
    let mut b = Builder::new(m, Direction::Output, mode, false);
    let s = b.ty(ty, Ctx::default());
    let mut root = as_root(s);
    b.finish(&mut root, &mut warnings);
    (Some(Node::Obj(root).into_value()), warnings)
}

/// A schema as the root object of one: an object as it is, anything else
/// (`true`, a bare `$ref` replacement) under `allOf`.
fn as_root(s: Node<'_>) -> Obj<'_> {
    s.into_obj().unwrap_or_else(|other| {
        let mut root = Obj::new();
        root.insert("allOf", vec![other]);
        root
    })
}

/// MCP wants an object output schema: the return travels as `{"result": value}`,
/// its `$defs` moved up to the wrapper. A failed call's `structuredContent`
/// is `{"error": …}` ([`error_shape`]), and clients check it against the
/// same schema (the TypeScript SDK does, `isError` or not), so the schema
/// admits either: `result` or `error` is required.
pub(crate) fn wrap_output(output: Node<'_>) -> Node<'_> {
    let mut result = output;
    let defs = result.obj_mut().and_then(|o| o.remove("$defs"));
    let mut root = Obj::new();
    root.insert("type", "object");
    root.insert(
        "properties",
        node! {"result" => result, "error" => error_shape()},
    );
    root.insert("anyOf", either(vec![Node::from("result")]));
    if let Some(defs) = defs {
        root.insert("$defs", defs);
    }
    Node::Obj(root)
}

/// The `error` of a failed tool call's `structuredContent`, as every output
/// schema admits it: the body of the line `calimcp … --json` prints for a
/// failure (`calimcp_core::error::ErrorLine`, published whole as
/// docs/json/error.schema.json); its further fields (`problems`,
/// `contexts`) are allowed, not spelled out, so each tool's schema stays short.
pub fn error_shape() -> Node<'static> {
    static ERROR: Constant = LazyLock::new(|| {
        node! {
            "type" => "object",
            "description" => "The call failed: the error `calimcp --json` prints for it (docs/json/error.schema.json).",
            "properties" => node! {
                "code" => node! {"type" => "string"},
                "message" => node! {"type" => "string"},
                "hint" => node! {"type" => "string"},
                "retryable" => node! {"type" => "boolean"},
            },
            "required" => vec![Node::from("code"), Node::from("message"), Node::from("retryable")],
        }
    });
    Node::Shared(&ERROR)
}

/// `anyOf`: the fields `required` of an answer, or `error` alone.
fn either(required: Vec<Node<'_>>) -> Vec<Node<'_>> {
    vec![
        node! {"required" => required},
        node! {"required" => vec![Node::from("error")]},
    ]
}

/// A fixed tool's output schema (an object, from its Rust type) made to
/// admit a failure's `{"error": …}` as [`wrap_output`] does: its `required`
/// moved into the `anyOf` beside `error`.
pub fn admit_error(mut schema: Value) -> Value {
    let Some(root) = schema.as_object_mut() else {
        return schema;
    };
    let required = match root.remove("required") {
        Some(Value::Array(r)) => r,
        _ => Vec::new(),
    };
    if let Some(Value::Object(props)) = root.get_mut("properties") {
        props.insert("error".into(), error_shape().into_value());
    }
    let required = required.into_iter().map(node_of).collect();
    root.insert("anyOf".into(), Node::Arr(either(required)).into_value());
    schema
}

/// A JSON string as a [`Node`] (a `required` entry).
fn node_of(v: Value) -> Node<'static> {
    match v {
        Value::String(s) => Node::from(s),
        other => Node::from(other.to_string()),
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Ctx {
    /// `$ref` expansions on the path so far (inline mode).
    depth: u32,
    /// Under an untagged enum (input): no converted forms. serde matches
    /// untagged members against the raw JSON and calimcp converts nothing
    /// there ([`super::args::outgoing`]), so only forms the app reads as they
    /// are: bytes as an array (a hex string would stay a string), u64 and i64
    /// as JSON integers (a decimal string would stay a string).
    raw: bool,
}

struct Builder<'m> {
    m: &'m Manifest,
    dir: Direction,
    mode: RefMode,
    nodes: usize,
    /// Estimated bytes written so far (inline mode's size bound).
    bytes: usize,
    /// The listing's budget is spent: named types are not expanded.
    spent: bool,
    /// Method results: 64-bit integers by [`scalar_output`]'s rule (events
    /// are checked as the node sends them).
    exact: bool,
    defs: Obj<'m>,
    def_keys: HashMap<(&'m str, bool), String>,
    used_keys: HashSet<String>,
    /// Definitions being built inside one another right now (`--refs defs`).
    def_nesting: u32,
    /// Definitions met too deep to build in place: (key, type name, raw).
    deferred: Vec<(String, &'m str, bool)>,
    warnings: Vec<String>,
    warned: HashSet<String>,
    /// [`Builder::is_alias_cycle`]'s answers by type name: each alias chain
    /// is walked once, not again at every `$ref` along it (issue 47).
    alias_cycles: HashMap<&'m str, bool>,
    /// [`Builder::has_converted_form`]'s answers by type name, likewise.
    converted: HashMap<&'m str, bool>,
    /// [`Builder::resolve_record_once`]'s answers by type name, likewise.
    records: HashMap<&'m str, Option<&'m Record>>,
}

/// A schema built once and shared by every use ([`Node::Shared`]).
type Constant = LazyLock<Node<'static>>;

static NULL: Constant = LazyLock::new(|| node! {"type" => "null"});
static UNKNOWN: Constant = LazyLock::new(|| node! {});

/// The unknown schema, `{}`: any value.
fn unknown() -> Node<'static> {
    Node::Shared(&UNKNOWN)
}

fn scalar(s: Scalar) -> Node<'static> {
    static BOOL: Constant = LazyLock::new(|| node! {"type" => "boolean"});
    static STRING: Constant = LazyLock::new(|| node! {"type" => "string"});
    static I32: Constant =
        LazyLock::new(|| node! {"type" => "integer", "minimum" => i32::MIN, "maximum" => i32::MAX});
    static U32: Constant =
        LazyLock::new(|| node! {"type" => "integer", "minimum" => 0, "maximum" => u32::MAX});
    static I64: Constant =
        LazyLock::new(|| node! {"type" => "integer", "minimum" => i64::MIN, "maximum" => i64::MAX});
    static U64: Constant =
        LazyLock::new(|| node! {"type" => "integer", "minimum" => 0, "maximum" => u64::MAX});
    static NUMBER: Constant = LazyLock::new(|| node! {"type" => "number"});
    Node::Shared(match s {
        Scalar::Bool => &BOOL,
        Scalar::String => &STRING,
        Scalar::Unit => &NULL,
        Scalar::I32 => &I32,
        Scalar::U32 => &U32,
        Scalar::I64 => &I64,
        Scalar::U64 => &U64,
        Scalar::F32 | Scalar::F64 => &NUMBER,
    })
}

/// A u64 or i64 result as MCP clients get it ([`super::exact`]): a JSON
/// integer within ±(2^53−1), a decimal string beyond (a JavaScript client
/// would round the number). The string pattern is the input's.
fn scalar_output(s: Scalar) -> Node<'static> {
    static U64: Constant = LazyLock::new(|| exact_output(Scalar::U64));
    static I64: Constant = LazyLock::new(|| exact_output(Scalar::I64));
    match s {
        Scalar::U64 => Node::Shared(&U64),
        Scalar::I64 => Node::Shared(&I64),
        other => scalar(other),
    }
}

fn exact_output(s: Scalar) -> Node<'static> {
    let safe = super::exact::MAX_SAFE_INTEGER;
    let input = scalar_input(s);
    let (lo, hi) = match s {
        Scalar::U64 => ("0".to_string(), u64::MAX.to_string()),
        _ => (i64::MIN.to_string(), i64::MAX.to_string()),
    };
    let lo_safe: i64 = if s == Scalar::U64 { 0 } else { -(safe as i64) };
    let string = input
        .as_obj()
        .and_then(|o| o.get("anyOf"))
        .and_then(|a| a.at(1))
        .cloned()
        .unwrap_or_else(|| unknown());
    node! {
        "description" => format!("{}: an integer from {lo} to {hi}; beyond \u{b1}{safe} (2^53\u{2212}1) it comes as a decimal string, which keeps every digit", s.name()),
        "anyOf" => vec![
            node! {"type" => "integer", "minimum" => lo_safe, "maximum" => safe},
            string,
        ],
    }
}

/// An input u64 or i64: a JSON integer with the exact bounds, or a decimal
/// string (most agent hosts are JavaScript and round numbers above 2^53; a
/// string keeps every digit). Results follow [`scalar_output`].
///
/// The string's pattern says only the form: digits without a sign `+` or
/// leading zeros, at most as many as the kind's bounds have ([`U64_DIGITS`],
/// [`I64_DIGITS`]); the exact range is in the description and is checked on the
/// decimal value before anything is sent ([`super::args::check_values`]).
/// A pattern spelling the range out digit by digit was ~440 (u64) and ~860
/// (i64) characters, repeated at every 64-bit integer of every tool: a quarter
/// of a real app's `tools/list`, read by the agent on every session.
fn scalar_input(s: Scalar) -> Node<'static> {
    static U64: Constant = LazyLock::new(|| with_string(Scalar::U64, U64_DIGITS));
    static I64: Constant = LazyLock::new(|| with_string(Scalar::I64, I64_DIGITS));
    match s {
        Scalar::U64 => Node::Shared(&U64),
        Scalar::I64 => Node::Shared(&I64),
        other => scalar(other),
    }
}

/// The decimal-string form of a u64: `0`, or 1 to 20 digits without a leading
/// zero (u64::MAX has 20).
pub(crate) const U64_DIGITS: &str = "^(?:0|[1-9][0-9]{0,19})$";

/// The decimal-string form of an i64: `0`, or 1 to 19 digits without a leading
/// zero, optionally after `-` (i64::MIN and i64::MAX have 19; no `-0`).
pub(crate) const I64_DIGITS: &str = "^(?:0|-?[1-9][0-9]{0,18})$";

fn with_string(s: Scalar, pattern: &'static str) -> Node<'static> {
    let (lo, hi) = match s {
        Scalar::U64 => ("0".to_string(), u64::MAX.to_string()),
        _ => (i64::MIN.to_string(), i64::MAX.to_string()),
    };
    node! {
        "description" => format!("{}: an integer from {lo} to {hi}, as a number or a decimal string (a string keeps every digit)", s.name()),
        "anyOf" => vec![scalar(s), node! {"type" => "string", "pattern" => pattern}],
    }
}

/// An input u64 or i64 under an untagged enum: a JSON integer with the exact
/// bounds, no decimal string. calimcp converts nothing there (the app's serde
/// picks the member from the raw JSON), and the app reads a string as a
/// string, never as a u64 or i64. Numbers beyond 2^53 stay exact: calimcp
/// reads their digits, never a float.
fn raw_input(s: Scalar) -> Node<'static> {
    static U64: Constant = LazyLock::new(|| integer_only(Scalar::U64));
    static I64: Constant = LazyLock::new(|| integer_only(Scalar::I64));
    match s {
        Scalar::U64 => Node::Shared(&U64),
        Scalar::I64 => Node::Shared(&I64),
        other => scalar(other),
    }
}

fn integer_only(s: Scalar) -> Node<'static> {
    let mut out = Obj::new();
    out.insert(
        "description",
        format!(
            "{}: an integer from {} to {}, as a JSON number only (inside an untagged enum the app reads a string as a string)",
            s.name(),
            super::args::int_range(s).0,
            super::args::int_range(s).1
        ),
    );
    if let Ok(inner) = scalar(s).into_obj() {
        out.extend(inner);
    }
    Node::Obj(out)
}

/// The `$defs` key suffix of a named type's copy under an untagged enum
/// (`--refs defs`, input schemas): the type without the forms calimcp
/// converts (hex for bytes, decimal strings for u64 and i64), since nothing
/// is converted there.
pub(crate) const UNCONVERTED_SUFFIX: &str = ".unconverted";

fn byte_array(size: Option<u64>) -> Node<'static> {
    static BYTE: Constant =
        LazyLock::new(|| node! {"type" => "integer", "minimum" => 0, "maximum" => 255});
    let mut a = Obj::new();
    a.insert("type", "array");
    a.insert("items", Node::Shared(&BYTE));
    if let Some(n) = size {
        a.insert("minItems", n);
        a.insert("maxItems", n);
    }
    Node::Obj(a)
}

/// Whether bytes are a 32-byte value with no `encoding`: how the ABI writes
/// `PublicKey`, `ContextId`, `BlobId`, `ApplicationId` (base58 strings on the
/// wire) and plain `[u8; 32]` (an array on the wire) alike. Such a value is
/// sent exactly as given, in whichever form the caller chose.
pub fn is_id32(b: &Bytes) -> bool {
    b.size == Some(32) && b.encoding.is_none()
}

/// Base58 characters (Bitcoin alphabet); a 32-byte value takes 32 to 44 of them.
pub(crate) const BASE58_32_PATTERN: &str = "^[1-9A-HJ-NP-Za-km-z]{32,44}$";
/// 64 hex digits, `0x` optional.
pub(crate) const HEX_32_PATTERN: &str = "^(?:0[xX])?[0-9a-fA-F]{64}$";

/// The description of a 32-byte value without an encoding.
pub const ID32_DESCRIPTION: &str = "bytes: a 32-byte value, sent exactly as given: a base58 string (ids such as PublicKey or ContextId), a 64-hex string (0x optional) or an array of 32 integers 0-255 ([u8; 32])";

/// The string form of bytes: hex (`0x` optional) unless the ABI names another encoding.
fn byte_string(b: &Bytes) -> (Node<'static>, String) {
    let size = b.size.filter(|&n| n > 0);
    match b
        .encoding
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("hex") => {
            let pattern = match size {
                Some(n) => format!("^(?:0[xX])?[0-9a-fA-F]{{{}}}$", n * 2),
                None => "^(?:0[xX])?(?:[0-9a-fA-F]{2})*$".to_string(),
            };
            (
                node! {"type" => "string", "pattern" => pattern},
                "hex string (0x optional)".into(),
            )
        }
        Some("base58") => (
            node! {"type" => "string", "pattern" => "^[1-9A-HJ-NP-Za-km-z]*$"},
            "base58 string".into(),
        ),
        Some(other) => (
            scalar(Scalar::String),
            format!("{} string", crate::text::sanitize_line(other)),
        ),
    }
}

fn sized(size: Option<u64>) -> String {
    match size {
        Some(n) => format!("a {n}-byte array"),
        None => "a byte array".into(),
    }
}

fn bytes(b: &Bytes, dir: Direction, raw: bool) -> Node<'static> {
    let size = b.size.filter(|&n| n > 0);
    let array = byte_array(size);
    let (description, schema) = if dir == Direction::Output && b.encoding.is_none() {
        // Results come back as the app's serde writes them: ids as strings,
        // byte vectors as arrays; the ABI cannot say which, so both pass.
        (
            format!("bytes: a string or {}", sized(size)),
            node! {"anyOf" => vec![scalar(Scalar::String), array]},
        )
    } else if is_id32(b) {
        static ID32: Constant = LazyLock::new(|| {
            node! {"type" => "string", "pattern" => format!("{HEX_32_PATTERN}|{BASE58_32_PATTERN}")}
        });
        (
            ID32_DESCRIPTION.to_string(),
            node! {"anyOf" => vec![Node::Shared(&ID32), array]},
        )
    } else if raw && dir == Direction::Input {
        (format!("bytes: {}", sized(size)), array)
    } else {
        let (string, form) = byte_string(b);
        (
            format!("bytes: a {form} or {}", sized(size)),
            node! {"anyOf" => vec![string, array]},
        )
    };
    let mut out = Obj::new();
    out.insert("description", description);
    if let Ok(inner) = schema.into_obj() {
        out.extend(inner);
    }
    Node::Obj(out)
}

/// Whether a description is calimcp's hint on the value's form (kept beside a doc).
pub(crate) fn is_form_hint(description: &str) -> bool {
    ["bytes: ", "u64: ", "i64: "]
        .iter()
        .any(|p| description.starts_with(p))
}

/// Sets a description from a doc; a form hint is kept: `<doc> (bytes: …)`.
fn apply_doc(s: &mut Node<'_>, doc: Option<&str>) {
    let Some(doc) = doc else {
        return;
    };
    let Some(map) = s.obj_mut() else {
        return;
    };
    let truncated;
    let doc = if doc.chars().count() > MAX_DOC_CHARS {
        truncated = format!(
            "{}… [doc truncated]",
            doc.chars().take(MAX_DOC_CHARS).collect::<String>()
        );
        truncated.as_str()
    } else {
        doc
    };
    let desc = match map.get("description").and_then(Node::as_str) {
        Some(hint) if is_form_hint(hint) => format!("{doc} ({hint})"),
        _ => doc.to_string(),
    };
    map.insert("description", desc);
}

/// Accepts `null` as well. Unknown (`{}`) already does.
fn nullable(s: Node<'_>) -> Node<'_> {
    if s.as_obj()
        .is_some_and(|o| o.is_empty() || o.keys().all(|k| k == "description"))
    {
        return s;
    }
    node! {"anyOf" => vec![s, Node::Shared(&NULL)]}
}

fn one_of<'m>(mut members: Vec<Node<'m>>, keyword: &'static str) -> Node<'m> {
    match members.len() {
        0 => unknown(),
        1 => members.pop().unwrap_or_else(|| unknown()),
        _ => node! {keyword => members},
    }
}

/// A name as a warning shows it: long ones cut, with a marker.
fn short(name: &str) -> std::borrow::Cow<'_, str> {
    if name.len() > 80 && name.chars().count() > 80 {
        format!(
            "{}… [name truncated]",
            name.chars().take(80).collect::<String>()
        )
        .into()
    } else {
        name.into()
    }
}

fn def_key_for(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl<'m> Builder<'m> {
    fn new(m: &'m Manifest, dir: Direction, mode: RefMode, spent: bool) -> Self {
        Builder {
            m,
            dir,
            mode,
            nodes: 0,
            bytes: 0,
            spent,
            exact: false,
            defs: Obj::new(),
            def_keys: HashMap::new(),
            used_keys: HashSet::new(),
            def_nesting: 0,
            deferred: Vec::new(),
            warnings: Vec::new(),
            warned: HashSet::new(),
            alias_cycles: HashMap::new(),
            converted: HashMap::new(),
            records: HashMap::new(),
        }
    }

    fn warn(&mut self, message: String) {
        if self.warned.insert(message.clone()) {
            self.warnings.push(message);
        }
    }

    fn finish(mut self, root: &mut Obj<'m>, warnings: &mut Vec<String>) {
        while let Some((key, name, raw)) = self.deferred.pop() {
            if let Some(def) = self.m.types.get(name) {
                let s = self.def(def, Ctx { depth: 0, raw });
                self.defs.insert(key, s);
            }
        }
        if !self.defs.is_empty() {
            root.insert("$defs", std::mem::take(&mut self.defs));
        }
        warnings.append(&mut self.warnings);
    }

    fn ty(&mut self, t: &'m TypeRef, ctx: Ctx) -> Node<'m> {
        self.nodes += 1;
        // About what each kind writes (an input u64 or i64, and an exact
        // output one, carries its range in words and a short pattern).
        self.bytes += match t {
            TypeRef::Scalar(Scalar::I64 | Scalar::U64)
                if self.dir == Direction::Input || self.exact =>
            {
                270
            }
            TypeRef::Scalar(_) => 50,
            TypeRef::Bytes(_) => 250,
            _ => 40,
        };
        match t {
            TypeRef::Ref(name) => self.reference(name, ctx),
            TypeRef::Scalar(s) if self.dir == Direction::Input && ctx.raw => raw_input(*s),
            TypeRef::Scalar(s) if self.dir == Direction::Input => scalar_input(*s),
            TypeRef::Scalar(s) if self.exact => scalar_output(*s),
            TypeRef::Scalar(s) => scalar(*s),
            TypeRef::Bytes(b) => bytes(b, self.dir, ctx.raw),
            TypeRef::List { items, .. } => {
                node! {"type" => "array", "items" => self.ty(items, ctx)}
            }
            TypeRef::Map { value, .. } => {
                node! {"type" => "object", "additionalProperties" => self.ty(value, ctx)}
            }
            TypeRef::Tuple { elements, .. } => {
                self.tuple(elements.iter().map(|e| (e, false)).collect(), ctx)
            }
            TypeRef::Record(r) => self.record(r, ctx),
            TypeRef::Unknown(_) => unknown(),
        }
    }

    fn tuple(&mut self, elements: Vec<(&'m TypeRef, bool)>, ctx: Ctx) -> Node<'m> {
        let n = elements.len();
        let items: Vec<Node<'m>> = elements
            .into_iter()
            .map(|(e, null)| {
                let s = self.ty(e, ctx);
                if null { nullable(s) } else { s }
            })
            .collect();
        if items.is_empty() {
            // A 2020-12 `prefixItems` holds at least one schema: an empty
            // tuple is the empty array (issue 47).
            return node! {"type" => "array", "maxItems" => 0};
        }
        node! {"type" => "array", "prefixItems" => items, "minItems" => n, "maxItems" => n}
    }

    fn reference(&mut self, name: &'m str, ctx: Ctx) -> Node<'m> {
        let Some(def) = self.m.types.get(name) else {
            return unknown();
        };
        let shown = short(name);
        if matches!(def.kind, TypeDefKind::Alias(TypeRef::Ref(_))) && self.is_alias_cycle(name) {
            self.warn(format!("type {shown:?} is an alias of itself through plain references (no concrete type); its values are accepted unvalidated"));
            return unknown();
        }
        if self.spent {
            self.warn(format!("the schemas listed before this one passed their budget (CALIMCP_MAX_SCHEMAS, 16 MiB by default); {shown:?} and further types are accepted unvalidated (raise it, or ask for fewer methods: schema APP METHOD, a tools filter)"));
            return unknown();
        }
        match self.mode {
            RefMode::Inline => {
                if ctx.depth >= MAX_REF_DEPTH {
                    self.warn(format!("type {shown:?} nests deeper than {MAX_REF_DEPTH} references; deeper values are accepted unvalidated (use --refs defs for exact recursion)"));
                    return unknown();
                }
                if self.bytes > MAX_INLINE_BYTES {
                    self.warn(format!("the schema grew past {} KiB; {shown:?} and further types are accepted unvalidated (use --refs defs)", MAX_INLINE_BYTES / 1024));
                    return unknown();
                }
                if self.nodes > MAX_INLINE_NODES {
                    self.warn(format!("the schema grew past {MAX_INLINE_NODES} nodes; {shown:?} and further types are accepted unvalidated (use --refs defs)"));
                    return unknown();
                }
                self.def(
                    def,
                    Ctx {
                        depth: ctx.depth + 1,
                        ..ctx
                    },
                )
            }
            RefMode::Defs => {
                // Only an input type that reaches a converted form differs
                // under an untagged enum; every other one is shared.
                let raw = ctx.raw && self.dir == Direction::Input && self.has_converted_form(name);
                let key = match self.def_keys.get(&(name, raw)) {
                    Some(k) => k.clone(),
                    None => {
                        let base = def_key_for(name);
                        let base = if raw {
                            format!("{base}{UNCONVERTED_SUFFIX}")
                        } else {
                            base
                        };
                        let mut key = base.clone();
                        let mut n = 2;
                        while !self.used_keys.insert(key.clone()) {
                            key = format!("{base}_{n}");
                            n += 1;
                        }
                        self.def_keys.insert((name, raw), key.clone());
                        self.defs.insert(key.clone(), Node::Null);
                        if self.def_nesting < MAX_DEF_NESTING {
                            self.def_nesting += 1;
                            let s = self.def(def, Ctx { depth: 0, raw });
                            self.def_nesting -= 1;
                            self.defs.insert(key.clone(), s);
                        } else {
                            self.deferred.push((key.clone(), name, raw));
                        }
                        key
                    }
                };
                node! {"$ref" => format!("#/$defs/{key}")}
            }
        }
    }

    /// Whether `name` only ever aliases other aliases, round to one met
    /// before (`A = B`, `B = A`): no value has such a type, and under
    /// `--refs defs` the `$ref`s would point at each other for ever, which
    /// some validators follow until their stack runs out. Both modes map it
    /// to unknown. Every name on the walk shares its answer (each reaches the
    /// same end), so all are remembered: a chain of n aliases costs n steps
    /// in all, not n at each of its n `$ref`s.
    fn is_alias_cycle(&mut self, name: &'m str) -> bool {
        let mut walked: Vec<&'m str> = Vec::new();
        let mut seen: HashSet<&'m str> = HashSet::new();
        let mut name = name;
        let answer = loop {
            if let Some(&known) = self.alias_cycles.get(name) {
                break known;
            }
            if !seen.insert(name) {
                break true;
            }
            walked.push(name);
            match self.m.types.get(name).map(|d| &d.kind) {
                Some(TypeDefKind::Alias(TypeRef::Ref(next))) => name = next,
                _ => break false,
            }
        };
        for n in walked {
            self.alias_cycles.insert(n, answer);
        }
        answer
    }

    /// Whether the named type reaches a form calimcp converts on input
    /// (`bytes`, `u64`, `i64`): such a type gets its own unconverted copy
    /// under an untagged enum ([`UNCONVERTED_SUFFIX`]). A depth-first walk
    /// over named types with an explicit stack (a long `$ref` chain must not
    /// exhaust the call stack), remembering answers by name: every type on
    /// the path to a converted form reaches it, and when none is found every
    /// type visited reaches none, so each type is walked about once per
    /// schema, not once at every `$ref` that leads to it (issue 47).
    fn has_converted_form(&mut self, name: &'m str) -> bool {
        if let Some(&known) = self.converted.get(name) {
            return known;
        }
        let Some((name, def)) = self.m.types.get_key_value(name) else {
            return false;
        };
        let mut seen: HashSet<&'m str> = HashSet::new();
        // The path from `name`: each named type with the references in it left to visit.
        let mut path: Vec<(&'m str, Vec<&'m str>)> = Vec::new();
        let mut next = Some((name.as_str(), def));
        loop {
            if let Some((n, def)) = next.take() {
                seen.insert(n);
                let mut refs = Vec::new();
                let converted = direct_refs(&def.kind, &mut refs);
                path.push((n, refs));
                if converted {
                    for (n, _) in path {
                        self.converted.insert(n, true);
                    }
                    return true;
                }
            }
            let Some((_, refs)) = path.last_mut() else {
                break;
            };
            let Some(r) = refs.pop() else {
                path.pop();
                continue;
            };
            let Some((r, def)) = self.m.types.get_key_value(r) else {
                continue;
            };
            match self.converted.get(r.as_str()) {
                Some(true) => {
                    for (n, _) in path {
                        self.converted.insert(n, true);
                    }
                    return true;
                }
                Some(false) => continue,
                None if seen.contains(r.as_str()) => continue,
                None => next = Some((r.as_str(), def)),
            }
        }
        for n in seen {
            self.converted.insert(n, false);
        }
        false
    }

    fn def(&mut self, def: &'m TypeDef, ctx: Ctx) -> Node<'m> {
        self.bytes += def
            .doc
            .as_ref()
            .map_or(0, |d| d.len().min(MAX_DOC_CHARS * 4));
        let mut s = match &def.kind {
            TypeDefKind::Record(r) => self.record(r, ctx),
            TypeDefKind::Variant(v) => self.variant(v, ctx),
            TypeDefKind::Alias(t) => self.ty(t, ctx),
            TypeDefKind::Bytes(b) => bytes(b, self.dir, ctx.raw),
            TypeDefKind::Unknown(_) => unknown(),
        };
        apply_doc(&mut s, def.doc.as_deref());
        s
    }

    fn field(&mut self, f: &'m Field, ctx: Ctx) -> Node<'m> {
        self.bytes +=
            2 * f.name.len() + f.doc.as_ref().map_or(0, |d| d.len().min(MAX_DOC_CHARS * 4));
        let mut s = self.ty(&f.ty, ctx);
        apply_doc(&mut s, f.doc.as_deref());
        if f.nullable { nullable(s) } else { s }
    }

    fn record(&mut self, r: &'m Record, ctx: Ctx) -> Node<'m> {
        if let Some(crdt) = &r.crdt {
            return match &r.inner {
                Some(inner) => self.ty(inner, ctx),
                None => {
                    node! {"description" => format!("opaque CRDT value ({}); accepted unvalidated", crate::text::sanitize_line(&crdt.0))}
                }
            };
        }
        if r.is_positional() {
            return self.tuple(r.fields.iter().map(|f| (&f.ty, f.nullable)).collect(), ctx);
        }
        let (props, required) = self.fields_of(r, ctx);
        node! {"type" => "object", "properties" => props, "required" => required}
    }

    fn fields_of(&mut self, r: &'m Record, ctx: Ctx) -> (Obj<'m>, Vec<Node<'m>>) {
        let mut props = Obj::new();
        let mut required = Vec::new();
        let mut twice = false;
        // Input: every field is required (a nullable one may be null). Output:
        // a nullable field may be missing, since serde may skip it.
        let dir = self.dir;
        let needed = |f: &Field| dir == Direction::Input || !f.nullable;
        for f in &r.fields {
            let s = self.field(f, ctx);
            twice |= props.insert(f.name.as_str(), s);
            if needed(f) {
                required.push(Node::from(f.name.as_str()));
            }
        }
        if twice {
            required = required_once(r.fields.iter().map(|f| (f.name.as_str(), needed(f))));
        }
        (props, required)
    }

    /// Follows `$ref`s and aliases to a plain record, for internally tagged payloads.
    fn resolve_record(&mut self, t: &'m TypeRef, ctx: &mut Ctx) -> Option<&'m Record> {
        if self.mode == RefMode::Defs {
            return self.resolve_record_once(t);
        }
        let mut t = t;
        // An alias chain without a cycle is no longer than the type table.
        for _ in 0..=self.m.types.len() {
            match t {
                TypeRef::Record(r) if r.crdt.is_none() && !r.is_positional() => return Some(r),
                TypeRef::Ref(name) => {
                    if self.mode == RefMode::Inline && ctx.depth >= MAX_REF_DEPTH {
                        return None;
                    }
                    ctx.depth += 1;
                    match &self.m.types.get(name)?.kind {
                        TypeDefKind::Record(r) if r.crdt.is_none() && !r.is_positional() => {
                            return Some(r);
                        }
                        TypeDefKind::Alias(target) => t = target,
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        None
    }

    /// [`Builder::resolve_record`] under `--refs defs`, where a chain is not
    /// cut at a depth: every name on the walk shares its end, remembered, so
    /// many payloads along one long alias chain walk it once (issue 47).
    fn resolve_record_once(&mut self, t: &'m TypeRef) -> Option<&'m Record> {
        let plain = |r: &'m Record| (r.crdt.is_none() && !r.is_positional()).then_some(r);
        let mut walked: Vec<&'m str> = Vec::new();
        let mut seen: HashSet<&'m str> = HashSet::new();
        let mut t = t;
        let found = loop {
            match t {
                TypeRef::Record(r) => break plain(r),
                TypeRef::Ref(name) => {
                    let Some((name, def)) = self.m.types.get_key_value(name.as_str()) else {
                        break None;
                    };
                    if let Some(&known) = self.records.get(name.as_str()) {
                        break known;
                    }
                    if !seen.insert(name.as_str()) {
                        break None;
                    }
                    walked.push(name.as_str());
                    match &def.kind {
                        TypeDefKind::Record(r) => break plain(r),
                        TypeDefKind::Alias(target) => t = target,
                        _ => break None,
                    }
                }
                _ => break None,
            }
        };
        for name in walked {
            self.records.insert(name, found);
        }
        found
    }

    fn variant(&mut self, v: &'m Variant, ctx: Ctx) -> Node<'m> {
        self.bytes += v
            .variants
            .iter()
            .map(|c| {
                60 + 2 * c.name.len() + c.doc.as_ref().map_or(0, |d| d.len().min(MAX_DOC_CHARS * 4))
            })
            .sum::<usize>();
        match &v.tagging {
            Tagging::External => self.external(v, ctx),
            Tagging::Internal { tag } => self.internal(v, tag, ctx),
            Tagging::Adjacent { tag, content } => self.adjacent(v, tag, content, ctx),
            Tagging::Untagged => self.untagged(v, ctx),
        }
    }

    /// Externally tagged (serde's default): a unit case is its name, a case
    /// with a payload an object of one key, the name.
    fn external(&mut self, v: &'m Variant, ctx: Ctx) -> Node<'m> {
        let mut members = Vec::new();
        let units: Vec<&VariantCase> = v.variants.iter().filter(|c| c.payload.is_none()).collect();
        if units.iter().any(|c| c.doc.is_some()) {
            for c in &units {
                let mut s = node! {"type" => "string", "const" => c.name.as_str()};
                apply_doc(&mut s, c.doc.as_deref());
                members.push(s);
            }
        } else if !units.is_empty() {
            let names: Vec<&str> = units.iter().map(|c| c.name.as_str()).collect();
            let names: Vec<Node<'m>> = names.into_iter().map(Node::from).collect();
            members.push(node! {"type" => "string", "enum" => names});
        }
        for c in v.variants.iter() {
            let Some(p) = &c.payload else { continue };
            let mut s = node! {
                "type" => "object",
                "properties" => node! {c.name.as_str() => self.ty(p, ctx)},
                "required" => vec![Node::from(c.name.as_str())],
                "additionalProperties" => false,
            };
            apply_doc(&mut s, c.doc.as_deref());
            members.push(s);
        }
        one_of(members, "oneOf")
    }

    /// Internally tagged: the tag beside the payload's own fields.
    fn internal(&mut self, v: &'m Variant, tag: &'m str, ctx: Ctx) -> Node<'m> {
        let mut members = Vec::new();
        for c in &v.variants {
            let mut props = Obj::new();
            let mut required = Vec::new();
            let mut extra = None;
            if let Some(p) = &c.payload {
                let mut inner_ctx = ctx;
                if let Some(r) = self.resolve_record(p, &mut inner_ctx) {
                    let (fp, fr) = self.fields_of(r, inner_ctx);
                    props = fp;
                    required = fr;
                } else if let TypeRef::Map { value, .. } = p {
                    extra = Some(self.ty(value, ctx));
                }
            }
            props.insert(tag, node! {"const" => c.name.as_str()});
            required.retain(|r| r.as_str() != Some(tag));
            required.push(Node::from(tag));
            let mut s = node! {"type" => "object", "properties" => props, "required" => required};
            if let (Some(extra), Some(o)) = (extra, s.obj_mut()) {
                o.insert("additionalProperties", extra);
            }
            apply_doc(&mut s, c.doc.as_deref());
            members.push(s);
        }
        one_of(members, "oneOf")
    }

    /// Adjacently tagged: the tag and the payload under their two keys.
    fn adjacent(&mut self, v: &'m Variant, tag: &'m str, content: &'m str, ctx: Ctx) -> Node<'m> {
        let mut members = Vec::new();
        for c in &v.variants {
            let mut props = Obj::new();
            props.insert(tag, node! {"const" => c.name.as_str()});
            let mut required = vec![Node::from(tag)];
            if let Some(p) = &c.payload {
                props.insert(content, self.ty(p, ctx));
                required.push(Node::from(content));
            }
            let mut s = node! {"type" => "object", "properties" => props, "required" => required, "additionalProperties" => false};
            apply_doc(&mut s, c.doc.as_deref());
            members.push(s);
        }
        one_of(members, "oneOf")
    }

    /// Untagged: any case's payload (a unit case is null).
    fn untagged(&mut self, v: &'m Variant, ctx: Ctx) -> Node<'m> {
        let mut members = Vec::new();
        for c in &v.variants {
            let mut s = match &c.payload {
                Some(p) => self.ty(p, Ctx { raw: true, ..ctx }),
                None => Node::Shared(&NULL),
            };
            apply_doc(&mut s, c.doc.as_deref());
            members.push(s);
        }
        one_of(members, "anyOf")
    }
}

/// The named types a definition refers to directly (through anonymous lists,
/// maps, tuples and records, not through other names) go to `refs`; true when
/// it holds a form calimcp converts on input itself (`bytes`, `u64`, `i64`).
fn direct_refs<'m>(kind: &'m TypeDefKind, refs: &mut Vec<&'m str>) -> bool {
    let mut stack: Vec<&'m TypeRef> = Vec::new();
    match kind {
        TypeDefKind::Bytes(_) => return true,
        TypeDefKind::Alias(t) => stack.push(t),
        TypeDefKind::Record(r) => {
            stack.extend(r.fields.iter().map(|f| &f.ty));
            stack.extend(r.inner.as_deref());
        }
        TypeDefKind::Variant(v) => {
            stack.extend(v.variants.iter().filter_map(|c| c.payload.as_ref()))
        }
        TypeDefKind::Unknown(_) => {}
    }
    while let Some(t) = stack.pop() {
        match t {
            TypeRef::Bytes(_) | TypeRef::Scalar(Scalar::U64 | Scalar::I64) => return true,
            TypeRef::Ref(n) => refs.push(n),
            TypeRef::List { items, .. } => stack.push(items),
            TypeRef::Map { value, .. } => stack.push(value),
            TypeRef::Tuple { elements, .. } => stack.extend(elements.iter()),
            TypeRef::Record(r) => {
                stack.extend(r.fields.iter().map(|f| &f.ty));
                stack.extend(r.inner.as_deref());
            }
            TypeRef::Scalar(_) | TypeRef::Unknown(_) => {}
        }
    }
    false
}

/// `required` for names declared more than once: each name once, where it was
/// first declared (as in `properties`, whose value the last declaration
/// replaces in place), and only when its last declaration is required, so
/// the list is a valid 2020-12 `required` (unique items) that agrees with the
/// properties' winner (issue 47).
fn required_once<'m>(decls: impl Iterator<Item = (&'m str, bool)>) -> Vec<Node<'m>> {
    let decls: Vec<(&'m str, bool)> = decls.collect();
    let last: HashMap<&str, bool> = decls.iter().copied().collect();
    let mut listed: HashSet<&str> = HashSet::new();
    decls
        .into_iter()
        .filter(|&(name, _)| last[name] && listed.insert(name))
        .map(|(name, _)| Node::from(name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Whether `v` is valid against `schema` (draft 2020-12, as clients check).
    fn valid(schema: &Value, v: Value) -> bool {
        jsonschema::draft202012::new(schema).unwrap().is_valid(&v)
    }

    #[test]
    fn an_output_schema_admits_a_result_or_the_error_of_a_failed_call() {
        let schema = wrap_output(node! {"type" => "string"}).into_value();
        assert!(valid(&schema, json!({"result": "v"})));
        assert!(!valid(&schema, json!({"result": 1})));
        let failed = serde_json::to_value(crate::error::ErrorLine::new(
            &crate::error::Error::input(crate::error::Code::InvalidArguments, "bad")
                .with_hint("fix"),
        ))
        .unwrap();
        assert!(valid(&schema, failed));
        assert!(!valid(&schema, json!({})));
        assert!(!valid(&schema, json!({"error": {"message": "no code"}})));
    }

    #[test]
    fn a_fixed_tools_schema_keeps_its_required_fields_beside_the_error() {
        let schema = admit_error(json!({
            "type": "object",
            "properties": {"results": {"type": "array"}},
            "required": ["results"]
        }));
        assert!(schema.get("required").is_none());
        assert!(valid(&schema, json!({"results": []})));
        assert!(valid(
            &schema,
            json!({"error": {"code": "timeout", "message": "m", "retryable": true}})
        ));
        assert!(!valid(&schema, json!({"other": 1})));
    }
}
