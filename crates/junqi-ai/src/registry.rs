//! Bots by name, for the command line, the arena, the engine protocol and the server.

use crate::arena::BotFactory;
use crate::bot::{Bot, Budget, RandomBot};
use crate::heuristic::HeuristicBot;
use crate::levels::Level;
use crate::search::{SearchBot, SearchConfig};
use std::sync::Arc;

/// The names of the built-in bots: the playing levels ([`level_names`]), then the bots by
/// what they are, then the frozen generations that later ones are measured against.
pub fn bot_names() -> Vec<&'static str> {
    let mut names = level_names();
    names.extend([
        "random",
        "heuristic",
        "search",
        "search-strong",
        "search-2026",
        "search-strong-2026",
        "heuristic-2026",
    ]);
    names
}

/// The ids of the playing levels people choose from (入门, 普通, 高手, 大师), weakest first.
pub fn level_names() -> Vec<&'static str> {
    Level::ALL.into_iter().map(Level::id).collect()
}

/// The bot people meet when they do not choose one: 普通 (`normal`), the default 人机 level.
pub fn default_bot() -> &'static str {
    Level::Normal.id()
}

/// A factory for the built-in bot with this name, or `None`.
///
/// - `beginner`, `normal`, `expert`, `master`: the playing levels ([`Level`]).
/// - `random`: uniformly random legal actions.
/// - `heuristic`: one ply, with believed identities.
/// - `search`: determinized alpha-beta over sampled worlds, about 100 ms a move.
/// - `search-strong`: the same with ten times the nodes, about 1 s a move.
/// - `search-2026`, `search-strong-2026`, `heuristic-2026`: those bots as they were on
///   2026-12-02, frozen ([`crate::gen2026`]).
///
/// The search levels use their own node budget when the driver passes the default
/// [`crate::Budget`], and the driver's budget otherwise.
pub fn bot_by_name(name: &str) -> Option<BotFactory> {
    if let Some(level) = Level::parse(name) {
        return Some(Arc::new(move || level.bot()));
    }
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
        "search-2026" => Some(Arc::new(crate::gen2026::search_2026)),
        "search-strong-2026" => Some(Arc::new(crate::gen2026::search_strong_2026)),
        "heuristic-2026" => Some(Arc::new(crate::gen2026::heuristic_2026)),
        _ => None,
    }
}

/// A factory for a bot named as [`bot_by_name`] takes it, or for a tuned search bot:
/// `search@depth=3,nodes=300000,hw=0.5,q=4` starts from the standard level and changes the
/// named settings (`depth`: plies of full-width search; `nodes`: the node budget per decision;
/// `hw`: weight of the heuristic's score at the root; `q`: plies of quiescence). For
/// experiments: the arena and the examples accept it wherever they take a bot's name. A level's
/// id in place of `search` starts from that level (`master@nodes=100000,cap=0`); more
/// settings: `clip`, the squash of each world's value ([`SearchConfig::clip`]), `center` (1 or 0), whether it is taken about the world's median action ([`SearchConfig::clip_center`]), `tw`, the weight of the root's tactical pricing ([`crate::threats`]), `cap`,
/// the level's wall-clock cap per decision in ms (0: none), and `blind` (1 or 0), whether the
/// enemy's replies are chosen without our identities ([`SearchConfig::blind_replies`]), and
/// `prune`, the root's racing ([`SearchConfig::prune`], 0: off), and `memory` (1 or 0), the
/// certain world's transposition table and move history ([`SearchConfig::memory`]), and
/// `chance`, flip play's chance root (identity searches per iteration, 0: off;
/// [`SearchConfig::chance`]).
pub fn bot_by_spec(spec: &str) -> Result<BotFactory, String> {
    let Some((base, settings)) = spec.split_once('@') else {
        return bot_by_name(spec).ok_or_else(|| format!("no bot named {spec:?}"));
    };
    let mut cfg = match base {
        "search" => SearchConfig::STANDARD,
        _ => Level::parse(base)
            .and_then(Level::search_config)
            .ok_or_else(|| format!("no tunable bot named {base:?}"))?,
    };
    for kv in settings.split(',') {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("{kv:?}: a setting is key=value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{k}={v}: {e}");
        match k {
            "depth" => cfg.depth = v.parse().map_err(|e| bad(&e))?,
            "nodes" => cfg.default_budget = Budget::Nodes(v.parse().map_err(|e| bad(&e))?),
            "hw" => cfg.heuristic_weight = v.parse().map_err(|e| bad(&e))?,
            "q" => cfg.quiescence = v.parse().map_err(|e| bad(&e))?,
            "clip" => cfg.clip = v.parse().map_err(|e| bad(&e))?,
            "center" => cfg.clip_center = v.parse::<u8>().map_err(|e| bad(&e))? != 0,
            "tw" => cfg.threat_weight = v.parse().map_err(|e| bad(&e))?,
            "blind" => cfg.blind_replies = v.parse::<u8>().map_err(|e| bad(&e))? != 0,
            "prune" => cfg.prune = v.parse().map_err(|e| bad(&e))?,
            "memory" => cfg.memory = v.parse::<u8>().map_err(|e| bad(&e))? != 0,
            "chance" => cfg.chance = v.parse().map_err(|e| bad(&e))?,
            "cap" => {
                let ms: u64 = v.parse().map_err(|e| bad(&e))?;
                cfg.time_cap = (ms > 0).then(|| std::time::Duration::from_millis(ms));
            }
            _ => {
                return Err(format!(
                "unknown search setting {k:?} (depth, nodes, hw, q, tw, cap, clip, center, blind, prune, memory, chance)"
            ))
            }
        }
    }
    if cfg.depth == 0 {
        return Err("depth must be at least 1".into());
    }
    // The name is shown in reports; a bot's name is `&'static str`, and a spec is parsed a
    // handful of times per process.
    cfg.name = Box::leak(spec.to_string().into_boxed_str());
    Ok(Arc::new(move || {
        Box::new(SearchBot::new(cfg)) as Box<dyn Bot>
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::{BoardKind, Mode, Observer, Position, Rules};
    use rand::SeedableRng;
    use std::time::Duration;

    /// What `docs/engine-protocol.md` ("Budgets") says our bots do with `go`'s budget: random
    /// and heuristic ignore it; the search levels take the default budget, `iterations 1000`,
    /// as "play at your own level" (their own node budget).
    #[test]
    fn budgets_mean_what_the_engine_protocol_doc_says() {
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let pos = Position::random_start(rules, &mut rng);
        let obs = pos.observe(Observer::Seat(pos.to_move()));
        assert!(obs.legal_actions.len() > 5);
        let pick = |f: &BotFactory, budget: Budget| {
            let mut bot = f();
            bot.new_game(&rules, pos.to_move(), 9);
            bot.observe(&[], &obs);
            bot.choose(&obs, budget).unwrap()
        };
        for name in ["random", "heuristic"] {
            let f = bot_by_name(name).unwrap();
            let first = pick(&f, Budget::Iterations(1));
            for b in [
                Budget::Iterations(1000),
                Budget::Iterations(1_000_000),
                Budget::Nodes(1),
                Budget::Time(Duration::from_millis(1)),
            ] {
                assert_eq!(pick(&f, b), first, "{name} with {b:?}");
            }
        }
        let search = bot_by_name("search").unwrap();
        assert_eq!(Budget::default(), Budget::Iterations(1000));
        assert_eq!(
            pick(&search, Budget::Iterations(1000)),
            pick(&search, SearchConfig::STANDARD.default_budget)
        );
        // With a level of one node, `iterations 1000` is that one node, while other iteration
        // counts are sampled worlds, which do change the choice somewhere.
        let tiny = bot_by_spec("search@nodes=1").unwrap();
        let mut differs = false;
        for seed in 0..6 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let pos = Position::random_start(rules, &mut rng);
            let obs = pos.observe(Observer::Seat(pos.to_move()));
            let pick = |budget: Budget| {
                let mut bot = tiny();
                bot.new_game(&rules, pos.to_move(), 9);
                bot.observe(&[], &obs);
                bot.choose(&obs, budget).unwrap()
            };
            let one_node = pick(Budget::Nodes(1));
            assert_eq!(pick(Budget::Iterations(1000)), one_node, "seed {seed}");
            if !differs && pick(Budget::Iterations(4)) != one_node {
                differs = true;
            }
        }
        assert!(differs, "iterations 4 never changed the choice");
    }

    #[test]
    fn specs_name_built_in_and_tuned_bots() {
        for name in bot_names() {
            assert_eq!(bot_by_spec(name).unwrap()().name(), name);
        }
        let tuned = bot_by_spec("search@depth=4,nodes=5000,hw=0.25,q=2").unwrap()();
        assert_eq!(tuned.name(), "search@depth=4,nodes=5000,hw=0.25,q=2");
        for (bad, says) in [
            ("nobody", "no bot named"),
            ("search@depth", "key=value"),
            ("search@depth=0", "at least 1"),
            ("search@nodes=lots", "nodes=lots"),
            ("search@speed=3", "unknown search setting"),
        ] {
            let e = bot_by_spec(bad)
                .err()
                .unwrap_or_else(|| panic!("{bad} accepted"));
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
