//! Actions, announcements (events) and outcomes (RULES §7, §11.2).

use crate::role::Role;
use crate::topology::Square;
use crate::types::{Seat, SeatSet};

/// What a seat does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Move a piece (an attack if `to` holds an enemy piece). Text form `a2-a6`.
    Move {
        /// Square the piece leaves.
        from: Square,
        /// Square it moves to or attacks.
        to: Square,
    },
    /// Turn a face-down piece up (flip play). Text form `flip b3`.
    Flip(Square),
}

/// The referee's announcement of an attack (RULES §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttackResult {
    /// The attacker survives and takes the square.
    AttackerWins,
    /// The attacker is removed; the defender stays.
    DefenderWins,
    /// Both are removed.
    BothRemoved,
    /// The defender was a flag.
    FlagCaptured,
}

impl AttackResult {
    /// Every result.
    pub const ALL: [AttackResult; 4] = [
        AttackResult::AttackerWins,
        AttackResult::DefenderWins,
        AttackResult::BothRemoved,
        AttackResult::FlagCaptured,
    ];

    /// The result with this interchange spelling.
    pub fn from_name(s: &str) -> Option<AttackResult> {
        AttackResult::ALL.into_iter().find(|r| r.name() == s)
    }

    /// The interchange spelling.
    pub const fn name(self) -> &'static str {
        match self {
            AttackResult::AttackerWins => "attacker_wins",
            AttackResult::DefenderWins => "defender_wins",
            AttackResult::BothRemoved => "both_removed",
            AttackResult::FlagCaptured => "flag_captured",
        }
    }
}

/// Why a turn was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SkipReason {
    /// The seat had movable pieces but no legal action (`blocked = skip`).
    Blocked,
    /// The seat's move clock ran out (RULES §10).
    Timeout,
}

impl SkipReason {
    /// The interchange spelling.
    pub const fn name(self) -> &'static str {
        match self {
            SkipReason::Blocked => "blocked",
            SkipReason::Timeout => "timeout",
        }
    }

    /// The reason an interchange spelling names.
    pub fn from_name(s: &str) -> Option<SkipReason> {
        [SkipReason::Blocked, SkipReason::Timeout]
            .into_iter()
            .find(|r| r.name() == s)
    }
}

/// Why a seat was eliminated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EliminationReason {
    /// Its flag was captured (or carried home).
    FlagCaptured,
    /// It has no movable piece left.
    NoMovablePieces,
    /// It had no legal action under `blocked = lose`.
    Blocked,
    /// It reached the skip limit.
    Skips,
    /// It resigned.
    Resigned,
    /// It left the table for good.
    Left,
}

impl EliminationReason {
    /// The reason with this interchange spelling.
    pub fn from_name(s: &str) -> Option<EliminationReason> {
        EliminationReason::ALL.into_iter().find(|r| r.name() == s)
    }

    /// Every reason.
    pub const ALL: [EliminationReason; 6] = [
        EliminationReason::FlagCaptured,
        EliminationReason::NoMovablePieces,
        EliminationReason::Blocked,
        EliminationReason::Skips,
        EliminationReason::Resigned,
        EliminationReason::Left,
    ];

    /// The interchange spelling.
    pub const fn name(self) -> &'static str {
        match self {
            EliminationReason::FlagCaptured => "flag_captured",
            EliminationReason::NoMovablePieces => "no_movable_pieces",
            EliminationReason::Blocked => "blocked",
            EliminationReason::Skips => "skips",
            EliminationReason::Resigned => "resigned",
            EliminationReason::Left => "left",
        }
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// `quiet_plies` plies without an attack or a flip.
    QuietPlies,
    /// `max_plies` plies in all.
    MaxPlies,
    /// Every remaining seat agreed.
    Agreement,
}

impl DrawReason {
    /// The interchange spelling.
    pub const fn name(self) -> &'static str {
        match self {
            DrawReason::QuietPlies => "quiet_plies",
            DrawReason::MaxPlies => "max_plies",
            DrawReason::Agreement => "agreement",
        }
    }
}

/// One announcement of the referee (RULES §11.2). Every event is public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A move onto an empty square.
    Move {
        /// The acting seat.
        seat: Seat,
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// An attack and its result; the pieces are not named.
    Attack {
        /// The acting seat.
        seat: Seat,
        /// Attacker's square.
        from: Square,
        /// Defender's square.
        to: Square,
        /// What happened.
        result: AttackResult,
    },
    /// A piece turned face up (flip play).
    Flip {
        /// The acting seat.
        seat: Seat,
        /// Where.
        at: Square,
        /// What it is.
        role: Role,
        /// Its colour.
        colour: u8,
    },
    /// Colours settled (flip play): the colour of seat 0 and of seat 1.
    Colours {
        /// `[c0, c1]`.
        colours: [u8; 2],
    },
    /// A flag's square, announced on its marshal's loss.
    FlagRevealed {
        /// The flag's seat (flip play: its colour).
        seat: Seat,
        /// Where it stands (or is carried).
        at: Square,
    },
    /// A defender's identity announced under `engineer_scout`.
    Scouted {
        /// Where.
        at: Square,
        /// What it is.
        role: Role,
    },
    /// A turn skipped.
    Skipped {
        /// The seat.
        seat: Seat,
        /// Why.
        reason: SkipReason,
    },
    /// A seat eliminated.
    Eliminated {
        /// The seat.
        seat: Seat,
        /// Why.
        reason: EliminationReason,
    },
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One team won.
    Win {
        /// The winning team's seats, eliminated ones included.
        winners: SeatSet,
        /// The elimination reason of the seat whose elimination completed the last losing team.
        reason: EliminationReason,
    },
    /// A draw.
    Draw {
        /// Why.
        reason: DrawReason,
    },
    /// Aborted with no winner (a four-player seat left while its partner was in the game).
    Aborted,
}

impl Outcome {
    /// The winning seats in ascending order (empty unless a win).
    pub fn winners(&self) -> Vec<Seat> {
        match self {
            Outcome::Win { winners, .. } => winners.iter().collect(),
            _ => Vec::new(),
        }
    }
}

/// Where the referee writes its announcements. `Vec<Event>` collects them; `()` drops them (for
/// fast playouts).
pub trait EventSink {
    /// Record one event.
    fn push(&mut self, e: Event);
}

impl EventSink for Vec<Event> {
    #[inline]
    fn push(&mut self, e: Event) {
        Vec::push(self, e)
    }
}

impl EventSink for () {
    #[inline(always)]
    fn push(&mut self, _: Event) {}
}
