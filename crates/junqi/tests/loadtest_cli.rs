//! `junqi loadtest` against several servers: two `junqi serve` processes (their own ports and
//! data directories), games spread over both and reported per URL; and `--cross-node`, where
//! the two seats of a game are loadtest clients connected through different URLs.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_junqi");

/// A `junqi serve` process, stopped when dropped.
struct Serve {
    child: Child,
    url: String,
    _data: tempfile::TempDir,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Start `junqi serve` on a free port with a fresh data directory and limits a load test from
/// one address needs; returns once it listens.
fn serve() -> Serve {
    let data = tempfile::tempdir().unwrap();
    let mut child = Command::new(BIN)
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(data.path())
        .args([
            "--rate",
            "100000",
            "--tables-per-minute",
            "100000",
            "--max-open-tables",
            "1000",
            "--max-connections-per-address",
            "1000",
            "--guests-per-hour",
            "1000000",
            "--bot-delay-ms",
            "0",
            "--default-bot",
            "random",
        ])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start junqi serve");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // "junqi server listening: open http://127.0.0.1:PORT in a browser (...)"
    let line = lines.next().expect("a line").expect("readable");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    Serve {
        child,
        url,
        _data: data,
    }
}

fn loadtest(args: &[&str]) -> (String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(BIN)
        .arg("loadtest")
        .args(args)
        .output()
        .expect("run junqi loadtest");
    let (out, err) = (
        String::from_utf8(stdout).unwrap(),
        String::from_utf8(stderr).unwrap(),
    );
    assert!(status.success(), "stdout:\n{out}\nstderr:\n{err}");
    (out, err)
}

/// The number after `name` and spaces in a report line.
fn field(line: &str, name: &str) -> u64 {
    let at = line
        .find(&format!("{name} "))
        .unwrap_or_else(|| panic!("no {name} in {line:?}"));
    line[at + name.len()..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after {name} in {line:?}"))
}

/// The per-URL line of `url` (`host:port`) in a report (the `i`-th if it appears twice).
fn url_line<'a>(out: &'a str, url: &str, i: usize) -> &'a str {
    out.lines()
        .filter(|l| l.trim_start().starts_with(&format!("{url}:")))
        .nth(i)
        .unwrap_or_else(|| panic!("no line {i} for {url} in\n{out}"))
}

#[test]
fn loadtest_spreads_games_over_two_servers_and_reports_each() {
    let (a, b) = (serve(), serve());
    let urls = format!("{},{}", a.url, b.url);
    let (out, _) = loadtest(&[
        "--url",
        &urls,
        "--concurrency",
        "4",
        "--duration",
        "4",
        "--ramp",
        "1",
        "--bot",
        "random",
    ]);
    // The overall report is as it was.
    for line in [
        "games finished",
        "errors                0",
        "actions (all seats)",
        "client actions",
        "round trip (client action -> its events frame): p50",
    ] {
        assert!(out.contains(line), "{line:?} missing in\n{out}");
    }
    // Each server got games and answered actions; no errors anywhere.
    let total_games = field(
        out.lines().find(|l| l.contains("games finished")).unwrap(),
        "finished",
    );
    let mut games = 0;
    for s in [&a, &b] {
        let host = s.url.trim_start_matches("http://");
        let line = url_line(&out, host, 0);
        assert_eq!(field(line, "errors"), 0, "{line}");
        assert!(field(line, "actions") > 0, "{line}");
        assert!(
            line.contains("actions/s, p50 ") && line.contains(" ms, p99 "),
            "{line}"
        );
        let samples: u64 = line
            .rsplit('(')
            .next()
            .and_then(|t| t.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(samples > 0, "round-trip samples: {line}");
        games += field(line, "games");
    }
    assert_eq!(games, total_games, "{out}");
    println!("{out}");
}

#[test]
fn cross_node_games_seat_clients_through_different_urls() {
    let s = serve();
    // Two URLs of one server (a single server has no cluster to route between): each game is
    // created through one and its second seat sits down through the other.
    let host = s.url.trim_start_matches("http://").to_string();
    let (out, _) = loadtest(&[
        "--url",
        &s.url,
        "--url",
        &s.url,
        "--cross-node",
        "--concurrency",
        "2",
        "--duration",
        "4",
        "--ramp",
        "1",
    ]);
    println!("{out}");
    assert!(out.contains("cross-node"), "{out}");
    assert!(out.contains("errors                0"), "{out}");
    for i in 0..2 {
        let line = url_line(&out, &host, i);
        assert!(field(line, "actions") > 0, "both seats acted: {line}");
        assert_eq!(field(line, "errors"), 0, "{line}");
    }
    // Without a second URL there is nothing to cross.
    let o = Command::new(BIN)
        .args([
            "loadtest",
            "--url",
            &s.url,
            "--cross-node",
            "--duration",
            "1",
        ])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("at least two --url"));
}
