//! The three- and six-player boards (RULES §2.4, §2.5) and teams (§7.2) with hand-built
//! positions: every new kind of rail line, moves between teammates, the end of the game with
//! two and three teams, placings, leaving (§10), turn order, and the per-board defaults (§9).

mod common;
use common::*;
use junqi_core::{Leaver, Observer, Rules, Teams};
use serde_json::json;

/// One free piece per six-player seat on local (2,1) (`kb4`), so that nobody is out at once.
fn six_quiet(extra: &[(&str, u8, Role)]) -> Pos {
    let mut p = Pos::six();
    for k in 0..6u8 {
        let sq: &'static str = Box::leak(format!("{k}b4").into_boxed_str());
        p = p.with(&[(sq, k, Captain)]);
    }
    p.with(extra)
}

/// One free piece per three-player seat on local (2,1): h4, n8, j14.
fn three_quiet(extra: &[(&str, u8, Role)]) -> Pos {
    Pos::three()
        .with(&[("h4", 0, Captain), ("n8", 1, Captain), ("j14", 2, Captain)])
        .with(extra)
}

// ---- §2.5 six-player lines ---------------------------------------------------------------------

#[test]
fn six_player_arc_and_long_lines_are_one_slide() {
    // From 0e3 a non-engineer slides up file e of arm 0, then either along the arc into arm 1's
    // file a, or along the long line through t0, n1, n2, t2 into arm 3's file a (§4.2).
    let p = six_quiet(&[("0e3", 0, Colonel)]).build();
    assert_dests(
        &p,
        "0e3",
        &[
            "0d3", "0e2", "0e4", "0e5", "0e6", "1a6", "1a5", "1a4", "1a3", "1a2", "t0", "n1", "n2",
            "t2", "3a6", "3a5", "3a4", "3a3", "3a2",
        ],
    );
}

#[test]
fn six_player_middle_line_crosses_the_star() {
    // kc6, nk, x, n(k+3), (k+3)c6; the front row; and steps to the camps beside.
    let p = six_quiet(&[("1c6", 1, Colonel)]).turn(1).build();
    assert_dests(
        &p,
        "1c6",
        &[
            "1a6", "1b6", "1d6", "1e6", "1b5", "1c5", "1d5", "n1", "x", "n4", "4c6",
        ],
    );
}

#[test]
fn six_player_lines_do_not_turn_at_the_star() {
    // On x a colonel slides along the three middle lines only; a step reaches every nk.
    let p = six_quiet(&[("x", 0, Colonel)]).build();
    assert_dests(
        &p,
        "x",
        &[
            "n0", "n1", "n2", "n3", "n4", "n5", "0c6", "1c6", "2c6", "3c6", "4c6", "5c6",
        ],
    );
    // An engineer turns anywhere on the railway: from x it reaches every t and every front row.
    let p = six_quiet(&[("x", 0, Engineer)]).build();
    let d = dests(&p, "x");
    for k in 0..6 {
        for s in [
            format!("t{k}"),
            format!("{k}a6"),
            format!("{k}e2"),
            format!("{k}c2"),
        ] {
            assert!(d.contains(&s), "engineer on x reaches {s}");
        }
    }
}

#[test]
fn six_player_slides_stop_at_the_first_piece() {
    // A piece of seat 1 on n2 blocks the long line from 0e3; an enemy there is attacked.
    let p = six_quiet(&[("0e3", 0, Colonel), ("n2", 1, Captain)]).build();
    let d = dests(&p, "0e3");
    assert!(d.contains(&"n2".to_string()) && !d.contains(&"t2".to_string()));
    // A teammate there (seat 2, teams alternate) blocks and is not attacked.
    let p = six_quiet(&[("0e3", 0, Colonel), ("n2", 2, Captain)]).build();
    let d = dests(&p, "0e3");
    assert!(d.contains(&"n1".to_string()) && !d.contains(&"n2".to_string()));
}

// ---- §2.4 three-player lines -------------------------------------------------------------------

#[test]
fn three_player_lines_are_cut_short_at_the_missing_arm() {
    // Rank 7 begins at g7: from l7 a colonel slides to g7 and no further.
    let p = three_quiet(&[("m7", 1, Colonel)]).turn(1).build();
    let d = dests(&p, "m7");
    assert!(d.contains(&"g7".to_string()));
    assert!(p.topology().parse_square("f7").is_none());
    // File g from g14 runs down to g2: the arc into West is gone, g12 has no f11.
    let p = three_quiet(&[("g14", 2, Colonel)]).turn(2).build();
    assert_dests(
        &p,
        "g14",
        &[
            "g15", "g16", "g13", "g12", "g11", "g9", "g7", "g6", "g5", "g4", "g3", "g2", "h14",
            // and the camps h13, h15 by their diagonals
            "h13", "h15",
        ],
    );
    // The short line through i9 begins at g9.
    let p = three_quiet(&[("l9", 1, Colonel)]).turn(1).build();
    let d = dests(&p, "l9");
    for s in ["k9", "i9", "g9"] {
        assert!(d.contains(&s.to_string()), "{s}");
    }
    // East's arc line into South stays one line: p7 … l7, k6 … k2.
    let p = three_quiet(&[("o7", 1, Colonel)]).turn(1).build();
    let d = dests(&p, "o7");
    for s in ["l7", "k6", "k2", "k7", "g7"] {
        assert!(d.contains(&s.to_string()), "{s}");
    }
}

// ---- §7.2 teams ---------------------------------------------------------------------------------

#[test]
fn teammates_are_never_attacked() {
    // Six-player alternate: 0, 2, 4 against 1, 3, 5. Seat 0's colonel on 0c6 next to n0.
    let p = six_quiet(&[("0c6", 0, Colonel), ("n0", 2, Captain)]).build();
    assert!(!is_legal(&p, "0c6-n0"), "seat 2 is seat 0's teammate");
    let p = six_quiet(&[("0c6", 0, Colonel), ("n0", 3, Captain)]).build();
    assert!(is_legal(&p, "0c6-n0"), "seat 3 is an enemy");
    // Opposite: 0 with 3.
    let opp = json!({"teams": "opposite"});
    let p = six_quiet(&[("0c6", 0, Colonel), ("n0", 3, Captain)])
        .opts(opp.clone())
        .build();
    assert!(
        !is_legal(&p, "0c6-n0"),
        "opposite: seat 3 is seat 0's teammate"
    );
    let p = six_quiet(&[("0c6", 0, Colonel), ("n0", 2, Captain)])
        .opts(opp)
        .build();
    assert!(is_legal(&p, "0c6-n0"));
    // Four-player with teams none: the seat opposite is an enemy.
    let p = Pos::four()
        .opts(json!({"teams": "none"}))
        .with(&[
            ("g6", 0, Colonel),
            ("g7", 2, Captain),
            ("n8", 1, Captain),
            ("d10", 3, Captain),
        ])
        .build();
    assert!(is_legal(&p, "g6-g7"));
}

#[test]
fn six_player_team_wins_when_the_other_team_is_out() {
    // Seats 3 and 5 are out; seat 1's flag is taken: 1, 3, 5 are all out, and the winners are
    // the whole of 0, 2, 4 — seat 2 included, though it went out earlier.
    let mut p = Pos::six()
        .with(&[
            ("0b4", 0, Captain),
            ("4b4", 4, Captain),
            ("1b4", 1, Captain),
            ("1b1", 1, Flag),
            ("1b2", 0, Colonel),
        ])
        .eliminated(&[2, 3, 5])
        .build();
    assert_eq!(
        play(&mut p, "1b2-1b1"),
        [
            "attack 0 1b2-1b1 flag_captured",
            "eliminated 1 flag_captured"
        ]
    );
    assert_eq!(outcome(&p), "win 0,2,4 flag_captured");
}

#[test]
fn with_three_teams_the_game_goes_on_until_one_is_left() {
    // Six-player opposite: {0,3} {1,4} {2,5}. Seats 4 and 5 are out; taking seat 1's flag puts
    // team {1,4} out, but {0,3} and {2,5} are both still in.
    let mut p = Pos::six()
        .opts(json!({"teams": "opposite"}))
        .with(&[
            ("0b4", 0, Captain),
            ("3b4", 3, Captain),
            ("2b4", 2, Captain),
            ("1b4", 1, Captain),
            ("1b1", 1, Flag),
            ("1b2", 0, Colonel),
            ("2b1", 2, Flag),
            ("2b2", 3, Colonel),
        ])
        .eliminated(&[4, 5])
        .build();
    assert_eq!(
        play(&mut p, "1b2-1b1"),
        [
            "attack 0 1b2-1b1 flag_captured",
            "eliminated 1 flag_captured"
        ]
    );
    assert_eq!(outcome(&p), "none");
    // The eliminated seat's pieces left the board.
    assert_eq!(at(&p, "1b4"), None);
    // Seat 2 moves, then seat 3 takes seat 2's flag: team {2,5} out, {0,3} wins.
    assert_eq!(p.to_move(), 2);
    play(&mut p, "2b4-2a4");
    assert_eq!(
        play(&mut p, "2b2-2b1"),
        [
            "attack 3 2b2-2b1 flag_captured",
            "eliminated 2 flag_captured"
        ]
    );
    assert_eq!(outcome(&p), "win 0,3 flag_captured");
}

#[test]
fn three_player_is_every_seat_for_itself() {
    // East takes South's flag: South is out, North and East play on; then North's flag.
    let mut p = three_quiet(&[
        ("h1", 0, Flag),
        ("h2", 1, Colonel),
        ("j17", 2, Flag),
        ("j16", 1, Major),
    ])
    .turn(1)
    .build();
    assert_eq!(
        play(&mut p, "h2-h1"),
        ["attack 1 h2-h1 flag_captured", "eliminated 0 flag_captured"]
    );
    assert_eq!(outcome(&p), "none");
    assert_eq!(p.to_move(), 2);
    play(&mut p, "j14-k14");
    assert_eq!(
        play(&mut p, "j16-j17"),
        [
            "attack 1 j16-j17 flag_captured",
            "eliminated 2 flag_captured"
        ]
    );
    assert_eq!(outcome(&p), "win 1 flag_captured");
}

#[test]
fn a_win_gives_the_reason_of_the_last_team_out() {
    // Three-player, East to move. South has only a flag and a landmine left (a hand-built
    // position: nothing has eliminated it yet). East takes North's flag: North goes out at
    // step 1 (flag_captured), South at step 3 (no_movable_pieces). The last team out is South,
    // so that is the reason of East's win (§7.1).
    let mut p = Pos::three()
        .with(&[
            ("h1", 0, Flag),
            ("g1", 0, Landmine),
            ("n8", 1, Captain),
            ("j17", 2, Flag),
            ("j16", 1, Colonel),
            ("j14", 2, Captain),
        ])
        .turn(1)
        .build();
    assert_eq!(
        play(&mut p, "j16-j17"),
        [
            "attack 1 j16-j17 flag_captured",
            "eliminated 2 flag_captured",
            "eliminated 0 no_movable_pieces"
        ]
    );
    assert_eq!(outcome(&p), "win 1 no_movable_pieces");
}

#[test]
fn six_player_turns_go_round_counter_clockwise_and_skip_the_eliminated() {
    let mut p = six_quiet(&[]).build();
    for seat in 0..6u8 {
        assert_eq!(p.to_move(), seat);
        play(&mut p, &format!("{seat}b4-{seat}a4"));
    }
    assert_eq!(p.to_move(), 0);
    // Clockwise: 0, 5, 4, …; an eliminated seat is passed over.
    let mut p = Pos::six()
        .opts(json!({"turn_order": "clockwise"}))
        .with(&[
            ("0b4", 0, Captain),
            ("2b4", 2, Captain),
            ("3b4", 3, Captain),
            ("4b4", 4, Captain),
            ("1b4", 1, Captain),
        ])
        .eliminated(&[5])
        .build();
    play(&mut p, "0b4-0a4");
    assert_eq!(p.to_move(), 4);
    // Three-player: North passes to South.
    let mut p = three_quiet(&[]).turn(2).build();
    play(&mut p, "j14-k14");
    assert_eq!(p.to_move(), 0);
}

// ---- §10 leaving --------------------------------------------------------------------------------

#[test]
fn leaving_on_three_and_six_eliminates_the_seat_and_play_goes_on() {
    let mut p = three_quiet(&[]).build();
    assert_eq!(
        table(&mut p, |p, ev| p.leave(0, Leaver::Abort, ev)),
        ["eliminated 0 left"]
    );
    assert_eq!((outcome(&p), p.to_move()), ("none".to_string(), 1));
    assert_eq!(at(&p, "h4"), None, "its pieces leave the board");
    // Six-player with teams: not aborted, though teammates are still in.
    let mut p = six_quiet(&[]).build();
    assert_eq!(
        table(&mut p, |p, ev| p.leave(2, Leaver::Abort, ev)),
        ["eliminated 2 left"]
    );
    assert_eq!(outcome(&p), "none");
    // Four-player with teams none: eliminated too; with teams, aborted.
    let four = |teams: &str| {
        Pos::four()
            .opts(json!({ "teams": teams }))
            .with(&[
                ("h4", 0, Captain),
                ("n8", 1, Captain),
                ("j14", 2, Captain),
                ("d10", 3, Captain),
            ])
            .build()
    };
    let mut p = four("none");
    assert_eq!(
        table(&mut p, |p, ev| p.leave(1, Leaver::Abort, ev)),
        ["eliminated 1 left"]
    );
    assert_eq!(outcome(&p), "none");
    let mut p = four("alternate");
    table(&mut p, |p, ev| p.leave(1, Leaver::Abort, ev));
    assert_eq!(outcome(&p), "aborted");
    // The last two seats of a free-for-all: the one left wins.
    let mut p = Pos::three()
        .with(&[("h4", 0, Captain), ("n8", 1, Captain)])
        .eliminated(&[2])
        .build();
    table(&mut p, |p, ev| p.resign(0, ev));
    assert_eq!(outcome(&p), "win 1 resigned");
}

// ---- §8.2 half-open with teams -----------------------------------------------------------------

#[test]
fn six_player_half_open_teammates_see_each_other() {
    let p = six_quiet(&[("0c6", 0, Bomb), ("2c6", 2, Bomb), ("1c6", 1, Bomb)])
        .mode(Mode::HalfOpen)
        .build();
    let obs = p.observe(Observer::Seat(4));
    let role_at = |name: &str| {
        obs.pieces
            .iter()
            .find(|x| x.at == sq(&p, name))
            .and_then(|x| x.role)
    };
    assert_eq!(role_at("0c6"), Some(Bomb), "seat 0 is seat 4's teammate");
    assert_eq!(role_at("2c6"), Some(Bomb));
    assert_eq!(role_at("1c6"), None, "seat 1 is an enemy");
    // With teams opposite, seat 4's teammate is seat 1.
    let p = six_quiet(&[("0c6", 0, Bomb), ("1c6", 1, Bomb)])
        .mode(Mode::HalfOpen)
        .opts(json!({"teams": "opposite"}))
        .build();
    let obs = p.observe(Observer::Seat(4));
    let seen = sorted(
        obs.pieces
            .iter()
            .filter(|x| x.role.is_some() && x.seat != Some(4))
            .map(|x| name(&p, x.at)),
    );
    assert_eq!(seen, ["1b4", "1c6"]);
}

// ---- §9 defaults and refusals --------------------------------------------------------------------

#[test]
fn defaults_per_board() {
    let three = Rules::defaults(BoardKind::ThreePlayer, Mode::Dark).unwrap();
    let six = Rules::defaults(BoardKind::SixPlayer, Mode::Dark).unwrap();
    assert_eq!(three.options.quiet_plies, 105);
    assert_eq!(six.options.quiet_plies, 210);
    for r in [three, six] {
        assert_eq!(r.options.blocked, junqi_core::options::Blocked::Skip);
    }
    assert_eq!(three.options.teams, Teams::None);
    assert_eq!(six.options.teams, Teams::Alternate);
    assert_eq!(six.teams().count(), 2);
    assert_eq!(three.teams().count(), 3);
    // A three-player game with teams, half-open without teams, and half-open on three seats
    // are refused, with a message that says why.
    let e = Pos::three()
        .opts(json!({"teams": "alternate"}))
        .try_rules()
        .unwrap_err();
    assert!(e.contains("teams must be none"), "{e}");
    let e = Pos::six()
        .mode(Mode::HalfOpen)
        .opts(json!({"teams": "none"}))
        .try_rules()
        .unwrap_err();
    assert!(e.contains("half_open needs teams"), "{e}");
    assert!(Pos::three().mode(Mode::HalfOpen).try_rules().is_err());
    assert!(Pos::six().mode(Mode::Flip).try_rules().is_err());
    let e = Pos::six()
        .opts(json!({"teams": "pairs"}))
        .try_rules()
        .unwrap_err();
    assert!(e.contains("alternate, opposite, none"), "{e}");
    // The option is accepted and ignored on two seats.
    let two = Pos::two().opts(json!({"teams": "alternate"})).rules();
    assert_eq!(two.teams().count(), 2);
}

#[test]
fn six_player_blocked_seat_is_skipped_by_default() {
    // Seat 1's only movable piece is walled in by its own landmine and flag: skipped.
    let mut p = Pos::six()
        .with(&[
            ("0b4", 0, Captain),
            ("1a1", 1, Captain),
            ("1a2", 1, Landmine),
            ("1b1", 1, Flag),
            ("2b4", 2, Captain),
            ("3b4", 3, Captain),
            ("4b4", 4, Captain),
            ("5b4", 5, Captain),
        ])
        .build();
    assert_eq!(
        play(&mut p, "0b4-0a4"),
        ["move 0 0b4-0a4", "skipped 1 blocked"]
    );
    assert_eq!((p.to_move(), p.skips(1)), (2, 1));
}
