//! `calimcp` against every merod version the fake node speaks as (0.10, rc4,
//! rc25, hex ids): listing and describing node apps, calls with and without a
//! context (given in hex and in base58), 32-byte id arguments, the executor
//! 0.10 needs, error decoding, and auth (login at the root under a base path,
//! token expiry and refresh, replayed refresh tokens, revoked tokens).

mod support;

use predicates::prelude::*;
use serde_json::{Value, json};
use support::Env;
use support::fake_node::{self, FakeNode, Profile};

/// What the profile tests ask of [`Env`].
trait ProfileEnv {
    /// `calimcp ARGS` must succeed; its stdout.
    fn ok(&self, args: &[&str]) -> String;
    /// The last execute the node saw.
    fn last(&self) -> Value;
}

impl ProfileEnv for Env {
    fn ok(&self, args: &[&str]) -> String {
        self.stdout_ok(args)
    }

    fn last(&self) -> Value {
        self.node.executes().last().expect("an execute").json()
    }
}

fn examples() -> String {
    format!("{}/examples", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn node_scenarios_pass_on_every_profile() {
    for p in Profile::ALL {
        let env = Env::with(FakeNode::with_profile(p));
        let n = &env.node;
        let ctx = n.id(fake_node::CTX_KV);
        let owner = n.id(fake_node::owner_seed(fake_node::CTX_KV));
        // Listing and describing.
        let apps: Value = serde_json::from_str(&env.ok(&["apps", "--json"])).unwrap();
        let ids: Vec<&str> = apps
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| a["id"].as_str())
            .collect();
        assert!(ids.contains(&n.id(fake_node::KV).as_str()), "{p:?}: {apps}");
        assert!(ids.contains(&n.id(fake_node::IDS).as_str()), "{p:?}");
        let d = env.ok(&["describe", "com.calimero.kv-store"]);
        assert!(d.contains("get(key: string)"), "{p:?}: {d}");
        // An application id in either form names the same app.
        let d2 = env.ok(&["describe", &n.other_id(fake_node::KV)]);
        assert_eq!(d, d2, "{p:?}");
        // Without a context: the app's only one, in the node's form.
        env.ok(&["call", "kv_store_set", "--key", "a", "--value", "1"]);
        let sent = env.last();
        assert_eq!(sent["params"]["contextId"], ctx.as_str(), "{p:?}");
        if p.executor_required() {
            assert_eq!(sent["params"]["executorPublicKey"], owner.as_str(), "{p:?}");
        }
        // Once cached, a call reads no ABI: old nodes cost what new ones do.
        n.clear_requests();
        env.ok(&["call", "kv_store_len"]);
        let paths: Vec<String> = n.requests().into_iter().map(|r| r.path).collect();
        let kv_abi = format!("/admin-api/applications/{}/abi", n.id(fake_node::KV));
        assert!(
            !paths.iter().any(|x| x == &kv_abi || x.contains("/blobs/")),
            "{p:?}: {paths:?}"
        );
        if !p.abi_route() {
            // Not even the app without an embedded ABI is asked about again.
            assert!(
                !paths.iter().any(|x| x.ends_with("/abi")),
                "{p:?}: {paths:?}"
            );
        }
        // With a context, given in either form: sent in the node's.
        for given in [n.id(fake_node::CTX_KV), n.other_id(fake_node::CTX_KV)] {
            let out = env.ok(&["call", "kv_store_get", "--key", "a", "--context", &given]);
            assert_eq!(out.trim(), r#""1""#, "{p:?} {given}");
            assert_eq!(env.last()["params"]["contextId"], ctx.as_str(), "{p:?}");
        }
        // A local app with a context id the node has not shown the form of
        // yet: the context check (GET /admin-api/contexts/:id, tried in the
        // other form when the first is not found) learns the node's form, so
        // the call goes out in it at once.
        n.clear_requests();
        let ex = examples();
        let out = env.ok(&[
            "call",
            "kv_store_get",
            "--key",
            "a",
            "--apps",
            &ex,
            "--context",
            &n.other_id(fake_node::CTX_KV),
        ]);
        assert_eq!(out.trim(), r#""1""#, "{p:?}");
        let sent: Vec<Value> = n.executes().iter().map(|r| r.json()).collect();
        // (0.10.0 still retries once, with the executor it requires.)
        assert!(sent.len() <= 2, "{p:?}: {sent:?}");
        for r in &sent {
            assert_eq!(r["params"]["contextId"], ctx.as_str(), "{p:?}");
        }
        // A [u8; 32] argument is an array on the wire.
        let hash: Vec<u8> = (0..32).collect();
        let args = json!({ "hash": hash }).to_string();
        let out = env.ok(&["call", "ids_digest", "--args", &args]);
        assert_eq!(
            serde_json::from_str::<Value>(&out).unwrap(),
            json!(hash),
            "{p:?}"
        );
        // The app's own deserialisation error is decoded (exit 5).
        // …and the hint names the forms the app may want: the same bytes in base58.
        let hex = fake_node::hex_id(7);
        let b58 = bs58::encode(
            (0..32)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                .collect::<Vec<u8>>(),
        )
        .into_string();
        env.cmd()
            .args(["call", "ids_member", "--who", &hex])
            .assert()
            .code(5)
            .stderr(predicate::str::contains("failed to deserialize arguments"))
            .stderr(predicate::str::contains(format!(
                "`who` went as a hex string; if the app takes an id (PublicKey, ContextId, BlobId, ApplicationId), pass the same 32 bytes in base58: {b58}"
            )));
        // Given so, the call works.
        env.ok(&["call", "ids_member", "--who", &b58]);
        env.cmd()
            .args(["call", "faults_boom"])
            .assert()
            .code(5)
            .stderr(predicate::str::contains("the key is missing"));
    }
}

#[test]
fn the_executor_of_a_0_10_node() {
    let env = Env::with(FakeNode::with_profile(Profile::V010));
    let n = &env.node;
    let typed = n.id(fake_node::CTX_TYPED);
    let owner = n.id(fake_node::owner_seed(fake_node::CTX_TYPED));
    // First call: ParseError, identities-owned, one retry.
    env.ok(&[
        "call",
        "typed_echo_numbers",
        "--small",
        "1",
        "--big",
        "2",
        "--neg",
        "3",
    ]);
    let paths: Vec<String> = n.requests().into_iter().map(|r| r.path).collect();
    assert!(
        paths.contains(&format!("/admin-api/contexts/{typed}/identities-owned")),
        "{paths:?}"
    );
    assert_eq!(env.last()["params"]["executorPublicKey"], owner.as_str());
    // --as: a key in hex is sent in the node's form; an alias is looked up.
    let hex_owner = fake_node::hex_id(fake_node::owner_seed(fake_node::CTX_TYPED));
    for who in [hex_owner.as_str(), "me"] {
        n.clear_requests();
        env.ok(&[
            "call",
            "typed_echo_numbers",
            "--small",
            "1",
            "--big",
            "2",
            "--neg",
            "3",
            "--as",
            who,
        ]);
        assert_eq!(n.executes().len(), 1, "{who}: no failed first try");
        assert_eq!(env.last()["params"]["executorPublicKey"], owner.as_str());
    }
    env.cmd()
        .args([
            "call",
            "typed_echo_numbers",
            "--small",
            "1",
            "--big",
            "2",
            "--neg",
            "3",
            "--as",
            "nobody",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no identity has that alias"));
    // No identity owned: exit 5, saying how to join.
    n.disown(fake_node::CTX_TYPED);
    env.cmd()
        .args([
            "call",
            "typed_echo_numbers",
            "--small",
            "1",
            "--big",
            "2",
            "--neg",
            "3",
        ])
        .assert()
        .code(5)
        .stderr(predicate::str::contains("owns no identity in context"))
        .stderr(predicate::str::contains("join the context"));
    // Newer nodes execute as their own identity, and say when they own none.
    let env = Env::with(FakeNode::with_profile(Profile::Rc4));
    env.node.disown(fake_node::CTX_KV);
    env.cmd()
        .args(["call", "kv_store_len"])
        .assert()
        .code(5)
        .stderr(predicate::str::contains("owns no identity in context"))
        .stderr(predicate::str::contains("join the context"));
    // rc25 removed identity aliases: an alias for --as is refused, a key is sent.
    let env = Env::with(FakeNode::with_profile(Profile::Rc25));
    env.cmd()
        .args(["call", "kv_store_len", "--as", "me"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has no identity aliases"));
    // ... and a key is sent, but the node ignores it: said, not silent.
    let key = fake_node::hex_id(fake_node::owner_seed(fake_node::CTX_KV));
    env.cmd()
        .args(["call", "kv_store_len", "--as", &key])
        .assert()
        .success()
        .stderr(predicate::str::contains("was ignored"))
        .stderr(predicate::str::contains(
            "runs every call as its own identity",
        ));
    // A node that honours --as (0.10.x) gets no such warning.
    let env = Env::with(FakeNode::with_profile(Profile::V010));
    env.cmd()
        .args(["call", "kv_store_len", "--as", &key])
        .assert()
        .success()
        .stderr(predicate::str::contains("ignored").not());
}

fn auth_env(p: Profile) -> Env {
    Env::with(
        FakeNode::builder()
            .profile(p)
            .auth("admin", "s3cret-pass")
            .base_path("/node")
            .start(),
    )
}

#[test]
fn auth_works_on_every_profile() {
    for p in Profile::ALL {
        let env = auth_env(p);
        let n = &env.node;
        let login = |e: &Env| {
            let mut c = e.cmd();
            c.env("CALIMERO_USERNAME", "admin")
                .env("CALIMERO_PASSWORD", "s3cret-pass");
            c
        };
        // Login: the base path has no /auth; the origin's answers.
        login(&env)
            .args(["call", "kv_store_len"])
            .assert()
            .success();
        let paths: Vec<String> = n.requests().into_iter().map(|r| r.path).collect();
        assert!(
            paths.contains(&"/node/auth/token".to_string()),
            "{p:?} {paths:?}"
        );
        assert!(paths.contains(&"/auth/token".to_string()), "{p:?}");
        assert_eq!(n.logins(), 1);
        // Expired: refreshed once, at the origin, not logged in again.
        n.expire_tokens();
        login(&env)
            .args(["call", "kv_store_len"])
            .assert()
            .success();
        assert_eq!((n.refreshes(), n.logins()), (1, 1), "{p:?}");
        // Revoked: without the password exit 3 saying so; the pair is dropped.
        n.revoke_tokens();
        let a = env
            .cmd()
            .env("CALIMERO_USERNAME", "admin")
            .args(["call", "kv_store_len"])
            .assert()
            .code(3);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        if p.revoked_403() {
            assert!(err.contains("revoked the access token"), "{p:?}: {err}");
        } else {
            assert!(err.contains("HTTP 401"), "{p:?}: {err}");
        }
        assert!(err.contains("hint:"), "{p:?}: {err}");
        // With credentials: a new login.
        login(&env)
            .args(["call", "kv_store_len"])
            .assert()
            .success();
        assert_eq!(n.logins(), 2, "{p:?}");
        // Revoked again, with credentials: dropped and logged in again at once.
        n.revoke_tokens();
        login(&env)
            .args(["call", "kv_store_len"])
            .assert()
            .success();
        assert_eq!(n.logins(), 3, "{p:?}");
    }
}

#[test]
fn a_replayed_refresh_token_drops_the_pair() {
    for p in Profile::ALL {
        let env = auth_env(p);
        let n = &env.node;
        let (access, refresh) = n.mint(100);
        n.expire_tokens();
        let run = |e: &Env| {
            let mut c = e.cmd();
            c.env("CALIMERO_AUTH_TOKEN", &access)
                .env("CALIMERO_REFRESH_TOKEN", &refresh)
                .args(["call", "kv_store_len"]);
            c
        };
        run(&env).assert().success();
        // Someone else's cache: the same refresh token is replayed.
        let state = env.home.path().join("state");
        for f in std::fs::read_dir(&state).unwrap().flatten() {
            if f.file_name().to_string_lossy().starts_with("tokens-") {
                std::fs::remove_file(f.path()).unwrap();
            }
        }
        n.expire_tokens();
        let a = run(&env).assert().code(3);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(err.contains("cannot be refreshed"), "{p:?}: {err}");
        assert!(err.contains("dead"), "{p:?}: {err}");
        if p.refresh_reuse_500() {
            assert!(err.contains("HTTP 500"), "{p:?}: {err}");
        } else {
            assert!(err.contains("already used"), "{p:?}: {err}");
        }
        assert!(!err.contains(&refresh) && !err.contains(&access), "{err}");
        // The file is left saying the login is dead, without its tokens.
        for f in std::fs::read_dir(&state).unwrap().flatten() {
            if !f.file_name().to_string_lossy().starts_with("tokens-") {
                continue;
            }
            let text = std::fs::read_to_string(f.path()).unwrap();
            assert!(
                !text.contains("_token"),
                "{p:?}: the dead pair is kept: {text}"
            );
            assert!(text.contains("\"dead\""), "{p:?}: {text}");
        }
    }
}

#[test]
fn a_token_quoted_back_by_the_node_is_masked() {
    let env = Env::with(FakeNode::builder().auth("admin", "s3cret-pass").start());
    let (access, _) = env.node.mint(100);
    let a = env
        .cmd()
        .env("CALIMERO_AUTH_TOKEN", &access)
        .args(["call", "faults_quote", "-v"])
        .assert()
        .code(5);
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&a.get_output().stdout),
        String::from_utf8_lossy(&a.get_output().stderr)
    );
    assert!(out.contains("authorization: Bearer ***"), "{out}");
    assert!(!out.contains(&access), "{out}");
    // Without -v: the error quoting the node is masked too.
    let a = env
        .cmd()
        .env("CALIMERO_AUTH_TOKEN", &access)
        .args(["call", "faults_quote"])
        .assert()
        .code(5);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("HTTP 500") && err.contains("Bearer ***"),
        "{err}"
    );
    assert!(!err.contains(&access), "{err}");
}

#[test]
fn redirects_stay_on_the_node_and_show_every_hop() {
    let env = Env::with(FakeNode::start());
    let a = env
        .cmd()
        .args(["call", "faults_redirect_away", "-v"])
        .assert()
        .code(5);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("redirect to another origin"), "{err}");
    assert!(err.contains("307"), "{err}");
    assert!(
        !err.contains("evil.example/steal?"),
        "no query shown: {err}"
    );
    let a = env
        .cmd()
        .args(["call", "faults_redirect_home", "-v"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("307 Temporary Redirect"), "{err}");
    assert!(err.contains("/jsonrpc-moved"), "{err}");
}

#[test]
fn response_bodies_are_capped() {
    let env = Env::with(FakeNode::start());
    env.cmd()
        .env("CALIMCP_MAX_RESPONSE", "64KiB")
        .args(["call", "faults_huge"])
        .assert()
        .code(5)
        .stderr(predicate::str::contains("larger than 64 KiB"))
        .stderr(predicate::str::contains("CALIMCP_MAX_RESPONSE"));
    env.cmd()
        .env("CALIMCP_MAX_RESPONSE", "4M")
        .args(["call", "faults_huge"])
        .assert()
        .success();
    env.cmd()
        .env("CALIMCP_MAX_RESPONSE", "lots")
        .args(["call", "faults_huge"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("CALIMCP_MAX_RESPONSE"));
}

#[test]
fn use_pins_an_id_in_the_nodes_form() {
    for p in [Profile::Rc4, Profile::Hex] {
        let env = Env::with(FakeNode::with_profile(p));
        let n = &env.node;
        let other = n.other_id(fake_node::CTX_KV);
        let out = env.ok(&[
            "use",
            "com.calimero.kv-store",
            "--context",
            &other,
            "--json",
        ]);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["context"], n.id(fake_node::CTX_KV).as_str(), "{p:?}: {v}");
        let pins = std::fs::read_to_string(env.home.path().join("state/contexts.json")).unwrap();
        assert!(pins.contains(&n.id(fake_node::CTX_KV)), "{p:?}: {pins}");
        assert!(!pins.contains(&other), "{p:?}: {pins}");
        // The pin is used as is.
        env.ok(&["call", "kv_store_len"]);
        assert_eq!(
            env.last()["params"]["contextId"],
            n.id(fake_node::CTX_KV).as_str()
        );
    }
}

/// The keys each node version takes in each request body calimcp sends
/// (`None`: a route that takes no body). rc.83 refuses any other key
/// (`deny_unknown_fields`: ../shared/reference/merod-rc83-wire.md §0), so a
/// key sent to it that it does not take fails a call; older versions take
/// `executorPublicKey` (0.10 needs it, 0.10.1-rc.19 … rc.25 ignore it).
fn accepted_keys(p: Profile, path: &str, body: &Value) -> Option<Vec<&'static str>> {
    let rpc_method = body["method"].as_str().unwrap_or_default();
    Some(match path.trim_start_matches("/node") {
        "/jsonrpc" => vec!["jsonrpc", "id", "method", "params"],
        "/sse/subscription" => vec!["id", "method", "params"],
        "/auth/token" => vec![
            "auth_method",
            "public_key",
            "client_name",
            "permissions",
            "timestamp",
            "provider_data",
        ],
        "/auth/refresh" => vec!["access_token", "refresh_token"],
        "/auth/logout" => vec!["refresh_token"],
        _ => return None,
    })
    .map(|mut top| {
        // The nested objects' keys, prefixed with their parent's.
        if path.ends_with("/jsonrpc") && rpc_method == "execute" {
            top.extend(["params.contextId", "params.method", "params.argsJson"]);
            if !p.rc83() {
                top.push("params.executorPublicKey");
            }
        } else if path.ends_with("/jsonrpc") {
            top.push("params.contextId");
        } else if path.ends_with("/sse/subscription") {
            top.push("params.contextIds");
            if p.sse_groups() {
                top.push("params.groupIds");
            }
        } else if path.ends_with("/auth/token") {
            top.extend(["provider_data.username", "provider_data.password"]);
        }
        top
    })
}

/// Every request body calimcp sends, on every profile, carries only the
/// keys that version takes: a login, a call (and one `--as` a key), a
/// refresh, a call waiting for its event (the SSE subscription), a group
/// watch where the node has group events, and a logout.
#[test]
fn every_request_body_carries_only_the_keys_its_node_version_takes() {
    for p in Profile::ALL {
        let env = auth_env(p);
        let n = &env.node;
        let with_login = |args: &[&str]| {
            env.cmd()
                .env("CALIMERO_USERNAME", "admin")
                .env("CALIMERO_PASSWORD", "s3cret-pass")
                .args(args)
                .assert()
                .success();
        };
        with_login(&["login"]);
        with_login(&["call", "kv_store_set", "--key", "a", "--value", "1"]);
        let owner = n.id(fake_node::owner_seed(fake_node::CTX_KV));
        with_login(&["call", "kv_store_len", "--as", &owner]);
        n.expire_tokens();
        with_login(&["call", "kv_store_len"]);
        with_login(&[
            "call",
            "kv_store_set",
            "--key",
            "b",
            "--value",
            "2",
            "--wait-event",
            "Inserted",
        ]);
        if p.sse_groups() {
            env.cmd()
                .args(["watch", "--group", &"ab".repeat(32), "--stop-after", "1"])
                .assert()
                .code(124);
        }
        env.cmd().arg("logout").assert().success();
        let mut seen = std::collections::BTreeSet::new();
        for r in n.requests() {
            if r.body.is_empty() {
                continue;
            }
            let body = r.json();
            let Some(allowed) = accepted_keys(p, &r.path, &body) else {
                // A body on a route the table does not know: `{}` only.
                assert_eq!(
                    body,
                    json!({}),
                    "{p:?}: {} {}: {}",
                    r.method,
                    r.path,
                    r.body
                );
                continue;
            };
            let mut keys: Vec<String> = Vec::new();
            for (k, v) in body.as_object().expect("an object") {
                keys.push(k.clone());
                if let (Value::Object(inner), "params" | "provider_data") = (v, k.as_str()) {
                    keys.extend(inner.keys().map(|i| format!("{k}.{i}")));
                }
            }
            for k in &keys {
                assert!(
                    allowed.contains(&k.as_str()),
                    "{p:?}: {} {} sends `{k}`, which this version does not take: {}",
                    r.method,
                    r.path,
                    r.body
                );
            }
            seen.insert(r.path.trim_start_matches("/node").to_string());
        }
        // Every kind of body was sent (so each was checked).
        for route in [
            "/jsonrpc",
            "/sse/subscription",
            "/auth/token",
            "/auth/refresh",
            "/auth/logout",
        ] {
            assert!(seen.contains(route), "{p:?}: no {route} body in {seen:?}");
        }
        // rc.83 refused nothing calimcp sent.
        if p.rc83() {
            assert_eq!(n.logged_out().len(), 1, "the logout ended the session");
        }
    }
}
