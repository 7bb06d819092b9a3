//! # junqi-ai
//!
//! Computer players for Junqi: the [`Bot`] trait, bots from random to the strongest, belief
//! tracking of hidden identities, deployment generation, and the arena that measures them.
//! Bots read [`junqi_core::Observation`]s only.

#![warn(missing_docs)]

pub mod arena;
pub mod belief;
pub mod bot;
pub mod deploygen;
pub mod enemy_view;
pub mod engine;
pub mod eval;
pub mod external;
pub mod gen2026;
pub mod heuristic;
pub mod levels;
pub mod lsa;
mod memory;
pub mod registry;
pub mod search;
pub mod threats;

pub use arena::{
    deal_games, first_bot_score, game_seed, match_placings, match_seats, match_winner,
    placing_score, play_game, play_game_watched, play_match_game, run_match, BotFactory, BotTotals,
    GameResult, MatchConfig, MatchGame, MatchReport,
};
pub use bot::{Bot, BotError, Budget, RandomBot};
pub use heuristic::HeuristicBot;
pub use levels::Level;
pub use registry::{bot_by_name, bot_by_spec, bot_names, default_bot, level_names};
pub use search::{SearchBot, SearchConfig};
