//! Validation: positions (RULES §11.1, with §1 piece counts, §8 mode/board pairs and §9 options)
//! and deployments (§3). Every error names what is wrong, and nothing is built.

mod common;
use common::*;
use junqi_core::{Deployment, Options, Rules, Setup};

#[track_caller]
fn error(p: Pos) -> String {
    match p.try_build() {
        Ok(pos) => panic!("accepted: {pos:?}"),
        Err(e) => e.to_string(),
    }
}

#[track_caller]
fn setup_error(s: &Setup) -> String {
    Position::from_setup(s)
        .map(|p| format!("accepted: {p:?}"))
        .unwrap_or_else(|e| e.to_string())
}

#[test]
fn two_pieces_on_one_square() {
    let e = error(Pos::two().with(&[("a2", 0, Captain), ("a2", 1, Captain)]));
    assert!(e.contains("two pieces on a2"), "{e}");
}

#[test]
fn too_many_of_a_role() {
    let e = error(Pos::two().with(&[
        ("a1", 0, Engineer),
        ("a2", 0, Engineer),
        ("a3", 0, Engineer),
        ("a4", 0, Engineer),
    ]));
    assert!(
        e.contains("more than 3 engineer") && e.contains("a4"),
        "{e}"
    );
    let e = error(Pos::two().with(&[("b1", 0, Flag), ("d1", 0, Flag)]));
    assert!(e.contains("more than 1 flag"), "{e}");
    // Counts are per seat.
    Pos::two()
        .with(&[
            ("a1", 0, Engineer),
            ("a2", 0, Engineer),
            ("a3", 0, Engineer),
            ("a4", 1, Engineer),
        ])
        .build();
}

#[test]
fn a_seat_that_does_not_exist() {
    let e = error(Pos::two().with(&[("a2", 2, Captain)]));
    assert!(e.contains("seat 2") && e.contains("does not exist"), "{e}");
    let e = error(Pos::four().with(&[("g2", 4, Captain)]));
    assert!(e.contains("seat 4") && e.contains("does not exist"), "{e}");
    let e = error(Pos::two().with(&[("a2", 0, Captain)]).turn(2));
    assert!(e.contains("to_move 2"), "{e}");
    let e = error(Pos::two().with(&[("a2", 0, Captain)]).eliminated(&[3]));
    assert!(e.contains("seat 3"), "{e}");
    let e = error(Pos::two().with(&[("a2", 0, Captain)]).skips(&[0, 0, 0]));
    assert!(e.contains("skips"), "{e}");
    // A flip colour is a seat too.
    let e = error(Pos::flip().down(&[("a2", 2, Captain)]));
    assert!(e.contains("seat 2"), "{e}");
}

#[test]
fn face_down_only_in_flip_play() {
    let e = error(Pos::two().down(&[("a2", 0, Captain)]));
    assert!(e.contains("face down") && e.contains("a2"), "{e}");
    let e = error(Pos::four().mode(Mode::Open).down(&[("g2", 0, Captain)]));
    assert!(e.contains("face down"), "{e}");
    Pos::flip().down(&[("a2", 0, Captain)]).build();
}

#[test]
fn bad_flip_colours() {
    for c in [[0, 0], [1, 1], [0, 2]] {
        let e = error(Pos::flip().with(&[("a2", 0, Captain)]).colours(c));
        assert!(e.contains("flip_colours"), "{c:?}: {e}");
    }
    let e = error(Pos::two().with(&[("a2", 0, Captain)]).colours([0, 1]));
    assert!(e.contains("flip_colours"), "{e}");
    Pos::flip()
        .with(&[("a2", 0, Captain)])
        .colours([1, 0])
        .build();
}

#[test]
fn mode_and_board_must_match() {
    let e = Pos::new(BoardKind::TwoPlayer, Mode::HalfOpen)
        .try_rules()
        .unwrap_err();
    assert!(e.contains("half_open"), "{e}");
    let e = Pos::new(BoardKind::FourPlayer, Mode::Flip)
        .try_rules()
        .unwrap_err();
    assert!(e.contains("flip"), "{e}");
    // A setup built around the check is still refused by from_setup.
    let mut s = Pos::two().with(&[("a2", 0, Captain)]).setup();
    s.rules = Rules {
        board: BoardKind::TwoPlayer,
        mode: Mode::HalfOpen,
        options: Options::defaults(BoardKind::TwoPlayer, Mode::HalfOpen),
    };
    assert!(setup_error(&s).contains("half_open"));
    // The pairs that exist.
    for (board, mode) in [
        (BoardKind::TwoPlayer, Mode::Dark),
        (BoardKind::TwoPlayer, Mode::Open),
        (BoardKind::TwoPlayer, Mode::Flip),
        (BoardKind::FourPlayer, Mode::Dark),
        (BoardKind::FourPlayer, Mode::Open),
        (BoardKind::FourPlayer, Mode::HalfOpen),
    ] {
        Pos::new(board, mode).try_rules().unwrap();
    }
}

#[test]
fn eliminated_seats() {
    let e = error(Pos::four().with(&[("g2", 1, Captain)]).eliminated(&[1]));
    assert!(e.contains("seat 1 is eliminated"), "{e}");
    let e = error(Pos::four().with(&[("g2", 0, Captain)]).eliminated(&[0]));
    assert!(e.contains("eliminated"), "{e}");
    // Two-player: the board stays as it is, so an eliminated seat may keep pieces.
    Pos::two()
        .with(&[("a2", 1, Captain), ("c3", 0, Captain)])
        .eliminated(&[1])
        .build();
}

#[test]
fn carried_flags() {
    let carry = json!({"win_by_flag": "carry_home"});
    let e = error(Pos::two().carrier("a2", 0, Captain, 1, "b12"));
    assert!(e.contains("carry_home"), "{e}");
    let e = error(
        Pos::two()
            .opts(carry.clone())
            .carrier("a2", 0, Captain, 0, "b1"),
    );
    assert!(e.contains("cannot carry the flag of seat 0"), "{e}");
    let e = error(
        Pos::four()
            .opts(carry.clone())
            .carrier("g2", 0, Captain, 2, "j17"),
    );
    assert!(
        e.contains("cannot carry the flag of seat 2"),
        "partner's flag: {e}"
    );
    let e = error(
        Pos::two()
            .opts(carry.clone())
            .carrier("a2", 0, Captain, 1, "b12")
            .with(&[("d12", 1, Flag)]),
    );
    assert!(e.contains("both on the board and carried"), "{e}");
    let mut s = Pos::two()
        .opts(carry.clone())
        .carrier("a2", 0, Captain, 1, "b12")
        .setup();
    s.captured_flags.clear();
    assert!(setup_error(&s).contains("captured_flags"));
    Pos::two()
        .opts(carry)
        .carrier("a2", 0, Captain, 1, "b12")
        .build();
}

#[test]
fn a_full_starting_position_round_trips_through_setup() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for (board, mode) in [
        (BoardKind::TwoPlayer, Mode::Dark),
        (BoardKind::FourPlayer, Mode::HalfOpen),
        (BoardKind::TwoPlayer, Mode::Flip),
    ] {
        let p = Position::random_start(Rules::defaults(board, mode).unwrap(), &mut rng);
        assert_eq!(Position::from_setup(&p.to_setup()).unwrap(), p);
    }
}

// ---- §3 deployment -------------------------------------------------------------------------

/// A legal layout: rows front (0) to HQ row (5), `.` at the camps; the flag on local (5,1).
const LAYOUT: [&str; 6] = ["98776", "6.5.5", "44.33", "3.B.B", "22211", "1FLLL"];

fn layout(rows: [&str; 6]) -> Deployment {
    Deployment::from_text(&rows.join("/")).unwrap()
}

#[track_caller]
fn deployment_error(rows: [&str; 6]) -> String {
    layout(rows)
        .validate(BoardKind::TwoPlayer, 0)
        .unwrap_err()
        .to_string()
}

#[test]
fn a_legal_deployment_is_placed_in_local_coordinates() {
    let d = layout(LAYOUT);
    for board in [BoardKind::TwoPlayer, BoardKind::FourPlayer] {
        for seat in 0..board.seats() as u8 {
            d.validate(board, seat).unwrap();
        }
    }
    let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
    let p = Position::from_deployments(rules, &[d, d], 0).unwrap();
    assert_eq!(
        (at(&p, "b1"), at(&p, "d12")),
        (Some((0, Flag)), Some((1, Flag)))
    );
    assert_eq!(
        (at(&p, "a6"), at(&p, "e7")),
        (Some((0, Marshal)), Some((1, Marshal)))
    );
    assert_eq!(p.pieces().count(), 50);
    for camp in ["b3", "d3", "c4", "b5", "d5", "b8", "d8", "c9", "b10", "d10"] {
        assert_eq!(at(&p, camp), None, "camps start empty");
    }
    let rules = Rules::defaults(BoardKind::FourPlayer, Mode::Dark).unwrap();
    let p = Position::from_deployments(rules, &[d, d, d, d], 0).unwrap();
    let flags: Vec<String> = ["h1", "q8", "j17", "a10"]
        .iter()
        .map(|s| format!("{:?}", at(&p, s)))
        .collect();
    assert!(flags.iter().all(|f| f.contains("Flag")), "{flags:?}");
}

#[test]
fn deployment_errors_name_the_square_or_piece() {
    let e = deployment_error(["98776", "6.5.5", "44.33", "3.B.B", "22211", "F1LLL"]);
    assert!(
        e.contains("flag on a1") && e.contains("headquarters"),
        "{e}"
    );
    let e = deployment_error(["98776", "6.5.5", "44.33", "L.B.B", "22211", "1F3LL"]);
    assert!(e.contains("landmine on a3"), "{e}");
    let e = deployment_error(["B8776", "6.5.5", "44.33", "3.9.B", "22211", "1FLLL"]);
    assert!(e.contains("bomb on a6"), "{e}");
    let e = deployment_error(["98776", "6.5.5", "44.93", "3.B.B", "22211", "1FLLL"]);
    assert!(e.contains("marshal"), "{e}");
    let e = deployment_error(["98776", "665.5", "44.33", "3.B.B", "22211", "1FLLL"]);
    assert!(e.contains("b5 is a camp"), "{e}");
    // Nothing is placed when one seat's deployment is wrong.
    let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
    let bad = layout(["B8776", "6.5.5", "44.33", "3.9.B", "22211", "1FLLL"]);
    let e = Position::from_deployments(rules, &[layout(LAYOUT), bad], 0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("seat 1") && e.contains("bomb on e7"), "{e}");
}

#[test]
fn a_position_with_a_side_out_is_over() {
    // Read back from a finished game: seat 1 is out, seat 0 (the seat that acted) to move.
    let mut p = Pos::new(BoardKind::TwoPlayer, Mode::Dark)
        .with(&[
            ("a5", 0, Role::Engineer),
            ("b1", 0, Role::Flag),
            ("a8", 1, Role::Captain),
        ])
        .eliminated(&[1])
        .build();
    assert!(p.is_over());
    assert!(p.legal_actions().is_empty());
    let err = try_play(&mut p, "a5-a6").unwrap_err();
    assert!(err.contains("over"), "{err}");
    // Four-player: one partner out is not the end; both are.
    let four = |out: &[u8]| {
        Pos::new(BoardKind::FourPlayer, Mode::Dark)
            .with(&[("g6", 0, Role::Engineer), ("k12", 2, Role::Engineer)])
            .eliminated(out)
            .build()
    };
    assert!(!four(&[3]).is_over());
    assert!(four(&[1, 3]).is_over());
}

#[test]
fn a_bomb_never_carries_a_flag() {
    let mut s = Pos::new(BoardKind::TwoPlayer, Mode::Dark)
        .opts(serde_json::json!({"win_by_flag": "carry_home"}))
        .with(&[("a5", 0, Role::Bomb), ("c3", 0, Role::Captain)])
        .build()
        .to_setup();
    let b12 = sq(&Position::from_setup(&s).unwrap(), "b12");
    s.pieces
        .iter_mut()
        .find(|p| p.role == Role::Bomb)
        .unwrap()
        .carrying_flag_of = Some(1);
    s.captured_flags = vec![(1, b12)];
    let e = setup_error(&s);
    assert!(e.contains("bomb") && e.contains("cannot carry"), "{e}");
}
