//! The served apps' reference pages: `serve --http` answers `GET /` and
//! `GET /apps/NAME` (with try-it forms for the listed tools only), refuses a
//! foreign Host, and offers the MCP App `ui://calimcp/reference`, which
//! `describe_app` points to. The browser tests (tests/browser.rs) run the
//! forms; these check what the server sends.

use crate::support;

use serde_json::{Value, json};
use support::fake_node::FakeNode;
use support::serve::{HttpServer, RawHttp};

async fn get(base: &str, path: &str, host: Option<&str>) -> (u16, String, String) {
    let client = reqwest::Client::new();
    let mut req = client.get(format!("{base}{path}"));
    if let Some(h) = host {
        req = req.header("host", h);
    }
    let r = req.send().await.expect("GET");
    let status = r.status().as_u16();
    let csp = r
        .headers()
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    (status, csp, r.text().await.unwrap_or_default())
}

#[tokio::test]
async fn pages_index_and_app_with_forms_for_listed_tools_only() {
    support::serve::install_crypto();
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let server = HttpServer::start(&["--apps", examples, "--read-only", "--offline"]);
    let base = server.url.trim_end_matches("/mcp").to_string();

    let (status, csp, index) = get(&base, "/", None).await;
    assert_eq!(status, 200);
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert!(index.contains("href=\"/apps/kv_store\""), "{index}");

    let (status, _, page) = get(&base, "/apps/kv_store", None).await;
    assert_eq!(status, 200);
    assert!(page.contains(r#"<form class="try" data-tool="kv_store_get">"#));
    assert!(page.contains(r#"name="key""#));
    assert!(
        !page.contains(r#"data-tool="kv_store_set""#),
        "--read-only: no form for a [mut] tool"
    );
    assert!(
        page.contains(r#"id="m-set""#),
        "the [mut] method is documented"
    );
    assert!(page.contains(r#""transport":"fetch","endpoint":"/mcp""#));
    assert!(page.contains(r#"data-uri="calimero://app/kv_store/contexts""#));

    let (status, _, missing) = get(&base, "/apps/%3Cb%3Enope", None).await;
    assert_eq!(status, 404);
    assert!(missing.contains("&lt;b&gt;nope") && !missing.contains("<b>nope"));
    let (status, _, _) = get(&base, "/", Some("evil.example")).await;
    assert_eq!(status, 403, "a foreign Host is refused, as on /mcp");
    assert_eq!(server.stop(), Some(0));
}

#[tokio::test]
async fn the_mcp_app_resource_and_describe_app_pointing_to_it() {
    support::serve::install_crypto();
    let node = FakeNode::start();
    let server = HttpServer::start(&["--node", &node.url]);
    let raw = RawHttp::new(&server.url);
    let sid = raw.initialize().await;
    let ask = |id: u64, method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let answer = |text: String| -> Value {
        let data = text
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(str::trim)
            .find(|d| !d.is_empty())
            .map_or(text.clone(), str::to_string);
        serde_json::from_str(&data).expect("a JSON-RPC answer")
    };
    let v = "2025-03-26";
    let listed = answer(
        raw.post(ask(2, "resources/list", json!({})), Some(&sid), Some(v))
            .await
            .text()
            .await
            .unwrap(),
    );
    let ui: Vec<&Value> = listed["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["uri"] == "ui://calimcp/reference")
        .collect();
    assert_eq!(ui.len(), 1, "{listed}");
    assert_eq!(ui[0]["mimeType"], "text/html;profile=mcp-app");

    let read = answer(
        raw.post(
            ask(
                3,
                "resources/read",
                json!({"uri": "ui://calimcp/reference"}),
            ),
            Some(&sid),
            Some(v),
        )
        .await
        .text()
        .await
        .unwrap(),
    );
    let content = &read["result"]["contents"][0];
    assert_eq!(content["mimeType"], "text/html;profile=mcp-app");
    let html = content["text"].as_str().unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains(r#""transport":"bridge""#));
    assert!(
        html.contains(r#"data-tool="kv_store_set""#),
        "not read-only: [mut] forms"
    );

    let tools = answer(
        raw.post(ask(4, "tools/list", json!({})), Some(&sid), Some(v))
            .await
            .text()
            .await
            .unwrap(),
    );
    let describe = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "describe_app")
        .unwrap();
    assert_eq!(
        describe["_meta"]["ui"]["resourceUri"],
        "ui://calimcp/reference"
    );
    assert_eq!(server.stop(), Some(0));
}
