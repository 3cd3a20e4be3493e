//! The context a call runs in (the tool itself is found by the session:
//! [`calimcp_catalog::session::Session::locate`]; the context is bound by the
//! engine: [`calimcp_catalog::call::bind`]).

use super::*;
use calimcp_catalog::call::Ask;

/// The context a call runs in and the URL it goes to. A dry run with a
/// context id needs no node at all. With `--retry`, binding is tried again
/// after a retryable error (nothing runs while binding).
pub(super) fn find_context(c: &Call, explicit: Option<&str>) -> Result<Found> {
    let session = c.session;
    if let Some(id) = explicit.filter(|id| c.flags.dry_run && looks_like_context_id(id)) {
        let (_, shown) = calimcp_catalog::accounts::normalize_url(session.node_url()?)?;
        return Ok(Found {
            url: format!("{shown}/jsonrpc"),
            bound: None,
            context: id.to_string(),
        });
    }
    session.node("this call").map_err(|e| {
        e.with_hint("drop --offline (or CALIMCP_OFFLINE), or make it a dry run with --context ID, which needs no node")
    })?;
    let app = c.app();
    let pinned = session.call_pin(explicit, None, app, c.tool.service.as_deref())?;
    let ask = Ask::call(explicit, pinned.as_deref());
    let bound = session.bind_retrying(
        c.catalog,
        c.tool,
        ask,
        c.pace,
        c.flags.retry,
        |e, n, pause| c.retrying(e, n, pause),
    );
    let bound = bound.map_err(|e| {
        // A dry run needs the node only to find the context.
        if c.flags.dry_run && e.kind == calimcp_core::ErrorKind::Unreachable {
            e.with_hint("a dry run with a context id (-c ID, 64 hex or base58) needs no node")
        } else {
            e
        }
    })?;
    Ok(Found {
        url: session.jsonrpc_url()?,
        context: bound.target.id.clone(),
        bound: Some(bound),
    })
}

/// The context a call goes to.
pub(super) struct Found {
    pub context: String,
    pub url: String,
    /// The call bound to its context (none for a dry run without a node).
    pub bound: Option<Bound>,
}
