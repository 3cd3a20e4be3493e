//! `catalog`: where apps come from, which one a name means, which context a
//! call runs in and with which version's ABI — decided here once, for both
//! faces.
//!
//! Apps are gathered from `--apps` directories (and `CALIMCP_APPS`), then from
//! paths named on the command line, then from the node ([`node`]); the one
//! rule that puts them together (identity across nodes, versions as one app,
//! local apps shadowing the node's, stable names) is [`assemble`], and which
//! node rows a local app is — by its module's bytes — is [`identity`]. A
//! [`session::Session`] (one per command, one per server) reads the options
//! once, makes the node client on first use, and answers through these rules:
//! [`resolve`] names, [`context`] contexts (a context is used only with its
//! own app), [`version`] the ABI of the version a context runs, [`invoke`]
//! the checked call, [`call`] the one call pipeline both faces take (bind,
//! version, the method's kind decisions, check, send, explain), [`wait`]
//! waiting for a context's state or a view's result at one pace, [`blobs`]
//! the node's blob store (a blob an app's module is kept unless forced). The faces
//! get one [`Catalog`]: the apps, the tool set `mapping` built for all of
//! them (so names never depend on what a command narrows to), and every
//! warning met on the way.

pub mod accounts;
pub mod assemble;
pub mod backend;
pub mod blobs;
pub mod call;
pub mod context;
pub mod describe;
pub mod events;
pub mod identity;
pub mod invoke;
pub mod lifecycle;
pub mod node;
pub mod resolve;
pub mod send;
pub mod session;
pub mod version;
pub mod wait;

/// Ids in the node's forms (base58 before rc.27, 64 hex after): compared,
/// converted and keyed as the node layer reads them.
pub use calimcp_node::ids;
/// W3C trace headers carried by the node requests of a piece of work.
pub use calimcp_node::trace;

use std::path::{Path, PathBuf};

use calimcp_core::abi::{self, App, LoadOptions, Warning};
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::mapping::{self, ToolOptions, ToolSet};

/// What to gather.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    pub apps_dirs: Vec<PathBuf>,
    /// Paths given as APP arguments (files, bundles, directories).
    pub paths: Vec<PathBuf>,
    pub load: LoadOptions,
}

/// Every known app and its tools.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub apps: Vec<App>,
    pub tools: ToolSet,
    /// Entries of apps directories that could not be loaded.
    pub skipped: Vec<Warning>,
    /// Compiled input schemas, parallel to `tools.tools`, filled on first use.
    pub validators:
        Vec<std::sync::OnceLock<std::sync::Arc<calimcp_core::mapping::args::Validator>>>,
    /// Node apps whose ABI could not be read (no services), and why.
    pub unusable: Vec<(App, Error)>,
}

/// Whether an APP argument names a path rather than an app.
pub fn looks_like_path(arg: &str) -> bool {
    Path::new(arg).exists()
        || arg.contains('/')
        || arg.contains(std::path::MAIN_SEPARATOR)
        || [".json", ".wasm", ".mpk"]
            .iter()
            .any(|ext| arg.ends_with(ext))
}

impl Catalog {
    /// Loads every source. An unreadable apps directory or path is an error;
    /// a bad entry inside an apps directory is a warning.
    /// Also returns, for each of `sources.paths`, the indexes of the apps it held.
    pub fn load(sources: &Sources, opts: &ToolOptions) -> Result<(Catalog, Vec<Vec<usize>>)> {
        let mut apps: Vec<App> = Vec::new();
        let mut skipped = Vec::new();
        for dir in &sources.apps_dirs {
            if !dir.is_dir() {
                return Err(Error::input(
                    Code::Unreadable,
                    format!("--apps {}: not a directory", dir.display()),
                )
                .with_hint("--apps takes a directory of bundles, .mpk files and manifests"));
            }
            let mut ws = Vec::new();
            let found = abi::load_apps_dir(dir, &mut ws)?;
            for mut w in ws {
                if w.source.is_empty() {
                    w.source = dir.display().to_string();
                }
                skipped.push(w);
            }
            add(&mut apps, found);
        }
        let mut explicit = Vec::new();
        for path in &sources.paths {
            let mut ws = Vec::new();
            let found = abi::load_path(path, &sources.load, &mut ws)?;
            if found.is_empty() {
                return Err(Error::input(Code::NoApps, format!("{}: no apps found in this directory", path.display()))
                    .with_hint("a directory of apps holds bundle directories (with manifest.json), .mpk files, .json manifests or .wasm modules"));
            }
            skipped.extend(ws);
            explicit.push(add(&mut apps, found));
        }
        Ok((Catalog::new(apps, skipped, opts), explicit))
    }

    /// A catalog of `apps`, with their tool set built.
    pub fn new(apps: Vec<App>, skipped: Vec<Warning>, opts: &ToolOptions) -> Catalog {
        let local = apps.len();
        Catalog::ranked(apps, local, skipped, opts)
    }

    /// A catalog whose first `local` apps are named before the others (see
    /// [`mapping::toolset::build_ranked`]).
    pub(crate) fn ranked(
        apps: Vec<App>,
        local: usize,
        skipped: Vec<Warning>,
        opts: &ToolOptions,
    ) -> Catalog {
        let tools = mapping::toolset::build_ranked(&apps, local, opts);
        Catalog::from_parts(apps, tools, skipped)
    }

    /// A catalog of `apps` and the tool set built for them.
    pub(crate) fn from_parts(apps: Vec<App>, tools: ToolSet, skipped: Vec<Warning>) -> Catalog {
        let validators = tools
            .tools
            .iter()
            .map(|_| std::sync::OnceLock::new())
            .collect();
        Catalog {
            apps,
            tools,
            skipped,
            validators,
            unusable: Vec::new(),
        }
    }

    /// The index of the app `query` names (a path already loaded, or a name).
    /// A name that only a node app without a readable ABI answers to gets
    /// that app's error.
    pub fn resolve(&self, query: &str) -> Result<usize> {
        resolve::resolve(&self.apps, query).map_err(|e| {
            let shells: Vec<App> = self.unusable.iter().map(|(a, _)| a.clone()).collect();
            match resolve::resolve(&shells, query) {
                Ok(i) if e.code == Code::UnknownApp => self.unusable[i].1.clone(),
                _ => e,
            }
        })
    }
}

/// Adds apps not already present (by id); returns the indexes of the given apps.
fn add(apps: &mut Vec<App>, found: Vec<App>) -> Vec<usize> {
    let mut idx = Vec::new();
    for app in found {
        match apps.iter().position(|a| a.id == app.id) {
            Some(i) => idx.push(i),
            None => {
                apps.push(app);
                idx.push(apps.len() - 1);
            }
        }
    }
    idx
}
