//! `calimcp diff OLD NEW`: what NEW breaks for OLD's callers, agents and
//! stored state, as text, markdown, GitHub annotations or JSON; the exit code
//! gates CI (0 nothing at or above --fail-on, 1 otherwise, 2 bad input).

use std::io::Read;

use clap::{Args, ValueEnum};
use owo_colors::OwoColorize;
use serde_json::{Value, json};

use super::output::{self, bold, dim};
use super::{GlobalArgs, check_service, report_warnings};
use crate::abi::{App, Service, load::local_id};
use crate::error::{Error, Result};
use crate::mapping::diff::{self, Finding, Level, Report};
use crate::text::sanitize_line;

/// Compare two versions of an app: what the new one breaks for callers, agents and state.
///
/// OLD and NEW are any APP (an abi.json, a .wasm, an .mpk, a bundle directory,
/// a name among --apps or the node's apps); `-` reads one manifest from stdin.
/// Multi-service apps are compared service by service. Findings go to stdout,
/// warnings to stderr. Exit code: 0 when no finding is at or above --fail-on,
/// 1 when one is, 2 for bad input.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp diff examples/older/kv-store.json examples/kv-store
  git show HEAD:examples/kv-store/abi.json | calimcp diff - examples/kv-store --format github
  calimcp diff examples/older/kv-store.json examples/kv-store --fail-on warning --format markdown
  calimcp diff examples/multi-service examples/multi-service --service pages --json")]
pub struct DiffArgs {
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
}

/// `--fail-on` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
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
    fn name(self) -> &'static str {
        match self {
            FailOn::Breaking => "breaking",
            FailOn::Warning => "warning",
            FailOn::Any => "any",
            FailOn::None => "none",
        }
    }

    fn fails(self, level: Level) -> bool {
        match self {
            FailOn::Breaking => level >= Level::Breaking,
            FailOn::Warning => level >= Level::Warning,
            FailOn::Any => true,
            FailOn::None => false,
        }
    }
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Grouped by level, one line per finding, then a summary
    Text,
    /// The JSON document described in the README
    Json,
    /// A table for a pull-request comment
    Markdown,
    /// GitHub Actions workflow annotations (::error, ::warning, ::notice)
    Github,
}

/// A manifest on stdin as a single-service app. Its package is --package, or
/// the other side's, so tool names compare like for like.
fn stdin_app(g: &GlobalArgs, other: &App) -> Result<App> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| Error::input("unreadable", format!("cannot read stdin: {e}")))?;
    let mut warnings = Vec::new();
    let manifest = if bytes.starts_with(b"\0asm") {
        crate::abi::load::load_wasm_bytes(&bytes, "<stdin>", &mut warnings)?.1
    } else {
        crate::abi::load::manifest_from_json(&bytes, "<stdin>", &mut warnings)?
    };
    let package = g
        .package
        .clone()
        .or_else(|| other.package.clone())
        .unwrap_or_else(|| "stdin".into());
    Ok(App {
        id: local_id(Some(&package), &[bytes]),
        package: Some(package),
        source: "<stdin>".into(),
        services: vec![Service {
            name: None,
            manifest: manifest.into(),
        }],
        warnings,
        ..App::default()
    })
}

pub fn run(g: &GlobalArgs, args: DiffArgs) -> Result<u8> {
    let ui = g.ui();
    if args.old == "-" && args.new == "-" {
        return Err(Error::input("usage", "OLD and NEW cannot both be `-` (stdin)")
            .with_hint("pipe one version and name the other, e.g. `git show main:res/abi.json | calimcp diff - res/abi.json`"));
    }
    let named: Vec<String> = [&args.old, &args.new]
        .into_iter()
        .filter(|a| *a != "-")
        .cloned()
        .collect();
    let sel = g.select(&g.session()?, &named, true)?;
    report_warnings(&ui, &sel.catalog, &sel.apps);
    let mut resolved = sel.apps.iter().map(|&i| sel.catalog.apps[i].clone());
    let first = resolved.next().unwrap_or_default();
    let (old, new) = if args.old == "-" {
        (stdin_app(g, &first)?, first)
    } else if args.new == "-" {
        let piped = stdin_app(g, &first)?;
        (first, piped)
    } else {
        (first, resolved.next().unwrap_or_default())
    };
    for app in [&old, &new] {
        if app.source == "<stdin>" {
            for w in &app.warnings {
                ui.warn(w);
            }
            if let Some(s) = &g.service {
                check_service(app, s)?;
            }
        }
    }
    let report = diff::diff_apps(&old, &new, g.service.as_deref(), &g.tool_options());
    let failed = report.findings.iter().any(|f| args.fail_on.fails(f.level));
    let format = if g.json { Format::Json } else { args.format };
    let view = View {
        old: &args.old,
        new: &args.new,
        report: &report,
        fail_on: args.fail_on,
        failed,
        multi: old.services.len() > 1 || new.services.len() > 1,
    };
    match format {
        Format::Json => output::print_json(&view.json())?,
        Format::Text => output::print(&view.text(ui.color_out))?,
        Format::Markdown => output::print(&view.markdown())?,
        Format::Github => output::print(&view.github())?,
    }
    Ok(u8::from(failed))
}

struct View<'a> {
    old: &'a str,
    new: &'a str,
    report: &'a Report,
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
            (Some(s), true) => sanitize_line(&format!("{s}/{}", f.path)),
            _ => sanitize_line(&f.path),
        }
    }

    fn change(f: &Finding) -> String {
        match (f.old.is_empty(), f.new.is_empty()) {
            (true, true) => String::new(),
            _ => sanitize_line(&format!("{} → {}", f.old, f.new)),
        }
    }

    fn example(f: &Finding) -> Option<String> {
        f.example
            .as_ref()
            .map(|v| sanitize_line(&crate::text::json_inert(v.to_string())))
    }

    fn gates(&self) -> String {
        let parts: Vec<String> = self
            .report
            .gates
            .iter()
            .map(|g| match (&g.service, self.multi) {
                (Some(s), true) => format!("{}: {}", sanitize_line(s), sanitize_line(&g.action)),
                _ => sanitize_line(&g.action),
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
        if r.findings.is_empty() {
            return format!("no changes{}", self.gates());
        }
        format!(
            "{}, {}, {}{}; {} (--fail-on {})",
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
                line.push_str(&format!(" — {}", sanitize_line(&f.message)));
                if let Some(e) = Self::example(f) {
                    line.push_str(&format!(" (e.g. {e})"));
                }
                out.push_str(&line);
                out.push('\n');
            }
        }
        out.push_str(&format!(
            "{} → {}: {}\n",
            sanitize_line(self.old),
            sanitize_line(self.new),
            self.summary()
        ));
        out
    }

    fn markdown(&self) -> String {
        let cell = |s: &str| {
            sanitize_line(s)
                .replace('\\', "\\\\")
                .replace('|', "\\|")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        let code = |s: &str| {
            if s.is_empty() {
                String::new()
            } else {
                format!("<code>{}</code>", cell(s))
            }
        };
        let mut out = format!(
            "### calimcp diff: {} → {}\n\n{}\n",
            code(self.old),
            code(self.new),
            cell(&self.summary())
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
                    code(&self.location(f)),
                    code(&Self::change(f)),
                    code(&Self::example(f).unwrap_or_default()),
                    cell(&f.message)
                ));
            }
        }
        out
    }

    fn github(&self) -> String {
        // Workflow-command escaping: data escapes % CR LF; properties also : and ,.
        let data = |s: &str| {
            sanitize_line(s)
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
                    msg.push_str(&format!("{change}. "));
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
        out.push_str(&format!("calimcp diff: {}\n", self.summary()));
        out
    }

    fn json(&self) -> Value {
        let r = self.report;
        let findings: Vec<Value> = r
            .findings
            .iter()
            .map(|f| {
                json!({
                    "rule": f.rule,
                    "level": f.level.name(),
                    "service": f.service,
                    "path": f.path,
                    "old": f.old,
                    "new": f.new,
                    "example": f.example,
                    "message": f.message,
                })
            })
            .collect();
        let gates: Vec<Value> = r
            .gates
            .iter()
            .map(|g| json!({"service": g.service, "accepted": g.accepted, "action": g.action}))
            .collect();
        json!({
            "old": self.old,
            "new": self.new,
            "findings": findings,
            "summary": {
                "breaking": r.count(Level::Breaking),
                "warning": r.count(Level::Warning),
                "info": r.count(Level::Info),
                "fail_on": self.fail_on.name(),
                "failed": self.failed,
                "upgrade_gate": gates,
            }
        })
    }
}
