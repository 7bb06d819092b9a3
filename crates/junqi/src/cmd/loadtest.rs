//! `junqi loadtest`: many concurrent bot-driven games against one or more running servers.
//! Each game is one client (random legal actions) against the server's bots; the client measures
//! the round trip from sending an action to receiving its `events` frame. Given several URLs
//! (servers of one cluster, or separate servers), games are spread over them round-robin, and
//! `--cross-node` seats one client per seat at a table instead, each seat through the next URL,
//! so that the people of one game talk to different servers.

use anyhow::Context;
use junqi_core::Deployment;
use junqi_server::client::{http, WsClient};
use rand::{Rng, SeedableRng};
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Arguments of `junqi loadtest`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The server (http://host:port or ws://host:port). Repeat it, or give a comma-separated
    /// list, to spread the games over several servers round-robin.
    #[arg(
        long = "url",
        value_delimiter = ',',
        default_value = "http://127.0.0.1:8080"
    )]
    pub urls: Vec<String>,
    /// Games between loadtest clients instead of against the server's bots: every seat is a
    /// client, the table is created through one URL and each other seat sits down through the
    /// next URL (needs at least two URLs). What a cluster needs: one table, its people on
    /// different servers.
    #[arg(long)]
    pub cross_node: bool,
    /// Games to play in all (0: no limit, until --duration).
    #[arg(long, default_value_t = 0)]
    pub games: u64,
    /// Games in flight at once.
    #[arg(long, default_value_t = 100)]
    pub concurrency: u64,
    /// Stop starting games after this many seconds.
    #[arg(long, default_value_t = 30)]
    pub duration: u64,
    /// Board: two_player, three_player, four_player or six_player.
    #[arg(long, default_value = "two_player")]
    pub board: String,
    /// The computer players' bot (a level or any built-in bot); by default the server's own
    /// default (普通).
    #[arg(long)]
    pub bot: Option<String>,
    /// The client's thinking time before each action, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// Ramp-up: spread the first games over this many seconds.
    #[arg(long, default_value_t = 5)]
    pub ramp: u64,
}

/// What the clients connected through one URL saw.
#[derive(Default)]
struct UrlStats {
    /// Round trips of the actions sent through this URL, in microseconds.
    rtts_us: Mutex<Vec<u32>>,
    client_actions: AtomicU64,
    /// Games whose table was created through this URL and that finished.
    games: AtomicU64,
    /// Failures of a client connected through this URL (or of creating a table there).
    errors: AtomicU64,
}

struct Stats {
    /// Samples are taken from this moment (after the ramp-up) to the end of the run.
    measure_from: Instant,
    entries: AtomicU64,
    in_flight: AtomicU64,
    max_in_flight: AtomicU64,
    /// By URL, in the order given.
    urls: Vec<UrlStats>,
}

impl Stats {
    fn measuring(&self) -> bool {
        Instant::now() >= self.measure_from
    }

    fn total(&self, f: impl Fn(&UrlStats) -> &AtomicU64) -> u64 {
        self.urls.iter().map(|u| f(u).load(Ordering::Relaxed)).sum()
    }
}

/// A failure of one client, and the URL it was connected through.
struct Failure {
    url: usize,
    error: String,
}

/// The `host:port` of a `http://` or `ws://` URL.
fn host_of(url: &str) -> String {
    url.trim()
        .trim_start_matches("http://")
        .trim_start_matches("ws://")
        .trim_end_matches('/')
        .to_string()
}

/// The value at fraction `p` of sorted samples, in milliseconds.
fn percentile_ms(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

/// Run the load test and print the numbers.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(run_async(args))
}

async fn run_async(args: Args) -> anyhow::Result<()> {
    let addrs: Vec<String> = args
        .urls
        .iter()
        .map(|u| host_of(u))
        .filter(|a| !a.is_empty())
        .collect();
    anyhow::ensure!(!addrs.is_empty(), "--url: no server given");
    if args.cross_node {
        anyhow::ensure!(
            addrs.len() >= 2,
            "--cross-node seats a game's clients on different servers: give at least two --url"
        );
        anyhow::ensure!(
            args.bot.is_none(),
            "--bot: a --cross-node game has no bots (every seat is a client)"
        );
    }
    for addr in &addrs {
        let (st, _) = http(addr, "GET", "/api/info", None, None)
            .await
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("is a server running at {addr}?"))?;
        anyhow::ensure!(st == 200, "the server at {addr} answered {st}");
    }
    let addrs = Arc::new(addrs);
    let t0 = Instant::now();
    let measure_from = t0 + Duration::from_secs(args.ramp.min(args.duration / 2));
    let stats = Arc::new(Stats {
        measure_from,
        entries: AtomicU64::new(0),
        in_flight: AtomicU64::new(0),
        max_in_flight: AtomicU64::new(0),
        urls: addrs.iter().map(|_| UrlStats::default()).collect(),
    });
    let started = Arc::new(AtomicU64::new(0));
    let deadline = t0 + Duration::from_secs(args.duration);
    let mut tasks = Vec::new();
    for w in 0..args.concurrency {
        let (addrs, board, bot, stats, started) = (
            addrs.clone(),
            args.board.clone(),
            args.bot.clone(),
            stats.clone(),
            started.clone(),
        );
        let (limit, think, cross) = (args.games, args.think_ms, args.cross_node);
        let delay = Duration::from_millis(args.ramp * 1000 * w / args.concurrency.max(1));
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let mut rng = rand::rngs::SmallRng::seed_from_u64(w);
            while Instant::now() < deadline {
                // Games go to the URLs in turn, whichever worker starts them.
                let game = started.fetch_add(1, Ordering::Relaxed);
                if limit > 0 && game >= limit {
                    break;
                }
                let first = (game % addrs.len() as u64) as usize;
                let n = stats.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
                stats.max_in_flight.fetch_max(n, Ordering::Relaxed);
                let game = Game {
                    board: &board,
                    think_ms: think,
                    stats: &stats,
                    deadline,
                };
                let r = if cross {
                    game.between_clients(&addrs, first, &mut rng).await
                } else {
                    game.against_bots(&addrs[first], first, bot.as_deref(), &mut rng)
                        .await
                };
                stats.in_flight.fetch_sub(1, Ordering::Relaxed);
                match r {
                    Ok(true) => {
                        stats.urls[first].games.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(false) => {}
                    Err(failures) => {
                        for f in failures {
                            let errors = &stats.urls[f.url].errors;
                            if errors.fetch_add(1, Ordering::Relaxed) < 5 {
                                eprintln!("game error ({}): {}", addrs[f.url], f.error);
                            }
                        }
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                }
            }
        }));
    }
    let reporter = {
        let stats = stats.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(5)).await;
                eprintln!(
                    "[{:>4.0}s] in flight {}, games {}, entries {}",
                    t0.elapsed().as_secs_f64(),
                    stats.in_flight.load(Ordering::Relaxed),
                    stats.total(|u| &u.games),
                    stats.entries.load(Ordering::Relaxed)
                );
            }
        })
    };
    for t in tasks {
        let _ = t.await;
    }
    reporter.abort();
    report(&args, &addrs, &stats, t0);
    Ok(())
}

/// Print the numbers: the whole run, then each URL.
fn report(args: &Args, addrs: &[String], stats: &Stats, t0: Instant) {
    let secs = stats.measure_from.elapsed().as_secs_f64().max(0.001);
    let by_url: Vec<Vec<u32>> = stats
        .urls
        .iter()
        .map(|u| {
            let mut v = std::mem::take(&mut *u.rtts_us.lock().unwrap_or_else(|e| e.into_inner()));
            v.sort_unstable();
            v
        })
        .collect();
    let mut rtts: Vec<u32> = by_url.iter().flatten().copied().collect();
    rtts.sort_unstable();
    let entries = stats.entries.load(Ordering::Relaxed);
    let client = stats.total(|u| &u.client_actions);
    println!(
        "loadtest against {}: {:.0} s (measured over the last {:.0} s, after the ramp-up), concurrency {}, board {}, think {} ms{}",
        addrs.join(", "),
        t0.elapsed().as_secs_f64(),
        secs,
        args.concurrency,
        args.board,
        args.think_ms,
        if args.cross_node { ", cross-node (every seat a client, seats spread over the URLs)" } else { "" }
    );
    println!("  games finished        {}", stats.total(|u| &u.games));
    println!(
        "  max games in flight   {}",
        stats.max_in_flight.load(Ordering::Relaxed)
    );
    println!("  errors                {}", stats.total(|u| &u.errors));
    println!(
        "  actions (all seats)   {entries} = {:.0} actions/s",
        entries as f64 / secs
    );
    println!(
        "  client actions        {client} = {:.0} actions/s",
        client as f64 / secs
    );
    println!(
        "  round trip (client action -> its events frame): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
        percentile_ms(&rtts, 0.5),
        percentile_ms(&rtts, 0.99),
        rtts.last().map_or(0.0, |&x| x as f64 / 1000.0),
        rtts.len()
    );
    println!("  per URL (games: created there and finished; actions and round trips: of the clients connected there):");
    for (i, addr) in addrs.iter().enumerate() {
        let u = &stats.urls[i];
        let actions = u.client_actions.load(Ordering::Relaxed);
        let r = &by_url[i];
        println!(
            "    {addr}: games {}, errors {}, client actions {actions} = {:.0} actions/s, p50 {:.2} ms, p99 {:.2} ms ({} samples)",
            u.games.load(Ordering::Relaxed),
            u.errors.load(Ordering::Relaxed),
            actions as f64 / secs,
            percentile_ms(r, 0.5),
            percentile_ms(r, 0.99),
            r.len()
        );
    }
}

/// One game's settings and where its numbers go.
struct Game<'a> {
    board: &'a str,
    think_ms: u64,
    stats: &'a Stats,
    deadline: Instant,
}

impl Game<'_> {
    /// One client against the server's bots, through `addr` (URL number `url`); Ok(true) if the
    /// game finished.
    async fn against_bots(
        &self,
        addr: &str,
        url: usize,
        bot: Option<&str>,
        rng: &mut rand::rngs::SmallRng,
    ) -> Result<bool, Vec<Failure>> {
        let fail = |error: String| vec![Failure { url, error }];
        let mut body = json!({"board": self.board, "move_seconds": 0, "deploy_seconds": 0});
        if let Some(bot) = bot {
            body["bot"] = bot.into();
        }
        let (st, created) = http(addr, "POST", "/api/play-computer", Some(&body), None)
            .await
            .map_err(fail)?;
        if st != 201 {
            return Err(fail(format!("create: {st} {created}")));
        }
        let id = created["table"]["id"]
            .as_str()
            .ok_or_else(|| fail("no table id".into()))?;
        let token = created["token"]
            .as_str()
            .ok_or_else(|| fail("no token".into()))?;
        let seat = created["seat"].as_u64().unwrap_or(0);
        let mut c = connect(addr, id).await.map_err(fail)?;
        c.send(&json!({"type": "hello", "token": token}))
            .await
            .map_err(fail)?;
        self.play(c, url, seat, true, rng).await.map_err(fail)
    }

    /// A table created through URL `first` whose every seat is a loadtest client, seat `s`
    /// connected through URL `(first + s) % URLs`; Ok(true) if the game finished.
    async fn between_clients(
        &self,
        addrs: &[String],
        first: usize,
        rng: &mut rand::rngs::SmallRng,
    ) -> Result<bool, Vec<Failure>> {
        let fail = |url: usize| move |error: String| vec![Failure { url, error }];
        let body = json!({"board": self.board, "move_seconds": 0, "deploy_seconds": 0});
        let (st, created) = http(&addrs[first], "POST", "/api/tables", Some(&body), None)
            .await
            .map_err(fail(first))?;
        if st != 201 {
            return Err(fail(first)(format!("create: {st} {created}")));
        }
        let id = created["table"]["id"]
            .as_str()
            .ok_or_else(|| fail(first)("no table id".into()))?
            .to_string();
        let token = created["token"].as_str().unwrap_or_default();
        let host_seat = created["seat"].as_u64().unwrap_or(0);
        let seats = created["table"]["seats"].as_array().map_or(0, Vec::len) as u64;
        let mut host = connect(&addrs[first], &id).await.map_err(fail(first))?;
        host.send(&json!({"type": "hello", "token": token}))
            .await
            .map_err(fail(first))?;
        // The others sit down, each through the next URL.
        let mut clients = vec![(first, host_seat, host)];
        for (k, seat) in (0..seats).filter(|&s| s != host_seat).enumerate() {
            let url = (first + k + 1) % addrs.len();
            let sit = async {
                let mut c = connect(&addrs[url], &id).await?;
                c.send(&json!({"type": "hello"})).await?;
                c.send(&json!({"type": "take_seat", "seat": seat})).await?;
                c.recv_until(|f| {
                    (f["type"] == "welcome" && f["seat"] == seat) || f["type"] == "error"
                })
                .await
                .and_then(|f| match f["type"].as_str() {
                    Some("welcome") => Ok(c),
                    _ => Err(format!("take_seat {seat}: {f}")),
                })
            };
            clients.push((url, seat, sit.await.map_err(fail(url))?));
        }
        clients[0]
            .2
            .send(&json!({"type": "start"}))
            .await
            .map_err(fail(first))?;
        // Every seat plays at once; the host's client counts the entries (each once).
        let plays = clients.into_iter().map(|(url, seat, c)| {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(rng.gen());
            async move {
                self.play(c, url, seat, seat == host_seat, &mut rng)
                    .await
                    .map_err(|error| Failure { url, error })
            }
        });
        let results = futures_util::future::join_all(plays).await;
        // Finished when every seat saw the end (not when the run's time ran out first).
        let finished = results.iter().all(|r| matches!(r, Ok(true)));
        let failures: Vec<Failure> = results.into_iter().filter_map(Result::err).collect();
        if !failures.is_empty() {
            return Err(failures);
        }
        Ok(finished)
    }

    /// Play one seat of a game to its end (random legal actions), on a connection that has
    /// sent its hello; `count_entries`: this client counts the game's entries. Ok(true) if the
    /// game finished, Ok(false) if the run's time ran out first.
    async fn play(
        &self,
        mut c: WsClient,
        url: usize,
        seat: u64,
        count_entries: bool,
        rng: &mut rand::rngs::SmallRng,
    ) -> Result<bool, String> {
        let stats = self.stats;
        let mine = format!("{seat} ");
        let mut pending: Option<Instant> = None;
        let mut deployed = false;
        let until = tokio::time::Instant::from_std(self.deadline);
        loop {
            // A client waiting for another person's move stops with the run, too.
            let f = tokio::select! {
                f = c.recv() => f?,
                _ = tokio::time::sleep_until(until) => {
                    c.close().await;
                    return Ok(false);
                }
            };
            c.log.clear();
            match f["type"].as_str().unwrap_or("") {
                "sync" | "observation" => {
                    if f["status"] == "deploying" && !deployed {
                        deployed = true;
                        let layout = Deployment::random(rng).to_string();
                        c.send(&json!({"type": "deploy", "layout": layout})).await?;
                        continue;
                    }
                    let legal = f["observation"]["legal_actions"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                    if legal.is_empty() || pending.is_some() {
                        continue;
                    }
                    if Instant::now() > self.deadline {
                        c.close().await;
                        return Ok(false);
                    }
                    if self.think_ms > 0 {
                        tokio::time::sleep(Duration::from_millis(
                            rng.gen_range(self.think_ms / 2..=self.think_ms * 3 / 2),
                        ))
                        .await;
                    }
                    let a = legal[rng.gen_range(0..legal.len())]
                        .as_str()
                        .unwrap_or("")
                        .to_string();
                    pending = Some(Instant::now());
                    c.send(&json!({"type": "act", "action": a})).await?;
                    if stats.measuring() {
                        stats.urls[url]
                            .client_actions
                            .fetch_add(1, Ordering::Relaxed);
                    }
                }
                "events" => {
                    if count_entries && stats.measuring() {
                        stats.entries.fetch_add(1, Ordering::Relaxed);
                    }
                    if f["entry"].as_str().is_some_and(|e| e.starts_with(&mine)) {
                        if let Some(t) = pending.take().filter(|&t| t >= stats.measure_from) {
                            let us = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
                            stats.urls[url]
                                .rtts_us
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push(us);
                        }
                    }
                }
                "error" => {
                    return Err(format!("server error: {}", f["reason"]));
                }
                "game_over" => {
                    c.close().await;
                    return Ok(true);
                }
                _ => {}
            }
        }
    }
}

/// A WebSocket to table `id` at `addr`, waiting up to a minute for each frame.
async fn connect(addr: &str, id: &str) -> Result<WsClient, String> {
    let mut c = WsClient::connect(&format!("ws://{addr}/ws/{id}")).await?;
    c.timeout = Duration::from_secs(60);
    Ok(c)
}
