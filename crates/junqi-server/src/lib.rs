//! # junqi-server
//!
//! `junqi serve`: one process that is the whole product on one machine. Lobby and tables,
//! seats for people and bots, deployment and move clocks, the table rules of RULES §10
//! (`docs/rules.md`), reconnects with versioned events, persistence in SQLite or PostgreSQL
//! (every accepted entry is stored before anyone is told of it; unfinished games resume after a
//! restart with their clocks, draw offers and bots' beliefs), guest and registered accounts with
//! Glicko-2 ratings, records and replays, and the browser client (`web/`), all over HTTP and
//! WebSocket. The protocol is `docs/server-protocol.md`.
//!
//! Every view a client gets is computed by the core's redaction ([`junqi_core::Observation`]).
//! Every limit that keeps the server bounded (connections per address, header and hello
//! timeouts, keepalive, table expiry, creation rates, the write-ahead log) is in [`Settings`].
//!
//! For the machinery that runs it (`docs/deploy.md`, "Operations"): `GET /healthz`, `GET /readyz`
//! with checks that code built on the server can add ([`health`]), Prometheus metrics at
//! `GET /metrics` ([`metrics`]), a `table` span on every table's log lines, and a graceful
//! [`Server::shutdown`] with hooks ([`shutdown`]).

#![warn(missing_docs)]

pub mod accounts;
pub mod app;
pub mod client;
pub mod clock;
pub mod cluster;
pub mod datadir;
pub mod db;
pub mod error;
pub mod health;
mod http;
pub mod idle;
pub mod limits;
pub mod metrics;
pub mod names;
pub mod protocol;
pub mod proxy;
pub mod rating;
pub mod registry;
pub mod secret;
pub mod settings;
pub mod shutdown;
mod store;
pub mod table;
mod web;
mod ws;

pub use app::{App, Settings};
pub use clock::{Clock, ManualClock, SystemClock};

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How to run a server.
#[derive(Clone)]
pub struct Config {
    /// Where to listen (port 0: any free port).
    pub addr: SocketAddr,
    /// The data directory (the SQLite file lives there).
    pub data_dir: PathBuf,
    /// A `postgres://` URL (or `sqlite://` URL) instead of the SQLite file in the data directory.
    pub database: Option<String>,
    /// The time source.
    pub clock: Arc<dyn Clock>,
    /// Settings.
    pub settings: Settings,
    /// Run as one node of a cluster (needs a PostgreSQL `database`).
    pub cluster: Option<cluster::ClusterConfig>,
}

impl Config {
    /// Defaults: 127.0.0.1:8080, `./junqi-data`, SQLite, the system clock.
    pub fn new(addr: SocketAddr, data_dir: PathBuf) -> Config {
        Config {
            addr,
            data_dir,
            database: None,
            clock: Arc::new(SystemClock),
            settings: Settings::default(),
            cluster: None,
        }
    }

    /// The database URL this configuration uses.
    pub fn database_url(&self) -> String {
        match &self.database {
            Some(u) => u.clone(),
            None => format!(
                "sqlite://{}",
                datadir::database_path(&self.data_dir).display()
            ),
        }
    }
}

/// A running server.
pub struct Server {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Its state.
    pub app: Arc<App>,
    task: tokio::task::JoinHandle<()>,
    /// The lock on the data directory, held while the server runs.
    lock: std::sync::Mutex<Option<datadir::DirLock>>,
}

/// How a graceful shutdown went ([`Server::shutdown`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShutdownReport {
    /// Every step finished within `Settings::shutdown_timeout_ms`.
    pub clean: bool,
    /// Tables whose actor stopped after handling what it had queued.
    pub tables_stopped: usize,
    /// How long it took, in ms.
    pub took_ms: u64,
}

impl Server {
    /// The base URL (`http://127.0.0.1:port`).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Wait until the server stops.
    pub async fn wait(self) {
        let _ = self.task.await;
    }

    /// Stop gracefully, within `Settings::shutdown_timeout_ms` (the steps are in
    /// [`shutdown`]): `/readyz` answers 503 at once, no connection is accepted, every table
    /// handles what it has queued and stops, the shutdown hooks run, WebSocket clients get a
    /// close frame with code 1012 ("service restart"), the database's queued writes are
    /// committed and it is closed, and the data directory is let go. Whatever is not done by
    /// the deadline is abandoned (the report says so); every entry announced to anyone was
    /// stored before, as always.
    pub async fn shutdown(self) -> ShutdownReport {
        let started = std::time::Instant::now();
        let app = self.app.clone();
        let budget = Duration::from_millis(app.settings.shutdown_timeout_ms);
        let deadline = tokio::time::Instant::now() + budget;
        let mut clean = true;
        let mut note = |step: &str, done: bool| {
            if !done {
                tracing::warn!("shutdown: {step} not finished in time");
                clean = false;
            }
        };
        app.shutdown.begin();
        tracing::info!("shutting down: no new connections, tables finishing their work");

        // The listener closes at once; requests already being served get half the time at
        // most, so that a slow client cannot take the tables' share.
        let mut task = self.task;
        let half = tokio::time::Instant::now() + budget / 2;
        let served = tokio::time::timeout_at(half, &mut task).await.is_ok();
        if !served {
            task.abort();
        }
        note("HTTP requests in flight", served);

        let (tables_stopped, stopped) = stop_tables(&app, deadline).await;
        note("stopping the tables", stopped);

        let hooks = app.shutdown.run_hooks(deadline).await;
        note("the shutdown hooks", hooks);

        app.shutdown.close_connections();
        let closed = tokio::time::timeout_at(deadline, app.shutdown.connections_closed())
            .await
            .is_ok();
        note("closing the WebSocket connections", closed);

        // Games that ended just now are rated before the database closes.
        let rated = tokio::time::timeout_at(deadline, app.ratings_done())
            .await
            .is_ok();
        note("rating finished games", rated);
        let flushed = tokio::time::timeout_at(deadline, app.db.flush()).await;
        note(
            "the database's queued writes",
            matches!(flushed, Ok(Ok(()))),
        );
        let db_closed = tokio::time::timeout_at(deadline, app.db.close())
            .await
            .is_ok();
        note("closing the database", db_closed);
        if let Ok(mut l) = self.lock.lock() {
            l.take();
        }
        let report = ShutdownReport {
            clean,
            tables_stopped,
            took_ms: started.elapsed().as_millis() as u64,
        };
        tracing::info!(
            clean = report.clean,
            tables = report.tables_stopped,
            "stopped in {} ms",
            report.took_ms
        );
        report
    }

    /// Stop accepting connections and let the data directory go, as a crash would (tests).
    pub fn abort(&self) {
        self.task.abort();
        if let Ok(mut l) = self.lock.lock() {
            l.take();
        }
    }
}

/// Open the data directory (locked: one server at a time) and the database (checked, with
/// migrations), resume unfinished games, and start listening.
pub async fn start(config: Config) -> anyhow::Result<Server> {
    let lock = match &config.database {
        None => Some(datadir::prepare(&config.data_dir)?),
        Some(_) => None,
    };
    let url = config.database_url();
    if config.cluster.is_some()
        && !(url.starts_with("postgres://") || url.starts_with("postgresql://"))
    {
        anyhow::bail!("a cluster node needs a PostgreSQL database (--database postgres://...): the nodes share it");
    }
    let db = db::Db::open_with(&url, config.settings.wal_limit_bytes).await?;
    let cluster = match &config.cluster {
        Some(c) => Some(cluster::Cluster::connect(c).await?),
        None => None,
    };
    let app = App::with_cluster(db, config.clock.clone(), config.settings.clone(), cluster);
    match &app.cluster {
        // The nodes share the unfinished tables out as they take their leases.
        Some(c) => {
            c.start(&app).await?;
            // Not ready while cut off from the other nodes.
            let nats = c.clone();
            app.readiness.add("nats", move || {
                let up = nats.connected();
                async move {
                    if up {
                        Ok(())
                    } else {
                        Err("not connected to NATS".to_string())
                    }
                }
            });
            tracing::info!(node = %c.node, "joined the cluster");
        }
        None => {
            let resumed = table::load_unfinished(app.env())
                .await
                .map_err(anyhow::Error::msg)?;
            if resumed > 0 {
                tracing::info!("resumed {resumed} unfinished tables");
            }
        }
    }
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    let router = http::router(app.clone());
    let task = tokio::spawn(serve(
        listener,
        router,
        app.settings.clone(),
        app.shutdown.subscribe(),
    ));
    Ok(Server {
        addr,
        app,
        task,
        lock: std::sync::Mutex::new(lock),
    })
}

/// Every live table handles what it has queued and stops (a shutdown). Tables loaded meanwhile
/// (a request that was already being served) are stopped in a further round. Returns how many
/// stopped, and whether all did before `deadline`.
async fn stop_tables(app: &App, deadline: tokio::time::Instant) -> (usize, bool) {
    let mut stopped = 0;
    // A few rounds at most: each one only finds tables loaded while the previous one ran.
    for _ in 0..5 {
        let handles = app.registry.handles();
        if handles.is_empty() {
            return (stopped, true);
        }
        let waits = handles.into_iter().map(|(id, h)| async move {
            let (done, answer) = tokio::sync::oneshot::channel();
            // Queued behind everything sent before: a move in flight is stored first.
            if h.tx
                .send(table::Cmd::Stop { done: Some(done) })
                .await
                .is_err()
            {
                app.registry.forget(&id);
                return false;
            }
            answer.await.is_ok()
        });
        match tokio::time::timeout_at(deadline, futures_util::future::join_all(waits)).await {
            Ok(done) => stopped += done.into_iter().filter(|d| *d).count(),
            Err(_) => return (stopped, false),
        }
    }
    (stopped, app.registry.is_empty())
}

/// Accept connections: at most `max_connections_per_address` open per address (more are closed
/// at once), request headers must be complete within the header timeout, a connection nothing
/// is read from for `connection_idle_ms` is closed, and every connection carries its peer
/// address for the handlers. When the server begins to shut down the listener is closed, each
/// connection finishes the request it is serving (an idle one closes), and this returns once
/// all have ended.
async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    settings: Settings,
    mut phase: tokio::sync::watch::Receiver<shutdown::Phase>,
) {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use tower::ServiceExt;
    let counter = limits::ConnCounter::new(settings.max_connections_per_address);
    let header_timeout = Duration::from_millis(settings.header_timeout_ms);
    let idle = Duration::from_millis(settings.connection_idle_ms);
    let trusted_proxies = Arc::new(settings.trusted_proxies.clone());
    let mut connections = tokio::task::JoinSet::new();
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = shutdown::reached(&mut phase, shutdown::Phase::Draining) => break,
            // Finished connections are reaped as they end, so the set stays the open ones.
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
        };
        let (tcp, peer) = match accepted {
            Ok(c) => c,
            Err(e) => {
                // Out of file descriptors and the like: wait a moment rather than spin.
                tracing::warn!("accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let trusted = trusted_proxies.clone();
        let guard = if trusted.contains(&peer.ip()) {
            None
        } else {
            let Some(guard) = counter.open(peer.ip()) else {
                tracing::debug!("refused a connection from {peer}: too many open");
                drop(tcp);
                continue;
            };
            Some(guard)
        };
        // Small frames go out at once (no Nagle delay on the per-move round trip).
        let _ = tcp.set_nodelay(true);
        let router = router.clone();
        let mut stopping = phase.clone();
        // Shared with the requests of the connection: an upgraded WebSocket outlives the HTTP
        // connection task (hyper hands its socket over), so it keeps its own share of the
        // count until it closes.
        let guard = guard.map(Arc::new);
        connections.spawn(async move {
            let svc = hyper::service::service_fn(
                move |mut req: hyper::Request<hyper::body::Incoming>| {
                    // The address every limit keys on: the peer, or behind a trusted proxy
                    // the client it names.
                    let ip = proxy::client_ip(peer.ip(), req.headers(), &trusted);
                    let client = std::net::SocketAddr::new(ip, peer.port());
                    req.extensions_mut()
                        .insert(axum::extract::ConnectInfo(client));
                    req.extensions_mut().insert(limits::Counted(guard.clone()));
                    router.clone().oneshot(req)
                },
            );
            let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
            builder
                .http1()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            builder
                .http2()
                .timer(TokioTimer::new())
                .keep_alive_interval(Some(Duration::from_secs(20)));
            let io = TokioIo::new(idle::IdleIo::new(tcp, idle));
            let conn = builder.serve_connection_with_upgrades(io, svc);
            tokio::pin!(conn);
            let result = tokio::select! {
                r = conn.as_mut() => r,
                _ = shutdown::reached(&mut stopping, shutdown::Phase::Draining) => {
                    // Finish the request being served, then close (an idle connection closes
                    // at once). An upgraded connection has left hyper already: ws.rs closes it.
                    conn.as_mut().graceful_shutdown();
                    conn.as_mut().await
                }
            };
            if let Err(e) = result {
                tracing::debug!("connection from {peer}: {e}");
            }
        });
    }
    drop(listener);
    while connections.join_next().await.is_some() {}
}
