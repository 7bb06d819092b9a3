//! 标记: the person's guesses on hidden enemy pieces (司令? 炸弹? 地雷? 军旗? …), kept for the
//! game. A guess follows its piece when it moves or wins an attack, and is dropped when the piece
//! dies or its identity becomes known.

use junqi_core::{AttackResult, Event, Observation, Role, Square};
use std::collections::BTreeMap;

/// The guesses, by the square of their piece.
#[derive(Default, Debug)]
pub struct Marks {
    by_square: BTreeMap<Square, Role>,
}

/// Why a square cannot be marked.
#[derive(Debug, PartialEq, Eq)]
pub enum MarkError {
    /// No piece stands there.
    Empty,
    /// The piece is the person's own or a teammate's, or its identity is known already.
    Known,
    /// The piece is face down (flip play): nobody's yet.
    FaceDown,
}

impl Marks {
    /// The guess on a square.
    pub fn get(&self, sq: Square) -> Option<Role> {
        self.by_square.get(&sq).copied()
    }

    /// Every guess, in square order.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Role)> + '_ {
        self.by_square.iter().map(|(&s, &r)| (s, r))
    }

    /// Mark the piece on `sq` with `guess`, if it is a hidden enemy in `obs`.
    pub fn set(&mut self, obs: &Observation, sq: Square, guess: Role) -> Result<(), MarkError> {
        match obs.piece_at(sq) {
            None => Err(MarkError::Empty),
            Some(p) if p.face_down => Err(MarkError::FaceDown),
            Some(p) if p.role.is_some() => Err(MarkError::Known),
            Some(_) => {
                self.by_square.insert(sq, guess);
                Ok(())
            }
        }
    }

    /// Drop the guess on `sq`; whether there was one.
    pub fn clear(&mut self, sq: Square) -> bool {
        self.by_square.remove(&sq).is_some()
    }

    /// Follow the pieces through the announcements of one step, then keep only the guesses whose
    /// square still holds a hidden piece in `after` (the person's view after the step).
    pub fn follow(&mut self, events: &[Event], after: &Observation) {
        for e in events {
            match *e {
                Event::Move { from, to, .. } => {
                    if let Some(g) = self.by_square.remove(&from) {
                        self.by_square.insert(to, g);
                    }
                }
                Event::Attack {
                    from, to, result, ..
                } => {
                    let attacker = self.by_square.remove(&from);
                    let defender = self.by_square.remove(&to);
                    let survivor = match result {
                        // The attacker takes the square (a bomb that captured a flag is gone,
                        // which the check below sees).
                        AttackResult::AttackerWins | AttackResult::FlagCaptured => attacker,
                        AttackResult::DefenderWins => defender,
                        AttackResult::BothRemoved => None,
                    };
                    if let Some(g) = survivor {
                        self.by_square.insert(to, g);
                    }
                }
                _ => {}
            }
        }
        // Pieces removed another way (a four-player seat's elimination), or now known (scouted,
        // flipped): their guesses go.
        self.by_square.retain(|&sq, _| {
            after
                .piece_at(sq)
                .is_some_and(|p| p.role.is_none() && !p.face_down)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::play::testing::position;
    use junqi_core::{Action, Observer, Position};

    fn sq(p: &Position, name: &str) -> Square {
        p.topology().parse_square(name).unwrap()
    }

    /// The seat to move plays `from-to`, and the marks follow in South's view.
    fn play(p: &mut Position, marks: &mut Marks, from: &str, to: &str) {
        let action = Action::Move {
            from: sq(p, from),
            to: sq(p, to),
        };
        let mut events = Vec::new();
        p.play(action, &mut events).unwrap();
        marks.follow(&events, &p.observe(Observer::Seat(0)));
    }

    #[test]
    fn only_hidden_enemies_are_marked() {
        let p = position(&[("a3", 0, Role::Captain), ("a8", 1, Role::Major)]);
        let obs = p.observe(Observer::Seat(0));
        let mut m = Marks::default();
        assert_eq!(m.set(&obs, sq(&p, "a3"), Role::Bomb), Err(MarkError::Known));
        assert_eq!(m.set(&obs, sq(&p, "a4"), Role::Bomb), Err(MarkError::Empty));
        assert_eq!(m.set(&obs, sq(&p, "a8"), Role::Bomb), Ok(()));
        assert_eq!(m.get(sq(&p, "a8")), Some(Role::Bomb));
        assert!(m.clear(sq(&p, "a8")));
        assert!(!m.clear(sq(&p, "a8")));
    }

    #[test]
    fn a_guess_follows_its_piece_and_dies_with_it() {
        let mut p = position(&[
            ("a2", 0, Role::Marshal),
            ("e2", 0, Role::Engineer),
            ("a8", 1, Role::Major),
            ("e12", 1, Role::Captain),
        ]);
        let mut m = Marks::default();
        m.set(&p.observe(Observer::Seat(0)), sq(&p, "a8"), Role::Bomb)
            .unwrap();
        play(&mut p, &mut m, "e2", "e3");
        // North's major moves a8-a7: the guess goes with it.
        play(&mut p, &mut m, "a8", "a7");
        assert_eq!(m.get(sq(&p, "a7")), Some(Role::Bomb));
        assert_eq!(m.get(sq(&p, "a8")), None);
        // The marshal slides a2-a7 and takes it: the guess is gone.
        play(&mut p, &mut m, "a2", "a7");
        assert_eq!(m.iter().count(), 0);
    }

    #[test]
    fn a_guess_stays_on_a_defender_that_wins() {
        let mut p = position(&[
            ("a6", 0, Role::Engineer),
            ("a7", 1, Role::Major),
            ("e12", 1, Role::Captain),
        ]);
        let mut m = Marks::default();
        m.set(&p.observe(Observer::Seat(0)), sq(&p, "a7"), Role::Major)
            .unwrap();
        play(&mut p, &mut m, "a6", "a7");
        assert_eq!(m.get(sq(&p, "a7")), Some(Role::Major));
    }
}
