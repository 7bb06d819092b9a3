//! Strength measurements (release builds; ignored by default):
//! `cargo test --release -p junqi-ai --test strength -- --ignored --nocapture`
//! Select one with its name, e.g. `... --test strength heuristic_vs_random -- --ignored --nocapture`.
//! `JUNQI_GAMES` overrides the number of games.

use junqi_ai::{bot_by_name, run_match, Budget, MatchConfig};
use junqi_core::{BoardKind, Mode, Rules};

fn games(default: u64) -> u64 {
    std::env::var("JUNQI_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn measure(a: &str, b: &str, board: BoardKind, mode: Mode, n: u64) {
    let rules = Rules::defaults(board, mode).unwrap();
    let cfg = MatchConfig {
        rules,
        games: games(n),
        seed: 2026,
        budget: Budget::default(),
        threads: 2,
    };
    let r = run_match(cfg, bot_by_name(a).unwrap(), bot_by_name(b).unwrap());
    println!("[{board} {mode}] {}", r.to_text());
    assert!(r.forfeits.is_empty(), "forfeits: {:?}", r.forfeits);
}

#[test]
#[ignore]
fn heuristic_vs_random() {
    measure("heuristic", "random", BoardKind::TwoPlayer, Mode::Dark, 400);
}

#[test]
#[ignore]
fn search_vs_heuristic() {
    measure("search", "heuristic", BoardKind::TwoPlayer, Mode::Dark, 400);
}

#[test]
#[ignore]
fn search_vs_heuristic_four_player() {
    measure(
        "search",
        "heuristic",
        BoardKind::FourPlayer,
        Mode::Dark,
        100,
    );
}

#[test]
#[ignore]
fn search_vs_heuristic_flip() {
    measure("search", "heuristic", BoardKind::TwoPlayer, Mode::Flip, 200);
}
