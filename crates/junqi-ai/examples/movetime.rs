//! The wall-clock time of every decision of one bot over whole games: the first bot plays team 0
//! (seat 0 in free-for-all), the second every other seat, at the default budget, and each of the
//! first bot's decisions is timed.
//!
//! `cargo run --release -p junqi-ai --example movetime -- search heuristic six_player dark [games] [seed] [options-json]`
//! (mode `flip`: two-player board, a deal from the game's seed)
//!
//! e.g. `… six_player dark 2 1 '{"teams":"none"}'`. `MOVETIME_BUDGET=ms:30` (or `nodes:N`)
//! gives every bot that budget instead of the default (a bot's own level budget). Prints per game and over all games the
//! number of timed decisions (those with more than one legal action: a bot answers a single
//! legal action at once), their mean and their maximum.

use junqi_ai::{bot_by_spec, game_seed, match_seats, Bot, Budget};
use junqi_core::{BoardKind, Deployment, Event, Mode, Observer, Options, Position, Rules, Seat};
use rand::SeedableRng;
use std::time::Instant;

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
        let mut bots: Vec<Box<dyn Bot>> = (0..rules.seats() as Seat)
            .map(|s| if first.contains(&s) { fa() } else { fb() })
            .collect();
        let gs = game_seed(&rules, seed, index);
        for (s, bot) in bots.iter_mut().enumerate() {
            bot.new_game(
                &rules,
                s as Seat,
                gs.wrapping_mul(31).wrapping_add(s as u64 + 1),
            );
        }
        // Flip play has no deployment: the pieces are shuffled face down from the game's seed.
        let mut pos = if rules.is_flip() {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(gs);
            Position::deal(rules, 0, &mut rng).unwrap()
        } else {
            let layouts: Vec<Deployment> = bots.iter_mut().map(|b| b.deploy().unwrap()).collect();
            Position::from_deployments(rules, &layouts, 0).unwrap()
        };
        for (s, bot) in bots.iter_mut().enumerate() {
            bot.observe(&[], &pos.observe(Observer::Seat(s as Seat)));
        }
        let mut times: Vec<f64> = Vec::new();
        let mut events: Vec<Event> = Vec::new();
        while !pos.is_over() {
            let seat = pos.to_move();
            let obs = pos.observe(Observer::Seat(seat));
            let start = Instant::now();
            let action = bots[seat as usize].choose(&obs, budget).unwrap();
            let t = start.elapsed().as_secs_f64();
            if first.contains(&seat) && obs.legal_actions.len() > 1 {
                times.push(t);
            }
            events.clear();
            pos.play(action, &mut events).unwrap();
            for (s, bot) in bots.iter_mut().enumerate() {
                bot.observe(&events, &pos.observe(Observer::Seat(s as Seat)));
            }
        }
        report(
            &format!(
                "game {g} ({} plies, {:?})",
                pos.plies(),
                pos.outcome().unwrap()
            ),
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
