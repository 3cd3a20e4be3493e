//! `calimcp wait CONTEXT [--within SECS] [--every SECS]`: until the node has
//! the context's state (a node that joined a context gets it at its first
//! sync; until then every call answers `Uninitialized`). The checks and the
//! node's account of a context that stays uninitialized are
//! [`calimcp_catalog::wait`]'s; the context is bound by the session's bind
//! step within the wait's deadline ([`calimcp_catalog::session::Session::until_initialized`]).

use std::time::Duration;

use clap::Args;

use super::args::parse_secs;
use super::{GlobalArgs, output};
use calimcp_catalog::wait::{ContextReady, Pace, Waited};
use calimcp_core::error::Result;
use calimcp_core::text::sanitize_line;

/// How long `wait` waits when `--within` is not given.
const DEFAULT_WITHIN: Duration = Duration::from_secs(60);
/// How long `wait` waits between checks when `--every` is not given.
const DEFAULT_EVERY: Duration = Duration::from_secs(1);

/// Wait until a context is initialized on the node (exit 124 if it is not in time).
///
/// A node that joined a context has no state for it until its first sync
/// with a peer; calls answer `Uninitialized` until then. This checks the
/// root hash the node lists for the context (not the zero hash: initialized)
/// every --every seconds, for at most --within seconds. When the state does
/// not come, the node's own account says why (no peers, a failed sync, …)
/// and the exit code is 124.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp wait my-alias && calimcp call kv_store_get --key a -c my-alias
  calimcp wait my-alias --within 300 -v   # each check on stderr

Exit codes: 0 initialized, 2 unknown context, 4 the node is unreachable,
5 the node has no such context, 124 not initialized within --within.")]
pub(crate) struct WaitArgs {
    /// The context: an id (64 hex or base58) or an alias
    #[arg(value_name = "CONTEXT")]
    pub context: String,
    /// Give up after SECS (default 60), exit 124
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub within: Option<Duration>,
    /// Seconds between checks (default 1)
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub every: Option<Duration>,
}

pub(crate) fn run(g: &GlobalArgs, args: WaitArgs) -> Result<()> {
    let session = g.session()?;
    let what = "waiting for a context";
    session.node(what)?;
    let pace = Pace::new(
        args.every.unwrap_or(DEFAULT_EVERY),
        args.within.unwrap_or(DEFAULT_WITHIN),
    );
    let ui = g.ui();
    let verbose = g.node.verbose;
    let mut on_check = |n: u64, answer: &Result<Option<bool>>| {
        if verbose {
            let said = match answer {
                Ok(Some(true)) => "initialized".to_string(),
                Ok(Some(false)) => "not initialized yet".to_string(),
                Ok(None) => "the node does not say".to_string(),
                Err(e) => format!("{} (trying again)", e.message),
            };
            ui.note(format_args!("check {n}: {said}"));
        }
    };
    let (info, waited) = session.block_on(session.until_initialized(
        what,
        &args.context,
        &pace,
        &mut on_check,
    ))??;
    let id = match info {
        Some(i) => session.node_id(&i.id)?,
        None => String::new(),
    };
    match waited {
        Waited::Initialized { checks } => {
            if g.json {
                output::print_json_compact(&ContextReady::new(id.clone(), checks))?;
            } else {
                ui.note(format_args!(
                    "context {} is initialized on {}",
                    sanitize_line(&id),
                    session.url()?
                ));
            }
            Ok(())
        }
        // Exit 124 (the error's kind): the state did not come within --within.
        Waited::TimedOut { why } => Err(why),
    }
}
