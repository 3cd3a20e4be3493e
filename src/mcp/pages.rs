//! The served apps' reference pages ([`calimcp_core::doc`]): what `serve --http`
//! answers at `GET /` (the index) and `GET /apps/NAME`, with a try-it form
//! per listed tool that calls through this server's own `/mcp` endpoint, and
//! the MCP App resource `ui://calimcp/reference` (SEP-1865) — every served
//! app on one page whose forms call through the host's postMessage bridge.
//! Forms exist only for the tools the server lists (`--read-only`,
//! `--allow`/`--deny`, `--app`, `--service` applied), and their calls are
//! ordinary `tools/call` requests: no other way in.

use std::collections::HashSet;
use std::sync::Arc;

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};

use super::live::{Live, View};
use super::resources::{self, Kind};
use calimcp_core::doc::{self, AppDoc, Options, Transport, TryIt};

/// The MCP App resource: the reference of every served app.
pub(crate) const UI_URI: &str = "ui://calimcp/reference";
/// The MCP Apps HTML profile (SEP-1865).
pub(crate) const UI_MIME: &str = "text/html;profile=mcp-app";
/// What a page may load and reach: nothing but itself (its style and script
/// are inline), an app's icon (a `data:` or `https:` image) and, for try-it,
/// this server.
pub(crate) const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data: https:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn docs(view: &View) -> Vec<AppDoc<'_>> {
    view.apps
        .iter()
        .map(|&i| {
            let key = resources::app_key(view, i);
            AppDoc {
                app: &view.catalog.apps[i],
                tools: view.catalog.tools.for_app(i, None).collect(),
                contexts_uri: Some(resources::uri(Kind::Contexts, &key, None)),
                key,
            }
        })
        .collect()
}

fn options(view: &View, transport: Transport) -> Options {
    let callable: HashSet<String> = view
        .listed
        .iter()
        .map(|&i| view.catalog.tools.tools[i].name.clone())
        .collect();
    Options {
        try_it: Some(TryIt {
            transport,
            callable,
        }),
    }
}

fn fetch() -> Transport {
    Transport::Fetch {
        endpoint: "/mcp".into(),
    }
}

/// `GET /`: the served apps, each linked to its page.
pub(crate) fn index(view: &View) -> String {
    let docs = docs(view);
    doc::index(
        &docs,
        &|d| format!("/apps/{}", d.key),
        &options(view, fetch()),
    )
}

/// `GET /apps/NAME`: the page of the served app whose resource key is NAME
/// (its tool prefix, as the index links it); `None` for another name.
pub(crate) fn app(view: &View, name: &str) -> Option<String> {
    let i = resources::by_key(view, name)?;
    let docs = docs(view);
    let d = docs
        .iter()
        .find(|d| std::ptr::eq(d.app, &view.catalog.apps[i]))?;
    Some(doc::page(std::slice::from_ref(d), &options(view, fetch())))
}

/// The `resources/list` entry of the MCP App.
pub(crate) fn ui_entry() -> Value {
    json!({
        "uri": UI_URI,
        "name": "calimcp/reference",
        "title": "Apps reference",
        "description": "Every served app's reference as an interactive page (MCP Apps): signatures, schemas, examples and a try-it form per tool",
        "mimeType": UI_MIME,
        "_meta": {"ui": {"prefersBorder": true}},
    })
}

/// `resources/read` of the MCP App: the page, every served app on it, its
/// forms calling through the host.
pub(crate) fn ui_contents(view: &View) -> Value {
    let docs = docs(view);
    let html = doc::page(&docs, &options(view, Transport::Bridge));
    let mut ui = json!({"prefersBorder": true});
    let origins = icon_origins(view);
    if !origins.is_empty() {
        ui["csp"] = json!({"resourceDomains": origins});
    }
    json!({"contents": [{"uri": UI_URI, "mimeType": UI_MIME, "text": html, "_meta": {"ui": ui}}]})
}

/// The origins of the served apps' `https:` icons, sorted: what an MCP Apps
/// host is asked to let the page load (`_meta.ui.csp.resourceDomains`; a
/// `data:` icon needs nothing).
fn icon_origins(view: &View) -> Vec<String> {
    let mut out: Vec<String> = view
        .apps
        .iter()
        .filter_map(|&i| view.catalog.apps[i].icon.as_deref())
        .filter_map(calimcp_core::abi::meta::icon_origin)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `GET /` and `GET /apps/{name}`, answering for `live`'s current apps to
/// requests whose `Host` is one of `hosts`.
pub(crate) fn routes(live: Arc<Live>, hosts: Vec<String>) -> axum::Router {
    let hosts = Arc::new(hosts);
    let index_route = {
        let (live, hosts) = (live.clone(), hosts.clone());
        move |headers: HeaderMap| {
            let (live, hosts) = (live.clone(), hosts.clone());
            async move {
                if !host_allowed(header_value(&headers, "host"), &hosts) {
                    return forbidden();
                }
                live.wait_ready().await;
                html(StatusCode::OK, index(&live.view()))
            }
        }
    };
    let app_route = move |Path(name): Path<String>, headers: HeaderMap| {
        let (live, hosts) = (live.clone(), hosts.clone());
        async move {
            if !host_allowed(header_value(&headers, "host"), &hosts) {
                return forbidden();
            }
            live.wait_ready().await;
            match app(&live.view(), &name) {
                Some(page) => html(StatusCode::OK, page),
                None => html(StatusCode::NOT_FOUND, doc::not_found(&name)),
            }
        }
    };
    axum::Router::new()
        .route("/", axum::routing::get(index_route))
        .route("/apps/{name}", axum::routing::get(app_route))
}

fn header_value<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn html(status: StatusCode, body: String) -> Response {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
        .header(header::CONTENT_SECURITY_POLICY, CSP)
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .header(header::CACHE_CONTROL, "no-store")
        .body(axum::body::Body::from(body))
        .unwrap_or_default()
}

fn forbidden() -> Response {
    Response::builder()
        .status(StatusCode::FORBIDDEN)
        .body(axum::body::Body::from(
            "Forbidden: Host header not allowed (add it with --allow-host)",
        ))
        .unwrap_or_default()
}

/// Whether a page request's `Host` is one the server answers (the same
/// names `/mcp` accepts; DNS-rebinding protection), with or without a port.
pub(crate) fn host_allowed(host: Option<&str>, allowed: &[String]) -> bool {
    let Some(host) = host else { return false };
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or_default()
    } else {
        host.rsplit_once(':').map_or(host, |(h, _)| h)
    };
    allowed
        .iter()
        .any(|a| a.eq_ignore_ascii_case(name) || a.eq_ignore_ascii_case(host))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_matched_with_or_without_port() {
        let allowed = vec!["localhost".to_string(), "::1".into()];
        assert!(host_allowed(Some("localhost:8765"), &allowed));
        assert!(host_allowed(Some("LOCALHOST"), &allowed));
        assert!(host_allowed(Some("[::1]:80"), &allowed));
        assert!(!host_allowed(Some("evil.example:8765"), &allowed));
        assert!(!host_allowed(None, &allowed));
    }
}
