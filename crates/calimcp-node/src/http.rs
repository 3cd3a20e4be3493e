//! One HTTP exchange with the node, and what every exchange shares.
//!
//! [`Client::send_once`] sends a request, follows redirects only within the
//! node's own origin (each hop shown with `-v`; a redirect to another origin
//! is refused, so a call never goes to a host the user did not name), and
//! reads the body as a stream into one buffer, failing with exit 5 as soon as
//! it passes the cap (`CALIMCP_MAX_RESPONSE`, 16 MiB by default; app modules
//! `CALIMCP_MAX_BLOB`, 64 MiB). The `-v` log and every error the node layer
//! returns pass through [`Client::scrub`], which masks calimcp's own token,
//! refresh token and password wherever they appear (secrets shorter than 4
//! characters are not masked: they would garble every message).

use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use reqwest::{Method, Url};
use serde_json::Value;

use super::{Client, decode};
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::text::size;
use calimcp_core::text::{sanitize_doc, sanitize_line};

/// Default cap on a response body: generous for real results (the node's own
/// request limits are of the 10 MiB class).
pub const DEFAULT_MAX_RESPONSE: u64 = 16 << 20;
/// Default cap on an application module downloaded for its embedded ABI.
pub const DEFAULT_MAX_BLOB: u64 = 64 << 20;
/// Most redirects followed for one request.
const MAX_HOPS: usize = 5;
/// Shortest secret that is masked in texts.
const MIN_SECRET: usize = 4;

/// A response, read whole (within its cap).
pub(super) struct Reply {
    pub status: u16,
    pub reason: String,
    pub content_type: String,
    pub auth_error: Option<String>,
    pub retry_after: Option<String>,
    pub body: Vec<u8>,
    /// Sent with no token at all (none given, cached or logged in with): a
    /// 401 then means "not logged in" ([`Code::NotLoggedIn`]).
    pub without_token: bool,
    /// Sent with a JWT that has no `key_id` claim, which merod 0.11.0-rc.83
    /// requires: a bare 401 then means a token issued before the node's
    /// upgrade ([`super::auth::lacks_key_id`]).
    pub key_id_missing: bool,
}

impl Reply {
    pub(crate) fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    pub(crate) fn bodyless(&self) -> bool {
        self.body.iter().all(u8::is_ascii_whitespace)
    }
}

/// How much of a body to read, the variable that raises it, and how long
/// the whole exchange may take.
#[derive(Clone, Copy)]
pub(super) struct Cap {
    pub bytes: u64,
    pub var: &'static str,
    pub bound: Duration,
}

/// A URL as typed, as messages may show it: without its query, fragment or
/// credentials (`user:password@` becomes `***@`), whether or not it parses —
/// an invalid URL's error must not print its password. Everything up to the
/// last `@` is taken for credentials (a mistyped password may hold `/`, `?`
/// or `#`): an `@` later in the URL hides more than it must, never less.
pub fn url_text(url: &str) -> String {
    let start = url.find("://").map_or(0, |i| i + 3);
    let (head, rest) = match url[start..].rfind('@') {
        Some(at) => (format!("{}***@", &url[..start]), &url[start + at + 1..]),
        None => (url[..start].to_string(), &url[start..]),
    };
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    format!("{head}{}", &rest[..end])
}

/// A URL as messages show it: no credentials, no query, no trailing slash.
pub(super) fn percent_free(url: &Url) -> String {
    let mut u = url.clone();
    let _ = u.set_username("");
    let _ = u.set_password(None);
    u.set_query(None);
    u.set_fragment(None);
    u.as_str().trim_end_matches('/').to_string()
}

pub(super) fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else if d < Duration::from_millis(100) {
        super::events::span(d)
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// `s` with every byte but `keep` percent-encoded (`%2F`, or `%2f` when
/// `lower`), and a space as `+` when `plus` (HTML form encoding).
fn percent_encoded(s: &str, keep: &[u8], lower: bool, plus: bool) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || keep.contains(&b) {
                (b as char).to_string()
            } else if plus && b == b' ' {
                "+".to_string()
            } else if lower {
                format!("%{b:02x}")
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// `s` as JSON writes it with `\u` escapes: every character that is not
/// ASCII-alphanumeric when `all`, else those outside printable ASCII and the
/// ones some encoders escape (`<`, `>`, `&`, `'`); hex digits `lower` or not.
fn unicode_escaped(s: &str, all: bool, lower: bool) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let plain = c.is_ascii_alphanumeric()
            || (!all && (' '..='~').contains(&c) && !"<>&'\"\\".contains(c));
        if plain {
            out.push(c);
            continue;
        }
        let mut units = [0u16; 2];
        for u in c.encode_utf16(&mut units) {
            if lower {
                out.push_str(&format!("\\u{u:04x}"));
            } else {
                out.push_str(&format!("\\u{u:04X}"));
            }
        }
    }
    out
}

/// The forms a secret takes in a text a node or a proxy sends back: as
/// written; inside JSON (escaped, quoted twice, `\u`-escaped); in a URL or a
/// form (percent-encoded in either case, `+` for a space); in base64.
fn secret_forms(s: &str) -> Vec<String> {
    let json = serde_json::to_string(s).unwrap_or_default();
    let json = json.trim_matches('"').to_string();
    let twice = serde_json::to_string(&json)
        .unwrap_or_default()
        .trim_matches('"')
        .to_string();
    let mut forms = vec![s.to_string(), json, twice];
    for lower in [false, true] {
        forms.push(percent_encoded(s, b"-._~", lower, false));
        forms.push(percent_encoded(s, b"*-._", lower, true));
        forms.push(unicode_escaped(s, false, lower));
        forms.push(unicode_escaped(s, true, lower));
    }
    forms.extend([
        STANDARD.encode(s),
        STANDARD_NO_PAD.encode(s),
        URL_SAFE.encode(s),
        URL_SAFE_NO_PAD.encode(s),
    ]);
    forms
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

/// A body for the `-v` log: secret keys masked, then every known secret
/// (`scrub`), and only then cut to [`LOG_LIMIT`], so no part of a secret shows.
pub(super) fn log_body(bytes: &[u8], scrub: impl Fn(&str) -> String) -> String {
    let text = match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => mask(&v).to_string(),
        // Enough to fill the limit after masking (a secret is masked whole).
        Err(_) => String::from_utf8_lossy(&bytes[..bytes.len().min(LOG_LIMIT * 8)]).into_owned(),
    };
    let text = sanitize_doc(&scrub(&text));
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

fn origin_of(u: &Url) -> (String, Option<String>, Option<u16>) {
    (
        u.scheme().to_string(),
        u.host_str().map(str::to_string),
        u.port_or_known_default(),
    )
}

impl Client {
    /// Remembers a secret so that no text shows it.
    pub(super) fn add_secret(&self, s: Option<&str>) {
        let Some(s) = s.filter(|s| s.len() >= MIN_SECRET) else {
            return;
        };
        let mut list = self.inner.secrets.lock().unwrap_or_else(|e| e.into_inner());
        for form in secret_forms(s) {
            if form.len() >= MIN_SECRET && !list.contains(&form) {
                list.push(form);
            }
        }
        // Longest first, so a secret containing another is masked whole.
        list.sort_by_key(|x| std::cmp::Reverse(x.len()));
    }

    /// `text` with every known secret replaced by `***`.
    pub(crate) fn scrub(&self, text: &str) -> String {
        let list = self.inner.secrets.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = text.to_string();
        for s in list.iter() {
            if out.contains(s.as_str()) {
                out = out.replace(s.as_str(), "***");
            }
        }
        out
    }

    /// An error with every known secret masked in its message and hint.
    pub(super) fn scrub_err(&self, mut e: Error) -> Error {
        e.message = self.scrub(&e.message);
        e.hint = e.hint.map(|h| self.scrub(&h));
        e
    }

    pub(super) fn log(&self, line: std::fmt::Arguments<'_>) {
        if self.inner.verbose {
            use std::io::Write;
            let text = self.scrub(&line.to_string());
            let _ = writeln!(std::io::stderr().lock(), "{text}");
        }
    }

    pub(super) fn unexpected(&self, what: &str, why: &str) -> Error {
        Error::new(
            ErrorKind::Remote,
            Code::UnexpectedResponse,
            format!("unexpected answer from {}: {why}", sanitize_line(what)),
        )
    }

    /// The request URL and the URL messages show for a path under the base.
    pub(super) fn endpoint(
        &self,
        segments: &[&str],
        query: Option<(&str, &str)>,
    ) -> (String, String) {
        self.endpoint_at(&self.inner.base, segments, query)
    }

    /// [`Client::endpoint`] under another base (the origin, for `/auth`).
    pub(super) fn endpoint_at(
        &self,
        base: &Url,
        segments: &[&str],
        query: Option<(&str, &str)>,
    ) -> (String, String) {
        let mut url = base.clone();
        if let Ok(mut path) = url.path_segments_mut() {
            path.pop_if_empty();
            // Every segment is data: `/`, `%` and the rest are
            // percent-encoded, and a name `.` or `..` (which a URL would
            // resolve, changing the route) is sent with its dots encoded.
            path.extend(segments.iter().map(|s| match *s {
                "." | ".." => std::borrow::Cow::Owned(s.replace('.', "%2E")),
                s => std::borrow::Cow::Borrowed(s),
            }));
        }
        let shown = percent_free(&url);
        if let Some((k, v)) = query {
            url.query_pairs_mut().append_pair(k, v);
        }
        (url.to_string(), shown)
    }

    pub(super) async fn get_json(
        &self,
        segments: &[&str],
        query: Option<(&str, &str)>,
    ) -> Result<Value> {
        let (url, shown) = self.endpoint(segments, query);
        let reply = self.request(Method::GET, &url, &shown, None).await?;
        Ok(super::data(self.check(reply, &shown)?))
    }

    /// A 2xx body as JSON, or the error the response stands for.
    pub(super) fn check(&self, reply: Reply, shown: &str) -> Result<Value> {
        if !reply.ok() {
            return Err(self.status_error(&reply, shown));
        }
        if reply.bodyless() {
            return Ok(Value::Null);
        }
        serde_json::from_slice(&reply.body)
            .map_err(|e| self.unexpected(shown, &format!("the body is not JSON ({e})")))
    }

    /// The error an answer outside 2xx stands for. The guard's 401 and 403
    /// have no body: the message says what the status means on a node.
    pub(super) fn status_error(&self, reply: &Reply, shown: &str) -> Error {
        let node = &self.inner.shown;
        if matches!(reply.status, 401 | 403) && reply.bodyless() {
            let why = match (reply.status, reply.auth_error.as_deref()) {
                (401, Some("token_expired")) => "its access token has expired".to_string(),
                (401, Some("token_reuse")) | (403, Some("token_revoked")) => {
                    "its token was revoked".to_string()
                }
                (401, Some(other)) => format!("it refused the token ({})", sanitize_line(other)),
                (401, None) if reply.key_id_missing => {
                    "it no longer accepts the token calimcp sent, which was issued before the node was upgraded: merod 0.11.0-rc.83 and later refuse every token without a `key_id` claim, so a login made before the upgrade must be made again".to_string()
                }
                (401, None) => "it needs a valid access token".to_string(),
                (_, Some("permission_denied")) | (_, None) => {
                    "the token lacks a permission this request needs".to_string()
                }
                (_, Some(other)) => format!("it refused the token ({})", sanitize_line(other)),
            };
            let hint = if reply.status == 401 && reply.key_id_missing {
                "log in again: `calimcp login` (the login stays for later commands), or a new --token (or CALIMERO_AUTH_TOKEN) issued by the upgraded node"
            } else if reply.status == 403
                && !matches!(reply.auth_error.as_deref(), Some("token_revoked"))
            {
                "log in with a user that has the permission (CALIMERO_USERNAME and CALIMERO_PASSWORD), or pass a token that has it (--token)"
            } else {
                "log in with `calimcp login` (the login stays), pass --token (or set CALIMERO_AUTH_TOKEN), or set CALIMERO_USERNAME with CALIMERO_PASSWORD or CALIMERO_PASSWORD_FILE"
            };
            let code = match reply.status == 401 && reply.without_token {
                true => Code::NotLoggedIn,
                false => Code::Auth,
            };
            return Error::new(
                ErrorKind::Auth,
                code,
                format!(
                    "the node at {node} answered HTTP {} {} to {shown}: {why}",
                    reply.status, reply.reason
                ),
            )
            .with_hint(hint);
        }
        // Masked before the message quotes (and cuts) the body.
        let body = self.scrub(&String::from_utf8_lossy(&reply.body));
        if let Some(refused) = self.not_a_member(reply.status, &body, shown) {
            return refused;
        }
        let mut err = decode::http_error(
            reply.status,
            &reply.reason,
            &reply.content_type,
            body.as_bytes(),
            shown,
        );
        if reply.status == 401 {
            if reply.without_token {
                err.code = Code::NotLoggedIn;
            }
            err = err.with_hint(
                "log in with `calimcp login` (the login stays), pass --token (or set CALIMERO_AUTH_TOKEN), or set CALIMERO_USERNAME with CALIMERO_PASSWORD or CALIMERO_PASSWORD_FILE",
            );
        } else if reply.status == 403 {
            err = err.with_hint("the token lacks a permission this request needs");
        } else if reply.status == 404 && decode::node_message(&reply.body).is_none() {
            // Not the node's "no such context" but no route at all: almost
            // always a URL whose path is not where the node serves its API.
            err = err.with_hint(format!(
                "the node at {node} has no such route: check the URL. A node started with NODE_PATH_PREFIX serves its API under that prefix, which the URL must end with (http://HOST:2528/PREFIX); a node without one serves it at the bare origin (http://HOST:2528)"
            ));
        }
        err
    }

    /// A 403 from an admin-API handler, with its `{"error"}` (the guard's
    /// have no body): merod 0.11.0-rc.83's typed refusal of a caller that is
    /// not a member of the context or group the request acts on (KTHTTP,
    /// the wire record ../shared/reference/merod-rc83-wire.md §0 "Typed
    /// refusals"). The SSE subscription's 403 (another principal's session)
    /// is not one.
    fn not_a_member(&self, status: u16, body: &str, shown: &str) -> Option<Error> {
        if status != 403 || !shown.contains("/admin-api/") {
            return None;
        }
        let words = decode::node_message(body.as_bytes())?;
        Some(
            Error::new(
                ErrorKind::Auth,
                Code::NotAMember,
                format!(
                    "the node at {} refused {shown} (HTTP 403): the caller is not a member of the context or group it acts on; the node said: {words}",
                    self.inner.shown
                ),
            )
            .with_hint("join the context's namespace on this node first, or use the token of a member (or of the node's owner)"),
        )
    }

    pub(super) fn transport_error(&self, e: &reqwest::Error, shown: &str) -> Error {
        self.transport_error_in(e, shown, self.inner.timeout)
    }

    /// The error a failed exchange stands for; `bound` is what it was allowed.
    pub(super) fn transport_error_in(
        &self,
        e: &reqwest::Error,
        shown: &str,
        bound: Duration,
    ) -> Error {
        let mut cause: &dyn std::error::Error = e;
        while let Some(next) = cause.source() {
            cause = next;
        }
        let cause = sanitize_line(&cause.to_string());
        if e.is_timeout() {
            Error::new(
                ErrorKind::Unreachable,
                Code::Timeout,
                format!(
                    "the node at {} did not answer within {} ({shown})",
                    self.inner.shown,
                    seconds(bound)
                ),
            )
            .with_hint("is the node busy or the address wrong? Raise the bound with --timeout SECS")
        } else if e.is_connect() {
            Error::new(
                ErrorKind::Unreachable,
                Code::Unreachable,
                format!("cannot reach the node at {}: {cause}", self.inner.shown),
            )
            .with_hint("is merod running there? Pass --node URL (or set CALIMERO_NODE_URL)")
            .retryable()
        } else {
            Error::new(
                ErrorKind::Unreachable,
                Code::Unreachable,
                format!("the request to {shown} failed: {cause}"),
            )
        }
    }

    /// The cap on an ordinary response body.
    pub(super) fn response_cap(&self) -> Cap {
        Cap {
            bytes: self.inner.max_response,
            var: "CALIMCP_MAX_RESPONSE",
            bound: self.inner.timeout,
        }
    }

    /// The cap on an `execute` answer: the ordinary size, the execute bound.
    pub(super) fn execute_cap(&self) -> Cap {
        Cap {
            bound: self.inner.execute_timeout,
            ..self.response_cap()
        }
    }

    /// One HTTP exchange (following same-origin redirects), logged with `-v`.
    pub(super) async fn send_once(
        &self,
        method: Method,
        url: &str,
        shown: &str,
        body: Option<&Value>,
        token: Option<&str>,
    ) -> Result<Reply> {
        self.send_capped(method, url, shown, body, token, self.response_cap())
            .await
    }

    pub(super) async fn send_capped(
        &self,
        mut method: Method,
        url: &str,
        shown: &str,
        body: Option<&Value>,
        token: Option<&str>,
        cap: Cap,
    ) -> Result<Reply> {
        let bytes = match body {
            Some(b) => Some(serde_json::to_vec(b).map_err(|e| Error::internal(e.to_string()))?),
            None => None,
        };
        let mut bytes = bytes;
        let mut current = Url::parse(url).map_err(|e| Error::internal(e.to_string()))?;
        let mut current_shown = shown.to_string();
        let first = origin_of(&current);
        for hop in 0..=MAX_HOPS {
            self.log(format_args!("> {method} {current_shown}"));
            let req = self.request_to(&method, &current, token, bytes.as_deref(), cap);
            let start = Instant::now();
            let resp = req
                .send()
                .await
                .map_err(|e| self.transport_error_in(&e, &current_shown, cap.bound))?;
            let status = resp.status();
            let header = |name: &str| {
                resp.headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string)
            };
            if status.is_redirection()
                && let Some(location) = header("location")
            {
                let (next, next_shown) =
                    self.redirect(status, start, &location, &current, &current_shown, &first)?;
                if hop == MAX_HOPS {
                    break;
                }
                // 307 and 308 repeat the request; the others turn it into a GET.
                if !matches!(status.as_u16(), 307 | 308) {
                    method = Method::GET;
                    bytes = None;
                }
                current = next;
                current_shown = next_shown;
                continue;
            }
            let reply = self.reply(resp, &current_shown, cap).await?;
            self.log(format_args!(
                "< {} ({} ms)",
                status,
                start.elapsed().as_millis()
            ));
            if !reply.body.is_empty() {
                self.log(format_args!(
                    "< {}",
                    log_body(&reply.body, |t| self.scrub(t))
                ));
            }
            return Ok(reply);
        }
        Err(Error::new(
            ErrorKind::Remote,
            Code::TooManyRedirects,
            format!("{shown} redirected more than {MAX_HOPS} times"),
        ))
    }

    /// One request of an exchange, with its token and JSON body (logged
    /// with `-v`, the token never shown).
    fn request_to(
        &self,
        method: &Method,
        url: &Url,
        token: Option<&str>,
        bytes: Option<&[u8]>,
        cap: Cap,
    ) -> reqwest::RequestBuilder {
        let mut req = self
            .inner
            .http
            .request(method.clone(), url.clone())
            .timeout(cap.bound);
        if let Some(t) = token {
            self.log(format_args!("> authorization: Bearer ***"));
            req = req.bearer_auth(t);
        }
        if let Some(trace) = crate::trace::current() {
            self.log(format_args!("> traceparent: {}", trace.traceparent));
            req = req.header("traceparent", trace.traceparent);
            if let Some(state) = trace.tracestate {
                req = req.header("tracestate", state);
            }
        }
        if let Some(b) = bytes {
            self.log(format_args!("> {}", log_body(b, |t| self.scrub(t))));
            req = req
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(b.to_vec());
        }
        req
    }

    /// Where a redirect to `location` leads from `current` (shown as
    /// `current_shown`), logged; refused when it leaves the origin `first`.
    fn redirect(
        &self,
        status: reqwest::StatusCode,
        start: Instant,
        location: &str,
        current: &Url,
        current_shown: &str,
        first: &(String, Option<String>, Option<u16>),
    ) -> Result<(Url, String)> {
        self.log(format_args!(
            "< {} ({} ms) location: {}",
            status,
            start.elapsed().as_millis(),
            sanitize_line(&url_text(location))
        ));
        let next = current
            .join(location)
            .map_err(|_| self.unexpected(current_shown, "a redirect to an unreadable location"))?;
        let next_shown = percent_free(&next);
        if origin_of(&next) != *first {
            return Err(Error::new(
                ErrorKind::Remote,
                Code::RedirectRefused,
                format!(
                    "{current_shown} answered HTTP {} with a redirect to another origin ({}); calimcp does not follow redirects away from the node it was given",
                    status.as_u16(),
                    sanitize_line(&next_shown)
                ),
            )
            .with_hint("if the node has moved, pass its new URL with --node (or CALIMERO_NODE_URL)"));
        }
        Ok((next, next_shown))
    }

    /// A response read whole (its body within `cap`), with the headers a
    /// caller decides on.
    pub(super) async fn reply(
        &self,
        resp: reqwest::Response,
        shown: &str,
        cap: Cap,
    ) -> Result<Reply> {
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
        let body = self.read_body(resp, shown, cap).await?;
        Ok(Reply {
            status: status.as_u16(),
            reason: status.canonical_reason().unwrap_or("").to_string(),
            content_type,
            auth_error,
            retry_after,
            body,
            without_token: false,
            key_id_missing: false,
        })
    }

    /// Reads a body chunk by chunk into one buffer, stopping past `cap`.
    pub(super) async fn read_body(
        &self,
        mut resp: reqwest::Response,
        shown: &str,
        cap: Cap,
    ) -> Result<Vec<u8>> {
        let too_large = || {
            Error::new(
                ErrorKind::Remote,
                Code::ResponseTooLarge,
                format!(
                    "the answer from {shown} is larger than {}, the limit calimcp reads",
                    size(cap.bytes)
                ),
            )
            .with_hint(format!(
                "raise the limit with {}=SIZE (e.g. {}={})",
                cap.var,
                cap.var,
                size(cap.bytes.saturating_mul(4)).replace(' ', "")
            ))
        };
        let declared = resp.content_length();
        if declared.is_some_and(|n| n > cap.bytes) {
            return Err(too_large());
        }
        let mut body = Vec::with_capacity(declared.unwrap_or(0) as usize);
        while let Some(chunk) = resp
            .chunk()
            .await
            .map_err(|e| self.transport_error_in(&e, shown, cap.bound))?
        {
            if (body.len() + chunk.len()) as u64 > cap.bytes {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_timeout_is_never_shown_as_zero() {
        assert_eq!(seconds(Duration::from_secs_f64(0.0001)), "100 µs");
        assert_eq!(seconds(Duration::from_millis(20)), "20 ms");
        assert_eq!(seconds(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(seconds(Duration::from_secs(30)), "30 s");
    }

    #[test]
    fn a_url_shown_in_a_message_has_no_password() {
        assert_eq!(url_text("http://h:1/p?token=x#f"), "http://h:1/p");
        for bad in [
            "http://alice:S3cretUserPw@h:1/x",
            "http://alice:S3cret/UserPw@h",
            "http://alice:S3cret?UserPw@h",
            "alice:S3cretUserPw@h",
            "http://alice:S3cretUserPw@",
        ] {
            let t = url_text(bad);
            assert!(
                !t.contains("S3cret") && !t.contains("UserPw"),
                "{bad} -> {t}"
            );
            assert!(t.contains("***@"), "{t}");
        }
    }

    fn reply(status: u16, reason: &str, auth_error: Option<&str>) -> Reply {
        Reply {
            status,
            reason: reason.into(),
            content_type: String::new(),
            auth_error: auth_error.map(str::to_string),
            retry_after: None,
            body: Vec::new(),
            without_token: false,
            key_id_missing: false,
        }
    }

    #[test]
    fn empty_guard_answers_say_what_happened_and_what_to_do() {
        let mut o = super::super::NodeOptions::new("http://n:1", std::env::temp_dir());
        o.password = Some("hunter22".into());
        let c = Client::new(o).unwrap();
        let cases = [
            (
                401,
                "Unauthorized",
                None,
                "needs a valid access token",
                "--token",
            ),
            (
                401,
                "Unauthorized",
                Some("token_expired"),
                "has expired",
                "--token",
            ),
            (
                403,
                "Forbidden",
                Some("token_revoked"),
                "was revoked",
                "--token",
            ),
            (
                403,
                "Forbidden",
                Some("permission_denied"),
                "lacks a permission",
                "permission",
            ),
            (403, "Forbidden", None, "lacks a permission", "permission"),
        ];
        for (status, reason, header, said, hint) in cases {
            let e = c.status_error(&reply(status, reason, header), "http://n:1/x");
            assert_eq!(e.kind, ErrorKind::Auth);
            assert!(
                e.message.contains(&format!("HTTP {status}")),
                "{}",
                e.message
            );
            assert!(e.message.contains(said), "{}", e.message);
            assert!(e.hint.unwrap().contains(hint));
        }
        assert_eq!(c.scrub("pw=hunter22!"), "pw=***!");
        // Echoed inside JSON, escaped (issue 24.11).
        c.add_secret(Some(r#"p"w\d!x"#));
        let echoed = serde_json::json!({"error": r#"bad password p"w\d!x"#}).to_string();
        assert!(echoed.contains(r#"p\"w\\d!x"#), "{echoed}");
        assert_eq!(c.scrub(&echoed), r#"{"error":"bad password ***"}"#);

        c.add_secret(Some("abc"));
        assert_eq!(c.scrub("abc"), "abc", "too short to mask");
    }

    /// No run of this many characters of a secret may show.
    fn shows_part_of(text: &str, secret: &str) -> bool {
        let chars: Vec<char> = secret.chars().collect();
        chars
            .windows(6)
            .any(|w| text.contains(&w.iter().collect::<String>()))
    }

    #[test]
    fn secrets_are_masked_before_a_text_is_cut() {
        // Issue 28.10: the cut fell inside the token, so half of it showed.
        let token = "eyJhbGciOiJFZERTQSJ9.abcdefghijklmnopqrstuvw";
        let mut o = super::super::NodeOptions::new("http://n:1", std::env::temp_dir());
        o.token = Some(token.into());
        let c = Client::new(o).unwrap();
        for lead in [250, 270, 290, 3980, 3990] {
            let body = format!("{} {token} {}", "x".repeat(lead), "y".repeat(5000));
            let mut r = reply(502, "Bad Gateway", None);
            r.content_type = "text/plain".into();
            r.body = body.clone().into_bytes();
            let e = c.status_error(&r, "http://n:1/x");
            assert!(!shows_part_of(&e.message, token), "{}", e.message);
            let logged = log_body(body.as_bytes(), |t| c.scrub(t));
            assert!(!shows_part_of(&logged, token), "{logged}");
        }
    }

    #[test]
    fn secrets_are_masked_in_every_encoding_a_node_echoes() {
        let pw = "p@ss wörd+&<1";
        let mut o = super::super::NodeOptions::new("http://n:1", std::env::temp_dir());
        o.password = Some(pw.into());
        let c = Client::new(o).unwrap();
        let echoes = [
            // lowercase-hex percent-encoding
            "p%40ss%20w%c3%b6rd%2b%26%3c1".to_string(),
            // form encoding: a space as `+`
            "p%40ss+w%C3%B6rd%2B%26%3C1".to_string(),
            // `\u` escapes in a text body (non-ASCII and HTML characters)
            r"p@ss wörd+&<1".to_string(),
            r"p@ss wörd+&<1".to_string(),
            // base64 (no `+` or `/` in this one: both alphabets), padded or not
            "cEBzcyB3w7ZyZCsmPDE=".to_string(),
            "cEBzcyB3w7ZyZCsmPDE".to_string(),
        ];
        for echo in echoes {
            let text = format!("login failed for {echo}.");
            assert_eq!(c.scrub(&text), "login failed for ***.", "{echo}");
        }
        // A secret whose base64 differs in the two alphabets, each padded or not.
        let mut o = super::super::NodeOptions::new("http://n:1", std::env::temp_dir());
        o.password = Some("k?>~ey1".into());
        let c = Client::new(o).unwrap();
        for echo in ["az8+fmV5MQ==", "az8+fmV5MQ", "az8-fmV5MQ==", "az8-fmV5MQ"] {
            let text = format!("login failed for {echo}.");
            assert_eq!(c.scrub(&text), "login failed for ***.", "{echo}");
        }
    }

    #[test]
    fn secrets_are_masked_in_the_log() {
        let body = br#"{"provider_data":{"username":"u","password":"hunter2"},"access_token":"a","refresh_token":"r"}"#;
        let s = log_body(body, str::to_string);
        assert!(
            !s.contains("hunter2") && !s.contains("\"a\"") && !s.contains("\"r\""),
            "{s}"
        );
        assert!(s.contains("\"username\":\"u\""));
    }
}
