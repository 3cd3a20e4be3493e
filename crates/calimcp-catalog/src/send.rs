//! Sending a bound call, and the few facts about the node a face shows: the
//! one way a face reaches the node for a call. [`Session::send`] runs
//! [`Bound::execute`] with the retry policy ([`call::may_retry`],
//! [`call::pause`]): a failed try is repeated while the node's error says
//! nothing ran (or the method only reads in the context's version), never
//! past `retries` and never for a call that may have run. The faces decide
//! only how a retry is told ([`Session::send`]'s `on_retry`).

use std::time::Duration;

use serde_json::Value;

use super::call::{self, Bound};
use super::context::ContextRow;
use super::invoke::Prepared;
use super::session::Session;
use calimcp_core::abi::App;
use calimcp_core::error::{Error, Result};
use calimcp_core::mapping::Tool;

impl Session {
    /// The node's URL for messages (never with credentials or a query).
    pub fn url(&self) -> Result<String> {
        Ok(self.client()?.url().to_string())
    }

    /// The node's JSON-RPC URL, as a dry run shows it.
    pub fn jsonrpc_url(&self) -> Result<String> {
        Ok(self.client()?.jsonrpc_url())
    }

    /// `id` in the node's id form, when it is an id and the form is known.
    pub fn node_id(&self, id: &str) -> Result<String> {
        Ok(self.client()?.node_id(id))
    }

    /// Whether the node runs every call as its own identity in the
    /// context, so `--as` is ignored (merod 0.11.0-rc.19 and later).
    pub async fn ignores_executor(&self, application_id: &str) -> bool {
        match self.client() {
            Ok(c) => c.ignores_executor(application_id).await,
            Err(_) => false,
        }
    }

    /// The contexts of `app` (its `service`) as rows with their aliases and
    /// versions ([`call::app_contexts`]).
    pub async fn app_contexts(&self, app: &App, service: Option<&str>) -> Result<Vec<ContextRow>> {
        call::app_contexts(self.client()?, app, service).await
    }

    /// The call sent once and explained when it fails ([`Bound::execute`]).
    pub async fn execute(
        &self,
        bound: &Bound,
        app: &App,
        prepared: &Prepared,
        executor: Option<&str>,
    ) -> Result<Value> {
        bound.execute(self.client()?, app, prepared, executor).await
    }

    /// The call sent, a failed try repeated at most `retries` times while
    /// [`Bound::may_retry`] allows it, after [`call::pause`]; `on_retry`
    /// hears each repeat (the error, the repeat's number, the pause) before
    /// it is made. The last error is explained as [`Bound::execute`] does.
    #[allow(clippy::too_many_arguments)]
    pub async fn send(
        &self,
        bound: &Bound,
        listed: &Tool,
        app: &App,
        prepared: &Prepared,
        executor: Option<&str>,
        retries: u32,
        mut on_retry: impl FnMut(&Error, u32, Duration),
    ) -> Result<Value> {
        let client = self.client()?;
        let mut tried = 0u32;
        loop {
            let e = match client
                .execute(
                    &bound.target.id,
                    &prepared.method,
                    &prepared.args_json,
                    executor,
                )
                .await
            {
                Ok(out) => return Ok(out),
                Err(e) => e,
            };
            if tried < retries && bound.may_retry(listed, &e) {
                tried += 1;
                let pause = call::pause(tried);
                on_retry(&e, tried, pause);
                tokio::time::sleep(pause).await;
                continue;
            }
            return Err(bound.explain(client, app, prepared, e).await);
        }
    }
}

/// The JSON-RPC body of an `execute` call, as a dry run shows it (and as
/// the node receives it).
pub fn execute_body(
    context_id: &str,
    method: &str,
    args_json: &Value,
    executor: Option<&str>,
) -> Value {
    calimcp_node::Client::execute_body(context_id, method, args_json, executor, 1)
}
