//! Replay one arena game (same seeding as `run_match`) and print its last plies and final board.
//! `cargo run --release -p junqi-ai --example trace -- heuristic random 19 [plies] [seed] [mode]`
//! (two-player board; mode `dark` by default, or `open`, `flip`). Upper case: seat 0's pieces
//! (flip play: colour 0), lower case: the other's, `?`: face down.

use junqi_ai::{bot_by_spec, game_seed, Bot, Budget};
use junqi_core::{BoardKind, Deployment, Event, Mode, Observer, Position, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn board(pos: &Position) -> String {
    let t = pos.topology();
    let mut s = String::new();
    for rank in (1..=12u8).rev() {
        for file in 0..5u8 {
            let c = match t.at(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) if p.face_down => '?',
                Some(p) => {
                    let ch = b"MGJBCYLPEXDF"[p.role as usize] as char;
                    if p.seat == 0 {
                        ch
                    } else {
                        ch.to_ascii_lowercase()
                    }
                }
                None => '.',
            };
            s.push(c);
            s.push(' ');
        }
        s.push('\n');
    }
    s
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = args.get(1).map_or("heuristic", |s| s.as_str());
    let b = args.get(2).map_or("random", |s| s.as_str());
    let i: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let show: u32 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(12);
    let master: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(2026);
    let mode: Mode = args.get(6).map_or("dark", |s| s.as_str()).parse().unwrap();
    let rules = Rules::defaults(BoardKind::TwoPlayer, mode).unwrap();
    let seed = game_seed(master, i);
    let first_south = i.is_multiple_of(2);
    let mut bots: Vec<Box<dyn Bot>> = (0..2)
        .map(|s| {
            if (s == 0) == first_south {
                bot_by_spec(a).unwrap()()
            } else {
                bot_by_spec(b).unwrap()()
            }
        })
        .collect();
    for (s, bot) in bots.iter_mut().enumerate() {
        bot.new_game(
            &rules,
            s as u8,
            seed.wrapping_mul(31).wrapping_add(s as u64 + 1),
        );
    }
    // As the arena starts a game: flip play deals from the game's seed, others deploy.
    let mut pos = if rules.is_flip() {
        Position::deal(rules, 0, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap()
    } else {
        let layouts: Vec<Deployment> = bots.iter_mut().map(|b| b.deploy().unwrap()).collect();
        Position::from_deployments(rules, &layouts, 0).unwrap()
    };
    for (s, bot) in bots.iter_mut().enumerate() {
        bot.observe(&[], &pos.observe(Observer::Seat(s as u8)));
    }
    let mut log = Vec::new();
    let mut events: Vec<Event> = Vec::new();
    while !pos.is_over() {
        let seat = pos.to_move();
        let obs = pos.observe(Observer::Seat(seat));
        let act = bots[seat as usize].choose(&obs, Budget::default()).unwrap();
        events.clear();
        let before = board(&pos);
        pos.play(act, &mut events).unwrap();
        log.push((pos.plies(), seat, format!("{events:?}"), before));
        for (s, bot) in bots.iter_mut().enumerate() {
            bot.observe(&events, &pos.observe(Observer::Seat(s as u8)));
        }
    }
    let n = log.len();
    for (k, (ply, seat, ev, before)) in log.iter().enumerate() {
        if k + show as usize >= n {
            if k + 3 >= n {
                println!("{before}");
            }
            println!("ply {ply} seat {seat}: {ev}");
        }
    }
    println!("{}", board(&pos));
    println!(
        "{:?} after {} plies (first bot south: {first_south}; flip colours of seats 0, 1: {:?})",
        pos.outcome(),
        pos.plies(),
        pos.flip_colours()
    );
}
