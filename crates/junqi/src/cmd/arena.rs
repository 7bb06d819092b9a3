//! `junqi arena`: a paired match between two bots (built-in, or external engines given as
//! `cmd:<command line>`), with score, Wilson interval, Elo and forfeits.

use super::rules_args::RulesArgs;
use anyhow::{anyhow, bail, Result};
use junqi_ai::engine::parse_budget;
use junqi_ai::external::{EngineProcess, ExternalBot};
use junqi_ai::{bot_by_spec, bot_names, run_match, BotFactory, MatchConfig};
use std::time::Duration;

/// Arguments of `junqi arena`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A bot: a built-in name, or cmd:<command line> for an external engine (e.g.
    /// "cmd:junqi engine --bot random"). Give it twice; the report is from the first bot's side
    /// (scored by placing with more than two teams: see docs/engine-protocol.md).
    #[arg(long = "bot", required = true)]
    bots: Vec<String>,
    /// Number of games, rounded up to whole deals: each deal is played once per team, the first
    /// bot taking each team in turn and the second every other seat (two-player and two teams:
    /// twice, sides swapped; six-player opposite: three times; free-for-all: once per seat).
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
    /// How external engines (cmd:) are started.
    ///
    /// per-game (the default): a fresh process for every game and seat, stopped when its game
    /// ends. Nothing an engine remembers can carry over from one game to the next, so the match
    /// is reproducible from --seed whatever the engine and --threads; a process start costs a
    /// few milliseconds for a native engine, little beside a game. per-match: the processes are
    /// kept for the whole match, and each is sent newgame for every game it plays (newgame
    /// abandons any game in progress); one per seat played at a time, so with --threads 1 one
    /// process (four-player: two), with T threads at most T times that. For engines that are
    /// slow to start; the engine must forget the last game at newgame.
    #[arg(long, value_enum, default_value_t = EngineProcessArg::PerGame)]
    engine_process: EngineProcessArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// `--engine-process`: the command-line face of [`EngineProcess`].
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineProcessArg {
    /// A fresh process for every game and seat.
    PerGame,
    /// Processes kept for the whole match (newgame for each game).
    PerMatch,
}

impl From<EngineProcessArg> for EngineProcess {
    fn from(a: EngineProcessArg) -> EngineProcess {
        match a {
            EngineProcessArg::PerGame => EngineProcess::PerGame,
            EngineProcessArg::PerMatch => EngineProcess::PerMatch,
        }
    }
}

/// A bot factory from a name, a tuned search bot (`search@depth=3,nodes=300000`) or
/// `cmd:<command line>` (whose processes are started as `process` says).
pub fn bot_factory(spec: &str, time_limit: Duration, process: EngineProcess) -> Result<BotFactory> {
    if let Some(cmd) = spec.strip_prefix("cmd:") {
        return ExternalBot::factory_with(cmd, time_limit, process)
            .map_err(|e| anyhow!("--bot {spec:?}: {e}"));
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
    let budget = parse_budget(&a.budget).map_err(|e| anyhow!("--budget: {e}"))?;
    let limit = Duration::from_millis(a.time_limit_ms);
    let process = EngineProcess::from(a.engine_process);
    if a.rules.board == super::lsa::BOARD {
        return super::lsa::run_arena(super::lsa::Arena {
            bots: [&a.bots[0], &a.bots[1]],
            rules: &a.rules,
            games: a.games,
            seed: a.seed,
            budget,
            budget_text: &a.budget,
            threads: a.threads,
            json: a.json,
            time_limit: limit,
            process,
        });
    }
    let rules = a.rules.rules()?;
    let first = bot_factory(&a.bots[0], limit, process)?;
    let second = bot_factory(&a.bots[1], limit, process)?;
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
        v["engine_process"] = process.name().into();
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
