//! Helpers for the `serve` tests: fixture apps, the binary, rmcp clients.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::Value;
use tokio::sync::Notify;

pub const BIN: &str = env!("CARGO_BIN_EXE_calimcp");

pub use super::fixtures;

/// A temporary apps directory holding copies of the named fixtures, each
/// under a new file name (`kv-store.json`), so packages read naturally.
pub fn apps_dir(fixtures: &Path, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (from, to) in files {
        std::fs::copy(fixtures.join(from), dir.path().join(to)).expect("copy fixture");
    }
    dir
}

/// A state directory shared by the tests of one binary (tokens, ABI cache).
pub fn state_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("tempdir"))
        .path()
        .to_path_buf()
}

/// Isolates a `calimcp` command from the machine: no CALIMERO_*/CALIMCP_*
/// from outside, a private state and working directory, and `--offline` unless the
/// arguments name a node (so no test ever asks a real node).
pub fn isolate<'a>(
    cmd: &'a mut std::process::Command,
    args: &[&str],
) -> &'a mut std::process::Command {
    for (k, _) in std::env::vars_os() {
        let k = k.to_string_lossy().into_owned();
        if k.starts_with("CALIMERO_") || k.starts_with("CALIMCP_") {
            cmd.env_remove(&k);
        }
    }
    // Run outside the checkout: an APP argument that names a directory in the
    // working directory is taken as a path (`conformance/` is one).
    cmd.env("CALIMCP_STATE_DIR", state_dir())
        .env("NO_COLOR", "1")
        .env("CALIMCP_PROBE_PORTS", "none")
        .current_dir(state_dir());
    if !args.contains(&"--node") {
        cmd.env("CALIMCP_OFFLINE", "1");
    }
    cmd
}

/// `calimcp <args>` → stdout parsed as JSON (asserting success).
pub fn run_json(args: &[&str]) -> Value {
    run_json_env(args, &[])
}

/// [`run_json`] with environment variables set.
pub fn run_json_env(args: &[&str], env: &[(&str, &str)]) -> Value {
    let out = isolate(&mut Command::new(BIN), args)
        .envs(env.iter().copied())
        .args(args)
        .output()
        .expect("run calimcp");
    assert!(
        out.status.success(),
        "calimcp {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// Counts `notifications/tools/list_changed`.
#[derive(Clone, Default)]
pub struct Watcher {
    pub changes: Arc<AtomicUsize>,
    pub notify: Arc<Notify>,
}

impl ClientHandler for Watcher {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changes.fetch_add(1, Ordering::SeqCst);
        self.notify.notify_waiters();
        self.notify.notify_one();
    }
}

impl Watcher {
    /// Waits (bounded) until at least `n` notifications arrived.
    pub async fn wait_for(&self, n: usize, within: Duration) -> bool {
        tokio::time::timeout(within, async {
            while self.changes.load(Ordering::SeqCst) < n {
                self.notify.notified().await;
            }
        })
        .await
        .is_ok()
    }
}

pub type Client = RunningService<RoleClient, Watcher>;

/// Spawns `calimcp serve <args>` and connects rmcp's client over its stdio.
pub async fn stdio_client(args: &[&str]) -> Client {
    stdio_client_with(args, Watcher::default()).await.0
}

/// The server's stderr, line by line.
pub type Stderr = tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStderr>>;

/// [`stdio_client`] with a given watcher; also returns the server's stderr.
pub async fn stdio_client_with(args: &[&str], watcher: Watcher) -> (Client, Stderr) {
    stdio_client_env(args, &[], watcher).await
}

/// [`stdio_client_with`] with environment variables set.
pub async fn stdio_client_env(
    args: &[&str],
    env: &[(&str, &str)],
    watcher: Watcher,
) -> (Client, Stderr) {
    let mut std_cmd = Command::new(BIN);
    isolate(&mut std_cmd, args)
        .envs(env.iter().copied())
        .arg("serve")
        .args(args);
    let cmd = tokio::process::Command::from(std_cmd);
    let (transport, stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn calimcp serve");
    let client = watcher
        .serve(transport)
        .await
        .expect("initialize over stdio");
    use tokio::io::AsyncBufReadExt;
    let lines = tokio::io::BufReader::new(stderr.expect("stderr")).lines();
    (client, lines)
}

/// Reads the server's stderr until a line contains `needle` (bounded).
pub async fn stderr_line(lines: &mut Stderr, needle: &str) -> String {
    tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(line) = lines.next_line().await.expect("read stderr") {
            if line.contains(needle) {
                return line;
            }
        }
        panic!("stderr ended without a line containing {needle:?}");
    })
    .await
    .unwrap_or_else(|_| panic!("no stderr line containing {needle:?} in 20 s"))
}

/// Calls a tool with JSON arguments.
/// The names `tools/list` gives (every page).
pub async fn tool_list_names(client: &Client) -> Vec<String> {
    let tools = client.peer().list_all_tools().await.expect("tools/list");
    tools.iter().map(|t| t.name.to_string()).collect()
}

pub async fn call(
    client: &Client,
    name: &str,
    args: Value,
) -> Result<CallToolResult, rmcp::ServiceError> {
    let args: JsonObject = match args {
        Value::Object(o) => o,
        _ => JsonObject::new(),
    };
    client
        .peer()
        .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(args))
        .await
}

/// The text of a result's first content block.
pub fn text(r: &CallToolResult) -> String {
    r.content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// The wire JSON of the listed tools, without the fixed ones.
pub async fn listed_app_tools(client: &Client) -> Value {
    let tools = client.peer().list_all_tools().await.expect("tools/list");
    let all = serde_json::to_value(&tools).expect("serialize tools");
    Value::Array(
        all.as_array()
            .expect("array")
            .iter()
            .filter(|t| {
                ![
                    "describe_app",
                    "select_app",
                    "wait_for_events",
                    "wait_for_context",
                    "call_until",
                    "call_many",
                ]
                .contains(&t["name"].as_str().unwrap_or_default())
            })
            .cloned()
            .collect(),
    )
}

/// reqwest is built without a default TLS provider; tests use ring.
pub fn install_crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// A running `serve --http 127.0.0.1:0` and the URL it printed; killed
/// when dropped, so a test that ends (or fails) early leaves no server behind.
pub struct HttpServer {
    pub child: Child,
    pub url: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl HttpServer {
    pub fn start(args: &[&str]) -> HttpServer {
        HttpServer::start_env(args, &[])
    }

    /// [`HttpServer::start`] with environment variables set (limits, say).
    pub fn start_env(args: &[&str], env: &[(&str, &str)]) -> HttpServer {
        HttpServer::start_cmd(args, env, &mut Command::new(BIN))
    }

    /// [`HttpServer::start_env`] in a process that may open at most
    /// `nofile` descriptors (soft and hard limit, set before it runs).
    pub fn start_nofile(args: &[&str], env: &[(&str, &str)], nofile: u64) -> HttpServer {
        use std::os::unix::process::CommandExt;
        let mut cmd = Command::new(BIN);
        // SAFETY: setrlimit is async-signal-safe and touches no memory but its argument.
        unsafe {
            cmd.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: nofile,
                    rlim_max: nofile,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        HttpServer::start_cmd(args, env, &mut cmd)
    }

    fn start_cmd(args: &[&str], env: &[(&str, &str)], cmd: &mut Command) -> HttpServer {
        let mut child = isolate(cmd, args)
            .envs(env.iter().copied())
            .arg("serve")
            .args(args)
            .args(["--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        let url = loop {
            line.clear();
            if stderr.read_line(&mut line).unwrap() == 0 {
                panic!("serve --http exited before listening");
            }
            if let Some(at) = line.find("http://") {
                break line[at..].trim().to_string();
            }
        };
        // Keep draining stderr so the server never blocks on it.
        std::thread::spawn(move || for _ in stderr.lines() {});
        HttpServer { child, url }
    }

    pub fn stop(mut self) -> Option<i32> {
        let ok = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok);
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s.code();
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("serve --http did not stop on SIGTERM");
            }
            std::thread::park_timeout(Duration::from_millis(20));
        }
    }
}

/// Raw JSON-RPC POSTs to a `serve --http` endpoint, with the headers MCP asks for.
pub struct RawHttp {
    url: String,
    pub http: reqwest::Client,
}

impl RawHttp {
    pub fn new(url: &str) -> RawHttp {
        RawHttp {
            url: url.to_string(),
            http: reqwest::Client::new(),
        }
    }

    /// POSTs `body` as it is written, with the session and protocol version given.
    pub async fn post(
        &self,
        body: impl std::fmt::Display,
        sid: Option<&str>,
        version: Option<&str>,
    ) -> reqwest::Response {
        let mut req = self
            .http
            .post(&self.url)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json");
        if let Some(sid) = sid {
            req = req.header("Mcp-Session-Id", sid);
        }
        if let Some(v) = version {
            req = req.header("MCP-Protocol-Version", v);
        }
        let body = body.to_string();
        // From 2026-07-28 on, a request names its method (and tool or
        // resource) in headers too (SEP-2243).
        let message = serde_json::from_str::<Value>(&body).unwrap_or_default();
        if version.is_some_and(|v| v >= "2026-07-28")
            && let Some(method) = message["method"].as_str()
        {
            req = req.header("Mcp-Method", method);
            let params = &message["params"];
            if let Some(name) = params["name"].as_str().or(params["uri"].as_str()) {
                req = req.header("Mcp-Name", name);
            }
        }
        req.body(body).send().await.expect("POST")
    }

    /// Opens a session under protocol 2025-03-26 (asserting it opened); its id.
    pub async fn initialize(&self) -> String {
        let init = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-03-26", "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"}}});
        let ok = self.post(init, None, None).await;
        assert!(ok.status().is_success(), "initialize: {}", ok.status());
        ok.headers()["mcp-session-id"].to_str().unwrap().to_string()
    }
}

/// The JSON-RPC messages of an answer body, JSON or SSE alike (SSE: each
/// `data:` event that is JSON; priming events carry none).
pub fn messages_of(body: &str) -> Vec<Value> {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        return match v {
            Value::Array(items) => items,
            one => vec![one],
        };
    }
    body.split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(|d| d.strip_prefix(' ').unwrap_or(d))
                .collect();
            serde_json::from_str(&data.join("\n")).ok()
        })
        .collect()
}

/// `serve` over stdio, driven line by line: JSON in, JSON out.
pub struct RawStdio {
    child: Child,
    stdin: Option<std::process::ChildStdin>,
    stdout: BufReader<std::process::ChildStdout>,
}

impl RawStdio {
    pub fn start(args: &[&str]) -> RawStdio {
        let mut child = isolate(&mut Command::new(BIN), args)
            .arg("serve")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn calimcp serve");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        RawStdio {
            child,
            stdin,
            stdout,
        }
    }

    pub fn send(&mut self, line: &str) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line the server writes, as JSON.
    pub fn recv(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"))
    }

    /// Sends `message` and returns the answer carrying its id (notifications
    /// the server sends on the way are skipped).
    pub fn request(&mut self, message: &Value) -> Value {
        self.send(&message.to_string());
        loop {
            let v = self.recv();
            if v.get("method").is_none() {
                assert_eq!(v["id"], message["id"], "answers in order: {v}");
                return v;
            }
        }
    }

    /// `initialize` under `version`, then `notifications/initialized`.
    pub fn initialize(&mut self, version: &str) -> Value {
        let init = serde_json::json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}});
        let answer = self.request(&init);
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        answer
    }
}

impl Drop for RawStdio {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::park_timeout(Duration::from_millis(20));
        }
        let _ = self.child.kill();
    }
}

/// The `_meta` a protocol 2026-07-28 request carries instead of a handshake.
pub fn meta_2026() -> Value {
    serde_json::json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

impl RawHttp {
    /// POSTs one message; the HTTP status and the JSON-RPC messages answered.
    pub async fn rpc(
        &self,
        message: &Value,
        sid: Option<&str>,
        version: Option<&str>,
    ) -> (u16, Vec<Value>) {
        let r = self.post(message, sid, version).await;
        let status = r.status().as_u16();
        let body = r.text().await.expect("body");
        (status, messages_of(&body))
    }

    /// The answer to a request (the message carrying its id).
    pub async fn answer(&self, message: &Value, sid: Option<&str>, version: Option<&str>) -> Value {
        let (status, messages) = self.rpc(message, sid, version).await;
        messages
            .into_iter()
            .find(|m| m.get("method").is_none() && m["id"] == message["id"])
            .unwrap_or_else(|| panic!("no answer to {message} (HTTP {status})"))
    }

    /// Opens a session under `version` and sends `notifications/initialized`; its id.
    pub async fn open(&self, version: &str) -> String {
        let init = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"}}});
        let ok = self.post(init, None, None).await;
        assert!(ok.status().is_success(), "initialize: {}", ok.status());
        let sid = ok.headers()["mcp-session-id"].to_str().unwrap().to_string();
        let initialized =
            serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let r = self.post(initialized, Some(&sid), Some(version)).await;
        assert!(r.status().is_success(), "initialized: {}", r.status());
        sid
    }
}
