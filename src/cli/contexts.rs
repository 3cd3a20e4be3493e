//! `calimcp contexts [APP]`: the contexts of an app (of every app) on the
//! node, with their aliases, the version each runs (and the one it moves to
//! after a group upgrade) and whether the node has their state yet.

use super::{GlobalArgs, output, report_warnings};
use calimcp_core::error::Result;
use calimcp_core::text::sanitize_line;
use clap::Args;
use comfy_table::{Table, presets};

/// List the contexts of an app on the node (of every app without APP).
///
/// Each context with its aliases, the app and version it runs, its service
/// (multi-service apps) and whether this node has its state yet (a node that
/// just joined a context is `uninitialized` until it has synced it). The
/// contexts of every version of the app are listed. A context whose group
/// was upgraded to another version shows `OLD → NEW`: it moves at its next
/// execution (`pendingVersion` in --json).
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp contexts kv-store
  calimcp contexts --json")]
pub(crate) struct ContextsArgs {
    /// The app: a name among the local apps and the node's (all apps without it)
    #[arg(add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates))]
    pub app: Option<String>,
}

pub(crate) fn run(g: &GlobalArgs, args: ContextsArgs) -> Result<()> {
    let session = g.session()?;
    // Contexts live on the node: one that does not answer is an error
    // (exit 4), never an empty list, whether or not its address was given.
    session.answering("listing contexts")?;
    let names: Vec<String> = args.app.iter().cloned().collect();
    let sel = g.select(&session, &names, true)?;
    let catalog = &sel.catalog;
    let apps: Vec<usize> = if names.is_empty() {
        (0..catalog.apps.len()).collect()
    } else {
        sel.apps.clone()
    };
    report_warnings(&g.ui(), catalog, &apps);
    let mut rows = session.context_rows(catalog, &apps, g.service.as_deref(), names.is_empty())?;
    session.pending_versions(&mut rows)?;
    if g.json {
        output::print_json(&rows)?;
        return Ok(());
    }
    if rows.is_empty() {
        g.ui().note(format_args!(
            "no contexts on {}{}",
            session.url()?,
            match &args.app {
                Some(a) => format!(" for {}", sanitize_line(a)),
                None => String::new(),
            }
        ));
        return Ok(());
    }
    let mut table = Table::new();
    table.load_style(presets::NOTHING).set_header(vec![
        "CONTEXT", "ALIASES", "APP", "VERSION", "SERVICE", "STATE",
    ]);
    output::fit_to_terminal(&mut table, &[0, 2]);
    let text = |v: Option<&str>| sanitize_line(v.unwrap_or("-"));
    for r in &rows {
        table.add_row(vec![
            sanitize_line(&r.id),
            if r.aliases.is_empty() {
                "-".into()
            } else {
                let aliases: Vec<String> = r.aliases.iter().map(|a| sanitize_line(a)).collect();
                aliases.join(",")
            },
            sanitize_line(&r.app),
            match &r.pending_version {
                Some(to) => format!(
                    "{} → {} (at its next execution)",
                    text(r.version.as_deref()),
                    sanitize_line(to)
                ),
                None => text(r.version.as_deref()),
            },
            text(r.service.as_deref()),
            match r.initialized {
                Some(true) => "ready".into(),
                Some(false) => "uninitialized".into(),
                None => "-".into(),
            },
        ]);
    }
    output::print(&output::table_text(&table))?;
    Ok(())
}
