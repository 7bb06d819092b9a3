//! The [`Bot`] trait: a computer player sees only an [`Observation`] (what its seat may know) and
//! a compute [`Budget`], never the referee's position.

use junqi_core::{Action, Deployment, Event, Observation, Rules, Seat};
use rand::Rng;
use std::time::Duration;

/// How much a bot may think about one decision. Iterations and nodes make results reproducible;
/// a time limit is for interactive play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A number of search iterations (sampled worlds × playouts, as the bot defines them).
    Iterations(u64),
    /// A number of search nodes.
    Nodes(u64),
    /// Wall-clock time (not reproducible).
    Time(Duration),
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::Iterations(1000)
    }
}

/// A computer player.
///
/// The game driver (arena, server, engine protocol) calls [`Bot::new_game`], then
/// [`Bot::deploy`] (modes other than flip), then, as play goes on, [`Bot::observe`] after every
/// referee step with that step's (public) events and the seat's new observation, and
/// [`Bot::choose`] whenever the seat is to move.
pub trait Bot: Send {
    /// The bot's name as the arena and the engine protocol show it.
    fn name(&self) -> String;

    /// A new game starts: the rules and the seat this bot plays, and a seed for its randomness.
    fn new_game(&mut self, rules: &Rules, seat: Seat, seed: u64);

    /// The bot's layout for its seat (not called in flip play).
    fn deploy(&mut self) -> Result<Deployment, BotError>;

    /// The referee announced `events`; `obs` is the seat's observation after them.
    fn observe(&mut self, events: &[Event], obs: &Observation);

    /// Choose an action for the seat to move: one of `obs.legal_actions` (the referee's list for
    /// the seat; `obs.to_move` is the bot's seat).
    fn choose(&mut self, obs: &Observation, budget: Budget) -> Result<Action, BotError>;
}

/// A bot that could not answer (an external engine that crashed, timed out or spoke nonsense).
/// The game driver forfeits the bot's game and reports the message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BotError(pub String);

/// A uniformly random player (with a random legal deployment).
pub struct RandomBot {
    rng: rand_chacha::ChaCha8Rng,
}

impl Default for RandomBot {
    fn default() -> Self {
        use rand::SeedableRng;
        RandomBot {
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(0),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }
    fn new_game(&mut self, _rules: &Rules, _seat: Seat, seed: u64) {
        use rand::SeedableRng;
        self.rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    }
    fn deploy(&mut self) -> Result<Deployment, BotError> {
        Ok(Deployment::random(&mut self.rng))
    }
    fn observe(&mut self, _events: &[Event], _obs: &Observation) {}
    fn choose(&mut self, obs: &Observation, _budget: Budget) -> Result<Action, BotError> {
        let actions = &obs.legal_actions;
        if actions.is_empty() {
            return Err(BotError("asked to move with no legal action".into()));
        }
        Ok(actions[self.rng.gen_range(0..actions.len())])
    }
}
