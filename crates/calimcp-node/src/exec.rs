//! `execute` on every merod: the JSON-RPC call, the executor identity, and
//! ids in the node's own form.
//!
//! - merod 0.10.0 … 0.10.1-rc.18 requires `executorPublicKey`: without it the
//!   call answers a ParseError (`missing field \`executorPublicKey\``). Then
//!   calimcp asks which identities the node owns in the context
//!   (`GET /admin-api/contexts/:id/identities-owned`), takes the first,
//!   retries once, and remembers it per context for the life of the client.
//!   None owned: exit 5, saying how to join the context.
//! - `--as IDENTITY` (the `identity` argument): a public key (base58, or 64
//!   hex converted to the node's form) is sent as is; anything else is an
//!   identity alias, resolved with `POST /admin-api/alias/lookup/identity/
//!   :context/:name` (0.10.x … 0.11.0-rc.24; removed by rc.25). Only nodes
//!   before 0.10.1-rc.19 honour it; newer ones execute as their own first
//!   owned identity and ignore the field.
//! - The context id is sent in the node's form when an answer has shown it
//!   ([`super::ids`]); otherwise as given, and a ParseError (nothing ran) is
//!   retried once with the id in the other form.
//! - An `execute` is a write: the listings the client kept (`memo`) are
//!   dropped after it, whatever it answered.

use std::sync::atomic::Ordering;

use reqwest::Method;
use serde_json::{Value, json};

use super::ids::{self, IdForm};
use super::{Client, decode, str_field};
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::text::sanitize_line;

/// How a node joins a context, as current nodes do it (rc.25 has no
/// `meroctl context join`: joins go through the context's group).
pub(crate) const JOIN_HINT: &str = "join the context on this node first: `meroctl group join-context CONTEXT_ID` when the node is in the context's group, else `meroctl namespace join NAMESPACE_ID INVITATION_JSON` with an invitation from a member (nodes before 0.11: `meroctl context join`); or call through a node that is a member of it";

/// What a JSON-RPC exchange came to.
enum Outcome {
    Output(Value),
    RpcError(Value),
}

fn parse_error_text(err: &Value) -> Option<String> {
    if err.get("type").and_then(Value::as_str) != Some("ParseError") {
        return None;
    }
    Some(match err.get("data") {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    })
}

impl Client {
    /// The JSON-RPC body of an `execute` call.
    pub fn execute_body(
        context_id: &str,
        method: &str,
        args_json: &Value,
        executor: Option<&str>,
        id: u64,
    ) -> Value {
        let mut params = json!({
            "contextId": context_id,
            "method": method,
            "argsJson": args_json,
        });
        if let (Some(e), Some(p)) = (executor, params.as_object_mut()) {
            p.insert("executorPublicKey".into(), Value::String(e.to_string()));
        }
        json!({"jsonrpc": "2.0", "id": id, "method": "execute", "params": params})
    }

    /// `s` in the node's id form when it is an id and the form is known.
    pub fn node_id(&self, s: &str) -> String {
        match self.inner.ids.get() {
            Some(form) => ids::to_form(s, form),
            None => s.to_string(),
        }
    }

    /// The node's id form, once an answer showed it.
    pub(super) fn id_form(&self) -> Option<ids::IdForm> {
        self.inner.ids.get()
    }

    /// Records an id the node wrote (its form is the node's).
    pub(super) fn saw_id(&self, id: &str) {
        self.inner.ids.saw(id);
    }

    /// Calls `method` on a context and returns its `output` (`null` for
    /// unit). `identity` is `--as`: a public key or an identity alias.
    pub async fn execute(
        &self,
        context_id: &str,
        method: &str,
        args_json: &Value,
        identity: Option<&str>,
    ) -> Result<Value> {
        let identity = identity.or(self.inner.identity.as_deref());
        let outcome = self
            .execute_inner(context_id, method, args_json, identity)
            .await;
        // A write: what was listed before it is not trusted after it.
        self.forget();
        match outcome {
            Ok(v) => Ok(v),
            // Say what the node is doing about it, where it can tell.
            Err(mut e) if e.code == Code::Uninitialized => {
                if let Some(d) = self.uninitialized_why(context_id, true).await {
                    e.message = format!("{}: {}", e.message, d.why);
                    e.hint = Some(d.hint);
                    e.retryable = d.transient;
                }
                Err(self.scrub_err(e))
            }
            Err(e) => Err(self.scrub_err(e)),
        }
    }

    async fn execute_inner(
        &self,
        context_id: &str,
        method: &str,
        args_json: &Value,
        identity: Option<&str>,
    ) -> Result<Value> {
        let ctx = self.node_id(context_id);
        let mut executor = match identity {
            Some(i) => Some(self.identity(&ctx, i).await?),
            None => self.remembered_executor(&ctx),
        };
        // Nodes writing hex ids (0.11.0-rc.27 on) run as their own identity
        // (as every node from 0.10.1-rc.19 does), and rc.83 refuses the field
        // as an unknown key; their SDKs never send it, nor does calimcp.
        if executor.is_some() && self.executor_ignored() {
            self.log(format_args!(
                "= this node (merod 0.11.0-rc.27 or later: it writes hex ids) executes as its own identity: executorPublicKey is not sent"
            ));
            executor = None;
        }
        let mut a = Attempt {
            ctx,
            executor,
            asked_owned: false,
            converted: false,
        };
        loop {
            let err = match self
                .execute_once(&a.ctx, method, args_json, a.executor.as_deref())
                .await?
            {
                Outcome::Output(v) => {
                    if a.converted {
                        self.saw_id(&a.ctx);
                    }
                    return Ok(v);
                }
                Outcome::RpcError(err) => err,
            };
            if let Some(text) = parse_error_text(&err)
                && self
                    .retry_after_parse_error(&mut a, context_id, &text)
                    .await?
            {
                continue;
            }
            // Newer nodes execute as their own first identity and say so
            // when they own none.
            if err.get("type").and_then(Value::as_str) == Some("FunctionCallError")
                && err
                    .get("data")
                    .and_then(Value::as_str)
                    .is_some_and(|d| d.contains("No owned identity found"))
            {
                return Err(self.none_owned(context_id));
            }
            return Err(decode::rpc_error(method, context_id, &err));
        }
    }

    /// After the node could not parse an `execute` (`text`, nothing ran):
    /// whether to send it again, and how (`a` changed accordingly).
    async fn retry_after_parse_error(
        &self,
        a: &mut Attempt,
        context_id: &str,
        text: &str,
    ) -> Result<bool> {
        // rc.83 refuses the key (`deny_unknown_fields`); nothing ran.
        if text.contains("unknown field `executorPublicKey`") && a.executor.is_some() {
            self.log(format_args!(
                "= the node refuses executorPublicKey (merod 0.11.0-rc.83 and later); sending the call without it"
            ));
            a.executor = None;
            return Ok(true);
        }
        if text.contains("executorPublicKey") && a.executor.is_none() && !a.asked_owned {
            a.asked_owned = true;
            let who = self.owned_identity(&a.ctx, context_id).await?;
            self.log(format_args!(
                "= the node needs executorPublicKey (merod 0.10.x); executing as {}, the first identity it owns in the context",
                sanitize_line(&who)
            ));
            self.executors().insert(key(&a.ctx), who.clone());
            a.executor = Some(who);
            return Ok(true);
        }
        // An id in the other form is worth one more try while the node's
        // form is not known.
        if !a.converted
            && self.inner.ids.get().is_none()
            && let Some(form) = IdForm::of(&a.ctx)
        {
            a.converted = true;
            let other = form.other();
            self.log(format_args!(
                "= the node could not parse the request; retrying with ids in {} form",
                match other {
                    IdForm::Base58 => "base58",
                    IdForm::Hex => "hex",
                }
            ));
            a.ctx = ids::to_form(&a.ctx, other);
            a.executor = a.executor.take().map(|e| ids::to_form(&e, other));
            return Ok(true);
        }
        Ok(false)
    }

    /// An `execute` that timed out may still run to completion on the node:
    /// say so, so that a change is not made twice.
    fn execute_timed_out(&self, e: Error, method: &str) -> Error {
        if e.code != Code::Timeout {
            return e;
        }
        Error {
            message: format!(
                "`{}` got no answer within {} from the node at {}; the call may still have run (or may still complete) there",
                sanitize_line(method),
                super::http::seconds(self.inner.execute_timeout),
                self.inner.shown
            ),
            hint: Some(
                "check the app's state before repeating a call that changes it; raise the bound with --timeout SECS"
                    .into(),
            ),
            ..e
        }
    }

    fn none_owned(&self, given: &str) -> Error {
        Error::new(
            ErrorKind::Remote,
            Code::NoIdentity,
            format!(
                "the node at {} owns no identity in context {}, and a node runs a method only as an identity it owns",
                self.inner.shown,
                sanitize_line(given)
            ),
        )
        .with_hint(JOIN_HINT)
    }

    /// One `execute` exchange.
    async fn execute_once(
        &self,
        ctx: &str,
        method: &str,
        args_json: &Value,
        executor: Option<&str>,
    ) -> Result<Outcome> {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let body = Self::execute_body(ctx, method, args_json, executor, id);
        let (url, shown) = self.endpoint(&["jsonrpc"], None);
        let reply = self
            .request_with(Method::POST, &url, &shown, Some(&body), self.execute_cap())
            .await
            .map_err(|e| self.execute_timed_out(e, method))?;
        let v = self.check(reply, &shown)?;
        if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
            return Ok(Outcome::RpcError(err.clone()));
        }
        match v.get("result") {
            Some(Value::Object(r)) if r.contains_key("output") => Ok(Outcome::Output(
                r.get("output").cloned().unwrap_or(Value::Null),
            )),
            Some(r) => Ok(Outcome::Output(r.clone())),
            None => Err(self.unexpected(&shown, "neither `result` nor `error` in the response")),
        }
    }

    fn executors(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, String>> {
        self.inner
            .executors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    fn remembered_executor(&self, ctx: &str) -> Option<String> {
        self.executors().get(&key(ctx)).cloned()
    }

    /// Whether `executorPublicKey` is left out: the node writes hex ids
    /// (0.11.0-rc.27 and later, which all execute as their own identity;
    /// rc.83 refuses the key).
    fn executor_ignored(&self) -> bool {
        self.id_form() == Some(IdForm::Hex)
    }

    /// The identities the node owns in a context.
    pub(crate) async fn identities_owned(&self, ctx: &str) -> Result<Vec<String>> {
        let v = self
            .get_json(&["admin-api", "contexts", ctx, "identities-owned"], None)
            .await
            .map_err(|e| self.scrub_err(e))?;
        let list = v
            .get("identities")
            .or(Some(&v))
            .and_then(Value::as_array)
            .ok_or_else(|| {
                self.unexpected(
                    "admin-api/contexts/:id/identities-owned",
                    "no `identities` list",
                )
            })?;
        let ids: Vec<String> = list
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        if let Some(first) = ids.first() {
            self.saw_id(first);
        }
        Ok(ids)
    }

    async fn owned_identity(&self, ctx: &str, given: &str) -> Result<String> {
        let owned = self.identities_owned(ctx).await?;
        owned
            .into_iter()
            .next()
            .ok_or_else(|| self.none_owned(given))
    }

    /// `--as`: a public key in the node's form, or the key an identity alias names.
    /// Whether the node ignores the executor a call names (`--as`): nodes
    /// with the ABI route (0.11.0-rc.19 and later, rc.25 included) do. Known
    /// from an earlier ABI request, else probed once with `application_id`'s
    /// route. `false` when it cannot tell (older nodes: 0.10.x honours it).
    pub async fn ignores_executor(&self, application_id: &str) -> bool {
        use super::abi::{ROUTE_ABSENT, ROUTE_PRESENT, ROUTE_UNKNOWN};
        let known = self.inner.abi_route.load(Ordering::Acquire);
        if known != ROUTE_UNKNOWN || application_id.is_empty() {
            return known == ROUTE_PRESENT;
        }
        let segments = ["admin-api", "applications", application_id, "abi"];
        let (url, shown) = self.endpoint(&segments, None);
        let Ok(reply) = self.request(Method::GET, &url, &shown, None).await else {
            return false;
        };
        let route = if reply.status == 404 && reply.bodyless() {
            ROUTE_ABSENT
        } else {
            ROUTE_PRESENT
        };
        self.inner.abi_route.store(route, Ordering::Release);
        route == ROUTE_PRESENT
    }

    async fn identity(&self, ctx: &str, given: &str) -> Result<String> {
        if ids::is_id(given) {
            return Ok(self.node_id(given));
        }
        let segments = ["admin-api", "alias", "lookup", "identity", ctx, given];
        let (url, shown) = self.endpoint(&segments, None);
        let reply = self
            .request(Method::POST, &url, &shown, Some(&json!({})))
            .await?;
        if reply.status == 404 && reply.bodyless() {
            return Err(Error::input(
                Code::IdentityAliasesUnsupported,
                format!(
                    "--as {}: the node at {} has no identity aliases (merod 0.11.0-rc.25 and later removed them)",
                    sanitize_line(given),
                    self.inner.shown
                ),
            )
            .with_hint("pass --as with the identity's public key (base58 or 64 hex); nodes of 0.10.1-rc.19 and later ignore --as and execute as their own identity"));
        }
        if reply.status == 400 {
            return Err(Error::input(
                Code::UnknownIdentity,
                format!(
                    "--as {}: not a public key, and the node refuses it as an alias name",
                    sanitize_line(given)
                ),
            )
            .with_hint("a public key is base58 of 32 bytes or 64 hex characters"));
        }
        let v = super::data(self.check(reply, &shown)?);
        match str_field(&v, "value") {
            Some(key) => {
                self.saw_id(&key);
                Ok(key)
            }
            None => Err(Error::input(
                Code::UnknownIdentity,
                format!(
                    "--as {}: no identity has that alias in context {} on the node at {}",
                    sanitize_line(given),
                    sanitize_line(ctx),
                    self.inner.shown
                ),
            )
            .with_hint("pass the identity's public key, or one of the identities the node owns in the context (GET /admin-api/contexts/ID/identities-owned)")),
        }
    }
}

/// The map key of a context: its bytes in hex when it is an id.
fn key(ctx: &str) -> String {
    match ids::decode(ctx) {
        Some(b) => IdForm::Hex.encode(&b),
        None => ctx.to_string(),
    }
}

/// One `execute` as it is sent: the context id in the form tried, the
/// executor (if any), and which of the retries after a parse error were
/// already made.
struct Attempt {
    ctx: String,
    executor: Option<String>,
    asked_owned: bool,
    converted: bool,
}
