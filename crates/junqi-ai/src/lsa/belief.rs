//! What a land-sea-air seat may know of the enemy's hidden pieces, from its own view and the
//! events it received, and worlds sampled from that knowledge.
//!
//! For every enemy piece the belief keeps the set of roles it may still be:
//! - its arm is public (a landed ship is a battleship or cruiser);
//! - a piece that has moved is no landmine, trap, flag or fort, and one that has not stands on
//!   a start square its role may take (§3);
//! - every attack it took part in narrows it to the roles that give the announced result
//!   against the piece of ours it met (C1–C10, [`resolve`]), and the attack's kind names the
//!   attacker's kind (a strike is a fort or gunboat, a flight a missile, a landing a ship);
//! - one of our scout looks names it outright.
//!
//! These notes follow the piece from square to square. Each role still possible is weighted by
//! how many of it the enemy may still have: the piece set's count less those on the board whose
//! role is known and those known to have fallen.

use junqi_core::lsa::{
    resolve, start_squares, AttackKind, Combatant, Event, Options, Piece, Position, Role, Side,
    Square, SquareSet, View, ViewPiece, ROLES,
};
use junqi_core::AttackResult;
use rand::Rng;
use std::collections::HashMap;

/// A set of roles, one bit per [`Role`] (`1 << role as usize`).
type RoleMask = u32;

const ALL_ROLES: RoleMask = (1 << ROLES) - 1;

fn bit(r: Role) -> RoleMask {
    1 << r as usize
}

/// One seat's knowledge of the enemy's pieces.
#[derive(Clone, Debug)]
pub struct LsaBelief {
    side: Side,
    options: Options,
    /// Enemy squares whose piece has moved.
    moved: SquareSet,
    /// Enemy squares whose piece's roles were narrowed by combat or a look (absent: any).
    masks: HashMap<Square, RoleMask>,
    /// Enemy pieces of each role known to have fallen.
    fallen: [u8; ROLES],
    /// The pieces of the last view, to know what met in the next step's attacks.
    last: Vec<ViewPiece>,
}

impl LsaBelief {
    /// Nothing known yet: a new game, `side`'s belief.
    pub fn new(options: &Options, side: Side) -> LsaBelief {
        LsaBelief {
            side,
            options: *options,
            moved: SquareSet::EMPTY,
            masks: HashMap::new(),
            fallen: [0; ROLES],
            last: Vec::new(),
        }
    }

    /// The side whose belief this is.
    pub fn side(&self) -> Side {
        self.side
    }

    /// Remember the pieces of `view` as the board before the next step (the driver calls
    /// [`LsaBelief::observe`] after each step; this covers the first one).
    pub fn see(&mut self, view: &View) {
        self.last.clone_from(&view.pieces);
    }

    /// Take in the events of one step (those the seat receives) and the view after it.
    pub fn observe(&mut self, events: &[Event], view: &View) {
        for e in events {
            match *e {
                Event::Moved { side, from, to } | Event::Landed { side, from, to }
                    if side != self.side =>
                {
                    self.moved.insert(from);
                    self.follow(from, to);
                }
                Event::Attack {
                    side,
                    from,
                    to,
                    result,
                    kind,
                } => {
                    // Who is where after the step says who survived (the result alone does
                    // not: a striker, or an attacker that bounces, may stay or fall).
                    let after = |sq: Square| view.at(sq).map(|p| p.side);
                    let fate = Fate {
                        defender_gone: after(to) != Some(side.other()),
                        attacker_moved: after(to) == Some(side),
                        attacker_gone: after(to) != Some(side) && after(from) != Some(side),
                    };
                    self.attack(side, from, to, result, kind, fate)
                }
                Event::ScoutedPrivate { side, at, role, .. } if side == self.side => {
                    self.masks.insert(at, bit(role));
                }
                _ => {}
            }
        }
        self.see(view);
    }

    /// Take in one attack: narrow the enemy piece that took part, then move or drop notes.
    fn attack(
        &mut self,
        side: Side,
        from: Square,
        to: Square,
        result: AttackResult,
        kind: AttackKind,
        fate: Fate,
    ) {
        let last = |sq: Square| self.last.iter().find(|p| p.at == sq).copied();
        let (Some(att), Some(def)) = (last(from), last(to)) else {
            // The board before the step is not known (no view seen yet): only drop notes.
            self.drop_notes(side, from, to, fate);
            return;
        };
        let options = self.options.combat;
        let possible = if side == self.side {
            // Our attacker is known; the enemy defender is narrowed.
            let ours = combatant(&att, att.role, kind == AttackKind::Landing);
            let mask = self.mask_at(to)
                & roles_where(|r| {
                    ours.and_then(|a| resolve(a, combatant(&def, Some(r), false)?, options))
                        .is_some_and(|o| o.result == result)
                });
            (to, mask)
        } else {
            let ours = combatant(&def, def.role, false);
            let landing = kind == AttackKind::Landing;
            let kind_mask = match kind {
                AttackKind::Strike => bit(Role::Fort) | bit(Role::Gunboat),
                AttackKind::Flight => bit(Role::Missile),
                _ => ALL_ROLES,
            };
            let mask = self.mask_at(from)
                & kind_mask
                & roles_where(|r| {
                    ours.and_then(|d| resolve(combatant(&att, Some(r), landing)?, d, options))
                        .is_some_and(|o| o.result == result)
                });
            (from, mask)
        };
        let (enemy_sq, mask) = possible;
        // A mask emptied means the model missed a rule; then know nothing rather than wrong.
        if mask != 0 {
            self.masks.insert(enemy_sq, mask);
        } else {
            self.masks.remove(&enemy_sq);
        }
        self.drop_notes(side, from, to, fate);
    }

    /// Move or drop the notes of the two squares of an attack, counting fallen enemies.
    fn drop_notes(&mut self, side: Side, from: Square, to: Square, fate: Fate) {
        let Fate {
            defender_gone,
            attacker_moved: attacker_moves,
            attacker_gone,
        } = fate;
        let enemy_attacks = side != self.side;
        if defender_gone {
            if !enemy_attacks {
                self.fall(to);
            }
            self.masks.remove(&to);
            self.moved.remove(to);
        }
        if attacker_moves {
            if enemy_attacks {
                self.moved.insert(from);
            }
            self.follow(from, to);
        } else if attacker_gone {
            if enemy_attacks {
                self.fall(from);
            }
            self.masks.remove(&from);
            self.moved.remove(from);
        }
    }

    /// An enemy piece on `sq` fell: if its role was certain, count it.
    fn fall(&mut self, sq: Square) {
        let known = self
            .last
            .iter()
            .find(|p| p.at == sq)
            .and_then(|p| p.role)
            .or_else(|| single(self.mask_at(sq)));
        if let Some(r) = known {
            self.fallen[r as usize] = self.fallen[r as usize].saturating_add(1);
        }
    }

    /// Follow a piece's notes from square to square.
    fn follow(&mut self, from: Square, to: Square) {
        if let Some(m) = self.masks.remove(&from) {
            self.masks.insert(to, m);
        }
        if self.moved.contains(from) {
            self.moved.remove(from);
            self.moved.insert(to);
        }
    }

    fn mask_at(&self, sq: Square) -> RoleMask {
        self.masks.get(&sq).copied().unwrap_or(ALL_ROLES)
    }

    /// The enemy's role on `sq` when the seat knows it (announced, or narrowed to one).
    pub fn known(&self, view: &View, sq: Square) -> Option<Role> {
        let p = view.at(sq)?;
        p.role.or_else(|| single(self.mask_at(sq)))
    }

    /// The roles the enemy piece seen as `p` may be, as a mask.
    fn candidates(&self, p: &ViewPiece) -> RoleMask {
        if let Some(r) = p.role {
            return bit(r);
        }
        let set = self.options.piece_set;
        let moved = self.moved.contains(p.at);
        let mask = self.mask_at(p.at);
        let mut out = 0;
        for r in Role::ALL {
            let fits_arm = if p.landed {
                r.landing_ship().is_some()
            } else {
                r.arm() == p.arm
            };
            let fits_history = if moved {
                r.is_movable()
            } else {
                start_squares(p.side, r).contains(p.at)
            };
            if fits_arm && fits_history && set.has(r) && mask & bit(r) != 0 {
                out |= bit(r);
            }
        }
        out
    }

    /// How many of each role the enemy may still have on the board unnamed: the set's count
    /// less the fallen and the enemy pieces whose role is known.
    fn unnamed(&self, view: &View) -> [u8; ROLES] {
        let set = self.options.piece_set;
        let mut left = [0u8; ROLES];
        for r in Role::ALL {
            left[r as usize] = set.count(r).saturating_sub(self.fallen[r as usize]);
        }
        for p in view.pieces.iter().filter(|p| p.side != self.side) {
            if let Some(r) = self.known(view, p.at) {
                left[r as usize] = left[r as usize].saturating_sub(1);
            }
        }
        left
    }

    /// The enemy's possible roles on `sq` with their weights (summing to 1); empty when no
    /// enemy piece stands there.
    pub fn roles(&self, view: &View, sq: Square) -> Vec<(Role, f64)> {
        let Some(p) = view.at(sq).filter(|p| p.side != self.side) else {
            return Vec::new();
        };
        if let Some(r) = self.known(view, sq) {
            return vec![(r, 1.0)];
        }
        let cands = self.candidates(p);
        let left = self.unnamed(view);
        let mut weights: Vec<(Role, f64)> = Role::ALL
            .iter()
            .filter(|r| cands & bit(**r) != 0)
            .map(|&r| (r, f64::from(left[r as usize])))
            .filter(|(_, w)| *w > 0.0)
            .collect();
        let mut total: f64 = weights.iter().map(|(_, w)| w).sum();
        if total <= 0.0 {
            // Every candidate's count is used up by what the seat thinks it knows: keep the
            // candidates, equally likely, rather than claim the piece cannot exist.
            weights = Role::ALL
                .iter()
                .filter(|r| cands & bit(**r) != 0)
                .map(|&r| (r, 1.0))
                .collect();
            total = weights.len() as f64;
        }
        for w in &mut weights {
            w.1 /= total;
        }
        weights
    }

    /// A full position consistent with the belief: the seat's pieces as they are, every enemy
    /// piece given a role it may be, no role over the number the enemy may still have. `None`
    /// when the draws keep running out of roles (the caller plays without a sampled world).
    pub fn sample(&self, view: &View, rng: &mut impl Rng) -> Option<Position> {
        let mut fixed: Vec<(Square, Piece)> = Vec::with_capacity(view.pieces.len());
        let mut open: Vec<(&ViewPiece, RoleMask)> = Vec::new();
        for p in &view.pieces {
            let role = if p.side == self.side {
                p.role
            } else {
                self.known(view, p.at)
            };
            match role {
                Some(r) => fixed.push((p.at, Piece::of(p.side, combatant(p, Some(r), false)?))),
                None => open.push((p, self.candidates(p))),
            }
        }
        // The most constrained first, so that the draws seldom run out.
        open.sort_by_key(|(_, m)| m.count_ones());
        let left = self.unnamed(view);
        'attempt: for _ in 0..8 {
            let mut left = left;
            let mut list = fixed.clone();
            for &(p, mask) in &open {
                let total: u32 = Role::ALL
                    .iter()
                    .filter(|r| mask & bit(**r) != 0)
                    .map(|r| u32::from(left[*r as usize]))
                    .sum();
                if total == 0 {
                    continue 'attempt;
                }
                let mut pick = rng.gen_range(0..total);
                let role = Role::ALL
                    .into_iter()
                    .filter(|r| mask & bit(*r) != 0)
                    .find(|r| {
                        let n = u32::from(left[*r as usize]);
                        if pick < n {
                            true
                        } else {
                            pick -= n;
                            false
                        }
                    })?;
                left[role as usize] -= 1;
                list.push((p.at, Piece::of(p.side, combatant(p, Some(role), false)?)));
            }
            let mut pos = Position::from_pieces(self.options, view.to_move, &list).ok()?;
            pos.set_counters(view.plies, view.quiet_plies, view.skips);
            for s in [Side::South, Side::North] {
                pos.set_fort_struck(s, view.fort_struck[s as usize]);
            }
            return Some(pos);
        }
        None
    }
}

/// Who survived an attack, as the board after it shows.
#[derive(Clone, Copy, Debug)]
struct Fate {
    defender_gone: bool,
    attacker_moved: bool,
    attacker_gone: bool,
}

/// How a piece seen as `p` fights if its role is `role`: landed if it is landed or lands now.
fn combatant(p: &ViewPiece, role: Option<Role>, landing: bool) -> Option<Combatant> {
    let role = role?;
    if p.landed || landing {
        Some(Combatant::Landed(role.landing_ship()?))
    } else {
        Some(Combatant::Piece(role))
    }
}

/// The roles for which `f` holds.
fn roles_where(f: impl Fn(Role) -> bool) -> RoleMask {
    Role::ALL
        .iter()
        .filter(|r| f(**r))
        .fold(0, |m, r| m | bit(*r))
}

/// The one role of a mask holding exactly one.
fn single(mask: RoleMask) -> Option<Role> {
    if mask.count_ones() != 1 {
        return None;
    }
    Role::ALL.into_iter().find(|r| bit(*r) == mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsa::{LsaBot, LsaHeuristicBot, LsaRandomBot};
    use crate::Budget;
    use junqi_core::lsa::{events_for, Mode, Observer, PieceSet};

    /// Over random games of both piece sets, the belief never rules out an enemy piece's true
    /// role, whatever combat and looks taught it, and a sampled world keeps every piece's
    /// square, side and arm and the seat's own roles.
    #[test]
    fn belief_always_holds_the_truth() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut narrowed = 0;
        for set in PieceSet::ALL {
            for seed in 0..6u64 {
                let opts = Options {
                    piece_set: set,
                    ..Options::default()
                };
                let mut h = LsaHeuristicBot::default();
                let mut r = LsaRandomBot::default();
                h.new_game(&opts, Side::South, seed);
                r.new_game(&opts, Side::North, seed + 50);
                let mut pos = Position::new(opts, &h.deploy().unwrap(), &r.deploy().unwrap())
                    .expect("legal layouts");
                let me = Observer::Seat(Side::South);
                let mut belief = LsaBelief::new(&opts, Side::South);
                belief.see(&pos.view(Mode::Dark, me));
                let mut plies = 0;
                while !pos.is_over() && plies < 400 {
                    let view = pos.view(Mode::Dark, Observer::Seat(pos.to_move()));
                    let a = if pos.to_move() == Side::South {
                        h.choose(&view, Budget::Nodes(1)).unwrap()
                    } else {
                        r.choose(&view, Budget::Nodes(1)).unwrap()
                    };
                    let step = pos.apply(a).unwrap();
                    let evs: Vec<Event> = events_for(me, step.events.as_slice()).collect();
                    let view = pos.view(Mode::Dark, me);
                    belief.observe(&evs, &view);
                    for (sq, p) in pos.pieces().filter(|(_, p)| p.side() == Side::North) {
                        let roles = belief.roles(&view, sq);
                        if roles.len() == 1 && view.at(sq).unwrap().role.is_none() {
                            narrowed += 1;
                        }
                        assert!(
                            roles.iter().any(|(role, w)| *role == p.role() && *w > 0.0),
                            "{set:?} seed {seed} ply {plies}: belief {roles:?} on {sq} rules out {:?} (mask {:b}, moved {}, view {:?})",
                            p.role(),
                            belief.mask_at(sq),
                            belief.moved.contains(sq),
                            view.at(sq)
                        );
                    }
                    if plies % 20 == 0 {
                        if let Some(world) = belief.sample(&view, &mut rng) {
                            for (sq, p) in pos.pieces() {
                                let w = world.at(sq).expect("every square kept");
                                assert_eq!(
                                    (w.side(), w.arm(), w.landed()),
                                    (p.side(), p.arm(), p.landed())
                                );
                                if p.side() == Side::South {
                                    assert_eq!(w.role(), p.role());
                                }
                            }
                            assert_eq!(world.pieces().count(), pos.pieces().count());
                        }
                    }
                    plies += 1;
                }
            }
        }
        assert!(narrowed > 0, "combat and looks never named a hidden piece");
    }
}
