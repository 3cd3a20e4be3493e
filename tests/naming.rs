//! Tool names (issue 2 §4, ../shared/spec/abi-mapping.md "Tool naming"):
//! slugs, shared slugs that never depend on load order, several services,
//! the length bound and its hash, the character set, `init`, reserved names.
//! Through the library and through the binary.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use calimcp_core::abi::{self, App, Service};
use calimcp_core::mapping::{self, ToolOptions, ToolSet};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

// ---------------------------------------------------------------- helpers

fn manifest_json(methods: &[&str]) -> Value {
    let mut names: Vec<&str> = methods.to_vec();
    names.sort();
    let methods: Vec<Value> = names
        .iter()
        .map(
            |m| json!({"name": m, "params": [], "returns": {"kind": "u32"}, "intent": "read_only"}),
        )
        .collect();
    json!({"schema_version": "wasm-abi/1", "types": {}, "methods": methods})
}

fn manifest(methods: &[&str]) -> abi::Manifest {
    let mut w = Vec::new();
    abi::parse_manifest_value(&manifest_json(methods), &mut w).unwrap()
}

fn app(package: Option<&str>, id: &str, methods: &[&str]) -> App {
    App {
        id: id.into(),
        package: package.map(Into::into),
        source: format!("test:{id}"),
        services: vec![Service {
            name: None,
            manifest: manifest(methods).into(),
        }],
        ..App::default()
    }
}

fn multi(package: &str, id: &str, services: &[(&str, &[&str])]) -> App {
    App {
        id: id.into(),
        package: Some(package.into()),
        source: format!("test:{id}"),
        services: services
            .iter()
            .map(|(name, methods)| Service {
                name: Some(name.to_string()),
                manifest: manifest(methods).into(),
            })
            .collect(),
        ..App::default()
    }
}

fn build(apps: &[App]) -> ToolSet {
    mapping::build(apps, &ToolOptions::default())
}

/// tool name → (package or id, method): who owns each name.
fn owners(apps: &[App], set: &ToolSet) -> BTreeMap<String, (String, String)> {
    set.tools
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                (apps[t.app].package_or_id().to_string(), t.method.clone()),
            )
        })
        .collect()
}

fn names(set: &ToolSet) -> Vec<String> {
    set.tools.iter().map(|t| t.name.clone()).collect()
}

/// `^[a-z0-9_-]+$`
fn assert_name_charset(name: &str) {
    assert!(
        !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-'),
        "{name:?} does not match ^[a-z0-9_-]+$"
    );
}

/// The rule, written out: 42 characters, `_`, 6 hex of SHA-256 of the full name.
fn expected_short(full: &str, max: usize) -> String {
    if full.len() <= max {
        return full.to_string();
    }
    let hex: String = Sha256::digest(full.as_bytes())
        .iter()
        .take(3)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{}_{hex}", &full[..max - 7])
}

/// The binary, hermetic and offline: no node of the machine's is ever asked.
fn calimcp() -> Command {
    let mut cmd = support::offline();
    // A hang guard only: nothing here asserts on time.
    cmd.timeout(Duration::from_secs(20));
    cmd
}

fn run_json(args: &[&str]) -> Value {
    let out = calimcp().args(args).assert().success().get_output().clone();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: stdout is not JSON ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn write(path: &Path, v: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(v).unwrap()).unwrap();
}

fn tool_names(tools: &Value) -> Vec<String> {
    tools
        .as_array()
        .expect("a tools array")
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

// ---------------------------------------------------------------- slugs

#[test]
fn slug_is_the_sanitised_trailing_package_segment() {
    let set = build(&[app(
        Some("com.calimero.kv-store"),
        "4f00aa",
        &["get", "set"],
    )]);
    assert_eq!(names(&set), ["kv_store_get", "kv_store_set"]);
    // Runs of other characters collapse to one `_`; upper case is lowered.
    let set = build(&[app(Some("org.Example.My  App--2"), "4f00aa", &["get"])]);
    assert_eq!(names(&set), ["my_app_2_get"]);
    // No package (a joined node's app): the shortest prefix of the id, at
    // least 6 characters, lowercased — so the method always fits.
    let set = build(&[app(None, "AbC123def", &["get"])]);
    assert_eq!(names(&set), ["abc123_get"]);
}

#[test]
fn same_slug_packages_get_the_same_names_in_either_order() {
    // Both sanitise to `my_app`; "com.a.my-app" < "com.b.My_App" in (package, id) order.
    let first = app(Some("com.a.my-app"), "Zz-9.abcdEF12", &["get", "put"]);
    let second = app(Some("com.b.My_App"), "Q7-x.9Kz_pp00", &["get", "put"]);
    let ab = [first.clone(), second.clone()];
    let ba = [second, first];
    let (set_ab, set_ba) = (build(&ab), build(&ba));
    assert_eq!(owners(&ab, &set_ab), owners(&ba, &set_ba));
    let expected: BTreeMap<String, (String, String)> = [
        ("my_app_get", "com.a.my-app", "get"),
        ("my_app_put", "com.a.my-app", "put"),
        // The first 6 letters and digits of "Q7-x.9Kz_pp00", lowercased.
        ("my_app_q7x9kz_get", "com.b.My_App", "get"),
        ("my_app_q7x9kz_put", "com.b.My_App", "put"),
    ]
    .into_iter()
    .map(|(n, p, m)| (n.to_string(), (p.to_string(), m.to_string())))
    .collect();
    assert_eq!(owners(&ab, &set_ab), expected);
}

#[test]
fn one_package_from_two_ids_is_ordered_by_id() {
    // Two signers of one package: the smaller id keeps the slug.
    let a = app(Some("com.acme.notes"), "bbb222", &["list"]);
    let b = app(Some("com.acme.notes"), "aaa111", &["list"]);
    for apps in [[a.clone(), b.clone()], [b.clone(), a.clone()]] {
        let set = build(&apps);
        let o = owners(&apps, &set);
        let by_id: BTreeMap<&str, &str> = set
            .tools
            .iter()
            .map(|t| (apps[t.app].id.as_str(), t.name.as_str()))
            .collect();
        assert_eq!(by_id["aaa111"], "notes_list", "{o:?}");
        assert_eq!(by_id["bbb222"], "notes_bbb222_list", "{o:?}");
    }
}

#[test]
fn three_apps_sharing_a_slug_are_all_distinct_and_order_free() {
    let apps = [
        app(Some("x.kv-store"), "c3c3c3c3", &["get"]),
        app(Some("v.KV-Store"), "e5-e5.e5e5", &["get"]),
        app(Some("y.kv_store"), "a1a1a1a1", &["get"]),
        app(Some("z.KV.Store"), "b2b2b2b2", &["get"]),
        app(Some("w.kv__store"), "d4d4d4d4", &["get"]),
    ];
    let reference = owners(&apps, &build(&apps));
    assert_eq!(reference.len(), 5, "{reference:?}");
    // "z.KV.Store" has the trailing segment "Store", and "w.kv__store" keeps
    // its two underscores: different slugs.
    assert_eq!(reference["store_get"].0, "z.KV.Store");
    assert_eq!(reference["kv__store_get"].0, "w.kv__store");
    // v < x < y in package order: v keeps `kv_store`.
    assert_eq!(reference["kv_store_get"].0, "v.KV-Store");
    assert_eq!(reference["kv_store_c3c3c3_get"].0, "x.kv-store");
    assert_eq!(reference["kv_store_a1a1a1_get"].0, "y.kv_store");
    let mut rev = apps.to_vec();
    rev.reverse();
    assert_eq!(owners(&rev, &build(&rev)), reference);
    rev.swap(0, 2);
    assert_eq!(owners(&rev, &build(&rev)), reference);
}

// ---------------------------------------------------------------- services

#[test]
fn multi_service_names_are_app_service_method() {
    let a = multi(
        "com.calimero.mero-docs",
        "feed01",
        &[("Docs", &["open", "save"]), ("reg-istry", &["list"])],
    );
    let set = build(&[a]);
    assert_eq!(
        names(&set),
        [
            "mero_docs_docs_open",
            "mero_docs_docs_save",
            "mero_docs_reg_istry_list"
        ]
    );
    assert_eq!(
        set.get("mero_docs_docs_open").unwrap().service.as_deref(),
        Some("Docs")
    );
    // One named service is a single-service app: no service segment.
    let one = multi("com.calimero.solo", "feed02", &[("main", &["get"])]);
    assert_eq!(names(&build(&[one])), ["solo_get"]);
}

#[test]
fn multi_service_example_via_the_binary() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/multi-service");
    let tools = run_json(&["tools", dir.to_str().unwrap(), "--json"]);
    let names = tool_names(&tools);
    for n in [
        "notebook_pages_apply",
        "notebook_pages_read",
        "notebook_pages_words",
        "notebook_registry_archive",
        "notebook_registry_create",
        "notebook_registry_list",
    ] {
        assert!(names.contains(&n.to_string()), "{n} not in {names:?}");
    }
    assert_eq!(names.len(), 6);
}

// ---------------------------------------------------------------- length

#[test]
fn long_names_are_shortened_deterministically() {
    let package = "com.example.an-extremely-long-application-name";
    let method = "synchronise_everything_right_now_please";
    let full = format!("an_extremely_long_application_name_{method}");
    assert!(full.len() > 64, "a name over 64 characters: {}", full.len());
    let set = build(&[app(Some(package), "0a0a0a", &[method, "get"])]);
    let t = set.tools.iter().find(|t| t.method == method).unwrap();
    assert_eq!(t.name.len(), 49);
    assert_eq!(t.name, expected_short(&full, 49));
    assert_eq!(&t.name[..42], &full[..42]);
    assert_eq!(t.name.as_bytes()[42], b'_');
    assert!(
        t.name[43..]
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    );
    // Short names are untouched.
    assert!(set.get("an_extremely_long_application_name_get").is_some());
    // Deterministic, and distinct for names that share the first 42 characters.
    let again = build(&[app(Some(package), "0a0a0a", &[method, "get"])]);
    assert_eq!(names(&set), names(&again));
    let twin = format!("{method}_too");
    let set = build(&[app(Some(package), "0a0a0a", &[method, &twin])]);
    let [a, b] = [&set.tools[0].name, &set.tools[1].name];
    assert_eq!(a[..42], b[..42]);
    assert_ne!(a, b);
}

#[test]
fn the_bound_is_49_characters_inclusive() {
    // slug "abc" + "_" + method: 49 characters stay, 50 are shortened.
    let m45 = "m".repeat(45);
    let m46 = "m".repeat(46);
    let set = build(&[app(Some("x.abc"), "0a", &[&m45, &m46])]);
    let by_method: BTreeMap<&str, &str> = set
        .tools
        .iter()
        .map(|t| (t.method.as_str(), t.name.as_str()))
        .collect();
    assert_eq!(by_method[m45.as_str()], format!("abc_{m45}"));
    assert_eq!(
        by_method[m46.as_str()],
        expected_short(&format!("abc_{m46}"), 49)
    );
    assert_eq!(by_method[m46.as_str()].len(), 49);
}

#[test]
fn max_name_len_changes_the_bound() {
    let package = "com.example.an-extremely-long-application-name";
    let set = mapping::build(
        &[app(Some(package), "0a0a0a", &["get"])],
        &ToolOptions {
            max_name_len: 30,
            ..ToolOptions::default()
        },
    );
    let full = "an_extremely_long_application_name_get";
    assert_eq!(names(&set), [expected_short(full, 30)]);
    assert_eq!(set.tools[0].name.len(), 30);

    // The same through the binary, with a bare manifest named by --package.
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("abi.json");
    write(&file, &manifest_json(&["get"]));
    let f = file.to_str().unwrap();
    let tools = run_json(&["tools", f, "--package", package, "--json"]);
    assert_eq!(tool_names(&tools), [full]);
    let tools = run_json(&[
        "tools",
        f,
        "--package",
        package,
        "--max-name-len",
        "30",
        "--json",
    ]);
    assert_eq!(tool_names(&tools), [expected_short(full, 30)]);
    let tools = run_json(&[
        "--max-name-len",
        "70",
        "tools",
        f,
        "--package",
        package,
        "--json",
    ]);
    assert_eq!(tool_names(&tools), [full]);
    calimcp()
        .args(["tools", f, "--max-name-len", "3"])
        .assert()
        .code(2);
}

// ---------------------------------------------------------------- charset, init, reserved

#[test]
fn every_name_matches_the_charset() {
    let apps = [
        app(
            Some("Com.Ünïcode.Ăpp!! v2"),
            "é9-Ü1",
            &["Get-Value", "mëthod", "UPPER", "a.b c", "x\u{1b}[2J"],
        ),
        app(Some("..."), "--", &["get"]),
        app(
            Some("com.example.an-extremely-long-application-name-ÄÖÜ"),
            "77",
            &["a_very_long_method_name_ÄÖÜ"],
        ),
        multi(
            "com.x.svc",
            "0b",
            &[("Sërvice One", &["go"]), ("two", &["go"])],
        ),
    ];
    let set = build(&apps);
    assert_eq!(set.tools.len(), 5 + 1 + 1 + 2);
    for t in &set.tools {
        assert_name_charset(&t.name);
        assert!(t.name.len() <= 49, "{}", t.name);
    }
    let unique: std::collections::BTreeSet<&String> = set.tools.iter().map(|t| &t.name).collect();
    assert_eq!(unique.len(), set.tools.len(), "names are unique");
}

#[test]
fn methods_that_sanitise_alike_still_get_distinct_names() {
    let set = build(&[app(Some("x.app"), "0c", &["get-x", "get_x", "GET_X"])]);
    let n = names(&set);
    assert_eq!(n.len(), 3);
    let unique: std::collections::BTreeSet<&String> = n.iter().collect();
    assert_eq!(unique.len(), 3, "{n:?}");
    assert!(n.iter().all(|x| x.starts_with("app_get_x")), "{n:?}");
}

#[test]
fn init_gets_no_tool() {
    let set = build(&[app(Some("com.x.kv"), "0d", &["get", "init"])]);
    assert_eq!(names(&set), ["kv_get"]);
    assert!(set.tools.iter().all(|t| t.method != "init"));
}

#[test]
fn reserved_names_are_never_generated() {
    let apps = [
        app(Some("com.x.describe"), "0e", &["app", "other"]),
        app(Some("com.x.select"), "0f", &["app"]),
        app(None, "describe", &["app"]),
        app(Some("com.x.call"), "10", &["many"]),
    ];
    let set = build(&apps);
    assert_eq!(set.tools.len(), 5, "every method still has a tool");
    for t in &set.tools {
        assert!(
            ![
                "describe_app",
                "select_app",
                "wait_for_events",
                "wait_for_context",
                "call_until",
                "call_many"
            ]
            .contains(&t.name.as_str()),
            "{} is reserved",
            t.name
        );
        assert_name_charset(&t.name);
    }
    assert!(set.get("describe_other").is_some());
}

#[test]
fn tools_are_sorted_by_name() {
    let apps = [
        app(Some("com.z.zeta"), "01", &["b", "a"]),
        app(Some("com.a.alpha"), "02", &["z", "init", "m"]),
        multi("com.m.mid", "03", &[("s2", &["x"]), ("s1", &["y"])]),
    ];
    let n = names(&build(&apps));
    let mut sorted = n.clone();
    sorted.sort();
    assert_eq!(n, sorted);
    assert_eq!(
        n,
        [
            "alpha_m", "alpha_z", "mid_s1_y", "mid_s2_x", "zeta_a", "zeta_b"
        ]
    );
}

// ---------------------------------------------------------------- via the binary

/// `apps --json` → package → id.
fn ids(args: &[&str]) -> BTreeMap<String, String> {
    let v = run_json(args);
    v.as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["package"].as_str().unwrap().to_string(),
                a["id"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn id_tail(id: &str) -> String {
    id.chars()
        .filter(char::is_ascii_alphanumeric)
        .take(6)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// tool name → title (the title names the owning app).
fn name_to_title(tools: &Value) -> BTreeMap<String, String> {
    tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_string(),
                t["title"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn shared_slug_names_via_the_binary_do_not_depend_on_order() {
    let tmp = tempfile::tempdir().unwrap();
    // Bare manifests: the package is the file name. Both sanitise to `my_app`.
    let d1 = tmp.path().join("one");
    let d2 = tmp.path().join("two");
    write(&d1.join("my_app.json"), &manifest_json(&["get", "init"]));
    write(&d2.join("my-app.json"), &manifest_json(&["get", "init"]));
    let both = tmp.path().join("both");
    write(&both.join("my_app.json"), &manifest_json(&["get", "init"]));
    write(&both.join("my-app.json"), &manifest_json(&["get", "init"]));
    let (d1s, d2s, boths) = (
        d1.to_str().unwrap(),
        d2.to_str().unwrap(),
        both.to_str().unwrap(),
    );

    let ids = ids(&["apps", "--apps", boths, "--json"]);
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert_ne!(ids["my-app"], ids["my_app"]);
    // "my-app" < "my_app" ('-' sorts before '_'): it keeps the slug.
    let expected: BTreeMap<String, String> = [
        ("my_app_get".to_string(), "Get (my-app)".to_string()),
        (
            format!("my_app_{}_get", id_tail(&ids["my_app"])),
            "Get (my_app)".to_string(),
        ),
    ]
    .into_iter()
    .collect();

    let f1 = d1.join("my_app.json");
    let f2 = d2.join("my-app.json");
    let runs = [
        run_json(&["tools", "--apps", boths, "--json"]),
        run_json(&["tools", "--apps", d1s, "--apps", d2s, "--json"]),
        run_json(&["tools", "--apps", d2s, "--apps", d1s, "--json"]),
        run_json(&[
            "tools",
            f1.to_str().unwrap(),
            f2.to_str().unwrap(),
            "--json",
        ]),
        run_json(&[
            "tools",
            f2.to_str().unwrap(),
            f1.to_str().unwrap(),
            "--json",
        ]),
    ];
    for (i, tools) in runs.iter().enumerate() {
        assert_eq!(name_to_title(tools), expected, "run {i}");
    }
    // Describe shows the same tool names as tools.
    let d = run_json(&["describe", "my_app", "--apps", d2s, "--apps", d1s, "--json"]);
    let tool = d["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "get")
        .unwrap()["tool"]
        .clone();
    assert_eq!(
        tool,
        json!(format!("my_app_{}_get", id_tail(&ids["my_app"])))
    );
}

#[test]
fn names_via_the_binary_match_the_charset_and_skip_init() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("abi.json");
    write(
        &file,
        &manifest_json(&["Get-Value", "init", "mëthod", "set"]),
    );
    let tools = run_json(&[
        "tools",
        file.to_str().unwrap(),
        "--package",
        "Com.Ünïcode.Ăpp!! v2",
        "--json",
    ]);
    let names = tool_names(&tools);
    assert_eq!(names.len(), 3, "{names:?}");
    for n in &names {
        assert_name_charset(n);
        assert!(!n.ends_with("_init"), "{n}");
    }
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}
