//! The mapping rules of issue 2 §4 (and ../shared/spec/abi-mapping.md), one
//! test per behaviour, through the library API.
//!
//! Each test writes a small manifest inline, maps it, and checks the generated
//! JSON Schema by what it accepts and rejects: with a draft 2020-12 validator
//! (the dialect calimcp writes) and, for every value that must be accepted,
//! with a draft-07 validator too (what many MCP clients use, which must never
//! reject a valid value). Every schema is also meta-validated against 2020-12.

use calimcp_catalog::Catalog;
use calimcp_core::abi::{self, App, LoadOptions, Manifest, Service, Warning};
use calimcp_core::mapping::args::{Problem, Validator, outgoing};
use calimcp_core::mapping::{self, RefMode, Tool, ToolOptions, ToolSet};
use serde_json::{Value, json};

// ---------------------------------------------------------------- helpers

/// Parses an inline manifest; panics on a hard error.
fn parse(v: Value) -> (Manifest, Vec<Warning>) {
    let mut warnings = Vec::new();
    let m = abi::parse_manifest_value(&v, &mut warnings)
        .unwrap_or_else(|e| panic!("manifest rejected at {}: {}", e.path, e.message));
    (m, warnings)
}

fn manifest(v: Value) -> Manifest {
    parse(v).0
}

fn app(package: &str, id: &str, v: Value) -> App {
    App {
        id: id.into(),
        package: Some(package.into()),
        source: format!("test:{package}"),
        services: vec![Service {
            name: None,
            manifest: manifest(v).into(),
        }],
        ..App::default()
    }
}

fn tools_with(v: Value, opts: &ToolOptions) -> ToolSet {
    mapping::build(&[app("com.example.test", "0123456789abcdef", v)], opts)
}

fn tools(v: Value) -> ToolSet {
    tools_with(v, &ToolOptions::default())
}

fn tool<'a>(set: &'a ToolSet, name: &str) -> &'a Tool {
    set.get(name).unwrap_or_else(|| {
        let names: Vec<&str> = set.tools.iter().map(|t| t.name.as_str()).collect();
        panic!("no tool {name}; have {names:?}")
    })
}

/// A manifest with one method `m` taking one parameter `p` of type `ty`.
fn one_param(ty: Value, types: Value) -> Value {
    json!({
        "schema_version": "wasm-abi/1",
        "types": types,
        "methods": [{"name": "m", "params": [{"name": "p", "type": ty}], "returns": {"kind": "unit"}}]
    })
}

/// A manifest with one method `m` returning `ty`.
fn returning(ty: Value, types: Value) -> Value {
    json!({
        "schema_version": "wasm-abi/1",
        "types": types,
        "methods": [{"name": "m", "params": [], "returns": ty, "intent": "read_only"}]
    })
}

fn schemas(v: Value, method: &str, mode: RefMode) -> mapping::MethodSchemas {
    let m = manifest(v);
    let method = m.method(method).expect("method declared").clone();
    mapping::method_schemas(&m, &method, mode)
}

fn input(v: Value) -> Value {
    schemas(v, "m", RefMode::Inline).input
}

fn output(v: Value) -> Value {
    schemas(v, "m", RefMode::Inline)
        .output
        .expect("an output schema")
}

/// A generated schema compiled for both dialects.
struct Checked {
    schema: Value,
    v2020: jsonschema::Validator,
    v7: jsonschema::Validator,
}

fn compile(schema: &Value) -> Checked {
    if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
        panic!("not a valid 2020-12 schema ({e}):\n{schema:#}");
    }
    assert_no_true_and_no_false_items(schema, "#");
    let v2020 = jsonschema::draft202012::new(schema)
        .unwrap_or_else(|e| panic!("2020-12 compile failed ({e}):\n{schema:#}"));
    let v7 = jsonschema::draft7::new(schema)
        .unwrap_or_else(|e| panic!("draft-07 compile failed ({e}):\n{schema:#}"));
    Checked {
        schema: schema.clone(),
        v2020,
        v7,
    }
}

impl Checked {
    fn accepts(&self, instance: Value) -> &Self {
        assert!(
            self.v2020.is_valid(&instance),
            "2020-12 rejects {instance}: {:?}\nschema: {:#}",
            self.v2020
                .iter_errors(&instance)
                .map(|e| e.to_string())
                .collect::<Vec<_>>(),
            self.schema
        );
        assert!(
            self.v7.is_valid(&instance),
            "draft-07 rejects the valid {instance}\nschema: {:#}",
            self.schema
        );
        self
    }

    fn rejects(&self, instance: Value) -> &Self {
        assert!(
            !self.v2020.is_valid(&instance),
            "2020-12 accepts {instance}\nschema: {:#}",
            self.schema
        );
        self
    }

    /// `accepts(json!({"p": v}))`.
    fn accepts_p(&self, v: Value) -> &Self {
        self.accepts(json!({ "p": v }))
    }

    fn rejects_p(&self, v: Value) -> &Self {
        self.rejects(json!({ "p": v }))
    }
}

/// Parses JSON text, for numbers `json!` cannot write.
fn num(text: &str) -> Value {
    serde_json::from_str(text).expect("a JSON number")
}

/// Unknown is `{}`, never the boolean `true`; tuples never use `items: false`
/// (which draft-07 reads as "no items").
fn assert_no_true_and_no_false_items(v: &Value, at: &str) {
    match v {
        Value::Bool(true) => panic!("boolean `true` in a schema at {at}"),
        Value::Object(o) => {
            if let Some(items) = o.get("items") {
                assert!(
                    items.is_object(),
                    "`items` is not a schema object at {at}: {items}"
                );
            }
            for (k, x) in o {
                // `const`/`enum` hold instance values, not schemas.
                if k != "const" && k != "enum" {
                    assert_no_true_and_no_false_items(x, &format!("{at}/{k}"));
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                assert_no_true_and_no_false_items(x, &format!("{at}/{i}"));
            }
        }
        _ => {}
    }
}

/// Every `description` string anywhere in a schema.
fn descriptions(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                match (k.as_str(), x) {
                    ("description", Value::String(s)) => out.push(s.clone()),
                    _ => descriptions(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| descriptions(x, out)),
        _ => {}
    }
}

fn all_descriptions(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    descriptions(v, &mut out);
    out
}

/// The schema of parameter `p` inside an input schema.
fn p_of(input: &Value) -> &Value {
    &input["properties"]["p"]
}

// ---------------------------------------------------------------- input object

#[test]
fn input_schema_is_a_closed_object_of_the_params() {
    let v = json!({
        "schema_version": "wasm-abi/1",
        "methods": [{"name": "m", "params": [
            {"name": "a", "type": {"kind": "string"}},
            {"name": "b", "type": {"kind": "u32"}, "nullable": true}
        ], "returns": {"kind": "unit"}}]
    });
    let s = input(v);
    assert_eq!(s["type"], "object");
    assert_eq!(s["additionalProperties"], false);
    assert_eq!(s["required"], json!(["a"]));
    let keys: Vec<&String> = s["properties"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["a", "b", "_context"]);
    compile(&s)
        .accepts(json!({"a": "x"}))
        .accepts(json!({"a": "x", "b": 7}))
        .rejects(json!({"a": "x", "c": 1}))
        .rejects(json!({"b": 7}))
        .rejects(json!([]))
        .rejects(json!("a"));
}

/// Issue 47: a parameter or record field declared twice is listed once in
/// `required` (a 2020-12 `required` has unique items), as its last
/// declaration, the one the properties keep, says.
#[test]
fn a_name_declared_twice_is_required_once_as_the_last_one_says() {
    let v = json!({
        "schema_version": "wasm-abi/1",
        "types": {"Rec": {"kind": "record", "fields": [
            {"name": "x", "type": {"kind": "string"}},
            {"name": "y", "type": {"kind": "string"}, "nullable": true},
            {"name": "x", "type": {"kind": "u32"}},
            {"name": "y", "type": {"kind": "u32"}}
        ]}},
        "methods": [
            {"name": "m", "params": [
                {"name": "a", "type": {"kind": "string"}},
                {"name": "n", "type": {"kind": "string"}},
                {"name": "a", "type": {"kind": "u32"}},
                {"name": "r", "type": {"$ref": "Rec"}},
                {"name": "n", "type": {"kind": "u32"}, "nullable": true}
            ], "returns": {"$ref": "Rec"}, "intent": "read_only"}
        ]
    });
    for mode in [RefMode::Inline, RefMode::Defs] {
        let s = schemas(v.clone(), "m", mode);
        assert!(
            s.warnings
                .iter()
                .any(|w| w.contains("\"a\" is declared twice")),
            "{:?}",
            s.warnings
        );
        assert_eq!(s.input["required"], json!(["a", "r"]), "{mode:?}");
        assert_eq!(s.input["properties"]["a"]["type"], "integer");
        let rec = |schema: &Value, at: &Value| -> Value {
            match at["$ref"].as_str() {
                Some(r) => schema["$defs"][r.trim_start_matches("#/$defs/")].clone(),
                None => at.clone(),
            }
        };
        let r = rec(&s.input, &s.input["properties"]["r"]);
        // Input: every field is required; each once.
        assert_eq!(r["required"], json!(["x", "y"]), "{mode:?}");
        let checked = compile(&s.input);
        checked
            .accepts(json!({"a": 1, "r": {"x": 1, "y": 2}}))
            .accepts(json!({"a": 1, "n": null, "r": {"x": 1, "y": 2}}))
            .rejects(json!({"a": "one", "r": {"x": 1, "y": 2}}))
            .rejects(json!({"a": 1, "r": {"x": "s", "y": 2}}));
        let out = s.output.expect("an output schema");
        // Output: a nullable field may be missing; y was nullable first, not last.
        // (A result may be null: the record is the first member.)
        let r = rec(&out, out.get("anyOf").map_or(&out, |a| &a[0]));
        assert_eq!(r["required"], json!(["x", "y"]), "{mode:?} {out:#}");
        compile(&out)
            .accepts(json!({"x": 1, "y": 2}))
            .rejects(json!({"x": 1}));
    }
    // The last declaration nullable: the name is not required at all.
    let v = json!({
        "schema_version": "wasm-abi/1",
        "types": {"Rec": {"kind": "record", "fields": [
            {"name": "x", "type": {"kind": "string"}},
            {"name": "z", "type": {"kind": "string"}},
            {"name": "x", "type": {"kind": "u32"}, "nullable": true}
        ]}},
        "methods": [{"name": "m", "params": [], "returns": {"$ref": "Rec"}, "intent": "read_only"}]
    });
    let out = output(v);
    assert_eq!(out["anyOf"][0]["required"], json!(["z"]), "{out:#}");
    compile(&out).accepts(json!({"z": "s"}));
}

#[test]
fn nullable_param_is_optional() {
    let s = input(one_param(json!({"kind": "u32"}), json!({})));
    let v = json!({
        "schema_version": "wasm-abi/1",
        "methods": [{"name": "m", "params": [{"name": "p", "type": {"kind": "u32"}, "nullable": true}]}]
    });
    let nullable = input(v);
    assert_eq!(s["required"], json!(["p"]));
    assert_eq!(nullable["required"], json!([]));
    compile(&s).rejects(json!({})).rejects_p(Value::Null);
    compile(&nullable)
        .accepts(json!({}))
        .accepts_p(Value::Null)
        .accepts_p(json!(3))
        .rejects_p(json!("3"))
        .rejects_p(json!(-1));
}

#[test]
fn context_injected_unless_declared() {
    let v = json!({
        "schema_version": "wasm-abi/1",
        "methods": [
            {"name": "plain", "params": [{"name": "key", "type": {"kind": "string"}}]},
            {"name": "own", "params": [{"name": "_context", "type": {"kind": "u32"}}]}
        ]
    });
    let set = tools(v);
    let plain = tool(&set, "test_plain");
    assert!(plain.context_injected);
    assert_eq!(
        plain.input_schema()["properties"]["_context"],
        json!({"type": "string", "description": "Context id or alias to execute against; defaults to the selected context."})
    );
    assert_eq!(plain.input_schema()["required"], json!(["key"]));
    compile(&plain.input_schema())
        .accepts(json!({"key": "k"}))
        .accepts(json!({"key": "k", "_context": "ctx-1"}))
        .rejects(json!({"key": "k", "_context": 5}));

    // Declared: the parameter owns the key, with its own type, and is required.
    let own = tool(&set, "test_own");
    assert!(!own.context_injected);
    assert_eq!(
        own.input_schema()["properties"]["_context"]["type"],
        "integer"
    );
    assert_eq!(own.input_schema()["required"], json!(["_context"]));
    compile(&own.input_schema())
        .accepts(json!({"_context": 5}))
        .rejects(json!({"_context": "ctx-1"}))
        .rejects(json!({}));
}

// ---------------------------------------------------------------- scalars

#[test]
fn scalar_kinds_map_per_the_spec_table() {
    let cases = [
        ("bool", json!(true), json!("true")),
        ("string", json!("x"), json!(1)),
        ("unit", Value::Null, json!(0)),
        ("f32", json!(1.5), json!("1.5")),
        ("f64", json!(-2), json!(null)),
    ];
    for (kind, good, bad) in cases {
        let s = input(one_param(json!({"kind": kind}), json!({})));
        compile(&s).accepts_p(good).rejects_p(bad);
    }
    for kind in ["i32", "u32"] {
        let s = input(one_param(json!({"kind": kind}), json!({})));
        assert_eq!(p_of(&s)["type"], "integer", "{kind}");
        compile(&s)
            .accepts_p(json!(7))
            .rejects_p(json!(7.5))
            .rejects_p(json!("7"));
    }
    // 64-bit kinds also take a decimal string (issue 12 §1), in their exact range.
    for kind in ["i64", "u64"] {
        let s = input(one_param(json!({"kind": kind}), json!({})));
        assert_eq!(p_of(&s)["anyOf"][0]["type"], "integer", "{kind}");
        compile(&s)
            .accepts_p(json!(7))
            .accepts_p(json!("7"))
            .rejects_p(json!(7.5))
            .rejects_p(json!("7.5"))
            .rejects_p(json!("07"))
            .rejects_p(json!(" 7"));
    }
}

/// Checks bounds are written as exact JSON integers (not floats).
fn assert_exact_bounds(kind: &str, min: &str, max: &str) -> Checked {
    let s = input(one_param(json!({"kind": kind}), json!({})));
    let p = match p_of(&s).get("anyOf") {
        Some(any) => &any[0],
        None => p_of(&s),
    };
    assert_eq!(p["minimum"].to_string(), min, "{kind} minimum");
    assert_eq!(p["maximum"].to_string(), max, "{kind} maximum");
    assert!(!p["minimum"].as_number().unwrap().is_f64());
    assert!(!p["maximum"].as_number().unwrap().is_f64());
    compile(&s)
}

#[test]
fn u32_bounds_are_exact() {
    assert_exact_bounds("u32", "0", "4294967295")
        .accepts_p(num("0"))
        .accepts_p(num("4294967295"))
        .rejects_p(num("4294967296"))
        .rejects_p(num("-1"));
}

#[test]
fn i32_bounds_are_exact() {
    assert_exact_bounds("i32", "-2147483648", "2147483647")
        .accepts_p(num("-2147483648"))
        .accepts_p(num("2147483647"))
        .rejects_p(num("-2147483649"))
        .rejects_p(num("2147483648"));
}

/// What calimcp's exact check (the authority on 64-bit bounds) says of `v`
/// as the one parameter of a `kind`: `None` when it passes.
fn exact_check(kind: &str, v: Value) -> Option<String> {
    let m = manifest(one_param(json!({"kind": kind}), json!({})));
    let args = json!({ "p": v });
    let problems =
        calimcp_core::mapping::args::check_values(&m, &m.methods[0], args.as_object().unwrap());
    problems
        .first()
        .map(|p| format!("{}: {}", p.path, p.message))
}

/// A decimal string the schema's pattern lets through (the right form) but
/// calimcp refuses before sending, naming the exact range (issue 22 §13).
fn out_of_range_string(c: &Checked, kind: &str, text: &str, range: &str) {
    c.accepts_p(json!(text));
    let refused =
        exact_check(kind, json!(text)).unwrap_or_else(|| panic!("{text} passed as a {kind}"));
    assert!(
        refused.starts_with("p: ") && refused.contains("out of range") && refused.contains(range),
        "{refused}"
    );
}

/// The decimal-string branch of a 64-bit kind: a short pattern (the form
/// only; the range is in the description and checked exactly by calimcp).
fn string_pattern(kind: &str) -> String {
    let s = input(one_param(json!({"kind": kind}), json!({})));
    let p = p_of(&s);
    let d = p["description"].as_str().unwrap();
    let (lo, hi) = match kind {
        "u64" => ("0", "18446744073709551615"),
        _ => ("-9223372036854775808", "9223372036854775807"),
    };
    assert!(d.contains(&format!("from {lo} to {hi}")), "{d}");
    let pattern = p["anyOf"][1]["pattern"].as_str().unwrap().to_string();
    assert!(
        pattern.len() <= 30,
        "{kind}: a {}-character pattern: {pattern}",
        pattern.len()
    );
    pattern
}

#[test]
fn u64_bounds_are_exact() {
    assert_eq!(string_pattern("u64"), "^(?:0|[1-9][0-9]{0,19})$");
    let c = assert_exact_bounds("u64", "0", "18446744073709551615");
    c.accepts_p(num("0"))
        .accepts_p(num("18446744073709551615"))
        .rejects_p(num("18446744073709551616"))
        .rejects_p(num("-1"))
        .accepts_p(json!("0"))
        .accepts_p(json!("9007199254740993"))
        .accepts_p(json!("18446744073709551615"))
        .accepts_p(json!("18446744073709551609"))
        .rejects_p(json!("184467440737095516150"))
        .rejects_p(json!("018446744073709551615"))
        .rejects_p(json!("-1"))
        .rejects_p(json!("-0"))
        .rejects_p(json!("+1"));
    for text in ["0", "9007199254740993", "18446744073709551615"] {
        assert_eq!(exact_check("u64", json!(text)), None, "{text}");
    }
    let range = "0 to 18446744073709551615";
    for text in [
        "18446744073709551616",
        "18446744073709551620",
        "99999999999999999999",
    ] {
        out_of_range_string(&c, "u64", text, range);
    }
}

#[test]
fn i64_bounds_are_exact() {
    assert_eq!(string_pattern("i64"), "^(?:0|-?[1-9][0-9]{0,18})$");
    // -9223372036854775809 cannot be told from i64::MIN once parsed into an
    // f64 (serde_json without arbitrary precision), so the value checked below
    // the minimum is the nearest double below it; the bound itself is exact.
    let c = assert_exact_bounds("i64", "-9223372036854775808", "9223372036854775807");
    c.accepts_p(num("-9223372036854775808"))
        .accepts_p(num("9223372036854775807"))
        .rejects_p(num("9223372036854775808"))
        .rejects_p(num("-9223372036854777856"))
        .accepts_p(json!("-9223372036854775808"))
        .accepts_p(json!("9223372036854775807"))
        .accepts_p(json!("-1"))
        .rejects_p(json!("-0"))
        .rejects_p(json!("+1"))
        .rejects_p(json!("-09"))
        .rejects_p(json!("92233720368547758070"));
    for text in ["-9223372036854775808", "9223372036854775807", "-1", "0"] {
        assert_eq!(exact_check("i64", json!(text)), None, "{text}");
    }
    let range = "-9223372036854775808 to 9223372036854775807";
    for text in [
        "-9223372036854775809",
        "9223372036854775808",
        "-9999999999999999999",
    ] {
        out_of_range_string(&c, "i64", text, range);
    }
}

// ---------------------------------------------------------------- bytes

#[test]
fn unsized_bytes_hex_either_case_or_byte_array() {
    let s = input(one_param(json!({"kind": "bytes"}), json!({})));
    assert_eq!(
        p_of(&s)["description"],
        "bytes: a hex string (0x optional) or a byte array"
    );
    compile(&s)
        .accepts_p(json!("deadbeef"))
        .accepts_p(json!("0xdeadbeef"))
        .accepts_p(json!("0X"))
        .accepts_p(json!("DEADBEEF"))
        .accepts_p(json!("DeAdBeEf"))
        .accepts_p(json!("")) // zero bytes
        .accepts_p(json!([]))
        .accepts_p(json!([0, 1, 255]))
        .rejects_p(json!("abc")) // odd length
        .rejects_p(json!("0xabc"))
        .rejects_p(json!("x0ab"))
        .rejects_p(json!("zz"))
        .rejects_p(json!("ab cd"))
        .rejects_p(json!([256]))
        .rejects_p(json!([-1]))
        .rejects_p(json!([1.5]))
        .rejects_p(json!(["ab"]))
        .rejects_p(json!(12));
}

#[test]
fn fixed_bytes_hex_pattern_and_array_length() {
    let s = input(one_param(json!({"kind": "bytes", "size": 16}), json!({})));
    assert_eq!(
        p_of(&s)["description"],
        "bytes: a hex string (0x optional) or a 16-byte array"
    );
    let c = compile(&s);
    c.accepts_p(json!("ab".repeat(16)))
        .accepts_p(json!("AB".repeat(16)))
        .accepts_p(json!(format!("0x{}", "ab".repeat(16))))
        .accepts_p(json!(vec![255; 16]))
        .rejects_p(json!("ab".repeat(15)))
        .rejects_p(json!("ab".repeat(17)))
        .rejects_p(json!(format!("{}a", "ab".repeat(15))))
        .rejects_p(json!(""))
        .rejects_p(json!(vec![0; 15]))
        .rejects_p(json!(vec![0; 17]))
        .rejects_p(json!(vec![256; 16]));

    // The same through a named type and an alias.
    let types = json!({
        "Id": {"kind": "bytes", "size": 2},
        "Key": {"kind": "alias", "target": {"kind": "bytes", "size": 2}}
    });
    for name in ["Id", "Key"] {
        let s = input(one_param(json!({"$ref": name}), types.clone()));
        assert_eq!(
            p_of(&s)["description"],
            "bytes: a hex string (0x optional) or a 2-byte array"
        );
        compile(&s)
            .accepts_p(json!("0aFF"))
            .accepts_p(json!("0x0aFF"))
            .accepts_p(json!([10, 255]))
            .rejects_p(json!("0aF"))
            .rejects_p(json!("0aFF00"))
            .rejects_p(json!([10]));
    }
}

#[test]
fn plain_bytes_hex_becomes_a_byte_array_outgoing() {
    let v = json!({
        "schema_version": "wasm-abi/1",
        "types": {
            "Blob": {"kind": "bytes"},
            "Wrapped": {"kind": "record", "fields": [{"name": "data", "type": {"$ref": "Blob"}}]}
        },
        "methods": [{"name": "m", "params": [
            {"name": "a", "type": {"kind": "bytes"}},
            {"name": "b", "type": {"kind": "bytes", "size": 2}},
            {"name": "c", "type": {"kind": "list", "items": {"$ref": "Blob"}}},
            {"name": "d", "type": {"$ref": "Wrapped"}},
            {"name": "e", "type": {"kind": "bytes"}}
        ]}]
    });
    let m = manifest(v);
    let method = m.method("m").unwrap();
    let args = json!({
        "a": "0xDEadbe",
        "b": [1, 2],
        "c": ["", "ff"],
        "d": {"data": "0A0b"},
        "e": ""
    });
    assert_eq!(
        outgoing(&m, method, args.as_object().unwrap()),
        json!({"a": [222, 173, 190], "b": [1, 2], "c": [[], [255]], "d": {"data": [10, 11]}, "e": []})
    );
}

#[test]
fn encoded_bytes_string_is_sent_unchanged() {
    let v = json!({
        "schema_version": "wasm-abi/1",
        "types": {
            "PublicKey": {"kind": "bytes", "size": 32, "encoding": "base58"},
            "Account": {"kind": "alias", "target": {"kind": "bytes", "size": 2, "encoding": "hex"}}
        },
        "methods": [{"name": "m", "params": [
            {"name": "key", "type": {"$ref": "PublicKey"}},
            {"name": "acct", "type": {"$ref": "Account"}},
            {"name": "raw", "type": {"kind": "bytes", "encoding": "hex"}}
        ]}]
    });
    let m = manifest(v.clone());
    let method = m.method("m").unwrap();
    let key = "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi";
    let args = json!({"key": key, "acct": "ABcd", "raw": "00ff"});
    assert_eq!(outgoing(&m, method, args.as_object().unwrap()), args);

    let s = input(v);
    assert_eq!(
        s["properties"]["acct"]["description"],
        "bytes: a hex string (0x optional) or a 2-byte array"
    );
    assert!(
        s["properties"]["key"]["description"]
            .as_str()
            .unwrap()
            .contains("base58"),
        "{}",
        s["properties"]["key"]
    );
    compile(&s)
        .accepts(json!({"key": key, "acct": "ABcd", "raw": "00ff"}))
        .rejects(json!({"key": "0OIl", "acct": "ABcd", "raw": "00ff"}))
        .rejects(json!({"key": key, "acct": "ABcdef", "raw": "00ff"}))
        .accepts(json!({"key": key, "acct": "0xABcd", "raw": "0x00ff"}));
    // An explicit hex encoding loses its 0x on the way out (the app decodes hex).
    let args = json!({"key": key, "acct": "0xABcd", "raw": "0X00ff"});
    assert_eq!(
        outgoing(&m, method, args.as_object().unwrap()),
        json!({"key": key, "acct": "ABcd", "raw": "00ff"})
    );
}

#[test]
fn output_bytes_are_a_string_or_an_array() {
    // Issue 8 §4: ids come back as base58 strings, byte vectors as arrays;
    // the ABI cannot say which, so both pass the output schema.
    let out = output(returning(json!({"kind": "bytes"}), json!({})));
    assert!(
        all_descriptions(&out).contains(&"bytes: a string or a byte array".to_string()),
        "{out}"
    );
    compile(&out)
        .accepts(json!([1, 2, 3]))
        .accepts(json!([]))
        .accepts(Value::Null)
        .accepts(json!("0102"))
        .rejects(json!(12))
        .rejects(json!([256]));
    let out = output(returning(json!({"kind": "bytes", "size": 32}), json!({})));
    compile(&out)
        .accepts(json!("4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi"))
        .accepts(json!(vec![7; 32]))
        .rejects(json!(vec![7; 31]));

    let out = output(returning(
        json!({"$ref": "Two"}),
        json!({"Two": {"kind": "bytes", "size": 2}}),
    ));
    assert!(
        all_descriptions(&out).contains(&"bytes: a string or a 2-byte array".to_string()),
        "{out}"
    );
    compile(&out)
        .accepts(json!([1, 2]))
        .rejects(json!([1]))
        .rejects(json!([1, 2, 3]))
        .accepts(json!("0102"));
}

#[test]
fn doc_keeps_bytes_hint() {
    let v = json!({
        "schema_version": "wasm-abi/1",
        "types": {
            "Id": {"kind": "alias", "target": {"kind": "bytes", "size": 32}, "doc": "A notebook id."},
            "Rec": {"kind": "record", "fields": [{"name": "blob", "type": {"kind": "bytes"}, "doc": "Raw data."}]}
        },
        "methods": [{"name": "m", "params": [
            {"name": "data", "type": {"kind": "bytes"}, "doc": "The data to hash."},
            {"name": "id", "type": {"$ref": "Id"}},
            {"name": "rec", "type": {"$ref": "Rec"}},
            {"name": "note", "type": {"kind": "string"}, "doc": "Just a note."}
        ]}]
    });
    let s = input(v);
    let props = &s["properties"];
    assert_eq!(
        props["data"]["description"],
        "The data to hash. (bytes: a hex string (0x optional) or a byte array)"
    );
    assert_eq!(
        props["id"]["description"],
        format!("A notebook id. ({})", mapping::schema::ID32_DESCRIPTION)
    );
    assert_eq!(
        props["rec"]["properties"]["blob"]["description"],
        "Raw data. (bytes: a hex string (0x optional) or a byte array)"
    );
    assert_eq!(props["note"]["description"], "Just a note.");
    compile(&s);
}

// ---------------------------------------------------------------- composites

#[test]
fn list_and_map_schemas() {
    let s = input(one_param(
        json!({"kind": "map", "key": {"kind": "string"}, "value": {"kind": "list", "items": {"kind": "u32"}}}),
        json!({}),
    ));
    compile(&s)
        .accepts_p(json!({}))
        .accepts_p(json!({"a": [1, 2], "b": []}))
        .rejects_p(json!({"a": [-1]}))
        .rejects_p(json!({"a": 1}))
        .rejects_p(json!([["a", [1]]]));
}

#[test]
fn tuples_are_prefix_items_with_exact_length() {
    let s = input(one_param(
        json!({"kind": "tuple", "elements": [{"kind": "string"}, {"kind": "u64"}, {"kind": "bool"}]}),
        json!({}),
    ));
    let p = p_of(&s);
    assert_eq!(p["type"], "array");
    assert_eq!(p["prefixItems"].as_array().unwrap().len(), 3);
    assert_eq!(p["minItems"], 3);
    assert_eq!(p["maxItems"], 3);
    assert!(
        p.get("items").is_none(),
        "no `items` beside prefixItems: {p}"
    );
    compile(&s)
        .accepts_p(json!(["a", 1, true]))
        .rejects_p(json!(["a", 1]))
        .rejects_p(json!(["a", 1, true, 4]))
        .rejects_p(json!([1, "a", true]))
        .rejects_p(json!({"0": "a"}));
}

/// Issue 47: a tuple of no elements is the empty array, in a valid 2020-12
/// schema (`prefixItems` may not be empty), in both `$ref` modes.
#[test]
fn an_empty_tuple_is_the_empty_array() {
    for mode in [RefMode::Inline, RefMode::Defs] {
        let v = one_param(json!({"kind": "tuple", "elements": []}), json!({}));
        let s = schemas(v, "m", mode).input;
        assert_eq!(
            p_of(&s),
            &json!({"type": "array", "maxItems": 0}),
            "{mode:?}"
        );
        compile(&s)
            .accepts_p(json!([]))
            .rejects_p(json!([1]))
            .rejects_p(json!({}));
    }
}

#[test]
fn record_fields_are_all_required_and_nullable_accepts_null() {
    let types = json!({"Profile": {"kind": "record", "fields": [
        {"name": "name", "type": {"kind": "string"}},
        {"name": "bio", "type": {"kind": "string"}, "nullable": true},
        {"name": "tags", "type": {"kind": "list", "items": {"kind": "string"}}}
    ]}});
    let s = input(one_param(json!({"$ref": "Profile"}), types));
    assert_eq!(p_of(&s)["required"], json!(["name", "bio", "tags"]));
    compile(&s)
        .accepts_p(json!({"name": "a", "bio": null, "tags": []}))
        .accepts_p(json!({"name": "a", "bio": "hi", "tags": ["x"]}))
        .rejects_p(json!({"name": "a", "tags": []}))
        .rejects_p(json!({"name": null, "bio": null, "tags": []}))
        .rejects_p(json!({"name": "a", "bio": 3, "tags": []}))
        .rejects_p(json!(["a", null, []]));
}

#[test]
fn output_nullable_field_is_optional() {
    let types = json!({"Profile": {"kind": "record", "fields": [
        {"name": "name", "type": {"kind": "string"}},
        {"name": "bio", "type": {"kind": "string"}, "nullable": true}
    ]}});
    let out = output(returning(json!({"$ref": "Profile"}), types));
    compile(&out)
        .accepts(json!({"name": "a"}))
        .accepts(json!({"name": "a", "bio": null}))
        .accepts(json!({"name": "a", "bio": "b"}))
        .rejects(json!({"bio": "b"}))
        .rejects(json!({"name": "a", "bio": 1}));
}

#[test]
fn positional_record_is_an_array() {
    let types = json!({
        "Point": {"kind": "record", "fields": [
            {"name": "field_0", "type": {"kind": "i32"}},
            {"name": "field_1", "type": {"kind": "string"}, "nullable": true}
        ]},
        "Pair": {"kind": "record", "fields": [
            {"name": "unnamed", "type": {"kind": "string"}},
            {"name": "unnamed", "type": {"kind": "u64"}}
        ]},
        // Not positional: out of order, or a gap.
        "Swapped": {"kind": "record", "fields": [
            {"name": "field_1", "type": {"kind": "i32"}},
            {"name": "field_0", "type": {"kind": "i32"}}
        ]},
        "Gap": {"kind": "record", "fields": [
            {"name": "field_0", "type": {"kind": "i32"}},
            {"name": "field_2", "type": {"kind": "i32"}}
        ]}
    });
    let s = input(one_param(json!({"$ref": "Point"}), types.clone()));
    assert_eq!(p_of(&s)["minItems"], 2);
    assert_eq!(p_of(&s)["maxItems"], 2);
    compile(&s)
        .accepts_p(json!([1, "a"]))
        .accepts_p(json!([1, null]))
        .rejects_p(json!({"field_0": 1, "field_1": "a"}))
        .rejects_p(json!([1]))
        .rejects_p(json!([1, "a", 2]))
        .rejects_p(json!(["a", 1]));

    let s = input(one_param(json!({"$ref": "Pair"}), types.clone()));
    compile(&s)
        .accepts_p(json!(["a", 5]))
        .rejects_p(json!({"unnamed": "a"}))
        .rejects_p(json!([5, "a"]));

    for name in ["Swapped", "Gap"] {
        let s = input(one_param(json!({"$ref": name}), types.clone()));
        assert_eq!(p_of(&s)["type"], "object", "{name}");
    }

    // The signature renders an inline positional record as a tuple.
    let set = tools(one_param(
        json!({"kind": "record", "fields": [
            {"name": "field_0", "type": {"kind": "i32"}},
            {"name": "field_1", "type": {"kind": "string"}}
        ]}),
        json!({}),
    ));
    assert_eq!(
        tool(&set, "test_m").signature,
        "[mut] m(p: (i32, string)) -> unit"
    );
}

// ---------------------------------------------------------------- variants

fn variant_types() -> Value {
    json!({
        "Color": {"kind": "variant", "variants": [{"name": "Red"}, {"name": "Green"}]},
        "Shape": {"kind": "variant", "variants": [
            {"name": "Circle", "payload": {"kind": "f64"}},
            {"name": "Rect", "payload": {"$ref": "Rect"}}
        ]},
        "Rect": {"kind": "record", "fields": [{"name": "w", "type": {"kind": "u32"}}, {"name": "h", "type": {"kind": "u32"}}]},
        "Action": {"kind": "variant", "variants": [
            {"name": "Ping"},
            {"name": "Rename", "payload": {"kind": "string"}},
            {"name": "Move", "payload": {"$ref": "Action_Move"}}
        ]},
        "Action_Move": {"kind": "record", "fields": [
            {"name": "field_0", "type": {"kind": "i32"}},
            {"name": "field_1", "type": {"kind": "i32"}}
        ]}
    })
}

#[test]
fn unit_variants_are_a_string_enum() {
    let s = input(one_param(json!({"$ref": "Color"}), variant_types()));
    assert_eq!(
        p_of(&s),
        &json!({"type": "string", "enum": ["Red", "Green"]})
    );
    compile(&s)
        .accepts_p(json!("Red"))
        .accepts_p(json!("Green"))
        .rejects_p(json!("red"))
        .rejects_p(json!("Blue"))
        .rejects_p(json!({"Red": null}));
}

#[test]
fn payload_variants_are_single_key_objects() {
    let s = input(one_param(json!({"$ref": "Shape"}), variant_types()));
    compile(&s)
        .accepts_p(json!({"Circle": 1.5}))
        .accepts_p(json!({"Rect": {"w": 1, "h": 2}}))
        .rejects_p(json!("Circle"))
        .rejects_p(json!({"Circle": "big"}))
        .rejects_p(json!({"Circle": 1.5, "Rect": {"w": 1, "h": 2}}))
        .rejects_p(json!({"Circle": 1.5, "extra": 1}))
        .rejects_p(json!({"Square": 1}))
        .rejects_p(json!({}));
}

#[test]
fn mixed_variant_is_one_of_enum_and_objects() {
    let s = input(one_param(json!({"$ref": "Action"}), variant_types()));
    let members = p_of(&s)["oneOf"].as_array().expect("a oneOf").clone();
    assert_eq!(
        members.len(),
        3,
        "the enum and one object per payload variant"
    );
    assert_eq!(members[0], json!({"type": "string", "enum": ["Ping"]}));
    compile(&s)
        .accepts_p(json!("Ping"))
        .accepts_p(json!({"Rename": "x"}))
        .accepts_p(json!({"Move": [1, -2]}))
        .rejects_p(json!("Rename"))
        .rejects_p(json!({"Ping": null}))
        .rejects_p(json!({"Move": {"field_0": 1, "field_1": 2}}))
        .rejects_p(json!({"Rename": "x", "Ping": null}));
}

#[test]
fn internally_tagged_variant_tag_and_fields() {
    let types = json!({
        "Shape": {"kind": "variant", "tag": "kind", "variants": [
            {"name": "circle", "payload": {"$ref": "Shape_circle"}},
            {"name": "square", "payload": {"kind": "record", "fields": [{"name": "side", "type": {"kind": "f64"}}]}},
            {"name": "empty"}
        ]},
        "Shape_circle": {"kind": "record", "fields": [
            {"name": "radius", "type": {"kind": "f64"}},
            {"name": "label", "type": {"kind": "string"}, "nullable": true}
        ]}
    });
    let s = input(one_param(json!({"$ref": "Shape"}), types));
    assert!(p_of(&s)["oneOf"].is_array(), "{}", p_of(&s));
    compile(&s)
        .accepts_p(json!({"kind": "circle", "radius": 1.5, "label": null}))
        .accepts_p(json!({"kind": "square", "side": 2}))
        .accepts_p(json!({"kind": "empty"}))
        .rejects_p(json!({"kind": "circle", "label": null}))
        .rejects_p(json!({"radius": 1.5, "label": null}))
        .rejects_p(json!({"kind": "triangle"}))
        .rejects_p(json!({"kind": "square", "radius": 1.0, "label": null}))
        .rejects_p(json!({"circle": {"radius": 1.5, "label": null}}))
        .rejects_p(json!("empty"));
}

#[test]
fn adjacently_tagged_variant_tag_and_content() {
    let types = json!({
        "Message": {"kind": "variant", "tag": "type", "content": "data", "variants": [
            {"name": "Text", "payload": {"kind": "string"}},
            {"name": "Nothing"}
        ]}
    });
    let s = input(one_param(json!({"$ref": "Message"}), types));
    compile(&s)
        .accepts_p(json!({"type": "Text", "data": "hi"}))
        .accepts_p(json!({"type": "Nothing"}))
        .rejects_p(json!({"type": "Text"}))
        .rejects_p(json!({"type": "Text", "data": 5}))
        .rejects_p(json!({"type": "Nothing", "data": "x"}))
        .rejects_p(json!({"type": "Other", "data": "x"}))
        .rejects_p(json!({"Text": "hi"}));
}

#[test]
fn untagged_variant_is_any_of_payloads_with_unit_as_null() {
    let types = json!({
        "Loose": {"kind": "variant", "untagged": true, "variants": [
            {"name": "Number", "payload": {"kind": "u32"}},
            {"name": "Raw", "payload": {"kind": "bytes"}},
            {"name": "Named", "payload": {"kind": "record", "fields": [{"name": "id", "type": {"kind": "bytes", "size": 2}}]}},
            {"name": "Nothing"}
        ]}
    });
    let s = input(one_param(json!({"$ref": "Loose"}), types));
    assert!(p_of(&s)["anyOf"].is_array(), "{}", p_of(&s));
    compile(&s)
        .accepts_p(json!(5))
        .accepts_p(json!([1, 2]))
        .accepts_p(Value::Null)
        .accepts_p(json!({"id": [1, 2]}))
        // Bytes under an untagged enum are arrays only: serde matches the raw JSON.
        .rejects_p(json!("0102"))
        .rejects_p(json!({"id": "0102"}))
        .rejects_p(json!(-1))
        .rejects_p(json!("Nothing"));
}

#[test]
fn variant_docs_become_member_descriptions() {
    let types = json!({
        "Level": {"kind": "variant", "variants": [
            {"name": "Low", "doc": "Quiet."},
            {"name": "High"},
            {"name": "Custom", "payload": {"kind": "u32"}, "doc": "Pick one."}
        ]}
    });
    let s = input(one_param(json!({"$ref": "Level"}), types));
    let d = all_descriptions(&s);
    assert!(d.contains(&"Quiet.".to_string()), "{d:?}");
    assert!(d.contains(&"Pick one.".to_string()), "{d:?}");
    compile(&s)
        .accepts_p(json!("Low"))
        .accepts_p(json!("High"))
        .accepts_p(json!({"Custom": 3}))
        .rejects_p(json!("Custom"))
        .rejects_p(json!("Medium"));
}

// ---------------------------------------------------------------- CRDT

#[test]
fn crdt_wrapper_is_transparent_in_schema_and_signature() {
    let v = json!({
        "schema_version": "wasm-abi/1",
        "types": {
            "Owner": {"kind": "record", "fields": [], "crdt_type": "lww_register", "inner_type": {"kind": "string"}}
        },
        "methods": [{"name": "m", "params": [
            {"name": "items", "type": {
                "kind": "map", "crdt_type": "unordered_map", "key": {"kind": "string"},
                "value": {"kind": "record", "fields": [], "crdt_type": "lww_register", "inner_type": {"kind": "u32"}}
            }},
            {"name": "owner", "type": {"$ref": "Owner"}},
            {"name": "log", "type": {"kind": "list", "crdt_type": "vector", "items": {"kind": "record", "fields": [], "crdt_type": "lww_register", "inner_type": {"kind": "bool"}}}}
        ], "returns": {"kind": "record", "fields": [], "crdt_type": "lww_register", "inner_type": {"kind": "u64"}}}]
    });
    let set = tools(v.clone());
    let t = tool(&set, "test_m");
    assert_eq!(
        t.signature,
        "[mut] m(items: map<string, u32>, owner: Owner, log: bool[]) -> u64"
    );
    compile(&t.input_schema())
        .accepts(json!({"items": {"a": 1}, "owner": "me", "log": [true]}))
        .rejects(json!({"items": {"a": {"value": 1}}, "owner": "me", "log": []}))
        .rejects(json!({"items": {}, "owner": {"inner": "me"}, "log": []}))
        .rejects(json!({"items": {}, "owner": "me", "log": [1]}));
    compile(t.return_schema().as_ref().unwrap())
        .accepts(json!(5))
        .rejects(json!({"value": 5}));
}

#[test]
fn opaque_crdt_is_unknown_with_description() {
    let types = json!({"Hits": {"kind": "record", "fields": [], "crdt_type": "counter"}});
    let s = input(one_param(json!({"$ref": "Hits"}), types.clone()));
    let p = p_of(&s);
    let keys: Vec<&String> = p.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["description"],
        "unknown apart from its description: {p}"
    );
    assert!(
        p["description"].as_str().unwrap().contains("counter"),
        "{p}"
    );
    compile(&s)
        .accepts_p(json!(5))
        .accepts_p(json!("x"))
        .accepts_p(json!({"any": [1]}))
        .accepts_p(Value::Null);
    let set = tools(json!({
        "schema_version": "wasm-abi/1", "types": types,
        "methods": [{"name": "m", "params": [{"name": "p", "type": {"$ref": "Hits"}}],
                     "returns": {"kind": "record", "fields": [], "crdt_type": "counter"}}]
    }));
    assert_eq!(
        tool(&set, "test_m").signature,
        "[mut] m(p: Hits) -> counter"
    );
}

// ---------------------------------------------------------------- $ref and recursion

/// A_1 … A_n: record {v: u32, next: list<A_{i+1}>}; A_n has only `v`.
fn chain_types(n: usize) -> Value {
    let mut types = serde_json::Map::new();
    for i in 1..=n {
        let mut fields = vec![json!({"name": "v", "type": {"kind": "u32"}})];
        if i < n {
            fields.push(json!({"name": "next", "type": {"kind": "list", "items": {"$ref": format!("A{}", i + 1)}}}));
        }
        types.insert(format!("A{i}"), json!({"kind": "record", "fields": fields}));
    }
    Value::Object(types)
}

/// A value of A_1 nested `levels` deep, with a wrong `v` at level `bad`.
fn chain_value(levels: usize, bad: usize) -> Value {
    let mut v = Value::Null;
    for level in (1..=levels).rev() {
        let x = if level == bad { json!("bad") } else { json!(1) };
        v = if v.is_null() {
            json!({"v": x})
        } else {
            json!({"v": x, "next": [v]})
        };
    }
    v
}

#[test]
fn ninth_nested_ref_degrades_to_unknown() {
    let (n, levels) = (12, 12);
    let s = schemas(
        one_param(json!({"$ref": "A1"}), chain_types(n)),
        "m",
        RefMode::Inline,
    );
    assert!(
        s.warnings.iter().any(|w| w.contains("deeper than 8")),
        "{:?}",
        s.warnings
    );
    let c = compile(&s.input);
    c.accepts_p(chain_value(levels, 0));
    for bad in 1..=8 {
        c.rejects_p(chain_value(levels, bad));
    }
    // The 9th expansion (A9) and everything under it is accepted unvalidated.
    for bad in 9..=levels {
        c.accepts_p(chain_value(levels, bad));
    }
    // Lists, maps and records between references do not count; aliases do.
    let mut types = chain_types(3).as_object().unwrap().clone();
    types.insert(
        "Alias1".into(),
        json!({"kind": "alias", "target": {"$ref": "A1"}}),
    );
    let s = input(one_param(json!({"$ref": "Alias1"}), Value::Object(types)));
    compile(&s)
        .rejects_p(chain_value(3, 3))
        .accepts_p(chain_value(3, 0));
}

#[test]
fn self_recursive_type_is_capped_inline() {
    let types = json!({"Tree": {"kind": "record", "fields": [
        {"name": "label", "type": {"kind": "string"}},
        {"name": "children", "type": {"kind": "list", "items": {"$ref": "Tree"}}}
    ]}});
    let tree = |depth: usize, bad: usize| {
        let mut v = Value::Null;
        for level in (1..=depth).rev() {
            let label = if level == bad { json!(1) } else { json!("x") };
            let children = if v.is_null() { json!([]) } else { json!([v]) };
            v = json!({"label": label, "children": children});
        }
        v
    };
    let s = input(one_param(json!({"$ref": "Tree"}), types));
    let c = compile(&s);
    c.accepts_p(tree(20, 0))
        .rejects_p(tree(20, 8))
        .accepts_p(tree(20, 9));
}

#[test]
fn unknown_ref_degrades_to_unknown() {
    let v = one_param(json!({"$ref": "u128"}), json!({}));
    let s = input(v.clone());
    assert_eq!(p_of(&s), &json!({}));
    compile(&s)
        .accepts_p(json!(1))
        .accepts_p(json!("340282366920938463463374607431768211455"))
        .accepts_p(json!([1]));
    let lints = abi::lint::lint(&manifest(v));
    assert!(
        lints
            .iter()
            .any(|w| w.message.contains("dangling") && w.message.contains("u128")),
        "{lints:?}"
    );
}

#[test]
fn unknown_kind_degrades_to_unknown_with_a_warning() {
    let (m, warnings) = parse(one_param(json!({"kind": "u128"}), json!({})));
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains("unknown kind") && w.path.contains("params[0]")),
        "{warnings:?}"
    );
    let method = m.method("m").unwrap().clone();
    let s = mapping::method_schemas(&m, &method, RefMode::Inline).input;
    assert_eq!(p_of(&s), &json!({}));
    compile(&s).accepts_p(json!("anything")).accepts_p(json!(1));
}

#[test]
fn alias_cycles_degrade_to_unknown_with_a_warning_in_both_modes() {
    // A = B, B = A (and C aliases into that cycle): no concrete type anywhere.
    let types = json!({
        "A": {"kind": "alias", "target": {"$ref": "B"}},
        "B": {"kind": "alias", "target": {"$ref": "A"}},
        "C": {"kind": "alias", "target": {"$ref": "A"}},
        "L": {"kind": "alias", "target": {"kind": "list", "items": {"$ref": "L"}}}
    });
    let v = json!({
        "schema_version": "wasm-abi/1", "types": types,
        "methods": [{"name": "m", "params": [
            {"name": "p", "type": {"$ref": "C"}},
            {"name": "l", "type": {"$ref": "L"}}
        ], "returns": {"$ref": "A"}}]
    });
    for mode in [RefMode::Inline, RefMode::Defs] {
        let s = schemas(v.clone(), "m", mode);
        assert_eq!(p_of(&s.input), &json!({}), "{mode:?}: {:#}", s.input);
        assert_eq!(s.output, Some(json!({})), "{mode:?}");
        assert!(
            s.warnings
                .iter()
                .any(|w| w.contains("\"C\"") && w.contains("alias of itself")),
            "{mode:?}: {:?}",
            s.warnings
        );
        // No `$defs` entry points only at another one.
        if let Some(defs) = s.input.get("$defs").and_then(Value::as_object) {
            for (key, def) in defs {
                assert!(
                    def.as_object()
                        .is_none_or(|o| !(o.len() == 1 && o.contains_key("$ref"))),
                    "{mode:?}: $defs/{key} is a bare $ref: {def}"
                );
            }
        }
        // A recursive alias that does reach a type (a list) is not a cycle.
        let l = &s.input["properties"]["l"];
        let l = match l["$ref"].as_str() {
            Some(r) => &s.input["$defs"][r.trim_start_matches("#/$defs/")],
            None => l,
        };
        assert_eq!(l["type"], "array", "{mode:?}: {l}");
        compile(&s.input)
            .accepts(json!({"p": 1, "l": [[[]]]}))
            .accepts(json!({"p": {"any": "thing"}, "l": []}))
            .rejects(json!({"p": 1, "l": [1]}));
    }
}

#[test]
fn defs_mode_recursion_is_exact() {
    let types = json!({"Tree": {"kind": "record", "doc": "A tree.", "fields": [
        {"name": "label", "type": {"kind": "string"}},
        {"name": "children", "type": {"kind": "list", "items": {"$ref": "Tree"}}}
    ]}});
    let v = json!({
        "schema_version": "wasm-abi/1", "types": types,
        "methods": [{"name": "m", "params": [{"name": "p", "type": {"$ref": "Tree"}}], "returns": {"$ref": "Tree"}}]
    });
    let s = schemas(v.clone(), "m", RefMode::Defs);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert_eq!(p_of(&s.input), &json!({"$ref": "#/$defs/Tree"}));
    let defs = s.input["$defs"].as_object().expect("$defs");
    assert_eq!(defs.len(), 1, "each named type once");
    assert_eq!(
        defs["Tree"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Tree"})
    );
    assert_eq!(defs["Tree"]["description"], "A tree.");
    let tree = |depth: usize, bad: usize| {
        let mut v = Value::Null;
        for level in (1..=depth).rev() {
            let label = if level == bad { json!(1) } else { json!("x") };
            let children = if v.is_null() { json!([]) } else { json!([v]) };
            v = json!({"label": label, "children": children});
        }
        v
    };
    let c = compile(&s.input);
    c.accepts_p(tree(40, 0));
    for bad in [1, 9, 20, 40] {
        c.rejects_p(tree(40, bad));
    }
    // The wrapped output schema keeps `$defs` at its root, where the refs point.
    let set = tools_with(
        v,
        &ToolOptions {
            refs: RefMode::Defs,
            ..ToolOptions::default()
        },
    );
    let out = tool(&set, "test_m").output_schema().unwrap();
    assert!(out["$defs"]["Tree"].is_object(), "{out:#}");
    compile(&out)
        .accepts(json!({"result": tree(30, 0)}))
        .accepts(json!({"result": null}))
        .rejects(json!({"result": tree(30, 25)}));
}

#[test]
fn defs_mode_long_ref_chain_is_exact_and_does_not_overflow() {
    // 10,000 named types, each an alias of a list of the next: `--refs defs`
    // gives each once, with no cap, and must not recurse 10,000 deep (this
    // runs on a 2 MB test thread).
    let n = 10_000;
    let mut types = serde_json::Map::new();
    for i in 0..n {
        types.insert(
            format!("T{i}"),
            json!({"kind": "alias", "target": {"kind": "list", "items": {"$ref": format!("T{}", i + 1)}}}),
        );
    }
    types.insert(
        format!("T{n}"),
        json!({"kind": "alias", "target": {"kind": "u32"}}),
    );
    let v = one_param(json!({"$ref": "T0"}), Value::Object(types));
    let s = schemas(v.clone(), "m", RefMode::Defs);
    let defs = s.input["$defs"].as_object().unwrap();
    assert_eq!(defs.len(), n + 1);
    assert!(
        defs.values().all(Value::is_object),
        "every definition is built"
    );
    assert_eq!(
        defs["T0"],
        json!({"type": "array", "items": {"$ref": "#/$defs/T1"}})
    );
    assert_eq!(defs[&format!("T{n}")]["type"], "integer");
    // Inline, the same chain degrades at the 9th expansion.
    let s = schemas(v, "m", RefMode::Inline);
    assert!(s.warnings.iter().any(|w| w.contains("deeper than 8")));
    compile(&s.input)
        // T0 … T7 are checked lists; T8, the 9th expansion, is anything.
        .accepts_p(json!([[[[[[[["T8 is unchecked"]]]]]]]]))
        .rejects_p(json!([[[[[[["T7 must be a list"]]]]]]]));
}

#[test]
fn alias_cycles_never_hang() {
    // Not something Rust can produce, but a manifest may say it.
    let types = json!({
        "A": {"kind": "alias", "target": {"$ref": "B"}},
        "B": {"kind": "alias", "target": {"$ref": "A"}},
        "Tagged": {"kind": "variant", "tag": "t", "variants": [{"name": "x", "payload": {"$ref": "A"}}]},
        "Loose": {"kind": "variant", "untagged": true, "variants": [{"name": "y", "payload": {"$ref": "A"}}]}
    });
    for ty in ["A", "Tagged", "Loose"] {
        for mode in [RefMode::Inline, RefMode::Defs] {
            let s = schemas(one_param(json!({"$ref": ty}), types.clone()), "m", mode);
            jsonschema::draft202012::meta::validate(&s.input).unwrap();
        }
    }
    let s = input(one_param(json!({"$ref": "Tagged"}), types));
    compile(&s)
        .accepts_p(json!({"t": "x"}))
        .rejects_p(json!({"t": "y"}));
}

#[test]
fn defs_mode_untagged_bytes_stay_array_only() {
    let types = json!({
        "Blob": {"kind": "bytes", "size": 2},
        "Loose": {"kind": "variant", "untagged": true, "variants": [
            {"name": "Raw", "payload": {"$ref": "Blob"}},
            {"name": "Num", "payload": {"kind": "u32"}}
        ]}
    });
    let v = json!({
        "schema_version": "wasm-abi/1", "types": types,
        "methods": [{"name": "m", "params": [
            {"name": "blob", "type": {"$ref": "Blob"}},
            {"name": "loose", "type": {"$ref": "Loose"}}
        ]}]
    });
    for mode in [RefMode::Inline, RefMode::Defs] {
        let s = schemas(v.clone(), "m", mode).input;
        compile(&s)
            // Outside the untagged enum: both forms.
            .accepts(json!({"blob": "0aff", "loose": [1, 2]}))
            .accepts(json!({"blob": [10, 255], "loose": 5}))
            // Inside it, array only (serde matches untagged members on the raw JSON).
            .rejects(json!({"blob": "0aff", "loose": "0aff"}))
            .rejects(json!({"blob": "0aff", "loose": [1, 2, 3]}))
            .rejects(json!({"blob": "0aff0a", "loose": [1, 2]}));
    }
}

/// Under an untagged enum calimcp converts nothing (the app's serde picks the
/// member from the raw JSON), so u64 and i64 there are JSON integers only,
/// through records and lists, in both ref modes; outside it they keep the
/// decimal-string form. In `--refs defs`, a named type reaching such an
/// integer gets one `.unconverted` copy for its uses under the enum, and a
/// type reaching none is shared.
#[test]
fn untagged_64_bit_integers_are_integers_only_in_both_modes() {
    let types = json!({
        "Amount": {"kind": "record", "fields": [
            {"name": "value", "type": {"kind": "u64"}},
            {"name": "delta", "type": {"kind": "i64"}}
        ]},
        "Label": {"kind": "record", "fields": [{"name": "text", "type": {"kind": "string"}}]},
        "Loose": {"kind": "variant", "untagged": true, "variants": [
            {"name": "Many", "payload": {"kind": "list", "items": {"$ref": "Amount"}}},
            {"name": "One", "payload": {"$ref": "Amount"}},
            {"name": "Named", "payload": {"$ref": "Label"}},
            {"name": "Big", "payload": {"kind": "i64"}}
        ]}
    });
    let v = json!({
        "schema_version": "wasm-abi/1", "types": types,
        "methods": [{"name": "m", "params": [
            {"name": "plain", "type": {"$ref": "Amount"}},
            {"name": "label", "type": {"$ref": "Label"}},
            {"name": "loose", "type": {"$ref": "Loose"}}
        ]}]
    });
    let ok = json!({"value": 1, "delta": -1});
    for mode in [RefMode::Inline, RefMode::Defs] {
        let s = schemas(v.clone(), "m", mode).input;
        let c = compile(&s);
        let with = |loose: Value| json!({"plain": ok, "label": {"text": "x"}, "loose": loose});
        c.accepts(with(json!({"value": 5, "delta": -5})))
            .accepts(with(num(r#"[{"value": 18446744073709551615, "delta": -9223372036854775808}]"#)))
            .accepts(with(num("9223372036854775807")))
            .accepts(with(json!({"text": "x"})))
            // Outside the enum: the decimal-string form stays.
            .accepts(json!({"plain": {"value": "18446744073709551615", "delta": "-1"}, "label": {"text": "x"}, "loose": 1}))
            // Inside it: integers only, at every depth.
            .rejects(with(json!("5")))
            .rejects(with(json!({"value": "5", "delta": 0})))
            .rejects(with(json!([{"value": 1, "delta": "-1"}])))
            .rejects(with(num(r#"{"value": 18446744073709551616, "delta": 0}"#)))
            .rejects(with(json!({"value": -1, "delta": 0})));
        let text = s.to_string();
        match mode {
            RefMode::Inline => assert!(!text.contains(".unconverted"), "{s:#}"),
            RefMode::Defs => {
                let defs = s["$defs"].as_object().expect("$defs");
                let mut keys: Vec<&str> = defs.keys().map(String::as_str).collect();
                keys.sort();
                assert_eq!(
                    keys,
                    ["Amount", "Amount.unconverted", "Label", "Loose"],
                    "{s:#}"
                );
                let raw = &defs["Amount.unconverted"]["properties"]["value"];
                assert_eq!(raw["type"], "integer", "{raw}");
                assert!(raw.get("anyOf").is_none(), "{raw}");
                assert!(
                    raw["description"].as_str().unwrap().starts_with("u64: "),
                    "{raw}"
                );
                assert!(defs["Amount"]["properties"]["value"]["anyOf"].is_array());
            }
        }
    }
    // Same manifest, same keys: stable from run to run.
    assert_eq!(
        schemas(v.clone(), "m", RefMode::Defs).input,
        schemas(v.clone(), "m", RefMode::Defs).input
    );
    // Outputs keep the exact rule everywhere, untagged included: beyond
    // 2^53 a decimal string (what MCP results carry, see exact.rs).
    let out = json!({
        "schema_version": "wasm-abi/1", "types": types,
        "methods": [{"name": "m", "params": [], "returns": {"$ref": "Loose"}}]
    });
    for mode in [RefMode::Inline, RefMode::Defs] {
        let o = schemas(out.clone(), "m", mode).output.expect("output");
        assert!(!o.to_string().contains(".unconverted"), "{o:#}");
        compile(&o)
            .accepts(json!([{"value": "18446744073709551615", "delta": -1}]))
            .accepts(json!("-9223372036854775808"))
            .accepts(json!(5));
    }
}

/// D0 … D{n-1}: each record has `width` fields, every one a `$ref` to the next type.
fn diamond(n: usize, width: usize) -> Value {
    let mut types = serde_json::Map::new();
    for i in 0..n {
        let fields: Vec<Value> = if i + 1 < n {
            (0..width)
                .map(|f| json!({"name": format!("f{f}"), "type": {"$ref": format!("D{}", i + 1)}}))
                .collect()
        } else {
            vec![json!({"name": "x", "type": {"kind": "u32"}})]
        };
        types.insert(format!("D{i}"), json!({"kind": "record", "fields": fields}));
    }
    one_param(json!({"$ref": "D0"}), Value::Object(types))
}

#[test]
fn diamond_chain_is_bounded() {
    // 40 types, 3 fields each: 3^40 paths if fully expanded.
    for width in [3, 8] {
        let s = schemas(diamond(40, width), "m", RefMode::Inline);
        let size = s.input.to_string().len();
        assert!(
            size < 4_000_000,
            "width {width}: inline schema of {size} bytes"
        );
        assert!(
            !s.warnings.is_empty(),
            "width {width}: degraded without a warning"
        );
        compile(&s.input);
    }
    // Wide enough that the depth cap alone would allow 8^8 expansions: the size bound degrades.
    let s = schemas(diamond(40, 8), "m", RefMode::Inline);
    assert!(
        s.warnings.iter().any(|w| w.contains("grew past")),
        "{:?}",
        s.warnings
    );
    // `--refs defs`: each type once.
    let s = schemas(diamond(40, 3), "m", RefMode::Defs);
    assert_eq!(s.input["$defs"].as_object().unwrap().len(), 40);
    assert!(s.input.to_string().len() < 20_000);
    compile(&s.input);
}

// ---------------------------------------------------------------- outputs

#[test]
fn output_always_accepts_null() {
    let out = output(returning(json!({"kind": "u32"}), json!({})));
    compile(&out)
        .accepts(json!(4294967295u64))
        .accepts(Value::Null)
        .rejects(json!(-1))
        .rejects(json!("1"));
}

#[test]
fn unit_return_has_no_output_schema() {
    let types = json!({"Nothing": {"kind": "alias", "target": {"kind": "unit"}}});
    for ret in [
        json!({"kind": "unit"}),
        json!({"$ref": "Nothing"}),
        Value::Null,
    ] {
        let s = schemas(returning(ret.clone(), types.clone()), "m", RefMode::Inline);
        assert!(s.output.is_none(), "{ret}: {:?}", s.output);
        let set = tools(returning(ret.clone(), types.clone()));
        let mcp = tool(&set, "test_m").to_mcp();
        assert!(mcp.get("outputSchema").is_none(), "{ret}: {mcp}");
    }
}

#[test]
fn wrapped_output_schema() {
    let set = tools(returning(json!({"kind": "u32"}), json!({})));
    let t = tool(&set, "test_m");
    let ret = t.return_schema().clone().unwrap();
    let wrapped = t.to_mcp()["outputSchema"].clone();
    assert_eq!(wrapped["type"], "object");
    assert_eq!(wrapped["properties"]["result"], ret);
    assert_eq!(
        wrapped["anyOf"],
        json!([{"required": ["result"]}, {"required": ["error"]}])
    );
    // A failed call's structuredContent is the error `--json` prints.
    let failed = json!({"error": {"code": "app_error", "message": "m", "retryable": false,
                                  "hint": "h", "problems": []}});
    compile(&wrapped)
        .accepts(json!({"result": 5}))
        .accepts(json!({"result": null}))
        .accepts(failed)
        .rejects(json!({}))
        .rejects(json!(5))
        .rejects(json!({"result": "5"}))
        .rejects(json!({"error": {"message": "no code"}}));
}

// ---------------------------------------------------------------- signatures and tools

#[test]
fn signatures_follow_the_spec() {
    let v = json!({
        "schema_version": "wasm-abi/1",
        "types": {
            "Profile": {"kind": "record", "fields": [{"name": "name", "type": {"kind": "string"}}]},
            "Cell": {"kind": "record", "fields": [], "crdt_type": "lww_register", "inner_type": {"kind": "u32"}}
        },
        "methods": [
            {"name": "entries", "params": [], "returns": {"kind": "map", "key": {"kind": "string"}, "value": {"kind": "string"}}, "intent": "read_only"},
            {"name": "get", "params": [{"name": "key", "type": {"kind": "string"}}], "returns": {"kind": "string"}, "returns_nullable": true, "intent": "read_only"},
            {"name": "kinds", "params": [
                {"name": "a", "type": {"kind": "bool"}},
                {"name": "b", "type": {"kind": "bytes", "size": 32}},
                {"name": "c", "type": {"kind": "list", "items": {"kind": "u64"}}},
                {"name": "d", "type": {"kind": "tuple", "elements": [{"kind": "string"}, {"kind": "bytes"}]}},
                {"name": "e", "type": {"$ref": "Profile"}, "nullable": true},
                {"name": "f", "type": {"kind": "map", "key": {"kind": "string"}, "value": {"$ref": "Cell"}}},
                {"name": "g", "type": {"kind": "unit"}},
                {"name": "h", "type": {"kind": "list", "items": {"kind": "list", "items": {"kind": "f64"}}}}
            ], "intent": "mutating"},
            {"name": "set", "params": [{"name": "key", "type": {"kind": "string"}}, {"name": "value", "type": {"kind": "string"}}], "returns": {"kind": "unit"}}
        ]
    });
    let set = tools(v);
    assert_eq!(
        tool(&set, "test_get").signature,
        "[view] get(key: string) -> string | null"
    );
    assert_eq!(
        tool(&set, "test_set").signature,
        "[mut] set(key: string, value: string) -> unit"
    );
    assert_eq!(
        tool(&set, "test_entries").signature,
        "[view] entries() -> map<string, string>"
    );
    assert_eq!(
        tool(&set, "test_kinds").signature,
        "[mut] kinds(a: bool, b: bytes, c: u64[], d: (string, bytes), e?: Profile, f: map<string, Cell>, g: unit, h: f64[][]) -> unit"
    );
}

#[test]
fn tool_description_is_signature_then_doc() {
    let set = tools(json!({
        "schema_version": "wasm-abi/1",
        "methods": [
            {"name": "documented", "doc": "Does a thing.\nOn two lines.", "params": [], "returns": {"kind": "u32"}, "intent": "read_only"},
            {"name": "plain", "params": [], "returns": {"kind": "u32"}, "intent": "read_only"}
        ]
    }));
    let d = tool(&set, "test_documented");
    assert_eq!(d.signature, "[view] documented() -> u32");
    assert_eq!(
        d.description,
        "[view] documented() -> u32\n\nDoes a thing.\nOn two lines."
    );
    assert_eq!(d.to_mcp()["description"], d.description.as_str());
    let p = tool(&set, "test_plain");
    assert_eq!(p.description, "[view] plain() -> u32");
}

fn assert_printable(s: &str, what: &str) {
    for c in s.chars() {
        let bad = (c.is_control() && c != '\n')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        assert!(!bad, "{what} holds {:?}: {s:?}", c);
    }
}

#[test]
fn control_characters_never_reach_descriptions() {
    let evil = "ok\u{1b}[2J\u{1b}]0;pwned\u{7}\r\u{9b}31m\u{202E}\u{85}done";
    let set = tools(json!({
        "schema_version": "wasm-abi/1",
        "types": {"T\u{1b}[31m": {"kind": "record", "doc": evil, "fields": [
            {"name": "f", "type": {"kind": "bytes"}, "doc": evil}
        ]}},
        "methods": [{"name": "m\u{1b}[2J", "doc": evil, "params": [
            {"name": "p", "type": {"$ref": "T\u{1b}[31m"}, "doc": evil}
        ], "returns": {"kind": "record", "fields": [], "crdt_type": "counter\u{7}"}}]
    }));
    let t = &set.tools[0];
    assert_printable(&t.description, "description");
    assert_printable(&t.signature, "signature");
    assert_printable(&t.title, "title");
    assert!(t.description.contains("okdone") || t.description.contains("ok[2J"));
    let mcp = t.to_mcp();
    for d in all_descriptions(&mcp) {
        assert_printable(&d, "schema description");
    }
    assert_printable(&t.name, "name");
}

#[test]
fn annotations() {
    let set = tools(json!({
        "schema_version": "wasm-abi/1",
        "methods": [
            {"name": "look", "params": [], "intent": "read_only"},
            {"name": "wipe", "params": [], "intent": "mutating", "destructive": true},
            {"name": "put", "params": [], "intent": "mutating", "idempotent": true},
            {"name": "older", "params": []},
            {"name": "odd", "params": [], "intent": "sideways"},
            {"name": "peek", "params": [], "intent": "read_only", "destructive": true}
        ]
    }));
    let hints = |name: &str| tool(&set, name).to_mcp()["annotations"].clone();
    let a = |ro: bool, de: bool, id: bool| json!({"readOnlyHint": ro, "destructiveHint": de, "idempotentHint": id, "openWorldHint": false});
    assert_eq!(hints("test_look"), a(true, false, true));
    assert_eq!(hints("test_wipe"), a(false, true, false));
    // [mut] is destructive unless the ABI could say otherwise (MCP default)
    assert_eq!(hints("test_put"), a(false, true, true));
    assert_eq!(hints("test_older"), a(false, true, false));
    assert_eq!(hints("test_odd"), a(false, true, false));
    assert_eq!(hints("test_peek"), a(true, true, true));
    assert!(tool(&set, "test_look").signature.starts_with("[view] "));
    assert!(tool(&set, "test_odd").signature.starts_with("[mut] "));
    assert!(tool(&set, "test_older").signature.starts_with("[mut] "));
}

#[test]
fn unknown_intent_and_crdt_type_warn() {
    let (_, warnings) = parse(json!({
        "schema_version": "wasm-abi/1",
        "types": {"X": {"kind": "record", "fields": [], "crdt_type": "quantum_map", "inner_type": {"kind": "u32"}}},
        "methods": [{"name": "m", "params": [{"name": "x", "type": {"$ref": "X"}}], "intent": "sideways"}]
    }));
    assert!(
        warnings
            .iter()
            .any(|w| w.path == "$.methods[0].intent" && w.message.contains("sideways")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.path == "$.types.X.crdt_type" && w.message.contains("quantum_map")),
        "{warnings:?}"
    );
}

// ---------------------------------------------------------------- arguments

fn put_tools() -> (Vec<App>, Catalog) {
    let v = json!({
        "schema_version": "wasm-abi/1",
        "types": {"Entry": {"kind": "record", "fields": [
            {"name": "name", "type": {"kind": "string"}},
            {"name": "tags", "type": {"kind": "list", "items": {"kind": "string"}}}
        ]}},
        "methods": [
            {"name": "put", "params": [
                {"name": "key", "type": {"kind": "string"}},
                {"name": "p", "type": {"$ref": "Entry"}},
                {"name": "ttl", "type": {"kind": "u32"}, "nullable": true}
            ]},
            {"name": "none", "params": []},
            {"name": "targeted", "params": [
                {"name": "_context", "type": {"kind": "string"}},
                {"name": "n", "type": {"kind": "u32"}}
            ]}
        ]
    });
    let apps = vec![app("com.example.test", "0123456789abcdef", v)];
    let catalog = Catalog::new(apps.clone(), Vec::new(), &ToolOptions::default());
    (apps, catalog)
}

fn problems(catalog: &Catalog, tool_name: &str, args: Value) -> Vec<Problem> {
    let t = catalog.tools.get(tool_name).unwrap();
    Validator::new(&t.input_schema()).unwrap().check(&args)
}

fn find<'a>(ps: &'a [Problem], path: &str) -> &'a Problem {
    ps.iter()
        .find(|p| p.path == path)
        .unwrap_or_else(|| panic!("no problem at {path:?}: {ps:?}"))
}

#[test]
fn validator_reports_missing_params() {
    let (_, c) = put_tools();
    let ps = problems(&c, "test_put", json!({"p": {"name": "n", "tags": []}}));
    assert_eq!(ps.len(), 1, "{ps:?}");
    let p = find(&ps, "key");
    assert!(p.message.starts_with("missing required argument"), "{p}");
    assert!(p.message.contains("a string"), "{p}");
    // Missing inside a record: the full path.
    let ps = problems(&c, "test_put", json!({"key": "k", "p": {"name": "n"}}));
    assert!(
        find(&ps, "p.tags")
            .message
            .starts_with("missing required argument")
    );
    // Nullable params are optional.
    assert!(
        problems(
            &c,
            "test_put",
            json!({"key": "k", "p": {"name": "n", "tags": []}})
        )
        .is_empty()
    );
}

#[test]
fn validator_reports_wrong_types_with_paths() {
    let (_, c) = put_tools();
    let ps = problems(
        &c,
        "test_put",
        json!({"key": 5, "p": {"name": "n", "tags": ["a", 2]}, "ttl": -1}),
    );
    let key = find(&ps, "key");
    assert!(key.message.contains("expected a string"), "{key}");
    assert!(key.message.contains("got an integer"), "{key}");
    let tag = find(&ps, "p.tags[1]");
    assert!(tag.message.contains("expected a string"), "{tag}");
    find(&ps, "ttl");
    assert_eq!(tag.to_string(), format!("p.tags[1]: {}", tag.message));
    // Not an object at all.
    let ps = problems(&c, "test_put", json!([1]));
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0].path, "");
    assert!(
        ps[0].message.contains("expected a JSON object"),
        "{}",
        ps[0]
    );
}

#[test]
fn validator_reports_unknown_arguments_with_did_you_mean() {
    let (_, c) = put_tools();
    let ps = problems(
        &c,
        "test_put",
        json!({"kye": "k", "p": {"name": "n", "tags": []}}),
    );
    let p = find(&ps, "kye");
    assert!(p.message.contains("unknown argument"), "{p}");
    assert!(p.message.contains("did you mean `key`?"), "{p}");
    find(&ps, "key");
    let ps = problems(
        &c,
        "test_put",
        json!({"key": "k", "p": {"name": "n", "tags": []}, "zzz": 1}),
    );
    let p = find(&ps, "zzz");
    assert!(p.message.contains("known: key, p, ttl"), "{p}");
    let ps = problems(&c, "test_none", json!({"x": 1}));
    assert!(
        find(&ps, "x").message.contains("takes no arguments"),
        "{ps:?}"
    );
}

#[test]
fn outgoing_holds_declared_params_only() {
    let (apps, c) = put_tools();
    let m = &apps[0].services[0].manifest;
    let args = json!({"key": "k", "p": {"name": "n", "tags": []}, "_context": "ctx-1"});
    let put = m.method("put").unwrap();
    assert_eq!(
        outgoing(m, put, args.as_object().unwrap()),
        json!({"key": "k", "p": {"name": "n", "tags": []}})
    );
    let prepared = c.prepare(c.tools.get("test_put").unwrap(), &args).unwrap();
    assert_eq!(prepared.context.as_deref(), Some("ctx-1"));
    assert_eq!(prepared.method, "put");
    assert_eq!(
        prepared.args_json,
        json!({"key": "k", "p": {"name": "n", "tags": []}})
    );

    // A declared `_context` is the app's own argument: it goes out, and is no target.
    let args = json!({"_context": "mine", "n": 3});
    let targeted = m.method("targeted").unwrap();
    assert_eq!(outgoing(m, targeted, args.as_object().unwrap()), args);
    let prepared = c
        .prepare(c.tools.get("test_targeted").unwrap(), &args)
        .unwrap();
    assert_eq!(prepared.context, None);
    assert_eq!(prepared.args_json, args);

    // A number JSON did not store as an exact integer is refused at an
    // integer position, never rounded (issue 11 §1).
    let args = json!({"_context": "mine", "n": 3.0});
    let err = c
        .prepare(c.tools.get("test_targeted").unwrap(), &args)
        .unwrap_err();
    assert_eq!(err.len(), 1, "{err:?}");
    assert_eq!(err[0].path, "n");

    // Invalid arguments never get as far as argsJson.
    let err = c
        .prepare(c.tools.get("test_put").unwrap(), &json!({"key": 1}))
        .unwrap_err();
    assert!(!err.is_empty());
}

// ---------------------------------------------------------------- every schema is valid

fn check_all_schemas(apps: &[App], what: &str) {
    for refs in [RefMode::Inline, RefMode::Defs] {
        let set = mapping::build(
            apps,
            &ToolOptions {
                refs,
                ..ToolOptions::default()
            },
        );
        assert!(
            !set.tools.is_empty() || what.contains("state"),
            "{what}: no tools"
        );
        for t in &set.tools {
            let mcp = t.to_mcp();
            compile(&mcp["inputSchema"]);
            if let Some(out) = mcp.get("outputSchema") {
                compile(out).accepts(json!({"result": null}));
                compile(t.return_schema().as_ref().unwrap()).accepts(Value::Null);
            }
        }
        // Methods without tools (init) have schemas too.
        for a in apps {
            for s in &a.services {
                for m in &s.manifest.methods {
                    let ms = mapping::method_schemas(&s.manifest, m, refs);
                    compile(&ms.input);
                }
            }
        }
    }
}

fn examples_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

#[test]
fn example_schemas_are_valid_2020_12() {
    for name in [
        "every-kind.json",
        "kv-store",
        "multi-service",
        "older/kv-store.json",
    ] {
        let mut skipped = Vec::new();
        let apps = abi::load_path(
            &examples_dir().join(name),
            &LoadOptions::default(),
            &mut skipped,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        check_all_schemas(&apps, name);
    }
}

#[test]
fn every_kind_example_accepts_and_rejects_hand_written_calls() {
    let mut skipped = Vec::new();
    let apps = abi::load_path(
        &examples_dir().join("every-kind.json"),
        &LoadOptions::default(),
        &mut skipped,
    )
    .unwrap();
    let set = mapping::build(&apps, &ToolOptions::default());
    let input = |m: &str| compile(&tool(&set, &format!("every_kind_{m}")).input_schema());
    input("apply")
        .accepts(json!({"action": "Ping"}))
        .accepts(json!({"action": {"Move": [1, 2]}}))
        .accepts(
            json!({"action": {"Update": {"name": "a", "bio": null, "avatar": "00ff", "tags": []}}}),
        )
        .rejects(json!({"action": {"Update": {"name": "a", "tags": []}}}));
    input("hash")
        .accepts(json!({"data": ""}))
        .accepts(json!({"data": "ab", "expected": "00112233"}))
        .rejects(json!({"data": "ab", "expected": "001122"}));
    input("targeted")
        .accepts(json!({"_context": "mine"}))
        .rejects(json!({}));
    input("echo_scalars")
        .accepts(json!({"b": true, "i32": -1, "i64": num("-9223372036854775808"), "u32": 0,
                        "u64": num("18446744073709551615"), "f32": 1.5, "f64": 2, "s": "", "nothing": null}))
        .rejects(json!({"b": true, "i32": -1, "i64": 0, "u32": -1,
                        "u64": 0, "f32": 1.5, "f64": 2, "s": "", "nothing": null}));
    assert!(set.get("every_kind_init").is_none());
}

fn fixtures_dir() -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/abi");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CALIMCP_REQUIRE_FIXTURES").as_deref() == Ok("1") {
        panic!("../shared/fixtures/abi not found and CALIMCP_REQUIRE_FIXTURES=1");
    }
    eprintln!("skipped: ../shared/fixtures/abi not found");
    None
}

#[test]
fn fixture_schemas_are_valid_2020_12() {
    let Some(dir) = fixtures_dir() else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json")
                && !p
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("bundle-")
        })
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    for f in files {
        let mut skipped = Vec::new();
        let apps = abi::load_path(&f, &LoadOptions::default(), &mut skipped)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        check_all_schemas(&apps, &format!("{name} (state)"));
    }
}
