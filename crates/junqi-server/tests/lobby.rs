//! The lobby and the per-creator limit come from the database, not from one server's memory:
//! a second server (or app) on the same database lists the tables the first runs, and counts
//! them against the creator. On SQLite and, when `JUNQI_TEST_POSTGRES_URL` is set, on
//! PostgreSQL.

mod common;
use common::*;
use junqi_server::client::http;
use junqi_server::db::Db;
use junqi_server::{App, ManualClock, Settings};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The ids of the lobby's tables.
fn ids(lobby: &Value) -> Vec<String> {
    lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["id"].as_str().map(String::from))
        .collect()
}

async fn lobby_of(ts: &TestServer) -> Value {
    let (st, lobby) = ts.get("/api/tables").await;
    assert_eq!(st, 200, "{lobby}");
    lobby
}

/// Poll until `cond` holds (the lobby entry is stored just after the change it shows).
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

/// A clock that starts at the real time: on a PostgreSQL database shared with earlier runs,
/// this run's tables are the newest (the lobby lists the newest 200).
fn clock_now() -> ManualClock {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    ManualClock::new(now)
}

async fn lobby_from_the_database(database: Option<String>) {
    let dir = tempfile::tempdir().unwrap();
    let clock = clock_now();
    let mut cfg = config(database.clone(), dir.path().to_path_buf(), &clock);
    // Earlier runs on a shared PostgreSQL database leave open tables of this address behind.
    cfg.settings.max_open_tables_per_creator = 1000;
    let url = cfg.database_url();
    let ts = TestServer {
        server: junqi_server::start(cfg).await.expect("server starts"),
        clock: clock.clone(),
        dir: None,
    };
    // A public table, a private one, and a public game played to its end.
    let (st, public) = ts
        .post(
            "/api/tables",
            json!({"board": "two_player", "name": "lobby test"}),
        )
        .await;
    assert_eq!(st, 201, "{public}");
    let public_id = public["table"]["id"].as_str().unwrap().to_string();
    let (st, private) = ts
        .post(
            "/api/tables",
            json!({"board": "two_player", "private": true}),
        )
        .await;
    assert_eq!(st, 201, "{private}");
    let private_id = private["table"]["id"].as_str().unwrap().to_string();
    let (st, finished) = ts
        .post(
            "/api/tables",
            json!({"board": "two_player", "bots": [{"seat": 1, "bot": "random"}]}),
        )
        .await;
    assert_eq!(st, 201, "{finished}");
    let finished_id = finished["table"]["id"].as_str().unwrap().to_string();
    let lobby = lobby_of(&ts).await;
    let listed = ids(&lobby);
    assert!(listed.contains(&public_id), "{lobby}");
    assert!(listed.contains(&finished_id), "{lobby}");
    assert!(
        !listed.contains(&private_id),
        "a private table is not listed: {lobby}"
    );
    // The entry is the lobby's: what a client shows, nothing that changes with every move.
    let entry = lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == public_id.as_str())
        .unwrap()
        .clone();
    assert_eq!(entry["name"], "lobby test");
    assert_eq!(entry["status"], "waiting");
    assert_eq!(entry["board"], "two_player");
    assert_eq!(entry["code"], public["table"]["code"]);
    assert_eq!(entry["seats"][0]["kind"], "human");
    assert_eq!(entry["seats"][1]["kind"], "empty");
    assert!(entry["seats"][0]["player"]["id"].is_string(), "{entry}");
    assert!(entry.get("plies").is_none() && entry.get("spectators").is_none());

    // Someone takes the empty seat: the stored entry follows.
    let mut guest = join(&ts, &public_id, None, None).await;
    guest
        .send(&json!({"type": "take_seat", "seat": 1, "name": "Bob"}))
        .await
        .unwrap();
    guest.recv_type("welcome").await.unwrap();
    let seated = eventually(Duration::from_secs(5), async || {
        let lobby = lobby_of(&ts).await;
        lobby["tables"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == public_id.as_str() && t["seats"][1]["name"] == "Bob")
    })
    .await;
    assert!(seated, "the lobby shows the new seat");

    // The game against the bot is played to its end (resigned): it leaves the lobby.
    let mut host = join(&ts, &finished_id, finished["token"].as_str(), None).await;
    host.send(&json!({"type": "start"})).await.unwrap();
    host.recv_until(|f| f["type"] == "sync" && f["status"] == "deploying")
        .await
        .unwrap();
    deploy_and_play(&mut host, 3).await;
    // Past the resignation window (RULES §10), so that resigning ends the game.
    ts.clock.advance(91_000);
    host.send(&json!({"type": "resign"})).await.unwrap();
    host.recv_type("game_over").await.unwrap();
    let lobby = lobby_of(&ts).await;
    assert!(!ids(&lobby).contains(&finished_id), "{lobby}");
    assert!(ids(&lobby).contains(&public_id), "{lobby}");

    // A second app on the same database, with no table in its memory, lists the same tables.
    let db = Db::open(&url).await.unwrap();
    let other = App::new(db, std::sync::Arc::new(clock.clone()), Settings::default());
    assert_eq!(other.live_tables(), 0);
    let lobby = other.lobby().await.unwrap();
    let listed = ids(&lobby);
    assert!(listed.contains(&public_id), "{lobby}");
    assert!(
        !listed.contains(&private_id) && !listed.contains(&finished_id),
        "{lobby}"
    );
    let entry = lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == public_id.as_str())
        .unwrap()
        .clone();
    assert_eq!(entry["seats"][1]["name"], "Bob");
    assert!(lobby["recent_games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == finished_id.as_str()));
    ts.server.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_lobby_comes_from_the_database() {
    lobby_from_the_database(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_lobby_comes_from_the_database() {
    let Ok(url) = std::env::var("JUNQI_TEST_POSTGRES_URL") else {
        println!(
            "NOTICE: JUNQI_TEST_POSTGRES_URL is not set: the PostgreSQL lobby test is skipped"
        );
        return;
    };
    lobby_from_the_database(Some(url)).await;
}

/// Two servers on one database: tables created on the first count against their creator on
/// the second (which never had them in memory), and the second's lobby lists them.
async fn two_servers_share_the_lobby_and_the_limit(database: String) {
    let clock = clock_now();
    let start = |limit: usize| {
        let mut cfg = config(Some(database.clone()), "/tmp/unused".into(), &clock);
        cfg.settings.max_open_tables_per_creator = limit;
        junqi_server::start(cfg)
    };
    // Both start before any table exists: neither has loaded the other's tables.
    let a = start(1).await.expect("server a");
    let b = start(1).await.expect("server b");
    // A guest's tables count by address (twice the limit): one of its own per run, so that
    // earlier runs on a shared PostgreSQL database do not count.
    let src = format!(
        "127.{}.{}.{}",
        rand::random::<u8>(),
        rand::random::<u8>(),
        rand::random::<u8>().max(2)
    );
    let mut made = Vec::new();
    for _ in 0..2 {
        let r = http_from(
            &src,
            &a.addr.to_string(),
            "POST",
            "/api/tables",
            Some(&json!({"board": "two_player"})),
            None,
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.body);
        made.push(r.body["table"]["id"].as_str().unwrap().to_string());
    }
    let r = http_from(
        &src,
        &b.addr.to_string(),
        "POST",
        "/api/tables",
        Some(&json!({"board": "two_player"})),
        None,
    )
    .await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.body["code"], "setup.too_many_tables");
    let (_, lobby) = http(&b.addr.to_string(), "GET", "/api/tables", None, None)
        .await
        .unwrap();
    for id in &made {
        assert!(ids(&lobby).contains(id), "{lobby}");
    }
    a.abort();
    b.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_two_servers_share_the_lobby_and_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("shared.db").display());
    two_servers_share_the_lobby_and_the_limit(url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_two_servers_share_the_lobby_and_the_limit() {
    let Ok(url) = std::env::var("JUNQI_TEST_POSTGRES_URL") else {
        println!(
            "NOTICE: JUNQI_TEST_POSTGRES_URL is not set: the PostgreSQL two-server test is skipped"
        );
        return;
    };
    two_servers_share_the_lobby_and_the_limit(url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deployment_editor_loads_layouts_of_named_families() {
    let ts = start().await;
    let (st, list) = ts.get("/api/layouts").await;
    assert_eq!(st, 200, "{list}");
    let families: Vec<String> = list["families"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    assert_eq!(families, ["flag-fortress", "bomb-ahead", "bomb-by-flag"]);
    for family in &families {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..5 {
            let (st, got) = ts.get(&format!("/api/layouts/{family}")).await;
            assert_eq!((st, &got["family"]), (200, &json!(family)), "{got}");
            let text = got["layout"].as_str().unwrap();
            let d = junqi_core::Deployment::from_text(text).unwrap();
            // Local squares: the same layout deploys any seat of any board.
            for board in junqi_core::BoardKind::ALL {
                for seat in board.seat_range() {
                    d.validate(board, seat).unwrap();
                }
            }
            seen.insert(text.to_string());
        }
        assert!(
            seen.len() >= 4,
            "{family}: a new draw every time ({seen:?})"
        );
    }
    let (st, e) = ts.get("/api/layouts/fortress").await;
    assert_eq!((st, &e["code"]), (400, &json!("request.bad")), "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("flag-fortress"),
        "{e}"
    );
}
