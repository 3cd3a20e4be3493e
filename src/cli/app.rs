//! `calimcp app install|uninstall|upgrade|list`: put an app on the node,
//! take it off again (meroctl's `app` words) and move a group to a new
//! build (`app_upgrade.rs`); `app list` is `calimcp apps`.

use std::io::{BufRead, IsTerminal, Write};

use clap::{Args, Subcommand};
use serde_json::Value;

use super::{GlobalArgs, output};
use calimcp_catalog::lifecycle::{self, Installed, Source, Uninstalled};
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;

/// Install, uninstall, upgrade and list the apps of the node.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp app install ./target/kv.wasm --package com.example.kv --version 0.1.0
  calimcp app list
  calimcp app upgrade my-alias --to ./kv-v2.wasm --dry-run
  calimcp app uninstall com.example.kv --yes")]
pub(crate) struct AppArgs {
    #[command(subcommand)]
    pub command: AppCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum AppCommand {
    Install(InstallArgs),
    Uninstall(UninstallArgs),
    Upgrade(super::app_upgrade::UpgradeArgs),
    /// List the apps (the same as `calimcp apps`)
    List(super::apps::AppsArgs),
}

/// Install an app on the node: a local file, an https URL, or PACKAGE@VERSION.
///
/// SOURCE is a local `.wasm`, `.mpk` or bundle directory (the node reads it
/// by path, so the node must run on this machine and see the file), an
/// http(s) URL the node fetches (merod 0.11.0-rc.25 and later fetch only
/// from public hosts), or PACKAGE@VERSION from the node's registry (nodes
/// that have one: merod 0.11.0-rc.31 and later). A local app is loaded
/// first: one calimcp cannot read is refused before anything is sent.
/// Installing the same bytes again is not an error (the node gives the same
/// id). Prints the application id.
#[derive(Debug, Args)]
#[command(
    disable_version_flag = true,
    after_help = "Examples:
  calimcp app install ./kv.wasm --package com.example.kv --version 0.1.0
  calimcp app install https://example.com/kv.wasm --json"
)]
pub(crate) struct InstallArgs {
    /// A .wasm, .mpk or bundle directory; an http(s) URL; or PACKAGE@VERSION
    #[arg(value_name = "SOURCE", value_hint = clap::ValueHint::AnyPath)]
    pub source: String,
    /// The app's version, as the node lists it (a local app's own by default)
    #[arg(long = "version", id = "app_version", value_name = "V")]
    pub version: Option<String>,
    /// A JSON object stored as the app's metadata (name, description, …), or @FILE; a bundle's (directory or .mpk) manifest `metadata` by default
    #[arg(long, value_name = "JSON|@FILE")]
    pub metadata: Option<String>,
}

/// Remove an app from the node.
///
/// Refused while contexts run the app (they are listed) unless --force.
/// Asks first on a terminal; off a terminal --yes is required. APP names
/// every installed version, APP@VERSION (or an application id) one.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp app uninstall com.example.kv
  calimcp app uninstall com.example.kv@0.1.0 --yes --json")]
pub(crate) struct UninstallArgs {
    /// The app: a name, APP@VERSION or an application id
    #[arg(add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates))]
    pub app: String,
    /// Do not ask
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Remove it even while contexts run it
    #[arg(long)]
    pub force: bool,
}

pub(crate) fn run(g: &GlobalArgs, args: AppArgs) -> Result<()> {
    match args.command {
        AppCommand::Install(a) => install(g, a),
        AppCommand::Uninstall(a) => uninstall(g, a),
        AppCommand::Upgrade(a) => super::app_upgrade::run(g, a),
        AppCommand::List(a) => super::apps::run(g, a),
    }
}

/// `--metadata`: JSON text or @FILE.
fn metadata(raw: &str) -> Result<Value> {
    let text = match raw.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path).map_err(|e| {
            Error::input(
                Code::Unreadable,
                format!("cannot read --metadata file {}: {e}", sanitize_line(path)),
            )
        })?,
        None => raw.to_string(),
    };
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        Error::input(Code::Usage, format!("--metadata is not JSON: {e}"))
            .with_hint("pass a JSON object: --metadata '{\"name\":\"KV\"}' or @FILE")
    })?;
    if !v.is_object() {
        return Err(Error::input(
            Code::Usage,
            "--metadata must be a JSON object (name, description, …)",
        ));
    }
    Ok(v)
}

fn install(g: &GlobalArgs, args: InstallArgs) -> Result<()> {
    let meta = args.metadata.as_deref().map(metadata).transpose()?;
    let session = g.session()?;
    let source = Source::parse(&args.source);
    let done: Installed = session.block_on(session.install_app(
        &source,
        g.package.as_deref(),
        args.version.as_deref(),
        meta.as_ref(),
    ))??;
    g.say(&session);
    if g.json {
        return output::print_json(&done);
    }
    output::print(&done.application_id)?;
    let what = match (&done.package, &done.version) {
        (Some(p), Some(v)) => format!(" as {} {}", sanitize_line(p), sanitize_line(v)),
        (Some(p), None) => format!(" as {}", sanitize_line(p)),
        _ => String::new(),
    };
    g.ui().note(format_args!(
        "installed{what}; next: calimcp context create {}",
        done.package
            .as_deref()
            .map_or_else(|| done.application_id.clone(), sanitize_line)
    ));
    Ok(())
}

fn uninstall(g: &GlobalArgs, args: UninstallArgs) -> Result<()> {
    let session = g.session()?;
    session.answering("uninstalling an app")?;
    let (name, version) = lifecycle::app_and_version(&args.app);
    let sel = g.select(&session, std::slice::from_ref(&name), true)?;
    let app = &sel.catalog.apps[sel.apps[0]];
    confirm(
        g,
        &format!(
            "remove {}{} from the node at {}?",
            sanitize_line(app.package_or_id()),
            version
                .as_deref()
                .map(|v| format!(" {}", sanitize_line(v)))
                .unwrap_or_else(|| " (every installed version)".into()),
            session.node_url()?
        ),
        args.yes,
    )?;
    let done: Uninstalled =
        session.block_on(session.uninstall_app(app, version.as_deref(), args.force))??;
    if g.json {
        return output::print_json(&done);
    }
    for id in &done.application_ids {
        output::print(&format!("uninstalled {}", sanitize_line(id)))?;
    }
    if !done.contexts.is_empty() {
        g.ui().warn(format_args!(
            "{} context(s) still ran it and keep the code they have: {}",
            done.contexts.len(),
            sanitize_line(&done.contexts.join(", "))
        ));
    }
    Ok(())
}

/// Asks `question` on a terminal; off one (or with --json) `--yes` is required.
pub(crate) fn confirm(g: &GlobalArgs, question: &str, yes: bool) -> Result<()> {
    if yes {
        return Ok(());
    }
    let refused = |why: &str| {
        Error::input(
            Code::ConfirmationRequired,
            format!("{why}; nothing was changed"),
        )
        .with_hint("pass --yes to go ahead without a question")
    };
    let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal() && !g.json;
    if !interactive {
        return Err(refused("not on a terminal, and --yes was not given"));
    }
    {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "{question} [y/N] ");
        let _ = err.flush();
    }
    let mut line = String::new();
    let _ = std::io::stdin().lock().read_line(&mut line);
    match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Ok(()),
        _ => Err(refused("not confirmed")),
    }
}
