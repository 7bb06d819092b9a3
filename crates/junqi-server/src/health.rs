//! Readiness: the named checks `GET /readyz` runs (`GET /healthz` runs none: answering at all
//! shows the process and its event loop are alive).
//!
//! The server registers `database` (a trivial query answers in time). Code built on the server
//! adds its own without touching this module or the endpoint, e.g. the cluster's message bus:
//!
//! ```no_run
//! # fn f(app: &junqi_server::App, bus_up: std::sync::Arc<std::sync::atomic::AtomicBool>) {
//! app.readiness.add("nats", move || {
//!     let up = bus_up.load(std::sync::atomic::Ordering::Relaxed);
//!     async move { if up { Ok(()) } else { Err("not connected".to_string()) } }
//! });
//! # }
//! ```
//!
//! Every check runs at each `/readyz` request, all at once, each within the readiness timeout
//! (`Settings::readiness_timeout_ms`): a check that does not answer in time has failed. A check
//! should therefore be cheap (a ping, a flag), since load balancers ask every few seconds.

use futures_util::future::{join_all, BoxFuture};
use futures_util::FutureExt;
use serde_json::{json, Value};
use std::future::Future;
use std::sync::{Arc, RwLock};
use std::time::Duration;

type CheckFn = Arc<dyn Fn() -> BoxFuture<'static, Result<(), String>> + Send + Sync>;

/// The readiness checks of a server, by name, in the order they were added.
#[derive(Default)]
pub struct Readiness {
    checks: RwLock<Vec<(String, CheckFn)>>,
}

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// The check's name.
    pub name: String,
    /// `None`: it passed; else why it failed.
    pub error: Option<String>,
}

/// The outcome of every check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Each check, in the order they were added.
    pub checks: Vec<CheckResult>,
}

impl Report {
    /// Every check passed.
    pub fn ready(&self) -> bool {
        self.checks.iter().all(|c| c.error.is_none())
    }

    /// The names of the checks that failed.
    pub fn failed(&self) -> Vec<&str> {
        self.checks
            .iter()
            .filter(|c| c.error.is_some())
            .map(|c| c.name.as_str())
            .collect()
    }

    /// The body of `/readyz`: `{"ok", "failed": [names], "checks": {name: "ok" | error}}`.
    pub fn to_json(&self) -> Value {
        let checks: serde_json::Map<String, Value> = self
            .checks
            .iter()
            .map(|c| {
                let v = c.error.clone().unwrap_or_else(|| "ok".into());
                (c.name.clone(), Value::String(v))
            })
            .collect();
        json!({"ok": self.ready(), "failed": self.failed(), "checks": checks})
    }
}

impl Readiness {
    /// Add a check named `name` (a second check of the same name replaces the first). `check`
    /// is called at every readiness request and returns a future: `Ok(())` when ready, else
    /// why not.
    pub fn add<F, Fut>(&self, name: &str, check: F)
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), String>> + Send + 'static,
    {
        let f: CheckFn = Arc::new(move || check().boxed());
        if let Ok(mut checks) = self.checks.write() {
            match checks.iter_mut().find(|(n, _)| n == name) {
                Some(slot) => slot.1 = f,
                None => checks.push((name.to_string(), f)),
            }
        }
    }

    /// The names of the checks, in order.
    pub fn names(&self) -> Vec<String> {
        self.checks
            .read()
            .map(|c| c.iter().map(|(n, _)| n.clone()).collect())
            .unwrap_or_default()
    }

    /// Run every check at once, each within `timeout`.
    pub async fn run(&self, timeout: Duration) -> Report {
        // Clone the list out so that no lock is held across an await.
        let checks: Vec<(String, CheckFn)> =
            self.checks.read().map(|c| c.clone()).unwrap_or_default();
        let runs = checks.into_iter().map(|(name, f)| async move {
            let error = match tokio::time::timeout(timeout, f()).await {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(e),
                Err(_) => Some(format!("no answer within {} ms", timeout.as_millis())),
            };
            CheckResult { name, error }
        });
        Report {
            checks: join_all(runs).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    #[tokio::test]
    async fn checks_run_in_order_and_report_what_failed() {
        let r = Readiness::default();
        assert!(r.run(Duration::from_millis(50)).await.ready());
        let up = Arc::new(AtomicBool::new(false));
        let calls = Arc::new(AtomicUsize::new(0));
        r.add("always", || async { Ok(()) });
        let (u, c) = (up.clone(), calls.clone());
        r.add("bus", move || {
            c.fetch_add(1, Ordering::Relaxed);
            let up = u.load(Ordering::Relaxed);
            async move {
                if up {
                    Ok(())
                } else {
                    Err("not connected".into())
                }
            }
        });
        r.add("slow", || async {
            tokio::time::sleep(Duration::from_secs(30)).await;
            Ok(())
        });
        assert_eq!(r.names(), ["always", "bus", "slow"]);

        let report = r.run(Duration::from_millis(50)).await;
        assert!(!report.ready());
        assert_eq!(report.failed(), ["bus", "slow"]);
        assert_eq!(
            report.to_json(),
            json!({"ok": false, "failed": ["bus", "slow"],
                   "checks": {"always": "ok", "bus": "not connected",
                              "slow": "no answer within 50 ms"}})
        );

        // A check of the same name replaces the old one; the check runs at every request.
        up.store(true, Ordering::Relaxed);
        r.add("slow", || async { Ok(()) });
        assert_eq!(r.names(), ["always", "bus", "slow"]);
        let report = r.run(Duration::from_millis(50)).await;
        assert!(report.ready(), "{report:?}");
        assert_eq!(report.to_json()["failed"], json!([]));
        assert_eq!(calls.load(Ordering::Relaxed), 2);
    }
}
