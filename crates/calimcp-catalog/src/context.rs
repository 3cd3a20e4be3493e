//! Which context a call runs in: one resolution path for `calimcp call` and
//! the MCP server, and the contexts pinned with `calimcp use`.
//!
//! Order: an explicit value → the pinned one → the app's only context (of
//! that service) → the context aliased `default` (as meroctl does), when it
//! belongs to the app → an error listing the app's contexts, or saying it has
//! none and how to create one. A value that looks like a context id (64 hex
//! characters, or base58 decoding to 32 bytes) is used in the node's own form
//! (see [`calimcp_node::ids`]); anything else is an alias, looked up on the
//! node every time (aliases can be re-pointed). Ids are compared by bytes.
//!
//! Also the app's contexts as rows (`calimcp contexts`, `describe --json`,
//! `use`, MCP `describe_app`, and the errors that ask to choose one), and the
//! ids of the served apps' contexts whose version changes `serve` follows.
//!
//! The listings read here (the node's applications, an app's contexts, the
//! context aliases) are the ones the client keeps for the command
//! (`Client::known_*`): a check and the error it raises ask the node once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::identity;
use calimcp_core::abi::{App, Install};
pub use calimcp_core::context::{ContextRow, DEFAULT_ALIAS};
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::text::sanitize_line;
/// A context as the node reports it (id, application, service, state).
pub use calimcp_node::NodeContext;
use calimcp_node::contexts::ContextInfo;
use calimcp_node::{Client, ids, store};

/// Whether `s` is a context id rather than an alias.
pub fn looks_like_context_id(s: &str) -> bool {
    ids::is_id(s)
}

/// A context a call or a watch may use: it runs the app (any version of
/// it), and the node has said which application and version it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The context id, in the node's own form.
    pub id: String,
    pub info: ContextInfo,
}

/// Resolves the context to execute in and checks that it runs `app`.
/// `explicit` is `--context` (or the injected `_context`); `pinned` the one
/// `calimcp use` stored. A context of another app is refused (nothing is sent).
pub(crate) async fn resolve_context(
    client: &Client,
    app: &App,
    service: Option<&str>,
    explicit: Option<&str>,
    pinned: Option<&str>,
    default_alias: bool,
) -> Result<Target> {
    let (id, shown) = if let Some(value) = explicit {
        (by_value(client, app, service, value, "").await?, value)
    } else if let Some(value) = pinned {
        let origin = " (pinned with `calimcp use`)";
        (by_value(client, app, service, value, origin).await?, value)
    } else {
        let contexts = app_contexts(client, app, service).await?;
        let id = match contexts.as_slice() {
            [only] => only.id.clone(),
            _ => {
                let default = if default_alias && !contexts.is_empty() {
                    client.lookup_context_alias(DEFAULT_ALIAS).await?
                } else {
                    None
                };
                match default.filter(|id| contexts.iter().any(|c| ids::same(&c.id, id))) {
                    Some(id) => id,
                    None => return Err(choose_error(client, app, service, &contexts).await),
                }
            }
        };
        let info = check_context(client, app, service, &id, &id).await?;
        return Ok(Target {
            id: client.node_id(&info.id),
            info,
        });
    };
    let info = check_context(client, app, service, &id, shown).await?;
    // The id in the node's own form (its answer showed the form).
    Ok(Target {
        id: client.node_id(&info.id),
        info,
    })
}

/// An explicit or pinned value: an id as is, else an alias.
async fn by_value(
    client: &Client,
    app: &App,
    service: Option<&str>,
    value: &str,
    origin: &str,
) -> Result<String> {
    if looks_like_context_id(value) {
        return Ok(client.node_id(value));
    }
    if let Some(id) = client.lookup_context_alias(value).await? {
        return Ok(id);
    }
    let unit = unit_label(app, service);
    let listing = match Listing::of(client, app, service).await {
        Ok(l) if l.contexts.is_empty() => format!("{unit} has no contexts there"),
        Ok(l) => format!("Contexts of {unit}:{}", l.text(client).await),
        // An app the node lacks has none to list.
        Err(e) if e.code == Code::NotInstalled => {
            format!("{unit} is not installed there, so it has no contexts there")
        }
        Err(e) => format!("The contexts of {unit} could not be listed: {}", e.message),
    };
    Err(Error::input(
        Code::UnknownContext,
        format!(
            "context `{}`{origin} is neither a context id nor an alias on the node at {}. {listing}",
            sanitize_line(value),
            client.url(),
        ),
    )
    .with_hint("a context id is 64 hex characters or base58 of 32 bytes; aliases are looked up with POST /admin-api/alias/lookup/context/NAME"))
}

/// What the node says of context `id`, when it runs `app` (any of its
/// versions); otherwise an error naming the app it runs and listing the
/// app's own contexts. `shown` is the context as the user wrote it.
pub(crate) async fn check_context(
    client: &Client,
    app: &App,
    service: Option<&str>,
    id: &str,
    shown: &str,
) -> Result<ContextInfo> {
    let Some(info) = client.context(id).await? else {
        return Err(not_on_node(client, app, service, shown).await);
    };
    let installs = installs_of(client, app).await?;
    if installs
        .iter()
        .any(|i| ids::same(&i.id, &info.application_id))
    {
        return Ok(info);
    }
    let runs = what_runs(client, &info).await;
    if installs.is_empty() {
        // The node has no row of this app (not its package, not its module):
        // whatever the context runs, it is not this code.
        return Err(Error::input(
            Code::ForeignContext,
            format!(
                "context {} runs {runs}, not {}, which the node at {} does not have (no application there has its package or its module's bytes): nothing was sent",
                sanitize_line(shown),
                unit_label(app, None),
                client.url()
            ),
        )
        .with_hint(format!(
            "call a tool of {runs} in that context; if {} is a build of it, give the app's .wasm as installed, or its package (--package)",
            sanitize_line(&app.source)
        )));
    }
    let listing = Listing::of(client, app, service)
        .await
        .unwrap_or_default()
        .text(client)
        .await;
    Err(Error::input(
        Code::ForeignContext,
        format!(
            "context {} runs {runs}, not {}: nothing was sent. Contexts of {} on the node at {}:{listing}",
            sanitize_line(shown),
            unit_label(app, None),
            unit_label(app, service),
            client.url()
        ),
    )
    .with_hint(format!(
        "pass one of them, or call a tool of {runs} in that context"
    )))
}

/// The error for a context (written `shown`) the node does not have, listing
/// the app's own contexts.
async fn not_on_node(client: &Client, app: &App, service: Option<&str>, shown: &str) -> Error {
    let listing = Listing::of(client, app, service)
        .await
        .unwrap_or_default()
        .text(client)
        .await;
    Error::input(
        Code::UnknownContext,
        format!(
            "context {} is not on the node at {}. Contexts of {} there:{listing}",
            sanitize_line(shown),
            client.url(),
            unit_label(app, service)
        ),
    )
    .with_hint("pass one of them with --context, or join this context on the node first (meroctl namespace join, then group join-context)")
}

/// What a context runs, as a message says it: the application's package and
/// version when the node names it, else its id.
async fn what_runs(client: &Client, info: &ContextInfo) -> String {
    match client.known_application(&info.application_id).await {
        Ok(app) => app.map(|a| {
            let version = a
                .version
                .as_deref()
                .map(|v| format!(" {}", sanitize_line(v)));
            format!(
                "{}{}",
                sanitize_line(a.package_or_id()),
                version.unwrap_or_default()
            )
        }),
        Err(_) => None,
    }
    .unwrap_or_else(|| match info.application_id.as_str() {
        "" => "an application the node does not name (its answer has no applicationId)".into(),
        id => format!("application {}", sanitize_line(id)),
    })
}

fn unit_label(app: &App, service: Option<&str>) -> String {
    match service {
        Some(s) => format!(
            "{} (service {})",
            sanitize_line(app.package_or_id()),
            sanitize_line(s)
        ),
        None => sanitize_line(app.package_or_id()),
    }
}

/// An app's contexts on the node, for the messages that list them.
#[derive(Debug, Default)]
struct Listing {
    contexts: Vec<NodeContext>,
}

impl Listing {
    async fn of(client: &Client, app: &App, service: Option<&str>) -> Result<Listing> {
        Ok(Listing {
            contexts: app_contexts(client, app, service).await?,
        })
    }

    /// One context a line with its aliases (read from the node only when
    /// there are contexts to name), or ` none`.
    async fn text(&self, client: &Client) -> String {
        if self.contexts.is_empty() {
            " none".to_string()
        } else {
            list_contexts(&self.contexts, &client.known_context_aliases().await)
        }
    }
}

/// Context aliases by the context they name (each id decoded once), so
/// listing n contexts with m aliases is O(n + m).
pub(crate) type AliasIndex<'a> = ids::ById<&'a str>;

/// The [`AliasIndex`] of `(alias, context id)` pairs.
pub(crate) fn alias_index(aliases: &[(String, String)]) -> AliasIndex<'_> {
    ids::ById::new(aliases.iter().map(|(a, id)| (id.as_str(), a.as_str())))
}

/// One context a line: its id, then its aliases and name.
pub(crate) fn list_contexts(list: &[NodeContext], aliases: &[(String, String)]) -> String {
    let aliases = alias_index(aliases);
    list.iter()
        .map(|c| {
            let mut names: Vec<String> = aliases
                .get(&c.id)
                .iter()
                .map(|a| format!("alias {}", sanitize_line(a)))
                .collect();
            names.extend(
                c.name
                    .as_deref()
                    .map(|n| format!("name {}", sanitize_line(n))),
            );
            if names.is_empty() {
                format!("\n  {}", sanitize_line(&c.id))
            } else {
                format!("\n  {} ({})", sanitize_line(&c.id), names.join(", "))
            }
        })
        .collect()
}

async fn choose_error(
    client: &Client,
    app: &App,
    service: Option<&str>,
    contexts: &[NodeContext],
) -> Error {
    let unit = unit_label(app, service);
    if contexts.is_empty() {
        return Error::input(
            Code::NoContext,
            format!("{unit} has no context on the node at {}", client.url()),
        )
        .with_hint("installing an app creates no context: create one (meroctl context create with the app and a group, the Calimero desktop app, or POST /admin-api/contexts), then call again");
    }
    let aliases = client.known_context_aliases().await;
    let installs = installs_of(client, app).await.unwrap_or_default();
    let index = RowIndex::new(&installs, alias_index(&aliases));
    let rows: Vec<ContextRow> = contexts
        .iter()
        .map(|c| context_row(app, &index, c))
        .collect();
    Error::input(
        Code::AmbiguousContext,
        format!(
            "{unit} has {} contexts on the node at {}; choose one of:{}",
            contexts.len(),
            client.url(),
            list_contexts(contexts, &aliases)
        ),
    )
    .with_hint(
        "pass one with --context, or pin one for later calls: calimcp use APP --context ID|ALIAS",
    )
    .with_contexts(rows)
}

/// The node's application rows of `app`: those the catalog found, else (an
/// app read from a file, the node's apps not listed) the rows that are the
/// same app by [`super::identity`]: its package, its module's bytes, or —
/// with no module at hand — its ABI (an ABI several apps have is
/// `ambiguous_identity`).
pub(crate) async fn installs_of(client: &Client, app: &App) -> Result<Vec<Install>> {
    if !app.installs.is_empty() {
        return Ok(app.installs.clone());
    }
    if app.source == client.url() {
        return Ok(vec![Install {
            id: app.id.to_string(),
            version: app.version.clone(),
            unusable: None,
        }]);
    }
    let listed = client.known_applications().await?;
    let mut rows: Vec<App> = listed
        .iter()
        .map(|a| super::node::shell(client, a))
        .collect();
    if identity::needs_abis(app, &rows.iter().collect::<Vec<_>>()) {
        let (apps, unusable) = super::node::load(client).await?;
        rows = apps;
        rows.extend(unusable.into_iter().map(|(a, _)| a));
    }
    let found = match identity::rows_of(app, &rows.iter().collect::<Vec<_>>()) {
        identity::Found::Rows(found) => found,
        identity::Found::Ambiguous(found) => {
            let candidates: Vec<&App> = found.iter().map(|&i| &rows[i]).collect();
            return Err(identity::ambiguous_error(app, &candidates, client.url()));
        }
    };
    let mut installs: Vec<Install> = found
        .iter()
        .map(|&i| Install {
            id: rows[i].id.to_string(),
            version: rows[i].version.clone(),
            unusable: None,
        })
        .collect();
    installs.sort_by(|a, b| {
        super::assemble::compare_versions(b.version.as_deref(), a.version.as_deref())
    });
    Ok(installs)
}

/// A call that failed because the node has no identity in its context
/// (`no_identity`: rc.4 and later answer so for a context id it does not
/// have) or no such context (`context_not_found`): when the context is not
/// one of the app's on this node, the error says so and lists them, so the
/// user can pick one. Other errors pass through unchanged.
pub(crate) async fn explain_context_error(
    client: &Client,
    app: &App,
    service: Option<&str>,
    context: &str,
    e: Error,
) -> Error {
    if !matches!(e.code, Code::NoIdentity | Code::ContextNotFound) {
        return e;
    }
    let listing = match Listing::of(client, app, service).await {
        Ok(l) if l.contexts.iter().any(|c| ids::same(&c.id, context)) => return e,
        Ok(l) => l.text(client).await,
        Err(_) => return e,
    };
    Error::input(
        Code::UnknownContext,
        format!(
            "context {} is not on the node at {} (the node has no identity in it). Contexts of {} there:{listing}",
            sanitize_line(context),
            client.url(),
            unit_label(app, service)
        ),
    )
    .with_hint("pass one of them with --context, or join this context on the node first (meroctl namespace join, then group join-context)")
}

/// The contexts of `app` (of `service`, when given) on the node: those of
/// every version of it.
pub(crate) async fn app_contexts(
    client: &Client,
    app: &App,
    service: Option<&str>,
) -> Result<Vec<NodeContext>> {
    let installs = installs_of(client, app).await?;
    if installs.is_empty() {
        return Err(Error::input(
            Code::NotInstalled,
            format!(
                "{} (from {}) is not installed on the node at {}",
                sanitize_line(app.package_or_id()),
                sanitize_line(&app.source),
                client.url()
            ),
        )
        .with_hint("install it on the node, or pass --context with a context id"));
    }
    let mut list: Vec<NodeContext> = Vec::new();
    let mut listed = std::collections::HashSet::new();
    for install in &installs {
        for c in client.known_contexts_for_application(&install.id).await? {
            if listed.insert(ids::key(&c.id)) {
                list.push(c);
            }
        }
    }
    if let Some(s) = service {
        list.retain(|c| c.service_name.as_deref().is_none_or(|n| n == s));
    }
    Ok(list)
}

/// The ids of the contexts of `apps` on the node (those of every version of
/// each), for following their version changes: one application listing at
/// most, then one request per installed version. Apps the node does not
/// have add none.
pub(crate) async fn contexts_of_apps(client: &Client, apps: &[App]) -> Result<Vec<String>> {
    let mut installs: Vec<String> = Vec::new();
    for app in apps {
        match installs_of(client, app).await {
            Ok(rows) => installs.extend(rows.into_iter().map(|i| i.id)),
            // An app that cannot be told apart on the node follows none.
            Err(e) if e.code == Code::AmbiguousIdentity => {}
            Err(e) => return Err(e),
        }
    }
    let mut seen = std::collections::HashSet::new();
    let mut listed = std::collections::HashSet::new();
    let mut out: Vec<String> = Vec::new();
    for id in installs {
        if !seen.insert(ids::key(&id)) {
            continue;
        }
        for c in client.known_contexts_for_application(&id).await? {
            if listed.insert(ids::key(&c.id)) {
                out.push(c.id);
            }
        }
    }
    Ok(out)
}

/// The contexts of `app` as `calimcp contexts --json` and MCP `describe_app`
/// list them: id, aliases, name, app, version, application id, service and
/// whether the node has their state yet.
pub(crate) async fn context_rows(
    client: &Client,
    app: &App,
    service: Option<&str>,
    aliases: &[(String, String)],
) -> Result<Vec<ContextRow>> {
    context_rows_with(client, app, service, &alias_index(aliases)).await
}

/// [`context_rows`] with the aliases indexed already (once for every app
/// `calimcp contexts` lists).
pub(crate) async fn context_rows_with(
    client: &Client,
    app: &App,
    service: Option<&str>,
    aliases: &AliasIndex<'_>,
) -> Result<Vec<ContextRow>> {
    let installs = installs_of(client, app).await?;
    let listed = app_contexts(client, app, service).await?;
    let index = RowIndex::new(&installs, aliases);
    Ok(listed.iter().map(|c| context_row(app, &index, c)).collect())
}

/// What a row is built from, indexed by id: the version of each install,
/// and the aliases of each context.
struct RowIndex<'a, A> {
    versions: ids::ById<Option<&'a str>>,
    aliases: A,
}

impl<'a, A: std::borrow::Borrow<AliasIndex<'a>>> RowIndex<'a, A> {
    fn new(installs: &'a [Install], aliases: A) -> Self {
        RowIndex {
            versions: ids::ById::new(
                installs
                    .iter()
                    .map(|i| (i.id.as_str(), i.version.as_deref())),
            ),
            aliases,
        }
    }
}

/// One row of [`context_rows`].
fn context_row<'a, A: std::borrow::Borrow<AliasIndex<'a>>>(
    app: &App,
    index: &RowIndex<'a, A>,
    c: &NodeContext,
) -> ContextRow {
    let version = index
        .versions
        .get(&c.application_id)
        .first()
        .copied()
        .flatten();
    let names: &[&str] = index.aliases.borrow().get(&c.id);
    ContextRow {
        id: c.id.clone(),
        aliases: names.iter().map(|a| a.to_string()).collect(),
        name: c.name.clone(),
        app: app.package_or_id().to_string(),
        version: version.map(str::to_string),
        application_id: c.application_id.clone(),
        service: c.service_name.clone(),
        initialized: c.initialized(),
        pending_version: None,
    }
}

/// Contexts selected with `calimcp use`, per node URL and app (and service),
/// in `contexts.json` of the state directory. The file is read only from a
/// private place ([`store::read_trusted`]: a planted pin could choose the
/// context); [`Pins::save`] writes this value's changes, under the file's
/// lock, over what the file holds then, so concurrent `use` never lose one.
#[derive(Debug, Clone)]
pub struct Pins {
    path: PathBuf,
    /// The largest file read (`CALIMCP_MAX_STATE`).
    max: u64,
    /// node URL → key → context (id or alias, as given).
    map: BTreeMap<String, BTreeMap<String, String>>,
    /// What [`Pins::set`] changed: node URL, key, context (`None`: removed).
    changes: Vec<(String, String, Option<String>)>,
}

type PinMap = BTreeMap<String, BTreeMap<String, String>>;

impl Pins {
    /// Reads the pins (at most `max` bytes); a missing or invalid file holds
    /// none, one in a place others may write is an error (`untrusted_path`).
    pub fn load(state_dir: &Path, max: u64) -> Result<Pins> {
        let path = state_dir.join("contexts.json");
        let map = Pins::read(&path, max)?;
        Ok(Pins {
            path,
            max,
            map,
            changes: Vec::new(),
        })
    }

    fn read(path: &Path, max: u64) -> Result<PinMap> {
        let bytes = store::read_trusted(path, max)
            .map_err(|e| store::error("the pinned contexts", path, e, "CALIMCP_MAX_STATE"))?;
        Ok(bytes
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default())
    }

    /// The key of an app (its package, else its id) and service.
    pub(crate) fn key(app: &App, service: Option<&str>) -> String {
        match service {
            Some(s) => format!("{}#{s}", app.package_or_id()),
            None => app.package_or_id().to_string(),
        }
    }

    /// The pinned context of an app's service, else of the whole app.
    pub fn get(&self, node: &str, app: &App, service: Option<&str>) -> Option<&str> {
        let m = self.map.get(node)?;
        service
            .and_then(|_| m.get(&Pins::key(app, service)))
            .or_else(|| m.get(&Pins::key(app, None)))
            .map(String::as_str)
    }

    /// The pin stored under exactly this key.
    pub fn get_exact(&self, node: &str, app: &App, service: Option<&str>) -> Option<&str> {
        self.map
            .get(node)?
            .get(&Pins::key(app, service))
            .map(String::as_str)
    }

    pub fn set(&mut self, node: &str, app: &App, service: Option<&str>, context: Option<&str>) {
        let key = Pins::key(app, service);
        let change = (node.to_string(), key, context.map(str::to_string));
        apply(&mut self.map, &change);
        self.changes.push(change);
    }

    /// Writes the changes made by [`Pins::set`]: under the file's lock, over
    /// the pins the file holds now (another process may have pinned since
    /// this value was read), written whole by rename.
    pub fn save(&self) -> Result<()> {
        let state = |e: std::io::Error| {
            Error::new(
                ErrorKind::Internal,
                Code::State,
                format!("cannot write {}: {e}", self.path.display()),
            )
        };
        let _lock = store::lock(&self.path, store::LOCK_WAIT)
            .map_err(|e| store::error("the pinned contexts", &self.path, e, "CALIMCP_MAX_STATE"))?;
        let mut map = Pins::read(&self.path, self.max)?;
        for change in &self.changes {
            apply(&mut map, change);
        }
        let text =
            serde_json::to_string_pretty(&map).map_err(|e| Error::internal(e.to_string()))?;
        store::write_private(&self.path, text.as_bytes()).map_err(state)
    }
}

/// One pin set or removed.
fn apply(map: &mut PinMap, (node, key, context): &(String, String, Option<String>)) {
    let m = map.entry(node.clone()).or_default();
    match context {
        Some(c) => {
            m.insert(key.clone(), c.clone());
        }
        None => {
            m.remove(key);
        }
    }
    map.retain(|_, m| !m.is_empty());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_aliases_are_told_apart() {
        assert!(looks_like_context_id(&"ab".repeat(32)));
        assert!(looks_like_context_id(&"AB".repeat(32)));
        assert!(!looks_like_context_id(&"ab".repeat(31)));
        assert!(!looks_like_context_id(&"xy".repeat(32)));
        let b58 = bs58::encode([7u8; 32]).into_string();
        assert!(looks_like_context_id(&b58));
        assert!(!looks_like_context_id(
            &bs58::encode([7u8; 31]).into_string()
        ));
        assert!(!looks_like_context_id("default"));
        assert!(!looks_like_context_id("my-context"));
        // base58 has no 0, O, I or l
        assert!(!looks_like_context_id(&"0".repeat(44)));
    }

    #[test]
    fn pins_round_trip_per_node_and_service() {
        let dir = tempfile::tempdir().unwrap();
        let app = App {
            package: Some("com.x.notes".into()),
            id: "id1".into(),
            ..App::default()
        };
        let mut pins = Pins::load(dir.path(), 1 << 20).unwrap();
        pins.set("http://a", &app, None, Some("ctx-all"));
        pins.set("http://a", &app, Some("pages"), Some("ctx-pages"));
        pins.save().unwrap();
        let pins = Pins::load(dir.path(), 1 << 20).unwrap();
        assert_eq!(pins.get("http://a", &app, Some("pages")), Some("ctx-pages"));
        assert_eq!(
            pins.get("http://a", &app, Some("registry")),
            Some("ctx-all")
        );
        assert_eq!(pins.get("http://a", &app, None), Some("ctx-all"));
        assert_eq!(pins.get("http://b", &app, None), None);
        let mut pins = pins;
        pins.set("http://a", &app, None, None);
        assert_eq!(pins.get("http://a", &app, Some("registry")), None);
        assert_eq!(
            pins.get_exact("http://a", &app, Some("pages")),
            Some("ctx-pages")
        );
    }

    #[test]
    fn pins_saved_by_two_processes_keep_both() {
        let dir = tempfile::tempdir().unwrap();
        let app = |p: &str| App {
            package: Some(p.into()),
            id: p.into(),
            ..App::default()
        };
        // Both read the file before either wrote it.
        let mut one = Pins::load(dir.path(), 1 << 20).unwrap();
        let mut two = Pins::load(dir.path(), 1 << 20).unwrap();
        one.set("http://a", &app("x"), None, Some("cx"));
        two.set("http://a", &app("y"), None, Some("cy"));
        one.save().unwrap();
        two.save().unwrap();
        let pins = Pins::load(dir.path(), 1 << 20).unwrap();
        assert_eq!(pins.get("http://a", &app("x"), None), Some("cx"));
        assert_eq!(pins.get("http://a", &app("y"), None), Some("cy"));
    }
}
