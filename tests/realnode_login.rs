//! `calimcp login`, `auth token`, `logout` and a named node against a real
//! Calimero node with embedded auth (rc4: the first login creates the user;
//! rc25: the user exists from `merod init`): the login stays for later calls,
//! the printed token is one the node takes, logout ends it.

mod support;

use support::realnode::{Options, PASSWORD, RealNode, USER, kv_app, on_each_version};

on_each_version! {
fn a_login_stays_and_its_token_is_printed_for_scripts(v) {
    let Some(mut node) = RealNode::start_with(
        "a_login_stays_and_its_token_is_printed_for_scripts",
        Options {
            version: v,
            embedded_auth: true,
            ..Options::default()
        },
    ) else {
        return;
    };
    // The harness's own login (rc4: creates the user), for setting up the app.
    let _ = node.login_user();
    node.setup(&kv_app(), "com.example.kv-c", Some("kvmain"));
    let config = tempfile::tempdir().unwrap();
    let cmd = || {
        let mut c = node.calimcp();
        c.env_remove("CALIMERO_USERNAME")
            .env_remove("CALIMERO_PASSWORD")
            .env_remove("CALIMERO_PASSWORD_FILE")
            .env_remove("CALIMERO_REFRESH_TOKEN")
            .env("XDG_CONFIG_HOME", config.path());
        c
    };
    let out = |a: &assert_cmd::assert::Assert| {
        (
            String::from_utf8_lossy(&a.get_output().stdout).into_owned(),
            String::from_utf8_lossy(&a.get_output().stderr).into_owned(),
        )
    };
    let add = ["call", "com.example.kv-c.add", "--a", "1", "--b", "2", "-v"];
    // Not logged in: the node refuses, and the hint says how to log in.
    let a = cmd().args(add).assert().code(3);
    assert!(out(&a).1.contains("calimcp login"), "{}", out(&a).1);
    // A name for the node, and a login through it with the password on stdin.
    cmd().args(["node", "add", "real", &node.url]).assert().success();
    let a = cmd()
        .args(["login", "--node", "real", "-u", USER, "--password-stdin"])
        .write_stdin(format!("{PASSWORD}\n"))
        .assert()
        .success();
    assert!(out(&a).0.contains(&format!("as {USER}")), "{}", out(&a).0);
    // Later calls need no variables and do not log in again.
    for _ in 0..2 {
        let a = cmd().args(add).assert().success();
        let (stdout, stderr) = out(&a);
        assert_eq!(stdout.trim(), "3", "{stderr}");
        assert!(!stderr.contains("/auth/token"), "logged in again: {stderr}");
        assert!(!stderr.contains(PASSWORD), "{stderr}");
    }
    // `auth token` prints only a token, one the node takes from another tool.
    let a = cmd().args(["auth", "token", "--node", "real"]).assert().success();
    let token = out(&a).0;
    assert_eq!(token.lines().count(), 1, "{token}");
    let fresh = tempfile::tempdir().unwrap();
    cmd()
        .env("CALIMCP_STATE_DIR", fresh.path())
        .env("CALIMERO_AUTH_TOKEN", token.trim())
        .args(["call", "com.example.kv-c.add", "--a", "2", "--b", "2"])
        .assert()
        .success()
        .stdout("4\n");
    // Logged out: refused again; `auth token` exits 3.
    let a = cmd().args(["logout", "--node", "real"]).assert().success();
    // Neither rc.4 nor rc.25 has `POST /auth/logout` (rc.83 does): the node
    // cannot end the session, and logout says the refresh token stays valid.
    assert!(
        out(&a).0.contains("cannot end a session")
            && out(&a).0.contains("refresh token stays valid on the node until it expires"),
        "{}",
        out(&a).0
    );
    cmd().args(add).assert().code(3);
    cmd().args(["auth", "token"]).assert().code(3);
    // A wrong password: exit 3, never shown.
    let a = cmd()
        .args(["login", "-u", USER, "--password-stdin"])
        .write_stdin("wrong-battery")
        .assert()
        .code(3);
    assert!(!out(&a).1.contains("wrong-battery"), "{}", out(&a).1);
}
}

/// rc.25 revokes the whole token family when a refresh token is used twice:
/// commands run side by side on one cached login (as `serve` and a command
/// are), after its access token expired, must refresh it once between them —
/// one refreshes, the others take the pair it got from the cache — and all
/// succeed. (rc4 accepts a replayed refresh token, so only rc25 can tell.)
#[test]
fn rc25_parallel_commands_on_one_login_refresh_it_once() {
    let Some(mut node) = RealNode::start_with(
        "rc25_parallel_commands_on_one_login_refresh_it_once",
        Options {
            version: support::realnode::Version::Rc25,
            embedded_auth: true,
            access_ttl: Some(1),
            ..Options::default()
        },
    ) else {
        return;
    };
    let _ = node.login_user();
    node.setup(&kv_app(), "com.example.kv-c", Some("kvmain"));
    node.calimcp()
        .args(["login", "-u", USER, "--password-stdin"])
        .write_stdin(format!("{PASSWORD}\n"))
        .assert()
        .success();
    // The node's JWT check accepts a token up to 60 s past its `exp` (1 s
    // after the login): wait until the cached one is certainly refused.
    std::thread::sleep(std::time::Duration::from_secs(64));
    let runs: Vec<_> = (0..8)
        .map(|_| {
            let mut c = node.calimcp_std();
            c.env_remove("CALIMERO_USERNAME")
                .env_remove("CALIMERO_PASSWORD")
                .env_remove("CALIMERO_PASSWORD_FILE")
                .env_remove("CALIMERO_REFRESH_TOKEN")
                .args(["-v", "call", "com.example.kv-c.add", "--a", "1", "--b", "2"]);
            std::thread::spawn(move || c.output().unwrap())
        })
        .collect();
    let mut refreshes = 0;
    for run in runs {
        let out = run.join().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "3", "{err}");
        assert!(!err.contains("/auth/token"), "logged in again: {err}");
        refreshes += err
            .lines()
            .filter(|l| l.starts_with("> POST") && l.contains("/auth/refresh"))
            .count();
    }
    assert_eq!(refreshes, 1, "one refresh between them");
}
