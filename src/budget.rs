//! A byte budget a queue's producer and consumer share: what may wait in
//! memory at once, whatever the count. The producer takes a [`Held`] share
//! for each item it queues (refused when the budget is spent: the item is
//! dropped, and the caller says so); the share goes back when the item is
//! done with (dropped). Used by `watch --exec`'s queue of runs and by the
//! server's reader of the node's events while it re-reads the node.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// At most `limit` bytes held at once.
#[derive(Debug)]
pub(crate) struct Budget {
    limit: u64,
    held: AtomicU64,
}

/// A share of a [`Budget`], given back when dropped.
#[derive(Debug)]
pub(crate) struct Held {
    budget: Arc<Budget>,
    bytes: u64,
}

impl Budget {
    pub(crate) fn new(limit: u64) -> Arc<Budget> {
        Arc::new(Budget {
            limit,
            held: AtomicU64::new(0),
        })
    }

    pub(crate) fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes held now.
    pub(crate) fn held(&self) -> u64 {
        self.held.load(Ordering::Acquire)
    }

    /// Takes `bytes` of the budget, or `None` when they do not fit.
    pub(crate) fn take(self: &Arc<Self>, bytes: u64) -> Option<Held> {
        self.held
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                held.checked_add(bytes).filter(|&n| n <= self.limit)
            })
            .ok()?;
        Some(Held {
            budget: Arc::clone(self),
            bytes,
        })
    }
}

/// `n` bytes for messages, rounded: `2.0 MiB`, `512.0 KiB`, `100 bytes`.
pub(crate) fn approx(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{:.1} GiB", n as f64 / f64::from(1u32 << 30)),
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / f64::from(1u32 << 20)),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / 1024.0),
        n => format!("{n} bytes"),
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.budget.held.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_refused_past_the_limit_and_given_back_when_dropped() {
        let b = Budget::new(10);
        let a = b.take(6).unwrap();
        assert!(b.take(5).is_none(), "6 + 5 > 10");
        let c = b.take(4).unwrap();
        assert_eq!(b.held(), 10);
        drop(a);
        assert_eq!(b.held(), 4);
        assert!(b.take(6).is_some());
        drop(c);
        assert_eq!(b.held(), 0);
        assert!(b.take(11).is_none(), "one item larger than the limit");
        assert_eq!(approx(2_097_526), "2.0 MiB");
        assert_eq!(approx(100), "100 bytes");
    }
}
