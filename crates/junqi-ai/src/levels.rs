//! The playing levels people choose from (电脑棋力): 入门, 普通, 高手, 大师. Each is an honest
//! budget and style of one bot, measured by the arena in `STRENGTH.md`:
//!
//! | level | id | what it is | budget | cap | measured think time (one core, mean / max) |
//! |---|---|---|---|---|---|
//! | 入门 | `beginner` | the one-ply heuristic | — | — | instant |
//! | 普通 | `normal` | the levels' search ([`SearchConfig::LEVEL`]) | 190 000 nodes | 160 ms | two-player 0.154 / 0.161 s, six-player 0.162 / 0.176 s |
//! | 高手 | `expert` | the levels' search | 600 000 nodes | 450 ms | two-player 0.452 / 0.455 s (one game, 19 decisions, the machine loaded by two other jobs: the cap set the time) |
//! | 大师 | `master` | the levels' search | 1 500 000 nodes | 850 ms | six-player 0.853 / 0.891 s; two-player (cap 950 ms, before the cap was checked inside a world) 0.973 / 1.048 s |
//!
//! Think times: `cargo run --release -p junqi-ai --example movetime -- master heuristic
//! six_player dark 1 1` (and `normal`, `two_player`), one game each, on the 2-core machine
//! shared with other builds: the caps, not the node budgets, set these times there.
//!
//! The levels' search is the determinized search with the root priced from what the seat
//! knows (flag safety two moves ahead, squares next to the flag held by pieces an enemy could
//! beat there, the decoy HQ, bomb squares learnt in the game, locked
//! HQ captures: [`crate::threats`]) and each sampled world's value squashed before the average
//! (see `STRENGTH.md`, "The levels' search"). Flip play samples no worlds: while pieces are
//! face down the moves are searched once and each flip over what it may turn up
//! ([`crate::search::SearchConfig::chance`]), and once every piece is up the one world is
//! searched; both by iterative deepening with a transposition table and a history of the
//! quiet moves ([`crate::search::SearchConfig::memory`]). The node budget sets the strength; the cap is a
//! wall-clock limit per decision, so that a board whose nodes cost more (a six-player node
//! costs about three two-player ones) or a slower machine stays within the level's time; with
//! the cap reached, a decision depends on the machine's speed (`master@cap=0` in the registry
//! is the level without it, for reproducible matches).
//!
//! The driver's default budget (`Budget::Iterations(1000)`) means "play at your level"; any other
//! budget given by a driver (the arena's `--budget`, the engine protocol's `go`) overrides it.

use crate::bot::{Bot, Budget};
use crate::heuristic::HeuristicBot;
use crate::search::{SearchBot, SearchConfig};
use std::time::Duration;

/// A playing level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// 入门: for people learning the game.
    Beginner,
    /// 普通: the default opponent of 人机对战.
    Normal,
    /// 高手: a club opponent.
    Expert,
    /// 大师: the strongest level for interactive play.
    Master,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Beginner, Level::Normal, Level::Expert, Level::Master];

    /// The level's id as the registry, the server and the command line name it.
    pub fn id(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Normal => "normal",
            Level::Expert => "expert",
            Level::Master => "master",
        }
    }

    /// The level's Chinese name as players know it.
    pub fn chinese(self) -> &'static str {
        match self {
            Level::Beginner => "入门",
            Level::Normal => "普通",
            Level::Expert => "高手",
            Level::Master => "大师",
        }
    }

    /// The level with this id (or Chinese name).
    pub fn parse(s: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.id() == s || l.chinese() == s)
    }

    /// The search settings of the level (`None`: 入门, which plays the one-ply heuristic).
    /// The node budget sets the strength; the wall-clock cap keeps the level within its time
    /// on boards whose nodes cost more (a six-player node costs about three two-player ones).
    pub fn search_config(self) -> Option<SearchConfig> {
        let level = |name: &'static str, nodes: u64, cap_ms: u64| SearchConfig {
            name,
            default_budget: Budget::Nodes(nodes),
            time_cap: Some(Duration::from_millis(cap_ms)),
            ..SearchConfig::LEVEL
        };
        match self {
            Level::Beginner => None,
            Level::Normal => Some(level("normal", 190_000, 160)),
            Level::Expert => Some(level("expert", 600_000, 450)),
            Level::Master => Some(level("master", 1_500_000, 850)),
        }
    }

    /// A new bot playing at this level.
    pub fn bot(self) -> Box<dyn Bot> {
        match self.search_config() {
            None => Box::new(HeuristicBot::named(self.id())),
            Some(cfg) => Box::new(SearchBot::new(cfg)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_by_id_and_by_chinese_name() {
        for l in Level::ALL {
            assert_eq!(Level::parse(l.id()), Some(l));
            assert_eq!(Level::parse(l.chinese()), Some(l));
            assert_eq!(l.bot().name(), l.id());
        }
        assert_eq!(Level::parse("grandmaster"), None);
    }
}
