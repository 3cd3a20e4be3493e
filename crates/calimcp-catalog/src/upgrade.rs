//! A gated group upgrade, for both faces: find the group (a context's, or
//! one named), the application it targets now and its ABI, read the new
//! build's ABI (a local file or bundle, one downloaded from a URL, or an
//! application the node already has), run `diff` between the two with the project's policy BEFORE
//! anything is installed, refuse when a finding reaches the threshold
//! (unless forced, which is said), and only then install the build when the
//! node lacks it and move the group. Each context of the group moves at its
//! next execution (the namespaces' `LazyOnAccess`); until then the node says
//! the old version, so the answer lists every context with the version it
//! runs and the one it moves to ([`Session::pending_versions`] says the
//! same for `contexts`). The routes are the node client's
//! (`calimcp_node::upgrade`).

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

use super::lifecycle::Source;
use super::session::Session;
use calimcp_core::abi::App;
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::mapping::diff::policy::{self, Applied, Policy};
use calimcp_core::mapping::diff::{self, Finding, Level, Report, Summary};
use calimcp_core::text::sanitize_line;
use calimcp_node::{Client, ids};

/// The diff policy: `given`, else `./calimcp-diff.json` when it exists,
/// else none (what `calimcp diff` and the upgrade gate both read).
pub fn diff_policy(given: Option<&Path>) -> Result<Policy> {
    let path = match given {
        Some(p) => p.to_path_buf(),
        None => {
            let p = PathBuf::from(policy::FILE);
            if !p.is_file() {
                return Ok(Policy::none());
            }
            p
        }
    };
    let shown = sanitize_line(&path.display().to_string());
    let bytes = calimcp_core::abi::load::read_regular(&path).map_err(|e| {
        Error::input(
            Code::Unreadable,
            format!("cannot read the diff policy {shown}: {e}"),
        )
    })?;
    Policy::parse(&bytes).map_err(|e| {
        Error::input(Code::InvalidConfig, format!("{shown}: {}", sanitize_line(&e)))
            .with_hint("see docs/reference/diff.md, \"Policy file\": levels, ignore (rule, path, reason), require_version_bump")
    })
}

/// Whether a finding of `level` reaches `--fail-on` (`None`: never).
pub fn reaches(level: Level, fail_on: Option<Level>) -> bool {
    fail_on.is_some_and(|t| level >= t)
}

/// What to upgrade, to what, and how strictly.
#[derive(Debug, Clone, Default)]
pub struct UpgradeRequest {
    /// A context (id or alias): its group is upgraded.
    pub context: Option<String>,
    /// A group id (64 hex), instead of a context.
    pub group: Option<String>,
    /// An application id the node has, or a local file or bundle.
    pub to: String,
    /// The package of the new build (default: the group's app's).
    pub package: Option<String>,
    /// The version the node lists the new build with.
    pub version: Option<String>,
    /// Refuse at a finding of this level or above (`None`: never).
    pub fail_on: Option<Level>,
    /// Go on past refused findings (said in the answer).
    pub force: bool,
    /// Change nothing.
    pub dry_run: bool,
    /// Local paths only inside this directory (MCP `--install-from`).
    pub within: Option<PathBuf>,
}

/// One version of the app, as the answer shows it.
#[derive(Debug, Clone, Default, Serialize, JsonSchema, PartialEq)]
pub struct Version {
    /// The node's application id (`null` for a build not installed yet).
    pub application_id: Option<String>,
    pub package: Option<String>,
    pub version: Option<String>,
}

/// A context of the group: what it runs and where it goes.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct ContextMove {
    pub context_id: String,
    /// The application it runs now, as the node says.
    pub application_id: String,
    pub version: Option<String>,
    /// The application the group targets, when it is another one: the
    /// context moves to it at its next execution.
    pub moves_to: Option<String>,
}

/// The outcome: the gate's findings, and what was done.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Upgrade {
    pub group_id: String,
    pub from: Version,
    pub to: Version,
    /// Where the new build came from, as given.
    pub source: String,
    /// The findings of `diff` from the group's target to the new build,
    /// after the policy.
    pub findings: Vec<Finding>,
    pub summary: Summary,
    /// Findings at or above `fail_on`: the upgrade is refused unless forced.
    pub refused: bool,
    /// The refused findings `--force` went past (`rule at path`).
    pub overridden: Vec<String>,
    pub dry_run: bool,
    /// Whether the build was installed now (it was not on the node).
    pub installed: bool,
    /// Whether the group now targets the new build.
    pub upgraded: bool,
    /// The group targeted this build already: no upgrade was sent (the
    /// node refuses one: "group is already targeting this application").
    pub already: bool,
    /// The node's `status` of the upgrade (`in_progress`, `completed`).
    pub node_status: Option<String>,
    pub contexts: Vec<ContextMove>,
}

/// The gate's decision, before anything is changed.
pub struct Plan {
    pub request: UpgradeRequest,
    pub group_id: String,
    pub old: App,
    pub new: App,
    /// The new build is the node's application with this id.
    pub installed_id: Option<String>,
    /// A local build to install (absolute path).
    pub path: Option<PathBuf>,
    /// A build the node is to fetch from this URL (read here first).
    pub url: Option<String>,
    pub report: Report,
    pub applied: Applied,
    pub failing: Vec<String>,
}

impl Plan {
    /// Whether the gate stops here (refused and not forced).
    pub fn stops(&self) -> bool {
        !self.failing.is_empty() && !self.request.force
    }

    /// The answer as it stands before anything changes.
    pub fn outcome(&self, fail_on: &'static str) -> Upgrade {
        let version = |a: &App, id: Option<String>| Version {
            application_id: id,
            package: a.package.clone(),
            version: a.version.clone(),
        };
        Upgrade {
            group_id: self.group_id.clone(),
            from: version(&self.old, Some(self.old.id.to_string())),
            to: version(&self.new, self.installed_id.clone()),
            source: self.request.to.clone(),
            findings: self.report.findings.clone(),
            summary: self.report.summary(fail_on, !self.failing.is_empty()),
            refused: !self.failing.is_empty(),
            overridden: if self.request.force {
                self.failing.clone()
            } else {
                Vec::new()
            },
            dry_run: self.request.dry_run,
            installed: false,
            upgraded: false,
            already: false,
            node_status: None,
            contexts: Vec::new(),
        }
    }
}

/// A build downloaded from a URL, in a directory of its own (removed when
/// dropped), under the URL's file name so its kind (`.wasm`, `.mpk`) is read
/// as for a file.
struct Fetched {
    _dir: tempfile::TempDir,
    path: PathBuf,
    url: String,
}

/// Downloads the build at `url` (http or https) for the gate to read.
async fn fetch_build(client: &Client, url: &str) -> Result<Fetched> {
    let bytes = client.download(url).await?;
    let name = download_name(url);
    let dir = tempfile::tempdir()
        .map_err(|e| Error::internal(format!("a directory for the download: {e}")))?;
    let path = dir.path().join(name);
    std::fs::write(&path, &bytes)
        .map_err(|e| Error::internal(format!("writing the download: {e}")))?;
    Ok(Fetched {
        _dir: dir,
        path,
        url: url.to_string(),
    })
}

/// The last path segment of `url` when it names a `.wasm` or `.mpk` file,
/// else `build.wasm`.
fn download_name(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    let last = path.rsplit('/').next().unwrap_or_default();
    let ok = (last.ends_with(".wasm") || last.ends_with(".mpk"))
        && last
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    if ok {
        last.to_string()
    } else {
        "build.wasm".into()
    }
}

fn usage(msg: String) -> Error {
    Error::input(Code::Usage, msg)
}

impl Session {
    /// Reads both versions and runs the gate; changes nothing.
    pub async fn plan_upgrade(&self, req: UpgradeRequest, policy: &Policy) -> Result<Plan> {
        let client = self.client_for("upgrading a group")?;
        let group_id = self.upgrade_group_id(client, &req).await?;
        let Some(info) = client.group_info(&group_id).await? else {
            return Err(Error::input(
                Code::Usage,
                format!(
                    "the node at {} has no group {}",
                    client.url(),
                    sanitize_line(&group_id)
                ),
            ));
        };
        let (rows, _) = self.node_rows_and_apps().await?;
        let old = node_row(&rows, &info.target_application_id, "the group's target")?;
        let fetched = match Source::parse(&req.to) {
            Source::Url(url) if !rows.iter().any(|r| ids::same(&r.id.to_string(), &req.to)) => {
                Some(fetch_build(client, &url).await?)
            }
            _ => None,
        };
        let (mut new, installed_id, path) = self.new_side(&rows, &req, &old, fetched.as_ref())?;
        let url = fetched.filter(|_| installed_id.is_none()).map(|f| f.url);
        if new.package.is_none() {
            new.package = req.package.clone().or_else(|| old.package.clone());
        }
        if req.version.is_some() {
            new.version = req.version.clone();
        }
        let mut report = diff::diff_apps(&old, &new, None, &self.settings.tools);
        let applied = policy::apply(
            &mut report,
            policy,
            old.version.as_deref(),
            new.version.as_deref(),
        );
        let failing = report
            .findings
            .iter()
            .filter(|f| reaches(f.level, req.fail_on))
            .map(|f| format!("{} at {}", f.rule, f.path))
            .collect();
        Ok(Plan {
            request: req,
            group_id,
            old,
            new,
            installed_id,
            path,
            url,
            report,
            applied,
            failing,
        })
    }

    /// The group to upgrade: `--group`, or the context's.
    async fn upgrade_group_id(&self, client: &Client, req: &UpgradeRequest) -> Result<String> {
        match (&req.context, &req.group) {
            (Some(_), Some(_)) => Err(usage("give a context or --group, not both".into())),
            (None, None) => Err(usage("give a context, or --group GROUP".into())),
            (None, Some(g)) => Ok(g.to_ascii_lowercase()),
            (Some(ctx), None) => {
                let id = self.context_id_of(ctx).await?;
                client.context_group_id(&id).await?.ok_or_else(|| {
                    usage(format!(
                        "context {} is in no group on the node at {}: there is nothing to upgrade",
                        sanitize_line(ctx),
                        client.url()
                    ))
                })
            }
        }
    }

    /// The new build: an application the node has (its id, or
    /// `PACKAGE@VERSION` of an installed one), a local build, or one
    /// downloaded from a URL (`fetched`; read, not installed). A
    /// `PACKAGE@VERSION` the node lacks cannot be read before it is
    /// installed, so it is refused (install it first).
    fn new_side(
        &self,
        rows: &[App],
        req: &UpgradeRequest,
        old: &App,
        fetched: Option<&Fetched>,
    ) -> Result<(App, Option<String>, Option<PathBuf>)> {
        if let Some(row) = rows.iter().find(|r| ids::same(&r.id.to_string(), &req.to)) {
            let app = node_row(rows, &row.id.to_string(), "the new version")?;
            return Ok((app, Some(row.id.to_string()), None));
        }
        let path = match Source::parse(&req.to) {
            Source::Path(p) => p,
            Source::Url(_) if let Some(f) = fetched => f.path.clone(),
            // PACKAGE@VERSION the node has installed: that application.
            Source::Registry { package, version }
                if let Some(row) = rows.iter().find(|r| {
                    r.package.as_deref() == Some(package.as_str())
                        && r.version.as_deref() == Some(version.as_str())
                }) =>
            {
                let app = node_row(rows, &row.id.to_string(), "the new version")?;
                return Ok((app, Some(row.id.to_string()), None));
            }
            Source::Url(_) | Source::Registry { .. } => {
                return Err(usage(format!(
                    "`{}`: the new build's ABI is read before anything is installed, and a PACKAGE@VERSION the node has not installed cannot be read here",
                    sanitize_line(&req.to)
                ))
                .with_hint("pass the file, bundle or URL, or install it first (calimcp app install) and pass its application id or PACKAGE@VERSION"));
            }
        };
        let abs = std::path::absolute(&path).map_err(|e| {
            Error::input(
                Code::Unreadable,
                format!("cannot read {}: {e}", path.display()),
            )
        })?;
        if let Some(dir) = &req.within
            && fetched.is_none()
            && !abs.starts_with(dir)
        {
            return Err(usage(format!(
                "{}: only a path inside the --install-from directory is read",
                sanitize_line(&req.to)
            )));
        }
        let package = req.package.as_deref().or(old.package.as_deref());
        let Some(app) = self.checked_local(&abs, package)? else {
            return Err(Error::input(
                Code::InvalidAbi,
                format!(
                    "{}: the build carries no ABI, so the gate cannot compare it: nothing was installed or moved",
                    sanitize_line(&req.to)
                ),
            ));
        };
        // The same bytes installed already: that application, no install.
        if let Some(row) = rows
            .iter()
            .find(|r| r.code_blob.is_some() && r.code_blob == app.code_blob)
        {
            let mut app = app;
            app.version = app.version.or_else(|| row.version.clone());
            return Ok((app, Some(row.id.to_string()), None));
        }
        Ok((app, None, Some(abs)))
    }

    /// Installs the build when needed and moves the group; the contexts
    /// with what they run and where they go.
    pub async fn apply_upgrade(&self, plan: &Plan, fail_on: &'static str) -> Result<Upgrade> {
        let mut out = plan.outcome(fail_on);
        let client = self.client_for("upgrading a group")?;
        if plan.stops() || plan.request.dry_run {
            out.contexts = self.group_moves(client, &plan.group_id).await?;
            return Ok(out);
        }
        let app_id = match (&plan.installed_id, &plan.path) {
            (Some(id), _) => id.clone(),
            (None, None) if let Some(url) = &plan.url => {
                let id = self.install_fetched(plan, url).await?;
                out.installed = true;
                id
            }
            (None, Some(path)) => {
                let done = self
                    .install_app(
                        &Source::Path(path.clone()),
                        plan.new.package.as_deref(),
                        plan.new.version.as_deref(),
                        None,
                    )
                    .await?;
                out.installed = true;
                done.application_id
            }
            (None, None) => return Err(Error::internal("an upgrade plan without a build")),
        };
        out.to.application_id = Some(app_id.clone());
        if ids::same(&app_id, &plan.old.id.to_string()) {
            out.already = true;
            out.contexts = self.group_moves(client, &plan.group_id).await?;
            return Ok(out);
        }
        let moved = client
            .upgrade_group(&plan.group_id, &app_id)
            .await
            .map_err(|e| {
                let done = if out.installed {
                    format!("the build was installed (application id {app_id}), ")
                } else {
                    String::new()
                };
                let hint = format!(
                    "{done}the group still targets {}",
                    out.from
                        .application_id
                        .as_deref()
                        .unwrap_or("its old version")
                );
                let hint = match &e.hint {
                    Some(h) => format!("{h}; {hint}"),
                    None => hint,
                };
                e.with_hint(sanitize_line(&hint))
            })?;
        out.upgraded = true;
        out.node_status = Some(moved.status).filter(|s| !s.is_empty());
        out.contexts = self.group_moves(client, &plan.group_id).await?;
        Ok(out)
    }

    /// Has the node install the build at `url` (it fetches it itself) and
    /// checks that it installed the bytes the gate read: another module
    /// (the URL answered something else this time) is an error, and the
    /// group is not moved.
    async fn install_fetched(&self, plan: &Plan, url: &str) -> Result<String> {
        let done = self
            .install_app(
                &Source::Url(url.to_string()),
                plan.new.package.as_deref(),
                plan.new.version.as_deref(),
                None,
            )
            .await?;
        let id = done.application_id;
        let (rows, _) = self.node_rows_and_apps().await?;
        let installed = rows.iter().find(|r| ids::same(&r.id.to_string(), &id));
        let differs = match (installed.and_then(|r| r.code_blob), plan.new.code_blob) {
            (Some(theirs), Some(ours)) => theirs != ours,
            _ => false,
        };
        if differs {
            return Err(Error::new(
                calimcp_core::error::ErrorKind::Remote,
                Code::UnexpectedResponse,
                format!(
                    "the node installed other bytes from {} than the gate read (application id {id}): the group was not moved",
                    sanitize_line(&calimcp_node::url_text(url))
                ),
            )
            .with_hint(format!(
                "the URL's content changed between the two downloads; remove it with `calimcp app uninstall {id}` and try again"
            )));
        }
        Ok(id)
    }

    /// Every context of group `group`: what it runs, and the group's target
    /// when that is another application.
    pub(crate) async fn group_moves(
        &self,
        client: &Client,
        group: &str,
    ) -> Result<Vec<ContextMove>> {
        let target = client
            .group_info(group)
            .await?
            .map(|g| g.target_application_id);
        let mut out = Vec::new();
        for id in client.group_contexts(group).await? {
            let Some(info) = client.context(&id).await? else {
                continue;
            };
            let moves_to = target
                .clone()
                .filter(|t| !t.is_empty() && !ids::same(t, &info.application_id));
            out.push(ContextMove {
                context_id: info.id,
                application_id: info.application_id,
                version: info.application_version,
                moves_to,
            });
        }
        Ok(out)
    }
}

impl Session {
    /// Each row's `pending_version`: the version its group targets when that
    /// is another application than the one it runs (its version as the node
    /// lists it, else the application id). A node without the group routes
    /// leaves them empty.
    pub fn pending_versions(&self, rows: &mut [super::context::ContextRow]) -> Result<()> {
        let client = self.client()?;
        self.block_on(async {
            for r in rows.iter_mut() {
                let Some(to) = client.group_target(&r.id).await.ok().flatten() else {
                    continue;
                };
                if to.is_empty() || ids::same(&to, &r.application_id) {
                    continue;
                }
                let version = client.known_application(&to).await?.and_then(|a| a.version);
                r.pending_version = Some(version.unwrap_or(to));
            }
            Ok(())
        })?
    }
}

/// The node's row `id` with its ABI; an error naming `what` when the node
/// lacks it or its ABI cannot be read (the gate compares nothing then).
fn node_row(rows: &[App], id: &str, what: &str) -> Result<App> {
    let row = rows
        .iter()
        .find(|r| ids::same(&r.id.to_string(), id))
        .ok_or_else(|| {
            usage(format!(
                "{what} ({}) is not an application the node lists",
                sanitize_line(id)
            ))
        })?;
    if row.services.is_empty() {
        return Err(Error::input(
            Code::UnknownApp,
            format!(
                "{what} ({}): its ABI cannot be read, so the gate cannot compare it: nothing was installed or moved",
                sanitize_line(id)
            ),
        ));
    }
    Ok(row.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_reaches_fail_on_at_or_above_it_and_never_with_none() {
        assert!(reaches(Level::Breaking, Some(Level::Breaking)));
        assert!(!reaches(Level::Warning, Some(Level::Breaking)));
        assert!(reaches(Level::Warning, Some(Level::Info)));
        assert!(!reaches(Level::Breaking, None));
    }
}
