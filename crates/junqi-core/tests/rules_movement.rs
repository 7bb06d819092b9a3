//! RULES §2 and §4: boards and movement. Each test builds a small position and asserts the exact
//! set of squares a piece may reach.

mod common;
use common::*;

/// Every rail square of the two-player board (§2.1), by name.
fn rail_squares_2p() -> Vec<String> {
    let mut v = Vec::new();
    for rank in [2, 6, 7, 11] {
        for f in ['a', 'b', 'c', 'd', 'e'] {
            v.push(format!("{f}{rank}"));
        }
    }
    for f in ['a', 'e'] {
        for rank in [3, 4, 5, 8, 9, 10] {
            v.push(format!("{f}{rank}"));
        }
    }
    v
}

// ---- §4.1 one step -------------------------------------------------------------------------

#[test]
fn one_step_along_roads_from_a_road_station() {
    // c3 is a road station: its four orthogonal neighbours, no diagonals, no slide.
    let p = Pos::two()
        .with(&[("c3", 0, Captain), ("c10", 1, Captain)])
        .build();
    assert_dests(&p, "c3", &["b3", "c2", "c4", "d3"]);
    // b4 borders the rail (a4) but is not on it: one step only.
    let p = Pos::two()
        .with(&[("b4", 0, Captain), ("c10", 1, Captain)])
        .build();
    assert_dests(&p, "b4", &["a4", "b3", "b5", "c4"]);
}

#[test]
fn camps_have_diagonal_roads_and_are_left_by_one_step() {
    // §2.1 camp diagonals; §4.4 camps are never rail squares, so no slide from b3.
    let p = Pos::two()
        .with(&[("b3", 0, Captain), ("c10", 1, Captain)])
        .build();
    assert_dests(&p, "b3", &["a2", "a3", "a4", "b2", "b4", "c2", "c3", "c4"]);
}

#[test]
fn flags_and_landmines_never_move() {
    let p = Pos::two()
        .with(&[
            ("c2", 0, Flag),
            ("c3", 0, Landmine),
            ("e1", 0, Captain),
            ("c10", 1, Captain),
        ])
        .build();
    assert_dests(&p, "c2", &[]);
    assert_dests(&p, "c3", &[]);
    assert_eq!(actions(&p), vec!["e1-d1", "e1-e2"]);
    let e = p.check(action(&p, "c3-c4")).unwrap_err();
    assert!(e.to_string().contains("never moves"), "{e}");
}

// ---- §4.2 rail slides, two-player board ------------------------------------------------------

#[test]
fn rail_slide_runs_along_both_lines_through_a_square_without_turning() {
    // a2 lies on rank 2 and on file a. The slide reaches every empty square of both lines but
    // never turns at a junction (e2 onto file e, a11 onto rank 11, a6 onto rank 6).
    let p = Pos::two()
        .with(&[("a2", 0, Captain), ("c10", 1, Captain)])
        .build();
    assert_dests(
        &p,
        "a2",
        &[
            "a1", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11", "b2", "b3", "c2", "d2",
            "e2",
        ],
    );
}

#[test]
fn rail_slide_stops_before_own_pieces_and_on_the_first_enemy() {
    let p = Pos::two()
        .with(&[
            ("a2", 0, Captain),
            ("a5", 0, Lieutenant),
            ("d2", 1, Lieutenant),
            ("c10", 1, Captain),
        ])
        .build();
    // Not a5 (own), nothing beyond it; d2 attacked, e2 beyond it not reachable.
    assert_dests(&p, "a2", &["a1", "a3", "a4", "b2", "b3", "c2", "d2"]);
}

#[test]
fn slide_crosses_the_front_on_files_a_c_e_only() {
    // a6: file a crosses into North's half; rank 6 is a line of its own.
    let p = Pos::two()
        .with(&[("a6", 0, Captain), ("c10", 1, Captain)])
        .build();
    assert_dests(
        &p,
        "a6",
        &[
            "a2", "a3", "a4", "a5", "a7", "a8", "a9", "a10", "a11", "b5", "b6", "c6", "d6", "e6",
        ],
    );
}

#[test]
fn mountain_b_and_d_do_not_cross() {
    // b6-b7 and d6-d7 are no edges at all: the enemy right across cannot be attacked.
    let p = Pos::two()
        .with(&[
            ("b6", 0, Captain),
            ("d6", 0, Major),
            ("b7", 1, Lieutenant),
            ("d7", 1, Lieutenant),
        ])
        .build();
    assert_dests(&p, "b6", &["a6", "b5", "c6"]);
    assert_dests(&p, "d6", &["c6", "d5", "e6"]);
    let p = Pos::two()
        .with(&[("b6", 0, Captain), ("b7", 1, Lieutenant)])
        .build();
    assert_dests(&p, "b6", &["a6", "b5", "c6", "d6", "e6"]);
}

// ---- §4.3 engineers ------------------------------------------------------------------------

#[test]
fn engineer_reaches_every_empty_rail_square_turning_anywhere() {
    let p = Pos::two()
        .with(&[("a2", 0, Engineer), ("c11", 1, Captain)])
        .build();
    let mut expected: Vec<String> = rail_squares_2p()
        .into_iter()
        .filter(|s| s != "a2")
        .collect();
    expected.extend(["a1".to_string(), "b3".to_string()]);
    assert_eq!(dests(&p, "a2"), sorted(expected));
    // The same piece as a captain cannot turn.
    let p = Pos::two()
        .with(&[("a2", 0, Captain), ("c11", 1, Captain)])
        .build();
    assert!(!dests(&p, "a2").contains(&"e3".to_string()));
}

#[test]
fn engineer_turns_corners_and_attacks_the_first_enemy_it_meets() {
    // File a is blocked by an own piece on a3: the engineer goes along rank 2, turns at e2 up
    // file e and attacks e4; it cannot pass e4 to e5.
    let pieces = [
        ("a2", 0, Engineer),
        ("a3", 0, Lieutenant),
        ("e4", 1, Lieutenant),
        ("c10", 1, Captain),
    ];
    let p = Pos::two().with(&pieces).build();
    assert_dests(&p, "a2", &["a1", "b2", "b3", "c2", "d2", "e2", "e3", "e4"]);
    // A captain in the same place stays on rank 2.
    let mut captain = pieces;
    captain[0].2 = Captain;
    let p = Pos::two().with(&captain).build();
    assert_dests(&p, "a2", &["a1", "b2", "b3", "c2", "d2", "e2"]);
}

#[test]
fn middle_crossing_rail_or_road() {
    // Own pieces on b6 d6 a7 e7 wall c6 in: only the middle crossing leads north.
    let pieces = [
        ("c6", 0, Engineer),
        ("b6", 0, Lieutenant),
        ("d6", 0, Lieutenant),
        ("a7", 0, Captain),
        ("e7", 0, Captain),
        ("c10", 1, Captain),
    ];
    let p = Pos::two().with(&pieces).build();
    assert_dests(&p, "c6", &["b5", "c5", "d5", "c7", "b7", "d7"]);
    let p = Pos::two()
        .with(&pieces)
        .opts(json!({"middle_crossing": "road"}))
        .build();
    // c6-c7 is a road edge: one step to c7, no rail journey through it.
    assert_dests(&p, "c6", &["b5", "c5", "d5", "c7"]);
    // From the north side likewise.
    let p = Pos::two()
        .with(&[
            ("c7", 0, Engineer),
            ("b7", 0, Captain),
            ("d7", 0, Captain),
            ("c10", 1, Captain),
        ])
        .opts(json!({"middle_crossing": "road"}))
        .build();
    assert_dests(&p, "c7", &["b8", "c6", "c8", "d8"]);
    let p = Pos::two()
        .with(&[
            ("c7", 0, Engineer),
            ("b7", 0, Captain),
            ("d7", 0, Captain),
            ("c10", 1, Captain),
        ])
        .build();
    let d = dests(&p, "c7");
    assert!(
        d.contains(&"a2".to_string()) && d.contains(&"e5".to_string()),
        "{d:?}"
    );
}

// ---- §4.4 camps and HQs ----------------------------------------------------------------------

#[test]
fn a_piece_in_a_camp_cannot_be_attacked_and_a_camp_is_entered_only_when_empty() {
    let file_a = ["a2", "a3", "a4", "a6", "a7", "a8", "a9", "a10", "a11"];
    // Enemy in the camp b5: not attackable.
    let p = Pos::two()
        .with(&[
            ("a5", 0, General),
            ("b5", 1, Lieutenant),
            ("c10", 1, Captain),
        ])
        .build();
    assert_dests(&p, "a5", &file_a);
    // Own piece in the camp: not enterable either.
    let p = Pos::two()
        .with(&[
            ("a5", 0, General),
            ("b5", 0, Lieutenant),
            ("c10", 1, Captain),
        ])
        .build();
    assert_dests(&p, "a5", &file_a);
    // Empty camp: enterable.
    let p = Pos::two()
        .with(&[("a5", 0, General), ("c10", 1, Captain)])
        .build();
    let mut with_camp = file_a.to_vec();
    with_camp.push("b5");
    assert_dests(&p, "a5", &with_camp);
    // An engineer's rail journey cannot reach into a camp either (camps are off the rail).
    let p = Pos::two()
        .with(&[
            ("a2", 0, Engineer),
            ("b3", 1, Lieutenant),
            ("c10", 1, Captain),
        ])
        .build();
    assert!(!dests(&p, "a2").contains(&"b3".to_string()));
}

#[test]
fn hq_locks_its_piece_and_gives_no_protection() {
    let p = Pos::two()
        .with(&[("b1", 0, Captain), ("e1", 0, Captain), ("c10", 1, Captain)])
        .build();
    assert_dests(&p, "b1", &[]);
    let e = p.check(action(&p, "b1-a1")).unwrap_err();
    assert!(e.to_string().contains("headquarters"), "{e}");
    // A piece in an HQ can be attacked.
    // (e1 keeps South in the game once the general is locked in d12.)
    let p = Pos::two()
        .with(&[
            ("d11", 0, General),
            ("e1", 0, Captain),
            ("d12", 1, Captain),
            ("c10", 1, Captain),
        ])
        .build();
    assert!(dests(&p, "d11").contains(&"d12".to_string()));
    let mut p = p;
    assert_eq!(
        play(&mut p, "d11-d12"),
        ev(&["attack 0 d11-d12 attacker_wins"])
    );
    assert_eq!(at(&p, "d12"), Some((0, General)));
}

#[test]
fn a_piece_may_enter_its_own_empty_hq_and_is_then_locked() {
    // RULES does not forbid it; the engine allows it (and the piece stays for good).
    let mut p = Pos::two()
        .with(&[("b2", 0, Captain), ("e1", 0, Captain), ("c10", 1, Captain)])
        .build();
    assert!(dests(&p, "b2").contains(&"b1".to_string()));
    play(&mut p, "b2-b1");
    play(&mut p, "c10-c11");
    assert_dests(&p, "b1", &[]);
}

#[test]
fn a_piece_may_enter_an_empty_enemy_hq_and_then_stays_there() {
    let mut p = Pos::two()
        .with(&[("a12", 0, Captain), ("e1", 0, Captain), ("c10", 1, Captain)])
        .build();
    assert_dests(&p, "a12", &["a11", "b12"]);
    assert_eq!(play(&mut p, "a12-b12"), ev(&["move 0 a12-b12"]));
    play(&mut p, "c10-c11");
    assert_eq!(p.to_move(), 0);
    assert_dests(&p, "b12", &[]);
    assert_eq!(actions(&p), vec!["e1-d1", "e1-e2"]);
}

// ---- §2.2 / §4.2 the four-player board -------------------------------------------------------

#[test]
fn four_player_arc_lines_count_as_one_line() {
    // RULES §4.2's own example: g14 slides g13, g12, f11, e11 … in one move; file g runs on
    // through the centre; rank 12 (h12…) and rank 11 east of g11 (i11…) are other lines.
    let p = Pos::four().with(&[("g14", 2, Captain)]).turn(2).build();
    assert_dests(
        &p,
        "g14",
        &[
            "b11", "c11", "d11", "e11", "f11", "g11", "g12", "g13", "g15", "g16", "g2", "g3", "g4",
            "g5", "g6", "g7", "g9", "h13", "h14", "h15",
        ],
    );
}

#[test]
fn four_player_long_line_through_the_centre_and_arc_from_the_back_rail() {
    // b7 (West's back rail corner): the back rail b7-b11, the long rank 7 through the centre to
    // p7, and the arc f7-g6 down South's file g.
    let p = Pos::four().with(&[("b7", 3, Captain)]).turn(3).build();
    assert_dests(
        &p,
        "b7",
        &[
            "a7", "b8", "b9", "b10", "b11", "c7", "c8", "d7", "e7", "f7", "g2", "g3", "g4", "g5",
            "g6", "g7", "i7", "k7", "l7", "m7", "n7", "o7", "p7",
        ],
    );
}

#[test]
fn four_player_short_lines_through_the_centre() {
    // i6 i7 i9 i11 i12: no turning at i7 onto rank 7, nor at i9 onto rank 9.
    let p = Pos::four().with(&[("i6", 0, Captain)]).build();
    assert_dests(
        &p,
        "i6",
        &[
            "g6", "h5", "h6", "i5", "i7", "i9", "i11", "i12", "j5", "j6", "k6",
        ],
    );
    // f9 g9 i9 k9 l9 ends at East's front row.
    let p = Pos::four().with(&[("f9", 3, Captain)]).turn(3).build();
    assert_dests(
        &p,
        "f9",
        &[
            "e8", "e9", "e10", "f7", "f8", "f10", "f11", "g9", "i9", "k9", "l9",
        ],
    );
}

#[test]
fn four_player_line_change_forbidden_where_file_g_meets_the_front_row() {
    // g4: file g (through the centre) and the arc (onto f7); never along rank 6 (h6…).
    let p = Pos::four().with(&[("g4", 0, Captain)]).build();
    assert_dests(
        &p,
        "g4",
        &[
            "b7", "c7", "d7", "e7", "f7", "g2", "g3", "g5", "g6", "g7", "g9", "g11", "g12", "g13",
            "g14", "g15", "g16", "h3", "h4", "h5",
        ],
    );
}

#[test]
fn four_player_second_and_fourth_front_files_have_no_link_out() {
    let p = Pos::four().with(&[("h6", 0, Captain)]).build();
    assert_dests(&p, "h6", &["g6", "h5", "i6", "j6", "k6"]);
}

#[test]
fn four_player_partner_pieces_block_and_cannot_be_attacked() {
    // South (0) on g2; North (2, partner) on g4 blocks file g and the arc; West (3) on i2 is
    // attacked, and blocks j2 beyond it.
    let p = Pos::four()
        .with(&[
            ("g2", 0, Captain),
            ("g4", 2, Lieutenant),
            ("i2", 3, Lieutenant),
        ])
        .build();
    assert_dests(&p, "g2", &["g1", "g3", "h2", "h3", "i2"]);
    // Adjacent partner: not a destination; adjacent enemy: one.
    let p = Pos::four()
        .with(&[
            ("g2", 0, Captain),
            ("g3", 2, Lieutenant),
            ("h2", 1, Lieutenant),
        ])
        .build();
    assert_dests(&p, "g2", &["g1", "h2", "h3"]);
}

#[test]
fn four_player_engineer_turns_in_the_centre() {
    // North engineer on i12, partner (South) pieces on h12 and j12, East pieces on g11 k11 i9.
    let pieces = [
        ("i12", 2, Engineer),
        ("h12", 0, Lieutenant),
        ("j12", 0, Lieutenant),
        ("g11", 1, Lieutenant),
        ("k11", 1, Lieutenant),
        ("i9", 1, Lieutenant),
    ];
    let p = Pos::four().with(&pieces).turn(2).build();
    assert_dests(&p, "i12", &["g11", "h13", "i9", "i11", "i13", "j13", "k11"]);
    // A captain stays on the short line i12 i11 i9.
    let mut captain = pieces;
    captain[0].2 = Captain;
    let p = Pos::four().with(&captain).turn(2).build();
    assert_dests(&p, "i12", &["h13", "i9", "i11", "i13", "j13"]);
}

#[test]
fn a_move_never_ends_on_an_own_piece() {
    let p = Pos::two()
        .with(&[
            ("c3", 0, Captain),
            ("c2", 0, Lieutenant),
            ("c10", 1, Captain),
        ])
        .build();
    assert_dests(&p, "c3", &["b3", "c4", "d3"]);
}

// ---- §2 boards and §2.3 local coordinates ------------------------------------------------------

fn squares_of_kind(t: &junqi_core::Topology, kind: junqi_core::SquareKind) -> Vec<String> {
    sorted(
        t.squares()
            .filter(|&s| t.kind(s) == kind)
            .map(|s| t.name(s).to_string()),
    )
}

#[test]
fn board_squares_hqs_and_camps() {
    use junqi_core::{SquareKind, Topology};
    let t = Topology::get(BoardKind::TwoPlayer, true);
    assert_eq!(t.len(), 60);
    assert_eq!(
        squares_of_kind(t, SquareKind::Headquarters),
        sorted(["b1", "d1", "b12", "d12"])
    );
    assert_eq!(
        squares_of_kind(t, SquareKind::Camp),
        sorted(["b3", "d3", "c4", "b5", "d5", "b8", "d8", "c9", "b10", "d10"])
    );
    assert_eq!(t.rail_square_count(), 32);
    let t = Topology::get(BoardKind::FourPlayer, true);
    assert_eq!(t.len(), 129);
    assert_eq!(
        squares_of_kind(t, SquareKind::Headquarters),
        sorted(["h1", "j1", "q8", "q10", "h17", "j17", "a8", "a10"])
    );
    assert_eq!(
        squares_of_kind(t, SquareKind::Camp),
        sorted([
            "h3", "j3", "i4", "h5", "j5", "o8", "o10", "n9", "m8", "m10", "h15", "j15", "i14",
            "h13", "j13", "c8", "c10", "d9", "e8", "e10",
        ])
    );
    // The centre: nine rail squares, nothing else.
    for n in ["g7", "i7", "k7", "g9", "i9", "k9", "g11", "i11", "k11"] {
        let s = t.parse_square(n).unwrap();
        assert!(
            t.is_rail(s) && t.kind(s) == SquareKind::Station && t.home(s).is_none(),
            "{n}"
        );
    }
    for n in ["h7", "h8", "j10", "f6", "l6", "a1", "q17"] {
        assert!(t.parse_square(n).is_none(), "{n} is not a square");
    }
}

#[test]
fn local_coordinates_map_as_in_section_2_3() {
    use junqi_core::Topology;
    let cases: &[(BoardKind, u8, [&str; 4])] = &[
        // seat, then local (0,0), (5,1), (5,3), (2,2)
        (BoardKind::TwoPlayer, 0, ["a6", "b1", "d1", "c4"]),
        (BoardKind::TwoPlayer, 1, ["e7", "d12", "b12", "c9"]),
        (BoardKind::FourPlayer, 0, ["g6", "h1", "j1", "i4"]),
        (BoardKind::FourPlayer, 1, ["l7", "q8", "q10", "n9"]),
        (BoardKind::FourPlayer, 2, ["k12", "j17", "h17", "i14"]),
        (BoardKind::FourPlayer, 3, ["f11", "a10", "a8", "d9"]),
    ];
    for &(board, seat, names) in cases {
        let t = Topology::get(board, true);
        let got: Vec<&str> = [(0, 0), (5, 1), (5, 3), (2, 2)]
            .iter()
            .map(|&(r, c)| t.name(t.local(seat, r, c)))
            .collect();
        assert_eq!(got, names, "{board} seat {seat}");
        assert_eq!(
            t.hqs_of(seat).map(|s| t.name(s).to_string()),
            [names[1].to_string(), names[2].to_string()]
        );
    }
}

#[test]
fn four_player_every_arc_line_is_travelled_end_to_end_both_ways() {
    // The four arc lines of §2.2: each end reaches the other in one slide, and nothing off the
    // arc line beyond the turn (e.g. h12 for the first).
    for (a, b, not) in [
        ("g16", "b11", "h12"),
        ("k16", "p11", "j12"),
        ("g2", "b7", "h6"),
        ("k2", "p7", "j6"),
    ] {
        for (from, to) in [(a, b), (b, a)] {
            let p = Pos::four().with(&[(from, 0, Captain)]).build();
            let d = dests(&p, from);
            assert!(
                d.contains(&to.to_string()),
                "{from} should reach {to}: {d:?}"
            );
            assert!(
                !d.contains(&not.to_string()),
                "{from} must not reach {not}: {d:?}"
            );
        }
    }
}
