//! The referee's full state of a land-sea-air game (LANDSEAAIR §6–§7, §9) and its step,
//! [`Position::apply`]: resolve the action (§4, §5), remove pieces, count the ply, end the game
//! on a captured flag, on a side left with no movable piece, on a draw limit, or on a blocked
//! side, and pass the turn.
//!
//! A [`Piece`] is its side and its [`Combatant`] (a role, or a landed battleship or cruiser: a
//! landed destroyer cannot be written down). A [`Position`] is built from two validated
//! deployments ([`Position::new`]) or from a list of pieces ([`Position::from_pieces`], for
//! tests and later the JSON form) that is checked against §10.2: every piece on a square its
//! arm can use, the fort on its own harbour, no role over its count.
//!
//! # Where the rule book is silent
//! - A skip (`blocked = skip`) is not a ply: it changes neither `plies` nor `quiet_plies`. A
//!   side's skips are counted and at 5 it is eliminated (reason `skips`), as `RULES.md` §7.1;
//!   so two blocked sides end the game within ten skips.
//! - The flag's square is announced (event [`Event::FlagRevealed`]) when the marshal is removed
//!   and the flag still stands; once announced it stays so (it never moves).
//! - A look that shoots the scout down removes a piece, so it resets `quiet_plies` (§7 says
//!   so); a look that views is quiet.
//! - When the marshals of both sides fall in one action (an exchange) both flags are
//!   revealed, the defender's first.
//! - A position built from pieces ([`Position::from_pieces`]) is not checked against the
//!   deployment rules (a game in progress has moved on from them), only against §10.2; and
//!   none of its identities counts as announced.

use super::board::{Board, Side, Square, SquareSet, SQUARES};
use super::combat::{resolve, CombatOptions, Combatant};
use super::deploy::{DeployError, Deployment};
use super::movegen::{Action, PieceActionList};
use super::pieces::{Arm, PieceSet, Role, ROLES};
use crate::event::{AttackResult, DrawReason, EliminationReason, SkipReason};
use crate::options::Blocked;
use std::fmt;
use std::num::NonZeroU32;

/// Option `camp_protects` (§4.3, §9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CampProtects {
    /// `owner` (default): a piece in its own side's camp.
    #[default]
    Owner,
    /// `anyone`: every piece in a camp.
    Anyone,
}

impl CampProtects {
    /// The option value: `owner`, `anyone`.
    pub const fn name(self) -> &'static str {
        match self {
            CampProtects::Owner => "owner",
            CampProtects::Anyone => "anyone",
        }
    }

    /// The value with this name.
    pub fn from_name(name: &str) -> Option<CampProtects> {
        [CampProtects::Owner, CampProtects::Anyone]
            .into_iter()
            .find(|v| v.name() == name)
    }
}

/// Option `fort_strike` (§4.7, §9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FortStrike {
    /// `repeat` (default): any number of strikes.
    #[default]
    Repeat,
    /// `once`: one strike per game.
    Once,
    /// `never`: the fort never strikes.
    Never,
}

impl FortStrike {
    /// The option value: `repeat`, `once`, `never`.
    pub const fn name(self) -> &'static str {
        match self {
            FortStrike::Repeat => "repeat",
            FortStrike::Once => "once",
            FortStrike::Never => "never",
        }
    }

    /// The value with this name.
    pub fn from_name(name: &str) -> Option<FortStrike> {
        [FortStrike::Repeat, FortStrike::Once, FortStrike::Never]
            .into_iter()
            .find(|v| v.name() == name)
    }
}

/// The rule options of §9 that the referee uses (mode and visibility are not its business).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// `piece_set`.
    pub piece_set: PieceSet,
    /// `combat` and `landmine`.
    pub combat: CombatOptions,
    /// `rail_max`: rail edges per move, 0 = no limit.
    pub rail_max: u32,
    /// `camp_protects`.
    pub camp_protects: CampProtects,
    /// `fort_strike`.
    pub fort_strike: FortStrike,
    /// `reveal_flag_on_marshal_loss`.
    pub reveal_flag_on_marshal_loss: bool,
    /// `blocked`.
    pub blocked: Blocked,
    /// `quiet_plies`: plies without a removal before a draw.
    pub quiet_plies: NonZeroU32,
    /// `max_plies`: plies before a draw.
    pub max_plies: NonZeroU32,
    /// Who moves first (default South).
    pub first: Side,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            piece_set: PieceSet::Seed,
            combat: CombatOptions::default(),
            rail_max: 3,
            camp_protects: CampProtects::Owner,
            fort_strike: FortStrike::Repeat,
            reveal_flag_on_marshal_loss: true,
            blocked: Blocked::Lose,
            quiet_plies: NonZeroU32::new(100).expect("100"),
            max_plies: NonZeroU32::new(3000).expect("3000"),
            first: Side::South,
        }
    }
}

/// A piece on the board: its side and what it is (a landed ship is a
/// [`Combatant::Landed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    side: Side,
    body: Combatant,
}

impl Piece {
    /// A piece of a role (not landed).
    pub const fn new(side: Side, role: Role) -> Piece {
        Piece {
            side,
            body: Combatant::Piece(role),
        }
    }

    /// A piece as combat sees it.
    pub const fn of(side: Side, body: Combatant) -> Piece {
        Piece { side, body }
    }

    /// Its side.
    pub const fn side(self) -> Side {
        self.side
    }

    /// Its role (a landed ship keeps its role).
    pub const fn role(self) -> Role {
        self.body.role()
    }

    /// Its arm (public): a landed ship is a land piece.
    pub const fn arm(self) -> Arm {
        self.body.arm()
    }

    /// Whether a landed battleship or cruiser.
    pub const fn landed(self) -> bool {
        matches!(self.body, Combatant::Landed(_))
    }

    /// The piece as combat sees it.
    pub const fn combatant(self) -> Combatant {
        self.body
    }
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The game goes on.
    Playing,
    /// A side won: the other was eliminated for `reason`.
    Won {
        /// The winner.
        winner: Side,
        /// Why the loser was eliminated.
        reason: EliminationReason,
    },
    /// A draw.
    Drawn(DrawReason),
}

/// How a side gives up the game (`RULES.md` §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Concession {
    /// It resigns (reason `resigned`).
    Resign,
    /// It leaves for good (reason `left`).
    Leave,
}

/// How an attack was made, as the `attack` event's flags (§10.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttackKind {
    /// A ground move, sailing, or a fighter's flight (no flag).
    Plain,
    /// A landing attack (`landing: true`).
    Landing,
    /// A fort's or gunboat's strike (`strike: true`).
    Strike,
    /// A missile's flight (`flight: true`).
    Flight,
}

/// One announcement of the referee (§10.3). All are public but
/// [`Event::ScoutedPrivate`], which only the scout's owner receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A move to an empty square: walk, slide, sail, plane flight.
    Moved {
        /// The mover.
        side: Side,
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// A ship landed on an empty coast square.
    Landed {
        /// The mover.
        side: Side,
        /// The sea square.
        from: Square,
        /// The coast square.
        to: Square,
    },
    /// An attack and its result.
    Attack {
        /// The attacker's side.
        side: Side,
        /// The attacker's square.
        from: Square,
        /// The defender's square.
        to: Square,
        /// The result.
        result: AttackResult,
        /// How it was made.
        kind: AttackKind,
    },
    /// A look was made (public).
    Scout {
        /// The scout's side.
        side: Side,
        /// The scout's square.
        from: Square,
        /// The square looked at.
        at: Square,
        /// Whether the scout was shot down by the anti-aircraft gun it saw.
        shot_down: bool,
    },
    /// What the look saw: for the scout's owner only.
    ScoutedPrivate {
        /// The scout's side (the only receiver).
        side: Side,
        /// The square looked at.
        at: Square,
        /// The role seen.
        role: Role,
        /// Whether a landed ship.
        landed: bool,
    },
    /// A side's flag square, announced after its marshal's loss.
    FlagRevealed {
        /// The flag's side.
        side: Side,
        /// Its square.
        at: Square,
    },
    /// A side's turn was skipped: it was blocked (`blocked = skip`) or its clock ran out.
    Skipped {
        /// The side.
        side: Side,
        /// Why.
        reason: SkipReason,
    },
    /// A side was eliminated: the game is over and the other side won.
    Eliminated {
        /// The loser.
        side: Side,
        /// Why.
        reason: EliminationReason,
    },
    /// The game is drawn.
    Drawn {
        /// Why.
        reason: DrawReason,
    },
}

impl Event {
    /// Whether everybody receives the event (all but [`Event::ScoutedPrivate`]).
    pub const fn is_public(self) -> bool {
        !matches!(self, Event::ScoutedPrivate { .. })
    }
}

/// Events of one step: at most 2 for the action, 2 flag reveals, 10 skips, 1 end.
pub const MAX_EVENTS: usize = 16;

/// The events of one step, in order, without heap allocation.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Events {
    buf: [Event; MAX_EVENTS],
    len: u8,
}

impl fmt::Debug for Events {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Default for Events {
    /// No events.
    fn default() -> Events {
        Events::new()
    }
}

impl Events {
    fn new() -> Events {
        Events {
            buf: [Event::Drawn {
                reason: DrawReason::Agreement,
            }; MAX_EVENTS],
            len: 0,
        }
    }

    fn push(&mut self, e: Event) {
        self.buf[self.len as usize] = e;
        self.len += 1;
    }

    /// The events, in order.
    pub fn as_slice(&self) -> &[Event] {
        &self.buf[..self.len as usize]
    }

    /// The events, in order.
    pub fn iter(&self) -> impl Iterator<Item = Event> + '_ {
        self.as_slice().iter().copied()
    }
}

/// Why an action was refused. A refused action changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalAction {
    /// The game is over.
    GameOver(Status),
    /// No piece stands on the action's `from`.
    NoPiece(Square),
    /// The piece on `from` is the other side's.
    NotYours {
        /// The square.
        square: Square,
        /// The side to move.
        to_move: Side,
    },
    /// The piece never takes this kind of action.
    WrongKind {
        /// The action.
        action: Action,
        /// The acting piece.
        piece: Piece,
    },
    /// The piece can take this kind of action, but not to that square now.
    NotLegal {
        /// The action.
        action: Action,
        /// The acting piece.
        piece: Piece,
    },
}

fn piece_name(p: Piece) -> String {
    if p.landed() {
        format!("landed {}", p.role())
    } else {
        p.role().to_string()
    }
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalAction::GameOver(s) => write!(f, "the game is over ({s:?})"),
            IllegalAction::NoPiece(s) => write!(f, "there is no piece on {s}"),
            IllegalAction::NotYours { square, to_move } => {
                write!(
                    f,
                    "the piece on {square} is not {to_move:?}'s, who is to move"
                )
            }
            IllegalAction::WrongKind { action, piece } => write!(
                f,
                "{action}: a {} cannot {} ({})",
                piece_name(piece),
                action.kind(),
                match piece.role() {
                    Role::Flag | Role::Landmine | Role::Trap => "it never acts",
                    Role::Fort => "the fort only strikes",
                    _ if piece.arm() == Arm::Land =>
                        "land pieces move on the ground; only a missile also flies",
                    _ if piece.arm() == Arm::Sea =>
                        "ships sail, battleships and cruisers land, gunboats strike",
                    _ => "planes fly; only the scout looks",
                }
            ),
            IllegalAction::NotLegal { action, piece } => write!(
                f,
                "{action}: the {} on {} cannot {} there now (blocked, out of reach, own \
                 piece, an enemy it may not attack, or protected by a camp)",
                piece_name(piece),
                action.from(),
                action.kind()
            ),
        }
    }
}

impl std::error::Error for IllegalAction {}

/// Why a position could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A side's deployment is not legal.
    Deploy(Side, DeployError),
    /// A piece stands on a square its arm can never use (§10.2).
    UnusableSquare {
        /// The square.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// A fort stands off its own harbour.
    FortOffHarbour(Square),
    /// A side has more pieces of a role than the piece set.
    OverCount {
        /// The side.
        side: Side,
        /// The role.
        role: Role,
    },
    /// Two pieces on one square.
    SquareTaken(Square),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SetupError::Deploy(side, e) => write!(f, "{side:?}: {e}"),
            SetupError::UnusableSquare { square, piece } => write!(
                f,
                "a {} ({} arm) can never stand on {square} (a {})",
                piece_name(piece),
                piece.arm(),
                Board::get().square_type(square).name()
            ),
            SetupError::FortOffHarbour(s) => {
                write!(f, "the fort on {s} must stand on its own harbour")
            }
            SetupError::OverCount { side, role } => {
                write!(f, "{side:?} has more of {role} than its piece set")
            }
            SetupError::SquareTaken(s) => write!(f, "two pieces on {s}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// The result of one [`Position::apply`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// What the referee announced, in order.
    pub events: Events,
    /// How many pieces the action removed (0, 1 or 2).
    pub removed: u8,
}

/// The referee's full knowledge of a land-sea-air game.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    opts: Options,
    cells: [Option<Piece>; SQUARES],
    occ: [SquareSet; 2],
    arm_occ: [[SquareSet; 3]; 2],
    movable: [u8; 2],
    fort_struck: [bool; 2],
    flag_revealed: [bool; 2],
    announced: SquareSet,
    skips: [u8; 2],
    to_move: Side,
    plies: u32,
    quiet_plies: u32,
    status: Status,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("to_move", &self.to_move)
            .field("plies", &self.plies)
            .field("quiet_plies", &self.quiet_plies)
            .field("status", &self.status)
            .field(
                "pieces",
                &self
                    .pieces()
                    .map(|(s, p)| format!("{s} {:?} {}", p.side, piece_name(p)))
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// Skips at which a side is eliminated (`RULES.md` §10).
pub const SKIP_LIMIT: u8 = 5;

impl Position {
    /// The starting position from two deployments, each validated against the piece set.
    pub fn new(
        opts: Options,
        south: &Deployment,
        north: &Deployment,
    ) -> Result<Position, SetupError> {
        let mut list = [(
            Square::from_index(0).expect("a1"),
            Piece::new(Side::South, Role::Flag),
        ); 2 * 41];
        let mut n = 0;
        for (side, d) in [(Side::South, south), (Side::North, north)] {
            if d.side() != side {
                return Err(SetupError::Deploy(
                    side,
                    DeployError::WrongSide {
                        want: side,
                        have: d.side(),
                    },
                ));
            }
            d.validate(opts.piece_set)
                .map_err(|e| SetupError::Deploy(side, e))?;
            for (s, r) in d.pieces() {
                list[n] = (s, Piece::new(side, r));
                n += 1;
            }
        }
        Position::from_pieces(opts, opts.first, &list[..n])
    }

    /// A position from pieces, `side` to move, counters at zero. Checked as §10.2: each piece
    /// on a square its arm can use, the fort on its own harbour, no role over the piece set's
    /// count, one piece per square. Pieces may be missing (a game in progress). The game is
    /// running even if a side has no movable piece; the first [`Position::apply`] ends it.
    pub fn from_pieces(
        opts: Options,
        to_move: Side,
        pieces: &[(Square, Piece)],
    ) -> Result<Position, SetupError> {
        let b = Board::get();
        let mut pos = Position {
            opts,
            cells: [None; SQUARES],
            occ: [SquareSet::EMPTY; 2],
            arm_occ: [[SquareSet::EMPTY; 3]; 2],
            movable: [0; 2],
            fort_struck: [false; 2],
            flag_revealed: [false; 2],
            announced: SquareSet::EMPTY,
            skips: [0; 2],
            to_move,
            plies: 0,
            quiet_plies: 0,
            status: Status::Playing,
        };
        let mut counts = [[0u8; ROLES]; 2];
        for &(square, piece) in pieces {
            if !b.usable_by(piece.arm()).contains(square) {
                return Err(SetupError::UnusableSquare { square, piece });
            }
            if piece.role() == Role::Fort && square != b.harbour(piece.side) {
                return Err(SetupError::FortOffHarbour(square));
            }
            let c = &mut counts[piece.side as usize][piece.role() as usize];
            *c += 1;
            if *c > opts.piece_set.count(piece.role()) {
                return Err(SetupError::OverCount {
                    side: piece.side,
                    role: piece.role(),
                });
            }
            if pos.cells[square.index()].is_some() {
                return Err(SetupError::SquareTaken(square));
            }
            pos.put(square, piece);
        }
        Ok(pos)
    }

    /// Set whether a side's fort has struck (for hand-built positions; `fort_strike = once`).
    pub fn set_fort_struck(&mut self, side: Side, struck: bool) {
        self.fort_struck[side as usize] = struck;
    }

    /// Set the counters of a position read from the interchange form (§10.2): plies played,
    /// plies since the last removal, and each side's skips.
    pub fn set_counters(&mut self, plies: u32, quiet_plies: u32, skips: [u8; 2]) {
        self.plies = plies;
        self.quiet_plies = quiet_plies;
        self.skips = skips;
    }

    /// End the game with `side` eliminated for `reason` (a position read from the interchange
    /// form whose `eliminated` names a side): the other side has won.
    pub fn set_eliminated(&mut self, side: Side, reason: EliminationReason) {
        self.status = Status::Won {
            winner: side.other(),
            reason,
        };
    }

    /// Mark a side's flag square as announced (§7: after its marshal's loss), as the step
    /// does; for positions read from the interchange form, which do not list announcements.
    /// Nothing happens if the side has no flag on the board.
    pub fn reveal_flag(&mut self, side: Side) {
        let flag = self.occ[side as usize]
            .iter()
            .find(|&s| self.at(s).is_some_and(|q| q.role() == Role::Flag));
        if let Some(at) = flag {
            self.flag_revealed[side as usize] = true;
            self.announced.insert(at);
        }
    }

    /// The legal actions' existence for `side` (whether it would be blocked on its turn).
    pub fn can_act(&self, side: Side) -> bool {
        self.has_action(side)
    }

    fn put(&mut self, sq: Square, p: Piece) {
        self.cells[sq.index()] = Some(p);
        self.occ[p.side as usize].insert(sq);
        self.arm_occ[p.side as usize][p.arm() as usize].insert(sq);
        if p.role().is_movable() {
            self.movable[p.side as usize] += 1;
        }
    }

    fn take(&mut self, sq: Square) -> Piece {
        let p = self.cells[sq.index()].take().expect("a piece to take");
        self.occ[p.side as usize].remove(sq);
        self.arm_occ[p.side as usize][p.arm() as usize].remove(sq);
        self.announced.remove(sq);
        if p.role().is_movable() {
            self.movable[p.side as usize] -= 1;
        }
        p
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The piece on a square.
    #[inline]
    pub fn at(&self, sq: Square) -> Option<Piece> {
        self.cells[sq.index()]
    }

    /// The squares of a side's pieces.
    #[inline]
    pub fn occupied(&self, side: Side) -> SquareSet {
        self.occ[side as usize]
    }

    /// The squares of a side's pieces of one arm (public: §6).
    #[inline]
    pub fn occupied_by(&self, side: Side, arm: Arm) -> SquareSet {
        self.arm_occ[side as usize][arm as usize]
    }

    /// Every piece, lowest square first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|s| self.at(s).map(|p| (s, p)))
    }

    /// Number of pieces of a side on the board.
    pub fn piece_count(&self, side: Side) -> usize {
        self.occ[side as usize].len()
    }

    /// Number of movable pieces of a side (§1, §7).
    pub fn movable_count(&self, side: Side) -> usize {
        self.movable[side as usize] as usize
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Plies played.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Plies since the last removal.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// A side's skips (`blocked = skip`).
    pub fn skips(&self, side: Side) -> u8 {
        self.skips[side as usize]
    }

    /// Whether a side's fort has struck (set by its first strike, never cleared).
    pub fn fort_struck(&self, side: Side) -> bool {
        self.fort_struck[side as usize]
    }

    /// Whether a side's flag square has been announced (§7).
    pub fn flag_revealed(&self, side: Side) -> bool {
        self.flag_revealed[side as usize]
    }

    /// Whether the identity of the piece on `sq` was announced to everybody and the piece has
    /// not moved since (§10.2 views): the anti-aircraft gun that shot a scout down, a flag
    /// revealed by its marshal's loss. (The fort on its harbour is public by rule, not listed.)
    pub fn is_announced(&self, sq: Square) -> bool {
        self.announced.contains(sq)
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.status != Status::Playing
    }

    /// Whether the action is legal for the side to move now.
    pub fn is_legal(&self, action: Action) -> bool {
        self.check(action).is_ok()
    }

    /// Why the action is not legal for the side to move, or `Ok`.
    pub fn check(&self, action: Action) -> Result<(), IllegalAction> {
        if self.is_over() {
            return Err(IllegalAction::GameOver(self.status));
        }
        let from = action.from();
        let piece = self.at(from).ok_or(IllegalAction::NoPiece(from))?;
        if piece.side != self.to_move {
            return Err(IllegalAction::NotYours {
                square: from,
                to_move: self.to_move,
            });
        }
        let kind_ok = match (action, piece.combatant()) {
            (_, Combatant::Piece(Role::Flag | Role::Landmine | Role::Trap)) => false,
            (Action::Strike { .. }, Combatant::Piece(Role::Fort | Role::Gunboat)) => true,
            (_, Combatant::Piece(Role::Fort)) => false,
            (Action::Move { .. }, c) => c.arm() == Arm::Land,
            (Action::MissileFlight { .. }, c) => c == Combatant::Piece(Role::Missile),
            (Action::Sail { .. }, c) => c.arm() == Arm::Sea,
            (Action::Land { .. }, Combatant::Piece(r)) => r.landing_ship().is_some(),
            (Action::Fly { .. }, c) => c.arm() == Arm::Air,
            (Action::Look { .. }, c) => c == Combatant::Piece(Role::ScoutPlane),
            _ => false,
        };
        if !kind_ok {
            return Err(IllegalAction::WrongKind { action, piece });
        }
        let mut list = PieceActionList::new();
        self.piece_actions(from, &mut list);
        if list.contains(action) {
            Ok(())
        } else {
            Err(IllegalAction::NotLegal { action, piece })
        }
    }

    /// Remove the piece on `sq`, announcing the flag on the marshal's loss (§7).
    fn remove(&mut self, sq: Square, events: &mut Events) -> Piece {
        let p = self.take(sq);
        if p.role() == Role::Marshal && self.opts.reveal_flag_on_marshal_loss {
            let side = p.side;
            if !self.flag_revealed[side as usize] {
                let flag = self.occ[side as usize]
                    .iter()
                    .find(|&s| self.at(s).is_some_and(|q| q.role() == Role::Flag));
                if let Some(at) = flag {
                    self.flag_revealed[side as usize] = true;
                    self.announced.insert(at);
                    events.push(Event::FlagRevealed { side, at });
                }
            }
        }
        p
    }

    fn end(&mut self, winner: Side, reason: EliminationReason, events: &mut Events) {
        self.status = Status::Won { winner, reason };
        events.push(Event::Eliminated {
            side: winner.other(),
            reason,
        });
    }

    /// The referee's step (§7): check the action, resolve it, announce it, remove pieces,
    /// count the ply, end the game or pass the turn. An illegal action changes nothing.
    pub fn apply(&mut self, action: Action) -> Result<Step, IllegalAction> {
        self.check(action)?;
        self.resolve_step(action)
    }

    /// [`Position::apply`] for an action known to be legal (one of [`Position::legal_actions`]
    /// of this position), without checking it again: for playouts and searches, which would
    /// otherwise generate the acting piece's actions twice. Checked in debug builds; an
    /// illegal action here is a bug of the caller and may leave the position inconsistent.
    pub fn apply_legal(&mut self, action: Action) -> Step {
        debug_assert_eq!(self.check(action), Ok(()), "{action} is not legal");
        self.resolve_step(action)
            .expect("a legal action always has a combat rule")
    }

    /// The step of a checked action.
    fn resolve_step(&mut self, action: Action) -> Result<Step, IllegalAction> {
        let side = self.to_move;
        let mut events = Events::new();
        let (from, to) = (action.from(), action.to());
        let mover = self.at(from).expect("checked");
        let before = self.piece_count(Side::South) + self.piece_count(Side::North);
        let mut flag_captured = false;
        match action {
            Action::Look { from, at } => {
                let seen = self.at(at).expect("a look aims at a piece");
                let shot_down = seen.role() == Role::AntiAircraftGun;
                events.push(Event::Scout {
                    side,
                    from,
                    at,
                    shot_down,
                });
                events.push(Event::ScoutedPrivate {
                    side,
                    at,
                    role: seen.role(),
                    landed: seen.landed(),
                });
                if shot_down {
                    self.remove(from, &mut events);
                    self.announced.insert(at);
                }
            }
            _ => match self.at(to) {
                None => {
                    let moved = self.take(from);
                    if let Action::Land { .. } = action {
                        let ship = moved.role().landing_ship().expect("checked");
                        self.put(to, Piece::of(side, Combatant::Landed(ship)));
                        events.push(Event::Landed { side, from, to });
                    } else {
                        self.put(to, moved);
                        events.push(Event::Moved { side, from, to });
                    }
                }
                Some(defender) => {
                    let (attacker, kind) = match action {
                        Action::Land { .. } => (
                            Combatant::Landed(mover.role().landing_ship().expect("checked")),
                            AttackKind::Landing,
                        ),
                        Action::Strike { .. } => (mover.combatant(), AttackKind::Strike),
                        Action::MissileFlight { .. } => (mover.combatant(), AttackKind::Flight),
                        _ => (mover.combatant(), AttackKind::Plain),
                    };
                    // Every pair legality lets meet has a rule (combat::can_meet); a pair
                    // without one is refused before anything changes.
                    let outcome = resolve(attacker, defender.combatant(), self.opts.combat).ok_or(
                        IllegalAction::NotLegal {
                            action,
                            piece: mover,
                        },
                    )?;
                    events.push(Event::Attack {
                        side,
                        from,
                        to,
                        result: outcome.result,
                        kind,
                    });
                    if mover.role() == Role::Fort {
                        self.fort_struck[side as usize] = true;
                    }
                    flag_captured = outcome.result == AttackResult::FlagCaptured;
                    if !outcome.defender_survives {
                        self.remove(to, &mut events);
                    }
                    if kind == AttackKind::Strike {
                        if !outcome.attacker_survives {
                            self.remove(from, &mut events);
                        }
                    } else if outcome.attacker_survives && !outcome.defender_survives {
                        self.take(from);
                        self.put(to, Piece::of(side, attacker));
                    } else if !outcome.attacker_survives {
                        self.remove(from, &mut events);
                    }
                }
            },
        }
        let removed =
            (before - self.piece_count(Side::South) - self.piece_count(Side::North)) as u8;
        self.plies += 1;
        if removed > 0 {
            self.quiet_plies = 0;
        } else {
            self.quiet_plies += 1;
        }
        self.finish_step(side, flag_captured, &mut events);
        Ok(Step { events, removed })
    }

    /// Steps 1 (flag), 3–5 of §7.1 after the action of `side`.
    fn finish_step(&mut self, side: Side, flag_captured: bool, events: &mut Events) {
        let enemy = side.other();
        if flag_captured {
            return self.end(side, EliminationReason::FlagCaptured, events);
        }
        match (
            self.movable_count(side) == 0,
            self.movable_count(enemy) == 0,
        ) {
            (_, true) => return self.end(side, EliminationReason::NoMovablePieces, events),
            (true, false) => return self.end(enemy, EliminationReason::NoMovablePieces, events),
            _ => {}
        }
        if self.quiet_plies >= self.opts.quiet_plies.get() {
            self.status = Status::Drawn(DrawReason::QuietPlies);
        } else if self.plies >= self.opts.max_plies.get() {
            self.status = Status::Drawn(DrawReason::MaxPlies);
        }
        if let Status::Drawn(reason) = self.status {
            events.push(Event::Drawn { reason });
            return;
        }
        self.pass_turn(enemy, events);
    }

    /// Step 5 of §7.1: give the turn to `next`, applying `blocked` while the side to move has
    /// no legal action. The turn passes only to a side that can act: a game that ends here
    /// leaves `to_move` as it was, the side that acted (`RULES.md` §7.1, as on every board).
    fn pass_turn(&mut self, mut next: Side, events: &mut Events) {
        loop {
            if self.has_action(next) {
                self.to_move = next;
                return;
            }
            match self.opts.blocked {
                // The options' reader never gives `out_at_once` here (LANDSEAAIR §9); were it
                // set by hand, with two sides it comes to losing on one's turn.
                Blocked::Lose | Blocked::OutAtOnce => {
                    return self.end(next.other(), EliminationReason::Blocked, events);
                }
                Blocked::Skip => {
                    if self.skip(next, SkipReason::Blocked, events) {
                        return;
                    }
                    next = next.other();
                }
            }
        }
    }

    /// Count a skip of `side` and announce it; true when that was its last (it is then
    /// eliminated for `skips` and the game is over).
    fn skip(&mut self, side: Side, reason: SkipReason, events: &mut Events) -> bool {
        self.skips[side as usize] += 1;
        events.push(Event::Skipped { side, reason });
        if self.skips[side as usize] >= SKIP_LIMIT {
            self.end(side.other(), EliminationReason::Skips, events);
            return true;
        }
        false
    }

    /// The move clock of the side to move ran out (`RULES.md` §10): its turn is skipped, which
    /// is not a ply (as a blocked skip); at the fifth skip it is eliminated (`skips`).
    pub fn timeout(&mut self) -> Result<Events, IllegalAction> {
        self.playing()?;
        let mut events = Events::new();
        let side = self.to_move;
        if !self.skip(side, SkipReason::Timeout, &mut events) {
            self.pass_turn(side.other(), &mut events);
        }
        Ok(events)
    }

    /// A side resigns (`resigned`) or leaves for good (`left`): it is eliminated and the
    /// other side wins. Either side may do so at any time while the game goes on.
    pub fn concede(&mut self, side: Side, reason: Concession) -> Result<Events, IllegalAction> {
        self.playing()?;
        let mut events = Events::new();
        let reason = match reason {
            Concession::Resign => EliminationReason::Resigned,
            Concession::Leave => EliminationReason::Left,
        };
        self.end(side.other(), reason, &mut events);
        Ok(events)
    }

    /// Both sides agreed to a draw (`agreement`).
    pub fn agree_draw(&mut self) -> Result<Events, IllegalAction> {
        self.playing()?;
        let mut events = Events::new();
        self.status = Status::Drawn(DrawReason::Agreement);
        events.push(Event::Drawn {
            reason: DrawReason::Agreement,
        });
        Ok(events)
    }

    fn playing(&self) -> Result<(), IllegalAction> {
        match self.status {
            Status::Playing => Ok(()),
            s => Err(IllegalAction::GameOver(s)),
        }
    }
}

/// Helpers for the tests of this module and of `movegen`.
#[cfg(test)]
pub(super) mod test_util {
    use super::super::movegen::ActionList;
    use super::*;

    /// The square named.
    pub fn sq(name: &str) -> Square {
        Square::parse(name).unwrap_or_else(|| panic!("square {name}"))
    }

    /// A piece from a short spec: `"S major"`, `"N landed battleship"`.
    pub fn piece(spec: &str) -> Piece {
        let mut w = spec.split_whitespace();
        let side = match w.next() {
            Some("S") => Side::South,
            Some("N") => Side::North,
            other => panic!("side {other:?}"),
        };
        let mut name = w.next().expect("role");
        let landed = name == "landed";
        if landed {
            name = w.next().expect("role");
        }
        let role: Role = name.parse().expect("role name");
        if landed {
            Piece::of(side, Combatant::Landed(role.landing_ship().expect("lands")))
        } else {
            Piece::new(side, role)
        }
    }

    /// A position from `("c4", "S major")` pairs. Each side gets a far-away movable piece
    /// (a South captain on e1, a North captain on e15) unless the list already uses that
    /// square, so that the game does not end for lack of movable pieces.
    pub fn build(opts: Options, to_move: Side, list: &[(&str, &str)]) -> Position {
        let mut v: Vec<(Square, Piece)> = list.iter().map(|&(s, p)| (sq(s), piece(p))).collect();
        for (s, p) in [("e1", "S captain"), ("e15", "N captain")] {
            if !v.iter().any(|&(x, _)| x == sq(s)) {
                v.push((sq(s), piece(p)));
            }
        }
        Position::from_pieces(opts, to_move, &v).expect("a valid test position")
    }

    /// South to move, default options.
    pub fn south(list: &[(&str, &str)]) -> Position {
        build(Options::default(), Side::South, list)
    }

    /// The actions of the piece on `from`, as sorted text (`"kind from-to"`).
    pub fn actions_of(pos: &Position, from: &str) -> Vec<String> {
        let mut l = ActionList::new();
        pos.piece_actions(sq(from), &mut l);
        let mut v: Vec<String> = l.iter().map(|a| format!("{} {a}", a.kind())).collect();
        v.sort();
        v
    }

    /// The target squares of the piece on `from` of one kind, sorted by name.
    pub fn targets(pos: &Position, from: &str, kind: &str) -> String {
        let mut l = ActionList::new();
        pos.piece_actions(sq(from), &mut l);
        let mut v: Vec<String> = l
            .iter()
            .filter(|a| a.kind() == kind)
            .map(|a| a.to().to_string())
            .collect();
        v.sort();
        v.join(" ")
    }

    /// Sorted names.
    pub fn names(s: &str) -> String {
        let mut v: Vec<&str> = s.split_whitespace().collect();
        v.sort();
        v.join(" ")
    }
}

#[cfg(test)]
#[allow(clippy::field_reassign_with_default)] // options are set one by one, for the reader
mod tests {
    use super::super::movegen::ActionList;
    use super::test_util::*;
    use super::*;
    use crate::options::LandmineRule;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn mv(from: &str, to: &str) -> Action {
        Action::Move {
            from: sq(from),
            to: sq(to),
        }
    }

    fn attack_result(step: &Step) -> Option<(AttackResult, AttackKind)> {
        step.events.iter().find_map(|e| match e {
            Event::Attack { result, kind, .. } => Some((result, kind)),
            _ => None,
        })
    }

    fn role_at(p: &Position, s: &str) -> Option<(Side, Role, bool)> {
        p.at(sq(s)).map(|x| (x.side(), x.role(), x.landed()))
    }

    #[test]
    fn lsa_apply_move_and_attack() {
        let mut p = south(&[("c4", "S major"), ("c5", "N captain"), ("d4", "N tank")]);
        let s = p.apply(mv("c4", "c5")).unwrap();
        assert_eq!(
            attack_result(&s),
            Some((AttackResult::AttackerWins, AttackKind::Plain))
        );
        assert_eq!(s.removed, 1);
        assert_eq!(role_at(&p, "c5"), Some((Side::South, Role::Major, false)));
        assert_eq!(p.at(sq("c4")), None);
        assert_eq!(
            (p.to_move(), p.plies(), p.quiet_plies()),
            (Side::North, 1, 0)
        );
        // The tank (a weapon) beats the major (an officer).
        let s = p.apply(mv("d4", "d5")).unwrap();
        assert_eq!(
            s.events.as_slice(),
            [Event::Moved {
                side: Side::North,
                from: sq("d4"),
                to: sq("d5")
            }]
        );
        assert_eq!(p.quiet_plies(), 1);
        p.apply(mv("e1", "d1")).unwrap();
        let s = p.apply(mv("d5", "c5")).unwrap();
        assert_eq!(
            attack_result(&s),
            Some((AttackResult::AttackerWins, AttackKind::Plain))
        );
        assert_eq!(role_at(&p, "c5"), Some((Side::North, Role::Tank, false)));
    }

    #[test]
    fn lsa_apply_defender_wins_and_exchange() {
        let mut p = south(&[("c4", "S captain"), ("c5", "N machine_gun")]);
        let s = p.apply(mv("c4", "c5")).unwrap();
        assert_eq!(attack_result(&s).unwrap().0, AttackResult::DefenderWins);
        assert_eq!(
            role_at(&p, "c5"),
            Some((Side::North, Role::MachineGun, false))
        );
        assert_eq!(p.at(sq("c4")), None);
        let mut p = south(&[("c4", "S bomb"), ("c5", "N general")]);
        let s = p.apply(mv("c4", "c5")).unwrap();
        assert_eq!(attack_result(&s).unwrap().0, AttackResult::BothRemoved);
        assert_eq!(s.removed, 2);
        assert!(p.at(sq("c4")).is_none() && p.at(sq("c5")).is_none());
    }

    #[test]
    fn lsa_apply_landmine_option() {
        let list = [("b3", "S colonel"), ("b2", "N landmine")];
        let mut p = south(&list);
        p.apply(mv("b3", "b2")).unwrap();
        assert_eq!(
            role_at(&p, "b2"),
            Some((Side::North, Role::Landmine, false))
        );
        let mut o = Options::default();
        o.combat.landmine = LandmineRule::BothDie;
        let mut p = build(o, Side::South, &list);
        p.apply(mv("b3", "b2")).unwrap();
        assert_eq!(p.at(sq("b2")), None);
    }

    #[test]
    fn lsa_apply_taiwan_combat_option() {
        let list = [("b3", "S general"), ("b2", "N bomb")];
        let mut p = south(&list);
        let s = p.apply(mv("b3", "b2")).unwrap();
        assert_eq!(attack_result(&s).unwrap().0, AttackResult::BothRemoved);
        let mut o = Options::default();
        o.combat.combat = super::super::combat::CombatRule::Taiwan;
        let mut p = build(o, Side::South, &list);
        let s = p.apply(mv("b3", "b2")).unwrap();
        assert_eq!(
            attack_result(&s).unwrap().0,
            AttackResult::DefenderWins,
            "T2"
        );
    }

    #[test]
    fn lsa_apply_landing_and_landing_attack() {
        let mut p = south(&[
            ("c9", "S battleship"),
            ("d9", "S cruiser"),
            ("d10", "N major"),
        ]);
        let a = Action::Land {
            from: sq("c9"),
            to: sq("c10"),
        };
        let s = p.apply(a).unwrap();
        assert_eq!(
            s.events.as_slice(),
            [Event::Landed {
                side: Side::South,
                from: sq("c9"),
                to: sq("c10")
            }]
        );
        assert_eq!(
            role_at(&p, "c10"),
            Some((Side::South, Role::Battleship, true))
        );
        assert_eq!(p.at(sq("c10")).unwrap().arm(), Arm::Land);
        p.apply(mv("e15", "d15")).unwrap();
        let s = p
            .apply(Action::Land {
                from: sq("d9"),
                to: sq("d10"),
            })
            .unwrap();
        assert_eq!(
            attack_result(&s),
            Some((AttackResult::AttackerWins, AttackKind::Landing)),
            "a landed cruiser is 旅长 to officers: beats a major"
        );
        assert_eq!(role_at(&p, "d10"), Some((Side::South, Role::Cruiser, true)));
        // A landed ship no longer sails.
        assert!(!p.is_legal(Action::Sail {
            from: sq("d10"),
            to: sq("d9")
        }));
    }

    #[test]
    fn lsa_apply_strikes_leave_the_striker_in_place() {
        let mut o = Options::default();
        o.fort_strike = FortStrike::Once;
        let mut p = build(
            o,
            Side::South,
            &[
                ("e6", "S fort"),
                ("e7", "N destroyer"),
                ("f7", "N submarine"),
            ],
        );
        let strike = |t: &str| Action::Strike {
            from: sq("e6"),
            to: sq(t),
        };
        let s = p.apply(strike("e7")).unwrap();
        assert_eq!(
            attack_result(&s),
            Some((AttackResult::AttackerWins, AttackKind::Strike))
        );
        assert_eq!(role_at(&p, "e6"), Some((Side::South, Role::Fort, false)));
        assert_eq!(p.at(sq("e7")), None);
        assert!(p.fort_struck(Side::South));
        p.apply(mv("e15", "d15")).unwrap();
        assert!(
            matches!(p.check(strike("f7")), Err(IllegalAction::NotLegal { .. })),
            "fort_strike = once"
        );
        // A gunboat that strikes a bridge piece stays at sea; a losing striker is removed.
        let mut p = south(&[("b8", "S gunboat"), ("a8", "N tank")]);
        let s = p
            .apply(Action::Strike {
                from: sq("b8"),
                to: sq("a8"),
            })
            .unwrap();
        assert_eq!(attack_result(&s).unwrap().0, AttackResult::DefenderWins);
        assert_eq!(p.at(sq("b8")), None);
        assert_eq!(role_at(&p, "a8"), Some((Side::North, Role::Tank, false)));
    }

    #[test]
    fn lsa_apply_missile_flight() {
        let mut p = south(&[("c4", "S missile"), ("c5", "S major"), ("c13", "N general")]);
        let s = p
            .apply(Action::MissileFlight {
                from: sq("c4"),
                to: sq("c13"),
            })
            .unwrap();
        assert_eq!(
            attack_result(&s),
            Some((AttackResult::BothRemoved, AttackKind::Flight))
        );
        assert!(p.at(sq("c4")).is_none() && p.at(sq("c13")).is_none());
    }

    #[test]
    fn lsa_apply_fighter_attack_and_flight() {
        let mut p = south(&[("a1", "S fighter"), ("a15", "N scout_plane")]);
        let s = p
            .apply(Action::Fly {
                from: sq("a1"),
                to: sq("a15"),
            })
            .unwrap();
        assert_eq!(attack_result(&s).unwrap().0, AttackResult::AttackerWins);
        assert_eq!(
            role_at(&p, "a15"),
            Some((Side::South, Role::Fighter, false))
        );
        let mut p = south(&[("c2", "S fighter"), ("c10", "N anti_aircraft_gun")]);
        let s = p
            .apply(Action::Fly {
                from: sq("c2"),
                to: sq("c10"),
            })
            .unwrap();
        assert_eq!(attack_result(&s).unwrap().0, AttackResult::DefenderWins);
    }

    #[test]
    fn lsa_apply_scout_look_is_private_and_aa_shoots_it_down() {
        let mut p = south(&[("i1", "S scout_plane"), ("i11", "N landed cruiser")]);
        let look = Action::Look {
            from: sq("i1"),
            at: sq("i11"),
        };
        let s = p.apply(look).unwrap();
        assert_eq!(
            s.events.as_slice(),
            [
                Event::Scout {
                    side: Side::South,
                    from: sq("i1"),
                    at: sq("i11"),
                    shot_down: false
                },
                Event::ScoutedPrivate {
                    side: Side::South,
                    at: sq("i11"),
                    role: Role::Cruiser,
                    landed: true
                }
            ]
        );
        assert!(s.events.as_slice()[0].is_public() && !s.events.as_slice()[1].is_public());
        assert_eq!((s.removed, p.quiet_plies()), (0, 1), "a quiet ply");
        assert!(p.at(sq("i1")).is_some());
        let mut p = south(&[("i1", "S scout_plane"), ("i11", "N anti_aircraft_gun")]);
        let s = p.apply(look).unwrap();
        assert!(matches!(
            s.events.as_slice()[0],
            Event::Scout {
                shot_down: true,
                ..
            }
        ));
        assert_eq!(p.at(sq("i1")), None);
        assert_eq!((s.removed, p.quiet_plies()), (1, 0));
        assert!(p.is_announced(sq("i11")), "the gun is publicly revealed");
        p.apply(mv("i11", "i12")).unwrap();
        assert!(
            !p.is_announced(sq("i11")) && !p.is_announced(sq("i12")),
            "until it moves"
        );
    }

    #[test]
    fn lsa_end_flag_captured() {
        let mut p = south(&[("c2", "S captain"), ("c1", "N flag"), ("e1", "S major")]);
        let s = p.apply(mv("c2", "c1")).unwrap();
        assert_eq!(attack_result(&s).unwrap().0, AttackResult::FlagCaptured);
        assert_eq!(
            p.status(),
            Status::Won {
                winner: Side::South,
                reason: EliminationReason::FlagCaptured
            }
        );
        assert!(s.events.iter().any(|e| e
            == Event::Eliminated {
                side: Side::North,
                reason: EliminationReason::FlagCaptured
            }));
        assert!(matches!(
            p.apply(mv("c1", "c2")),
            Err(IllegalAction::GameOver(_))
        ));
    }

    #[test]
    fn lsa_end_no_movable_pieces() {
        // North's last movable piece dies; its flag and landmine do not count.
        let v = [
            (sq("c4"), piece("S tank")),
            (sq("c5"), piece("N major")),
            (sq("c15"), piece("N flag")),
            (sq("b14"), piece("N landmine")),
        ];
        let mut p = Position::from_pieces(Options::default(), Side::South, &v).unwrap();
        p.apply(mv("c4", "c5")).unwrap();
        assert_eq!(
            p.status(),
            Status::Won {
                winner: Side::South,
                reason: EliminationReason::NoMovablePieces
            }
        );
        // An exchange that leaves neither side a movable piece: the acting side wins.
        let v = [(sq("c4"), piece("S bomb")), (sq("c5"), piece("N major"))];
        let mut p = Position::from_pieces(Options::default(), Side::South, &v).unwrap();
        p.apply(mv("c4", "c5")).unwrap();
        assert_eq!(
            p.status(),
            Status::Won {
                winner: Side::South,
                reason: EliminationReason::NoMovablePieces
            }
        );
        // The mover's own last piece dies.
        let v = [
            (sq("c4"), piece("S major")),
            (sq("c5"), piece("N tank")),
            (sq("e15"), piece("N captain")),
        ];
        let mut p = Position::from_pieces(Options::default(), Side::South, &v).unwrap();
        p.apply(mv("c4", "c5")).unwrap();
        assert_eq!(
            p.status(),
            Status::Won {
                winner: Side::North,
                reason: EliminationReason::NoMovablePieces
            }
        );
    }

    /// South's captain on b1 can move; North's only movable piece, its captain on e15, is
    /// boxed in by its own landmines and flag.
    fn blocked_list() -> Vec<(Square, Piece)> {
        vec![
            (sq("b1"), piece("S captain")),
            (sq("e15"), piece("N captain")),
            (sq("d15"), piece("N landmine")),
            (sq("f15"), piece("N landmine")),
            (sq("e14"), piece("N flag")),
        ]
    }

    #[test]
    fn lsa_end_blocked_lose() {
        let mut p =
            Position::from_pieces(Options::default(), Side::South, &blocked_list()).unwrap();
        let s = p.apply(mv("b1", "b2")).unwrap();
        assert_eq!(
            p.status(),
            Status::Won {
                winner: Side::South,
                reason: EliminationReason::Blocked
            }
        );
        assert!(matches!(
            s.events.as_slice().last(),
            Some(Event::Eliminated {
                side: Side::North,
                reason: EliminationReason::Blocked
            })
        ));
        // The game is over: `to_move` stays the side that acted (`RULES.md` §7.1), not the
        // blocked one.
        assert_eq!(p.to_move(), Side::South);
    }

    #[test]
    fn lsa_end_blocked_skip() {
        let mut o = Options::default();
        o.blocked = Blocked::Skip;
        let mut p = Position::from_pieces(o, Side::South, &blocked_list()).unwrap();
        for i in 1..=4 {
            let s = p
                .apply(mv(
                    if i % 2 == 1 { "b1" } else { "b2" },
                    if i % 2 == 1 { "b2" } else { "b1" },
                ))
                .unwrap();
            assert!(s.events.iter().any(|e| e
                == Event::Skipped {
                    side: Side::North,
                    reason: SkipReason::Blocked
                }));
            assert_eq!(
                (p.to_move(), p.skips(Side::North), p.status()),
                (Side::South, i, Status::Playing)
            );
            assert_eq!(p.plies(), i as u32, "a skip is no ply");
        }
        p.apply(mv("b1", "b2")).unwrap();
        assert_eq!(
            p.status(),
            Status::Won {
                winner: Side::South,
                reason: EliminationReason::Skips
            }
        );
    }

    #[test]
    fn lsa_end_draw_limits() {
        let mut o = Options::default();
        o.quiet_plies = NonZeroU32::new(3).unwrap();
        let mut p = build(o, Side::South, &[("b1", "S major"), ("b15", "N major")]);
        for (f, t) in [("b1", "b2"), ("b15", "b14"), ("b2", "b1")] {
            p.apply(mv(f, t)).unwrap();
        }
        assert_eq!(p.status(), Status::Drawn(DrawReason::QuietPlies));
        let mut o = Options::default();
        o.max_plies = NonZeroU32::new(2).unwrap();
        let mut p = build(o, Side::South, &[("b1", "S major"), ("b15", "N major")]);
        p.apply(mv("b1", "b2")).unwrap();
        let s = p.apply(mv("b15", "b14")).unwrap();
        assert_eq!(p.status(), Status::Drawn(DrawReason::MaxPlies));
        assert_eq!(
            s.events.as_slice().last(),
            Some(&Event::Drawn {
                reason: DrawReason::MaxPlies
            })
        );
        // Both limits at once: quiet_plies.
        o.quiet_plies = NonZeroU32::new(2).unwrap();
        let mut p = build(o, Side::South, &[("b1", "S major"), ("b15", "N major")]);
        p.apply(mv("b1", "b2")).unwrap();
        p.apply(mv("b15", "b14")).unwrap();
        assert_eq!(p.status(), Status::Drawn(DrawReason::QuietPlies));
    }

    #[test]
    fn lsa_end_marshal_loss_reveals_flag() {
        let list = [("c4", "S tank"), ("c5", "N marshal"), ("g15", "N flag")];
        let mut p = south(&list);
        let s = p.apply(mv("c4", "c5")).unwrap();
        assert!(s.events.iter().any(|e| e
            == Event::FlagRevealed {
                side: Side::North,
                at: sq("g15")
            }));
        assert!(p.flag_revealed(Side::North) && !p.flag_revealed(Side::South));
        assert!(p.is_announced(sq("g15")));
        let mut o = Options::default();
        o.reveal_flag_on_marshal_loss = false;
        let mut p = build(o, Side::South, &list);
        let s = p.apply(mv("c4", "c5")).unwrap();
        assert!(!s
            .events
            .iter()
            .any(|e| matches!(e, Event::FlagRevealed { .. })));
    }

    #[test]
    fn lsa_illegal_actions_change_nothing() {
        let p0 = south(&[
            ("c4", "S major"),
            ("c5", "N major"),
            ("c1", "S flag"),
            ("c9", "S destroyer"),
        ]);
        let cases = [
            (mv("d4", "d5"), "no piece"),
            (mv("c5", "c6"), "not yours"),
            (mv("c1", "c2"), "never acts"),
            (mv("c4", "e4"), "out of reach"),
            (
                Action::Land {
                    from: sq("c9"),
                    to: sq("c10"),
                },
                "destroyer",
            ),
            (
                Action::Fly {
                    from: sq("c4"),
                    to: sq("c6"),
                },
                "land piece",
            ),
        ];
        for (a, why) in cases {
            let mut p = p0.clone();
            let e = p.apply(a).unwrap_err();
            assert_eq!(p, p0, "{why}");
            assert!(!e.to_string().is_empty());
        }
        let mut p = p0.clone();
        assert!(matches!(
            p.apply(mv("c5", "c6")),
            Err(IllegalAction::NotYours { .. })
        ));
        assert!(matches!(
            p.apply(mv("c1", "c2")),
            Err(IllegalAction::WrongKind { .. })
        ));
        assert!(matches!(
            p.apply(mv("c4", "e4")),
            Err(IllegalAction::NotLegal { .. })
        ));
    }

    #[test]
    fn lsa_option_names() {
        for v in [CampProtects::Owner, CampProtects::Anyone] {
            assert_eq!(CampProtects::from_name(v.name()), Some(v));
        }
        for v in [FortStrike::Repeat, FortStrike::Once, FortStrike::Never] {
            assert_eq!(FortStrike::from_name(v.name()), Some(v));
        }
        assert_eq!(FortStrike::from_name("twice"), None);
        let o = Options::default();
        assert_eq!(
            (o.rail_max, o.quiet_plies.get(), o.max_plies.get()),
            (3, 100, 3000),
            "the defaults of §9"
        );
        assert_eq!(
            (o.camp_protects, o.fort_strike, o.blocked, o.piece_set),
            (
                CampProtects::Owner,
                FortStrike::Repeat,
                Blocked::Lose,
                PieceSet::Seed
            )
        );
        assert!(o.reveal_flag_on_marshal_loss);
    }

    #[test]
    fn lsa_setup_checks() {
        let o = Options::default();
        let bad = |v: &[(&str, &str)]| {
            let v: Vec<_> = v.iter().map(|&(s, p)| (sq(s), piece(p))).collect();
            Position::from_pieces(o, Side::South, &v).unwrap_err()
        };
        assert!(matches!(
            bad(&[("a1", "S major")]),
            SetupError::UnusableSquare { .. }
        ));
        assert!(matches!(
            bad(&[("c7", "S major")]),
            SetupError::UnusableSquare { .. }
        ));
        assert!(matches!(
            bad(&[("c6", "S destroyer")]),
            SetupError::UnusableSquare { .. }
        ));
        assert!(matches!(
            bad(&[("b2", "S fighter")]),
            SetupError::UnusableSquare { .. }
        ));
        assert!(matches!(
            bad(&[("d6", "S fort")]),
            SetupError::FortOffHarbour(_)
        ));
        assert!(matches!(
            bad(&[("e10", "S fort")]),
            SetupError::FortOffHarbour(_)
        ));
        assert!(matches!(
            bad(&[("b2", "S marshal"), ("b3", "S marshal")]),
            SetupError::OverCount { .. }
        ));
        assert!(matches!(
            bad(&[("b2", "S marshal"), ("b2", "N marshal")]),
            SetupError::SquareTaken(_)
        ));
        // From deployments.
        let mut rng = SmallRng::seed_from_u64(9);
        for set in PieceSet::ALL {
            let o = Options {
                piece_set: set,
                ..Options::default()
            };
            let s = Deployment::random(Side::South, set, &mut rng);
            let n = Deployment::random(Side::North, set, &mut rng);
            let p = Position::new(o, &s, &n).unwrap();
            assert_eq!(p.piece_count(Side::South), set.total());
            assert_eq!(p.piece_count(Side::North), set.total());
            assert_eq!(
                p.movable_count(Side::South),
                set.total() - 4 - (set.count(Role::Landmine) as usize - 1)
            );
            assert!(!p.legal_actions().is_empty());
            assert_eq!(p.to_move(), Side::South);
            let north_first = Options {
                first: Side::North,
                ..o
            };
            assert_eq!(
                Position::new(north_first, &s, &n).unwrap().to_move(),
                Side::North
            );
            assert!(matches!(
                Position::new(o, &n, &s),
                Err(SetupError::Deploy(
                    Side::South,
                    DeployError::WrongSide { .. }
                ))
            ));
            let other = if set == PieceSet::Seed {
                PieceSet::Taiwan
            } else {
                PieceSet::Seed
            };
            let bad = Deployment::random(Side::North, other, &mut rng);
            assert!(matches!(
                Position::new(o, &s, &bad),
                Err(SetupError::Deploy(
                    Side::North,
                    DeployError::WrongCount { .. }
                ))
            ));
        }
    }

    /// Play one random game; check every generated action applies, counts only go down, the
    /// per-piece action bound holds, and the game ends or reaches `cap` plies.
    fn random_game(seed: u64, opts: Options, cap: u32) -> Position {
        let mut rng = SmallRng::seed_from_u64(seed);
        let s = Deployment::random(Side::South, opts.piece_set, &mut rng);
        let n = Deployment::random(Side::North, opts.piece_set, &mut rng);
        let mut p = Position::new(opts, &s, &n).unwrap();
        let mut list = ActionList::new();
        let mut per_piece = PieceActionList::new();
        while !p.is_over() && p.plies() < cap {
            list.clear();
            p.legal_actions_into(&mut list);
            assert!(!list.is_empty(), "a running game has a legal action: {p:?}");
            for (sq, piece) in p.pieces() {
                per_piece.clear();
                p.piece_actions(sq, &mut per_piece);
                assert!(per_piece.len() <= super::super::movegen::role_bound(piece.role()));
            }
            let a = list[rng.gen_range(0..list.len())];
            if let (Some(d), false) = (p.at(a.to()), matches!(a, Action::Look { .. })) {
                let attacker = match (a, p.at(a.from()).unwrap().combatant()) {
                    (Action::Land { .. }, Combatant::Piece(r)) => {
                        Combatant::Landed(r.landing_ship().unwrap())
                    }
                    (_, c) => c,
                };
                assert!(
                    super::super::combat::can_meet(attacker, d.combatant()),
                    "{a}: {attacker:?} on {d:?} is a pair combat says never meets"
                );
            }
            let before = (p.piece_count(Side::South), p.piece_count(Side::North));
            let (plies, skips) = (p.plies(), p.skips(Side::South) + p.skips(Side::North));
            let step = p.apply(a).unwrap_or_else(|e| panic!("{a}: {e}\n{p:?}"));
            let after = (p.piece_count(Side::South), p.piece_count(Side::North));
            assert!(
                after.0 <= before.0 && after.1 <= before.1,
                "counts only decrease"
            );
            assert_eq!(
                before.0 + before.1 - after.0 - after.1,
                step.removed as usize
            );
            assert_eq!(p.plies(), plies + 1);
            assert!(p.skips(Side::South) + p.skips(Side::North) >= skips);
            if step.removed > 0 {
                assert_eq!(p.quiet_plies(), 0);
            }
            if !p.is_over() {
                assert!(p.movable_count(Side::South) > 0 && p.movable_count(Side::North) > 0);
            }
        }
        p
    }

    /// The sorted text of the legal actions.
    fn legal_text(p: &Position) -> Vec<String> {
        let mut v: Vec<String> = p
            .legal_actions()
            .iter()
            .map(|a| format!("{} {a}", a.kind()))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn lsa_legality_uses_public_facts_only() {
        // §4.1, §6: swapping the identities of two enemy pieces that look alike (same arm,
        // both landed or not, neither the fort on its harbour) never changes the legal actions.
        let mut rng = SmallRng::seed_from_u64(11);
        let mut checked = 0;
        for seed in 0..30 {
            let mut p = random_game(seed, Options::default(), 40 + seed as u32 * 7);
            if p.is_over() {
                continue;
            }
            let enemy = p.to_move().other();
            let public = |x: Piece| (x.arm(), x.landed(), x.role() == Role::Fort);
            let squares: Vec<Square> = p.occupied(enemy).iter().collect();
            let want = legal_text(&p);
            for _ in 0..20 {
                let a = squares[rng.gen_range(0..squares.len())];
                let b = squares[rng.gen_range(0..squares.len())];
                let (pa, pb) = (p.at(a).unwrap(), p.at(b).unwrap());
                if a == b || public(pa) != public(pb) || pa.role() == pb.role() {
                    continue;
                }
                p.cells[a.index()] = Some(pb);
                p.cells[b.index()] = Some(pa);
                assert_eq!(legal_text(&p), want, "{a} {pa:?} <-> {b} {pb:?}");
                p.cells[a.index()] = Some(pa);
                p.cells[b.index()] = Some(pb);
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn lsa_random_games_smoke() {
        let mut ended = 0;
        for seed in 0..40 {
            let mut o = Options::default();
            if seed % 2 == 1 {
                o.piece_set = PieceSet::Taiwan;
            }
            if random_game(seed, o, 3000).is_over() {
                ended += 1;
            }
        }
        assert_eq!(ended, 40, "3000 = max_plies: every game ends");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        #[test]
        fn lsa_random_games_apply_every_generated_action(
            seed in proptest::prelude::any::<u64>(),
            taiwan in proptest::prelude::any::<bool>(),
            rail_max in 0u32..5,
            anyone in proptest::prelude::any::<bool>(),
            fort in 0u8..3,
            skip in proptest::prelude::any::<bool>(),
            combat_taiwan in proptest::prelude::any::<bool>(),
            both_die in proptest::prelude::any::<bool>(),
        ) {
            let mut o = Options::default();
            o.piece_set = if taiwan { PieceSet::Taiwan } else { PieceSet::Seed };
            o.rail_max = rail_max;
            o.camp_protects = if anyone { CampProtects::Anyone } else { CampProtects::Owner };
            o.fort_strike = [FortStrike::Repeat, FortStrike::Once, FortStrike::Never][fort as usize];
            o.blocked = if skip { Blocked::Skip } else { Blocked::Lose };
            if combat_taiwan {
                o.combat.combat = super::super::combat::CombatRule::Taiwan;
            }
            if both_die {
                o.combat.landmine = LandmineRule::BothDie;
            }
            random_game(seed, o, 600);
        }
    }
}

#[cfg(test)]
mod playout {
    use super::super::movegen::ActionList;
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::collections::BTreeMap;

    /// Random playouts from random deployments: what happens in them and how fast.
    /// `cargo test -p junqi-core --release lsa_playout_stats -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn lsa_playout_stats() {
        let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
        let mut ends: BTreeMap<String, usize> = BTreeMap::new();
        let mut plies = 0u64;
        let mut list = ActionList::new();
        let t = std::time::Instant::now();
        for seed in 0..2000u64 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let o = Options {
                piece_set: if seed % 2 == 0 {
                    PieceSet::Seed
                } else {
                    PieceSet::Taiwan
                },
                ..Options::default()
            };
            let s = Deployment::random(Side::South, o.piece_set, &mut rng);
            let n = Deployment::random(Side::North, o.piece_set, &mut rng);
            let mut p = Position::new(o, &s, &n).unwrap();
            while !p.is_over() {
                list.clear();
                p.legal_actions_into(&mut list);
                let a = list[rng.gen_range(0..list.len())];
                let step = p.apply(a).unwrap();
                plies += 1;
                let attack = step
                    .events
                    .iter()
                    .any(|e| matches!(e, Event::Attack { .. }));
                *kinds
                    .entry(format!(
                        "{}{}",
                        a.kind(),
                        if attack { " (attack)" } else { "" }
                    ))
                    .or_default() += 1;
            }
            *ends.entry(format!("{:?}", p.status())).or_default() += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{plies} plies in {secs:.2} s: {:.0} plies/s",
            plies as f64 / secs
        );
        println!("{kinds:#?}\n{ends:#?}");
    }
}
