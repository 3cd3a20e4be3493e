//! The node flags every subcommand shares and the environment they read.
//! When the node is asked is the session's rule ([`calimcp_catalog::session`]).
//!
//! `--node` takes a URL or a name from the profile file (`calimcp node add`);
//! without it (and without CALIMERO_NODE_URL) the current node (`calimcp node
//! use`) is the node. [`NodeArgs::resolve`] turns a name into its URL once,
//! before a command runs, so everything keyed by node (tokens, pins, cached
//! ABIs) is keyed by the URL. Without any of them, the node is found
//! ([`discover`]: the desktop app's hand-off file, the one node home under
//! ~/.calimero, a node listening on a usual loopback port —
//! `CALIMCP_PROBE_PORTS`) or is merod's default address;
//! [`NodeArgs::source_text`] says which. A profile file that cannot be read
//! (or trusted), a current entry naming no node, several node homes and none
//! named `default`, two probed ports answering, a bad `CALIMCP_PROBE_PORTS`
//! and no HOME (no private place for the state) make the node unknown: the
//! error of its first use, so commands that never use it still run.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::textfile;
use calimcp_catalog::accounts::discover::{self, Source};
use calimcp_catalog::accounts::profiles::{self, Profiles};
use calimcp_catalog::accounts::{self as node, NodeOptions, auth};
use calimcp_catalog::context::Pins;
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;

/// `--node`, `--timeout`, `--token`, `-v`, `--offline`.
#[derive(Debug, Clone, Args)]
pub(crate) struct NodeArgs {
    /// The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app's hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]
    #[arg(
        long = "node",
        visible_alias = "api",
        global = true,
        env = "CALIMERO_NODE_URL",
        hide_env_values = true,
        value_name = "NAME|URL",
        help_heading = "Node options",
        add = clap_complete::ArgValueCompleter::new(node_name_candidates)
    )]
    pub url: Option<String>,
    /// The name `--node` (or the current node) gave, once resolved.
    #[arg(skip)]
    pub name: Option<String>,
    /// Why the current node is unknown (an unreadable profile file), when no
    /// node was given: the error of the first use of the node, not of
    /// commands that never use it.
    #[arg(skip)]
    pub deferred: Option<Error>,
    /// Where the node came from when none was given ([`discover`]).
    #[arg(skip)]
    pub source: Option<Source>,
    /// What finding the node passed over, for the command to warn about.
    #[arg(skip)]
    pub found_warnings: Vec<String>,
    /// Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]
    #[arg(long, global = true, value_parser = parse_timeout, value_name = "SECS", help_heading = "Node options")]
    pub timeout: Option<Duration>,
    /// Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)
    #[arg(
        long,
        global = true,
        env = "CALIMERO_AUTH_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN",
        help_heading = "Node options"
    )]
    pub token: Option<String>,
    /// Print each request to the node and its response on stderr (secrets masked)
    #[arg(long, short = 'v', global = true, help_heading = "Node options")]
    pub verbose: bool,
    /// Never contact the node; use local apps only
    #[arg(
        long,
        global = true,
        env = "CALIMCP_OFFLINE",
        value_parser = clap::builder::FalseyValueParser::new(),
        help_heading = "Node options"
    )]
    pub offline: bool,
}

fn parse_timeout(s: &str) -> std::result::Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(secs > 0.0 && secs <= 86_400.0) {
        return Err("must be more than 0 and at most 86400 seconds".into());
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A variable's value; empty counts as unset.
pub(crate) fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// A size limit from the environment (bytes, or with K, M, G); unset or empty: `default`.
pub(crate) fn size_env(name: &str, default: u64) -> Result<u64> {
    match env(name) {
        None => Ok(default),
        Some(v) => calimcp_core::text::parse_size(&v).ok_or_else(|| {
            Error::input(
                Code::InvalidEnv,
                format!("{name}={}: not a size", sanitize_line(&v)),
            )
            .with_hint(format!(
                "give a positive number of bytes, optionally with K, M or G (e.g. {name}=64M)"
            ))
        }),
    }
}

/// Where tokens, cached ABIs and pinned contexts live: CALIMCP_STATE_DIR, else
/// $XDG_STATE_HOME/calimcp, else ~/.local/state/calimcp. Without any of
/// them (no HOME): the error `no_home`, never a shared place such as /tmp.
pub(crate) fn state_dir() -> Result<PathBuf> {
    if let Some(dir) = env("CALIMCP_STATE_DIR") {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = env("XDG_STATE_HOME").filter(|d| PathBuf::from(d).is_absolute()) {
        return Ok(PathBuf::from(dir).join("calimcp"));
    }
    match env("HOME") {
        Some(home) => Ok(PathBuf::from(home).join(".local/state/calimcp")),
        None => Err(no_home(
            "tokens, pins and cached ABIs",
            "CALIMCP_STATE_DIR or XDG_STATE_HOME",
        )),
    }
}

/// Where calimcp's configuration (the named nodes) lives:
/// $XDG_CONFIG_HOME/calimcp, else ~/.config/calimcp; without either, `no_home`.
pub(crate) fn config_dir() -> Result<PathBuf> {
    if let Some(dir) = env("XDG_CONFIG_HOME").filter(|d| PathBuf::from(d).is_absolute()) {
        return Ok(PathBuf::from(dir).join("calimcp"));
    }
    match env("HOME") {
        Some(home) => Ok(PathBuf::from(home).join(".config/calimcp")),
        None => Err(no_home("named nodes (nodes.json)", "XDG_CONFIG_HOME")),
    }
}

fn no_home(what: &str, instead: &str) -> Error {
    Error::input(
        Code::NoHome,
        format!(
            "HOME is not set, so calimcp has no private place for its {what} (it never uses a shared directory such as /tmp)"
        ),
    )
    .with_hint(format!(
        "set HOME, or {instead} to an absolute path of a directory of your own"
    ))
}

/// The profile file of named nodes.
pub(crate) fn profiles_path() -> Result<PathBuf> {
    Ok(config_dir()?.join(profiles::FILE_NAME))
}

/// The largest configuration or state file read (`CALIMCP_MAX_STATE`).
/// The loopback ports probed for a node when none is named or configured:
/// `CALIMCP_PROBE_PORTS` (comma-separated; `none`: no probe), else
/// [`discover::PROBED`].
fn probe_ports() -> Result<Vec<u16>> {
    let Some(v) = env("CALIMCP_PROBE_PORTS") else {
        return Ok(discover::PROBED.to_vec());
    };
    if v.trim().eq_ignore_ascii_case("none") {
        return Ok(Vec::new());
    }
    v.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.parse::<u16>().ok().filter(|&n| n > 0).ok_or_else(|| {
                Error::input(
                    Code::InvalidEnv,
                    format!(
                        "CALIMCP_PROBE_PORTS={}: not a comma-separated list of ports",
                        sanitize_line(&v)
                    ),
                )
            })
        })
        .collect()
}

pub(crate) fn max_state() -> Result<u64> {
    size_env("CALIMCP_MAX_STATE", node::DEFAULT_MAX_STATE)
}

/// The named nodes ([`Profiles::load`] of the profile file).
pub(crate) fn profiles() -> Result<Profiles> {
    Profiles::load(&profiles_path()?, max_state()?)
}

/// The pinned contexts (`calimcp use`) of the state directory.
pub(crate) fn pins() -> Result<Pins> {
    Pins::load(&state_dir()?, max_state()?)
}

/// Dynamic completion of a node name: the named nodes, each with its URL
/// (without credentials). Names are checked when added, so they are
/// shell-safe.
pub(crate) fn node_name_candidates(
    current: &std::ffi::OsStr,
) -> Vec<clap_complete::CompletionCandidate> {
    let cur = current.to_string_lossy();
    let Ok(p) = profiles() else {
        return Vec::new();
    };
    p.nodes
        .iter()
        .filter(|(n, _)| n.starts_with(&*cur) && profiles::check_name(n).is_ok())
        .map(|(n, u)| {
            let shown = node::normalize_url(u).map(|(_, s)| s).unwrap_or_default();
            clap_complete::CompletionCandidate::new(n.clone())
                .help(Some(sanitize_line(&shown).into()))
        })
        .collect()
}

/// Whether a `--node` value is meant as a URL (a name has no `:` or `/`).
fn looks_like_url(v: &str) -> bool {
    v.contains(':') || v.contains('/')
}

/// The longest password read (from CALIMERO_PASSWORD_FILE, stdin or the terminal).
pub(crate) const MAX_PASSWORD: u64 = 64 * 1024;

/// CALIMERO_PASSWORD, else the content of CALIMERO_PASSWORD_FILE (trimmed):
/// a regular file or a pipe of at most [`MAX_PASSWORD`] bytes, never waited
/// on when nobody writes to it.
pub(crate) fn password_from_env() -> Result<Option<String>> {
    if let Some(p) = env("CALIMERO_PASSWORD") {
        return Ok(Some(p));
    }
    let Some(file) = env("CALIMERO_PASSWORD_FILE") else {
        return Ok(None);
    };
    let text = textfile::read_file(
        std::path::Path::new(&file),
        MAX_PASSWORD,
        "the most read of a password file",
    )
    .map_err(|e| {
        Error::input(
            Code::Unreadable,
            format!(
                "cannot read CALIMERO_PASSWORD_FILE {}: {e}",
                sanitize_line(&file)
            ),
        )
    })?;
    Ok(Some(text.trim().to_string()))
}

impl NodeArgs {
    /// Turns `--node NAME` into the name's URL, or takes the current node
    /// when no node was given. A value that is neither a URL nor a known name
    /// is a usage error listing the names. Reads the profile file only when a
    /// name or the current node is needed.
    ///
    /// When no node was given and the profile file cannot be read, the
    /// current node is unknown: the error is kept ([`NodeArgs::deferred`])
    /// and returned by whatever needs the node ([`NodeArgs::options`],
    /// [`NodeArgs::checked_url`]), so `describe ./abi.json`, `schema`, `diff`
    /// and `--offline` work, while nothing is sent to the default address in
    /// place of a current node that may be another one.
    pub(crate) fn resolve(&mut self) -> Result<()> {
        if self.name.is_some() || self.deferred.is_some() {
            return Ok(());
        }
        match self.url.as_deref() {
            Some(v) if looks_like_url(v) => {}
            Some(v) => {
                let (url, name) = profiles()?.resolve(v)?;
                self.url = Some(url);
                self.name = name;
            }
            None => match self.current() {
                Ok(Some((name, url))) => {
                    self.url = Some(url);
                    self.name = Some(name);
                }
                // --offline asks no node, so none is looked for.
                Ok(None) if !self.offline => self.discover(),
                Ok(None) => {}
                Err(e) => self.deferred = Some(e),
            },
        }
        // Tokens, pins and cached ABIs need the state directory: without
        // one, the node is not used (rather than a shared place).
        if self.deferred.is_none()
            && let Err(e) = state_dir()
        {
            self.deferred = Some(e);
        }
        Ok(())
    }

    /// No node given and no current node: the one found ([`discover::find`]);
    /// its hand-off token is the token unless `--token` gave one. An error
    /// (several node homes) is the node's deferred error.
    fn discover(&mut self) {
        let probe = match probe_ports() {
            Ok(ports) => ports,
            Err(e) => {
                self.deferred = Some(e);
                return;
            }
        };
        let places = discover::Places {
            home: env("HOME").map(PathBuf::from),
            calimero_home: env("CALIMERO_HOME").map(PathBuf::from),
            max: max_state().unwrap_or(node::DEFAULT_MAX_STATE),
            probe,
        };
        match discover::find(&places) {
            Ok(found) => {
                if found.source != Source::Default {
                    self.url = Some(found.url);
                }
                if self.token.as_deref().is_none_or(|t| t.trim().is_empty()) {
                    self.token = found.token;
                }
                self.source = Some(found.source);
                self.found_warnings = found.warnings;
            }
            Err(e) => self.deferred = Some(e),
        }
    }

    /// Where the node came from, as `node list` and `-v` say it: `None` when
    /// it was given (`--node`, CALIMERO_NODE_URL) or is the current node.
    pub(crate) fn source_text(&self) -> Option<String> {
        self.source.as_ref().map(Source::describe)
    }

    /// The current node (`node use`): its name and URL, `None` when there
    /// is none. A `current` that names no node is an error, as is a profile
    /// file that cannot be read or no place for one (no HOME).
    fn current(&self) -> Result<Option<(String, String)>> {
        let path = profiles_path()?;
        if std::fs::symlink_metadata(&path).is_err() {
            return Ok(None);
        }
        let p = Profiles::load(&path, max_state()?)?;
        let Some(name) = p.current.clone() else {
            return Ok(None);
        };
        match p.url_of(&name) {
            Some(url) => Ok(Some((name, url.to_string()))),
            None => Err(Error::input(
                Code::UnknownNode,
                format!(
                    "the current node `{}` (set by `calimcp node use`, in {}) is not a named node{}",
                    sanitize_line(&name),
                    path.display(),
                    if p.nodes.is_empty() {
                        String::new()
                    } else {
                        format!("; the named nodes are: {}", p.names_text())
                    }
                ),
            )
            .with_hint("choose one with `calimcp node use NAME`, or `calimcp node use --clear` for none")),
        }
    }

    /// Whether a node was named (flag, CALIMERO_NODE_URL or the current
    /// node) rather than assumed or found ([`discover`]).
    pub(crate) fn explicit(&self) -> bool {
        self.url.is_some() && self.source.is_none()
    }

    /// The node URL as given, or the default.
    pub(crate) fn url(&self) -> &str {
        self.url.as_deref().unwrap_or(node::DEFAULT_URL)
    }

    /// The node URL, for a command that uses the node (or keys something by
    /// it): the profile file's error when the current node is unknown.
    pub(crate) fn checked_url(&self) -> Result<&str> {
        match &self.deferred {
            Some(e) => Err(e.clone()),
            None => Ok(self.url()),
        }
    }

    /// The client options: these flags plus CALIMERO_USERNAME,
    /// CALIMERO_PASSWORD or CALIMERO_PASSWORD_FILE, CALIMERO_REFRESH_TOKEN and
    /// the state directory. Without a username or token, the one user with a
    /// cached login for the node is the user (`calimcp login` stays).
    pub(crate) fn options(&self) -> Result<NodeOptions> {
        self.checked_url()?;
        self.options_unchecked()
    }

    /// [`NodeArgs::options`] also when the current node is unknown (then for
    /// the default URL): for a session, which returns [`NodeArgs::deferred`]
    /// before it uses them.
    pub(crate) fn options_unchecked(&self) -> Result<NodeOptions> {
        let mut username = env("CALIMERO_USERNAME");
        let password = match &username {
            None => None,
            Some(_) => password_from_env()?,
        };
        let token = self.token.clone().filter(|t| !t.trim().is_empty());
        let state_dir = match state_dir() {
            Ok(dir) => dir,
            // Never used: the session returns the deferred error first.
            Err(_) if self.deferred.is_some() => PathBuf::new(),
            Err(e) => return Err(e),
        };
        if username.is_none()
            && token.is_none()
            && !state_dir.as_os_str().is_empty()
            && let Ok((_, shown)) = node::normalize_url(self.url())
            // A state directory that cannot be trusted is said when the node
            // is used (the session's client, or the node's 401), not here.
            && let Ok(users) = auth::cached_users(&state_dir, &shown)
            && let [one] = users.as_slice()
        {
            username = Some(one.clone());
        }
        // --timeout bounds every kind of request alike; without it each kind has its own.
        let bound = |default| self.timeout.unwrap_or(default);
        Ok(NodeOptions {
            url: self.url().to_string(),
            timeout: bound(node::DEFAULT_TIMEOUT),
            execute_timeout: bound(node::DEFAULT_EXECUTE_TIMEOUT),
            connect_timeout: bound(node::DEFAULT_CONNECT_TIMEOUT),
            token,
            refresh_token: env("CALIMERO_REFRESH_TOKEN"),
            username,
            password,
            state_dir,
            verbose: self.verbose,
            max_response: size_env("CALIMCP_MAX_RESPONSE", node::DEFAULT_MAX_RESPONSE)?,
            max_blob: size_env("CALIMCP_MAX_BLOB", node::DEFAULT_MAX_BLOB)?,
            identity: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_timeout("30").unwrap(), Duration::from_secs(30));
        assert_eq!(parse_timeout("0.5").unwrap(), Duration::from_millis(500));
        assert!(parse_timeout("0").is_err());
        assert!(parse_timeout("-1").is_err());
        assert!(parse_timeout("NaN").is_err());
        assert!(parse_timeout("soon").is_err());
    }
}
