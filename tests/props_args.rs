//! Property (issue 11): for any JSON argument object, validation and the
//! outgoing body agree exactly — what passes is sent digit for digit, what is
//! out of range is refused. A seeded generator (no extra dependency) writes
//! argument texts the way clients do, including numbers JSON cannot store as
//! 64-bit integers; each run checks a few thousand cases in well under a second.
//!
//! The tool's input schema is checked on its own too (a 2020-12 validator, as
//! an MCP client would): everything calimcp accepts, the schema accepts. The
//! schema's decimal-string pattern says the form only (issue 22 §13), so a
//! string of the right form out of range passes the schema and calimcp's
//! exact check refuses it: calimcp, not the pattern, is the authority on the
//! bounds, and what it lets through is sent digit for digit.

use calimcp_catalog::Catalog;
use calimcp_core::abi::{self, App, Service};
use calimcp_core::mapping::ToolOptions;
use serde_json::{Value, json};

fn catalog() -> Catalog {
    let v = json!({
        "schema_version": "wasm-abi/1",
        "types": {},
        "methods": [{"name": "m", "params": [
            {"name": "u32", "type": {"kind": "u32"}},
            {"name": "i32", "type": {"kind": "i32"}},
            {"name": "u64", "type": {"kind": "u64"}},
            {"name": "i64", "type": {"kind": "i64"}},
            {"name": "list", "type": {"kind": "list", "items": {"kind": "i64"}}}
        ]}]
    });
    let mut warnings = Vec::new();
    let m = abi::parse_manifest_value(&v, &mut warnings).unwrap();
    let app = App {
        id: "id".into(),
        package: Some("p".into()),
        source: "test".into(),
        services: vec![Service {
            name: None,
            manifest: m.into(),
        }],
        ..App::default()
    };
    Catalog::new(vec![app], Vec::new(), &ToolOptions::default())
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Interesting integers: near every bound, and random digit strings.
fn integer_text(r: &mut Rng) -> String {
    const EDGES: &[&str] = &[
        "0",
        "4294967295",
        "4294967296",
        "2147483647",
        "2147483648",
        "-2147483648",
        "-2147483649",
        "9007199254740992",
        "9007199254740993",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "-9223372036854776832",
        "18446744073709551615",
        "18446744073709551616",
        "36893488147419103232",
    ];
    match r.below(3) {
        0 => EDGES[r.below(EDGES.len() as u64) as usize].to_string(),
        1 => {
            // An edge plus or minus a little.
            let base: i128 = EDGES[r.below(EDGES.len() as u64) as usize].parse().unwrap();
            (base + r.below(2049) as i128 - 1024).to_string()
        }
        _ => {
            let len = 1 + r.below(25);
            let mut s = String::new();
            if r.below(2) == 0 {
                s.push('-');
            }
            s.push(char::from(b'1' + r.below(9) as u8));
            for _ in 1..len {
                s.push(char::from(b'0' + r.below(10) as u8));
            }
            s
        }
    }
}

/// A value as a client may write it: the number, the number as a decimal
/// string, or the number in float form.
fn written(r: &mut Rng, digits: &str) -> String {
    match r.below(6) {
        0 => format!("\"{digits}\""),
        1 => format!("{digits}.0"),
        2 => format!("{digits}e0"),
        _ => digits.to_string(),
    }
}

fn range(kind: &str) -> (i128, i128) {
    match kind {
        "u32" => (0, u32::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "u64" => (0, u64::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    }
}

/// Whether the written form of `digits` at a `kind` position must pass.
fn must_pass(kind: &str, digits: &str, text: &str) -> bool {
    let exact = !text.contains('.') && !text.contains('e');
    let string_ok = kind.ends_with("64") || !text.starts_with('"');
    let (lo, hi) = range(kind);
    let in_range = digits.parse::<i128>().is_ok_and(|n| (lo..=hi).contains(&n));
    exact && string_ok && in_range
}

#[test]
fn validation_and_the_outgoing_body_agree_digit_for_digit() {
    let c = catalog();
    let tool = c.tools.get("p_m").unwrap();
    let input = tool.input_schema();
    let schema = jsonschema::draft202012::new(&input).unwrap();
    // Each kind's own schema, to judge one value at a time.
    let kind_schema =
        |kind: &str| jsonschema::draft202012::new(&input["properties"][kind]).unwrap();
    let kind_schemas: Vec<(&str, jsonschema::Validator)> = ["u32", "i32", "u64", "i64"]
        .into_iter()
        .map(|k| (k, kind_schema(k)))
        .collect();
    let value_passes_schema = |kind: &str, text: &str| {
        let v: Value = serde_json::from_str(text).unwrap();
        kind_schemas
            .iter()
            .find(|(k, _)| *k == kind)
            .unwrap()
            .1
            .is_valid(&v)
    };
    // Decimal strings of the right form but out of range: the schema's
    // pattern lets them through, calimcp refuses them.
    let mut left_to_calimcp = 0;
    let mut judge = |kind: &str, digits: &str, text: &str| {
        let pass = must_pass(kind, digits, text);
        let schema_pass = value_passes_schema(kind, text);
        assert!(
            !pass || schema_pass,
            "{kind} {text}: calimcp takes it, its schema does not"
        );
        if schema_pass && !pass && text.starts_with('"') {
            left_to_calimcp += 1;
        }
        pass
    };
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let kinds = ["u32", "i32", "u64", "i64"];
        let mut fields = Vec::new();
        let mut expected = Vec::new();
        let mut all_pass = true;
        for kind in kinds {
            let digits = integer_text(&mut r);
            let text = written(&mut r, &digits);
            all_pass &= judge(kind, &digits, &text);
            fields.push(format!("\"{kind}\":{text}"));
            expected.push(format!("\"{kind}\":{digits}"));
        }
        let n = r.below(3);
        let mut items = Vec::new();
        let mut sent_items = Vec::new();
        for _ in 0..n {
            let digits = integer_text(&mut r);
            let text = written(&mut r, &digits);
            all_pass &= judge("i64", &digits, &text);
            items.push(text);
            sent_items.push(digits);
        }
        fields.push(format!("\"list\":[{}]", items.join(",")));
        expected.push(format!("\"list\":[{}]", sent_items.join(",")));
        let text = format!("{{{}}}", fields.join(","));
        let args: Value = serde_json::from_str(&text).unwrap();
        let schema_ok = schema.is_valid(&args);
        match c.prepare(tool, &args) {
            Ok(p) => {
                assert!(schema_ok, "{text} passed calimcp but not its own schema");
                assert!(
                    all_pass,
                    "{text} passed, but holds a value out of range or inexact; sent {}",
                    p.args_json
                );
                assert_eq!(
                    p.args_json.to_string(),
                    format!("{{{}}}", expected.join(",")),
                    "{text}"
                );
            }
            Err(problems) => assert!(!all_pass, "{text} refused: {problems:?}"),
        }
    }
    // The division of labour was exercised: such strings were met (and,
    // by the loop above, every object holding one was refused).
    assert!(left_to_calimcp > 100, "{left_to_calimcp}");
}

/// The same property inside an untagged enum, where calimcp converts nothing
/// (the app's serde picks the member from the raw JSON): a u64 or i64 is a
/// JSON integer only. Whatever passes is within its member's kind, exact, and
/// sent digit for digit; a decimal string or an inexact number is refused;
/// everything calimcp accepts, the schema accepts.
#[test]
fn inside_an_untagged_enum_integers_pass_only_as_exact_numbers() {
    let v = json!({
        "schema_version": "wasm-abi/1",
        "types": {"Loose": {"kind": "variant", "untagged": true, "variants": [
            {"name": "U", "payload": {"kind": "u64"}},
            {"name": "R", "payload": {"kind": "record", "fields": [{"name": "at", "type": {"kind": "i64"}}]}}
        ]}},
        "methods": [{"name": "m", "params": [
            {"name": "loose", "type": {"kind": "list", "items": {"$ref": "Loose"}}}
        ]}]
    });
    let mut warnings = Vec::new();
    let m = abi::parse_manifest_value(&v, &mut warnings).unwrap();
    let app = App {
        id: "id".into(),
        package: Some("p".into()),
        source: "test".into(),
        services: vec![Service {
            name: None,
            manifest: m.into(),
        }],
        ..App::default()
    };
    let c = Catalog::new(vec![app], Vec::new(), &ToolOptions::default());
    let tool = c.tools.get("p_m").unwrap();
    let schema = jsonschema::draft202012::new(&tool.input_schema()).unwrap();
    let mut r = Rng(0xD1B5_4A32_D192_ED03);
    let (mut passed, mut refused) = (0, 0);
    for _ in 0..3000 {
        let mut items = Vec::new();
        let mut sent_items = Vec::new();
        let mut all_pass = true;
        for _ in 0..1 + r.below(3) {
            let digits = integer_text(&mut r);
            let text = written(&mut r, &digits);
            let exact = !text.contains('.') && !text.contains('e') && !text.starts_with('"');
            let kind = if r.below(2) == 0 { "u64" } else { "i64" };
            let (lo, hi) = range(kind);
            let in_range = digits.parse::<i128>().is_ok_and(|n| (lo..=hi).contains(&n));
            let (item, sent) = match kind {
                "u64" => (text, digits),
                _ => (format!("{{\"at\":{text}}}"), format!("{{\"at\":{digits}}}")),
            };
            all_pass &= exact && in_range;
            items.push(item);
            sent_items.push(sent);
        }
        let text = format!("{{\"loose\":[{}]}}", items.join(","));
        let args: Value = serde_json::from_str(&text).unwrap();
        match c.prepare(tool, &args) {
            Ok(p) => {
                assert!(
                    schema.is_valid(&args),
                    "{text} passed calimcp, not its schema"
                );
                assert!(all_pass, "{text} passed; sent {}", p.args_json);
                assert_eq!(
                    p.args_json.to_string(),
                    format!("{{\"loose\":[{}]}}", sent_items.join(",")),
                    "{text}"
                );
                passed += 1;
            }
            Err(problems) => {
                assert!(!all_pass, "{text} refused: {problems:?}");
                refused += 1;
            }
        }
    }
    assert!(
        passed > 100 && refused > 100,
        "{passed} passed, {refused} refused"
    );
}
