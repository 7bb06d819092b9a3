//! Prints the perft suite kept in `tests/perft/suite.perft`: positions on every board (openings,
//! middle games and endgames reached by seeded random play, several modes and options) with
//! their perft counts. Run `cargo run --release -p junqi-core --example perft_suite`.

use junqi_core::playout::{perft, random_position};
use junqi_core::text::position_to_text;
use junqi_core::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() {
    let cases: Vec<(&str, BoardKind, Mode, &str, u32, u32)> = vec![
        (
            "2p-dark-opening",
            BoardKind::TwoPlayer,
            Mode::Dark,
            "{}",
            0,
            3,
        ),
        (
            "2p-dark-middle",
            BoardKind::TwoPlayer,
            Mode::Dark,
            "{}",
            40,
            3,
        ),
        (
            "2p-dark-endgame",
            BoardKind::TwoPlayer,
            Mode::Dark,
            "{}",
            200,
            3,
        ),
        (
            "2p-open-road-crossing",
            BoardKind::TwoPlayer,
            Mode::Open,
            r#"{"middle_crossing":"road"}"#,
            30,
            3,
        ),
        (
            "2p-dark-bomb-flies-any-turns",
            BoardKind::TwoPlayer,
            Mode::Dark,
            r#"{"bomb_flies":true,"rail_turns":"any"}"#,
            30,
            3,
        ),
        (
            "2p-dark-carry-home",
            BoardKind::TwoPlayer,
            Mode::Dark,
            r#"{"win_by_flag":"carry_home","engineer_scout":true}"#,
            60,
            3,
        ),
        ("2p-flip-deal", BoardKind::TwoPlayer, Mode::Flip, "{}", 0, 3),
        (
            "2p-flip-middle",
            BoardKind::TwoPlayer,
            Mode::Flip,
            "{}",
            60,
            3,
        ),
        (
            "2p-flip-first-engineer",
            BoardKind::TwoPlayer,
            Mode::Flip,
            r#"{"flip_colour":"first_engineer"}"#,
            5,
            3,
        ),
        (
            "4p-dark-opening",
            BoardKind::FourPlayer,
            Mode::Dark,
            "{}",
            0,
            2,
        ),
        (
            "4p-dark-middle",
            BoardKind::FourPlayer,
            Mode::Dark,
            "{}",
            80,
            2,
        ),
        (
            "4p-half-open-endgame",
            BoardKind::FourPlayer,
            Mode::HalfOpen,
            "{}",
            300,
            2,
        ),
        (
            "4p-dark-clockwise-losing-forbidden",
            BoardKind::FourPlayer,
            Mode::Dark,
            r#"{"turn_order":"clockwise","losing_attacks":"forbidden"}"#,
            60,
            2,
        ),
        (
            "3p-dark-opening",
            BoardKind::ThreePlayer,
            Mode::Dark,
            "{}",
            0,
            3,
        ),
        (
            "3p-dark-middle",
            BoardKind::ThreePlayer,
            Mode::Dark,
            "{}",
            90,
            3,
        ),
        (
            "3p-open-any-turns-clockwise",
            BoardKind::ThreePlayer,
            Mode::Open,
            r#"{"rail_turns":"any","turn_order":"clockwise"}"#,
            150,
            3,
        ),
        (
            "6p-dark-opening",
            BoardKind::SixPlayer,
            Mode::Dark,
            "{}",
            0,
            3,
        ),
        (
            "6p-dark-middle",
            BoardKind::SixPlayer,
            Mode::Dark,
            "{}",
            120,
            3,
        ),
        (
            "6p-half-open-opposite",
            BoardKind::SixPlayer,
            Mode::HalfOpen,
            r#"{"teams":"opposite"}"#,
            200,
            3,
        ),
        (
            "6p-dark-free-for-all-bomb-flies",
            BoardKind::SixPlayer,
            Mode::Dark,
            r#"{"teams":"none","bomb_flies":true}"#,
            300,
            3,
        ),
    ];
    println!(
        "# Perft suite: positions in the one-line text form (docs/formats.md) and the number of"
    );
    println!("# action sequences of each depth. Made by examples/perft_suite.rs; checked by tests/perft.rs.");
    for (i, (id, board, mode, opts, plies, depth)) in cases.into_iter().enumerate() {
        let o =
            Options::from_json(board, mode, Some(&serde_json::from_str(opts).unwrap())).unwrap();
        let rules = Rules::new(board, mode, o).unwrap();
        let pos = random_position(rules, plies, &mut ChaCha8Rng::seed_from_u64(100 + i as u64));
        println!();
        println!("id {id}");
        println!("pos {}", position_to_text(&pos));
        for d in 1..=depth {
            println!("perft {d} {}", perft(&pos, d));
        }
    }
}
