//! Arguments as they reach the node: 32-byte values in any form (issue 8 §4),
//! exact integer bounds on every path and at every depth (issue 11 §1),
//! u64/i64 as decimal strings (issue 12 §1) and `0x` hex (issue 11 §6),
//! through the one preparation path `call` and `serve` share.

use calimcp_catalog::Catalog;
use calimcp_core::abi::{self, App, Service};
use calimcp_core::error::{Code, Error, ErrorKind, NodeSaid};
use calimcp_core::mapping::ToolOptions;
use calimcp_core::mapping::args::{Form32, Problem, id32_hint};
use serde_json::{Value, json};

fn catalog(v: Value) -> Catalog {
    let mut warnings = Vec::new();
    let m = abi::parse_manifest_value(&v, &mut warnings).expect("manifest");
    let app = App {
        id: "0123456789abcdef".into(),
        package: Some("com.example.t".into()),
        source: "test".into(),
        services: vec![Service {
            name: None,
            manifest: m.into(),
        }],
        ..App::default()
    };
    Catalog::new(vec![app], Vec::new(), &ToolOptions::default())
}

fn kinds() -> Catalog {
    catalog(json!({
        "schema_version": "wasm-abi/1",
        "types": {
            "PublicKey": {"kind": "bytes", "size": 32},
            "Rec": {"kind": "record", "fields": [
                {"name": "big", "type": {"kind": "i64"}},
                {"name": "small", "type": {"kind": "u32"}}
            ]},
            "Action": {"kind": "variant", "variants": [
                {"name": "Stop"},
                {"name": "Move", "payload": {"kind": "u64"}},
                {"name": "Pay", "payload": {"$ref": "Rec"}}
            ]},
            "Tagged": {"kind": "variant", "tag": "kind", "variants": [
                {"name": "at", "payload": {"$ref": "Rec"}}
            ]}
        },
        "methods": [
            {"name": "ints", "params": [
                {"name": "i", "type": {"kind": "i64"}, "nullable": true},
                {"name": "u", "type": {"kind": "u64"}, "nullable": true},
                {"name": "s", "type": {"kind": "i32"}, "nullable": true},
                {"name": "list", "type": {"kind": "list", "items": {"kind": "i64"}}, "nullable": true},
                {"name": "map", "type": {"kind": "map", "key": {"kind": "string"}, "value": {"kind": "u64"}}, "nullable": true},
                {"name": "rec", "type": {"$ref": "Rec"}, "nullable": true},
                {"name": "act", "type": {"$ref": "Action"}, "nullable": true},
                {"name": "tag", "type": {"$ref": "Tagged"}, "nullable": true},
                {"name": "tup", "type": {"kind": "tuple", "elements": [{"kind": "string"}, {"kind": "u64"}]}, "nullable": true}
            ]},
            {"name": "ids", "params": [
                {"name": "who", "type": {"$ref": "PublicKey"}, "nullable": true},
                {"name": "raw", "type": {"kind": "bytes", "size": 32}, "nullable": true},
                {"name": "blob", "type": {"kind": "bytes"}, "nullable": true},
                {"name": "four", "type": {"kind": "bytes", "size": 4}, "nullable": true}
            ]}
        ]
    }))
}

/// Parses argument text the way `--args`, files, stdin and MCP do (serde_json).
fn args(text: &str) -> Value {
    serde_json::from_str(text).expect("JSON")
}

fn sent(c: &Catalog, tool: &str, text: &str) -> String {
    let tool = c.tools.get(tool).unwrap();
    match c.prepare(tool, &args(text)) {
        Ok(p) => p.args_json.to_string(),
        Err(problems) => panic!("{text} refused: {problems:?}"),
    }
}

fn refused(c: &Catalog, tool: &str, text: &str) -> Vec<Problem> {
    let tool = c.tools.get(tool).unwrap();
    match c.prepare(tool, &args(text)) {
        Ok(p) => panic!("{text} passed and would send {}", p.args_json),
        Err(problems) => problems,
    }
}

fn refused_at(c: &Catalog, tool: &str, text: &str, path: &str) -> String {
    let problems = refused(c, tool, text);
    problems
        .iter()
        .find(|p| p.path == path)
        .unwrap_or_else(|| panic!("{text}: no problem at {path}: {problems:?}"))
        .message
        .clone()
}

// ---------------------------------------------------------------- issue 11 §1

#[test]
fn i64_just_below_min_is_refused_not_rounded() {
    let c = kinds();
    for below in [
        "-9223372036854775809",
        "-9223372036854775810",
        "-9223372036854776832",
        "-9223372036854777000",
    ] {
        let m = refused_at(&c, "t_ints", &format!(r#"{{"i": {below}}}"#), "i");
        assert!(m.contains("out of range"), "{below}: {m}");
    }
    assert_eq!(
        sent(&c, "t_ints", r#"{"i": -9223372036854775808}"#),
        r#"{"i":-9223372036854775808}"#
    );
    assert_eq!(
        sent(&c, "t_ints", r#"{"u": 18446744073709551615}"#),
        r#"{"u":18446744073709551615}"#
    );
    refused_at(&c, "t_ints", r#"{"u": 18446744073709551616}"#, "u");
    refused_at(&c, "t_ints", r#"{"i": 9223372036854775808}"#, "i");
}

#[test]
fn numbers_not_written_as_exact_integers_are_refused_at_integer_positions() {
    let c = kinds();
    for v in ["1.0", "1e3", "1.5", "9007199254740993.0"] {
        let m = refused_at(&c, "t_ints", &format!(r#"{{"u": {v}}}"#), "u");
        assert!(m.contains("digits"), "{v}: {m}");
    }
}

#[test]
fn bounds_are_exact_inside_lists_maps_records_variants_and_tuples() {
    let c = kinds();
    let low = "-9223372036854775809";
    let cases = [
        (format!(r#"{{"list": [1, {low}]}}"#), "list[1]"),
        (r#"{"map": {"a": 18446744073709551616}}"#.into(), "map.a"),
        (
            format!(r#"{{"rec": {{"big": {low}, "small": 1}}}}"#),
            "rec.big",
        ),
        (
            r#"{"rec": {"big": 1, "small": 4294967296}}"#.into(),
            "rec.small",
        ),
        (
            r#"{"act": {"Move": 18446744073709551616}}"#.into(),
            "act.Move",
        ),
        (
            format!(r#"{{"act": {{"Pay": {{"big": {low}, "small": 0}}}}}}"#),
            "act.Pay.big",
        ),
        (
            format!(r#"{{"tag": {{"kind": "at", "big": {low}, "small": 0}}}}"#),
            "tag.big",
        ),
        (r#"{"tup": ["x", 1e30]}"#.into(), "tup[1]"),
    ];
    for (text, path) in cases {
        refused_at(&c, "t_ints", &text, path);
    }
    // Exact values at the edges pass and go out digit for digit.
    let ok = r#"{"list":[-9223372036854775808,9223372036854775807],"map":{"a":18446744073709551615},"rec":{"big":-9223372036854775808,"small":4294967295},"act":{"Move":18446744073709551615},"tag":{"kind":"at","big":9223372036854775807,"small":0},"tup":["x",18446744073709551615]}"#;
    assert_eq!(sent(&c, "t_ints", ok), ok);
}

// ---------------------------------------------------------------- issue 12 §1

#[test]
fn u64_and_i64_take_decimal_strings_sent_as_exact_numbers() {
    let c = kinds();
    assert_eq!(
        sent(
            &c,
            "t_ints",
            r#"{"u": "18446744073709551615", "i": "-9223372036854775808", "list": ["9007199254740993"], "act": {"Move": "1"}}"#
        ),
        r#"{"i":-9223372036854775808,"u":18446744073709551615,"list":[9007199254740993],"act":{"Move":1}}"#
    );
    for (text, path) in [
        (r#"{"u": "18446744073709551616"}"#, "u"),
        (r#"{"u": "-1"}"#, "u"),
        (r#"{"i": "-9223372036854775809"}"#, "i"),
        (r#"{"i": "1e3"}"#, "i"),
        (r#"{"i": " 1"}"#, "i"),
        (
            r#"{"list": ["99999999999999999999999999999999999999999"]}"#,
            "list[0]",
        ),
    ] {
        refused_at(&c, "t_ints", text, path);
    }
    // i32 and u32 keep numbers only.
    refused_at(&c, "t_ints", r#"{"s": "1"}"#, "s");
    let tool = c.tools.get("t_ints").unwrap();
    let d = tool.input_schema()["properties"]["u"].to_string();
    assert!(d.contains("a string keeps every digit"), "{d}");
    // Results (issue 23 §1): a number within ±(2^53−1), a decimal string beyond.
    let out = catalog(
        json!({"schema_version": "wasm-abi/1", "types": {}, "methods": [
        {"name": "get", "params": [], "returns": {"kind": "u64"}}]}),
    );
    let schema = out.tools.get("t_get").unwrap().return_schema().unwrap();
    let u64_rule = &schema["anyOf"][0];
    assert_eq!(
        u64_rule["anyOf"][0]["maximum"],
        json!(9007199254740991u64),
        "{schema}"
    );
    assert_eq!(u64_rule["anyOf"][1]["type"], "string", "{schema}");
}

// ---------------------------------------------------------------- issue 22 §13

/// The schema's decimal-string pattern is short and says the form only; a
/// string of the right form out of range passes the schema (as an MCP
/// client's validator sees it) and calimcp refuses it, at every depth, with
/// its path and the exact range, before anything is sent.
#[test]
fn out_of_range_decimal_strings_pass_the_short_pattern_and_are_refused_exactly() {
    let c = kinds();
    let tool = c.tools.get("t_ints").unwrap();
    let schema = tool.input_schema();
    let mut patterns = Vec::new();
    collect_patterns(&schema, &mut patterns);
    assert!(patterns.len() >= 8, "{patterns:?}");
    assert!(patterns.iter().all(|p| p.len() <= 30), "{patterns:?}");
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let u64_range = "(0 to 18446744073709551615)";
    let i64_range = "(-9223372036854775808 to 9223372036854775807)";
    for (text, path, range) in [
        (r#"{"u": "18446744073709551616"}"#, "u", u64_range),
        (r#"{"i": "9223372036854775808"}"#, "i", i64_range),
        (r#"{"i": "-9223372036854775809"}"#, "i", i64_range),
        (
            r#"{"list": ["0", "9999999999999999999"]}"#,
            "list[1]",
            i64_range,
        ),
        (
            r#"{"map": {"k": "99999999999999999999"}}"#,
            "map.k",
            u64_range,
        ),
        (
            r#"{"rec": {"big": "-9999999999999999999", "small": 1}}"#,
            "rec.big",
            i64_range,
        ),
        (
            r#"{"act": {"Move": "18446744073709551616"}}"#,
            "act.Move",
            u64_range,
        ),
        (
            r#"{"tup": ["x", "18446744073709551616"]}"#,
            "tup[1]",
            u64_range,
        ),
    ] {
        assert!(validator.is_valid(&args(text)), "the schema refuses {text}");
        let message = refused_at(&c, "t_ints", text, path);
        assert!(
            message.contains("out of range") && message.contains(range),
            "{text}: {message}"
        );
    }
    // The form is the schema's to say, and calimcp's too.
    for (text, path) in [
        (r#"{"u": "018"}"#, "u"),
        (r#"{"i": "-0"}"#, "i"),
        (r#"{"i": "+1"}"#, "i"),
        (r#"{"u": "184467440737095516150"}"#, "u"),
    ] {
        assert!(!validator.is_valid(&args(text)), "the schema takes {text}");
        refused_at(&c, "t_ints", text, path);
    }
    // In range, both take it and it goes as the exact number.
    let text =
        r#"{"u": "18446744073709551615", "map": {"k": "0"}, "tup": ["x", "9007199254740993"]}"#;
    assert!(validator.is_valid(&args(text)));
    assert_eq!(
        sent(&c, "t_ints", text),
        r#"{"u":18446744073709551615,"map":{"k":0},"tup":["x",9007199254740993]}"#
    );
}

/// Inside an untagged enum calimcp converts nothing (the app's serde picks
/// the member from the raw JSON), so a u64 or i64 there is a JSON integer
/// only: a decimal string would reach the app as a string, which it cannot
/// read as a number, and is refused locally with its path. Numbers, even
/// beyond 2^53, are read digit for digit and sent as they were written.
#[test]
fn inside_an_untagged_enum_64_bit_integers_are_numbers_only() {
    let c = catalog(json!({
        "schema_version": "wasm-abi/1",
        "types": {
            "Loose": {"kind": "variant", "untagged": true, "variants": [
                {"name": "N", "payload": {"kind": "u64"}},
                {"name": "R", "payload": {"kind": "record", "fields": [{"name": "at", "type": {"kind": "i64"}}]}}
            ]},
            "Holder": {"kind": "record", "fields": [
                {"name": "items", "type": {"kind": "list", "items": {"$ref": "Loose"}}}
            ]}
        },
        "methods": [
            {"name": "loose", "params": [{"name": "v", "type": {"$ref": "Loose"}}]},
            {"name": "held", "params": [{"name": "h", "type": {"$ref": "Holder"}}]}
        ]
    }));
    assert_eq!(sent(&c, "t_loose", r#"{"v": 5}"#), r#"{"v":5}"#);
    // Exact beyond 2^53, at both ends of both kinds, digit for digit.
    for (text, want) in [
        (
            r#"{"v": 18446744073709551615}"#,
            r#"{"v":18446744073709551615}"#,
        ),
        (r#"{"v": 9007199254740993}"#, r#"{"v":9007199254740993}"#),
        (
            r#"{"v": {"at": -9223372036854775808}}"#,
            r#"{"v":{"at":-9223372036854775808}}"#,
        ),
        (
            r#"{"v": {"at": 9223372036854775807}}"#,
            r#"{"v":{"at":9223372036854775807}}"#,
        ),
    ] {
        assert_eq!(sent(&c, "t_loose", text), want);
    }
    assert_eq!(
        sent(
            &c,
            "t_held",
            r#"{"h": {"items": [18446744073709551615, {"at": -9007199254740993}]}}"#
        ),
        r#"{"h":{"items":[18446744073709551615,{"at":-9007199254740993}]}}"#
    );
    // A decimal string is refused, with its path, as "an integer, got a string".
    for (tool, text, path) in [
        ("t_loose", r#"{"v": "99999999999999999999"}"#, "v"),
        ("t_loose", r#"{"v": "5"}"#, "v"),
        ("t_loose", r#"{"v": {"at": "-1"}}"#, "v"),
        ("t_held", r#"{"h": {"items": [1, "7"]}}"#, "h.items[1]"),
        ("t_held", r#"{"h": {"items": [{"at": "7"}]}}"#, "h.items[0]"),
    ] {
        let problems = refused(&c, tool, text);
        let p = problems
            .iter()
            .find(|p| p.path == path || p.path.starts_with(&format!("{path}.")))
            .unwrap_or_else(|| panic!("{text}: no problem at {path}: {problems:?}"));
        assert!(
            p.message.contains("an integer") && p.message.contains("got a string"),
            "{text}: {p:?}"
        );
    }
    // Out of range, or not in digits, is refused with its path, never rounded
    // (JSON Schema alone would take -9223372036854775809 as the float i64::MIN).
    for (text, path) in [
        (r#"{"v": 18446744073709551616}"#, "v"),
        (r#"{"v": 1.0}"#, "v"),
        (r#"{"v": 9007199254740993.0}"#, "v"),
        (r#"{"v": {"at": -9223372036854775809}}"#, "v.at"),
        (r#"{"v": {"at": 1e3}}"#, "v.at"),
        (
            r#"{"h": {"items": [{"at": 9223372036854775808}]}}"#,
            "h.items[0].at",
        ),
    ] {
        let tool = if text.starts_with(r#"{"h""#) {
            "t_held"
        } else {
            "t_loose"
        };
        let m = refused_at(&c, tool, text, path);
        assert!(
            m.contains("an integer") || m.contains("out of range"),
            "{text}: {m}"
        );
        assert!(!m.contains("decimal string"), "{text}: {m}");
    }
    // The schema offers no decimal-string form at those positions.
    for tool in ["t_loose", "t_held"] {
        let mut patterns = Vec::new();
        collect_patterns(&c.tools.get(tool).unwrap().input_schema(), &mut patterns);
        assert!(patterns.is_empty(), "{tool}: {patterns:?}");
    }
    // A later member that reads the value is the one serde picks: a float
    // member takes what the u64 member cannot.
    let f = catalog(json!({
        "schema_version": "wasm-abi/1",
        "types": {"NumOrFloat": {"kind": "variant", "untagged": true, "variants": [
            {"name": "N", "payload": {"kind": "u64"}},
            {"name": "F", "payload": {"kind": "f64"}}
        ]}},
        "methods": [{"name": "nf", "params": [{"name": "v", "type": {"$ref": "NumOrFloat"}}]}]
    }));
    assert_eq!(sent(&f, "t_nf", r#"{"v": 2.5}"#), r#"{"v":2.5}"#);
    assert_eq!(
        sent(&f, "t_nf", r#"{"v": 18446744073709551615}"#),
        r#"{"v":18446744073709551615}"#
    );
    sent(&f, "t_nf", r#"{"v": 18446744073709551616}"#);
    // A u64 member does not read a negative number; an i64 after it does.
    let ui = catalog(json!({
        "schema_version": "wasm-abi/1",
        "types": {"UorI": {"kind": "variant", "untagged": true, "variants": [
            {"name": "U", "payload": {"kind": "u64"}},
            {"name": "I", "payload": {"kind": "i64"}}
        ]}},
        "methods": [{"name": "ui", "params": [{"name": "v", "type": {"$ref": "UorI"}}]}]
    }));
    assert_eq!(
        sent(&ui, "t_ui", r#"{"v": -9223372036854775808}"#),
        r#"{"v":-9223372036854775808}"#
    );
    refused_at(&ui, "t_ui", r#"{"v": -9223372036854775809}"#, "v");
}

/// Nested untagged enums are checked one member per value: a deep value
/// whose members all look alike ends (no walk per combination of members),
/// and its bad number is still found, with its path.
#[test]
fn deep_nested_untagged_values_are_checked_once() {
    let c = catalog(json!({
        "schema_version": "wasm-abi/1",
        "types": {"E": {"kind": "variant", "untagged": true, "variants": [
            {"name": "A", "payload": {"kind": "list", "items": {"$ref": "E"}}},
            {"name": "B", "payload": {"kind": "list", "items": {"$ref": "E"}}},
            {"name": "N", "payload": {"kind": "u64"}}
        ]}},
        "methods": [{"name": "deep", "params": [{"name": "v", "type": {"$ref": "E"}}]}]
    }));
    let levels = 100;
    let value = |leaf: &str| format!("{}{leaf}{}", "[".repeat(levels), "]".repeat(levels));
    let good = format!(r#"{{"v": {}}}"#, value("18446744073709551615"));
    assert_eq!(sent(&c, "t_deep", &good), good.replace(' ', ""));
    let path = format!("v{}", "[0]".repeat(levels));
    let m = refused_at(
        &c,
        "t_deep",
        &format!(r#"{{"v": {}}}"#, value("1.5")),
        &path,
    );
    assert!(m.contains("an integer"), "{m}");
}

fn collect_patterns(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if let Some(Value::String(p)) = o.get("pattern") {
                out.push(p.clone());
            }
            o.values().for_each(|x| collect_patterns(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_patterns(x, out)),
        _ => {}
    }
}

// ---------------------------------------------------------------- issue 8 §4, 11 §6

const KEY: &str = "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi";

#[test]
fn a_32_byte_value_is_taken_in_any_form_and_sent_as_given() {
    let c = kinds();
    let hex = "ab".repeat(32);
    let arr = serde_json::to_string(&vec![7; 32]).unwrap();
    for given in [
        format!("\"{KEY}\""),
        format!("\"{hex}\""),
        format!("\"0x{hex}\""),
        arr.clone(),
    ] {
        let text = format!(r#"{{"who": {given}, "raw": {given}}}"#);
        assert_eq!(
            sent(&c, "t_ids", &text),
            format!(r#"{{"who":{given},"raw":{given}}}"#)
        );
    }
    // A base58 string that is not 32 bytes, or neither form.
    for bad in [
        "\"4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkL\"",
        "\"0OIl\"",
        "\"abab\"",
    ] {
        refused_at(&c, "t_ids", &format!(r#"{{"who": {bad}}}"#), "who");
    }
    refused_at(&c, "t_ids", r#"{"who": [1, 2]}"#, "who");
    let d = c.tools.get("t_ids").unwrap().input_schema()["properties"]["who"].to_string();
    assert!(d.contains("base58") && d.contains("as given"), "{d}");
}

#[test]
fn other_bytes_keep_hex_to_array_with_optional_0x() {
    let c = kinds();
    assert_eq!(
        sent(&c, "t_ids", r#"{"blob": "0xff00", "four": "0X01020304"}"#),
        r#"{"blob":[255,0],"four":[1,2,3,4]}"#
    );
    refused_at(&c, "t_ids", r#"{"four": "0x010203"}"#, "four");
}

#[test]
fn an_app_that_cannot_read_a_32_byte_value_gets_a_hint_naming_the_other_form() {
    let c = kinds();
    let tool = c.tools.get("t_ids").unwrap();
    let arr = serde_json::to_string(&vec![7; 32]).unwrap();
    let p = c
        .prepare(tool, &args(&format!(r#"{{"who": "{KEY}", "raw": {arr}}}"#)))
        .unwrap();
    assert_eq!(
        p.id32,
        vec![
            ("who".to_string(), Form32::String),
            ("raw".into(), Form32::Array)
        ]
    );
    let mut unreadable = Error::new(
        ErrorKind::Remote,
        Code::AppError,
        "`ids` failed: guest panicked: ids: failed to deserialize arguments (expected { who: PublicKey }): invalid type",
    );
    // As the node's answer is decoded: the node said the app could not read them.
    unreadable.said = Some(NodeSaid::ArgumentsUnreadable);
    let hint = p.explain(unreadable).hint.expect("a hint");
    assert!(
        hint.contains("`who` went as a string") && hint.contains("array of 32 integers"),
        "{hint}"
    );
    assert!(
        hint.contains("`raw` went as an array") && hint.contains("base58"),
        "{hint}"
    );
    // Any other failure keeps its own words.
    let other = Error::new(
        ErrorKind::Remote,
        Code::AppError,
        "`ids` returned an error: no",
    );
    assert_eq!(p.explain(other).hint, None);
    // No 32-byte value, no hint.
    assert_eq!(id32_hint(&[]), None);
}

// ---------------------------------------------------------------- issue 11 §2

#[test]
fn a_long_name_in_a_recursive_type_is_not_multiplied_by_inline_expansion() {
    // One 1 MB variant name in a recursive type (generated, never committed).
    let long = "N".repeat(1 << 20);
    let doc = "d".repeat(100_000);
    let v = json!({
        "schema_version": "wasm-abi/1",
        "types": {
            "Tree": {"kind": "variant", "variants": [
                {"name": long, "doc": doc},
                {"name": "Node", "payload": {"kind": "list", "items": {"$ref": "Tree"}}},
                {"name": "Pair", "payload": {"kind": "tuple", "elements": [{"$ref": "Tree"}, {"$ref": "Tree"}]}}
            ]}
        },
        "methods": [{"name": "m", "params": [{"name": "t", "type": {"$ref": "Tree"}}], "returns": {"$ref": "Tree"}}]
    });
    let manifest_len = v.to_string().len();
    let c = catalog(v);
    let tool = c.tools.get("t_m").unwrap();
    let mut schemas = tool.listed_trees(false);
    let warnings = std::mem::take(&mut schemas.warnings);
    let out = tool.to_mcp_with(schemas).to_string();
    assert!(
        out.len() < 8 * manifest_len,
        "{} bytes of tool for a {manifest_len}-byte manifest",
        out.len()
    );
    assert!(
        warnings.iter().any(|w| w.contains("grew past")),
        "{warnings:?}"
    );
    assert!(out.contains("[doc truncated]"));
    assert!(warnings.iter().all(|w| w.len() < 500));
}

// ---------------------------------------------------------------- issue 24 §9

/// Values the schema lets through but the app cannot read: bytes written
/// `1.0` (JSON Schema counts it an integer; it would go as a float), an f32
/// past its range (it would arrive as infinity), a key given twice (JSON
/// keeps the last, silently).
#[test]
fn values_the_app_cannot_read_are_refused_with_what_is_wrong() {
    let c = catalog(json!({
        "schema_version": "wasm-abi/1",
        "methods": [{"name": "vals", "params": [
            {"name": "blob", "type": {"kind": "bytes"}, "nullable": true},
            {"name": "four", "type": {"kind": "bytes", "size": 4}, "nullable": true},
            {"name": "ratio", "type": {"kind": "f32"}, "nullable": true},
            {"name": "wide", "type": {"kind": "f64"}, "nullable": true},
            {"name": "list", "type": {"kind": "list", "items": {"kind": "f32"}}, "nullable": true}
        ]}]
    }));
    let m = refused_at(&c, "t_vals", r#"{"blob": [1, 2.0, 3]}"#, "blob[1]");
    assert!(m.contains("expected a byte") && m.contains("2.0"), "{m}");
    refused_at(&c, "t_vals", r#"{"four": [1.0, 2, 3, 4]}"#, "four[0]");
    let m = refused_at(&c, "t_vals", r#"{"ratio": 1e39}"#, "ratio");
    assert!(
        m.contains("out of range for f32") && m.contains("infinity"),
        "{m}"
    );
    refused_at(&c, "t_vals", r#"{"ratio": -1e39}"#, "ratio");
    refused_at(&c, "t_vals", r#"{"list": [1.5, 4e38]}"#, "list[1]");
    assert_eq!(
        sent(
            &c,
            "t_vals",
            r#"{"blob": [1, 255], "ratio": 3.4e38, "wide": 1e39}"#
        ),
        r#"{"blob":[1,255],"ratio":3.4e+38,"wide":1e+39}"#
    );
    let dup = calimcp_core::mapping::args::duplicate_key(br#"{"blob": [1], "blob": [2]}"#).unwrap();
    assert!(dup.contains(r#""blob""#) && dup.contains("twice"), "{dup}");
    assert!(
        calimcp_core::mapping::args::duplicate_key(br#"{"a": {"b": 1}, "b": {"a": 2}}"#).is_none()
    );
    assert!(
        calimcp_core::mapping::args::duplicate_key(br#"{"a": [{"k": 1, "k": 1}]}"#).is_some(),
        "at any depth"
    );
}
