//! A group's upgrade: what a group targets, which contexts it holds, and
//! moving it to another application. Read from the node's sources
//! (calimero-server and calimero-server-primitives 0.11.0-rc.4 on crates.io,
//! and the core repository at tag 0.11.0-rc.25), each route on both:
//!
//! - `GET /admin-api/groups/:id` → `{"data":{"groupId","appKey",
//!   "targetApplicationId",…}}` (rc.4 adds `upgradePolicy`;
//!   `GroupInfoApiResponseData`; goldens `group-info*.json`).
//! - `GET /admin-api/groups/:id/contexts` → `{"data":[{"contextId","name"?}]}`
//!   (`GroupContextEntryResponse`, both; `limit` defaults to 100).
//! - `POST /admin-api/groups/:id/upgrade` `{"targetApplicationId"}`: rc.4's
//!   `UpgradeGroupApiRequest` also reads `requester` (the authenticated key
//!   wins over it) and `cascade`, rc.25's `cascade` and `forceCodeOnly`
//!   (a build without an embedded ABI goes code-only instead of being
//!   refused); every one defaults (serde `default`), so calimcp sends the
//!   target alone to both. The answer differs: rc.4
//!   `{"data":{"groupId","status","total","completed","failed"}}`, rc.25
//!   `{"data":{"groupId","status","localContextsTotal","localContextsSwapped",
//!   "localContextsFailed"}}` (`UpgradeGroupApiResponseData`); `status` is
//!   `in_progress` (with the counts) or `completed` (without) on both.
//!   Under the namespaces' `LazyOnAccess` policy each context moves at its
//!   next execution; until then `GET /admin-api/contexts/:id` names the old
//!   application.

use reqwest::Method;
use serde_json::{Value, json};

use super::{Client, str_field};
use calimcp_core::error::Result;

/// A group as `GET /admin-api/groups/:id` describes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupInfo {
    pub group_id: String,
    /// The application the group's contexts run, or move to at their next
    /// execution after an upgrade.
    pub target_application_id: String,
}

/// What `POST /admin-api/groups/:id/upgrade` answered, either version.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupUpgrade {
    /// `in_progress` or `completed`.
    pub status: String,
    /// Contexts the node counted for the upgrade, swapped, failed (this node).
    pub total: Option<u32>,
    pub swapped: Option<u32>,
    pub failed: Option<u32>,
}

/// rc.4's or rc.25's answer to an upgrade.
fn parse_upgrade(v: &Value) -> GroupUpgrade {
    let n = |rc4: &str, rc25: &str| {
        v.get(rc25)
            .or_else(|| v.get(rc4))
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
    };
    GroupUpgrade {
        status: str_field(v, "status").unwrap_or_default(),
        total: n("total", "localContextsTotal"),
        swapped: n("completed", "localContextsSwapped"),
        failed: n("failed", "localContextsFailed"),
    }
}

impl Client {
    /// The group `id` (64 hex), or `None` when the node has no such group
    /// (rc.4 and rc.25 answer 500 for it: the goldens `group-not-found*`).
    pub async fn group_info(&self, id: &str) -> Result<Option<GroupInfo>> {
        let (url, shown) = self.endpoint(&["admin-api", "groups", id], None);
        let reply = self
            .request(Method::GET, &url, &shown, None)
            .await
            .map_err(|e| self.scrub_err(e))?;
        if matches!(reply.status, 400 | 404 | 405)
            || (reply.status == 500 && String::from_utf8_lossy(&reply.body).contains("not found"))
        {
            return Ok(None);
        }
        let v = super::data(self.check(reply, &shown).map_err(|e| self.scrub_err(e))?);
        Ok(Some(GroupInfo {
            group_id: str_field(&v, "groupId").unwrap_or_else(|| id.to_string()),
            target_application_id: str_field(&v, "targetApplicationId").unwrap_or_default(),
        }))
    }

    /// The contexts of group `id` (up to the node's first 100).
    pub async fn group_contexts(&self, id: &str) -> Result<Vec<String>> {
        let v = self
            .data_or_none(&["admin-api", "groups", id, "contexts"])
            .await?
            .unwrap_or(Value::Null);
        Ok(v.as_array()
            .map(|l| l.iter().filter_map(|e| str_field(e, "contextId")).collect())
            .unwrap_or_default())
    }

    /// Moves group `id` to `app_id`; the node decides whether and what to
    /// migrate (and refuses what its own gate refuses).
    pub async fn upgrade_group(&self, id: &str, app_id: &str) -> Result<GroupUpgrade> {
        let app_id = self.node_id(app_id);
        let body = json!({ "targetApplicationId": app_id });
        let v = self
            .send_json(
                Method::POST,
                &["admin-api", "groups", id, "upgrade"],
                Some(&body),
                None,
            )
            .await?;
        self.forget();
        Ok(parse_upgrade(&v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_versions_answers_to_an_upgrade_read_alike() {
        // rc.4 `UpgradeGroupApiResponseData` (calimero-server-primitives 0.11.0-rc.4).
        let rc4 = parse_upgrade(&json!({"groupId": "ab", "status": "in_progress",
            "total": 2, "completed": 1, "failed": 0}));
        // rc.25 (core tag 0.11.0-rc.25, crates/server/primitives/src/admin/mod.rs).
        let rc25 = parse_upgrade(&json!({"groupId": "ab", "status": "in_progress",
            "localContextsTotal": 2, "localContextsSwapped": 1, "localContextsFailed": 0}));
        assert_eq!(rc4, rc25);
        assert_eq!(rc4.total, Some(2));
        let done = parse_upgrade(&json!({"groupId": "ab", "status": "completed",
            "total": null, "completed": null, "failed": null}));
        assert_eq!((done.status.as_str(), done.total), ("completed", None));
    }
}
