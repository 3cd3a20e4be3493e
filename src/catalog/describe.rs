//! The machine-readable description of an app: what `calimcp describe --json`
//! prints and what the MCP server's `describe_app` returns, from one function.

use serde_json::{Value, json};

use crate::abi::{App, Method};
use crate::mapping::{Tool, signature};

/// The description of one service of `app`: its methods (ABI order is not
/// kept: sorted by name), each with its signature and tool name. Methods in
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
    json!({
        "app": app.name.as_deref().unwrap_or_else(|| app.package_or_id()),
        "id": app.id,
        "package": app.package,
        "version": app.version,
        "service": service,
        "source": app.source,
        "methods": methods,
    })
}

/// One line of an app listing: who it is and where it came from.
pub fn app_summary(app: &App) -> Value {
    let services: Vec<&str> = app
        .services
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    let methods: usize = app.services.iter().map(|s| s.manifest.methods.len()).sum();
    json!({
        "app": app.name.as_deref().unwrap_or_else(|| app.package_or_id()),
        "id": app.id,
        "package": app.package,
        "version": app.version,
        "services": services,
        "methods": methods,
        "source": app.source,
    })
}
