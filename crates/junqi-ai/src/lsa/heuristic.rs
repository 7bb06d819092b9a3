//! A one-ply land-sea-air player that prices every action by what the seat may know.
//!
//! What it knows of an enemy piece is the seat's [`LsaBelief`]: its arm, its history (moved or
//! not), what the attacks it took part in and the seat's own looks taught, each possible role
//! weighted by how many of it the enemy may still have.
//!
//! An attack (move, sail, landing, fighter attack, missile flight, strike) is priced by the
//! expected material it wins and loses under that belief, with C1–C10 (`combat::resolve`)
//! deciding each pairing; taking the flag wins the game and outweighs everything. A look is
//! worth a little when it names an unknown piece, less the risk of being shot down by an
//! anti-aircraft gun. Quiet moves are worth a little progress towards the enemy's back ranks.

use super::belief::LsaBelief;
use super::bot::LsaBot;
use crate::{BotError, Budget};
use junqi_core::lsa::{
    resolve, Action, Combatant, Deployment, Event, Options, Role, Side, Square, View,
};
use junqi_core::AttackResult;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The material worth of a role, in the heuristic's own units (the flag's is the game).
pub(super) fn worth(role: Role) -> f64 {
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
    /// What the seat knows of the enemy's pieces.
    belief: LsaBelief,
}

impl Default for LsaHeuristicBot {
    fn default() -> Self {
        LsaHeuristicBot {
            rng: ChaCha8Rng::seed_from_u64(0),
            side: Side::South,
            options: Options::default(),
            belief: LsaBelief::new(&Options::default(), Side::South),
        }
    }
}

impl LsaHeuristicBot {
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
        let belief = self.belief.roles(view, action.to());
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
}

impl LsaHeuristicBot {
    /// Every legal action of `view` with its price (a little noise breaks ties), in the
    /// view's order; the seat's belief takes in the view first.
    pub(super) fn rank(&mut self, view: &View) -> Vec<(f64, Action)> {
        self.belief.see(view);
        let stakes = Stakes::of(view, self.side, &self.options);
        view.legal_actions
            .iter()
            .map(|&a| {
                (
                    self.score(view, stakes, a) + self.rng.gen_range(0.0..0.01),
                    a,
                )
            })
            .collect()
    }

    /// What the seat knows of the enemy's pieces.
    pub(super) fn belief(&self) -> &LsaBelief {
        &self.belief
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
        self.belief = LsaBelief::new(options, side);
    }
    fn deploy(&mut self) -> Result<Deployment, BotError> {
        Ok(Deployment::random(
            self.side,
            self.options.piece_set,
            &mut self.rng,
        ))
    }
    fn observe(&mut self, events: &[Event], view: &View) {
        self.belief.observe(events, view);
    }
    fn choose(&mut self, view: &View, _budget: Budget) -> Result<Action, BotError> {
        let ranked = self.rank(view);
        ranked
            .iter()
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|&(_, a)| a)
            .ok_or_else(|| BotError("asked to move with no legal action".into()))
    }
}
