//! The frames a table sends (summaries, views, clocks, the end of a game), sending them, and
//! connections joining and leaving. Every view of the game is the core's redaction for its
//! observer.

use super::game::Applied;
use super::{Conn, Out, SeatKind, Status, Table};
use crate::app::Player;
use crate::error::{error_frame, Refusal};
use axum::extract::ws::Utf8Bytes;
use junqi_core::json::outcome_to_json;
use junqi_core::{Observer, Outcome, Seat};
use serde_json::{json, Value};

pub(super) fn text(v: Value) -> Utf8Bytes {
    Utf8Bytes::from(v.to_string())
}

/// The `events` frame of one entry: the one everybody gets, and the one seat's own where the
/// entry has an event for that seat only (a land-sea-air look's result).
#[derive(Clone, Debug)]
pub(super) struct EventsFrame {
    public: Utf8Bytes,
    own: Option<(Seat, Utf8Bytes)>,
}

impl EventsFrame {
    /// The frame of entry `v`, after which `to_move` moves and the game's outcome is `outcome`.
    pub fn new(v: u64, applied: &Applied, to_move: Seat, outcome: Option<Outcome>) -> EventsFrame {
        let frame = |seat: Option<Seat>| {
            text(
                json!({"type": "events", "v": v, "entry": applied.entry_text,
                "events": applied.events_for(seat), "to_move": to_move,
                "outcome": outcome_to_json(outcome)}),
            )
        };
        EventsFrame {
            public: frame(None),
            own: applied.private_seat().map(|s| (s, frame(Some(s)))),
        }
    }

    /// The frame a connection at `seat` (`None`: a spectator) gets.
    pub fn for_seat(&self, seat: Option<Seat>) -> Utf8Bytes {
        match &self.own {
            Some((s, f)) if Some(*s) == seat => f.clone(),
            _ => self.public.clone(),
        }
    }
}

impl Table {
    pub(super) fn summary_json(&self) -> Value {
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
                    SeatKind::Human { player } => player.to_json(),
                    _ => Value::Null,
                };
                json!({"seat": i, "kind": kind, "name": s.display_name(), "connected": conn, "player": player})
            })
            .collect();
        let r = &self.config.rules;
        let tm = r.teams();
        let teams: Vec<Vec<Seat>> = tm.teams().map(|t| tm.members(t).iter().collect()).collect();
        json!({
            "id": self.id, "code": self.code, "name": self.config.name,
            "board": r.board_name(), "mode": r.mode_name(),
            "options": r.options_json(), "teams": teams,
            "preset": r.preset(&self.config.leaver.table_rules()).map(|p| p.name()),
            "leaver": self.config.leaver.name(),
            "status": self.status.name(), "host_seat": self.host_seat, "created_ms": self.created_ms,
            "seats": seats, "spectators": spectators,
            "plies": self.game.as_ref().map_or(0, |g| g.plies()),
            "move_seconds": self.config.move_ms / 1000, "deploy_seconds": self.config.deploy_ms / 1000,
            "resign_after_seconds": self.config.resign_ms / 1000,
            "private": self.config.private,
        })
    }

    /// The table's lobby entry: its summary without what changes with every move or connection
    /// (`plies`, `spectators`, each seat's `connected`: the `table` frame has them live), so that
    /// the stored entry changes only when seats, status or settings do. `None` for a table the
    /// lobby does not list (private, or over).
    pub(super) fn lobby_entry(&self) -> Option<Value> {
        if self.config.private || self.status == Status::Over {
            return None;
        }
        let mut v = self.summary_json();
        let o = v.as_object_mut()?;
        o.remove("plies");
        o.remove("spectators");
        if let Some(Value::Array(seats)) = o.get_mut("seats") {
            for s in seats.iter_mut().filter_map(Value::as_object_mut) {
                s.remove("connected");
            }
        }
        Some(v)
    }

    /// Store the lobby entry if it changed since it was last stored: one write when seats,
    /// status or settings change, none for a move. Called by the actor after each command, so
    /// the writes are in the table's own order. A failed write is tried again after the next
    /// command (the lobby is a listing; the game's own writes do not wait for it).
    pub(super) async fn store_lobby_entry(&mut self) {
        if self.closed {
            // Expired: its row is gone.
            return;
        }
        let entry = self.lobby_entry();
        if entry == self.lobby_written {
            return;
        }
        if entry.is_none() && self.status == Status::Over {
            // The write that ended the game cleared the entry with it.
            self.lobby_written = None;
            return;
        }
        let text = entry.as_ref().map(Value::to_string);
        match self
            .db_write(vec![crate::store::save_summary(&self.id, text)])
            .await
        {
            Ok(()) => self.lobby_written = entry,
            Err(e) => tracing::warn!(table = %self.id, "cannot store the lobby entry: {e}"),
        }
    }

    pub(super) fn refresh_summary(&self) {
        let s = self.summary_json();
        if let Ok(mut g) = self.summary.lock() {
            *g = s;
        }
    }

    pub(super) fn table_frame(&self) -> Value {
        let deployed: Option<Vec<bool>> = (self.status == Status::Deploying)
            .then(|| self.seats.iter().map(|s| s.layout.is_some()).collect());
        let draw = self
            .draw
            .as_ref()
            .map(|d| json!({"by": d.by, "accepted": d.accepted}));
        json!({
            "type": "table", "table": self.summary_json(), "deployed": deployed, "draw_offer": draw,
            "paused": self.paused(), "chat": self.chat_on(), "rematch": self.rematch_json(),
            "clock": {"move_seconds": self.config.move_ms / 1000, "deploy_seconds": self.config.deploy_ms / 1000,
                      "resign_after_seconds": self.config.resign_ms / 1000,
                      "started_ms": (self.play_started_ms > 0).then_some(self.play_started_ms)},
        })
    }

    pub(super) fn observer_of(&self, seat: Option<Seat>) -> Observer {
        if self.status == Status::Over {
            return Observer::Referee;
        }
        match seat {
            Some(s) => Observer::Seat(s),
            None => Observer::Public,
        }
    }

    pub(super) fn observation_json(&self, observer: Observer) -> Value {
        let Some(g) = &self.game else {
            return Value::Null;
        };
        g.observation_json(observer)
    }

    /// A seated observer's look notes (land-sea-air), for the frames that carry a view.
    fn notes_json(&self, observer: Observer) -> Option<Value> {
        match (observer, &self.game) {
            (Observer::Seat(s), Some(g)) => g.notes_json(s),
            _ => None,
        }
    }

    /// An `observation` frame for an observer.
    fn observation_frame(&self, observer: Observer) -> Value {
        let mut f = json!({"type": "observation", "v": self.v(),
            "observation": self.observation_json(observer), "clock": self.clock_json()});
        if let Some(n) = self.notes_json(observer) {
            f["notes"] = n;
        }
        f
    }

    pub(super) fn clock_json(&self) -> Value {
        let to_move = self.game.as_ref().map(|g| g.to_move());
        let remaining = match (self.turn_deadline, self.status) {
            (Some(d), Status::Playing) => Value::from(d.saturating_sub(self.now())),
            _ => Value::Null,
        };
        json!({"to_move": to_move, "remaining_ms": remaining, "move_ms": self.config.move_ms})
    }

    pub(super) fn sync_frame(&self, seat: Option<Seat>) -> Value {
        let deploy = (self.status == Status::Deploying).then(|| {
            json!({
                "remaining_ms": self.deploy_deadline.map(|d| d.saturating_sub(self.now())),
                "layout": seat.and_then(|s| self.seats[s as usize].layout.map(|d| d.to_text())),
                "board": self.config.rules.board_name(),
                "suggested": seat.and_then(|s| self.suggested_layout(s)).map(|d| d.to_text()),
            })
        });
        let observer = self.observer_of(seat);
        let mut f = json!({
            "type": "sync", "status": self.status.name(), "v": self.v(),
            "observation": self.observation_json(observer),
            "clock": self.clock_json(), "deploy": deploy,
            "outcome": outcome_to_json(self.game.as_ref().and_then(|g| g.outcome())),
        });
        if let Some(n) = self.notes_json(observer) {
            f["notes"] = n;
        }
        f
    }

    pub(super) fn game_over_frame(&self) -> Value {
        let Some(g) = &self.game else {
            return Value::Null;
        };
        json!({
            "type": "game_over", "v": self.v(), "outcome": outcome_to_json(g.outcome()),
            "record": g.record_text(), "observation": self.observation_json(Observer::Referee),
        })
    }

    pub(super) fn send(&mut self, conn: u64, frame: Utf8Bytes) {
        let full = match self.conns.get(&conn) {
            Some(c) => c.tx.try_send(frame).is_err(),
            None => false,
        };
        if full {
            // A client that does not read is dropped; it reconnects and gets what it missed.
            self.drop_conn(conn);
        }
    }

    pub(super) fn send_json(&mut self, conn: u64, v: Value) {
        self.send(conn, text(v));
    }

    pub(super) fn error(&mut self, conn: u64, reason: &Refusal, id: Option<&Value>) {
        self.send(conn, Utf8Bytes::from(error_frame(reason, id)));
    }

    pub(super) fn broadcast(&mut self, frame: Utf8Bytes) {
        let ids: Vec<u64> = self.conns.keys().copied().collect();
        for c in ids {
            self.send(c, frame.clone());
        }
    }

    /// Send an entry's `events` frame to everybody, each seat its own.
    pub(super) fn broadcast_events(&mut self, frame: &EventsFrame) {
        let ids: Vec<(u64, Option<Seat>)> = self.conns.iter().map(|(&k, c)| (k, c.seat)).collect();
        for (conn, seat) in ids {
            self.send(conn, frame.for_seat(seat));
        }
    }

    pub(super) fn broadcast_table(&mut self) {
        self.refresh_summary();
        let f = text(self.table_frame());
        self.broadcast(f);
    }

    /// Each connection's view after a change: its observation (computed once per observer).
    pub(super) fn broadcast_observations(&mut self) {
        let mut cache: Vec<(Observer, Utf8Bytes)> = Vec::new();
        let ids: Vec<(u64, Option<Seat>)> = self.conns.iter().map(|(&k, c)| (k, c.seat)).collect();
        for (conn, seat) in ids {
            let observer = self.observer_of(seat);
            let frame = match cache.iter().find(|(o, _)| *o == observer) {
                Some((_, f)) => f.clone(),
                None => {
                    let f = text(self.observation_frame(observer));
                    cache.push((observer, f.clone()));
                    f
                }
            };
            self.send(conn, frame);
        }
    }

    pub(super) fn broadcast_sync(&mut self) {
        let ids: Vec<(u64, Option<Seat>)> = self.conns.iter().map(|(&k, c)| (k, c.seat)).collect();
        for (conn, seat) in ids {
            let f = self.sync_frame(seat);
            self.send_json(conn, f);
        }
    }

    pub(super) fn drop_conn(&mut self, conn: u64) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        if let Some(seat) = c.seat {
            let still_here = self.conns.values().any(|o| o.seat == Some(seat));
            let human = matches!(self.seats[seat as usize].kind, SeatKind::Human { .. });
            let in_game = self.game.as_ref().is_some_and(|g| !g.is_eliminated(seat));
            if !still_here && human && self.status == Status::Playing && in_game {
                self.mark_away(seat);
            }
        }
        self.note_presence();
        self.refresh_summary();
    }

    /// Before play, a table with no seated person connected starts its idle countdown (it is
    /// closed if nobody comes back); a seated person's connection stops it.
    pub(super) fn note_presence(&mut self) {
        if !matches!(self.status, Status::Waiting | Status::Deploying) {
            self.idle_deadline = None;
            return;
        }
        let someone = self
            .conns
            .values()
            .any(|c| c.seat.is_some_and(|s| self.seats[s as usize].is_human()));
        if someone {
            self.idle_deadline = None;
        } else if self.idle_deadline.is_none() {
            self.idle_deadline = Some(self.now() + self.env.settings.table_idle_ms);
        }
    }

    pub(super) fn hello(
        &mut self,
        conn: u64,
        tx: Out,
        player: Option<Player>,
        token: Option<String>,
        last_v: Option<u64>,
    ) {
        if self.conns.len() >= self.env.settings.max_connections_per_table {
            let _ = tx.try_send(Utf8Bytes::from(error_frame(&Refusal::Busy, None)));
            return;
        }
        // Hashed once: the seats keep only hashes.
        let seat = token
            .as_deref()
            .map(crate::secret::hash_token)
            .and_then(|h| self.seats.iter().position(|s| s.claimed_by(&h)))
            .map(|s| s as Seat);
        let chat = super::chat::ChatBucket::new(self.env.settings.chat_burst, self.now());
        self.conns.insert(
            conn,
            Conn {
                tx,
                seat,
                player: player.clone(),
                chat,
            },
        );
        if token.is_some() && seat.is_none() {
            self.error(conn, &Refusal::UnknownSeatToken, None);
        }
        if let Some(s) = seat {
            self.mark_back(s, conn);
        }
        let seat_player = seat.and_then(|s| match &self.seats[s as usize].kind {
            SeatKind::Human { player } => Some(player.to_json()),
            _ => None,
        });
        self.note_presence();
        // A seat learns how long it may be away, and whether chat is on.
        let welcome = json!({"type": "welcome", "table": self.id, "seat": seat, "token": seat.and(token),
            "host": seat == Some(self.host_seat), "player": seat_player.or_else(|| player.map(|p| p.to_json())),
            "away_limit_ms": seat.map(|_| self.away_limit_ms()), "chat": self.chat_on()});
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
                    let f = self.frames[i as usize].for_seat(seat);
                    self.send(conn, f);
                }
                let f = self.observation_frame(self.observer_of(seat));
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
        if let Some(f) = self.chat_log.history_frame() {
            self.send_json(conn, f);
        }
        self.resend_rematch_ready(conn);
        // Others see who is here.
        let others: Vec<u64> = self.conns.keys().copied().filter(|&c| c != conn).collect();
        let f = text(self.table_frame());
        for c in others {
            self.send(c, f.clone());
        }
    }
}
