use junqi_core::*;
use rand::{Rng, SeedableRng};

#[test]
fn random_games_finish_on_every_board_and_mode() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for (board, mode) in [
        (BoardKind::TwoPlayer, Mode::Dark),
        (BoardKind::TwoPlayer, Mode::Flip),
        (BoardKind::FourPlayer, Mode::Dark),
        (BoardKind::FourPlayer, Mode::HalfOpen),
        (BoardKind::ThreePlayer, Mode::Dark),
        (BoardKind::SixPlayer, Mode::Dark),
        (BoardKind::SixPlayer, Mode::HalfOpen),
    ] {
        let rules = Rules::defaults(board, mode).unwrap();
        for _ in 0..50 {
            let mut pos = Position::random_start(rules, &mut rng);
            let mut acts = Vec::new();
            let mut ev = Vec::new();
            while !pos.is_over() {
                acts.clear();
                pos.legal_actions_into(&mut acts);
                assert!(!acts.is_empty(), "{pos:?}");
                let a = acts[rng.gen_range(0..acts.len())];
                pos.play(a, &mut ev).unwrap();
            }
        }
    }
}
