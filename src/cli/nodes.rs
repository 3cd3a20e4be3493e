//! `calimcp node add|list|use|remove|import`: named nodes, kept in the
//! profile file ([`crate::node::profiles`]) in the config directory.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use comfy_table::{Table, presets};
use serde_json::{Value, json};

use super::node::{config_dir, max_state, node_name_candidates, profiles_path};
use super::{GlobalArgs, output};
use crate::error::{Code, Error, Result};
use crate::node::profiles::{self, Profiles};
use crate::text::sanitize_line;

/// Name nodes, list them, choose the current one.
///
/// A name stands for a URL wherever a node is given (`--node NAME`,
/// CALIMERO_NODE_URL=NAME); the current node (`node use`) is the node when
/// none is given. Names and URLs are kept in nodes.json in
/// $XDG_CONFIG_HOME/calimcp (default ~/.config/calimcp); tokens stay in
/// calimcp's own token cache, per URL, so two names of one URL share a login.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp node add local http://127.0.0.1:2528
  calimcp node use local
  calimcp node list
  calimcp call kv_store_get --key a --node staging
  calimcp node import                 # the URLs of meroctl's nodes.toml")]
pub struct NodeCmdArgs {
    #[command(subcommand)]
    pub action: NodeAction,
}

#[derive(Debug, Subcommand)]
pub enum NodeAction {
    /// Name a node's URL (1–64 letters, digits, `.`, `_`, `-`)
    Add {
        /// The name
        name: String,
        /// The node's URL (http or https; a base path is kept)
        url: String,
        /// Replace the URL of a name that exists
        #[arg(long)]
        force: bool,
    },
    /// List the named nodes; `*` marks the current one
    #[command(visible_alias = "ls")]
    List,
    /// Make a named node the current one (the node when none is given)
    Use {
        /// The name (`--clear`: none)
        #[arg(required_unless_present = "clear", add = clap_complete::ArgValueCompleter::new(node_name_candidates))]
        name: Option<String>,
        /// No current node: back to CALIMERO_NODE_URL or merod's default
        #[arg(long, conflicts_with = "name")]
        clear: bool,
    },
    /// Forget a name (its cached login stays: `calimcp logout` removes it)
    #[command(visible_alias = "rm")]
    Remove {
        /// The name
        #[arg(add = clap_complete::ArgValueCompleter::new(node_name_candidates))]
        name: String,
    },
    /// Add the remote nodes of meroctl's node list (names and URLs only, never its tokens); its active node becomes the current one when there is none
    Import {
        /// meroctl's nodes.toml [default: $XDG_CONFIG_HOME/calimero/meroctl/nodes.toml]
        path: Option<PathBuf>,
        /// Replace the URL of names that exist
        #[arg(long)]
        force: bool,
    },
}

pub fn run(g: &GlobalArgs, args: NodeCmdArgs) -> Result<u8> {
    let file = File {
        path: profiles_path()?,
        max: max_state()?,
    };
    match args.action {
        NodeAction::Add { name, url, force } => add(g, &file, name, &url, force),
        NodeAction::List => list(g, &Profiles::load(&file.path, file.max)?),
        NodeAction::Use { name, clear } => use_node(g, &file, name, clear),
        NodeAction::Remove { name } => remove(g, &file, name),
        NodeAction::Import { path, force } => import(g, &file, path, force),
    }
}

/// The profile file of named nodes and the largest one read.
struct File {
    path: PathBuf,
    max: u64,
}

impl File {
    /// Every change is a read-modify-write under the file's lock.
    fn update(&self, change: &mut dyn FnMut(&mut Profiles) -> Result<()>) -> Result<()> {
        Profiles::update(&self.path, self.max, |p| change(p))
    }
}

/// `node add NAME URL [--force]`.
fn add(g: &GlobalArgs, file: &File, name: String, url: &str, force: bool) -> Result<u8> {
    profiles::check_name(&name)?;
    let url = profiles::check_url(url)?;
    file.update(&mut |p| {
        if let Some(old) = p.url_of(&name)
            && old != url
            && !force
        {
            return Err(Error::input(
                Code::Usage,
                format!("the node `{name}` exists, with the URL {}", shown(old)),
            )
            .with_hint("pass --force to replace its URL, or choose another name"));
        }
        p.nodes.insert(name.clone(), url.clone());
        Ok(())
    })?;
    let url = shown(&url);
    report(
        g,
        json!({"name": name, "url": url}),
        format!("{name}: {url}"),
    )
}

/// `node use NAME` or `node use --clear`.
fn use_node(g: &GlobalArgs, file: &File, name: Option<String>, clear: bool) -> Result<u8> {
    if clear {
        file.update(&mut |p| {
            p.current = None;
            Ok(())
        })?;
        return report(
            g,
            json!({"current": null}),
            "no current node: CALIMERO_NODE_URL or --node, else http://127.0.0.1:2528".into(),
        );
    }
    let name = name.unwrap_or_default();
    let mut url = String::new();
    file.update(&mut |p| {
        url = p
            .url_of(&name)
            .map(shown)
            .ok_or_else(|| unknown(p, &name))?;
        p.current = Some(name.clone());
        Ok(())
    })?;
    report(
        g,
        json!({"current": name, "url": url}),
        format!("the current node is now {name} ({url})"),
    )
}

/// `node remove NAME`.
fn remove(g: &GlobalArgs, file: &File, name: String) -> Result<u8> {
    let (mut url, mut was_current) = (String::new(), false);
    file.update(&mut |p| {
        url = p
            .nodes
            .remove(&name)
            .as_deref()
            .map(shown)
            .ok_or_else(|| unknown(p, &name))?;
        was_current = p.current.as_deref() == Some(name.as_str());
        if was_current {
            p.current = None;
        }
        Ok(())
    })?;
    report(
        g,
        json!({"removed": name, "url": url, "was_current": was_current}),
        format!(
            "removed {name} ({url}){}",
            if was_current {
                "; there is no current node now"
            } else {
                ""
            }
        ),
    )
}

/// `node import [PATH] [--force]`: meroctl's node list.
fn import(g: &GlobalArgs, file: &File, from: Option<PathBuf>, force: bool) -> Result<u8> {
    let ui = g.ui();
    let given = from.is_some();
    let from = match from {
        Some(f) => f,
        None => profiles::meroctl_path(
            std::env::var_os("HOME").map(PathBuf::from).as_deref(),
            std::env::var_os("XDG_CONFIG_HOME")
                .map(PathBuf::from)
                .as_deref(),
        )
        .ok_or_else(|| Error::input(Code::Usage, "no HOME: name meroctl's nodes.toml"))?,
    };
    if !given && !from.exists() {
        // Nothing to import is not an error when no file was named.
        ui.note(format_args!(
            "meroctl has no node list at {}",
            from.display()
        ));
        return report(g, json!({"imported": []}), "no nodes imported".into());
    }
    let text = std::fs::read_to_string(&from).map_err(|e| {
        Error::input(
            Code::Unreadable,
            format!("cannot read meroctl's node list {}: {e}", from.display()),
        )
        .with_hint("give its path: calimcp node import PATH")
    })?;
    let found = profiles::parse_meroctl(&text)?;
    let active = profiles::meroctl_active(&text);
    let mut added = Vec::new();
    let mut made_current = None;
    file.update(&mut |p| {
        added.clear();
        for n in &found {
            import_one(&ui, p, n, force, &mut added);
        }
        // meroctl's active node becomes the current one when there is none.
        made_current = active
            .clone()
            .filter(|a| p.current.is_none() && p.url_of(a).is_some());
        if made_current.is_some() {
            p.current.clone_from(&made_current);
        }
        Ok(())
    })?;
    let text = imported_text(&from, &added, made_current.as_deref());
    report(g, json!({"imported": added, "current": made_current}), text)
}

/// What `node import` says it did.
fn imported_text(from: &std::path::Path, added: &[Value], made_current: Option<&str>) -> String {
    let text = if added.is_empty() {
        format!("no nodes to import from {}", from.display())
    } else {
        let lines: Vec<String> = added
            .iter()
            .map(|a| {
                format!(
                    "{}: {}",
                    a["name"].as_str().unwrap_or_default(),
                    a["url"].as_str().unwrap_or_default()
                )
            })
            .collect();
        format!("imported:\n{}", lines.join("\n"))
    };
    match made_current {
        Some(a) => format!(
            "{text}\n{} is the current node (meroctl's active node)",
            sanitize_line(a)
        ),
        None => text,
    }
}

fn import_one(
    ui: &super::output::Ui,
    p: &mut Profiles,
    n: &profiles::MeroctlNode,
    force: bool,
    added: &mut Vec<Value>,
) {
    let label = sanitize_line(&n.name);
    let Some(url) = &n.url else {
        ui.warn(format_args!(
            "{label}: skipped, a local node (meroctl reads its URL from the node's home); add it with calimcp node add NAME URL"
        ));
        return;
    };
    if let Err(e) = profiles::check_name(&n.name) {
        ui.warn(format_args!("{label}: skipped, {}", e.message));
        return;
    }
    let url = match profiles::check_url(url) {
        Ok(u) => u,
        Err(e) => {
            ui.warn(format_args!("{label}: skipped, {}", e.message));
            return;
        }
    };
    match p.url_of(&n.name) {
        Some(old) if old == url => return,
        Some(old) if !force => {
            ui.warn(format_args!(
                "{label}: skipped, the name exists with the URL {} (--force replaces it)",
                shown(old)
            ));
            return;
        }
        _ => {}
    }
    added.push(json!({"name": n.name, "url": shown(&url)}));
    p.nodes.insert(n.name.clone(), url);
}

/// A stored URL as calimcp shows URLs: without credentials (`user:pass@`).
fn shown(url: &str) -> String {
    crate::node::normalize_url(url)
        .map(|(_, s)| s)
        .unwrap_or_else(|_| sanitize_line(url))
}

fn report(g: &GlobalArgs, value: Value, text: String) -> Result<u8> {
    if g.json {
        output::print_json(&value)?;
    } else {
        output::print(&format!("{text}\n"))?;
    }
    Ok(0)
}

fn unknown(p: &Profiles, name: &str) -> Error {
    Error::input(
        Code::UnknownNode,
        format!(
            "no node is named `{}`{}",
            sanitize_line(name),
            if p.nodes.is_empty() {
                " (no nodes are named yet)".to_string()
            } else {
                format!("; the named nodes are: {}", p.names_text())
            }
        ),
    )
    .with_hint("`calimcp node add NAME URL` names a node")
}

fn list(g: &GlobalArgs, p: &Profiles) -> Result<u8> {
    let current = p.current.as_deref();
    if g.json {
        let rows: Vec<Value> = p
            .nodes
            .iter()
            .map(|(n, u)| json!({"name": n, "url": shown(u), "current": Some(n.as_str()) == current}))
            .collect();
        output::print_json(&Value::Array(rows))?;
        return Ok(0);
    }
    if p.nodes.is_empty() {
        g.ui().note(format_args!(
            "no named nodes (in {}); `calimcp node add NAME URL` names one",
            config_dir()?.display()
        ));
        return Ok(0);
    }
    let mut table = Table::new();
    table
        .load_style(presets::NOTHING)
        .set_header(vec!["", "NAME", "URL"]);
    for (n, u) in &p.nodes {
        let mark = if Some(n.as_str()) == current { "*" } else { "" };
        // A hand-edited file may hold any name: made safe for the terminal.
        table.add_row(vec![mark.to_string(), sanitize_line(n), shown(u)]);
    }
    output::print(&output::table_text(&table))?;
    Ok(0)
}
