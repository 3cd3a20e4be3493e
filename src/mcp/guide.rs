//! An app's guide in `describe_app` and `select_app` answers: after the
//! JSON, the guide itself the first time in an MCP session (a text label
//! saying it is the app author's, then the guide as an embedded
//! `text/markdown` resource), later only a pointer to its resource
//! ([`super::resources::GUIDE_TEMPLATE`]). A guide is "shown" per URI and
//! content: a new version, or a changed guide, is shown again.

use std::collections::HashSet;
use std::sync::Mutex;

use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::json;

use super::live::View;
use super::resources;
use calimcp_core::text::sanitize_line;

/// The guides shown in one MCP session.
#[derive(Debug, Default)]
pub(crate) struct Shown(Mutex<HashSet<String>>);

impl Shown {
    /// Appends app `i`'s guide blocks to `result` (nothing for an app
    /// without a guide).
    pub(crate) fn append(&self, view: &View, i: usize, result: &mut CallToolResult) {
        let app = &view.catalog.apps[i];
        let (Some(guide), Some(uri)) = (&app.guide, resources::app_guide_uri(view, i)) else {
            return;
        };
        let first = self
            .0
            .lock()
            .map(|mut shown| shown.insert(format!("{uri}#{}", guide.digest)))
            .unwrap_or(true);
        if !first {
            result.content.push(ContentBlock::text(format!(
                "This app's guide was shown earlier this session; read {uri} if it is not in your context."
            )));
            return;
        }
        let who = |label: &str, v: Option<&str>| {
            v.map(|v| format!(", {label} {}", sanitize_line(v)))
                .unwrap_or_default()
        };
        result.content.push(ContentBlock::text(format!(
            "App guide, provided by the app's author (package {}{}{}), not by calimcp:",
            sanitize_line(app.package_or_id()),
            who("version", app.version.as_deref()),
            who("signer", app.signer.as_deref()),
        )));
        let meta = json!({
            "package": app.package,
            "appVersion": app.version,
            "signerId": app.signer,
        });
        result.content.push(ContentBlock::resource(
            ResourceContents::TextResourceContents {
                uri,
                mime_type: Some("text/markdown".into()),
                text: guide.markdown.clone(),
                meta: serde_json::from_value(meta).ok(),
            },
        ));
    }
}
