//! `calimcp logout`: removes calimcp's cached tokens for a node.

use clap::Args;
use schemars::JsonSchema;
use serde::Serialize;

use super::node::state_dir;
use super::{GlobalArgs, output};
use calimcp_catalog::accounts::{self as node, auth};
use calimcp_core::error::Result;
use calimcp_core::text::sanitize_line;

/// Remove the cached login of the node (of every user, or of --username).
///
/// Only calimcp's own token cache is touched; the node is not asked. The
/// node is --node, else the current node, else CALIMERO_NODE_URL's or merod's default.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp logout --node local
  calimcp logout --username alice")]
pub struct LogoutArgs {
    /// Only this user's login (as `login --username`; `--user` is accepted too)
    #[arg(long = "username", short = 'u', alias = "user", value_name = "USER")]
    pub user: Option<String>,
}

pub fn run(g: &GlobalArgs, args: LogoutArgs) -> Result<()> {
    let (_, shown) = node::normalize_url(g.node.checked_url()?)?;
    let gone = auth::forget(&state_dir()?, &shown, args.user.as_deref())?;
    let users: Vec<String> = gone
        .iter()
        .map(|l| sanitize_line(l.username.as_deref().unwrap_or("(a token without a user)")))
        .collect();
    if g.json {
        output::print_json(&LoggedOut {
            node: &shown,
            logged_out: &users,
        })?;
        return Ok(());
    }
    let text = match (users.is_empty(), &args.user) {
        (true, Some(u)) => format!("{} was not logged in to {shown}", sanitize_line(u)),
        (true, None) => format!("nobody was logged in to {shown}"),
        (false, _) => format!("logged out of {shown}: {}", users.join(", ")),
    };
    output::print(&format!("{text}\n"))?;
    Ok(())
}

/// What `logout --json` prints.
#[derive(Serialize, JsonSchema)]
pub struct LoggedOut<'a> {
    /// The node's URL (without credentials).
    pub node: &'a str,
    /// The users whose cached login was removed (empty when nobody was
    /// logged in); a token cached without a user is `(a token without a user)`.
    pub logged_out: &'a [String],
}
