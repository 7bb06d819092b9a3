//! Computer players for 陆海空三军棋 (board `land_sea_air`, `LANDSEAAIR.md`).
//!
//! The game has its own position type ([`junqi_core::lsa::Position`]) and its own view
//! ([`junqi_core::lsa::View`]), so its bots implement their own trait, [`LsaBot`], shaped like
//! [`crate::Bot`]: a bot sees only its seat's view and the events that seat receives (its own
//! scout looks included, the enemy's never), and a compute [`crate::Budget`].

pub mod arena;
pub mod belief;
pub mod bot;
pub mod heuristic;
pub mod layout;
pub mod registry;
pub mod search;
pub mod threat;

pub use arena::{
    play_game, run_match, score, LsaBotFactory, LsaMatchConfig, LsaMatchGame, LsaMatchReport,
    LsaPlayed, LsaResult,
};
pub use belief::LsaBelief;
pub use bot::{LsaBot, LsaRandomBot};
pub use heuristic::LsaHeuristicBot;
pub use layout::guarded_layout;
pub use registry::{bot_by_spec, level_spec, BOT_NAMES};
pub use search::{LsaSearchBot, LsaSearchParams};
