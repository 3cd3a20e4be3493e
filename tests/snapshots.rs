//! Snapshots of `schema`, `describe` and `tools --json`, and of every
//! command's `--help` (`call TOOL --help` included): a mapping or help change
//! shows up as a readable diff. Review changes with `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test --test snapshots` and `git diff`).

mod support;

use std::path::Path;

use serde_json::Value;

fn run(args: &[&str], app: &Path) -> String {
    let mut cmd = support::offline();
    cmd.args(args)
        .arg(app)
        .args(["--color", "never", "--quiet"]);
    support::stdout(&mut cmd)
}

fn json(args: &[&str], app: &Path) -> Value {
    serde_json::from_str(&run(args, app)).expect("JSON output")
}

/// `describe --json` without the machine-specific `source`.
fn describe_json(app: &Path) -> Value {
    let mut v = json(&["describe", "--json"], app);
    let strip = |o: &mut Value| {
        o.as_object_mut().map(|m| m.remove("source"));
    };
    match &mut v {
        Value::Array(items) => items.iter_mut().for_each(strip),
        other => strip(other),
    }
    v
}

fn describe_text(app: &Path) -> String {
    run(&["describe"], app).replace(&app.display().to_string(), "[APP]")
}

fn snapshot_app(label: &str, app: &Path) {
    insta::assert_json_snapshot!(format!("{label}__schema"), json(&["schema"], app));
    insta::assert_json_snapshot!(
        format!("{label}__schema_output"),
        json(&["schema", "--output"], app)
    );
    insta::assert_json_snapshot!(format!("{label}__tools"), json(&["tools", "--json"], app));
    insta::assert_json_snapshot!(format!("{label}__describe_json"), describe_json(app));
    insta::assert_snapshot!(format!("{label}__describe"), describe_text(app));
}

#[test]
fn example_kv_store() {
    snapshot_app("example_kv_store", &support::example("kv-store"));
}

#[test]
fn example_multi_service() {
    snapshot_app("example_multi_service", &support::example("multi-service"));
}

#[test]
fn example_every_kind() {
    let app = support::example("every-kind.json");
    snapshot_app("example_every_kind", &app);
    insta::assert_json_snapshot!(
        "example_every_kind__schema_defs",
        json(&["schema", "--refs", "defs"], &app)
    );
}

#[test]
fn fixture_kv_store() {
    let Some(dir) = support::fixtures("fixture_kv_store") else {
        return;
    };
    snapshot_app("fixture_kv_store", &dir.join("apps-kv-store.json"));
}

#[test]
fn fixture_abi_conformance() {
    let Some(dir) = support::fixtures("fixture_abi_conformance") else {
        return;
    };
    snapshot_app(
        "fixture_abi_conformance",
        &dir.join("core-abi-conformance.json"),
    );
}

#[test]
fn fixture_mero_design_internally_tagged() {
    let Some(dir) = support::fixtures("fixture_mero_design_internally_tagged") else {
        return;
    };
    snapshot_app("fixture_mero_design", &dir.join("apps-mero-design.json"));
}

#[test]
fn fixture_mero_docs_two_services_untagged() {
    let Some(dir) = support::fixtures("fixture_mero_docs_two_services_untagged") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let bundle = support::mero_docs_bundle(&dir, tmp.path());
    snapshot_app("fixture_mero_docs", &bundle);
}

#[test]
fn schema_of_one_method_is_the_tools_input_schema_byte_for_byte() {
    for app in [
        support::example("kv-store"),
        support::example("every-kind.json"),
    ] {
        let tools = json(&["tools", "--json"], &app);
        let described = json(&["describe", "--json"], &app);
        let methods = described["methods"].as_array().unwrap();
        for tool in tools.as_array().unwrap() {
            let name = tool["name"].as_str().unwrap();
            let method = methods
                .iter()
                .find(|m| m["tool"] == name)
                .expect("describe lists every tool");
            let mut cmd = support::offline();
            cmd.arg("schema")
                .arg(&app)
                .arg(method["name"].as_str().unwrap())
                .arg("--quiet");
            let printed = support::stdout(&mut cmd);
            assert_eq!(
                printed,
                serde_json::to_string(&tool["inputSchema"]).unwrap() + "\n",
                "{name}"
            );
        }
    }
}

/// Every command's `--help`, from the command tree (a new command gets its
/// snapshot by existing), and a method's own help (`call TOOL --help`).
#[test]
fn every_commands_help() {
    fn walk(cmd: &clap::Command, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        for sc in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            path.push(sc.get_name().to_string());
            out.push(path.clone());
            walk(sc, path, out);
            path.pop();
        }
    }
    let mut commands = Vec::new();
    walk(&calimcp::cli::command(), &mut Vec::new(), &mut commands);
    assert!(commands.len() > 20, "{commands:?}");
    let help = |args: &[&str]| {
        let mut cmd = support::offline();
        cmd.args(args);
        support::stdout(&mut cmd)
    };
    insta::assert_snapshot!("help__calimcp", help(&["--help"]));
    for path in commands {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        insta::assert_snapshot!(format!("help__{}", path.join("_")), help(&args));
    }
    let apps = support::example("");
    let call = |tool: &str| {
        let mut cmd = support::offline();
        cmd.arg("--apps").arg(&apps).args(["call", tool, "--help"]);
        support::stdout(&mut cmd).replace(&apps.display().to_string(), "[EXAMPLES]/")
    };
    insta::assert_snapshot!("help__call_TOOL_view", call("kv_store_get"));
    insta::assert_snapshot!("help__call_TOOL_mut", call("kv_store_set"));
}
