//! Blobs on a real node (issue 46), on rc.4 and rc.25: a binary file
//! uploaded, listed, read, downloaded (checked) and deleted with `calimcp
//! blob`; passed to a method as `@bytes:FILE` and `@blob:FILE` (the typed
//! echo app's `echo_bytes` and 32-byte `echo_id`); an app's module kept
//! unless forced (rc.4 deletes it when forced, rc.25 refuses with 403); and
//! the same through the MCP blobs toolset.

mod support;

use base64::Engine as _;
use serde_json::{Value, json};
use support::realnode::{RealNode, on_each_version, test_app};
use support::serve::{Watcher, call, stdio_client_with, text};

fn run(node: &RealNode, args: &[&str]) -> (Option<i32>, String, String) {
    let out = node.calimcp().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn ok_json(node: &RealNode, args: &[&str]) -> Value {
    let (code, out, err) = run(node, args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

/// Bytes no text decoder reads, over two 1 MiB chunks of the node's store.
fn binary(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 131 % 256) as u8).collect()
}

on_each_version! {
fn a_file_goes_through_the_real_nodes_blob_store_and_into_a_method(v) {
    let Some(node) = RealNode::start_on(v, "a_file_goes_through_the_real_nodes_blob_store_and_into_a_method") else {
        return;
    };
    let (_, _ctx) = node.setup(&test_app("typed"), "com.example.typed", Some("typed"));
    let dir = tempfile::tempdir().unwrap();
    let bytes = binary((2 << 20) + 77);
    let file = dir.path().join("photo.bin");
    std::fs::write(&file, &bytes).unwrap();
    let f = file.to_str().unwrap();

    let up = ok_json(&node, &["blob", "upload", f, "--json"]);
    let id = up["blobId"].as_str().unwrap().to_string();
    // Announced to a context (by its alias): the same blob, the node takes `context_id`.
    let again = ok_json(&node, &["blob", "upload", f, "--context", "typed", "--json"]);
    assert_eq!(again["blobId"], json!(id));
    assert_eq!(up["size"], json!(bytes.len()));
    let list = ok_json(&node, &["blob", "list", "--json"]);
    assert!(list.as_array().unwrap().contains(&json!({"blobId": id, "size": bytes.len()})), "{list}");
    let info = ok_json(&node, &["blob", "info", &id, "--json"]);
    assert_eq!(info["size"], json!(bytes.len()));
    assert!(info["sha256"].is_string(), "{info}");
    let out = dir.path().join("back.bin");
    let (code, _, err) = run(&node, &["blob", "download", &id, "-o", out.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), bytes);

    // @blob:FILE: uploaded once (the same bytes: the same id), its id passed as the node writes ids.
    let arg = format!("@blob:{f}");
    let echoed = ok_json(&node, &["call", "typed_echo_id", "-c", "typed", "--v", &arg, "--json"]);
    assert_eq!(echoed, json!(id));
    // @bytes:FILE: raw bytes into a bytes parameter, back unchanged.
    let small = dir.path().join("small.bin");
    std::fs::write(&small, [0u8, 255, 10, 13, 0]).unwrap();
    let arg = format!("@bytes:{}", small.display());
    let echoed = ok_json(&node, &["call", "typed_echo_bytes", "-c", "typed", "--v", &arg, "--json"]);
    assert_eq!(echoed, json!([0, 255, 10, 13, 0]));

    // rc.25 counts references: the two uploads and the call's are three.
    let (code, _, err) = run(&node, &["blob", "delete", &id, "--yes"]);
    assert_eq!(code, Some(0), "{err}");
    let _ = run(&node, &["blob", "delete", &id, "--yes"]);
    let _ = run(&node, &["blob", "delete", &id, "--yes"]);
    let (code, _, err) = run(&node, &["blob", "info", &id]);
    assert_eq!(code, Some(5), "{err}");
    assert!(err.contains("has no blob"), "{err}");
}
}

on_each_version! {
fn an_apps_module_is_kept_unless_forced(v) {
    let Some(mut node) = RealNode::start_on(v, "an_apps_module_is_kept_unless_forced") else {
        return;
    };
    let (app, _ctx) = node.setup(&test_app("typed"), "com.example.typed", Some("typed"));
    let apps = node.admin("GET", "/admin-api/applications", None);
    let row = apps["data"]["apps"].as_array().unwrap().iter().find(|a| a["id"] == app.as_str()).unwrap().clone();
    let module = row["blob"]["bytecode"].as_str().unwrap().to_string();
    let (code, _, err) = run(&node, &["blob", "delete", &module, "--yes"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("com.example.typed"), "{err}");
    let (code, out, err) = run(&node, &["blob", "delete", &module, "--yes", "--force", "--json"]);
    match v {
        // rc.4 deletes it: it runs the app from memory until it restarts,
        // then every call of the app fails.
        support::realnode::Version::Rc4 => {
            assert_eq!(code, Some(0), "{err}");
            let done: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(done["deleted"], true);
            let local = format!("{}.echo_i64", test_app("typed").display());
            let (code, _, err) = run(&node, &["call", &local, "-c", "typed", "--v", "1"]);
            assert_eq!(code, Some(0), "still in memory: {err}");
            node.restart();
            let (code, out, err) = run(&node, &["call", &local, "-c", "typed", "--v", "1"]);
            assert_eq!(code, Some(5), "the app's calls fail after a restart: {out}");
            assert!(err.contains("failed internally"), "{err}");
        }
        // rc.25 refuses with 403, said as blob_in_use.
        support::realnode::Version::Rc25 => {
            assert_eq!(code, Some(2), "{err}");
            assert!(err.contains("referenced by an installed application"), "{err}");
        }
    }
}
}

on_each_version! {
async fn the_mcp_blobs_toolset_uploads_lists_passes_and_deletes(v) {
    let Some(node) = RealNode::start_on(v, "the_mcp_blobs_toolset_uploads_lists_passes_and_deletes") else {
        return;
    };
    node.setup(&test_app("typed"), "com.example.typed", Some("typed"));
    let args = ["--node", node.url.as_str(), "--toolsets", "apps,blobs"];
    let (client, _stderr) = stdio_client_with(&args, Watcher::default()).await;
    let data = base64::engine::general_purpose::STANDARD.encode(binary(70_000));
    let r = call(&client, "upload_blob", json!({"data": data})).await.unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    let id = r.structured_content.unwrap()["blobId"].as_str().unwrap().to_string();
    let r = call(&client, "list_blobs", json!({})).await.unwrap();
    let list = r.structured_content.unwrap();
    assert!(list["blobs"].as_array().unwrap().contains(&json!({"blobId": id, "size": 70_000})), "{list}");
    let r = call(&client, "typed_echo_id", json!({"v": id, "_context": "typed"})).await.unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    assert_eq!(r.structured_content, Some(json!({"result": id})));
    let r = call(&client, "delete_blob", json!({"blob": id})).await.unwrap();
    assert_ne!(r.is_error, Some(true), "{}", text(&r));
    assert_eq!(r.structured_content.unwrap()["deleted"], true);
    let r = call(&client, "list_blobs", json!({})).await.unwrap();
    let list = r.structured_content.unwrap();
    assert!(!list["blobs"].as_array().unwrap().iter().any(|b| b["blobId"] == id.as_str()), "{list}");
    client.cancel().await.unwrap();
}
}
