//! A one-ply land-sea-air player that prices every action by what the seat may know.
//!
//! What it knows of an enemy piece: its arm (public), its role when announced or when one of
//! its own scout looks saw it (the note follows the piece as it moves), and whether it has moved
//! (a piece that moved is no landmine, trap, flag or fort; one that has not stands on a start
//! square its role may take). Every other role of that arm that
//! the enemy may still have is equally likely, weighted by how many of it remain unseen.
//!
//! An attack (move, sail, landing, fighter attack, missile flight, strike) is priced by the
//! expected material it wins and loses under that belief, with C1–C10 (`combat::resolve`)
//! deciding each pairing; taking the flag wins the game and outweighs everything. A look is
//! worth a little when it names an unknown piece, less the risk of being shot down by an
//! anti-aircraft gun. Quiet moves are worth a little progress towards the enemy's back ranks.

use super::bot::LsaBot;
use crate::{BotError, Budget};
use junqi_core::lsa::{
    resolve, start_squares, Action, AttackKind, Combatant, Deployment, Event, Options, Role, Side,
    Square, SquareSet, View,
};
use junqi_core::AttackResult;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// The material worth of a role, in the heuristic's own units (the flag's is the game).
fn worth(role: Role) -> f64 {
    use junqi_core::lsa::Class;
    match role.class() {
        Class::Flag => 1000.0,
        Class::Officer(n) => 1.0 + f64::from(n) * 0.75,
        Class::Weapon(n) => 2.0 + f64::from(n) * 0.6,
        Class::Gas => 5.0,
        Class::Missile => 6.0,
        Class::Bomb => 5.0,
        Class::Landmine => 3.0,
        Class::Trap => 3.0,
        Class::Ship(n) => 3.0 + f64::from(n),
        Class::Submarine => 5.0,
        _ => 5.0, // planes
    }
}

/// What is at stake in one decision, the same for every action.
#[derive(Clone, Copy)]
struct Stakes {
    /// How much dearer than its worth each of our movers is: losing the last movers loses the
    /// game (§7), so the fewer we have, the dearer each one.
    scarcity: f64,
    /// How near the quiet-ply draw is (0–1): a draw is a lost win against a weaker side, so as
    /// the count nears the limit an attack is worth more for ending the quiet run.
    quiet: f64,
}

impl Stakes {
    fn of(view: &View, side: Side, options: &Options) -> Stakes {
        let movers = view
            .pieces
            .iter()
            .filter(|p| p.side == side && p.role.is_some_and(Role::is_movable))
            .count();
        Stakes {
            scarcity: 1.0 + 8.0 / movers.max(1) as f64,
            quiet: f64::from(view.quiet_plies) / f64::from(options.quiet_plies.get()),
        }
    }
}

/// The heuristic land-sea-air player.
pub struct LsaHeuristicBot {
    rng: ChaCha8Rng,
    side: Side,
    options: Options,
    /// Enemy squares whose piece has moved.
    moved: SquareSet,
    /// Enemy pieces one of our looks saw, by their current square.
    seen: HashMap<Square, Role>,
}

impl Default for LsaHeuristicBot {
    fn default() -> Self {
        LsaHeuristicBot {
            rng: ChaCha8Rng::seed_from_u64(0),
            side: Side::South,
            options: Options::default(),
            moved: SquareSet::EMPTY,
            seen: HashMap::new(),
        }
    }
}

impl LsaHeuristicBot {
    /// The enemy's possible roles on `sq` with their weights (summing to 1), as the bot knows.
    fn belief(&self, view: &View, sq: Square) -> Vec<(Role, f64)> {
        let Some(p) = view.at(sq) else {
            return Vec::new();
        };
        if let Some(r) = p.role.or_else(|| self.seen.get(&sq).copied()) {
            return vec![(r, 1.0)];
        }
        let set = self.options.piece_set;
        let moved = self.moved.contains(sq);
        let mut weights: Vec<(Role, f64)> = Role::ALL
            .iter()
            // A landed ship is a land piece that only a battleship or cruiser can be.
            .filter(|r| {
                if p.landed {
                    r.landing_ship().is_some()
                } else {
                    r.arm() == p.arm
                }
            })
            .filter(|r| set.has(**r))
            // A piece that moved can be no immovable one; one that has not stands on its
            // start square, which only some roles may take (§3).
            .filter(|r| {
                if moved {
                    r.is_movable()
                } else {
                    start_squares(p.side, **r).contains(sq)
                }
            })
            .map(|&r| {
                let known = view
                    .pieces
                    .iter()
                    .filter(|q| q.side == p.side && q.role == Some(r))
                    .count();
                (r, f64::from(set.count(r)) - known as f64)
            })
            .filter(|(_, w)| *w > 0.0)
            .collect();
        let total: f64 = weights.iter().map(|(_, w)| w).sum();
        if total <= 0.0 {
            return Vec::new();
        }
        for w in &mut weights {
            w.1 /= total;
        }
        weights
    }

    /// How the piece on `from` fights when it makes `action`.
    fn attacker(view: &View, action: Action) -> Option<Combatant> {
        let me = view.at(action.from())?;
        let role = me.role?;
        Some(match action {
            Action::Land { .. } => Combatant::Landed(role.landing_ship()?),
            _ if me.landed => Combatant::Landed(role.landing_ship()?),
            _ => Combatant::Piece(role),
        })
    }

    /// The expected gain of `action`.
    fn score(&self, view: &View, stakes: Stakes, action: Action) -> f64 {
        let target = view.at(action.to()).filter(|p| p.side != self.side);
        let Some(target) = target else {
            return self.progress(view, action);
        };
        let belief = self.belief(view, action.to());
        if let Action::Look { .. } = action {
            let aa: f64 = belief
                .iter()
                .filter(|(r, _)| *r == Role::AntiAircraftGun)
                .map(|(_, w)| w)
                .sum();
            let unknown = if belief.len() > 1 { 0.6 } else { -0.5 };
            return unknown - aa * worth(Role::ScoutPlane);
        }
        let Some(att) = Self::attacker(view, action) else {
            return 0.0;
        };
        let strike = matches!(action, Action::Strike { .. });
        let Stakes { scarcity, quiet } = stakes;
        let mut gain = 0.0;
        for (role, w) in belief {
            let def = if target.landed {
                match role.landing_ship() {
                    Some(s) => Combatant::Landed(s),
                    None => Combatant::Piece(role),
                }
            } else {
                Combatant::Piece(role)
            };
            let Some(out) = resolve(att, def, self.options.combat) else {
                continue;
            };
            let mut g = 0.0;
            if !out.defender_survives {
                g += worth(role);
            }
            if !out.attacker_survives && !strike {
                g -= worth(att.role()) * scarcity;
            }
            if out.result == AttackResult::DefenderWins && !strike {
                // The loss also tells the enemy what we had; a small extra cost.
                g -= 0.2;
            }
            gain += w * g;
        }
        gain + 12.0 * quiet * quiet / scarcity
    }

    /// A quiet move's worth: progress towards the enemy's back ranks, and towards the nearest
    /// enemy piece of the arm it can meet (so that a late game with few pieces does not wander
    /// into the quiet-ply draw).
    fn progress(&self, view: &View, action: Action) -> f64 {
        let ahead = |sq: Square| match self.side {
            Side::South => f64::from(sq.rank()),
            Side::North => -f64::from(sq.rank()),
        };
        let nearest = |sq: Square| {
            view.pieces
                .iter()
                .filter(|p| p.side != self.side)
                .map(|p| {
                    (i32::from(p.at.file()) - i32::from(sq.file())).abs()
                        + (i32::from(p.at.rank()) - i32::from(sq.rank())).abs()
                })
                .min()
                .unwrap_or(0)
        };
        let closer = f64::from(nearest(action.from()) - nearest(action.to()));
        0.15 * (ahead(action.to()) - ahead(action.from())) + 0.1 * closer
    }

    /// Follow a piece's note from square to square.
    fn follow(&mut self, from: Square, to: Square) {
        if let Some(r) = self.seen.remove(&from) {
            self.seen.insert(to, r);
        }
        if self.moved.contains(from) {
            self.moved.remove(from);
            self.moved.insert(to);
        }
    }
}

impl LsaBot for LsaHeuristicBot {
    fn name(&self) -> String {
        "heuristic".into()
    }
    fn new_game(&mut self, options: &Options, side: Side, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.side = side;
        self.options = *options;
        self.moved = SquareSet::EMPTY;
        self.seen.clear();
    }
    fn deploy(&mut self) -> Result<Deployment, BotError> {
        Ok(Deployment::random(
            self.side,
            self.options.piece_set,
            &mut self.rng,
        ))
    }
    fn observe(&mut self, events: &[Event], _view: &View) {
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
                    // A defender that lost is gone; a striker stays where it is unless both
                    // fell; any other winner takes the square, any other loser is gone.
                    if result != AttackResult::DefenderWins {
                        self.seen.remove(&to);
                        self.moved.remove(to);
                    }
                    let attacker_moves =
                        kind != AttackKind::Strike && result == AttackResult::AttackerWins;
                    let attacker_gone = result == AttackResult::BothRemoved
                        || (kind != AttackKind::Strike && result == AttackResult::DefenderWins);
                    if attacker_moves {
                        if side != self.side {
                            self.moved.insert(from);
                        }
                        self.follow(from, to);
                    } else if attacker_gone {
                        self.seen.remove(&from);
                        self.moved.remove(from);
                    }
                }
                Event::ScoutedPrivate { side, at, role, .. } if side == self.side => {
                    self.seen.insert(at, role);
                }
                _ => {}
            }
        }
    }
    fn choose(&mut self, view: &View, _budget: Budget) -> Result<Action, BotError> {
        let stakes = Stakes::of(view, self.side, &self.options);
        let mut best: Option<(f64, Action)> = None;
        for &a in &view.legal_actions {
            let s = self.score(view, stakes, a) + self.rng.gen_range(0.0..0.01);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, a));
            }
        }
        best.map(|(_, a)| a)
            .ok_or_else(|| BotError("asked to move with no legal action".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsa::LsaRandomBot;
    use junqi_core::lsa::{events_for, Mode, Observer, PieceSet, Position};

    /// Over random games of both piece sets, the belief never rules out an enemy piece's true
    /// role, and rules out every role whose start squares do not hold an unmoved piece.
    #[test]
    fn belief_always_holds_the_truth() {
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
                    h.observe(&evs, &view);
                    for (sq, p) in pos.pieces().filter(|(_, p)| p.side() == Side::North) {
                        let belief = h.belief(&view, sq);
                        assert!(
                            belief.iter().any(|(role, w)| *role == p.role() && *w > 0.0),
                            "{set:?} seed {seed} ply {plies}: belief {belief:?} on {sq} rules out {:?} (seen {:?}, moved {}, view {:?})",
                            p.role(),
                            h.seen.get(&sq),
                            h.moved.contains(sq),
                            view.at(sq)
                        );
                    }
                    plies += 1;
                }
            }
        }
    }
}
