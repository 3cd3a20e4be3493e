//! calimcp's core: what an app's ABI manifest says and what calimcp makes of
//! it, with no node and no terminal.
//!
//! Modules, each depending only on the ones before it: [`text`] (untrusted
//! strings made safe to show), [`memory`] (the allocator policy of one-shot
//! commands and the server), [`context`] (a context as listed: plain data the
//! error type and the engine share), [`error`] (the one error type and its
//! stable codes), [`abi`] (the manifest model, lenient, and local loading),
//! [`mapping`] (pure: schemas, signatures, tool names, tool sets, argument
//! checks, events, diff) and [`doc`] (an app's reference as a web page).
//! No I/O beyond reading local files.

pub mod abi;
pub mod context;
pub mod doc;
pub mod error;
pub mod mapping;
pub mod memory;
pub mod text;

pub use error::{Code, Error, ErrorKind, Result};
