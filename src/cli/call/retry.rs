//! `call --retry N`: a call repeated after an error the node marks
//! retryable ([`crate::error::Error::retryable`]: the context not synced yet,
//! its group key not yet delivered, a group upgrade in progress, a node not
//! ready (503), a connection that could not be made). A [mut] call is
//! repeated only when the error says nothing ran; a call that timed out is
//! never retryable (it may still have run).

use std::time::Duration;

use crate::error::{Code, Error};

/// Whether `e` may be retried; `view`: the method only reads.
pub(super) fn may_retry(e: &Error, view: bool) -> bool {
    if !e.retryable {
        return false;
    }
    // These say that nothing ran (or that the request never reached the node).
    view || matches!(
        e.code,
        Code::Uninitialized | Code::GroupKeyPending | Code::UpgradeInProgress | Code::Unreachable
    )
}

/// The pause before retry `n` (1-based): 0.5 s, doubling, at most 8 s.
pub(super) fn pause(n: u32) -> Duration {
    Duration::from_millis(500u64 << n.saturating_sub(1).min(4))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn mut_calls_are_retried_only_when_nothing_ran() {
        let e = |code| Error::new(ErrorKind::Remote, code, "x").retryable();
        assert!(may_retry(&e(Code::GroupKeyPending), false));
        assert!(may_retry(&e(Code::Uninitialized), false));
        assert!(
            !may_retry(&e(Code::HttpError), false),
            "a 503 may come after the call ran"
        );
        assert!(may_retry(&e(Code::HttpError), true));
        let timed_out = Error::new(ErrorKind::Unreachable, Code::Timeout, "x");
        assert!(!may_retry(&timed_out, true));
        assert_eq!(pause(1), Duration::from_millis(500));
        assert_eq!(pause(3), Duration::from_secs(2));
        assert_eq!(pause(9), Duration::from_secs(8));
    }
}
