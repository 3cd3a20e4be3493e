//! The routes that change what a node holds: install and uninstall an
//! application, create a namespace and a context in it, invite and join,
//! delete a context, set and remove a context alias. Every body is what
//! merod 0.11.0-rc.4 and rc.25 read (research: node-lifecycle-routes.md,
//! each shape verified on both), and every difference between them is
//! decided here:
//!
//! - `POST /admin-api/install-dev-application` `{"path","metadata":[bytes],
//!   "package"?,"version"?}` and `POST /admin-api/install-application`
//!   `{"url","metadata":[bytes],"hash"?}` → `{"data":{"applicationId"}}`;
//!   their failures are `500 text/plain` with the node's text.
//! - `DELETE /admin-api/applications/:id` → `{"data":{"applicationId"}}`
//!   (idempotent, no check that contexts use it).
//! - `POST /admin-api/namespaces` `{"applicationId","upgradePolicy":"LazyOnAccess","name"?}`
//!   → `{"data":{"namespaceId"}}`: rc.4 requires `upgradePolicy`, rc.25
//!   ignores it, and a node writing hex ids (rc.27 on; rc.38 on refuse a
//!   body's unknown keys) is not sent it.
//! - `POST /admin-api/contexts` `{"applicationId","groupId","initializationParams":[bytes],
//!   "serviceName"?,"name"?}` → `{"data":{"contextId","memberPublicKey","groupId"?}}`.
//! - `POST /admin-api/namespaces/:id/invite` `{}` → `{"data":{"invitation":{…}}}`:
//!   the invitation is signed, carried verbatim ([`Value`], never re-modelled).
//! - `POST /admin-api/namespaces/:id/join` `{"invitation"}` → rc.4
//!   `{"data":{"groupId","memberIdentity","governanceOp"}}`, rc.25
//!   `{"data":{"namespaceId","memberIdentity","memberAccount"}}`; it may take
//!   up to ~130 s (the node looks for a member to join through).
//! - `POST /admin-api/contexts/:id/join` (no body read) →
//!   `{"data":{"contextId","memberPublicKey"}}`.
//! - `DELETE /admin-api/contexts/:id` → `{"data":{"isDeleted"}}`: rc.4 needs
//!   `{"requester": <the node's key in the namespace>}` for a context in a
//!   group (`GET /admin-api/namespaces/:id/identity`, not enveloped; gone on
//!   rc.25, which reads no body).
//! - `POST /admin-api/alias/create/context` `{"alias","contextId"}`,
//!   `POST /admin-api/alias/delete/context/:name` → `{"data":null}`; a
//!   duplicate is rc.4 `500 text/plain`, rc.25 `409` JSON.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use super::http::Cap;
use super::ids::IdForm;
use super::{Client, data, ids, str_field};
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::text::sanitize_line;

/// The longest a namespace join may take: the node looks for a member to
/// join through for up to 130 s (rc.4's deadline), then answers.
pub(crate) const JOIN_BOUND: Duration = Duration::from_secs(150);

/// A context the node created.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CreatedContext {
    pub context_id: String,
    pub member_public_key: String,
    /// The group (namespace) it belongs to, when the node says.
    pub group_id: Option<String>,
}

/// What a namespace join answered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JoinedNamespace {
    /// The namespace joined (rc.4 names it `groupId`, rc.25 `namespaceId`).
    pub namespace_id: String,
    pub member_identity: Option<String>,
}

/// What `POST /admin-api/contexts` is asked.
#[derive(Debug, Clone, Default)]
pub struct NewContext<'a> {
    pub application_id: &'a str,
    /// The namespace (or group) id, 64 hex.
    pub group_id: &'a str,
    /// The init arguments' JSON text (empty for none).
    pub init: &'a [u8],
    pub service: Option<&'a str>,
    pub name: Option<&'a str>,
}

/// `bytes` as the node's `Vec<u8>` JSON: an array of numbers.
fn byte_array(bytes: &[u8]) -> Value {
    Value::Array(bytes.iter().map(|&b| json!(b)).collect())
}

impl Client {
    /// A POST/DELETE with a JSON body (or none), its `data` on 2xx.
    pub(crate) async fn send_json(
        &self,
        method: Method,
        segments: &[&str],
        body: Option<&Value>,
        bound: Option<Duration>,
    ) -> Result<Value> {
        let (url, shown) = self.endpoint(segments, None);
        let cap = match bound {
            Some(b) => Cap {
                bound: b.max(self.timeout()),
                ..self.response_cap()
            },
            None => self.response_cap(),
        };
        let reply = self
            .request_with(method, &url, &shown, body, cap)
            .await
            .map_err(|e| self.scrub_err(e))?;
        let v = self.check(reply, &shown).map_err(|e| self.scrub_err(e))?;
        Ok(data(v))
    }

    fn application_id_of(&self, v: &Value, what: &str) -> Result<String> {
        let id = str_field(v, "applicationId")
            .ok_or_else(|| self.unexpected(what, "no `applicationId`"))?;
        self.saw_id(&id);
        Ok(id)
    }

    /// Installs the module, bundle or bundle directory at `path` — a path
    /// the node reads on its own machine.
    pub async fn install_dev_application(
        &self,
        path: &str,
        metadata: &[u8],
        package: Option<&str>,
        version: Option<&str>,
    ) -> Result<String> {
        let mut body = json!({"path": path, "metadata": byte_array(metadata)});
        if let Some(p) = package {
            body["package"] = json!(p);
        }
        if let Some(v) = version {
            body["version"] = json!(v);
        }
        let v = self
            .send_json(
                Method::POST,
                &["admin-api", "install-dev-application"],
                Some(&body),
                None,
            )
            .await?;
        self.forget();
        self.application_id_of(&v, "admin-api/install-dev-application")
    }

    /// Installs the module the node fetches from `url`.
    pub async fn install_application_url(
        &self,
        url: &str,
        metadata: &[u8],
        hash: Option<&str>,
    ) -> Result<String> {
        let mut body = json!({"url": url, "metadata": byte_array(metadata)});
        if let Some(h) = hash {
            body["hash"] = json!(h);
        }
        let v = self
            .send_json(
                Method::POST,
                &["admin-api", "install-application"],
                Some(&body),
                None,
            )
            .await?;
        self.forget();
        self.application_id_of(&v, "admin-api/install-application")
    }

    /// Removes an installed application (the node does not check whether
    /// contexts use it, and answers the same for an unknown id).
    pub async fn uninstall_application(&self, app_id: &str) -> Result<()> {
        let app_id = self.node_id(app_id);
        self.send_json(
            Method::DELETE,
            &["admin-api", "applications", &app_id],
            None,
            None,
        )
        .await?;
        self.forget();
        Ok(())
    }

    /// Creates a namespace (the root group a context needs on rc.4 and
    /// later) whose contexts run `app_id`; returns its id (64 hex).
    pub async fn create_namespace(&self, app_id: &str, name: Option<&str>) -> Result<String> {
        let app_id = self.node_id(app_id);
        // rc.4 requires `upgradePolicy`; rc.25 has no such field and ignores
        // it; nodes writing hex ids (0.11.0-rc.27 on) are not sent it, since
        // from rc.38 a body's unknown key is refused (rc.83: every body,
        // `deny_unknown_fields`). A refusal naming it (the id form not yet
        // known) is answered by sending the body without it; nothing was
        // created.
        let mut policy = self.id_form() != Some(IdForm::Hex);
        loop {
            let mut body = json!({ "applicationId": app_id });
            if policy {
                body["upgradePolicy"] = json!("LazyOnAccess");
            }
            if let Some(n) = name {
                body["name"] = json!(n);
            }
            let v = match self
                .send_json(
                    Method::POST,
                    &["admin-api", "namespaces"],
                    Some(&body),
                    None,
                )
                .await
            {
                Err(e) if policy && e.message.contains("unknown field `upgradePolicy`") => {
                    self.log(format_args!(
                        "= the node refuses upgradePolicy (merod 0.11.0-rc.38 and later); sending the namespace without it"
                    ));
                    policy = false;
                    continue;
                }
                r => r?,
            };
            return str_field(&v, "namespaceId")
                .ok_or_else(|| self.unexpected("admin-api/namespaces", "no `namespaceId`"));
        }
    }

    /// Creates a context in a namespace (or group).
    pub async fn create_context(&self, new: &NewContext<'_>) -> Result<CreatedContext> {
        let mut body = json!({
            "applicationId": self.node_id(new.application_id),
            "groupId": new.group_id,
            "initializationParams": byte_array(new.init),
        });
        if let Some(s) = new.service {
            body["serviceName"] = json!(s);
        }
        if let Some(n) = new.name {
            body["name"] = json!(n);
        }
        let v = self
            .send_json(Method::POST, &["admin-api", "contexts"], Some(&body), None)
            .await?;
        self.forget();
        let context_id = str_field(&v, "contextId")
            .ok_or_else(|| self.unexpected("admin-api/contexts", "no `contextId`"))?;
        self.saw_id(&context_id);
        Ok(CreatedContext {
            context_id,
            member_public_key: str_field(&v, "memberPublicKey").unwrap_or_default(),
            group_id: str_field(&v, "groupId"),
        })
    }

    /// A signed invitation into namespace `ns`, as the node wrote it (the
    /// `data.invitation` object, to be carried verbatim).
    pub async fn invite_to_namespace(&self, ns: &str) -> Result<Value> {
        let v = self
            .send_json(
                Method::POST,
                &["admin-api", "namespaces", ns, "invite"],
                Some(&json!({})),
                None,
            )
            .await?;
        match v.get("invitation") {
            Some(inv) if inv.is_object() => Ok(inv.clone()),
            _ => Err(self.unexpected("admin-api/namespaces/…/invite", "no `invitation` object")),
        }
    }

    /// Joins namespace `ns` with an invitation (verbatim); may take up to
    /// [`JOIN_BOUND`].
    pub async fn join_namespace(&self, ns: &str, invitation: &Value) -> Result<JoinedNamespace> {
        let body = json!({"invitation": invitation});
        let v = self
            .send_json(
                Method::POST,
                &["admin-api", "namespaces", ns, "join"],
                Some(&body),
                Some(JOIN_BOUND),
            )
            .await?;
        // rc.4: `groupId`; rc.25 renamed it `namespaceId`.
        let namespace_id = str_field(&v, "namespaceId")
            .or_else(|| str_field(&v, "groupId"))
            .unwrap_or_else(|| ns.to_string());
        Ok(JoinedNamespace {
            namespace_id,
            member_identity: str_field(&v, "memberIdentity"),
        })
    }

    /// Joins context `ctx` of a namespace this node is a member of; returns
    /// the node's key in it.
    pub async fn join_context(&self, ctx: &str) -> Result<String> {
        let ctx = self.node_id(ctx);
        let v = self
            .send_json(
                Method::POST,
                &["admin-api", "contexts", &ctx, "join"],
                Some(&json!({})),
                None,
            )
            .await?;
        self.forget();
        Ok(str_field(&v, "memberPublicKey").unwrap_or_default())
    }

    /// The namespace (or group) a context belongs to (64 hex), if any.
    pub async fn context_group_id(&self, ctx: &str) -> Result<Option<String>> {
        let ctx = self.node_id(ctx);
        let (url, shown) = self.endpoint(&["admin-api", "contexts", &ctx, "group"], None);
        let reply = self
            .request(Method::GET, &url, &shown, None)
            .await
            .map_err(|e| self.scrub_err(e))?;
        if matches!(reply.status, 400 | 404 | 405) {
            return Ok(None);
        }
        let v = data(self.check(reply, &shown).map_err(|e| self.scrub_err(e))?);
        Ok(v.as_str().filter(|s| !s.is_empty()).map(str::to_string))
    }

    /// The node's own key in namespace `ns` on nodes that have the route
    /// (rc.4: `GET /admin-api/namespaces/:id/identity` →
    /// `{"namespaceId","publicKey"}`, not enveloped); `None` elsewhere.
    pub(crate) async fn namespace_identity(&self, ns: &str) -> Result<Option<String>> {
        let (url, shown) = self.endpoint(&["admin-api", "namespaces", ns, "identity"], None);
        let reply = self
            .request(Method::GET, &url, &shown, None)
            .await
            .map_err(|e| self.scrub_err(e))?;
        if !reply.ok() {
            return Ok(None);
        }
        let v = data(self.check(reply, &shown).map_err(|e| self.scrub_err(e))?);
        Ok(str_field(&v, "publicKey"))
    }

    /// Deletes a context from this node; `false` when the node had no such
    /// context. On rc.4 a context in a namespace is deleted as the node's
    /// own key in it (the `requester`).
    pub async fn delete_context(&self, ctx: &str) -> Result<bool> {
        let ctx = self.node_id(ctx);
        let requester = match self.context_group_id(&ctx).await? {
            Some(group) => self.namespace_identity(&group).await?,
            None => None,
        };
        let body = requester.map(|r| json!({"requester": r}));
        let v = self
            .send_json(
                Method::DELETE,
                &["admin-api", "contexts", &ctx],
                body.as_ref(),
                None,
            )
            .await?;
        self.forget();
        Ok(v.get("isDeleted").and_then(Value::as_bool).unwrap_or(true))
    }

    /// Sets a context alias on this node (aliases are node-local).
    pub async fn create_context_alias(&self, alias: &str, ctx: &str) -> Result<()> {
        let body = json!({"alias": alias, "contextId": self.node_id(ctx)});
        match self
            .send_json(
                Method::POST,
                &["admin-api", "alias", "create", "context"],
                Some(&body),
                None,
            )
            .await
        {
            Ok(_) => {
                self.forget();
                Ok(())
            }
            // rc.4: 500 text/plain, rc.25: 409 JSON — both "alias already exists".
            Err(e) if e.message.contains("alias already exists") => Err(Error::new(
                ErrorKind::Input,
                Code::AliasTaken,
                format!(
                    "the node already has a context alias `{}`",
                    sanitize_line(alias)
                ),
            )
            .with_hint(
                "remove it first (`calimcp context alias remove NAME`) or choose another name",
            )),
            Err(e) => Err(e),
        }
    }

    /// Removes a context alias (the node answers the same for an unknown one).
    pub async fn delete_context_alias(&self, alias: &str) -> Result<()> {
        self.send_json(
            Method::POST,
            &["admin-api", "alias", "delete", "context", alias],
            None,
            None,
        )
        .await?;
        self.forget();
        Ok(())
    }
}

/// Whether `s` is a namespace or group id as the node writes them (64 hex).
pub fn is_group_id(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The group id a signed invitation is for (`group_id`, 32 integers), as 64 hex.
pub fn invitation_group(invitation: &Value) -> Option<String> {
    let bytes = invitation
        .get("invitation")?
        .get("group_id")?
        .as_array()?
        .iter()
        .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
        .collect::<Option<Vec<u8>>>()?;
    let bytes: [u8; 32] = bytes.try_into().ok()?;
    Some(ids::IdForm::Hex.encode(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Read, Write};

    /// A loopback server answering each request with the next of
    /// `answers` (status, JSON body); the bodies it was sent.
    fn node_answering(answers: Vec<(u16, String)>) -> (String, std::sync::mpsc::Receiver<String>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for (status, body) in answers {
                let (stream, _) = listener.accept().unwrap();
                let mut reader = BufReader::new(stream);
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    reader.read_line(&mut line).unwrap();
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap();
                    }
                    if line == "\r\n" {
                        break;
                    }
                }
                let mut sent = vec![0; length];
                reader.read_exact(&mut sent).unwrap();
                let _ = tx.send(String::from_utf8(sent).unwrap());
                let mut stream = reader.into_inner();
                write!(
                    stream,
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                )
                .unwrap();
            }
        });
        (url, rx)
    }

    /// A node that refuses `upgradePolicy` (rc.38 on refuse a body's
    /// unknown keys; the wire record's §0 text) before calimcp knows its id
    /// form: the namespace is asked for again without the key.
    #[tokio::test]
    async fn a_refused_upgrade_policy_is_dropped_and_the_namespace_asked_again() {
        let ns = "ab".repeat(32);
        let refused = json!({"error": "Invalid JSON data: Failed to deserialize the JSON body into the target type: upgradePolicy: unknown field `upgradePolicy`, expected `applicationId` or `name` at line 1 column 62"});
        let (url, sent) = node_answering(vec![
            (400, refused.to_string()),
            (200, json!({"data": {"namespaceId": ns}}).to_string()),
        ]);
        let opts = super::super::NodeOptions::new(
            &url,
            std::env::temp_dir().join("calimcp-unit-never-written"),
        );
        let client = Client::new(opts).unwrap();
        let app = "cd".repeat(32);
        assert_eq!(client.create_namespace(&app, None).await.unwrap(), ns);
        let first: Value = serde_json::from_str(&sent.recv().unwrap()).unwrap();
        let second: Value = serde_json::from_str(&sent.recv().unwrap()).unwrap();
        assert_eq!(first["upgradePolicy"], "LazyOnAccess");
        assert_eq!(second, json!({"applicationId": app}));
    }

    #[test]
    fn bytes_go_as_a_number_array() {
        assert_eq!(byte_array(b"{}").to_string(), "[123,125]");
        assert_eq!(byte_array(b"").to_string(), "[]");
    }

    #[test]
    fn the_invitation_names_its_group() {
        let mut g = vec![0u8; 32];
        g[0] = 0xab;
        let inv = json!({"invitation": {"group_id": g, "expiration_timestamp": 1}});
        let hex = invitation_group(&inv).unwrap();
        assert!(hex.starts_with("ab00"), "{hex}");
        assert!(is_group_id(&hex));
        assert!(invitation_group(&json!({"invitation": {"group_id": [1, 2]}})).is_none());
        assert!(!is_group_id("zz"));
    }
}
