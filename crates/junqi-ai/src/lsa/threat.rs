//! How near the enemy stands to the seat's own flag, in moves.
//!
//! Playing against the heuristic, the search lost most of its games the same way: one enemy
//! piece walked three to six moves through the back rows onto the flag while the search took
//! material elsewhere, because its rollouts move the enemy at random and so never walk a piece
//! home. This module measures that walk so the search can price it:
//!
//! - [`Approach`] is the seat's own picture, from its view: for every square, the fewest moves
//!   a land piece standing there needs to take the flag, through empty squares and through the
//!   seat's own pieces (as if it beat them all). The enemy pieces it finds within a few moves
//!   are the **intruders**; the squares near the flag are where a defender blocks.
//! - [`moves_to_flag`] is exact for one enemy piece in a sampled world, where its role is
//!   known: it passes a piece of ours only by beating it (C1–C10), so a wall of landmines stops
//!   all but an engineer, and a tank walks through officers.
//!
//! Both follow the ground moves of §4.2–4.4: a step along a road edge, a straight rail slide of
//! up to `rail_max` edges through empty squares that never passes a bridgehead, and a landing
//! from an anchor onto the coast. An engineer's turning rail paths are counted as straight
//! slides, which can only overstate a distance by a move. Planes, missile flights and strikes
//! never reach a flag: cities are on no air line and no strike square.

use junqi_core::lsa::board::SQUARES;
use junqi_core::lsa::{
    resolve, Board, Combatant, LineKind, Options, Position, Role, Side, Square, SquareType,
};
use junqi_core::AttackResult;

/// A distance that is not reached.
pub const FAR: u8 = u8::MAX;

/// Every square a ground piece on `from` reaches in one move, with `blocked` telling which
/// squares hold a piece (a slide stops there): calls `visit(square)` for each, once per way
/// of reaching it.
fn ground_moves(
    from: Square,
    rail_max: u32,
    occupied: impl Fn(Square) -> bool,
    mut visit: impl FnMut(Square),
) {
    let b = Board::get();
    for n in b.road_neighbours(from).iter() {
        visit(n);
    }
    if !b.is_rail(from) {
        return;
    }
    let limit = if rail_max == 0 {
        usize::MAX
    } else {
        rail_max as usize
    };
    for line in b.lines_through(LineKind::Rail, from) {
        for forward in [true, false] {
            for (i, s) in line.ray(from, forward).enumerate() {
                if i >= limit {
                    break;
                }
                visit(s);
                if occupied(s) || b.is_bridgehead(s) {
                    break;
                }
            }
        }
    }
}

/// The seat's picture of how near the enemy is to its flag.
#[derive(Clone)]
pub struct Approach {
    /// The flag's square.
    pub flag: Square,
    /// For every square, the fewest moves from there to the flag (the flag itself 0, [`FAR`]
    /// when more than [`Approach::HORIZON`]).
    pub dist: [u8; SQUARES],
}

impl Approach {
    /// How many moves out the picture looks.
    pub const HORIZON: u8 = 6;

    /// The picture for `me`'s flag on `flag`, with `occupant` telling whose piece stands on
    /// each square. Enemy pieces end a path (they are where it starts); our pieces do not
    /// (an intruder may beat them), but a rail slide stops on them.
    pub fn new(
        flag: Square,
        me: Side,
        rail_max: u32,
        occupant: impl Fn(Square) -> Option<Side>,
    ) -> Approach {
        let b = Board::get();
        let mut dist = [FAR; SQUARES];
        let mut queue = [flag; SQUARES];
        let (mut head, mut tail) = (0, 1);
        dist[flag.index()] = 0;
        while head < tail {
            let u = queue[head];
            head += 1;
            let d = dist[u.index()];
            if d >= Self::HORIZON {
                continue;
            }
            // Ground moves are reversible: the squares that reach `u` in one move are those
            // `u` reaches.
            ground_moves(
                u,
                rail_max,
                |s| occupant(s).is_some(),
                |v| {
                    if !b.is_land(v) || dist[v.index()] != FAR {
                        return;
                    }
                    dist[v.index()] = d + 1;
                    if occupant(v) != Some(me.other()) {
                        queue[tail] = v;
                        tail += 1;
                    }
                },
            );
        }
        Approach { flag, dist }
    }

    /// The moves from `sq` to the flag, or [`FAR`].
    pub fn at(&self, sq: Square) -> u8 {
        self.dist[sq.index()]
    }

    /// The moves an enemy piece on `sq` needs, counting a landing from the sea: a battleship
    /// or cruiser on an anchor lands on our coast first.
    pub fn from_piece(&self, enemy: Side, sq: Square, role: Role) -> u8 {
        let b = Board::get();
        if b.is_land(sq) {
            return self.at(sq);
        }
        match (role.landing_ship(), b.landing(enemy, sq)) {
            (Some(_), Some(coast)) => self.at(coast).saturating_add(1),
            _ => FAR,
        }
    }
}

/// The fewest moves the enemy piece on `from` needs to take `me`'s flag on `flag` in `pos`,
/// if nothing else moves, up to `horizon` ([`FAR`] beyond): it passes a piece of ours only by
/// beating it, and never passes its own.
pub fn moves_to_flag(pos: &Position, me: Side, flag: Square, from: Square, horizon: u8) -> u8 {
    let b = Board::get();
    let Some(piece) = pos.at(from).filter(|p| p.side() != me) else {
        return FAR;
    };
    if !piece.role().is_movable() {
        return FAR;
    }
    let options: &Options = pos.options();
    // The first move: a ship at sea can only land; a land piece moves on the ground.
    let (attacker, first, moves) = if b.is_land(from) {
        (piece.combatant(), from, 0)
    } else {
        let (Some(ship), Some(coast)) = (piece.role().landing_ship(), b.landing(me.other(), from))
        else {
            return FAR;
        };
        let landed = Combatant::Landed(ship);
        match pos.at(coast) {
            None => {}
            Some(q) if q.side() == me && q.role() == Role::Flag => return 1,
            Some(q) if q.side() == me && beats(landed, q.combatant(), options) => {}
            Some(_) => return FAR,
        }
        (landed, coast, 1)
    };
    let mut dist = [FAR; SQUARES];
    let mut queue = [first; SQUARES];
    let (mut head, mut tail) = (0, 1);
    dist[first.index()] = moves;
    let protects = |sq: Square| b.square_type(sq) == SquareType::Camp && b.side(sq) == Some(me);
    while head < tail {
        let u = queue[head];
        head += 1;
        let d = dist[u.index()];
        if d >= horizon {
            continue;
        }
        let mut found = false;
        ground_moves(
            u,
            options.rail_max,
            // The piece has left `from`: a slide may pass it.
            |s| s != from && pos.at(s).is_some(),
            |v| {
                if found || !b.is_land(v) || dist[v.index()] != FAR {
                    return;
                }
                match pos.at(v) {
                    Some(q) if q.side() != me => return,
                    Some(_) if v == flag => {
                        found = true;
                        return;
                    }
                    Some(q) if protects(v) || !beats(attacker, q.combatant(), options) => return,
                    _ => {}
                }
                dist[v.index()] = d + 1;
                queue[tail] = v;
                tail += 1;
            },
        );
        if found {
            return d + 1;
        }
    }
    FAR
}

/// Whether `attacker` beats `defender` outright and takes its square.
fn beats(attacker: Combatant, defender: Combatant, options: &Options) -> bool {
    resolve(attacker, defender, options.combat).is_some_and(|o| {
        o.result == AttackResult::FlagCaptured || (o.attacker_survives && !o.defender_survives)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::lsa::Piece;

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a square")
    }

    /// A position from `("e1", "S:flag")` pairs, with `to_move` to move.
    fn build(options: Options, to_move: Side, list: &[(&str, &str)]) -> Position {
        let pieces: Vec<(Square, Piece)> = list
            .iter()
            .map(|&(s, spec)| {
                let (side, role) = spec.split_once(':').expect("side:role");
                let side = if side == "S" {
                    Side::South
                } else {
                    Side::North
                };
                (sq(s), Piece::new(side, role.parse().expect("a role")))
            })
            .collect();
        Position::from_pieces(options, to_move, &pieces).expect("a valid test position")
    }

    /// A lone enemy piece walks to an open flag in as many moves as the board takes: steps,
    /// then a rail slide.
    #[test]
    fn an_open_flag_is_reached_by_steps_and_slides() {
        let p = build(
            Options::default(),
            Side::North,
            &[("e1", "S:flag"), ("e4", "N:captain"), ("a14", "S:captain")],
        );
        let flag = sq("e1");
        // e4 → e3 → e2 → e1.
        assert_eq!(
            moves_to_flag(&p, Side::South, flag, sq("e4"), 6),
            3,
            "steps"
        );
        let view = Approach::new(flag, Side::South, 3, |s| p.at(s).map(|q| q.side()));
        assert_eq!(view.at(sq("e4")), 3);
        assert_eq!(view.at(sq("e2")), 1);
        assert_eq!(view.at(sq("e1")), 0);
        // From h5, a slide to e5 is no help; h5 → h2 … the rail rank 2 slide h2 → e2 (3 edges).
        let p = build(
            Options::default(),
            Side::North,
            &[("e1", "S:flag"), ("h3", "N:captain"), ("a14", "S:captain")],
        );
        assert_eq!(moves_to_flag(&p, Side::South, flag, sq("h3"), 6), 3);
    }

    /// A wall of landmines stops every piece but an engineer, which clears one and walks on;
    /// a tank passes an officer, an officer does not pass a tank.
    #[test]
    fn pieces_of_ours_are_passed_only_by_beating_them() {
        // The flag on e1 with landmines on d1 and f1, `guard` on e2 and `intruder` on e3.
        let position = |guard: &str, intruder: &str| {
            build(
                Options::default(),
                Side::North,
                &[
                    ("e1", "S:flag"),
                    ("d1", "S:landmine"),
                    ("f1", "S:landmine"),
                    ("e2", guard),
                    ("e3", intruder),
                    ("a14", "S:captain"),
                ],
            )
        };
        let flag = sq("e1");
        for (guard, intruder, moves) in [
            ("S:landmine", "N:marshal", FAR),
            ("S:landmine", "N:engineer", 2),
            ("S:marshal", "N:tank", 2),
            ("S:tank", "N:marshal", FAR),
        ] {
            let p = position(guard, intruder);
            assert_eq!(
                moves_to_flag(&p, Side::South, flag, sq("e3"), 6),
                moves,
                "{intruder} against {guard}"
            );
            // The seat's own picture counts every piece of ours as passable.
            let view = Approach::new(flag, Side::South, 3, |s| p.at(s).map(|q| q.side()));
            assert_eq!(view.at(sq("e3")), 2);
        }
    }

    /// A battleship on an anchor lands on the coast, then walks; a destroyer never lands.
    #[test]
    fn a_ship_at_sea_lands_first() {
        let p = build(
            Options::default(),
            Side::North,
            &[
                ("c1", "S:flag"),
                ("c7", "N:battleship"),
                ("d7", "N:destroyer"),
                ("a14", "S:captain"),
                ("i15", "N:fighter"),
            ],
        );
        let flag = sq("c1");
        // c7 lands on c6, then c5, c4, c3 (camp), c2, c1: 1 + 5 steps… the camp is entered by
        // a step, so c6 → c5 → c4 → c3 → c2 → c1.
        assert_eq!(moves_to_flag(&p, Side::South, flag, sq("c7"), 8), 6);
        assert_eq!(moves_to_flag(&p, Side::South, flag, sq("d7"), 8), FAR);
        let view = Approach::new(flag, Side::South, 3, |s| p.at(s).map(|q| q.side()));
        assert_eq!(
            view.from_piece(Side::North, sq("c7"), Role::Battleship),
            view.at(sq("c6")) + 1
        );
        assert_eq!(view.from_piece(Side::North, sq("d7"), Role::Destroyer), FAR);
    }
}
