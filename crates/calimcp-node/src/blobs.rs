//! The node's blob store: upload, list, info, download and delete. Routes
//! and bodies as merod 0.11.0-rc.4 (calimero-server `admin/handlers/blob.rs`)
//! and rc.25 (core at its tag, the same file) answer them:
//!
//! - `PUT /admin-api/blobs[?context_id=]`, the raw bytes as the body →
//!   `{"data":{"blob_id","size"}}`. The node streams the body to its store in
//!   1 MiB chunks; a blob (and its id) exists only once the whole body
//!   arrived. With `context_id` it announces the blob to the context's peers
//!   (rc.25 only when it is a member of the context; a failed announcement is
//!   logged by the node, never answered). rc.25 refuses a body over 1 GiB.
//! - `GET /admin-api/blobs` → `{"data":{"blobs":[{"blob_id","size"}]}}`
//!   (root blobs: the chunks of a whole upload are not listed, those of an
//!   interrupted one are).
//! - `HEAD /admin-api/blobs/:id` → 200 with `Content-Length` (the size),
//!   `ETag` (`"` hex SHA-256 of the content `"`), `X-Blob-MIME-Type`; 404
//!   without a body.
//! - `GET /admin-api/blobs/:id` → the bytes with the same headers (rc.4 sends
//!   a zero size and an all-zero ETag when its metadata is missing; rc.25
//!   answers 500 then); 404 `{"error":"Blob not found locally or in network"}`.
//! - `DELETE /admin-api/blobs/:id` → `{"blob_id","deleted":true}` (no `data`);
//!   an unknown id: rc.25 404 `{"error":"Blob not found"}`, rc.4 500
//!   `{"error":"Failed to delete blob: Blob not found"}`. rc.25 counts
//!   references (a blob uploaded twice is deleted by the second delete); rc.25 refuses a blob an installed app
//!   uses with 403 `{"error":"Blob is referenced by an installed application
//!   and cannot be deleted"}` (rc.4 deletes it).
//!
//! Uploads are streamed from the file (never read whole), downloads streamed
//! to a writer and checked against the node's size and ETag. Both take the
//! `execute` bound, not the listing one: a large blob takes a while.

use std::path::PathBuf;
use std::sync::Arc;

use reqwest::Method;
use serde_json::Value;
use sha2::Digest as _;

use super::http::Cap;
use super::{Client, data, decode, str_field};
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::text::{sanitize_line, size};

/// The bytes read from a file for one piece of an upload's body.
const PIECE: usize = 64 << 10;

/// The 32 bytes of the id a node gives the content read from `r`
/// (calimero-blobstore `put`, rc.4 and rc.25: SHA-256 over the SHA-256 of
/// each 1 MiB chunk), read in chunks, never whole.
pub fn content_id(mut r: impl std::io::Read) -> std::io::Result<[u8; 32]> {
    const CHUNK: usize = 1 << 20;
    let mut outer = sha2::Sha256::new();
    let mut buf = vec![0u8; CHUNK];
    loop {
        let mut filled = 0;
        while filled < CHUNK {
            match r.read(&mut buf[filled..])? {
                0 => break,
                n => filled += n,
            }
        }
        if filled == 0 {
            break;
        }
        outer.update(sha2::Sha256::digest(&buf[..filled]));
        if filled < CHUNK {
            break;
        }
    }
    Ok(outer.finalize().into())
}

/// A blob as the node lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobRow {
    /// Its id, as the node writes ids.
    pub blob_id: String,
    pub size: u64,
}

/// What `HEAD /admin-api/blobs/:id` says of a blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobHead {
    pub blob_id: String,
    pub size: u64,
    /// Hex SHA-256 of the content (the ETag), when the node gives one.
    pub sha256: Option<String>,
    pub mime_type: Option<String>,
}

/// What an upload sends.
#[derive(Debug, Clone)]
pub enum Upload {
    /// A file, streamed.
    File(PathBuf),
    /// Bytes already in memory (an MCP tool's argument).
    Bytes(Arc<Vec<u8>>),
}

/// Told the number of bytes sent so far, as the body goes out.
pub type Progress = Arc<dyn Fn(u64) + Send + Sync>;

/// The SHA-256 an ETag names: `"<64 hex>"`; none for an absent, malformed
/// or all-zero one (rc.4's stand-in when it lacks the blob's metadata).
fn etag_sha256(etag: Option<&str>) -> Option<String> {
    let hex = etag?.trim().trim_start_matches("W/").trim_matches('"');
    let ok = hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit());
    (ok && hex.bytes().any(|b| b != b'0')).then(|| hex.to_ascii_lowercase())
}

fn header(resp: &reqwest::Response, name: &str) -> Option<String> {
    resp.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// The body of an upload, counting (and reporting) what goes out.
async fn body_of(
    src: &Upload,
    progress: Option<Progress>,
) -> std::io::Result<(reqwest::Body, u64)> {
    match src {
        Upload::Bytes(b) => {
            if let Some(p) = &progress {
                p(b.len() as u64);
            }
            Ok((reqwest::Body::from(b.as_ref().clone()), b.len() as u64))
        }
        Upload::File(path) => {
            let file = tokio::fs::File::open(path).await?;
            let len = file.metadata().await?.len();
            let stream = futures_util::stream::unfold((file, 0u64), move |(mut file, sent)| {
                let progress = progress.clone();
                async move {
                    use tokio::io::AsyncReadExt as _;
                    let mut buf = vec![0u8; PIECE];
                    match file.read(&mut buf).await {
                        Ok(0) => None,
                        Ok(n) => {
                            buf.truncate(n);
                            let sent = sent + n as u64;
                            if let Some(p) = &progress {
                                p(sent);
                            }
                            Some((Ok::<_, std::io::Error>(buf), (file, sent)))
                        }
                        Err(e) => Some((Err(e), (file, sent))),
                    }
                }
            });
            Ok((reqwest::Body::wrap_stream(stream), len))
        }
    }
}

impl Client {
    /// A blob id in the form the node writes ids (learnt from its
    /// application listing when no answer has shown it yet).
    async fn blob_path_id(&self, id: &str) -> String {
        if self.id_form().is_none() {
            let _ = self.applications().await;
        }
        self.node_id(id.trim())
    }

    /// The bound and cap of a blob exchange: the `execute` bound.
    fn blob_cap(&self) -> Cap {
        self.execute_cap()
    }

    /// One authenticated blob exchange whose body (if any) is made by
    /// `body` (again for the one retry after a renewed token). Redirects
    /// are not followed (a blob body cannot be sent twice): a 3xx is an error.
    async fn blob_exchange(
        &self,
        method: Method,
        url: &str,
        shown: &str,
        upload: Option<(&Upload, Option<Progress>)>,
    ) -> Result<reqwest::Response> {
        let mut token = self.current_token().await?;
        let mut renewed_once = false;
        loop {
            self.log(format_args!("> {method} {shown}"));
            let mut req = self
                .inner
                .http
                .request(method.clone(), url)
                .timeout(self.blob_cap().bound);
            if let Some(t) = &token {
                self.log(format_args!("> authorization: Bearer ***"));
                req = req.bearer_auth(t);
            }
            if let Some((src, progress)) = &upload {
                let (body, len) = body_of(src, progress.clone())
                    .await
                    .map_err(|e| upload_unreadable(src, &e))?;
                self.log(format_args!("> {} bytes", len));
                req = req
                    .header(reqwest::header::CONTENT_TYPE, "application/octet-stream")
                    .header(reqwest::header::CONTENT_LENGTH, len)
                    .body(body);
            }
            let resp = req
                .send()
                .await
                .map_err(|e| self.transport_error_in(&e, shown, self.blob_cap().bound))?;
            self.log(format_args!("< {}", resp.status()));
            let status = resp.status().as_u16();
            if matches!(status, 401 | 403) && !renewed_once {
                let auth_error = header(&resp, "x-auth-error");
                if let Some(t) = self
                    .renewed(status, auth_error.as_deref(), token.as_deref())
                    .await?
                {
                    token = Some(t);
                    renewed_once = true;
                    continue;
                }
            }
            return Ok(resp);
        }
    }

    /// The error a non-2xx blob answer stands for.
    async fn blob_status_error(&self, resp: reqwest::Response, shown: &str) -> Error {
        let status = resp.status().as_u16();
        match self.reply(resp, shown, self.response_cap()).await {
            Ok(reply) => self.scrub_err(self.status_error(&reply, shown)),
            Err(e) => self.scrub_err(e),
        }
        .with_status_hint(status)
    }

    /// Uploads `src` (streamed from a file), announced to `context` (an id)
    /// when given; `progress` is told the bytes sent so far.
    pub async fn upload_blob(
        &self,
        src: &Upload,
        context: Option<&str>,
        progress: Option<Progress>,
    ) -> Result<BlobRow> {
        let context = context.map(|c| self.node_id(c));
        let query = context.as_deref().map(|c| ("context_id", c));
        let (url, shown) = self.endpoint(&["admin-api", "blobs"], query);
        let sent = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let counter = sent.clone();
        let outer = progress.clone();
        let tracked: Progress = Arc::new(move |n| {
            counter.store(n, std::sync::atomic::Ordering::Relaxed);
            if let Some(p) = &outer {
                p(n);
            }
        });
        let resp = self
            .blob_exchange(Method::PUT, &url, &shown, Some((src, Some(tracked))))
            .await
            .map_err(|e| interrupted(e, sent.load(std::sync::atomic::Ordering::Relaxed)))?;
        if !resp.status().is_success() {
            return Err(self.blob_status_error(resp, &shown).await);
        }
        let reply = self.reply(resp, &shown, self.response_cap()).await?;
        let v = data(self.check(reply, &shown)?);
        let row =
            parse_row(&v).ok_or_else(|| self.unexpected(&shown, "no `blob_id` and `size`"))?;
        self.saw_id(&row.blob_id);
        Ok(row)
    }

    /// Every blob the node lists.
    pub async fn list_blobs(&self) -> Result<Vec<BlobRow>> {
        let v = self
            .get_json(&["admin-api", "blobs"], None)
            .await
            .map_err(|e| self.scrub_err(e))?;
        let list = v
            .get("blobs")
            .and_then(Value::as_array)
            .ok_or_else(|| self.unexpected("admin-api/blobs", "no `blobs` list"))?;
        let rows: Vec<BlobRow> = list.iter().filter_map(parse_row).collect();
        if let Some(r) = rows.first() {
            self.saw_id(&r.blob_id);
        }
        Ok(rows)
    }

    /// What the node says of blob `id` (`HEAD`), `None` when it has none.
    pub async fn blob_info(&self, id: &str) -> Result<Option<BlobHead>> {
        let id = self.blob_path_id(id).await;
        let (url, shown) = self.endpoint(&["admin-api", "blobs", &id], None);
        let resp = self.blob_exchange(Method::HEAD, &url, &shown, None).await?;
        match resp.status().as_u16() {
            404 => Ok(None),
            s if (200..300).contains(&s) => Ok(Some(head_of(&id, &resp))),
            _ => Err(self.blob_status_error(resp, &shown).await),
        }
    }

    /// Streams blob `id` into `out`, then checks what arrived against the
    /// node's size and ETag. `Ok(None)` when the node has no such blob.
    pub async fn download_blob(
        &self,
        id: &str,
        out: &mut (dyn std::io::Write + Send),
    ) -> Result<Option<BlobHead>> {
        let id = self.blob_path_id(id).await;
        let (url, shown) = self.endpoint(&["admin-api", "blobs", &id], None);
        let mut resp = self.blob_exchange(Method::GET, &url, &shown, None).await?;
        match resp.status().as_u16() {
            404 => return Ok(None),
            s if (200..300).contains(&s) => {}
            _ => return Err(self.blob_status_error(resp, &shown).await),
        }
        let head = head_of(&id, &resp);
        let declared = resp
            .content_length()
            .filter(|&n| n > 0 || head.sha256.is_some());
        let mut hasher = sha2::Sha256::new();
        let mut got = 0u64;
        let bound = self.blob_cap().bound;
        while let Some(chunk) = resp
            .chunk()
            .await
            .map_err(|e| self.transport_error_in(&e, &shown, bound))?
        {
            hasher.update(&chunk);
            got += chunk.len() as u64;
            out.write_all(&chunk).map_err(|e| {
                Error::new(
                    ErrorKind::Input,
                    Code::Unwritable,
                    format!("cannot write the blob: {e}"),
                )
            })?;
        }
        let sha = hex_of(&hasher.finalize());
        verify(&head, declared, got, &sha)?;
        Ok(Some(BlobHead {
            size: got,
            sha256: Some(sha),
            ..head
        }))
    }

    /// Deletes blob `id`: `Ok(false)` when the node has none.
    pub async fn delete_blob(&self, id: &str) -> Result<bool> {
        let id = self.blob_path_id(id).await;
        let (url, shown) = self.endpoint(&["admin-api", "blobs", &id], None);
        let resp = self
            .blob_exchange(Method::DELETE, &url, &shown, None)
            .await?;
        let status = resp.status().as_u16();
        let reply = self.reply(resp, &shown, self.response_cap()).await?;
        // rc.25: 404 "Blob not found"; rc.4: 500 "Failed to delete blob:
        // Blob not found" (its store's error for an id it lacks).
        let words = decode::node_message(&reply.body).unwrap_or_default();
        if status == 404 || (status == 500 && words.ends_with("Blob not found")) {
            return Ok(false);
        }
        if status == 403
            && let Some(words) = decode::node_message(&reply.body)
            && words.contains("referenced by an installed application")
        {
            return Err(Error::input(
                Code::BlobInUse,
                format!(
                    "the node at {} refused to delete blob {}: {words}",
                    self.inner.shown,
                    sanitize_line(&id)
                ),
            ));
        }
        let v = self.check(reply, &shown).map_err(|e| self.scrub_err(e))?;
        Ok(v.get("deleted").and_then(Value::as_bool).unwrap_or(true))
    }
}

trait StatusHint {
    fn with_status_hint(self, status: u16) -> Error;
}

impl StatusHint for Error {
    /// A 3xx to a blob route: calimcp does not follow it (the body cannot be
    /// sent again).
    fn with_status_hint(self, status: u16) -> Error {
        if (300..400).contains(&status) {
            self.with_hint("the node redirected a blob request, which calimcp does not follow: pass the URL the node serves its API at (--node)")
        } else {
            self
        }
    }
}

fn parse_row(v: &Value) -> Option<BlobRow> {
    Some(BlobRow {
        blob_id: str_field(v, "blob_id").or_else(|| str_field(v, "blobId"))?,
        size: v.get("size")?.as_u64()?,
    })
}

fn head_of(id: &str, resp: &reqwest::Response) -> BlobHead {
    BlobHead {
        blob_id: header(resp, "x-blob-id").unwrap_or_else(|| id.to_string()),
        // Read from the header: a HEAD answer's body is empty, so reqwest's
        // `content_length` (the body's) is 0 there.
        size: header(resp, "content-length")
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0),
        sha256: etag_sha256(header(resp, "etag").as_deref()),
        mime_type: header(resp, "x-blob-mime-type").or_else(|| header(resp, "content-type")),
    }
}

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A download that does not match what the node said it would send.
fn verify(head: &BlobHead, declared: Option<u64>, got: u64, sha: &str) -> Result<()> {
    let mismatch = |why: String| {
        Error::new(
            ErrorKind::Remote,
            Code::BlobMismatch,
            format!("blob {}: {why}", sanitize_line(&head.blob_id)),
        )
        .with_hint("download it again; nothing was kept of this attempt")
    };
    if let Some(n) = declared
        && n != got
    {
        return Err(mismatch(format!(
            "the node said {} and sent {}",
            size(n),
            size(got)
        )));
    }
    if let Some(want) = &head.sha256
        && want != sha
    {
        return Err(mismatch(format!(
            "the bytes received hash to SHA-256 {sha}, the node's ETag says {want}"
        )));
    }
    Ok(())
}

fn upload_unreadable(src: &Upload, e: &std::io::Error) -> Error {
    let what = match src {
        Upload::File(p) => p.display().to_string(),
        Upload::Bytes(_) => "the bytes".to_string(),
    };
    Error::input(
        Code::Unreadable,
        format!("cannot read {}: {e}", sanitize_line(&what)),
    )
}

/// An upload that failed in transport: what the node has of it.
fn interrupted(e: Error, sent: u64) -> Error {
    if e.kind != ErrorKind::Unreachable || sent == 0 {
        return e;
    }
    let mut e = e;
    e.message = format!(
        "{} — the upload stopped after {} had been sent: the node made no blob of the file (a blob id comes only from a complete upload), though the 1 MiB parts it stored before the break may show in `calimcp blob list`",
        e.message,
        size(sent)
    );
    e.with_hint("upload the file again")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contents_id_is_the_hash_of_its_1_mib_chunks_hashes() {
        let bytes: Vec<u8> = (0..(1 << 20) + 5).map(|i| (i % 251) as u8).collect();
        let mut outer = sha2::Sha256::new();
        outer.update(sha2::Sha256::digest(&bytes[..1 << 20]));
        outer.update(sha2::Sha256::digest(&bytes[1 << 20..]));
        let want: [u8; 32] = outer.finalize().into();
        assert_eq!(content_id(&bytes[..]).unwrap(), want);
        // One chunk: the hash of its hash; nothing: the hash of nothing.
        let one: [u8; 32] = sha2::Sha256::digest(sha2::Sha256::digest(b"abc")).into();
        assert_eq!(content_id(&b"abc"[..]).unwrap(), one);
        let none: [u8; 32] = sha2::Sha256::digest(b"").into();
        assert_eq!(content_id(&b""[..]).unwrap(), none);
    }

    #[test]
    fn an_interrupted_upload_says_what_was_sent_and_what_the_node_has() {
        let cut = Error::new(
            ErrorKind::Unreachable,
            Code::Unreachable,
            "the request to X failed: reset",
        );
        let e = interrupted(cut.clone(), 3 << 20);
        assert!(
            e.message.contains("stopped after 3 MiB had been sent"),
            "{}",
            e.message
        );
        assert!(
            e.message.contains("made no blob of the file"),
            "{}",
            e.message
        );
        assert_eq!(e.hint.as_deref(), Some("upload the file again"));
        // Nothing sent yet, or not a transport failure: as it was.
        assert_eq!(
            interrupted(cut, 0).message,
            "the request to X failed: reset"
        );
        let refused = Error::input(Code::Usage, "no");
        assert_eq!(interrupted(refused, 5).message, "no");
    }

    #[test]
    fn an_etag_gives_the_content_hash_unless_it_is_rc4s_all_zero_stand_in() {
        let h = "ab".repeat(32);
        assert_eq!(etag_sha256(Some(&format!("\"{h}\""))), Some(h.clone()));
        assert_eq!(etag_sha256(Some(&format!("\"{}\"", "0".repeat(64)))), None);
        assert_eq!(etag_sha256(Some("\"xyz\"")), None);
        assert_eq!(etag_sha256(None), None);
    }

    #[test]
    fn a_download_is_checked_against_the_nodes_size_and_hash() {
        let head = BlobHead {
            blob_id: "b".into(),
            size: 3,
            sha256: Some("ab".repeat(32)),
            mime_type: None,
        };
        let e = verify(&head, Some(4), 3, &"ab".repeat(32)).unwrap_err();
        assert_eq!(e.code, Code::BlobMismatch);
        assert!(
            e.message.contains("said 4 bytes and sent 3 bytes"),
            "{}",
            e.message
        );
        let e = verify(&head, Some(3), 3, &"cd".repeat(32)).unwrap_err();
        assert!(e.message.contains("ETag"), "{}", e.message);
        verify(&head, Some(3), 3, &"ab".repeat(32)).unwrap();
    }
}
