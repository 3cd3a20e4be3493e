//! Benchmarks of `calimcp serve` (issue 4 §7), against a release binary.
//!
//!     cargo build --release --bin calimcp --example fake-node
//!     cargo bench --bench serve -- startup [RUNS] [MANIFEST]
//!     cargo bench --bench serve -- calls [CALLS] [IN_FLIGHT] [NODE_URL APP TOOL_PREFIX]
//!     cargo bench --bench serve -- memory MANIFEST
//!
//! `startup`: spawn, initialize and tools/list over stdio, RUNS times (default
//! 50) for MANIFEST (default the 101-method scaffolding-e2e fixture); prints
//! the median and percentiles. `calls`: starts the fake node and `serve
//! --http 127.0.0.1:0 --apps examples --node URL`, then CALLS (1,000) tools/call
//! with IN_FLIGHT (50) at a time over one Streamable HTTP session; checks every
//! one answered and prints throughput. `memory`: serves MANIFEST over stdio,
//! lists the tools, validates a call, and prints VmRSS/VmHWM (Linux).
//! `CALIMCP_BIN` overrides the binary (default target/release/calimcp).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> PathBuf {
    std::env::var_os("CALIMCP_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/release/calimcp"))
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let b = bin();
    assert!(
        b.exists(),
        "{} is missing: cargo build --release --bin calimcp",
        b.display()
    );
    match args.first().map(String::as_str) {
        Some("startup") | None => startup(&args),
        Some("calls") => calls(&args),
        Some("memory") => memory(&args),
        Some(other) => panic!("unknown benchmark {other}: startup | calls | memory"),
    }
}

/// A `calimcp serve` child over raw stdio lines.
struct Stdio_ {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Stdio_ {
    fn spawn(args: &[&str]) -> Stdio_ {
        let mut child = Command::new(bin())
            .arg("serve")
            .args(args)
            .env_remove("CALIMCP_APPS")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn calimcp serve");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Stdio_ {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, v: Value) {
        let mut line = v.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn recv(&mut self, id: u64) -> Value {
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "server closed stdout"
            );
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                return v;
            }
        }
    }

    /// initialize + initialized + tools/list; returns the number of tools.
    fn handshake_and_list(&mut self) -> usize {
        self.send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"}}}),
        );
        self.recv(1);
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        // Every page: a client that lists everything.
        let (mut n, mut cursor, mut id) = (0, Value::Null, 2);
        loop {
            let params = if cursor.is_null() {
                json!({})
            } else {
                json!({"cursor": cursor})
            };
            self.send(
                json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params}),
            );
            let page = self.recv(id);
            n += page["result"]["tools"].as_array().unwrap().len();
            cursor = page["result"]["nextCursor"].clone();
            if cursor.is_null() {
                return n;
            }
            id += 1;
        }
    }

    fn close(mut self) {
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn startup(args: &[String]) {
    let runs: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50);
    let manifest = args
        .get(2)
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/fixtures/abi/mero-mcp-scaffolding-e2e.json"));
    assert!(manifest.exists(), "{} is missing", manifest.display());
    let dir = tempdir_with(&manifest);
    let apps = dir.to_str().unwrap().to_string();
    let mut times = Vec::with_capacity(runs);
    let mut tools = 0;
    // One warm-up run (page cache), not counted.
    Stdio_::spawn(&["--apps", &apps]).handshake_and_list();
    for _ in 0..runs {
        let t0 = Instant::now();
        let mut s = Stdio_::spawn(&["--apps", &apps]);
        tools = s.handshake_and_list();
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
        s.close();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "startup: spawn → initialize → tools/list ({tools} tools, {}): median {:.1} ms, p10 {:.1}, p90 {:.1}, min {:.1}, max {:.1} ({runs} runs)",
        manifest.file_name().unwrap().to_string_lossy(),
        percentile(&times, 0.5),
        percentile(&times, 0.1),
        percentile(&times, 0.9),
        times[0],
        times[times.len() - 1],
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A fresh directory holding only `manifest` (an apps directory).
fn tempdir_with(manifest: &Path) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("calimcp-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(manifest, dir.join(manifest.file_name().unwrap())).unwrap();
    dir
}

fn memory(args: &[String]) {
    let manifest = PathBuf::from(args.get(1).expect("memory MANIFEST"));
    let dir = tempdir_with(&manifest);
    let mut s = Stdio_::spawn(&["--apps", dir.to_str().unwrap(), "--quiet"]);
    let t0 = Instant::now();
    let tools = s.handshake_and_list();
    let listed = t0.elapsed();
    // Compile one validator and run a (node-less) call.
    s.send(json!({"jsonrpc": "2.0", "id": 1000, "method": "tools/call", "params": {"name": "describe_app", "arguments": {}}}));
    s.recv(1000);
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", s.child.id())).unwrap_or_default();
    let field = |k: &str| {
        status
            .lines()
            .find(|l| l.starts_with(k))
            .map(|l| l.split_whitespace().nth(1).unwrap_or("?").to_string())
            .unwrap_or_else(|| "?".into())
    };
    println!(
        "memory: serving {} ({tools} tools, every tools/list page): VmRSS {} kB, VmHWM (peak) {} kB; initialize+tools/list took {:.1} ms",
        manifest.file_name().unwrap().to_string_lossy(),
        field("VmRSS:"),
        field("VmHWM:"),
        listed.as_secs_f64() * 1000.0
    );
    s.close();
    let _ = std::fs::remove_dir_all(dir);
}

fn calls(args: &[String]) {
    let total: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let in_flight: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    // `calls N K URL APP PREFIX`: against a running node (the real one,
    // benches/realnode.sh) whose app APP has tools PREFIX_set and PREFIX_get.
    let given = args.get(3).cloned();
    let app = args.get(4).cloned().unwrap_or_else(|| "kv-store".into());
    let prefix = args.get(5).cloned().unwrap_or_else(|| "kv_store".into());
    let mut node = None;
    let url = match given {
        Some(url) => url,
        None => {
            let fake = root().join("target/release/examples/fake-node");
            assert!(
                fake.exists(),
                "{} is missing: cargo build --release --example fake-node",
                fake.display()
            );
            let mut child = Command::new(&fake)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            let mut url = String::new();
            BufReader::new(child.stdout.take().unwrap())
                .read_line(&mut url)
                .unwrap();
            node = Some(child);
            url.trim().to_string()
        }
    };
    let state = std::env::temp_dir().join(format!("calimcp-bench-state-{}", std::process::id()));
    let mut serve = Command::new(bin());
    serve.arg("serve");
    if node.is_some() {
        serve.arg("--apps").arg(root().join("examples"));
    }
    let mut server = serve
        .args(["--node", &url, "--http", "127.0.0.1:0"])
        .env_remove("CALIMCP_APPS")
        .env("CALIMCP_STATE_DIR", &state)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(server.stderr.take().unwrap());
    let mcp = loop {
        let mut line = String::new();
        assert!(err.read_line(&mut line).unwrap() > 0, "serve exited");
        if let Some(at) = line.find("http://") {
            break line[at..].trim().to_string();
        }
    };
    std::thread::spawn(move || for _ in err.lines() {});
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        use rmcp::ServiceExt;
        use rmcp::model::CallToolRequestParams;
        let _ = rustls::crypto::ring::default_provider().install_default();
        let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(mcp);
        let client = Arc::new(().serve(transport).await.expect("connect"));
        let sel = client
            .peer()
            .call_tool(CallToolRequestParams::new("select_app").with_arguments(
                json!({"app": app}).as_object().unwrap().clone(),
            ))
            .await
            .unwrap();
        assert_ne!(sel.is_error, Some(true), "{sel:?}");
        let sem = Arc::new(tokio::sync::Semaphore::new(in_flight));
        let t0 = Instant::now();
        let mut tasks = tokio::task::JoinSet::new();
        for i in 0..total {
            let permit = sem.clone().acquire_owned().await.unwrap();
            let client = client.clone();
            let (set, get) = (format!("{prefix}_set"), format!("{prefix}_get"));
            tasks.spawn(async move {
                let (name, args) = if i % 2 == 0 {
                    (set, json!({"key": format!("k{i}"), "value": format!("v{i}")}))
                } else {
                    (get, json!({"key": format!("k{}", i - 1)}))
                };
                let t = Instant::now();
                let r = client
                    .peer()
                    .call_tool(
                        CallToolRequestParams::new(name)
                            .with_arguments(args.as_object().unwrap().clone()),
                    )
                    .await;
                drop(permit);
                (r.map(|r| r.is_error != Some(true)).unwrap_or(false), t.elapsed())
            });
        }
        let mut ok = 0;
        let mut lat = Vec::with_capacity(total);
        while let Some(done) = tasks.join_next().await {
            let (good, d) = done.unwrap();
            ok += usize::from(good);
            lat.push(d.as_secs_f64() * 1000.0);
        }
        let elapsed = t0.elapsed();
        lat.sort_by(f64::total_cmp);
        println!(
            "calls: {total} tools/call over Streamable HTTP, {in_flight} in flight: {ok}/{total} answered without error in {:.0} ms = {:.0} calls/s; latency median {:.1} ms, p99 {:.1} ms",
            elapsed.as_secs_f64() * 1000.0,
            total as f64 / elapsed.as_secs_f64(),
            percentile(&lat, 0.5),
            percentile(&lat, 0.99),
        );
        assert_eq!(ok, total, "every call answered");
    });
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let _ = server.wait();
    if let Some(mut node) = node {
        drop(node.stdin.take());
        let _ = node.wait();
    }
    let _ = std::fs::remove_dir_all(state);
}
