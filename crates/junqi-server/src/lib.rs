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

#![warn(missing_docs)]

pub mod accounts;
pub mod app;
pub mod client;
pub mod clock;
pub mod cluster;
pub mod datadir;
pub mod db;
pub mod error;
mod http;
pub mod idle;
pub mod limits;
pub mod names;
pub mod protocol;
pub mod proxy;
pub mod rating;
pub mod registry;
pub mod secret;
pub mod settings;
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

impl Server {
    /// The base URL (`http://127.0.0.1:port`).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Wait until the server stops.
    pub async fn wait(self) {
        let _ = self.task.await;
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
    let task = tokio::spawn(serve(listener, router, app.settings.clone()));
    Ok(Server {
        addr,
        app,
        task,
        lock: std::sync::Mutex::new(lock),
    })
}

/// Accept connections: at most `max_connections_per_address` open per address (more are closed
/// at once), request headers must be complete within the header timeout, a connection nothing
/// is read from for `connection_idle_ms` is closed, and every connection carries its peer
/// address for the handlers.
async fn serve(listener: tokio::net::TcpListener, router: axum::Router, settings: Settings) {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use tower::ServiceExt;
    let counter = limits::ConnCounter::new(settings.max_connections_per_address);
    let header_timeout = Duration::from_millis(settings.header_timeout_ms);
    let idle = Duration::from_millis(settings.connection_idle_ms);
    let trusted_proxies = Arc::new(settings.trusted_proxies.clone());
    loop {
        let (tcp, peer) = match listener.accept().await {
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
        tokio::spawn(async move {
            let _guard = guard;
            let svc = hyper::service::service_fn(
                move |mut req: hyper::Request<hyper::body::Incoming>| {
                    // The address every limit keys on: the peer, or behind a trusted proxy
                    // the client it names.
                    let ip = proxy::client_ip(peer.ip(), req.headers(), &trusted);
                    let client = std::net::SocketAddr::new(ip, peer.port());
                    req.extensions_mut()
                        .insert(axum::extract::ConnectInfo(client));
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
            if let Err(e) = conn.await {
                tracing::debug!("connection from {peer}: {e}");
            }
        });
    }
}
