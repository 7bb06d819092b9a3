//! The [`LsaBot`] trait and the uniformly random land-sea-air player.

use crate::{BotError, Budget};
use junqi_core::lsa::{Action, Deployment, Event, Options, Side, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A computer player of 陆海空三军棋.
///
/// The game driver (arena, server, terminal, engine protocol) calls [`LsaBot::new_game`], then
/// [`LsaBot::deploy`], then [`LsaBot::observe`] with no events and the starting view, then, as
/// play goes on, [`LsaBot::observe`] after every referee step with
/// the events the bot's seat receives (`junqi_core::lsa::events_for(Observer::Seat(side), …)`)
/// and the seat's new view, and [`LsaBot::choose`] whenever the seat is to move.
pub trait LsaBot: Send {
    /// The bot's name as the arena and the engine protocol show it.
    fn name(&self) -> String;

    /// A new game starts: the rule options, the side this bot plays, a seed for its randomness.
    fn new_game(&mut self, options: &Options, side: Side, seed: u64);

    /// The bot's layout for its side (validated by the referee).
    fn deploy(&mut self) -> Result<Deployment, BotError>;

    /// The referee announced `events` (those the seat receives); `view` is the seat's view after
    /// them.
    fn observe(&mut self, events: &[Event], view: &View);

    /// Choose one of `view.legal_actions` (the bot's side is to move).
    fn choose(&mut self, view: &View, budget: Budget) -> Result<Action, BotError>;
}

/// A uniformly random player with a random legal layout.
pub struct LsaRandomBot {
    rng: ChaCha8Rng,
    side: Side,
    options: Options,
}

impl Default for LsaRandomBot {
    fn default() -> Self {
        LsaRandomBot {
            rng: ChaCha8Rng::seed_from_u64(0),
            side: Side::South,
            options: Options::default(),
        }
    }
}

impl LsaBot for LsaRandomBot {
    fn name(&self) -> String {
        "random".into()
    }
    fn new_game(&mut self, options: &Options, side: Side, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.side = side;
        self.options = *options;
    }
    fn deploy(&mut self) -> Result<Deployment, BotError> {
        Ok(Deployment::random(
            self.side,
            self.options.piece_set,
            &mut self.rng,
        ))
    }
    fn observe(&mut self, _events: &[Event], _view: &View) {}
    fn choose(&mut self, view: &View, _budget: Budget) -> Result<Action, BotError> {
        let actions = &view.legal_actions;
        if actions.is_empty() {
            return Err(BotError("asked to move with no legal action".into()));
        }
        Ok(actions[self.rng.gen_range(0..actions.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsa::{play_game, LsaResult};
    use junqi_core::lsa::Mode;

    /// Two random bots play whole games through the trait: the driver refuses any illegal
    /// choice, so finishing means every choice was legal; the game ends by a win or a draw.
    #[test]
    fn two_random_bots_finish_a_game_with_legal_choices() {
        for seed in 0..4 {
            let (mut a, mut b) = (LsaRandomBot::default(), LsaRandomBot::default());
            let result = play_game(
                [&mut a, &mut b],
                &Options::default(),
                Mode::Dark,
                seed,
                Budget::Nodes(1),
            );
            assert!(
                matches!(
                    result.as_ref().map(|p| p.result()),
                    Ok(LsaResult::Win(_) | LsaResult::Draw)
                ),
                "seed {seed}: {result:?}"
            );
        }
    }
}
