//! completions/ and man/ are generated from the clap command tree and committed.
//! This test fails when they are stale; regenerate them with
//! `CALIMCP_UPDATE_GENERATED=1 cargo test --test generated`.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

const SHELLS: &[(&str, &str)] = &[
    ("bash", "calimcp.bash"),
    ("zsh", "_calimcp"),
    ("fish", "calimcp.fish"),
    ("elvish", "calimcp.elv"),
    ("powershell", "_calimcp.ps1"),
];

fn expected_completions() -> BTreeMap<String, Vec<u8>> {
    SHELLS
        .iter()
        .map(|(shell, file)| {
            let out = common::calimcp()
                .args(["completions", shell])
                .assert()
                .success()
                .get_output()
                .stdout
                .clone();
            (file.to_string(), out)
        })
        .collect()
}

fn expected_man_pages() -> BTreeMap<String, Vec<u8>> {
    let tmp = tempfile::tempdir().unwrap();
    clap_mangen::generate_to(calimcp::cli::command(), tmp.path()).unwrap();
    read_dir(tmp.path())
}

fn read_dir(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .map(|p| {
                    (
                        p.file_name().unwrap().to_string_lossy().into_owned(),
                        std::fs::read(&p).unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn check(dir: &str, expected: BTreeMap<String, Vec<u8>>) {
    let path = common::root().join(dir);
    if std::env::var("CALIMCP_UPDATE_GENERATED").is_ok_and(|v| v == "1") {
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        for (name, bytes) in &expected {
            std::fs::write(path.join(name), bytes).unwrap();
        }
        return;
    }
    let actual = read_dir(&path);
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&actual),
        names(&expected),
        "{dir}/ has other files than the generator makes; run CALIMCP_UPDATE_GENERATED=1 cargo test --test generated"
    );
    for (name, bytes) in &expected {
        assert!(
            actual[name] == *bytes,
            "{dir}/{name} is stale; run CALIMCP_UPDATE_GENERATED=1 cargo test --test generated"
        );
    }
}

#[test]
fn completions_are_up_to_date() {
    check("completions", expected_completions());
}

#[test]
fn man_pages_are_up_to_date() {
    check("man", expected_man_pages());
}
