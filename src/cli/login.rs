//! `calimcp login`: logs in to a node with a username and password and keeps
//! the token pair in calimcp's token cache, so later commands need neither.

use std::io::{IsTerminal, Read, Write};

use clap::Args;
use schemars::JsonSchema;
use serde::Serialize;

use super::node::{MAX_PASSWORD, env, password_from_env};
use super::{GlobalArgs, output};
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;

/// Log in to the node (embedded auth) and keep the login for later commands.
///
/// The user is --username, else CALIMERO_USERNAME, else asked on the terminal;
/// the password is read from stdin with --password-stdin, else from
/// CALIMERO_PASSWORD or CALIMERO_PASSWORD_FILE, else asked on the terminal
/// without echo. The tokens the node gives are kept in calimcp's token cache
/// (the state directory, mode 0600), never the password. Later commands for
/// that node use them when no username or token is given and the node has one
/// cached user; `calimcp logout` removes them.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp login --node local                       # asks for the user and password
  echo \"$PASS\" | calimcp login -u admin --password-stdin
  CALIMERO_USERNAME=admin CALIMERO_PASSWORD_FILE=pw calimcp login")]
pub(crate) struct LoginArgs {
    /// The user [default: CALIMERO_USERNAME, else asked on the terminal]
    #[arg(long, short = 'u', value_name = "USER")]
    pub username: Option<String>,
    /// Read the password from stdin (its first line)
    #[arg(long)]
    pub password_stdin: bool,
}

pub(crate) fn run(g: &GlobalArgs, args: LoginArgs) -> Result<()> {
    let mut session = g.session()?;
    session.node("logging in")?;
    let (_, shown) = calimcp_catalog::accounts::normalize_url(session.node_url()?)?;
    let mut tty = None;
    let username = match args.username.or_else(|| env("CALIMERO_USERNAME")) {
        Some(u) => u,
        None => {
            let t = terminal(&mut tty).ok_or_else(|| {
                Error::input(Code::Usage, "no username: there is no terminal to ask on")
                    .with_hint("pass --username USER (or set CALIMERO_USERNAME)")
            })?;
            prompt(t, &format!("Username for {shown}: "), false)?
        }
    };
    if username.is_empty() || username.chars().any(char::is_control) {
        return Err(Error::input(
            Code::Usage,
            "the username is empty or has control characters",
        ));
    }
    let password = if args.password_stdin {
        read_stdin_password()?
    } else {
        match password_from_env()? {
            Some(p) => p,
            None => {
                let t = terminal(&mut tty).ok_or_else(|| {
                    Error::input(Code::Usage, "no password: there is no terminal to ask on")
                        .with_hint("pass --password-stdin, or set CALIMERO_PASSWORD or CALIMERO_PASSWORD_FILE")
                })?;
                prompt(t, "Password: ", true)?
            }
        }
    };
    if password.is_empty() {
        return Err(Error::input(Code::Usage, "the password is empty"));
    }
    session.log_in_as(&username, password);
    session.node("logging in")?;
    session.block_on(session.log_in())??;
    let url = session.url()?;
    let name = g.node.name.clone();
    if g.json {
        output::print_json(&LoggedIn {
            node: &url,
            name: name.as_deref(),
            username: &username,
        })?;
    } else {
        output::print(&format!(
            "logged in to {}{} as {}; the login is kept for later commands (`calimcp logout` ends it)\n",
            url,
            name.map(|n| format!(" ({n})")).unwrap_or_default(),
            sanitize_line(&username)
        ))?;
    }
    Ok(())
}

/// The first line of stdin, without its line ending.
fn read_stdin_password() -> Result<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(Error::input(
            Code::Usage,
            "--password-stdin: stdin is a terminal",
        )
        .with_hint("pipe the password in (printf '%s' \"$PASS\" | calimcp login …), or leave out --password-stdin to be asked"));
    }
    let mut bytes = Vec::new();
    stdin
        .lock()
        .take(MAX_PASSWORD)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::input(Code::Unreadable, format!("cannot read stdin: {e}")))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::input(Code::Usage, "--password-stdin: the password is not UTF-8"))?;
    let line = text.split('\n').next().unwrap_or_default();
    Ok(line.strip_suffix('\r').unwrap_or(line).to_string())
}

/// The controlling terminal, opened once.
fn terminal(slot: &mut Option<std::fs::File>) -> Option<&mut std::fs::File> {
    if slot.is_none() {
        *slot = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .ok();
    }
    slot.as_mut()
}

/// Asks on the terminal and reads one line; `hidden`: without echo (turned
/// off before the question shows, so nothing typed after it is echoed).
fn prompt(tty: &mut std::fs::File, question: &str, hidden: bool) -> Result<String> {
    let io = |e: std::io::Error| {
        Error::input(Code::Unreadable, format!("cannot read the terminal: {e}"))
    };
    let ask = |tty: &mut std::fs::File| -> std::io::Result<Option<String>> {
        tty.write_all(question.as_bytes())?;
        tty.flush()?;
        read_line(tty)
    };
    let line = if hidden {
        without_echo(tty, ask).map_err(io)?
    } else {
        ask(tty).map_err(io)?
    };
    line.ok_or_else(|| Error::input(Code::Cancelled, "cancelled: nothing was read"))
}

/// One line, read a byte at a time (nothing past it is consumed); `None` at
/// end of input before any byte.
fn read_line(tty: &mut std::fs::File) -> std::io::Result<Option<String>> {
    let mut bytes = Vec::new();
    let mut b = [0u8; 1];
    loop {
        match tty.read(&mut b)? {
            0 if bytes.is_empty() => return Ok(None),
            0 => break,
            _ if b[0] == b'\n' => break,
            _ => bytes.push(b[0]),
        }
        if bytes.len() > MAX_PASSWORD as usize {
            return Err(std::io::Error::other("the line is too long"));
        }
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| std::io::Error::other("the line is not UTF-8"))
}

/// The terminal and its settings while a hidden prompt runs, for the signal
/// handler to put back.
#[cfg(target_os = "linux")]
static SAVED_TERMINAL: std::sync::OnceLock<(i32, libc::termios)> = std::sync::OnceLock::new();

/// SIGINT, SIGTERM, SIGHUP during a hidden prompt: puts the terminal's echo
/// back, then dies of the signal as it would have (only async-signal-safe
/// calls: tcsetattr, signal, raise).
#[cfg(target_os = "linux")]
extern "C" fn restore_terminal_and_die(sig: libc::c_int) {
    if let Some((fd, term)) = SAVED_TERMINAL.get() {
        // SAFETY: fd is the terminal the prompt opened; term was read from it.
        unsafe { libc::tcsetattr(*fd, libc::TCSANOW, term) };
    }
    // SAFETY: resetting a handler and re-raising are async-signal-safe.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

/// Runs `f` with the terminal's echo off (the newline still echoes); the
/// terminal's settings are put back whatever happens, a Ctrl-C included.
#[cfg(target_os = "linux")]
fn without_echo<T>(
    tty: &mut std::fs::File,
    f: impl FnOnce(&mut std::fs::File) -> std::io::Result<T>,
) -> std::io::Result<T> {
    use std::os::fd::AsRawFd;
    let fd = tty.as_raw_fd();
    // SAFETY: termios is plain data; tcgetattr fills it for a valid fd.
    let mut term: libc::termios = unsafe { std::mem::zeroed() };
    // SAFETY: fd is the open terminal; term is a valid termios.
    if unsafe { libc::tcgetattr(fd, &mut term) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let saved = term;
    // One hidden prompt per process: the first settings are the ones to restore.
    let _ = SAVED_TERMINAL.set((fd, saved));
    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];
    let handler = restore_terminal_and_die as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: installs a handler that only makes async-signal-safe calls.
    let before: Vec<libc::sighandler_t> = SIGNALS
        .iter()
        .map(|&s| unsafe { libc::signal(s, handler) })
        .collect();
    term.c_lflag &= !libc::ECHO;
    term.c_lflag |= libc::ECHONL;
    // SAFETY: as above.
    let out = if unsafe { libc::tcsetattr(fd, libc::TCSANOW, &term) } != 0 {
        Err(std::io::Error::last_os_error())
    } else {
        f(tty)
    };
    // SAFETY: as above; puts back the settings read before, then the handlers.
    unsafe { libc::tcsetattr(fd, libc::TCSANOW, &saved) };
    for (&s, &h) in SIGNALS.iter().zip(&before) {
        // SAFETY: restores the handler `signal` returned for this signal.
        unsafe { libc::signal(s, h) };
    }
    out
}

#[cfg(not(target_os = "linux"))]
fn without_echo<T>(
    _tty: &mut std::fs::File,
    _f: impl FnOnce(&mut std::fs::File) -> std::io::Result<T>,
) -> std::io::Result<T> {
    Err(std::io::Error::other(
        "asking for a password without echo is not supported here; use --password-stdin or CALIMERO_PASSWORD_FILE",
    ))
}

/// What `login --json` prints.
#[derive(Serialize, JsonSchema)]
pub(crate) struct LoggedIn<'a> {
    /// The node's URL (without credentials).
    pub node: &'a str,
    /// The node's name when it was named (`--node NAME`, or the current
    /// node), else `null`.
    pub name: Option<&'a str>,
    /// The user logged in as.
    pub username: &'a str,
}
