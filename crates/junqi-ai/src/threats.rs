//! Tactical pricing at the root, from what the seat knows (its observation and belief), not from
//! any sampled world: the sampled worlds of the search each fix every hidden identity, so in
//! each of them the enemy "knows" our pieces and we "know" theirs. The terms here are priced on
//! the information set itself:
//!
//! - **flag safety**: for each square next to our flag (and, weaker, next to our decoy HQ, so
//!   that our answers do not show which HQ holds the flag), which enemy pieces could reach it in
//!   one or two moves (steps, straight rail slides, and the flights of a piece that may be an
//!   engineer), and whether one of our pieces could strike that square back; a square there
//!   that one of our pieces holds counts by the chance that an enemy piece reaching it beats
//!   what stands on it (a landmine an engineer clears);
//! - **risky attacks**: an attack on a piece that has never moved, at a square where people put
//!   bombs (behind the front corners, next to the camps) — more so once an unmoved piece of
//!   the same seat has blown up one of ours from a square of the same kind (the
//!   [`BlastMemory`]), and on an unmoved piece next to an announced flag (likely a landmine);
//! - **locked captures**: a capture into an enemy HQ under `hq_exit = locked` leaves the
//!   capturing piece stuck there for the rest of the game unless it took the flag.
//!
//! [`root_adjustments`] returns, per legal action, a value in material units (a marshal is 10)
//! to add to the search's value of the action.

use crate::belief::Belief;
use crate::eval::{beats_table, is_enemy, value, Beats};
use crate::heuristic::along_lines;
use junqi_core::combat::resolve;
use junqi_core::{
    Action, AttackResult, Event, Observation, Role, Rules, Seat, Square, SquareKind, Topology,
};

/// The weight of a hole next to the decoy HQ against one next to the real flag.
const DECOY: f64 = 0.4;
/// The weight of a partner's flag (when we can see it) against our own.
const PARTNER: f64 = 0.7;
/// Cost of an enemy piece that could reach an unguarded square next to our flag in one move.
const REACH1: f64 = 25.0;
/// … in two moves.
const REACH2: f64 = 12.0;
/// Cost of an enemy piece standing next to our flag (it takes the flag next move).
const ADJACENT: f64 = 40.0;
/// A square guarded by a strong piece still costs this share of its reach (the guard may
/// lose the exchange); a weaker guard, more.
const GUARDED: f64 = 0.25;
/// Weight of a square next to our flag that one of our pieces holds, against an empty one, per
/// unit of the chance that an enemy piece arriving there beats what stands on it: a piece
/// taken there opens the square, but the taker spends a move and shows itself first.
const GATE: f64 = 0.5;
/// Extra cost per unit of losing probability when attacking a piece that has never moved.
const PROBE: f64 = 0.3;
/// Weight of the extra chance (above the belief's) that an unmoved target is a bomb or a
/// landmine: more than the material, as the attacker's tempo and the square's cover go too.
const RISK: f64 = 1.5;
/// Share of a piece's value lost when it is locked in an enemy HQ.
const LOCKED: f64 = 0.7;

/// The bomb-square weight of a seat's local square (row 0 = front row): how likely a player
/// puts a bomb there, before anything is learnt. Front corners' rear squares next to the camps
/// are the classic bomb squares.
fn bomb_square_prior(row: u8, col: u8) -> f64 {
    match (row, col) {
        (1, 0) | (1, 4) => 0.3,
        (1, 2) | (2, 0) | (2, 4) => 0.15,
        _ => 0.0,
    }
}

/// What the seat has learnt about where the enemies put their bombs: each of our attacks on a
/// piece that had never moved and that removed our attacker along with it (a bomb, or an equal
/// rank) from a local square raises the bomb weight of that square and its mirror square for
/// that seat.
#[derive(Clone, Debug, Default)]
pub struct BlastMemory {
    /// (enemy seat, local row, local column folded to 0..=2) of each blast.
    blasts: Vec<(Seat, u8, u8)>,
    /// Whether our own flag has been announced (then the decoy HQ deceives nobody).
    pub flag_shown: bool,
    /// The prior factors already given to the unmoved enemy piece on each square (bomb,
    /// landmine), so that [`BlastMemory::shape_belief`] applies each change once.
    shaped: Vec<(Square, f64, f64)>,
}

impl BlastMemory {
    /// Forget everything (a new game).
    pub fn clear(&mut self) {
        self.blasts.clear();
        self.flag_shown = false;
        self.shaped.clear();
    }

    /// Teach the belief what this memory knows of how the enemies lay out, on every enemy
    /// piece that has not moved: a bomb is likelier on a bomb square (the more so once one of
    /// the same kind blew up one of ours), a landmine next to an announced flag. The search's
    /// sampled worlds and the heuristic then draw bombs and landmines where a player expects
    /// them.
    pub fn shape_belief(&mut self, obs: &Observation, me: Seat, belief: &mut Belief) {
        if obs.rules.is_flip() {
            return;
        }
        let topo = obs.topology();
        let flags: Vec<Square> = obs
            .pieces
            .iter()
            .filter(|p| p.role == Some(Role::Flag) && p.seat.is_some_and(|s| is_enemy(obs, me, s)))
            .map(|p| p.at)
            .collect();
        for p in &obs.pieces {
            let Some(owner) = p.seat else { continue };
            if p.role.is_some() || !is_enemy(obs, me, owner) {
                continue;
            }
            let Some(t) = belief.tracked_at(p.at) else {
                continue;
            };
            if t.moved {
                continue;
            }
            let bomb = match topo.home(p.at) {
                Some(l) if l.seat == owner => 1.0 + 20.0 * self.bomb_weight(owner, l.row, l.col),
                _ => 1.0,
            };
            let mine = if flags.iter().any(|&f| topo.adjacent(f, p.at)) {
                30.0
            } else {
                1.0
            };
            let k = self.shaped.iter().position(|x| x.0 == p.at);
            let (old_b, old_m) = k.map_or((1.0, 1.0), |k| (self.shaped[k].1, self.shaped[k].2));
            if bomb != old_b {
                belief.weigh_prior(p.at, Role::Bomb, bomb / old_b);
            }
            if mine != old_m {
                belief.weigh_prior(p.at, Role::Landmine, mine / old_m);
            }
            match k {
                Some(k) => self.shaped[k] = (p.at, bomb, mine),
                None => self.shaped.push((p.at, bomb, mine)),
            }
        }
    }

    /// Record the blasts among `events` (before the belief takes them in: it tells whether the
    /// defender had moved).
    pub fn record(&mut self, events: &[Event], me: Seat, belief: Option<&Belief>, topo: &Topology) {
        for e in events {
            if matches!(*e, Event::FlagRevealed { seat, .. } if seat == me) {
                self.flag_shown = true;
            }
            let Event::Attack {
                seat, to, result, ..
            } = *e
            else {
                continue;
            };
            if seat != me || result != AttackResult::BothRemoved {
                continue;
            }
            let unmoved = belief
                .and_then(|b| b.tracked_at(to))
                .is_some_and(|t| !t.moved);
            if let (true, Some(l)) = (unmoved, topo.home(to)) {
                self.blasts.push((l.seat, l.row, l.col.min(4 - l.col)));
            }
        }
    }

    /// The weight that an unmoved piece of `seat` on local (`row`, `col`) is a bomb.
    pub fn bomb_weight(&self, seat: Seat, row: u8, col: u8) -> f64 {
        let folded = col.min(4 - col);
        let seen = self
            .blasts
            .iter()
            .filter(|b| b.0 == seat && b.1 == row && b.2 == folded)
            .count();
        (bomb_square_prior(row, col) + 0.5 * seen as f64).min(0.9)
    }
}

/// Who stands where, as the seat sees it: our pieces with their roles, enemy pieces with a
/// role distribution.
#[derive(Clone)]
struct Board {
    /// Per square: `None` empty, `Some(true)` ours (or a partner's), `Some(false)` an enemy's.
    side: Vec<Option<bool>>,
    /// Our roles (for our squares).
    role: Vec<Option<Role>>,
    /// Enemy role distributions (for enemy squares).
    dist: Vec<[f64; 12]>,
}

/// Squares one ordinary move from `s` (a step, or a straight rail slide through empty
/// squares), and the squares an engineer's flight reaches (rail edges through empty squares).
/// Both relations are symmetric over empty paths, so they also give who can reach `s`.
fn reach_from(
    topo: &Topology,
    lines: &[Vec<Square>],
    b: &Board,
    s: Square,
) -> (Vec<Square>, Vec<Square>) {
    let mut normal: Vec<Square> = topo.neighbours(s).collect();
    along_lines(
        lines,
        s,
        |q| b.side[q.index()].is_some(),
        |q| {
            if !normal.contains(&q) {
                normal.push(q);
            }
        },
    );
    let mut flight = Vec::new();
    if topo.is_rail(s) {
        let mut stack = vec![s];
        let mut seen = vec![false; topo.len()];
        seen[s.index()] = true;
        while let Some(q) = stack.pop() {
            for r in topo.rail_neighbours(q) {
                if seen[r.index()] {
                    continue;
                }
                seen[r.index()] = true;
                flight.push(r);
                if b.side[r.index()].is_none() {
                    stack.push(r);
                }
            }
        }
    }
    (normal, flight)
}

/// Probability that the enemy piece with distribution `d` on `at` can move at all.
fn p_moves(rules: &Rules, topo: &Topology, d: &[f64; 12], at: Square) -> f64 {
    if rules.hq_locked() && topo.kind(at) == SquareKind::Headquarters {
        return 0.0;
    }
    (1.0 - d[Role::Landmine as usize] - d[Role::Flag as usize]).max(0.0)
}

/// The chance-like harm when an enemy `attacker` strikes our `ours`: 1 when it wins, a half
/// when both go (the square opens but nothing of theirs stands on it), 0 otherwise.
fn harm(beats: &Beats, attacker: Role, ours: Role) -> f64 {
    if beats.wins(attacker, ours) {
        1.0
    } else if beats.both(attacker, ours) {
        0.5
    } else {
        0.0
    }
}

/// How likely an enemy piece reaches square `s` of `b` and does harm there, in one move and in
/// two, priced as `REACH1`/`REACH2` and discounted by the strongest guard of ours that could
/// strike the square back. `harm(d, q, flight)` is the chance that the enemy piece with role
/// distribution `d` on `q` does harm on arrival; `flight` says it could only get there by an
/// engineer's flight.
fn reach_cost(
    topo: &Topology,
    lines: &[Vec<Square>],
    b: &Board,
    rules: &Rules,
    s: Square,
    harm: impl Fn(&[f64; 12], Square, bool) -> f64,
) -> f64 {
    let (n1, e1) = reach_from(topo, lines, b, s);
    // Probabilities that no enemy piece can reach the square in one (two) moves, the
    // pieces taken as independent (a noisy-or over the pieces).
    let mut none1 = 1.0f64;
    let mut none2 = 1.0f64;
    let mut counted: Vec<Square> = Vec::new();
    // The strongest guard that could strike the square back (by material value).
    let mut guard = 0.0f64;
    for &q in n1.iter().chain(&e1) {
        let flight_only = !n1.contains(&q);
        match b.side[q.index()] {
            Some(true) => {
                let r = b.role[q.index()];
                let moves = r.is_some_and(|r| r.is_movable())
                    && !(rules.hq_locked() && topo.kind(q) == SquareKind::Headquarters);
                if moves && (!flight_only || r == Some(Role::Engineer)) {
                    guard = guard.max(r.map_or(0.0, value));
                }
            }
            Some(false) => none1 *= 1.0 - harm(&b.dist[q.index()], q, flight_only),
            None => {
                // Two moves: an enemy piece reaching this empty square first.
                let (n2, e2) = reach_from(topo, lines, b, q);
                for &e in n2.iter().chain(&e2) {
                    if b.side[e.index()] != Some(false) || counted.contains(&e) {
                        continue;
                    }
                    counted.push(e);
                    let flight = flight_only || !n2.contains(&e);
                    none2 *= 1.0 - harm(&b.dist[e.index()], e, flight);
                }
            }
        }
    }
    let cost = REACH1 * (1.0 - none1) + REACH2 * (1.0 - none2);
    // A strong guard (a brigadier-general's worth or more) wins most fights on the square;
    // a weak one little more than blocks it.
    let cover = 1.0 - (1.0 - GUARDED) * (guard / 6.0).min(1.0);
    cover * cost
}

/// The danger to the flag-like square `f` on `b`: enemy pieces next to it, the empty squares
/// next to it that enemy pieces could reach in one or two moves, and the squares next to it
/// that one of our pieces holds, by the chance that an enemy piece reaching it beats what
/// stands there (a landmine an engineer clears, a weak piece a stronger one takes).
fn flag_danger(
    rules: &Rules,
    topo: &Topology,
    lines: &[Vec<Square>],
    beats: &Beats,
    b: &Board,
    f: Square,
) -> f64 {
    let mut danger = 0.0;
    for s in topo.neighbours(f) {
        match b.side[s.index()] {
            Some(false) => {
                danger += ADJACENT * p_moves(rules, topo, &b.dist[s.index()], s);
            }
            Some(true) => {
                let Some(ours) = b.role[s.index()] else {
                    continue;
                };
                danger += GATE
                    * reach_cost(topo, lines, b, rules, s, |d, q, flight| {
                        if flight {
                            d[Role::Engineer as usize] * harm(beats, Role::Engineer, ours)
                        } else if p_moves(rules, topo, d, q) == 0.0 {
                            0.0
                        } else {
                            Role::ALL
                                .iter()
                                .map(|&r| d[r as usize] * harm(beats, r, ours))
                                .sum()
                        }
                    });
            }
            None => {
                danger += reach_cost(topo, lines, b, rules, s, |d, q, flight| {
                    if flight {
                        d[Role::Engineer as usize]
                    } else {
                        p_moves(rules, topo, d, q)
                    }
                });
            }
        }
    }
    danger
}

/// The danger to our flags on `b` (the real one, the decoy HQ weighted by [`DECOY`]).
fn danger(
    rules: &Rules,
    topo: &Topology,
    lines: &[Vec<Square>],
    beats: &Beats,
    b: &Board,
    flags: &[(Square, f64)],
) -> f64 {
    flags
        .iter()
        .map(|&(f, w)| w * flag_danger(rules, topo, lines, beats, b, f))
        .sum()
}

/// Per legal action of `obs` (same order), an adjustment in material units to add to the
/// search's value of the action: minus the flag danger after it, minus the extra risk of an
/// attack on an unmoved piece, minus the cost of a capture that locks the capturer in an HQ.
/// Flip play gets none (identities there are dealt, not laid out).
pub fn root_adjustments(
    obs: &Observation,
    belief: &mut Belief,
    seat: Seat,
    memory: &BlastMemory,
) -> Vec<f64> {
    let rules = obs.rules;
    let n = obs.legal_actions.len();
    if rules.is_flip() {
        return vec![0.0; n];
    }
    let topo = obs.topology();
    let lines: Vec<Vec<Square>> = topo.lines().map(|l| l.collect()).collect();
    let beats = beats_table(&rules);
    let mut b = Board {
        side: vec![None; topo.len()],
        role: vec![None; topo.len()],
        dist: vec![[0.0; 12]; topo.len()],
    };
    let uniform = {
        let mut d = [0.0; 12];
        for r in Role::ALL {
            d[r as usize] = Role::COUNTS[r as usize] as f64 / 25.0;
        }
        d
    };
    let mut flags: Vec<(Square, f64)> = Vec::new();
    let mut enemy_flags: Vec<Square> = Vec::new();
    for p in &obs.pieces {
        let Some(owner) = p.seat else { continue };
        let i = p.at.index();
        if is_enemy(obs, seat, owner) {
            b.side[i] = Some(false);
            b.dist[i] = match p.role {
                Some(r) => {
                    let mut d = [0.0; 12];
                    d[r as usize] = 1.0;
                    d
                }
                None => belief.dist_at(p.at).unwrap_or(uniform),
            };
            if p.role == Some(Role::Flag) {
                enemy_flags.push(p.at);
            }
        } else {
            b.side[i] = Some(true);
            b.role[i] = p.role;
            // Our flag, and a partner's once we can see it (four and six seats with teams: a
            // partner's flag lost puts a seat of our side out).
            if p.role == Some(Role::Flag) {
                flags.push((p.at, if owner == seat { 1.0 } else { PARTNER }));
            }
        }
    }
    // While our flag is not announced (dark play announces it when the marshal falls), the
    // enemy cannot tell our HQs apart: a threat to the other HQ is met too, more lightly.
    let own = flags.iter().find(|f| f.1 == 1.0).map(|f| f.0);
    if let (false, Some(own)) = (memory.flag_shown, own) {
        for h in topo.hqs_of(seat) {
            if h != own && b.side[h.index()] == Some(true) {
                flags.push((h, DECOY));
            }
        }
    }
    let base = danger(&rules, topo, &lines, &beats, &b, &flags);
    let mut out = vec![0.0; n];
    for (k, &a) in obs.legal_actions.iter().enumerate() {
        let Action::Move { from, to } = a else {
            continue;
        };
        let Some(me) = b.role[from.index()] else {
            continue;
        };
        let mut after = b.clone();
        after.side[from.index()] = None;
        after.role[from.index()] = None;
        let adj = if b.side[to.index()] == Some(false) {
            let d = b.dist[to.index()];
            // Outcome probabilities of the attack, over the defender's distribution.
            let (mut win, mut lose, mut trade, mut flag) = (0.0, 0.0, 0.0, 0.0);
            for r in Role::ALL {
                let p = d[r as usize];
                if p == 0.0 {
                    continue;
                }
                let res = resolve(&rules, me, r);
                if res.result == AttackResult::FlagCaptured {
                    flag += p;
                }
                if !res.attacker_survives {
                    lose += p;
                    if !res.defender_survives {
                        trade += p;
                    }
                }
                if res.attacker_survives && !res.defender_survives {
                    win += p;
                }
            }
            let mut cost = 0.0;
            let unmoved = belief.tracked_at(to).is_some_and(|t| !t.moved);
            if unmoved {
                let mut extra = 0.0;
                if me != Role::Bomb {
                    if let Some(l) = topo.home(to) {
                        let w = memory.bomb_weight(l.seat, l.row, l.col);
                        extra += (w - d[Role::Bomb as usize]).max(0.0);
                    }
                }
                // An unmoved piece next to an announced flag is most likely a landmine.
                if me != Role::Engineer && enemy_flags.iter().any(|&f| topo.adjacent(f, to)) {
                    extra += (0.6 - d[Role::Landmine as usize]).max(0.0);
                }
                cost += value(me) * (RISK * extra + PROBE * lose);
            }
            if rules.hq_locked() && topo.kind(to) == SquareKind::Headquarters && me != Role::Bomb {
                cost += LOCKED * value(me) * (win - flag).max(0.0);
            }
            // The flag danger after the attack: our piece there if it wins, the square empty
            // after a trade, the defender still there if ours lost.
            let mut won = after.clone();
            won.side[to.index()] = Some(true);
            won.role[to.index()] = Some(me);
            let mut traded = after.clone();
            traded.side[to.index()] = None;
            let held = after;
            let exp = win * danger(&rules, topo, &lines, &beats, &won, &flags)
                + trade * danger(&rules, topo, &lines, &beats, &traded, &flags)
                + (1.0 - win - trade).max(0.0)
                    * danger(&rules, topo, &lines, &beats, &held, &flags);
            -cost - (exp - base)
        } else {
            after.side[to.index()] = Some(true);
            after.role[to.index()] = Some(me);
            -(danger(&rules, topo, &lines, &beats, &after, &flags) - base)
        };
        out[k] = adj;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::text::position_from_text;
    use junqi_core::Observer;

    /// The adjustment of each legal move of seat 0 in `text`, by "from-to".
    fn adjustments(text: &str) -> Vec<(String, f64)> {
        let pos = position_from_text(text).unwrap();
        let obs = pos.observe(Observer::Seat(0));
        let mut belief = Belief::new(obs.rules, 0);
        belief.update(&[], &obs);
        let adj = root_adjustments(&obs, &mut belief, 0, &BlastMemory::default());
        let t = pos.topology();
        obs.legal_actions
            .iter()
            .zip(adj)
            .filter_map(|(a, v)| match *a {
                Action::Move { from, to } => Some((format!("{}-{}", t.name(from), t.name(to)), v)),
                Action::Flip(_) => None,
            })
            .collect()
    }

    /// Our flag b1 is shut by landmines, but an engineer flying down file e and along rank 2
    /// clears the one on b2 and opens the flag. A move that puts a guard next to b2 (d3-c2), or
    /// that shuts file e (e4-e7), is worth more than one that does neither; and stepping off
    /// file e (e4-d4) opens it. Before the landmine on b2 was priced as a gate, every one of
    /// these moves was worth the same.
    #[test]
    fn a_landmine_next_to_the_flag_is_a_gate() {
        let adj: std::collections::HashMap<String, f64> = adjustments(
            "two_player dark 0 plies=40 \
             b12=1F a12=1L c12=1L d12=13 e12=1L a9=12 e9=14 \
             b1=0F a1=0L c1=0L b2=0L d3=05 e4=03",
        )
        .into_iter()
        .collect();
        assert!(adj["d3-c2"] > adj["d3-c4"] + 0.5, "{adj:?}");
        assert!(adj["e4-e7"] > adj["e4-e5"] + 0.5, "{adj:?}");
        assert!(adj["e4-d4"] < adj["e4-e5"] - 0.5, "{adj:?}");
    }
}
