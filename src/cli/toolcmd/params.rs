//! One flag per declared parameter, built at run time from the ABI, and the
//! typed parsing of their values.
//!
//! Values by type: strings are always literal; integers are parsed exactly
//! into 64-bit JSON integers (never through a float; `-5` is a plain value);
//! `true`/`false`; bytes as hex (`0x` optional) or a JSON array; everything
//! else (lists, maps, tuples, records, variants) as a JSON literal, where a
//! bare word that is not JSON is taken as a string (`--status Pending`). For
//! every non-string parameter `@PATH` reads the JSON value from a file and
//! `-` from stdin, each at most `CALIMCP_MAX_ARGS` bytes ([`MAX_ARGS`] by
//! default). `@PATH` reads regular files and pipes (`@<(jq …)`, `@/dev/stdin`);
//! a FIFO nobody writes to is refused instead of waited on for ever, and
//! anything else (a directory, a socket) is refused.

use std::collections::HashSet;

use clap::{Arg, ArgAction};
use serde_json::{Map, Number, Value};

use crate::cli::textfile;
use calimcp_core::abi::{Manifest, Scalar, TypeDefKind, TypeRef};
use calimcp_core::error::Problem;
use calimcp_core::mapping::Tool;
use calimcp_core::mapping::signature::type_name;
use calimcp_core::text::{sanitize_doc, sanitize_line};

/// How a parameter's command-line value is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ValueKind {
    Str,
    Int(Scalar),
    Float,
    Bool,
    /// Hex (`0x` optional) or a JSON array; hex goes on as a byte array.
    Bytes,
    /// A 32-byte value without an encoding, or bytes in an encoding other
    /// than hex: a string (sent as given) or a JSON array.
    BytesAsGiven,
    Json,
}

fn bytes_kind(b: &calimcp_core::abi::Bytes) -> ValueKind {
    let hex = b
        .encoding
        .as_deref()
        .is_none_or(|e| e.eq_ignore_ascii_case("hex"));
    if calimcp_core::mapping::schema::is_id32(b) || !hex {
        ValueKind::BytesAsGiven
    } else {
        ValueKind::Bytes
    }
}

/// Aliases may chain; following them is bounded.
const MAX_HOPS: usize = 64;

/// The kind of a type, through aliases and CRDT cells.
pub(crate) fn kind_of(m: &Manifest, t: &TypeRef) -> ValueKind {
    let mut t = t;
    for _ in 0..MAX_HOPS {
        match t {
            TypeRef::Scalar(Scalar::String) => return ValueKind::Str,
            TypeRef::Scalar(Scalar::Bool) => return ValueKind::Bool,
            TypeRef::Scalar(Scalar::F32 | Scalar::F64) => return ValueKind::Float,
            TypeRef::Scalar(s) if s.is_integer() => return ValueKind::Int(*s),
            TypeRef::Bytes(b) => return bytes_kind(b),
            TypeRef::Record(r) if r.crdt.is_some() => match &r.inner {
                Some(inner) => t = inner,
                None => return ValueKind::Json,
            },
            TypeRef::Ref(name) => match m.types.get(name).map(|d| &d.kind) {
                Some(TypeDefKind::Alias(target)) => t = target,
                Some(TypeDefKind::Bytes(b)) => return bytes_kind(b),
                _ => return ValueKind::Json,
            },
            _ => return ValueKind::Json,
        }
    }
    ValueKind::Json
}

/// The size of a fixed-size `bytes` type, through aliases.
fn bytes_size(m: &Manifest, t: &TypeRef) -> Option<u64> {
    let mut t = t;
    for _ in 0..MAX_HOPS {
        match t {
            TypeRef::Bytes(b) => return b.size,
            TypeRef::Ref(name) => match m.types.get(name).map(|d| &d.kind) {
                Some(TypeDefKind::Alias(target)) => t = target,
                Some(TypeDefKind::Bytes(b)) => return b.size,
                _ => return None,
            },
            _ => return None,
        }
    }
    None
}

/// One declared parameter and its flag.
#[derive(Debug, Clone)]
pub(crate) struct ParamSpec {
    /// The name as the ABI declares it (the `argsJson` key).
    pub name: String,
    /// The clap argument id.
    pub id: String,
    /// The flag (without `--`), unless the name cannot be one.
    pub long: Option<String>,
    /// The kebab-case spelling, when it differs.
    pub alias: Option<String>,
    pub kind: ValueKind,
    /// A fixed-size `bytes` parameter's size.
    pub size: Option<u64>,
    pub required: bool,
    /// The type as signatures show it.
    pub type_name: String,
    /// What a value looks like (`Red | Green | Blue`, `{"x": i64}`), where the name does not say.
    pub shape: Option<String>,
    pub doc: Option<String>,
}

impl ParamSpec {
    /// `--name`, or how to pass the parameter when it has no flag.
    /// The flag's value `raw` read: `null` is JSON null for a nullable
    /// parameter (an optional one), else the value by its kind ([`parse_value`]).
    pub(crate) fn parse(&self, raw: &str, stdin: &mut Stdin) -> Result<Value, Problem> {
        if !self.required && raw.trim() == "null" {
            return Ok(Value::Null);
        }
        parse_value(self.kind, raw, stdin, &self.flag())
    }

    pub(crate) fn flag(&self) -> String {
        match &self.long {
            Some(l) => format!("--{l}"),
            None => format!("--args '{{\"{}\": …}}'", sanitize_line(&self.name)),
        }
    }
}

fn valid_flag(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The parameters of `tool` with their flags. A name that is also a global or
/// `call` flag (in `reserved`) is spelled `--param-NAME`; a name that cannot
/// be a flag is reachable through `--args` only.
pub(crate) fn specs(tool: &Tool, reserved: &HashSet<String>) -> Vec<ParamSpec> {
    let m = &tool.manifest;
    let method = tool.abi_method();
    let mut taken: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for p in &method.params {
        let kebab = p.name.replace('_', "-");
        let clashes =
            reserved.contains(&p.name) || reserved.contains(&kebab) || p.name.starts_with("param-");
        let (long, alias) = if !valid_flag(&p.name) {
            (None, None)
        } else if clashes {
            (
                Some(format!("param-{}", p.name)),
                Some(format!("param-{kebab}")),
            )
        } else {
            (Some(p.name.clone()), Some(kebab))
        };
        let long = long.filter(|l| taken.insert(l.clone()));
        let alias = alias
            .filter(|a| valid_flag(a) && Some(a) != long.as_ref())
            .filter(|a| !reserved.contains(a) && taken.insert(a.clone()));
        out.push(ParamSpec {
            id: format!("param:{}", p.name),
            name: p.name.clone(),
            alias: long.as_ref().and(alias),
            long,
            kind: kind_of(m, &p.ty),
            size: bytes_size(m, &p.ty),
            required: !p.nullable,
            type_name: type_name(&p.ty),
            shape: calimcp_core::mapping::signature::shape(m, &p.ty),
            doc: p.doc.as_deref().map(sanitize_doc),
        });
    }
    out
}

/// What values a kind takes, for `--help`.
pub(crate) fn accepted(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::Str => "taken literally",
        ValueKind::Int(Scalar::U32) => "an integer from 0 to 4294967295, exact",
        ValueKind::Int(Scalar::U64) => "an integer from 0 to 18446744073709551615, exact",
        ValueKind::Int(Scalar::I64) => {
            "an integer from -9223372036854775808 to 9223372036854775807, exact (negative numbers as plain values: -5)"
        }
        ValueKind::Int(_) => "an integer, exact (negative numbers as plain values: -5)",
        ValueKind::Float => "a number",
        ValueKind::Bool => "true or false (the flag alone means true)",
        ValueKind::Bytes => {
            "hex (0x optional) or a JSON array of bytes; @bytes:FILE sends a file's raw bytes, @blob:FILE (a 32-byte id) uploads a file and passes its blob id; @FILE reads JSON from a file, - from stdin"
        }
        ValueKind::BytesAsGiven => {
            "a string, sent as given (base58 for ids such as PublicKey or ContextId, or hex), or a JSON array of bytes; @bytes:FILE sends a file's raw bytes, @blob:FILE (a 32-byte id) uploads a file and passes its blob id; @FILE reads JSON from a file, - from stdin"
        }
        ValueKind::Json => {
            "a JSON literal (a bare word is a string); @FILE reads JSON from a file, - from stdin"
        }
    }
}

fn value_name(spec: &ParamSpec) -> String {
    match spec.kind {
        ValueKind::Str => "STRING".into(),
        ValueKind::Int(s) => s.name().to_ascii_uppercase(),
        ValueKind::Float => "NUMBER".into(),
        ValueKind::Bool => "BOOL".into(),
        ValueKind::Bytes => "HEX|JSON".into(),
        ValueKind::BytesAsGiven => "STRING|JSON".into(),
        ValueKind::Json => "JSON".into(),
    }
}

/// The clap argument of a parameter (none when it has no flag).
pub(crate) fn arg(spec: &ParamSpec) -> Option<Arg> {
    let long = spec.long.clone()?;
    let need = if spec.required {
        "required"
    } else {
        "optional"
    };
    let first_doc = spec
        .doc
        .as_deref()
        .and_then(|d| d.lines().next())
        .map(|l| format!(". {}", l.trim()))
        .unwrap_or_default();
    // A short shape (a unit-only variant's names) fits the one-line help.
    let short_shape = spec
        .shape
        .as_deref()
        .filter(|s| s.chars().count() <= 40)
        .map(|s| format!(" ({s})"))
        .unwrap_or_default();
    let help = format!(
        "{}{short_shape}, {need}{first_doc}",
        sanitize_line(&spec.type_name)
    );
    let mut long_help = format!(
        "{}, {need}: {}",
        sanitize_line(&spec.type_name),
        accepted(spec.kind)
    );
    if !spec.required {
        long_help.push_str("; null sends JSON null");
    }
    if let Some(shape) = &spec.shape {
        long_help.push_str(&format!("\nLooks like: {shape}"));
    }
    if let Some(doc) = &spec.doc {
        long_help.push_str("\n\n");
        long_help.push_str(doc.trim());
    }
    if long.starts_with("param-") {
        long_help.push_str(&format!(
            "\n\n(The parameter `{}` is spelled --{long} because --{} is a calimcp flag.)",
            sanitize_line(&spec.name),
            long.trim_start_matches("param-")
        ));
    }
    let mut a = Arg::new(spec.id.clone())
        .long(long)
        .value_name(value_name(spec))
        .help(help)
        .long_help(long_help)
        .help_heading("Parameters")
        .action(ArgAction::Set)
        .required(false);
    if let Some(alias) = &spec.alias {
        a = a.visible_alias(alias.clone());
    }
    if spec.kind == ValueKind::Bool {
        a = a.num_args(0..=1).default_missing_value("true");
    }
    Some(a)
}

/// The most `--args`, `@FILE` or `-` is read of (`CALIMCP_MAX_ARGS`).
pub(crate) const MAX_ARGS: u64 = 16 << 20;

/// What a value past [`MAX_ARGS`] is told.
const ARGS_LIMIT: &str = "the most read of one value (raise CALIMCP_MAX_ARGS)";

/// Standard input, readable once: by `--args -` or one parameter's `-`;
/// also carries the byte limit of every indirect value (`-`, `@FILE`).
pub(crate) struct Stdin {
    read: Box<dyn FnMut() -> std::io::Result<String>>,
    used_by: Option<String>,
    /// The most read of stdin or of a file, in bytes.
    pub max: u64,
}

impl Default for Stdin {
    fn default() -> Self {
        Stdin::bounded(MAX_ARGS)
    }
}

impl Stdin {
    pub(crate) fn new(read: Box<dyn FnMut() -> std::io::Result<String>>) -> Stdin {
        Stdin {
            read,
            used_by: None,
            max: MAX_ARGS,
        }
    }

    /// The process's stdin, read up to `max` bytes.
    pub(crate) fn bounded(max: u64) -> Stdin {
        let mut stdin = Stdin::new(Box::new(move || {
            textfile::read_bounded(std::io::stdin().lock(), max, "stdin", ARGS_LIMIT)
        }));
        stdin.max = max;
        stdin
    }

    fn take(&mut self, who: &str) -> Result<String, String> {
        if let Some(first) = &self.used_by {
            return Err(format!(
                "stdin can feed one value only, and {first} already reads it"
            ));
        }
        self.used_by = Some(who.to_string());
        (self.read)().map_err(|e| format!("cannot read stdin: {e}"))
    }
}

fn json_text(text: &str, from: &str) -> Result<Value, String> {
    let v = serde_json::from_str(text).map_err(|e| format!("{from} is not valid JSON: {e}"))?;
    no_duplicate_keys(text, from)?;
    Ok(v)
}

/// A key given twice in one object would keep only the last, silently.
fn no_duplicate_keys(text: &str, from: &str) -> Result<(), String> {
    match calimcp_core::mapping::args::duplicate_key(text.as_bytes()) {
        Some(why) => Err(format!("{from}: {why}")),
        None => Ok(()),
    }
}

/// The JSON value of `@PATH` or `-`, if `raw` is one of those.
fn indirect(raw: &str, stdin: &mut Stdin, who: &str) -> Option<Result<Value, String>> {
    if raw == "-" {
        return Some(stdin.take(who).and_then(|t| json_text(&t, "stdin")));
    }
    let path = raw.strip_prefix('@')?;
    let shown = sanitize_line(path);
    Some(
        textfile::read_file(std::path::Path::new(path), stdin.max, ARGS_LIMIT)
            .map_err(|e| format!("cannot read {shown}: {e}"))
            .and_then(|t| json_text(&t, &shown)),
    )
}

fn shown(raw: &str) -> String {
    let s = sanitize_line(raw);
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(39).collect::<String>())
    } else {
        s
    }
}

/// An integer of `scalar`'s range, exactly.
fn integer(raw: &str, scalar: Scalar) -> Result<Value, Problem> {
    let (lo, hi): (i128, i128) = match scalar {
        Scalar::U32 => (0, u32::MAX.into()),
        Scalar::U64 => (0, u64::MAX.into()),
        Scalar::I32 => (i32::MIN.into(), i32::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    };
    let n: i128 = raw.trim().parse().map_err(|_| {
        Problem::mismatch(
            "",
            format!("an integer ({})", scalar.name()),
            format!("`{}`", shown(raw)),
        )
    })?;
    if n < lo || n > hi {
        return Err(Problem::new(
            "",
            format!(
                "`{}` is out of range for {} ({lo} to {hi})",
                shown(raw),
                scalar.name()
            ),
        )
        .expected(format!("an integer from {lo} to {hi} ({})", scalar.name()))
        .got(format!("`{}`", shown(raw))));
    }
    Ok(match (i64::try_from(n), u64::try_from(n)) {
        (Ok(i), _) => Value::from(i),
        (_, Ok(u)) => Value::from(u),
        _ => unreachable!("checked against the 64-bit range above"),
    })
}

/// Parses one flag value by kind. `who` names the flag in messages.
pub(crate) fn parse_value(
    kind: ValueKind,
    raw: &str,
    stdin: &mut Stdin,
    who: &str,
) -> Result<Value, Problem> {
    let as_given = || format!("`{}`", shown(raw));
    if kind == ValueKind::Str {
        return Ok(Value::String(raw.to_string()));
    }
    if let Some(v) = indirect(raw, stdin, who) {
        return v.map_err(|why| Problem::new("", why));
    }
    match kind {
        ValueKind::Str => Ok(Value::String(raw.to_string())),
        ValueKind::Int(s) => integer(raw, s),
        ValueKind::Float => raw
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| Problem::mismatch("", "a number".into(), as_given())),
        ValueKind::Bool => match raw.trim() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(Problem::mismatch("", "true or false".into(), as_given())),
        },
        ValueKind::Bytes => {
            let t = raw.trim();
            if t.starts_with('[') {
                return json_text(t, "the value").map_err(|why| Problem::new("", why));
            }
            let hex = t
                .strip_prefix("0x")
                .or_else(|| t.strip_prefix("0X"))
                .unwrap_or(t);
            if !hex.len().is_multiple_of(2) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(Problem::mismatch(
                    "",
                    "hex digits (an even number of them) or a JSON array of bytes".into(),
                    as_given(),
                ));
            }
            Ok(Value::String(hex.to_string()))
        }
        ValueKind::BytesAsGiven => {
            let t = raw.trim();
            if t.starts_with('[') {
                return json_text(t, "the value").map_err(|why| Problem::new("", why));
            }
            Ok(Value::String(t.to_string()))
        }
        ValueKind::Json => match serde_json::from_str::<Value>(raw) {
            Ok(v) => no_duplicate_keys(raw, "the value")
                .map(|()| v)
                .map_err(|why| Problem::new("", why)),
            Err(e) => {
                let t = raw.trim_start();
                let structured = t.starts_with(['{', '[', '"'])
                    || t.starts_with(|c: char| c.is_ascii_digit() || c == '-');
                if structured {
                    Err(Problem::new("", format!("not valid JSON: {e}")))
                } else {
                    Ok(Value::String(raw.to_string()))
                }
            }
        },
    }
}

/// The `--args` value: a JSON object, from the text, `@FILE` or `-`.
pub(crate) fn parse_args(raw: &str, stdin: &mut Stdin) -> Result<Map<String, Value>, String> {
    let v = match indirect(raw, stdin, "--args") {
        Some(v) => v?,
        None => json_text(raw, "--args")?,
    };
    match v {
        Value::Object(o) => Ok(o),
        other => Err(format!(
            "--args takes a JSON object of arguments, got {}",
            calimcp_core::abi::kind_of(&other)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn no_stdin() -> Stdin {
        Stdin::new(Box::new(|| panic!("stdin must not be read")))
    }

    fn parse(kind: ValueKind, raw: &str) -> Result<Value, String> {
        parse_value(kind, raw, &mut no_stdin(), "--x").map_err(|p| p.message)
    }

    #[test]
    fn integers_are_exact_at_the_64_bit_edges() {
        let u = parse(ValueKind::Int(Scalar::U64), "18446744073709551615").unwrap();
        assert_eq!(u.to_string(), "18446744073709551615");
        let i = parse(ValueKind::Int(Scalar::I64), "-9223372036854775808").unwrap();
        assert_eq!(i.to_string(), "-9223372036854775808");
        assert_eq!(parse(ValueKind::Int(Scalar::I32), "-5").unwrap(), json!(-5));
        assert_eq!(parse(ValueKind::Int(Scalar::U32), "+7").unwrap(), json!(7));
        let e = parse(ValueKind::Int(Scalar::U64), "18446744073709551616").unwrap_err();
        assert!(e.contains("out of range for u64"), "{e}");
        assert!(
            parse(ValueKind::Int(Scalar::U64), "-1")
                .unwrap_err()
                .contains("out of range")
        );
        assert!(parse(ValueKind::Int(Scalar::U32), "4294967296").is_err());
        for bad in ["1.0", "1e3", "0x10", "", "five"] {
            assert!(parse(ValueKind::Int(Scalar::I64), bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn strings_are_always_literal() {
        for raw in ["@file", "-", "42", "true", "{\"a\":1}", "\u{1b}[2J"] {
            assert_eq!(parse(ValueKind::Str, raw).unwrap(), json!(raw));
        }
    }

    #[test]
    fn bools_floats_and_bytes() {
        assert_eq!(parse(ValueKind::Bool, "true").unwrap(), json!(true));
        assert!(parse(ValueKind::Bool, "yes").is_err());
        assert_eq!(parse(ValueKind::Float, "-0.5").unwrap(), json!(-0.5));
        assert!(parse(ValueKind::Float, "NaN").is_err());
        assert_eq!(
            parse(ValueKind::Bytes, "0xDEADbeef").unwrap(),
            json!("DEADbeef")
        );
        assert_eq!(parse(ValueKind::Bytes, "").unwrap(), json!(""));
        assert_eq!(
            parse(ValueKind::Bytes, "[1, 255]").unwrap(),
            json!([1, 255])
        );
        assert!(parse(ValueKind::Bytes, "abc").is_err());
        assert!(parse(ValueKind::Bytes, "zz").is_err());
    }

    #[test]
    fn json_values_and_bare_words() {
        assert_eq!(
            parse(ValueKind::Json, r#"["a","b"]"#).unwrap(),
            json!(["a", "b"])
        );
        assert_eq!(
            parse(ValueKind::Json, r#"{"Approved":"x"}"#).unwrap(),
            json!({"Approved": "x"})
        );
        assert_eq!(parse(ValueKind::Json, "Pending").unwrap(), json!("Pending"));
        assert_eq!(
            parse(ValueKind::Json, "[18446744073709551615]")
                .unwrap()
                .to_string(),
            "[18446744073709551615]"
        );
        let e = parse(ValueKind::Json, r#"{"a":1"#).unwrap_err();
        assert!(e.starts_with("not valid JSON"), "{e}");
    }

    #[test]
    fn files_and_stdin_feed_non_string_values() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("v.json");
        std::fs::write(&f, r#"{"name":"x","age":3}"#).unwrap();
        let raw = format!("@{}", f.display());
        assert_eq!(
            parse(ValueKind::Json, &raw).unwrap(),
            json!({"name": "x", "age": 3})
        );
        assert!(
            parse(ValueKind::Json, "@/no/such/file")
                .unwrap_err()
                .contains("cannot read")
        );
        let mut stdin = Stdin::new(Box::new(|| Ok("[1,2]".into())));
        assert_eq!(
            parse_value(ValueKind::Bytes, "-", &mut stdin, "--a").unwrap(),
            json!([1, 2])
        );
        let e = parse_value(ValueKind::Json, "-", &mut stdin, "--b").unwrap_err();
        assert!(e.message.contains("--a already reads it"), "{e}");
        let mut stdin = Stdin::new(Box::new(|| Ok(r#"{"k":"v"}"#.into())));
        assert_eq!(parse_args("-", &mut stdin).unwrap()["k"], "v");
        assert!(
            parse_args("[1]", &mut no_stdin())
                .unwrap_err()
                .contains("got an array")
        );
    }

    fn tool(params: &str) -> Tool {
        let abi = format!(
            r#"{{"schema_version":"wasm-abi/1","types":{{"Id":{{"kind":"alias","target":{{"kind":"bytes","size":4}}}}}},
                "methods":[{{"name":"m","params":{params},"returns":{{"kind":"unit"}}}}],"events":[]}}"#
        );
        let mut ws = Vec::new();
        let m = calimcp_core::abi::parse_manifest(abi.as_bytes(), &mut ws).unwrap();
        let app = calimcp_core::abi::App {
            id: "x".into(),
            package: Some("p".into()),
            services: vec![calimcp_core::abi::Service {
                name: None,
                manifest: m.into(),
            }],
            ..Default::default()
        };
        calimcp_core::mapping::build(&[app], &Default::default())
            .tools
            .remove(0)
    }

    #[test]
    fn flags_are_named_after_parameters() {
        let t = tool(
            r#"[{"name":"first_name","type":{"kind":"string"}},
                {"name":"json","type":{"kind":"u64"},"nullable":true},
                {"name":"id","type":{"$ref":"Id"}},
                {"name":"has space","type":{"kind":"bool"}},
                {"name":"_context","type":{"kind":"string"}}]"#,
        );
        let reserved: HashSet<String> = ["json", "args", "help", "context", "dry-run"]
            .map(String::from)
            .into();
        let s = specs(&t, &reserved);
        assert_eq!(s[0].long.as_deref(), Some("first_name"));
        assert_eq!(s[0].alias.as_deref(), Some("first-name"));
        assert!(s[0].required);
        assert_eq!(s[1].long.as_deref(), Some("param-json"));
        assert_eq!(s[1].kind, ValueKind::Int(Scalar::U64));
        assert!(!s[1].required);
        assert_eq!(s[2].kind, ValueKind::Bytes, "aliases are followed");
        assert_eq!(s[2].alias, None);
        assert_eq!(s[3].long, None, "not a valid flag: --args only");
        assert!(s[3].flag().starts_with("--args"));
        assert_eq!(s[4].long.as_deref(), Some("_context"));
        assert_eq!(s[4].alias, None, "--context stays the call's own flag");
        // every spec with a flag yields a clap argument that builds
        let cmd = s
            .iter()
            .filter_map(arg)
            .fold(clap::Command::new("t"), |c, a| c.arg(a));
        cmd.debug_assert();
    }
}
