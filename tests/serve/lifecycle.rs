//! The lifecycle toolset (issue 43): opt-in with `--toolsets lifecycle`,
//! hidden by `--read-only`, `destructiveHint` on uninstall and delete;
//! `create_context` checks `args` against the app's init before anything is
//! sent, and its answer is the typed result; after it the server reads the
//! node again; rc.83's typed refusals are error results with their code.

use crate::support;

use serde_json::{Value, json};
use support::fake_node::{FakeNode, Profile};
use support::serve::*;

const NAMES: [&str; 8] = [
    "create_context",
    "delete_context",
    "install_application",
    "invite_to_context",
    "join_context",
    "remove_alias",
    "set_alias",
    "uninstall_application",
];

fn registry_abi() -> Value {
    serde_json::from_str(include_str!("../../testapps/registry/abi.json")).unwrap()
}

async fn tool_names(client: &Client) -> Vec<String> {
    let tools = client.peer().list_all_tools().await.expect("tools/list");
    tools.iter().map(|t| t.name.to_string()).collect()
}

#[tokio::test]
async fn the_toolset_is_opt_in_and_read_only_hides_it() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url]).await;
    let names = tool_names(&client).await;
    assert!(
        !names.iter().any(|n| NAMES.contains(&n.as_str())),
        "{names:?}"
    );
    let r = call(&client, "create_context", json!({"app": "kv-store"})).await;
    assert!(r.is_err(), "not served without the toolset");

    let client = stdio_client(&["--node", &node.url, "--toolsets", "lifecycle"]).await;
    let tools = client.peer().list_all_tools().await.unwrap();
    for name in NAMES {
        let t = tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} listed"));
        let a = t.annotations.as_ref().unwrap();
        assert_eq!(a.read_only_hint, Some(false), "{name}");
        assert_eq!(
            a.destructive_hint,
            Some(matches!(name, "uninstall_application" | "delete_context")),
            "{name}"
        );
    }

    let client = stdio_client(&["--node", &node.url, "--toolsets", "all", "--read-only"]).await;
    let names = tool_names(&client).await;
    assert!(
        !names.iter().any(|n| NAMES.contains(&n.as_str())),
        "{names:?}"
    );
    assert!(names.iter().any(|n| n == "describe_app"), "listings stay");
    let r = call(&client, "delete_context", json!({"context": "prod"})).await;
    assert!(r.is_err(), "refused by name under --read-only");
}

#[tokio::test]
async fn create_context_checks_init_args_then_creates_and_the_tools_work() {
    // rc.83 refuses a body's unknown keys: its bodies are held to them.
    for p in [Profile::Rc4, Profile::Rc25, Profile::Rc83] {
        let node = FakeNode::with_profile(p);
        node.install("com.example.registry", registry_abi());
        let before = node.context_count();
        let client = stdio_client(&["--node", &node.url, "--toolsets", "lifecycle"]).await;
        let r = call(
            &client,
            "create_context",
            json!({"app": "com.example.registry", "args": {"owner": 5}}),
        )
        .await
        .unwrap();
        assert_eq!(r.is_error, Some(true));
        let t = text(&r);
        assert!(t.contains("owner") && t.contains("limit"), "{t}");
        assert!(t.contains("init(owner: string, limit: u32)"), "{t}");
        assert_eq!(node.context_count(), before, "nothing created");
        let r = call(
            &client,
            "create_context",
            json!({"app": "com.example.registry", "args": {"owner": "a", "limit": 2}, "alias": "reg"}),
        )
        .await
        .unwrap();
        assert_ne!(r.is_error, Some(true), "{}", text(&r));
        let v = r.structured_content.clone().unwrap();
        let ctx = v["contextId"].as_str().unwrap().to_string();
        assert_eq!(v["alias"], "reg");
        assert_eq!(node.context_count(), before + 1, "{}", p.name());
        let sent: Value = serde_json::from_slice(&node.init_params(&ctx).unwrap()).unwrap();
        assert_eq!(sent, json!({"owner": "a", "limit": 2}));
        // The describe_app note says how contexts are made, with init's signature.
        let r = call(
            &client,
            "describe_app",
            json!({"app": "com.example.registry"}),
        )
        .await
        .unwrap();
        assert!(text(&r).contains("create_context"), "{}", text(&r));
        // delete_context, then uninstall_application.
        let r = call(&client, "delete_context", json!({"context": "reg"}))
            .await
            .unwrap();
        assert_ne!(r.is_error, Some(true), "{}", text(&r));
        assert_eq!(r.structured_content.unwrap()["deleted"], true);
    }
}

#[tokio::test]
async fn install_application_never_reads_a_path_outside_install_from() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url, "--toolsets", "lifecycle"]).await;
    let r = call(
        &client,
        "install_application",
        json!({"source": "/etc/passwd"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("--install-from"), "{}", text(&r));
    assert!(
        !node.requests().iter().any(|r| r.path.contains("install")),
        "nothing sent"
    );
    let r = call(
        &client,
        "install_application",
        json!({"source": "com.x.kv@1.0.0"}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("registry"), "{}", text(&r));
}

/// merod 0.11.0-rc.83's typed refusal of a caller that is not a member (an
/// admin-API 403 with `{"error"}`: the wire record §0) is an error result
/// with its code and the node's words on the MCP face too, never raw JSON.
#[tokio::test]
async fn a_typed_refusal_is_an_error_result_with_its_code() {
    let node = FakeNode::with_profile(Profile::Rc83);
    let client = stdio_client(&["--node", &node.url, "--toolsets", "lifecycle"]).await;
    node.refuse_next_typed("/invite", 403, "not a member of this group");
    let r = call(&client, "invite_to_context", json!({"context": "prod"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    let t = text(&r);
    for words in [
        "not a member of this group",
        "HTTP 403",
        "code: not_a_member",
    ] {
        assert!(t.contains(words), "{words}: {t}");
    }
    assert!(!t.contains(r#"{"error""#), "{t}");
    assert!(t.ends_with("retryable: false"), "{t}");
    client.cancel().await.unwrap();
}
