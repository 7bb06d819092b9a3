//! A game nobody is left at: every person seated is out of it (eliminated, resigned, or gone
//! for good) and nobody, seated or watching, is connected, while the computer players play on
//! (a three- or six-player game, or a team game whose people are out). Nobody sees its moves,
//! so (a house choice, docs/rules.md) its computer players reply at once instead of after the
//! pacing delay, to finish the game and free the server soon; and until it ends it counts
//! among its creator's open tables, so that starting such games in a loop is bounded by the
//! same limit as opening tables ([`crate::Settings::max_open_tables_per_creator`]).
//!
//! Somebody connecting (a spectator, or a player coming back to watch) makes it attended
//! again: pacing returns and it no longer counts.

use super::{Status, Table};
use junqi_core::Seat;

impl Table {
    /// Nobody is left at this game: no person still in it and no connection at all.
    pub(super) fn unattended(&self) -> bool {
        if self.status != Status::Playing || !self.conns.is_empty() {
            return false;
        }
        let Some(g) = self.game.as_ref() else {
            return false;
        };
        !self
            .seats
            .iter()
            .enumerate()
            .any(|(s, seat)| seat.is_human() && !g.is_eliminated(s as Seat))
    }

    /// Store whether the game is unattended when that changes (the creator's limit counts it),
    /// and play a parked reply at once when it becomes so.
    pub(super) async fn note_unattended(&mut self) {
        let now = self.unattended();
        if now == self.unattended_written {
            return;
        }
        if now {
            let at = self.now();
            if let Some(r) = self.bot_reply.as_mut() {
                r.due = r.due.min(at);
            }
        }
        match self
            .db_write(vec![crate::store::set_unattended(&self.id, now)])
            .await
        {
            Ok(()) => self.unattended_written = now,
            Err(e) => {
                tracing::warn!(table = %self.id, "cannot store whether the game is attended: {e}")
            }
        }
    }
}
