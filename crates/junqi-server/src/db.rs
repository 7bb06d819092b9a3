//! Persistence: one code path for SQLite and PostgreSQL through sqlx's `any` driver, the
//! migrations of both dialects, and a single writer task that commits writes in order, grouping
//! whatever is queued into one transaction (group commit).

use anyhow::Context;
use prometheus_client::metrics::histogram::Histogram;
use sqlx::any::{AnyArguments, AnyPoolOptions, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, AnyPool, Executor, Row};
use tokio::sync::{mpsc, oneshot};

/// Which database the server talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// A value bound to a statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// An integer.
    I(i64),
    /// A float.
    F(f64),
    /// A text.
    T(String),
    /// A NULL text.
    Null,
}

impl From<i64> for Arg {
    fn from(v: i64) -> Arg {
        Arg::I(v)
    }
}
impl From<f64> for Arg {
    fn from(v: f64) -> Arg {
        Arg::F(v)
    }
}
impl From<String> for Arg {
    fn from(v: String) -> Arg {
        Arg::T(v)
    }
}
impl From<&str> for Arg {
    fn from(v: &str) -> Arg {
        Arg::T(v.to_string())
    }
}
impl From<Option<String>> for Arg {
    fn from(v: Option<String>) -> Arg {
        v.map_or(Arg::Null, Arg::T)
    }
}

/// One statement to write.
pub type Stmt = (&'static str, Vec<Arg>);

/// A table's lease as its node holds it (cluster mode): a write carrying it commits only while
/// the lease row still names this node and epoch, checked in the write's own transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The table.
    pub table: String,
    /// The node holding the lease.
    pub node: String,
    /// The lease's epoch when this node took it.
    pub epoch: i64,
}

/// In the error of a write refused because its fence no longer holds.
pub const LEASE_LOST: &str = "lease lost";

struct WriteJob {
    fence: Option<Fence>,
    stmts: Vec<Stmt>,
    done: oneshot::Sender<Result<(), String>>,
}

/// The database: a pool for reads and an ordered writer.
#[derive(Clone)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    writer: mpsc::Sender<WriteJob>,
    /// How long each group commit takes (observed by the writer task).
    write_seconds: Histogram,
}

const MIGRATIONS_SQLITE: &[(i64, &str)] = &[
    (1, include_str!("../migrations/sqlite/0001_init.sql")),
    (2, include_str!("../migrations/sqlite/0002_accounts.sql")),
    (3, include_str!("../migrations/sqlite/0003_table_state.sql")),
    (4, include_str!("../migrations/sqlite/0004_lobby.sql")),
    (5, include_str!("../migrations/sqlite/0005_leases.sql")),
    (6, include_str!("../migrations/sqlite/0006_runs.sql")),
    (
        7,
        include_str!("../migrations/sqlite/0007_actions_and_guests.sql"),
    ),
];
const MIGRATIONS_POSTGRES: &[(i64, &str)] = &[
    (1, include_str!("../migrations/postgres/0001_init.sql")),
    (2, include_str!("../migrations/postgres/0002_accounts.sql")),
    (
        3,
        include_str!("../migrations/postgres/0003_table_state.sql"),
    ),
    (4, include_str!("../migrations/postgres/0004_lobby.sql")),
    (5, include_str!("../migrations/postgres/0005_leases.sql")),
    (6, include_str!("../migrations/postgres/0006_runs.sql")),
    (
        7,
        include_str!("../migrations/postgres/0007_actions_and_guests.sql"),
    ),
];

fn bind<'q>(
    mut q: Query<'q, Any, AnyArguments<'q>>,
    args: &'q [Arg],
) -> Query<'q, Any, AnyArguments<'q>> {
    for a in args {
        q = match a {
            Arg::I(v) => q.bind(*v),
            Arg::F(v) => q.bind(*v),
            Arg::T(s) => q.bind(s.as_str()),
            Arg::Null => q.bind(None::<String>),
        };
    }
    q
}

impl Db {
    /// Open (and create, for SQLite) the database at `url` (`sqlite://path` or
    /// `postgres://...`) and run the migrations.
    pub async fn open(url: &str) -> anyhow::Result<Db> {
        Db::open_with(url, crate::settings::Settings::default().wal_limit_bytes).await
    }

    /// [`Db::open`], with the size past which the SQLite write-ahead log is checkpointed and
    /// truncated.
    pub async fn open_with(url: &str, wal_limit: u64) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            anyhow::bail!(
                "unsupported database URL {url:?} (expected sqlite://... or postgres://...)"
            );
        };
        let url = if backend == Backend::Sqlite && !url.contains('?') {
            format!("{url}?mode=rwc")
        } else {
            url.to_string()
        };
        let wal = (backend == Backend::Sqlite).then(|| wal_path(&url));
        let pool = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 4 } else { 8 })
            // A database that cannot be reached says so in seconds, not after half a minute.
            .acquire_timeout(std::time::Duration::from_secs(10))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        // Checkpoints run beside the writer (see `checkpointer`) and between its
                        // commits (see `writer`), not inside a commit, so a slow disk never
                        // stalls every table at once.
                        conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                        // After a checkpoint resets the log, its file is cut back to this size.
                        let limit = format!("PRAGMA journal_size_limit = {wal_limit}");
                        conn.execute(limit.as_str()).await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await
            .map_err(|e| anyhow::anyhow!("cannot open the database {url}: {e}"))?;
        if backend == Backend::Sqlite {
            check_integrity(&pool, &url).await?;
        }
        migrate(&pool, backend)
            .await
            .with_context(|| format!("migrating the database {url}"))?;
        let (tx, rx) = mpsc::channel(4096);
        let write_seconds = crate::metrics::latency_histogram();
        tokio::spawn(writer(
            pool.clone(),
            rx,
            wal.map(|p| (p, wal_limit)),
            write_seconds.clone(),
        ));
        if backend == Backend::Sqlite {
            tokio::spawn(checkpointer(pool.clone()));
        }
        Ok(Db {
            pool,
            backend,
            writer: tx,
            write_seconds,
        })
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Write statements, in order after every earlier write, in one transaction; returns once
    /// they are committed.
    pub async fn write(&self, stmts: Vec<Stmt>) -> Result<(), String> {
        self.write_fenced(None, stmts).await
    }

    /// [`Db::write`] under a table's lease: with a fence, the statements commit only if the
    /// lease still names the fence's node and epoch (else the error contains [`LEASE_LOST`]
    /// and nothing is written). The check locks the lease row until the commit,
    /// so a node taking the lease over waits for a write already under way.
    pub async fn write_fenced(&self, fence: Option<Fence>, stmts: Vec<Stmt>) -> Result<(), String> {
        let (done, rx) = oneshot::channel();
        self.writer
            .send(WriteJob { fence, stmts, done })
            .await
            .map_err(|_| "the database writer stopped".to_string())?;
        rx.await
            .map_err(|_| "the database writer stopped".to_string())?
    }

    /// Write one statement (see [`Db::write`]).
    pub async fn write1(&self, sql: &'static str, args: Vec<Arg>) -> Result<(), String> {
        self.write(vec![(sql, args)]).await
    }

    /// Read rows.
    pub async fn fetch(&self, sql: &str, args: Vec<Arg>) -> Result<Vec<AnyRow>, String> {
        bind(sqlx::query(sql), &args)
            .fetch_all(&self.pool)
            .await
            .map_err(|e| e.to_string())
    }

    /// Read at most one row.
    pub async fn fetch_opt(&self, sql: &str, args: Vec<Arg>) -> Result<Option<AnyRow>, String> {
        bind(sqlx::query(sql), &args)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| e.to_string())
    }

    /// The histogram of the writer's group commits, in seconds (the server's metrics serve it
    /// as `junqi_db_write_seconds`).
    pub fn write_seconds(&self) -> Histogram {
        self.write_seconds.clone()
    }

    /// Whether the database answers a trivial query within `timeout` (readiness).
    pub async fn ping(&self, timeout: std::time::Duration) -> Result<(), String> {
        match tokio::time::timeout(timeout, sqlx::query("SELECT 1").fetch_one(&self.pool)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {} ms", timeout.as_millis())),
        }
    }

    /// Wait until every write queued so far is committed (or failed): a write queued after
    /// them is committed after them, so its answer says they are done.
    pub async fn flush(&self) -> Result<(), String> {
        self.write(Vec::new()).await
    }

    /// Close the pool.
    pub async fn close(&self) {
        self.pool.close().await
    }
}

/// Column helpers that never panic.
pub fn col_str(row: &AnyRow, i: usize) -> String {
    row.try_get::<String, _>(i).unwrap_or_default()
}
/// An optional text column.
pub fn col_opt_str(row: &AnyRow, i: usize) -> Option<String> {
    row.try_get::<Option<String>, _>(i).ok().flatten()
}
/// An integer column (0 if NULL or unreadable).
pub fn col_i64(row: &AnyRow, i: usize) -> i64 {
    row.try_get::<Option<i64>, _>(i).ok().flatten().unwrap_or(0)
}
/// An optional integer column.
pub fn col_opt_i64(row: &AnyRow, i: usize) -> Option<i64> {
    row.try_get::<Option<i64>, _>(i).ok().flatten()
}
/// A float column.
pub fn col_f64(row: &AnyRow, i: usize) -> f64 {
    row.try_get::<f64, _>(i).unwrap_or(0.0)
}

async fn migrate(pool: &AnyPool, backend: Backend) -> anyhow::Result<()> {
    let mut conn = pool.acquire().await?;
    if backend == Backend::Postgres {
        conn.execute("SELECT pg_advisory_lock(7351)").await?;
    }
    let result = async {
        conn.execute(
            "CREATE TABLE IF NOT EXISTS junqi_migrations (version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL)",
        )
        .await?;
        let done: Vec<i64> = sqlx::query("SELECT version FROM junqi_migrations")
            .fetch_all(&mut *conn)
            .await?
            .iter()
            .map(|r| r.try_get::<i64, _>(0).unwrap_or(-1))
            .collect();
        let list = match backend {
            Backend::Sqlite => MIGRATIONS_SQLITE,
            Backend::Postgres => MIGRATIONS_POSTGRES,
        };
        for &(version, sql) in list {
            if done.contains(&version) {
                continue;
            }
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            for stmt in sql.split(';') {
                let body: String =
                    stmt.lines().filter(|l| !l.trim_start().starts_with("--")).collect::<Vec<_>>().join("\n");
                if body.trim().is_empty() {
                    continue;
                }
                tx.execute(body.as_str()).await.with_context(|| format!("migration {version}: {body}"))?;
            }
            let now = crate::clock::Clock::now_ms(&crate::clock::SystemClock) as i64;
            sqlx::query("INSERT INTO junqi_migrations (version, applied_ms) VALUES ($1, $2)")
                .bind(version)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        }
        anyhow::Ok(())
    }
    .await;
    if backend == Backend::Postgres {
        let _ = conn.execute("SELECT pg_advisory_unlock(7351)").await;
    }
    result
}

async fn run_batch(pool: &AnyPool, jobs: &[WriteJob]) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    for job in jobs {
        if let Some(f) = &job.fence {
            let held = sqlx::query(
                "UPDATE junqi_leases SET epoch = epoch WHERE table_id = $1 AND node = $2 AND epoch = $3",
            )
            .bind(f.table.as_str())
            .bind(f.node.as_str())
            .bind(f.epoch)
            .execute(&mut *tx)
            .await?;
            if held.rows_affected() != 1 {
                return Err(sqlx::Error::Protocol(format!(
                    "{LEASE_LOST}: table {} is no longer run by node {} (epoch {})",
                    f.table, f.node, f.epoch
                )));
            }
        }
        for (sql, args) in &job.stmts {
            bind(sqlx::query(sql), args).execute(&mut *tx).await?;
        }
    }
    tx.commit().await
}

/// The write-ahead log file of a `sqlite://path?...` URL.
fn wal_path(url: &str) -> std::path::PathBuf {
    let path = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    let path = path.split('?').next().unwrap_or(path);
    std::path::PathBuf::from(format!("{path}-wal"))
}

/// A SQLite file that opens but is damaged (truncated pages, garbage inside) is refused at start
/// with SQLite's own words, not at the first write of a game.
async fn check_integrity(pool: &AnyPool, url: &str) -> anyhow::Result<()> {
    let rows = sqlx::query("PRAGMA quick_check")
        .fetch_all(pool)
        .await
        .map_err(|e| anyhow::anyhow!("the database {url} is not a usable SQLite database: {e}"))?;
    let report: Vec<String> = rows
        .iter()
        .filter_map(|r| r.try_get::<String, _>(0).ok())
        .collect();
    if report != ["ok"] {
        anyhow::bail!(
            "the database {url} is damaged (SQLite's quick_check: {}): restore it from a backup or move it away",
            report.join("; ")
        );
    }
    Ok(())
}

/// If the write-ahead log has grown past `limit`, move it into the database and truncate it.
/// Run by the writer between commits, so no write of ours competes; readers are short and the
/// busy timeout waits them out. Under steady load a passive checkpoint never catches up with the
/// writer (the log is only reset when it has been copied whole), so the log would grow forever.
async fn bound_wal(pool: &AnyPool, wal: &std::path::Path, limit: u64) {
    let size = std::fs::metadata(wal).map(|m| m.len()).unwrap_or(0);
    if size <= limit {
        return;
    }
    match sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .fetch_optional(pool)
        .await
    {
        Ok(_) => tracing::debug!("write-ahead log was {size} bytes: checkpointed and truncated"),
        Err(e) => tracing::warn!("checkpoint of a {size}-byte write-ahead log failed: {e}"),
    }
}

async fn writer(
    pool: AnyPool,
    mut rx: mpsc::Receiver<WriteJob>,
    wal: Option<(std::path::PathBuf, u64)>,
    write_seconds: Histogram,
) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < 1024 {
            match rx.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        let started = std::time::Instant::now();
        let result = run_batch(&pool, &batch).await;
        let took = started.elapsed();
        write_seconds.observe(took.as_secs_f64());
        if took > std::time::Duration::from_millis(100) {
            tracing::warn!("slow database commit: {} writes in {took:?}", batch.len());
        }
        match result {
            Ok(()) => {
                for j in batch {
                    let _ = j.done.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                tracing::warn!("database write failed: {e}");
                for j in batch {
                    let _ = j.done.send(Err(e.to_string()));
                }
            }
            Err(_) => {
                // One job spoiled the group: commit each alone so the others still land.
                for j in batch {
                    let r = run_batch(&pool, std::slice::from_ref(&j))
                        .await
                        .map_err(|e| e.to_string());
                    if let Err(e) = &r {
                        tracing::warn!("database write failed: {e}");
                    }
                    let _ = j.done.send(r);
                }
            }
        }
        if let Some((path, limit)) = &wal {
            bound_wal(&pool, path, *limit).await;
        }
    }
}

/// Moves the SQLite write-ahead log into the database every second without blocking the writer
/// (a passive checkpoint).
async fn checkpointer(pool: AnyPool) {
    loop {
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        if pool.is_closed() {
            return;
        }
        if let Err(e) = pool.execute("PRAGMA wal_checkpoint(PASSIVE)").await {
            tracing::debug!("checkpoint: {e}");
        }
    }
}
