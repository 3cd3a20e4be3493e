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
pub(crate) fn set_level(level: Level) {
    LEVEL.store(level as u8, Ordering::Relaxed);
}

pub(crate) fn level() -> Level {
    Level::from_u8(LEVEL.load(Ordering::Relaxed))
}

pub(crate) fn enabled(level: Level) -> bool {
    level != Level::Off && level <= self::level()
}

/// Writes one line `calimcp: <level>: <message>` to stderr if `level` is enabled.
/// A closed stderr is ignored: diagnostics must never take the server down.
pub(crate) fn write(level: Level, message: fmt::Arguments<'_>) {
    if !enabled(level) {
        return;
    }
    let line = format!("calimcp: {}: {message}\n", level.label());
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// A line the user needs whatever the level (e.g. the URL served), unless `off`.
pub(crate) fn announce(message: fmt::Arguments<'_>) {
    if level() != Level::Off {
        let line = format!("calimcp: {message}\n");
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }
}

/// Forwards rmcp's own diagnostics (`tracing` events) to stderr: errors at
/// every level but `off`, warnings and up from `debug`, everything at `trace`.
/// rmcp logs each ordinary protocol error as a warning, hence the offset.
pub(crate) fn forward_rmcp(level: Level) {
    let max = match level {
        Level::Off => return,
        Level::Error | Level::Warn | Level::Info => tracing_core::Level::ERROR,
        Level::Debug => tracing_core::Level::INFO,
        Level::Trace => tracing_core::Level::TRACE,
    };
    let _ = tracing_core::dispatcher::set_global_default(tracing_core::Dispatch::new(RmcpEvents {
        max,
    }));
}

/// rmcp's errors that only say a client went away mid-call: the answers it
/// was waiting for have nowhere to go (rmcp logs one per pending answer).
fn expected_when_a_client_leaves(message: &str) -> bool {
    message.starts_with("failed to send pending response during drain")
}

/// A minimal `tracing` subscriber: one line per event, no spans.
struct RmcpEvents {
    max: tracing_core::Level,
}

impl tracing_core::Subscriber for RmcpEvents {
    fn enabled(&self, metadata: &tracing_core::Metadata<'_>) -> bool {
        *metadata.level() <= self.max
    }

    fn max_level_hint(&self) -> Option<tracing_core::LevelFilter> {
        Some(tracing_core::LevelFilter::from_level(self.max))
    }

    fn new_span(&self, _: &tracing_core::span::Attributes<'_>) -> tracing_core::span::Id {
        tracing_core::span::Id::from_u64(1)
    }

    fn record(&self, _: &tracing_core::span::Id, _: &tracing_core::span::Record<'_>) {}

    fn record_follows_from(&self, _: &tracing_core::span::Id, _: &tracing_core::span::Id) {}

    fn event(&self, event: &tracing_core::Event<'_>) {
        struct Fields(String);
        impl tracing_core::field::Visit for Fields {
            fn record_debug(&mut self, field: &tracing_core::Field, value: &dyn fmt::Debug) {
                if field.name() == "message" {
                    self.0.insert_str(0, &format!("{value:?}"));
                } else {
                    self.0.push_str(&format!(" {}={value:?}", field.name()));
                }
            }
        }
        let mut fields = Fields(String::new());
        event.record(&mut fields);
        let meta = event.metadata();
        let level = if expected_when_a_client_leaves(&fields.0) {
            // Not a fault of this server: shown from `debug` on, as debug.
            if self.max < tracing_core::Level::INFO {
                return;
            }
            "debug".to_string()
        } else {
            meta.level().as_str().to_ascii_lowercase()
        };
        let line = format!(
            "calimcp: {level} {}: {}\n",
            meta.target(),
            calimcp_core::text::sanitize_line(&fields.0)
        );
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }

    fn enter(&self, _: &tracing_core::span::Id) {}

    fn exit(&self, _: &tracing_core::span::Id) {}
}

macro_rules! log_error { ($($t:tt)*) => { $crate::mcp::log::write($crate::mcp::log::Level::Error, format_args!($($t)*)) } }
macro_rules! log_warn { ($($t:tt)*) => { $crate::mcp::log::write($crate::mcp::log::Level::Warn, format_args!($($t)*)) } }
macro_rules! log_info { ($($t:tt)*) => { $crate::mcp::log::write($crate::mcp::log::Level::Info, format_args!($($t)*)) } }
macro_rules! log_debug { ($($t:tt)*) => { $crate::mcp::log::write($crate::mcp::log::Level::Debug, format_args!($($t)*)) } }
pub(crate) use {log_debug as debug, log_error as error, log_info as info, log_warn as warn};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rmcp_s_client_left_errors_are_demoted() {
        assert!(expected_when_a_client_leaves(
            "failed to send pending response during drain error=Broken pipe"
        ));
        assert!(!expected_when_a_client_leaves(
            "response send task failed during drain"
        ));
        assert!(!expected_when_a_client_leaves("some other failure"));
    }
}
