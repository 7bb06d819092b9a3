//! Measure layouts by their score in self-play: the same bot plays both sides, each side
//! deploying with its own layout generator, so the score is the layouts' doing.
//!
//! `cargo run --release -p junqi-ai --example layouts -- heuristic new main 20000 [seed] [threads]`
//!
//! Layout generators:
//! - `main`: the bots' generator as it was before issue 14 — the deployment of the frozen
//!   `heuristic-2026` (its own copy of the old `deploygen::layout_for_bot`: 90 % the casual
//!   generator, 10 % a classic layout), reached through that bot's `deploy()`, so nothing is
//!   copied;
//! - `new`: `deploygen::generate` (`Style::STANDARD`);
//! - `new@three=1,file=10,approach=0,centre=1,camp=3,probe=2.5,wing=0.35`: `deploygen::generate_with` in a
//!   candidate style (the fields of `Style`, abbreviated; unnamed ones keep the standard value);
//! - `casual`: `deploygen::casual`; `random`: uniformly random legal layouts.
//!
//! `cargo run --release -p junqi-ai --example layouts -- stats [draws]` prints how the bots'
//! layouts vary: the flag's side, the flag's lock, where the bombs and the marshal stand, and
//! how many distinct layouts the draws give.

use junqi_ai::deploygen::{self, Style};
use junqi_ai::{bot_by_spec, run_match, Bot, BotError, BotFactory, Budget, MatchConfig};
use junqi_core::{Action, BoardKind, Deployment, Event, Mode, Observation, Role, Rules, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// Where a side's layouts come from.
#[derive(Clone)]
enum Layouts {
    /// A generator in this crate.
    Generator(Arc<dyn Fn(&mut ChaCha8Rng) -> Deployment + Send + Sync>),
    /// Another bot's `deploy()` (its play is not used).
    Bot(BotFactory),
}

fn parse_layouts(spec: &str) -> Result<Layouts, String> {
    let generator = |f: fn(&mut ChaCha8Rng) -> Deployment| Ok(Layouts::Generator(Arc::new(f)));
    match spec {
        "main" => return Ok(Layouts::Bot(bot_by_spec("heuristic-2026")?)),
        "new" => return generator(deploygen::generate),
        "casual" => return generator(deploygen::casual),
        "random" => return generator(Deployment::random),
        _ => {}
    }
    let Some(settings) = spec.strip_prefix("new@") else {
        return Err(format!("no layouts named {spec:?}"));
    };
    let mut style = Style::STANDARD;
    for kv in settings.split(',') {
        let (k, v) = kv
            .split_once('=')
            .ok_or(format!("{kv:?}: want key=value"))?;
        let v: f64 = v.parse().map_err(|_| format!("{kv:?}: not a number"))?;
        match k {
            "three" => style.three_mine_lock = v,
            "file" => style.file_bomb = v,
            "approach" => style.approach_bomb = v,
            "centre" => style.centre_bomb = v,
            "camp" => style.camp_side = v,
            "probe" => style.front_probe = v,
            "wing" => style.same_wing = v,
            _ => return Err(format!("no style setting {k:?}")),
        }
    }
    Ok(Layouts::Generator(Arc::new(move |r| {
        deploygen::generate_with(&style, r)
    })))
}

/// A bot that plays like `play` and deploys from `layouts`.
struct Deploying {
    name: String,
    play: Box<dyn Bot>,
    layouts: Layouts,
    deployer: Option<Box<dyn Bot>>,
    rng: ChaCha8Rng,
}

impl Bot for Deploying {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(&mut self, rules: &Rules, seat: Seat, seed: u64) {
        self.play.new_game(rules, seat, seed);
        // The layout's randomness is apart from the play's: the play bot's own generator is
        // never drawn on for a layout, whichever generator a side uses.
        self.rng = ChaCha8Rng::seed_from_u64(seed ^ 0x1a70_u64.wrapping_mul(0x9E37_79B9));
        if let Layouts::Bot(f) = &self.layouts {
            let mut b = f();
            b.new_game(rules, seat, seed);
            self.deployer = Some(b);
        }
    }
    fn deploy(&mut self) -> Result<Deployment, BotError> {
        match (&self.layouts, &mut self.deployer) {
            (Layouts::Generator(g), _) => Ok(g(&mut self.rng)),
            (Layouts::Bot(_), Some(b)) => b.deploy(),
            (Layouts::Bot(_), None) => Err(BotError("deploy before new_game".into())),
        }
    }
    fn observe(&mut self, events: &[Event], obs: &Observation) {
        self.play.observe(events, obs)
    }
    fn choose(&mut self, obs: &Observation, budget: Budget) -> Result<Action, BotError> {
        self.play.choose(obs, budget)
    }
}

fn deploying(bot: &str, layouts_spec: &str) -> Result<BotFactory, String> {
    let play = bot_by_spec(bot)?;
    let layouts = parse_layouts(layouts_spec)?;
    let name = format!("{bot}+{layouts_spec}");
    Ok(Arc::new(move || {
        Box::new(Deploying {
            name: name.clone(),
            play: play(),
            layouts: layouts.clone(),
            deployer: None,
            rng: ChaCha8Rng::seed_from_u64(0),
        }) as Box<dyn Bot>
    }))
}

fn stats(draws: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let mut seen = HashSet::new();
    let (mut left, mut three) = (0, 0);
    let mut bombs: BTreeMap<(u8, u8), usize> = BTreeMap::new();
    let mut marshal: BTreeMap<(u8, u8), usize> = BTreeMap::new();
    let mut decoy: BTreeMap<char, usize> = BTreeMap::new();
    for _ in 0..draws {
        let d = deploygen::layout_for_bot(&mut rng);
        seen.insert(d.to_string());
        let fc = if d.cells[5][1] == Some(Role::Flag) {
            1
        } else {
            3
        };
        left += usize::from(fc == 1);
        three += usize::from(
            [(5, fc - 1), (5, fc + 1), (4, fc)]
                .iter()
                .all(|&(r, c)| d.cells[r][c] == Some(Role::Landmine)),
        );
        *decoy
            .entry(d.cells[5][4 - fc].map_or('.', |r| r.code()))
            .or_default() += 1;
        for r in 0..6u8 {
            for c in 0..5u8 {
                match d.cells[r as usize][c as usize] {
                    Some(Role::Bomb) => *bombs.entry((r, c)).or_default() += 1,
                    Some(Role::Marshal) => *marshal.entry((r, c)).or_default() += 1,
                    _ => {}
                }
            }
        }
    }
    let pct = |k: usize| 100.0 * k as f64 / draws as f64;
    println!("{draws} draws of deploygen::layout_for_bot (seed 14)");
    println!("distinct layouts: {}", seen.len());
    println!("flag in the left HQ (local (5,1)): {:.1} %", pct(left));
    println!("flag locked by three landmines: {:.1} %", pct(three));
    let show = |m: &BTreeMap<(u8, u8), usize>| {
        m.iter()
            .map(|(&(r, c), &k)| format!("({r},{c}) {:.1}", pct(k)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("bomb squares, % of layouts: {}", show(&bombs));
    println!("marshal squares, % of layouts: {}", show(&marshal));
    let decoy: Vec<String> = decoy
        .iter()
        .map(|(ch, &k)| format!("{ch} {:.1}", pct(k)))
        .collect();
    println!("decoy HQ holds (role code), %: {}", decoy.join(", "));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("stats") {
        stats(args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000));
        return;
    }
    let bot = args.get(1).map_or("heuristic", |s| s.as_str());
    let a = args.get(2).map_or("new", |s| s.as_str());
    let b = args.get(3).map_or("main", |s| s.as_str());
    let games: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(2026);
    let threads: usize = args.get(6).and_then(|s| s.parse().ok()).unwrap_or(1);
    let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
    let cfg = MatchConfig {
        rules,
        games,
        seed,
        budget: Budget::default(),
        threads,
    };
    let fa = deploying(bot, a).unwrap_or_else(|e| panic!("{e}"));
    let fb = deploying(bot, b).unwrap_or_else(|e| panic!("{e}"));
    let r = run_match(cfg, fa, fb);
    println!("{}", r.to_text());
}
