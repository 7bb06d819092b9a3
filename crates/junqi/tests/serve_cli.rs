//! `junqi serve` as a process: `--log-format json` writes only JSON lines to standard output,
//! the server answers `/healthz` and `/readyz`, and SIGTERM stops it gracefully with exit 0.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_junqi");

/// One HTTP/1.1 GET: the status and the body.
fn get(addr: &str, path: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").expect("a response");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status");
    (status, body.to_string())
}

#[test]
fn serve_writes_json_logs_and_stops_on_sigterm() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-json-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(BIN)
        .args(["serve", "--addr", "127.0.0.1:0", "--log-format", "json"])
        .arg("--data-dir")
        .arg(&dir)
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start junqi serve");
    // Read standard output on a thread, so that a server that says nothing fails the test
    // instead of hanging it.
    let (tx, lines) = mpsc::channel::<String>();
    let out = BufReader::new(child.stdout.take().unwrap());
    let reader = std::thread::spawn(move || {
        for line in out.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut seen: Vec<Value> = Vec::new();
    let take = |seen: &mut Vec<Value>| -> Value {
        let line = lines
            .recv_timeout(Duration::from_secs(60))
            .expect("a log line");
        let v: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        seen.push(v.clone());
        v
    };
    let url = loop {
        let v = take(&mut seen);
        assert!(v["timestamp"].is_string() && v["level"].is_string(), "{v}");
        if let Some(url) = v["fields"]["url"].as_str() {
            assert!(
                v["fields"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("listening"),
                "{v}"
            );
            break url.to_string();
        }
    };
    let addr = url.trim_start_matches("http://").to_string();
    assert_eq!(get(&addr, "/healthz"), (200, r#"{"ok":true}"#.to_string()));
    let (status, body) = get(&addr, "/readyz");
    assert_eq!(status, 200, "{body}");

    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(term.success());
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "junqi serve did not stop within its shutdown timeout"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "exit {status:?}, stderr: {err}");
    reader.join().unwrap();
    // Every line after the announcement is JSON too, down to the last.
    while let Ok(line) = lines.try_recv() {
        let v: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        seen.push(v);
    }
    let messages: Vec<&str> = seen
        .iter()
        .filter_map(|v| v["fields"]["message"].as_str())
        .collect();
    assert!(messages.contains(&"SIGTERM: stopping"), "{messages:?}");
    let stopped = seen
        .iter()
        .find(|v| {
            v["fields"]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("stopped in"))
        })
        .unwrap_or_else(|| panic!("no stop line in {messages:?}"));
    assert_eq!(stopped["fields"]["clean"], true, "{stopped}");
    let _ = std::fs::remove_dir_all(&dir);
}
