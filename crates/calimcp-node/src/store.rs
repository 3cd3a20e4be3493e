//! Files calimcp trusts — its configuration (`nodes.json`) and state (token
//! cache, pins, ABI cache): private, read only from private places, written
//! whole or not at all, one writer at a time.
//!
//! A file is written to a new temporary file beside it (created exclusively,
//! never through a symlink, mode 0600 from the start), flushed to disk and
//! renamed over the target. Nothing is written into, and nothing is read
//! from, a directory that another user may write to or that belongs to
//! another user, nor a file another user may write to or owns: there, a file
//! could be planted, swapped or read between two steps ([`read_trusted`]).
//! A symlinked directory is followed and its target checked; a symlinked file
//! is read and written through (the file it points to is replaced, in its
//! own directory, which must be private too), never replaced by a plain
//! file. Read-modify-write of one file is serialised across processes by a
//! lock file beside it ([`lock`]).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use calimcp_core::error::{Code, Error, ErrorKind};

/// The largest configuration or state file read (`nodes.json`, pins): 1 MiB
/// unless `CALIMCP_MAX_STATE` says otherwise.
pub const DEFAULT_MAX_STATE: u64 = 1 << 20;

/// How long a process waits for another to finish its read-modify-write of
/// a file ([`lock`]).
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// An error of [`read_trusted`], [`lock`] or [`write_private`] on `path`
/// (`what` names it: "the node list"), as calimcp reports it: a place others
/// may write is `untrusted_path`, a file past the bound `unreadable` (raise
/// `limit`), a lock held too long or a failed write `state`.
pub fn error(what: &str, path: &Path, e: std::io::Error, limit: &str) -> Error {
    use std::io::ErrorKind as Io;
    // The checks above give their errors a message of their own.
    let ours = e.get_ref().is_some();
    match e.kind() {
        Io::PermissionDenied | Io::NotADirectory if ours => Error::input(
            Code::UntrustedPath,
            format!("{what} is not used: {e}"),
        )
        .with_hint("make the directory and the file private to you, or point calimcp elsewhere (CALIMCP_STATE_DIR, XDG_CONFIG_HOME)"),
        Io::InvalidData if ours => Error::input(Code::Unreadable, format!("{what}: {e}"))
            .with_hint(format!("{limit} raises the limit (e.g. {limit}=8M)")),
        Io::TimedOut if ours => Error::new(ErrorKind::Internal, Code::State, format!("{what}: {e}"))
            .with_hint("try again once the other calimcp command has finished"),
        _ => Error::input(
            Code::Unreadable,
            format!("cannot use {what} {}: {e}", path.display()),
        ),
    }
}

/// Writes `bytes` to `path` with mode 0600 (directory 0700), by writing a
/// temporary file beside it and renaming it over the target, so a crash never
/// leaves a half-written file. A symlink at `path` is written through.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let path = &through_symlink(path)?;
    let (dir, name) = private_dir_of(path)?;
    let (tmp, mut f) = create_temp(dir, &name)?;
    let result = (|| {
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // The rename itself is on disk once the directory is.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The directory of `path`, made (0700) if need be and checked to be
/// private, and the file's name.
fn private_dir_of(path: &Path) -> std::io::Result<(&Path, String)> {
    let dir = parent(path);
    create_private_dir(dir)?;
    check_private_dir(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok((dir, name))
}

/// The directory of `path` (`.` for a bare name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// `path`, or the file its symlink points to (whose directory must be
/// private as well as the link's). A link to nothing is an error: calimcp
/// does not create files at a place a link names.
fn through_symlink(path: &Path) -> std::io::Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            check_private_dir(parent(path))?;
            std::fs::canonicalize(path).map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    format!(
                        "{} is a symlink to a file that cannot be reached: {e}",
                        path.display()
                    ),
                )
            })
        }
        _ => Ok(path.to_path_buf()),
    }
}

/// The bytes of a file calimcp trusts, `None` when there is none (nor a
/// symlink to one). Refused (`PermissionDenied`) when the file or its
/// directory can be written by another user or belongs to one (root
/// excepted), or when it is not a regular file — it is opened without
/// waiting, so a FIFO cannot hang the read; larger than `max` bytes:
/// `InvalidData`, before it is read.
pub fn read_trusted(path: &Path, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    let missing = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
    let real = match std::fs::symlink_metadata(path).and_then(|_| through_symlink(path)) {
        Err(e) if missing(&e) => return Ok(None),
        r => r?,
    };
    check_private_dir(parent(&real))?;
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = match opts.open(&real) {
        Err(e) if missing(&e) => return Ok(None),
        r => r?,
    };
    let meta = file.metadata()?;
    let shown = real.display().to_string();
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "{shown} is not a regular file; calimcp reads its configuration and state only from plain files"
            ),
        ));
    }
    check_owner_and_mode(&meta, &shown, "file")?;
    let too_large = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "{shown} is larger than {}, the most calimcp reads of it",
                calimcp_core::text::size(max)
            ),
        )
    };
    if meta.len() > max {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(Some(bytes))
}

/// An exclusive lock on the file at `path`, held until dropped (and released
/// by the system when the process ends): a lock file beside it,
/// `.NAME.lock`, mode 0600, which stays. Waits at most `wait` for another
/// process to release it.
#[derive(Debug)]
pub struct Lock {
    _file: std::fs::File,
}

/// Takes the [`Lock`] of `path` (creating its private directory if need be).
pub fn lock(path: &Path, wait: Duration) -> std::io::Result<Lock> {
    let (dir, name) = private_dir_of(path)?;
    let lock_path = dir.join(format!(".{name}.lock"));
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    let file = opts.open(&lock_path)?;
    let deadline = Instant::now() + wait;
    let mut pause = Duration::from_millis(2);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(Lock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!(
                        "another calimcp process has held the lock {} for more than {} s",
                        lock_path.display(),
                        wait.as_secs()
                    ),
                ));
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
    }
}

/// A new temporary file beside the target: `create_new` (O_EXCL: an existing
/// file or symlink of that name is an error, never followed or reused) and
/// O_NOFOLLOW, mode 0600 as created; a taken name is tried again with another.
fn create_temp(dir: &Path, name: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let mut last = None;
    for _ in 0..8 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tmp = dir.join(format!(
            ".{name}.{}.{}.{nanos}.tmp",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        ));
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600).custom_flags(libc::O_NOFOLLOW);
        }
        match opts.open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no temporary file name was free")))
}

/// Refuses a directory others may write to (group or world writable, sticky
/// or not) or that another user owns. A symlink is followed: its target is
/// checked, and messages name both.
pub(crate) fn check_private_dir(dir: &Path) -> std::io::Result<()> {
    let link = std::fs::symlink_metadata(dir)?;
    let (meta, shown) = if link.file_type().is_symlink() {
        let target = std::fs::canonicalize(dir)?;
        let shown = format!("{} (a symlink to {})", dir.display(), target.display());
        (std::fs::metadata(&target)?, shown)
    } else {
        (link, dir.display().to_string())
    };
    if !meta.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            format!("{shown} is not a directory"),
        ));
    }
    check_owner_and_mode(&meta, &shown, "directory")
}

/// Refuses a file or directory that another user (but root) owns or that
/// others may write to.
fn check_owner_and_mode(meta: &std::fs::Metadata, shown: &str, what: &str) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let mode = meta.mode() & 0o7777;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me && meta.uid() != 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "the {what} {shown} belongs to another user (uid {}); calimcp reads and writes its configuration, tokens and caches only in places of its own",
                    meta.uid()
                ),
            ));
        }
        if mode & 0o022 != 0 {
            let fix = if what == "directory" { "700" } else { "600" };
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "the {what} {shown} can be written by others (mode {mode:o}); calimcp reads and writes its configuration, tokens and caches only in private places (chmod {fix} it, or set CALIMCP_STATE_DIR or XDG_CONFIG_HOME to a private directory)"
                ),
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = (meta, shown, what);
    Ok(())
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn private(dir: &Path) -> PathBuf {
        let state = dir.join("state");
        std::fs::create_dir(&state).unwrap();
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).unwrap();
        state
    }

    #[test]
    fn a_pre_created_temp_or_symlink_is_never_followed_or_reused() {
        let dir = tempfile::tempdir().unwrap();
        let state = private(dir.path());
        let target = state.join("tokens.json");
        // A file the attacker owns, and a symlink aimed at it, both named
        // the way temporary files used to be.
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "untouched").unwrap();
        let old_name = state.join(format!(".tokens.json.{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &old_name).unwrap();
        write_private(&target, b"secret").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
        assert_eq!(std::fs::read(&target).unwrap(), b"secret");
        let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        // The old name is left alone (it is not ours).
        assert!(std::fs::symlink_metadata(&old_name).is_ok());
    }

    #[test]
    fn a_directory_others_can_write_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("open");
        std::fs::create_dir(&state).unwrap();
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o777)).unwrap();
        let e = write_private(&state.join("tokens.json"), b"secret").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied);
        assert!(e.to_string().contains("can be written by others"), "{e}");
        assert!(!state.join("tokens.json").exists());
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).unwrap();
        write_private(&state.join("tokens.json"), b"secret").unwrap();
    }

    #[test]
    fn nothing_is_read_from_a_place_others_can_write_or_own() {
        let dir = tempfile::tempdir().unwrap();
        let state = private(dir.path());
        let file = state.join("contexts.json");
        assert_eq!(read_trusted(&file, 100).unwrap(), None);
        write_private(&file, b"{}").unwrap();
        assert_eq!(read_trusted(&file, 100).unwrap().unwrap(), b"{}");
        // A planted file in a directory others can write: refused, even
        // though the file itself is private.
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o1777)).unwrap();
        let e = read_trusted(&file, 100).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied);
        assert!(
            e.to_string()
                .contains("can be written by others (mode 1777)"),
            "{e}"
        );
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).unwrap();
        // A file others can write, or another user owns.
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
        let e = read_trusted(&file, 100).unwrap_err();
        assert!(e.to_string().contains("the file"), "{e}");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::chown(&file, Some(4242), None).unwrap();
            let e = read_trusted(&file, 100).unwrap_err();
            assert!(
                e.to_string().contains("belongs to another user (uid 4242)"),
                "{e}"
            );
            std::os::unix::fs::chown(&file, Some(0), None).unwrap();
        }
        // Larger than the bound: refused before it is read.
        let e = read_trusted(&file, 1).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("larger than 1 bytes"), "{e}");
    }

    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let state = private(dir.path());
        let fifo = state.join("nodes.json");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid path and mode.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_trusted(&fifo, 100).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }

    #[test]
    fn a_symlinked_directory_is_checked_by_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let state = private(dir.path());
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&state, &link).unwrap();
        write_private(&link.join("a.json"), b"1").unwrap();
        assert_eq!(
            read_trusted(&link.join("a.json"), 10).unwrap().unwrap(),
            b"1"
        );
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o775)).unwrap();
        let e = check_private_dir(&link).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("(a symlink to "), "{text}");
        assert!(text.contains("mode 775"), "{text}");
    }

    #[test]
    fn a_symlinked_file_is_written_through_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let state = private(dir.path());
        let dotfiles = dir.path().join("dotfiles");
        std::fs::create_dir(&dotfiles).unwrap();
        std::fs::set_permissions(&dotfiles, std::fs::Permissions::from_mode(0o700)).unwrap();
        let real = dotfiles.join("nodes.json");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        let link = state.join("nodes.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert_eq!(read_trusted(&link, 10).unwrap().unwrap(), b"old");
        write_private(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        // A link to nothing is not silently replaced either.
        std::fs::remove_file(&real).unwrap();
        assert_eq!(read_trusted(&link, 10).unwrap(), None);
        assert!(write_private(&link, b"x").is_err());
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn a_lock_is_exclusive_and_released_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("state").join("nodes.json");
        let held = lock(&file, Duration::ZERO).unwrap();
        let e = lock(&file, Duration::from_millis(20)).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
        assert!(e.to_string().contains("another calimcp process"), "{e}");
        drop(held);
        lock(&file, Duration::ZERO).unwrap();
    }
}
