//! Who sits at each seat of a table, and how a seat is stored. A person's seat is claimed by a
//! seat token that only that person's client holds; the database keeps only the token's hash.

use super::game::{GameRules, Layout};
use crate::app::Player;
use crate::secret::hash_token;
use junqi_core::Seat;
use serde_json::{json, Value};

/// Who is at a seat.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SeatKind {
    Empty,
    Human { player: Player },
    Bot { bot: String },
}

/// A seat: who sits there, the hash of its seat token, and its layout once submitted.
#[derive(Clone, Debug)]
pub(crate) struct SeatState {
    pub kind: SeatKind,
    /// SHA-256 of the seat token (hex).
    pub token_hash: Option<String>,
    pub layout: Option<Layout>,
}

impl SeatState {
    pub fn empty() -> SeatState {
        SeatState {
            kind: SeatKind::Empty,
            token_hash: None,
            layout: None,
        }
    }

    /// A person's seat claimed by `token`.
    pub fn human(player: Player, token: &str) -> SeatState {
        SeatState {
            kind: SeatKind::Human { player },
            token_hash: Some(hash_token(token)),
            layout: None,
        }
    }

    /// Whether the token of hash `token_hash` claims this seat.
    pub fn claimed_by(&self, token_hash: &str) -> bool {
        self.token_hash.as_deref() == Some(token_hash)
    }

    pub fn is_human(&self) -> bool {
        matches!(self.kind, SeatKind::Human { .. })
    }

    pub fn is_bot(&self) -> bool {
        matches!(self.kind, SeatKind::Bot { .. })
    }

    /// The stored form.
    pub fn to_json(&self) -> Value {
        let layout = self.layout.map(|d| d.to_text());
        match &self.kind {
            SeatKind::Empty => json!({"kind": "empty"}),
            SeatKind::Human { player } => {
                json!({"kind": "human", "player": player.to_json(), "token_hash": self.token_hash, "layout": layout})
            }
            SeatKind::Bot { bot } => json!({"kind": "bot", "bot": bot, "layout": layout}),
        }
    }

    /// Read the stored form (a seat stored by an older server with a plain `token` is hashed).
    /// The layout is read only with the table's rules and the seat's number (`None`: the
    /// seat's names and ids are all that is wanted).
    pub fn from_json(v: &Value, layout_of: Option<(&GameRules, Seat)>) -> SeatState {
        let layout = v["layout"]
            .as_str()
            .zip(layout_of)
            .and_then(|(t, (rules, seat))| Layout::parse(rules, seat, t).ok());
        let token_hash = v["token_hash"]
            .as_str()
            .map(String::from)
            .or_else(|| v["token"].as_str().map(hash_token));
        let kind = match v["kind"].as_str() {
            Some("human") => SeatKind::Human {
                player: Player {
                    id: v["player"]["id"].as_str().unwrap_or("").into(),
                    name: v["player"]["name"].as_str().unwrap_or("").into(),
                    guest: v["player"]["guest"].as_bool().unwrap_or(true),
                },
            },
            Some("bot") => SeatKind::Bot {
                bot: v["bot"].as_str().unwrap_or("random").into(),
            },
            _ => SeatKind::Empty,
        };
        SeatState {
            kind,
            token_hash,
            layout,
        }
    }

    /// The name shown for this seat (bots: `bot:<name>`, which the client shows by kind).
    pub fn display_name(&self) -> Option<String> {
        match &self.kind {
            SeatKind::Empty => None,
            SeatKind::Human { player } => Some(player.name.clone()),
            SeatKind::Bot { bot } => Some(format!("bot:{bot}")),
        }
    }

    /// The player id of this seat (bots: `bot:<name>`).
    pub fn player_id(&self) -> Option<String> {
        match &self.kind {
            SeatKind::Empty => None,
            SeatKind::Human { player } => Some(player.id.clone()),
            SeatKind::Bot { bot } => Some(format!("bot:{bot}")),
        }
    }
}

/// The seats of a stored seats list.
pub(crate) fn stored_seats(seats: &Value) -> Vec<SeatState> {
    seats
        .as_array()
        .map(|a| a.iter().map(|s| SeatState::from_json(s, None)).collect())
        .unwrap_or_default()
}

/// The display names by seat of a stored seats list (for game lists).
pub(crate) fn seat_names(seats: &Value) -> Vec<Value> {
    stored_seats(seats)
        .iter()
        .map(|s| s.display_name().map_or(Value::Null, Value::from))
        .collect()
}

/// The player ids by seat of a stored seats list (bots: `bot:<name>`).
pub(crate) fn seat_player_ids(seats: &Value) -> Vec<Value> {
    stored_seats(seats)
        .iter()
        .map(|s| s.player_id().map_or(Value::Null, Value::from))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_token_hash_is_stored() {
        let p = Player {
            id: "p_x".into(),
            name: "x".into(),
            guest: true,
        };
        let s = SeatState::human(p, "secret-seat-token");
        let stored = s.to_json().to_string();
        assert!(!stored.contains("secret-seat-token"));
        let back = SeatState::from_json(&serde_json::from_str(&stored).unwrap(), None);
        assert!(back.claimed_by(&hash_token("secret-seat-token")));
        assert!(!back.claimed_by(&hash_token("another")));
        // A seat stored by an older server (plain token) still claims with that token.
        let old = json!({"kind": "human", "player": {"id": "p", "name": "n", "guest": true}, "token": "t0"});
        assert!(SeatState::from_json(&old, None).claimed_by(&hash_token("t0")));
    }
}
