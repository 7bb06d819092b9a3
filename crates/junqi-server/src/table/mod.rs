//! A table: one tokio task (an actor) that owns the seats, the game and the clocks. Commands
//! come in on a channel; no lock is held across an await. Every accepted entry is written to the
//! database before anyone is told of it.
//!
//! The actor sees the rest of the server only through a narrow [`TableEnv`] (the database, the
//! clock, the settings, the registry of live tables and the rating queue), never the whole app.
//!
//! - `config`: the table's settings and status;
//! - `game`: the game a table runs, 军棋 or 陆海空三军棋, behind one set of types;
//! - `seats`: who sits where, and the stored form of a seat;
//! - `frames`: the frames the table sends, and sending them;
//! - `play`: the life of a game (start, deployment, entries, clocks, the end);
//! - `bots`: the bots seated at the table;
//! - `messages`: what each client message does;
//! - `persist`: the table's clocks and draw offer as stored;
//! - `resume`: rebuilding a table from the database;
//! - `pacing`: the computer's replies shown after a short, natural delay;
//! - `away`: a person away from a game against the computer pauses it;
//! - `chat`: chat and quick phrases at the table;
//! - `rematch`: 再来一局, a new table with the same settings and players, colours swapped;
//! - `unattended`: a game with no person left at it plays on at once and counts as open.

mod away;
mod bots;
mod chat;
mod config;
mod frames;
mod game;
mod messages;
mod pacing;
mod persist;
mod play;
mod rematch;
mod resume;
mod seats;
mod unattended;

pub use chat::{MAX_CHARS as CHAT_MAX_CHARS, PHRASES as CHAT_PHRASES};
pub use config::{
    LeaverRule, Status, TableConfig, DEFAULT_DEPLOY_MS, DEFAULT_MOVE_MS, RESIGN_WINDOW_MS,
    RETURN_WINDOW_MS,
};
pub(crate) use game::TableGame;
pub use game::{GameRules, LsaRules, LSA_BOARD};
pub(crate) use resume::{load_by_id, load_leased, load_unfinished};
pub(crate) use seats::{seat_names, seat_player_ids};

use crate::app::Player;
use crate::clock::Clock;
use crate::db::Db;
use crate::error::Refusal;
use crate::protocol::ClientMsg;
use crate::rating::RatingMsg;
use crate::registry::Registry;
use crate::secret::random_token;
use crate::settings::Settings;
use crate::store;
use axum::extract::ws::Utf8Bytes;
use bots::BotSlot;
use frames::EventsFrame;
use game::{Move, TableBot};
use junqi_core::Seat;
use persist::DrawOffer;
use seats::{SeatKind, SeatState};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tracing::Instrument;

/// The span of a table's work (see [`Table::span`]).
pub(crate) fn span_of(id: &str) -> tracing::Span {
    tracing::info_span!("table", table = %id)
}

/// The outgoing queue of one connection.
pub(crate) type Out = mpsc::Sender<Utf8Bytes>;

/// What a table actor may use of the server.
#[derive(Clone)]
pub(crate) struct TableEnv {
    pub db: Db,
    pub clock: Arc<dyn Clock>,
    pub settings: Settings,
    pub registry: Arc<Registry>,
    pub ratings: mpsc::UnboundedSender<RatingMsg>,
    /// Table creation per address (a rematch counts as a creation).
    pub table_budget: Arc<crate::limits::RateBudget>,
    /// This node's part of a cluster: new tables are leased to it.
    pub cluster: Option<Arc<crate::cluster::Cluster>>,
    /// The server's metrics (accepted actions and their latency).
    pub metrics: Arc<crate::metrics::Metrics>,
}

impl TableEnv {
    fn now(&self) -> u64 {
        self.clock.now_ms()
    }
}

/// A command to a table actor.
pub(crate) enum Cmd {
    /// A connection joins (after its `hello`).
    Hello {
        conn: u64,
        tx: Out,
        player: Option<Player>,
        token: Option<String>,
        last_v: Option<u64>,
    },
    /// A connection now acts as this person (a guest made for it when it took a seat).
    Identify { conn: u64, player: Player },
    /// A client message.
    Msg {
        conn: u64,
        msg: ClientMsg,
        id: Option<Value>,
    },
    /// A connection closed.
    Closed { conn: u64 },
    /// Stop the actor: it handles nothing after this (everything queued before it has been
    /// handled and stored by then), lets its connections and its lease go, then answers on
    /// `done` if given. Sent at shutdown, and in cluster mode when its lease is lost.
    Stop {
        done: Option<tokio::sync::oneshot::Sender<()>>,
    },
    /// A bot finished thinking.
    BotDone {
        seat: Seat,
        bot: TableBot,
        action: Result<Move, String>,
        v: u64,
        /// When the reply may be shown at the earliest (the pacing delay).
        due: u64,
    },
}

/// A live table as the registry holds it.
#[derive(Clone)]
pub(crate) struct TableHandle {
    pub tx: mpsc::Sender<Cmd>,
    pub summary: Arc<Mutex<Value>>,
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

struct Conn {
    tx: Out,
    seat: Option<Seat>,
    player: Option<Player>,
    /// This connection's chat allowance.
    chat: chat::ChatBucket,
}

pub(crate) struct Table {
    env: TableEnv,
    id: String,
    code: String,
    creator: String,
    config: TableConfig,
    host_seat: Seat,
    created_ms: u64,
    status: Status,
    seats: Vec<SeatState>,
    game: Option<TableGame>,
    /// The `events` frames, index v - 1.
    frames: Vec<EventsFrame>,
    play_started_ms: u64,
    deploy_deadline: Option<u64>,
    turn_deadline: Option<u64>,
    /// When each disconnected person's return window closes.
    gone: Vec<Option<u64>>,
    /// Before play: when the table closes if no seated person is connected by then.
    idle_deadline: Option<u64>,
    draw: Option<DrawOffer>,
    bots: Vec<Option<BotSlot>>,
    conns: HashMap<u64, Conn>,
    summary: Arc<Mutex<Value>>,
    /// The lobby entry as last stored in the database (`None`: none stored).
    lobby_written: Option<Value>,
    tx: mpsc::Sender<Cmd>,
    rx: Option<mpsc::Receiver<Cmd>>,
    finished_recorded: bool,
    /// The table was closed unplayed (expired): the actor ends.
    closed: bool,
    /// A bot's chosen action waiting for its pacing delay (or for the game to resume).
    bot_reply: Option<pacing::BotReply>,
    /// While a game against the computer is paused: the move clock's remaining time.
    paused_turn_ms: Option<u64>,
    /// The last chat messages (frames), sent to a joining connection.
    chat_log: chat::ChatLog,
    /// Who has asked for a rematch, and the rematch table once made.
    rematch: rematch::Rematch,
    /// Cluster mode: the lease this table runs under; every write carries it.
    fence: Option<crate::db::Fence>,
    /// A write was refused because the lease is lost: the actor ends.
    lost: std::sync::atomic::AtomicBool,
    /// The client-chosen ids of the actions this game applied (`act` with `action_id`), by
    /// seat, with the event version of the entry each made: a resend is answered, not applied
    /// again. Stored with the entries, so it survives restarts and takeovers; at most one per
    /// entry of the game.
    action_ids: HashMap<(Seat, String), u64>,
    /// Whether the game is stored as unattended (see `unattended`).
    unattended_written: bool,
}

impl Table {
    fn blank(
        env: TableEnv,
        id: String,
        code: String,
        creator: String,
        config: TableConfig,
        host_seat: Seat,
        created_ms: u64,
    ) -> Table {
        let n = config.rules.seats();
        let (tx, rx) = mpsc::channel(1024);
        let idle_deadline = Some(env.now() + env.settings.table_idle_ms);
        Table {
            env,
            id,
            code,
            creator,
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
            idle_deadline,
            draw: None,
            bots: (0..n).map(|_| None).collect(),
            conns: HashMap::new(),
            summary: Arc::new(Mutex::new(Value::Null)),
            lobby_written: None,
            tx,
            rx: Some(rx),
            finished_recorded: false,
            closed: false,
            bot_reply: None,
            paused_turn_ms: None,
            chat_log: Default::default(),
            rematch: Default::default(),
            fence: None,
            lost: std::sync::atomic::AtomicBool::new(false),
            action_ids: HashMap::new(),
            unattended_written: false,
        }
    }

    /// Write statements for this table, under its lease in cluster mode (a refusal because
    /// the lease is lost ends the actor: another node runs the table now).
    pub(super) async fn db_write(&self, stmts: Vec<crate::db::Stmt>) -> Result<(), String> {
        let r = self.env.db.write_fenced(self.fence.clone(), stmts).await;
        if let Err(e) = &r {
            if e.contains(crate::db::LEASE_LOST) {
                tracing::warn!(table = %self.id, "lease lost: the table stops here");
                self.lost.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        r
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
        self.env.now()
    }

    /// Create a table (persisted), seat its creator, and start it if asked. Returns the handle,
    /// the summary and the creator's seat token.
    pub(crate) async fn create(
        env: TableEnv,
        spec: TableSpec,
        creator: Player,
        creator_key: String,
    ) -> Result<(TableHandle, Value, String), Refusal> {
        let n = spec.config.rules.seats();
        if spec.seat as usize >= n {
            return Err(Refusal::SeatMissing {
                seat: spec.seat as u64,
                seats: n,
            });
        }
        let mut kinds = vec![SeatKind::Empty; n];
        for (seat, bot) in &spec.bots {
            if (*seat as usize) < n && *seat != spec.seat {
                kinds[*seat as usize] = SeatKind::Bot { bot: bot.clone() };
            }
        }
        kinds[spec.seat as usize] = SeatKind::Human { player: creator };
        let (handle, summary, mut tokens) =
            Table::create_seated(env, spec.config, spec.seat, kinds, spec.start, creator_key)
                .await?;
        let token = tokens[spec.seat as usize].take().unwrap_or_default();
        Ok((handle, summary, token))
    }

    /// Create a table (persisted) with these seats (each person gets a fresh seat token), and
    /// start it if asked. Returns the handle, the summary and the seat tokens by seat.
    pub(super) async fn create_seated(
        env: TableEnv,
        config: TableConfig,
        host_seat: Seat,
        kinds: Vec<SeatKind>,
        start: bool,
        creator_key: String,
    ) -> Result<(TableHandle, Value, Vec<Option<String>>), Refusal> {
        let now = env.now();
        let mut last_err = String::new();
        for _ in 0..5 {
            let mut t = Table::blank(
                env.clone(),
                crate::app::new_table_id(),
                crate::app::new_code(),
                creator_key.clone(),
                config.clone(),
                host_seat,
                now,
            );
            let mut tokens = vec![None; kinds.len()];
            for (s, kind) in kinds.iter().enumerate().take(t.seats.len()) {
                match kind {
                    SeatKind::Human { player } => {
                        let token = random_token(16);
                        t.seats[s] = SeatState::human(player.clone(), &token);
                        tokens[s] = Some(token);
                    }
                    other => t.seats[s].kind = other.clone(),
                }
            }
            let entry = t.lobby_entry();
            let insert = store::insert_table(
                &t.id,
                &t.code,
                &t.config.name,
                &t.config.to_json().to_string(),
                t.host_seat as i64,
                t.status.name(),
                &t.seats_json(),
                now as i64,
                &t.creator,
                entry.as_ref().map(Value::to_string),
            );
            let mut stmts = vec![insert];
            if let Some(c) = &env.cluster {
                let (lease, fence) = c.lease_new(&t.id);
                stmts.push(lease);
                t.fence = Some(fence);
            }
            if let Err(e) = env.db.write(stmts).await {
                last_err = e;
                continue;
            }
            if let (Some(c), Some(f)) = (&env.cluster, &t.fence) {
                c.hold(f);
            }
            t.lobby_written = entry;
            if start {
                let span = t.span();
                t.start().instrument(span).await?;
                t.store_lobby_entry().await;
            }
            t.refresh_summary();
            let summary = t.summary_json();
            let handle = t.spawn();
            return Ok((handle, summary, tokens));
        }
        Err(Refusal::Internal(format!(
            "could not create the table: {last_err}"
        )))
    }

    /// The span every log line of this table's work carries: `table{table=<id>}`.
    pub(super) fn span(&self) -> tracing::Span {
        span_of(&self.id)
    }

    fn spawn(self) -> TableHandle {
        let handle = self.handle();
        self.env
            .registry
            .register(&self.id, &self.code, handle.clone());
        self.refresh_summary();
        let span = self.span();
        tokio::spawn(self.run().instrument(span));
        handle
    }

    async fn run(mut self) {
        let Some(mut rx) = self.rx.take() else { return };
        // A table resumed from the database stores its lobby entry afresh.
        self.store_lobby_entry().await;
        // Bots to move right away (a reloaded game, or a bot that moves first).
        self.maybe_start_bot();
        let mut stopped = None;
        loop {
            let sleep = match self.next_deadline() {
                Some(d) => self.env.clock.sleep_until(d),
                None => Box::pin(std::future::pending()),
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(Cmd::Stop { done }) => {
                        stopped = done;
                        break;
                    }
                    Some(c) => self.handle_cmd(c).await,
                    None => break,
                },
                _ = sleep => self.on_time().await,
            }
            self.store_lobby_entry().await;
            self.note_unattended().await;
            if self.closed
                || self.lost.load(std::sync::atomic::Ordering::Relaxed)
                || (self.status == Status::Over && self.conns.is_empty() && !self.bot_thinking())
            {
                break;
            }
        }
        // No command reaches this actor any more; the next use of the table loads it again
        // (here or, in cluster mode, wherever its lease is then).
        rx.close();
        self.env.registry.unregister(&self.id, &self.code, &self.tx);
        if let (Some(c), Some(f)) = (&self.env.cluster, &self.fence) {
            if !self.lost.load(std::sync::atomic::Ordering::Relaxed) {
                c.release(&self.env.db, f).await;
            }
        }
        if let Some(done) = stopped {
            // The connections' queues go with the table: each connection closes once the
            // server says so (see ws.rs).
            drop(self);
            let _ = done.send(());
        }
    }

    async fn handle_cmd(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Hello {
                conn,
                tx,
                player,
                token,
                last_v,
            } => self.hello(conn, tx, player, token, last_v),
            Cmd::Identify { conn, player } => {
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.player = Some(player);
                }
            }
            Cmd::Closed { conn } => self.drop_conn(conn),
            Cmd::BotDone {
                seat,
                bot,
                action,
                v,
                due,
            } => self.bot_done(seat, bot, action, v, due).await,
            Cmd::Msg { conn, msg, id } => {
                if !self.conns.contains_key(&conn) {
                    return;
                }
                // From here to the entry stored and its frames queued to every connection:
                // what a player waits for, less the network.
                let received = std::time::Instant::now();
                let kind = msg.kind();
                match self.message(conn, msg).await {
                    Ok(ack) => {
                        if let Some(frame) = ack.frame(id.as_ref()) {
                            self.send(conn, Utf8Bytes::from(frame));
                        }
                        self.env.metrics.action(kind, received.elapsed());
                    }
                    Err(reason) => self.error(conn, &reason, id.as_ref()),
                }
            }
            // Handled by `run`, which stops.
            Cmd::Stop { done } => {
                if let Some(done) = done {
                    let _ = done.send(());
                }
            }
        }
    }
}
