//! The one support module of the integration tests (`mod support;` in each
//! test binary):
//!
//! - [`calimcp`] and [`Env`]: the binary isolated from the machine it runs on
//!   (cleared environment, HOME and state in a tempdir, no colours), and a
//!   fake node with such a command pointed at it; [`offline`] for commands
//!   that never need a node (`CALIMCP_OFFLINE=1` besides);
//! - [`fake_node`]: a fake merod of each version, answering with [`wire`]'s
//!   bodies (held to the node's own types by `tests/wire_goldens.rs`);
//! - [`serve`]: `calimcp serve` over stdio and HTTP, with rmcp clients;
//! - [`realnode`]: real merod nodes from `../shared/realnode`;
//! - the repository's paths and the shared fixture corpus (`repo.rs`).
//!
//! No test reaches a node it did not start: every command here clears the
//! environment (CALIMERO_*/CALIMCP_*, HOME with its `nodes.json`) or, for
//! `serve`, removes those variables and passes `--offline` unless a node is
//! named.
#![allow(dead_code, unused_imports, unused_macros)]

pub mod fake_node;
pub mod json_schema;
pub mod realnode;
mod repo;
pub mod serve;
pub mod wire;

pub use repo::{example, fixture_manifests, fixtures, mero_docs_bundle, root, stdout};

use std::path::Path;
use std::sync::OnceLock;

use fake_node::FakeNode;
use tempfile::TempDir;

/// `calimcp` with a clean environment: HOME and the state directory in `home`,
/// no CALIMERO_*/CALIMCP_* variables from the outside, no colours.
pub fn calimcp(home: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::cargo::cargo_bin_cmd!("calimcp");
    cmd.env_clear()
        .env("HOME", home)
        .env("CALIMCP_STATE_DIR", home.join("state"))
        .env("NO_COLOR", "1")
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        // No probe of this machine's ports for a node (tests/discovery.rs sets its own).
        .env("CALIMCP_PROBE_PORTS", "none")
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// [`calimcp`] in a home shared by the tests of one binary, never asking a
/// node (`CALIMCP_OFFLINE=1`), with a hang guard of 60 s.
pub fn offline() -> assert_cmd::Command {
    static HOME: OnceLock<TempDir> = OnceLock::new();
    let home = HOME.get_or_init(|| tempfile::tempdir().expect("tempdir"));
    let mut cmd = calimcp(home.path());
    cmd.env("CALIMCP_OFFLINE", "1")
        .timeout(std::time::Duration::from_secs(60));
    cmd
}

/// A fake node and a home of one's own: [`Env::cmd`] is `calimcp` pointed
/// at the node. Test files add what they need with an extension trait.
pub struct Env {
    pub node: FakeNode,
    pub home: TempDir,
}

impl Env {
    /// A fake node of the default profile.
    pub fn new() -> Env {
        Env::with(FakeNode::start())
    }

    /// A fake node speaking as merod version `profile`.
    pub fn on(profile: fake_node::Profile) -> Env {
        Env::with(FakeNode::with_profile(profile))
    }

    pub fn with(node: FakeNode) -> Env {
        Env {
            node,
            home: tempfile::tempdir().unwrap(),
        }
    }

    /// `calimcp` pointed at the fake node (`CALIMERO_NODE_URL`).
    pub fn cmd(&self) -> assert_cmd::Command {
        let mut c = self.bare();
        c.env("CALIMERO_NODE_URL", &self.node.url);
        c
    }

    /// `calimcp` in this home with no node given: it comes from `--node` or
    /// the home's `nodes.json`.
    pub fn bare(&self) -> assert_cmd::Command {
        calimcp(self.home.path())
    }

    /// [`Env::cmd`] as a `std::process::Command`, for runs that go on in the
    /// background.
    pub fn std_cmd(&self) -> std::process::Command {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("calimcp"));
        c.env_clear()
            .env("HOME", self.home.path())
            .env("CALIMCP_STATE_DIR", self.home.path().join("state"))
            .env("NO_COLOR", "1")
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("CALIMCP_PROBE_PORTS", "none")
            .env("CALIMERO_NODE_URL", &self.node.url)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        c
    }

    /// `calimcp ARGS` must succeed; its stdout.
    pub fn stdout_ok(&self, args: &[&str]) -> String {
        let a = self.cmd().args(args).assert().success();
        String::from_utf8_lossy(&a.get_output().stdout).into_owned()
    }
}

impl Default for Env {
    fn default() -> Env {
        Env::new()
    }
}

/// The stderr of a finished command, as text.
pub fn stderr_of(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stderr).into_owned()
}

/// The names of a list of tools (`tools --json`, MCP `tools/list`).
pub fn tool_names(tools: &serde_json::Value) -> Vec<String> {
    tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// Runs `f` once for each of `items` side by side (scoped threads), for a
/// test repeated on several node versions whose steps mostly wait (for a
/// stream, a reconnection, a deadline); a panic in one fails the test.
pub fn side_by_side<T: Copy + Send>(items: &[T], f: impl Fn(T) + Sync) {
    std::thread::scope(|s| {
        for &item in items {
            let f = &f;
            s.spawn(move || f(item));
        }
    });
}

/// Runs `calimcp ARGS` on a pseudo-terminal (util-linux `script`), typing `input`.
pub fn on_a_terminal(home: &std::path::Path, args: &str, input: &str) -> Option<String> {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return None;
    }
    let bin = assert_cmd::cargo::cargo_bin!("calimcp");
    let line = format!(
        "env -i HOME={h} CALIMCP_STATE_DIR={h}/state NO_COLOR=1 {} {args}",
        bin.display(),
        h = home.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(input.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// An `.mpk`: a gzipped tar of these files.
pub fn mpk(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    for (path, data) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, path, data.as_slice()).unwrap();
    }
    let mut gz = tar.into_inner().unwrap();
    std::io::Write::flush(&mut gz).unwrap();
    gz.finish().unwrap()
}
