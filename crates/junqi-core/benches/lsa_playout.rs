//! Benchmarks of land-sea-air (board `land_sea_air`): uniform-random playouts from random
//! deployments, with throughput in plies (criterion reports plies/s as `elem/s`), and legal
//! action generation at the start and in the middle of a game.
//!
//! `cargo bench -p junqi-core --bench lsa_playout`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use junqi_core::lsa::playout::{random_playout, random_plies, random_start};
use junqi_core::lsa::{ActionList, Options, PieceSet, Position};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn starts(opts: Options) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    (0..16).map(|_| random_start(opts, &mut rng)).collect()
}

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("lsa_random_playout");
    g.sample_size(20);
    for (set, label) in [(PieceSet::Seed, "seed"), (PieceSet::Taiwan, "taiwan")] {
        let opts = Options {
            piece_set: set,
            ..Options::default()
        };
        let starts = starts(opts);
        let mut buf = ActionList::new();
        // Throughput in plies: the games are the same at every iteration (same seed).
        let plies: u64 = {
            let mut rng = ChaCha8Rng::seed_from_u64(2);
            starts
                .iter()
                .map(|p| random_playout(&mut p.clone(), &mut rng, &mut buf).1 as u64)
                .sum()
        };
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

fn movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("lsa_legal_actions");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let opening = random_start(Options::default(), &mut rng);
    let mut middle = opening.clone();
    let mut buf = ActionList::new();
    random_plies(&mut middle, 200, &mut rng, &mut buf);
    for (label, pos) in [("opening", opening), ("middle", middle)] {
        g.bench_function(label, |b| {
            b.iter(|| {
                buf.clear();
                black_box(&pos).legal_actions_into(&mut buf);
                black_box(buf.len())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, playouts, movegen);
criterion_main!(benches);
