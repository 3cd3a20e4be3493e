//! An app's guide and icon from its metadata (issue 44 §1), on a fake node
//! that lists the metadata bytes an app was installed with, as a node does:
//! the guide as a `text/markdown` resource and template, its procedures in
//! `describe_app` and `select_app`, the guide itself embedded the first time
//! per MCP session and a pointer after, the icon as the tools' `icons`.

use crate::support;

use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, CompletionContext, ContentBlock,
    ReadResourceRequestParams, Reference, ResourceContents,
};
use serde_json::{Value, json};
use support::fake_node::FakeNode;
use support::serve::*;

const GUIDE: &str = "# Guided KV\n\nHow to use it.\n\n## Procedures\n\n### Store a value\nCall `guided_set`.\n\n### Read it back\n\n<script>alert(1)</script>\n";
const ICON: &str = "data:image/png;base64,iVBORw0KGgo=";

fn kv_abi() -> Value {
    serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap()
}

/// A fake node with `com.example.guided` installed with a guide and an icon.
fn node() -> FakeNode {
    let node = FakeNode::start();
    node.install_with_metadata(
        "com.example.guided",
        kv_abi(),
        &json!({"name": "Guided", "guide": GUIDE, "icon": ICON}),
    );
    node
}

/// The guide blocks after a fixed tool's JSON.
fn after_json(r: &rmcp::model::CallToolResult) -> &[ContentBlock] {
    assert_eq!(r.is_error, Some(false), "{}", text(r));
    &r.content[1..]
}

fn embedded(block: &ContentBlock) -> (String, Option<String>, String) {
    match block {
        ContentBlock::Resource(r) => match &r.resource {
            ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                ..
            } => (uri.clone(), mime_type.clone(), text.clone()),
            other => panic!("not text: {other:?}"),
        },
        other => panic!("not an embedded resource: {other:?}"),
    }
}

const URI: &str = "calimero://app/guided/guide?version=1.2.0";

/// `tool` for the guided app; its JSON lists the procedures and the guide's URI.
async fn guided(client: &Client, tool: &str) -> rmcp::model::CallToolResult {
    let r = call(client, tool, json!({"app": "guided"})).await.unwrap();
    let out = r.structured_content.clone().unwrap();
    let procedures = json!(["Store a value", "Read it back"]);
    assert_eq!(out["procedures"], procedures, "{tool}");
    assert_eq!(out["guide"], URI, "{tool}");
    r
}

#[tokio::test]
async fn describe_app_shows_the_guide_once_per_session_then_points_to_it() {
    let node = node();
    let client = stdio_client(&["--node", &node.url]).await;
    let r = guided(&client, "describe_app").await;
    assert_eq!(r.structured_content.clone().unwrap()["has_guide"], true);
    let blocks = after_json(&r);
    assert_eq!(blocks.len(), 2, "{blocks:?}");
    let label = blocks[0].as_text().unwrap().text.clone();
    assert!(
        label.starts_with("App guide, provided by the app's author (package com.example.guided"),
        "{label}"
    );
    assert_eq!(
        embedded(&blocks[1]),
        (URI.to_string(), Some("text/markdown".into()), GUIDE.into())
    );
    // The second time in this session: a pointer, not the guide again.
    for tool in ["describe_app", "select_app"] {
        let r = guided(&client, tool).await;
        let blocks = after_json(&r);
        assert_eq!(blocks.len(), 1, "{tool}: {blocks:?}");
        let pointer = &blocks[0].as_text().unwrap().text;
        assert!(
            pointer.contains("shown earlier this session") && pointer.contains(URI),
            "{pointer}"
        );
    }
    client.cancel().await.unwrap();
    // A new session is shown the guide again, by select_app too.
    let client = stdio_client(&["--node", &node.url]).await;
    let r = guided(&client, "select_app").await;
    let blocks = after_json(&r);
    assert_eq!(embedded(&blocks[1]).2, GUIDE);
    // An app without a guide: no blocks after the JSON, no procedures.
    let r = call(
        &client,
        "describe_app",
        json!({"app": "com.calimero.kv-store"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert_eq!(r.content.len(), 1);
    assert_eq!(r.structured_content.unwrap()["procedures"], json!([]));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_guide_is_a_markdown_resource_with_a_template_and_completion() {
    let node = node();
    let client = stdio_client(&["--node", &node.url]).await;
    let listed = client.peer().list_all_resources().await.unwrap();
    let guides: Vec<_> = listed
        .iter()
        .filter(|r| r.mime_type.as_deref() == Some("text/markdown"))
        .collect();
    assert_eq!(guides.len(), 1, "only the app with a guide: {guides:?}");
    assert_eq!(guides[0].uri, URI);
    assert_eq!(guides[0].mime_type.as_deref(), Some("text/markdown"));
    let read = client
        .peer()
        .read_resource(ReadResourceRequestParams::new(URI))
        .await
        .unwrap();
    let ResourceContents::TextResourceContents {
        mime_type, text, ..
    } = &read.contents[0]
    else {
        panic!("{read:?}")
    };
    assert_eq!(
        (mime_type.as_deref(), text.as_str()),
        (Some("text/markdown"), GUIDE)
    );
    // Another version, or an app without a guide: not found, saying why.
    for (uri, why) in [
        (
            "calimero://app/guided/guide?version=9.9.9",
            "served at version 1.2.0",
        ),
        ("calimero://app/kv_store/guide", "ships no guide"),
    ] {
        let e = client
            .peer()
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .unwrap_err();
        assert!(e.to_string().contains(why), "{uri}: {e}");
    }
    let templates = client.peer().list_all_resource_templates().await.unwrap();
    let guide = templates
        .iter()
        .find(|t| t.uri_template == "calimero://app/{app}/guide{?version}")
        .expect("the guide template");
    assert_eq!(guide.mime_type.as_deref(), Some("text/markdown"));
    let params = CompleteRequestParams::new(
        Reference::for_resource("calimero://app/{app}/guide{?version}"),
        ArgumentInfo::new("version", ""),
    )
    .with_context(CompletionContext::with_arguments(
        [("app".to_string(), "guided".to_string())].into(),
    ));
    let done = client.peer().complete(params).await.unwrap();
    assert_eq!(done.completion.values, vec!["1.2.0"]);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_icon_is_on_the_apps_tools_in_serve_and_tools_json() {
    let node = node();
    let client = stdio_client(&["--node", &node.url]).await;
    let listed = listed_app_tools(&client).await;
    for t in listed.as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        if name.starts_with("guided_") {
            assert_eq!(t["icons"], json!([{"src": ICON}]), "{name}");
        } else {
            assert!(t.get("icons").is_none(), "{name}: {t}");
        }
    }
    assert_eq!(listed, run_json(&["tools", "--json", "--node", &node.url]));
    client.cancel().await.unwrap();
}

#[test]
fn an_icon_that_is_no_data_or_https_url_is_dropped_with_a_warning() {
    let node = FakeNode::start();
    node.install_with_metadata(
        "com.example.guided",
        kv_abi(),
        &json!({"guide": GUIDE, "icon": "http://example.com/i.png"}),
    );
    let args = ["tools", "--json", "--node", &node.url];
    let out = isolate(&mut std::process::Command::new(BIN), &args)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success());
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!tools.to_string().contains("icons"), "{tools}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("metadata.icon")
            && stderr.contains("neither a data:image/ URL nor an https:// URL"),
        "{stderr}"
    );
}

#[tokio::test]
async fn the_mcp_app_asks_its_host_to_load_an_https_icon_and_shows_the_guide() {
    let node = FakeNode::start();
    node.install_with_metadata(
        "com.example.guided",
        kv_abi(),
        &json!({"guide": GUIDE, "icon": "https://Icons.Example.com/kv.png"}),
    );
    let client = stdio_client(&["--node", &node.url]).await;
    let read = client
        .peer()
        .read_resource(ReadResourceRequestParams::new("ui://calimcp/reference"))
        .await
        .unwrap();
    let contents = serde_json::to_value(&read.contents[0]).unwrap();
    assert_eq!(
        contents["_meta"]["ui"]["csp"]["resourceDomains"],
        json!(["https://icons.example.com"]),
        "{}",
        contents["_meta"]
    );
    let html = contents["text"].as_str().unwrap();
    assert!(html.contains(r#"src="https://Icons.Example.com/kv.png""#));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    client.cancel().await.unwrap();
    // Without an https icon, nothing is asked for.
    let plain = FakeNode::start();
    let client = stdio_client(&["--node", &plain.url]).await;
    let read = client
        .peer()
        .read_resource(ReadResourceRequestParams::new("ui://calimcp/reference"))
        .await
        .unwrap();
    let contents = serde_json::to_value(&read.contents[0]).unwrap();
    assert_eq!(contents["_meta"]["ui"], json!({"prefersBorder": true}));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_local_bundles_guide_is_served_offline() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("guided");
    std::fs::create_dir(&bundle).unwrap();
    std::fs::write(
        bundle.join("abi.json"),
        include_str!("../support/abi/kv-store.json"),
    )
    .unwrap();
    let manifest = json!({
        "package": "com.example.guided", "appVersion": "2.0.0", "abi": {"path": "abi.json"},
        "metadata": {"name": "Guided", "guide": GUIDE, "icon": ICON},
    });
    std::fs::write(bundle.join("manifest.json"), manifest.to_string()).unwrap();
    let client = stdio_client(&["--apps", dir.path().to_str().unwrap()]).await;
    let listed = client.peer().list_all_resources().await.unwrap();
    let uris: Vec<&str> = listed.iter().map(|r| r.uri.as_str()).collect();
    let uri = "calimero://app/guided/guide?version=2.0.0";
    assert!(uris.contains(&uri), "{uris:?}");
    let r = call(&client, "select_app", json!({"app": "guided"}))
        .await
        .unwrap();
    assert_eq!(r.structured_content.clone().unwrap()["guide"], uri);
    assert_eq!(embedded(&after_json(&r)[1]).2, GUIDE);
    client.cancel().await.unwrap();
}
