//! The command-line contract: exit codes, error formats, global flags, colour,
//! help text, pipes. Each test drives the real binary.

mod support;

use predicates::prelude::*;
use serde_json::Value;
use support::{example, offline as calimcp};

#[test]
fn unknown_app_is_exit_2_with_a_suggestion() {
    calimcp()
        .args(["describe", "kv-stor", "--apps", "examples"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no app named `kv-stor`"))
        .stderr(predicate::str::contains(
            "did you mean `com.calimero.kv-store`",
        ));
}

#[test]
fn unknown_method_is_exit_2_with_a_suggestion() {
    calimcp()
        .args(["schema", "examples/kv-store", "gte"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has no method `gte`"))
        .stderr(predicate::str::contains("did you mean `get`"));
}

#[test]
fn json_errors_are_one_line_on_stderr_and_stdout_stays_empty() {
    let out = calimcp()
        .args(["schema", "nope", "--json"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let v: Value = serde_json::from_str(&stderr).unwrap();
    assert_eq!(v["error"]["code"], "unknown_app");
    assert!(v["error"]["message"].as_str().unwrap().contains("nope"));
}

#[test]
fn usage_errors_are_exit_2_and_json_with_json() {
    calimcp()
        .args(["schema"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<APP>"));
    let out = calimcp()
        .args(["frobnicate", "--json"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let v: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(v["error"]["code"], "usage");
}

#[test]
fn invalid_manifest_names_the_file_and_json_path() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("bad.json");
    std::fs::write(
        &file,
        r#"{"schema_version":"wasm-abi/1","types":{},"methods":[{"params":[]}]}"#,
    )
    .unwrap();
    calimcp()
        .arg("describe")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.json"))
        .stderr(predicate::str::contains("$.methods[0].name"));
}

#[test]
fn global_flags_work_before_and_after_the_subcommand() {
    let before = calimcp()
        .args(["--json", "--apps", "examples", "describe", "kv-store"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let after = calimcp()
        .args(["describe", "kv-store", "--apps", "examples", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(before, after);
    let v: Value = serde_json::from_slice(&before).unwrap();
    assert_eq!(v["package"], "com.calimero.kv-store");
}

#[test]
fn calimcp_apps_env_is_a_colon_separated_list() {
    let out = calimcp()
        .env(
            "CALIMCP_APPS",
            format!(
                "{}:{}",
                example("kv-store").parent().unwrap().display(),
                "/nonexistent-but-unused"
            ),
        )
        .args(["apps", "--json"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    // a directory that does not exist is an error, naming it
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent-but-unused"));
    let out = calimcp()
        .env("CALIMCP_APPS", "examples")
        .args(["apps", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let apps: Vec<Value> = serde_json::from_slice(&out).unwrap();
    let packages: Vec<&str> = apps.iter().filter_map(|a| a["package"].as_str()).collect();
    assert_eq!(
        packages,
        [
            "every-kind",
            "com.calimero.kv-store",
            "com.example.notebook"
        ]
    );
    assert_eq!(
        apps[2]["services"],
        serde_json::json!(["registry", "pages"])
    );
}

#[test]
fn apps_with_no_apps_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    calimcp()
        .arg("apps")
        .arg("--apps")
        .arg(tmp.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no apps found"));
    calimcp()
        .args(["tools"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--apps"));
}

#[test]
fn quiet_hides_warnings() {
    let noisy = calimcp()
        .args(["schema", "examples/every-kind.json"])
        .assert()
        .success()
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&noisy).contains("warning:"));
    calimcp()
        .args(["schema", "examples/every-kind.json", "--quiet"])
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
}

#[test]
fn colour_follows_color_and_no_color() {
    let esc = |args: &[&str], no_color: bool| {
        let mut cmd = calimcp();
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        let out = cmd
            .args(args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        out.contains(&0x1b)
    };
    assert!(
        !esc(&["describe", "examples/kv-store"], false),
        "not a terminal: no colour"
    );
    assert!(esc(
        &["describe", "examples/kv-store", "--color", "always"],
        false
    ));
    assert!(!esc(
        &["describe", "examples/kv-store", "--color", "never"],
        false
    ));
    assert!(!esc(
        &["describe", "examples/kv-store", "--color", "auto"],
        true
    ));
}

#[test]
fn describe_colours_view_and_mut_tags() {
    let out = calimcp()
        .args(["describe", "examples/kv-store", "--color", "always"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("\u{1b}[32m[view]"), "view in green");
    assert!(text.contains("\u{1b}[33m[mut]"), "mut in yellow");
}

#[test]
fn every_help_has_examples_and_the_exit_codes_are_documented() {
    for cmd in ["schema", "describe", "tools", "apps", "completions"] {
        calimcp()
            .args([cmd, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Examples:"));
    }
    calimcp()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit codes:"))
        .stdout(predicate::str::contains(
            "5    the node or the application returned an error",
        ))
        .stdout(predicate::str::contains(
            "124  watch --stop-after or call --wait-event",
        ));
}

/// A manifest with `n` methods, big enough to fill a pipe.
fn big_manifest(dir: &std::path::Path, n: usize) -> std::path::PathBuf {
    let methods: Vec<Value> = (0..n)
        .map(|i| serde_json::json!({"name": format!("method_{i:05}"), "params": [{"name": "key", "type": {"kind": "string"}}], "returns": {"kind": "u64"}}))
        .collect();
    let path = dir.join("big.json");
    std::fs::write(&path, serde_json::json!({"schema_version": "wasm-abi/1", "types": {}, "methods": methods, "events": []}).to_string()).unwrap();
    path
}

/// `calimcp tools --json | head -c 16` must exit 0 and print nothing on stderr.
#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let tmp = tempfile::tempdir().unwrap();
    let manifest = big_manifest(tmp.path(), 2000);
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("calimcp"))
        .args(["tools", "--json"])
        .arg(&manifest)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "stderr: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn service_narrows_a_multi_service_app() {
    let out = calimcp()
        .args([
            "tools",
            "examples/multi-service",
            "--service",
            "pages",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let tools: Vec<Value> = serde_json::from_slice(&out).unwrap();
    assert_eq!(tools.len(), 3);
    assert!(
        tools
            .iter()
            .all(|t| t["name"].as_str().unwrap().starts_with("notebook_pages_"))
    );
    calimcp()
        .args(["describe", "examples/multi-service", "--service", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("its services: registry, pages"));
    let v: Value = serde_json::from_slice(
        &calimcp()
            .args(["describe", "examples/multi-service", "--json"])
            .assert()
            .success()
            .get_output()
            .stdout,
    )
    .unwrap();
    assert_eq!(
        v.as_array().map(Vec::len),
        Some(2),
        "one object per service"
    );
    assert_eq!(v[0]["service"], "registry");
}

#[test]
fn describe_json_has_the_documented_shape() {
    let v: Value = serde_json::from_slice(
        &calimcp()
            .args(["describe", "examples/kv-store", "--json"])
            .assert()
            .success()
            .get_output()
            .stdout,
    )
    .unwrap();
    for key in ["app", "package", "version", "service", "source", "methods"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    let get = v["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "get")
        .unwrap();
    assert_eq!(get["tool"], "kv_store_get");
    assert_eq!(get["kind"], "view");
    assert_eq!(get["signature"], "[view] get(key: string) -> string | null");
}

#[test]
fn tools_filters_agree_with_the_documented_rules() {
    let names = |extra: &[&str]| -> Vec<String> {
        let mut cmd = calimcp();
        cmd.args(["tools", "--apps", "examples", "--json", "--quiet"])
            .args(extra);
        let tools: Vec<Value> =
            serde_json::from_slice(&cmd.assert().success().get_output().stdout).unwrap();
        tools
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    };
    let ro = names(&["--read-only", "--app", "kv-store"]);
    assert_eq!(ro, ["kv_store_entries", "kv_store_get", "kv_store_len"]);
    let allowed = names(&["--allow", "kv_store_*", "--deny", "*_clear"]);
    assert!(
        allowed.iter().all(|n| n.starts_with("kv_store_"))
            && !allowed.contains(&"kv_store_clear".to_string())
    );
    assert_eq!(allowed.len(), 5);
}

#[test]
fn schema_output_is_the_unwrapped_return_and_null_for_unit() {
    let out: Value = serde_json::from_slice(
        &calimcp()
            .args(["schema", "examples/kv-store", "--output"])
            .assert()
            .success()
            .get_output()
            .stdout,
    )
    .unwrap();
    assert_eq!(out["set"], Value::Null);
    assert_eq!(
        out["get"],
        serde_json::json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
    );
}

#[test]
fn empty_environment_settings_count_as_unset() {
    // `CALIMCP_APPS=` is an empty list of directories, not a usage error; the
    // same for every variable calimcp reads.
    let vars = [
        "CALIMCP_APPS",
        "CALIMERO_NODE_URL",
        "CALIMERO_AUTH_TOKEN",
        "CALIMCP_OFFLINE",
        "CALIMCP_NO_INPUT",
        "NO_COLOR",
    ];
    let mut cmd = calimcp();
    for v in vars {
        cmd.env(v, "");
    }
    cmd.args(["describe", "examples/kv-store", "--json"])
        .assert()
        .success();
    let mut cmd = calimcp();
    for v in vars {
        cmd.env(v, "");
    }
    let help = cmd
        .args(["call", "--help"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let help = String::from_utf8_lossy(&help);
    assert!(
        !help.contains("=]"),
        "an empty value is shown in help:\n{help}"
    );
}

#[test]
fn mutating_tools_are_destructive_by_default() {
    // MCP's default for destructiveHint is true; an ABI rarely says
    // `destructive`, so a [mut] method without it must still be marked.
    let out = calimcp()
        .args(["tools", "examples/every-kind.json", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let tools: Vec<Value> = serde_json::from_slice(&out).unwrap();
    let mut muts = 0;
    for t in &tools {
        let a = &t["annotations"];
        let read_only = a["readOnlyHint"].as_bool().unwrap();
        assert_eq!(a["destructiveHint"], !read_only, "{}", t["name"]);
        muts += usize::from(!read_only);
    }
    assert!(muts > 0);
}

#[test]
fn meroctl_output_format_suggests_json() {
    calimcp()
        .args(["apps", "examples", "--output-format", "json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--json"));
}

/// A loopback URL where nothing listens.
fn closed_port() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    drop(l);
    format!("http://127.0.0.1:{port}")
}

#[test]
fn json_usage_errors_keep_their_detail() {
    let out = calimcp().args(["--json", "describe"]).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let v: Value = serde_json::from_str(err.trim()).unwrap();
    assert!(
        v["error"]["message"].as_str().unwrap().contains("<APP>"),
        "{err}"
    );
}

#[test]
fn a_mistyped_tool_is_a_typo_even_when_no_node_answers() {
    let examples = example("");
    let out = calimcp()
        .env_remove("CALIMCP_OFFLINE")
        .env("CALIMERO_NODE_URL", closed_port())
        .arg("--apps")
        .arg(&examples)
        .args(["call", "kv_store_sett", "--key", "a"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("did you mean `kv_store_set`?"), "{err}");
    assert!(
        err.contains("did not answer, so its apps were not searched"),
        "{err}"
    );
    // meroctl's habit, a bare method name: the tools that have it.
    let out = calimcp()
        .arg("--apps")
        .arg(&examples)
        .args(["call", "set", "--key", "a"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("`kv_store_set` (kv-store.set)"), "{err}");
}

#[test]
fn invalid_arguments_come_as_a_list_with_json_wherever_it_is_written() {
    let examples = example("");
    let hex = "ab".repeat(32);
    let out = calimcp()
        .arg("--apps")
        .arg(&examples)
        .args([
            "call",
            "kv_store_set",
            "--key",
            "k",
            "--dry-run",
            "-c",
            &hex,
        ])
        .args(["--args", r#"{"value":1}"#, "--json"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let v: Value = serde_json::from_str(err.trim()).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(v["error"]["code"], "invalid_arguments");
    let p = &v["error"]["problems"][0];
    assert_eq!(p["path"], "value", "{v}");
    assert_eq!(p["expected"], "a string", "{v}");
    assert_eq!(p["got"], "an integer: 1", "{v}");
}

/// Issue 22.5: `expected` is whole in `--json`, its own parentheses kept
/// (it was cut at the first `)`: `"an integer (u64"`).
#[test]
fn json_problems_keep_expected_whole() {
    let hex = "ab".repeat(32);
    let out = calimcp()
        .arg("--apps")
        .arg(example(""))
        .args(["call", "every_kind_echo_scalars", "--u64", "many", "--json"])
        .args(["--dry-run", "-c", &hex])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let v: Value = serde_json::from_str(err.trim()).unwrap_or_else(|e| panic!("{e}: {err}"));
    let problems = v["error"]["problems"].as_array().expect("problems");
    let p = problems
        .iter()
        .find(|p| p["path"] == "u64")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(p["expected"], "an integer (u64)", "{v}");
    assert_eq!(p["got"], "`many`", "{v}");
}

/// Issue 31: a `--json` error carries its hint as `hint`, never folded into
/// `message`; a missing argument's problem says what was expected and
/// nothing was given (no `got`).
#[test]
fn json_error_hint_is_a_field_of_its_own() {
    let hex = "ab".repeat(32);
    let out = calimcp()
        .arg("--apps")
        .arg(example(""))
        .args(["call", "kv_store_set", "--key", "k", "--json"])
        .args(["--dry-run", "-c", &hex])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let v: Value = serde_json::from_str(err.trim()).unwrap_or_else(|e| panic!("{e}: {err}"));
    let e = &v["error"];
    assert_eq!(e["code"], "invalid_arguments", "{v}");
    assert_eq!(e["hint"], "see `calimcp call kv_store_set --help`", "{v}");
    let message = e["message"].as_str().expect("message");
    assert!(!message.contains("hint"), "{v}");
    assert_eq!(e["retryable"], false, "{v}");
    let p = &e["problems"][0];
    assert_eq!(p["path"], "value", "{v}");
    assert_eq!(p["expected"], "a string", "{v}");
    assert!(p.get("got").is_none(), "{v}");
    // Without --json the hint is its own line, as before.
    let out = calimcp()
        .arg("--apps")
        .arg(example(""))
        .args(["call", "kv_store_set", "--key", "k"])
        .args(["--dry-run", "-c", &hex])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("\n  hint: see `calimcp call kv_store_set --help`"),
        "{err}"
    );
}

#[test]
fn a_parameter_named_like_a_flag_is_named_in_the_error() {
    let hex = "ab".repeat(32);
    let out = calimcp()
        .arg("--apps")
        .arg(example(""))
        .args([
            "call",
            "every_kind_paint",
            "--color",
            "Red",
            "--dry-run",
            "-c",
            &hex,
        ])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("spelled --param-color"), "{err}");
    calimcp()
        .arg("--apps")
        .arg(example(""))
        .args([
            "call",
            "every_kind_paint",
            "--param-color",
            "Red",
            "--dry-run",
            "-c",
            &hex,
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(r#""argsJson":{"color":"Red"}"#));
}

#[test]
fn call_help_shows_what_a_value_looks_like() {
    let out = calimcp()
        .arg("--apps")
        .arg(example(""))
        .args(["call", "every_kind_paint", "--help"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("Looks like: Red | Green | Blue"), "{text}");
    let out = calimcp()
        .arg("--apps")
        .arg(example(""))
        .args(["call", "every_kind_paint", "-h"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.contains("Color (Red | Green | Blue), required"),
        "{text}"
    );
}

#[test]
fn a_dry_run_without_a_node_says_a_context_id_is_enough() {
    let out = calimcp()
        .env_remove("CALIMCP_OFFLINE")
        .env("CALIMERO_NODE_URL", closed_port())
        .arg("--apps")
        .arg(example(""))
        .args(["call", "kv_store_get", "--key", "a", "--dry-run"])
        .assert()
        .code(4);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("a dry run with a context id (-c ID"), "{err}");
}

/// On a terminal (util-linux `script` gives one), a missing node is reported
/// before calimcp asks for the missing parameters.
#[test]
fn the_node_is_asked_before_the_user_is() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!(
            "skipped: the_node_is_asked_before_the_user_is: no `script` (util-linux) for a terminal"
        );
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("calimcp");
    let examples = example("");
    let cmd = format!(
        "{} --apps {} call kv_store_set --key a",
        bin.display(),
        examples.display()
    );
    let out = assert_cmd::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env_remove("CALIMCP_OFFLINE")
        .env("CALIMERO_NODE_URL", closed_port())
        .env("NO_COLOR", "1")
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(4), "{text}");
    assert!(text.contains("cannot reach the node"), "{text}");
    assert!(
        !text.contains("value (string)"),
        "asked before the node: {text}"
    );
}

/// On a terminal, each question says what the value is and looks like, and
/// Ctrl-D cancels: nothing is sent, exit 2.
#[test]
fn a_prompt_shows_the_shape_and_ctrl_d_cancels() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!(
            "skipped: a_prompt_shows_the_shape_and_ctrl_d_cancels: no `script` (util-linux) for a terminal"
        );
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("calimcp");
    let cmd = format!(
        "{} --offline --apps {} call every_kind_paint --dry-run -c {}",
        bin.display(),
        example("").display(),
        "ab".repeat(32)
    );
    let out = assert_cmd::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env("NO_COLOR", "1")
        .write_stdin("\u{4}")
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("looks like: Red | Green | Blue"), "{text}");
    assert!(
        text.contains("cancelled: no value for --param-color"),
        "{text}"
    );
    assert!(!text.contains("POST "), "nothing sent: {text}");
}

/// Dynamic completion (`COMPLETE=fish`): app names with paths for APP,
/// `schema APP` method names, and `APP.METHOD` forms for `call`.
#[test]
fn completion_offers_apps_methods_and_app_method_forms() {
    let complete = |words: &[&str]| -> Vec<String> {
        let out = calimcp()
            .env("COMPLETE", "fish")
            .arg("--")
            .arg("calimcp")
            .arg("--apps")
            .arg(example(""))
            .args(words)
            .assert()
            .success();
        String::from_utf8_lossy(&out.get_output().stdout)
            .lines()
            .map(|l| l.split('\t').next().unwrap_or_default().to_string())
            .collect()
    };
    assert!(complete(&["describe", "kv"]).contains(&"kv-store".to_string()));
    assert!(complete(&["use", "com.calimero.k"]).contains(&"com.calimero.kv-store".to_string()));
    let methods = complete(&["schema", "kv-store", ""]);
    assert!(
        methods.contains(&"get".to_string()) && methods.contains(&"set".to_string()),
        "{methods:?}"
    );
    assert_eq!(complete(&["call", "kv-store.g"]), ["kv-store.get"]);
    // The repeat options complete for a [view] tool only (issue 32).
    let view = complete(&["call", "kv_store_get", "--"]);
    assert!(view.contains(&"--until".to_string()), "{view:?}");
    assert!(view.contains(&"--key".to_string()), "{view:?}");
    let mutating = complete(&["call", "kv_store_set", "--"]);
    assert!(mutating.contains(&"--key".to_string()), "{mutating:?}");
    assert!(
        mutating.contains(&"--dry-run".to_string()) && !mutating.contains(&"--until".to_string()),
        "{mutating:?}"
    );
    // Paths still complete.
    assert!(
        complete(&["describe", "exam"])
            .iter()
            .any(|c| c.starts_with("examples"))
    );
}

#[test]
fn a_filter_that_matches_nothing_is_a_warning() {
    let out = calimcp()
        .arg("--apps")
        .arg(example(""))
        .args(["tools", "--allow", "kv_sotre_*", "--deny", "*_clear"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("--allow 'kv_sotre_*' matches no tool"),
        "{err}"
    );
    assert!(!err.contains("--deny"), "{err}");
}

#[test]
fn package_on_a_bundle_is_a_warning() {
    let out = calimcp()
        .args(["describe"])
        .arg(example("kv-store"))
        .args(["--package", "foo"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains(
            "--package foo is ignored: the bundle names its own package (com.calimero.kv-store)"
        ),
        "{err}"
    );
}

/// `calimcp serve` started by hand on a terminal says what it waits for.
#[test]
fn serve_on_a_terminal_says_it_speaks_mcp() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!(
            "skipped: serve_on_a_terminal_says_it_speaks_mcp: no `script` (util-linux) for a terminal"
        );
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("calimcp");
    let cmd = format!("{} --apps {} serve", bin.display(), example("").display());
    // Ctrl-D on the terminal ends the server (end of input).
    let out = assert_cmd::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env("CALIMCP_OFFLINE", "1")
        .write_stdin("\u{4}")
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.contains("meant to be started by an MCP client"),
        "{text}"
    );
}

/// On a narrow terminal the tools table fits, with or without colour, and
/// tool names are never cut.
#[test]
fn tables_fit_the_terminal() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: tables_fit_the_terminal: no `script` (util-linux) for a terminal");
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("calimcp");
    for color in ["never", "always"] {
        let cmd = format!(
            "stty cols 70; {} --offline --apps {} tools every-kind --color {color}",
            bin.display(),
            example("").display()
        );
        let out = assert_cmd::Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let mut plain = String::new();
        let mut in_escape = false;
        for c in text.chars() {
            match (in_escape, c) {
                (false, '\u{1b}') => in_escape = true,
                (true, 'm') => in_escape = false,
                (true, _) => {}
                (false, '\r') => {}
                (false, c) => plain.push(c),
            }
        }
        for line in plain.lines() {
            assert!(line.chars().count() <= 70, "{color}: {line:?}");
        }
        for name in [
            "every_kind_echo_scalars",
            "every_kind_accounts",
            "every_kind_targeted",
        ] {
            assert!(plain.contains(name), "{color}: {name} cut: {plain}");
        }
    }
}

/// Issue 22.14: a subcommand's `-h` and `--help` name the global options in
/// one block pointing to `calimcp --help`, which describes them; bare
/// `calimcp` calls them global options (they are its own), and no help
/// shows an empty `[env: X=]`.
#[test]
fn help_folds_the_global_options_into_one_block() {
    // Bare `calimcp` prints its short help on stderr (a usage error).
    let help = |args: &[&str]| {
        let out = calimcp()
            .env_remove("CALIMCP_OFFLINE")
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr)
    };
    // Two-level subcommands fold them alike, by `-h`, `--help` and `help`.
    for args in [
        &["describe", "-h"][..],
        &["describe", "--help"],
        &["call", "--help"],
        &["node", "add", "-h"],
        &["node", "add", "--help"],
        &["node", "list", "-h"],
        &["node", "list", "--help"],
        &["auth", "token", "-h"],
        &["auth", "token", "--help"],
        &["help", "node", "add"],
        &["node", "--json", "use", "-h"],
    ] {
        let text = help(args);
        assert!(
            text.contains(
                "Global options (`calimcp --help` describes them):\n  --json   --color WHEN"
            ),
            "{args:?}: {text}"
        );
        assert!(
            !text.contains("Machine-readable output"),
            "{args:?}: {text}"
        );
        assert!(!text.contains("Inherited"), "{args:?}: {text}");
        assert_eq!(
            text.matches("Global options").count(),
            1,
            "{args:?}: {text}"
        );
        if args[0] != "call" {
            assert!(
                text.lines().count() < 40,
                "{args:?}: {} lines",
                text.lines().count()
            );
        }
    }
    // Bare `calimcp` shows the short help (exit 2), as `-h` does (exit 0).
    calimcp().env_remove("CALIMCP_OFFLINE").assert().code(2);
    for args in [&[][..], &["-h"]] {
        let text = help(args);
        assert!(
            text.contains(
                "Global options (before or after the subcommand; `calimcp --help` describes them):"
            ),
            "{args:?}: {text}"
        );
        assert!(!text.contains("Inherited"), "{args:?}: {text}");
    }
    let text = help(&["--help"]);
    assert!(text.contains("Machine-readable output"), "{text}");
    assert!(text.contains("[env: CALIMCP_APPS]"), "{text}");
    assert!(!text.contains("=]"), "{text}");
    // A variable that is set is named, its value never shown.
    let out = calimcp()
        .env("CALIMCP_APPS", "examples")
        .env("CALIMCP_OFFLINE", "1")
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.contains("[env: CALIMCP_APPS]") && text.contains("[env: CALIMCP_OFFLINE]"),
        "{text}"
    );
    // A method's own help folds them too.
    let out = calimcp()
        .arg("--apps")
        .arg(example(""))
        .args(["call", "every_kind_paint", "--help"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.contains("Global options (`calimcp --help` describes them):"),
        "{text}"
    );
    assert!(!text.contains("=]"), "{text}");
    assert!(!text.contains("Machine-readable output"), "{text}");
}

/// The help texts, as a user reads them (issue 22.14).
#[test]
fn help_texts() {
    let help = |args: &[&str]| {
        // CALIMCP_OFFLINE=1 (set for every test) is not shown either.
        let out = calimcp().args(args).output().unwrap();
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    insta::assert_snapshot!("help_top_short", help(&["-h"]));
    insta::assert_snapshot!("help_top_long", help(&["--help"]));
    insta::assert_snapshot!("help_describe_short", help(&["describe", "-h"]));
    insta::assert_snapshot!("help_describe_long", help(&["describe", "--help"]));
    insta::assert_snapshot!("help_node_add_short", help(&["node", "add", "-h"]));
    insta::assert_snapshot!("help_auth_token_long", help(&["auth", "token", "--help"]));
}

#[test]
fn no_apps_messages_name_the_directory_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap().to_string();
    for cmd in ["apps", "tools"] {
        let out = calimcp().args([cmd, "--apps", &d]).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(
            err.contains(&format!("no apps found in {d}")),
            "{cmd}: {err}"
        );
    }
}

/// Issue 22.9: `schema -`, `describe -` and `tools -` read one manifest from
/// stdin, as `diff -` does; its package is --package, else `stdin`. The
/// output is that of the same manifest given by its path, package aside.
#[test]
fn a_manifest_on_stdin_is_an_app_for_schema_describe_and_tools() {
    let abi = std::fs::read(example("kv-store/abi.json")).unwrap();
    let run = |args: &[&str], stdin: Option<&[u8]>| {
        let mut cmd = calimcp();
        cmd.args(args);
        if let Some(bytes) = stdin {
            cmd.write_stdin(bytes.to_vec());
        }
        let out = cmd.assert().success().get_output().stdout.clone();
        String::from_utf8(out).unwrap()
    };
    let path = "examples/kv-store/abi.json";
    for cmd in [
        &["schema"][..],
        &["schema", "-", "set"],
        &["tools", "--json"],
    ] {
        let (name, rest) = cmd.split_first().unwrap();
        let rest: Vec<&str> = rest.iter().copied().filter(|a| *a != "-").collect();
        let mut piped = vec![*name, "-", "--package", "kv-store"];
        piped.extend(&rest);
        let mut named = vec![*name, path, "--package", "kv-store"];
        named.extend(&rest);
        assert_eq!(
            run(&piped, Some(&abi)),
            run(&named, None),
            "{cmd:?} from stdin"
        );
    }
    let described = run(&["describe", "-", "--json"], Some(&abi));
    let v: Value = serde_json::from_str(&described).unwrap();
    assert_eq!(v["package"], "stdin", "{v}");
    assert_eq!(v["source"], "<stdin>", "{v}");
    assert!(
        v["methods"].as_array().is_some_and(|m| !m.is_empty()),
        "{v}"
    );
    assert!(run(&["tools", "-"], Some(&abi)).contains("stdin_set"));
    // `-` is one app on its own; an invalid manifest names <stdin>.
    calimcp()
        .args(["tools", "-", "examples/kv-store"])
        .write_stdin(abi.clone())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be listed with other apps"));
    calimcp()
        .args(["describe", "-"])
        .write_stdin(&b"{\"nope\": 1}"[..])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<stdin>"));
}

/// Issue 22.12: on a terminal `describe` fits its width as `tools` does:
/// signatures wrap, tool names are never cut, with or without colour.
#[test]
fn describe_fits_the_terminal() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: describe_fits_the_terminal: no `script` (util-linux) for a terminal");
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("calimcp");
    for color in ["never", "always"] {
        let cmd = format!(
            "stty cols 60; {} --offline describe {} --color {color}",
            bin.display(),
            example("every-kind.json").display()
        );
        let out = assert_cmd::Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let plain = strip_ansi(&text);
        for line in plain.lines().filter(|l| !l.contains("source")) {
            assert!(line.chars().count() <= 60, "{color}: {line:?}\n{plain}");
        }
        for name in [
            "every_kind_echo_scalars",
            "every_kind_accounts",
            "every_kind_targeted",
            "(no tool: runs at context creation)",
        ] {
            assert!(plain.contains(name), "{color}: {name} cut: {plain}");
        }
        // The long signature is wrapped at spaces, not cut: every word is there.
        let words: Vec<&str> = plain.split_whitespace().collect();
        for word in [
            "echo_scalars(b:",
            "bool,",
            "i32:",
            "nothing:",
            "(u64,",
            "i64)",
        ] {
            assert!(words.contains(&word), "{color}: {word}: {plain}");
        }
    }
}

/// Text without ANSI colour codes and carriage returns.
fn strip_ansi(text: &str) -> String {
    let mut plain = String::new();
    let mut in_escape = false;
    for c in text.chars() {
        match (in_escape, c) {
            (false, '\u{1b}') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, '\r') => {}
            (false, c) => plain.push(c),
        }
    }
    plain
}

/// Issue 22.6: on a terminal, an answer the parameter's type refuses (an
/// enum name it does not have) is asked again with the reason, as a bad
/// number is; the valid answer is then sent.
#[test]
fn a_prompt_asks_again_for_a_value_the_schema_refuses() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!(
            "skipped: a_prompt_asks_again_for_a_value_the_schema_refuses: no `script` (util-linux) for a terminal"
        );
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("calimcp");
    let cmd = format!(
        "{} --offline --apps {} call every_kind_paint --dry-run -c {}",
        bin.display(),
        example("").display(),
        "ab".repeat(32)
    );
    let out = assert_cmd::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env("NO_COLOR", "1")
        .write_stdin("Purple\nGreen\n")
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(r#"expected one of "Red", "Green", "Blue", got a string: "Purple""#),
        "{text}"
    );
    assert_eq!(
        text.matches("color (Color): ").count(),
        2,
        "asked twice: {text}"
    );
    assert!(text.contains("POST "), "{text}");
    assert!(text.contains(r#""color":"Green""#), "{text}");
    assert!(!text.contains(r#""color":"Purple""#), "{text}");
}

/// A `calimcp` for the fake node `node`, with its own state directory.
fn on_node(node: &support::fake_node::FakeNode, home: &std::path::Path) -> assert_cmd::Command {
    let mut cmd = support::calimcp(home);
    cmd.env("CALIMERO_NODE_URL", &node.url);
    cmd
}

/// Issue 22.16: a URL whose path is not where the node serves its API
/// (a node without NODE_PATH_PREFIX, or another prefix) answers a bodyless
/// 404; the error says what to check instead of only "no message".
#[test]
fn a_wrong_base_path_hints_at_the_url_and_node_path_prefix() {
    let node = support::fake_node::FakeNode::builder()
        .base_path("/mero")
        .start();
    let home = tempfile::tempdir().unwrap();
    let wrong = node.url.replace("/mero", "/wrong");
    let out = on_node(&node, home.path())
        .args(["--node", &wrong, "apps"])
        .assert()
        .code(5);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("HTTP 404"), "{err}");
    assert!(err.contains("NODE_PATH_PREFIX"), "{err}");
    assert!(err.contains("check the URL"), "{err}");
    // The URL with the node's prefix is right.
    on_node(&node, home.path())
        .args(["apps"])
        .assert()
        .success();
}

/// Issue 22.16: a context id typed in hex on a node that writes base58 is
/// echoed in errors as typed, not in the node's form.
#[test]
fn a_context_id_is_shown_as_typed_in_call_errors() {
    use support::fake_node::{CTX_KV, FakeNode};
    let node = FakeNode::start();
    node.disown(CTX_KV);
    let home = tempfile::tempdir().unwrap();
    let typed = node.other_id(CTX_KV);
    let out = on_node(&node, home.path())
        .args(["call", "kv_store_get", "--key", "a", "-c", &typed])
        .assert()
        .code(5);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains(&format!("context {typed}")), "{err}");
    assert!(!err.contains(&node.id(CTX_KV)), "{err}");
}

/// Issue 22.16: a variant value whose tag names one variant is reported by
/// that variant's problem (`action.Move: expected 2 items, got 1`), not as
/// "expected one of the enum's variants, got an object".
#[test]
fn a_variant_payload_error_names_its_variant() {
    let hex = "ab".repeat(32);
    let err = |arg: &str, value: &str| {
        let out = calimcp()
            .arg("--apps")
            .arg(example(""))
            .args(["call", arg, "--dry-run", "-c", &hex])
            .args(value.split_once(' ').map(|(f, v)| vec![f, v]).unwrap())
            .assert()
            .code(2);
        String::from_utf8_lossy(&out.get_output().stderr).to_string()
    };
    let e = err("every_kind_apply", r#"--action {"Move":[1]}"#);
    assert!(e.contains("action.Move: expected 2 items, got 1"), "{e}");
    let e = err("every_kind_apply", r#"--action {"Rename":5}"#);
    assert!(
        e.contains("action.Rename: expected a string, got an integer: 5"),
        "{e}"
    );
    // An internally tagged variant: the tag names the variant.
    let e = err(
        "every_kind_area",
        r#"--shape {"kind":"circle","radius":"x"}"#,
    );
    assert!(e.contains("shape.radius: expected a number"), "{e}");
    // No variant's tag: the whole value is refused, naming the variants (issue 32).
    let e = err("every_kind_apply", r#"--action {"Jump":1}"#);
    assert!(
        e.contains(r#"action: expected one of the variants "Ping", {"Rename": …}, {"Move": …}"#),
        "{e}"
    );
    let e = err("every_kind_area", r#"--shape {"kind":"hexagon"}"#);
    assert!(
        e.contains(r#"{"kind": "circle", …}, {"kind": "square", …}"#),
        "{e}"
    );
}

/// Issue 32: `call`'s own options are in `call --help`, `help call` and
/// `call TOOL --help` (the global ones stay folded in one block).
#[test]
fn call_help_lists_calls_own_options() {
    let help = |args: &[&str]| {
        let out = calimcp()
            .arg("--apps")
            .arg(example(""))
            .args(args)
            .assert()
            .success();
        String::from_utf8_lossy(&out.get_output().stdout).to_string()
    };
    for args in [
        &["call", "--help"][..],
        &["help", "call"],
        &["call", "kv_store_get", "--help"],
        &["call", "kv_store_get", "-h"],
    ] {
        let text = help(args);
        for flag in [
            "--args",
            "-c, --context",
            "--dry-run",
            "--no-input",
            "--as",
            "--wait-event",
            "--retry",
            "--until",
            "--within",
            "--every",
        ] {
            assert!(text.contains(flag), "{args:?} lacks {flag}: {text}");
        }
        assert_eq!(
            text.matches("Global options").count(),
            1,
            "{args:?}: {text}"
        );
        assert!(!text.contains("-V, --version"), "{args:?}: {text}");
    }
    // A [mut] tool does not list the repeat options, which are for [view] ones.
    let text = help(&["call", "kv_store_set", "--help"]);
    assert!(
        text.contains("--dry-run") && !text.contains("--until"),
        "{text}"
    );
}

/// Issue 32: no subcommand's help lists `-V` (the top level's does), and
/// `--version` names the commit when built from a git checkout.
#[test]
fn version_is_listed_at_the_top_and_names_the_commit() {
    let text = |args: &[&str]| {
        let out = calimcp().args(args).assert().success();
        String::from_utf8_lossy(&out.get_output().stdout).to_string()
    };
    assert!(text(&["--help"]).contains("-V, --version"));
    for args in [
        &["describe", "--help"][..],
        &["node", "add", "-h"],
        &["wait", "--help"],
    ] {
        assert!(!text(args).contains("--version"), "{args:?}");
    }
    let version = text(&["--version"]);
    assert!(
        version.starts_with(&format!("calimcp {}", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    let commit = std::process::Command::new("git")
        .args([
            "-C",
            env!("CARGO_MANIFEST_DIR"),
            "rev-parse",
            "--short=12",
            "HEAD",
        ])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    if let Some(commit) = commit {
        assert!(
            version.contains(&format!("({commit})")),
            "{version} vs {commit}"
        );
    }
}

/// Issue 34: `--version` and `-V` alone are answered before clap builds its
/// command tree; they print exactly what clap prints for a longer line, and
/// only stdout.
#[test]
fn version_alone_prints_what_clap_prints() {
    let run = |args: &[&str]| {
        let out = calimcp().args(args).assert().success();
        let out = out.get_output();
        assert!(out.stderr.is_empty(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    // With a global flag after it the line is clap's to parse.
    let by_clap = run(&["--version", "--quiet"]);
    assert!(
        by_clap.starts_with("calimcp ") && by_clap.ends_with('\n'),
        "{by_clap:?}"
    );
    assert_eq!(run(&["--version"]), by_clap);
    assert_eq!(run(&["-V"]), by_clap);
    assert_eq!(run(&["-Vq"]), by_clap);
}

/// Issue 32: what `serve`, `apps`, `tools` and `completions` say of themselves.
#[test]
fn command_help_says_what_the_command_covers() {
    let text = |args: &[&str]| {
        let out = calimcp().args(args).assert().success();
        String::from_utf8_lossy(&out.get_output().stdout).to_string()
    };
    let serve = text(&["serve", "--help"]);
    // The fixed tools (src/mapping/toolset.rs RESERVED_NAMES).
    for tool in [
        "describe_app",
        "select_app",
        "wait_for_events",
        "wait_for_context",
        "call_until",
        "call_many",
    ] {
        assert!(serve.contains(tool), "serve --help lacks {tool}: {serve}");
    }
    for cmd in ["apps", "tools"] {
        for args in [[cmd, "--help"], [cmd, "-h"]] {
            let t = text(&args);
            assert!(t.contains("the node's"), "{args:?}: {t}");
        }
    }
    // The install lines keep their line breaks.
    let completions = text(&["completions", "--help"]);
    assert!(
        completions.contains("Install, e.g.:\n  bash:  calimcp completions bash"),
        "{completions}"
    );
}

/// Issue 32: the usage errors of a call line say how it is spelled.
#[test]
fn call_usage_errors_say_how_it_is_spelled() {
    let err = |args: &[&str]| {
        let out = calimcp()
            .arg("--apps")
            .arg(example(""))
            .args(args)
            .assert()
            .code(2);
        String::from_utf8_lossy(&out.get_output().stderr).to_string()
    };
    // NAME=VALUE for a parameter: its flag.
    let e = err(&["call", "kv_store_get", "key=a", "--dry-run", "-c", "x"]);
    assert!(e.contains("a parameter is a flag, `--key a`"), "{e}");
    let e = err(&["call", "kv_store_set", "value=two words", "--dry-run"]);
    assert!(e.contains("`--value 'two words'`"), "{e}");
    // A misspelled flag: the tool's usage line, not the flags given as if required.
    let e = err(&["call", "kv_store_set", "--kye", "a"]);
    assert!(
        e.contains("Usage: calimcp call kv_store_set [OPTIONS]"),
        "{e}"
    );
    assert!(!e.contains("--apps <DIR>"), "{e}");
    assert!(e.contains("'--key'"), "{e}");
}

/// Issue 32: a node URL without its scheme is told to add it.
#[test]
fn a_node_url_without_a_scheme_is_told_to_add_http() {
    let out = calimcp()
        .env_remove("CALIMCP_OFFLINE")
        .args(["apps", "--node", "127.0.0.1:25000"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("has no scheme"), "{err}");
    assert!(err.contains("--node http://127.0.0.1:25000"), "{err}");
    assert!(!err.contains("relative URL"), "{err}");
}

/// A call named APP.METHOD that no app has is not told to try the
/// APP.METHOD form it used (issue 44); a bare unknown name still is.
#[test]
fn an_unknown_app_method_is_not_told_to_use_the_form_it_used() {
    let out = calimcp()
        .arg("--apps")
        .arg(example(""))
        .args(["call", "nosuchapp.nothing_like_this"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("no tool `nosuchapp.nothing_like_this`"),
        "{err}"
    );
    assert!(!err.contains("can also be named APP.METHOD"), "{err}");
    assert!(err.contains("calimcp tools"), "{err}");
    let out = calimcp()
        .arg("--apps")
        .arg(example(""))
        .args(["call", "zzz_nothing_like_this"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("can also be named APP.METHOD"), "{err}");
}
