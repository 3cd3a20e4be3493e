//! When `serve` re-reads the node besides its periodic refresh, and what it
//! holds meanwhile.
//!
//! - A request naming an app, tool or prefix the server does not know
//!   re-reads the node at most once per `CALIMCP_REREAD_INTERVAL` (default
//!   2 s; a read that failed does not count); requests that come while a
//!   read runs share it. So does the server itself while the node lists an
//!   app whose code has not arrived yet (`code_pending`, a joined node
//!   fetching it from its peers): it looks again at that pace, not at the
//!   next `--refresh`, until the code is there; and so does a request that
//!   shows a context running code the server has not read yet
//!   (`wait_for_context` on a context just joined, a call whose context runs
//!   an install the server has not read, or is not the app's by its last
//!   read).
//! - Version changes (`AppVersionChanged`) are gathered: the first of a set
//!   re-reads at once, unless the last such re-read is less than the
//!   interval old; those that come meanwhile (or while a re-read runs) wait
//!   for the next one. One re-read and one notice per change set.
//! - While it gathers, the server keeps only the version changes of served
//!   contexts, as short summaries ([`Change`]), at most
//!   `CALIMCP_MAX_BACKLOG` bytes of them (default 1 MiB): the rest of
//!   the node's stream is dropped as it is read. A change past the budget is
//!   dropped with a note, and one more re-read (which reads every context
//!   anew) follows, so no version change goes unannounced.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::budget::{Budget, Held};
use calimcp_catalog::events::NodeEvent;
use calimcp_core::text::sanitize_line;

/// The server's re-read limits (`CALIMCP_REREAD_INTERVAL`,
/// `CALIMCP_MAX_BACKLOG`), set once by `serve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub interval: Duration,
    pub backlog: u64,
}

impl Limits {
    pub(crate) const DEFAULT: Limits = Limits {
        interval: Duration::from_secs(2),
        backlog: 1 << 20,
    };
}

static LIMITS: OnceLock<Limits> = OnceLock::new();

/// Sets the process-wide limits (once, at start; later calls are ignored).
pub fn set_limits(limits: Limits) {
    let _ = LIMITS.set(limits);
}

pub fn limits() -> Limits {
    LIMITS.get().copied().unwrap_or(Limits::DEFAULT)
}

/// When the re-reads that requests and version changes ask for may start.
#[derive(Debug)]
pub(crate) struct Pacer {
    interval: Duration,
    /// When the last request's re-read that reached the node started.
    demand: Mutex<Option<Instant>>,
    /// When the last version-change re-read started.
    versions: Mutex<Option<Instant>>,
}

impl Pacer {
    pub(crate) fn new(interval: Duration) -> Pacer {
        Pacer {
            interval,
            demand: Mutex::new(None),
            versions: Mutex::new(None),
        }
    }

    /// The least time between two re-reads of requests (`CALIMCP_REREAD_INTERVAL`).
    pub(crate) fn interval(&self) -> Duration {
        self.interval
    }

    /// Whether a request may re-read the node now (none did within the interval).
    pub(crate) fn demand_due(&self) -> bool {
        let last = *self.demand.lock().unwrap_or_else(|e| e.into_inner());
        last.is_none_or(|t| t.elapsed() >= self.interval)
    }

    /// Records a request's re-read that started at `at`; `ok`: the node answered.
    pub(crate) fn demand_done(&self, at: Instant, ok: bool) {
        if ok {
            *self.demand.lock().unwrap_or_else(|e| e.into_inner()) = Some(at);
        }
    }

    /// When the next version-change re-read may start (now or in the past: at once).
    pub(crate) fn versions_due(&self) -> Instant {
        let last = *self.versions.lock().unwrap_or_else(|e| e.into_inner());
        last.map_or_else(Instant::now, |t| t + self.interval)
    }

    /// Records that a version-change re-read starts now.
    pub(crate) fn versions_started(&self) {
        *self.versions.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }
}

/// Longest text kept of a context id or version in a [`Change`].
const FIELD: usize = 128;

/// One version change of a served context, as the log says it; it holds
/// its share of the backlog until dropped.
#[derive(Debug)]
pub(crate) struct Change {
    pub context: String,
    pub from: String,
    pub to: String,
    _held: Held,
}

impl Change {
    /// The log line of this change.
    pub(crate) fn line(&self) -> String {
        format!(
            "context {} now runs version {} of its app (was {})",
            self.context, self.to, self.from
        )
    }
}

/// The version changes waiting for a re-read, bounded in bytes.
#[derive(Debug)]
pub(crate) struct Backlog {
    budget: Arc<Budget>,
    /// Changes dropped since the last re-read started.
    dropped: AtomicU64,
    /// Whether the drop has been said (once per stretch).
    told: AtomicBool,
}

impl Backlog {
    pub(crate) fn new(bytes: u64) -> Backlog {
        Backlog {
            budget: Budget::new(bytes),
            dropped: AtomicU64::new(0),
            told: AtomicBool::new(false),
        }
    }

    /// `e`'s summary, or `None` (noted) when the backlog is full.
    pub(crate) fn keep(&self, e: &NodeEvent) -> Option<Change> {
        let field = |s: &str| sanitize_line(s).chars().take(FIELD).collect::<String>();
        let version = |k: &str| {
            e.data
                .get(k)
                .and_then(Value::as_str)
                .map_or_else(|| "?".to_string(), field)
        };
        let (context, from, to) = (
            field(&e.context_id),
            version("fromVersion"),
            version("toVersion"),
        );
        let bytes = (context.len() + from.len() + to.len() + std::mem::size_of::<Change>()) as u64;
        match self.budget.take(bytes) {
            Some(held) => Some(Change {
                context,
                from,
                to,
                _held: held,
            }),
            None => {
                self.dropped.fetch_add(1, Ordering::AcqRel);
                if !self.told.swap(true, Ordering::AcqRel) {
                    super::log::warn!(
                        "version changes come faster than the node is re-read: past {} waiting (CALIMCP_MAX_BACKLOG) they are dropped, and the node is read again once more to cover them",
                        calimcp_core::text::size(self.budget.limit())
                    );
                }
                None
            }
        }
    }

    /// How many changes were dropped since the last call (a re-read
    /// starting now covers them); the next drop is said again.
    pub(crate) fn take_dropped(&self) -> u64 {
        self.told.store(false, Ordering::Release);
        self.dropped.swap(0, Ordering::AcqRel)
    }
}

/// What the stream reader passes on: a version change, or the stream's end.
pub(crate) type Message = calimcp_core::error::Result<Change>;

/// Gathers into `changes` what comes on `rx` until `until` (the settle time
/// of a burst, or the pacer's next due time, whichever is later); `true`
/// when the stream ended meanwhile.
pub(crate) async fn gather(
    rx: &mut tokio::sync::mpsc::UnboundedReceiver<Message>,
    changes: &mut Vec<Change>,
    until: Instant,
) -> bool {
    let deadline = tokio::time::sleep_until(tokio::time::Instant::from_std(until));
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            () = &mut deadline => return false,
            item = rx.recv() => match item {
                Some(Ok(c)) => changes.push(c),
                Some(Err(_)) | None => return true,
            },
        }
    }
}

/// Most changes of one set logged one by one.
const SAID: usize = 10;

/// Logs a change set (and the changes dropped from it) before its re-read.
pub(crate) fn say(changes: &[Change], dropped: u64) {
    for c in changes.iter().take(SAID) {
        super::log::info!("{}", c.line());
    }
    let more = (changes.len().saturating_sub(SAID)) as u64 + dropped;
    if more > 0 {
        super::log::info!("and {more} more version changes of served contexts");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(ctx: &str, to: &str) -> NodeEvent {
        NodeEvent {
            context_id: ctx.into(),
            group_id: None,
            kind: "AppVersionChanged".into(),
            data: serde_json::json!({"toVersion": to}),
            events: Vec::new(),
        }
    }

    #[test]
    fn the_backlog_keeps_summaries_within_its_bytes_and_counts_the_rest() {
        let b = Backlog::new(3 * (std::mem::size_of::<Change>() as u64 + 16));
        let kept: Vec<Change> = (0..10)
            .filter_map(|i| b.keep(&change(&format!("c{i}"), "1.0")))
            .collect();
        assert_eq!(kept.len(), 3);
        assert_eq!(
            kept[0].line(),
            "context c0 now runs version 1.0 of its app (was ?)"
        );
        assert_eq!(b.take_dropped(), 7);
        assert_eq!(b.take_dropped(), 0);
        drop(kept);
        assert!(
            b.keep(&change("c", "2")).is_some(),
            "room again once handled"
        );
        // A hostile version string is cut and cleaned.
        let long = b
            .keep(&change("c", &format!("\u{1b}[31m{}", "9".repeat(10_000))))
            .unwrap();
        assert_eq!(long.to.chars().count(), FIELD);
        assert!(!long.to.contains('\u{1b}'));
    }

    #[test]
    fn requests_reread_once_per_interval_and_failures_do_not_count() {
        let p = Pacer::new(Duration::from_secs(3600));
        assert!(p.demand_due());
        p.demand_done(Instant::now(), false);
        assert!(p.demand_due(), "a failed read does not count");
        p.demand_done(Instant::now(), true);
        assert!(!p.demand_due());
        assert!(p.versions_due() <= Instant::now());
        p.versions_started();
        assert!(p.versions_due() > Instant::now() + Duration::from_secs(3000));
    }
}
