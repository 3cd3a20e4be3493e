//! Shared test helpers: the fake node, the node's response bodies it answers
//! with (`wire`, held to the node's own types by `tests/wire_goldens.rs`), and
//! a `calimcp` command isolated from the machine it runs on.
#![allow(dead_code)]

pub mod fake_node;
pub mod json_schema;
pub mod wire;

use std::path::Path;

/// `calimcp` with a clean environment: HOME and the state directory in `home`,
/// no CALIMERO_*/CALIMCP_* variables from the outside, no colours.
pub fn calimcp(home: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::cargo::cargo_bin_cmd!("calimcp");
    cmd.env_clear()
        .env("HOME", home)
        .env("CALIMCP_STATE_DIR", home.join("state"))
        .env("NO_COLOR", "1")
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}
