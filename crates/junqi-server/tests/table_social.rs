//! The social side of a table over real WebSocket connections, with an injected clock: paced
//! computer replies, a game against the computer that pauses while its person is away, chat and
//! quick phrases, and 再来一局 (rematch).

mod common;
use common::*;
use junqi_server::client::WsClient;
use serde_json::{json, Value};
use std::time::Duration;

/// Receive for `ms` of real time and fail if a frame that `bad` matches comes.
async fn quiet_for(c: &mut WsClient, ms: u64, bad: impl Fn(&Value) -> bool) {
    let keep = c.timeout;
    c.timeout = Duration::from_millis(ms);
    while let Ok(f) = c.recv().await {
        assert!(!bad(&f), "unexpected frame {f}");
    }
    c.timeout = keep;
}

/// Send a frame and return the code of the error it gets.
async fn refused(c: &mut WsClient, frame: Value) -> Value {
    c.send(&frame).await.unwrap();
    c.recv_type("error").await.unwrap()["code"].clone()
}

/// A two-player game against the computer, deployed and playing; the person is seat 0 (moves
/// first). Returns (table id, client, seat token, the playing sync frame).
async fn against_computer(ts: &TestServer, body: Value) -> (String, WsClient, String, Value) {
    let (st, created) = ts.post("/api/play-computer", body).await;
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut c = join(ts, &id, Some(&token), None).await;
    let sync = deploy_and_play(&mut c, 4).await;
    (id, c, token, sync)
}

fn is_bot_move(f: &Value) -> bool {
    f["type"] == "events" && f["entry"].as_str().is_some_and(|e| e.starts_with("1 "))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computer_replies_are_paced_and_the_table_stays_responsive() {
    let ts = start_with(|c| c.settings.bot_delay_ms = 800).await;
    let (_id, mut c, _, sync) = against_computer(
        &ts,
        json!({"board": "two_player", "move_seconds": 30, "resign_after_seconds": 0}),
    )
    .await;
    c.send(&json!({"type": "act", "action": first_legal(&sync)}))
        .await
        .unwrap();
    let own = c.recv_type("events").await.unwrap();
    assert!(own["entry"].as_str().unwrap().starts_with("0 "), "{own}");
    // The bot has long finished thinking; its reply waits for the delay (at least 3/4 of it).
    quiet_for(&mut c, 1500, is_bot_move).await;
    ts.clock.advance(599);
    quiet_for(&mut c, 500, is_bot_move).await;
    // During the delay the table still answers at once: a draw offer (the bot declines).
    c.send(&json!({"type": "offer_draw", "id": "d"}))
        .await
        .unwrap();
    c.recv_type("draw_declined").await.unwrap();
    c.recv_until(|f| f["type"] == "ack" && f["id"] == "d")
        .await
        .unwrap();
    // At most 5/4 of the delay: the reply comes, and the person's clock starts only then.
    ts.clock.advance(401);
    c.recv_until(is_bot_move).await.unwrap();
    let obs = c.recv_type("observation").await.unwrap();
    assert_eq!(obs["clock"]["remaining_ms"], 30_000, "{obs}");
    assert_eq!(obs["clock"]["to_move"], 0);
    // A resignation during the next delay ends the game; the parked reply is dropped.
    let legal = obs["observation"]["legal_actions"][0].as_str().unwrap();
    c.send(&json!({"type": "act", "action": legal}))
        .await
        .unwrap();
    c.recv_type("events").await.unwrap();
    c.send(&json!({"type": "resign"})).await.unwrap();
    let over = c.recv_type("game_over").await.unwrap();
    assert_eq!(over["outcome"]["reason"], "resigned");
    ts.clock.advance(2_000);
    quiet_for(&mut c, 500, is_bot_move).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_delay_the_computer_answers_at_once() {
    // The test helpers default to no delay: the manual clock never moves here.
    let ts = start().await;
    let (_id, mut c, _, sync) = against_computer(&ts, json!({"board": "two_player"})).await;
    c.send(&json!({"type": "act", "action": first_legal(&sync)}))
        .await
        .unwrap();
    c.recv_until(is_bot_move).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn away_from_the_computer_the_game_pauses_for_the_long_window() {
    let ts = start().await;
    let (id, c, token, sync) =
        against_computer(&ts, json!({"board": "two_player", "move_seconds": 30})).await;
    assert!(c.log.iter().any(|f| f["type"] == "welcome"
        && f["away_limit_ms"] == 30 * 60 * 1000
        && f["chat"] == false));
    let mut watcher = join(&ts, &id, None, None).await;
    let mut c = c;
    c.send(&json!({"type": "act", "action": first_legal(&sync)}))
        .await
        .unwrap();
    c.recv_until(is_bot_move).await.unwrap();
    c.recv_type("observation").await.unwrap();
    // 10 s of the person's 30 go by, then they leave.
    ts.clock.advance(10_000);
    c.close().await;
    let p = watcher.recv_type("presence").await.unwrap();
    assert_eq!(
        p,
        json!({"type": "presence", "seat": 0, "connected": false, "return_ms": 1_800_000, "paused": true})
    );
    // Twenty minutes away: no timeout, no loss (the clock is stopped).
    ts.clock.advance(20 * 60 * 1000);
    quiet_for(&mut watcher, 500, |f| {
        f["type"] == "events" || f["type"] == "game_over"
    })
    .await;
    // Back: the game resumes with the 20 s that were left.
    let mut back = join(&ts, &id, Some(&token), None).await;
    let w = back.log[0].clone();
    assert_eq!(w["away_limit_ms"], 1_800_000);
    let table = back.recv_type("table").await.unwrap();
    assert_eq!(table["paused"], false);
    let sync = back.recv_type("sync").await.unwrap();
    assert_eq!(sync["clock"]["remaining_ms"], 20_000, "{sync}");
    watcher
        .recv_until(|f| f["type"] == "presence" && f["connected"] == true)
        .await
        .unwrap();
    // Away for longer than the window: the game is lost as abandoned.
    back.close().await;
    watcher
        .recv_until(|f| f["type"] == "presence" && f["paused"] == true)
        .await
        .unwrap();
    ts.clock.advance(30 * 60 * 1000 + 1);
    let over = watcher.recv_type("game_over").await.unwrap();
    assert_eq!(
        over["outcome"],
        json!({"result": "win", "winners": [1], "reason": "left"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn between_people_the_return_window_stays_60_seconds_and_nothing_pauses() {
    let ts = start().await;
    let (id, mut a, b, _, _) = two_people(&ts, 30).await;
    assert!(a
        .log
        .iter()
        .any(|f| f["type"] == "welcome" && f["away_limit_ms"] == 60_000 && f["chat"] == true));
    let mut watcher = join(&ts, &id, None, None).await;
    assert_eq!(watcher.log[0]["away_limit_ms"], Value::Null);
    b.close().await;
    let p = a.recv_type("presence").await.unwrap();
    assert_eq!(p["paused"], false);
    assert_eq!(p["return_ms"], 60_000);
    ts.clock.advance(60_001);
    let over = watcher.recv_type("game_over").await.unwrap();
    assert_eq!(over["outcome"]["reason"], "left");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_between_people_with_phrases_limits_and_history() {
    let ts = start().await;
    let (id, mut a, mut b, t0, _) = two_people(&ts, 0).await;
    let mut watcher = join(&ts, &id, None, None).await;
    a.send(&json!({"type": "chat", "text": "  你好\u{202e}，来吧\n", "id": 1}))
        .await
        .unwrap();
    let m = b.recv_type("chat").await.unwrap();
    assert_eq!(m["seat"], 0);
    assert_eq!(m["text"], "你好，来吧");
    assert_eq!(m["at"], T0);
    assert_eq!(m["player"]["guest"], true);
    assert!(m.get("phrase").is_none());
    assert_eq!(watcher.recv_type("chat").await.unwrap(), m);
    b.send(&json!({"type": "chat", "phrase": "good_move"}))
        .await
        .unwrap();
    let m = a
        .recv_until(|f| f["type"] == "chat" && f["seat"] == 1)
        .await
        .unwrap();
    assert_eq!(
        (m["seat"].clone(), m["phrase"].clone()),
        (json!(1), json!("good_move"))
    );
    assert_eq!(m["player"]["name"], "Bob");
    // Refusals, each changing nothing.
    assert_eq!(
        refused(&mut watcher, json!({"type": "chat", "text": "hi"})).await,
        "table.watching"
    );
    assert_eq!(
        refused(&mut a, json!({"type": "chat", "text": "军".repeat(201)})).await,
        "chat.too_long"
    );
    assert_eq!(
        refused(&mut a, json!({"type": "chat", "phrase": "insult"})).await,
        "chat.unknown_phrase"
    );
    assert_eq!(
        refused(&mut a, json!({"type": "chat", "text": " \u{200b} "})).await,
        "chat.empty"
    );
    assert_eq!(
        refused(
            &mut a,
            json!({"type": "chat", "text": "x", "phrase": "hello"})
        )
        .await,
        "request.bad"
    );
    assert_eq!(
        refused(&mut a, json!({"type": "chat"})).await,
        "request.bad"
    );
    // The rate: a burst of 5 (one used above), then one a second.
    for i in 0..4 {
        a.send(&json!({"type": "chat", "text": format!("m{i}")}))
            .await
            .unwrap();
        b.recv_until(|f| f["type"] == "chat" && f["text"] == format!("m{i}"))
            .await
            .unwrap();
    }
    let e = {
        a.send(&json!({"type": "chat", "text": "too fast"}))
            .await
            .unwrap();
        a.recv_type("error").await.unwrap()
    };
    assert_eq!(e["code"], "chat.rate_limited");
    assert_eq!(e["args"]["retry_after"], 1);
    ts.clock.advance(1_000);
    a.send(&json!({"type": "chat", "text": "now"}))
        .await
        .unwrap();
    b.recv_until(|f| f["type"] == "chat" && f["text"] == "now")
        .await
        .unwrap();
    // A reconnecting client gets the history (not the refused ones).
    let mut a2 = join(&ts, &id, Some(&t0), None).await;
    let h = a2.recv_type("chat_history").await.unwrap();
    let texts: Vec<Value> = h["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].clone())
        .collect();
    assert_eq!(
        texts,
        vec![
            json!("你好，来吧"),
            Value::Null,
            json!("m0"),
            json!("m1"),
            json!("m2"),
            json!("m3"),
            json!("now")
        ]
    );
    // Chat is not in the record.
    ts.clock.advance(90_000);
    a.send(&json!({"type": "resign"})).await.unwrap();
    let over = a.recv_type("game_over").await.unwrap();
    assert!(!over["record"].as_str().unwrap().contains("m0"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_off_against_the_computer() {
    let ts = start().await;
    let (_id, mut c, _, _) = against_computer(&ts, json!({"board": "two_player"})).await;
    let t = c.log.iter().find(|f| f["type"] == "table").unwrap();
    assert_eq!(t["chat"], false);
    c.send(&json!({"type": "chat", "phrase": "hello"}))
        .await
        .unwrap();
    assert_eq!(c.recv_type("error").await.unwrap()["code"], "chat.off");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_between_people_swaps_colours_once() {
    let ts = start().await;
    let (id, mut a, mut b, _, _) = two_people(&ts, 0).await;
    let mut watcher = join(&ts, &id, None, None).await;
    a.send(&json!({"type": "rematch"})).await.unwrap();
    assert_eq!(
        a.recv_type("error").await.unwrap()["code"],
        "rematch.not_over"
    );
    ts.clock.advance(90_000);
    a.send(&json!({"type": "resign"})).await.unwrap();
    b.recv_type("game_over").await.unwrap();
    watcher.send(&json!({"type": "rematch"})).await.unwrap();
    assert_eq!(
        watcher.recv_type("error").await.unwrap()["code"],
        "table.watching"
    );
    a.send(&json!({"type": "rematch"})).await.unwrap();
    let r = b.recv_type("rematch").await.unwrap();
    assert_eq!(r["asked"], json!([0]));
    let t = b.recv_type("table").await.unwrap();
    assert_eq!(t["rematch"], json!({"asked": [0], "table": null}));
    b.send(&json!({"type": "rematch"})).await.unwrap();
    let ra = a.recv_type("rematch_ready").await.unwrap();
    let rb = b.recv_type("rematch_ready").await.unwrap();
    let rw = watcher.recv_type("rematch_ready").await.unwrap();
    assert_eq!(ra["table"], rb["table"]);
    assert_eq!(rw, json!({"type": "rematch_ready", "table": ra["table"]}));
    assert_ne!(ra["table"], id.as_str());
    assert_eq!(
        (ra["seat"].clone(), rb["seat"].clone()),
        (json!(1), json!(0))
    );
    // Once per table.
    a.send(&json!({"type": "rematch"})).await.unwrap();
    assert_eq!(a.recv_type("error").await.unwrap()["code"], "rematch.done");
    // The new table: same settings, colours swapped, deployment under way.
    let new_id = ra["table"].as_str().unwrap();
    let mut a2 = join(&ts, new_id, ra["token"].as_str(), None).await;
    assert_eq!(a2.log[0]["seat"], 1);
    let t = a2.recv_type("table").await.unwrap();
    assert_eq!(t["table"]["status"], "deploying");
    assert_eq!(t["table"]["seats"][0]["name"], "Bob");
    assert_eq!(t["table"]["board"], "two_player");
    let mut b2 = join(&ts, new_id, rb["token"].as_str(), None).await;
    assert_eq!(b2.log[0]["seat"], 0);
    deploy(&mut a2, 7).await;
    let s = deploy_and_play(&mut b2, 8).await;
    // Seat 0 moves first: Bob this time.
    assert_eq!(s["clock"]["to_move"], 0);
    // Someone reconnecting to the old table is told where the rematch is.
    let mut w2 = join(&ts, &id, None, None).await;
    assert_eq!(
        w2.recv_type("rematch_ready").await.unwrap()["table"],
        new_id
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_rematch_once_the_other_player_left() {
    let ts = start().await;
    let (_id, mut a, b, _, _) = two_people(&ts, 0).await;
    ts.clock.advance(90_000);
    a.send(&json!({"type": "resign"})).await.unwrap();
    a.recv_type("game_over").await.unwrap();
    b.close().await;
    // Let the close reach the table.
    tokio::time::sleep(Duration::from_millis(300)).await;
    a.send(&json!({"type": "rematch"})).await.unwrap();
    let e = a.recv_type("error").await.unwrap();
    assert_eq!(e["code"], "rematch.left");
    assert_eq!(e["args"]["seat"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_the_computer_starts_at_once() {
    let ts = start().await;
    let (_id, mut c, _, _) = against_computer(
        &ts,
        json!({"board": "two_player", "resign_after_seconds": 0, "bot": "random"}),
    )
    .await;
    c.send(&json!({"type": "resign"})).await.unwrap();
    c.recv_type("game_over").await.unwrap();
    c.send(&json!({"type": "rematch"})).await.unwrap();
    let r = c.recv_type("rematch_ready").await.unwrap();
    assert_eq!(r["seat"], 1);
    let mut c2 = join(&ts, r["table"].as_str().unwrap(), r["token"].as_str(), None).await;
    let t = c2.recv_type("table").await.unwrap();
    assert_eq!(t["table"]["status"], "deploying");
    assert_eq!(t["table"]["seats"][0]["name"], "bot:random");
    assert_eq!(t["table"]["private"], true);
    assert_eq!(t["chat"], false);
    c2.send(&json!({"type": "deploy", "layout": layout(3)}))
        .await
        .unwrap();
    // The bot (seat 0) moves first now, at once (no delay in tests).
    c2.recv_until(|f| {
        f["type"] == "events" && f["entry"].as_str().is_some_and(|e| e.starts_with("0 "))
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_counts_against_the_open_table_limit() {
    let ts = start_with(|c| c.settings.max_open_tables_per_creator = 1).await;
    let (id, mut a, mut b, _, _) = two_people(&ts, 0).await;
    ts.clock.advance(90_000);
    a.send(&json!({"type": "resign"})).await.unwrap();
    a.recv_type("game_over").await.unwrap();
    // The creator (a guest: by address) opens another table: the limit is reached.
    let (st, _) = ts.post("/api/tables", json!({"board": "two_player"})).await;
    assert_eq!(st, 201);
    let (st, _) = ts.post("/api/tables", json!({"board": "two_player"})).await;
    assert_eq!(st, 201, "guests of an address share twice the limit");
    let _ = id;
    a.send(&json!({"type": "rematch"})).await.unwrap();
    b.send(&json!({"type": "rematch"})).await.unwrap();
    let e = b.recv_type("error").await.unwrap();
    assert_eq!(e["code"], "setup.too_many_tables", "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_game_against_the_computer_stays_paused_across_a_restart() {
    let ts = start().await;
    let (id, mut c, token, sync) =
        against_computer(&ts, json!({"board": "two_player", "move_seconds": 30})).await;
    c.send(&json!({"type": "act", "action": first_legal(&sync)}))
        .await
        .unwrap();
    c.recv_until(is_bot_move).await.unwrap();
    c.recv_type("observation").await.unwrap();
    ts.clock.advance(10_000);
    // kill -9 while the person is away; a new server opens the same directory.
    drop(c);
    let ts = restart(ts).await;
    let mut watcher = join(&ts, &id, None, None).await;
    let table = watcher.recv_type("table").await.unwrap();
    assert_eq!(table["paused"], true, "{table}");
    // Paused: twenty minutes pass without a timeout or a loss.
    ts.clock.advance(20 * 60 * 1000);
    quiet_for(&mut watcher, 500, |f| {
        f["type"] == "events" || f["type"] == "game_over"
    })
    .await;
    let mut back = join(&ts, &id, Some(&token), None).await;
    let sync = back.recv_type("sync").await.unwrap();
    assert_eq!(sync["clock"]["remaining_ms"], 20_000, "{sync}");
    assert_eq!(sync["status"], "playing");
}
