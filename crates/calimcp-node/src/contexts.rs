//! What the node says about one context, an application's versions and the
//! context aliases: what the catalog needs to use a context only with its own
//! app, and with the ABI of the version it runs.
//!
//! - `GET /admin-api/contexts/:id` → `{"data":{"id","applicationId","serviceName"?,
//!   "applicationVersion"?,"name"?,…}}` (0.10.0 and later; `applicationVersion`
//!   from 0.11, and from rc.25 on it is the version the context *executes*,
//!   which may differ from the application row's latest install). A missing
//!   context answers 404 `{"error":"Context not found"}`.
//! - `GET /admin-api/applications/:id/versions` → `{"data":[{"version","blobId",
//!   "size","package"}]}` (0.11): the bytecode versions the node keeps of that
//!   application's package. Older nodes answer a bodyless 404: no versions.
//! - `GET /admin-api/alias/list/context` → `{"data":{"alias":"contextId",…}}`.
//! - `GET /admin-api/contexts/:id/group` and `GET /admin-api/groups/:group`
//!   (0.10.1-rc.7 on: rc.4 and rc.25 alike; `tests/golden/responses/
//!   context-group*.json`, `group-*.json`): the application a context's group
//!   targets ([`Client::group_target`]).

use reqwest::Method;
use serde_json::Value;

use super::{Client, data, ids, str_field};
use calimcp_core::error::Result;

/// One context as `GET /admin-api/contexts/:id` describes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContextInfo {
    /// The id in the node's own form.
    pub id: String,
    pub application_id: String,
    pub service_name: Option<String>,
    /// The version of the application the context runs, when the node says.
    pub application_version: Option<String>,
    pub name: Option<String>,
}

/// One bytecode version of an application's package kept by the node.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AppVersion {
    pub version: String,
    pub blob_id: String,
    pub package: Option<String>,
}

impl Client {
    /// The context `id` (either id form), or `None` when the node has no such context.
    pub async fn context(&self, id: &str) -> Result<Option<ContextInfo>> {
        let first = self.node_id(id);
        if let Some(info) = self.context_as(&first).await? {
            return Ok(Some(info));
        }
        // The node's id form is not known yet: the other form may be it.
        match ids::IdForm::of(&first) {
            Some(form) if self.id_form().is_none() => {
                self.context_as(&ids::to_form(&first, form.other())).await
            }
            _ => Ok(None),
        }
    }

    async fn context_as(&self, id: &str) -> Result<Option<ContextInfo>> {
        let segments = ["admin-api", "contexts", id];
        let (url, shown) = self.endpoint(&segments, None);
        let reply = self
            .request(Method::GET, &url, &shown, None)
            .await
            .map_err(|e| self.scrub_err(e))?;
        // 404: no such context; 400: an id the node cannot parse (another id form).
        if matches!(reply.status, 400 | 404) {
            return Ok(None);
        }
        let v = data(self.check(reply, &shown).map_err(|e| self.scrub_err(e))?);
        let info = parse_context_info(&v);
        if let Some(i) = &info {
            if !answers_for(id, &i.id) {
                return Err(self.unexpected(
                    &shown,
                    &format!(
                        "it describes context {} instead of the one asked for; nothing was sent",
                        calimcp_core::text::sanitize_line(&i.id)
                    ),
                )
                .with_hint("the node (or a proxy in front of it) mixed answers up: check which node the URL names"));
            }
            self.saw_id(&i.id);
        }
        Ok(info)
    }

    /// The versions the node keeps of an application's package; empty on
    /// nodes without the route.
    pub async fn application_versions(&self, app_id: &str) -> Result<Vec<AppVersion>> {
        let app_id = self.node_id(app_id);
        let segments = ["admin-api", "applications", app_id.as_str(), "versions"];
        let (url, shown) = self.endpoint(&segments, None);
        let reply = self
            .request(Method::GET, &url, &shown, None)
            .await
            .map_err(|e| self.scrub_err(e))?;
        if matches!(reply.status, 400 | 404 | 405) {
            return Ok(Vec::new());
        }
        let v = data(self.check(reply, &shown).map_err(|e| self.scrub_err(e))?);
        Ok(v.as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|e| {
                        Some(AppVersion {
                            version: str_field(e, "version")?,
                            blob_id: str_field(e, "blobId")?,
                            package: str_field(e, "package"),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    /// The application the group of context `id` targets: after a group
    /// upgrade (rc.25 `POST /admin-api/groups/:id/upgrade`), the version the
    /// node moves the context to on its next use — until then `GET
    /// /admin-api/contexts/:id` still names the old one. `GET
    /// /admin-api/contexts/:id/group` → `{"data":"<hex group id>"|null}`,
    /// then `GET /admin-api/groups/:group` → `{"data":{"targetApplicationId",…}}`.
    /// `None` when the context has no group or the node no such routes.
    pub async fn group_target(&self, id: &str) -> Result<Option<String>> {
        let id = self.node_id(id);
        let group = self
            .data_or_none(&["admin-api", "contexts", id.as_str(), "group"])
            .await?;
        let Some(group) = group.as_ref().and_then(Value::as_str) else {
            return Ok(None);
        };
        let info = self.data_or_none(&["admin-api", "groups", group]).await?;
        Ok(info.and_then(|v| str_field(&v, "targetApplicationId")))
    }

    /// The `data` of a GET, or `None` when the node has no such route or thing.
    pub(crate) async fn data_or_none(&self, segments: &[&str]) -> Result<Option<Value>> {
        let (url, shown) = self.endpoint(segments, None);
        let reply = self
            .request(Method::GET, &url, &shown, None)
            .await
            .map_err(|e| self.scrub_err(e))?;
        if matches!(reply.status, 400 | 404 | 405) {
            return Ok(None);
        }
        Ok(Some(data(
            self.check(reply, &shown).map_err(|e| self.scrub_err(e))?,
        )))
    }

    /// Every context alias on the node: (alias, context id), asked now; the
    /// answer is kept for [`Client::known_context_aliases`]. A node that
    /// cannot list them gives none (aliases only decorate listings).
    pub async fn context_aliases(&self) -> Vec<(String, String)> {
        let since = self.memo_generation();
        let Ok(v) = self
            .get_json(&["admin-api", "alias", "list", "context"], None)
            .await
        else {
            return Vec::new();
        };
        let mut list: Vec<(String, String)> = v
            .as_object()
            .map(|o| {
                o.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        list.sort();
        self.remember_aliases(since, &list);
        list
    }
}

/// Whether a context row with id `answered` is the context `asked` for:
/// the same 32 bytes in either id form (else the same text). A node that
/// answers with another context's row must never make calimcp use that one.
fn answers_for(asked: &str, answered: &str) -> bool {
    ids::same(asked, answered)
}

fn parse_context_info(v: &Value) -> Option<ContextInfo> {
    Some(ContextInfo {
        id: str_field(v, "id")?,
        application_id: str_field(v, "applicationId").unwrap_or_default(),
        service_name: str_field(v, "serviceName"),
        application_version: str_field(v, "applicationVersion"),
        name: str_field(v, "name"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn context_info_reads_the_nodes_fields() {
        let c = parse_context_info(&json!({
            "id": "C", "applicationId": "A", "contextStateHash": "H",
            "applicationVersion": "0.1.0", "name": "main"
        }))
        .unwrap();
        assert_eq!(c.application_id, "A");
        assert_eq!(c.application_version.as_deref(), Some("0.1.0"));
        assert_eq!(c.service_name, None);
        assert!(parse_context_info(&json!({"applicationId": "A"})).is_none());
    }

    #[test]
    fn an_answer_is_for_the_context_asked_in_either_form() {
        let (a, b) = ([3u8; 32], [4u8; 32]);
        let a58 = ids::IdForm::Base58.encode(&a);
        let ahex = ids::IdForm::Hex.encode(&a);
        assert!(answers_for(&a58, &ahex) && answers_for(&ahex, &a58));
        assert!(answers_for(&ahex.to_uppercase(), &a58));
        assert!(!answers_for(&a58, &ids::IdForm::Base58.encode(&b)));
        assert!(!answers_for(&ahex, &ids::IdForm::Base58.encode(&b)));
        assert!(!answers_for(&a58, ""));
    }
}
