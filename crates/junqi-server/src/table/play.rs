//! The life of a game at a table: the start, deployment, play, the clocks, committing entries
//! (stored before anyone hears of them), leavers (RULES §10) and the end. A table nobody plays
//! at before play begins is closed when its idle countdown runs out.

use super::bots::{guarded, BotCell};
use super::config::LeaverRule;
use super::frames::{text, EventsFrame};
use super::game::{Layout, TableBot, TableEntry, TableGame};
use super::{SeatKind, SeatState, Status, Table};
use crate::db::Stmt;
use crate::error::Refusal;
use crate::rating::{RatingJob, RatingMsg};
use crate::store;
use junqi_core::record::outcome_to_text;
use junqi_core::{BoardKind, Outcome, Seat, SeatSet};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// A generator seeded from the table's id and a seat: the same table proposes the same layout
/// to a seat at every sync.
fn seeded(table: &str, seat: Seat) -> ChaCha8Rng {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in table.bytes().chain([seat]) {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    ChaCha8Rng::seed_from_u64(h)
}

impl Table {
    /// The layout the deployment editor starts a person at `seat` from, where the board has
    /// one (land-sea-air); it is also what the seat gets if its deployment clock runs out.
    pub(super) fn suggested_layout(&self, seat: Seat) -> Option<Layout> {
        Layout::suggested(&self.config.rules, seat, &mut seeded(&self.id, seat))
    }

    /// The layout of a seat whose deployment clock ran out.
    fn layout_for_late(&self, seat: Seat) -> Layout {
        self.suggested_layout(seat).unwrap_or_else(|| {
            Layout::fallback(
                &self.config.rules,
                seat,
                &mut ChaCha8Rng::seed_from_u64(rand::random()),
            )
        })
    }

    pub(super) fn seats_json(&self) -> String {
        Value::Array(self.seats.iter().map(SeatState::to_json).collect()).to_string()
    }

    pub(super) fn save_seats_stmt(&self) -> Stmt {
        store::save_seats(&self.id, &self.seats_json(), self.status.name())
    }

    pub(super) async fn save_seats(&self) -> Result<(), Refusal> {
        self.db_write(vec![self.save_seats_stmt(), self.state_stmt()])
            .await
            .map_err(|e| {
                tracing::error!("cannot store the seats: {e}");
                Refusal::StoreFailed
            })
    }

    pub(super) fn next_deadline(&self) -> Option<u64> {
        let mut d: Option<u64> = None;
        let mut consider = |x: Option<u64>| {
            if let Some(x) = x {
                d = Some(d.map_or(x, |y: u64| y.min(x)));
            }
        };
        match self.status {
            Status::Waiting => consider(self.idle_deadline),
            Status::Deploying => {
                consider(self.deploy_deadline);
                consider(self.idle_deadline);
            }
            Status::Playing => {
                consider(self.turn_deadline);
                consider(self.reply_deadline());
                for g in &self.gone {
                    consider(*g);
                }
            }
            Status::Over => {}
        }
        d
    }

    pub(super) async fn on_time(&mut self) {
        let now = self.now();
        if matches!(self.status, Status::Waiting | Status::Deploying)
            && self.idle_deadline.is_some_and(|d| d <= now)
        {
            self.expire().await;
            return;
        }
        match self.status {
            Status::Deploying if self.deploy_deadline.is_some_and(|d| d <= now) => {
                self.deploy_deadline = None;
                for s in 0..self.seats.len() {
                    if self.seats[s].layout.is_none() {
                        self.seats[s].layout = Some(self.layout_for_late(s as Seat));
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
                if self.bot_reply.as_ref().is_some_and(|r| r.due <= now) {
                    self.on_reply_due().await;
                    if self.status != Status::Playing {
                        return;
                    }
                }
                if self.turn_deadline.is_some_and(|d| d <= now) {
                    self.turn_deadline = None;
                    let seat = self.game.as_ref().map(|g| g.to_move()).unwrap_or(0);
                    if let Err(e) = self.commit(TableEntry::Timeout { seat }).await {
                        tracing::warn!("timeout refused: {e}");
                    }
                }
            }
            _ => {}
        }
    }

    /// Nobody sat down and played: the table closes (before play there is no game to record),
    /// its row is deleted and whoever is still watching is told.
    async fn expire(&mut self) {
        if let Err(e) = self.db_write(vec![store::delete_unplayed(&self.id)]).await {
            tracing::warn!("cannot delete the expired table: {e}");
            self.idle_deadline = Some(self.now() + self.env.settings.table_idle_ms);
            return;
        }
        tracing::info!("closed: nobody played at it");
        self.broadcast(text(json!({"type": "closed", "reason": "idle"})));
        self.closed = true;
    }

    /// Leave the waiting room: bots deploy, people get the deployment clock (flip: play at once).
    pub(super) async fn start(&mut self) -> Result<(), Refusal> {
        if self.seats.iter().any(|s| s.kind == SeatKind::Empty) {
            return Err(Refusal::SeatsEmpty);
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
            let rules = self.config.rules;
            let seat = s as Seat;
            let chosen = self.bots[s]
                .as_mut()
                .and_then(|slot| slot.bot.as_mut())
                .map(|bot| guarded(|| bot.get().deploy(&rules, seat)));
            if let Some(chosen) = chosen {
                let layout = match chosen {
                    Ok(Ok(l)) => l,
                    Ok(Err(e)) | Err(e) => {
                        tracing::warn!("the bot at seat {seat} gave no layout ({e})");
                        self.layout_for_late(seat)
                    }
                };
                self.seats[s].layout = Some(layout);
            }
        }
        self.note_presence();
        self.save_seats().await?;
        if self.seats.iter().all(|s| s.layout.is_some()) {
            self.begin_play().await;
        }
        Ok(())
    }

    pub(super) async fn begin_play(&mut self) {
        let layouts: Vec<Layout> = self.seats.iter().filter_map(|s| s.layout).collect();
        let game = TableGame::start(
            &self.config.rules,
            self.config.leaver.table_rules(),
            &layouts,
            self.host_seat,
            &mut ChaCha8Rng::seed_from_u64(rand::random()),
        );
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                tracing::error!("cannot start: {e}");
                return;
            }
        };
        let now = self.now();
        let header = game.record_text();
        self.game = Some(game);
        self.status = Status::Playing;
        self.play_started_ms = now;
        self.deploy_deadline = None;
        self.idle_deadline = None;
        self.start_turn_clock();
        let w = self
            .db_write(vec![
                store::start_play(&self.id, &header, now as i64, &self.seats_json()),
                self.state_stmt(),
            ])
            .await;
        if let Err(e) = w {
            tracing::error!("cannot store the start: {e}");
        }
        for s in 0..self.seats.len() {
            if self.seats[s].is_human() && !self.conns.values().any(|c| c.seat == Some(s as Seat)) {
                self.mark_away(s as Seat);
            }
        }
        self.bots_observe(None);
        self.broadcast_table();
        self.broadcast_sync();
        self.maybe_start_bot();
    }

    pub(super) fn start_turn_clock(&mut self) {
        self.turn_deadline = (self.config.move_ms > 0 && self.status == Status::Playing)
            .then(|| self.now() + self.config.move_ms);
    }

    /// Apply an entry: persist it (with the clocks and, if it ends the game, the result), then
    /// tell everybody. An entry that cannot be stored is undone and refused.
    pub(super) async fn commit(&mut self, entry: TableEntry) -> Result<(), Refusal> {
        self.commit_with_id(entry, None).await.map(|_| ())
    }

    /// [`Table::commit`], the entry stored with the client's id of the action that made it
    /// (then remembered for the acting seat: a resend of that id is not applied again). Returns
    /// the event version of the entry.
    pub(super) async fn commit_with_id(
        &mut self,
        entry: TableEntry,
        action_id: Option<String>,
    ) -> Result<u64, Refusal> {
        let Some(game) = self.game.as_mut() else {
            return Err(Refusal::NotStarted);
        };
        let mover = game.to_move();
        let applied = game.apply(entry)?;
        let entry_text = applied.entry_text.clone();
        let v = game.entries() as u64;
        let outcome = game.outcome();
        let to_move = game.to_move();
        let out: Vec<bool> = (0..self.seats.len() as Seat)
            .map(|s| game.is_eliminated(s))
            .collect();
        let now = self.now();
        let cancels_draw = entry.cancels_draw();
        let (old_turn, old_draw) = (self.turn_deadline, self.draw.clone());
        if outcome.is_some() {
            self.status = Status::Over;
            self.turn_deadline = None;
        } else {
            self.start_turn_clock();
        }
        let draw_cleared = self.draw.is_some() && (cancels_draw || outcome.is_some());
        if draw_cleared {
            self.draw = None;
        }
        let mut stmts: Vec<Stmt> = vec![store::insert_entry(
            &self.id,
            v as i64,
            &entry_text,
            now as i64,
            action_id.as_deref(),
        )];
        match outcome {
            Some(o) => stmts.extend(self.finish_stmts(o, now)),
            // The stored state changes with an entry only if a move clock runs or an offer
            // was cleared; most entries of a game without a clock write just themselves.
            None if self.turn_deadline != old_turn || self.draw != old_draw => {
                stmts.push(self.state_stmt())
            }
            None => {}
        }
        if let Err(e) = self.db_write(stmts).await {
            // Not stored: undo, so that nothing unstored is ever announced.
            tracing::error!("cannot store entry {entry_text}: {e}");
            if let Some(g) = self.game.as_mut() {
                if let Err(e) = g.undo_last() {
                    tracing::error!("cannot take back entry {entry_text}: {e}");
                }
            }
            self.status = Status::Playing;
            self.turn_deadline = old_turn;
            self.draw = old_draw;
            return Err(Refusal::StoreFailed);
        }
        // Any stored entry answers the position a parked bot reply was chosen for.
        self.bot_reply = None;
        if let Some(id) = action_id {
            self.action_ids.insert((mover, id), v);
        }
        let frame = EventsFrame::new(v, &applied, to_move, outcome);
        self.frames.push(frame.clone());
        // A seat out of the game (or every seat, once it is over) has no return window left.
        for (s, g) in self.gone.iter_mut().enumerate() {
            if outcome.is_some() || out.get(s).copied().unwrap_or(false) {
                *g = None;
            }
        }
        self.broadcast_events(&frame);
        self.broadcast_observations();
        if draw_cleared {
            self.broadcast_table();
        }
        self.bots_observe(Some(&applied.for_bots));
        if outcome.is_some() {
            let f = text(self.game_over_frame());
            self.broadcast(f);
            self.broadcast_table();
            self.after_finish();
        } else {
            self.refresh_summary();
            self.maybe_start_bot();
        }
        Ok(v)
    }

    pub(super) fn finish_stmts(&self, outcome: Outcome, now: u64) -> Vec<Stmt> {
        let mut stmts: Vec<Stmt> = vec![store::finish_table(
            &self.id,
            &outcome_to_text(outcome),
            now as i64,
        )];
        for (s, seat) in self.seats.iter().enumerate() {
            if let Some(pid) = seat.player_id() {
                stmts.push(store::insert_game_player(
                    &self.id, s as i64, &pid, now as i64,
                ));
            }
            if seat.is_bot() {
                if let Some(pid) = seat.player_id() {
                    stmts.push(store::ensure_bot_player(&pid, now as i64));
                }
            }
        }
        stmts
    }

    /// A finished game goes to the rating queue (once).
    pub(super) fn after_finish(&mut self) {
        if self.finished_recorded {
            return;
        }
        self.finished_recorded = true;
        let r = self.config.rules;
        let placings = match self.game.as_ref().map(|g| g.placings()) {
            Some(Ok(p)) => p,
            Some(Err(e)) => {
                tracing::error!("cannot rate the game: {e}");
                None
            }
            None => None,
        };
        let job = RatingJob {
            category: format!("{}/{}", r.board_name(), r.mode_name()),
            teams: r.teams(),
            players: self.seats.iter().map(SeatState::player_id).collect(),
            placings,
        };
        let _ = self.env.ratings.send(RatingMsg::Rate(job));
    }

    /// A seat whose person did not come back in time, or left for good (RULES §10). The
    /// referee decides what leaving does ([`Entry::Leave`]): two-player, the seat loses;
    /// four-player with teams, the game is aborted while a partner is still in it, else the seat
    /// is eliminated (reason `left`); three- and six-player and `teams = none`, the seat is
    /// eliminated and the game goes on while more than one team is left. With the table option
    /// `leaver = bot` a bot takes the seat instead on every multi-seat board, except where leaving
    /// decides nothing but the seat's own team's loss (four-player with teams, the partner out);
    /// with `leaver = partner_plays_on` (QQ) the game's record holds that table rule, and the
    /// referee eliminates the leaver instead of aborting.
    pub(super) async fn seat_gone(&mut self, seat: Seat) {
        let Some(g) = self.game.as_ref() else {
            return;
        };
        // A seat already out of the game has nothing left to leave.
        if g.is_over() || g.is_eliminated(seat) {
            return;
        }
        if self.leaver_gets_a_bot(seat) {
            self.bot_takes_seat(seat).await;
            return;
        }
        if let Err(e) = self.commit(TableEntry::Leave(seat)).await {
            tracing::warn!("leave refused: {e}");
        }
    }

    /// Whether a bot takes this leaving seat (the table option, on a multi-seat board; on the
    /// four-player board with teams only instead of an abort).
    fn leaver_gets_a_bot(&self, seat: Seat) -> bool {
        let Some(rules) = self.config.rules.junqi().copied() else {
            return false;
        };
        if self.config.leaver != LeaverRule::Bot || !rules.board.is_multi_seat() {
            return false;
        }
        let Some(g) = self.game.as_ref() else {
            return false;
        };
        let four_with_teams = rules.board == BoardKind::FourPlayer && rules.teams().has_teammates();
        if !four_with_teams {
            return true;
        }
        let mates = rules.teams().mates(seat).minus(SeatSet::one(seat));
        mates.iter().any(|m| !g.is_eliminated(m))
    }

    /// A bot (the server's default) sits down at a leaver's seat and plays on from the current
    /// position; the leaver's connections watch from now on (their seat token no longer
    /// claims the seat).
    async fn bot_takes_seat(&mut self, seat: Seat) {
        let s = seat as usize;
        self.seats[s] = SeatState {
            kind: SeatKind::Bot {
                bot: self.env.settings.default_bot.clone(),
            },
            token_hash: None,
            layout: self.seats[s].layout,
        };
        self.gone[s] = None;
        let mut watching = Vec::new();
        for (&id, c) in self.conns.iter_mut() {
            if c.seat == Some(seat) {
                c.seat = None;
                watching.push(id);
            }
        }
        self.make_bots();
        if let (Some(g), Some(Some(slot))) = (&self.game, self.bots.get_mut(s)) {
            if let Some(b) = slot.bot.as_mut() {
                let view = g.bot_view(seat);
                if guarded(|| b.get().observe(None, &view)).is_err() {
                    *b = BotCell::new(TableBot::stand_in(&self.config.rules, seat, Some(&view)));
                }
            }
        }
        tracing::info!("a bot takes seat {seat} of its leaver");
        // The leaving person's connections become spectators: a fresh view for them.
        for conn in watching {
            let f = self.sync_frame(None);
            self.send_json(conn, f);
        }
        // A game that was paused for the leaver goes on.
        self.note_pause();
        let _ = self.save_seats().await;
        self.broadcast_table();
        self.maybe_start_bot();
    }
}
