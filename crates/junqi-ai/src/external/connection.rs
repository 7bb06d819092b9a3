//! A connection to an engine process: starting it, writing command lines, awaiting answers
//! within a time limit, reading its stderr, and stopping it. [`super::ExternalBot`] (军棋) and
//! [`super::lsa::LsaExternalBot`] (陆海空三军棋) speak the protocol over one of these.

use super::split_command_line;
use super::{STDERR_LINE_MAX, STDERR_TAIL_LINES};
use crate::bot::{BotError, Budget};
use crate::engine::budget_to_go;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

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

/// An engine program and, once started, its process. Every answer is awaited within `limit`;
/// a failure stops the process and is returned by every later call until the next game.
pub(crate) struct Connection {
    argv: Vec<String>,
    /// `cmd:<command line>`, the bot's name in reports.
    pub(crate) label: String,
    /// The limit on each answer.
    pub(crate) limit: Duration,
    proc: Option<Process>,
    /// Set when the engine failed; every later call returns it until the next game.
    failed: Option<String>,
    /// The name the engine gave (`id name`), once started.
    pub(crate) engine_name: Option<String>,
}

impl Connection {
    /// A connection to `command_line` (split by [`split_command_line`]; no shell is involved).
    /// Nothing is started yet.
    pub(crate) fn new(command_line: &str, limit: Duration) -> Result<Connection, String> {
        Ok(Connection {
            argv: split_command_line(command_line)?,
            label: format!("cmd:{}", command_line.trim()),
            limit,
            proc: None,
            failed: None,
            engine_name: None,
        })
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

    /// [`Connection::wait_for`], failing at an `error` line only if `errors_fail`.
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
    pub(crate) fn fail(&mut self, why: String) -> BotError {
        if let Some(p) = self.proc.take() {
            p.stop();
        }
        self.failed = Some(why.clone());
        BotError(why)
    }

    /// The failure of this game, if any.
    pub(crate) fn check(&self) -> Result<(), BotError> {
        match &self.failed {
            Some(why) => Err(BotError(why.clone())),
            None => Ok(()),
        }
    }

    /// Begin a game with its `newgame` line: start the process, or resynchronise one kept from
    /// an earlier game, then await `readyok`. A failure is kept for the game's later calls.
    pub(crate) fn begin(&mut self, newgame: &str) {
        self.failed = None;
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
            self.send(newgame)?;
            self.send("isready")?;
            self.wait_for("readyok", limit).map(|_| ())
        })();
        if let Err(e) = r {
            self.fail(e);
        }
    }

    /// `deploy`, and the text of the engine's `deployment` answer.
    pub(crate) fn deployment(&mut self) -> Result<String, BotError> {
        self.check()?;
        let limit = self.limit;
        self.send("deploy")
            .and_then(|_| self.wait_for("deployment", limit))
            .map_err(|e| self.fail(e))
    }

    /// Send the lines that tell of one step (events, observation, gameover); nothing after a
    /// failure.
    pub(crate) fn tell(&mut self, lines: impl IntoIterator<Item = String>) {
        if self.failed.is_some() {
            return;
        }
        for l in lines {
            if let Err(e) = self.send(&l) {
                self.fail(e);
                return;
            }
        }
    }

    /// `go` with `budget`, and the text of the engine's `bestmove` answer (a `movetime` budget
    /// is allowed that time on top of the limit).
    pub(crate) fn bestmove(&mut self, budget: Budget) -> Result<String, BotError> {
        self.check()?;
        let limit = match budget {
            Budget::Time(d) => d + self.limit,
            _ => self.limit,
        };
        self.send(&budget_to_go(budget))
            .and_then(|_| self.wait_for("bestmove", limit))
            .map_err(|e| self.fail(e))
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

impl Drop for Connection {
    fn drop(&mut self) {
        if let Some(p) = self.proc.take() {
            p.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
