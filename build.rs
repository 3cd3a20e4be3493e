//! Links the `calimcp` executable as a non-PIE (position-dependent) binary on
//! Linux, in every profile, so `cargo run --release`, `cargo install` (from
//! any directory, a git URL or a registry) and the tests all get the same
//! binary without flags.
//!
//! Why: a position-independent executable of this size carries ~30,000
//! relative relocations that the dynamic loader applies at every start
//! (touching ~0.5 MB of `.data.rel.ro`); linked at a fixed address the linker
//! resolves them once, which is most of the gap between `calimcp --version`
//! and a hello-world process (BENCHMARKS.md, issue 34). The executable stays
//! dynamically linked against glibc, so host names resolve through NSS
//! (`/etc/hosts`, DNS, systemd-resolved) as before; libraries, heap and stack
//! keep their address randomisation, the executable's own image does not.
//! Only the package's binaries get the flag (the tests' own executables and
//! the library are untouched). `CALIMCP_PIE=1` at build time keeps the
//! default position-independent executable (for packagers who require PIE).

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
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
