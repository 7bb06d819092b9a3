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
    let face_down = B::load(&pos.face_down);
    // Flips (flip play): any face-down piece.
    if rules.is_flip() {
        let mut flips = restrict(face_down);
        while let Some(sq) = flips.pop() {
            f(Action::Flip(Square(sq)))?;
        }
    }
    // Before the colours are settled nobody owns a piece, so nobody moves.
    let Some(colour) = pos.colour_of(seat) else {
        return ControlFlow::Continue(());
    };
    let own = B::load(&pos.occ[colour as usize]);
    // Teammates' pieces are never attacked (§7.2). In flip play the owners are colours, each
    // its own team, as on the two-player board generally.
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
    let board = B::load(&t.all);
    let empty = board & !all_occ;
    let rail = B::load(&t.rail);
    let camps = B::load(&t.camps);
    // Pieces that may be attacked: enemy, face up, not in a camp.
    let enemy = all_occ & !friends & !face_down & !camps;
    let targets = empty | enemy;
    let mut movers = own & !B::load(&pos.fixed) & !face_down;
    if rules.hq_locked() {
        movers &= !B::load(&t.hqs);
    }
    let movers = restrict(movers);
    let opts = &rules.options;
    let carry = rules.carry_home();
    let check_attacks =
        opts.losing_attacks == LosingAttacks::Forbidden || opts.flag_guarded_by_mines || carry;
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
