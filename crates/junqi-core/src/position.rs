//! The referee's full knowledge of a game in progress ([`Position`]), and its unvalidated
//! counterpart ([`Setup`]) that the interchange formats read and write.

use crate::bits::{set_word, Words, WORDS};
use crate::event::Outcome;
use crate::json::object;
use crate::options::Rules;
use crate::role::Role;
use crate::topology::{Square, Topology};
use crate::types::{BoardKind, Mode, PerSeat, Seat, SeatSet, Team, MAX_SEATS};
use serde_json::{json, Map, Value};

/// A piece as the referee knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its role.
    pub role: Role,
    /// Its owning seat (flip play: its colour, 0 or 1).
    pub seat: Seat,
    /// Face down (flip play only).
    pub face_down: bool,
}

/// One square's contents, packed into 16 bits: 0 is empty; otherwise bits 0–3 hold role + 1,
/// bits 4–6 the seat (0…5), bit 7 face down, bit 8 "identity public" (announced by a flip, a
/// scout, a flag reveal or a flag's return, so that every observer may see it from then on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Cell(pub u16);

impl Cell {
    pub const EMPTY: Cell = Cell(0);
    const FACE_DOWN: u16 = 1 << 7;
    const PUBLIC: u16 = 1 << 8;

    #[inline(always)]
    pub fn new(p: Piece, public: bool) -> Cell {
        Cell(
            (p.role as u16 + 1)
                | (p.seat as u16) << 4
                | if p.face_down { Cell::FACE_DOWN } else { 0 }
                | if public { Cell::PUBLIC } else { 0 },
        )
    }
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    pub fn role(self) -> Role {
        Role::ALL[((self.0 & 15) - 1) as usize]
    }
    #[inline(always)]
    pub fn seat(self) -> Seat {
        (self.0 >> 4 & 7) as Seat
    }
    #[inline(always)]
    pub fn face_down(self) -> bool {
        self.0 & Cell::FACE_DOWN != 0
    }
    #[inline(always)]
    pub fn public(self) -> bool {
        self.0 & Cell::PUBLIC != 0
    }
    #[inline(always)]
    pub fn with_public(self) -> Cell {
        Cell(self.0 | Cell::PUBLIC)
    }
    #[inline(always)]
    pub fn turned_up(self) -> Cell {
        Cell((self.0 & !Cell::FACE_DOWN) | Cell::PUBLIC)
    }
    pub fn piece(self) -> Option<Piece> {
        (!self.is_empty()).then(|| Piece {
            role: self.role(),
            seat: self.seat(),
            face_down: self.face_down(),
        })
    }
}

/// A flag being carried under `win_by_flag = carry_home` (§9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Carry {
    /// Where the carrier stands.
    pub carrier: Square,
    /// Where the flag was captured.
    pub captured_at: Square,
}

/// Maximum number of squares on any board.
pub const MAX_SQUARES: usize = 193;

/// The referee's full knowledge: rules, every piece, whose turn, the counters. Always valid:
/// built from a [`Setup`] by [`Position::from_setup`] or by deployment, and changed only by the
/// referee's step.
#[derive(Clone)]
pub struct Position {
    pub(crate) rules: Rules,
    pub(crate) topo: &'static Topology,
    pub(crate) cells: [Cell; MAX_SQUARES],
    /// Squares held by each owner (seat, or colour in flip play), face-down pieces included.
    pub(crate) occ: PerSeat<Words>,
    /// Squares holding a flag or a landmine (pieces that never move).
    pub(crate) fixed: Words,
    /// Squares holding a face-down piece.
    pub(crate) face_down: Words,
    pub(crate) to_move: Seat,
    pub(crate) plies: u32,
    pub(crate) quiet: u32,
    pub(crate) skips: PerSeat<u8>,
    /// The eliminated seats.
    pub(crate) eliminated: SeatSet,
    pub(crate) flip_colours: Option<[u8; 2]>,
    /// Carried flags, by the flag's seat.
    pub(crate) carries: PerSeat<Option<Carry>>,
    pub(crate) outcome: Option<Outcome>,
    /// A cache, not part of the position's value (equality ignores it): for each seat, the last
    /// one-square step found proving it could act, tried first by the check of
    /// `blocked = out_at_once` after every action (see `movegen::step_still_legal`).
    pub(crate) witness: PerSeat<Option<(u8, u8)>>,
}

impl PartialEq for Position {
    fn eq(&self, o: &Position) -> bool {
        self.rules == o.rules
            && self.cells[..self.topo.len()] == o.cells[..o.topo.len()]
            && self.to_move == o.to_move
            && self.plies == o.plies
            && self.quiet == o.quiet
            && self.skips == o.skips
            && self.eliminated == o.eliminated
            && self.flip_colours == o.flip_colours
            && self.carries == o.carries
            && self.outcome == o.outcome
    }
}
impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("rules", &self.rules)
            .field(
                "pieces",
                &self
                    .pieces()
                    .map(|(s, p)| (self.topo.name(s).to_string(), p))
                    .collect::<Vec<_>>(),
            )
            .field("to_move", &self.to_move)
            .field("plies", &self.plies)
            .field("quiet", &self.quiet)
            .field("skips", &self.skips)
            .field("eliminated", &self.eliminated)
            .field("flip_colours", &self.flip_colours)
            .field("carries", &self.carries)
            .field("outcome", &self.outcome)
            .finish()
    }
}

/// One piece of a [`Setup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlacedPiece {
    /// Its square.
    pub at: Square,
    /// Its seat (flip play: colour).
    pub seat: Seat,
    /// Its role.
    pub role: Role,
    /// Face down (flip play).
    pub face_down: bool,
    /// Under `carry_home`: the seat whose flag it carries.
    pub carrying_flag_of: Option<Seat>,
}

/// An unvalidated position, as the interchange formats hold it (RULES §11.1). Turn it into a
/// [`Position`] with [`Position::from_setup`], which checks everything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Board, mode and options.
    pub rules: Rules,
    /// The seat to move.
    pub to_move: Seat,
    /// Every piece on the board.
    pub pieces: Vec<PlacedPiece>,
    /// Flip play: colours of seat 0 and seat 1, once settled.
    pub flip_colours: Option<[u8; 2]>,
    /// Plies played.
    pub plies: u32,
    /// Consecutive plies without attack or flip.
    pub quiet_plies: u32,
    /// Skips per seat (empty = all zero).
    pub skips: Vec<u32>,
    /// Eliminated seats.
    pub eliminated: Vec<Seat>,
    /// Under `carry_home`: each carried flag's seat and the square of its capture.
    pub captured_flags: Vec<(Seat, Square)>,
}

/// Why a [`Setup`] is not a valid position. Squares are held by their names on the board (e.g.
/// `c3`). [`SetupError::code`] and [`SetupError::args`] give the reason in a form clients can
/// translate (the table "Error codes" of `docs/formats.md`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The mode is not played on the board (the error of [`Rules::new`]).
    #[error(
        "mode {mode} is not played on the {board} board (half_open is played on four_player and six_player, flip on two_player only)"
    )]
    ModeNotOnBoard {
        /// The mode.
        mode: Mode,
        /// The board.
        board: BoardKind,
    },
    /// `to_move` is not a seat of the board.
    #[error("to_move {to_move} is not a seat of the {board} board (seats 0 to {})", .board.seats() - 1)]
    ToMoveNotASeat {
        /// The seat given.
        to_move: Seat,
        /// The board.
        board: BoardKind,
    },
    /// `eliminated` names a seat the board does not have.
    #[error("eliminated seat {seat} does not exist on the {board} board")]
    NoSuchEliminatedSeat {
        /// The seat given.
        seat: Seat,
        /// The board.
        board: BoardKind,
    },
    /// `eliminated` names a seat twice.
    #[error("seat {seat} is listed twice in eliminated")]
    EliminatedTwice {
        /// The seat.
        seat: Seat,
    },
    /// `skips` is neither empty nor one count per seat.
    #[error("skips must list one count per seat ({want}), got {got}")]
    SkipsLength {
        /// The number of seats.
        want: usize,
        /// The number of counts given.
        got: usize,
    },
    /// A skip count above 255.
    #[error("skips of seat {seat} is too large ({skips})")]
    SkipsTooLarge {
        /// The seat.
        seat: Seat,
        /// Its count.
        skips: u32,
    },
    /// `flip_colours` outside flip play.
    #[error("flip_colours is only for flip play")]
    FlipColoursNotFlip,
    /// `flip_colours` that are not a permutation of the two colours.
    #[error("flip_colours must be [0, 1] or [1, 0], got [{}, {}]", .colours[0], .colours[1])]
    BadFlipColours {
        /// The colours given.
        colours: [u8; 2],
    },
    /// A piece on a square index the board does not have.
    #[error("square index {index} is not on the {board} board")]
    SquareOffBoard {
        /// The index.
        index: u8,
        /// The board.
        board: BoardKind,
    },
    /// A piece of a seat the board does not have.
    #[error(
        "the piece on {square} belongs to seat {seat}, which does not exist on the {board} board"
    )]
    NoSuchSeat {
        /// The piece's square.
        square: String,
        /// Its seat.
        seat: Seat,
        /// The board.
        board: BoardKind,
    },
    /// Two pieces on one square.
    #[error("two pieces on {square}")]
    TwoPieces {
        /// The square.
        square: String,
    },
    /// A face-down piece outside flip play.
    #[error("the piece on {square} is face down, which only flip play allows")]
    FaceDownNotFlip {
        /// The piece's square.
        square: String,
    },
    /// A multi-seat seat listed as eliminated still has a piece on the board.
    #[error(
        "seat {seat} is eliminated but has a piece on {square} (an eliminated seat's pieces leave a multi-seat board)"
    )]
    EliminatedSeatHasPiece {
        /// The seat.
        seat: Seat,
        /// The piece's square.
        square: String,
    },
    /// A seat has more pieces of a role than it starts with.
    #[error("seat {seat} has more than {} {role} (the piece on {square} is one too many)", .role.count())]
    TooMany {
        /// The seat.
        seat: Seat,
        /// The role.
        role: Role,
        /// The square of the piece that is one too many.
        square: String,
    },
    /// A piece carries a flag, but the rules are not `win_by_flag = carry_home`.
    #[error("the piece on {square} carries a flag, which only win_by_flag = carry_home allows")]
    CarryNotAllowed {
        /// The carrier's square.
        square: String,
    },
    /// A piece carries the flag of a seat it may not carry (its own, its partner's, or a seat
    /// the board does not have).
    #[error("the piece on {square} cannot carry the flag of seat {flag_of}")]
    CannotCarryFlagOf {
        /// The carrier's square.
        square: String,
        /// The seat whose flag it carries.
        flag_of: Seat,
    },
    /// A piece of a role that never carries a flag (landmine, flag, bomb) carries one.
    #[error("the {role} on {square} cannot carry a flag")]
    RoleCannotCarry {
        /// The role.
        role: Role,
        /// The carrier's square.
        square: String,
    },
    /// Two pieces carry the same flag.
    #[error("the flag of seat {flag_of} is carried by two pieces")]
    FlagCarriedTwice {
        /// The seat whose flag it is.
        flag_of: Seat,
    },
    /// One piece carries two flags. Kept for completeness: [`Position::from_setup`] refuses two
    /// pieces on one square before it looks at carried flags, so it never gives this one.
    #[error("the piece on {square} carries two flags")]
    CarriesTwoFlags {
        /// The carrier's square.
        square: String,
    },
    /// A flag is both on the board and carried.
    #[error("the flag of seat {flag_of} is both on the board and carried")]
    FlagOnBoardAndCarried {
        /// The seat whose flag it is.
        flag_of: Seat,
    },
    /// A carried flag has no entry in `captured_flags`.
    #[error("captured_flags does not say where the flag of seat {flag_of} was captured")]
    CaptureSquareMissing {
        /// The seat whose flag is carried.
        flag_of: Seat,
    },
    /// `captured_flags` names a square index the board does not have.
    #[error("captured_flags names a square not on the {board} board")]
    CaptureSquareOffBoard {
        /// The index.
        index: u8,
        /// The board.
        board: BoardKind,
    },
    /// `captured_flags` lists a seat whose flag no piece carries.
    #[error("captured_flags lists seat {flag_of}, but no piece carries its flag")]
    CapturedFlagNotCarried {
        /// The seat listed.
        flag_of: Seat,
    },
    /// `captured_flags` lists a seat twice.
    #[error("captured_flags lists a seat twice")]
    CapturedFlagsTwice,
}

impl SetupError {
    /// The stable code of the reason, e.g. `setup.two_pieces`.
    pub fn code(&self) -> &'static str {
        match self {
            SetupError::ModeNotOnBoard { .. } => "setup.mode_not_on_board",
            SetupError::ToMoveNotASeat { .. } => "setup.to_move_not_a_seat",
            SetupError::NoSuchEliminatedSeat { .. } => "setup.no_such_eliminated_seat",
            SetupError::EliminatedTwice { .. } => "setup.eliminated_twice",
            SetupError::SkipsLength { .. } => "setup.skips_length",
            SetupError::SkipsTooLarge { .. } => "setup.skips_too_large",
            SetupError::FlipColoursNotFlip => "setup.flip_colours_not_flip",
            SetupError::BadFlipColours { .. } => "setup.bad_flip_colours",
            SetupError::SquareOffBoard { .. } => "setup.square_off_board",
            SetupError::NoSuchSeat { .. } => "setup.no_such_seat",
            SetupError::TwoPieces { .. } => "setup.two_pieces",
            SetupError::FaceDownNotFlip { .. } => "setup.face_down_not_flip",
            SetupError::EliminatedSeatHasPiece { .. } => "setup.eliminated_seat_has_piece",
            SetupError::TooMany { .. } => "setup.too_many",
            SetupError::CarryNotAllowed { .. } => "setup.carry_not_allowed",
            SetupError::CannotCarryFlagOf { .. } => "setup.cannot_carry_flag_of",
            SetupError::RoleCannotCarry { .. } => "setup.role_cannot_carry",
            SetupError::FlagCarriedTwice { .. } => "setup.flag_carried_twice",
            SetupError::CarriesTwoFlags { .. } => "setup.carries_two_flags",
            SetupError::FlagOnBoardAndCarried { .. } => "setup.flag_on_board_and_carried",
            SetupError::CaptureSquareMissing { .. } => "setup.capture_square_missing",
            SetupError::CaptureSquareOffBoard { .. } => "setup.capture_square_off_board",
            SetupError::CapturedFlagNotCarried { .. } => "setup.captured_flag_not_carried",
            SetupError::CapturedFlagsTwice => "setup.captured_flags_twice",
        }
    }

    /// The data of the reason as JSON: squares by name, roles by their interchange name
    /// ([`Role::name`]), boards and modes by name, seats and counts as numbers.
    pub fn args(&self) -> Map<String, Value> {
        object(match self {
            SetupError::ModeNotOnBoard { mode, board } => {
                json!({"mode": mode.name(), "board": board.name()})
            }
            SetupError::ToMoveNotASeat { to_move, board } => {
                json!({"to_move": to_move, "board": board.name(), "max": board.seats() - 1})
            }
            SetupError::NoSuchEliminatedSeat { seat, board } => {
                json!({"seat": seat, "board": board.name()})
            }
            SetupError::EliminatedTwice { seat } => json!({"seat": seat}),
            SetupError::SkipsLength { want, got } => json!({"want": want, "got": got}),
            SetupError::SkipsTooLarge { seat, skips } => json!({"seat": seat, "skips": skips}),
            SetupError::FlipColoursNotFlip | SetupError::CapturedFlagsTwice => json!({}),
            SetupError::BadFlipColours { colours } => json!({"colours": colours}),
            SetupError::SquareOffBoard { index, board }
            | SetupError::CaptureSquareOffBoard { index, board } => {
                json!({"index": index, "board": board.name()})
            }
            SetupError::NoSuchSeat {
                square,
                seat,
                board,
            } => json!({"square": square, "seat": seat, "board": board.name()}),
            SetupError::TwoPieces { square }
            | SetupError::FaceDownNotFlip { square }
            | SetupError::CarryNotAllowed { square }
            | SetupError::CarriesTwoFlags { square } => json!({"square": square}),
            SetupError::EliminatedSeatHasPiece { seat, square } => {
                json!({"seat": seat, "square": square})
            }
            SetupError::TooMany { seat, role, square } => json!({
                "seat": seat, "role": role.name(), "max": role.count(), "square": square
            }),
            SetupError::CannotCarryFlagOf { square, flag_of } => {
                json!({"square": square, "flag_of": flag_of})
            }
            SetupError::RoleCannotCarry { role, square } => {
                json!({"role": role.name(), "square": square})
            }
            SetupError::FlagCarriedTwice { flag_of }
            | SetupError::FlagOnBoardAndCarried { flag_of }
            | SetupError::CaptureSquareMissing { flag_of }
            | SetupError::CapturedFlagNotCarried { flag_of } => json!({"flag_of": flag_of}),
        })
    }
}

impl Position {
    /// Validate a setup: squares on the board, one piece per square, seats that exist, piece
    /// counts within the 25 of each seat, face-down pieces only in flip play, consistent colours,
    /// counters and carried flags.
    pub fn from_setup(s: &Setup) -> Result<Position, SetupError> {
        let (board, mode) = (s.rules.board, s.rules.mode);
        // `Rules::new` refuses only a mode that is not played on the board.
        let rules = Rules::new(board, mode, s.rules.options)
            .map_err(|_| SetupError::ModeNotOnBoard { mode, board })?;
        let topo = Topology::get(rules.board, rules.middle_rail());
        let seats = rules.seats();
        let names = |sq: Square| topo.name(sq).to_string();
        if s.to_move as usize >= seats {
            return Err(SetupError::ToMoveNotASeat {
                to_move: s.to_move,
                board,
            });
        }
        let mut eliminated = SeatSet::EMPTY;
        for &e in &s.eliminated {
            if e as usize >= seats {
                return Err(SetupError::NoSuchEliminatedSeat { seat: e, board });
            }
            if eliminated.contains(e) {
                return Err(SetupError::EliminatedTwice { seat: e });
            }
            eliminated.insert(e);
        }
        let mut skips = [0u8; MAX_SEATS];
        if !s.skips.is_empty() {
            if s.skips.len() != seats {
                return Err(SetupError::SkipsLength {
                    want: seats,
                    got: s.skips.len(),
                });
            }
            for (i, &k) in s.skips.iter().enumerate() {
                if k > 255 {
                    return Err(SetupError::SkipsTooLarge {
                        seat: i as Seat,
                        skips: k,
                    });
                }
                skips[i] = k as u8;
            }
        }
        let flip = rules.is_flip();
        match s.flip_colours {
            Some(_) if !flip => return Err(SetupError::FlipColoursNotFlip),
            Some(colours @ [a, b]) if !((a == 0 && b == 1) || (a == 1 && b == 0)) => {
                return Err(SetupError::BadFlipColours { colours })
            }
            _ => {}
        }
        let mut pos = Position {
            rules,
            topo,
            cells: [Cell::EMPTY; MAX_SQUARES],
            occ: [[0; WORDS]; MAX_SEATS],
            fixed: [0; WORDS],
            face_down: [0; WORDS],
            to_move: s.to_move,
            plies: s.plies,
            quiet: s.quiet_plies,
            skips,
            eliminated,
            flip_colours: s.flip_colours,
            carries: [None; MAX_SEATS],
            outcome: None,
            witness: [None; MAX_SEATS],
        };
        let mut counts = [[0u8; 12]; MAX_SEATS];
        for p in &s.pieces {
            if p.at.index() >= topo.len() {
                return Err(SetupError::SquareOffBoard {
                    index: p.at.0,
                    board,
                });
            }
            if p.seat as usize >= seats {
                return Err(SetupError::NoSuchSeat {
                    square: names(p.at),
                    seat: p.seat,
                    board,
                });
            }
            if !pos.cells[p.at.index()].is_empty() {
                return Err(SetupError::TwoPieces {
                    square: names(p.at),
                });
            }
            if p.face_down && !flip {
                return Err(SetupError::FaceDownNotFlip {
                    square: names(p.at),
                });
            }
            if rules.board.is_multi_seat() && eliminated.contains(p.seat) {
                return Err(SetupError::EliminatedSeatHasPiece {
                    seat: p.seat,
                    square: names(p.at),
                });
            }
            let c = &mut counts[p.seat as usize][p.role as usize];
            *c += 1;
            if *c > p.role.count() {
                return Err(SetupError::TooMany {
                    seat: p.seat,
                    role: p.role,
                    square: names(p.at),
                });
            }
            pos.put(
                p.at,
                Cell::new(
                    Piece {
                        role: p.role,
                        seat: p.seat,
                        face_down: p.face_down,
                    },
                    false,
                ),
            );
        }
        // Carried flags.
        let carry = rules.carry_home();
        for p in &s.pieces {
            let Some(f) = p.carrying_flag_of else {
                continue;
            };
            if !carry {
                return Err(SetupError::CarryNotAllowed {
                    square: names(p.at),
                });
            }
            if f as usize >= seats || rules.teams().same_team(f, p.seat) {
                return Err(SetupError::CannotCarryFlagOf {
                    square: names(p.at),
                    flag_of: f,
                });
            }
            if !p.role.is_movable() || p.role == Role::Bomb {
                // A bomb that attacks a flag is removed (§9.1), so no bomb ever carries one.
                return Err(SetupError::RoleCannotCarry {
                    role: p.role,
                    square: names(p.at),
                });
            }
            if pos.carries[f as usize].is_some() {
                return Err(SetupError::FlagCarriedTwice { flag_of: f });
            }
            if pos.carries.iter().flatten().any(|c| c.carrier == p.at) {
                return Err(SetupError::CarriesTwoFlags {
                    square: names(p.at),
                });
            }
            if counts[f as usize][Role::Flag as usize] > 0 {
                return Err(SetupError::FlagOnBoardAndCarried { flag_of: f });
            }
            let Some(&(_, at)) = s.captured_flags.iter().find(|(seat, _)| *seat == f) else {
                return Err(SetupError::CaptureSquareMissing { flag_of: f });
            };
            if at.index() >= topo.len() {
                return Err(SetupError::CaptureSquareOffBoard { index: at.0, board });
            }
            pos.carries[f as usize] = Some(Carry {
                carrier: p.at,
                captured_at: at,
            });
        }
        for &(f, _) in &s.captured_flags {
            if pos.carries.get(f as usize).and_then(|c| *c).is_none() {
                return Err(SetupError::CapturedFlagNotCarried { flag_of: f });
            }
        }
        if s.captured_flags.len() != pos.carries.iter().flatten().count() {
            return Err(SetupError::CapturedFlagsTwice);
        }
        // `to_move` may name an eliminated seat: once a game is over it stays the seat that acted
        // last, which may have eliminated itself (RULES §7.1). Such a seat has no legal action.
        Ok(pos)
    }

    /// The setup that describes this position (for the interchange formats).
    pub fn to_setup(&self) -> Setup {
        let mut pieces = Vec::new();
        for sq in self.topo.squares() {
            if let Some(p) = self.cells[sq.index()].piece() {
                let carrying_flag_of = (0..MAX_SEATS as u8)
                    .find(|&f| self.carries[f as usize].is_some_and(|c| c.carrier == sq));
                pieces.push(PlacedPiece {
                    at: sq,
                    seat: p.seat,
                    role: p.role,
                    face_down: p.face_down,
                    carrying_flag_of,
                });
            }
        }
        let seats = self.rules.seats();
        Setup {
            rules: self.rules,
            to_move: self.to_move,
            pieces,
            flip_colours: self.flip_colours,
            plies: self.plies,
            quiet_plies: self.quiet,
            skips: self.skips[..seats].iter().map(|&k| k as u32).collect(),
            eliminated: self.eliminated.iter().collect(),
            captured_flags: (0..MAX_SEATS as u8)
                .filter_map(|f| self.carries[f as usize].map(|c| (f, c.captured_at)))
                .collect(),
        }
    }

    /// An empty board under these rules, seat 0 to move (for building positions by hand).
    pub fn empty(rules: Rules) -> Position {
        Position {
            rules,
            topo: Topology::get(rules.board, rules.middle_rail()),
            cells: [Cell::EMPTY; MAX_SQUARES],
            occ: [[0; WORDS]; MAX_SEATS],
            fixed: [0; WORDS],
            face_down: [0; WORDS],
            to_move: 0,
            plies: 0,
            quiet: 0,
            skips: [0; MAX_SEATS],
            eliminated: SeatSet::EMPTY,
            flip_colours: None,
            carries: [None; MAX_SEATS],
            outcome: None,
            witness: [None; MAX_SEATS],
        }
    }

    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, c: Cell) {
        debug_assert!(self.cells[sq.index()].is_empty());
        self.cells[sq.index()] = c;
        set_word(&mut self.occ[c.seat() as usize], sq.0, true);
        if !c.role().is_movable() {
            set_word(&mut self.fixed, sq.0, true);
        }
        if c.face_down() {
            set_word(&mut self.face_down, sq.0, true);
        }
    }

    #[inline(always)]
    pub(crate) fn take(&mut self, sq: Square) -> Cell {
        let c = self.cells[sq.index()];
        debug_assert!(!c.is_empty());
        self.cells[sq.index()] = Cell::EMPTY;
        set_word(&mut self.occ[c.seat() as usize], sq.0, false);
        set_word(&mut self.fixed, sq.0, false);
        set_word(&mut self.face_down, sq.0, false);
        c
    }

    /// The rule set.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board's topology.
    pub fn topology(&self) -> &'static Topology {
        self.topo
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.cells[sq.index()].piece()
    }

    /// Whether the identity of the piece on a square has been announced to everybody (by a
    /// flip, a scout, a flag reveal or a flag's return).
    pub fn is_public(&self, sq: Square) -> bool {
        self.cells[sq.index()].public()
    }

    /// Every piece on the board with its square, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.topo
            .squares()
            .filter_map(|s| self.piece_at(s).map(|p| (s, p)))
    }

    /// The flags and landmines (the pieces that never move) with their squares, in square
    /// order: a quick way to find them without scanning the board.
    pub fn fixed_pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        crate::bits::iter_words(self.fixed)
            .filter_map(|s| self.piece_at(Square(s)).map(|p| (Square(s), p)))
    }

    /// The seat to move (after the game's end: the seat that acted last).
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Plies played.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Consecutive plies without an attack or a flip.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// A seat's skip count.
    pub fn skips(&self, seat: Seat) -> u32 {
        self.skips[seat as usize] as u32
    }

    /// Whether a seat is eliminated.
    pub fn is_eliminated(&self, seat: Seat) -> bool {
        self.eliminated.contains(seat)
    }

    /// The eliminated seats.
    pub fn eliminated(&self) -> SeatSet {
        self.eliminated
    }

    /// Flip play: colours of seat 0 and seat 1, once settled.
    pub fn flip_colours(&self) -> Option<[u8; 2]> {
        self.flip_colours
    }

    /// Under `carry_home`: the carried flag of a seat, if any.
    pub fn carried_flag(&self, seat: Seat) -> Option<Carry> {
        self.carries[seat as usize]
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    ///
    /// A position read from the interchange formats carries no outcome; one in which the seats
    /// still in the game all belong to one team is over all the same.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some() || self.teams_in_game() <= 1
    }

    /// Whether every seat of a team is eliminated.
    pub fn team_out(&self, team: Team) -> bool {
        let members = self.rules.teams().members(team);
        members.minus(self.eliminated).is_empty()
    }

    /// Number of teams with a seat still in the game.
    pub fn teams_in_game(&self) -> usize {
        let teams = self.rules.teams();
        teams.teams().filter(|&t| !self.team_out(t)).count()
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        self.rules.seats()
    }

    /// The colour (owner index of pieces) a seat plays: its own seat, or in flip play its colour
    /// once settled.
    #[inline(always)]
    pub fn colour_of(&self, seat: Seat) -> Option<u8> {
        if self.rules.mode == Mode::Flip {
            self.flip_colours.map(|c| c[seat as usize])
        } else {
            Some(seat)
        }
    }

    /// The player seat that plays a colour (flip play), or the seat itself.
    pub fn seat_of_colour(&self, colour: u8) -> Option<Seat> {
        if self.rules.mode == Mode::Flip {
            self.flip_colours
                .map(|c| if c[0] == colour { 0 } else { 1 })
        } else {
            Some(colour)
        }
    }

    /// Whether a seat still has a movable piece (RULES §7: not a flag or landmine, and not locked
    /// in an HQ; flip play counts face-down pieces of its colour too).
    pub fn has_movable_piece(&self, seat: Seat) -> bool {
        let Some(c) = self.colour_of(seat) else {
            return true;
        };
        let mut w = [0u64; WORDS];
        for (i, x) in w.iter_mut().enumerate() {
            *x = self.occ[c as usize][i] & !self.fixed[i];
            if self.rules.hq_locked() {
                *x &= !self.topo.hqs[i];
            }
        }
        w != [0; WORDS]
    }

    /// Number of landmines of an owner on the board (face-down ones included).
    pub(crate) fn landmines_of(&self, owner: u8) -> u32 {
        let o = &self.occ[owner as usize];
        let w: Words = std::array::from_fn(|i| o[i] & self.fixed[i]);
        crate::bits::iter_words(w)
            .filter(|&s| self.cells[s as usize].role() == Role::Landmine)
            .count() as u32
    }
}
