//! The one-ply heuristic bot: scores every legal action with what its seat knows and believes —
//! expected material of an attack over the believed identity of the defender, the danger a
//! piece stands in before and after a move, advancing, defending the flag — and plays the best.
//! Engineers go for likely landmines and bombs for the biggest threats because that is what the
//! expectations favour.

use crate::belief::Belief;
use crate::bot::{Bot, BotError, Budget};
use crate::deploygen::layout_for_bot;
use crate::eval::{advance, is_enemy, my_owner, value};
use junqi_core::combat::resolve;
use junqi_core::{
    Action, AttackResult, Deployment, Event, Mode, Observation, Role, Rules, Seat, Square,
    SquareKind, Topology,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What a seat knows or believes of the piece on each square.
pub(crate) struct View {
    /// Per square: owner (if shown: not for a face-down piece in flip play) and role
    /// distribution (a known role is a certainty).
    pub cells: Vec<Option<(Option<u8>, [f64; 12])>>,
    /// Lines of the board, for rail reach.
    pub lines: Vec<Vec<Square>>,
}

impl View {
    pub(crate) fn new(obs: &Observation, belief: &mut Belief) -> View {
        let topo = obs.topology();
        let mut cells = vec![None; topo.len()];
        for p in &obs.pieces {
            let d = match p.role {
                Some(r) => {
                    let mut d = [0.0; 12];
                    d[r as usize] = 1.0;
                    d
                }
                None => belief.dist_at(p.at).unwrap_or([1.0 / 12.0; 12]),
            };
            cells[p.at.index()] = Some((p.seat, d));
        }
        View {
            cells,
            lines: topo.lines().map(|l| l.collect()).collect(),
        }
    }

    /// The role distribution of the piece on `s` if it is a face-up enemy of `seat`, with the
    /// chance that it is a piece that moves (not a landmine or the flag).
    pub(crate) fn enemy_mover(
        &self,
        obs: &Observation,
        seat: Seat,
        s: Square,
    ) -> Option<(&[f64; 12], f64)> {
        let (owner, d) = self.cells[s.index()].as_ref()?;
        if !owner.is_some_and(|o| is_enemy(obs, seat, o))
            || obs.piece_at(s).is_some_and(|p| p.face_down)
        {
            return None;
        }
        let movable = Role::ALL
            .iter()
            .filter(|r| r.is_movable())
            .map(|&r| d[r as usize])
            .sum();
        Some((d, movable))
    }

    /// Squares from which a piece could attack `to` in one move (adjacent, or along a straight
    /// line through empty squares), ignoring `skip` (the square a piece is leaving).
    pub(crate) fn attackers_of(&self, topo: &Topology, to: Square, skip: Square) -> Vec<Square> {
        let mut out: Vec<Square> = topo.neighbours(to).filter(|&s| s != skip).collect();
        if topo.is_rail(to) {
            for line in &self.lines {
                let Some(i) = line.iter().position(|&s| s == to) else {
                    continue;
                };
                for dir in [-1i32, 1] {
                    let mut j = i as i32 + dir;
                    while j >= 0 && (j as usize) < line.len() {
                        let s = line[j as usize];
                        if s != skip && self.cells[s.index()].is_some() {
                            out.push(s);
                            break;
                        }
                        j += dir;
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Expected material change (for the mover) of `att` (known role) attacking a defender with
/// role distribution `d`, and the probability the attacker survives.
pub(crate) fn attack_ev(rules: &Rules, att: Role, d: &[f64; 12]) -> (f64, f64) {
    let mut ev = 0.0;
    let mut survive = 0.0;
    for r in Role::ALL {
        let p = d[r as usize];
        if p <= 0.0 {
            continue;
        }
        let res = resolve(rules, att, r);
        let mut v = 0.0;
        if !res.defender_survives {
            v += value(r);
        }
        if !res.attacker_survives {
            v -= value(att);
        } else {
            survive += p;
        }
        if res.result == AttackResult::FlagCaptured {
            v += 200.0;
        }
        ev += p * v;
    }
    (ev, survive)
}

/// Expected loss of a piece of role `mine` standing on `at` to the enemy pieces that could
/// attack it next turn.
pub(crate) fn danger(
    obs: &Observation,
    view: &View,
    seat: Seat,
    mine: Role,
    at: Square,
    skip: Square,
) -> f64 {
    let topo = obs.topology();
    if topo.kind(at) == SquareKind::Camp {
        return 0.0;
    }
    let mut worst: f64 = 0.0;
    for s in view.attackers_of(topo, at, skip) {
        let Some((d, movable)) = view.enemy_mover(obs, seat, s) else {
            continue;
        };
        if movable <= 0.0 {
            continue;
        }
        let mut loss = 0.0;
        for r in Role::ALL.into_iter().filter(|r| r.is_movable()) {
            let p = d[r as usize] / movable;
            let res = resolve(&obs.rules, r, mine);
            if !res.defender_survives {
                loss += p * value(mine);
            }
            if !res.attacker_survives {
                loss -= p * value(r) * 0.5;
            }
        }
        worst = worst.max(loss);
    }
    worst
}

/// Squares from which a piece could reach `t` in one move when `occ` tells which squares are
/// occupied: neighbours, and along the board's straight lines (if `t` is a rail square) the
/// first occupied square in each direction.
fn reach_from(
    topo: &Topology,
    lines: &[Vec<Square>],
    occ: impl Fn(Square) -> bool,
    t: Square,
) -> Vec<Square> {
    let mut out: Vec<Square> = topo.neighbours(t).collect();
    if topo.is_rail(t) {
        along_lines(lines, t, &occ, |s| {
            if occ(s) {
                out.push(s);
            }
        });
    }
    out
}

/// Walk each of the board's straight lines through `t` away from it in both directions,
/// calling `visit` on every square passed, up to and including the first one `occ` says is
/// occupied (the squares a straight slide from `t` passes, and the piece it would meet).
pub(crate) fn along_lines(
    lines: &[Vec<Square>],
    t: Square,
    occ: impl Fn(Square) -> bool,
    mut visit: impl FnMut(Square),
) {
    for line in lines {
        let Some(i) = line.iter().position(|&s| s == t) else {
            continue;
        };
        for dir in [-1i32, 1] {
            let mut j = i as i32 + dir;
            while j >= 0 && (j as usize) < line.len() {
                let s = line[j as usize];
                visit(s);
                if occ(s) {
                    break;
                }
                j += dir;
            }
        }
    }
}

/// How exposed our flag on `flag` is after our piece moves `from` → `to` (two plies: an enemy
/// piece reaching a square next to the flag, then taking it): for every empty square next to
/// the flag that an enemy piece could enter next turn, the chance that piece is movable,
/// weighted by whether one of ours could strike the square back at once.
fn flag_exposure(
    obs: &Observation,
    view: &View,
    seat: Seat,
    flag: Square,
    from: Square,
    to: Square,
) -> f64 {
    let topo = obs.topology();
    let occ = |s: Square| s == to || (s != from && view.cells[s.index()].is_some());
    let mine = |s: Square| -> bool {
        // (A piece in an HQ, including one moving there now, never moves again.)
        if s == from || topo.kind(s) == SquareKind::Headquarters {
            return false;
        }
        if s == to {
            return true;
        }
        obs.piece_at(s).is_some_and(|p| {
            !p.face_down
                && p.seat.is_some_and(|o| !is_enemy(obs, seat, o))
                && p.role.is_some_and(|r| r.is_movable())
        })
    };
    let mut total = 0.0;
    for e in topo.neighbours(flag) {
        // A square next to the flag held by one of ours is safe unless the enemy can take it;
        // a landmine or a bomb there mostly holds.
        let held = if e == to {
            Some(1.0)
        } else if e != from {
            match obs.piece_at(e) {
                // (A face-down piece shows no colour: it only blocks the square.)
                Some(p) if p.seat.is_some_and(|o| !is_enemy(obs, seat, o)) => Some(match p.role {
                    Some(Role::Bomb) => 0.0,
                    Some(Role::Landmine) => 0.2,
                    _ => 0.5,
                }),
                Some(_) => continue,
                None => None,
            }
        } else {
            None
        };
        if held == Some(0.0) {
            continue;
        }
        let reach = reach_from(topo, &view.lines, occ, e);
        let mut enemy: f64 = 0.0;
        for &s in &reach {
            if s == to || s == from || topo.kind(s) == SquareKind::Headquarters {
                continue;
            }
            if let Some((_, movable)) = view.enemy_mover(obs, seat, s) {
                enemy = enemy.max(movable);
            }
        }
        if enemy <= 0.0 {
            continue;
        }
        let covered = reach.iter().any(|&s| s != e && mine(s));
        total += held.unwrap_or(1.0) * enemy * if covered { 1.0 } else { 6.0 };
    }
    total
}

/// A square no board has: [`flag_exposure`] with it as both ends of the move measures the board
/// as it stands.
const NO_SQUARE: Square = Square(u8::MAX);

/// Steps from a teammate's flag within which a move may change how exposed it is.
const MATE_FLAG_REACH: u8 = 5;

/// How many of our pieces could move after our piece moves `from` → `to` and stays there (or
/// now, with no move): pieces of ours that can move (not landmines or flags, not stuck in an HQ)
/// with a neighbouring square that is empty or holds an enemy piece outside a camp. With none
/// left the game is lost (no movable pieces, or walled in by our own pieces).
fn mobile_pieces(obs: &Observation, seat: Seat, mv: Option<(Square, Square)>) -> usize {
    let topo = obs.topology();
    let owner = my_owner(obs, seat);
    if owner.is_none() {
        return 0;
    }
    // Who stands where after the move (`from` is left empty, `to` is ours): None if empty,
    // Some(true) for an enemy piece, Some(false) for ours or a partner's.
    let enemy_at = |s: Square| -> Option<bool> {
        match mv {
            Some((_, to)) if s == to => return Some(false),
            Some((from, _)) if s == from => return None,
            _ => {}
        }
        obs.piece_at(s)
            .map(|p| p.seat.is_some_and(|o| is_enemy(obs, seat, o)))
    };
    let can_leave = |at: Square| {
        topo.kind(at) != SquareKind::Headquarters
            && topo.neighbours(at).any(|n| match enemy_at(n) {
                None => true,
                Some(enemy) => enemy && topo.kind(n) != SquareKind::Camp,
            })
    };
    let others = obs
        .pieces
        .iter()
        .filter(|p| {
            mv.is_none_or(|(from, to)| p.at != from && p.at != to)
                && p.seat == owner
                && !p.face_down
                && p.role.is_some_and(|r| r.is_movable())
                && can_leave(p.at)
        })
        .count();
    others + mv.map_or(0, |(_, to)| usize::from(can_leave(to)))
}

/// Steps (one square at a time) from every square to `target`, through empty squares and
/// squares of our own movable pieces (which can make way), never through an HQ; squares that
/// cannot get there count as far away.
fn steps_to(obs: &Observation, seat: Seat, target: Square) -> Vec<u8> {
    const FAR: u8 = 30;
    let topo = obs.topology();
    let passable = |s: Square| {
        topo.kind(s) != SquareKind::Headquarters
            && obs.piece_at(s).is_none_or(|p| {
                p.seat.is_some_and(|o| !is_enemy(obs, seat, o))
                    && p.role.is_none_or(|r| r.is_movable())
            })
    };
    let mut steps = vec![FAR; topo.len()];
    steps[target.index()] = 0;
    let mut queue = std::collections::VecDeque::from([target]);
    while let Some(s) = queue.pop_front() {
        for n in topo.neighbours(s) {
            if steps[n.index()] == FAR && passable(n) {
                steps[n.index()] = steps[s.index()] + 1;
                queue.push_back(n);
            }
        }
    }
    steps
}

/// Score every legal action of `obs` for `seat` (higher is better).
pub(crate) fn score_actions(
    obs: &Observation,
    belief: &mut Belief,
    seat: Seat,
) -> Vec<(Action, f64)> {
    let topo = obs.topology();
    let view = View::new(obs, belief);
    let owner = my_owner(obs, seat);
    // Our flag, and enemy pieces next to it.
    let flag = obs
        .pieces
        .iter()
        .find(|p| owner.is_some() && p.seat == owner && p.role == Some(Role::Flag))
        .map(|p| p.at);
    // Our teammates' flags (boards with teams), each with the chance that it stands there:
    // known (open and half-open play, or announced), or believed (an HQ of a teammate, from the
    // belief). A threat to a teammate's flag is a threat to our team.
    let teams = obs.rules.teams();
    let mut mate_flags: Vec<(Square, f64)> = Vec::new();
    if teams.has_teammates() && obs.rules.mode != Mode::Flip {
        for p in &obs.pieces {
            let Some(o) = p.seat else { continue };
            if o == seat || !teams.same_team(o, seat) {
                continue;
            }
            let chance = match p.role {
                Some(Role::Flag) => 1.0,
                Some(_) => 0.0,
                None if topo.kind(p.at) == SquareKind::Headquarters => view.cells[p.at.index()]
                    .as_ref()
                    .map_or(0.0, |(_, d)| d[Role::Flag as usize]),
                None => 0.0,
            };
            if chance > 0.05 {
                mate_flags.push((p.at, chance));
            }
        }
    }
    // Enemy pieces that could take our flag (or a teammate's) next turn, with the chance that
    // the flag they would take is there.
    let mut threats: Vec<(Square, f64)> = Vec::new();
    for (f, chance) in flag
        .map(|f| (f, 1.0))
        .into_iter()
        .chain(mate_flags.iter().copied())
    {
        for s in view.attackers_of(topo, f, f) {
            let enemy = obs
                .piece_at(s)
                .is_some_and(|p| !p.face_down && p.seat.is_some_and(|o| is_enemy(obs, seat, o)));
            if !enemy {
                continue;
            }
            match threats.iter_mut().find(|t| t.0 == s) {
                Some(t) => t.1 = t.1.max(chance),
                None => threats.push((s, chance)),
            }
        }
    }
    // How exposed each teammate's flag is now (a move far from it changes nothing there).
    let mate_exposure: Vec<f64> = mate_flags
        .iter()
        .map(|&(f, _)| flag_exposure(obs, &view, seat, f, NO_SQUARE, NO_SQUARE))
        .collect();
    // Enemy pieces that can be attacked (not in camps), for approaching them.
    let targets: Vec<Square> = obs
        .pieces
        .iter()
        .filter(|p| {
            !p.face_down
                && p.seat.is_some_and(|o| is_enemy(obs, seat, o))
                && topo.kind(p.at) != SquareKind::Camp
        })
        .map(|p| p.at)
        .collect();
    let nearest = |sq: Square| -> f64 {
        targets
            .iter()
            .map(|&t| topo.distance(sq, t))
            .min()
            .unwrap_or(0) as f64
    };
    // Enemy pieces in an HQ that may be the flag, with that chance and the number of steps to
    // them from each square: the way to end a game that attacks alone do not (a lone piece
    // against pieces sitting in camps, say).
    let flag_hqs: Vec<(Square, f64, Vec<u8>)> = obs
        .pieces
        .iter()
        .filter(|p| {
            topo.kind(p.at) == SquareKind::Headquarters
                && p.seat.is_some_and(|o| is_enemy(obs, seat, o))
        })
        .filter_map(|p| {
            let (_, d) = view.cells[p.at.index()].as_ref()?;
            let pf = d[Role::Flag as usize];
            (pf > 0.05).then(|| (p.at, pf, steps_to(obs, seat, p.at)))
        })
        .collect();
    // How far `sq` is from the likely flags, in steps weighted by the chance (lower is closer).
    let flag_distance = |sq: Square| -> f64 {
        flag_hqs
            .iter()
            .map(|(_, pf, steps)| pf * steps[sq.index()] as f64 + 12.0 * (1.0 - pf))
            .fold(f64::INFINITY, f64::min)
    };
    // The best chance that a piece on `sq` could take the flag next turn.
    let flag_next = |sq: Square| -> f64 {
        flag_hqs
            .iter()
            .filter(|(h, _, _)| topo.adjacent(sq, *h))
            .map(|(_, pf, _)| *pf)
            .fold(0.0, f64::max)
    };
    // Our pieces that can still move (a piece in an HQ stays for good, one walled in by our own
    // pieces stays until they move): losing the last one loses the game.
    let movers = if obs.rules.mode == Mode::Flip {
        usize::MAX
    } else {
        mobile_pieces(obs, seat, None)
    };
    let pressure = obs.quiet_plies as f64 / obs.rules.options.quiet_plies.max(1) as f64;
    // (Less so as a quiet-plies draw nears.)
    let last = if movers <= 1 && obs.rules.mode != Mode::Flip {
        1.0 + 19.0 * (1.0 - pressure)
    } else {
        1.0
    };

    let mut out = Vec::with_capacity(obs.legal_actions.len());
    for &a in &obs.legal_actions {
        let s = match a {
            Action::Flip(at) => {
                // Turning a piece up next to enemy pieces may hand them a target.
                let near_enemy = topo.neighbours(at).any(|n| {
                    obs.piece_at(n).is_some_and(|p| {
                        !p.face_down && p.seat.is_some_and(|o| is_enemy(obs, seat, o))
                    })
                });
                0.3 - if near_enemy { 0.4 } else { 0.0 }
            }
            Action::Move { from, to } => {
                let Some(me) = obs.piece_at(from).and_then(|p| p.role) else {
                    out.push((a, 0.0));
                    continue;
                };
                let own = owner.unwrap_or(seat);
                let here = last * danger(obs, &view, seat, me, from, from);
                let mut s = here;
                // The chance that `to` holds the enemy flag (taking it ends the game).
                let flag_chance = view.cells[to.index()]
                    .as_ref()
                    .map_or(0.0, |(_, d)| d[Role::Flag as usize]);
                // A piece that enters an HQ stays there for good: it is lost to play.
                if topo.kind(to) == SquareKind::Headquarters {
                    s -= (1.0 - flag_chance) * (0.5 + 0.25 * value(me));
                }
                // Walling in our last pieces (or parking the last one in an HQ) loses the game.
                if movers <= 4 && mobile_pieces(obs, seat, Some((from, to))) == 0 {
                    s -= 100.0 * (1.0 - flag_chance);
                }
                if let Some(f) = flag {
                    s -= flag_exposure(obs, &view, seat, f, from, to);
                }
                // A teammate's flag counts like ours, by the chance that it stands there: what
                // the move changes in its exposure (nothing, for a move far from it).
                for (i, &(f, chance)) in mate_flags.iter().enumerate() {
                    if topo.distance(f, from) <= MATE_FLAG_REACH
                        || topo.distance(f, to) <= MATE_FLAG_REACH
                    {
                        let after = flag_exposure(obs, &view, seat, f, from, to);
                        s -= chance * (after - mate_exposure[i]);
                    }
                    if topo.adjacent(f, from) {
                        s -= 1.5 * chance;
                    }
                }
                // Guards next to our flag stay unless there is a reason to leave.
                if flag.is_some_and(|f| topo.adjacent(f, from)) {
                    s -= 1.5;
                }
                match &view.cells[to.index()] {
                    Some((_, d)) => {
                        let (ev, survive) = attack_ev(&obs.rules, me, d);
                        s += ev;
                        if survive > 0.0 {
                            s -= last * survive * danger(obs, &view, seat, me, to, from);
                        }
                        if movers <= 1 && obs.rules.mode != Mode::Flip {
                            // Near the quiet-plies draw an even chance is worth taking.
                            s -= 60.0 * ((1.0 - survive) - 0.5 * pressure).max(0.0);
                        }
                        // Defend the flag: anything that can reach it must go.
                        if let Some(&(_, chance)) = threats.iter().find(|t| t.0 == to) {
                            let movable: f64 = Role::ALL
                                .iter()
                                .filter(|r| r.is_movable())
                                .map(|&r| d[r as usize])
                                .sum();
                            s += 30.0 * movable * chance;
                        }
                        // Break long quiet spells before they end in a draw.
                        s += 3.0 * pressure;
                    }
                    None => {
                        s -= last * danger(obs, &view, seat, me, to, from);
                        s += 0.6
                            * (advance(topo, &teams, own, to) - advance(topo, &teams, own, from));
                        if me.rank().is_some_and(|r| r >= 4) || pressure > 0.5 {
                            s += (0.1 + 0.3 * pressure)
                                * (nearest(from) - nearest(to)).clamp(-3.0, 3.0);
                        }
                        if topo.kind(to) == SquareKind::Camp {
                            s += 0.15;
                        }
                        // Head for the enemy flag, more so as a quiet-plies draw nears, and
                        // step next to it (to take it on the next move).
                        if !flag_hqs.is_empty() {
                            s += (0.1 + 0.5 * pressure)
                                * (flag_distance(from) - flag_distance(to)).clamp(-2.0, 2.0);
                            s += (1.0 + 6.0 * pressure) * flag_next(to);
                        }
                    }
                }
                s
            }
        };
        out.push((a, s));
    }
    out
}

/// The heuristic bot.
pub struct HeuristicBot {
    name: &'static str,
    rules: Option<Rules>,
    seat: Seat,
    rng: ChaCha8Rng,
    belief: Option<Belief>,
}

impl Default for HeuristicBot {
    fn default() -> Self {
        HeuristicBot {
            name: "heuristic",
            rules: None,
            seat: 0,
            rng: ChaCha8Rng::seed_from_u64(0),
            belief: None,
        }
    }
}

impl HeuristicBot {
    /// The heuristic under another name (a playing level: [`crate::levels::Level`]).
    pub fn named(name: &'static str) -> HeuristicBot {
        HeuristicBot {
            name,
            ..HeuristicBot::default()
        }
    }
}

impl HeuristicBot {
    /// The belief (once a game has started).
    pub fn belief(&mut self) -> Option<&mut Belief> {
        self.belief.as_mut()
    }
}

impl Bot for HeuristicBot {
    fn name(&self) -> String {
        self.name.into()
    }

    fn new_game(&mut self, rules: &Rules, seat: Seat, seed: u64) {
        self.rules = Some(*rules);
        self.seat = seat;
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.belief = Some(Belief::new(*rules, seat));
    }

    fn deploy(&mut self) -> Result<Deployment, BotError> {
        Ok(layout_for_bot(&mut self.rng))
    }

    fn observe(&mut self, events: &[Event], obs: &Observation) {
        if let Some(b) = self.belief.as_mut() {
            b.update(events, obs);
        }
    }

    fn choose(&mut self, obs: &Observation, _budget: Budget) -> Result<Action, BotError> {
        if obs.legal_actions.is_empty() {
            return Err(BotError("asked to move with no legal action".into()));
        }
        if self.belief.is_none() || self.seat != obs.to_move {
            self.seat = obs.to_move;
            let mut b = Belief::new(obs.rules, obs.to_move);
            b.update(&[], obs);
            self.belief = Some(b);
        }
        let belief = self.belief.as_mut().expect("belief");
        let scored = score_actions(obs, belief, self.seat);
        let mut best = scored[0].0;
        let mut best_s = f64::NEG_INFINITY;
        for (a, s) in scored {
            let s = s + self.rng.gen_range(0.0..0.05);
            if s > best_s {
                best_s = s;
                best = a;
            }
        }
        Ok(best)
    }
}
