//! `calimcp doc APP… [-o DIR]`: each app's reference as a self-contained web
//! page (`DIR/SLUG.html`), and `DIR/index.html` listing them when there are
//! several; `-o -` writes one app's page to stdout. The pages come from
//! [`calimcp_core::doc`]; this file only picks the apps and writes the files.

use std::path::{Path, PathBuf};

use clap::Args;

use super::{GlobalArgs, report_warnings};
use calimcp_core::abi::App;
use calimcp_core::doc::{self, AppDoc, Options};
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;

/// Write apps' references as self-contained web pages: every method with its
/// signature, tool, parameters, schemas and an example, the events, types
/// and state layout. No network, no external fonts or scripts.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp doc examples/kv-store -o site        # site/kv_store.html
  calimcp doc --apps examples -o site          # every app, and site/index.html
  calimcp doc examples/kv-store -o - > kv.html # one page on stdout")]
pub(crate) struct DocArgs {
    /// Apps (paths, names, or `-`: a manifest on stdin); none means every app: the --apps directories' and the node's (with --offline, the --apps directories' only)
    #[arg(value_name = "APP", value_hint = clap::ValueHint::AnyPath)]
    #[arg(add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates))]
    pub targets: Vec<String>,
    /// Directory to write the pages to (created if missing); `-`: one app's page on stdout
    #[arg(short = 'o', long = "out", value_name = "DIR", default_value = "site", value_hint = clap::ValueHint::DirPath)]
    pub out: PathBuf,
}

pub(crate) fn run(g: &GlobalArgs, args: DocArgs) -> Result<()> {
    let ui = g.ui();
    let session = g.session()?;
    let sel = super::stdin::select(g, &session, &args.targets, false)?;
    if sel.catalog.apps.is_empty() {
        report_warnings(&ui, &sel.catalog, &[]);
        return Err(super::no_apps(g));
    }
    let apps: Vec<usize> = if args.targets.is_empty() {
        (0..sel.catalog.apps.len()).collect()
    } else {
        sel.apps.clone()
    };
    report_warnings(&ui, &sel.catalog, &apps);
    // `--service NAME`: each app's page shows that service only.
    let narrowed: Vec<App> = apps
        .iter()
        .map(|&i| {
            let mut app = sel.catalog.apps[i].clone();
            if let Some(s) = &g.service {
                super::check_service(&app, s)?;
                app.services
                    .retain(|x| x.name.as_deref() == Some(s.as_str()));
            }
            Ok(app)
        })
        .collect::<Result<_>>()?;
    let docs: Vec<AppDoc> = apps
        .iter()
        .zip(&narrowed)
        .map(|(&i, app)| AppDoc {
            app,
            tools: sel.catalog.tools.for_app(i, g.service.as_deref()).collect(),
            key: sel.catalog.tools.slugs[i].clone(),
            contexts_uri: None,
        })
        .collect();
    let opts = Options::default();
    if args.out == Path::new("-") {
        let [one] = docs.as_slice() else {
            return Err(Error::input(
                Code::Usage,
                format!(
                    "-o - writes one page to stdout, but {} apps were named",
                    docs.len()
                ),
            )
            .with_hint("name one app, or write the pages to a directory with -o DIR"));
        };
        super::output::print(&doc::page(std::slice::from_ref(one), &opts))?;
        return Ok(());
    }
    std::fs::create_dir_all(&args.out).map_err(|e| unwritable(&args.out, &e))?;
    for d in &docs {
        write(
            &args.out.join(file_name(d)),
            &doc::page(std::slice::from_ref(d), &opts),
        )?;
    }
    if docs.len() > 1 {
        write(
            &args.out.join("index.html"),
            &doc::index(&docs, &|d| file_name(d), &opts),
        )?;
    }
    {
        let written: Vec<String> = docs.iter().map(file_name).collect();
        ui.note(format_args!(
            "wrote {} in {}{}",
            written.join(", "),
            sanitize_line(&args.out.display().to_string()),
            if docs.len() > 1 {
                " (and index.html)"
            } else {
                ""
            }
        ));
    }
    Ok(())
}

/// An app's page: its tool-name slug, which is unique among the apps listed
/// (`index_.html` for an app whose slug is `index`, which the index takes).
fn file_name(d: &AppDoc<'_>) -> String {
    match d.key.as_str() {
        "index" => "index_.html".into(),
        key => format!("{key}.html"),
    }
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| unwritable(path, &e))
}

fn unwritable(path: &Path, e: &std::io::Error) -> Error {
    Error::input(
        Code::Unwritable,
        format!(
            "cannot write {}: {e}",
            sanitize_line(&path.display().to_string())
        ),
    )
    .with_hint("pass -o with a directory you can write to")
}
