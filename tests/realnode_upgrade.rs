//! The gated group upgrade on real nodes (issue 45), rc.4 and rc.25: three
//! builds of the events test app (v1 without `touch`; v2 with it, a method
//! added: compatible; v3 with `insert`'s `n` retyped from u64 to string:
//! breaking), two contexts in one namespace. The breaking build is refused
//! with the group's target unchanged and nothing installed (CLI and the MCP
//! tool, whose refusal carries the findings as data); `--dry-run` changes
//! nothing; the compatible build is installed and the group upgraded, the
//! node's answer read on both versions, `contexts` shows the pending move,
//! and a context moves at its next call while the other still waits.

mod support;

use std::path::PathBuf;

use serde_json::{Value, json};
use support::realnode::{RealNode, on_each_version, test_app_with_abi};
use support::serve::{call, stdio_client, text};

const PACKAGE: &str = "com.example.events";

fn run(node: &RealNode, args: &[&str]) -> (Option<i32>, String, String) {
    let out = node.calimcp().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn without_touch(abi: &mut Value) {
    abi["methods"]
        .as_array_mut()
        .unwrap()
        .retain(|m| m["name"] != "touch");
}

/// v1, v2 (a method added), v3 (a parameter retyped).
fn builds() -> (PathBuf, PathBuf, PathBuf) {
    let v1 = test_app_with_abi("events", "up-v1", without_touch);
    let v2 = test_app_with_abi("events", "up-v2", |_| {});
    let v3 = test_app_with_abi("events", "up-v3", |abi| {
        without_touch(abi);
        for m in abi["methods"].as_array_mut().unwrap() {
            if m["name"] == "insert" {
                m["params"][1]["type"] = json!({"kind": "string"});
            }
        }
    });
    (v1, v2, v3)
}

struct World {
    node: RealNode,
    ns: String,
    a: String,
    b: String,
    id1: String,
}

fn world(node: RealNode, v1: &std::path::Path) -> World {
    let id1 = node.install(v1, PACKAGE, "0.1.0");
    let (ns, a, _) = node.create_context_full(&id1, None);
    let b = node.create_context_in(&id1, &ns);
    node.alias_context("up-a", &a);
    World {
        node,
        ns,
        a,
        b,
        id1,
    }
}

impl World {
    fn target(&self) -> String {
        self.node
            .admin("GET", &format!("/admin-api/groups/{}", self.ns), None)["data"]
            ["targetApplicationId"]
            .as_str()
            .unwrap()
            .to_string()
    }

    fn installed(&self) -> usize {
        let v = self.node.admin("GET", "/admin-api/applications", None);
        v["data"]["apps"]
            .as_array()
            .or_else(|| v["data"].as_array())
            .map_or(0, Vec::len)
    }

    fn runs(&self, ctx: &str) -> String {
        self.node
            .admin("GET", &format!("/admin-api/contexts/{ctx}"), None)["data"]["applicationId"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The `pendingVersion` of context `ctx` in `contexts --json`.
    fn pending(&self, ctx: &str) -> Value {
        let (code, out, err) = run(&self.node, &["contexts", "--json"]);
        assert_eq!(code, Some(0), "{err}");
        let rows: Value = serde_json::from_str(&out).unwrap();
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == ctx)
            .unwrap_or_else(|| panic!("{ctx} in {rows}"))["pendingVersion"]
            .clone()
    }
}

on_each_version! {
fn the_gate_refuses_breaking_then_upgrades_compatible_and_contexts_move_lazily(v) {
    let Some(node) = RealNode::start_on(v, "upgrade_gate") else {
        return;
    };
    let (v1, v2, v3) = builds();
    let w = world(node, &v1);
    let (apps, target) = (w.installed(), w.target());
    assert_eq!(target, w.id1);
    // Breaking: refused, nothing installed, the target unchanged.
    let (code, out, err) = run(&w.node, &["app", "upgrade", "up-a", "--to", v3.to_str().unwrap(), "--yes", "--json"]);
    assert_eq!(code, Some(1), "{err}\n{}", w.node.log());
    let refused: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(refused["refused"], true);
    assert!(refused["findings"].as_array().unwrap().iter().any(|f| f["rule"] == "param-type-changed" && f["path"] == "insert.params.n"), "{refused}");
    assert_eq!((w.installed(), w.target()), (apps, target.clone()));
    // --dry-run of the compatible one: said, not done.
    let (code, out, err) = run(&w.node, &["app", "upgrade", "up-a", "--to", v2.to_str().unwrap(), "--dry-run"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("dry run: would install the build and upgrade group"), "{out}");
    assert_eq!((w.installed(), w.target()), (apps, target.clone()));
    // Compatible: installed, the group upgraded; the node's answer read.
    let (code, out, err) = run(&w.node, &["app", "upgrade", "up-a", "--to", v2.to_str().unwrap(), "--version", "0.2.0", "--yes", "--json"]);
    assert_eq!(code, Some(0), "{err}\n{}", w.node.log());
    let done: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((done["installed"].clone(), done["upgraded"].clone()), (json!(true), json!(true)), "{done}");
    assert_eq!(done["node_status"], "completed", "LazyOnAccess: {done}");
    let id2 = done["to"]["application_id"].as_str().unwrap().to_string();
    assert_eq!(w.target(), id2);
    assert_eq!(w.installed(), apps + 1);
    let contexts = done["contexts"].as_array().unwrap();
    assert_eq!(contexts.len(), 2, "{done}");
    assert!(contexts.iter().all(|c| c["moves_to"] == id2.as_str()), "{done}");
    // Lazy: the node still says the old version until the next call.
    assert_eq!(w.runs(&w.a), w.id1);
    assert_eq!(w.pending(&w.a), "0.2.0");
    assert_eq!(w.pending(&w.b), "0.2.0");
    let (code, _, err) = run(&w.node, &["call", "events_touch", "-c", "up-a"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(w.runs(&w.a), id2, "moved at its call");
    assert_eq!(w.pending(&w.a), Value::Null);
    assert_eq!(w.pending(&w.b), "0.2.0", "the other context has not moved");
    // The same build again: the node has its bytes (matched by blob id), so
    // nothing is installed, and the group targets it already, so no upgrade
    // is sent (both versions refuse one with a 500).
    let (code, out, err) = run(&w.node, &["app", "upgrade", "--group", &w.ns, "--to", v2.to_str().unwrap(), "--yes", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let again: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((again["installed"].clone(), again["already"].clone()), (json!(false), json!(true)), "{again}");
    assert_eq!(again["to"]["application_id"], id2.as_str());
    assert_eq!(w.installed(), apps + 1);
}
}

on_each_version! {
async fn the_mcp_tool_refuses_the_breaking_build_with_its_findings_as_data(v) {
    let Some(w) = tokio::task::spawn_blocking(move || {
        let node = RealNode::start_on(v, "upgrade_mcp")?;
        let (v1, _, _) = builds();
        Some(world(node, &v1))
    })
    .await
    .unwrap() else {
        return;
    };
    let (_, _, v3) = builds();
    let dir = v3.parent().unwrap().to_str().unwrap().to_string();
    let (apps, target) = (w.installed(), w.target());
    let client = stdio_client(&["--node", &w.node.url, "--toolsets", "lifecycle", "--install-from", &dir]).await;
    let r = call(&client, "upgrade_app", json!({"context": w.a, "to": v3})).await.unwrap();
    assert_eq!(r.is_error, Some(true), "{}", text(&r));
    let data = r.structured_content.clone().unwrap();
    assert!(data["findings"].as_array().unwrap().iter().any(|f| f["rule"] == "param-type-changed"
        && f["path"] == "insert.params.n" && f["level"] == "breaking" && f["message"].is_string()), "{data}");
    assert_eq!((w.installed(), w.target()), (apps, target));
    client.cancel().await.unwrap();
}
}
