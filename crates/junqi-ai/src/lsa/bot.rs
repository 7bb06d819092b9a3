//! The [`LsaBot`] trait and the uniformly random land-sea-air player.

use crate::{BotError, Budget};
use junqi_core::lsa::{Action, Deployment, Event, Options, Side, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A computer player of 陆海空三军棋.
///
/// The game driver (arena, server, terminal, engine protocol) calls [`LsaBot::new_game`], then
/// [`LsaBot::deploy`], then, as play goes on, [`LsaBot::observe`] after every referee step with
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
    use junqi_core::lsa::{events_for, Mode, Observer, Position};

    /// Two random bots play a whole game through the trait: every choice is legal and the game
    /// ends (by a win or the quiet-ply draw).
    #[test]
    fn two_random_bots_finish_a_game_with_legal_choices() {
        let opts = Options::default();
        let mut bots = [LsaRandomBot::default(), LsaRandomBot::default()];
        let sides = [Side::South, Side::North];
        for (i, b) in bots.iter_mut().enumerate() {
            b.new_game(&opts, sides[i], 7 + i as u64);
        }
        let layouts = [bots[0].deploy().unwrap(), bots[1].deploy().unwrap()];
        let mut pos = Position::new(opts, &layouts[0], &layouts[1]).expect("legal layouts");
        let mut plies = 0;
        while !pos.is_over() {
            let me = pos.to_move();
            let view = pos.view(Mode::Dark, Observer::Seat(me));
            let a = bots[me as usize].choose(&view, Budget::Nodes(1)).unwrap();
            assert!(pos.is_legal(a), "bot chose an illegal action {a}");
            let step = pos.apply(a).unwrap();
            for (i, b) in bots.iter_mut().enumerate() {
                let obs = Observer::Seat(sides[i]);
                let evs: Vec<Event> = events_for(obs, step.events.as_slice()).collect();
                b.observe(&evs, &pos.view(Mode::Dark, obs));
            }
            plies += 1;
            assert!(plies < 100_000, "game did not end");
        }
    }
}
