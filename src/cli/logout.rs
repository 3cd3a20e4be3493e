//! `calimcp logout`: ends the login on the node where the node can, and
//! removes calimcp's cached tokens for it.

use clap::Args;
use schemars::JsonSchema;
use serde::Serialize;

use super::node::state_dir;
use super::{GlobalArgs, output};
use calimcp_catalog::accounts::auth::NodeLogout;
use calimcp_catalog::accounts::{self as node, auth};
use calimcp_core::error::Result;
use calimcp_core::text::sanitize_line;

/// Log out of the node: end the session there, and remove the cached login
/// (of every user, or of --username).
///
/// On merod 0.11.0-rc.83 and later the node ends the session first (`POST
/// /auth/logout` with the login's refresh token: the refresh token is dead
/// at once; the access token, which the node does not keep, runs out within
/// its hour). Older nodes cannot end a session: the refresh token stays
/// valid on the node until it expires (30 days after it was issued, by
/// merod's default), which logout says. A node that refuses or cannot be
/// reached does not keep calimcp's copy: it is removed all the same, and
/// logout says (on stderr) what happened on the node's side; the exit code
/// is 0 once the local copy is gone. With --offline the node is not asked.
/// The node is --node, else the current node, else CALIMERO_NODE_URL's or
/// merod's default.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp logout --node local
  calimcp logout --username alice")]
pub(crate) struct LogoutArgs {
    /// Only this user's login (as `login --username`; `--user` is accepted too)
    #[arg(long = "username", short = 'u', alias = "user", value_name = "USER")]
    pub user: Option<String>,
}

/// What `stays valid` means for a refresh token the node keeps.
const STAYS: &str = "its refresh token stays valid on the node until it expires (30 days after it was issued, by merod's default)";

pub(crate) fn run(g: &GlobalArgs, args: LogoutArgs) -> Result<()> {
    let (_, shown) = node::normalize_url(g.node.checked_url()?)?;
    let state = state_dir()?;
    let user_of = |u: Option<&str>| sanitize_line(u.unwrap_or("(a token without a user)"));
    // The node first, with each login's refresh token; then the local copy.
    let logins: Vec<auth::CachedLogin> = auth::cached_logins(&state)?
        .into_iter()
        .filter(|l| l.node == shown)
        .filter(|l| args.user.is_none() || l.username == args.user)
        .collect();
    let mut outcomes: Vec<(String, NodeLogout)> = Vec::new();
    if !logins.is_empty() {
        let session = g.session()?;
        let rt = session.runtime()?;
        for l in &logins {
            let outcome = rt.block_on(session.end_login(&l.tokens));
            outcomes.push((user_of(l.username.as_deref()), outcome));
        }
    }
    let gone = auth::forget(&state, &shown, args.user.as_deref())?;
    let users: Vec<String> = gone
        .iter()
        .map(|l| user_of(l.username.as_deref()))
        .collect();
    let on_node: Vec<OnNode> = outcomes.iter().map(OnNode::of).collect();
    // What happened on the node's side, in words, for each user.
    let ui = g.ui();
    let mut said = Vec::new();
    for (user, o) in &outcomes {
        match o {
            NodeLogout::Ended => said.push(format!("{user}: the node ended the session")),
            NodeLogout::Unsupported => said.push(format!(
                "{user}: this node (merod before 0.11.0-rc.83) cannot end a session, so {STAYS}"
            )),
            NodeLogout::NotAsked => said.push(format!("{user}: --offline, the node was not asked, so {STAYS}")),
            NodeLogout::NoRefreshToken => {}
            NodeLogout::Refused(why) => ui.warn(format_args!(
                "the node refused to end the session of {user} ({}); calimcp's copy is removed, but {STAYS}",
                sanitize_line(why)
            )),
            NodeLogout::Unreachable(why) => ui.warn(format_args!(
                "the session of {user} was not ended on the node, which could not be reached ({}); calimcp's copy is removed, but {STAYS}",
                sanitize_line(why)
            )),
        }
    }
    if g.json {
        output::print_json(&LoggedOut {
            node: &shown,
            logged_out: &users,
            on_node: &on_node,
        })?;
        return Ok(());
    }
    let mut text = match (users.is_empty(), &args.user) {
        (true, Some(u)) => format!("{} was not logged in to {shown}", sanitize_line(u)),
        (true, None) => format!("nobody was logged in to {shown}"),
        (false, _) => format!("logged out of {shown}: {}", users.join(", ")),
    };
    if !said.is_empty() {
        text = format!("{text} ({})", said.join("; "));
    }
    output::print(&format!("{text}\n"))?;
    Ok(())
}

impl OnNode {
    /// The `--json` row of what happened to `user`'s session on the node.
    fn of((user, o): &(String, NodeLogout)) -> OnNode {
        OnNode {
            user: user.clone(),
            session: match o {
                NodeLogout::Ended => "ended",
                NodeLogout::Unsupported => "not_ended_unsupported",
                NodeLogout::Refused(_) => "not_ended_refused",
                NodeLogout::Unreachable(_) => "not_ended_unreachable",
                NodeLogout::NoRefreshToken => "no_session",
                NodeLogout::NotAsked => "not_asked",
            },
            detail: match o {
                NodeLogout::Refused(w) | NodeLogout::Unreachable(w) => Some(sanitize_line(w)),
                _ => None,
            },
        }
    }
}

/// What `logout --json` prints.
#[derive(Serialize, JsonSchema)]
pub(crate) struct LoggedOut<'a> {
    /// The node's URL (without credentials).
    pub node: &'a str,
    /// The users whose cached login was removed (empty when nobody was
    /// logged in); a token cached without a user is `(a token without a user)`.
    pub logged_out: &'a [String],
    /// For each login that was live, what the node made of ending it.
    pub on_node: &'a [OnNode],
}

/// What the node made of ending one login's session.
#[derive(Serialize, JsonSchema)]
pub(crate) struct OnNode {
    /// The user (as in `logged_out`).
    pub user: String,
    /// `ended` (the node retired the refresh token: merod 0.11.0-rc.83 and
    /// later), `not_ended_unsupported` (an older node: the refresh token stays
    /// valid until it expires), `not_ended_refused` or `not_ended_unreachable`
    /// (`detail` says why; the refresh token stays valid until it expires),
    /// `no_session` (a token without a refresh token: nothing to end),
    /// `not_asked` (`--offline`).
    pub session: &'static str,
    /// The node's refusal, or why it could not be reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}
