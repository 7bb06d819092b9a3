//! The table rules of RULES §10 over real WebSocket connections, with an injected clock:
//! timeouts and skips, the resignation window, draw offers, leaving and returning, reconnects.

mod common;
use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeouts_skip_and_five_skips_eliminate() {
    let ts = start().await;
    let (_id, mut a, mut b, _, _) = two_people(&ts, 30).await;
    // Seat 0 (the host) moves first; let its clock run out five times, seat 1 moving between.
    for round in 0..5 {
        ts.clock.advance(30_001);
        let ev = a.recv_type("events").await.unwrap();
        assert_eq!(ev["entry"], "timeout 0", "{ev}");
        if round < 4 {
            assert_eq!(
                ev["events"][0],
                json!({"kind": "skipped", "seat": 0, "reason": "timeout"})
            );
            let obs = b
                .recv_until(|f| f["type"] == "observation" && f["v"] == ev["v"])
                .await
                .unwrap();
            assert_eq!(obs["observation"]["skips"][0], round + 1);
            b.send(&json!({"type": "act", "action": first_legal(&obs)}))
                .await
                .unwrap();
            a.recv_until(|f| {
                f["type"] == "events" && f["entry"].as_str().unwrap().starts_with("1 ")
            })
            .await
            .unwrap();
        } else {
            assert!(
                ev["events"]
                    .as_array()
                    .unwrap()
                    .contains(&json!({"kind": "eliminated", "seat": 0, "reason": "skips"})),
                "{ev}"
            );
            let over = a.recv_type("game_over").await.unwrap();
            assert_eq!(
                over["outcome"],
                json!({"result": "win", "winners": [1], "reason": "skips"})
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resignation_is_refused_in_the_first_90_seconds() {
    let ts = start().await;
    let (_id, mut a, _b, _, _) = two_people(&ts, 0).await;
    a.send(&json!({"type": "resign", "id": 1})).await.unwrap();
    let e = a.recv_type("error").await.unwrap();
    assert!(e["reason"].as_str().unwrap().contains("90"), "{e}");
    ts.clock.advance(90_000);
    a.send(&json!({"type": "resign", "id": 2})).await.unwrap();
    let over = a.recv_type("game_over").await.unwrap();
    assert_eq!(
        over["outcome"],
        json!({"result": "win", "winners": [1], "reason": "resigned"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_resignation_window_is_a_table_setting() {
    let ts = start().await;
    let (st, created) = ts
        .post(
            "/api/play-computer",
            json!({"board": "two_player", "resign_after_seconds": 0}),
        )
        .await;
    assert_eq!(st, 201);
    assert_eq!(created["table"]["resign_after_seconds"], 0);
    let id = created["table"]["id"].as_str().unwrap();
    let mut c = join(&ts, id, created["token"].as_str(), None).await;
    c.send(&json!({"type": "deploy", "layout": layout(4)}))
        .await
        .unwrap();
    let t = c
        .recv_until(|f| f["type"] == "table" && f["table"]["status"] == "playing")
        .await
        .unwrap();
    assert_eq!(t["clock"]["resign_after_seconds"], 0);
    assert_eq!(t["clock"]["started_ms"], T0);
    c.send(&json!({"type": "resign"})).await.unwrap();
    let over = c.recv_type("game_over").await.unwrap();
    assert_eq!(over["outcome"]["reason"], "resigned");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offers_need_every_remaining_seat_and_a_move_cancels() {
    let ts = start().await;
    let (_id, mut a, mut b, _, _) = two_people(&ts, 0).await;
    // Declined.
    a.send(&json!({"type": "offer_draw"})).await.unwrap();
    b.recv_type("draw_offer").await.unwrap();
    b.send(&json!({"type": "decline_draw"})).await.unwrap();
    a.recv_type("draw_declined").await.unwrap();
    // Cancelled by a move.
    b.send(&json!({"type": "offer_draw"})).await.unwrap();
    let obs = a.recv_until(|f| f["type"] == "draw_offer").await.unwrap();
    assert_eq!(obs["by"], 1);
    let turn = last_frame(&a, "sync");
    a.send(&json!({"type": "act", "action": first_legal(&turn)}))
        .await
        .unwrap();
    a.recv_until(|f| f["type"] == "table" && f["draw_offer"].is_null())
        .await
        .unwrap();
    a.send(&json!({"type": "accept_draw", "id": 5}))
        .await
        .unwrap();
    let e = a.recv_type("error").await.unwrap();
    assert_eq!(e["reason"], "there is no draw offer");
    // Accepted.
    a.send(&json!({"type": "offer_draw"})).await.unwrap();
    b.recv_until(|f| f["type"] == "draw_offer" && f["by"] == 0)
        .await
        .unwrap();
    b.send(&json!({"type": "accept_draw"})).await.unwrap();
    let over = a.recv_type("game_over").await.unwrap();
    assert_eq!(
        over["outcome"],
        json!({"result": "draw", "reason": "agreement"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_has_a_return_window_and_reconnect_gets_what_was_missed() {
    let ts = start().await;
    let (id, mut a, b, _, t1) = two_people(&ts, 0).await;
    // Seat 1 disconnects; seat 0 moves twice in its absence... (one move: then it is seat 1's turn).
    b.close().await;
    let p = a.recv_type("presence").await.unwrap();
    assert_eq!(
        p,
        json!({"type": "presence", "seat": 1, "connected": false, "return_ms": 60000, "paused": false})
    );
    let turn = last_frame(&a, "sync");
    a.send(&json!({"type": "act", "action": first_legal(&turn)}))
        .await
        .unwrap();
    let ev = a.recv_type("events").await.unwrap();
    assert_eq!(ev["v"], 1);
    // 59 s later seat 1 returns from "another device" with its token and last_v 0: it gets
    // exactly the missed events frame, then its observation.
    ts.clock.advance(59_000);
    let mut b2 = join(&ts, &id, Some(&t1), Some(0)).await;
    b2.recv_type("table").await.unwrap();
    let missed = b2.recv().await.unwrap();
    assert_eq!(missed, ev);
    let obs = b2.recv().await.unwrap();
    assert_eq!(obs["type"], "observation");
    assert_eq!(obs["v"], 1);
    assert_eq!(obs["observation"]["observer"], json!({"seat": 1}));
    assert!(!obs["observation"]["legal_actions"]
        .as_array()
        .unwrap()
        .is_empty());
    a.recv_until(|f| f["type"] == "presence" && f["connected"] == true)
        .await
        .unwrap();
    // A second tab of the same seat gets a fresh full view.
    let mut b3 = join(&ts, &id, Some(&t1), None).await;
    let sync = b3.recv_type("sync").await.unwrap();
    assert_eq!(sync["v"], 1);
    // Now both of seat 1's connections go; after 60 s seat 1 has left for good and loses.
    b2.close().await;
    b3.close().await;
    a.recv_type("presence").await.unwrap();
    ts.clock.advance(60_001);
    let over = a.recv_type("game_over").await.unwrap();
    assert_eq!(
        over["outcome"],
        json!({"result": "win", "winners": [0], "reason": "left"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_acts_only_for_its_own_seat() {
    let ts = start().await;
    let (id, mut a, mut b, _, _) = two_people(&ts, 0).await;
    let turn = last_frame(&a, "sync");
    let action = first_legal(&turn);
    // Not seat 1's turn.
    b.send(&json!({"type": "act", "action": action}))
        .await
        .unwrap();
    let e = b.recv_type("error").await.unwrap();
    assert!(e["reason"].as_str().unwrap().contains("turn"), "{e}");
    // A spectator has no seat.
    let mut s = join(&ts, &id, None, None).await;
    let sync = s.recv_type("sync").await.unwrap();
    assert_eq!(sync["observation"]["observer"], "public");
    assert!(sync["observation"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["role"].is_null()));
    s.send(&json!({"type": "act", "action": action}))
        .await
        .unwrap();
    let e = s.recv_type("error").await.unwrap();
    assert!(e["reason"].as_str().unwrap().contains("watching"), "{e}");
    // An illegal move by the right seat: the referee's reason, nothing changes.
    a.send(&json!({"type": "act", "action": "a1-e12"}))
        .await
        .unwrap();
    a.recv_type("error").await.unwrap();
    a.send(&json!({"type": "act", "action": action}))
        .await
        .unwrap();
    let ev = a.recv_type("events").await.unwrap();
    assert_eq!(ev["v"], 1);
}
