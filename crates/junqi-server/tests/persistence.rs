//! Persistence: a server killed in the middle of a game and started again on the same database
//! resumes the game with nothing lost; on SQLite and, when `JUNQI_TEST_POSTGRES_URL` is set
//! (`.ci/run` always sets it), on PostgreSQL.

mod common;
use common::*;
use junqi_server::client::http;
use junqi_server::ManualClock;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

async fn kill_and_restart(database: Option<String>, board: &str) {
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::new(T0);
    let s1 = spawn_server(database.clone(), dir.path().to_path_buf(), clock.clone());
    let (st, created) = http(
        &s1.addr.to_string(),
        "POST",
        "/api/play-computer",
        Some(&json!({"board": board})),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut c = hello(s1.addr, &id, &token, None).await;
    c.send(&json!({"type": "deploy", "layout": layout(3)}))
        .await
        .unwrap();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
    let mut last_obs = Value::Null;
    for _ in 0..12 {
        let legal = wait_turn(&mut c).await;
        if legal.is_empty() {
            break;
        }
        last_obs = c.log.last().cloned().unwrap();
        let a = &legal[rng.gen_range(0..legal.len())];
        c.send(&json!({"type": "act", "action": a})).await.unwrap();
    }
    // Our last action is acknowledged by its events frame, then the server dies.
    let ev = c
        .recv_until(|f| f["type"] == "events" && f["entry"].as_str().unwrap().starts_with("0 "))
        .await
        .unwrap();
    let v_ours = ev["v"].as_u64().unwrap();
    s1.kill();
    assert!(
        c.recv_until(|_| false).await.is_err(),
        "the connection dies with the server"
    );
    let seen = c.log.iter().filter(|f| f["type"] == "events").count() as u64;
    assert!(seen >= v_ours);
    let _ = last_obs;

    let s2 = spawn_server(database, dir.path().to_path_buf(), clock.clone());
    // Reconnect with the last version we saw: exactly what we missed (the bot's reply, if it was
    // stored before the kill), then our observation.
    let mut c2 = hello(s2.addr, &id, &token, Some(seen)).await;
    c2.recv_type("table").await.unwrap();
    let mut missed = Vec::new();
    let obs = loop {
        let f = c2.recv().await.unwrap();
        match f["type"].as_str().unwrap() {
            "events" => missed.push(f),
            "observation" => break f,
            other => panic!("unexpected {other}: {f}"),
        }
    };
    let v_now = obs["v"].as_u64().unwrap();
    assert_eq!(v_now, seen + missed.len() as u64);
    for (i, m) in missed.iter().enumerate() {
        assert_eq!(m["v"].as_u64().unwrap(), seen + 1 + i as u64);
    }
    // The game goes on to its end; the record has every entry.
    if let Some(a) = obs["observation"]["legal_actions"][0].as_str() {
        c2.send(&json!({"type": "act", "action": a})).await.unwrap();
    }
    let over = play_random(&mut c2, 9).await;
    let record = junqi_core::Record::from_text(over["record"].as_str().unwrap()).unwrap();
    assert_eq!(record.entries.len() as u64, over["v"].as_u64().unwrap());
    record.replay().unwrap();
    let (st, page) = http(
        &s2.addr.to_string(),
        "GET",
        &format!("/api/games/{id}/record"),
        None,
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{page}");
    s2.kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_kill_and_restart_resumes_the_game() {
    kill_and_restart(None, "two_player").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_kill_and_restart_resumes_three_and_six_player_games() {
    kill_and_restart(None, "three_player").await;
    kill_and_restart(None, "six_player").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_kill_and_restart_resumes_the_game() {
    let Ok(url) = std::env::var("JUNQI_TEST_POSTGRES_URL") else {
        println!("NOTICE: JUNQI_TEST_POSTGRES_URL is not set: the PostgreSQL persistence test is skipped");
        return;
    };
    kill_and_restart(Some(url), "two_player").await;
}

async fn accounts_and_ratings(database: Option<String>) {
    let ts = start_at(database, None, ManualClock::new(T0)).await;
    let addr = ts.addr();
    let name = format!("alice{}", rand::random::<u32>());
    let (st, reg) = http(
        &addr,
        "POST",
        "/api/register",
        Some(&json!({"name": name, "password": "correct horse"})),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{reg}");
    let (st, _) = http(
        &addr,
        "POST",
        "/api/register",
        Some(&json!({"name": name, "password": "correct horse"})),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 409);
    let (st, _) = http(
        &addr,
        "POST",
        "/api/login",
        Some(&json!({"name": name, "password": "wrong password"})),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 401);
    let (st, login) = http(
        &addr,
        "POST",
        "/api/login",
        Some(&json!({"name": name, "password": "correct horse"})),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 200);
    let session = login["session"].as_str().unwrap().to_string();
    let (st, me) = http(&addr, "GET", "/api/me", None, Some(&session))
        .await
        .unwrap();
    assert_eq!(st, 200);
    assert_eq!(me["player"]["name"], name.as_str());
    // A rated game against the computer.
    let (st, created) = http(
        &addr,
        "POST",
        "/api/play-computer",
        Some(&json!({"board": "two_player"})),
        Some(&session),
    )
    .await
    .unwrap();
    assert_eq!(st, 201);
    let id = created["table"]["id"].as_str().unwrap();
    let mut c = join(&ts, id, created["token"].as_str(), None).await;
    c.send(&json!({"type": "deploy", "layout": layout(8)}))
        .await
        .unwrap();
    play_random(&mut c, 4).await;
    let mut page = Value::Null;
    for _ in 0..100 {
        let (_, p) = http(&addr, "GET", &format!("/api/players/{name}"), None, None)
            .await
            .unwrap();
        if p["ratings"].as_array().is_some_and(|r| !r.is_empty()) {
            page = p;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(page["ratings"][0]["category"], "two_player/dark", "{page}");
    assert_eq!(page["ratings"][0]["games"], 1);
    assert!(page["ratings"][0]["rd"].as_f64().unwrap() < 350.0, "{page}");
    assert_eq!(page["recent_games"][0]["id"], id);
    assert_eq!(page["recent_games"][0]["player_ids"][1], "bot:heuristic");
    // Logging out ends the session.
    let (st, _) = http(&addr, "POST", "/api/logout", None, Some(&session))
        .await
        .unwrap();
    assert_eq!(st, 204);
    let (st, _) = http(&addr, "GET", "/api/me", None, Some(&session))
        .await
        .unwrap();
    assert_eq!(st, 401);
    // A guest who registers keeps its id.
    let (_, g) = http(&addr, "POST", "/api/guest", None, None).await.unwrap();
    let gs = g["session"].as_str().unwrap();
    let gname = format!("bob{}", rand::random::<u32>());
    let (st, reg) = http(
        &addr,
        "POST",
        "/api/register",
        Some(&json!({"name": gname, "password": "12345678"})),
        Some(gs),
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{reg}");
    assert_eq!(reg["player"]["id"], g["player"]["id"]);
    assert_eq!(reg["player"]["guest"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_accounts_and_ratings() {
    accounts_and_ratings(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_accounts_and_ratings() {
    let Ok(url) = std::env::var("JUNQI_TEST_POSTGRES_URL") else {
        println!(
            "NOTICE: JUNQI_TEST_POSTGRES_URL is not set: the PostgreSQL accounts test is skipped"
        );
        return;
    };
    accounts_and_ratings(Some(url)).await;
}
