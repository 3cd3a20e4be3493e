//! Real Calimero nodes (../shared/realnode) for end-to-end tests, on either of
//! the two versions there: [`Version::Rc4`] (calimero-node/server 0.11.0-rc.4
//! from crates.io in a launcher, `bin/calimero-node-rc4`) and
//! [`Version::Rc25`] (merod 0.11.0-rc.25 itself, `bin/merod-rc25`: `merod
//! init` with loopback listeners and no public bootstrap node, then `merod
//! run`, as `run-node.sh --version rc25` does). Every node runs on free
//! loopback ports with its own home in a tempdir and is stopped by a Drop
//! guard (also on panic). Without the node binary the tests print a loud
//! `skipped:` line; CALIMCP_REQUIRE_REALNODE=1 fails them.
//! `CALIMCP_REALNODE_PORTS=LOW-HIGH` keeps every port they use in a range.
//!
//! One scenario, every version: [`on_each_version!`] turns `fn name(v) {…}`
//! (or `async fn`) into a module `name` with one test per version, `name::rc4`
//! and `name::rc25`, so a scenario is written once and both nodes run it in
//! parallel (they share no port).
//!
//! Several peered nodes: [`Cluster`] (the admin calls of `multinode.sh`, in
//! Rust so that every node is a [`RealNode`] the test owns):
//!
//! ```ignore
//! let c = Cluster::start("test", v, 2, &test_app("events"), "com.example.events")?;
//! c.node(1)           // &RealNode (1-based), with the app installed and the context
//! c.app, c.namespace, c.context   // what node 1 created; nodes 2..=N are members
//! c.wait_initialized(2, ctx)      // until node 2 has the context's state (snapshot sync)
//! c.node_mut(2).restart()         // kill and start again, same ports and home
//! // more apps and contexts, for session-layer tests:
//! let app2 = c.node(1).install(&wasm, "com.example.other", "0.2.0");   // any node
//! let (ns2, ctx2) = c.node(1).create_namespace_context(&app2);
//! c.share(1, &ns2, &ctx2);        // every other node joins ns2 and ctx2
//! c.join(1, 2, &ns2, &ctx2);      // or one node: node 1 invites, node 2 joins
//! test_app_variant("events", "second")   // the same app built as another module: another app id
//! test_app_with_abi("events", "v1", |abi| …)   // the same code declaring another ABI: a new version
//! ```
//!
//! rc25 nodes dial node 1 (its swarm address is the `--boot` peer in their
//! config); rc4 nodes have no bootstrap list, so the cluster runs
//! `bin/introducer` (a rendezvous server on loopback) as `multinode.sh` does.
//! A joined node has the context at once but its state only after a snapshot
//! sync from a peer (a few seconds; `Uninitialized` until then), and the app's
//! code only after a blob share (`source: calimero://pending-blob-share`).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Which real node: the two of ../shared/realnode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Version {
    /// calimero-node/server 0.11.0-rc.4 (crates.io) in the launcher: no ABI
    /// route, `executorPublicKey` ignored, the first login creates the user.
    #[default]
    Rc4,
    /// merod 0.11.0-rc.25: the ABI route, the admin user created at init.
    Rc25,
}

impl Version {
    pub const ALL: [Version; 2] = [Version::Rc4, Version::Rc25];

    pub fn name(self) -> &'static str {
        match self {
            Version::Rc4 => "rc4",
            Version::Rc25 => "rc25",
        }
    }

    fn binary(self) -> PathBuf {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realnode/bin");
        dir.join(match self {
            Version::Rc4 => "calimero-node-rc4",
            Version::Rc25 => "merod-rc25",
        })
    }
}

/// One test per node version from one scenario: `on_each_version! { fn name(v) { … } }`
/// makes `name::rc4` and `name::rc25`, each calling the body with its [`Version`];
/// `async fn` makes tokio tests. Attributes (`#[ignore = …]`) apply to both.
macro_rules! on_each_version {
    ($(#[$attr:meta])* fn $name:ident($v:ident) $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            $(#[$attr])*
            #[test]
            fn rc4() {
                scenario(crate::support::realnode::Version::Rc4)
            }
            $(#[$attr])*
            #[test]
            fn rc25() {
                scenario(crate::support::realnode::Version::Rc25)
            }
            fn scenario($v: crate::support::realnode::Version) $body
        }
    };
    ($(#[$attr:meta])* async fn $name:ident($v:ident) $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            $(#[$attr])*
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn rc4() {
                scenario(crate::support::realnode::Version::Rc4).await
            }
            $(#[$attr])*
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn rc25() {
                scenario(crate::support::realnode::Version::Rc25).await
            }
            async fn scenario($v: crate::support::realnode::Version) $body
        }
    };
}
pub(crate) use on_each_version;

/// The user an embedded-auth node knows: rc25 creates it at `merod init`, rc4
/// at the first login ([`RealNode::login`]).
pub const USER: &str = "alice";
pub const PASSWORD: &str = "correct-horse";

pub struct RealNode {
    pub version: Version,
    /// The node's base URL, with the path prefix when one is set.
    pub url: String,
    /// The node's root URL (auth lives here even with a path prefix).
    pub root: String,
    /// calimcp's state directory for this node (`CALIMCP_STATE_DIR`): token and ABI caches.
    pub state: tempfile::TempDir,
    /// A bearer token for the admin helpers below, once `login` ran (embedded auth).
    pub token: Option<String>,
    pub port: u16,
    pub swarm_port: u16,
    child: Child,
    home: tempfile::TempDir,
    opts: Options,
    boot: Vec<String>,
}

/// How to start a node: `Options::default()` is an rc4 node with merod's
/// default (proxy auth, no prefix).
#[derive(Default, Clone)]
pub struct Options {
    pub version: Version,
    /// mero-auth inside the node (`user_password`): [`USER`] / [`PASSWORD`].
    pub embedded_auth: bool,
    /// Access-token lifetime in seconds (embedded auth), to exercise refresh
    /// (rc4: `REALNODE_ACCESS_TTL`; rc25: `access_token_expiry` in config.toml).
    pub access_ttl: Option<u64>,
    /// `NODE_PATH_PREFIX`: admin-api, jsonrpc and ws move under it; auth and
    /// sse stay at the root (both versions read it the same way).
    pub path_prefix: Option<String>,
}

impl Options {
    /// The default options on a version.
    pub fn on(version: Version) -> Options {
        Options {
            version,
            ..Options::default()
        }
    }
}

impl Drop for RealNode {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn skip<T>(test: &str, why: &str) -> Option<T> {
    if std::env::var_os("CALIMCP_REQUIRE_REALNODE").is_some_and(|v| v == "1") {
        panic!("{test}: {why} (CALIMCP_REQUIRE_REALNODE=1)");
    }
    eprintln!("skipped: {test}: {why}");
    None
}

/// `CALIMCP_REALNODE_PORTS=LOW-HIGH` keeps every port the real-node tests
/// give a node (server, swarm, rc4's introducer) in that range, for machines
/// whose firewall or other services want them there; unset, the system picks
/// any free port. A malformed value fails the test saying the form.
fn port_range() -> Option<std::ops::RangeInclusive<u16>> {
    let v = std::env::var("CALIMCP_REALNODE_PORTS").ok()?;
    let parsed = v.split_once('-').and_then(|(lo, hi)| {
        let (lo, hi) = (
            lo.trim().parse::<u16>().ok()?,
            hi.trim().parse::<u16>().ok()?,
        );
        (lo >= 1024 && lo <= hi).then_some(lo..=hi)
    });
    Some(parsed.unwrap_or_else(|| {
        panic!(
            "CALIMCP_REALNODE_PORTS={v:?}: expected LOW-HIGH, e.g. 41000-41999 (ports 1024 and up)"
        )
    }))
}

fn free_port() -> u16 {
    let Some(range) = port_range() else {
        return TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
    };
    // Tests run in parallel: each call starts further along the range, so
    // two tests rarely try the same port (one that is taken meanwhile is
    // handled as for system-picked ports: the node is started again).
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let len = u32::from(range.end() - range.start()) + 1;
    let offset = std::process::id() % len;
    for _ in 0..len {
        let i = (NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + offset) % len;
        let port = range.start() + i as u16;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("CALIMCP_REALNODE_PORTS: no free port in {range:?}")
}

/// A port free for TCP and UDP (rc25's swarm listens on both: tcp and quic).
fn free_swarm_port() -> u16 {
    // Bounded: with a port range, its every port may be taken for UDP.
    for _ in 0..10_000 {
        let port = free_port();
        if std::net::UdpSocket::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no port free for both TCP and UDP")
}

fn healthy(port: u16, prefix: &str) -> bool {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let req = &format!(
        "GET {prefix}/admin-api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    );
    if s.write_all(req.as_bytes()).is_err() {
        return false;
    }
    let mut buf = String::new();
    let _ = s.read_to_string(&mut buf);
    buf.starts_with("HTTP/1.1 200")
}

/// rc25: `merod init` once per home (loopback listeners, the embedded-auth
/// user, the token lifetime), then the public bootstrap nodes merod writes
/// replaced by `boot` (loopback peers only), as run-node.sh does.
fn merod_init(home: &Path, port: u16, swarm: u16, opts: &Options, boot: &[String]) {
    let bin = Version::Rc25.binary();
    let cfg = home.join("node/config.toml");
    if !cfg.is_file() {
        let mut cmd = Command::new(&bin);
        cmd.arg("--home").arg(home).args(["--node", "node", "init"]);
        cmd.args(["--server-port", &port.to_string()])
            .args(["--swarm-port", &swarm.to_string()])
            .args(["--swarm-host", "127.0.0.1", "--server-host", "127.0.0.1"]);
        if opts.embedded_auth {
            let pw = home.join("admin-password");
            std::fs::write(&pw, PASSWORD).unwrap();
            cmd.args(["--auth-mode", "embedded", "--admin-user", USER])
                .arg("--admin-password-file")
                .arg(&pw);
        }
        let out = cmd
            .env("RUST_LOG", "warn")
            .output()
            .expect("merod init runs");
        assert!(
            out.status.success(),
            "merod init failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(&cfg).unwrap();
    let at = text
        .find("[bootstrap]\nnodes = [")
        .expect("a [bootstrap] section");
    let open = at + "[bootstrap]\nnodes = [".len();
    let close = open + text[open..].find(']').unwrap();
    let nodes = boot
        .iter()
        .map(|b| format!("\"{b}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let mut text = format!("{}{nodes}{}", &text[..open], &text[close..]);
    if let Some(ttl) = opts.access_ttl {
        text = text.replace(
            "access_token_expiry = 3600",
            &format!("access_token_expiry = {ttl}"),
        );
    }
    std::fs::write(&cfg, text).unwrap();
}

/// The node's command for a home, ports and options (rc25: after `merod_init`).
fn node_command(
    version: Version,
    home: &Path,
    port: u16,
    swarm: u16,
    opts: &Options,
    boot: &[String],
) -> Command {
    let bin = version.binary();
    let mut cmd = match version {
        Version::Rc4 => {
            let mut cmd = Command::new(&bin);
            cmd.env("REALNODE_HOME", home)
                .env("REALNODE_PORT", port.to_string())
                .env("REALNODE_SWARM_PORT", swarm.to_string())
                .env(
                    "REALNODE_AUTH",
                    if opts.embedded_auth {
                        "embedded"
                    } else {
                        "proxy"
                    },
                );
            if let Some(ttl) = opts.access_ttl {
                cmd.env("REALNODE_ACCESS_TTL", ttl.to_string());
            }
            cmd
        }
        Version::Rc25 => {
            merod_init(home, port, swarm, opts, boot);
            let mut cmd = Command::new(&bin);
            cmd.arg("--home").arg(home).args(["--node", "node", "run"]);
            cmd
        }
    };
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(home.join("node.log"))
        .unwrap();
    cmd.env(
        "RUST_LOG",
        std::env::var("REALNODE_TEST_LOG").unwrap_or_else(|_| "warn".into()),
    )
    .env_remove("NODE_PATH_PREFIX")
    .stdout(Stdio::null())
    .stderr(log);
    if let Some(prefix) = opts.path_prefix.as_deref().filter(|p| !p.is_empty()) {
        cmd.env("NODE_PATH_PREFIX", prefix);
    }
    cmd
}

impl RealNode {
    /// Starts an rc4 node with proxy auth (none in the node), or skips.
    pub fn start(test: &str) -> Option<RealNode> {
        Self::start_with(test, Options::default())
    }

    /// Starts a node of `version` with proxy auth, or skips.
    pub fn start_on(version: Version, test: &str) -> Option<RealNode> {
        Self::start_with(
            test,
            Options {
                version,
                ..Options::default()
            },
        )
    }

    /// Starts a node with the given options, or skips (loudly; a failure under
    /// CALIMCP_REQUIRE_REALNODE=1).
    pub fn start_with(test: &str, opts: Options) -> Option<RealNode> {
        Self::start_booting(test, opts, Vec::new())
    }

    /// [`RealNode::start_with`] with rc25 `--boot` peers (swarm multiaddrs, see
    /// [`RealNode::peer_addr`]).
    pub fn start_booting(test: &str, opts: Options, boot: Vec<String>) -> Option<RealNode> {
        let version = opts.version;
        if !version.binary().is_file() {
            return skip(
                test,
                &format!("no real node at {}", version.binary().display()),
            );
        }
        // A port picked free may be taken by another test's node before this
        // one binds it: a node that exits while starting is started again on
        // other ports, in a fresh home (three tries).
        let mut tries = 0;
        loop {
            tries += 1;
            let home = tempfile::tempdir().expect("tempdir");
            let (port, swarm_port) = (free_port(), free_swarm_port());
            let child = node_command(version, home.path(), port, swarm_port, &opts, &boot)
                .spawn()
                .expect("the node starts");
            let prefix = opts.path_prefix.clone().unwrap_or_default();
            let root = format!("http://127.0.0.1:{port}");
            let mut node = RealNode {
                version,
                url: format!("{root}{prefix}"),
                root,
                state: tempfile::tempdir().expect("tempdir"),
                token: None,
                port,
                swarm_port,
                child,
                home,
                opts: opts.clone(),
                boot: boot.clone(),
            };
            match node.try_wait_healthy() {
                Ok(()) => return Some(node),
                Err(e) if tries < 3 => eprintln!("{test}: the node did not start ({e}); again"),
                Err(e) => panic!("{e}"),
            }
        }
    }

    /// The node's data directory (its `node.log` is there).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// The node's log so far (stderr; `REALNODE_TEST_LOG` sets its filter, default `warn`).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.home.path().join("node.log")).unwrap_or_default()
    }

    /// rc25: the node's loopback swarm address, for another node's `--boot`.
    pub fn peer_addr(&self) -> String {
        let cfg = std::fs::read_to_string(self.home.path().join("node/config.toml"))
            .expect("an rc25 node config");
        let id = cfg
            .lines()
            .find_map(|l| l.strip_prefix("peer_id = \""))
            .and_then(|l| l.strip_suffix('"'))
            .expect("peer_id in config.toml");
        format!("/ip4/127.0.0.1/tcp/{}/p2p/{id}", self.swarm_port)
    }

    fn wait_healthy(&mut self) {
        if let Err(e) = self.try_wait_healthy() {
            panic!("{e}");
        }
    }

    fn try_wait_healthy(&mut self) -> Result<(), String> {
        let prefix = self.opts.path_prefix.clone().unwrap_or_default();
        let deadline = Instant::now() + Duration::from_secs(60);
        while !healthy(self.port, &prefix) {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!("the real node exited: {status}\n{}", self.log()));
            }
            if Instant::now() > deadline {
                return Err("the real node not healthy in 60 s".into());
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        Ok(())
    }

    /// Stops the node (kill) and keeps its home; [`RealNode::restart`] brings it back.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Stops the node and starts it again on the same ports and home (its
    /// apps, contexts and SSE sessions kept); returns once it is healthy.
    pub fn restart(&mut self) {
        self.kill();
        // The port may linger for a moment after the kill: retry the start.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            self.child = node_command(
                self.version,
                self.home.path(),
                self.port,
                self.swarm_port,
                &self.opts,
                &self.boot,
            )
            .spawn()
            .expect("the node starts again");
            std::thread::sleep(Duration::from_millis(100));
            match self.child.try_wait() {
                Ok(Some(_)) if Instant::now() < deadline => continue,
                _ => break,
            }
        }
        self.wait_healthy();
    }
    /// The calimcp binary pointed at this node, with its own state directory
    /// and no inherited node/token/apps settings.
    pub fn calimcp(&self) -> assert_cmd::Command {
        let mut c = assert_cmd::Command::cargo_bin("calimcp").unwrap();
        c.env("CALIMERO_NODE_URL", &self.url)
            .env("CALIMCP_STATE_DIR", self.state.path())
            .env_remove("CALIMERO_AUTH_TOKEN")
            .env_remove("CALIMCP_APPS")
            .env_remove("CALIMCP_OFFLINE")
            .env("NO_COLOR", "1");
        c
    }

    /// [`RealNode::calimcp`] as a `std::process::Command`, for runs that go
    /// on in the background (`watch`).
    pub fn calimcp_std(&self) -> Command {
        let mut c = Command::new(assert_cmd::cargo::cargo_bin("calimcp"));
        c.env("CALIMERO_NODE_URL", &self.url)
            .env("CALIMCP_STATE_DIR", self.state.path())
            .env_remove("CALIMERO_AUTH_TOKEN")
            .env_remove("CALIMCP_APPS")
            .env_remove("CALIMCP_OFFLINE")
            .env("NO_COLOR", "1");
        c
    }

    /// One admin request (`path` under the base URL, or under the root when it
    /// starts with `/auth`); panics with the answer unless it is 2xx.
    pub fn admin(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let base = if path.starts_with("/auth") {
            &self.root
        } else {
            &self.url
        };
        let (status, text) = http(
            method,
            &format!("{base}{path}"),
            body,
            self.token.as_deref(),
        );
        assert!(
            (200..300).contains(&status),
            "{method} {path}: HTTP {status}: {text}"
        );
        if text.trim().is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"))
        }
    }

    /// Embedded auth: logs in as [`USER`] (rc4: the first login creates the
    /// user; rc25: created at init) and keeps the access token for `admin`.
    /// Returns the token pair.
    pub fn login_user(&mut self) -> (String, String) {
        self.login(USER, PASSWORD)
    }

    /// Embedded auth: logs in (rc4: the first login creates the user) and keeps
    /// the access token for `admin`. Returns the token pair.
    pub fn login(&mut self, user: &str, password: &str) -> (String, String) {
        let ts = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let body = json!({
            "auth_method": "user_password", "public_key": user, "client_name": "calimcp-tests",
            "timestamp": ts, "permissions": ["admin"],
            "provider_data": {"username": user, "password": password}
        });
        let v = self.admin("POST", "/auth/token", Some(&body));
        let access = v["data"]["access_token"]
            .as_str()
            .expect("access_token")
            .to_string();
        let refresh = v["data"]["refresh_token"]
            .as_str()
            .expect("refresh_token")
            .to_string();
        self.token = Some(access.clone());
        (access, refresh)
    }

    /// Installs a `.wasm` (a dev install from a path) and returns the application id.
    pub fn install(&self, wasm: &Path, package: &str, version: &str) -> String {
        self.install_with_metadata(wasm, package, version, &[])
    }

    /// [`RealNode::install`] with `metadata` bytes (UTF-8 JSON such as
    /// `{"name", "guide", "icon"}`), sent as the node takes them: a JSON
    /// array of byte values.
    pub fn install_with_metadata(
        &self,
        wasm: &Path,
        package: &str,
        version: &str,
        metadata: &[u8],
    ) -> String {
        // rc25 refuses a path with `..` in it.
        let wasm =
            std::fs::canonicalize(wasm).unwrap_or_else(|e| panic!("{}: {e}", wasm.display()));
        let body =
            json!({"path": wasm, "metadata": metadata, "package": package, "version": version});
        let v = self.admin("POST", "/admin-api/install-dev-application", Some(&body));
        v["data"]["applicationId"]
            .as_str()
            .expect("applicationId")
            .to_string()
    }

    /// Creates a namespace and a context of `app`; returns (context id, member public key).
    pub fn create_context(&self, app: &str) -> (String, String) {
        self.create_service_context(app, None)
    }

    /// [`RealNode::create_context`] running one service of a multi-service app.
    pub fn create_service_context(&self, app: &str, service: Option<&str>) -> (String, String) {
        let (_, ctx, member) = self.create_context_full(app, service);
        (ctx, member)
    }

    /// Creates a namespace and a context of `app` in it; returns (namespace id, context id).
    pub fn create_namespace_context(&self, app: &str) -> (String, String) {
        let (ns, ctx, _) = self.create_context_full(app, None);
        (ns, ctx)
    }

    /// (namespace id, context id, member public key) of a new namespace and context.
    pub fn create_context_full(
        &self,
        app: &str,
        service: Option<&str>,
    ) -> (String, String, String) {
        let ns = self.admin(
            "POST",
            "/admin-api/namespaces",
            Some(&json!({"applicationId": app, "upgradePolicy": "LazyOnAccess"})),
        );
        let ns = ns["data"]["namespaceId"]
            .as_str()
            .expect("namespaceId")
            .to_string();
        let mut body = json!({"applicationId": app, "contextSeed": null, "initializationParams": [],
                          "groupId": ns, "identitySecret": null});
        if let Some(svc) = service {
            body["serviceName"] = svc.into();
        }
        let v = self.admin("POST", "/admin-api/contexts", Some(&body));
        (
            ns,
            v["data"]["contextId"]
                .as_str()
                .expect("contextId")
                .to_string(),
            v["data"]["memberPublicKey"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        )
    }

    /// A context of `app` created in namespace `ns` (its id).
    pub fn create_context_in(&self, app: &str, ns: &str) -> String {
        let body = json!({"applicationId": app, "contextSeed": null, "initializationParams": [],
                          "groupId": ns, "identitySecret": null});
        self.admin("POST", "/admin-api/contexts", Some(&body))["data"]["contextId"]
            .as_str()
            .expect("contextId")
            .to_string()
    }

    /// Names a context with an alias on the node.
    pub fn alias_context(&self, alias: &str, context: &str) {
        self.admin(
            "POST",
            "/admin-api/alias/create/context",
            Some(&json!({"alias": alias, "contextId": context})),
        );
    }

    /// Installs `wasm` as `package`, creates a context and aliases it; returns
    /// (application id, context id).
    pub fn setup(&self, wasm: &Path, package: &str, alias: Option<&str>) -> (String, String) {
        let app = self.install(wasm, package, "0.1.0");
        let (ctx, _) = self.create_context(&app);
        if let Some(a) = alias {
            self.alias_context(a, &ctx);
        }
        (app, ctx)
    }
}

impl RealNode {
    /// One admin request that may fail: (HTTP status, body text).
    pub fn try_admin(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
        let base = if path.starts_with("/auth") {
            &self.root
        } else {
            &self.url
        };
        http(
            method,
            &format!("{base}{path}"),
            body,
            self.token.as_deref(),
        )
    }

    /// One JSON-RPC `execute` straight to the node (no calimcp): the whole
    /// JSON-RPC answer, for set-up and for timing the node on its own.
    pub fn execute(&self, context: &str, method: &str, args: Value) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "execute", "params": {
            "contextId": context, "method": method, "argsJson": args,
            "executorPublicKey": "11111111111111111111111111111111"}});
        let (status, text) = http(
            "POST",
            &format!("{}/jsonrpc", self.url),
            Some(&body),
            self.token.as_deref(),
        );
        assert_eq!(status, 200, "execute {method}: HTTP {status}: {text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    /// The context's root hash as the node lists it (`11111111111111111111111111111111`,
    /// the zero hash in base58, until its state exists: a joiner before its sync).
    pub fn context_root(&self, context: &str) -> String {
        let v = self.admin("GET", &format!("/admin-api/contexts/{context}"), None);
        v["data"]["contextStateHash"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Connected peers (`GET /admin-api/peers`).
    pub fn peers(&self) -> u64 {
        let (status, text) = self.try_admin("GET", "/admin-api/peers", None);
        if status != 200 {
            return 0;
        }
        serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v["count"].as_u64())
            .unwrap_or(0)
    }
}

/// The zero root hash in base58: a context with no state yet.
pub const ZERO_ROOT: &str = "11111111111111111111111111111111";

/// N peered nodes of one version: node 1 has `app` installed, a namespace and
/// a context of it; nodes 2..=N are members of both (see the module comment).
pub struct Cluster {
    pub version: Version,
    pub app: String,
    pub package: String,
    pub namespace: String,
    pub context: String,
    nodes: Vec<RealNode>,
    introducer: Option<Child>,
    /// How many introducers were started (rc4).
    introductions: u32,
    dir: tempfile::TempDir,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(child) = self.introducer.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
        // the nodes stop in their own Drop
    }
}

impl Cluster {
    /// Starts `n` nodes of `version` (in parallel where they can), peers them,
    /// installs `wasm` as `package` 0.1.0 on node 1 with a namespace and a
    /// context, and makes every other node a member. Skips like
    /// [`RealNode::start`] without the node binary (or the introducer, rc4).
    pub fn start(
        test: &str,
        version: Version,
        n: usize,
        wasm: &Path,
        package: &str,
    ) -> Option<Cluster> {
        Self::start_with(
            test,
            Options {
                version,
                ..Options::default()
            },
            n,
            wasm,
            package,
        )
    }

    /// [`Cluster::start`] with node options (the same for every node).
    pub fn start_with(
        test: &str,
        opts: Options,
        n: usize,
        wasm: &Path,
        package: &str,
    ) -> Option<Cluster> {
        assert!(n >= 1);
        // One cluster forms at a time in a test binary: two forming at once on
        // a 2-core machine starve each other's gossip heartbeats (rc4's mesh
        // then takes longer than its namespace join waits).
        static FORMING: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _forming = FORMING.lock().unwrap_or_else(|e| e.into_inner());
        let version = opts.version;
        let introducer_bin =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realnode/bin/introducer");
        if version == Version::Rc4 && n > 1 && !introducer_bin.is_file() {
            return skip(test, "no ../shared/realnode/bin/introducer");
        }
        let first = RealNode::start_with(test, opts.clone())?;
        let boot = match version {
            Version::Rc25 => vec![first.peer_addr()],
            Version::Rc4 => Vec::new(),
        };
        let mut nodes = vec![first];
        let rest: Vec<RealNode> = std::thread::scope(|s| {
            let handles: Vec<_> = (1..n)
                .map(|_| {
                    let (opts, boot) = (opts.clone(), boot.clone());
                    s.spawn(move || RealNode::start_booting(test, opts, boot))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .expect("a node starts")
                        .expect("the binary is there")
                })
                .collect()
        });
        nodes.extend(rest);
        let dir = tempfile::tempdir().expect("tempdir");
        let mut cluster = Cluster {
            version,
            app: String::new(),
            package: package.to_string(),
            namespace: String::new(),
            context: String::new(),
            nodes,
            introducer: None,
            introductions: 0,
            dir,
        };
        if version == Version::Rc4 && n > 1 {
            cluster.start_introducer();
        }
        cluster.wait_peered();
        if wasm.as_os_str().is_empty() {
            return Some(cluster);
        }
        let node1 = &cluster.nodes[0];
        cluster.app = node1.install(wasm, package, "0.1.0");
        let (ns, ctx) = node1.create_namespace_context(&cluster.app);
        cluster.share(1, &ns, &ctx);
        (cluster.namespace, cluster.context) = (ns, ctx);
        Some(cluster)
    }

    /// [`Cluster::start`] without an app: `n` peered nodes, nothing
    /// installed (the test installs and shares with calimcp itself).
    pub fn start_empty(test: &str, version: Version, n: usize) -> Option<Cluster> {
        Self::start(test, version, n, Path::new(""), "")
    }

    /// Node `i`, 1-based.
    pub fn node(&self, i: usize) -> &RealNode {
        &self.nodes[i - 1]
    }

    /// Node `i`, 1-based, to restart or kill it.
    pub fn node_mut(&mut self, i: usize) -> &mut RealNode {
        &mut self.nodes[i - 1]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Starts (or starts again) the rc4 nodes' introducer.
    fn start_introducer(&mut self) {
        if let Some(mut old) = self.introducer.take() {
            let _ = old.kill();
            let _ = old.wait();
        }
        self.introductions += 1;
        let bin =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realnode/bin/introducer");
        let mut cmd = Command::new(bin);
        cmd.arg(free_port().to_string());
        for node in &self.nodes {
            cmd.arg(format!("{}:{}", node.home().display(), node.swarm_port));
        }
        let log = self
            .dir
            .path()
            .join(format!("introducer-{}.log", self.introductions));
        let log = std::fs::File::create(log).unwrap();
        let child = cmd
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("the introducer starts");
        self.introducer = Some(child);
    }

    /// Until every node is connected to the others (150 s at most).
    ///
    /// rc4 nodes find each other through the introducer: a node that meets
    /// it asks for the others' records, then at most once per 120 s
    /// (rc4's `discovery_rpm` 0.5 per rendezvous peer). When a node asked
    /// before the other nodes were registered — the introducer registers
    /// them one by one, and a busy machine stretches that — it finds no one
    /// for two minutes. A new introducer (a new peer id, so not throttled)
    /// registers every node before it meets them: after 20 s without
    /// peering, start one.
    pub fn wait_peered(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(150);
        let mut round = Instant::now();
        while !self.peered() {
            assert!(
                Instant::now() < deadline,
                "the nodes did not peer in 150 s ({} introducers; logs in {})",
                self.introductions,
                self.dir.path().display()
            );
            if self.introducer.is_some() && round.elapsed() > Duration::from_secs(20) {
                eprintln!(
                    "rc4 nodes not peered after 20 s: introducer {} starts",
                    self.introductions + 1
                );
                self.start_introducer();
                round = Instant::now();
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Whether every node is connected to the others. rc4: the introducer
    /// stays connected to every node and counts as a peer (`/admin-api/peers`
    /// is the swarm's connected peers), so a node sees n peers — one alone
    /// means it has not found the other nodes yet, and a namespace join
    /// then fails with "no mesh peer". rc25: nodes 2..n dial node 1.
    fn peered(&self) -> bool {
        match (self.version, &self.introducer) {
            (Version::Rc4, Some(_)) => {
                let n = self.nodes.len() as u64;
                self.nodes.iter().all(|node| node.peers() >= n)
            }
            _ => self.nodes[1..].iter().all(|n| n.peers() >= 1),
        }
    }

    /// Node `from` invites node `to` into namespace `ns`; node `to` joins it and context `ctx`.
    pub fn join(&self, from: usize, to: usize, ns: &str, ctx: &str) {
        let inv = self.node(from).admin(
            "POST",
            &format!("/admin-api/namespaces/{ns}/invite"),
            Some(&json!({})),
        );
        let invitation = inv["data"]["invitation"].clone();
        assert!(!invitation.is_null(), "an invitation: {inv}");
        let to = self.node(to);
        // rc4 answers 500 "could not open a namespace-join stream to any mesh
        // peer" while the nodes' gossip mesh is still forming (or after a
        // connection dropped under load and is being dialled again): wait
        // until the nodes are connected again and try again, up to 150 s.
        let body = json!({ "invitation": invitation });
        let path = format!("/admin-api/namespaces/{ns}/join");
        let deadline = Instant::now() + Duration::from_secs(150);
        loop {
            let (status, text) = to.try_admin("POST", &path, Some(&body));
            if (200..300).contains(&status) {
                break;
            }
            assert!(
                Instant::now() < deadline && text.contains("mesh peer"),
                "POST {path}: HTTP {status}: {text}\n--- node {from} log:\n{}\n--- joining node log:\n{}",
                tail(&self.node(from).log()),
                tail(&to.log()),
            );
            while Instant::now() < deadline && !self.peered() {
                std::thread::sleep(Duration::from_millis(200));
            }
            std::thread::sleep(Duration::from_secs(1));
        }
        to.admin(
            "POST",
            &format!("/admin-api/contexts/{ctx}/join"),
            Some(&json!({})),
        );
    }

    /// Every node but `from` joins namespace `ns` and context `ctx` (invited by `from`).
    pub fn share(&self, from: usize, ns: &str, ctx: &str) {
        for to in 1..=self.len() {
            if to != from {
                self.join(from, to, ns, ctx);
            }
        }
    }

    /// Until node `i` has context `ctx`'s state (its root is no longer zero,
    /// so calls stop answering `Uninitialized`); how long that took. 90 s at most.
    pub fn wait_initialized(&self, i: usize, ctx: &str) -> Duration {
        let started = Instant::now();
        while self.node(i).context_root(ctx) == ZERO_ROOT {
            assert!(
                started.elapsed() < Duration::from_secs(90),
                "node {i} has no state for {ctx} after 90 s:\n{}",
                self.node(i).log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        started.elapsed()
    }
}

/// The last 40 lines of a log, for a failure message.
fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

/// A `calimcp watch` running in the background: its stdout and stderr are
/// read by threads, so a test knows when the subscription is in place and can
/// wait for each printed line.
pub struct Watch {
    child: Child,
    pub stderr: std::sync::mpsc::Receiver<String>,
    stdout: std::sync::mpsc::Receiver<String>,
    /// The stderr lines read so far.
    pub seen: Vec<String>,
    /// The stdout lines taken with [`Watch::next_line`].
    pub printed: Vec<String>,
}

fn line_reader(r: impl Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(r).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

impl Watch {
    /// `calimcp watch ARGS…` against `node`; returns once it says `watching …`.
    pub fn start(node: &RealNode, args: &[&str]) -> Watch {
        Watch::spawn(node.calimcp_std(), args)
    }

    pub fn spawn(mut cmd: Command, args: &[&str]) -> Watch {
        let mut child = cmd
            .arg("watch")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("calimcp starts");
        let stderr = line_reader(child.stderr.take().unwrap());
        let stdout = line_reader(child.stdout.take().unwrap());
        let mut w = Watch {
            child,
            stderr,
            stdout,
            seen: Vec::new(),
            printed: Vec::new(),
        };
        // The note comes once the node has accepted the subscription.
        w.wait_stderr("watching ", Duration::from_secs(60));
        w
    }

    /// Until a stderr line contains `needle` (panics after `within`).
    pub fn wait_stderr(&mut self, needle: &str, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.stderr.recv_timeout(left) {
                Ok(line) => {
                    let found = line.contains(needle);
                    self.seen.push(line);
                    if found {
                        return;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("no `{needle}` from watch; stderr: {:?}", self.seen);
                }
            }
        }
    }

    /// The next printed line, if one comes within `within`.
    pub fn next_line(&mut self, within: Duration) -> Option<String> {
        let line = self.stdout.recv_timeout(within).ok()?;
        self.printed.push(line.clone());
        Some(line)
    }

    /// Waits for the exit (the watch has its own --timeout as a bound): (exit
    /// code, the stdout lines not taken with `next_line`, all of stderr).
    pub fn finish(mut self) -> (i32, String, String) {
        let status = self.child.wait().unwrap();
        let mut out = String::new();
        while let Ok(line) = self.stdout.recv_timeout(Duration::from_secs(5)) {
            out.push_str(&line);
            out.push('\n');
        }
        while let Ok(line) = self.stderr.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(line);
        }
        (status.code().unwrap_or(-1), out, self.seen.join("\n"))
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The shared test app (`../shared/realnode/app/kv.wasm`, package com.example.kv-c).
pub fn shared_kv_app() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realnode/app/kv.wasm")
}

/// The project's kv app (`testapps/kv`: the shared kv.c's methods over a state
/// that holds on rc4 and rc25); install it as `com.example.kv-c`.
pub fn kv_app() -> PathBuf {
    test_app("kv")
}

/// One of the project's own test apps, `testapps/<name>/` (app.c + abi.json),
/// built by `testapps/build.sh` into `target/testapps/<name>.wasm` when missing
/// or older than its sources. Needs clang and wasm-ld (`.ci/run` installs them).
pub fn test_app(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out_dir = root.join("target/testapps");
    let out = out_dir.join(format!("{name}.wasm"));
    let src = root.join("testapps").join(name);
    // The app's own sources and the header every app includes.
    let newest_src = [src.clone(), root.join("testapps/include")]
        .iter()
        .flat_map(|dir| {
            std::fs::read_dir(dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .filter_map(|e| e.ok()?.metadata().ok()?.modified().ok())
        })
        .max();
    let built = std::fs::metadata(&out).and_then(|m| m.modified()).ok();
    if built.is_none() || newest_src > built {
        // Tests of one binary run in parallel: build under a lock file.
        std::fs::create_dir_all(&out_dir).unwrap();
        let status = Command::new("bash")
            .arg(root.join("testapps/build.sh"))
            .arg(name)
            .arg(&out_dir)
            .status()
            .expect("bash runs testapps/build.sh");
        assert!(
            status.success(),
            "testapps/build.sh {name} failed (needs clang and wasm-ld: apt-get install clang lld)"
        );
    }
    out
}

/// [`test_app`] `name` with its ABI (`testapps/NAME/abi.json`) edited by
/// `edit`: the same code, another module (another blob and application id)
/// declaring other methods — what a new version of an app looks like to the
/// node. Written beside the app as `NAME-abi-TAG.wasm`.
pub fn test_app_with_abi(name: &str, tag: &str, edit: impl Fn(&mut Value)) -> PathBuf {
    let base = test_app(name);
    let bytes = std::fs::read(&base).unwrap();
    // Drop the calimero_abi_v1 custom section, keep every other section.
    let mut out = bytes[..8].to_vec();
    let mut i = 8;
    let leb = |b: &[u8], i: &mut usize| {
        let (mut n, mut shift) = (0usize, 0);
        loop {
            let byte = b[*i];
            *i += 1;
            n |= ((byte & 0x7f) as usize) << shift;
            if byte & 0x80 == 0 {
                return n;
            }
            shift += 7;
        }
    };
    while i < bytes.len() {
        let start = i;
        let id = bytes[i];
        i += 1;
        let len = leb(&bytes, &mut i);
        let body = i;
        i += len;
        if id == 0 {
            let mut j = body;
            let name_len = leb(&bytes, &mut j);
            if &bytes[j..j + name_len] == b"calimero_abi_v1" {
                continue;
            }
        }
        out.extend_from_slice(&bytes[start..i]);
    }
    let mut abi: Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("testapps")
                .join(name)
                .join("abi.json"),
        )
        .unwrap(),
    )
    .unwrap();
    edit(&mut abi);
    push_custom_section(&mut out, b"calimero_abi_v1", abi.to_string().as_bytes());
    write_module(&base.with_file_name(format!("{name}-abi-{tag}.wasm")), &out)
}

/// Appends a custom section `name` holding `content` to a module.
fn push_custom_section(module: &mut Vec<u8>, name: &[u8], content: &[u8]) {
    let mut payload = Vec::new();
    push_leb(name.len(), &mut payload);
    payload.extend_from_slice(name);
    payload.extend_from_slice(content);
    module.push(0);
    push_leb(payload.len(), module);
    module.extend_from_slice(&payload);
}

/// Writes a module where tests running at once never see it half written.
fn write_module(path: &Path, bytes: &[u8]) -> PathBuf {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, path).unwrap();
    path.to_path_buf()
}

/// `n` as an unsigned LEB128 (a wasm section's size).
fn push_leb(mut n: usize, out: &mut Vec<u8>) {
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// [`test_app`] as another module: the same code with a custom section
/// `calimcp_variant` holding `variant`, so installing it gives another blob and
/// another application id (two apps sharing every method name).
pub fn test_app_variant(name: &str, variant: &str) -> PathBuf {
    let base = test_app(name);
    let mut bytes = std::fs::read(&base).unwrap();
    push_custom_section(&mut bytes, b"calimcp_variant", variant.as_bytes());
    write_module(
        &base.with_file_name(format!("{name}-{variant}.wasm")),
        &bytes,
    )
}

/// A minimal blocking HTTP/1.1 client for the admin helpers (Connection: close).
fn http(method: &str, url: &str, body: Option<&Value>, token: Option<&str>) -> (u16, String) {
    let rest = url.strip_prefix("http://").expect("http URL");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let mut s = TcpStream::connect(host).expect("connect to the node");
    s.set_read_timeout(Some(Duration::from_secs(150))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, mut payload) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status: u16 = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let mut out = String::new();
    if chunked {
        while let Some((len, rest)) = payload.split_once("\r\n") {
            let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
            if n == 0 || rest.len() < n {
                break;
            }
            out.push_str(&rest[..n]);
            payload = rest[n..].trim_start_matches("\r\n");
        }
    } else {
        out = payload.to_string();
    }
    (status, out)
}

/// An `.mpk` bundle (tar.gz with `manifest.json`) of `package` with one
/// service per `(name, module)`, written into `dir`.
pub fn bundle(dir: &Path, package: &str, services: &[(&str, &Path)]) -> PathBuf {
    let manifest = json!({
        "version": "1.0", "package": package, "appVersion": "0.1.0", "minRuntimeVersion": "0.1.0",
        "metadata": {"name": package, "description": "a test bundle"},
        // rc25 checks each artifact: `hash` is the hex SHA-256 of the module (rc4 ignores it).
        "services": services.iter().map(|(name, module)| {
            use sha2::Digest;
            let bytes = std::fs::read(module).unwrap();
            let hash: String = sha2::Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
            json!({"name": name, "wasm": {"path": format!("{name}.wasm"), "hash": hash, "size": bytes.len()}})
        }).collect::<Vec<_>>(),
    });
    let out = dir.join(format!("{package}.mpk"));
    let file = std::fs::File::create(&out).unwrap();
    let gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    let add = |tar: &mut tar::Builder<_>, name: &str, bytes: &[u8]| {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, name, bytes).unwrap();
    };
    add(&mut tar, "manifest.json", manifest.to_string().as_bytes());
    for (name, module) in services {
        add(
            &mut tar,
            &format!("{name}.wasm"),
            &std::fs::read(module).unwrap(),
        );
    }
    tar.into_inner().unwrap().finish().unwrap();
    out
}
