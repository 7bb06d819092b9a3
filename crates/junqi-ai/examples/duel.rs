//! Play a match between two named bots and print the report (and each lost or drawn game).
//! `cargo run --release -p junqi-ai --example duel -- heuristic random two_player dark 100 [seed]`
//!
//! A search bot may be tuned for an experiment: `search@depth=3,nodes=300000,hw=0.5,q=4`
//! starts from the standard level and changes the named settings.

use junqi_ai::{bot_by_spec, run_match, Budget, MatchConfig};
use junqi_core::{BoardKind, Mode, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = args.get(1).map_or("heuristic", |s| s.as_str());
    let b = args.get(2).map_or("random", |s| s.as_str());
    let board: BoardKind = args
        .get(3)
        .map_or("two_player", |s| s.as_str())
        .parse()
        .unwrap();
    let mode: Mode = args.get(4).map_or("dark", |s| s.as_str()).parse().unwrap();
    let games: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(6).and_then(|s| s.parse().ok()).unwrap_or(2026);
    let rules = Rules::defaults(board, mode).unwrap();
    let cfg = MatchConfig {
        rules,
        games,
        seed,
        budget: Budget::default(),
        threads: 2,
    };
    let r = run_match(cfg, bot_by_spec(a).unwrap(), bot_by_spec(b).unwrap());
    for g in &r.per_game {
        if g.score < 1.0 {
            println!(
                "game {} south={} score {} plies {} {:?}",
                g.index, g.first_bot_south, g.score, g.result.plies, g.result.outcome
            );
        }
    }
    println!("{}", r.to_text());
}
