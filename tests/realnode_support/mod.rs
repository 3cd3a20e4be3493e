//! A real Calimero node (../shared/realnode, 0.11.0-rc.4) for end-to-end tests:
//! one node per scenario on a free loopback port with its own home in a
//! tempdir, stopped by a Drop guard (also on panic). Without the node the
//! tests print a loud `skipped:` line; CALIMCP_REQUIRE_REALNODE=1 fails them.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct RealNode {
    /// The node's base URL, with the path prefix when one is set.
    pub url: String,
    /// The node's root URL (auth lives here even with a path prefix).
    pub root: String,
    /// calimcp's state directory for this node (`CALIMCP_STATE_DIR`): token and ABI caches.
    pub state: tempfile::TempDir,
    /// A bearer token for the admin helpers below, once `login` ran (embedded auth).
    pub token: Option<String>,
    child: Child,
    _home: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    opts: Options,
}

/// How to start a node: `Options::default()` is merod's default (proxy auth, no prefix).
#[derive(Default, Clone)]
pub struct Options {
    /// mero-auth inside the node (`user_password`; the first login creates the user).
    pub embedded_auth: bool,
    /// Access-token lifetime in seconds (embedded auth), to exercise refresh.
    pub access_ttl: Option<u64>,
    /// `NODE_PATH_PREFIX`: admin-api and jsonrpc move under it, auth stays at the root.
    pub path_prefix: Option<String>,
}

impl Drop for RealNode {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn binary() -> Option<PathBuf> {
    let bin =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realnode/bin/calimero-node-rc4");
    bin.is_file().then_some(bin)
}

fn skip(test: &str, why: &str) -> Option<RealNode> {
    if std::env::var_os("CALIMCP_REQUIRE_REALNODE").is_some_and(|v| v == "1") {
        panic!("{test}: {why} (CALIMCP_REQUIRE_REALNODE=1)");
    }
    eprintln!("skipped: {test}: {why}");
    None
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

/// The node binary's command for a home, a port and options.
fn node_command(bin: &Path, home: &Path, port: u16, opts: &Options) -> Command {
    let mut cmd = Command::new(bin);
    cmd.env("REALNODE_HOME", home)
        .env("REALNODE_PORT", port.to_string())
        .env(
            "REALNODE_AUTH",
            if opts.embedded_auth {
                "embedded"
            } else {
                "proxy"
            },
        )
        .env("RUST_LOG", "warn")
        .env_remove("NODE_PATH_PREFIX")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(ttl) = opts.access_ttl {
        cmd.env("REALNODE_ACCESS_TTL", ttl.to_string());
    }
    if let Some(prefix) = opts.path_prefix.as_deref().filter(|p| !p.is_empty()) {
        cmd.env("NODE_PATH_PREFIX", prefix);
    }
    cmd
}

impl RealNode {
    /// Starts a node with proxy auth (none in the node), or skips.
    pub fn start(test: &str) -> Option<RealNode> {
        Self::start_with(test, Options::default())
    }

    /// Starts a node with the given options, or skips (loudly; a failure under
    /// CALIMCP_REQUIRE_REALNODE=1).
    pub fn start_with(test: &str, opts: Options) -> Option<RealNode> {
        let Some(bin) = binary() else {
            return skip(
                test,
                "no real node at ../shared/realnode/bin/calimero-node-rc4",
            );
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let home = tempfile::tempdir().expect("tempdir");
        let child = node_command(&bin, home.path(), port, &opts)
            .spawn()
            .expect("the node starts");
        let prefix = opts.path_prefix.clone().unwrap_or_default();
        let root = format!("http://127.0.0.1:{port}");
        let mut node = RealNode {
            url: format!("{root}{prefix}"),
            root,
            state: tempfile::tempdir().expect("tempdir"),
            token: None,
            child,
            _home: home,
            bin,
            port,
            opts,
        };
        node.wait_healthy();
        Some(node)
    }

    fn wait_healthy(&mut self) {
        let prefix = self.opts.path_prefix.clone().unwrap_or_default();
        let deadline = Instant::now() + Duration::from_secs(60);
        while !healthy(self.port, &prefix) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("the real node exited: {status}");
            }
            assert!(
                Instant::now() < deadline,
                "the real node not healthy in 60 s"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Stops the node and starts it again on the same port and home (its
    /// apps, contexts and SSE sessions kept); returns once it is healthy.
    pub fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The port may linger for a moment after the kill: retry the start.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            self.child = node_command(&self.bin, self._home.path(), self.port, &self.opts)
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

    /// Embedded auth: logs in (the first login creates the user) and keeps the
    /// access token for `admin`. Returns the token pair.
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
        let body = json!({"path": wasm, "metadata": [], "package": package, "version": version});
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

/// The shared test app (`../shared/realnode/app/kv.wasm`, package com.example.kv-c).
pub fn shared_kv_app() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realnode/app/kv.wasm")
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

/// A minimal blocking HTTP/1.1 client for the admin helpers (Connection: close).
fn http(method: &str, url: &str, body: Option<&Value>, token: Option<&str>) -> (u16, String) {
    let rest = url.strip_prefix("http://").expect("http URL");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let mut s = TcpStream::connect(host).expect("connect to the node");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
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
        "services": services.iter().map(|(name, _)| json!({
            "name": name, "wasm": {"path": format!("{name}.wasm"), "hash": null, "size": 0},
        })).collect::<Vec<_>>(),
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
