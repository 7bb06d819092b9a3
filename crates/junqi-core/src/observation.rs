//! What each observer may know (RULES §6): observations of a seat, a team, the public and the
//! referee, computed from the referee's [`Position`]. Redaction has this one home.

use crate::event::Outcome;
use crate::options::Rules;
use crate::position::{Cell, Piece, PlacedPiece, Position, Setup, SetupError};
use crate::role::Role;
use crate::topology::{Square, Topology};
use crate::types::{Mode, Seat};
use serde_json::{json, Value};

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Observer {
    /// One seat: its own pieces, what was announced, and what its mode shows it.
    Seat(Seat),
    /// A team (RULES §7.2; teams are numbered by their lowest seat, so team 0 holds seat 0; on
    /// the two- and three-player boards every seat is its own team): the union of its seats'
    /// knowledge.
    Team(u8),
    /// Spectators: what every seat knows.
    Public,
    /// The referee: everything.
    Referee,
}

/// A piece as an observer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObservedPiece {
    /// Its square (always public).
    pub at: Square,
    /// Its seat (flip play: colour), public as on a real board — except for a face-down piece in
    /// flip play, whose colour is as hidden as its role (the backs of the pieces are all alike).
    pub seat: Option<Seat>,
    /// Its role, if the observer may know it.
    pub role: Option<Role>,
    /// Face down (flip play).
    pub face_down: bool,
    /// Under `carry_home`: the seat whose flag it carries (announced publicly by the capture).
    pub carrying_flag_of: Option<Seat>,
}

/// Everything one observer may know of a game at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The rules.
    pub rules: Rules,
    /// Who observes.
    pub observer: Observer,
    /// Seat to move.
    pub to_move: Seat,
    /// Plies played.
    pub plies: u32,
    /// Consecutive quiet plies.
    pub quiet_plies: u32,
    /// Skips per seat.
    pub skips: Vec<u32>,
    /// Eliminated seats.
    pub eliminated: Vec<Seat>,
    /// Flip play colours once settled.
    pub flip_colours: Option<[u8; 2]>,
    /// Every piece on the board, in square order.
    pub pieces: Vec<ObservedPiece>,
    /// Under `carry_home`: each carried flag's seat and where it was captured.
    pub captured_flags: Vec<(Seat, Square)>,
    /// The outcome, once the game is over.
    pub outcome: Option<Outcome>,
    /// For a seat's observation when that seat is to move: its legal actions, as the referee
    /// tells a player (what a client highlights). Empty otherwise. Under the options that judge
    /// attacks with the referee's knowledge (`losing_attacks = forbidden` or
    /// `flag_guarded_by_mines` outside flip and open play), this list tells the seat what those
    /// options reveal (RULES §9); under every other rule it depends on nothing hidden.
    pub legal_actions: Vec<crate::event::Action>,
}

impl Observer {
    /// Whether this observer may know the identity of the piece in `cell` of `pos`.
    #[inline]
    pub(crate) fn knows(self, pos: &Position, cell: Cell) -> bool {
        if self == Observer::Referee {
            return true;
        }
        if cell.face_down() {
            return false;
        }
        cell.public()
            || pos.rules.mode == Mode::Open
            || pos.rules.mode == Mode::Flip
            || self.knows_owner(pos.rules, cell.seat())
    }
}

impl Position {
    /// Whether `observer` may know the identity of the piece on `sq` (false if the square is
    /// empty): what [`Position::observe`] shows, for one piece, without building the whole
    /// observation.
    pub fn identity_known(&self, observer: Observer, sq: Square) -> bool {
        let cell = self.cells[sq.index()];
        cell.piece().is_some() && observer.knows(self, cell)
    }

    /// The observation of `observer` (RULES §6).
    pub fn observe(&self, observer: Observer) -> Observation {
        let setup = self.to_setup();
        let pieces = setup
            .pieces
            .iter()
            .map(|p| {
                let cell = self.cells[p.at.index()];
                let knows = observer.knows(self, cell);
                ObservedPiece {
                    at: p.at,
                    seat: (knows || !p.face_down).then_some(p.seat),
                    role: knows.then_some(p.role),
                    face_down: p.face_down,
                    carrying_flag_of: p.carrying_flag_of,
                }
            })
            .collect();
        Observation {
            rules: self.rules,
            observer,
            to_move: self.to_move,
            plies: self.plies,
            quiet_plies: self.quiet,
            skips: setup.skips,
            eliminated: setup.eliminated,
            flip_colours: self.flip_colours,
            pieces,
            captured_flags: setup.captured_flags,
            outcome: self.outcome,
            legal_actions: match observer {
                Observer::Seat(s) if s == self.to_move && !self.is_over() => self.legal_actions(),
                _ => Vec::new(),
            },
        }
    }
}

impl Observation {
    /// The board's topology.
    pub fn topology(&self) -> &'static Topology {
        Topology::get(self.rules.board, self.rules.middle_rail())
    }

    /// The observed piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<&ObservedPiece> {
        self.pieces.iter().find(|p| p.at == sq)
    }

    /// A full position consistent with this observation, with every unknown filled in by
    /// `guess` (called once per piece whose role is hidden, in square order): it returns the
    /// piece's seat and role, and the seat is used only where the observation does not show it
    /// (face-down pieces in flip play). Used by bots to search sampled worlds; fails if the
    /// guesses break the piece counts.
    pub fn determinize(
        &self,
        mut guess: impl FnMut(&ObservedPiece) -> (Seat, Role),
    ) -> Result<Position, SetupError> {
        let pieces = self
            .pieces
            .iter()
            .map(|p| {
                let (seat, role) = match p.role {
                    Some(r) => (p.seat.unwrap_or(0), r),
                    None => {
                        let (s, r) = guess(p);
                        (p.seat.unwrap_or(s), r)
                    }
                };
                PlacedPiece {
                    at: p.at,
                    seat,
                    role,
                    face_down: p.face_down,
                    carrying_flag_of: p.carrying_flag_of,
                }
            })
            .collect();
        let setup = Setup {
            rules: self.rules,
            to_move: self.to_move,
            pieces,
            flip_colours: self.flip_colours,
            plies: self.plies,
            quiet_plies: self.quiet_plies,
            skips: self.skips.clone(),
            eliminated: self.eliminated.clone(),
            captured_flags: self.captured_flags.clone(),
        };
        let mut pos = Position::from_setup(&setup)?;
        // Keep what is public public, so that observations of the sampled world match.
        for p in &self.pieces {
            if p.role.is_some() && !p.face_down {
                let c = pos.cells[p.at.index()];
                if !self.observer.knows_owner(self.rules, c.seat()) {
                    pos.cells[p.at.index()] = c.with_public();
                }
            }
        }
        pos.outcome = self.outcome;
        Ok(pos)
    }

    /// The observation as JSON: the §11.1 position shape, with `"role": null` for identities
    /// the observer may not know, plus `observer`, `teams` (each team's seats), `outcome` (§11.2
    /// or `null`) and `legal_actions` (text form, §11; empty unless the observer is to move).
    /// [`crate::observation_json::observation_from_json`] reads it back.
    pub fn to_json(&self) -> Value {
        let t = self.topology();
        let pieces: Vec<Value> = self
            .pieces
            .iter()
            .map(|p| {
                let mut o = json!({
                    "at": t.name(p.at),
                    "seat": p.seat,
                    "role": p.role.map(|r| r.name()),
                });
                if p.face_down {
                    o["face_down"] = true.into();
                }
                if let Some(f) = p.carrying_flag_of {
                    o["carrying_flag_of"] = f.into();
                }
                o
            })
            .collect();
        let observer = match self.observer {
            Observer::Seat(s) => json!({"seat": s}),
            Observer::Team(t) => json!({"team": t}),
            Observer::Public => json!("public"),
            Observer::Referee => json!("referee"),
        };
        let mut v = json!({
            "board": self.rules.board.name(),
            "mode": self.rules.mode.name(),
            "options": Value::Object(self.rules.options.to_json(self.rules.board, self.rules.mode)),
            "observer": observer,
            "to_move": self.to_move,
            "flip_colours": self.flip_colours,
            "plies": self.plies,
            "quiet_plies": self.quiet_plies,
            "skips": self.skips,
            "eliminated": self.eliminated,
            "pieces": pieces,
            "teams": self.rules.teams().teams().map(|t| self.rules.teams().members(t).iter().collect::<Vec<_>>()).collect::<Vec<_>>(),
            "outcome": crate::json::outcome_to_json(self.outcome),
            "legal_actions": self
                .legal_actions
                .iter()
                .map(|&a| crate::notation::action_to_text(t, a))
                .collect::<Vec<_>>(),
        });
        if !self.captured_flags.is_empty() {
            v["captured_flags"] = self
                .captured_flags
                .iter()
                .map(|&(s, at)| json!({"seat": s, "at": t.name(at)}))
                .collect();
        }
        v
    }
}

impl Observer {
    /// Whether this observer knows every piece of `owner` through ownership or partnership
    /// (not through announcements).
    fn knows_owner(self, rules: Rules, owner: Seat) -> bool {
        // Half-open play exists only with teams (`Rules::new` checks).
        let half = rules.mode == Mode::HalfOpen;
        let teams = rules.teams();
        match self {
            Observer::Seat(s) => owner == s || (half && teams.same_team(owner, s)),
            // Every teammate's pieces: the team pools what its seats know.
            Observer::Team(t) => teams.team_of(owner).0 == t,
            Observer::Referee => true,
            Observer::Public => false,
        }
    }
}

/// Check that an observation carries no identity its observer may not know: every known role
/// is the true one and is one the observer is entitled to, and no face-down piece shows its
/// colour (flip play) to anybody but the referee. Returns the first leak found.
pub fn find_leak(pos: &Position, obs: &Observation) -> Option<String> {
    let t = pos.topology();
    for p in &obs.pieces {
        let cell = pos.cells[p.at.index()];
        let Some(Piece { role, seat, .. }) = cell.piece() else {
            return Some(format!(
                "observation shows a piece on empty {}",
                t.name(p.at)
            ));
        };
        match p.seat {
            Some(s) if s != seat => return Some(format!("wrong seat on {}", t.name(p.at))),
            Some(_) if cell.face_down() && obs.observer != Observer::Referee => {
                return Some(format!(
                    "{:?} sees the colour of the face-down piece on {}",
                    obs.observer,
                    t.name(p.at)
                ))
            }
            _ => {}
        }
        match p.role {
            Some(r) if r != role => return Some(format!("wrong role on {}", t.name(p.at))),
            Some(_) if !obs.observer.knows(pos, cell) => {
                return Some(format!(
                    "{:?} sees the hidden {} on {}",
                    obs.observer,
                    role,
                    t.name(p.at)
                ))
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::BoardKind;
    use rand::{Rng, SeedableRng};

    #[test]
    fn identity_known_is_what_the_observation_shows() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(8);
        for (board, mode) in [
            (BoardKind::TwoPlayer, Mode::Dark),
            (BoardKind::FourPlayer, Mode::HalfOpen),
            (BoardKind::TwoPlayer, Mode::Flip),
        ] {
            let rules = Rules::defaults(board, mode).unwrap();
            let pos = Position::random_start(rules, &mut rng);
            for observer in [Observer::Seat(1), Observer::Public, Observer::Referee] {
                let obs = pos.observe(observer);
                for sq in pos.topology().squares() {
                    let shown = obs.piece_at(sq).is_some_and(|p| p.role.is_some());
                    assert_eq!(
                        pos.identity_known(observer, sq),
                        shown,
                        "{board:?} {mode:?} {sq:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn dark_seat_sees_only_its_own() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let pos = Position::random_start(rules, &mut rng);
        let o = pos.observe(Observer::Seat(0));
        assert_eq!(o.pieces.len(), 50);
        assert!(o
            .pieces
            .iter()
            .all(|p| p.role.is_some() == (p.seat == Some(0))));
        let public = pos.observe(Observer::Public);
        assert!(public.pieces.iter().all(|p| p.role.is_none()));
        let referee = pos.observe(Observer::Referee);
        assert!(referee.pieces.iter().all(|p| p.role.is_some()));
        assert!(find_leak(&pos, &o).is_none());
        let _ = rng.gen::<u8>();
    }

    #[test]
    fn half_open_partners_see_each_other() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let rules = Rules::defaults(BoardKind::FourPlayer, Mode::HalfOpen).unwrap();
        let pos = Position::random_start(rules, &mut rng);
        let o = pos.observe(Observer::Seat(1));
        assert!(o
            .pieces
            .iter()
            .all(|p| p.role.is_some() == (p.seat == Some(1) || p.seat == Some(3))));
        let dark = Rules::defaults(BoardKind::FourPlayer, Mode::Dark).unwrap();
        let pos = Position::random_start(dark, &mut rng);
        let o = pos.observe(Observer::Seat(1));
        assert!(o
            .pieces
            .iter()
            .all(|p| p.role.is_some() == (p.seat == Some(1))));
        let team = pos.observe(Observer::Team(1));
        assert!(team
            .pieces
            .iter()
            .all(|p| p.role.is_some() == (p.seat == Some(1) || p.seat == Some(3))));
    }

    #[test]
    fn flip_hides_the_colour_of_face_down_pieces() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(4);
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Flip).unwrap();
        let mut pos = Position::random_start(rules, &mut rng);
        let first = pos.legal_actions()[0];
        pos.play(first, &mut ()).unwrap();
        for obs in [Observer::Seat(0), Observer::Seat(1), Observer::Public] {
            let o = pos.observe(obs);
            assert!(o.pieces.iter().all(|p| p.face_down == p.seat.is_none()));
            assert!(o.pieces.iter().all(|p| p.face_down == p.role.is_none()));
            assert_eq!(find_leak(&pos, &o), None);
        }
        let referee = pos.observe(Observer::Referee);
        assert!(referee.pieces.iter().all(|p| p.seat.is_some()));
    }

    #[test]
    fn determinize_keeps_known_roles() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let pos = Position::random_start(rules, &mut rng);
        let o = pos.observe(Observer::Seat(0));
        // Guess the truth: the determinized position equals the real one in every piece.
        let world = o
            .determinize(|p| {
                let q = pos.piece_at(p.at).unwrap();
                (q.seat, q.role)
            })
            .unwrap();
        assert_eq!(world.to_setup(), pos.to_setup());
        assert_eq!(world.observe(Observer::Seat(0)), o);
    }
}
