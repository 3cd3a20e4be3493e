//! The node client against the fake node: wire format, caching, errors, auth.

mod support;

use std::time::Duration;

use calimcp_core::{Code, ErrorKind};
use calimcp_node::{Client, NodeOptions};
use serde_json::{Value, json};
use support::fake_node::{self, FakeNode, Profile, id};

fn options(url: &str, state: &std::path::Path) -> NodeOptions {
    NodeOptions {
        url: url.to_string(),
        timeout: Duration::from_secs(1),
        execute_timeout: Duration::from_secs(1),
        connect_timeout: Duration::from_secs(1),
        token: None,
        refresh_token: None,
        username: None,
        password: None,
        state_dir: state.to_path_buf(),
        verbose: false,
        max_response: calimcp_node::DEFAULT_MAX_RESPONSE,
        max_blob: calimcp_node::DEFAULT_MAX_BLOB,
        identity: None,
    }
}

fn client(node: &FakeNode, state: &std::path::Path) -> Client {
    Client::new(options(&node.url, state)).unwrap()
}

#[tokio::test]
async fn applications_are_listed_with_metadata_and_services() {
    let node = FakeNode::start();
    let dir = tempfile::tempdir().unwrap();
    let apps = client(&node, dir.path()).applications().await.unwrap();
    let kv = apps.iter().find(|a| a.id == id(fake_node::KV)).unwrap();
    assert_eq!(kv.package.as_deref(), Some("com.calimero.kv-store"));
    assert_eq!(kv.name.as_deref(), Some("KV Store"));
    assert_eq!(kv.version.as_deref(), Some("1.2.0"));
    assert!(kv.services.is_empty());
    let nb = apps
        .iter()
        .find(|a| a.id == id(fake_node::NOTEBOOK))
        .unwrap();
    let names: Vec<&str> = nb.services.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(names, ["pages", "registry"]);
    assert!(nb.services.iter().all(|s| s.1.is_some()));
}

#[tokio::test]
async fn abis_are_fetched_once_then_read_from_the_cache() {
    let node = FakeNode::start();
    let dir = tempfile::tempdir().unwrap();
    let c = client(&node, dir.path());
    let apps = c.applications().await.unwrap();
    let nb = apps
        .iter()
        .find(|a| a.id == id(fake_node::NOTEBOOK))
        .unwrap();
    let pages = c.abi(nb, Some("pages")).await.unwrap();
    let registry = c.abi(nb, Some("registry")).await.unwrap();
    assert_ne!(pages, registry, "the cache is keyed by service");
    assert!(pages["methods"].is_array());
    let abi_requests = |n: &FakeNode| {
        n.requests()
            .iter()
            .filter(|r| r.path.ends_with("/abi"))
            .count()
    };
    assert_eq!(abi_requests(&node), 2);
    let r = node
        .requests()
        .into_iter()
        .find(|r| r.path.ends_with("/abi"))
        .unwrap();
    assert_eq!(r.query, "service_name=pages");
    // A second client with the same state directory reads both from disk.
    let c2 = client(&node, dir.path());
    assert_eq!(c2.abi(nb, Some("pages")).await.unwrap(), pages);
    assert_eq!(c2.abi(nb, Some("registry")).await.unwrap(), registry);
    assert_eq!(abi_requests(&node), 2);
}

#[tokio::test]
async fn without_the_abi_route_abis_come_from_the_apps_modules() {
    for p in [Profile::V010, Profile::Rc4] {
        let node = FakeNode::with_profile(p);
        let dir = tempfile::tempdir().unwrap();
        let c = client(&node, dir.path());
        let apps = c.applications().await.unwrap();
        let local: Value = serde_json::from_slice(
            &std::fs::read(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/support/abi/typed.json"
            ))
            .unwrap(),
        )
        .unwrap();
        let typed = apps
            .iter()
            .find(|a| a.id == node.id(fake_node::TYPED))
            .unwrap();
        let kv = apps
            .iter()
            .find(|a| a.id == node.id(fake_node::KV))
            .unwrap();
        node.clear_requests();
        assert_eq!(c.abi(typed, None).await.unwrap(), local, "{p:?}");
        c.abi(kv, None).await.unwrap();
        let paths: Vec<String> = node.requests().into_iter().map(|r| r.path).collect();
        // The route is probed once per client; then only the modules are read.
        assert_eq!(
            paths,
            [
                format!("/admin-api/applications/{}/abi", node.id(fake_node::TYPED)),
                format!("/admin-api/blobs/{}", typed.bytecode_blob.clone().unwrap()),
                format!("/admin-api/blobs/{}", kv.bytecode_blob.clone().unwrap()),
            ],
            "{p:?}"
        );
        // The same on-disk cache: a new client reads nothing.
        node.clear_requests();
        let c2 = client(&node, dir.path());
        assert_eq!(c2.abi(typed, None).await.unwrap(), local);
        assert!(node.requests().is_empty());
        // A module built without the section: what to do, and asked once.
        let legacy = apps
            .iter()
            .find(|a| a.id == node.id(fake_node::LEGACY))
            .unwrap();
        let e = c.abi(legacy, None).await.unwrap_err();
        assert_eq!(e.code, Code::NoEmbeddedAbi);
        assert_eq!(e.kind, ErrorKind::Remote);
        assert!(
            e.message.contains("ABI file") && e.message.contains("rebuild"),
            "{}",
            e.message
        );
        node.clear_requests();
        assert_eq!(
            c.abi(legacy, None).await.unwrap_err().code,
            Code::NoEmbeddedAbi
        );
        assert!(node.requests().is_empty(), "the module is read once");
    }
    // Multi-service apps (rc4): each service's own blob.
    let node = FakeNode::with_profile(Profile::Rc4);
    let dir = tempfile::tempdir().unwrap();
    let c = client(&node, dir.path());
    let apps = c.applications().await.unwrap();
    let nb = apps
        .iter()
        .find(|a| a.id == node.id(fake_node::NOTEBOOK))
        .unwrap();
    let pages = c.abi(nb, Some("pages")).await.unwrap();
    let registry = c.abi(nb, Some("registry")).await.unwrap();
    assert_ne!(pages, registry);
    let blobs: Vec<String> = node
        .requests()
        .into_iter()
        .filter(|r| r.path.contains("/blobs/"))
        .map(|r| r.path)
        .collect();
    assert_eq!(blobs.len(), 2, "{blobs:?}");
}

#[tokio::test]
async fn concurrent_abi_reads_probe_the_route_once() {
    let node = FakeNode::with_profile(Profile::Rc4);
    let dir = tempfile::tempdir().unwrap();
    let c = client(&node, dir.path());
    let apps = c.applications().await.unwrap();
    node.clear_requests();
    let mut set = tokio::task::JoinSet::new();
    for a in apps.clone() {
        let c = c.clone();
        set.spawn(async move { c.abi(&a, a.services.first().map(|s| s.0.as_str())).await });
    }
    while set.join_next().await.is_some() {}
    let probes = node
        .requests()
        .iter()
        .filter(|r| r.path.ends_with("/abi"))
        .count();
    assert_eq!(probes, 1);
}

#[tokio::test]
async fn a_module_past_the_cap_is_refused() {
    let node = FakeNode::with_profile(Profile::Rc4);
    let dir = tempfile::tempdir().unwrap();
    let c = Client::new(NodeOptions {
        max_blob: 64,
        ..options(&node.url, dir.path())
    })
    .unwrap();
    let apps = c.applications().await.unwrap();
    let kv = apps
        .iter()
        .find(|a| a.id == node.id(fake_node::KV))
        .unwrap();
    let e = c.abi(kv, None).await.unwrap_err();
    assert_eq!(e.code, Code::ResponseTooLarge);
    assert_eq!(e.kind, ErrorKind::Remote);
    assert!(e.hint.unwrap().contains("CALIMCP_MAX_BLOB"));
}

#[tokio::test]
async fn the_nodes_error_messages_pass_through_verbatim() {
    let node = FakeNode::start();
    let dir = tempfile::tempdir().unwrap();
    let c = client(&node, dir.path());
    let apps = c.applications().await.unwrap();
    let nb = apps
        .iter()
        .find(|a| a.id == id(fake_node::NOTEBOOK))
        .unwrap();
    let e = c.abi(nb, None).await.unwrap_err();
    assert_eq!(
        e.message,
        "application has multiple services; pass service_name (available: pages, registry)"
    );
    assert_eq!(e.kind, ErrorKind::Remote);
}

#[tokio::test]
async fn contexts_and_aliases() {
    let node = FakeNode::start();
    let dir = tempfile::tempdir().unwrap();
    let c = client(&node, dir.path());
    let ctxs = c
        .contexts_for_application(&id(fake_node::NOTEBOOK))
        .await
        .unwrap();
    assert_eq!(ctxs.len(), 3);
    assert_eq!(ctxs[0].service_name.as_deref(), Some("registry"));
    assert_eq!(ctxs[0].application_id, id(fake_node::NOTEBOOK));
    assert!(
        c.contexts_for_application(&id(fake_node::LONELY))
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        c.lookup_context_alias("prod").await.unwrap(),
        Some(id(fake_node::CTX_KV))
    );
    assert_eq!(c.lookup_context_alias("nope").await.unwrap(), None);
    // The node rejects impossible aliases; that is a miss, and the name is encoded.
    assert_eq!(c.lookup_context_alias("a b/c").await.unwrap(), None);
    let last = node.requests().pop().unwrap();
    assert_eq!(last.path, "/admin-api/alias/lookup/context/a%20b%2Fc");
    assert_eq!(last.method, "POST");
}

#[tokio::test]
async fn execute_round_trips_and_keeps_64_bit_integers_exact() {
    let node = FakeNode::start();
    let dir = tempfile::tempdir().unwrap();
    let c = client(&node, dir.path());
    let kv = id(fake_node::CTX_KV);
    let out = c
        .execute(&kv, "set", &json!({"key": "a", "value": "b"}), None)
        .await
        .unwrap();
    assert_eq!(out, Value::Null);
    assert_eq!(
        c.execute(&kv, "get", &json!({"key": "a"}), None)
            .await
            .unwrap(),
        json!("b")
    );
    let typed = id(fake_node::CTX_TYPED);
    let me = id(fake_node::owner_seed(fake_node::CTX_TYPED));
    let args = json!({"small": 1, "big": u64::MAX, "neg": i64::MIN});
    let out = c
        .execute(&typed, "echo_numbers", &args, Some(&me))
        .await
        .unwrap();
    assert_eq!(out, args);
    let sent = node.executes().pop().unwrap();
    assert!(
        sent.body.contains("\"big\":18446744073709551615"),
        "{}",
        sent.body
    );
    assert!(
        sent.body.contains("\"neg\":-9223372036854775808"),
        "{}",
        sent.body
    );
    let body = sent.json();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["method"], "execute");
    assert_eq!(body["params"]["contextId"], typed);
    assert_eq!(body["params"]["executorPublicKey"], me.as_str());
    assert!(body["id"].is_u64());
    assert_eq!(sent.header("content-type"), Some("application/json"));
}

#[tokio::test]
async fn execute_failures_are_decoded() {
    let node = FakeNode::start();
    let dir = tempfile::tempdir().unwrap();
    let c = client(&node, dir.path());
    let ctx = id(fake_node::CTX_FAULTS);
    let e = c.execute(&ctx, "boom", &json!({}), None).await.unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (
            ErrorKind::Remote,
            "`boom` returned an error: the key is missing"
        )
    );
    let e = c
        .execute(&ctx, "panic", &json!({}), None)
        .await
        .unwrap_err();
    assert_eq!(
        e.message,
        "`panic` failed: guest panicked: index out of bounds: the len is 0 but the index is 3 at src/lib.rs:10:5"
    );
    let e = c.execute(&ctx, "html", &json!({}), None).await.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Remote);
    assert_eq!(
        e.message,
        format!(
            "HTTP 500 Internal Server Error from {}/jsonrpc - the node said: Internal Server Error",
            node.url
        )
    );
    let e = c
        .execute(&ctx, "uninit", &json!({}), None)
        .await
        .unwrap_err();
    assert_eq!(e.code, Code::Uninitialized);
    let e = c
        .execute(&id(99), "get", &json!({}), None)
        .await
        .unwrap_err();
    assert_eq!(e.code, Code::ContextNotFound);
}

#[tokio::test]
async fn a_slow_node_times_out_and_a_closed_port_is_unreachable() {
    let node = FakeNode::start();
    let dir = tempfile::tempdir().unwrap();
    let c = client(&node, dir.path());
    let start = std::time::Instant::now();
    let e = c
        .execute(&id(fake_node::CTX_FAULTS), "slow", &json!({}), None)
        .await
        .unwrap_err();
    assert!(
        start.elapsed() < fake_node::SLOW,
        "the timeout bounds the wait"
    );
    assert_eq!((e.kind, e.code), (ErrorKind::Unreachable, Code::Timeout));
    assert!(e.message.contains("no answer within 1 s"), "{}", e.message);
    let closed = fake_node::closed_port_url();
    let c = Client::new(options(&closed, dir.path())).unwrap();
    let e = c.applications().await.unwrap_err();
    assert_eq!(
        (e.kind, e.code),
        (ErrorKind::Unreachable, Code::Unreachable)
    );
    assert!(
        e.message
            .starts_with(&format!("cannot reach the node at {closed}")),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn a_base_path_is_kept() {
    let node = FakeNode::builder().base_path("/mero/node-1").start();
    let dir = tempfile::tempdir().unwrap();
    let c = Client::new(options(&format!("{}/?x=1", node.url), dir.path())).unwrap();
    assert_eq!(c.url(), node.url);
    assert!(!c.applications().await.unwrap().is_empty());
    c.execute(&id(fake_node::CTX_KV), "len", &json!({}), None)
        .await
        .unwrap();
    let paths: Vec<String> = node.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths,
        [
            "/mero/node-1/admin-api/applications",
            "/mero/node-1/jsonrpc"
        ]
    );
}

fn auth_options(node: &FakeNode, state: &std::path::Path) -> NodeOptions {
    NodeOptions {
        username: Some("admin".into()),
        password: Some("hunter2".into()),
        ..options(&node.url, state)
    }
}

#[tokio::test]
async fn credentials_log_in_once_and_the_tokens_are_cached_privately() {
    let node = FakeNode::builder().auth("admin", "hunter2").start();
    let dir = tempfile::tempdir().unwrap();
    let c = Client::new(auth_options(&node, dir.path())).unwrap();
    c.applications().await.unwrap();
    c.contexts_for_application(&id(fake_node::KV))
        .await
        .unwrap();
    assert_eq!(node.logins(), 1);
    let bearer = node
        .requests()
        .last()
        .unwrap()
        .header("authorization")
        .unwrap()
        .to_string();
    assert!(bearer.starts_with("Bearer "));
    // A new process reuses the cached pair: no second login.
    let c2 = Client::new(auth_options(&node, dir.path())).unwrap();
    c2.applications().await.unwrap();
    assert_eq!(node.logins(), 1);
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("tokens-")
        })
        .collect();
    assert_eq!(files.len(), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&files[0]).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[tokio::test]
async fn wrong_credentials_are_an_auth_error_without_the_password() {
    let node = FakeNode::builder().auth("admin", "hunter2").start();
    let dir = tempfile::tempdir().unwrap();
    let opts = NodeOptions {
        password: Some("wrong-pass".into()),
        ..auth_options(&node, dir.path())
    };
    let e = Client::new(opts).unwrap().applications().await.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Auth);
    assert!(
        e.message.contains("Invalid username or password"),
        "{}",
        e.message
    );
    // The node's doubled prefix (tests/golden/responses/login-failed.json) is said once.
    assert_eq!(
        e.message.matches("Authentication failed").count(),
        1,
        "{}",
        e.message
    );
    assert!(!e.to_string().contains("wrong-pass"));
    // No credentials at all: the node's 401 is an auth error with a hint.
    let e = client(&node, dir.path()).applications().await.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Auth);
    assert!(e.hint.unwrap().contains("CALIMERO_AUTH_TOKEN"));
}

#[tokio::test]
async fn an_expired_token_is_refreshed_once_even_under_concurrency() {
    let node = FakeNode::builder().auth("admin", "hunter2").start();
    let dir = tempfile::tempdir().unwrap();
    let c = Client::new(auth_options(&node, dir.path())).unwrap();
    c.applications().await.unwrap();
    node.expire_tokens();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..4 {
        let c = c.clone();
        tasks.spawn(async move {
            c.execute(&id(fake_node::CTX_KV), "len", &json!({}), None)
                .await
        });
    }
    while let Some(r) = tasks.join_next().await {
        assert_eq!(r.unwrap().unwrap(), json!(0));
    }
    assert_eq!(node.refreshes(), 1);
    assert_eq!(node.logins(), 1);
}

#[tokio::test]
async fn without_credentials_an_expired_pair_is_refreshed_and_stored() {
    let node = FakeNode::builder().auth("admin", "hunter2").start();
    let dir = tempfile::tempdir().unwrap();
    let (access, refresh) = node.mint(1_800_000_000);
    let opts = NodeOptions {
        token: Some(access.clone()),
        refresh_token: Some(refresh.clone()),
        ..options(&node.url, dir.path())
    };
    Client::new(opts.clone())
        .unwrap()
        .applications()
        .await
        .unwrap();
    node.expire_tokens();
    let c = Client::new(opts.clone()).unwrap();
    c.applications().await.unwrap();
    assert_eq!(node.refreshes(), 1);
    // The environment still holds the old, consumed pair; the cache holds the
    // new one and wins, so the consumed refresh token is never replayed.
    node.expire_tokens();
    let c = Client::new(opts).unwrap();
    c.applications().await.unwrap();
    assert_eq!(node.refreshes(), 2);
    let refresh_bodies: Vec<Value> = node
        .requests()
        .into_iter()
        .filter(|r| r.path == "/auth/refresh")
        .map(|r| r.json())
        .collect();
    assert_eq!(refresh_bodies[0]["refresh_token"], refresh);
    assert_ne!(refresh_bodies[1]["refresh_token"], refresh);
}

#[tokio::test]
async fn a_newer_environment_token_replaces_the_cache() {
    let node = FakeNode::builder().auth("admin", "hunter2").start();
    let dir = tempfile::tempdir().unwrap();
    let (old_a, old_r) = node.mint(1_000);
    let with = |a: &str, r: &str| NodeOptions {
        token: Some(a.into()),
        refresh_token: Some(r.into()),
        ..options(&node.url, dir.path())
    };
    Client::new(with(&old_a, &old_r))
        .unwrap()
        .applications()
        .await
        .unwrap();
    let (new_a, new_r) = node.mint(2_000);
    Client::new(with(&new_a, &new_r))
        .unwrap()
        .applications()
        .await
        .unwrap();
    assert_eq!(
        node.requests().last().unwrap().header("authorization"),
        Some(format!("Bearer {new_a}").as_str())
    );
    // An older one does not.
    Client::new(with(&old_a, &old_r))
        .unwrap()
        .applications()
        .await
        .unwrap();
    assert_eq!(
        node.requests().last().unwrap().header("authorization"),
        Some(format!("Bearer {new_a}").as_str())
    );
}

/// `execute` and the other requests have their own bounds (issue 20.4): a
/// call past its bound says it may still have run; listings keep theirs.
#[tokio::test]
async fn execute_has_its_own_bound_and_a_timed_out_call_may_have_run() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let dir = tempfile::tempdir().unwrap();
    let c = Client::new(NodeOptions {
        timeout: Duration::from_secs(20),
        execute_timeout: Duration::from_millis(200),
        ..options(&node.url, dir.path())
    })
    .unwrap();
    assert_eq!(c.execute_timeout(), Duration::from_millis(200));
    assert!(!c.applications().await.unwrap().is_empty());
    let start = std::time::Instant::now();
    let e = c
        .execute(&id(fake_node::CTX_FAULTS), "slow", &json!({}), None)
        .await
        .unwrap_err();
    assert!(start.elapsed() < fake_node::SLOW);
    assert_eq!(e.kind, ErrorKind::Unreachable);
    assert_eq!(e.code, Code::Timeout);
    assert!(
        e.message.contains("no answer within 0.2 s"),
        "{}",
        e.message
    );
    assert!(e.message.contains("may still have run"), "{}", e.message);
    assert!(
        !e.retryable,
        "a call that may have run is not repeated blindly"
    );
    // The defaults: 300 s for execute, 30 s for the rest.
    let d = NodeOptions::new("http://127.0.0.1:1", dir.path());
    assert_eq!(d.execute_timeout, Duration::from_secs(300));
    assert_eq!(d.timeout, Duration::from_secs(30));
    assert_eq!(d.connect_timeout, Duration::from_secs(10));
}

/// The ABI cache is keyed by the node and the app as well as the module,
/// and an entry that was altered is fetched anew (issue 24.8).
#[tokio::test]
async fn the_abi_cache_is_per_node_and_checked_when_read() {
    let (a, b) = (FakeNode::start(), FakeNode::start());
    let dir = tempfile::tempdir().unwrap();
    let abi_requests = |n: &FakeNode| {
        n.requests()
            .iter()
            .filter(|r| r.path.ends_with("/abi"))
            .count()
    };
    let kv_of = |apps: Vec<calimcp_node::NodeApp>| {
        apps.into_iter()
            .find(|x| x.id == id(fake_node::KV))
            .unwrap()
    };
    let ca = client(&a, dir.path());
    let kv = kv_of(ca.applications().await.unwrap());
    let from_a = ca.abi(&kv, None).await.unwrap();
    assert_eq!(abi_requests(&a), 1);
    // Another node with the same blob id: its own ABI, not node A's.
    let cb = client(&b, dir.path());
    let kv_b = kv_of(cb.applications().await.unwrap());
    assert_eq!(kv_b.bytecode_blob, kv.bytecode_blob);
    cb.abi(&kv_b, None).await.unwrap();
    assert_eq!(abi_requests(&b), 1, "node B was asked");
    // An entry altered on disk is not believed.
    let cache = dir.path().join("abi");
    for entry in std::fs::read_dir(&cache).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("methods"), "{text}");
        std::fs::write(&path, text.replace("methods", "methodz")).unwrap();
    }
    let ca2 = client(&a, dir.path());
    assert_eq!(ca2.abi(&kv, None).await.unwrap(), from_a);
    assert_eq!(abi_requests(&a), 2, "the altered entry was fetched anew");
    // And the rewritten entry is read back without asking.
    let ca3 = client(&a, dir.path());
    assert_eq!(ca3.abi(&kv, None).await.unwrap(), from_a);
    assert_eq!(abi_requests(&a), 2);
}
