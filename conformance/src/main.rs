//! calimcp's wire, checked against the Calimero node's own published types.
//!
//! `cargo run -- --check` (the default) fails when
//! - a golden response body in `tests/golden/responses/` is not what the node's
//!   types serialise from the sample values in `tests/golden/samples.json` (the
//!   fake node's builders, `tests/support/wire.rs`, are held to the same files
//!   by the main suite's `tests/wire_goldens.rs`);
//! - a request body calimcp sends (`tests/golden/requests/`, written by that
//!   same main-suite test) does not parse with the node's request types the way
//!   the node parses it, or parses differently than this project expects
//!   (`requests`: JSON-RPC, socket, alias and auth bodies; `lifecycle`: the
//!   admin requests of the app lifecycle).
//!
//! `cargo run -- --write` rewrites the response goldens.

mod lifecycle;
mod mirror;
mod requests;
mod responses;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;

/// Error kinds the samples must cover: every `ExecutionError`,
/// `ExecuteError` and `ServerResponseError` variant of 0.11.0-rc.5 (the enums
/// are `#[non_exhaustive]`, so this list is kept by hand; read
/// `calimero-server-primitives` `jsonrpc.rs` and `calimero-context-client`
/// `messages.rs` when the pin moves).
const ERROR_KINDS: &[(&str, &str)] = &[
    ("handler", "FunctionCallError"),
    ("handler", "SerdeError"),
    ("handler", "ContextNotFound"),
    ("handler", "Unauthorized"),
    ("handler", "Uninitialized"),
    ("handler", "ApplicationNotInstalled"),
    ("handler", "InternalError"),
    ("handler", "AliasResolutionFailed"),
    ("handler", "GroupKeyPending"),
    ("handler", "UpgradeInProgress"),
    ("handler", "XCallNotPermitted"),
    ("server", "ParseError"),
    ("server", "InternalError"),
];

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn json_files(dir: &Path) -> Result<BTreeSet<String>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut names = BTreeSet::new();
    for entry in entries {
        let name = entry.map_err(|e| e.to_string())?.file_name();
        if let Some(stem) = name.to_string_lossy().strip_suffix(".json") {
            names.insert(stem.to_owned());
        }
    }
    Ok(names)
}

/// Response goldens; returns problems (stale or failing ones).
fn responses(root: &Path, write: bool) -> Result<Vec<String>, String> {
    let golden = &root.join("tests/golden");
    let samples = read_json(&golden.join("samples.json"))?;
    let samples = samples["responses"]
        .as_object()
        .ok_or("samples.json has no `responses` object")?;
    let dir = golden.join("responses");
    let mut problems = Vec::new();

    let mut covered = BTreeSet::new();
    for sample in samples.values() {
        if sample["kind"] == "rpc_error" {
            let source = sample["source"].as_str().unwrap_or_default();
            let source = if source.starts_with("server") {
                "server"
            } else {
                source
            };
            covered.insert((
                source.to_owned(),
                sample["type"].as_str().unwrap_or_default().to_owned(),
            ));
        }
    }
    for (source, kind) in ERROR_KINDS {
        if !covered.contains(&((*source).to_owned(), (*kind).to_owned())) {
            problems.push(format!("samples.json has no {source} `{kind}` error"));
        }
    }

    if write {
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    }
    for (name, sample) in samples {
        // A ParseError sample names the request that provokes it: its message
        // is what the node's own parser says.
        if let (Some(request), "rpc_unreadable") = (
            sample.get("request"),
            sample["kind"].as_str().unwrap_or_default(),
        ) {
            let bytes = serde_json::to_vec(request).map_err(|e| e.to_string())?;
            match requests::jsonrpc_rc5(&bytes) {
                Err(e) if sample["detail"] == e.trim_start_matches("HTTP 422: ") => {}
                Err(e) => problems.push(format!(
                    "{name}: the node's parser says {:?}; put that in samples.json `detail`",
                    e.trim_start_matches("HTTP 422: ")
                )),
                Ok(_) => problems.push(format!("{name}: the node reads its `request`")),
            }
        } else if let (Some(request), "ws_error") = (
            sample.get("request"),
            sample["kind"].as_str().unwrap_or_default(),
        ) {
            let bytes = serde_json::to_vec(request).map_err(|e| e.to_string())?;
            match requests::ws_rc5(&bytes) {
                Ok(Some(m)) if sample["data"] == m.as_str() => {}
                Ok(Some(m)) => problems.push(format!(
                    "{name}: the socket's parser says {m:?}; put that in samples.json `data`"
                )),
                Ok(None) => problems.push(format!("{name}: the socket runs its `request`")),
                Err(e) => problems.push(format!("{name}: {e}")),
            }
        } else if let Some(request) = sample.get("request") {
            let bytes = serde_json::to_vec(request).map_err(|e| e.to_string())?;
            let got = if sample["source"] == "server-0.10" {
                requests::jsonrpc_0_10(&bytes)
            } else {
                requests::jsonrpc_rc5(&bytes)
            };
            match got {
                Ok(Some(m)) if sample["data"] == m.as_str() => {}
                Ok(Some(m)) => problems.push(format!(
                    "{name}: the node's parser says {m:?}; put that in samples.json `data`"
                )),
                Ok(None) => problems.push(format!("{name}: the node runs its `request`")),
                Err(e) => problems.push(format!("{name}: {e}")),
            }
        }
        let body = match responses::render(sample, root) {
            Ok(b) => b,
            Err(e) => {
                problems.push(format!("{name}: {e}"));
                continue;
            }
        };
        let path = dir.join(format!("{name}.json"));
        if write {
            std::fs::write(&path, &body).map_err(|e| format!("{}: {e}", path.display()))?;
        } else {
            match std::fs::read_to_string(&path) {
                Ok(on_disk) if on_disk == body => {}
                Ok(on_disk) => problems.push(format!(
                    "responses/{name}.json is stale:\n    file: {on_disk}\n    node: {body}"
                )),
                Err(e) => problems.push(format!("responses/{name}.json: {e}")),
            }
        }
    }
    for stray in json_files(&dir)? {
        if !samples.contains_key(&stray) {
            if write {
                let _ = std::fs::remove_file(dir.join(format!("{stray}.json")));
            } else {
                problems.push(format!(
                    "responses/{stray}.json has no entry in samples.json"
                ));
            }
        }
    }
    Ok(problems)
}

fn run(root: &Path, write: bool) -> Result<(Vec<String>, usize, usize), String> {
    // The node's build has serde_json's `preserve_order`; so must this one.
    let probe: Value = serde_json::from_str(r#"{"b":1,"a":2}"#).map_err(|e| e.to_string())?;
    let written = serde_json::to_string(&probe).map_err(|e| e.to_string())?;
    if written != r#"{"b":1,"a":2}"# {
        return Err("serde_json is built without preserve_order; the node's is not".into());
    }
    let golden = root.join("tests/golden");
    let mut problems = responses(root, write)?;
    let responses = json_files(&golden.join("responses"))?.len();

    let dir = golden.join("requests");
    let names = json_files(&dir)?;
    if names.is_empty() {
        problems.push("tests/golden/requests/ is empty".into());
    }
    for name in &names {
        let request = read_json(&dir.join(format!("{name}.json")))?;
        problems.extend(requests::check(name, &request));
    }
    Ok((problems, responses, names.len()))
}

fn main() -> ExitCode {
    let mut write = false;
    let mut root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => write = false,
            "--write" => write = true,
            "--root" => match args.next() {
                Some(dir) => root = PathBuf::from(dir),
                None => {
                    eprintln!("error: --root needs a directory");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!(
                    "usage: calimcp-conformance [--check | --write] [--root CALIMCP_CHECKOUT]\n\n\
                     --check  (default) fail when a golden is stale or a request does not parse\n\
                     --write  rewrite tests/golden/responses/ from the node's types"
                );
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("error: unknown argument `{other}` (try --help)");
                return ExitCode::from(2);
            }
        }
    }
    match run(&root, write) {
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        Ok((problems, responses, requests)) if problems.is_empty() => {
            let did = if write {
                "written"
            } else {
                "match the node's types"
            };
            println!("conformance: {responses} response bodies {did}; {requests} request bodies parse as expected");
            ExitCode::SUCCESS
        }
        Ok((problems, _, _)) => {
            for p in &problems {
                eprintln!("- {p}");
            }
            eprintln!(
                "conformance: {} problem(s); `cargo run -- --write` rewrites stale response goldens, \
                 CALIMCP_UPDATE_GENERATED=1 cargo test --test wire_goldens the request ones",
                problems.len()
            );
            ExitCode::FAILURE
        }
    }
}
