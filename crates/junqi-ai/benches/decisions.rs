//! Benchmarks: the time one bot decision takes at its default budget (the figure behind "about
//! 100 ms a move" for `search`), in two-, three-, four- and six-player dark and flip play, early and
//! in the middle game. Positions come from heuristic-against-heuristic games with a fixed seed;
//! the benchmarked bot has observed the whole game from the seat to move, as in the arena.

use criterion::{criterion_group, criterion_main, Criterion};
use junqi_ai::{bot_by_name, Bot, Budget};
use junqi_core::{BoardKind, Deployment, Event, Mode, Observer, Position, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The position after `plies` plies of heuristic play, with a bot named `name` for the seat to
/// move that has observed every announcement of the game from that seat.
fn midgame(board: BoardKind, mode: Mode, plies: u32, name: &str) -> (Position, Box<dyn Bot>) {
    let rules = Rules::defaults(board, mode).unwrap();
    let seats = rules.seats();
    let heuristic = bot_by_name("heuristic").unwrap();
    let make = bot_by_name(name).unwrap();
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

criterion_group!(benches, decisions);
criterion_main!(benches);
