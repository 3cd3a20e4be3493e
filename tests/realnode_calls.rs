//! `calimcp call` against a real Calimero node (issue 13): every argument
//! kind through the project's typed echo app, failures as the node reports
//! them, the ways a context is chosen, embedded auth and a path prefix.

mod support;

use serde_json::{Value, json};
use support::realnode::{Options, PASSWORD, RealNode, USER, kv_app, on_each_version, test_app};

fn run(node: &RealNode, args: &[&str]) -> (Option<i32>, String, String) {
    let out = node.calimcp().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn ok_json(node: &RealNode, args: &[&str]) -> Value {
    let (code, out, err) = run(node, args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

on_each_version! {
fn every_argument_kind_round_trips_through_the_real_node(v) {
    let Some(node) = RealNode::start_on(v, "every_argument_kind_round_trips_through_the_real_node")
    else {
        return;
    };
    let (_, ctx) = node.setup(&test_app("typed"), "com.example.typed", Some("typed"));
    let call = |method: &str, value: &str| {
        ok_json(
            &node,
            &[
                "call",
                &format!("com.example.typed.{method}"),
                "-c",
                "typed",
                "--v",
                value,
            ],
        )
    };
    assert_eq!(call("echo_u64", "18446744073709551615"), json!(u64::MAX));
    assert_eq!(call("echo_i64", "-9223372036854775808"), json!(i64::MIN));
    assert_eq!(
        call("echo_string", "héllo \"q\" -x"),
        json!("héllo \"q\" -x")
    );
    let record = json!({"x": -5, "label": null, "tags": ["a", "b"]});
    assert_eq!(call("echo_record", &record.to_string()), record);
    assert_eq!(
        call("echo_list", "[1,2,4294967295]"),
        json!([1, 2, 4294967295u32])
    );
    let map = json!({"a": u64::MAX, "b": 0});
    assert_eq!(call("echo_map", &map.to_string()), map);
    assert_eq!(call("echo_variant", "Empty"), json!("Empty"));
    assert_eq!(
        call("echo_variant", r#"{"Circle":3}"#),
        json!({"Circle": 3})
    );
    let poly = json!({"Poly": [{"x": 1, "label": "p", "tags": []}]});
    assert_eq!(call("echo_variant", &poly.to_string()), poly);
    // Plain bytes: hex goes as the byte array the node's serde wants.
    assert_eq!(
        call("echo_bytes", "0xdeadbeef"),
        json!([222, 173, 190, 239])
    );
    // A 32-byte id goes as the base58 string the SDK's id types read.
    assert_eq!(call("echo_id", &ctx), json!(ctx));
    assert_eq!(
        ok_json(
            &node,
            &[
                "call",
                "com.example.typed.echo_nullable",
                "-c",
                "typed",
                "--args",
                r#"{"v":null}"#
            ]
        ),
        Value::Null
    );
    // Out of range: exit 2, nothing sent.
    let (code, _, err) = run(
        &node,
        &[
            "call",
            "com.example.typed.echo_u64",
            "-c",
            "typed",
            "--v",
            "18446744073709551616",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("v:"), "{err}");
    // The same tools over MCP-style names work too.
    assert_eq!(
        ok_json(
            &node,
            &["call", "typed_echo_u64", "-c", "typed", "--v", "7"]
        ),
        json!(7)
    );
}
}

on_each_version! {
fn failures_are_reported_as_the_node_reports_them(v) {
    let Some(node) = RealNode::start_on(v, "failures_are_reported_as_the_node_reports_them") else {
        return;
    };
    node.setup(&kv_app(), "com.example.kv-c", Some("kvmain"));
    let (code, _, err) = run(
        &node,
        &[
            "call",
            "com.example.kv-c.add",
            "--a",
            "18446744073709551615",
            "--b",
            "1",
            "--json",
        ],
    );
    assert_eq!(code, Some(5));
    assert_eq!(
        err.trim(),
        r#"{"error":{"code":"app_error","message":"`add` returned an error: overflow","retryable":false}}"#
    );
    let (code, _, err) = run(&node, &["call", "com.example.kv-c.boom", "--message", "hi"]);
    assert_eq!(code, Some(5));
    assert!(err.contains("guest panicked: hi"), "{err}");
    let (code, _, err) = run(&node, &["call", "com.example.kv-c.missing_in_wasm"]);
    assert_eq!(code, Some(5));
    assert!(
        err.contains("`missing_in_wasm` is declared in the app's ABI, but the app's module on the node does not export it"),
        "{err}"
    );
    let (code, _, err) = run(&node, &["call", "com.example.kv-c.nope"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("has no method `nope`"), "{err}");
}
}

/// 64 hex characters of a base58 id.
fn hex_of(id: &str) -> String {
    bs58::decode(id)
        .into_vec()
        .unwrap()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

on_each_version! {
fn contexts_by_default_alias_base58_hex_and_use(v) {
    let Some(node) = RealNode::start_on(v, "contexts_by_default_alias_base58_hex_and_use") else {
        return;
    };
    let (app, ctx) = node.setup(&kv_app(), "com.example.kv-c", Some("kvmain"));
    let set = |extra: &[&str], value: &str| {
        let mut args = vec![
            "call",
            "com.example.kv-c.set",
            "--key",
            "k",
            "--value",
            value,
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = run(&node, &args);
        assert_eq!(code, Some(0), "{extra:?}: {err}");
    };
    let get = |extra: &[&str]| {
        let mut args = vec!["call", "com.example.kv-c.get", "--key", "k"];
        args.extend_from_slice(extra);
        ok_json(&node, &args)
    };
    // The app's only context, then by alias, base58 id and hex id: one state.
    set(&[], "1");
    assert_eq!(get(&["-c", "kvmain"]), json!("1"));
    assert_eq!(get(&["-c", &ctx]), json!("1"));
    assert_eq!(get(&["-c", &hex_of(&ctx)]), json!("1"));

    // A second context: no default any more, the error lists both.
    let (ctx2, _) = node.create_context(&app);
    let (code, _, err) = run(&node, &["call", "com.example.kv-c.get", "--key", "k"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&ctx) && err.contains(&ctx2), "{err}");
    // `use` pins one (by hex, stored in the node's form); calls follow it.
    let (code, out, err) = run(&node, &["use", "com.example.kv-c", "-c", &hex_of(&ctx2)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&ctx2), "{out}");
    set(&[], "2");
    assert_eq!(get(&["-c", &ctx2]), json!("2"));
    assert_eq!(get(&["-c", "kvmain"]), json!("1"));
    let (code, _, err) = run(&node, &["use", "com.example.kv-c", "--clear"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, _) = run(&node, &["call", "com.example.kv-c.get", "--key", "k"]);
    assert_eq!(code, Some(2));
}
}

on_each_version! {
fn embedded_auth_logs_in_caches_the_token_and_refuses_a_wrong_password(v) {
    let Some(mut node) = RealNode::start_with(
        "embedded_auth_logs_in_caches_the_token_and_refuses_a_wrong_password",
        Options {
 version: v,
            embedded_auth: true,
            ..Options::default()
        },
    ) else {
        return;
    };
    // The first login creates the user.
    let _ = node.login_user();
    node.setup(&kv_app(), "com.example.kv-c", Some("kvmain"));
    let with = |password: &str, args: &[&str]| {
        let out = node
            .calimcp()
            .env("CALIMERO_USERNAME", USER)
            .env("CALIMERO_PASSWORD", password)
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let add = ["call", "com.example.kv-c.add", "--a", "1", "--b", "2", "-v"];
    let (code, out, err) = with(PASSWORD, &add);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.trim(), "3");
    assert!(err.contains("/auth/token"), "logged in: {err}");
    assert!(!err.contains(PASSWORD), "{err}");
    // The token is cached: the next calls do not log in again. (Expiry and
    // refresh are not run here: the node's JWT check allows 60 s of leeway
    // past a token's expiry; tests/node.rs runs them against the fake.)
    for _ in 0..3 {
        let (code, _, err) = with(PASSWORD, &add);
        assert_eq!(code, Some(0), "{err}");
        assert!(!err.contains("/auth/token"), "logged in again: {err}");
    }
    // A wrong password, with no cached token: exit 3, the password never shown.
    let fresh = tempfile::tempdir().unwrap();
    let out = node
        .calimcp()
        .env("CALIMCP_STATE_DIR", fresh.path())
        .env("CALIMERO_USERNAME", USER)
        .env("CALIMERO_PASSWORD", "wrong-battery")
        .args(["call", "com.example.kv-c.add", "--a", "1", "--b", "2"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(!err.contains("wrong-battery"), "{err}");
}
}

on_each_version! {
fn a_node_under_a_path_prefix_is_called_and_described(v) {
    let Some(node) = RealNode::start_with(
        "a_node_under_a_path_prefix_is_called_and_described",
        Options {
 version: v,
            path_prefix: Some("/node".into()),
            ..Options::default()
        },
    ) else {
        return;
    };
    node.setup(&kv_app(), "com.example.kv-c", Some("kvmain"));
    assert!(node.url.ends_with("/node"));
    assert_eq!(
        ok_json(
            &node,
            &["call", "com.example.kv-c.add", "--a", "40", "--b", "2"]
        ),
        json!(42)
    );
    let tools = ok_json(&node, &["tools", "--json", "com.example.kv-c"]);
    assert!(tools.to_string().contains("\"kv_c_add\""), "{tools}");
    let schema = ok_json(&node, &["schema", "com.example.kv-c", "add"]);
    assert_eq!(schema["required"], json!(["a", "b"]), "{schema}");
}
}

/// The `exp` of a JWT.
fn expires_at(jwt: &str) -> u64 {
    let payload = jwt.split('.').nth(1).expect("a JWT");
    let bytes = base64::Engine::decode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, payload)
        .expect("base64url");
    let v: Value = serde_json::from_slice(&bytes).expect("JSON claims");
    v["exp"].as_u64().expect("exp")
}

on_each_version! {
/// The node's JWT check (jsonwebtoken's default) accepts a token up to 60 s
/// past its `exp`; this waits once, until the token is certainly refused.
fn an_expired_token_is_refreshed_once_and_never_shown(v) {
    let Some(mut node) = RealNode::start_with(
        "an_expired_token_is_refreshed_once_and_never_shown",
        Options {
 version: v,
            embedded_auth: true,
            access_ttl: Some(1),
            ..Options::default()
        },
    ) else {
        return;
    };
    let (access, refresh) = node.login_user();
    node.setup(&kv_app(), "com.example.kv-c", Some("kvmain"));
    let refused_after = expires_at(&access) + 61;
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    };
    while now() <= refused_after {
        std::thread::sleep(std::time::Duration::from_secs(refused_after + 1 - now()));
    }
    let call = |state: &std::path::Path| {
        node.calimcp()
            .env("CALIMCP_STATE_DIR", state)
            .env("CALIMERO_AUTH_TOKEN", &access)
            .env("CALIMERO_REFRESH_TOKEN", &refresh)
            .args(["-v", "call", "com.example.kv-c.add", "--a", "1", "--b", "2"])
            .output()
            .unwrap()
    };
    // 401 token_expired → one refresh → the call goes through.
    let first = tempfile::tempdir().unwrap();
    let out = call(first.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("/auth/refresh"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "3");
    // The same pair again from another state directory. rc4 accepts the
    // replayed refresh token (200; the reference's notes said 500, which the
    // fake's rc4 profile still covers), so the call goes through. rc25 answers
    // 401 "Refresh token reuse detected" and revokes the family: exit 3, said so.
    let second = tempfile::tempdir().unwrap();
    let out = call(second.path());
    let err = String::from_utf8_lossy(&out.stderr);
    match v {
        support::realnode::Version::Rc4 => assert!(out.status.success(), "{err}"),
        support::realnode::Version::Rc25 => {
            assert_eq!(out.status.code(), Some(3), "{err}");
            assert!(err.contains("refresh token was already used"), "{err}");
        }
    }
    assert!(err.contains("/auth/refresh"), "{err}");
    assert!(!err.contains(&refresh) && !err.contains(&access), "{err}");
}
}
