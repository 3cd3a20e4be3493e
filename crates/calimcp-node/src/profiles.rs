//! Named nodes: the profile file that maps names to node URLs, and which one
//! is current.
//!
//! The file is `nodes.json` in calimcp's config directory, written whole
//! (mode 0600, write-then-rename, [`store::write_private`]). It holds names and
//! URLs only: tokens stay in the token cache ([`super::auth`]), keyed by URL,
//! so two names for one URL share their login and pins. A name is 1–64
//! characters of letters, digits, `.`, `_` and `-`, starting with a letter or
//! digit: it can never be taken for a URL (which has a `:`).
//!
//! [`parse_meroctl`] reads meroctl's `nodes.toml` for `calimcp node import`:
//! each `[nodes.NAME]` table's `url` (remote nodes); its `jwt_tokens` are never
//! read (a refresh token is single-use, and a second user of it gets the whole
//! token family revoked), and local nodes (a `path` to a node's home) are
//! reported as skipped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{normalize_url, store};
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;

/// The file name of the profile file in the config directory.
pub const FILE_NAME: &str = "nodes.json";

/// The names and URLs of known nodes and the current one.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profiles {
    /// The node used when no `--node` or `CALIMERO_NODE_URL` is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<String>,
    /// name → URL.
    #[serde(default)]
    pub nodes: BTreeMap<String, String>,
}

impl Profiles {
    /// Reads the profile file, at most `max` bytes (`CALIMCP_MAX_STATE`); a
    /// missing one holds no nodes. An unreadable, invalid or larger one, or
    /// one in a place others may write ([`store::read_trusted`]), is an error
    /// naming it.
    pub fn load(path: &Path, max: u64) -> Result<Profiles> {
        let bytes = match store::read_trusted(path, max) {
            Ok(Some(b)) => b,
            Ok(None) => return Ok(Profiles::default()),
            Err(e) => return Err(store::error("the node list", path, e, "CALIMCP_MAX_STATE")),
        };
        let p: Profiles = serde_json::from_slice(&bytes).map_err(|e| {
            Error::input(
                Code::Unreadable,
                format!("the node list {} is not valid: {e}", path.display()),
            )
            .with_hint("fix or remove the file; `calimcp node add NAME URL` writes a new one")
        })?;
        Ok(p)
    }

    /// Changes the profile file: under its lock (so concurrent `node add`,
    /// `node use`… never lose each other's changes), reads it, lets `change`
    /// edit it, and writes it back when it changed (whole, by rename).
    pub fn update<T>(
        path: &Path,
        max: u64,
        change: impl FnOnce(&mut Profiles) -> Result<T>,
    ) -> Result<T> {
        let _lock = store::lock(path, store::LOCK_WAIT)
            .map_err(|e| store::error("the node list", path, e, "CALIMCP_MAX_STATE"))?;
        let mut p = Profiles::load(path, max)?;
        let before = p.clone();
        let out = change(&mut p)?;
        if p != before {
            p.save(path)?;
        }
        Ok(out)
    }

    /// Writes the profile file (0600, written whole).
    fn save(&self, path: &Path) -> Result<()> {
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::internal(format!("cannot serialise the node list: {e}")))?;
        text.push('\n');
        store::write_private(path, text.as_bytes()).map_err(|e| {
            Error::input(
                Code::State,
                format!("cannot write the node list {}: {e}", path.display()),
            )
        })
    }

    /// The names, as a message lists them (each made safe for a terminal).
    pub fn names_text(&self) -> String {
        let names: Vec<String> = self.nodes.keys().map(|n| sanitize_line(n)).collect();
        names.join(", ")
    }

    /// The URL of a known name.
    pub fn url_of(&self, name: &str) -> Option<&str> {
        self.nodes.get(name).map(String::as_str)
    }

    /// The names of a URL (as stored after [`check_url`]).
    pub fn names_of(&self, url: &str) -> Vec<&str> {
        self.nodes
            .iter()
            .filter(|(_, u)| same_url(u, url))
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// `--node VALUE`: a known name's URL, or VALUE itself when it is a URL.
    /// Anything else is a usage error that lists the names.
    pub fn resolve(&self, value: &str) -> Result<(String, Option<String>)> {
        let value = value.trim();
        if let Some(url) = self.url_of(value) {
            return Ok((url.to_string(), Some(value.to_string())));
        }
        if value.contains(':') || value.contains('/') {
            // A URL (checked, with its own message, when the client is made).
            return Ok((value.to_string(), None));
        }
        Err(Error::input(
            Code::UnknownNode,
            format!(
                "`{}` is neither a node URL nor a known node name{}",
                sanitize_line(value),
                if self.nodes.is_empty() {
                    " (no nodes are named yet)".to_string()
                } else {
                    format!("; the named nodes are: {}", self.names_text())
                }
            ),
        )
        .with_hint("pass --node http://HOST:PORT, or name a node with `calimcp node add NAME URL`"))
    }
}

/// Whether two URLs name the same node (after [`check_url`]'s normalisation).
fn same_url(a: &str, b: &str) -> bool {
    a.trim_end_matches('/') == b.trim_end_matches('/')
}

/// Checks a node name: 1–64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit.
pub fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        return Ok(());
    }
    Err(Error::input(
        Code::Usage,
        format!("`{}` is not a valid node name", sanitize_line(name)),
    )
    .with_hint("a node name is 1 to 64 letters, digits, `.`, `_` or `-`, starting with a letter or digit (e.g. `local`, `node-2`)"))
}

/// Checks a node URL ([`normalize_url`]) and returns the form stored: no
/// query, no fragment, no trailing slash, its base path kept.
pub fn check_url(url: &str) -> Result<String> {
    let (base, _) = normalize_url(url)?;
    Ok(base.as_str().trim_end_matches('/').to_string())
}

/// One node of meroctl's `nodes.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeroctlNode {
    pub name: String,
    /// A remote node's URL; `None` for a local node (a node home directory).
    pub url: Option<String>,
}

/// The nodes of meroctl's `nodes.toml`
/// (`Config { nodes: BTreeMap<String, NodeConnection>, active_node }`, written
/// by `toml::to_string_pretty`): each `[nodes.NAME]` table with its `url`, or
/// `path` for a local node. Reads the subset of TOML that file uses (tables,
/// dotted and quoted keys, basic and literal strings); other lines are ignored.
pub fn parse_meroctl(text: &str) -> Result<Vec<MeroctlNode>> {
    let mut nodes: BTreeMap<String, MeroctlNode> = BTreeMap::new();
    // The node whose table is open (only `[nodes.NAME]`, not its sub-tables).
    let mut open: Option<String> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| {
            Error::input(
                Code::Unreadable,
                format!("meroctl's node list, line {}: {why}", n + 1),
            )
        };
        if let Some(header) = line.strip_prefix('[') {
            if header.starts_with('[') {
                open = None;
                continue;
            }
            let (keys, rest) = parse_keys(header).ok_or_else(|| bad("an unreadable table name"))?;
            if !rest.trim_start().starts_with(']') {
                return Err(bad("an unreadable table name"));
            }
            open = match keys.as_slice() {
                [first, name] if first == "nodes" => {
                    nodes.entry(name.clone()).or_insert_with(|| MeroctlNode {
                        name: name.clone(),
                        url: None,
                    });
                    Some(name.clone())
                }
                _ => None,
            };
            continue;
        }
        let Some(name) = &open else {
            continue;
        };
        let Some((keys, rest)) = parse_keys(line) else {
            continue;
        };
        let Some(value) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        if keys.as_slice() == ["url"] {
            let (url, _) =
                parse_string(value.trim_start()).ok_or_else(|| bad("`url` is not a string"))?;
            if let Some(node) = nodes.get_mut(name) {
                node.url = Some(url);
            }
        }
    }
    Ok(nodes.into_values().collect())
}

/// meroctl's active node: the top-level `active_node = "NAME"` of its
/// `nodes.toml` (before any table), if set.
pub fn meroctl_active(text: &str) -> Option<String> {
    for raw in text.lines() {
        let line = raw.trim();
        if line.starts_with('[') {
            return None;
        }
        let Some((keys, rest)) = parse_keys(line) else {
            continue;
        };
        if keys.as_slice() == ["active_node"]
            && let Some(value) = rest.trim_start().strip_prefix('=')
        {
            return parse_string(value.trim_start()).map(|(name, _)| name);
        }
    }
    None
}

/// A dotted key (`a."b c".d`) at the start of `s`, and the rest after it.
pub(crate) fn parse_keys(s: &str) -> Option<(Vec<String>, &str)> {
    let mut keys = Vec::new();
    let mut rest = s.trim_start();
    loop {
        let (key, after) = if rest.starts_with('"') || rest.starts_with('\'') {
            parse_string(rest)?
        } else {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            (rest[..end].to_string(), &rest[end..])
        };
        keys.push(key);
        let after = after.trim_start();
        match after.strip_prefix('.') {
            Some(more) => rest = more.trim_start(),
            None => return Some((keys, after)),
        }
    }
}

/// A TOML basic (`"…"`, with escapes) or literal (`'…'`) string at the start
/// of `s`, and the rest after it.
pub(crate) fn parse_string(s: &str) -> Option<(String, &str)> {
    if let Some(body) = s.strip_prefix('\'') {
        let end = body.find('\'')?;
        return Some((body[..end].to_string(), &body[end + 1..]));
    }
    let body = s.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[i + 1..])),
            '\\' => {
                let (_, e) = chars.next()?;
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    'u' | 'U' => {
                        let n = if e == 'u' { 4 } else { 8 };
                        let hex: String = (0..n)
                            .filter_map(|_| chars.next().map(|(_, c)| c))
                            .collect();
                        out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                    }
                    _ => return None,
                }
            }
            c => out.push(c),
        }
    }
    None
}

/// Where meroctl keeps its node list: `dirs::config_dir()` joined with
/// `calimero/meroctl/nodes.toml` ($XDG_CONFIG_HOME or ~/.config on Linux,
/// ~/Library/Application Support on macOS).
pub fn meroctl_path(home: Option<&Path>, xdg_config: Option<&Path>) -> Option<PathBuf> {
    let base = if cfg!(target_os = "macos") {
        home?.join("Library/Application Support")
    } else {
        match xdg_config.filter(|p| p.is_absolute()) {
            Some(p) => p.to_path_buf(),
            None => home?.join(".config"),
        }
    };
    Some(base.join("calimero/meroctl/nodes.toml"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        for ok in ["local", "node-2", "a", "n.1_x", &"a".repeat(64)] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "-x",
            ".x",
            "a b",
            "a:b",
            "a/b",
            "naïve",
            "a\u{1b}[31m",
            &"a".repeat(65),
        ] {
            let e = check_name(bad).unwrap_err();
            assert_eq!(e.code, Code::Usage, "{bad}");
            assert!(!e.message.contains('\u{1b}'), "{}", e.message);
        }
    }

    #[test]
    fn urls_are_checked_and_stored_without_query_or_trailing_slash() {
        assert_eq!(
            check_url("http://127.0.0.1:2528/").unwrap(),
            "http://127.0.0.1:2528"
        );
        assert_eq!(
            check_url("https://n.example/node/?x=1#f").unwrap(),
            "https://n.example/node"
        );
        assert!(check_url("ftp://x").is_err());
        assert!(check_url("not a url").is_err());
    }

    #[test]
    fn a_value_is_a_name_or_a_url_or_an_error_listing_the_names() {
        let mut p = Profiles::default();
        p.nodes.insert("a".into(), "http://a:1".into());
        p.nodes.insert("b".into(), "http://b:2".into());
        assert_eq!(
            p.resolve("a").unwrap(),
            ("http://a:1".to_string(), Some("a".to_string()))
        );
        assert_eq!(p.resolve("http://c:3").unwrap().0, "http://c:3");
        let e = p.resolve("c").unwrap_err();
        assert!(
            e.message.contains("the named nodes are: a, b"),
            "{}",
            e.message
        );
        let e = Profiles::default().resolve("c").unwrap_err();
        assert!(
            e.message.contains("no nodes are named yet"),
            "{}",
            e.message
        );
        assert_eq!(p.names_of("http://b:2/"), vec!["b"]);
    }

    #[test]
    fn meroctl_nodes_toml_gives_names_and_urls_never_tokens() {
        let text = r#"
active_node = "remote1"

[nodes.remote1]
url = "http://127.0.0.1:2528/"

[nodes.remote1.jwt_tokens]
access_token = "eyJ.secret.a"
refresh_token = "secret-refresh"

[nodes."with space"]
url = 'https://n.example/base'

[nodes.local1]
path = "/home/u/.calimero/node1"
"#;
        let nodes = parse_meroctl(text).unwrap();
        assert_eq!(
            nodes,
            vec![
                MeroctlNode {
                    name: "local1".into(),
                    url: None
                },
                MeroctlNode {
                    name: "remote1".into(),
                    url: Some("http://127.0.0.1:2528/".into())
                },
                MeroctlNode {
                    name: "with space".into(),
                    url: Some("https://n.example/base".into())
                },
            ]
        );
        assert_eq!(meroctl_active(text).as_deref(), Some("remote1"));
        assert_eq!(meroctl_active("[nodes.a]\nactive_node = \"a\""), None);
        assert!(parse_meroctl("[nodes.\"x]\nurl = 1").is_err());
        assert_eq!(
            parse_string(r#""a\"b\u0041" rest"#).unwrap(),
            ("a\"bA".into(), " rest")
        );
    }

    #[test]
    fn meroctl_path_follows_dirs_config_dir() {
        if cfg!(target_os = "linux") {
            assert_eq!(
                meroctl_path(Some(Path::new("/h")), Some(Path::new("/x"))).unwrap(),
                Path::new("/x/calimero/meroctl/nodes.toml")
            );
            assert_eq!(
                meroctl_path(Some(Path::new("/h")), Some(Path::new("rel"))).unwrap(),
                Path::new("/h/.config/calimero/meroctl/nodes.toml")
            );
        }
    }
}
