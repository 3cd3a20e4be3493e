//! The one error type every layer returns, its stable codes ([`Code`]), the
//! exit-code table, and the error line `--json` prints ([`ErrorLine`]).
//!
//! Exit codes live here and nowhere else ([`ErrorKind::exit_code`]): 0 success,
//! 1 internal error (or `diff`'s findings), 2 bad input (usage, manifest, unknown
//! app/method, invalid arguments), 3 auth, 4 node unreachable or timed out, 5 the
//! node or the application returned an error, 6 the call was made (its result
//! printed) but what was to follow it failed (`call --wait-event` whose event
//! stream broke), 124 what a command waited for did not come in time. Every
//! command returns its failure as an [`Error`]; only `cli::main` prints it and
//! exits with its kind's code, so the printed code and the exit code agree.

use std::fmt;

use crate::context::ContextRow;

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
    /// What a command waited for did not come in time (`watch --stop-after`,
    /// `call --wait-event`, `call --until`, `wait --within`).
    Timeout,
    /// `diff` found a change at or above `--fail-on` (its report is printed).
    Findings,
}

impl ErrorKind {
    /// The exit code of a failure of this kind: the one table of them.
    pub fn exit_code(self) -> u8 {
        match self {
            ErrorKind::Internal => 1,
            // As `diff(1)`, which uses 1 for "differences".
            ErrorKind::Findings => 1,
            ErrorKind::Input => 2,
            ErrorKind::Auth => 3,
            ErrorKind::Unreachable => 4,
            ErrorKind::Remote => 5,
            ErrorKind::AfterCall => 6,
            // The code `timeout(1)` uses.
            ErrorKind::Timeout => 124,
        }
    }
}

/// Exit 0: success.
pub const EXIT_OK: u8 = 0;
/// Exit 2 without an [`Error`] value: help was shown because a required
/// argument or subcommand was missing (clap's usage errors are
/// [`ErrorKind::Input`], the same code).
pub const EXIT_USAGE: u8 = 2;

/// A failure with a stable machine code, a message that says what and where,
/// and optionally how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    /// What failed, as a stable code (its string is what `--json` prints).
    pub code: Code,
    pub message: String,
    pub hint: Option<String>,
    /// Each problem of invalid input, for `--json`.
    pub problems: Vec<Problem>,
    /// The same request may succeed if repeated shortly (a node that is
    /// starting, a group key not yet delivered, a group upgrade in progress).
    pub retryable: bool,
    /// The contexts to choose from, for `--json` (rows as `calimcp contexts
    /// --json` prints them), when the error is about which context to use.
    pub contexts: Vec<ContextRow>,
    /// The HTTP status the node answered, when the error is such an answer.
    pub status: Option<u16>,
    /// What the node's own words said, recognised where its answer is decoded.
    pub said: Option<NodeSaid>,
}

/// A failure the node names only in its words, recognised once, where its
/// answer is decoded (`node::decode`): no other place reads an error's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeSaid {
    /// The app's method could not deserialize its arguments.
    ArgumentsUnreadable,
    /// "Application bytecode not found": the app's code is not on the node.
    BytecodeNotFound,
    /// "Failed to retrieve blob": asking the node's peers for a blob failed.
    BlobNotRetrieved,
    /// HTTP 400 about the app's ABI ("no usable embedded ABI").
    AbiRefused,
}

impl NodeSaid {
    /// What the node's `words` (its message, or the body it answered with
    /// `status`) say, if it is one of these.
    pub fn recognise(status: Option<u16>, words: &str) -> Option<NodeSaid> {
        if words.contains("failed to deserialize arguments") {
            Some(NodeSaid::ArgumentsUnreadable)
        } else if words.contains("bytecode not found") {
            Some(NodeSaid::BytecodeNotFound)
        } else if words.contains("Failed to retrieve blob") {
            Some(NodeSaid::BlobNotRetrieved)
        } else if status == Some(400) && words.contains("ABI") {
            Some(NodeSaid::AbiRefused)
        } else {
            None
        }
    }
}

/// One thing wrong with input (the arguments of a method, a flag's value):
/// where, what, and — built from the values checked, never read back from
/// the message — what was expected and what was given.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Problem {
    /// Argument path, e.g. `key`, `p.tags[2]`; empty for the whole object.
    pub path: String,
    /// What is wrong, in words (it names what was expected and given too).
    pub message: String,
    /// What the place takes, e.g. `an integer (u64)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// What was given there, e.g. `` `x` `` or `a string: "x"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub got: Option<String>,
    /// A required value is missing (a flag can be named to give it).
    #[serde(skip)]
    pub missing: bool,
}

impl Problem {
    /// A problem described by `message` alone.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            path: path.into(),
            message: message.into(),
            expected: None,
            got: None,
            missing: false,
        }
    }

    /// `expected EXPECTED, got GOT`.
    pub fn mismatch(path: impl Into<String>, expected: String, got: String) -> Self {
        Problem::new(path, format!("expected {expected}, got {got}"))
            .expected(expected)
            .got(got)
    }

    /// `missing required argument (expected EXPECTED)`.
    pub(crate) fn missing(path: impl Into<String>, expected: String) -> Self {
        let mut p = Problem::new(
            path,
            format!("missing required argument (expected {expected})"),
        )
        .expected(expected);
        p.missing = true;
        p
    }

    /// The message with `more` after it (why, or how to fix it).
    pub(crate) fn followed_by(mut self, more: impl fmt::Display) -> Self {
        self.message.push_str(&more.to_string());
        self
    }

    /// Sets what was expected (the message says it in its own words).
    pub fn expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    /// Sets what was given (the message says it in its own words).
    pub fn got(mut self, got: impl Into<String>) -> Self {
        self.got = Some(got.into());
        self
    }

    /// The same problem at `path`, its message after `prefix: `.
    pub fn at(mut self, path: impl Into<String>, prefix: &str) -> Self {
        self.path = path.into();
        self.message = format!("{prefix}: {}", self.message);
        self
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// The line `--json` prints on stderr for a failure:
/// `{"error":{"code","message","hint"?,"retryable","problems"?,"contexts"?}}`.
/// Its JSON Schema (docs/json/error.schema.json, generated from this type
/// with the others in `cli::json_schemas`) is the published contract: fields
/// are added, never renamed or removed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[schemars(title = "calimcp error line")]
pub struct ErrorLine {
    pub error: ErrorBody,
}

/// What failed, with its details as fields.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct ErrorBody {
    /// The stable machine code (docs/reference/exit-codes.md lists them).
    pub code: Code,
    /// What failed and where.
    pub message: String,
    /// How to fix it, when calimcp knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Whether the same request may succeed if repeated shortly.
    pub retryable: bool,
    /// Each problem of invalid input (`invalid_arguments`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
    /// The contexts to choose from, as `calimcp contexts --json` lists them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contexts: Vec<ContextRow>,
}

impl ErrorLine {
    /// The line of `e`, every text made safe for a terminal (messages may
    /// quote manifest strings: service names, bundle paths).
    pub fn new(e: &Error) -> Self {
        use crate::text::{sanitize_doc, sanitize_line};
        let line = |s: &Option<String>| s.as_deref().map(sanitize_line);
        ErrorLine {
            error: ErrorBody {
                code: e.code,
                message: sanitize_doc(&e.message),
                hint: e.hint.as_deref().map(sanitize_doc),
                retryable: e.retryable,
                problems: e
                    .problems
                    .iter()
                    .map(|p| Problem {
                        path: sanitize_line(&p.path),
                        message: sanitize_line(&p.message),
                        expected: line(&p.expected),
                        got: line(&p.got),
                        missing: p.missing,
                    })
                    .collect(),
                contexts: e.contexts.clone(),
            },
        }
    }
}

/// Declares [`Code`] from one list: each variant with its meaning (the doc
/// line) and its stable string, and derives `ALL` and `as_str` from it, so the
/// three cannot drift apart.
macro_rules! codes {
    (
        $(#[$outer:meta])*
        pub enum $ty:ident {
            $($(#[doc = $doc:literal])* $name:ident = $s:literal,)*
        }
    ) => {
        $(#[$outer])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $ty {
            $($(#[doc = $doc])* $name,)*
        }

        impl $ty {
            /// Every code, in the order of the table in docs/reference/exit-codes.md.
            pub const ALL: &'static [$ty] = &[$($ty::$name,)*];

            /// The stable snake_case string (what `--json` prints).
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$name => $s,)*
                }
            }
        }
    };
}

codes! {
    /// The stable machine code of an error, printed as `error.code` by `--json`:
    /// each variant, its string and its meaning are written once, here.
    ///
    /// A string never changes (scripts match on it); a new kind of failure gets a
    /// new code. docs/reference/exit-codes.md lists them all (a test below keeps it in step).
    pub enum Code {
        /// The node has no ABI route and lists no bytecode blob for the app, so its ABI cannot be read from the node.
        AbiUnavailable = "abi_unavailable",
        /// The node already has a context alias of that name.
        AliasTaken = "alias_taken",
        /// The name matches several apps.
        AmbiguousApp = "ambiguous_app",
        /// The app has several contexts on the node and none was chosen.
        AmbiguousContext = "ambiguous_context",
        /// A local app without a module matches several apps of the node by its ABI (different code): which one it is cannot be told; nothing was sent.
        AmbiguousIdentity = "ambiguous_identity",
        /// Several services of the app declare the method; a service must be named.
        AmbiguousMethod = "ambiguous_method",
        /// The tool name exists in several services of the app.
        AmbiguousTool = "ambiguous_tool",
        /// The app's method ran on the node and failed or returned an error.
        AppError = "app_error",
        /// `app uninstall`: contexts on the node still run the app (listed); `--force` removes it anyway.
        AppInUse = "app_in_use",
        /// The node does not have the application of the context installed.
        ApplicationNotInstalled = "application_not_installed",
        /// The node refused the credentials (HTTP 401/403).
        Auth = "auth",
        /// `serve --http` cannot listen on the address.
        Bind = "bind",
        /// `blob delete`: an installed app's module is that blob (the app is named); `--force` deletes it anyway where the node allows it.
        BlobInUse = "blob_in_use",
        /// A downloaded blob does not match the size or SHA-256 (ETag) the node gave for it.
        BlobMismatch = "blob_mismatch",
        /// The node has no blob of that id.
        BlobNotFound = "blob_not_found",
        /// stdout was closed by its reader.
        BrokenPipe = "broken_pipe",
        /// The app's bundle on the node has several services; one must be named.
        BundleServices = "bundle_services",
        /// An interactive prompt was cancelled; nothing was sent.
        Cancelled = "cancelled",
        /// The app's code has not arrived on this node yet (it is fetched from peers after a join).
        CodePending = "code_pending",
        /// A command that deletes or removes something was run off a terminal without `--yes`, or its question was answered no; nothing was changed.
        ConfirmationRequired = "confirmation_required",
        /// The node has no such context.
        ContextNotFound = "context_not_found",
        /// `diff`: a change at or above `--fail-on` was found (the report is printed).
        Findings = "findings",
        /// The context runs another app than the one named; nothing was sent.
        ForeignContext = "foreign_context",
        /// The context's group key has not reached the node yet; nothing ran (retryable).
        GroupKeyPending = "group_key_pending",
        /// `watch --group`, `wait_for_events` `groups`: the node's event subscription has no groups (merod before 0.11.0-rc.18, such as rc.4), so no group event would arrive.
        GroupEventsUnsupported = "group_events_unsupported",
        /// The node answered an HTTP status outside 2xx (other than 401/403).
        HttpError = "http_error",
        /// `--as ALIAS`: the node has no identity aliases (merod 0.11.0-rc.25 and later).
        IdentityAliasesUnsupported = "identity_aliases_unsupported",
        /// `init` runs when a context is created and cannot be called.
        InitNotCallable = "init_not_callable",
        /// A bug or an unexpected local failure in calimcp.
        Internal = "internal",
        /// `diff`: NEW is an ABI the node refuses.
        InvalidAbi = "invalid_abi",
        /// The method's arguments do not match its schema; nothing was sent.
        InvalidArguments = "invalid_arguments",
        /// A bundle (directory or .mpk) is malformed.
        InvalidBundle = "invalid_bundle",
        /// `diff --config`: the policy file is invalid.
        InvalidConfig = "invalid_config",
        /// An environment variable has a value calimcp cannot use.
        InvalidEnv = "invalid_env",
        /// `context join`: the invitation file is not one `context invite` wrote.
        InvalidInvitation = "invalid_invitation",
        /// An ABI manifest is invalid.
        InvalidManifest = "invalid_manifest",
        /// A WebAssembly module cannot be read (from the node).
        InvalidModule = "invalid_module",
        /// The node URL is not a usable URL.
        InvalidUrl = "invalid_url",
        /// A local .wasm file is not a valid WebAssembly module.
        InvalidWasm = "invalid_wasm",
        /// `context join`: the namespace was joined but the context is not ready on this node yet (the message says what was done and what it waits for); running the command again completes it.
        JoinIncomplete = "join_incomplete",
        /// Logging in with username and password failed.
        LoginFailed = "login_failed",
        /// The ABI declares the method but the app's module on the node does not export it.
        MethodNotInModule = "method_not_in_module",
        /// The version of the app that the context runs has no such method; nothing was sent.
        MethodNotInVersion = "method_not_in_version",
        /// No apps were found (locally or on the node).
        NoApps = "no_apps",
        /// The app has no context on the node.
        NoContext = "no_context",
        /// The app's module carries no embedded ABI.
        NoEmbeddedAbi = "no_embedded_abi",
        /// The node has no event stream (WebSocket/SSE route).
        NoEventStream = "no_event_stream",
        /// No HOME (nor the XDG_* variable or CALIMCP_STATE_DIR that would do instead): calimcp has no private place for its configuration or state.
        NoHome = "no_home",
        /// The node owns no identity in the context, so it cannot run methods there.
        NoIdentity = "no_identity",
        /// The node failed internally while running the method.
        NodeInternalError = "node_internal_error",
        /// The caller (the token's identity) is not a member of the context.
        NotAMember = "not_a_member",
        /// The app (or the application a context runs) is not installed on the node.
        NotInstalled = "not_installed",
        /// No login for the node: no token, no cached login, no username (or several cached users, none named); `calimcp login` logs in.
        NotLoggedIn = "not_logged_in",
        /// The node did not subscribe to the contexts asked for (the caller may not observe them).
        NotSubscribed = "not_subscribed",
        /// `--offline` was given but the command needs the node.
        Offline = "offline",
        /// The node ran a write read-only and discarded it (merod 0.11.0-rc.83: it is a read-only member of the context); nothing was written.
        ReadOnlyWriteRefused = "read_only_write_refused",
        /// The node redirected to another origin; calimcp does not follow.
        RedirectRefused = "redirect_refused",
        /// `app install PACKAGE@VERSION`: the node installs from no registry (merod 0.11.0-rc.31 and later do); install from a file or URL instead.
        RegistryUnavailable = "registry_unavailable",
        /// An answer from the node is larger than the limit calimcp reads (`CALIMCP_MAX_RESPONSE`).
        ResponseTooLarge = "response_too_large",
        /// The node refused the JSON-RPC call for another reason.
        RpcError = "rpc_error",
        /// The app has several services and none was named.
        ServiceRequired = "service_required",
        /// calimcp's state or config file (pins, the named nodes, the token cache a login keeps) cannot be written or locked.
        State = "state",
        /// The node closed the event stream.
        StreamClosed = "stream_closed",
        /// The node's event stream reported an error.
        StreamError = "stream_error",
        /// The event stream stayed down and calimcp gave up reopening it.
        StreamLost = "stream_lost",
        /// The node opened its event stream but did not start it in time.
        StreamTimeout = "stream_timeout",
        /// The node refused the event subscription.
        SubscribeFailed = "subscribe_failed",
        /// The node did not answer in time, or an awaited event did not arrive in time.
        Timeout = "timeout",
        /// The access token expired and cannot be refreshed.
        TokenDead = "token_dead",
        /// The access token expired and there is no refresh token.
        TokenExpired = "token_expired",
        /// The node revoked the access token.
        TokenRevoked = "token_revoked",
        /// The node redirected too many times.
        TooManyRedirects = "too_many_redirects",
        /// The node's answer is not what its API documents.
        UnexpectedResponse = "unexpected_response",
        /// The context is not initialized on this node yet (its state is still syncing).
        Uninitialized = "uninitialized",
        /// No app has that name.
        UnknownApp = "unknown_app",
        /// The context is neither a context id nor an alias on the node.
        UnknownContext = "unknown_context",
        /// `--as`: no identity has that key or alias in the context.
        UnknownIdentity = "unknown_identity",
        /// The app has no such method.
        UnknownMethod = "unknown_method",
        /// `--node NAME` (or CALIMERO_NODE_URL, `node use`, `node remove`): no node has that name, and it is not a URL.
        UnknownNode = "unknown_node",
        /// The app has no such service.
        UnknownService = "unknown_service",
        /// No tool has that name.
        UnknownTool = "unknown_tool",
        /// The node cannot be reached (connection refused, DNS, TLS).
        Unreachable = "unreachable",
        /// A local file, directory or stdin cannot be read.
        Unreadable = "unreadable",
        /// A configuration or state file calimcp would read (nodes.json, the token cache, pins, cached ABIs), or its directory, can be written by other users or belongs to another user; it is not read.
        UntrustedPath = "untrusted_path",
        /// A file or directory calimcp was asked to write cannot be written (`doc -o`).
        Unwritable = "unwritable",
        /// The context's group is being upgraded; writes wait until it completes (retryable).
        UpgradeInProgress = "upgrade_in_progress",
        /// The command line is wrong (unknown flag, missing or conflicting arguments).
        Usage = "usage",
        /// A cross-context call reached a method that is not an `#[app::xcall]` entry point.
        XcallNotPermitted = "xcall_not_permitted",
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl schemars::JsonSchema for Code {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Code".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let all: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        schemars::json_schema!({
            "description": "A stable snake_case error code: it never changes meaning; a new kind of failure gets a new code.",
            "type": "string",
            "enum": all,
        })
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind, code: Code, message: impl Into<String>) -> Self {
        Error {
            kind,
            code,
            message: message.into(),
            hint: None,
            problems: Vec::new(),
            retryable: false,
            contexts: Vec::new(),
            status: None,
            said: None,
        }
    }

    /// Marks the error as worth repeating the request for.
    pub fn retryable(mut self) -> Self {
        self.retryable = true;
        self
    }

    /// Bad input: exit code 2.
    pub fn input(code: Code, message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Input, code, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Internal, Code::Internal, message)
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Adds the contexts to choose from ([`Error::contexts`]).
    pub fn with_contexts(mut self, contexts: Vec<ContextRow>) -> Self {
        self.contexts = contexts;
        self
    }

    /// The same error with `from` written as `to` wherever its message and
    /// hint name it: a context id the node wrote in its own form, shown as
    /// the user typed it (`-c 00…00` is not echoed as `1111…`).
    pub fn renamed(mut self, from: &str, to: &str) -> Self {
        if from.is_empty() || from == to {
            return self;
        }
        self.message = self.message.replace(from, to);
        self.hint = self.hint.map(|h| h.replace(from, to));
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

    /// The table: each kind's code, as docs/reference/exit-codes.md lists them.
    #[test]
    fn each_kind_has_its_documented_exit_code() {
        let table = [
            (ErrorKind::Internal, 1),
            (ErrorKind::Findings, 1),
            (ErrorKind::Input, 2),
            (ErrorKind::Auth, 3),
            (ErrorKind::Unreachable, 4),
            (ErrorKind::Remote, 5),
            (ErrorKind::AfterCall, 6),
            (ErrorKind::Timeout, 124),
        ];
        for (kind, code) in table {
            assert_eq!(kind.exit_code(), code, "{kind:?}");
        }
        let doc = include_str!("../../../docs/reference/exit-codes.md");
        for code in [1, 2, 3, 4, 5, 6, 124] {
            assert!(
                doc.contains(&format!("\n| {code} |")),
                "exit code {code} is not documented"
            );
        }
    }

    /// A usage error refused by clap exits as any other bad input does.
    #[test]
    fn usage_is_bad_input() {
        assert_eq!(EXIT_USAGE, ErrorKind::Input.exit_code());
        assert_eq!(EXIT_OK, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/reference/exit-codes.md's table of error codes lists exactly `Code::ALL`, in order,
    /// with the same strings.
    #[test]
    fn exit_code_reference_lists_every_code() {
        let readme = include_str!("../../../docs/reference/exit-codes.md");
        let listed: Vec<&str> = readme
            .lines()
            .skip_while(|l| !l.starts_with("| error code |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| l.split('|').nth(1).unwrap_or("").trim().trim_matches('`'))
            .collect();
        let all: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(
            listed, all,
            "docs/reference/exit-codes.md's error-code table differs from Code::ALL"
        );
        for line in readme
            .lines()
            .skip_while(|l| !l.starts_with("| error code |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
        {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            assert!(
                cells.len() == 5 && !cells[2].is_empty() && !cells[3].is_empty(),
                "a row needs a meaning and an exit code: {line}"
            );
        }
    }

    /// Each string is distinct snake_case, and `--json` (serde) and `Display`
    /// print exactly it.
    #[test]
    fn codes_are_distinct_and_print_as_their_string() {
        let mut seen = std::collections::HashSet::new();
        for &code in Code::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "`{s}` is used by two codes");
            assert!(
                s.starts_with(|c: char| c.is_ascii_lowercase())
                    && s.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "`{s}` is not snake_case"
            );
            assert_eq!(code.to_string(), s);
            assert_eq!(serde_json::to_value(code).unwrap(), serde_json::json!(s));
        }
        let line = serde_json::json!({"error": {"code": Error::input(Code::UnknownApp, "x").code}});
        assert_eq!(line.to_string(), r#"{"error":{"code":"unknown_app"}}"#);
    }

    #[test]
    fn renamed_writes_an_id_as_typed_in_message_and_hint() {
        let e = Error::input(Code::NoIdentity, "context B58 has no identity")
            .with_hint("join B58 first")
            .renamed("B58", "00ff");
        assert_eq!(e.message, "context 00ff has no identity");
        assert_eq!(e.hint.as_deref(), Some("join 00ff first"));
        assert_eq!(Error::input(Code::Usage, "x").renamed("", "y").message, "x");
    }

    /// A problem's `expected` and `got` are the values it was built from
    /// (issue 22.5: `expected` whole, with its own parentheses), and the
    /// message says the same in words.
    #[test]
    fn problems_carry_expected_and_got_as_built() {
        let p = Problem::mismatch("n", "an integer (u64)".into(), "`x`".into()).at("n", "--n");
        assert_eq!(p.message, "--n: expected an integer (u64), got `x`");
        assert_eq!(
            (p.expected.as_deref(), p.got.as_deref()),
            (Some("an integer (u64)"), Some("`x`"))
        );
        let p = Problem::missing("n", "an integer from 0 to 9 (u8)".into());
        assert_eq!(
            p.message,
            "missing required argument (expected an integer from 0 to 9 (u8))"
        );
        assert!(p.missing && p.got.is_none());
        let p = Problem::mismatch("a", "a byte".into(), "1.5".into()).followed_by(": no fraction");
        assert_eq!(p.message, "expected a byte, got 1.5: no fraction");
        assert_eq!(p.got.as_deref(), Some("1.5"));
        let v = serde_json::to_value(Problem::new("a", "unknown argument")).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"path": "a", "message": "unknown argument"})
        );
    }

    /// The node's words are recognised once, with the status they came with:
    /// "ABI" is a refused ABI only in a 400.
    #[test]
    fn node_words_are_recognised_once() {
        let r = NodeSaid::recognise;
        assert_eq!(
            r(
                None,
                "guest panicked: m: failed to deserialize arguments: x"
            ),
            Some(NodeSaid::ArgumentsUnreadable)
        );
        assert_eq!(
            r(Some(404), "Application bytecode not found"),
            Some(NodeSaid::BytecodeNotFound)
        );
        assert_eq!(
            r(Some(500), "Failed to retrieve blob: no peer"),
            Some(NodeSaid::BlobNotRetrieved)
        );
        assert_eq!(
            r(Some(400), "no usable embedded ABI"),
            Some(NodeSaid::AbiRefused)
        );
        assert_eq!(r(Some(500), "no usable embedded ABI"), None);
        assert_eq!(r(Some(404), "Not Found"), None);
    }

    /// The error line: the hint its own field (not folded into the message),
    /// problems typed, optional fields left out when empty, and every text
    /// made safe for a terminal.
    #[test]
    fn error_line_has_the_hint_as_a_field() {
        let mut e =
            Error::input(Code::InvalidArguments, "bad \u{1b}[31margs").with_hint("see --help");
        let line = serde_json::to_value(ErrorLine::new(&e)).unwrap();
        assert_eq!(
            line,
            serde_json::json!({"error": {"code": "invalid_arguments", "message": "bad [31margs", "hint": "see --help", "retryable": false}})
        );
        e.hint = None;
        e.problems = vec![Problem::mismatch(
            "k",
            "a string".into(),
            "an integer: 1".into(),
        )];
        let line = serde_json::to_value(ErrorLine::new(&e)).unwrap();
        assert!(line["error"].get("hint").is_none());
        assert_eq!(
            line["error"]["problems"],
            serde_json::json!([{"path": "k", "message": "expected a string, got an integer: 1", "expected": "a string", "got": "an integer: 1"}])
        );
    }

    /// The published schema describes the line: its codes are `Code::ALL`,
    /// `hint` is a property of its own, and a real line validates.
    #[test]
    fn error_line_schema_validates_a_line() {
        let schema = serde_json::to_value(schemars::schema_for!(ErrorLine)).unwrap();
        let body = &schema["$defs"]["ErrorBody"];
        assert!(body["properties"]["hint"].is_object(), "{schema:#}");
        let mut required: Vec<&str> = body["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v.as_str())
            .collect();
        required.sort_unstable();
        assert_eq!(required, ["code", "message", "retryable"]);
        let codes = schema["$defs"]["Code"]["enum"].as_array().unwrap();
        assert_eq!(codes.len(), Code::ALL.len());
        let mut e = Error::input(Code::InvalidArguments, "x").with_hint("h");
        e.problems = vec![Problem::missing("k", "a string".into())];
        let line = serde_json::to_value(ErrorLine::new(&e)).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        assert!(validator.is_valid(&line), "{line}");
        assert!(!validator.is_valid(&serde_json::json!({"error": {"code": "no_such_code", "message": "x", "retryable": false}})));
    }
}
