//! The shared state of a running server: the database, the clock, the settings, the registry
//! of live tables, connection ids, accounts and the rating queue, and the operations surface
//! (metrics, readiness checks, shutdown). Tables see only a narrow [`TableEnv`] of it.

use crate::accounts::Accounts;
use crate::clock::Clock;
use crate::db::Db;
use crate::error::Refusal;
use crate::health::Readiness;
use crate::limits::RateBudget;
use crate::metrics::Metrics;
use crate::rating::rating_task;
use crate::registry::Registry;
pub use crate::settings::Settings;
use crate::shutdown::Shutdown;
use crate::store;
use crate::table::{self, Cmd, TableEnv, TableHandle};
use rand::RngCore;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc;

/// A person (guest or registered) or a bot, as others see them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Table creations per address (and per account, for rematches). In a cluster the nodes
    /// exchange its usage, as they do the frame budget's.
    pub table_budget: Arc<RateBudget>,
    /// WebSocket frames per client address and per account, shared by every connection here.
    /// The nodes of a cluster exchange its usage (`drain_local_usage`, `add_remote_usage`) so
    /// that a budget holds across them.
    pub frame_budget: Arc<RateBudget>,
    /// This node's part of a cluster (`None`: a single node).
    pub cluster: Option<Arc<crate::cluster::Cluster>>,
    /// The Prometheus metrics (`GET /metrics`).
    pub metrics: Arc<Metrics>,
    /// The checks `GET /readyz` runs; more may be added (see [`crate::health`]).
    pub readiness: Readiness,
    /// The shutdown phase and hooks (see [`crate::shutdown`]).
    pub shutdown: Shutdown,
    env: TableEnv,
    ratings: mpsc::UnboundedSender<crate::rating::RatingMsg>,
    next_conn: AtomicU64,
    pub(crate) accounts: Accounts,
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
        App::with_cluster(db, clock, settings, None)
    }

    /// A new app over an open database, as one node of a cluster (not yet started: see
    /// [`crate::cluster::Cluster::start`]).
    pub fn with_cluster(
        db: Db,
        clock: Arc<dyn Clock>,
        settings: Settings,
        cluster: Option<Arc<crate::cluster::Cluster>>,
    ) -> Arc<App> {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(rating_task(db.clone(), rx));
        let registry = Arc::new(Registry::default());
        let table_budget = Arc::new(RateBudget::per_minute(
            settings.tables_per_minute_per_address,
            100_000,
        ));
        // Keys are addresses and accounts with a live connection (at most
        // `max_connections_per_address` each): far fewer than this unless under attack.
        let frame_budget = Arc::new(RateBudget::new(
            settings.rate_per_sec,
            settings.rate_burst,
            100_000,
        ));
        let metrics = Arc::new(Metrics::new(db.write_seconds()));
        let readiness = Readiness::default();
        let ping_timeout = std::time::Duration::from_millis(settings.readiness_timeout_ms);
        let pinged = db.clone();
        readiness.add("database", move || {
            let db = pinged.clone();
            async move { db.ping(ping_timeout).await }
        });
        let env = TableEnv {
            metrics: metrics.clone(),
            db: db.clone(),
            clock: clock.clone(),
            settings: settings.clone(),
            registry: registry.clone(),
            ratings: tx.clone(),
            table_budget: table_budget.clone(),
            cluster: cluster.clone(),
        };
        let accounts = Accounts::new(&settings.accounts);
        Arc::new(App {
            db,
            clock,
            settings,
            registry,
            table_budget,
            frame_budget,
            cluster,
            metrics,
            readiness,
            shutdown: Shutdown::default(),
            env,
            ratings: tx,
            // A random start (below 2^48, so ids stay exact in JavaScript): a node restarted
            // under the same name never reuses a connection id its last run gave out, which
            // other nodes may still hold for a moment.
            next_conn: AtomicU64::new(1 + rand::random::<u64>() % (1 << 48)),
            accounts,
        })
    }

    /// Wait until every finished game queued for rating so far is rated (shutdown).
    pub(crate) async fn ratings_done(&self) {
        let (done, answer) = tokio::sync::oneshot::channel();
        if self
            .ratings
            .send(crate::rating::RatingMsg::Flush(done))
            .is_ok()
        {
            let _ = answer.await;
        }
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
    /// Refused with [`Refusal::NoTable`] if there is no such table, and in a cluster with
    /// [`Refusal::TableUnavailable`] while no node can run it yet (a takeover in progress).
    pub(crate) async fn table(&self, id: &str) -> Result<TableHandle, Refusal> {
        if id.len() > 64 {
            return Err(Refusal::NoTable);
        }
        if let Some(h) = self.registry.get(id) {
            return Ok(h);
        }
        match &self.cluster {
            // Run here under a lease, or forwarded to the node that runs it.
            Some(c) => c.resolve(self, id).await,
            None => table::load_by_id(&self.env, id)
                .await
                .ok_or(Refusal::NoTable),
        }
    }

    /// Send a command to a live table (reloading it once if its actor just ended).
    pub(crate) async fn send_to_table(
        &self,
        id: &str,
        make: impl Fn() -> Cmd,
    ) -> Result<TableHandle, Refusal> {
        for _ in 0..2 {
            let h = self.table(id).await?;
            if h.tx.send(make()).await.is_ok() {
                return Ok(h);
            }
            self.registry.forget(id);
        }
        Err(Refusal::TableUnavailable { retry_after: 1 })
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

    /// The lobby: the public tables not over (newest first) and the most recent finished
    /// games, both from the database, so that every server of one database lists the same.
    pub async fn lobby(&self) -> Result<Value, Refusal> {
        let tables = store::lobby(&self.db, 200)
            .await
            .map_err(Refusal::Internal)?;
        let recent = store::recent_finished(&self.db, 30)
            .await
            .map_err(Refusal::Internal)?;
        Ok(json!({
            "tables": tables,
            "recent_games": recent.iter().map(game_json).collect::<Vec<_>>(),
        }))
    }

    /// Number of live tables.
    pub fn live_tables(&self) -> usize {
        self.registry.len()
    }

    /// A player's page: the player, ratings and recent games.
    pub async fn player_page(&self, name: &str) -> Result<Option<Value>, String> {
        if name.len() > 64 {
            return Ok(None);
        }
        let Some(player) = self.player_by_name(name).await? else {
            return Ok(None);
        };
        let ratings: Vec<Value> = store::ratings_of(&self.db, &player.id)
            .await?
            .into_iter()
            .map(|(category, rating, rd, games)| {
                json!({"category": category, "rating": (rating * 10.0).round() / 10.0,
                       "rd": (rd * 10.0).round() / 10.0, "games": games,
                       "title": crate::rating::title(rating),
                       "provisional": crate::rating::provisional(rd)})
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
