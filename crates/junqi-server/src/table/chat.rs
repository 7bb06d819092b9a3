//! Chat and quick phrases (快捷语) at a table. A seated person may send free text (at most
//! [`MAX_CHARS`] characters once hidden characters are removed and it is trimmed) or one of the
//! quick phrases of [`PHRASES`] by id (the client translates it). Everyone at the table,
//! spectators included, gets the message; the last [`HISTORY`] messages are kept in memory and
//! sent to a joining connection. Chat is not part of the game record, and it is off in a game
//! against the computer (nobody to talk to). Each connection may send about one message a
//! second (a burst of a few), on top of the frame limit of every connection.

use super::frames::text;
use super::{SeatKind, Table};
use crate::error::Refusal;
use serde_json::{json, Value};
use std::collections::VecDeque;

/// The most characters of a chat message.
pub const MAX_CHARS: usize = 200;
/// Messages kept for a joining connection.
pub const HISTORY: usize = 50;
/// The ids of the quick phrases (the client shows 你好, 好棋, 快点吧, …).
pub const PHRASES: &[&str] = &[
    "hello",
    "good_move",
    "hurry",
    "thanks",
    "sorry",
    "oops",
    "wait",
    "well_played",
    "gg",
    "bye",
];

/// A connection's chat allowance: a token bucket on the table's clock.
#[derive(Clone, Debug)]
pub(crate) struct ChatBucket {
    tokens: f64,
    last_ms: u64,
}

impl ChatBucket {
    /// A full bucket of `burst`.
    pub fn new(burst: f64, now: u64) -> ChatBucket {
        ChatBucket {
            tokens: burst,
            last_ms: now,
        }
    }

    /// Take one message: `Err(seconds to wait)` when there is none left.
    fn take(&mut self, now: u64, rate: f64, burst: f64) -> Result<(), u64> {
        let dt = now.saturating_sub(self.last_ms) as f64 / 1000.0;
        self.tokens = (self.tokens + dt * rate).min(burst);
        self.last_ms = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - self.tokens) / rate.max(0.001);
            Err(wait.ceil().max(1.0) as u64)
        }
    }
}

/// The last messages of a table.
#[derive(Default)]
pub(crate) struct ChatLog(VecDeque<Value>);

impl ChatLog {
    fn push(&mut self, frame: Value) {
        if self.0.len() >= HISTORY {
            self.0.pop_front();
        }
        self.0.push_back(frame);
    }

    /// The `chat_history` frame (none while there is nothing to tell).
    pub fn history_frame(&self) -> Option<Value> {
        (!self.0.is_empty()).then(|| json!({"type": "chat_history", "messages": self.0}))
    }
}

/// A message's text as shown: hidden characters (controls, bidi and zero-width format
/// characters, [`crate::names::is_hidden`]) removed, line breaks and tabs made spaces, trimmed.
pub(crate) fn clean_text(raw: &str) -> Result<String, Refusal> {
    // Far too long inputs are refused before any work on them.
    if raw.len() > MAX_CHARS * 8 {
        return Err(Refusal::ChatTooLong { max: MAX_CHARS });
    }
    let shown: String = raw
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|&c| !crate::names::is_hidden(c))
        .collect();
    let shown = shown.trim();
    if shown.is_empty() {
        return Err(Refusal::ChatEmpty);
    }
    if shown.chars().count() > MAX_CHARS {
        return Err(Refusal::ChatTooLong { max: MAX_CHARS });
    }
    Ok(shown.to_string())
}

impl Table {
    /// Chat is on unless the game is against the computer.
    pub(super) fn chat_on(&self) -> bool {
        !self.against_computer()
    }

    /// A chat message from a connection: checked, counted against its allowance, kept, sent
    /// to everyone at the table.
    pub(super) fn chat(
        &mut self,
        conn: u64,
        text_in: Option<String>,
        phrase: Option<String>,
    ) -> Result<(), Refusal> {
        let seat = self.seat_of(conn).ok_or(Refusal::Watching)?;
        let SeatKind::Human { player } = &self.seats[seat as usize].kind else {
            return Err(Refusal::Watching);
        };
        let player = player.to_json();
        // A seat that left the game (逃跑) has left the table's talk too, even if its person
        // comes back with the seat token.
        if self.game.as_ref().is_some_and(|g| g.has_left(seat)) {
            return Err(Refusal::SeatLeft);
        }
        if !self.chat_on() {
            return Err(Refusal::ChatOff);
        }
        let (key, body) = match (text_in, phrase) {
            (Some(t), None) => ("text", clean_text(&t)?),
            (None, Some(p)) if PHRASES.contains(&p.as_str()) => ("phrase", p),
            (None, Some(p)) => {
                return Err(Refusal::ChatUnknownPhrase {
                    phrase: p.chars().take(32).collect(),
                })
            }
            _ => {
                return Err(Refusal::BadRequest(
                    "a chat frame has either \"text\" or \"phrase\"".into(),
                ))
            }
        };
        let now = self.now();
        let (rate, burst) = (self.env.settings.chat_per_sec, self.env.settings.chat_burst);
        if let Some(c) = self.conns.get_mut(&conn) {
            c.chat
                .take(now, rate, burst)
                .map_err(|retry_after| Refusal::ChatRateLimited { retry_after })?;
        }
        let mut frame = json!({"type": "chat", "seat": seat, "player": player, "at": now});
        frame[key] = body.into();
        self.chat_log.push(frame.clone());
        self.broadcast(text(frame));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cleaned_and_measured() {
        assert_eq!(clean_text("  好棋!\n").unwrap(), "好棋!");
        assert_eq!(clean_text("a\u{202e}b\u{200b}c\td\u{7}").unwrap(), "abc d");
        assert_eq!(clean_text(" \u{200b} ").unwrap_err(), Refusal::ChatEmpty);
        assert!(clean_text(&"军".repeat(MAX_CHARS)).is_ok());
        assert_eq!(
            clean_text(&"军".repeat(MAX_CHARS + 1)).unwrap_err().code(),
            "chat.too_long"
        );
    }

    #[test]
    fn the_bucket_allows_a_burst_then_one_a_second() {
        let mut b = ChatBucket::new(5.0, 0);
        for _ in 0..5 {
            assert!(b.take(0, 1.0, 5.0).is_ok());
        }
        assert_eq!(b.take(0, 1.0, 5.0), Err(1));
        assert!(b.take(1000, 1.0, 5.0).is_ok());
        assert!(b.take(1000, 1.0, 5.0).is_err());
    }

    #[test]
    fn history_is_bounded() {
        let mut log = ChatLog::default();
        for i in 0..(HISTORY + 10) {
            log.push(json!({"i": i}));
        }
        let f = log.history_frame().unwrap();
        assert_eq!(f["messages"].as_array().unwrap().len(), HISTORY);
        assert_eq!(f["messages"][0]["i"], 10);
    }
}
