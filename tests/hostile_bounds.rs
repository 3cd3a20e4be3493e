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
