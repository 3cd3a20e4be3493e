//! The Streamable HTTP transport: rmcp's `StreamableHttpService` mounted at
//! `/mcp` on an axum router served by hyper (JSON-RPC batches split by
//! `batch`), beside the apps' reference pages at `/` (`super::pages`).
//! Loopback unless the user names another address; `Host` (rmcp) and
//! `Origin` ([`super::origins`], with the CORS answers) are checked against
//! DNS rebinding. What a client can make the
//! server hold is bounded ([`Limits`]): a connection must send a request's
//! headers within `CALIMCP_HEADER_TIMEOUT`, live sessions and open
//! `subscriptions/listen` streams together are capped at
//! `CALIMCP_MAX_SESSIONS`, lowered to what the process's descriptor limit
//! leaves room for (a further `initialize` or listen gets 503; see
//! [`Capacity`]), batches and their answers as `batch` says. Stopping is graceful ([`run`]): open
//! `subscriptions/listen` streams end with their final result and requests in
//! flight get their answers, for a bounded time.

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

use super::AbortOnDrop;
pub use super::batch::{Limits, limits, set_limits};
use super::live::Live;
use super::log;
use super::origins::{self, Origins};
use super::server::Connection;
use super::session_table::SessionTable;
use calimcp_core::error::{Code, Error, Result};

/// `--http` and the host/origin allowances.
#[derive(Debug, Clone, Default)]
pub struct HttpOptions {
    /// `PORT`, `HOST:PORT` or `IP:PORT`; a bare port means 127.0.0.1.
    pub addr: String,
    /// Extra `Host` values to accept (names this server is reached by).
    pub allow_hosts: Vec<String>,
    /// Extra browser origins to accept (`https://app.example:443`, `http://x:*`).
    pub allow_origins: Vec<String>,
    /// A session with no request in flight and no stream open for this long
    /// is closed and its memory reclaimed ([`SessionTable`]).
    pub session_idle: Duration,
}

/// The address `--http` names.
pub(crate) async fn bind_addr(spec: &str) -> Result<SocketAddr> {
    let bad = |why: String| {
        Error::input(Code::Usage, format!("--http {spec}: {why}"))
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
pub(crate) async fn listen(opts: &HttpOptions) -> Result<tokio::net::TcpListener> {
    let addr = bind_addr(&opts.addr).await?;
    tokio::net::TcpListener::bind(addr).await.map_err(|e| {
        Error::input(Code::Bind, format!("cannot listen on {addr}: {e}"))
            .with_hint("pick another port, or pass port 0 for any free one")
    })
}

/// Serves until `shutdown` completes; prints the URL on stderr once listening.
pub(crate) async fn run(
    live: Arc<Live>,
    listener: tokio::net::TcpListener,
    opts: &HttpOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<()> {
    let local = listener
        .local_addr()
        .map_err(|e| Error::internal(format!("listening socket: {e}")))?;
    let (hosts, origins) = allowed(local, opts);
    let origins = Origins::parse(&origins).map_err(|why| Error::input(Code::Usage, why))?;
    let pages = super::pages::routes(live.clone(), hosts.clone());
    // Origins are checked by `origins::gate`, which also answers CORS.
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .disable_allowed_origins();
    let ct = config.cancellation_token.clone();
    let sessions = Arc::new(SessionTable::new(opts.session_idle));
    let capacity = Capacity::of_process(limits().max_sessions);
    if let Some(why) = capacity.lowered_by() {
        log::warn!("{why}");
    }
    let reaper = tokio::spawn(sessions.clone().reap());
    let served = live.clone();
    let service: StreamableHttpService<Connection, SessionTable> = StreamableHttpService::new(
        move || Ok(Connection::new(served.clone())),
        sessions.clone(),
        config,
    );
    use tower::ServiceExt;
    let service = ServiceExt::<axum::extract::Request>::map_response(service, |r| {
        r.map(axum::body::Body::new)
    });
    let in_flight = InFlight::default();
    let counted = in_flight.clone();
    let mcp =
        axum::routing::any(move |req: axum::extract::Request| counted.count(req, service.clone()))
            .layer(axum::middleware::from_fn_with_state(origins, origins::gate));
    let router = routes(mcp, pages, sessions, capacity);
    let shown = match local.ip() {
        IpAddr::V6(ip) => format!("[{ip}]:{}", local.port()),
        IpAddr::V4(ip) => format!("{ip}:{}", local.port()),
    };
    log::announce(format_args!(
        "serving MCP over Streamable HTTP at http://{shown}/mcp"
    ));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let server = serve_connections(listener, router, stopped, limits().header_timeout);
    let mut done = tokio::spawn(server);
    let _reaper = AbortOnDrop(reaper);
    tokio::select! {
        r = &mut done => return r.map_err(|e| Error::internal(e.to_string()))?,
        () = shutdown => {}
    }
    // A graceful teardown: no new connections; `subscriptions/listen`
    // streams end with their final result and the requests in flight get
    // their answers, for at most DRAIN; then rmcp's token ends the rest (a
    // session's GET stream, a call still running).
    let _ = stop.send(true);
    live.end_listens();
    let _ = tokio::time::timeout(DRAIN, in_flight.drained()).await;
    ct.cancel();
    // Open SSE streams end with the token; bound the wait for the rest anyway.
    let _ = tokio::time::timeout(Duration::from_secs(3), done).await;
    Ok(())
}

/// `/mcp` beside the pages, with the status mending and the gate on
/// sessions and streams around both.
fn routes(
    mcp: axum::routing::MethodRouter,
    pages: axum::Router,
    sessions: Arc<SessionTable>,
    capacity: Capacity,
) -> axum::Router {
    axum::Router::new()
        .route("/mcp", mcp)
        .merge(pages)
        .layer(axum::middleware::from_fn(mend_statuses))
        .layer(axum::middleware::from_fn_with_state(
            Gate {
                sessions,
                opening: Arc::default(),
                listens: Arc::default(),
                capacity,
            },
            gate,
        ))
}

/// The `Host` names and `Origin`s the server answers: loopback's, the
/// listening address's, and `--allow-host`/`--allow-origin`'s. A
/// non-loopback address is warned about (there is no authentication).
fn allowed(local: std::net::SocketAddr, opts: &HttpOptions) -> (Vec<String>, Vec<String>) {
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
    (hosts, origins)
}

/// How long a shutdown waits for the requests in flight.
const DRAIN: Duration = Duration::from_secs(5);

/// The POSTs to `/mcp` being answered: from the request until its answer's
/// body ends (a streamed answer counts while it streams).
#[derive(Clone, Default)]
struct InFlight(Arc<tokio::sync::watch::Sender<usize>>);

impl InFlight {
    /// Answers `req` through `svc`, counted.
    async fn count<S>(self, req: axum::extract::Request, svc: S) -> axum::response::Response
    where
        S: tower::Service<axum::extract::Request, Response = axum::response::Response>
            + Clone
            + Send
            + 'static,
        S::Future: Send,
        S::Error: std::fmt::Display,
    {
        if req.method() != axum::http::Method::POST {
            return super::batch::handle(svc, req).await;
        }
        self.0.send_modify(|n| *n += 1);
        let guard = Counted(self.0.clone());
        let response = super::batch::handle(svc, req).await;
        response.map(|body| {
            axum::body::Body::new(WhileCounted {
                body,
                _guard: guard,
            })
        })
    }

    /// Resolves once no POST is being answered.
    async fn drained(&self) {
        let _ = self.0.subscribe().wait_for(|n| *n == 0).await;
    }
}

/// One POST being answered; dropping it (its answer ended) uncounts it.
struct Counted(Arc<tokio::sync::watch::Sender<usize>>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// An answer's body that keeps a count held (`G`: its POST counted, or a
/// `subscriptions/listen` stream held) until the body ends; its size and end
/// are the inner body's (so a JSON answer keeps its Content-Length).
struct WhileCounted<G> {
    body: axum::body::Body,
    _guard: G,
}

impl<G: Send + Unpin + 'static> axum::body::HttpBody for WhileCounted<G> {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<std::result::Result<hyper::body::Frame<Self::Data>, Self::Error>>>
    {
        std::pin::Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

/// Accepts connections until `stop`, each served by hyper with a header read
/// timeout (a client that never finishes its headers holds a descriptor for
/// at most that long); at `stop`, each connection ends after its current
/// request.
async fn serve_connections(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    mut stop: tokio::sync::watch::Receiver<bool>,
    header_timeout: Duration,
) -> Result<()> {
    let mut open = tokio::task::JoinSet::new();
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = async { let _ = stop.wait_for(|s| *s).await; } => break,
        };
        // Reap finished connections as they go.
        while open.try_join_next().is_some() {}
        let (stream, _) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of descriptors (or a connection reset before accept):
                // wait a little instead of spinning; header timeouts free some.
                log::debug!("accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        let mut stop = stop.clone();
        open.spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            tokio::pin!(conn);
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        log::debug!("HTTP connection: {e}");
                    }
                }
                () = async { let _ = stop.wait_for(|s| *s).await; } => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    while open.join_next().await.is_some() {}
    Ok(())
}

/// How many sessions and `subscriptions/listen` streams the server keeps at
/// once. Each open stream holds a connection, so a descriptor, and the
/// process has a limit of them (`ulimit -n`, often 1,024): streams up to it
/// would leave none to accept a new client's `initialize` with. So the cap is
/// `CALIMCP_MAX_SESSIONS` or what the descriptor limit leaves room for,
/// whichever is lower, after raising the soft limit towards the hard one as
/// far as the cap needs (issue 47).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Capacity {
    /// Sessions and listen streams at once.
    most: usize,
    /// `CALIMCP_MAX_SESSIONS`.
    configured: usize,
    /// The process's descriptor limit (soft), when it lowered the cap.
    descriptors: Option<u64>,
}

/// Descriptors kept back from the streams' share of the limit: the listening
/// socket, the runtime's, the node's connections and event streams, pages and
/// short requests, and a new client's `initialize`: an eighth of the limit,
/// at least this many.
const RESERVED_DESCRIPTORS: u64 = 32;

impl Capacity {
    /// The cap for this process: `configured`, or less when the descriptor
    /// limit (raised first towards its hard limit, as far as needed) leaves
    /// no room for that many open streams.
    fn of_process(configured: usize) -> Capacity {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write `limit`.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
            return Capacity::within(configured, None);
        }
        // Room for `configured` streams beside the reserve.
        let configured64 = configured as u64;
        let wanted = (configured64.saturating_mul(8).div_ceil(7) + 8)
            .max(configured64.saturating_add(RESERVED_DESCRIPTORS));
        if limit.rlim_cur != libc::RLIM_INFINITY && limit.rlim_cur < wanted {
            let raised = libc::rlimit {
                rlim_cur: wanted.min(limit.rlim_max),
                rlim_max: limit.rlim_max,
            };
            // SAFETY: as above.
            if raised.rlim_cur > limit.rlim_cur
                && unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0
            {
                log::debug!(
                    "raised the descriptor limit from {} to {} (hard limit {})",
                    limit.rlim_cur,
                    raised.rlim_cur,
                    limit.rlim_max
                );
                limit.rlim_cur = raised.rlim_cur;
            }
        }
        if limit.rlim_cur == libc::RLIM_INFINITY {
            return Capacity::within(configured, None);
        }
        Capacity::within(configured, Some(limit.rlim_cur))
    }

    /// `configured`, lowered to what a descriptor limit leaves room for.
    fn within(configured: usize, descriptors: Option<u64>) -> Capacity {
        let room = |limit: u64| {
            let reserve = (limit / 8).max(RESERVED_DESCRIPTORS);
            usize::try_from(limit.saturating_sub(reserve)).unwrap_or(usize::MAX)
        };
        match descriptors {
            Some(limit) if room(limit) < configured => Capacity {
                most: room(limit).max(1),
                configured,
                descriptors: Some(limit),
            },
            _ => Capacity {
                most: configured,
                configured,
                descriptors: None,
            },
        }
    }

    /// What lowered the cap below `CALIMCP_MAX_SESSIONS`, said once at start.
    fn lowered_by(&self) -> Option<String> {
        let limit = self.descriptors?;
        Some(format!(
            "at most {} sessions and subscriptions/listen streams at once, not CALIMCP_MAX_SESSIONS={}: the process may open {limit} descriptors (ulimit -n), and each open stream holds one; raise the limit for more",
            self.most, self.configured
        ))
    }

    /// The cap as a client is told it.
    fn named(&self) -> String {
        match self.descriptors {
            None => format!("CALIMCP_MAX_SESSIONS={}", self.configured),
            Some(limit) => format!(
                "{}: CALIMCP_MAX_SESSIONS={}, lowered by the descriptor limit of {limit}",
                self.most, self.configured
            ),
        }
    }
}

/// What [`gate`] needs: the live sessions, how many `initialize` requests are
/// being answered (each may become a session), how many
/// `subscriptions/listen` streams are open, and the cap on them all.
#[derive(Clone)]
struct Gate {
    sessions: Arc<SessionTable>,
    opening: Arc<std::sync::atomic::AtomicUsize>,
    listens: Arc<std::sync::atomic::AtomicUsize>,
    capacity: Capacity,
}

/// One count held in a [`Gate`] counter until dropped.
struct Held(Arc<std::sync::atomic::AtomicUsize>, usize);

impl Held {
    fn take(counter: &Arc<std::sync::atomic::AtomicUsize>, n: usize) -> Held {
        counter.fetch_add(n, std::sync::atomic::Ordering::AcqRel);
        Held(counter.clone(), n)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.0
            .fetch_sub(self.1, std::sync::atomic::Ordering::AcqRel);
    }
}

/// Before rmcp sees a request: a `DELETE` of a session that does not exist
/// is 404 (protocol 2025-11-25; rmcp accepts it), and an `initialize` or a
/// `subscriptions/listen` past the [`Capacity`] of sessions and listen
/// streams is refused with 503. A listen is counted whatever its headers say
/// (a 2026-07-28 request is served without a session even when it names one),
/// each in a batch too, until its answer's stream ends.
async fn gate(
    axum::extract::State(gate): axum::extract::State<Gate>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::Method;
    use std::sync::atomic::Ordering;
    let session = req
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    if req.method() == Method::DELETE
        && let Some(id) = &session
        && !gate.sessions.contains(id).await
    {
        return not_found_session();
    }
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 4 << 20).await else {
        return too_large();
    };
    let (probe, listens) = Probe::read(&bytes);
    let req = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes.clone()));
    let initialize =
        session.is_none() && probe.as_ref().and_then(|p| p.method) == Some("initialize");
    if !initialize && listens == 0 {
        return next.run(req).await;
    }
    let most = gate.capacity.most;
    // Counted before the check, so requests at the same time cannot all pass it.
    let held = if initialize {
        Held::take(&gate.opening, 1)
    } else {
        Held::take(&gate.listens, listens)
    };
    let live = gate.sessions.len().await;
    let (open, starting) = (
        gate.listens.load(Ordering::Acquire),
        gate.opening.load(Ordering::Acquire),
    );
    if live + open + starting > most {
        let open_now = open.saturating_sub(if initialize { 0 } else { listens });
        let id = probe
            .and_then(|p| p.id)
            .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
            .unwrap_or_default();
        drop(held);
        return busy(&gate.capacity, initialize, live, open_now, id);
    }
    let response = next.run(req).await;
    if initialize {
        // A session now, counted by `sessions` (or refused).
        return response;
    }
    response.map(|body| axum::body::Body::new(WhileCounted { body, _guard: held }))
}

/// What the gate reads of a POST's body: the method and id of a request,
/// and how many `subscriptions/listen` requests it holds (a batch too).
#[derive(serde::Deserialize)]
struct Probe<'a> {
    #[serde(borrow)]
    method: Option<&'a str>,
    #[serde(borrow)]
    id: Option<&'a serde_json::value::RawValue>,
}

impl<'a> Probe<'a> {
    const LISTEN: &'static str = "subscriptions/listen";

    /// The request (none for a batch or a body that is not JSON-RPC) and
    /// the number of listens in the body.
    fn read(bytes: &'a [u8]) -> (Option<Self>, usize) {
        match serde_json::from_slice::<Probe>(bytes) {
            Ok(p) => {
                let listens = usize::from(p.method == Some(Self::LISTEN));
                (Some(p), listens)
            }
            Err(_) => {
                let listens = serde_json::from_slice::<Vec<Probe>>(bytes)
                    .map(|all| {
                        all.iter()
                            .filter(|p| p.method == Some(Self::LISTEN))
                            .count()
                    })
                    .unwrap_or(0);
                (None, listens)
            }
        }
    }
}

/// 413 for a body over 4 MiB.
fn too_large() -> axum::response::Response {
    axum::response::Response::builder()
        .status(axum::http::StatusCode::PAYLOAD_TOO_LARGE)
        .body(axum::body::Body::from(
            "Payload Too Large: the body is longer than 4 MiB",
        ))
        .unwrap_or_default()
}

/// 503 with `Retry-After` and a JSON-RPC error for request `id`: a new
/// session (`initialize`) or a listen stream past the server's capacity.
fn busy(
    capacity: &Capacity,
    initialize: bool,
    live: usize,
    open_now: usize,
    id: serde_json::Value,
) -> axum::response::Response {
    let cap = capacity.named();
    let what = if initialize {
        "a new session"
    } else {
        "a subscriptions/listen stream"
    };
    log::warn!(
        "refused {what}: {live} sessions and {open_now} listen streams are open, the most this server keeps ({cap})"
    );
    let hint = if initialize {
        "end a session with DELETE, or retry once idle ones have closed"
    } else {
        "cancel a listen stream or end a session, or retry later"
    };
    let body = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": format!("Server busy: {live} sessions and {open_now} subscriptions/listen streams are open, the most this server keeps ({cap}); {hint}")}});
    axum::response::Response::builder()
        .status(axum::http::StatusCode::SERVICE_UNAVAILABLE)
        .header(axum::http::header::CONTENT_TYPE, "application/json")
        .header(axum::http::header::RETRY_AFTER, "5")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap_or_default()
}

/// Where rmcp's answer is not what clients expect: a body that is not JSON is
/// a JSON-RPC parse error with 400 (not a bare 415), closing a session with
/// `DELETE` answers 204 (the Python SDK logs a failure on 202), and a session
/// that ended between rmcp's lookup and its use is 404, as any ended session
/// (rmcp says 500 "Session service terminated").
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
    if status == StatusCode::INTERNAL_SERVER_ERROR {
        return ended_session(resp).await;
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

/// A 500 of rmcp's about a session that is gone, as 404; any other as it came.
async fn ended_session(resp: axum::response::Response) -> axum::response::Response {
    let (parts, body) = resp.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 64 * 1024).await else {
        return axum::response::Response::from_parts(parts, axum::body::Body::empty());
    };
    let text = String::from_utf8_lossy(&bytes);
    if text.contains("Session service terminated") || text.contains("Session not found") {
        return not_found_session();
    }
    axum::response::Response::from_parts(parts, axum::body::Body::from(bytes))
}

/// 404 for a session the server does not have (ended, or never opened).
fn not_found_session() -> axum::response::Response {
    axum::response::Response::builder()
        .status(axum::http::StatusCode::NOT_FOUND)
        .body(axum::body::Body::from(
            "Not Found: no such session (it ended, or never existed)",
        ))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_leaves_descriptors_for_new_clients() {
        // Room enough: the configured cap.
        let c = Capacity::within(1000, Some(1 << 20));
        assert_eq!((c.most, c.descriptors), (1000, None));
        assert_eq!(c.named(), "CALIMCP_MAX_SESSIONS=1000");
        assert!(c.lowered_by().is_none());
        // The common 1,024: an eighth kept back.
        let c = Capacity::within(1000, Some(1024));
        assert_eq!((c.most, c.descriptors), (896, Some(1024)));
        assert!(
            c.named()
                .contains("lowered by the descriptor limit of 1024")
        );
        assert!(c.lowered_by().unwrap().contains("ulimit -n"));
        // A low limit: at least 32 kept back, at least one stream allowed.
        assert_eq!(Capacity::within(1000, Some(64)).most, 32);
        assert_eq!(Capacity::within(1000, Some(16)).most, 1);
        assert_eq!(Capacity::within(10, Some(64)).most, 10);
        assert_eq!(Capacity::within(10, None).most, 10);
    }
}
