//! Finding the local node when none is given (no `--node`, no
//! `CALIMERO_NODE_URL`, no current node), in this order:
//!
//! 1. the Calimero desktop app's hand-off file,
//!    `~/.config/calimero/mcp/agent.json`: `{"nodeUrl", "accessToken",
//!    "refreshToken"}`, written by the app's "Connect AI agent" action (the
//!    format the node's own MCP server, mero-mcp, reads:
//!    docs/reference/node.md says where it was found). Only a loopback
//!    `nodeUrl` is used (a hand-off to another host is ignored with a
//!    warning), and its `accessToken` is the bearer token for that node;
//! 2. the one node home under `~/.calimero` (or `CALIMERO_HOME`): each
//!    `NAME/config.toml` whose `[server] listen` multiaddrs
//!    (`/ip4/127.0.0.1/tcp/2428`, as `merod init` writes them) give the
//!    node's HTTP port; among several, the one named `default`; several and
//!    none named `default`: a usage error listing them;
//! 3. a node listening on loopback at one of the usual ports ([`PROBED`]:
//!    2528 and 2428, `CALIMCP_PROBE_PORTS` instead); both answering: a
//!    usage error listing them;
//! 4. else [`crate::DEFAULT_URL`].
//!
//! Reads files, each through [`store::read_trusted`] (bounded, never one
//! others may write), and opens at most one TCP connection per probed
//! port on 127.0.0.1 (closed at once: no request is made; a refused port
//! answers at once, a silent one is given [`PROBE_WITHIN`]). The token is
//! never part of a [`Found`]'s text.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::profiles::{parse_keys, parse_string};
use super::store;
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;

/// Where a node found without being given came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The desktop app's hand-off file (its path).
    Handoff(PathBuf),
    /// A node home under `~/.calimero` (its name and its `config.toml`).
    Home { name: String, config: PathBuf },
    /// A port on loopback that accepted a connection.
    Probed(u16),
    /// Nothing found: merod's default address.
    Default,
}

/// The loopback ports probed when no node is named or configured: merod's
/// server ports (2528; 2428 in the config `merod init` writes).
pub const PROBED: [u16; 2] = [2528, 2428];

/// How long a probed port may take to accept.
pub const PROBE_WITHIN: std::time::Duration = std::time::Duration::from_millis(250);

impl Source {
    /// How `node list`, `-v` and the server's instructions say it.
    pub fn describe(&self) -> String {
        match self {
            Source::Handoff(p) => format!("the desktop app's hand-off file {}", p.display()),
            Source::Home { name, config } => {
                format!(
                    "the node home `{}` ({})",
                    sanitize_line(name),
                    config.display()
                )
            }
            Source::Probed(port) => {
                format!("a node listening on 127.0.0.1:{port} (probed)")
            }
            Source::Default => "merod's default address (no node found)".to_string(),
        }
    }
}

/// The node found: its URL, the hand-off's token, where it came from, and
/// what was passed over (warnings to show).
#[derive(Debug, Clone)]
pub struct Found {
    pub url: String,
    pub token: Option<String>,
    pub source: Source,
    pub warnings: Vec<String>,
}

/// Where to look: the home directory and `CALIMERO_HOME`.
#[derive(Debug, Clone, Default)]
pub struct Places {
    pub home: Option<PathBuf>,
    pub calimero_home: Option<PathBuf>,
    /// The largest file read (`CALIMCP_MAX_STATE`).
    pub max: u64,
    /// The loopback ports to probe ([`PROBED`] unless `CALIMCP_PROBE_PORTS`).
    pub probe: Vec<u16>,
}

impl Places {
    /// The hand-off file: `~/.config/calimero/mcp/agent.json`.
    pub fn handoff_path(&self) -> Option<PathBuf> {
        Some(self.home.as_ref()?.join(".config/calimero/mcp/agent.json"))
    }

    /// The directory of node homes: `CALIMERO_HOME`, else `~/.calimero`.
    pub fn nodes_dir(&self) -> Option<PathBuf> {
        match &self.calimero_home {
            Some(p) => Some(p.clone()),
            None => Some(self.home.as_ref()?.join(".calimero")),
        }
    }
}

/// The node to use when none is given (see the module's comment). Several
/// node homes and none named `default`: a usage error listing them.
pub fn find(places: &Places) -> Result<Found> {
    let mut warnings = Vec::new();
    if let Some(path) = places.handoff_path() {
        match handoff(&path, places.max) {
            Ok(Some((url, token))) => {
                return Ok(Found {
                    url,
                    token,
                    source: Source::Handoff(path),
                    warnings,
                });
            }
            Ok(None) => {}
            Err(why) => warnings.push(format!(
                "the desktop app's hand-off file {} is ignored: {why}",
                path.display()
            )),
        }
    }
    if let Some(dir) = places.nodes_dir() {
        let homes = node_homes(&dir, places.max);
        if let Some((name, config, port)) = choose(&dir, homes)? {
            return Ok(Found {
                url: format!("http://127.0.0.1:{port}"),
                token: None,
                source: Source::Home { name, config },
                warnings,
            });
        }
    }
    if let Some(port) = probe(&places.probe)? {
        return Ok(Found {
            url: format!("http://127.0.0.1:{port}"),
            token: None,
            source: Source::Probed(port),
            warnings,
        });
    }
    Ok(Found {
        url: crate::DEFAULT_URL.to_string(),
        token: None,
        source: Source::Default,
        warnings,
    })
}

/// The one port of `ports` that accepts a connection on 127.0.0.1, `None`
/// for none; several: a usage error listing them.
fn probe(ports: &[u16]) -> Result<Option<u16>> {
    let open: Vec<u16> = ports
        .iter()
        .copied()
        .filter(|&p| {
            let addr = std::net::SocketAddr::from(([127, 0, 0, 1], p));
            std::net::TcpStream::connect_timeout(&addr, PROBE_WITHIN).is_ok()
        })
        .collect();
    match open[..] {
        [] => Ok(None),
        [one] => Ok(Some(one)),
        _ => {
            let list: Vec<String> = open
                .iter()
                .map(|p| format!("http://127.0.0.1:{p}"))
                .collect();
            Err(Error::input(
                Code::Usage,
                format!(
                    "no node is named or configured, and several ports on this machine answer: {}",
                    list.join(", ")
                ),
            )
            .with_hint(
                "pick one with --node URL (or CALIMERO_NODE_URL), or name it with `calimcp node add NAME URL` and `calimcp node use NAME`",
            ))
        }
    }
}

/// The hand-off file as the desktop app writes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Handoff {
    node_url: Option<String>,
    access_token: Option<String>,
}

/// The hand-off file's URL and token; `None` when there is no file; why it
/// is ignored when it cannot be used (unreadable, not loopback).
fn handoff(path: &Path, max: u64) -> std::result::Result<Option<(String, Option<String>)>, String> {
    let bytes = match store::read_trusted(path, max) {
        Ok(Some(b)) => b,
        Ok(None) => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let h: Handoff = serde_json::from_slice(&bytes).map_err(|e| format!("not valid JSON: {e}"))?;
    let Some(url) = h.node_url.filter(|u| !u.trim().is_empty()) else {
        return Err("it has no `nodeUrl`".into());
    };
    let url = url.trim().trim_end_matches('/').to_string();
    if !is_loopback_url(&url) {
        return Err(format!(
            "its nodeUrl `{}` is not on this machine (only a loopback address is used)",
            sanitize_line(&crate::url_text(&url))
        ));
    }
    let token = h.access_token.filter(|t| !t.trim().is_empty());
    Ok(Some((url, token)))
}

/// Whether `url` is http(s) on `localhost`, 127.0.0.0/8 or `::1`.
pub fn is_loopback_url(url: &str) -> bool {
    let Ok(u) = reqwest::Url::parse(url) else {
        return false;
    };
    if !matches!(u.scheme(), "http" | "https") {
        return false;
    }
    let Some(host) = u.host_str() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The node homes of `dir`: each `NAME/config.toml` with an HTTP port, by name.
fn node_homes(dir: &Path, max: u64) -> Vec<(String, PathBuf, u16)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut homes: Vec<(String, PathBuf, u16)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            let config = e.path().join("config.toml");
            let bytes = store::read_trusted(&config, max).ok()??;
            let port = listen_port(&String::from_utf8_lossy(&bytes))?;
            Some((name, config, port))
        })
        .collect();
    homes.sort();
    homes
}

/// One node home, the one named `default` among several, `None` for none;
/// several and none named `default`: a usage error listing them.
fn choose(
    dir: &Path,
    mut homes: Vec<(String, PathBuf, u16)>,
) -> Result<Option<(String, PathBuf, u16)>> {
    if homes.len() <= 1 {
        return Ok(homes.pop());
    }
    if let Some(i) = homes.iter().position(|(n, _, _)| n == "default") {
        return Ok(Some(homes.swap_remove(i)));
    }
    let list: Vec<String> = homes
        .iter()
        .map(|(n, _, p)| format!("{} (http://127.0.0.1:{p})", sanitize_line(n)))
        .collect();
    Err(Error::input(
        Code::Usage,
        format!(
            "several nodes found in {}: {}, and none is named `default`",
            dir.display(),
            list.join(", ")
        ),
    )
    .with_hint(
        "pick one with --node URL (or CALIMERO_NODE_URL), or name it with `calimcp node add NAME URL` and `calimcp node use NAME`",
    ))
}

/// The HTTP port of merod's `config.toml`: the first `/ip4/…/tcp/PORT` or
/// `/ip6/…/tcp/PORT` of `[server] listen` (an array of strings, on one line
/// or several).
pub fn listen_port(text: &str) -> Option<u16> {
    listen_addrs(text)?.iter().find_map(|a| multiaddr_port(a))
}

/// The strings of `[server] listen`.
fn listen_addrs(text: &str) -> Option<Vec<String>> {
    let mut in_server = false;
    let mut lines = text.lines();
    while let Some(raw) = lines.next() {
        let line = raw.trim();
        if let Some(header) = line.strip_prefix('[') {
            in_server = parse_keys(header)
                .is_some_and(|(k, rest)| k == ["server"] && rest.trim_start().starts_with(']'));
            continue;
        }
        let Some((keys, rest)) = parse_keys(line).filter(|_| in_server) else {
            continue;
        };
        let Some(value) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        if keys != ["listen"] {
            continue;
        }
        // The array, up to its `]` (strings hold no `]` in a multiaddr).
        let mut array = value.trim().to_string();
        while !array.contains(']') {
            array.push_str(lines.next()?);
        }
        return Some(array_strings(array.trim_start().strip_prefix('[')?));
    }
    None
}

/// The strings of an array's body (`"a", 'b', ]`), comments dropped.
fn array_strings(mut body: &str) -> Vec<String> {
    let mut out = Vec::new();
    loop {
        body = body.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        match parse_string(body) {
            Some((s, rest)) => {
                out.push(s);
                body = rest;
            }
            None => return out,
        }
    }
}

/// The port of `/ip4/HOST/tcp/PORT` or `/ip6/HOST/tcp/PORT`; any host
/// (`0.0.0.0` and `::` listen on loopback too).
fn multiaddr_port(addr: &str) -> Option<u16> {
    let parts: Vec<&str> = addr.split('/').collect();
    match parts.as_slice() {
        [
            "",
            "ip4" | "ip6" | "dns" | "dns4" | "dns6",
            _,
            "tcp",
            port,
            ..,
        ] => port.parse().ok().filter(|p| *p != 0),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listening_port_is_found_and_two_are_a_choice_to_make() {
        let a = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let b = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let (pa, pb) = (
            a.local_addr().unwrap().port(),
            b.local_addr().unwrap().port(),
        );
        // A port nothing listens on: bound, then released.
        let closed = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        assert_eq!(probe(&[]).unwrap(), None);
        assert_eq!(probe(&[closed]).unwrap(), None);
        assert_eq!(probe(&[closed, pb]).unwrap(), Some(pb));
        let e = probe(&[pa, pb]).unwrap_err();
        assert_eq!(e.code, Code::Usage);
        assert!(
            e.message.contains(&format!("http://127.0.0.1:{pa}")),
            "{}",
            e.message
        );
        assert!(
            e.message.contains(&format!("http://127.0.0.1:{pb}")),
            "{}",
            e.message
        );
        let places = Places {
            probe: vec![closed, pa],
            ..Places::default()
        };
        let found = find(&places).unwrap();
        assert_eq!(found.url, format!("http://127.0.0.1:{pa}"));
        assert_eq!(found.source, Source::Probed(pa));
    }

    #[test]
    fn the_port_is_read_from_server_listen() {
        let merod = "[identity]\nkeypair = \"x\"\n\n[swarm]\nlisten = [\"/ip4/0.0.0.0/tcp/2528\"]\n\n[server]\nlisten = [\n    \"/ip4/127.0.0.1/tcp/2428\",\n    \"/ip6/::1/tcp/2428\",\n]\n";
        assert_eq!(listen_port(merod), Some(2428));
        assert_eq!(
            listen_port("[server]\nlisten = ['/ip6/::/tcp/3001']"),
            Some(3001)
        );
        assert_eq!(
            listen_port("[swarm]\nlisten = [\"/ip4/0.0.0.0/tcp/2528\"]"),
            None
        );
        assert_eq!(listen_port("[server]\nlisten = [\"/udp/1\"]"), None);
    }

    /// The head of the config.toml merod 0.11.0-rc.25 writes with `merod
    /// --home H --node node init --server-port 24999 --swarm-port 25000
    /// --swarm-host 127.0.0.1 --server-host 127.0.0.1` (../shared/realnode's
    /// bin/merod-rc25; the keypair left out): the swarm's listen comes first
    /// and `[server]` is followed by its own sub-tables.
    #[test]
    fn the_port_is_read_from_the_config_merod_writes() {
        let merod = r#"mode = "standard"

[identity]
peer_id = "12D3KooWJs9sxQ3NymU51E6ErjyAd1ixcqiATm5cVuSsGprHwyuX"

[swarm]
listen = [
    "/ip4/127.0.0.1/tcp/25000",
    "/ip4/127.0.0.1/udp/25000/quic-v1",
]

[server]
listen = ["/ip4/127.0.0.1/tcp/24999"]
auth_mode = "proxy"

[server.admin]
enabled = true

[server.jsonrpc]
enabled = true
"#;
        assert_eq!(listen_port(merod), Some(24999));
    }

    #[test]
    fn only_loopback_urls_are_loopback() {
        for ok in [
            "http://127.0.0.1:2528",
            "http://localhost:1",
            "https://[::1]:2",
        ] {
            assert!(is_loopback_url(ok), "{ok}");
        }
        for bad in [
            "http://10.0.0.1:2528",
            "http://node.example",
            "ftp://127.0.0.1",
            "x",
        ] {
            assert!(!is_loopback_url(bad), "{bad}");
        }
    }
}
