//! `call VIEW --until VALUE | --until-path PATH=VALUE [--every SECS]
//! [--within SECS]`: the call repeated until its result says so, for
//! scripts that would otherwise sleep and retry by hand.
//!
//! Only methods that are [view] in the version the context runs are
//! repeated (each try of a [mut] method would change state again: refused
//! by the engine, [`calimcp_catalog::call::check_use`], before anything is
//! sent). How VALUE and PATH are compared: [`Expect`]. The pace is the
//! engine's ([`Pace`]): `--within` bounds the whole wait, finding the
//! context included; a try every `--every`, the last at the deadline; a
//! retryable node error (a context not yet synced, a group key not yet
//! delivered) is tried again, any other ends the repetition.

use std::time::Duration;

use serde_json::Value;

use super::{Call, CallFlags, Ready, print_result};
use calimcp_catalog::wait::{Expect, Pace, repeat as repeat_until};
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::text::sanitize_line;

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
    /// The repetition the flags ask for, if any.
    pub(super) fn from_flags(flags: &CallFlags) -> Result<Option<Until>> {
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
        Ok(Some(Until {
            expect,
            every: flags.every.unwrap_or(DEFAULT_EVERY),
            within: flags.within.unwrap_or(DEFAULT_WITHIN),
        }))
    }

    /// The pace of the wait, starting now.
    pub(super) fn pace(&self) -> Pace {
        Pace::new(self.every, self.within)
    }
}

/// Calls the bound method at `pace` until its result matches, a try fails
/// for good, or the deadline has passed (exit 124, the last result printed).
/// The result that matched is printed once, as a single call prints it; `-v`
/// shows each try.
pub(super) fn repeat(c: &Call, ready: &Ready, until: &Until, pace: &Pace) -> Result<()> {
    let (g, ui) = (c.g, c.g.ui());
    let (session, rt) = (c.session, c.session.runtime()?);
    let bound = ready.bound()?;
    let p = &ready.prepared;
    let executor = c.flags.executor.as_deref();
    let verbose = g.node.verbose;
    let mut on_try = |n: u64, answer: &Result<Value>, done: bool| {
        if !verbose {
            return;
        }
        match answer {
            Ok(out) => ui.note(format_args!(
                "try {n}: {}{}",
                calimcp_core::text::json_inert(shorten(&out.to_string())),
                if done { "" } else { " (not yet)" }
            )),
            Err(e) if e.retryable => ui.note(format_args!(
                "try {n}: {} (retryable: trying again)",
                e.message
            )),
            Err(_) => {}
        }
    };
    let try_once = || session.execute(bound, c.app(), p, executor);
    let seen = match rt.block_on(repeat_until(pace, &until.expect, try_once, &mut on_try))? {
        Ok(out) => {
            print_result(g, &out)?;
            return Ok(());
        }
        Err(seen) => seen,
    };
    if let Some(out) = &seen.last {
        print_result(g, out)?;
    }
    let last = match (&seen.last, &seen.last_error) {
        (_, Some(e)) => format!("; the last try failed: {}", e.message),
        (Some(_), None) => "; the last result is printed".to_string(),
        (None, None) => String::new(),
    };
    Err(Error::new(
        ErrorKind::Timeout,
        Code::Timeout,
        format!(
            "`{}` did not return {} within {} s ({}){last}",
            sanitize_line(&p.method),
            until.expect.wanted(),
            until.within.as_secs_f64(),
            seen.tries(pace),
        ),
    )
    .with_hint("raise --within, or check the value: VALUE is JSON (a bare word is a string)"))
}

/// At most 200 characters of a result, for `-v`.
fn shorten(s: &str) -> String {
    if s.chars().count() > 200 {
        format!("{}…", s.chars().take(199).collect::<String>())
    } else {
        s.to_string()
    }
}
