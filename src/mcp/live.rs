//! The live catalog: local apps (read once) plus the node's apps (re-read every
//! `--refresh` seconds and whenever a call names something unknown), narrowed
//! by `--app`/`--service`, filtered by `--read-only/--allow/--deny`. It is
//! the server's view of the apps only: the node is read through the
//! server's catalog session ([`Live::session`]), which calls use too.
//!
//! Every rebuild makes a new immutable [`View`]; a call holds the `Arc<View>`
//! it started with, so app and tool indexes stay consistent for its whole life.
//! When the listed tools change, every connected client gets
//! `notifications/tools/list_changed` and `notifications/resources/list_changed`
//! (the resources are the served apps' ABIs and contexts, [`super::resources`]).
//!
//! The server also follows the served contexts' version changes: after each
//! read it subscribes to the node's events of the served apps' contexts (of
//! every version), and an `AppVersionChanged` event (a context moved to
//! another version of its app) makes it read the node's apps again at once
//! and announce both lists, whether or not the tools changed (the contexts'
//! versions are in the resources). Events that come together are announced
//! once; how often such re-reads and those of requests naming something
//! unknown may run, and what waits meanwhile, is [`super::reread`]'s. Calls
//! never depend on this: each reads the version its context runs.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant};

use rmcp::RoleServer;
use rmcp::service::{Peer, SubscriptionSink};
use serde_json::Value;

use super::AbortOnDrop;
use super::log;
use calimcp_catalog::Catalog;
use calimcp_catalog::assemble::Served;
use calimcp_catalog::backend::{Backend, NodeApps};
use calimcp_catalog::events::Item;
use calimcp_catalog::ids;
use calimcp_catalog::session::Session;
use calimcp_core::abi::App;
use calimcp_core::error::ErrorKind;
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::mapping::Tool;
use calimcp_core::mapping::filter::Filter;
use calimcp_core::mapping::schema::SchemaBudget;
use calimcp_core::text::sanitize_line;

/// What decides which tools are listed; fixed for the life of the server.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// `--app` names, resolved against every new catalog.
    pub names: Vec<String>,
    /// Ids of the apps `--app` paths loaded.
    pub ids: Vec<String>,
    pub service: Option<String>,
    pub filter: Filter,
    /// What the listed tools' schemas may add up to ([`SchemaBudget`]).
    pub listing_budget: usize,
    /// `--toolsets lifecycle` (or `all`): the lifecycle tools are served.
    pub lifecycle: bool,
    /// `--toolsets blobs` (or `all`): the blob tools are served.
    pub blobs: bool,
    /// `--install-from DIR`: `install_application` takes paths inside it.
    pub install_from: Option<std::path::PathBuf>,
}

impl Scope {
    fn narrows(&self) -> bool {
        !self.names.is_empty() || !self.ids.is_empty()
    }
}

/// One immutable state of the catalog.
pub(crate) struct View {
    pub catalog: Catalog,
    /// Apps in scope, as indexes into `catalog.apps`.
    pub apps: Vec<usize>,
    /// Listed tools, as indexes into `catalog.tools.tools` (sorted by name).
    pub listed: Vec<usize>,
    /// `--app` names that matched nothing in this catalog.
    pub unmatched: Vec<String>,
    /// A digest of the listed tools and where the listing's schema budget
    /// runs out (see [`View::listing`]).
    listing: OnceLock<(u64, usize)>,
    listing_budget: usize,
    /// Distinguishes views, so a cursor from an older list is refused.
    generation: u64,
    /// Whether a client has been given (part of) this view's tools/list: only
    /// then does replacing it call for `notifications/tools/list_changed`.
    served: std::sync::atomic::AtomicBool,
    /// Compiled output schemas, parallel to `catalog.tools.tools`.
    outputs: Vec<OnceLock<Option<Arc<jsonschema::Validator>>>>,
}

/// Tools per tools/list page. Smaller lists come whole; a 5,000-method app
/// comes in pages, so a list never materialises all its schemas at once.
pub(crate) const PAGE_SIZE: usize = 1000;

static GENERATION: AtomicU64 = AtomicU64::new(1);

/// Why a tool cannot be called.
pub(crate) enum Lookup<'a> {
    Found(&'a Tool),
    /// Exists but is not exposed (read-only, allow/deny, --app, --service).
    Refused(String),
    Unknown,
}

impl View {
    pub(crate) fn build(catalog: Catalog, scope: &Scope) -> View {
        let mut in_scope: Vec<usize> = Vec::new();
        let mut unmatched = Vec::new();
        if scope.narrows() {
            for (i, app) in catalog.apps.iter().enumerate() {
                if scope.ids.iter().any(|id| **id == *app.id) {
                    in_scope.push(i);
                }
            }
            for name in &scope.names {
                match catalog.resolve(name) {
                    Ok(i) => in_scope.push(i),
                    Err(_) => unmatched.push(name.clone()),
                }
            }
            in_scope.sort_unstable();
            in_scope.dedup();
        } else {
            in_scope = (0..catalog.apps.len()).collect();
        }
        let listed: Vec<usize> = catalog
            .tools
            .tools
            .iter()
            .enumerate()
            .filter(|(_, t)| in_scope.binary_search(&t.app).is_ok())
            .filter(|(_, t)| {
                scope
                    .service
                    .as_deref()
                    .is_none_or(|s| t.service.as_deref() == Some(s))
            })
            .filter(|(_, t)| scope.filter.admits(t))
            .map(|(i, _)| i)
            .collect();
        let outputs = catalog
            .tools
            .tools
            .iter()
            .map(|_| OnceLock::new())
            .collect();
        View {
            catalog,
            apps: in_scope,
            listed,
            unmatched,
            listing: OnceLock::new(),
            listing_budget: scope.listing_budget,
            generation: GENERATION.fetch_add(1, Ordering::Relaxed),
            served: std::sync::atomic::AtomicBool::new(false),
            outputs,
        }
    }

    /// One page of the tools/list answer (the fixed tools and the listed
    /// ones, by name) and the cursor of the next page. Schemas are computed
    /// for this page only and not kept, so memory stays bounded however many
    /// methods the apps have.
    pub(crate) fn mcp_page(
        &self,
        cursor: Option<&str>,
    ) -> std::result::Result<(Vec<rmcp::model::Tool>, Option<String>), String> {
        let start = match cursor {
            None => 0,
            Some(c) => {
                let (generation, offset) = c
                    .strip_prefix('g')
                    .and_then(|rest| rest.split_once(':'))
                    .and_then(|(g, o)| Some((g.parse::<u64>().ok()?, o.parse::<usize>().ok()?)))
                    .ok_or_else(|| format!("invalid cursor `{}`", sanitize_line(c)))?;
                if generation != self.generation {
                    return Err("stale cursor: the tool list changed since the first page; list again from the start".into());
                }
                offset
            }
        };
        self.served.store(true, Ordering::Release);
        let mut fixed = super::fixed::tools();
        fixed.extend(super::lifecycle::tools());
        fixed.extend(super::blobs::tools());
        // The merged order, by name: fixed tools are `Err(i)`, listed ones `Ok(i)`.
        let mut order: Vec<(&str, std::result::Result<usize, usize>)> = self
            .listed
            .iter()
            .map(|&i| (self.catalog.tools.tools[i].name.as_str(), Ok(i)))
            .collect();
        order.extend(
            fixed
                .iter()
                .enumerate()
                .map(|(i, t)| (t.name.as_ref(), Err(i))),
        );
        order.sort_by(|a, b| a.0.cmp(b.0));
        let end = (start + PAGE_SIZE).min(order.len());
        let page = order
            .get(start..end)
            .unwrap_or_default()
            .iter()
            .filter_map(|(_, which)| match which {
                Ok(i) => mcp_tool(&self.catalog.tools.tools[*i], self.spent(*i)),
                Err(i) => fixed.get(*i).cloned(),
            })
            .collect();
        let next = (end < order.len()).then(|| format!("g{}:{end}", self.generation));
        Ok((page, next))
    }

    /// Marks this view as given to a client (resources/list): replacing it
    /// then calls for the list_changed notifications.
    pub(crate) fn mark_listed(&self) {
        self.served.store(true, Ordering::Release);
    }

    /// One listed tool (or a fixed one), as tools/list shows it.
    pub(crate) fn mcp_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        if let Some(t) = super::fixed::tools()
            .into_iter()
            .chain(super::lifecycle::tools())
            .chain(super::blobs::tools())
            .find(|t| t.name == name)
        {
            return Some(t);
        }
        let tools = &self.catalog.tools.tools;
        let i = tools.binary_search_by(|t| t.name.as_str().cmp(name)).ok()?;
        self.listed.binary_search(&i).ok()?;
        mcp_tool(&tools[i], self.spent(i))
    }

    /// Whether listed tool `i` comes after the listing's schema budget ran out.
    fn spent(&self, i: usize) -> bool {
        let at = self.listed.binary_search(&i).unwrap_or(usize::MAX);
        at >= self.listing().1
    }

    /// A digest of the listed tools as clients see them, to tell whether a
    /// rebuild changed anything, and the position in `listed` from which the
    /// listing's schema budget is spent ([`SchemaBudget`], counted in name
    /// order as `tools --json` counts it). Computed once per view, when first
    /// asked, one tool at a time.
    fn listing(&self) -> &(u64, usize) {
        self.listing.get_or_init(|| {
            let mut hasher = DefaultHasher::new();
            let mut budget = SchemaBudget::new(self.listing_budget);
            let mut cut = self.listed.len();
            for (at, &i) in self.listed.iter().enumerate() {
                let tool = &self.catalog.tools.tools[i];
                let spent = budget.spent();
                if spent && cut > at {
                    cut = at;
                }
                let schemas = tool.listed_trees(spent);
                budget.add(schemas.size);
                // The listed object's text, written from the trees (the same
                // bytes as `to_mcp_with(…).to_string()`, without the Value).
                serde_json::to_string(&tool.mcp(schemas))
                    .unwrap_or_default()
                    .hash(&mut hasher);
            }
            (hasher.finish(), cut)
        })
    }

    fn fingerprint(&self) -> u64 {
        self.listing().0
    }

    /// The tool called `name`, if it is listed; why not otherwise.
    pub(crate) fn lookup(&self, name: &str, scope: &Scope) -> Lookup<'_> {
        let tools = &self.catalog.tools.tools;
        let Ok(i) = tools.binary_search_by(|t| t.name.as_str().cmp(name)) else {
            return Lookup::Unknown;
        };
        if self.listed.binary_search(&i).is_ok() {
            return Lookup::Found(&tools[i]);
        }
        let tool = &tools[i];
        if let Some(why) = scope.filter.refusal(tool) {
            return Lookup::Refused(why);
        }
        Lookup::Refused(format!(
            "`{}` belongs to an app or service this server does not serve (--app/--service)",
            tool.name
        ))
    }

    /// The app `query` names, among the apps in scope.
    pub(crate) fn resolve(&self, query: &str) -> Result<usize> {
        let i = self.catalog.resolve(query)?;
        if self.apps.binary_search(&i).is_ok() {
            return Ok(i);
        }
        Err(Error::input(
            Code::UnknownApp,
            format!(
                "`{}` is not served here (the server runs with --app)",
                sanitize_line(query)
            ),
        )
        .with_hint(format!("apps served: {}", self.app_names().join(", "))))
    }

    /// Package (or id) of every app in scope, for messages.
    pub(crate) fn app_names(&self) -> Vec<String> {
        self.apps
            .iter()
            .map(|&i| sanitize_line(self.catalog.apps[i].package_or_id()))
            .collect()
    }

    /// The listed tools of one app (and service), by name.
    pub(crate) fn listed_for(&self, app: usize, service: Option<&str>) -> Vec<&Tool> {
        self.listed
            .iter()
            .map(|&i| &self.catalog.tools.tools[i])
            .filter(|t| t.app == app && (service.is_none() || t.service.as_deref() == service))
            .collect()
    }

    /// The compiled output schema of a tool (`{"result": …}`), compiled on first use.
    pub(crate) fn output_validator(&self, tool: &Tool) -> Option<Arc<jsonschema::Validator>> {
        let tools = &self.catalog.tools.tools;
        let i = tools
            .binary_search_by(|t| t.name.as_str().cmp(&tool.name))
            .ok()?;
        self.outputs[i]
            .get_or_init(|| {
                let schema = tool.output_schema()?;
                match jsonschema::draft202012::new(&schema) {
                    Ok(v) => Some(Arc::new(v)),
                    Err(e) => {
                        log::error!("output schema of {} does not compile: {e}", tool.name);
                        None
                    }
                }
            })
            .clone()
    }
}

/// A connected client that wants `notifications/tools/list_changed`.
#[derive(Clone)]
enum Subscriber {
    /// A session that began with `initialize` (protocol ≤ 2025-11-25).
    Peer(Peer<RoleServer>),
    /// A `subscriptions/listen` stream (protocol 2026-07-28).
    Sink(u64, SubscriptionSink),
}

/// What the server last learnt from the node.
#[derive(Default)]
struct NodeState {
    /// `None` until the first read finishes.
    up: Option<bool>,
    apps: NodeApps,
    /// Messages already logged about apps left out, so each is said once.
    told: Vec<String>,
}

/// The shared catalog every session reads.
pub(crate) struct Live {
    /// The server's catalog session: options, pins, the node client (calls
    /// and the re-reads alike), the one "needs the node" check.
    pub session: Arc<Session>,
    /// The local apps and the names given out so far (a name keeps its app
    /// for the server's life): each read of the node is assembled with them.
    served: Served,
    pub scope: Scope,
    /// The node, read through the session ([`Backend`] for [`Session`]);
    /// none with `--offline`.
    backend: Option<Arc<dyn Backend>>,
    refresh_every: Duration,
    view: RwLock<Arc<View>>,
    node: Mutex<NodeState>,
    /// Serialises node reads; `reads` counts the reads started, so a caller
    /// that waited while a newer read ran can skip its own.
    reading: tokio::sync::Mutex<()>,
    reads: AtomicU64,
    subscribers: Mutex<Vec<Subscriber>>,
    next_sink: AtomicU64,
    /// Set once the server is shutting down: `subscriptions/listen` streams
    /// end with their final result ([`Live::end_listens`]).
    closing: tokio::sync::watch::Sender<bool>,
    ready: tokio::sync::watch::Sender<bool>,
    ready_by: Instant,
    /// The node event subscriptions `wait_for_events` shares.
    pub hub: super::events::Hub,
    /// The subscription that follows the served contexts' version changes.
    versions: Mutex<Option<Following>>,
    /// The last reason version changes could not be followed, said once.
    follow_told: Mutex<Option<String>>,
    /// When requests and version changes may re-read the node ([`super::reread`]).
    pacer: super::reread::Pacer,
}

/// Version changes gathered into one re-read: those that arrive within this
/// time of the first (an upgrade moves a group's contexts one after another).
const VERSION_SETTLE: Duration = Duration::from_millis(250);

/// The running subscription to the served contexts' events.
struct Following {
    /// The contexts, in hex, sorted.
    keys: Vec<String>,
    task: tokio::task::AbortHandle,
}

impl Drop for Following {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Live {
    /// A live catalog of `session`, starting from the local apps of
    /// `local`; the node's are read through the session.
    pub(crate) fn new(
        session: Arc<Session>,
        local: Catalog,
        scope: Scope,
        refresh_every: Duration,
        startup_wait: Duration,
    ) -> Arc<Live> {
        let backend = (!session.offline()).then(|| Arc::clone(&session) as Arc<dyn Backend>);
        let served = Served::new(local.clone());
        let view = View::build(local, &scope);
        let (ready, _) = tokio::sync::watch::channel(backend.is_none());
        Arc::new(Live {
            session,
            served,
            scope,
            backend,
            refresh_every,
            view: RwLock::new(Arc::new(view)),
            node: Mutex::new(NodeState::default()),
            reading: tokio::sync::Mutex::new(()),
            reads: AtomicU64::new(0),
            subscribers: Mutex::new(Vec::new()),
            next_sink: AtomicU64::new(0),
            closing: tokio::sync::watch::Sender::new(false),
            ready,
            ready_by: Instant::now() + startup_wait,
            hub: super::events::Hub::default(),
            versions: Mutex::new(None),
            follow_told: Mutex::new(None),
            pacer: super::reread::Pacer::new(super::reread::limits().interval),
        })
    }

    /// The current view.
    pub(crate) fn view(&self) -> Arc<View> {
        self.view.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub(crate) fn has_node(&self) -> bool {
        self.backend.is_some()
    }

    pub(crate) fn backend(&self) -> Option<&Arc<dyn Backend>> {
        self.backend.as_ref()
    }

    /// Waits for the first node read, but never past the startup deadline, so
    /// a hanging node cannot hold the first tools/list for long.
    pub(crate) async fn wait_ready(&self) {
        let mut rx = self.ready.subscribe();
        let deadline = tokio::time::Instant::from_std(self.ready_by);
        let _ = tokio::time::timeout_at(deadline, rx.wait_for(|r| *r)).await;
    }

    /// Starts the background reader: a first read now, then one every `--refresh`.
    pub(crate) fn start(self: &Arc<Self>) {
        if self.backend.is_none() {
            return;
        }
        let live = Arc::clone(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(live.refresh_every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let next = tokio::time::Instant::now() + live.refresh_every;
                live.read(false).await;
                live.ready.send_replace(true);
                live.follow_versions().await;
                live.until_code_arrives(next).await;
            }
        });
    }

    /// While the node lists an app whose code has not arrived yet
    /// (`code_pending`: a joined node fetching it from its peers), reads
    /// the node again at the re-read pace ([`super::reread`]) rather than
    /// at the next `--refresh`, so the app is listed (and announced) soon
    /// after its code comes; returns when none is pending or the periodic
    /// read is due.
    async fn until_code_arrives(self: &Arc<Self>, next: tokio::time::Instant) {
        let every = self.pacer.interval().max(Duration::from_millis(100));
        let mut told = false;
        while self.code_pending() && tokio::time::Instant::now() + every < next {
            if !told {
                log::debug!(
                    "an app's code has not arrived on the node yet; looking again every {:.1}s",
                    every.as_secs_f64()
                );
                told = true;
            }
            tokio::time::sleep(every).await;
            if self.refresh().await {
                self.follow_versions().await;
            }
        }
    }

    /// A request showed that a context runs application `id` (say, one
    /// just joined): when the view has no app with that row — installed or
    /// shared since the last read — the node's apps are read again now
    /// (paced as the re-reads of requests, [`super::reread`]), so its tools
    /// are listed without waiting for `--refresh`.
    pub(crate) fn saw_application(self: &Arc<Self>, id: &str) {
        if self.backend.is_none() || id.is_empty() {
            return;
        }
        let view = self.view();
        let known =
            |a: &App| ids::same(&a.id, id) || a.installs.iter().any(|i| ids::same(&i.id, id));
        if view.catalog.apps.iter().any(known)
            || view.catalog.unusable.iter().any(|(a, _)| known(a))
        {
            return;
        }
        log::debug!(
            "a context runs application {}, which the server has not read yet; reading the node's apps again",
            sanitize_line(id)
        );
        let live = Arc::clone(self);
        tokio::spawn(async move {
            if live.refresh().await {
                live.follow_versions().await;
            }
        });
    }

    /// Whether the node's last listing left an app out because its code
    /// has not arrived yet.
    fn code_pending(&self) -> bool {
        let node = self.node.lock().unwrap_or_else(|e| e.into_inner());
        node.apps.1.iter().any(|(_, e)| e.code == Code::CodePending)
    }

    /// Re-reads the node's apps for a request that named something unknown;
    /// returns whether this read changed the listed tools. Concurrent
    /// callers share one read, and within the re-read interval of the last
    /// one ([`super::reread`]) none is started: the caller only waits for a
    /// read in flight.
    pub(crate) async fn refresh(&self) -> bool {
        if !self.pacer.demand_due() {
            let _shared = self.reading.lock().await;
            return false;
        }
        let at = Instant::now();
        let changed = self.read(false).await;
        self.pacer.demand_done(at, self.node_up() == Some(true));
        changed
    }

    /// A lifecycle tool changed the node: its apps are read again now and
    /// both lists announced (`list_changed`), so a new context's tools work
    /// at once.
    pub(crate) async fn reread_now(&self) {
        self.read(true).await;
    }

    /// A call moved context `id` to its group's version (a lazy group
    /// upgrade the node applies at that call): the node's apps are read
    /// again and both lists announced, as for an `AppVersionChanged` and
    /// paced as those re-reads are ([`super::reread`]), without waiting for
    /// the node's event.
    pub(crate) fn version_moved(self: &Arc<Self>, id: &str) {
        log::info!(
            "context {} moves to its group's version on a call; reading the node's apps again",
            sanitize_line(id)
        );
        let live = Arc::clone(self);
        tokio::spawn(async move {
            let due = live.pacer.versions_due();
            tokio::time::sleep_until(tokio::time::Instant::from_std(due)).await;
            live.pacer.versions_started();
            live.read(true).await;
        });
    }

    /// [`Live::refresh`]; `announce`: a context's version changed, so the
    /// read is made even right after another one, and clients that listed
    /// are told even when the tools came out the same.
    async fn read(&self, announce: bool) -> bool {
        let Some(backend) = &self.backend else {
            return false;
        };
        // A read that starts after this call began is as fresh as our own.
        let seen = self.reads.load(Ordering::Acquire);
        let _guard = self.reading.lock().await;
        if !announce && self.reads.load(Ordering::Acquire) != seen {
            return false;
        }
        self.reads.fetch_add(1, Ordering::AcqRel);
        let skip = self.served.local_packages();
        // Listings the calls read since the last refresh are as old as it.
        backend.forget();
        let result = backend.apps_except(&skip).await;
        let url = sanitize_line(&backend.url());
        let Some((apps, unusable)) = self.took(result, &url) else {
            return false;
        };
        let catalog = self
            .served
            .with_node_apps((apps, unusable), &self.session.settings.tools);
        let (changed, seen) = self.install(View::build(catalog, &self.scope));
        calimcp_core::memory::release_freed_memory();
        if changed && seen {
            log::info!("tool list changed; notifying clients");
            self.notify_changed();
        } else if announce && seen {
            log::info!("a served context's version changed; notifying clients");
            self.notify_changed();
        } else if changed {
            log::debug!("tool list changed before any client listed it");
        }
        changed
    }

    /// Records what a read of the node's apps gave and says on stderr what
    /// changed (the node answers again, apps left out, the node stopped
    /// answering); the apps to build the view from, or `None` when the node
    /// did not answer (the last apps read are kept).
    fn took(&self, result: Result<NodeApps>, url: &str) -> Option<NodeApps> {
        let mut node = self.node.lock().unwrap_or_else(|e| e.into_inner());
        let was = node.up;
        let (apps, unusable) = match result {
            Ok(read) => read,
            Err(e) => {
                self.not_answering(&node, &e, url);
                node.up = Some(false);
                return None;
            }
        };
        if was != Some(true) {
            let n = apps.len();
            let level = if was == Some(false) {
                log::Level::Warn
            } else {
                log::Level::Info
            };
            log::write(
                level,
                format_args!(
                    "node at {url} answers: {n} app{}",
                    if n == 1 { "" } else { "s" }
                ),
            );
        }
        for (_, e) in &unusable {
            let line = format!("left out: {}", e.message);
            if !node.told.contains(&line) {
                log::warn!("{line}");
                node.told.push(line);
            }
        }
        log::debug!(
            "read the node's apps: {} with an ABI, {} left out",
            apps.len(),
            unusable.len()
        );
        node.up = Some(true);
        node.apps = (apps, unusable);
        Some(node.apps.clone())
    }

    /// Says on stderr that the node did not answer a read (`e`), worded by
    /// what it did before (`node.up`) and why.
    fn not_answering(&self, node: &NodeState, e: &Error, url: &str) {
        let was = node.up;
        let keep = if node.apps.0.is_empty() {
            "serving the local apps and the fixed tools".to_string()
        } else {
            format!("keeping the {} node apps read before", node.apps.0.len())
        };
        let every = self.refresh_every.as_secs();
        if was == Some(false) {
            log::debug!("node at {url} still not answering: {}", e.message);
        } else if !self.session.settings.node_named
            && e.kind == ErrorKind::Unreachable
            && was.is_none()
        {
            log::info!(
                "no node at the default address {url} ({}); {keep}; looking again every {every}s (--node URL names one, --offline never asks)",
                e.message
            );
        } else if e.kind == ErrorKind::Auth {
            // Answering, but refusing calimcp's login: say so, and how to log in.
            log::warn!(
                "node at {url} refuses calimcp's login ({}{}); {keep}; retrying every {every}s",
                e.message,
                e.hint
                    .as_deref()
                    .map(|h| format!("; {h}"))
                    .unwrap_or_default()
            );
        } else {
            log::warn!(
                "node at {url} is not answering ({}); {keep}; retrying every {every}s",
                e.message
            );
        }
        if was.is_none() {
            let unmatched = self.view().unmatched.clone();
            if !unmatched.is_empty() {
                let names: Vec<String> = unmatched.iter().map(|n| sanitize_line(n)).collect();
                log::warn!(
                    "--app {}: no local app has this name, and the node at {url} is not answering",
                    names.join(", ")
                );
            }
        }
    }

    /// Makes `view` the current one; whether its tools differ from the
    /// last, and whether a client had listed the last.
    fn install(&self, view: View) -> (bool, bool) {
        let mut current = self.view.write().unwrap_or_else(|e| e.into_inner());
        let changed = current.fingerprint() != view.fingerprint();
        let seen = current.served.load(Ordering::Acquire);
        if changed || current.unmatched != view.unmatched {
            for name in view
                .unmatched
                .iter()
                .filter(|n| !current.unmatched.contains(n))
            {
                log::warn!("--app {}: no such app (yet)", sanitize_line(name));
            }
        }
        // An unchanged list keeps the client's mark: a client that listed
        // before any number of idle refreshes is still told of the next change.
        if !changed && seen {
            view.served.store(true, Ordering::Release);
        }
        *current = Arc::new(view);
        (changed, seen)
    }

    /// Keeps the subscription to the served contexts' events in step with
    /// the served apps: opened when there are contexts, opened again when
    /// they change or the last one ended, dropped when there are none.
    /// Called after each periodic read.
    pub(crate) async fn follow_versions(self: &Arc<Self>) {
        let Some(backend) = &self.backend else {
            return;
        };
        if self.node_up() != Some(true) {
            return;
        }
        let view = self.view();
        let apps: Vec<App> = view
            .apps
            .iter()
            .map(|&i| view.catalog.apps[i].clone())
            .collect();
        let contexts = match backend.context_ids(&apps).await {
            Ok(c) => c,
            Err(e) => {
                self.follow_failed(&format!("cannot list the served contexts ({})", e.message));
                return;
            }
        };
        let mut keys: Vec<String> = contexts
            .iter()
            .map(|c| ids::to_form(c, ids::IdForm::Hex))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let mut current = self.versions.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = current.as_ref()
            && f.keys == keys
            && !f.task.is_finished()
        {
            return;
        }
        if keys.is_empty() {
            *current = None;
            return;
        }
        let live = Arc::clone(self);
        let task = tokio::spawn(async move { live.follow(contexts).await }).abort_handle();
        // The one it replaces (if any) is dropped, which ends it.
        *current = Some(Following { keys, task });
    }

    /// Says once (until it changes) why version changes are not followed.
    fn follow_failed(&self, why: &str) {
        let mut told = self.follow_told.lock().unwrap_or_else(|e| e.into_inner());
        if told.as_deref() != Some(why) {
            log::warn!(
                "not following the served contexts' version changes: {why}; a new version shows at the next refresh (every {}s)",
                self.refresh_every.as_secs()
            );
            *told = Some(why.to_string());
        }
    }

    /// Reads the served contexts' events and, on `AppVersionChanged`
    /// events, re-reads the node's apps and tells the clients (once for the
    /// events that come together). Returns when the stream ends; the next
    /// periodic read opens it again.
    async fn follow(self: Arc<Self>, contexts: Vec<String>) {
        let Some(backend) = self.backend.clone() else {
            return;
        };
        let events = match backend.subscribe_only(&contexts).await {
            Ok(events) => events,
            Err(e) => {
                self.follow_failed(&sanitize_line(&e.message));
                return;
            }
        };
        *self.follow_told.lock().unwrap_or_else(|e| e.into_inner()) = None;
        log::debug!(
            "following the version changes of {} served context{}",
            contexts.len(),
            if contexts.len() == 1 { "" } else { "s" }
        );
        let backlog = Arc::new(super::reread::Backlog::new(super::reread::limits().backlog));
        let (rx, _reader) = version_changes(events, &contexts, Arc::clone(&backlog));
        self.reread_on_changes(rx, &backlog).await;
    }

    /// Re-reads the node for each set of version changes `rx` brings
    /// (gathered as [`super::reread`] says), until the stream ends.
    async fn reread_on_changes(
        &self,
        mut rx: tokio::sync::mpsc::UnboundedReceiver<super::reread::Message>,
        backlog: &super::reread::Backlog,
    ) {
        // Changes dropped during a re-read: one more re-read covers them.
        let mut carried = 0;
        loop {
            let mut changes = Vec::new();
            if carried == 0 {
                match rx.recv().await {
                    Some(Ok(c)) => changes.push(c),
                    Some(Err(e)) => {
                        log::debug!("the served contexts' event stream ended: {}", e.message);
                        return;
                    }
                    None => return,
                }
            }
            let due = self.pacer.versions_due();
            if due > Instant::now() + VERSION_SETTLE {
                log::debug!(
                    "a version change came {:.1}s before the next re-read may start; gathering until then",
                    due.saturating_duration_since(Instant::now()).as_secs_f64()
                );
            }
            let until = due.max(Instant::now() + VERSION_SETTLE);
            let ended = super::reread::gather(&mut rx, &mut changes, until).await;
            super::reread::say(&changes, carried + backlog.take_dropped());
            self.pacer.versions_started();
            self.read(true).await;
            drop(changes);
            if ended {
                return;
            }
            carried = backlog.take_dropped();
        }
    }

    /// Sends `notifications/tools/list_changed` and
    /// `notifications/resources/list_changed` (the served apps changed with
    /// the tools) to every subscriber and forgets the ones that are gone. A
    /// `subscriptions/listen` stream gets only the ones it accepted.
    fn notify_changed(&self) {
        let subs = {
            let mut subs = self.subscribers.lock().unwrap_or_else(|e| e.into_inner());
            subs.retain(|s| match s {
                Subscriber::Peer(p) => !p.is_transport_closed(),
                Subscriber::Sink(..) => true,
            });
            subs.clone()
        };
        for sub in subs {
            tokio::spawn(async move {
                let results = match &sub {
                    Subscriber::Peer(p) => [
                        p.notify_tool_list_changed()
                            .await
                            .map_err(|e| e.to_string()),
                        p.notify_resource_list_changed()
                            .await
                            .map_err(|e| e.to_string()),
                    ],
                    Subscriber::Sink(_, s) => {
                        let accepted = s.accepted();
                        let tools = if accepted.tools_list_changed == Some(true) {
                            s.notify_tool_list_changed()
                                .await
                                .map_err(|e| e.to_string())
                        } else {
                            Ok(())
                        };
                        let resources = if accepted.resources_list_changed == Some(true) {
                            s.notify_resource_list_changed()
                                .await
                                .map_err(|e| e.to_string())
                        } else {
                            Ok(())
                        };
                        [tools, resources]
                    }
                };
                for e in results.into_iter().filter_map(std::result::Result::err) {
                    log::debug!("list_changed not delivered: {e}");
                }
            });
        }
    }

    /// Registers a session that began with `initialize`.
    pub(crate) fn subscribe_peer(&self, peer: Peer<RoleServer>) {
        let mut subs = self.subscribers.lock().unwrap_or_else(|e| e.into_inner());
        subs.retain(|s| match s {
            Subscriber::Peer(p) => !p.is_transport_closed(),
            Subscriber::Sink(..) => true,
        });
        subs.push(Subscriber::Peer(peer));
    }

    /// Registers a `subscriptions/listen` stream; returns its key.
    pub(crate) fn subscribe_sink(&self, sink: SubscriptionSink) -> u64 {
        let key = self.next_sink.fetch_add(1, Ordering::Relaxed);
        self.subscribers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Subscriber::Sink(key, sink));
        key
    }

    pub(crate) fn unsubscribe_sink(&self, key: u64) {
        self.subscribers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|s| !matches!(s, Subscriber::Sink(k, _) if *k == key));
    }

    /// The server is shutting down: every `subscriptions/listen` stream ends
    /// gracefully (its handler returns, so the client gets the final
    /// `SubscriptionsListenResult` the 2026-07-28 revision describes for a
    /// server's teardown, instead of a cut stream).
    pub(crate) fn end_listens(&self) {
        self.closing.send_replace(true);
    }

    /// Resolves once [`Live::end_listens`] was called.
    pub(crate) async fn closing(&self) {
        let mut rx = self.closing.subscribe();
        let _ = rx.wait_for(|c| *c).await;
    }

    /// Whether the node answered its last read (`None`: no node, or not yet read).
    pub(crate) fn node_up(&self) -> Option<bool> {
        self.backend.as_ref()?;
        self.node.lock().unwrap_or_else(|e| e.into_inner()).up
    }
}

/// The served `contexts`' version changes from `events`, read in a task of
/// its own (so gathering a burst with a deadline never cuts a read in half;
/// the task ends when the returned guard is dropped). Only the served
/// contexts' `AppVersionChanged` pass, kept in `backlog` within its bytes;
/// the rest is dropped as it is read ([`super::reread`]).
fn version_changes(
    mut events: Box<dyn calimcp_catalog::backend::Events>,
    contexts: &[String],
    backlog: Arc<super::reread::Backlog>,
) -> (
    tokio::sync::mpsc::UnboundedReceiver<super::reread::Message>,
    AbortOnDrop,
) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<super::reread::Message>();
    let served: std::collections::HashSet<ids::IdKey> =
        contexts.iter().map(|c| ids::key(c)).collect();
    let reader = tokio::spawn(async move {
        loop {
            let change = match events.next().await {
                Ok(Item::Event(e))
                    if e.kind == "AppVersionChanged"
                        && served.contains(&ids::key(&e.context_id)) =>
                {
                    match backlog.keep(&e) {
                        Some(c) => Ok(c),
                        None => continue,
                    }
                }
                Ok(_) => continue,
                Err(e) => Err(e),
            };
            let end = change.is_err();
            if tx.send(change).is_err() || end {
                return;
            }
        }
    });
    (rx, AbortOnDrop(reader))
}

/// A mapping tool as an rmcp tool (the JSON `calimcp tools --json` prints).
fn mcp_tool(tool: &Tool, spent: bool) -> Option<rmcp::model::Tool> {
    match serde_json::from_value(tool.to_mcp_with(tool.listed_trees(spent))) {
        Ok(t) => Some(t),
        Err(e) => {
            log::error!("tool {} cannot be listed: {e}", tool.name);
            None
        }
    }
}

/// Compact JSON of a value, for text content blocks.
pub(crate) fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}
