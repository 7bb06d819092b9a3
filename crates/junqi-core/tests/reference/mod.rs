//! A slow reference move generator written straight from the rule text (RULES §4, §8.3, §9),
//! with no bitsets and no precomputed rays: the fast generator is checked against it.

use junqi_core::combat::resolve;
use junqi_core::options::{LosingAttacks, RailTurns};
use junqi_core::*;
use std::collections::{BTreeSet, VecDeque};

/// The legal actions of the seat to move, computed the slow way from the rule text.
pub fn reference_actions(pos: &Position) -> BTreeSet<Action> {
    let mut out = BTreeSet::new();
    if pos.is_over() {
        return out;
    }
    let t = pos.topology();
    let rules = *pos.rules();
    let seat = pos.to_move();
    if rules.is_flip() {
        for (sq, p) in pos.pieces() {
            if p.face_down {
                out.insert(Action::Flip(sq));
            }
        }
    }
    let Some(colour) = pos.colour_of(seat) else {
        return out;
    };
    // The teams, straight from the table of RULES §7.2 (not from the core's own team map).
    let teams: &[&[Seat]] = match (rules.board, rules.options.teams) {
        (BoardKind::FourPlayer, Teams::Alternate | Teams::Opposite) => &[&[0, 2], &[1, 3]],
        (BoardKind::SixPlayer, Teams::Alternate) => &[&[0, 2, 4], &[1, 3, 5]],
        (BoardKind::SixPlayer, Teams::Opposite) => &[&[0, 3], &[1, 4], &[2, 5]],
        _ => &[],
    };
    let friendly = |s: Seat| {
        s == colour
            || teams
                .iter()
                .any(|team| team.contains(&s) && team.contains(&colour))
    };
    let can_enter = |to: Square| match pos.piece_at(to) {
        None => true,
        Some(p) => !friendly(p.seat) && !p.face_down && t.kind(to) != SquareKind::Camp,
    };
    for (from, p) in pos.pieces() {
        if p.seat != colour || p.face_down || !p.role.is_movable() {
            continue;
        }
        if rules.hq_locked() && t.kind(from) == SquareKind::Headquarters {
            continue;
        }
        let mut dests = BTreeSet::new();
        for n in t.neighbours(from) {
            if can_enter(n) {
                dests.insert(n);
            }
        }
        if t.is_rail(from) {
            let turns = p.role == Role::Engineer
                || rules.options.rail_turns == RailTurns::Any
                || (rules.options.bomb_flies && p.role == Role::Bomb);
            if turns {
                let mut seen = BTreeSet::from([from]);
                let mut queue = VecDeque::from([from]);
                while let Some(u) = queue.pop_front() {
                    for n in t.rail_neighbours(u) {
                        if pos.piece_at(n).is_none() {
                            if seen.insert(n) {
                                dests.insert(n);
                                queue.push_back(n);
                            }
                        } else if can_enter(n) {
                            dests.insert(n);
                        }
                    }
                }
            } else {
                for line in t.lines() {
                    let line: Vec<Square> = line.collect();
                    let Some(i) = line.iter().position(|&s| s == from) else {
                        continue;
                    };
                    let fwd: Vec<Square> = line[i + 1..].to_vec();
                    let back: Vec<Square> = line[..i].iter().rev().copied().collect();
                    for ray in [fwd, back] {
                        for s in ray {
                            if pos.piece_at(s).is_none() {
                                dests.insert(s);
                            } else {
                                if can_enter(s) {
                                    dests.insert(s);
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
        for to in dests {
            if let Some(d) = pos.piece_at(to) {
                if d.role == Role::Flag {
                    let mines = pos
                        .pieces()
                        .filter(|(_, q)| q.seat == d.seat && q.role == Role::Landmine)
                        .count();
                    if rules.options.flag_guarded_by_mines && mines > 0 {
                        continue;
                    }
                    if rules.carry_home()
                        && (0..4).any(|f| pos.carried_flag(f).is_some_and(|c| c.carrier == from))
                    {
                        continue;
                    }
                }
                if rules.options.losing_attacks == LosingAttacks::Forbidden
                    && resolve(&rules, p.role, d.role).result == AttackResult::DefenderWins
                {
                    continue;
                }
            }
            out.insert(Action::Move { from, to });
        }
    }
    out
}

/// Perft with the reference generator.
#[allow(dead_code)]
pub fn reference_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    reference_actions(pos)
        .into_iter()
        .map(|a| {
            let mut next = pos.clone();
            next.play(a, &mut ()).expect("reference action is legal");
            reference_perft(&next, depth - 1)
        })
        .sum()
}
