//! Files as parameter values, beside `@PATH` (a JSON value from a file):
//! `@bytes:FILE` gives a `bytes` parameter the file's raw bytes (binary
//! allowed; sent as the array of byte values the node reads, its length
//! checked against a fixed-size `bytes`), and `@blob:FILE` gives a 32-byte
//! id parameter the id of the file as a blob. The ABI cannot tell a blob id
//! from other 32 bytes: the marker says which it is. The blob's id is
//! computed here from the file, as the node computes it, so the arguments are
//! checked (and `--dry-run` shows them) before anything is uploaded; the
//! upload itself happens once per call, just before it is sent
//! ([`upload`]).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use super::GlobalArgs;
use super::params::{ParamSpec, ValueKind};
use calimcp_catalog::blobs::Progress;
use calimcp_catalog::ids::{self, IdForm};
use calimcp_core::error::{Code, Error, Problem, Result};
use calimcp_core::text::{sanitize_line, size};

/// An upload at least this large shows its progress on a terminal.
const PROGRESS_FROM: u64 = 8 << 20;

/// A progress line on stderr for an upload of `total` bytes, when stderr is
/// a terminal and the file is large (none with --json or --quiet).
pub(in crate::cli) fn progress_line(g: &GlobalArgs, name: &str, total: u64) -> Option<Progress> {
    if g.json || g.quiet || total < PROGRESS_FROM || !std::io::stderr().is_terminal() {
        return None;
    }
    let name = sanitize_line(name);
    let shown = std::sync::atomic::AtomicU64::new(u64::MAX);
    Some(Arc::new(move |sent: u64| {
        let pct = sent.saturating_mul(100) / total.max(1);
        if shown.swap(pct, std::sync::atomic::Ordering::Relaxed) != pct {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\ruploading {name}: {pct:>3}% of {}", size(total));
            if sent >= total {
                let _ = writeln!(err);
            }
            let _ = err.flush();
        }
    }))
}

/// A file a call uploads as a blob for one parameter.
#[derive(Debug, Clone)]
pub(in crate::cli) struct BlobFile {
    /// The parameter (its ABI name).
    pub param: String,
    pub path: PathBuf,
    /// The value put in the arguments: the id the node will give the file.
    pub value: String,
    pub size: u64,
    /// The value is in the node's id form (not a hex-encoded parameter's hex).
    pub node_form: bool,
}

fn unreadable(path: &str, e: &std::io::Error) -> Problem {
    Problem::new("", format!("cannot read {}: {e}", sanitize_line(path)))
}

/// The value of `raw` when it is `@bytes:FILE` or `@blob:FILE` (with the
/// blob to upload for the latter); `None` for any other value.
pub(in crate::cli) fn file_value(
    spec: &ParamSpec,
    raw: &str,
    max: u64,
) -> Option<std::result::Result<(Value, Option<BlobFile>), Problem>> {
    if let Some(path) = raw.strip_prefix("@bytes:") {
        return Some(bytes_file(spec, path, max).map(|v| (v, None)));
    }
    let path = raw.strip_prefix("@blob:")?;
    Some(blob_file(spec, path).map(|b| (Value::String(b.value.clone()), Some(b))))
}

fn is_bytes(spec: &ParamSpec) -> bool {
    matches!(spec.kind, ValueKind::Bytes | ValueKind::BytesAsGiven)
}

/// `@bytes:FILE`: the file's bytes as the node's byte array.
fn bytes_file(spec: &ParamSpec, path: &str, max: u64) -> std::result::Result<Value, Problem> {
    if !is_bytes(spec) {
        return Err(Problem::new(
            "",
            format!(
                "@bytes:FILE is for a bytes parameter; this one is {}",
                sanitize_line(&spec.type_name)
            ),
        ));
    }
    let meta = std::fs::metadata(path).map_err(|e| unreadable(path, &e))?;
    if meta.len() > max {
        return Err(Problem::new(
            "",
            format!(
                "{} is larger than {}, the most one value may be (raise CALIMCP_MAX_ARGS, or upload it as a blob)",
                sanitize_line(path),
                size(max)
            ),
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| unreadable(path, &e))?;
    if let Some(want) = spec.size
        && bytes.len() as u64 != want
    {
        return Err(Problem::new(
            "",
            format!(
                "{} has {} bytes; the parameter takes exactly {want}",
                sanitize_line(path),
                bytes.len()
            ),
        )
        .expected(format!("a file of exactly {want} bytes"))
        .got(format!("{} bytes", bytes.len())));
    }
    Ok(Value::Array(bytes.into_iter().map(Value::from).collect()))
}

/// `@blob:FILE`: the id the node will give the file, in the form the
/// parameter takes (hex for a hex-encoded one, else base58, as merod up to
/// 0.11.0-rc.25 writes ids; a node writing hex ids gets hex at upload).
fn blob_file(spec: &ParamSpec, path: &str) -> std::result::Result<BlobFile, Problem> {
    if !is_bytes(spec) || spec.size != Some(32) {
        return Err(Problem::new(
            "",
            format!(
                "@blob:FILE is for a 32-byte id parameter (a BlobId); this one is {}{}",
                sanitize_line(&spec.type_name),
                if is_bytes(spec) {
                    ": pass the file's bytes with @bytes:FILE"
                } else {
                    ""
                }
            ),
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| unreadable(path, &e))?;
    let meta = file.metadata().map_err(|e| unreadable(path, &e))?;
    if !meta.is_file() {
        return Err(Problem::new(
            "",
            format!("{} is not a file", sanitize_line(path)),
        ));
    }
    let id = calimcp_catalog::blobs::content_id(std::io::BufReader::new(file))
        .map_err(|e| unreadable(path, &e))?;
    let hex: String = id.iter().map(|b| format!("{b:02x}")).collect();
    let value = match spec.kind {
        ValueKind::Bytes => hex,
        _ => ids::to_form(&hex, IdForm::Base58),
    };
    Ok(BlobFile {
        param: spec.name.clone(),
        path: PathBuf::from(path),
        node_form: spec.kind != ValueKind::Bytes,
        value,
        size: meta.len(),
    })
}

/// What `--dry-run` says of the files a call would upload.
pub(in crate::cli) fn would_upload(files: &[BlobFile]) -> Vec<String> {
    files
        .iter()
        .map(|f| {
            format!(
                "would upload {} ({}) as blob {} for `{}`; nothing was uploaded",
                sanitize_line(&f.path.display().to_string()),
                size(f.size),
                f.value,
                sanitize_line(&f.param)
            )
        })
        .collect()
}

/// Uploads each file once; returns the `(parameter, id)` pairs whose id the
/// node wrote differently from the value already in the arguments (a node
/// writing hex ids). A node that gives another id than the one computed is
/// an error: the arguments were checked with that one.
pub(in crate::cli) fn upload(
    session: &calimcp_catalog::session::Session,
    files: &[BlobFile],
    progress: &dyn Fn(&Path, u64) -> Option<Progress>,
) -> Result<Vec<(String, String)>> {
    let mut changed = Vec::new();
    for f in files {
        let src = calimcp_catalog::blobs::Upload::File(f.path.clone());
        let done =
            session.block_on(session.upload_blob(&src, None, progress(&f.path, f.size)))??;
        if !ids::same(&done.blob_id, &f.value) {
            return Err(Error::new(
                calimcp_core::error::ErrorKind::Remote,
                Code::UnexpectedResponse,
                format!(
                    "the node gave {} the blob id {}, not {} as computed from the file (the call was not sent)",
                    sanitize_line(&f.path.display().to_string()),
                    sanitize_line(&done.blob_id),
                    f.value
                ),
            ));
        }
        if done.blob_id != f.value && f.node_form {
            changed.push((f.param.clone(), done.blob_id));
        }
    }
    Ok(changed)
}
