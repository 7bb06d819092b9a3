//! Flip play's chance root ([`SearchConfig::chance`]): what a root flip turns up is searched
//! as chance over the pool of face-down identities, while every other root action is searched
//! once.
//!
//! In flip play a face-down piece cannot move, be attacked or be passed over, and below the
//! root a flip turns up nothing ([`super::play_in_tree`]). The evaluation counts a colour's
//! face-down pieces only as a whole (their sum and how many of them move), and that whole is
//! public. So the search of a move does not depend on which sampled world it runs in: sampling
//! worlds searched every move once per world for nothing, and judged each flip by the one
//! identity its world happened to deal it (most flip-phase decisions afforded one to four
//! worlds), so the flip chosen was the one whose draw was luckiest. Here the moves are searched
//! once, and each flip is the weighted mean of its searches over identities from the pool:
//! every identity when the budget allows, else a stratified sample of them, the same for every
//! flip so that flips are compared on the same draws.

use super::SearchConfig;
use junqi_core::{Action, Observation, Position, Role, Seat, Square};
use rand::Rng;

/// The fewest identities a flip is searched with when the pool is sampled.
const MIN_PICKS: usize = 4;

/// The searches of each root flip: the position after the flip for each identity searched, and
/// its weight (the weights of one flip sum to 1).
pub(super) struct FlipChance {
    children: Vec<Vec<(Position, f64)>>,
}

impl FlipChance {
    /// The chance searches for the root `actions` (index by index; empty for other actions) in
    /// `world`, a sampled world of `obs`. Identities are drawn (when not all are searched) with
    /// `rng`. `None` if `world` has no face-down piece or a world cannot be built.
    pub(super) fn new(
        cfg: &SearchConfig,
        obs: &Observation,
        world: &Position,
        actions: &[Action],
        rng: &mut impl Rng,
    ) -> Option<FlipChance> {
        let size = world.topology().len();
        let mut dealt: Vec<Option<(Seat, Role)>> = vec![None; size];
        let mut pool: Vec<(Seat, Role)> = Vec::new();
        for (sq, p) in world.pieces() {
            if p.face_down {
                dealt[sq.index()] = Some((p.seat, p.role));
                pool.push((p.seat, p.role));
            }
        }
        if pool.is_empty() {
            return None;
        }
        pool.sort_unstable_by_key(|&(s, r)| (s, r as u8));
        let flips = actions
            .iter()
            .filter(|a| matches!(a, Action::Flip(_)))
            .count()
            .max(1);
        let picks = picks(&pool, (cfg.chance as usize / flips).max(MIN_PICKS), rng);
        let mut children = Vec::with_capacity(actions.len());
        for &a in actions {
            let Action::Flip(at) = a else {
                children.push(Vec::new());
                continue;
            };
            let mut searches = Vec::with_capacity(picks.len());
            for &(id, w) in &picks {
                let mut next = with_identity(obs, &dealt, at, id)?;
                next.play_unchecked(a, &mut ());
                searches.push((next, w));
            }
            children.push(searches);
        }
        Some(FlipChance { children })
    }

    /// The positions after root action `i` (a flip) for each identity searched, with weights;
    /// empty for an action that is not a flip.
    pub(super) fn after(&self, i: usize) -> &[(Position, f64)] {
        &self.children[i]
    }
}

/// The identities searched and their weights, from `pool` (sorted, one entry per face-down
/// piece): every distinct identity with its share of the pool when there are at most `most`,
/// else `most` draws spread evenly over the sorted pool from one random offset (systematic
/// sampling: each identity drawn about as often as its share, never more than one draw off),
/// each worth `1 / most`, draws of the same identity merged.
fn picks(pool: &[(Seat, Role)], most: usize, rng: &mut impl Rng) -> Vec<((Seat, Role), f64)> {
    let n = pool.len();
    let mut out: Vec<((Seat, Role), f64)> = Vec::new();
    let mut add = |id: (Seat, Role), w: f64| match out.last_mut() {
        Some(last) if last.0 == id => last.1 += w,
        _ => out.push((id, w)),
    };
    let mut distinct = pool.to_vec();
    distinct.dedup();
    if distinct.len() <= most {
        for &id in pool {
            add(id, 1.0 / n as f64);
        }
    } else {
        let offset: f64 = rng.gen_range(0.0..1.0);
        for j in 0..most {
            let k = (((j as f64 + offset) * n as f64 / most as f64) as usize).min(n - 1);
            add(pool[k], 1.0 / most as f64);
        }
    }
    out
}

/// `obs` with its face-down pieces dealt as in `dealt` (by square), except that `at` holds `id`:
/// its identity is exchanged with that of a face-down piece dealt `id`.
fn with_identity(
    obs: &Observation,
    dealt: &[Option<(Seat, Role)>],
    at: Square,
    id: (Seat, Role),
) -> Option<Position> {
    let mut deal = dealt.to_vec();
    let other = deal.iter().position(|&d| d == Some(id))?;
    deal.swap(at.index(), other);
    obs.determinize(|p| deal[p.at.index()].unwrap_or((0, Role::Flag)))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn pool(ids: &[(Seat, Role, usize)]) -> Vec<(Seat, Role)> {
        let mut p = Vec::new();
        for &(s, r, n) in ids {
            p.extend(std::iter::repeat_n((s, r), n));
        }
        p.sort_unstable_by_key(|&(s, r)| (s, r as u8));
        p
    }

    #[test]
    fn a_small_pool_is_searched_whole_with_each_identity_weighted_by_its_share() {
        let p = pool(&[(0, Role::Engineer, 3), (1, Role::Marshal, 1)]);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let got = picks(&p, 4, &mut rng);
        assert_eq!(
            got,
            vec![((0, Role::Engineer), 0.75), ((1, Role::Marshal), 0.25)]
        );
    }

    #[test]
    fn a_large_pool_is_sampled_in_proportion_to_its_shares() {
        // 24 engineers, 4 landmines of colour 0, and one each of four roles of colour 1.
        let p = pool(&[
            (0, Role::Engineer, 24),
            (0, Role::Landmine, 4),
            (1, Role::Marshal, 1),
            (1, Role::General, 1),
            (1, Role::Bomb, 1),
            (1, Role::Flag, 1),
        ]);
        for seed in 0..50 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let got = picks(&p, 5, &mut rng);
            let total: f64 = got.iter().map(|x| x.1).sum();
            assert!((total - 1.0).abs() < 1e-9);
            // Engineers are 24 of 32 pieces: 3.75 of 5 draws, so 3 or 4 of them, never more or
            // fewer (a plain random draw could give 0 or 5).
            let eng = got
                .iter()
                .find(|x| x.0 == (0, Role::Engineer))
                .map_or(0.0, |x| x.1);
            let near = |x: f64| (eng - x).abs() < 1e-9;
            assert!(near(0.6) || near(0.8), "seed {seed}: {got:?}");
        }
    }
}
