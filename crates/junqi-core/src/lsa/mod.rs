//! 陆海空三军棋 (land-sea-air army chess, board `land_sea_air`): the foundations of the game of
//! `LANDSEAAIR.md`, a two-player hidden-information derivative of 军棋 with a land army, a navy
//! and an air force on a 9 × 15 board whose halves are joined by two iron bridges across a sea.
//!
//! What is here, as data and small tables, self-contained (nothing else in the crate uses it
//! yet):
//! - [`board`]: the board of §2 — square types, road and rail edges, sea and landing edges,
//!   strike squares, rail, sea and air lines, local coordinates, square names;
//! - [`pieces`]: the arms and roles of §1, their classes and strengths, the landed-ship
//!   profiles, and the piece sets `seed` (41) and `taiwan` (30);
//! - [`combat`]: the resolution rules C1–C10 of §5.2, with the Taiwanese rules T1–T4 of §5.4
//!   and the `landmine` option, and which attacker–defender pairs can ever meet (§5.3);
//!
//! What is not here yet: deployment (§3; the board already gives its squares: cities,
//! harbour, anchors, airfields, stations, local rows), movement (§4: steps, rail slides,
//! sailing, landing, flights, strikes, looks), the referee and turn order (§6–§7), rule options as a whole (§9) and the interchange
//! formats (§10).

pub mod board;
pub mod combat;
pub mod deploy;
pub mod movegen;
pub mod pieces;
pub mod position;

pub use board::{Board, Line, LineKind, Local, Side, Square, SquareSet, SquareType};
pub use combat::{can_meet, resolve, CombatOptions, CombatRule, Combatant, Outcome};
pub use deploy::{start_squares, DeployError, Deployment};
pub use movegen::{Action, ActionList, MAX_ACTIONS};
pub use pieces::{Arm, Class, LandedShip, PieceSet, Role};
pub use position::{
    AttackKind, CampProtects, Event, Events, FortStrike, IllegalAction, Options, Piece, Position,
    SetupError, Status, Step,
};
