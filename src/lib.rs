//! calimcp: Calimero application ABIs as exact JSON Schemas, readable
//! signatures and stable tool names, for a shell, CI scripts and AI agents.
//!
//! The workspace's crates are the layers, each depending only on the ones
//! before it: `calimcp-core` (the manifest model, the pure mapping, the
//! reference page, the error type) → `calimcp-node` (the HTTP client for
//! merod) → `calimcp-catalog` (the engine: apps, contexts, versions, the call
//! pipeline, waits, subscriptions, logins) → this crate, the two faces:
//! [`cli`] and [`mcp`]. The faces depend on the catalog and the core, never
//! on the node crate (it is not a dependency of this one), and never on each
//! other's internals. Beside them: [`budget`] (the bytes a queue may hold)
//! and [`signals`] (stop signals, listened for from set-up).

pub(crate) mod budget;
pub mod cli;
pub mod mcp;
pub(crate) mod signals;
