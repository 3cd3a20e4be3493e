//! `calimcp diff OLD NEW`: what NEW breaks for OLD's callers, agents and
//! stored state, as text, markdown, GitHub annotations or JSON; the exit code
//! gates CI (0 nothing at or above --fail-on, 1 otherwise, 2 bad input).

use clap::{Args, ValueEnum};
use owo_colors::OwoColorize;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::output::{self, Ui, bold, dim};
use super::{GlobalArgs, check_service};
use calimcp_catalog::Catalog;
use calimcp_catalog::session::Session;
use calimcp_core::abi::App;
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::mapping::diff::policy::{self, Applied, IgnoredRow};
use calimcp_core::mapping::diff::{self, Finding, Level, Report, Summary};
use calimcp_core::text::sanitize_line;

/// Compare two versions of an app: what the new one breaks for callers, agents and state.
///
/// OLD and NEW are any APP (an abi.json, a .wasm, an .mpk, a bundle directory,
/// a name among --apps or the node's apps); `-` reads one manifest from stdin.
/// A name the node has is the node's app (its installed version; an
/// application id names that version), even when a local app shares its
/// package; the summary says where each side came from. Multi-service apps are compared service by service. Findings go to stdout,
/// warnings to stderr. Exit code: 0 when no finding is at or above --fail-on,
/// 1 when one is, 2 for bad input.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp diff examples/older/kv-store.json examples/kv-store
  git show HEAD:examples/kv-store/abi.json | calimcp diff - examples/kv-store --format github
  calimcp diff examples/older/kv-store.json examples/kv-store --fail-on warning --format markdown
  calimcp diff com.calimero.kv-store examples/kv-store   # the node's version → the local one
  calimcp diff examples/multi-service examples/multi-service --service pages --json")]
pub(crate) struct DiffArgs {
    /// The version callers use today (`-`: a manifest on stdin)
    #[arg(add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates))]
    pub old: String,
    /// The version about to ship (`-`: a manifest on stdin)
    #[arg(add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates))]
    pub new: String,
    /// Exit 1 when a finding is at or above this level
    #[arg(long, value_enum, default_value_t = FailOn::Breaking, value_name = "LEVEL")]
    pub fail_on: FailOn,
    /// Output format [--json means json]
    #[arg(long, value_enum, default_value_t = Format::Text, value_name = "FORMAT")]
    pub format: Format,
    /// Policy file: rule levels, ignored findings (each with a reason), the
    /// version-bump check [default: ./calimcp-diff.json when it exists]
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
}

/// `--fail-on` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FailOn {
    /// Breaking findings fail
    Breaking,
    /// Breaking and warning findings fail
    Warning,
    /// Any finding fails, info included
    Any,
    /// Never fail (report only)
    None,
}

impl FailOn {
    pub(crate) fn name(self) -> &'static str {
        match self {
            FailOn::Breaking => "breaking",
            FailOn::Warning => "warning",
            FailOn::Any => "any",
            FailOn::None => "none",
        }
    }

    /// The lowest level that fails (`None`: never).
    pub(crate) fn threshold(self) -> Option<Level> {
        match self {
            FailOn::Breaking => Some(Level::Breaking),
            FailOn::Warning => Some(Level::Warning),
            FailOn::Any => Some(Level::Info),
            FailOn::None => None,
        }
    }

    fn fails(self, level: Level) -> bool {
        calimcp_catalog::upgrade::reaches(level, self.threshold())
    }
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Grouped by level, one line per finding, then a summary
    Text,
    /// The JSON document described in docs/reference/diff.md
    Json,
    /// A table for a pull-request comment
    Markdown,
    /// GitHub Actions workflow annotations (::error, ::warning, ::notice)
    Github,
}

/// Text that a GitHub Actions runner does not act on: it reads `::` at the
/// start of a line and (legacy commands) `##[` anywhere in it. Names from a
/// manifest can carry either; a space breaks both without hiding anything.
pub(crate) fn inert(line: &str) -> String {
    let s = sanitize_line(line).replace("##[", "## [");
    let lead = s.len() - s.trim_start().len();
    if s[lead..].starts_with("::") {
        format!("{}: :{}", &s[..lead], &s[lead + 2..])
    } else {
        s
    }
}

/// `v` with every string and key made [`inert`]: the JSON format holds the
/// same promise as the others, for the values (`jq -r` prints them raw).
fn inert_value(v: Value) -> Value {
    match v {
        Value::String(s) => Value::String(inert(&s)),
        Value::Array(items) => Value::Array(items.into_iter().map(inert_value).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (inert(&k), inert_value(v)))
                .collect(),
        ),
        v => v,
    }
}

/// A markdown code span holding `s` literally: a fence longer than any run
/// of backticks in it (so a name cannot close it and make links or
/// mentions live), pipes escaped for the table.
fn md_code(s: &str) -> String {
    let s = inert(s);
    if s.is_empty() {
        return String::new();
    }
    let mut run = 0;
    let mut longest = 0;
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let s = s.replace('|', "\\|");
    let pad = if s.starts_with('`') || s.ends_with('`') || longest > 0 {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// A bare manifest file (`abi.json`, a `.wasm`) names no package of its
/// own: without --package it takes the other side's, so tool names compare
/// like for like (`diff NODE_APP ./abi.json` of the same ABI is no change).
/// Two bare files share NEW's.
fn like_for_like(g: &GlobalArgs, args: &DiffArgs, mut old: App, mut new: App) -> (App, App) {
    if g.package.is_some() {
        return (old, new);
    }
    let bare = |arg: &str| {
        let p = std::path::Path::new(arg);
        p.is_file()
            && p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("wasm"))
    };
    match (bare(&args.old), bare(&args.new)) {
        (true, _) if new.package.is_some() => old.package = new.package.clone(),
        (false, true) if old.package.is_some() => new.package = old.package.clone(),
        _ => {}
    }
    (old, new)
}

/// An ABI the node refuses (or ignores) is not compared: NEW is refused,
/// OLD warned about. The node's `validate_manifest` rejects another schema
/// major, unsorted methods or events, dangling `$ref`s, zero-size bytes and
/// non-string map keys (calimero-wasm-abi `src/validate.rs`; calimcp's lint).
fn node_refusals(app: &App) -> Vec<String> {
    let mut out = Vec::new();
    for s in &app.services {
        let label = match &s.name {
            Some(n) => format!("service {}: ", sanitize_line(n)),
            None => String::new(),
        };
        for r in calimcp_core::abi::lint::refusals(&s.manifest) {
            out.push(format!("{label}{r}"));
        }
    }
    out
}

/// Where a side came from, for the header of every format (`"sides"` of
/// `diff --json`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(tag = "from", rename_all = "lowercase")]
pub(crate) enum Origin {
    /// The node's app: its URL, application id and version.
    Node {
        #[serde(rename = "node")]
        url: String,
        #[serde(rename = "application_id")]
        id: String,
        version: Option<String>,
    },
    /// A path, or an app of the --apps directories.
    Local {
        source: String,
    },
    Stdin,
}

/// Where each side of a diff came from.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Sides {
    pub old: Origin,
    pub new: Origin,
}

/// `diff --json`: the two sides as given and where they came from, the
/// findings, those a policy ignored, and the summary.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct DiffOutput<'a> {
    /// OLD as given.
    pub old: &'a str,
    /// NEW as given.
    pub new: &'a str,
    pub sides: &'a Sides,
    pub findings: Vec<Finding>,
    pub ignored: Vec<IgnoredRow<'a>>,
    pub summary: Summary,
}

impl Origin {
    fn of_local(app: &App) -> Origin {
        if app.source == super::stdin::SOURCE {
            Origin::Stdin
        } else {
            Origin::Local {
                source: app.source.clone(),
            }
        }
    }

    /// `the node at URL (application id ID, version V)`, `local`, `local
    /// PATH` (a name an apps directory answered), `stdin`; `arg` as given.
    fn describe(&self, arg: &str) -> String {
        match self {
            Origin::Node { url, id, version } => {
                let v = version
                    .as_deref()
                    .map(|v| format!(", version {v}"))
                    .unwrap_or_default();
                inert(&format!("the node at {url} (application id {id}{v})"))
            }
            Origin::Local { source } if source == arg => "local".into(),
            Origin::Local { source } => inert(&format!("local {source}")),
            Origin::Stdin => "stdin".into(),
        }
    }
}

/// The node's apps as this command sees them, fetched once for both sides:
/// its rows (one application id, one version, each) and the same grouped
/// by package as the catalog groups them. `None`: offline, or no default
/// node answered; `Err`: the node could not be asked.
type NodeApps = Option<std::result::Result<(Vec<App>, Catalog), Error>>;

fn node_apps(session: &Session) -> Result<NodeApps> {
    if session.offline() {
        return Ok(None);
    }
    Ok(match session.block_on(session.node_rows_and_apps())? {
        Ok(both) => Some(Ok(both)),
        Err(e) if session.default_node_absent(&e) => None,
        Err(e) => Some(Err(e)),
    })
}

/// A named side the node has: by application id (that very version), else
/// by name as the catalog resolves names (the installed version; several
/// versions installed: the newest). `None` when the node lacks it.
fn on_node(arg: &str, node: &(Vec<App>, Catalog)) -> Result<Option<App>> {
    let (rows, grouped) = node;
    let app = match rows.iter().find(|r| calimcp_catalog::ids::same(&r.id, arg)) {
        Some(row) => row.clone(),
        None => match grouped.resolve(arg) {
            Ok(i) => grouped.apps[i].clone(),
            Err(e) if e.code == Code::UnknownApp => {
                match grouped.unusable.iter().find(|(a, _)| {
                    calimcp_catalog::resolve::resolve(std::slice::from_ref(a), arg).is_ok()
                }) {
                    Some((_, e)) => return Err(e.clone()),
                    None => return Ok(None),
                }
            }
            Err(e) => return Err(e),
        },
    };
    if app.services.is_empty() {
        let reason = grouped
            .unusable
            .iter()
            .find(|(a, _)| a.id == app.id)
            .map(|(_, e)| e.message.clone())
            .unwrap_or_else(|| "its ABI could not be read".into());
        return Err(Error::input(
            Code::UnknownApp,
            format!(
                "the node has `{}` but its ABI cannot be compared: {}",
                sanitize_line(arg),
                sanitize_line(&reason)
            ),
        ));
    }
    Ok(Some(app))
}

/// One side that is not stdin: a name the node has is the node's app
/// (whatever local app shares its package: a local and a node app are two
/// sides); a path, or a name only the --apps directories have, is local.
fn side(
    g: &GlobalArgs,
    session: &Session,
    node: &mut Option<NodeApps>,
    arg: &str,
    warnings: &mut Vec<String>,
) -> Result<(App, Origin)> {
    if !calimcp_catalog::looks_like_path(arg) {
        if node.is_none() {
            *node = Some(node_apps(session)?);
        }
        if let Some(Some(Ok(apps))) = node.as_ref()
            && let Some(app) = on_node(arg, apps)?
        {
            warnings.extend(app.warnings.iter().map(ToString::to_string));
            let origin = Origin::Node {
                url: app.source.clone(),
                id: app.id.to_string(),
                version: app.version.clone(),
            };
            return Ok((app, origin));
        }
    }
    let sel = g.select(session, &[arg.to_string()], true)?;
    if let Some(Some(Err(e))) = node.as_ref()
        && !calimcp_catalog::looks_like_path(arg)
    {
        warnings.push(format!(
            "`{}` is the local app: the node could not be asked whether it has one ({})",
            sanitize_line(arg),
            sanitize_line(&e.message)
        ));
    }
    warnings.extend(
        sel.catalog
            .skipped
            .iter()
            .chain(sel.apps.iter().flat_map(|&i| &sel.catalog.apps[i].warnings))
            .map(ToString::to_string),
    );
    let app = sel
        .apps
        .first()
        .map(|&i| sel.catalog.apps[i].clone())
        .unwrap_or_default();
    let origin = Origin::of_local(&app);
    Ok((app, origin))
}

pub(crate) fn run(g: &GlobalArgs, args: DiffArgs) -> Result<()> {
    let ui = g.ui();
    if args.old == "-" && args.new == "-" {
        return Err(Error::input(Code::Usage, "OLD and NEW cannot both be `-` (stdin)")
            .with_hint("pipe one version and name the other, e.g. `git show main:res/abi.json | calimcp diff - res/abi.json`"));
    }
    let session = g.session()?;
    let mut warnings = Vec::new();
    let ((old, old_from), (new, new_from)) = both_sides(g, &args, &session, &mut warnings)?;
    // The catalog's warnings, once each, made inert for a CI log like the findings.
    let mut seen = std::collections::HashSet::new();
    for w in warnings {
        if seen.insert(w.clone()) {
            ui.warn(inert(&w));
        }
    }
    let (old, new) = like_for_like(g, &args, old, new);
    for app in [&old, &new] {
        if app.source == super::stdin::SOURCE {
            for w in &app.warnings {
                ui.warn(inert(&w.to_string()));
            }
            if let Some(s) = &g.service {
                check_service(app, s)?;
            }
        }
    }
    let policy = calimcp_catalog::upgrade::diff_policy(args.config.as_deref())?;
    refused_by_node(&ui, &args, &old, &new)?;
    let mut report = diff::diff_apps(&old, &new, g.service.as_deref(), &g.tool_options());
    let applied = policy::apply(
        &mut report,
        &policy,
        old.version.as_deref(),
        new.version.as_deref(),
    );
    for i in &applied.unused {
        ui.warn(inert(&format!(
            "diff policy: ignore entry {} at {} matched nothing; remove it",
            i.rule, i.path
        )));
    }
    let failing = print_report(
        g,
        Shown {
            old: (&args.old, old_from),
            new: (&args.new, new_from),
            multi: old.services.len() > 1 || new.services.len() > 1,
        },
        &report,
        &applied,
        args.fail_on,
        args.format,
    )?;
    if failing > 0 {
        return Err(findings_failed(failing, args.fail_on));
    }
    Ok(())
}

/// The two sides as given and where they came from, for a report's header.
pub(crate) struct Shown<'a> {
    pub old: (&'a str, Origin),
    pub new: (&'a str, Origin),
    pub multi: bool,
}

/// Prints `report` in `format` (`--json` wins) as `diff` prints it; returns
/// how many findings reach `fail_on`.
pub(crate) fn print_report(
    g: &GlobalArgs,
    shown: Shown<'_>,
    report: &Report,
    applied: &Applied,
    fail_on: FailOn,
    format: Format,
) -> Result<usize> {
    let failing = report
        .findings
        .iter()
        .filter(|f| fail_on.fails(f.level))
        .count();
    let ui = g.ui();
    let format = if g.json { Format::Json } else { format };
    let view = View {
        old: shown.old.0,
        new: shown.new.0,
        old_from: shown.old.1.describe(shown.old.0),
        new_from: shown.new.1.describe(shown.new.0),
        sides: Sides {
            old: shown.old.1,
            new: shown.new.1,
        },
        report,
        applied,
        fail_on,
        failed: failing > 0,
        multi: shown.multi,
    };
    match format {
        Format::Json => output::print_json(&view.json())?,
        Format::Text => output::print(&view.text(ui.color_out))?,
        Format::Markdown => output::print(&view.markdown())?,
        Format::Github => output::print(&view.github())?,
    }
    Ok(failing)
}

/// OLD and NEW with where each came from: one of them may be stdin (`-`);
/// the catalog's warnings go to `warnings`.
fn both_sides(
    g: &GlobalArgs,
    args: &DiffArgs,
    session: &Session,
    warnings: &mut Vec<String>,
) -> Result<((App, Origin), (App, Origin))> {
    let mut node = None;
    Ok(if args.old == "-" {
        let named = side(g, session, &mut node, &args.new, warnings)?;
        let piped = super::stdin::read_app(g, named.0.package.as_deref())?;
        ((piped, Origin::Stdin), named)
    } else if args.new == "-" {
        let named = side(g, session, &mut node, &args.old, warnings)?;
        let piped = super::stdin::read_app(g, named.0.package.as_deref())?;
        (named, (piped, Origin::Stdin))
    } else {
        (
            side(g, session, &mut node, &args.old, warnings)?,
            side(g, session, &mut node, &args.new, warnings)?,
        )
    })
}

/// An error when the node refuses NEW's ABI (comparing it says nothing
/// about what ships); a warning when it refuses OLD's.
fn refused_by_node(ui: &Ui, args: &DiffArgs, old: &App, new: &App) -> Result<()> {
    let refused = node_refusals(new);
    if !refused.is_empty() {
        return Err(Error::input(
            Code::InvalidAbi,
            format!(
                "NEW ({}) is an ABI the node refuses, so comparing it says nothing about what ships: {}",
                inert(&args.new),
                inert(&refused.join("; "))
            ),
        )
        .with_hint("fix the manifest (rebuild it with the SDK) and compare again"));
    }
    for r in node_refusals(old) {
        ui.warn(inert(&format!("OLD: the node refuses this ABI: {r}")));
    }
    Ok(())
}

/// Exit 1, as diff(1) for differences; the report says which.
pub(crate) fn findings_failed(failing: usize, fail_on: FailOn) -> Error {
    Error::new(
        ErrorKind::Findings,
        Code::Findings,
        format!(
            "{failing} {} at or above --fail-on {}",
            if failing == 1 { "finding" } else { "findings" },
            fail_on.name()
        ),
    )
}

struct View<'a> {
    old: &'a str,
    new: &'a str,
    /// Where each side came from, said in every format's header.
    old_from: String,
    new_from: String,
    sides: Sides,
    report: &'a Report,
    applied: &'a Applied,
    fail_on: FailOn,
    failed: bool,
    multi: bool,
}

const LEVELS: [Level; 3] = [Level::Breaking, Level::Warning, Level::Info];

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}")
}

impl View<'_> {
    fn location(&self, f: &Finding) -> String {
        match (&f.service, self.multi) {
            (Some(s), true) => inert(&format!("{s}/{}", f.path)),
            _ => inert(&f.path),
        }
    }

    fn change(f: &Finding) -> String {
        match (f.old.is_empty(), f.new.is_empty()) {
            (true, true) => String::new(),
            _ => inert(&format!("{} → {}", f.old, f.new)),
        }
    }

    /// The example, unless a string in it had to be neutralised (a case or
    /// field name holding `::` or `##[`): then it is no longer a faithful
    /// value, and no example is shown in any format.
    fn example_value(f: &Finding) -> Option<Value> {
        let v = f.example.as_ref()?;
        let safe = inert_value(v.clone());
        (safe == *v).then_some(safe)
    }

    fn example(f: &Finding) -> Option<String> {
        Self::example_value(f).map(|v| inert(&calimcp_core::text::json_inert(v.to_string())))
    }

    /// `OLD (where from) → NEW (where from)`.
    fn title(&self) -> String {
        inert(&format!(
            "{} ({}) → {} ({})",
            self.old, self.old_from, self.new, self.new_from
        ))
    }

    fn gates(&self) -> String {
        let parts: Vec<String> = self
            .report
            .gates
            .iter()
            .map(|g| match (&g.service, self.multi) {
                (Some(s), true) => format!("{}: {}", inert(s), inert(&g.action)),
                _ => inert(&g.action),
            })
            .collect();
        if parts.is_empty() {
            String::new()
        } else {
            format!("; upgrade gate: {}", parts.join(", "))
        }
    }

    fn summary(&self) -> String {
        let r = self.report;
        let ignored = match self.applied.ignored.len() {
            0 => String::new(),
            n => format!(", {n} ignored"),
        };
        if r.findings.is_empty() {
            return format!("no changes{ignored}{}", self.gates());
        }
        format!(
            "{}, {}, {}{ignored}{}; {} (--fail-on {})",
            plural(r.count(Level::Breaking), "breaking"),
            plural(r.count(Level::Warning), "warning"),
            plural(r.count(Level::Info), "info"),
            self.gates(),
            if self.failed { "fails" } else { "passes" },
            self.fail_on.name()
        )
    }

    fn text(&self, c: bool) -> String {
        let mut out = String::new();
        for level in LEVELS {
            let items: Vec<&Finding> = self
                .report
                .findings
                .iter()
                .filter(|f| f.level == level)
                .collect();
            if items.is_empty() {
                continue;
            }
            let head = format!("{} ({})", level.name(), items.len());
            let head = match (c, level) {
                (false, _) => head,
                (true, Level::Breaking) => head.red().bold().to_string(),
                (true, Level::Warning) => head.yellow().bold().to_string(),
                (true, Level::Info) => head.cyan().bold().to_string(),
            };
            out.push_str(&head);
            out.push('\n');
            for f in items {
                let change = Self::change(f);
                let mut line = format!("  {}  {}", dim(f.rule, c), bold(&self.location(f), c));
                if !change.is_empty() {
                    line.push_str(&format!("  {change}"));
                }
                line.push_str(&format!(" — {}", inert(&f.message)));
                if let Some(e) = Self::example(f) {
                    line.push_str(&format!(" (e.g. {e})"));
                }
                out.push_str(&line);
                out.push('\n');
            }
        }
        out.push_str(&inert(&format!("{}: {}", self.title(), self.summary())));
        out.push('\n');
        out
    }

    fn markdown(&self) -> String {
        // Everything that holds a name is a code span (literal: no links,
        // mentions or markup, whatever the name holds); the rest is ours.
        let mut out = format!(
            "### calimcp diff: {} → {}\n\n{} → {}\n\n{}\n",
            md_code(self.old),
            md_code(self.new),
            md_code(&self.old_from),
            md_code(&self.new_from),
            md_code(&self.summary())
        );
        if self.report.findings.is_empty() {
            return out;
        }
        out.push_str(
            "\n| Level | Rule | Path | Old → New | Example | Why |\n|---|---|---|---|---|---|\n",
        );
        for level in LEVELS {
            for f in self.report.findings.iter().filter(|f| f.level == level) {
                let icon = match level {
                    Level::Breaking => "🔴 breaking",
                    Level::Warning => "🟡 warning",
                    Level::Info => "🔵 info",
                };
                out.push_str(&format!(
                    "| {icon} | `{}` | {} | {} | {} | {} |\n",
                    f.rule,
                    md_code(&self.location(f)),
                    md_code(&Self::change(f)),
                    md_code(&Self::example(f).unwrap_or_default()),
                    md_code(&f.message)
                ));
            }
        }
        out
    }

    fn github(&self) -> String {
        // Workflow-command escaping: data escapes % CR LF; properties also : and ,.
        let data = |s: &str| {
            inert(s)
                .replace('%', "%25")
                .replace('\r', "%0D")
                .replace('\n', "%0A")
        };
        let prop = |s: &str| data(s).replace(':', "%3A").replace(',', "%2C");
        let file = if self.new != "-" && std::path::Path::new(self.new).is_file() {
            format!("file={},", prop(self.new))
        } else {
            String::new()
        };
        let mut out = String::new();
        for level in LEVELS {
            let command = match level {
                Level::Breaking => "error",
                Level::Warning => "warning",
                Level::Info => "notice",
            };
            for f in self.report.findings.iter().filter(|f| f.level == level) {
                let mut msg = format!("{}: ", self.location(f));
                let change = Self::change(f);
                if !change.is_empty() {
                    // `old → new` then the why, kept apart without a period
                    // (a change can end in `null.` or `…`).
                    msg.push_str(&format!("{change} — "));
                }
                msg.push_str(&f.message);
                if let Some(e) = Self::example(f) {
                    msg.push_str(&format!(" (e.g. {e})"));
                }
                out.push_str(&format!(
                    "::{command} {file}title={}::{}\n",
                    prop(&format!("calimcp diff {}", f.rule)),
                    data(&msg)
                ));
            }
        }
        out.push_str(&inert(&format!(
            "calimcp diff {}: {}",
            self.title(),
            self.summary()
        )));
        out.push('\n');
        out
    }

    fn json(&self) -> Value {
        let findings = self
            .report
            .findings
            .iter()
            .map(|f| Finding {
                example: Self::example_value(f),
                ..f.clone()
            })
            .collect();
        let out = DiffOutput {
            old: self.old,
            new: self.new,
            sides: &self.sides,
            findings,
            ignored: self.applied.ignored_rows(),
            summary: self.report.summary(self.fail_on.name(), self.failed),
        };
        inert_value(serde_json::to_value(&out).unwrap_or_default())
    }
}
