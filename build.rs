//! The build script does two things:
//!
//! 1. `calimcp --version` names the commit it was built from: read from git
//!    when the source is a git checkout of calimcp itself, else left out (a
//!    crates.io build, a tarball, no git). Three `git` runs at most; reruns
//!    only when HEAD or the branch it names moves.
//! 2. The `calimcp` executable is linked non-PIE (position-dependent) on
//!    Linux/glibc, in every profile, so `cargo run --release`, `cargo install`
//!    (from any directory, a git URL or a registry) and the tests all get the
//!    same binary without flags. A position-independent executable of this
//!    size carries ~30,000 relative relocations that the dynamic loader applies
//!    at every start; linked at a fixed address the linker resolves them once
//!    (BENCHMARKS.md, issue 34). The executable stays dynamically linked
//!    against glibc, so host names resolve through NSS as before; libraries,
//!    heap and stack keep their address randomisation, the executable's own
//!    image does not. Only the package's binaries get the flag.
//!    `CALIMCP_PIE=1` at build time keeps the default PIE (for packagers who
//!    require it).

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let s = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !s.trim().is_empty()).then(|| s.trim().to_string())
}

fn main() {
    link_non_pie();
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let dir = manifest_dir.as_str();
    // The top of the checkout, the HEAD file and the branch it names.
    let found = git(&[
        "-C",
        dir,
        "rev-parse",
        "--show-toplevel",
        "--git-path",
        "HEAD",
        "--symbolic-full-name",
        "HEAD",
    ]);
    let lines: Vec<&str> = found.as_deref().unwrap_or_default().lines().collect();
    // Only calimcp's own checkout: not a repository it happens to sit in.
    let ours = lines.first().is_some_and(|top| {
        Path::new(top).canonicalize().ok() == Path::new(dir).canonicalize().ok()
    });
    let commit = if ours {
        git(&["-C", dir, "rev-parse", "--short=12", "HEAD"])
    } else {
        None
    };
    match commit {
        Some(commit) => {
            println!("cargo:rustc-env=VERSION_AND_COMMIT={version} ({commit})");
            let mut watch: Vec<String> = lines.get(1).map(|h| h.to_string()).into_iter().collect();
            if let Some(branch) = lines.get(2).filter(|b| b.starts_with("refs/"))
                && let Some(paths) = git(&[
                    "-C",
                    dir,
                    "rev-parse",
                    "--git-path",
                    branch,
                    "--git-path",
                    "packed-refs",
                ])
            {
                watch.extend(paths.lines().map(str::to_string));
            }
            for path in watch {
                let path = Path::new(dir).join(path);
                if path.exists() {
                    println!("cargo:rerun-if-changed={}", path.display());
                }
            }
        }
        None => println!("cargo:rustc-env=VERSION_AND_COMMIT={version}"),
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// `-no-pie` for the package's binaries on Linux/glibc, unless `CALIMCP_PIE`.
fn link_non_pie() {
    println!("cargo::rerun-if-env-changed=CALIMCP_PIE");
    if std::env::var_os("CALIMCP_PIE").is_some_and(|v| !v.is_empty() && v != "0") {
        return;
    }
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // GNU toolchains (gcc or clang as the linker driver) understand -no-pie;
    // later on the line than rustc's own -pie, it wins.
    if os == "linux" && env == "gnu" {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
