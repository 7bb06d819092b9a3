//! The leak test: random games with a scripted person at every seat and a spectator; every frame
//! each client received is checked against the referee's replay of the final record: events are
//! exactly the referee's (public) announcements, and every view is exactly the core's redaction
//! for that client (its seat, or the public; the referee view only once the game is over), with
//! no identity `find_leak` objects to.

mod common;
use common::*;
use junqi_core::json::{event_to_json, outcome_to_json};
use junqi_core::observation::find_leak;
use junqi_core::{action_to_text, Observer, Position, Record, Seat};
use junqi_server::client::WsClient;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

fn expected_view(pos: &Position, observer: Observer) -> Value {
    let obs = pos.observe(observer);
    assert!(find_leak(pos, &obs).is_none());
    let topo = obs.topology();
    let mut v = obs.to_json();
    v["legal_actions"] = obs
        .legal_actions
        .iter()
        .map(|&a| Value::from(action_to_text(topo, a)))
        .collect();
    v["outcome"] = outcome_to_json(obs.outcome);
    v
}

fn check_frames(log: &[Value], seat: Option<Seat>, positions: &[Position], events: &[Value]) {
    let last = positions.len() - 1;
    for f in log {
        let kind = f["type"].as_str().unwrap();
        let v = f["v"].as_u64().unwrap_or(0) as usize;
        match kind {
            "events" => assert_eq!(
                f["events"],
                events[v - 1],
                "events frame v{v} differs from the referee's"
            ),
            "observation" | "sync" | "game_over" if !f["observation"].is_null() => {
                let pos = &positions[v];
                let observer = if pos.is_over() {
                    Observer::Referee
                } else {
                    match seat {
                        Some(s) => Observer::Seat(s),
                        None => Observer::Public,
                    }
                };
                assert_eq!(
                    f["observation"],
                    expected_view(pos, observer),
                    "{kind} v{v} for {seat:?}"
                );
                if v < last {
                    assert!(!pos.is_over());
                }
            }
            _ => {
                // Nothing else may name a role.
                let s = f.to_string();
                assert!(!s.contains("\"role\""), "frame with a role: {s}");
            }
        }
    }
}

async fn one_game(ts: &TestServer, board: &str, mode: &str, teams: Option<&str>, seed: u64) {
    let mut body = json!({"board": board, "mode": mode, "move_seconds": 0});
    if let Some(t) = teams {
        body["options"] = json!({"teams": t});
    }
    let (st, created) = ts.post("/api/tables", body).await;
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let n = created["table"]["seats"].as_array().unwrap().len();
    let mut clients: Vec<WsClient> = vec![join(ts, &id, created["token"].as_str(), None).await];
    for s in 1..n {
        let mut c = join(ts, &id, None, None).await;
        c.send(&json!({"type": "take_seat", "seat": s}))
            .await
            .unwrap();
        c.recv_until(|f| f["type"] == "welcome" && f["seat"] == s)
            .await
            .unwrap();
        clients.push(c);
    }
    let mut spectator = join(ts, &id, None, None).await;
    clients[0].send(&json!({"type": "start"})).await.unwrap();
    if mode != "flip" {
        for (s, c) in clients.iter_mut().enumerate() {
            c.recv_until(|f| f["type"] == "sync" && f["status"] == "deploying")
                .await
                .unwrap();
            c.send(&json!({"type": "deploy", "layout": layout(seed * 10 + s as u64)}))
                .await
                .unwrap();
        }
    }
    let mut tasks = Vec::new();
    for (s, mut c) in clients.into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed * 100 + s as u64);
            loop {
                let legal = wait_turn(&mut c).await;
                if legal.is_empty() {
                    break;
                }
                let a = &legal[rng.gen_range(0..legal.len())];
                c.send(&json!({"type": "act", "action": a})).await.unwrap();
            }
            c
        }));
    }
    let mut done = Vec::new();
    for t in tasks {
        done.push(t.await.unwrap());
    }
    let over = spectator.recv_type("game_over").await.unwrap();
    let record = Record::from_text(over["record"].as_str().unwrap()).unwrap();
    let topo = record.topology();
    let mut pos = record.start_position().unwrap();
    let mut positions = vec![pos.clone()];
    let mut events = Vec::new();
    for e in &record.entries {
        let mut ev = Vec::new();
        e.apply(&mut pos, &record.table, &mut ev).unwrap();
        events.push(Value::Array(
            ev.iter().map(|x| event_to_json(topo, x)).collect(),
        ));
        positions.push(pos.clone());
    }
    assert!(pos.is_over());
    for (s, c) in done.iter().enumerate() {
        check_frames(&c.log, Some(s as Seat), &positions, &events);
    }
    check_frames(&spectator.log, None, &positions, &events);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_frame_leaks_an_identity() {
    let ts = start().await;
    // Many random games in CI's budget: every mode, both boards.
    let games = [
        ("two_player", "dark"),
        ("four_player", "dark"),
        ("four_player", "half_open"),
        ("two_player", "flip"),
        ("two_player", "open"),
        ("two_player", "dark"),
    ];
    for (i, (board, mode)) in games.iter().chain(games.iter()).enumerate() {
        let t = std::time::Instant::now();
        one_game(&ts, board, mode, None, i as u64 + 1).await;
        println!("{board} {mode}: {:?}", t.elapsed());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_frame_leaks_an_identity_on_three_and_six_seats() {
    let ts = start().await;
    // A person at every seat and a spectator: every teams value, dark and half-open (where
    // teammates, and only they, see each other).
    let games = [
        ("three_player", "dark", None),
        ("six_player", "dark", None),
        ("six_player", "half_open", None),
        ("six_player", "half_open", Some("opposite")),
        ("six_player", "dark", Some("none")),
        ("four_player", "dark", Some("none")),
        ("three_player", "open", None),
        ("six_player", "dark", Some("opposite")),
    ];
    for (i, (board, mode, teams)) in games.iter().enumerate() {
        let t = std::time::Instant::now();
        one_game(&ts, board, mode, *teams, 100 + i as u64).await;
        println!("{board} {mode} {teams:?}: {:?}", t.elapsed());
    }
}
