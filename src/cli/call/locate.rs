//! The context a call runs in (the tool itself is found by the session:
//! [`crate::catalog::session::Session::locate`]).

use super::*;
use crate::error::Code;

/// The context a call runs in and the URL it goes to. A dry run with a
/// context id needs no node at all.
pub(super) fn find_context(
    session: &Session,
    flags: &CallFlags,
    app: &App,
    service: Option<&str>,
    explicit: Option<&str>,
) -> Result<Found> {
    match explicit {
        Some(id) if flags.dry_run && looks_like_context_id(id) => {
            let (_, shown) = crate::node::normalize_url(session.node_url()?)?;
            Ok(Found {
                url: format!("{shown}/jsonrpc"),
                target: None,
                context: id.to_string(),
            })
        }
        _ if session.offline() => Err(Error::input(
            Code::Offline,
            "--offline: this call needs the node (a dry run with --context ID does not)",
        )),
        explicit => {
            let client = session.client()?;
            let pins = pins()?;
            let pinned = pins.get(client.url(), app, service);
            let target = session
                .target(app, service, explicit, pinned, true)
                .map_err(|e| {
                    // A dry run needs the node only to find the context.
                    if flags.dry_run && e.kind == crate::ErrorKind::Unreachable {
                        e.with_hint(
                            "a dry run with a context id (-c ID, 64 hex or base58) needs no node",
                        )
                    } else {
                        e
                    }
                })?;
            Ok(Found {
                url: client.jsonrpc_url(),
                context: target.id.clone(),
                target: Some(target),
            })
        }
    }
}

/// The context a call goes to.
pub(super) struct Found {
    pub context: String,
    pub url: String,
    /// What the node said of the context (none for a dry run without a node).
    pub target: Option<Target>,
}
