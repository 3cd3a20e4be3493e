//! The fake Calimero node as a program, for benchmarks and manual runs:
//! prints its URL on stdout, then serves until stdin closes.
//!
//!     cargo run --example fake-node [-- --fixtures] [--auth USER:PASSWORD] [--base-path /prefix] [--profile 0.10|rc4|rc25|hex]
//!
//! A line `burst CONTEXT N` on stdin (CONTEXT an id or alias) pushes N
//! `Inserted` events, one StateMutation each, to the event streams
//! subscribed to it (`benches/watch.sh`). A line `big CONTEXT BYTES [N]`
//! pushes N (default 1) `Inserted` events whose payload is a JSON string of
//! BYTES bytes — on the wire about four times that (`benches/watch_memory.sh`).
//! A line `contexts N ALIASES` adds N contexts to kv-store, the first ALIASES
//! of them aliased (`benches/contexts.sh`); it answers `ok` on stdout. A line
//! `raw CONTEXT BYTES` pushes one `Inserted` event whose data is BYTES bytes
//! that are not JSON (nor UTF-8) (`benches/raw_event.sh`).

#[path = "fake_node.rs"]
mod fake_node;
#[path = "wire.rs"]
mod wire;

use std::io::{BufRead, Write};

fn main() {
    let mut builder = fake_node::FakeNode::builder();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--fixtures" => builder = builder.shared_fixtures(),
            "--auth" => {
                let spec = args.next().unwrap_or_default();
                let (user, password) = spec.split_once(':').unwrap_or((spec.as_str(), ""));
                builder = builder.auth(user, password);
            }
            "--base-path" => builder = builder.base_path(&args.next().unwrap_or_default()),
            "--profile" => {
                let name = args.next().unwrap_or_default();
                let Some(p) = fake_node::Profile::from_name(&name) else {
                    let _ = writeln!(std::io::stderr(), "fake-node: unknown profile {name}");
                    std::process::exit(2);
                };
                builder = builder.profile(p);
            }
            other => {
                let _ = writeln!(std::io::stderr(), "fake-node: unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let node = builder.start();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", node.url);
    let _ = out.flush();
    drop(out);
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["burst", ctx, n] => {
                let ctx = node.context_of(ctx);
                let n: u64 = n.parse().unwrap_or(0);
                for _ in 0..n {
                    node.emit(&ctx, &[("Inserted", b"\"key\"")]);
                }
            }
            ["big", ctx, bytes, rest @ ..] => {
                let ctx = node.context_of(ctx);
                let bytes: usize = bytes.parse().unwrap_or(0);
                let n: u64 = rest.first().and_then(|n| n.parse().ok()).unwrap_or(1);
                let payload = format!("\"{}\"", "k".repeat(bytes.saturating_sub(2)));
                for _ in 0..n {
                    node.emit(&ctx, &[("Inserted", payload.as_bytes())]);
                }
            }
            ["contexts", n, aliases] => {
                let n: u32 = n.parse().unwrap_or(0);
                let aliases: u32 = aliases.parse().unwrap_or(0);
                node.add_contexts(fake_node::KV, n, aliases);
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "ok");
                let _ = out.flush();
            }
            ["raw", ctx, bytes] => {
                let ctx = node.context_of(ctx);
                let bytes: usize = bytes.parse().unwrap_or(0);
                let data: Vec<u8> = (0..bytes).map(|i| 0x80 | (i % 127) as u8).collect();
                node.emit(&ctx, &[("Inserted", &data)]);
            }
            _ => {}
        }
    }
    drop(node);
}
