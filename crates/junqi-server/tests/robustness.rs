//! A server that survives hostile clients and long runs: the write-ahead log stays bounded,
//! idle and half-open connections are closed, one address cannot hold every connection, tables
//! nobody plays at close, table spam is refused with 429, two servers cannot share a data
//! directory, a garbage database is named at start, typed bodies refuse wrong types, and the
//! table rules' state (draw offers, move clocks) survives a restart.

mod common;
use common::*;
use junqi_server::client::{http, WsClient};
use junqi_server::{ManualClock, Settings};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A server with its settings changed by `f`.
async fn with_settings(f: impl FnOnce(&mut Settings)) -> TestServer {
    start_with(|c| f(&mut c.settings)).await
}

/// Wait (real time, at most `limit`) until `cond` holds.
async fn eventually(limit: Duration, mut cond: impl AsyncFnMut() -> bool) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if cond().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

/// Whether the server has closed this TCP connection (a read returns end of stream or an error
/// within `within`).
async fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 4096];
    let until = Instant::now() + within;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_write_ahead_log_stays_bounded_under_steady_writes_and_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wal.sqlite3");
    let limit = 256 * 1024;
    let db = junqi_server::db::Db::open_with(&format!("sqlite://{}", path.display()), limit)
        .await
        .unwrap();
    let wal = dir.path().join("wal.sqlite3-wal");
    // Readers never stop, as a busy lobby's never do.
    let reader_db = db.clone();
    let readers = tokio::spawn(async move {
        loop {
            let _ = reader_db
                .fetch("SELECT COUNT(*) FROM junqi_entries", vec![])
                .await;
            tokio::task::yield_now().await;
        }
    });
    let mut largest = 0;
    let payload = "x".repeat(400);
    for batch in 0..400i64 {
        let stmts = (0..10i64)
            .map(|i| {
                (
                    "INSERT INTO junqi_entries (table_id, seq, entry, at_ms) VALUES ($1, $2, $3, $4)",
                    vec![
                        "t".into(),
                        (batch * 10 + i).into(),
                        payload.as_str().into(),
                        0i64.into(),
                    ],
                )
            })
            .collect();
        db.write(stmts).await.unwrap();
        largest = largest.max(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0));
    }
    readers.abort();
    // About 2 MB were written; the log never held much more than its limit (one commit's worth
    // of pages can land past it before the writer checkpoints).
    assert!(
        largest <= 2 * limit,
        "the write-ahead log reached {largest} bytes with a limit of {limit}"
    );
    let rows = db
        .fetch("SELECT COUNT(*) FROM junqi_entries", vec![])
        .await
        .unwrap();
    assert_eq!(junqi_server::db::col_i64(&rows[0], 0), 4000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_and_silent_websockets_are_closed() {
    let ts = with_settings(|s| {
        s.header_timeout_ms = 300;
        s.connection_idle_ms = 700;
        s.hello_timeout_ms = 300;
        s.ping_interval_ms = 100;
        s.idle_timeout_ms = 500;
    })
    .await;
    // Headers that never finish.
    let mut half = TcpStream::connect(ts.addr()).await.unwrap();
    half.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    assert!(
        closed_within(&mut half, Duration::from_secs(5)).await,
        "a request whose headers never end is dropped"
    );
    // A connection that sends nothing at all.
    let mut mute = TcpStream::connect(ts.addr()).await.unwrap();
    assert!(closed_within(&mut mute, Duration::from_secs(5)).await);
    // A WebSocket that never says hello: told why, then closed.
    let (_, created) = ts
        .post("/api/play-computer", json!({"board": "two_player"}))
        .await;
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let mut quiet = WsClient::connect(&ts.ws_url(&id)).await.unwrap();
    let e = quiet.recv().await.unwrap();
    assert!(e["reason"].as_str().unwrap().contains("no hello"), "{e}");
    assert!(
        quiet.recv().await.is_err(),
        "closed after the hello timeout"
    );
    // A joined client that answers pings (its library does, as browsers do) stays, well past
    // the idle timeout.
    let mut live = join(&ts, &id, created["token"].as_str(), None).await;
    // Reading (which answers the server's pings) for three idle timeouts; `recv` skips pings and
    // waits for a text frame, which does not come.
    if let Ok(r) = tokio::time::timeout(Duration::from_millis(1500), live.recv()).await {
        assert!(r.is_ok(), "the live client was dropped: {r:?}");
    }
    live.send(&json!({"type": "ping", "t": 9})).await.unwrap();
    assert_eq!(live.recv_type("pong").await.unwrap()["t"], 9);
    // A joined client that stops reading answers no ping: closed after the idle timeout.
    let mut deaf = join(&ts, &id, None, None).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let mut closed = false;
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if let Ok(Err(_)) = tokio::time::timeout(Duration::from_secs(1), deaf.recv()).await {
            closed = true;
            break;
        }
    }
    assert!(
        closed,
        "a connection silent past the idle timeout is closed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_hold_every_connection() {
    let ts = with_settings(|s| s.max_connections_per_address = 4).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(TcpStream::connect(ts.addr()).await.unwrap());
    }
    // Give the server a moment to count them.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut fifth = TcpStream::connect(ts.addr()).await.unwrap();
    assert!(
        closed_within(&mut fifth, Duration::from_secs(2)).await,
        "the fifth connection from one address is closed at once"
    );
    // Another loopback address is another client.
    let other = tokio::net::TcpSocket::new_v4().unwrap();
    other.bind("127.0.0.2:0".parse().unwrap()).unwrap();
    let mut s = other.connect(ts.server.addr).await.unwrap();
    s.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut body = String::new();
    s.read_to_string(&mut body).await.unwrap();
    assert!(body.starts_with("HTTP/1.1 200"), "{body}");
    // Once one closes, the address may connect again.
    held.pop();
    let ok = eventually(Duration::from_secs(3), async || {
        http(&ts.addr(), "GET", "/api/info", None, None)
            .await
            .is_ok_and(|(st, _)| st == 200)
    })
    .await;
    assert!(ok);
}

/// WebSockets count against their address for as long as they are open (the HTTP connection
/// they were upgraded from has ended by then): with a cap of 4, the fifth WebSocket from one
/// address is cut while the first four stay open, and a closed one makes room again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_count_against_their_address_while_open() {
    let ts = with_settings(|s| s.max_connections_per_address = 4).await;
    let (_, created) = ts.post("/api/tables", json!({"board": "two_player"})).await;
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let mut open = Vec::new();
    for _ in 0..4 {
        open.push(join(&ts, &id, None, None).await);
    }
    // The fifth is refused before or right after its upgrade.
    let fifth = async {
        let mut c = WsClient::connect(&ts.ws_url(&id)).await?;
        c.send(&json!({"type": "hello"})).await?;
        loop {
            c.recv().await?;
        }
    };
    let r: Result<(), String> = tokio::time::timeout(Duration::from_secs(5), fifth)
        .await
        .unwrap_or(Ok(()));
    assert!(r.is_err(), "a fifth WebSocket from one address stays open");
    // The four are still served.
    for c in open.iter_mut() {
        c.send(&json!({"type": "ping", "t": 1})).await.unwrap();
        assert_eq!(c.recv_type("pong").await.unwrap()["t"], 1);
    }
    // Plain HTTP from that address is refused too while four WebSockets are open.
    assert!(
        http(&ts.addr(), "GET", "/api/info", None, None)
            .await
            .is_err(),
        "the address's connections are all taken"
    );
    // One closes: the address may connect again.
    drop(open.pop());
    let ok = eventually(Duration::from_secs(3), async || {
        http(&ts.addr(), "GET", "/api/info", None, None)
            .await
            .is_ok_and(|(st, _)| st == 200)
    })
    .await;
    assert!(ok, "a closed WebSocket gives its place back");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_nobody_plays_at_close_and_spam_is_refused() {
    let ts = with_settings(|s| {
        s.table_idle_ms = 60_000;
        s.max_open_tables_per_creator = 3;
        s.tables_per_minute_per_address = 1000;
    })
    .await;
    // A waiting table nobody joins, and a game against the computer whose person never comes.
    let (_, waiting) = ts
        .post("/api/tables", json!({"board": "four_player"}))
        .await;
    let waiting = waiting["table"]["id"].as_str().unwrap().to_string();
    let (_, vs_bot) = ts
        .post("/api/play-computer", json!({"board": "two_player"}))
        .await;
    let vs_bot = vs_bot["table"]["id"].as_str().unwrap().to_string();
    assert_eq!(vs_bot_status(&ts, &vs_bot).await, "deploying");
    // A table with its person connected stays.
    let (_, kept) = ts.post("/api/tables", json!({"board": "two_player"})).await;
    let kept_id = kept["table"]["id"].as_str().unwrap().to_string();
    let _host = join(&ts, &kept_id, kept["token"].as_str(), None).await;
    ts.clock.advance(61_000);
    let gone = eventually(Duration::from_secs(5), async || {
        ts.get(&format!("/api/tables/{waiting}")).await.0 == 404
            && ts.get(&format!("/api/tables/{vs_bot}")).await.0 == 404
    })
    .await;
    assert!(gone, "tables nobody played at are closed");
    let (_, lobby) = ts.get("/api/tables").await;
    let ids: Vec<&str> = lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert!(ids.contains(&kept_id.as_str()) && !ids.contains(&waiting.as_str()));
    // One person may keep only so many open tables.
    let (_, guest) = ts.post("/api/guest", json!({})).await;
    let session = guest["session"].as_str().unwrap().to_string();
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let (st, body) = http(
            &ts.addr(),
            "POST",
            "/api/tables",
            Some(&json!({"board": "two_player"})),
            Some(&session),
        )
        .await
        .unwrap();
        statuses.push((st, body["code"].clone()));
    }
    assert_eq!(statuses[..3].iter().filter(|s| s.0 == 201).count(), 3);
    assert_eq!(
        statuses[3],
        (429, json!("setup.too_many_tables")),
        "{statuses:?}"
    );
}

async fn vs_bot_status(ts: &TestServer, id: &str) -> String {
    let (_, t) = ts.get(&format!("/api/tables/{id}")).await;
    t["status"].as_str().unwrap_or("").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_creation_is_rate_limited_per_address() {
    let ts = with_settings(|s| s.tables_per_minute_per_address = 3).await;
    let mut last = (0, Value::Null);
    for _ in 0..4 {
        last = ts
            .post("/api/play-computer", json!({"board": "two_player"}))
            .await;
    }
    assert_eq!(last.0, 429, "{}", last.1);
    assert_eq!(last.1["code"], "request.rate_limited");
    assert!(last.1["args"]["retry_after"].as_u64().unwrap() >= 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_bodies_are_typed() {
    let ts = start().await;
    for (body, says) in [
        (json!({"board": 5}), "invalid type"),
        (
            json!({"board": "two_player", "colour": "red"}),
            "unknown field `colour`",
        ),
        (json!({"private": "yes"}), "invalid type"),
        (json!({"seat": -1}), "invalid value"),
        (
            json!({"options": {"max_plies": 0}}),
            "max_plies must be at least 1",
        ),
    ] {
        let (st, r) = ts.post("/api/tables", body.clone()).await;
        assert_eq!(st, 400, "{body} -> {r}");
        assert!(r["error"].as_str().unwrap().contains(says), "{body} -> {r}");
        assert!(r["code"].is_string(), "{r}");
    }
    let (_, lobby) = ts.get("/api/tables").await;
    assert!(
        lobby["tables"].as_array().unwrap().is_empty(),
        "nothing was created"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accepting_ones_own_draw_offer_is_refused() {
    let ts = start().await;
    let (_id, mut a, mut b, _, _) = two_people(&ts, 0).await;
    ts.clock.advance(100_000);
    a.send(&json!({"type": "offer_draw"})).await.unwrap();
    b.recv_type("draw_offer").await.unwrap();
    a.send(&json!({"type": "accept_draw", "id": 1}))
        .await
        .unwrap();
    let e = a.recv_type("error").await.unwrap();
    assert_eq!(e["code"], "table.own_draw_offer", "{e}");
    assert_eq!(e["id"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_offer_and_the_move_clock_survive_a_restart() {
    let ts = start().await;
    let (id, mut a, mut b, t0, t1) = two_people(&ts, 30).await;
    // The move clock has 30 s, renewed by each move.
    let sync = last_frame(&a, "sync");
    a.send(&json!({"type": "act", "action": first_legal(&sync)}))
        .await
        .unwrap();
    b.recv_type("events").await.unwrap();
    b.send(&json!({"type": "offer_draw"})).await.unwrap();
    a.recv_type("draw_offer").await.unwrap();
    ts.clock.advance(10_000);
    // kill -9: the server stops; a new one opens the same directory.
    drop((a, b));
    let ts = restart(ts).await;
    let mut a = join(&ts, &id, Some(&t0), None).await;
    let table = a.recv_type("table").await.unwrap();
    assert_eq!(table["draw_offer"]["by"], 1, "{table}");
    let sync = a.recv_type("sync").await.unwrap();
    let left = sync["clock"]["remaining_ms"].as_u64().unwrap();
    assert!(
        (15_000..=20_000).contains(&left),
        "the move clock keeps its time ({left} ms left; it had 20 s at the stop)"
    );
    let mut b = join(&ts, &id, Some(&t1), None).await;
    b.recv_type("sync").await.unwrap();
    a.send(&json!({"type": "accept_draw"})).await.unwrap();
    let over = a.recv_type("game_over").await.unwrap();
    assert_eq!(over["outcome"]["result"], "draw", "{over}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_server_per_data_directory_and_garbage_databases_are_named() {
    let ts = start().await;
    let dir = ts.dir.as_ref().unwrap().path().to_path_buf();
    let clock = ManualClock::new(T0);
    let e = junqi_server::start(config(None, dir.clone(), &clock))
        .await
        .err()
        .expect("a second server on the same directory is refused")
        .to_string();
    assert!(e.contains("another junqi server"), "{e}");
    let garbage = tempfile::tempdir().unwrap();
    std::fs::write(garbage.path().join("junqi.sqlite3"), vec![0x42u8; 8192]).unwrap();
    let started = Instant::now();
    let e = junqi_server::start(config(None, garbage.path().to_path_buf(), &clock))
        .await
        .err()
        .expect("a garbage database is refused")
        .to_string();
    assert!(e.contains("is not a SQLite database"), "{e}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "at once, not after a pool timeout"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_recent_finished_games_from_the_database() {
    let ts = start().await;
    let (st, created) = ts
        .post(
            "/api/tables",
            json!({"board": "two_player", "bots": [{"seat": 1, "bot": "random"}],
                   "options": {"max_plies": 40}}),
        )
        .await;
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let mut c = join(&ts, &id, created["token"].as_str(), None).await;
    c.send(&json!({"type": "start"})).await.unwrap();
    c.recv_until(|f| f["type"] == "sync" && f["status"] == "deploying")
        .await
        .unwrap();
    c.send(&json!({"type": "deploy", "layout": layout(3)}))
        .await
        .unwrap();
    play_random(&mut c, 4).await;
    let (_, lobby) = ts.get("/api/tables").await;
    let recent = lobby["recent_games"].as_array().unwrap();
    assert!(recent.iter().any(|g| g["id"] == id.as_str()), "{lobby}");
    // A private game stays off the list.
    let (_, private) = ts
        .post("/api/play-computer", json!({"board": "two_player"}))
        .await;
    let pid = private["table"]["id"].as_str().unwrap();
    let (_, lobby) = ts.get("/api/tables").await;
    assert!(!lobby["recent_games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == pid));
}

/// Create a 人机 table from loopback `src`, saying `X-Forwarded-For: xff`; the status code.
async fn create_forwarded(addr: &str, src: &str, xff: &str) -> u16 {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(std::net::SocketAddr::new(src.parse().unwrap(), 0))
        .unwrap();
    let mut s = socket.connect(addr.parse().unwrap()).await.unwrap();
    let body = r#"{"board":"two_player"}"#;
    let req = format!(
        "POST /api/play-computer HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
         X-Forwarded-For: {xff}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out);
    text.split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// Behind a trusted proxy the creation limit counts each forwarded client apart; from anyone
/// else the header is ignored, so a client cannot dodge the limit by writing it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_key_on_the_forwarded_client_only_behind_a_trusted_proxy() {
    let ts = with_settings(|s| {
        s.tables_per_minute_per_address = 2;
        s.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    let addr = ts.addr();
    let a = "203.0.113.1";
    assert_eq!(create_forwarded(&addr, "127.0.0.1", a).await, 201);
    assert_eq!(create_forwarded(&addr, "127.0.0.1", a).await, 201);
    assert_eq!(create_forwarded(&addr, "127.0.0.1", a).await, 429);
    // Another client behind the same proxy is not locked out by the first.
    assert_eq!(
        create_forwarded(&addr, "127.0.0.1", "203.0.113.2").await,
        201
    );
    // A client that writes its own header on a direct connection gets no new address.
    for (i, code) in [201, 201, 429].into_iter().enumerate() {
        let xff = format!("198.51.100.{i}");
        assert_eq!(
            create_forwarded(&addr, "127.0.0.9", &xff).await,
            code,
            "{xff}"
        );
    }
}

/// Send `frame` and read the ack that answers it: its (`v`, `repeat`), and the ack itself.
async fn ack_of(c: &mut WsClient, frame: &Value) -> ((Option<u64>, Value), Value) {
    c.send(frame).await.unwrap();
    let ack = c.recv_type("ack").await.unwrap();
    ((ack["v"].as_u64(), ack["repeat"].clone()), ack)
}

/// An `act` carries the client's `action_id`: it is applied once and acknowledged with its
/// entry's version; the same id sent again (on the same connection, after a reconnection,
/// after a kill -9 and restart) is acknowledged again as a repeat and applies nothing, even
/// when the action would now be illegal. The other seat's ids are its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_resent_with_its_id_is_applied_once() {
    let ts = start().await;
    let (id, mut a, mut b, t0, t1) = two_people(&ts, 0).await;
    let sync = last_frame(&a, "sync");
    let action = first_legal(&sync);
    let act = json!({"type": "act", "action": action, "action_id": "m-1"});
    a.send(&act).await.unwrap();
    let ack = a.recv_type("ack").await.unwrap();
    assert_eq!(ack["action_id"], "m-1", "{ack}");
    assert_eq!(ack["repeat"], false, "{ack}");
    assert!(ack["id"].is_null(), "no request id was given: {ack}");
    let v = ack["v"].as_u64().unwrap();
    let ev = b.recv_type("events").await.unwrap();
    assert_eq!(ev["v"], v);
    // Again on the same connection, with a request id: a repeat, nothing applied.
    let mut again = act.clone();
    again["id"] = json!(7);
    a.send(&again).await.unwrap();
    let ack = a.recv_type("ack").await.unwrap();
    assert_eq!(
        (ack["id"].clone(), ack["v"].as_u64(), ack["repeat"].clone()),
        (json!(7), Some(v), json!(true)),
        "{ack}"
    );
    // North's own id "m-1" is a new action of North's.
    let north = wait_turn(&mut b).await[0].clone();
    b.send(&json!({"type": "act", "action": north, "action_id": "m-1"}))
        .await
        .unwrap();
    let ack_b = b.recv_type("ack").await.unwrap();
    assert_eq!(ack_b["repeat"], false, "{ack_b}");
    assert_eq!(ack_b["v"].as_u64(), Some(v + 1));
    // After a reconnection, and after kill -9 and a restart: still a repeat.
    drop(a);
    let mut a = join(&ts, &id, Some(&t0), None).await;
    assert_eq!(ack_of(&mut a, &again).await.0, (Some(v), json!(true)));
    drop((a, b));
    let ts = restart(ts).await;
    let mut a = join(&ts, &id, Some(&t0), None).await;
    assert_eq!(ack_of(&mut a, &again).await.0, (Some(v), json!(true)));
    let mut b = join(&ts, &id, Some(&t1), None).await;
    let north_again = json!({"type": "act", "action": north, "action_id": "m-1", "id": 2});
    assert_eq!(
        ack_of(&mut b, &north_again).await.0,
        (Some(v + 1), json!(true))
    );
    // The record holds each action once: two plies.
    let (_, t) = ts.get(&format!("/api/tables/{id}")).await;
    assert_eq!(t["plies"], 2, "{t}");
    // A new id is a new action: South's first move again is refused as the referee says.
    a.send(&json!({"type": "act", "action": action, "action_id": "m-2", "id": 3}))
        .await
        .unwrap();
    let e = a
        .recv_until(|f| f["type"] == "error" && f["id"] == 3)
        .await
        .unwrap();
    assert_ne!(e["code"], "request.bad", "{e}");
}
