//! Benchmarks: legal-action generation in opening, middle game and endgame positions on every
//! board, and uniform-random playouts (throughput in plies, so that the boards compare:
//! `random_playout/*` of one run is the per-ply cost of each board on the same machine state).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use junqi_core::playout::{random_playout, random_position};
use junqi_core::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn sample(board: BoardKind, mode: Mode, plies: u32, seed: u64) -> Position {
    let rules = Rules::defaults(board, mode).unwrap();
    random_position(rules, plies, &mut ChaCha8Rng::seed_from_u64(seed))
}

fn movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("legal_actions");
    for (board, mode, label) in [
        (BoardKind::TwoPlayer, Mode::Dark, "2p"),
        (BoardKind::ThreePlayer, Mode::Dark, "3p"),
        (BoardKind::FourPlayer, Mode::Dark, "4p"),
        (BoardKind::SixPlayer, Mode::Dark, "6p"),
        (BoardKind::TwoPlayer, Mode::Flip, "2p_flip"),
    ] {
        for (phase, plies) in [("opening", 0), ("middle", 60), ("endgame", 250)] {
            let pos = sample(board, mode, plies, 11);
            let mut buf = Vec::with_capacity(256);
            g.bench_function(format!("{label}_{phase}"), |b| {
                b.iter(|| {
                    buf.clear();
                    black_box(&pos).legal_actions_into(&mut buf);
                    black_box(buf.len())
                })
            });
        }
    }
    g.finish();
}

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("random_playout");
    g.sample_size(20);
    for (board, mode, label) in [
        (BoardKind::TwoPlayer, Mode::Dark, "2p_dark"),
        (BoardKind::TwoPlayer, Mode::Flip, "2p_flip"),
        (BoardKind::ThreePlayer, Mode::Dark, "3p_dark"),
        (BoardKind::FourPlayer, Mode::Dark, "4p_dark"),
        (BoardKind::SixPlayer, Mode::Dark, "6p_dark"),
    ] {
        let rules = Rules::defaults(board, mode).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let starts: Vec<Position> = (0..16)
            .map(|_| Position::random_start(rules, &mut rng))
            .collect();
        // Throughput in plies: measure the average game length once.
        let mut buf = Vec::with_capacity(256);
        let plies: u64 = starts
            .iter()
            .map(|p| {
                random_playout(&mut p.clone(), &mut ChaCha8Rng::seed_from_u64(2), &mut buf).1 as u64
            })
            .sum();
        g.throughput(Throughput::Elements(plies));
        g.bench_function(label, |b| {
            b.iter(|| {
                let mut rng = ChaCha8Rng::seed_from_u64(2);
                for p in &starts {
                    black_box(random_playout(&mut p.clone(), &mut rng, &mut buf));
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, movegen, playouts);
criterion_main!(benches);
