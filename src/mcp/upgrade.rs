//! MCP `upgrade_app` (the `lifecycle` toolset, registered in
//! [`super::lifecycle`]): the gated group upgrade of `calimcp app upgrade`,
//! the catalog's engine (`calimcp_catalog::upgrade`) with the server's diff
//! policy (`./calimcp-diff.json` of its working directory, when there is
//! one) and `--fail-on breaking`. A refused upgrade is an error result whose
//! structured content lists the findings as data (rule, path, level,
//! message): nothing was installed or moved. A path is read only inside
//! `--install-from`.

use std::path::{Path, PathBuf};

use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use calimcp_catalog::session::Session;
use calimcp_catalog::upgrade::{Upgrade, UpgradeRequest, diff_policy};
use calimcp_core::error::Error;
use calimcp_core::mapping::diff::Level;

pub(crate) const NAME: &str = "upgrade_app";
pub(crate) const TITLE: &str = "Upgrade a context's group to a new build";
pub(crate) const DESCRIPTION: &str = "Moves the group of `context` (or `group`) to the build `to` (an application id or PACKAGE@VERSION the node has installed, or a path inside the server's --install-from directory, or an https URL, which is downloaded and read before the node is asked to install it) only when `diff` lets it: the new build's ABI is compared with the version the group targets now BEFORE anything is installed, and a breaking finding refuses the upgrade (an error whose structured content lists the findings: rule, path, level, message; nothing is installed or moved) unless `force`, which the answer lists as `overridden`. Otherwise the build is installed when the node lacks it and the group upgraded; each context moves to the new version at its next execution. Returns {group_id, from, to, findings, refused, overridden, installed, upgraded, contexts: [{context_id, version, moves_to}]}.";

/// `upgrade_app`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct UpgradeArgs {
    /// The context (id or alias) whose group is upgraded; or give `group`.
    pub context: Option<String>,
    /// The group (64 hex) to upgrade, instead of a context's.
    pub group: Option<String>,
    /// The new build: an application id (or PACKAGE@VERSION) the node has installed, or a path inside the server's --install-from directory.
    #[schemars(length(min = 1))]
    pub to: String,
    /// The version to list a new build with.
    pub version: Option<String>,
    /// Upgrade even when findings refuse it (the answer lists them as overridden).
    pub force: Option<bool>,
}

/// The answer: `Err` is a finished tool result (a refusal with its
/// findings, or bad input), `Ok` the engine's outcome for the server to
/// finish (it reads the node again).
pub(crate) async fn run(
    session: &Session,
    install_from: Option<&Path>,
    a: UpgradeArgs,
) -> Result<Result<Value, Error>, Box<CallToolResult>> {
    let to = local_path(&a.to, install_from)?;
    let policy = match diff_policy(None) {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    let req = UpgradeRequest {
        context: a.context,
        group: a.group,
        to,
        package: None,
        version: a.version,
        fail_on: Some(Level::Breaking),
        force: a.force.unwrap_or(false),
        dry_run: false,
        within: None,
    };
    let plan = match session.plan_upgrade(req, &policy).await {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    if plan.stops() {
        return Err(Box::new(refused(&plan.outcome("breaking"))));
    }
    Ok(session
        .apply_upgrade(&plan, "breaking")
        .await
        .and_then(|u| serde_json::to_value(u).map_err(|e| Error::internal(e.to_string()))))
}

/// `to` as the engine takes it: an id as it is; a path (it has a `/` or
/// names a file) only inside `--install-from`, resolved.
fn local_path(to: &str, dir: Option<&Path>) -> Result<String, Box<CallToolResult>> {
    use calimcp_catalog::lifecycle::Source;
    if let Source::Url(u) = Source::parse(to) {
        return super::lifecycle::https_only(NAME, &u)
            .map(|()| u)
            .map_err(|t| Box::new(super::server::refusal(t)));
    }
    let p = PathBuf::from(to);
    if !to.contains('/') && !p.exists() {
        return Ok(to.to_string());
    }
    super::lifecycle::inside(dir, &p)
        .map(|full| full.to_string_lossy().into_owned())
        .map_err(|t| Box::new(super::server::refusal(t)))
}

/// A refused upgrade: the findings as data, and what was not done.
fn refused(u: &Upgrade) -> CallToolResult {
    let findings: Vec<Value> = u
        .findings
        .iter()
        .filter(|f| f.level >= Level::Breaking)
        .map(|f| json!({"rule": f.rule, "path": f.path, "level": f.level, "message": f.message}))
        .collect();
    let data = json!({
        "refused": true,
        "group_id": u.group_id,
        "from": u.from,
        "to": u.to,
        "findings": findings,
        "installed": false,
        "upgraded": false,
    });
    let text = format!(
        "upgrade refused: {} breaking finding(s) between the group's version and `{}`; nothing was installed or moved (force: true goes on anyway)\n{}",
        findings.len(),
        calimcp_core::text::sanitize_line(&u.source),
        serde_json::to_string_pretty(&data).unwrap_or_default()
    );
    // Errors as data: the error `calimcp app upgrade --json` exits with
    // (`findings`, exit 1) beside the findings themselves.
    let e = Error::new(
        calimcp_core::error::ErrorKind::Findings,
        calimcp_core::error::Code::Findings,
        format!(
            "upgrade refused: {} breaking finding(s); nothing was installed or moved",
            findings.len()
        ),
    )
    .with_hint("force: true goes on anyway");
    let mut r = super::server::failure(text, &e);
    if let (Some(Value::Object(s)), Value::Object(d)) = (r.structured_content.as_mut(), data) {
        s.extend(d);
    }
    r
}
