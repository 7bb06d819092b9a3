//! The server's settings: bot budgets, rate limits, connection and table limits, timeouts.
//! Every limit that keeps a server bounded whatever clients do is here, with its default.

/// Server settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Each bot's iteration budget per decision.
    pub bot_iterations: u64,
    /// The bot (a playing level or any built-in bot) that seats get when nobody names one:
    /// 人机对战, a host's "add a bot", a leaver's stand-in. By default 普通 (`normal`); an
    /// operator whose machine is busy may choose a cheaper one.
    pub default_bot: String,
    /// WebSocket frames per second one client address may send, over all its connections; the
    /// same again for one account (token bucket refill; see `limits::RateBudget`).
    pub rate_per_sec: f64,
    /// Token bucket size of [`Settings::rate_per_sec`].
    pub rate_burst: f64,
    /// A table nobody plays at (no seated person connected, before play) is closed after this.
    pub table_idle_ms: u64,
    /// Open (not yet playing) tables one creator (a player, or an address) may have at once.
    pub max_open_tables_per_creator: usize,
    /// Tables one address may create per minute.
    pub tables_per_minute_per_address: u32,
    /// Open connections (HTTP and WebSocket) one address may hold.
    pub max_connections_per_address: usize,
    /// Reverse proxies whose `X-Forwarded-For` names the client (see proxy.rs). Their own
    /// connections are not capped per address: the proxy carries many clients, and caps them.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Connections one table serves at once (players and spectators).
    pub max_connections_per_table: usize,
    /// A request whose headers are not complete by then is dropped.
    pub header_timeout_ms: u64,
    /// A WebSocket that has not said `hello` by then is closed.
    pub hello_timeout_ms: u64,
    /// A connection (HTTP or WebSocket) from which nothing was read for this long is closed.
    pub connection_idle_ms: u64,
    /// The server pings each WebSocket this often.
    pub ping_interval_ms: u64,
    /// A WebSocket from which nothing (not even a pong) came for this long is closed.
    pub idle_timeout_ms: u64,
    /// When the SQLite write-ahead log passes this many bytes it is checkpointed and truncated.
    pub wal_limit_bytes: u64,
    /// The computer's reply is paced to about this long after the move it answers (varied by
    /// ply from 3/4 to 5/4 of it, less the time the bot spent thinking), so that a person sees
    /// the result of their own move before the answer. 0: at once (tests, load tests).
    pub bot_delay_ms: u64,
    /// A person away from a game against the computer (every other seat a bot) has this long to
    /// come back; the game is paused meanwhile. Games between people keep RULES §10's 60 s.
    pub computer_away_ms: u64,
    /// Chat messages one connection may send per second (token bucket refill).
    pub chat_per_sec: f64,
    /// Chat token bucket size.
    pub chat_burst: f64,
    /// Each readiness check (`GET /readyz`: the database answers, and any check added later)
    /// must answer within this long, or the server is not ready.
    pub readiness_timeout_ms: u64,
    /// A graceful shutdown (SIGTERM, Ctrl-C) ends within this long, done or not.
    pub shutdown_timeout_ms: u64,
    /// Limits of the account endpoints (throttles, password hashing, session lifetime).
    pub accounts: crate::accounts::AccountSettings,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            bot_iterations: 1000,
            default_bot: junqi_ai::default_bot().to_string(),
            rate_per_sec: 20.0,
            rate_burst: 40.0,
            table_idle_ms: 10 * 60 * 1000,
            max_open_tables_per_creator: 5,
            tables_per_minute_per_address: 20,
            max_connections_per_address: 64,
            trusted_proxies: Vec::new(),
            max_connections_per_table: 256,
            header_timeout_ms: 10_000,
            hello_timeout_ms: 10_000,
            connection_idle_ms: 30_000,
            ping_interval_ms: 10_000,
            idle_timeout_ms: 25_000,
            wal_limit_bytes: 32 * 1024 * 1024,
            bot_delay_ms: 800,
            computer_away_ms: 30 * 60 * 1000,
            chat_per_sec: 1.0,
            chat_burst: 5.0,
            readiness_timeout_ms: 1_000,
            shutdown_timeout_ms: 10_000,
            accounts: Default::default(),
        }
    }
}
