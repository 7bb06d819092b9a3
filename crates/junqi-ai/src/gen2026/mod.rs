//! `search-2026`: the search bot as it played on 2026-12-02 (the generation the expert of
//! issue 14 judged "casual, at best weak club"), frozen so that every later generation is
//! measured against the same opponent. These modules are copies of `search`, `eval`,
//! `heuristic`, `belief` and `deploygen` taken at that date, with their tests left in the live
//! modules.
//!
//! **Never edit this code** (beyond what a change of `junqi_core`'s API forces on it): a frozen
//! opponent is only useful if it does not move. `tests/frozen.rs` pins the moves it plays in
//! seeded games, so an accidental change to it (or to the core under it) shows up.

// The copies keep the whole public surface of the modules they froze; the bot uses only part.
#![allow(dead_code)]

mod belief;
mod deploygen;
mod eval;
mod heuristic;
mod search;

use crate::bot::{Bot, BotError, Budget};
use junqi_core::{Action, Deployment, Event, Observation, Rules, Seat};

/// The frozen 2026 search bot (`search-2026`): depth 3 over sampled worlds, 190 000 nodes a
/// decision, as `search` was on 2026-12-02.
pub fn search_2026() -> Box<dyn Bot> {
    Box::new(search::SearchBot::new(search::SearchConfig {
        name: "search-2026",
        ..search::SearchConfig::STANDARD
    }))
}

/// The frozen 2026 strong level (`search-strong-2026`): the same with 1 500 000 nodes.
pub fn search_strong_2026() -> Box<dyn Bot> {
    Box::new(search::SearchBot::new(search::SearchConfig {
        name: "search-strong-2026",
        default_budget: Budget::Nodes(1_500_000),
        ..search::SearchConfig::STANDARD
    }))
}

/// The frozen 2026 one-ply heuristic (`heuristic-2026`).
pub fn heuristic_2026() -> Box<dyn Bot> {
    Box::new(Renamed(
        "heuristic-2026",
        heuristic::HeuristicBot::default(),
    ))
}

/// A bot under another name (the frozen heuristic calls itself `heuristic`, and its code is not
/// to be edited).
struct Renamed<B>(&'static str, B);

impl<B: Bot> Bot for Renamed<B> {
    fn name(&self) -> String {
        self.0.into()
    }
    fn new_game(&mut self, rules: &Rules, seat: Seat, seed: u64) {
        self.1.new_game(rules, seat, seed)
    }
    fn deploy(&mut self) -> Result<Deployment, BotError> {
        self.1.deploy()
    }
    fn observe(&mut self, events: &[Event], obs: &Observation) {
        self.1.observe(events, obs)
    }
    fn choose(&mut self, obs: &Observation, budget: Budget) -> Result<Action, BotError> {
        self.1.choose(obs, budget)
    }
}
