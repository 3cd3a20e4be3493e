//! Identity by content on the fake node (issue 27): a local app and a node
//! row are the same app when their module bytes are the same — on a node
//! that joined a context and lists the app without package, and for a file
//! under another name than the node's package; without a module, an ABI
//! that two node apps share is refused, not guessed. The CLI and `serve`
//! alike, nothing sent when refused. (Real nodes: tests/realnode_parity.rs.)

mod support;

use serde_json::{Value, json};
use support::calimcp;
use support::fake_node::{FakeNode, Profile, wasm_module};

/// The kv-store example's ABI with one more method, so that no app of the
/// fake node's own catalog has it.
fn kv_abi() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kv-store/abi.json");
    let mut abi: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    abi["methods"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "tag", "params": [], "returns": {"kind": "string"}}));
    abi
}

/// The module of `abi` with a custom section `salt`: the same ABI, other bytes.
fn salted(abi: &Value, salt: &[u8]) -> Vec<u8> {
    let mut m = wasm_module(Some(abi));
    let name = b"salt";
    let mut payload = vec![name.len() as u8];
    payload.extend_from_slice(name);
    payload.extend_from_slice(salt);
    m.push(0);
    m.push(u8::try_from(payload.len()).unwrap());
    m.extend_from_slice(&payload);
    m
}

struct Setup {
    node: FakeNode,
    home: tempfile::TempDir,
    apps: tempfile::TempDir,
    /// The app whose module is at hand (as `kv.wasm`), and its context.
    mine: (String, String),
    /// Another app with the same ABI and other bytes, and its context.
    other: (String, String),
}

/// Two apps with one ABI and different modules; `kv.wasm` in the apps
/// directory is the first one's module. `listed`: as node 1 lists them
/// (packages `com.example.kv-c` and `com.example.kv-d`); otherwise as a
/// joined node does (no package).
fn setup(profile: Profile, listed: bool) -> Setup {
    let node = FakeNode::with_profile(profile);
    let abi = kv_abi();
    let (a, b) = (salted(&abi, b"one"), salted(&abi, b"two"));
    let (la, lb) = if listed {
        (
            Some(("com.example.kv-c", "0.1.0")),
            Some(("com.example.kv-d", "0.1.0")),
        )
    } else {
        (None, None)
    };
    let mine = node.install_module(la, a.clone(), abi.clone());
    let other = node.install_module(lb, b, abi);
    let apps = tempfile::tempdir().unwrap();
    std::fs::write(apps.path().join("kv.wasm"), a).unwrap();
    Setup {
        node,
        home: tempfile::tempdir().unwrap(),
        apps,
        mine,
        other,
    }
}

impl Setup {
    fn cmd(&self) -> assert_cmd::Command {
        let mut c = calimcp(self.home.path());
        c.env("CALIMERO_NODE_URL", &self.node.url)
            .env("CALIMCP_APPS", self.apps.path());
        c
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.cmd().args(args).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Refused with `code`, nothing executed.
    fn refused(&self, args: &[&str], code: &str) -> String {
        let mut args = args.to_vec();
        args.push("--json");
        let (status, _, err) = self.run(&args);
        assert_eq!(status, 2, "{args:?}: {err}");
        let line: Value = serde_json::from_str(err.trim().lines().last().unwrap_or_default())
            .unwrap_or_else(|e| panic!("{e}: {err}"));
        assert_eq!(line["error"]["code"], code, "{args:?}: {err}");
        assert!(self.node.executes().is_empty(), "{args:?} executed");
        err
    }

    /// The contexts the node executed in, then forgotten.
    fn executed_in(&self) -> Vec<String> {
        let ctx: Vec<String> = self
            .node
            .executes()
            .iter()
            .map(|r| {
                r.json()["params"]["contextId"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        self.node.clear_requests();
        ctx
    }
}

/// One string field of each object of a `--json` array.
fn field(out: &str, key: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"));
    v.as_array()
        .unwrap()
        .iter()
        .map(|o| o[key].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Both real node versions' ways of listing a joined app, and rc.83's
/// (its recorded wire: as rc.25, in hex).
const PROFILES: [Profile; 3] = [Profile::Rc4, Profile::Rc25, Profile::Rc83];

#[test]
fn on_a_joined_node_a_context_of_another_app_is_refused_everywhere() {
    for profile in PROFILES {
        let s = setup(profile, false);
        let theirs = s.other.1.clone();
        s.refused(
            &["call", "kv_get", "--key", "a", "-c", &theirs],
            "foreign_context",
        );
        let args = json!({"key": "a", "_context": theirs}).to_string();
        s.refused(&["call", "kv.get", "--args", &args], "foreign_context");
        s.refused(
            &[
                "call", "kv_get", "--key", "a", "-c", &theirs, "--until", "true", "--within", "2",
            ],
            "foreign_context",
        );
        s.refused(&["use", "kv", "-c", &theirs], "foreign_context");
        s.refused(
            &["watch", "kv", "-c", &theirs, "--count", "1"],
            "foreign_context",
        );
    }
}

#[test]
fn on_a_joined_node_the_apps_own_tools_run_in_its_context() {
    for profile in PROFILES {
        let s = setup(profile, false);
        let mine = s.mine.1.clone();
        // The only context of the app: found by the module's bytes.
        let (code, _, err) = s.run(&["call", "kv_get", "--key", "a"]);
        assert_eq!(code, 0, "{profile:?}: {err}");
        assert_eq!(s.executed_in(), [mine.as_str()]);
        let (code, _, err) = s.run(&["call", "kv_get", "--key", "a", "-c", &mine]);
        assert_eq!(code, 0, "{profile:?}: {err}");
        assert_eq!(s.executed_in(), [mine.as_str()]);
        // `contexts` lists its own context only.
        let (code, out, err) = s.run(&["contexts", "kv", "--json"]);
        assert_eq!(code, 0, "{profile:?}: {err}");
        assert_eq!(field(&out, "id"), [mine.as_str()], "{out}");
        // `use` pins it.
        let (code, _, err) = s.run(&["use", "kv", "-c", &mine]);
        assert_eq!(code, 0, "{profile:?}: {err}");
        // The app is listed once, under the file's name.
        let (code, out, err) = s.run(&["tools", "--json"]);
        assert_eq!(code, 0, "{err}");
        let names = field(&out, "name");
        let other = format!(
            "{}_",
            calimcp_core::mapping::names::id_prefix(&s.other.0, 6)
        );
        let of = |prefix: &str| -> Vec<String> {
            let mut m: Vec<String> = names
                .iter()
                .filter_map(|n| n.strip_prefix(prefix).map(str::to_string))
                .collect();
            m.sort();
            m
        };
        // Each app once, every tool with its method: the file's under its
        // name, the other's under the prefix of its id.
        let methods = ["clear", "entries", "get", "len", "remove", "set", "tag"];
        assert_eq!(of(&other), methods, "{names:?}");
        for m in methods {
            assert!(names.contains(&format!("kv_{m}")), "{m}: {names:?}");
        }
        assert_eq!(
            names.iter().filter(|n| n.ends_with("_tag")).count(),
            2,
            "{names:?}"
        );
    }
}

#[test]
fn a_file_under_another_name_is_the_node_app_with_its_bytes() {
    for profile in PROFILES {
        let s = setup(profile, true);
        // Listed once: `kv.wasm` is com.example.kv-c (same bytes), under
        // the node's package and version, not the file's name; kv-d stays.
        let (code, out, err) = s.run(&["apps", "--json"]);
        assert_eq!(code, 0, "{err}");
        let packages: Vec<String> = field(&out, "package")
            .into_iter()
            .filter(|p| p.starts_with("com.example.kv-") || *p == "kv")
            .collect();
        assert_eq!(packages, ["com.example.kv-c", "com.example.kv-d"], "{out}");
        let listed: Value = serde_json::from_str(&out).unwrap();
        let kv_c = listed
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["package"] == "com.example.kv-c");
        assert_eq!(kv_c.unwrap()["version"], "0.1.0", "{out}");
        let (code, _, err) = s.run(&["call", "kv_c_get", "--key", "a"]);
        assert_eq!(code, 0, "{profile:?}: {err}");
        assert_eq!(s.executed_in(), [s.mine.1.as_str()]);
        let theirs = s.other.1.clone();
        let err = s.refused(
            &["call", "kv_c_get", "--key", "a", "-c", &theirs],
            "foreign_context",
        );
        assert!(err.contains("runs com.example.kv-d 0.1.0"), "{err}");
    }
}

#[test]
fn without_a_module_an_abi_two_apps_share_is_not_guessed() {
    for listed in [false, true] {
        let s = setup(Profile::Rc25, listed);
        std::fs::remove_file(s.apps.path().join("kv.wasm")).unwrap();
        std::fs::write(s.apps.path().join("kv.json"), kv_abi().to_string()).unwrap();
        let mine = s.mine.1.clone();
        let err = s.refused(
            &["call", "kv_get", "--key", "a", "-c", &mine],
            "ambiguous_identity",
        );
        assert!(err.contains("cannot be told apart"), "{err}");
        s.refused(&["call", "kv_get", "--key", "a"], "ambiguous_identity");
    }
}

#[test]
fn a_file_the_node_does_not_have_is_not_sent_to_a_context_of_another_app() {
    let s = setup(Profile::Rc25, true);
    // Another module under another name: no row has its package or bytes.
    std::fs::write(s.apps.path().join("kv.wasm"), salted(&kv_abi(), b"three")).unwrap();
    let theirs = s.other.1.clone();
    let err = s.refused(
        &["call", "kv_get", "--key", "a", "-c", &theirs],
        "foreign_context",
    );
    assert!(err.contains("does not have"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_on_a_joined_node_refuses_a_context_of_another_app_and_runs_its_own() {
    for profile in PROFILES {
        let s = setup(profile, false);
        let apps = s.apps.path().to_str().unwrap().to_string();
        let client = support::serve::stdio_client(&["--node", &s.node.url, "--apps", &apps]).await;
        let (mine, theirs) = (s.mine.1.clone(), s.other.1.clone());
        let r = support::serve::call(&client, "kv_get", json!({"key": "a", "_context": theirs}))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(true), "{}", support::serve::text(&r));
        assert!(
            support::serve::text(&r).contains("nothing was sent"),
            "{}",
            support::serve::text(&r)
        );
        let r = support::serve::call(
            &client,
            "select_app",
            json!({"app": "kv", "context": theirs}),
        )
        .await
        .unwrap();
        assert_eq!(r.is_error, Some(true), "{}", support::serve::text(&r));
        assert!(s.node.executes().is_empty(), "nothing executed");
        let r = support::serve::call(&client, "kv_tag", json!({"_context": mine}))
            .await
            .unwrap();
        // (The fake echoes the arguments, which a `string` result is not:
        // the call ran, and the result is said not to match.)
        assert!(
            support::serve::text(&r).contains("kv_tag ran"),
            "{}",
            support::serve::text(&r)
        );
        assert_eq!(s.executed_in(), [mine]);
        client.cancel().await.unwrap();
    }
}

/// `calimcp ARGS` against `node` with the state in `home`: exit code and stderr.
fn on_node(node: &FakeNode, home: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = calimcp(home)
        .env("CALIMERO_NODE_URL", &node.url)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `com.example.kv-c` 0.1.0 (without `tag`, one context) and 0.2.0 (with
/// it) installed on `node`: (0.1.0's application id, its context, 0.2.0's
/// application id).
fn two_versions(node: &FakeNode) -> (String, String, String) {
    let mut old = kv_abi();
    old["methods"]
        .as_array_mut()
        .unwrap()
        .retain(|m| m["name"] != "tag");
    let (old_id, ctx) =
        node.install_module(Some(("com.example.kv-c", "0.1.0")), salted(&old, b"1"), old);
    let (new, _) = node.install_module(
        Some(("com.example.kv-c", "0.2.0")),
        salted(&kv_abi(), b"2"),
        kv_abi(),
    );
    (old_id, ctx, new)
}

/// A group upgrade the node applies lazily (rc.25): the context still runs
/// 0.1.0, which lacks `tag`, but its group targets 0.2.0, which has it — the
/// call is not refused, its arguments are checked against 0.2.0, and the
/// CLI says the context moves on this call. Before the upgrade it is refused.
#[test]
fn a_method_of_the_version_a_contexts_group_targets_is_not_refused() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let (_, ctx, new) = two_versions(&node);
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| on_node(&node, home.path(), args);
    let (code, err) = run(&["call", "kv_c_tag", "-c", &ctx]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("which has no method `tag`"), "{err}");
    assert!(node.executes().is_empty());
    node.upgrade_group(&new);
    let (code, err) = run(&["call", "kv_c_tag", "-c", &ctx]);
    assert!(
        err.contains(&format!(
            "context {ctx} moves to com.example.kv-c 0.2.0 on this call"
        )),
        "{err}"
    );
    // (The fake echoes the arguments, which a `string` result is not: the
    // call was sent, in that context.)
    assert_ne!(code, Some(2), "{err}");
    let sent: Vec<Value> = node.executes().iter().map(|r| r.json()).collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["params"]["method"], "tag");
    assert_eq!(sent[0]["params"]["contextId"], ctx.as_str());
}

/// `serve` alike, on the same node: the call runs, the agent's answer says
/// (as a `note:`) that the context moves on this call, and clients that
/// listed are told the lists changed once it ran, without waiting for the
/// node's `AppVersionChanged` (this node sends none).
#[tokio::test]
async fn serve_says_the_context_moves_on_this_call_and_announces_it() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let (_, ctx, new) = two_versions(&node);
    node.upgrade_group(&new);
    let watcher = support::serve::Watcher::default();
    let (client, _) =
        support::serve::stdio_client_with(&["--node", &node.url], watcher.clone()).await;
    support::serve::listed_app_tools(&client).await;
    let r = support::serve::call(&client, "kv_c_tag", json!({"_context": ctx}))
        .await
        .unwrap();
    let texts: Vec<String> = r
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect();
    assert!(
        texts.iter().any(|t| t.starts_with(&format!(
            "note: context {ctx} moves to com.example.kv-c 0.2.0 on this call"
        ))),
        "{texts:?}"
    );
    let sent: Vec<Value> = node.executes().iter().map(|r| r.json()).collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["params"]["method"], "tag");
    assert!(
        watcher
            .wait_for(1, std::time::Duration::from_secs(20))
            .await,
        "list_changed once the context moved"
    );
    client.cancel().await.unwrap();
}

/// `call_many` alike: the call's entry carries the same note.
#[tokio::test]
async fn call_many_says_the_context_moves_on_this_call() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let (_, ctx, new) = two_versions(&node);
    node.upgrade_group(&new);
    let client = support::serve::stdio_client(&["--node", &node.url]).await;
    let calls = json!({"calls": [{"tool": "kv_c_tag", "arguments": {"_context": ctx}}]});
    let r = support::serve::call(&client, "call_many", calls)
        .await
        .unwrap();
    let out = r.structured_content.unwrap();
    // (The fake's answer does not match `tag`'s return type, so the entry
    // is that error, with the note beside it as for a call that ran.)
    let entry = &out["results"][0];
    assert_eq!(entry["error"]["code"], "unexpected_response", "{out}");
    assert!(
        entry["notes"][0]
            .as_str()
            .is_some_and(|n| n.starts_with(&format!(
                "context {ctx} moves to com.example.kv-c 0.2.0 on this call"
            ))),
        "{out}"
    );
    assert_eq!(node.executes().len(), 1);
    client.cancel().await.unwrap();
}

/// Right after a group upgrade a context may run its old version again for
/// a while (here: the group's target goes back to 0.1.0, and the node moves
/// the context back at its next use). A call built for 0.2.0 that the node
/// runs with 0.1.0, which lacks the method, is told so on both faces —
/// `upgrade_in_progress`, retryable, nothing ran — never "rebuild the app".
#[tokio::test]
async fn a_context_that_moves_back_is_not_told_to_rebuild_the_app() {
    let node = FakeNode::with_profile(Profile::Rc25);
    let (old_id, ctx, new) = two_versions(&node);
    let home = tempfile::tempdir().unwrap();
    let cli = |args: &[&str]| on_node(&node, home.path(), args);
    // Moved to 0.2.0 by its first call after the upgrade …
    node.upgrade_group(&new);
    let _ = cli(&["call", "kv_c_tag", "-c", &ctx]);
    // … then back to 0.1.0 at the next one.
    node.upgrade_group(&old_id);
    let (code, err) = cli(&["call", "kv_c_tag", "-c", &ctx, "--json"]);
    assert_eq!(code, Some(5), "{err}");
    assert!(err.contains("\"code\":\"upgrade_in_progress\""), "{err}");
    assert!(err.contains("is changing versions"), "{err}");
    assert!(!err.contains("rebuild"), "{err}");

    node.upgrade_group(&new);
    let (client, _) = support::serve::stdio_client_with(
        &["--node", &node.url],
        support::serve::Watcher::default(),
    )
    .await;
    support::serve::call(&client, "kv_c_tag", json!({"_context": ctx}))
        .await
        .unwrap();
    node.upgrade_group(&old_id);
    let r = support::serve::call(&client, "kv_c_tag", json!({"_context": ctx}))
        .await
        .unwrap();
    let text = support::serve::text(&r);
    assert_eq!(r.is_error, Some(true), "{text}");
    assert!(text.contains("is changing versions"), "{text}");
    assert!(text.contains("retryable: true"), "{text}");
    assert!(!text.contains("rebuild"), "{text}");
    client.cancel().await.unwrap();
}
