//! Flip-play diagnostics: play arena games (same seeding as `run_match`) and print, for each,
//! the state of both armies when the last piece is turned up and at the end.
//! `cargo run --release -p junqi-ai --example flipstats -- search heuristic 100 [seed] [first]`
//! `FLIP_BUDGET=nodes:30000` (or `ms:N`) gives both bots the arena's `--budget` instead of
//! their own.

use junqi_ai::{bot_by_spec, eval::value, first_bot_score, play_match_game, Budget};
use junqi_core::{BoardKind, Mode, Position, Role, Rules};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Movers, their material, landmines, engineers, bombs of one colour.
fn army(pos: &Position, colour: u8) -> String {
    let (mut movers, mut mat, mut mines, mut eng, mut bombs, mut down) = (0, 0.0, 0, 0, 0, 0);
    for (_, p) in pos.pieces() {
        if p.seat != colour {
            continue;
        }
        if p.face_down {
            down += 1;
        }
        match p.role {
            Role::Landmine => mines += 1,
            Role::Flag => {}
            r => {
                movers += 1;
                mat += value(r);
                if r == Role::Engineer {
                    eng += 1;
                }
                if r == Role::Bomb {
                    bombs += 1;
                }
            }
        }
    }
    format!("mv {movers:2} mat {mat:5.1} mines {mines} eng {eng} bomb {bombs} down {down:2}")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = args[1].clone();
    let b = args[2].clone();
    let games: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(100);
    let master: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(2026);
    let first: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(0);
    let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Flip).unwrap();
    let budget = match std::env::var("FLIP_BUDGET") {
        Ok(b) => junqi_ai::engine::parse_budget(&b).expect("FLIP_BUDGET: nodes:N or ms:N"),
        Err(_) => Budget::default(),
    };
    let next = Arc::new(AtomicU64::new(first));
    let out = Arc::new(Mutex::new(Vec::new()));
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let (next, out) = (next.clone(), out.clone());
            let (fa, fb) = (bot_by_spec(&a).unwrap(), bot_by_spec(&b).unwrap());
            std::thread::spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= first + games {
                    break;
                }
                let mut at_up: Option<(u32, Position)> = None;
                let mut last: Option<Position> = None;
                let result =
                    play_match_game(rules, master, i, (&fa, &fb), budget, &mut |pos, _, _| {
                        if at_up.is_none() && pos.pieces().all(|(_, p)| !p.face_down) {
                            at_up = Some((pos.plies(), pos.clone()));
                        }
                        last = Some(pos.clone());
                    });
                let pos = last.expect("a flip game has actions");
                let score = first_bot_score(&rules, &result, i);
                let a_seat = (i % 2) as u8;
                let ca = pos.colour_of(a_seat).unwrap_or(0);
                let mut s = format!(
                    "game {i:3} score {score} plies {:3} {:?}\n",
                    result.plies, result.outcome
                );
                if let Some((ply, up)) = &at_up {
                    s += &format!(
                        "  all up at {ply:3}: A {} | B {}\n",
                        army(up, ca),
                        army(up, 1 - ca)
                    );
                }
                s += &format!(
                    "  end            : A {} | B {}\n",
                    army(&pos, ca),
                    army(&pos, 1 - ca)
                );
                print!("{s}");
                out.lock().unwrap().push((i, score));
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let out = out.lock().unwrap();
    let total: f64 = out.iter().map(|x| x.1).sum();
    println!("score {:.3} over {}", total / out.len() as f64, out.len());
}
