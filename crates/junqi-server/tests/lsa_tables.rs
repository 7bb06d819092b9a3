//! 陆海空三军棋 (`land_sea_air`) tables over real WebSocket connections: two people and a
//! spectator play random games full of scout looks, and every frame each client received is
//! checked against the referee's replay of the final record (the leak test of this board: a
//! look's result reaches its owner only, in its events and its notes); a person plays the
//! computer to the end and the finished game's record and replay endpoints agree; a seat whose
//! deployment clock runs out gets the layout its editor was offered; bad setups, layouts and
//! actions are refused and change nothing.

mod common;
use common::*;
use junqi_core::lsa::json::{event_to_json, view_to_json};
use junqi_core::lsa::{events_for, Game, LookNotes, Mode, Observer, Position, Record, Side};
use junqi_server::client::WsClient;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

/// What the referee's replay of a record says each observer should have been told.
struct Replayed {
    mode: Mode,
    /// The position after each entry (index 0: the start).
    positions: Vec<Position>,
    /// Each entry's events as JSON, per observer: `[south, north, spectator]`.
    events: Vec<[Value; 3]>,
    /// Each seat's look notes after each entry (index 0: the start).
    notes: Vec<[Value; 2]>,
}

fn observers() -> [Observer; 3] {
    [
        Observer::Seat(Side::South),
        Observer::Seat(Side::North),
        Observer::Spectator,
    ]
}

fn notes_json(n: &LookNotes) -> Value {
    n.iter()
        .map(|(at, role)| json!({"at": at.to_string(), "role": role.name()}))
        .collect()
}

fn replay(record_text: &str) -> Replayed {
    let record = Record::from_text(record_text).expect("the record parses");
    let mut game = Game::start(record.mode, record.start.clone(), record.options).unwrap();
    let mut positions = vec![game.position().clone()];
    let mut notes = [LookNotes::default(), LookNotes::default()];
    let mut all_notes = vec![[json!([]), json!([])]];
    let mut events = Vec::new();
    for e in &record.entries {
        let evs: Vec<_> = game.apply(*e).unwrap().iter().collect();
        let per = observers().map(|o| {
            Value::Array(
                events_for(o, &evs)
                    .filter_map(|x| event_to_json(&x))
                    .collect(),
            )
        });
        for (s, n) in notes.iter_mut().enumerate() {
            let side = if s == 0 { Side::South } else { Side::North };
            let mine: Vec<_> = events_for(Observer::Seat(side), &evs).collect();
            n.follow(&mine);
        }
        events.push(per);
        all_notes.push([notes_json(&notes[0]), notes_json(&notes[1])]);
        positions.push(game.position().clone());
    }
    assert!(game.is_over(), "the record is of a finished game");
    Replayed {
        mode: record.mode,
        positions,
        events,
        notes: all_notes,
    }
}

/// Check every frame a client (seat 0, 1, or 2 for a spectator) received.
fn check_frames(log: &[Value], who: usize, r: &Replayed) {
    let observer = observers()[who];
    for f in log {
        let kind = f["type"].as_str().unwrap();
        let v = f["v"].as_u64().unwrap_or(0) as usize;
        match kind {
            "events" => assert_eq!(
                f["events"],
                r.events[v - 1][who],
                "events frame v{v} for {who} differs from the referee's"
            ),
            "observation" | "sync" | "game_over" if !f["observation"].is_null() => {
                let pos = &r.positions[v];
                let over = pos.is_over();
                let seen = if over { Observer::Referee } else { observer };
                assert_eq!(
                    f["observation"],
                    view_to_json(&pos.view(r.mode, seen)),
                    "{kind} v{v} for {who}"
                );
                if who < 2 && !over && kind != "game_over" {
                    assert_eq!(
                        f["notes"], r.notes[v][who],
                        "{kind} v{v}: notes of seat {who}"
                    );
                } else {
                    assert!(f.get("notes").is_none(), "notes for {who} in {f}");
                }
            }
            _ => {
                let s = f.to_string();
                assert!(!s.contains("\"role\""), "frame with a role: {s}");
            }
        }
    }
}

/// Pick an action: a look half the time one is legal (so that games are full of them), else
/// any legal action.
fn pick(legal: &[String], rng: &mut impl Rng) -> String {
    let looks: Vec<&String> = legal.iter().filter(|a| a.starts_with("scout ")).collect();
    if !looks.is_empty() && rng.gen_bool(0.5) {
        return looks[rng.gen_range(0..looks.len())].clone();
    }
    legal[rng.gen_range(0..legal.len())].clone()
}

/// Wait for this seat's turn ([`wait_turn`]), failing with the frames so far if an action was
/// refused or nothing came.
async fn turn(c: &mut WsClient) -> Vec<String> {
    loop {
        let f = match c.recv().await {
            Ok(f) => f,
            Err(e) => panic!(
                "{e}: last frames {:?}",
                &c.log[c.log.len().saturating_sub(4)..]
            ),
        };
        match f["type"].as_str() {
            Some("game_over") => return vec![],
            Some("error") => panic!("refused: {f}"),
            Some("observation") | Some("sync") if !legal_of(&f).is_empty() => return legal_of(&f),
            _ => {}
        }
    }
}

async fn people_game(ts: &TestServer, mode: &str, options: Value, seed: u64) -> usize {
    let (st, created) = ts
        .post(
            "/api/tables",
            json!({"board": "land_sea_air", "mode": mode, "options": options, "move_seconds": 0}),
        )
        .await;
    assert_eq!(st, 201, "{created}");
    assert_eq!(created["table"]["board"], "land_sea_air");
    assert_eq!(created["table"]["teams"], json!([[0], [1]]));
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let mut south = join(ts, &id, created["token"].as_str(), None).await;
    let mut north = join(ts, &id, None, None).await;
    north
        .send(&json!({"type": "take_seat", "seat": 1}))
        .await
        .unwrap();
    north
        .recv_until(|f| f["type"] == "welcome" && f["seat"] == 1)
        .await
        .unwrap();
    let mut spectator = join(ts, &id, None, None).await;
    south.send(&json!({"type": "start"})).await.unwrap();
    for c in [&mut south, &mut north] {
        let sync = c
            .recv_until(|f| f["type"] == "sync" && f["status"] == "deploying")
            .await
            .unwrap();
        assert_eq!(sync["deploy"]["board"], "land_sea_air");
        let layout = sync["deploy"]["suggested"]
            .as_str()
            .expect("a suggested layout");
        c.send(&json!({"type": "deploy", "layout": layout}))
            .await
            .unwrap();
    }
    let mut tasks = Vec::new();
    for (s, mut c) in [south, north].into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed * 100 + s as u64);
            loop {
                let legal = turn(&mut c).await;
                if legal.is_empty() {
                    break;
                }
                let a = pick(&legal, &mut rng);
                c.send(&json!({"type": "act", "action": a})).await.unwrap();
            }
            c
        }));
    }
    let mut done: Vec<WsClient> = Vec::new();
    for t in tasks {
        done.push(t.await.unwrap());
    }
    let over = spectator.recv_type("game_over").await.unwrap();
    let r = replay(over["record"].as_str().unwrap());
    for (s, c) in done.iter().enumerate() {
        check_frames(&c.log, s, &r);
    }
    check_frames(&spectator.log, 2, &r);
    // The finished game's record and replay agree with the game_over frame.
    let (st, text) = ts.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(st, 200, "{text}");
    assert_eq!(text.as_str().unwrap(), over["record"].as_str().unwrap());
    let (st, rep) = ts.get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(st, 200, "{rep}");
    assert_eq!(rep["steps"].as_array().unwrap().len(), r.events.len());
    assert_eq!(rep["outcome"], over["outcome"]);
    assert_eq!(
        rep["steps"].as_array().unwrap().last().unwrap()["position"],
        over["observation"]
    );
    let (st, rj) = ts.get(&format!("/api/games/{id}/record?format=json")).await;
    assert_eq!(st, 200, "{rj}");
    let from_json = Record::from_json(&rj).expect("the JSON record reads");
    assert_eq!(from_json.to_text(), over["record"].as_str().unwrap());
    // How many looks the game had (each seat's private results).
    done.iter()
        .flat_map(|c| c.log.iter())
        .filter(|f| f["type"] == "events")
        .flat_map(|f| f["events"].as_array().cloned().unwrap_or_default())
        .filter(|e| e["kind"] == "scouted_private")
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_frame_leaks_a_look_or_an_identity() {
    let ts = start().await;
    let games = [
        ("dark", json!({})),
        ("dark", json!({"piece_set": "taiwan", "combat": "taiwan"})),
        ("open", json!({})),
        ("dark", json!({})),
    ];
    let mut looks = 0;
    for (i, (mode, options)) in games.iter().enumerate() {
        let t = std::time::Instant::now();
        looks += people_game(&ts, mode, options.clone(), i as u64 + 1).await;
        println!("land_sea_air {mode} {options}: {:?}", t.elapsed());
    }
    assert!(looks >= 4, "the games had looks ({looks})");
}

/// A table against the computer (`POST /api/play-computer` with `body` on the land-sea-air
/// board), joined by its person: the table id, the connection, the seat token and the layout
/// the deploying sync suggests.
async fn computer_table(ts: &TestServer, mut body: Value) -> (String, WsClient, String, String) {
    body["board"] = "land_sea_air".into();
    let (st, created) = ts.post("/api/play-computer", body).await;
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut c = join(ts, &id, Some(&token), None).await;
    let sync = c
        .recv_until(|f| f["type"] == "sync" && f["status"] == "deploying")
        .await
        .unwrap();
    let suggested = sync["deploy"]["suggested"].as_str().unwrap().to_string();
    (id, c, token, suggested)
}

/// A seat's pieces in a frame's view as layout words (`e1=flag`), sorted.
fn own_layout(frame: &Value, seat: u8) -> Vec<String> {
    let mut words: Vec<String> = frame["observation"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["seat"] == seat)
        .map(|p| {
            format!(
                "{}={}",
                p["at"].as_str().unwrap(),
                p["role"].as_str().unwrap()
            )
        })
        .collect();
    words.sort();
    words
}

/// A layout's words, sorted.
fn words(layout: &str) -> Vec<String> {
    let mut w: Vec<String> = layout.split(' ').map(String::from).collect();
    w.sort();
    w
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_the_computer_to_the_end() {
    let ts = start().await;
    // The server offers the board, its modes and its players.
    let (_, info) = ts.get("/api/info").await;
    assert!(
        info["boards"]
            .as_array()
            .unwrap()
            .contains(&json!("land_sea_air")),
        "{info}"
    );
    assert_eq!(info["modes"]["land_sea_air"], json!(["dark", "open"]));
    assert_eq!(info["seats"]["land_sea_air"], 2);
    assert_eq!(
        info["bots_of"]["land_sea_air"],
        json!(["random", "heuristic", "search"])
    );
    // Setups the board does not have are refused.
    for (body, code) in [
        (
            json!({"board": "land_sea_air", "mode": "flip"}),
            "setup.no_mode",
        ),
        (
            json!({"board": "land_sea_air", "options": {"bogus": 1}}),
            "setup.bad_rules",
        ),
        (
            json!({"board": "land_sea_air", "bot": "search-2026"}),
            "setup.unknown_bot",
        ),
    ] {
        let (st, e) = ts.post("/api/play-computer", body.clone()).await;
        assert_eq!(st, 400, "{body}: {e}");
        assert_eq!(e["code"], code, "{body}: {e}");
    }
    let (id, mut c, _, suggested) = computer_table(&ts, json!({"bot": "普通", "seat": 1})).await;
    // A layout of the other side, and one that is not a layout, are refused.
    let (_, _, _, south) = computer_table(&ts, json!({"seat": 0})).await;
    for bad in [south.as_str(), "e1=flag", "z99=tank"] {
        c.send(&json!({"type": "deploy", "layout": bad, "id": "d"}))
            .await
            .unwrap();
        let e = c.recv_type("error").await.unwrap();
        assert_eq!(e["code"], "rules.refused", "{bad}: {e}");
        assert!(!e["reason"].as_str().unwrap().is_empty());
    }
    c.send(&json!({"type": "deploy", "layout": suggested}))
        .await
        .unwrap();
    let playing = until_playing(&mut c).await;
    assert_eq!(
        own_layout(&playing, 1),
        words(&suggested),
        "the game starts from the layout sent"
    );
    // A bad action is refused with its reason and changes nothing.
    let before = c.log.len();
    c.send(&json!({"type": "act", "action": "a1-a15", "id": "x"}))
        .await
        .unwrap();
    let e = c.recv_type("error").await.unwrap();
    assert!(
        e["code"] == "table.not_your_turn" || e["code"] == "action.bad_text",
        "{e}"
    );
    assert!(c.log[before..].iter().all(|f| f["type"] != "events"));
    // The creator is the host and moves first: the playing view already has our turn.
    let legal = legal_of(&playing);
    assert!(!legal.is_empty(), "the host moves first");
    c.send(&json!({"type": "act", "action": legal[legal.len() / 2]}))
        .await
        .unwrap();
    let over = play_random(&mut c, 11).await;
    let r = replay(over["record"].as_str().unwrap());
    check_frames(&c.log, 1, &r);
    assert!(over["outcome"].is_object(), "{over}");
    let (st, text) = ts.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(st, 200);
    assert_eq!(text.as_str().unwrap(), over["record"].as_str().unwrap());
    // 再来一局: a new land-sea-air table against the same computer, colours swapped.
    c.send(&json!({"type": "rematch"})).await.unwrap();
    let ready = c.recv_type("rematch_ready").await.unwrap();
    assert_eq!(ready["seat"], 0, "{ready}");
    let (st, again) = ts
        .get(&format!("/api/tables/{}", ready["table"].as_str().unwrap()))
        .await;
    assert_eq!(st, 200, "{again}");
    assert_eq!(again["board"], "land_sea_air", "{again}");
    assert_eq!(again["seats"][1]["kind"], "bot");
    let mut next = join(
        &ts,
        ready["table"].as_str().unwrap(),
        ready["token"].as_str(),
        None,
    )
    .await;
    let sync = next
        .recv_until(|f| f["type"] == "sync" && f["status"] == "deploying")
        .await
        .unwrap();
    let layout = sync["deploy"]["suggested"].as_str().unwrap();
    assert!(layout.contains("1="), "South's layout: {layout}");
    // The board has its own leaderboard, with the board's modes.
    let (st, board) = ts.get("/api/leaderboard?board=land_sea_air").await;
    assert_eq!(st, 200, "{board}");
    assert_eq!(
        (&board["board"], &board["mode"]),
        (&json!("land_sea_air"), &json!("dark"))
    );
    let (st, e) = ts
        .get("/api/leaderboard?board=land_sea_air&mode=flip")
        .await;
    assert_eq!(st, 400, "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_out_of_deployment_time_gets_the_layout_it_was_offered() {
    let ts = start().await;
    let (id, mut c, token, suggested) =
        computer_table(&ts, json!({"bot": "random", "deploy_seconds": 30})).await;
    // Another table offers another layout; a second connection of this seat the same one.
    let (_, _, _, other) = computer_table(&ts, json!({})).await;
    assert_ne!(other, suggested);
    let mut second = join(&ts, &id, Some(&token), None).await;
    let sync = second
        .recv_until(|f| f["type"] == "sync" && f["status"] == "deploying")
        .await
        .unwrap();
    assert_eq!(sync["deploy"]["suggested"], suggested.as_str());
    ts.clock.advance(31_000);
    let playing = until_playing(&mut c).await;
    assert_eq!(own_layout(&playing, 0), words(&suggested));
}

/// A new land-sea-air table against the heuristic player, played with looks first until our
/// notes hold two looks (or 60 turns): the table, our token, our client (on our turn) and our
/// notes (null if the game ended first).
async fn play_until_notes(server: &Killable, seed: u64) -> (String, String, WsClient, Value) {
    let (st, created) = junqi_server::client::http(
        &server.addr.to_string(),
        "POST",
        "/api/play-computer",
        Some(&json!({"board": "land_sea_air", "bot": "heuristic"})),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut c = hello(server.addr, &id, &token, None).await;
    let sync = c
        .recv_until(|f| f["type"] == "sync" && f["status"] == "deploying")
        .await
        .unwrap();
    let layout = sync["deploy"]["suggested"].as_str().unwrap().to_string();
    c.send(&json!({"type": "deploy", "layout": layout}))
        .await
        .unwrap();
    // Stop on our turn, so that no action of ours is in flight when the server dies.
    let mut rng = rand::rngs::SmallRng::seed_from_u64(8 + seed);
    let mut notes = Value::Null;
    for i in 0..60 {
        let legal = turn(&mut c).await;
        if legal.is_empty() {
            // Over before its looks saw enough (random play can lose its flag early): no
            // notes, so that the caller tries another table.
            return (id, token, c, Value::Null);
        }
        notes = c.log.last().unwrap()["notes"].clone();
        if i == 59 || notes.as_array().is_some_and(|n| n.len() >= 2) {
            break;
        }
        let looks: Vec<&String> = legal.iter().filter(|a| a.starts_with("scout ")).collect();
        let a = match looks.first() {
            Some(l) => (*l).clone(),
            None => legal[rng.gen_range(0..legal.len())].clone(),
        };
        c.send(&json!({"type": "act", "action": a})).await.unwrap();
    }
    (id, token, c, notes)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_resumes_the_game_with_the_looks_notes() {
    let dir = tempfile::tempdir().unwrap();
    let clock = junqi_server::ManualClock::new(T0);
    let s1 = spawn_server(None, dir.path().to_path_buf(), clock.clone());
    // A game's looks may all be shot down or its plane lost early: a few tables are tried until
    // one holds notes (each table's layouts and bot differ, so one of five almost surely does).
    let mut found = None;
    for seed in 0..5 {
        let (id, token, c, notes) = play_until_notes(&s1, seed).await;
        if notes.as_array().is_some_and(|n| !n.is_empty()) {
            found = Some((id, token, c, notes));
            break;
        }
    }
    let (id, token, c, notes) = found.expect("a look saw something in one of five games");
    let v = c.log.last().unwrap()["v"].as_u64().unwrap();
    s1.kill();
    let s2 = spawn_server(None, dir.path().to_path_buf(), clock.clone());
    let mut c2 = hello(s2.addr, &id, &token, None).await;
    let sync = c2.recv_type("sync").await.unwrap();
    assert_eq!(
        sync["v"].as_u64().unwrap(),
        v,
        "nothing lost, nothing added"
    );
    assert_eq!(sync["notes"], notes, "the notes survive the restart");
    // A reconnection by version gets the same view and notes.
    let mut c3 = hello(s2.addr, &id, &token, Some(v)).await;
    let obs = c3.recv_type("observation").await.unwrap();
    assert_eq!(obs["notes"], notes);
    assert_eq!(obs["observation"], sync["observation"]);
    // The game goes on to its end; every frame after the restart is the referee's.
    let legal = legal_of(&sync);
    c2.send(&json!({"type": "act", "action": legal[0]}))
        .await
        .unwrap();
    let over = play_random(&mut c2, 3).await;
    let r = replay(over["record"].as_str().unwrap());
    check_frames(&c2.log, 0, &r);
    s2.kill();
}
