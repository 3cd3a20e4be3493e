//! The examples of every `--help` (the top level's and each command's), and
//! of README.md's and docs/'s Markdown, run as written: each line of a `sh`
//! block in `sh`, from the repository root (`watch` and the Markdown files: a
//! scratch directory, for the files they write), with the built calimcp first
//! on PATH, a scratch HOME, and a fake node (tests/support/fake_node.rs) as
//! the node, on which `my-alias` names a kv-store context; a Markdown file
//! whose `sh` lines log in (`calimcp login`) gets a node with embedded auth, its user
//! `admin` and its password in `CALIMERO_PASSWORD`. Two substitutions keep the
//! network on loopback ports the test owns: the default node URL becomes the
//! fake's, and `--http`'s port 8765 becomes 0. Commands that run until
//! stopped (`watch`, `serve --http`) are shown an event or asked for their
//! address, then stopped with Ctrl-C or SIGTERM, and must exit 0. The MCP
//! host configurations in docs/ (`json` blocks with `mcpServers` or
//! `servers`) start their server command as a host would. A file whose
//! lines install `./target/registry.wasm` finds the registry test app's
//! module there.

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
    /// Variables the examples' shell gets besides the fixed ones.
    vars: Vec<(&'static str, &'static str)>,
}

/// The fake node's password when it has embedded auth ([`Env::with_auth`]).
const PASSWORD: &str = "docs-example-password";

impl Env {
    fn new() -> Env {
        Env::on(FakeNode::start(), Vec::new())
    }

    /// A node with embedded auth: user `admin`, whose password the shell has
    /// in `CALIMERO_PASSWORD` (as a script would).
    fn with_auth() -> Env {
        let node = FakeNode::builder().auth("admin", PASSWORD).start();
        Env::on(node, vec![("CALIMERO_PASSWORD", PASSWORD)])
    }

    fn on(node: FakeNode, vars: Vec<(&'static str, &'static str)>) -> Env {
        node.add_alias("my-alias", &node.id(CTX_KV));
        Env {
            node,
            home: TempDir::new().unwrap(),
            scratch: TempDir::new().unwrap(),
            vars,
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
            .envs(self.vars.iter().copied())
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

/// The Markdown files whose examples run: README.md and every `.md` under
/// docs/, but docs/reference/commands/ (generated from `--help`, whose
/// examples the tests above run).
fn doc_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![root().join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("reference/commands") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    files
}

/// The contents of a Markdown file's code blocks in `lang`, in order.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for l in text.lines() {
        if l.starts_with("```") {
            match current.take() {
                Some(block) => out.push(block),
                None if l == format!("```{lang}") => current = Some(String::new()),
                None => current = Some(String::from("\0")),
            }
            continue;
        }
        if let Some(block) = current.as_mut() {
            block.push_str(l);
            block.push('\n');
        }
    }
    out.retain(|b| !b.starts_with('\0'));
    out
}

/// The lines of a Markdown file's `sh` blocks, in order, comments dropped.
fn sh_lines(text: &str) -> Vec<String> {
    blocks(text, "sh")
        .iter()
        .flat_map(|b| b.lines().map(str::to_string).collect::<Vec<_>>())
        .map(|l| l.split("  #").next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Runs every `sh` line of a Markdown file, in order, in a scratch directory
/// that sees the repository's `examples/` and `man/` (so `> diff.md` lands
/// there), except the set-up commands (`cargo …`), which CI runs itself, and
/// lines whose tool (git, man, jq, curl) this machine lacks. Returns how
/// many ran.
fn run_markdown(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.strip_prefix(root()).unwrap().display().to_string();
    eprintln!("the examples of {name}:");
    let lines = sh_lines(&text);
    let env = if lines.iter().any(|l| l.starts_with("calimcp login")) {
        Env::with_auth()
    } else {
        Env::new()
    };
    let work = env.scratch.path();
    for dir in ["examples", "man"] {
        std::os::unix::fs::symlink(root().join(dir), work.join(dir)).unwrap();
    }
    // The module a reader builds (docs/guides/from-wasm-to-two-nodes.md):
    // the registry test app's ABI in a module, where the guide has it.
    if lines.iter().any(|l| l.contains("./target/registry.wasm")) {
        let abi: serde_json::Value =
            serde_json::from_str(include_str!("../testapps/registry/abi.json")).unwrap();
        std::fs::create_dir_all(work.join("target")).unwrap();
        let module = support::fake_node::wasm_module(Some(&abi));
        std::fs::write(work.join("target/registry.wasm"), module).unwrap();
    }
    let git = in_git_checkout();
    let mut ran = 0;
    for line in lines {
        if line.starts_with("git ") && !git {
            eprintln!("SKIPPED (not a git checkout): {line}");
            continue;
        }
        if line.starts_with("cargo ") {
            eprintln!("not run here (a set-up command; CI runs it): {line}");
            continue;
        }
        if let Some(tool) = ["man", "jq", "curl"]
            .into_iter()
            .find(|t| uses(&line, t) && !on_path(t))
        {
            eprintln!("SKIPPED (no {tool} on PATH): {line}");
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
    if text.contains("> diff.md") {
        let md = std::fs::read_to_string(work.join("diff.md")).unwrap();
        assert!(md.contains("calimcp diff"), "{name}: {md}");
    }
    ran += run_host_configs(&env, &text, &name);
    ran
}

/// Whether `line` runs `tool` (as a command word, not inside another word).
fn uses(line: &str, tool: &str) -> bool {
    line.split(['|', '(', '$', ' ', '&', ';'])
        .any(|w| w == tool)
}

fn on_path(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// The MCP host configurations among a file's `json` blocks: each server with
/// a `command` is started as a host starts it (its `args`, its `env`, stdin
/// closed at once) and must exit 0; a server with a `url` must name the
/// address the file's `serve --http` example listens on.
fn run_host_configs(env: &Env, text: &str, name: &str) -> usize {
    let mut ran = 0;
    for block in blocks(text, "json") {
        let value: serde_json::Value = serde_json::from_str(&block)
            .unwrap_or_else(|e| panic!("{name}: a json block is not JSON ({e}):\n{block}"));
        let Some(servers) = value
            .get("mcpServers")
            .or(value.get("servers"))
            .and_then(|s| s.as_object())
        else {
            continue;
        };
        for (server, config) in servers {
            if let Some(url) = config.get("url").and_then(|u| u.as_str()) {
                let addr = url
                    .strip_prefix("http://")
                    .and_then(|u| u.strip_suffix("/mcp"))
                    .unwrap_or_else(|| panic!("{name}: {server}: {url} is not http://ADDR/mcp"));
                assert!(
                    text.contains(&format!("calimcp serve --http {addr}")),
                    "{name}: {server}'s {url} is not what an example serves"
                );
                ran += 1;
                continue;
            }
            let command = config["command"].as_str().unwrap();
            assert_eq!(command, "calimcp", "{name}: {server}");
            let args: Vec<String> = config["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string())
                .collect();
            let mut line = std::iter::once(command.to_string())
                .chain(args.iter().map(|a| format!("'{a}'")))
                .collect::<Vec<_>>()
                .join(" ");
            if let Some(vars) = config.get("env").and_then(|e| e.as_object()) {
                let assignments: Vec<String> = vars
                    .iter()
                    .map(|(k, v)| format!("{k}='{}'", v.as_str().unwrap()))
                    .collect();
                line = format!("{} {line}", assignments.join(" "));
            }
            env.run_in(&line, env.scratch.path());
            ran += 1;
        }
    }
    ran
}

/// Every command in the README's `sh` blocks runs as written, in order.
#[test]
fn readme_examples_run_as_written() {
    let ran = run_markdown(&root().join("README.md"));
    assert!(ran >= 15, "only {ran} README lines ran");
}

/// Every command in docs/'s `sh` blocks runs as written, file by file, in
/// order, and every MCP host configuration starts its server.
#[test]
fn docs_examples_run_as_written() {
    let mut ran = 0;
    for file in doc_files() {
        let n = run_markdown(&file);
        eprintln!("{}: {n} examples ran", file.display());
        ran += n;
    }
    assert!(ran >= 90, "only {ran} docs/ examples ran");
}

/// Every relative link of README.md and docs/ (the generated pages
/// included) names a file that exists and, with `#anchor`, a heading of
/// that file as a code host makes its anchor.
#[test]
fn every_link_in_the_docs_resolves() {
    let mut files = vec![root().join("README.md")];
    let mut stack = vec![root().join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (at, _) in text.match_indices("](") {
            let target = &text[at + 2..];
            let Some(end) = target.find(')') else {
                continue;
            };
            let target = &target[..end];
            if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            checked += 1;
            let ok = linked.exists()
                && (anchor.is_empty()
                    || std::fs::read_to_string(&linked)
                        .unwrap_or_default()
                        .lines()
                        .filter_map(|l| {
                            l.trim_start_matches('#')
                                .strip_prefix(' ')
                                .filter(|_| l.starts_with('#'))
                        })
                        .any(|h| slug(h) == anchor));
            if !ok {
                broken.push(format!("{}: {target}", file.display()));
            }
        }
    }
    assert!(checked >= 50, "only {checked} links");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// A heading's anchor as GitHub makes it: lowercase, punctuation but `-` and
/// `_` dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The README stays a front page (issue 32: at most 400 lines) and links
/// every guide; docs/README.md, the manual's table of contents, links every
/// page of docs/ (the generated command pages through their index).
#[test]
fn the_readme_is_a_front_page_and_the_manual_has_a_table_of_contents() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 400,
        "README.md has {lines} lines; move reference text to docs/"
    );
    let toc = std::fs::read_to_string(root().join("docs/README.md")).unwrap();
    let mut missing = Vec::new();
    for file in doc_files() {
        let rel = file
            .strip_prefix(root().join("docs"))
            .unwrap()
            .display()
            .to_string();
        if rel == "README.md" {
            continue;
        }
        if !toc.contains(&format!("]({rel})")) {
            missing.push(format!("docs/README.md does not link {rel}"));
        }
        if rel.starts_with("guides/") && !readme.contains(&format!("](docs/{rel})")) {
            missing.push(format!("README.md does not link docs/{rel}"));
        }
    }
    if !toc.contains("](reference/commands/README.md)") {
        missing.push("docs/README.md does not link the command reference".into());
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
