//! `calimcp auth token|status`: the access token for scripts, and who is
//! logged in where.

use clap::{Args, Subcommand};
use comfy_table::{Table, presets};
use schemars::JsonSchema;
use serde::Serialize;

use super::node::{profiles, state_dir};
use super::{GlobalArgs, output};
use calimcp_catalog::accounts::{self as node, auth};
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::text::sanitize_line;

/// Print the node's access token for scripts, or list the cached logins.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  curl -H \"Authorization: Bearer $(calimcp auth token --node local)\" …
  calimcp auth status")]
pub(crate) struct AuthArgs {
    #[command(subcommand)]
    pub action: AuthAction,
}

#[derive(Debug, Subcommand)]
pub(crate) enum AuthAction {
    /// Print the access token of the node's login (refreshed when it has expired) and nothing else; with --json, {"token": …}
    ///
    /// One cheap request to the node proves the token (and refreshes it when
    /// the node says it has expired). Not logged in: exit 3.
    Token,
    /// List the cached logins: node, its names, user (no request, no token shown)
    Status,
}

pub(crate) fn run(g: &GlobalArgs, args: AuthArgs) -> Result<()> {
    match args.action {
        AuthAction::Token => token(g),
        AuthAction::Status => status(g),
    }
}

fn token(g: &GlobalArgs) -> Result<()> {
    let session = g.session()?;
    session.node("checking the token")?;
    let url = session.url()?;
    let state = g.node.options()?.state_dir;
    if let Some(t) = session.block_on(session.checked_token())?? {
        if g.json {
            output::print_json(&Token { token: &t })?;
        } else {
            output::print(&format!("{t}\n"))?;
        }
        return Ok(());
    }
    let users = auth::cached_users(&state, &url)?;
    let err = if users.is_empty()
        && let Some(dead) = session.dead_login()
    {
        dead
    } else if users.len() > 1 {
        let users: Vec<String> = users.iter().map(|u| sanitize_line(u)).collect();
        Error::new(
            ErrorKind::Auth,
            Code::NotLoggedIn,
            format!(
                "calimcp has logins of several users for {}: {}",
                url,
                users.join(", ")
            ),
        )
        .with_hint(format!(
            "name the user: CALIMERO_USERNAME={} calimcp auth token",
            users[0]
        ))
    } else {
        Error::new(
            ErrorKind::Auth,
            Code::NotLoggedIn,
            format!("not logged in to {url}"),
        )
        .with_hint(match &g.node.name {
            Some(n) => format!("calimcp login --node {n}"),
            None => format!("calimcp login --node {url}"),
        })
    };
    Err(err)
}

/// A cached login, as `auth status --json` lists it (no token is shown).
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct LoginRow {
    /// The node's URL.
    pub node: String,
    /// The names `calimcp node add` gave that URL.
    pub names: Vec<String>,
    /// The user logged in, when the login says.
    pub username: Option<String>,
    /// Whether a refresh token is cached beside the access token.
    pub refreshable: bool,
    /// Whether it is the current node's login.
    pub current: bool,
}

fn status(g: &GlobalArgs) -> Result<()> {
    // A broken profile file does not hide the logins.
    let profiles = profiles().unwrap_or_default();
    let current = g
        .node
        .url
        .as_deref()
        .and_then(|u| node::normalize_url(u).ok())
        .map(|(_, shown)| shown);
    let rows: Vec<LoginRow> = auth::cached_logins(&state_dir()?)?
        .into_iter()
        .map(|l| LoginRow {
            names: profiles
                .names_of(&l.node)
                .into_iter()
                .map(str::to_string)
                .collect(),
            username: l.username,
            refreshable: l.tokens.refresh.is_some(),
            current: current.as_deref() == Some(l.node.as_str()),
            node: l.node,
        })
        .collect();
    if g.json {
        output::print_json(&rows)?;
        return Ok(());
    }
    if rows.is_empty() {
        g.ui().note("no cached logins; `calimcp login` logs in");
        return Ok(());
    }
    let mut table = Table::new();
    table
        .load_style(presets::NOTHING)
        .set_header(vec!["", "NODE", "NAMES", "USER", "TOKENS"]);
    for r in &rows {
        table.add_row(vec![
            if r.current { "*" } else { "" }.to_string(),
            sanitize_line(&r.node),
            if r.names.is_empty() {
                "-".to_string()
            } else {
                let names: Vec<String> = r.names.iter().map(|n| sanitize_line(n)).collect();
                names.join(", ")
            },
            sanitize_line(r.username.as_deref().unwrap_or("-")),
            if r.refreshable {
                "access + refresh"
            } else {
                "access"
            }
            .to_string(),
        ]);
    }
    output::print(&output::table_text(&table))?;
    Ok(())
}

/// What `auth token --json` prints.
#[derive(Serialize, JsonSchema)]
pub(crate) struct Token<'a> {
    /// The node's access token, proven by one request (refreshed when it had expired).
    pub token: &'a str,
}
