//! The machine-readable description of an app: what `calimcp describe --json`
//! prints and what the MCP server's `describe_app` returns, from one function.

use serde_json::{Value, json};

use crate::abi::{App, Event, Method};
use crate::mapping::signature::type_name;
use crate::mapping::{Tool, signature};

/// The description of one service of `app`: its methods (ABI order is not
/// kept: sorted by name), each with its signature and tool name, and the
/// events it declares (ABI order) with their payload types. Methods in
/// `methods_without_tool` (such as `init`) are listed with `"tool": null`.
pub fn service_json(
    app: &App,
    service: Option<&str>,
    tools: &[&Tool],
    methods_without_tool: &[&Method],
) -> Value {
    let mut methods: Vec<Value> = tools
        .iter()
        .map(|t| json!({"name": t.method, "tool": t.name, "kind": t.kind(), "signature": t.signature, "doc": t.doc}))
        .collect();
    for m in methods_without_tool {
        methods.push(json!({
            "name": m.name, "tool": null, "kind": if m.is_view() { "view" } else { "mut" },
            "signature": signature(m), "doc": m.doc,
        }));
    }
    methods.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    let events: Vec<Value> = app
        .service(service)
        .or_else(|| app.services.first())
        .map(|s| s.manifest.events.iter().map(event_json).collect())
        .unwrap_or_default();
    let mut v = json!({
        "app": app.name.as_deref().unwrap_or_else(|| app.package_or_id()),
        "id": app.id,
        "package": app.package,
        "version": app.version,
        "service": service,
        "source": app.source,
        "methods": methods,
        "events": events,
    });
    add_versions(&mut v, app);
    v
}

/// `"versions"`: the versions the node has of the app, newest first, each
/// with its application id (node apps only; the methods are the newest's).
fn add_versions(v: &mut Value, app: &App) {
    if app.installs.is_empty() {
        return;
    }
    let list: Vec<Value> = app
        .installs
        .iter()
        .map(|i| json!({"version": i.version, "id": i.id}))
        .collect();
    v["versions"] = Value::Array(list);
}

/// `{"name","payload","signature"}`: `payload` the payload's type as
/// signatures write it (`null` without one), `signature` `Name(Type)` or `Name`.
pub fn event_json(e: &Event) -> Value {
    let payload = e.payload.as_ref().map(type_name);
    let signature = match &payload {
        Some(t) => format!("{}({t})", e.name),
        None => e.name.clone(),
    };
    json!({"name": e.name, "payload": payload, "signature": signature})
}

/// One line of an app listing: who it is and where it came from.
pub fn app_summary(app: &App) -> Value {
    let services: Vec<&str> = app
        .services
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    let methods: usize = app.services.iter().map(|s| s.manifest.methods.len()).sum();
    let mut v = json!({
        "app": app.name.as_deref().unwrap_or_else(|| app.package_or_id()),
        "id": app.id,
        "package": app.package,
        "version": app.version,
        "services": services,
        "methods": methods,
        "source": app.source,
    });
    add_versions(&mut v, app);
    v
}
