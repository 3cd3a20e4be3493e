//! The session: one per CLI command and one per server. It holds the options
//! read once ([`Settings`]), makes the node client and its runtime on first
//! use, and answers every question about apps, names and contexts through
//! the catalog's rules, so no face decides them on its own:
//!
//! - which apps there are: local apps first, then the node's, assembled by
//!   one rule ([`super::assemble`]) — [`Session::select`] for the commands
//!   that take APP arguments, [`Session::locate`] for a tool name;
//! - when the node is asked: only when local apps cannot answer (a name no
//!   local app has, or a listing of everything), never with `--offline`; a
//!   node that was not named and does not answer at the default address is
//!   no node at all;
//! - which context a call or a watch runs in, and the tool of the version
//!   that context runs: the engine's bind step ([`super::call`]), with the
//!   pin ([`Session::pinned`]: the one chosen for an MCP connection with
//!   `select_app` ([`Chosen`]), else the one of `calimcp use`, read once)
//!   and a wait's deadline over it ([`Session::bind`]; [`Session::binding`]
//!   for a face that is async already, as the server is);
//! - whether the node is needed and there: [`Session::node`] is the one
//!   check (one message), [`Session::answering`] the one that it answers;
//! - the runtime async work runs on ([`Session::runtime`]; the server takes
//!   it, [`Session::take_runtime`]).
//!
//! `serve` holds one session for its life, as a command does for its run:
//! its live view of the node's apps is re-read from the session's client.
//!
//! It never prints: what a face should say besides its answer is kept as
//! [`Notes`] until the face takes them ([`Session::take_notes`]).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use super::call::{self, Ask, Audience, Bound};
use super::context::{Pins, Target};
use super::resolve;
use super::wait::{Pace, Waited};
use super::{Catalog, Sources, looks_like_path};
use calimcp_core::abi::{App, LoadOptions};
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::mapping::{Tool, ToolOptions};
use calimcp_core::text::{did_you_mean, sanitize_line};
use calimcp_node::ids::error_as_typed;
use calimcp_node::{Client, NodeOptions};

/// The options a session is made from, read once by the face.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `--apps` directories.
    pub apps_dirs: Vec<PathBuf>,
    pub load: LoadOptions,
    /// `--service`.
    pub service: Option<String>,
    pub tools: ToolOptions,
    /// How to reach the node; `None` with `--offline`.
    pub node: Option<NodeOptions>,
    /// The node's URL as given (also with `--offline`: a dry run shows it).
    pub node_url: String,
    /// Whether the node was named (`--node`, CALIMERO_NODE_URL) rather than assumed.
    pub node_named: bool,
    /// Where the node was found when none was given (the desktop app's
    /// hand-off file, a node home, merod's default), as said to people and
    /// agents; `None` when it was given or is the current node.
    pub node_source: Option<String>,
    /// Whether warnings are hidden (errors then carry what they would have said).
    pub quiet: bool,
    /// Why the node is unknown (an unreadable profile file): the error of
    /// the first use of the node ([`Session::client`], [`Session::node_url`]).
    pub node_error: Option<Error>,
    /// Where `calimcp use` keeps its pins (and the node client its tokens),
    /// or why there is none (no HOME): the error of the first use of a pin.
    pub state_dir: std::result::Result<PathBuf, Error>,
    /// The largest state file read (`CALIMCP_MAX_STATE`).
    pub max_state: u64,
}

/// What a face may say besides its answer: warnings, one a line.
pub(crate) type Notes = Vec<String>;

/// The catalog and the apps a command's APP arguments name, in argument order.
pub struct Selection {
    pub catalog: Catalog,
    pub apps: Vec<usize>,
}

/// One command's or one server's view of apps, contexts and the node.
pub struct Session {
    pub settings: Settings,
    client: OnceLock<Client>,
    runtime: OnceLock<tokio::runtime::Runtime>,
    /// The contexts pinned with `calimcp use`, read on first use.
    pins: OnceLock<Pins>,
    /// What the face should say, kept until it asks ([`Session::take_notes`]).
    notes: std::sync::Mutex<Notes>,
}

impl Session {
    pub fn new(settings: Settings) -> Session {
        Session {
            settings,
            client: OnceLock::new(),
            runtime: OnceLock::new(),
            pins: OnceLock::new(),
            notes: std::sync::Mutex::new(Notes::new()),
        }
    }

    /// What the session noted so far (warnings for the face), taken out.
    pub fn take_notes(&self) -> Notes {
        std::mem::take(&mut *self.notes.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub(crate) fn note(&self, line: String) {
        self.notes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(line);
    }

    /// Whether the node is never asked (`--offline`).
    pub fn offline(&self) -> bool {
        self.settings.node.is_none()
    }

    /// The node client, made on first use. Only the catalog holds it: the
    /// faces ask the session.
    pub(crate) fn client(&self) -> Result<&Client> {
        self.client_for("this")
    }

    /// The one check that a command needs the node, with one message: an
    /// error with `--offline` (naming `what`, "waiting for a context") or
    /// when the node's URL is not usable; the client is made then.
    pub fn node(&self, what: &str) -> Result<()> {
        self.client_for(what).map(|_| ())
    }

    /// The node client for `what`, made on first use ([`Session::node`]).
    pub(crate) fn client_for(&self, what: &str) -> Result<&Client> {
        if let Some(c) = self.client.get() {
            return Ok(c);
        }
        let opts = self.settings.node.clone().ok_or_else(|| {
            Error::input(Code::Offline, format!("--offline: {what} needs the node"))
                .with_hint("drop --offline (or CALIMCP_OFFLINE)")
        })?;
        self.node_url()?;
        let client = Client::new(opts)?;
        Ok(self.client.get_or_init(|| client))
    }

    /// Logs in to the node as `username` (the client made after this asks
    /// for a new token with these credentials, none of the kept ones).
    pub fn log_in_as(&mut self, username: &str, password: String) {
        if let Some(o) = self.settings.node.as_mut() {
            o.username = Some(username.to_string());
            o.password = Some(password);
            o.token = None;
            o.refresh_token = None;
        }
        self.client = OnceLock::new();
    }

    /// The node client for `what`, once the node has answered: a command
    /// that needs the node fails (exit 4, `unreachable`) when none answers,
    /// at the default address as at a named one.
    pub fn answering(&self, what: &str) -> Result<()> {
        let client = self.client_for(what)?;
        self.block_on(client.known_applications())??;
        Ok(())
    }

    /// The context pinned for `app` (its `service`): the one `chosen` for
    /// this MCP connection (`select_app`), else the one pinned with
    /// `calimcp use` on this session's node (the pins are read once per
    /// session: a server reads them when first needed).
    pub fn pinned(
        &self,
        chosen: Option<&Chosen>,
        app: &App,
        service: Option<&str>,
    ) -> Result<Option<String>> {
        if let Some(c) = chosen.and_then(|c| c.get(app, service)) {
            return Ok(Some(c));
        }
        let client = self.client()?;
        let pins = match self.pins.get() {
            Some(pins) => pins,
            None => {
                let dir = self.settings.state_dir.as_ref().map_err(Clone::clone)?;
                let loaded = Pins::load(dir, self.settings.max_state)?;
                self.pins.get_or_init(|| loaded)
            }
        };
        Ok(pins.get(client.url(), app, service).map(str::to_string))
    }

    /// The pin a call of `app` falls back to: none when a context was
    /// `typed` (a typed context skips the pin, and the pins are not read),
    /// else [`Session::pinned`].
    pub fn call_pin(
        &self,
        typed: Option<&str>,
        chosen: Option<&Chosen>,
        app: &App,
        service: Option<&str>,
    ) -> Result<Option<String>> {
        match typed {
            Some(_) => Ok(None),
            None => self.pinned(chosen, app, service),
        }
    }

    /// The node's URL as given ([`Settings::node_url`]), or why it is unknown.
    pub fn node_url(&self) -> Result<&str> {
        match &self.settings.node_error {
            Some(e) => Err(e.clone()),
            None => Ok(&self.settings.node_url),
        }
    }

    /// The session's runtime (one thread), made on first use.
    pub fn runtime(&self) -> Result<&tokio::runtime::Runtime> {
        if let Some(rt) = self.runtime.get() {
            return Ok(rt);
        }
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::internal(format!("cannot start the async runtime: {e}")))?;
        Ok(self.runtime.get_or_init(|| rt))
    }

    /// The session's runtime, taken out of it (made now if it was not):
    /// the server drives all its work on it and shuts it down itself, so
    /// that requests still in flight never hold the exit.
    pub fn take_runtime(&mut self) -> Result<tokio::runtime::Runtime> {
        self.runtime()?;
        self.runtime
            .take()
            .ok_or_else(|| Error::internal("the async runtime is gone"))
    }

    /// Runs `f` to completion on the session's runtime (one thread: a
    /// command waits on one thing at a time), made on first use.
    pub fn block_on<F: std::future::Future>(&self, f: F) -> Result<F::Output> {
        Ok(self.runtime()?.block_on(f))
    }

    /// The local sources: the apps directories and `paths`.
    pub(crate) fn sources(&self, paths: Vec<PathBuf>) -> Sources {
        Sources {
            apps_dirs: self.settings.apps_dirs.clone(),
            paths,
            load: self.settings.load.clone(),
        }
    }

    /// The local apps (apps directories and `paths`), and for each path the
    /// indexes of the apps it held.
    pub fn local(&self, paths: Vec<PathBuf>) -> Result<(Catalog, Vec<Vec<usize>>)> {
        Catalog::load(&self.sources(paths), &self.settings.tools)
    }

    /// Whether an error only says that an unnamed default node is not there.
    pub fn default_node_absent(&self, e: &Error) -> bool {
        !self.settings.node_named && e.kind == ErrorKind::Unreachable
    }

    /// The error for a name neither the local apps nor the node could answer,
    /// because the node could not be asked.
    pub(crate) fn both_tried(&self, what: &str, e: Error) -> Error {
        let local = if self.settings.apps_dirs.is_empty() {
            "no local apps (--apps)".to_string()
        } else {
            let dirs: Vec<String> = self
                .settings
                .apps_dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect();
            format!("not among the local apps ({})", dirs.join(", "))
        };
        Error {
            message: format!(
                "{what}: {local}, and the node could not be asked: {}",
                e.message
            ),
            ..e
        }
    }

    /// Adds the node's apps to `catalog` when local apps cannot answer
    /// (`names` has one no local app has, or is empty: everything is listed).
    pub fn add_node_apps(&self, catalog: &mut Catalog, names: &[&str]) -> Result<()> {
        if self.offline() {
            return Ok(());
        }
        let unknown: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| matches!(catalog.resolve(n), Err(e) if e.code == Code::UnknownApp))
            .collect();
        if !names.is_empty() && unknown.is_empty() {
            return Ok(());
        }
        let client = self.client()?;
        let skip = catalog.packages();
        match self.block_on(super::node::load_except(client, &skip))? {
            Ok((apps, unusable)) => {
                let listed =
                    apps.iter().filter(|a| !a.services.is_empty()).count() + unusable.len();
                *catalog =
                    std::mem::take(catalog).with_node_apps(apps, unusable, &self.settings.tools);
                if names.is_empty() {
                    for (_, e) in &catalog.unusable {
                        self.note(format!("left out: {}", e.message));
                    }
                }
                if names.is_empty() && catalog.apps.is_empty() {
                    return Err(self.no_apps_on_node(client.url(), listed, &catalog.unusable));
                }
                Ok(())
            }
            // Only the node could list anything (no --apps): an absent node
            // is not an empty one, at the default address too.
            Err(e)
                if names.is_empty()
                    && catalog.apps.is_empty()
                    && self.settings.apps_dirs.is_empty() =>
            {
                Err(self.both_tried("no apps to list", e))
            }
            Err(e) if self.default_node_absent(&e) => {
                if let Some(name) = unknown.first() {
                    // Behave as offline, but say the default node was tried too.
                    let local = catalog.resolve(name).err().unwrap_or(e);
                    let hint = local.hint.clone().unwrap_or_default();
                    let sep = if hint.is_empty() { "" } else { "; " };
                    return Err(local.with_hint(format!(
                        "{hint}{sep}no node answered at {} either (pass --node URL)",
                        client.url()
                    )));
                }
                Ok(())
            }
            Err(e) => {
                if let Some(name) = unknown.first() {
                    return Err(
                        self.both_tried(&format!("no app named `{}`", sanitize_line(name)), e)
                    );
                }
                if catalog.apps.is_empty() {
                    return Err(self.both_tried("no apps to list", e));
                }
                self.note(format!("the node's apps are left out: {}", e.message));
                Ok(())
            }
        }
    }

    /// Nothing to list although the node answered: say what it has and why
    /// nothing of it can be used.
    fn no_apps_on_node(&self, url: &str, listed: usize, left_out: &[(App, Error)]) -> Error {
        let dirs = if self.settings.apps_dirs.is_empty() {
            "no --apps directory was given"
        } else {
            "the --apps directories hold none"
        };
        if listed == 0 {
            return Error::input(
                Code::NoApps,
                format!("no apps: the node at {url} has none installed, and {dirs}"),
            )
            .with_hint("install one on the node (meroctl app install), or pass --apps DIR with app bundles, .mpk files, abi.json manifests or .wasm modules");
        }
        let (count, them) = match left_out.len() {
            1 => ("1 app".to_string(), "it was left out"),
            n => (format!("{n} apps"), "all were left out"),
        };
        let names: Vec<String> = left_out
            .iter()
            .map(|(a, _)| sanitize_line(a.package_or_id()))
            .collect();
        // The `left out` warnings say why; with --quiet they are not shown, so the error does.
        let why = if self.settings.quiet {
            let reasons: Vec<&str> = left_out.iter().map(|(_, e)| e.message.as_str()).collect();
            format!(": {}", reasons.join("; "))
        } else {
            " (the warnings above say why)".to_string()
        };
        let pending = left_out.iter().all(|(_, e)| e.code == Code::CodePending);
        Error::input(
            Code::NoApps,
            format!(
                "no usable apps: the node at {url} has {count} ({}), and {them}{why}; {dirs}",
                names.join(", ")
            ),
        )
        .with_hint(if pending {
            "the node joined contexts of these apps and is still fetching their code from its peers: try again shortly (a peer that has the code must be online)"
        } else {
            "pass each app's ABI file as APP or with --apps DIR (abi.json, .wasm or .mpk), or rebuild the app with a current calimero-sdk (cargo mero build) and install it again"
        })
    }

    /// Loads the catalog (apps directories plus APP paths, then the node when
    /// local apps cannot answer) and resolves `args`. With `one`, each APP
    /// must mean exactly one app.
    pub fn select(&self, args: &[String], one: bool) -> Result<Selection> {
        let paths: Vec<PathBuf> = args
            .iter()
            .filter(|a| looks_like_path(a))
            .map(PathBuf::from)
            .collect();
        let (mut catalog, explicit) = self.local(paths)?;
        let names: Vec<&str> = args
            .iter()
            .filter(|a| !looks_like_path(a))
            .map(String::as_str)
            .collect();
        if args.is_empty() || !names.is_empty() {
            self.add_node_apps(&mut catalog, &names)?;
        }
        let mut apps = Vec::new();
        let mut groups = explicit.into_iter();
        for arg in args {
            if looks_like_path(arg) {
                let group = groups.next().unwrap_or_default();
                if one && group.len() > 1 {
                    let list: Vec<String> = group
                        .iter()
                        .map(|&i| format!("\n  {}", resolve::label(&catalog.apps[i])))
                        .collect();
                    return Err(Error::input(
                        Code::AmbiguousApp,
                        format!("{arg} holds several apps:{}", list.concat()),
                    )
                    .with_hint(format!("name one of them, e.g. `--apps {arg} <package>`")));
                }
                apps.extend(group);
            } else {
                apps.push(catalog.resolve(arg)?);
            }
        }
        if let Some(service) = &self.settings.service {
            for &i in &apps {
                check_service(&catalog.apps[i], service)?;
            }
        }
        Ok(Selection { catalog, apps })
    }

    /// The catalog and the tool `token` names: a tool name, APP.METHOD or
    /// PATH.METHOD; local apps first, then the node's.
    pub fn locate(&self, token: &str) -> Result<(Catalog, Tool)> {
        if let Some((path, service, method)) = path_method(token)? {
            return self.locate_path(token, path, service, &method);
        }
        let (mut catalog, _) = self.local(Vec::new())?;
        let service = self.settings.service.as_deref();
        let mut found = find_tool(&catalog, token, service)?;
        if found.is_none() && !self.offline() {
            let client = self.client()?;
            let skip = catalog.packages();
            match self.block_on(super::node::load_except(client, &skip))? {
                Ok((apps, unusable)) => {
                    catalog = catalog.with_node_apps(apps, unusable, &self.settings.tools)
                }
                // A name close to a local tool is a typo, not a node problem:
                // exit 2 with the suggestion, the node's silence as a remark.
                Err(e) if e.kind == ErrorKind::Unreachable && has_suggestion(&catalog, token) => {
                    let mut err = unknown_tool(&catalog, token);
                    err.hint = Some(format!(
                        "{}\n  (the node at {} did not answer, so its apps were not searched)",
                        err.hint.unwrap_or_default(),
                        client.url()
                    ));
                    return Err(err);
                }
                Err(e) => {
                    let what = format!("no tool `{}`", sanitize_line(token));
                    return Err(self.both_tried(&what, e));
                }
            }
            found = find_tool(&catalog, token, service)?;
        }
        match found {
            Some(tool) => Ok((catalog, tool)),
            None => Err(unknown_tool(&catalog, token)),
        }
    }

    /// The tool of `PATH.METHOD`: the app at PATH (plus the apps directories).
    fn locate_path(
        &self,
        token: &str,
        path: PathBuf,
        service: Option<String>,
        method: &str,
    ) -> Result<(Catalog, Tool)> {
        let (catalog, explicit) = self.local(vec![path.clone()])?;
        let group = explicit.into_iter().next().unwrap_or_default();
        let shown = sanitize_line(&path.display().to_string());
        let index = match group.as_slice() {
            [one] => *one,
            [] => {
                return Err(Error::input(
                    Code::NoApps,
                    format!("no tool `{}`: {shown} holds no app", sanitize_line(token)),
                ));
            }
            many => {
                let list: Vec<String> = many
                    .iter()
                    .map(|&i| format!("\n  {}", resolve::label(&catalog.apps[i])))
                    .collect();
                return Err(Error::input(
                    Code::AmbiguousApp,
                    format!("{shown} holds several apps:{}", list.concat()),
                )
                .with_hint(format!(
                    "name one of them: `calimcp call --apps {shown} APP.{}`",
                    sanitize_line(method)
                )));
            }
        };
        let service = service.or_else(|| self.settings.service.clone());
        if let Some(s) = &service {
            check_service(&catalog.apps[index], s)?;
        }
        let by_id = format!("{}.{method}", catalog.apps[index].id);
        match find_tool(&catalog, &by_id, service.as_deref())? {
            Some(tool) => Ok((catalog, tool)),
            None => Err(unknown_tool(&catalog, token)),
        }
    }

    /// The context `ask` means for `app` ([`call::bind_context`]): what
    /// `watch -c` and `use` bind with.
    pub(crate) fn bind_context(
        &self,
        app: &App,
        service: Option<&str>,
        ask: Ask<'_>,
    ) -> Result<Target> {
        self.block_on(self.context_for(app, service, ask, Audience::Cli))?
    }

    /// The context `typed` as `calimcp use` pins it for `app`: bound and
    /// checked to run the app when the node answers ([`Session::bind_context`]);
    /// a full id without a node (`--offline`, or no node answering) is
    /// pinned unchecked, with the reason; an alias without a node is an
    /// error (aliases are looked up on the node).
    pub fn pin_target(&self, app: &App, service: Option<&str>, typed: &str) -> Result<PinTarget> {
        let is_id = calimcp_node::ids::is_id(typed);
        if self.offline() {
            if is_id {
                return Ok(PinTarget::Unchecked("--offline".into()));
            }
            return Err(Error::input(
                Code::Offline,
                format!(
                    "--offline: `{}` is an alias, and aliases are looked up on the node",
                    sanitize_line(typed)
                ),
            )
            .with_hint("pin the context's id (64 hex or base58) to pin it without a node"));
        }
        let ask = Ask::named(typed);
        match self.bind_context(app, service, ask) {
            Ok(target) => Ok(PinTarget::Checked(target)),
            Err(e) if is_id && e.kind == ErrorKind::Unreachable => Ok(PinTarget::Unchecked(
                format!("no node answered at {}", self.client()?.url()),
            )),
            Err(e) => Err(e),
        }
    }

    /// The contexts of one app on this session's node as rows
    /// ([`super::context::context_rows`]), for `describe --json` and `use`;
    /// `None` when the node cannot say (offline, not answering, or — with
    /// `node_apps_only` — not the node's app).
    pub fn app_context_rows(
        &self,
        app: &calimcp_core::abi::App,
        service: Option<&str>,
        node_apps_only: bool,
    ) -> Option<Vec<super::context::ContextRow>> {
        if self.offline() {
            return None;
        }
        let client = self.client().ok()?;
        if node_apps_only && app.source != client.url() {
            return None;
        }
        self.block_on(async {
            let aliases = client.known_context_aliases().await;
            super::context::context_rows(client, app, service, &aliases).await
        })
        .ok()?
        .ok()
    }

    /// The contexts of the apps `apps` of `catalog` as rows with their
    /// aliases, versions and state ([`super::context::context_rows`]), the
    /// aliases read once for all; with `all` (every app listed), an app the
    /// node does not have adds none.
    pub fn context_rows(
        &self,
        catalog: &Catalog,
        apps: &[usize],
        service: Option<&str>,
        all: bool,
    ) -> Result<Vec<super::context::ContextRow>> {
        let client = self.client()?;
        let aliases = self.block_on(client.context_aliases())?;
        // Indexed once for every app listed: linear in contexts and aliases.
        let aliases = super::context::alias_index(&aliases);
        let mut rows = Vec::new();
        for &i in apps {
            let app = &catalog.apps[i];
            let listed = super::context::context_rows_with(client, app, service, &aliases);
            match self.block_on(listed)? {
                Ok(list) => rows.extend(list),
                Err(e) if all && e.code == Code::NotInstalled => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(rows)
    }

    /// [`Session::bind_context`] for an async face, its errors worded for
    /// `audience` (`select_app`, `wait_for_events`).
    pub async fn context_for(
        &self,
        app: &App,
        service: Option<&str>,
        ask: Ask<'_>,
        audience: Audience,
    ) -> Result<Target> {
        let client = self.client()?;
        call::bind_context(client, app, service, ask)
            .await
            .map_err(|e| audience.word(error_as_typed(e, ask.typed)))
    }

    /// Waits until the context `value` names is initialized on the node
    /// ([`super::wait::until_initialized`]): the context bound by the bind
    /// step for a context without an app ([`call::bind_named`]) within the
    /// wait's deadline, then checked at its pace. `what` says what needs
    /// the node (`calimcp wait`, `wait_for_context`).
    pub async fn until_initialized(
        &self,
        what: &str,
        value: &str,
        pace: &Pace,
        on_check: &mut (dyn FnMut(u64, &Result<Option<bool>>) + Send),
    ) -> Result<(Option<calimcp_node::contexts::ContextInfo>, Waited)> {
        let client = self.client_for(what)?;
        super::wait::until_initialized(client, value, pace, on_check).await
    }

    /// `tool` bound to the context `ask` means, as the version that context
    /// runs has it ([`call::bind`]), worded for a CLI user. With `pace`, the
    /// wait's deadline bounds it (an error that it ran out: [`Pace::ran_out`]).
    /// What the version's catalog says (a context that moves on this call)
    /// is noted for the face.
    pub(crate) fn bind(
        &self,
        catalog: &Catalog,
        tool: &Tool,
        ask: Ask<'_>,
        pace: Option<&Pace>,
    ) -> Result<Bound> {
        let bind = self.binding(catalog, tool, ask, Audience::Cli);
        let bound = match pace {
            None => self.block_on(bind)?,
            Some(pace) => self
                .block_on(pace.before(bind))?
                .unwrap_or_else(|| Err(pace.ran_out("finding the context"))),
        };
        for line in bound.iter().flat_map(Bound::remarks) {
            self.note(line);
        }
        bound
    }

    /// [`Session::bind`], tried again at most `retries` times after a
    /// retryable error (nothing runs while binding), after
    /// [`call::pause`]; `on_retry` hears each repeat before it is made.
    pub fn bind_retrying(
        &self,
        catalog: &Catalog,
        tool: &Tool,
        ask: Ask<'_>,
        pace: Option<&Pace>,
        retries: u32,
        mut on_retry: impl FnMut(&Error, u32, std::time::Duration),
    ) -> Result<Bound> {
        let mut tried = 0u32;
        loop {
            match self.bind(catalog, tool, ask, pace) {
                Err(e) if e.retryable && tried < retries => {
                    tried += 1;
                    let pause = call::pause(tried);
                    on_retry(&e, tried, pause);
                    std::thread::sleep(pause);
                }
                other => return other,
            }
        }
    }

    /// [`Session::bind`] for an async face (the server's tools and
    /// `call_until`), its errors worded for `audience`; the remarks stay
    /// with the bound call ([`Bound::remarks`]) for the face to pass on.
    pub async fn binding(
        &self,
        catalog: &Catalog,
        tool: &Tool,
        ask: Ask<'_>,
        audience: Audience,
    ) -> Result<Bound> {
        let client = self.client()?;
        call::bind(client, catalog, tool, ask, &self.settings.tools, audience).await
    }
}

/// What `calimcp use --context` pins ([`Session::pin_target`]).
pub enum PinTarget {
    /// The context, checked to run the app.
    Checked(Target),
    /// A full id pinned without a node to check it, and why there was none.
    Unchecked(String),
}

/// The contexts chosen for one MCP connection with `select_app`, by app id
/// and service: they come before the pins of `calimcp use` and last as long
/// as the connection ([`Session::pinned`]).
#[derive(Debug, Default)]
pub struct Chosen {
    map: Mutex<HashMap<(String, Option<String>), String>>,
}

impl Chosen {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<(String, Option<String>), String>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Chooses `context` for `app` (its `service`).
    pub fn choose(&self, app: &App, service: Option<&str>, context: String) {
        self.map()
            .insert((app.id.to_string(), service.map(str::to_string)), context);
    }

    /// The context chosen for `app`'s `service` (exactly).
    pub(crate) fn get(&self, app: &App, service: Option<&str>) -> Option<String> {
        self.map()
            .get(&(app.id.to_string(), service.map(str::to_string)))
            .cloned()
    }

    /// Every context chosen for `app`, with its service.
    pub fn of_app(&self, app: &App) -> Vec<(Option<String>, String)> {
        self.map()
            .iter()
            .filter(|((a, _), _)| **a == *app.id)
            .map(|((_, s), c)| (s.clone(), c.clone()))
            .collect()
    }
}

/// Errors unless `app` has a service called `service`.
pub fn check_service(app: &App, service: &str) -> Result<()> {
    if app
        .services
        .iter()
        .any(|s| s.name.as_deref() == Some(service))
    {
        return Ok(());
    }
    let names: Vec<&str> = app
        .services
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    let err = Error::input(
        Code::UnknownService,
        format!(
            "{} has no service `{}`",
            sanitize_line(app.package_or_id()),
            sanitize_line(service)
        ),
    );
    Err(if names.is_empty() {
        err.with_hint("it is a single-service app: drop --service")
    } else {
        err.with_hint(format!("its services: {}", names.join(", ")))
    })
}

/// `PATH.METHOD` or `PATH.SERVICE.METHOD` with PATH an existing file or
/// directory: (path, service, method). A token whose app part looks like a
/// path but names nothing is an error saying what TOOL may be.
pub(crate) fn path_method(token: &str) -> Result<Option<(PathBuf, Option<String>, String)>> {
    let Some((app, method)) = token.rsplit_once('.') else {
        return Ok(None);
    };
    if app.is_empty() || method.is_empty() {
        return Ok(None);
    }
    if std::path::Path::new(app).exists() {
        return Ok(Some((app.into(), None, method.to_string())));
    }
    if let Some((path, service)) = app.rsplit_once('.')
        && !path.is_empty()
        && std::path::Path::new(path).exists()
    {
        return Ok(Some((
            path.into(),
            Some(service.to_string()),
            method.to_string(),
        )));
    }
    if looks_like_path(app) {
        return Err(Error::input(
            Code::UnknownTool,
            format!(
                "no tool `{}`: `{}` looks like a path, but there is no such file or directory",
                sanitize_line(token),
                sanitize_line(app)
            ),
        )
        .with_hint("TOOL is a tool name (kv_store_get), APP.METHOD with an app's name (kv-store.get), or PATH.METHOD with the path of an abi.json, .wasm, .mpk or bundle directory (examples/kv-store.get)"));
    }
    Ok(None)
}

/// The tool `token` names, if any app of the catalog has it: a tool name,
/// APP.METHOD or APP.SERVICE.METHOD.
pub fn find_tool(catalog: &Catalog, token: &str, service: Option<&str>) -> Result<Option<Tool>> {
    if let Some(t) = catalog.tools.get(token) {
        return Ok(Some(t.clone()));
    }
    let Some((app_q, method)) = token.rsplit_once('.') else {
        return Ok(None);
    };
    if app_q.is_empty() || method.is_empty() {
        return Ok(None);
    }
    let Some((index, service)) = app_and_service(catalog, app_q, service)? else {
        return Ok(None);
    };
    let app = &catalog.apps[index];
    let in_app: Vec<&Tool> = catalog.tools.for_app(index, service.as_deref()).collect();
    let matching: Vec<&Tool> = in_app
        .iter()
        .copied()
        .filter(|t| t.method == method)
        .collect();
    match matching.as_slice() {
        [one] => Ok(Some((*one).clone())),
        [] if method == "init" => Err(Error::input(
            Code::InitNotCallable,
            "`init` runs once, when a context is created; it cannot be called on a context",
        )
        .with_hint(format!(
            "create a context with init's arguments instead: calimcp context create {} (MCP: create_context); its init is {}",
            sanitize_line(app.package_or_id()),
            sanitize_line(&super::lifecycle::init_signature(app, service.as_deref()))
        ))),
        [] => {
            let names: Vec<&str> = in_app.iter().map(|t| t.method.as_str()).collect();
            let hint = match did_you_mean(method, names.iter().copied()).first() {
                Some(s) => format!("did you mean `{}`?", sanitize_line(s)),
                None => format!("its methods: {}", sanitize_line(&names.join(", "))),
            };
            Err(Error::input(
                Code::UnknownMethod,
                format!(
                    "{} has no method `{}`",
                    sanitize_line(app.package_or_id()),
                    sanitize_line(method)
                ),
            )
            .with_hint(hint))
        }
        many => {
            let services: Vec<String> = many
                .iter()
                .map(|t| sanitize_line(t.service.as_deref().unwrap_or("-")))
                .collect();
            Err(Error::input(
                Code::AmbiguousTool,
                format!(
                    "`{}` exists in several services of {}: {}",
                    sanitize_line(method),
                    sanitize_line(app.package_or_id()),
                    services.join(", ")
                ),
            )
            .with_hint("pass --service NAME, or write APP.SERVICE.METHOD"))
        }
    }
}

/// The app (and service) of `APP` or `APP.SERVICE` in a tool token, if the
/// catalog has it: an app's name first, then an app and one of its services.
fn app_and_service(
    catalog: &Catalog,
    app_q: &str,
    service: Option<&str>,
) -> Result<Option<(usize, Option<String>)>> {
    match catalog.resolve(app_q) {
        Ok(i) => return Ok(Some((i, service.map(str::to_string)))),
        Err(e) if e.code != Code::UnknownApp => return Err(e),
        Err(_) => {}
    }
    let Some((app_q2, svc)) = app_q.rsplit_once('.') else {
        return Ok(None);
    };
    match catalog.resolve(app_q2) {
        Ok(i)
            if catalog.apps[i]
                .services
                .iter()
                .any(|s| s.name.as_deref() == Some(svc)) =>
        {
            Ok(Some((i, Some(svc.to_string()))))
        }
        Ok(_) => Ok(None),
        Err(e) if e.code != Code::UnknownApp => Err(e),
        Err(_) => Ok(None),
    }
}

/// The tools whose method `token` names: the bare method (meroctl's habit),
/// or a tool name of another node or app set (`events_insert` where the app
/// is named differently): `<anything>_<method>`.
fn tools_with_method<'a>(catalog: &'a Catalog, token: &str) -> Vec<&'a Tool> {
    let mut by_method: Vec<&Tool> = catalog
        .tools
        .tools
        .iter()
        .filter(|t| t.method == token)
        .collect();
    if by_method.is_empty() {
        // The longest method name the token ends with.
        let suffix_of = |t: &Tool| {
            let m = calimcp_core::mapping::names::sanitize(&t.method);
            token.len() > m.len() && token.ends_with(&format!("_{m}"))
        };
        let longest = catalog
            .tools
            .tools
            .iter()
            .filter(|t| suffix_of(t))
            .map(|t| t.method.len())
            .max();
        by_method = catalog
            .tools
            .tools
            .iter()
            .filter(|t| suffix_of(t) && Some(t.method.len()) == longest)
            .collect();
    }
    by_method
}

/// The error for a tool name no app has, with the best suggestion.
pub(crate) fn unknown_tool(catalog: &Catalog, token: &str) -> Error {
    // A tool of a node app whose ABI could not be read: say why.
    for (app, err) in &catalog.unusable {
        if token.starts_with(&format!(
            "{}_",
            calimcp_core::mapping::names::app_slug(app.package_or_id())
        )) {
            return err.clone();
        }
    }
    let t = sanitize_line(token);
    if catalog.tools.tools.is_empty() {
        return Error::input(
            Code::UnknownTool,
            format!("no tool `{t}`: no apps were found"),
        )
        .with_hint("pass --apps DIR (or set CALIMCP_APPS), or a reachable --node URL");
    }
    let names = catalog.tools.tools.iter().map(|t| t.name.as_str());
    let close = did_you_mean(token, names);
    let by_method: Vec<String> = tools_with_method(catalog, token)
        .into_iter()
        .take(5)
        .map(|t| {
            // The package's last segment names the app (`kv-store`).
            let pkg = catalog.apps[t.app].package_or_id();
            let app = sanitize_line(pkg.rsplit('.').next().unwrap_or(pkg));
            let service = t
                .service
                .as_deref()
                .map(|s| format!("{}.", sanitize_line(s)))
                .unwrap_or_default();
            format!("`{}` ({app}.{service}{})", t.name, sanitize_line(&t.method))
        })
        .collect();
    let bare = catalog.tools.tools.iter().any(|t| t.method == token);
    let hint = match (close.first(), by_method.is_empty()) {
        _ if bare => format!(
            "a method is called through its app: {} (`calimcp tools` lists every tool)",
            by_method.join(", ")
        ),
        (Some(s), _) => format!("did you mean `{s}`? `calimcp tools` lists every tool"),
        (None, false) => format!(
            "tools with that method here: {} (`calimcp tools` lists every tool)",
            by_method.join(", ")
        ),
        // Named APP.METHOD already: suggest the tool list, not the form that failed.
        (None, true) if token.contains('.') => {
            "`calimcp apps` lists the apps, `calimcp tools` every tool".into()
        }
        (None, true) => {
            "`calimcp tools` lists every tool; a method can also be named APP.METHOD (kv-store.get)"
                .into()
        }
    };
    Error::input(Code::UnknownTool, format!("no tool `{t}`")).with_hint(hint)
}

/// Whether the local tools offer a suggestion for `token` (a close name, or
/// tools with that method).
pub(crate) fn has_suggestion(catalog: &Catalog, token: &str) -> bool {
    let names = catalog.tools.tools.iter().map(|t| t.name.as_str());
    !tools_with_method(catalog, token).is_empty() || !did_you_mean(token, names).is_empty()
}
