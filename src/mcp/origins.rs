//! Browser origins of `serve --http`'s `/mcp`: which `Origin`s may call it
//! (loopback's, and `--allow-origin`'s) and the CORS answers a browser page
//! of such an origin needs to reach it. The one place the rule lives: rmcp's
//! own origin check is off ([`super::http`] disables it), because a browser
//! asks with a preflight rmcp answers 405 and reads no answer that lacks
//! `Access-Control-Allow-Origin`.
//!
//! An entry is `SCHEME://HOST[:PORT]` or `SCHEME://HOST:*` (any port); with
//! no port, the scheme's default (80, 443). `null` allows the opaque origin
//! (a sandboxed iframe, a `file:` page). A request without `Origin` (not
//! from a browser page) passes; one whose `Origin` is not allowed gets 403,
//! its preflight too, with no CORS header, so the browser stops there.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The headers a page may send to `/mcp` (the preflight's answer).
const ALLOW_HEADERS: &str =
    "content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id";
/// The methods of the Streamable HTTP transport.
const ALLOW_METHODS: &str = "GET, POST, DELETE, OPTIONS";
/// The answer's headers a page may read.
const EXPOSE_HEADERS: &str = "mcp-session-id, mcp-protocol-version";
/// How long a browser may keep a preflight's answer, in seconds.
const MAX_AGE: &str = "600";

/// The allowed origins, read.
#[derive(Debug, Clone, Default)]
pub(crate) struct Origins(Vec<Allowed>);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Allowed {
    /// `null`: the opaque origin.
    Null,
    Tuple {
        scheme: String,
        host: String,
        /// `None`: any port (`:*`).
        port: Option<u16>,
    },
}

impl Origins {
    /// The entries, each checked: a malformed one is named in the error.
    pub(crate) fn parse(entries: &[String]) -> Result<Origins, String> {
        entries
            .iter()
            .map(|e| {
                Allowed::parse(e).ok_or_else(|| {
                    format!(
                        "--allow-origin `{}` is not an origin: give SCHEME://HOST, SCHEME://HOST:PORT or SCHEME://HOST:* (https://app.example, http://localhost:*)",
                        calimcp_core::text::sanitize_line(e)
                    )
                })
            })
            .collect::<Result<_, _>>()
            .map(Origins)
    }

    /// Whether a browser page of `origin` (an `Origin` header) may call.
    fn allows(&self, origin: &str) -> bool {
        let Some(origin) = Allowed::parse(origin) else {
            return false;
        };
        self.0.iter().any(|a| match (a, &origin) {
            (Allowed::Null, Allowed::Null) => true,
            (
                Allowed::Tuple { scheme, host, port },
                Allowed::Tuple {
                    scheme: s,
                    host: h,
                    port: p,
                },
            ) => scheme == s && host == h && (port.is_none() || port == p),
            _ => false,
        })
    }
}

impl Allowed {
    /// An entry or an `Origin` header: `null`, `SCHEME://HOST[:PORT]`,
    /// `SCHEME://HOST:*` (no path, no user); the port made explicit.
    fn parse(value: &str) -> Option<Allowed> {
        let value = value.trim();
        if value.eq_ignore_ascii_case("null") {
            return Some(Allowed::Null);
        }
        let (value, any_port) = match value.strip_suffix(":*") {
            Some(base) => (base, true),
            None => (value, false),
        };
        let uri: axum::http::Uri = value.parse().ok()?;
        let scheme = uri.scheme_str()?.to_ascii_lowercase();
        let authority = uri.authority()?;
        let bare = uri.path().is_empty() || uri.path() == "/";
        if !bare || uri.query().is_some() || authority.as_str().contains('@') {
            return None;
        }
        let port = match (any_port, authority.port_u16()) {
            (true, Some(_)) => return None,
            (true, None) => None,
            (false, Some(p)) => Some(p),
            (false, None) => Some(match scheme.as_str() {
                "http" => 80,
                "https" => 443,
                _ => return None,
            }),
        };
        Some(Allowed::Tuple {
            scheme,
            host: authority.host().to_ascii_lowercase(),
            port,
        })
    }
}

/// The middleware on `/mcp`: a foreign `Origin` refused, an allowed one's
/// preflight answered, and its answers given the CORS headers.
pub(crate) async fn gate(State(origins): State<Origins>, req: Request, next: Next) -> Response {
    let Some(origin) = req.headers().get(header::ORIGIN).cloned() else {
        return next.run(req).await;
    };
    let allowed = origin.to_str().is_ok_and(|o| origins.allows(o));
    if !allowed {
        return (
            StatusCode::FORBIDDEN,
            "Forbidden: Origin header is not allowed",
        )
            .into_response();
    }
    let preflight = req.method() == Method::OPTIONS
        && req
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    if preflight {
        let mut answer = StatusCode::NO_CONTENT.into_response();
        let h = answer.headers_mut();
        allow(h, origin);
        h.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static(ALLOW_METHODS),
        );
        h.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static(ALLOW_HEADERS),
        );
        h.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static(MAX_AGE),
        );
        // Chromium asks before a page of a public origin reaches a private
        // (loopback) address; the origin is one the user allowed.
        if req
            .headers()
            .get("access-control-request-private-network")
            .is_some_and(|v| v == "true")
        {
            h.insert(
                "access-control-allow-private-network",
                HeaderValue::from_static("true"),
            );
        }
        return answer;
    }
    let mut answer = next.run(req).await;
    let h = answer.headers_mut();
    allow(h, origin);
    h.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static(EXPOSE_HEADERS),
    );
    answer
}

/// The origin allowed, by name (never `*`), and caches told it varies.
fn allow(h: &mut HeaderMap, origin: HeaderValue) {
    h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    h.append(header::VARY, HeaderValue::from_static("origin"));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origins(list: &[&str]) -> Origins {
        Origins::parse(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn an_origin_is_allowed_by_scheme_host_and_port() {
        let o = origins(&[
            "https://app.example",
            "http://localhost:*",
            "http://x.test:8080",
        ]);
        assert!(o.allows("https://app.example"));
        assert!(o.allows("https://APP.example:443"));
        assert!(!o.allows("https://app.example:8443"));
        assert!(!o.allows("http://app.example"));
        assert!(o.allows("http://localhost:6274"));
        assert!(o.allows("http://localhost"));
        assert!(o.allows("http://x.test:8080"));
        assert!(!o.allows("http://x.test"));
        assert!(!o.allows("https://attacker.example"));
        assert!(!o.allows("null"));
        assert!(!o.allows("not an origin"));
        assert!(origins(&["null"]).allows("null"));
    }

    #[test]
    fn a_malformed_entry_is_named() {
        for bad in [
            "app.example",
            "https://app.example/path",
            "https://u@app.example",
            "https://app.example:443:*",
            "ftp://app.example",
        ] {
            let e = Origins::parse(&[bad.to_string()]).unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
    }
}
