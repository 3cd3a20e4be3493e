//! `calimcp tools [APP…]`: the MCP tools, as a table or exactly as the server lists them.

use clap::Args;
use comfy_table::{Table, presets};

use super::output::{self, JsonStream, paint_signature};
use super::{FilterArgs, GlobalArgs, SchemaWarnings, report_warnings};
use calimcp_core::error::Result;
use calimcp_core::mapping::Tool;
use calimcp_core::mapping::schema::SchemaBudget;

/// List the tools generated for apps (local and the node's): a table, or with
/// --json exactly the MCP Tool objects `calimcp serve` advertises.
///
/// The apps are those of the --apps directories and APP paths given, then the
/// node's (--node, or the current node; --offline: the local ones only). With
/// --json the tools are exactly those `calimcp serve` advertises for the same
/// apps and options.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp tools examples/kv-store
  calimcp tools --apps examples --json
  calimcp tools --apps examples --read-only --deny '*_clear'")]
pub(crate) struct ToolsArgs {
    /// Apps to list (paths, names, or `-`: a manifest on stdin); none means every app: the --apps directories' and the node's
    #[arg(value_name = "APP", value_hint = clap::ValueHint::AnyPath)]
    #[arg(add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates))]
    pub targets: Vec<String>,
    #[command(flatten)]
    pub filter: FilterArgs,
}

pub(crate) fn run(g: &GlobalArgs, args: ToolsArgs) -> Result<()> {
    let ui = g.ui();
    let mut names = args.targets.clone();
    names.extend(args.filter.app.iter().cloned());
    let sel = super::stdin::select(g, &g.session()?, &names, false)?;
    let apps: Vec<usize> = if names.is_empty() {
        (0..sel.catalog.apps.len()).collect()
    } else {
        sel.apps.clone()
    };
    if sel.catalog.apps.is_empty() {
        // Entries that could not be loaded say why there is nothing.
        report_warnings(&ui, &sel.catalog, &[]);
        return Err(super::no_apps(g));
    }
    report_warnings(&ui, &sel.catalog, &apps);
    let filter = args.filter.filter();
    let tools: Vec<_> = sel
        .catalog
        .tools
        .tools
        .iter()
        .filter(|t| apps.contains(&t.app))
        .filter(|t| {
            g.service
                .as_deref()
                .is_none_or(|s| t.service.as_deref() == Some(s))
        })
        .filter(|t| filter.admits(t))
        .collect();
    let names = sel
        .catalog
        .tools
        .tools
        .iter()
        .filter(|t| apps.contains(&t.app))
        .map(|t| t.name.as_str());
    for pattern in filter.unmatched(names) {
        ui.warn(format_args!(
            "{} matches no tool",
            calimcp_core::text::sanitize_line(&pattern)
        ));
    }
    if g.json {
        return print_json(g, &tools);
    }
    print_table(g, &tools)
}

/// `--json`: the tools as MCP `tools/list` describes them, a JSON array
/// written as its items are built.
fn print_json(g: &GlobalArgs, tools: &[&Tool]) -> Result<()> {
    let ui = g.ui();
    let mut warnings = SchemaWarnings::default();
    let mut out = JsonStream::new();
    out.open('[');
    let renderer = out.renderer();
    let build = |t: &&Tool, spent: bool| {
        let mut schemas = t.listed_trees(spent);
        let warnings = std::mem::take(&mut schemas.warnings);
        let size = schemas.size;
        ((renderer.render(&t.mcp(schemas)), warnings), size)
    };
    let mut budget = SchemaBudget::new(g.tool_options().listing_budget);
    output::par_map_listing(tools, &mut budget, build, |t, (text, w)| {
        out.item();
        out.rendered(&text);
        warnings.report(&ui, &t.name, &w);
    });
    out.close(']');
    warnings.finish(&ui);
    out.finish()
}

/// The tools as a table: laid out in plain text (colour codes would count as
/// width), fitted to the terminal, tool names never wrapped; the tags are
/// coloured after.
fn print_table(g: &GlobalArgs, tools: &[&Tool]) -> Result<()> {
    let ui = g.ui();
    let mut table = Table::new();
    table
        .load_style(presets::NOTHING)
        .set_header(vec!["TOOL", "KIND", "SIGNATURE"]);
    output::fit_to_terminal(&mut table, &[0, 1]);
    for t in tools {
        table.add_row(vec![
            t.name.clone(),
            t.kind().to_string(),
            t.signature.clone(),
        ]);
    }
    let text = output::table_text(&table);
    let text = if ui.color_out {
        text.lines()
            .map(|l| match l.find("[view] ").or_else(|| l.find("[mut] ")) {
                Some(at) => format!("{}{}\n", &l[..at], paint_signature(&l[at..], true)),
                None => format!("{l}\n"),
            })
            .collect()
    } else {
        text
    };
    output::print(&text)
}
