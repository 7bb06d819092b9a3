//! A land-sea-air player that searches sampled worlds.
//!
//! Each decision: the heuristic ([`LsaHeuristicBot`]) prices every legal action and the best
//! few become candidates. Then, again and again, a full position is sampled from the seat's
//! belief ([`super::LsaBelief::sample`]: the seat's own pieces as they are, every hidden enemy
//! piece given a role it may be), and every candidate is played in it, followed by a short
//! rollout in which both sides attack by what they know, never by the sampled truth, and
//! otherwise move at random. A candidate's value is the material it gains on average over the
//! worlds, plus a share of the heuristic's price (which holds what a world cannot: a look's
//! worth in knowledge, progress towards the enemy). Its layout is a guarded one
//! ([`super::guarded_layout`]).
//!
//! Budgets: [`Budget::Nodes`] caps the positions stepped per decision (reproducible);
//! [`Budget::Iterations`] sets the number of sampled worlds; [`Budget::Time`] samples worlds
//! until the time is up. The default budget stands for 40 000 nodes.

use super::bot::LsaBot;
use super::heuristic::{worth, LsaHeuristicBot};
use super::layout::guarded_layout;
use super::threat::{moves_to_flag, Approach, FAR};
use crate::{BotError, Budget};
use junqi_core::lsa::board::SQUARES;
use junqi_core::lsa::{
    resolve, start_squares, Action, ActionList, Arm, Combatant, Deployment, Event, Options,
    Position, Role, Side, Square, SquareSet, Status, View, ROLES,
};
use junqi_core::AttackResult;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// What a won or lost game is worth in rollout values (material units).
const GAME: f64 = 200.0;

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LsaSearchParams {
    /// How many of the heuristic's best actions are searched.
    pub candidates: usize,
    /// Plies of each rollout after the candidate.
    pub depth: u32,
    /// The nodes the default budget stands for.
    pub default_nodes: u64,
    /// The share of the heuristic's price in a candidate's value.
    pub prior: f64,
    /// How much a candidate pays for leaving an enemy piece few moves from our flag (a scale
    /// on [`THREAT_COST`]; 0 prices no threat).
    pub guard: f64,
    /// How many actions against intruders (attacks on them, moves onto squares near our flag)
    /// join the candidates when an enemy piece is near our flag.
    pub defend: usize,
}

/// What leaving an intruder `d` moves from our flag costs a candidate, by `d` (material
/// units; [`GAME`] is the game). One move: it can take the flag now; two: we have one move to
/// answer; three and four: we have time, but it is walking in.
const THREAT_COST: [f64; 5] = [0.0, 40.0, 20.0, 8.0, 3.0];

/// How many moves from our flag an enemy piece is an intruder.
const INTRUDER_RANGE: u8 = 4;

impl Default for LsaSearchParams {
    fn default() -> Self {
        LsaSearchParams {
            candidates: 16,
            depth: 12,
            default_nodes: 40_000,
            prior: 0.5,
            guard: 1.0,
            defend: 8,
        }
    }
}

/// The sampled-world search player.
pub struct LsaSearchBot {
    heuristic: LsaHeuristicBot,
    rng: ChaCha8Rng,
    side: Side,
    options: Options,
    params: LsaSearchParams,
    buf: ActionList,
    blind: Blind,
}

/// What a rollout player expects of an attack on a piece it has not identified, for one rule
/// set.
struct Blind {
    /// By attacker role and defender arm, over the piece set; the land entry is for a piece
    /// off the flag's start squares.
    arm: [[f64; 3]; ROLES],
    /// By attacker role, for a hidden land piece on a square where the flag may stand: the
    /// flag there one time in three (a side's flag starts in one of its three cities).
    city: [f64; ROLES],
    /// Each side's squares where its flag may stand.
    flag_squares: [SquareSet; 2],
}

impl Blind {
    fn new(options: &Options) -> Blind {
        let arm = blind_gains(options);
        let city = Role::ALL.map(|att| {
            let rest = arm[att as usize][Arm::Land as usize];
            match resolve(
                Combatant::Piece(att),
                Combatant::Piece(Role::Flag),
                options.combat,
            ) {
                Some(out) => (gain_of(out, Role::Flag, att, false) + 2.0 * rest) / 3.0,
                None => rest,
            }
        });
        Blind {
            arm,
            city,
            flag_squares: [Side::South, Side::North].map(|s| start_squares(s, Role::Flag)),
        }
    }
}

impl Default for LsaSearchBot {
    fn default() -> Self {
        LsaSearchBot::with_params(LsaSearchParams::default())
    }
}

impl LsaSearchBot {
    /// A search player with these settings.
    pub fn with_params(params: LsaSearchParams) -> LsaSearchBot {
        LsaSearchBot {
            heuristic: LsaHeuristicBot::default(),
            rng: ChaCha8Rng::seed_from_u64(0),
            side: Side::South,
            options: Options::default(),
            params,
            buf: ActionList::new(),
            blind: Blind::new(&Options::default()),
        }
    }

    /// The material balance of `pos` from `me`'s side; a finished game is worth [`GAME`].
    fn value(pos: &Position, me: Side) -> f64 {
        match pos.status() {
            Status::Won { winner, .. } if winner == me => return GAME,
            Status::Won { .. } => return -GAME,
            Status::Drawn(_) => return 0.0,
            Status::Playing => {}
        }
        pos.pieces()
            .map(|(_, p)| {
                let w = worth(p.role()).min(20.0);
                if p.side() == me {
                    w
                } else {
                    -w
                }
            })
            .sum()
    }

    /// A rollout player's action in `pos`: its best attack by what it knows (our side: the
    /// belief's expectation on an enemy piece of the root; the enemy: the exact result on a
    /// piece of ours it knows; either: the piece set's average on any other piece of that
    /// arm), else a random move that is no look. Acting on the sampled truth instead would let
    /// both rollout players see through every hidden piece, and price moves by captures no
    /// real player could choose.
    fn rollout_action(
        blind: &Blind,
        pos: &Position,
        marks: &Marks,
        buf: &mut ActionList,
        rng: &mut ChaCha8Rng,
    ) -> Option<Action> {
        buf.clear();
        pos.legal_actions_into(buf);
        if buf.is_empty() {
            return None;
        }
        let combat = pos.options().combat;
        let mut best: Option<(f64, Action)> = None;
        let mut quiet = 0usize;
        for a in buf.iter() {
            if matches!(a, Action::Look { .. }) {
                continue;
            }
            let Some(target) = pos.at(a.to()).filter(|p| p.side() != pos.to_move()) else {
                quiet += 1;
                continue;
            };
            let Some(mover) = pos.at(a.from()) else {
                continue;
            };
            let slot = marks.slot[a.to().index()];
            let gain = if slot < KNOWN {
                marks.gains[slot as usize][mover.role() as usize]
            } else if slot == KNOWN {
                let attacker = match a {
                    Action::Land { .. } => match mover.role().landing_ship() {
                        Some(s) => Combatant::Landed(s),
                        None => continue,
                    },
                    _ => mover.combatant(),
                };
                let Some(out) = resolve(attacker, target.combatant(), combat) else {
                    continue;
                };
                gain_of(
                    out,
                    target.role(),
                    mover.role(),
                    matches!(a, Action::Strike { .. }),
                )
            } else if target.arm() == Arm::Land
                && blind.flag_squares[target.side() as usize].contains(a.to())
            {
                blind.city[mover.role() as usize]
            } else {
                blind.arm[mover.role() as usize][target.arm() as usize]
            };
            if gain > 0.0 && best.is_none_or(|(g, _)| gain > g) {
                best = Some((gain, a));
            }
        }
        if let Some((_, a)) = best {
            return Some(a);
        }
        if quiet == 0 {
            return Some(buf[rng.gen_range(0..buf.len())]);
        }
        // A random quiet move (no look, no attack).
        let mut k = rng.gen_range(0..quiet);
        buf.iter().find(|a| {
            let is_quiet = !matches!(a, Action::Look { .. })
                && pos.at(a.to()).is_none_or(|p| p.side() == pos.to_move());
            if is_quiet {
                if k == 0 {
                    return true;
                }
                k -= 1;
            }
            false
        })
    }

    /// Play `action` in `world`, then a rollout; the material gained for `me`, and the nodes
    /// stepped.
    fn playout(
        &mut self,
        world: &Position,
        root: &Marks,
        watch: Option<&Watch>,
        action: Action,
        me: Side,
    ) -> (f64, u64) {
        let base = Self::value(world, me);
        let mut pos = world.clone();
        if pos.apply(action).is_err() {
            // Legality uses public facts and the mover's own pieces only (§6), so a world
            // never refuses an action the view allows; if one did, the action is not searched.
            return (f64::NEG_INFINITY, 1);
        }
        let threat = watch.map_or(0.0, |w| self.params.guard * w.cost(&pos, me));
        let mut marks = root.clone();
        marks.follow(action, &pos, world.to_move());
        let mut nodes = 1;
        for _ in 0..self.params.depth {
            if pos.is_over() {
                break;
            }
            let Some(a) =
                Self::rollout_action(&self.blind, &pos, &marks, &mut self.buf, &mut self.rng)
            else {
                break;
            };
            let mover = pos.to_move();
            pos.apply_legal(a);
            marks.follow(a, &pos, mover);
            nodes += 1;
        }
        (Self::value(&pos, me) - base - threat, nodes)
    }
}

/// The intruders of a decision: enemy pieces that the seat's own picture ([`Approach`]) puts
/// within [`INTRUDER_RANGE`] moves of its flag.
struct Watch {
    flag: Square,
    intruders: Vec<Square>,
}

impl Watch {
    /// The watch for `view`'s seat, with the picture it was found from; `None` when the flag is
    /// gone or no enemy piece is near it.
    fn of(view: &View, me: Side, options: &Options) -> Option<(Watch, Approach)> {
        let flag = view
            .pieces
            .iter()
            .find(|p| p.side == me && p.role == Some(Role::Flag))?
            .at;
        let mut occupant = [None; junqi_core::lsa::board::SQUARES];
        for p in &view.pieces {
            occupant[p.at.index()] = Some(p.side);
        }
        let approach = Approach::new(flag, me, options.rail_max, |s| occupant[s.index()]);
        let intruders: Vec<Square> = view
            .pieces
            .iter()
            .filter(|p| p.side != me)
            .filter(|p| {
                // A piece at sea threatens only if it can land (a battleship or cruiser).
                let stand_in = match p.arm {
                    Arm::Sea => Role::Battleship,
                    _ => Role::Marshal,
                };
                approach.from_piece(me.other(), p.at, stand_in) <= INTRUDER_RANGE
            })
            .map(|p| p.at)
            .collect();
        (!intruders.is_empty()).then_some((Watch { flag, intruders }, approach))
    }

    /// What the intruders' walk costs in `pos` (a sampled world after our action, the enemy
    /// to move): each intruder, with its sampled role, priced by the moves it needs.
    fn cost(&self, pos: &Position, me: Side) -> f64 {
        self.intruders
            .iter()
            .map(|&s| {
                let d = moves_to_flag(pos, me, self.flag, s, INTRUDER_RANGE);
                if d == FAR {
                    0.0
                } else {
                    THREAT_COST[usize::from(d).min(THREAT_COST.len() - 1)]
                }
            })
            .sum()
    }
}

impl LsaBot for LsaSearchBot {
    fn name(&self) -> String {
        "search".into()
    }
    fn new_game(&mut self, options: &Options, side: Side, seed: u64) {
        self.heuristic.new_game(options, side, seed);
        self.rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_5eac);
        self.side = side;
        self.options = *options;
        self.blind = Blind::new(options);
    }
    fn deploy(&mut self) -> Result<Deployment, BotError> {
        Ok(guarded_layout(
            self.side,
            self.options.piece_set,
            &mut self.rng,
        ))
    }
    fn observe(&mut self, events: &[Event], view: &View) {
        self.heuristic.observe(events, view);
    }
    fn choose(&mut self, view: &View, budget: Budget) -> Result<Action, BotError> {
        let mut ranked = self.heuristic.rank(view);
        if ranked.is_empty() {
            return Err(BotError("asked to move with no legal action".into()));
        }
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        // One action, or a sure capture of the flag: nothing to search.
        if ranked.len() == 1 || ranked[0].0 >= 500.0 {
            return Ok(ranked[0].1);
        }
        let watch = if self.params.guard > 0.0 || self.params.defend > 0 {
            Watch::of(view, self.side, &self.options)
        } else {
            None
        };
        let keep = self.params.candidates.max(2);
        if let Some((w, approach)) = &watch {
            // Answers to intruders join the candidates: attacks on them, and moves onto the
            // squares near the flag where a defender blocks their way. The heuristic prices
            // neither (it sees one ply), so they are rarely among its best.
            let mut extra = 0;
            let mut i = keep;
            while i < ranked.len() && extra < self.params.defend {
                let to = ranked[i].1.to();
                if w.intruders.contains(&to) || approach.at(to) <= 2 {
                    ranked.swap(keep + extra, i);
                    extra += 1;
                }
                i += 1;
            }
            ranked.truncate(keep + extra);
        } else {
            ranked.truncate(keep);
        }
        let watch = watch.map(|(w, _)| w).filter(|_| self.params.guard > 0.0);
        let budget = if budget == Budget::default() {
            Budget::Nodes(self.params.default_nodes)
        } else {
            budget
        };
        let (max_nodes, deadline) = match budget {
            Budget::Iterations(_) => (u64::MAX, None),
            Budget::Nodes(n) => (n.max(1), None),
            Budget::Time(t) => (u64::MAX, Some(Instant::now() + t)),
        };
        let marks = self.root_marks(view);
        let mut sums = vec![0.0f64; ranked.len()];
        let (mut worlds, mut nodes) = (0u64, 0u64);
        let max_worlds = match budget {
            Budget::Iterations(n) => n.max(1),
            _ => u64::MAX,
        };
        while worlds < max_worlds && nodes < max_nodes {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let Some(world) = self.heuristic.belief().sample(view, &mut self.rng) else {
                break;
            };
            for (i, &(_, action)) in ranked.iter().enumerate() {
                let (v, n) = self.playout(&world, &marks, watch.as_ref(), action, self.side);
                sums[i] += v;
                nodes += n;
            }
            worlds += 1;
        }
        let prior = self.params.prior;
        ranked
            .iter()
            .zip(&sums)
            .map(|(&(h, a), &s)| {
                let mean = if worlds > 0 { s / worlds as f64 } else { 0.0 };
                (mean + prior * h, a)
            })
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, a)| a)
            .ok_or_else(|| BotError("asked to move with no legal action".into()))
    }
}

/// What an attack's outcome gains for the attacker: the defender's worth if it falls (the
/// game if it is the flag), less the attacker's if it falls (a striker never does).
fn gain_of(out: junqi_core::lsa::Outcome, defender: Role, attacker: Role, strike: bool) -> f64 {
    if out.result == AttackResult::FlagCaptured {
        return GAME;
    }
    let mut gain = 0.0;
    if !out.defender_survives {
        gain += worth(defender).min(20.0);
    }
    if !out.attacker_survives && !strike {
        gain -= worth(attacker);
    }
    gain
}

/// [`Blind::arm`] for a rule set: each attacker role against the set's pieces of
/// each arm, weighted by their counts (strikes counted as a fort's or gunboat's).
fn blind_gains(options: &Options) -> [[f64; 3]; ROLES] {
    let set = options.piece_set;
    let mut table = [[0.0; 3]; ROLES];
    for att in Role::ALL.into_iter().filter(|r| set.has(*r)) {
        let strike = matches!(att, Role::Fort | Role::Gunboat);
        for arm in Arm::ALL {
            let (mut sum, mut weight) = (0.0, 0.0);
            for def in Role::ALL
                .into_iter()
                .filter(|r| r.arm() == arm && set.has(*r))
            {
                let Some(out) =
                    resolve(Combatant::Piece(att), Combatant::Piece(def), options.combat)
                else {
                    continue;
                };
                let w = f64::from(set.count(def));
                sum += w * gain_of(out, def, att, strike);
                weight += w;
            }
            table[att as usize][arm as usize] = if weight > 0.0 { sum / weight } else { 0.0 };
        }
    }
    table
}

/// A square's mark: what the player attacking it knows. Below [`KNOWN`]: an enemy piece of the
/// root, the index of its row of expected gains; [`KNOWN`]: a piece of ours whose role the
/// enemy knows; [`UNKNOWN`]: nothing.
const KNOWN: u8 = 254;
const UNKNOWN: u8 = 255;

/// What each rollout player knows of the other's pieces, by square, carried with the pieces
/// as they move.
#[derive(Clone)]
struct Marks {
    slot: [u8; SQUARES],
    /// For each enemy piece of the root, the expected gain of an attack on it by each of our
    /// roles under the belief.
    gains: std::rc::Rc<Vec<[f64; ROLES]>>,
}

impl Marks {
    /// The marks after `action` was played in `pos` by `mover`: the piece that took the target
    /// square carries its mark there; the squares it left and pieces that fell lose theirs.
    fn follow(&mut self, action: Action, pos: &Position, mover: Side) {
        let (from, to) = (action.from().index(), action.to().index());
        if pos.at(action.from()).is_none() {
            if pos.at(action.to()).is_some_and(|p| p.side() == mover) {
                self.slot[to] = self.slot[from];
            }
            self.slot[from] = UNKNOWN;
        }
        if pos.at(action.to()).is_none() {
            self.slot[to] = UNKNOWN;
        }
    }
}

impl LsaSearchBot {
    /// The marks of the root: our side prices an attack on each enemy piece by the belief,
    /// and the enemy knows our pieces whose roles are public (the fort on its harbour).
    fn root_marks(&self, view: &View) -> Marks {
        let belief = self.heuristic.belief();
        let combat = self.options.combat;
        let mut slot = [UNKNOWN; SQUARES];
        let mut gains = Vec::new();
        for p in &view.pieces {
            if p.side == self.side {
                if p.role == Some(Role::Fort) {
                    slot[p.at.index()] = KNOWN;
                }
                continue;
            }
            let roles = belief.roles(view, p.at);
            let mut row = [0.0; ROLES];
            for att in Role::ALL {
                let strike = matches!(att, Role::Fort | Role::Gunboat);
                let attacker = match att.landing_ship() {
                    Some(s) if p.arm == Arm::Land => Combatant::Landed(s),
                    _ => Combatant::Piece(att),
                };
                row[att as usize] = roles
                    .iter()
                    .map(|&(r, w)| {
                        let def = match r.landing_ship() {
                            Some(s) if p.landed => Combatant::Landed(s),
                            _ => Combatant::Piece(r),
                        };
                        resolve(attacker, def, combat)
                            .map_or(0.0, |o| w * gain_of(o, r, att, strike))
                    })
                    .sum();
            }
            if gains.len() < usize::from(KNOWN) {
                slot[p.at.index()] = gains.len() as u8;
                gains.push(row);
            }
        }
        Marks {
            slot,
            gains: std::rc::Rc::new(gains),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsa::{play_game, LsaRandomBot, LsaResult};
    use junqi_core::lsa::Mode;

    /// The search player finishes games against the random player with legal choices under
    /// each kind of budget, and wins them.
    #[test]
    fn search_plays_legal_games_under_every_budget() {
        for (seed, budget) in [
            (0, Budget::Nodes(2_000)),
            (1, Budget::Iterations(4)),
            (2, Budget::Time(std::time::Duration::from_millis(2))),
        ] {
            let (mut s, mut r) = (LsaSearchBot::default(), LsaRandomBot::default());
            let result = play_game(
                [&mut s, &mut r],
                &Options::default(),
                Mode::Dark,
                seed,
                budget,
            );
            assert_eq!(
                result.map(|p| p.result()),
                Ok(LsaResult::Win(Side::South)),
                "seed {seed} {budget:?}"
            );
        }
    }

    /// An enemy piece two moves from an open flag is an intruder; a candidate that takes it
    /// pays nothing for it, one that leaves it pays the two-move price, and a wall of
    /// landmines leaves a captain no way in.
    #[test]
    fn intruders_are_found_and_priced() {
        use junqi_core::lsa::{Observer, Piece};
        let sq = |n: &str| Square::parse(n).unwrap();
        let position = |walls: bool| {
            let mut pieces = vec![
                (sq("e1"), Piece::new(Side::South, Role::Flag)),
                (sq("f3"), Piece::new(Side::South, Role::Tank)),
                (sq("a3"), Piece::new(Side::South, Role::Captain)),
                (sq("e3"), Piece::new(Side::North, Role::Captain)),
                (sq("e15"), Piece::new(Side::North, Role::Flag)),
                (sq("a14"), Piece::new(Side::North, Role::Major)),
            ];
            if walls {
                for s in ["d1", "f1", "e2"] {
                    pieces.push((sq(s), Piece::new(Side::South, Role::Landmine)));
                }
            }
            Position::from_pieces(Options::default(), Side::South, &pieces).unwrap()
        };
        let pos = position(false);
        let view = pos.view(Mode::Dark, Observer::Seat(Side::South));
        let (watch, approach) = Watch::of(&view, Side::South, &Options::default()).unwrap();
        assert_eq!(watch.intruders, vec![sq("e3")]);
        assert_eq!(approach.at(sq("e3")), 2);
        let after = |action: &str| {
            let mut p = pos.clone();
            let a = junqi_core::lsa::notation::action_from_text(&p, action).unwrap();
            p.apply(a).unwrap();
            watch.cost(&p, Side::South)
        };
        assert_eq!(after("f3-e3"), 0.0, "the tank takes the captain");
        assert_eq!(
            after("a3-a4"),
            THREAT_COST[2],
            "the captain is left two moves out"
        );
        // Walled, the seat's own picture still sees the captain (it might beat a landmine,
        // for all the seat knows of it), but the sampled captain cannot pass one.
        let walled = position(true);
        let view = walled.view(Mode::Dark, Observer::Seat(Side::South));
        let (watch, _) = Watch::of(&view, Side::South, &Options::default()).unwrap();
        let mut p = walled.clone();
        let a = junqi_core::lsa::notation::action_from_text(&p, "a3-a4").unwrap();
        p.apply(a).unwrap();
        assert_eq!(watch.cost(&p, Side::South), 0.0);
    }

    /// The same seed and node budget give the same game.
    #[test]
    fn node_budgets_are_reproducible() {
        let game = || {
            let (mut s, mut r) = (LsaSearchBot::default(), LsaRandomBot::default());
            let mut pos_actions = Vec::new();
            s.new_game(&Options::default(), Side::South, 9);
            r.new_game(&Options::default(), Side::North, 10);
            let mut pos = Position::new(
                Options::default(),
                &s.deploy().unwrap(),
                &r.deploy().unwrap(),
            )
            .unwrap();
            for _ in 0..40 {
                if pos.is_over() {
                    break;
                }
                let me = pos.to_move();
                let view = pos.view(Mode::Dark, junqi_core::lsa::Observer::Seat(me));
                let a = if me == Side::South {
                    s.choose(&view, Budget::Nodes(1_000)).unwrap()
                } else {
                    r.choose(&view, Budget::Nodes(1)).unwrap()
                };
                let step = pos.apply(a).unwrap();
                let obs = junqi_core::lsa::Observer::Seat(Side::South);
                let evs: Vec<Event> =
                    junqi_core::lsa::events_for(obs, step.events.as_slice()).collect();
                s.observe(&evs, &pos.view(Mode::Dark, obs));
                pos_actions.push(a);
            }
            pos_actions
        };
        assert_eq!(game(), game());
    }
}
