//! 再来一局: after a game, the same players at a new table with the same board, mode, options
//! and clocks, colours swapped. Each seated person asks (`rematch`); bots agree at once; when
//! every person has asked, the new table is made and started (as a table with every seat filled
//! starts: deployment, or play at once in 翻棋), and each person is sent their own new seat and
//! seat token (`rematch_ready`). Everybody moves one seat on round the table (two players swap
//! seats 0 and 1; three, four and six: 0→1→…→0). Teams stay teams: every team of RULES §7.2 is
//! mapped onto a team by the turn (alternate: {0, 2, 4} ↔ {1, 3, 5}; opposite: {0, 3} → {1, 4}
//! → {2, 5} → {0, 3}). The seat that moves first is the same, so another side moves first.
//!
//! A table has one rematch. It counts as a table creation: the creator's open-table limit and
//! the per-minute creation limit of [`crate::Settings`] apply, under the original creator.

use super::frames::text;
use super::{SeatKind, Status, Table};
use crate::error::Refusal;
use crate::store;
use junqi_core::{BoardKind, Seat};
use serde_json::json;
use std::collections::BTreeSet;

/// The rematch of a table: who has asked, and the new table once made.
#[derive(Default)]
pub(crate) struct Rematch {
    asked: BTreeSet<Seat>,
    made: Option<Made>,
}

/// A rematch table, with the seat tokens of its people by their seat at this table (kept so
/// that a person who reconnects before moving on is told again; none after a restart).
struct Made {
    table: String,
    tokens: Vec<Option<String>>,
}

/// A seat's seat at the rematch: the colours swap.
pub(super) fn rematch_seat(board: BoardKind, seat: Seat) -> Seat {
    // Two seats: 0 and 1 swap; more: one seat on. Either way the next seat round the table.
    (seat + 1) % board.seats() as Seat
}

impl Table {
    /// The rematch as the `table` frame shows it.
    pub(super) fn rematch_json(&self) -> serde_json::Value {
        if self.status != Status::Over {
            return serde_json::Value::Null;
        }
        json!({"asked": self.rematch.asked, "table": self.rematch.made.as_ref().map(|m| &m.table)})
    }

    /// The rematch table, once made (stored with the table's state).
    pub(super) fn rematch_table(&self) -> Option<String> {
        self.rematch.made.as_ref().map(|m| m.table.clone())
    }

    /// A table reloaded from the database had its rematch already.
    pub(super) fn set_rematch_table(&mut self, table: Option<String>) {
        self.rematch.made = table.map(|table| Made {
            table,
            tokens: Vec::new(),
        });
    }

    /// A seated person asks for a rematch.
    pub(super) async fn ask_rematch(&mut self, conn: u64) -> Result<(), Refusal> {
        let seat = self.seat_of(conn).ok_or(Refusal::Watching)?;
        if !self.seats[seat as usize].is_human() {
            return Err(Refusal::Watching);
        }
        if self.status != Status::Over {
            return Err(Refusal::RematchNotOver);
        }
        if self.rematch.made.is_some() {
            return Err(Refusal::RematchDone);
        }
        // Every other person of the game must still be here to play again.
        for (s, st) in self.seats.iter().enumerate() {
            let here = self.conns.values().any(|c| c.seat == Some(s as Seat));
            if st.is_human() && !here {
                return Err(Refusal::RematchLeft { seat: s as Seat });
            }
        }
        let mut asked = self.rematch.asked.clone();
        asked.insert(seat);
        // Bots agree at once.
        for (s, st) in self.seats.iter().enumerate() {
            if st.is_bot() {
                asked.insert(s as Seat);
            }
        }
        let everyone = (0..self.seats.len() as Seat).all(|s| asked.contains(&s));
        if everyone {
            self.make_rematch().await?;
        }
        self.rematch.asked = asked;
        self.broadcast(text(
            json!({"type": "rematch", "asked": self.rematch.asked}),
        ));
        self.send_rematch_ready();
        self.broadcast_table();
        Ok(())
    }

    /// Create and start the rematch table.
    async fn make_rematch(&mut self) -> Result<(), Refusal> {
        // As for HTTP creations: guests of one address share twice a person's limit.
        let limit = self.env.settings.max_open_tables_per_creator;
        let share = if self.creator.starts_with("addr:") {
            limit * 2
        } else {
            limit
        };
        let open = store::open_tables_of(&self.env.db, &self.creator)
            .await
            .map_err(Refusal::Internal)?;
        if open >= share {
            return Err(Refusal::TooManyTables { limit });
        }
        // The creation-rate key of the HTTP creations: by address for a guest's table.
        let key = match self.creator.strip_prefix("addr:") {
            Some(ip) => format!("tables:{ip}"),
            None => format!("tables:{}", self.creator),
        };
        self.env
            .table_budget
            .take(&[key.as_str()])
            .map_err(|retry_after| Refusal::RateLimited { retry_after })?;
        let board = self.config.rules.seat_board();
        let mut kinds = vec![SeatKind::Empty; self.seats.len()];
        for (s, st) in self.seats.iter().enumerate() {
            kinds[rematch_seat(board, s as Seat) as usize] = st.kind.clone();
        }
        let (_, summary, tokens) = Table::create_seated(
            self.env.clone(),
            self.config.clone(),
            self.host_seat,
            kinds,
            true,
            self.creator.clone(),
        )
        .await?;
        let table = summary["id"].as_str().unwrap_or("").to_string();
        let by_old_seat = (0..self.seats.len() as Seat)
            .map(|s| tokens[rematch_seat(board, s) as usize].clone())
            .collect();
        tracing::info!("rematch at {table}");
        self.rematch.made = Some(Made {
            table,
            tokens: by_old_seat,
        });
        self.save_state().await;
        Ok(())
    }

    /// Tell a connection where the rematch is (once made): a person their new seat and its
    /// token, a spectator the table.
    pub(super) fn resend_rematch_ready(&mut self, conn: u64) {
        let Some(made) = &self.rematch.made else {
            return;
        };
        let board = self.config.rules.seat_board();
        let f = match self.conns.get(&conn).and_then(|c| c.seat) {
            Some(s) => json!({"type": "rematch_ready", "table": made.table,
                "seat": rematch_seat(board, s),
                "token": made.tokens.get(s as usize).cloned().flatten()}),
            None => json!({"type": "rematch_ready", "table": made.table}),
        };
        self.send_json(conn, f);
    }

    /// Tell each connection where the rematch is: a person their new seat and its token, a
    /// spectator the table.
    pub(super) fn send_rematch_ready(&mut self) {
        let conns: Vec<u64> = self.conns.keys().copied().collect();
        for conn in conns {
            self.resend_rematch_ready(conn);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::{TeamMap, Teams};

    #[test]
    fn colours_swap_and_teams_stay_teams() {
        assert_eq!(rematch_seat(BoardKind::TwoPlayer, 0), 1);
        assert_eq!(rematch_seat(BoardKind::TwoPlayer, 1), 0);
        let four: Vec<Seat> = (0..4)
            .map(|s| rematch_seat(BoardKind::FourPlayer, s))
            .collect();
        assert_eq!(four, vec![1, 2, 3, 0]);
        let three: Vec<Seat> = (0..3)
            .map(|s| rematch_seat(BoardKind::ThreePlayer, s))
            .collect();
        assert_eq!(three, vec![1, 2, 0]);
        // Every board and teams value: two seats together before are together after, and
        // every seat has a new seat of its own.
        for board in BoardKind::ALL {
            for teams in Teams::ALL {
                let tm = TeamMap::new(board, teams);
                let n = board.seats() as Seat;
                let mut image: Vec<Seat> = (0..n).map(|s| rematch_seat(board, s)).collect();
                for a in 0..n {
                    for b in 0..n {
                        assert_eq!(
                            tm.same_team(a, b),
                            tm.same_team(rematch_seat(board, a), rematch_seat(board, b)),
                            "{board} {teams}: {a} {b}"
                        );
                    }
                }
                image.sort();
                assert_eq!(image, (0..n).collect::<Vec<_>>(), "{board}");
            }
        }
    }
}
