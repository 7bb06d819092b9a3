//! End-to-end games over real WebSocket connections.

mod common;
use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_player_game_against_the_computer() {
    let ts = start().await;
    let (status, created) = ts
        .post("/api/play-computer", json!({"board": "two_player"}))
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut c = join(&ts, &id, Some(&token), None).await;
    let sync = c.recv_type("sync").await.unwrap();
    assert_eq!(sync["status"], "deploying");
    // A bad layout is refused with the core's reason.
    c.send(&json!({"type": "deploy", "layout": "nonsense", "id": 1}))
        .await
        .unwrap();
    let e = c.recv_type("error").await.unwrap();
    assert_eq!(e["id"], 1);
    assert!(e["reason"].as_str().unwrap().contains("6 rows"), "{e}");
    c.send(&json!({"type": "deploy", "layout": layout(7)}))
        .await
        .unwrap();
    let over = play_random(&mut c, 11).await;
    assert!(over["outcome"]["result"].is_string(), "{over}");
    let record = over["record"].as_str().unwrap();
    assert!(record.starts_with("board two_player"));
    let parsed = junqi_core::Record::from_text(record).unwrap();
    parsed.replay().unwrap();
    // The record can be downloaded and replayed.
    let (st, text) = ts.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(st, 200);
    assert_eq!(text.as_str().unwrap(), record);
    let (st, rep) = ts.get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(st, 200);
    assert_eq!(rep["steps"].as_array().unwrap().len(), parsed.entries.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_player_game_against_the_computer() {
    let ts = start().await;
    let (status, created) = ts
        .post(
            "/api/play-computer",
            json!({"board": "four_player", "seat": 2}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let mut c = join(&ts, &id, created["token"].as_str(), None).await;
    c.send(&json!({"type": "deploy", "layout": layout(9)}))
        .await
        .unwrap();
    let over = play_random(&mut c, 12).await;
    let record = junqi_core::Record::from_text(over["record"].as_str().unwrap()).unwrap();
    assert_eq!(record.rules.board, junqi_core::BoardKind::FourPlayer);
    record.replay().unwrap();
    // The host (seat 2) moved first.
    assert!(record.to_text().contains("first 2"));
    // Lobby: a private play-the-computer table is not listed.
    let (_, lobby) = ts.get("/api/tables").await;
    assert!(lobby["tables"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["id"] != id.as_str()));
    // Board data for the client.
    let (st, b) = ts.get("/api/boards/four_player").await;
    assert_eq!(st, 200);
    assert_eq!(b["squares"].as_array().unwrap().len(), 129);
}

/// A server with the default settings seats 普通 (`normal`) when nobody names a bot, lists the
/// four levels, and a game against each level is played (a few moves: each level answers).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_level_is_normal_and_every_level_plays() {
    let ts = start_with(|c| c.settings.default_bot = junqi_server::Settings::default().default_bot)
        .await;
    let (_, info) = ts.get("/api/info").await;
    assert_eq!(info["default_bot"], "normal");
    assert_eq!(
        info["levels"],
        json!(["beginner", "normal", "expert", "master"])
    );
    let (status, created) = ts
        .post("/api/play-computer", json!({"board": "two_player"}))
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(
        created["table"]["seats"][1]["name"], "bot:normal",
        "{created}"
    );
    for level in ["beginner", "normal", "expert", "master"] {
        let (status, created) = ts
            .post(
                "/api/play-computer",
                json!({"board": "two_player", "bot": level}),
            )
            .await;
        assert_eq!(status, 201, "{created}");
        let id = created["table"]["id"].as_str().unwrap().to_string();
        let token = created["token"].as_str().unwrap().to_string();
        let mut c = join(&ts, &id, Some(&token), None).await;
        c.send(&json!({"type": "deploy", "layout": layout(3)}))
            .await
            .unwrap();
        // We move, and the level answers: our next turn comes after its move.
        let legal = wait_turn(&mut c).await;
        c.send(&json!({"type": "act", "action": legal[0]}))
            .await
            .unwrap();
        let legal = wait_turn(&mut c).await;
        assert!(!legal.is_empty(), "{level}");
        let plies = c
            .log
            .iter()
            .rev()
            .find_map(|f| f["observation"]["plies"].as_u64())
            .unwrap_or(0);
        assert!(plies >= 2, "{level} did not move: {:?}", c.log.last());
    }
}
