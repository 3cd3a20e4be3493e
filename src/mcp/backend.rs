//! What the server needs from a Calimero node, as a trait: the real
//! [`crate::node::Client`] implements it, and tests can stand in for it.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use crate::abi::{App, Warning};
use crate::error::Result;

/// A boxed future borrowing the backend.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A node the server reads apps from and runs methods on.
pub trait Backend: Send + Sync + 'static {
    /// The node URL, for messages (never with credentials).
    fn url(&self) -> String;

    /// The node's installed apps, with their ABIs; apps whose ABI cannot be
    /// read are skipped with a warning.
    fn apps(&self) -> BoxFuture<'_, Result<(Vec<App>, Vec<Warning>)>>;

    /// The context a call runs in: `explicit` (an id or an alias), else
    /// `pinned`, else the app's only context; otherwise an error listing them.
    fn resolve_context<'a>(
        &'a self,
        app: &'a App,
        service: Option<&'a str>,
        explicit: Option<&'a str>,
        pinned: Option<&'a str>,
    ) -> BoxFuture<'a, Result<String>>;

    /// Runs `method` in `context` with `args_json`; the method's output.
    fn execute<'a>(
        &'a self,
        context: &'a str,
        method: &'a str,
        args_json: &'a Value,
    ) -> BoxFuture<'a, Result<Value>>;
}
