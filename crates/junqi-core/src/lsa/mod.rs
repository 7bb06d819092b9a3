//! 陆海空三军棋 (land-sea-air army chess, board `land_sea_air`): the foundations of the game of
//! `LANDSEAAIR.md`, a two-player hidden-information derivative of 军棋 with a land army, a navy
//! and an air force on a 9 × 15 board whose halves are joined by two iron bridges across a sea.
//!
//! What is here, self-contained (the rest of the crate does not use it; the `junqi` command line
//! and the land-sea-air players of `junqi-ai` do):
//! - [`board`](crate::lsa::board): the board of §2 — square types, road and rail edges, sea and landing edges,
//!   strike squares, rail, sea and air lines, local coordinates, square names;
//! - [`pieces`](crate::lsa::pieces): the arms and roles of §1, their classes and strengths, the landed-ship
//!   profiles, and the piece sets `seed` (41) and `taiwan` (30);
//! - [`combat`](crate::lsa::combat): the resolution rules C1–C10 of §5.2, with the Taiwanese rules T1–T4 of §5.4
//!   and the `landmine` option, and which attacker–defender pairs can ever meet (§5.3);
//! - [`deploy`](crate::lsa::deploy): deployment (§3) — the start squares of each role, validation of one side's
//!   layout, seeded random legal layouts;
//! - [`position`](crate::lsa::position): the referee's full state (§7, §9 options that change play) and its step
//!   [`Position::apply`](crate::lsa::Position::apply) with the events of §10.3 in a small enum, the ends of §7;
//! - [`movegen`](crate::lsa::movegen): the actions of §4 into a fixed-capacity [`ActionList`](crate::lsa::ActionList) (no heap);
//! - [`view`](crate::lsa::view): what each observer may see (§6): a seat's or a spectator's
//!   [`View`](crate::lsa::View) of the board and the events each one receives;
//! - [`notation`](crate::lsa::notation): actions in text (§10.1), resolved against a position;
//! - [`json`](crate::lsa::json): the rule options of §9, positions and views (§10.2), events
//!   (§10.3) and game-step results (`RULES.md` §11.2) as JSON;
//! - [`playout`](crate::lsa::playout): random starts, random playouts and perft;
//! - [`record`](crate::lsa::record): game records (text and JSON) with the table rules
//!   (timeouts, resignation, leaving, agreed draws, abort) and [`Game`](crate::lsa::Game), a
//!   record and its position kept in step.

pub mod board;
pub mod combat;
pub mod deploy;
pub mod json;
pub mod movegen;
pub mod notation;
pub mod pieces;
pub mod playout;
pub mod position;
pub mod record;
pub mod view;

pub use board::{Board, Line, LineKind, Local, Side, Square, SquareSet, SquareType};
pub use combat::{can_meet, resolve, CombatOptions, CombatRule, Combatant, Outcome};
pub use deploy::{start_squares, DeployError, Deployment};
pub use movegen::{Action, ActionList, Actions, PieceActionList, MAX_ACTIONS, MAX_PIECE_ACTIONS};
pub use pieces::{Arm, Class, LandedShip, PieceSet, Role, ROLES};
pub use position::{
    AttackKind, CampProtects, Concession, Event, Events, FortStrike, IllegalAction, Options, Piece,
    Position, SetupError, Status, Step,
};
pub use record::{Entry, Game, GameError, Record, Start};
pub use view::{events_for, role_visible, LookNotes, Mode, Observer, View, ViewPiece};
