//! `abi`: the manifest model and where manifests come from on this machine.
//!
//! Input: bytes (a JSON manifest, a `.wasm` module, an `.mpk` bundle) or a path.
//! Output: [`Manifest`]s grouped into [`LocalApp`]s, plus [`Warning`]s.
//! Depends on nothing else in calimcp; it never prints.

pub mod bundle;
pub mod lint;
pub mod load;
pub mod meta;
pub(crate) mod model;
pub(crate) mod parse;
pub(crate) mod state;
pub(crate) mod wasm;

pub use load::{App, AppId, Install, LoadOptions, Service, load_apps_dir, load_path};
pub use model::*;
pub use parse::{kind_of, parse_manifest, parse_manifest_value};

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

/// One step of a [`JsonPath`].
pub(crate) enum Seg<'a> {
    Key(&'static str),
    Name(std::borrow::Cow<'a, str>),
    Index(usize),
}

/// A JSON path (`$.methods[2].params[0]`) kept as steps while a walk goes
/// down the manifest, and formatted only when a message needs it.
#[derive(Default)]
pub(crate) struct JsonPath<'a>(Vec<Seg<'a>>);

impl<'a> JsonPath<'a> {
    pub(crate) fn push(&mut self, seg: Seg<'a>) {
        self.0.push(seg);
    }

    pub(crate) fn pop(&mut self) -> Option<Seg<'a>> {
        self.0.pop()
    }

    /// The path with `.key` appended.
    pub(crate) fn to(&self, key: &str) -> String {
        format!("{self}.{key}")
    }
}

impl std::fmt::Display for JsonPath<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("$")?;
        for seg in &self.0 {
            match seg {
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Name(n) => write!(f, ".{n}")?,
                Seg::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

/// A manifest that cannot be used, with the JSON path of the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbiError {
    pub path: String,
    pub message: String,
}

impl AbiError {
    pub(crate) fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        AbiError {
            path: path.into(),
            message: message.into(),
        }
    }
}
