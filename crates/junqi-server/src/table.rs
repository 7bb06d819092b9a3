//! A table: one tokio task (an actor) that owns the seats, the game and the clocks. Commands
//! come in on a channel; no lock is held across an await. Every accepted entry is written to the
//! database before anyone is told of it.

use crate::app::{random_token, App, Player, RatingJob};
use crate::db::{col_i64, col_opt_i64, col_opt_str, col_str, Stmt};
use crate::protocol::{ack_frame, error_frame, ClientMsg};
use axum::extract::ws::Utf8Bytes;
use junqi_ai::{Bot, Budget};
use junqi_core::json::outcome_to_json;
use junqi_core::record::outcome_to_text;
use junqi_core::types::partner;
use junqi_core::{
    action_from_text, action_to_text, event::Event, BoardKind, Deployment, Entry, Game, Mode,
    Observer, Options, Outcome, Record, Rules, Seat,
};
use rand::SeedableRng;
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// The outgoing queue of one connection.
pub(crate) type Out = mpsc::Sender<Utf8Bytes>;

/// Resignation is refused in the first 90 s of play (RULES §10).
pub const RESIGN_WINDOW_MS: u64 = 90_000;
/// A disconnected seat has 60 s to come back (RULES §10).
pub const RETURN_WINDOW_MS: u64 = 60_000;
/// The default move clock.
pub const DEFAULT_MOVE_MS: u64 = 30_000;
/// The default deployment clock.
pub const DEFAULT_DEPLOY_MS: u64 = 180_000;

/// A command to a table actor.
pub(crate) enum Cmd {
    Hello {
        conn: u64,
        tx: Out,
        player: Option<Player>,
        token: Option<String>,
        last_v: Option<u64>,
    },
    Msg {
        conn: u64,
        msg: ClientMsg,
        id: Option<Value>,
    },
    Closed {
        conn: u64,
    },
    BotDone {
        seat: Seat,
        bot: Box<dyn Bot>,
        action: Result<junqi_core::Action, String>,
        v: u64,
    },
}

/// A live table as the registry holds it.
#[derive(Clone)]
pub(crate) struct TableHandle {
    pub tx: mpsc::Sender<Cmd>,
    pub summary: Arc<Mutex<Value>>,
}

/// A table's settings.
#[derive(Clone, Debug)]
pub struct TableConfig {
    /// Board, mode and options.
    pub rules: Rules,
    /// Move clock (0: none).
    pub move_ms: u64,
    /// Deployment clock (0: none).
    pub deploy_ms: u64,
    /// Four-player: a bot takes a leaver's seat instead of aborting the game.
    pub leaver_bot: bool,
    /// Kept out of the lobby list.
    pub private: bool,
    /// Display name.
    pub name: String,
    /// Resignation is refused for this long after play starts (RULES §10: 90 s).
    pub resign_ms: u64,
}

impl TableConfig {
    fn to_json(&self) -> Value {
        let r = &self.rules;
        json!({
            "board": r.board.name(), "mode": r.mode.name(),
            "options": Value::Object(r.options.to_json(r.board, r.mode)),
            "move_ms": self.move_ms, "deploy_ms": self.deploy_ms,
            "leaver_bot": self.leaver_bot, "private": self.private, "name": self.name,
            "resign_ms": self.resign_ms,
        })
    }

    fn from_json(v: &Value) -> Result<TableConfig, String> {
        let board: BoardKind = v["board"].as_str().unwrap_or("").parse()?;
        let mode: Mode = v["mode"].as_str().unwrap_or("").parse()?;
        let options = Options::from_json(board, mode, v.get("options"))?;
        Ok(TableConfig {
            rules: Rules::new(board, mode, options)?,
            move_ms: v["move_ms"].as_u64().unwrap_or(DEFAULT_MOVE_MS),
            deploy_ms: v["deploy_ms"].as_u64().unwrap_or(DEFAULT_DEPLOY_MS),
            leaver_bot: v["leaver_bot"].as_bool().unwrap_or(false),
            private: v["private"].as_bool().unwrap_or(false),
            name: v["name"].as_str().unwrap_or("").to_string(),
            resign_ms: v["resign_ms"].as_u64().unwrap_or(RESIGN_WINDOW_MS),
        })
    }
}

/// Where a table is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Seats are being filled.
    Waiting,
    /// Seats submit layouts.
    Deploying,
    /// The game is on.
    Playing,
    /// The game is over.
    Over,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Deploying => "deploying",
            Status::Playing => "playing",
            Status::Over => "over",
        }
    }
    fn from_name(s: &str) -> Status {
        match s {
            "deploying" => Status::Deploying,
            "playing" => Status::Playing,
            "over" => Status::Over,
            _ => Status::Waiting,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum SeatKind {
    Empty,
    Human { player: Player, name: String },
    Bot { bot: String },
}

#[derive(Clone, Debug)]
struct SeatState {
    kind: SeatKind,
    token: Option<String>,
    layout: Option<Deployment>,
}

impl SeatState {
    fn empty() -> SeatState {
        SeatState {
            kind: SeatKind::Empty,
            token: None,
            layout: None,
        }
    }
    fn to_json(&self) -> Value {
        let layout = self.layout.map(|d| d.to_string());
        match &self.kind {
            SeatKind::Empty => json!({"kind": "empty"}),
            SeatKind::Human { player, name } => {
                json!({"kind": "human", "player": player.to_json(), "name": name, "token": self.token, "layout": layout})
            }
            SeatKind::Bot { bot } => json!({"kind": "bot", "bot": bot, "layout": layout}),
        }
    }
    fn from_json(v: &Value) -> SeatState {
        let layout = v["layout"]
            .as_str()
            .and_then(|t| Deployment::from_text(t).ok());
        let token = v["token"].as_str().map(String::from);
        let kind = match v["kind"].as_str() {
            Some("human") => SeatKind::Human {
                player: Player {
                    id: v["player"]["id"].as_str().unwrap_or("").into(),
                    name: v["player"]["name"].as_str().unwrap_or("").into(),
                    guest: v["player"]["guest"].as_bool().unwrap_or(true),
                },
                name: v["name"].as_str().unwrap_or("").into(),
            },
            Some("bot") => SeatKind::Bot {
                bot: v["bot"].as_str().unwrap_or("random").into(),
            },
            _ => SeatKind::Empty,
        };
        SeatState {
            kind,
            token,
            layout,
        }
    }
    fn display_name(&self) -> Option<String> {
        match &self.kind {
            SeatKind::Empty => None,
            SeatKind::Human { name, .. } => Some(name.clone()),
            SeatKind::Bot { bot } => Some(format!("bot:{bot}")),
        }
    }
}

/// The display names by seat of a persisted seats list (for game lists).
pub(crate) fn seat_names(seats: &Value) -> Vec<Value> {
    seats
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| {
                    SeatState::from_json(s)
                        .display_name()
                        .map_or(Value::Null, Value::from)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The player ids by seat of a persisted seats list (bots: `bot:<name>`).
pub(crate) fn seat_player_ids(seats: &Value) -> Vec<Value> {
    seats
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| match SeatState::from_json(s).kind {
                    SeatKind::Human { player, .. } => Value::from(player.id),
                    SeatKind::Bot { bot } => Value::from(format!("bot:{bot}")),
                    SeatKind::Empty => Value::Null,
                })
                .collect()
        })
        .unwrap_or_default()
}

struct Conn {
    tx: Out,
    seat: Option<Seat>,
    player: Option<Player>,
}

/// A bot owned by the table (a mutex only to make the table `Sync`; never contended).
struct BotCell(Mutex<Box<dyn Bot>>);

impl BotCell {
    fn new(b: Box<dyn Bot>) -> BotCell {
        BotCell(Mutex::new(b))
    }
    fn get(&mut self) -> &mut Box<dyn Bot> {
        match self.0.get_mut() {
            Ok(b) => b,
            Err(e) => e.into_inner(),
        }
    }
    fn into_inner(self) -> Box<dyn Bot> {
        match self.0.into_inner() {
            Ok(b) => b,
            Err(e) => e.into_inner(),
        }
    }
}

struct BotSlot {
    bot: Option<BotCell>,
    pending: Vec<Event>,
}

struct DrawOffer {
    by: Seat,
    accepted: BTreeSet<Seat>,
}

/// What a table needs to be created.
#[derive(Clone, Debug)]
pub struct TableSpec {
    /// Settings.
    pub config: TableConfig,
    /// The creator's seat (the host).
    pub seat: Seat,
    /// Bots to seat at once: (seat, bot name).
    pub bots: Vec<(Seat, String)>,
    /// Start at once (play the computer).
    pub start: bool,
}

pub(crate) struct Table {
    app: Arc<App>,
    id: String,
    code: String,
    config: TableConfig,
    host_seat: Seat,
    created_ms: u64,
    status: Status,
    seats: Vec<SeatState>,
    game: Option<Game>,
    /// The `events` frames, index v - 1.
    frames: Vec<Utf8Bytes>,
    play_started_ms: u64,
    deploy_deadline: Option<u64>,
    turn_deadline: Option<u64>,
    gone: Vec<Option<u64>>,
    draw: Option<DrawOffer>,
    bots: Vec<Option<BotSlot>>,
    conns: HashMap<u64, Conn>,
    summary: Arc<Mutex<Value>>,
    tx: mpsc::Sender<Cmd>,
    rx: Option<mpsc::Receiver<Cmd>>,
    finished_recorded: bool,
}

fn text(v: Value) -> Utf8Bytes {
    Utf8Bytes::from(v.to_string())
}

impl Table {
    fn blank(
        app: Arc<App>,
        id: String,
        code: String,
        config: TableConfig,
        host_seat: Seat,
        created_ms: u64,
    ) -> Table {
        let n = config.rules.seats();
        let (tx, rx) = mpsc::channel(1024);
        Table {
            app,
            id,
            code,
            config,
            host_seat,
            created_ms,
            status: Status::Waiting,
            seats: vec![SeatState::empty(); n],
            game: None,
            frames: Vec::new(),
            play_started_ms: 0,
            deploy_deadline: None,
            turn_deadline: None,
            gone: vec![None; n],
            draw: None,
            bots: (0..n).map(|_| None).collect(),
            conns: HashMap::new(),
            summary: Arc::new(Mutex::new(Value::Null)),
            tx,
            rx: Some(rx),
            finished_recorded: false,
        }
    }

    fn handle(&self) -> TableHandle {
        TableHandle {
            tx: self.tx.clone(),
            summary: self.summary.clone(),
        }
    }

    fn v(&self) -> u64 {
        self.frames.len() as u64
    }

    fn now(&self) -> u64 {
        self.app.now()
    }

    // ----------------------------------------------------------------------------------------
    // Views

    fn summary_json(&self) -> Value {
        let mut connected = vec![false; self.seats.len()];
        let mut spectators = 0;
        for c in self.conns.values() {
            match c.seat {
                Some(s) => connected[s as usize] = true,
                None => spectators += 1,
            }
        }
        let seats: Vec<Value> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let kind = match s.kind {
                    SeatKind::Empty => "empty",
                    SeatKind::Human { .. } => "human",
                    SeatKind::Bot { .. } => "bot",
                };
                let conn = matches!(s.kind, SeatKind::Bot { .. }) || connected[i];
                let player = match &s.kind {
                    SeatKind::Human { player, .. } => player.to_json(),
                    _ => Value::Null,
                };
                json!({"seat": i, "kind": kind, "name": s.display_name(), "connected": conn, "player": player})
            })
            .collect();
        let r = &self.config.rules;
        json!({
            "id": self.id, "code": self.code, "name": self.config.name,
            "board": r.board.name(), "mode": r.mode.name(),
            "options": Value::Object(r.options.to_json(r.board, r.mode)),
            "status": self.status.name(), "host_seat": self.host_seat, "created_ms": self.created_ms,
            "seats": seats, "spectators": spectators,
            "plies": self.game.as_ref().map_or(0, |g| g.position().plies()),
            "move_seconds": self.config.move_ms / 1000, "deploy_seconds": self.config.deploy_ms / 1000,
            "resign_after_seconds": self.config.resign_ms / 1000,
            "private": self.config.private,
        })
    }

    fn refresh_summary(&self) {
        let s = self.summary_json();
        if let Ok(mut g) = self.summary.lock() {
            *g = s;
        }
    }

    fn table_frame(&self) -> Value {
        let deployed: Option<Vec<bool>> = (self.status == Status::Deploying)
            .then(|| self.seats.iter().map(|s| s.layout.is_some()).collect());
        let draw = self
            .draw
            .as_ref()
            .map(|d| json!({"by": d.by, "accepted": d.accepted}));
        json!({
            "type": "table", "table": self.summary_json(), "deployed": deployed, "draw_offer": draw,
            "clock": {"move_seconds": self.config.move_ms / 1000, "deploy_seconds": self.config.deploy_ms / 1000,
                      "resign_after_seconds": self.config.resign_ms / 1000,
                      "started_ms": (self.play_started_ms > 0).then_some(self.play_started_ms)},
        })
    }

    fn observer_of(&self, seat: Option<Seat>) -> Observer {
        if self.status == Status::Over {
            return Observer::Referee;
        }
        match seat {
            Some(s) => Observer::Seat(s),
            None => Observer::Public,
        }
    }

    fn observation_json(&self, observer: Observer) -> Value {
        let Some(g) = &self.game else {
            return Value::Null;
        };
        let obs = g.position().observe(observer);
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

    fn clock_json(&self) -> Value {
        let to_move = self.game.as_ref().map(|g| g.position().to_move());
        let remaining = match (self.turn_deadline, self.status) {
            (Some(d), Status::Playing) => Value::from(d.saturating_sub(self.now())),
            _ => Value::Null,
        };
        json!({"to_move": to_move, "remaining_ms": remaining, "move_ms": self.config.move_ms})
    }

    fn sync_frame(&self, seat: Option<Seat>) -> Value {
        let deploy = (self.status == Status::Deploying).then(|| {
            json!({
                "remaining_ms": self.deploy_deadline.map(|d| d.saturating_sub(self.now())),
                "layout": seat.and_then(|s| self.seats[s as usize].layout.map(|d| d.to_string())),
                "board": self.config.rules.board.name(),
            })
        });
        json!({
            "type": "sync", "status": self.status.name(), "v": self.v(),
            "observation": self.observation_json(self.observer_of(seat)),
            "clock": self.clock_json(), "deploy": deploy,
            "outcome": outcome_to_json(self.game.as_ref().and_then(|g| g.position().outcome())),
        })
    }

    fn game_over_frame(&self) -> Value {
        let Some(g) = &self.game else {
            return Value::Null;
        };
        json!({
            "type": "game_over", "v": self.v(), "outcome": outcome_to_json(g.position().outcome()),
            "record": g.record().to_text(), "observation": self.observation_json(Observer::Referee),
        })
    }

    // ----------------------------------------------------------------------------------------
    // Sending

    fn send(&mut self, conn: u64, frame: Utf8Bytes) {
        let full = match self.conns.get(&conn) {
            Some(c) => c.tx.try_send(frame).is_err(),
            None => false,
        };
        if full {
            // A client that does not read is dropped; it reconnects and gets what it missed.
            self.drop_conn(conn);
        }
    }

    fn send_json(&mut self, conn: u64, v: Value) {
        self.send(conn, text(v));
    }

    fn error(&mut self, conn: u64, reason: &str, id: Option<&Value>) {
        self.send(conn, Utf8Bytes::from(error_frame(reason, id)));
    }

    fn broadcast(&mut self, frame: Utf8Bytes) {
        let ids: Vec<u64> = self.conns.keys().copied().collect();
        for c in ids {
            self.send(c, frame.clone());
        }
    }

    fn broadcast_table(&mut self) {
        self.refresh_summary();
        let f = text(self.table_frame());
        self.broadcast(f);
    }

    /// Each connection's view after a change: its observation (computed once per observer).
    fn broadcast_observations(&mut self) {
        let mut cache: Vec<(Observer, Utf8Bytes)> = Vec::new();
        let clock = self.clock_json();
        let ids: Vec<(u64, Option<Seat>)> = self.conns.iter().map(|(&k, c)| (k, c.seat)).collect();
        for (conn, seat) in ids {
            let observer = self.observer_of(seat);
            let frame = match cache.iter().find(|(o, _)| *o == observer) {
                Some((_, f)) => f.clone(),
                None => {
                    let f = text(json!({"type": "observation", "v": self.v(),
                        "observation": self.observation_json(observer), "clock": clock}));
                    cache.push((observer, f.clone()));
                    f
                }
            };
            self.send(conn, frame);
        }
    }

    fn broadcast_sync(&mut self) {
        let ids: Vec<(u64, Option<Seat>)> = self.conns.iter().map(|(&k, c)| (k, c.seat)).collect();
        for (conn, seat) in ids {
            let f = self.sync_frame(seat);
            self.send_json(conn, f);
        }
    }

    fn drop_conn(&mut self, conn: u64) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        if let Some(seat) = c.seat {
            let still_here = self.conns.values().any(|o| o.seat == Some(seat));
            let human = matches!(self.seats[seat as usize].kind, SeatKind::Human { .. });
            let in_game = self
                .game
                .as_ref()
                .is_some_and(|g| !g.position().is_eliminated(seat));
            if !still_here && human && self.status == Status::Playing && in_game {
                self.gone[seat as usize] = Some(self.now() + RETURN_WINDOW_MS);
                let f = text(
                    json!({"type": "presence", "seat": seat, "connected": false, "return_ms": RETURN_WINDOW_MS}),
                );
                self.broadcast(f);
            }
        }
        self.refresh_summary();
    }

    // ----------------------------------------------------------------------------------------
    // Persistence

    fn seats_json(&self) -> String {
        Value::Array(self.seats.iter().map(SeatState::to_json).collect()).to_string()
    }

    fn save_seats_stmt(&self) -> Stmt {
        (
            "UPDATE junqi_tables SET seats = $1, status = $2 WHERE id = $3",
            vec![
                self.seats_json().into(),
                self.status.name().into(),
                self.id.as_str().into(),
            ],
        )
    }

    async fn save_seats(&self) -> Result<(), String> {
        self.app.db.write(vec![self.save_seats_stmt()]).await
    }

    // ----------------------------------------------------------------------------------------
    // Life cycle

    /// Create a table (persisted), seat its creator, and start it if asked.
    pub(crate) async fn create(
        app: Arc<App>,
        spec: TableSpec,
        creator: Player,
    ) -> Result<(TableHandle, Value, String), String> {
        let n = spec.config.rules.seats();
        if spec.seat as usize >= n {
            return Err(format!(
                "seat {} does not exist on the {} board",
                spec.seat, spec.config.rules.board
            ));
        }
        let now = app.now();
        let mut last_err = String::new();
        for _ in 0..5 {
            let mut t = Table::blank(
                app.clone(),
                app.new_table_id(),
                app.new_code(),
                spec.config.clone(),
                spec.seat,
                now,
            );
            let token = random_token(16);
            let name = creator.name.clone();
            t.seats[spec.seat as usize] = SeatState {
                kind: SeatKind::Human {
                    player: creator.clone(),
                    name,
                },
                token: Some(token.clone()),
                layout: None,
            };
            for (seat, bot) in &spec.bots {
                if (*seat as usize) < n && *seat != spec.seat {
                    t.seats[*seat as usize].kind = SeatKind::Bot { bot: bot.clone() };
                }
            }
            let insert: Stmt = (
                "INSERT INTO junqi_tables (id, code, name, config, host_seat, status, seats, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                vec![
                    t.id.as_str().into(),
                    t.code.as_str().into(),
                    t.config.name.as_str().into(),
                    t.config.to_json().to_string().into(),
                    (t.host_seat as i64).into(),
                    t.status.name().into(),
                    t.seats_json().into(),
                    (now as i64).into(),
                ],
            );
            if let Err(e) = app.db.write(vec![insert]).await {
                last_err = e;
                continue;
            }
            if spec.start {
                t.start().await?;
            }
            t.refresh_summary();
            let summary = t.summary_json();
            let handle = t.spawn();
            return Ok((handle, summary, token));
        }
        Err(format!("could not create the table: {last_err}"))
    }

    fn spawn(self) -> TableHandle {
        let handle = self.handle();
        self.app
            .register_table(&self.id, &self.code, handle.clone());
        self.refresh_summary();
        tokio::spawn(async move { self.run().await });
        handle
    }

    async fn run(mut self) {
        let Some(mut rx) = self.rx.take() else { return };
        // Bots to move right away (a reloaded game, or a bot that moves first).
        self.maybe_start_bot();
        loop {
            let sleep = match self.next_deadline() {
                Some(d) => self.app.clock.sleep_until(d),
                None => Box::pin(std::future::pending()),
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(c) => self.handle_cmd(c).await,
                    None => break,
                },
                _ = sleep => self.on_time().await,
            }
            if self.status == Status::Over && self.conns.is_empty() && !self.bot_thinking() {
                break;
            }
        }
        self.app.unregister_table(&self.id, &self.code);
    }

    fn bot_thinking(&self) -> bool {
        self.bots
            .iter()
            .any(|b| b.as_ref().is_some_and(|s| s.bot.is_none()))
    }

    fn next_deadline(&self) -> Option<u64> {
        let mut d: Option<u64> = None;
        let mut consider = |x: Option<u64>| {
            if let Some(x) = x {
                d = Some(d.map_or(x, |y: u64| y.min(x)));
            }
        };
        match self.status {
            Status::Deploying => consider(self.deploy_deadline),
            Status::Playing => {
                consider(self.turn_deadline);
                for g in &self.gone {
                    consider(*g);
                }
            }
            _ => {}
        }
        d
    }

    async fn on_time(&mut self) {
        let now = self.now();
        match self.status {
            Status::Deploying if self.deploy_deadline.is_some_and(|d| d <= now) => {
                self.deploy_deadline = None;
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(rand::random());
                for s in 0..self.seats.len() {
                    if self.seats[s].layout.is_none() {
                        self.seats[s].layout = Some(Deployment::random(&mut rng));
                        self.broadcast(text(json!({"type": "deployed", "seat": s})));
                    }
                }
                let _ = self.save_seats().await;
                self.begin_play().await;
            }
            Status::Playing => {
                for seat in 0..self.gone.len() {
                    if self.gone[seat].is_some_and(|d| d <= now) {
                        self.gone[seat] = None;
                        self.seat_gone(seat as Seat).await;
                        if self.status != Status::Playing {
                            return;
                        }
                    }
                }
                if self.turn_deadline.is_some_and(|d| d <= now) {
                    self.turn_deadline = None;
                    let seat = self
                        .game
                        .as_ref()
                        .map(|g| g.position().to_move())
                        .unwrap_or(0);
                    if let Err(e) = self.commit(Entry::Timeout { seat }).await {
                        tracing::warn!(table = %self.id, "timeout refused: {e}");
                    }
                }
            }
            _ => {}
        }
    }

    /// Leave the waiting room: bots deploy, people get the deployment clock (flip: play at once).
    async fn start(&mut self) -> Result<(), String> {
        if self.seats.iter().any(|s| s.kind == SeatKind::Empty) {
            return Err("every seat must be taken (by a person or a bot) to start".into());
        }
        self.make_bots();
        if self.config.rules.is_flip() {
            self.begin_play().await;
            return Ok(());
        }
        self.status = Status::Deploying;
        self.deploy_deadline =
            (self.config.deploy_ms > 0).then(|| self.now() + self.config.deploy_ms);
        for s in 0..self.seats.len() {
            if let Some(slot) = self.bots[s].as_mut() {
                if let Some(bot) = slot.bot.as_mut() {
                    let rules = self.config.rules;
                    let layout = bot
                        .get()
                        .deploy()
                        .ok()
                        .filter(|d| d.validate(rules.board, s as Seat).is_ok())
                        .unwrap_or_else(|| {
                            Deployment::random(&mut rand_chacha::ChaCha8Rng::seed_from_u64(
                                rand::random(),
                            ))
                        });
                    self.seats[s].layout = Some(layout);
                }
            }
        }
        self.save_seats().await?;
        if self.seats.iter().all(|s| s.layout.is_some()) {
            self.begin_play().await;
        }
        Ok(())
    }

    fn make_bots(&mut self) {
        for s in 0..self.seats.len() {
            if let SeatKind::Bot { bot } = &self.seats[s].kind {
                if self.bots[s].is_none() {
                    let factory =
                        junqi_ai::bot_by_name(bot).or_else(|| junqi_ai::bot_by_name("random"));
                    if let Some(f) = factory {
                        let mut b = f();
                        b.new_game(&self.config.rules, s as Seat, rand::random());
                        self.bots[s] = Some(BotSlot {
                            bot: Some(BotCell::new(b)),
                            pending: Vec::new(),
                        });
                    }
                }
            }
        }
    }

    async fn begin_play(&mut self) {
        let rules = self.config.rules;
        let game = if rules.is_flip() {
            Game::new_dealt(
                rules,
                self.host_seat,
                &mut rand_chacha::ChaCha8Rng::seed_from_u64(rand::random()),
            )
        } else {
            let layouts: Vec<Deployment> = self.seats.iter().filter_map(|s| s.layout).collect();
            Game::new_from_deployments(rules, &layouts, self.host_seat)
        };
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                tracing::error!(table = %self.id, "cannot start: {e}");
                return;
            }
        };
        let now = self.now();
        let header = game.record().to_text();
        self.game = Some(game);
        self.status = Status::Playing;
        self.play_started_ms = now;
        self.deploy_deadline = None;
        let w = self
            .app
            .db
            .write(vec![(
                "UPDATE junqi_tables SET status = $1, header = $2, started_ms = $3, seats = $4 WHERE id = $5",
                vec![
                    "playing".into(),
                    header.into(),
                    (now as i64).into(),
                    self.seats_json().into(),
                    self.id.as_str().into(),
                ],
            )])
            .await;
        if let Err(e) = w {
            tracing::error!(table = %self.id, "cannot store the start: {e}");
        }
        self.start_turn_clock();
        for s in 0..self.seats.len() {
            let human = matches!(self.seats[s].kind, SeatKind::Human { .. });
            if human && !self.conns.values().any(|c| c.seat == Some(s as Seat)) {
                self.gone[s] = Some(now + RETURN_WINDOW_MS);
            }
        }
        self.bots_observe(&[]);
        self.broadcast_table();
        self.broadcast_sync();
        self.maybe_start_bot();
    }

    fn start_turn_clock(&mut self) {
        self.turn_deadline = (self.config.move_ms > 0 && self.status == Status::Playing)
            .then(|| self.now() + self.config.move_ms);
    }

    fn bots_observe(&mut self, events: &[Event]) {
        let Some(g) = &self.game else { return };
        for (s, slot) in self.bots.iter_mut().enumerate() {
            let Some(slot) = slot else { continue };
            match slot.bot.as_mut() {
                Some(bot) => {
                    let obs = g.position().observe(Observer::Seat(s as Seat));
                    bot.get().observe(events, &obs);
                }
                None => slot.pending.extend_from_slice(events),
            }
        }
    }

    fn maybe_start_bot(&mut self) {
        if self.status != Status::Playing {
            return;
        }
        let Some(g) = &self.game else { return };
        let pos = g.position();
        if pos.is_over() {
            return;
        }
        let seat = pos.to_move();
        let Some(slot) = self.bots[seat as usize].as_mut() else {
            return;
        };
        let Some(bot) = slot.bot.take() else { return };
        let mut bot = bot.into_inner();
        let obs = pos.observe(Observer::Seat(seat));
        let v = self.frames.len() as u64;
        let tx = self.tx.clone();
        let budget = Budget::Iterations(self.app.settings.bot_iterations);
        tokio::task::spawn_blocking(move || {
            let action = bot.choose(&obs, budget).map_err(|e| e.0);
            let _ = tx.blocking_send(Cmd::BotDone {
                seat,
                bot,
                action,
                v,
            });
        });
    }

    /// Apply an entry: persist it, then tell everybody.
    async fn commit(&mut self, entry: Entry) -> Result<(), String> {
        let Some(game) = self.game.as_mut() else {
            return Err("the game has not started".into());
        };
        let events = game.apply(entry).map_err(|e| e.to_string())?;
        let topo = game.record().topology();
        let entry_text = entry.to_text(topo);
        let v = game.record().entries.len() as u64;
        let outcome = game.position().outcome();
        let to_move = game.position().to_move();
        let now = self.now();
        let mut stmts: Vec<Stmt> = vec![(
            "INSERT INTO junqi_entries (table_id, seq, entry, at_ms) VALUES ($1, $2, $3, $4)",
            vec![
                self.id.as_str().into(),
                (v as i64).into(),
                entry_text.as_str().into(),
                (now as i64).into(),
            ],
        )];
        if let Some(o) = outcome {
            stmts.extend(self.finish_stmts(o, now));
        }
        if let Err(e) = self.app.db.write(stmts).await {
            // Not stored: undo, so that nothing unstored is ever announced.
            tracing::error!(table = %self.id, "cannot store entry {entry_text}: {e}");
            if let Some(g) = self.game.take() {
                let mut record = g.into_record();
                record.entries.pop();
                record.result = None;
                self.game = Game::from_record(record).ok();
            }
            return Err("the server could not store this; try again".into());
        }
        let topo_events: Vec<Value> = events
            .iter()
            .map(|e| junqi_core::json::event_to_json(topo, e))
            .collect();
        let frame = text(
            json!({"type": "events", "v": v, "entry": entry_text, "events": topo_events,
            "to_move": to_move, "outcome": outcome_to_json(outcome)}),
        );
        self.frames.push(frame.clone());
        let cancels_draw = matches!(entry, Entry::Action { .. } | Entry::Timeout { .. });
        if outcome.is_some() {
            self.status = Status::Over;
            self.turn_deadline = None;
            self.gone.iter_mut().for_each(|g| *g = None);
        } else {
            self.start_turn_clock();
        }
        self.broadcast(frame);
        self.broadcast_observations();
        if self.draw.is_some() && (cancels_draw || outcome.is_some()) {
            self.draw = None;
            self.broadcast_table();
        }
        self.bots_observe(&events);
        if let Some(o) = outcome {
            let f = text(self.game_over_frame());
            self.broadcast(f);
            self.broadcast_table();
            self.after_finish(o);
        } else {
            self.refresh_summary();
            self.maybe_start_bot();
        }
        Ok(())
    }

    fn finish_stmts(&self, outcome: Outcome, now: u64) -> Vec<Stmt> {
        let mut stmts: Vec<Stmt> = vec![(
            "UPDATE junqi_tables SET status = $1, result = $2, finished_ms = $3 WHERE id = $4",
            vec![
                "over".into(),
                outcome_to_text(outcome).into(),
                (now as i64).into(),
                self.id.as_str().into(),
            ],
        )];
        for (s, seat) in self.seats.iter().enumerate() {
            let pid = match &seat.kind {
                SeatKind::Human { player, .. } => player.id.clone(),
                SeatKind::Bot { bot } => format!("bot:{bot}"),
                SeatKind::Empty => continue,
            };
            stmts.push((
                "INSERT INTO junqi_game_players (table_id, seat, player_id, finished_ms) VALUES ($1, $2, $3, $4)",
                vec![self.id.as_str().into(), (s as i64).into(), pid.into(), (now as i64).into()],
            ));
        }
        stmts
    }

    fn after_finish(&mut self, outcome: Outcome) {
        if self.finished_recorded {
            return;
        }
        self.finished_recorded = true;
        let r = self.config.rules;
        let players: Vec<Option<String>> = self
            .seats
            .iter()
            .map(|s| match &s.kind {
                SeatKind::Human { player, .. } => Some(player.id.clone()),
                SeatKind::Bot { bot } => Some(format!("bot:{bot}")),
                SeatKind::Empty => None,
            })
            .collect();
        let bots: Vec<String> = self
            .seats
            .iter()
            .filter_map(|s| {
                if let SeatKind::Bot { bot } = &s.kind {
                    Some(bot.clone())
                } else {
                    None
                }
            })
            .collect();
        let app = self.app.clone();
        let job = RatingJob {
            category: format!("{}/{}", r.board.name(), r.mode.name()),
            board: r.board,
            players,
            outcome,
        };
        tokio::spawn(async move {
            for b in bots {
                app.bot_player(&b).await;
            }
            app.rate(job);
        });
    }

    /// A seat whose person did not come back in time.
    async fn seat_gone(&mut self, seat: Seat) {
        let four = self.config.rules.board == BoardKind::FourPlayer;
        let partner_in = self
            .game
            .as_ref()
            .is_some_and(|g| !g.position().is_eliminated(partner(seat)));
        if four && partner_in && self.config.leaver_bot {
            self.seats[seat as usize] = SeatState {
                kind: SeatKind::Bot {
                    bot: "random".into(),
                },
                token: None,
                layout: self.seats[seat as usize].layout,
            };
            for c in self.conns.values_mut() {
                if c.seat == Some(seat) {
                    c.seat = None;
                }
            }
            self.make_bots();
            if let (Some(g), Some(Some(slot))) = (&self.game, self.bots.get_mut(seat as usize)) {
                if let Some(b) = slot.bot.as_mut() {
                    b.get()
                        .observe(&[], &g.position().observe(Observer::Seat(seat)));
                }
            }
            let _ = self.save_seats().await;
            self.broadcast_table();
            self.maybe_start_bot();
            return;
        }
        if let Err(e) = self.commit(Entry::Leave(seat)).await {
            tracing::warn!(table = %self.id, "leave refused: {e}");
        }
    }

    // ----------------------------------------------------------------------------------------
    // Commands

    async fn handle_cmd(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Hello {
                conn,
                tx,
                player,
                token,
                last_v,
            } => self.hello(conn, tx, player, token, last_v),
            Cmd::Closed { conn } => self.drop_conn(conn),
            Cmd::BotDone {
                seat,
                mut bot,
                action,
                v,
            } => {
                let Some(slot) = self.bots[seat as usize].as_mut() else {
                    return;
                };
                if let Some(g) = &self.game {
                    if !slot.pending.is_empty() {
                        let pending = std::mem::take(&mut slot.pending);
                        bot.observe(&pending, &g.position().observe(Observer::Seat(seat)));
                    }
                }
                slot.bot = Some(BotCell::new(bot));
                let current = self.status == Status::Playing
                    && v == self.v()
                    && self
                        .game
                        .as_ref()
                        .is_some_and(|g| g.position().to_move() == seat && !g.position().is_over());
                if current {
                    let legal = self
                        .game
                        .as_ref()
                        .map(|g| g.position().legal_actions())
                        .unwrap_or_default();
                    let action = match action {
                        Ok(a) if legal.contains(&a) => Some(a),
                        other => {
                            tracing::warn!(table = %self.id, "bot at seat {seat} failed: {other:?}");
                            legal.first().copied()
                        }
                    };
                    if let Some(action) = action {
                        if let Err(e) = self.commit(Entry::Action { seat, action }).await {
                            tracing::warn!(table = %self.id, "bot action refused: {e}");
                        }
                        return;
                    }
                }
                self.maybe_start_bot();
            }
            Cmd::Msg { conn, msg, id } => {
                if !self.conns.contains_key(&conn) {
                    return;
                }
                match self.message(conn, msg, id.as_ref()).await {
                    Ok(()) => {
                        if let Some(id) = &id {
                            self.send(conn, Utf8Bytes::from(ack_frame(id)));
                        }
                    }
                    Err(reason) => self.error(conn, &reason, id.as_ref()),
                }
            }
        }
    }

    fn hello(
        &mut self,
        conn: u64,
        tx: Out,
        player: Option<Player>,
        token: Option<String>,
        last_v: Option<u64>,
    ) {
        let seat = token
            .as_deref()
            .and_then(|t| {
                self.seats
                    .iter()
                    .position(|s| s.token.as_deref() == Some(t))
            })
            .map(|s| s as Seat);
        self.conns.insert(
            conn,
            Conn {
                tx,
                seat,
                player: player.clone(),
            },
        );
        if token.is_some() && seat.is_none() {
            self.error(conn, "unknown seat token: you are watching", None);
        }
        if let Some(s) = seat {
            if self.gone[s as usize].take().is_some() {
                let f = text(json!({"type": "presence", "seat": s, "connected": true}));
                self.broadcast(f);
            }
        }
        let seat_player = seat.and_then(|s| match &self.seats[s as usize].kind {
            SeatKind::Human { player, .. } => Some(player.to_json()),
            _ => None,
        });
        let welcome = json!({"type": "welcome", "table": self.id, "seat": seat, "token": seat.and(token),
            "host": seat == Some(self.host_seat), "player": seat_player.or_else(|| player.map(|p| p.to_json()))});
        self.send_json(conn, welcome);
        self.refresh_summary();
        let f = self.table_frame();
        self.send_json(conn, f);
        let v = self.v();
        match last_v {
            Some(lv)
                if lv <= v
                    && matches!(self.status, Status::Playing | Status::Over)
                    && self.game.is_some() =>
            {
                for i in lv..v {
                    let f = self.frames[i as usize].clone();
                    self.send(conn, f);
                }
                let observer = self.observer_of(seat);
                let f = json!({"type": "observation", "v": v, "observation": self.observation_json(observer), "clock": self.clock_json()});
                self.send_json(conn, f);
            }
            _ => {
                let f = self.sync_frame(seat);
                self.send_json(conn, f);
            }
        }
        if self.status == Status::Over {
            let f = text(self.game_over_frame());
            self.send(conn, f);
        }
        // Others see who is here.
        let others: Vec<u64> = self.conns.keys().copied().filter(|&c| c != conn).collect();
        let f = text(self.table_frame());
        for c in others {
            self.send(c, f.clone());
        }
    }

    fn seat_of(&self, conn: u64) -> Option<Seat> {
        self.conns.get(&conn).and_then(|c| c.seat)
    }

    fn require_host(&self, conn: u64) -> Result<(), String> {
        if self.seat_of(conn) != Some(self.host_seat) {
            return Err("only the host may do that".into());
        }
        if self.status != Status::Waiting {
            return Err("the game has already started".into());
        }
        Ok(())
    }

    fn require_playing_seat(&self, conn: u64) -> Result<Seat, String> {
        let seat = self
            .seat_of(conn)
            .ok_or("you are watching: you have no seat at this table")?;
        if self.status != Status::Playing {
            return Err(match self.status {
                Status::Over => "the game is over".into(),
                _ => "the game has not started".into(),
            });
        }
        Ok(seat)
    }

    /// The seat of a connection that may vote on a draw (a person seated in a game in progress
    /// and still in it), with every seat still in the game (all of them must accept).
    fn draw_voter(&self, conn: u64) -> Result<(Seat, Vec<Seat>), String> {
        let seat = self.require_playing_seat(conn)?;
        let pos = self
            .game
            .as_ref()
            .map(|g| g.position())
            .ok_or("the game has not started")?;
        if pos.is_eliminated(seat) {
            return Err("you are out of the game".into());
        }
        let remaining = (0..self.seats.len() as Seat)
            .filter(|&s| !pos.is_eliminated(s))
            .collect();
        Ok((seat, remaining))
    }

    async fn message(
        &mut self,
        conn: u64,
        msg: ClientMsg,
        _id: Option<&Value>,
    ) -> Result<(), String> {
        match msg {
            ClientMsg::Hello { .. } => Err("hello was already sent".into()),
            ClientMsg::Ping { t } => {
                self.send_json(conn, json!({"type": "pong", "t": t}));
                Ok(())
            }
            ClientMsg::TakeSeat { seat, name } => {
                if self.status != Status::Waiting {
                    return Err("the game has already started".into());
                }
                if seat as usize >= self.seats.len() {
                    return Err(format!("seat {seat} does not exist at this table"));
                }
                if self.seat_of(conn).is_some() {
                    return Err("you already have a seat".into());
                }
                if self.seats[seat as usize].kind != SeatKind::Empty {
                    return Err(format!("seat {seat} is taken"));
                }
                let player = match self.conns.get(&conn).and_then(|c| c.player.clone()) {
                    Some(p) => p,
                    None => self.app.new_guest(name.as_deref()).await?.0,
                };
                let shown = name
                    .map(|n| {
                        n.chars()
                            .filter(|c| !c.is_control())
                            .take(24)
                            .collect::<String>()
                    })
                    .filter(|n| !n.trim().is_empty())
                    .unwrap_or_else(|| player.name.clone());
                if self.seats[seat as usize].kind != SeatKind::Empty {
                    return Err(format!("seat {seat} is taken"));
                }
                let token = random_token(16);
                self.seats[seat as usize] = SeatState {
                    kind: SeatKind::Human {
                        player: player.clone(),
                        name: shown,
                    },
                    token: Some(token.clone()),
                    layout: None,
                };
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.seat = Some(seat);
                }
                self.save_seats().await?;
                self.send_json(
                    conn,
                    json!({"type": "welcome", "table": self.id, "seat": seat, "token": token,
                           "host": seat == self.host_seat, "player": player.to_json()}),
                );
                self.broadcast_table();
                Ok(())
            }
            ClientMsg::AddBot { seat, bot } => {
                self.require_host(conn)?;
                let bot = bot.unwrap_or_else(|| junqi_ai::default_bot().to_string());
                if junqi_ai::bot_by_name(&bot).is_none() {
                    return Err(format!(
                        "no bot named {bot:?} (bots: {})",
                        junqi_ai::bot_names().join(", ")
                    ));
                }
                let s = self
                    .seats
                    .get_mut(seat as usize)
                    .ok_or(format!("seat {seat} does not exist at this table"))?;
                if s.kind != SeatKind::Empty {
                    return Err(format!("seat {seat} is taken"));
                }
                s.kind = SeatKind::Bot { bot };
                self.save_seats().await?;
                self.broadcast_table();
                Ok(())
            }
            ClientMsg::RemoveBot { seat } => {
                self.require_host(conn)?;
                let s = self
                    .seats
                    .get_mut(seat as usize)
                    .ok_or(format!("seat {seat} does not exist at this table"))?;
                if !matches!(s.kind, SeatKind::Bot { .. }) {
                    return Err(format!("seat {seat} has no bot"));
                }
                *s = SeatState::empty();
                self.save_seats().await?;
                self.broadcast_table();
                Ok(())
            }
            ClientMsg::Start => {
                self.require_host(conn)?;
                self.start().await?;
                self.broadcast_table();
                if self.status == Status::Deploying {
                    self.broadcast_sync();
                }
                Ok(())
            }
            ClientMsg::Deploy { layout } => {
                let seat = self
                    .seat_of(conn)
                    .ok_or("you are watching: you have no seat at this table")?;
                if self.status != Status::Deploying {
                    return Err(
                        "deployment is not open (it comes after the start and before play)".into(),
                    );
                }
                let d = Deployment::from_text(&layout).map_err(|e| e.to_string())?;
                d.validate(self.config.rules.board, seat)
                    .map_err(|e| e.to_string())?;
                self.seats[seat as usize].layout = Some(d);
                self.save_seats().await?;
                self.broadcast(text(json!({"type": "deployed", "seat": seat})));
                self.broadcast_table();
                if self.seats.iter().all(|s| s.layout.is_some()) {
                    self.begin_play().await;
                }
                Ok(())
            }
            ClientMsg::Act { action } => {
                let seat = self.require_playing_seat(conn)?;
                let game = self.game.as_ref().ok_or("the game has not started")?;
                let to_move = game.position().to_move();
                if to_move != seat {
                    return Err(format!("it is seat {to_move}'s turn, not yours"));
                }
                let action = action_from_text(game.record().topology(), &action)?;
                self.commit(Entry::Action { seat, action }).await
            }
            ClientMsg::Resign => {
                let seat = self.require_playing_seat(conn)?;
                if self.now() < self.play_started_ms + self.config.resign_ms {
                    let secs = self.config.resign_ms / 1000;
                    return Err(format!(
                        "resignation is refused in the first {secs} seconds of play"
                    ));
                }
                self.commit(Entry::Resign(seat)).await
            }
            ClientMsg::Leave => match self.status {
                Status::Waiting => {
                    let seat = self.seat_of(conn).ok_or("you have no seat at this table")?;
                    self.seats[seat as usize] = SeatState::empty();
                    if let Some(c) = self.conns.get_mut(&conn) {
                        c.seat = None;
                    }
                    self.save_seats().await?;
                    self.broadcast_table();
                    Ok(())
                }
                Status::Playing => {
                    let seat = self.require_playing_seat(conn)?;
                    if self
                        .game
                        .as_ref()
                        .is_some_and(|g| g.position().is_eliminated(seat))
                    {
                        return Err("you are already out of the game".into());
                    }
                    self.seat_gone(seat).await;
                    Ok(())
                }
                Status::Deploying => Err(
                    "you cannot leave during deployment (the deployment clock deploys for you)"
                        .into(),
                ),
                Status::Over => Err("the game is over".into()),
            },
            ClientMsg::OfferDraw => {
                let (seat, remaining) = self.draw_voter(conn)?;
                if self.draw.is_some() {
                    return Err("a draw offer is already open".into());
                }
                let bot_refuses = remaining.iter().find(|&&s| {
                    s != seat && matches!(self.seats[s as usize].kind, SeatKind::Bot { .. })
                });
                if let Some(&b) = bot_refuses {
                    self.broadcast(text(
                        json!({"type": "draw_offer", "by": seat, "accepted": [seat]}),
                    ));
                    self.broadcast(text(json!({"type": "draw_declined", "by": b})));
                    return Ok(());
                }
                self.draw = Some(DrawOffer {
                    by: seat,
                    accepted: BTreeSet::from([seat]),
                });
                self.broadcast(text(
                    json!({"type": "draw_offer", "by": seat, "accepted": [seat]}),
                ));
                self.broadcast_table();
                Ok(())
            }
            ClientMsg::AcceptDraw => {
                let (seat, remaining) = self.draw_voter(conn)?;
                let offer = self.draw.as_mut().ok_or("there is no draw offer")?;
                offer.accepted.insert(seat);
                let (by, accepted) = (offer.by, offer.accepted.clone());
                if remaining.iter().all(|s| accepted.contains(s)) {
                    self.draw = None;
                    return self.commit(Entry::Draw).await;
                }
                self.broadcast(text(
                    json!({"type": "draw_offer", "by": by, "accepted": accepted}),
                ));
                self.broadcast_table();
                Ok(())
            }
            ClientMsg::DeclineDraw => {
                let seat = self.require_playing_seat(conn)?;
                if self.draw.take().is_none() {
                    return Err("there is no draw offer".into());
                }
                self.broadcast(text(json!({"type": "draw_declined", "by": seat})));
                self.broadcast_table();
                Ok(())
            }
        }
    }
}

/// Load a table from the database and start its actor (a game in progress resumes where it
/// was: its record is replayed).
pub(crate) async fn load_by_id(app: &Arc<App>, id: &str) -> Option<TableHandle> {
    let row = app
        .db
        .fetch_opt(
            "SELECT id, code, config, host_seat, status, seats, header, created_ms, started_ms FROM junqi_tables WHERE id = $1",
            vec![id.into()],
        )
        .await
        .ok()??;
    load_row(app, &row).await
}

async fn load_row(app: &Arc<App>, row: &sqlx::any::AnyRow) -> Option<TableHandle> {
    let id = col_str(row, 0);
    let config = match serde_json::from_str::<Value>(&col_str(row, 2))
        .map_err(|e| e.to_string())
        .and_then(|v| TableConfig::from_json(&v))
    {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(table = %id, "bad stored config: {e}");
            return None;
        }
    };
    let mut t = Table::blank(
        app.clone(),
        id.clone(),
        col_str(row, 1),
        config,
        col_i64(row, 3) as Seat,
        col_i64(row, 7) as u64,
    );
    t.status = Status::from_name(&col_str(row, 4));
    let seats: Value = serde_json::from_str(&col_str(row, 5)).unwrap_or(Value::Null);
    if let Some(a) = seats.as_array() {
        for (i, s) in a.iter().enumerate().take(t.seats.len()) {
            t.seats[i] = SeatState::from_json(s);
        }
    }
    let now = app.now();
    match t.status {
        Status::Waiting => {}
        Status::Deploying => {
            t.make_bots();
            t.deploy_deadline = (t.config.deploy_ms > 0).then(|| now + t.config.deploy_ms);
        }
        Status::Playing | Status::Over => {
            let header = col_opt_str(row, 6).unwrap_or_default();
            let record = match Record::from_text(&header) {
                Ok(r) => r,
                Err(e) => {
                    tracing::error!(table = %id, "bad stored record header: {e}");
                    return None;
                }
            };
            let mut game = match Game::from_record(record) {
                Ok(g) => g,
                Err(e) => {
                    tracing::error!(table = %id, "bad stored start: {e}");
                    return None;
                }
            };
            let entries = app
                .db
                .fetch(
                    "SELECT seq, entry FROM junqi_entries WHERE table_id = $1 ORDER BY seq",
                    vec![id.as_str().into()],
                )
                .await
                .ok()?;
            let topo = game.record().topology();
            for r in &entries {
                let text_entry = col_str(r, 1);
                let applied = Entry::from_text(topo, &text_entry)
                    .and_then(|e| game.apply(e).map(|ev| (e, ev)).map_err(|x| x.to_string()));
                match applied {
                    Ok((e, events)) => {
                        let evs: Vec<Value> = events
                            .iter()
                            .map(|x| junqi_core::json::event_to_json(topo, x))
                            .collect();
                        let v = game.record().entries.len();
                        t.frames.push(text(json!({"type": "events", "v": v, "entry": e.to_text(topo), "events": evs,
                            "to_move": game.position().to_move(), "outcome": outcome_to_json(game.position().outcome())})));
                    }
                    Err(e) => {
                        tracing::error!(table = %id, "stored entry {} ({text_entry}) does not replay: {e}", col_i64(r, 0));
                        break;
                    }
                }
            }
            let over = game.position().outcome();
            t.game = Some(game);
            t.play_started_ms = col_opt_i64(row, 8).unwrap_or(now as i64) as u64;
            if let Some(o) = over {
                t.status = Status::Over;
                t.finished_recorded = true;
                if col_str(row, 4) != "over" {
                    let stmts = t.finish_stmts(o, now);
                    let _ = app.db.write(stmts).await;
                    t.finished_recorded = false;
                    t.after_finish(o);
                }
            } else {
                t.status = Status::Playing;
                t.make_bots();
                t.bots_observe(&[]);
                t.start_turn_clock();
                for s in 0..t.seats.len() {
                    if matches!(t.seats[s].kind, SeatKind::Human { .. }) {
                        t.gone[s] = Some(now + RETURN_WINDOW_MS);
                    }
                }
            }
        }
    }
    Some(t.spawn())
}

/// Load every unfinished table (server start). Returns how many.
pub(crate) async fn load_unfinished(app: &Arc<App>) -> Result<usize, String> {
    let rows = app
        .db
        .fetch(
            "SELECT id, code, config, host_seat, status, seats, header, created_ms, started_ms FROM junqi_tables WHERE status <> 'over'",
            vec![],
        )
        .await?;
    let mut n = 0;
    for row in &rows {
        if load_row(app, row).await.is_some() {
            n += 1;
        }
    }
    Ok(n)
}
