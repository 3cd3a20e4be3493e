//! `calimcp call` and `calimcp use` against the fake node, driving the real binary;
//! what depends on the node's version (the execute body, `--as`, error decoding,
//! choosing a context, the ABI's source) on rc.4, rc.25 and rc.83 ([`VERSIONS`]).

mod support;

use predicates::prelude::*;
use serde_json::{Value, json};
use support::calimcp;
use support::fake_node::{self, FakeNode, Profile, hex_id, id};

use support::{Env, on_a_terminal, stderr_of};

/// The versions the call suite runs on where a call's wire differs: rc.4
/// and rc.25 (real nodes) and rc.83 (its recorded wire).
const VERSIONS: [Profile; 3] = [Profile::Rc4, Profile::Rc25, Profile::Rc83];

/// What the call tests ask of [`Env`].
trait CallEnv {
    /// Runs a call that must succeed; returns stdout as JSON.
    fn ok(&self, args: &[&str]) -> Value;
    /// The `argsJson` of the last execute the node saw.
    fn last_args(&self) -> Value;
    fn last_context(&self) -> Value;
}

impl CallEnv for Env {
    fn ok(&self, args: &[&str]) -> Value {
        let out = self
            .cmd()
            .args(args)
            .assert()
            .success()
            .get_output()
            .clone();
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
    }

    fn last_args(&self) -> Value {
        self.node.executes().last().expect("an execute").json()["params"]["argsJson"].clone()
    }

    fn last_context(&self) -> Value {
        self.node.executes().last().expect("an execute").json()["params"]["contextId"].clone()
    }
}

// ---- section 2: the command ----

#[test]
fn a_call_sets_and_gets_through_the_node() {
    for p in VERSIONS {
        let env = Env::on(p);
        assert_eq!(
            env.ok(&["call", "kv_store_set", "--key", "a", "--value", "b"]),
            Value::Null
        );
        assert_eq!(env.ok(&["call", "kv_store_get", "--key", "a"]), json!("b"));
        let ctx = env.node.id(fake_node::CTX_KV);
        assert_eq!(env.node.kv(&ctx)["a"], "b", "{p:?}");
        let body = env.node.executes()[0].json();
        assert_eq!(body["jsonrpc"], "2.0");
        assert_eq!(body["method"], "execute");
        assert!(body["id"].is_u64());
        assert_eq!(
            body["params"],
            json!({"contextId": ctx, "method": "set", "argsJson": {"key": "a", "value": "b"}}),
            "{p:?}"
        );
    }
}

#[test]
fn output_is_compact_off_a_terminal_and_unit_is_null() {
    let env = Env::new();
    env.ok(&["call", "kv_store_set", "--key", "k", "--value", "v"]);
    let out = env
        .cmd()
        .args(["call", "kv_store_entries"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(out).unwrap(), "{\"k\":\"v\"}\n");
    env.cmd()
        .args(["call", "typed_noop", "--json"])
        .assert()
        .success()
        .stdout("null\n");
}

#[test]
fn global_flags_work_anywhere_on_the_line() {
    let env = Env::new();
    let url = env.node.url.clone();
    calimcp(env.home.path())
        .args([
            "call",
            "kv_store_set",
            "--key",
            "a",
            "--node",
            &url,
            "--value",
            "b",
            "--json",
        ])
        .assert()
        .success()
        .stdout("null\n");
    calimcp(env.home.path())
        .args(["--api", &url, "call", "kv_store_get", "--key", "a"])
        .assert()
        .success()
        .stdout("\"b\"\n");
    calimcp(env.home.path())
        .args([
            "call",
            "--context",
            "prod",
            "kv_store_get",
            "--api",
            &url,
            "--key",
            "a",
        ])
        .assert()
        .success()
        .stdout("\"b\"\n");
}

#[test]
fn sixty_four_bit_integers_arrive_digit_for_digit() {
    let env = Env::new();
    let out = env.ok(&[
        "call",
        "typed_echo_numbers",
        "--small",
        "4294967295",
        "--big",
        "18446744073709551615",
        "--neg",
        "-9223372036854775808",
        "--delta",
        "-5",
    ]);
    assert_eq!(out["big"].to_string(), "18446744073709551615");
    assert_eq!(out["neg"].to_string(), "-9223372036854775808");
    let sent = &env.node.executes()[0].body;
    assert!(sent.contains("\"big\":18446744073709551615"), "{sent}");
    assert!(sent.contains("\"neg\":-9223372036854775808"), "{sent}");
    assert!(sent.contains("\"delta\":-5"), "{sent}");
    // The same through --args.
    env.ok(&[
        "call",
        "typed_echo_numbers",
        "--args",
        r#"{"small":0,"big":18446744073709551615,"neg":-9223372036854775808}"#,
    ]);
    let sent = &env.node.executes()[1].body;
    assert!(
        sent.contains("\"big\":18446744073709551615,\"neg\":-9223372036854775808"),
        "{sent}"
    );
}

#[test]
fn values_are_parsed_by_type() {
    let env = Env::new();
    let dir = tempfile::tempdir().unwrap();
    let person = dir.path().join("person.json");
    std::fs::write(&person, r#"{"name":"Ada","age":36,"nick":null}"#).unwrap();
    let out = env.ok(&[
        "call",
        "typed_echo_complex",
        "--tags",
        r#"["a","b"]"#,
        "--meta",
        r#"{"x":18446744073709551615}"#,
        "--pair",
        r#"["p",-1]"#,
        "--person",
        &format!("@{}", person.display()),
        "--status",
        "Pending",
    ]);
    assert_eq!(
        out,
        json!({"tags": ["a", "b"], "meta": {"x": 18446744073709551615u64}, "pair": ["p", -1],
               "person": {"name": "Ada", "age": 36, "nick": null}, "status": "Pending"})
    );
    // bytes: hex (0x optional) becomes a byte array; a JSON array stays one
    env.ok(&[
        "call",
        "typed_echo_bytes",
        "--data",
        "0xdeadBEEF",
        "--fixed",
        "[1,2,3,4]",
    ]);
    assert_eq!(
        env.last_args(),
        json!({"data": [222, 173, 190, 239], "fixed": [1, 2, 3, 4]})
    );
    // a bool flag alone means true; strings are literal, even @ and -
    env.ok(&[
        "call",
        "typed_echo_numbers",
        "--small",
        "1",
        "--big",
        "2",
        "--neg",
        "3",
        "--flag",
    ]);
    assert_eq!(env.last_args()["flag"], true);
    env.ok(&[
        "call",
        "typed_echo_strings",
        "--param-json",
        "@not-a-file",
        "--first-name",
        "-",
    ]);
    assert_eq!(
        env.last_args(),
        json!({"json": "@not-a-file", "first_name": "-"})
    );
}

#[test]
fn stdin_feeds_one_value_or_the_whole_argument_object() {
    let env = Env::new();
    env.cmd()
        .args(["call", "typed_echo_complex", "--tags", "-"])
        .write_stdin("[\"from-stdin\"]")
        .assert()
        .success();
    assert_eq!(env.last_args(), json!({"tags": ["from-stdin"]}));
    env.cmd()
        .args(["call", "kv_store_set", "--args", "-"])
        .write_stdin(r#"{"key":"s","value":"t"}"#)
        .assert()
        .success();
    assert_eq!(env.node.kv(&id(fake_node::CTX_KV))["s"], "t");
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("args.json");
    std::fs::write(&f, r#"{"key":"f","value":"g"}"#).unwrap();
    env.ok(&[
        "call",
        "kv_store_set",
        "--args",
        &format!("@{}", f.display()),
    ]);
    assert_eq!(env.node.kv(&id(fake_node::CTX_KV))["f"], "g");
    // flags add what --args lacks
    env.ok(&[
        "call",
        "kv_store_set",
        "--args",
        r#"{"key":"h"}"#,
        "--value",
        "i",
    ]);
    assert_eq!(env.node.kv(&id(fake_node::CTX_KV))["h"], "i");
}

#[test]
fn bad_arguments_are_exit_2_and_never_reach_the_node() {
    let env = Env::new();
    let cases: &[(&[&str], &[&str])] = &[
        (
            &[
                "call",
                "typed_echo_numbers",
                "--small",
                "-1",
                "--big",
                "x",
                "--neg",
                "1",
            ],
            &[
                "--small: `-1` is out of range for u32",
                "--big: expected an integer (u64), got `x`",
            ],
        ),
        (
            &["call", "typed_echo_numbers", "--small", "1"],
            &[
                "big: missing required argument",
                "pass --big",
                "neg: missing required argument",
                "pass --neg",
            ],
        ),
        (
            &[
                "call",
                "typed_echo_numbers",
                "--small",
                "1",
                "--big",
                "18446744073709551616",
                "--neg",
                "0",
            ],
            &["out of range for u64"],
        ),
        (
            &["call", "typed_echo_complex", "--tags", "[1]"],
            &["tags[0]: expected a string, got an integer: 1"],
        ),
        (
            &[
                "call",
                "typed_echo_complex",
                "--tags",
                "[]",
                "--person",
                r#"{"name":"x"}"#,
            ],
            &[
                "person.age: missing required argument",
                "person.nick: missing required argument",
            ],
        ),
        (
            &[
                "call",
                "typed_echo_complex",
                "--tags",
                "[]",
                "--person",
                r#"{"name":"x","age":-1,"nick":null}"#,
            ],
            &["person.age: -1 is less than the minimum of 0"],
        ),
        (
            &["call", "typed_echo_bytes", "--data", "abc"],
            &["--data: expected hex digits"],
        ),
        (
            &[
                "call",
                "typed_echo_bytes",
                "--data",
                "00",
                "--fixed",
                "0102",
            ],
            &["fixed: \"0102\" is not a hex string of the right length"],
        ),
        (
            &[
                "call",
                "kv_store_set",
                "--args",
                r#"{"key":"a","valeu":"b"}"#,
            ],
            &["valeu: unknown argument; did you mean `value`?"],
        ),
        (
            &[
                "call",
                "kv_store_set",
                "--key",
                "a",
                "--args",
                r#"{"key":"b","value":"c"}"#,
            ],
            &["key: given both in --args and as --key"],
        ),
        (
            &["call", "kv_store_set", "--args", "[1]"],
            &["--args takes a JSON object"],
        ),
        (
            &["call", "typed_echo_complex", "--tags", "[1"],
            &["not valid JSON"],
        ),
    ];
    // An unreadable flag and a missing parameter are reported together; the
    // unreadable one is not reported again as missing.
    let a = env
        .cmd()
        .args(["call", "typed_echo_numbers", "--small", "x", "--neg", "1"])
        .assert()
        .code(2);
    let err = stderr_of(&a);
    assert!(
        err.contains("--small: expected an integer (u32), got `x`"),
        "{err}"
    );
    assert!(err.contains("big: missing required argument"), "{err}");
    assert!(!err.contains("small: missing"), "{err}");
    for (args, expected) in cases {
        let a = env.cmd().args(*args).assert().code(2);
        let err = stderr_of(&a);
        for e in *expected {
            assert!(err.contains(e), "{args:?}: {e:?} not in\n{err}");
        }
        if err.contains("invalid arguments") {
            assert!(err.contains("nothing was sent"), "{err}");
        }
    }
    assert!(env.node.executes().is_empty(), "the node saw an execute");
}

#[test]
fn a_local_app_with_bad_arguments_makes_no_request_at_all() {
    let env = Env::new();
    env.cmd()
        .args([
            "--apps",
            "tests/support/abi",
            "call",
            "typed_echo_numbers",
            "--small",
            "x",
        ])
        .assert()
        .code(2);
    env.cmd()
        .args(["--apps", "examples", "call", "kv_store_set", "--key", "a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("value: missing required argument"));
    assert!(env.node.requests().is_empty(), "{:?}", env.node.requests());
}

#[test]
fn missing_parameters_are_listed_at_once_when_not_on_a_terminal() {
    let env = Env::new();
    for extra in [&[][..], &["--no-input"][..]] {
        let a = env
            .cmd()
            .args(["call", "kv_store_set"])
            .args(extra)
            .write_stdin("")
            .assert()
            .code(2);
        let err = stderr_of(&a);
        assert!(
            err.contains("key: missing required argument")
                && err.contains("value: missing required argument"),
            "{err}"
        );
        assert!(
            !err.contains("equivalent") && !err.contains("without prompts"),
            "{err}"
        );
    }
    assert!(env.node.executes().is_empty());
}

#[test]
fn prompts_fill_missing_parameters_on_a_terminal_then_show_the_command() {
    let home = tempfile::tempdir().unwrap();
    let ctx = hex_id(9);
    let args = format!(
        "--offline --apps tests/support/abi call typed_echo_numbers --small 1 --dry-run -c {ctx} --token s3cret"
    );
    // `x` is refused for a u64 and asked again.
    let Some(out) = on_a_terminal(
        home.path(),
        &args,
        "x\n18446744073709551615\n-9223372036854775808\n",
    ) else {
        return;
    };
    assert!(
        out.contains("big (u64)") && out.contains("neg (i64)"),
        "{out}"
    );
    assert!(out.contains("expected an integer (u64), got `x`"), "{out}");
    assert!(
        out.contains(&format!(
            "the same call without prompts:\r\n  calimcp {} --big 18446744073709551615 --neg -9223372036854775808",
            args.replace("s3cret", "\"$CALIMERO_AUTH_TOKEN\"")
        )),
        "{out}"
    );
    assert!(!out.contains("s3cret"), "{out}");
    assert!(
        out.contains(
            "\"argsJson\":{\"small\":1,\"big\":18446744073709551615,\"neg\":-9223372036854775808}"
        ),
        "{out}"
    );
    // --no-input and --json never prompt, even on a terminal.
    for flag in ["--no-input", "--json"] {
        let out = on_a_terminal(home.path(), &format!("{args} {flag}"), "1\n2\n").unwrap();
        assert!(
            out.contains("missing required argument") && !out.contains("big (u64)"),
            "{out}"
        );
    }
}

#[test]
fn unknown_tools_get_a_suggestion_and_exit_2() {
    let env = Env::new();
    env.cmd()
        .args(["call", "kv_store_gte", "--key", "a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no tool `kv_store_gte`"))
        .stderr(predicate::str::contains("did you mean `kv_store_get`"));
    env.cmd()
        .args(["call", "kv-store.gte"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has no method `gte`"))
        .stderr(predicate::str::contains("did you mean `get`"));
    env.cmd()
        .args(["call", "kv-store.init"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "runs once, when a context is created",
        ));
    env.cmd()
        .args(["call", "kv_store_gte", "--json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("\"code\":\"unknown_tool\""));
    assert!(env.node.executes().is_empty());
}

#[test]
fn unknown_parameter_flags_get_a_suggestion_and_exit_2() {
    let env = Env::new();
    // Two swapped letters: below clap's own threshold, found by calimcp's.
    env.cmd()
        .args(["call", "kv_store_set", "--kye", "a", "--value", "b"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unexpected argument '--kye'"))
        .stderr(predicate::str::contains(
            "a similar argument exists: '--key'",
        ));
    // clap's own suggestion is kept, and JSON errors carry it too.
    env.cmd()
        .args(["call", "kv_store_set", "--key", "a", "--valeu=b", "--json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unexpected argument '--valeu' found (a similar argument exists: '--value')",
        ));
    // Nothing alike: no suggestion.
    env.cmd()
        .args(["call", "kv_store_set", "--zzz", "a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unexpected argument '--zzz'"))
        .stderr(predicate::str::contains("similar").not());
    assert!(env.node.executes().is_empty());
}

#[test]
fn apps_are_named_by_package_segment_name_or_id() {
    let env = Env::new();
    env.ok(&["call", "kv_store_set", "--key", "a", "--value", "b"]);
    for tool in [
        "com.calimero.kv-store.get",
        "calimero.kv-store.get",
        "KV-Store.get",
        "KV Store.get",
        &format!("{}.get", id(fake_node::KV)),
    ] {
        assert_eq!(env.ok(&["call", tool, "--key", "a"]), json!("b"), "{tool}");
    }
    // several signers of one package: the candidates are listed
    let a = env
        .cmd()
        .args(["call", "io.example.KV_Store.get", "--key", "a"])
        .assert()
        .code(2);
    let err = stderr_of(&a);
    assert!(err.contains("published by several signers"), "{err}");
    assert!(
        err.contains(&id(fake_node::KV2_A)) && err.contains(&id(fake_node::KV2_B)),
        "{err}"
    );
    // multi-service: APP.SERVICE.METHOD, or APP.METHOD with --service
    assert_eq!(env.ok(&["call", "notebook.registry.list"]), json!({}));
    assert_eq!(
        env.ok(&[
            "call",
            "notebook.read",
            "--service",
            "pages",
            "--page",
            "3",
            "-c",
            "pages-main"
        ]),
        json!({"page": 3})
    );
}

#[test]
fn local_apps_keep_their_tool_names_when_the_nodes_join() {
    let env = Env::new();
    // A local app of another package whose slug collides with the node's kv-store.
    let apps = tempfile::tempdir().unwrap();
    let bundle = apps.path().join("zkv");
    std::fs::create_dir(&bundle).unwrap();
    std::fs::copy("tests/support/abi/kv-store.json", bundle.join("abi.json")).unwrap();
    std::fs::write(
        bundle.join("manifest.json"),
        r#"{"version":"1.0","package":"org.zed.kv-store","abi":{"path":"abi.json"}}"#,
    )
    .unwrap();
    let dir = apps.path().to_str().unwrap();
    let tool_of = |v: &Value, method: &str| -> String {
        v["methods"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == method)
            .unwrap()["tool"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // Offline (only local apps) and with the node's: the same name.
    let alone = env.ok(&[
        "--offline",
        "--apps",
        dir,
        "describe",
        "org.zed.kv-store",
        "--json",
    ]);
    assert_eq!(tool_of(&alone, "get"), "kv_store_get");
    let tools = env.ok(&["--apps", dir, "tools", "--json"]);
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"kv_store_get"));
    let node_kv = env.ok(&["--apps", dir, "describe", "com.calimero.kv-store", "--json"]);
    let node_get = tool_of(&node_kv, "get");
    assert!(
        node_get.starts_with("kv_store_") && node_get != "kv_store_get",
        "{node_get}"
    );
    assert!(names.contains(&node_get.as_str()));
    // kv_store_get is the local app: no module, and its ABI is that of
    // several node apps of different code, so which one it is is not guessed...
    env.cmd()
        .args(["--apps", dir, "call", "kv_store_get", "--key", "a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("org.zed.kv-store"))
        .stderr(predicate::str::contains("cannot be told apart"));
    // ...and the node's kv-store answers to its own name.
    env.ok(&[
        "--apps",
        dir,
        "call",
        "com.calimero.kv-store.set",
        "--key",
        "a",
        "--value",
        "b",
    ]);
    assert_eq!(
        env.ok(&["--apps", dir, "call", &node_get, "--key", "a"]),
        json!("b")
    );
    assert_eq!(env.last_context(), json!(id(fake_node::CTX_KV)));
}

#[test]
fn per_method_help_shows_the_signature_types_and_docs() {
    // rc4: the ABI is read from the module, docs included (the rc.19+ route drops them).
    let env = Env::with(FakeNode::with_profile(Profile::Rc4));
    let a = env
        .cmd()
        .args(["call", "typed_echo_numbers", "--help"])
        .assert()
        .success();
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    for s in [
        "[view] echo_numbers(small: u32, big: u64, neg: i64, delta?: i32, ratio?: f64, flag?: bool) -> record",
        "Every integer width.",
        "Usage: calimcp call typed_echo_numbers",
        "--small <U32>",
        "u32, required",
        "A u32.",
        "--delta <I32>",
        "i32, optional",
        "from 0 to 4294967295",
        "from 0 to 18446744073709551615",
        "negative numbers as plain values",
    ] {
        assert!(out.contains(s), "{s:?} not in\n{out}");
    }
    let a = env
        .cmd()
        .args(["call", "typed_echo_strings", "-h"])
        .assert()
        .success();
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    assert!(out.contains("--param-json <STRING>"), "{out}");
    assert!(
        out.contains("--first_name <STRING>") && out.contains("--first-name"),
        "{out}"
    );
    assert!(env.node.executes().is_empty());
}

#[test]
fn the_injected_context_never_reaches_the_app() {
    let env = Env::new();
    env.ok(&[
        "call",
        "kv_store_set",
        "--args",
        r#"{"key":"a","value":"b","_context":"prod"}"#,
    ]);
    assert_eq!(env.last_args(), json!({"key": "a", "value": "b"}));
    assert_eq!(env.last_context(), json!(id(fake_node::CTX_KV)));
    // A method that declares _context gets it; its context comes from --context.
    env.ok(&[
        "call",
        "typed_with_context",
        "--_context",
        "for-the-app",
        "--note",
        "n",
        "--context",
        &hex_id(fake_node::CTX_TYPED),
    ]);
    assert_eq!(
        env.last_args(),
        json!({"_context": "for-the-app", "note": "n"})
    );
    // Given in hex, sent in the node's own form (base58).
    assert_eq!(env.last_context(), json!(id(fake_node::CTX_TYPED)));
    for r in env.node.executes() {
        let args = &r.json()["params"]["argsJson"];
        if r.json()["params"]["method"] != "with_context" {
            assert!(args.get("_context").is_none(), "{args}");
        }
    }
}

#[test]
fn contexts_are_chosen_in_order() {
    for p in VERSIONS {
        let env = Env::on(p);
        contexts_chosen_without_a_name(&env, p);
        contexts_named_by_id_or_alias(&env);
    }
}

/// The only context, the one aliased `default`, several without one, none.
fn contexts_chosen_without_a_name(env: &Env, p: Profile) {
    // the only context
    env.ok(&["call", "kv_store_len"]);
    assert_eq!(
        env.last_context(),
        json!(env.node.id(fake_node::CTX_KV)),
        "{p:?}"
    );
    // several: the one aliased `default`, when it belongs to the app
    // (The second kv-store app's tool names carry a prefix of its id,
    // which is written in the version's form.)
    let tools = env.ok(&["tools", "--json"]);
    let kv2_len = tools
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .find(|n| n.starts_with("kv_store_") && n.ends_with("_len") && *n != "kv_store_len")
        .unwrap()
        .to_string();
    if p == Profile::Rc25 {
        assert_eq!(kv2_len, "kv_store_8qbhbw_len");
    }
    env.ok(&["call", &kv2_len]);
    assert_eq!(env.last_context(), json!(env.node.id(fake_node::CTX_KV2_2)));
    // several and no default among them: an error listing them
    let a = env
        .cmd()
        .args(["call", "notebook_pages_words"])
        .assert()
        .code(2);
    let err = stderr_of(&a);
    assert!(
        err.contains("has 2 contexts")
            && err.contains(&env.node.id(fake_node::CTX_PAGES_1))
            && err.contains(&env.node.id(fake_node::CTX_PAGES_2)),
        "{err}"
    );
    // none: says so and how to create one
    env.cmd()
        .args(["call", "lonely_len"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has no context"))
        .stderr(predicate::str::contains("create one"));
}

/// An id is used as is, anything else is an alias; `--context` wins.
fn contexts_named_by_id_or_alias(env: &Env) {
    let alias_lookups = |env: &Env| {
        env.node
            .requests()
            .iter()
            .filter(|r| r.path.contains("/alias/lookup/"))
            .count()
    };
    // an id is used as is (hex or base58): no alias lookup
    let before = alias_lookups(env);
    env.ok(&[
        "call",
        "notebook_pages_words",
        "--context",
        &env.node.id(fake_node::CTX_PAGES_2),
    ]);
    assert_eq!(
        env.last_context(),
        json!(env.node.id(fake_node::CTX_PAGES_2))
    );
    env.ok(&[
        "call",
        "typed_noop",
        "-c",
        &env.node.other_id(fake_node::CTX_TYPED),
    ]);
    assert_eq!(alias_lookups(env), before);
    // anything else is an alias
    env.ok(&["call", "notebook_pages_words", "--context", "pages-main"]);
    assert_eq!(
        env.last_context(),
        json!(env.node.id(fake_node::CTX_PAGES_1))
    );
    env.cmd()
        .args(["call", "notebook_pages_words", "--context", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "neither a context id nor an alias",
        ));
    // An alias for a local app the node does not have: said so, not "(unknown)" (issue 32).
    let every_kind = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/every-kind.json");
    let a = env
        .cmd()
        .args([
            "call",
            &format!("{every_kind}.state"),
            "-c",
            "nope",
            "--dry-run",
        ])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("neither a context id nor an alias"), "{err}");
    assert!(err.contains("is not installed there"), "{err}");
    assert!(!err.contains("(unknown)"), "{err}");
    // --context wins over _context in --args
    env.ok(&[
        "call",
        "kv_store_len",
        "--args",
        r#"{"_context":"nope"}"#,
        "-c",
        "prod",
    ]);
    assert_eq!(env.last_context(), json!(env.node.id(fake_node::CTX_KV)));
}

#[test]
fn use_pins_a_context_per_app_and_service() {
    let env = Env::new();
    env.cmd()
        .args(["use", "notebook", "--service", "pages"])
        .assert()
        .success()
        .stdout(predicate::str::contains("no context pinned"));
    env.cmd()
        .args([
            "use",
            "notebook",
            "--service",
            "pages",
            "--context",
            "pages-main",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(id(fake_node::CTX_PAGES_1)));
    env.ok(&["call", "notebook_pages_words"]);
    assert_eq!(env.last_context(), json!(id(fake_node::CTX_PAGES_1)));
    // --context wins over the pin
    env.ok(&[
        "call",
        "notebook_pages_words",
        "-c",
        &id(fake_node::CTX_PAGES_2),
    ]);
    assert_eq!(env.last_context(), json!(id(fake_node::CTX_PAGES_2)));
    let shown = env.ok(&["use", "notebook", "--service", "pages", "--json"]);
    assert_eq!(shown["context"], "pages-main");
    assert_eq!(shown["node"], env.node.url.as_str());
    // a context of another app is refused
    env.cmd()
        .args(["use", "notebook", "--service", "pages", "-c", "prod"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "context prod runs com.calimero.kv-store 1.2.0, not com.example.notebook",
        ))
        .stderr(predicate::str::contains("(alias pages-main)"));
    env.cmd()
        .args(["use", "notebook", "--service", "pages", "--clear"])
        .assert()
        .success();
    env.cmd()
        .args(["call", "notebook_pages_words"])
        .assert()
        .code(2);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let f = env.home.path().join("state/contexts.json");
        assert_eq!(
            std::fs::metadata(f).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
}

/// `--node` given before `call` and again after its parameters: the one
/// after the subcommand wins, as for every other command (it used to be
/// refused as given twice).
#[test]
fn call_takes_the_node_given_after_the_subcommand_as_the_others_do() {
    let env = Env::new();
    let ctx = "00000000000000000000000000000000000000000000000000000000000000aa";
    let out = env
        .cmd()
        .args([
            "--node",
            "http://127.0.0.1:1",
            "call",
            "kv_store_get",
            "--key",
            "a",
        ])
        .args(["-c", ctx, "--dry-run", "--offline", "--apps", "examples"])
        .args(["--node", "http://127.0.0.1:9"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.starts_with("POST http://127.0.0.1:9/jsonrpc\n"),
        "{stdout}"
    );
}

#[test]
fn dry_run_prints_the_url_and_exact_body_and_sends_nothing() {
    let env = Env::new();
    let a = env
        .cmd()
        .args([
            "call",
            "typed_echo_numbers",
            "--small",
            "1",
            "--big",
            "18446744073709551615",
            "--neg",
            "-1",
            "--dry-run",
            "--as",
            "EXEC",
        ])
        .assert()
        .success();
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    let expected = format!(
        "POST {}/jsonrpc\n{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"execute\",\"params\":{{\"contextId\":\"{}\",\"method\":\"echo_numbers\",\"argsJson\":{{\"small\":1,\"big\":18446744073709551615,\"neg\":-1}},\"executorPublicKey\":\"EXEC\"}}}}\n",
        env.node.url,
        id(fake_node::CTX_TYPED)
    );
    assert_eq!(out, expected);
    assert!(env.node.executes().is_empty());
    // The reads it needs were made.
    assert!(
        env.node
            .requests()
            .iter()
            .any(|r| r.path.contains("/contexts/for-application/"))
    );
    let v = env.ok(&["call", "kv_store_len", "--dry-run", "--json", "-c", "prod"]);
    assert_eq!(v["url"], format!("{}/jsonrpc", env.node.url));
    assert_eq!(v["body"]["params"]["contextId"], id(fake_node::CTX_KV));
    assert!(env.node.executes().is_empty());
}

#[test]
fn a_dry_run_of_a_local_app_with_a_context_id_needs_no_network() {
    let home = tempfile::tempdir().unwrap();
    let closed = fake_node::closed_port_url();
    let ctx = hex_id(9);
    calimcp(home.path())
        .args(["--apps", "examples", "--node", &format!("{closed}/base/?token=s3cret")])
        .args(["call", "kv_store_set", "--key", "a", "--value", "b", "--dry-run", "-c", &ctx])
        .assert()
        .success()
        .stdout(format!(
            "POST {closed}/base/jsonrpc\n{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"execute\",\"params\":{{\"contextId\":\"{ctx}\",\"method\":\"set\",\"argsJson\":{{\"key\":\"a\",\"value\":\"b\"}}}}}}\n"
        ));
}

#[test]
fn as_adds_the_executor_public_key() {
    for p in VERSIONS {
        let env = Env::on(p);
        let me = env.node.id(fake_node::owner_seed(fake_node::CTX_KV));
        let a = env
            .cmd()
            .args(["call", "kv_store_len", "--as", &me])
            .assert()
            .success();
        let sent = &env.node.executes()[0].json()["params"];
        if p.rc83() {
            // rc.83 refuses the key (`deny_unknown_fields`) and runs every
            // call as its own identity: not sent, and said.
            assert!(sent.get("executorPublicKey").is_none(), "{sent}");
            assert!(stderr_of(&a).contains("was ignored"), "{}", stderr_of(&a));
        } else {
            assert_eq!(sent["executorPublicKey"], me.as_str(), "{p:?}");
        }
        env.ok(&["call", "kv_store_len"]);
        assert!(
            env.node.executes()[1].json()["params"]
                .get("executorPublicKey")
                .is_none()
        );
    }
}

#[test]
fn failures_are_decoded_with_exit_code_5() {
    for env in VERSIONS.map(Env::on) {
        let cases = [
            (
                "faults_boom",
                "error: `boom` returned an error: the key is missing",
            ),
            (
                "faults_panic",
                "error: `panic` failed: guest panicked: index out of bounds: the len is 0 but the index is 3 at src/lib.rs:10:5",
            ),
            ("faults_html", "- the node said: Internal Server Error"),
            ("faults_uninit", "has no state on this node yet"),
        ];
        for (tool, expected) in cases {
            env.cmd()
                .args(["call", tool])
                .assert()
                .code(5)
                .stdout("")
                .stderr(predicate::str::contains(expected));
        }
        // What the node is doing about it, from its sync_status.
        env.cmd()
        .args(["call", "faults_uninit"])
        .assert()
        .stderr(predicate::str::contains(
            "has no state on this node yet (the node answered Uninitialized; nothing ran): the node's last sync attempt failed; it tries again in 30 s (3 failed attempts; last error: No peers to sync with)",
        ))
        .stderr(predicate::str::contains("hint: no peer that is a member of the context is reachable"));
        // A node with no peers at all says that instead, and it is not worth a retry.
        env.node.set_peers(0);
        let a = env
            .cmd()
            .args(["call", "faults_uninit", "--json"])
            .assert()
            .code(5);
        let err = stderr_of(&a);
        assert!(err.contains("connected to no peers"), "{err}");
        assert!(err.contains("\"retryable\":false"), "{err}");
        env.node.set_peers(2);
        env.cmd()
        .args(["call", "faults_boom", "--json"])
        .assert()
        .code(5)
        .stderr("{\"error\":{\"code\":\"app_error\",\"message\":\"`boom` returned an error: the key is missing\",\"retryable\":false}}\n");
    }
}

#[test]
fn a_slow_node_times_out_with_exit_4() {
    let env = Env::new();
    let start = std::time::Instant::now();
    env.cmd()
        .args(["call", "faults_slow", "--timeout", "1"])
        .assert()
        .code(4)
        .stderr(predicate::str::contains("got no answer within 1 s"))
        .stderr(predicate::str::contains("may still have run"))
        .stderr(predicate::str::contains(
            "check the app's state before repeating",
        ));
    assert!(start.elapsed() < fake_node::SLOW);
}

#[test]
fn an_unreachable_node_is_exit_4_and_says_what_was_tried() {
    let home = tempfile::tempdir().unwrap();
    let closed = fake_node::closed_port_url();
    calimcp(home.path())
        .args(["call", "kv_store_get", "--key", "a", "--node", &closed])
        .assert()
        .code(4)
        .stderr(predicate::str::contains("no tool `kv_store_get`: no local apps (--apps), and the node could not be asked: cannot reach the node at"));
    // a local tool still needs the node for the call itself
    calimcp(home.path())
        .args([
            "--apps",
            "examples",
            "call",
            "kv_store_get",
            "--key",
            "a",
            "--node",
            &closed,
        ])
        .assert()
        .code(4)
        .stderr(predicate::str::contains(format!(
            "cannot reach the node at {closed}"
        )));
}

#[test]
fn an_app_without_an_embedded_abi_says_what_to_do() {
    // rc25 and rc83: the ABI route says so itself.
    for env in [Profile::Rc25, Profile::Rc83].map(Env::on) {
        let a = env
            .cmd()
            .args(["call", "com.old.legacy.get", "--key", "a"])
            .assert()
            .code(5)
            .stderr(predicate::str::contains("no usable embedded ABI"))
            // Both ways out: the ABI file with --apps, or a rebuild (issue 32).
            .stderr(predicate::str::contains("abi.json"))
            .stderr(predicate::str::contains("--apps DIR"))
            .stderr(predicate::str::contains("cargo mero build"));
        // The node's message says to rebuild: it is not said again (issue 44).
        let first = stderr_of(&a).lines().next().unwrap_or_default().to_string();
        assert_eq!(first.matches("cargo mero build").count(), 1, "{first}");
    }
    // rc4: no route; the module is read, and has no section.
    let env = Env::with(FakeNode::with_profile(Profile::Rc4));
    for name in ["com.old.legacy.get", "legacy_get"] {
        env.cmd()
            .args(["call", name, "--key", "a"])
            .assert()
            .code(5)
            .stderr(predicate::str::contains(
                "com.old.legacy has no ABI on the node at",
            ))
            .stderr(predicate::str::contains("ABI file"))
            .stderr(predicate::str::contains("rebuild the app"));
    }
    // Listing the node's apps: one warning for it, the others listed.
    let a = env.cmd().args(["apps"]).assert().success();
    let err = stderr_of(&a);
    assert_eq!(err.matches("com.old.legacy has no ABI").count(), 1, "{err}");
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    assert!(out.contains("com.calimero.kv-store"), "{out}");
}

#[test]
fn verbose_shows_where_each_abi_came_from() {
    let env = Env::with(FakeNode::with_profile(Profile::Rc4));
    let a = env
        .cmd()
        .args(["call", "kv_store_len", "-v"])
        .assert()
        .success();
    let err = stderr_of(&a);
    assert!(err.contains("the node has no ABI route"), "{err}");
    assert!(
        err.contains("ABI of com.calimero.kv-store: from its module (blob"),
        "{err}"
    );
    let a = env
        .cmd()
        .args(["call", "kv_store_len", "-v"])
        .assert()
        .success();
    let err = stderr_of(&a);
    assert!(
        err.contains("ABI of com.calimero.kv-store: from the cache"),
        "{err}"
    );
    for env in [Profile::Rc25, Profile::Rc83].map(Env::on) {
        let a = env
            .cmd()
            .args(["call", "kv_store_len", "-v"])
            .assert()
            .success();
        assert!(stderr_of(&a).contains("ABI of com.calimero.kv-store: from the node's ABI route"));
    }
}

#[test]
fn abis_are_cached_between_runs() {
    let env = Env::new();
    env.ok(&["call", "kv_store_len"]);
    let abi_reads = |env: &Env| {
        env.node
            .requests()
            .iter()
            .filter(|r| r.path.ends_with("/abi"))
            .count()
    };
    let first = abi_reads(&env);
    assert!(first >= 7, "every app's ABI is read once: {first}");
    env.ok(&["call", "kv_store_len"]);
    // Only the old node's app (which has no ABI to cache) is asked again.
    assert_eq!(abi_reads(&env), first + 1);
}

#[test]
fn a_base_path_in_the_node_url_is_kept() {
    let env = Env::with(FakeNode::builder().base_path("/proxy/mero").start());
    env.ok(&["call", "kv_store_len"]);
    assert!(
        env.node
            .requests()
            .iter()
            .all(|r| r.path.starts_with("/proxy/mero/"))
    );
    assert_eq!(env.node.executes().len(), 1);
}

#[test]
fn verbose_prints_requests_and_responses_on_stderr() {
    let env = Env::new();
    let a = env
        .cmd()
        .args(["call", "kv_store_len", "-v"])
        .assert()
        .success();
    let err = stderr_of(&a);
    assert!(
        err.contains(&format!("> POST {}/jsonrpc", env.node.url)),
        "{err}"
    );
    assert!(err.contains("< 200 OK"), "{err}");
    assert!(err.contains("\"method\":\"execute\""), "{err}");
    assert_eq!(String::from_utf8_lossy(&a.get_output().stdout), "0\n");
}

// ---- auth ----

fn all_output(a: &assert_cmd::assert::Assert) -> String {
    let o = a.get_output();
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn credentials_log_in_refresh_once_and_never_show() {
    let env = Env::with(FakeNode::builder().auth("admin", "hunter2-secret").start());
    let cmd = || {
        let mut c = env.cmd();
        c.env("CALIMERO_USERNAME", "admin")
            .env("CALIMERO_PASSWORD", "hunter2-secret");
        c
    };
    let mut seen = String::new();
    seen += &all_output(
        &cmd()
            .args(["call", "kv_store_len", "-v"])
            .assert()
            .success(),
    );
    assert_eq!(env.node.logins(), 1);
    env.node.expire_tokens();
    seen += &all_output(
        &cmd()
            .args(["call", "kv_store_len", "-v"])
            .assert()
            .success(),
    );
    assert_eq!(env.node.refreshes(), 1, "one refresh");
    assert_eq!(env.node.logins(), 1, "no second login");
    let refreshes: Vec<_> = env
        .node
        .requests()
        .into_iter()
        .filter(|r| r.path == "/auth/refresh")
        .collect();
    assert_eq!(refreshes.len(), 1);
    // the retried request carried the new token
    let tokens = env
        .node
        .requests()
        .iter()
        .filter_map(|r| r.header("authorization").map(str::to_string))
        .collect::<Vec<_>>();
    assert!(tokens.len() > 2);
    // the cache file is private
    let files: Vec<_> = std::fs::read_dir(env.home.path().join("state"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("tokens-")
        })
        .collect();
    assert_eq!(files.len(), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&files[0]).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    // no secret in any output, -v included
    let cached = std::fs::read_to_string(&files[0]).unwrap();
    let cached: Value = serde_json::from_str(&cached).unwrap();
    let secrets = [
        "hunter2-secret".to_string(),
        cached["access_token"].as_str().unwrap().to_string(),
        cached["refresh_token"].as_str().unwrap().to_string(),
    ];
    for t in &tokens {
        seen += &all_output(&cmd().args(["call", "faults_boom", "-v"]).assert().code(5));
        assert!(
            !seen.contains(t.trim_start_matches("Bearer ")),
            "a token leaked"
        );
    }
    for s in &secrets {
        assert!(!seen.contains(s.as_str()), "{s} leaked:\n{seen}");
    }
    assert!(seen.contains("Bearer ***"), "{seen}");
}

#[test]
fn auth_failures_are_exit_3_without_secrets() {
    support::side_by_side(&VERSIONS, |p| {
        let env = Env::with(
            FakeNode::builder()
                .profile(p)
                .auth("admin", "right")
                .start(),
        );
        let a = env
            .cmd()
            .env("CALIMERO_USERNAME", "admin")
            .env("CALIMERO_PASSWORD", "wrong-password")
            .args(["call", "kv_store_len", "-v"])
            .assert()
            .code(3);
        let out = all_output(&a);
        assert!(out.contains("Invalid username or password"), "{p:?}: {out}");
        assert!(!out.contains("wrong-password"), "{out}");
        env.cmd()
            .args(["call", "kv_store_len"])
            .assert()
            .code(3)
            .stderr(predicate::str::contains("CALIMERO_AUTH_TOKEN"));
        let a = env
            .cmd()
            .env("CALIMERO_AUTH_TOKEN", "not-a-real-token")
            .args(["call", "kv_store_len", "-v"])
            .assert()
            .code(3);
        assert!(!all_output(&a).contains("not-a-real-token"));
    });
}

#[test]
fn tokens_come_from_the_flag_the_environment_or_a_password_file() {
    let env = Env::with(FakeNode::builder().auth("admin", "from-file").start());
    let (access, _) = env.node.mint(1_800_000_000);
    env.cmd()
        .args(["call", "kv_store_len", "--token", &access])
        .assert()
        .success();
    assert_eq!(
        env.node.executes()[0].header("authorization"),
        Some(format!("Bearer {access}").as_str())
    );
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("pw");
    std::fs::write(&f, "from-file\n").unwrap();
    let home = tempfile::tempdir().unwrap();
    calimcp(home.path())
        .env("CALIMERO_NODE_URL", &env.node.url)
        .env("CALIMERO_USERNAME", "admin")
        .env("CALIMERO_PASSWORD_FILE", &f)
        .args(["call", "kv_store_len"])
        .assert()
        .success();
    assert_eq!(env.node.logins(), 1);
    // --help never shows a token taken from the environment
    env.cmd()
        .env("CALIMERO_AUTH_TOKEN", "env-token-value")
        .args(["call", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("env-token-value").not());
}

#[test]
fn use_pins_a_full_id_without_a_node_and_refuses_an_alias_offline() {
    let home = tempfile::tempdir().unwrap();
    let hex = "ab".repeat(32);
    let run = |args: &[&str]| {
        calimcp(home.path())
            .env("CALIMERO_NODE_URL", fake_node::closed_port_url())
            .args(["--apps", "examples"])
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["--offline", "use", "kv-store", "-c", &hex]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("without checking"));
    // No node answering: the same, with the reason.
    let out = run(&["use", "kv-store", "-c", &hex]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no node answered"));
    // The pin is used by a dry run.
    let out = run(&[
        "--offline",
        "call",
        "kv_store_get",
        "--key",
        "a",
        "--dry-run",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() || err.contains("offline"), "{err}");
    let out = run(&["--offline", "use", "kv-store", "-c", "an-alias"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("aliases are looked up on the node"));
}

// ---- issue 24 §13 and §9: what --args, @FILE and - read ----

/// `--args @FILE`, `--args -` and `@FILE` values are read at most
/// `CALIMCP_MAX_ARGS` bytes; a FIFO nobody writes to is refused at once
/// instead of waited on; a pipe with a writer (`@/dev/stdin`) still works; a
/// key given twice is refused. Nothing reaches the node in any refused case.
#[cfg(target_os = "linux")]
#[test]
fn indirect_arguments_are_bounded_and_never_hang() {
    let env = Env::new();
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(
        &big,
        format!(r#"{{"key":"a","value":"{}"}}"#, "x".repeat(4096)),
    )
    .unwrap();
    let bounded = |args: &[&str], stdin: &str| {
        let a = env
            .cmd()
            .env("CALIMCP_MAX_ARGS", "1K")
            .args(args)
            .write_stdin(stdin.to_string())
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2);
        stderr_of(&a)
    };
    let at = format!("@{}", big.display());
    let e = bounded(&["call", "kv_store_set", "--args", &at], "");
    assert!(e.contains("CALIMCP_MAX_ARGS"), "{e}");
    let e = bounded(&["call", "kv_store_set", "--args", "-"], &"x".repeat(4096));
    assert!(e.contains("CALIMCP_MAX_ARGS"), "{e}");
    let fifo = dir.path().join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let e = bounded(
        &[
            "call",
            "kv_store_set",
            "--args",
            &format!("@{}", fifo.display()),
        ],
        "",
    );
    assert!(e.contains("nobody writing"), "{e}");
    let e = bounded(
        &[
            "call",
            "kv_store_set",
            "--args",
            r#"{"key":"a","key":"b","value":"c"}"#,
        ],
        "",
    );
    assert!(e.contains(r#""key""#) && e.contains("twice"), "{e}");
    assert!(env.node.executes().is_empty(), "nothing was sent");
    // A pipe that has a writer is read as before.
    env.cmd()
        .args(["call", "kv_store_set", "--args", "@/dev/stdin"])
        .write_stdin(r#"{"key":"p","value":"q"}"#)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .success();
    assert_eq!(env.last_args(), json!({"key": "p", "value": "q"}));
}

/// rc.25's transient answers are retryable and say so; a caller that is not
/// a member is an authorization error (issue 20.5).
#[test]
fn transient_node_errors_are_retryable_and_membership_is_exit_3() {
    for env in VERSIONS.map(Env::on) {
        let ctx = env.node.id(fake_node::CTX_KV);
        let set = [
            "call",
            "kv_store_set",
            "--key",
            "a",
            "--value",
            "1",
            "-c",
            "prod",
            "--json",
        ];
        let error_of = |a: &assert_cmd::assert::Assert| -> Value {
            serde_json::from_str(stderr_of(a).lines().last().unwrap()).unwrap()
        };
        env.node
            .fail_next_execute(json!({"type": "GroupKeyPending", "data": {"context_id": ctx}}));
        let a = env.cmd().args(set).assert().code(5);
        let e = error_of(&a);
        assert_eq!(e["error"]["code"], "group_key_pending", "{e}");
        assert_eq!(e["error"]["retryable"], true);
        env.node.fail_next_execute(
            json!({"type": "UpgradeInProgress", "data": {"group_id": "ab".repeat(32)}}),
        );
        let a = env.cmd().args(set).assert().code(5);
        assert_eq!(error_of(&a)["error"]["retryable"], true);
        env.node.fail_next_execute(
            json!({"type": "FunctionCallError", "data": "Caller is not a member of this context"}),
        );
        let a = env.cmd().args(set).assert().code(3);
        let e = error_of(&a);
        assert_eq!(e["error"]["code"], "not_a_member", "{e}");
        assert_eq!(e["error"]["retryable"], false);
        // Nothing ran: the store is untouched, and the next call goes through.
        assert!(env.node.kv(&ctx).is_empty());
        env.cmd().args(set).assert().success();
    }
}

/// `--wait-event` when the stream ends after the call ran: the result is
/// printed and the exit code (6) does not say "nothing happened" (24.6).
#[test]
fn a_stream_that_ends_after_the_call_still_prints_the_result() {
    let env = Env::new();
    env.node.sse_faults(|f| f.close_after_execute = true);
    let a = env
        .cmd()
        .args([
            "call",
            "kv_store_set",
            "--key",
            "a",
            "--value",
            "1",
            "-c",
            "prod",
            "--json",
            "--wait-event",
            "Inserted",
            "--wait-timeout",
            "30",
        ])
        .assert()
        .code(6);
    let out: Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    assert_eq!(out["result"], Value::Null, "{out}");
    assert_eq!(out["event"], Value::Null, "{out}");
    let err = stderr_of(&a);
    assert!(err.contains("the call succeeded"), "{err}");
    assert!(err.contains("server shutting down"), "{err}");
    // Exit 6 comes from the error printed (the one error line), its hint a field.
    let line: Value = err
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|l| l.get("error").is_some())
        .unwrap_or_else(|| panic!("no error line: {err}"));
    assert!(
        line["error"]["hint"]
            .as_str()
            .is_some_and(|h| h.starts_with("do not repeat the call")),
        "{line}"
    );
    assert!(
        !line["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("hint"),
        "{line}"
    );
    assert_eq!(env.node.kv(&env.node.id(fake_node::CTX_KV))["a"], "1");
}

/// A node that never starts its event stream: `--wait-event` gives up within
/// --wait-timeout, before anything is called (24.4).
#[test]
fn wait_event_is_bounded_when_the_stream_never_starts() {
    let env = Env::new();
    env.node.sse_faults(|f| f.never_connect = true);
    env.cmd()
        .args([
            "call",
            "kv_store_set",
            "--key",
            "a",
            "--value",
            "1",
            "-c",
            "prod",
            "--wait-event",
            "Inserted",
            "--wait-timeout",
            "0.5",
        ])
        .assert()
        .code(4)
        .stderr(predicate::str::contains("was not called"));
    assert!(env.node.executes().is_empty());
}

/// A node that quotes the password back, escaped, in JSON: `-v` and the
/// error show it in no form (24.11).
#[test]
fn credentials_a_node_echoes_escaped_are_masked() {
    let env = Env::with(FakeNode::builder().auth("admin", "hunter2").start());
    env.node.echo_credentials();
    let password = r#"Zq"Xv\Jk"#;
    let a = env
        .cmd()
        .env("CALIMERO_USERNAME", "admin")
        .env("CALIMERO_PASSWORD", password)
        .args(["-v", "call", "kv_store_get", "--key", "a", "-c", "prod"])
        .assert()
        .code(3);
    let err = stderr_of(&a);
    assert!(err.contains("no user"), "the echo is there: {err}");
    for form in [password, "Zq", "Jk"] {
        assert!(!err.contains(form), "{form} in: {err}");
    }
}

// ---- issue 22.11: an unknown parameter flag ----

#[test]
fn an_unknown_parameter_is_named_with_the_methods_parameters() {
    let env = Env::new();
    // `--c` is close to nothing the method takes: clap would tip `--color`
    // (a global hidden from the tool's help), which is not the point.
    let a = env
        .cmd()
        .args(["call", "kv_store_set", "--c", "3"])
        .assert()
        .code(2);
    let err = stderr_of(&a);
    assert!(
        err.contains("`set` has no parameter `c`")
            && err.contains("its parameters: --key (string), --value (string)"),
        "{err}"
    );
    assert!(!err.contains("--color"), "{err}");
    assert!(err.contains("calimcp call kv_store_set --help"), "{err}");
    // In --json, the same as one error with the usage code.
    let a = env
        .cmd()
        .args(["call", "kv_store_set", "--c=3", "--json"])
        .assert()
        .code(2);
    let line: Value = serde_json::from_str(stderr_of(&a).trim()).unwrap();
    assert_eq!(line["error"]["code"], "usage");
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`set` has no parameter `c`"),
        "{line}"
    );
    // A method without parameters says so.
    let a = env
        .cmd()
        .args(["call", "kv_store_len", "--key", "a"])
        .assert()
        .code(2);
    assert!(
        stderr_of(&a).contains("`len` takes no parameters"),
        "{}",
        stderr_of(&a)
    );
    assert!(env.node.executes().is_empty());
}

// ---- issue 22.4: call VIEW --until ----

#[test]
fn until_repeats_a_view_until_the_result_equals_the_value() {
    let env = Env::new();
    let ctx = env.node.id(fake_node::CTX_KV);
    // Another node's write arrives (by sync) before the third try.
    env.node.write_at_execute(&ctx, 3, "k", "done");
    let a = env
        .cmd()
        .args([
            "call",
            "kv_store_get",
            "--key",
            "k",
            "--until",
            "done",
            "--every",
            "0.01",
            "-v",
        ])
        .assert()
        .success();
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    assert_eq!(out.trim(), "\"done\"", "the final result, once");
    assert_eq!(env.node.executes().len(), 3, "tried until it came");
    let err = stderr_of(&a);
    assert!(
        err.contains("try 1: null (not yet)") && err.contains("try 3: \"done\""),
        "-v shows each try: {err}"
    );
    // JSON values compare as JSON; at once when it already holds.
    env.node.clear_requests();
    env.ok(&["call", "kv_store_get", "--key", "k", "--until", "\"done\""]);
    assert_eq!(env.node.executes().len(), 1);
}

#[test]
fn until_path_compares_part_of_the_result() {
    let env = Env::new();
    let ctx = env.node.id(fake_node::CTX_KV);
    env.node.write_at_execute(&ctx, 2, "a", "1");
    env.node.write_at_execute(&ctx, 4, "b", "2");
    for path in ["b=2", "/b=\"2\""] {
        let v = env.ok(&[
            "call",
            "kv_store_entries",
            "--until-path",
            path,
            "--every",
            "0.01",
        ]);
        assert_eq!(v, json!({"a": "1", "b": "2"}), "{path}");
    }
    assert_eq!(
        env.node.executes().len(),
        5,
        "4 tries, then 1 for the pointer"
    );
}

#[test]
fn until_gives_up_after_within_with_exit_124_and_the_last_result() {
    let env = Env::new();
    let a = env
        .cmd()
        .args([
            "call",
            "kv_store_get",
            "--key",
            "never",
            "--until",
            "x",
            "--every",
            "0.05",
            "--within",
            "0.3",
        ])
        .assert()
        .code(124);
    assert_eq!(
        String::from_utf8_lossy(&a.get_output().stdout).trim(),
        "null",
        "the last result"
    );
    let err = stderr_of(&a);
    assert!(
        err.contains("`get` did not return a result equal to x within 0.3 s"),
        "{err}"
    );
    let tries = env.node.executes().len();
    assert!((2..=7).contains(&tries), "{tries} tries");
    // --json: the one error line says `timeout`, the code 124 is its kind's.
    let a = env
        .cmd()
        .args(["call", "kv_store_get", "--key", "never", "--until", "x"])
        .args(["--every", "0.05", "--within", "0.1", "--json"])
        .assert()
        .code(124);
    let err = stderr_of(&a);
    let line: serde_json::Value =
        serde_json::from_str(err.trim()).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(line["error"]["code"], "timeout", "{err}");
    assert!(
        line["error"]["hint"]
            .as_str()
            .is_some_and(|h| h.contains("--within")),
        "{err}"
    );
}

#[test]
fn until_refuses_mut_methods_and_stray_repeat_flags() {
    let env = Env::new();
    let a = env
        .cmd()
        .args([
            "call",
            "kv_store_set",
            "--key",
            "a",
            "--value",
            "b",
            "--until",
            "null",
        ])
        .assert()
        .code(2);
    let err = stderr_of(&a);
    assert!(
        err.contains("`set` is [mut]") && err.contains("nothing was sent"),
        "{err}"
    );
    let a = env
        .cmd()
        .args(["call", "kv_store_get", "--key", "a", "--within", "3"])
        .assert()
        .code(2);
    assert!(stderr_of(&a).contains("--every and --within go with --until"));
    let a = env
        .cmd()
        .args([
            "call",
            "kv_store_get",
            "--key",
            "a",
            "--until-path",
            "nothing",
        ])
        .assert()
        .code(2);
    assert!(stderr_of(&a).contains("--until-path takes PATH=VALUE"));
    env.cmd()
        .args([
            "call",
            "kv_store_get",
            "--key",
            "a",
            "--until",
            "1",
            "--dry-run",
        ])
        .assert()
        .code(2);
    assert!(env.node.executes().is_empty());
}

// ---- issue 20 (optional): call --retry N ----

#[test]
fn retry_repeats_only_what_the_node_marks_retryable() {
    let env = Env::new();
    let ctx = env.node.id(fake_node::CTX_KV);
    let pending = json!({"type": "GroupKeyPending", "data": {"context_id": ctx}});
    // Two refusals that say nothing ran, then the [mut] call goes through.
    env.node.fail_next_execute(pending.clone());
    env.node.fail_next_execute(pending.clone());
    let a = env
        .cmd()
        .args([
            "call",
            "kv_store_set",
            "--key",
            "a",
            "--value",
            "1",
            "-c",
            "prod",
            "--retry",
            "2",
        ])
        .assert()
        .success();
    assert!(
        stderr_of(&a).contains("(retry 2 of 2 in 1 s)"),
        "{}",
        stderr_of(&a)
    );
    assert_eq!(env.node.executes().len(), 3);
    assert_eq!(env.node.kv(&ctx)["a"], "1");
    // Out of retries: the node's error, as without --retry.
    env.node.clear_requests();
    env.node.fail_next_execute(pending.clone());
    env.node.fail_next_execute(pending);
    let a = env
        .cmd()
        .args([
            "call",
            "kv_store_get",
            "--key",
            "a",
            "--retry",
            "1",
            "--json",
        ])
        .assert()
        .code(5);
    assert!(
        stderr_of(&a).contains("group_key_pending"),
        "{}",
        stderr_of(&a)
    );
    assert_eq!(env.node.executes().len(), 2);
    // An error that is not retryable is not repeated.
    env.node.clear_requests();
    env.node.fail_next_execute(
        json!({"type": "FunctionCallError", "data": "Caller is not a member of this context"}),
    );
    env.cmd()
        .args(["call", "kv_store_get", "--key", "a", "--retry", "3"])
        .assert()
        .code(3);
    assert_eq!(env.node.executes().len(), 1);
    env.cmd()
        .args(["call", "kv_store_get", "--key", "a", "--retry", "21"])
        .assert()
        .code(2);
}

// ---- issue 27: one engine; decisions follow the version the context runs ----

/// `com.example.events`: `insert` is [mut] in 0.1.0 and [view] in 0.2.0
/// (the newest, which names and lists the tools); `count` is new in 0.2.0.
fn events_abi(v2: bool) -> Value {
    let intent = if v2 { "read_only" } else { "mutating" };
    let mut methods = vec![json!({"name": "insert",
        "params": [{"name": "key", "type": {"kind": "string"}}],
        "returns": {"kind": "string"}, "intent": intent})];
    if v2 {
        methods.push(json!({"name": "count", "params": [], "returns": {"kind": "u32"}, "intent": "read_only"}));
    }
    json!({"schema_version": "wasm-abi/1", "types": {}, "events": [], "methods": methods})
}

/// Both versions installed (rc.25: one application each), a context on
/// each: `(context on 0.1.0, context on 0.2.0)`.
fn two_versions(env: &Env) -> (String, String) {
    let (_, old) = env
        .node
        .install_version("com.example.events", "0.1.0", events_abi(false));
    let (_, new) = env
        .node
        .install_version("com.example.events", "0.2.0", events_abi(true));
    (old, new)
}

#[test]
fn until_follows_the_kind_the_method_has_in_the_contexts_version() {
    let env = Env::new();
    let (old, new) = two_versions(&env);
    let insert = ["call", "events_insert", "--key", "a", "--until", "never"];
    let a = env
        .cmd()
        .args(insert)
        .args(["--within", "4", "-c", &old])
        .assert()
        .code(2);
    let err = stderr_of(&a);
    assert!(
        err.contains("`insert` is [mut] in version 0.1.0") && err.contains("nothing was sent"),
        "{err}"
    );
    assert!(env.node.executes().is_empty(), "nothing executed");
    // The same tool in a context on 0.2.0, where it only reads: repeated.
    env.ok(&[
        "call",
        "events_insert",
        "--key",
        "a",
        "--until-path",
        "key=a",
        "-c",
        &new,
    ]);
    assert_eq!(env.node.executes().len(), 1);
}

#[test]
fn retry_follows_the_kind_the_method_has_in_the_contexts_version() {
    let env = Env::new();
    let (old, new) = two_versions(&env);
    // A 503 may come after a [mut] call ran: in 0.1.0 it is not repeated.
    env.node.answer_next_execute(503);
    env.cmd()
        .args(["call", "events_insert", "--key", "a", "-c", &old])
        .args(["--retry", "3"])
        .assert()
        .code(5);
    assert_eq!(env.node.executes().len(), 1, "a [mut] call is not repeated");
    // In 0.2.0 it only reads: repeated after the 503.
    env.node.clear_requests();
    env.node.answer_next_execute(503);
    let a = env
        .cmd()
        .args(["call", "events_insert", "--key", "a", "-c", &new])
        .args(["--retry", "3"])
        .assert()
        .success();
    assert!(stderr_of(&a).contains("(retry 1 of 3"), "{}", stderr_of(&a));
    assert_eq!(env.node.executes().len(), 2);
}

// ---- issue 27.7: waits and retries as documented ----

#[test]
fn until_tries_at_the_start_and_at_the_deadline_when_every_exceeds_within() {
    let env = Env::new();
    let a = env
        .cmd()
        .args(["call", "kv_store_get", "--key", "never", "--until", "x"])
        .args(["--every", "10", "--within", "1"])
        .assert()
        .code(124);
    let err = stderr_of(&a);
    assert_eq!(env.node.executes().len(), 2, "{err}");
    assert!(err.contains("within 1 s (2 tries, "), "{err}");
}

#[test]
fn within_bounds_finding_the_context_too() {
    let env = Env::new();
    let ctx = env.node.id(fake_node::CTX_KV);
    env.node
        .delay_context_lookups(std::time::Duration::from_secs(8));
    let started = std::time::Instant::now();
    let a = env
        .cmd()
        .args(["call", "kv_store_get", "--key", "k", "--until", "x"])
        .args(["--within", "1", "-c", &ctx])
        .assert()
        .code(124);
    let err = stderr_of(&a);
    assert!(
        err.contains("finding the context did not finish within 1 s (0 tries"),
        "{err}"
    );
    assert!(env.node.executes().is_empty());
    // Generous: far less than the node's delay.
    assert!(started.elapsed() < std::time::Duration::from_secs(6));
}

#[test]
fn retry_retries_a_refused_connection() {
    let env = Env::new();
    let closed = fake_node::closed_port_url();
    let a = env
        .cmd()
        .args(["call", "kv_store_get", "--key", "a", "--apps", "examples"])
        .args(["--node", &closed, "--retry", "2"])
        .assert()
        .code(4);
    let err = stderr_of(&a);
    assert!(
        err.contains("(retry 1 of 2 in 0.5 s)") && err.contains("(retry 2 of 2 in 1 s)"),
        "{err}"
    );
}

/// Nothing listens at the default address (skipped when something does).
fn default_address_is_free() -> bool {
    std::net::TcpStream::connect("127.0.0.1:2528").is_err()
}

#[test]
fn an_absent_node_is_not_an_empty_one() {
    if !default_address_is_free() {
        eprintln!("skipped: something listens at 127.0.0.1:2528");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let closed = fake_node::closed_port_url();
    for node in [None, Some(closed.as_str())] {
        for args in [&["contexts"][..], &["apps"]] {
            let mut cmd = calimcp(home.path());
            if let Some(url) = node {
                cmd.args(["--node", url]);
            }
            let a = cmd.args(args).arg("--json").assert().code(4);
            let err = stderr_of(&a);
            assert!(err.contains("\"unreachable\""), "{node:?} {args:?}: {err}");
            assert!(a.get_output().stdout.is_empty(), "{node:?} {args:?}");
        }
    }
}

#[test]
fn method_not_in_version_names_the_context_as_typed() {
    let env = Env::new();
    let (old, _) = two_versions(&env);
    env.node.add_alias("legacy", &old);
    let a = env
        .cmd()
        .args(["call", "events_count", "-c", "legacy"])
        .assert()
        .code(2);
    let err = stderr_of(&a);
    assert!(
        err.contains(&format!(
            "context legacy ({old}) runs com.example.events 0.1.0"
        )),
        "{err}"
    );
    assert!(env.node.executes().is_empty());
}

/// merod 0.11.0-rc.83 runs a write read-only and discards it on a node that
/// is a read-only member of the context: its own code (exit 5, never
/// retryable), words that say what happened and why, and a hint — not the
/// raw type (`rpc_error`).
#[test]
fn a_write_the_node_ran_read_only_and_discarded_is_said_so() {
    let env = Env::on(Profile::Rc83);
    let ctx = env.node.id(fake_node::CTX_KV);
    env.node.refuse_next_write_read_only(&ctx);
    let a = env
        .cmd()
        .args([
            "call",
            "kv_store_set",
            "--key",
            "a",
            "--value",
            "1",
            "-c",
            "prod",
            "--json",
        ])
        .assert()
        .code(5);
    let err = stderr_of(&a);
    let e: Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    assert_eq!(e["error"]["code"], "read_only_write_refused", "{e}");
    assert_eq!(e["error"]["retryable"], false, "{e}");
    let msg = e["error"]["message"].as_str().unwrap();
    for words in [
        "ran `set` read-only",
        "discarded its write",
        "read-only member",
        &ctx,
    ] {
        assert!(msg.contains(words), "{words}: {msg}");
    }
    assert!(!msg.contains("ReadOnlyWriteRefused"), "{msg}");
    assert!(
        e["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("writing member"),
        "{e}"
    );
    support::json_schema::assert_valid("error", &e);
    // The node's answer is the recorded body, byte for byte.
    let id = json!(1);
    assert_eq!(
        support::wire::rc83_read_only_write_refused(&id, &ctx),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"error":{{"type":"ReadOnlyWriteRefused","data":{{"context_id":"{ctx}"}}}}}}"#
        )
    );
}

/// A nullable parameter's flag takes `null` as JSON null, whatever its kind
/// (an i32, a bool, a string); a required one keeps `null` as its value.
#[test]
fn a_nullable_parameter_flag_sends_json_null() {
    let env = Env::new();
    let v = env.ok(&[
        "call",
        "typed_echo_numbers",
        "--small",
        "1",
        "--big",
        "2",
        "--neg",
        "-1",
        "--delta",
        "null",
        "--flag",
        "null",
        "--dry-run",
        "--json",
    ]);
    let args = &v["body"]["params"]["argsJson"];
    assert_eq!(args["delta"], Value::Null, "{v}");
    assert_eq!(args["flag"], Value::Null, "{v}");
    assert!(args.as_object().unwrap().contains_key("delta"), "{v}");
    let v = env.ok(&[
        "call",
        "typed_echo_strings",
        "--param-json",
        "null",
        "--service",
        "null",
        "--dry-run",
        "--json",
    ]);
    let args = &v["body"]["params"]["argsJson"];
    assert_eq!(args["service"], Value::Null, "{v}");
    assert_eq!(args["json"], "null", "a required string stays literal: {v}");
    let out = env
        .cmd()
        .args(["call", "typed_echo_numbers", "--help"])
        .assert()
        .success()
        .get_output()
        .clone();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("null sends JSON null"), "{help}");
}
