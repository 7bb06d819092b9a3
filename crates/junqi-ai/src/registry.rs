//! Bots by name, for the command line, the arena, the engine protocol and the server.

use crate::arena::BotFactory;
use crate::bot::{Bot, Budget, RandomBot};
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

/// A factory for a bot named as [`bot_by_name`] takes it, or for a tuned search bot:
/// `search@depth=3,nodes=300000,hw=0.5,q=4` starts from the standard level and changes the
/// named settings (`depth`: plies of full-width search; `nodes`: the node budget per decision;
/// `hw`: weight of the heuristic's score at the root; `q`: plies of quiescence). For
/// experiments: the arena and the examples accept it wherever they take a bot's name.
pub fn bot_by_spec(spec: &str) -> Result<BotFactory, String> {
    let Some(settings) = spec.strip_prefix("search@") else {
        return bot_by_name(spec).ok_or_else(|| format!("no bot named {spec:?}"));
    };
    let mut cfg = SearchConfig::STANDARD;
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
            _ => {
                return Err(format!(
                    "unknown search setting {k:?} (depth, nodes, hw, q)"
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
