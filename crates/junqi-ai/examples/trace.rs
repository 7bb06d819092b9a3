//! Replay one arena game (same seeding as `run_match`) and print its last plies and final board.
//! `cargo run --release -p junqi-ai --example trace -- heuristic random 19 [plies] [seed] [mode]`
//! (two-player board; mode `dark` by default, or `open`, `flip`). `TRACE_BUDGET=nodes:60000`
//! (or `ms:N`) gives both bots the arena's `--budget` instead of their own. Upper case: seat 0's pieces
//! (flip play: colour 0), lower case: the other's, `?`: face down.

use junqi_ai::{bot_by_spec, play_match_game, Budget};
use junqi_core::{BoardKind, Mode, Position, Rules};

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
    let first_south = i.is_multiple_of(2);
    let mut log = Vec::new();
    let mut before = String::new();
    let mut last: Option<Position> = None;
    // The arena's own seating, seed and game loop: the game is the one the match played.
    let (fa, fb) = (bot_by_spec(a).unwrap(), bot_by_spec(b).unwrap());
    play_match_game(
        rules,
        master,
        i,
        (&fa, &fb),
        match std::env::var("TRACE_BUDGET") {
            Ok(b) => junqi_ai::engine::parse_budget(&b).unwrap(),
            Err(_) => Budget::default(),
        },
        &mut |pos, seat, events| {
            let now = board(pos);
            log.push((pos.plies(), seat, format!("{events:?}"), before.clone()));
            before = now;
            last = Some(pos.clone());
        },
    );
    let n = log.len();
    for (k, (ply, seat, ev, before)) in log.iter().enumerate() {
        if k + show as usize >= n {
            if k + 3 >= n {
                println!("{before}");
            }
            println!("ply {ply} seat {seat}: {ev}");
        }
    }
    let Some(pos) = last else {
        println!("no action was played");
        return;
    };
    println!("{}", board(&pos));
    println!(
        "{:?} after {} plies (first bot south: {first_south}; flip colours of seats 0, 1: {:?})",
        pos.outcome(),
        pos.plies(),
        pos.flip_colours()
    );
}
