//! `node`: the HTTP client for a Calimero node (merod), shared by `calimcp call`
//! and the MCP server. Every difference between merod versions is handled
//! here and nowhere else (docs/reference/merod-versions.md).
//!
//! Input: a node URL, a timeout, limits and credentials ([`NodeOptions`]).
//! Output: the node's apps, ABIs, contexts and aliases, and the `output` of an
//! `execute` call — or an [`Error`] whose kind says what went wrong:
//! [`ErrorKind::Auth`] (exit 3), [`ErrorKind::Unreachable`] for refused
//! connections and timeouts (exit 4), [`ErrorKind::Remote`] when the node or
//! the app answered with an error (exit 5). Every request is bounded by the
//! timeout and every body by a size cap. No token or password ever reaches a
//! message or the `-v` log, and URLs in messages carry no query string.
//! Depends on `error`, `text` and `abi` (to read a module's embedded ABI); it
//! prints nothing but the `-v` log on stderr.
//!
//! Modules: [`http`] one exchange (redirects, body cap, masking), `tokens`:
//! the tokens in use (login, refresh, dead tokens), [`abi`] ABIs from the route,
//! the cache or the app's module, [`exec`] `execute` (executor, id retry),
//! [`ids`] ids in base58 or hex, [`auth`] the token cache, [`decode`] the
//! node's answers as values and errors, [`events`] the event stream (SSE),
//! [`blobs`] the blob store (upload, list, info, download, delete),
//! [`lifecycle`] install, namespaces, create, invite, join, delete, aliases,
//! [`upgrade`] a group's target application, its contexts and its upgrade,
//! [`sync`] a context's sync status, [`store`] private state files,
//! [`profiles`] named nodes, [`discover`] the local node found when none is
//! given, [`fetch`] a build from a URL, `memo` the listings one command shares, [`trace`] the W3C trace
//! headers a piece of work's requests carry.

pub mod abi;
pub mod auth;
pub mod blobs;
pub mod contexts;
pub mod decode;
pub mod discover;
pub mod events;
pub mod exec;
pub mod fetch;
pub mod http;
pub mod ids;
pub mod lifecycle;
mod memo;
pub mod profiles;
pub mod store;
pub mod sync;
mod tokens;
pub mod trace;
pub mod upgrade;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU8, AtomicU64};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::{Method, Url};
use serde_json::{Value, json};

use auth::Tokens;
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;
use http::percent_free;
pub use http::{DEFAULT_MAX_BLOB, DEFAULT_MAX_RESPONSE, url_text};

/// Where a node listens when nothing else is said (merod's default).
pub const DEFAULT_URL: &str = "http://127.0.0.1:2528";
/// Default bound on a request that is not an `execute` (listings, lookups,
/// login, opening the event stream), as the node's own client has it.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Default bound on an `execute` call: the method may wait on network work
/// (the node's own client gives it 5 minutes).
pub const DEFAULT_EXECUTE_TIMEOUT: Duration = Duration::from_secs(300);
/// Default bound on making a connection.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How to reach a node and who to be.
#[derive(Clone)]
pub struct NodeOptions {
    pub url: String,
    /// Bound on each request but `execute` ([`DEFAULT_TIMEOUT`]).
    pub timeout: Duration,
    /// Bound on each `execute` ([`DEFAULT_EXECUTE_TIMEOUT`]).
    pub execute_timeout: Duration,
    /// Bound on making a connection ([`DEFAULT_CONNECT_TIMEOUT`]).
    pub connect_timeout: Duration,
    /// Access token sent as `Authorization: Bearer`.
    pub token: Option<String>,
    /// Refresh token paired with `token`.
    pub refresh_token: Option<String>,
    /// With `password`: log in with `POST /auth/token` when there is no token.
    pub username: Option<String>,
    pub password: Option<String>,
    /// Where tokens and ABIs are cached.
    pub state_dir: PathBuf,
    /// Log every request and response to stderr (secrets masked).
    pub verbose: bool,
    /// Largest response body read ([`DEFAULT_MAX_RESPONSE`]; `CALIMCP_MAX_RESPONSE`).
    pub max_response: u64,
    /// Largest app module downloaded for its ABI ([`DEFAULT_MAX_BLOB`]; `CALIMCP_MAX_BLOB`).
    pub max_blob: u64,
    /// Execute as this identity (a key or an identity alias) when a call
    /// names none (`serve --as`); honoured by merod 0.10.x only.
    pub identity: Option<String>,
}

impl NodeOptions {
    /// Options for `url` with the defaults: no credentials, the default
    /// bounds and limits, state in `state_dir`.
    pub fn new(url: impl Into<String>, state_dir: impl Into<PathBuf>) -> NodeOptions {
        NodeOptions {
            url: url.into(),
            timeout: DEFAULT_TIMEOUT,
            execute_timeout: DEFAULT_EXECUTE_TIMEOUT,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            token: None,
            refresh_token: None,
            username: None,
            password: None,
            state_dir: state_dir.into(),
            verbose: false,
            max_response: DEFAULT_MAX_RESPONSE,
            max_blob: DEFAULT_MAX_BLOB,
            identity: None,
        }
    }
}

impl std::fmt::Debug for NodeOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mask = |s: &Option<String>| s.as_ref().map(|_| "***");
        f.debug_struct("NodeOptions")
            .field("url", &url_text(&self.url))
            .field("timeout", &self.timeout)
            .field("execute_timeout", &self.execute_timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("token", &mask(&self.token))
            .field("refresh_token", &mask(&self.refresh_token))
            .field("username", &self.username)
            .field("password", &mask(&self.password))
            .field("state_dir", &self.state_dir)
            .field("verbose", &self.verbose)
            .field("max_response", &self.max_response)
            .field("max_blob", &self.max_blob)
            .field("identity", &self.identity)
            .finish()
    }
}

/// An application installed on the node.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeApp {
    pub id: String,
    pub package: Option<String>,
    pub version: Option<String>,
    /// The `name` in the app's metadata.
    pub name: Option<String>,
    /// The `guide` and `icon` in the app's metadata, as they came (bounded
    /// by [`calimcp_core::abi::meta`] where an app is made of this row).
    pub guide: Option<String>,
    pub icon: Option<String>,
    pub signer_id: Option<String>,
    pub bytecode_blob: Option<String>,
    /// `(service name, its bytecode blob)`, sorted by name; empty for a single-service app.
    pub services: Vec<(String, Option<String>)>,
    /// Received by blob share for a joined context (`calimero://pending-blob-share`):
    /// its code may not have arrived from peers yet.
    pub shared: bool,
    /// Every blob its modules are: `blob.bytecode`, `blob.compiled` and each
    /// service's `bytecode` and `compiled`.
    pub blobs: Vec<String>,
}

impl NodeApp {
    /// The package if known, else the id.
    pub fn package_or_id(&self) -> &str {
        self.package.as_deref().unwrap_or(&self.id)
    }
}

/// A context on the node.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeContext {
    pub id: String,
    pub application_id: String,
    pub service_name: Option<String>,
    pub name: Option<String>,
    /// Its state's root hash (`contextStateHash`; `rootHash` on 0.10.0): all
    /// ones in base58 (the zero hash) while the node has no state for it.
    pub root_hash: Option<String>,
}

impl NodeContext {
    /// Whether the node has state for the context (a joined node gets it by
    /// sync; until then every call answers `Uninitialized`).
    pub fn initialized(&self) -> Option<bool> {
        let root = self.root_hash.as_deref()?;
        Some(ids::decode(root).is_none_or(|b| b != [0u8; 32]))
    }
}

/// Each service of a bundle (its name, `None` for a single service) and its ABI JSON.
type BundleAbis = Vec<(Option<String>, Vec<u8>)>;

/// A client for one node. Cheap to clone; clones share the connection pool
/// and the tokens.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    http: reqwest::Client,
    /// For event streams: no bound on the whole exchange, only on each read.
    /// Built on first use (building a client costs about a millisecond).
    stream_http: std::sync::OnceLock<reqwest::Client>,
    /// Base URL for requests: no query, no fragment, path without a trailing slash.
    base: Url,
    /// The base as messages show it (no credentials, no query).
    shown: String,
    timeout: Duration,
    execute_timeout: Duration,
    connect_timeout: Duration,
    verbose: bool,
    state_dir: PathBuf,
    username: Option<String>,
    password: Option<String>,
    token_file: PathBuf,
    tokens: tokio::sync::Mutex<Tokens>,
    next_id: AtomicU64,
    max_response: u64,
    max_blob: u64,
    /// calimcp's own token, refresh token and password: masked in every text.
    secrets: Mutex<Vec<String>>,
    /// Whether the node has the ABI route (see [`abi`]).
    abi_route: AtomicU8,
    abi_probe: tokio::sync::Mutex<()>,
    /// Modules known to carry no ABI: blob and service → the error.
    no_abi: Mutex<HashMap<String, Error>>,
    /// The node's id form, once an answer showed it.
    ids: ids::Learnt,
    /// The executor found for a context (hex of its bytes) on a 0.10.x node.
    executors: Mutex<HashMap<String, String>>,
    /// Where `/auth` answered (see `tokens`).
    auth_at: AtomicU8,
    /// The identity calls execute as when they name none (`serve --as`).
    identity: Option<String>,
    /// Bundle blobs read in this process: blob → each service's ABI JSON.
    bundles: Mutex<HashMap<String, BundleAbis>>,
    /// The applications, contexts and aliases listed so far (see `memo`).
    memo: Mutex<memo::Memo>,
}

/// Checks a node URL and returns the request base (no query, no fragment, no
/// trailing slash; a base path kept) and the form messages show (also no
/// credentials). Makes no request.
pub fn normalize_url(url: &str) -> Result<(Url, String)> {
    let shown_input = sanitize_line(&url_text(url));
    // `127.0.0.1:2528` or `localhost:2528`: a URL without its scheme.
    if !url.contains("://") {
        return Err(Error::input(
            Code::InvalidUrl,
            format!("the node URL `{shown_input}` has no scheme"),
        )
        .with_hint(format!(
            "add http:// (or https://): --node http://{}",
            shown_input.trim()
        )));
    }
    let mut base = Url::parse(url.trim()).map_err(|e| {
        Error::input(
            Code::InvalidUrl,
            format!("the node URL `{shown_input}` is not a URL: {e}"),
        )
        .with_hint("pass --node http://HOST:PORT (or set CALIMERO_NODE_URL)")
    })?;
    if !matches!(base.scheme(), "http" | "https") || base.cannot_be_a_base() {
        return Err(Error::input(
            Code::InvalidUrl,
            format!("the node URL `{shown_input}` is not an http(s) URL"),
        )
        .with_hint("pass --node http://HOST:PORT (or set CALIMERO_NODE_URL)"));
    }
    base.set_query(None);
    base.set_fragment(None);
    let path = base.path().trim_end_matches('/').to_string();
    base.set_path(&path);
    let shown = percent_free(&base);
    Ok((base, shown))
}

fn str_field(v: &Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// The `data` of an admin-api response (`{"data": …}`), or the body itself.
fn data(v: Value) -> Value {
    match v {
        Value::Object(mut o) if o.contains_key("data") => o.remove("data").unwrap_or(Value::Null),
        v => v,
    }
}

/// A metadata string as it came (not trimmed, not filtered): what
/// [`calimcp_core::abi::meta`] bounds.
fn raw_text(meta: &serde_json::Map<String, Value>, key: &str) -> Option<String> {
    meta.get(key).and_then(Value::as_str).map(str::to_string)
}

fn parse_app(v: &Value) -> Option<NodeApp> {
    let meta = v.get("metadata").and_then(decode::metadata);
    let meta_str = |k: &str| {
        meta.as_ref()
            .and_then(|m| str_field(&Value::Object(m.clone()), k))
    };
    let mut services: Vec<(String, Option<String>)> = v
        .get("services")
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .map(|(name, s)| (name.clone(), str_field(s, "bytecode")))
                .collect()
        })
        .unwrap_or_default();
    services.sort();
    // An app a node received by blob share for a joined context (source
    // `calimero://pending-blob-share`) has no package or version: rc.25 lists
    // none, rc.4 the placeholders `unknown` and `0.0.0`. Both mean unknown.
    let shared =
        str_field(v, "source").is_some_and(|s| s.starts_with("calimero://pending-blob-share"));
    let known = |s: Option<String>, placeholder: &str| s.filter(|s| !(shared && s == placeholder));
    // A module not compiled yet has the zero id as `compiled` (rc.4, rc.25).
    let pair = |b: &Value| {
        ["bytecode", "compiled"]
            .map(|k| str_field(b, k).filter(|id| ids::decode(id) != Some([0; 32])))
    };
    let mut blobs: Vec<String> = v
        .get("blob")
        .map(pair)
        .into_iter()
        .flatten()
        .flatten()
        .collect();
    if let Some(o) = v.get("services").and_then(Value::as_object) {
        blobs.extend(o.values().flat_map(pair).flatten());
    }
    Some(NodeApp {
        id: str_field(v, "id")?,
        package: known(
            str_field(v, "package").or_else(|| meta_str("package")),
            "unknown",
        ),
        version: known(
            str_field(v, "version").or_else(|| meta_str("version")),
            "0.0.0",
        ),
        name: meta_str("name"),
        guide: meta.as_ref().and_then(|m| raw_text(m, "guide")),
        icon: meta.as_ref().and_then(|m| raw_text(m, "icon")),
        signer_id: str_field(v, "signer_id"),
        bytecode_blob: v.get("blob").and_then(|b| str_field(b, "bytecode")),
        services,
        shared,
        blobs,
    })
}

fn parse_context(v: &Value) -> Option<NodeContext> {
    Some(NodeContext {
        id: str_field(v, "id")?,
        application_id: str_field(v, "applicationId").unwrap_or_default(),
        service_name: str_field(v, "serviceName"),
        name: str_field(v, "name"),
        root_hash: str_field(v, "contextStateHash").or_else(|| str_field(v, "rootHash")),
    })
}

impl Client {
    /// A client for `opts.url`. Reads the token cache; makes no request.
    pub fn new(opts: NodeOptions) -> Result<Client> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let (base, shown) = normalize_url(&opts.url)?;
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(opts.timeout.max(opts.execute_timeout))
            .connect_timeout(opts.connect_timeout.min(opts.timeout))
            .user_agent(concat!("calimcp/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| Error::internal(format!("cannot set up the HTTP client: {e}")))?;
        let token_file = auth::cache_path(&opts.state_dir, &shown, opts.username.as_deref());
        let env = Tokens {
            access: opts.token.clone(),
            refresh: opts.refresh_token.clone(),
        };
        let (tokens, store) = auth::choose(auth::read_cache(&token_file)?, env);
        let client = Client {
            inner: Arc::new(Inner {
                http,
                stream_http: std::sync::OnceLock::new(),
                base,
                shown,
                timeout: opts.timeout,
                execute_timeout: opts.execute_timeout,
                connect_timeout: opts.connect_timeout.min(opts.timeout),
                verbose: opts.verbose,
                state_dir: opts.state_dir,
                username: opts.username,
                password: opts.password.clone(),
                token_file,
                tokens: tokio::sync::Mutex::new(tokens.clone()),
                next_id: AtomicU64::new(1),
                max_response: opts.max_response.max(1),
                max_blob: opts.max_blob.max(1),
                secrets: Mutex::new(Vec::new()),
                abi_route: AtomicU8::new(abi::ROUTE_UNKNOWN),
                abi_probe: tokio::sync::Mutex::new(()),
                no_abi: Mutex::new(HashMap::new()),
                ids: ids::Learnt::default(),
                executors: Mutex::new(HashMap::new()),
                auth_at: AtomicU8::new(0),
                identity: opts.identity.clone(),
                bundles: Mutex::new(HashMap::new()),
                memo: Mutex::new(memo::Memo::default()),
            }),
        };
        client.add_secret(opts.password.as_deref());
        client.add_secret(opts.token.as_deref());
        client.add_secret(opts.refresh_token.as_deref());
        client.add_secret(tokens.access.as_deref());
        client.add_secret(tokens.refresh.as_deref());
        if store {
            let _ = client.save_tokens(&tokens);
        }
        Ok(client)
    }

    /// The node's base URL as messages show it: no query string, no
    /// credentials, base path kept, no trailing slash.
    pub fn url(&self) -> &str {
        &self.inner.shown
    }

    /// The URL `execute` posts to, as messages show it.
    pub fn jsonrpc_url(&self) -> String {
        format!("{}/jsonrpc", self.inner.shown)
    }

    /// The bound on each request but `execute`.
    pub(crate) fn timeout(&self) -> Duration {
        self.inner.timeout
    }

    /// The bound on each `execute`.
    pub fn execute_timeout(&self) -> Duration {
        self.inner.execute_timeout
    }

    /// The installed applications (`GET /admin-api/applications`), asked
    /// now; the answer is kept for [`Client::known_applications`].
    pub async fn applications(&self) -> Result<Vec<NodeApp>> {
        let since = self.memo_generation();
        let v = self
            .get_json(&["admin-api", "applications"], None)
            .await
            .map_err(|e| self.scrub_err(e))?;
        let apps = v
            .get("apps")
            .or(Some(&v))
            .and_then(Value::as_array)
            .ok_or_else(|| self.unexpected("admin-api/applications", "no `apps` list"))?;
        let apps: Vec<NodeApp> = apps.iter().filter_map(parse_app).collect();
        if let Some(a) = apps.first() {
            self.saw_id(&a.id);
        }
        self.remember_applications(since, &apps);
        Ok(apps)
    }

    /// The contexts of one application (its id in either form), asked now;
    /// the answer is kept for [`Client::known_contexts_for_application`].
    pub async fn contexts_for_application(&self, app_id: &str) -> Result<Vec<NodeContext>> {
        let since = self.memo_generation();
        let app_id = self.node_id(app_id);
        let v = self
            .get_json(&["admin-api", "contexts", "for-application", &app_id], None)
            .await
            .map_err(|e| self.scrub_err(e))?;
        let list = v
            .get("contexts")
            .or(Some(&v))
            .and_then(Value::as_array)
            .ok_or_else(|| {
                self.unexpected("admin-api/contexts/for-application", "no `contexts` list")
            })?;
        let list: Vec<NodeContext> = list.iter().filter_map(parse_context).collect();
        if let Some(c) = list.first() {
            self.saw_id(&c.id);
        }
        self.remember_contexts(since, &app_id, &list);
        Ok(list)
    }

    /// The context id an alias names, or `None` when no such alias exists.
    pub async fn lookup_context_alias(&self, alias: &str) -> Result<Option<String>> {
        let segments = ["admin-api", "alias", "lookup", "context", alias];
        let (url, shown) = self.endpoint(&segments, None);
        let reply = self
            .request(Method::POST, &url, &shown, Some(&json!({})))
            .await
            .map_err(|e| self.scrub_err(e))?;
        // The node rejects impossible alias strings; that is a miss too.
        if matches!(reply.status, 400 | 404) {
            return Ok(None);
        }
        let v = data(self.check(reply, &shown).map_err(|e| self.scrub_err(e))?);
        let value = str_field(&v, "value");
        if let Some(id) = &value {
            self.saw_id(id);
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calimcp_core::error::ErrorKind;

    fn opts(url: &str) -> NodeOptions {
        NodeOptions {
            timeout: Duration::from_secs(1),
            ..NodeOptions::new(url, std::env::temp_dir().join("calimcp-unit-never-written"))
        }
    }

    #[test]
    fn base_path_is_kept_and_query_stripped() {
        let c = Client::new(opts("http://u:p@host:1/prefix/node/?token=secret#x")).unwrap();
        assert_eq!(c.url(), "http://host:1/prefix/node");
        assert_eq!(c.jsonrpc_url(), "http://host:1/prefix/node/jsonrpc");
        let (url, shown) = c.endpoint(
            &["admin-api", "alias", "lookup", "context", "a b/c"],
            Some(("service_name", "x y")),
        );
        assert_eq!(
            shown,
            "http://host:1/prefix/node/admin-api/alias/lookup/context/a%20b%2Fc"
        );
        assert!(url.ends_with("context/a%20b%2Fc?service_name=x+y"), "{url}");
        assert!(!url.contains("secret"));
        // A name `.` or `..` never changes the route (issue 24.9).
        for dots in [".", ".."] {
            let (url, _) = c.endpoint(&["admin-api", "alias", "lookup", "context", dots], None);
            let u = Url::parse(&url).unwrap();
            let segs: Vec<&str> = u.path_segments().unwrap().collect();
            assert_eq!(segs.len(), 7, "{url}");
            assert_eq!(
                segs[..6],
                ["prefix", "node", "admin-api", "alias", "lookup", "context"]
            );
            assert!(segs[6].contains("%252E"), "{url}");
        }
        let (url, _) = c.endpoint(
            &["admin-api", "contexts", "../../x", "identities-owned"],
            None,
        );
        assert!(
            url.ends_with("/contexts/..%2F..%2Fx/identities-owned"),
            "{url}"
        );
        let c = Client::new(opts("http://host:1")).unwrap();
        assert_eq!(c.url(), "http://host:1");
        assert_eq!(c.endpoint(&["jsonrpc"], None).1, "http://host:1/jsonrpc");
    }

    #[test]
    fn bad_urls_are_input_errors_without_secrets() {
        let e = Client::new(opts("ftp://host/?token=s3cret")).err().unwrap();
        assert_eq!(e.kind, ErrorKind::Input);
        assert!(!e.message.contains("s3cret"));
        let e = Client::new(opts("not a url?token=s3cret")).err().unwrap();
        assert_eq!(e.kind, ErrorKind::Input);
        assert!(!e.message.contains("s3cret"), "{}", e.message);
    }

    #[test]
    fn a_url_without_its_scheme_is_told_to_add_it() {
        for url in ["127.0.0.1:25000", "localhost:2528"] {
            let e = Client::new(opts(url)).err().unwrap();
            assert_eq!(e.code, Code::InvalidUrl);
            assert!(e.message.contains("has no scheme"), "{}", e.message);
            assert!(!e.message.contains("relative URL"), "{}", e.message);
            let hint = e.hint.unwrap();
            assert!(hint.contains(&format!("--node http://{url}")), "{hint}");
        }
    }

    #[test]
    fn execute_body_is_exact() {
        let args = json!({"n": u64::MAX, "m": i64::MIN});
        let b = Client::execute_body("ctx", "set", &args, None, 7);
        assert_eq!(
            b.to_string(),
            r#"{"jsonrpc":"2.0","id":7,"method":"execute","params":{"contextId":"ctx","method":"set","argsJson":{"n":18446744073709551615,"m":-9223372036854775808}}}"#
        );
        let b = Client::execute_body("ctx", "set", &json!({}), Some("pk"), 1);
        assert_eq!(b["params"]["executorPublicKey"], "pk");
    }

    #[test]
    fn a_blob_shared_app_has_no_package_or_version() {
        // rc.4 lists placeholders, rc.25 nothing; both mean unknown.
        let rc4 = parse_app(&json!({
            "id": "A", "blob": {"bytecode": "B"}, "source": "calimero://pending-blob-share",
            "package": "unknown", "version": "0.0.0"
        }))
        .unwrap();
        assert_eq!((rc4.package, rc4.version, rc4.shared), (None, None, true));
        let rc25 = parse_app(&json!({
            "id": "A", "blob": {"bytecode": "B"}, "source": "calimero://pending-blob-share"
        }))
        .unwrap();
        assert_eq!((rc25.package, rc25.version), (None, None));
        // An app really called `unknown` elsewhere keeps its name.
        let named = parse_app(&json!({
            "id": "A", "blob": {"bytecode": "B"}, "source": "file:///x.wasm",
            "package": "unknown", "version": "0.0.0"
        }))
        .unwrap();
        assert_eq!(named.package.as_deref(), Some("unknown"));
    }

    #[test]
    fn apps_and_contexts_parse_leniently() {
        let meta: Vec<Value> =
            br###"{"name":"KV","package":"p.meta","guide":"## Procedures","icon":"x.png"}"###
                .iter()
                .map(|&b| json!(b))
                .collect();
        let app = parse_app(&json!({
            "id": "A", "blob": {"bytecode": "B", "compiled": "C"}, "metadata": meta,
            "signer_id": "S", "version": "1.0",
            "services": {"zeta": {"bytecode": "Z"}, "alpha": {"bytecode": "X"}}
        }))
        .unwrap();
        assert_eq!(app.package.as_deref(), Some("p.meta"));
        assert_eq!(app.name.as_deref(), Some("KV"));
        // Guide and icon as they came: the catalog bounds them.
        assert_eq!(app.guide.as_deref(), Some("## Procedures"));
        assert_eq!(app.icon.as_deref(), Some("x.png"));
        assert_eq!(app.bytecode_blob.as_deref(), Some("B"));
        assert_eq!(
            app.services[0],
            ("alpha".to_string(), Some("X".to_string()))
        );
        assert!(parse_app(&json!({"blob": {}})).is_none());
        let c =
            parse_context(&json!({"id": "C", "applicationId": "A", "serviceName": "s"})).unwrap();
        assert_eq!(c.service_name.as_deref(), Some("s"));
    }
}
