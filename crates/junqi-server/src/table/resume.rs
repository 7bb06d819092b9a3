//! Rebuilding a table from the database (server start, or a table asked for after its actor
//! ended). A game in progress resumes where it was: its record is replayed entry by entry, the
//! bots are told every event as they were the first time (so their belief about hidden pieces
//! is the one they had), the clocks and a pending draw offer come back from the stored state.

use super::bots::observe_all;
use super::frames::EventsFrame;
use super::game::TableGame;
use super::persist::{resumed_deadline, TableState};
use super::{SeatState, Status, Table, TableConfig, TableEnv, TableHandle};
use crate::store::{self, StoredTable};
use junqi_core::Seat;
use serde_json::Value;
use tracing::Instrument;

/// Load a table by id and start its actor.
pub(crate) async fn load_by_id(env: &TableEnv, id: &str) -> Option<TableHandle> {
    load_leased(env, id, None).await
}

/// Load a table by id and start its actor, running under `fence` (cluster mode: the lease this
/// node just took).
pub(crate) async fn load_leased(
    env: &TableEnv,
    id: &str,
    fence: Option<crate::db::Fence>,
) -> Option<TableHandle> {
    let row = store::table(&env.db, id).await.ok()??;
    let span = super::span_of(&row.id);
    load(env, row, fence).instrument(span).await
}

/// Load every unfinished table (server start). Returns how many.
pub(crate) async fn load_unfinished(env: &TableEnv) -> Result<usize, String> {
    let rows = store::unfinished_tables(&env.db).await?;
    let mut n = 0;
    for row in rows {
        let span = super::span_of(&row.id);
        if load(env, row, None).instrument(span).await.is_some() {
            n += 1;
        }
    }
    Ok(n)
}

async fn load(
    env: &TableEnv,
    row: StoredTable,
    fence: Option<crate::db::Fence>,
) -> Option<TableHandle> {
    let id = row.id.clone();
    let config = match serde_json::from_str::<Value>(&row.config)
        .map_err(|e| e.to_string())
        .and_then(|v| TableConfig::from_json(&v))
    {
        Ok(c) => c,
        Err(e) => {
            tracing::error!("bad stored config: {e}");
            return None;
        }
    };
    let mut t = Table::blank(
        env.clone(),
        id.clone(),
        row.code.clone(),
        row.creator.clone().unwrap_or_default(),
        config,
        row.host_seat as Seat,
        row.created_ms as u64,
    );
    t.fence = fence;
    t.status = Status::from_name(&row.status);
    let config_rules = t.config.rules;
    let seats: Value = serde_json::from_str(&row.seats).unwrap_or(Value::Null);
    if let Some(a) = seats.as_array() {
        for (i, s) in a.iter().enumerate().take(t.seats.len()) {
            t.seats[i] = SeatState::from_json(s, Some((&config_rules, i as Seat)));
        }
    }
    let state = TableState::parse(row.state.as_deref());
    let now = env.now();
    match t.status {
        Status::Waiting => {}
        Status::Deploying => {
            t.make_bots();
            t.deploy_deadline = resumed_deadline(state.deploy_deadline_ms, t.config.deploy_ms, now);
        }
        Status::Playing | Status::Over => {
            if !replay(env, &mut t, &row).await {
                return None;
            }
            let over = t.game.as_ref().and_then(|g| g.outcome());
            t.play_started_ms = row.started_ms.unwrap_or(now as i64) as u64;
            if let Some(o) = over {
                t.status = Status::Over;
                t.finished_recorded = true;
                t.set_rematch_table(state.rematch_table.clone());
                if row.status != "over" {
                    let stmts = t.finish_stmts(o, now);
                    let _ = t.db_write(stmts).await;
                    t.finished_recorded = false;
                    t.after_finish();
                }
            } else {
                t.status = Status::Playing;
                t.turn_deadline = resumed_deadline(state.turn_deadline_ms, t.config.move_ms, now);
                t.draw = state.draw;
                let away = t.away_limit_ms();
                for s in 0..t.seats.len() {
                    if t.seats[s].is_human() {
                        t.gone[s] = Some(now + away);
                    }
                }
                // A game against the computer waits, its clock stopped, for its person.
                t.note_pause();
                t.unattended_written = row.unattended;
            }
        }
    }
    t.note_presence();
    Some(t.spawn())
}

/// Replay the stored record into the table's game, its `events` frames and its bots.
async fn replay(env: &TableEnv, t: &mut Table, row: &StoredTable) -> bool {
    let header = row.header.clone().unwrap_or_default();
    let mut game = match TableGame::from_header(&t.config.rules, &header) {
        Ok(g) => g,
        Err(e) => {
            tracing::error!("bad stored record header: {e}");
            return false;
        }
    };
    let entries = match store::entries(&env.db, &t.id).await {
        Ok(e) => e,
        Err(e) => {
            tracing::error!("cannot read the stored entries: {e}");
            return false;
        }
    };
    if row.status != "over" {
        t.make_bots();
        observe_all(&mut t.bots, &t.config.rules, &game, None);
    }
    replay_entries(t, &mut game, &entries);
    t.game = Some(game);
    true
}

/// Apply stored entries in order: each one's `events` frame is rebuilt and the bots observe its
/// events (a finished game has no bots). A stored entry that does not replay ends the replay
/// there (and says so).
fn replay_entries(t: &mut Table, game: &mut TableGame, entries: &[store::StoredEntry]) {
    for store::StoredEntry {
        seq,
        text: text_entry,
        action_id,
    } in entries
    {
        let mover = game.to_move();
        match game.apply_text(text_entry) {
            Ok(applied) => {
                let v = game.entries() as u64;
                if let Some(id) = action_id {
                    t.action_ids.insert((mover, id.clone()), v);
                }
                t.frames.push(EventsFrame::new(
                    v,
                    &applied,
                    game.to_move(),
                    game.outcome(),
                ));
                observe_all(&mut t.bots, &t.config.rules, game, Some(&applied.for_bots));
            }
            Err(e) => {
                tracing::error!("stored entry {seq} ({text_entry}) does not replay: {e}");
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::bots::{BotCell, BotSlot};
    use super::super::game::TableBot;
    use super::*;
    use junqi_ai::{Bot, BotError, Budget};
    use junqi_core::event::Event;
    use junqi_core::{Action, Deployment, Entry, Game, Observation, Rules};
    use rand::SeedableRng;
    use serde_json::json;
    use std::sync::{Arc, Mutex};

    /// A bot that counts what it is told.
    struct Recorder(Arc<Mutex<(usize, usize)>>);

    impl Bot for Recorder {
        fn name(&self) -> String {
            "recorder".into()
        }
        fn new_game(&mut self, _: &Rules, _: Seat, _: u64) {}
        fn deploy(&mut self) -> Result<Deployment, BotError> {
            Err(BotError("no".into()))
        }
        fn observe(&mut self, events: &[Event], _: &Observation) {
            let mut g = self.0.lock().unwrap();
            g.0 += 1;
            g.1 += events.len();
        }
        fn choose(&mut self, obs: &Observation, _: Budget) -> Result<Action, BotError> {
            obs.legal_actions
                .first()
                .copied()
                .ok_or(BotError("none".into()))
        }
    }

    #[tokio::test]
    async fn a_resumed_bot_is_told_every_stored_event() {
        let dir = tempfile::tempdir().unwrap();
        let db = crate::db::Db::open(&format!(
            "sqlite://{}",
            dir.path().join("t.sqlite3").display()
        ))
        .await
        .unwrap();
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        let env = TableEnv {
            db,
            clock: Arc::new(crate::clock::ManualClock::new(1_000)),
            settings: Default::default(),
            registry: Default::default(),
            ratings: tx,
            table_budget: Arc::new(crate::limits::RateBudget::per_minute(20, 10)),
            cluster: None,
            metrics: Arc::new(crate::metrics::Metrics::new(
                crate::metrics::latency_histogram(),
            )),
        };
        // A real game: 30 random plies, as stored entries.
        let rules =
            Rules::defaults(junqi_core::BoardKind::TwoPlayer, junqi_core::Mode::Dark).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let layouts = [Deployment::random(&mut rng), Deployment::random(&mut rng)];
        let mut played = Game::new_from_deployments(rules, &layouts, 0).unwrap();
        let mut stored = Vec::new();
        let mut announced = 0;
        for i in 0..30 {
            let legal = played.position().legal_actions();
            if played.position().is_over() || legal.is_empty() {
                break;
            }
            let seat = played.position().to_move();
            let entry = Entry::Action {
                seat,
                action: legal[i * 7 % legal.len()],
            };
            announced += played.apply(entry).unwrap().len();
            stored.push(store::StoredEntry {
                seq: i as i64 + 1,
                text: entry.to_text(played.record().topology()),
                action_id: Some(format!("a{i}")),
            });
        }
        let config =
            TableConfig::from_json(&json!({"board": "two_player", "mode": "dark"})).unwrap();
        let mut t = Table::blank(env, "t1".into(), "C".into(), String::new(), config, 0, 0);
        let seen = Arc::new(Mutex::new((0, 0)));
        t.bots[1] = Some(BotSlot {
            bot: Some(BotCell::new(TableBot::Junqi(Box::new(Recorder(
                seen.clone(),
            ))))),
            pending: Vec::new(),
        });
        let mut game = TableGame::Junqi(Box::new(
            Game::new_from_deployments(rules, &layouts, 0).unwrap(),
        ));
        replay_entries(&mut t, &mut game, &stored);
        let (calls, events) = *seen.lock().unwrap();
        assert_eq!(calls, stored.len(), "one observation per stored entry");
        assert_eq!(events, announced, "every announced event");
        assert_eq!(t.frames.len(), stored.len());
        // The clients' action ids come back with the seats that sent them and their versions.
        assert_eq!(t.action_ids.len(), stored.len());
        assert_eq!(t.action_ids.get(&(0, "a0".to_string())), Some(&1));
        assert_eq!(t.action_ids.get(&(1, "a1".to_string())), Some(&2));
        assert_eq!(game.plies(), played.position().plies());
    }
}
