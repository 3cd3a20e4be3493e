//! The node's blobs, for both faces: upload (a file streamed, or bytes an
//! agent sent), list, info, download (checked against the node's size and
//! hash) and delete. The one rule decided here: a blob an installed app's
//! module is (its `blob.bytecode`, `blob.compiled`, or a service's) is not
//! deleted unless forced — merod 0.11.0-rc.4 deletes it (it runs the app
//! from memory until it restarts, then every call of it fails), rc.25
//! refuses with 403 — and the refusal names the app. The routes and their version differences are the node client's
//! (`calimcp_node::blobs`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::session::Session;
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;
use calimcp_node::NodeApp;
use calimcp_node::blobs::{BlobHead, BlobRow};
pub use calimcp_node::blobs::{Progress, Upload, content_id};
use calimcp_node::ids;

/// A blob on the node (`blob upload --json`, a row of `blob list --json`,
/// MCP `upload_blob` and `list_blobs`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Blob {
    /// The blob's id, as the node writes ids (what a method's blob-id parameter takes).
    pub blob_id: String,
    /// Its size in bytes.
    pub size: u64,
}

/// What the node says of one blob (`blob info --json`, `blob download --json`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BlobInfo {
    pub blob_id: String,
    /// Its size in bytes.
    pub size: u64,
    /// Hex SHA-256 of its content (the node's ETag), when the node gives it.
    pub sha256: Option<String>,
    /// The content type the node detected, when it says.
    pub mime_type: Option<String>,
    /// The installed apps whose module is this blob (package or id).
    pub used_by: Vec<String>,
}

/// `blob delete --json`, MCP `delete_blob`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BlobDeleted {
    pub blob_id: String,
    /// False when the node no longer had it.
    pub deleted: bool,
    /// The installed apps whose module it was (deleted anyway with force).
    pub used_by: Vec<String>,
}

impl From<BlobRow> for Blob {
    fn from(r: BlobRow) -> Blob {
        Blob {
            blob_id: r.blob_id,
            size: r.size,
        }
    }
}

/// The apps among `apps` whose modules include blob `id` (either id form).
pub fn apps_using(apps: &[NodeApp], id: &str) -> Vec<String> {
    apps.iter()
        .filter(|a| a.blobs.iter().any(|b| ids::same(b, id)))
        .map(|a| {
            let name = a.package_or_id();
            match &a.version {
                Some(v) => format!("{name}@{v}"),
                None => name.to_string(),
            }
        })
        .collect()
}

fn not_found(client_url: &str, id: &str) -> Error {
    Error::new(
        calimcp_core::error::ErrorKind::Remote,
        Code::BlobNotFound,
        format!("the node at {client_url} has no blob {}", sanitize_line(id)),
    )
    .with_hint("list the node's blobs: calimcp blob list")
}

fn info_of(head: BlobHead, used_by: Vec<String>) -> BlobInfo {
    BlobInfo {
        blob_id: head.blob_id,
        size: head.size,
        sha256: head.sha256,
        mime_type: head.mime_type,
        used_by,
    }
}

impl Session {
    /// Uploads `src`, announced to `context` (an id or an alias) when given.
    pub async fn upload_blob(
        &self,
        src: &Upload,
        context: Option<&str>,
        progress: Option<Progress>,
    ) -> Result<Blob> {
        let client = self.client_for("uploading a blob")?;
        let context = match context {
            Some(c) => Some(self.context_id_of(c).await?),
            None => None,
        };
        let row = client
            .upload_blob(src, context.as_deref(), progress)
            .await?;
        Ok(row.into())
    }

    /// Every blob the node lists.
    pub async fn list_blobs(&self) -> Result<Vec<Blob>> {
        let client = self.client_for("listing blobs")?;
        Ok(client
            .list_blobs()
            .await?
            .into_iter()
            .map(Blob::from)
            .collect())
    }

    /// What the node says of blob `id`, and which apps' modules it is.
    pub async fn blob_info(&self, id: &str) -> Result<BlobInfo> {
        let client = self.client_for("reading a blob's details")?;
        let head = client
            .blob_info(id)
            .await?
            .ok_or_else(|| not_found(client.url(), id))?;
        let used_by = apps_using(&client.applications().await?, id);
        Ok(info_of(head, used_by))
    }

    /// Streams blob `id` into `out`, verified against the node's size and
    /// hash (an error when it does not match: what was written is not it).
    pub async fn download_blob(
        &self,
        id: &str,
        out: &mut (dyn std::io::Write + Send),
    ) -> Result<BlobInfo> {
        let client = self.client_for("downloading a blob")?;
        let head = client
            .download_blob(id, out)
            .await?
            .ok_or_else(|| not_found(client.url(), id))?;
        Ok(info_of(head, Vec::new()))
    }

    /// Deletes blob `id`, refused when an installed app's module is that
    /// blob unless `force` (rc.25 and later refuse it even then).
    pub async fn delete_blob(&self, id: &str, force: bool) -> Result<BlobDeleted> {
        let client = self.client_for("deleting a blob")?;
        let used_by = apps_using(&client.applications().await?, id);
        if !used_by.is_empty() && !force {
            return Err(Error::input(
                Code::BlobInUse,
                format!(
                    "blob {} is the module of {} installed on the node at {}: deleting it breaks {} (once the node restarts, every call in {} contexts fails)",
                    sanitize_line(id),
                    sanitize_line(&used_by.join(", ")),
                    client.url(),
                    if used_by.len() == 1 { "it" } else { "them" },
                    if used_by.len() == 1 { "its" } else { "their" },
                ),
            )
            .with_hint("uninstall the app instead (calimcp app uninstall APP), or pass --force (nodes from 0.11.0-rc.25 refuse it even then)"));
        }
        let deleted = client.delete_blob(id).await.map_err(|e| {
            if e.code == Code::BlobInUse {
                e.with_hint("uninstall the app that uses it first: calimcp app uninstall APP")
            } else {
                e
            }
        })?;
        Ok(BlobDeleted {
            blob_id: id.to_string(),
            deleted,
            used_by,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blob_is_used_by_the_apps_whose_modules_it_is_in_either_id_form() {
        let hex = "ab".repeat(32);
        let b58 = ids::to_form(&hex, ids::IdForm::Base58);
        let app = |id: &str, pkg: Option<&str>, blobs: Vec<String>| NodeApp {
            id: id.into(),
            package: pkg.map(Into::into),
            version: Some("1.0.0".into()),
            blobs,
            ..NodeApp::default()
        };
        let apps = vec![
            app("A", Some("com.example.kv"), vec![b58.clone()]),
            app("B", None, vec!["x".into(), hex.clone()]),
            app("C", Some("other"), vec!["y".into()]),
        ];
        assert_eq!(apps_using(&apps, &hex), ["com.example.kv@1.0.0", "B@1.0.0"]);
        assert!(apps_using(&apps, "z").is_empty());
    }
}
