//! The reference pages in a real browser: runs tests/browser/run.py (the
//! system Chromium driven by Playwright for Python; see that file for what it
//! checks) against this build's binary and fake node. Skipped, saying so,
//! when Chromium or the Playwright venv is missing; a failure instead under
//! `CI=true` or `CALIMCP_REQUIRE_BROWSER=1` (.ci/run installs both).
//!
//! The venv is `$CALIMCP_BROWSER_PYTHON`, else
//! `~/.cache/calimcp/browser-venv/bin/python`; the browser
//! `$CALIMCP_CHROMIUM`, else `/usr/bin/chromium`.

mod support;

use std::path::PathBuf;

fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("CALIMCP_REQUIRE_BROWSER").is_ok_and(|v| v == "1")
}

fn python() -> PathBuf {
    std::env::var_os("CALIMCP_BROWSER_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/calimcp/browser-venv/bin/python")
        })
}

fn chromium() -> PathBuf {
    std::env::var_os("CALIMCP_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"))
}

#[test]
fn pages_work_in_a_real_browser() {
    let (python, chromium) = (python(), chromium());
    let has_playwright = python.exists()
        && std::process::Command::new(&python)
            .args(["-c", "import playwright"])
            .status()
            .is_ok_and(|s| s.success());
    if !chromium.exists() || !has_playwright {
        let why = format!(
            "Chromium at {} {}, Playwright in {} {}",
            chromium.display(),
            if chromium.exists() {
                "found"
            } else {
                "missing"
            },
            python.display(),
            if has_playwright { "found" } else { "missing" },
        );
        assert!(
            !required(),
            "pages_work_in_a_real_browser: {why} (CI=true or CALIMCP_REQUIRE_BROWSER=1)"
        );
        eprintln!(
            "skipped: pages_work_in_a_real_browser: {why}; .ci/run installs them (set CALIMCP_REQUIRE_BROWSER=1 to make this a failure)"
        );
        return;
    }
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_calimcp"));
    // `cargo test` builds the examples beside the binary's directory.
    let fake = bin
        .parent()
        .map(|d| d.join("examples/fake-node"))
        .unwrap_or_default();
    assert!(
        fake.exists(),
        "{} is missing: build it with `cargo build --example fake-node`",
        fake.display()
    );
    let out = std::process::Command::new(&python)
        .arg(support::root().join("tests/browser/run.py"))
        .env("CALIMCP_BIN", &bin)
        .env("CALIMCP_FAKE_NODE", &fake)
        .env("CALIMCP_CHROMIUM", &chromium)
        .output()
        .expect("run tests/browser/run.py");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "browser checks failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("all browser checks passed"), "{text}");
}
