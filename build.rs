//! The build script: `calimcp --version` names the commit it was built
//! from, read from git when the source is a git checkout of calimcp itself,
//! else left out (a crates.io build, a tarball, no git). Three `git` runs at
//! most; reruns only when HEAD or the branch it names moves. The executable
//! is linked as the toolchain links it: position-independent, so its whole
//! image keeps address-space randomisation.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let s = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !s.trim().is_empty()).then(|| s.trim().to_string())
}

fn main() {
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
