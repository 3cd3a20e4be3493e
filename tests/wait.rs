//! `calimcp wait CONTEXT` against the fake node: until the node lists the
//! context with state (a non-zero root hash), exit 124 with the node's own
//! account when it does not come, on every profile.

mod support;

use predicates::prelude::*;
use serde_json::Value;
use support::fake_node::{self, FakeNode, Profile};
use support::{calimcp, stderr_of};

#[test]
fn wait_returns_once_the_context_is_initialized_on_every_profile() {
    for p in Profile::ALL {
        let node = FakeNode::with_profile(p);
        let home = tempfile::tempdir().unwrap();
        let ctx = node.id(fake_node::CTX_KV);
        // The first three listings show no state yet (the zero root hash).
        node.uninitialized_for(&ctx, 3);
        let a = calimcp(home.path())
            .env("CALIMERO_NODE_URL", &node.url)
            .args(["wait", &ctx, "--every", "0.01", "--json", "-v"])
            .assert()
            .success();
        let v: Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
        assert_eq!(v["initialized"], true, "{}", p.name());
        assert_eq!(v["checks"], 4, "{}", p.name());
        assert_eq!(v["context"], ctx.as_str());
        let err = stderr_of(&a);
        assert!(
            err.contains("check 1: not initialized yet") && err.contains("check 4: initialized"),
            "{}: {err}",
            p.name()
        );
        // An alias names it too; initialized already: one check.
        calimcp(home.path())
            .env("CALIMERO_NODE_URL", &node.url)
            .args(["wait", "prod"])
            .assert()
            .success()
            .stderr(predicate::str::contains("is initialized on"));
    }
}

#[test]
fn wait_gives_up_with_exit_124_and_says_why() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let ctx = node.id(fake_node::CTX_KV);
    node.uninitialized_for(&ctx, u32::MAX);
    node.set_peers(0);
    let a = calimcp(home.path())
        .env("CALIMERO_NODE_URL", &node.url)
        .args(["wait", &ctx, "--within", "0.3", "--every", "0.05"])
        .assert()
        .code(124);
    let err = stderr_of(&a);
    assert!(
        err.contains("is still not initialized on the node at")
            && err.contains("connected to no peers"),
        "{err}"
    );
    // --json: one error line with its code.
    let a = calimcp(home.path())
        .env("CALIMERO_NODE_URL", &node.url)
        .args(["wait", &ctx, "--within", "0.1", "--json"])
        .assert()
        .code(124);
    let line: Value = serde_json::from_str(stderr_of(&a).trim()).unwrap();
    assert_eq!(line["error"]["code"], "uninitialized");
}

#[test]
fn wait_refuses_unknown_contexts_at_once() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    calimcp(home.path())
        .env("CALIMERO_NODE_URL", &node.url)
        .args(["wait", "no-such-alias"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "neither a context id nor an alias",
        ));
    let missing = node.id(99);
    calimcp(home.path())
        .env("CALIMERO_NODE_URL", &node.url)
        .args(["wait", &missing])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not on the node at"));
    // `call` says the same of a context not on the node, with the same code.
    let apps = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    calimcp(home.path())
        .env("CALIMERO_NODE_URL", &node.url)
        .args(["--apps", apps, "call", "kv_store_len", "-c", &missing])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not on the node at"));
    calimcp(home.path())
        .args(["wait", &missing, "--offline"])
        .assert()
        .code(2);
}

/// Issue 27.7: the last check is at the deadline (also when --every is
/// longer than --within), the message gives the real time, and --within
/// bounds finding the context too.
#[test]
fn wait_checks_at_the_deadline_and_bounds_finding_the_context() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let ctx = node.id(fake_node::CTX_KV);
    node.uninitialized_for(&ctx, u32::MAX);
    let a = calimcp(home.path())
        .env("CALIMERO_NODE_URL", &node.url)
        .args(["wait", &ctx, "--within", "1", "--every", "10"])
        .assert()
        .code(124);
    let err = stderr_of(&a);
    assert!(err.contains("after 1 s (2 checks, "), "{err}");
    node.delay_context_lookups(std::time::Duration::from_secs(8));
    let started = std::time::Instant::now();
    let a = calimcp(home.path())
        .env("CALIMERO_NODE_URL", &node.url)
        .args(["wait", &ctx, "--within", "1"])
        .assert()
        .code(124);
    let err = stderr_of(&a);
    assert!(err.contains("within 1 s (waited "), "{err}");
    // Generous: far less than the node's delay.
    assert!(started.elapsed() < std::time::Duration::from_secs(6));
}
