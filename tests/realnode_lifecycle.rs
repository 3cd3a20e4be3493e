//! The whole app lifecycle with calimcp alone on two real peered nodes
//! (issue 43), on rc.4 and rc.25: `app install` of the registry test app
//! (whose `init(owner: String, limit: u32)` keeps its arguments), `context
//! create` with bad init arguments (refused locally: the node's context count
//! is unchanged) and good ones, `context invite` on node 1 and `context join`
//! on node 2, a call on node 2 that reads what init kept, aliases, `context
//! delete` and `app uninstall`; then the same through the MCP lifecycle
//! tools of `calimcp serve --toolsets lifecycle`: `install_application` of a
//! path inside `--install-from`, `create_context` with bad arguments (refused
//! locally, the count unchanged) and good ones, `invite_to_context` on node 1
//! and `join_context` on node 2.

mod support;

use serde_json::{Value, json};
use support::realnode::{Cluster, RealNode, on_each_version, test_app};
use support::serve::{Client, call, stdio_client, text};

const REGISTRY: &str = "com.example.registry";

fn run(node: &RealNode, args: &[&str]) -> (Option<i32>, String, String) {
    let out = node.calimcp().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn json_ok(node: &RealNode, args: &[&str]) -> Value {
    let (code, out, err) = run(node, args);
    assert_eq!(
        code,
        Some(0),
        "{args:?}: {err}\n--- node log:\n{}",
        node.log()
    );
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

/// How many contexts the node has, asked of it directly.
fn context_count(node: &RealNode) -> usize {
    let v = node.admin("GET", "/admin-api/contexts", None);
    v["data"]["contexts"]
        .as_array()
        .or(v["data"].as_array())
        .map_or(0, Vec::len)
}

on_each_version! {
fn from_a_wasm_to_a_context_on_two_nodes_and_back(v) {
    let test = "from_a_wasm_to_a_context_on_two_nodes_and_back";
    let Some(c) = Cluster::start_empty(test, v, 2) else {
        return;
    };
    let (n1, n2) = (c.node(1), c.node(2));
    let wasm = test_app("registry");
    let installed = json_ok(
        n1,
        &["app", "install", wasm.to_str().unwrap(), "--package", REGISTRY, "--version", "0.1.0", "--json"],
    );
    let app = installed["applicationId"].as_str().unwrap().to_string();
    // The same bytes again: the same id.
    let again = json_ok(
        n1,
        &["app", "install", wasm.to_str().unwrap(), "--package", REGISTRY, "--version", "0.1.0", "--json"],
    );
    assert_eq!(again["applicationId"], app.as_str());

    // Bad init arguments: refused before anything is sent.
    let before = context_count(n1);
    let (code, _, err) = run(n1, &["context", "create", REGISTRY, "--owner", "alice"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("limit") && err.contains("init(owner: string, limit: u32)"), "{err}");
    let (code, _, err) = run(n1, &["context", "create", REGISTRY, "--owner", "alice", "--limit", "-1"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(context_count(n1), before, "nothing was created");

    // Good ones.
    let created = json_ok(
        n1,
        &["--json", "context", "create", REGISTRY, "--owner", "alice", "--limit", "10", "--alias", "reg"],
    );
    let ctx = created["contextId"].as_str().unwrap().to_string();
    assert_eq!(created["alias"], "reg");
    assert_eq!(context_count(n1), before + 1);
    let (code, out, err) = run(n1, &["call", &format!("{REGISTRY}.owner"), "-c", "reg"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.trim(), "\"alice\"");

    // Invite on node 1, join on node 2, read there.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("invitation.json");
    let (code, _, err) = run(n1, &["context", "invite", "reg", "-o", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let joined = json_ok(
        n2,
        &["context", "join", file.to_str().unwrap(), "--alias", "reg2", "--within", "170", "--json"],
    );
    assert_eq!(joined["ready"], true);
    assert_eq!(joined["contextId"], ctx.as_str());
    let (code, out, err) = run(n2, &["call", &format!("{app}.limit"), "-c", "reg2"]);
    assert_eq!(code, Some(0), "{err}\n--- node 2 log:\n{}", n2.log());
    assert_eq!(out.trim(), "10");

    // Aliases.
    let list = json_ok(n2, &["context", "alias", "list", "--json"]);
    assert!(list.as_array().unwrap().iter().any(|r| r["alias"] == "reg2" && r["contextId"] == ctx.as_str()), "{list}");
    let (code, _, err) = run(n2, &["context", "alias", "add", "reg2", &ctx, "--json"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("alias_taken"), "{err}");
    json_ok(n2, &["context", "alias", "remove", "reg2", "--json"]);
    json_ok(n2, &["context", "alias", "add", "again", &ctx, "--json"]);

    // Uninstall is refused while the context runs the app; delete, then uninstall.
    let (code, _, err) = run(n1, &["app", "uninstall", REGISTRY, "--yes", "--json"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("app_in_use") && err.contains(&ctx), "{err}");
    let (code, _, err) = run(n1, &["context", "delete", "reg"]);
    assert_eq!(code, Some(2), "off a terminal --yes is required: {err}");
    let deleted = json_ok(n1, &["context", "delete", "reg", "--yes", "--json"]);
    assert_eq!(deleted["deleted"], true, "{deleted}");
    assert_eq!(context_count(n1), before);
    let gone = json_ok(n1, &["app", "uninstall", REGISTRY, "--yes", "--json"]);
    assert_eq!(gone["applicationIds"][0], app.as_str());
    let deleted = json_ok(n2, &["context", "delete", &ctx, "--yes", "--json"]);
    assert_eq!(deleted["deleted"], true, "{deleted}");
}
}

/// The tool's structured answer (it must have succeeded).
async fn tool_ok(client: &Client, name: &str, args: Value, node: &RealNode) -> Value {
    let r = call(client, name, args).await.unwrap();
    assert_ne!(
        r.is_error,
        Some(true),
        "{name}: {}\n--- node log:\n{}",
        text(&r),
        node.log()
    );
    r.structured_content
        .unwrap_or_else(|| panic!("{name}: no structured content"))
}

on_each_version! {
async fn the_lifecycle_tools_on_two_real_nodes(v) {
    let test = "the_lifecycle_tools_on_two_real_nodes";
    let Some(c) = Cluster::start_empty(test, v, 2) else {
        return;
    };
    let (n1, n2) = (c.node(1), c.node(2));
    let wasm = test_app("registry");
    let dir = wasm.parent().unwrap().to_str().unwrap().to_string();
    let c1 = stdio_client(&["--node", &n1.url, "--toolsets", "lifecycle", "--install-from", &dir]).await;
    let installed = tool_ok(
        &c1,
        "install_application",
        json!({"source": wasm, "package": REGISTRY, "version": "0.1.0"}),
        n1,
    )
    .await;
    let app = installed["applicationId"].as_str().unwrap().to_string();

    // Bad init arguments: refused by calimcp, nothing reaches the node.
    let before = context_count(n1);
    for args in [json!({"owner": "alice"}), json!({"owner": "alice", "limit": -1})] {
        let r = call(&c1, "create_context", json!({"app": REGISTRY, "args": args})).await.unwrap();
        assert_eq!(r.is_error, Some(true), "{args}: {}", text(&r));
        let t = text(&r);
        assert!(t.contains("limit") && t.contains("init(owner: string, limit: u32)"), "{t}");
    }
    assert_eq!(context_count(n1), before, "nothing was created");

    // Good ones, then invite on node 1 and join on node 2 through the tools.
    let created = tool_ok(
        &c1,
        "create_context",
        json!({"app": REGISTRY, "args": {"owner": "bob", "limit": 7}, "alias": "reg"}),
        n1,
    )
    .await;
    let ctx = created["contextId"].as_str().unwrap().to_string();
    assert_eq!(context_count(n1), before + 1);
    let inv = tool_ok(&c1, "invite_to_context", json!({"context": "reg"}), n1).await;
    assert_eq!(inv["contextId"], ctx.as_str(), "{inv}");
    let c2 = stdio_client(&["--node", &n2.url, "--toolsets", "lifecycle"]).await;
    let joined = tool_ok(
        &c2,
        "join_context",
        json!({"invitation": inv, "alias": "reg2"}),
        n2,
    )
    .await;
    assert_eq!(joined["ready"], true, "{joined}");
    assert_eq!(joined["contextId"], ctx.as_str());
    // What init kept, read on node 2.
    let (code, out, err) = run(n2, &["call", &format!("{app}.limit"), "-c", "reg2"]);
    assert_eq!(code, Some(0), "{err}\n--- node 2 log:\n{}", n2.log());
    assert_eq!(out.trim(), "7");
    let deleted = tool_ok(&c1, "delete_context", json!({"context": "reg"}), n1).await;
    assert_eq!(deleted["deleted"], true, "{deleted}");
    assert_eq!(context_count(n1), before);
    c1.cancel().await.unwrap();
    c2.cancel().await.unwrap();
}
}
