//! What the table rules need across a restart besides the seats and the record: the deadlines
//! of the deployment and move clocks and a pending draw offer. Stored as one JSON object in the
//! table's `state` column, in the same transaction as the change that set it.

use super::Table;
use crate::db::Stmt;
use crate::store;
use junqi_core::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A draw offer: who offered it and who has accepted so far (the offerer included).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DrawOffer {
    pub by: Seat,
    pub accepted: BTreeSet<Seat>,
}

/// The stored state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TableState {
    /// When the deployment clock runs out (ms since the epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy_deadline_ms: Option<u64>,
    /// When the move clock of the seat to move runs out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_deadline_ms: Option<u64>,
    /// A pending draw offer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawOffer>,
    /// After the game: the id of its rematch table (a table has one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_table: Option<String>,
}

/// After a restart a clock that ran out while the server was down gets this much (at most its
/// full time): the downtime was nobody's turn.
pub(crate) const RESUME_GRACE_MS: u64 = 15_000;

/// The deadline a resumed clock gets: the stored one, or a short grace if it passed (or was
/// nearly passed) while the server was down.
pub(crate) fn resumed_deadline(stored: Option<u64>, full_ms: u64, now: u64) -> Option<u64> {
    if full_ms == 0 {
        return None;
    }
    let floor = now + RESUME_GRACE_MS.min(full_ms);
    Some(stored.map_or(now + full_ms, |d| d.max(floor)))
}

impl TableState {
    pub fn parse(text: Option<&str>) -> TableState {
        text.and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_default()
    }
}

impl Table {
    pub(super) fn state(&self) -> TableState {
        TableState {
            deploy_deadline_ms: self.deploy_deadline,
            turn_deadline_ms: self.turn_deadline,
            draw: self.draw.clone(),
            rematch_table: self.rematch_table(),
        }
    }

    /// The statement that stores the current clocks and draw offer.
    pub(super) fn state_stmt(&self) -> Stmt {
        let state = serde_json::to_string(&self.state()).unwrap_or_else(|_| "{}".into());
        store::save_state(&self.id, &state)
    }

    /// Store the clocks and draw offer now (a change that writes nothing else).
    pub(super) async fn save_state(&self) {
        if let Err(e) = self.db_write(vec![self.state_stmt()]).await {
            tracing::warn!("cannot store the table state: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips_and_clocks_resume_fairly() {
        let s = TableState {
            deploy_deadline_ms: None,
            turn_deadline_ms: Some(5_000),
            draw: Some(DrawOffer {
                by: 1,
                accepted: BTreeSet::from([1]),
            }),
            rematch_table: None,
        };
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(TableState::parse(Some(&text)), s);
        assert_eq!(TableState::parse(Some("garbage")), TableState::default());
        // A deadline still ahead is kept; one that passed gets the grace; no clock: none.
        assert_eq!(resumed_deadline(Some(50_000), 30_000, 10_000), Some(50_000));
        assert_eq!(
            resumed_deadline(Some(5_000), 30_000, 10_000),
            Some(10_000 + RESUME_GRACE_MS)
        );
        assert_eq!(resumed_deadline(Some(5_000), 5_000, 10_000), Some(15_000));
        assert_eq!(resumed_deadline(None, 30_000, 10_000), Some(40_000));
        assert_eq!(resumed_deadline(Some(5_000), 0, 10_000), None);
    }
}
