//! The examples of every `--help` (the top level's and each command's) and of
//! README.md's `sh` blocks run as written: each
//! line in `sh`, from the repository root (`watch` and the README: a scratch
//! directory, for the files they write), with the built calimcp first on PATH, a scratch HOME, and
//! a fake node (tests/support/fake_node.rs) as the node, on which `my-alias`
//! names a kv-store context. Two substitutions keep the network on loopback
//! ports the test owns: the default node URL becomes the fake's, and
//! `--http`'s port 8765 becomes 0. Commands that run until stopped (`watch`,
//! `serve --http`) are shown an event or asked for their address, then
//! stopped with Ctrl-C or SIGTERM, and must exit 0.

mod support;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use support::fake_node::{CTX_KV, FakeNode};
use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_calimcp");

/// The example lines of `calimcp ARGS --help`, comments dropped.
fn examples(args: &[&str]) -> Vec<String> {
    let out = Command::new(BIN)
        .args(args)
        .arg("--help")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<String> = help
        .lines()
        .skip_while(|l| *l != "Examples:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.split("  #").next().unwrap().trim().to_string())
        .collect();
    assert!(!lines.is_empty(), "calimcp {args:?} --help has no examples");
    lines
}

struct Env {
    node: FakeNode,
    home: TempDir,
    scratch: TempDir,
}

impl Env {
    fn new() -> Env {
        let node = FakeNode::start();
        node.add_alias("my-alias", &node.id(CTX_KV));
        Env {
            node,
            home: TempDir::new().unwrap(),
            scratch: TempDir::new().unwrap(),
        }
    }

    /// `sh -c LINE` as a user would type it, in `dir`.
    fn shell(&self, line: &str, dir: &Path) -> Command {
        let line = line
            .replace("http://127.0.0.1:2528", &self.node.url)
            .replace("127.0.0.1:8765", "127.0.0.1:0");
        let bin_dir = PathBuf::from(BIN).parent().unwrap().to_path_buf();
        let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )))
        .unwrap();
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(line)
            .env_clear()
            .env("PATH", path)
            .env("HOME", self.home.path())
            .env("NO_COLOR", "1")
            .env("CALIMERO_NODE_URL", &self.node.url)
            // `git show` examples read this repository from any directory.
            .env("GIT_DIR", root().join(".git"))
            .current_dir(dir)
            .stdin(Stdio::null());
        cmd
    }

    /// Runs a line that ends by itself, from the repository root; it must succeed.
    fn run(&self, line: &str) -> String {
        self.run_in(line, &root())
    }

    /// [`Env::run`] in `dir`.
    fn run_in(&self, line: &str, dir: &Path) -> String {
        let out = self.shell(line, dir).output().unwrap();
        assert!(
            out.status.success(),
            "`{line}` failed ({:?}): {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Starts a line that runs until stopped. The shell `exec`s it, so the
    /// signal reaches calimcp as Ctrl-C on a terminal would (the shell does not
    /// stay between them).
    fn spawn(&self, line: &str, dir: &Path) -> Running {
        // `a && b` cannot be exec'd; such a line ends by itself.
        let line_run = if line.contains("&&") {
            line.to_string()
        } else {
            format!("exec {line}")
        };
        let mut child = self
            .shell(&line_run, dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = |r: Box<dyn std::io::Read + Send>| {
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                for l in BufReader::new(r).lines().map_while(Result::ok) {
                    let _ = tx.send(l);
                }
            });
            rx
        };
        let stdout = lines(Box::new(child.stdout.take().unwrap()));
        let stderr = lines(Box::new(child.stderr.take().unwrap()));
        Running {
            line: line.to_string(),
            child,
            stdout,
            stderr,
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

struct Running {
    line: String,
    child: Child,
    stdout: mpsc::Receiver<String>,
    stderr: mpsc::Receiver<String>,
}

impl Running {
    /// Waits (bounded) for a line containing `needle` on stderr or stdout.
    fn wait_for(&self, stream: &mpsc::Receiver<String>, needle: &str) -> String {
        loop {
            match stream.recv_timeout(Duration::from_secs(20)) {
                Ok(l) if l.contains(needle) => return l,
                Ok(_) => {}
                Err(_) => panic!("`{}`: no line with {needle:?}", self.line),
            }
        }
    }

    fn on_stderr(&self, needle: &str) -> String {
        self.wait_for(&self.stderr, needle)
    }

    fn on_stdout(&self, needle: &str) -> String {
        self.wait_for(&self.stdout, needle)
    }

    /// Sends `signal`; the line must then exit 0.
    fn stop(mut self, signal: &str) {
        let sent = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        self.exit_0();
    }

    fn exit_0(&mut self) {
        let status = self.child.wait().unwrap();
        let err: Vec<String> = self.stderr.try_iter().collect();
        assert_eq!(status.code(), Some(0), "`{}`: {err:?}", self.line);
    }
}

#[test]
fn top_level_examples_run_as_written() {
    let env = Env::new();
    for line in examples(&[]) {
        if line.contains(" serve") {
            // Ends when its client (here: no stdin) goes away.
            env.run(&line);
        } else if line.contains(" call ") {
            // The fake node answers for kv-store in the context `my-alias` names.
            let out = env.run(&line);
            assert!(out.contains("null"), "`{line}`: {out}");
        } else {
            assert!(!env.run(&line).is_empty(), "`{line}` printed nothing");
        }
    }
}

#[test]
fn schema_describe_tools_and_apps_examples_run_as_written() {
    let env = Env::new();
    let mut ran = 0;
    for cmd in ["schema", "describe", "tools", "apps"] {
        for line in examples(&[cmd]) {
            assert!(!env.run(&line).is_empty(), "`{line}` printed nothing");
            ran += 1;
        }
    }
    assert!(ran >= 12, "only {ran} examples ran");
}

/// `call`'s examples on the fake node, where the example app every-kind is
/// installed too (its `paint` takes a parameter named like a flag).
#[test]
fn call_examples_run_as_written() {
    let env = Env::new();
    let every_kind: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("examples/every-kind.json")).unwrap(),
    )
    .unwrap();
    env.node.install("every-kind", every_kind);
    let lines = examples(&["call"]);
    assert!(lines.len() >= 5, "{lines:?}");
    for line in lines {
        if line.contains("--wait-event") {
            // The fake's kv-store emits `Inserted` for each set, as the app does.
            let s = env.spawn(&line, &root());
            let mut s = s;
            s.on_stdout("Inserted");
            s.exit_0();
            continue;
        }
        let out = env.run(&line);
        if line.contains("--dry-run") {
            assert!(out.contains("\"key\":\"a\""), "`{line}`: {out}");
        } else if line.contains("paint") {
            assert!(out.contains("Red"), "`{line}`: {out}");
        }
    }
}

/// `doc`'s examples, in a scratch directory that sees `examples/` (they
/// write `site/` and `kv.html`).
#[test]
fn doc_examples_run_as_written() {
    let env = Env::new();
    let work = env.scratch.path();
    std::os::unix::fs::symlink(root().join("examples"), work.join("examples")).unwrap();
    let lines = examples(&["doc"]);
    assert!(lines.len() >= 3, "{lines:?}");
    for line in lines {
        env.run_in(&line, work);
    }
    assert!(work.join("site/kv_store.html").exists());
    assert!(work.join("site/index.html").exists());
    let page = std::fs::read_to_string(work.join("kv.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
}

/// `wait`'s examples on the fake node, where `my-alias` is initialized.
#[test]
fn wait_examples_run_as_written() {
    let env = Env::new();
    let lines = examples(&["wait"]);
    assert!(lines.len() >= 2, "{lines:?}");
    for line in lines {
        env.run(&line);
    }
}

#[test]
fn diff_examples_run_as_written() {
    let env = Env::new();
    let git = in_git_checkout();
    let mut ran = 0;
    for line in examples(&["diff"]) {
        if line.starts_with("git ") && !git {
            eprintln!("SKIPPED (not a git checkout): {line}");
            continue;
        }
        let out = env.run(&line);
        if line.contains("examples/older") {
            assert!(out.contains("entries"), "`{line}`: {out}");
        }
        ran += 1;
    }
    assert!(ran >= 3);
}

#[test]
fn use_examples_run_as_written() {
    let env = Env::new();
    let lines = examples(&["use"]);
    assert_eq!(lines.len(), 3, "{lines:?}");
    env.run(&lines[0]);
    let shown = env.run(&lines[1]);
    assert!(shown.contains("context my-alias"), "{shown}");
    env.run(&lines[2]);
    let cleared = env.run(&lines[1]);
    // Unpinned, `use APP` names the case: the app's only context (which may
    // well be my-alias), not a pin.
    assert!(cleared.contains("no context pinned"), "{cleared}");
    assert!(!cleared.contains("context my-alias on"), "{cleared}");
}

#[test]
fn completions_examples_run_as_written() {
    let env = Env::new();
    for line in examples(&["completions"]) {
        env.run(&line);
    }
    let script = env
        .home
        .path()
        .join(".local/share/bash-completion/completions/calimcp");
    assert!(std::fs::read_to_string(script).unwrap().contains("calimcp"));
}

#[test]
fn serve_examples_run_as_written() {
    let env = Env::new();
    for line in examples(&["serve"]) {
        if line.contains("--http") {
            let s = env.spawn(&line, &root());
            let url = s.on_stderr("serving MCP over Streamable HTTP at ");
            assert!(url.contains("http://127.0.0.1:"), "{url}");
            s.stop("-TERM");
        } else {
            env.run(&line);
        }
    }
}

#[test]
fn watch_examples_run_as_written() {
    let env = Env::new();
    for line in examples(&["watch"]) {
        watch_line(&env, &line, env.scratch.path());
    }
}

/// Runs a `watch` example in `dir`: shows it events, checks what it did, and
/// stops it with Ctrl-C unless it ends by itself.
fn watch_line(env: &Env, line: &str, dir: &Path) {
    let ctx = env.node.id(CTX_KV);
    if line.contains("jq") && Command::new("jq").arg("--version").output().is_err() {
        eprintln!("SKIPPED (no jq on PATH): {line}");
        return;
    }
    let s = env.spawn(line, dir);
    s.on_stderr("watching ");
    env.node.emit(&ctx, &[("Inserted", b"\"one\"")]);
    if let Some(file) = line.split(">> ").nth(1) {
        // The --exec command runs beside the stream (issue 24.12): wait
        // (bounded) until it has appended the payload to the file.
        let file = file.trim_end_matches(['"', '\'']);
        s.on_stdout("one");
        let mut log = String::new();
        for _ in 0..1000 {
            log = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
            if !log.is_empty() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(log, "\"one\"\n", "`{line}`");
        s.stop("-INT");
    } else if line.contains("--until Removed") {
        env.node.emit(&ctx, &[("Removed", b"\"one\"")]);
        let mut s = s;
        if line.contains("echo removed") {
            s.on_stdout("removed");
        }
        s.exit_0();
    } else {
        let seen = s.on_stdout("Inserted");
        assert!(seen.contains("one"), "`{line}`: {seen}");
        s.stop("-INT");
    }
}

/// Whether the repository is a git checkout (`git show` examples need one).
fn in_git_checkout() -> bool {
    Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(root())
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The lines of README.md's `sh` blocks, in order, comments dropped.
fn readme_lines() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut lines = Vec::new();
    let mut in_sh = false;
    for l in readme.lines() {
        if l.starts_with("```") {
            in_sh = !in_sh && l == "```sh";
            continue;
        }
        let l = l.split("  #").next().unwrap().trim();
        if in_sh && !l.is_empty() && !l.starts_with('#') {
            lines.push(l.to_string());
        }
    }
    lines
}

/// Every command in the README's `sh` blocks runs as written, in order, in a
/// scratch directory that sees the repository's `examples/` and `man/` (so
/// `> diff.md` lands there), except the two set-up commands (`cargo …`),
/// which CI runs itself.
#[test]
fn readme_examples_run_as_written() {
    let env = Env::new();
    let work = env.scratch.path();
    for dir in ["examples", "man"] {
        std::os::unix::fs::symlink(root().join(dir), work.join(dir)).unwrap();
    }
    let git = in_git_checkout();
    let mut ran = 0;
    for line in readme_lines() {
        if line.starts_with("git ") && !git {
            eprintln!("SKIPPED (not a git checkout): {line}");
            continue;
        }
        if line.starts_with("cargo ") {
            eprintln!("not run here (a set-up command; CI runs it): {line}");
            continue;
        }
        if line.starts_with("man ") && Command::new("man").arg("--version").output().is_err() {
            eprintln!("SKIPPED (no man on PATH): {line}");
            continue;
        }
        if line.contains(" watch ") {
            watch_line(&env, &line, work);
        } else if line.contains("--http") {
            let s = env.spawn(&line, work);
            s.on_stderr("serving MCP over Streamable HTTP at ");
            s.stop("-TERM");
        } else {
            env.run_in(&line, work);
        }
        ran += 1;
    }
    assert!(ran >= 25, "only {ran} README lines ran");
    let md = std::fs::read_to_string(work.join("diff.md")).unwrap();
    assert!(md.contains("calimcp diff"), "{md}");
}
