//! `calimcp serve`: parse the flags, hand the server its settings.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{FilterArgs, GlobalArgs};
use crate::mcp::{self, HttpOptions, LogLevel, Settings, Transport};
use calimcp_catalog;
use calimcp_core::error::{Code, Result};

/// Serve the apps' methods as MCP tools (stdio by default), for AI agents.
///
/// Tools are exactly those `calimcp tools --json` prints for the same apps and
/// options, plus six fixed tools: describe_app, select_app, wait_for_events
/// (an app's events in a context, decoded with its ABI), wait_for_context,
/// call_until (a [view] tool repeated until its result is a value) and
/// call_many (up to 32 app tool calls, answered in order); --allow
/// and --deny apply to them too. Arguments are validated against each tool's
/// schema before anything reaches the node.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp serve --apps examples
  calimcp serve --apps examples --read-only --app kv-store
  calimcp serve --apps examples --http 127.0.0.1:8765")]
pub(crate) struct ServeArgs {
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Serve Streamable HTTP on ADDR (PORT, HOST:PORT or IP:PORT; loopback unless named) instead of stdio
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
    /// With --http: also accept requests whose Host header is NAME (repeatable)
    #[arg(long, value_name = "NAME", requires = "http")]
    pub allow_host: Vec<String>,
    /// With --http: also let browser pages of ORIGIN call /mcp, CORS preflight answered (https://app.example, http://host:8080, http://host:*; repeatable)
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    pub allow_origin: Vec<String>,
    /// With --http: close a session idle (no request in flight, no stream open) for SECS seconds and reclaim its memory
    #[arg(long, value_name = "SECS", default_value_t = 300, requires = "http", value_parser = clap::value_parser!(u64).range(1..))]
    pub session_idle: u64,
    /// Re-read the node's apps every SECS seconds
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub refresh: u64,
    /// Execute every call as this identity: a public key (base58 or hex) or an identity alias; honoured by merod 0.10.x only
    #[arg(long = "as", value_name = "IDENTITY")]
    pub executor: Option<String>,
    /// Tool sets to serve besides the app tools: lifecycle (install, create, join, delete, aliases), blobs (upload_blob, list_blobs, delete_blob) or all; comma-separated
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub toolsets: Vec<String>,
    /// With the lifecycle toolset: install_application may install paths inside DIR
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub install_from: Option<PathBuf>,
    /// Diagnostics on stderr from this level up
    #[arg(long, value_enum, default_value_t = LogLevelArg::Warn, value_name = "LEVEL")]
    pub log_level: LogLevelArg,
}

/// `--log-level` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogLevelArg {
    Off,
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl From<LogLevelArg> for LogLevel {
    fn from(l: LogLevelArg) -> LogLevel {
        match l {
            LogLevelArg::Off => LogLevel::Off,
            LogLevelArg::Error => LogLevel::Error,
            LogLevelArg::Warn => LogLevel::Warn,
            LogLevelArg::Info => LogLevel::Info,
            LogLevelArg::Debug => LogLevel::Debug,
            LogLevelArg::Trace => LogLevel::Trace,
        }
    }
}

pub(crate) fn run(g: &GlobalArgs, args: ServeArgs) -> Result<()> {
    let (paths, names): (Vec<String>, Vec<String>) = args
        .filter
        .app
        .iter()
        .cloned()
        .partition(|a| calimcp_catalog::looks_like_path(a));
    mcp::http::set_limits(limits_from_env()?);
    mcp::reread::set_limits(reread_limits_from_env()?);
    // One session for the server's life: its node client serves every call.
    let mut session = g.session()?;
    if let Some(o) = session.settings.node.as_mut() {
        o.identity = args.executor.clone();
    }
    let settings = Settings {
        session,
        app_paths: paths.into_iter().map(PathBuf::from).collect(),
        app_names: names,
        filter: args.filter.filter(),
        transport: match args.http {
            None => Transport::Stdio,
            Some(addr) => Transport::Http(HttpOptions {
                addr,
                allow_hosts: args.allow_host,
                allow_origins: args.allow_origin,
                session_idle: Duration::from_secs(args.session_idle),
            }),
        },
        refresh: Duration::from_secs(args.refresh),
        startup_wait: mcp::DEFAULT_STARTUP_WAIT,
        toolsets: mcp::lifecycle::parse_toolsets(&args.toolsets)
            .map_err(|e| calimcp_core::error::Error::input(Code::Usage, e))?,
        install_from: args.install_from,
        log_level: if g.quiet && args.log_level == LogLevelArg::Warn {
            LogLevel::Error
        } else {
            args.log_level.into()
        },
    };
    // Started by hand on a terminal: say what it is waiting for.
    if matches!(settings.transport, Transport::Stdio)
        && std::io::IsTerminal::is_terminal(&std::io::stdin())
        && !g.quiet
    {
        eprintln!(
            "calimcp serve speaks MCP (JSON-RPC, one message per line) on stdin and stdout: it is meant to be started by an MCP client, e.g. `claude mcp add calimero -- calimcp serve`; --http ADDR serves over HTTP instead. Ctrl-C ends it."
        );
    }
    mcp::serve(settings)
}

/// How often the node is re-read besides `--refresh`, and what waits
/// meanwhile: `CALIMCP_REREAD_INTERVAL` (seconds) and `CALIMCP_MAX_BACKLOG`.
fn reread_limits_from_env() -> Result<mcp::reread::Limits> {
    let d = mcp::reread::Limits::DEFAULT;
    let name = "CALIMCP_REREAD_INTERVAL";
    let interval = match std::env::var(name).ok().filter(|v| !v.trim().is_empty()) {
        None => d.interval,
        Some(v) => Duration::from_secs(v.trim().parse::<u64>().map_err(|_| {
            calimcp_core::error::Error::input(
                Code::InvalidEnv,
                format!(
                    "{name}={}: not a number of seconds",
                    calimcp_core::text::sanitize_line(&v)
                ),
            )
            .with_hint(format!("give a whole number of seconds (e.g. {name}=2)"))
        })?),
    };
    Ok(mcp::reread::Limits {
        interval,
        backlog: super::node::size_env("CALIMCP_MAX_BACKLOG", d.backlog)?,
    })
}

/// The server's limits from `CALIMCP_MAX_BATCH`, `CALIMCP_MAX_ANSWER`,
/// `CALIMCP_MAX_SESSIONS` and `CALIMCP_HEADER_TIMEOUT` (unset: the defaults).
fn limits_from_env() -> Result<mcp::http::Limits> {
    let d = mcp::http::Limits::DEFAULT;
    let count = |name: &str, default: usize, what: &str| -> Result<usize> {
        match std::env::var(name).ok().filter(|v| !v.trim().is_empty()) {
            None => Ok(default),
            Some(v) => v
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| {
                    calimcp_core::error::Error::input(
                        Code::InvalidEnv,
                        format!(
                            "{name}={}: not {what}",
                            calimcp_core::text::sanitize_line(&v)
                        ),
                    )
                    .with_hint(format!(
                        "give a positive whole number (e.g. {name}={default})"
                    ))
                }),
        }
    };
    Ok(mcp::http::Limits {
        max_batch: count("CALIMCP_MAX_BATCH", d.max_batch, "a number of messages")?,
        max_answer: usize::try_from(super::node::size_env(
            "CALIMCP_MAX_ANSWER",
            d.max_answer as u64,
        )?)
        .unwrap_or(usize::MAX),
        max_sessions: count(
            "CALIMCP_MAX_SESSIONS",
            d.max_sessions,
            "a number of sessions",
        )?,
        header_timeout: Duration::from_secs(count(
            "CALIMCP_HEADER_TIMEOUT",
            d.header_timeout.as_secs() as usize,
            "a number of seconds",
        )? as u64),
    })
}
