//! What the server's background work needs from a Calimero node, as a
//! trait: the session ([`Session`], whose node client calls use too)
//! implements it here, beside itself, and tests can stand in for it. A call
//! goes through the engine ([`crate::call`]) with that session.

use std::future::Future;
use std::pin::Pin;

use std::collections::HashSet;

use crate::events::{Item, Subscription};
use crate::session::Session;
use calimcp_core::abi::App;
use calimcp_core::error::{Error, Result};

/// A boxed future borrowing the backend.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The node's apps whose ABI could be read, and the others with the reason.
pub type NodeApps = (Vec<App>, Vec<(App, Error)>);

/// What the server's background work needs from the node: its apps (the
/// live catalog's re-reads) and its event streams (the event hub, the
/// version follower). The server's [`Session`] implements it with its node
/// client, and tests stand in for it. Calls, contexts and waits are not
/// here: they go through the engine's one pipeline ([`crate::call`]) with
/// the same session. No method has a default body, so no implementation can
/// skip a step by leaving one out.
pub trait Backend: Send + Sync + 'static {
    /// The node URL, for messages (never with credentials or a query).
    fn url(&self) -> String;

    /// The node's installed apps, with their ABIs.
    fn apps(&self) -> BoxFuture<'_, Result<NodeApps>>;

    /// Drops what the backend keeps of the node's listings, so the next
    /// check asks the node again (every re-read of the node's apps).
    fn forget(&self);

    /// The node's apps, without reading the ABIs of the packages in `skip`
    /// (those a local app shadows; see [`crate::node::load_except`]).
    fn apps_except<'a>(&'a self, skip: &'a HashSet<String>) -> BoxFuture<'a, Result<NodeApps>>;

    /// The ids of the contexts of `apps` (every version of each), whose
    /// version changes the server follows; none where the node cannot say.
    fn context_ids<'a>(&'a self, apps: &'a [App]) -> BoxFuture<'a, Result<Vec<String>>>;

    /// Subscribes to the events of `contexts`; returns once the node has
    /// accepted the subscription.
    fn subscribe<'a>(&'a self, contexts: &'a [String]) -> BoxFuture<'a, Result<Box<dyn Events>>>;

    /// [`Backend::subscribe`] for following version changes: nothing is
    /// asked about the contexts beyond the subscription.
    fn subscribe_only<'a>(
        &'a self,
        contexts: &'a [String],
    ) -> BoxFuture<'a, Result<Box<dyn Events>>>;

    /// [`Backend::subscribe`] with groups too (their membership and
    /// migration events; refused by a node before merod 0.11.0-rc.18).
    fn subscribe_groups<'a>(
        &'a self,
        contexts: &'a [String],
        groups: &'a [String],
    ) -> BoxFuture<'a, Result<Box<dyn Events>>>;
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

impl Backend for Session {
    fn url(&self) -> String {
        match self.client() {
            Ok(c) => c.url().to_string(),
            Err(_) => self.settings.node_url.clone(),
        }
    }

    fn apps(&self) -> BoxFuture<'_, Result<NodeApps>> {
        Box::pin(self.node_apps())
    }

    fn forget(&self) {
        if let Ok(c) = self.client() {
            c.forget();
        }
    }

    fn apps_except<'a>(&'a self, skip: &'a HashSet<String>) -> BoxFuture<'a, Result<NodeApps>> {
        Box::pin(async move { crate::node::load_except(self.client()?, skip).await })
    }

    fn context_ids<'a>(&'a self, apps: &'a [App]) -> BoxFuture<'a, Result<Vec<String>>> {
        Box::pin(async move { crate::context::contexts_of_apps(self.client()?, apps).await })
    }

    fn subscribe<'a>(&'a self, contexts: &'a [String]) -> BoxFuture<'a, Result<Box<dyn Events>>> {
        Box::pin(async move {
            let sub = Session::subscribe(self, contexts).await?;
            Ok(Box::new(sub) as Box<dyn Events>)
        })
    }

    fn subscribe_only<'a>(
        &'a self,
        contexts: &'a [String],
    ) -> BoxFuture<'a, Result<Box<dyn Events>>> {
        Box::pin(async move {
            let sub = Session::subscribe_only(self, contexts).await?;
            Ok(Box::new(sub) as Box<dyn Events>)
        })
    }

    fn subscribe_groups<'a>(
        &'a self,
        contexts: &'a [String],
        groups: &'a [String],
    ) -> BoxFuture<'a, Result<Box<dyn Events>>> {
        Box::pin(async move {
            let sub = Session::subscribe_groups(self, contexts, groups).await?;
            Ok(Box::new(sub) as Box<dyn Events>)
        })
    }
}
