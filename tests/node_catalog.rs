//! schema, describe, tools and apps with a node: local apps first, then the
//! node's; the node is asked only when local apps cannot answer. Dynamic
//! completion. The shared fixture corpus served by the node.

mod support;

use predicates::prelude::*;
use serde_json::Value;
use support::calimcp;
use support::fake_node::{self, FakeNode};
use support::tool_names as names;

fn json_out(a: assert_cmd::assert::Assert) -> Value {
    serde_json::from_slice(&a.get_output().stdout).unwrap()
}

#[test]
fn tools_and_apps_without_app_list_local_and_node_apps() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let cmd = || {
        let mut c = calimcp(home.path());
        c.env("CALIMERO_NODE_URL", &node.url)
            .args(["--apps", "examples"]);
        c
    };
    let tools = names(&json_out(
        cmd().args(["tools", "--json"]).assert().success(),
    ));
    assert!(tools.contains(&"every_kind_accounts".to_string()), "local");
    assert!(tools.contains(&"typed_echo_numbers".to_string()), "node");
    // The local kv-store shadows the node's copy: one set of kv_store_ tools, from the local manifest.
    assert_eq!(tools.iter().filter(|t| *t == "kv_store_get").count(), 1);
    let apps = json_out(cmd().args(["apps", "--json"]).assert().success());
    let kv: Vec<&Value> = apps
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["package"] == "com.calimero.kv-store")
        .collect();
    assert_eq!(kv.len(), 1);
    assert_eq!(kv[0]["source"], "examples/kv-store");
    assert!(
        apps.as_array()
            .unwrap()
            .iter()
            .any(|a| a["source"] == node.url.as_str()),
        "{apps}"
    );
    // An app whose ABI the node cannot give is a warning when listing.
    cmd()
        .args(["apps"])
        .assert()
        .success()
        .stderr(predicate::str::contains("left out: com.old.legacy"));
}

#[test]
fn names_only_the_node_knows_are_resolved_there() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let cmd = || {
        let mut c = calimcp(home.path());
        c.env("CALIMERO_NODE_URL", &node.url);
        c
    };
    cmd()
        .args(["describe", "notebook"])
        .assert()
        .success()
        .stdout(predicate::str::contains("service pages"))
        .stdout(predicate::str::contains(node.url.as_str()));
    let schema = json_out(
        cmd()
            .args(["schema", "typed", "echo_numbers"])
            .assert()
            .success(),
    );
    assert_eq!(
        schema["properties"]["big"]["anyOf"][0]["maximum"].to_string(),
        "18446744073709551615"
    );
    cmd()
        .args(["describe", "com.old.legacy"])
        .assert()
        .code(5)
        .stderr(predicate::str::contains("no usable embedded ABI"));
    cmd()
        .args(["describe", "notebok"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "did you mean `com.example.notebook`",
        ));
}

/// The node named by a host name, not an address: the binary resolves
/// `localhost` through the system resolver (getaddrinfo, NSS), which a
/// linking change (static glibc, say; see build.rs) could break silently.
#[test]
fn a_node_named_by_localhost_is_reached() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let by_name = node.url.replace("//127.0.0.1:", "//localhost:");
    assert_ne!(by_name, node.url, "the fake node's URL names 127.0.0.1");
    calimcp(home.path())
        .args(["--node", &by_name, "describe", "notebook"])
        .assert()
        .success()
        .stdout(predicate::str::contains("service pages"))
        .stdout(predicate::str::contains(by_name.as_str()));
    assert!(!node.requests().is_empty(), "the node was asked");
}

#[test]
fn local_answers_never_touch_the_node() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let cmd = || {
        let mut c = calimcp(home.path());
        c.env("CALIMERO_NODE_URL", &node.url);
        c
    };
    cmd()
        .args(["tools", "examples/kv-store", "--json"])
        .assert()
        .success();
    cmd()
        .args(["schema", "examples/kv-store", "set"])
        .assert()
        .success();
    cmd()
        .args(["describe", "kv-store", "--apps", "examples"])
        .assert()
        .success();
    cmd()
        .args(["schema", "kv-store", "--apps", "examples"])
        .assert()
        .success();
    cmd()
        .args(["describe", "notebook", "--offline"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no app named `notebook`"));
    cmd()
        .env("CALIMCP_OFFLINE", "1")
        .args(["tools", "--apps", "examples"])
        .assert()
        .success();
    assert!(node.requests().is_empty(), "{:?}", node.requests());
}

#[test]
fn an_unreachable_node_is_a_warning_when_local_apps_answer() {
    let home = tempfile::tempdir().unwrap();
    let closed = fake_node::closed_port_url();
    calimcp(home.path())
        .args(["tools", "--apps", "examples", "--node", &closed])
        .assert()
        .success()
        .stdout(predicate::str::contains("kv_store_get"))
        .stderr(predicate::str::contains(
            "warning: the node's apps are left out: cannot reach the node at",
        ));
    calimcp(home.path())
        .args([
            "describe", "notebook", "--apps", "examples", "--node", &closed,
        ])
        .assert()
        .success();
    // A name only the node could answer: exit 4, saying both were tried.
    calimcp(home.path())
        .args(["describe", "typed", "--apps", "examples", "--node", &closed])
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "no app named `typed`: not among the local apps (examples), and the node could not be asked: cannot reach the node at",
        ));
    calimcp(home.path())
        .args(["apps", "--node", &closed])
        .assert()
        .code(4)
        .stderr(predicate::str::contains(
            "no apps to list: no local apps (--apps), and the node could not be asked",
        ));
}

fn complete(home: &std::path::Path, url: &str, words: &[&str]) -> Vec<String> {
    let out = calimcp(home)
        .env("COMPLETE", "fish")
        .env("CALIMERO_NODE_URL", url)
        .arg("--")
        .args(words)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn dynamic_completion_offers_tools_and_method_flags() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let tools = complete(h, &node.url, &["calimcp", "call", "typed_echo_"]);
    assert_eq!(
        tools,
        [
            "typed_echo_bytes",
            "typed_echo_complex",
            "typed_echo_numbers",
            "typed_echo_strings"
        ]
    );
    // local apps from --apps on the line
    let tools = complete(
        h,
        &node.url,
        &["calimcp", "--apps", "examples", "call", "every_kind_a"],
    );
    assert!(
        tools.contains(&"every_kind_accounts".to_string()),
        "{tools:?}"
    );
    let flags = complete(
        h,
        &node.url,
        &["calimcp", "call", "typed_echo_strings", "--"],
    );
    for f in [
        "--param-json",
        "--first_name",
        "--context",
        "--dry-run",
        "--node",
    ] {
        assert!(flags.contains(&f.to_string()), "{f} not in {flags:?}");
    }
    // kebab-case aliases complete when typed
    let flags = complete(
        h,
        &node.url,
        &["calimcp", "call", "typed_echo_strings", "--first-"],
    );
    assert_eq!(flags, ["--first-name"]);
    let flags = complete(h, &node.url, &["calimcp", "call", "kv-store.set", "--k"]);
    assert_eq!(flags, ["--key"]);
    // The registration script for each shell.
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        calimcp(h)
            .env("COMPLETE", shell)
            .assert()
            .success()
            .stdout(predicate::str::contains("calimcp"));
    }
    // Completion never calls a method.
    assert!(node.executes().is_empty());
}

#[test]
fn completions_help_documents_dynamic_completion_per_shell() {
    let home = tempfile::tempdir().unwrap();
    let a = calimcp(home.path())
        .args(["completions", "--help"])
        .assert()
        .success();
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    for s in [
        "source <(COMPLETE=bash calimcp)",
        "source <(COMPLETE=zsh calimcp)",
        "COMPLETE=fish calimcp | source",
        "COMPLETE=elvish calimcp",
        "$env:COMPLETE = \"powershell\"",
    ] {
        assert!(out.contains(s), "{s} not in\n{out}");
    }
}

#[test]
fn the_shared_fixtures_read_from_the_node_match_the_local_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/abi");
    if !dir.is_dir() {
        let required = std::env::var("CALIMCP_REQUIRE_FIXTURES").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "../shared/fixtures/abi is missing and CALIMCP_REQUIRE_FIXTURES=1"
        );
        eprintln!("skipped: ../shared/fixtures/abi not found");
        return;
    }
    // rc4: the ABI comes from the app's module, byte for byte the local file
    // (the ABI route of rc.19 and later re-serialises it without docs).
    let node = FakeNode::builder()
        .profile(support::fake_node::Profile::Rc4)
        .shared_fixtures()
        .start();
    let home = tempfile::tempdir().unwrap();
    let mut stems: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|s| !s.starts_with("bundle-"))
        .collect();
    stems.sort();
    assert!(stems.len() >= 16, "{stems:?}");
    for stem in &stems {
        let path = dir.join(format!("{stem}.json"));
        let local = calimcp(home.path())
            .args(["--offline", "schema"])
            .arg(&path)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let remote = calimcp(home.path())
            .env("CALIMERO_NODE_URL", &node.url)
            .args(["schema", &format!("org.fixtures.{stem}")])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        assert_eq!(
            String::from_utf8_lossy(&local),
            String::from_utf8_lossy(&remote),
            "{stem}"
        );
    }
}

/// A node that answers with no apps is an empty listing: `apps` says so
/// and exits 0 (`[]` with --json); without a node it stays a usage error
/// (issue 44).
#[test]
fn a_node_without_apps_is_an_empty_listing() {
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let listed = calimcp(home.path())
        .args(["--node", &node.url, "apps", "--json"])
        .assert()
        .success();
    let rows: serde_json::Value = serde_json::from_slice(&listed.get_output().stdout).unwrap();
    for row in rows.as_array().unwrap() {
        for v in row["versions"].as_array().into_iter().flatten() {
            node.uninstall(v["id"].as_str().unwrap());
        }
        node.uninstall(row["id"].as_str().unwrap());
    }
    // The app left out for want of an ABI is not listed: removed by its id.
    node.uninstall(&node.id(fake_node::LEGACY));
    let out = calimcp(home.path())
        .args(["--node", &node.url, "apps"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains(&format!("no apps on {}", node.url)), "{err}");
    calimcp(home.path())
        .args(["--node", &node.url, "apps", "--json"])
        .assert()
        .success()
        .stdout(predicate::str::diff("[]\n"));
    calimcp(home.path())
        .args(["--offline", "apps"])
        .assert()
        .code(2);
}

/// A node app installed with a guide and an icon in its metadata (the fake
/// node lists the metadata bytes back as a node does).
fn guided_node() -> FakeNode {
    let node = FakeNode::start();
    let abi: Value = serde_json::from_str(include_str!("support/abi/kv-store.json")).unwrap();
    node.install_with_metadata(
        "com.example.guided",
        abi,
        &serde_json::json!({
            "name": "Guided",
            "guide": "Intro.\n\n## Procedures\n\n### Store a value\n\n### Read it back\n\n<script>alert(1)</script>\n",
            "icon": "data:image/png;base64,iVBORw0KGgo="
        }),
    );
    node
}

#[test]
fn apps_and_describe_show_the_guides_procedures() {
    let node = guided_node();
    let home = tempfile::tempdir().unwrap();
    let cmd = || {
        let mut c = calimcp(home.path());
        c.env("CALIMERO_NODE_URL", &node.url);
        c
    };
    let apps = json_out(cmd().args(["apps", "--json"]).assert().success());
    let row = |package: &str| {
        apps.as_array()
            .unwrap()
            .iter()
            .find(|a| a["package"] == package)
            .unwrap_or_else(|| panic!("{package} in {apps}"))
            .clone()
    };
    let guided = row("com.example.guided");
    assert_eq!(guided["has_guide"], true);
    assert_eq!(
        guided["procedures"],
        serde_json::json!(["Store a value", "Read it back"])
    );
    let plain = row("com.calimero.kv-store");
    assert_eq!(plain["has_guide"], false);
    assert_eq!(plain["procedures"], serde_json::json!([]));
    let described = json_out(
        cmd()
            .args(["describe", "com.example.guided", "--json"])
            .assert()
            .success(),
    );
    assert_eq!(described["procedures"], guided["procedures"]);
    cmd()
        .args(["describe", "com.example.guided"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "guide     by the app's author, 2 procedures",
        ))
        .stdout(predicate::str::contains(
            "\n  procedures\n  Store a value\n  Read it back\n",
        ));
    cmd()
        .args(["describe", "com.calimero.kv-store"])
        .assert()
        .success()
        .stdout(predicate::str::contains("procedures").not());
}

#[test]
fn the_doc_page_renders_the_guide_with_its_html_inert_and_shows_the_icon() {
    let node = guided_node();
    let home = tempfile::tempdir().unwrap();
    let out = calimcp(home.path())
        .env("CALIMERO_NODE_URL", &node.url)
        .args(["doc", "com.example.guided", "-o", "-"])
        .assert()
        .success();
    let page = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(page.contains("<h2>Guide</h2>"), "the guide section");
    assert!(page.contains("<h5>Store a value</h5>"), "markdown rendered");
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "raw HTML is text"
    );
    assert!(!page.contains("<script>alert(1)"));
    assert!(page.contains(r#"<img class="icon" src="data:image/png;base64,iVBORw0KGgo=""#));
    assert!(
        page.contains("img-src data: https:;"),
        "the CSP allows the icon"
    );
}

#[test]
fn a_guide_past_its_bound_is_dropped_with_a_warning() {
    let node = FakeNode::start();
    let abi: Value = serde_json::from_str(include_str!("support/abi/kv-store.json")).unwrap();
    let big = format!("## Procedures\n### One\n{}", "x".repeat(64 * 1024));
    node.install_with_metadata(
        "com.example.guided",
        abi,
        &serde_json::json!({"name": "Guided", "guide": big}),
    );
    let home = tempfile::tempdir().unwrap();
    let out = calimcp(home.path())
        .env("CALIMERO_NODE_URL", &node.url)
        .args(["apps", "--json"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let apps = json_out(out);
    let guided = apps
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["package"] == "com.example.guided")
        .unwrap();
    assert_eq!(guided["has_guide"], false);
    assert_eq!(guided["procedures"], serde_json::json!([]));
    assert!(
        err.contains("metadata.guide") && err.contains("more than calimcp keeps (65536)"),
        "{err}"
    );
}
