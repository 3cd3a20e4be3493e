//! Streamable HTTP sessions that live while they are used: rmcp's
//! [`LocalSessionManager`] holds them, and this wrapper decides when one is
//! idle. rmcp's own keep-alive counts from the last message a session
//! received, so a `tools/call` still running (a `call_until` of minutes) or a
//! GET stream a client keeps open for `list_changed` was cut when it fired.
//! Here a session is busy while any of its streams is open — the answer
//! stream of each request in flight, the GET stream, a resumed one — and
//! idle only once none is, counting from the moment the last one closed or
//! the last request came; [`SessionTable::reap`] closes those idle for longer than
//! `--session-idle`. A closed or ended session is unknown: 404, never 500
//! ([`super::http`] mends the race where rmcp reports a session whose worker
//! has just ended as an internal error).

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};

/// How one session is used.
struct Use {
    /// Streams open now.
    open: usize,
    /// When it was last used: a request came, or its last stream closed.
    last: Instant,
}

type Uses = Arc<Mutex<HashMap<SessionId, Use>>>;

/// The table of one server's HTTP sessions, and how each is used.
pub(crate) struct SessionTable {
    inner: LocalSessionManager,
    uses: Uses,
    idle: Duration,
}

impl SessionTable {
    /// Sessions closed after `idle` without use (rmcp's keep-alive is off).
    pub(crate) fn new(idle: Duration) -> SessionTable {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = None;
        SessionTable {
            inner,
            uses: Arc::default(),
            idle,
        }
    }

    /// Whether `id` is a live session.
    pub(crate) async fn contains(&self, id: &str) -> bool {
        self.inner.sessions.read().await.contains_key(id)
    }

    /// How many sessions are live.
    pub(crate) async fn len(&self) -> usize {
        self.inner.sessions.read().await.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Use>> {
        self.uses.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A request for `id` came.
    fn touch(&self, id: &SessionId) {
        if let Some(u) = self.lock().get_mut(id) {
            u.last = Instant::now();
        }
    }

    /// Counts a stream of `id` as open until the guard is dropped.
    fn open(&self, id: &SessionId) -> Guard {
        if let Some(u) = self.lock().get_mut(id) {
            u.open += 1;
            u.last = Instant::now();
        }
        Guard {
            id: id.clone(),
            uses: self.uses.clone(),
        }
    }

    /// The sessions idle for longer than `idle` at `now`.
    fn idle_at(&self, now: Instant) -> Vec<SessionId> {
        self.lock()
            .iter()
            .filter(|(_, u)| u.open == 0 && now.saturating_duration_since(u.last) >= self.idle)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Closes the idle sessions now and then, forever (run it as a task).
    pub(crate) async fn reap(self: Arc<Self>) {
        // Often enough that a session outlives its idle time by at most a
        // quarter of it (and at most 30 s).
        let every = (self.idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(30));
        loop {
            tokio::time::sleep(every).await;
            for id in self.idle_at(Instant::now()) {
                super::log::debug!("closing session {id}: idle for {:?}", self.idle);
                let _ = self.close_session(&id).await;
            }
        }
    }
}

/// One open stream of a session; dropping it closes it.
struct Guard {
    id: SessionId,
    uses: Uses,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let mut uses = self.uses.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(u) = uses.get_mut(&self.id) {
            u.open = u.open.saturating_sub(1);
            u.last = Instant::now();
        }
    }
}

/// A stream that counts as open for its session while it lives.
struct Held<S> {
    stream: S,
    _guard: Guard,
}

impl<S: Stream + Unpin> Stream for Held<S> {
    type Item = S::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        Pin::new(&mut self.stream).poll_next(cx)
    }
}

impl SessionManager for SessionTable {
    type Error = LocalSessionManagerError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let (id, transport) = self.inner.create_session().await?;
        self.lock().insert(
            id.clone(),
            Use {
                open: 0,
                last: Instant::now(),
            },
        );
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.lock().remove(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        // Counted before the request reaches the session, so the reaper
        // never closes it under a request being started.
        let guard = self.open(id);
        let stream = self.inner.create_stream(id, message).await?;
        Ok(Held {
            stream: Box::pin(stream),
            _guard: guard,
        })
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let guard = self.open(id);
        let stream = self.inner.create_standalone_stream(id).await?;
        Ok(Held {
            stream: Box::pin(stream),
            _guard: guard,
        })
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let guard = self.open(id);
        let stream = self.inner.resume(id, last_event_id).await?;
        Ok(Held {
            stream: Box::pin(stream),
            _guard: guard,
        })
    }
}
