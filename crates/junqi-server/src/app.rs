//! The shared state of a running server: the database, the clock, the settings, the registry
//! of live tables, connection ids, accounts and the rating queue. Tables see only a narrow
//! [`TableEnv`] of it.

use crate::clock::Clock;
use crate::db::{col_i64, col_opt_str, col_str, Db};
use crate::error::Refusal;
use crate::limits::Limiter;
use crate::rating::rating_task;
use crate::registry::Registry;
pub use crate::secret::random_token;
pub use crate::settings::Settings;
use crate::store;
use crate::table::{self, Cmd, TableEnv, TableHandle};
use rand::RngCore;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc;

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

/// The running server's state.
pub struct App {
    /// The database.
    pub db: Db,
    /// The time source.
    pub clock: Arc<dyn Clock>,
    /// Settings.
    pub settings: Settings,
    /// The live tables.
    pub registry: Arc<Registry>,
    /// Table creation per address.
    pub(crate) limiter: Limiter,
    env: TableEnv,
    next_conn: AtomicU64,
}

/// A random id from an alphabet.
pub fn random_id(len: usize, alphabet: &[u8]) -> String {
    let mut b = vec![0u8; len];
    rand::rngs::OsRng.fill_bytes(&mut b);
    b.iter()
        .map(|x| alphabet[*x as usize % alphabet.len()] as char)
        .collect()
}

const ID_ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
/// Join codes: no 0/O, 1/I/L.
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// A fresh table id.
pub fn new_table_id() -> String {
    random_id(10, ID_ALPHABET)
}

/// A fresh join code.
pub fn new_code() -> String {
    random_id(6, CODE_ALPHABET)
}

impl App {
    /// A new app over an open database.
    pub fn new(db: Db, clock: Arc<dyn Clock>, settings: Settings) -> Arc<App> {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(rating_task(db.clone(), rx));
        let registry = Arc::new(Registry::default());
        let env = TableEnv {
            db: db.clone(),
            clock: clock.clone(),
            settings: settings.clone(),
            registry: registry.clone(),
            ratings: tx,
        };
        let limiter = Limiter::new(
            settings.tables_per_minute_per_address,
            std::time::Duration::from_secs(60),
            100_000,
        );
        Arc::new(App {
            db,
            clock,
            settings,
            registry,
            limiter,
            env,
            next_conn: AtomicU64::new(1),
        })
    }

    pub(crate) fn env(&self) -> &TableEnv {
        &self.env
    }

    /// Now, in ms.
    pub fn now(&self) -> u64 {
        self.clock.now_ms()
    }

    /// A new connection id.
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// The live table with this id, loading it from the database if it is not in memory.
    pub(crate) async fn table(&self, id: &str) -> Option<TableHandle> {
        if id.len() > 64 {
            return None;
        }
        if let Some(h) = self.registry.get(id) {
            return Some(h);
        }
        table::load_by_id(&self.env, id).await
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
            self.registry.forget(id);
        }
        None
    }

    /// The table id of a join code (case-insensitive).
    pub async fn id_of_code(&self, code: &str) -> Option<String> {
        let code = code.trim().to_ascii_uppercase();
        if code.len() > 16 {
            return None;
        }
        if let Some(id) = self.registry.id_of_code(&code) {
            return Some(id);
        }
        store::id_of_code(&self.db, &code).await.ok()?
    }

    /// The lobby: the public live tables (newest first) and the most recent finished games.
    pub async fn lobby(&self) -> Result<Value, Refusal> {
        let recent = store::recent_finished(&self.db, 30)
            .await
            .map_err(Refusal::Internal)?;
        Ok(json!({
            "tables": self.registry.lobby(200),
            "recent_games": recent.iter().map(game_json).collect::<Vec<_>>(),
        }))
    }

    /// Number of live tables.
    pub fn live_tables(&self) -> usize {
        self.registry.len()
    }

    /// The player of a session token.
    pub async fn player_by_session(&self, token: &str) -> Option<Player> {
        if token.len() > 128 {
            return None;
        }
        let row = self
            .db
            .fetch_opt(
                "SELECT p.id, p.name, p.guest FROM junqi_sessions s JOIN junqi_players p ON p.id = s.player_id WHERE s.token = $1",
                vec![token.into()],
            )
            .await
            .ok()??;
        Some(Player {
            id: col_str(&row, 0),
            name: col_str(&row, 1),
            guest: col_i64(&row, 2) != 0,
        })
    }

    async fn new_session(&self, player_id: &str) -> Result<String, String> {
        let token = random_token(24);
        self.db
            .write1(
                "INSERT INTO junqi_sessions (token, player_id, created_ms) VALUES ($1, $2, $3)",
                vec![
                    token.clone().into(),
                    player_id.into(),
                    (self.now() as i64).into(),
                ],
            )
            .await?;
        Ok(token)
    }

    /// A new guest player and its session.
    pub async fn new_guest(&self, name: Option<&str>) -> Result<(Player, String), String> {
        let id = format!("p_{}", random_id(12, ID_ALPHABET));
        let suffix = random_id(4, b"0123456789");
        let shown = match name.map(clean_name) {
            Some(n) if !n.is_empty() => n,
            _ => format!("Guest-{suffix}"),
        };
        let key = format!("guest:{id}");
        self.db
            .write1(
                "INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms) VALUES ($1, $2, $3, NULL, 1, $4)",
                vec![id.clone().into(), shown.clone().into(), key.into(), (self.now() as i64).into()],
            )
            .await?;
        let session = self.new_session(&id).await?;
        Ok((
            Player {
                id,
                name: shown,
                guest: true,
            },
            session,
        ))
    }

    /// Register an account (argon2-hashed password). Errors: a bad name or password, or a taken name.
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        from_guest: Option<&Player>,
    ) -> Result<(Player, String), (u16, String)> {
        if !valid_account_name(name) {
            return Err((400, "a name has 3 to 24 letters, digits, '_' or '-'".into()));
        }
        if password.chars().count() < 8 || password.len() > 256 {
            return Err((400, "a password has 8 to 256 characters".into()));
        }
        let key = name.to_lowercase();
        if self
            .db
            .fetch_opt(
                "SELECT id FROM junqi_players WHERE name_key = $1",
                vec![key.clone().into()],
            )
            .await
            .map_err(|e| (500, e))?
            .is_some()
        {
            return Err((409, format!("the name {name} is taken")));
        }
        let pw = password.to_string();
        let hash = tokio::task::spawn_blocking(move || {
            use argon2::password_hash::{rand_core::OsRng, PasswordHasher, SaltString};
            let salt = SaltString::generate(&mut OsRng);
            argon2::Argon2::default()
                .hash_password(pw.as_bytes(), &salt)
                .map(|h| h.to_string())
        })
        .await
        .map_err(|e| (500, e.to_string()))?
        .map_err(|e| (500, e.to_string()))?;
        let id = match from_guest {
            Some(g) => {
                self.db
                    .write1(
                        "UPDATE junqi_players SET name = $1, name_key = $2, password_hash = $3, guest = 0 WHERE id = $4 AND guest = 1",
                        vec![name.into(), key.into(), hash.into(), g.id.as_str().into()],
                    )
                    .await
                    .map_err(|_| (409, format!("the name {name} is taken")))?;
                g.id.clone()
            }
            None => {
                let id = format!("p_{}", random_id(12, ID_ALPHABET));
                self.db
                    .write1(
                        "INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms) VALUES ($1, $2, $3, $4, 0, $5)",
                        vec![id.clone().into(), name.into(), key.into(), hash.into(), (self.now() as i64).into()],
                    )
                    .await
                    .map_err(|_| (409, format!("the name {name} is taken")))?;
                id
            }
        };
        let session = self.new_session(&id).await.map_err(|e| (500, e))?;
        Ok((
            Player {
                id,
                name: name.to_string(),
                guest: false,
            },
            session,
        ))
    }

    /// End a session.
    pub async fn logout(&self, token: &str) -> Result<(), String> {
        self.db
            .write1(
                "DELETE FROM junqi_sessions WHERE token = $1",
                vec![token.into()],
            )
            .await
    }

    /// Log in with a name and password.
    pub async fn login(
        &self,
        name: &str,
        password: &str,
    ) -> Result<(Player, String), (u16, String)> {
        let bad = || (401, "wrong name or password".to_string());
        if name.len() > 64 || password.len() > 256 {
            return Err(bad());
        }
        let row = self
            .db
            .fetch_opt(
                "SELECT id, name, password_hash FROM junqi_players WHERE name_key = $1 AND guest = 0",
                vec![name.to_lowercase().into()],
            )
            .await
            .map_err(|e| (500, e))?
            .ok_or_else(bad)?;
        let (id, shown, hash) = (
            col_str(&row, 0),
            col_str(&row, 1),
            col_opt_str(&row, 2).unwrap_or_default(),
        );
        let pw = password.to_string();
        let ok = tokio::task::spawn_blocking(move || {
            use argon2::password_hash::{PasswordHash, PasswordVerifier};
            PasswordHash::new(&hash)
                .map(|h| {
                    argon2::Argon2::default()
                        .verify_password(pw.as_bytes(), &h)
                        .is_ok()
                })
                .unwrap_or(false)
        })
        .await
        .unwrap_or(false);
        if !ok {
            return Err(bad());
        }
        let session = self.new_session(&id).await.map_err(|e| (500, e))?;
        Ok((
            Player {
                id,
                name: shown,
                guest: false,
            },
            session,
        ))
    }

    /// The player record of a bot (created on first use).
    pub async fn bot_player(&self, bot: &str) -> Player {
        let id = format!("bot:{bot}");
        let _ = self
            .db
            .write1(
                "INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms) VALUES ($1, $2, $3, NULL, 0, $4) ON CONFLICT DO NOTHING",
                vec![id.clone().into(), id.clone().into(), id.clone().into(), (self.now() as i64).into()],
            )
            .await;
        Player {
            id: id.clone(),
            name: id,
            guest: false,
        }
    }

    /// A player's page: the player, ratings and recent games.
    pub async fn player_page(&self, name: &str) -> Result<Option<Value>, String> {
        if name.len() > 64 {
            return Ok(None);
        }
        let row = self
            .db
            .fetch_opt(
                "SELECT id, name, guest FROM junqi_players WHERE name_key = $1 OR id = $2",
                vec![name.to_lowercase().into(), name.into()],
            )
            .await?;
        let Some(row) = row else { return Ok(None) };
        let player = Player {
            id: col_str(&row, 0),
            name: col_str(&row, 1),
            guest: col_i64(&row, 2) != 0,
        };
        let ratings: Vec<Value> = store::ratings_of(&self.db, &player.id)
            .await?
            .into_iter()
            .map(|(category, rating, rd, games)| {
                json!({"category": category, "rating": (rating * 10.0).round() / 10.0,
                       "rd": (rd * 10.0).round() / 10.0, "games": games})
            })
            .collect();
        let games = self.recent_games(&player.id, 20).await?;
        Ok(Some(
            json!({"player": player.to_json(), "ratings": ratings, "recent_games": games}),
        ))
    }

    /// A player's most recent finished games.
    pub async fn recent_games(&self, player_id: &str, limit: i64) -> Result<Vec<Value>, String> {
        Ok(store::player_games(&self.db, player_id, limit)
            .await?
            .iter()
            .map(game_json)
            .collect())
    }
}

/// A finished game as lists show it.
fn game_json(g: &store::FinishedGame) -> Value {
    let outcome = junqi_core::record::outcome_from_text(&g.result).ok();
    let mut v = json!({
        "id": g.id,
        "board": g.config["board"], "mode": g.config["mode"],
        "players": table::seat_names(&g.seats),
        "player_ids": table::seat_player_ids(&g.seats),
        "outcome": junqi_core::json::outcome_to_json(outcome),
        "finished_ms": g.finished_ms,
    });
    if let Some(s) = g.seat {
        v["seat"] = s.into();
    }
    v
}

fn clean_name(n: &str) -> String {
    n.chars()
        .filter(|c| !c.is_control())
        .take(24)
        .collect::<String>()
        .trim()
        .to_string()
}

fn valid_account_name(n: &str) -> bool {
    (3..=24).contains(&n.chars().count())
        && n.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}
