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
use owo_colors::OwoColorize;
use serde_json::Value;

use super::node::state_dir;
use super::{GlobalArgs, output};
use crate::abi::{App, Manifest};
use crate::catalog::context::{Pins, app_contexts, resolve_context};
use crate::error::{Error, ErrorKind, Result};
use crate::mapping::events::{Decoded, Decoder, record};
use crate::mapping::filter::glob_match;
use crate::node::events::{Item, NodeEvent, Subscription};
use crate::node::{Client, NodeContext, ids};
use crate::text::{clock, json_inert, rfc3339, sanitize_line};

/// The exit code when `--stop-after` passes first (as timeout(1) uses).
pub const EXIT_TIMEOUT: u8 = 124;

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
pub struct WatchArgs {
    /// The app: a path or a name among the local apps and the node's
    #[arg(add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates))]
    pub app: String,
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
}

pub(super) fn parse_secs(s: &str) -> std::result::Result<Duration, String> {
    let n: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(n.is_finite() && n > 0.0 && n <= 1e9) {
        return Err("must be a positive number of seconds".into());
    }
    Ok(Duration::from_secs_f64(n))
}

/// One line of output.
pub(super) struct Line {
    time: SystemTime,
    context: String,
    event: String,
    payload: Value,
    valid: Option<bool>,
    problem: Option<String>,
    raw: Option<Vec<u8>>,
}

impl Line {
    /// The line of an application event decoded against the ABI.
    fn decoded(time: SystemTime, context: &str, d: Decoded) -> Line {
        Line {
            time,
            context: context.to_string(),
            event: d.event,
            payload: d.payload,
            valid: Some(d.valid),
            problem: d.problem,
            raw: d.raw,
        }
    }

    pub(super) fn json(&self) -> Value {
        record(
            &rfc3339(self.time),
            &self.context,
            &self.event,
            &self.payload,
            self.valid,
            self.problem.as_deref(),
            self.raw.as_deref(),
        )
    }

    pub(super) fn text(&self, color: bool) -> String {
        let time = clock(self.time);
        let ctx: String = sanitize_line(&self.context).chars().take(8).collect();
        let name = sanitize_line(&self.event);
        let payload = if self.payload.is_null() && self.valid == Some(true) {
            String::new()
        } else {
            format!(" {}", json_inert(self.payload.to_string()))
        };
        let mark = match (self.valid, &self.problem) {
            (Some(false), Some(p)) => format!("  [invalid: {}]", sanitize_line(p)),
            _ => String::new(),
        };
        if color {
            let name = match self.valid {
                None => name.blue().to_string(),
                Some(true) => name.cyan().bold().to_string(),
                Some(false) => name.yellow().bold().to_string(),
            };
            format!(
                "{} {} {name}{payload}{}\n",
                time.dimmed(),
                ctx.dimmed(),
                mark.yellow()
            )
        } else {
            format!("{time} {ctx} {name}{payload}{mark}\n")
        }
    }
}

/// What the stream loop needs to know about the app.
struct Watched<'a> {
    /// The app's package (or id), for `--exec`'s CALIMCP_APP.
    app_name: &'a str,
    /// `--exec` as words.
    exec: Option<Vec<String>>,
    /// The manifest each context's events are read with (by context id bytes).
    by_context: Vec<(String, &'a Manifest)>,
    fallback: &'a Manifest,
}

impl<'a> Watched<'a> {
    fn manifest_for(&self, context: &str) -> &'a Manifest {
        self.by_context
            .iter()
            .find(|(id, _)| ids::same(id, context))
            .map_or(self.fallback, |(_, m)| *m)
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

pub fn run(g: &GlobalArgs, args: WatchArgs) -> Result<u8> {
    if g.node.offline {
        return Err(Error::input(
            "offline",
            "--offline: `watch` reads the node's event stream",
        ));
    }
    let exec = args.exec.as_deref().map(exec_words).transpose()?;
    let session = g.session()?;
    let sel = g.select(&session, std::slice::from_ref(&args.app), true)?;
    let app = &sel.catalog.apps[sel.apps[0]];
    super::report_warnings(&g.ui(), &sel.catalog, &sel.apps);
    let service = g.service.as_deref();
    let client = session.client()?;
    let rt = session.runtime()?;
    let contexts = rt.block_on(watched_contexts(client, app, service, &args.contexts))?;
    let by_context = contexts
        .iter()
        .map(|c| {
            let svc = service.or(c.service_name.as_deref());
            (c.id.clone(), manifest_of(app, svc))
        })
        .collect();
    let watched = Watched {
        app_name: app.package_or_id(),
        exec,
        by_context,
        fallback: manifest_of(app, service),
    };
    let ids: Vec<String> = contexts.iter().map(|c| c.id.clone()).collect();
    let sub = rt.block_on(client.subscribe(&ids))?;
    // Ctrl-C is caught from before "watching" is printed, so a stop right
    // after it still ends cleanly.
    let interrupt = {
        let _rt = rt.enter();
        crate::signals::interrupt()
    };
    let ui = g.ui();
    ui.note(format_args!(
        "watching {} of {} on {} (Ctrl-C to stop)",
        match ids.len() {
            1 => format!("context {}", sanitize_line(&ids[0])),
            n => format!("{n} contexts"),
        },
        sanitize_line(app.package_or_id()),
        client.url()
    ));
    rt.block_on(stream(g, &args, &watched, sub, interrupt))
}

/// The contexts to watch: the given ones, else the pinned one, else all of the app's.
async fn watched_contexts(
    client: &Client,
    app: &App,
    service: Option<&str>,
    given: &[String],
) -> Result<Vec<NodeContext>> {
    let listed = app_contexts(client, app, service).await;
    let known = |id: &str| -> Option<NodeContext> {
        listed
            .as_ref()
            .ok()
            .and_then(|l| l.iter().find(|c| ids::same(&c.id, id)).cloned())
    };
    let one = |id: String| {
        known(&id).unwrap_or(NodeContext {
            id,
            application_id: String::new(),
            service_name: service.map(str::to_string),
            ..NodeContext::default()
        })
    };
    let mut out: Vec<NodeContext> = Vec::new();
    if !given.is_empty() {
        for value in given {
            let id = resolve_context(client, app, service, Some(value), None, false)
                .await?
                .id;
            if !out.iter().any(|c| ids::same(&c.id, &id)) {
                out.push(one(id));
            }
        }
        return Ok(out);
    }
    let pins = Pins::load(&state_dir());
    if let Some(pinned) = pins.get(client.url(), app, service) {
        let id = resolve_context(client, app, service, Some(pinned), None, false)
            .await?
            .id;
        return Ok(vec![one(id)]);
    }
    let list = listed?;
    if list.is_empty() {
        return Err(Error::input(
            "no_context",
            format!(
                "{} has no context on {}: there is nothing to watch",
                sanitize_line(app.package_or_id()),
                client.url()
            ),
        )
        .with_hint("create one (meroctl context create --application-id ID), then watch again"));
    }
    Ok(list)
}

/// How many events have matched, and when to stop.
struct Progress {
    matched: u64,
    warned: HashSet<String>,
}

enum Step {
    Go,
    Stop,
}

async fn stream(
    g: &GlobalArgs,
    args: &WatchArgs,
    w: &Watched<'_>,
    mut sub: Subscription,
    interrupt: impl std::future::Future<Output = ()>,
) -> Result<u8> {
    let mut interrupt = std::pin::pin!(interrupt);
    let ui = g.ui();
    // One decoder per context (it keeps the compiled payload schemas).
    let mut decoders: HashMap<String, Decoder<'_>> = HashMap::new();
    let mut progress = Progress {
        matched: 0,
        warned: HashSet::new(),
    };
    let deadline = args.stop_after.map(|t| tokio::time::Instant::now() + t);
    loop {
        let next = async {
            match deadline {
                Some(d) => tokio::time::timeout_at(d, sub.next()).await.ok(),
                None => Some(sub.next().await),
            }
        };
        let item = tokio::select! {
            item = next => item,
            () = &mut interrupt => return Ok(0),
        };
        let Some(item) = item else {
            let met = match (args.count, &args.until) {
                (None, None) => progress.matched > 0,
                _ => false,
            };
            if met {
                return Ok(0);
            }
            let want = match (args.count, &args.until) {
                (_, Some(name)) => format!("no `{}` event", sanitize_line(name)),
                (Some(n), None) => format!("{} of {n} events", progress.matched),
                (None, None) => "no event".to_string(),
            };
            let secs = args.stop_after.map_or(0.0, |t| t.as_secs_f64());
            ui.error(&Error::new(
                ErrorKind::Remote,
                "timeout",
                format!("{want} arrived within {secs} s"),
            ));
            return Ok(EXIT_TIMEOUT);
        };
        let event = match item? {
            Item::Reconnected => {
                ui.warn("the event stream dropped and was opened again; events the node produced in between are lost");
                continue;
            }
            Item::Event(e) => e,
        };
        for line in lines(w, &mut decoders, &event, args.all) {
            match handle(g, args, w, &mut progress, line)? {
                Step::Go => {}
                Step::Stop => return Ok(0),
            }
        }
    }
}

/// Waits on `sub` for the first application event called `name` in
/// `context`, decoded with `manifest`; `None` when `deadline` passes first.
/// What `call --wait-event` uses: the subscription is made before the call,
/// so the event cannot be missed.
pub(super) async fn wait_for(
    ui: &output::Ui,
    sub: &mut Subscription,
    manifest: &Manifest,
    context: &str,
    name: &str,
    deadline: tokio::time::Instant,
) -> Result<Option<Line>> {
    let mut decoder = Decoder::new(manifest);
    loop {
        let item = match tokio::time::timeout_at(deadline, sub.next()).await {
            Ok(item) => item?,
            Err(_) => return Ok(None),
        };
        let event = match item {
            Item::Reconnected => {
                ui.warn("the event stream dropped and was opened again; an event the node produced in between is lost");
                continue;
            }
            Item::Event(e) => e,
        };
        if !ids::same(&event.context_id, context) {
            continue;
        }
        for e in event.app_events() {
            if e.kind != name {
                continue;
            }
            let d = decoder.decode(&e.kind, &e.data);
            if let (false, Some(problem)) = (d.valid, &d.problem) {
                ui.warn(format_args!("event `{}`: {problem}", sanitize_line(name)));
            }
            return Ok(Some(Line::decoded(SystemTime::now(), &event.context_id, d)));
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
    let app_events = event.app_events();
    if event.kind != "StateMutation" || app_events.is_empty() {
        if !all {
            return Vec::new();
        }
        return vec![Line {
            time,
            context: event.context_id.clone(),
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
    w: &Watched<'_>,
    p: &mut Progress,
    line: Line,
) -> Result<Step> {
    if !args.events.is_empty() && !args.events.iter().any(|pat| glob_match(pat, &line.event)) {
        return Ok(Step::Go);
    }
    let ui = g.ui();
    if let (Some(false), Some(problem)) = (line.valid, &line.problem) {
        let key = format!("{}\0{problem}", line.event);
        if p.warned.insert(key) {
            ui.warn(format_args!(
                "event `{}`: {problem} (shown marked; `calimcp describe` lists the ABI's events)",
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
    if let Some(argv) = &w.exec {
        exec(&ui, argv, w.app_name, &line, &json_line);
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
        Some(_) => Err(Error::input("usage", "--exec: the command is empty")),
        None => Err(Error::input(
            "usage",
            format!("--exec: a quote is not closed in `{}`", sanitize_line(cmd)),
        )
        .with_hint("calimcp runs the command without a shell; for pipes or redirections write one: --exec 'sh -c \"…\"'")),
    }
}

/// Runs `--exec` for one event; a failure is a warning, not the end.
fn exec(ui: &output::Ui, argv: &[String], app: &str, line: &Line, json_line: &Value) {
    let Some((program, rest)) = argv.split_first() else {
        return;
    };
    let status = std::process::Command::new(program)
        .args(rest)
        .env("CALIMCP_EVENT", &line.event)
        .env("CALIMCP_CONTEXT", &line.context)
        .env("CALIMCP_APP", app)
        .stdin(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            if let Some(mut stdin) = child.stdin.take() {
                // A command that does not read its input is fine.
                let _ = writeln!(stdin, "{json_line}");
            }
            child.wait()
        });
    let shown = sanitize_line(program);
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => ui.warn(format_args!(
            "--exec: `{shown}` exited with {s} for event `{}`",
            sanitize_line(&line.event)
        )),
        Err(e) => ui.warn(format_args!("--exec: cannot run `{shown}`: {e}")),
    }
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_secs("1.5").unwrap(), Duration::from_millis(1500));
        assert!(parse_secs("0").is_err());
        assert!(parse_secs("-1").is_err());
        assert!(parse_secs("x").is_err());
        assert!(parse_secs("inf").is_err());
    }
}
