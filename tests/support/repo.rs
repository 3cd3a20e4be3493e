//! The repository's paths, the example apps and the shared fixture corpus
//! (which a fresh clone does not have).

use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn example(name: &str) -> PathBuf {
    root().join("examples").join(name)
}

/// `../shared/fixtures/abi`, or `None` after saying loudly that the caller is skipped.
/// With `CALIMCP_REQUIRE_FIXTURES=1` a missing corpus is a failure.
pub fn fixtures(test: &str) -> Option<PathBuf> {
    let dir = root().join("../shared/fixtures/abi");
    if dir.is_dir() {
        return Some(dir.canonicalize().unwrap_or(dir));
    }
    if std::env::var("CALIMCP_REQUIRE_FIXTURES").is_ok_and(|v| v == "1") {
        panic!("{test}: ../shared/fixtures/abi is missing and CALIMCP_REQUIRE_FIXTURES=1");
    }
    eprintln!(
        "skipped: {test}: ../shared/fixtures/abi not found (set CALIMCP_REQUIRE_FIXTURES=1 to make this a failure)"
    );
    None
}

/// Every ABI manifest of the corpus (not the bundle manifest.json), sorted.
pub fn fixture_manifests(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixture dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("bundle-"))
        })
        .collect();
    files.sort();
    files
}

/// A bundle directory in `into` with the mero-docs services (docs, registry) of the corpus.
pub fn mero_docs_bundle(fixtures: &Path, into: &Path) -> PathBuf {
    let dir = into.join("mero-docs");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        fixtures.join("apps-mero-docs-docs.json"),
        dir.join("docs-abi.json"),
    )
    .unwrap();
    std::fs::copy(
        fixtures.join("apps-mero-docs-registry.json"),
        dir.join("registry-abi.json"),
    )
    .unwrap();
    let manifest = serde_json::json!({
        "version": "1.0",
        "package": "com.calimero.mero-drive-docs",
        "appVersion": "1.0.0",
        "metadata": {"name": "Mero Docs"},
        "services": [
            {"name": "docs", "abi": {"path": "docs-abi.json"}},
            {"name": "registry", "abi": {"path": "registry-abi.json"}}
        ]
    });
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_vec_pretty(&manifest).unwrap(),
    )
    .unwrap();
    dir
}

pub fn stdout(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("utf-8 stdout")
}
