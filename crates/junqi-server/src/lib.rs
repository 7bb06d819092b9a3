//! # junqi-server
//!
//! `junqi serve`: one process that is the whole product on one machine. Lobby and tables,
//! seats for people and bots, deployment and move clocks, the table rules of RULES §10,
//! reconnects with versioned events, persistence in SQLite or PostgreSQL (every accepted entry is
//! stored before anyone is told of it; unfinished games resume after a restart), guest and
//! registered accounts with Glicko-2 ratings, records and replays, and the browser client
//! (`web/`), all over HTTP and WebSocket. The protocol is `docs/server-protocol.md`.
//!
//! Every view a client gets is computed by the core's redaction ([`junqi_core::Observation`]).

#![warn(missing_docs)]

pub mod accounts;
pub mod app;
pub mod client;
pub mod clock;
pub mod db;
mod http;
pub mod names;
pub mod protocol;
pub mod rating;
pub mod table;
mod web;
mod ws;

pub use app::{App, Settings};
pub use clock::{Clock, ManualClock, SystemClock};

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

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
        }
    }

    /// The database URL this configuration uses.
    pub fn database_url(&self) -> String {
        match &self.database {
            Some(u) => u.clone(),
            None => format!("sqlite://{}", self.data_dir.join("junqi.sqlite3").display()),
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

    /// Stop accepting connections (tests).
    pub fn abort(&self) {
        self.task.abort();
    }
}

/// Open the database (creating the data directory and running migrations), resume unfinished
/// games, and start listening.
pub async fn start(config: Config) -> anyhow::Result<Server> {
    if config.database.is_none() {
        std::fs::create_dir_all(&config.data_dir)?;
    }
    let db = db::Db::open(&config.database_url()).await?;
    let app = App::new(db, config.clock.clone(), config.settings.clone());
    let resumed = table::load_unfinished(&app)
        .await
        .map_err(anyhow::Error::msg)?;
    if resumed > 0 {
        tracing::info!("resumed {resumed} unfinished tables");
    }
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    // Small frames go out at once (no Nagle delay on the per-move round trip).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp: &mut tokio::net::TcpStream| {
        let _ = tcp.set_nodelay(true);
    });
    let router = http::router(app.clone());
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        {
            tracing::error!("server stopped: {e}");
        }
    });
    Ok(Server { addr, app, task })
}
