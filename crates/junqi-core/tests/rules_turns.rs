//! RULES §7 and §7.1 (turns, elimination, the end of the game, the referee's step exactly), the
//! options `blocked`, `turn_order`, `quiet_plies`, `max_plies`, and the table actions of §10
//! (timeout, resign, leave, agreed draw).

mod common;
use common::*;
use junqi_core::Leaver;

/// Two-player: a free South captain on c3 and a free North captain on c10.
fn quiet_two() -> Pos {
    Pos::two().with(&[("c3", 0, Captain), ("c10", 1, Captain)])
}

/// Four-player: one free piece per seat, each on local (2,1): h4, n8, j14, d10. Their moves:
/// h4-g4, n8-n7, j14-k14, d10-d11.
fn quiet_four() -> Pos {
    Pos::four().with(&[
        ("h4", 0, Captain),
        ("n8", 1, Captain),
        ("j14", 2, Captain),
        ("d10", 3, Captain),
    ])
}

const FOUR_MOVES: [&str; 4] = ["h4-g4", "n8-n7", "j14-k14", "d10-d11"];

/// South captain on c3; North's only movable piece is blocked (see [`NORTH_BLOCKED`]).
fn blocked_two() -> Pos {
    Pos::two().with(&[("c3", 0, Captain)]).with(NORTH_BLOCKED)
}

/// North captain on a12 walled in by its own landmine a11 and flag b12: movable, no action.
const NORTH_BLOCKED: &[(&str, u8, Role)] =
    &[("a12", 1, Captain), ("a11", 1, Landmine), ("b12", 1, Flag)];

/// East captain on q7 walled in by its own landmine p7 and flag q8.
const EAST_BLOCKED: &[(&str, u8, Role)] =
    &[("q7", 1, Captain), ("p7", 1, Landmine), ("q8", 1, Flag)];

// ---- §7 turn order ---------------------------------------------------------------------------

#[test]
fn two_player_seats_alternate() {
    let mut p = quiet_two().build();
    assert_eq!(actions(&p), vec!["c3-b3", "c3-c2", "c3-c4", "c3-d3"]);
    play(&mut p, "c3-c2");
    assert_eq!(p.to_move(), 1);
    assert_eq!(actions(&p), vec!["c10-b10", "c10-c11", "c10-c9", "c10-d10"]);
    assert!(
        try_play(&mut p, "c2-c3").is_err(),
        "South may not move on North's turn"
    );
    play(&mut p, "c10-c11");
    assert_eq!((p.to_move(), p.plies(), p.quiet_plies()), (0, 2, 2));
    // Who moves first is part of the position.
    let mut p = quiet_two().turn(1).build();
    play(&mut p, "c10-c11");
    assert_eq!(p.to_move(), 0);
}

#[test]
fn four_player_turns_go_counter_clockwise() {
    let mut p = quiet_four().build();
    for (i, m) in FOUR_MOVES.iter().enumerate() {
        assert_eq!(p.to_move() as usize, i);
        play(&mut p, m);
    }
    assert_eq!(p.to_move(), 0);
}

#[test]
fn option_turn_order_clockwise() {
    let mut p = quiet_four()
        .opts(json!({"turn_order": "clockwise"}))
        .build();
    for seat in [0usize, 3, 2, 1] {
        assert_eq!(p.to_move() as usize, seat);
        play(&mut p, FOUR_MOVES[seat]);
    }
    assert_eq!(p.to_move(), 0);
}

#[test]
fn eliminated_seats_are_skipped() {
    let four = Pos::four()
        .with(&[("h4", 0, Captain), ("j14", 2, Captain), ("d10", 3, Captain)])
        .eliminated(&[1]);
    let mut p = four.clone().build();
    for seat in [0usize, 2, 3] {
        assert_eq!(p.to_move() as usize, seat);
        play(&mut p, FOUR_MOVES[seat]);
    }
    assert_eq!(p.to_move(), 0);
    let mut p = four.opts(json!({"turn_order": "clockwise"})).build();
    for seat in [0usize, 3, 2] {
        assert_eq!(p.to_move() as usize, seat);
        play(&mut p, FOUR_MOVES[seat]);
    }
    assert_eq!(p.to_move(), 0);
}

// ---- §7 elimination --------------------------------------------------------------------------

#[test]
fn four_player_elimination_removes_the_seats_pieces_without_flag_reveal() {
    let mut p = quiet_four()
        .with(&[
            ("p8", 0, Engineer),
            ("q8", 1, Flag),
            ("l9", 1, Marshal),
            ("q9", 1, Landmine),
        ])
        .build();
    let e = play(&mut p, "p8-q8");
    assert_eq!(
        e,
        ev(&["attack 0 p8-q8 flag_captured", "eliminated 1 flag_captured"])
    );
    assert!(p.pieces().all(|(_, x)| x.seat != 1), "{:?}", board(&p));
    assert!(p.is_eliminated(1));
    assert_eq!((outcome(&p), p.to_move()), ("none".to_string(), 2));
}

#[test]
fn two_player_elimination_leaves_the_board_as_it_is() {
    let mut p = Pos::two()
        .with(&[("a6", 0, Captain), ("a7", 1, Flag), ("c10", 1, Marshal)])
        .build();
    play(&mut p, "a6-a7");
    assert_eq!(at(&p, "c10"), Some((1, Marshal)));
    assert_eq!(outcome(&p), "win 0 flag_captured");
}

#[test]
fn no_movable_piece_left_eliminates() {
    let mut p = Pos::two()
        .with(&[
            ("a6", 0, Captain),
            ("a7", 1, Lieutenant),
            ("d12", 1, Flag),
            ("c12", 1, Landmine),
        ])
        .build();
    assert_eq!(
        play(&mut p, "a6-a7"),
        ev(&[
            "attack 0 a6-a7 attacker_wins",
            "eliminated 1 no_movable_pieces"
        ])
    );
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 0 no_movable_pieces".to_string(), 0)
    );
}

#[test]
fn everything_locked_in_hqs_counts_as_no_movable_piece() {
    let locked = Pos::two().with(&[("c3", 0, Captain), ("b12", 1, Flag), ("d12", 1, Captain)]);
    let mut p = locked.clone().build();
    assert_eq!(
        play(&mut p, "c3-c2"),
        ev(&["move 0 c3-c2", "eliminated 1 no_movable_pieces"])
    );
    assert_eq!(outcome(&p), "win 0 no_movable_pieces");
    // With hq_exit = free the captain on d12 is movable.
    let mut p = locked.opts(json!({"hq_exit": "free"})).build();
    assert_eq!(play(&mut p, "c3-c2"), ev(&["move 0 c3-c2"]));
    assert_eq!((outcome(&p), p.to_move()), ("none".to_string(), 1));
}

#[test]
fn the_moving_seat_can_eliminate_itself() {
    // Its last movable piece dies…
    let mut p = Pos::two()
        .with(&[("a6", 0, Captain), ("a7", 1, Landmine), ("c10", 1, Captain)])
        .build();
    assert_eq!(
        play(&mut p, "a6-a7"),
        ev(&[
            "attack 0 a6-a7 defender_wins",
            "eliminated 0 no_movable_pieces"
        ])
    );
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 1 no_movable_pieces".to_string(), 0)
    );
    // …or enters an HQ, where it is locked.
    let mut p = Pos::two()
        .with(&[("a12", 0, Captain), ("b1", 0, Flag), ("c10", 1, Captain)])
        .build();
    assert_eq!(
        play(&mut p, "a12-b12"),
        ev(&["move 0 a12-b12", "eliminated 0 no_movable_pieces"])
    );
    assert_eq!(outcome(&p), "win 1 no_movable_pieces");
}

#[test]
fn both_sides_eliminated_by_one_move_the_mover_wins() {
    let last = Pos::two().with(&[
        ("a6", 0, Colonel),
        ("a7", 1, Colonel),
        ("b1", 0, Flag),
        ("d12", 1, Flag),
    ]);
    let mut p = last.clone().build();
    assert_eq!(
        play(&mut p, "a6-a7"),
        ev(&[
            "attack 0 a6-a7 both_removed",
            "eliminated 0 no_movable_pieces",
            "eliminated 1 no_movable_pieces"
        ])
    );
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 0 no_movable_pieces".to_string(), 0)
    );
    let mut p = last.turn(1).build();
    play(&mut p, "a7-a6");
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 1 no_movable_pieces".to_string(), 1)
    );
    // A bomb, the mover's last movable piece, onto the flag: the flag's seat went first.
    let mut p = Pos::two()
        .with(&[("a6", 0, Bomb), ("a7", 1, Flag), ("c10", 1, Captain)])
        .build();
    assert_eq!(
        play(&mut p, "a6-a7"),
        ev(&[
            "attack 0 a6-a7 flag_captured",
            "eliminated 1 flag_captured",
            "eliminated 0 no_movable_pieces"
        ])
    );
    assert_eq!(outcome(&p), "win 0 flag_captured");
    // Four-player: East moves and both sides go out; East and West win.
    let mut p = Pos::four()
        .with(&[
            ("k6", 0, Colonel),
            ("h1", 0, Flag),
            ("l7", 1, Colonel),
            ("q8", 1, Flag),
        ])
        .eliminated(&[2, 3])
        .turn(1)
        .build();
    assert_eq!(
        play(&mut p, "l7-k6"),
        ev(&[
            "attack 1 l7-k6 both_removed",
            "eliminated 0 no_movable_pieces",
            "eliminated 1 no_movable_pieces"
        ])
    );
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 1,3 no_movable_pieces".to_string(), 1)
    );
}

// ---- option blocked and skips ----------------------------------------------------------------

#[test]
fn blocked_lose_is_the_two_player_default() {
    let mut p = blocked_two().build();
    assert_eq!(
        play(&mut p, "c3-c2"),
        ev(&["move 0 c3-c2", "eliminated 1 blocked"])
    );
    assert_eq!((outcome(&p), p.to_move()), ("win 0 blocked".to_string(), 0));
}

#[test]
fn blocked_skip_counts_skips_and_eliminates_at_five() {
    let mut p = blocked_two().opts(json!({"blocked": "skip"})).build();
    assert_eq!(
        play(&mut p, "c3-c2"),
        ev(&["move 0 c3-c2", "skipped 1 blocked"])
    );
    assert_eq!(
        (p.skips(1), p.to_move(), outcome(&p)),
        (1, 0, "none".to_string())
    );
    assert_eq!(
        play(&mut p, "c2-c3"),
        ev(&["move 0 c2-c3", "skipped 1 blocked"])
    );
    assert_eq!((p.skips(1), p.to_move(), p.plies()), (2, 0, 2));
    // At the limit of 5 the seat is eliminated (reason skips).
    let mut p = blocked_two()
        .opts(json!({"blocked": "skip"}))
        .skips(&[0, 4])
        .build();
    assert_eq!(
        play(&mut p, "c3-c2"),
        ev(&["move 0 c3-c2", "skipped 1 blocked", "eliminated 1 skips"])
    );
    assert_eq!((outcome(&p), p.skips(1)), ("win 0 skips".to_string(), 5));
}

#[test]
fn blocked_skip_is_the_four_player_default_and_lose_removes_the_seat() {
    let east_pieces = |p: &Position| p.pieces().filter(|(_, x)| x.seat == 1).count();
    let base = Pos::four()
        .with(&[("h4", 0, Captain), ("j14", 2, Captain), ("d10", 3, Captain)])
        .with(EAST_BLOCKED);
    let mut p = base.clone().build();
    assert_eq!(
        play(&mut p, "h4-g4"),
        ev(&["move 0 h4-g4", "skipped 1 blocked"])
    );
    assert_eq!((p.skips(1), p.to_move(), east_pieces(&p)), (1, 2, 3));
    let mut p = base.opts(json!({"blocked": "lose"})).build();
    assert_eq!(
        play(&mut p, "h4-g4"),
        ev(&["move 0 h4-g4", "eliminated 1 blocked"])
    );
    assert_eq!(
        (p.to_move(), east_pieces(&p), outcome(&p)),
        (2, 0, "none".to_string())
    );
}

// ---- draws -----------------------------------------------------------------------------------

#[test]
fn quiet_plies_draw_when_the_counter_reaches_the_limit() {
    let q3 = quiet_two().opts(json!({"quiet_plies": 3}));
    let mut p = q3.clone().plies(5, 1).build();
    assert_eq!(play(&mut p, "c3-c2"), ev(&["move 0 c3-c2"]));
    assert_eq!(
        (outcome(&p), p.quiet_plies(), p.to_move()),
        ("none".to_string(), 2, 1)
    );
    let mut p = q3.plies(5, 2).build();
    assert_eq!(play(&mut p, "c3-c2"), ev(&["move 0 c3-c2"]));
    assert_eq!(
        (outcome(&p), p.quiet_plies(), p.plies(), p.to_move()),
        ("draw quiet_plies".to_string(), 3, 6, 0)
    );
    assert!(p.legal_actions().is_empty());
    assert!(try_play(&mut p, "c10-c11").is_err());
}

#[test]
fn quiet_plies_defaults_70_and_140() {
    let mut p = quiet_two().plies(100, 68).build();
    play(&mut p, "c3-c2");
    assert_eq!(outcome(&p), "none");
    play(&mut p, "c10-c11");
    assert_eq!(outcome(&p), "draw quiet_plies");
    let mut p = quiet_four().plies(0, 138).build();
    play(&mut p, "h4-g4");
    assert_eq!(outcome(&p), "none");
    play(&mut p, "n8-n7");
    assert_eq!(outcome(&p), "draw quiet_plies");
}

#[test]
fn an_attack_resets_quiet_plies() {
    let mut p = Pos::two()
        .with(&[
            ("a6", 0, Captain),
            ("a7", 1, Lieutenant),
            ("c10", 1, Captain),
        ])
        .opts(json!({"quiet_plies": 3}))
        .plies(5, 2)
        .build();
    play(&mut p, "a6-a7");
    assert_eq!(
        (outcome(&p), p.quiet_plies(), p.plies()),
        ("none".to_string(), 0, 6)
    );
}

#[test]
fn max_plies_draw_and_quiet_plies_takes_precedence() {
    let mut p = quiet_two()
        .opts(json!({"max_plies": 10}))
        .plies(8, 0)
        .build();
    play(&mut p, "c3-c2");
    assert_eq!(outcome(&p), "none");
    play(&mut p, "c10-c11");
    assert_eq!(
        (outcome(&p), p.plies(), p.to_move()),
        ("draw max_plies".to_string(), 10, 1)
    );
    // Both limits reached on the same ply: quiet_plies.
    let mut p = quiet_two()
        .opts(json!({"max_plies": 10, "quiet_plies": 3}))
        .plies(9, 2)
        .build();
    play(&mut p, "c3-c2");
    assert_eq!(outcome(&p), "draw quiet_plies");
}

#[test]
fn a_win_on_the_last_ply_beats_the_draw() {
    let mut p = Pos::two()
        .with(&[("a6", 0, Captain), ("a7", 1, Flag), ("c10", 1, Captain)])
        .opts(json!({"max_plies": 10}))
        .plies(9, 0)
        .build();
    play(&mut p, "a6-a7");
    assert_eq!(outcome(&p), "win 0 flag_captured");
}

#[test]
fn draw_limits_are_checked_before_the_turn_passes() {
    // Step 4 (draw) comes before step 5 (the next seat is blocked): a draw, not a win.
    let mut p = blocked_two()
        .opts(json!({"quiet_plies": 3}))
        .plies(9, 2)
        .build();
    assert_eq!(play(&mut p, "c3-c2"), ev(&["move 0 c3-c2"]));
    assert_eq!(outcome(&p), "draw quiet_plies");
}

// ---- the end of the game ---------------------------------------------------------------------

#[test]
fn to_move_stays_with_the_seat_that_acted() {
    let mut p = Pos::two()
        .with(&[("a6", 0, Flag), ("a7", 1, Captain), ("c3", 0, Captain)])
        .turn(1)
        .build();
    assert_eq!(
        play(&mut p, "a7-a6"),
        ev(&["attack 1 a7-a6 flag_captured", "eliminated 0 flag_captured"])
    );
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 1 flag_captured".to_string(), 1)
    );
    assert!(p.legal_actions().is_empty());
}

#[test]
fn four_player_winners_are_both_partners_ascending() {
    // West (3) went out earlier; East (1) captures North's flag with South (0) already out.
    let mut p = Pos::four()
        .with(&[
            ("j16", 1, Engineer),
            ("n8", 1, Captain),
            ("j17", 2, Flag),
            ("i14", 2, Captain),
        ])
        .eliminated(&[0, 3])
        .turn(1)
        .build();
    assert_eq!(
        play(&mut p, "j16-j17"),
        ev(&[
            "attack 1 j16-j17 flag_captured",
            "eliminated 2 flag_captured"
        ])
    );
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 1,3 flag_captured".to_string(), 1)
    );
    assert_eq!(p.outcome().unwrap().winners(), vec![1, 3]);
}

#[test]
fn the_reason_of_a_win_is_that_of_the_elimination_completing_the_losing_side() {
    // North's flag is captured first (flag_captured); South's resignation completes the side.
    let mut p = quiet_four()
        .with(&[("j16", 1, Engineer), ("j17", 2, Flag)])
        .turn(1)
        .build();
    assert_eq!(
        play(&mut p, "j16-j17"),
        ev(&[
            "attack 1 j16-j17 flag_captured",
            "eliminated 2 flag_captured"
        ])
    );
    assert_eq!(p.to_move(), 3);
    play(&mut p, "d10-d11");
    assert_eq!(p.to_move(), 0);
    assert_eq!(
        table(&mut p, |p, e| p.resign(0, e)),
        ev(&["eliminated 0 resigned"])
    );
    assert_eq!(outcome(&p), "win 1,3 resigned");
    // Completed by losing the last movable piece.
    let mut p = Pos::four()
        .with(&[
            ("k6", 0, Lieutenant),
            ("h1", 0, Flag),
            ("l7", 1, General),
            ("d10", 3, Captain),
        ])
        .eliminated(&[2])
        .turn(1)
        .build();
    assert_eq!(
        play(&mut p, "l7-k6"),
        ev(&[
            "attack 1 l7-k6 attacker_wins",
            "eliminated 0 no_movable_pieces"
        ])
    );
    assert_eq!(outcome(&p), "win 1,3 no_movable_pieces");
    // Completed in step 5: blocked (lose) or the fifth skip.
    let base = Pos::four()
        .with(&[("h4", 0, Captain), ("j14", 2, Captain)])
        .with(EAST_BLOCKED)
        .eliminated(&[3]);
    let mut p = base.clone().opts(json!({"blocked": "lose"})).build();
    assert_eq!(
        play(&mut p, "h4-g4"),
        ev(&["move 0 h4-g4", "eliminated 1 blocked"])
    );
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 0,2 blocked".to_string(), 0)
    );
    let mut p = base.skips(&[0, 4, 0, 0]).build();
    assert_eq!(
        play(&mut p, "h4-g4"),
        ev(&["move 0 h4-g4", "skipped 1 blocked", "eliminated 1 skips"])
    );
    assert_eq!((outcome(&p), p.to_move()), ("win 0,2 skips".to_string(), 0));
}

// ---- §10 table actions -----------------------------------------------------------------------

#[test]
fn timeout_is_a_skip() {
    let mut p = quiet_two().plies(4, 3).build();
    assert_eq!(
        table(&mut p, |p, e| p.timeout(e)),
        ev(&["skipped 0 timeout"])
    );
    assert_eq!(
        (p.skips(0), p.to_move(), p.plies(), p.quiet_plies()),
        (1, 1, 4, 3)
    );
    let mut p = quiet_two().skips(&[4, 0]).build();
    assert_eq!(
        table(&mut p, |p, e| p.timeout(e)),
        ev(&["skipped 0 timeout", "eliminated 0 skips"])
    );
    assert_eq!((outcome(&p), p.to_move()), ("win 1 skips".to_string(), 0));
    // Four-player: the turn passes on; at the limit the seat leaves the board.
    let mut p = quiet_four().build();
    table(&mut p, |p, e| p.timeout(e));
    assert_eq!(p.to_move(), 1);
    let mut p = quiet_four().skips(&[4, 0, 0, 0]).build();
    assert_eq!(
        table(&mut p, |p, e| p.timeout(e)),
        ev(&["skipped 0 timeout", "eliminated 0 skips"])
    );
    assert_eq!(
        (p.to_move(), at(&p, "h4"), outcome(&p)),
        (1, None, "none".to_string())
    );
}

#[test]
fn timeouts_and_blocked_turns_count_together() {
    let mut p = blocked_two()
        .opts(json!({"blocked": "skip"}))
        .skips(&[0, 3])
        .turn(1)
        .build();
    assert_eq!(
        table(&mut p, |p, e| p.timeout(e)),
        ev(&["skipped 1 timeout"])
    );
    assert_eq!((p.skips(1), p.to_move()), (4, 0));
    assert_eq!(
        play(&mut p, "c3-c2"),
        ev(&["move 0 c3-c2", "skipped 1 blocked", "eliminated 1 skips"])
    );
    assert_eq!(outcome(&p), "win 0 skips");
}

#[test]
fn resignation() {
    // Two-player, by the seat not to move and by the seat to move.
    let mut p = quiet_two().build();
    assert_eq!(
        table(&mut p, |p, e| p.resign(1, e)),
        ev(&["eliminated 1 resigned"])
    );
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 0 resigned".to_string(), 0)
    );
    assert!(p.resign(0, &mut Vec::new()).is_err(), "the game is over");
    let mut p = quiet_two().build();
    table(&mut p, |p, e| p.resign(0, e));
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 1 resigned".to_string(), 0)
    );
    // Four-player: the seat leaves the board, the game goes on, its turn passes.
    let mut p = quiet_four().turn(1).build();
    assert_eq!(
        table(&mut p, |p, e| p.resign(1, e)),
        ev(&["eliminated 1 resigned"])
    );
    assert_eq!(
        (outcome(&p), p.to_move(), at(&p, "n8")),
        ("none".to_string(), 2, None)
    );
    assert_eq!(
        table(&mut p, |p, e| p.resign(3, e)),
        ev(&["eliminated 3 resigned"])
    );
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 0,2 resigned".to_string(), 2)
    );
    // Seats that do not exist or are out cannot resign.
    let mut p = quiet_two().build();
    assert!(p.resign(2, &mut Vec::new()).is_err());
    let mut p = Pos::four()
        .with(&[("h4", 0, Captain), ("j14", 2, Captain), ("d10", 3, Captain)])
        .eliminated(&[1])
        .build();
    assert!(p.resign(1, &mut Vec::new()).is_err());
}

#[test]
fn leaving() {
    let mut p = quiet_two().build();
    assert_eq!(
        table(&mut p, |p, e| p.leave(0, Leaver::Abort, e)),
        ev(&["eliminated 0 left"])
    );
    assert_eq!(outcome(&p), "win 1 left");
    // Four-player, partner still in: aborted, nothing else changes.
    let mut p = quiet_four().build();
    let before = board(&p);
    assert_eq!(table(&mut p, |p, e| p.leave(1, Leaver::Abort, e)), ev(&[]));
    assert_eq!((outcome(&p), board(&p)), ("aborted".to_string(), before));
    // Four-player, partner already out: the other side wins.
    let mut p = Pos::four()
        .with(&[("h4", 0, Captain), ("n8", 1, Captain), ("j14", 2, Captain)])
        .eliminated(&[3])
        .build();
    assert_eq!(
        table(&mut p, |p, e| p.leave(1, Leaver::Abort, e)),
        ev(&["eliminated 1 left"])
    );
    assert_eq!(outcome(&p), "win 0,2 left");
}

#[test]
fn draw_by_agreement() {
    let mut p = quiet_two().build();
    p.agree_draw().unwrap();
    assert_eq!(outcome(&p), "draw agreement");
    assert!(p.legal_actions().is_empty());
    assert!(try_play(&mut p, "c3-c2").is_err());
    assert!(p.timeout(&mut Vec::new()).is_err());
    assert!(p.agree_draw().is_err());
}

#[test]
fn max_plies_defaults_to_2000() {
    let mut p = quiet_two().plies(1998, 0).build();
    play(&mut p, "c3-c2");
    assert_eq!(outcome(&p), "none");
    play(&mut p, "c10-c11");
    assert_eq!(
        (outcome(&p), p.plies()),
        ("draw max_plies".to_string(), 2000)
    );
}

#[test]
fn four_player_turn_passes_over_a_seat_eliminated_by_the_move() {
    // South takes East's last movable piece; East (with its marshal locked in an HQ) leaves the
    // board without a flag reveal, and North moves next.
    let mut p = Pos::four()
        .with(&[("h4", 0, Captain), ("j14", 2, Captain), ("d10", 3, Captain)])
        .with(&[
            ("k6", 0, General),
            ("l7", 1, Lieutenant),
            ("q10", 1, Marshal),
            ("q8", 1, Flag),
        ])
        .build();
    assert_eq!(
        play(&mut p, "k6-l7"),
        ev(&[
            "attack 0 k6-l7 attacker_wins",
            "eliminated 1 no_movable_pieces"
        ])
    );
    assert!(p.pieces().all(|(_, x)| x.seat != 1));
    assert_eq!((p.to_move(), outcome(&p)), (2, "none".to_string()));
}

#[test]
fn four_player_a_mover_that_eliminates_itself_passes_the_turn() {
    // West's last movable piece dies on South's landmine; South (next) moves on.
    let mut p = Pos::four()
        .with(&[
            ("h4", 0, Captain),
            ("g6", 0, Landmine),
            ("n8", 1, Captain),
            ("j14", 2, Captain),
        ])
        .with(&[("f7", 3, Captain), ("a10", 3, Flag)])
        .turn(3)
        .build();
    assert_eq!(
        play(&mut p, "f7-g6"),
        ev(&[
            "attack 3 f7-g6 defender_wins",
            "eliminated 3 no_movable_pieces"
        ])
    );
    assert!(p.pieces().all(|(_, x)| x.seat != 3));
    assert_eq!((p.to_move(), outcome(&p)), (0, "none".to_string()));
}

#[test]
fn counters_at_their_limit_do_not_overflow() {
    let mut p = junqi_core::text::position_from_text(
        "two_player dark 0 plies=4294967295 quiet=4294967295 quiet_plies=4294967295 max_plies=4294967295 b1=0F a6=09 a5=06 c12=1L d12=1F a10=15",
    )
    .unwrap();
    play(&mut p, "a5-a4");
    assert_eq!((p.plies(), p.quiet_plies()), (u32::MAX, u32::MAX));
    assert!(p.is_over(), "both limits reached");
}

// ---- QQ (RULES §7.1 step 3 `blocked = out_at_once`, §10 the leaver's partner, §10.1) ---------

#[test]
fn out_at_once_puts_a_blocked_seat_out_before_its_turn() {
    // West moves; East (blocked) is not next. Under skip nothing happens until East's turn;
    // under out_at_once East goes out in West's step, before South moves.
    let base = Pos::four()
        .with(&[("h4", 0, Captain), ("j14", 2, Captain), ("d10", 3, Captain)])
        .with(EAST_BLOCKED)
        .turn(3);
    let mut p = base.clone().build();
    assert_eq!(play(&mut p, "d10-d11"), ev(&["move 3 d10-d11"]));
    assert_eq!((p.to_move(), p.is_eliminated(1)), (0, false));
    let mut p = base.opts(json!({"blocked": "out_at_once"})).build();
    assert_eq!(
        play(&mut p, "d10-d11"),
        ev(&["move 3 d10-d11", "eliminated 1 blocked"])
    );
    assert_eq!(
        (p.to_move(), at(&p, "q7"), outcome(&p)),
        (0, None, "none".to_string())
    );
    // Its turn passes over it: South, then North.
    play(&mut p, "h4-g4");
    assert_eq!(p.to_move(), 2);
}

#[test]
fn out_at_once_spares_the_seat_that_acted_until_another_acts() {
    // East's free lieutenant dies attacking South's general; East's captain on q7 is walled
    // in. East acted, so its own step does not put it out; North's step does, at once (under
    // lose it would wait for East's turn).
    let base = Pos::four()
        .with(&[
            ("h4", 0, Captain),
            ("n7", 0, General),
            ("n8", 1, Lieutenant),
            ("j14", 2, Captain),
            ("d10", 3, Captain),
        ])
        .with(EAST_BLOCKED)
        .turn(1);
    let mut p = base.clone().opts(json!({"blocked": "out_at_once"})).build();
    assert_eq!(play(&mut p, "n8-n7"), ev(&["attack 1 n8-n7 defender_wins"]));
    assert_eq!((p.to_move(), p.is_eliminated(1)), (2, false));
    assert_eq!(
        play(&mut p, "j14-k14"),
        ev(&["move 2 j14-k14", "eliminated 1 blocked"])
    );
    assert_eq!(p.to_move(), 3);
    let mut p = base.clone().opts(json!({"blocked": "lose"})).build();
    play(&mut p, "n8-n7");
    assert_eq!(play(&mut p, "j14-k14"), ev(&["move 2 j14-k14"]));
    // If nobody acts before its turn comes round (three timeouts), it goes out then, as under
    // lose.
    let mut p = base.opts(json!({"blocked": "out_at_once"})).build();
    play(&mut p, "n8-n7");
    table(&mut p, |p, e| p.timeout(e));
    table(&mut p, |p, e| p.timeout(e));
    assert_eq!(
        table(&mut p, |p, e| p.timeout(e)),
        ev(&["skipped 0 timeout", "eliminated 1 blocked"])
    );
    assert_eq!(p.to_move(), 2);
}

#[test]
fn out_at_once_goes_in_turn_order_from_the_seat_after_the_mover() {
    // Four seats, no teams. North moves; West is walled in (captain a7 between its landmine
    // b7 and its flag a8) and South has nothing movable. Under out_at_once both go out in
    // North's step in turn order after North: West, then South. Under skip and lose South goes
    // out first (step 3 takes seats with nothing movable in seat order) and West at step 5.
    let base = Pos::four()
        .with(&[
            ("h1", 0, Flag),
            ("g1", 0, Landmine),
            ("n8", 1, Captain),
            ("j14", 2, Captain),
            ("a7", 3, Captain),
            ("b7", 3, Landmine),
            ("a8", 3, Flag),
        ])
        .turn(2);
    let rules = |extra: serde_json::Value| {
        let mut o = json!({"teams": "none"});
        o.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        o
    };
    let mut p = base
        .clone()
        .opts(rules(json!({"blocked": "out_at_once"})))
        .build();
    assert_eq!(
        play(&mut p, "j14-k14"),
        ev(&[
            "move 2 j14-k14",
            "eliminated 3 blocked",
            "eliminated 0 no_movable_pieces"
        ])
    );
    assert_eq!((p.to_move(), outcome(&p)), (1, "none".to_string()));
    let mut p = base.clone().opts(rules(json!({"blocked": "lose"}))).build();
    assert_eq!(
        play(&mut p, "j14-k14"),
        ev(&[
            "move 2 j14-k14",
            "eliminated 0 no_movable_pieces",
            "eliminated 3 blocked"
        ])
    );
    // Clockwise the pass after North is East, South, West: South first.
    let mut p = base
        .opts(rules(
            json!({"blocked": "out_at_once", "turn_order": "clockwise"}),
        ))
        .build();
    assert_eq!(
        play(&mut p, "j14-k14"),
        ev(&[
            "move 2 j14-k14",
            "eliminated 0 no_movable_pieces",
            "eliminated 3 blocked"
        ])
    );
}

#[test]
fn out_at_once_checks_each_seat_again_after_an_earlier_removal() {
    // South's captain on i9 is walled in by North's landmines (i7, i11, k9) and North's
    // captain on g9; North's captain on g9 by South's landmines (g7, g11, f9) and South's
    // captain. Partners do not attack each other, so both are blocked. West moves: South,
    // first in the pass, goes out and its pieces leave the board, which frees North's captain,
    // so North stays in.
    let mut p = Pos::four()
        .opts(json!({"blocked": "out_at_once"}))
        .with(&[
            ("i9", 0, Captain),
            ("g7", 0, Landmine),
            ("g11", 0, Landmine),
            ("f9", 0, Landmine),
            ("h1", 0, Flag),
            ("g9", 2, Captain),
            ("i7", 2, Landmine),
            ("i11", 2, Landmine),
            ("k9", 2, Landmine),
            ("h17", 2, Flag),
            ("n8", 1, Captain),
            ("d10", 3, Captain),
        ])
        .turn(3)
        .build();
    assert!(!p.has_legal_action(0) && !p.has_legal_action(2));
    assert_eq!(
        play(&mut p, "d10-d11"),
        ev(&["move 3 d10-d11", "eliminated 0 blocked"])
    );
    assert_eq!(
        (p.is_eliminated(2), outcome(&p)),
        (false, "none".to_string())
    );
    assert!(p.has_legal_action(2));
    assert_eq!(p.to_move(), 1);
}

#[test]
fn out_at_once_on_two_players_wins_before_the_draw_limit() {
    // Under lose the draw limit (step 4) comes before the blocked seat's turn (step 5); under
    // out_at_once the blocked seat is out at step 3, so the game is won.
    let mut p = blocked_two()
        .opts(json!({"blocked": "out_at_once", "quiet_plies": 3}))
        .plies(9, 2)
        .build();
    assert_eq!(
        play(&mut p, "c3-c2"),
        ev(&["move 0 c3-c2", "eliminated 1 blocked"])
    );
    assert_eq!(outcome(&p), "win 0 blocked");
}

#[test]
fn a_leaver_s_partner_plays_on_under_the_qq_table_rule() {
    // Four-player, partner still in: under partner_plays_on the leaver goes out as after a
    // resignation (reason left), its pieces leave, its turn passes, and the game goes on.
    let mut p = quiet_four().turn(1).build();
    assert_eq!(
        table(&mut p, |p, e| p.leave(1, Leaver::PartnerPlaysOn, e)),
        ev(&["eliminated 1 left"])
    );
    assert_eq!(
        (outcome(&p), p.to_move(), at(&p, "n8")),
        ("none".to_string(), 2, None)
    );
    // Then the partner leaving ends it: the other side wins (as under abort).
    assert_eq!(
        table(&mut p, |p, e| p.leave(3, Leaver::PartnerPlaysOn, e)),
        ev(&["eliminated 3 left"])
    );
    assert_eq!(outcome(&p), "win 0,2 left");
    // Two players: leaving loses, whatever the table rule.
    let mut p = quiet_two().build();
    table(&mut p, |p, e| p.leave(1, Leaver::PartnerPlaysOn, e));
    assert_eq!(outcome(&p), "win 0 left");
}

#[test]
fn the_qq_preset_draws_four_players_at_71_quiet_plies() {
    let mut p = quiet_four()
        .opts(json!({"preset": "qq"}))
        .plies(0, 69)
        .build();
    assert_eq!(p.rules().options.quiet_plies, 71);
    play(&mut p, "h4-g4");
    assert_eq!(outcome(&p), "none");
    play(&mut p, "n8-n7");
    assert_eq!(outcome(&p), "draw quiet_plies");
    // An option given with the preset changes it, whatever the order of the fields.
    let p = quiet_four()
        .opts(json!({"quiet_plies": 90, "preset": "qq"}))
        .build();
    let o = p.rules().options;
    assert_eq!((o.quiet_plies, o.blocked.name()), (90, "out_at_once"));
    // A preset that the board does not have is refused, saying which it has.
    let e = Pos::three()
        .opts(json!({"preset": "qq"}))
        .try_rules()
        .unwrap_err();
    assert!(e.contains("three_player") && e.contains("standard"), "{e}");
}
