//! `calimcp watch` against the fake node's event stream (SSE, in the node's
//! wire format): every node version's profile, events the ABI does not
//! declare, data that is not JSON, the node's own event types, and a stream
//! the node drops. The real node runs the same paths in tests/realnode_watch.rs.

mod support;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};
use support::fake_node::{CTX_KV, Profile};
use support::{Env, wire};

/// The versions the watch tests whose wire differs run on: rc.4 and rc.25
/// (real nodes) and rc.83 (its recorded wire).
const VERSIONS: [Profile; 3] = [Profile::Rc4, Profile::Rc25, Profile::Rc83];

/// What the watch tests ask of [`Env`].
trait WatchEnv {
    fn call(&self, args: &[&str]);

    /// `calimcp watch ARGS` in the background, once it has subscribed.
    fn watch(&self, args: &[&str]) -> Watch {
        self.watch_with(args, &[])
    }

    /// [`WatchEnv::watch`] with more variables set.
    fn watch_with(&self, args: &[&str], vars: &[(&str, &str)]) -> Watch;
}

impl WatchEnv for Env {
    fn call(&self, args: &[&str]) {
        self.cmd().arg("call").args(args).assert().success();
    }

    fn watch_with(&self, args: &[&str], vars: &[(&str, &str)]) -> Watch {
        let mut child = self
            .std_cmd()
            .envs(vars.iter().copied())
            .arg("watch")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, rx) = mpsc::channel();
        let err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let mut w = Watch {
            child,
            stderr: rx,
            seen: Vec::new(),
        };
        w.wait_for("watching ");
        w
    }
}

struct Watch {
    child: Child,
    stderr: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Watch {
    /// Reads stderr until a line contains `needle` (bounded).
    fn wait_for(&mut self, needle: &str) {
        loop {
            match self.stderr.recv_timeout(Duration::from_secs(30)) {
                Ok(line) => {
                    let found = line.contains(needle);
                    self.seen.push(line);
                    if found {
                        return;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("no stderr line with {needle:?}: {:?}", self.seen);
                }
            }
        }
    }

    fn finish(mut self) -> (i32, Vec<Value>, String) {
        let mut out = String::new();
        self.child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        let code = self.child.wait().unwrap().code().unwrap_or(-1);
        while let Ok(line) = self.stderr.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(line);
        }
        let lines = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        (code, lines, self.seen.join("\n"))
    }
}

#[test]
fn the_kv_stores_events_are_decoded_on_every_node_version() {
    for profile in Profile::ALL {
        let env = Env::on(profile);
        let w = env.watch(&[
            "kv-store",
            "-c",
            "prod",
            "--json",
            "--count",
            "3",
            "--stop-after",
            "60",
        ]);
        env.call(&["kv_store_set", "--key", "a", "--value", "1", "-c", "prod"]);
        env.call(&["kv_store_remove", "--key", "a", "-c", "prod"]);
        env.call(&["kv_store_clear", "-c", "prod"]);
        let (code, lines, err) = w.finish();
        let p = profile.name();
        assert_eq!(code, 0, "{p}: {err}");
        assert_eq!(lines.len(), 3, "{p}: {lines:?}");
        for l in &lines {
            assert_eq!(l["context"], env.node.id(CTX_KV), "{p}: {l}");
        }
        assert_eq!(lines[0]["event"], "Inserted");
        assert_eq!(lines[0]["payload"], "a");
        assert_eq!(lines[0]["valid"], true, "{p}: {}", lines[0]);
        assert_eq!(lines[1]["event"], "Removed");
        assert_eq!(lines[1]["valid"], true);
        // Cleared is not in the kv-store ABI: shown, marked, warned about once.
        assert_eq!(lines[2]["event"], "Cleared");
        assert_eq!(lines[2]["valid"], false);
        assert_eq!(lines[2]["problem"], "the ABI declares no such event");
        assert_eq!(err.matches("warning: event `Cleared`").count(), 1, "{err}");
        for l in &lines {
            support::json_schema::assert_valid("watch", l);
        }
    }
}

#[test]
fn undecodable_data_and_the_nodes_own_events_are_shown_in_the_same_shape() {
    support::side_by_side(&VERSIONS, |p| {
        let env = Env::on(p);
        let ctx = env.node.id(CTX_KV);
        let w = env.watch(&["kv-store", "-c", "prod", "--json", "--all", "--count", "4"]);
        env.node.emit(&ctx, &[("Inserted", b"not json")]);
        env.node.emit(&ctx, &[("Inserted", &[0xff, 0xfe])]);
        env.node.emit_node_event(&wire::event_sync_status(
            &ctx,
            &json!({"state": "syncing"}),
            0,
            None,
        ));
        env.node
            .emit_node_event(&json!({"contextId": ctx, "type": "FutureThing", "data": {"x": 1}}));
        let (code, lines, err) = w.finish();
        assert_eq!(code, 0, "{err}");
        assert_eq!(lines[0]["payload"], "not json");
        // `raw`: the bytes in base64 (issue 28.6: never a number per byte).
        assert_eq!(lines[0]["raw"], "bm90IGpzb24=");
        assert!(lines[0]["problem"].as_str().unwrap().contains("not JSON"));
        assert_eq!(lines[1]["raw"], "//4=");
        assert_eq!(lines[1]["payload"], Value::Null);
        assert!(lines[1]["problem"].as_str().unwrap().contains("UTF-8"));
        assert_eq!(lines[2]["event"], "SyncStatus");
        assert_eq!(lines[2]["valid"], Value::Null);
        assert_eq!(lines[2]["payload"]["syncState"]["state"], "syncing");
        assert_eq!(lines[3]["event"], "FutureThing");
        assert_eq!(lines[3]["payload"], json!({"x": 1}));
        // Every shape of line is the published one (docs/json/watch.schema.json).
        for l in &lines {
            support::json_schema::assert_valid("watch", l);
        }
    });
}

#[test]
fn a_dropped_stream_is_reopened_with_a_warning() {
    support::side_by_side(&VERSIONS, |p| {
        let env = Env::on(p);
        let ctx = env.node.id(CTX_KV);
        let mut w = env.watch(&["kv-store", "-c", "prod", "--json", "--count", "2"]);
        env.node.emit(&ctx, &[("Inserted", b"\"one\"")]);
        env.node.drop_event_streams();
        // Said when it drops, and again when it is back.
        w.wait_for("the event stream dropped; reopening it");
        w.wait_for("the event stream is back: opened again");
        env.node.emit(&ctx, &[("Inserted", b"\"two\"")]);
        let (code, lines, err) = w.finish();
        assert_eq!(code, 0, "{err}");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["payload"], "one");
        assert_eq!(lines[1]["payload"], "two");
        assert!(
            err.contains("events the node produced in between are lost"),
            "{err}"
        );
    });
}

#[test]
fn bad_watch_arguments_are_usage_errors() {
    let env = Env::on(Profile::Rc25);
    env.cmd()
        .args(["watch", "kv-store", "--exec", "sh -c 'open"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("a quote is not closed"));
    env.cmd()
        .args(["watch", "kv-store", "--stop-after", "0"])
        .assert()
        .code(2);
    env.cmd()
        .args(["watch", "kv-store", "--count", "0"])
        .assert()
        .code(2);
    env.cmd()
        .args(["watch", "lonely"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("has no context"));
}

#[test]
fn ctrl_c_and_a_closed_stdout_end_it_quietly() {
    let env = Env::on(Profile::Rc25);
    let ctx = env.node.id(CTX_KV);
    // Ctrl-C (SIGINT): exit 0, no error.
    let w = env.watch(&["kv-store", "-c", "prod"]);
    let ok = std::process::Command::new("kill")
        .args(["-INT", &w.child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let (code, _, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("error"), "{err}");

    // A reader that goes away (`calimcp watch … | head -1`): exit 0 at the next event.
    let mut w = env.watch(&["kv-store", "-c", "prod", "--json"]);
    let mut out = BufReader::new(w.child.stdout.take().unwrap());
    env.node.emit(&ctx, &[("Inserted", b"\"one\"")]);
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.contains("\"one\""), "{first}");
    drop(out);
    env.node.emit(&ctx, &[("Inserted", b"\"two\"")]);
    let code = w.child.wait().unwrap().code();
    assert_eq!(code, Some(0));
    while let Ok(line) = w.stderr.recv_timeout(Duration::from_secs(5)) {
        assert!(!line.contains("error"), "{line}");
    }
}

// ---- hostile and unusual nodes (issues 20 and 24) ----

/// rc.18+ leave out of the subscription the contexts the caller may not
/// observe (rc.25 and rc.83): that is an error before "watching", not a
/// silent wait (20.3).
#[test]
fn a_context_the_node_leaves_out_is_an_error_before_watching() {
    support::side_by_side(&[Profile::Rc25, Profile::Rc83], |p| {
        let env = Env::on(p);
        let ctx = env.node.id(CTX_KV);
        env.node.sse_faults(|f| f.denied.push(ctx.clone()));
        let a = env
            .cmd()
            .args(["watch", "kv-store", "-c", "prod", "--stop-after", "30"])
            .assert()
            .code(3);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(err.contains("did not subscribe to context"), "{err}");
        assert!(err.contains(&ctx), "{err}");
        assert!(err.contains("not a member"), "{err}");
        assert!(!err.contains("watching"), "{err}");
    });
}

/// A node that never sends `connect`: --stop-after bounds the opening, and
/// without it the request bound does (24.4).
#[test]
fn a_node_that_never_connects_is_bounded() {
    let env = Env::on(Profile::Rc25);
    env.node.sse_faults(|f| f.never_connect = true);
    let start = std::time::Instant::now();
    env.cmd()
        .args(["watch", "kv-store", "-c", "prod", "--stop-after", "0.5"])
        .assert()
        .code(124)
        .stderr(predicates::str::contains(
            "did not even open its event stream",
        ));
    env.cmd()
        .args(["watch", "kv-store", "-c", "prod", "--timeout", "0.5"])
        .assert()
        .code(4)
        .stderr(predicates::str::contains("no `connect` message"));
    assert!(start.elapsed() < Duration::from_secs(20));
}

/// Issue 32: with --json, stderr is JSON lines only: the "watching" note is
/// `{"note": …}` beside the error, never text.
#[test]
fn watch_json_writes_only_json_lines_on_stderr() {
    let env = Env::on(Profile::Rc25);
    let a = env
        .cmd()
        .args([
            "watch",
            "kv-store",
            "-c",
            "prod",
            "--json",
            "--stop-after",
            "0.3",
        ])
        .assert()
        .code(124);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    let lines: Vec<Value> = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert!(
        lines.iter().any(|l| l["note"]
            .as_str()
            .is_some_and(|n| n.starts_with("watching "))),
        "{err}"
    );
    // The error printed is the timeout that exit 124 stands for.
    assert!(
        lines.iter().any(|l| l["error"]["code"] == "timeout"),
        "{err}"
    );
    // Each line is in its published shape (docs/json/note, error).
    for l in &lines {
        let name = if l.get("note").is_some() {
            "note"
        } else {
            "error"
        };
        support::json_schema::assert_valid(name, l);
    }
}

/// Events of contexts that were not asked for never count (24.7).
#[test]
fn events_of_other_contexts_do_not_count() {
    support::side_by_side(&VERSIONS, |p| {
        let env = Env::on(p);
        let ctx = env.node.id(CTX_KV);
        let w = env.watch(&["kv-store", "-c", "prod", "--json", "--until", "Inserted"]);
        for other in [
            env.node.id(support::fake_node::CTX_KV2_2),
            "not-a-context".to_string(),
        ] {
            env.node.emit_to_all(&wire::event_state_mutation(
                &other,
                "R",
                &[("Inserted", b"\"theirs\"")],
            ));
        }
        env.node.emit(&ctx, &[("Inserted", b"\"mine\"")]);
        let (code, lines, err) = w.finish();
        assert_eq!(code, 0, "{err}");
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert_eq!(lines[0]["payload"], "mine");
    });
}

/// A stream that closes right after each opening is reopened with backoff,
/// and the watch gives up after --reconnect-for, saying so (24.5, 20.2).
#[test]
fn a_stream_that_closes_at_once_backs_off_and_the_watch_gives_up() {
    let env = Env::on(Profile::Rc25);
    let mut w = env.watch(&["kv-store", "-c", "prod", "--reconnect-for", "1"]);
    let opens = env.node.stream_opens();
    env.node.sse_faults(|f| f.close_after_open = 10_000);
    env.node.drop_event_streams();
    let (code, _, err) = {
        w.wait_for("the watch stopped");
        w.finish()
    };
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("gave up reopening the event stream"), "{err}");
    assert!(err.contains("down for"), "{err}");
    // Backing off from 10 ms to 100 ms within 1 s: a handful of tries, not thousands.
    let tries = env.node.stream_opens() - opens;
    assert!((3..=40).contains(&tries), "{tries} tries");
}

/// A node down for a while: the watch waits it out and says how long the
/// stream was down (20.2); a control character in an event id does not
/// break the reconnection (24.5).
#[test]
fn a_restart_is_waited_out_and_a_bad_event_id_does_not_break_it() {
    let env = Env::on(Profile::Rc25);
    let ctx = env.node.id(CTX_KV);
    let mut w = env.watch(&[
        "kv-store",
        "-c",
        "prod",
        "--json",
        "--count",
        "2",
        "--reconnect-for",
        "30",
        "-v",
    ]);
    env.node.sse_faults(|f| f.id_suffix = "\u{1}x".into());
    env.node.emit(&ctx, &[("Inserted", b"\"one\"")]);
    env.node.set_down(true);
    env.node.drop_event_streams();
    // Down until calimcp has tried (and failed) twice.
    w.wait_for("(event stream)");
    w.wait_for("(event stream)");
    env.node.set_down(false);
    w.wait_for("opened again after");
    env.node.emit(&ctx, &[("Inserted", b"\"two\"")]);
    let (code, lines, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines.len(), 2, "{err}");
    assert_eq!(lines[1]["payload"], "two");
}

/// Invalid events are warned about once per name, whatever the problem's
/// text (24.5).
#[test]
fn invalid_events_warn_once_per_name() {
    let env = Env::on(Profile::Rc25);
    let ctx = env.node.id(CTX_KV);
    let w = env.watch(&["kv-store", "-c", "prod", "--json", "--count", "3"]);
    for bad in [&b"1"[..], b"[2]", b"{\"x\":3}"] {
        env.node.emit(&ctx, &[("Inserted", bad)]);
    }
    let (code, lines, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    assert!(lines.iter().all(|l| l["valid"] == false), "{lines:?}");
    assert_eq!(err.matches("warning: event `Inserted`").count(), 1, "{err}");
}

/// `--exec` runs off the event loop: a command that never ends (and never
/// reads a payload past the pipe's 64 KiB) holds neither the deadline nor
/// Ctrl-C (24.12); it inherits no credentials (24.11).
#[test]
fn exec_holds_nothing_up_and_inherits_no_secrets() {
    let env = Env::on(Profile::Rc25);
    let ctx = env.node.id(CTX_KV);
    // A payload of 100 KiB to `sleep`, which never reads it.
    let big = format!("\"{}\"", "x".repeat(100 << 10));
    let start = std::time::Instant::now();
    let w = env.watch(&[
        "kv-store",
        "-c",
        "prod",
        "--json",
        "--count",
        "2",
        "--stop-after",
        "3",
        "--exec",
        "sh -c 'exec sleep 60 > /dev/null 2>&1'",
    ]);
    env.node.emit(&ctx, &[("Inserted", big.as_bytes())]);
    env.node.emit(&ctx, &[("Inserted", b"\"two\"")]);
    let (code, lines, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines.len(),
        2,
        "both printed while the first command ran: {err}"
    );
    assert!(start.elapsed() < Duration::from_secs(60));

    // Ctrl-C while a command runs.
    let running = env.home.path().join("running");
    let cmd = format!(
        "sh -c 'touch {}; exec sleep 60 > /dev/null 2>&1'",
        running.display()
    );
    let w = env.watch(&["kv-store", "-c", "prod", "--json", "--exec", &cmd]);
    env.node.emit(&ctx, &[("Inserted", b"\"one\"")]);
    let mut polls = 0;
    while !running.exists() {
        polls += 1;
        assert!(polls < 3000, "the command never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let ok = std::process::Command::new("kill")
        .args(["-INT", &w.child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let (code, _, err) = w.finish();
    assert_eq!(code, 0, "{err}");

    // The command's environment has the event, not the token or password.
    let out = env.home.path().join("env.txt");
    let cmd = format!("sh -c 'env > {}'", out.display());
    let w = env.watch_with(
        &[
            "kv-store", "-c", "prod", "--json", "--count", "1", "--exec", &cmd,
        ],
        &[
            ("CALIMERO_AUTH_TOKEN", "tok-SECRET-1"),
            ("CALIMERO_PASSWORD", "pw-SECRET-2"),
            ("CALIMERO_USERNAME", "admin"),
        ],
    );
    env.node.emit(&ctx, &[("Inserted", b"\"one\"")]);
    let (code, _, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    let seen = std::fs::read_to_string(&out).unwrap();
    assert!(seen.contains("CALIMCP_EVENT=Inserted"), "{seen}");
    assert!(!seen.contains("SECRET"), "{seen}");
}

/// A watched context the node has no state for is said at once, with the
/// case (20.6).
#[test]
fn an_uninitialized_context_is_said_when_the_watch_starts() {
    let env = Env::on(Profile::Rc25);
    let ctx = env.node.id(CTX_KV);
    env.node
        .set_sync_status(&ctx, false, json!({"state": "waitingForPeers"}), 0, None);
    let mut w = env.watch(&["kv-store", "-c", "prod", "--json", "--count", "1"]);
    w.wait_for("has no state on this node yet");
    let said = w.seen.last().unwrap().clone();
    assert!(said.contains("waiting for peers"), "{said}");
    assert!(said.contains("in bursts at each sync"), "{said}");
    env.node.emit(&ctx, &[("Inserted", b"\"one\"")]);
    let (code, _, err) = w.finish();
    assert_eq!(code, 0, "{err}");
}

/// Issue 22.16: `--until NAME` for an event the ABI does not declare warns,
/// as `call --wait-event` does (shared check), and waits for it anyway; a
/// declared one does not warn.
#[test]
fn until_an_undeclared_event_warns_and_waits_anyway() {
    let env = Env::on(Profile::Rc25);
    let ctx = env.node.id(CTX_KV);
    let w = env.watch(&["kv-store", "-c", "prod", "--json", "--until", "Nope"]);
    env.node.emit(&ctx, &[("Nope", b"")]);
    let (code, lines, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "warning: com.calimero.kv-store declares no event `Nope`; waiting for it anyway"
        ),
        "{err}"
    );
    assert_eq!(
        lines.last().map(|l| l["event"].clone()),
        Some(json!("Nope")),
        "{lines:?}"
    );
    let w = env.watch(&["kv-store", "-c", "prod", "--json", "--until", "Inserted"]);
    env.node.emit(&ctx, &[("Inserted", br#""k""#)]);
    let (code, _, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("declares no event"), "{err}");
}

/// `call --wait-event` makes the same check as `watch --until` (one function).
#[test]
fn wait_event_for_an_undeclared_event_warns_the_same_way() {
    let env = Env::on(Profile::Rc25);
    let out = env
        .cmd()
        .args([
            "call",
            "kv_store_set",
            "--key",
            "a",
            "--value",
            "b",
            "-c",
            "prod",
        ])
        .args(["--wait-event", "Nope", "--wait-timeout", "0.5"])
        .assert()
        .code(124);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains(
            "warning: com.calimero.kv-store declares no event `Nope`; waiting for it anyway"
        ),
        "{err}"
    );
}

/// The "watching" line names the context as it was typed: a hex id on a
/// base58 node stays hex, an alias shows its id beside it (issue 22.16).
#[test]
fn the_watched_context_is_named_as_typed() {
    support::side_by_side(&VERSIONS, |p| {
        let env = Env::on(p);
        let hex = support::fake_node::hex_id(CTX_KV);
        for (typed, shown) in [
            (hex.clone(), format!("watching context {hex} of")),
            (
                "prod".to_string(),
                format!("watching context prod ({}) of", env.node.id(CTX_KV)),
            ),
        ] {
            let w = env.watch(&["kv-store", "-c", &typed, "--stop-after", "0.5"]);
            let (code, _, err) = w.finish();
            assert_eq!(code, 124, "{err}");
            assert!(err.contains(&shown), "{typed}: {err}");
        }
    });
}

/// Issue 28.6: a 3 MB event whose data is not JSON is held as its bytes and
/// printed as base64 (its memory is measured in BENCHMARKS.md), in `--json`
/// and in text.
#[test]
fn a_large_event_that_is_not_json_comes_whole_as_base64() {
    let env = Env::on(Profile::Rc25);
    let ctx = env.node.id(CTX_KV);
    let data: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8 | 0x80).collect();
    let w = env.watch(&["kv-store", "-c", "prod", "--json", "--count", "1"]);
    env.node.emit(&ctx, &[("Inserted", &data)]);
    let (code, lines, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    let raw = lines[0]["raw"].as_str().expect("raw is one string");
    assert_eq!(raw.len(), 4_000_000);
    assert_eq!(&raw[..8], "gIGCg4SF");
    assert_eq!(lines[0]["payload"], Value::Null);

    let w = env.watch(&["kv-store", "-c", "prod", "--count", "1"]);
    env.node.emit(&ctx, &[("Inserted", &data[..3])]);
    let mut out = String::new();
    let mut w = w;
    w.child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(
        out.contains(" Inserted base64:gIGC  [invalid: its data is not UTF-8 text]"),
        "{out}"
    );
    let _ = w.child.wait();
}

/// Issue 28.9: the runs `--exec` queues are bounded in bytes
/// (`CALIMCP_MAX_EXEC_QUEUE`), not only in count; what is dropped is said.
#[test]
fn exec_runs_waiting_are_bounded_in_bytes() {
    let env = Env::on(Profile::Rc25);
    let ctx = env.node.id(CTX_KV);
    let go = env.home.path().join("go");
    let runs = env.home.path().join("runs");
    // Each run waits until `go` exists, then records itself.
    let cmd = format!(
        "sh -c 'while [ ! -e {} ]; do sleep 0.05; done; cat > /dev/null; echo run >> {}'",
        go.display(),
        runs.display()
    );
    let mut w = env.watch_with(
        &[
            "kv-store", "-c", "prod", "--json", "--count", "10", "--exec", &cmd,
        ],
        &[("CALIMCP_MAX_EXEC_QUEUE", "3M")],
    );
    // Ten events of 1 MiB each: their JSON lines take a little more.
    let big = format!("\"{}\"", "x".repeat(1 << 20));
    for _ in 0..10 {
        env.node.emit(&ctx, &[("Inserted", big.as_bytes())]);
    }
    // stdout is read beside, so printing never waits for this test.
    let out = w.child.stdout.take().unwrap();
    let (lines_tx, lines_rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            let _ = lines_tx.send(line);
        }
    });
    // Every event is printed while the first run waits.
    for _ in 0..10 {
        lines_rx
            .recv_timeout(Duration::from_secs(30))
            .expect("an event printed");
    }
    w.wait_for("CALIMCP_MAX_EXEC_QUEUE");
    std::fs::write(&go, "").unwrap();
    let code = w.child.wait().unwrap().code();
    while let Ok(line) = w.stderr.recv_timeout(Duration::from_secs(5)) {
        w.seen.push(line);
    }
    let err = w.seen.join("\n");
    assert_eq!(code, Some(0), "{err}");
    let ran = std::fs::read_to_string(&runs).unwrap().lines().count();
    assert_eq!(ran, 2, "two runs of 1 MiB fit in 3 MiB: {err}");
    assert!(
        err.contains("it is not run for event `Inserted`"),
        "says what is dropped: {err}"
    );
}

/// `watch --group GROUP`: the group's membership and migration events (the
/// frames a real rc.25 sends: research note §9; rc.83's record §6), with the
/// node's payload as is, `context` empty and `group` the group; the
/// subscription names `groupIds` only when asked, and carries only the keys
/// the node takes.
#[test]
fn group_events_are_watched_on_nodes_that_send_them() {
    let group = "ab".repeat(32);
    let member = "12".repeat(32);
    for profile in [Profile::Rc25, Profile::Rc83] {
        let env = Env::on(profile);
        let p = profile.name();
        let w = env.watch(&[
            "--group",
            &group.to_uppercase(),
            "--json",
            "--count",
            "3",
            "--stop-after",
            "60",
        ]);
        env.node.emit_group(
            &group,
            "MemberJoined",
            &json!({"memberAccount": member, "role": "Member"}),
        );
        // Another group's event is not this watch's.
        env.node.emit_group(
            &"cd".repeat(32),
            "MemberJoined",
            &json!({"memberAccount": member}),
        );
        env.node.emit_group(
            &group,
            "MigrationStarted",
            &json!({"fromVersion": "0.1.0", "toVersion": "0.2.0", "toStateVersion": 0, "localContextsTotal": 1}),
        );
        env.node
            .emit_group(&group, "MemberRemoved", &json!({"memberAccount": member}));
        let (code, lines, err) = w.finish();
        assert_eq!(code, 0, "{p}: {err}");
        let names: Vec<&str> = lines.iter().map(|l| l["event"].as_str().unwrap()).collect();
        assert_eq!(
            names,
            ["MemberJoined", "MigrationStarted", "MemberRemoved"],
            "{p}"
        );
        for l in &lines {
            assert_eq!(l["group"], group.as_str(), "{p}: {l}");
            assert_eq!(l["context"], "", "{p}: {l}");
            assert_eq!(l["valid"], Value::Null, "{p}: {l}");
            support::json_schema::assert_valid("watch", l);
        }
        assert_eq!(lines[0]["payload"]["memberAccount"], member.as_str());
        assert_eq!(lines[0]["payload"]["role"], "Member");
        assert_eq!(lines[1]["payload"]["toVersion"], "0.2.0");
        let sub = env
            .node
            .requests()
            .into_iter()
            .find(|r| r.path == "/sse/subscription")
            .unwrap()
            .json();
        assert_eq!(
            sub["params"],
            json!({"contextIds": [], "groupIds": [group]}),
            "{p}"
        );
    }
}

/// An app and a group at once (rc.83): the app's events decoded, the
/// group's as the node sent them, in one stream.
#[test]
fn an_app_and_a_group_are_watched_together() {
    let group = "ef".repeat(32);
    let env = Env::on(Profile::Rc83);
    let w = env.watch(&[
        "kv-store",
        "-c",
        "prod",
        "--group",
        &group,
        "--json",
        "--count",
        "2",
        "--stop-after",
        "60",
    ]);
    env.call(&["kv_store_set", "--key", "a", "--value", "1", "-c", "prod"]);
    env.node.emit_group(
        &group,
        "MigrationCompleted",
        &json!({"toVersion": "0.2.0", "completedAt": 1}),
    );
    let (code, lines, err) = w.finish();
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines[0]["event"], "Inserted", "{lines:?}");
    assert_eq!(lines[0]["context"], env.node.id(CTX_KV));
    assert!(lines[0].get("group").is_none(), "{}", lines[0]);
    assert_eq!(lines[1]["event"], "MigrationCompleted");
    assert_eq!(lines[1]["group"], group.as_str());
}

/// rc.4's subscription has no `groupIds` and ignores the key, so a group
/// watch would wait for ever: refused (exit 2), naming the version. A group
/// id that is not 64 hex is bad input before the node is asked.
#[test]
fn a_group_watch_on_a_node_without_group_events_is_refused() {
    for profile in [Profile::Rc4, Profile::V010] {
        let env = Env::on(profile);
        let a = env
            .cmd()
            .args([
                "watch",
                "--group",
                &"ab".repeat(32),
                "--json",
                "--stop-after",
                "30",
            ])
            .assert()
            .code(2);
        let err = support::stderr_of(&a);
        let e: Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
        assert_eq!(e["error"]["code"], "group_events_unsupported", "{e}");
        let msg = e["error"]["message"].as_str().unwrap();
        assert!(
            msg.contains("0.11.0-rc.18") && msg.contains("rc.4"),
            "{msg}"
        );
    }
    let env = Env::on(Profile::Rc25);
    let a = env
        .cmd()
        .args(["watch", "--group", "not-a-group"])
        .assert()
        .code(2);
    assert!(support::stderr_of(&a).contains("is not a group id"));
    assert!(
        env.node
            .requests()
            .iter()
            .all(|r| !r.path.starts_with("/sse"))
    );
}

/// With a login, the event stream is opened with the bearer token in the
/// `Authorization` header, never in the URL: what rc.83's SDKs send (the
/// wire record §1 "Guard", §6; whether rc.83 still reads `?token=` is not
/// known), and what rc.4 and rc.25 take too.
#[test]
fn a_logged_in_watch_sends_the_bearer_in_the_header() {
    support::side_by_side(&VERSIONS, |p| {
        let env = Env::with(
            support::fake_node::FakeNode::builder()
                .profile(p)
                .auth("admin", "s3cret-pass")
                .start(),
        );
        let vars = [
            ("CALIMERO_USERNAME", "admin"),
            ("CALIMERO_PASSWORD", "s3cret-pass"),
        ];
        let ctx = env.node.id(CTX_KV);
        let w = env.watch_with(&["kv-store", "-c", "prod", "--json", "--count", "1"], &vars);
        env.node.emit(&ctx, &[("Inserted", b"\"one\"")]);
        let (code, lines, err) = w.finish();
        assert_eq!(code, 0, "{p:?}: {err}");
        assert_eq!(lines[0]["payload"], "one", "{p:?}");
        let opens: Vec<_> = env
            .node
            .requests()
            .into_iter()
            .filter(|r| r.path.ends_with("/sse"))
            .collect();
        assert!(!opens.is_empty(), "{p:?}");
        for r in opens {
            assert!(
                r.header("authorization")
                    .is_some_and(|h| h.starts_with("Bearer ")),
                "{p:?}: {:?}",
                r.headers
            );
            assert!(!r.query.contains("token"), "{p:?}: {}", r.query);
        }
    });
}
