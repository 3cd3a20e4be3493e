//! What the server needs from a Calimero node, as a trait: the real
//! [`crate::node::Client`] implements it (through the same catalog and context
//! functions `calimcp call` uses), and tests can stand in for it.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use std::collections::HashSet;

use crate::abi::App;
use crate::catalog::context::Target;
use crate::catalog::{self, Catalog};
use crate::error::{Code, Error, Result};
use crate::mapping::{Tool, ToolOptions};
use crate::node::Client;
use crate::node::events::{Item, Subscription};

/// A boxed future borrowing the backend.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The node's apps whose ABI could be read, and the others with the reason.
pub type NodeApps = (Vec<App>, Vec<(App, Error)>);

/// A node the server reads apps from and runs methods on.
pub trait Backend: Send + Sync + 'static {
    /// The node URL, for messages (never with credentials or a query).
    fn url(&self) -> String;

    /// The node's installed apps, with their ABIs.
    fn apps(&self) -> BoxFuture<'_, Result<NodeApps>>;

    /// Drops what the backend keeps of the node's listings, so the next
    /// check asks the node again (every re-read of the node's apps).
    fn forget(&self) {}

    /// The node's apps, without reading the ABIs of the packages in `skip`
    /// (those a local app shadows; see [`catalog::node::load_except`]).
    fn apps_except<'a>(&'a self, _skip: &'a HashSet<String>) -> BoxFuture<'a, Result<NodeApps>> {
        self.apps()
    }

    /// The context a call of `app` runs in: `explicit` (an id or an alias),
    /// else `pinned`, else the app's only context; otherwise an error listing
    /// them. Checked to run the app ([`catalog::context::resolve_context`]).
    fn target<'a>(
        &'a self,
        app: &'a App,
        service: Option<&'a str>,
        explicit: Option<&'a str>,
        pinned: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Target>>;

    /// `tool` as the version `target` runs has it ([`catalog::version`]);
    /// `None` when the tool's own ABI is that version's.
    fn tool_for_target<'a>(
        &'a self,
        _catalog: &'a Catalog,
        _tool: &'a Tool,
        _target: &'a Target,
        _opts: &'a ToolOptions,
    ) -> BoxFuture<'a, Result<Option<(Catalog, Tool)>>> {
        Box::pin(async { Ok(None) })
    }

    /// The contexts of `app` with their aliases and versions
    /// ([`catalog::context::context_rows`]); none where the node cannot say.
    fn contexts<'a>(
        &'a self,
        _app: &'a App,
        _service: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Vec<Value>>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    /// The ids of the contexts of `apps` (every version of each), whose
    /// version changes the server follows; none where the node cannot say.
    fn context_ids<'a>(&'a self, _apps: &'a [App]) -> BoxFuture<'a, Result<Vec<String>>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    /// Runs `method` in `context` with `args_json`; the method's output.
    fn execute<'a>(
        &'a self,
        context: &'a str,
        method: &'a str,
        args_json: &'a Value,
    ) -> BoxFuture<'a, Result<Value>>;

    /// A failed call's error, with what more the node can tell about it
    /// (the app's contexts, when the context was not usable).
    fn explain<'a>(
        &'a self,
        _app: &'a App,
        _service: Option<&'a str>,
        _context: &'a str,
        e: Error,
    ) -> BoxFuture<'a, Error> {
        Box::pin(async move { e })
    }

    /// Subscribes to the events of `contexts`; returns once the node has
    /// accepted the subscription.
    fn subscribe<'a>(&'a self, contexts: &'a [String]) -> BoxFuture<'a, Result<Box<dyn Events>>>;

    /// [`Backend::subscribe`] for following version changes: nothing is
    /// asked about the contexts beyond the subscription.
    fn subscribe_only<'a>(
        &'a self,
        contexts: &'a [String],
    ) -> BoxFuture<'a, Result<Box<dyn Events>>> {
        self.subscribe(contexts)
    }

    /// Waits until `context` (an id or alias) is initialized on the node
    /// ([`catalog::wait`]); the context's id and how the wait ended.
    fn wait_initialized<'a>(
        &'a self,
        _context: &'a str,
        _every: std::time::Duration,
        _within: std::time::Duration,
    ) -> BoxFuture<'a, Result<(String, catalog::wait::Waited)>> {
        Box::pin(async {
            Err(Error::input(
                Code::Usage,
                "this node cannot be asked whether a context is initialized",
            ))
        })
    }
}

/// An open event subscription.
pub trait Events: Send + 'static {
    /// The next event (or a reconnection notice); an error ends the stream.
    fn next(&mut self) -> BoxFuture<'_, Result<Item>>;
}

impl Events for Subscription {
    fn next(&mut self) -> BoxFuture<'_, Result<Item>> {
        Box::pin(Subscription::next(self))
    }
}

impl Backend for Client {
    fn url(&self) -> String {
        Client::url(self).to_string()
    }

    fn apps(&self) -> BoxFuture<'_, Result<NodeApps>> {
        Box::pin(catalog::node::load(self))
    }

    fn forget(&self) {
        Client::forget(self)
    }

    fn apps_except<'a>(&'a self, skip: &'a HashSet<String>) -> BoxFuture<'a, Result<NodeApps>> {
        Box::pin(catalog::node::load_except(self, skip))
    }

    fn target<'a>(
        &'a self,
        app: &'a App,
        service: Option<&'a str>,
        explicit: Option<&'a str>,
        pinned: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Target>> {
        Box::pin(async move {
            // No `default` alias fallback: an agent must say which context.
            catalog::context::resolve_context(self, app, service, explicit, pinned, false)
                .await
                .map_err(for_agents)
        })
    }

    fn contexts<'a>(
        &'a self,
        app: &'a App,
        service: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Vec<Value>>> {
        Box::pin(async move {
            let aliases = self.known_context_aliases().await;
            catalog::context::context_rows(self, app, service, &aliases).await
        })
    }

    fn context_ids<'a>(&'a self, apps: &'a [App]) -> BoxFuture<'a, Result<Vec<String>>> {
        Box::pin(catalog::context::contexts_of_apps(self, apps))
    }

    fn tool_for_target<'a>(
        &'a self,
        catalog: &'a Catalog,
        tool: &'a Tool,
        target: &'a Target,
        opts: &'a ToolOptions,
    ) -> BoxFuture<'a, Result<Option<(Catalog, Tool)>>> {
        Box::pin(catalog::version::tool_for_target(
            self, catalog, tool, target, opts,
        ))
    }

    fn execute<'a>(
        &'a self,
        context: &'a str,
        method: &'a str,
        args_json: &'a Value,
    ) -> BoxFuture<'a, Result<Value>> {
        Box::pin(Client::execute(self, context, method, args_json, None))
    }

    fn explain<'a>(
        &'a self,
        app: &'a App,
        service: Option<&'a str>,
        context: &'a str,
        e: Error,
    ) -> BoxFuture<'a, Error> {
        Box::pin(async move {
            for_agents(
                catalog::context::explain_context_error(self, app, service, context, e).await,
            )
        })
    }

    fn subscribe<'a>(&'a self, contexts: &'a [String]) -> BoxFuture<'a, Result<Box<dyn Events>>> {
        Box::pin(async move {
            let sub = Client::subscribe(self, contexts).await?;
            Ok(Box::new(sub) as Box<dyn Events>)
        })
    }

    fn subscribe_only<'a>(
        &'a self,
        contexts: &'a [String],
    ) -> BoxFuture<'a, Result<Box<dyn Events>>> {
        Box::pin(async move {
            let sub = Client::subscribe_only(self, contexts).await?;
            Ok(Box::new(sub) as Box<dyn Events>)
        })
    }

    fn wait_initialized<'a>(
        &'a self,
        context: &'a str,
        every: std::time::Duration,
        within: std::time::Duration,
    ) -> BoxFuture<'a, Result<(String, catalog::wait::Waited)>> {
        Box::pin(async move {
            let info = catalog::wait::find_context(self, context).await?;
            let waited =
                catalog::wait::until_initialized(self, &info, every, within, &mut |_, _| {})
                    .await?;
            Ok((self.node_id(&info.id), waited))
        })
    }
}

/// The context errors speak of CLI flags; an agent chooses with `_context`
/// or `select_app` instead.
fn for_agents(mut e: Error) -> Error {
    if e.code == Code::UnknownContext || e.code == Code::ForeignContext {
        e.hint = Some("pass one of them as `_context`, or pin one with select_app".into());
    }
    if e.code == Code::AmbiguousContext {
        e.message = e
            .message
            .replace("pass --context with one of", "pass `_context` with one of");
        e.hint = Some("or call select_app with `context` to pin one for this session".into());
    }
    e
}
