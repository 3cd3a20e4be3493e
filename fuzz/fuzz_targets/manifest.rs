//! Any bytes as a manifest: loading is lenient or an error; every method's
//! schemas (both `$ref` modes) and signature are built without a panic and
//! serialise to JSON.
#![no_main]

use calimcp_core::abi;
use calimcp_core::mapping::{RefMode, method_schemas, signature};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut warnings = Vec::new();
    let Ok(m) = abi::parse_manifest(data, &mut warnings) else {
        return;
    };
    for method in m.methods.iter().take(64) {
        for mode in [RefMode::Inline, RefMode::Defs] {
            let s = method_schemas(&m, method, mode);
            serde_json::to_string(&s.input).expect("schemas serialise");
        }
        let _ = signature(method);
    }
});
