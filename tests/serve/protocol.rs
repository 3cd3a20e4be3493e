//! `calimcp serve` against the MCP protocol revisions it speaks, over stdio
//! and Streamable HTTP alike, driven by raw JSON-RPC: every answer under
//! 2026-07-28 checked against that revision's JSON Schema (the spec
//! repository's `schema/2026-07-28/schema.json`, kept in tests/mcp-schema),
//! `resultType` only where the revision has it, −32602 for bad params of
//! `resources/read` and `completion/complete`, and `--allow`/`--deny`
//! applied to the fixed tools.

use crate::support;

use serde_json::{Value, json};
use support::serve::*;

const REVISIONS: [&str; 4] = ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
const NEWEST: &str = "2026-07-28";

/// One way in: a stdio server or an HTTP one, under one protocol revision.
enum Face {
    Stdio(RawStdio),
    Http {
        raw: RawHttp,
        sid: Option<String>,
        _server: HttpServer,
    },
}

struct Client {
    face: Face,
    version: &'static str,
    next: u64,
}

impl Client {
    /// `serve ARGS` over `transport` ("stdio" or "http"), under `version`:
    /// a handshake before 2026-07-28, none from it on (each request says its
    /// version; over HTTP there is no session).
    async fn start(transport: &str, version: &'static str, args: &[&str]) -> Client {
        let face = match transport {
            "stdio" => {
                let mut raw = RawStdio::start(args);
                if version != NEWEST {
                    let init = raw.initialize(version);
                    assert_eq!(init["result"]["protocolVersion"], version, "{init}");
                }
                Face::Stdio(raw)
            }
            _ => {
                install_crypto();
                let server = HttpServer::start(args);
                let raw = RawHttp::new(&server.url);
                let sid = if version == NEWEST {
                    None
                } else {
                    Some(raw.open(version).await)
                };
                Face::Http {
                    raw,
                    sid,
                    _server: server,
                }
            }
        };
        Client {
            face,
            version,
            next: 100,
        }
    }

    /// The answer to `method` with `params` (given `_meta` under 2026-07-28).
    async fn ask(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let mut params = params;
        if self.version == NEWEST {
            params["_meta"] = meta_2026();
        }
        let message =
            json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params});
        match &mut self.face {
            Face::Stdio(raw) => raw.request(&message),
            Face::Http { raw, sid, .. } => {
                raw.answer(&message, sid.as_deref(), Some(self.version))
                    .await
            }
        }
    }
}

fn examples() -> String {
    format!("{}/examples", env!("CARGO_MANIFEST_DIR"))
}

/// A validator for one definition of the 2026-07-28 schema.
fn schema_of(def: &str) -> jsonschema::Validator {
    static DOC: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let doc = DOC.get_or_init(|| {
        serde_json::from_str(include_str!("../mcp-schema/2026-07-28.json")).expect("schema JSON")
    });
    let mut schema = doc.clone();
    schema["$ref"] = json!(format!("#/$defs/{def}"));
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{def}: {e}"))
}

fn assert_valid(def: &str, answer: &Value, what: &str) {
    let problems: Vec<String> = schema_of(def)
        .iter_errors(answer)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        problems.is_empty(),
        "{what}: not a valid {def}:\n{}\n{answer}",
        problems.join("\n")
    );
}

/// Every request of the revision that calimcp serves (all but prompts, which
/// it has none of, and `subscriptions/listen`, a stream of its own), and
/// each kind of error, under 2026-07-28: each answer valid against the
/// revision's schema, over both transports. (`ping` is not part of it.)
#[tokio::test]
async fn every_2026_07_28_answer_is_valid_against_the_schema() {
    let ex = examples();
    let app_abi = "calimero://app/kv_store/abi";
    let template = "calimero://app/{app}/abi{?service}";
    let cases: Vec<(&str, Value, &str, Option<i64>)> = vec![
        ("server/discover", json!({}), "DiscoverResultResponse", None),
        ("tools/list", json!({}), "ListToolsResultResponse", None),
        (
            "tools/call",
            json!({"name": "describe_app", "arguments": {}}),
            "CallToolResultResponse",
            None,
        ),
        (
            "tools/call",
            json!({"name": "kv_store_get", "arguments": {}}),
            "CallToolResultResponse",
            None,
        ),
        (
            "tools/call",
            json!({"name": "no_such_tool", "arguments": {}}),
            "JSONRPCErrorResponse",
            Some(-32602),
        ),
        (
            "resources/list",
            json!({}),
            "ListResourcesResultResponse",
            None,
        ),
        (
            "resources/templates/list",
            json!({}),
            "ListResourceTemplatesResultResponse",
            None,
        ),
        (
            "resources/read",
            json!({"uri": app_abi}),
            "ReadResourceResultResponse",
            None,
        ),
        (
            "resources/read",
            json!({"uri": "calimero://app/no-such-app/abi"}),
            "JSONRPCErrorResponse",
            Some(-32602),
        ),
        (
            "resources/read",
            json!({"url": app_abi}),
            "JSONRPCErrorResponse",
            Some(-32602),
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": template}, "argument": {"name": "app", "value": "kv"}}),
            "CompleteResultResponse",
            None,
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": template}}),
            "JSONRPCErrorResponse",
            Some(-32602),
        ),
        (
            "no/such/method",
            json!({}),
            "JSONRPCErrorResponse",
            Some(-32601),
        ),
    ];
    for transport in ["stdio", "http"] {
        let mut client = Client::start(transport, NEWEST, &["--apps", &ex, "--offline"]).await;
        for (method, params, def, code) in &cases {
            let what = format!("{transport} {method} {params}");
            let answer = client.ask(method, params.clone()).await;
            assert_valid(def, &answer, &what);
            match code {
                Some(code) => assert_eq!(answer["error"]["code"], *code, "{what}: {answer}"),
                None => assert_eq!(
                    answer["result"]["resultType"], "complete",
                    "{what}: {answer}"
                ),
            }
        }
    }
}

/// −32601 says which method is unknown and which ones the server answers;
/// each one it names is answered (never −32601), over both transports.
#[tokio::test]
async fn an_unknown_method_is_answered_with_the_methods_there_are() {
    let ex = examples();
    let listed = [
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "completion/complete",
        "server/discover",
    ];
    for transport in ["stdio", "http"] {
        let mut client = Client::start(transport, NEWEST, &["--apps", &ex, "--offline"]).await;
        for unknown in ["no/such/method", "prompts/list", "logging/setLevel"] {
            let answer = client.ask(unknown, json!({"level": "info"})).await;
            assert_eq!(answer["error"]["code"], -32601, "{answer}");
            let message = answer["error"]["message"].as_str().unwrap_or_default();
            assert!(message.contains(&format!("`{unknown}`")), "{message}");
            for method in listed
                .iter()
                .chain(&["initialize", "ping", "subscriptions/listen"])
            {
                assert!(message.contains(method), "{method} not named: {message}");
            }
        }
        for method in listed {
            let answer = client.ask(method, json!({})).await;
            assert_ne!(
                answer["error"]["code"], -32601,
                "{transport} {method}: {answer}"
            );
        }
    }
}

/// Every kind of resource (an ABI, an app's contexts, one context, the
/// `ui://` reference page) is read with `resultType` under 2026-07-28, and
/// without it under an earlier revision, over both transports: the Python
/// SDK's default client refuses a result without it.
#[tokio::test]
async fn every_resource_kind_is_read_with_its_result_type() {
    let node = support::fake_node::FakeNode::start();
    let uris = [
        "calimero://app/kv_store/abi",
        "calimero://app/kv_store/contexts",
        "calimero://app/kv_store/contexts/prod",
        "ui://calimcp/reference",
    ];
    for transport in ["stdio", "http"] {
        for version in [NEWEST, "2025-11-25"] {
            let mut client = Client::start(transport, version, &["--node", &node.url]).await;
            for uri in uris {
                let what = format!("{transport} {version} {uri}");
                let answer = client.ask("resources/read", json!({"uri": uri})).await;
                assert!(
                    answer["result"]["contents"][0]["text"].is_string(),
                    "{what}: {answer}"
                );
                let result_type = answer["result"].get("resultType");
                if version == NEWEST {
                    assert_valid("ReadResourceResultResponse", &answer, &what);
                    assert_eq!(result_type, Some(&json!("complete")), "{what}: {answer}");
                } else {
                    assert_eq!(result_type, None, "{what}: {answer}");
                }
            }
        }
    }
}

/// `resources/read` and `completion/complete` answer with `resultType` under
/// 2026-07-28 only (earlier revisions have no such field), and bad params
/// are −32602 (not "method not found") under every revision.
#[tokio::test]
async fn read_and_complete_under_every_revision() {
    let ex = examples();
    let template = "calimero://app/{app}/abi{?service}";
    for transport in ["stdio", "http"] {
        for version in REVISIONS {
            let what = format!("{transport} {version}");
            let mut client = Client::start(transport, version, &["--apps", &ex, "--offline"]).await;
            let read = client
                .ask(
                    "resources/read",
                    json!({"uri": "calimero://app/kv_store/abi"}),
                )
                .await;
            let text = read["result"]["contents"][0]["text"].as_str();
            assert!(
                text.is_some_and(|t| t.contains("wasm-abi/1")),
                "{what}: {read}"
            );
            let done = client
                .ask(
                    "completion/complete",
                    json!({"ref": {"type": "ref/resource", "uri": template}, "argument": {"name": "app", "value": "kv"}}),
                )
                .await;
            assert_eq!(
                done["result"]["completion"]["values"],
                json!(["kv_store"]),
                "{what}: {done}"
            );
            for answer in [&read, &done] {
                let result_type = answer["result"].get("resultType");
                if version == NEWEST {
                    assert_eq!(result_type, Some(&json!("complete")), "{what}: {answer}");
                } else {
                    assert_eq!(result_type, None, "{what}: {answer}");
                }
            }
            for (method, params) in [
                ("resources/read", json!({"uri": 7})),
                ("resources/read", json!({})),
                (
                    "completion/complete",
                    json!({"argument": {"name": "app", "value": ""}}),
                ),
                (
                    "completion/complete",
                    json!({"ref": {"type": "ref/resource", "uri": template}, "argument": "app"}),
                ),
            ] {
                let answer = client.ask(method, params.clone()).await;
                assert_eq!(
                    answer["error"]["code"], -32602,
                    "{what}: {method} {params}: {answer}"
                );
                let message = answer["error"]["message"].as_str().unwrap_or_default();
                assert!(message.contains(method), "{what}: {message}");
            }
        }
    }
}

/// `--allow` and `--deny` apply to the fixed tools as to the others: a
/// denied one is neither listed nor callable, over both transports and
/// every revision.
#[tokio::test]
async fn allow_and_deny_apply_to_the_fixed_tools() {
    let ex = examples();
    let args = ["--apps", ex.as_str(), "--offline", "--deny", "wait_*"];
    for transport in ["stdio", "http"] {
        for version in REVISIONS {
            let what = format!("{transport} {version}");
            let mut client = Client::start(transport, version, &args).await;
            let list = client.ask("tools/list", json!({})).await;
            let names: Vec<&str> = list["result"]["tools"]
                .as_array()
                .unwrap_or_else(|| panic!("{what}: {list}"))
                .iter()
                .filter_map(|t| t["name"].as_str())
                .collect();
            for kept in ["describe_app", "select_app", "call_until", "kv_store_get"] {
                assert!(names.contains(&kept), "{what}: {kept} in {names:?}");
            }
            for denied in ["wait_for_events", "wait_for_context"] {
                assert!(!names.contains(&denied), "{what}: {denied} in {names:?}");
                let answer = client
                    .ask(
                        "tools/call",
                        json!({"name": denied, "arguments": {"context": "x"}}),
                    )
                    .await;
                assert_eq!(answer["error"]["code"], -32602, "{what}: {answer}");
                let message = answer["error"]["message"].as_str().unwrap_or_default();
                assert!(message.contains("--allow/--deny"), "{what}: {message}");
            }
        }
    }
    // --allow names what is served, fixed tools included.
    let mut client = Client::start(
        "stdio",
        "2025-11-25",
        &[
            "--apps",
            &ex,
            "--offline",
            "--allow",
            "kv_*",
            "--allow",
            "describe_app",
        ],
    )
    .await;
    let list = client.ask("tools/list", json!({})).await;
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"describe_app"), "{names:?}");
    assert!(!names.contains(&"select_app"), "{names:?}");
    assert!(!names.contains(&"call_until"), "{names:?}");
}

/// Every fixed tool's schema says which context argument it takes: the README
/// promises `_context` for app tools and `wait_for_events`, `context` for
/// `select_app` and `wait_for_context`, and `_context` inside `arguments` for
/// `call_until`; an undeclared argument is refused.
#[tokio::test]
async fn the_fixed_tools_declare_the_context_arguments_they_take() {
    let ex = examples();
    let mut client = Client::start("stdio", "2025-11-25", &["--apps", &ex, "--offline"]).await;
    let list = client.ask("tools/list", json!({})).await;
    let tools = list["result"]["tools"].as_array().unwrap();
    let props = |name: &str| {
        let t = tools.iter().find(|t| t["name"] == name).unwrap();
        assert_eq!(t["inputSchema"]["additionalProperties"], false, "{name}");
        t["inputSchema"]["properties"].clone()
    };
    assert!(props("wait_for_events").get("_context").is_some());
    assert!(props("wait_for_events").get("context").is_some());
    assert!(props("select_app").get("context").is_some());
    assert!(props("wait_for_context").get("context").is_some());
    assert!(props("describe_app").get("_context").is_none());
    for (tool, args) in [
        ("describe_app", json!({"_context": "x"})),
        ("select_app", json!({"app": "kv-store", "_context": "x"})),
        ("wait_for_context", json!({"context": "x", "_context": "x"})),
        (
            "call_until",
            json!({"tool": "kv_store_get", "until": 1, "_context": "x"}),
        ),
    ] {
        let answer = client
            .ask("tools/call", json!({"name": tool, "arguments": args}))
            .await;
        assert_eq!(answer["result"]["isError"], true, "{tool}: {answer}");
        let text = answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(
            text.contains("_context: unknown argument"),
            "{tool}: {text}"
        );
    }
    let answer = client
        .ask(
            "tools/call",
            json!({"name": "wait_for_events", "arguments": {"app": "kv-store", "context": "a", "_context": "b"}}),
        )
        .await;
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("names another context"), "{answer}");
}

/// The messages of one open `subscriptions/listen` stream, as they come.
enum Listening {
    /// stdio: every line of the server, this stream's and others'.
    Stdio(RawStdio),
    /// HTTP: the listen request's own SSE answer, and the text read of it.
    Http(reqwest::Response, String),
}

impl Listening {
    async fn next(&mut self) -> Option<Value> {
        match self {
            Listening::Stdio(raw) => Some(raw.recv()),
            Listening::Http(response, text) => loop {
                if let Some(end) = text.find("\n\n") {
                    let event: String = text.drain(..end + 2).collect();
                    match messages_of(&event).into_iter().next() {
                        Some(message) => return Some(message),
                        None => continue,
                    }
                }
                let chunk =
                    tokio::time::timeout(std::time::Duration::from_secs(30), response.chunk())
                        .await
                        .expect("the listen stream within 30 s")
                        .ok()??;
                text.push_str(&String::from_utf8_lossy(&chunk).replace("\r\n", "\n"));
            },
        }
    }
}

/// `subscriptions/listen` under 2026-07-28, over both transports, checked
/// against the revision's schema: the acknowledgement (with what the server
/// agreed to: tool-list changes, not the prompts it has none of), a
/// `list_changed` on the stream when an app appears on the node, both
/// carrying the stream's id, and whatever ends the stream.
#[tokio::test]
async fn a_2026_07_28_listen_stream_is_valid_against_the_schema() {
    use support::fake_node::FakeNode;
    for transport in ["stdio", "http"] {
        let node = FakeNode::start();
        let args = ["--node", node.url.as_str()];
        let id = format!("listen-{transport}");
        let listen = json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
            "params": {"_meta": meta_2026(),
                "notifications": {"toolsListChanged": true, "promptsListChanged": true}}});
        let mut server = None;
        let mut stream = match transport {
            "stdio" => {
                let mut raw = RawStdio::start(&args);
                raw.send(&listen.to_string());
                Listening::Stdio(raw)
            }
            _ => {
                install_crypto();
                let s = HttpServer::start(&args);
                let raw = RawHttp::new(&s.url);
                let response = raw.post(&listen, None, Some(NEWEST)).await;
                assert_eq!(response.status(), 200, "{transport}");
                server = Some((s, raw));
                Listening::Http(response, String::new())
            }
        };
        let what = format!("{transport} subscriptions/listen");
        let ack = stream.next().await.expect("the acknowledgement");
        assert_valid("SubscriptionsAcknowledgedNotification", &ack, &what);
        assert_eq!(
            ack["params"]["notifications"],
            json!({"toolsListChanged": true}),
            "{what}: {ack}"
        );
        assert_eq!(
            ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            id.as_str(),
            "{what}: {ack}"
        );

        // The client has the tool list (the server tells only a client that
        // listed of a change); then an app appears, and a call naming its
        // tool makes the server read the node.
        let list = json!({"jsonrpc": "2.0", "id": "list", "method": "tools/list",
            "params": {"_meta": meta_2026()}});
        let listed = match (&mut stream, &server) {
            (Listening::Stdio(raw), _) => raw.request(&list),
            (_, Some((_, raw))) => raw.answer(&list, None, Some(NEWEST)).await,
            _ => unreachable!(),
        };
        assert_valid("ListToolsResultResponse", &listed, &what);
        let abi: Value =
            serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap();
        node.install("com.example.listened", abi);
        let call = json!({"jsonrpc": "2.0", "id": "call", "method": "tools/call",
            "params": {"_meta": meta_2026(), "name": "listened_get", "arguments": {"key": "k"}}});
        match (&mut stream, &server) {
            (Listening::Stdio(raw), _) => raw.send(&call.to_string()),
            (_, Some((_, raw))) => {
                let answer = raw.answer(&call, None, Some(NEWEST)).await;
                assert_valid("CallToolResultResponse", &answer, &what);
            }
            _ => unreachable!(),
        }
        let changed = loop {
            let m = stream.next().await.expect("a list_changed notification");
            if m["method"] == "notifications/tools/list_changed" {
                break m;
            }
            // On stdio the call's answer shares the channel.
            assert_eq!(m["id"], "call", "{what}: {m}");
            assert_valid("CallToolResultResponse", &m, &what);
        };
        assert_valid("ToolListChangedNotification", &changed, &what);
        assert_eq!(
            changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            id.as_str(),
            "{what}: {changed}"
        );

        // The end: on stdio the client cancels (and the stream carries
        // nothing more); over HTTP the server stops, and the stream ends with
        // the SubscriptionsListenResult the revision describes for a graceful
        // teardown. Anything the stream still carries is valid.
        let rest: Vec<Value> = match stream {
            Listening::Stdio(mut raw) => {
                raw.send(
                    &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": id, "reason": "done"}})
                    .to_string(),
                );
                let ping = json!({"jsonrpc": "2.0", "id": "after", "method": "tools/list",
                    "params": {"_meta": meta_2026()}});
                raw.send(&ping.to_string());
                let mut rest = Vec::new();
                loop {
                    let m = raw.recv();
                    if m["id"] == "after" {
                        assert_valid("ListToolsResultResponse", &m, &what);
                        break rest;
                    }
                    rest.push(m);
                }
            }
            Listening::Http(mut response, text) => {
                let (s, _) = server.take().unwrap();
                assert_eq!(s.stop(), Some(0), "{what}");
                let mut rest = text;
                while let Ok(Some(chunk)) = response.chunk().await {
                    rest.push_str(&String::from_utf8_lossy(&chunk));
                }
                messages_of(&rest)
            }
        };
        if transport == "http" {
            assert!(
                rest.iter().any(|m| m["id"] == id.as_str()),
                "{what}: the stream ended without its final result: {rest:?}"
            );
        }
        for m in rest {
            // On stdio the call's answer may come after the notification.
            let def = if m.get("method").is_some() {
                "ServerNotification"
            } else if m["id"] == "call" {
                "CallToolResultResponse"
            } else {
                "SubscriptionsListenResultResponse"
            };
            assert_valid(def, &m, &what);
            if def == "SubscriptionsListenResultResponse" {
                assert_eq!(m["id"], id.as_str(), "{what}: {m}");
                assert_eq!(m["result"]["resultType"], "complete", "{what}: {m}");
            }
        }
    }
}
