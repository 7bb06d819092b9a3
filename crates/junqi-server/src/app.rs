//! The shared state of a running server: the database, the clock, the registry of live tables,
//! players and sessions, and the rating task.

use crate::accounts::{AccountSettings, Accounts};
use crate::clock::Clock;
use crate::db::{col_f64, col_i64, col_opt_str, col_str, Arg, Db};
use crate::rating::{self, Rating};
use crate::table::{self, Cmd, TableHandle};
use junqi_core::{BoardKind, Outcome, Seat};
use rand::RngCore;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Server settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Each bot's iteration budget per decision.
    pub bot_iterations: u64,
    /// Frames per second a connection may send (token bucket refill).
    pub rate_per_sec: f64,
    /// Token bucket size.
    pub rate_burst: f64,
    /// Limits of the account endpoints (throttles, password hashing, session lifetime).
    pub accounts: AccountSettings,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            bot_iterations: 1000,
            rate_per_sec: 20.0,
            rate_burst: 40.0,
            accounts: AccountSettings::default(),
        }
    }
}

/// A person (guest or registered) or a bot, as others see them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Stable id (`p_...`, or `bot:<name>`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// A guest (no password).
    pub guest: bool,
}

impl Player {
    /// JSON form `{"id", "name", "guest"}`.
    pub fn to_json(&self) -> Value {
        json!({"id": self.id, "name": self.name, "guest": self.guest})
    }
}

/// A finished game to rate.
pub(crate) struct RatingJob {
    pub category: String,
    pub board: BoardKind,
    /// The player at each seat (`None`: nobody to rate).
    pub players: Vec<Option<String>>,
    pub outcome: Outcome,
}

/// The running server's state.
pub struct App {
    /// The database.
    pub db: Db,
    /// The time source.
    pub clock: Arc<dyn Clock>,
    /// Settings.
    pub settings: Settings,
    tables: Mutex<HashMap<String, TableHandle>>,
    codes: Mutex<HashMap<String, String>>,
    next_conn: AtomicU64,
    ratings: mpsc::UnboundedSender<RatingJob>,
    pub(crate) accounts: Accounts,
    self_ref: std::sync::Weak<App>,
}

/// A random token of `bytes` random bytes in hex.
pub fn random_token(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut b);
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A random id from an alphabet.
pub fn random_id(len: usize, alphabet: &[u8]) -> String {
    let mut b = vec![0u8; len];
    rand::rngs::OsRng.fill_bytes(&mut b);
    b.iter()
        .map(|x| alphabet[*x as usize % alphabet.len()] as char)
        .collect()
}

pub(crate) const ID_ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
/// Join codes: no 0/O, 1/I/L.
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

impl App {
    /// A new app over an open database.
    pub fn new(db: Db, clock: Arc<dyn Clock>, settings: Settings) -> Arc<App> {
        let (tx, rx) = mpsc::unbounded_channel();
        let accounts = Accounts::new(&settings.accounts);
        let app = Arc::new_cyclic(|w| App {
            db,
            clock,
            settings,
            tables: Mutex::new(HashMap::new()),
            codes: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
            ratings: tx,
            accounts,
            self_ref: w.clone(),
        });
        tokio::spawn(rating_task(app.db.clone(), rx));
        app
    }

    /// This app as an `Arc`.
    pub fn arc(&self) -> Arc<App> {
        self.self_ref
            .upgrade()
            .expect("the app is alive while it is used")
    }

    /// Now, in ms.
    pub fn now(&self) -> u64 {
        self.clock.now_ms()
    }

    /// A new connection id.
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// A fresh table id.
    pub fn new_table_id(&self) -> String {
        random_id(10, ID_ALPHABET)
    }

    /// A fresh join code.
    pub fn new_code(&self) -> String {
        random_id(6, CODE_ALPHABET)
    }

    pub(crate) fn register_table(&self, id: &str, code: &str, handle: TableHandle) {
        if let Ok(mut t) = self.tables.lock() {
            t.insert(id.to_string(), handle);
        }
        if let Ok(mut c) = self.codes.lock() {
            c.insert(code.to_string(), id.to_string());
        }
    }

    pub(crate) fn unregister_table(&self, id: &str, code: &str) {
        if let Ok(mut t) = self.tables.lock() {
            t.remove(id);
        }
        if let Ok(mut c) = self.codes.lock() {
            c.remove(code);
        }
    }

    /// The live table with this id, loading it from the database if it is not in memory.
    pub(crate) async fn table(&self, id: &str) -> Option<TableHandle> {
        if id.len() > 64 {
            return None;
        }
        if let Some(h) = self.tables.lock().ok().and_then(|t| t.get(id).cloned()) {
            if !h.tx.is_closed() {
                return Some(h);
            }
        }
        table::load_by_id(&self.arc(), id).await
    }

    /// Send a command to a live table (reloading it once if its actor just ended).
    pub(crate) async fn send_to_table(
        &self,
        id: &str,
        make: impl Fn() -> Cmd,
    ) -> Option<TableHandle> {
        for _ in 0..2 {
            let h = self.table(id).await?;
            if h.tx.send(make()).await.is_ok() {
                return Some(h);
            }
            if let Ok(mut t) = self.tables.lock() {
                t.remove(id);
            }
        }
        None
    }

    /// The table id of a join code (case-insensitive).
    pub async fn id_of_code(&self, code: &str) -> Option<String> {
        let code = code.trim().to_ascii_uppercase();
        if code.len() > 16 {
            return None;
        }
        if let Some(id) = self.codes.lock().ok().and_then(|c| c.get(&code).cloned()) {
            return Some(id);
        }
        let row = self
            .db
            .fetch_opt(
                "SELECT id FROM junqi_tables WHERE code = $1",
                vec![code.into()],
            )
            .await
            .ok()??;
        Some(col_str(&row, 0))
    }

    /// Summaries of the live tables for the lobby (public ones, newest first).
    pub fn lobby(&self) -> Vec<Value> {
        let handles: Vec<TableHandle> = self
            .tables
            .lock()
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default();
        let mut list: Vec<Value> = handles
            .iter()
            .filter_map(|h| h.summary.lock().ok().map(|s| s.clone()))
            .filter(|s| s["private"] != json!(true))
            .collect();
        list.sort_by_key(|s| std::cmp::Reverse(s["created_ms"].as_u64().unwrap_or(0)));
        list.truncate(200);
        list
    }

    /// Number of live tables.
    pub fn live_tables(&self) -> usize {
        self.tables.lock().map(|t| t.len()).unwrap_or(0)
    }

    pub(crate) fn rate(&self, job: RatingJob) {
        let _ = self.ratings.send(job);
    }

    /// A player's page: the player, ratings and recent games.
    pub async fn player_page(&self, name: &str) -> Result<Option<Value>, String> {
        if name.len() > 64 {
            return Ok(None);
        }
        let Some(player) = self.player_by_name(name).await? else {
            return Ok(None);
        };
        let ratings: Vec<Value> = self
            .db
            .fetch(
                "SELECT category, rating, rd, games FROM junqi_ratings WHERE player_id = $1 ORDER BY category",
                vec![player.id.clone().into()],
            )
            .await?
            .iter()
            .map(|r| json!({"category": col_str(r, 0), "rating": (col_f64(r, 1) * 10.0).round() / 10.0,
                            "rd": (col_f64(r, 2) * 10.0).round() / 10.0, "games": col_i64(r, 3)}))
            .collect();
        let games = self.recent_games(&player.id, 20).await?;
        Ok(Some(
            json!({"player": player.to_json(), "ratings": ratings, "recent_games": games}),
        ))
    }

    /// A player's most recent finished games.
    pub async fn recent_games(&self, player_id: &str, limit: i64) -> Result<Vec<Value>, String> {
        let rows = self
            .db
            .fetch(
                "SELECT t.id, t.config, t.seats, t.result, t.finished_ms, g.seat FROM junqi_game_players g \
                 JOIN junqi_tables t ON t.id = g.table_id WHERE g.player_id = $1 ORDER BY g.finished_ms DESC LIMIT $2",
                vec![player_id.into(), limit.into()],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| {
                let config: Value = serde_json::from_str(&col_str(r, 1)).unwrap_or(Value::Null);
                let seats: Value = serde_json::from_str(&col_str(r, 2)).unwrap_or(Value::Null);
                let result = col_opt_str(r, 3).unwrap_or_default();
                let outcome = junqi_core::record::outcome_from_text(&result).ok();
                json!({
                    "id": col_str(r, 0),
                    "board": config["board"], "mode": config["mode"],
                    "seat": col_i64(r, 5),
                    "players": table::seat_names(&seats),
                    "player_ids": table::seat_player_ids(&seats),
                    "outcome": junqi_core::json::outcome_to_json(outcome),
                    "finished_ms": col_i64(r, 4),
                })
            })
            .collect())
    }
}

async fn load_rating(db: &Db, player: &str, category: &str) -> (Rating, i64) {
    match db
        .fetch_opt(
            "SELECT rating, rd, vol, games FROM junqi_ratings WHERE player_id = $1 AND category = $2",
            vec![player.into(), category.into()],
        )
        .await
    {
        Ok(Some(r)) => (Rating { rating: col_f64(&r, 0), rd: col_f64(&r, 1), vol: col_f64(&r, 2) }, col_i64(&r, 3)),
        _ => (Rating::default(), 0),
    }
}

/// Rates finished games one at a time (so that no two updates of one player race).
async fn rating_task(db: Db, mut rx: mpsc::UnboundedReceiver<RatingJob>) {
    while let Some(job) = rx.recv().await {
        let score = |seat: Seat| -> Option<f64> {
            match job.outcome {
                Outcome::Win { .. } => Some(if job.outcome.winners().contains(&seat) {
                    1.0
                } else {
                    0.0
                }),
                Outcome::Draw { .. } => Some(0.5),
                Outcome::Aborted => None,
            }
        };
        let n = job.players.len();
        let mut current = Vec::with_capacity(n);
        for p in &job.players {
            current.push(match p {
                Some(id) => Some(load_rating(&db, id, &job.category).await),
                None => None,
            });
        }
        let mut stmts = Vec::new();
        for seat in 0..n {
            let (Some(pid), Some((mine, games)), Some(s)) =
                (&job.players[seat], current[seat], score(seat as Seat))
            else {
                continue;
            };
            let opponent = match job.board {
                BoardKind::TwoPlayer => current[1 - seat].map(|c| c.0),
                BoardKind::FourPlayer => {
                    let enemies: Vec<Rating> = [(seat + 1) % 4, (seat + 3) % 4]
                        .iter()
                        .filter_map(|&e| current[e].map(|c| c.0))
                        .collect();
                    (!enemies.is_empty()).then(|| rating::team(&enemies))
                }
            };
            let Some(opp) = opponent else { continue };
            if job
                .players
                .iter()
                .enumerate()
                .any(|(o, q)| o != seat && q.as_ref() == Some(pid) && o % 2 != seat % 2)
            {
                continue; // one person on both sides: not rated
            }
            let new = rating::update(mine, &[(opp, s)]);
            stmts.push((
                "DELETE FROM junqi_ratings WHERE player_id = $1 AND category = $2",
                vec![Arg::from(pid.as_str()), Arg::from(job.category.as_str())],
            ));
            stmts.push((
                "INSERT INTO junqi_ratings (player_id, category, rating, rd, vol, games) VALUES ($1, $2, $3, $4, $5, $6)",
                vec![
                    pid.as_str().into(),
                    job.category.as_str().into(),
                    new.rating.into(),
                    new.rd.into(),
                    new.vol.into(),
                    (games + 1).into(),
                ],
            ));
        }
        if !stmts.is_empty() {
            if let Err(e) = db.write(stmts).await {
                tracing::warn!("rating update failed: {e}");
            }
        }
    }
}
