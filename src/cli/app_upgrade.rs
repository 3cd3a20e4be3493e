//! `calimcp app upgrade`: move a context's group (or a group) to a new build
//! only when `diff` lets it. The gate and the steps are the catalog's
//! (`calimcp_catalog::upgrade`); this renders them: the findings as `diff`
//! prints them, then what was (or would be) done and, per context, the
//! version it runs and the one it moves to at its next execution.

use clap::Args;

use super::diff::{FailOn, Format, Origin, Shown, findings_failed, print_report};
use super::{GlobalArgs, output};
use calimcp_catalog::upgrade::{Plan, Upgrade, UpgradeRequest, Version};
use calimcp_core::error::Result;
use calimcp_core::text::sanitize_line;

/// Upgrade a context's group to a new build, gated by `diff`.
///
/// Reads the new build's ABI (a local .wasm, .mpk or bundle directory; an
/// http(s) URL, downloaded here first, which the node then fetches and
/// installs — the installed module must be the bytes the gate read; or an
/// application id or PACKAGE@VERSION the node already has) and compares it
/// with the
/// version the group targets now, with the project's diff rules and
/// policy, BEFORE anything is installed. A finding at or above --fail-on
/// refuses the upgrade (exit 1, nothing installed or moved) unless --force,
/// which says what it went past. Otherwise the build is installed when the
/// node lacks it and the group is upgraded; each context moves to the new
/// version at its next execution (until then the node says the old one).
/// Asks first on a terminal; off one --yes is required. --dry-run changes
/// nothing.
#[derive(Debug, Args)]
#[command(
    disable_version_flag = true,
    group(clap::ArgGroup::new("which").required(true).args(["context", "group"])),
    after_help = "Examples:
  calimcp app upgrade my-alias --to ./kv-v2.wasm --dry-run
  calimcp app upgrade my-alias --to ./kv-v2.wasm --version 0.2.0 --yes
  calimcp app upgrade --group GROUP --to APPLICATION_ID --fail-on warning --yes --json"
)]
pub(crate) struct UpgradeArgs {
    /// The context (an id or alias) whose group is upgraded
    #[arg(
        value_name = "CTX",
        required_unless_present = "group",
        conflicts_with = "group"
    )]
    pub context: Option<String>,
    /// The group to upgrade (64 hex), instead of a context's
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,
    /// The new build: a .wasm, .mpk or bundle directory, an http(s) URL, or an application id (or PACKAGE@VERSION) the node has
    #[arg(long, value_name = "SOURCE", value_hint = clap::ValueHint::AnyPath)]
    pub to: String,
    /// The version the node lists the new build with (a bundle's own by default)
    #[arg(long = "version", id = "app_version", value_name = "V")]
    pub version: Option<String>,
    /// Refuse when a finding is at or above this level
    #[arg(long, value_enum, default_value_t = FailOn::Breaking, value_name = "LEVEL")]
    pub fail_on: FailOn,
    /// Upgrade even when findings reach --fail-on (said on stderr)
    #[arg(long)]
    pub force: bool,
    /// Print the findings and what would be done; change nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// How the findings are printed [--json means json: the whole answer, findings inside]
    #[arg(long, value_enum, default_value_t = Format::Text, value_name = "FORMAT")]
    pub format: Format,
    /// Diff policy file [default: ./calimcp-diff.json when it exists]
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
}

fn label(v: &Version) -> String {
    let name = v.package.as_deref().unwrap_or("(no package)");
    let version = v.version.as_deref().unwrap_or("(no version)");
    sanitize_line(&format!("{name} {version}"))
}

pub(crate) fn run(g: &GlobalArgs, args: UpgradeArgs) -> Result<()> {
    let session = g.session()?;
    session.answering("upgrading a group")?;
    let policy = calimcp_catalog::upgrade::diff_policy(args.config.as_deref())?;
    let req = UpgradeRequest {
        context: args.context.clone(),
        group: args.group.clone(),
        to: args.to.clone(),
        package: g.package.clone(),
        version: args.version.clone(),
        fail_on: args.fail_on.threshold(),
        force: args.force,
        dry_run: args.dry_run,
        within: None,
    };
    let plan: Plan = session.block_on(session.plan_upgrade(req, &policy))??;
    let url = session.node_url()?.to_string();
    // `--format json` is `--json`: one document, the findings inside.
    let json = g.json || args.format == Format::Json;
    if !json {
        print_findings(g, &args, &plan, &url)?;
    }
    if !plan.stops() && !args.dry_run {
        let before = plan.outcome(args.fail_on.name());
        super::app::confirm(
            g,
            &format!(
                "upgrade group {} on {url} from {} to {}?",
                sanitize_line(&plan.group_id),
                label(&before.from),
                label(&before.to)
            ),
            args.yes,
        )?;
    }
    let done = session.block_on(session.apply_upgrade(&plan, args.fail_on.name()))??;
    g.say(&session);
    if json {
        output::print_json(&done)?;
    } else {
        say_done(g, &done)?;
    }
    if plan.stops() {
        return Err(findings_failed(plan.failing.len(), args.fail_on)
            .with_hint("nothing was installed or moved; --force goes on anyway"));
    }
    Ok(())
}

/// The gate's findings, as `diff` prints them.
fn print_findings(g: &GlobalArgs, args: &UpgradeArgs, plan: &Plan, url: &str) -> Result<()> {
    let old_arg = plan.old.id.to_string();
    let new_from = match &plan.installed_id {
        Some(id) => Origin::Node {
            url: url.to_string(),
            id: id.clone(),
            version: plan.new.version.clone(),
        },
        None => Origin::Local {
            source: args.to.clone(),
        },
    };
    let shown = Shown {
        old: (
            &old_arg,
            Origin::Node {
                url: url.to_string(),
                id: old_arg.clone(),
                version: plan.old.version.clone(),
            },
        ),
        new: (&args.to, new_from),
        multi: plan.old.services.len() > 1 || plan.new.services.len() > 1,
    };
    print_report(
        g,
        shown,
        &plan.report,
        &plan.applied,
        args.fail_on,
        args.format,
    )?;
    Ok(())
}

/// What was done (or would be), and each context's move.
fn say_done(g: &GlobalArgs, done: &Upgrade) -> Result<()> {
    let ui = g.ui();
    let (from, to) = (label(&done.from), label(&done.to));
    let group = sanitize_line(&done.group_id);
    if !done.overridden.is_empty() {
        ui.warn(format_args!(
            "--force: went past {} finding(s) that refuse the upgrade: {}",
            done.overridden.len(),
            sanitize_line(&done.overridden.join(", "))
        ));
    }
    let line = if done.refused && done.overridden.is_empty() {
        format!("refused: group {group} stays on {from}; nothing was installed or moved")
    } else if done.already {
        format!("group {group} already targets {to}: nothing to upgrade")
    } else if done.dry_run {
        let install = if done.to.application_id.is_none() {
            "install the build and "
        } else {
            ""
        };
        format!(
            "dry run: would {install}upgrade group {group} from {from} to {to}; nothing was changed"
        )
    } else {
        let installed = if done.installed {
            " (installed now)"
        } else {
            ""
        };
        format!("upgraded group {group} from {from} to {to}{installed}")
    };
    let mut text = format!("{line}\n");
    for c in &done.contexts {
        let runs = c.version.as_deref().unwrap_or(&c.application_id);
        let line = match &c.moves_to {
            Some(_) => format!(
                "  {}  runs {}; moves to {to} at its next execution",
                sanitize_line(&c.context_id),
                sanitize_line(runs)
            ),
            None => format!(
                "  {}  runs {}",
                sanitize_line(&c.context_id),
                sanitize_line(runs)
            ),
        };
        text.push_str(&line);
        text.push('\n');
    }
    output::print(&text)
}
