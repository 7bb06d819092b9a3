//! [`ExternalBot`]: a [`Bot`] played by another program that speaks the engine protocol
//! ([`crate::engine`], `docs/engine-protocol.md`) on its stdin and stdout.
//!
//! The program is started when the first game begins and kept for later games of the same bot
//! value (each then begins with `newgame`). The arena makes its bots with a factory
//! ([`ExternalBot::factory_with`]): by default a fresh bot, hence a fresh process, for every game
//! and seat ([`EngineProcess::PerGame`]), or, with [`EngineProcess::PerMatch`], bots lent from a
//! pool that outlives the games, so that one process serves game after game. Every answer is awaited with a time limit; an engine that answers with an illegal
//! action, says `error`, exits, or does not answer in time makes the call return a
//! [`BotError`] (the arena then forfeits the game and reports why), and is stopped.
//!
//! The engine's stderr is a pipe that a thread of ours reads to its end all the time, whatever
//! the engine writes there (any bytes, any amount, lines of any length), so writing to stderr
//! never blocks the engine. Nothing of it is shown, except that the last
//! [`STDERR_TAIL_LINES`] lines (each cut to [`STDERR_LINE_MAX`] bytes) are quoted in the
//! message of a failure.

mod connection;
pub mod lsa;

pub use lsa::LsaExternalBot;

use crate::arena::BotFactory;
use crate::bot::{Bot, BotError, Budget};
use crate::engine::{events_line, gameover_line, newgame_line, observation_line};
use connection::Connection;
use junqi_core::notation::action_from_text;
use junqi_core::{Action, Deployment, Event, Observation, Rules, Seat, Topology};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The default limit on each answer of an external engine (a `go` with a `movetime` budget gets
/// that time plus this much).
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

/// How many of the engine's last stderr lines are kept for error messages.
pub const STDERR_TAIL_LINES: usize = 5;

/// The longest stderr line kept, in bytes (the rest of a longer line is read and dropped).
pub const STDERR_LINE_MAX: usize = 300;

/// When the arena starts the process of an external engine (`junqi arena --engine-process`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineProcess {
    /// A fresh process for every game and seat, stopped at the end of its game (the default):
    /// nothing an engine remembers can carry over from one game to another, so a match is
    /// reproducible from its seed whatever the thread count and the engine.
    #[default]
    PerGame,
    /// Processes kept for the whole match: a process that has finished a game (or whose game was
    /// forfeited) is given a later one, which it learns of by `newgame`. One process per seat
    /// the engine plays at the same time: with one thread, one process in two-player play and
    /// two in four-player play; with T threads, at most T times that. An engine that fails is
    /// stopped, and the next game it is given starts a new process.
    PerMatch,
}

impl EngineProcess {
    /// The command-line name: `per-game` or `per-match`.
    pub fn name(self) -> &'static str {
        match self {
            EngineProcess::PerGame => "per-game",
            EngineProcess::PerMatch => "per-match",
        }
    }
}

impl fmt::Display for EngineProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for EngineProcess {
    type Err = String;

    fn from_str(s: &str) -> Result<EngineProcess, String> {
        match s {
            "per-game" => Ok(EngineProcess::PerGame),
            "per-match" => Ok(EngineProcess::PerMatch),
            _ => Err(format!(
                "unknown engine process policy {s:?} (expected per-game or per-match)"
            )),
        }
    }
}

/// Split a command line into words: white space separates, `'…'` and `"…"` quote, `\` escapes
/// the next character (outside single quotes).
pub fn split_command_line(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed ' in command line {s:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => cur.push(c),
                            None => return Err(format!("command line {s:?} ends in \\")),
                        },
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed \" in command line {s:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => cur.push(c),
                    None => return Err(format!("command line {s:?} ends in \\")),
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err("empty command line".into());
    }
    Ok(words)
}

/// A bot played by an external program over the engine protocol.
pub struct ExternalBot {
    conn: Connection,
    topo: Option<&'static Topology>,
}

impl ExternalBot {
    /// A bot that runs `command_line` (split by [`split_command_line`]; no shell is involved).
    /// Nothing is started yet.
    pub fn new(command_line: &str) -> Result<ExternalBot, String> {
        Ok(ExternalBot {
            conn: Connection::new(command_line, DEFAULT_TIME_LIMIT)?,
            topo: None,
        })
    }

    /// Set the limit on each answer (default [`DEFAULT_TIME_LIMIT`]).
    pub fn with_time_limit(mut self, limit: Duration) -> ExternalBot {
        self.conn.limit = limit;
        self
    }

    /// A factory of fresh external bots for the arena (each game starts its own process):
    /// [`ExternalBot::factory_with`] and [`EngineProcess::PerGame`].
    pub fn factory(command_line: &str, limit: Duration) -> Result<BotFactory, String> {
        ExternalBot::factory_with(command_line, limit, EngineProcess::PerGame)
    }

    /// A factory of external bots for the arena running `command_line` with answer limit
    /// `limit`. [`EngineProcess::PerGame`]: every bot is new, and its process is stopped when
    /// the bot is dropped at the end of its game. [`EngineProcess::PerMatch`]: a dropped bot goes
    /// back, process and all, to a pool that the factory's later bots are taken from; the
    /// processes are stopped when the factory and all its bots are gone (the arena: when the
    /// match is over).
    pub fn factory_with(
        command_line: &str,
        limit: Duration,
        process: EngineProcess,
    ) -> Result<BotFactory, String> {
        let line = command_line.to_string();
        ExternalBot::new(&line)?;
        let fresh = move || {
            ExternalBot::new(&line)
                .expect("checked above")
                .with_time_limit(limit)
        };
        Ok(match process {
            EngineProcess::PerGame => Arc::new(move || Box::new(fresh()) as Box<dyn Bot>),
            EngineProcess::PerMatch => {
                let lend = lender(fresh);
                Arc::new(move || Box::new(lend()) as Box<dyn Bot>)
            }
        })
    }

    /// The name the engine gave (`id name`), once started.
    pub fn engine_name(&self) -> Option<&str> {
        self.conn.engine_name.as_deref()
    }
}

impl Bot for ExternalBot {
    fn name(&self) -> String {
        self.conn.label.clone()
    }

    fn new_game(&mut self, rules: &Rules, seat: Seat, seed: u64) {
        self.topo = Some(Topology::get(rules.board, rules.middle_rail()));
        self.conn.begin(&newgame_line(rules, seat, seed));
    }

    fn deploy(&mut self) -> Result<Deployment, BotError> {
        let text = self.conn.deployment()?;
        Deployment::from_text(&text)
            .map_err(|e| self.conn.fail(format!("bad deployment {text:?}: {e}")))
    }

    fn observe(&mut self, events: &[Event], obs: &Observation) {
        let topo = obs.topology();
        let events = (!events.is_empty()).then(|| events_line(topo, events));
        let lines = events
            .into_iter()
            .chain([observation_line(obs)])
            .chain(obs.outcome.map(gameover_line));
        self.conn.tell(lines);
    }

    fn choose(&mut self, obs: &Observation, budget: Budget) -> Result<Action, BotError> {
        let text = self.conn.bestmove(budget)?;
        let topo = self.topo.unwrap_or_else(|| obs.topology());
        let action = action_from_text(topo, &text)
            .map_err(|e| self.conn.fail(format!("bad bestmove {text:?}: {e}")))?;
        if !obs.legal_actions.contains(&action) {
            return Err(self
                .conn
                .fail(format!("illegal action {text} from the engine")));
        }
        Ok(action)
    }
}

/// The bots a per-match factory keeps between games, processes and all.
type Pool<B> = Arc<Mutex<Vec<B>>>;

/// A function that lends bots: one from the pool it keeps if there is one, else `fresh()`.
/// A lent bot goes back to the pool when dropped.
fn lender<B: Send + 'static>(
    fresh: impl Fn() -> B + Send + Sync + 'static,
) -> impl Fn() -> PooledBot<B> + Send + Sync + 'static {
    let pool: Pool<B> = Arc::default();
    move || {
        let kept = pool.lock().ok().and_then(|mut p| p.pop());
        PooledBot {
            bot: Some(kept.unwrap_or_else(&fresh)),
            pool: pool.clone(),
        }
    }
}

/// An external bot lent by a per-match factory: given back to the pool, with its process,
/// when dropped (the arena drops a game's bots when the game is over).
pub(crate) struct PooledBot<B> {
    /// Always `Some` until dropped.
    bot: Option<B>,
    pool: Pool<B>,
}

impl<B> PooledBot<B> {
    fn bot(&mut self) -> &mut B {
        self.bot.as_mut().expect("a pooled bot until dropped")
    }
}

impl<B> Drop for PooledBot<B> {
    fn drop(&mut self) {
        if let (Some(bot), Ok(mut pool)) = (self.bot.take(), self.pool.lock()) {
            pool.push(bot);
        }
    }
}

impl Bot for PooledBot<ExternalBot> {
    fn name(&self) -> String {
        self.bot.as_ref().map(|b| b.name()).unwrap_or_default()
    }

    fn new_game(&mut self, rules: &Rules, seat: Seat, seed: u64) {
        self.bot().new_game(rules, seat, seed)
    }

    fn deploy(&mut self) -> Result<Deployment, BotError> {
        self.bot().deploy()
    }

    fn observe(&mut self, events: &[Event], obs: &Observation) {
        self.bot().observe(events, obs)
    }

    fn choose(&mut self, obs: &Observation, budget: Budget) -> Result<Action, BotError> {
        self.bot().choose(obs, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_process_names() {
        for p in [EngineProcess::PerGame, EngineProcess::PerMatch] {
            assert_eq!(p.name().parse::<EngineProcess>(), Ok(p));
            assert_eq!(p.to_string(), p.name());
        }
        assert_eq!(EngineProcess::default(), EngineProcess::PerGame);
        assert!("per-move".parse::<EngineProcess>().is_err());
    }

    #[test]
    fn command_lines_split() {
        assert_eq!(
            split_command_line("junqi engine --bot random").unwrap(),
            ["junqi", "engine", "--bot", "random"]
        );
        assert_eq!(
            split_command_line(r#"  a 'b c' "d \"e\"" f\ g "#).unwrap(),
            ["a", "b c", "d \"e\"", "f g"]
        );
        assert_eq!(split_command_line("''").unwrap(), [""]);
        assert!(split_command_line("   ").is_err());
        assert!(split_command_line("a 'b").is_err());
        assert!(split_command_line("a \"b").is_err());
        assert!(split_command_line("a \\").is_err());
    }

    #[test]
    fn a_missing_program_is_a_bot_error() {
        let rules =
            Rules::defaults(junqi_core::BoardKind::TwoPlayer, junqi_core::Mode::Dark).unwrap();
        let mut b = ExternalBot::new("/nonexistent/engine --x").unwrap();
        b.new_game(&rules, 0, 1);
        let e = b.deploy().unwrap_err();
        assert!(e.0.contains("cannot start"), "{e}");
    }

    #[test]
    fn a_program_that_exits_is_a_bot_error() {
        let rules =
            Rules::defaults(junqi_core::BoardKind::TwoPlayer, junqi_core::Mode::Dark).unwrap();
        let mut b = ExternalBot::new("false")
            .unwrap()
            .with_time_limit(Duration::from_secs(5));
        b.new_game(&rules, 0, 1);
        let e = b.deploy().unwrap_err();
        assert!(
            e.0.contains("stopped") || e.0.contains("cannot write"),
            "{e}"
        );
    }
}
