//! A table: one tokio task (an actor) that owns the seats, the game and the clocks. Commands
//! come in on a channel; no lock is held across an await. Every accepted entry is written to the
//! database before anyone is told of it.
//!
//! The actor sees the rest of the server only through a narrow [`TableEnv`] (the database, the
//! clock, the settings, the registry of live tables and the rating queue), never the whole app.
//!
//! - `config`: the table's settings and status;
//! - `seats`: who sits where, and the stored form of a seat;
//! - `frames`: the frames the table sends, and sending them;
//! - `play`: the life of a game (start, deployment, entries, clocks, the end);
//! - `bots`: the bots seated at the table;
//! - `messages`: what each client message does;
//! - `persist`: the table's clocks and draw offer as stored;
//! - `resume`: rebuilding a table from the database.

mod bots;
mod config;
mod frames;
mod messages;
mod persist;
mod play;
mod resume;
mod seats;

pub use config::{
    Status, TableConfig, DEFAULT_DEPLOY_MS, DEFAULT_MOVE_MS, RESIGN_WINDOW_MS, RETURN_WINDOW_MS,
};
pub(crate) use resume::{load_by_id, load_unfinished};
pub(crate) use seats::{seat_names, seat_player_ids};

use crate::app::Player;
use crate::clock::Clock;
use crate::db::Db;
use crate::error::Refusal;
use crate::protocol::ClientMsg;
use crate::rating::RatingJob;
use crate::registry::Registry;
use crate::secret::random_token;
use crate::settings::Settings;
use crate::store;
use axum::extract::ws::Utf8Bytes;
use bots::BotSlot;
use junqi_ai::Bot;
use junqi_core::{Game, Seat};
use persist::DrawOffer;
use seats::{SeatKind, SeatState};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// The outgoing queue of one connection.
pub(crate) type Out = mpsc::Sender<Utf8Bytes>;

/// What a table actor may use of the server.
#[derive(Clone)]
pub(crate) struct TableEnv {
    pub db: Db,
    pub clock: Arc<dyn Clock>,
    pub settings: Settings,
    pub registry: Arc<Registry>,
    pub ratings: mpsc::UnboundedSender<RatingJob>,
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
    /// A bot finished thinking.
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
    /// Who created the table (`player:<id>`), for the per-creator limit.
    pub creator: String,
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
    game: Option<Game>,
    /// The `events` frames, index v - 1.
    frames: Vec<Utf8Bytes>,
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
    tx: mpsc::Sender<Cmd>,
    rx: Option<mpsc::Receiver<Cmd>>,
    finished_recorded: bool,
    /// The table was closed unplayed (expired): the actor ends.
    closed: bool,
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
            tx,
            rx: Some(rx),
            finished_recorded: false,
            closed: false,
        }
    }

    fn handle(&self) -> TableHandle {
        TableHandle {
            tx: self.tx.clone(),
            summary: self.summary.clone(),
            creator: self.creator.clone(),
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
        let now = env.now();
        let mut last_err = String::new();
        for _ in 0..5 {
            let mut t = Table::blank(
                env.clone(),
                crate::app::new_table_id(),
                crate::app::new_code(),
                creator_key.clone(),
                spec.config.clone(),
                spec.seat,
                now,
            );
            let token = random_token(16);
            t.seats[spec.seat as usize] = SeatState::human(creator.clone(), &token);
            for (seat, bot) in &spec.bots {
                if (*seat as usize) < n && *seat != spec.seat {
                    t.seats[*seat as usize].kind = SeatKind::Bot { bot: bot.clone() };
                }
            }
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
            );
            if let Err(e) = env.db.write(vec![insert]).await {
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
        Err(Refusal::Internal(format!(
            "could not create the table: {last_err}"
        )))
    }

    fn spawn(self) -> TableHandle {
        let handle = self.handle();
        self.env
            .registry
            .register(&self.id, &self.code, handle.clone());
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
                Some(d) => self.env.clock.sleep_until(d),
                None => Box::pin(std::future::pending()),
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(c) => self.handle_cmd(c).await,
                    None => break,
                },
                _ = sleep => self.on_time().await,
            }
            if self.closed
                || (self.status == Status::Over && self.conns.is_empty() && !self.bot_thinking())
            {
                break;
            }
        }
        self.env.registry.unregister(&self.id, &self.code);
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
            } => self.bot_done(seat, bot, action, v).await,
            Cmd::Msg { conn, msg, id } => {
                if !self.conns.contains_key(&conn) {
                    return;
                }
                match self.message(conn, msg).await {
                    Ok(()) => {
                        if let Some(id) = &id {
                            self.send(conn, Utf8Bytes::from(crate::protocol::ack_frame(id)));
                        }
                    }
                    Err(reason) => self.error(conn, &reason, id.as_ref()),
                }
            }
        }
    }
}
