//! One MCP session: rmcp's [`ServerHandler`] over the live catalog (tools,
//! and the resources and completions of [`super::resources`]). stdio has
//! one session; Streamable HTTP makes one per client. The session owns the
//! contexts `select_app` chose ([`Chosen`]); everything else is shared, the
//! server's catalog session first ([`Live::session`]): the pins (those
//! chosen, then those of `calimcp use`), the node client and the one check
//! that something needs the node come from it, as they do for a command.
//! App tools (one by one, or several through `call_many`), `call_until`,
//! `select_app` and `wait_for_events` take the engine's steps
//! ([`calimcp_catalog::call`]) through that session with an agent
//! [`Audience`]; the waits pace as the CLI's do
//! ([`calimcp_catalog::wait::Pace`]).

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    ContentBlock, CustomRequest, CustomResult, ErrorCode, Implementation,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Reference,
    ServerCapabilities, ServerConfig, SubscriptionFilter, Tool as McpTool,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

use super::events;
use super::fixed::WAIT_FOR_EVENTS;
use super::fixed::{self, CALL_MANY, CALL_UNTIL, DESCRIBE_APP, SELECT_APP, WAIT_FOR_CONTEXT};
use super::lifecycle as lc;
use super::live::{Live, Lookup, View, compact};
use super::log;
use super::resources::{self, Kind};
use calimcp_catalog::call::{Ask, Audience, Bound, Use, check_use};
use calimcp_catalog::invoke::Prepared;
use calimcp_catalog::session::{Chosen, Session as CatalogSession};
use calimcp_catalog::trace::Trace;
use calimcp_catalog::wait::{ContextReady, Pace, Waited, repeat};
use calimcp_core::error::{Code, Error, ErrorKind, ErrorLine};
use calimcp_core::mapping::Tool;
use calimcp_core::mapping::args::Problem;
use calimcp_core::text::{did_you_mean, sanitize_line};

/// What an agent reads first.
pub(crate) const INSTRUCTIONS: &str = "calimcp serves Calimero applications: one tool per ABI method, named <app>_<method> (<app>_<service>_<method> for multi-service apps), each described by its signature ([view] only reads, [mut] changes state). To start: call describe_app without arguments to list the apps, then describe_app with an app for its methods, tool names and, when the app ships one, its author's guide (its `procedures` say how to use the app; the guide is shown once per session, then it is the resource the answer names), then select_app to pin the context the app's tools run in (an app with a single context needs no pin), then call the tools. On a connection without a session (Streamable HTTP without Mcp-Session-Id, as in protocol 2026-07-28) pins are not kept: pass `_context` to each call instead. Any app tool also takes `_context` (a context id or alias) to run one call elsewhere. Arguments are checked against the tool's schema before anything reaches the node; a result with isError names each bad argument, so fix those and retry. To learn what a call caused, wait_for_events returns an app's events in a context, decoded with its ABI (start waiting before the call). Instead of a loop of calls: wait_for_context waits until a context (say, one just joined) is initialized on the node, and call_until repeats a [view] tool until its result equals a value. For several calls at once, call_many runs up to 32 app tool calls and answers each in order, one failure not failing the others. A failed call's structuredContent is {\"error\": {code, message, hint, retryable}}: retry only when retryable is true.";

/// −32601 for `method`: which one, and the requests the server answers.
fn not_found(method: &str) -> McpError {
    McpError::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!(
            "Method not found: `{}`; this server answers {}",
            sanitize_line(method),
            ANSWERED.join(", ")
        ),
        None,
    )
}

/// The requests this server answers (a −32601 lists them).
const ANSWERED: [&str; 10] = [
    "initialize",
    "ping (before 2026-07-28)",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "completion/complete",
    "server/discover",
    "subscriptions/listen",
];

/// True on a Streamable HTTP request that belongs to no session (the
/// 2026-07-28 protocol, or a stateless client): state does not outlive it.
fn sessionless(context: &RequestContext<RoleServer>) -> bool {
    context
        .extensions
        .get::<axum::http::request::Parts>()
        .is_some_and(|parts| !parts.headers.contains_key("mcp-session-id"))
}

/// One MCP connection's handler: what the server answers one client with
/// (stdio: the one client; Streamable HTTP: one per MCP session).
pub(crate) struct Connection {
    live: Arc<Live>,
    /// The contexts select_app chose for this session.
    chosen: Chosen,
    /// The app guides describe_app and select_app showed in this session.
    guides: super::guide::Shown,
}

impl Connection {
    pub(crate) fn new(live: Arc<Live>) -> Connection {
        Connection {
            live,
            chosen: Chosen::default(),
            guides: Default::default(),
        }
    }

    /// The server's catalog session.
    fn catalog(&self) -> &CatalogSession {
        &self.live.session
    }

    /// The node's client for `what`, or the answer that the server runs
    /// with --offline (the session's one check, worded for an agent).
    fn node(&self, what: &str, audience: Audience) -> Result<&CatalogSession, Error> {
        let session = self.catalog();
        session.node(what).map_err(|e| audience.word(e))?;
        Ok(session)
    }

    /// Until the client cancels a `subscriptions/listen` stream or the
    /// server shuts down.
    async fn until_ended(&self, context: &SubscriptionContext) {
        tokio::select! {
            () = context.cancelled() => {}
            () = self.live.closing() => {}
        }
    }

    /// The session, for what needs the node, unless the server runs with
    /// --offline.
    fn client(&self) -> Option<&CatalogSession> {
        let session = self.catalog();
        (!session.offline()).then_some(session)
    }

    /// Resolves an app name, re-reading the node once when it is unknown there.
    async fn resolve_app(&self, query: &str) -> Result<(Arc<View>, usize), Error> {
        let view = self.live.view();
        match view.resolve(query) {
            Ok(i) => Ok((view, i)),
            Err(e) if self.live.has_node() && e.code == Code::UnknownApp => {
                self.live.refresh().await;
                let view = self.live.view();
                let i = view.resolve(query)?;
                Ok((view, i))
            }
            Err(e) => Err(e),
        }
    }

    /// The app a resource URI (or a completion's chosen `app`) names: its
    /// URI key exactly, else any name `describe_app` takes.
    async fn app_for_uri(&self, key: &str) -> Result<(Arc<View>, usize), Error> {
        let view = self.live.view();
        match resources::by_key(&view, key) {
            Some(i) => Ok((view, i)),
            None => self.resolve_app(key).await,
        }
    }

    /// The app a fixed tool names and the service it means (the one named,
    /// the server's `--service`, or the only one).
    async fn app_and_service(
        &self,
        query: &str,
        service: Option<&str>,
    ) -> Result<(Arc<View>, usize, Option<String>), Error> {
        let (view, app) = self.resolve_app(query).await?;
        let service = fixed::pick_service(&view, app, service, self.live.scope.service.as_deref())?;
        Ok((view, app, service))
    }

    async fn describe_app(&self, args: &Map<String, Value>) -> CallToolResult {
        let parsed = match fixed::parse_describe(args) {
            Ok(p) => p,
            Err(text) => return refusal(text),
        };
        let Some(query) = parsed.app else {
            self.live.wait_ready().await;
            let node = self
                .live
                .backend()
                .map(|b| (sanitize_line(&b.url()), self.live.node_up()));
            return json_result(&fixed::list_apps(&self.live.view(), node));
        };
        let (view, app) = match self.resolve_app(&query).await {
            Ok(found) => found,
            Err(e) => return error_result(&e),
        };
        let service = match parsed.service.as_deref() {
            None => None,
            Some(_) => match fixed::pick_service(&view, app, parsed.service.as_deref(), None) {
                Ok(s) => s,
                Err(e) => return error_result(&e),
            },
        };
        let service = service.or_else(|| {
            let a = &view.catalog.apps[app];
            self.live
                .scope
                .service
                .clone()
                .filter(|s| a.services.iter().any(|x| x.name.as_deref() == Some(s)))
        });
        let pins = self.chosen.of_app(&view.catalog.apps[app]);
        let mut out = fixed::describe(&view, app, service.as_deref(), &pins);
        // The contexts the app's tools can run in, with their aliases.
        if let Some(client) = self.client() {
            match client
                .app_contexts(&view.catalog.apps[app], service.as_deref())
                .await
            {
                Ok(list) => out.contexts = Some(list),
                Err(e) => out.contexts_error = Some(error_text(&e)),
            }
        }
        self.with_guide(&view, app, json_result(&out))
    }

    /// `result` with app `app`'s guide after it, or (shown before in this
    /// session) a pointer to it.
    fn with_guide(&self, view: &View, app: usize, mut result: CallToolResult) -> CallToolResult {
        self.guides.append(view, app, &mut result);
        result
    }

    async fn select_app(&self, args: &Map<String, Value>, audience: Audience) -> CallToolResult {
        let sessionless = audience == Audience::Agent { pins: false };
        let parsed = match fixed::parse_select(args) {
            Ok(p) => p,
            Err(text) => return refusal(text),
        };
        let query = parsed.app;
        let (view, app, service) = match self
            .app_and_service(&query, parsed.service.as_deref())
            .await
        {
            Ok(found) => found,
            Err(e) => return error_result(&e),
        };
        let a = &view.catalog.apps[app];
        let tools: Vec<&str> = view
            .listed_for(app, service.as_deref())
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        let mut out = json!({
            "app": a.name.as_deref().unwrap_or_else(|| a.package_or_id()),
            "id": a.id.as_str(),
            "package": a.package,
            "version": a.version,
            "service": service,
            "context": null,
            "tools": tools,
            "procedures": a.guide.as_ref().map(|g| g.procedures.clone()).unwrap_or_default(),
            "guide": resources::app_guide_uri(&view, app),
        });
        if self.catalog().offline() {
            out["note"] = "the server runs with --offline: these tools can be listed and described but not run".into();
            return self.with_guide(&view, app, json_result(&out));
        }
        let ask = Ask::call(parsed.context.as_deref(), None);
        let resolved = self
            .catalog()
            .context_for(a, service.as_deref(), ask, audience)
            .await
            .map(|t| t.id);
        match resolved {
            // Without a session nothing carries the pin to the next request:
            // say so rather than claim a pin that is not kept.
            Ok(context) if sessionless => {
                out["context"] = context.into();
                out["pinned"] = false.into();
                out["note"] = "this connection has no session (Streamable HTTP without Mcp-Session-Id, e.g. protocol 2026-07-28), so pins are not kept: pass `_context` with this context to each tool call, or the app's default context is used".into();
                self.with_guide(&view, app, json_result(&out))
            }
            Ok(context) => {
                self.chosen.choose(a, service.as_deref(), context.clone());
                out["context"] = context.into();
                out["note"] = "these tools now run in this context for this session; pass `_context` to a tool to run one call elsewhere".into();
                self.with_guide(&view, app, json_result(&out))
            }
            // The agent named a context that is not usable: that is an error.
            Err(e) if parsed.context.is_some() => error_result(&e),
            // No single default: say why and how to choose.
            Err(e) => {
                out["note"] = format!(
                    "no context pinned: {}; call select_app again with `context`, or pass `_context` to each tool",
                    error_text(&e).replace('\n', " ")
                )
                .into();
                self.with_guide(&view, app, json_result(&out))
            }
        }
    }

    async fn wait_for_events(
        &self,
        args: &Map<String, Value>,
        audience: Audience,
    ) -> CallToolResult {
        let parsed = match events::parse(args) {
            Ok(p) => p,
            Err(text) => return refusal(text),
        };
        let (view, app, service) = match self
            .app_and_service(&parsed.app, parsed.service.as_deref())
            .await
        {
            Ok(found) => found,
            Err(e) => return error_result(&e),
        };
        let a = &view.catalog.apps[app];
        if let Err(e) = self.node(WAIT_FOR_EVENTS, audience) {
            return error_result(&e);
        }
        let Some(backend) = self.live.backend() else {
            return error_result(&Error::input(Code::Offline, "the server reads no node"));
        };
        let typed = parsed.context.as_deref();
        let pinned = match self
            .catalog()
            .call_pin(typed, Some(&self.chosen), a, service.as_deref())
        {
            Ok(p) => p,
            Err(e) => return error_result(&e),
        };
        let ask = Ask::call(typed, pinned.as_deref());
        let bound = self
            .catalog()
            .context_for(a, service.as_deref(), ask, audience);
        let context = match bound.await {
            Ok(t) => t.id,
            Err(e) => return error_result(&e),
        };
        let (feed, mut rx) = match self.live.hub.join(backend, &context, &parsed.groups).await {
            Ok(joined) => joined,
            Err(e) => return error_result(&e),
        };
        let manifest = a
            .service(service.as_deref())
            .or_else(|| a.services.first())
            .map(|s| s.manifest.clone())
            .unwrap_or_default();
        log::debug!("{WAIT_FOR_EVENTS}: waiting in {context}");
        let out = events::collect(&mut rx, &manifest, &context, &parsed).await;
        drop(rx);
        drop(feed);
        match out {
            Ok(v) => {
                let mut r = CallToolResult::success(vec![ContentBlock::text(compact(&v))]);
                r.structured_content = Some(events::exact_payloads(&manifest, &v));
                r
            }
            Err(e) => error_result(&e),
        }
    }

    async fn wait_for_context(
        &self,
        args: &Map<String, Value>,
        audience: Audience,
    ) -> CallToolResult {
        let parsed = match fixed::parse_wait_context(args) {
            Ok(p) => p,
            Err(text) => return refusal(text),
        };
        let client = match self.node(WAIT_FOR_CONTEXT, audience) {
            Ok(c) => c,
            Err(e) => return error_result(&e),
        };
        let pace = Pace::new(parsed.every, parsed.within);
        let mut on_check = |_: u64, _: &calimcp_core::error::Result<Option<bool>>| {};
        let waited = self.catalog().until_initialized(
            WAIT_FOR_CONTEXT,
            &parsed.context,
            &pace,
            &mut on_check,
        );
        match waited.await {
            Ok((Some(info), Waited::Initialized { checks })) => {
                // A context just joined may run code the view has not read yet.
                self.live.saw_application(&info.application_id);
                let id = client.node_id(&info.id).unwrap_or_else(|_| info.id.clone());
                let v = serde_json::to_value(ContextReady::new(id, checks)).unwrap_or_default();
                let mut r = CallToolResult::success(vec![ContentBlock::text(compact(&v))]);
                r.structured_content = Some(v);
                r
            }
            Ok((_, Waited::TimedOut { why })) => {
                failure(format!("{}\ntimedOut: true", error_text(&why)), &why)
            }
            Ok((None, Waited::Initialized { .. })) => error_result(&Error::internal(
                "the context was never found, yet reported initialized",
            )),
            Err(e) => node_error_result(&e),
        }
    }

    /// `call_until`: the engine's steps for the [view] tool, once (its
    /// context found within the deadline), then its call at the wait's pace
    /// until the result matches ([`calimcp_catalog::wait::repeat`]).
    async fn call_until(
        &self,
        args: &Map<String, Value>,
        audience: Audience,
    ) -> Result<CallToolResult, McpError> {
        let parsed = match fixed::parse_call_until(args) {
            Ok(p) => p,
            Err(text) => return Ok(refusal(text)),
        };
        let pace = Pace::new(parsed.every, parsed.within);
        self.live.wait_ready().await;
        let steps = self.prepare_call(&parsed.tool, &parsed.arguments, true, audience);
        let call = match pace.before(steps).await {
            None => {
                let e = pace.ran_out(&format!("finding the context of {}", parsed.tool));
                return Ok(failure(format!("{}\ntimedOut: true", error_text(&e)), &e));
            }
            Some(Ok(call)) => call,
            Some(Err(Stop::Protocol(e, _))) => return Err(e),
            Some(Err(Stop::Answer(r))) => return Ok(r.0),
        };
        let client = match self.node(CALL_UNTIL, audience) {
            Ok(c) => c,
            Err(e) => return Ok(error_result(&e)),
        };
        let app = &call.view.catalog.apps[call.tool.app];
        let try_once = || client.execute(&call.bound, app, &call.prepared, None);
        let seen = match repeat(&pace, &parsed.expect, try_once, &mut |_, _, _| {}).await {
            Ok(Ok(output)) => return Ok(self.ran(&call, output)),
            Ok(Err(seen)) => seen,
            Err(e) => return Ok(node_error_result(&e)),
        };
        let last = match (&seen.last_error, &seen.last) {
            (Some(e), _) => sanitize_line(&format!("{}\nretryable: true", error_text(e))),
            (None, Some(v)) => sanitize_line(&compact(v)),
            (None, None) => "none".into(),
        };
        let message = format!(
            "{} did not return {} within {} s ({}); the last answer: {last}",
            sanitize_line(&parsed.tool),
            parsed.expect.wanted(),
            parsed.within.as_secs_f64(),
            seen.tries(&pace),
        );
        let e = Error::new(ErrorKind::Timeout, Code::Timeout, message);
        Ok(failure(format!("{}\ntimedOut: true", e.message), &e))
    }

    /// `call_many` ([`super::many`]): each group of calls after the one
    /// before, the calls of a group (consecutive [view] calls) together.
    async fn call_many(&self, args: &Map<String, Value>, audience: Audience) -> CallToolResult {
        use super::many;
        let calls = match fixed::parse_call_many(args) {
            Ok(c) => c,
            Err(text) => return refusal(text),
        };
        if let Some(why) = many::refused(&calls) {
            return refusal(why);
        }
        self.live.wait_ready().await;
        let view = self.live.view();
        let is_view: Vec<bool> = calls
            .iter()
            .map(|(n, _)| matches!(view.lookup(n, &self.live.scope), Lookup::Found(t) if t.read_only))
            .collect();
        let mut results = Vec::with_capacity(calls.len());
        for group in many::groups(&is_view) {
            let runs = calls[group].iter().map(|(name, args)| async move {
                let r = self.run_method(name, args, audience).await;
                many::Outcome::of(r.map_err(Stop::into_error))
            });
            results.extend(many::join_all(runs.collect()).await);
        }
        many::result(&many::Answered { results })
    }

    /// An app tool's call: the engine's steps, then the call sent and the
    /// node's answer explained.
    async fn call_method(
        &self,
        name: &str,
        args: &Map<String, Value>,
        audience: Audience,
    ) -> Result<CallToolResult, McpError> {
        match self.run_method(name, args, audience).await {
            Ok(r) => Ok(r),
            Err(Stop::Protocol(e, _)) => Err(e),
            Err(Stop::Answer(r)) => Ok(r.0),
        }
    }

    /// [`Connection::call_method`]'s work; a failure with its [`Error`]
    /// (what `call_many` answers for each call).
    pub(super) async fn run_method(
        &self,
        name: &str,
        args: &Map<String, Value>,
        audience: Audience,
    ) -> Result<CallToolResult, Stop> {
        let call = self.prepare_call(name, args, false, audience).await?;
        let client = self
            .node(&call.tool.name, audience)
            .map_err(|e| Stop::answer(error_result(&e), e))?;
        let app = &call.view.catalog.apps[call.tool.app];
        log::debug!(
            "{} → execute {} in {}",
            call.tool.name,
            call.prepared.method,
            call.bound.target.id
        );
        match client.execute(&call.bound, app, &call.prepared, None).await {
            Ok(output) => Ok(self.ran(&call, output)),
            Err(e) => Err(Stop::answer(node_error_result(&e), e)),
        }
    }

    /// The answer of a call that ran: its output, then what the engine
    /// says besides it (the context moved to its group's version on this
    /// call). A move is announced to the clients as the node's
    /// `AppVersionChanged` would be: the contexts' versions changed.
    fn ran(&self, call: &AppCall, output: Value) -> CallToolResult {
        let mut result = success(&call.view, &call.tool, output);
        for remark in call.bound.remarks() {
            result.content.push(ContentBlock::text(format!(
                "note: {}",
                sanitize_line(&remark)
            )));
        }
        if call.bound.moves() {
            self.live.version_moved(&call.bound.target.id);
        }
        result
    }

    /// The engine's steps for app tool `name` ([`calimcp_catalog::call`]):
    /// located (the node read again for a name it does not know yet), bound
    /// to its context (`_context`, the session's pin, the only context, the
    /// `default` alias), taken as the version that context runs, refused
    /// when that version's kind does not allow the use (`--read-only`,
    /// `repeated` by call_until), and its arguments checked with that
    /// version's ABI.
    ///
    /// A context that is not the app's by what the server last read
    /// (`unknown_context`, `foreign_context`) may run a version or an app
    /// installed since: the node is read again (paced as every request's
    /// re-read, [`super::reread`]) and the steps run once more on what it
    /// says, as `calimcp call`, which reads the node afresh, would.
    async fn prepare_call(
        &self,
        name: &str,
        args: &Map<String, Value>,
        repeated: bool,
        audience: Audience,
    ) -> Result<AppCall, Stop> {
        let view = self.located(name).await?;
        let stale = match self
            .prepare_in(&view, name, args, repeated, audience)
            .await?
        {
            Prep::Ready(call) => return Ok(*call),
            Prep::Stale(e) => e,
        };
        if self.live.has_node() {
            self.live.refresh().await;
            let again = self.live.view();
            if !Arc::ptr_eq(&again, &view) {
                return match self
                    .prepare_in(&again, name, args, repeated, audience)
                    .await?
                {
                    Prep::Ready(call) => Ok(*call),
                    Prep::Stale(e) => Err(Stop::answer(node_error_result(&e), e)),
                };
            }
        }
        Err(Stop::answer(node_error_result(&stale), stale))
    }

    /// [`Connection::prepare_call`]'s steps on `view`.
    async fn prepare_in(
        &self,
        view: &Arc<View>,
        name: &str,
        args: &Map<String, Value>,
        repeated: bool,
        audience: Audience,
    ) -> Result<Prep, Stop> {
        let view = Arc::clone(view);
        let tool = match view.lookup(name, &self.live.scope) {
            Lookup::Found(t) => t.clone(),
            Lookup::Refused(why) => {
                // Refused by the server's flags, as `call --read-only` refuses (`usage`).
                return Err(Stop::protocol(Error::input(Code::Usage, why)));
            }
            Lookup::Unknown => return Err(Stop::protocol(unknown_tool(&view, name))),
        };
        let arguments = Value::Object(args.clone());
        let prepared = view
            .catalog
            .prepare(&tool, &arguments)
            .map_err(|problems| invalid_arguments(&tool, &tool.signature, None, problems))?;
        if let Err(offline) = self.node(&tool.name, audience) {
            // Still refused by kind: a read-only server never runs a [mut] tool.
            check_use(
                &tool,
                Use {
                    repeated,
                    read_only: false,
                },
                audience,
                "",
            )
            .map_err(Stop::error)?;
            return Err(Stop::error(offline));
        }
        let app = &view.catalog.apps[tool.app];
        let typed = prepared.context.as_deref();
        let pinned = self
            .catalog()
            .call_pin(typed, Some(&self.chosen), app, tool.service.as_deref())
            .map_err(Stop::error)?;
        let ask = Ask::call(typed, pinned.as_deref());
        let bound = match self
            .catalog()
            .binding(&view.catalog, &tool, ask, audience)
            .await
        {
            Ok(bound) => bound,
            Err(e) if matches!(e.code, Code::UnknownContext | Code::ForeignContext) => {
                return Ok(Prep::Stale(e));
            }
            Err(e) => return Err(Stop::answer(node_error_result(&e), e)),
        };
        // The context may run an install the view does not list yet.
        self.live.saw_application(&bound.target.info.application_id);
        let read_only = self.live.scope.filter.read_only;
        let kind = |u| bound.check_use(&tool, u);
        kind(Use {
            repeated: false,
            read_only,
        })
        .map_err(Stop::protocol)?;
        kind(Use {
            repeated,
            read_only: false,
        })
        .map_err(Stop::error)?;
        let prepared = match bound.version() {
            Some(_) => versioned(&bound, &view, &tool, &arguments)?,
            None => prepared,
        };
        Ok(Prep::Ready(Box::new(AppCall {
            view,
            tool,
            bound,
            prepared,
        })))
    }

    /// The contexts resource of `app` (`…/contexts`), or one context of it.
    async fn contexts_resource(
        &self,
        uri: &str,
        target: &resources::Target,
        view: &View,
        app: usize,
    ) -> Result<Value, McpError> {
        let not_found = |what: String| {
            McpError::resource_not_found(format!("resource `{}`: {what}", sanitize_line(uri)), None)
        };
        let a = &view.catalog.apps[app];
        if let Some(s) = target.service.as_deref()
            && a.service(Some(s)).is_none()
        {
            return Err(not_found(format!(
                "`{}` has no service `{}`",
                sanitize_line(a.package_or_id()),
                sanitize_line(s)
            )));
        }
        let Some(client) = self.client() else {
            return Err(not_found(
                "contexts live on the node, and the server runs with --offline".into(),
            ));
        };
        let rows = client
            .app_contexts(a, target.service.as_deref())
            .await
            .map_err(|e| {
                McpError::internal_error(
                    format!(
                        "resource `{}`: cannot read the contexts: {}",
                        sanitize_line(uri),
                        error_text(&e)
                    ),
                    None,
                )
            })?;
        let Some(c) = target.context.as_deref() else {
            return Ok(json!({ "app": resources::app_key(view, app), "contexts": rows }));
        };
        match resources::find_context(&rows, c) {
            Some(row) => Ok(serde_json::to_value(row).unwrap_or_default()),
            None => {
                let known = resources::context_values(&rows);
                Err(not_found(format!(
                    "`{}` has no context `{}`; its contexts: {}",
                    sanitize_line(a.package_or_id()),
                    sanitize_line(c),
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        sanitize_line(&known.join(", "))
                    }
                )))
            }
        }
    }

    /// Completion values of the `context` variable: the contexts (ids and
    /// aliases) of the chosen app, from the node.
    async fn complete_context(
        &self,
        app: Option<String>,
        service: Option<String>,
        prefix: &str,
    ) -> (Vec<String>, usize) {
        let rows = match (app, self.client()) {
            (Some(app), Some(client)) => match self.app_for_uri(&app).await {
                Ok((view, i)) => client
                    .app_contexts(&view.catalog.apps[i], service.as_deref())
                    .await
                    .unwrap_or_default(),
                Err(_) => Vec::new(),
            },
            _ => Vec::new(),
        };
        resources::matching(resources::context_values(&rows), prefix)
    }

    /// Completion values of the `app` variable; an unknown prefix reads
    /// the node again (maybe an app installed since the last read).
    async fn complete_app(&self, prefix: &str) -> (Vec<String>, usize) {
        let (values, total) = resources::complete_app(&self.live.view(), prefix);
        if values.is_empty() && self.live.has_node() && !prefix.is_empty() {
            self.live.refresh().await;
            return resources::complete_app(&self.live.view(), prefix);
        }
        (values, total)
    }

    /// The view that knows tool `name`: the current one, else (maybe an app
    /// installed since the last read) the node's apps read again.
    async fn located(&self, name: &str) -> Result<Arc<View>, Stop> {
        let view = self.live.view();
        if matches!(view.lookup(name, &self.live.scope), Lookup::Unknown) && self.live.has_node() {
            self.live.refresh().await;
            return Ok(self.live.view());
        }
        Ok(view)
    }
}

/// The arguments checked and converted with the ABI of the version the
/// bound context runs.
fn versioned(bound: &Bound, view: &View, tool: &Tool, arguments: &Value) -> Result<Prepared, Stop> {
    bound
        .prepare(&view.catalog, tool, arguments)
        .map_err(|problems| {
            let (vcat, vtool) = bound
                .version()
                .map_or((&view.catalog, tool), |(c, t)| (c, t));
            let version = vcat.apps[0].version.as_deref().unwrap_or("?");
            let at = Some((version, bound.target.id.as_str()));
            invalid_arguments(tool, &vtool.signature, at, problems)
        })
}

/// What the steps of a call made of it on one view.
enum Prep {
    Ready(Box<AppCall>),
    /// Its context is not the app's by that view (`unknown_context`,
    /// `foreign_context`): maybe the view is older than the context.
    Stale(Error),
}

/// An app tool's call, ready to send: the engine's steps done.
struct AppCall {
    view: Arc<View>,
    /// The tool as listed.
    tool: Tool,
    bound: Bound,
    prepared: Prepared,
}

impl Stop {
    fn answer(r: CallToolResult, e: Error) -> Stop {
        Stop::Answer(Box::new((r, e)))
    }

    /// An answer with `e`'s text.
    fn error(e: Error) -> Stop {
        Stop::answer(error_result(&e), e)
    }

    /// A protocol error with `e`'s message.
    fn protocol(e: Error) -> Stop {
        Stop::Protocol(
            McpError::invalid_params(e.message.clone(), None),
            Box::new(e),
        )
    }

    /// The error this stop is about, as `call_many` answers it.
    pub(super) fn into_error(self) -> Error {
        match self {
            Stop::Protocol(_, e) => *e,
            Stop::Answer(r) => r.1,
        }
    }
}

/// Why an app tool's call stops (before it is sent, or the node's failure):
/// a protocol error (an unknown or refused tool), or an answer saying why;
/// each with the error it is about.
pub(super) enum Stop {
    Protocol(McpError, Box<Error>),
    Answer(Box<(CallToolResult, Error)>),
}

/// Bad arguments of `tool`; `at`: the version and context whose ABI the
/// tool comes from, when not the listed one.
fn invalid_arguments(
    tool: &Tool,
    signature: &str,
    at: Option<(&str, &str)>,
    problems: Vec<Problem>,
) -> Stop {
    let lines: Vec<String> = problems.iter().map(|p| format!("  - {p}")).collect();
    let from = match at {
        Some((version, context)) => format!(
            ", as version {} of the app has it, which context {} runs",
            sanitize_line(version),
            sanitize_line(context)
        ),
        None => String::new(),
    };
    let text = format!(
        "Invalid arguments for {} ({signature}{from}):\n{}",
        tool.name,
        lines.join("\n")
    );
    let mut e = Error::input(
        Code::InvalidArguments,
        format!("invalid arguments for {} ({signature}{from})", tool.name),
    );
    e.problems = problems;
    Stop::answer(failure(text, &e), e)
}

/// The result of a method that ran: the compact JSON of its output, and
/// `structuredContent` `{"result": …}` when the tool declares an output schema.
fn success(view: &View, tool: &Tool, output: Value) -> CallToolResult {
    let text = compact(&output);
    let Some(validator) = view.output_validator(tool) else {
        return CallToolResult::success(vec![ContentBlock::text(text)]);
    };
    let structured = json!({ "result": calimcp_core::mapping::exact::result(&tool.manifest, tool.abi_method(), output) });
    let problems: Vec<String> = validator
        .iter_errors(&structured)
        .take(5)
        .map(|e| {
            let at = e.instance_path().to_string();
            let at = at.strip_prefix("/result").unwrap_or(&at).to_string();
            format!(
                "  - {}{}",
                if at.is_empty() {
                    String::new()
                } else {
                    format!("{at}: ")
                },
                sanitize_line(&e.to_string())
            )
        })
        .collect();
    if !problems.is_empty() {
        // Clients check structuredContent against the advertised schema; an
        // answer that does not match is reported, never passed off as valid.
        let e = Error::new(
            ErrorKind::Remote,
            Code::UnexpectedResponse,
            format!(
                "{} ran, but its output does not match the declared return type ({}):\n{}\noutput: {text}",
                tool.name,
                tool.signature,
                problems.join("\n")
            ),
        );
        return error_result(&e);
    }
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    result
}

fn unknown_tool(view: &View, name: &str) -> Error {
    let mut names: Vec<&str> = view
        .listed
        .iter()
        .map(|&i| view.catalog.tools.tools[i].name.as_str())
        .collect();
    names.extend(fixed::NAMES);
    names.extend(lc::NAMES);
    names.extend(super::blobs::NAMES);
    let shown = sanitize_line(name);
    let suffix = format!("_{name}");
    let ending: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.ends_with(&suffix))
        .take(3)
        .collect();
    let close = if ending.is_empty() {
        did_you_mean(name, names.iter().copied())
    } else {
        ending
    };
    let message = match close.first() {
        Some(s) => format!("unknown tool `{shown}`; did you mean `{s}`?"),
        None => format!(
            "unknown tool `{shown}`; see tools/list ({} tools)",
            names.len()
        ),
    };
    Error::input(Code::UnknownTool, message)
}

impl Connection {
    /// A lifecycle tool ([`super::lifecycle`]): the catalog's engine, as the
    /// CLI's `app` and `context` commands run it; then the node is read again.
    async fn lifecycle_call(&self, name: &str, args: &Map<String, Value>) -> CallToolResult {
        if let Err(e) = self.catalog().node(name) {
            return error_result(&e);
        }
        let step = match name {
            lc::INSTALL_APPLICATION => self.install_application(args).await,
            lc::UNINSTALL_APPLICATION => self.uninstall_application(args).await,
            lc::CREATE_CONTEXT => self.create_context(args).await,
            lc::INVITE_TO_CONTEXT => self.invite_to_context(args).await,
            lc::JOIN_CONTEXT => self.join_context(args).await,
            lc::DELETE_CONTEXT => self.delete_context(args).await,
            lc::SET_ALIAS => self.set_alias(args).await,
            lc::UPGRADE_APP => self.upgrade_app(args).await,
            _ => self.remove_alias(args).await,
        };
        match step {
            Ok(result) => self.finish(result).await,
            Err(answer) => *answer,
        }
    }

    /// The installed app `app` names (`APP`, `APP@VERSION` or an id) and the
    /// version it names.
    async fn installed(&self, app: &str) -> Lifecycle<(calimcp_core::abi::App, Option<String>)> {
        let (name, version) = calimcp_catalog::lifecycle::app_and_version(app);
        match self.resolve_app(&name).await {
            Ok((view, i)) => Ok((view.catalog.apps[i].clone(), version)),
            Err(e) => Err(Box::new(error_result(&e))),
        }
    }

    async fn install_application(&self, args: &Map<String, Value>) -> Step {
        use calimcp_catalog::lifecycle::Source;
        let a: lc::InstallArgs = parsed(lc::INSTALL_APPLICATION, args)?;
        let source = match Source::parse(&a.source) {
            Source::Path(p) => {
                let dir = self.live.scope.install_from.as_deref();
                Source::Path(lc::inside(dir, &p).map_err(|t| Box::new(refusal(t)))?)
            }
            Source::Url(u) => {
                lc::https_only(lc::INSTALL_APPLICATION, &u).map_err(|t| Box::new(refusal(t)))?;
                Source::Url(u)
            }
            s => s,
        };
        let done = self
            .catalog()
            .install_app(&source, a.package.as_deref(), a.version.as_deref(), None)
            .await;
        Ok(done.and_then(to_value))
    }

    async fn upgrade_app(&self, args: &Map<String, Value>) -> Step {
        let a = parsed(lc::UPGRADE_APP, args)?;
        let dir = self.live.scope.install_from.as_deref();
        super::upgrade::run(self.catalog(), dir, a).await
    }

    async fn uninstall_application(&self, args: &Map<String, Value>) -> Step {
        let a: lc::UninstallArgs = parsed(lc::UNINSTALL_APPLICATION, args)?;
        let (app, version) = self.installed(&a.app).await?;
        let done = self
            .catalog()
            .uninstall_app(&app, version.as_deref(), a.force.unwrap_or(false))
            .await;
        Ok(done.and_then(to_value))
    }

    async fn create_context(&self, args: &Map<String, Value>) -> Step {
        let a: lc::CreateArgs = parsed(lc::CREATE_CONTEXT, args)?;
        let (app, version) = self.installed(&a.app).await?;
        alias_ok(a.alias.as_deref())?;
        let req = calimcp_catalog::lifecycle::CreateRequest {
            args: a.args.unwrap_or_default(),
            name: a.name,
            alias: a.alias,
            namespace: a.namespace,
            service: a.service.or_else(|| self.live.scope.service.clone()),
            version,
        };
        Ok(self
            .catalog()
            .create_context(&app, &req)
            .await
            .and_then(to_value))
    }

    /// The invitation, answered as it is: nothing changed on the node.
    async fn invite_to_context(&self, args: &Map<String, Value>) -> Step {
        let a: lc::ContextArgs = parsed(lc::INVITE_TO_CONTEXT, args)?;
        Err(Box::new(match self.catalog().invite(&a.context).await {
            Ok(v) => json_result(&v),
            Err(e) => node_error_result(&e),
        }))
    }

    async fn join_context(&self, args: &Map<String, Value>) -> Step {
        let a: lc::JoinArgs = parsed(lc::JOIN_CONTEXT, args)?;
        alias_ok(a.alias.as_deref())?;
        let mut progress = |stage: &str| log::info!("join_context: {stage}");
        let within = lc::JOIN_WITHIN;
        let done = self
            .catalog()
            .join(&a.invitation, a.alias.as_deref(), within, &mut progress)
            .await;
        Ok(done.and_then(to_value))
    }

    async fn delete_context(&self, args: &Map<String, Value>) -> Step {
        let a: lc::ContextArgs = parsed(lc::DELETE_CONTEXT, args)?;
        Ok(self
            .catalog()
            .delete_context(&a.context)
            .await
            .and_then(to_value))
    }

    async fn set_alias(&self, args: &Map<String, Value>) -> Step {
        let a: lc::SetAliasArgs = parsed(lc::SET_ALIAS, args)?;
        let done = self.catalog().set_alias(&a.alias, &a.context).await;
        Ok(done.and_then(to_value))
    }

    async fn remove_alias(&self, args: &Map<String, Value>) -> Step {
        let a: lc::RemoveAliasArgs = parsed(lc::REMOVE_ALIAS, args)?;
        Ok(self
            .catalog()
            .remove_alias(&a.alias)
            .await
            .and_then(to_value))
    }

    /// A blob tool ([`super::blobs`]): the catalog's engine, as `calimcp
    /// blob` runs it.
    async fn blob_call(&self, name: &str, args: &Map<String, Value>) -> CallToolResult {
        if let Err(e) = self.catalog().node(name) {
            return error_result(&e);
        }
        match super::blobs::call(self.catalog(), name, args).await {
            Err(text) => refusal(text),
            Ok(Ok(v)) => json_result(&v),
            Ok(Err(e)) => node_error_result(&e),
        }
    }

    /// A lifecycle tool's answer; after a change the node is read again
    /// (and `list_changed` announced).
    async fn finish(&self, result: Result<Value, Error>) -> CallToolResult {
        match result {
            Ok(v) => {
                self.live.reread_now().await;
                json_result(&v)
            }
            Err(e) => node_error_result(&e),
        }
    }
}

/// A lifecycle tool's step: `Ok` with what the node did (the answer comes
/// after the node is read again), or `Err` with the answer already (a
/// refusal before anything is sent, or a reading that changes nothing).
type Step = Lifecycle<Result<Value, Error>>;

/// A part of a lifecycle tool's step, or the answer already.
type Lifecycle<T> = std::result::Result<T, Box<CallToolResult>>;

/// The arguments of lifecycle tool `name`, or the agent-worded refusal.
fn parsed<T: serde::de::DeserializeOwned>(name: &str, args: &Map<String, Value>) -> Lifecycle<T> {
    lc::parse::<T>(name, args).map_err(|t| Box::new(refusal(t)))
}

/// An alias checked before anything is sent.
fn alias_ok(alias: Option<&str>) -> Lifecycle<()> {
    match alias.map(calimcp_catalog::lifecycle::check_alias) {
        Some(Err(e)) => Err(Box::new(error_result(&e))),
        _ => Ok(()),
    }
}

/// A serializable answer as JSON.
fn to_value(v: impl serde::Serialize) -> Result<Value, Error> {
    serde_json::to_value(v).map_err(|e| Error::internal(e.to_string()))
}

/// An error message with its hint, as an agent reads it.
pub(crate) fn error_text(e: &Error) -> String {
    match &e.hint {
        Some(h) => format!("{}\nhint: {h}", e.message),
        None => e.message.clone(),
    }
}

/// A failed call on the node: the error's text, its stable code (as the
/// CLI's `--json` prints it), then whether trying again may succeed
/// (`retryable: true` for a group key not yet delivered, an upgrade in
/// progress, a node that answered 503 or did not answer).
fn node_error_result(e: &Error) -> CallToolResult {
    failure(
        format!(
            "{}\ncode: {}\nretryable: {}",
            error_text(e),
            e.code,
            e.retryable
        ),
        e,
    )
}

/// A failed tool call with `e`'s text ([`error_text`]).
fn error_result(e: &Error) -> CallToolResult {
    failure(error_text(e), e)
}

/// A tool call refused for its arguments (`invalid_arguments`), in `text`'s words.
pub(crate) fn refusal(text: String) -> CallToolResult {
    error_result(&Error::input(Code::InvalidArguments, text))
}

/// Every failed tool call's answer: `text` for clients that read text, and
/// as `structuredContent` the error the CLI prints with `--json`
/// (`{"error": {code, message, hint?, retryable, …}}`, [`ErrorLine`]), which
/// every tool's output schema admits
/// ([`calimcp_core::mapping::schema::error_shape`]).
pub(crate) fn failure(text: String, e: &Error) -> CallToolResult {
    let mut r = CallToolResult::error(vec![ContentBlock::text(text)]);
    r.structured_content = serde_json::to_value(ErrorLine::new(e)).ok();
    r
}

/// A `resources/read` answer, every resource's (`ui://` included) from
/// here: `result` (`{"contents": …}`) with `resultType` as every result has
/// it under 2026-07-28 (rmcp strips it for peers of earlier revisions, and
/// fills the caching hints).
fn read_result(mut result: Value) -> Result<ReadResourceResponse, McpError> {
    result["resultType"] = json!("complete");
    let result: ReadResourceResult = from_json(result)?;
    Ok(result.into())
}

/// An rmcp model value from its JSON.
fn from_json<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, McpError> {
    serde_json::from_value(v).map_err(|e| McpError::internal_error(e.to_string(), None))
}

/// A fixed tool's answer: the JSON as text and, an object, as
/// `structuredContent` (the same value, for clients that read that).
fn json_result(v: &impl serde::Serialize) -> CallToolResult {
    let v = serde_json::to_value(v).unwrap_or_default();
    let text = serde_json::to_string_pretty(&v).unwrap_or_else(|_| "null".into());
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    if v.is_object() {
        r.structured_content = Some(v);
    }
    r
}

/// Server info and capabilities.
pub(crate) fn info() -> ServerConfig {
    ServerConfig::new(
        ServerCapabilities::builder()
            .enable_completions()
            .enable_resources()
            .enable_resources_list_changed()
            .enable_tools()
            .enable_tool_list_changed()
            .build(),
    )
    .with_server_info(
        Implementation::new("calimcp", env!("CARGO_PKG_VERSION")).with_title("calimcp"),
    )
    .with_instructions(INSTRUCTIONS)
}

impl ServerHandler for Connection {
    fn get_info(&self) -> ServerConfig {
        // Apps the node has but this server cannot serve: an agent never sees
        // stderr, so it is told here (and by describe_app); so is where the
        // node was found when none was given.
        let left_out = fixed::left_out(&self.live.view());
        let settings = &self.catalog().settings;
        let found = match &settings.node_source {
            Some(source) if settings.node.is_some() => format!(
                " The node ({}) was found from {source}.",
                calimcp_catalog::accounts::normalize_url(&settings.node_url)
                    .map(|(_, shown)| sanitize_line(&shown))
                    .unwrap_or_default()
            ),
            _ => String::new(),
        };
        if left_out.is_empty() && found.is_empty() {
            return info();
        }
        let list: Vec<String> = left_out
            .iter()
            .map(|v| format!("{} ({})", v.app, v.reason))
            .collect();
        let not_served = if list.is_empty() {
            String::new()
        } else {
            format!(
                " Not served (the node has them, but calimcp cannot read their ABI): {}.",
                sanitize_line(&list.join("; "))
            )
        };
        info().with_instructions(format!("{INSTRUCTIONS}{found}{not_served}"))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        self.live.wait_ready().await;
        // The previous page's schemas are garbage by now.
        calimcp_core::memory::release_freed_memory();
        let cursor = request.and_then(|r| r.cursor);
        let (tools, next) = self
            .live
            .view()
            .mcp_page(cursor.as_deref())
            .map_err(|e| McpError::invalid_params(e, None))?;
        let mut tools = tools;
        tools.retain(|t| fixed::refused(&self.live.scope, &t.name).is_none());
        let mut result = ListToolsResult::with_all_items(tools);
        result.next_cursor = next;
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<McpTool> {
        if fixed::refused(&self.live.scope, name).is_some() {
            return None;
        }
        self.live.view().mcp_tool(name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if let Some(why) = fixed::refused(&self.live.scope, &request.name) {
            return Err(McpError::invalid_params(why, None));
        }
        let args = request.arguments.unwrap_or_default();
        // The engine words its errors for an agent, and says to pin with
        // select_app only where a session keeps pins.
        let audience = Audience::Agent {
            pins: !sessionless(&context),
        };
        let work = async {
            Ok::<_, McpError>(match request.name.as_ref() {
                DESCRIBE_APP => self.describe_app(&args).await,
                SELECT_APP => self.select_app(&args, audience).await,
                WAIT_FOR_EVENTS => self.wait_for_events(&args, audience).await,
                WAIT_FOR_CONTEXT => self.wait_for_context(&args, audience).await,
                CALL_UNTIL => self.call_until(&args, audience).await?,
                CALL_MANY => self.call_many(&args, audience).await,
                name if lc::NAMES.contains(&name) => self.lifecycle_call(name, &args).await,
                name if super::blobs::NAMES.contains(&name) => self.blob_call(name, &args).await,
                name => self.call_method(name, &args, audience).await?,
            })
        };
        // A W3C traceparent in the request's _meta goes with every node
        // request the call makes.
        let trace = context
            .meta
            .get_traceparent()
            .and_then(|tp| Trace::parse(tp, context.meta.get_tracestate()));
        let work = calimcp_catalog::trace::within(trace, work);
        // On notifications/cancelled rmcp drops the answer; stopping the work
        // as well drops the node request with it instead of holding a
        // connection open until --timeout.
        tokio::select! {
            result = work => result.map(Into::into),
            () = context.ct.cancelled() => {
                log::info!("a tools/call was cancelled by the client; its node request is dropped");
                Err(McpError::internal_error("cancelled by the client", None))
            }
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        self.live.wait_ready().await;
        let view = self.live.view();
        view.mark_listed();
        let mut list = resources::list(&view);
        list.push(super::pages::ui_entry());
        let list = from_json(Value::Array(list))?;
        Ok(ListResourcesResult::with_all_items(list))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        let list = from_json(Value::Array(resources::templates()))?;
        Ok(ListResourceTemplatesResult::with_all_items(list))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri;
        if uri == super::pages::UI_URI {
            self.live.wait_ready().await;
            return read_result(super::pages::ui_contents(&self.live.view()));
        }
        let target = resources::parse(&uri).map_err(|m| McpError::resource_not_found(m, None))?;
        self.live.wait_ready().await;
        let not_found = |e: &Error| {
            McpError::resource_not_found(
                format!("resource `{}`: {}", sanitize_line(&uri), error_text(e)),
                None,
            )
        };
        let (view, app) = self
            .app_for_uri(&target.app)
            .await
            .map_err(|e| not_found(&e))?;
        let value = match target.kind {
            Kind::Guide => {
                return read_result(
                    resources::guide_contents(&view, app, &uri, target.version.as_deref())
                        .map_err(|m| {
                            McpError::resource_not_found(
                                format!("resource `{}`: {m}", sanitize_line(&uri)),
                                None,
                            )
                        })?,
                );
            }
            Kind::Abi => resources::abi(&view, app, target.service.as_deref()).map_err(|m| {
                McpError::resource_not_found(
                    format!("resource `{}`: {m}", sanitize_line(&uri)),
                    None,
                )
            })?,
            Kind::Contexts | Kind::Context => {
                self.contexts_resource(&uri, &target, &view, app).await?
            }
        };
        let text = serde_json::to_string_pretty(&value).unwrap_or_else(|_| "null".into());
        read_result(json!({
            "contents": [{ "uri": uri, "mimeType": "application/json", "text": text }]
        }))
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        let template = match &request.r#ref {
            Reference::Resource(r) => r.uri.clone(),
            other => {
                return Err(McpError::invalid_params(
                    format!(
                        "calimcp has no prompts: it completes the variables of its resource templates ({}), not `{}`",
                        resources::TEMPLATES.join(", "),
                        other.reference_type()
                    ),
                    None,
                ));
            }
        };
        if !resources::TEMPLATES.contains(&template.as_str()) {
            return Err(McpError::invalid_params(
                format!(
                    "unknown resource template `{}`; see resources/templates/list",
                    sanitize_line(&template)
                ),
                None,
            ));
        }
        self.live.wait_ready().await;
        let chosen = |name: &str| {
            request
                .context
                .as_ref()
                .and_then(|c| c.get_argument(name))
                .cloned()
        };
        let prefix = request.argument.value.as_str();
        let (values, total) = match request.argument.name.as_str() {
            "app" => self.complete_app(prefix).await,
            "version" if template == resources::GUIDE_TEMPLATE => {
                resources::complete_version(&self.live.view(), chosen("app").as_deref(), prefix)
            }
            "service"
                if template != resources::CONTEXT_TEMPLATE
                    && template != resources::GUIDE_TEMPLATE =>
            {
                resources::complete_service(&self.live.view(), chosen("app").as_deref(), prefix)
            }
            "context" if template == resources::CONTEXT_TEMPLATE => {
                self.complete_context(chosen("app"), chosen("service"), prefix)
                    .await
            }
            other => {
                return Err(McpError::invalid_params(
                    format!(
                        "`{}` is not a variable of {template}; its variables: {}",
                        sanitize_line(other),
                        if template == resources::CONTEXT_TEMPLATE {
                            "app, context"
                        } else if template == resources::GUIDE_TEMPLATE {
                            "app, version"
                        } else {
                            "app, service"
                        }
                    ),
                    None,
                ));
            }
        };
        let result: CompleteResult = from_json(json!({
            "resultType": "complete",
            "completion": {
                "values": values,
                "total": total,
                "hasMore": total > values.len(),
            }
        }))?;
        Ok(result)
    }

    /// A standard request whose params do not fit reaches here as a custom
    /// one: −32602 saying why, not "method not found".
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, McpError> {
        let method = sanitize_line(&request.method);
        match super::stdio::malformed_params(&request.method, request.params) {
            Some(why) => Err(McpError::invalid_params(
                format!("Invalid params for `{method}`: {why}"),
                None,
            )),
            None => Err(not_found(&method)),
        }
    }

    // rmcp's own answers to these name the method alone.
    #[allow(deprecated)]
    async fn set_level(
        &self,
        _request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        Err(not_found("logging/setLevel"))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListPromptsResult, McpError> {
        Err(not_found("prompts/list"))
    }

    async fn get_prompt(
        &self,
        _request: rmcp::model::GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetPromptResponse, McpError> {
        Err(not_found("prompts/get"))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.live.subscribe_peer(context.peer.clone());
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.supported_by(&info().capabilities))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), McpError> {
        let accepted = context.accepted();
        if accepted.tools_list_changed == Some(true)
            || accepted.resources_list_changed == Some(true)
        {
            let key = self.live.subscribe_sink(context.sink().clone());
            self.until_ended(&context).await;
            self.live.unsubscribe_sink(key);
        } else {
            self.until_ended(&context).await;
        }
        // Ok after a teardown sends the final result; after a cancellation
        // rmcp sends nothing, as the revision says.
        Ok(())
    }
}
