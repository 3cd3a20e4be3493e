//! `calimcp serve` over stdio with local apps only (no node): the handshake,
//! tools/list against `tools --json`, validation, the fixed tools, filters,
//! garbage input and shutdown. Driven by rmcp's own client, or raw JSON lines
//! where the point is the wire.

use crate::support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use support::serve::*;

const KV: (&str, &str) = ("apps-kv-store.json", "kv-store.json");
const CONFORMANCE: (&str, &str) = ("core-abi-conformance.json", "conformance.json");
const SCAFFOLD: (&str, &str) = ("mero-mcp-scaffolding-e2e.json", "scaffolding.json");

#[tokio::test]
async fn initialize_names_calimcp_and_says_how_to_start() {
    let Some(fx) = fixtures("initialize_names_calimcp_and_says_how_to_start") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV]);
    let client = stdio_client(&["--apps", apps.path().to_str().unwrap()]).await;
    let info = client.peer().peer_info().expect("server info");
    let server = info.server_info.clone().expect("serverInfo");
    assert_eq!(server.name, "calimcp");
    assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
    let instructions = info.instructions.clone().unwrap_or_default();
    let (d, s) = (
        instructions.find("describe_app").unwrap(),
        instructions.find("select_app").unwrap(),
    );
    assert!(
        d < s,
        "describe_app comes before select_app: {instructions}"
    );
    let tools = info.capabilities.tools.as_ref().expect("tools capability");
    assert_eq!(tools.list_changed, Some(true));
    client.cancel().await.unwrap();
}

/// tools/list is exactly `calimcp tools --json` for the same apps and options,
/// plus the fixed tools, sorted by name.
#[tokio::test]
async fn tools_list_equals_tools_json() {
    let Some(fx) = fixtures("tools_list_equals_tools_json") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV, CONFORMANCE, SCAFFOLD]);
    let dir = apps.path().to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec![],
        vec!["--read-only"],
        vec![
            "--allow",
            "kv_store_*",
            "--allow",
            "*_echo_*",
            "--deny",
            "*_u32",
        ],
        vec!["--app", "kv-store", "--app", "conformance"],
        vec!["--app", "scaffolding", "--read-only", "--deny", "*_get*"],
        vec!["--refs", "defs", "--max-name-len", "24"],
    ];
    for extra in cases {
        let mut args = vec!["--apps", dir];
        args.extend(&extra);
        let client = stdio_client(&args).await;
        let all = client.peer().list_all_tools().await.unwrap();
        let names: Vec<&str> = all.iter().map(|t| t.name.as_ref()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "sorted by name ({extra:?})");
        // The fixed tools pass --allow/--deny too.
        let fixed_listed = names.contains(&"describe_app") && names.contains(&"select_app");
        assert_eq!(fixed_listed, !extra.contains(&"--allow"), "{extra:?}");
        let listed = listed_app_tools(&client).await;
        let mut tools_args = vec!["tools", "--json"];
        tools_args.extend(&args);
        let expected = run_json(&tools_args);
        assert_eq!(listed, expected, "serve {extra:?} vs tools --json");
        assert!(
            !listed.as_array().unwrap().is_empty(),
            "{extra:?} lists something"
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn invalid_arguments_are_an_error_result_naming_each_argument() {
    let Some(fx) = fixtures("invalid_arguments") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV]);
    let client = stdio_client(&["--apps", apps.path().to_str().unwrap()]).await;
    let r = call(&client, "kv_store_set", json!({"key": 5, "valu": "x"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    let t = text(&r);
    assert!(t.contains("Invalid arguments for kv_store_set"), "{t}");
    assert!(t.contains("key: expected a string, got an integer"), "{t}");
    assert!(
        t.contains("valu: unknown argument; did you mean `value`?"),
        "{t}"
    );
    assert!(t.contains("value: missing required argument"), "{t}");
    // Not an object at all.
    let r = call(&client, "kv_store_len", json!({"_context": 7}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("_context"), "{}", text(&r));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn unknown_tool_is_a_protocol_error() {
    let Some(fx) = fixtures("unknown_tool") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV]);
    let client = stdio_client(&["--apps", apps.path().to_str().unwrap()]).await;
    let err = call(&client, "store_get", json!({})).await.unwrap_err();
    let rmcp::ServiceError::McpError(e) = err else {
        panic!("expected a JSON-RPC error, got {err:?}");
    };
    assert_eq!(e.code.0, -32602);
    assert!(
        e.message.contains("did you mean `kv_store_get`"),
        "{}",
        e.message
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn valid_call_offline_says_why_it_cannot_run() {
    let Some(fx) = fixtures("valid_call_without_a_node") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV]);
    let client = stdio_client(&["--apps", apps.path().to_str().unwrap()]).await;
    let r = call(&client, "kv_store_get", json!({"key": "a"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("--offline"), "{}", text(&r));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn read_only_refuses_mutating_tools_even_by_name() {
    let Some(fx) = fixtures("read_only") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV]);
    let client = stdio_client(&["--apps", apps.path().to_str().unwrap(), "--read-only"]).await;
    let names: Vec<String> = client
        .peer()
        .list_all_tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(names.contains(&"kv_store_get".to_string()));
    assert!(!names.contains(&"kv_store_set".to_string()));
    let err = call(&client, "kv_store_set", json!({"key": "a", "value": "b"}))
        .await
        .unwrap_err();
    let rmcp::ServiceError::McpError(e) = err else {
        panic!("expected a refusal, got {err:?}");
    };
    assert!(e.message.contains("--read-only"), "{}", e.message);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn deny_wins_over_allow() {
    let Some(fx) = fixtures("deny_wins_over_allow") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV]);
    let dir = apps.path().to_str().unwrap();
    let client = stdio_client(&["--apps", dir, "--allow", "kv_store_*", "--deny", "*_clear"]).await;
    let names: Vec<String> = listed_app_tools(&client)
        .await
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.contains(&"kv_store_set".to_string()));
    assert!(!names.contains(&"kv_store_clear".to_string()));
    let err = call(&client, "kv_store_clear", json!({}))
        .await
        .unwrap_err();
    let rmcp::ServiceError::McpError(e) = err else {
        panic!("expected a refusal, got {err:?}");
    };
    assert!(e.message.contains("--allow/--deny"), "{}", e.message);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn describe_app_lists_apps_then_signatures_and_tools() {
    let Some(fx) = fixtures("describe_app") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV, CONFORMANCE]);
    let client = stdio_client(&["--apps", apps.path().to_str().unwrap(), "--read-only"]).await;
    let r = call(&client, "describe_app", json!({})).await.unwrap();
    assert_eq!(r.is_error, Some(false));
    let listing: Value = serde_json::from_str(&text(&r)).unwrap();
    let packages: Vec<&str> = listing["apps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["package"].as_str().unwrap())
        .collect();
    assert_eq!(packages, ["conformance", "kv-store"]);

    let r = call(&client, "describe_app", json!({"app": "kv-store"}))
        .await
        .unwrap();
    let d: Value = serde_json::from_str(&text(&r)).unwrap();
    let get = d["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "get")
        .unwrap();
    assert_eq!(get["tool"], "kv_store_get");
    assert_eq!(get["signature"], "[view] get(key: string) -> string");
    // --read-only: set has no tool here, and the note says why.
    let set = d["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "set")
        .unwrap();
    assert_eq!(set["tool"], Value::Null);
    assert!(d["note"].as_str().unwrap().contains("--read-only"));

    let r = call(&client, "describe_app", json!({"app": "nope"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("no app named `nope`"), "{}", text(&r));
    let r = call(&client, "describe_app", json!({"app": 3}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("app: expected a string"), "{}", text(&r));
    client.cancel().await.unwrap();
}

/// describe_app answers with structuredContent (the same JSON as its text)
/// for every app, and in the shapes the CLI prints: a listed app has every
/// field of its `apps --json` row, a described one every field of `describe
/// --json` (the app's fields, its methods and events).
#[tokio::test]
async fn describe_app_is_structured_and_shaped_as_the_cli_prints() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let client = stdio_client(&["--apps", examples]).await;
    let structured = |r: &rmcp::model::CallToolResult| {
        let v = r.structured_content.clone().expect("structuredContent");
        assert_eq!(v, serde_json::from_str::<Value>(&text(r)).unwrap());
        v
    };
    // `a` has every field of `b`, with the same value.
    let has_all = |a: &Value, b: &Value, what: &str| {
        for (k, v) in b.as_object().unwrap() {
            assert_eq!(&a[k], v, "{what}: `{k}` differs: {a} vs {b}");
        }
    };
    let listing = structured(&call(&client, "describe_app", json!({})).await.unwrap());
    let rows = run_json(&["--apps", examples, "apps", "--json"]);
    for row in rows.as_array().unwrap() {
        let listed = listing["apps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == row["id"])
            .unwrap_or_else(|| panic!("{row} not listed: {listing}"));
        has_all(listed, row, "listing");
    }
    for app in ["kv-store", "com.example.notebook"] {
        let r = call(&client, "describe_app", json!({"app": app}))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{}", text(&r));
        let d = structured(&r);
        let cli = run_json(&["--apps", examples, "describe", app, "--json"]);
        match cli {
            Value::Array(services) => {
                let mcp = d["services"].as_array().expect("services");
                assert_eq!(mcp.len(), services.len());
                for (m, c) in mcp.iter().zip(&services) {
                    has_all(m, c, app);
                }
            }
            one => has_all(&d, &one, app),
        }
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn select_app_offline_returns_the_tools() {
    let Some(fx) = fixtures("select_app_without_a_node") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV]);
    let client = stdio_client(&["--apps", apps.path().to_str().unwrap()]).await;
    let r = call(&client, "select_app", json!({"app": "kv_store"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let v: Value = serde_json::from_str(&text(&r)).unwrap();
    assert_eq!(v["context"], Value::Null);
    assert!(
        v["tools"]
            .as_array()
            .unwrap()
            .contains(&json!("kv_store_set"))
    );
    assert!(v["note"].as_str().unwrap().contains("--offline"));
    let r = call(&client, "select_app", json!({})).await.unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("app: missing required argument"));
    client.cancel().await.unwrap();
}

#[test]
fn an_app_filter_naming_nothing_fails_at_start_when_offline() {
    let Some(fx) = fixtures("app_filter_naming_nothing") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV]);
    let args = [
        "serve",
        "--apps",
        apps.path().to_str().unwrap(),
        "--app",
        "nope",
    ];
    let out = isolate(&mut Command::new(BIN), &args)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no app named `nope`"));
}

#[test]
fn nothing_to_serve_is_an_error() {
    let empty = tempfile::tempdir().unwrap();
    let args = ["serve", "--apps", empty.path().to_str().unwrap()];
    let out = isolate(&mut Command::new(BIN), &args)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to serve"));
}

/// A raw session: JSON lines in, JSON lines out.
struct Raw {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Raw {
    fn start(args: &[&str]) -> Raw {
        let mut child = isolate(&mut Command::new(BIN), args)
            .arg("serve")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Raw {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn recv(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"))
    }

    fn initialize(&mut self) {
        self.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#);
        assert_eq!(self.recv()["id"], 0);
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    }

    /// Closes stdin and waits (bounded) for the exit status.
    fn finish(mut self) -> Option<i32> {
        drop(self.stdin.take());
        wait_exit(&mut self.child)
    }
}

fn wait_exit(child: &mut std::process::Child) -> Option<i32> {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("calimcp serve did not exit");
        }
        std::thread::park_timeout(Duration::from_millis(20));
    }
}

#[test]
fn garbage_line_gets_a_parse_error_and_the_server_keeps_serving() {
    let Some(fx) = fixtures("garbage_line") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV]);
    let mut raw = Raw::start(&["--apps", apps.path().to_str().unwrap()]);
    raw.initialize();
    raw.send("this is not JSON {");
    let err = raw.recv();
    assert_eq!(err["id"], Value::Null);
    assert_eq!(err["error"]["code"], -32700);
    raw.send(r#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":5}}"#);
    let err = raw.recv();
    assert_eq!(err["id"], "x");
    assert_eq!(err["error"]["code"], -32602);
    raw.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#);
    let list = raw.recv();
    assert_eq!(list["id"], 2);
    assert!(list["result"]["tools"].as_array().unwrap().len() > 2);
    assert_eq!(raw.finish(), Some(0), "stdin EOF ends the server cleanly");
}

#[test]
fn exact_64_bit_integers_pass_validation_untouched() {
    let Some(fx) = fixtures("exact_64_bit_integers") else {
        return;
    };
    let apps = apps_dir(&fx, &[CONFORMANCE]);
    let mut raw = Raw::start(&["--apps", apps.path().to_str().unwrap()]);
    raw.initialize();
    // u64::MAX is valid for a u64 and reaches the "no node" error, not a
    // validation error; u64::MAX + 1 is refused locally with the bound.
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"conformance_echo_u64","arguments":{"x":18446744073709551615}}}"#);
    let ok = raw.recv();
    let t = ok["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(t.contains("--offline"), "{t}");
    raw.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"conformance_echo_i64","arguments":{"x":-9223372036854775808}}}"#);
    let t = raw.recv()["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(t.contains("--offline"), "{t}");
    raw.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"conformance_echo_u64","arguments":{"x":-1}}}"#);
    let bad = raw.recv();
    assert_eq!(bad["result"]["isError"], true);
    assert_eq!(raw.finish(), Some(0));
}

#[cfg(unix)]
#[test]
fn sigterm_ends_the_server_cleanly() {
    let Some(fx) = fixtures("sigterm") else {
        return;
    };
    let apps = apps_dir(&fx, &[KV]);
    let mut raw = Raw::start(&["--apps", apps.path().to_str().unwrap()]);
    raw.initialize();
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    assert_eq!(raw.recv()["id"], 1);
    let status = Command::new("kill")
        .args(["-TERM", &raw.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(wait_exit(&mut raw.child), Some(0));
}

/// A manifest of `n` small methods (half views), for paging.
fn many_methods(n: usize) -> Value {
    let methods: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "name": format!("m{i:05}"),
                "params": [{"name": "x", "type": {"kind": "u64"}}],
                "returns": {"kind": "string"},
                "intent": if i % 2 == 0 { "read_only" } else { "mutating" },
            })
        })
        .collect();
    json!({"schema_version": "wasm-abi/1", "types": {}, "methods": methods, "events": []})
}

/// Lists longer than a page come in pages (MCP pagination), so a huge app
/// never materialises all its schemas at once; together they are exactly
/// `tools --json`.
#[tokio::test]
async fn long_tool_lists_come_in_pages() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.json"), many_methods(1100).to_string()).unwrap();
    let apps = dir.path().to_str().unwrap();
    let client = stdio_client(&["--apps", apps]).await;
    let first = client.peer().list_tools(None).await.unwrap();
    assert_eq!(first.tools.len(), 1000);
    let cursor = first.next_cursor.clone().expect("a next page");
    let all = listed_app_tools(&client).await;
    assert_eq!(all.as_array().unwrap().len(), 1100);
    assert_eq!(all, run_json(&["tools", "--json", "--apps", apps]));
    let bogus = client
        .peer()
        .list_tools(Some(
            rmcp::model::PaginatedRequestParams::default().with_cursor(Some("g0:5".into())),
        ))
        .await
        .unwrap_err();
    assert!(format!("{bogus}").contains("stale cursor"), "{bogus}");
    let second = client
        .peer()
        .list_tools(Some(
            rmcp::model::PaginatedRequestParams::default().with_cursor(Some(cursor)),
        ))
        .await
        .unwrap();
    // 1100 app tools and the 6 fixed ones, 1000 a page.
    assert_eq!(second.tools.len(), 106);
    assert!(second.next_cursor.is_none());
    client.cancel().await.unwrap();
}

#[test]
fn request_ids_beyond_64_bits_are_echoed_exactly() {
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let mut raw = Raw::start(&["--apps", &ex, "--offline"]);
    raw.initialize();
    for id in ["18446744073709551616", "-18446744073709551616"] {
        raw.send(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#));
        let mut line = String::new();
        raw.stdout.read_line(&mut line).unwrap();
        assert!(
            line.contains(&format!(r#""id":{id},"#)),
            "id {id} not echoed exactly: {line}"
        );
        assert!(line.contains(r#""result""#), "{line}");
    }
    // A line that is not UTF-8 gets a parse error answer.
    let stdin = raw.stdin.as_mut().unwrap();
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"\xff\"}\n")
        .unwrap();
    stdin.flush().unwrap();
    let err = raw.recv();
    assert_eq!(err["error"]["code"], -32700, "{err}");
    assert_eq!(raw.finish(), Some(0));
}

#[test]
fn an_over_deep_line_is_too_deep_and_keeps_its_id() {
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let mut raw = Raw::start(&["--apps", &ex, "--offline"]);
    raw.initialize();
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    raw.send(&format!(
        r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{{"name":"x","arguments":{{"a":{deep}}}}}}}"#
    ));
    let err = raw.recv();
    assert_eq!(err["id"], 5, "{err}");
    let message = err["error"]["message"].as_str().unwrap();
    assert!(message.contains("too deep"), "{message}");
    assert_eq!(raw.finish(), Some(0));
}

#[test]
fn an_over_long_line_is_answered_with_its_own_id() {
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let mut raw = Raw::start(&["--apps", &ex, "--offline"]);
    raw.initialize();
    let pad = "x".repeat(17 << 20);
    raw.send(&format!(
        r#"{{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{{"name":"kv_store_get","arguments":{{"key":"{pad}"}}}}}}"#
    ));
    let v = raw.recv();
    assert_eq!(v["id"], 77, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("longer than"),
        "{v}"
    );
    // The server goes on.
    raw.send(r#"{"jsonrpc":"2.0","id":78,"method":"tools/list"}"#);
    assert_eq!(raw.recv()["id"], 78);
}

#[test]
fn a_batch_is_answered_with_one_array() {
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let mut raw = Raw::start(&["--apps", &ex, "--offline"]);
    raw.initialize();
    raw.send(
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}},{"jsonrpc":"2.0","id":"two","method":"tools/list"}]"#,
    );
    let v = raw.recv();
    let answers = v.as_array().unwrap_or_else(|| panic!("an array: {v}"));
    let mut ids: Vec<String> = answers.iter().map(|a| a["id"].to_string()).collect();
    ids.sort();
    assert_eq!(ids, [r#""two""#, "1"], "{v}");
    assert!(answers.iter().all(|a| a.get("result").is_some()), "{v}");
    raw.send("[]");
    let v = raw.recv();
    assert_eq!(v["error"]["code"], -32600, "{v}");
}

/// 20 methods share a recursive type that expands to about 1.2 MB each: past
/// the listing budget (`CALIMCP_MAX_SCHEMAS`, lowered here to 3 MiB) every
/// further method's schemas stop expanding named types, at the same tool in
/// `schema`, `tools --json` and the server's tools/list.
#[tokio::test]
async fn a_listing_past_its_schema_budget_stops_expanding_at_the_same_tool_everywhere() {
    let dir = tempfile::TempDir::new().unwrap();
    let tree = json!({"kind": "variant", "variants": [
        {"name": "Leaf", "payload": {"kind": "string"}},
        {"name": "Node", "payload": {"kind": "list", "items": {"$ref": "Tree"}}},
        {"name": "Pair", "payload": {"kind": "tuple", "elements": [{"$ref": "Tree"}, {"$ref": "Tree"}]}}
    ]});
    let methods: Vec<Value> = (0..20)
        .map(|i| json!({"name": format!("m{i:02}"), "params": [{"name": "t", "type": {"$ref": "Tree"}}]}))
        .collect();
    let manifest =
        json!({"schema_version": "wasm-abi/1", "types": {"Tree": tree}, "methods": methods});
    let path = dir.path().join("forest.json");
    std::fs::write(&path, manifest.to_string()).unwrap();
    let f = path.to_str().unwrap();
    let env = [("CALIMCP_MAX_SCHEMAS", "3MiB")];

    let expanded = |schema: &Value| schema.to_string().contains("Pair");
    let tools = run_json_env(&["tools", "--json", f], &env);
    let tools = tools.as_array().unwrap();
    let full: Vec<bool> = tools.iter().map(|t| expanded(&t["inputSchema"])).collect();
    let cut = full.iter().position(|f| !f).expect("the budget is passed");
    assert!(cut >= 2, "a few tools fit 3 MiB: {full:?}");
    assert!(
        full[cut..].iter().all(|f| !f),
        "once spent, always: {full:?}"
    );
    let size = serde_json::to_string(tools).unwrap().len();
    assert!(size < 6 << 20, "{size} bytes for a 3 MiB budget");

    // Raised, the budget lets all 20 expand.
    let all = run_json_env(&["tools", "--json", f], &[("CALIMCP_MAX_SCHEMAS", "64M")]);
    assert!(
        all.as_array()
            .unwrap()
            .iter()
            .all(|t| expanded(&t["inputSchema"]))
    );

    let schemas = run_json_env(&["schema", f], &env);
    let by_method: Vec<bool> = schemas
        .as_object()
        .unwrap()
        .values()
        .map(expanded)
        .collect();
    assert_eq!(by_method, full, "schema cuts where tools --json does");

    let (client, _) = stdio_client_env(
        &["--apps", dir.path().to_str().unwrap()],
        &env,
        Watcher::default(),
    )
    .await;
    let listed = listed_app_tools(&client).await;
    assert_eq!(
        &listed,
        &Value::Array(tools.clone()),
        "tools/list = tools --json"
    );
    client.cancel().await.unwrap();

    // A bad value is a usage error naming the variable.
    let out = isolate(&mut Command::new(BIN), &[])
        .env("CALIMCP_MAX_SCHEMAS", "lots")
        .args(["tools", f])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("CALIMCP_MAX_SCHEMAS"));
}

/// JSON-RPC 2.0 §6: a batch is answered by one array with an answer per
/// request and per member that is not a valid message, in the batch's order;
/// a batch of notifications only gets no answer at all.
#[test]
fn every_member_of_a_batch_is_answered_in_the_one_array() {
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let mut raw = Raw::start(&["--apps", &ex, "--offline"]);
    raw.initialize();
    raw.send(r#"[{"jsonrpc":"2.0","id":32,"method":"ping"},{"foo":"bar"}]"#);
    let v = raw.recv();
    let answers = v.as_array().unwrap_or_else(|| panic!("one array: {v}"));
    assert_eq!(answers.len(), 2, "{v}");
    assert_eq!(answers[0]["id"], 32, "{v}");
    assert!(answers[0].get("result").is_some(), "{v}");
    assert_eq!(answers[1]["id"], Value::Null, "{v}");
    assert_eq!(answers[1]["error"]["code"], -32600, "{v}");
    raw.send("[1]");
    let v = raw.recv();
    let answers = v.as_array().unwrap_or_else(|| panic!("one array: {v}"));
    assert_eq!(answers.len(), 1, "{v}");
    assert_eq!(answers[0]["error"]["code"], -32600, "{v}");
    raw.send("[1,2,3]");
    let v = raw.recv();
    assert_eq!(v.as_array().map(Vec::len), Some(3), "{v}");
    // Out-of-range ids inside a batch: echoed exactly, invalid member too.
    raw.send(
        r#"[{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"},{"id":-9223372036854775809}]"#,
    );
    let mut line = String::new();
    raw.stdout.read_line(&mut line).unwrap();
    assert!(
        line.starts_with(r#"[{"jsonrpc":"2.0","id":18446744073709551616,"result""#),
        "{line}"
    );
    assert!(line.contains(r#""id":-9223372036854775809"#), "{line}");
    // Notifications only: nothing comes back; the next answer is the ping's.
    raw.send(r#"[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}]"#);
    raw.send(r#"{"jsonrpc":"2.0","id":"after","method":"ping"}"#);
    assert_eq!(raw.recv()["id"], "after");
    assert_eq!(raw.finish(), Some(0));
}

/// A tools/call whose arguments give a key twice is an isError result
/// naming the key (a JSON parser would keep the last one silently); a
/// request that is not JSON-RPC 2.0 is an Invalid Request with its id.
#[test]
fn duplicate_keys_and_requests_that_are_not_json_rpc_2_are_refused() {
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let mut raw = Raw::start(&["--apps", &ex, "--offline"]);
    raw.initialize();
    raw.send(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"kv_store_set","arguments":{"key":"a","key":"b","value":"c"}}}"#);
    let v = raw.recv();
    assert_eq!(v["id"], 4, "{v}");
    assert_eq!(v["result"]["isError"], true, "{v}");
    let text = v["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains(r#""key""#) && text.contains("twice"),
        "{text}"
    );
    for (line, id) in [
        (r#"{"id":5,"method":"ping"}"#, json!(5)),
        (r#"{"jsonrpc":"1.0","id":"v","method":"ping"}"#, json!("v")),
        (r#"{"jsonrpc":"2.0","id":2.5,"method":"ping"}"#, json!(2.5)),
    ] {
        raw.send(line);
        let v = raw.recv();
        assert_eq!(v["error"]["code"], -32600, "{line}: {v}");
        assert_eq!(v["id"], id, "{line}: {v}");
    }
    assert_eq!(raw.finish(), Some(0));
}

/// A request before `initialize` (other than ping, and not a 2026-07-28
/// request carrying its own protocol version) is answered "not initialized",
/// not with a complaint about 2026-07-28 `_meta` fields.
#[test]
fn a_request_before_initialize_is_not_initialized() {
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let mut raw = Raw::start(&["--apps", &ex, "--offline"]);
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    let v = raw.recv();
    assert_eq!(v["id"], 1, "{v}");
    let message = v["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("not initialized"), "{v}");
    assert!(!message.contains("_meta is missing"), "{v}");
    raw.send(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    assert!(raw.recv().get("result").is_some());
    raw.initialize();
    raw.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#);
    assert!(raw.recv()["result"]["tools"].is_array());
    assert_eq!(raw.finish(), Some(0));
}
