//! Graceful shutdown: the phases a stopping server goes through, and the hooks that run on the
//! way. [`crate::Server::shutdown`] drives it; `junqi serve` calls that on SIGTERM or Ctrl-C.
//!
//! 1. **Draining** (at once): `/readyz` answers 503, the listener stops accepting, open HTTP
//!    connections finish the request they are serving and close, WebSocket connections stop
//!    reading client frames.
//! 2. Every live table handles what it already has queued (a move in flight is stored, then
//!    announced, as always) and its actor stops. Nothing is lost that was stored: a later start
//!    resumes unfinished games from the database.
//! 3. The **hooks** run, in the order they were added, with the tables at rest (a cluster hands
//!    its tables over here: no table of this server writes any more).
//! 4. **Closing**: each WebSocket gets the frames still queued for it, then a close frame with
//!    code 1012 ("service restart"), after which browser clients reconnect.
//! 5. Games that just ended are rated, the database writer's queue is flushed and the pool
//!    closed.
//!
//! The whole is bounded by `Settings::shutdown_timeout_ms`: whatever is not done by then is
//! abandoned (and logged), and the server stops anyway.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use std::future::Future;
use std::sync::Mutex;
use tokio::sync::watch;

/// Where a server is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    /// Serving.
    Running,
    /// Stopping: not ready, accepting nothing, tables finishing their work.
    Draining,
    /// Tables and hooks done: WebSocket connections close with 1012.
    Closing,
}

type Hook = Box<dyn FnOnce() -> BoxFuture<'static, Result<(), String>> + Send>;

/// The shutdown state of a server: its phase, the open WebSocket connections it waits for, and
/// the hooks to run.
pub struct Shutdown {
    phase: watch::Sender<Phase>,
    connections: watch::Sender<usize>,
    hooks: Mutex<Vec<(String, Hook)>>,
}

impl Default for Shutdown {
    fn default() -> Shutdown {
        Shutdown {
            phase: watch::Sender::new(Phase::Running),
            connections: watch::Sender::new(0),
            hooks: Mutex::new(Vec::new()),
        }
    }
}

/// Keeps one WebSocket connection counted until dropped (see [`Shutdown::track_connection`]).
pub(crate) struct Tracked(watch::Sender<usize>);

impl Drop for Tracked {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

impl Shutdown {
    /// The server has begun to stop (`/readyz` answers 503 from that moment).
    pub fn is_shutting_down(&self) -> bool {
        *self.phase.borrow() != Phase::Running
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        *self.phase.borrow()
    }

    /// Watch the phase.
    pub fn subscribe(&self) -> watch::Receiver<Phase> {
        self.phase.subscribe()
    }

    /// Add a hook, run once during shutdown after every table of this server has stopped and
    /// before WebSocket clients are told to reconnect (step 3 above). Hooks run one after
    /// another in the order they were added; an error is logged and the next hook runs. A hook
    /// added once shutdown has begun never runs.
    pub fn add_hook<F, Fut>(&self, name: &str, hook: F)
    where
        F: FnOnce() -> Fut + Send + 'static,
        Fut: Future<Output = Result<(), String>> + Send + 'static,
    {
        if let Ok(mut hooks) = self.hooks.lock() {
            hooks.push((name.to_string(), Box::new(move || hook().boxed())));
        }
    }

    /// Enter [`Phase::Draining`]. False if shutdown had already begun.
    pub(crate) fn begin(&self) -> bool {
        self.phase.send_if_modified(|p| {
            if *p == Phase::Running {
                *p = Phase::Draining;
                true
            } else {
                false
            }
        })
    }

    /// Enter [`Phase::Closing`].
    pub(crate) fn close_connections(&self) {
        self.phase.send_replace(Phase::Closing);
    }

    /// Run the hooks in order (each at most once), until `deadline`. False if time ran out
    /// (the hooks not reached are skipped).
    pub(crate) async fn run_hooks(&self, deadline: tokio::time::Instant) -> bool {
        let hooks = self
            .hooks
            .lock()
            .map(|mut h| std::mem::take(&mut *h))
            .unwrap_or_default();
        for (name, hook) in hooks {
            match tokio::time::timeout_at(deadline, hook()).await {
                Ok(Ok(())) => tracing::info!("shutdown hook {name}: done"),
                Ok(Err(e)) => tracing::warn!("shutdown hook {name} failed: {e}"),
                Err(_) => {
                    tracing::warn!("shutdown hook {name}: out of time, the rest are skipped");
                    return false;
                }
            }
        }
        true
    }

    /// Count a WebSocket connection until the guard is dropped.
    pub(crate) fn track_connection(&self) -> Tracked {
        self.connections.send_modify(|n| *n += 1);
        Tracked(self.connections.clone())
    }

    /// WebSocket connections open now.
    pub fn open_connections(&self) -> usize {
        *self.connections.borrow()
    }

    /// Wait until no WebSocket connection is open.
    pub(crate) async fn connections_closed(&self) {
        let mut rx = self.connections.subscribe();
        let _ = rx.wait_for(|n| *n == 0).await;
    }
}

/// Wait until `phase` reaches at least `at` (forever if its sender is gone, which only happens
/// once the whole server is dropped).
pub(crate) async fn reached(phase: &mut watch::Receiver<Phase>, at: Phase) {
    if phase.wait_for(|p| *p >= at).await.is_err() {
        std::future::pending::<()>().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn phases_hooks_and_connections() {
        let s = Arc::new(Shutdown::default());
        assert!(!s.is_shutting_down());
        let order = Arc::new(Mutex::new(Vec::new()));
        for name in ["first", "failing", "last"] {
            let order = order.clone();
            s.add_hook(name, move || async move {
                order.lock().unwrap().push(name);
                if name == "failing" {
                    Err("no luck".into())
                } else {
                    Ok(())
                }
            });
        }
        let mut rx = s.subscribe();
        let t = s.track_connection();
        assert_eq!(s.open_connections(), 1);

        assert!(s.begin());
        assert!(!s.begin(), "a second shutdown does not start over");
        assert!(s.is_shutting_down());
        reached(&mut rx, Phase::Draining).await;
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
        // A hook that fails does not stop the others, nor count as out of time.
        assert!(s.run_hooks(deadline).await);
        assert_eq!(*order.lock().unwrap(), ["first", "failing", "last"]);
        // Hooks run once.
        assert!(s.run_hooks(deadline).await);
        assert_eq!(order.lock().unwrap().len(), 3);

        s.close_connections();
        assert_eq!(s.phase(), Phase::Closing);
        let waiting = tokio::spawn({
            let s = s.clone();
            async move { s.connections_closed().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        drop(t);
        waiting.await.unwrap();
        assert_eq!(s.open_connections(), 0);
    }

    #[tokio::test]
    async fn a_hook_out_of_time_stops_the_rest() {
        let s = Shutdown::default();
        let ran = Arc::new(Mutex::new(false));
        s.add_hook("stuck", std::future::pending);
        let r = ran.clone();
        s.add_hook("after", move || async move {
            *r.lock().unwrap() = true;
            Ok(())
        });
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_millis(20);
        assert!(!s.run_hooks(deadline).await);
        assert!(!*ran.lock().unwrap());
    }
}
