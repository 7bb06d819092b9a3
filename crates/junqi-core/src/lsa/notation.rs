//! Actions of land-sea-air in text (LANDSEAAIR §10.1): `<from>-<to>` for every move, attack,
//! landing, flight and strike, `scout <from> <at>` for a look. The text is written by
//! [`Action`]'s `Display`; [`action_from_text`] reads it against a position, whose legal
//! actions decide which kind of action a from–to is (§10.1: a fort or a gunboat aiming at a
//! bridge or coast square can only strike, a battleship or cruiser going from sea to land can
//! only land, a missile uses a ground move when one exists).
//!
//! # Where the rule book is silent
//! - Spaces around the text and between the words of a look are allowed (`" scout  i1 i11 "`);
//!   the words themselves are lower case, as written.
//! - An action the position does not allow is answered with the referee's reason
//!   ([`IllegalAction`](super::IllegalAction)) for the kind of action the piece on `from`
//!   would take there; a scout plane aimed at an enemy with `<from>-<to>` is told that it looks
//!   (`scout <from> <at>`) and never attacks.

use super::board::{Board, Square};
use super::movegen::Action;
use super::pieces::{Arm, Role};
use super::position::Position;

/// A square from its name (`a1` … `i15`), or an error naming the text.
pub fn parse_square(s: &str) -> Result<Square, String> {
    Square::parse(s).ok_or_else(|| {
        format!(
            "{s:?} is not a square of the land_sea_air board (a1 to i15: files a-i, ranks 1-15)"
        )
    })
}

/// The action's text (§10.1).
pub fn action_to_text(a: Action) -> String {
    a.to_string()
}

/// The squares of an action text, and whether it is a look: `("a6", "a9", false)` for
/// `a6-a9`, `("i1", "i11", true)` for `scout i1 i11`.
pub fn parse_action_text(text: &str) -> Result<(Square, Square, bool), String> {
    let t = text.trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    match words.as_slice() {
        ["scout", from, at] => Ok((parse_square(from)?, parse_square(at)?, true)),
        ["scout", ..] => Err(format!(
            "{t:?}: a look is written scout <from> <at>, e.g. scout i1 i11"
        )),
        [one] => {
            let Some((from, to)) = one.split_once('-') else {
                return Err(format!(
                    "{t:?} is not an action (expected <from>-<to> such as a6-a9, or scout <from> <at>)"
                ));
            };
            Ok((parse_square(from)?, parse_square(to)?, false))
        }
        _ => Err(format!(
            "{t:?} is not an action (expected <from>-<to> such as a6-a9, or scout <from> <at>)"
        )),
    }
}

/// The action among `actions` that `text` names (`None` if none is), or an error if `text` is
/// not an action text. A driver that holds only a view finds an engine's answer among the
/// view's legal actions with it.
pub fn find_action(
    actions: impl IntoIterator<Item = Action>,
    text: &str,
) -> Result<Option<Action>, String> {
    let (from, to, look) = parse_action_text(text)?;
    Ok(actions
        .into_iter()
        .find(|a| a.from() == from && a.to() == to && matches!(a, Action::Look { .. }) == look))
}

/// The action of the side to move that `text` names in `pos` (§10.1), or an error that says
/// why: a malformed text or square, or the referee's reason why the action is not legal.
pub fn action_from_text(pos: &Position, text: &str) -> Result<Action, String> {
    if let Some(a) = find_action(pos.legal_actions().iter(), text)? {
        return Ok(a);
    }
    let (from, to, look) = parse_action_text(text)?;
    // Not legal: ask the referee why, for the action the piece on `from` would take. Only a
    // piece of the side to move is looked at: what an enemy piece is (hidden from the mover)
    // must never change the answer, which the referee gives as "not yours" for any action.
    let guess = if look {
        Action::Look { from, at: to }
    } else {
        let b = Board::get();
        match pos.at(from).filter(|p| p.side() == pos.to_move()) {
            Some(p) if p.role() == Role::Fort => Action::Strike { from, to },
            Some(p) if p.arm() == Arm::Sea && b.is_land(to) => {
                if p.role() == Role::Gunboat {
                    Action::Strike { from, to }
                } else {
                    Action::Land { from, to }
                }
            }
            Some(p) if p.arm() == Arm::Sea => Action::Sail { from, to },
            Some(p) if p.arm() == Arm::Air => {
                if p.role() == Role::ScoutPlane && pos.at(to).is_some_and(|q| q.side() != p.side())
                {
                    return Err(format!(
                        "{}: a scout plane never attacks; it looks at an enemy with scout {from} {to}",
                        text.trim()
                    ));
                }
                Action::Fly { from, to }
            }
            _ => Action::Move { from, to },
        }
    };
    match pos.check(guess) {
        Err(e) => Err(e.to_string()),
        // Cannot happen (a legal action is in the list); answered all the same.
        Ok(()) => Ok(guess),
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::Side;
    use super::super::position::test_util::{build, sq};
    use super::super::position::Options;
    use super::*;

    #[test]
    fn lsa_action_text_resolves_by_the_position() {
        let p = build(
            Options::default(),
            Side::South,
            &[
                ("e6", "S fort"),
                ("c9", "S battleship"),
                ("b8", "S gunboat"),
                ("i1", "S scout_plane"),
                ("c4", "S missile"),
                ("e7", "N destroyer"),
                ("c10", "N major"),
                ("a8", "N colonel"),
                ("i11", "N tank"),
                ("c13", "N general"),
            ],
        );
        let a = |t: &str| action_from_text(&p, t);
        assert_eq!(
            a("e6-e7"),
            Ok(Action::Strike {
                from: sq("e6"),
                to: sq("e7")
            })
        );
        assert_eq!(
            a("c9-c10"),
            Ok(Action::Land {
                from: sq("c9"),
                to: sq("c10")
            })
        );
        assert_eq!(
            a("b8-a8"),
            Ok(Action::Strike {
                from: sq("b8"),
                to: sq("a8")
            })
        );
        assert_eq!(
            a(" scout  i1 i11 "),
            Ok(Action::Look {
                from: sq("i1"),
                at: sq("i11")
            })
        );
        assert_eq!(
            a("c4-c13"),
            Ok(Action::MissileFlight {
                from: sq("c4"),
                to: sq("c13")
            })
        );
        assert_eq!(
            a("c4-c5"),
            Ok(Action::Move {
                from: sq("c4"),
                to: sq("c5")
            })
        );
        for ok in ["e6-e7", "c9-c10", "b8-a8", "scout i1 i11", "c4-c13"] {
            assert_eq!(a(ok).unwrap().to_string(), ok.trim());
        }
        let e = a("i1-i11").unwrap_err();
        assert!(e.contains("scout i1 i11"), "{e}");
        let e = a("z9-a1").unwrap_err();
        assert!(e.contains("z9"), "{e}");
        let e = a("c4").unwrap_err();
        assert!(e.contains("<from>-<to>"), "{e}");
        let e = a("scout i1").unwrap_err();
        assert!(e.contains("scout <from> <at>"), "{e}");
        let e = a("e5-e4").unwrap_err();
        assert!(e.contains("no piece on e5"), "{e}");
        let e = a("c10-c9").unwrap_err();
        assert!(e.contains("not South's"), "{e}");
        let e = a("scout c4 c13").unwrap_err();
        assert!(e.contains("cannot look"), "{e}");
        let e = a("c9-d8").unwrap_err();
        assert!(e.contains("sail"), "{e}");
    }

    proptest::proptest! {
        #[test]
        fn lsa_action_text_never_panics(s in "\\PC{0,24}") {
            let p = build(Options::default(), Side::South, &[("c4", "S missile")]);
            let _ = action_from_text(&p, &s);
        }

        #[test]
        fn lsa_action_text_of_squares_never_panics(
            a in "[a-k][0-9]{1,3}", b in "[a-k][0-9]{1,3}", look in proptest::prelude::any::<bool>()
        ) {
            let p = build(Options::default(), Side::South, &[("c4", "S missile"), ("i1", "S scout_plane")]);
            let t = if look { format!("scout {a} {b}") } else { format!("{a}-{b}") };
            let _ = action_from_text(&p, &t);
        }
    }

    /// What a hidden enemy piece is never changes the refusal of an action that names its
    /// square as the piece to act: over random games, the enemy's pieces are shuffled among
    /// the roles of their arm (a scout plane becomes a fighter, a landmine a general …) and
    /// every action text from an enemy square, a move or a look, to every square, is refused
    /// with the same words as in the real position.
    #[test]
    fn refusals_of_enemy_pieces_do_not_depend_on_their_identity() {
        use super::super::board::Square;
        use super::super::pieces::Arm;
        use super::super::playout::{random_plies, random_start};
        use super::super::position::Piece;
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(42);
        let mut buf = super::super::movegen::ActionList::new();
        let mut compared = 0usize;
        for game in 0..12 {
            let mut pos = random_start(Options::default(), &mut rng);
            random_plies(&mut pos, 10 + 7 * game, &mut rng, &mut buf);
            if pos.is_over() {
                continue;
            }
            let mover = pos.to_move();
            let pieces: Vec<(Square, Piece)> = pos.pieces().collect();
            // The enemy's unlanded pieces but the fort (tied to its harbour), by arm.
            let mut shuffled = pieces.clone();
            for arm in [Arm::Land, Arm::Sea, Arm::Air] {
                let idx: Vec<usize> = (0..pieces.len())
                    .filter(|&i| {
                        let p = pieces[i].1;
                        p.side() != mover && p.arm() == arm && !p.landed() && p.role() != Role::Fort
                    })
                    .collect();
                let mut roles: Vec<Role> = idx.iter().map(|&i| pieces[i].1.role()).collect();
                roles.shuffle(&mut rng);
                for (&i, r) in idx.iter().zip(roles) {
                    shuffled[i].1 = Piece::new(pieces[i].1.side(), r);
                }
            }
            let opts = *pos.options();
            let real = Position::from_pieces(opts, mover, &pieces).unwrap();
            let other = Position::from_pieces(opts, mover, &shuffled).unwrap();
            for &(from, p) in &pieces {
                if p.side() == mover {
                    continue;
                }
                for to in Square::all() {
                    for text in [format!("{from}-{to}"), format!("scout {from} {to}")] {
                        let a = action_from_text(&real, &text);
                        let b = action_from_text(&other, &text);
                        assert!(a.is_err(), "{text} is not the mover's");
                        assert_eq!(a, b, "{text}: the refusal depends on the enemy piece");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 10_000, "{compared} refusals compared");
    }

    /// The probe that found it: a hidden enemy scout plane and fighter on the same square,
    /// our piece beside it, give the same refusal ("not yours"), not the scout plane's rule.
    #[test]
    fn an_enemy_scout_plane_is_refused_like_a_fighter() {
        let refusal = |plane: &str| {
            let p = build(
                Options::default(),
                Side::South,
                &[
                    ("e6", "S fort"),
                    ("c4", "S major"),
                    ("c5", plane),
                    ("a8", "N colonel"),
                ],
            );
            action_from_text(&p, "c5-c4").unwrap_err()
        };
        let scout = refusal("N scout_plane");
        assert_eq!(scout, refusal("N fighter"));
        assert!(scout.contains("not South's"), "{scout}");
    }
}
