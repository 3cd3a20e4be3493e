//! Where an ABI comes from (issue 2 §2, §3, §6): a `.wasm` built here with an
//! embedded `calimero_abi_v1` section, an `.mpk` built here (single and several
//! services), a bundle directory, bare manifests with `--package`, and names
//! resolved among `--apps` directories. Then bad input: each must be a clear
//! error (exit 2, naming the file and the JSON path where there is one) or a
//! degraded mapping with a warning — never a panic (exit 101), a crash or a
//! hang. Everything runs the real binary on files written to temp dirs.

mod support;

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::{Value, json};
use support::mpk;
use tempfile::TempDir;

// ---------------------------------------------------------------- helpers

/// The binary, hermetic and offline: no node of the machine's is ever asked.
fn calimcp() -> Command {
    let mut cmd = support::offline();
    // A hang guard only: nothing here asserts on time.
    cmd.timeout(Duration::from_secs(20));
    cmd
}

/// Runs the binary; it must exit by itself with a code other than 101 (panic).
fn run(args: &[&str]) -> Output {
    let out = calimcp().args(args).output().expect("spawn calimcp");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("{args:?}: killed (crash or hang guard): {stderr}"));
    assert_ne!(code, 101, "{args:?} panicked: {stderr}");
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Exit 0 and JSON on stdout.
fn ok_json(args: &[&str]) -> Value {
    let out = run(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: stdout is not JSON: {e}"))
}

/// Exit 2 with an error on stderr and nothing on stdout; returns stderr.
fn bad_input(args: &[&str]) -> String {
    let out = run(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: stdout {}", stdout(&out));
    err
}

fn tool_names(tools: &Value) -> Vec<String> {
    tools
        .as_array()
        .expect("an array of tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

fn method_names(describe: &Value) -> Vec<String> {
    describe["methods"]
        .as_array()
        .expect("methods")
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_string())
        .collect()
}

/// A small valid manifest with these methods (sorted, as the SDK emits them).
fn abi(methods: &[&str]) -> Value {
    let mut names = methods.to_vec();
    names.sort();
    let methods: Vec<Value> = names
        .iter()
        .map(|m| {
            json!({"name": m, "params": [{"name": "key", "type": {"kind": "string"}}],
                   "returns": {"kind": "string"}, "returns_nullable": true, "intent": "read_only"})
        })
        .collect();
    json!({"schema_version": "wasm-abi/1", "types": {}, "methods": methods, "events": []})
}

fn bytes(v: &Value) -> Vec<u8> {
    serde_json::to_vec_pretty(v).unwrap()
}

fn write(path: &Path, data: &[u8]) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, data).unwrap();
    path.to_path_buf()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A WebAssembly module: a type section, an unrelated custom section, then
/// one `calimero_abi_v1` custom section per payload, in order.
fn wasm(abi_sections: &[&[u8]]) -> Vec<u8> {
    let mut module = wasm_encoder::Module::new();
    let mut types = wasm_encoder::TypeSection::new();
    types.ty().function([], []);
    module.section(&types);
    module.section(&wasm_encoder::CustomSection {
        name: Cow::Borrowed("producers"),
        data: Cow::Borrowed(b"\x00"),
    });
    for payload in abi_sections {
        module.section(&wasm_encoder::CustomSection {
            name: Cow::Borrowed("calimero_abi_v1"),
            data: Cow::Borrowed(payload),
        });
    }
    module.finish()
}

/// No control character (but newline) and no bidi override anywhere.
fn assert_no_control(text: &str, what: &str) {
    for (i, c) in text.char_indices() {
        let bad = (c.is_control() && c != '\n')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        assert!(
            !bad,
            "{what}: {:?} at byte {i}: {:?}",
            c,
            &text[i.saturating_sub(60)..(i + 10).min(text.len())]
        );
    }
}

/// Every string inside a JSON value (keys included).
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => {
            for (k, x) in o {
                out.push(k.clone());
                strings(x, out);
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------- .wasm

#[test]
fn wasm_with_an_embedded_abi_loads() {
    let tmp = TempDir::new().unwrap();
    let f = write(
        &tmp.path().join("kv.wasm"),
        &wasm(&[&bytes(&abi(&["get", "set"]))]),
    );
    let d = ok_json(&["describe", s(&f), "--json"]);
    assert_eq!(method_names(&d), ["get", "set"]);
    assert_eq!(
        d["package"], "kv",
        "the package of a bare module is its file name"
    );
    assert_eq!(
        tool_names(&ok_json(&["tools", s(&f), "--json"])),
        ["kv_get", "kv_set"]
    );
    // Recognised by its header even without the extension.
    let g = write(
        &tmp.path().join("module.bin"),
        &wasm(&[&bytes(&abi(&["get"]))]),
    );
    assert_eq!(
        method_names(&ok_json(&["describe", s(&g), "--json"])),
        ["get"]
    );
}

#[test]
fn wasm_last_valid_section_wins() {
    let tmp = TempDir::new().unwrap();
    let first = bytes(&abi(&["first"]));
    let second = bytes(&abi(&["second"]));
    let f = write(&tmp.path().join("two.wasm"), &wasm(&[&first, &second]));
    assert_eq!(
        method_names(&ok_json(&["describe", s(&f), "--json"])),
        ["second"]
    );
    // A later invalid section: the last valid one, with a warning.
    for broken in [
        &b"{\"methods\": ["[..],
        b"not json",
        b"{\"schema_version\": \"wasm-abi/2\", \"methods\": []}",
    ] {
        let f = write(&tmp.path().join("broken.wasm"), &wasm(&[&first, broken]));
        let out = run(&["describe", s(&f), "--json"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let d: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(method_names(&d), ["first"]);
        assert!(stderr(&out).contains("warning"), "{}", stderr(&out));
    }
    // An invalid section before a valid one changes nothing.
    let f = write(&tmp.path().join("late.wasm"), &wasm(&[b"garbage", &second]));
    assert_eq!(
        method_names(&ok_json(&["describe", s(&f), "--json"])),
        ["second"]
    );
    // Every section invalid: the error of the last one.
    let f = write(
        &tmp.path().join("none-valid.wasm"),
        &wasm(&[b"garbage", b""]),
    );
    let err = bad_input(&["describe", s(&f)]);
    assert!(err.contains("none-valid.wasm"), "{err}");
}

#[test]
fn wasm_without_an_abi_is_a_clear_error() {
    let tmp = TempDir::new().unwrap();
    let f = write(&tmp.path().join("plain.wasm"), &wasm(&[]));
    for cmd in ["describe", "schema", "tools"] {
        let err = bad_input(&[cmd, s(&f)]);
        assert!(err.contains("plain.wasm"), "{err}");
        assert!(err.contains("carries no embedded ABI"), "{err}");
    }
    let out = run(&["describe", s(&f), "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let e: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(e["error"]["code"], "no_embedded_abi");
    // Not a module at all, or cut short.
    let f = write(&tmp.path().join("fake.wasm"), b"this is not wasm");
    assert!(bad_input(&["describe", s(&f)]).contains("fake.wasm"));
    let module = wasm(&[&bytes(&abi(&["get"]))]);
    let f = write(&tmp.path().join("cut.wasm"), &module[..module.len() - 10]);
    assert!(bad_input(&["describe", s(&f)]).contains("cut.wasm"));
}

#[test]
fn wasm_with_no_methods_is_a_state_schema_with_a_warning() {
    let tmp = TempDir::new().unwrap();
    let state = json!({"schema_version": "wasm-abi/1", "types": {
        "State": {"kind": "record", "fields": [{"name": "n", "type": {"kind": "u64"}}]}
    }, "methods": [], "events": [], "state_root": "State"});
    let f = write(&tmp.path().join("state.wasm"), &wasm(&[&bytes(&state)]));
    let out = run(&["tools", s(&f), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap(),
        json!([])
    );
    assert!(
        stderr(&out).contains("state schema only"),
        "{}",
        stderr(&out)
    );
    let out = run(&["tools", s(&f), "--json", "--quiet"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let out = run(&["describe", s(&f)]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("state schema only"));
}

// ---------------------------------------------------------------- .mpk and bundles

fn bundle_manifest(package: &str, extra: Value) -> Value {
    let mut m = json!({
        "version": "1.0",
        "package": package,
        "appVersion": "2.3.4",
        "metadata": {"name": "Test App"}
    });
    for (k, v) in extra.as_object().unwrap() {
        m[k] = v.clone();
    }
    m
}

#[test]
fn mpk_single_service() {
    let tmp = TempDir::new().unwrap();
    let manifest = bundle_manifest(
        "com.acme.kv-store",
        json!({"wasm": {"path": "app.wasm"}, "abi": {"path": "abi.json"}}),
    );
    let f = write(
        &tmp.path().join("kv.mpk"),
        &mpk(&[
            ("manifest.json", bytes(&manifest)),
            ("abi.json", bytes(&abi(&["get", "set"]))),
            ("app.wasm", wasm(&[])),
        ]),
    );
    let d = ok_json(&["describe", s(&f), "--json"]);
    assert_eq!(d["package"], "com.acme.kv-store");
    assert_eq!(d["version"], "2.3.4");
    assert_eq!(method_names(&d), ["get", "set"]);
    assert_eq!(
        tool_names(&ok_json(&["tools", s(&f), "--json"])),
        ["kv_store_get", "kv_store_set"]
    );

    // Only a module: the ABI comes from its custom section; `./` paths are fine.
    let manifest = bundle_manifest("com.acme.embedded", json!({"wasm": {"path": "./app.wasm"}}));
    let f = write(
        &tmp.path().join("embedded.mpk"),
        &mpk(&[
            ("./manifest.json", bytes(&manifest)),
            ("app.wasm", wasm(&[&bytes(&abi(&["only"]))])),
        ]),
    );
    assert_eq!(
        tool_names(&ok_json(&["tools", s(&f), "--json"])),
        ["embedded_only"]
    );
}

#[test]
fn mpk_multi_service() {
    let tmp = TempDir::new().unwrap();
    let manifest = bundle_manifest(
        "com.acme.mero-docs",
        json!({"services": [
            {"name": "docs", "wasm": {"path": "docs.wasm"}, "abi": {"path": "docs/abi.json"}},
            {"name": "registry", "wasm": "registry.wasm", "abi": "registry/abi.json"}
        ]}),
    );
    let f = write(
        &tmp.path().join("docs.mpk"),
        &mpk(&[
            ("manifest.json", bytes(&manifest)),
            ("docs/abi.json", bytes(&abi(&["open", "save"]))),
            ("registry/abi.json", bytes(&abi(&["list"]))),
        ]),
    );
    assert_eq!(
        tool_names(&ok_json(&["tools", s(&f), "--json"])),
        [
            "mero_docs_docs_open",
            "mero_docs_docs_save",
            "mero_docs_registry_list"
        ]
    );
    let d = ok_json(&["describe", s(&f), "--json"]);
    let services: Vec<&str> = d
        .as_array()
        .expect("one object per service")
        .iter()
        .map(|x| x["service"].as_str().unwrap())
        .collect();
    assert_eq!(services, ["docs", "registry"]);
    assert_eq!(
        tool_names(&ok_json(&[
            "tools",
            s(&f),
            "--service",
            "registry",
            "--json"
        ])),
        ["mero_docs_registry_list"]
    );
    // A service naming a file the archive lacks.
    let broken = bundle_manifest(
        "com.acme.broken",
        json!({"services": [{"name": "a", "abi": "a.json"}, {"name": "b", "abi": "missing.json"}]}),
    );
    let f = write(
        &tmp.path().join("broken.mpk"),
        &mpk(&[
            ("manifest.json", bytes(&broken)),
            ("a.json", bytes(&abi(&["x"]))),
        ]),
    );
    let err = bad_input(&["describe", s(&f)]);
    assert!(
        err.contains("broken.mpk") && err.contains("missing.json"),
        "{err}"
    );
    // Not an archive.
    let f = write(&tmp.path().join("junk.mpk"), b"not gzip");
    assert!(bad_input(&["describe", s(&f)]).contains("junk.mpk"));
}

#[test]
fn bundle_directory_loads() {
    let kv = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kv-store");
    let d = ok_json(&["describe", s(&kv), "--json"]);
    assert_eq!(d["package"], "com.calimero.kv-store");
    assert_eq!(d["app"], "KV Store");
    assert!(method_names(&d).contains(&"get".to_string()));
    // A bundle written here, whose ABI is embedded in its module.
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path().join("bundle");
    write(
        &dir.join("manifest.json"),
        &bytes(&bundle_manifest(
            "com.acme.dir-app",
            json!({"wasm": {"path": "bin/app.wasm"}}),
        )),
    );
    write(&dir.join("bin/app.wasm"), &wasm(&[&bytes(&abi(&["get"]))]));
    assert_eq!(
        tool_names(&ok_json(&["tools", s(&dir), "--json"])),
        ["dir_app_get"]
    );
    // The bundle's manifest.json itself names the same bundle.
    assert_eq!(
        tool_names(&ok_json(&[
            "tools",
            s(&dir.join("manifest.json")),
            "--json"
        ])),
        ["dir_app_get"]
    );
    // A path that leaves the bundle is refused.
    let evil = tmp.path().join("evil");
    write(
        &evil.join("manifest.json"),
        &bytes(&bundle_manifest(
            "com.acme.evil",
            json!({"abi": {"path": "../outside.json"}}),
        )),
    );
    write(&tmp.path().join("outside.json"), &bytes(&abi(&["get"])));
    let err = bad_input(&["describe", s(&evil)]);
    assert!(err.contains("leaves the bundle"), "{err}");
    // A broken manifest.json, and an archive without one.
    let broken = tmp.path().join("broken");
    write(&broken.join("manifest.json"), b"{\"package\": ");
    let err = bad_input(&["describe", s(&broken)]);
    assert!(
        err.contains("broken") && err.contains("manifest.json"),
        "{err}"
    );
    let f = write(
        &tmp.path().join("nomanifest.mpk"),
        &mpk(&[("abi.json", bytes(&abi(&["get"])))]),
    );
    let err = bad_input(&["describe", s(&f)]);
    assert!(
        err.contains("nomanifest.mpk") && err.contains("manifest.json"),
        "{err}"
    );
}

#[test]
fn a_directory_of_several_apps_is_not_one_app() {
    let tmp = apps_dir();
    let err = bad_input(&["describe", s(tmp.path())]);
    assert!(err.contains("holds several apps"), "{err}");
    // `tools` takes them all.
    let tools = ok_json(&["tools", s(tmp.path()), "--json"]);
    assert_eq!(tool_names(&tools).len(), 5);
}

#[test]
fn package_flag_names_a_bare_manifest() {
    let tmp = TempDir::new().unwrap();
    // A bare `abi.json` is named after its app's directory (`res/` skipped),
    // as every Calimero app keeps it (`kv-notes/res/abi.json`).
    let f = write(
        &tmp.path().join("kv-notes/res/abi.json"),
        &bytes(&abi(&["get"])),
    );
    assert_eq!(
        tool_names(&ok_json(&["tools", s(&f), "--json"])),
        ["kv_notes_get"]
    );
    // Any other name is the package as it is.
    let other = write(&tmp.path().join("notes.json"), &bytes(&abi(&["get"])));
    assert_eq!(
        tool_names(&ok_json(&["tools", s(&other), "--json"])),
        ["notes_get"]
    );
    let args = ["tools", s(&f), "--package", "com.acme.thing", "--json"];
    assert_eq!(tool_names(&ok_json(&args)), ["thing_get"]);
    let d = ok_json(&["describe", s(&f), "--package", "com.acme.thing", "--json"]);
    assert_eq!(d["package"], "com.acme.thing");
    // The package is part of the id: two packages, two ids; one package, one id.
    let id = |pkg: &str| ok_json(&["describe", s(&f), "--package", pkg, "--json"])["id"].clone();
    assert_eq!(id("com.acme.thing"), d["id"]);
    assert_ne!(id("com.acme.other"), d["id"]);
}

// ---------------------------------------------------------------- names

/// An apps directory: a kv-store bundle (metadata name "KV Store"), two `notes`
/// packages from different vendors as bare manifests, and a `.wasm`.
fn apps_dir() -> TempDir {
    let tmp = TempDir::new().unwrap();
    let root = tmp.path();
    write(
        &root.join("kv/manifest.json"),
        &bytes(
            &json!({"package": "com.calimero.kv-store", "appVersion": "1.0.0",
                       "metadata": {"name": "KV Store"}, "abi": {"path": "abi.json"}}),
        ),
    );
    write(&root.join("kv/abi.json"), &bytes(&abi(&["get", "set"])));
    write(&root.join("com.acme.notes.json"), &bytes(&abi(&["list"])));
    write(&root.join("com.other.notes.json"), &bytes(&abi(&["list"])));
    write(
        &root.join("org.x.Blocks.wasm"),
        &wasm(&[&bytes(&abi(&["draw"]))]),
    );
    write(&root.join("README.txt"), b"not an app");
    tmp
}

fn package_of(args: &[&str]) -> String {
    ok_json(args)["package"].as_str().unwrap().to_string()
}

#[test]
fn names_resolve_among_apps_dirs() {
    let tmp = apps_dir();
    let dir = s(tmp.path());
    let apps = ok_json(&["apps", "--apps", dir, "--json"]);
    assert_eq!(apps.as_array().unwrap().len(), 4, "{apps:#}");
    for (query, package) in [
        ("com.calimero.kv-store", "com.calimero.kv-store"),
        ("kv-store", "com.calimero.kv-store"),
        ("KV-STORE", "com.calimero.kv-store"),
        ("calimero.kv-store", "com.calimero.kv-store"),
        ("Calimero.KV-Store", "com.calimero.kv-store"),
        ("KV Store", "com.calimero.kv-store"),
        ("kv store", "com.calimero.kv-store"),
        ("acme.notes", "com.acme.notes"),
        ("com.other.notes", "com.other.notes"),
        ("blocks", "org.x.Blocks"),
    ] {
        assert_eq!(
            package_of(&["describe", query, "--apps", dir, "--json"]),
            package,
            "{query}"
        );
    }
    // By application id.
    for app in apps.as_array().unwrap() {
        let id = app["id"].as_str().unwrap();
        assert_eq!(
            package_of(&["describe", id, "--apps", dir, "--json"]),
            app["package"].as_str().unwrap()
        );
    }
    // Whole segments only.
    for partial in ["store", "v-store", "alimero.kv-store", "otes"] {
        let err = bad_input(&["describe", partial, "--apps", dir]);
        assert!(err.contains("no app named"), "{partial}: {err}");
    }
}

#[test]
fn ambiguous_and_unknown_names_are_exit_2() {
    let tmp = apps_dir();
    let dir = s(tmp.path());
    let err = bad_input(&["describe", "notes", "--apps", dir]);
    assert!(err.contains("matches several apps"), "{err}");
    assert!(
        err.contains("com.acme.notes") && err.contains("com.other.notes"),
        "{err}"
    );
    let err = bad_input(&["schema", "kv-stor", "--apps", dir]);
    assert!(err.contains("no app named `kv-stor`"), "{err}");
    assert!(
        err.contains("did you mean `com.calimero.kv-store`"),
        "{err}"
    );
    assert!(err.contains("com.acme.notes"), "lists what is known: {err}");
    let err = bad_input(&["describe", "zzzzzz", "--apps", dir]);
    assert!(err.contains("known apps"), "{err}");
    // No apps at all.
    let err = bad_input(&["describe", "kv-store"]);
    assert!(err.contains("no app named `kv-store`"), "{err}");
}

// ---------------------------------------------------------------- bad input

#[test]
fn malformed_manifests_are_clear_errors_naming_file_and_path() {
    let tmp = TempDir::new().unwrap();
    let cases: [(&str, &[u8], &[&str]); 9] = [
        (
            "truncated.json",
            br#"{"schema_version": "wasm-abi/1", "methods": [{"name": "#,
            &["at $:", "not valid JSON"],
        ),
        (
            "notjson.json",
            b"hello, world",
            &["at $:", "not valid JSON"],
        ),
        ("empty.json", b"", &["at $:", "empty"]),
        ("blank.json", b"  \n\t ", &["at $:", "empty"]),
        (
            "nomethods.json",
            br#"{"schema_version": "wasm-abi/1", "types": {}}"#,
            &["at $:", "`methods`"],
        ),
        (
            "v2.json",
            br#"{"schema_version": "wasm-abi/2", "methods": []}"#,
            &["at $.schema_version:", "wasm-abi/2"],
        ),
        (
            "array.json",
            b"[1, 2]",
            &["at $:", "expected a JSON object"],
        ),
        (
            "noname.json",
            br#"{"schema_version": "wasm-abi/1", "methods": [{"name": "a"}, {"params": []}]}"#,
            &["at $.methods[1].name:"],
        ),
        (
            "badparams.json",
            br#"{"schema_version": "wasm-abi/1", "methods": [{"name": "a", "params": 5}]}"#,
            &["at $.methods[0].params:"],
        ),
    ];
    for (name, content, expected) in cases {
        let f = write(&tmp.path().join(name), content);
        for cmd in ["describe", "tools", "schema"] {
            let err = bad_input(&[cmd, s(&f)]);
            assert!(err.contains(name), "{name}: {err}");
            for e in expected {
                assert!(err.contains(e), "{name}: {e:?} not in {err}");
            }
        }
        let out = run(&["describe", s(&f), "--json"]);
        assert_eq!(out.status.code(), Some(2));
        let e: Value = serde_json::from_slice(&out.stderr)
            .unwrap_or_else(|_| panic!("{name}: {}", stderr(&out)));
        assert_eq!(e["error"]["code"], "invalid_manifest", "{name}");
    }
    // A bundle's manifest.json passed as a bare ABI gets a hint.
    let f = write(
        &tmp.path().join("bundle-manifest.json"),
        &bytes(&bundle_manifest("x.y", json!({}))),
    );
    assert!(bad_input(&["describe", s(&f)]).contains("bundle"));
}

#[test]
fn ten_thousand_deep_nested_type_is_an_error_not_a_crash() {
    let tmp = TempDir::new().unwrap();
    let depth = 10_000;
    let ty = format!(
        "{}{{\"kind\":\"u32\"}}{}",
        "{\"kind\":\"list\",\"items\":".repeat(depth),
        "}".repeat(depth)
    );
    let text = format!(
        r#"{{"schema_version":"wasm-abi/1","methods":[{{"name":"m","params":[{{"name":"p","type":{ty}}}]}}]}}"#
    );
    let f = write(&tmp.path().join("deep.json"), text.as_bytes());
    for cmd in ["describe", "tools", "schema"] {
        let err = bad_input(&[cmd, s(&f)]);
        assert!(err.contains("deep.json"), "{err}");
        assert!(err.contains("nests too deeply"), "{err}");
    }
    // The same inside an embedded ABI.
    let w = write(&tmp.path().join("deep.wasm"), &wasm(&[text.as_bytes()]));
    assert!(bad_input(&["describe", s(&w)]).contains("deep.wasm"));
}

fn ref_chain(n: usize) -> Value {
    let mut types = serde_json::Map::new();
    for i in 0..n {
        types.insert(
            format!("T{i}"),
            json!({"kind": "record", "fields": [
                {"name": "v", "type": {"kind": "u32"}},
                {"name": "next", "type": {"$ref": format!("T{}", i + 1)}, "nullable": true}
            ]}),
        );
    }
    types.insert(
        format!("T{n}"),
        json!({"kind": "alias", "target": {"kind": "u32"}}),
    );
    json!({"schema_version": "wasm-abi/1", "types": types, "methods": [
        {"name": "m", "params": [{"name": "p", "type": {"$ref": "T0"}}], "returns": {"$ref": "T0"}}
    ]})
}

#[test]
fn ten_thousand_type_ref_chain_degrades_or_is_exact_never_crashes() {
    let tmp = TempDir::new().unwrap();
    let f = write(&tmp.path().join("chain.json"), &bytes(&ref_chain(10_000)));
    // Inline: the 9th expansion degrades, with a warning; the output stays small.
    for args in [
        vec!["schema", s(&f), "m"],
        vec!["tools", s(&f), "--json"],
        vec!["describe", s(&f)],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        // describe shows signatures only and never builds schemas
        assert!(
            args[0] == "describe" || stderr(&out).contains("deeper than 8"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(
            out.stdout.len() < 100_000,
            "{args:?}: {} bytes",
            out.stdout.len()
        );
    }
    // --refs defs: every type once, exact; no stack overflow.
    let out = run(&["schema", s(&f), "m", "--refs", "defs"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["$defs"].as_object().unwrap().len(), 10_001);
    let out = run(&["tools", s(&f), "--refs", "defs", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

fn diamond(n: usize, width: usize) -> Value {
    let mut types = serde_json::Map::new();
    for i in 0..n {
        let fields: Vec<Value> = if i + 1 < n {
            (0..width)
                .map(|f| json!({"name": format!("f{f}"), "type": {"$ref": format!("D{}", i + 1)}}))
                .collect()
        } else {
            vec![json!({"name": "x", "type": {"kind": "u32"}})]
        };
        types.insert(format!("D{i}"), json!({"kind": "record", "fields": fields}));
    }
    json!({"schema_version": "wasm-abi/1", "types": types, "methods": [
        {"name": "m", "params": [{"name": "p", "type": {"$ref": "D0"}}], "returns": {"$ref": "D0"}}
    ]})
}

#[test]
fn forty_type_diamond_chain_is_bounded_with_a_warning() {
    let tmp = TempDir::new().unwrap();
    // Fully expanded, 3 fields each would be 3^39 copies of the last type.
    for width in [3, 6] {
        let f = write(
            &tmp.path().join(format!("diamond{width}.json")),
            &bytes(&diamond(40, width)),
        );
        for args in [
            vec!["schema", s(&f), "m"],
            vec!["schema", s(&f), "--output"],
            vec!["tools", s(&f), "--json"],
        ] {
            let out = run(&args);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
            assert!(stderr(&out).contains("warning"), "{args:?}: no warning");
            // Input and output schema, each bounded to ~20,000 schema nodes of a
            // few hundred bytes pretty-printed (unbounded, width 6 alone would be
            // 6^8 records per schema).
            assert!(
                out.stdout.len() < 10_000_000,
                "{args:?}: {} bytes of output",
                out.stdout.len()
            );
            let _: Value = serde_json::from_slice(&out.stdout).unwrap();
        }
        let out = run(&["schema", s(&f), "m", "--refs", "defs"]);
        assert_eq!(out.status.code(), Some(0));
        assert!(out.stdout.len() < 100_000, "{} bytes", out.stdout.len());
    }
}

const EVIL: &str = "\u{1b}[2J\u{1b}]0;pwned\u{7}\r\u{9b}31m\u{202E}tail\u{1b}[0m";

fn evil_manifest() -> Value {
    let e = EVIL;
    json!({
        "schema_version": "wasm-abi/1",
        "types": {
            format!("Bad{e}"): {"kind": format!("weird{e}")},
            "Rec": {"kind": "record", "doc": format!("record{e}"), "fields": [
                {"name": "blob", "type": {"kind": "bytes"}, "doc": format!("field{e}")},
                {"name": "odd", "type": {"kind": format!("nope{e}")}}
            ]},
            "Choice": {"kind": "variant", "doc": format!("variant{e}"), "variants": [
                {"name": "A", "doc": format!("unit{e}")},
                {"name": "B", "payload": {"kind": "u32"}, "doc": format!("payload{e}")}
            ]},
            "Cell": {"kind": "record", "fields": [], "crdt_type": format!("quantum{e}"), "inner_type": {"kind": "u32"}},
            "Opaque": {"kind": "record", "fields": [], "crdt_type": format!("mystery{e}")}
        },
        "methods": [
            {"name": "act", "doc": format!("Does things.{e}\nSecond line."), "params": [
                {"name": "rec", "type": {"$ref": "Rec"}, "doc": format!("param{e}")},
                {"name": "choice", "type": {"$ref": "Choice"}},
                {"name": "cell", "type": {"$ref": "Cell"}},
                {"name": "opaque", "type": {"$ref": "Opaque"}},
                {"name": "gone", "type": {"$ref": format!("Missing{e}")}}
            ], "returns": {"$ref": "Rec"}, "returns_doc": format!("returns{e}"), "intent": format!("odd{e}")},
            {"name": "plain", "params": [], "returns": {"kind": "u32"}, "intent": "read_only"}
        ]
    })
}

#[test]
fn terminal_escapes_in_docs_never_reach_the_terminal() {
    let tmp = TempDir::new().unwrap();
    let f = write(&tmp.path().join("evil.json"), &bytes(&evil_manifest()));
    let f = s(&f);
    let package = format!("com.evil.pkg{EVIL}");
    let runs: Vec<Vec<&str>> = vec![
        vec!["describe", f],
        vec!["describe", f, "--json"],
        vec!["describe", f, "--package", &package],
        vec!["tools", f],
        vec!["tools", f, "--json"],
        vec!["tools", f, "--json", "--refs", "defs"],
        vec!["schema", f],
        vec!["schema", f, "act"],
        vec!["schema", f, "--output"],
        vec!["apps", f],
        vec!["apps", f, "--json"],
    ];
    for args in runs {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let (o, e) = (stdout(&out), stderr(&out));
        assert_no_control(&o, &format!("{args:?} stdout"));
        assert_no_control(&e, &format!("{args:?} stderr"));
        assert!(e.contains("warning"), "{args:?}: the unknown kinds warn");
        // JSON escapes them on the wire; the strings themselves must be clean.
        if let Ok(v) = serde_json::from_str::<Value>(&o) {
            let mut all = Vec::new();
            strings(&v, &mut all);
            for text in all {
                assert_no_control(&text, &format!("{args:?} JSON string"));
            }
        }
    }
    // The doc text survives, minus the control characters.
    let tools = ok_json(&["tools", f, "--json", "--quiet"]);
    let act = &tools.as_array().unwrap()[0];
    let description = act["description"].as_str().unwrap();
    assert!(description.contains("Does things."), "{description}");
    assert!(description.contains("\nSecond line."), "{description}");
}

#[test]
fn escapes_in_names_are_kept_exactly_but_never_reach_the_terminal() {
    // Names travel to the node, so JSON output keeps them exactly (escaped as
    // \uXXXX); human output drops the control characters.
    let tmp = TempDir::new().unwrap();
    let e = EVIL;
    let variant = format!("Odd{e}");
    let field = format!("f{e}");
    let service = format!("svc{e}");
    let abi_json = json!({"schema_version": "wasm-abi/1", "types": {
        "Choice": {"kind": "variant", "variants": [{"name": variant}, {"name": "Plain"}]},
        "Rec": {"kind": "record", "fields": [{"name": field, "type": {"kind": "u32"}}]}
    }, "methods": [{"name": "m", "params": [
        {"name": "c", "type": {"$ref": "Choice"}},
        {"name": "r", "type": {"$ref": "Rec"}}
    ]}]});
    let dir = tmp.path().join("bundle");
    write(
        &dir.join("manifest.json"),
        &bytes(&json!({
            "package": format!("com.x.app{e}"), "appVersion": format!("1.0{e}"),
            "metadata": {"name": format!("Name{e}")},
            "services": [{"name": service, "abi": "a.json"}, {"name": "other", "abi": "a.json"}]
        })),
    );
    write(&dir.join("a.json"), &bytes(&abi_json));
    let d = s(&dir);
    for args in [
        vec!["describe", d],
        vec!["describe", d, "--json"],
        vec!["tools", d],
        vec!["tools", d, "--json"],
        vec!["schema", d, "m", "--service", "other"],
        vec!["apps", d, "--json"],
        vec!["apps", d],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_no_control(&stdout(&out), &format!("{args:?} stdout"));
        assert_no_control(&stderr(&out), &format!("{args:?} stderr"));
    }
    let schema = ok_json(&["schema", d, "m", "--service", "other"]);
    assert_eq!(
        schema["properties"]["c"]["enum"],
        json!([variant, "Plain"]),
        "the variant name reaches the node unchanged"
    );
    assert!(
        schema["properties"]["r"]["properties"]
            .get(&field)
            .is_some()
    );
    let describe = ok_json(&["describe", d, "--json"]);
    assert_eq!(describe[0]["service"], json!(service));
    for description in describe
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|svc| svc["methods"].as_array().unwrap())
        .map(|m| m["signature"].as_str().unwrap())
    {
        assert_no_control(description, "signature");
    }

    // An error quoting a manifest string.
    write(
        &dir.join("manifest.json"),
        &bytes(&json!({"package": "com.x.app", "services": [
            {"name": "ok", "abi": "a.json"}, {"name": service}
        ]})),
    );
    for args in [vec!["describe", d], vec!["describe", d, "--json"]] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_no_control(&stderr(&out), &format!("{args:?} error"));
        assert!(stderr(&out).contains("svc"), "{}", stderr(&out));
    }
}

#[test]
fn five_megabyte_doc_string_is_handled() {
    let tmp = TempDir::new().unwrap();
    let doc = "All work and no play makes a long doc. ".repeat(5 * 1024 * 1024 / 39 + 1);
    assert!(doc.len() >= 5 * 1024 * 1024);
    let mut m = abi(&["get"]);
    m["methods"][0]["doc"] = json!(doc);
    m["methods"][0]["params"][0]["doc"] = json!(doc);
    let f = write(&tmp.path().join("big-doc.json"), &bytes(&m));
    for args in [
        vec!["describe", s(&f)],
        vec!["describe", s(&f), "--json"],
        vec!["tools", s(&f), "--json"],
        vec!["tools", s(&f)],
        vec!["schema", s(&f), "get"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    }
    let tools = ok_json(&["tools", s(&f), "--json"]);
    let description = tools[0]["description"].as_str().unwrap();
    assert!(description.starts_with("[view] get(key: string) -> string | null\n\nAll work"));
}

#[test]
fn directory_with_no_apps_is_a_clear_error() {
    let tmp = TempDir::new().unwrap();
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let junk = tmp.path().join("junk");
    write(&junk.join("notes.txt"), b"hello");
    write(&junk.join("sub/other.txt"), b"hello");
    for dir in [&empty, &junk] {
        let err = bad_input(&["describe", s(dir)]);
        assert!(err.contains("no apps"), "{err}");
        assert!(err.contains(s(dir)), "{err}");
        let err = bad_input(&["tools", "--apps", s(dir)]);
        assert!(err.contains("no apps"), "{err}");
        let err = bad_input(&["apps", "--apps", s(dir)]);
        assert!(err.contains("no apps"), "{err}");
    }
    let err = bad_input(&["tools", "--apps", s(&tmp.path().join("missing"))]);
    assert!(err.contains("missing"), "{err}");
}

#[test]
fn broken_entries_of_an_apps_dir_are_skipped_with_a_warning() {
    let tmp = TempDir::new().unwrap();
    write(&tmp.path().join("good.json"), &bytes(&abi(&["get"])));
    write(&tmp.path().join("broken.json"), b"{\"methods\": [");
    write(&tmp.path().join("plain.wasm"), &wasm(&[]));
    let out = run(&["tools", "--apps", s(tmp.path()), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(tool_names(&tools), ["good_get"]);
    let e = stderr(&out);
    assert!(e.contains("broken.json") && e.contains("plain.wasm"), "{e}");
    let out = run(&["tools", "--apps", s(tmp.path()), "--json", "--quiet"]);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

#[test]
fn unknown_kinds_crdt_types_and_intents_warn_and_quiet_hides_them() {
    let tmp = TempDir::new().unwrap();
    let m = json!({
        "schema_version": "wasm-abi/1.3",
        "future_field": {"anything": true},
        "types": {
            "Cell": {"kind": "record", "fields": [], "crdt_type": "quantum_register", "inner_type": {"kind": "string"}},
            "Odd": {"kind": "hyperrecord"}
        },
        "methods": [
            {"name": "a", "params": [
                {"name": "x", "type": {"kind": "u256"}},
                {"name": "c", "type": {"$ref": "Cell"}},
                {"name": "o", "type": {"$ref": "Odd"}}
            ], "intent": "speculative", "shiny_new_flag": 1}
        ]
    });
    let f = write(&tmp.path().join("future.json"), &bytes(&m));
    let out = run(&["tools", s(&f), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let e = stderr(&out);
    for needle in [
        "$.methods[0].params[0].type.kind",
        "u256",
        "quantum_register",
        "$.types.Odd.kind",
        "hyperrecord",
        "$.methods[0].intent",
        "speculative",
    ] {
        assert!(e.contains(needle), "{needle:?} not in {e}");
    }
    assert!(e.contains("future.json"), "warnings name the file: {e}");
    // Unknown is accepted unvalidated; the CRDT still unwraps by its shape.
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    let props = &tools[0]["inputSchema"]["properties"];
    assert_eq!(props["x"], json!({}));
    assert_eq!(props["o"], json!({}));
    assert_eq!(props["c"]["type"], "string");
    assert_eq!(tools[0]["annotations"]["readOnlyHint"], false);
    for cmd in ["tools", "describe", "schema"] {
        let out = run(&[cmd, s(&f), "--quiet"]);
        assert_eq!(out.status.code(), Some(0));
        assert!(out.stderr.is_empty(), "{cmd} --quiet: {}", stderr(&out));
    }
}

#[test]
fn lints_are_warnings() {
    let tmp = TempDir::new().unwrap();
    let m = json!({
        "schema_version": "wasm-abi/1",
        "types": {"Zero": {"kind": "bytes", "size": 0}},
        "methods": [
            {"name": "zeta", "params": [{"name": "k", "type": {"kind": "map", "key": {"kind": "u32"}, "value": {"kind": "string"}}}]},
            {"name": "alpha", "params": [{"name": "r", "type": {"$ref": "Nowhere"}}, {"name": "z", "type": {"$ref": "Zero"}}]}
        ],
        "events": [{"name": "b"}, {"name": "a"}]
    });
    let f = write(&tmp.path().join("lint.json"), &bytes(&m));
    let out = run(&["describe", s(&f)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let e = stderr(&out);
    for needle in [
        "methods are not sorted",
        "events are not sorted",
        "dangling $ref \"Nowhere\"",
        "size 0",
        "map key is not a string",
    ] {
        assert!(e.contains(needle), "{needle:?} not in {e}");
    }
    assert!(e.lines().all(|l| l.starts_with("warning: ")), "{e}");
    // The mapping still works: the dangling ref is unknown, size 0 is unsized bytes.
    let alpha = ok_json(&["schema", s(&f), "alpha", "--quiet"]);
    assert_eq!(alpha["properties"]["r"], json!({}));
    assert_eq!(
        alpha["properties"]["z"]["description"],
        "bytes: a hex string (0x optional) or a byte array"
    );
    let out = run(&["describe", s(&f), "--quiet"]);
    assert!(out.stderr.is_empty());
}

#[test]
fn unreadable_paths_are_exit_2() {
    let tmp = TempDir::new().unwrap();
    let missing = tmp.path().join("nope.json");
    let err = bad_input(&["describe", s(&missing)]);
    assert!(err.contains("nope.json"), "{err}");
    let err = bad_input(&["schema", s(&tmp.path().join("nope.wasm"))]);
    assert!(err.contains("nope.wasm"), "{err}");
}

#[cfg(unix)]
#[test]
fn fifos_and_symlinks_out_of_a_bundle_are_refused_without_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("abi.json");
    let ok = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success();
    assert!(ok, "mkfifo");
    // A FIFO named as an APP: refused, not read (reading it would block forever).
    let out = run(&["describe", fifo.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not a regular file"), "{err}");
    // A bundle whose ABI is a FIFO, and one whose ABI is a symlink out of it.
    let bundle = dir.path().join("b");
    std::fs::create_dir(&bundle).unwrap();
    let manifest = json!({"version": "1.0", "package": "p", "appVersion": "1",
                          "abi": {"path": "abi.json"}, "wasm": {"path": "app.wasm"}});
    std::fs::write(bundle.join("manifest.json"), manifest.to_string()).unwrap();
    std::fs::rename(&fifo, bundle.join("abi.json")).unwrap();
    let out = run(&["describe", bundle.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not a regular file"), "{err}");
    std::fs::remove_file(bundle.join("abi.json")).unwrap();
    let outside = dir.path().join("outside.json");
    std::fs::write(
        &outside,
        r#"{"schema_version":"wasm-abi/1","types":{},"methods":[]}"#,
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, bundle.join("abi.json")).unwrap();
    let out = run(&["describe", bundle.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("leaves the bundle (through a symlink)"),
        "{err}"
    );
    // The same FIFO among an apps directory's entries: skipped with a warning.
    let apps = dir.path().join("apps");
    std::fs::create_dir(&apps).unwrap();
    let ok = std::process::Command::new("mkfifo")
        .arg(apps.join("x.json"))
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let out = run(&["apps", "--apps", apps.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a regular file"), "{err}");
}

#[test]
fn a_file_past_the_size_cap_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.json");
    // Sparse: the size is there, the disk blocks are not.
    std::fs::File::create(&path)
        .unwrap()
        .set_len((512 << 20) + 1)
        .unwrap();
    let out = run(&["describe", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("larger than 512 MiB"), "{err}");
}
