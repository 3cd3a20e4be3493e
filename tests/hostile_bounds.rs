//! A hostile node on loopback against the real binary: answers about another
//! context than the one asked, events that are not JSON, floods of events,
//! and secrets echoed in every encoding (issue 28). Sizes and counts are
//! asserted, never times; the costs are measured in benches/.

mod support;

use serde_json::Value;
use support::fake_node::{self, FakeNode, Profile};

use support::{Env, stderr_of};

/// Issue 28.5: a node that answers `GET /admin-api/contexts/CO` with the row
/// of another context CK must not make calimcp execute in CK.
#[test]
fn a_context_row_for_another_context_is_refused() {
    for profile in [Profile::Rc25, Profile::Hex] {
        let env = Env::with(FakeNode::with_profile(profile));
        let tool = format!(
            "kv_store_{}_len",
            calimcp_core::mapping::names::id_tail(&env.node.id(fake_node::KV2_A))
        );
        let asked = env.node.id(fake_node::CTX_KV2_1);
        let other = env.node.id(fake_node::CTX_KV2_2);
        // Honest: the asked id in the other form is the same context.
        let other_form = if profile.hex_ids() {
            bs58::encode(hex_bytes(&asked)).into_string()
        } else {
            bs58::decode(&asked)
                .into_vec()
                .unwrap()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        };
        env.cmd()
            .args(["call", &tool, "-c", &other_form])
            .assert()
            .success();
        let ran = env.node.executes().last().unwrap().json()["params"]["contextId"].clone();
        assert_eq!(ran, Value::from(asked.clone()));
        env.node.clear_requests();

        env.node.hostile(|h| {
            h.context_row_of.insert(asked.clone(), other.clone());
        });
        let a = env
            .cmd()
            .args(["call", &tool, "-c", &asked])
            .assert()
            .code(5);
        let err = stderr_of(&a);
        assert!(err.contains("instead of the one asked for"), "{err}");
        assert!(err.contains(&other), "names the context it got: {err}");
        assert!(env.node.executes().is_empty(), "nothing ran in {other}");
    }
}

fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

/// Issue 28.10: a proxy that quotes the token in a long error page: the
/// error and the `-v` log mask it whole, wherever the quote is cut.
#[test]
fn a_token_echoed_in_a_long_error_never_shows_in_part() {
    let env = Env::with(FakeNode::start());
    let token = "eyJhbGciOiJFZERTQSJ9.abcdefghijklmnopqrstuvw";
    for at in [250, 275, 290, 3975, 3990] {
        env.node.hostile(|h| h.echo_token_at = Some(at));
        let a = env
            .cmd()
            .env("CALIMERO_AUTH_TOKEN", token)
            .args(["-v", "call", "kv_store_len"])
            .assert()
            .code(5);
        let err = stderr_of(&a);
        assert!(err.contains("HTTP 502"), "{err}");
        let chars: Vec<char> = token.chars().collect();
        for w in chars.windows(6) {
            let part: String = w.iter().collect();
            assert!(
                !err.contains(&part),
                "`{part}` of the token shows (at {at}): {err}"
            );
        }
    }
}

/// A manifest whose one method takes a chain of `n` type aliases
/// (`A0 = A1 = … = A{n-1} = u64`): plain, under an untagged enum (where each
/// type is asked whether it reaches a converted form), and as the payloads
/// of an internally tagged enum's `n / 10` cases, each further along the
/// chain (each followed to see whether it ends in a record).
fn alias_chain(n: usize) -> calimcp_core::abi::Manifest {
    let mut types = serde_json::Map::new();
    for i in 0..n {
        let target = if i + 1 < n {
            serde_json::json!({"$ref": format!("A{}", i + 1)})
        } else {
            serde_json::json!({"kind": "u64"})
        };
        types.insert(
            format!("A{i}"),
            serde_json::json!({"kind": "alias", "target": target}),
        );
    }
    let cases: Vec<serde_json::Value> = (0..n / 10)
        .map(|i| serde_json::json!({"name": format!("c{i}"), "payload": {"$ref": format!("A{}", i * 10)}}))
        .collect();
    types.insert(
        "Tagged".into(),
        serde_json::json!({"kind": "variant", "tag": "t", "variants": cases}),
    );
    types.insert(
        "Loose".into(),
        serde_json::json!({"kind": "variant", "untagged": true, "variants": [
            {"name": "Chain", "payload": {"$ref": "A0"}}, {"name": "None"}]}),
    );
    let v = serde_json::json!({
        "schema_version": "wasm-abi/1",
        "types": types,
        "methods": [{"name": "m", "params": [
            {"name": "p", "type": {"$ref": "A0"}},
            {"name": "q", "type": {"$ref": "Loose"}},
            {"name": "r", "type": {"$ref": "Tagged"}}
        ], "returns": {"$ref": "A0"}, "intent": "read_only"}]
    });
    let mut warnings = Vec::new();
    calimcp_core::abi::parse_manifest(v.to_string().as_bytes(), &mut warnings).unwrap()
}

/// How long one build of the method's schemas under `--refs defs` takes.
fn defs_time(m: &calimcp_core::abi::Manifest) -> std::time::Duration {
    use calimcp_core::mapping::{RefMode, method_schemas};
    let started = std::time::Instant::now();
    let s = method_schemas(m, &m.methods[0], RefMode::Defs);
    let took = started.elapsed();
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    took
}

/// Issue 47: under `--refs defs` a chain of aliases is resolved once, not
/// again at every `$ref` along it: 20,000 aliases take about four times
/// what 5,000 take (quadratic, it was sixteen: 33 s against 1.5 s). The two
/// runs are compared with each other, not with a clock: the longer one is
/// given 8 times the shorter (the fastest of three), and is given up on
/// (failing) once it has run for 40 times as long.
#[test]
fn a_long_alias_chain_costs_time_in_proportion() {
    let (short, long) = (alias_chain(5_000), std::sync::Arc::new(alias_chain(20_000)));
    let s = calimcp_core::mapping::method_schemas(
        &short,
        &short.methods[0],
        calimcp_core::mapping::RefMode::Defs,
    );
    let defs = s.input["$defs"].as_object().unwrap();
    // Each alias once, and once more unconverted (under the untagged enum).
    assert!(
        defs.contains_key("A4999") && defs.contains_key("A4999.unconverted"),
        "{:?}",
        defs.keys().take(5).collect::<Vec<_>>()
    );
    let a = (0..3).map(|_| defs_time(&short)).min().unwrap();
    let limit = a * 8;
    for _ in 0..3 {
        let (tx, rx) = std::sync::mpsc::channel();
        let m = long.clone();
        std::thread::spawn(move || tx.send(defs_time(&m)));
        match rx.recv_timeout(limit) {
            Ok(_) => return,
            // Slower than 8 times; wait for it a while (the machine may be
            // busy), then try again.
            Err(_) => {
                if let Err(e) = rx.recv_timeout(limit * 4) {
                    panic!(
                        "5,000 aliases in {a:?}; 20,000 not done after {:?} ({e})",
                        limit * 5
                    );
                }
            }
        }
    }
    panic!(
        "5,000 aliases in {a:?}; 20,000 took more than {limit:?} (8 times as long for 4 times the chain) three times"
    );
}
