//! calimcp: Calimero application ABIs as exact JSON Schemas, readable
//! signatures and stable tool names, for a shell, CI scripts and AI agents.
//!
//! Layers, each depending only on the ones above it:
//! [`abi`] (manifest model and local loading) → [`mapping`] (pure core) →
//! [`doc`] (an app's reference as a web page, pure) → [`node`] (the HTTP
//! client for merod) → [`catalog`] (where apps come from: local paths and the
//! node) → the faces: [`cli`] and [`mcp`].
//! Beside them: [`error`], [`text`] (terminal-safe strings), [`memory`]
//! (the allocator policy of one-shot commands and the server), [`budget`]
//! (the bytes a queue may hold) and [`signals`] (stop signals, listened for
//! from set-up).

pub mod abi;
pub(crate) mod budget;
pub mod catalog;
pub mod cli;
pub mod doc;
pub mod error;
pub mod mapping;
pub mod mcp;
pub(crate) mod memory;
pub mod node;
pub(crate) mod signals;
pub(crate) mod text;

pub use error::{Code, Error, ErrorKind, Result};
