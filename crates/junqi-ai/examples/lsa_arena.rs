//! Land-sea-air strength between two built-in players, seats alternating, on one thread:
//! `cargo run --release -p junqi-ai --example lsa_arena -- heuristic random 200 1 seed`
//! (first bot, second bot, games, seed, piece set `seed` or `taiwan`). A bot is a name of
//! `junqi_ai::lsa::BOT_NAMES` or a tuned `search@depth=4,…`. `junqi arena --board
//! land_sea_air` plays the same matches on several threads with a fuller report.

use junqi_ai::lsa::{bot_by_spec, score};
use junqi_ai::Budget;
use junqi_core::lsa::{Mode, Options, PieceSet};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let bot = |spec: String| bot_by_spec(&spec).unwrap_or_else(|e| panic!("{e}"))();
    let (mut a, mut b) = (bot(arg(0, "heuristic")), bot(arg(1, "random")));
    let games: u32 = arg(2, "200").parse().expect("games");
    let seed: u64 = arg(3, "1").parse().expect("seed");
    let set = PieceSet::from_name(&arg(4, "seed")).expect("piece set seed or taiwan");
    let options = Options {
        piece_set: set,
        ..Options::default()
    };
    let (s, [w, d, l]) = score(
        a.as_mut(),
        b.as_mut(),
        &options,
        Mode::Dark,
        games,
        seed,
        Budget::default(),
    )
    .unwrap_or_else(|(side, e)| panic!("{side:?} failed: {e}"));
    let se = (s * (1.0 - s) / f64::from(games)).sqrt();
    println!(
        "{} vs {}: {games} games, {w} wins / {d} draws / {l} losses, score {s:.3} (95% interval {:.3}-{:.3})",
        a.name(),
        b.name(),
        (s - 1.96 * se).max(0.0),
        (s + 1.96 * se).min(1.0)
    );
}
