//! The ABI of the version a context runs.
//!
//! Tools are named and listed from the newest version of an app (or from the
//! local manifest). A context may run another version: contexts keep their
//! application when a new version is installed beside it (rc.25: a new
//! version is a new application id), and where a node keeps one row per
//! package, the context's `applicationVersion` says which version it
//! executes. A call is checked and built with that version's ABI: from the
//! context's application row, or, when the context runs another version than
//! the row's, from that version's module (`GET …/applications/:id/versions`
//! gives its blob). ABIs are cached by blob, i.e. by content.
//!
//! A local manifest speaks for the version it declares, and for every
//! version when it declares none; when the node cannot give another
//! version's ABI, the local manifest is used.
//!
//! A method the context's version lacks is refused (`method_not_in_version`)
//! unless the version the context's group targets has it: after a group
//! upgrade (rc.25, applied to a context at its next use) the call is built
//! with the target's ABI and the face is told the context moves on this call.

use std::sync::Arc;

use super::Catalog;
use super::context::Target;
use calimcp_core::abi::{self, App, Manifest, Service};
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::mapping::{Tool, ToolOptions};
use calimcp_core::text::sanitize_line;
use calimcp_node::{Client, ids};

/// `tool` rebuilt from the ABI of the version `target` runs, in a catalog of
/// its own; `None` when the tool's own ABI is that version's.
pub(crate) async fn tool_for_target(
    client: &Client,
    catalog: &Catalog,
    tool: &Tool,
    target: &Target,
    opts: &ToolOptions,
) -> Result<Option<(Catalog, Tool)>> {
    let app = &catalog.apps[tool.app];
    let info = &target.info;
    let same_version = |v: Option<&str>| match (v, info.application_version.as_deref()) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    let node_app = app.source == client.url();
    if node_app && ids::same(&app.id, &info.application_id) && same_version(app.version.as_deref())
    {
        return Ok(None);
    }
    if !node_app && (app.version.is_none() || same_version(app.version.as_deref())) {
        return Ok(None);
    }
    let manifest = match version_manifest(client, app, tool.service.as_deref(), target).await {
        Ok(m) => m,
        Err(_) if !node_app => return Ok(None),
        Err(e) => return Err(e),
    };
    if *manifest == *tool.manifest {
        return Ok(None);
    }
    let version = info.application_version.clone();
    let one = App {
        id: info.application_id.clone().into(),
        package: app.package.clone(),
        version: version.clone(),
        name: app.name.clone(),
        source: client.url().to_string(),
        services: vec![Service {
            name: tool.service.clone(),
            manifest,
        }],
        ..App::default()
    };
    let one = Catalog::new(vec![one], Vec::new(), opts);
    let found = one
        .tools
        .tools
        .iter()
        .find(|t| t.method == tool.method)
        .cloned();
    match found {
        Some(t) => Ok(Some((one, t))),
        None => match moved_tool(client, app, tool, target, opts).await? {
            Some(moved) => Ok(Some(moved)),
            None => Err(not_in_version(target, app, version.as_deref(), tool)),
        },
    }
}

/// `method_not_in_version`: the context's version lacks the tool's method.
fn not_in_version(target: &Target, app: &App, version: Option<&str>, tool: &Tool) -> Error {
    Error::input(
        Code::MethodNotInVersion,
        format!(
            "context {} runs {} {}, which has no method `{}`: nothing was sent",
            sanitize_line(&target.id),
            sanitize_line(app.package_or_id()),
            sanitize_line(version.unwrap_or("(an older version)")),
            sanitize_line(&tool.method)
        ),
    )
    .with_hint(
        "upgrade the context to a version that has it, or call it in a context of that version",
    )
}

/// The tool from the version the context's group targets, when the
/// context's own version lacks the method but that one has it: a group
/// upgrade (rc.25, policy LazyOnAccess or Automatic) the node applies to a
/// context at its next use — this call. The returned catalog's one warning
/// says so.
async fn moved_tool(
    client: &Client,
    app: &App,
    tool: &Tool,
    target: &Target,
    opts: &ToolOptions,
) -> Result<Option<(Catalog, Tool)>> {
    let Some(to) = client.group_target(&target.id).await.ok().flatten() else {
        return Ok(None);
    };
    let installs = super::context::installs_of(client, app)
        .await
        .unwrap_or_default();
    if ids::same(&to, &target.info.application_id)
        || !installs.iter().any(|i| ids::same(&i.id, &to))
    {
        return Ok(None);
    }
    let Some(row) = client.known_application(&to).await? else {
        return Ok(None);
    };
    let value = client.abi(&row, tool.service.as_deref()).await?;
    let label = format!("{} ({})", client.url(), sanitize_line(app.package_or_id()));
    let manifest = abi::load::manifest_from_value(&value, &label, &mut Vec::new())?;
    let one = App {
        id: row.id.clone().into(),
        package: app.package.clone(),
        version: row.version.clone(),
        name: app.name.clone(),
        source: client.url().to_string(),
        services: vec![Service {
            name: tool.service.clone(),
            manifest: Arc::new(manifest),
        }],
        ..App::default()
    };
    let mut one = Catalog::new(vec![one], Vec::new(), opts);
    let Some(t) = one
        .tools
        .tools
        .iter()
        .find(|t| t.method == tool.method)
        .cloned()
    else {
        return Ok(None);
    };
    one.skipped.push(abi::Warning::new(
        "",
        format!(
            "context {} moves to {} {} on this call: its group was upgraded to that version, which the node applies to a context at its next use (the arguments are checked against it)",
            sanitize_line(&target.id),
            sanitize_line(app.package_or_id()),
            sanitize_line(row.version.as_deref().unwrap_or("(the group's target)"))
        ),
    ));
    Ok(Some((one, t)))
}

/// The manifest of the version `target` runs (one service of it).
async fn version_manifest(
    client: &Client,
    app: &App,
    service: Option<&str>,
    target: &Target,
) -> Result<Arc<Manifest>> {
    let info = &target.info;
    let row = client
        .known_application(&info.application_id)
        .await?
        .ok_or_else(|| {
            Error::new(
                calimcp_core::ErrorKind::Remote,
                Code::NotInstalled,
                format!(
                    "context {} runs application {}, which the node at {} does not list",
                    sanitize_line(&target.id),
                    sanitize_line(&info.application_id),
                    client.url()
                ),
            )
        })?;
    let other_version = match (&info.application_version, &row.version) {
        (Some(v), Some(r)) => v != r,
        _ => false,
    };
    let mut value = None;
    if other_version {
        let versions = client.application_versions(&row.id).await?;
        if let Some(entry) = versions
            .iter()
            .find(|e| Some(&e.version) == info.application_version.as_ref())
        {
            let mut label = row.clone();
            label.version = Some(entry.version.clone());
            value = Some(client.abi_of_blob(&label, &entry.blob_id, service).await?);
        }
    }
    let value = match value {
        Some(v) => v,
        None => client.abi(&row, service).await?,
    };
    let source = format!(
        "{} ({} {})",
        client.url(),
        sanitize_line(app.package_or_id()),
        sanitize_line(info.application_version.as_deref().unwrap_or(""))
    );
    let mut warnings = Vec::new();
    let manifest = abi::load::manifest_from_value(&value, &source, &mut warnings)?;
    Ok(Arc::new(manifest))
}
