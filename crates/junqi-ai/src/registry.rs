//! Bots by name, for the command line, the arena, the engine protocol and the server.

use crate::arena::BotFactory;
use crate::bot::{Bot, RandomBot};
use std::sync::Arc;

/// The names of the built-in bots, weakest first.
pub fn bot_names() -> Vec<&'static str> {
    vec!["random"]
}

/// A factory for the built-in bot with this name, or `None`.
pub fn bot_by_name(name: &str) -> Option<BotFactory> {
    match name {
        "random" => Some(Arc::new(|| Box::new(RandomBot::default()) as Box<dyn Bot>)),
        _ => None,
    }
}
