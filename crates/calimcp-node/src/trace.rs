//! W3C Trace Context on the node requests of one piece of work: the
//! `traceparent` (and `tracestate`) an MCP client put in a request's `_meta`
//! travels as headers on every request to the node that the request's work
//! makes ([`within`]; `http` adds them where it builds each request). A
//! value that is not a valid version-00 `traceparent` is not forwarded, as
//! the W3C recommendation says of a parent it cannot parse.

use std::future::Future;

/// The trace headers of the work in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    pub traceparent: String,
    pub tracestate: Option<String>,
}

tokio::task_local! {
    static CURRENT: Option<Trace>;
}

impl Trace {
    /// The headers to forward, when `traceparent` is valid
    /// (`00-<32 hex>-<16 hex>-<2 hex>`, lowercase, ids not all zero).
    /// `tracestate` goes only with a valid parent, bounded as W3C bounds it.
    pub fn parse(traceparent: &str, tracestate: Option<&str>) -> Option<Trace> {
        let parts: Vec<&str> = traceparent.split('-').collect();
        let hex = |s: &str, len: usize| {
            s.len() == len && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        };
        let zero = |s: &str| s.bytes().all(|b| b == b'0');
        let [version, trace, parent, flags] = parts[..] else {
            return None;
        };
        let valid = version == "00"
            && hex(trace, 32)
            && hex(parent, 16)
            && hex(flags, 2)
            && !zero(trace)
            && !zero(parent);
        valid.then(|| Trace {
            traceparent: traceparent.to_string(),
            tracestate: tracestate
                .filter(|s| s.len() <= 512 && s.bytes().all(|b| (0x20..0x7f).contains(&b)))
                .map(str::to_string),
        })
    }
}

/// Runs `work` with `trace` on every node request it makes.
pub async fn within<F: Future>(trace: Option<Trace>, work: F) -> F::Output {
    CURRENT.scope(trace, work).await
}

/// The trace of the work in progress, if any.
pub(crate) fn current() -> Option<Trace> {
    CURRENT.try_with(Clone::clone).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALID: &str = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";

    #[test]
    fn only_a_valid_traceparent_is_forwarded() {
        let t = Trace::parse(VALID, Some("congo=t61rcWkgMzE")).unwrap();
        assert_eq!(t.traceparent, VALID);
        assert_eq!(t.tracestate.as_deref(), Some("congo=t61rcWkgMzE"));
        for bad in [
            "",
            "01-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "00-0AF7651916CD43DD8448EB211C80319C-00f067aa0ba902b7-01",
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-x",
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7",
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-1\n",
        ] {
            assert_eq!(Trace::parse(bad, None), None, "{bad:?}");
        }
        assert_eq!(Trace::parse(VALID, Some("a=\nb")).unwrap().tracestate, None);
    }

    #[tokio::test]
    async fn the_trace_is_seen_inside_its_work_only() {
        assert_eq!(current(), None);
        let t = Trace::parse(VALID, None);
        let seen = within(t.clone(), async { current() }).await;
        assert_eq!(seen, t);
        assert_eq!(current(), None);
    }
}
