//! Property (issue 11): any manifest — well-formed, odd or hostile — loads
//! leniently or fails with an error, and everything built from it (every
//! method's schemas in both `$ref` modes, signatures, the tool set, event
//! decoders) is produced without a panic, is valid JSON, and stays within a
//! bound proportional to the manifest's size. A seeded generator (no extra
//! dependency) writes a few hundred manifests from the ABI's vocabulary, with
//! recursion, unknown kinds, wrong shapes, long names and deep nesting.

use calimcp_core::abi::{self, App, Service};
use calimcp_core::mapping::events::Decoder;
use calimcp_core::mapping::{RefMode, ToolOptions, method_schemas, signature};
use serde_json::{Value, json};

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
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const NAMES: &[&str] = &["A", "B", "Rec", "Var", "Node", "x", "é", "a\u{1b}[2J", ""];
const SCALARS: &[&str] = &[
    "bool", "u8", "u16", "u32", "u64", "u128", "i8", "i32", "i64", "f32", "f64", "string", "unit",
    "mystery",
];

/// A type reference, `depth` levels deep at most.
fn ty(r: &mut Rng, depth: u32) -> Value {
    if depth == 0 {
        return json!({"kind": r.pick(SCALARS)});
    }
    match r.below(10) {
        0..=2 => json!({"kind": r.pick(SCALARS)}),
        3 => json!({"$ref": r.pick(NAMES)}),
        4 => json!({"kind": "list", "items": ty(r, depth - 1)}),
        5 => json!({"kind": "map", "key": {"kind": "string"}, "value": ty(r, depth - 1)}),
        6 => {
            let size = [0, 16, 32, 64][r.below(4) as usize];
            json!({"kind": "bytes", "size": size})
        }
        7 => json!({"kind": "tuple", "items": [ty(r, depth - 1), ty(r, depth - 1)]}),
        8 => {
            json!({"kind": "record", "fields": [{"name": r.pick(NAMES), "type": ty(r, depth - 1)}]})
        }
        // Wrong shapes: the lenient model must cope.
        _ => [
            json!(null),
            json!(7),
            json!("u32"),
            json!({"kind": 5}),
            json!([]),
        ][r.below(5) as usize]
            .clone(),
    }
}

fn type_def(r: &mut Rng) -> Value {
    match r.below(4) {
        0 => {
            let fields: Vec<Value> = (0..r.below(4))
                .map(|_| json!({"name": r.pick(NAMES), "type": ty(r, 3), "nullable": r.below(2) == 0}))
                .collect();
            json!({"kind": "record", "fields": fields})
        }
        1 => {
            let variants: Vec<Value> = (0..r.below(4))
                .map(|_| match r.below(2) {
                    0 => json!({"name": r.pick(NAMES)}),
                    _ => json!({"name": r.pick(NAMES), "payload": ty(r, 3)}),
                })
                .collect();
            json!({"kind": "variant", "variants": variants})
        }
        2 => json!({"kind": "alias", "target": ty(r, 3)}),
        _ => json!({"kind": "bytes", "size": 32}),
    }
}

fn manifest(r: &mut Rng) -> Value {
    let mut types = serde_json::Map::new();
    for _ in 0..r.below(6) {
        types.insert(r.pick(NAMES).to_string(), type_def(r));
    }
    let methods: Vec<Value> = (0..r.below(6))
        .map(|i| {
            let params: Vec<Value> = (0..r.below(4))
                .map(|_| json!({"name": r.pick(NAMES), "type": ty(r, 4), "nullable": r.below(3) == 0}))
                .collect();
            let intent = ["read_only", "mutating", "weird"][r.below(3) as usize];
            json!({
                "name": format!("m{i}{}", r.pick(NAMES)),
                "params": params,
                "returns": ty(r, 4),
                "intent": intent,
            })
        })
        .collect();
    let events: Vec<Value> = (0..r.below(3))
        .map(|_| json!({"name": r.pick(NAMES), "payload": ty(r, 3)}))
        .collect();
    json!({"schema_version": "wasm-abi/1", "types": types, "methods": methods, "events": events})
}

#[test]
fn any_manifest_maps_without_panic_to_valid_bounded_json() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut loaded = 0;
    for _ in 0..400 {
        let v = manifest(&mut r);
        let text = v.to_string();
        let mut warnings = Vec::new();
        let Ok(m) = abi::parse_manifest(text.as_bytes(), &mut warnings) else {
            continue;
        };
        loaded += 1;
        let mut out = 0usize;
        for method in &m.methods {
            for mode in [RefMode::Inline, RefMode::Defs] {
                let s = method_schemas(&m, method, mode);
                // A valid JSON Schema 2020-12 document, whatever the
                // manifest declared (names twice, say: issue 47).
                for schema in std::iter::once(&s.input).chain(s.output.as_ref()) {
                    if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
                        panic!("not a valid 2020-12 schema ({e}) from {text}:\n{schema:#}");
                    }
                }
                // Valid JSON, and a size bounded by the manifest's (the
                // inline budget is 1 MiB per schema).
                let input = serde_json::to_string(&s.input).unwrap();
                serde_json::from_str::<Value>(&input).unwrap();
                out += input.len();
                if let Some(o) = &s.output {
                    out += serde_json::to_string(o).unwrap().len();
                }
            }
            let sig = signature(method);
            assert!(!sig.chars().any(|c| c == '\u{1b}'), "{sig}");
        }
        assert!(
            out <= 4 * (1 << 20) * (m.methods.len() + 1),
            "{out} bytes of schema from {} bytes of manifest",
            text.len()
        );
        // The tool set and the event decoders build too.
        let app = App {
            id: "id".into(),
            package: Some("p".into()),
            source: "prop".into(),
            services: vec![Service {
                name: None,
                manifest: m.clone().into(),
            }],
            ..App::default()
        };
        let tools = calimcp_core::mapping::build(&[app], &ToolOptions::default());
        for t in &tools.tools {
            let listed = t.to_mcp();
            serde_json::to_string(&listed).unwrap();
            for which in ["inputSchema", "outputSchema"] {
                if let Some(schema) = listed.get(which)
                    && let Err(e) = jsonschema::draft202012::meta::validate(schema)
                {
                    panic!(
                        "{} {which}: not a valid 2020-12 schema ({e}) from {text}",
                        t.name
                    );
                }
            }
        }
        let mut d = Decoder::new(&m);
        for e in &m.events {
            let _ = d.decode(&e.name, b"{\"x\":1}");
            let _ = d.decode(&e.name, b"");
        }
    }
    assert!(
        loaded > 100,
        "only {loaded} of 400 generated manifests loaded"
    );
}
