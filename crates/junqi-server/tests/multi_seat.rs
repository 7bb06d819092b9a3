//! Three- and six-player tables over real WebSocket connections (RULES §2.4, §2.5, §7.2, §10):
//! whole games with people and bots, the option `teams`, leaving, reconnecting, records.

mod common;
use common::*;
use junqi_core::{BoardKind, Record, Seat, SeatSet};
use junqi_server::client::WsClient;
use serde_json::{json, Value};

/// The seats of an outcome's `winners`.
fn winners(outcome: &Value) -> SeatSet {
    let mut s = SeatSet::EMPTY;
    for w in outcome["winners"].as_array().into_iter().flatten() {
        s.insert(w.as_u64().unwrap() as Seat);
    }
    s
}

/// A finished game's outcome is one the teams allow: a draw, or a win of exactly one whole team.
fn assert_team_outcome(record: &Record, outcome: &Value) {
    let teams = record.rules.teams();
    match outcome["result"].as_str() {
        Some("draw") => {}
        Some("win") => {
            let w = winners(outcome);
            let first = w.iter().next().expect("a winner");
            assert_eq!(w, teams.mates(first), "the whole team wins: {outcome}");
        }
        other => panic!("unexpected result {other:?}: {outcome}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_player_against_two_bots_to_the_end() {
    let ts = start().await;
    let (st, created) = ts
        .post(
            "/api/play-computer",
            json!({"board": "three_player", "seat": 1, "bot": "random"}),
        )
        .await;
    assert_eq!(st, 201, "{created}");
    assert_eq!(created["table"]["seats"].as_array().unwrap().len(), 3);
    assert_eq!(created["table"]["teams"], json!([[0], [1], [2]]));
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let mut c = join(&ts, &id, created["token"].as_str(), None).await;
    let sync = c.recv_type("sync").await.unwrap();
    assert_eq!(sync["deploy"]["board"], "three_player");
    deploy(&mut c, 3).await;
    let over = play_random(&mut c, 13).await;
    let record = check_finished(&ts, &id, &over).await;
    assert_eq!(record.rules.board, BoardKind::ThreePlayer);
    assert_team_outcome(&record, &over["outcome"]);
    // The host (seat 1) moved first.
    assert!(record.to_text().contains("first 1"), "{}", record.to_text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_people_play_three_player_to_the_end() {
    let ts = start().await;
    let (id, people) = seated_table(
        &ts,
        json!({"board": "three_player", "move_seconds": 0}),
        &[0, 1, 2],
        "random",
        21,
    )
    .await;
    let done = play_all(people, 21).await;
    let over = game_over_in(&done[0].c);
    let record = check_finished(&ts, &id, &over).await;
    assert_team_outcome(&record, &over["outcome"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_player_against_five_bots_to_the_end() {
    let ts = start().await;
    // The server's default bot, at every other seat.
    let (st, created) = ts
        .post(
            "/api/play-computer",
            json!({"board": "six_player", "seat": 4}),
        )
        .await;
    assert_eq!(st, 201, "{created}");
    assert_eq!(created["table"]["seats"].as_array().unwrap().len(), 6);
    assert_eq!(created["table"]["teams"], json!([[0, 2, 4], [1, 3, 5]]));
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let mut c = join(&ts, &id, created["token"].as_str(), None).await;
    deploy(&mut c, 5).await;
    let over = play_random(&mut c, 15).await;
    let record = check_finished(&ts, &id, &over).await;
    assert_eq!(record.rules.board, BoardKind::SixPlayer);
    assert_team_outcome(&record, &over["outcome"]);
}

/// Check a seat's views of a game in progress: its own pieces known, a teammate's known exactly
/// in half-open play, every other piece's identity unknown.
fn assert_sees_only_what_it_may(log: &[Value], seat: Seat, mates: &[Seat], half_open: bool) {
    let mut views = 0;
    for f in log {
        if !(f["type"] == "observation" || f["type"] == "sync") || f["observation"].is_null() {
            continue;
        }
        let obs = &f["observation"];
        if !obs["outcome"].is_null() {
            continue; // the referee's view once over
        }
        assert_eq!(obs["observer"], json!({"seat": seat}));
        views += 1;
        for p in obs["pieces"].as_array().unwrap() {
            let owner = p["seat"].as_u64().unwrap() as Seat;
            let known = owner == seat || (half_open && mates.contains(&owner));
            if known {
                assert!(p["role"].is_string(), "seat {seat} should see {p}");
            } else {
                // Only a flag may be known (revealed when its marshal fell, RULES §5).
                assert!(
                    p["role"].is_null() || p["role"] == "flag",
                    "seat {seat} sees {p}"
                );
            }
        }
    }
    assert!(views > 0, "seat {seat} had views");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_player_people_in_several_seats_with_teams_to_the_end() {
    let ts = start().await;
    // Teams alternate (the default): {0, 2, 4} against {1, 3, 5}; people at 0, 1 and 2.
    let (id, people) = seated_table(
        &ts,
        json!({"board": "six_player", "move_seconds": 0}),
        &[0, 1, 2],
        "random",
        31,
    )
    .await;
    let done = play_all(people, 31).await;
    let over = game_over_in(&done[0].c);
    let record = check_finished(&ts, &id, &over).await;
    assert_team_outcome(&record, &over["outcome"]);
    if over["outcome"]["result"] == "win" {
        let w = winners(&over["outcome"]);
        assert!(w == SeatSet(0b010101) || w == SeatSet(0b101010), "{over}");
    }
    // Dark play: teammates do not see each other's pieces.
    assert_sees_only_what_it_may(&done[0].c.log, 0, &[2, 4], false);
    assert_sees_only_what_it_may(&done[2].c.log, 2, &[0, 4], false);
    assert_sees_only_what_it_may(&done[1].c.log, 1, &[3, 5], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_player_opposite_teams_half_open_to_the_end() {
    let ts = start().await;
    // Teams opposite: {0, 3} {1, 4} {2, 5}, three teams; a team of two people at 0 and 3, who
    // see each other's pieces in half-open play.
    let (id, people) = seated_table(
        &ts,
        json!({"board": "six_player", "mode": "half_open", "options": {"teams": "opposite"},
               "move_seconds": 0}),
        &[0, 3],
        "random",
        41,
    )
    .await;
    let (_, summary) = ts.get(&format!("/api/tables/{id}")).await;
    assert_eq!(summary["teams"], json!([[0, 3], [1, 4], [2, 5]]));
    assert_eq!(summary["options"]["teams"], "opposite");
    let done = play_all(people, 41).await;
    let over = game_over_in(&done[0].c);
    let record = check_finished(&ts, &id, &over).await;
    assert_eq!(record.rules.teams().count(), 3);
    assert_team_outcome(&record, &over["outcome"]);
    assert_sees_only_what_it_may(&done[0].c.log, 0, &[3], true);
    assert_sees_only_what_it_may(&done[1].c.log, 3, &[0], true);
}

/// The events frames a client has received whose entry is `entry`.
async fn until_entry(c: &mut WsClient, entry: &str) -> Value {
    c.recv_until(|f| f["type"] == "events" && f["entry"] == entry)
        .await
        .unwrap()
}

/// The view of the latest entry this client has heard of (waiting for it if it has not come
/// yet): an older view's legal actions are stale.
async fn current_view(c: &mut WsClient) -> Value {
    let view = |f: &Value| {
        (f["type"] == "observation" || f["type"] == "sync") && !f["observation"].is_null()
    };
    loop {
        let v = c
            .log
            .iter()
            .filter(|f| f["type"] == "events" || view(f))
            .filter_map(|f| f["v"].as_u64())
            .max();
        if let Some(v) = v {
            if let Some(f) = c.log.iter().rev().find(|f| view(f) && f["v"] == v) {
                return f.clone();
            }
        }
        c.recv().await.unwrap();
    }
}

/// Wait until it is this person's turn and play its first legal action; returns the entry text.
async fn move_once(p: &mut Seated) -> String {
    let legal = {
        let now = legal_of(&current_view(&mut p.c).await);
        if now.is_empty() {
            wait_turn(&mut p.c).await
        } else {
            now
        }
    };
    assert!(!legal.is_empty(), "seat {} has a move", p.seat);
    p.c.send(&json!({"type": "act", "action": legal[0]}))
        .await
        .unwrap();
    let entry = format!("{} {}", p.seat, legal[0]);
    until_entry(&mut p.c, &entry).await;
    current_view(&mut p.c).await;
    entry
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_three_player_eliminates_the_leaver_and_the_game_goes_on() {
    let ts = start().await;
    let (_id, mut people) = seated_table(
        &ts,
        json!({"board": "three_player", "move_seconds": 0}),
        &[0, 1, 2],
        "random",
        51,
    )
    .await;
    // Seat 1 leaves for good (not its turn): eliminated, reason left; the game goes on.
    people[1].c.send(&json!({"type": "leave"})).await.unwrap();
    let ev = until_entry(&mut people[0].c, "leave 1").await;
    assert!(
        ev["events"]
            .as_array()
            .unwrap()
            .contains(&json!({"kind": "eliminated", "seat": 1, "reason": "left"})),
        "{ev}"
    );
    assert!(ev["outcome"].is_null(), "{ev}");
    assert_eq!(ev["to_move"], 0);
    // Leaving again is refused: the seat is out.
    people[1]
        .c
        .send(&json!({"type": "leave", "id": 9}))
        .await
        .unwrap();
    let e = people[1]
        .c
        .recv_until(|f| f["type"] == "error")
        .await
        .unwrap();
    assert_eq!(e["code"], "table.out_of_game", "{e}");
    // Seat 0 moves; the turn passes over seat 1 to seat 2.
    move_once(&mut people[0]).await;
    let obs = people[2]
        .c
        .recv_until(|f| f["type"] == "observation" && f["observation"]["to_move"] == 2)
        .await
        .unwrap();
    assert!(!legal_of(&obs).is_empty());
    assert_eq!(obs["observation"]["eliminated"], json!([1]));
    // Seat 2 disconnects and does not come back within 60 s: eliminated too, seat 0 wins.
    let p2 = people.remove(2);
    p2.c.close().await;
    people[0].c.recv_type("presence").await.unwrap();
    ts.clock.advance(60_001);
    let ev = until_entry(&mut people[0].c, "leave 2").await;
    assert_eq!(
        ev["outcome"],
        json!({"result": "win", "winners": [0], "reason": "left"})
    );
    people[0].c.recv_type("game_over").await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_six_player_eliminates_the_leaver_and_the_game_goes_on() {
    let ts = start().await;
    // {0, 2, 4} against {1, 3, 5}; people at 0 and 3, bots elsewhere.
    let (_id, mut people) = seated_table(
        &ts,
        json!({"board": "six_player", "move_seconds": 0}),
        &[0, 3],
        "random",
        61,
    )
    .await;
    let p3 = people.remove(1);
    p3.c.close().await;
    let p = people[0].c.recv_type("presence").await.unwrap();
    assert_eq!(p["seat"], 3);
    assert_eq!(p["return_ms"], 60_000, "between people: {p}");
    ts.clock.advance(60_001);
    let ev = until_entry(&mut people[0].c, "leave 3").await;
    assert!(
        ev["events"]
            .as_array()
            .unwrap()
            .contains(&json!({"kind": "eliminated", "seat": 3, "reason": "left"})),
        "{ev}"
    );
    assert!(ev["outcome"].is_null(), "{ev}");
    // The game goes on: seat 0 moves, the bots answer, and seat 0 moves again.
    move_once(&mut people[0]).await;
    move_once(&mut people[0]).await;
    let view = current_view(&mut people[0].c).await;
    assert!(view["observation"]["eliminated"]
        .as_array()
        .unwrap()
        .contains(&json!(3)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_table_option_a_bot_takes_a_leavers_seat() {
    let ts = start().await;
    // Three-player: seat 2 leaves; a bot sits down there and plays its turns.
    let (id, mut people) = seated_table(
        &ts,
        json!({"board": "three_player", "move_seconds": 0, "leaver_replaced_by_bot": true}),
        &[0, 1, 2],
        "random",
        71,
    )
    .await;
    let old_token = people[2].token.clone();
    people[2].c.send(&json!({"type": "leave"})).await.unwrap();
    let t = people[0]
        .c
        .recv_until(|f| f["type"] == "table" && f["table"]["seats"][2]["kind"] == "bot")
        .await
        .unwrap();
    assert_eq!(t["table"]["status"], "playing");
    // The leaver's connection now watches.
    let sync = people[2].c.recv_type("sync").await.unwrap();
    assert_eq!(sync["observation"]["observer"], "public");
    move_once(&mut people[0]).await;
    move_once(&mut people[1]).await;
    // Seat 2's turn: the bot plays it (no leave entry, nobody eliminated).
    let ev = people[0]
        .c
        .recv_until(|f| f["type"] == "events" && f["entry"].as_str().unwrap().starts_with("2 "))
        .await
        .unwrap();
    assert!(ev["outcome"].is_null());
    assert!(!people[0].c.log.iter().any(|f| f["entry"] == "leave 2"));
    // The old seat token no longer claims the seat.
    let mut back = WsClient::connect(&ts.ws_url(&id)).await.unwrap();
    back.send(&json!({"type": "hello", "token": old_token}))
        .await
        .unwrap();
    let e = back.recv_type("error").await.unwrap();
    assert_eq!(e["code"], "table.unknown_seat_token");

    // Six-player with teams: seat 1 does not come back within 60 s; a bot takes the seat.
    let (_id, mut people) = seated_table(
        &ts,
        json!({"board": "six_player", "move_seconds": 0, "leaver_replaced_by_bot": true}),
        &[0, 1],
        "random",
        72,
    )
    .await;
    let p1 = people.remove(1);
    p1.c.close().await;
    people[0].c.recv_type("presence").await.unwrap();
    ts.clock.advance(60_001);
    people[0]
        .c
        .recv_until(|f| f["type"] == "table" && f["table"]["seats"][1]["kind"] == "bot")
        .await
        .unwrap();
    move_once(&mut people[0]).await;
    let ev = people[0]
        .c
        .recv_until(|f| f["type"] == "events" && f["entry"].as_str().unwrap().starts_with("1 "))
        .await
        .unwrap();
    assert!(ev["outcome"].is_null());
    assert!(!people[0].c.log.iter().any(|f| f["entry"] == "leave 1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_player_leaving_aborts_with_a_partner_in_and_eliminates_without_teams() {
    let ts = start().await;
    // Teams (the default): seat 1 leaves while its partner 3 is in: aborted, nobody wins.
    let (_id, mut people) = seated_table(
        &ts,
        json!({"board": "four_player", "move_seconds": 0}),
        &[0, 1],
        "random",
        81,
    )
    .await;
    people[1].c.send(&json!({"type": "leave"})).await.unwrap();
    let over = people[0].c.recv_type("game_over").await.unwrap();
    assert_eq!(over["outcome"], json!({"result": "aborted"}));
    // Teams none: every seat for itself, the leaver is eliminated and the game goes on.
    let (_id, mut people) = seated_table(
        &ts,
        json!({"board": "four_player", "move_seconds": 0, "options": {"teams": "none"}}),
        &[0, 1],
        "random",
        82,
    )
    .await;
    people[1].c.send(&json!({"type": "leave"})).await.unwrap();
    let ev = until_entry(&mut people[0].c, "leave 1").await;
    assert!(ev["outcome"].is_null(), "{ev}");
    move_once(&mut people[0]).await;
    // With the table option, a partner still in: a bot instead of the abort.
    let (_id, mut people) = seated_table(
        &ts,
        json!({"board": "four_player", "move_seconds": 0, "leaver_replaced_by_bot": true}),
        &[0, 1],
        "random",
        83,
    )
    .await;
    people[1].c.send(&json!({"type": "leave"})).await.unwrap();
    people[0]
        .c
        .recv_until(|f| f["type"] == "table" && f["table"]["seats"][1]["kind"] == "bot")
        .await
        .unwrap();
    move_once(&mut people[0]).await;
    people[0]
        .c
        .recv_until(|f| f["type"] == "events" && f["entry"].as_str().unwrap().starts_with("1 "))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_mid_game_on_six_player_gets_what_was_missed() {
    let ts = start().await;
    let (id, mut people) = seated_table(
        &ts,
        json!({"board": "six_player", "move_seconds": 0}),
        &[0, 3],
        "random",
        91,
    )
    .await;
    let p3 = people.remove(1);
    let token = p3.token.clone();
    p3.c.close().await;
    people[0].c.recv_type("presence").await.unwrap();
    // Seat 0 moves, bots 1 and 2 answer: then it is seat 3's turn, and the game waits for it.
    move_once(&mut people[0]).await;
    let mut missed = Vec::new();
    for s in 1..=2 {
        let ev = people[0]
            .c
            .recv_until(|f| {
                f["type"] == "events" && f["entry"].as_str().unwrap().starts_with(&format!("{s} "))
            })
            .await
            .unwrap();
        missed.push(ev);
    }
    let first = people[0]
        .c
        .log
        .iter()
        .find(|f| f["type"] == "events")
        .cloned()
        .unwrap();
    missed.insert(0, first);
    // 30 s later seat 3 is back with its token and last_v 0: exactly the missed events frames,
    // then its own observation, with its legal actions.
    ts.clock.advance(30_000);
    let mut back = join(&ts, &id, Some(&token), Some(0)).await;
    back.recv_type("table").await.unwrap();
    for want in &missed {
        let got = back.recv().await.unwrap();
        assert_eq!(&got, want);
    }
    let obs = back.recv().await.unwrap();
    assert_eq!(obs["type"], "observation");
    assert_eq!(obs["v"], 3);
    assert_eq!(obs["observation"]["observer"], json!({"seat": 3}));
    assert_eq!(obs["observation"]["to_move"], 3);
    assert!(!legal_of(&obs).is_empty());
    people[0]
        .c
        .recv_until(|f| f["type"] == "presence" && f["connected"] == true && f["seat"] == 3)
        .await
        .unwrap();
    // And it plays on.
    back.send(&json!({"type": "act", "action": legal_of(&obs)[0]}))
        .await
        .unwrap();
    back.recv_until(|f| f["type"] == "events" && f["v"] == 4)
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resignation_and_draw_offers_with_every_remaining_seat() {
    let ts = start().await;
    let (_id, mut people) = seated_table(
        &ts,
        json!({"board": "three_player", "move_seconds": 0, "resign_after_seconds": 0}),
        &[0, 1, 2],
        "random",
        101,
    )
    .await;
    // Two of three accept: the offer stays open; the third accepts: drawn.
    people[0]
        .c
        .send(&json!({"type": "offer_draw"}))
        .await
        .unwrap();
    people[1].c.recv_type("draw_offer").await.unwrap();
    people[1]
        .c
        .send(&json!({"type": "accept_draw"}))
        .await
        .unwrap();
    let o = people[2]
        .c
        .recv_until(|f| f["type"] == "draw_offer" && f["accepted"] == json!([0, 1]))
        .await
        .unwrap();
    assert_eq!(o["by"], 0);
    people[2]
        .c
        .send(&json!({"type": "accept_draw"}))
        .await
        .unwrap();
    let over = people[0].c.recv_type("game_over").await.unwrap();
    assert_eq!(
        over["outcome"],
        json!({"result": "draw", "reason": "agreement"})
    );

    // Another game: seat 2 resigns (out, the game goes on); then the two left agree a draw.
    let (_id, mut people) = seated_table(
        &ts,
        json!({"board": "three_player", "move_seconds": 0, "resign_after_seconds": 0}),
        &[0, 1, 2],
        "random",
        102,
    )
    .await;
    people[2].c.send(&json!({"type": "resign"})).await.unwrap();
    let ev = until_entry(&mut people[0].c, "resign 2").await;
    assert!(ev["outcome"].is_null(), "{ev}");
    assert!(ev["events"]
        .as_array()
        .unwrap()
        .contains(&json!({"kind": "eliminated", "seat": 2, "reason": "resigned"})));
    people[2]
        .c
        .send(&json!({"type": "resign", "id": 1}))
        .await
        .unwrap();
    let e = people[2].c.recv_type("error").await.unwrap();
    assert_eq!(e["code"], "table.out_of_game");
    people[1]
        .c
        .send(&json!({"type": "offer_draw"}))
        .await
        .unwrap();
    people[2].c.recv_type("draw_offer").await.unwrap();
    people[2]
        .c
        .send(&json!({"type": "accept_draw", "id": 2}))
        .await
        .unwrap();
    let e = people[2].c.recv_type("error").await.unwrap();
    assert_eq!(e["code"], "table.out_of_game");
    people[0].c.recv_type("draw_offer").await.unwrap();
    people[0]
        .c
        .send(&json!({"type": "accept_draw"}))
        .await
        .unwrap();
    let over = people[0].c.recv_type("game_over").await.unwrap();
    assert_eq!(over["outcome"]["result"], "draw");

    // A bot in the game declines at once.
    let (_id, mut people) = seated_table(
        &ts,
        json!({"board": "six_player", "move_seconds": 0}),
        &[0, 1],
        "random",
        103,
    )
    .await;
    people[0]
        .c
        .send(&json!({"type": "offer_draw"}))
        .await
        .unwrap();
    let d = people[0].c.recv_type("draw_declined").await.unwrap();
    assert!(d["by"].as_u64().unwrap() >= 2, "a bot's seat: {d}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_skip_a_three_player_seat_that_runs_out() {
    let ts = start().await;
    let (_id, mut people) = seated_table(
        &ts,
        json!({"board": "three_player", "move_seconds": 30}),
        &[0, 1, 2],
        "random",
        111,
    )
    .await;
    ts.clock.advance(30_001);
    let ev = until_entry(&mut people[1].c, "timeout 0").await;
    assert_eq!(
        ev["events"][0],
        json!({"kind": "skipped", "seat": 0, "reason": "timeout"})
    );
    assert_eq!(ev["to_move"], 1);
    let obs = people[1]
        .c
        .recv_until(|f| f["type"] == "observation" && f["v"] == ev["v"])
        .await
        .unwrap();
    assert_eq!(obs["observation"]["skips"][0], 1);
    assert_eq!(obs["clock"]["to_move"], 1);
    assert_eq!(obs["clock"]["remaining_ms"], 30_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_option_teams_is_checked_against_the_board() {
    let ts = start().await;
    for (body, teams, allowed) in [
        (
            json!({"board": "three_player", "options": {"teams": "alternate"}}),
            "alternate",
            json!(["none"]),
        ),
        (
            json!({"board": "six_player", "options": {"teams": "triangles"}}),
            "triangles",
            json!(["alternate", "opposite", "none"]),
        ),
        (
            json!({"board": "six_player", "mode": "half_open", "options": {"teams": "none"}}),
            "none",
            json!(["alternate", "opposite"]),
        ),
        (
            json!({"board": "four_player", "options": {"teams": 2}}),
            "2",
            json!(["alternate", "opposite", "none"]),
        ),
    ] {
        for path in ["/api/tables", "/api/play-computer"] {
            let (st, e) = ts.post(path, body.clone()).await;
            assert_eq!(st, 400, "{body}: {e}");
            assert_eq!(e["code"], "setup.bad_teams", "{body}: {e}");
            assert_eq!(e["args"]["teams"], teams, "{e}");
            assert_eq!(e["args"]["board"], body["board"], "{e}");
            assert_eq!(e["args"]["allowed"], allowed, "{e}");
            assert!(e["error"].as_str().unwrap().contains("teams"), "{e}");
        }
    }
    // The values a board plays with are accepted (the two-player board ignores the option).
    for body in [
        json!({"board": "six_player", "options": {"teams": "opposite"}}),
        json!({"board": "six_player", "options": {"teams": "none"}}),
        json!({"board": "four_player", "mode": "half_open", "options": {"teams": "opposite"}}),
        json!({"board": "three_player", "options": {"teams": "none"}}),
        json!({"board": "two_player", "options": {"teams": "alternate"}}),
    ] {
        let (st, created) = ts.post("/api/tables", body.clone()).await;
        assert_eq!(st, 201, "{body}: {created}");
    }
    let (_, info) = ts.get("/api/info").await;
    assert_eq!(info["teams"]["three_player"], json!(["none"]));
    assert_eq!(info["seats"]["six_player"], 6);
    // Board data of the new boards.
    let (st, b) = ts.get("/api/boards/six_player").await;
    assert_eq!(st, 200);
    assert_eq!(b["squares"].as_array().unwrap().len(), 193);
    let (st, b) = ts.get("/api/boards/three_player").await;
    assert_eq!(st, 200);
    assert_eq!(b["squares"].as_array().unwrap().len(), 99);
    let (st, e) = ts.get("/api/boards/five_player").await;
    assert_eq!(st, 404);
    assert!(e["error"].as_str().unwrap().contains("six_player"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_three_and_six_seat_tables() {
    let ts = start().await;
    let (st, created) = ts
        .post(
            "/api/tables",
            json!({"board": "six_player", "options": {"teams": "opposite"}, "seat": 2,
                   "bots": [{"seat": 4, "bot": "random"}]}),
        )
        .await;
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let (st, created3) = ts
        .post("/api/tables", json!({"board": "three_player"}))
        .await;
    assert_eq!(st, 201, "{created3}");
    let (_, lobby) = ts.get("/api/tables").await;
    let tables = lobby["tables"].as_array().unwrap();
    let six = tables
        .iter()
        .find(|t| t["id"] == id.as_str())
        .expect("listed");
    let kinds: Vec<&str> = six["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["empty", "empty", "human", "empty", "bot", "empty"]);
    assert_eq!(six["teams"], json!([[0, 3], [1, 4], [2, 5]]));
    assert_eq!(six["host_seat"], 2);
    let three = tables
        .iter()
        .find(|t| t["id"] == created3["table"]["id"])
        .expect("listed");
    assert_eq!(three["seats"].as_array().unwrap().len(), 3);
    assert_eq!(three["teams"], json!([[0], [1], [2]]));
    // A seat past the board is refused with the board's seats.
    let (st, e) = ts
        .post("/api/tables", json!({"board": "three_player", "seat": 3}))
        .await;
    assert_eq!(st, 400);
    assert_eq!(e["code"], "setup.seat_missing");
    assert_eq!(e["args"]["max"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_three_player_rematch_moves_everybody_one_seat_on() {
    let ts = start().await;
    let (_id, mut people) = seated_table(
        &ts,
        json!({"board": "three_player", "move_seconds": 0, "resign_after_seconds": 0}),
        &[0, 1, 2],
        "random",
        121,
    )
    .await;
    let names: Vec<Value> = {
        let t = people[0]
            .c
            .log
            .iter()
            .rev()
            .find(|f| f["type"] == "table")
            .cloned()
            .unwrap();
        (0..3)
            .map(|s| t["table"]["seats"][s]["name"].clone())
            .collect()
    };
    people[1].c.send(&json!({"type": "resign"})).await.unwrap();
    until_entry(&mut people[0].c, "resign 1").await;
    people[2].c.send(&json!({"type": "resign"})).await.unwrap();
    people[0].c.recv_type("game_over").await.unwrap();
    for p in people.iter_mut() {
        p.c.send(&json!({"type": "rematch"})).await.unwrap();
    }
    let mut new_table = String::new();
    for p in people.iter_mut() {
        let r = p.c.recv_type("rematch_ready").await.unwrap();
        assert_eq!(r["seat"], (p.seat as u64 + 1) % 3, "{r}");
        new_table = r["table"].as_str().unwrap().to_string();
    }
    let (_, summary) = ts.get(&format!("/api/tables/{new_table}")).await;
    assert_eq!(summary["board"], "three_player");
    for s in 0..3 {
        assert_eq!(summary["seats"][(s + 1) % 3]["name"], names[s], "{summary}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_six_player_game_against_the_computer_pauses_while_its_person_is_away() {
    let ts = start().await;
    let (st, created) = ts
        .post(
            "/api/play-computer",
            json!({"board": "six_player", "seat": 3, "bot": "random"}),
        )
        .await;
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut c = join(&ts, &id, Some(&token), None).await;
    let w = c
        .log
        .iter()
        .find(|f| f["type"] == "welcome")
        .cloned()
        .unwrap();
    assert_eq!(w["chat"], false, "no chat against the computer");
    assert_eq!(w["away_limit_ms"], 30 * 60_000);
    deploy_and_play(&mut c, 9).await;
    let mut watcher = join(&ts, &id, None, None).await;
    watcher.recv_type("sync").await.unwrap();
    // Seat 3 moved first (the host); it moves once more after the bots, then goes away.
    let mut me = Seated {
        seat: 3,
        c,
        token: token.clone(),
    };
    move_once(&mut me).await;
    let v =
        me.c.log
            .iter()
            .filter_map(|f| (f["type"] == "events").then(|| f["v"].as_u64()).flatten())
            .max()
            .unwrap();
    me.c.close().await;
    let p = watcher.recv_type("presence").await.unwrap();
    assert_eq!(p["paused"], true, "{p}");
    // Nothing moves while paused, however long (within the window).
    ts.clock.advance(10 * 60_000);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, summary) = ts.get(&format!("/api/tables/{id}")).await;
    let plies = summary["plies"].as_u64().unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, again) = ts.get(&format!("/api/tables/{id}")).await;
    assert_eq!(again["plies"].as_u64().unwrap(), plies, "paused: {again}");
    assert_eq!(again["status"], "playing");
    // Back: the game resumes where it was.
    let mut back = join(&ts, &id, Some(&token), Some(v)).await;
    watcher
        .recv_until(|f| f["type"] == "presence" && f["connected"] == true)
        .await
        .unwrap();
    let mut me = Seated {
        seat: 3,
        c: {
            back.recv_type("table").await.unwrap();
            back
        },
        token,
    };
    move_once(&mut me).await;
}

/// A game nobody is left at (its person resigned and closed the page; two computers play on)
/// does not wait for the pacing delay: with a minute's delay on a clock the test does not move,
/// an attended game stands still, and the unattended one plays to its end. While somebody
/// watches, the delay holds again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_nobody_left_at_it_plays_on_without_pacing() {
    let ts = start_with(|c| c.settings.bot_delay_ms = 60_000).await;
    let (st, created) = ts
        .post(
            "/api/play-computer",
            json!({"board": "three_player", "seat": 0, "bot": "random"}),
        )
        .await;
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let mut c = join(&ts, &id, created["token"].as_str(), None).await;
    deploy_and_play(&mut c, 4).await;
    let plies = async |ts: &TestServer| {
        let (_, t) = ts.get(&format!("/api/tables/{id}")).await;
        (t["plies"].as_u64().unwrap_or(0), t["status"].clone())
    };
    // Seat 0 moves first; the bots' replies then wait a minute that never passes.
    let mut me = Seated {
        seat: 0,
        c,
        token: String::new(),
    };
    move_once(&mut me).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let (before, _) = plies(&ts).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(plies(&ts).await.0, before, "paced: the bots wait");
    // Past the resignation window (which lets the parked reply through), seat 0 resigns and
    // stays to watch: the delay still holds.
    ts.clock.advance(91_000);
    let mut me = me.c;
    me.send(&json!({"type": "resign", "id": "r"}))
        .await
        .unwrap();
    me.recv_until(|f| f["type"] == "ack" && f["id"] == "r")
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let (watched, status) = plies(&ts).await;
    assert_eq!(status, "playing");
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(plies(&ts).await.0, watched, "watched: still paced");
    // It leaves: nobody is left, and the two computers play to the end without the delay.
    me.close().await;
    let until = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let (n, status) = plies(&ts).await;
        if status == "over" {
            assert!(n > watched, "{n} plies");
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "the unattended game stands at ply {n}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// A seat that left a game for good (逃跑) may come back with its seat token to watch, but no
/// longer talks at the table; the others still chat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_that_left_cannot_chat_by_coming_back() {
    let ts = start().await;
    let (id, mut people) = seated_table(
        &ts,
        json!({"board": "three_player", "move_seconds": 0}),
        &[0, 1, 2],
        "random",
        52,
    )
    .await;
    people[1].c.send(&json!({"type": "leave"})).await.unwrap();
    until_entry(&mut people[0].c, "leave 1").await;
    let token = people[1].token.clone();
    let mut back = join(&ts, &id, Some(&token), None).await;
    back.send(&json!({"type": "chat", "text": "我回来了", "id": 1}))
        .await
        .unwrap();
    let e = back
        .recv_until(|f| f["type"] == "error" && f["id"] == 1)
        .await
        .unwrap();
    assert_eq!(e["code"], "table.seat_left", "{e}");
    back.send(&json!({"type": "chat", "phrase": "hello", "id": 2}))
        .await
        .unwrap();
    let e = back
        .recv_until(|f| f["type"] == "error" && f["id"] == 2)
        .await
        .unwrap();
    assert_eq!(e["code"], "table.seat_left", "{e}");
    // Seat 2, still in the game, talks; the one who left still hears it.
    people[2]
        .c
        .send(&json!({"type": "chat", "text": "继续", "id": 3}))
        .await
        .unwrap();
    let heard = back.recv_type("chat").await.unwrap();
    assert_eq!(heard["text"], "继续");
    assert_eq!(heard["seat"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_the_qq_preset_a_leavers_partner_plays_on_across_a_restart() {
    let ts = start().await;
    // The presets the create form offers, with what they resolve to.
    let (_, info) = ts.get("/api/info").await;
    let qq = info["presets"]["four_player"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "qq")
        .cloned()
        .unwrap();
    assert_eq!(
        qq,
        json!({"name": "qq", "options": {"blocked": "out_at_once", "quiet_plies": 71}, "leaver": "partner_plays_on"})
    );
    assert_eq!(
        info["presets"]["three_player"],
        json!([{"name": "standard", "options": {}, "leaver": "abort"}])
    );
    assert_eq!(info["presets"]["land_sea_air"][1]["name"], "taiwan");
    let (id, mut people) = seated_table(
        &ts,
        json!({"board": "four_player", "move_seconds": 0, "preset": "qq"}),
        &[0, 1],
        "random",
        91,
    )
    .await;
    let (_, t) = ts.get(&format!("/api/tables/{id}")).await;
    assert_eq!(
        (&t["preset"], &t["leaver"], &t["options"]),
        (
            &json!("qq"),
            &json!("partner_plays_on"),
            &json!({"blocked": "out_at_once", "quiet_plies": 71})
        ),
        "{t}"
    );
    // East leaves while West is in: East is out (reason left), and the game goes on.
    let t1 = people[1].token.clone();
    people[1].c.send(&json!({"type": "leave"})).await.unwrap();
    let ev = until_entry(&mut people[0].c, "leave 1").await;
    assert!(ev["outcome"].is_null(), "{ev}");
    assert!(
        ev["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "eliminated" && e["seat"] == 1 && e["reason"] == "left"),
        "{ev}"
    );
    drop(people);
    // kill -9 and a restart: the game resumes under the same table rule.
    let ts = restart(ts).await;
    let (_, t) = ts.get(&format!("/api/tables/{id}")).await;
    assert_eq!(
        (&t["preset"], &t["status"]),
        (&json!("qq"), &json!("playing")),
        "{t}"
    );
    let mut back = WsClient::connect(&ts.ws_url(&id)).await.unwrap();
    back.send(&json!({"type": "hello", "token": t1}))
        .await
        .unwrap();
    back.recv_until(|f| f["type"] == "welcome").await.unwrap();
    let sync = back.recv_type("sync").await.unwrap();
    let o = &sync["observation"];
    assert_eq!(
        (
            &sync["status"],
            &o["eliminated"],
            &o["outcome"],
            &o["to_move"]
        ),
        (&json!("playing"), &json!([1]), &Value::Null, &json!(0)),
        "{sync}"
    );
    drop(back);
    // The same rules by hand are QQ too; changing one makes them custom.
    let (st, c) = ts
        .post(
            "/api/tables",
            json!({"board": "four_player", "options": {"blocked": "out_at_once", "quiet_plies": 71}, "leaver": "partner_plays_on"}),
        )
        .await;
    assert_eq!((st, &c["table"]["preset"]), (201, &json!("qq")), "{c}");
    let (st, c) = ts
        .post(
            "/api/tables",
            json!({"board": "four_player", "preset": "qq", "options": {"quiet_plies": 80}}),
        )
        .await;
    assert_eq!(st, 201, "{c}");
    assert_eq!(
        (&c["table"]["preset"], &c["table"]["leaver"]),
        (&Value::Null, &json!("partner_plays_on")),
        "{c}"
    );
    // Refusals say what is wrong.
    for (body, code, needle) in [
        (
            json!({"board": "three_player", "preset": "qq"}),
            "setup.bad_rules",
            "not played on the three_player board",
        ),
        (
            json!({"board": "four_player", "preset": "qq", "options": {"preset": "standard"}}),
            "setup.bad_rules",
            "disagree",
        ),
        (
            json!({"board": "four_player", "leaver": "stay"}),
            "request.bad",
            "abort, bot, partner_plays_on",
        ),
        (
            json!({"board": "four_player", "leaver": "abort", "leaver_replaced_by_bot": true}),
            "request.bad",
            "disagree",
        ),
    ] {
        let (st, e) = ts.post("/api/tables", body.clone()).await;
        assert_eq!(st, 400, "{body}: {e}");
        assert_eq!(e["code"], code, "{body}: {e}");
        assert!(e["error"].as_str().unwrap().contains(needle), "{body}: {e}");
    }
}
