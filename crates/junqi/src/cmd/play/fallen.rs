//! 阵亡: the pieces removed from the board, by owner, with each identity as far as the person may
//! know it: their own pieces, what the mode shows, and what the announcements give away (a
//! captured flag, a scouted piece, and the marshal whose death the flag reveal announces,
//! RULES §5). Once the game is over the record may be published (RULES §6), so the list then
//! shows every identity.

use super::words::{role_word, Lang};
use junqi_core::{AttackResult, Event, Observation, Position, Role, Seat};

/// One removed piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fallen {
    /// Seat (flip play: colour).
    owner: Seat,
    /// What the person knows of it.
    known: Option<Role>,
    /// What it was, for the reveal at the end; never shown before.
    truth: Role,
}

/// The removed pieces, in the order they fell.
#[derive(Default, Debug)]
pub struct FallenList {
    pieces: Vec<Fallen>,
}

impl FallenList {
    /// Note the pieces one step removed. `before` is the referee's position before the step
    /// (for the truth), `seen` the person's view before it (for what they knew), `events` the
    /// step's announcements.
    pub fn note(&mut self, before: &Position, seen: &Observation, events: &[Event]) {
        let carry_home = before.rules().carry_home();
        let first_new = self.pieces.len();
        for e in events {
            match *e {
                Event::Attack {
                    from, to, result, ..
                } => {
                    let (Some(att), Some(def)) = (before.piece_at(from), before.piece_at(to))
                    else {
                        continue;
                    };
                    let knew = |sq| seen.piece_at(sq).and_then(|p| p.role);
                    let scouted = events.iter().find_map(|e| match *e {
                        Event::Scouted { at, role } if at == to => Some(role),
                        _ => None,
                    });
                    let (att_dead, def_dead, def_known) = match result {
                        AttackResult::AttackerWins => (false, true, knew(to)),
                        AttackResult::DefenderWins => (true, false, knew(to)),
                        AttackResult::BothRemoved => (true, true, scouted.or(knew(to))),
                        // The capture names the flag; a bomb that took it is gone too. A carried
                        // flag (carry_home) is not dead: it may come back.
                        AttackResult::FlagCaptured => {
                            (att.role == Role::Bomb, !carry_home, Some(Role::Flag))
                        }
                    };
                    if att_dead {
                        self.pieces.push(Fallen {
                            owner: att.seat,
                            known: knew(from),
                            truth: att.role,
                        });
                    }
                    if def_dead {
                        self.pieces.push(Fallen {
                            owner: def.seat,
                            known: def_known,
                            truth: def.role,
                        });
                    }
                }
                // The flag of `seat` is shown because its marshal just died: the piece of that
                // seat that fell in this step was the marshal.
                Event::FlagRevealed { seat, .. } => {
                    if let Some(f) = self.pieces[first_new..]
                        .iter_mut()
                        .find(|f| f.owner == seat && f.known.is_none())
                    {
                        f.known = Some(Role::Marshal);
                    }
                }
                _ => {}
            }
        }
    }

    /// The list in words, one line per owner: `阵亡 北方: 司令×1 未知×2`. `revealed` (the game
    /// is over) shows every identity. `who` names an owner.
    pub fn lines(&self, revealed: bool, lang: Lang, who: impl Fn(Seat) -> String) -> String {
        let l = lang;
        let mut owners: Vec<Seat> = self.pieces.iter().map(|f| f.owner).collect();
        owners.sort_unstable();
        owners.dedup();
        let title = if revealed {
            l.t("阵亡（终局揭晓）", "Dead (revealed)")
        } else {
            l.t("阵亡", "Dead")
        };
        let mut s = String::new();
        for owner in owners {
            let roles: Vec<Option<Role>> = self
                .pieces
                .iter()
                .filter(|f| f.owner == owner)
                .map(|f| if revealed { Some(f.truth) } else { f.known })
                .collect();
            let mut parts = Vec::new();
            for role in Role::ALL {
                let n = roles.iter().filter(|r| **r == Some(role)).count();
                if n > 0 {
                    parts.push(format!("{}×{n}", role_word(role, l)));
                }
            }
            let unknown = roles.iter().filter(|r| r.is_none()).count();
            if unknown > 0 {
                parts.push(format!("{}×{unknown}", l.t("未知", "unknown")));
            }
            s += &format!("{title} {}: {}\n", who(owner), parts.join(" "));
        }
        if s.is_empty() {
            s = format!("{title} {}\n", l.t("无", "none"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::play::testing::position;
    use junqi_core::{Action, Observer, Square};

    fn step(p: &mut Position, list: &mut FallenList, from: &str, to: &str) {
        let t = p.topology();
        let sq = |n: &str| -> Square { t.parse_square(n).unwrap() };
        let before = p.clone();
        let seen = p.observe(Observer::Seat(0));
        let mut events = Vec::new();
        p.play(
            Action::Move {
                from: sq(from),
                to: sq(to),
            },
            &mut events,
        )
        .unwrap();
        list.note(&before, &seen, &events);
    }

    fn names(s: Seat) -> String {
        ["S", "N"][s as usize].to_string()
    }

    #[test]
    fn a_marshal_whose_death_reveals_the_flag_is_named() {
        // South's bomb meets North's marshal: both removed, and North's flag is announced.
        let mut p = position(&[
            ("a3", 0, Role::Bomb),
            ("a4", 1, Role::Marshal),
            ("e3", 0, Role::Captain),
            ("b12", 1, Role::Flag),
            ("e12", 1, Role::Captain),
        ]);
        let mut list = FallenList::default();
        step(&mut p, &mut list, "a3", "a4");
        let text = list.lines(false, Lang::Zh, names);
        assert!(text.contains("阵亡 N: 司令×1"), "{text}");
        assert!(text.contains("阵亡 S: 炸弹×1"), "{text}");
        assert!(!text.contains("未知"), "{text}");
    }

    #[test]
    fn hidden_pieces_stay_unknown_until_the_reveal() {
        let mut p = position(&[
            ("a3", 0, Role::Captain),
            ("a4", 1, Role::Lieutenant),
            ("e3", 0, Role::Captain),
            ("e12", 1, Role::Captain),
        ]);
        let mut list = FallenList::default();
        step(&mut p, &mut list, "a3", "a4");
        let text = list.lines(false, Lang::En, names);
        assert!(text.contains("Dead N: unknown×1"), "{text}");
        let text = list.lines(true, Lang::En, names);
        assert!(text.contains("Dead (revealed) N: lieutenant×1"), "{text}");
    }
}
