//! `calimcp` against every merod version the fake node speaks as (0.10, rc4,
//! rc25, hex ids, rc83): listing and describing node apps, calls with and
//! without a context (given in hex and in base58), 32-byte id arguments, the
//! executor 0.10 needs, error decoding, auth (login at the root under a base
//! path, token expiry and refresh, replayed refresh tokens, revoked tokens),
//! every request body (the lifecycle's too) held to the keys its version
//! takes, and rc.83's typed refusals.

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
    for p in [Profile::Rc4, Profile::Rc83] {
        let env = Env::with(FakeNode::with_profile(p));
        env.node.disown(fake_node::CTX_KV);
        env.cmd()
            .args(["call", "kv_store_len"])
            .assert()
            .code(5)
            .stderr(predicate::str::contains("owns no identity in context"))
            .stderr(predicate::str::contains("join the context"));
    }
    // rc25 removed identity aliases: an alias for --as is refused, a key is
    // sent; rc.83 the same, and it never sends the key (its `execute`
    // refuses `executorPublicKey`), so calimcp never needs the identities
    // the node owns (`identities-owned`, whose `identitiesOf` rc.41 added).
    let key = fake_node::hex_id(fake_node::owner_seed(fake_node::CTX_KV));
    for p in [Profile::Rc25, Profile::Rc83] {
        let env = Env::with(FakeNode::with_profile(p));
        env.cmd()
            .args(["call", "kv_store_len", "--as", "me"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("has no identity aliases"));
        // ... and a key is sent, but the node ignores it: said, not silent.
        env.cmd()
            .args(["call", "kv_store_len", "--as", &key])
            .assert()
            .success()
            .stderr(predicate::str::contains("was ignored"))
            .stderr(predicate::str::contains(
                "runs every call as its own identity",
            ));
        let sent = env.last();
        assert_eq!(
            sent["params"].get("executorPublicKey").is_some(),
            !p.rc83(),
            "{p:?}: {sent}"
        );
        assert!(
            !env.node
                .requests()
                .iter()
                .any(|r| r.path.ends_with("/identities-owned")),
            "{p:?}"
        );
    }
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

/// The keys each node version takes in each request body calimcp sends,
/// and the route's name (`None`: a route that takes no body). rc.83 refuses
/// any other key (`deny_unknown_fields`: ../shared/reference/merod-rc83-wire.md
/// §0), so a key sent to it that it does not take fails a call; older
/// versions take `executorPublicKey` (0.10 needs it, 0.10.1-rc.19 … rc.25
/// ignore it). The lifecycle routes' keys after rc.25 are *inferred* (the
/// record has no rows for them): the fields of their rc.25 structs, as the
/// fake's `rc83_admin_keys` says.
fn accepted_keys(
    p: Profile,
    path: &str,
    body: &Value,
) -> Option<(&'static str, Vec<&'static str>)> {
    let rpc_method = body["method"].as_str().unwrap_or_default();
    let segs: Vec<&str> = path.trim_start_matches("/node").split('/').collect();
    let (route, mut top): (&str, Vec<&str>) = match segs.as_slice() {
        ["", "jsonrpc"] => ("/jsonrpc", vec!["jsonrpc", "id", "method", "params"]),
        ["", "sse", "subscription"] => ("/sse/subscription", vec!["id", "method", "params"]),
        ["", "auth", rest] => {
            let keys = fake_node::rc83_auth_keys(rest)?.to_vec();
            match *rest {
                "token" => ("/auth/token", keys),
                "refresh" => ("/auth/refresh", keys),
                _ => ("/auth/logout", keys),
            }
        }
        ["", "admin-api", rest @ ..] => return admin_keys(p, rest),
        _ => return None,
    };
    // The nested objects' keys, prefixed with their parent's.
    if route == "/jsonrpc" && rpc_method == "execute" {
        top.extend(["params.contextId", "params.method", "params.argsJson"]);
        if !p.rc83() {
            top.push("params.executorPublicKey");
        }
    } else if route == "/jsonrpc" {
        top.push("params.contextId");
    } else if route == "/sse/subscription" {
        top.push("params.contextIds");
        if p.sse_groups() {
            top.push("params.groupIds");
        }
    } else if route == "/auth/token" {
        top.extend(["provider_data.username", "provider_data.password"]);
    }
    Some((route, top))
}

/// The keys of the admin-API bodies calimcp sends: the fake's rc.83 table
/// (rc.25's structs' fields, *inferred* after rc.25) on every version, and
/// `upgradePolicy` where the node takes it (rc.4 requires it; rc.25 has no
/// such field and ignores it; hex-id nodes, rc.27 on, would refuse it from
/// rc.38); the alias body (`flatten`ed, so never strict) and rc.4's
/// `requester` on a delete (later nodes read no body there).
fn admin_keys(p: Profile, rest: &[&str]) -> Option<(&'static str, Vec<&'static str>)> {
    let route = match rest {
        ["install-dev-application"] => "install-dev-application",
        ["install-application"] => "install-application",
        ["namespaces"] => "namespaces",
        ["contexts"] => "contexts",
        ["namespaces", _, "invite"] => "invite",
        ["namespaces", _, "join"] => "join",
        ["alias", "create", "context"] => {
            return Some(("alias create", vec!["alias", "contextId"]));
        }
        ["contexts", _] if p == Profile::Rc4 => return Some(("delete", vec!["requester"])),
        _ => return None,
    };
    let segs: Vec<&str> = std::iter::once("admin-api")
        .chain(rest.iter().copied())
        .collect();
    let mut keys = fake_node::rc83_admin_keys("POST", &segs)?.to_vec();
    if route == "namespaces" && !p.hex_ids() {
        keys.push("upgradePolicy");
    }
    Some((route, keys))
}

/// Holds every body `node` was sent to [`accepted_keys`] for `p`; the
/// routes whose bodies were checked.
fn check_bodies(p: Profile, n: &FakeNode) -> std::collections::BTreeSet<&'static str> {
    let mut seen = std::collections::BTreeSet::new();
    for r in n.requests() {
        if r.body.is_empty() {
            continue;
        }
        let body = r.json();
        let Some((route, allowed)) = accepted_keys(p, &r.path, &body) else {
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
        seen.insert(route);
    }
    seen
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
        let seen = check_bodies(p, n);
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

/// The lifecycle bodies calimcp sends (issue 43's routes), on every
/// profile, carry only the keys that version takes: an install by path and
/// by URL, a namespace and a context with an alias, an invitation, a
/// namespace and context join on a second node, an alias added and removed,
/// a context deleted and the app uninstalled. On rc.83 the fake refuses any
/// other key (400, as the node), so the commands themselves succeed only if
/// calimcp sent none.
#[test]
fn every_lifecycle_body_carries_only_the_keys_its_node_version_takes() {
    let abi: Value = serde_json::from_str(include_str!("../testapps/registry/abi.json")).unwrap();
    let module = fake_node::wasm_module(Some(&abi));
    // The profiles side by side: a join waits for the context's state.
    std::thread::scope(|s| {
        let (abi, module) = (&abi, &module);
        for p in Profile::ALL {
            s.spawn(move || lifecycle_bodies_on(p, abi, module));
        }
    });
}

/// [`every_lifecycle_body_carries_only_the_keys_its_node_version_takes`] on `p`.
fn lifecycle_bodies_on(p: Profile, abi: &Value, module: &[u8]) {
    let (n1, n2) = (FakeNode::with_profile(p), FakeNode::with_profile(p));
    let home = tempfile::tempdir().unwrap();
    let wasm = home.path().join("registry.wasm");
    std::fs::write(&wasm, module).unwrap();
    let ok = |n: &FakeNode, line: &str| -> Value {
        let (code, out, err) = lifecycle_run(home.path(), n, line);
        assert_eq!(code, Some(0), "{p:?} {line}: {err}");
        serde_json::from_str(&out).unwrap_or(Value::Null)
    };
    let w = wasm.to_str().unwrap();
    ok(
        &n1,
        &format!("app install {w} --package com.example.registry --version 0.1.0 --json"),
    );
    // A URL the node cannot fetch: refused by the node, the body sent.
    let (code, _, err) = lifecycle_run(home.path(), &n1, "app install https://apps.example/r.wasm");
    assert_eq!(code, Some(5), "{p:?}: {err}");
    assert!(!err.contains("unknown field"), "{p:?}: {err}");
    let v = ok(
        &n1,
        "--json context create com.example.registry --owner o --limit 1 --alias reg",
    );
    let ctx = v["contextId"].as_str().unwrap().to_string();
    let ns = v["namespaceId"].as_str().unwrap();
    // Invitations need the group routes (0.10.1-rc.7 on, not 0.10.0).
    if p.groups() {
        let file = home.path().join("inv.json");
        let file = file.to_str().unwrap();
        ok(&n1, &format!("context invite {ctx} -o {file}"));
        n2.offer(ns, &ctx, module.to_vec(), abi.clone());
        ok(&n2, &format!("context join {file} --alias reg2 --json"));
    }
    ok(&n1, &format!("context alias add again {ctx} --json"));
    ok(&n1, "context alias remove again --json");
    ok(&n1, &format!("context delete {ctx} --yes --json"));
    ok(&n1, "app uninstall com.example.registry --yes --json");
    let mut seen = check_bodies(p, &n1);
    seen.extend(check_bodies(p, &n2));
    let mut routes = vec![
        "install-dev-application",
        "install-application",
        "namespaces",
    ];
    routes.extend(["contexts", "alias create"]);
    if p.groups() {
        routes.extend(["invite", "join"]);
    }
    for route in routes {
        assert!(seen.contains(route), "{p:?}: no {route} body in {seen:?}");
    }
}

/// `calimcp WORDS…` (the line split at spaces) against `n`: its exit code,
/// stdout and stderr.
fn lifecycle_run(
    home: &std::path::Path,
    n: &FakeNode,
    line: &str,
) -> (Option<i32>, String, String) {
    let out = support::calimcp(home)
        .env("CALIMERO_NODE_URL", &n.url)
        .args(line.split(' '))
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// merod 0.11.0-rc.83 answers most refusals with a typed status instead of a
/// blanket 500 (400 bad proof, 403 not a member, 404 unknown, 409 stale
/// counter, 503 not yet; the body stays `{"error"}`: the wire record §0).
/// Each is said in words with a stable code, never as raw JSON: a 403 is
/// `not_a_member` (exit 3), a 409 the node's words (`http_error`, exit 5),
/// a 503 retryable, a context the node does not know `unknown_context`.
#[test]
fn rc83_typed_refusals_are_said_with_their_code() {
    let env = Env::on(Profile::Rc83);
    let n = &env.node;
    let ctx = n.id(fake_node::CTX_KV);
    let json_err = |args: &[&str], code: i32| -> Value {
        let a = env.cmd().arg("--json").args(args).assert().code(code);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        let e: Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
        let msg = e["error"]["message"].as_str().unwrap();
        assert!(!msg.contains(r#"{"error""#), "raw JSON: {msg}");
        support::json_schema::assert_valid("error", &e);
        e["error"].clone()
    };
    n.refuse_next_typed("/invite", 403, "not a member of this group");
    let e = json_err(&["context", "invite", &ctx], 3);
    assert_eq!(e["code"], "not_a_member", "{e}");
    let msg = e["message"].as_str().unwrap();
    assert!(
        msg.contains("HTTP 403") && msg.contains("not a member of this group"),
        "{msg}"
    );
    assert!(e["hint"].as_str().unwrap().contains("member"), "{e}");
    assert_eq!(e["retryable"], false);
    n.refuse_next_typed("/invite", 409, "stale governance counter");
    let e = json_err(&["context", "invite", &ctx], 5);
    assert_eq!(e["code"], "http_error", "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("stale governance counter"),
        "{e}"
    );
    n.refuse_next_typed("/invite", 503, "group state not yet synced");
    let e = json_err(&["context", "invite", &ctx], 5);
    assert_eq!(e["retryable"], true, "{e}");
    assert!(
        e["message"].as_str().unwrap().contains("not yet synced"),
        "{e}"
    );
    // 404 `{"error":"Context not found"}` (REC §3).
    let e = json_err(&["call", "kv_store_len", "-c", &fake_node::hex_id(99)], 2);
    assert_eq!(e["code"], "unknown_context", "{e}");
}
