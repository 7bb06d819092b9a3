//! Benchmarks: the time one bot decision takes at its default budget (the figure behind "about
//! 100 ms a move" for `search`), in two-, three-, four- and six-player dark and flip play, early and
//! in the middle game. Positions come from heuristic-against-heuristic games with a fixed seed;
//! the benchmarked bot has observed the whole game from the seat to move, as in the arena.
//! The `certain` group times one decision of a flip endgame with every piece face up (the
//! deepening search of one world) at a fixed node budget, with and without the search's
//! memory (transposition table and history): the cost of a node with and without it. The
//! `chance` group times one decision in the middle of a flip game's flip phase at a fixed node
//! budget, with the levels' chance root and with sampled worlds (`chance=0`).

use criterion::{criterion_group, criterion_main, Criterion};
use junqi_ai::{bot_by_name, bot_by_spec, Bot, Budget};
use junqi_core::{BoardKind, Deployment, Event, Mode, Observer, Position, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The position after `plies` plies of heuristic play, with a bot `name` (a spec) for the seat to
/// move that has observed every announcement of the game from that seat.
fn midgame(board: BoardKind, mode: Mode, plies: u32, name: &str) -> (Position, Box<dyn Bot>) {
    let rules = Rules::defaults(board, mode).unwrap();
    let seats = rules.seats();
    let heuristic = bot_by_name("heuristic").unwrap();
    let make = bot_by_spec(name).unwrap();
    let mut players: Vec<Box<dyn Bot>> = (0..seats).map(|_| heuristic()).collect();
    let mut watchers: Vec<Box<dyn Bot>> = (0..seats).map(|_| make()).collect();
    for s in 0..seats {
        players[s].new_game(&rules, s as u8, 7 + s as u64);
        watchers[s].new_game(&rules, s as u8, 100 + s as u64);
    }
    let mut pos = if rules.is_flip() {
        Position::deal(rules, 0, &mut ChaCha8Rng::seed_from_u64(5)).unwrap()
    } else {
        let layouts: Vec<Deployment> = players.iter_mut().map(|b| b.deploy().unwrap()).collect();
        Position::from_deployments(rules, &layouts, 0).unwrap()
    };
    let mut events: Vec<Event> = Vec::new();
    for s in 0..seats {
        let obs = pos.observe(Observer::Seat(s as u8));
        players[s].observe(&[], &obs);
        watchers[s].observe(&[], &obs);
    }
    while pos.plies() < plies {
        let seat = pos.to_move() as usize;
        let obs = pos.observe(Observer::Seat(seat as u8));
        let action = players[seat].choose(&obs, Budget::default()).unwrap();
        events.clear();
        pos.play(action, &mut events).unwrap();
        assert!(!pos.is_over(), "the sample game ended before ply {plies}");
        for s in 0..seats {
            let obs = pos.observe(Observer::Seat(s as u8));
            players[s].observe(&events, &obs);
            watchers[s].observe(&events, &obs);
        }
    }
    let seat = pos.to_move() as usize;
    (pos, watchers.swap_remove(seat))
}

fn decisions(c: &mut Criterion) {
    let mut g = c.benchmark_group("decision");
    g.sample_size(10);
    g.warm_up_time(std::time::Duration::from_secs(1));
    for (board, mode, label) in [
        (BoardKind::TwoPlayer, Mode::Dark, "2p_dark"),
        (BoardKind::ThreePlayer, Mode::Dark, "3p_dark"),
        (BoardKind::FourPlayer, Mode::Dark, "4p_dark"),
        (BoardKind::SixPlayer, Mode::Dark, "6p_dark"),
        (BoardKind::TwoPlayer, Mode::Flip, "2p_flip"),
    ] {
        for (phase, plies) in [("early", 10), ("middle", 60)] {
            for name in ["heuristic", "search"] {
                let (pos, mut bot) = midgame(board, mode, plies, name);
                let obs = pos.observe(Observer::Seat(pos.to_move()));
                g.bench_function(format!("{name}/{label}_{phase}"), |b| {
                    b.iter(|| bot.choose(&obs, Budget::default()).unwrap())
                });
            }
        }
    }
    g.finish();
}

fn certain(c: &mut Criterion) {
    let mut g = c.benchmark_group("certain");
    g.sample_size(10);
    g.warm_up_time(std::time::Duration::from_secs(1));
    let text = "two_player flip 0 colours=0,1 quiet=4 a1=0F b1=0L c1=0L a4=09 c3=08 e2=07 \
                b5=02 d6=04 a6=03 c12=1F b12=1L d12=1L e11=1L d10=15 b9=13 c8=01 e7=05";
    let pos = junqi_core::text::position_from_text(text).unwrap();
    let obs = pos.observe(Observer::Seat(0));
    for spec in ["master@cap=0", "master@cap=0,memory=0"] {
        let mut bot = bot_by_spec(spec).unwrap()();
        bot.new_game(pos.rules(), 0, 7);
        bot.observe(&[], &obs);
        g.bench_function(format!("{spec}/nodes_30000"), |b| {
            b.iter(|| bot.choose(&obs, Budget::Nodes(30_000)).unwrap())
        });
    }
    g.finish();
}

fn chance(c: &mut Criterion) {
    let mut g = c.benchmark_group("chance");
    g.sample_size(10);
    g.warm_up_time(std::time::Duration::from_secs(1));
    for spec in ["master@cap=0", "master@cap=0,chance=0"] {
        let (pos, mut bot) = midgame(BoardKind::TwoPlayer, Mode::Flip, 40, spec);
        let obs = pos.observe(Observer::Seat(pos.to_move()));
        g.bench_function(format!("{spec}/nodes_30000"), |b| {
            b.iter(|| bot.choose(&obs, Budget::Nodes(30_000)).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, decisions, certain, chance);
criterion_main!(benches);
