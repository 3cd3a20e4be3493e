//! `mcp`: the MCP server face (`calimcp serve`).
//!
//! Input: resolved [`Settings`] (apps sources, scope, filter, transport, node).
//! Output: an rmcp server on stdio or Streamable HTTP exposing the fixed tools
//! `describe_app`, `select_app`, `wait_for_events`, `wait_for_context`,
//! `call_until` and `call_many` ([`many`]) plus exactly the tools `calimcp tools --json`
//! prints for the same apps and options, and the apps' ABIs, contexts and
//! guides as resources with completion of their URI templates
//! ([`resources`]; a guide is also shown once per session by `describe_app`
//! and `select_app`, [`guide`]); over
//! HTTP also the apps' reference pages at `/`, and those pages as the MCP
//! App resource `ui://calimcp/reference` (`pages`). The server holds one
//! catalog session ([`calimcp_catalog::session::Session`]) for its life, as a
//! command does for its run: its options, pins, node client and runtime
//! serve every MCP session, and its live view of the node's apps
//! ([`live`]) is read through it. Uses `abi`, `mapping`, `doc` and
//! `catalog`; never `cli`. Nothing but protocol reaches stdout.

mod answer;

mod batch;
pub(crate) mod blobs;
pub(crate) mod events;
pub(crate) mod fixed;
mod guide;
pub(crate) mod http;
pub(crate) mod lifecycle;
pub(crate) mod live;
pub(crate) mod log;
pub(crate) mod many;
mod origins;
pub(crate) mod pages;
pub(crate) mod reread;
pub(crate) mod resources;
pub(crate) mod server;
mod session_table;
pub mod stdio;
pub(crate) mod upgrade;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;

pub use calimcp_catalog::backend::Backend;
use calimcp_catalog::session::Session;
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::mapping::filter::Filter;
use calimcp_core::text::sanitize_line;
pub use http::HttpOptions;
pub use live::Scope;
pub use log::Level as LogLevel;

/// How clients reach the server.
#[derive(Debug, Clone)]
pub(crate) enum Transport {
    Stdio,
    Http(HttpOptions),
}

/// Everything `serve` needs, resolved by the caller.
pub(crate) struct Settings {
    /// The server's session: `--apps`, `--service`, the tool options, the
    /// node (none with `--offline`), the pins, the runtime.
    pub session: Session,
    /// `--app` values that are paths.
    pub app_paths: Vec<PathBuf>,
    /// `--app` values that are names, not paths.
    pub app_names: Vec<String>,
    pub filter: Filter,
    pub transport: Transport,
    /// How often the node's apps are re-read.
    pub refresh: Duration,
    /// How long the first tools/list may wait for the node's apps.
    pub startup_wait: Duration,
    pub log_level: LogLevel,
    /// `--toolsets`: the opt-in toolsets served (lifecycle, blobs).
    pub toolsets: lifecycle::Toolsets,
    /// `--install-from DIR`.
    pub install_from: Option<PathBuf>,
}

/// How long the first tools/list waits for a slow node.
pub(crate) const DEFAULT_STARTUP_WAIT: Duration = Duration::from_secs(2);

/// Loads the local apps and serves until stdin closes (stdio), or SIGTERM or
/// Ctrl-C arrives. Returns the exit code.
pub(crate) fn serve(settings: Settings) -> Result<()> {
    log::set_level(settings.log_level);
    log::forward_rmcp(settings.log_level);
    let mut session = settings.session;
    // One thread drives everything: the work between awaits is small (a
    // schema, a validation), calls still overlap while they wait on the node,
    // and one allocator heap keeps memory flat for huge apps.
    let runtime = session.take_runtime()?;
    let listener = match &settings.transport {
        Transport::Http(opts) => Some(runtime.block_on(http::listen(opts))?),
        Transport::Stdio => None,
    };
    let (catalog, explicit) = session.local(settings.app_paths)?;
    for w in &catalog.skipped {
        log::warn!("{w}");
    }
    for app in &catalog.apps {
        for w in &app.warnings {
            log::warn!("{w}");
        }
    }
    calimcp_core::memory::release_freed_memory();
    let ids: Vec<String> = explicit
        .iter()
        .flatten()
        .map(|&i| catalog.apps[i].id.to_string())
        .collect();
    if session.offline() {
        // Without a node nothing can appear later: a name that matches
        // nothing now is a mistake, as it is for `calimcp tools`.
        for name in &settings.app_names {
            catalog.resolve(name)?;
        }
        if catalog.apps.is_empty() {
            return Err(Error::input(
                Code::NoApps,
                "nothing to serve: no apps, and --offline keeps the node out",
            )
            .with_hint(
                "pass --apps DIR (or set CALIMCP_APPS), or drop --offline to serve the node's apps",
            ));
        }
    } else {
        // The node's client, made now: a bad address is said at the start.
        session.node("serving the node's apps")?;
    }
    let scope = Scope {
        names: settings.app_names.clone(),
        ids,
        service: session.settings.service.clone(),
        filter: settings.filter.clone(),
        listing_budget: session.settings.tools.listing_budget,
        lifecycle: settings.toolsets.lifecycle,
        blobs: settings.toolsets.blobs,
        install_from: settings.install_from.clone(),
    };
    let session = Arc::new(session);
    let result = runtime.block_on(async move {
        let live = live::Live::new(
            session,
            catalog,
            scope,
            settings.refresh,
            settings.startup_wait,
        );
        live.start();
        if let Some(b) = live.backend() {
            log::info!("reading apps from the node at {}", sanitize_line(&b.url()));
        }
        match (&settings.transport, listener) {
            (Transport::Http(opts), Some(listener)) => {
                http::run(live, listener, opts, crate::signals::termination()).await
            }
            _ => serve_stdio(live).await,
        }
    });
    // Node requests still in flight must not hold the exit.
    runtime.shutdown_timeout(Duration::from_millis(200));
    result
}

async fn serve_stdio(live: Arc<live::Live>) -> Result<()> {
    let stop = crate::signals::termination();
    let (transport, flush) = stdio::stdio();
    let tools = live.view().listed.len();
    log::info!("serving {tools} tools and the fixed tools over stdio");
    let session = server::Connection::new(live);
    let run = async move {
        match session.serve(transport).await {
            Ok(running) => {
                let _ = running.waiting().await;
            }
            // The client went away before the handshake: nothing to serve.
            Err(e) => log::info!("no MCP session: {e}"),
        }
    };
    tokio::select! {
        () = run => {
            flush.wait();
        }
        () = stop => {
            log::info!("terminated; exiting");
        }
    }
    Ok(())
}

/// Ends a task when dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}
