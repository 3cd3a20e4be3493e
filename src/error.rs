//! The one error type every layer returns, and the exit-code table.
//!
//! Exit codes live here and nowhere else: 0 success, 1 internal error, 2 bad
//! input (usage, manifest, unknown app/method, invalid arguments), 3 auth,
//! 4 node unreachable or timed out, 5 the node or the application returned an error,
//! 6 the call was made (its result printed) but what was to follow it failed
//! (`call --wait-event` whose event stream broke).

use std::fmt;

/// The class of a failure; it decides the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    Internal,
    Input,
    Auth,
    Unreachable,
    Remote,
    /// The call succeeded, then waiting for its event failed: not "nothing happened".
    AfterCall,
}

impl ErrorKind {
    pub fn exit_code(self) -> u8 {
        match self {
            ErrorKind::Internal => 1,
            ErrorKind::Input => 2,
            ErrorKind::Auth => 3,
            ErrorKind::Unreachable => 4,
            ErrorKind::Remote => 5,
            ErrorKind::AfterCall => 6,
        }
    }
}

/// Exit 0: success.
pub const EXIT_OK: u8 = 0;
/// Exit 1 without an error: `diff` found a change at or above `--fail-on`
/// (the same code as an internal error, as `diff(1)` uses 1 for "differences").
pub const EXIT_FINDINGS: u8 = 1;
/// Exit 2 without an [`Error`] value: clap refused the command line (usage),
/// or help was shown because a required argument or subcommand was missing.
pub const EXIT_USAGE: u8 = 2;
/// Exit 124: `watch --timeout` or `call --wait-event` waited and the event did
/// not come in time (the code `timeout(1)` uses).
pub const EXIT_TIMEOUT: u8 = 124;

/// A failure with a stable machine code, a message that says what and where,
/// and optionally how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    /// Stable snake_case identifier, e.g. `invalid_manifest`, `unknown_app`.
    pub code: &'static str,
    pub message: String,
    pub hint: Option<String>,
    /// Each problem of invalid input, for `--json` (`{"path","message","expected"?,"got"?}`).
    pub problems: Vec<serde_json::Value>,
    /// The same request may succeed if repeated shortly (a node that is
    /// starting, a group key not yet delivered, a group upgrade in progress).
    pub retryable: bool,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind, code: &'static str, message: impl Into<String>) -> Self {
        Error {
            kind,
            code,
            message: message.into(),
            hint: None,
            problems: Vec::new(),
            retryable: false,
        }
    }

    /// Marks the error as worth repeating the request for.
    pub fn retryable(mut self) -> Self {
        self.retryable = true;
        self
    }

    /// Bad input: exit code 2.
    pub fn input(code: &'static str, message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Input, code, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Internal, "internal", message)
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Prefixes the message with where the problem was found.
    pub fn context(mut self, what: impl fmt::Display) -> Self {
        self.message = format!("{what}: {}", self.message);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod exit_code_tests {
    use super::*;

    /// A usage error refused by clap exits as any other bad input does.
    #[test]
    fn usage_is_bad_input() {
        assert_eq!(EXIT_USAGE, ErrorKind::Input.exit_code());
        assert_eq!(EXIT_OK, 0);
        assert_ne!(EXIT_TIMEOUT, ErrorKind::Remote.exit_code());
    }
}
