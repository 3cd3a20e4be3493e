//! `calimcp serve`: the MCP server over stdio and Streamable HTTP, one test
//! binary (one link step instead of nine; the modules were `tests/serve_*.rs`).
//! Run one part with `cargo test --test serve MODULE::`, e.g.
//! `cargo test --test serve http::`.

#[path = "../support/mod.rs"]
mod support;

mod blobs;
mod guide;
mod http;
mod lifecycle;
mod many;
mod node;
mod pages;
mod protocol;
mod refresh;
mod resources;
mod sessions;
mod stdio;
mod upgrade;
mod wait;
