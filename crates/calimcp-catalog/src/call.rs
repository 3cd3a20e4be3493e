//! The call pipeline, one for both faces: `calimcp call` and the server's
//! `tools/call`, `call_until` and `select_app` take the same steps in the
//! same order, so the CLI and an agent get the same outcome on the same node.
//!
//! 1. **Bind** ([`bind`]): the context the call runs in — the one typed (an
//!    id or an alias), else the pinned one, else the app's only context, else
//!    the one aliased `default` — checked to run the app
//!    ([`super::context`]); a context that is not the app's is an error
//!    carrying the app's contexts as data.
//! 2. **Version** ([`super::version`]): the tool as the version that context
//!    runs has it. Every decision that depends on the method is taken from
//!    THAT tool, never from the listed one (named and described from the
//!    newest version): its kind, the read-only and repeat refusals
//!    ([`Bound::check_use`]) and whether a failed try may be retried
//!    ([`Bound::may_retry`]).
//! 3. **Check** ([`Bound::prepare`]): the arguments, with that version's ABI.
//! 4. **Execute and explain** ([`Bound::execute`]): the node's answer, with
//!    what more the node can say about a context that was not usable, and the
//!    context named as the caller typed it.
//!
//! A context named without an app (`calimcp wait`, MCP `wait_for_context`)
//! is bound by the same step without the app check ([`bind_named`]).
//!
//! Errors are worded for who reads them ([`Audience`]): flags for a CLI user,
//! `_context` and `select_app` for an agent.

use std::time::Duration;

use serde_json::Value;

use super::Catalog;
use super::context::{self, Target, explain_context_error};
use super::invoke::Prepared;
use calimcp_core::abi::App;
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::mapping::args::Problem;
use calimcp_core::mapping::{Tool, ToolOptions};
use calimcp_core::text::sanitize_line;
use calimcp_node::Client;
use calimcp_node::ids::{self, error_as_typed};

/// Who reads the errors: the wording of how to choose a context follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// A CLI user: `--context`, `calimcp use`.
    Cli,
    /// An agent: `_context`; `select_app` pins only where a session keeps them.
    Agent { pins: bool },
}

impl Audience {
    /// `e` with the hint of how this audience chooses a context.
    pub fn word(self, mut e: Error) -> Error {
        let Audience::Agent { pins } = self else {
            return e;
        };
        let hint = match (e.code, pins) {
            (Code::Offline, _) => {
                "restart calimcp serve without --offline (with --node URL unless the node is at the default address)"
            }
            (Code::UnknownContext | Code::ForeignContext, true) => {
                "pass one of them as `_context`, or pin one with select_app"
            }
            (Code::UnknownContext | Code::ForeignContext, false) => {
                "pass one of them as `_context` (this connection has no session, so nothing is pinned)"
            }
            (Code::AmbiguousContext, true) => {
                "pass one of them as `_context`, or call select_app with `context` to pin one for this session"
            }
            (Code::AmbiguousContext, false) => {
                "pass one of them as `_context` to each call (this connection has no session, so nothing is pinned)"
            }
            _ => return e,
        };
        e.hint = Some(hint.into());
        e
    }
}

/// Which context a call asks for.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ask<'a> {
    /// The context as typed (`--context`, `_context`): an id or an alias.
    pub typed: Option<&'a str>,
    /// The one pinned (`calimcp use`, `select_app`).
    pub pinned: Option<&'a str>,
    /// Whether the context aliased `default` is taken when the app has several.
    pub default_alias: bool,
}

impl<'a> Ask<'a> {
    /// What a call asks for: the context `typed`, else the `pinned` one
    /// ([`crate::session::Session::call_pin`]), else the app's only context
    /// or the one aliased `default`.
    pub fn call(typed: Option<&'a str>, pinned: Option<&'a str>) -> Ask<'a> {
        Ask {
            typed,
            pinned,
            default_alias: true,
        }
    }

    /// Exactly the context `typed` (`watch -c`, `use`): no pin, no default.
    pub(crate) fn named(typed: &'a str) -> Ask<'a> {
        Ask {
            typed: Some(typed),
            ..Ask::default()
        }
    }

    /// Exactly the `pinned` context (`watch` with a pin and no `-c`).
    pub(crate) fn pinned(pinned: &'a str) -> Ask<'a> {
        Ask {
            pinned: Some(pinned),
            ..Ask::default()
        }
    }
}

/// What a call is used for, so the method's kind can refuse it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Use {
    /// Repeated until its result matches (`--until`, `call_until`).
    pub repeated: bool,
    /// Served read-only (`serve --read-only`).
    pub read_only: bool,
}

/// A call bound to its context, with the tool of the version the context runs.
pub struct Bound {
    pub target: Target,
    /// The context as the caller typed it (errors name it so).
    pub typed: Option<String>,
    /// The tool as the context's version has it, in a catalog of its own,
    /// when it is not the listed tool.
    version: Option<(Catalog, Tool)>,
    audience: Audience,
}

/// Steps 1 and 2: the context `ask` means for `tool`'s app, and the tool as
/// the version that context runs has it.
pub(crate) async fn bind(
    client: &Client,
    catalog: &Catalog,
    tool: &Tool,
    ask: Ask<'_>,
    opts: &ToolOptions,
    audience: Audience,
) -> Result<Bound> {
    let app = &catalog.apps[tool.app];
    let worded = |e| audience.word(error_as_typed(e, ask.typed));
    let target = bind_context(client, app, tool.service.as_deref(), ask)
        .await
        .map_err(worded)?;
    let version = super::version::tool_for_target(client, catalog, tool, &target, opts)
        .await
        .map_err(|e| audience.word(as_typed(e, &target.id, ask.typed)))?;
    Ok(Bound {
        target,
        typed: ask.typed.map(str::to_string),
        version,
        audience,
    })
}

/// The context `ask` means for `app` (its `service`), checked to run it. A
/// context that is not the app's (`unknown_context`, `foreign_context`) is an
/// error carrying the app's contexts ([`Error::contexts`]), as
/// `ambiguous_context` carries them. Also what `watch -c` and `use` bind with.
pub(crate) async fn bind_context(
    client: &Client,
    app: &App,
    service: Option<&str>,
    ask: Ask<'_>,
) -> Result<Target> {
    let found = context::resolve_context(
        client,
        app,
        service,
        ask.typed,
        ask.pinned,
        ask.default_alias,
    )
    .await;
    match found {
        Err(e)
            if matches!(e.code, Code::UnknownContext | Code::ForeignContext)
                && e.contexts.is_empty() =>
        {
            let aliases = client.known_context_aliases().await;
            match context::context_rows(client, app, service, &aliases).await {
                Ok(rows) => Err(e.with_contexts(rows)),
                Err(_) => Err(e),
            }
        }
        other => other,
    }
}

/// The bind step for a context named without an app (`calimcp wait`, MCP
/// `wait_for_context`): an id as is, else an alias looked up on the node,
/// and what the node says of it; no app to check it against.
pub(crate) async fn bind_named(client: &Client, value: &str) -> Result<Target> {
    let id = if context::looks_like_context_id(value) {
        client.node_id(value)
    } else {
        match client.lookup_context_alias(value).await? {
            Some(id) => id,
            None => {
                return Err(Error::input(
                    Code::UnknownContext,
                    format!(
                        "context `{}` is neither a context id nor an alias on the node at {}",
                        sanitize_line(value),
                        client.url()
                    ),
                )
                .with_hint("a context id is 64 hex characters or base58 of 32 bytes; `calimcp contexts` lists the node's contexts with their aliases"));
            }
        }
    };
    match client.context(&id).await? {
        Some(info) => Ok(Target {
            id: client.node_id(&info.id),
            info,
        }),
        // The same error (and exit 2) as `call` gives for a context not on the node.
        None => Err(Error::input(
            Code::UnknownContext,
            format!(
                "context {} is not on the node at {} (it has not joined it)",
                sanitize_line(value),
                client.url()
            ),
        )
        .with_hint("join the context on this node first (meroctl namespace join / group join-context), then wait for it")),
    }
}

/// The contexts of `app` (its `service`) as rows with their aliases and
/// versions ([`context::context_rows`]), for `describe_app` and resources.
pub(crate) async fn app_contexts(
    client: &Client,
    app: &App,
    service: Option<&str>,
) -> Result<Vec<context::ContextRow>> {
    let aliases = client.known_context_aliases().await;
    context::context_rows(client, app, service, &aliases).await
}

/// `e` naming context `id` as the caller typed it: an id in the form typed
/// ([`error_as_typed`]), an alias beside the id it stands for.
pub(crate) fn as_typed(e: Error, id: &str, typed: Option<&str>) -> Error {
    match typed {
        Some(alias) if !calimcp_node::ids::is_id(alias) => {
            e.renamed(id, &format!("{} ({id})", sanitize_line(alias)))
        }
        typed => error_as_typed(e, typed),
    }
}

impl Bound {
    /// The tool as the context's version has it (the listed one when that
    /// version's ABI is the listed tool's).
    pub fn tool<'a>(&'a self, listed: &'a Tool) -> &'a Tool {
        self.version.as_ref().map_or(listed, |(_, t)| t)
    }

    /// The version's catalog and tool, when it is not the listed tool's.
    pub fn version(&self) -> Option<&(Catalog, Tool)> {
        self.version.as_ref()
    }

    /// Whether the call moves its context to another version: the tool
    /// comes from the version the context's group targets (a lazy group
    /// upgrade, applied by the node at this call), not the one it runs.
    pub fn moves(&self) -> bool {
        self.version.as_ref().is_some_and(|(c, _)| {
            c.apps
                .first()
                .is_some_and(|a| !ids::same(&a.id, &self.target.info.application_id))
        })
    }

    /// What the face should say besides the call's answer: what the
    /// version's catalog says (that the context moves on this call).
    pub fn remarks(&self) -> Vec<String> {
        self.version
            .iter()
            .flat_map(|(c, _)| &c.skipped)
            .map(|w| w.message.clone())
            .collect()
    }

    /// The refusals that follow the method's kind in the context's version.
    pub fn check_use(&self, listed: &Tool, u: Use) -> Result<()> {
        let version = self.version.as_ref().map(|(c, _)| {
            let v = c.apps.first().and_then(|a| a.version.as_deref());
            match v {
                Some(v) => format!(
                    " in version {} (the one the context runs)",
                    sanitize_line(v)
                ),
                None => " in the version the context runs".into(),
            }
        });
        check_use(
            self.tool(listed),
            u,
            self.audience,
            version.as_deref().unwrap_or(""),
        )
    }

    /// Whether a failed try may be repeated ([`may_retry`]), by the kind the
    /// method has in the context's version.
    pub(crate) fn may_retry(&self, listed: &Tool, e: &Error) -> bool {
        may_retry(e, self.tool(listed).read_only)
    }

    /// Step 3: `args` checked and converted with the context version's ABI.
    pub fn prepare(
        &self,
        catalog: &Catalog,
        listed: &Tool,
        args: &Value,
    ) -> std::result::Result<Prepared, Vec<Problem>> {
        match &self.version {
            Some((vcat, vtool)) => vcat.prepare(vtool, args),
            None => catalog.prepare(listed, args),
        }
    }

    /// Step 4: the call sent; a failed one explained (the app's contexts when
    /// the context was not usable, the 32-byte form hint, the context named
    /// as typed).
    pub(crate) async fn execute(
        &self,
        client: &Client,
        app: &App,
        prepared: &Prepared,
        executor: Option<&str>,
    ) -> Result<Value> {
        match client
            .execute(
                &self.target.id,
                &prepared.method,
                &prepared.args_json,
                executor,
            )
            .await
        {
            Ok(v) => Ok(v),
            Err(e) => Err(self.explain(client, app, prepared, e).await),
        }
    }

    /// A failed call's error as [`Bound::execute`] gives it.
    pub(crate) async fn explain(
        &self,
        client: &Client,
        app: &App,
        prepared: &Prepared,
        e: Error,
    ) -> Error {
        let service = prepared.service.as_deref();
        let e = self.between_versions(client, app, prepared, e).await;
        let e = explain_context_error(client, app, service, &self.target.id, e).await;
        let e = error_as_typed(e, self.typed.as_deref());
        self.audience.word(prepared.explain(e))
    }

    /// The node's module lacked a method the version the call was built
    /// for has (`method_not_in_module`, which otherwise means the ABI and
    /// the module come from different builds). When the context is between
    /// versions — the call counted on its group's version, or the node now
    /// says it runs another version than when it was bound (a context that
    /// moved back for a while after a group upgrade) — that is what the
    /// error says: nothing ran, and trying again may succeed.
    pub(crate) async fn between_versions(
        &self,
        client: &Client,
        app: &App,
        prepared: &Prepared,
        e: Error,
    ) -> Error {
        if e.code != Code::MethodNotInModule {
            return e;
        }
        let then = &self.target.info;
        let now = match client.context(&self.target.id).await {
            Ok(Some(now)) => now,
            _ => return e,
        };
        let moved = !ids::same(&now.application_id, &then.application_id)
            || now.application_version != then.application_version;
        if !moved && !self.moves() {
            return e;
        }
        let version =
            |v: Option<&str>| sanitize_line(v.unwrap_or("(a version the node does not name)"));
        let expected = self
            .version
            .as_ref()
            .and_then(|(c, _)| c.apps.first())
            .and_then(|a| a.version.as_deref())
            .or(then.application_version.as_deref());
        Error::new(
            e.kind,
            Code::UpgradeInProgress,
            format!(
                "`{}` did not run in context {}: the context is changing versions of {} — the call was built for version {}, and the node ran it with version {}, which has no `{}` (it had not moved the context to its group's version yet, or moved it back for a while); nothing ran",
                sanitize_line(&prepared.method),
                sanitize_line(&self.target.id),
                sanitize_line(app.package_or_id()),
                version(expected),
                version(now.application_version.as_deref()),
                sanitize_line(&prepared.method),
            ),
        )
        .with_hint("call again shortly: each call is checked against the version its context runs then (`calimcp contexts APP` shows it)")
        .retryable()
    }
}

/// Refuses a use the method's kind does not allow: a [mut] method is never
/// repeated (each try would change state again) and never run by a
/// read-only server. Nothing is sent. `version` says which version the
/// kind is of (` in version 0.1.0 (…)`), empty for the listed tool.
pub fn check_use(tool: &Tool, u: Use, audience: Audience, version: &str) -> Result<()> {
    if tool.read_only {
        return Ok(());
    }
    let method = sanitize_line(&tool.method);
    if u.read_only {
        return Err(Error::input(
            Code::Usage,
            format!(
                "`{}` changes state{version}, and the server runs with --read-only: nothing was sent",
                sanitize_line(&tool.name)
            ),
        ));
    }
    if u.repeated {
        let (what, hint) = match audience {
            Audience::Cli => (
                "--until repeats the call",
                "call the [mut] method once, then wait with a [view] method: calimcp call VIEW --until VALUE",
            ),
            Audience::Agent { .. } => (
                "call_until repeats a call",
                "call it once, then wait with a [view] tool",
            ),
        };
        return Err(Error::input(
            Code::Usage,
            format!(
                "{what}, and `{method}` is [mut]{version}: each try would change state again, so only [view] methods are repeated (nothing was sent)"
            ),
        )
        .with_hint(hint));
    }
    Ok(())
}

/// Whether a failed try may be repeated; `view`: the method only reads (in
/// the version the context runs). A [mut] call is repeated only when the
/// error says nothing ran (the request never reached the node, or the node
/// refused it before running it); a call that timed out never is (it may
/// still have run).
pub(crate) fn may_retry(e: &Error, view: bool) -> bool {
    if !e.retryable {
        return false;
    }
    view || matches!(
        e.code,
        Code::Uninitialized | Code::GroupKeyPending | Code::UpgradeInProgress | Code::Unreachable
    )
}

/// The pause before retry `n` (1-based): 0.5 s, doubling, at most 8 s.
pub(crate) fn pause(n: u32) -> Duration {
    Duration::from_millis(500u64 << n.saturating_sub(1).min(4))
}

#[cfg(test)]
mod tests {
    use super::*;
    use calimcp_core::error::ErrorKind;

    #[test]
    fn mut_calls_are_retried_only_when_nothing_ran() {
        let e = |code| Error::new(ErrorKind::Remote, code, "x").retryable();
        assert!(may_retry(&e(Code::GroupKeyPending), false));
        assert!(may_retry(&e(Code::Uninitialized), false));
        assert!(may_retry(&e(Code::Unreachable), false));
        assert!(
            !may_retry(&e(Code::HttpError), false),
            "a 503 may come after the call ran"
        );
        assert!(may_retry(&e(Code::HttpError), true));
        let timed_out = Error::new(ErrorKind::Unreachable, Code::Timeout, "x");
        assert!(!may_retry(&timed_out, true));
        assert_eq!(pause(1), Duration::from_millis(500));
        assert_eq!(pause(3), Duration::from_secs(2));
        assert_eq!(pause(9), Duration::from_secs(8));
    }

    #[test]
    fn a_context_typed_as_an_alias_is_named_so() {
        let e = || Error::input(Code::MethodNotInVersion, "context ABC runs kv 0.1.0");
        assert_eq!(
            as_typed(e(), "ABC", Some("prod")).message,
            "context prod (ABC) runs kv 0.1.0"
        );
        assert_eq!(as_typed(e(), "ABC", None).message, e().message);
    }

    #[test]
    fn agents_are_told_to_choose_with_context_and_select_app() {
        let e = || Error::input(Code::AmbiguousContext, "two").with_hint("--context");
        assert_eq!(Audience::Cli.word(e()).hint.as_deref(), Some("--context"));
        let agent = Audience::Agent { pins: true }.word(e()).hint.unwrap();
        assert!(agent.contains("`_context`") && agent.contains("select_app"));
        let sessionless = Audience::Agent { pins: false }.word(e()).hint.unwrap();
        assert!(sessionless.contains("nothing is pinned") && !sessionless.contains("select_app"));
        let other = Error::input(Code::Usage, "x").with_hint("h");
        assert_eq!(
            Audience::Agent { pins: true }.word(other).hint.as_deref(),
            Some("h")
        );
    }
}
