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

#[tokio::test]
async fn the_toolset_is_opt_in_and_read_only_hides_it() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url]).await;
    let names = tool_list_names(&client).await;
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
    let names = tool_list_names(&client).await;
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
}

/// `calimcp --node URL ARGS --json` as a user would run it: the exit code
/// and stdout (else stderr) as JSON.
fn cli_json(node: &FakeNode, args: &[&str]) -> (Option<i32>, Value) {
    let home = tempfile::tempdir().unwrap();
    let out = support::calimcp(home.path())
        .args(["--node", &node.url, "--json"])
        .args(args)
        .output()
        .unwrap();
    let text = if out.status.success() {
        out.stdout
    } else {
        out.stderr
    };
    let v = serde_json::from_slice(&text)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&text)));
    (out.status.code(), v)
}

/// The tool's structured answer (it must have succeeded).
async fn ok(client: &Client, name: &str, args: Value) -> Value {
    let r = call(client, name, args).await.unwrap();
    assert_ne!(r.is_error, Some(true), "{name}: {}", text(&r));
    r.structured_content
        .unwrap_or_else(|| panic!("{name}: no structured content"))
}

/// The tool's refusal text (it must have failed).
async fn refused(client: &Client, name: &str, args: Value) -> String {
    let r = call(client, name, args).await.unwrap();
    assert_eq!(r.is_error, Some(true), "{name}: {}", text(&r));
    text(&r)
}

/// invite_to_context on node 1, join_context on node 2 (the invitation
/// passed on byte for byte), set_alias / remove_alias there, and
/// uninstall_application refused while a context runs the app, then with
/// `force`; each outcome the same as the CLI's for the same scenario
/// (`context invite`, `context join` on a third node, `context alias add`,
/// `app uninstall`).
#[tokio::test]
async fn invite_join_alias_and_uninstall_as_tools_match_the_cli() {
    for p in [Profile::Rc4, Profile::Rc25] {
        let (n1, n2, n3) = (
            FakeNode::with_profile(p),
            FakeNode::with_profile(p),
            FakeNode::with_profile(p),
        );
        n1.install("com.example.registry", registry_abi());
        let c1 = stdio_client(&["--node", &n1.url, "--toolsets", "lifecycle"]).await;
        let inv = created_and_invited(&c1, &n1).await;
        let ctx = inv["contextId"].as_str().unwrap().to_string();
        let c2 = stdio_client(&["--node", &n2.url, "--toolsets", "lifecycle"]).await;
        joined_as_the_cli_joins(&c2, &n2, &n3, &inv, p).await;
        aliases_as_the_cli_sets_them(&c2, &n2, &n3, &ctx).await;
        uninstalled_as_the_cli_uninstalls(&c1, &n1, &ctx, p).await;
        c1.cancel().await.unwrap();
        c2.cancel().await.unwrap();
    }
}

/// A context made on node 1 and its invitation, which is the CLI's object
/// (keys and ids alike).
async fn created_and_invited(c1: &Client, n1: &FakeNode) -> Value {
    let created = ok(
        c1,
        "create_context",
        json!({"app": "com.example.registry", "args": {"owner": "o", "limit": 1}}),
    )
    .await;
    let ctx = created["contextId"].as_str().unwrap().to_string();
    let inv = ok(c1, "invite_to_context", json!({"context": ctx})).await;
    assert_eq!(inv["contextId"], ctx.as_str(), "{inv}");
    assert_eq!(inv["namespaceId"], created["namespaceId"], "{inv}");
    let (code, cli_inv) = cli_json(n1, &["context", "invite", &ctx]);
    assert_eq!(code, Some(0), "{cli_inv}");
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&inv), keys(&cli_inv));
    assert_eq!(keys(&inv["invitation"]), keys(&cli_inv["invitation"]));
    inv
}

/// Joined on node 2 through the tool (the invitation passed on byte for
/// byte), on node 3 through the CLI: the same outcome.
async fn joined_as_the_cli_joins(
    c2: &Client,
    n2: &FakeNode,
    n3: &FakeNode,
    inv: &Value,
    p: Profile,
) {
    let (ns, ctx) = (
        inv["namespaceId"].as_str().unwrap(),
        inv["contextId"].as_str().unwrap(),
    );
    for n in [n2, n3] {
        let module = support::fake_node::wasm_module(Some(&registry_abi()));
        n.offer(ns, ctx, module, registry_abi());
    }
    let joined = ok(
        c2,
        "join_context",
        json!({"invitation": inv, "alias": "reg2"}),
    )
    .await;
    let sent = n2
        .requests()
        .into_iter()
        .find(|r| r.path.ends_with("/join") && r.path.contains("namespaces"))
        .unwrap()
        .json();
    assert_eq!(sent["invitation"], inv["invitation"], "byte for byte");
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), inv.to_string()).unwrap();
    let path = file.path().to_str().unwrap();
    let (code, cli_joined) = cli_json(n3, &["context", "join", path, "--alias", "reg2"]);
    assert_eq!(code, Some(0), "{cli_joined}");
    let same = |v: &Value| json!([v["contextId"], v["namespaceId"], v["alias"], v["ready"]]);
    assert_eq!(same(&joined), same(&cli_joined), "{}", p.name());
    assert_eq!(joined["ready"], true);
}

/// Aliases on node 2: set, a duplicate refused (as the CLI refuses it on
/// node 3), a bad name refused before sending, removed.
async fn aliases_as_the_cli_sets_them(c2: &Client, n2: &FakeNode, n3: &FakeNode, ctx: &str) {
    let row = ok(c2, "set_alias", json!({"alias": "other", "context": ctx})).await;
    assert_eq!(row["alias"], "other");
    assert_eq!(n2.aliases().get("other").map(String::as_str), Some(ctx));
    let t = refused(c2, "set_alias", json!({"alias": "reg2", "context": ctx})).await;
    assert!(t.contains("reg2"), "{t}");
    let (code, cli) = cli_json(n3, &["context", "alias", "add", "reg2", ctx]);
    assert_eq!(code, Some(2), "{cli}");
    assert_eq!(cli["error"]["code"], "alias_taken", "{cli}");
    let t = refused(
        c2,
        "set_alias",
        json!({"alias": "bad alias!", "context": ctx}),
    )
    .await;
    assert!(t.contains("alias"), "checked before anything is sent: {t}");
    let row = ok(c2, "remove_alias", json!({"alias": "other"})).await;
    assert_eq!(row["alias"], "other");
    assert!(!n2.aliases().contains_key("other"));
}

/// Uninstall on node 1: refused while contexts run the app (each named), as
/// the CLI refuses it; then removed with `force`.
async fn uninstalled_as_the_cli_uninstalls(c1: &Client, n1: &FakeNode, ctx: &str, p: Profile) {
    let before = n1.app_ids();
    let app = json!({"app": "com.example.registry"});
    let t = refused(c1, "uninstall_application", app).await;
    assert!(t.contains(ctx), "the context is named: {t}");
    let (code, cli) = cli_json(n1, &["app", "uninstall", "com.example.registry", "--yes"]);
    assert_eq!(code, Some(2), "{cli}");
    assert_eq!(cli["error"]["code"], "app_in_use", "{cli}");
    assert_eq!(n1.app_ids(), before, "nothing removed");
    let forced = json!({"app": "com.example.registry", "force": true});
    let done = ok(c1, "uninstall_application", forced).await;
    assert_eq!(
        done["applicationIds"].as_array().unwrap().len(),
        1,
        "{done}"
    );
    assert_eq!(n1.app_ids().len(), before.len() - 1, "{}", p.name());
}

/// `install_application` of a bundle inside `--install-from`: its manifest's
/// `metadata` is what the node stores, as with `app install`.
#[tokio::test]
async fn install_application_stores_a_bundles_own_metadata() {
    let node = FakeNode::with_profile(Profile::Rc4);
    let dir = tempfile::tempdir().unwrap();
    let own = json!({"name": "Registry", "description": "keeps an owner"});
    let manifest = json!({
        "version": "1.0", "package": "com.example.registry", "appVersion": "0.2.0",
        "metadata": own, "wasm": {"path": "app.wasm"}, "abi": {"path": "abi.json"}
    });
    let bundle = dir.path().join("registry.mpk");
    let bytes = support::mpk(&[
        ("manifest.json", manifest.to_string().into_bytes()),
        (
            "app.wasm",
            support::fake_node::wasm_module(Some(&registry_abi())),
        ),
        ("abi.json", registry_abi().to_string().into_bytes()),
    ]);
    std::fs::write(&bundle, bytes).unwrap();
    let from = dir.path().to_str().unwrap();
    let client = stdio_client(&[
        "--node",
        &node.url,
        "--toolsets",
        "lifecycle",
        "--install-from",
        from,
    ])
    .await;
    let done = ok(&client, "install_application", json!({"source": bundle})).await;
    assert_eq!(done["package"], "com.example.registry", "{done}");
    assert_eq!(node.installed_metadata(), own);
    client.cancel().await.unwrap();
}
