//! Diagnostics on stderr, filtered by `--log-level`. stdout carries the
//! protocol under stdio, so nothing here ever touches it.

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicU8, Ordering};

/// `--log-level` values, quietest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Level {
    Off = 0,
    Error = 1,
    #[default]
    Warn = 2,
    Info = 3,
    Debug = 4,
    Trace = 5,
}

impl Level {
    fn label(self) -> &'static str {
        match self {
            Level::Off => "",
            Level::Error => "error",
            Level::Warn => "warning",
            Level::Info => "info",
            Level::Debug => "debug",
            Level::Trace => "trace",
        }
    }

    fn from_u8(n: u8) -> Level {
        match n {
            0 => Level::Off,
            1 => Level::Error,
            2 => Level::Warn,
            3 => Level::Info,
            4 => Level::Debug,
            _ => Level::Trace,
        }
    }
}

static LEVEL: AtomicU8 = AtomicU8::new(Level::Warn as u8);

/// Sets the process-wide level (once, at start).
pub fn set_level(level: Level) {
    LEVEL.store(level as u8, Ordering::Relaxed);
}

pub fn level() -> Level {
    Level::from_u8(LEVEL.load(Ordering::Relaxed))
}

pub fn enabled(level: Level) -> bool {
    level != Level::Off && level <= self::level()
}

/// Writes one line `calimcp: <level>: <message>` to stderr if `level` is enabled.
/// A closed stderr is ignored: diagnostics must never take the server down.
pub fn write(level: Level, message: fmt::Arguments<'_>) {
    if !enabled(level) {
        return;
    }
    let line = format!("calimcp: {}: {message}\n", level.label());
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// A line the user needs whatever the level (e.g. the URL served), unless `off`.
pub fn announce(message: fmt::Arguments<'_>) {
    if level() != Level::Off {
        let line = format!("calimcp: {message}\n");
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }
}

macro_rules! log_error { ($($t:tt)*) => { $crate::mcp::log::write($crate::mcp::log::Level::Error, format_args!($($t)*)) } }
macro_rules! log_warn { ($($t:tt)*) => { $crate::mcp::log::write($crate::mcp::log::Level::Warn, format_args!($($t)*)) } }
macro_rules! log_info { ($($t:tt)*) => { $crate::mcp::log::write($crate::mcp::log::Level::Info, format_args!($($t)*)) } }
macro_rules! log_debug { ($($t:tt)*) => { $crate::mcp::log::write($crate::mcp::log::Level::Debug, format_args!($($t)*)) } }
pub(crate) use {log_debug as debug, log_error as error, log_info as info, log_warn as warn};
