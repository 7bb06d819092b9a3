//! Uniform-random playouts: the workhorse of perft-style checks, benchmarks and Monte Carlo
//! bots.

use crate::event::{Action, Outcome};
use crate::position::Position;
use crate::referee::ActionList;
use rand::Rng;

/// Play uniformly random legal actions from `pos` until the game ends. `buf` is a reusable
/// action buffer (no allocation once it has grown). Returns the outcome and the plies played.
pub fn random_playout(
    pos: &mut Position,
    rng: &mut impl Rng,
    buf: &mut ActionList,
) -> (Outcome, u32) {
    let start = pos.plies();
    while pos.outcome().is_none() {
        buf.clear();
        pos.legal_actions_into(buf);
        // The referee never leaves a seat to move without a legal action while the game goes on.
        debug_assert!(!buf.is_empty());
        let a: Action = buf[rng.gen_range(0..buf.len())];
        pos.play_unchecked(a, &mut ());
    }
    (pos.outcome().expect("game over"), pos.plies() - start)
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
