//! The `blobs` toolset (`serve --toolsets apps,blobs`, or `all`), as
//! Calimero's own MCP server has it: `upload_blob {data, context?}` (the
//! bytes as base64, at most [`MAX_UPLOAD`]), `list_blobs` and `delete_blob
//! {blob, force?}`. Opt-in; `--read-only` keeps only `list_blobs`, and
//! `--allow`/`--deny` apply as to any tool. Each runs the catalog's engine
//! (`calimcp_catalog::blobs`), the one `calimcp blob` runs: a blob an
//! installed app's module is, is not deleted unless `force`.

use std::sync::{Arc, OnceLock};

use base64::Engine as _;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::lifecycle::{listed, parse_with, schema};
use calimcp_catalog::blobs::Upload;
use calimcp_catalog::session::Session;
use calimcp_core::text::size;

pub(crate) const UPLOAD_BLOB: &str = "upload_blob";
pub(crate) const LIST_BLOBS: &str = "list_blobs";
pub(crate) const DELETE_BLOB: &str = "delete_blob";

/// The blob tools' names.
pub(crate) const NAMES: [&str; 3] = [UPLOAD_BLOB, LIST_BLOBS, DELETE_BLOB];

/// The most bytes `upload_blob` takes: its base64 (about 2.7 MiB) stays
/// within the 4 MiB an MCP request over HTTP may be (rmcp's limit).
pub(crate) const MAX_UPLOAD: usize = 2 << 20;

/// `upload_blob`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct UploadArgs {
    /// The blob's bytes, base64 (standard alphabet, padding optional); at most 2 MiB of bytes.
    pub data: String,
    /// A context (id or alias) to announce the blob to, so its members' nodes can fetch it.
    pub context: Option<String>,
}

/// `delete_blob`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeleteArgs {
    /// The blob id.
    #[schemars(length(min = 1))]
    pub blob: String,
    /// Delete it even when an installed app's module is that blob (merod 0.11.0-rc.25 and later refuse it even then).
    pub force: Option<bool>,
}

/// `list_blobs` takes nothing.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoArgs {}

fn schema_of(name: &str) -> Value {
    match name {
        UPLOAD_BLOB => schema::<UploadArgs>(),
        DELETE_BLOB => schema::<DeleteArgs>(),
        _ => schema::<NoArgs>(),
    }
}

/// Whether tool `name` of this toolset is kept under `--read-only`.
pub(crate) fn reads_only(name: &str) -> bool {
    name == LIST_BLOBS
}

/// The blob tools as listed.
pub(crate) fn tools() -> Vec<rmcp::model::Tool> {
    static TOOLS: OnceLock<Vec<rmcp::model::Tool>> = OnceLock::new();
    TOOLS
        .get_or_init(|| {
            let hints = |read_only: bool, destructive: bool, idempotent: bool| {
                json!({"readOnlyHint": read_only, "destructiveHint": destructive, "idempotentHint": idempotent, "openWorldHint": true})
            };
            let defs = [
                (UPLOAD_BLOB, "Upload a blob", "Stores bytes on the node as a blob and returns {blobId, size}: pass blobId to a method parameter that takes a blob id. `data` is base64, at most 2 MiB of bytes (larger files: `calimcp blob upload FILE`). With `context`, the node also announces the blob to that context's members. The same bytes give the same id.", hints(false, false, true)),
                (LIST_BLOBS, "List blobs", "Lists the node's blobs: {blobs: [{blobId, size}]} (apps' modules among them).", hints(true, false, true)),
                (DELETE_BLOB, "Delete a blob", "Deletes a blob from the node. Refused when an installed app's module is that blob (the app is named; deleting it breaks the app's contexts) unless `force`. Returns {blobId, deleted, usedBy}.", hints(false, true, true)),
            ];
            listed(defs, schema_of)
        })
        .clone()
}

/// The decoded `data` of `upload_blob`, or why it is refused.
fn decoded(data: &str) -> std::result::Result<Vec<u8>, String> {
    let data = data.trim();
    // Checked before decoding: past the limit, nothing is decoded.
    if data.len() / 4 * 3 > MAX_UPLOAD + 3 {
        return Err(format!(
            "`data` holds more than {}, the most upload_blob takes; upload a larger file with `calimcp blob upload FILE`",
            size(MAX_UPLOAD as u64)
        ));
    }
    let engine = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    let bytes = engine
        .decode(data)
        .map_err(|e| format!("`data` is not base64: {e}"))?;
    if bytes.len() > MAX_UPLOAD {
        return Err(format!(
            "`data` holds {} bytes, more than {}, the most upload_blob takes; upload a larger file with `calimcp blob upload FILE`",
            bytes.len(),
            size(MAX_UPLOAD as u64)
        ));
    }
    Ok(bytes)
}

/// A result as JSON.
fn to_value<T: serde::Serialize>(
    v: calimcp_core::error::Result<T>,
) -> calimcp_core::error::Result<Value> {
    v.and_then(|v| {
        serde_json::to_value(v).map_err(|e| calimcp_core::error::Error::internal(e.to_string()))
    })
}

/// Runs blob tool `name`: `Ok` with its answer, `Err` with an error's
/// text for the agent (refusals before anything is sent).
pub(crate) async fn call(
    session: &Session,
    name: &str,
    args: &Map<String, Value>,
) -> std::result::Result<std::result::Result<Value, calimcp_core::error::Error>, String> {
    match name {
        UPLOAD_BLOB => {
            let a: UploadArgs = parse_with(name, &schema_of(name), args)?;
            let bytes = decoded(&a.data)?;
            let src = Upload::Bytes(Arc::new(bytes));
            Ok(to_value(
                session.upload_blob(&src, a.context.as_deref(), None).await,
            ))
        }
        DELETE_BLOB => {
            let a: DeleteArgs = parse_with(name, &schema_of(name), args)?;
            Ok(to_value(
                session.delete_blob(&a.blob, a.force.unwrap_or(false)).await,
            ))
        }
        _ => {
            let _: NoArgs = parse_with(name, &schema_of(name), args)?;
            let list = session.list_blobs().await;
            Ok(to_value(list.map(|blobs| json!({ "blobs": blobs }))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upload_data_is_base64_within_the_limit() {
        assert_eq!(decoded("AAEC/w==").unwrap(), [0, 1, 2, 255]);
        assert_eq!(decoded("AAEC/w").unwrap(), [0, 1, 2, 255]);
        assert!(decoded("not base64!").unwrap_err().contains("not base64"));
        let big = base64::engine::general_purpose::STANDARD.encode(vec![7u8; MAX_UPLOAD + 1]);
        assert!(decoded(&big).unwrap_err().contains("2 MiB"));
        let max = base64::engine::general_purpose::STANDARD.encode(vec![7u8; MAX_UPLOAD]);
        assert_eq!(decoded(&max).unwrap().len(), MAX_UPLOAD);
    }
}
