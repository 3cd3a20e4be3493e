//! Event subscriptions, for `watch`, `call --wait-event`, MCP
//! `wait_for_events` and the server's re-read: [`Session::subscribe`] opens
//! the node's stream for some contexts (returning once the node accepted
//! it), [`Session::subscribe_only`] does the same without asking anything
//! else about them (following version changes). The stream's items
//! ([`Item`]: an event or a reconnection notice) and the node's event
//! ([`NodeEvent`]) are the node crate's values, handed through as they are.

use calimcp_core::abi::App;
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;
use calimcp_node::NodeContext;
use calimcp_node::ids::{self, error_as_typed};

use super::call::{self, Ask};
use super::context;

pub use calimcp_node::events::{Item, NodeEvent, Reconnect, Subscription, group_id, span};

use super::session::Session;

impl Session {
    /// Opens the node's event stream for `contexts`; returns once the node
    /// has accepted the subscription.
    pub async fn subscribe(&self, contexts: &[String]) -> Result<Subscription> {
        self.client()?.subscribe(contexts).await
    }

    /// [`Session::subscribe`] for following version changes: nothing is
    /// asked about the contexts beyond the subscription.
    pub(crate) async fn subscribe_only(&self, contexts: &[String]) -> Result<Subscription> {
        self.client()?.subscribe_only(contexts).await
    }

    /// [`Session::subscribe`] with groups too (`watch --group`,
    /// `wait_for_events` `groups`): their membership and migration events
    /// come as events with a `group_id`. A node whose subscription has no
    /// groups (before merod 0.11.0-rc.18) is refused (`group_events_unsupported`).
    pub async fn subscribe_groups(
        &self,
        contexts: &[String],
        groups: &[String],
    ) -> Result<Subscription> {
        self.client()?.subscribe_groups(contexts, groups).await
    }

    /// The contexts `watch` follows for `app`: the `given` ones (ids or
    /// aliases, each bound to the app), else the `pinned` one, else all of
    /// the app's; a context the listing does not show is kept by id.
    pub async fn contexts_to_watch(
        &self,
        app: &App,
        service: Option<&str>,
        given: &[String],
        pinned: Option<&str>,
    ) -> Result<Vec<NodeContext>> {
        let client = self.client()?;
        let listed = context::app_contexts(client, app, service).await;
        let known = |id: &str| -> Option<NodeContext> {
            listed
                .as_ref()
                .ok()
                .and_then(|l| l.iter().find(|c| ids::same(&c.id, id)).cloned())
        };
        let one = |id: String| {
            known(&id).unwrap_or(NodeContext {
                id,
                application_id: String::new(),
                service_name: service.map(str::to_string),
                ..NodeContext::default()
            })
        };
        let mut out: Vec<NodeContext> = Vec::new();
        if !given.is_empty() {
            for value in given {
                let ask = Ask::named(value);
                let id = call::bind_context(client, app, service, ask)
                    .await
                    .map_err(|e| error_as_typed(e, Some(value)))?
                    .id;
                if !out.iter().any(|c| ids::same(&c.id, &id)) {
                    out.push(one(id));
                }
            }
            return Ok(out);
        }
        if let Some(pinned) = pinned {
            let ask = Ask::pinned(pinned);
            let id = call::bind_context(client, app, service, ask).await?.id;
            return Ok(vec![one(id)]);
        }
        let list = listed?;
        if list.is_empty() {
            return Err(Error::input(
                Code::NoContext,
                format!(
                    "{} has no context on {}: there is nothing to watch",
                    sanitize_line(app.package_or_id()),
                    client.url()
                ),
            )
            .with_hint("create one (meroctl context create --application-id ID --group-id GROUP_ID; nodes before 0.11 take no --group-id), then watch again"));
        }
        Ok(list)
    }
}
