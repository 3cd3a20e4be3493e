//! Files in the state directory: private, written whole or not at all.
//!
//! A file is written to a new temporary file beside it (created exclusively,
//! never through a symlink, mode 0600 from the start) and renamed over the
//! target. Nothing is written into a directory that another user may write
//! to or that belongs to another user: there, a file could be swapped or read
//! between two steps.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` with mode 0600 (directory 0700), by writing a
/// temporary file beside it and renaming it over the target, so a crash never
/// leaves a half-written file.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    create_private_dir(dir)?;
    check_private_dir(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (tmp, mut f) = create_temp(dir, &name)?;
    let result = (|| {
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A new temporary file beside the target: `create_new` (O_EXCL: an existing
/// file or symlink of that name is an error, never followed or reused) and
/// O_NOFOLLOW, mode 0600 as created; a taken name is tried again with another.
fn create_temp(dir: &Path, name: &str) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
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
/// or not) or that another user owns.
pub fn check_private_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::symlink_metadata(dir)?;
        let mode = meta.mode() & 0o7777;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me && meta.uid() != 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "the state directory {} belongs to another user (uid {}); calimcp keeps its tokens and caches only in a directory of its own",
                    dir.display(),
                    meta.uid()
                ),
            ));
        }
        if mode & 0o022 != 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "the state directory {} can be written by others (mode {mode:o}); calimcp keeps its tokens and caches only in a private directory (chmod 700 it, or set CALIMCP_STATE_DIR)",
                    dir.display()
                ),
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
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

    #[test]
    fn a_pre_created_temp_or_symlink_is_never_followed_or_reused() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        std::fs::create_dir(&state).unwrap();
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).unwrap();
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
}
