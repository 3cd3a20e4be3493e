//! The Streamable HTTP transport: rmcp's `StreamableHttpService` mounted at
//! `/mcp` on an axum server (JSON-RPC batches split by `batch`). Loopback unless the user names another address;
//! `Host` and `Origin` are checked against DNS rebinding.

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

use super::live::Live;
use super::log;
use super::server::Session;
use crate::error::{Error, Result};

/// `--http` and the host/origin allowances.
#[derive(Debug, Clone, Default)]
pub struct HttpOptions {
    /// `PORT`, `HOST:PORT` or `IP:PORT`; a bare port means 127.0.0.1.
    pub addr: String,
    /// Extra `Host` values to accept (names this server is reached by).
    pub allow_hosts: Vec<String>,
    /// Extra browser origins to accept (`https://app.example:443`, `http://x:*`).
    pub allow_origins: Vec<String>,
    /// A session nobody has used for this long is closed and its memory reclaimed.
    pub session_idle: Duration,
}

/// The address `--http` names.
pub async fn bind_addr(spec: &str) -> Result<SocketAddr> {
    let bad = |why: String| {
        Error::input("usage", format!("--http {spec}: {why}"))
            .with_hint("pass PORT (on 127.0.0.1), HOST:PORT or IP:PORT, e.g. --http 127.0.0.1:8765")
    };
    if let Ok(port) = spec.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Ok(addr) = spec.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let mut addrs = tokio::net::lookup_host(spec)
        .await
        .map_err(|e| bad(e.to_string()))?;
    addrs
        .next()
        .ok_or_else(|| bad("the name resolves to no address".into()))
}

/// Opens the listening socket `--http` names (before anything else, so a bad
/// address fails fast).
pub async fn listen(opts: &HttpOptions) -> Result<tokio::net::TcpListener> {
    let addr = bind_addr(&opts.addr).await?;
    tokio::net::TcpListener::bind(addr).await.map_err(|e| {
        Error::input("bind", format!("cannot listen on {addr}: {e}"))
            .with_hint("pick another port, or pass port 0 for any free one")
    })
}

/// Serves until `shutdown` completes; prints the URL on stderr once listening.
pub async fn run(
    live: Arc<Live>,
    listener: tokio::net::TcpListener,
    opts: &HttpOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<()> {
    let local = listener
        .local_addr()
        .map_err(|e| Error::internal(format!("listening socket: {e}")))?;
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    if !local.ip().is_loopback() {
        if !local.ip().is_unspecified() {
            hosts.push(local.ip().to_string());
        }
        log::warn!(
            "listening on {local}, which is not a loopback address: anyone who can reach it can run this server's tools (there is no authentication)"
        );
        if opts.allow_hosts.is_empty() {
            log::warn!(
                "only requests whose Host is {} are accepted; add the names clients use with --allow-host",
                hosts.join(", ")
            );
        }
    }
    hosts.extend(opts.allow_hosts.iter().cloned());
    let mut origins: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
        .iter()
        .flat_map(|h| [format!("http://{h}:*"), format!("https://{h}:*")])
        .collect();
    origins.extend(opts.allow_origins.iter().cloned());
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .enforce_origin_validation();
    let ct = config.cancellation_token.clone();
    let service: StreamableHttpService<Session, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(Session::new(live.clone())),
        Arc::new({
            let mut sessions = LocalSessionManager::default();
            sessions.session_config.keep_alive = Some(opts.session_idle);
            sessions
        }),
        config,
    );
    use tower::ServiceExt;
    let service = ServiceExt::<axum::extract::Request>::map_response(service, |r| {
        r.map(axum::body::Body::new)
    });
    let router = axum::Router::new()
        .route(
            "/mcp",
            axum::routing::any(move |req: axum::extract::Request| {
                super::batch::handle(service.clone(), req)
            }),
        )
        .layer(axum::middleware::from_fn(mend_statuses));
    let shown = match local.ip() {
        IpAddr::V6(ip) => format!("[{ip}]:{}", local.port()),
        IpAddr::V4(ip) => format!("{ip}:{}", local.port()),
    };
    log::announce(format_args!(
        "serving MCP over Streamable HTTP at http://{shown}/mcp"
    ));
    let stop = ct.clone();
    let server = axum::serve(listener, router).with_graceful_shutdown(async move {
        shutdown.await;
        stop.cancel();
    });
    let mut done = tokio::spawn(async move { server.await });
    let failed = |e: std::io::Error| Error::internal(format!("HTTP server: {e}"));
    tokio::select! {
        r = &mut done => return r.map_err(|e| Error::internal(e.to_string()))?.map_err(failed),
        () = ct.cancelled() => {}
    }
    // Open SSE streams end with the token; bound the wait for the rest anyway.
    match tokio::time::timeout(Duration::from_secs(3), done).await {
        Ok(Ok(Err(e))) => Err(failed(e)),
        _ => Ok(()),
    }
}

/// Where rmcp's answer is not what clients expect: a body that is not JSON is
/// a JSON-RPC parse error with 400 (not a bare 415), and closing a session with
/// `DELETE` answers 204 (the Python SDK logs a failure on 202).
async fn mend_statuses(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::StatusCode;
    let delete = req.method() == axum::http::Method::DELETE;
    let resp = next.run(req).await;
    let status = resp.status();
    if delete && status == StatusCode::ACCEPTED {
        let mut resp = resp;
        *resp.status_mut() = StatusCode::NO_CONTENT;
        *resp.body_mut() = axum::body::Body::empty();
        return resp;
    }
    if status != StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return resp;
    }
    let (parts, body) = resp.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 64 * 1024).await else {
        return axum::response::Response::from_parts(parts, axum::body::Body::empty());
    };
    let text = String::from_utf8_lossy(&bytes);
    if !text.starts_with("fail to deserialize") {
        return axum::response::Response::from_parts(parts, axum::body::Body::from(bytes));
    }
    super::batch::parse_error(&format!(
        "the body is not a JSON-RPC message ({})",
        text.trim()
    ))
}
