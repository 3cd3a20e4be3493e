//! `calimcp node add|list|use|remove|import`: named nodes, kept in the
//! profile file ([`crate::node::profiles`]) in the config directory.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use comfy_table::{Table, presets};
use schemars::JsonSchema;
use serde::Serialize;

use super::node::{config_dir, max_state, node_name_candidates, profiles_path};
use super::{GlobalArgs, output};
use calimcp_catalog::accounts::profiles::{self, Profiles};
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;

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
pub(crate) struct NodeCmdArgs {
    #[command(subcommand)]
    pub action: NodeAction,
}

#[derive(Debug, Subcommand)]
pub(crate) enum NodeAction {
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
        /// No current node: back to CALIMERO_NODE_URL, else the node found (see --node), else merod's default
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

pub(crate) fn run(g: &GlobalArgs, args: NodeCmdArgs) -> Result<()> {
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
fn add(g: &GlobalArgs, file: &File, name: String, url: &str, force: bool) -> Result<()> {
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
        &NodeAdded {
            name: name.clone(),
            url: url.clone(),
        },
        format!("{name}: {url}"),
    )
}

/// `node use NAME` or `node use --clear`.
fn use_node(g: &GlobalArgs, file: &File, name: Option<String>, clear: bool) -> Result<()> {
    if clear {
        file.update(&mut |p| {
            p.current = None;
            Ok(())
        })?;
        return report(
            g,
            &NodeUsed {
                current: None,
                url: None,
            },
            "no current node: CALIMERO_NODE_URL or --node, else the node found (the desktop app's hand-off file, the one node under ~/.calimero), else http://127.0.0.1:2528".into(),
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
        &NodeUsed {
            current: Some(&name),
            url: Some(url.clone()),
        },
        format!("the current node is now {name} ({url})"),
    )
}

/// `node remove NAME`.
fn remove(g: &GlobalArgs, file: &File, name: String) -> Result<()> {
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
        &NodeRemoved {
            removed: &name,
            url: url.clone(),
            was_current,
        },
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
fn import(g: &GlobalArgs, file: &File, from: Option<PathBuf>, force: bool) -> Result<()> {
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
        let none = NodesImported {
            imported: Vec::new(),
            current: None,
        };
        return report(g, &none, "no nodes imported".into());
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
    let out = NodesImported {
        imported: added,
        current: made_current,
    };
    report(g, &out, text)
}

/// What `node import` says it did.
fn imported_text(
    from: &std::path::Path,
    added: &[NodeAdded],
    made_current: Option<&str>,
) -> String {
    let text = if added.is_empty() {
        format!("no nodes to import from {}", from.display())
    } else {
        let lines: Vec<String> = added
            .iter()
            .map(|a| format!("{}: {}", a.name, a.url))
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
    added: &mut Vec<NodeAdded>,
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
    added.push(NodeAdded {
        name: n.name.clone(),
        url: shown(&url),
    });
    p.nodes.insert(n.name.clone(), url);
}

/// A stored URL as calimcp shows URLs: without credentials (`user:pass@`).
fn shown(url: &str) -> String {
    calimcp_catalog::accounts::normalize_url(url)
        .map(|(_, s)| s)
        .unwrap_or_else(|_| sanitize_line(url))
}

fn report(g: &GlobalArgs, value: &impl Serialize, text: String) -> Result<()> {
    if g.json {
        output::print_json(value)?;
    } else {
        output::print(&format!("{text}\n"))?;
    }
    Ok(())
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

/// What `node add --json` prints, and each node `node import --json` added.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct NodeAdded {
    /// The name.
    pub name: String,
    /// Its URL (without credentials).
    pub url: String,
}

/// What `node use --json` prints: `{"current":null}` after `node use --clear`.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct NodeUsed<'a> {
    /// The current node's name now.
    pub current: Option<&'a str>,
    /// Its URL (without credentials); absent after `--clear`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// What `node remove --json` prints.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct NodeRemoved<'a> {
    /// The name removed.
    pub removed: &'a str,
    /// The URL it had (without credentials).
    pub url: String,
    /// Whether it was the current node (there is none now, then).
    pub was_current: bool,
}

/// What `node import --json` prints.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct NodesImported {
    /// The nodes added (or, with --force, whose URL was replaced).
    pub imported: Vec<NodeAdded>,
    /// meroctl's active node, when it became the current one (there was
    /// none); else `null`.
    pub current: Option<String>,
}

/// A named node, as `node list --json` lists it.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct NodeRow<'a> {
    /// The name `calimcp node add` gave it.
    pub name: &'a str,
    /// Its URL (without credentials).
    pub url: String,
    /// Whether it is the current node (`calimcp node use`).
    pub current: bool,
}

/// When no node is given and there is no current node: the node commands
/// use and where it was found (the desktop app's hand-off file, a node home
/// under ~/.calimero, or merod's default), or why none could be chosen.
fn say_found(g: &GlobalArgs) {
    let mut node = g.node.clone();
    if node.resolve().is_err() {
        return;
    }
    if let Some(e) = &node.deferred {
        if node.url.is_none() {
            g.ui()
                .note(format_args!("no node without --node: {}", e.message));
        }
        return;
    }
    if let Some(source) = node.source_text() {
        let url = shown(node.url());
        g.ui().note(format_args!(
            "without --node, the node is {url}, from {source}"
        ));
    }
}

fn list(g: &GlobalArgs, p: &Profiles) -> Result<()> {
    let current = p.current.as_deref();
    if !g.json {
        say_found(g);
    }
    if g.json {
        let rows: Vec<NodeRow> = p
            .nodes
            .iter()
            .map(|(n, u)| NodeRow {
                name: n,
                url: shown(u),
                current: Some(n.as_str()) == current,
            })
            .collect();
        output::print_json(&rows)?;
        return Ok(());
    }
    if p.nodes.is_empty() {
        g.ui().note(format_args!(
            "no named nodes (in {}); `calimcp node add NAME URL` names one",
            config_dir()?.display()
        ));
        return Ok(());
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
    Ok(())
}
