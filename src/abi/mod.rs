//! `abi`: the manifest model and where manifests come from on this machine.
//!
//! Input: bytes (a JSON manifest, a `.wasm` module, an `.mpk` bundle) or a path.
//! Output: [`Manifest`]s grouped into [`LocalApp`]s, plus [`Warning`]s.
//! Depends on nothing else in calimcp; it never prints.

pub mod bundle;
pub mod lint;
pub mod load;
pub mod model;
pub mod parse;
pub mod state;
pub mod wasm;

pub use load::{App, LoadOptions, Service, load_apps_dir, load_path};
pub use model::*;
pub use parse::{parse_manifest, parse_manifest_value};

/// Something odd but survivable found in a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// Where the manifest came from, once the loader knows (a path, `node:<id>`).
    pub source: String,
    /// The JSON path inside the manifest (`$.methods[2].params[0]`), or empty.
    pub path: String,
    pub message: String,
}

impl Warning {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Warning {
            source: String::new(),
            path: path.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Warning {
    /// One line, safe for a terminal: paths hold type names from the manifest.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::text::sanitize_line as clean;
        let (source, path, message) =
            (clean(&self.source), clean(&self.path), clean(&self.message));
        match (source.is_empty(), path.is_empty()) {
            (true, true) => write!(f, "{message}"),
            (true, false) => write!(f, "{path}: {message}"),
            (false, true) => write!(f, "{source}: {message}"),
            (false, false) => write!(f, "{source} at {path}: {message}"),
        }
    }
}

/// A manifest that cannot be used, with the JSON path of the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbiError {
    pub path: String,
    pub message: String,
}

impl AbiError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        AbiError {
            path: path.into(),
            message: message.into(),
        }
    }
}
