//! `calimcp watch APP`: an app's events from a node, decoded and checked
//! against its ABI, one line each (or one JSON object each with `--json`),
//! with the stops a CI script needs (`--count`, `--until`, `--stop-after`).
//! It runs until one of those stops it or Ctrl-C: the global `--timeout`
//! bounds each request to the node, never the watch.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, SystemTime};

use clap::Args;

use super::args::parse_secs;
use super::events::Line;
use super::{GlobalArgs, output};
use calimcp_catalog::context::NodeContext;
use calimcp_catalog::events::{Item, NodeEvent, Reconnect, Subscription, group_id, span};
use calimcp_catalog::ids;
use calimcp_core::abi::{App, Manifest};
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::mapping::events::Decoder;
use calimcp_core::mapping::filter::glob_match;
use calimcp_core::text::sanitize_line;

/// Print an app's events as they happen on the node, decoded with its ABI.
///
/// Subscribes to the node's event stream (SSE) for the app's contexts: the
/// ones given with --context, else the one pinned with `calimcp use`, else
/// every context of the app on the node. Each application event is matched to
/// the ABI's event of that name and its payload checked against the ABI; an
/// undeclared event or a payload that does not match is still printed, marked,
/// with one warning naming the problem.
///
/// Text output: time (UTC), context (its first 8 characters), event, payload.
/// --json: one object per line, {"time","context","event","payload","valid"},
/// plus "problem" when not valid and "raw" (the bytes) when the data is not
/// JSON. --all adds the node's own events (SyncStatus, AppVersionChanged, …)
/// in the same shape, their type as the event name.
///
/// --group GROUP_ID (a group or namespace, 64 hex; repeatable) adds that
/// group's membership and migration events (MemberJoined, MemberAdded,
/// MemberRemoved, MigrationStarted, MigrationProgress, CascadeProgress,
/// MigrationCompleted), which merod 0.11.0-rc.18 and later send: the node's
/// payload as is, "context" empty and "group" the group's id (the text
/// output shows the group's first 8 characters where a context's would be).
/// Without APP only the groups are watched. A node before rc.18 (such as
/// 0.11.0-rc.4) has no group subscriptions: refused (exit 2).
#[derive(Debug, Args)]
#[command(
    after_help = "Without --count, --until or --stop-after a watch runs until Ctrl-C; the global --timeout bounds each request to the node, not the watch.

Exit codes: 0 when --count or --until is met, on Ctrl-C, or when --stop-after passes after what it waited for; 124 when --stop-after passes first; the others as for every command.

Examples:
  calimcp watch kv-store                          # every context of the app
  calimcp watch kv-store -c my-alias --json
  calimcp watch kv-store --until Removed --stop-after 30 && echo removed
  calimcp watch kv-store --event 'Insert*' --exec 'sh -c \"jq -c .payload >> log.ndjson\"'"
)]
pub(crate) struct WatchArgs {
    /// The app: a path or a name among the local apps and the node's (none with --group: the groups only)
    #[arg(
        add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates),
        required_unless_present = "groups"
    )]
    pub app: Option<String>,
    /// Also watch a group or namespace (its id, 64 hex): its membership and migration events (merod 0.11.0-rc.18 and later; repeatable)
    #[arg(long = "group", value_name = "GROUP_ID")]
    pub groups: Vec<String>,
    /// A context to watch: an id (base58 or 64 hex) or an alias (repeatable)
    #[arg(short = 'c', long = "context", value_name = "ID|ALIAS")]
    pub contexts: Vec<String>,
    /// Only events whose name matches (`*` and `?` globs; repeatable)
    #[arg(long = "event", value_name = "NAME")]
    pub events: Vec<String>,
    /// Exit 0 after N matching events
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// Exit 0 after the first event called NAME (printed)
    #[arg(long, value_name = "NAME")]
    pub until: Option<String>,
    /// Stop the watch after SECS seconds: exit 124 if --count or --until was not met (without them, if no event came), else 0 [default: run until stopped]
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub stop_after: Option<Duration>,
    /// Run CMD (no shell: words and quotes only) for each event: its JSON line on stdin, CALIMCP_EVENT, CALIMCP_CONTEXT and CALIMCP_APP set
    #[arg(long, value_name = "CMD")]
    pub exec: Option<String>,
    /// Also show the node's own events (sync status, app version changes, …)
    #[arg(long)]
    pub all: bool,
    /// When the event stream drops, keep trying to reopen it for SECS seconds (backing off up to 30 s between tries), then stop with exit 4
    #[arg(long, value_name = "SECS", value_parser = parse_secs, default_value = "300")]
    pub reconnect_for: Duration,
}

/// What the stream loop needs to know about the app.
struct Watched<'a> {
    /// The app's package (or id), for `--exec`'s CALIMCP_APP.
    app_name: &'a str,
    /// `--exec` as words.
    exec: Option<Vec<String>>,
    /// The bytes `--exec`'s waiting runs may hold (`CALIMCP_MAX_EXEC_QUEUE`).
    exec_max: u64,
    /// The manifest each context's events are read with (by context id bytes).
    by_context: ids::ById<&'a Manifest>,
    fallback: &'a Manifest,
}

impl<'a> Watched<'a> {
    fn watches(&self, context: &str) -> bool {
        !self.by_context.get(context).is_empty()
    }

    fn manifest_for(&self, context: &str) -> &'a Manifest {
        self.by_context
            .get(context)
            .first()
            .map_or(self.fallback, |m| *m)
    }
}

impl<'a> Watched<'a> {
    /// What is watched: `contexts` of `app`, each decoded with its service's ABI.
    fn new(
        app: &'a App,
        service: Option<&str>,
        contexts: &[NodeContext],
        exec: Option<Vec<String>>,
        exec_max: u64,
    ) -> Watched<'a> {
        let by_context = ids::ById::new(contexts.iter().map(|c| {
            let svc = service.or(c.service_name.as_deref());
            (c.id.as_str(), manifest_of(app, svc))
        }));
        Watched {
            app_name: app.package_or_id(),
            exec,
            exec_max,
            by_context,
            fallback: manifest_of(app, service),
        }
    }
}

/// The manifest a context's events are decoded with: its service's.
fn manifest_of<'a>(app: &'a App, service: Option<&str>) -> &'a Manifest {
    let s = app
        .service(service)
        .or_else(|| app.services.first())
        .map(|s| &*s.manifest);
    s.unwrap_or_else(|| empty_manifest())
}

fn empty_manifest() -> &'static Manifest {
    static EMPTY: std::sync::OnceLock<Manifest> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Manifest::default)
}

pub(crate) fn run(g: &GlobalArgs, args: WatchArgs) -> Result<()> {
    let exec = args.exec.as_deref().map(exec_words).transpose()?;
    let exec_max = super::node::size_env("CALIMCP_MAX_EXEC_QUEUE", DEFAULT_MAX_EXEC_QUEUE)?;
    let groups: Vec<String> = args
        .groups
        .iter()
        .map(|g| group_id(g))
        .collect::<Result<_>>()?;
    let session = g.session()?;
    session.node("`watch` (it reads the node's event stream)")?;
    let Some(app_name) = args.app.clone() else {
        return run_groups(g, &args, &session, &groups, exec, exec_max);
    };
    let sel = g.select(&session, std::slice::from_ref(&app_name), true)?;
    let app = &sel.catalog.apps[sel.apps[0]];
    super::report_warnings(&g.ui(), &sel.catalog, &sel.apps);
    let service = g.service.as_deref();
    if let Some(name) = &args.until {
        super::events::warn_undeclared(&g.ui(), app, service, name);
    }
    let rt = session.runtime()?;
    let pinned = session.pinned(None, app, service)?;
    let contexts =
        rt.block_on(session.contexts_to_watch(app, service, &args.contexts, pinned.as_deref()))?;
    let watched = Watched::new(app, service, &contexts, exec, exec_max);
    let ids: Vec<String> = contexts.iter().map(|c| c.id.clone()).collect();
    // --stop-after counts from here: opening the stream is inside it.
    let deadline = args.stop_after.map(|t| tokio::time::Instant::now() + t);
    let opening = async {
        match deadline {
            Some(d) => tokio::time::timeout_at(d, session.subscribe_groups(&ids, &groups))
                .await
                .ok(),
            None => Some(session.subscribe_groups(&ids, &groups).await),
        }
    };
    let Some(sub) = rt.block_on(opening) else {
        return Err(Error::new(
            ErrorKind::Timeout,
            Code::Timeout,
            format!(
                "no event arrived within {} s: the node at {} did not even open its event stream in that time",
                args.stop_after.map_or(0.0, |t| t.as_secs_f64()),
                session.url()?
            ),
        ));
    };
    let mut sub = sub?;
    sub.set_reconnect(Reconnect {
        for_: args.reconnect_for,
    });
    // Ctrl-C is caught from before "watching" is printed, so a stop right
    // after it still ends cleanly.
    let interrupt = {
        let _rt = rt.enter();
        crate::signals::interrupt()
    };
    let ui = g.ui();
    // With --json stderr holds JSON lines only: this one is `{"note": …}`.
    ui.status(format_args!(
        "watching {} of {} on {} (Ctrl-C to stop)",
        match ids.len() {
            1 => format!(
                "context {}",
                sanitize_line(&as_typed(&args.contexts, &ids[0]))
            ),
            n => format!("{n} contexts"),
        },
        sanitize_line(app.package_or_id()),
        session.url()?
    ));
    rt.block_on(stream(g, &args, &watched, sub, deadline, interrupt))
}

/// `watch --group GROUP_ID` without an app: the groups' events only.
fn run_groups(
    g: &GlobalArgs,
    args: &WatchArgs,
    session: &calimcp_catalog::session::Session,
    groups: &[String],
    exec: Option<Vec<String>>,
    exec_max: u64,
) -> Result<()> {
    let rt = session.runtime()?;
    let watched = Watched {
        app_name: "",
        exec,
        exec_max,
        by_context: ids::ById::new(std::iter::empty()),
        fallback: empty_manifest(),
    };
    let deadline = args.stop_after.map(|t| tokio::time::Instant::now() + t);
    let opening = async {
        match deadline {
            Some(d) => tokio::time::timeout_at(d, session.subscribe_groups(&[], groups))
                .await
                .ok(),
            None => Some(session.subscribe_groups(&[], groups).await),
        }
    };
    let Some(sub) = rt.block_on(opening) else {
        return Err(Error::new(
            ErrorKind::Timeout,
            Code::Timeout,
            format!(
                "no event arrived within {} s: the node at {} did not even open its event stream in that time",
                args.stop_after.map_or(0.0, |t| t.as_secs_f64()),
                session.url()?
            ),
        ));
    };
    let mut sub = sub?;
    sub.set_reconnect(Reconnect {
        for_: args.reconnect_for,
    });
    let interrupt = {
        let _rt = rt.enter();
        crate::signals::interrupt()
    };
    g.ui().status(format_args!(
        "watching {} on {} (Ctrl-C to stop)",
        match groups {
            [one] => format!("group {}", sanitize_line(one)),
            more => format!("{} groups", more.len()),
        },
        session.url()?
    ));
    rt.block_on(stream(g, args, &watched, sub, deadline, interrupt))
}

/// A watched context as the user gave it: the id in the form they typed it
/// (`-c 00…00` is not echoed in the node's base58), or `ALIAS (ID)`.
fn as_typed(given: &[String], id: &str) -> String {
    match given {
        [typed] if ids::same(typed, id) => typed.clone(),
        [typed] => format!("{typed} ({id})"),
        _ => id.to_string(),
    }
}

/// How many events have matched, and when to stop.
struct Progress {
    matched: u64,
    /// The events warned about as invalid (by name, at most [`MAX_WARNED`]).
    warned: HashSet<String>,
}

/// Distinct event names warned about as invalid; past that, one more warning
/// says the rest are not (the set would otherwise grow with a hostile stream).
const MAX_WARNED: usize = 64;

enum Step {
    Go,
    Stop,
}

async fn stream(
    g: &GlobalArgs,
    args: &WatchArgs,
    w: &Watched<'_>,
    mut sub: Subscription,
    deadline: Option<tokio::time::Instant>,
    interrupt: impl std::future::Future<Output = ()>,
) -> Result<()> {
    let mut interrupt = std::pin::pin!(interrupt);
    let ui = g.ui();
    // One decoder per context (it keeps the compiled payload schemas).
    let mut decoders: HashMap<String, Decoder<'_>> = HashMap::new();
    let mut progress = Progress {
        matched: 0,
        warned: HashSet::new(),
    };
    let mut runner = w
        .exec
        .clone()
        .map(|argv| Runner::start(ui, argv, w.app_name.to_string(), w.exec_max));
    loop {
        let next = async {
            match deadline {
                Some(d) => tokio::time::timeout_at(d, sub.next()).await.ok(),
                None => Some(sub.next().await),
            }
        };
        let item = tokio::select! {
            item = next => item,
            () = &mut interrupt => return Ok(()),
        };
        let Some(item) = item else {
            return ended(args, &progress);
        };
        let item = item.map_err(|e| match e.code {
            Code::StreamLost => e.context("the watch stopped"),
            _ => e,
        })?;
        let Some(event) = announce(ui, item) else {
            continue;
        };
        // Only the watched contexts count (a node may send others' events);
        // a group's event came for a group the subscription named.
        if event.group_id.is_none() && !w.watches(&event.context_id) {
            continue;
        }
        for line in lines(w, &mut decoders, &event, args.all) {
            match handle(g, args, &mut progress, runner.as_mut(), line)? {
                Step::Go => {}
                Step::Stop => {
                    if let Some(r) = runner.take() {
                        finish(r, deadline, &mut interrupt).await;
                    }
                    return Ok(());
                }
            }
        }
    }
}

/// The stream ended at `--stop-after`: done if what was asked for came
/// (any event, without `--count` or `--until`), else a timeout saying what
/// did not arrive.
fn ended(args: &WatchArgs, progress: &Progress) -> Result<()> {
    if args.count.is_none() && args.until.is_none() && progress.matched > 0 {
        return Ok(());
    }
    let want = match (args.count, &args.until) {
        (_, Some(name)) => format!("no `{}` event", sanitize_line(name)),
        (Some(n), None) => format!("{} of {n} events", progress.matched),
        (None, None) => "no event".to_string(),
    };
    let secs = args.stop_after.map_or(0.0, |t| t.as_secs_f64());
    Err(Error::new(
        ErrorKind::Timeout,
        Code::Timeout,
        format!("{want} arrived within {secs} s"),
    ))
}

/// An item of the stream: an event to handle, or what happened to the
/// stream (dropped, back, a context without state yet), said as a warning.
fn announce(ui: output::Ui, item: Item) -> Option<NodeEvent> {
    match item {
        Item::Dropped => ui.warn(format_args!(
            "the event stream dropped; reopening it (events the node produces meanwhile are lost)"
        )),
        Item::Reconnected { down } => ui.warn(format_args!(
            "the event stream is back: opened again after {}; events the node produced in between are lost",
            span(down)
        )),
        Item::Uninitialized { context, why } => ui.warn(format_args!(
            "context {} has no state on this node yet: {}; its events come once the node has synced it, in bursts at each sync (hint: {})",
            sanitize_line(&context),
            why.why,
            why.hint
        )),
        Item::Event(e) => return Some(e),
    }
    None
}

/// After the last event: the commands of the printed events still run
/// (Ctrl-C and `--stop-after` stop waiting for them).
async fn finish(
    runner: Runner,
    deadline: Option<tokio::time::Instant>,
    interrupt: &mut std::pin::Pin<&mut impl std::future::Future<Output = ()>>,
) {
    let until = async {
        match deadline {
            Some(d) => tokio::time::sleep_until(d).await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        () = runner.finish() => {}
        () = interrupt => {}
        () = until => {}
    }
}

/// One `--exec` run: the event's name, context and JSON line, and its share
/// of the queue's bytes.
struct Job {
    event: String,
    context: String,
    json: String,
    _held: crate::budget::Held,
}

/// Commands not yet run that `--exec` holds before skipping events.
const EXEC_QUEUE: usize = 1024;
/// Bytes those runs may hold (`CALIMCP_MAX_EXEC_QUEUE`).
pub(crate) const DEFAULT_MAX_EXEC_QUEUE: u64 = 64 << 20;

/// `--exec`'s commands, run one after another on a thread of their own, so
/// the stream, `--stop-after` and Ctrl-C are serviced while one runs. At
/// most [`EXEC_QUEUE`] runs, holding at most the byte budget, wait their turn.
struct Runner {
    tx: Option<std::sync::mpsc::SyncSender<Job>>,
    /// Told when the thread has run every queued command.
    done: Option<tokio::sync::oneshot::Receiver<()>>,
    budget: std::sync::Arc<crate::budget::Budget>,
    /// Events printed without their run since the queue last had room.
    skipped: u64,
}

impl Runner {
    fn start(ui: output::Ui, argv: Vec<String>, app: String, max_bytes: u64) -> Runner {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Job>(EXEC_QUEUE);
        let (done_tx, done) = tokio::sync::oneshot::channel();
        // Detached: calimcp never waits for it on exit (a command may run on).
        std::thread::spawn(move || {
            for job in rx {
                exec(&ui, &argv, &app, &job);
            }
            let _ = done_tx.send(());
        });
        Runner {
            tx: Some(tx),
            done: Some(done),
            budget: crate::budget::Budget::new(max_bytes),
            skipped: 0,
        }
    }

    /// Queues a run of `json` for `event`; when the queue is full (by count
    /// or by bytes) the run is skipped, with a warning naming what is
    /// dropped, and another saying how many were once there is room again.
    fn push(&mut self, ui: &output::Ui, event: &str, context: &str, json: String) {
        let Some(tx) = &self.tx else { return };
        let bytes = (json.len() + event.len() + context.len()) as u64;
        let held = self.budget.take(bytes);
        let full = match held {
            None => Some(format!(
                "the runs waiting hold {} of the {} CALIMCP_MAX_EXEC_QUEUE allows, and this one takes {}",
                crate::budget::approx(self.budget.held()),
                calimcp_core::text::size(self.budget.limit()),
                crate::budget::approx(bytes)
            )),
            Some(held) => {
                let job = Job {
                    event: event.to_string(),
                    context: context.to_string(),
                    json,
                    _held: held,
                };
                match tx.try_send(job) {
                    Ok(()) => None,
                    Err(_) => Some(format!(
                        "{EXEC_QUEUE} runs are waiting for the command to finish"
                    )),
                }
            }
        };
        match full {
            Some(why) => {
                self.skipped += 1;
                if self.skipped == 1 {
                    ui.warn(format_args!(
                        "--exec: {why}; it is not run for event `{}` and further events while that lasts",
                        sanitize_line(event)
                    ));
                }
            }
            None if self.skipped > 0 => {
                ui.warn(format_args!(
                    "--exec: runs resume; {} printed without their run",
                    match self.skipped {
                        1 => "1 event was".to_string(),
                        n => format!("{n} events were"),
                    }
                ));
                self.skipped = 0;
            }
            None => {}
        }
    }

    /// Waits for the queued runs to finish (without blocking the runtime).
    async fn finish(mut self) {
        self.tx = None;
        if let Some(done) = self.done.take() {
            let _ = done.await;
        }
    }
}

/// The output lines one node event stands for.
fn lines<'m>(
    w: &Watched<'m>,
    decoders: &mut HashMap<String, Decoder<'m>>,
    event: &NodeEvent,
    all: bool,
) -> Vec<Line> {
    let time = SystemTime::now();
    if let Some(group) = &event.group_id {
        return vec![Line {
            time,
            context: String::new(),
            group: Some(group.clone()),
            event: event.kind.clone(),
            payload: event.data.clone(),
            valid: None,
            problem: None,
            raw: None,
        }];
    }
    let app_events = event.app_events();
    if event.kind != "StateMutation" || app_events.is_empty() {
        if !all {
            return Vec::new();
        }
        return vec![Line {
            time,
            context: event.context_id.clone(),
            group: None,
            event: event.kind.clone(),
            payload: event.data.clone(),
            valid: None,
            problem: None,
            raw: None,
        }];
    }
    let decoder = decoders
        .entry(event.context_id.clone())
        .or_insert_with(|| Decoder::new(w.manifest_for(&event.context_id)));
    app_events
        .iter()
        .map(|e| Line::decoded(time, &event.context_id, decoder.decode(&e.kind, &e.data)))
        .collect()
}

fn handle(
    g: &GlobalArgs,
    args: &WatchArgs,
    p: &mut Progress,
    runner: Option<&mut Runner>,
    line: Line,
) -> Result<Step> {
    if !args.events.is_empty() && !args.events.iter().any(|pat| glob_match(pat, &line.event)) {
        return Ok(Step::Go);
    }
    let ui = g.ui();
    // One warning per event name (a problem's text carries the values, so
    // it differs from one event to the next), for at most MAX_WARNED names.
    if let (Some(false), Some(problem)) = (line.valid, &line.problem)
        && p.warned.len() <= MAX_WARNED
        && !p.warned.contains(&line.event)
    {
        if p.warned.len() == MAX_WARNED {
            ui.warn(format_args!(
                "{MAX_WARNED} events have been warned about; further invalid events are shown marked without a warning"
            ));
            p.warned.insert(String::new());
        } else {
            p.warned.insert(line.event.clone());
            ui.warn(format_args!(
                "event `{}`: {problem} (shown marked, and further `{}` events without a warning; `calimcp describe` lists the ABI's events)",
                sanitize_line(&line.event),
                sanitize_line(&line.event)
            ));
        }
    }
    let json_line = line.json();
    let printed = if g.json {
        output::print_json_compact(&json_line)
    } else {
        output::print(&line.text(ui.color_out))
    };
    match printed {
        Ok(()) => {}
        Err(e) if output::is_broken_pipe(&e) => return Ok(Step::Stop),
        Err(e) => return Err(e),
    }
    if let Some(r) = runner {
        r.push(&ui, &line.event, &line.context, json_line.to_string());
    }
    p.matched += 1;
    let until = args.until.as_deref().is_some_and(|u| u == line.event);
    let enough = args.count.is_some_and(|n| p.matched >= n);
    Ok(if until || enough {
        Step::Stop
    } else {
        Step::Go
    })
}

/// `--exec CMD` as words: split on blanks, with `'…'` and `"…"` quoting and
/// `\` escapes (outside single quotes), as a shell splits a simple command;
/// no expansion of any kind. `None` when a quote is left open.
fn words(cmd: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => cur.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => cur.push(c),
                            c => {
                                cur.push('\\');
                                cur.push(c);
                            }
                        },
                        c => cur.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                cur.push(chars.next()?);
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    Some(out)
}

/// Checks `--exec CMD` before anything is watched.
fn exec_words(cmd: &str) -> Result<Vec<String>> {
    match words(cmd) {
        Some(w) if !w.is_empty() => Ok(w),
        Some(_) => Err(Error::input(Code::Usage, "--exec: the command is empty")),
        None => Err(Error::input(
            Code::Usage,
            format!("--exec: a quote is not closed in `{}`", sanitize_line(cmd)),
        )
        .with_hint("calimcp runs the command without a shell; for pipes or redirections write one: --exec 'sh -c \"…\"'")),
    }
}

/// Variables an `--exec` command does not inherit: the node credentials.
const SECRET_VARS: &[&str] = &[
    "CALIMERO_AUTH_TOKEN",
    "CALIMERO_REFRESH_TOKEN",
    "CALIMERO_PASSWORD",
    "CALIMERO_PASSWORD_FILE",
];

/// Runs `--exec` for one event; a failure is a warning, not the end. The
/// JSON line is written to the command's stdin from a thread of its own, so
/// a command that does not read it (and a line past the pipe's 64 KiB) never
/// holds the watch: the write ends when the command does.
fn exec(ui: &output::Ui, argv: &[String], app: &str, job: &Job) {
    let Some((program, rest)) = argv.split_first() else {
        return;
    };
    let mut cmd = std::process::Command::new(program);
    cmd.args(rest)
        .env("CALIMCP_EVENT", &job.event)
        .env("CALIMCP_CONTEXT", &job.context)
        .env("CALIMCP_APP", app)
        .stdin(Stdio::piped());
    for var in SECRET_VARS {
        cmd.env_remove(var);
    }
    let status = cmd.spawn().and_then(|mut child| {
        if let Some(mut stdin) = child.stdin.take() {
            let line = format!("{}\n", job.json);
            // A command that does not read its input is fine.
            std::thread::spawn(move || {
                let _ = stdin.write_all(line.as_bytes());
            });
        }
        child.wait()
    });
    let shown = sanitize_line(program);
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => ui.warn(format_args!(
            "--exec: `{shown}` exited with {s} for event `{}`",
            sanitize_line(&job.event)
        )),
        Err(e) => ui.warn(format_args!("--exec: cannot run `{shown}`: {e}")),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_watched_context_is_named_as_typed() {
        let b58 = "11111111111111111111111111111111";
        let hex = "0".repeat(64);
        assert_eq!(super::as_typed(std::slice::from_ref(&hex), b58), hex);
        assert_eq!(
            super::as_typed(&["prod".to_string()], b58),
            format!("prod ({b58})")
        );
        assert_eq!(super::as_typed(&[], b58), b58);
    }

    use super::*;

    #[test]
    fn exec_splits_words_like_a_shell_without_one() {
        assert_eq!(
            words(r#"sh -c 'echo "$X" | wc'  a\ b "q\"d" '' "#).unwrap(),
            ["sh", "-c", r#"echo "$X" | wc"#, "a b", r#"q"d"#, ""]
        );
        assert_eq!(words("  ").unwrap(), Vec::<String>::new());
        assert!(words("sh -c 'open").is_none());
        assert!(exec_words("").is_err());
        assert!(
            exec_words("x 'y")
                .unwrap_err()
                .hint
                .unwrap()
                .contains("sh -c")
        );
    }

    /// The request bound never becomes the watch's run time (issue 20.1).
    #[test]
    fn the_request_bound_is_not_the_watch_time() {
        use clap::Parser;
        for argv in [
            &["calimcp", "--timeout", "50", "watch", "kv"][..],
            &["calimcp", "watch", "kv", "--timeout", "50"],
            &["calimcp", "watch", "kv"],
        ] {
            let cli = super::super::Cli::try_parse_from(argv).unwrap();
            let super::super::Command::Watch(w) = cli.command else {
                panic!("{argv:?}");
            };
            assert_eq!(w.stop_after, None, "{argv:?}");
        }
        let cli =
            super::super::Cli::try_parse_from(["calimcp", "watch", "kv", "--stop-after", "2"])
                .unwrap();
        let super::super::Command::Watch(w) = cli.command else {
            panic!()
        };
        assert_eq!(w.stop_after, Some(Duration::from_secs(2)));
        assert_eq!(cli.global.node.timeout, None);
    }
}
