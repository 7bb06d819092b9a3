//! The bots seated at a table. A bot sees only its seat's observations and the events announced
//! to everyone; it thinks on the blocking pool and hands itself back with its choice
//! ([`super::Cmd::BotDone`]). Events that arrive while it thinks are kept and given to it when it
//! is back, so its belief about hidden pieces always follows the whole game.

use super::game::{BotView, Events, GameRules, Move, TableBot, TableGame};
use super::pacing::BotReply;
use super::{Cmd, SeatKind, Status, Table};
use junqi_ai::Budget;
use junqi_core::Seat;
use std::sync::Mutex;

/// A bot owned by the table (a mutex only to make the table `Sync`; never contended).
pub(super) struct BotCell(Mutex<TableBot>);

impl BotCell {
    pub fn new(b: TableBot) -> BotCell {
        BotCell(Mutex::new(b))
    }
    pub fn get(&mut self) -> &mut TableBot {
        match self.0.get_mut() {
            Ok(b) => b,
            Err(e) => e.into_inner(),
        }
    }
    fn into_inner(self) -> TableBot {
        match self.0.into_inner() {
            Ok(b) => b,
            Err(e) => e.into_inner(),
        }
    }
}

/// A seat's bot: here, or away thinking (then the events it has not seen yet wait).
pub(super) struct BotSlot {
    pub bot: Option<BotCell>,
    pub pending: Vec<Events>,
}

/// Run a call into a bot, catching a panic: a failing bot must not take its table down (the
/// table's actor would end, and with it the game of everyone at the table).
pub(super) fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        p.downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into())
    })
}

/// Tell each bot of a game what happened: its own view after `events` (`None`: the start, or a
/// bot that joins now). A bot that fails on it is replaced by its stand-in
/// ([`TableBot::stand_in`]).
pub(super) fn observe_all(
    bots: &mut [Option<BotSlot>],
    rules: &GameRules,
    game: &TableGame,
    events: Option<&Events>,
) {
    for (s, slot) in bots.iter_mut().enumerate() {
        let Some(slot) = slot else { continue };
        match slot.bot.as_mut() {
            Some(bot) => {
                let seat = s as Seat;
                let view = game.bot_view(seat);
                if let Err(e) = guarded(|| bot.get().observe(events, &view)) {
                    tracing::error!(
                        "the bot at seat {seat} failed observing ({e}): the random bot plays on"
                    );
                    *bot = BotCell::new(TableBot::stand_in(rules, seat, Some(&view)));
                }
            }
            None => slot.pending.extend(events.cloned()),
        }
    }
}

impl Table {
    pub(super) fn bot_thinking(&self) -> bool {
        self.bots
            .iter()
            .any(|b| b.as_ref().is_some_and(|s| s.bot.is_none()))
    }

    /// A bot for every bot seat that has none yet.
    pub(super) fn make_bots(&mut self) {
        for s in 0..self.seats.len() {
            if let SeatKind::Bot { bot } = &self.seats[s].kind {
                if self.bots[s].is_none() {
                    let rules = self.config.rules;
                    let seat = s as Seat;
                    let seed = rand::random();
                    let b = guarded(|| {
                        TableBot::make(bot, &rules, seat, seed)
                            .or_else(|| TableBot::make("random", &rules, seat, seed))
                    })
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| {
                        tracing::error!(
                            "the bot at seat {seat} failed to start: the random bot plays"
                        );
                        TableBot::stand_in(&rules, seat, None)
                    });
                    self.bots[s] = Some(BotSlot {
                        bot: Some(BotCell::new(b)),
                        pending: Vec::new(),
                    });
                }
            }
        }
    }

    pub(super) fn bots_observe(&mut self, events: Option<&Events>) {
        if let Some(g) = &self.game {
            observe_all(&mut self.bots, &self.config.rules, g, events);
        }
    }

    /// If a bot is to move, let it think (not while the game is paused, nor while its reply
    /// waits for its pacing delay).
    pub(super) fn maybe_start_bot(&mut self) {
        if self.status != Status::Playing || self.paused() || self.bot_reply.is_some() {
            return;
        }
        let due = self.reply_due();
        let Some(g) = &self.game else { return };
        if g.is_over() {
            return;
        }
        let seat = g.to_move();
        let Some(slot) = self.bots[seat as usize].as_mut() else {
            return;
        };
        let Some(bot) = slot.bot.take() else { return };
        let mut bot = bot.into_inner();
        let view: BotView = g.bot_view(seat);
        let v = self.frames.len() as u64;
        let tx = self.tx.clone();
        let budget = Budget::Iterations(self.env.settings.bot_iterations);
        let rules = self.config.rules;
        // The bot thinks on another thread: it keeps the table's span for anything it logs.
        let span = tracing::Span::current();
        tokio::task::spawn_blocking(move || {
            let _span = span.enter();
            let action = match guarded(|| bot.choose(&view, budget)) {
                Ok(a) => a,
                Err(e) => {
                    // A bot that panicked is not trusted again: the stand-in plays on.
                    bot = TableBot::stand_in(&rules, seat, Some(&view));
                    Err(format!("the bot panicked ({e}): the random bot plays on"))
                }
            };
            let _ = tx.blocking_send(Cmd::BotDone {
                seat,
                bot,
                action,
                v,
                due,
            });
        });
    }

    /// A bot is back with its choice: play it (once its pacing delay has passed) if it is still
    /// that bot's turn at the same point.
    pub(super) async fn bot_done(
        &mut self,
        seat: Seat,
        mut bot: TableBot,
        action: Result<Move, String>,
        v: u64,
        due: u64,
    ) {
        let Some(slot) = self.bots[seat as usize].as_mut() else {
            return;
        };
        if let Some(g) = &self.game {
            if let Some(pending) = Events::concat(std::mem::take(&mut slot.pending)) {
                let view = g.bot_view(seat);
                if let Err(e) = guarded(|| bot.observe(Some(&pending), &view)) {
                    tracing::error!(
                        "the bot at seat {seat} failed observing ({e}): the random bot plays on"
                    );
                    bot = TableBot::stand_in(&self.config.rules, seat, Some(&view));
                }
            }
        }
        let name = bot.name();
        slot.bot = Some(BotCell::new(bot));
        let current = self.status == Status::Playing
            && v == self.v()
            && self
                .game
                .as_ref()
                .is_some_and(|g| g.to_move() == seat && !g.is_over());
        if current {
            let Some(g) = self.game.as_ref() else { return };
            let action = match action {
                Ok(a) if g.is_legal(a) => Some(a),
                other => {
                    tracing::warn!("bot {name} at seat {seat} failed: {other:?}");
                    g.first_legal()
                }
            };
            if let Some(action) = action {
                let reply = BotReply {
                    seat,
                    action,
                    v,
                    due,
                };
                self.play_or_park(reply).await;
                return;
            }
        }
        self.maybe_start_bot();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_ai::{Bot, BotError};
    use junqi_core::event::Event;
    use junqi_core::{Action, BoardKind, Deployment, Game, Mode, Observation, Rules};
    use rand::SeedableRng;

    /// A bot that fails on everything.
    struct Panicker;

    impl Bot for Panicker {
        fn name(&self) -> String {
            "panicker".into()
        }
        fn new_game(&mut self, _: &Rules, _: Seat, _: u64) {}
        fn deploy(&mut self) -> Result<Deployment, BotError> {
            panic!("no layout")
        }
        fn observe(&mut self, _: &[Event], _: &Observation) {
            panic!("index out of bounds")
        }
        fn choose(&mut self, _: &Observation, _: Budget) -> Result<Action, BotError> {
            panic!("no move")
        }
    }

    #[test]
    fn a_bot_that_panics_is_replaced_and_the_game_goes_on() {
        assert_eq!(guarded(|| 7), Ok(7));
        assert_eq!(
            guarded(|| -> u8 { panic!("boom {}", 1) }),
            Err("boom 1".to_string())
        );
        let rules = Rules::defaults(BoardKind::SixPlayer, Mode::Dark).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let layouts: Vec<Deployment> = (0..6).map(|_| Deployment::random(&mut rng)).collect();
        let game = TableGame::Junqi(Box::new(
            Game::new_from_deployments(rules, &layouts, 0).unwrap(),
        ));
        let mut bots: Vec<Option<BotSlot>> = (0..6).map(|_| None).collect();
        bots[5] = Some(BotSlot {
            bot: Some(BotCell::new(TableBot::Junqi(Box::new(Panicker)))),
            pending: Vec::new(),
        });
        observe_all(&mut bots, &GameRules::Junqi(rules), &game, None);
        let slot = bots[5].as_mut().unwrap();
        let bot = slot.bot.as_mut().unwrap().get();
        assert_eq!(bot.name(), "random", "the stand-in took over");
        let view = game.bot_view(5);
        assert!(guarded(|| bot.choose(&view, Budget::Iterations(1))).is_ok());
    }
}
