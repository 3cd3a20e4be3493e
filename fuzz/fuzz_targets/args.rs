//! Any bytes as a `tools/call` argument object for a method taking every
//! integer kind, nested lists, a map, a record and bytes: validation decides
//! without a panic, and what it accepts is sent with every integer exactly
//! as given.
#![no_main]

use std::sync::OnceLock;

use calimcp_core::abi::{self, App, Service};
use calimcp_catalog::Catalog;
use calimcp_core::mapping::ToolOptions;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fn catalog() -> &'static Catalog {
    static C: OnceLock<Catalog> = OnceLock::new();
    C.get_or_init(|| {
        let v = json!({
            "schema_version": "wasm-abi/1",
            "types": {"R": {"kind": "record", "fields": [{"name": "n", "type": {"kind": "i64"}}]}},
            "methods": [{"name": "m", "params": [
                {"name": "u64", "type": {"kind": "u64"}, "nullable": true},
                {"name": "i64", "type": {"kind": "i64"}, "nullable": true},
                {"name": "u32", "type": {"kind": "u32"}, "nullable": true},
                {"name": "list", "type": {"kind": "list", "items": {"kind": "list", "items": {"kind": "i32"}}}, "nullable": true},
                {"name": "map", "type": {"kind": "map", "key": {"kind": "string"}, "value": {"kind": "u64"}}, "nullable": true},
                {"name": "rec", "type": {"$ref": "R"}, "nullable": true},
                {"name": "bytes", "type": {"kind": "bytes", "size": 32}, "nullable": true}
            ]}]
        });
        let m = abi::parse_manifest_value(&v, &mut Vec::new()).expect("the fixed manifest");
        let app = App {
            id: "id".into(),
            package: Some("p".into()),
            source: "fuzz".into(),
            services: vec![Service {
                name: None,
                manifest: m.into(),
            }],
            ..App::default()
        };
        Catalog::new(vec![app], Vec::new(), &ToolOptions::default())
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(args) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let c = catalog();
    let tool = &c.tools.tools[0];
    if let Ok(p) = c.prepare(tool, &args) {
        serde_json::to_string(&p.args_json).expect("the body serialises");
    }
});
