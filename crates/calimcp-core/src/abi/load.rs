//! Loading apps from local paths: a JSON manifest, a `.wasm`, an `.mpk`, a
//! bundle directory, or a directory of those.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use sha2::{Digest, Sha256};

use super::bundle::{BundleFiles, DirFiles, MpkFiles, load_bundle};
use super::model::Manifest;
use super::{Warning, lint, parse};
use crate::error::{Code, Error, Result};

/// An application: one or more services, each with its own manifest.
#[derive(Debug, Clone, Default)]
pub struct App {
    /// Application id: the node's id, or for a local app a short hash of its
    /// package and ABI content (stable across runs and machines).
    pub id: AppId,
    pub package: Option<String>,
    /// The package is only the file's name (a bare manifest or module, no
    /// `--package`): a node app this app is lends its own package, version
    /// and name (the catalog's shadowing rule).
    pub package_from_file: bool,
    pub version: Option<String>,
    /// The bundle's `metadata.name`, if any.
    pub name: Option<String>,
    /// The guide in its metadata (a node app's, a bundle's), bounded.
    pub guide: Option<super::meta::Guide>,
    /// The icon in its metadata (a `data:image/` or `https://` URL), bounded;
    /// shared with each of its tools.
    pub icon: Option<Arc<str>>,
    /// Where it came from: a path, or the node URL.
    pub source: String,
    pub services: Vec<Service>,
    /// Warnings found while loading, already labelled with their source.
    pub warnings: Vec<Warning>,
    /// Who published it: the node's `signer_id` (node apps only).
    pub signer: Option<String>,
    /// The id a node gives this module's bytes as a blob (a `.wasm` read from
    /// a file), or the node's bytecode blob of a node app: same code, same id.
    pub code_blob: Option<[u8; 32]>,
    /// The node's application rows that are this app, newest version first:
    /// a node lists each installed version of a package as an application of
    /// its own. Empty for an app the node was not asked about or does not have.
    pub installs: Vec<Install>,
}

/// One of the node's application rows of an app (one version of it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Install {
    /// The node's application id.
    pub id: String,
    pub version: Option<String>,
    /// Why its ABI could not be read, when it could not.
    pub unusable: Option<String>,
}

impl App {
    /// The package if known, else the id: what names and messages use.
    pub fn package_or_id(&self) -> &str {
        // Not `unwrap_or(&self.id)`: that would hash a local id to throw it away.
        self.package.as_deref().unwrap_or_else(|| self.id.as_str())
    }

    /// The service called `name` (`None`: the unnamed service of a single-service app).
    pub fn service(&self, name: Option<&str>) -> Option<&Service> {
        self.services.iter().find(|s| s.name.as_deref() == name)
    }
}

/// One service of an app. Single-service apps have one, unnamed.
#[derive(Debug, Clone, Default)]
pub struct Service {
    pub name: Option<String>,
    pub manifest: std::sync::Arc<Manifest>,
}

/// Options for loading bare manifests.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// The package of a bare manifest (else its file name).
    pub package: Option<String>,
}

/// An application id ([`App::id`]). A local app's is hashed from its package
/// and ABI bytes on first use: `tools --json` and `schema` on one file never
/// read it, and hashing the manifest was a quarter of their instructions
/// under callgrind (BENCHMARKS.md, "Start-up"). Compares, orders and prints
/// as the id text.
#[derive(Clone, Default)]
pub struct AppId {
    id: OnceLock<String>,
    /// What a local id is hashed from.
    from: Option<Arc<LocalSource>>,
}

/// The package and ABI bytes of a local app ([`local_id`]).
struct LocalSource {
    package: Option<String>,
    abis: Vec<Vec<u8>>,
}

impl AppId {
    /// A local app's id ([`local_id`]), hashed when first read.
    pub(crate) fn local(package: Option<&str>, abis: Vec<Vec<u8>>) -> AppId {
        AppId {
            id: OnceLock::new(),
            from: Some(Arc::new(LocalSource {
                package: package.map(str::to_string),
                abis,
            })),
        }
    }

    /// Whether the id has been worked out (always, for one given as text).
    #[cfg(test)]
    pub(crate) fn is_known(&self) -> bool {
        self.id.get().is_some()
    }

    pub fn as_str(&self) -> &str {
        self.id.get_or_init(|| match &self.from {
            Some(from) => local_id(from.package.as_deref(), &from.abis),
            None => String::new(),
        })
    }
}

impl From<String> for AppId {
    fn from(id: String) -> AppId {
        AppId {
            id: OnceLock::from(id),
            from: None,
        }
    }
}

impl From<&str> for AppId {
    fn from(id: &str) -> AppId {
        AppId::from(id.to_string())
    }
}

impl std::ops::Deref for AppId {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for AppId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for AppId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for AppId {
    fn eq(&self, other: &AppId) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for AppId {}

impl PartialOrd for AppId {
    fn partial_cmp(&self, other: &AppId) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for AppId {
    fn cmp(&self, other: &AppId) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialEq<str> for AppId {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for AppId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// The local application id: 16 hex digits of SHA-256 over the package and the ABI bytes.
pub(crate) fn local_id(package: Option<&str>, abis: &[Vec<u8>]) -> String {
    let mut h = Sha256::new();
    h.update(package.unwrap_or_default().as_bytes());
    for abi in abis {
        h.update([0]);
        h.update(abi);
    }
    let digest = h.finalize();
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

fn invalid(source: &str, path: &str, message: &str) -> Error {
    Error::input(
        Code::InvalidManifest,
        format!("{source}: invalid ABI manifest at {path}: {message}"),
    )
}

/// Parses and lints a JSON manifest; warnings are labelled with `source`.
pub fn manifest_from_json(
    bytes: &[u8],
    source: &str,
    warnings: &mut Vec<Warning>,
) -> Result<Manifest> {
    let mut ws = Vec::new();
    let m =
        parse::parse_manifest(bytes, &mut ws).map_err(|e| invalid(source, &e.path, &e.message))?;
    Ok(linted(m, ws, source, warnings))
}

/// [`manifest_from_json`] for a manifest that is already JSON (e.g. from the node).
pub fn manifest_from_value(
    value: &serde_json::Value,
    source: &str,
    warnings: &mut Vec<Warning>,
) -> Result<Manifest> {
    let mut ws = Vec::new();
    let m = parse::parse_manifest_value(value, &mut ws)
        .map_err(|e| invalid(source, &e.path, &e.message))?;
    Ok(linted(m, ws, source, warnings))
}

/// Adds the lint findings and labels every warning with `source`.
fn linted(
    m: Manifest,
    mut ws: Vec<Warning>,
    source: &str,
    warnings: &mut Vec<Warning>,
) -> Manifest {
    ws.extend(lint::lint(&m));
    if m.methods.is_empty() {
        ws.push(Warning::new(
            "$.methods",
            "no methods: a state schema only, so it yields no tools",
        ));
    }
    for mut w in ws {
        w.source = source.to_string();
        warnings.push(w);
    }
    m
}

/// Reads the embedded ABI of a module by the node's rule
/// (`read_embedded_state_schema_versioned`, calimero-wasm-abi `src/embed.rs`
/// at 0.11.0-rc.25): the last section the node accepts (it parses and
/// `validate_manifest` passes) wins; failing that, the last of another
/// schema major (the node holds it as present but opaque). A section that
/// does not parse, or parses but is refused, is ignored like an absent one.
/// When no section is usable the last that parses is returned, so its
/// refusals are reported (the node ignores such a module's ABI).
/// Returns the section's JSON bytes and the manifest.
pub fn load_wasm_bytes(
    module: &[u8],
    source: &str,
    warnings: &mut Vec<Warning>,
) -> Result<(Vec<u8>, Manifest)> {
    let sections = super::wasm::abi_sections(module)
        .map_err(|e| Error::input(Code::InvalidWasm, format!("{source}: {e}")))?;
    if sections.is_empty() {
        return Err(Error::input(
            Code::NoEmbeddedAbi,
            format!(
                "{source}: the module carries no embedded ABI (no `{}` custom section)",
                super::wasm::SECTION
            ),
        )
        .with_hint("build it with `cargo mero build`, or pass the app's abi.json instead"));
    }
    // (rank, index, warnings, manifest): rank 2 accepted, 1 another major, 0 refused.
    let mut best: Option<(u8, usize, Vec<Warning>, Manifest)> = None;
    let mut last_error = None;
    for (i, section) in sections.iter().enumerate() {
        let mut ws = Vec::new();
        match manifest_from_json(section, &format!("{source} (section {})", i + 1), &mut ws) {
            Ok(m) => {
                let rank = if !lint::supported_schema(&m.schema_version) {
                    1
                } else if lint::lint(&m).is_empty() {
                    2
                } else {
                    0
                };
                if best.as_ref().is_none_or(|b| rank >= b.0) {
                    best = Some((rank, i, ws, m));
                }
            }
            Err(e) => last_error = Some(e),
        }
    }
    let Some((rank, i, mut ws, m)) = best else {
        return Err(last_error.expect("at least one section was tried"));
    };
    if sections.len() > 1 {
        ws.push(Warning {
            source: source.into(),
            ..Warning::new(
                "",
                format!(
                    "the module carries {} ABI sections; using section {}, {}",
                    sections.len(),
                    i + 1,
                    match rank {
                        2 => "the last one the node accepts (it ignores the others)",
                        1 => "the last one, of a schema major the node holds as opaque (none is accepted)",
                        _ => "the last that parses (the node accepts none of them)",
                    }
                ),
            )
        });
    }
    warnings.extend(ws);
    Ok((sections[i].to_vec(), m))
}

fn read(path: &Path) -> Result<Vec<u8>> {
    read_regular(path).map_err(|e| {
        Error::input(
            Code::Unreadable,
            format!("cannot read {}: {e}", path.display()),
        )
    })
}

/// Reads a regular file; anything else (a FIFO, a device, a socket, which
/// could block forever or never end) is refused before it is opened.
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other(
            "not a regular file (a FIFO, device or socket is not read)",
        ));
    }
    if meta.len() > MAX_FILE {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB, the most calimcp reads of a manifest, module or bundle",
            MAX_FILE >> 20
        )));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0) + 1);
    crate::memory::prefault_spare(&mut bytes);
    std::io::Read::read_to_end(&mut std::fs::File::open(path)?, &mut bytes)?;
    Ok(bytes)
}

/// The id a Calimero node gives `bytes` when it stores them as a blob:
/// SHA-256 over the SHA-256 of each 1 MiB chunk (calimero-blobstore `put`).
pub(crate) fn blob_id(bytes: &[u8]) -> [u8; 32] {
    let mut outer = Sha256::new();
    for chunk in bytes.chunks(1 << 20) {
        outer.update(Sha256::digest(chunk));
    }
    outer.finalize().into()
}

/// The largest local file read (a manifest, a module, an `.mpk`).
pub const MAX_FILE: u64 = 512 << 20;

/// The package of a bare manifest or module: its file name without the
/// extension — except `abi` (`res/abi.json`, the layout every Calimero app
/// has): then the app's directory, the nearest one above that is not a build
/// directory (`res`, `target`, `release`, …) or hidden.
fn stem(path: &Path) -> String {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name != "abi" {
        return name;
    }
    const BUILD_DIRS: &[&str] = &[
        "res",
        "target",
        "release",
        "debug",
        "build",
        "out",
        "app-release",
        "wasm32-unknown-unknown",
    ];
    let full = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    full.ancestors()
        .skip(1)
        .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .find(|n| !BUILD_DIRS.contains(&n.as_str()) && !n.starts_with('.'))
        .unwrap_or(name)
}

/// A bare manifest or module file: one single-service app.
fn load_file(path: &Path, opts: &LoadOptions) -> Result<App> {
    let source = path.display().to_string();
    let bytes = read(path)?;
    let is_wasm = bytes.starts_with(b"\0asm") || path.extension().is_some_and(|e| e == "wasm");
    if !is_wasm && path.file_name().is_some_and(|n| n == "manifest.json") {
        return load_bundle(&DirFiles(path.parent().unwrap_or(Path::new("."))), &source);
    }
    let package = opts.package.clone().unwrap_or_else(|| stem(path));
    let mut app = app_from_bytes(bytes, is_wasm, package, source)?;
    app.package_from_file = opts.package.is_none();
    Ok(app)
}

/// One single-service app from the bytes of a manifest (`wasm-abi/1` JSON)
/// or, with `wasm`, a module with its ABI embedded: what a file and stdin
/// (`-` as APP) hold alike. Its code's blob id is kept for a module.
pub fn app_from_bytes(bytes: Vec<u8>, wasm: bool, package: String, source: String) -> Result<App> {
    let mut warnings = Vec::new();
    let code_blob = wasm.then(|| blob_id(&bytes));
    let (abi_bytes, manifest) = if wasm {
        load_wasm_bytes(&bytes, &source, &mut warnings)?
    } else {
        let m = manifest_from_json(&bytes, &source, &mut warnings)?;
        (bytes, m)
    };
    Ok(App {
        id: AppId::local(Some(&package), vec![abi_bytes]),
        code_blob,
        package: Some(package),
        source,
        services: vec![super::load::Service {
            name: None,
            manifest: manifest.into(),
        }],
        warnings,
        ..App::default()
    })
}

/// What `path` holds, for deciding how to read it.
enum Kind {
    BundleDir,
    AppsDir,
    Mpk,
    File,
}

fn kind(path: &Path) -> Result<Kind> {
    let meta = std::fs::metadata(path).map_err(|e| {
        Error::input(
            Code::Unreadable,
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    Ok(if meta.is_dir() {
        if path.join("manifest.json").is_file() {
            Kind::BundleDir
        } else {
            Kind::AppsDir
        }
    } else if path.extension().is_some_and(|e| e == "mpk") {
        Kind::Mpk
    } else {
        Kind::File
    })
}

/// Loads one app from a file or bundle (not a directory of apps).
fn load_one(path: &Path, opts: &LoadOptions) -> Result<App> {
    let mut app = match kind(path)? {
        Kind::BundleDir => load_bundle(&DirFiles(path), &path.display().to_string())?,
        Kind::Mpk => {
            let files = MpkFiles::open(&read(path)?).map_err(|e| {
                Error::input(Code::InvalidBundle, format!("{}: {e}", path.display()))
            })?;
            load_bundle(&files, &path.display().to_string())?
        }
        Kind::File => return load_file(path, opts),
        Kind::AppsDir => return Err(Error::internal("load_one on a directory")),
    };
    // A bundle names its own package: --package does not apply to it.
    if let Some(given) = &opts.package {
        app.warnings.push(Warning {
            source: app.source.clone(),
            ..Warning::new(
                "",
                format!(
                    "--package {} is ignored: the bundle names its own package ({})",
                    crate::text::sanitize_line(given),
                    crate::text::sanitize_line(app.package_or_id())
                ),
            )
        });
    }
    Ok(app)
}

/// The `metadata` object of the bundle at `path` (a bundle directory or an
/// `.mpk`): what `app install` stores as the app's metadata when none is
/// given. `None` for anything else, or a bundle whose manifest has none.
pub fn bundle_metadata(path: &Path) -> Result<Option<serde_json::Value>> {
    let raw = match kind(path)? {
        Kind::BundleDir => DirFiles(path).read("manifest.json"),
        Kind::Mpk => MpkFiles::open(&read(path)?).and_then(|f| f.read("manifest.json")),
        Kind::File | Kind::AppsDir => return Ok(None),
    };
    let bad = |e: String| {
        Error::input(
            Code::InvalidBundle,
            format!("{}: manifest.json: {e}", path.display()),
        )
    };
    let raw = raw.map_err(bad)?;
    let manifest: serde_json::Value =
        serde_json::from_slice(&raw).map_err(|e| bad(e.to_string()))?;
    Ok(manifest.get("metadata").filter(|m| m.is_object()).cloned())
}

/// Loads what `path` holds: one app, or for a directory of apps every app in it.
/// In a directory, entries that fail to load become warnings (in `skipped`).
pub fn load_path(path: &Path, opts: &LoadOptions, skipped: &mut Vec<Warning>) -> Result<Vec<App>> {
    match kind(path)? {
        Kind::AppsDir => load_apps_dir(path, skipped),
        _ => load_one(path, opts).map(|a| vec![a]),
    }
}

/// Every app in a directory: bundle subdirectories, `.mpk` files, `.json` manifests and `.wasm` modules.
pub fn load_apps_dir(dir: &Path, skipped: &mut Vec<Warning>) -> Result<Vec<App>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Error::input(
            Code::Unreadable,
            format!("cannot read the apps directory {}: {e}", dir.display()),
        )
    })?;
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    let mut apps = Vec::new();
    for p in paths {
        let wanted = if p.is_dir() {
            p.join("manifest.json").is_file()
        } else {
            p.extension()
                .is_some_and(|e| e == "mpk" || e == "json" || e == "wasm")
        };
        if !wanted {
            continue;
        }
        match load_one(&p, &LoadOptions::default()) {
            Ok(app) => apps.push(app),
            Err(e) => skipped.push(Warning {
                source: String::new(),
                ..Warning::new("", format!("skipped: {}", e.message))
            }),
        }
    }
    Ok(apps)
}

#[cfg(test)]
mod blob_tests {
    #[test]
    fn blob_ids_are_the_nodes() {
        // sha256(sha256("hello")): one chunk.
        let hex: String = super::blob_id(b"hello")
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hex,
            "9595c9df90075148eb06860365df33584b75bff782a510c6cd4883a419833d50"
        );
        // Two chunks hash differently from one.
        let big = vec![7u8; (1 << 20) + 1];
        assert_ne!(super::blob_id(&big), super::blob_id(&big[..1 << 20]));
    }
}

#[cfg(test)]
mod section_tests {
    fn module(sections: &[&[u8]]) -> Vec<u8> {
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        for payload in sections {
            let name = super::super::wasm::SECTION.as_bytes();
            let mut body = vec![u8::try_from(name.len()).unwrap()];
            body.extend_from_slice(name);
            body.extend_from_slice(payload);
            m.push(0);
            // One LEB128 byte is enough for these small test sections.
            m.push(u8::try_from(body.len()).unwrap());
            m.extend(body);
        }
        m
    }

    fn methods(ms: &[&str]) -> Vec<u8> {
        let list: Vec<String> = ms
            .iter()
            .map(|m| format!(r#"{{"name":"{m}","params":[]}}"#))
            .collect();
        format!(
            r#"{{"schema_version":"wasm-abi/1","types":{{}},"methods":[{}]}}"#,
            list.join(",")
        )
        .into_bytes()
    }

    fn names(module: &[u8]) -> Vec<String> {
        let (_, m) = super::load_wasm_bytes(module, "t.wasm", &mut Vec::new()).unwrap();
        m.methods.into_iter().map(|m| m.name).collect()
    }

    #[test]
    fn the_last_section_the_node_accepts_wins() {
        let (a, b, unsorted) = (methods(&["a"]), methods(&["b"]), methods(&["z", "a"]));
        assert_eq!(names(&module(&[&a, &b])), ["b"]);
        // Parses, but the node refuses it: the earlier valid one.
        assert_eq!(names(&module(&[&a, &unsorted])), ["a"]);
        assert_eq!(names(&module(&[&unsorted, &a])), ["a"]);
        // None accepted: the last that parses (its refusal is reported later).
        assert_eq!(names(&module(&[&unsorted, b"{"])), ["z", "a"]);
    }
}

#[cfg(test)]
mod id_tests {
    use super::AppId;

    #[test]
    fn a_local_id_is_hashed_when_first_read_and_reads_as_before() {
        let id = AppId::local(Some("kv"), vec![b"{}".to_vec()]);
        let copy = id.clone();
        assert!(!id.is_known(), "hashed before anyone read it");
        // sha256("kv" 0x00 "{}"), first 8 bytes: the id local apps always had.
        assert_eq!(id, "6b860d3f304b9118");
        assert_eq!(copy.as_str(), id.as_str());
        assert_eq!(id.to_string(), "6b860d3f304b9118");
    }

    #[test]
    fn ids_compare_and_order_as_their_text() {
        let local = AppId::local(Some("kv"), vec![b"{}".to_vec()]);
        assert_eq!(local, AppId::from("6b860d3f304b9118"));
        assert_eq!(
            AppId::from("a").cmp(&AppId::from("b")),
            std::cmp::Ordering::Less
        );
        assert_eq!(format!("{:?}", AppId::from("x")), "\"x\"");
    }
}
