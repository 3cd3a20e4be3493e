//! Which of the node's application rows are a local app: the one rule for
//! listing, naming, installs, contexts and the foreign-context check.
//!
//! A local app and a node row are the same app when
//!
//! 1. the row has the local app's package (a node lists each installed
//!    version of a package as a row of its own: all of them are the app), or
//! 2. their module bytes are the same: a `.wasm` read from a file has the id
//!    the node gives those bytes as a blob ([`calimcp_core::abi::load::blob_id`]:
//!    SHA-256 over the SHA-256 of each 1 MiB chunk, calimero-blobstore `put`,
//!    the same from 0.10 to 0.11.0-rc.25), and a row lists its module's blob
//!    (`blob.bytecode`) — also on a node that joined a context and lists the
//!    app without package (`calimero://pending-blob-share`), so a file under
//!    any name finds its rows there; or, only when no module is at hand (an
//!    `abi.json`, a bundle),
//! 3. the row's ABI equals the local manifest (its methods' signatures and
//!    intents, its types' names and its events: what a node's ABI route
//!    keeps) — and then, when rows of two
//!    different apps have that ABI (two builds of one code under two
//!    packages, or two joined apps without package), nothing can tell which
//!    one the file is: [`Found::Ambiguous`], and the caller refuses to guess
//!    ([`ambiguous_error`]).
//!
//! A row found by 2 or 3 brings the other rows of its app (same package and
//! signer: its other versions). Pure: the rows are given, with their ABIs
//! when rule 3 may be needed.

use calimcp_core::abi::{App, Manifest};
use calimcp_core::error::{Code, Error};
use calimcp_core::mapping::signature;
use calimcp_core::text::sanitize_line;

/// The rows of a local app among the node's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Found {
    /// Indexes of its rows (none: the node does not have the app).
    Rows(Vec<usize>),
    /// No module at hand and rows of several apps have its ABI: the rows
    /// that have it, to name in the error.
    Ambiguous(Vec<usize>),
}

/// The rows (node apps, one row each, with `code_blob` and — for rule 3 —
/// their services) that are `local`.
pub(crate) fn rows_of(local: &App, rows: &[&App]) -> Found {
    let mut found: Vec<usize> = (0..rows.len())
        .filter(|&i| local.package.is_some() && rows[i].package == local.package)
        .collect();
    if let Some(blob) = module_blob(local) {
        let same: Vec<usize> = (0..rows.len())
            .filter(|&i| module_blob(rows[i]) == Some(blob))
            .collect();
        found.extend(with_their_app(rows, &same));
    } else if found.is_empty() {
        let same: Vec<usize> = (0..rows.len())
            .filter(|&i| same_abi(local, rows[i]))
            .collect();
        let mut apps: Vec<AppKey> = same.iter().map(|&i| app_key(rows[i])).collect();
        apps.sort();
        apps.dedup();
        if apps.len() > 1 {
            return Found::Ambiguous(same);
        }
        found.extend(with_their_app(rows, &same));
    }
    found.sort_unstable();
    found.dedup();
    Found::Rows(found)
}

/// Whether rule 3 may be needed for `local`: no module at hand and no row
/// of its package (then the rows' ABIs must be read to compare).
pub(crate) fn needs_abis(local: &App, rows: &[&App]) -> bool {
    module_blob(local).is_none()
        && !rows
            .iter()
            .any(|r| local.package.is_some() && r.package == local.package)
}

/// Whether two apps have the same ABI in every service, as far as a node
/// keeps it: an ABI route answers a normal form without docs and
/// idempotent/destructive flags, so signatures, intents, type names and
/// events are compared, not the manifests' text.
fn same_abi(a: &App, b: &App) -> bool {
    !a.services.is_empty()
        && a.services.len() == b.services.len()
        && a.services
            .iter()
            .zip(&b.services)
            .all(|(x, y)| x.name == y.name && digest(&x.manifest) == digest(&y.manifest))
}

/// What identifies a manifest among others: each method's signature and
/// intent, the named types, the events and their payloads.
fn digest(m: &Manifest) -> Vec<String> {
    let mut out: Vec<String> = m
        .methods
        .iter()
        .map(|x| format!("m {} {:?}", signature::signature(x), x.intent))
        .collect();
    out.extend(m.types.keys().map(|t| format!("t {t}")));
    out.extend(m.events.iter().map(|e| {
        let payload = e.payload.as_ref().map(signature::type_name);
        format!("e {} {payload:?}", e.name)
    }));
    out.sort();
    out
}

/// The module's blob id; `None` for none, and for the zero id a node writes
/// in a stub row before the app's code has come (rc.25 `sync.rs`).
fn module_blob(app: &App) -> Option<[u8; 32]> {
    app.code_blob.filter(|b| *b != [0; 32])
}

/// What makes rows one app: package and signer; a row without package is
/// an app of its own (by its module, else its id).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum AppKey {
    Package(String, Option<String>),
    Module([u8; 32]),
    Row(String),
}

fn app_key(row: &App) -> AppKey {
    match (&row.package, module_blob(row)) {
        (Some(p), _) => AppKey::Package(p.clone(), row.signer.clone()),
        (None, Some(b)) => AppKey::Module(b),
        (None, None) => AppKey::Row(row.id.to_string()),
    }
}

/// `same` and every row of the same app as one of them.
fn with_their_app(rows: &[&App], same: &[usize]) -> Vec<usize> {
    let keys: Vec<AppKey> = same.iter().map(|&i| app_key(rows[i])).collect();
    (0..rows.len())
        .filter(|&i| same.contains(&i) || keys.contains(&app_key(rows[i])))
        .collect()
}

/// The error for [`Found::Ambiguous`]: the file's app cannot be told among
/// `candidates` (rows of the node at `url`).
pub(crate) fn ambiguous_error(local: &App, candidates: &[&App], url: &str) -> Error {
    let list: Vec<String> = candidates
        .iter()
        .map(|a| {
            let version = a
                .version
                .as_deref()
                .map(|v| format!(" {}", sanitize_line(v)))
                .unwrap_or_default();
            format!(
                "\n  {}{version} (application {})",
                sanitize_line(a.package_or_id()),
                sanitize_line(&a.id)
            )
        })
        .collect();
    Error::input(
        Code::AmbiguousIdentity,
        format!(
            "{} (from {}) cannot be told apart on the node at {}: it carries no module, and several apps there have its ABI, with different code:{}",
            sanitize_line(local.package_or_id()),
            sanitize_line(&local.source),
            url,
            list.concat()
        ),
    )
    .with_hint("pass the app's .wasm (its module's bytes identify it), or name the app by the node's package or application id")
}

#[cfg(test)]
mod tests {
    use super::*;
    use calimcp_core::abi::{Manifest, Method, Service};
    use std::sync::Arc;

    fn row(id: &str, package: Option<&str>, blob: u8, methods: &[&str]) -> App {
        App {
            id: id.into(),
            package: package.map(Into::into),
            code_blob: Some([blob; 32]),
            services: vec![Service {
                name: None,
                manifest: Arc::new(Manifest {
                    methods: methods
                        .iter()
                        .map(|m| Method {
                            name: m.to_string(),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }),
            }],
            ..App::default()
        }
    }

    fn refs(rows: &[App]) -> Vec<&App> {
        rows.iter().collect()
    }

    fn file(package: &str, blob: Option<u8>, methods: &[&str]) -> App {
        App {
            code_blob: blob.map(|b| [b; 32]),
            source: "kv.wasm".into(),
            ..row("local", Some(package), 0, methods)
        }
    }

    #[test]
    fn the_module_decides_under_any_name() {
        // A joined node: two apps with one ABI, no packages.
        let rows = [row("X", None, 1, &["get"]), row("Y", None, 2, &["get"])];
        assert_eq!(
            rows_of(&file("kv", Some(1), &["get"]), &refs(&rows)),
            Found::Rows(vec![0])
        );
        assert_eq!(
            rows_of(&file("kv", Some(3), &["get"]), &refs(&rows)),
            Found::Rows(vec![])
        );
        // Node 1: the file's module is a row of another package, with its versions.
        let rows = [
            row("A2", Some("com.x.kv"), 4, &["get", "put"]),
            row("A1", Some("com.x.kv"), 1, &["get"]),
            row("B", Some("com.x.other"), 2, &["get"]),
        ];
        assert_eq!(
            rows_of(&file("kv", Some(1), &["get"]), &refs(&rows)),
            Found::Rows(vec![0, 1])
        );
        // Its own package's rows are its versions whatever their bytes.
        assert_eq!(
            rows_of(&file("com.x.other", Some(9), &["get"]), &refs(&rows)),
            Found::Rows(vec![2])
        );
    }

    #[test]
    fn without_a_module_an_abi_shared_by_two_apps_is_ambiguous() {
        let rows = [row("X", None, 1, &["get"]), row("Y", None, 2, &["get"])];
        let manifest = file("kv", None, &["get"]);
        assert!(needs_abis(&manifest, &refs(&rows)));
        assert_eq!(
            rows_of(&manifest, &refs(&rows)),
            Found::Ambiguous(vec![0, 1])
        );
        // One app with that ABI (two versions of one package): it is that app.
        let rows = [
            row("A2", Some("com.x.kv"), 4, &["get"]),
            row("A1", Some("com.x.kv"), 1, &["get"]),
            row("B", Some("com.x.b"), 2, &["put"]),
        ];
        assert_eq!(rows_of(&manifest, &refs(&rows)), Found::Rows(vec![0, 1]));
        // The zero blob of a stub row is no module: a file never matches it.
        let stub = App {
            code_blob: Some([0; 32]),
            ..row("S", None, 0, &["get"])
        };
        let zero = file("kv", Some(5), &["get"]);
        assert_eq!(rows_of(&zero, &[&stub]), Found::Rows(vec![]));
    }
}
