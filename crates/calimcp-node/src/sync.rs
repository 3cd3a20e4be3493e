//! A context's sync status, asked when `execute` answers `Uninitialized` and
//! when a watch starts.
//!
//! merod 0.11.0-rc.4 and later answer the JSON-RPC method `sync_status`
//! (`{"contextId"}` → `{"contextId","isInitialized","syncState":{"state",…},
//! "failureCount","lastError"?}`, calimero-server-primitives `jsonrpc.rs`,
//! calimero-primitives `sync_status.rs`); older nodes refuse the method.
//! With the node's peer count (`GET /admin-api/peers` → `{"count":N}`) the
//! status says which case an uninitialized context is in — no peers at all,
//! waiting for a member peer, a sync in progress, the last attempt failed,
//! between attempts or synced but still empty — each with its own hint
//! ([`diagnose`]).

use std::sync::atomic::Ordering;

use reqwest::Method;
use serde_json::{Value, json};

use super::Client;
use calimcp_core::error::Result;
use calimcp_core::text::sanitize_line;

impl Client {
    /// The node's `sync_status` of a context; `None` when the node does not
    /// answer the method (older nodes) or answers something else.
    pub async fn sync_status(&self, ctx: &str) -> Result<Option<Value>> {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let body = json!({
            "jsonrpc": "2.0", "id": id, "method": "sync_status",
            "params": {"contextId": self.node_id(ctx)},
        });
        let (url, shown) = self.endpoint(&["jsonrpc"], None);
        let reply = self
            .request(Method::POST, &url, &shown, Some(&body))
            .await?;
        let Ok(v) = self.check(reply, &shown) else {
            return Ok(None);
        };
        Ok(v.get("result").filter(|r| r.is_object()).cloned())
    }

    /// How many peers the node is connected to (`GET /admin-api/peers`);
    /// `None` when it does not say.
    pub(crate) async fn peer_count(&self) -> Option<u64> {
        let v = self.get_json(&["admin-api", "peers"], None).await.ok()?;
        v.get("count").and_then(Value::as_u64)
    }

    /// Why `ctx` has no state on this node: the case and its hint. `None`
    /// when the node reports it initialized, or — unless `known` (the node
    /// answered `Uninitialized`) — when it does not report its status.
    pub async fn uninitialized_why(&self, ctx: &str, known: bool) -> Option<Diagnosis> {
        let status = self.sync_status(ctx).await.ok().flatten();
        let initialized = status
            .as_ref()
            .and_then(|s| s.get("isInitialized"))
            .and_then(Value::as_bool);
        match initialized {
            Some(true) => return None,
            None if !known => return None,
            _ => {}
        }
        let peers = self.peer_count().await;
        Some(diagnose(status.as_ref(), peers))
    }
}

/// Which case an uninitialized context is in, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnosis {
    /// A clause: "the node is connected to no peers, …".
    pub why: String,
    pub hint: String,
    /// Waiting is likely to help.
    pub transient: bool,
}

/// The case of an uninitialized context from its `sync_status` (absent on
/// nodes before 0.11.0-rc.4) and the node's peer count.
pub(crate) fn diagnose(status: Option<&Value>, peers: Option<u64>) -> Diagnosis {
    let d = |why: String, hint: &str, transient: bool| Diagnosis {
        why,
        hint: hint.to_string(),
        transient,
    };
    if peers == Some(0) {
        return d(
            "the node is connected to no peers, so no one can send it the context's state".into(),
            "connect the node to the network (its bootstrap and relay settings) and run another node that is a member of the context; the state arrives at the first sync",
            false,
        );
    }
    let Some(status) = status else {
        return d(
            "it has not received the context's state from a peer yet (this node does not report its sync status)".into(),
            "wait for the node to sync the context, then call again",
            true,
        );
    };
    let clause = describe(status).unwrap_or_else(|| "its sync status says nothing more".into());
    let state = status
        .get("syncState")
        .and_then(|s| s.get("state"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let last = status
        .get("lastError")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let failures = status
        .get("failureCount")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    match state {
        "waitingForPeers" => d(
            clause,
            "no peer that is a member of the context is reachable: start (or reconnect) one; the state arrives at the first sync",
            true,
        ),
        "syncing" | "receivingSnapshot" => d(clause, "call again once the sync completes", true),
        "backingOff" if last.to_ascii_lowercase().contains("no peers") => d(
            clause,
            "no peer that is a member of the context is reachable: start (or reconnect) one; the node keeps trying",
            true,
        ),
        "backingOff" => d(
            clause,
            "the node retries by itself; if the same error comes back, the node's log says more",
            true,
        ),
        "idle" if failures == 0 => d(
            "the node is between sync attempts with no sync failure: it tries again within its sync interval, and if the context stays empty after that, its peers have no state for it either (nothing has been written to the context yet)".into(),
            "wait for the next sync, or write to the context through a node that has its state",
            true,
        ),
        _ => d(
            clause,
            "wait for the node to sync the context, then call again",
            true,
        ),
    }
}

/// What a `sync_status` result says, as a clause: "the node is waiting for
/// peers to sync it from". `None` when it says nothing useful.
pub(crate) fn describe(status: &Value) -> Option<String> {
    let state = status.get("syncState")?;
    let n = |k: &str| state.get(k).and_then(Value::as_u64);
    let phase = match state.get("state").and_then(Value::as_str)? {
        "idle" => "the node is between sync attempts (none in flight)".to_string(),
        "waitingForPeers" => "the node is waiting for peers to sync it from".to_string(),
        "syncing" => "the node is syncing it now".to_string(),
        "receivingSnapshot" => {
            let mut s = "the node is receiving its state".to_string();
            match (n("percent"), n("recordsReceived")) {
                (Some(p), Some(r)) => s.push_str(&format!(": {p}% ({r} records)")),
                (Some(p), None) => s.push_str(&format!(": {p}%")),
                (None, Some(r)) => s.push_str(&format!(": {r} records so far")),
                (None, None) => {}
            }
            if let Some(eta) = n("etaSecs") {
                s.push_str(&format!(", about {eta} s left"));
            }
            s
        }
        "backingOff" => match n("retryInSecs") {
            Some(secs) => {
                format!("the node's last sync attempt failed; it tries again in {secs} s")
            }
            None => "the node's last sync attempt failed; it will try again".to_string(),
        },
        other => format!("the node reports sync state `{}`", sanitize_line(other)),
    };
    let failures = status
        .get("failureCount")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let last = status.get("lastError").and_then(Value::as_str);
    Some(match (failures, last) {
        (0, _) => phase,
        (f, Some(e)) => format!(
            "{phase} ({f} failed attempt{}; last error: {})",
            if f == 1 { "" } else { "s" },
            sanitize_line(e)
        ),
        (f, None) => format!(
            "{phase} ({f} failed attempt{})",
            if f == 1 { "" } else { "s" }
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_reads_as_a_clause() {
        let s = |state: Value, failures: u32, last: Option<&str>| {
            let mut v = json!({"contextId": "C", "isInitialized": false, "syncState": state, "failureCount": failures});
            if let Some(l) = last {
                v["lastError"] = l.into();
            }
            describe(&v).unwrap()
        };
        assert_eq!(
            s(json!({"state": "waitingForPeers"}), 0, None),
            "the node is waiting for peers to sync it from"
        );
        assert_eq!(
            s(
                json!({"state": "receivingSnapshot", "recordsReceived": 1200, "percent": 42, "etaSecs": 9}),
                0,
                None
            ),
            "the node is receiving its state: 42% (1200 records), about 9 s left"
        );
        assert_eq!(
            s(
                json!({"state": "backingOff", "retryInSecs": 30}),
                3,
                Some("No peers to sync with")
            ),
            "the node's last sync attempt failed; it tries again in 30 s (3 failed attempts; last error: No peers to sync with)"
        );
        assert!(s(json!({"state": "fancyNew"}), 0, None).contains("`fancyNew`"));
        assert_eq!(describe(&json!({"nothing": 1})), None);
    }

    /// Each case of an uninitialized context has its own words and hint
    /// (issue 20.6).
    #[test]
    fn each_uninitialized_case_says_which_it_is() {
        let st = |state: Value, failures: u32, last: Option<&str>| {
            let mut v = json!({"contextId": "C", "isInitialized": false, "syncState": state, "failureCount": failures});
            if let Some(l) = last {
                v["lastError"] = l.into();
            }
            v
        };
        let no_peers = diagnose(Some(&st(json!({"state": "idle"}), 0, None)), Some(0));
        assert!(no_peers.why.contains("no peers") && !no_peers.transient);
        let waiting = diagnose(
            Some(&st(json!({"state": "waitingForPeers"}), 0, None)),
            Some(3),
        );
        assert!(
            waiting.hint.contains("member of the context"),
            "{waiting:?}"
        );
        let failed = diagnose(
            Some(&st(
                json!({"state": "backingOff", "retryInSecs": 8}),
                2,
                Some("handshake refused"),
            )),
            Some(3),
        );
        assert!(
            failed.why.contains("last error: handshake refused"),
            "{failed:?}"
        );
        assert!(failed.hint.contains("log"), "{failed:?}");
        let between = diagnose(Some(&st(json!({"state": "idle"}), 0, None)), Some(3));
        assert!(between.why.contains("between sync attempts"), "{between:?}");
        assert!(
            between.why.contains("nothing has been written"),
            "{between:?}"
        );
        assert!(!between.why.contains("still syncing"));
        let old = diagnose(None, None);
        assert!(old.why.contains("does not report"), "{old:?}");
    }
}
