//! Hostile input: malformed frames get an error frame and change nothing; the server never
//! panics; a flooding connection is rate-limited.

mod common;
use common::*;
use junqi_server::client::WsClient;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_hostile_frames_change_nothing() {
    let ts = start().await;
    let (_, created) = ts
        .post("/api/play-computer", json!({"board": "two_player"}))
        .await;
    let id = created["table"]["id"].as_str().unwrap().to_string();
    // Before hello.
    let mut raw = WsClient::connect(&ts.ws_url(&id)).await.unwrap();
    raw.send(&json!({"type": "act", "action": "a2-a3"}))
        .await
        .unwrap();
    assert_eq!(raw.recv().await.unwrap()["reason"], "send hello first");
    // Unknown table.
    let mut nowhere = WsClient::connect(&ts.ws_url("nosuchtable")).await.unwrap();
    nowhere.send(&json!({"type": "hello"})).await.unwrap();
    assert_eq!(nowhere.recv().await.unwrap()["reason"], "no such table");
    let mut c = join(&ts, &id, created["token"].as_str(), None).await;
    let sync = deploy_and_play(&mut c, 1).await;
    let bad: Vec<String> = vec![
        "".into(),
        "null".into(),
        "[1,2,3]".into(),
        "{\"type\": 5}".into(),
        "{\"type\": \"act\"}".into(),
        "{\"type\": \"act\", \"action\": \"z99-a1\"}".into(),
        "{\"type\": \"act\", \"action\": \"flip a1\"}".into(),
        "{\"type\": \"act\", \"action\": \"a1-a1-a1\"}".into(),
        "{\"type\": \"act\", \"action\": {\"$gt\": 1}}".into(),
        "{\"type\": \"take_seat\", \"seat\": 1e99}".into(),
        "{\"type\": \"take_seat\", \"seat\": 1}".into(),
        "{\"type\": \"add_bot\", \"seat\": 1, \"bot\": \"../../etc/passwd\"}".into(),
        "{\"type\": \"deploy\", \"layout\": \"FFFFF/FFFFF/FFFFF/FFFFF/FFFFF/FFFFF\"}".into(),
        "{\"type\": \"hello\"}".into(),
        "{\"type\": \"resign\"}".into(),
        "{\"type\": \"accept_draw\"}".into(),
        "{\"type\": \"decline_draw\"}".into(),
        "{\"type\": \"start\"}".into(),
        "{\"type\": \"ping\", \"t\": \"".to_string() + &"x".repeat(200) + "\"}",
        "{\"type\": \"act\", \"action\": \"".to_string() + &"\u{1F600}".repeat(100) + "\"}",
        "{\"type\": \"act\", \"action\": \"a2-a3\", \"id\": {\"nested\": [1,2]}}".into(),
        "{".repeat(10_000),
        "\u{0}\u{1}\u{2}".into(),
    ];
    for b in &bad {
        c.send_text(b).await.unwrap();
        let e = c.recv_type("error").await.unwrap();
        assert!(e["reason"].is_string());
    }
    // Oversized and binary frames: an error or the connection closed, never a crash.
    c.send_binary(vec![0xff; 100]).await.unwrap();
    assert_eq!(c.recv_type("error").await.unwrap()["type"], "error");
    // Nothing changed: no events were sent, and the server still plays.
    assert!(c.log.iter().all(|f| f["type"] != "events"));
    let a = sync["observation"]["legal_actions"][0].as_str().unwrap();
    c.send(&json!({"type": "act", "action": a})).await.unwrap();
    let ev = c.recv_type("events").await.unwrap();
    assert_eq!(ev["v"], 1);
    // A frame over 16 KiB gets the documented error frame, and the connection stays; one over
    // the WebSocket limit (64 KiB) gets it too, then the connection closes.
    let mut big = WsClient::connect(&ts.ws_url(&id)).await.unwrap();
    big.send_text(&"x".repeat(20_000)).await.unwrap();
    let e = big.recv().await.unwrap();
    assert_eq!(e["code"], "request.frame_too_large", "{e}");
    big.send(&json!({"type": "ping", "t": 1})).await.unwrap();
    assert_eq!(big.recv().await.unwrap()["reason"], "send hello first");
    let _ = big.send_text(&"x".repeat(100_000)).await;
    let e = big.recv().await.unwrap();
    assert_eq!(e["code"], "request.frame_too_large", "{e}");
    assert!(
        big.recv().await.is_err(),
        "a frame over the WebSocket limit closes the connection"
    );
    // HTTP garbage.
    let (st, _) = ts.post("/api/tables", json!({"board": "hexagonal"})).await;
    assert_eq!(st, 400);
    let (st, _) = ts
        .post(
            "/api/tables",
            json!({"board": "two_player", "mode": "flip", "options": {"nonsense": 1}}),
        )
        .await;
    assert_eq!(st, 400);
    let (st, _) = ts
        .post(
            "/api/play-computer",
            json!({"board": "two_player", "seat": 7}),
        )
        .await;
    assert_eq!(st, 400);
    let (st, _) = ts.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(st, 403, "no record before the game is over");
    let (st, _) = ts.get("/api/players/nobody-at-all").await;
    assert_eq!(st, 404);
    let (st, _) = ts.get("/api/info").await;
    assert_eq!(st, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flooding_is_rate_limited() {
    let clock = junqi_server::ManualClock::new(T0);
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(None, dir.path().to_path_buf(), &clock);
    cfg.settings.rate_per_sec = 5.0;
    cfg.settings.rate_burst = 10.0;
    let server = junqi_server::start(cfg).await.unwrap();
    let ts = TestServer {
        server,
        clock,
        dir: Some(dir),
    };
    let (_, created) = ts
        .post("/api/play-computer", json!({"board": "two_player"}))
        .await;
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let mut c = join(&ts, &id, created["token"].as_str(), None).await;
    for i in 0..60 {
        c.send(&json!({"type": "ping", "t": i})).await.unwrap();
    }
    let mut limited = 0;
    let mut pongs = 0;
    while limited + pongs < 60 {
        let f = c.recv().await.unwrap();
        match f["type"].as_str().unwrap() {
            "pong" => pongs += 1,
            "error" if f["code"] == "request.rate_limited" => limited += 1,
            _ => {}
        }
    }
    assert!(limited >= 40, "{limited} limited, {pongs} answered");
    assert!(pongs >= 5, "{pongs} answered");
}

/// Send `n` pings; the answers: (pongs, `request.rate_limited` errors).
async fn pings(c: &mut WsClient, n: usize) -> (usize, usize) {
    for i in 0..n {
        c.send(&json!({"type": "ping", "t": i})).await.unwrap();
    }
    let (mut pongs, mut limited) = (0, 0);
    while pongs + limited < n {
        let f = c.recv().await.unwrap();
        match f["type"].as_str().unwrap() {
            "pong" => pongs += 1,
            "error" if f["code"] == "request.rate_limited" => {
                assert!(f["args"]["retry_after"].as_u64().unwrap() >= 1, "{f}");
                limited += 1;
            }
            _ => {}
        }
    }
    (pongs, limited)
}

/// A WebSocket from loopback address `src` that said hello (with a session if given).
async fn hello_from(ts: &TestServer, src: &str, table: &str, session: Option<&str>) -> WsClient {
    let mut c = WsClient::connect_from(src.parse().unwrap(), &ts.ws_url(table))
        .await
        .unwrap();
    let mut hello = json!({"type": "hello"});
    if let Some(s) = session {
        hello["session"] = s.into();
    }
    c.send(&hello).await.unwrap();
    c.recv_type("welcome").await.unwrap();
    c
}

/// The frame budget belongs to the client address and to the account, not to a connection:
/// a second connection from one address finds what the first left, another address has its
/// own, and one account's connections from two addresses share the account's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_share_the_frame_budget_of_their_address_and_account() {
    // Ten frames, then one per 100 s: nothing refills during the test.
    let ts = start_with(|c| {
        c.settings.rate_per_sec = 0.01;
        c.settings.rate_burst = 10.0;
    })
    .await;
    let (st, created) = ts.post("/api/tables", json!({"board": "two_player"})).await;
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    // Two connections from 127.0.0.1: their hellos take 2 of the address's 10 frames, and the
    // first spends the other 8.
    let mut a = join(&ts, &id, created["token"].as_str(), None).await;
    let mut b = join(&ts, &id, None, None).await;
    assert_eq!(pings(&mut a, 12).await, (8, 4));
    assert_eq!(
        pings(&mut b, 1).await,
        (0, 1),
        "the second connection shares it"
    );
    // Another address has its own budget.
    let mut c = hello_from(&ts, "127.0.0.2", &id, None).await;
    assert_eq!(pings(&mut c, 3).await, (3, 0));
    // One account from two fresh addresses: the second finds the account's budget spent by
    // the first, though its address has 9 frames left.
    let guest = http_from(
        "127.0.0.3",
        &ts.addr(),
        "POST",
        "/api/guest",
        Some(&json!({})),
        None,
    )
    .await;
    let session = guest.body["session"].as_str().unwrap().to_string();
    let mut d = hello_from(&ts, "127.0.0.3", &id, Some(&session)).await;
    let mut e = hello_from(&ts, "127.0.0.4", &id, Some(&session)).await;
    // d: its address has 9 left after the hello (the hello counts before the account is known).
    assert_eq!(pings(&mut d, 12).await, (9, 3));
    assert_eq!(
        pings(&mut e, 3).await,
        (1, 2),
        "the account had one frame left"
    );
}

/// A connection that keeps flooding past its refusals is closed, as before the budget was
/// shared; the address's other connections stay open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_keeps_flooding_is_closed() {
    let ts = start_with(|c| {
        c.settings.rate_per_sec = 0.01;
        c.settings.rate_burst = 5.0;
    })
    .await;
    let (_, created) = ts.post("/api/tables", json!({"board": "two_player"})).await;
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let mut quiet = join(&ts, &id, created["token"].as_str(), None).await;
    let mut flood = join(&ts, &id, None, None).await;
    for i in 0..400 {
        if flood.send(&json!({"type": "ping", "t": i})).await.is_err() {
            break;
        }
    }
    let end = flood.recv_until(|_| false).await.unwrap_err();
    assert!(
        !end.contains("timed out"),
        "the flooding connection is closed: {end}"
    );
    // The quiet one is still there (refused a frame, but open).
    quiet.send(&json!({"type": "ping"})).await.unwrap();
    let f = quiet
        .recv_until(|f| f["type"] == "pong" || f["type"] == "error")
        .await
        .unwrap();
    assert_eq!(f["code"], "request.rate_limited", "{f}");
}

/// Every answer, page or API, carries the headers that keep a browser from sniffing types,
/// framing the site or running script from elsewhere; and the bearer scheme is read in any case.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_response_carries_the_security_headers() {
    let ts = start().await;
    for path in [
        "/",
        "/js/app.js",
        "/api/info",
        "/api/tables/nope",
        "/api/me",
    ] {
        let r = http_from("127.0.0.1", &ts.addr(), "GET", path, None, None).await;
        assert_eq!(
            r.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(r.header("referrer-policy"), Some("same-origin"), "{path}");
        let csp = r.header("content-security-policy").unwrap_or_default();
        assert!(
            csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{path}: {csp}"
        );
    }
    // `Authorization: bearer …` (lower case) is the same scheme.
    let guest = ts.post("/api/guest", json!({})).await.1;
    let session = guest["session"].as_str().unwrap();
    let mut s = tokio::net::TcpStream::connect(ts.addr()).await.unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    s.write_all(
        format!(
            "GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: bearer {session}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}
