//! `junqi loadtest`: many concurrent bot-driven games against a running server over loopback.
//! Each game is one client (random legal actions) against the server's bots; the client measures
//! the round trip from sending an action to receiving its `events` frame.

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
    /// The server (http://host:port or ws://host:port).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,
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

#[derive(Default)]
struct Stats {
    /// Samples are taken from this moment (after the ramp-up) to the end of the run.
    measure_from: Option<Instant>,
    rtts_us: Mutex<Vec<u32>>,
    client_actions: AtomicU64,
    entries: AtomicU64,
    games: AtomicU64,
    errors: AtomicU64,
    in_flight: AtomicU64,
    max_in_flight: AtomicU64,
}

impl Stats {
    fn measuring(&self) -> bool {
        self.measure_from.is_some_and(|m| Instant::now() >= m)
    }
}

/// Run the load test and print the numbers.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(run_async(args))
}

async fn run_async(args: Args) -> anyhow::Result<()> {
    let addr = args
        .url
        .trim_start_matches("http://")
        .trim_start_matches("ws://")
        .trim_end_matches('/')
        .to_string();
    let (st, _) = http(&addr, "GET", "/api/info", None, None)
        .await
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("is a server running at {addr}?"))?;
    anyhow::ensure!(st == 200, "the server at {addr} answered {st}");
    let t0 = Instant::now();
    let measure_from = t0 + Duration::from_secs(args.ramp.min(args.duration / 2));
    let stats = Arc::new(Stats {
        measure_from: Some(measure_from),
        ..Stats::default()
    });
    let started = Arc::new(AtomicU64::new(0));
    let deadline = t0 + Duration::from_secs(args.duration);
    let mut tasks = Vec::new();
    for w in 0..args.concurrency {
        let (addr, board, bot, stats, started) = (
            addr.clone(),
            args.board.clone(),
            args.bot.clone(),
            stats.clone(),
            started.clone(),
        );
        let (limit, think) = (args.games, args.think_ms);
        let delay = Duration::from_millis(args.ramp * 1000 * w / args.concurrency.max(1));
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let mut rng = rand::rngs::SmallRng::seed_from_u64(w);
            while Instant::now() < deadline {
                if limit > 0 && started.fetch_add(1, Ordering::Relaxed) >= limit {
                    break;
                }
                let n = stats.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
                stats.max_in_flight.fetch_max(n, Ordering::Relaxed);
                let r = one_game(
                    &addr,
                    &board,
                    bot.as_deref(),
                    think,
                    &stats,
                    &mut rng,
                    deadline,
                )
                .await;
                stats.in_flight.fetch_sub(1, Ordering::Relaxed);
                match r {
                    Ok(true) => {
                        stats.games.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(false) => {}
                    Err(e) => {
                        if stats.errors.fetch_add(1, Ordering::Relaxed) < 5 {
                            eprintln!("game error: {e}");
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
                    stats.games.load(Ordering::Relaxed),
                    stats.entries.load(Ordering::Relaxed)
                );
            }
        })
    };
    for t in tasks {
        let _ = t.await;
    }
    reporter.abort();
    let secs = measure_from.elapsed().as_secs_f64().max(0.001);
    let mut rtts = std::mem::take(&mut *stats.rtts_us.lock().unwrap_or_else(|e| e.into_inner()));
    rtts.sort_unstable();
    let pct = |p: f64| -> f64 {
        if rtts.is_empty() {
            return 0.0;
        }
        let i = ((rtts.len() as f64 - 1.0) * p).round() as usize;
        rtts[i] as f64 / 1000.0
    };
    let entries = stats.entries.load(Ordering::Relaxed);
    let client = stats.client_actions.load(Ordering::Relaxed);
    println!(
        "loadtest against {addr}: {:.0} s (measured over the last {:.0} s, after the ramp-up), concurrency {}, board {}, think {} ms",
        t0.elapsed().as_secs_f64(),
        secs,
        args.concurrency,
        args.board,
        args.think_ms
    );
    println!(
        "  games finished        {}",
        stats.games.load(Ordering::Relaxed)
    );
    println!(
        "  max games in flight   {}",
        stats.max_in_flight.load(Ordering::Relaxed)
    );
    println!(
        "  errors                {}",
        stats.errors.load(Ordering::Relaxed)
    );
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
        pct(0.5),
        pct(0.99),
        rtts.last().map_or(0.0, |&x| x as f64 / 1000.0),
        rtts.len()
    );
    Ok(())
}

/// Play one game; Ok(true) if it finished.
async fn one_game(
    addr: &str,
    board: &str,
    bot: Option<&str>,
    think_ms: u64,
    stats: &Stats,
    rng: &mut rand::rngs::SmallRng,
    deadline: Instant,
) -> Result<bool, String> {
    let mut body = json!({"board": board, "move_seconds": 0, "deploy_seconds": 0});
    if let Some(bot) = bot {
        body["bot"] = bot.into();
    }
    let (st, created) = http(addr, "POST", "/api/play-computer", Some(&body), None).await?;
    if st != 201 {
        return Err(format!("create: {st} {created}"));
    }
    let id = created["table"]["id"].as_str().ok_or("no table id")?;
    let token = created["token"].as_str().ok_or("no token")?;
    let seat = created["seat"].as_u64().unwrap_or(0);
    let mut c = WsClient::connect(&format!("ws://{addr}/ws/{id}")).await?;
    c.timeout = Duration::from_secs(60);
    c.send(&json!({"type": "hello", "token": token})).await?;
    let mine = format!("{seat} ");
    let mut pending: Option<Instant> = None;
    let mut deployed = false;
    loop {
        let f = c.recv().await?;
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
                if Instant::now() > deadline {
                    c.close().await;
                    return Ok(false);
                }
                if think_ms > 0 {
                    tokio::time::sleep(Duration::from_millis(
                        rng.gen_range(think_ms / 2..=think_ms * 3 / 2),
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
                    stats.client_actions.fetch_add(1, Ordering::Relaxed);
                }
            }
            "events" => {
                if stats.measuring() {
                    stats.entries.fetch_add(1, Ordering::Relaxed);
                }
                if f["entry"].as_str().is_some_and(|e| e.starts_with(&mine)) {
                    if let Some(t) = pending
                        .take()
                        .filter(|&t| stats.measure_from.is_some_and(|m| t >= m))
                    {
                        let us = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
                        stats
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
