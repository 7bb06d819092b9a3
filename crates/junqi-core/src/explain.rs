//! Why an action is refused, in the mover's own terms: the referee's [`IllegalAction`] and, for
//! a movable piece that cannot reach a square, the detail [`MoveBlocked`] (the mountain, a friend on
//! the square, an occupied camp, a rail corner only an engineer turns …).
//!
//! The explanation is built from what the mover sees ([`Seen`]): which squares hold a piece,
//! whose it is, whether it is face down, and a role only where the mover may know it. So the
//! same function serves the referee ([`Position::check`], which knows everything) and a client
//! that holds only its seat's [`Observation`] ([`Observation::why_illegal`]), and neither can
//! leak a hidden identity through a reason. Rules that judge attacks with the referee's full
//! knowledge (`losing_attacks = forbidden`, `flag_guarded_by_mines`, RULES §9) are named
//! specifically only when the mover knows the defender (flip and open play); otherwise the
//! reason is the general [`MoveBlocked::AttackForbidden`], which tells no more than the list of
//! legal actions already does.

use crate::combat::resolve;
use crate::event::{Action, AttackResult};
use crate::observation::{Observation, Observer};
use crate::options::{LosingAttacks, RailTurns, Rules};
use crate::position::Position;
use crate::referee::IllegalAction;
use crate::role::Role;
use crate::topology::{Square, SquareKind, Topology};
use crate::types::{BoardKind, Seat};

/// Why a movable, face-up piece of the mover cannot go to a square: the detail of
/// [`IllegalAction::CannotMove`]. [`MoveBlocked::code`] is the `why` arg of `action.cannot_move`
/// (`docs/formats.md`, "Error codes").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveBlocked {
    /// The destination is the square the piece stands on.
    #[error("that is the square it stands on")]
    SameSquare,
    /// A piece of the mover's own side (its own, or a teammate's) stands there.
    #[error("a piece of its own side stands there")]
    FriendThere,
    /// A piece stands in the camp there, and a piece in a camp cannot be attacked (RULES §4.4).
    #[error("a piece in a camp cannot be attacked")]
    CampOccupied,
    /// A face-down piece stands there (flip play), and face-down pieces cannot be attacked.
    #[error("a face-down piece cannot be attacked")]
    FaceDownThere,
    /// The two squares face each other across the mountain (山界), which files b and d of the
    /// two-player board do not cross.
    #[error("the mountain lies between: files b and d do not cross it")]
    Mountain,
    /// A diagonal step between squares that are not a camp: diagonal roads lead only into and
    /// out of camps.
    #[error("diagonal roads lead only into and out of camps")]
    NoDiagonal,
    /// The square is not a neighbour and the piece does not stand on the railway, so it moves
    /// one step only.
    #[error("it is not on the railway, so it moves one step only")]
    NotOnRail,
    /// The square is not a neighbour and is not on the railway, so no slide ends there.
    #[error("the square is not a neighbour and not on the railway")]
    DestinationOffRail,
    /// Both squares are on the railway but on no one straight rail line, and only an engineer
    /// turns corners on the railway (RULES §4.2, §4.3).
    #[error("no straight rail line joins them, and only an engineer turns on the railway")]
    RailTurn,
    /// On one straight rail line, but a piece stands in the way.
    #[error("the piece on {at} is in the way")]
    PathBlocked {
        /// The first square in the way.
        at: String,
    },
    /// A piece that turns on the railway (an engineer) finds every rail path blocked.
    #[error("every rail path there is blocked")]
    NoFreeRailPath,
    /// The attacker would lose, and losing attacks are forbidden (`losing_attacks`, flip play).
    #[error("the attack would lose, and losing attacks are forbidden")]
    LosingAttack,
    /// The flag may not be attacked while landmines of its side remain
    /// (`flag_guarded_by_mines`, flip play).
    #[error("the flag is guarded while landmines of its side remain")]
    FlagGuarded,
    /// The rules forbid this attack, judged with the referee's knowledge (RULES §9), or a
    /// carrier attacks another flag (§9.1).
    #[error("the rules forbid this attack")]
    AttackForbidden,
    /// No road or rail line leads there: the last resort, which the boards of RULES §2 never
    /// need (every other case has its own reason).
    #[error("no road or rail line leads there")]
    NoRoute,
}

impl MoveBlocked {
    /// The stable code of the detail, e.g. `mountain` (the `why` arg of `action.cannot_move`).
    pub fn code(&self) -> &'static str {
        match self {
            MoveBlocked::SameSquare => "same_square",
            MoveBlocked::FriendThere => "friend_there",
            MoveBlocked::CampOccupied => "camp_occupied",
            MoveBlocked::FaceDownThere => "face_down_there",
            MoveBlocked::Mountain => "mountain",
            MoveBlocked::NoDiagonal => "no_diagonal",
            MoveBlocked::NotOnRail => "not_on_rail",
            MoveBlocked::DestinationOffRail => "destination_off_rail",
            MoveBlocked::RailTurn => "rail_turn",
            MoveBlocked::PathBlocked { .. } => "path_blocked",
            MoveBlocked::NoFreeRailPath => "no_free_rail_path",
            MoveBlocked::LosingAttack => "losing_attack",
            MoveBlocked::FlagGuarded => "flag_guarded",
            MoveBlocked::AttackForbidden => "attack_forbidden",
            MoveBlocked::NoRoute => "no_route",
        }
    }
}

/// What the mover sees on one square: enough to explain a refusal, never a hidden identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seen {
    /// No piece.
    Empty,
    /// A face-down piece (flip play): its colour is as hidden as its role.
    FaceDown,
    /// A face-up piece of `owner` (seat, or colour in flip play), with its role where the mover
    /// may know it.
    Piece {
        /// Seat or colour.
        owner: u8,
        /// The role, if the mover may know it.
        role: Option<Role>,
    },
}

/// Why `action` is not legal for `seat` (whose pieces are of `colour`, `None` in flip play
/// before colours are settled), judged from `seen` alone. The caller has made sure the action is
/// not legal and its squares are on the board.
pub(crate) fn explain(
    rules: &Rules,
    topo: &Topology,
    seat: Seat,
    colour: Option<u8>,
    seen: &dyn Fn(Square) -> Seen,
    action: Action,
) -> IllegalAction {
    let name = |s: Square| topo.name(s).to_string();
    match action {
        Action::Flip(at) => {
            if !rules.is_flip() {
                IllegalAction::NoFlips
            } else if seen(at) == Seen::Empty {
                IllegalAction::NothingToFlip { square: name(at) }
            } else {
                IllegalAction::AlreadyFaceUp { square: name(at) }
            }
        }
        Action::Move { from, to } => {
            let (owner, role) = match seen(from) {
                Seen::Empty => return IllegalAction::NoPiece { square: name(from) },
                _ if colour.is_none() => return IllegalAction::ColoursNotSettled,
                Seen::FaceDown => return IllegalAction::FaceDown { square: name(from) },
                Seen::Piece { owner, role } => (owner, role),
            };
            // The mover always knows its own pieces.
            let role = match role {
                Some(r) if Some(owner) == colour => r,
                _ => {
                    return IllegalAction::NotYourPiece {
                        square: name(from),
                        seat,
                    }
                }
            };
            if !role.is_movable() {
                return IllegalAction::NeverMoves {
                    role,
                    square: name(from),
                };
            }
            if rules.hq_locked() && topo.kind(from) == SquareKind::Headquarters {
                return IllegalAction::HeadquartersLocked { square: name(from) };
            }
            let colour = colour.expect("checked above");
            IllegalAction::CannotMove {
                role,
                from: name(from),
                to: name(to),
                why: blocked(rules, topo, colour, role, seen, from, to),
            }
        }
    }
}

/// Why the mover's movable `role` on `from` (of `colour`) cannot go to `to`.
fn blocked(
    rules: &Rules,
    topo: &Topology,
    colour: u8,
    role: Role,
    seen: &dyn Fn(Square) -> Seen,
    from: Square,
    to: Square,
) -> MoveBlocked {
    if from == to {
        return MoveBlocked::SameSquare;
    }
    let friend = |owner: u8| rules.teams().same_team(owner, colour);
    let target = seen(to);
    match target {
        Seen::Piece { owner, .. } if friend(owner) => return MoveBlocked::FriendThere,
        Seen::FaceDown => return MoveBlocked::FaceDownThere,
        Seen::Piece { .. } if topo.kind(to) == SquareKind::Camp => {
            return MoveBlocked::CampOccupied
        }
        _ => {}
    }
    // From here on the target is empty or an enemy that may be attacked.
    let empty = |s: Square| seen(s) == Seen::Empty;
    let opts = &rules.options;
    let turns = role == Role::Engineer
        || opts.rail_turns == RailTurns::Any
        || (opts.bomb_flies && role == Role::Bomb);
    let both_rail = topo.is_rail(from) && topo.is_rail(to);
    let mut in_the_way = None;
    let reachable = topo.adjacent(from, to)
        || (both_rail
            && if turns {
                rail_reach(topo, from, to, &empty)
            } else {
                match straight_path(topo, from, to, &empty) {
                    Ok(()) => true,
                    Err(at) => {
                        in_the_way = at;
                        false
                    }
                }
            });
    if reachable {
        // The way is open: a rule that judges attacks forbids this one.
        return match target {
            Seen::Piece {
                role: Some(defender),
                ..
            } => {
                if defender == Role::Flag && opts.flag_guarded_by_mines {
                    MoveBlocked::FlagGuarded
                } else if opts.losing_attacks == LosingAttacks::Forbidden
                    && resolve(rules, role, defender).result == AttackResult::DefenderWins
                {
                    MoveBlocked::LosingAttack
                } else {
                    MoveBlocked::AttackForbidden
                }
            }
            Seen::Piece { .. } => MoveBlocked::AttackForbidden,
            _ => MoveBlocked::NoRoute,
        };
    }
    if let Some(at) = in_the_way {
        return MoveBlocked::PathBlocked {
            at: topo.name(at).to_string(),
        };
    }
    // Squares one step apart on the drawing (inside an arm, whatever its angle) but with no
    // edge between them, or diagonal neighbours that are not joined through a camp.
    let ((fx, fy), (tx, ty)) = (topo.point(from), topo.point(to));
    let apart = (fx - tx).powi(2) + (fy - ty).powi(2);
    let near = |d2: f64| (apart - d2).abs() < 1e-6;
    let same_territory = match (topo.home(from), topo.home(to)) {
        (Some(a), Some(b)) => a.seat == b.seat,
        _ => false,
    };
    if near(1.0) && (same_territory || rules.board == BoardKind::TwoPlayer) {
        // Neighbours on the grid with no edge: on the two-player board that is the mountain.
        return if rules.board == BoardKind::TwoPlayer {
            MoveBlocked::Mountain
        } else {
            MoveBlocked::NoRoute
        };
    }
    if near(1.0) {
        return MoveBlocked::NoRoute;
    }
    if near(2.0) && (same_territory || topo.grid_coords(from).is_some()) {
        return MoveBlocked::NoDiagonal;
    }
    if !topo.is_rail(from) {
        return MoveBlocked::NotOnRail;
    }
    if !topo.is_rail(to) {
        return MoveBlocked::DestinationOffRail;
    }
    // Both on the railway, no free way there. Would an engineer get there on an empty board?
    let connected = rail_reach(topo, from, to, &|_| true);
    match (connected, turns) {
        (true, true) => MoveBlocked::NoFreeRailPath,
        (true, false) => MoveBlocked::RailTurn,
        (false, _) => MoveBlocked::NoRoute,
    }
}

/// Whether a piece that turns on the railway gets from `from` to `to`: through rail squares for
/// which `free` holds, ending on `to` whatever stands there.
fn rail_reach(topo: &Topology, from: Square, to: Square, free: &dyn Fn(Square) -> bool) -> bool {
    let mut seen = vec![false; topo.len()];
    seen[from.index()] = true;
    let mut stack = vec![from];
    while let Some(s) = stack.pop() {
        for n in topo.rail_neighbours(s) {
            if n == to {
                return true;
            }
            if !seen[n.index()] && free(n) {
                seen[n.index()] = true;
                stack.push(n);
            }
        }
    }
    false
}

/// Whether a straight slide goes from `from` to `to`: `Ok` if a line through `from` reaches
/// `to` over free squares, `Err(Some(square))` with the first piece in the way on such a line,
/// `Err(None)` if no line through `from` passes `to`.
fn straight_path(
    topo: &Topology,
    from: Square,
    to: Square,
    free: &dyn Fn(Square) -> bool,
) -> Result<(), Option<Square>> {
    let mut in_the_way = None;
    for ray in topo.rays(from.0) {
        let Some(i) = ray.iter().position(|&s| s == to.0) else {
            continue;
        };
        match ray[..i].iter().map(|&s| Square(s)).find(|&s| !free(s)) {
            None => return Ok(()),
            Some(s) => {
                in_the_way.get_or_insert(s);
            }
        }
    }
    Err(in_the_way)
}

impl Position {
    /// A reason for an illegal action that tells the mover nothing it may not know: judged from
    /// what the seat to move sees of the board.
    pub(crate) fn explain_illegal(&self, action: Action) -> IllegalAction {
        let seat = self.to_move;
        let observer = Observer::Seat(seat);
        let seen = |s: Square| {
            let c = self.cells[s.index()];
            if c.is_empty() {
                Seen::Empty
            } else if c.face_down() {
                Seen::FaceDown
            } else {
                Seen::Piece {
                    owner: c.seat(),
                    role: observer.knows(self, c).then(|| c.role()),
                }
            }
        };
        explain(
            &self.rules,
            self.topo,
            seat,
            self.colour_of(seat),
            &seen,
            action,
        )
    }
}

impl Observation {
    /// Why `action` is not legal for the observing seat, or `None` if it is one of its legal
    /// actions. Judged from this observation alone, so it works for a client that holds no
    /// [`Position`], and gives the same reason as the referee ([`Position::check`]).
    ///
    /// Meant for a seat's observation; for another observer the reason is given for the seat to
    /// move from what that observer sees (and no action is recognised as legal, since only a
    /// seat's observation lists legal actions).
    pub fn why_illegal(&self, action: Action) -> Option<IllegalAction> {
        if let Some(outcome) = self.outcome {
            return Some(IllegalAction::GameOver { outcome });
        }
        let seat = match self.observer {
            Observer::Seat(s) if s != self.to_move => {
                return Some(IllegalAction::NotYourTurn {
                    to_move: self.to_move,
                    seat: s,
                })
            }
            _ => self.to_move,
        };
        if self.legal_actions.contains(&action) {
            return None;
        }
        let topo = self.topology();
        let squares = match action {
            Action::Move { from, to } => [from, to],
            Action::Flip(at) => [at, at],
        };
        if let Some(s) = squares.iter().find(|s| s.index() >= topo.len()) {
            return Some(IllegalAction::SquareOffBoard { index: s.0 });
        }
        let colour = if self.rules.is_flip() {
            self.flip_colours.map(|c| c[seat as usize])
        } else {
            Some(seat)
        };
        let seen = |s: Square| match self.piece_at(s) {
            None => Seen::Empty,
            Some(p) if p.face_down => Seen::FaceDown,
            Some(p) => Seen::Piece {
                // Face-up pieces always show their seat (colour).
                owner: p.seat.unwrap_or(u8::MAX),
                role: p.role,
            },
        };
        Some(explain(&self.rules, topo, seat, colour, &seen, action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use crate::position::{PlacedPiece, Setup};
    use crate::types::Mode;
    use serde_json::json;

    /// A position from (square, seat, role) triples, `to_move` 0, with options from JSON; the
    /// pieces on the squares `down` are face down (flip play).
    fn position_with(
        board: BoardKind,
        mode: Mode,
        options: serde_json::Value,
        pieces: &[(&str, u8, Role)],
        down: &[&str],
    ) -> Position {
        let opts = Options::from_json(board, mode, Some(&options)).unwrap();
        let rules = Rules::new(board, mode, opts).unwrap();
        let topo = Topology::get(rules.board, rules.middle_rail());
        let setup = Setup {
            rules,
            to_move: 0,
            pieces: pieces
                .iter()
                .map(|&(at, seat, role)| PlacedPiece {
                    at: topo.parse_square(at).unwrap(),
                    seat,
                    role,
                    face_down: down.contains(&at),
                    carrying_flag_of: None,
                })
                .collect(),
            flip_colours: (mode == Mode::Flip).then_some([0, 1]),
            plies: 0,
            quiet_plies: 0,
            skips: vec![0; rules.seats()],
            eliminated: Vec::new(),
            captured_flags: Vec::new(),
        };
        Position::from_setup(&setup).unwrap()
    }

    fn position(
        board: BoardKind,
        mode: Mode,
        options: serde_json::Value,
        pieces: &[(&str, u8, Role)],
    ) -> Position {
        position_with(board, mode, options, pieces, &[])
    }

    fn two(pieces: &[(&str, u8, Role)]) -> Position {
        position(BoardKind::TwoPlayer, Mode::Dark, json!({}), pieces)
    }

    /// The refusal of `text` by the referee, checked to be the one the mover's own observation
    /// gives.
    #[track_caller]
    fn refusal(p: &Position, text: &str) -> IllegalAction {
        let action = crate::notation::action_from_text(p.topology(), text).unwrap();
        let by_referee = p.check(action).expect_err("the action is legal");
        let by_mover = p
            .observe(Observer::Seat(p.to_move()))
            .why_illegal(action)
            .expect("the observation finds it legal");
        assert_eq!(by_referee, by_mover, "{text}");
        by_referee
    }

    #[track_caller]
    fn why(p: &Position, text: &str) -> MoveBlocked {
        match refusal(p, text) {
            IllegalAction::CannotMove { why, .. } => why,
            other => panic!("{text}: {other:?}"),
        }
    }

    use Role::*;

    /// Seat 1 keeps a movable piece far away, so the game is on.
    const NORTH: (&str, u8, Role) = ("e12", 1, Captain);

    #[test]
    fn a_legal_action_has_no_reason() {
        let p = two(&[("a3", 0, Captain), NORTH]);
        let a = crate::notation::action_from_text(p.topology(), "a3-a4").unwrap();
        assert_eq!(p.observe(Observer::Seat(0)).why_illegal(a), None);
    }

    #[test]
    fn the_same_square() {
        assert_eq!(
            why(&two(&[("a3", 0, Captain), NORTH]), "a3-a3"),
            MoveBlocked::SameSquare
        );
    }

    #[test]
    fn a_friend_on_the_square() {
        let p = two(&[("a3", 0, Captain), ("a4", 0, Lieutenant), NORTH]);
        assert_eq!(why(&p, "a3-a4"), MoveBlocked::FriendThere);
        // A teammate counts as a friend on the four-player board.
        let p = position(
            BoardKind::FourPlayer,
            Mode::Dark,
            json!({}),
            &[("g2", 0, Captain), ("g3", 2, Captain), ("q7", 1, Captain)],
        );
        assert_eq!(why(&p, "g2-g3"), MoveBlocked::FriendThere);
    }

    #[test]
    fn an_occupied_camp() {
        let p = two(&[("c3", 0, Major), ("c4", 1, Lieutenant), NORTH]);
        assert_eq!(why(&p, "c3-c4"), MoveBlocked::CampOccupied);
    }

    #[test]
    fn a_face_down_piece() {
        let p = position_with(
            BoardKind::TwoPlayer,
            Mode::Flip,
            json!({}),
            &[("a3", 0, Captain), ("a4", 1, Captain), NORTH],
            &["a4"],
        );
        assert_eq!(why(&p, "a3-a4"), MoveBlocked::FaceDownThere);
    }

    #[test]
    fn the_mountain() {
        let p = two(&[("b6", 0, Captain), ("b7", 1, Lieutenant), NORTH]);
        assert_eq!(why(&p, "b6-b7"), MoveBlocked::Mountain);
    }

    #[test]
    fn a_diagonal_without_a_camp() {
        let p = two(&[("a1", 0, Captain), NORTH]);
        assert_eq!(why(&p, "a1-b2"), MoveBlocked::NoDiagonal);
    }

    #[test]
    fn a_slide_off_the_railway() {
        // c3 is no rail square: its piece steps only.
        let p = two(&[("c3", 0, Captain), NORTH]);
        assert_eq!(why(&p, "c3-c5"), MoveBlocked::NotOnRail);
        // a3 is on the railway, c3 is not.
        let p = two(&[("a3", 0, Captain), NORTH]);
        assert_eq!(why(&p, "a3-c3"), MoveBlocked::DestinationOffRail);
    }

    #[test]
    fn a_rail_corner_only_an_engineer_turns() {
        let p = two(&[("a3", 0, Captain), NORTH]);
        assert_eq!(why(&p, "a3-c2"), MoveBlocked::RailTurn);
        // The engineer on a rail square turns: a2 to e6 round the corner is legal.
        let p = two(&[("a2", 0, Engineer), NORTH]);
        let a = crate::notation::action_from_text(p.topology(), "a2-e6").unwrap();
        assert_eq!(p.check(a), Ok(()));
    }

    #[test]
    fn a_piece_in_the_way() {
        let p = two(&[("a2", 0, Captain), ("a4", 1, Lieutenant), NORTH]);
        assert_eq!(
            why(&p, "a2-a6"),
            MoveBlocked::PathBlocked { at: "a4".into() }
        );
    }

    #[test]
    fn every_rail_path_blocked_for_an_engineer() {
        // The engineer on a2 is walled in by its own pieces on a3 and b2.
        let p = two(&[
            ("a2", 0, Engineer),
            ("a3", 0, Captain),
            ("b2", 0, Captain),
            NORTH,
        ]);
        assert_eq!(why(&p, "a2-e2"), MoveBlocked::NoFreeRailPath);
    }

    #[test]
    fn a_losing_attack_in_flip_play() {
        let p = position(
            BoardKind::TwoPlayer,
            Mode::Flip,
            json!({}),
            &[
                ("a3", 0, Captain),
                ("a4", 1, General),
                ("e1", 1, Landmine),
                NORTH,
            ],
        );
        assert_eq!(why(&p, "a3-a4"), MoveBlocked::LosingAttack);
    }

    #[test]
    fn a_flag_guarded_by_its_landmines() {
        let p = position(
            BoardKind::TwoPlayer,
            Mode::Flip,
            json!({}),
            &[
                ("a3", 0, Captain),
                ("a4", 1, Flag),
                ("e1", 1, Landmine),
                NORTH,
            ],
        );
        assert_eq!(why(&p, "a3-a4"), MoveBlocked::FlagGuarded);
    }

    #[test]
    fn a_forbidden_attack_in_the_dark_tells_nothing_more() {
        // Dark play with losing attacks forbidden: the mover does not know the general, so the
        // reason is the general one.
        let p = position(
            BoardKind::TwoPlayer,
            Mode::Dark,
            json!({"losing_attacks": "forbidden"}),
            &[("a3", 0, Captain), ("a4", 1, General), NORTH],
        );
        assert_eq!(why(&p, "a3-a4"), MoveBlocked::AttackForbidden);
    }

    #[test]
    fn four_player_reasons() {
        // h3 is a camp, off the railway: its piece steps only.
        let p = position(
            BoardKind::FourPlayer,
            Mode::Dark,
            json!({}),
            &[("h3", 0, Captain), ("q7", 1, Captain)],
        );
        assert_eq!(why(&p, "h3-h5"), MoveBlocked::NotOnRail);
        // h6 to i7 would be a diagonal step, and neither square is a camp.
        let p = position(
            BoardKind::FourPlayer,
            Mode::Dark,
            json!({}),
            &[("h6", 0, Captain), ("q7", 1, Captain)],
        );
        assert_eq!(why(&p, "h6-i7"), MoveBlocked::NoDiagonal);
    }

    #[test]
    fn reasons_before_the_route() {
        // Not the mover's piece, a landmine, a locked HQ: the referee's first reasons.
        let p = two(&[
            ("b1", 0, Captain),
            ("c1", 0, Landmine),
            ("a3", 0, Captain),
            NORTH,
        ]);
        assert!(matches!(
            refusal(&p, "c1-c2"),
            IllegalAction::NeverMoves { .. }
        ));
        assert!(matches!(
            refusal(&p, "b1-b2"),
            IllegalAction::HeadquartersLocked { .. }
        ));
        assert!(matches!(
            refusal(&p, "e12-e11"),
            IllegalAction::NotYourPiece { .. }
        ));
        assert!(matches!(
            refusal(&p, "a5-a6"),
            IllegalAction::NoPiece { .. }
        ));
    }

    /// One value of every detail (`PathBlocked` names its square `{at}`, as the docs do).
    fn every_detail() -> Vec<MoveBlocked> {
        vec![
            MoveBlocked::SameSquare,
            MoveBlocked::FriendThere,
            MoveBlocked::CampOccupied,
            MoveBlocked::FaceDownThere,
            MoveBlocked::Mountain,
            MoveBlocked::NoDiagonal,
            MoveBlocked::NotOnRail,
            MoveBlocked::DestinationOffRail,
            MoveBlocked::RailTurn,
            MoveBlocked::PathBlocked { at: "{at}".into() },
            MoveBlocked::NoFreeRailPath,
            MoveBlocked::LosingAttack,
            MoveBlocked::FlagGuarded,
            MoveBlocked::AttackForbidden,
            MoveBlocked::NoRoute,
        ]
    }

    #[test]
    fn codes_are_snake_case_and_distinct() {
        let all = every_detail();
        let codes: std::collections::BTreeSet<&str> = all.iter().map(MoveBlocked::code).collect();
        assert_eq!(codes.len(), all.len());
        assert!(codes
            .iter()
            .all(|c| c.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')));
    }

    #[test]
    fn the_formats_doc_lists_every_detail_with_its_text() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/formats.md");
        let doc = std::fs::read_to_string(path).expect("docs/formats.md");
        let mut rows = std::collections::BTreeMap::new();
        let mut in_section = false;
        for line in doc.lines() {
            if let Some(title) = line.strip_prefix("## ") {
                in_section = title.trim() == "Why a move is blocked";
                continue;
            }
            // Rows of details (the header row names the arg, `why`).
            if in_section && line.starts_with("| `") && !line.starts_with("| `why`") {
                // | `code` | `text` (notes) |
                let ticked: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
                rows.insert(ticked[0].to_string(), ticked[1].to_string());
            }
        }
        let all = every_detail();
        assert_eq!(rows.len(), all.len(), "one row per detail: {rows:?}");
        for b in all {
            assert_eq!(rows.get(b.code()), Some(&b.to_string()), "{}", b.code());
        }
    }
}
