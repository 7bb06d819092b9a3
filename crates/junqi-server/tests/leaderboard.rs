//! `GET /api/leaderboard` (docs/server-protocol.md, "Leaderboard"): rated players of one board
//! and mode, best first, with their ranks (军衔) from the rating; guests not listed; provisional
//! ratings marked; wins, losses and draws from real games; strict query parsing.

mod common;
use common::*;
use junqi_server::db::{Arg, Db};
use serde_json::{json, Value};

/// The server's own database, opened beside it (SQLite in WAL mode takes a second connection).
async fn open_db(ts: &TestServer) -> Db {
    let dir = ts.dir.as_ref().expect("a data directory").path();
    let url = format!(
        "sqlite://{}",
        junqi_server::datadir::database_path(dir).display()
    );
    Db::open(&url).await.expect("the server's database opens")
}

/// A player row and its rating in `category`, written straight into the database, so that the
/// ratings (and so the ranks) are exactly the ones the test needs.
async fn rated(db: &Db, id: &str, guest: bool, category: &str, rating: f64, rd: f64, games: i64) {
    db.write(vec![
        (
            "INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms) \
             VALUES ($1, $2, $3, NULL, $4, 0) ON CONFLICT DO NOTHING",
            vec![
                id.into(),
                id.into(),
                format!("key:{id}").into(),
                Arg::I(guest as i64),
            ],
        ),
        (
            "INSERT INTO junqi_ratings (player_id, category, rating, rd, vol, games) \
             VALUES ($1, $2, $3, $4, 0.06, $5)",
            vec![
                id.into(),
                category.into(),
                rating.into(),
                rd.into(),
                games.into(),
            ],
        ),
    ])
    .await
    .expect("written");
}

fn names(board: &Value) -> Vec<&str> {
    board["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_players_in_order_with_their_ranks() {
    let ts = start().await;
    let db = open_db(&ts).await;
    rated(&db, "zhao", false, "two_player/dark", 2300.0, 50.0, 40).await;
    rated(&db, "qian", false, "two_player/dark", 1500.0, 200.0, 3).await;
    rated(&db, "sun", false, "two_player/dark", 1100.0, 90.0, 30).await;
    rated(&db, "li", false, "two_player/dark", 1960.0, 80.0, 25).await;
    // A guest is rated but not listed, whatever its rating.
    rated(&db, "guest-1", true, "two_player/dark", 2500.0, 40.0, 50).await;
    // Other categories are other leaderboards.
    rated(&db, "zhou", false, "two_player/flip", 1700.0, 60.0, 12).await;
    rated(&db, "wu", false, "four_player/half_open", 1810.0, 100.0, 9).await;

    let (st, b) = ts.get("/api/leaderboard?board=two_player&mode=dark").await;
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["board"], "two_player");
    assert_eq!(b["mode"], "dark");
    assert_eq!(b["total"], 4, "{b}");
    assert_eq!(names(&b), ["zhao", "li", "qian", "sun"]);
    let titles: Vec<&str> = b["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["marshal", "major_general", "major", "engineer"]);
    let ranks: Vec<i64> = b["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rank"].as_i64().unwrap())
        .collect();
    assert_eq!(ranks, [1, 2, 3, 4]);
    let zhao = &b["players"][0];
    assert_eq!(zhao["id"], "zhao");
    assert_eq!(zhao["rating"], 2300.0);
    assert_eq!(zhao["rd"], 50.0);
    assert_eq!(zhao["games"], 40);
    assert_eq!(zhao["provisional"], false);
    assert_eq!(zhao["bot"], false);
    for k in ["wins", "losses", "draws"] {
        assert_eq!(zhao[k], 0, "{k}: {zhao}");
    }
    // A high deviation is provisional.
    assert_eq!(b["players"][2]["provisional"], true);

    // Pages: the ranks go on where the page starts.
    let (st, p) = ts
        .get("/api/leaderboard?board=two_player&mode=dark&limit=2&offset=1")
        .await;
    assert_eq!(st, 200, "{p}");
    assert_eq!(names(&p), ["li", "qian"]);
    assert_eq!(p["players"][0]["rank"], 2);
    assert_eq!(p["total"], 4);
    let (_, past) = ts.get("/api/leaderboard?offset=10").await;
    assert_eq!(past["players"], json!([]));
    assert_eq!(past["total"], 4);

    // The defaults are the two-player dark board; other categories list their own players.
    let (_, d) = ts.get("/api/leaderboard").await;
    assert_eq!(names(&d), ["zhao", "li", "qian", "sun"]);
    let (_, flip) = ts.get("/api/leaderboard?mode=flip").await;
    assert_eq!(names(&flip), ["zhou"]);
    assert_eq!(flip["players"][0]["title"], "colonel");
    let (_, four) = ts
        .get("/api/leaderboard?board=four_player&mode=half_open")
        .await;
    assert_eq!(names(&four), ["wu"]);
    assert_eq!(four["players"][0]["title"], "brigadier");
    let (_, empty) = ts.get("/api/leaderboard?board=four_player&mode=open").await;
    assert_eq!(empty["total"], 0);

    // The player page gives the same rank per category.
    let (st, page) = ts.get("/api/players/li").await;
    assert_eq!(st, 200, "{page}");
    assert_eq!(page["ratings"][0]["category"], "two_player/dark");
    assert_eq!(page["ratings"][0]["title"], "major_general");
    assert_eq!(page["ratings"][0]["provisional"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_parameters_are_refused_by_name() {
    let ts = start().await;
    for (query, param) in [
        ("board=five_player", "board"),
        ("mode=half_open&board=three_player", "mode"),
        ("board=", "board"),
        ("mode=flip&board=four_player", "mode"),
        ("mode=half_open", "mode"),
        ("mode=Dark", "mode"),
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=ten", "limit"),
        ("limit=-5", "limit"),
        ("offset=-1", "offset"),
        ("offset=1.5", "offset"),
        ("sort=rating", "sort"),
    ] {
        let (st, body) = ts.get(&format!("/api/leaderboard?{query}")).await;
        assert_eq!(st, 400, "{query}: {body}");
        assert_eq!(body["code"], "request.bad_query", "{query}: {body}");
        assert_eq!(body["args"]["param"], param, "{query}: {body}");
        let text = body["error"].as_str().unwrap();
        assert!(text.contains(param), "{query}: {text}");
    }
    // The edges of the range are accepted.
    for query in [
        "limit=1",
        "limit=100",
        "offset=0",
        "board=four_player&mode=half_open",
    ] {
        let (st, body) = ts.get(&format!("/api/leaderboard?{query}")).await;
        assert_eq!(st, 200, "{query}: {body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_game_puts_its_players_on_the_board_with_their_results() {
    let ts = start().await;
    let (st, reg) = ts
        .post(
            "/api/register",
            json!({"name": "alice", "password": "a long password"}),
        )
        .await;
    assert_eq!(st, 200, "{reg}");
    let session = reg["session"].as_str().unwrap().to_string();
    let (st, created) = junqi_server::client::http(
        &ts.addr(),
        "POST",
        "/api/play-computer",
        Some(&json!({"board": "two_player", "resign_after_seconds": 0, "bot": "random"})),
        Some(&session),
    )
    .await
    .unwrap();
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap();
    let mut c = join(&ts, id, created["token"].as_str(), None).await;
    c.send(&json!({"type": "deploy", "layout": layout(4)}))
        .await
        .unwrap();
    c.recv_until(|f| f["type"] == "table" && f["table"]["status"] == "playing")
        .await
        .unwrap();
    c.send(&json!({"type": "resign"})).await.unwrap();
    c.recv_type("game_over").await.unwrap();
    // Ratings are written by a task after the game: wait for them.
    let mut board = Value::Null;
    for _ in 0..100 {
        let (_, b) = ts.get("/api/leaderboard").await;
        // Both players listed (the count and the page are two queries: wait for both).
        if b["total"] == 2 && b["players"].as_array().is_some_and(|p| p.len() == 2) {
            board = b;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(board["total"], 2, "{board}");
    // The winner (the bot) first. Two new players (1500 ± 350) move some 162 points in one game:
    // the winner to 1662 (团长, colonel), the loser to 1338 (排长, lieutenant).
    let bot = &board["players"][0];
    assert_eq!(bot["id"], "bot:random", "{board}");
    assert_eq!(bot["bot"], true);
    assert_eq!(
        (bot["wins"].clone(), bot["losses"].clone()),
        (json!(1), json!(0))
    );
    assert_eq!(bot["title"], "colonel");
    let alice = &board["players"][1];
    assert_eq!(alice["name"], "alice");
    assert_eq!(alice["games"], 1);
    assert_eq!(
        (
            alice["wins"].clone(),
            alice["losses"].clone(),
            alice["draws"].clone()
        ),
        (json!(0), json!(1), json!(0))
    );
    assert!(alice["rating"].as_f64().unwrap() < 1500.0, "{alice}");
    assert_eq!(alice["title"], "lieutenant");
    assert_eq!(alice["provisional"], true);
}

/// The ratings of a category, by player id, once `n` players have one (the rating task writes
/// them after the game).
async fn ratings_in(
    db: &Db,
    category: &str,
    n: usize,
) -> std::collections::HashMap<String, (f64, f64, f64, i64)> {
    for _ in 0..200 {
        let rows = db
            .fetch(
                "SELECT player_id, rating, rd, vol, games FROM junqi_ratings WHERE category = $1",
                vec![category.into()],
            )
            .await
            .unwrap();
        if rows.len() >= n {
            return rows
                .iter()
                .map(|r| {
                    use junqi_server::db::{col_f64, col_i64, col_str};
                    (
                        col_str(r, 0),
                        (col_f64(r, 1), col_f64(r, 2), col_f64(r, 3), col_i64(r, 4)),
                    )
                })
                .collect();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("{category}: fewer than {n} ratings");
}

/// The player ids by seat of a table.
async fn player_ids(ts: &TestServer, id: &str) -> Vec<String> {
    let (_, t) = ts.get(&format!("/api/tables/{id}")).await;
    t["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"]["id"].as_str().unwrap().to_string())
        .collect()
}

/// People at every seat of `board` resign in `order` (the last seat left wins); then each
/// player's rating must be one Glicko-2 period against every other seat, scored 1, 0 or ½ by
/// placing (`placing`, by seat, 1 = first).
async fn free_for_all(board: &str, options: Value, order: &[usize], placing: &[u32]) {
    use junqi_server::rating::{update, Rating};
    let ts = start().await;
    let db = open_db(&ts).await;
    let n = placing.len();
    let seats: Vec<u8> = (0..n as u8).collect();
    let (id, mut people) = seated_table(
        &ts,
        json!({"board": board, "options": options, "move_seconds": 0, "resign_after_seconds": 0}),
        &seats,
        "random",
        7,
    )
    .await;
    let ids = player_ids(&ts, &id).await;
    for &s in order {
        people[s].c.send(&json!({"type": "resign"})).await.unwrap();
        people[0]
            .c
            .recv_until(|f| f["type"] == "events" && f["entry"] == format!("resign {s}"))
            .await
            .unwrap();
    }
    let winner = (0..n).find(|s| !order.contains(s)).unwrap();
    let over = people[winner].c.recv_type("game_over").await.unwrap();
    assert_eq!(over["outcome"]["winners"], json!([winner]), "{over}");
    let category = format!("{board}/dark");
    let got = ratings_in(&db, &category, n).await;
    let d = Rating::default();
    let score = |a: u32, b: u32| match a.cmp(&b) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Greater => 0.0,
        std::cmp::Ordering::Equal => 0.5,
    };
    for s in 0..n {
        let results: Vec<(Rating, f64)> = (0..n)
            .filter(|&o| o != s)
            .map(|o| (d, score(placing[s], placing[o])))
            .collect();
        let want = update(d, &results);
        let (rating, rd, vol, games) = got[&ids[s]];
        assert!(
            (rating - want.rating).abs() < 1e-6,
            "seat {s}: {rating} want {want:?}"
        );
        assert!((rd - want.rd).abs() < 1e-6, "seat {s}: {rd} want {want:?}");
        assert!((vol - want.vol).abs() < 1e-9, "seat {s}");
        assert_eq!(games, 1);
    }
    // Better placed, higher rated.
    let mut by_place: Vec<usize> = (0..n).collect();
    by_place.sort_by_key(|&s| placing[s]);
    for w in by_place.windows(2) {
        let (a, b) = (got[&ids[w[0]]].0, got[&ids[w[1]]].0);
        assert!(a > b, "placed {} above {}: {a} > {b}", w[0], w[1]);
    }
    // The leaderboard of the board answers (guests are rated but not listed).
    let (st, b) = ts
        .get(&format!("/api/leaderboard?board={board}&mode=dark"))
        .await;
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["total"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_three_player_game_rates_each_player_against_the_other_two_by_placing() {
    // 1 resigns, then 2: 0 first, 2 second, 1 third.
    free_for_all("three_player", json!({}), &[1, 2], &[1, 3, 2]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_six_player_free_for_all_rates_pairwise_by_placing() {
    // Out in the order 3, 1, 5, 0, 2: 4 first, then 2, 0, 5, 1 and 3 last.
    free_for_all(
        "six_player",
        json!({"teams": "none"}),
        &[3, 1, 5, 0, 2],
        &[3, 5, 2, 6, 1, 4],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_six_player_team_game_rates_against_the_enemy_team() {
    use junqi_server::rating::{team, update, Rating};
    let ts = start().await;
    let db = open_db(&ts).await;
    let seats: Vec<u8> = (0..6).collect();
    let (id, mut people) = seated_table(
        &ts,
        json!({"board": "six_player", "move_seconds": 0, "resign_after_seconds": 0}),
        &seats,
        "random",
        8,
    )
    .await;
    let ids = player_ids(&ts, &id).await;
    // {1, 3, 5} resign one by one: {0, 2, 4} wins.
    for s in [1, 3, 5] {
        people[s].c.send(&json!({"type": "resign"})).await.unwrap();
    }
    let over = people[0].c.recv_type("game_over").await.unwrap();
    assert_eq!(over["outcome"]["winners"], json!([0, 2, 4]), "{over}");
    let got = ratings_in(&db, "six_player/dark", 6).await;
    let d = Rating::default();
    let enemy = team(&[d, d, d]);
    let win = update(d, &[(enemy, 1.0)]);
    let loss = update(d, &[(enemy, 0.0)]);
    for s in 0..6 {
        let want = if s % 2 == 0 { win } else { loss };
        assert!((got[&ids[s]].0 - want.rating).abs() < 1e-6, "seat {s}");
    }
}
