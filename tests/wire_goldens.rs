//! The fake node's bodies are the real node's bodies.
//!
//! `tests/golden/responses/*.json` are written by `conformance/` (a separate
//! cargo project, run by `.ci/run`) from the node's own published types, fed
//! the sample values in `tests/golden/samples.json`. Here the same values go
//! through `tests/support/wire.rs` — the builders the fake node answers with —
//! and must produce the golden bytes exactly.
//!
//! The other direction: `tests/golden/requests/*.json` are the request bodies
//! calimcp itself sends (dry runs of `call`, and what the fake node records for
//! alias lookups, login and refresh); `conformance/` parses each with the
//! node's own request types. They are regenerated with
//! `CALIMCP_UPDATE_GENERATED=1 cargo test --test wire_goldens`; a stale one
//! fails here.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use support::fake_node::FakeNode;
use support::wire::{self, App, Blob, Context};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn samples() -> Value {
    let path = golden_dir().join("samples.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("sample field `{key}` is not a string in {v}"))
}

fn opt<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn blob(v: &Value) -> Blob<'_> {
    Blob {
        bytecode: s(v, "bytecode"),
        compiled: s(v, "compiled"),
    }
}

/// The body `wire.rs` builds for one sample entry.
fn build(name: &str, sample: &Value) -> String {
    let id = &sample["id"];
    match s(sample, "kind") {
        "rpc_ok" => wire::rpc_ok(id, &sample["output"]),
        "rpc_error" => wire::rpc_error(id, s(sample, "type"), sample.get("data")),
        kind @ ("apps_list" | "apps_list_v010") => {
            let list = sample["apps"].as_array().expect("apps");
            let services: Vec<Vec<(&str, Blob<'_>)>> = list
                .iter()
                .map(|a| {
                    a["services"]
                        .as_object()
                        .expect("services")
                        .iter()
                        .map(|(k, b)| (k.as_str(), blob(b)))
                        .collect()
                })
                .collect();
            let apps: Vec<App<'_>> = list
                .iter()
                .zip(&services)
                .map(|(a, services)| App {
                    id: s(a, "id"),
                    blob: blob(&a["blob"]),
                    size: a["size"].as_u64().expect("size"),
                    source: s(a, "source"),
                    metadata: s(a, "metadata").as_bytes(),
                    signer_id: s(a, "signer_id"),
                    package: s(a, "package"),
                    version: s(a, "version"),
                    services,
                })
                .collect();
            if kind == "apps_list" {
                wire::apps_list(&apps)
            } else {
                wire::apps_list_v010(&apps)
            }
        }
        kind @ ("contexts_list" | "contexts_list_v010" | "context_get" | "context_get_v010") => {
            let list = sample["contexts"].as_array().expect("contexts");
            let heads: Vec<Vec<[u8; 32]>> = list
                .iter()
                .map(|c| serde_json::from_value(c["dag_heads"].clone()).expect("dag_heads"))
                .collect();
            let contexts: Vec<Context<'_>> = list
                .iter()
                .zip(&heads)
                .map(|(c, heads)| Context {
                    id: s(c, "id"),
                    application_id: s(c, "application_id"),
                    service_name: opt(c, "service_name"),
                    root_hash: s(c, "root_hash"),
                    dag_heads: heads,
                    application_version: opt(c, "application_version"),
                    name: opt(c, "name"),
                    group_id: opt(c, "group_id"),
                })
                .collect();
            match kind {
                "contexts_list" => wire::contexts_list(&contexts),
                "contexts_list_v010" => wire::contexts_list_v010(&contexts),
                "context_get" => wire::context_get(&contexts[0]),
                _ => wire::context_get_v010(&contexts[0]),
            }
        }
        "aliases_list" => {
            let list: Vec<(&str, &str)> = sample["aliases"]
                .as_array()
                .expect("aliases")
                .iter()
                .map(|p| (p[0].as_str().expect("alias"), p[1].as_str().expect("id")))
                .collect();
            wire::aliases_list(&list)
        }
        "app_versions" => {
            let list: Vec<wire::AppVersion<'_>> = sample["versions"]
                .as_array()
                .expect("versions")
                .iter()
                .map(|v| wire::AppVersion {
                    version: s(v, "version"),
                    blob_id: s(v, "blob_id"),
                    size: v["size"].as_u64().expect("size"),
                    package: s(v, "package"),
                })
                .collect();
            wire::app_versions(&list)
        }
        "identities_owned" => {
            let ids: Vec<&str> = sample["identities"]
                .as_array()
                .expect("identities")
                .iter()
                .map(|v| v.as_str().expect("identity"))
                .collect();
            wire::identities_owned(&ids)
        }
        "context_group" => wire::context_group(opt(sample, "group_id")),
        kind @ ("group_info" | "group_info_rc4") => wire::group_info(
            &wire::GroupInfo {
                group_id: s(sample, "group_id"),
                app_key: s(sample, "app_key"),
                target_application_id: s(sample, "target_application_id"),
                member_count: sample["member_count"].as_u64().expect("member_count"),
                context_count: sample["context_count"].as_u64().expect("context_count"),
                default_capabilities: sample["default_capabilities"]
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .expect("default_capabilities"),
                subgroup_visibility: s(sample, "subgroup_visibility"),
                group_state_hash: s(sample, "group_state_hash"),
            },
            (kind == "group_info_rc4").then(|| s(sample, "upgrade_policy")),
        ),
        "group_not_found_rc4" => {
            let id = s(sample, "group_id");
            let bytes: Vec<u8> = (0..id.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&id[i..i + 2], 16).expect("hex group_id"))
                .collect();
            wire::group_not_found_rc4(&bytes.try_into().expect("32 bytes"))
        }
        "alias_hit" => wire::alias_hit(s(sample, "value")),
        "alias_miss" => wire::alias_miss(),
        "login_ok" => wire::login_ok(s(sample, "access_token"), s(sample, "refresh_token")),
        "refresh_ok" => wire::refresh_ok(s(sample, "access_token"), s(sample, "refresh_token")),
        "login_failed" => wire::login_failed(s(sample, "message")),
        "auth_error" => wire::auth_error(s(sample, "message")),
        "guard_denied" => wire::guard_denied(),
        "empty" => wire::empty(),
        "alias_invalid" => wire::alias_invalid(),
        "admin_error" => wire::admin_error(s(sample, "message")),
        "blob_uploaded" => {
            wire::blob_uploaded(s(sample, "blob_id"), sample["size"].as_u64().expect("size"))
        }
        "blob_list" => {
            let rows: Vec<(String, u64)> = sample["blobs"]
                .as_array()
                .expect("blobs")
                .iter()
                .map(|b| {
                    (
                        s(b, "blob_id").to_string(),
                        b["size"].as_u64().expect("size"),
                    )
                })
                .collect();
            wire::blob_list(&rows)
        }
        "blob_deleted" => wire::blob_deleted(s(sample, "blob_id")),
        "abi_ok" => {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(s(sample, "manifest_file"));
            let text = std::fs::read_to_string(&path).unwrap();
            wire::abi_ok(&wire::abi_node_form(&serde_json::from_str(&text).unwrap()))
        }
        "rpc_unreadable" => wire::rpc_unreadable(s(sample, "detail")),
        "ws_subscribed" => {
            let ids: Vec<&str> = sample["context_ids"]
                .as_array()
                .expect("context_ids")
                .iter()
                .map(|v| v.as_str().expect("context id"))
                .collect();
            wire::ws_subscribed(id.as_u64(), &ids)
        }
        "ws_error" => wire::ws_error(id.as_u64(), s(sample, "type"), sample.get("data")),
        "ws_event" => wire::ws_event(&event_of(name, &sample["event"])),
        "sse_event" => wire::sse_event(&event_of(name, &sample["event"])),
        "rpc_sync_status" => wire::rpc_sync_status(
            id,
            s(sample, "context_id"),
            sample["is_initialized"].as_bool().expect("is_initialized"),
            &sample["sync_state"],
            sample["failure_count"].as_u64().expect("failure_count") as u32,
            opt(sample, "last_error"),
        ),
        other => panic!("sample `{name}`: no wire.rs builder for kind `{other}`"),
    }
}

/// A node event from a sample, built with `wire::event_*`.
fn event_of(name: &str, e: &Value) -> Value {
    let ctx = s(e, "context_id");
    match s(e, "type") {
        "StateMutation" => {
            let events: Vec<(&str, Vec<u8>)> = e["events"]
                .as_array()
                .expect("events")
                .iter()
                .map(|x| (s(x, "kind"), s(x, "payload").as_bytes().to_vec()))
                .collect();
            let events: Vec<(&str, &[u8])> =
                events.iter().map(|(k, d)| (*k, d.as_slice())).collect();
            wire::event_state_mutation(ctx, s(e, "new_root"), &events)
        }
        "SyncStatus" => wire::event_sync_status(
            ctx,
            &e["sync_state"],
            e["failure_count"].as_u64().expect("failure_count") as u32,
            opt(e, "last_error"),
        ),
        "AppVersionChanged" => {
            wire::event_app_version_changed(ctx, opt(e, "from_version"), opt(e, "to_version"))
        }
        "XCall" => wire::event_xcall(
            ctx,
            s(e, "target_context_id"),
            s(e, "function"),
            &e["outcome"],
        ),
        other => panic!("sample `{name}`: no event builder for `{other}`"),
    }
}

#[test]
fn every_builder_reproduces_the_nodes_bytes() {
    let samples = samples();
    let responses = samples["responses"].as_object().expect("responses");
    assert!(!responses.is_empty(), "samples.json has no responses");
    let mut failures = Vec::new();
    for (name, sample) in responses {
        let path = golden_dir().join("responses").join(format!("{name}.json"));
        let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (run the conformance project with --write)",
                path.display()
            )
        });
        let built = build(name, sample);
        if built != golden {
            failures.push(format!("{name}:\n  node: {golden}\n  wire: {built}"));
        }
    }
    assert!(
        failures.is_empty(),
        "wire.rs differs from the node's bytes:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_golden_has_its_sample_values() {
    let samples = samples();
    let named: BTreeSet<String> = samples["responses"]
        .as_object()
        .expect("responses")
        .keys()
        .cloned()
        .collect();
    let on_disk: BTreeSet<String> = std::fs::read_dir(golden_dir().join("responses"))
        .expect("tests/golden/responses")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .map(|f| f.strip_suffix(".json").map(str::to_owned).unwrap_or(f))
        .collect();
    assert_eq!(
        named, on_disk,
        "tests/golden/responses and samples.json name different bodies"
    );
}

#[test]
fn json_rpc_errors_read_type_first_and_unit_variants_have_no_data() {
    // What a fake written from notes got wrong: the node's build keeps
    // declaration order, so `"type"` comes before `"data"`.
    let id = Value::from(7);
    assert_eq!(
        wire::rpc_error(&id, "FunctionCallError", Some(&"x".into())),
        r#"{"jsonrpc":"2.0","id":7,"error":{"type":"FunctionCallError","data":"x"}}"#
    );
    assert_eq!(
        wire::rpc_error(&id, "ContextNotFound", None),
        r#"{"jsonrpc":"2.0","id":7,"error":{"type":"ContextNotFound"}}"#
    );
    assert_eq!(wire::guard_denied(), "");
}

// ---- requests calimcp sends ----

const CTX: &str = "US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx";
const EXECUTOR: &str = "LbUiWL3xVV8hTFYBVdbTNrpDo41NKS6o3LHHuDzjfcY";
const NODE: &str = "http://127.0.0.1:9";

/// `call … --dry-run --json` against local apps: the exact execute request.
fn dry_run(apps: &str, args: &[&str]) -> Value {
    let home = tempfile::tempdir().unwrap();
    let out = support::calimcp(home.path())
        .args(["--offline", "--apps", apps, "--node", NODE, "call"])
        .args(args)
        .args(["--dry-run", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "calimcp call {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let path = v["url"].as_str().unwrap().strip_prefix(NODE).unwrap();
    request(v["method"].as_str().unwrap(), path, v["body"].clone(), &[])
}

fn request(method: &str, path: &str, body: Value, normalised: &[&str]) -> Value {
    let mut v = serde_json::json!({"method": method, "path": path, "body": body});
    if !normalised.is_empty() {
        v["normalised"] = serde_json::json!(normalised);
    }
    v
}

fn recorded(node: &FakeNode, method: &str, path_prefix: &str) -> (String, Value) {
    let r = node
        .requests()
        .into_iter()
        .find(|r| r.method == method && r.path.starts_with(path_prefix))
        .unwrap_or_else(|| panic!("calimcp sent no {method} {path_prefix}…"));
    let body = if r.body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&r.body).expect("a JSON body")
    };
    (r.path, body)
}

fn every_request() -> Vec<(&'static str, Value)> {
    let scalars = serde_json::json!({
        "b": true, "i32": i32::MIN, "i64": i64::MIN, "u32": u32::MAX, "u64": u64::MAX,
        "f32": 1.5, "f64": -0.25, "s": "h\u{e9}llo \"q\"\n", "nothing": null,
    })
    .to_string();
    let hex32 = "05".repeat(32);
    let array32 = serde_json::to_string(&[5u8; 32]).unwrap();
    let mut out = vec![
        (
            "execute-kv-set",
            dry_run(
                "examples",
                &["kv_store_set", "--key", "a", "--value", "b", "-c", CTX],
            ),
        ),
        (
            "execute-kv-set-as",
            dry_run(
                "examples",
                &[
                    "kv_store_set",
                    "--key",
                    "a",
                    "--value",
                    "b",
                    "-c",
                    CTX,
                    "--as",
                    EXECUTOR,
                ],
            ),
        ),
        (
            "execute-no-args",
            dry_run("examples", &["kv_store_len", "-c", CTX]),
        ),
        (
            "execute-hex-context",
            dry_run("examples", &["kv_store_len", "-c", &"ab".repeat(32)]),
        ),
        (
            "execute-scalar-extremes",
            dry_run(
                "examples",
                &["every_kind_echo_scalars", "--args", &scalars, "-c", CTX],
            ),
        ),
        (
            "execute-record-variant-bytes",
            dry_run(
                "examples",
                &[
                    "every_kind_apply",
                    "--args",
                    r#"{"action":{"Update":{"name":"n","bio":null,"avatar":"00ff10","tags":["x"]}}}"#,
                    "-c",
                    CTX,
                ],
            ),
        ),
        (
            "execute-tagged-untagged",
            dry_run(
                "examples",
                &[
                    "every_kind_post",
                    "--args",
                    r#"{"message":{"type":"Text","data":"hi"},"loose":4294967295}"#,
                    "-c",
                    CTX,
                ],
            ),
        ),
        (
            "execute-map-list",
            dry_run(
                "examples",
                &[
                    "every_kind_lookup",
                    "--args",
                    r#"{"scores":{"a":[1,2],"b":[]}}"#,
                    "-c",
                    CTX,
                ],
            ),
        ),
        (
            "execute-tuple-nested-extremes",
            dry_run(
                "tests/support/abi",
                &[
                    "typed_echo_complex",
                    "--args",
                    &format!(
                        r#"{{"tags":["a"],"meta":{{"n":{}}},"pair":["x",{}]}}"#,
                        u64::MAX,
                        i64::MIN
                    ),
                    "-c",
                    CTX,
                ],
            ),
        ),
        (
            "execute-recursive",
            dry_run(
                "examples",
                &[
                    "every_kind_planted",
                    "--args",
                    r#"{"tree":{"label":"root","children":[{"label":"leaf","children":[]}]}}"#,
                    "-c",
                    CTX,
                ],
            ),
        ),
        (
            "execute-internally-tagged",
            dry_run(
                "examples",
                &[
                    "every_kind_area",
                    "--args",
                    r#"{"shape":{"kind":"circle","radius":2.5}}"#,
                    "-c",
                    CTX,
                ],
            ),
        ),
        (
            "execute-base58-key",
            dry_run(
                "examples",
                &[
                    "every_kind_profile",
                    "--args",
                    &format!(r#"{{"key":"{EXECUTOR}"}}"#),
                    "-c",
                    CTX,
                ],
            ),
        ),
        (
            "execute-hex-accounts",
            dry_run(
                "examples",
                &[
                    "every_kind_accounts",
                    "--args",
                    &format!(r#"{{"ids":["{hex32}"]}}"#),
                    "-c",
                    CTX,
                ],
            ),
        ),
        (
            "execute-id32-array",
            dry_run(
                "tests/golden/abi",
                &[
                    "ids_member",
                    "--args",
                    &format!(r#"{{"key":{array32},"raw":{array32}}}"#),
                    "-c",
                    CTX,
                ],
            ),
        ),
    ];

    // An alias, resolved at the node.
    let node = FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    support::calimcp(home.path())
        .args(["--apps", "examples", "--node", &node.url])
        .args(["call", "kv_store_len", "-c", "prod", "--dry-run"])
        .assert()
        .success();
    let (path, body) = recorded(&node, "POST", "/admin-api/alias/lookup/context/");
    out.push(("alias-lookup-context", request("POST", &path, body, &[])));

    // Login, then a refresh once the access token has expired. Tokens and the
    // timestamp change from run to run; they are replaced by fixed values.
    let node = FakeNode::builder().auth("admin", "hunter2").start();
    let home = tempfile::tempdir().unwrap();
    let run = || {
        support::calimcp(home.path())
            .env("CALIMERO_USERNAME", "admin")
            .env("CALIMERO_PASSWORD", "hunter2")
            .args([
                "--apps",
                "examples",
                "--node",
                &node.url,
                "call",
                "kv_store_len",
                "-c",
                "prod",
            ])
            .assert()
            .success();
    };
    run();
    node.expire_tokens();
    run();
    let (path, mut body) = recorded(&node, "POST", "/auth/token");
    assert!(body["timestamp"].is_u64(), "login timestamp: {body}");
    body["timestamp"] = Value::from(1_700_000_000u64);
    out.push(("login", request("POST", &path, body, &["timestamp"])));
    let (path, mut body) = recorded(&node, "POST", "/auth/refresh");
    for key in ["access_token", "refresh_token"] {
        assert!(
            body[key].as_str().is_some_and(|t| !t.is_empty()),
            "{key}: {body}"
        );
        body[key] = Value::from(format!("<{key}>"));
    }
    out.push((
        "refresh",
        request("POST", &path, body, &["access_token", "refresh_token"]),
    ));
    out.extend(lifecycle_requests());
    out
}

/// The app lifecycle's requests (issue 43), as calimcp sends them to an rc.4
/// node (the one whose bodies differ most: `requester` on delete): install
/// by path, the namespace and the context of `context create`, the alias,
/// the invitation, the namespace and context joins on a second node, the
/// alias removed, the context deleted, the app uninstalled. The module's
/// temporary path and the application id the fake derives from it change
/// from run to run; they are replaced by fixed values of their types.
fn lifecycle_requests() -> Vec<(&'static str, Value)> {
    let (n1, n2) = (
        FakeNode::with_profile(support::fake_node::Profile::Rc4),
        FakeNode::with_profile(support::fake_node::Profile::Rc4),
    );
    let home = tempfile::tempdir().unwrap();
    let ns = lifecycle_run(&n1, &n2, home.path());
    let module = home.path().join("registry.wasm");
    let app_id = n1
        .requests()
        .into_iter()
        .find(|r| r.path == "/admin-api/namespaces" && r.method == "POST")
        .and_then(|r| serde_json::from_str::<Value>(&r.body).ok())
        .and_then(|v| v["applicationId"].as_str().map(str::to_string))
        .expect("a namespace was created");
    let varying = Varying {
        app_id,
        path: module.to_str().unwrap().to_string(),
    };
    let fixed = |name, node, method, prefix: &str, nth| {
        (name, varying.fixed(name, node, method, prefix, nth))
    };
    let install = "/admin-api/install-dev-application";
    let namespace = format!("/admin-api/namespaces/{ns}");
    let alias_delete = "/admin-api/alias/delete/context/";
    vec![
        fixed("install-dev-application", &n1, "POST", install, 0),
        fixed("install-dev-application-metadata", &n1, "POST", install, 1),
        fixed("create-namespace", &n1, "POST", "/admin-api/namespaces", 0),
        fixed("create-context", &n1, "POST", "/admin-api/contexts", 0),
        fixed(
            "create-context-named",
            &n1,
            "POST",
            "/admin-api/contexts",
            1,
        ),
        fixed(
            "alias-create-context",
            &n1,
            "POST",
            "/admin-api/alias/create/context",
            0,
        ),
        fixed(
            "namespace-invite",
            &n1,
            "POST",
            &format!("{namespace}/invite"),
            0,
        ),
        fixed(
            "namespace-join",
            &n2,
            "POST",
            &format!("{namespace}/join"),
            0,
        ),
        fixed("context-join", &n2, "POST", "/admin-api/contexts/", 0),
        fixed("alias-delete-context", &n1, "POST", alias_delete, 0),
        fixed("delete-context", &n1, "DELETE", "/admin-api/contexts/", 0),
        fixed(
            "uninstall-application",
            &n1,
            "DELETE",
            "/admin-api/applications/",
            0,
        ),
    ]
}

/// The lifecycle with the CLI: node 1 from install to uninstall, node 2
/// joining; returns the namespace id.
fn lifecycle_run(n1: &FakeNode, n2: &FakeNode, home: &Path) -> String {
    let abi: Value = serde_json::from_str(include_str!("../testapps/registry/abi.json")).unwrap();
    let module = home.join("registry.wasm");
    std::fs::write(&module, support::fake_node::wasm_module(Some(&abi))).unwrap();
    let module = module.to_str().unwrap().to_string();
    let file = home.join("invitation.json").to_str().unwrap().to_string();
    let cli = |node: &FakeNode, args: &[&str]| {
        support::calimcp(home)
            .args(["--node", &node.url])
            .args(args)
            .assert()
            .success();
    };
    let registry = "com.example.registry";
    let version = format!("{registry}@0.1.0");
    cli(
        n1,
        &[
            "app",
            "install",
            &module,
            "--package",
            registry,
            "--version",
            "0.1.0",
        ],
    );
    cli(
        n1,
        &[
            "app",
            "install",
            &module,
            "--metadata",
            r#"{"name":"Registry"}"#,
        ],
    );
    cli(
        n1,
        &[
            "context", "create", registry, "--owner", "alice", "--limit", "10",
        ],
    );
    let args = r#"{"owner":"bob","limit":1}"#;
    let named = ["--name", "main", "--alias", "reg"];
    cli(
        n1,
        &[&["context", "create", registry, "--args", args][..], &named].concat(),
    );
    let ctx = n1.aliases()["reg"].clone();
    cli(n1, &["context", "invite", "reg", "-o", &file]);
    let inv: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let ns = inv["namespaceId"].as_str().unwrap().to_string();
    n2.offer(&ns, &ctx, support::fake_node::wasm_module(Some(&abi)), abi);
    cli(n2, &["context", "join", &file]);
    cli(n1, &["context", "alias", "remove", "reg"]);
    cli(n1, &["context", "delete", &ctx, "--yes"]);
    cli(n1, &["app", "uninstall", &version, "--force", "--yes"]);
    ns
}

/// What changes from run to run in the lifecycle's requests.
struct Varying {
    app_id: String,
    path: String,
}

impl Varying {
    /// The `nth` request `method PREFIX…` that `node` saw, with the
    /// application id and the module's path replaced by fixed values.
    fn fixed(&self, name: &str, node: &FakeNode, method: &str, prefix: &str, nth: usize) -> Value {
        let r = node
            .requests()
            .into_iter()
            .filter(|r| r.method == method && r.path.starts_with(prefix))
            .nth(nth)
            .unwrap_or_else(|| panic!("{name}: calimcp sent no {method} {prefix}…"));
        let text = serde_json::json!({"path": r.path, "body": r.body}).to_string();
        let mut normalised = Vec::new();
        if text.contains(&self.app_id) {
            normalised.push("applicationId");
        }
        if text.contains(&self.path) {
            normalised.push("path");
        }
        let text = text
            .replace(&self.app_id, &support::fake_node::id(77))
            .replace(&self.path, "/home/user/registry.wasm");
        let v: Value = serde_json::from_str(&text).unwrap();
        let body = match v["body"].as_str().unwrap() {
            "" => Value::Null,
            b => serde_json::from_str(b).expect("a JSON body"),
        };
        request(method, v["path"].as_str().unwrap(), body, &normalised)
    }
}

#[test]
fn request_goldens_are_what_calimcp_sends() {
    let dir = golden_dir().join("requests");
    let expected: Vec<(String, String)> = every_request()
        .into_iter()
        .map(|(name, v)| {
            (
                format!("{name}.json"),
                serde_json::to_string_pretty(&v).unwrap() + "\n",
            )
        })
        .collect();
    if std::env::var("CALIMCP_UPDATE_GENERATED").is_ok_and(|v| v == "1") {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in &expected {
            std::fs::write(dir.join(name), text).unwrap();
        }
        return;
    }
    let on_disk: BTreeSet<String> = std::fs::read_dir(&dir)
        .expect("tests/golden/requests")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let made: BTreeSet<String> = expected.iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(
        on_disk, made,
        "tests/golden/requests/ has other files than calimcp makes; run CALIMCP_UPDATE_GENERATED=1 cargo test --test wire_goldens"
    );
    for (name, text) in &expected {
        let actual = std::fs::read_to_string(dir.join(name)).unwrap();
        assert!(
            actual == *text,
            "tests/golden/requests/{name} is stale (calimcp now sends:\n{text}); run CALIMCP_UPDATE_GENERATED=1 cargo test --test wire_goldens, then the conformance project"
        );
    }
}

#[test]
fn error_helpers_build_the_golden_bodies() {
    let samples = samples();
    let r = &samples["responses"];
    let golden = |name: &str| {
        std::fs::read_to_string(golden_dir().join(format!("responses/{name}.json"))).unwrap()
    };
    let id = Value::from(7);
    // An app's `Err("nope")`, as the node prints its JSON bytes.
    assert_eq!(
        wire::app_error_data(r#""nope""#),
        r["rpc-error-app"]["data"].as_str().unwrap()
    );
    assert_eq!(
        wire::panic_data("boom", "src/lib.rs:1:2"),
        r["rpc-error-panic"]["data"].as_str().unwrap()
    );
    assert_eq!(
        wire::rpc_parse_error(&id, "missing field `argsJson`"),
        golden("rpc-parse-error-missing-args")
    );
    assert_eq!(
        wire::rpc_internal_error(&id),
        golden("rpc-server-internal-error")
    );
}

// ---- the fake's group routes ----

/// `GET path` on the fake: (status, body).
fn get(node: &FakeNode, path: &str) -> (u16, String) {
    use std::io::{BufRead, BufReader, Read, Write};
    let addr = node.url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nhost: {addr}\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status = line.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap();
    let mut length = 0;
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    (status, String::from_utf8(body).unwrap())
}

/// The keys of `data`, in order, with the JSON type of each value.
fn shape(body: &str) -> Vec<(String, &'static str)> {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{body}: {e}"));
    let kind = |x: &Value| match x {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    v["data"]
        .as_object()
        .unwrap_or_else(|| panic!("no data object: {body}"))
        .iter()
        .map(|(k, x)| (k.clone(), kind(x)))
        .collect()
}

/// `GET /admin-api/contexts/:id/group` and `GET /admin-api/groups/:id` are
/// offered from 0.10.1-rc.7 on (so by the `rc4`, `rc25` and `hex` profiles,
/// not `0.10`), in the shape of each version's golden (rc.4 with
/// `upgradePolicy`), answer a missing context and a missing group as the
/// node does, and target the app until a group upgrade, then the new version.
#[test]
fn the_fake_serves_the_group_routes_of_each_version_with_the_nodes_bodies() {
    use support::fake_node::{Profile, wasm_module};
    let golden = |name: &str| {
        std::fs::read_to_string(golden_dir().join(format!("responses/{name}.json"))).unwrap()
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kv-store/abi.json");
    let abi: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut newer = abi.clone();
    newer["methods"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"name": "tag", "params": [], "returns": {"kind": "string"}}));
    let missing = "cd".repeat(32);
    for p in Profile::ALL {
        let node = FakeNode::with_profile(p);
        let (old, ctx) = node.install_module(
            Some(("com.example.kv-c", "0.1.0")),
            wasm_module(Some(&abi)),
            abi.clone(),
        );
        let (status, body) = get(&node, &format!("/admin-api/contexts/{ctx}/group"));
        if p == Profile::V010 {
            assert_eq!(status, 404, "0.10.0 has no group routes: {body}");
            assert_eq!(get(&node, &format!("/admin-api/groups/{missing}")).0, 404);
            continue;
        }
        assert_eq!(status, 200, "{}: {body}", p.name());
        let group: Value = serde_json::from_str(&body).unwrap();
        let group = group["data"].as_str().expect("a group id").to_owned();
        assert_eq!(group.len(), 64, "hex: {group}");
        assert_eq!(
            body,
            golden("context-group").replace(
                "44e8be85d8ce28921f3d3a2fe27218e901cbc6f26236a86f59c1a2993267d592",
                &group
            )
        );
        let nobody = p.id(201);
        assert_eq!(
            get(&node, &format!("/admin-api/contexts/{nobody}/group")),
            (200, golden("context-group-none"))
        );

        let info_golden = golden(if p == Profile::Rc4 {
            "group-info-rc4"
        } else {
            "group-info"
        });
        let target = |node: &FakeNode| {
            let (status, body) = get(node, &format!("/admin-api/groups/{group}"));
            assert_eq!(status, 200, "{body}");
            assert_eq!(shape(&body), shape(&info_golden), "{}: {body}", p.name());
            let v: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(v["data"]["groupId"], group.as_str());
            v["data"]["targetApplicationId"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        assert_eq!(target(&node), old, "{}: before an upgrade", p.name());
        let (new, _) = node.install_module(
            Some(("com.example.kv-c", "0.2.0")),
            wasm_module(Some(&newer)),
            newer.clone(),
        );
        assert_eq!(target(&node), old, "{}: installed, not upgraded", p.name());
        node.upgrade_group(&new);
        assert_eq!(target(&node), new, "{}: after the upgrade", p.name());

        let not_found = if p == Profile::Rc4 {
            golden("group-not-found-rc4")
        } else {
            golden("group-not-found")
        };
        assert_eq!(
            get(&node, &format!("/admin-api/groups/{missing}")),
            (500, not_found),
            "{}",
            p.name()
        );
    }
}
