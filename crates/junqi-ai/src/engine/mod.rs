//! The engine protocol: a line protocol on stdin/stdout in the spirit of UCI, through which a
//! bot plays games driven by another program (see `docs/engine-protocol.md`).
//!
//! The driver (a GUI, a server, the arena's [`crate::external::ExternalBot`]) writes commands;
//! the engine answers. Every line is one command or one answer; JSON values are written on one
//! line. A malformed or out-of-order command is answered with `error <why>` and changes nothing.
//!
//! ```text
//! driver → engine                                  engine → driver
//! junqi                                            id name … / id author … / id protocol 1 /
//!                                                  option … / junqiok
//! isready                                          readyok
//! setoption name <bot|budget> value <v>            (nothing)
//! newgame board <b> mode <m> seat <s> [seed <n>] [options <json>]
//! deploy                                           deployment <text>
//! events <json array of §11.2 events>              (nothing)
//! observation <json observation>                   (nothing)
//! go [iterations N | nodes N | movetime MS]        bestmove <action>
//! gameover <json outcome>                          (nothing)
//! quit                                             (the engine exits)
//! ```

pub mod lsa;

pub use lsa::{LsaNewGame, BOARD as LSA_BOARD};

use crate::bot::{Bot, BotError, Budget};
use crate::registry::{bot_by_name, bot_names};
use junqi_core::json::{event_from_json, event_to_json, outcome_from_json, outcome_to_json};
use junqi_core::notation::action_to_text;
use junqi_core::observation_json::observation_from_json;
use junqi_core::{
    Action, BoardKind, Event, Mode, Observation, Observer, Options, Outcome, Rules, Seat, Topology,
};
use serde_json::Value;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

/// The protocol version this module speaks (`id protocol 1`).
pub const PROTOCOL_VERSION: u32 = 1;

/// The author line of `junqi engine`.
pub const AUTHOR: &str = "the junqi project";

/// One command of the driver, parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `junqi`: identify yourself (answered with `id …`, `option …` lines and `junqiok`).
    Junqi,
    /// `isready`: answered with `readyok` once every earlier command is done.
    IsReady,
    /// `setoption name <name> value <value>`.
    SetOption {
        /// The option's name (`bot`, `budget`).
        name: String,
        /// Its new value.
        value: String,
    },
    /// `newgame board <board> mode <mode> seat <seat> [seed <n>] [options <json>]`.
    NewGame {
        /// The rules of the game.
        rules: Rules,
        /// The seat the engine plays.
        seat: Seat,
        /// A seed for the engine's randomness.
        seed: u64,
    },
    /// `newgame board land_sea_air mode <dark|open> seat <0|1> [seed <n>] [options <json>]`: a
    /// game of 陆海空三军棋 (see [`lsa`]).
    NewLsaGame(LsaNewGame),
    /// `deploy`: answer with `deployment <text>` (not in flip play).
    Deploy,
    /// `events <json array>`: the referee's announcements of one step (RULES §11.2).
    Events(Vec<Value>),
    /// `observation <json>`: the seat's observation after the events given since the last one.
    Observation(Value),
    /// `go [iterations N | nodes N | movetime MS]`: choose an action (answer `bestmove …`).
    /// Without a budget the `budget` option's value is used.
    Go(Option<Budget>),
    /// `gameover <json outcome>`: the game is over.
    GameOver(Value),
    /// `quit`: stop.
    Quit,
}

/// Split off the first word of `s` (after leading white space).
fn first_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], s[i..].trim_start()),
        None => (s, ""),
    }
}

/// A count or a seat: decimal digits only. (`u64::from_str` also takes a leading `+`, which a
/// protocol word should not: one spelling per value keeps drivers honest.)
fn parse_u64(word: &str, what: &str) -> Result<u64, String> {
    let refuse = || format!("{what} must be a non-negative integer, got {word:?}");
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refuse());
    }
    word.parse::<u64>().map_err(|_| refuse())
}

/// Parse the `seed` of `newgame`: an unsigned 64-bit integer written in decimal digits only
/// (no sign, no fraction, no exponent), 0 to 18446744073709551615.
///
/// A driver in a language whose numbers are doubles (JavaScript) must not print a seed through
/// a double: above 2^53 it is rounded, and `String(2 ** 64 - 1)` is `18446744073709552000`,
/// which is out of range. Such a seed is refused with a message naming the field and the range
/// rather than silently changed.
pub fn parse_seed(word: &str) -> Result<u64, String> {
    let refuse = || {
        format!(
            "newgame: seed must be an unsigned 64-bit decimal integer (0 to {}), got {:?}",
            u64::MAX,
            short_str(word)
        )
    };
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refuse());
    }
    word.parse::<u64>().map_err(|_| refuse())
}

fn parse_json(text: &str, what: &str) -> Result<Value, String> {
    if text.is_empty() {
        return Err(format!("{what} needs a JSON value"));
    }
    serde_json::from_str(text).map_err(|e| format!("{what}: not JSON: {e}"))
}

/// Parse a budget in the command-line form `iterations:N`, `nodes:N` or `ms:N` (also
/// `movetime:N`).
pub fn parse_budget(s: &str) -> Result<Budget, String> {
    let Some((kind, n)) = s.trim().split_once(':') else {
        return Err(format!(
            "bad budget {s:?} (expected iterations:N, nodes:N or ms:N)"
        ));
    };
    let n = parse_u64(n, "the budget")?;
    match kind {
        "iterations" => Ok(Budget::Iterations(n)),
        "nodes" => Ok(Budget::Nodes(n)),
        "ms" | "movetime" => Ok(Budget::Time(Duration::from_millis(n))),
        _ => Err(format!(
            "bad budget kind {kind:?} (expected iterations, nodes or ms)"
        )),
    }
}

/// The command-line form of a budget (`iterations:N`, `nodes:N`, `ms:N`).
pub fn budget_to_string(b: Budget) -> String {
    match b {
        Budget::Iterations(n) => format!("iterations:{n}"),
        Budget::Nodes(n) => format!("nodes:{n}"),
        Budget::Time(d) => format!("ms:{}", d.as_millis()),
    }
}

/// The arguments of `go` for a budget (`iterations N`, `nodes N`, `movetime MS`).
pub fn budget_to_go(b: Budget) -> String {
    match b {
        Budget::Iterations(n) => format!("go iterations {n}"),
        Budget::Nodes(n) => format!("go nodes {n}"),
        Budget::Time(d) => format!("go movetime {}", d.as_millis()),
    }
}

/// Parse rules from the protocol's words.
fn parse_rules(board: &str, mode: &str, options: Option<&Value>) -> Result<Rules, String> {
    let board: BoardKind = board.parse()?;
    let mode: Mode = mode.parse()?;
    let options = Options::from_json(board, mode, options).map_err(|e| format!("options: {e}"))?;
    Rules::new(board, mode, options)
}

/// The `newgame` line for these rules, seat and seed.
pub fn newgame_line(rules: &Rules, seat: Seat, seed: u64) -> String {
    let opts = rules.options.to_json(rules.board, rules.mode);
    let mut s = format!(
        "newgame board {} mode {} seat {seat} seed {seed}",
        rules.board, rules.mode
    );
    if !opts.is_empty() {
        s += &format!(" options {}", Value::Object(opts));
    }
    s
}

/// Parse one line of the driver. Empty lines are `Ok(None)`.
pub fn parse_command(line: &str) -> Result<Option<Command>, String> {
    let (word, rest) = first_word(line.trim());
    let no_args = |c: Command| {
        if rest.is_empty() {
            Ok(Some(c))
        } else {
            Err(format!("{word} takes no arguments, got {rest:?}"))
        }
    };
    match word {
        "" => Ok(None),
        "junqi" => no_args(Command::Junqi),
        "isready" => no_args(Command::IsReady),
        "deploy" => no_args(Command::Deploy),
        "quit" => no_args(Command::Quit),
        "setoption" => {
            let (kw, rest) = first_word(rest);
            if kw != "name" {
                return Err("setoption is written setoption name <name> value <value>".into());
            }
            let (name, rest) = first_word(rest);
            let (kw, value) = first_word(rest);
            if name.is_empty() || kw != "value" || value.is_empty() {
                return Err("setoption is written setoption name <name> value <value>".into());
            }
            Ok(Some(Command::SetOption {
                name: name.to_string(),
                value: value.trim().to_string(),
            }))
        }
        "newgame" => {
            let (mut board, mut mode, mut seat, mut seed, mut options) =
                (None, None, None, 0u64, None);
            let mut rest = rest;
            while !rest.is_empty() {
                let (key, r) = first_word(rest);
                if key == "options" {
                    options = Some(parse_json(r, "newgame options")?);
                    break;
                }
                let (val, r) = first_word(r);
                if val.is_empty() {
                    return Err(format!("newgame: {key} needs a value"));
                }
                match key {
                    "board" => board = Some(val),
                    "mode" => mode = Some(val),
                    "seat" => seat = Some(parse_u64(val, "seat")?),
                    "seed" => seed = parse_seed(val)?,
                    _ => return Err(format!("newgame: unknown field {key:?} (expected board, mode, seat, seed, options)")),
                }
                rest = r;
            }
            let board = board.ok_or(
                "newgame needs board <two_player|three_player|four_player|six_player|land_sea_air>",
            )?;
            let mode = mode.ok_or("newgame needs mode <dark|open|half_open|flip>")?;
            let seat = seat.ok_or("newgame needs seat <n>")?;
            if board == LSA_BOARD {
                return Ok(Some(Command::NewLsaGame(LsaNewGame::parse(
                    mode,
                    seat,
                    seed,
                    options.as_ref(),
                )?)));
            }
            let rules = parse_rules(board, mode, options.as_ref())?;
            if seat >= rules.seats() as u64 {
                return Err(format!(
                    "seat {seat} does not exist on the {} board",
                    rules.board
                ));
            }
            Ok(Some(Command::NewGame {
                rules,
                seat: seat as Seat,
                seed,
            }))
        }
        "events" => match parse_json(rest, "events")? {
            Value::Array(a) => Ok(Some(Command::Events(a))),
            other => Err(format!(
                "events must be a JSON array, got {}",
                short(&other)
            )),
        },
        "observation" => Ok(Some(Command::Observation(parse_json(rest, "observation")?))),
        "gameover" => Ok(Some(Command::GameOver(parse_json(rest, "gameover")?))),
        "go" => {
            if rest.is_empty() {
                return Ok(Some(Command::Go(None)));
            }
            let (kind, r) = first_word(rest);
            let (n, r) = first_word(r);
            if !r.is_empty() {
                return Err(format!("go: unexpected {r:?} after the budget"));
            }
            let n = parse_u64(n, &format!("go {kind}"))?;
            let b = match kind {
                "iterations" => Budget::Iterations(n),
                "nodes" => Budget::Nodes(n),
                "movetime" => Budget::Time(Duration::from_millis(n)),
                _ => {
                    return Err(format!(
                        "go: unknown budget {kind:?} (expected iterations, nodes or movetime)"
                    ))
                }
            };
            Ok(Some(Command::Go(Some(b))))
        }
        other => Err(format!("unknown command {:?}", short_str(other))),
    }
}

fn short_str(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(37).collect::<String>())
    } else {
        s.to_string()
    }
}

fn short(v: &Value) -> String {
    short_str(&v.to_string())
}

/// The `events` line for a step's announcements.
pub fn events_line(topo: &Topology, events: &[Event]) -> String {
    let a: Vec<Value> = events.iter().map(|e| event_to_json(topo, e)).collect();
    format!("events {}", Value::Array(a))
}

/// The `observation` line for an observation.
pub fn observation_line(obs: &Observation) -> String {
    format!("observation {}", obs.to_json())
}

/// The `gameover` line for an outcome.
pub fn gameover_line(outcome: Outcome) -> String {
    format!("gameover {}", outcome_to_json(Some(outcome)))
}

// ---------------------------------------------------------------------------------------------
// The engine side.

/// A game the engine is playing.
struct GameState {
    rules: Rules,
    seat: Seat,
    deployed: bool,
    events: Vec<Event>,
    obs: Option<Observation>,
}

/// The engine: one bot and the state of the game it plays. Feed it lines with
/// [`Engine::handle`]; [`serve`] does so for a reader and a writer.
pub struct Engine {
    bot: Box<dyn Bot>,
    bot_name: String,
    budget: Budget,
    game: Option<Playing>,
}

/// The game the engine plays: one of the 军棋 boards, or the land-sea-air board (which has
/// its own positions, views and bots).
enum Playing {
    Junqi(GameState),
    Lsa(lsa::LsaGame),
}

/// What the serve loop should do after a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Answer with these lines (possibly none) and go on.
    Lines(Vec<String>),
    /// Stop (after `quit`).
    Quit,
}

/// Run a bot's code, turning a panic into an error that says the bot failed.
fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        format!("the bot failed: {msg}")
    })
}

impl Engine {
    /// An engine serving `bot` (its name as registered, for `setoption name bot`).
    pub fn new(bot: Box<dyn Bot>) -> Engine {
        let bot_name = bot.name();
        Engine {
            bot,
            bot_name,
            budget: Budget::default(),
            game: None,
        }
    }

    /// Handle one line: the answer lines, or `error <why>` (and nothing changed).
    pub fn handle(&mut self, line: &str) -> Reply {
        match parse_command(line) {
            Ok(None) => Reply::Lines(Vec::new()),
            Ok(Some(Command::Quit)) => Reply::Quit,
            Ok(Some(c)) => match self.execute(c) {
                Ok(lines) => Reply::Lines(lines),
                Err(e) => Reply::Lines(vec![error_line(&e)]),
            },
            Err(e) => Reply::Lines(vec![error_line(&e)]),
        }
    }

    /// The 军棋 game being played (commands of a land-sea-air game are handled before this is
    /// asked for).
    fn game(&mut self, what: &str) -> Result<&mut GameState, String> {
        match self.game.as_mut() {
            Some(Playing::Junqi(g)) => Ok(g),
            Some(Playing::Lsa(_)) | None => Err(format!("{what} before newgame")),
        }
    }

    fn execute(&mut self, c: Command) -> Result<Vec<String>, String> {
        if let Some(Playing::Lsa(g)) = self.game.as_mut() {
            match &c {
                Command::Deploy => return g.deploy(),
                Command::Events(list) => return g.events(list),
                Command::Observation(v) => return g.observation(v),
                Command::Go(budget) => return g.go(budget.unwrap_or(self.budget)),
                _ => {}
            }
        }
        match c {
            Command::Junqi => {
                let names: Vec<&str> = bot_names();
                let mut lines = vec![
                    format!("id name {}", self.bot.name()),
                    format!("id author {AUTHOR}"),
                    format!("id protocol {PROTOCOL_VERSION}"),
                    format!(
                        "option name bot type combo default {} var {}",
                        self.bot_name,
                        names.join(" var ")
                    ),
                    format!(
                        "option name budget type string default {}",
                        budget_to_string(self.budget)
                    ),
                ];
                lines.push("junqiok".into());
                Ok(lines)
            }
            Command::IsReady => Ok(vec!["readyok".into()]),
            Command::SetOption { name, value } => match name.as_str() {
                "budget" => {
                    self.budget = parse_budget(&value)?;
                    Ok(Vec::new())
                }
                "bot" => {
                    if self.game.is_some() {
                        return Err(
                            "cannot change the bot during a game (send gameover first)".into()
                        );
                    }
                    let f = bot_by_name(&value).ok_or_else(|| {
                        format!("unknown bot {value:?} (known: {})", bot_names().join(", "))
                    })?;
                    self.bot = catch(|| f())?;
                    self.bot_name = value;
                    Ok(Vec::new())
                }
                _ => Err(format!("unknown option {name:?} (options: bot, budget)")),
            },
            Command::NewLsaGame(rules) => {
                self.game = Some(Playing::Lsa(lsa::LsaGame::start(&self.bot_name, rules)?));
                Ok(Vec::new())
            }
            Command::NewGame { rules, seat, seed } => {
                catch(|| self.bot.new_game(&rules, seat, seed))?;
                self.game = Some(Playing::Junqi(GameState {
                    rules,
                    seat,
                    deployed: false,
                    events: Vec::new(),
                    obs: None,
                }));
                Ok(Vec::new())
            }
            Command::Deploy => {
                let g = self.game("deploy")?;
                if g.rules.is_flip() {
                    return Err("flip play has no deployment".into());
                }
                if g.deployed {
                    return Err("already deployed in this game".into());
                }
                if g.obs.is_some() {
                    return Err("deploy after play started".into());
                }
                let (board, seat) = (g.rules.board, g.seat);
                let d = catch(|| self.bot.deploy())?
                    .map_err(|BotError(e)| format!("no deployment: {e}"))?;
                d.validate(board, seat)
                    .map_err(|e| format!("the bot's deployment is illegal: {e}"))?;
                self.game("deploy")?.deployed = true;
                Ok(vec![format!("deployment {d}")])
            }
            Command::Events(list) => {
                let g = self.game("events")?;
                let topo = Topology::get(g.rules.board, g.rules.middle_rail());
                let evs = list
                    .iter()
                    .enumerate()
                    .map(|(i, e)| event_from_json(topo, e).map_err(|m| format!("events[{i}]: {m}")))
                    .collect::<Result<Vec<_>, _>>()?;
                g.events.extend(evs);
                Ok(Vec::new())
            }
            Command::Observation(v) => {
                let obs = observation_from_json(&v)?;
                let g = self.game("observation")?;
                if obs.rules != g.rules {
                    return Err("observation: its rules are not the rules of this game".into());
                }
                if obs.observer != Observer::Seat(g.seat) {
                    return Err(format!(
                        "observation: it must be seat {}'s observation",
                        g.seat
                    ));
                }
                let events = std::mem::take(&mut g.events);
                let result = catch(|| self.bot.observe(&events, &obs));
                let g = self.game("observation")?;
                if let Err(e) = result {
                    g.events = events;
                    return Err(e);
                }
                g.obs = Some(obs);
                Ok(Vec::new())
            }
            Command::Go(budget) => {
                let budget = budget.unwrap_or(self.budget);
                let g = self.game("go")?;
                let seat = g.seat;
                let Some(obs) = g.obs.clone() else {
                    return Err("go before any observation".into());
                };
                if obs.outcome.is_some() {
                    return Err("go: the game is over".into());
                }
                if obs.to_move != seat {
                    return Err(format!(
                        "go: seat {} is to move, not this engine's seat {seat}",
                        obs.to_move
                    ));
                }
                if obs.legal_actions.is_empty() {
                    return Err("go: the observation lists no legal action".into());
                }
                let topo = obs.topology();
                let a: Action =
                    catch(|| self.bot.choose(&obs, budget))?.map_err(|BotError(e)| e)?;
                if !obs.legal_actions.contains(&a) {
                    return Err(format!(
                        "the bot chose {}, which is not a legal action",
                        action_to_text(topo, a)
                    ));
                }
                Ok(vec![format!("bestmove {}", action_to_text(topo, a))])
            }
            Command::GameOver(v) => {
                let o = outcome_from_json(&v).map_err(|e| format!("gameover: {e}"))?;
                if o.is_none() {
                    return Err("gameover needs an outcome, not null".into());
                }
                if self.game.take().is_none() {
                    return Err("gameover before newgame".into());
                }
                Ok(Vec::new())
            }
            Command::Quit => Ok(Vec::new()),
        }
    }
}

/// The `error` line for a message (kept on one line).
fn error_line(why: &str) -> String {
    format!("error {}", why.replace(['\n', '\r'], " "))
}

/// Serve `bot` over the protocol: read commands from `reader` until `quit` or end of input,
/// writing answers to `writer` (flushed after each command). Returns an I/O error only if
/// reading or writing fails.
pub fn serve(bot: Box<dyn Bot>, reader: impl BufRead, writer: impl Write) -> io::Result<()> {
    Engine::new(bot).serve(reader, writer)
}

impl Engine {
    /// Set the budget `go` uses when it names none (the `budget` option).
    pub fn with_budget(mut self, budget: Budget) -> Engine {
        self.budget = budget;
        self
    }

    /// Serve this engine over the protocol (see [`serve`]).
    pub fn serve(mut self, reader: impl BufRead, mut writer: impl Write) -> io::Result<()> {
        self.serve_lines(reader, &mut writer)
    }

    fn serve_lines(&mut self, reader: impl BufRead, writer: &mut impl Write) -> io::Result<()> {
        let engine = self;
        for line in reader.lines() {
            let line = match line {
                Ok(l) => l,
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    writeln!(writer, "error the line is not UTF-8")?;
                    writer.flush()?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            match engine.handle(&line) {
                Reply::Quit => break,
                Reply::Lines(lines) => {
                    for l in lines {
                        writeln!(writer, "{l}")?;
                    }
                    writer.flush()?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::RandomBot;
    use junqi_core::{Position, Teams};
    use rand::SeedableRng;
    use serde_json::json;

    fn engine() -> Engine {
        Engine::new(Box::new(RandomBot::default()))
    }

    fn lines(r: Reply) -> Vec<String> {
        match r {
            Reply::Lines(l) => l,
            Reply::Quit => vec!["<quit>".into()],
        }
    }

    fn is_error(r: Reply) -> bool {
        let l = lines(r);
        l.len() == 1 && l[0].starts_with("error ")
    }

    #[test]
    fn parses_every_command() {
        let p = |s: &str| parse_command(s).unwrap().unwrap();
        assert_eq!(p("junqi"), Command::Junqi);
        assert_eq!(p("  isready  "), Command::IsReady);
        assert_eq!(p("deploy"), Command::Deploy);
        assert_eq!(p("quit"), Command::Quit);
        assert_eq!(
            p("setoption name budget value iterations:5"),
            Command::SetOption {
                name: "budget".into(),
                value: "iterations:5".into()
            }
        );
        let Command::NewGame { rules, seat, seed } =
            p("newgame board two_player mode dark seat 1 seed 9")
        else {
            panic!()
        };
        assert_eq!(
            (rules, seat, seed),
            (
                Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap(),
                1,
                9
            )
        );
        let Command::NewGame { rules, seat, seed } = p(
            r#"newgame board four_player mode half_open seat 3 options {"landmine": "both_die"}"#,
        ) else {
            panic!()
        };
        assert_eq!(
            (rules.board, rules.mode, seat, seed),
            (BoardKind::FourPlayer, Mode::HalfOpen, 3, 0)
        );
        assert_ne!(
            rules,
            Rules::defaults(BoardKind::FourPlayer, Mode::HalfOpen).unwrap()
        );
        assert_eq!(p("events []"), Command::Events(vec![]));
        assert_eq!(
            p(r#"observation {"a": 1}"#),
            Command::Observation(json!({"a": 1}))
        );
        assert_eq!(
            p(r#"gameover {"result": "aborted"}"#),
            Command::GameOver(json!({"result": "aborted"}))
        );
        assert_eq!(p("go"), Command::Go(None));
        assert_eq!(
            p("go iterations 10"),
            Command::Go(Some(Budget::Iterations(10)))
        );
        assert_eq!(p("go nodes 7"), Command::Go(Some(Budget::Nodes(7))));
        assert_eq!(
            p("go movetime 250"),
            Command::Go(Some(Budget::Time(Duration::from_millis(250))))
        );
        assert_eq!(parse_command("   ").unwrap(), None);
    }

    #[test]
    fn malformed_commands_are_errors() {
        for bad in [
            "frobnicate",
            "junqi now",
            "isready please",
            "setoption budget iterations:5",
            "setoption name budget",
            "setoption name budget value",
            "newgame",
            "newgame board two_player mode dark",
            "newgame board two_player mode dark seat 2",
            "newgame board two_player mode half_open seat 0",
            "newgame board hex mode dark seat 0",
            "newgame board two_player mode dark seat -1",
            "newgame board two_player mode dark seat 0 colour red",
            "newgame board two_player mode dark seat 0 seed",
            "newgame board two_player mode dark seat 0 options {",
            r#"newgame board two_player mode dark seat 0 options {"nope": 1}"#,
            "events",
            "events {}",
            "events [",
            "observation",
            "observation nope",
            "gameover",
            "go iterations",
            "go iterations x",
            "go iterations 5 now",
            "go seconds 5",
            "go movetime -3",
            "go iterations +5",
            "newgame board two_player mode dark seat +0",
            "go iterations 1e3",
        ] {
            assert!(parse_command(bad).is_err(), "{bad:?} parsed");
            assert!(
                is_error(engine().handle(bad)),
                "{bad:?} not answered with error"
            );
        }
        assert!(parse_budget("iterations:5").is_ok());
        assert!(parse_budget("ms:5").is_ok());
        assert!(parse_budget("5").is_err());
        assert!(parse_budget("hours:5").is_err());
        assert!(parse_budget("nodes:x").is_err());
    }

    #[test]
    fn newgame_takes_every_board_and_the_teams_option() {
        let p = |s: &str| match parse_command(s) {
            Ok(Some(Command::NewGame { rules, seat, .. })) => Ok((rules, seat)),
            Ok(other) => panic!("{s:?} parsed as {other:?}"),
            Err(e) => Err(e),
        };
        let (r, seat) = p("newgame board three_player mode dark seat 2").unwrap();
        assert_eq!(
            (r.board, seat, r.teams().count()),
            (BoardKind::ThreePlayer, 2, 3)
        );
        let (r, seat) = p("newgame board six_player mode dark seat 5").unwrap();
        assert_eq!((r.board, seat), (BoardKind::SixPlayer, 5));
        assert_eq!(r.teams().mates(5), junqi_core::SeatSet(0b101010));
        let (r, _) =
            p(r#"newgame board six_player mode half_open seat 4 options {"teams":"opposite"}"#)
                .unwrap();
        assert_eq!((r.mode, r.options.teams), (Mode::HalfOpen, Teams::Opposite));
        assert_eq!(r.teams().mates(4), junqi_core::SeatSet(0b010010));
        let (r, _) =
            p(r#"newgame board four_player mode dark seat 3 options {"teams":"none"}"#).unwrap();
        assert_eq!(r.teams().count(), 4);
        for bad in [
            "newgame board three_player mode dark seat 3",
            "newgame board six_player mode dark seat 6",
            "newgame board three_player mode half_open seat 0",
            r#"newgame board three_player mode dark seat 0 options {"teams":"alternate"}"#,
            r#"newgame board six_player mode half_open seat 0 options {"teams":"none"}"#,
            r#"newgame board six_player mode dark seat 0 options {"teams":"pairs"}"#,
            "newgame board six_player mode flip seat 0",
        ] {
            assert!(p(bad).is_err(), "{bad:?} parsed");
            assert!(is_error(engine().handle(bad)), "{bad:?}");
        }
        assert!(parse_command("newgame mode dark seat 0")
            .unwrap_err()
            .contains("three_player"));
    }

    /// A whole six-player game (and a three-player one) through the protocol's lines: the
    /// engine gets every step's events and its observation as JSON, and its `bestmove` is
    /// always legal.
    #[test]
    fn the_engine_plays_three_and_six_player_games() {
        let mut ffa = Rules::defaults(BoardKind::SixPlayer, Mode::Dark).unwrap();
        ffa.options.teams = Teams::None;
        for rules in [
            Rules::defaults(BoardKind::ThreePlayer, Mode::Dark).unwrap(),
            Rules::defaults(BoardKind::SixPlayer, Mode::HalfOpen).unwrap(),
            ffa,
        ] {
            let seats = rules.seats() as Seat;
            let mut engines: Vec<Engine> = (0..seats)
                .map(|_| Engine::new(Box::new(crate::HeuristicBot::default())))
                .collect();
            let mut layouts = Vec::new();
            for (s, e) in engines.iter_mut().enumerate() {
                assert!(lines(e.handle(&newgame_line(&rules, s as Seat, 3))).is_empty());
                let d = lines(e.handle("deploy"));
                let text = d[0].strip_prefix("deployment ").expect("a deployment");
                layouts.push(junqi_core::Deployment::from_text(text).unwrap());
            }
            let mut pos = Position::from_deployments(rules, &layouts, 0).unwrap();
            for (s, e) in engines.iter_mut().enumerate() {
                let obs = pos.observe(Observer::Seat(s as Seat));
                assert!(lines(e.handle(&observation_line(&obs))).is_empty());
            }
            let mut ev = Vec::new();
            while !pos.is_over() && pos.plies() < 400 {
                let seat = pos.to_move();
                let answer = lines(engines[seat as usize].handle("go"));
                let text = answer[0].strip_prefix("bestmove ").expect("bestmove");
                let a = junqi_core::notation::action_from_text(pos.topology(), text).unwrap();
                ev.clear();
                pos.play(a, &mut ev).expect("a legal action");
                for (s, e) in engines.iter_mut().enumerate() {
                    if !ev.is_empty() {
                        assert!(lines(e.handle(&events_line(pos.topology(), &ev))).is_empty());
                    }
                    let obs = pos.observe(Observer::Seat(s as Seat));
                    assert!(lines(e.handle(&observation_line(&obs))).is_empty());
                }
            }
            assert!(pos.plies() > 50, "{}: {} plies", rules.board, pos.plies());
            if let Some(o) = pos.outcome() {
                for e in &mut engines {
                    assert!(lines(e.handle(&gameover_line(o))).is_empty());
                }
            }
        }
    }

    #[test]
    fn the_seed_is_a_u64_in_decimal_and_nothing_else() {
        let seed = |line: &str| match parse_command(line) {
            Ok(Some(Command::NewGame { seed, .. })) => Ok(seed),
            Ok(other) => panic!("{line:?} parsed as {other:?}"),
            Err(e) => Err(e),
        };
        let base = "newgame board two_player mode dark seat 0 seed";
        assert_eq!(seed(&format!("{base} 0")), Ok(0));
        assert_eq!(seed(&format!("{base} 007")), Ok(7));
        // Above 2^53: exact, not rounded as a double would be.
        assert_eq!(
            seed(&format!("{base} 9007199254740993")),
            Ok(9_007_199_254_740_993)
        );
        assert_eq!(seed(&format!("{base} 18446744073709551615")), Ok(u64::MAX));
        for bad in [
            "18446744073709551616", // 2^64
            "18446744073709552000", // what JavaScript prints for 2^64 - 1
            "-1",
            "+5",
            "1.5",
            "1e19",
            "1.8446744073709552e19",
            "0x10",
            "seven",
        ] {
            let e = seed(&format!("{base} {bad}")).expect_err(bad);
            assert!(
                e.contains("seed")
                    && e.contains("unsigned 64-bit decimal integer")
                    && e.contains("0 to 18446744073709551615")
                    && e.contains(bad),
                "{bad}: {e}"
            );
            let l = lines(engine().handle(&format!("{base} {bad}")));
            assert_eq!(l, vec![format!("error {e}")]);
        }
    }

    #[test]
    fn out_of_order_commands_change_nothing() {
        let mut e = engine();
        assert!(is_error(e.handle("deploy")));
        assert!(is_error(e.handle("go")));
        assert!(is_error(e.handle("events []")));
        assert!(is_error(e.handle(r#"gameover {"result":"aborted"}"#)));
        assert!(is_error(e.handle("setoption name bot value nobody")));
        assert!(is_error(e.handle("setoption name colour value red")));
        assert!(is_error(e.handle("setoption name budget value lots")));
        let l = lines(e.handle("junqi"));
        assert_eq!(l.last().unwrap(), "junqiok");
        assert!(l.contains(&"id protocol 1".to_string()));
        assert_eq!(
            lines(e.handle("newgame board two_player mode flip seat 0")),
            Vec::<String>::new()
        );
        assert!(is_error(e.handle("deploy")), "flip has no deployment");
        assert!(is_error(e.handle("go")), "go before an observation");
        assert!(
            is_error(e.handle("setoption name bot value random")),
            "bot change mid-game"
        );
        assert_eq!(
            lines(e.handle("newgame board two_player mode dark seat 1")),
            Vec::<String>::new()
        );
        let d = lines(e.handle("deploy"));
        assert!(d[0].starts_with("deployment "), "{d:?}");
        assert!(is_error(e.handle("deploy")), "deploy twice");
        // An observation of the wrong seat, or the wrong rules, is refused.
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let pos = Position::random_start(rules, &mut rng);
        assert!(is_error(
            e.handle(&observation_line(&pos.observe(Observer::Seat(0))))
        ));
        let open = Position::random_start(
            Rules::defaults(BoardKind::TwoPlayer, Mode::Open).unwrap(),
            &mut rng,
        );
        assert!(is_error(
            e.handle(&observation_line(&open.observe(Observer::Seat(1))))
        ));
        assert!(is_error(e.handle(r#"events [{"kind": "move"}]"#)));
        // Seat 1's observation while seat 0 moves: go is refused; bestmove once it is its turn.
        assert!(lines(e.handle(&observation_line(&pos.observe(Observer::Seat(1))))).is_empty());
        assert!(is_error(e.handle("go")));
        let mut pos = pos;
        let a = pos.legal_actions()[0];
        let mut ev = Vec::new();
        pos.play(a, &mut ev).unwrap();
        assert!(lines(e.handle(&events_line(pos.topology(), &ev))).is_empty());
        let obs = pos.observe(Observer::Seat(1));
        assert!(lines(e.handle(&observation_line(&obs))).is_empty());
        let l = lines(e.handle("go iterations 3"));
        assert!(l[0].starts_with("bestmove "), "{l:?}");
        let chosen = junqi_core::notation::action_from_text(
            pos.topology(),
            l[0].trim_start_matches("bestmove "),
        )
        .unwrap();
        assert!(obs.legal_actions.contains(&chosen));
        assert!(is_error(e.handle(r#"gameover null"#)));
        assert!(lines(e.handle(r#"gameover {"result":"draw","reason":"agreement"}"#)).is_empty());
        assert!(is_error(e.handle("go")), "no game any more");
        assert_eq!(lines(e.handle("quit")), vec!["<quit>".to_string()]);
    }

    #[test]
    fn observations_round_trip() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let with_teams = |board, mode, teams| {
            let mut r = Rules::defaults(board, mode).unwrap();
            r.options.teams = teams;
            Rules::new(board, mode, r.options).unwrap()
        };
        for rules in [
            Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap(),
            Rules::defaults(BoardKind::TwoPlayer, Mode::Flip).unwrap(),
            Rules::defaults(BoardKind::FourPlayer, Mode::HalfOpen).unwrap(),
            Rules::defaults(BoardKind::FourPlayer, Mode::Open).unwrap(),
            Rules::defaults(BoardKind::ThreePlayer, Mode::Dark).unwrap(),
            Rules::defaults(BoardKind::SixPlayer, Mode::HalfOpen).unwrap(),
            with_teams(BoardKind::SixPlayer, Mode::HalfOpen, Teams::Opposite),
            with_teams(BoardKind::SixPlayer, Mode::Dark, Teams::None),
        ] {
            let mut pos = Position::random_start(rules, &mut rng);
            for _ in 0..30 {
                for s in 0..rules.seats() as Seat {
                    let o = pos.observe(Observer::Seat(s));
                    let mut v = o.to_json();
                    assert_eq!(observation_from_json(&v).unwrap(), o);
                    // Flip play: a face-down piece shows no colour; a face-up one must.
                    for p in v["pieces"].as_array_mut().unwrap() {
                        let down = p.get("face_down").is_some();
                        assert_eq!(p["seat"].is_null(), down, "{p}");
                        if !down {
                            p["seat"] = Value::Null;
                        }
                    }
                    if !o.pieces.iter().all(|p| p.face_down) {
                        assert!(observation_from_json(&v).is_err());
                    }
                }
                if pos.is_over() {
                    break;
                }
                let acts = pos.legal_actions();
                let a = acts[rand::Rng::gen_range(&mut rng, 0..acts.len())];
                pos.play(a, &mut Vec::new()).unwrap();
            }
        }
    }

    #[test]
    fn serve_answers_and_stops_at_quit() {
        let input = "junqi\nisready\nbogus\nquit\nisready\n";
        let mut out = Vec::new();
        serve(Box::new(RandomBot::default()), input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("junqiok\nreadyok\nerror unknown command \"bogus\"\n"),
            "{text}"
        );
        assert_eq!(text.matches("readyok").count(), 1);
        // Bytes that are not UTF-8 are an error line, not a crash.
        let mut out = Vec::new();
        serve(
            Box::new(RandomBot::default()),
            &b"\xff\xfe\nisready\n"[..],
            &mut out,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "error the line is not UTF-8\nreadyok\n"
        );
    }
}
