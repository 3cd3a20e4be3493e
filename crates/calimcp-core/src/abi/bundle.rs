//! Bundles: an unpacked directory or an `.mpk` (tar.gz) with `manifest.json`.
//!
//! A single-service bundle names its ABI with `abi.path` (or only its `wasm`,
//! whose custom section then carries the ABI); a multi-service bundle lists
//! `services[]`, each with its own `name`, `abi` and `wasm`.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Component, Path};

use serde_json::Value;

use super::load::{App, Service, load_wasm_bytes, manifest_from_json};
use crate::error::{Code, Error, Result};

/// Unpacked bundles are read through this: a path inside the bundle → bytes.
pub(crate) trait BundleFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;
}

/// A bundle directory on disk.
pub(crate) struct DirFiles<'a>(pub &'a Path);

impl BundleFiles for DirFiles<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let rel = Path::new(path);
        if rel
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return Err(format!("path {path:?} leaves the bundle"));
        }
        let full = self.0.join(rel);
        // A symlink may point anywhere: the file must resolve inside the bundle.
        let inside = match (std::fs::canonicalize(self.0), std::fs::canonicalize(&full)) {
            (Ok(root), Ok(file)) => file.starts_with(root),
            (_, Err(e)) => return Err(format!("{}: {e}", full.display())),
            (Err(e), _) => return Err(format!("{}: {e}", self.0.display())),
        };
        if !inside {
            return Err(format!(
                "path {path:?} leaves the bundle (through a symlink)"
            ));
        }
        super::load::read_regular(&full).map_err(|e| format!("{}: {e}", full.display()))
    }
}

/// An `.mpk` read into memory.
pub(crate) struct MpkFiles(HashMap<String, Vec<u8>>);

/// Upper bound on what an `.mpk` may unpack to, against gzip bombs.
const MAX_MPK_BYTES: u64 = 512 * 1024 * 1024;

fn normalize(path: &str) -> String {
    path.trim_start_matches("./")
        .trim_start_matches('/')
        .to_string()
}

/// Counts what the decoder yields, so that hitting the cap can be told from
/// a truncated archive.
struct Counted<R> {
    inner: R,
    read: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

impl MpkFiles {
    /// Reads an archive in two streaming passes: `manifest.json` first, then
    /// only the files it names (every other entry is skipped unread), the
    /// whole unpacking capped at [`MAX_MPK_BYTES`].
    pub(crate) fn open(bytes: &[u8]) -> Result<Self, String> {
        Self::open_capped(bytes, MAX_MPK_BYTES)
    }

    fn open_capped(bytes: &[u8], cap: u64) -> Result<Self, String> {
        let manifest = Self::pass(bytes, &|p| p == "manifest.json", cap)?;
        let Some(raw) = manifest.get("manifest.json") else {
            return Ok(MpkFiles(manifest));
        };
        let named: std::collections::HashSet<String> = match serde_json::from_slice::<Value>(raw) {
            Ok(v) => services_of(&v)
                .iter()
                .flat_map(|(_, e)| [field_path(e, "abi"), field_path(e, "wasm")])
                .flatten()
                .map(normalize)
                .collect(),
            Err(_) => Default::default(),
        };
        let mut files = Self::pass(bytes, &|p| named.contains(p), cap)?;
        files.extend(manifest);
        Ok(MpkFiles(files))
    }

    /// One pass over the archive, keeping the files `keep` wants.
    fn pass(
        bytes: &[u8],
        keep: &dyn Fn(&str) -> bool,
        cap: u64,
    ) -> Result<HashMap<String, Vec<u8>>, String> {
        let read = std::rc::Rc::new(std::cell::Cell::new(0));
        let gz = Counted {
            inner: flate2::read::GzDecoder::new(bytes),
            read: read.clone(),
        }
        .take(cap);
        let too_big = || {
            format!(
                "unpacks to more than {} MiB, the most calimcp reads",
                cap >> 20
            )
        };
        let mut archive = tar::Archive::new(gz);
        let mut files = HashMap::new();
        let entries = archive
            .entries()
            .map_err(|e| format!("not a tar.gz archive: {e}"))?;
        for entry in entries {
            let mut entry = entry.map_err(|e| {
                if read.get() >= cap {
                    too_big()
                } else {
                    format!("corrupt archive: {e}")
                }
            })?;
            if !entry.header().entry_type().is_file() {
                continue;
            }
            let path = entry
                .path()
                .map_err(|e| format!("corrupt archive path: {e}"))?
                .to_string_lossy()
                .into_owned();
            let path = normalize(&path);
            if !keep(&path) {
                continue;
            }
            let mut data = Vec::new();
            entry.read_to_end(&mut data).map_err(|e| {
                if read.get() >= cap {
                    too_big()
                } else {
                    format!("corrupt archive entry {path:?}: {e}")
                }
            })?;
            files.insert(path, data);
        }
        if read.get() >= cap {
            return Err(too_big());
        }
        Ok(files)
    }
}

impl BundleFiles for MpkFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.0
            .get(&normalize(path))
            .cloned()
            .ok_or_else(|| format!("{path:?} is not in the archive"))
    }
}

fn field_path<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    match v.get(key)? {
        Value::String(s) => Some(s),
        obj => obj.get("path")?.as_str(),
    }
}

/// Loads a bundle whose files are reachable through `files`; `source` names it in messages.
pub(crate) fn load_bundle(files: &dyn BundleFiles, source: &str) -> Result<App> {
    let bad = |msg: String| Error::input(Code::InvalidBundle, format!("{source}: {msg}"));
    let raw = files
        .read("manifest.json")
        .map_err(|e| bad(format!("cannot read manifest.json: {e}")))?;
    let manifest: Value = serde_json::from_slice(&raw)
        .map_err(|e| bad(format!("manifest.json is not valid JSON: {e}")))?;
    if !manifest.is_object() {
        return Err(bad("manifest.json is not a JSON object".into()));
    }
    let text = |keys: &[&str]| {
        let mut v = &manifest;
        for k in keys {
            v = v.get(*k)?;
        }
        v.as_str().map(crate::text::sanitize_line)
    };
    let mut app = App {
        package: text(&["package"]),
        version: text(&["appVersion"]),
        name: text(&["metadata", "name"]),
        source: source.to_string(),
        ..App::default()
    };
    let mut warnings = Vec::new();
    if let Some(meta) = manifest.get("metadata").and_then(Value::as_object) {
        (app.guide, app.icon) = super::meta::from_metadata(meta, &mut warnings);
        for w in &mut warnings {
            w.source = format!("{source}: manifest.json");
        }
    }
    let services = services_of(&manifest);
    let mut blobs = Vec::new();
    for abi in service_abis(files, source, &services, &mut warnings)? {
        let mut ws = Vec::new();
        let manifest = manifest_from_json(&abi.json, &abi.label, &mut ws)?;
        warnings.extend(ws);
        blobs.push(abi.json);
        app.services.push(Service {
            name: abi.name,
            manifest: manifest.into(),
        });
    }
    app.warnings = warnings;
    app.id = super::load::AppId::local(app.package.as_deref(), blobs);
    Ok(app)
}

/// One service's ABI in a bundle, as JSON bytes (the `abi` file, or the
/// `calimero_abi_v1` section of its `wasm`), with the label messages use.
pub struct ServiceAbi {
    pub name: Option<String>,
    pub label: String,
    pub json: Vec<u8>,
}

/// The services of a bundle's `manifest.json` (`services[]`, or the
/// manifest itself for a single-service bundle) and their ABIs.
fn service_abis(
    files: &dyn BundleFiles,
    source: &str,
    services: &[(Option<String>, &Value)],
    warnings: &mut Vec<super::Warning>,
) -> Result<Vec<ServiceAbi>> {
    let bad = |msg: String| Error::input(Code::InvalidBundle, format!("{source}: {msg}"));
    let mut out = Vec::new();
    for (i, (name, entry)) in services.iter().enumerate() {
        let label = match name {
            Some(n) => format!("{source} (service {n})"),
            None if services.len() > 1 => format!("{source} (services[{i}])"),
            None => source.to_string(),
        };
        if services.len() > 1 && name.is_none() {
            return Err(bad(format!("services[{i}] has no `name`")));
        }
        let (json, label) = if let Some(abi_path) = field_path(entry, "abi") {
            let bytes = files
                .read(abi_path)
                .map_err(|e| bad(format!("cannot read the ABI {abi_path:?}: {e}")))?;
            (bytes, format!("{label}: {abi_path}"))
        } else if let Some(wasm_path) = field_path(entry, "wasm") {
            let bytes = files
                .read(wasm_path)
                .map_err(|e| bad(format!("cannot read the module {wasm_path:?}: {e}")))?;
            let label = format!("{label}: {wasm_path}");
            let (json, _) = load_wasm_bytes(&bytes, &label, warnings)?;
            (json, label)
        } else {
            return Err(bad(format!(
                "{label} names neither an `abi` nor a `wasm` file"
            )));
        };
        out.push(ServiceAbi {
            name: name.clone(),
            label,
            json,
        });
    }
    Ok(out)
}

/// The ABIs of an `.mpk` held in memory (an app's bundle blob on a node):
/// each service's name and ABI JSON bytes.
pub fn mpk_abis(bytes: &[u8], source: &str) -> Result<Vec<ServiceAbi>> {
    let bad = |msg: String| Error::input(Code::InvalidBundle, format!("{source}: {msg}"));
    let files = MpkFiles::open(bytes).map_err(bad)?;
    let raw = files
        .read("manifest.json")
        .map_err(|e| bad(format!("cannot read manifest.json: {e}")))?;
    let manifest: Value = serde_json::from_slice(&raw)
        .map_err(|e| bad(format!("manifest.json is not valid JSON: {e}")))?;
    let services = services_of(&manifest);
    let mut ignored = Vec::new();
    service_abis(&files, source, &services, &mut ignored)
}

/// A bundle manifest's services: `services[]` with their names, or the
/// manifest itself for a single-service bundle.
fn services_of(manifest: &Value) -> Vec<(Option<String>, &Value)> {
    match manifest.get("services") {
        Some(Value::Array(list)) if !list.is_empty() => list
            .iter()
            .map(|s| (s.get("name").and_then(Value::as_str).map(str::to_string), s))
            .collect(),
        _ => vec![(None, manifest)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mpk(files: &[(&str, &[u8])]) -> Vec<u8> {
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut tar = tar::Builder::new(gz);
        for (name, bytes) in files {
            let mut h = tar::Header::new_gnu();
            h.set_size(bytes.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            tar.append_data(&mut h, name, *bytes).unwrap();
        }
        tar.into_inner().unwrap().finish().unwrap()
    }

    #[test]
    fn only_the_files_the_manifest_names_are_kept() {
        let manifest = br#"{"abi":{"path":"abi.json"}}"#;
        let big = vec![0u8; 3 << 20];
        let bytes = mpk(&[
            ("junk.bin", &big),
            ("abi.json", b"{}"),
            ("manifest.json", manifest),
        ]);
        let files = MpkFiles::open(&bytes).unwrap();
        assert_eq!(files.read("abi.json").unwrap(), b"{}");
        assert!(
            files.read("junk.bin").is_err(),
            "an unnamed entry is not kept"
        );
    }

    #[test]
    fn the_manifest_metadata_gives_the_guide_and_icon() {
        let abi = include_bytes!("../../../../tests/support/abi/kv-store.json");
        let manifest = br#####"{"package":"p","appVersion":"1.0.0","abi":{"path":"abi.json"},
            "metadata":{"name":"KV","guide":"## Procedures\n### Store a value\n","icon":"icon.png"}}"#####;
        let bytes = mpk(&[("manifest.json", manifest), ("abi.json", abi)]);
        let files = MpkFiles::open(&bytes).unwrap();
        let app = load_bundle(&files, "kv.mpk").unwrap();
        let guide = app.guide.unwrap();
        assert_eq!(guide.procedures, vec!["Store a value"]);
        // A path is no URL calimcp hands on: dropped, and said.
        assert_eq!(app.icon, None);
        let w = app
            .warnings
            .iter()
            .find(|w| w.path == "metadata.icon")
            .unwrap();
        assert_eq!(w.source, "kv.mpk: manifest.json");
    }

    #[test]
    fn an_archive_past_the_cap_says_so() {
        let big = vec![0u8; 2 << 20];
        let bytes = mpk(&[("manifest.json", b"{}"), ("big.bin", &big)]);
        let e = MpkFiles::open_capped(&bytes, 1 << 20).err().unwrap();
        assert!(e.contains("unpacks to more than 1 MiB"), "{e}");
    }
}
