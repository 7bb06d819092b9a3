//! # junqi-core
//!
//! The rules of 军棋 (Junqi) and 四国军棋 (four-player Junqi), exactly as `docs/rules.md` has them:
//! both boards as data ([`Topology`]), every mode and rule option ([`Rules`], [`Options`]), the
//! referee's full knowledge of a game ([`Position`]) with its legal actions and its step
//! ([`Position::play`]), what each observer may see ([`Observation`]), deployments, and the
//! interchange formats (JSON, compact text, game records).
//!
//! The referee knows; everybody else observes. Bots, clients and spectators are given an
//! [`Observation`], never a [`Position`].

#![warn(missing_docs)]

pub mod bits;
pub mod combat;
pub mod deploy;
#[cfg(test)]
mod error_code_tests;
pub mod event;
pub mod explain;
pub mod json;
/// 陆海空三军棋 (board `land_sea_air`): board, pieces, combat, deployment, moves and the referee's step.
pub mod lsa;
mod movegen;
pub mod notation;
pub mod observation;
pub mod observation_json;
pub mod options;
pub mod playout;
pub mod position;
pub mod preset;
pub mod record;
pub mod referee;
pub mod role;
pub mod text;
pub mod topology;
pub mod types;

pub use deploy::{Deployment, DeploymentError};
pub use event::{
    Action, AttackResult, DrawReason, EliminationReason, Event, EventSink, Outcome, SkipReason,
};
pub use explain::MoveBlocked;
pub use json::{position_from_json, position_to_json, step_result_json};
pub use notation::{action_from_text, action_to_text};
pub use observation::{Observation, ObservedPiece, Observer};
pub use options::{Options, Rules};
pub use position::{Piece, PlacedPiece, Position, Setup, SetupError};
pub use preset::{Leaver, Preset, TableRules};
pub use record::{Entry, Game, Record, Start};
pub use referee::{ActionList, IllegalAction};
pub use role::Role;
pub use text::{position_from_text, position_to_text};
pub use topology::{Square, SquareKind, Topology};
pub use types::{BoardKind, Mode, PerSeat, Seat, SeatSet, Team, TeamMap, Teams, MAX_SEATS};
