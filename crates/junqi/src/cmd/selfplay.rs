//! `junqi selfplay`: uniform-random legal play from random deployments (or deals), with counts
//! and speed.

use super::rules_args::RulesArgs;
use anyhow::{bail, Result};
use junqi_core::playout::random_playout;
use junqi_core::{Outcome, Position, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::collections::BTreeMap;
use std::time::Instant;

/// Arguments of `junqi selfplay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the random generator (games are reproducible from it).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default 1, so figures compare per core).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Totals of a batch of games (of any board: the land-sea-air self-play counts here too).
#[derive(Default, Clone)]
pub(crate) struct Tally {
    games: u64,
    plies: u64,
    results: BTreeMap<&'static str, u64>,
}

impl Tally {
    fn add(&mut self, o: &Outcome, plies: u32) {
        self.count(reason_label(o), plies);
    }
    /// Count one game of `plies` plies that ended for `reason`.
    pub(crate) fn count(&mut self, reason: &'static str, plies: u32) {
        self.games += 1;
        self.plies += plies as u64;
        *self.results.entry(reason).or_default() += 1;
    }
    fn merge(&mut self, o: Tally) {
        self.games += o.games;
        self.plies += o.plies;
        for (k, v) in o.results {
            *self.results.entry(k).or_default() += v;
        }
    }
}

fn reason_label(o: &Outcome) -> &'static str {
    match o {
        Outcome::Win { reason, .. } => reason.name(),
        Outcome::Draw { reason } => reason.name(),
        Outcome::Aborted => "aborted",
    }
}

fn run_games(rules: Rules, seed: u64, first: u64, count: u64) -> Tally {
    let mut t = Tally::default();
    let mut buf = Vec::with_capacity(256);
    for g in first..first + count {
        // One generator per game, so results do not depend on the thread split.
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut pos = Position::random_start(rules, &mut rng);
        let (o, plies) = random_playout(&mut pos, &mut rng, &mut buf);
        t.add(&o, plies);
    }
    t
}

/// Run the command.
pub fn run(a: Args) -> Result<()> {
    if a.rules.board == super::lsa::BOARD {
        return super::lsa::run_selfplay(super::lsa::SelfPlay {
            rules: &a.rules,
            games: a.games,
            seed: a.seed,
            threads: a.threads,
            json: a.json,
        });
    }
    let rules = a.rules.rules()?;
    let (tally, secs) = play_batches(a.threads, a.games, |first, count| {
        run_games(rules, a.seed, first, count)
    })?;
    report(
        (rules.board.name(), rules.mode.name()),
        (a.seed, a.threads, a.json),
        &tally,
        secs,
    );
    Ok(())
}

/// Play `games` games on `threads` threads, `play(first, count)` playing the games numbered
/// `first..first + count`; the totals and the seconds taken.
pub(crate) fn play_batches(
    threads: usize,
    games: u64,
    play: impl Fn(u64, u64) -> Tally + Sync,
) -> Result<(Tally, f64)> {
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let start = Instant::now();
    let threads = threads as u64;
    let per = games / threads;
    let play = &play;
    let tally = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let count = if i == threads - 1 {
                    games - per * (threads - 1)
                } else {
                    per
                };
                s.spawn(move || play(i * per, count))
            })
            .collect();
        let mut total = Tally::default();
        for h in handles {
            total.merge(h.join().expect("worker"));
        }
        total
    });
    Ok((tally, start.elapsed().as_secs_f64()))
}

/// Print the totals of a self-play run, as text or (`json`) one JSON object.
pub(crate) fn report(
    (board, mode): (&str, &str),
    (seed, threads, json): (u64, usize, bool),
    tally: &Tally,
    secs: f64,
) {
    let pps = tally.plies as f64 / secs.max(1e-9);
    if json {
        println!(
            "{}",
            json!({
                "board": board, "mode": mode, "threads": threads, "seed": seed,
                "games": tally.games, "plies": tally.plies, "seconds": secs, "plies_per_sec": pps,
                "results": tally.results,
            })
        );
    } else {
        println!("board {board} mode {mode} seed {seed} threads {threads}");
        println!(
            "games {}  plies {}  ({:.1} per game)",
            tally.games,
            tally.plies,
            tally.plies as f64 / tally.games.max(1) as f64
        );
        println!("seconds {secs:.3}  plies/s {pps:.0}");
        for (k, v) in &tally.results {
            println!("  {k:<18} {v}");
        }
    }
}
