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

use crate::arena::BotFactory;
use crate::bot::{Bot, BotError, Budget};
use crate::engine::{budget_to_go, events_line, gameover_line, newgame_line, observation_line};
use junqi_core::notation::action_from_text;
use junqi_core::{Action, Deployment, Event, Observation, Rules, Seat, Topology};
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

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

/// A line from the engine, or the end of its output.
enum Line {
    Text(String),
    Eof,
}

/// The end of the engine's stderr, as far as it has been read.
#[derive(Default)]
struct TailState {
    lines: VecDeque<String>,
    /// The reader saw the end of stderr.
    done: bool,
}

/// The end of the engine's stderr, shared with the thread that reads it.
#[derive(Default)]
struct StderrTail {
    state: Mutex<TailState>,
    changed: Condvar,
}

impl StderrTail {
    fn push(&self, line: &[u8]) {
        let line = String::from_utf8_lossy(line);
        if let Ok(mut st) = self.state.lock() {
            if st.lines.len() == STDERR_TAIL_LINES {
                st.lines.pop_front();
            }
            st.lines.push_back(line.trim_end_matches('\r').to_string());
        }
    }

    fn finish(&self) {
        if let Ok(mut st) = self.state.lock() {
            st.done = true;
        }
        self.changed.notify_all();
    }

    /// The kept lines, after waiting up to `wait` for the reader to reach the end of stderr
    /// (once the engine has exited, its last words may still be in the pipe).
    fn lines(&self, wait: Duration) -> Vec<String> {
        let Ok(st) = self.state.lock() else {
            return Vec::new();
        };
        let st = match self.changed.wait_timeout_while(st, wait, |st| !st.done) {
            Ok((st, _)) => st,
            Err(_) => return Vec::new(),
        };
        st.lines.iter().cloned().collect()
    }
}

/// Read `r` (the engine's stderr) to its end, keeping its last lines in `tail`. Reads bytes,
/// not text: a reader of text lines stops at bytes that are not UTF-8, and then the engine's
/// next write to stderr either blocks once the pipe is full or, the pipe closed, kills it
/// (SIGPIPE).
fn drain_stderr(mut r: impl Read, tail: &StderrTail) {
    let mut buf = [0u8; 8192];
    let mut line = Vec::new();
    loop {
        let n = match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        for &b in &buf[..n] {
            if b == b'\n' {
                tail.push(&line);
                line.clear();
            } else if line.len() < STDERR_LINE_MAX {
                line.push(b);
            }
        }
    }
    if !line.is_empty() {
        tail.push(&line);
    }
    tail.finish();
}

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    stderr: Arc<StderrTail>,
}

impl Process {
    fn stop(mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        drop(self.stdin);
        let deadline = Instant::now() + Duration::from_millis(300);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A bot played by an external program over the engine protocol.
pub struct ExternalBot {
    argv: Vec<String>,
    label: String,
    limit: Duration,
    proc: Option<Process>,
    /// Set when the engine failed; every later call returns it until the next game.
    failed: Option<String>,
    engine_name: Option<String>,
    topo: Option<&'static Topology>,
}

impl ExternalBot {
    /// A bot that runs `command_line` (split by [`split_command_line`]; no shell is involved).
    /// Nothing is started yet.
    pub fn new(command_line: &str) -> Result<ExternalBot, String> {
        let argv = split_command_line(command_line)?;
        Ok(ExternalBot {
            argv,
            label: format!("cmd:{}", command_line.trim()),
            limit: DEFAULT_TIME_LIMIT,
            proc: None,
            failed: None,
            engine_name: None,
            topo: None,
        })
    }

    /// Set the limit on each answer (default [`DEFAULT_TIME_LIMIT`]).
    pub fn with_time_limit(mut self, limit: Duration) -> ExternalBot {
        self.limit = limit;
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
                let pool: Pool = Arc::default();
                Arc::new(move || {
                    let kept = pool.lock().ok().and_then(|mut p| p.pop());
                    Box::new(PooledBot {
                        bot: Some(kept.unwrap_or_else(&fresh)),
                        pool: pool.clone(),
                    }) as Box<dyn Bot>
                })
            }
        })
    }

    /// The name the engine gave (`id name`), once started.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine_name.as_deref()
    }

    fn start(&mut self) -> Result<(), String> {
        let mut child = Command::new(&self.argv[0])
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {:?}: {e}", self.argv[0]))?;
        let (stdin, stdout, stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err("cannot connect to the engine's stdin/stdout".into());
                }
            };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Line::Eof);
                        return;
                    }
                    Ok(_) => {
                        let s = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\n', '\r'])
                            .to_string();
                        if tx.send(Line::Text(s)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let tail = Arc::new(StderrTail::default());
        let t = tail.clone();
        std::thread::spawn(move || drain_stderr(stderr, &t));
        self.proc = Some(Process {
            child,
            stdin,
            lines: rx,
            stderr: tail,
        });
        self.send("junqi")?;
        let limit = self.limit;
        self.wait_for("junqiok", limit)?;
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let p = self.proc.as_mut().ok_or("the engine is not running")?;
        writeln!(p.stdin, "{line}")
            .and_then(|_| p.stdin.flush())
            .map_err(|e| {
                format!(
                    "the engine stopped (cannot write to it: {e}){}",
                    exit_note(p)
                )
            })
    }

    /// Read lines until one that is `prefix` or starts with `prefix` and a space; returns the
    /// rest of that line. An `error` line fails; `id name` lines are noted; other lines are
    /// skipped.
    fn wait_for(&mut self, prefix: &str, limit: Duration) -> Result<String, String> {
        self.wait_for_line(prefix, limit, true)
    }

    /// [`ExternalBot::wait_for`], failing at an `error` line only if `errors_fail`.
    fn wait_for_line(
        &mut self,
        prefix: &str,
        limit: Duration,
        errors_fail: bool,
    ) -> Result<String, String> {
        let deadline = Instant::now() + limit;
        loop {
            let p = self.proc.as_mut().ok_or("the engine is not running")?;
            let left = deadline.saturating_duration_since(Instant::now());
            match p.lines.recv_timeout(left) {
                Ok(Line::Text(l)) => {
                    let l = l.trim();
                    if l == prefix {
                        return Ok(String::new());
                    }
                    if let Some(rest) = l.strip_prefix(prefix).and_then(|r| r.strip_prefix(' ')) {
                        return Ok(rest.trim().to_string());
                    }
                    if let Some(why) = l.strip_prefix("error") {
                        if errors_fail {
                            return Err(format!("the engine said error:{why}"));
                        }
                    }
                    if let Some(name) = l.strip_prefix("id name ") {
                        self.engine_name = Some(name.trim().to_string());
                    }
                }
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    // Give the process a moment to be reaped, for its exit status.
                    let _ = (0..20).find(|_| {
                        std::thread::sleep(Duration::from_millis(5));
                        matches!(p.child.try_wait(), Ok(Some(_)))
                    });
                    return Err(format!(
                        "the engine stopped before answering {prefix}{}",
                        exit_note(p)
                    ));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "the engine did not answer {prefix} within {} ms",
                        limit.as_millis()
                    ));
                }
            }
        }
    }

    /// Record a failure, stop the engine, and return the error.
    fn fail(&mut self, why: String) -> BotError {
        if let Some(p) = self.proc.take() {
            p.stop();
        }
        self.failed = Some(why.clone());
        BotError(why)
    }

    fn check(&self) -> Result<(), BotError> {
        match &self.failed {
            Some(why) => Err(BotError(why.clone())),
            None => Ok(()),
        }
    }
}

/// ", exit status …; stderr: …" for an error message.
fn exit_note(p: &mut Process) -> String {
    let mut s = String::new();
    let mut wait = Duration::ZERO;
    if let Ok(Some(status)) = p.child.try_wait() {
        s += &format!(" (it exited with {status})");
        wait = Duration::from_millis(200);
    }
    let lines = p.stderr.lines(wait);
    if !lines.is_empty() {
        s += &format!("; its stderr ends: {}", lines.join(" | "));
    }
    s
}

impl Drop for ExternalBot {
    fn drop(&mut self) {
        if let Some(p) = self.proc.take() {
            p.stop();
        }
    }
}

impl Bot for ExternalBot {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn new_game(&mut self, rules: &Rules, seat: Seat, seed: u64) {
        self.failed = None;
        self.topo = Some(Topology::get(rules.board, rules.middle_rail()));
        let r = (|| {
            let limit = self.limit;
            if self.proc.is_none() {
                self.start()?;
            } else {
                // A process kept from an earlier game: what it still had to say about that game
                // (an `error` about its last observation, say) comes before this `readyok`, and
                // is dropped as it would be had the process been stopped with its game.
                self.send("isready")?;
                self.wait_for_line("readyok", limit, false)?;
            }
            self.send(&newgame_line(rules, seat, seed))?;
            self.send("isready")?;
            self.wait_for("readyok", limit).map(|_| ())
        })();
        if let Err(e) = r {
            self.fail(e);
        }
    }

    fn deploy(&mut self) -> Result<Deployment, BotError> {
        self.check()?;
        let limit = self.limit;
        let text = self
            .send("deploy")
            .and_then(|_| self.wait_for("deployment", limit))
            .map_err(|e| self.fail(e))?;
        Deployment::from_text(&text).map_err(|e| self.fail(format!("bad deployment {text:?}: {e}")))
    }

    fn observe(&mut self, events: &[Event], obs: &Observation) {
        if self.failed.is_some() {
            return;
        }
        let topo = obs.topology();
        let mut r = Ok(());
        if !events.is_empty() {
            r = self.send(&events_line(topo, events));
        }
        r = r.and_then(|_| self.send(&observation_line(obs)));
        if let Some(o) = obs.outcome {
            r = r.and_then(|_| self.send(&gameover_line(o)));
        }
        if let Err(e) = r {
            self.fail(e);
        }
    }

    fn choose(&mut self, obs: &Observation, budget: Budget) -> Result<Action, BotError> {
        self.check()?;
        let limit = match budget {
            Budget::Time(d) => d + self.limit,
            _ => self.limit,
        };
        let text = self
            .send(&budget_to_go(budget))
            .and_then(|_| self.wait_for("bestmove", limit))
            .map_err(|e| self.fail(e))?;
        let topo = self.topo.unwrap_or_else(|| obs.topology());
        let action = action_from_text(topo, &text)
            .map_err(|e| self.fail(format!("bad bestmove {text:?}: {e}")))?;
        if !obs.legal_actions.contains(&action) {
            return Err(self.fail(format!("illegal action {text} from the engine")));
        }
        Ok(action)
    }
}

/// The external bots a per-match factory keeps between games.
type Pool = Arc<Mutex<Vec<ExternalBot>>>;

/// An [`ExternalBot`] lent by a per-match factory: given back to the pool, with its process,
/// when dropped (the arena drops a game's bots when the game is over).
struct PooledBot {
    /// Always `Some` until dropped.
    bot: Option<ExternalBot>,
    pool: Pool,
}

impl PooledBot {
    fn bot(&mut self) -> &mut ExternalBot {
        self.bot.as_mut().expect("a pooled bot until dropped")
    }
}

impl Drop for PooledBot {
    fn drop(&mut self) {
        if let (Some(bot), Ok(mut pool)) = (self.bot.take(), self.pool.lock()) {
            pool.push(bot);
        }
    }
}

impl Bot for PooledBot {
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
    fn stderr_is_read_to_its_end_whatever_it_holds() {
        let mut input = b"one\n\xff\xfe not UTF-8\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 100_000));
        input.extend(b"\nthree\nfour\nfive\nsix without a newline");
        let tail = StderrTail::default();
        drain_stderr(&input[..], &tail);
        let lines = tail.lines(Duration::ZERO);
        assert_eq!(lines.len(), STDERR_TAIL_LINES);
        assert_eq!(lines[0], "x".repeat(STDERR_LINE_MAX));
        assert_eq!(
            lines[1..],
            ["three", "four", "five", "six without a newline"]
        );
        let tail = StderrTail::default();
        drain_stderr(&b"\xff\xfe not UTF-8\r\nlast\n"[..], &tail);
        assert_eq!(
            tail.lines(Duration::ZERO),
            ["\u{fffd}\u{fffd} not UTF-8", "last"]
        );
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
