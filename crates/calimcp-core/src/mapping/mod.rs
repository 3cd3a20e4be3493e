//! `mapping`: the pure core. `abi::App`s → JSON Schemas, signatures, tool names
//! and the tool set; argument checking and the outgoing `argsJson`; events
//! decoded against the ABI; results made exact for JSON clients (`exact`); the
//! comparison `call --until` and `call_until` wait with (`until`);
//! ABI comparison (`diff`).
//! No I/O, no clap, no rmcp, no HTTP.

pub mod args;
pub mod diff;
pub mod events;
pub mod exact;
pub mod filter;
pub mod names;
pub mod schema;
pub mod signature;
pub mod toolset;
pub mod tree;
pub mod until;

pub use schema::{Direction, MethodSchemas, RefMode, method_schemas};
pub use signature::signature;
pub use toolset::{Tool, ToolOptions, ToolSet, build};
