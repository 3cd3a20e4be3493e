//! A context's sync status, asked when `execute` answers `Uninitialized`.
//!
//! merod 0.11.0-rc.4 and later answer the JSON-RPC method `sync_status`
//! (`{"contextId"}` → `{"contextId","isInitialized","syncState":{"state",…},
//! "failureCount","lastError"?}`, calimero-server-primitives `jsonrpc.rs`,
//! calimero-primitives `sync_status.rs`); older nodes refuse the method, and
//! then nothing more is said. The status becomes one clause for the error.

use std::sync::atomic::Ordering;

use reqwest::Method;
use serde_json::{Value, json};

use super::Client;
use crate::error::Result;
use crate::text::sanitize_line;

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
}

/// What a `sync_status` result says, as a clause: "the node is waiting for
/// peers to sync it from". `None` when it says nothing useful.
pub fn describe(status: &Value) -> Option<String> {
    let state = status.get("syncState")?;
    let n = |k: &str| state.get(k).and_then(Value::as_u64);
    let phase = match state.get("state").and_then(Value::as_str)? {
        "idle" => "the node is not syncing it at the moment".to_string(),
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
}
