//! Legal action generation (RULES §4, §8.3, and the options of §9 that restrict attacks).
//!
//! The generator is generic over the square-set type: one `u64` word for the two-player board
//! (whose rail flood fill is done with shifts), two, three and four words for the three-, four-
//! and six-player boards (flood fill through the adjacency table). It allocates nothing: actions
//! go to a caller's closure.

use crate::bits::{Bits, Wide};
use crate::combat::{resolve, Resolution};
use crate::event::{Action, AttackResult};
use crate::options::{LosingAttacks, RailTurns};
use crate::position::Position;
use crate::role::Role;
use crate::topology::{Square, Topology};
use crate::types::{BoardKind, Seat};
use std::ops::ControlFlow;

/// Per-board geometry the generator needs beyond the tables.
pub(crate) trait Geometry: Bits {
    /// Squares joined by a rail edge to any square of `s`.
    fn rail_grow(t: &Topology, s: Self) -> Self;
}

impl Geometry for u64 {
    #[inline(always)]
    fn rail_grow(t: &Topology, s: u64) -> u64 {
        let file_a = FILE_A_MASK;
        let file_e = file_a << 4;
        let grown = ((s << 1) & !file_a)
            | ((s >> 1) & !file_e)
            | ((s & !t.up_block) << 5)
            | ((s & !t.down_block) >> 5);
        grown & t.rail[0]
    }
}

/// Bits of file `a` on the two-player board (squares 0, 5, 10, …, 55).
const FILE_A_MASK: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 60 {
        m |= 1 << i;
        i += 5;
    }
    m
};

impl<const N: usize> Geometry for Wide<N> {
    #[inline(always)]
    fn rail_grow(t: &Topology, s: Wide<N>) -> Wide<N> {
        let mut out = Wide::EMPTY;
        let mut it = s;
        while let Some(sq) = it.pop() {
            out |= Wide::load(&t.rail_adj[sq as usize]);
        }
        out
    }
}

/// Visit every legal action of `seat` (normally the seat to move), stopping early when the
/// closure breaks. Returns `Break` if it did.
pub(crate) fn for_each_action(
    pos: &Position,
    seat: Seat,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for_each_action_on(pos, seat, None, f)
}

/// The generator instantiated for the board's square-set width.
#[inline(always)]
fn for_each_action_on(
    pos: &Position,
    seat: Seat,
    only: Option<u8>,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    match pos.rules.board {
        BoardKind::TwoPlayer => generate::<u64>(pos, seat, only, f),
        BoardKind::ThreePlayer => generate::<Wide<2>>(pos, seat, only, f),
        BoardKind::FourPlayer => generate::<Wide<3>>(pos, seat, only, f),
        BoardKind::SixPlayer => generate::<Wide<4>>(pos, seat, only, f),
    }
}

/// Visit the legal actions of `seat` that start on `from` (moves of that piece, or its flip).
pub(crate) fn for_each_action_from(
    pos: &Position,
    seat: Seat,
    from: Square,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for_each_action_on(pos, seat, Some(from.0), f)
}

/// Whether `seat` has a legal action: the answer of a search for the first one, found faster.
/// A piece that may move reaches a square next to it (along a road or a rail edge) that is
/// empty or holds an enemy it may attack, or it cannot move at all: a slide along the rail
/// starts through such a square. So outside flip play, and unless an option forbids some
/// attacks, a seat can act exactly when one of its movable pieces has such a neighbour, which
/// is a few word operations per piece instead of its slides. The referee asks this for every
/// seat after every action under `blocked = out_at_once`.
pub(crate) fn has_action(pos: &Position, seat: Seat) -> bool {
    match first_step(pos, seat) {
        Some(step) => step.is_some(),
        None => for_each_action(pos, seat, &mut |_| ControlFlow::Break(())).is_break(),
    }
}

/// A step `(from, to)` of one square that `seat` may make (a move or an attack), proving it
/// can act; `Some(None)` when it can make none, so has no action at all; `None` where this
/// shortcut of [`has_action`] does not apply (flip play; options that forbid some attacks,
/// where an enemy next to a piece may not be a legal target).
pub(crate) fn first_step(pos: &Position, seat: Seat) -> Option<Option<(u8, u8)>> {
    match pos.rules.board {
        BoardKind::TwoPlayer => first_step_on::<u64>(pos, seat),
        BoardKind::ThreePlayer => first_step_on::<Wide<2>>(pos, seat),
        BoardKind::FourPlayer => first_step_on::<Wide<3>>(pos, seat),
        BoardKind::SixPlayer => first_step_on::<Wide<4>>(pos, seat),
    }
}

#[inline(always)]
fn first_step_on<B: Geometry>(pos: &Position, seat: Seat) -> Option<Option<(u8, u8)>> {
    let rules = &pos.rules;
    if rules.is_flip() || attacks_restricted(rules) {
        return None;
    }
    let sets = Sets::<B>::of(pos, seat)?;
    let t = pos.topo;
    let mut it = sets.movers;
    while let Some(sq) = it.pop() {
        let mut to = B::load(&t.step[sq as usize]) & sets.targets;
        if let Some(to) = to.pop() {
            return Some(Some((sq, to)));
        }
    }
    Some(None)
}

/// Whether a step [`first_step`] found for `seat` is still one it may make: `from` holds one
/// of its pieces that may move, and `to` (next to it) is empty or holds an enemy it may attack.
/// Checked in a few bit tests, so that a seat's step found after one action proves in O(1)
/// after the next that it can still act, as long as that piece and square are untouched.
pub(crate) fn step_still_legal(pos: &Position, seat: Seat, from: u8, to: u8) -> bool {
    use crate::bits::has_word;
    let rules = &pos.rules;
    if rules.is_flip() || attacks_restricted(rules) {
        return false;
    }
    let t = pos.topo;
    let own = &pos.occ[seat as usize];
    let movable = has_word(own, from)
        && !has_word(&pos.fixed, from)
        && !(rules.hq_locked() && has_word(&t.hqs, from));
    if !movable {
        return false;
    }
    let target = pos.cells[to as usize];
    target.is_empty()
        || (!rules.teams().mates(seat).contains(target.seat()) && !has_word(&t.camps, to))
}

/// Whether an option forbids some attacks (judged per attack by [`attack_allowed`]).
#[inline(always)]
fn attacks_restricted(rules: &crate::options::Rules) -> bool {
    rules.options.losing_attacks == LosingAttacks::Forbidden
        || rules.options.flag_guarded_by_mines
        || rules.carry_home()
}

/// The square sets a seat's moves are made of.
struct Sets<B> {
    /// Its pieces that may move (face up, not flags or landmines, not locked in an HQ).
    movers: B,
    /// Empty squares.
    empty: B,
    /// Pieces it may attack: enemy, face up, not in a camp.
    enemy: B,
    /// Squares it may move to or attack: `empty | enemy`.
    targets: B,
}

impl<B: Geometry> Sets<B> {
    /// The sets of `seat`; `None` before flip play's colours are settled (nobody owns a
    /// piece, so nobody moves).
    #[inline(always)]
    fn of(pos: &Position, seat: Seat) -> Option<Sets<B>> {
        let t = pos.topo;
        let rules = &pos.rules;
        let colour = pos.colour_of(seat)?;
        let face_down = B::load(&pos.face_down);
        let own = B::load(&pos.occ[colour as usize]);
        // Teammates' pieces are never attacked (§7.2). In flip play the owners are colours,
        // each its own team, as on the two-player board generally.
        let mates = rules.teams().mates(colour);
        let mut friends = B::EMPTY;
        let mut all_occ = B::EMPTY;
        for o in 0..rules.seats() {
            let occ = B::load(&pos.occ[o]);
            all_occ |= occ;
            if mates.contains(o as Seat) {
                friends |= occ;
            }
        }
        let empty = B::load(&t.all) & !all_occ;
        let enemy = all_occ & !friends & !face_down & !B::load(&t.camps);
        let mut movers = own & !B::load(&pos.fixed) & !face_down;
        if rules.hq_locked() {
            movers &= !B::load(&t.hqs);
        }
        Some(Sets {
            movers,
            empty,
            enemy,
            targets: empty | enemy,
        })
    }
}

#[inline(always)]
fn generate<B: Geometry>(
    pos: &Position,
    seat: Seat,
    only: Option<u8>,
    f: &mut impl FnMut(Action) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let t = pos.topo;
    let rules = &pos.rules;
    let restrict = |set: B| match only {
        Some(sq) => set & B::bit(sq),
        None => set,
    };
    // Flips (flip play): any face-down piece.
    if rules.is_flip() {
        let mut flips = restrict(B::load(&pos.face_down));
        while let Some(sq) = flips.pop() {
            f(Action::Flip(Square(sq)))?;
        }
    }
    // Before the colours are settled nobody owns a piece, so nobody moves.
    let Some(Sets {
        movers,
        empty,
        enemy,
        targets,
    }) = Sets::<B>::of(pos, seat)
    else {
        return ControlFlow::Continue(());
    };
    let rail = B::load(&t.rail);
    let movers = restrict(movers);
    let opts = &rules.options;
    let check_attacks = attacks_restricted(rules);
    let mut it = movers;
    while let Some(sq) = it.pop() {
        let role = pos.cells[sq as usize].role();
        let mut dest = B::load(&t.step[sq as usize]) & targets;
        if rail.has(sq) {
            let turns = role == Role::Engineer
                || opts.rail_turns == RailTurns::Any
                || (opts.bomb_flies && role == Role::Bomb);
            if turns {
                // Flood fill through empty rail squares; attack the first enemy met.
                let start = B::bit(sq);
                let free = empty & rail;
                let mut reach = start;
                let mut frontier = start;
                loop {
                    let grown = B::rail_grow(t, frontier);
                    dest |= grown & enemy;
                    let new = grown & free & !reach;
                    if new.is_empty() {
                        break;
                    }
                    reach |= new;
                    frontier = new;
                }
                dest |= reach & !start;
            } else {
                for ray in t.rays(sq) {
                    for &s in ray {
                        if empty.has(s) {
                            dest |= B::bit(s);
                        } else {
                            if enemy.has(s) {
                                dest |= B::bit(s);
                            }
                            break;
                        }
                    }
                }
            }
        }
        if check_attacks {
            let mut attacks = dest & enemy;
            while let Some(to) = attacks.pop() {
                if !attack_allowed(pos, Square(sq), Square(to)) {
                    dest &= !B::bit(to);
                }
            }
        }
        while let Some(to) = dest.pop() {
            f(Action::Move {
                from: Square(sq),
                to: Square(to),
            })?;
        }
    }
    ControlFlow::Continue(())
}

/// The options that forbid some attacks, judged with the referee's full knowledge:
/// `losing_attacks = forbidden`, `flag_guarded_by_mines`, and a flag carrier attacking a flag.
fn attack_allowed(pos: &Position, from: Square, to: Square) -> bool {
    let a = pos.cells[from.index()];
    let d = pos.cells[to.index()];
    let rules = &pos.rules;
    if d.role() == Role::Flag {
        if rules.options.flag_guarded_by_mines && pos.landmines_of(d.seat()) > 0 {
            return false;
        }
        if rules.carry_home() && pos.carries.iter().flatten().any(|c| c.carrier == from) {
            return false;
        }
    }
    if rules.options.losing_attacks == LosingAttacks::Forbidden {
        let Resolution { result, .. } = resolve(rules, a.role(), d.role());
        if result == AttackResult::DefenderWins {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{Options, Rules};
    use crate::types::Mode;
    use rand::{Rng, SeedableRng};

    /// The shortcut of [`has_action`] answers as the search does, for every seat of positions
    /// from random games on every board, under the options that change how pieces move.
    #[test]
    fn has_action_is_the_search_s_answer() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        let mut blocked = 0;
        for board in BoardKind::ALL {
            for (mode, extra) in [
                (Mode::Dark, serde_json::json!({})),
                (
                    Mode::Dark,
                    serde_json::json!({"rail_turns": "any", "hq_exit": "free"}),
                ),
                (
                    Mode::Open,
                    serde_json::json!({"bomb_flies": true, "blocked": "out_at_once"}),
                ),
            ] {
                let o = Options::from_json(board, mode, Some(&extra)).unwrap();
                let rules = Rules::new(board, mode, o).unwrap();
                for _ in 0..12 {
                    let mut pos = Position::random_start(rules, &mut rng);
                    let mut acts = Vec::new();
                    let mut witness = [None; 6];
                    while !pos.is_over() {
                        for seat in 0..rules.seats() as Seat {
                            if pos.is_eliminated(seat) {
                                continue;
                            }
                            let search =
                                for_each_action(&pos, seat, &mut |_| ControlFlow::Break(()))
                                    .is_break();
                            assert_eq!(has_action(&pos, seat), search, "{board} seat {seat}");
                            blocked += usize::from(!search);
                            // A step found earlier and said to be still legal is a legal
                            // action of the seat.
                            let legal = |from: u8, to: u8| {
                                let want = Action::Move {
                                    from: Square(from),
                                    to: Square(to),
                                };
                                for_each_action_from(&pos, seat, Square(from), &mut |a| {
                                    if a == want {
                                        ControlFlow::Break(())
                                    } else {
                                        ControlFlow::Continue(())
                                    }
                                })
                                .is_break()
                            };
                            if let Some((from, to)) = witness[seat as usize] {
                                assert_eq!(
                                    step_still_legal(&pos, seat, from, to),
                                    legal(from, to),
                                    "{board} seat {seat}"
                                );
                            }
                            witness[seat as usize] = first_step(&pos, seat).flatten();
                            if let Some((from, to)) = witness[seat as usize] {
                                assert!(legal(from, to), "{board} seat {seat}");
                            }
                        }
                        acts.clear();
                        pos.legal_actions_into(&mut acts);
                        pos.play_unchecked(acts[rng.gen_range(0..acts.len())], &mut ());
                    }
                }
            }
        }
        assert!(blocked > 0, "some seat had no action");
    }

    #[test]
    fn shift_flood_matches_table() {
        for middle in [true, false] {
            let t = Topology::two_player(middle);
            for sq in t.squares() {
                let grown = <u64 as Geometry>::rail_grow(t, 1u64 << sq.0);
                let expect = if t.is_rail(sq) {
                    t.rail_adj[sq.index()][0]
                } else {
                    0
                };
                // Off-rail squares never start a flood; compare rail squares only.
                if t.is_rail(sq) {
                    assert_eq!(grown, expect, "{} middle={middle}", t.name(sq));
                }
            }
        }
    }
}
