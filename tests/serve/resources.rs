//! `calimcp serve` resources and completions (issue 23, "beyond the peers"):
//! the served apps' ABIs and contexts as `calimero://app/…` resources, their
//! templates, `completion/complete` of the template variables, and
//! `notifications/resources/list_changed` when an app appears on the node —
//! with rmcp's client over stdio and raw JSON-RPC over Streamable HTTP.

use crate::support;

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, CompletionContext, ReadResourceRequestParams, Reference,
    ResourceContents,
};
use rmcp::service::{NotificationContext, RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use support::fake_node::{self, FakeNode};
use support::serve::*;
use tokio::sync::Notify;

/// A client that counts `notifications/resources/list_changed`.
#[derive(Clone, Default)]
struct ResourceWatcher {
    changes: Arc<AtomicUsize>,
    notify: Arc<Notify>,
}

impl ClientHandler for ResourceWatcher {
    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changes.fetch_add(1, Ordering::SeqCst);
        self.notify.notify_waiters();
    }
}

impl ResourceWatcher {
    async fn wait_for(&self, n: usize, within: Duration) -> bool {
        tokio::time::timeout(within, async {
            while self.changes.load(Ordering::SeqCst) < n {
                let notified = self.notify.notified();
                if self.changes.load(Ordering::SeqCst) >= n {
                    break;
                }
                notified.await;
            }
        })
        .await
        .is_ok()
    }
}

type Client = RunningService<RoleClient, ResourceWatcher>;

async fn client(args: &[&str], watcher: ResourceWatcher) -> Client {
    let mut std_cmd = Command::new(BIN);
    isolate(&mut std_cmd, args).arg("serve").args(args);
    let (transport, _) = TokioChildProcess::builder(tokio::process::Command::from(std_cmd))
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn calimcp serve");
    watcher
        .serve(transport)
        .await
        .expect("initialize over stdio")
}

/// The text of a resources/read answer, as JSON.
async fn read(client: &Client, uri: &str) -> Result<Value, ServiceError> {
    let r = client
        .peer()
        .read_resource(ReadResourceRequestParams::new(uri))
        .await?;
    assert_eq!(r.contents.len(), 1, "{r:?}");
    match &r.contents[0] {
        ResourceContents::TextResourceContents {
            uri: got,
            mime_type,
            text,
            ..
        } => {
            assert_eq!(got, uri);
            assert_eq!(mime_type.as_deref(), Some("application/json"));
            Ok(serde_json::from_str(text).expect("resource text is JSON"))
        }
        other => panic!("not text: {other:?}"),
    }
}

/// The JSON-RPC error of a failed request.
fn rpc_error(e: ServiceError) -> rmcp::ErrorData {
    match e {
        ServiceError::McpError(e) => e,
        other => panic!("not a JSON-RPC error: {other:?}"),
    }
}

async fn complete(
    client: &Client,
    template: &str,
    name: &str,
    value: &str,
    chosen: &[(&str, &str)],
) -> (Vec<String>, Option<u32>) {
    let mut params = CompleteRequestParams::new(
        Reference::for_resource(template),
        ArgumentInfo::new(name, value),
    );
    if !chosen.is_empty() {
        params = params.with_context(CompletionContext::with_arguments(
            chosen
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        ));
    }
    let r = client
        .peer()
        .complete(params)
        .await
        .unwrap_or_else(|e| panic!("completion/complete {name}={value}: {e}"));
    (r.completion.values, r.completion.total)
}

/// The kv-store ABI file the fake node's app is built from.
fn kv_abi() -> Value {
    let root = env!("CARGO_MANIFEST_DIR");
    for c in [
        "examples/kv-store/abi.json",
        "tests/support/abi/kv-store.json",
    ] {
        if let Ok(text) = std::fs::read_to_string(format!("{root}/{c}")) {
            return serde_json::from_str(&text).unwrap();
        }
    }
    panic!("no kv-store ABI")
}

fn parsed(v: &Value) -> calimcp_core::abi::Manifest {
    let mut w = Vec::new();
    calimcp_core::abi::load::manifest_from_value(v, "test", &mut w).expect("a wasm-abi/1 manifest")
}

/// Every listed resource can be read: an app the node does not have (here:
/// every app, under --offline) lists its ABI but no contexts.
#[tokio::test]
async fn only_readable_resources_are_listed() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let client = client(
        &["--offline", "--apps", examples],
        ResourceWatcher::default(),
    )
    .await;
    let listed = client.peer().list_all_resources().await.unwrap();
    assert!(
        listed
            .iter()
            .any(|r| r.uri == "calimero://app/kv_store/abi"),
        "{listed:?}"
    );
    for r in &listed {
        assert!(!r.uri.contains("/contexts"), "{}", r.uri);
        client
            .peer()
            .read_resource(ReadResourceRequestParams::new(r.uri.as_str()))
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", r.uri));
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn resources_are_listed_templated_and_read() {
    let node = FakeNode::start();
    let client = client(&["--node", &node.url], ResourceWatcher::default()).await;
    let caps = &client.peer().peer_info().expect("server info").capabilities;
    let resources = caps.resources.as_ref().expect("resources capability");
    assert_eq!(resources.list_changed, Some(true));
    assert!(caps.completions.is_some(), "completions capability");

    let templates = client.peer().list_all_resource_templates().await.unwrap();
    let templates: Vec<String> = templates.iter().map(|t| t.uri_template.clone()).collect();
    assert_eq!(
        templates,
        [
            "calimero://app/{app}/abi{?service}",
            "calimero://app/{app}/contexts{?service}",
            "calimero://app/{app}/contexts/{context}",
            "calimero://app/{app}/guide{?version}"
        ]
    );

    let listed = client.peer().list_all_resources().await.unwrap();
    let uris: Vec<&str> = listed.iter().map(|r| r.uri.as_str()).collect();
    for want in [
        "calimero://app/kv_store/abi",
        "calimero://app/kv_store/contexts",
        "calimero://app/notebook/abi?service=pages",
        "calimero://app/notebook/abi?service=registry",
        "calimero://app/notebook/contexts",
    ] {
        assert!(uris.contains(&want), "{want} not in {uris:?}");
    }
    // Two apps share the package io.example.KV_Store: each is named by its
    // own tool prefix, so every URI names one app.
    let kv2 = format!(
        "calimero://app/kv_store_{}/abi",
        calimcp_core::mapping::names::id_tail(&fake_node::id(fake_node::KV2_A))
    );
    assert!(uris.contains(&kv2.as_str()), "{kv2} not in {uris:?}");
    let mut unique = uris.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), uris.len(), "{uris:?}");
    // Beside the apps' resources, the MCP App: their reference as a page.
    assert!(uris.contains(&"ui://calimcp/reference"), "{uris:?}");
    for r in listed.iter().filter(|r| r.uri.starts_with("calimero://")) {
        assert_eq!(r.mime_type.as_deref(), Some("application/json"));
        // Every listed resource can be read.
        read(&client, &r.uri)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", r.uri));
    }

    // The ABI is the app's manifest as its module embeds it (the node's
    // route drops the docs, so calimcp reads the module for them), whatever
    // name the URI uses.
    let abi = read(&client, "calimero://app/kv_store/abi").await.unwrap();
    assert_eq!(abi["schema_version"], "wasm-abi/1");
    assert_eq!(parsed(&abi), parsed(&kv_abi()));
    assert_ne!(
        parsed(&abi),
        parsed(&support::wire::abi_node_form(&kv_abi())),
        "the docs are there"
    );
    let by_package = read(&client, "calimero://app/com.calimero.kv-store/abi")
        .await
        .unwrap();
    assert_eq!(by_package, abi);
    let pages = read(&client, "calimero://app/notebook/abi?service=pages")
        .await
        .unwrap();
    let registry = read(&client, "calimero://app/notebook/abi?service=registry")
        .await
        .unwrap();
    assert_ne!(pages, registry);

    // The contexts, with their aliases.
    let contexts = read(&client, "calimero://app/kv_store/contexts")
        .await
        .unwrap();
    let rows = contexts["contexts"].as_array().expect("contexts array");
    let prod = rows
        .iter()
        .find(|r| r["aliases"] == json!(["prod"]))
        .unwrap_or_else(|| panic!("no context aliased prod: {contexts}"));
    assert_eq!(prod["id"], fake_node::id(fake_node::CTX_KV));
    assert_eq!(prod["app"], "com.calimero.kv-store");
    assert!(prod.get("version").is_some() && prod.get("initialized").is_some());
    // One context, by alias and by id.
    let one = read(&client, "calimero://app/kv_store/contexts/prod")
        .await
        .unwrap();
    assert_eq!(&one, prod);
    let by_id = read(
        &client,
        &format!(
            "calimero://app/kv_store/contexts/{}",
            fake_node::id(fake_node::CTX_KV)
        ),
    )
    .await
    .unwrap();
    assert_eq!(&by_id, prod);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn unknown_resources_are_json_rpc_errors_that_say_why() {
    let node = FakeNode::start();
    let client = client(&["--node", &node.url], ResourceWatcher::default()).await;
    let cases = [
        (
            "calimero://app/kv_store/nope",
            "calimero://app/{app}/abi{?service}",
        ),
        ("file:///etc/passwd", "unknown resource"),
        ("calimero://app/no-such-app/abi", "no-such-app"),
        ("calimero://app/notebook/abi", "?service=NAME"),
        (
            "calimero://app/notebook/abi?service=nope",
            "its services: pages, registry",
        ),
        (
            "calimero://app/kv_store/contexts/nope",
            "its contexts: prod",
        ),
    ];
    for (uri, says) in cases {
        let e = rpc_error(read(&client, uri).await.expect_err(uri));
        assert_eq!(e.code.0, -32002, "{uri}: {e:?}");
        assert!(e.message.contains(says), "{uri}: {}", e.message);
    }
    // The session is still fine.
    read(&client, "calimero://app/kv_store/abi").await.unwrap();
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn template_variables_complete_from_the_catalog_and_the_node() {
    let node = FakeNode::start();
    let client = client(&["--node", &node.url], ResourceWatcher::default()).await;
    let abi = "calimero://app/{app}/abi{?service}";
    let (apps, total) = complete(&client, abi, "app", "kv", &[]).await;
    let kv2 = format!(
        "kv_store_{}",
        calimcp_core::mapping::names::id_tail(&fake_node::id(fake_node::KV2_A))
    );
    assert!(apps.contains(&"kv_store".to_string()), "{apps:?}");
    assert!(apps.contains(&kv2), "{apps:?}");
    assert!(
        apps.iter().all(|a| a.to_lowercase().starts_with("kv")),
        "{apps:?}"
    );
    assert_eq!(total, Some(apps.len() as u32));
    let (apps, _) = complete(&client, abi, "app", "note", &[]).await;
    assert_eq!(apps, ["notebook"]);
    let (apps, _) = complete(&client, abi, "app", "com.calimero.k", &[]).await;
    assert_eq!(apps, ["com.calimero.kv-store"]);
    let (none, _) = complete(&client, abi, "app", "zzz", &[]).await;
    assert!(none.is_empty(), "{none:?}");
    // Services of the chosen app.
    let (services, _) = complete(&client, abi, "service", "", &[("app", "notebook")]).await;
    assert_eq!(services, ["pages", "registry"]);
    // Contexts of the chosen app, from the node: aliases and ids.
    let one = "calimero://app/{app}/contexts/{context}";
    let (contexts, _) = complete(&client, one, "context", "", &[("app", "kv_store")]).await;
    assert!(contexts.contains(&"prod".to_string()), "{contexts:?}");
    assert!(
        contexts.contains(&fake_node::id(fake_node::CTX_KV)),
        "{contexts:?}"
    );
    let (contexts, _) = complete(&client, one, "context", "pr", &[("app", "kv_store")]).await;
    assert_eq!(contexts, ["prod"]);
    // Unknown template or variable: an error that says what exists.
    let e = client
        .peer()
        .complete(CompleteRequestParams::new(
            Reference::for_resource("calimero://nope/{x}"),
            ArgumentInfo::new("x", ""),
        ))
        .await
        .expect_err("unknown template");
    assert!(
        rpc_error(e).message.contains("resources/templates/list"),
        "unknown template"
    );
    let e = client
        .peer()
        .complete(CompleteRequestParams::new(
            Reference::for_resource(abi),
            ArgumentInfo::new("context", ""),
        ))
        .await
        .expect_err("not a variable of the abi template");
    assert!(rpc_error(e).message.contains("app, service"));
    client.cancel().await.unwrap();
}

/// The served apps change (an install on the node): a client that listed
/// the resources is sent `notifications/resources/list_changed`, and the new
/// app's resources are listed.
#[tokio::test]
async fn an_installed_app_announces_a_resource_list_change() {
    let node = FakeNode::start();
    let watcher = ResourceWatcher::default();
    let client = client(&["--node", &node.url, "--refresh", "1"], watcher.clone()).await;
    let before = client.peer().list_all_resources().await.unwrap();
    assert!(!before.iter().any(|r| r.uri.contains("/fresh/")));
    assert_eq!(watcher.changes.load(Ordering::SeqCst), 0);
    let abi: Value = serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap();
    node.install("com.example.fresh", abi);
    assert!(
        watcher.wait_for(1, Duration::from_secs(20)).await,
        "notifications/resources/list_changed after an install"
    );
    let after = client.peer().list_all_resources().await.unwrap();
    let uris: Vec<&str> = after.iter().map(|r| r.uri.as_str()).collect();
    assert!(uris.contains(&"calimero://app/fresh/abi"), "{uris:?}");
    assert!(uris.contains(&"calimero://app/fresh/contexts"), "{uris:?}");
    client.cancel().await.unwrap();
}

/// Without a node the ABIs are still resources; contexts say why they cannot
/// be read. Raw JSON-RPC over Streamable HTTP shows the wire shapes.
#[tokio::test]
async fn offline_over_http_raw_json_rpc() {
    install_crypto();
    let ex = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let server = HttpServer::start(&["--apps", &ex, "--offline"]);
    let raw = RawHttp::new(&server.url);
    let sid = raw.initialize().await;
    let (sid, version) = (Some(sid.as_str()), Some("2025-03-26"));
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    raw.post(initialized, sid, version).await;
    let ask = |id: u32, method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let answer = |r: reqwest::Response| async move {
        let text = r.text().await.unwrap();
        let body = text
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(str::to_string)
            .unwrap_or(text);
        serde_json::from_str::<Value>(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
    };
    let list = answer(
        raw.post(ask(2, "resources/list", json!({})), sid, version)
            .await,
    )
    .await;
    let uris: Vec<&str> = list["result"]["resources"]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"))
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert!(uris.contains(&"calimero://app/kv_store/abi"), "{uris:?}");
    let read = answer(
        raw.post(
            ask(
                3,
                "resources/read",
                json!({"uri": "calimero://app/kv_store/abi"}),
            ),
            sid,
            version,
        )
        .await,
    )
    .await;
    let text = read["result"]["contents"][0]["text"].as_str().unwrap();
    let abi: Value = serde_json::from_str(text).unwrap();
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{ex}/kv-store/abi.json"))
            .unwrap_or_else(|_| include_str!("../support/abi/kv-store.json").to_string()),
    )
    .unwrap();
    assert_eq!(parsed(&abi), parsed(&file));
    let contexts = answer(
        raw.post(
            ask(
                4,
                "resources/read",
                json!({"uri": "calimero://app/kv_store/contexts"}),
            ),
            sid,
            version,
        )
        .await,
    )
    .await;
    assert_eq!(contexts["error"]["code"], -32002, "{contexts}");
    assert!(
        contexts["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--offline"),
        "{contexts}"
    );
    let done = answer(
        raw.post(
            ask(
                5,
                "completion/complete",
                json!({"ref": {"type": "ref/resource", "uri": "calimero://app/{app}/abi{?service}"},
                       "argument": {"name": "app", "value": "kv"}}),
            ),
            sid,
            version,
        )
        .await,
    )
    .await;
    let completion = &done["result"]["completion"];
    let values = completion["values"]
        .as_array()
        .unwrap_or_else(|| panic!("{done}"));
    assert!(values.contains(&json!("kv_store")), "{done}");
    assert_eq!(completion["total"], values.len(), "{done}");
    assert_eq!(completion["hasMore"], false, "{done}");
    assert_eq!(server.stop(), Some(0));
}

/// The 2026-07-28 way, over Streamable HTTP: a `subscriptions/listen` stream
/// that asks for resource-list changes is told of one when an app appears.
#[tokio::test]
async fn a_listen_stream_is_told_of_a_resource_list_change() {
    install_crypto();
    let node = FakeNode::start();
    let server = HttpServer::start(&["--node", &node.url, "--refresh", "1"]);
    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(server.url.clone());
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
    let client = ()
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("server/discover over HTTP (2026-07-28)");
    let filter = rmcp::model::SubscriptionFilter::builder()
        .resources_list_changed()
        .build();
    let mut sub = client
        .peer()
        .listen(filter)
        .await
        .expect("subscriptions/listen");
    assert_eq!(sub.acknowledged().resources_list_changed, Some(true));
    let before = client.peer().list_all_resources().await.unwrap();
    assert!(!before.iter().any(|r| r.uri.contains("/listened/")));
    let abi: Value = serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap();
    node.install("com.example.listened", abi);
    let got = tokio::time::timeout(Duration::from_secs(20), sub.next())
        .await
        .expect("a notification within 20 s")
        .expect("the stream is open");
    assert!(
        matches!(
            got,
            Some(rmcp::model::ServerNotification::ResourceListChangedNotification(_))
        ),
        "{got:?}"
    );
    let after = client.peer().list_all_resources().await.unwrap();
    assert!(
        after.iter().any(|r| r.uri == "calimero://app/listened/abi"),
        "{after:?}"
    );
    drop(sub);
    let _ = client.cancel().await;
    assert_eq!(server.stop(), Some(0));
}
