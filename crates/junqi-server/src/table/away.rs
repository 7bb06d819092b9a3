//! A person away from a game against the computer. RULES §10 gives a person who drops out of a
//! game 60 s to come back, then the game is lost (逃跑): fair between people, who should not be
//! kept waiting. Against the computer nobody waits, so (a house choice, docs/rules.md) the game
//! is paused instead: the person's move clock stops, the bots do not move on, and only after a
//! much longer window ([`crate::Settings::computer_away_ms`]) is the game lost.
//!
//! A game is against the computer when exactly one seat is a person and every other seat a bot.

use super::frames::text;
use super::{Status, Table, RETURN_WINDOW_MS};
use junqi_core::Seat;
use serde_json::json;

impl Table {
    /// Exactly one person, every other seat a bot.
    pub(super) fn against_computer(&self) -> bool {
        let people = self.seats.iter().filter(|s| s.is_human()).count();
        let bots = self.seats.iter().filter(|s| s.is_bot()).count();
        people == 1 && people + bots == self.seats.len()
    }

    /// How long a seated person may be away from the game before it is lost.
    pub(super) fn away_limit_ms(&self) -> u64 {
        if self.against_computer() {
            self.env.settings.computer_away_ms
        } else {
            RETURN_WINDOW_MS
        }
    }

    /// A game against the computer whose person is away: nothing moves.
    pub(super) fn paused(&self) -> bool {
        self.status == Status::Playing
            && self.against_computer()
            && self
                .seats
                .iter()
                .zip(&self.gone)
                .any(|(s, g)| s.is_human() && g.is_some())
    }

    /// A seated person is away: their return window starts (and a game against the computer
    /// pauses). Others are told.
    pub(super) fn mark_away(&mut self, seat: Seat) {
        let limit = self.away_limit_ms();
        self.gone[seat as usize] = Some(self.now() + limit);
        self.note_pause();
        let f = text(json!({"type": "presence", "seat": seat, "connected": false,
            "return_ms": limit, "paused": self.paused()}));
        self.broadcast(f);
    }

    /// A seated person is back on connection `conn`: their return window ends (and a paused
    /// game resumes). The others are told (the joining connection gets its welcome instead).
    pub(super) fn mark_back(&mut self, seat: Seat, conn: u64) {
        if self.gone[seat as usize].take().is_none() {
            return;
        }
        self.note_pause();
        let f = text(json!({"type": "presence", "seat": seat, "connected": true, "paused": false}));
        let others: Vec<u64> = self.conns.keys().copied().filter(|&c| c != conn).collect();
        for c in others {
            self.send(c, f.clone());
        }
        self.maybe_start_bot();
    }

    /// Stop the move clock when the game pauses; give it back (what was left of it) when the
    /// game resumes. A reply the bot had ready waits at least its delay again after the return,
    /// so the person sees the board before it changes.
    pub(super) fn note_pause(&mut self) {
        let now = self.now();
        if self.paused() {
            if self.paused_turn_ms.is_none() {
                if let Some(d) = self.turn_deadline.take() {
                    self.paused_turn_ms = Some(d.saturating_sub(now));
                }
            }
        } else {
            if let Some(left) = self.paused_turn_ms.take() {
                if self.status == Status::Playing {
                    self.turn_deadline = Some(now + left);
                }
            }
            let due = self.reply_due();
            if let Some(r) = self.bot_reply.as_mut() {
                r.due = r.due.max(due);
            }
        }
    }
}
