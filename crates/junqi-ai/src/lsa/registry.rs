//! The land-sea-air players by name, as the arena and the command line pick them.

use super::arena::LsaBotFactory;
use super::{LsaHeuristicBot, LsaRandomBot, LsaSearchBot, LsaSearchParams};

/// The names of the built-in land-sea-air players, weakest first.
pub const BOT_NAMES: [&str; 3] = ["random", "heuristic", "search"];

/// The player a level names, as the 军棋 levels are named (入门 beginner, 普通 normal, 高手
/// expert, 大师 master: random, heuristic, search, search), or `spec` itself.
pub fn level_spec(spec: &str) -> &str {
    match spec {
        "beginner" | "入门" => "random",
        "normal" | "普通" => "heuristic",
        "expert" | "高手" | "master" | "大师" => "search",
        s => s,
    }
}

/// A factory for the player `spec` names: `random`, `heuristic`, `search`, a level
/// ([`level_spec`]), or a tuned search player `search@key=value,…` with keys `candidates`, `depth`, `nodes` (the default
/// budget's nodes), `prior`, `guard` and `defend` (see [`LsaSearchParams`]).
pub fn bot_by_spec(spec: &str) -> Result<LsaBotFactory, String> {
    match level_spec(spec) {
        "random" => return Ok(Box::new(|| Box::new(LsaRandomBot::default()))),
        "heuristic" => return Ok(Box::new(|| Box::new(LsaHeuristicBot::default()))),
        "search" => return Ok(Box::new(|| Box::new(LsaSearchBot::default()))),
        _ => {}
    }
    let Some(settings) = spec.strip_prefix("search@") else {
        return Err(format!(
            "no land-sea-air player {spec:?} (known: {})",
            BOT_NAMES.join(", ")
        ));
    };
    let mut p = LsaSearchParams::default();
    for kv in settings.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("{kv:?} is not key=value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{k}={v}: {e}");
        match k {
            "candidates" => p.candidates = v.parse().map_err(|e| bad(&e))?,
            "depth" => p.depth = v.parse().map_err(|e| bad(&e))?,
            "nodes" => p.default_nodes = v.parse().map_err(|e| bad(&e))?,
            "prior" => p.prior = v.parse().map_err(|e| bad(&e))?,
            "guard" => p.guard = v.parse().map_err(|e| bad(&e))?,
            "defend" => p.defend = v.parse().map_err(|e| bad(&e))?,
            _ => {
                return Err(format!(
                    "no search setting {k:?} (candidates, depth, nodes, prior, guard, defend)"
                ))
            }
        }
    }
    if p.candidates < 2 {
        return Err("candidates must be at least 2".into());
    }
    Ok(Box::new(move || Box::new(LsaSearchBot::with_params(p))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_tuned_specs() {
        for n in BOT_NAMES {
            assert_eq!(bot_by_spec(n).unwrap()().name(), n);
        }
        assert_eq!(bot_by_spec("普通").unwrap()().name(), "heuristic");
        assert_eq!(bot_by_spec("master").unwrap()().name(), "search");
        assert_eq!(
            bot_by_spec("search@depth=3,candidates=4").unwrap()().name(),
            "search"
        );
        for bad in [
            "minimax",
            "search@depth",
            "search@width=3",
            "search@depth=x",
            "search@candidates=1",
        ] {
            assert!(bot_by_spec(bad).is_err(), "{bad}");
        }
        let err = bot_by_spec("nobody")
            .err()
            .expect("an unknown name is refused");
        assert!(err.contains("random, heuristic, search"), "{err}");
    }
}
