//! Time as an injected value: the server reads the time and waits for deadlines only through a
//! [`Clock`], so tests drive timeouts with a [`ManualClock`] instead of sleeping.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// A future that completes at a deadline.
pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send>>;

/// A source of time in milliseconds since the Unix epoch, and a way to wait for a moment.
pub trait Clock: Send + Sync + 'static {
    /// Now, in milliseconds.
    fn now_ms(&self) -> u64;
    /// A future that completes once `now_ms() >= deadline_ms`.
    fn sleep_until(&self, deadline_ms: u64) -> Sleep;
}

/// The real clock (wall time, waits with tokio timers).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0)
    }
    fn sleep_until(&self, deadline_ms: u64) -> Sleep {
        let now = self.now_ms();
        let wait = std::time::Duration::from_millis(deadline_ms.saturating_sub(now));
        Box::pin(tokio::time::sleep(wait))
    }
}

/// A clock that moves only when told to (tests).
#[derive(Clone, Debug)]
pub struct ManualClock {
    now: Arc<watch::Sender<u64>>,
}

impl ManualClock {
    /// A manual clock showing `start_ms`.
    pub fn new(start_ms: u64) -> ManualClock {
        ManualClock {
            now: Arc::new(watch::Sender::new(start_ms)),
        }
    }
    /// Move the clock forward by `ms`; every deadline reached fires.
    pub fn advance(&self, ms: u64) {
        self.now.send_modify(|t| *t += ms);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        *self.now.borrow()
    }
    fn sleep_until(&self, deadline_ms: u64) -> Sleep {
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            if rx.wait_for(|&t| t >= deadline_ms).await.is_err() {
                std::future::pending::<()>().await;
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn manual_clock_fires_on_advance() {
        let c = ManualClock::new(1000);
        let s = c.sleep_until(1500);
        let h = tokio::spawn(s);
        tokio::task::yield_now().await;
        assert!(!h.is_finished());
        c.advance(600);
        h.await.unwrap();
        assert_eq!(c.now_ms(), 1600);
    }
}
