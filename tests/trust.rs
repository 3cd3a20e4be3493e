//! The files calimcp trusts under hostile set-ups (issue 28): a planted
//! node list, pin or ABI-cache entry in a directory others can write, a
//! file another user owns, no HOME, a state directory login cannot write,
//! concurrent writers of one file, a hand-edited node list (names with
//! escapes, a dangling `current`, a symlink, 12 MB), a password file that is
//! a device, a FIFO or too long, and a URL whose password must not show.

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};
use support::calimcp;
use support::fake_node::{self, FakeNode};

const KV: &str = "com.calimero.kv-store";

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn dir(path: PathBuf, mode: u32) -> PathBuf {
    std::fs::create_dir_all(&path).unwrap();
    chmod(&path, mode);
    path
}

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stdout).into_owned()
}

fn stderr(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stderr).into_owned()
}

/// The `error.code` of a `--json` failure (its last line on stderr).
fn code(a: &assert_cmd::assert::Assert) -> String {
    let err = stderr(a);
    let line = err.lines().last().unwrap_or_default();
    let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {err}"));
    v["error"]["code"].as_str().unwrap_or_default().to_string()
}

/// A command that must end quickly: a read that blocks fails the test
/// instead of hanging it.
fn bounded(mut c: assert_cmd::Command) -> assert_cmd::Command {
    c.timeout(Duration::from_secs(20));
    c
}

#[test]
fn a_planted_node_list_in_a_directory_others_can_write_is_not_read() {
    let home = tempfile::tempdir().unwrap();
    let evil = FakeNode::builder().auth("admin", "pw").start();
    // Another user's node list, as current, in a shared config directory.
    let shared = dir(home.path().join("shared"), 0o1777);
    let config = dir(shared.join("calimcp"), 0o777);
    std::fs::write(
        config.join("nodes.json"),
        json!({"current": "evil", "nodes": {"evil": evil.url}}).to_string(),
    )
    .unwrap();
    let a = calimcp(home.path())
        .env("XDG_CONFIG_HOME", &shared)
        .env("CALIMERO_AUTH_TOKEN", "victims-token")
        .args(["apps", "--json"])
        .assert()
        .code(2);
    assert_eq!(code(&a), "untrusted_path", "{}", stderr(&a));
    assert!(
        stderr(&a).contains("can be written by others"),
        "{}",
        stderr(&a)
    );
    assert!(evil.requests().is_empty(), "the planted node was asked");
    // The same file, private, in a private directory: it is the node list.
    chmod(&shared, 0o700);
    chmod(&config, 0o700);
    let a = calimcp(home.path())
        .env("XDG_CONFIG_HOME", &shared)
        .args(["node", "list", "--json"])
        .assert()
        .success();
    assert!(stdout(&a).contains("evil"), "{}", stdout(&a));
}

#[test]
fn a_node_list_another_user_owns_or_may_write_is_not_read() {
    let home = tempfile::tempdir().unwrap();
    let config = dir(home.path().join(".config/calimcp"), 0o700);
    let file = config.join("nodes.json");
    std::fs::write(&file, r#"{"nodes": {"a": "http://127.0.0.1:9"}}"#).unwrap();
    chmod(&file, 0o666);
    let a = calimcp(home.path())
        .args(["node", "list", "--json"])
        .assert()
        .code(2);
    assert_eq!(code(&a), "untrusted_path");
    chmod(&file, 0o644);
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc_geteuid() } == 0 {
        std::os::unix::fs::chown(&file, Some(4242), None).unwrap();
        let a = calimcp(home.path())
            .args(["node", "list", "--json"])
            .assert()
            .code(2);
        assert!(
            stderr(&a).contains("belongs to another user (uid 4242)"),
            "{}",
            stderr(&a)
        );
    }
}

unsafe extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}

#[test]
fn a_planted_abi_cache_entry_never_turns_a_mut_method_into_view() {
    let home = tempfile::tempdir().unwrap();
    let node = FakeNode::start();
    let kind_of_clear = |state: &Path| -> String {
        let a = calimcp(home.path())
            .env("CALIMCP_STATE_DIR", state)
            .env("CALIMERO_NODE_URL", &node.url)
            .args(["describe", KV, "--json"])
            .assert()
            .success();
        let v: Value = serde_json::from_str(&stdout(&a)).unwrap();
        let methods = v["methods"].as_array().unwrap().clone();
        let clear = methods.iter().find(|m| m["name"] == "clear").unwrap();
        clear["kind"].as_str().unwrap().to_string()
    };
    // A private state directory caches the node's ABI: `clear` is [mut].
    let private = dir(home.path().join("private"), 0o700);
    assert_eq!(kind_of_clear(&private), "mut");
    // Every entry, with `clear` made read-only and its checksum right,
    // planted at the same names in a state directory others can write.
    let planted: Vec<(std::ffi::OsString, String)> = std::fs::read_dir(private.join("abi"))
        .unwrap()
        .flatten()
        .map(|e| (e.file_name(), read_only_clear(&e.path())))
        .collect();
    assert!(planted.len() > 1);
    let plant = |state: &Path, mode: u32| {
        for (name, text) in &planted {
            std::fs::write(dir(state.join("abi"), mode).join(name), text).unwrap();
        }
    };
    let open = dir(home.path().join("open"), 0o777);
    plant(&open, 0o777);
    // Not read: `clear` stays [mut] (the node's own ABI).
    assert_eq!(kind_of_clear(&open), "mut");
    // The planted entry in a private place is read (the check above is
    // what refused it, not something else).
    let planted_private = dir(home.path().join("planted-private"), 0o700);
    plant(&planted_private, 0o700);
    assert_eq!(kind_of_clear(&planted_private), "view");
}

/// An ABI cache entry with its method `clear` made read-only (its
/// checksum made right: it is no secret).
fn read_only_clear(path: &Path) -> String {
    use sha2::Digest;
    let mut entry: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let Some(text) = entry["abi"].as_str() else {
        return entry.to_string();
    };
    let mut abi: Value = serde_json::from_str(text).unwrap();
    for m in abi["methods"].as_array_mut().into_iter().flatten() {
        if m["name"] == "clear" {
            m["intent"] = json!("read_only");
        }
    }
    let text = abi.to_string();
    let sha: String = sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    entry["abi"] = json!(text);
    entry["sha256"] = json!(sha);
    entry.to_string()
}

#[test]
fn a_planted_pin_never_chooses_the_context() {
    let home = tempfile::tempdir().unwrap();
    let node = FakeNode::start();
    let open = dir(home.path().join("open"), 0o777);
    let other = node.id(fake_node::CTX_KV2_1);
    std::fs::write(
        open.join("contexts.json"),
        json!({ node.url.clone(): { KV: other } }).to_string(),
    )
    .unwrap();
    let a = calimcp(home.path())
        .env("CALIMCP_STATE_DIR", &open)
        .env("CALIMERO_NODE_URL", &node.url)
        .args(["call", "kv_store_get", "--key", "a", "--json"])
        .assert()
        .code(2);
    assert_eq!(code(&a), "untrusted_path", "{}", stderr(&a));
    assert!(node.executes().is_empty(), "a call was sent");
}

#[test]
fn without_home_calimcp_says_so_and_never_uses_a_shared_place() {
    let home = tempfile::tempdir().unwrap();
    let tmp = dir(home.path().join("tmp"), 0o1777);
    let node = FakeNode::start();
    let cmd = || {
        let mut c = calimcp(home.path());
        c.env_remove("HOME")
            .env_remove("CALIMCP_STATE_DIR")
            .env("TMPDIR", &tmp);
        c
    };
    let a = cmd().args(["node", "list", "--json"]).assert().code(2);
    assert_eq!(code(&a), "no_home");
    assert!(stderr(&a).contains("XDG_CONFIG_HOME"), "{}", stderr(&a));
    let a = cmd()
        .args(["apps", "--json", "--node", &node.url])
        .assert()
        .code(2);
    assert_eq!(code(&a), "no_home");
    assert!(stderr(&a).contains("CALIMCP_STATE_DIR"), "{}", stderr(&a));
    // What needs neither works.
    cmd()
        .args(["describe", "examples/kv-store/abi.json"])
        .assert()
        .success();
    // The variables named do instead.
    let state = dir(home.path().join("state-here"), 0o700);
    cmd()
        .env("CALIMCP_STATE_DIR", &state)
        .args(["apps", "--json", "--node", &node.url])
        .assert()
        .success();
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        0,
        "wrote to TMPDIR"
    );
}

#[test]
fn login_fails_when_the_token_cache_cannot_be_written() {
    let home = tempfile::tempdir().unwrap();
    let node = FakeNode::builder().auth("admin", "pw").start();
    let login = |state: &Path| {
        calimcp(home.path())
            .env("CALIMCP_STATE_DIR", state)
            .env("CALIMERO_NODE_URL", &node.url)
            .env("CALIMERO_USERNAME", "admin")
            .env("CALIMERO_PASSWORD", "pw")
            .args(["login"])
            .assert()
    };
    let group = dir(home.path().join("group"), 0o775);
    let a = login(&group).failure();
    assert!(!stdout(&a).contains("kept"), "{}", stdout(&a));
    assert!(stderr(&a).contains("cannot be kept"), "{}", stderr(&a));
    assert!(stderr(&a).contains("mode 775"), "{}", stderr(&a));
    // A symlink to that directory: the target is what is refused, and said.
    let link = home.path().join("link");
    std::os::unix::fs::symlink(&group, &link).unwrap();
    let a = login(&link).failure();
    assert!(stderr(&a).contains("(a symlink to "), "{}", stderr(&a));
    assert!(!stderr(&a).contains("mode 777"), "{}", stderr(&a));
    // Made private, the same symlink works, and the login is there after.
    chmod(&group, 0o700);
    let a = login(&link).success();
    assert!(stdout(&a).contains("kept"), "{}", stdout(&a));
    calimcp(home.path())
        .env("CALIMCP_STATE_DIR", &link)
        .env("CALIMERO_NODE_URL", &node.url)
        .args(["auth", "token"])
        .assert()
        .success();
}

/// The binary, for processes run side by side.
fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_calimcp")
}

fn run_parallel(home: &Path, jobs: Vec<Vec<String>>) {
    let handles: Vec<_> = jobs
        .into_iter()
        .map(|args| {
            let home = home.to_path_buf();
            std::thread::spawn(move || {
                let out = std::process::Command::new(binary())
                    .env_clear()
                    .env("HOME", &home)
                    .env("CALIMCP_STATE_DIR", home.join("state"))
                    .env("NO_COLOR", "1")
                    .args(&args)
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "{args:?}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

#[test]
fn parallel_node_adds_and_pins_lose_nothing() {
    let home = tempfile::tempdir().unwrap();
    // 8 processes at a time, 5 rounds: 40 names.
    for round in 0..5 {
        let jobs = (0..8)
            .map(|p| {
                vec![
                    "node".into(),
                    "add".into(),
                    format!("n{round}-{p}"),
                    format!("http://127.0.0.1:{}", 1000 + round * 8 + p),
                ]
            })
            .collect();
        run_parallel(home.path(), jobs);
    }
    let a = calimcp(home.path())
        .args(["node", "list", "--json"])
        .assert()
        .success();
    let list: Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 40, "{list}");
    // Pins of one app on 24 node URLs, 8 processes at a time.
    let id = "ab".repeat(32);
    for round in 0..3 {
        let jobs = (0..8)
            .map(|p| {
                vec![
                    "use".into(),
                    "examples/kv-store/abi.json".into(),
                    "--offline".into(),
                    "--node".into(),
                    format!("http://127.0.0.1:{}", 2000 + round * 8 + p),
                    "--context".into(),
                    id.clone(),
                ]
            })
            .collect();
        run_parallel(home.path(), jobs);
    }
    let pins: Value =
        serde_json::from_slice(&std::fs::read(home.path().join("state/contexts.json")).unwrap())
            .unwrap();
    assert_eq!(pins.as_object().unwrap().len(), 24, "{pins}");
}

#[test]
fn a_hand_edited_node_list_is_shown_safely_and_checked() {
    let home = tempfile::tempdir().unwrap();
    let config = dir(home.path().join(".config/calimcp"), 0o700);
    let file = config.join("nodes.json");
    let hostile = "a\u{1b}]0;pwned\u{7}\u{1b}[31mred";
    std::fs::write(
        &file,
        json!({"current": "gone", "nodes": {hostile: "http://127.0.0.1:9", "b": "http://127.0.0.1:8"}})
            .to_string(),
    )
    .unwrap();
    let a = calimcp(home.path())
        .args(["node", "list"])
        .assert()
        .success();
    let out = stdout(&a);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    // A current node that is not named: an error when the node is used,
    // not the default address.
    let a = calimcp(home.path())
        .args(["apps", "--json"])
        .assert()
        .code(2);
    assert_eq!(code(&a), "unknown_node");
    let err = stderr(&a);
    assert!(err.contains("the current node `gone`"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
    calimcp(home.path())
        .args(["describe", "examples/kv-store/abi.json"])
        .assert()
        .success();
    // Past CALIMCP_MAX_STATE (1 MiB by default): refused, saying which limit.
    let mut big = String::from(r#"{"nodes": {"#);
    for i in 0..400_000 {
        big.push_str(&format!(r#""n{i}": "http://127.0.0.1:9","#));
    }
    big.push_str(r#""z": "http://127.0.0.1:9"}}"#);
    assert!(big.len() > 12 << 20);
    std::fs::write(&file, &big).unwrap();
    let a = calimcp(home.path())
        .args(["node", "list", "--json"])
        .assert()
        .code(2);
    assert_eq!(code(&a), "unreadable");
    assert!(stderr(&a).contains("CALIMCP_MAX_STATE"), "{}", stderr(&a));
    calimcp(home.path())
        .env("CALIMCP_MAX_STATE", "32M")
        .args(["node", "list", "--json"])
        .assert()
        .success();
}

#[test]
fn a_symlinked_node_list_is_written_through() {
    let home = tempfile::tempdir().unwrap();
    let config = dir(home.path().join(".config/calimcp"), 0o700);
    let dotfiles = dir(home.path().join("dotfiles"), 0o700);
    let real = dotfiles.join("nodes.json");
    std::fs::write(&real, r#"{"nodes": {"a": "http://127.0.0.1:9"}}"#).unwrap();
    let link = config.join("nodes.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    calimcp(home.path())
        .args(["node", "add", "b", "http://127.0.0.1:8"])
        .assert()
        .success();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let v: Value = serde_json::from_slice(&std::fs::read(&real).unwrap()).unwrap();
    assert_eq!(v["nodes"].as_object().unwrap().len(), 2, "{v}");
}

#[test]
fn a_password_file_is_read_bounded_and_never_waited_on() {
    let home = tempfile::tempdir().unwrap();
    let node = FakeNode::builder().auth("admin", "pw").start();
    let login = |file: &Path| {
        bounded(calimcp(home.path()))
            .env("CALIMERO_NODE_URL", &node.url)
            .env("CALIMERO_USERNAME", "admin")
            .env("CALIMERO_PASSWORD_FILE", file)
            .args(["login", "--json"])
            .assert()
    };
    // A device that never ends.
    let a = login(Path::new("/dev/zero")).code(2);
    assert!(
        stderr(&a).contains("not a regular file or a pipe"),
        "{}",
        stderr(&a)
    );
    // A FIFO nobody writes to.
    let fifo = home.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let a = login(&fifo).code(2);
    assert!(stderr(&a).contains("nobody writing"), "{}", stderr(&a));
    // Longer than 64 KiB.
    let long = home.path().join("long");
    std::fs::write(&long, "x".repeat(65 * 1024)).unwrap();
    let a = login(&long).code(2);
    assert!(stderr(&a).contains("64 KiB"), "{}", stderr(&a));
    assert_eq!(node.logins(), 0);
    // A plain file works.
    let ok = home.path().join("pw");
    std::fs::write(&ok, "pw\n").unwrap();
    login(&ok).success();
    assert_eq!(node.logins(), 1);
}

#[test]
fn a_url_password_never_shows_in_an_invalid_url_error() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        vec!["node", "add", "x", "http://alice:S3cretUserPw@[::1"],
        vec!["node", "add", "x", "ftp://alice:S3cretUserPw@h"],
        vec!["apps", "--node", "http://alice:S3cretUserPw@h:port"],
    ] {
        let a = calimcp(home.path()).args(&args).assert().code(2);
        let err = stderr(&a);
        assert!(err.contains("***@"), "{args:?}: {err}");
        assert!(!err.contains("S3cret"), "{args:?}: {err}");
    }
}

/// A proxy in front of `upstream` that drops `applicationId` from the
/// node's answer to `GET /admin-api/contexts/ID` (one request per
/// connection); returns its URL.
fn without_application_id(upstream: &str) -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let upstream = upstream.trim_start_matches("http://").to_string();
    let read_message = |r: &mut BufReader<std::net::TcpStream>| -> (String, Vec<u8>) {
        let mut head = String::new();
        loop {
            let mut line = String::new();
            if r.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
                break;
            }
            head.push_str(&line);
        }
        let len = head
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-length")
                    .then(|| v.trim().parse::<usize>().ok())?
            })
            .unwrap_or(0);
        let mut body = vec![0; len];
        r.read_exact(&mut body).unwrap();
        (head, body)
    };
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let mut from = BufReader::new(client.try_clone().unwrap());
            let (head, body) = read_message(&mut from);
            let lying = head.starts_with("GET /admin-api/contexts/")
                && head.lines().next().unwrap_or_default().matches('/').count() == 4;
            let mut node = std::net::TcpStream::connect(&upstream).unwrap();
            node.write_all(head.as_bytes()).unwrap();
            node.write_all(b"\r\n").unwrap();
            node.write_all(&body).unwrap();
            let (head, mut body) = read_message(&mut BufReader::new(node));
            if lying && let Ok(mut v) = serde_json::from_slice::<Value>(&body) {
                if let Some(o) = v["data"].as_object_mut() {
                    o.remove("applicationId");
                }
                body = v.to_string().into_bytes();
            }
            let status = head.lines().next().unwrap_or_default();
            let mut out = client;
            let _ = write!(
                out,
                "{status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                body.len()
            );
            let _ = out.write_all(&body);
        }
    });
    url
}

#[test]
fn a_context_the_node_names_no_application_for_is_refused_with_a_sane_message() {
    let home = tempfile::tempdir().unwrap();
    let node = FakeNode::start();
    let url = without_application_id(&node.url);
    let ctx = node.id(fake_node::CTX_KV);
    let a = calimcp(home.path())
        .env("CALIMERO_NODE_URL", &url)
        .args(["call", "kv_store_get", "--key", "a", "-c", &ctx, "--json"])
        .assert()
        .code(2);
    let err = stderr(&a);
    assert_eq!(code(&a), "foreign_context", "{err}");
    assert!(
        err.contains("an application the node does not name"),
        "{err}"
    );
    assert!(!err.contains("application ,"), "{err}");
    assert!(node.executes().is_empty());
}

#[test]
fn a_planted_login_is_never_used_and_local_commands_still_run() {
    let home = tempfile::tempdir().unwrap();
    let node = FakeNode::builder().auth("admin", "pw").start();
    // Someone else's login for the node, in a state directory others can write.
    let (access, refresh) = node.mint(1_900_000_000);
    let open = dir(home.path().join("open"), 0o777);
    let private = dir(home.path().join("private"), 0o700);
    let url = node.url.trim_end_matches('/').to_string();
    // Let calimcp name the file: a login kept in a private place, moved.
    calimcp(home.path())
        .env("CALIMCP_STATE_DIR", &private)
        .env("CALIMERO_NODE_URL", &url)
        .env("CALIMERO_AUTH_TOKEN", &access)
        .env("CALIMERO_REFRESH_TOKEN", &refresh)
        .args(["apps", "--json"])
        .assert()
        .success();
    for f in std::fs::read_dir(&private).unwrap().flatten() {
        if f.file_name().to_string_lossy().starts_with("tokens-") {
            std::fs::copy(f.path(), open.join(f.file_name())).unwrap();
        }
    }
    let cmd = || {
        let mut c = calimcp(home.path());
        c.env("CALIMCP_STATE_DIR", &open)
            .env("CALIMERO_NODE_URL", &url);
        c
    };
    cmd()
        .args(["describe", "examples/kv-store/abi.json"])
        .assert()
        .success();
    node.clear_requests();
    let a = cmd().args(["apps", "--json"]).assert().code(2);
    assert_eq!(code(&a), "untrusted_path", "{}", stderr(&a));
    let sent = node.requests();
    assert!(
        sent.iter().all(|r| r.header("authorization").is_none()),
        "the planted token was sent"
    );
}
