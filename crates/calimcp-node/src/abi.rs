//! An app's ABI manifest from any node.
//!
//! Three sources, tried in order: the on-disk cache (keyed by the node, the
//! application id, the service's bytecode blob id — a hash of the module —
//! and the service name, so a new version is fetched anew and one node's ABI
//! is never used for another node's app; each entry records its key and the
//! SHA-256 of the ABI, checked when read back, so an entry for another key
//! or an altered one is fetched anew); the
//! ABI route `GET /admin-api/applications/:id/abi[?service_name=S]` (merod
//! 0.11.0-rc.19 and later); and on older nodes, where that route answers a
//! bodyless 404, the app's module itself: `GET /admin-api/blobs/:blob_id`
//! (the app's `blob.bytecode`, or the service's own blob), read through
//! [`calimcp_core::abi::load::load_wasm_bytes`] — the code that reads local `.wasm`
//! files. The download is streamed into one buffer and capped
//! (`CALIMCP_MAX_BLOB`, 64 MiB by default). A blob that is a bundle (an app
//! installed from an `.mpk` on a node that lists no services: the node keeps
//! the archive) is read with [`calimcp_core::abi::bundle::mpk_abis`]; its services'
//! ABIs are kept for the process, and a bundle of several services asked for
//! as one answers `bundle_services` (its names cached on disk), on which the
//! catalog asks service by service.
//!
//! That the route is absent is learnt once per client (one node, one process):
//! the first ABI request probes it while the others wait, and from then on
//! every ABI comes from the cache or the blob, so `serve`'s refreshes cost no
//! ABI request at all once cached. A module without an embedded ABI is
//! remembered too, in memory and on disk beside the cache (blob ids follow
//! the content, so the answer never changes): its blob is downloaded once.
//! Where the route answers an ABI without a single `doc` (merod
//! 0.11.0-rc.25 drops them, with the method hints and serde tags), the
//! module's embedded ABI is read too and used when it has docs, so
//! descriptions, pages and `diff` see what the developer wrote
//! ([`Client::with_docs`]); cached like the rest.
//! `-v` shows which source each ABI came from. A cache entry is read only
//! from a private place ([`store::read_trusted`]): anyone who can write the
//! directory could plant an entry with a matching key and checksum (turning
//! a `[mut]` method into `[view]`), so such an entry is not used (said with
//! `-v`) and the node is asked.

use std::sync::atomic::Ordering;

use reqwest::Method;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::http::Cap;
use super::{Client, NodeApp, data, store};
use calimcp_core::error::{Code, Error, ErrorKind, NodeSaid, Result};
use calimcp_core::text::sanitize_line;

/// A cache entry: its key, the ABI's SHA-256 and the ABI.
fn entry(key: &Value, abi: &Value) -> Vec<u8> {
    let text = abi.to_string();
    serde_json::json!({
        "key": key,
        "sha256": sha256_hex(text.as_bytes()),
        "abi": text,
    })
    .to_string()
    .into_bytes()
}

/// The ABI of an entry, when it is for `key` and its ABI is intact.
fn read_entry(bytes: &[u8], key: &Value) -> Option<Value> {
    let v: Value = serde_json::from_slice(bytes).ok()?;
    if v.get("key")? != key {
        return None;
    }
    let text = v.get("abi")?.as_str()?;
    if v.get("sha256")?.as_str()? != sha256_hex(text.as_bytes()) {
        return None;
    }
    serde_json::from_str(text).ok()
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether an ABI says a `doc` anywhere (a method, parameter, type, field,
/// variant or event).
fn has_doc(v: &Value) -> bool {
    match v {
        Value::Object(o) => o.iter().any(|(k, x)| k == "doc" || has_doc(x)),
        Value::Array(a) => a.iter().any(has_doc),
        _ => false,
    }
}

/// What to do about an app the node has without an ABI (said in the
/// message, which listings show as a warning).
const NO_ABI_WAYS: &str = "pass the app's ABI file: its abi.json (or its .wasm or .mpk) as APP, or in a directory given with --apps DIR; or rebuild the app with a current calimero-sdk (cargo mero build) and install it again";
/// [`NO_ABI_WAYS`] without the rebuild, for a node message that says it.
const NO_ABI_FILE: &str = "pass the app's ABI file: its abi.json (or its .wasm or .mpk) as APP, or in a directory given with --apps DIR";

// What this process knows about the node's ABI route.
pub(super) const ROUTE_UNKNOWN: u8 = 0;
pub(super) const ROUTE_PRESENT: u8 = 1;
pub(super) const ROUTE_ABSENT: u8 = 2;

impl Client {
    /// The ABI manifest of `app` (one service of it), as JSON.
    pub async fn abi(&self, app: &NodeApp, service: Option<&str>) -> Result<Value> {
        self.abi_inner(app, service)
            .await
            .map_err(|e| pending_code(app, e))
            .map_err(|e| self.scrub_err(e))
    }

    /// The ABI of one version of `app`: the module stored as `blob` (an
    /// entry of the versions route), not the application row's latest.
    pub async fn abi_of_blob(
        &self,
        app: &NodeApp,
        blob: &str,
        service: Option<&str>,
    ) -> Result<Value> {
        let label = format!(
            "{} {}",
            sanitize_line(app.package_or_id()),
            sanitize_line(app.version.as_deref().unwrap_or("(version unknown)"))
        );
        let cache = self.cache_path(&app.id, blob, service);
        let key = self.cache_key(&app.id, blob, service);
        if let Some(bytes) = self.read_cached(&cache)
            && let Some(v) = read_entry(&bytes, &key)
        {
            self.log(format_args!(
                "= ABI of {label}: from the cache ({})",
                cache.display()
            ));
            return Ok(v);
        }
        let v = self
            .abi_from_blob(blob, service, &label)
            .await
            .map_err(|e| self.scrub_err(e))?;
        let _ = store::write_private(&cache, &entry(&key, &v));
        Ok(v)
    }

    async fn abi_inner(&self, app: &NodeApp, service: Option<&str>) -> Result<Value> {
        let label = format!(
            "{}{}",
            sanitize_line(app.package_or_id()),
            service
                .map(|s| format!(" (service {})", sanitize_line(s)))
                .unwrap_or_default()
        );
        // A service the listing does not name lives in the app's bundle blob
        // (nodes before rc.19 list no services: the blob is the whole .mpk).
        let blob = match service {
            Some(s) => app
                .services
                .iter()
                .find(|(name, _)| name == s)
                .and_then(|(_, b)| b.clone())
                .or_else(|| app.bytecode_blob.clone()),
            None => app.bytecode_blob.clone(),
        };
        let cache = blob
            .as_deref()
            .map(|b| self.cache_path(&app.id, b, service));
        let key = blob.as_deref().map(|b| self.cache_key(&app.id, b, service));
        if let Some(known) = self.abi_cached(&label, service, cache.as_deref(), key.as_ref()) {
            return known;
        }
        let v = match self.abi_from_route(app, service, &label).await? {
            Some(v) => self.with_docs(v, blob.as_deref(), service, &label).await,
            None => {
                self.abi_of_module(app, service, &label, blob, cache.as_deref())
                    .await?
            }
        };
        if let (Some(path), Some(key)) = (&cache, &key)
            && let Err(e) = store::write_private(path, &entry(key, &v))
        {
            self.log(format_args!(
                "= cannot cache the ABI at {}: {e}",
                path.display()
            ));
        }
        Ok(v)
    }

    /// What the cache at `cache` (an entry for `key`) knows of an ABI: that
    /// the module has none, that the bundle has several services (when no
    /// `service` is asked for), or the ABI; `None` when the node is to be asked.
    fn abi_cached(
        &self,
        label: &str,
        service: Option<&str>,
        cache: Option<&std::path::Path>,
        key: Option<&Value>,
    ) -> Option<Result<Value>> {
        let path = cache?;
        if let Some(text) = self.read_cached_text(&path.with_extension("no-abi"))
            && let Some((code, message)) = text.split_once('\n')
        {
            self.log(format_args!(
                "= ABI of {label}: none in its module (cached, {})",
                path.display()
            ));
            let code = if code == Code::InvalidModule.as_str() {
                Code::InvalidModule
            } else {
                Code::NoEmbeddedAbi
            };
            return Some(Err(Error::new(
                ErrorKind::Remote,
                code,
                message.to_string(),
            )));
        }
        if service.is_none()
            && let Some(text) = self.read_cached_text(&path.with_extension("services"))
        {
            let names: Vec<String> = text.lines().map(str::to_string).collect();
            return Some(Err(self.several_services(label, &names)));
        }
        if let Some(key) = key
            && let Some(bytes) = self.read_cached(path)
        {
            match read_entry(&bytes, key) {
                Some(v) => {
                    self.log(format_args!(
                        "= ABI of {label}: from the cache ({})",
                        path.display()
                    ));
                    return Some(Ok(v));
                }
                None => self.log(format_args!(
                    "= the cached ABI at {} is not this app's or was altered; asking the node",
                    path.display()
                )),
            }
        }
        None
    }

    /// The ABI from the app's module `blob`, on a node without the ABI route;
    /// a bundle's several services, or a module without an ABI, is noted
    /// beside the cache entry `cache`.
    async fn abi_of_module(
        &self,
        app: &NodeApp,
        service: Option<&str>,
        label: &str,
        blob: Option<String>,
        cache: Option<&std::path::Path>,
    ) -> Result<Value> {
        let Some(blob) = blob else {
            return Err(Error::new(
                ErrorKind::Remote,
                Code::AbiUnavailable,
                format!(
                    "the node at {} has no ABI route and lists no bytecode blob for {label}; pass the app's ABI file (a path to abi.json, .wasm or .mpk, or --apps DIR)",
                    self.inner.shown
                ),
            ));
        };
        match self.abi_from_blob(&blob, service, label).await {
            Ok(v) => Ok(v),
            Err(e) if e.code == Code::BundleServices => {
                if let (Some(path), Some(names)) = (cache, self.bundle_services_of(app)) {
                    let _ = store::write_private(
                        &path.with_extension("services"),
                        names.join("\n").as_bytes(),
                    );
                }
                Err(e)
            }
            Err(e) if matches!(e.code, Code::NoEmbeddedAbi | Code::InvalidModule) => {
                if let Some(path) = cache {
                    let text = format!("{}\n{}", e.code, e.message);
                    let _ = store::write_private(&path.with_extension("no-abi"), text.as_bytes());
                }
                Err(e)
            }
            Err(e) => Err(e),
        }
    }

    /// The route's ABI `v`, or the module's own when the route dropped the
    /// docs: merod 0.11.0-rc.25's route answers the embedded ABI as the node
    /// reads it, without any `doc` (nor the method hints and serde tags),
    /// while the module (`blob`, the code the node runs) embeds what the
    /// developer wrote. Read once per module (the result is cached with the
    /// rest); a module that cannot be read, or has no docs either, leaves `v`.
    async fn with_docs(
        &self,
        v: Value,
        blob: Option<&str>,
        service: Option<&str>,
        label: &str,
    ) -> Value {
        let Some(blob) = blob.filter(|_| !has_doc(&v)) else {
            return v;
        };
        match self.abi_from_blob(blob, service, label).await {
            Ok(module) if has_doc(&module) => {
                self.log(format_args!(
                    "= ABI of {label}: the route gave no docs; its module's ABI, which has them, is used"
                ));
                module
            }
            Ok(_) => v,
            Err(e) => {
                self.log(format_args!(
                    "= ABI of {label}: the route gave no docs and the module could not be read for them ({})",
                    e.message
                ));
                v
            }
        }
    }

    /// A cache file's bytes, `None` when there is none or it is not to be
    /// trusted (in a place others may write: said with `-v`).
    fn read_cached(&self, path: &std::path::Path) -> Option<Vec<u8>> {
        let max = self.inner.max_response.max(self.inner.max_blob);
        match store::read_trusted(path, max) {
            Ok(bytes) => bytes,
            Err(e) => {
                self.log(format_args!(
                    "= the cached entry {} is not used: {e}",
                    path.display()
                ));
                None
            }
        }
    }

    fn read_cached_text(&self, path: &std::path::Path) -> Option<String> {
        String::from_utf8(self.read_cached(path)?).ok()
    }

    /// What a cache entry is for: the node, the app, the module, the service.
    fn cache_key(&self, app_id: &str, blob: &str, service: Option<&str>) -> Value {
        serde_json::json!({
            "node": self.inner.shown,
            "app": app_id,
            "blob": blob,
            "service": service,
        })
    }

    fn cache_path(&self, app_id: &str, blob: &str, service: Option<&str>) -> std::path::PathBuf {
        let mut h = Sha256::new();
        for part in [
            self.inner.shown.as_str(),
            app_id,
            blob,
            service.unwrap_or_default(),
        ] {
            h.update(part.as_bytes());
            h.update([0]);
        }
        let hex: String = h
            .finalize()
            .iter()
            .take(12)
            .map(|b| format!("{b:02x}"))
            .collect();
        self.inner.state_dir.join("abi").join(format!("{hex}.json"))
    }

    /// The ABI from the node's route; `None` when the node has no such route.
    async fn abi_from_route(
        &self,
        app: &NodeApp,
        service: Option<&str>,
        label: &str,
    ) -> Result<Option<Value>> {
        if self.inner.abi_route.load(Ordering::Acquire) == ROUTE_ABSENT {
            return Ok(None);
        }
        // Until the route is known, one request probes it while the others wait.
        let _probe = if self.inner.abi_route.load(Ordering::Acquire) == ROUTE_UNKNOWN {
            let guard = self.inner.abi_probe.lock().await;
            match self.inner.abi_route.load(Ordering::Acquire) {
                ROUTE_ABSENT => return Ok(None),
                ROUTE_PRESENT => None,
                _ => Some(guard),
            }
        } else {
            None
        };
        let segments = ["admin-api", "applications", app.id.as_str(), "abi"];
        let query = service.map(|s| ("service_name", s));
        let (url, shown) = self.endpoint(&segments, query);
        let reply = self.request(Method::GET, &url, &shown, None).await?;
        if reply.status == 404 && reply.bodyless() {
            self.inner.abi_route.store(ROUTE_ABSENT, Ordering::Release);
            self.log(format_args!(
                "= the node has no ABI route (its merod predates 0.11.0-rc.19): ABIs come from the apps' modules"
            ));
            return Ok(None);
        }
        if reply.ok() {
            self.inner.abi_route.store(ROUTE_PRESENT, Ordering::Release);
        }
        // 400 "no usable embedded ABI": the app was built without one.
        let v = data(self.check(reply, &shown).map_err(|mut e| {
            if e.said == Some(NodeSaid::AbiRefused) {
                // The node's own words may say to rebuild already (rc.25 does).
                e.message = if e.message.contains("cargo mero build") {
                    format!("{}; or {NO_ABI_FILE}", e.message)
                } else {
                    format!("{}: {NO_ABI_WAYS}", e.message)
                };
            }
            e
        })?);
        if !v.is_object() {
            return Err(self.unexpected(&shown, "the ABI is not a JSON object"));
        }
        self.log(format_args!("= ABI of {label}: from the node's ABI route"));
        Ok(Some(v))
    }

    /// The ABI embedded in the module stored as `blob`.
    async fn abi_from_blob(&self, blob: &str, service: Option<&str>, label: &str) -> Result<Value> {
        let key = format!("{blob}\0{}", service.unwrap_or_default());
        if let Some(e) = self
            .inner
            .no_abi
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Err(e.clone());
        }
        if let Some(v) = self.abi_in_bundle(blob, service, label)? {
            return Ok(v);
        }
        let (url, shown) = self.endpoint(&["admin-api", "blobs", blob], None);
        let cap = Cap {
            bytes: self.inner.max_blob,
            var: "CALIMCP_MAX_BLOB",
            bound: self.inner.timeout,
        };
        let reply = self.request_capped(Method::GET, &url, &shown, cap).await?;
        if !reply.ok() {
            return Err(self.status_error(&reply, &shown).context(format!(
                "reading the ABI of {label} from its module (blob {})",
                sanitize_line(blob)
            )));
        }
        let source = format!(
            "{} (module of {label}, blob {})",
            self.inner.shown,
            sanitize_line(blob)
        );
        // A bundle (.mpk, gzip): what nodes before rc.19 store as the
        // bytecode of an app installed from one.
        if reply.body.starts_with(&[0x1f, 0x8b]) {
            return self.abi_from_bundle(blob, service, label, &reply.body, &source);
        }
        let mut ignored = Vec::new();
        let section =
            match calimcp_core::abi::load::load_wasm_bytes(&reply.body, &source, &mut ignored) {
                Ok((section, _)) => section,
                Err(e) => {
                    let e = self.module_error(e, blob, label);
                    self.inner
                        .no_abi
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(key, e.clone());
                    return Err(e);
                }
            };
        let v: Value = serde_json::from_slice(&section)
            .map_err(|e| self.unexpected(&shown, &format!("the embedded ABI is not JSON ({e})")))?;
        self.log(format_args!(
            "= ABI of {label}: from its module (blob {}, {} bytes)",
            sanitize_line(blob),
            reply.body.len()
        ));
        Ok(v)
    }

    /// The ABI of `service` from the bundle `body` read as `blob`, its
    /// services' ABIs kept for the process.
    fn abi_from_bundle(
        &self,
        blob: &str,
        service: Option<&str>,
        label: &str,
        body: &[u8],
        source: &str,
    ) -> Result<Value> {
        let abis = calimcp_core::abi::bundle::mpk_abis(body, source).map_err(|e| {
            Error::new(ErrorKind::Remote, Code::InvalidModule, e.message)
                .with_hint("pass the app's ABI file (abi.json, .wasm or .mpk, or --apps DIR)")
        })?;
        self.log(format_args!(
            "= the module of {label} is a bundle (blob {}, {} bytes, {} service{})",
            sanitize_line(blob),
            body.len(),
            abis.len(),
            if abis.len() == 1 { "" } else { "s" }
        ));
        let list = abis.into_iter().map(|a| (a.name, a.json)).collect();
        self.inner
            .bundles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(blob.to_string(), list);
        self.abi_in_bundle(blob, service, label)?
            .ok_or_else(|| Error::internal("the bundle was not kept"))
    }

    /// Why the module stored as `blob` gives no ABI: it has none embedded,
    /// or it is no module `e` could read.
    fn module_error(&self, e: Error, blob: &str, label: &str) -> Error {
        if e.code == Code::NoEmbeddedAbi {
            Error::new(
                ErrorKind::Remote,
                Code::NoEmbeddedAbi,
                format!(
                    "{label} has no ABI on the node at {}: the node has no ABI route, and the app's module (blob {}) carries no `calimero_abi_v1` section: {NO_ABI_WAYS}",
                    self.inner.shown,
                    sanitize_line(blob)
                ),
            )
        } else {
            Error::new(ErrorKind::Remote, Code::InvalidModule, e.message)
                .with_hint("pass the app's ABI file (abi.json, .wasm or .mpk, or --apps DIR)")
        }
    }

    /// The ABI of `service` from a bundle blob already read in this process;
    /// `None` when the blob has not been read as a bundle.
    fn abi_in_bundle(
        &self,
        blob: &str,
        service: Option<&str>,
        label: &str,
    ) -> Result<Option<Value>> {
        let bundles = self.inner.bundles.lock().unwrap_or_else(|e| e.into_inner());
        let Some(list) = bundles.get(blob) else {
            return Ok(None);
        };
        let found = match service {
            Some(s) => list.iter().find(|(n, _)| n.as_deref() == Some(s)),
            None if list.len() == 1 => list.first(),
            None => {
                let names: Vec<String> = list.iter().filter_map(|(n, _)| n.clone()).collect();
                return Err(self.several_services(label, &names));
            }
        };
        let Some((_, json)) = found else {
            return Err(Error::new(
                ErrorKind::Remote,
                Code::UnknownService,
                format!(
                    "{label}: the app's bundle on the node at {} has no such service",
                    self.inner.shown
                ),
            ));
        };
        let v: Value = serde_json::from_slice(json)
            .map_err(|e| self.unexpected(label, &format!("the bundle's ABI is not JSON ({e})")))?;
        self.log(format_args!(
            "= ABI of {label}: from its bundle (blob {})",
            sanitize_line(blob)
        ));
        Ok(Some(v))
    }

    /// The error for a bundle of several services asked for as one: its
    /// code (`bundle_services`) tells the catalog to ask per service.
    fn several_services(&self, label: &str, names: &[String]) -> Error {
        let shown: Vec<String> = names.iter().map(|n| sanitize_line(n)).collect();
        Error::new(
            ErrorKind::Remote,
            Code::BundleServices,
            format!(
                "{label} is a bundle of several services: {}",
                shown.join(", ")
            ),
        )
    }

    /// The services of the bundle an app's blob holds: from the bundle read
    /// in this process, else from the names cached beside its ABIs.
    pub fn bundle_services_of(&self, app: &NodeApp) -> Option<Vec<String>> {
        let blob = app.bytecode_blob.as_deref()?;
        let read = self
            .inner
            .bundles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(blob)
            .map(|list| list.iter().filter_map(|(n, _)| n.clone()).collect());
        read.or_else(|| {
            let path = self
                .cache_path(&app.id, blob, None)
                .with_extension("services");
            let text = self.read_cached_text(&path)?;
            Some(text.lines().map(str::to_string).collect())
        })
    }
}

/// The code of an app this node received for a joined context is fetched
/// from peers after the join: until it arrives, the ABI route answers 404
/// "Application bytecode not found" (rc.19 and later) and the blob route 404
/// (older nodes). That is "not yet", not an old SDK or a broken app.
fn pending_code(app: &NodeApp, e: Error) -> Error {
    // rc.4's blob route answers 404 "Blob not found locally or in network",
    // or 500 "Failed to retrieve blob: …" when asking its peers failed.
    let not_found = e.kind == ErrorKind::Remote
        && (e.said == Some(NodeSaid::BytecodeNotFound)
            || (app.shared
                && (e.status == Some(404) || e.said == Some(NodeSaid::BlobNotRetrieved))));
    if !not_found {
        return e;
    }
    Error::new(
        ErrorKind::Remote,
        Code::CodePending,
        format!(
            "{}: its code has not arrived on this node yet (the node joined a context of this app and fetches the code from its peers)",
            sanitize_line(app.package_or_id())
        ),
    )
    .with_hint("left out for now: it is listed as soon as the code has arrived, which needs a peer that has it to be online")
}

#[cfg(test)]
mod pending_tests {
    use super::*;

    #[test]
    fn code_that_has_not_arrived_is_said_so() {
        let app = NodeApp {
            id: "A".into(),
            shared: true,
            ..NodeApp::default()
        };
        // What the node answers, as its answer is decoded.
        let answer = |status, body: &str| {
            crate::decode::http_error(status, "x", "application/json", body.as_bytes(), "x")
        };
        let route = answer(404, r#"{"error":"Application bytecode not found"}"#);
        assert_eq!(pending_code(&app, route).code, Code::CodePending);
        let blob = answer(404, "");
        assert_eq!(pending_code(&app, blob.clone()).code, Code::CodePending);
        let fetch = answer(500, "Failed to retrieve blob: no peer has it");
        assert_eq!(pending_code(&app, fetch).code, Code::CodePending);
        // The words alone, in a message calimcp wrote, are not the node's.
        let ours = Error::new(ErrorKind::Remote, Code::HttpError, "bytecode not found");
        assert_eq!(pending_code(&app, ours).code, Code::HttpError);
        // A 404 of an app installed here is not "pending".
        let own = NodeApp {
            shared: false,
            ..app
        };
        assert_eq!(pending_code(&own, blob).code, Code::HttpError);
    }
}
