//! Bots by name, for the command line, the arena, the engine protocol and the server.

use crate::arena::BotFactory;
use crate::bot::{Bot, RandomBot};
use crate::heuristic::HeuristicBot;
use crate::search::{SearchBot, SearchConfig};
use std::sync::Arc;

/// The names of the built-in bots, weakest first.
pub fn bot_names() -> Vec<&'static str> {
    vec!["random", "heuristic", "search", "search-strong"]
}

/// The bot people meet when they do not choose one: the one-ply heuristic, far stronger than
/// random and quick enough for any server load.
pub fn default_bot() -> &'static str {
    "heuristic"
}

/// A factory for the built-in bot with this name, or `None`.
///
/// - `random`: uniformly random legal actions.
/// - `heuristic`: one ply, with believed identities.
/// - `search`: determinized alpha-beta over sampled worlds, about 100 ms a move.
/// - `search-strong`: the same with ten times the nodes, about 1 s a move.
///
/// The search levels use their own node budget when the driver passes the default
/// [`crate::Budget`], and the driver's budget otherwise.
pub fn bot_by_name(name: &str) -> Option<BotFactory> {
    match name {
        "random" => Some(Arc::new(|| Box::new(RandomBot::default()) as Box<dyn Bot>)),
        "heuristic" => Some(Arc::new(|| {
            Box::new(HeuristicBot::default()) as Box<dyn Bot>
        })),
        "search" => Some(Arc::new(|| {
            Box::new(SearchBot::new(SearchConfig::STANDARD)) as Box<dyn Bot>
        })),
        "search-strong" => Some(Arc::new(|| {
            Box::new(SearchBot::new(SearchConfig::STRONG)) as Box<dyn Bot>
        })),
        _ => None,
    }
}
