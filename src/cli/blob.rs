//! `calimcp blob upload|list|info|download|delete`: the node's blob store, as
//! meroctl's `blob` has it. The engine is `calimcp_catalog::blobs` (an
//! upload streamed from the file, a download verified against the node's
//! size and hash, a blob an app's module is kept unless --force); this file
//! reads the arguments, shows progress on a terminal, asks before a delete
//! and prints.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use comfy_table::{Table, presets};

use super::GlobalArgs;
use super::output;
use super::toolcmd::files::progress_line;
use calimcp_catalog::blobs::{Blob, BlobDeleted, BlobInfo, Upload};
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::{sanitize_line, size};

/// Upload, list, inspect, download and delete the node's blobs.
///
/// Blobs are files the node stores by content (the same bytes get the same
/// id); apps take them by id (a `BlobId` parameter: pass a file to one with
/// `calimcp call … --PARAM @blob:FILE`).
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp blob upload ./photo.png
  calimcp blob list
  calimcp blob download 4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi -o photo.png
  calimcp blob delete 4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi --yes")]
pub(crate) struct BlobArgs {
    #[command(subcommand)]
    pub command: BlobCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum BlobCommand {
    Upload(UploadArgs),
    /// List the node's blobs (id and size)
    List,
    /// Show a blob's size, SHA-256, type, and the apps whose module it is
    Info {
        /// The blob id
        id: String,
    },
    Download(DownloadArgs),
    Delete(DeleteArgs),
}

/// Upload a file as a blob; prints its id.
///
/// The file is streamed (never read whole). With --context the node also
/// announces the blob to that context's peers (merod 0.11.0-rc.25 and later
/// only for a context it is a member of). The node refuses a blob over
/// 1 GiB (rc.25). On a terminal a large upload shows its progress.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp blob upload ./photo.png
  calimcp blob upload ./photo.png --context kv --json")]
pub(crate) struct UploadArgs {
    /// The file to upload
    #[arg(value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub file: PathBuf,
    /// Announce the blob to this context's peers (an id or an alias)
    #[arg(long, value_name = "CTX")]
    pub context: Option<String>,
}

/// Download a blob to a file (or stdout).
///
/// The bytes are checked against the size and SHA-256 the node gives: a
/// mismatch is an error, and with -o FILE nothing is left at FILE (the bytes
/// go to FILE.part, renamed once checked).
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp blob download 4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi -o photo.png
  calimcp blob download 4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi > photo.png")]
pub(crate) struct DownloadArgs {
    /// The blob id
    pub id: String,
    /// Where to write it (`-`, the default: stdout, which must not be a terminal)
    #[arg(long, short = 'o', value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub output: Option<PathBuf>,
}

/// Delete a blob from the node.
///
/// Refused when an installed app's module is the blob (the app is named):
/// deleting it breaks the app's contexts. --force deletes it anyway where
/// the node allows it (0.11.0-rc.25 and later refuse). Asks first on a
/// terminal; off a terminal --yes is required.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp blob delete 4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi --yes")]
pub(crate) struct DeleteArgs {
    /// The blob id
    pub id: String,
    /// Do not ask
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Delete it even when an installed app's module is that blob
    #[arg(long)]
    pub force: bool,
}

pub(crate) fn run(g: &GlobalArgs, args: BlobArgs) -> Result<()> {
    match args.command {
        BlobCommand::Upload(a) => upload(g, a),
        BlobCommand::List => list(g),
        BlobCommand::Info { id } => info(g, &id),
        BlobCommand::Download(a) => download(g, a),
        BlobCommand::Delete(a) => delete(g, a),
    }
}

/// A file to upload: its size, or why it cannot be read.
pub(crate) fn file_size(path: &Path) -> Result<u64> {
    let meta = std::fs::metadata(path).map_err(|e| {
        Error::input(
            Code::Unreadable,
            format!(
                "cannot read {}: {e}",
                sanitize_line(&path.display().to_string())
            ),
        )
    })?;
    if !meta.is_file() {
        return Err(Error::input(
            Code::Unreadable,
            format!(
                "{} is not a file",
                sanitize_line(&path.display().to_string())
            ),
        ));
    }
    Ok(meta.len())
}

fn upload(g: &GlobalArgs, args: UploadArgs) -> Result<()> {
    let total = file_size(&args.file)?;
    let session = g.session()?;
    let progress = progress_line(g, &args.file.display().to_string(), total);
    let src = Upload::File(args.file.clone());
    let done: Blob =
        session.block_on(session.upload_blob(&src, args.context.as_deref(), progress))??;
    g.say(&session);
    if g.json {
        return output::print_json(&done);
    }
    output::print(&sanitize_line(&done.blob_id))?;
    g.ui().note(format_args!(
        "uploaded {} ({}); pass it to a method: calimcp call … --PARAM {}",
        sanitize_line(&args.file.display().to_string()),
        size(done.size),
        sanitize_line(&done.blob_id)
    ));
    Ok(())
}

fn list(g: &GlobalArgs) -> Result<()> {
    let session = g.session()?;
    let rows: Vec<Blob> = session.block_on(session.list_blobs())??;
    if g.json {
        return output::print_json(&rows);
    }
    if rows.is_empty() {
        g.ui().note(format_args!("the node has no blobs"));
        return Ok(());
    }
    let mut table = Table::new();
    table
        .load_style(presets::NOTHING)
        .set_header(vec!["BLOB", "SIZE"]);
    for r in &rows {
        table.add_row(vec![sanitize_line(&r.blob_id), r.size.to_string()]);
    }
    output::print(&output::table_text(&table))
}

fn info(g: &GlobalArgs, id: &str) -> Result<()> {
    let session = g.session()?;
    let i: BlobInfo = session.block_on(session.blob_info(id))??;
    if g.json {
        return output::print_json(&i);
    }
    let or_dash = |v: &Option<String>| v.as_deref().map_or("-".into(), sanitize_line);
    let used = match i.used_by.is_empty() {
        true => "-".to_string(),
        false => sanitize_line(&i.used_by.join(", ")),
    };
    output::print(&format!(
        "blob     {}\nsize     {}\nsha256   {}\ntype     {}\nused by  {used}",
        sanitize_line(&i.blob_id),
        i.size,
        or_dash(&i.sha256),
        or_dash(&i.mime_type),
    ))
}

fn download(g: &GlobalArgs, args: DownloadArgs) -> Result<()> {
    let to_file = args.output.as_ref().filter(|p| p.as_os_str() != "-");
    let session = g.session()?;
    let i: BlobInfo = match to_file {
        Some(path) => download_to_file(&session, &args.id, path)?,
        None => {
            if g.json {
                return Err(Error::input(
                    Code::Usage,
                    "--json prints the blob's details on stdout: pass -o FILE for its bytes",
                ));
            }
            if std::io::stdout().is_terminal() {
                return Err(
                    Error::input(Code::Usage, "not writing a blob's bytes to a terminal")
                        .with_hint(
                            "pass -o FILE, or redirect stdout: calimcp blob download ID > FILE",
                        ),
                );
            }
            let mut out = std::io::BufWriter::new(std::io::stdout());
            let i = session.block_on(session.download_blob(&args.id, &mut out))??;
            out.flush()
                .map_err(|e| Error::input(Code::Unwritable, format!("cannot write stdout: {e}")))?;
            i
        }
    };
    if g.json {
        return output::print_json(&i);
    }
    if let Some(path) = to_file {
        g.ui().note(format_args!(
            "wrote {} ({}, checked against the node's size and hash)",
            sanitize_line(&path.display().to_string()),
            size(i.size)
        ));
    }
    Ok(())
}

/// Downloads into `path.part`, renamed to `path` once verified (removed on
/// any failure).
fn download_to_file(
    session: &calimcp_catalog::session::Session,
    id: &str,
    path: &Path,
) -> Result<BlobInfo> {
    let mut part = path.as_os_str().to_owned();
    part.push(".part");
    let part = PathBuf::from(part);
    let unwritable = |p: &Path, e: std::io::Error| {
        Error::input(
            Code::Unwritable,
            format!(
                "cannot write {}: {e}",
                sanitize_line(&p.display().to_string())
            ),
        )
    };
    let file = std::fs::File::create(&part).map_err(|e| unwritable(&part, e))?;
    let mut out = std::io::BufWriter::new(file);
    let got = session
        .block_on(session.download_blob(id, &mut out))
        .and_then(|r| r)
        .and_then(|i| {
            out.flush().map_err(|e| unwritable(&part, e))?;
            Ok(i)
        });
    drop(out);
    match got {
        Ok(i) => {
            std::fs::rename(&part, path).map_err(|e| unwritable(path, e))?;
            Ok(i)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&part);
            Err(e)
        }
    }
}

fn delete(g: &GlobalArgs, args: DeleteArgs) -> Result<()> {
    let session = g.session()?;
    session.answering("deleting a blob")?;
    super::app::confirm(
        g,
        &format!(
            "delete blob {} from the node at {}?",
            sanitize_line(&args.id),
            session.node_url()?
        ),
        args.yes,
    )?;
    let done: BlobDeleted = session.block_on(session.delete_blob(&args.id, args.force))??;
    if g.json {
        return output::print_json(&done);
    }
    match done.deleted {
        true => output::print(&format!("deleted {}", sanitize_line(&done.blob_id)))?,
        false => g.ui().note(format_args!(
            "the node had no blob {}",
            sanitize_line(&done.blob_id)
        )),
    }
    if !done.used_by.is_empty() {
        g.ui().warn(format_args!(
            "it was the module of {}: the node runs it from memory until it restarts, then every call in its contexts fails until the app is installed again",
            sanitize_line(&done.used_by.join(", "))
        ));
    }
    Ok(())
}
