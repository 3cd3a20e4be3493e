//! `calimcp apps`: the apps found.

use clap::Args;
use comfy_table::{Table, presets};

use super::output;
use super::{GlobalArgs, report_warnings};
use calimcp_catalog::describe::AppRow;
use calimcp_core::abi::App;
use calimcp_core::error::{Code, Result};
use calimcp_core::text::sanitize_line;

/// List the apps: those of the --apps directories and APP paths given, then the node's.
///
/// The node's apps (--node, or the current node) are listed with their ABIs
/// read from the node; --offline lists the local ones only. A node with no
/// apps at all is an empty listing (exit 0); nothing to list without a node
/// is a usage error (exit 2).
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp apps --apps examples
  CALIMCP_APPS=examples calimcp apps --json")]
pub(crate) struct AppsArgs {
    /// Extra app paths to include
    pub paths: Vec<String>,
}

pub(crate) fn run(g: &GlobalArgs, args: AppsArgs) -> Result<()> {
    let ui = g.ui();
    let session = g.session()?;
    // A node that answered with no apps is an empty listing, not an error;
    // with --json a listing of nothing is `[]` (exit 0), and why is a warning.
    let nothing = |e: calimcp_core::error::Error| -> Result<()> {
        if e.code != Code::NoApps {
            return Err(e);
        }
        // Only a node that answered and has no app at all (one whose apps
        // were all left out is still an error that says why).
        let answered = args.paths.is_empty()
            && !session.offline()
            && matches!(session.block_on(session.node_apps()), Ok(Ok((a, u))) if a.is_empty() && u.is_empty());
        if answered && !g.json {
            ui.note(format_args!("no apps on {}", session.url()?));
            return Ok(());
        }
        if !g.json {
            return Err(e);
        }
        ui.warn(&e);
        output::print_json(&[] as &[AppRow])?;
        Ok(())
    };
    let sel = match g.select(&session, &args.paths, false) {
        Ok(sel) => sel,
        Err(e) => return nothing(e),
    };
    let catalog = &sel.catalog;
    if catalog.apps.is_empty() {
        // Entries that could not be loaded say why there is nothing.
        report_warnings(&ui, catalog, &[]);
        return nothing(super::no_apps(g));
    }
    let all: Vec<usize> = (0..catalog.apps.len()).collect();
    report_warnings(&ui, catalog, &all);
    if g.json {
        let list: Vec<AppRow> = catalog.apps.iter().map(AppRow::of).collect();
        return output::print_json(&list);
    }
    print_table(&catalog.apps)
}

/// The apps as a table, one row each.
fn print_table(apps: &[App]) -> Result<()> {
    let mut table = Table::new();
    table.load_style(presets::NOTHING).set_header(vec![
        "PACKAGE", "VERSION", "SERVICES", "METHODS", "ID", "SOURCE",
    ]);
    output::fit_to_terminal(&mut table, &[0, 4]);
    for a in apps {
        let services: Vec<String> = a.services.iter().filter_map(|s| s.name.clone()).collect();
        let methods: usize = a.services.iter().map(|s| s.manifest.methods.len()).sum();
        table.add_row(vec![
            sanitize_line(a.package_or_id()),
            sanitize_line(
                &several_versions(a)
                    .unwrap_or_else(|| a.version.clone().unwrap_or_else(|| "-".into())),
            ),
            if services.is_empty() {
                "-".into()
            } else {
                sanitize_line(&services.join(","))
            },
            methods.to_string(),
            a.id.to_string(),
            sanitize_line(&a.source),
        ]);
    }
    output::print(&output::table_text(&table))
}

/// The versions the node has of `app`, newest first (its installs; `?`
/// where the node names none).
pub(super) fn install_versions(app: &App) -> Vec<String> {
    app.installs
        .iter()
        .map(|v| v.version.clone().unwrap_or_else(|| "?".into()))
        .collect()
}

/// [`install_versions`] as one line, when the node has more than one.
pub(super) fn several_versions(app: &App) -> Option<String> {
    (app.installs.len() > 1).then(|| install_versions(app).join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use calimcp_core::abi::Install;

    #[test]
    fn versions_are_the_installs_newest_first_and_said_when_several() {
        let install = |v: Option<&str>| Install {
            id: "A".into(),
            version: v.map(str::to_string),
            unusable: None,
        };
        let mut app = App {
            version: Some("0.2.0".into()),
            installs: vec![install(Some("0.2.0")), install(None)],
            ..App::default()
        };
        assert_eq!(install_versions(&app), ["0.2.0", "?"]);
        assert_eq!(several_versions(&app).as_deref(), Some("0.2.0, ?"));
        app.installs.truncate(1);
        assert_eq!(install_versions(&app), ["0.2.0"]);
        assert_eq!(several_versions(&app), None);
    }
}
