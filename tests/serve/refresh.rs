//! `calimcp serve --refresh` against the fake node (issue 14): a client that
//! listed the tools once is told of a later change, however many unchanged
//! refreshes pass in between; and a served context's version change
//! (`AppVersionChanged`, issue 18) is told at once, not at the next refresh.

use crate::support;

use std::time::{Duration, Instant};

use serde_json::Value;
use support::fake_node::{self, FakeNode, Profile};
use support::serve::*;
use support::tool_names as names;
use support::wire;

/// How many times the server has read the node's app list so far.
fn app_reads(node: &FakeNode) -> usize {
    node.requests()
        .iter()
        .filter(|r| r.method == "GET" && r.path.ends_with("/admin-api/applications"))
        .count()
}

/// Waits (bounded, polling) until the node has seen `n` app-list reads.
async fn wait_reads(node: &FakeNode, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while app_reads(node) < n {
        assert!(
            Instant::now() < deadline,
            "the server read the app list {} times, waited for {n}",
            app_reads(node)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_change_after_idle_refreshes_is_announced() {
    let node = FakeNode::start();
    let watcher = Watcher::default();
    let (client, _stderr) =
        stdio_client_with(&["--node", &node.url, "--refresh", "1"], watcher.clone()).await;
    let before = listed_app_tools(&client).await;
    assert!(!before.to_string().contains("\"idle_"));
    // At least three refreshes that change nothing.
    let listed_at = app_reads(&node);
    wait_reads(&node, listed_at + 3).await;
    assert_eq!(
        watcher.changes.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "no notification while nothing changed"
    );
    let abi: Value = serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap();
    node.install("com.example.idle", abi);
    let installed_at = app_reads(&node);
    assert!(
        watcher.wait_for(1, Duration::from_secs(20)).await,
        "notifications/tools/list_changed after idle refreshes"
    );
    // Within one refresh interval: at most two reads after the install.
    assert!(
        app_reads(&node) <= installed_at + 2,
        "announced only after {} reads",
        app_reads(&node) - installed_at
    );
    let after = listed_app_tools(&client).await.to_string();
    assert!(after.contains("\"idle_set\""), "{after}");
    // Listing again re-arms the mark: a second change after more idle reads
    // is announced too.
    let again = app_reads(&node);
    wait_reads(&node, again + 3).await;
    let abi: Value = serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap();
    node.install("com.example.later", abi);
    assert!(
        watcher.wait_for(2, Duration::from_secs(20)).await,
        "the second change is announced as well"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_app_that_disappears_after_idle_refreshes_is_announced() {
    let node = FakeNode::start();
    let abi: Value = serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap();
    let (app, _) = node.install("com.example.gone", abi);
    let watcher = Watcher::default();
    let (client, _stderr) =
        stdio_client_with(&["--node", &node.url, "--refresh", "1"], watcher.clone()).await;
    let before = listed_app_tools(&client).await.to_string();
    assert!(before.contains("\"gone_set\""), "{before}");
    let listed_at = app_reads(&node);
    wait_reads(&node, listed_at + 3).await;
    assert_eq!(watcher.changes.load(std::sync::atomic::Ordering::SeqCst), 0);
    node.uninstall(&app);
    let removed_at = app_reads(&node);
    assert!(
        watcher.wait_for(1, Duration::from_secs(20)).await,
        "notifications/tools/list_changed when an app goes away"
    );
    assert!(
        app_reads(&node) <= removed_at + 2,
        "announced only after {} reads",
        app_reads(&node) - removed_at
    );
    let after = listed_app_tools(&client).await.to_string();
    assert!(!after.contains("\"gone_set\""), "{after}");
    client.cancel().await.unwrap();
}

/// The 2026-07-28 way, over Streamable HTTP: a `subscriptions/listen`
/// stream asking for tool-list changes is told of one after idle refreshes.
#[tokio::test]
async fn a_listen_stream_is_told_of_a_change_after_idle_refreshes() {
    install_crypto();
    let node = FakeNode::start();
    let server = HttpServer::start(&["--node", &node.url, "--refresh", "1"]);
    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(server.url.clone());
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
    let client = ()
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("server/discover over HTTP (2026-07-28)");
    let filter = rmcp::model::SubscriptionFilter::builder()
        .tools_list_changed()
        .build();
    let mut sub = client
        .peer()
        .listen(filter)
        .await
        .expect("subscriptions/listen");
    assert_eq!(sub.acknowledged().tools_list_changed, Some(true));
    let tools = client.peer().list_all_tools().await.unwrap();
    assert!(!tools.iter().any(|t| t.name.starts_with("listen_")));
    let listed_at = app_reads(&node);
    wait_reads(&node, listed_at + 3).await;
    let abi: Value = serde_json::from_str(include_str!("../support/abi/kv-store.json")).unwrap();
    node.install("com.example.listen", abi);
    let installed_at = app_reads(&node);
    let got = tokio::time::timeout(Duration::from_secs(20), sub.next())
        .await
        .expect("a notification within 20 s")
        .expect("the stream is open");
    assert!(
        matches!(
            got,
            Some(rmcp::model::ServerNotification::ToolListChangedNotification(_))
        ),
        "{got:?}"
    );
    assert!(app_reads(&node) <= installed_at + 2);
    drop(sub);
    let _ = client.cancel().await;
    assert_eq!(server.stop(), Some(0));
}

/// Waits (bounded, polling) until the node's event streams have subscribed
/// to at least `n` contexts in all.
async fn wait_subscribed(node: &FakeNode, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while node.subscriptions() < n {
        assert!(
            Instant::now() < deadline,
            "the server subscribed to {} contexts, waited for {n}",
            node.subscriptions()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A served context that moves to another version of its app
/// (`AppVersionChanged`, the node's own event body) is announced at once
/// (`--refresh` is an hour here), after one re-read of the node's apps;
/// version changes that come together are announced once. The server
/// subscribes to every served context, and only then.
#[tokio::test]
async fn a_served_contexts_version_change_is_announced_at_once() {
    for p in [Profile::Rc4, Profile::Rc25, Profile::Rc83] {
        let node = FakeNode::with_profile(p);
        let watcher = Watcher::default();
        let (client, mut stderr) = stdio_client_with(
            &[
                "--node",
                &node.url,
                "--refresh",
                "3600",
                "--log-level",
                "debug",
            ],
            watcher.clone(),
        )
        .await;
        let before = listed_app_tools(&client).await;
        assert!(before.to_string().contains("\"kv_store_set\""));
        let (kv, kv2) = (node.id(fake_node::CTX_KV), node.id(fake_node::CTX_KV2_1));
        // Every context of the served apps, the two versions' included.
        wait_subscribed(&node, 5).await;
        let reads = app_reads(&node);
        assert_eq!(watcher.changes.load(std::sync::atomic::Ordering::SeqCst), 0);
        node.emit_node_event(&wire::event_app_version_changed(
            &kv,
            Some("0.1.0"),
            Some("0.2.0"),
        ));
        node.emit_node_event(&wire::event_app_version_changed(&kv2, None, Some("2.0.0")));
        assert!(
            watcher.wait_for(1, Duration::from_secs(20)).await,
            "{p:?}: notifications/tools/list_changed right after the event"
        );
        assert_eq!(app_reads(&node), reads + 1, "{p:?}: one re-read");
        // Both changes were gathered before that one re-read and notice.
        // (The lines of one re-read come one after the other.)
        let first = stderr_line(&mut stderr, "now runs version").await;
        let second = stderr.next_line().await.unwrap().unwrap_or_default();
        let told = stderr_line(&mut stderr, "notifying clients").await;
        let both = format!("{first}\n{second}");
        assert!(both.contains(&kv) && both.contains(&kv2), "{p:?}: {both}");
        assert!(both.contains("0.2.0 of its app (was 0.1.0)"), "{both}");
        assert!(both.contains("2.0.0 of its app (was ?)"), "{both}");
        assert!(told.contains("version changed"), "{told}");
        // The list is served again as before: nothing was retargeted.
        assert_eq!(listed_app_tools(&client).await, before, "{p:?}");
        client.cancel().await.unwrap();
    }
}

/// Issue 28.11: requests naming an unknown tool or app re-read the node at
/// most once per `CALIMCP_REREAD_INTERVAL` (an hour here), not once each.
#[tokio::test]
async fn requests_naming_unknown_things_share_one_reread() {
    let node = FakeNode::start();
    let (client, _stderr) = stdio_client_env(
        &["--node", &node.url, "--refresh", "3600"],
        &[("CALIMCP_REREAD_INTERVAL", "3600")],
        Watcher::default(),
    )
    .await;
    listed_app_tools(&client).await;
    let start = app_reads(&node);
    for i in 0..100 {
        let _ = call(&client, &format!("nope_{i}"), serde_json::json!({})).await;
        let r = call(
            &client,
            "describe_app",
            serde_json::json!({"app": format!("com.nope.{i}")}),
        )
        .await;
        assert!(r.map_or(true, |r| r.is_error == Some(true)));
    }
    assert_eq!(app_reads(&node), start + 1, "one re-read for 200 requests");
    client.cancel().await.unwrap();
}

/// `serve` with debug logs and `env`, once it follows the served contexts' versions.
async fn following(node: &FakeNode, env: &[(&str, &str)], watcher: &Watcher) -> (Client, Stderr) {
    let args = [
        "--node",
        &node.url,
        "--refresh",
        "3600",
        "--log-level",
        "debug",
    ];
    let (client, stderr) = stdio_client_env(&args, env, watcher.clone()).await;
    listed_app_tools(&client).await;
    wait_subscribed(node, 5).await;
    (client, stderr)
}

/// Issue 28.11: a storm of version changes is one re-read and one notice per
/// change set: changes that come within `CALIMCP_REREAD_INTERVAL` of the
/// last re-read wait for the next one.
#[tokio::test]
async fn a_storm_of_version_changes_is_paced() {
    let node = FakeNode::start();
    let watcher = Watcher::default();
    let (client, mut stderr) =
        following(&node, &[("CALIMCP_REREAD_INTERVAL", "3600")], &watcher).await;
    let kv = node.id(fake_node::CTX_KV);
    let reads = app_reads(&node);
    node.emit_node_event(&wire::event_app_version_changed(&kv, Some("1"), Some("2")));
    assert!(watcher.wait_for(1, Duration::from_secs(20)).await);
    stderr_line(&mut stderr, "notifying clients").await;
    // Ten more, each after the last one's settle time has passed.
    for v in 3..13 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let v = v.to_string();
        node.emit_node_event(&wire::event_app_version_changed(&kv, None, Some(&v)));
    }
    stderr_line(&mut stderr, "gathering until then").await;
    assert_eq!(app_reads(&node), reads + 1, "one re-read");
    assert_eq!(watcher.changes.load(std::sync::atomic::Ordering::SeqCst), 1);
    client.cancel().await.unwrap();
}

/// Issue 28.3: while a slow re-read runs, the server holds only the served
/// contexts' version changes, at most `CALIMCP_MAX_BACKLOG` bytes of
/// them; past that they are dropped with a note, and one more re-read
/// covers them.
#[tokio::test]
async fn version_changes_during_a_slow_reread_are_bounded() {
    let node = FakeNode::start();
    let watcher = Watcher::default();
    let env = [
        ("CALIMCP_REREAD_INTERVAL", "0"),
        ("CALIMCP_MAX_BACKLOG", "1K"),
    ];
    let (client, mut stderr) = following(&node, &env, &watcher).await;
    let kv = node.id(fake_node::CTX_KV);
    let reads = app_reads(&node);
    node.hostile(|h| h.apps_delay = Duration::from_secs(2));
    node.emit_node_event(&wire::event_app_version_changed(&kv, None, Some("2")));
    wait_reads(&node, reads + 1).await;
    // During that read: a flood of changes, and of other events.
    for v in 0..200 {
        let v = v.to_string();
        node.emit_node_event(&wire::event_app_version_changed(&kv, None, Some(&v)));
        node.emit(&kv, &[("Inserted", b"\"x\"")]);
    }
    let note = stderr_line(&mut stderr, "CALIMCP_MAX_BACKLOG").await;
    assert!(note.contains("dropped"), "{note}");
    node.hostile(|h| h.apps_delay = Duration::ZERO);
    // The kept ones and the dropped ones make one more set: one re-read.
    wait_reads(&node, reads + 2).await;
    stderr_line(&mut stderr, "more version changes of served contexts").await;
    client.cancel().await.unwrap();
}

/// A running `serve` on a joined node lists an app whose code arrives after
/// the server read the node (`code_pending` at first) soon after the code
/// comes: it looks again at the re-read pace, not at the next `--refresh`
/// (an hour here), and tells the clients that listed.
#[tokio::test]
async fn an_app_whose_code_arrives_later_is_listed_before_the_next_refresh() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let abi = kv_store_abi();
    let (app, _) = node.share_pending(fake_node::wasm_module(Some(&abi)), abi);
    let watcher = Watcher::default();
    let client = paced_client(&node, &watcher).await;
    let prefix = calimcp_core::mapping::names::id_tail(&app);
    let its_set = |n: &String| n.starts_with(&prefix) && n.ends_with("_set");
    let before = names(&listed_app_tools(&client).await);
    assert!(
        !before.iter().any(its_set),
        "left out while its code is pending: {before:?}"
    );
    node.code_arrives(&app);
    assert!(
        watcher.wait_for(1, Duration::from_secs(20)).await,
        "list_changed once the code arrived"
    );
    let after = names(&listed_app_tools(&client).await);
    assert!(
        after.iter().any(its_set),
        "listed once its code arrived: {after:?}"
    );
    client.cancel().await.unwrap();
}

/// A request that shows a context running code the server has not read yet
/// (here `wait_for_context` on a context shared after the server's last
/// read) makes it read the node again at once, not at the next `--refresh`
/// (an hour here): the app's tools are listed and announced.
#[tokio::test]
async fn a_context_of_code_the_server_has_not_read_makes_it_read_again() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let watcher = Watcher::default();
    let client = paced_client(&node, &watcher).await;
    listed_app_tools(&client).await;
    let abi = kv_store_abi();
    let (app, ctx) = node.share(fake_node::wasm_module(Some(&abi)), abi);
    let r = call(
        &client,
        "wait_for_context",
        serde_json::json!({"context": ctx, "within": 10}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    assert!(
        watcher.wait_for(1, Duration::from_secs(20)).await,
        "list_changed once the context's app was read"
    );
    let prefix = calimcp_core::mapping::names::id_tail(&app);
    let listed = listed_app_tools(&client).await;
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"].as_str().unwrap() == format!("{prefix}_set")),
        "{listed}"
    );
    client.cancel().await.unwrap();
}

/// A call whose `_context` runs a version of the app the server has not
/// read (installed after its last read, `--refresh` an hour away) runs in
/// that version, as `calimcp call` does, and makes the server read the node
/// again at once: the new version's tools are listed and announced.
#[tokio::test]
async fn a_call_in_a_context_of_unread_code_makes_the_server_read_again() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let abi = kv_store_abi();
    node.install_version("com.example.grow", "1.0.0", abi.clone());
    let watcher = Watcher::default();
    let client = paced_client(&node, &watcher).await;
    let before = names(&listed_app_tools(&client).await);
    assert!(before.iter().any(|n| n == "grow_get"), "{before:?}");
    assert!(!before.iter().any(|n| n == "grow_size"), "{before:?}");
    let mut grown = abi.clone();
    grown["methods"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({
        "name": "size", "params": [], "returns": {"kind": "u32"}, "intent": "read_only"}));
    let (_, ctx) = node.install_version("com.example.grow", "2.0.0", grown);
    // (The fake's app echoes its arguments: `entries` takes none and
    // returns a map, so `{}` is a valid answer.)
    let r = call(
        &client,
        "grow_entries",
        serde_json::json!({"_context": ctx}),
    )
    .await
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let ran_in = |n: usize| node.executes()[n].json()["params"]["contextId"].clone();
    assert_eq!(ran_in(0), ctx.as_str(), "serve ran in the context given");
    assert!(
        watcher.wait_for(1, Duration::from_secs(20)).await,
        "list_changed once the context's version was read"
    );
    let after = names(&listed_app_tools(&client).await);
    assert!(after.iter().any(|n| n == "grow_size"), "{after:?}");
    client.cancel().await.unwrap();
    // The CLI, which reads the node afresh, comes to the same outcome.
    run_json(&[
        "--node",
        &node.url,
        "call",
        "grow_entries",
        "--context",
        &ctx,
        "--json",
    ]);
    assert_eq!(ran_in(1), ctx.as_str(), "the CLI ran where serve did");
}

/// The example kv-store's ABI.
fn kv_store_abi() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kv-store/abi.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A stdio client of a server of `node` whose periodic refresh is an hour
/// away and whose requests may re-read the node every second.
async fn paced_client(node: &FakeNode, watcher: &Watcher) -> Client {
    let (client, _) = stdio_client_env(
        &["--node", &node.url, "--refresh", "3600"],
        &[("CALIMCP_REREAD_INTERVAL", "1")],
        watcher.clone(),
    )
    .await;
    client
}
