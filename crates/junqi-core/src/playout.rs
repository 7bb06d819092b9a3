//! Uniform-random playouts: the workhorse of perft-style checks, benchmarks and Monte Carlo
//! bots.

use crate::event::{Action, Outcome};
use crate::options::Rules;
use crate::position::Position;
use crate::referee::ActionList;
use rand::Rng;

/// Play up to `plies` uniformly random legal actions from `pos`, stopping early if the game
/// ends. `buf` is a reusable action buffer (no allocation once it has grown). Returns the plies
/// played.
pub fn random_plies(
    pos: &mut Position,
    plies: u32,
    rng: &mut impl Rng,
    buf: &mut ActionList,
) -> u32 {
    let start = pos.plies();
    for _ in 0..plies {
        if pos.is_over() {
            break;
        }
        buf.clear();
        pos.legal_actions_into(buf);
        // The referee never leaves a seat to move without a legal action while the game goes on.
        debug_assert!(!buf.is_empty());
        let a: Action = buf[rng.gen_range(0..buf.len())];
        pos.play_unchecked(a, &mut ());
    }
    pos.plies() - start
}

/// Play uniformly random legal actions from `pos` (a game in progress) until the game ends.
/// Returns the outcome and the plies played.
pub fn random_playout(
    pos: &mut Position,
    rng: &mut impl Rng,
    buf: &mut ActionList,
) -> (Outcome, u32) {
    let plies = random_plies(pos, u32::MAX, rng, buf);
    (pos.outcome().expect("game over"), plies)
}

/// A position reached by `plies` uniformly random plies from a random start (random
/// deployments or a deal) under `rules`, drawn again until the game is still going: sample
/// positions for benchmarks, perft suites and tests.
pub fn random_position(rules: Rules, plies: u32, rng: &mut impl Rng) -> Position {
    let mut buf = Vec::new();
    loop {
        let mut pos = Position::random_start(rules, rng);
        random_plies(&mut pos, plies, rng, &mut buf);
        if !pos.is_over() {
            return pos;
        }
    }
}

/// Count the action sequences of `depth` plies from `pos` (perft). A finished game counts as a
/// leaf of its depth only if `depth == 0`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let actions = pos.legal_actions();
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|&a| {
            let mut next = pos.clone();
            next.play_unchecked(a, &mut ());
            perft(&next, depth - 1)
        })
        .sum()
}
