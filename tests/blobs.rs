//! `calimcp blob` and files as call arguments (`@bytes:FILE`, `@blob:FILE`)
//! against the fake node, driving the real binary, on rc.4 and rc.25 where
//! their blob routes answer differently (deleting an app's module, deleting
//! an unknown blob).

mod support;

use serde_json::{Value, json};
use support::Env;
use support::fake_node::{self, Profile};
use support::json_schema::assert_valid;
use support::stderr_of;

const VERSIONS: [Profile; 2] = [Profile::Rc4, Profile::Rc25];

fn stdout_json(a: &assert_cmd::assert::Assert) -> Value {
    serde_json::from_slice(&a.get_output().stdout).expect("JSON on stdout")
}

/// Bytes no text decoder reads: NULs, 0xff, and more than one 1 MiB chunk.
fn binary(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 % 256) as u8).collect()
}

fn write(env: &Env, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = env.home.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn a_file_is_uploaded_listed_read_downloaded_and_deleted() {
    for p in VERSIONS {
        let env = Env::on(p);
        let bytes = binary((1 << 20) + 4321);
        let file = write(&env, "photo.bin", &bytes);
        let up = env
            .cmd()
            .args(["blob", "upload", file.to_str().unwrap(), "--json"])
            .assert()
            .success();
        let up = stdout_json(&up);
        assert_valid("blob-upload", &up);
        let id = up["blobId"].as_str().unwrap().to_string();
        assert_eq!(up["size"], json!(bytes.len()));
        // The node got the file's bytes, whole and unchanged.
        assert_eq!(env.node.uploaded_blobs(), vec![(id.clone(), bytes.clone())]);
        let list = stdout_json(
            &env.cmd()
                .args(["blob", "list", "--json"])
                .assert()
                .success(),
        );
        assert_valid("blob-list", &list);
        assert!(
            list.as_array()
                .unwrap()
                .contains(&json!({"blobId": id, "size": bytes.len()})),
            "{list}"
        );
        let info = stdout_json(
            &env.cmd()
                .args(["blob", "info", &id, "--json"])
                .assert()
                .success(),
        );
        assert_valid("blob-info", &info);
        assert_eq!(
            info["size"],
            json!(bytes.len()),
            "{p:?}: HEAD's Content-Length"
        );
        let sha: String = {
            use sha2::Digest;
            sha2::Sha256::digest(&bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        };
        assert_eq!(info["sha256"], json!(sha));
        let out = env.home.path().join("back.bin");
        env.cmd()
            .args(["blob", "download", &id, "-o", out.to_str().unwrap()])
            .assert()
            .success();
        assert_eq!(std::fs::read(&out).unwrap(), bytes);
        // To stdout (not a terminal here): the bytes themselves.
        let a = env.cmd().args(["blob", "download", &id]).assert().success();
        assert_eq!(a.get_output().stdout, bytes);
        let del = stdout_json(
            &env.cmd()
                .args(["blob", "delete", &id, "--yes", "--json"])
                .assert()
                .success(),
        );
        assert_valid("blob-delete", &del);
        assert_eq!(del, json!({"blobId": id, "deleted": true, "usedBy": []}));
        assert!(env.node.uploaded_blobs().is_empty());
        // Gone: rc.25 answers 404, rc.4 a 500 with its store's words; both are "no such blob".
        let again = stdout_json(
            &env.cmd()
                .args(["blob", "delete", &id, "--yes", "--json"])
                .assert()
                .success(),
        );
        assert_eq!(again["deleted"], json!(false), "{p:?}");
        let a = env.cmd().args(["blob", "info", &id]).assert().code(5);
        assert!(stderr_of(&a).contains("has no blob"), "{}", stderr_of(&a));
    }
}

#[test]
fn an_upload_with_a_context_is_announced_to_that_contexts_id() {
    let env = Env::on(Profile::Rc25);
    let file = write(&env, "a.bin", b"\x00\x01");
    let ctx = env.node.id(fake_node::CTX_KV);
    env.cmd()
        .args(["blob", "upload", file.to_str().unwrap(), "--context", &ctx])
        .assert()
        .success();
    assert_eq!(env.node.announced_to(), vec![ctx]);
    let put = env
        .node
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT")
        .unwrap();
    assert_eq!(put.header("content-type"), Some("application/octet-stream"));
    assert_eq!(put.header("content-length"), Some("2"));
}

#[test]
fn deleting_an_apps_module_is_refused_naming_the_app_unless_forced() {
    for p in VERSIONS {
        let env = Env::on(p);
        let blob = env.node.app_blob("com.calimero.kv-store");
        // `info` names the app whose module it is.
        let info = stdout_json(
            &env.cmd()
                .args(["blob", "info", &blob, "--json"])
                .assert()
                .success(),
        );
        assert_eq!(info["mimeType"], json!("application/wasm"), "{info}");
        assert!(
            info["usedBy"][0]
                .as_str()
                .unwrap()
                .starts_with("com.calimero.kv-store"),
            "{info}"
        );
        let a = env
            .cmd()
            .args(["blob", "delete", &blob, "--yes"])
            .assert()
            .code(2);
        let err = stderr_of(&a);
        assert!(err.contains("com.calimero.kv-store"), "{err}");
        assert!(err.contains("--force"), "{err}");
        assert!(
            !env.node.requests().iter().any(|r| r.method == "DELETE"),
            "nothing is sent"
        );
        let forced = env
            .cmd()
            .args(["blob", "delete", &blob, "--yes", "--force", "--json"])
            .assert();
        match p {
            // rc.4 deletes it (and says whose it was).
            Profile::Rc4 => {
                let v = stdout_json(&forced.success());
                assert_eq!(
                    v["usedBy"][0].as_str().unwrap().split('@').next(),
                    Some("com.calimero.kv-store")
                );
            }
            // rc.25 refuses with 403, said as the same code.
            _ => {
                let a = forced.code(2);
                assert!(stderr_of(&a).contains("blob_in_use"), "{}", stderr_of(&a));
                assert!(stderr_of(&a).contains("referenced by an installed application"));
            }
        }
    }
}

#[test]
fn a_delete_off_a_terminal_needs_yes() {
    let env = Env::new();
    let a = env.cmd().args(["blob", "delete", "x"]).assert().code(2);
    assert!(stderr_of(&a).contains("--yes"), "{}", stderr_of(&a));
    assert!(!env.node.requests().iter().any(|r| r.method == "DELETE"));
}

#[test]
fn a_download_whose_bytes_do_not_match_the_nodes_hash_fails_and_leaves_no_file() {
    let env = Env::on(Profile::Rc25);
    let file = write(&env, "a.bin", b"abc");
    let up = env
        .cmd()
        .args(["blob", "upload", file.to_str().unwrap()])
        .assert()
        .success();
    let id = String::from_utf8_lossy(&up.get_output().stdout)
        .trim()
        .to_string();
    env.node.hostile(|h| h.blob_etag = Some("ab".repeat(32)));
    let out = env.home.path().join("out.bin");
    let a = env
        .cmd()
        .args(["blob", "download", &id, "-o", out.to_str().unwrap()])
        .assert()
        .code(5);
    assert!(stderr_of(&a).contains("ETag"), "{}", stderr_of(&a));
    assert!(!out.exists());
    assert!(!env.home.path().join("out.bin.part").exists());
}

#[test]
fn a_binary_file_is_a_bytes_argument_and_its_size_is_checked() {
    let env = Env::new();
    let file = write(&env, "data.bin", &[0, 255, 10, 13]);
    let short = write(&env, "short.bin", &[1, 2, 3]);
    let arg = format!("@bytes:{}", file.display());
    env.cmd()
        .args(["call", "typed_echo_bytes", "--data", &arg, "--fixed", &arg])
        .assert()
        .success();
    let last = env.node.executes().last().unwrap().json();
    assert_eq!(
        last["params"]["argsJson"],
        json!({"data": [0, 255, 10, 13], "fixed": [0, 255, 10, 13]})
    );
    let a = env
        .cmd()
        .args(["call", "typed_echo_bytes", "--data", &arg])
        .arg("--fixed")
        .arg(format!("@bytes:{}", short.display()))
        .assert()
        .code(2);
    assert!(
        stderr_of(&a).contains("has 3 bytes; the parameter takes exactly 4"),
        "{}",
        stderr_of(&a)
    );
    // `@PATH` stays a JSON value: a binary file there is still refused.
    env.cmd()
        .args(["call", "typed_echo_bytes", "--data"])
        .arg(format!("@{}", file.display()))
        .assert()
        .code(2);
}

#[test]
fn a_file_is_uploaded_once_for_a_blob_id_argument_and_not_on_a_dry_run() {
    for p in VERSIONS {
        let env = Env::on(p);
        let bytes = binary(5000);
        let file = write(&env, "doc.bin", &bytes);
        let arg = format!("@blob:{}", file.display());
        let dry = env
            .cmd()
            .args(["call", "ids_member", "--who", &arg, "--dry-run"])
            .assert()
            .success();
        assert!(
            stderr_of(&dry).contains("would upload"),
            "{}",
            stderr_of(&dry)
        );
        assert!(
            env.node.uploaded_blobs().is_empty(),
            "a dry run uploads nothing"
        );
        env.cmd()
            .args(["call", "ids_member", "--who", &arg])
            .assert()
            .success();
        let blobs = env.node.uploaded_blobs();
        assert_eq!(blobs.len(), 1);
        assert_eq!(blobs[0].1, bytes);
        let puts = env
            .node
            .requests()
            .iter()
            .filter(|r| r.method == "PUT")
            .count();
        assert_eq!(puts, 1, "uploaded once");
        let last = env.node.executes().last().unwrap().json();
        assert_eq!(
            last["params"]["argsJson"]["who"],
            json!(blobs[0].0),
            "{p:?}"
        );
        // A bytes parameter that is no 32-byte id takes no blob.
        let a = env
            .cmd()
            .args(["call", "typed_echo_bytes", "--data", &arg])
            .assert()
            .code(2);
        assert!(stderr_of(&a).contains("@bytes:FILE"), "{}", stderr_of(&a));
    }
}

#[test]
fn a_node_writing_hex_ids_gets_the_blob_id_in_hex() {
    let env = Env::on(Profile::Hex);
    let abi = json!({
        "schema_version": "wasm-abi/1",
        "types": {},
        "methods": [{"name": "keep", "params": [
            {"name": "doc", "type": {"kind": "bytes", "size": 32}}
        ], "returns": {"kind": "unit"}}]
    });
    env.node.install("com.example.docs", abi);
    let file = write(&env, "doc.bin", b"hex node");
    let arg = format!("@blob:{}", file.display());
    env.cmd()
        .args(["call", "com.example.docs.keep", "--doc", &arg])
        .assert()
        .success();
    let (id, _) = env.node.uploaded_blobs().remove(0);
    assert_eq!(id.len(), 64, "{id}");
    let last = env.node.executes().last().unwrap().json();
    assert_eq!(last["params"]["argsJson"]["doc"], json!(id));
}

#[test]
fn init_arguments_take_files_too() {
    let env = Env::on(Profile::Rc25);
    let abi = json!({
        "schema_version": "wasm-abi/1",
        "types": {},
        "methods": [{"name": "init", "params": [
            {"name": "logo", "type": {"kind": "bytes", "size": 32}},
            {"name": "seed", "type": {"kind": "bytes"}}
        ], "returns": {"kind": "unit"}}]
    });
    env.node.install("com.example.files", abi);
    let logo = write(&env, "logo.png", &binary(3000));
    let seed = write(&env, "seed.bin", &[9, 0, 255]);
    let out = env
        .cmd()
        .args(["context", "create", "com.example.files", "--json"])
        .arg("--logo")
        .arg(format!("@blob:{}", logo.display()))
        .arg("--seed")
        .arg(format!("@bytes:{}", seed.display()))
        .assert()
        .success();
    let ctx = stdout_json(&out)["contextId"].as_str().unwrap().to_string();
    let (blob, bytes) = env.node.uploaded_blobs().remove(0);
    assert_eq!(bytes, binary(3000));
    let sent: Value = serde_json::from_slice(&env.node.init_params(&ctx).unwrap()).unwrap();
    assert_eq!(sent, json!({"logo": blob, "seed": [9, 0, 255]}));
}

#[test]
fn a_large_upload_shows_its_progress_on_a_terminal() {
    let env = Env::new();
    let file = write(&env, "big.bin", &binary(9 << 20));
    let args = format!("--node {} blob upload {}", env.node.url, file.display());
    let Some(out) = support::on_a_terminal(env.home.path(), &args, "") else {
        return;
    };
    assert!(out.contains("uploading"), "{out}");
    assert!(out.contains("100% of 9 MiB"), "{out}");
    assert_eq!(env.node.uploaded_blobs().len(), 1, "{out}");
    // Off a terminal: no progress line.
    let a = env
        .cmd()
        .args(["blob", "upload", file.to_str().unwrap()])
        .assert()
        .success();
    assert!(!stderr_of(&a).contains("uploading"), "{}", stderr_of(&a));
}

#[test]
fn an_upload_cut_off_half_way_says_what_the_node_has() {
    // A node that reads the request's head and 1 MiB of its body, then drops
    // the connection (a node that crashed, or a proxy that gave up).
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = std::thread::spawn(move || {
        use std::io::Read;
        let (mut s, _) = listener.accept().unwrap();
        let mut buf = vec![0u8; 64 << 10];
        let mut got = 0;
        while got < (1 << 20) {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => got += n,
            }
        }
        drop(s);
    });
    let env = Env::new();
    let file = write(&env, "big.bin", &binary(8 << 20));
    let a = env
        .bare()
        .args(["--node", &url, "blob", "upload", file.to_str().unwrap()])
        .assert()
        .code(4);
    let err = stderr_of(&a);
    assert!(err.contains("the upload stopped after"), "{err}");
    assert!(err.contains("made no blob of the file"), "{err}");
    assert!(err.contains("upload the file again"), "{err}");
    server.join().unwrap();
}
