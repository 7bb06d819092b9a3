//! Land-sea-air layouts as a player would choose them: the flag in a city guarded by what kills
//! its attackers, and the other two cities, where an enemy hunting the flag attacks first,
//! holding pieces that kill whoever attacks them.
//!
//! The generator draws legal random layouts (`Deployment::random`), walls the flag in each
//! ([`wall_flag`]: a landmine on every square next to it, as far as the set has them, then a
//! trap, then a bomb) and keeps the best by [`guard_score`], so every layout it gives is legal
//! and they differ from game to game.
//!
//! Why a wall: a flag's city has three road neighbours and only ground moves reach it (cities
//! are on no air line), so three landmines close it to every piece but an engineer (and a
//! bomb or missile, which dies opening the way). Measured against the heuristic, the layouts
//! without it lost most games to one enemy piece walking onto an open flag.

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

/// The pieces that close a square next to the flag, best first: a landmine kills every
/// attacker but an engineer or fighter (C3), a trap every one but those two (C2), a bomb
/// takes its attacker with it (C4).
const WALL: [Role; 3] = [Role::Landmine, Role::Trap, Role::Bomb];

/// `d` with its flag walled: every square next to the flag (by road) gets the best wall piece
/// standing elsewhere when that is better than what it holds, by a swap. Each swap keeps the layout legal
/// (§3: the squares next to a city are in local rows 4–5, open to every wall piece, and the
/// piece moved out goes where a wall piece stood, outside the front row); a layout the swaps
/// would make illegal is returned unchanged.
pub fn wall_flag(d: Deployment, set: PieceSet) -> Deployment {
    let b = Board::get();
    let Some((flag, _)) = d.pieces().find(|(_, r)| *r == Role::Flag) else {
        return d;
    };
    let around = b.road_neighbours(flag);
    let mut walled = d;
    let rank = |r: Option<Role>| {
        r.and_then(|r| WALL.iter().position(|&w| w == r))
            .unwrap_or(WALL.len())
    };
    for n in around.iter() {
        // The best wall piece not yet next to the flag, if it is better than what stands here.
        let spare = walled
            .pieces()
            .filter(|&(s, r)| !around.contains(s) && rank(Some(r)) < rank(walled.at(n)))
            .min_by_key(|&(_, r)| rank(Some(r)));
        let Some((from, wall)) = spare else { continue };
        let moved = walled.at(n);
        walled.set(n, Some(wall));
        walled.set(from, moved);
    }
    if walled.validate(set).is_ok() {
        walled
    } else {
        d
    }
}

/// A guarded layout for `side`: the best of [`DRAWS`] random legal layouts, each with its flag
/// walled ([`wall_flag`]), by [`guard_score`] (ties to the first drawn).
pub fn guarded_layout(side: Side, set: PieceSet, rng: &mut impl Rng) -> Deployment {
    let mut best = wall_flag(Deployment::random(side, set, rng), set);
    let mut best_score = guard_score(&best);
    for _ in 1..DRAWS {
        let d = wall_flag(Deployment::random(side, set, rng), set);
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

    /// Every square next to the flag holds a wall piece: three landmines under the seed set;
    /// the Taiwanese set's landmine, trap and bomb.
    #[test]
    fn guarded_layouts_wall_the_flag() {
        let b = Board::get();
        for set in PieceSet::ALL {
            for side in [Side::South, Side::North] {
                let mut rng = ChaCha8Rng::seed_from_u64(11);
                for _ in 0..60 {
                    let d = guarded_layout(side, set, &mut rng);
                    let flag = d.pieces().find(|(_, r)| *r == Role::Flag).unwrap().0;
                    let around: Vec<Role> = b
                        .road_neighbours(flag)
                        .iter()
                        .map(|s| d.at(s).expect("a piece next to the flag"))
                        .collect();
                    assert_eq!(around.len(), 3);
                    for r in &around {
                        assert!(WALL.contains(r), "{set:?} {side:?}: {r} next to the flag");
                    }
                    if set == PieceSet::Seed {
                        assert!(around.iter().all(|&r| r == Role::Landmine), "{around:?}");
                    }
                }
            }
        }
    }
}
