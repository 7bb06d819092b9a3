//! Cluster mode from outside: real `junqi serve` processes on one PostgreSQL database (a fresh
//! database per test) and a real `nats-server` on loopback. Games whose players sit on
//! different nodes, and nodes killed with SIGKILL in the middle of games: every game resumes on
//! another node, and no action the server acknowledged is lost or stored twice.
//!
//! Needs `JUNQI_TEST_POSTGRES_URL` (a role that may create databases; `.ci/postgres.sh`) and
//! `nats-server` on the PATH or in /usr/sbin (Debian's package; `scripts/test` installs it).
//! Without them the tests say so and skip, except under CI (`CI` set), where they fail.

use junqi_server::client::{http, legal_actions as legal_of, WsClient};
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A child process killed when dropped.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// What a cluster test needs, or `None` (skipped) where the machine lacks it.
struct World {
    _nats: Proc,
    nats_url: String,
    db_url: String,
}

fn nats_binary() -> Option<String> {
    [
        "nats-server",
        "/usr/sbin/nats-server",
        "/usr/bin/nats-server",
    ]
    .iter()
    .find(|p| {
        Command::new(p)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok()
    })
    .map(|p| p.to_string())
}

fn skip(why: &str) -> Option<World> {
    if std::env::var_os("CI").is_some() {
        panic!("cluster tests need {why}");
    }
    println!("NOTICE: {why} missing: the cluster test is skipped");
    None
}

async fn world() -> Option<World> {
    let Ok(base) = std::env::var("JUNQI_TEST_POSTGRES_URL") else {
        return skip("JUNQI_TEST_POSTGRES_URL");
    };
    let Some(bin) = nats_binary() else {
        return skip("nats-server");
    };
    let port = free_port();
    let nats = Proc(
        Command::new(bin)
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start nats-server"),
    );
    wait_for_port(port).await;
    // A database of its own: the nodes take over every unfinished table they find.
    let name = format!("junqi_cluster_{}", rand::random::<u32>());
    let admin = junqi_server::db::Db::open(&base)
        .await
        .expect("open the test database");
    admin
        .fetch(&format!("CREATE DATABASE {name}"), vec![])
        .await
        .expect("create a database (the role needs CREATEDB: .ci/postgres.sh grants it)");
    admin.close().await;
    let db_url = match base.rfind('/') {
        Some(i) => format!("{}/{name}", &base[..i]),
        None => panic!("a database URL ends with /name: {base}"),
    };
    Some(World {
        _nats: nats,
        nats_url: format!("nats://127.0.0.1:{port}"),
        db_url,
    })
}

async fn wait_for_port(port: u16) {
    let until = Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(Instant::now() < until, "nothing listens on port {port}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `JUNQI_CLUSTER_LOG_DIR`: the nodes log at info level to `<dir>/<node>.log` (appended
/// across restarts), to follow a table from node to node; otherwise nowhere.
fn node_log(name: &str) -> Stdio {
    match std::env::var_os("JUNQI_CLUSTER_LOG_DIR") {
        Some(dir) => std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(std::path::Path::new(&dir).join(format!("{name}.log")))
            .expect("open the node's log")
            .into(),
        None => Stdio::null(),
    }
}

/// With `JUNQI_CLUSTER_LOG_DIR` set, say what the test saw (with the time, to match against
/// the nodes' logs).
fn trace(what: std::fmt::Arguments) {
    if std::env::var_os("JUNQI_CLUSTER_LOG_DIR").is_some() {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        eprintln!("{:.3} {what}", now.as_secs_f64());
    }
}

fn log_level() -> &'static str {
    match std::env::var_os("JUNQI_CLUSTER_LOG_DIR") {
        Some(_) => "info",
        None => "warn",
    }
}

/// One `junqi serve` node.
struct Node {
    proc: Option<Proc>,
    addr: String,
}

impl Node {
    async fn start(w: &World, name: &str, addr: Option<String>) -> Node {
        Node::start_limited(w, name, addr, "1000", "10000").await
    }

    /// A node with these frame and table-creation rates per address.
    async fn start_limited(
        w: &World,
        name: &str,
        addr: Option<String>,
        rate: &str,
        tables_per_minute: &str,
    ) -> Node {
        let addr = addr.unwrap_or_else(|| format!("127.0.0.1:{}", free_port()));
        let child = Command::new(env!("CARGO_BIN_EXE_junqi"))
            .args([
                "serve",
                "--addr",
                &addr,
                "--database",
                &w.db_url,
                "--nats",
                &w.nats_url,
                "--node",
                name,
                "--lease-ms",
                "2000",
                "--bot-delay-ms",
                "0",
                "--rate",
                rate,
                "--max-connections-per-address",
                "10000",
                "--guests-per-hour",
                "1000000",
                "--tables-per-minute",
                tables_per_minute,
                "--default-bot",
                "heuristic",
            ])
            .env("RUST_LOG", log_level())
            .stdout(node_log(name))
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start junqi serve");
        let node = Node {
            proc: Some(Proc(child)),
            addr,
        };
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok((200, _)) = http(&node.addr, "GET", "/api/info", None, None).await {
                break;
            }
            assert!(Instant::now() < until, "node {name} did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        node
    }

    /// SIGKILL: no goodbye, no lease let go.
    fn kill(&mut self) {
        self.proc.take();
    }

    fn ws(&self, table: &str) -> String {
        format!("ws://{}/ws/{table}", self.addr)
    }
}

/// A seated player: its connection (through any node), what it has seen, what was acked.
struct Player {
    table: String,
    token: String,
    ws: Option<WsClient>,
    /// The version of the last `events` frame seen.
    last_v: u64,
    /// Every action the server acknowledged, with the version before it was sent.
    acked: Vec<String>,
    legal: Vec<String>,
    over: Option<Value>,
    /// The entries of the `events` frames seen, in order (from version `first_v` + 1).
    entries: Vec<String>,
    first_v: Option<u64>,
    /// The action sent whose answer has not come yet, with its `action_id`: resent with the
    /// same id after a reconnection until it is answered (applied at most once).
    pending: Option<(String, String)>,
    /// Actions sent so far (the next `action_id`).
    sent: usize,
    /// Resends answered as repeats: the first send had been applied, its ack lost.
    repeats: usize,
    /// Hellos refused with `table.not_found` (for a table that exists: never right).
    not_found: usize,
    /// Hellos answered `table.unavailable` (retryable).
    unavailable: usize,
    rng: rand::rngs::SmallRng,
    /// The node it connected through last.
    via: String,
}

impl Player {
    fn new(table: &str, token: &str, seed: u64) -> Player {
        Player {
            table: table.into(),
            token: token.into(),
            ws: None,
            last_v: 0,
            acked: Vec::new(),
            legal: Vec::new(),
            over: None,
            entries: Vec::new(),
            first_v: None,
            pending: None,
            sent: 0,
            repeats: 0,
            not_found: 0,
            unavailable: 0,
            rng: rand::rngs::SmallRng::seed_from_u64(seed),
            via: String::new(),
        }
    }

    /// Connect (again) through the node at `addr`, saying what it already has.
    async fn connect(&mut self, addr: &str) -> Result<(), String> {
        let mut ws = WsClient::connect(&format!("ws://{addr}/ws/{}", self.table)).await?;
        let mut hello = json!({"type": "hello", "token": self.token});
        // Once it has a view (even of version 0), it asks for what it missed, not a new view.
        if self.first_v.is_some() {
            hello["last_v"] = self.last_v.into();
        }
        ws.send(&hello).await?;
        self.ws = Some(ws);
        self.via = addr.to_string();
        Ok(())
    }

    /// Read one frame and note what it says; `Err` if the connection ended.
    async fn read(&mut self) -> Result<Value, String> {
        let ws = self.ws.as_mut().ok_or("not connected")?;
        let f = tokio::time::timeout(Duration::from_secs(15), ws.recv())
            .await
            .map_err(|_| "no frame for 15 s".to_string())??;
        match f["type"].as_str() {
            Some("events") => {
                let v = f["v"].as_u64().expect("events frames carry v");
                // Versions come in order, each once, across reconnects and moves of the table.
                assert_eq!(v, self.last_v + 1, "events out of order: {f}");
                self.last_v = v;
                self.entries
                    .push(f["entry"].as_str().unwrap_or_default().to_string());
            }
            Some("sync") => {
                // A full view: at the first connection from where the game is, later (the
                // game starts, a reconnection) never past an event this client has not seen.
                let v = f["v"].as_u64().unwrap_or(0);
                match self.first_v {
                    None => {
                        self.first_v = Some(v);
                        self.last_v = v;
                    }
                    Some(_) => assert_eq!(v, self.last_v, "a sync skipped events: {f}"),
                }
                self.legal = legal_of(&f);
            }
            Some("observation") => self.legal = legal_of(&f),
            Some("game_over") => self.over = Some(f.clone()),
            Some("error") if f["code"] == "table.not_found" => self.not_found += 1,
            Some("error") if f["code"] == "table.unavailable" => self.unavailable += 1,
            _ => {}
        }
        Ok(f)
    }
}

/// Make one move: wait for our turn, act with an `action_id`, wait for its ack (or error).
/// `Err` if the connection ended on the way; the action is then resent with the same id on
/// the next call (after a reconnection) until the server answers it, even once the game is
/// over (the move may have ended it).
async fn one_move(p: &mut Player) -> Result<(), String> {
    loop {
        let (a, action_id) = match p.pending.clone() {
            Some(pending) => pending,
            None if p.over.is_some() => return Ok(()),
            None if !p.legal.is_empty() => {
                let a = p.legal[p.rng.gen_range(0..p.legal.len())].clone();
                p.legal.clear();
                let action_id = format!("m{}", p.sent);
                p.sent += 1;
                p.pending = Some((a.clone(), action_id.clone()));
                (a, action_id)
            }
            None => {
                p.read().await?;
                continue;
            }
        };
        let ws = p.ws.as_mut().ok_or("not connected")?;
        ws.send(&json!({"type": "act", "action": a, "action_id": action_id, "id": action_id}))
            .await?;
        loop {
            let f = p.read().await?;
            if f["type"] == "ack" && f["action_id"] == json!(action_id) {
                p.pending = None;
                p.acked.push(a);
                if f["repeat"] == true {
                    p.repeats += 1;
                }
                return Ok(());
            }
            if f["type"] == "error" && f["id"] == json!(action_id) {
                // Refused (not stored): the next observation says what to do.
                p.pending = None;
                return Ok(());
            }
        }
    }
}

/// A game against the computer created through `node`: the person's seat token and the table.
async fn play_computer(node: &Node) -> (String, String) {
    try_play_computer(&node.addr).await.unwrap()
}

/// A game against the computer created through the node at `addr`: the table and the seat
/// token, or what went wrong.
async fn try_play_computer(addr: &str) -> Result<(String, String), String> {
    let body = json!({"board": "two_player", "bot": "heuristic"});
    match http(addr, "POST", "/api/play-computer", Some(&body), None).await? {
        (201, v) => Ok((
            v["table"]["id"].as_str().unwrap().to_string(),
            v["token"].as_str().unwrap().to_string(),
        )),
        (st, v) => Err(format!("{st}: {v}")),
    }
}

/// Over a new connection to `node`, say hello and send `n` pings at once (n + 1 frames); the
/// answers (pongs, rate-limit refusals), until there are `n` of them or two seconds passed.
async fn pings(node: &Node, table: &str, n: usize) -> (usize, usize) {
    let mut ws = WsClient::connect(&node.ws(table)).await.unwrap();
    ws.send(&json!({"type": "hello"})).await.unwrap();
    for i in 0..n {
        ws.send(&json!({"type": "ping", "t": i})).await.unwrap();
    }
    let (mut pongs, mut limited) = (0, 0);
    let until = tokio::time::Instant::now() + Duration::from_secs(2);
    while pongs + limited < n {
        let Ok(Ok(f)) = tokio::time::timeout_at(until, ws.recv()).await else {
            break;
        };
        match f["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") if f["code"] == "request.rate_limited" => limited += 1,
            _ => {}
        }
    }
    (pongs, limited)
}

/// Deploy a random layout once the deployment phase shows.
async fn deploy(p: &mut Player, seed: u64) -> Result<(), String> {
    let layout =
        junqi_core::Deployment::random(&mut rand::rngs::SmallRng::seed_from_u64(seed)).to_string();
    let ws = p.ws.as_mut().ok_or("not connected")?;
    ws.send(&json!({"type": "deploy", "layout": layout, "id": "d"}))
        .await?;
    loop {
        let f = p.read().await?;
        if f["id"] == "d" && (f["type"] == "ack" || f["type"] == "error") {
            return Ok(());
        }
    }
}

/// An address's rate budgets are one over the cluster: what it spent on one node, the others
/// count too (frames and table creations alike).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_budgets_are_shared_by_the_nodes() {
    let Some(w) = world().await else { return };
    // Two frames a second (bursts of four) and three tables a minute per address.
    let a = Node::start_limited(&w, "a", None, "2", "3").await;
    let b = Node::start_limited(&w, "b", None, "2", "3").await;
    let mut table = String::new();
    for _ in 0..3 {
        table = play_computer(&a).await.0;
    }
    // The usage reaches the other node within a report interval (250 ms).
    tokio::time::sleep(Duration::from_millis(700)).await;
    let (st, v) = http(
        &b.addr,
        "POST",
        "/api/play-computer",
        Some(&json!({"board": "two_player"})),
        None,
    )
    .await
    .unwrap();
    assert_eq!(
        st, 429,
        "a fourth table within the minute, through the other node: {v}"
    );
    assert_eq!(v["code"], "request.rate_limited");

    assert_eq!(pings(&a, &table, 3).await, (3, 0), "one burst on node a");
    tokio::time::sleep(Duration::from_millis(500)).await;
    // Node b alone would take four more frames; counting a's usage, at most what refilled since.
    let (pongs, limited) = pings(&b, &table, 3).await;
    assert!(
        limited >= 1,
        "node b answered {pongs} of 3 pings after a's burst"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_on_different_nodes_play_one_game() {
    let Some(w) = world().await else { return };
    let a_node = Node::start(&w, "alpha", None).await;
    let b_node = Node::start(&w, "beta", None).await;
    let (st, created) = http(
        &a_node.addr,
        "POST",
        "/api/tables",
        Some(&json!({"board": "two_player", "seat": 0})),
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 201, "{created}");
    let id = created["table"]["id"].as_str().unwrap().to_string();
    // The table runs on alpha; beta answers for it too.
    let (st, summary) = http(
        &b_node.addr,
        "GET",
        &format!("/api/tables/{id}"),
        None,
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{summary}");
    assert_eq!(summary["id"], json!(id));
    let mut host = Player::new(&id, created["token"].as_str().unwrap(), 1);
    host.connect(&a_node.addr).await.unwrap();
    // The guest reaches the table through beta and sits down.
    let mut ws = WsClient::connect(&b_node.ws(&id)).await.unwrap();
    ws.send(&json!({"type": "hello"})).await.unwrap();
    ws.recv_type("welcome").await.unwrap();
    ws.send(&json!({"type": "take_seat", "seat": 1, "name": "Bob"}))
        .await
        .unwrap();
    let welcome = ws.recv_type("welcome").await.unwrap();
    assert_eq!(welcome["seat"], 1, "{welcome}");
    let mut guest = Player::new(&id, welcome["token"].as_str().unwrap(), 2);
    guest.ws = Some(ws);
    host.ws
        .as_mut()
        .unwrap()
        .send(&json!({"type": "start"}))
        .await
        .unwrap();
    deploy(&mut host, 11).await.unwrap();
    deploy(&mut guest, 12).await.unwrap();
    let mut moves = 0;
    while host.over.is_none() || guest.over.is_none() {
        // Whoever may move moves; the other reads until its turn comes.
        let (mover, other) = if host.legal.is_empty() && guest.legal.is_empty() {
            tokio::select! {
                r = host.read() => { r.unwrap(); continue; }
                r = guest.read() => { r.unwrap(); continue; }
            }
        } else if !host.legal.is_empty() {
            (&mut host, &mut guest)
        } else {
            (&mut guest, &mut host)
        };
        let _ = other;
        one_move(mover).await.unwrap();
        moves += 1;
        if moves > 4000 {
            // Random games end by the quiet-move rule long before this.
            panic!("the game did not end");
        }
        if host.over.is_some() && guest.over.is_none() {
            guest.read().await.unwrap();
        } else if guest.over.is_some() && host.over.is_none() {
            host.read().await.unwrap();
        }
    }
    assert_eq!(
        host.over.as_ref().unwrap()["outcome"],
        guest.over.as_ref().unwrap()["outcome"]
    );
    assert_eq!(host.last_v, guest.last_v, "both saw every event");
    let steps = replay_steps(&b_node, &id).await;
    assert_eq!(steps.len() as u64, host.last_v);
    assert_eq!(moves_of(&steps, 0), host.acked);
    assert_eq!(moves_of(&steps, 1), guest.acked);
}

/// The entries of a finished game's replay (`"<seat> <entry>"`), in order.
async fn replay_steps(node: &Node, table: &str) -> Vec<String> {
    let (st, v) = http(
        &node.addr,
        "GET",
        &format!("/api/games/{table}/replay"),
        None,
        None,
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{v}");
    v["steps"]
        .as_array()
        .expect("a replay has steps")
        .iter()
        .map(|s| s["entry"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The moves seat `seat` made, from replay entries.
fn moves_of(steps: &[String], seat: u8) -> Vec<String> {
    let prefix = format!("{seat} ");
    steps
        .iter()
        .filter_map(|e| e.strip_prefix(&prefix))
        .filter(|a| a.len() <= 7 && a.contains('-'))
        .map(String::from)
        .collect()
}

/// The nodes of a cluster under test, which a killer kills and starts again while games go on.
type Nodes = Arc<tokio::sync::Mutex<Vec<Node>>>;

/// The addresses of the nodes alive now.
async fn live(nodes: &Nodes) -> Vec<String> {
    let nodes = nodes.lock().await;
    nodes
        .iter()
        .filter(|n| n.proc.is_some())
        .map(|n| n.addr.clone())
        .collect()
}

/// Run `step` on `p`, reconnecting through the live nodes as long as it takes (at most a
/// minute). Returns when the game was first out of reach on the way, if it was.
async fn with_reconnect<F>(p: &mut Player, nodes: &Nodes, mut step: F) -> Option<Instant>
where
    F: for<'a> FnMut(
        &'a mut Player,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<(), String>> + Send + 'a>,
    >,
{
    let mut lost_at: Option<Instant> = None;
    let mut k = p.rng.gen_range(0..3usize);
    loop {
        match step(p).await {
            Ok(()) => return lost_at,
            Err(e) => {
                let t = *lost_at.get_or_insert_with(Instant::now);
                trace(format_args!(
                    "table {} (last through {}): {e}",
                    p.table, p.via
                ));
                assert!(
                    t.elapsed() < Duration::from_secs(60),
                    "table {} out of reach for a minute: {e}",
                    p.table
                );
                p.ws = None;
                tokio::time::sleep(Duration::from_millis(100)).await;
                k += 1;
                let live = live(nodes).await;
                if !live.is_empty() {
                    let _ = p.connect(&live[k % live.len()]).await;
                }
            }
        }
    }
}

/// Create a game against the computer through some live node, and deploy in it.
async fn new_game(nodes: &Nodes, seed: u64) -> Player {
    let until = Instant::now() + Duration::from_secs(60);
    let (id, token) = loop {
        assert!(Instant::now() < until, "no node would create a game");
        let live = live(nodes).await;
        if let Some(addr) = live.get(seed as usize % live.len().max(1)) {
            if let Ok(game) = try_play_computer(addr).await {
                break game;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let mut p = Player::new(&id, &token, seed);
    with_reconnect(&mut p, nodes, |p| Box::pin(deploy(p, seed))).await;
    p
}

/// Every game's stored record holds exactly the entries its player saw, and every move the
/// server acknowledged, in order.
async fn check_games(players: &[Player], node: &Node) {
    for p in players {
        let steps = replay_steps(node, &p.table).await;
        let from = p.first_v.unwrap_or(0) as usize;
        assert_eq!(steps[from..], p.entries[..], "table {}", p.table);
        // Every action was answered (resent by id until it was), and the acknowledged moves
        // are exactly the stored moves, in order: none lost, none stored twice.
        assert!(
            p.pending.is_none(),
            "table {}: an action never answered",
            p.table
        );
        assert_eq!(moves_of(&steps, 0), p.acked, "table {}", p.table);
    }
}

/// A counter of a node's `/metrics` (0 when absent).
async fn metric(node: &Node, name: &str) -> f64 {
    let (_, body) = http(&node.addr, "GET", "/metrics", None, None)
        .await
        .expect("metrics");
    body.as_str()
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
        .unwrap_or(0.0)
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What a game lived through: the player, and for each time it lost its node, from when (the
/// kill before) to its next move accepted.
struct Played {
    player: Player,
    outages: Vec<Duration>,
}

/// Play games one after another until `stop`, each move after `think_ms`; every time a move
/// needs a reconnection, the time from the last kill before it to the move accepted.
async fn keep_playing(
    nodes: Nodes,
    kills: Arc<std::sync::Mutex<Vec<Instant>>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
    seed: u64,
    think_ms: u64,
) -> Vec<Played> {
    let mut games = Vec::new();
    let mut n = 0;
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let mut p = new_game(&nodes, seed * 1_000 + n).await;
        n += 1;
        let mut outages = Vec::new();
        while p.over.is_none() || p.pending.is_some() {
            if think_ms > 0 {
                let t = p.rng.gen_range(think_ms / 2..=think_ms * 3 / 2);
                tokio::time::sleep(Duration::from_millis(t)).await;
            }
            if let Some(lost) = with_reconnect(&mut p, &nodes, |p| Box::pin(one_move(p))).await {
                let killed = kills
                    .lock()
                    .unwrap()
                    .iter()
                    .rev()
                    .find(|k| **k <= lost)
                    .copied();
                outages.push(killed.unwrap_or(lost).elapsed());
            }
        }
        games.push(Played { player: p, outages });
    }
    games
}

/// Three nodes; games against the computer, each played through a node other than its
/// table's, many at once, while the nodes are killed in turn (SIGKILL) and started again. Every
/// game resumes on a live node and ends with a record that holds every acknowledged move once.
/// `JUNQI_CLUSTER_KILLS`, `JUNQI_CLUSTER_GAMES` (games at once), `JUNQI_CLUSTER_THINK_MS` and
/// `JUNQI_CLUSTER_KILL_EVERY_MS` make it longer and heavier.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_nodes_games_resume_elsewhere() {
    let Some(w) = world().await else { return };
    let kills = env_usize("JUNQI_CLUSTER_KILLS", 3);
    let games = env_usize("JUNQI_CLUSTER_GAMES", 6);
    let think_ms = env_usize("JUNQI_CLUSTER_THINK_MS", 20) as u64;
    let every = Duration::from_millis(env_usize("JUNQI_CLUSTER_KILL_EVERY_MS", 4_000) as u64);
    let names = ["n0", "n1", "n2"];
    let mut list = Vec::new();
    for n in names {
        list.push(Node::start(&w, n, None).await);
    }
    let nodes: Nodes = Arc::new(tokio::sync::Mutex::new(list));
    let kill_times = Arc::new(std::sync::Mutex::new(Vec::new()));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    // What the nodes counted, read from each before it is killed and from all at the end.
    let (mut takes, mut double_takes) = (0.0, 0.0);
    let players: Vec<_> = (0..games as u64)
        .map(|i| {
            tokio::spawn(keep_playing(
                nodes.clone(),
                kill_times.clone(),
                stop.clone(),
                100 + i,
                think_ms,
            ))
        })
        .collect();
    for k in 0..kills {
        tokio::time::sleep(every).await;
        let victim = k % 3;
        kill_times.lock().unwrap().push(Instant::now());
        let addr = {
            let mut nodes = nodes.lock().await;
            takes += metric(&nodes[victim], "junqi_cluster_takes_total").await;
            double_takes += metric(&nodes[victim], "junqi_cluster_double_takes_total").await;
            nodes[victim].kill();
            trace(format_args!("killed {}", names[victim]));
            nodes[victim].addr.clone()
        };
        // Down for a while: its tables go to the others, its clients reconnect elsewhere.
        tokio::time::sleep(every / 2).await;
        let node = Node::start(&w, names[victim], Some(addr)).await;
        nodes.lock().await[victim] = node;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut played = Vec::new();
    for p in players {
        played.extend(p.await.expect("a game task failed"));
    }
    let mut outages: Vec<Duration> = played.iter().flat_map(|p| p.outages.clone()).collect();
    outages.sort();
    let moves: usize = played.iter().map(|p| p.player.acked.len()).sum();
    for n in nodes.lock().await.iter() {
        takes += metric(n, "junqi_cluster_takes_total").await;
        double_takes += metric(n, "junqi_cluster_double_takes_total").await;
    }
    let sum = |f: fn(&Player) -> usize| played.iter().map(|p| f(&p.player)).sum::<usize>();
    let (not_found, unavailable, repeats) = (
        sum(|p| p.not_found),
        sum(|p| p.unavailable),
        sum(|p| p.repeats),
    );
    println!(
        "tables taken over or loaded: {takes}, twice on one node: {double_takes}; hellos refused as not found: {not_found}, as unavailable: {unavailable}; actions resent after a lost ack and answered as repeats: {repeats}"
    );
    let at =
        |q: f64| outages.get(((outages.len() as f64 * q) as usize).min(outages.len().max(1) - 1));
    println!(
        "{kills} kills, {games} games at once ({} played, {moves} moves acknowledged): {} times a game lost its node; moving again after the kill: median {:?}, p90 {:?}, p99 {:?}, max {:?}; over 5 s: {}",
        played.len(),
        outages.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        outages.last(),
        outages.iter().filter(|d| d.as_secs() >= 5).count()
    );
    assert!(!outages.is_empty(), "no game was ever on a killed node");
    assert_eq!(
        double_takes, 0.0,
        "a node took a table it was already running"
    );
    assert!(takes > 0.0, "the nodes counted their takes");
    assert_eq!(
        not_found, 0,
        "hellos for tables that exist refused as not found"
    );
    let node = nodes.lock().await;
    let players: Vec<Player> = played.into_iter().map(|p| p.player).collect();
    check_games(&players, &node[0]).await;
}

/// The `ExecStart` command of a systemd unit in `deploy/systemd/`, `${VAR}`s replaced from
/// `vars`, the binary path replaced by the one under test.
fn exec_start(unit: &str, vars: &[(String, String)]) -> Vec<String> {
    let path = format!("{}/../../deploy/systemd/{unit}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("read the unit");
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("ExecStart="))
        .expect("the unit has an ExecStart");
    let mut words: Vec<String> = line
        .split_whitespace()
        .map(|w| {
            vars.iter().fold(w.to_string(), |w, (k, v)| {
                w.replace(&format!("${{{k}}}"), v)
            })
        })
        .collect();
    assert!(
        words.iter().all(|w| !w.contains("${")),
        "a variable of {unit} has no value: {words:?}"
    );
    assert_eq!(words[0], "/usr/local/bin/junqi");
    words[0] = env!("CARGO_BIN_EXE_junqi").to_string();
    words
}

/// `node.env.example`'s variables, with `overrides` in place of the example's values.
fn example_env(overrides: &[(&str, String)]) -> Vec<(String, String)> {
    let path = format!(
        "{}/../../deploy/systemd/node.env.example",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("read node.env.example");
    let mut vars = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains('='))
    {
        let (k, v) = line.split_once('=').unwrap();
        let k = k.trim();
        let v = overrides
            .iter()
            .find(|(o, _)| *o == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| v.trim().to_string());
        vars.push((k.to_string(), v));
    }
    vars
}

/// Start a command line of a service file and wait until `/readyz` says ready; the process.
async fn ready(words: &[String], addr: &str) -> Proc {
    let child = Command::new(&words[0])
        .args(&words[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the service's command");
    let proc = Proc(child);
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok((200, v)) = http(addr, "GET", "/readyz", None, None).await {
            assert_eq!(v["ok"], true, "{v}");
            return proc;
        }
        assert!(Instant::now() < until, "{words:?} never became ready");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The example service files of `deploy/systemd/` start what they say: a single server on its
/// own SQLite database, and a cluster node whose readiness includes NATS.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn example_service_files_start_a_server_and_a_node() {
    let Some(w) = world().await else { return };
    let data = tempfile::tempdir().unwrap();
    let addr = format!("127.0.0.1:{}", free_port());
    let mut single = exec_start("junqi.service", &[]);
    for word in single.iter_mut() {
        if word == "127.0.0.1:8080" {
            *word = addr.clone();
        } else if word == "/var/lib/junqi" {
            *word = data.path().display().to_string();
        }
    }
    let _single = ready(&single, &addr).await;
    assert!(data.path().join("junqi.sqlite3").exists());

    let addr = format!("127.0.0.1:{}", free_port());
    let vars = example_env(&[
        ("JUNQI_ADDR", addr.clone()),
        ("JUNQI_DATABASE", w.db_url.clone()),
        ("JUNQI_NATS", w.nats_url.clone()),
    ]);
    let node = exec_start("junqi-node.service", &vars);
    let _node = ready(&node, &addr).await;
    let (_, v) = http(&addr, "GET", "/readyz", None, None).await.unwrap();
    assert_eq!(v["checks"]["nats"], "ok", "{v}");
}
