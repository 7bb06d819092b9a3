//! The wall-clock time of every decision of one bot over whole games: the first bot plays team 0
//! (seat 0 in free-for-all), the second every other seat, at the default budget, and each of the
//! first bot's decisions is timed.
//!
//! `cargo run --release -p junqi-ai --example movetime -- search heuristic six_player dark [games] [seed] [options-json]`
//!
//! e.g. `… six_player dark 2 1 '{"teams":"none"}'`. `MOVETIME_BUDGET=ms:30` (or `nodes:N`)
//! gives every bot that budget instead of the default (a bot's own level budget). Prints per game and over all games the
//! number of timed decisions (those with more than one legal action: a bot answers a single
//! legal action at once), their mean and their maximum. The games are the arena's
//! ([`junqi_ai::play_game`]), so every mode is played as a match would play it.

use junqi_ai::{bot_by_spec, game_seed, match_seats, play_game, Bot, BotError, Budget};
use junqi_core::{Action, BoardKind, Deployment, Event, Mode, Observation, Options, Rules, Seat};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A bot whose decisions with more than one legal action are timed into `times`.
struct Timed {
    bot: Box<dyn Bot>,
    times: Arc<Mutex<Vec<f64>>>,
}

impl Bot for Timed {
    fn name(&self) -> String {
        self.bot.name()
    }
    fn new_game(&mut self, rules: &Rules, seat: Seat, seed: u64) {
        self.bot.new_game(rules, seat, seed)
    }
    fn deploy(&mut self) -> Result<Deployment, BotError> {
        self.bot.deploy()
    }
    fn observe(&mut self, events: &[Event], obs: &Observation) {
        self.bot.observe(events, obs)
    }
    fn choose(&mut self, obs: &Observation, budget: Budget) -> Result<Action, BotError> {
        let start = Instant::now();
        let action = self.bot.choose(obs, budget);
        if obs.legal_actions.len() > 1 {
            self.times
                .lock()
                .unwrap()
                .push(start.elapsed().as_secs_f64());
        }
        action
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = args.get(1).map_or("search", |s| s.as_str());
    let b = args.get(2).map_or("heuristic", |s| s.as_str());
    let board: BoardKind = args
        .get(3)
        .map_or("six_player", |s| s.as_str())
        .parse()
        .unwrap();
    let mode: Mode = args.get(4).map_or("dark", |s| s.as_str()).parse().unwrap();
    let games: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(1);
    let seed: u64 = args.get(6).and_then(|s| s.parse().ok()).unwrap_or(1);
    let options: Option<serde_json::Value> = args.get(7).map(|s| serde_json::from_str(s).unwrap());
    let opts = Options::from_json(board, mode, options.as_ref()).unwrap();
    let rules = Rules::new(board, mode, opts).unwrap();
    let (fa, fb) = (bot_by_spec(a).unwrap(), bot_by_spec(b).unwrap());
    let budget = match std::env::var("MOVETIME_BUDGET") {
        Ok(b) => junqi_ai::engine::parse_budget(&b).unwrap(),
        Err(_) => Budget::default(),
    };
    let mut all: Vec<f64> = Vec::new();
    for g in 0..games {
        // Game 2g of a match: the first bot on team 0.
        let index = g * junqi_ai::arena::deal_games(&rules);
        let [first, _] = match_seats(&rules, index);
        let times = Arc::new(Mutex::new(Vec::new()));
        let mut bots: Vec<Box<dyn Bot>> = (0..rules.seats() as Seat)
            .map(|s| {
                if first.contains(&s) {
                    Box::new(Timed {
                        bot: fa(),
                        times: times.clone(),
                    }) as Box<dyn Bot>
                } else {
                    fb()
                }
            })
            .collect();
        let result = play_game(rules, &mut bots, game_seed(&rules, seed, index), budget);
        let times = times.lock().unwrap().clone();
        report(
            &format!("game {g} ({} plies, {:?})", result.plies, result.outcome),
            &times,
        );
        all.extend(times);
    }
    report("all games", &all);
}

fn report(what: &str, times: &[f64]) {
    let n = times.len().max(1) as f64;
    let mean = times.iter().sum::<f64>() / n;
    let max = times.iter().copied().fold(0.0, f64::max);
    println!(
        "{what}: {} decisions, mean {:.3} s, max {:.3} s",
        times.len(),
        mean,
        max
    );
}
