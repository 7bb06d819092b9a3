//! Paced computer replies. A bot thinks in a few milliseconds; shown at once, its reply would
//! replace the board before the person saw the result of their own move (and the board would
//! jump two plies at once). So a bot's reply is held until a short delay after the move it
//! answers: about [`crate::Settings::bot_delay_ms`], varied by ply so that it does not feel
//! mechanical, less the time the bot spent thinking.
//!
//! The table never waits for the delay: the reply is parked here and played when its deadline
//! comes round in the actor's loop, so a resignation, a draw offer or a chat message during the
//! delay is handled at once (and an entry committed meanwhile makes the parked reply stale). The
//! delay is the bot's own time: the person's move clock starts only when the reply is played.

use super::game::{Move, TableEntry};
use super::{Status, Table};
use junqi_core::Seat;

/// A bot's chosen action waiting to be played.
#[derive(Clone, Debug)]
pub(super) struct BotReply {
    pub seat: Seat,
    pub action: Move,
    /// The event version it answers: if another entry came first, it is stale.
    pub v: u64,
    /// When it may be played.
    pub due: u64,
}

/// The pacing delay before the reply at ply `ply` of table `table`: from 3/4 to 5/4 of `base`,
/// picked by a hash of the table and the ply (the same game replays with the same pacing), and
/// at most half the move clock (a paced bot never runs out of time).
pub(super) fn reply_delay(base: u64, table: &str, ply: u64, move_ms: u64) -> u64 {
    if base == 0 {
        return 0;
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in table.bytes().chain(ply.to_le_bytes()) {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    let delay = base.saturating_mul(75 + h % 51) / 100;
    if move_ms > 0 {
        delay.min(move_ms / 2)
    } else {
        delay
    }
}

impl Table {
    /// When a bot that starts thinking now may show its reply (at once when nobody is left
    /// to see it: see `unattended`).
    pub(super) fn reply_due(&self) -> u64 {
        if self.unattended() {
            return self.now();
        }
        let ply = self.game.as_ref().map_or(0, |g| g.plies()) as u64;
        self.now()
            + reply_delay(
                self.env.settings.bot_delay_ms,
                &self.id,
                ply,
                self.config.move_ms,
            )
    }

    /// The deadline of a parked reply (none while the game is paused).
    pub(super) fn reply_deadline(&self) -> Option<u64> {
        if self.paused() {
            return None;
        }
        self.bot_reply.as_ref().map(|r| r.due)
    }

    /// Play a bot's action now, or park it until its delay has passed and the game is not paused.
    pub(super) async fn play_or_park(&mut self, reply: BotReply) {
        if self.paused() || self.now() < reply.due {
            self.bot_reply = Some(reply);
            return;
        }
        self.play_reply(reply).await;
    }

    /// The parked reply's time has come: play it if it still answers the current position.
    pub(super) async fn on_reply_due(&mut self) {
        if self.paused() {
            return;
        }
        let Some(reply) = self.bot_reply.take_if(|r| r.due <= self.env.now()) else {
            return;
        };
        self.play_reply(reply).await;
    }

    async fn play_reply(&mut self, reply: BotReply) {
        let current = self.status == Status::Playing
            && reply.v == self.v()
            && self
                .game
                .as_ref()
                .is_some_and(|g| g.to_move() == reply.seat && !g.is_over());
        if !current {
            return;
        }
        let entry = TableEntry::Action {
            seat: reply.seat,
            action: reply.action,
        };
        if let Err(e) = self.commit(entry).await {
            tracing::warn!("bot action refused: {e}");
            self.maybe_start_bot();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_vary_within_a_quarter_and_respect_the_clock() {
        let ds: Vec<u64> = (0..40).map(|p| reply_delay(800, "t1", p, 0)).collect();
        assert!(ds.iter().all(|&d| (600..=1000).contains(&d)), "{ds:?}");
        assert!(ds.iter().any(|&d| d != ds[0]), "varied: {ds:?}");
        assert_eq!(reply_delay(0, "t1", 3, 0), 0);
        assert_eq!(
            reply_delay(800, "t1", 3, 1000),
            reply_delay(800, "t1", 3, 0).min(500)
        );
    }
}
