//! Uniform-random playouts and perft on the land-sea-air board: random starts from random
//! legal deployments (§3), random legal play to the end of the game, and action counts to a
//! depth, for tests, benchmarks, `junqi selfplay` and `junqi perft`.
//!
//! Nothing here allocates: the action buffer is a fixed-capacity [`ActionList`].

use super::board::Side;
use super::deploy::Deployment;
use super::movegen::ActionList;
use super::position::{Options, Position, Status};
use rand::Rng;

/// A starting position from two random legal deployments of the options' piece set, the
/// options' first mover to move.
pub fn random_start(opts: Options, rng: &mut impl Rng) -> Position {
    let south = Deployment::random(Side::South, opts.piece_set, rng);
    let north = Deployment::random(Side::North, opts.piece_set, rng);
    Position::new(opts, &south, &north).expect("random deployments are legal")
}

/// Play up to `plies` uniformly random legal actions from `pos`, stopping when the game ends.
/// `buf` is a reusable action buffer. Returns the plies played.
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
        // The referee never leaves a side to move without an action while the game goes on.
        debug_assert!(!buf.is_empty());
        if buf.is_empty() {
            break;
        }
        let a = buf[rng.gen_range(0..buf.len())];
        pos.apply_legal(a);
    }
    pos.plies() - start
}

/// Play uniformly random legal actions from `pos` until the game ends. Returns how it ended
/// and the plies played.
pub fn random_playout(
    pos: &mut Position,
    rng: &mut impl Rng,
    buf: &mut ActionList,
) -> (Status, u32) {
    let plies = random_plies(pos, u32::MAX, rng, buf);
    (pos.status(), plies)
}

/// Count the action sequences of `depth` plies from `pos` (perft). A finished game has no
/// action, so it counts only at depth 0.
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
        .map(|a| {
            let mut next = pos.clone();
            next.apply_legal(a);
            perft(&next, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    #[test]
    fn lsa_playouts_end_and_perft_counts() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut buf = ActionList::new();
        for _ in 0..4 {
            let mut p = random_start(Options::default(), &mut rng);
            let (status, plies) = random_playout(&mut p, &mut rng, &mut buf);
            assert_ne!(status, Status::Playing);
            assert_eq!(plies, p.plies());
        }
        let p = random_start(Options::default(), &mut rng);
        let one = perft(&p, 1);
        assert_eq!(one, p.legal_actions().len() as u64);
        let two: u64 = p
            .legal_actions()
            .iter()
            .map(|a| {
                let mut n = p.clone();
                n.apply(a).unwrap();
                n.legal_actions().len() as u64
            })
            .sum();
        assert_eq!(perft(&p, 2), two);
        assert_eq!(perft(&p, 0), 1);
    }
}
