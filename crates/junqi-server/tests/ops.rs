//! The operations surface of one server, over HTTP and WebSocket: `/healthz`, `/readyz` (and
//! its answer while shutting down), `/metrics` moving after a real game action, a graceful
//! shutdown that closes WebSockets with 1012 and loses nothing announced. (Table log lines are
//! checked in `table_logs.rs`.)

mod common;
use common::*;
use junqi_server::client::{request, WsClient};
use junqi_server::ManualClock;
use serde_json::json;
use std::collections::HashMap;
use std::time::Duration;

/// Parse the Prometheus text format strictly: every line is a `# HELP`/`# TYPE` comment or a
/// sample `name{label="value",…} number`. Returns the samples by series (name and labels as
/// written) and the declared types by family name.
fn parse_metrics(text: &str) -> (HashMap<String, f64>, HashMap<String, String>) {
    let mut samples = HashMap::new();
    let mut types = HashMap::new();
    let name_ok = |n: &str| {
        !n.is_empty()
            && n.chars().enumerate().all(|(i, c)| {
                c == '_' || c == ':' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())
            })
    };
    for line in text.lines().filter(|l| !l.is_empty()) {
        if let Some(rest) = line.strip_prefix("# ") {
            let mut parts = rest.splitn(3, ' ');
            let (kind, name, what) = (parts.next(), parts.next(), parts.next());
            let name = name.unwrap_or_else(|| panic!("comment without a name: {line}"));
            assert!(name_ok(name), "bad metric name in {line}");
            match kind {
                Some("HELP") => {}
                Some("TYPE") => {
                    let t = what.unwrap_or_default();
                    assert!(
                        ["counter", "gauge", "histogram", "summary", "untyped"].contains(&t),
                        "bad type in {line}"
                    );
                    types.insert(name.to_string(), t.to_string());
                }
                _ => panic!("unknown comment {line}"),
            }
            continue;
        }
        let (series, value) = line
            .rsplit_once(' ')
            .unwrap_or_else(|| panic!("no value: {line}"));
        let value: f64 = value
            .parse()
            .unwrap_or_else(|_| panic!("bad value: {line}"));
        let name = match series.split_once('{') {
            None => series,
            Some((name, labels)) => {
                let labels = labels
                    .strip_suffix('}')
                    .unwrap_or_else(|| panic!("unclosed labels: {line}"));
                for pair in labels.split(',') {
                    let (k, v) = pair
                        .split_once('=')
                        .unwrap_or_else(|| panic!("bad label: {line}"));
                    assert!(name_ok(k), "bad label name in {line}");
                    assert!(
                        v.len() >= 2 && v.starts_with('"') && v.ends_with('"'),
                        "bad label value in {line}"
                    );
                }
                name
            }
        };
        assert!(name_ok(name), "bad metric name in {line}");
        assert!(
            samples.insert(series.to_string(), value).is_none(),
            "duplicate series {series}"
        );
    }
    (samples, types)
}

/// Scrape `/metrics`: the samples by series, and the declared types by family.
async fn scrape(ts: &TestServer) -> (HashMap<String, f64>, HashMap<String, String>) {
    let r = request(None, &ts.addr(), "GET", "/metrics", None, None)
        .await
        .unwrap();
    assert_eq!(r.status, 200);
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("text/plain; version=0.0.4"),
        "{:?}",
        r.headers
    );
    parse_metrics(r.body.as_str().expect("metrics are text"))
}

async fn metrics(ts: &TestServer) -> HashMap<String, f64> {
    scrape(ts).await.0
}

fn value(m: &HashMap<String, f64>, series: &str) -> f64 {
    m.get(series).copied().unwrap_or(0.0)
}

/// A game against the computer, deployed and playing: its id, the seat token, the person's
/// connection and the legal actions if the person moves first.
async fn playing_table(ts: &TestServer) -> (String, String, WsClient, Vec<String>) {
    let (status, created) = ts
        .post("/api/play-computer", json!({"board": "two_player"}))
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut c = join(ts, &id, Some(&token), None).await;
    let sync = deploy_and_play(&mut c, 5).await;
    (id, token, c, legal_of(&sync))
}

/// Play a legal action when it is our turn (`legal`: it is, with these), and wait for its ack.
async fn act(c: &mut WsClient, id: u64, legal: Vec<String>) {
    let legal = if legal.is_empty() {
        wait_turn(c).await
    } else {
        legal
    };
    assert!(!legal.is_empty(), "the game is not over");
    c.send(&json!({"type": "act", "action": legal[0], "id": id}))
        .await
        .unwrap();
    c.recv_until(|f| f["type"] == "ack" && f["id"] == id)
        .await
        .unwrap();
}

#[tokio::test]
async fn healthz_and_readyz_answer() {
    let ts = start().await;
    let (st, body) = ts.get("/healthz").await;
    assert_eq!((st, body), (200, json!({"ok": true})));
    let (st, body) = ts.get("/readyz").await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(
        body,
        json!({"ok": true, "failed": [], "checks": {"shutdown": "ok", "database": "ok"}})
    );

    // A check added later (as the cluster adds its message bus) takes part at once.
    ts.server
        .app
        .readiness
        .add("bus", || async { Err("not connected".to_string()) });
    let (st, body) = ts.get("/readyz").await;
    assert_eq!(st, 503, "{body}");
    assert_eq!(body["failed"], json!(["bus"]));
    assert_eq!(body["checks"]["bus"], "not connected");
    assert_eq!(body["checks"]["database"], "ok");
}

#[tokio::test]
async fn readyz_answers_503_once_shutdown_begins() {
    let TestServer { server, dir, .. } = start().await;
    let addr = server.addr.to_string();
    let app = server.app.clone();
    // A check that holds the request until the shutdown has begun, so that the answer is
    // given over a connection the server is draining.
    let (entered_tx, entered) = tokio::sync::mpsc::unbounded_channel::<()>();
    let watched = app.clone();
    app.readiness.add("gate", move || {
        let _ = entered_tx.send(());
        let mut phase = watched.shutdown.subscribe();
        async move {
            let _ = phase
                .wait_for(|p| *p != junqi_server::shutdown::Phase::Running)
                .await;
            Ok(())
        }
    });
    let mut entered = entered;
    let asking = tokio::spawn({
        let addr = addr.clone();
        async move { request(None, &addr, "GET", "/readyz", None, None).await }
    });
    entered.recv().await.unwrap();
    let stopping = tokio::spawn(server.shutdown());
    let r = asking.await.unwrap().unwrap();
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(r.body["ok"], false);
    assert_eq!(r.body["failed"], json!(["shutdown"]));
    assert_eq!(r.body["checks"]["shutdown"], "the server is shutting down");
    assert!(app.shutdown.is_shutting_down());

    let report = stopping.await.unwrap();
    assert!(report.clean, "{report:?}");
    // The listener is closed.
    assert!(tokio::net::TcpStream::connect(&addr).await.is_err());
    drop(dir);
}

#[tokio::test]
async fn metrics_move_after_a_real_move() {
    let ts = start().await;
    let before = metrics(&ts).await;
    assert_eq!(value(&before, "junqi_live_tables"), 0.0);
    assert_eq!(value(&before, "junqi_websocket_connections"), 0.0);

    let (_id, _token, mut c, legal) = playing_table(&ts).await;
    act(&mut c, 1, legal).await;
    let (after, types) = scrape(&ts).await;
    for (family, t) in [
        ("junqi_live_tables", "gauge"),
        ("junqi_websocket_connections", "gauge"),
        ("junqi_client_actions_total", "counter"),
        ("junqi_action_seconds", "histogram"),
        ("junqi_db_write_seconds", "histogram"),
        ("junqi_http_requests_total", "counter"),
    ] {
        assert_eq!(
            types.get(family).map(String::as_str),
            Some(t),
            "{family}: {types:?}"
        );
    }
    // Nothing uses the message bus on a single server: a family without series is left out.
    assert!(!types.contains_key("junqi_message_bus_seconds"));

    let act_count = "junqi_client_actions_total{kind=\"act\"}";
    assert_eq!(value(&after, act_count), value(&before, act_count) + 1.0);
    assert_eq!(
        value(&after, "junqi_client_actions_total{kind=\"deploy\"}"),
        1.0
    );
    let act_latency = "junqi_action_seconds_count{kind=\"act\"}";
    assert_eq!(
        value(&after, act_latency),
        value(&before, act_latency) + 1.0
    );
    assert!(value(&after, "junqi_action_seconds_sum{kind=\"act\"}") > 0.0);
    assert_eq!(
        value(
            &after,
            "junqi_action_seconds_bucket{kind=\"act\",le=\"+Inf\"}"
        ),
        1.0,
        "{after:?}"
    );
    // Creating the table, the deployment, the move and the bot's answer were each committed.
    assert!(
        value(&after, "junqi_db_write_seconds_count")
            >= value(&before, "junqi_db_write_seconds_count") + 3.0
    );
    assert_eq!(value(&after, "junqi_live_tables"), 1.0);
    assert_eq!(value(&after, "junqi_websocket_connections"), 1.0);
    // The first scrape, the table's creation; the WebSocket upgrade.
    assert!(value(&after, "junqi_http_requests_total{class=\"2xx\"}") >= 2.0);
    assert_eq!(
        value(&after, "junqi_http_requests_total{class=\"1xx\"}"),
        1.0
    );
    let (st, _) = ts.get("/api/tables/nope").await;
    assert_eq!(st, 404);
    let later = metrics(&ts).await;
    assert_eq!(
        value(&later, "junqi_http_requests_total{class=\"4xx\"}"),
        1.0
    );

    // The connection leaves the gauge when it closes.
    c.close().await;
    for _ in 0..200 {
        if value(&metrics(&ts).await, "junqi_websocket_connections") == 0.0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the closed connection is still counted");
}

#[tokio::test]
async fn shutdown_closes_websockets_with_1012_and_loses_nothing_announced() {
    let clock = ManualClock::new(T0);
    let ts = start_at(None, None, clock.clone()).await;
    let (id, token, mut c, legal) = playing_table(&ts).await;
    // A spectator who never said hello is closed the same way.
    let mut idle = WsClient::connect(&ts.ws_url(&id)).await.unwrap();
    act(&mut c, 1, legal).await;
    // A second move, in flight while the server stops: it is either stored and announced, or
    // neither (then it never reached the table).
    let legal = wait_turn(&mut c).await;
    c.send(&json!({"type": "act", "action": legal[0], "id": 2}))
        .await
        .unwrap();
    // A shutdown hook (where a cluster hands its tables over) runs with every table stopped
    // and before any WebSocket is told to reconnect.
    let app = ts.server.app.clone();
    let (seen_tx, seen) = tokio::sync::oneshot::channel();
    let watched = app.clone();
    app.shutdown.add_hook("hand over", move || async move {
        let _ = seen_tx.send((
            watched.live_tables(),
            watched.shutdown.phase(),
            watched.shutdown.open_connections(),
        ));
        Ok(())
    });
    let TestServer { server, dir, .. } = ts;
    let addr = server.addr.to_string();
    let report = server.shutdown().await;
    assert!(report.clean, "{report:?}");
    assert_eq!(report.tables_stopped, 1);
    assert!(report.took_ms < 10_000);
    assert_eq!(
        seen.await.unwrap(),
        (0, junqi_server::shutdown::Phase::Draining, 2)
    );
    assert_eq!(app.shutdown.open_connections(), 0);

    assert_eq!(c.closed().await.unwrap(), Some(1012));
    assert_eq!(idle.closed().await.unwrap(), Some(1012));
    assert!(tokio::net::TcpStream::connect(&addr).await.is_err());
    let seen = c.log.iter().filter_map(|f| f["v"].as_u64()).max().unwrap();

    // The data directory was let go: a new server on it resumes the game with every entry
    // anyone was told of.
    let ts = start_at(None, dir, clock).await;
    let mut again = join(&ts, &id, Some(&token), None).await;
    let sync = again.recv_type("sync").await.unwrap();
    assert_eq!(sync["status"], "playing");
    let v = sync["v"].as_u64().unwrap();
    assert!(v >= seen, "stored v {v}, announced v {seen}");
}
