//! calimcp against a real Calimero node (issue 13): the harness and the
//! first end-to-end checks.

mod support;

use assert_cmd::Command;
use support::realnode::{RealNode, on_each_version};

on_each_version! {
fn apps_on_an_empty_real_node_reaches_it(v) {
    let Some(node) = RealNode::start_on(v, "apps_on_an_empty_real_node_reaches_it") else {
        return;
    };
    let out = Command::cargo_bin("calimcp")
        .unwrap()
        .args(["apps", "--json", "--node", &node.url])
        .env("CALIMCP_STATE_DIR", node_state())
        .output()
        .unwrap();
    // An empty node is reached (not `unreachable`): with --json a listing of
    // nothing is `[]`, exit 0, and why is a warning (issue 22.10).
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[]");
    assert!(err.contains("has none installed"), "{err}");
    assert!(!err.contains("unreachable"), "{err}");
    // Without --json too, an empty node is an empty listing (exit 0) that
    // says so (issue 44; it was a usage error).
    let text = Command::cargo_bin("calimcp")
        .unwrap()
        .args(["apps", "--node", &node.url])
        .env("CALIMCP_STATE_DIR", node_state())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&text.stderr).to_string();
    assert!(text.status.success(), "{said}");
    assert!(said.contains("no apps on"), "{said}");
}
}

fn node_state() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("calimcp-realnode-{}", std::process::id()))
}

on_each_version! {
fn a_node_only_app_is_described_and_called_through_an_alias(v) {
    let Some(node) = RealNode::start_on(v, "a_node_only_app_is_described_and_called_through_an_alias")
    else {
        return;
    };
    node.setup(
        &support::realnode::kv_app(),
        "com.example.kv-c",
        Some("kvmain"),
    );
    // The ABI comes from the bytecode blob (rc.4 has no ABI route).
    let out = node
        .calimcp()
        .args(["describe", "com.example.kv-c"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("add(a: u64, b: u64) -> u64"), "{text}");
    let out = node
        .calimcp()
        .args([
            "call",
            "com.example.kv-c.add",
            "-c",
            "kvmain",
            "--a",
            "2",
            "--b",
            "40",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "42");
}
}

/// Why a node app without an ABI is left out: rc4 has no ABI route, so calimcp
/// reads the module and finds no `calimero_abi_v1` section; rc25's route
/// answers 400 "no usable embedded ABI", which calimcp passes on.
fn no_abi_reason(v: support::realnode::Version) -> &'static str {
    match v {
        support::realnode::Version::Rc4 => "calimero_abi_v1",
        support::realnode::Version::Rc25 => "no usable embedded ABI",
    }
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

on_each_version! {
fn left_out_node_apps_are_named_with_their_reason_and_shadowed_ones_are_skipped(v) {
    let Some(node) = RealNode::start_on(v, "left_out_node_apps_are_named_with_their_reason_and_shadowed_ones_are_skipped",
    ) else {
        return;
    };
    let wasm = support::realnode::test_app("noabi");
    node.setup(&wasm, "com.example.noabi", None);
    // The node answered: say so, name the app, say why (here, with --quiet, in the error).
    let out = node.calimcp().args(["apps"]).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no usable apps: the node at")
            && err.contains("has 1 app (com.example.noabi), and it was left out"),
        "{err}"
    );
    assert!(
        err.contains("warning: left out: com.example.noabi"),
        "{err}"
    );
    let out = node.calimcp().args(["tools", "-q"]).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(no_abi_reason(v)), "{err}");
    assert!(!err.contains("warning"), "{err}");

    // A local app of the same package shadows it: not fetched, not warned about.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/testapps/events/abi.json"),
        dir.path().join("com.example.noabi.json"),
    )
    .unwrap();
    let out = node
        .calimcp()
        .args(["tools", "-v", "--apps"])
        .arg(dir.path())
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("left out"), "{err}");
    assert!(
        !err.contains("/admin-api/blobs/"),
        "no module download: {err}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("noabi_insert"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
}

on_each_version! {
async fn describe_app_tells_agents_which_node_apps_are_left_out_and_why(v) {
    let reason = no_abi_reason(v);
    let Some(node) =
        RealNode::start_on(v, "describe_app_tells_agents_which_node_apps_are_left_out_and_why")
    else {
        return;
    };
    let wasm = support::realnode::test_app("noabi");
    node.setup(&wasm, "com.example.noabi", None);
    // The node's own state directory: support::serve's is shared by the tests of
    // this binary, and calimcp caches a module's "no ABI" verdict by blob id.
    let state = node.state.path().to_str().unwrap().to_string();
    let (client, _) = support::serve::stdio_client_env(
        &["--node", &node.url],
        &[("CALIMCP_STATE_DIR", &state)],
        support::serve::Watcher::default(),
    )
    .await;
    let r = support::serve::call(&client, "describe_app", serde_json::json!({}))
        .await
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&support::serve::text(&r)).unwrap();
    assert_eq!(v["apps"], serde_json::json!([]), "{v}");
    assert_eq!(v["left_out"][0]["app"], "com.example.noabi", "{v}");
    assert!(
        v["left_out"][0]["reason"]
            .as_str()
            .unwrap()
            .contains(reason),
        "{v}"
    );
    assert!(
        v["note"]
            .as_str()
            .unwrap()
            .contains("no apps can be served"),
        "{v}"
    );
    client.cancel().await.unwrap();
}
}

on_each_version! {
async fn a_context_the_node_does_not_have_is_named_and_the_apps_contexts_listed(v) {
    let Some(node) =
        RealNode::start_on(v, "a_context_the_node_does_not_have_is_named_and_the_apps_contexts_listed")
    else {
        return;
    };
    let (_, ctx) = node.setup(
        &support::realnode::kv_app(),
        "com.example.kv-c",
        Some("kvmain"),
    );
    let absent = "11111111111111111111111111111111";
    let out = node
        .calimcp()
        .args([
            "call",
            "com.example.kv-c.add",
            "-c",
            absent,
            "--a",
            "1",
            "--b",
            "2",
        ])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("context {absent} is not on the node at")),
        "{err}"
    );
    assert!(err.contains(&ctx), "the app's contexts are listed: {err}");
    assert!(!err.contains("No owned identity"), "{err}");

    // The same for an agent, which chooses with `_context`.
    let client = support::serve::stdio_client(&["--node", &node.url]).await;
    let r = support::serve::call(
        &client,
        "kv_c_add",
        serde_json::json!({"a": 1, "b": 2, "_context": absent}),
    )
    .await
    .unwrap();
    let text = support::serve::text(&r);
    assert_eq!(r.is_error, Some(true), "{text}");
    assert!(
        text.contains("is not on the node") && text.contains(&ctx),
        "{text}"
    );
    assert!(text.contains("`_context`"), "{text}");
    client.cancel().await.unwrap();
}
}

on_each_version! {
fn call_takes_a_path_as_its_app(v) {
    let Some(node) = RealNode::start_on(v, "call_takes_a_path_as_its_app") else {
        return;
    };
    node.setup(
        &support::realnode::kv_app(),
        "com.example.kv-c",
        Some("kvmain"),
    );
    let kv = support::realnode::kv_app();
    let out = node
        .calimcp()
        .args(["call", &format!("{}.add", kv.display()), "-c", "kvmain"])
        .args(["--a", "40", "--b", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "42");
    // A path that names nothing: what TOOL may be, not a reachability error.
    let out = node
        .calimcp()
        .args(["call", "no/such/app.json.add"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no such file or directory"), "{err}");
    assert!(err.contains("PATH.METHOD"), "{err}");
    assert!(!err.contains("reach"), "{err}");
}
}

on_each_version! {
fn a_multi_service_bundle_is_read_service_by_service_and_called(v) {
    let Some(node) =
        RealNode::start_on(v, "a_multi_service_bundle_is_read_service_by_service_and_called")
    else {
        return;
    };
    let events = support::realnode::test_app("events");
    let typed = support::realnode::test_app("typed");
    let mpk = support::realnode::bundle(
        node.state.path(),
        "com.example.multi",
        &[("events", &events), ("typed", &typed)],
    );
    if v == support::realnode::Version::Rc25 {
        // rc25 installs signed bundles only (crates/node/primitives
        // client/application/bundle.rs); the harness does not sign them.
        let (status, text) = node.try_admin(
            "POST",
            "/admin-api/install-dev-application",
            Some(&serde_json::json!({"path": mpk, "metadata": [], "package": "com.example.multi", "version": "0.1.0"})),
        );
        assert!(status >= 400 && text.contains("signature"), "HTTP {status}: {text}");
        return;
    }
    // rc.4 lists no services and keeps the whole .mpk as the app's bytecode.
    let app = node.install(&mpk, "com.example.multi", "0.1.0");
    node.create_service_context(&app, Some("events"));
    node.create_service_context(&app, Some("typed"));
    let out = node
        .calimcp()
        .args(["describe", "com.example.multi", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let services: Vec<&str> = v
        .as_array()
        .expect("one object per service")
        .iter()
        .map(|s| s["service"].as_str().unwrap())
        .collect();
    assert_eq!(services, ["events", "typed"]);
    // Each call runs in its service's only context.
    let out = node
        .calimcp()
        .args([
            "call",
            "multi_typed_echo_u64",
            "--v",
            "18446744073709551615",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "18446744073709551615"
    );
    let out = node
        .calimcp()
        .args(["call", "com.example.multi.events.quiet", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // The bundle was downloaded once; later runs read the cache.
    let out = node
        .calimcp()
        .args(["-v", "tools", "com.example.multi"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("/admin-api/blobs/"), "{err}");
}
}

/// One calimcp state directory used with an rc4 node and then an rc25 node
/// that both have `testapps/noabi` (the same blob): the reason given on the
/// rc25 node must be rc25's, not the rc4 node's verdict read from the cache.
#[test]
fn a_left_out_reason_from_one_node_is_not_reused_for_another() {
    let test = "a_left_out_reason_from_one_node_is_not_reused_for_another";
    let Some(rc4) = RealNode::start_on(support::realnode::Version::Rc4, test) else {
        return;
    };
    let Some(rc25) = RealNode::start_on(support::realnode::Version::Rc25, test) else {
        return;
    };
    let wasm = support::realnode::test_app("noabi");
    rc4.setup(&wasm, "com.example.noabi", None);
    rc25.setup(&wasm, "com.example.noabi", None);
    let shared = tempfile::tempdir().unwrap();
    let apps = |node: &RealNode| {
        let out = node
            .calimcp()
            .env("CALIMCP_STATE_DIR", shared.path())
            .args(["apps"])
            .output()
            .unwrap();
        stderr(&out)
    };
    let first = apps(&rc4);
    assert!(first.contains("calimero_abi_v1"), "{first}");
    let second = apps(&rc25);
    assert!(
        second.contains("no usable embedded ABI"),
        "rc25's own reason: {second}"
    );
    assert!(
        !second.contains(&rc4.url),
        "not the rc4 node's verdict: {second}"
    );
}

/// An app installed on merod rc.25 with a guide and an icon in its metadata
/// (issue 44 §1): describe_app lists its procedures and embeds the guide,
/// its resource reads back the markdown, and its tools carry the icon.
#[tokio::test]
async fn a_real_nodes_app_guide_and_icon_reach_agents() {
    use serde_json::json;
    let Some(node) = RealNode::start_on(
        support::realnode::Version::Rc25,
        "a_real_nodes_app_guide_and_icon_reach_agents",
    ) else {
        return;
    };
    let guide = "# Guided\n\n## Procedures\n\n### Store a value\n\nCall set.\n\n### Read it back\n";
    let icon = "data:image/png;base64,iVBORw0KGgo=";
    let meta = json!({"name": "Guided", "guide": guide, "icon": icon}).to_string();
    node.install_with_metadata(
        &support::realnode::kv_app(),
        "com.example.guided",
        "1.0.0",
        meta.as_bytes(),
    );
    let state = node.state.path().to_str().unwrap().to_string();
    let (client, _) = support::serve::stdio_client_env(
        &["--node", &node.url],
        &[("CALIMCP_STATE_DIR", &state)],
        support::serve::Watcher::default(),
    )
    .await;
    let r = support::serve::call(
        &client,
        "describe_app",
        json!({"app": "com.example.guided"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", support::serve::text(&r));
    let out = r.structured_content.clone().unwrap();
    assert_eq!(out["procedures"], json!(["Store a value", "Read it back"]));
    let uri = out["guide"].as_str().expect("the guide's URI").to_string();
    assert_eq!(uri, "calimero://app/guided/guide?version=1.0.0");
    let embedded = serde_json::to_value(&r.content[2]).unwrap();
    assert_eq!(embedded["resource"]["text"], guide, "{embedded}");
    assert_eq!(embedded["resource"]["mimeType"], "text/markdown");
    let read = client
        .peer()
        .read_resource(rmcp::model::ReadResourceRequestParams::new(uri.as_str()))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&read.contents[0]).unwrap()["text"],
        guide
    );
    let tools = support::serve::listed_app_tools(&client).await;
    let guided: Vec<&serde_json::Value> = tools
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["name"].as_str().unwrap().starts_with("guided_"))
        .collect();
    assert!(!guided.is_empty(), "{tools}");
    for t in guided {
        assert_eq!(t["icons"], json!([{"src": icon}]), "{t}");
    }
    client.cancel().await.unwrap();
}
