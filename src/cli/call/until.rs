//! `call VIEW --until VALUE | --until-path PATH=VALUE [--every SECS]
//! [--within SECS]`: the call repeated until its result says so, for
//! scripts that would otherwise sleep and retry by hand.
//!
//! Only [view] methods are repeated (each try of a [mut] method would change
//! state again). How VALUE and PATH are compared: [`Expect`]. Each try is bounded by the request
//! timeout and by `--within`; a retryable node error (a context not yet
//! synced, a group key not yet delivered) is tried again, any other ends the
//! repetition.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::{CallFlags, output};
use crate::catalog::wait::Expect;
use crate::cli::GlobalArgs;
use crate::error::{Code, EXIT_TIMEOUT, Error, ErrorKind, Result};
use crate::mapping::Tool;
use crate::text::sanitize_line;

/// How long `--until` tries when `--within` is not given.
pub(super) const DEFAULT_WITHIN: Duration = Duration::from_secs(60);
/// How long `--until` waits between tries when `--every` is not given.
pub(super) const DEFAULT_EVERY: Duration = Duration::from_secs(1);

/// What the result must be, and how often and how long to try.
#[derive(Debug, Clone)]
pub(super) struct Until {
    expect: Expect,
    pub every: Duration,
    pub within: Duration,
}

impl Until {
    /// The repetition the flags ask for, if any; a [mut] method is refused.
    pub(super) fn from_flags(flags: &CallFlags, tool: &Tool) -> Result<Option<Until>> {
        let expect = match (&flags.until, &flags.until_path) {
            (Some(v), _) => Expect::new(None, v),
            (None, Some(pv)) => match Expect::parse_path_value(pv) {
                Some(e) => e,
                None => {
                    return Err(Error::input(
                        Code::Usage,
                        format!(
                            "--until-path takes PATH=VALUE (a JSON pointer or a dotted path, `=`, the value), got `{}`",
                            sanitize_line(pv)
                        ),
                    )
                    .with_hint("e.g. --until-path status=done or --until-path /items/0='\"a\"'"));
                }
            },
            (None, None) => {
                if flags.every.is_some() || flags.within.is_some() {
                    return Err(Error::input(
                        Code::Usage,
                        "--every and --within go with --until or --until-path",
                    ));
                }
                return Ok(None);
            }
        };
        if !tool.read_only {
            return Err(Error::input(
                Code::Usage,
                format!(
                    "--until repeats the call, and `{}` is [mut]: each try would change state again, so only [view] methods are repeated (nothing was sent)",
                    sanitize_line(&tool.method)
                ),
            )
            .with_hint("call the [mut] method once, then wait with a [view] method: calimcp call VIEW --until VALUE"));
        }
        Ok(Some(Until {
            expect,
            every: flags.every.unwrap_or(DEFAULT_EVERY),
            within: flags.within.unwrap_or(DEFAULT_WITHIN),
        }))
    }
}

/// Calls `try_once` until its result matches, a try fails for good, or
/// `within` runs out (exit 124, the last result printed). The result that
/// matched is printed once, as a single call prints it; `-v` shows each try.
pub(super) fn repeat<F, Fut>(
    g: &GlobalArgs,
    until: &Until,
    method: &str,
    rt: &tokio::runtime::Runtime,
    mut try_once: F,
) -> Result<u8>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Value>>,
{
    let ui = g.ui();
    let start = Instant::now();
    let deadline = start + until.within;
    let mut last: Option<Value> = None;
    let mut last_error: Option<Error> = None;
    let mut tries = 0u64;
    loop {
        tries += 1;
        let left = deadline.saturating_duration_since(Instant::now());
        let answer = rt.block_on(async { tokio::time::timeout(left, try_once()).await });
        match answer {
            Ok(Ok(out)) => {
                let done = until.expect.matches(&out);
                if g.node.verbose {
                    ui.note(format_args!(
                        "try {tries}: {}{}",
                        crate::text::json_inert(shorten(&out.to_string())),
                        if done { "" } else { " (not yet)" }
                    ));
                }
                if done {
                    print(g, &out)?;
                    return Ok(0);
                }
                last = Some(out);
                last_error = None;
            }
            Ok(Err(e)) if e.retryable => {
                if g.node.verbose {
                    ui.note(format_args!(
                        "try {tries}: {} (retryable: trying again)",
                        e.message
                    ));
                }
                last_error = Some(e);
            }
            Ok(Err(e)) => return Err(e),
            // The deadline cut the try short.
            Err(_) => break,
        }
        let now = Instant::now();
        if now + until.every >= deadline {
            break;
        }
        std::thread::sleep(until.every);
    }
    if let Some(out) = &last {
        print(g, out)?;
    }
    let seen = match (&last, &last_error) {
        (_, Some(e)) => format!("; the last try failed: {}", e.message),
        (Some(_), None) => "; the last result is printed".to_string(),
        (None, None) => String::new(),
    };
    ui.error(
        &Error::new(
            ErrorKind::Remote,
            Code::Timeout,
            format!(
                "`{}` did not return {} within {} s ({tries} {}){seen}",
                sanitize_line(method),
                until.expect.wanted(),
                until.within.as_secs_f64(),
                if tries == 1 { "try" } else { "tries" },
            ),
        )
        .with_hint("raise --within, or check the value: VALUE is JSON (a bare word is a string)"),
    );
    Ok(EXIT_TIMEOUT)
}

fn print(g: &GlobalArgs, out: &Value) -> Result<()> {
    if g.json {
        output::print_json_compact(out)
    } else {
        output::print_json(out)
    }
}

/// At most 200 characters of a result, for `-v`.
fn shorten(s: &str) -> String {
    if s.chars().count() > 200 {
        format!("{}…", s.chars().take(199).collect::<String>())
    } else {
        s.to_string()
    }
}
