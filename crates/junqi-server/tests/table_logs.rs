//! Every log line of a table's work carries the table's id (the `table` span), here in the
//! JSON format `junqi serve --log-format json` writes.
//!
//! Alone in its test binary on purpose: tracing caches per call site whether anyone listens,
//! and a test on another thread reaching a call site while this test installs its subscriber
//! can leave that cache saying "nobody" (the span then goes missing at random).

mod common;
use common::*;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A writer for the log subscriber that keeps every line.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

// A current-thread runtime: every task of the server runs on this thread, under the subscriber
// set for it.
#[tokio::test(flavor = "current_thread")]
async fn table_log_lines_carry_the_table_id() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_writer(move || writer.clone())
        .with_max_level(tracing::Level::INFO)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let ts = start().await;
    let (st, created) = ts.post("/api/tables", json!({"board": "two_player"})).await;
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    // Nobody sits down: the table expires and says so in its log.
    ts.clock.advance(10 * 60 * 1000 + 1);
    for _ in 0..500 {
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        let line = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|l| l["fields"]["message"] == "closed: nobody played at it");
        if let Some(line) = line {
            assert_eq!(
                line["span"],
                json!({"name": "table", "table": id}),
                "{line}"
            );
            assert_eq!(line["level"], "INFO");
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "no expiry line in the log:\n{}",
        String::from_utf8_lossy(&captured.0.lock().unwrap())
    );
}
