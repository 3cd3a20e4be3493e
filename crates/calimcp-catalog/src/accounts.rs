//! Logins, tokens and named nodes, as the faces see them: the node layer's
//! token cache ([`auth`]: the cached logins per node URL and user), the
//! profile file of named nodes ([`profiles`], with meroctl's `nodes.toml`
//! read for `node import`), the local node found when none is given
//! ([`discover`]), the canonical form of a node URL
//! ([`normalize_url`]) and how a node client is made ([`NodeOptions`] and
//! its defaults). The wire (how a login, a refresh or a dead token looks on
//! each node version) stays in the node crate; this module is the one door
//! the faces go through to it.

pub use calimcp_node::auth;
/// Finding the local node when none is given.
pub use calimcp_node::discover;
pub use calimcp_node::profiles;
/// The largest state file (token cache, pins, profiles) read by default.
pub use calimcp_node::store::DEFAULT_MAX_STATE;
pub use calimcp_node::{
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_EXECUTE_TIMEOUT, DEFAULT_MAX_BLOB, DEFAULT_MAX_RESPONSE,
    DEFAULT_TIMEOUT, DEFAULT_URL, NodeOptions, normalize_url,
};

use calimcp_core::error::{Error, Result};

use super::session::Session;

impl Session {
    /// `calimcp login`: logs in with the session's username and password
    /// now, even when a token is cached, and caches the new pair.
    pub async fn log_in(&self) -> Result<()> {
        self.client()?.log_in().await
    }

    /// `calimcp auth token`: the access token, after one cheap
    /// authenticated request proved it (refreshed on the way when the node
    /// said it had expired); `None` without a token or credentials.
    pub async fn checked_token(&self) -> Result<Option<String>> {
        self.client()?.checked_token().await
    }

    /// `calimcp logout`: ends the session of a cached login on the node
    /// where the node can (merod 0.11.0-rc.83 and later retire its refresh
    /// token); what the node made of it, never an error. `--offline` asks
    /// nothing ([`auth::NodeLogout::NotAsked`]).
    pub async fn end_login(&self, tokens: &auth::Tokens) -> auth::NodeLogout {
        let Some(refresh) = tokens.refresh.as_deref() else {
            return auth::NodeLogout::NoRefreshToken;
        };
        if self.offline() {
            return auth::NodeLogout::NotAsked;
        }
        match self.client() {
            Ok(c) => c.end_session(refresh).await,
            Err(e) => auth::NodeLogout::Unreachable(e.message),
        }
    }

    /// When the node ended a cached login of this node, the error that says
    /// so and how to log in again.
    pub fn dead_login(&self) -> Option<Error> {
        self.client().ok()?.dead_login()
    }
}
