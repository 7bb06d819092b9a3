//! How a land-sea-air player loses: plays `games` games of the first player against the
//! second (seats alternating, default options and budget, as `junqi arena` does) and prints,
//! for every game the first did not win, where its flag stood and the last `tail` plies with
//! the roles that moved and met (the referee's truth, for reading, not for the players):
//! `cargo run --release -p junqi-ai --example lsa_losses -- search heuristic 20 7 16`.
//! This is how the walk onto an open flag was found (`junqi_ai::lsa::threat`).

use junqi_ai::lsa::{bot_by_spec, LsaBot};
use junqi_ai::Budget;
use junqi_core::lsa::{events_for, Event, Mode, Observer, Options, Position, Side, Status};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let (a, b) = (arg(0, "search"), arg(1, "heuristic"));
    let games: u64 = arg(2, "20").parse().expect("games");
    let seed: u64 = arg(3, "7").parse().expect("seed");
    let tail: usize = arg(4, "16").parse().expect("tail");
    let options = Options::default();
    let (mut w, mut d, mut l) = (0, 0, 0);
    for g in 0..games {
        let gs = seed + g;
        let first_south = g % 2 == 0;
        let mut fa = bot_by_spec(&a).unwrap()();
        let mut fb = bot_by_spec(&b).unwrap()();
        let mut bots: [&mut dyn LsaBot; 2] = if first_south {
            [fa.as_mut(), fb.as_mut()]
        } else {
            [fb.as_mut(), fa.as_mut()]
        };
        let sides = [Side::South, Side::North];
        for (i, bt) in bots.iter_mut().enumerate() {
            bt.new_game(
                &options,
                sides[i],
                gs.wrapping_mul(2).wrapping_add(i as u64),
            );
        }
        let l0 = bots[0].deploy().unwrap();
        let l1 = bots[1].deploy().unwrap();
        let mut pos = Position::new(options, &l0, &l1).unwrap();
        let start = pos.clone();
        for (i, bt) in bots.iter_mut().enumerate() {
            bt.observe(&[], &pos.view(Mode::Dark, Observer::Seat(sides[i])));
        }
        let mut log: Vec<String> = Vec::new();
        while !pos.is_over() {
            let me = pos.to_move();
            let view = pos.view(Mode::Dark, Observer::Seat(me));
            let act = bots[me as usize].choose(&view, Budget::default()).unwrap();
            let mover = pos
                .at(act.from())
                .map(|p| format!("{:?}", p.role()))
                .unwrap_or_default();
            let target = pos
                .at(act.to())
                .filter(|p| p.side() != me)
                .map(|p| format!("{:?}", p.role()))
                .unwrap_or_default();
            let step = pos.apply(act).unwrap();
            let mut line = format!(
                "{:>3} {:?} {} {} -> {}",
                pos.plies(),
                me,
                act,
                mover,
                target
            );
            for e in step.events.as_slice() {
                if let Event::Attack { result, .. } = e {
                    line += &format!(" {result:?}");
                }
            }
            log.push(line);
            for (i, bt) in bots.iter_mut().enumerate() {
                let obs = Observer::Seat(sides[i]);
                let evs: Vec<Event> = events_for(obs, step.events.as_slice()).collect();
                bt.observe(&evs, &pos.view(Mode::Dark, obs));
            }
        }
        let a_side = if first_south {
            Side::South
        } else {
            Side::North
        };
        let res = match pos.status() {
            Status::Won { winner, .. } if winner == a_side => {
                w += 1;
                "WIN"
            }
            Status::Won { .. } => {
                l += 1;
                "LOSS"
            }
            _ => {
                d += 1;
                "DRAW"
            }
        };
        println!(
            "game {g} seed {gs} a={a_side:?} {res} {:?} plies {}",
            pos.status(),
            pos.plies()
        );
        if res != "WIN" {
            let flag = start
                .pieces()
                .find(|(_, p)| p.side() == a_side && p.role() == junqi_core::lsa::Role::Flag)
                .map(|(s, _)| s);
            println!("  a flag at {:?}", flag.map(|s| s.to_string()));
            let n = log.len();
            for line in &log[n.saturating_sub(tail)..] {
                println!("  {line}");
            }
        }
    }
    println!("{w} wins {d} draws {l} losses");
}
