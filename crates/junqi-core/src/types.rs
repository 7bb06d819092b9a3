//! Small shared vocabulary: boards, modes, seats.

use std::fmt;
use std::str::FromStr;

/// Which board a game is played on (RULES §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// 5 × 12, 60 squares, seats 0 South and 1 North.
    TwoPlayer,
    /// 四国: four arms around a centre, 129 squares, seats 0 South, 1 East, 2 North, 3 West.
    FourPlayer,
}

impl BoardKind {
    /// The interchange spelling: `two_player` or `four_player`.
    pub const fn name(self) -> &'static str {
        match self {
            BoardKind::TwoPlayer => "two_player",
            BoardKind::FourPlayer => "four_player",
        }
    }

    /// Number of seats.
    pub const fn seats(self) -> usize {
        match self {
            BoardKind::TwoPlayer => 2,
            BoardKind::FourPlayer => 4,
        }
    }
}

impl fmt::Display for BoardKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BoardKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "two_player" => Ok(BoardKind::TwoPlayer),
            "four_player" => Ok(BoardKind::FourPlayer),
            _ => Err(format!(
                "unknown board {s:?} (expected two_player or four_player)"
            )),
        }
    }
}

/// Visibility mode (RULES §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// 暗棋: enemy identities hidden.
    Dark,
    /// 明棋: every identity public.
    Open,
    /// 双明 (four-player only): partners see each other, enemies stay dark.
    HalfOpen,
    /// 翻棋 (two-player only): everything dealt face down and turned up during play.
    Flip,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 4] = [Mode::Dark, Mode::Open, Mode::HalfOpen, Mode::Flip];

    /// The interchange spelling.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Dark => "dark",
            Mode::Open => "open",
            Mode::HalfOpen => "half_open",
            Mode::Flip => "flip",
        }
    }

    /// Whether this mode exists on that board (half-open is four-player only, flip two-player only).
    pub const fn allowed_on(self, board: BoardKind) -> bool {
        !matches!(
            (self, board),
            (Mode::HalfOpen, BoardKind::TwoPlayer) | (Mode::Flip, BoardKind::FourPlayer)
        )
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Mode::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown mode {s:?} (expected dark, open, half_open or flip)"))
    }
}

/// A seat index: two-player 0 South, 1 North; four-player 0 South, 1 East, 2 North, 3 West.
/// In flip play a piece's seat is its colour.
pub type Seat = u8;

/// The partner of a four-player seat (South+North, East+West).
pub const fn partner(seat: Seat) -> Seat {
    seat ^ 2
}

/// The team (side) a seat belongs to: two-player, the seat itself; four-player 0 (South+North)
/// or 1 (East+West).
pub const fn team_of(board: BoardKind, seat: Seat) -> u8 {
    match board {
        BoardKind::TwoPlayer => seat,
        BoardKind::FourPlayer => seat & 1,
    }
}
