//! Stop signals for both faces. Listening starts when a function here is
//! called, not when its future is first polled (as with tokio's `ctrl_c()`),
//! so a signal that comes right after a command says it is running ("watching
//! …", "serving MCP … at") still ends it cleanly. Call them inside a tokio
//! runtime.

use std::future::Future;

/// Completes on Ctrl-C (SIGINT).
pub(crate) fn interrupt() -> impl Future<Output = ()> + Send + 'static {
    any_of(&[Kind::Interrupt])
}

/// Completes on SIGTERM or Ctrl-C.
pub(crate) fn termination() -> impl Future<Output = ()> + Send + 'static {
    any_of(&[Kind::Terminate, Kind::Interrupt])
}

#[derive(Clone, Copy)]
enum Kind {
    Interrupt,
    Terminate,
}

#[cfg(unix)]
fn any_of(kinds: &[Kind]) -> impl Future<Output = ()> + Send + 'static {
    use tokio::signal::unix::{SignalKind, signal};
    let streams: Option<Vec<_>> = kinds
        .iter()
        .map(|k| {
            signal(match k {
                Kind::Interrupt => SignalKind::interrupt(),
                Kind::Terminate => SignalKind::terminate(),
            })
            .ok()
        })
        .collect();
    async move {
        let Some(mut streams) = streams else {
            return std::future::pending().await;
        };
        std::future::poll_fn(|cx| {
            if streams.iter_mut().any(|s| s.poll_recv(cx).is_ready()) {
                std::task::Poll::Ready(())
            } else {
                std::task::Poll::Pending
            }
        })
        .await
    }
}

#[cfg(not(unix))]
fn any_of(_: &[Kind]) -> impl Future<Output = ()> + Send + 'static {
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}
