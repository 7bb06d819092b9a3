//! `junqi serve`: the whole product on one machine (lobby, tables, bots, persistence, the
//! browser client). See docs/server-protocol.md.

use anyhow::Context;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Arguments of `junqi serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Data directory (the SQLite database lives there; created on first start).
    #[arg(long, default_value = "./junqi-data")]
    pub data_dir: PathBuf,
    /// A postgres://user:password@host/db URL to use PostgreSQL instead of SQLite.
    #[arg(long)]
    pub database: Option<String>,
    /// Each bot's iteration budget per decision.
    #[arg(long, default_value_t = 1000)]
    pub bot_iterations: u64,
    /// The computer player seats get when nobody names one (人机对战, "add a bot", a leaver's
    /// stand-in): a level (beginner, normal, expert, master) or another built-in bot.
    #[arg(long, default_value_t = junqi_ai::default_bot().to_string())]
    pub default_bot: String,
    /// WebSocket frames per second one client address may send, over all its connections (and
    /// one account, over all its connections and addresses); bursts of twice as many. A load
    /// test from one machine needs more.
    #[arg(long, default_value_t = 20.0)]
    pub rate: f64,
    /// Open connections (HTTP and WebSocket) one client address may hold (a load test from one
    /// machine needs more).
    #[arg(long, default_value_t = junqi_server::Settings::default().max_connections_per_address)]
    pub max_connections_per_address: usize,
    /// A reverse proxy (repeat for several) whose X-Forwarded-For header names the client, so
    /// that the per-address limits see clients rather than the proxy. The proxy must then cap
    /// connections per client itself.
    #[arg(long = "trusted-proxy")]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Tables one client address may create per minute.
    #[arg(long, default_value_t = junqi_server::Settings::default().tables_per_minute_per_address)]
    pub tables_per_minute: u32,
    /// Guest players one client address may be given per hour (POST /api/guest, and a table
    /// created or a seat taken without a session each make one).
    #[arg(long, default_value_t = junqi_server::Settings::default().accounts.guests_per_address)]
    pub guests_per_hour: u32,
    /// Open (not yet playing) tables one person may have at once; guests of one address share
    /// twice this.
    #[arg(long, default_value_t = junqi_server::Settings::default().max_open_tables_per_creator)]
    pub max_open_tables: usize,
    /// Minutes before a table nobody plays at (no seated person connected before play) closes.
    #[arg(long, default_value_t = junqi_server::Settings::default().table_idle_ms / 60_000)]
    pub table_idle_minutes: u64,
    /// About how long the computer waits before its reply shows, in milliseconds (varied by
    /// ply from 3/4 to 5/4 of it, less its thinking time), so that a person sees the result of
    /// their own move first. 0: at once (tests, load tests).
    #[arg(long, default_value_t = junqi_server::Settings::default().bot_delay_ms)]
    pub bot_delay_ms: u64,
    /// Minutes a person may be away from a game against the computer (the game is paused
    /// meanwhile) before it is lost (1 to 10080, a week); games between people keep the 60 s of
    /// RULES §10.
    #[arg(long, default_value_t = junqi_server::Settings::default().computer_away_ms / 60_000)]
    pub computer_away_minutes: u64,
    /// Run as one node of a cluster: the NATS server the nodes talk through (nats://host:4222);
    /// needs --node.
    /// Needs --database postgres://… shared by every node (docs/deploy.md).
    #[arg(long, requires = "node")]
    pub nats: Option<String>,
    /// This node's name in the cluster (letters, digits, '-', '_'), required with --nats: its
    /// NATS subjects and leases carry it, and a restarted node must come back under the same
    /// name for the others to see that its last run is over.
    #[arg(long, requires = "nats")]
    pub node: Option<String>,
    /// Cluster: how long a node's table leases last without renewal, in milliseconds (a dead
    /// node's tables move to the others after about this long).
    #[arg(long, requires = "nats", default_value_t = 4000)]
    pub lease_ms: u64,
    /// Megabytes past which the SQLite write-ahead log is checkpointed and truncated.
    #[arg(long, default_value_t = junqi_server::Settings::default().wal_limit_bytes / (1024 * 1024))]
    pub wal_limit_mb: u64,
    /// Seconds a graceful shutdown (SIGTERM, Ctrl-C) may take: tables finish their writes,
    /// WebSocket clients are told to reconnect (close code 1012); then the process exits.
    #[arg(long, default_value_t = junqi_server::Settings::default().shutdown_timeout_ms / 1000)]
    pub shutdown_timeout_secs: u64,
    /// Log lines as human-readable text, or as JSON objects one a line (for a log collector).
    /// The level is set by RUST_LOG (default info).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// How `junqi serve` writes its log.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object a line (`timestamp`, `level`, `fields.message`, `target`, and the
    /// span, e.g. `"span":{"name":"table","table":"<id>"}`).
    Json,
}

/// Install the log subscriber. Logs go to standard output, as before; in JSON every line on
/// standard output is a JSON object, the announcements included.
fn init_logs(format: LogFormat) {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let fmt = tracing_subscriber::fmt().with_env_filter(filter);
    match format {
        LogFormat::Text => fmt.init(),
        // The innermost span alone (`"span":{"name":"table","table":"<id>"}`): the table a line
        // is about, at a fixed place a log query can use.
        LogFormat::Json => fmt.json().with_span_list(false).init(),
    }
}

/// Wait for SIGTERM (what service managers and container runtimes send) or Ctrl-C.
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = tokio::signal::ctrl_c() => "Ctrl-C",
            },
            Err(e) => {
                tracing::warn!("cannot watch for SIGTERM ({e}): Ctrl-C only");
                let _ = tokio::signal::ctrl_c().await;
                "Ctrl-C"
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    }
}

/// Run the server until interrupted.
pub fn run(args: Args) -> anyhow::Result<()> {
    if junqi_ai::bot_by_name(&args.default_bot).is_none() {
        anyhow::bail!(
            "--default-bot {:?}: no such bot (known: {})",
            args.default_bot,
            junqi_ai::bot_names().join(", ")
        );
    }
    init_logs(args.log_format);
    // Bots think on the blocking pool: a few threads (not hundreds) leave a busy server's cores
    // to the tables.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(cores * 2)
        .enable_all()
        .build()?;
    let result = rt.block_on(async move {
        let mut config = junqi_server::Config::new(args.addr, args.data_dir.clone());
        config.database = args.database.clone();
        config.settings.bot_iterations = args.bot_iterations;
        config.settings.default_bot = args.default_bot.clone();
        config.settings.rate_per_sec = args.rate;
        config.settings.rate_burst = (args.rate * 2.0).max(1.0);
        config.settings.max_connections_per_address = args.max_connections_per_address;
        config.settings.tables_per_minute_per_address = args.tables_per_minute;
        config.settings.trusted_proxies = args.trusted_proxies.clone();
        config.settings.max_open_tables_per_creator = args.max_open_tables.max(1);
        config.settings.accounts.guests_per_address = args.guests_per_hour;
        config.settings.table_idle_ms = args.table_idle_minutes.max(1) * 60_000;
        config.settings.bot_delay_ms = args.bot_delay_ms;
        config.settings.computer_away_ms =
            args.computer_away_minutes.clamp(1, 7 * 24 * 60) * 60_000;
        config.settings.wal_limit_bytes = args.wal_limit_mb.max(1) * 1024 * 1024;
        config.settings.shutdown_timeout_ms = args.shutdown_timeout_secs.max(1) * 1000;
        config.cluster = args
            .nats
            .as_ref()
            .map(|url| junqi_server::cluster::ClusterConfig {
                nats_url: url.clone(),
                node: args.node.clone(),
                lease_ms: args.lease_ms,
            });
        let where_ = match (&args.database, &args.nats) {
            (Some(_), Some(nats)) => format!("PostgreSQL, cluster node on NATS {nats}"),
            (Some(_), None) => "PostgreSQL".to_string(),
            (None, _) => format!("SQLite in {}", args.data_dir.display()),
        };
        let server = junqi_server::start(config)
            .await
            .context("starting the server")?;
        let text = args.log_format == LogFormat::Text;
        let url = server.url();
        if text {
            println!("junqi server listening: open {url} in a browser ({where_})");
        } else {
            tracing::info!(url = %url, "junqi server listening ({where_})");
        }
        let signal = stop_signal().await;
        if text {
            println!("stopping ({signal})");
        } else {
            tracing::info!("{signal}: stopping");
        }
        let report = server.shutdown().await;
        if text {
            println!("stopped");
        }
        if !report.clean {
            tracing::warn!("the shutdown ran out of time: unfinished work was left");
        }
        anyhow::Ok(())
    });
    // A bot still thinking on a blocking thread is not waited for: its table has stopped, and
    // the game resumes from the database at the next start.
    rt.shutdown_timeout(std::time::Duration::from_millis(500));
    result
}
