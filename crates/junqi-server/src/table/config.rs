//! A table's settings (board, mode, options, clocks, house rules) and where a table is in its
//! life. The settings are stored as JSON with the table.

use super::game::GameRules;
use junqi_core::{Leaver, TableRules};
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
    /// What a seat's leaving for good does (RULES §10).
    pub leaver: LeaverRule,
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
            "leaver": self.leaver.name(), "private": self.private, "name": self.name,
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
            // Tables stored before the rule had three values kept `leaver_bot`.
            leaver: match v["leaver"].as_str() {
                Some(name) => LeaverRule::from_name(name)?,
                None if v["leaver_bot"].as_bool() == Some(true) => LeaverRule::Bot,
                None => LeaverRule::Abort,
            },
            private: v["private"].as_bool().unwrap_or(false),
            name: v["name"].as_str().unwrap_or("").to_string(),
            resign_ms: v["resign_ms"].as_u64().unwrap_or(RESIGN_WINDOW_MS),
        })
    }
}

/// What a seat's leaving for good does at a table (RULES §10): the referee's rule (a
/// four-player game with teams is aborted while the leaver's partner is in), a bot taking the
/// leaver's seat on every multi-seat board, or (QQ) the leaver eliminated and its partner playing
/// on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LeaverRule {
    /// The rule book's default.
    #[default]
    Abort,
    /// A bot takes the leaver's seat (server option; the record never sees a leave).
    Bot,
    /// QQ: the leaver is eliminated as after a resignation; its partner plays on.
    PartnerPlaysOn,
}

impl LeaverRule {
    /// Every value, as the API spells them.
    pub const NAMES: [&'static str; 3] = ["abort", "bot", "partner_plays_on"];

    /// The API's spelling.
    pub fn name(self) -> &'static str {
        match self {
            LeaverRule::Abort => "abort",
            LeaverRule::Bot => "bot",
            LeaverRule::PartnerPlaysOn => "partner_plays_on",
        }
    }

    /// Read the API's spelling.
    pub fn from_name(name: &str) -> Result<LeaverRule, String> {
        match name {
            "abort" => Ok(LeaverRule::Abort),
            "bot" => Ok(LeaverRule::Bot),
            "partner_plays_on" => Ok(LeaverRule::PartnerPlaysOn),
            _ => Err(format!(
                "leaver has no value {name:?} (expected one of {})",
                LeaverRule::NAMES.join(", ")
            )),
        }
    }

    /// The table rules the game's record keeps: only the QQ rule changes what the referee does
    /// with a `leave` entry (with a bot, no leave is ever recorded).
    pub fn table_rules(self) -> TableRules {
        TableRules {
            leaver: match self {
                LeaverRule::PartnerPlaysOn => Leaver::PartnerPlaysOn,
                LeaverRule::Abort | LeaverRule::Bot => Leaver::Abort,
            },
        }
    }
}

/// A preset's leaving rule as the table's (a bot is never a preset's rule).
impl From<Leaver> for LeaverRule {
    fn from(l: Leaver) -> LeaverRule {
        match l {
            Leaver::Abort => LeaverRule::Abort,
            Leaver::PartnerPlaysOn => LeaverRule::PartnerPlaysOn,
        }
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
