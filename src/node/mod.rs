//! `node`: the HTTP client for a Calimero node (merod), shared by `calimcp call`
//! and the MCP server.
//!
//! Input: a node URL, a timeout and credentials ([`NodeOptions`]). Output: the
//! node's apps, ABIs, contexts and aliases, and the `output` of an `execute`
//! call — or an [`Error`] whose kind says what went wrong: [`ErrorKind::Auth`]
//! (exit 3), [`ErrorKind::Unreachable`] for refused connections and timeouts
//! (exit 4), [`ErrorKind::Remote`] when the node or the app answered with an
//! error (exit 5). Every request is bounded by the timeout. No token or
//! password ever reaches a message or the `-v` log, and URLs in messages carry
//! no query string. Depends on `error` and `text` only; it prints nothing but
//! the `-v` log on stderr.

pub mod auth;
pub mod decode;
pub mod store;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use reqwest::{Method, Url};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::error::{Error, ErrorKind, Result};
use crate::text::{sanitize_doc, sanitize_line};
use auth::Tokens;

/// Where a node listens when nothing else is said (merod's default).
pub const DEFAULT_URL: &str = "http://127.0.0.1:2528";
/// Default bound on every request.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How to reach a node and who to be.
#[derive(Clone)]
pub struct NodeOptions {
    pub url: String,
    pub timeout: Duration,
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
}

impl std::fmt::Debug for NodeOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mask = |s: &Option<String>| s.as_ref().map(|_| "***");
        f.debug_struct("NodeOptions")
            .field("url", &strip_query(&self.url))
            .field("timeout", &self.timeout)
            .field("token", &mask(&self.token))
            .field("refresh_token", &mask(&self.refresh_token))
            .field("username", &self.username)
            .field("password", &mask(&self.password))
            .field("state_dir", &self.state_dir)
            .field("verbose", &self.verbose)
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
    pub signer_id: Option<String>,
    pub bytecode_blob: Option<String>,
    /// `(service name, its bytecode blob)`, sorted by name; empty for a single-service app.
    pub services: Vec<(String, Option<String>)>,
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
}

/// A client for one node. Cheap to clone; clones share the connection pool
/// and the tokens.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    http: reqwest::Client,
    /// Base URL for requests: no query, no fragment, path without a trailing slash.
    base: Url,
    /// The base as messages show it (no credentials, no query).
    shown: String,
    timeout: Duration,
    verbose: bool,
    state_dir: PathBuf,
    username: Option<String>,
    password: Option<String>,
    token_file: PathBuf,
    tokens: tokio::sync::Mutex<Tokens>,
    next_id: AtomicU64,
}

/// A response, read whole.
struct Reply {
    status: u16,
    reason: String,
    content_type: String,
    auth_error: Option<String>,
    retry_after: Option<String>,
    body: Vec<u8>,
}

impl Reply {
    fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Checks a node URL and returns the request base (no query, no fragment, no
/// trailing slash; a base path kept) and the form messages show (also no
/// credentials). Makes no request.
pub fn normalize_url(url: &str) -> Result<(Url, String)> {
    let shown_input = sanitize_line(&strip_query(url));
    let mut base = Url::parse(url.trim()).map_err(|e| {
        Error::input(
            "invalid_url",
            format!("the node URL `{shown_input}` is not a URL: {e}"),
        )
        .with_hint("pass --node http://HOST:PORT (or set CALIMERO_NODE_URL)")
    })?;
    if !matches!(base.scheme(), "http" | "https") || base.cannot_be_a_base() {
        return Err(Error::input(
            "invalid_url",
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

/// `url` without its query string and fragment, for messages.
pub fn strip_query(url: &str) -> String {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    url[..end].to_string()
}

fn percent_free(url: &Url) -> String {
    let mut u = url.clone();
    let _ = u.set_username("");
    let _ = u.set_password(None);
    u.set_query(None);
    u.set_fragment(None);
    u.as_str().trim_end_matches('/').to_string()
}

fn seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// Keys whose values never appear in the `-v` log.
const SECRET_KEYS: &[&str] = &["password", "access_token", "refresh_token", "token"];

fn mask(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| {
                    let x = if SECRET_KEYS.contains(&k.as_str()) && !x.is_null() {
                        Value::String("***".into())
                    } else {
                        mask(x)
                    };
                    (k.clone(), x)
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(mask).collect()),
        v => v.clone(),
    }
}

/// Longest body the `-v` log shows.
const LOG_LIMIT: usize = 4000;

fn log_body(bytes: &[u8]) -> String {
    let text = match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => mask(&v).to_string(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    };
    let text = sanitize_doc(&text);
    if text.chars().count() > LOG_LIMIT {
        format!(
            "{}… ({} bytes)",
            text.chars().take(LOG_LIMIT).collect::<String>(),
            bytes.len()
        )
    } else {
        text
    }
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
    Some(NodeApp {
        id: str_field(v, "id")?,
        package: str_field(v, "package").or_else(|| meta_str("package")),
        version: str_field(v, "version").or_else(|| meta_str("version")),
        name: meta_str("name"),
        signer_id: str_field(v, "signer_id"),
        bytecode_blob: v.get("blob").and_then(|b| str_field(b, "bytecode")),
        services,
    })
}

fn parse_context(v: &Value) -> Option<NodeContext> {
    Some(NodeContext {
        id: str_field(v, "id")?,
        application_id: str_field(v, "applicationId").unwrap_or_default(),
        service_name: str_field(v, "serviceName"),
        name: str_field(v, "name"),
    })
}

impl Client {
    /// A client for `opts.url`. Reads the token cache; makes no request.
    pub fn new(opts: NodeOptions) -> Result<Client> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let (base, shown) = normalize_url(&opts.url)?;
        let http = reqwest::Client::builder()
            .timeout(opts.timeout)
            .connect_timeout(opts.timeout)
            .user_agent(concat!("calimcp/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| Error::internal(format!("cannot set up the HTTP client: {e}")))?;
        let token_file = auth::cache_path(&opts.state_dir, &shown, opts.username.as_deref());
        let env = Tokens {
            access: opts.token.clone(),
            refresh: opts.refresh_token.clone(),
        };
        let (tokens, store) = auth::choose(auth::read_cache(&token_file), env);
        let client = Client {
            inner: Arc::new(Inner {
                http,
                base,
                shown,
                timeout: opts.timeout,
                verbose: opts.verbose,
                state_dir: opts.state_dir,
                username: opts.username,
                password: opts.password,
                token_file,
                tokens: tokio::sync::Mutex::new(tokens.clone()),
                next_id: AtomicU64::new(1),
            }),
        };
        if store {
            client.save_tokens(&tokens);
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

    /// The timeout every request is bounded by.
    pub fn timeout(&self) -> Duration {
        self.inner.timeout
    }

    /// The installed applications (`GET /admin-api/applications`).
    pub async fn applications(&self) -> Result<Vec<NodeApp>> {
        let v = self.get_json(&["admin-api", "applications"], None).await?;
        let apps = v
            .get("apps")
            .or(Some(&v))
            .and_then(Value::as_array)
            .ok_or_else(|| self.unexpected("admin-api/applications", "no `apps` list"))?;
        Ok(apps.iter().filter_map(parse_app).collect())
    }

    /// The ABI manifest of `app` (one service of it), as JSON. Cached on disk
    /// by bytecode blob id and service, so a new version is fetched anew.
    pub async fn abi(&self, app: &NodeApp, service: Option<&str>) -> Result<Value> {
        let blob = match service {
            Some(s) => app
                .services
                .iter()
                .find(|(name, _)| name == s)
                .and_then(|(_, b)| b.clone()),
            None => app.bytecode_blob.clone(),
        };
        let cache = blob.map(|b| {
            let mut h = Sha256::new();
            h.update(b.as_bytes());
            h.update([0]);
            h.update(service.unwrap_or_default().as_bytes());
            let hex: String = h
                .finalize()
                .iter()
                .take(12)
                .map(|b| format!("{b:02x}"))
                .collect();
            self.inner.state_dir.join("abi").join(format!("{hex}.json"))
        });
        if let Some(path) = &cache
            && let Ok(bytes) = std::fs::read(path)
            && let Ok(v) = serde_json::from_slice::<Value>(&bytes)
        {
            self.log(format_args!(
                "= ABI of {}{} from the cache ({})",
                sanitize_line(app.package_or_id()),
                service
                    .map(|s| format!(" ({})", sanitize_line(s)))
                    .unwrap_or_default(),
                path.display()
            ));
            return Ok(v);
        }
        let segments = ["admin-api", "applications", app.id.as_str(), "abi"];
        let query = service.map(|s| ("service_name", s));
        let (url, shown) = self.endpoint(&segments, query);
        let reply = self.request(Method::GET, &url, &shown, None).await?;
        if reply.status == 404 && reply.body.iter().all(u8::is_ascii_whitespace) {
            return Err(Error::new(
                ErrorKind::Remote,
                "abi_unsupported",
                format!(
                    "the node at {} does not serve ABIs: GET /admin-api/applications/:id/abi answered 404 with no body, so its merod predates the ABI endpoint",
                    self.inner.shown
                ),
            )
            .with_hint("upgrade merod to 0.11.0-rc.19 or later, or pass the app's ABI file (a path to abi.json, .wasm or .mpk, or --apps DIR)"));
        }
        let v = data(self.check(reply, &shown)?);
        if !v.is_object() {
            return Err(self.unexpected(&shown, "the ABI is not a JSON object"));
        }
        if let Some(path) = &cache
            && let Err(e) = store::write_private(path, v.to_string().as_bytes())
        {
            self.log(format_args!(
                "= cannot cache the ABI at {}: {e}",
                path.display()
            ));
        }
        Ok(v)
    }

    /// The contexts of one application.
    pub async fn contexts_for_application(&self, app_id: &str) -> Result<Vec<NodeContext>> {
        let v = self
            .get_json(&["admin-api", "contexts", "for-application", app_id], None)
            .await?;
        let list = v
            .get("contexts")
            .or(Some(&v))
            .and_then(Value::as_array)
            .ok_or_else(|| {
                self.unexpected("admin-api/contexts/for-application", "no `contexts` list")
            })?;
        Ok(list.iter().filter_map(parse_context).collect())
    }

    /// The context id an alias names, or `None` when no such alias exists.
    pub async fn lookup_context_alias(&self, alias: &str) -> Result<Option<String>> {
        let segments = ["admin-api", "alias", "lookup", "context", alias];
        let (url, shown) = self.endpoint(&segments, None);
        let reply = self
            .request(Method::POST, &url, &shown, Some(&json!({})))
            .await?;
        // The node rejects impossible alias strings; that is a miss too.
        if matches!(reply.status, 400 | 404) {
            return Ok(None);
        }
        let v = data(self.check(reply, &shown)?);
        Ok(str_field(&v, "value"))
    }

    /// The JSON-RPC body of an `execute` call.
    pub fn execute_body(
        context_id: &str,
        method: &str,
        args_json: &Value,
        executor: Option<&str>,
        id: u64,
    ) -> Value {
        let mut params = json!({
            "contextId": context_id,
            "method": method,
            "argsJson": args_json,
        });
        if let (Some(e), Some(p)) = (executor, params.as_object_mut()) {
            p.insert("executorPublicKey".into(), Value::String(e.to_string()));
        }
        json!({"jsonrpc": "2.0", "id": id, "method": "execute", "params": params})
    }

    /// Calls `method` on a context and returns its `output` (`null` for unit).
    pub async fn execute(
        &self,
        context_id: &str,
        method: &str,
        args_json: &Value,
        executor: Option<&str>,
    ) -> Result<Value> {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let body = Self::execute_body(context_id, method, args_json, executor, id);
        let (url, shown) = self.endpoint(&["jsonrpc"], None);
        let reply = self
            .request(Method::POST, &url, &shown, Some(&body))
            .await?;
        let v = self.check(reply, &shown)?;
        if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
            return Err(decode::rpc_error(method, context_id, err));
        }
        match v.get("result") {
            Some(Value::Object(r)) if r.contains_key("output") => {
                Ok(r.get("output").cloned().unwrap_or(Value::Null))
            }
            Some(r) => Ok(r.clone()),
            None => Err(self.unexpected(&shown, "neither `result` nor `error` in the response")),
        }
    }

    // ---- plumbing ----

    fn log(&self, line: std::fmt::Arguments<'_>) {
        if self.inner.verbose {
            use std::io::Write;
            let _ = writeln!(std::io::stderr().lock(), "{line}");
        }
    }

    fn unexpected(&self, what: &str, why: &str) -> Error {
        Error::new(
            ErrorKind::Remote,
            "unexpected_response",
            format!("unexpected answer from {}: {why}", sanitize_line(what)),
        )
    }

    /// The request URL and the URL messages show for a path under the base.
    fn endpoint(&self, segments: &[&str], query: Option<(&str, &str)>) -> (String, String) {
        let mut url = self.inner.base.clone();
        if let Ok(mut path) = url.path_segments_mut() {
            path.pop_if_empty();
            path.extend(segments);
        }
        let shown = percent_free(&url);
        if let Some((k, v)) = query {
            url.query_pairs_mut().append_pair(k, v);
        }
        (url.to_string(), shown)
    }

    async fn get_json(&self, segments: &[&str], query: Option<(&str, &str)>) -> Result<Value> {
        let (url, shown) = self.endpoint(segments, query);
        let reply = self.request(Method::GET, &url, &shown, None).await?;
        Ok(data(self.check(reply, &shown)?))
    }

    /// A 2xx body as JSON, or the error the response stands for.
    fn check(&self, reply: Reply, shown: &str) -> Result<Value> {
        if !reply.ok() {
            let mut err = decode::http_error(
                reply.status,
                &reply.reason,
                &reply.content_type,
                &reply.body,
                shown,
            );
            if reply.status == 401 {
                err = err.with_hint(
                    "pass --token (or set CALIMERO_AUTH_TOKEN), or set CALIMERO_USERNAME with CALIMERO_PASSWORD or CALIMERO_PASSWORD_FILE",
                );
            } else if reply.status == 403 {
                err = err.with_hint("the token lacks a permission this request needs");
            }
            return Err(err);
        }
        if reply.body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Value::Null);
        }
        serde_json::from_slice(&reply.body)
            .map_err(|e| self.unexpected(shown, &format!("the body is not JSON ({e})")))
    }

    fn transport_error(&self, e: &reqwest::Error, shown: &str) -> Error {
        let mut cause: &dyn std::error::Error = e;
        while let Some(next) = cause.source() {
            cause = next;
        }
        let cause = sanitize_line(&cause.to_string());
        if e.is_timeout() {
            Error::new(
                ErrorKind::Unreachable,
                "timeout",
                format!(
                    "the node at {} did not answer within {} ({shown})",
                    self.inner.shown,
                    seconds(self.inner.timeout)
                ),
            )
            .with_hint("is the node busy or the address wrong? Raise the bound with --timeout SECS")
        } else if e.is_connect() {
            Error::new(
                ErrorKind::Unreachable,
                "unreachable",
                format!("cannot reach the node at {}: {cause}", self.inner.shown),
            )
            .with_hint("is merod running there? Pass --node URL (or set CALIMERO_NODE_URL)")
        } else {
            Error::new(
                ErrorKind::Unreachable,
                "unreachable",
                format!("the request to {shown} failed: {cause}"),
            )
        }
    }

    /// One HTTP exchange, logged with `-v`.
    async fn send_once(
        &self,
        method: Method,
        url: &str,
        shown: &str,
        body: Option<&Value>,
        token: Option<&str>,
    ) -> Result<Reply> {
        self.log(format_args!("> {method} {shown}"));
        let mut req = self.inner.http.request(method, url);
        if let Some(t) = token {
            self.log(format_args!("> authorization: Bearer ***"));
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            let bytes = serde_json::to_vec(b).map_err(|e| Error::internal(e.to_string()))?;
            self.log(format_args!("> {}", log_body(&bytes)));
            req = req
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(bytes);
        }
        let start = Instant::now();
        let resp = req
            .send()
            .await
            .map_err(|e| self.transport_error(&e, shown))?;
        let status = resp.status();
        let header = |name: &str| {
            resp.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let content_type = header("content-type").unwrap_or_default();
        let auth_error = header("x-auth-error");
        let retry_after = header("retry-after");
        let body = resp
            .bytes()
            .await
            .map_err(|e| self.transport_error(&e, shown))?
            .to_vec();
        self.log(format_args!(
            "< {} ({} ms)",
            status,
            start.elapsed().as_millis()
        ));
        if !body.is_empty() {
            self.log(format_args!("< {}", log_body(&body)));
        }
        Ok(Reply {
            status: status.as_u16(),
            reason: status.canonical_reason().unwrap_or("").to_string(),
            content_type,
            auth_error,
            retry_after,
            body,
        })
    }

    /// An authenticated exchange: logs in first when only credentials are
    /// known; on a 401 refreshes (token expired) or logs in again, then
    /// retries once.
    async fn request(
        &self,
        method: Method,
        url: &str,
        shown: &str,
        body: Option<&Value>,
    ) -> Result<Reply> {
        let token = self.current_token().await?;
        let reply = self
            .send_once(method.clone(), url, shown, body, token.as_deref())
            .await?;
        if reply.status != 401 {
            return Ok(reply);
        }
        let renewed = if reply.auth_error.as_deref() == Some("token_expired") {
            self.refresh(token.as_deref()).await?
        } else {
            self.relogin(token.as_deref()).await?
        };
        match renewed {
            Some(t) => self.send_once(method, url, shown, body, Some(&t)).await,
            None => Ok(reply),
        }
    }

    fn credentials(&self) -> Option<(&str, &str)> {
        match (&self.inner.username, &self.inner.password) {
            (Some(u), Some(p)) => Some((u, p)),
            _ => None,
        }
    }

    async fn current_token(&self) -> Result<Option<String>> {
        let mut tokens = self.inner.tokens.lock().await;
        if tokens.access.is_none() && self.credentials().is_some() {
            *tokens = self.login().await?;
            self.save_tokens(&tokens);
        }
        Ok(tokens.access.clone())
    }

    fn save_tokens(&self, t: &Tokens) {
        let url = &self.inner.shown;
        if let Err(e) = auth::write_cache(
            &self.inner.token_file,
            url,
            self.inner.username.as_deref(),
            t,
        ) {
            self.log(format_args!(
                "= cannot write the token cache {}: {e}",
                self.inner.token_file.display()
            ));
        }
    }

    /// After a 401 without `token_expired`: logs in again when credentials are known.
    async fn relogin(&self, used: Option<&str>) -> Result<Option<String>> {
        if self.credentials().is_none() {
            return Ok(None);
        }
        let mut tokens = self.inner.tokens.lock().await;
        if tokens.access.as_deref() != used {
            return Ok(tokens.access.clone());
        }
        *tokens = self.login().await?;
        self.save_tokens(&tokens);
        Ok(tokens.access.clone())
    }

    /// After a 401 `token_expired`: one `POST /auth/refresh`, single-flight.
    async fn refresh(&self, used: Option<&str>) -> Result<Option<String>> {
        let mut tokens = self.inner.tokens.lock().await;
        if tokens.access.as_deref() != used {
            // Another request refreshed while this one waited.
            return Ok(tokens.access.clone());
        }
        let (Some(access), Some(refresh)) = (tokens.access.clone(), tokens.refresh.clone()) else {
            if self.credentials().is_some() {
                *tokens = self.login().await?;
                self.save_tokens(&tokens);
                return Ok(tokens.access.clone());
            }
            return Err(Error::new(
                ErrorKind::Auth,
                "token_expired",
                format!("the access token for {} has expired and there is no refresh token", self.inner.shown),
            )
            .with_hint("pass a new --token (or CALIMERO_AUTH_TOKEN with CALIMERO_REFRESH_TOKEN), or set CALIMERO_USERNAME and CALIMERO_PASSWORD"));
        };
        let (url, shown) = self.endpoint(&["auth", "refresh"], None);
        let body = json!({"access_token": access, "refresh_token": refresh});
        let reply = self
            .send_once(Method::POST, &url, &shown, Some(&body), None)
            .await?;
        if reply.ok() {
            let v = data(self.check(reply, &shown)?);
            let fresh = Tokens {
                access: str_field(&v, "access_token"),
                refresh: str_field(&v, "refresh_token"),
            };
            if fresh.access.is_none() {
                return Err(self.unexpected(&shown, "no access_token in the refresh response"));
            }
            *tokens = fresh;
            self.save_tokens(&tokens);
            return Ok(tokens.access.clone());
        }
        let reused = reply.auth_error.as_deref() == Some("token_reuse");
        if reused || reply.status == 401 || reply.status == 403 {
            // The pair is dead (a replayed refresh token revokes the family).
            *tokens = Tokens::default();
            self.save_tokens(&tokens);
            if self.credentials().is_some() {
                *tokens = self.login().await?;
                self.save_tokens(&tokens);
                return Ok(tokens.access.clone());
            }
            let why = if reused {
                "its refresh token was already used"
            } else {
                "the node refused the refresh"
            };
            return Err(Error::new(
                ErrorKind::Auth,
                "refresh_failed",
                format!(
                    "the access token for {} has expired and cannot be refreshed: {why}",
                    self.inner.shown
                ),
            )
            .with_hint(
                "log in again: pass a new --token, or set CALIMERO_USERNAME and CALIMERO_PASSWORD",
            ));
        }
        // A transient failure keeps the tokens; the original 401 is reported.
        self.log(format_args!(
            "= refresh failed with HTTP {}; keeping the tokens",
            reply.status
        ));
        Ok(None)
    }

    /// `POST /auth/token` with the username and password.
    async fn login(&self) -> Result<Tokens> {
        let Some((user, password)) = self.credentials() else {
            return Ok(Tokens::default());
        };
        let (url, shown) = self.endpoint(&["auth", "token"], None);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or_default();
        let body = json!({
            "auth_method": "user_password",
            "public_key": user,
            "client_name": "calimcp",
            "timestamp": now,
            "permissions": ["admin"],
            "provider_data": {"username": user, "password": password},
        });
        let reply = self
            .send_once(Method::POST, &url, &shown, Some(&body), None)
            .await?;
        if !reply.ok() {
            let said = decode::node_message(&reply.body)
                .map(|m| format!(": {m}"))
                .unwrap_or_else(|| format!(" (HTTP {})", reply.status));
            let mut err = Error::new(
                ErrorKind::Auth,
                "login_failed",
                format!(
                    "logging in to {} as {} failed{said}",
                    self.inner.shown,
                    sanitize_line(user)
                ),
            );
            err = match (reply.status, reply.retry_after) {
                (429, Some(s)) => err.with_hint(format!(
                    "too many failed logins; retry after {} s",
                    sanitize_line(&s)
                )),
                (404, _) => err.with_hint("the node has no /auth routes: it runs without embedded auth, so unset CALIMERO_USERNAME"),
                _ => err.with_hint("check CALIMERO_USERNAME and CALIMERO_PASSWORD (or CALIMERO_PASSWORD_FILE)"),
            };
            return Err(err);
        }
        let v = data(self.check(reply, &shown)?);
        let t = Tokens {
            access: str_field(&v, "access_token"),
            refresh: str_field(&v, "refresh_token"),
        };
        if t.access.is_none() {
            return Err(self.unexpected(&shown, "no access_token in the login response"));
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(url: &str) -> NodeOptions {
        NodeOptions {
            url: url.into(),
            timeout: Duration::from_secs(1),
            token: None,
            refresh_token: None,
            username: None,
            password: None,
            state_dir: std::env::temp_dir().join("calimcp-unit-never-written"),
            verbose: false,
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
    fn secrets_are_masked_in_the_log() {
        let body = br#"{"provider_data":{"username":"u","password":"hunter2"},"access_token":"a","refresh_token":"r"}"#;
        let s = log_body(body);
        assert!(
            !s.contains("hunter2") && !s.contains("\"a\"") && !s.contains("\"r\""),
            "{s}"
        );
        assert!(s.contains("\"username\":\"u\""));
    }

    #[test]
    fn apps_and_contexts_parse_leniently() {
        let meta: Vec<Value> =
            br#"{"name":"KV","package":"p.meta"}"#.iter().map(|&b| json!(b)).collect();
        let app = parse_app(&json!({
            "id": "A", "blob": {"bytecode": "B", "compiled": "C"}, "metadata": meta,
            "signer_id": "S", "version": "1.0",
            "services": {"zeta": {"bytecode": "Z"}, "alpha": {"bytecode": "X"}}
        }))
        .unwrap();
        assert_eq!(app.package.as_deref(), Some("p.meta"));
        assert_eq!(app.name.as_deref(), Some("KV"));
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
