//! Land-sea-air layouts as a player would choose them: the flag in a city guarded by what kills
//! its attackers, and the other two cities, where an enemy hunting the flag attacks first,
//! holding pieces that kill whoever attacks them.
//!
//! The generator draws legal random layouts (`Deployment::random`) and keeps the best by
//! [`guard_score`], so every layout it gives is legal and they differ from game to game.

use junqi_core::lsa::{Board, Deployment, PieceSet, Role, Side, SquareType};
use rand::Rng;

/// How many random layouts are drawn for one choice.
const DRAWS: usize = 48;

/// What a piece is worth next to the flag or in a decoy city: landmines, bombs and traps kill
/// the attacker (a trap kills weapons), the top officers beat most of what comes.
fn guard(role: Role) -> f64 {
    match role {
        Role::Landmine => 3.0,
        Role::Bomb | Role::Trap => 2.0,
        Role::Marshal | Role::ArmyGroupCommander | Role::General => 1.0,
        _ => 0.0,
    }
}

/// How well a layout keeps its flag: the guards on the squares next to the flag (by road or
/// rail), and the guards in the two cities the flag does not use (decoys that kill attackers
/// and keep the flag's city among three that look alike).
pub fn guard_score(d: &Deployment) -> f64 {
    let b = Board::get();
    let Some((flag, _)) = d.pieces().find(|(_, r)| *r == Role::Flag) else {
        return 0.0;
    };
    let around: f64 = b
        .road_neighbours(flag)
        .iter()
        .filter_map(|s| d.at(s))
        .map(guard)
        .sum();
    let decoys: f64 = b
        .of_side(d.side(), SquareType::City)
        .iter()
        .filter(|&s| s != flag)
        .filter_map(|s| d.at(s))
        .map(guard)
        .sum();
    around + decoys
}

/// A guarded layout for `side`: the best of [`DRAWS`] random legal layouts by
/// [`guard_score`] (ties to the first drawn).
pub fn guarded_layout(side: Side, set: PieceSet, rng: &mut impl Rng) -> Deployment {
    let mut best = Deployment::random(side, set, rng);
    let mut best_score = guard_score(&best);
    for _ in 1..DRAWS {
        let d = Deployment::random(side, set, rng);
        let s = guard_score(&d);
        if s > best_score {
            (best, best_score) = (d, s);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Guarded layouts are legal for both sides and piece sets, vary from seed to seed, and
    /// guard their flag better than random layouts do on average.
    #[test]
    fn guarded_layouts_are_legal_varied_and_guarded() {
        for set in PieceSet::ALL {
            for side in [Side::South, Side::North] {
                let mut rng = ChaCha8Rng::seed_from_u64(7);
                let (mut guarded, mut random) = (0.0, 0.0);
                let mut flags = std::collections::HashSet::new();
                for _ in 0..40 {
                    let d = guarded_layout(side, set, &mut rng);
                    d.validate(set).expect("legal");
                    guarded += guard_score(&d);
                    flags.insert(d.pieces().find(|(_, r)| *r == Role::Flag).unwrap().0);
                    random += guard_score(&Deployment::random(side, set, &mut rng));
                }
                assert!(
                    guarded > 1.5 * random,
                    "{set:?} {side:?}: {guarded} vs {random}"
                );
                assert!(flags.len() >= 2, "the flag's city varies: {flags:?}");
            }
        }
    }
}
