//! Shared helpers of the server tests: a server on a free port with a manual clock, scripted
//! clients that play random legal actions.
#![allow(dead_code)]

use junqi_core::{BoardKind, Deployment, Seat};
use junqi_server::client::{http, WsClient};
use junqi_server::{Config, ManualClock, Server};
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::sync::Arc;

pub struct TestServer {
    pub server: Server,
    pub clock: ManualClock,
    pub dir: Option<tempfile::TempDir>,
}

impl TestServer {
    pub fn addr(&self) -> String {
        self.server.addr.to_string()
    }
    pub fn ws_url(&self, table: &str) -> String {
        format!("ws://{}/ws/{table}", self.server.addr)
    }
    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        http(&self.addr(), "POST", path, Some(&body), None)
            .await
            .expect("http")
    }
    pub async fn get(&self, path: &str) -> (u16, Value) {
        http(&self.addr(), "GET", path, None, None)
            .await
            .expect("http")
    }
}

pub const T0: u64 = 1_700_000_000_000;

pub fn config(
    database: Option<String>,
    data_dir: std::path::PathBuf,
    clock: &ManualClock,
) -> Config {
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), data_dir);
    config.database = database;
    config.clock = Arc::new(clock.clone());
    config.settings.rate_per_sec = 1000.0;
    config.settings.rate_burst = 1000.0;
    // Bots answer at once unless a test asks for pacing.
    config.settings.bot_delay_ms = 0;
    config
}

pub async fn start_at(
    database: Option<String>,
    dir: Option<tempfile::TempDir>,
    clock: ManualClock,
) -> TestServer {
    let dir = dir.or_else(|| {
        if database.is_none() {
            Some(tempfile::tempdir().unwrap())
        } else {
            None
        }
    });
    let data_dir = dir
        .as_ref()
        .map(|d| d.path().to_path_buf())
        .unwrap_or_else(|| "/tmp/unused".into());
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), data_dir);
    config.database = database;
    config.clock = Arc::new(clock.clone());
    config.settings.rate_per_sec = 1000.0;
    config.settings.rate_burst = 1000.0;
    config.settings.bot_delay_ms = 0;
    let server = junqi_server::start(config).await.expect("server starts");
    TestServer { server, clock, dir }
}

pub async fn start() -> TestServer {
    start_at(None, None, ManualClock::new(T0)).await
}

/// Connect and say hello with a seat token.
pub async fn join(
    ts: &TestServer,
    table: &str,
    token: Option<&str>,
    last_v: Option<u64>,
) -> WsClient {
    let mut c = WsClient::connect(&ts.ws_url(table))
        .await
        .expect("ws connect");
    let mut hello = json!({"type": "hello"});
    if let Some(t) = token {
        hello["token"] = t.into();
    }
    if let Some(v) = last_v {
        hello["last_v"] = v.into();
    }
    c.send(&hello).await.unwrap();
    let w = c.recv_type("welcome").await.unwrap();
    assert_eq!(w["table"], table);
    c
}

pub fn layout(seed: u64) -> String {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    Deployment::random(&mut rng).to_string()
}

/// Wait until it is our turn (an observation or sync with legal actions) or the game ends.
/// Returns the legal actions (empty when the game is over).
pub async fn wait_turn(c: &mut WsClient) -> Vec<String> {
    loop {
        let f = c.recv().await.expect("frame");
        match f["type"].as_str() {
            Some("game_over") => return vec![],
            Some("observation") | Some("sync") => {
                let legal: Vec<String> = f["observation"]["legal_actions"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                if !legal.is_empty() {
                    return legal;
                }
            }
            _ => {}
        }
    }
}

/// Play random legal actions until the game is over; returns the game_over frame.
pub async fn play_random(c: &mut WsClient, seed: u64) -> Value {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    loop {
        let legal = wait_turn(c).await;
        if legal.is_empty() {
            return c
                .log
                .iter()
                .rev()
                .find(|f| f["type"] == "game_over")
                .cloned()
                .expect("game over frame");
        }
        let a = &legal[rng.gen_range(0..legal.len())];
        c.send(&json!({"type": "act", "action": a})).await.unwrap();
    }
}

pub fn seats(board: BoardKind) -> Seat {
    board.seats() as Seat
}

/// One HTTP response seen by [`http_from`].
pub type Reply = junqi_server::client::HttpReply;

/// One HTTP request to `addr` sent from the loopback address `src` (e.g. `127.0.0.7`: every
/// 127.0.0.0/8 address is this machine), so that tests can play several clients.
pub async fn http_from(
    src: &str,
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    bearer: Option<&str>,
) -> Reply {
    let ip = src.parse().expect("a source address");
    junqi_server::client::request(Some(ip), addr, method, path, body, bearer)
        .await
        .expect("an HTTP answer")
}

/// A server like [`start`] whose configuration `adjust` may change first (settings, limits).
pub async fn start_with(adjust: impl FnOnce(&mut Config)) -> TestServer {
    let clock = ManualClock::new(T0);
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(None, dir.path().to_path_buf(), &clock);
    adjust(&mut config);
    let server = junqi_server::start(config).await.expect("server starts");
    TestServer {
        server,
        clock,
        dir: Some(dir),
    }
}

/// A two-player table between two scripted people, deployed and playing. Returns (id, host
/// client, guest client, host token, guest token).
pub async fn two_people(
    ts: &TestServer,
    move_seconds: u64,
) -> (String, WsClient, WsClient, String, String) {
    let (st, created) = ts
        .post(
            "/api/tables",
            json!({"board": "two_player", "move_seconds": move_seconds, "seat": 0}),
        )
        .await;
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let code = created["table"]["code"].as_str().unwrap().to_string();
    let t0 = created["token"].as_str().unwrap().to_string();
    // The join code finds the table.
    let (st, by_code) = ts.get(&format!("/api/join/{}", code.to_lowercase())).await;
    assert_eq!(st, 200);
    assert_eq!(by_code["id"], id);
    let mut a = join(ts, &id, Some(&t0), None).await;
    let mut b = join(ts, &id, None, None).await;
    b.send(&json!({"type": "take_seat", "seat": 1, "name": "Bob"}))
        .await
        .unwrap();
    let w = b.recv_type("welcome").await.unwrap();
    assert_eq!(w["seat"], 1);
    let t1 = w["token"].as_str().unwrap().to_string();
    // Only the host starts.
    b.send(&json!({"type": "start", "id": "s"})).await.unwrap();
    let e = b.recv_type("error").await.unwrap();
    assert!(e["reason"].as_str().unwrap().contains("host"), "{e}");
    a.send(&json!({"type": "start"})).await.unwrap();
    a.recv_until(|f| f["type"] == "sync" && f["status"] == "deploying")
        .await
        .unwrap();
    deploy(&mut a, 1).await;
    deploy(&mut b, 2).await;
    until_playing(&mut a).await;
    until_playing(&mut b).await;
    (id, a, b, t0, t1)
}

/// Send the layout [`layout`]`(seed)` as this seat's deployment.
pub async fn deploy(c: &mut WsClient, seed: u64) {
    c.send(&json!({"type": "deploy", "layout": layout(seed)}))
        .await
        .unwrap();
}

/// The sync frame that says the game is playing.
pub async fn until_playing(c: &mut WsClient) -> Value {
    c.recv_until(|f| f["type"] == "sync" && f["status"] == "playing")
        .await
        .unwrap()
}

/// Deploy [`layout`]`(seed)` and wait for play (a seat whose others are bots, or the last to
/// deploy): the playing sync frame.
pub async fn deploy_and_play(c: &mut WsClient, seed: u64) -> Value {
    deploy(c, seed).await;
    until_playing(c).await
}

/// The first legal action of an observation or sync frame.
pub fn first_legal(f: &Value) -> String {
    f["observation"]["legal_actions"][0]
        .as_str()
        .expect("a legal action")
        .to_string()
}
