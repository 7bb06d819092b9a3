//! Hand-built positions for the unit tests of `junqi play`'s modules.

use junqi_core::{BoardKind, Mode, PlacedPiece, Position, Role, Rules, Setup};

/// Two-player dark play, South to move, from (square, seat, role) triples.
pub fn position(pieces: &[(&str, u8, Role)]) -> Position {
    let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
    let topo = junqi_core::Topology::get(rules.board, rules.middle_rail());
    let pieces = pieces
        .iter()
        .map(|&(at, seat, role)| PlacedPiece {
            at: topo.parse_square(at).unwrap(),
            seat,
            role,
            face_down: false,
            carrying_flag_of: None,
        })
        .collect();
    Position::from_setup(&Setup {
        rules,
        to_move: 0,
        pieces,
        flip_colours: None,
        plies: 0,
        quiet_plies: 0,
        skips: vec![0, 0],
        eliminated: Vec::new(),
        captured_flags: Vec::new(),
    })
    .unwrap()
}
