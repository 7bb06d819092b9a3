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
    // Every test client is a loopback address: guests are throttled only where a test says.
    config.settings.accounts.guests_per_address = 1_000_000;
    // Seats nobody names a bot for get the fast one-ply heuristic: the default level searches
    // (tens of milliseconds to a second a move), which whole games in these tests do not need.
    // `default_level_is_normal` checks the real default.
    config.settings.default_bot = "heuristic".into();
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
    // Seats nobody names a bot for get the fast one-ply heuristic: the default level searches
    // (tens of milliseconds to a second a move), which whole games in these tests do not need.
    // `default_level_is_normal` checks the real default.
    config.settings.default_bot = "heuristic".into();
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
                let legal = legal_of(&f);
                if !legal.is_empty() {
                    return legal;
                }
            }
            _ => {}
        }
    }
}

/// The legal actions of an observation or sync frame, as text.
pub fn legal_of(f: &Value) -> Vec<String> {
    junqi_server::client::legal_actions(f)
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

/// A person seated at a table: the seat, the connection and the seat token.
pub struct Seated {
    pub seat: Seat,
    pub c: WsClient,
    pub token: String,
}

/// A table created with `body` (`POST /api/tables`; its `seat` is set to `people[0]`, the
/// creator and host) with scripted people at `people` and bots (`bot`) at every other seat,
/// started, deployed (layout seeds from `seed`) and playing. Returns the table id and the
/// people in the order of `people`.
pub async fn seated_table(
    ts: &TestServer,
    mut body: Value,
    people: &[Seat],
    bot: &str,
    seed: u64,
) -> (String, Vec<Seated>) {
    let board: BoardKind = body["board"].as_str().unwrap().parse().unwrap();
    body["seat"] = people[0].into();
    body["bots"] = board
        .seat_range()
        .filter(|s| !people.contains(s))
        .map(|s| json!({"seat": s, "bot": bot}))
        .collect();
    let (st, created) = ts.post("/api/tables", body).await;
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut seated = vec![Seated {
        seat: people[0],
        c: join(ts, &id, Some(&token), None).await,
        token,
    }];
    for &s in &people[1..] {
        let mut c = join(ts, &id, None, None).await;
        c.send(&json!({"type": "take_seat", "seat": s}))
            .await
            .unwrap();
        let w = c
            .recv_until(|f| f["type"] == "welcome" && f["seat"] == s)
            .await
            .unwrap();
        let token = w["token"].as_str().unwrap().to_string();
        seated.push(Seated { seat: s, c, token });
    }
    seated[0].c.send(&json!({"type": "start"})).await.unwrap();
    for p in seated.iter_mut() {
        p.c.recv_until(|f| f["type"] == "sync" && f["status"] == "deploying")
            .await
            .unwrap();
        deploy(&mut p.c, seed * 10 + p.seat as u64).await;
    }
    for p in seated.iter_mut() {
        until_playing(&mut p.c).await;
    }
    (id, seated)
}

/// Every person plays random legal actions (seeded by seat) until the game is over; returns
/// them with their logs.
pub async fn play_all(people: Vec<Seated>, seed: u64) -> Vec<Seated> {
    let mut tasks = Vec::new();
    for mut p in people {
        tasks.push(tokio::spawn(async move {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed * 100 + p.seat as u64);
            // The view already received (the playing sync) may be this seat's turn.
            let mut now =
                p.c.log
                    .iter()
                    .rev()
                    .find(|f| f["type"] == "observation" || f["type"] == "sync")
                    .map(legal_of)
                    .unwrap_or_default();
            loop {
                let legal = if now.is_empty() {
                    wait_turn(&mut p.c).await
                } else {
                    std::mem::take(&mut now)
                };
                if legal.is_empty() {
                    break;
                }
                let a = &legal[rng.gen_range(0..legal.len())];
                p.c.send(&json!({"type": "act", "action": a}))
                    .await
                    .unwrap();
            }
            p
        }));
    }
    let mut done = Vec::new();
    for t in tasks {
        done.push(t.await.unwrap());
    }
    done
}

/// The `game_over` frame a client has received.
pub fn game_over_in(c: &WsClient) -> Value {
    c.log
        .iter()
        .rev()
        .find(|f| f["type"] == "game_over")
        .cloned()
        .expect("a game_over frame")
}

/// The finished game `id` checked from the outside: its `game_over` frame's record replays to
/// the frame's final observation, and the record and replay endpoints give the same record and
/// the same final position. Returns the record.
pub async fn check_finished(ts: &TestServer, id: &str, over: &Value) -> junqi_core::Record {
    use junqi_core::Observer;
    let text = over["record"].as_str().expect("a record");
    let record = junqi_core::Record::from_text(text).expect("the record parses");
    let fin = record.replay().expect("the record replays");
    assert_eq!(
        fin.observe(Observer::Referee).to_json(),
        over["observation"],
        "the record replays to the final observation"
    );
    assert_eq!(
        junqi_core::json::outcome_to_json(fin.outcome()),
        over["outcome"]
    );
    let (st, got) = ts.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(st, 200, "{got}");
    assert_eq!(got.as_str().unwrap(), text);
    let (st, rep) = ts.get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(st, 200, "{rep}");
    let steps = rep["steps"].as_array().unwrap();
    assert_eq!(steps.len(), record.entries.len());
    assert_eq!(rep["outcome"], over["outcome"]);
    let last = steps
        .last()
        .map(|s| s["position"].clone())
        .unwrap_or(rep["start"].clone());
    assert_eq!(
        last,
        fin.observe(Observer::Referee).to_json(),
        "the replay ends on the final position"
    );
    record
}

/// A server in its own runtime on its own thread, so that it can be killed abruptly.
pub struct Killable {
    pub addr: std::net::SocketAddr,
    stop: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

pub fn spawn_server(
    database: Option<String>,
    data_dir: std::path::PathBuf,
    clock: ManualClock,
) -> Killable {
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop, stop_rx) = std::sync::mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let server = rt
            .block_on(junqi_server::start(config(database, data_dir, &clock)))
            .expect("server starts");
        addr_tx.send(server.addr).unwrap();
        let _ = stop_rx.recv();
        // Kill: drop every task wherever it is, no clean shutdown.
        rt.shutdown_background();
    });
    let addr = addr_rx.recv().expect("server address");
    Killable { addr, stop, thread }
}

impl Killable {
    /// Kill the server: every task dropped wherever it is, no clean shutdown.
    pub fn kill(self) {
        let _ = self.stop.send(());
        let _ = self.thread.join();
    }
}

/// Connect to a table with a seat token (and the last version seen).
pub async fn hello(
    addr: std::net::SocketAddr,
    table: &str,
    token: &str,
    last_v: Option<u64>,
) -> WsClient {
    let mut c = WsClient::connect(&format!("ws://{addr}/ws/{table}"))
        .await
        .unwrap();
    let mut h = json!({"type": "hello", "token": token});
    if let Some(v) = last_v {
        h["last_v"] = v.into();
    }
    c.send(&h).await.unwrap();
    c.recv_type("welcome").await.unwrap();
    c
}

/// The last frame of type `kind` this client received (it must have one).
pub fn last_frame(c: &WsClient, kind: &str) -> Value {
    c.log
        .iter()
        .rev()
        .find(|f| f["type"] == kind)
        .cloned()
        .unwrap_or_else(|| panic!("no {kind} frame received"))
}

/// kill -9: the server stops at once; a new one opens the same data directory on the same
/// clock (the connections to the old one are the caller's to drop).
pub async fn restart(ts: TestServer) -> TestServer {
    let clock = ts.clock.clone();
    ts.server.abort();
    let dir = ts.dir;
    let cfg = config(None, dir.as_ref().unwrap().path().to_path_buf(), &clock);
    let server = junqi_server::start(cfg).await.expect("restarts");
    TestServer { server, clock, dir }
}
