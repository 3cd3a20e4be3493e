//! `calimcp describe APP`: the app (with its guide's procedures), one
//! signature per method, and its events.

use std::io::IsTerminal;

use clap::Args;
use comfy_table::{Table, presets};
use schemars::JsonSchema;
use serde::Serialize;

use super::output::{self, bold, dim, paint_signature};
use super::{GlobalArgs, report_warnings};
use calimcp_catalog::describe::{EventRow, ServiceDescription, describe_service};
use calimcp_catalog::session::Session;
use calimcp_core::abi::{App, Method};
use calimcp_core::error::Result;
use calimcp_core::mapping::Tool;
use calimcp_core::text::sanitize_line;

/// Show an app's methods as signatures, with their tool names, its events and its guide's procedures.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp describe examples/kv-store
  calimcp describe kv-store --apps examples
  calimcp describe examples/multi-service --service pages --json")]
pub(crate) struct DescribeArgs {
    /// The app: a path, a name among the --apps directories or the node's apps, or `-` (a manifest on stdin)
    #[arg(value_hint = clap::ValueHint::AnyPath, add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates))]
    pub app: String,
}

/// `describe --json`: the description of the app's service, or an array of
/// them for an app with several services (each with its contexts on the
/// node, for a node app).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum DescribeOutput {
    Service(Box<ServiceDescription>),
    Services(Vec<ServiceDescription>),
}

/// One line per method, indented: the signature, then its tool name. Piped,
/// the tool names line up after the signatures (up to 72 characters wide)
/// and nothing is wrapped. On a terminal the two columns are laid out as the
/// `tools` table is ([`output::fit_to_terminal`]): they fit its width,
/// signatures wrap at spaces and tool names are never cut. Colour is added
/// after the layout, so it never counts as width.
fn method_lines(rows: &[(String, String, String)], c: bool) -> String {
    const INDENT: &str = "  ";
    let mut out = String::new();
    if rows.is_empty() {
        return out;
    }
    if !std::io::stdout().is_terminal() {
        let width = rows
            .iter()
            .map(|r| r.1.chars().count())
            .max()
            .unwrap_or(0)
            .min(72);
        for (_, sig, tool) in rows {
            let pad = width.saturating_sub(sig.chars().count());
            out.push_str(&format!(
                "{INDENT}{}{}  {}\n",
                paint_signature(sig, c),
                " ".repeat(pad),
                dim(tool, c)
            ));
        }
        return out;
    }
    let mut table = Table::new();
    table.load_style(presets::NOTHING);
    for (_, sig, tool) in rows {
        table.add_row(vec![sig.clone(), tool.clone()]);
    }
    output::fit_to_terminal(&mut table, &[1]);
    // The indent takes two columns, the stripped leading padding gives one back.
    if let Some(w) = table.width() {
        table.set_width(w.saturating_sub(INDENT.len() as u16 - 1));
    }
    let text = output::table_text(&table);
    let mut next = rows.iter().map(|r| r.2.as_str()).peekable();
    for line in text.lines() {
        let (line, tool) = match next.peek() {
            Some(&tool) if line == tool || line.ends_with(&format!("  {tool}")) => {
                next.next();
                (&line[..line.len() - tool.len()], Some(tool))
            }
            _ => (line, None),
        };
        out.push_str(INDENT);
        out.push_str(&paint_signature(line, c));
        if let Some(tool) = tool {
            out.push_str(&dim(tool, c));
        }
        out.push('\n');
    }
    out
}

/// One service to describe: its name, its tools and the methods that have
/// none (`init`).
type ServiceMethods<'a> = (Option<&'a str>, Vec<&'a Tool>, Vec<&'a Method>);

pub(crate) fn run(g: &GlobalArgs, args: DescribeArgs) -> Result<()> {
    let ui = g.ui();
    let session = g.session()?;
    let sel = super::stdin::select(g, &session, std::slice::from_ref(&args.app), true)?;
    let index = sel.apps[0];
    report_warnings(&ui, &sel.catalog, &sel.apps);
    let app = &sel.catalog.apps[index];
    let services: Vec<Option<&str>> = match &g.service {
        Some(s) => vec![Some(s.as_str())],
        None => app.services.iter().map(|s| s.name.as_deref()).collect(),
    };
    let per_service: Vec<ServiceMethods> = services
        .iter()
        .map(|&s| {
            let tools: Vec<&Tool> = sel.catalog.tools.for_app(index, s).collect();
            let svc = app.service(s).unwrap_or(&app.services[0]);
            let hidden: Vec<&Method> = svc
                .manifest
                .methods
                .iter()
                .filter(|m| m.name == "init")
                .collect();
            (s, tools, hidden)
        })
        .collect();
    if g.json {
        return print_json(&session, app, &per_service);
    }
    let c = ui.color_out;
    let mut out = header(app, c);
    for (service, tools, hidden) in &per_service {
        out.push_str(&service_text(app, *service, tools, hidden, c));
    }
    output::print(&out)?;
    Ok(())
}

/// `describe --json`: each service's description, with a node app's
/// contexts (each service's own), as `contexts --json` lists them.
fn print_json(session: &Session, app: &App, per_service: &[ServiceMethods]) -> Result<()> {
    let contexts = session.app_context_rows(app, None, true);
    let mut objs: Vec<ServiceDescription> = per_service
        .iter()
        .map(|(s, t, h)| {
            let mut o = describe_service(app, *s, t, h);
            o.contexts = contexts.as_ref().map(|rows| {
                rows.iter()
                    .filter(|r| s.is_none() || r.service.is_none() || r.service.as_deref() == *s)
                    .cloned()
                    .collect()
            });
            o
        })
        .collect();
    let value = if objs.len() == 1 {
        DescribeOutput::Service(Box::new(objs.remove(0)))
    } else {
        DescribeOutput::Services(objs)
    };
    output::print_json(&value)?;
    Ok(())
}

/// The app's title and fields: package, version(s), services, id, source.
fn header(app: &App, c: bool) -> String {
    let mut out = String::new();
    let title = app.name.as_deref().unwrap_or_else(|| app.package_or_id());
    out.push_str(&bold(&sanitize_line(title), c));
    out.push('\n');
    let field =
        |k: &str, v: &str| format!("  {}  {}\n", dim(&format!("{k:<8}"), c), sanitize_line(v));
    out.push_str(&field("package", app.package.as_deref().unwrap_or("-")));
    out.push_str(&field("version", app.version.as_deref().unwrap_or("-")));
    if let Some(all) = super::apps::several_versions(app) {
        out.push_str(&field(
            "versions",
            &format!("{all} (on the node; methods of the newest)"),
        ));
    }
    let names: Vec<&str> = app
        .services
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    out.push_str(&field(
        "services",
        &if names.len() > 1 {
            names.join(", ")
        } else {
            "1 (single service)".into()
        },
    ));
    out.push_str(&field("id", &app.id));
    out.push_str(&field("source", &app.source));
    out.push_str(&guide_text(app, c));
    out
}

/// The app's guide, when its metadata carries one: a line saying so, then
/// its procedure titles (the guide itself: `calimcp doc`, MCP).
fn guide_text(app: &App, c: bool) -> String {
    let Some(guide) = &app.guide else {
        return String::new();
    };
    let n = guide.procedures.len();
    let mut out = format!(
        "  {}  by the app's author, {n} procedure{} (calimcp doc renders it)\n",
        dim(&format!("{:<8}", "guide"), c),
        if n == 1 { "" } else { "s" }
    );
    if n > 0 {
        out.push_str(&format!("\n  {}\n", dim("procedures", c)));
        for p in &guide.procedures {
            out.push_str(&format!("  {}\n", sanitize_line(p)));
        }
    }
    out
}

/// One service: its name (for an app of several), its methods with their
/// tool names, and its events.
fn service_text(
    app: &App,
    service: Option<&str>,
    tools: &[&Tool],
    hidden: &[&Method],
    c: bool,
) -> String {
    let mut out = String::from("\n");
    if let Some(s) = service.filter(|_| app.services.len() > 1) {
        out.push_str(&format!(
            "{}\n",
            bold(&format!("service {}", sanitize_line(s)), c)
        ));
    }
    let mut rows: Vec<(String, String, String)> = tools
        .iter()
        .map(|t| (t.method.clone(), t.signature.clone(), t.name.clone()))
        .collect();
    rows.extend(hidden.iter().map(|m| {
        (
            m.name.clone(),
            calimcp_core::mapping::signature(m),
            "(no tool: runs at context creation)".into(),
        )
    }));
    rows.sort();
    if rows.is_empty() {
        out.push_str("  (no methods: a state schema only)\n");
    }
    out.push_str(&method_lines(&rows, c));
    let svc = app.service(service).unwrap_or(&app.services[0]);
    if !svc.manifest.events.is_empty() {
        out.push_str(&format!("\n  {}\n", dim("events", c)));
        for e in &svc.manifest.events {
            let sig = EventRow::of(e).signature;
            out.push_str(&format!("  {}\n", sanitize_line(&sig)));
        }
    }
    out
}
