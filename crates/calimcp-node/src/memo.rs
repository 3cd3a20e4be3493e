//! The listings one client has read: the node's applications, each
//! application's contexts and the context aliases. The checks and messages
//! of one command share them (a refused context, its listing and the ABI of
//! the version a context runs ask the node once), while the plain requests
//! ([`Client::applications`], [`Client::contexts_for_application`],
//! [`Client::context_aliases`]) always ask the node and keep what it said.
//!
//! A listing lives until the client's next write (`execute`) or
//! [`Client::forget`], which `serve` calls before each re-read of the node,
//! so a server never answers from listings older than its last refresh. An
//! answer asked for before a `forget` is not kept.

use std::collections::HashMap;
use std::sync::MutexGuard;

use super::ids::{self, IdForm};
use super::{Client, NodeApp, NodeContext};
use calimcp_core::error::Result;

/// What the client has read, and how many times it forgot.
#[derive(Debug, Default)]
pub(super) struct Memo {
    /// Bumped by every [`Client::forget`].
    generation: u64,
    applications: Option<Vec<NodeApp>>,
    /// An application's id in hex → its contexts.
    contexts: HashMap<String, Vec<NodeContext>>,
    aliases: Option<Vec<(String, String)>>,
}

/// The memo key of an application id (either form).
fn key(app_id: &str) -> String {
    ids::to_form(app_id, IdForm::Hex)
}

impl Client {
    fn memo(&self) -> MutexGuard<'_, Memo> {
        self.inner.memo.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Drops the listings read so far: the next check asks the node again.
    pub fn forget(&self) {
        let mut memo = self.memo();
        let generation = memo.generation.wrapping_add(1);
        *memo = Memo {
            generation,
            ..Memo::default()
        };
    }

    /// The memo's generation now, taken before a listing is asked for.
    pub(super) fn memo_generation(&self) -> u64 {
        self.memo().generation
    }

    /// Keeps an answer asked for at generation `since`, unless the client
    /// forgot in between.
    fn remember(&self, since: u64, keep: impl FnOnce(&mut Memo)) {
        let mut memo = self.memo();
        if memo.generation == since {
            keep(&mut memo);
        }
    }

    pub(super) fn remember_applications(&self, since: u64, apps: &[NodeApp]) {
        self.remember(since, |m| m.applications = Some(apps.to_vec()));
    }

    pub(super) fn remember_contexts(&self, since: u64, app_id: &str, list: &[NodeContext]) {
        self.remember(since, |m| {
            m.contexts.insert(key(app_id), list.to_vec());
        });
    }

    pub(super) fn remember_aliases(&self, since: u64, list: &[(String, String)]) {
        self.remember(since, |m| m.aliases = Some(list.to_vec()));
    }

    /// The installed applications: the listing read already, else a new one.
    pub async fn known_applications(&self) -> Result<Vec<NodeApp>> {
        if let Some(apps) = &self.memo().applications {
            return Ok(apps.clone());
        }
        self.applications().await
    }

    /// The installed application `id` (either id form): from the listing
    /// read already, else — when that lists no such row, which may be newer
    /// than the listing — from a new one; `None` when the node lists none.
    pub async fn known_application(&self, id: &str) -> Result<Option<NodeApp>> {
        let find = |apps: &[NodeApp]| apps.iter().find(|a| ids::same(&a.id, id)).cloned();
        if let Some(apps) = &self.memo().applications
            && let Some(app) = find(apps)
        {
            return Ok(Some(app));
        }
        Ok(find(&self.applications().await?))
    }

    /// The contexts of one application (its id in either form): the listing
    /// read already, else a new one.
    pub async fn known_contexts_for_application(&self, app_id: &str) -> Result<Vec<NodeContext>> {
        if let Some(list) = self.memo().contexts.get(&key(app_id)) {
            return Ok(list.clone());
        }
        self.contexts_for_application(app_id).await
    }

    /// Every context alias: the listing read already, else a new one (none
    /// when the node cannot list them; that is not kept).
    pub async fn known_context_aliases(&self) -> Vec<(String, String)> {
        if let Some(list) = &self.memo().aliases {
            return list.clone();
        }
        self.context_aliases().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NodeOptions;

    fn client() -> Client {
        let dir = std::env::temp_dir().join("calimcp-unit-never-written");
        Client::new(NodeOptions::new("http://127.0.0.1:1", dir)).unwrap()
    }

    fn app(id: &str) -> NodeApp {
        NodeApp {
            id: id.to_string(),
            ..NodeApp::default()
        }
    }

    #[test]
    fn listings_are_kept_by_either_id_form_until_forgotten() {
        let c = client();
        let hex = "ab".repeat(32);
        let b58 = ids::to_form(&hex, IdForm::Base58);
        let since = c.memo_generation();
        c.remember_applications(since, &[app(&b58)]);
        let ctx = NodeContext {
            id: "C".into(),
            ..NodeContext::default()
        };
        c.remember_contexts(since, &b58, std::slice::from_ref(&ctx));
        c.remember_aliases(since, &[("a".into(), "C".into())]);
        {
            let memo = c.memo();
            assert_eq!(memo.contexts.get(&key(&hex)), Some(&vec![ctx]));
            assert!(memo.applications.is_some() && memo.aliases.is_some());
        }
        c.forget();
        let memo = c.memo();
        assert!(memo.applications.is_none() && memo.aliases.is_none());
        assert!(memo.contexts.is_empty());
    }

    #[test]
    fn an_answer_asked_for_before_a_forget_is_not_kept() {
        let c = client();
        let since = c.memo_generation();
        c.forget();
        c.remember_applications(since, &[app("A")]);
        assert!(c.memo().applications.is_none());
        // Clones share what was read.
        let since = c.memo_generation();
        c.clone().remember_applications(since, &[app("A")]);
        assert!(c.memo().applications.is_some());
    }
}
