//! A table's settings (board, mode, options, clocks, house rules) and where a table is in its
//! life. The settings are stored as JSON with the table.

use super::game::GameRules;
use serde_json::{json, Value};

/// Resignation is refused in the first 90 s of play (RULES §10).
pub const RESIGN_WINDOW_MS: u64 = 90_000;
/// A disconnected seat has 60 s to come back (RULES §10).
pub const RETURN_WINDOW_MS: u64 = 60_000;
/// The default move clock.
pub const DEFAULT_MOVE_MS: u64 = 30_000;
/// The default deployment clock.
pub const DEFAULT_DEPLOY_MS: u64 = 180_000;

/// A table's settings.
#[derive(Clone, Debug)]
pub struct TableConfig {
    /// Board, mode and options.
    pub rules: GameRules,
    /// Move clock (0: none).
    pub move_ms: u64,
    /// Deployment clock (0: none).
    pub deploy_ms: u64,
    /// Four-player: a bot takes a leaver's seat instead of aborting the game.
    pub leaver_bot: bool,
    /// Kept out of the lobby list.
    pub private: bool,
    /// Display name.
    pub name: String,
    /// Resignation is refused for this long after play starts (RULES §10: 90 s).
    pub resign_ms: u64,
}

impl TableConfig {
    pub(crate) fn to_json(&self) -> Value {
        let r = &self.rules;
        json!({
            "board": r.board_name(), "mode": r.mode_name(), "options": r.options_json(),
            "move_ms": self.move_ms, "deploy_ms": self.deploy_ms,
            "leaver_bot": self.leaver_bot, "private": self.private, "name": self.name,
            "resign_ms": self.resign_ms,
        })
    }

    pub(crate) fn from_json(v: &Value) -> Result<TableConfig, String> {
        let rules = GameRules::parse(
            v["board"].as_str().unwrap_or(""),
            v["mode"].as_str().unwrap_or(""),
            v.get("options"),
        )?;
        Ok(TableConfig {
            rules,
            move_ms: v["move_ms"].as_u64().unwrap_or(DEFAULT_MOVE_MS),
            deploy_ms: v["deploy_ms"].as_u64().unwrap_or(DEFAULT_DEPLOY_MS),
            leaver_bot: v["leaver_bot"].as_bool().unwrap_or(false),
            private: v["private"].as_bool().unwrap_or(false),
            name: v["name"].as_str().unwrap_or("").to_string(),
            resign_ms: v["resign_ms"].as_u64().unwrap_or(RESIGN_WINDOW_MS),
        })
    }
}

/// Where a table is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Seats are being filled.
    Waiting,
    /// Seats submit layouts.
    Deploying,
    /// The game is on.
    Playing,
    /// The game is over.
    Over,
}

impl Status {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Deploying => "deploying",
            Status::Playing => "playing",
            Status::Over => "over",
        }
    }
    pub(crate) fn from_name(s: &str) -> Status {
        match s {
            "deploying" => Status::Deploying,
            "playing" => Status::Playing,
            "over" => Status::Over,
            _ => Status::Waiting,
        }
    }
}
