//! The blobs toolset (issue 46): opt-in with `--toolsets apps,blobs` (and
//! `all`), `--read-only` keeps only `list_blobs`, `destructiveHint` on
//! `delete_blob`; `upload_blob` takes base64 within its documented limit;
//! `delete_blob` refuses an installed app's module unless `force`.

use crate::support;

use base64::Engine as _;
use serde_json::json;
use support::fake_node::{FakeNode, Profile};
use support::serve::*;

const NAMES: [&str; 3] = ["delete_blob", "list_blobs", "upload_blob"];

#[tokio::test]
async fn the_toolset_is_opt_in_and_read_only_keeps_list_blobs() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url]).await;
    let names = tool_list_names(&client).await;
    assert!(
        !names.iter().any(|n| NAMES.contains(&n.as_str())),
        "{names:?}"
    );
    assert!(call(&client, "list_blobs", json!({})).await.is_err());

    for toolsets in ["apps,blobs", "all"] {
        let client = stdio_client(&["--node", &node.url, "--toolsets", toolsets]).await;
        let tools = client.peer().list_all_tools().await.unwrap();
        for name in NAMES {
            let t = tools
                .iter()
                .find(|t| t.name == name)
                .unwrap_or_else(|| panic!("{name}"));
            let a = t.annotations.as_ref().unwrap();
            assert_eq!(a.read_only_hint, Some(name == "list_blobs"), "{name}");
            assert_eq!(a.destructive_hint, Some(name == "delete_blob"), "{name}");
        }
    }

    let client = stdio_client(&[
        "--node",
        &node.url,
        "--toolsets",
        "apps,blobs",
        "--read-only",
    ])
    .await;
    let names = tool_list_names(&client).await;
    assert!(names.contains(&"list_blobs".to_string()), "{names:?}");
    assert!(
        !names
            .iter()
            .any(|n| n == "upload_blob" || n == "delete_blob"),
        "{names:?}"
    );
    assert!(
        call(&client, "upload_blob", json!({"data": "AA=="}))
            .await
            .is_err()
    );
}

#[tokio::test]
async fn upload_list_and_delete_through_the_tools() {
    for p in [Profile::Rc4, Profile::Rc25] {
        let node = FakeNode::with_profile(p);
        let client = stdio_client(&["--node", &node.url, "--toolsets", "apps,blobs"]).await;
        let bytes = vec![0u8, 255, 1, 2, 3];
        let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
        let r = call(&client, "upload_blob", json!({"data": data}))
            .await
            .unwrap();
        assert_ne!(r.is_error, Some(true), "{}", text(&r));
        let v = r.structured_content.clone().unwrap();
        let id = v["blobId"].as_str().unwrap().to_string();
        assert_eq!(v["size"], 5);
        assert_eq!(node.uploaded_blobs(), vec![(id.clone(), bytes)]);
        // `context` (an alias here) is announced as the context's id.
        let r = call(
            &client,
            "upload_blob",
            json!({"data": "AQ==", "context": "default"}),
        )
        .await
        .unwrap();
        assert_ne!(r.is_error, Some(true), "{}", text(&r));
        assert_eq!(node.announced_to().len(), 1, "{}", p.name());
        let _ = call(
            &client,
            "delete_blob",
            json!({"blob": r.structured_content.unwrap()["blobId"]}),
        )
        .await;

        let r = call(&client, "list_blobs", json!({})).await.unwrap();
        let list = r.structured_content.clone().unwrap();
        assert!(
            list["blobs"]
                .as_array()
                .unwrap()
                .contains(&json!({"blobId": id, "size": 5})),
            "{list}"
        );

        // An app's module: refused, naming the app; nothing sent.
        let deletes = || {
            node.requests()
                .iter()
                .filter(|r| r.method == "DELETE")
                .count()
        };
        let before = deletes();
        let module = node.app_blob("com.calimero.kv-store");
        let r = call(&client, "delete_blob", json!({"blob": module}))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(true));
        assert!(text(&r).contains("com.calimero.kv-store"), "{}", text(&r));
        assert!(text(&r).contains("code: blob_in_use"), "{}", text(&r));
        assert_eq!(deletes(), before, "nothing sent");

        let r = call(&client, "delete_blob", json!({"blob": id}))
            .await
            .unwrap();
        assert_ne!(r.is_error, Some(true), "{}", text(&r));
        assert_eq!(r.structured_content.unwrap()["deleted"], true);
        assert!(node.uploaded_blobs().is_empty(), "{}", p.name());
    }
}

#[tokio::test]
async fn upload_blob_refuses_data_past_its_limit_and_what_is_not_base64() {
    let node = FakeNode::start();
    let client = stdio_client(&["--node", &node.url, "--toolsets", "apps,blobs"]).await;
    let big = base64::engine::general_purpose::STANDARD.encode(vec![1u8; (2 << 20) + 1]);
    let r = call(&client, "upload_blob", json!({"data": big}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("2 MiB"), "{}", text(&r));
    let r = call(&client, "upload_blob", json!({"data": "%%%"}))
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("not base64"), "{}", text(&r));
    assert!(node.uploaded_blobs().is_empty(), "nothing sent");
}
