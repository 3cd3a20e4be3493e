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
    let mut pages = read_dir(tmp.path());
    // calimcp(1) gets an ENVIRONMENT section, from the Environment block of
    // the long help (which the EXTRA section carries too).
    if let Some(page) = pages.get_mut("calimcp.1") {
        let help = calimcp::cli::command()
            .get_after_long_help()
            .map(|h| h.to_string())
            .unwrap_or_default();
        let env: Vec<&str> = help
            .lines()
            .skip_while(|l| !l.starts_with("Environment:"))
            .skip(1)
            .collect();
        let mut section = String::from(".SH ENVIRONMENT\n.nf\n");
        for line in env {
            section.push_str(&line.replace('\\', "\\\\").replace('-', "\\-"));
            section.push('\n');
        }
        section.push_str(".fi\n");
        let text = String::from_utf8(page.clone()).unwrap();
        let text = match text.find(".SH EXTRA") {
            Some(at) => format!("{}{section}{}", &text[..at], &text[at..]),
            None => text + &section,
        };
        *page = text.into_bytes();
    }
    pages
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

/// Every environment variable the code reads is in `calimcp --help` (and so
/// in the man page's ENVIRONMENT section).
#[test]
fn every_environment_variable_is_documented() {
    let help = String::from_utf8(
        common::calimcp()
            .arg("--help")
            .assert()
            .success()
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    let mut missing = Vec::new();
    let mut stack = vec![common::root().join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for prefix in ["\"CALIMCP_", "\"CALIMERO_"] {
                for (at, _) in text.match_indices(prefix) {
                    let name: String = text[at + 1..]
                        .chars()
                        .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                        .collect();
                    if !help.contains(&name) && !missing.contains(&name) {
                        missing.push(name);
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "not in `calimcp --help`: {missing:?}");
}
