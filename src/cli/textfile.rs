//! Text read from a path the user names: a regular file or a pipe, at most
//! a bound (a longer one is an error naming the limit). A FIFO nobody writes
//! to is refused instead of waited on for ever; directories, sockets and
//! other devices are refused before they are read. For `@PATH` values and
//! `--args @FILE` (`CALIMCP_MAX_ARGS`) and `CALIMERO_PASSWORD_FILE`.

/// Up to `max` bytes of `input` as UTF-8; longer is an error naming the limit.
pub(crate) fn read_bounded(
    input: impl std::io::Read,
    max: u64,
    what: &str,
    limit: &str,
) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    read_more(input, &mut bytes, max, what, limit)?;
    utf8(bytes)
}

/// Appends `input` to `bytes`, refusing to go past `max` bytes in all.
fn read_more(
    input: impl std::io::Read,
    bytes: &mut Vec<u8>,
    max: u64,
    what: &str,
    limit: &str,
) -> std::io::Result<()> {
    use std::io::Read;
    let room = max.saturating_sub(bytes.len() as u64);
    input.take(room.saturating_add(1)).read_to_end(bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::other(format!(
            "{what} is longer than {}, {limit}",
            calimcp_core::text::size(max)
        )));
    }
    Ok(())
}

fn utf8(bytes: Vec<u8>) -> std::io::Result<String> {
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8"))
}

/// A regular file or a pipe, read up to `max` bytes. A FIFO is opened
/// without waiting for a writer: one nobody writes to is refused (it would
/// block for ever). Directories, sockets and devices other than pipes are
/// refused before they are read.
pub(crate) fn read_file(path: &std::path::Path, max: u64, limit: &str) -> std::io::Result<String> {
    let meta = std::fs::metadata(path)?;
    if meta.is_file() {
        if meta.len() > max {
            return Err(std::io::Error::other(format!(
                "larger than {}, {limit}",
                calimcp_core::text::size(max)
            )));
        }
        return read_bounded(std::fs::File::open(path)?, max, "the file", limit);
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        if meta.file_type().is_fifo() {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(path)?;
            return read_pipe(file, max, limit);
        }
    }
    Err(std::io::Error::other(
        "not a regular file or a pipe (a directory, device or socket is not read)",
    ))
}

/// A pipe opened non-blocking: no data and no writer (end of file at once)
/// is refused; otherwise it is read, blocking again, up to `max` bytes.
#[cfg(target_os = "linux")]
fn read_pipe(mut file: std::fs::File, max: u64, limit: &str) -> std::io::Result<String> {
    use std::io::Read;
    use std::os::fd::AsRawFd;
    let mut first = [0u8; 4096];
    let n = match file.read(&mut first) {
        Ok(0) => {
            return Err(std::io::Error::other(
                "a FIFO with nobody writing to it, or empty (start the writer first, or use a file)",
            ));
        }
        Ok(n) => n,
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => 0,
        Err(e) => return Err(e),
    };
    // A writer is there: wait for the rest as for any pipe.
    // SAFETY: fcntl on a descriptor this function owns, with valid flags.
    unsafe {
        let fd = file.as_raw_fd();
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    let mut bytes = first[..n].to_vec();
    read_more(file, &mut bytes, max, "the pipe", limit)?;
    utf8(bytes)
}
