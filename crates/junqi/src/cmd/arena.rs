//! `junqi arena`: a paired match between two bots (built-in, or external engines given as
//! `cmd:<command line>`), with score, Wilson interval, Elo and forfeits.

use super::rules_args::RulesArgs;
use anyhow::{anyhow, bail, Result};
use junqi_ai::engine::parse_budget;
use junqi_ai::external::ExternalBot;
use junqi_ai::{bot_by_spec, bot_names, run_match, BotFactory, MatchConfig};
use std::time::Duration;

/// Arguments of `junqi arena`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A bot: a built-in name, or cmd:<command line> for an external engine (e.g.
    /// "cmd:junqi engine --bot random"). Give it twice; the report is from the first bot's side.
    #[arg(long = "bot", required = true)]
    bots: Vec<String>,
    /// Number of games (rounded up to even: each deal is played twice with seats swapped).
    #[arg(long, default_value_t = 100)]
    games: u64,
    #[command(flatten)]
    rules: RulesArgs,
    /// Master seed (the match is reproducible from it).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Each bot's budget per decision: iterations:N, nodes:N or ms:N.
    #[arg(long, default_value = "iterations:1000")]
    budget: String,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Limit in milliseconds on each answer of an external engine (a movetime budget adds to it).
    #[arg(long, default_value_t = 10_000)]
    time_limit_ms: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// A bot factory from a name, a tuned search bot (`search@depth=3,nodes=300000`) or
/// `cmd:<command line>`.
pub fn bot_factory(spec: &str, time_limit: Duration) -> Result<BotFactory> {
    if let Some(cmd) = spec.strip_prefix("cmd:") {
        return ExternalBot::factory(cmd, time_limit).map_err(|e| anyhow!("--bot {spec:?}: {e}"));
    }
    bot_by_spec(spec).map_err(|e| {
        anyhow!(
            "--bot {spec:?}: {e} (known: {}, search@key=value,… for a tuned search bot, or \
             cmd:<command line> for an external engine)",
            bot_names().join(", ")
        )
    })
}

/// Run the command.
pub fn run(a: Args) -> Result<()> {
    if a.bots.len() != 2 {
        bail!(
            "give exactly two bots (--bot A --bot B), got {}",
            a.bots.len()
        );
    }
    if a.threads == 0 {
        bail!("--threads must be at least 1");
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let rules = a.rules.rules()?;
    let budget = parse_budget(&a.budget).map_err(|e| anyhow!("--budget: {e}"))?;
    let limit = Duration::from_millis(a.time_limit_ms);
    let first = bot_factory(&a.bots[0], limit)?;
    let second = bot_factory(&a.bots[1], limit)?;
    let cfg = MatchConfig {
        rules,
        games: a.games,
        seed: a.seed,
        budget,
        threads: a.threads,
    };
    let report = run_match(cfg, first, second);
    if a.json {
        let mut v = report.to_json();
        v["board"] = rules.board.name().into();
        v["mode"] = rules.mode.name().into();
        v["seed"] = a.seed.into();
        println!("{v}");
    } else {
        println!(
            "board {} mode {} seed {} budget {}",
            rules.board, rules.mode, a.seed, a.budget
        );
        print!("{}", report.to_text());
    }
    Ok(())
}
