//! The node flags every subcommand shares, the environment they read, and
//! the one place the offline commands decide whether to ask the node.
//!
//! When the node is asked: `call` and `use` always need it (except a dry run
//! of a local tool with a context id); `schema`, `describe`, `tools` and
//! `apps` only when local apps cannot answer — a name no local app has, or no
//! APP at all for `tools` and `apps` (then both are listed). `--offline`
//! (CALIMCP_OFFLINE) never asks. A node that was not named (no --node, no
//! CALIMERO_NODE_URL) and does not answer at the default address is treated
//! as no node: local results stand, and local errors keep their exit code.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::GlobalArgs;
use crate::catalog::{self, Catalog};
use crate::error::{Error, ErrorKind, Result};
use crate::node::{self, Client, NodeOptions};

/// `--node`, `--timeout`, `--token`, `-v`, `--offline`.
#[derive(Debug, Clone, Args)]
pub struct NodeArgs {
    /// The node's URL; a base path is kept [default: http://127.0.0.1:2528]
    #[arg(
        long = "node",
        visible_alias = "api",
        global = true,
        env = "CALIMERO_NODE_URL",
        hide_env_values = true,
        value_name = "URL",
        help_heading = "Node options"
    )]
    pub url: Option<String>,
    /// Bound on every request to the node, in seconds
    #[arg(long, global = true, default_value = "30", value_parser = parse_timeout, value_name = "SECS", help_heading = "Node options")]
    pub timeout: Duration,
    /// Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)
    #[arg(
        long,
        global = true,
        env = "CALIMERO_AUTH_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN",
        help_heading = "Node options"
    )]
    pub token: Option<String>,
    /// Print each request to the node and its response on stderr (secrets masked)
    #[arg(long, short = 'v', global = true, help_heading = "Node options")]
    pub verbose: bool,
    /// Never contact the node; use local apps only
    #[arg(
        long,
        global = true,
        env = "CALIMCP_OFFLINE",
        value_parser = clap::builder::FalseyValueParser::new(),
        help_heading = "Node options"
    )]
    pub offline: bool,
}

fn parse_timeout(s: &str) -> std::result::Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(secs > 0.0 && secs <= 86_400.0) {
        return Err("must be more than 0 and at most 86400 seconds".into());
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A variable's value; empty counts as unset.
fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// A size limit from the environment (bytes, or with K, M, G); unset or empty: `default`.
pub fn size_env(name: &str, default: u64) -> Result<u64> {
    match env(name) {
        None => Ok(default),
        Some(v) => node::parse_size(&v).ok_or_else(|| {
            Error::input(
                "invalid_env",
                format!("{name}={}: not a size", crate::text::sanitize_line(&v)),
            )
            .with_hint(format!(
                "give a positive number of bytes, optionally with K, M or G (e.g. {name}=64M)"
            ))
        }),
    }
}

/// Where tokens, cached ABIs and pinned contexts live: CALIMCP_STATE_DIR, else
/// $XDG_STATE_HOME/calimcp, else ~/.local/state/calimcp.
pub fn state_dir() -> PathBuf {
    if let Some(dir) = env("CALIMCP_STATE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = env("XDG_STATE_HOME").filter(|d| PathBuf::from(d).is_absolute()) {
        return PathBuf::from(dir).join("calimcp");
    }
    match env("HOME") {
        Some(home) => PathBuf::from(home).join(".local/state/calimcp"),
        None => std::env::temp_dir().join("calimcp-state"),
    }
}

impl NodeArgs {
    /// Whether a node was named (flag or CALIMERO_NODE_URL) rather than assumed.
    pub fn explicit(&self) -> bool {
        self.url.is_some()
    }

    /// The node URL as given, or the default.
    pub fn url(&self) -> &str {
        self.url.as_deref().unwrap_or(node::DEFAULT_URL)
    }

    /// The client options: these flags plus CALIMERO_USERNAME,
    /// CALIMERO_PASSWORD or CALIMERO_PASSWORD_FILE, CALIMERO_REFRESH_TOKEN and
    /// the state directory.
    pub fn options(&self) -> Result<NodeOptions> {
        let username = env("CALIMERO_USERNAME");
        let password = match (&username, env("CALIMERO_PASSWORD")) {
            (None, _) => None,
            (Some(_), Some(p)) => Some(p),
            (Some(_), None) => match env("CALIMERO_PASSWORD_FILE") {
                Some(file) => Some(
                    std::fs::read_to_string(&file)
                        .map_err(|e| {
                            Error::input(
                                "unreadable",
                                format!("cannot read CALIMERO_PASSWORD_FILE {file}: {e}"),
                            )
                        })?
                        .trim()
                        .to_string(),
                ),
                None => None,
            },
        };
        Ok(NodeOptions {
            url: self.url().to_string(),
            timeout: self.timeout,
            token: self.token.clone().filter(|t| !t.trim().is_empty()),
            refresh_token: env("CALIMERO_REFRESH_TOKEN"),
            username,
            password,
            state_dir: state_dir(),
            verbose: self.verbose,
            max_response: size_env("CALIMCP_MAX_RESPONSE", node::DEFAULT_MAX_RESPONSE)?,
            max_blob: size_env("CALIMCP_MAX_BLOB", node::DEFAULT_MAX_BLOB)?,
            identity: None,
        })
    }

    pub fn client(&self) -> Result<Client> {
        Client::new(self.options()?)
    }
}

/// A runtime for the node client (one thread: the CLI waits on one thing at a time).
pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::internal(format!("cannot start the async runtime: {e}")))
}

/// Whether an error only says that an unnamed default node is not there.
pub fn default_node_absent(g: &GlobalArgs, e: &Error) -> bool {
    !g.node.explicit() && e.kind == ErrorKind::Unreachable
}

/// The error for a name neither the local apps nor the node could answer,
/// because the node could not be asked.
pub fn both_tried(g: &GlobalArgs, what: &str, e: Error) -> Error {
    let local = if g.apps.is_empty() {
        "no local apps (--apps)".to_string()
    } else {
        let dirs: Vec<String> = g.apps.iter().map(|d| d.display().to_string()).collect();
        format!("not among the local apps ({})", dirs.join(", "))
    };
    Error {
        message: format!(
            "{what}: {local}, and the node could not be asked: {}",
            e.message
        ),
        ..e
    }
}

/// For the offline commands: adds the node's apps to `catalog` when local
/// apps cannot answer (`names` has one no local app has, or is empty).
pub fn add_node_apps(g: &GlobalArgs, catalog: &mut Catalog, names: &[&str]) -> Result<()> {
    if g.node.offline {
        return Ok(());
    }
    let unknown: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| matches!(catalog.resolve(n), Err(e) if e.code == "unknown_app"))
        .collect();
    if !names.is_empty() && unknown.is_empty() {
        return Ok(());
    }
    let client = g.node.client()?;
    let local = catalog.packages();
    match runtime()?.block_on(catalog::node::load_except(&client, &local)) {
        Ok((apps, unusable)) => {
            if names.is_empty() {
                for (_, e) in &unusable {
                    g.ui().warn(format_args!("left out: {}", e.message));
                }
            }
            let listed = apps.len() + unusable.len();
            let left_out: Vec<(String, String)> = unusable
                .iter()
                .map(|(a, e)| {
                    (
                        crate::text::sanitize_line(a.package_or_id()),
                        e.message.clone(),
                    )
                })
                .collect();
            *catalog = std::mem::take(catalog).with_node_apps(apps, unusable, &g.tool_options());
            if names.is_empty() && catalog.apps.is_empty() {
                return Err(no_apps_on_node(g, client.url(), listed, &left_out));
            }
            Ok(())
        }
        Err(e) if default_node_absent(g, &e) => {
            if let Some(name) = unknown.first() {
                // Behave as offline, but say the default node was tried too.
                let local = catalog.resolve(name).err().unwrap_or(e);
                let hint = local.hint.clone().unwrap_or_default();
                let sep = if hint.is_empty() { "" } else { "; " };
                return Err(local.with_hint(format!(
                    "{hint}{sep}no node answered at {} either (pass --node URL)",
                    client.url()
                )));
            }
            if g.node.verbose {
                g.ui()
                    .warn(format_args!("no node at {}: {}", client.url(), e.message));
            }
            Ok(())
        }
        Err(e) => {
            if let Some(name) = unknown.first() {
                return Err(both_tried(
                    g,
                    &format!("no app named `{}`", crate::text::sanitize_line(name)),
                    e,
                ));
            }
            if catalog.apps.is_empty() {
                return Err(both_tried(g, "no apps to list", e));
            }
            g.ui()
                .warn(format_args!("the node's apps are left out: {}", e.message));
            Ok(())
        }
    }
}

/// Nothing to list although the node answered: say what it has and why
/// nothing of it can be used.
fn no_apps_on_node(
    g: &GlobalArgs,
    url: &str,
    listed: usize,
    left_out: &[(String, String)],
) -> Error {
    let dirs = if g.apps.is_empty() {
        "no --apps directory was given"
    } else {
        "the --apps directories hold none"
    };
    if listed == 0 {
        return Error::input(
            "no_apps",
            format!("no apps: the node at {url} has none installed, and {dirs}"),
        )
        .with_hint("install one on the node (meroctl app install), or pass --apps DIR with app bundles, .mpk files, abi.json manifests or .wasm modules");
    }
    let (count, them) = match left_out.len() {
        1 => ("1 app".to_string(), "it was left out"),
        n => (format!("{n} apps"), "all were left out"),
    };
    let names: Vec<&str> = left_out.iter().map(|(n, _)| n.as_str()).collect();
    // The `left out` warnings say why; with --quiet they are not shown, so the error does.
    let why = if g.quiet {
        let reasons: Vec<&str> = left_out.iter().map(|(_, m)| m.as_str()).collect();
        format!(": {}", reasons.join("; "))
    } else {
        " (the warnings above say why)".to_string()
    };
    Error::input(
        "no_apps",
        format!(
            "no usable apps: the node at {url} has {count} ({}), and {them}{why}; {dirs}",
            names.join(", ")
        ),
    )
    .with_hint("pass each app's ABI file as APP or with --apps DIR (abi.json, .wasm or .mpk), or rebuild the app with a current calimero-sdk (cargo mero build) and install it again")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_timeout("30").unwrap(), Duration::from_secs(30));
        assert_eq!(parse_timeout("0.5").unwrap(), Duration::from_millis(500));
        assert!(parse_timeout("0").is_err());
        assert!(parse_timeout("-1").is_err());
        assert!(parse_timeout("NaN").is_err());
        assert!(parse_timeout("soon").is_err());
    }
}
