//! `calimcp login`, `logout`, `auth token`, `auth status` on the fake node
//! with embedded auth: a login stays for later commands, the one cached user
//! of a node is used without being named, several are named in a hint, and
//! the terminal prompt reads the password without echo (under a
//! pseudo-terminal); what differs between versions on rc.4, rc.25 and rc.83
//! ([`VERSIONS`]).

mod support;

use predicates::prelude::*;
use serde_json::Value;
use support::fake_node::{FakeNode, Profile};
use support::{Env, calimcp};

const USER: &str = "admin";
const PASS: &str = "s3cret-pass";

/// A fake node with embedded auth (user [`USER`], password [`PASS`]).
fn auth_env() -> Env {
    Env::with(FakeNode::builder().auth(USER, PASS).start())
}

/// The versions the login tests whose wire differs run on: rc.4 and rc.25
/// (real nodes) and rc.83 (its recorded wire: `key_id` tokens, strict auth
/// bodies, `POST /auth/logout`).
const VERSIONS: [Profile; 3] = [Profile::Rc4, Profile::Rc25, Profile::Rc83];

/// [`auth_env`] on the node version `p`.
fn auth_env_on(p: Profile) -> Env {
    Env::with(FakeNode::builder().profile(p).auth(USER, PASS).start())
}

/// What the login tests ask of [`Env`].
trait LoginEnv {
    fn stdout(a: &assert_cmd::assert::Assert) -> String {
        String::from_utf8_lossy(&a.get_output().stdout).into_owned()
    }

    fn stderr(a: &assert_cmd::assert::Assert) -> String {
        support::stderr_of(a)
    }

    /// The `error.code` of a `--json` failure (its one line on stderr).
    fn code(a: &assert_cmd::assert::Assert) -> String {
        let err = Self::stderr(a);
        let line = err.lines().last().unwrap_or_default();
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {err}"));
        v["error"]["code"].as_str().unwrap_or_default().to_string()
    }

    /// `calimcp login` with the user and password in the environment.
    fn login(&self);

    /// Everything calimcp keeps in its state directory, as text.
    fn state_text(&self) -> String;
}

impl LoginEnv for Env {
    fn login(&self) {
        self.cmd()
            .env("CALIMERO_USERNAME", USER)
            .env("CALIMERO_PASSWORD", PASS)
            .arg("login")
            .assert()
            .success();
    }

    fn state_text(&self) -> String {
        let mut all = String::new();
        if let Ok(dir) = std::fs::read_dir(self.home.path().join("state")) {
            for f in dir.flatten() {
                all.push_str(&std::fs::read_to_string(f.path()).unwrap_or_default());
            }
        }
        all
    }
}

#[test]
fn a_login_from_the_environment_stays_for_later_commands() {
    support::side_by_side(&VERSIONS, |p| {
        let env = auth_env_on(p);
        let n = &env.node;
        let a = env
            .cmd()
            .env("CALIMERO_USERNAME", USER)
            .env("CALIMERO_PASSWORD", PASS)
            .arg("login")
            .assert()
            .success();
        assert!(
            Env::stdout(&a).contains(&format!("logged in to {} as admin", n.url)),
            "{}",
            Env::stdout(&a)
        );
        assert_eq!(n.logins(), 1);
        assert!(
            !env.state_text().contains(PASS),
            "the password is never kept"
        );
        // No variables: the one cached user of the node is used, no new login.
        env.cmd().args(["call", "kv_store_len"]).assert().success();
        assert_eq!(n.logins(), 1);
        // Expired: refreshed with the cached pair.
        n.expire_tokens();
        env.cmd().args(["call", "kv_store_len"]).assert().success();
        assert_eq!((n.refreshes(), n.logins()), (1, 1));
        // A login with calimcp's call-time variables (as before) stays too.
        let env2 = auth_env_on(env.node.profile());
        env2.cmd()
            .env("CALIMERO_USERNAME", USER)
            .env("CALIMERO_PASSWORD", PASS)
            .args(["call", "kv_store_len"])
            .assert()
            .success();
        env2.cmd().args(["call", "kv_store_len"]).assert().success();
        assert_eq!(env2.node.logins(), 1);
    });
}

#[test]
fn login_reads_the_password_from_stdin_or_a_file() {
    let env = auth_env();
    let a = env
        .cmd()
        .args(["login", "-u", USER, "--password-stdin", "--json"])
        .write_stdin(format!("{PASS}\n"))
        .assert()
        .success();
    let v: Value = serde_json::from_str(&Env::stdout(&a)).unwrap();
    assert_eq!(v["username"], USER, "{v}");
    assert_eq!(v["node"], env.node.url.as_str(), "{v}");
    // A password file, and a login again replaces the cached pair.
    let file = env.home.path().join("pw");
    std::fs::write(&file, format!("{PASS}\n")).unwrap();
    env.cmd()
        .env("CALIMERO_USERNAME", USER)
        .env("CALIMERO_PASSWORD_FILE", &file)
        .arg("login")
        .assert()
        .success();
    assert_eq!(env.node.logins(), 2);
    env.cmd().args(["call", "kv_store_len"]).assert().success();
    assert_eq!(env.node.logins(), 2);
    // A wrong password: exit 3, never shown.
    let a = env
        .cmd()
        .args(["login", "-u", USER, "--password-stdin"])
        .write_stdin("wrong-one\n")
        .assert()
        .code(3);
    let err = Env::stderr(&a);
    assert!(err.contains("logging in to"), "{err}");
    assert!(!err.contains("wrong-one"), "{err}");
    // The node's doubled "Authentication failed: Authentication failed: …" is said once.
    assert!(err.contains("Invalid username or password"), "{err}");
    assert_eq!(err.matches("Authentication failed").count(), 1, "{err}");
    // No password and no terminal: a usage error saying how to give one.
    env.cmd()
        .args(["login", "-u", USER])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--password-stdin"));
    env.cmd()
        .args(["login", "-u", USER, "--password-stdin"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the password is empty"));
}

#[test]
fn auth_token_prints_only_the_token_and_refreshes_it() {
    support::side_by_side(&VERSIONS, |p| {
        let env = auth_env_on(p);
        let n = &env.node;
        // Not logged in: exit 3 with the command that logs in.
        let a = env.cmd().args(["auth", "token"]).assert().code(3);
        assert!(Env::stdout(&a).is_empty());
        let err = Env::stderr(&a);
        assert!(err.contains("not logged in to"), "{err}");
        assert!(err.contains("calimcp login --node"), "{err}");
        env.cmd()
            .args(["login", "-u", USER, "--password-stdin"])
            .write_stdin(PASS)
            .assert()
            .success();
        let a = env.cmd().args(["auth", "token"]).assert().success();
        let first = Env::stdout(&a);
        assert_eq!(first.lines().count(), 1, "{first}");
        let first = first.trim().to_string();
        assert_eq!(first.split('.').count(), 3, "a JWT: {first}");
        assert!(env.state_text().contains(&first));
        // The token works as a bearer token for another tool.
        calimcp(env.home.path())
            .env("CALIMERO_NODE_URL", &n.url)
            .env("CALIMCP_STATE_DIR", env.home.path().join("other-state"))
            .env("CALIMERO_AUTH_TOKEN", &first)
            .args(["call", "kv_store_len"])
            .assert()
            .success();
        // Expired: refreshed once, the new token printed.
        n.expire_tokens();
        let a = env.cmd().args(["auth", "token"]).assert().success();
        let second = Env::stdout(&a).trim().to_string();
        assert_ne!(first, second);
        assert_eq!(n.refreshes(), 1);
        assert_eq!(n.logins(), 1);
        let a = env.cmd().args(["auth", "token"]).assert().success();
        assert_eq!(Env::stdout(&a).trim(), second);
        assert_eq!(n.refreshes(), 1);
        // --json: one object holding the token, as every command's --json output.
        let a = env
            .cmd()
            .args(["auth", "token", "--json"])
            .assert()
            .success();
        let v: serde_json::Value = serde_json::from_str(&Env::stdout(&a)).expect("JSON");
        assert_eq!(v, serde_json::json!({ "token": second }));
    });
}

#[test]
fn logout_removes_the_cached_login() {
    support::side_by_side(&VERSIONS, |p| {
        let env = auth_env_on(p);
        env.cmd()
            .args(["login", "-u", USER, "--password-stdin"])
            .write_stdin(PASS)
            .assert()
            .success();
        let a = env.cmd().arg("logout").assert().success();
        assert!(
            Env::stdout(&a).contains("logged out of"),
            "{}",
            Env::stdout(&a)
        );
        assert!(!env.state_text().contains("access_token"));
        // rc.83 ended the session on the node too (its refresh token retired).
        let ended = env.node.logged_out().len();
        assert_eq!(ended, usize::from(env.node.profile() == Profile::Rc83));
        let a = env.cmd().args(["call", "kv_store_len"]).assert().code(3);
        let err = Env::stderr(&a);
        assert!(err.contains("calimcp login"), "{err}");
        env.cmd().args(["auth", "token"]).assert().code(3);
        // Not logged in has its own code, for scripts that then run `calimcp login`;
        // a token the node refuses stays `auth`.
        for args in [
            &["call", "kv_store_len", "--json"][..],
            &["auth", "token", "--json"],
        ] {
            let a = env.cmd().args(args).assert().code(3);
            assert_eq!(Env::code(&a), "not_logged_in", "{args:?}");
        }
        let a = env
            .cmd()
            .args(["call", "kv_store_len", "--json", "--token", "not-a-token"])
            .assert()
            .code(3);
        assert_eq!(Env::code(&a), "auth");
        // Nobody logged in: says so, exit 0.
        env.cmd()
            .arg("logout")
            .assert()
            .success()
            .stdout(predicate::str::contains("nobody was logged in"));
    });
}

#[test]
fn several_cached_users_are_named_and_one_is_picked_by_name() {
    let env = Env::with(
        FakeNode::builder()
            .auth(USER, PASS)
            .user("bob", "bob-pass")
            .start(),
    );
    for (u, p) in [(USER, PASS), ("bob", "bob-pass")] {
        env.cmd()
            .args(["login", "-u", u, "--password-stdin"])
            .write_stdin(p)
            .assert()
            .success();
    }
    let a = env.cmd().args(["call", "kv_store_len"]).assert().code(3);
    let err = Env::stderr(&a);
    assert!(err.contains("several users for it: admin, bob"), "{err}");
    assert!(err.contains("CALIMERO_USERNAME=admin"), "{err}");
    let a = env.cmd().args(["auth", "token"]).assert().code(3);
    assert!(
        Env::stderr(&a).contains("admin, bob"),
        "{}",
        Env::stderr(&a)
    );
    for args in [
        &["call", "kv_store_len", "--json"][..],
        &["auth", "token", "--json"],
    ] {
        let a = env.cmd().args(args).assert().code(3);
        assert_eq!(Env::code(&a), "not_logged_in", "{args:?}");
    }
    // CALIMERO_USERNAME picks one; no new login.
    env.cmd()
        .env("CALIMERO_USERNAME", "bob")
        .args(["call", "kv_store_len"])
        .assert()
        .success();
    assert_eq!(env.node.logins(), 2);
    // auth status lists both, with the node's name, and no token.
    env.cmd()
        .args(["node", "add", "fake", &env.node.url])
        .assert()
        .success();
    let a = env
        .cmd()
        .args(["auth", "status", "--json"])
        .assert()
        .success();
    let v: Value = serde_json::from_str(&Env::stdout(&a)).unwrap();
    let users: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["username"].as_str().unwrap())
        .collect();
    assert_eq!(users, ["admin", "bob"], "{v}");
    assert_eq!(v[0]["names"], serde_json::json!(["fake"]), "{v}");
    assert_eq!(v[0]["current"], true, "{v}");
    let text = Env::stdout(&env.cmd().args(["auth", "status"]).assert().success());
    assert!(text.contains("fake") && text.contains("bob"), "{text}");
    assert!(!text.contains("eyJ"), "{text}");
    // logout --username (the flag login takes) removes one; the other is
    // then used without a name.
    env.cmd()
        .args(["logout", "--username", "bob"])
        .assert()
        .success();
    // `-u` and the former `--user` name the user too.
    let a = env.cmd().args(["logout", "-u", "bob"]).assert().success();
    assert!(
        Env::stdout(&a).contains("bob was not logged in"),
        "{}",
        Env::stdout(&a)
    );
    let a = env
        .cmd()
        .args(["logout", "--user", "bob"])
        .assert()
        .success();
    assert!(
        Env::stdout(&a).contains("bob was not logged in"),
        "{}",
        Env::stdout(&a)
    );
    env.cmd().args(["call", "kv_store_len"]).assert().success();
    assert_eq!(env.node.logins(), 2);
}

#[test]
fn login_with_a_node_name() {
    let env = auth_env();
    let home = env.home.path();
    calimcp(home)
        .args(["node", "add", "fake", &env.node.url])
        .assert()
        .success();
    calimcp(home)
        .args(["login", "--node", "fake", "-u", USER, "--password-stdin"])
        .write_stdin(PASS)
        .assert()
        .success()
        .stdout(predicate::str::contains("(fake)"));
    calimcp(home)
        .args(["call", "kv_store_len", "--node", "fake"])
        .assert()
        .success();
    calimcp(home)
        .args(["auth", "token", "--node", "fake"])
        .assert()
        .success();
    calimcp(home)
        .args(["logout", "--node", "fake"])
        .assert()
        .success();
    calimcp(home)
        .args(["auth", "token", "--node", "fake"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("calimcp login --node fake"));
    assert_eq!(env.node.logins(), 1);
}

/// `calimcp login` on a new pseudo-terminal as its controlling terminal:
/// the master side, the slave side (kept open to read its settings) and the child.
#[cfg(target_os = "linux")]
fn login_on_a_terminal(env: &Env) -> (std::fs::File, std::os::fd::OwnedFd, std::process::Child) {
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::process::CommandExt;

    let (mut m, mut s) = (0, 0);
    // SAFETY: openpty fills two fds; no name, termios or size given.
    let rc = unsafe {
        libc::openpty(
            &mut m,
            &mut s,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty");
    // SAFETY: both fds were just opened and are owned here.
    let (master, slave) = unsafe { (std::fs::File::from_raw_fd(m), OwnedFd::from_raw_fd(s)) };
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_calimcp"));
    cmd.env_clear()
        .env("HOME", env.home.path())
        .env("CALIMCP_STATE_DIR", env.home.path().join("state"))
        .env("CALIMERO_NODE_URL", &env.node.url)
        .env("NO_COLOR", "1")
        .arg("login")
        .stdin(slave.try_clone().unwrap())
        .stdout(slave.try_clone().unwrap())
        .stderr(slave.try_clone().unwrap());
    let slave_fd = slave.as_raw_fd();
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setsid() < 0 || libc::ioctl(slave_fd, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = cmd.spawn().unwrap();
    (master, slave, child)
}

/// Reads the terminal until `want` shows (or the child's side is closed).
#[cfg(target_os = "linux")]
fn read_until(master: &mut std::fs::File, seen: &mut Vec<u8>, want: &str) -> String {
    use std::io::Read;
    let mut buf = [0u8; 256];
    while !String::from_utf8_lossy(seen).contains(want) {
        match master.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8_lossy(seen).into_owned()
}

/// Whether the terminal echoes what is typed.
#[cfg(target_os = "linux")]
fn echoes(slave: &std::os::fd::OwnedFd) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: termios is plain data, filled by tcgetattr for an open terminal.
    let mut t: libc::termios = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::tcgetattr(slave.as_raw_fd(), &mut t) }, 0);
    t.c_lflag & libc::ECHO != 0
}

/// The prompt under a pseudo-terminal: the user is echoed, the password not.
#[cfg(target_os = "linux")]
#[test]
fn login_asks_on_the_terminal_without_echoing_the_password() {
    use std::io::Write;
    let env = auth_env();
    let (mut master, slave, mut child) = login_on_a_terminal(&env);
    let mut seen = Vec::new();
    let out = read_until(&mut master, &mut seen, "Username for ");
    assert!(out.contains(&env.node.url), "{out}");
    master.write_all(format!("{USER}\n").as_bytes()).unwrap();
    let out = read_until(&mut master, &mut seen, "Password: ");
    assert!(out.contains(USER), "the username is echoed: {out}");
    assert!(!echoes(&slave), "echo is off while the password is typed");
    master.write_all(format!("{PASS}\n").as_bytes()).unwrap();
    let status = child.wait().unwrap();
    let out = read_until(&mut master, &mut seen, "(`calimcp logout` ends it)");
    assert!(status.success(), "{out}");
    assert!(out.contains("logged in to"), "{out}");
    assert!(!out.contains(PASS), "the password was echoed: {out}");
    assert!(echoes(&slave), "echo is back");
    assert_eq!(env.node.logins(), 1);
}

/// Ctrl-C at the password prompt ends calimcp and leaves the terminal echoing.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_at_the_password_prompt_puts_the_echo_back() {
    use std::io::Write;
    use std::os::unix::process::ExitStatusExt;
    let env = auth_env();
    let (mut master, slave, mut child) = login_on_a_terminal(&env);
    let mut seen = Vec::new();
    read_until(&mut master, &mut seen, "Username for ");
    master.write_all(format!("{USER}\n").as_bytes()).unwrap();
    read_until(&mut master, &mut seen, "Password: ");
    assert!(!echoes(&slave));
    master.write_all(b"half\x03").unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    assert!(echoes(&slave), "the terminal echoes again");
    assert_eq!(env.node.logins(), 0);
}

/// Commands run side by side (as `serve` and a command are) share one cached
/// login: when its access token has expired, one of them refreshes and the
/// others use the pair it got — a refresh token is never spent twice (the
/// fake, as rc.25, revokes the whole token family when it is).
#[test]
fn parallel_commands_sharing_a_login_refresh_it_once() {
    let env = auth_env();
    let n = &env.node;
    env.login();
    for round in 1..=3 {
        n.expire_tokens();
        let runs: Vec<_> = (0..8)
            .map(|_| {
                let home = env.home.path().to_path_buf();
                let url = n.url.clone();
                std::thread::spawn(move || {
                    std::process::Command::new(env!("CARGO_BIN_EXE_calimcp"))
                        .env_clear()
                        .env("HOME", &home)
                        .env("CALIMCP_STATE_DIR", home.join("state"))
                        .env("CALIMERO_NODE_URL", url)
                        .env("NO_COLOR", "1")
                        .args(["call", "kv_store_len"])
                        .output()
                        .unwrap()
                })
            })
            .collect();
        for run in runs {
            let out = run.join().unwrap();
            assert!(
                out.status.success(),
                "round {round}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert_eq!(n.refreshes(), round, "one refresh a round");
    }
    assert_eq!(n.logins(), 1, "never logged in again");
}

/// A login whose token family the node revoked (here: another program used
/// a copy of its refresh token, as a second tool sharing the login would) is
/// reported as ended by the node, with how to log in again — by the command
/// that meets it and by every later one, not as "not logged in".
#[test]
fn a_login_the_node_revoked_is_reported_as_such_until_logged_in_again() {
    support::side_by_side(&[Profile::Rc25, Profile::Rc83], |p| {
        let env = auth_env_on(p);
        let n = &env.node;
        env.login();
        // Another program's copy of the login.
        let copy = env.home.path().join("copy");
        std::fs::create_dir(&copy).unwrap();
        for f in std::fs::read_dir(env.home.path().join("state"))
            .unwrap()
            .flatten()
        {
            if f.file_name().to_string_lossy().starts_with("tokens-") {
                std::fs::copy(f.path(), copy.join(f.file_name())).unwrap();
            }
        }
        n.expire_tokens();
        env.cmd().args(["call", "kv_store_len"]).assert().success();
        // The copy's refresh token is spent: the node revokes the family.
        let a = env
            .cmd()
            .env("CALIMCP_STATE_DIR", &copy)
            .args(["call", "kv_store_len", "--json"])
            .assert()
            .code(3);
        assert_eq!(Env::code(&a), "token_dead");
        assert!(Env::stderr(&a).contains("revoked the whole token family"));
        // calimcp's own login is dead too: said when met, and after.
        for _ in 0..2 {
            let a = env
                .cmd()
                .args(["call", "kv_store_len", "--json"])
                .assert()
                .code(3);
            assert_eq!(Env::code(&a), "token_revoked", "{}", Env::stderr(&a));
            assert!(
                Env::stderr(&a).contains("calimcp login"),
                "{}",
                Env::stderr(&a)
            );
        }
        let a = env.cmd().args(["auth", "token", "--json"]).assert().code(3);
        assert_eq!(Env::code(&a), "token_revoked");
        assert!(
            Env::stderr(&a).contains("ended calimcp's login of admin"),
            "{}",
            Env::stderr(&a)
        );
        // A new login ends that.
        env.login();
        env.cmd().args(["call", "kv_store_len"]).assert().success();
    });
}

/// The one token cache file of the env's state directory.
fn token_file(env: &Env) -> std::path::PathBuf {
    std::fs::read_dir(env.home.path().join("state"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("tokens-") && name.ends_with(".json")
        })
        .expect("a token cache file")
}

/// `logout` ends the session on a node that can (merod 0.11.0-rc.83: `POST
/// /auth/logout` with the login's refresh token, then the local copy), and
/// on one that cannot (rc.25: no such route) says the refresh token stays
/// valid on the node until it expires.
#[test]
fn logout_ends_the_session_on_the_node_where_the_node_can() {
    for p in [Profile::Rc83, Profile::Rc25, Profile::Rc4] {
        let env = Env::with(FakeNode::builder().profile(p).auth(USER, PASS).start());
        env.login();
        let refresh: String = {
            let v: Value =
                serde_json::from_slice(&std::fs::read(token_file(&env)).unwrap()).unwrap();
            v["refresh_token"].as_str().unwrap().to_string()
        };
        env.node.clear_requests();
        let a = env.cmd().args(["logout", "--json"]).assert().success();
        let v: Value = serde_json::from_str(&Env::stdout(&a)).unwrap();
        support::json_schema::assert_valid("logout", &v);
        assert_eq!(v["logged_out"], serde_json::json!([USER]), "{v}");
        assert!(!env.state_text().contains("refresh_token"), "{p:?}");
        let asked: Vec<_> = env
            .node
            .requests()
            .into_iter()
            .filter(|r| r.path == "/auth/logout")
            .collect();
        assert_eq!(asked.len(), 1, "{p:?}");
        // Exactly the key rc.83's LogoutRequest takes.
        assert_eq!(
            asked[0].json(),
            serde_json::json!({"refresh_token": refresh})
        );
        if p == Profile::Rc83 {
            assert_eq!(v["on_node"][0]["session"], "ended", "{v}");
            assert_eq!(env.node.logged_out(), std::slice::from_ref(&refresh));
        } else {
            assert_eq!(v["on_node"][0]["session"], "not_ended_unsupported", "{v}");
        }
        // The words, in text.
        env.login();
        let a = env.cmd().arg("logout").assert().success();
        let out = Env::stdout(&a);
        if p == Profile::Rc83 {
            assert!(out.contains("the node ended the session"), "{out}");
        } else {
            assert!(
                out.contains("cannot end a session")
                    && out.contains("refresh token stays valid on the node until it expires"),
                "{out}"
            );
        }
    }
}

/// A node that refuses to end the session, or cannot be reached: the local
/// copy goes all the same (exit 0), and logout says what happened on the
/// node's side.
#[test]
fn logout_removes_the_local_copy_when_the_node_refuses_or_is_gone() {
    let env = Env::with(
        FakeNode::builder()
            .profile(Profile::Rc83)
            .auth(USER, PASS)
            .start(),
    );
    env.login();
    // The node no longer knows the refresh token (it was used by a refresh
    // the cache never saw): 401 "Invalid refresh token".
    let path = token_file(&env);
    let mut v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    v["refresh_token"] = "refresh-unknown".into();
    std::fs::write(&path, v.to_string()).unwrap();
    let a = env.cmd().arg("logout").assert().success();
    let err = Env::stderr(&a);
    assert!(
        err.contains("the node refused to end the session")
            && err.contains("Invalid refresh token")
            && err.contains("calimcp's copy is removed"),
        "{err}"
    );
    assert!(!env.state_text().contains("access_token"));
    // The node down: unreachable, said; the copy goes.
    env.login();
    env.node.set_down(true);
    let a = env
        .cmd()
        .args(["--timeout", "5", "logout", "--json"])
        .assert()
        .success();
    let v: Value = serde_json::from_str(&Env::stdout(&a)).unwrap();
    assert_eq!(v["on_node"][0]["session"], "not_ended_unreachable", "{v}");
    assert!(v["on_node"][0]["detail"].is_string(), "{v}");
    assert!(!env.state_text().contains("access_token"));
}

/// rc.83 tokens carry `key_id`; a login cached before the node's upgrade is
/// a bare 401 (no X-Auth-Error) that no refresh can mend: the message says
/// the node no longer accepts tokens issued before it was upgraded, and to
/// log in again.
#[test]
fn a_token_from_before_the_upgrade_to_rc83_says_to_log_in_again() {
    use calimcp_node::auth::{Tokens, cache_path, write_cache};

    let env = Env::with(
        FakeNode::builder()
            .profile(Profile::Rc83)
            .auth(USER, PASS)
            .start(),
    );
    let (access, refresh) = env.node.mint_before_upgrade(1_800_000_000);
    let state = env.home.path().join("state");
    std::fs::create_dir_all(&state).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    write_cache(
        &cache_path(&state, &env.node.url, Some(USER)),
        &env.node.url,
        Some(USER),
        &Tokens {
            access: Some(access),
            refresh: Some(refresh),
        },
    )
    .unwrap();
    let a = env
        .cmd()
        .args(["call", "kv_store_len", "--json"])
        .assert()
        .code(3);
    let err = Env::stderr(&a);
    let line: Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    let msg = line["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("no longer accepts the token") && msg.contains("before the node was upgraded"),
        "{msg}"
    );
    assert!(
        line["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("calimcp login"),
        "{line}"
    );
    // A login made now works.
    env.login();
    env.cmd().args(["call", "kv_store_len"]).assert().success();
}
