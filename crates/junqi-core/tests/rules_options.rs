//! RULES §9 rule options not covered by the other files: `bomb_flies`, `rail_turns`, `hq_exit`,
//! `win_by_flag = carry_home` (§9.1 in full), `losing_attacks` and `flag_guarded_by_mines` in
//! dark play, and options that do not apply. (`middle_crossing` is in rules_movement,
//! `landmine`, `reveal_flag_on_marshal_loss` and `engineer_scout` in rules_combat, `blocked`,
//! `turn_order`, `quiet_plies` and `max_plies` in rules_turns, `flip_colour` in rules_flip.)

mod common;
use common::*;
use junqi_core::position::Carry;

// ---- bomb_flies, rail_turns ------------------------------------------------------------------

/// `role` on a2, file a blocked by an own piece on a3, a North piece on e4.
fn corner(role: Role, options: serde_json::Value) -> Position {
    Pos::two()
        .with(&[
            ("a2", 0, role),
            ("a3", 0, Lieutenant),
            ("e4", 1, Lieutenant),
            ("c10", 1, Captain),
        ])
        .opts(options)
        .build()
}

const STRAIGHT: &[&str] = &["a1", "b2", "b3", "c2", "d2", "e2"];
const TURNING: &[&str] = &["a1", "b2", "b3", "c2", "d2", "e2", "e3", "e4"];

#[test]
fn option_bomb_flies() {
    assert_dests(&corner(Bomb, json!({})), "a2", STRAIGHT);
    assert_dests(&corner(Bomb, json!({"bomb_flies": true})), "a2", TURNING);
    // Only bombs fly.
    assert_dests(
        &corner(Captain, json!({"bomb_flies": true})),
        "a2",
        STRAIGHT,
    );
    let mut p = corner(Bomb, json!({"bomb_flies": true}));
    assert_eq!(play(&mut p, "a2-e4"), ev(&["attack 0 a2-e4 both_removed"]));
}

#[test]
fn option_rail_turns_any() {
    assert_dests(&corner(Captain, json!({})), "a2", STRAIGHT);
    assert_dests(
        &corner(Captain, json!({"rail_turns": "any"})),
        "a2",
        TURNING,
    );
    assert_dests(&corner(Bomb, json!({"rail_turns": "any"})), "a2", TURNING);
    // Still through empty squares only, onto the first enemy met.
    let p = Pos::two()
        .with(&[
            ("a2", 0, Captain),
            ("a3", 0, Lieutenant),
            ("d2", 1, Lieutenant),
            ("c10", 1, Captain),
        ])
        .opts(json!({"rail_turns": "any"}))
        .build();
    assert_dests(&p, "a2", &["a1", "b2", "b3", "c2", "d2"]);
}

// ---- hq_exit ---------------------------------------------------------------------------------

#[test]
fn option_hq_exit_free() {
    let hq = |options| {
        Pos::two()
            .with(&[("b1", 0, Captain), ("c10", 1, Captain)])
            .opts(options)
            .build()
    };
    assert_dests(&hq(json!({})), "b1", &[]);
    assert_dests(&hq(json!({"hq_exit": "locked"})), "b1", &[]);
    let mut p = hq(json!({"hq_exit": "free"}));
    assert_dests(&p, "b1", &["a1", "b2", "c1"]);
    assert_eq!(play(&mut p, "b1-b2"), ev(&["move 0 b1-b2"]));
    // carry_home implies free.
    assert_dests(
        &hq(json!({"win_by_flag": "carry_home", "hq_exit": "locked"})),
        "b1",
        &["a1", "b2", "c1"],
    );
}

// ---- losing_attacks and flag_guarded_by_mines in dark play -------------------------------------

fn dark_duel(
    attacker: Role,
    defender: Role,
    options: serde_json::Value,
    extra: &[(&str, u8, Role)],
) -> Position {
    Pos::two()
        .with(&[
            ("a6", 0, attacker),
            ("a7", 1, defender),
            ("e1", 0, Lieutenant),
            ("c10", 1, Captain),
        ])
        .with(extra)
        .opts(options)
        .build()
}

#[test]
fn option_losing_attacks_in_dark_play() {
    let forbid = || json!({"losing_attacks": "forbidden"});
    assert!(
        is_legal(&dark_duel(Captain, Major, json!({}), &[]), "a6-a7"),
        "allowed by default in dark play"
    );
    assert!(!is_legal(
        &dark_duel(Captain, Major, forbid(), &[]),
        "a6-a7"
    ));
    assert!(!is_legal(
        &dark_duel(Major, Landmine, forbid(), &[]),
        "a6-a7"
    ));
    assert!(is_legal(&dark_duel(Major, Major, forbid(), &[]), "a6-a7"));
    assert!(is_legal(&dark_duel(Major, Captain, forbid(), &[]), "a6-a7"));
    assert!(is_legal(&dark_duel(Major, Bomb, forbid(), &[]), "a6-a7"));
}

#[test]
fn option_flag_guarded_by_mines_in_dark_play() {
    let mine = &[("e12", 1, Landmine)][..];
    let guard = || json!({"flag_guarded_by_mines": true});
    assert!(
        is_legal(&dark_duel(Captain, Flag, json!({}), mine), "a6-a7"),
        "off by default in dark play"
    );
    assert!(!is_legal(&dark_duel(Captain, Flag, guard(), mine), "a6-a7"));
    assert!(!is_legal(&dark_duel(Bomb, Flag, guard(), mine), "a6-a7"));
    assert!(is_legal(
        &dark_duel(Captain, Flag, guard(), &[("e2", 0, Landmine)]),
        "a6-a7"
    ));
}

// ---- options that do not apply ---------------------------------------------------------------

#[test]
fn options_that_do_not_apply_are_accepted_and_ignored() {
    // turn_order on two players.
    let mut p = Pos::two()
        .with(&[("c3", 0, Captain), ("c10", 1, Captain)])
        .opts(json!({"turn_order": "clockwise", "flip_colour": "first_engineer"}))
        .build();
    play(&mut p, "c3-c2");
    assert_eq!(p.to_move(), 1);
    play(&mut p, "c10-c11");
    assert_eq!(p.to_move(), 0);
    // middle_crossing on four players: the board is the same.
    let p = Pos::four()
        .with(&[("i6", 0, Engineer)])
        .opts(json!({"middle_crossing": "road"}))
        .build();
    let q = Pos::four().with(&[("i6", 0, Engineer)]).build();
    assert_eq!(dests(&p, "i6"), dests(&q, "i6"));
    assert!(dests(&p, "i6").contains(&"i7".to_string()));
    // carry_home in flip play: the flag is captured on contact.
    let mut p = Pos::flip()
        .colours([0, 1])
        .with(&[("a6", 0, Captain), ("a7", 1, Flag), ("c10", 1, Lieutenant)])
        .opts(json!({"win_by_flag": "carry_home"}))
        .build();
    assert_eq!(
        play(&mut p, "a6-a7"),
        ev(&["attack 0 a6-a7 flag_captured", "eliminated 1 flag_captured"])
    );
}

#[test]
fn unknown_options_and_wrong_types_are_rejected() {
    let e = Pos::two()
        .opts(json!({"fog_of_war": true}))
        .try_rules()
        .unwrap_err();
    assert!(e.contains("unknown option"), "{e}");
    let e = Pos::two()
        .opts(json!({"bomb_flies": "true"}))
        .try_rules()
        .unwrap_err();
    assert!(e.contains("bomb_flies"), "{e}");
    let e = Pos::two()
        .opts(json!({"rail_turns": "diagonal"}))
        .try_rules()
        .unwrap_err();
    assert!(e.contains("rail_turns"), "{e}");
    let e = Pos::two()
        .opts(json!({"quiet_plies": -1}))
        .try_rules()
        .unwrap_err();
    assert!(e.contains("quiet_plies"), "{e}");
}

// ---- carry_home (§9.1) -----------------------------------------------------------------------

fn carry() -> serde_json::Value {
    json!({"win_by_flag": "carry_home"})
}

fn flags_on_board(p: &Position) -> Vec<String> {
    p.pieces()
        .filter(|(_, x)| x.role == Flag)
        .map(|(s, x)| format!("{} {}", name(p, s), x.seat))
        .collect()
}

#[test]
fn carry_home_the_capturer_carries_the_flag() {
    let mut p = Pos::two()
        .with(&[
            ("b11", 0, Engineer),
            ("e1", 0, Captain),
            ("b12", 1, Flag),
            ("c10", 1, Captain),
        ])
        .opts(carry())
        .build();
    assert_eq!(
        play(&mut p, "b11-b12"),
        ev(&["attack 0 b11-b12 flag_captured"])
    );
    assert_eq!(
        (outcome(&p), p.to_move(), p.is_eliminated(1)),
        ("none".to_string(), 1, false)
    );
    assert_eq!(at(&p, "b12"), Some((0, Engineer)));
    let (b12, b11) = (sq(&p, "b12"), sq(&p, "b11"));
    assert_eq!(
        p.carried_flag(1),
        Some(Carry {
            carrier: b12,
            captured_at: b12
        })
    );
    assert!(flags_on_board(&p).is_empty());
    play(&mut p, "c10-c11");
    // The carrier leaves the enemy HQ (HQs lock nothing) and the flag goes with it.
    assert_dests(&p, "b12", &["a12", "b11", "c12"]);
    play(&mut p, "b12-b11");
    assert_eq!(
        p.carried_flag(1),
        Some(Carry {
            carrier: b11,
            captured_at: b12
        })
    );
}

#[test]
fn carry_home_a_carrier_may_not_attack_another_flag() {
    // South's piece on b8 carries East's flag; West's flag stands on a8 next to it.
    let base = || {
        Pos::four().opts(carry()).with(&[
            ("a8", 3, Flag),
            ("d10", 3, Captain),
            ("n8", 1, Captain),
            ("h4", 0, Captain),
        ])
    };
    let p = base().carrier("b8", 0, Lieutenant, 1, "q8").build();
    assert_dests(&p, "b8", &["b7", "b9", "b10", "b11", "c8"]);
    let p = base()
        .with(&[("b8", 0, Lieutenant), ("q8", 1, Flag)])
        .build();
    assert_dests(&p, "b8", &["a8", "b7", "b9", "b10", "b11", "c8"]);
}

#[test]
fn carry_home_the_flags_seat_is_eliminated_when_the_carrier_stands_on_its_own_hq() {
    let base = || Pos::two().opts(carry()).with(&[("c10", 1, Captain)]);
    let mut p = base().carrier("b2", 0, Engineer, 1, "b12").build();
    assert_eq!(
        play(&mut p, "b2-b1"),
        ev(&["move 0 b2-b1", "eliminated 1 flag_captured"])
    );
    assert_eq!(outcome(&p), "win 0 flag_captured");
    assert_eq!(p.carried_flag(1), None);
    // Arriving by an attack counts too.
    let mut p = base()
        .carrier("d2", 0, General, 1, "b12")
        .with(&[("d1", 1, Lieutenant)])
        .build();
    assert_eq!(
        play(&mut p, "d2-d1"),
        ev(&["attack 0 d2-d1 attacker_wins", "eliminated 1 flag_captured"])
    );
    assert_eq!(outcome(&p), "win 0 flag_captured");
    // An enemy HQ does not.
    let mut p = base().carrier("a12", 0, Engineer, 1, "d12").build();
    assert_eq!(play(&mut p, "a12-b12"), ev(&["move 0 a12-b12"]));
    assert_eq!(
        (outcome(&p), p.carried_flag(1).map(|c| name(&p, c.carrier))),
        ("none".into(), Some("b12".into()))
    );
}

#[test]
fn carry_home_four_player_partner_hq_does_not_count_own_hq_does() {
    let base = || {
        Pos::four().opts(carry()).with(&[
            ("n8", 1, Captain),
            ("j14", 2, Captain),
            ("d10", 3, Captain),
        ])
    };
    let mut p = base().carrier("h16", 0, Engineer, 1, "q8").build();
    assert_eq!(play(&mut p, "h16-h17"), ev(&["move 0 h16-h17"]));
    assert_eq!(outcome(&p), "none");
    // East (1) also carries North's (2) flag: when East is eliminated it goes back to j17.
    let mut p = base()
        .carrier("h2", 0, Engineer, 1, "q8")
        .carrier("m9", 1, Captain, 2, "j17")
        .build();
    assert_eq!(
        play(&mut p, "h2-h1"),
        ev(&["move 0 h2-h1", "eliminated 1 flag_captured"])
    );
    assert!(p.pieces().all(|(_, x)| x.seat != 1));
    assert_eq!(flags_on_board(&p), vec!["j17 2"]);
    assert_eq!(
        (
            p.carried_flag(1),
            p.carried_flag(2),
            outcome(&p),
            p.to_move()
        ),
        (None, None, "none".into(), 2)
    );
}

#[test]
fn carry_home_a_bomb_onto_a_flag_is_removed_and_the_flag_stays() {
    let mut p = Pos::two()
        .with(&[
            ("b11", 0, Bomb),
            ("e1", 0, Captain),
            ("b12", 1, Flag),
            ("c10", 1, Captain),
        ])
        .opts(carry())
        .build();
    assert_eq!(
        play(&mut p, "b11-b12"),
        ev(&["attack 0 b11-b12 defender_wins"])
    );
    assert_eq!((at(&p, "b11"), at(&p, "b12")), (None, Some((1, Flag))));
    assert_eq!((p.carried_flag(1), outcome(&p)), (None, "none".into()));
    // It is an attack that must lose: illegal under losing_attacks = forbidden.
    let p = Pos::two()
        .with(&[
            ("b11", 0, Bomb),
            ("e1", 0, Captain),
            ("b12", 1, Flag),
            ("c10", 1, Captain),
        ])
        .opts(json!({"win_by_flag": "carry_home", "losing_attacks": "forbidden"}))
        .build();
    assert!(!is_legal(&p, "b11-b12"));
}

/// North's pieces to fill squares with (10 roles that fit North's counts with a captain and a
/// marshal besides).
const FILL: [Role; 10] = [
    Lieutenant, Lieutenant, Lieutenant, Engineer, Engineer, Engineer, Major, Major, Colonel,
    Colonel,
];

/// A South engineer on c8 carries North's flag captured on `captured_at`; North's `attacker`
/// on c9 is to move; `filled` squares hold North pieces; South's flag on d1, a captain on e1.
fn carrier_dies(captured_at: &str, filled: &[&str], attacker: Role, carrier: Role) -> Position {
    let fill: Vec<(&str, u8, Role)> = filled.iter().zip(FILL).map(|(&s, r)| (s, 1, r)).collect();
    Pos::two()
        .opts(carry())
        .carrier("c8", 0, carrier, 1, captured_at)
        .with(&[("c9", 1, attacker), ("e1", 0, Captain), ("d1", 0, Flag)])
        .with(&fill)
        .turn(1)
        .build()
}

/// Where North's flag goes back when the carrier on c8 is killed.
fn returns_to(captured_at: &str, filled: &[&str]) -> Vec<String> {
    let mut p = carrier_dies(captured_at, filled, Captain, Engineer);
    assert_eq!(play(&mut p, "c9-c8"), ev(&["attack 1 c9-c8 attacker_wins"]));
    assert_eq!(
        (p.carried_flag(1), outcome(&p), p.is_eliminated(1)),
        (None, "none".into(), false)
    );
    flags_on_board(&p)
        .into_iter()
        .filter(|f| f.ends_with(" 1"))
        .collect()
}

#[test]
fn carry_home_carrier_removed_flag_goes_back_to_the_capture_square() {
    assert_eq!(returns_to("b12", &[]), vec!["b12 1"]);
    let mut p = carrier_dies("b12", &[], Captain, Engineer);
    play(&mut p, "c9-c8");
    assert!(p.is_public(sq(&p, "b12")), "a returned flag is public");
    // The capture square need not be an HQ.
    assert_eq!(returns_to("a10", &[]), vec!["a10 1"]);
}

#[test]
fn carry_home_flag_goes_back_to_the_first_empty_hq() {
    // Local (5,1) of North is d12, (5,3) is b12.
    assert_eq!(returns_to("b12", &["b12"]), vec!["d12 1"]);
    assert_eq!(returns_to("a10", &["a10"]), vec!["d12 1"]);
    assert_eq!(returns_to("d12", &["d12"]), vec!["b12 1"]);
}

#[test]
fn carry_home_flag_goes_back_to_row_5_then_row_4_left_to_right() {
    // North's local row 5 left to right: e12 d12 c12 b12 a12; row 4: e11 d11 c11 b11 a11.
    assert_eq!(returns_to("b12", &["b12", "d12"]), vec!["e12 1"]);
    assert_eq!(returns_to("b12", &["b12", "d12", "e12"]), vec!["c12 1"]);
    assert_eq!(
        returns_to("b12", &["b12", "d12", "e12", "c12"]),
        vec!["a12 1"]
    );
    let row5 = ["a12", "b12", "c12", "d12", "e12"];
    assert_eq!(returns_to("b12", &row5), vec!["e11 1"]);
    assert_eq!(
        returns_to("b12", &[&row5[..], &["e11", "d11"]].concat()),
        vec!["c11 1"]
    );
}

#[test]
fn carry_home_flag_stays_off_the_board_when_nothing_is_empty() {
    let all = [
        "a12", "b12", "c12", "d12", "e12", "a11", "b11", "c11", "d11", "e11",
    ];
    assert_eq!(returns_to("b12", &all), Vec::<String>::new());
}

#[test]
fn carry_home_flag_revealed_while_carried_is_the_carriers_square() {
    // North's marshal dies while its flag is carried on c8.
    let mut p = Pos::two()
        .opts(carry())
        .carrier("c8", 0, Engineer, 1, "b12")
        .with(&[
            ("e8", 0, Bomb),
            ("e1", 0, Captain),
            ("d1", 0, Flag),
            ("e9", 1, Marshal),
            ("e12", 1, Lieutenant),
        ])
        .turn(1)
        .build();
    assert_eq!(
        play(&mut p, "e9-e8"),
        ev(&["attack 1 e9-e8 both_removed", "flag_revealed 1 c8"])
    );
}

#[test]
fn carry_home_flag_revealed_where_it_goes_back_in_the_same_step() {
    // North's marshal attacks South's marshal, which carries North's flag: both die, North's
    // flag goes back to b12 and is announced there (attacker's flag first), then South's.
    let mut p = carrier_dies("b12", &["e12"], Marshal, Marshal);
    assert_eq!(
        play(&mut p, "c9-c8"),
        ev(&[
            "attack 1 c9-c8 both_removed",
            "flag_revealed 1 b12",
            "flag_revealed 0 d1"
        ])
    );
    // If it stays off the board, nothing is announced for it.
    let all = [
        "a12", "b12", "c12", "d12", "e12", "a11", "b11", "c11", "d11", "e11",
    ];
    let mut p = carrier_dies("b12", &all, Marshal, Marshal);
    assert_eq!(
        play(&mut p, "c9-c8"),
        ev(&["attack 1 c9-c8 both_removed", "flag_revealed 0 d1"])
    );
}

#[test]
fn carry_home_four_player_elimination_returns_a_carried_flag() {
    // East (1) carries South's (0) flag, captured on h1.
    let base = || {
        Pos::four()
            .opts(carry())
            .carrier("i5", 1, Captain, 0, "h1")
            .with(&[
                ("g4", 0, Captain),
                ("n8", 1, Lieutenant),
                ("j14", 2, Captain),
                ("d10", 3, Captain),
            ])
    };
    // East is eliminated: its pieces leave, the flag goes back to h1.
    let mut p = base().build();
    assert_eq!(
        table(&mut p, |p, e| p.resign(1, e)),
        ev(&["eliminated 1 resigned"])
    );
    assert_eq!(flags_on_board(&p), vec!["h1 0"]);
    assert!(p.pieces().all(|(_, x)| x.seat != 1));
    // South is eliminated another way: its carried flag disappears, the carrier stays.
    let mut p = base().build();
    assert_eq!(
        table(&mut p, |p, e| p.resign(0, e)),
        ev(&["eliminated 0 resigned"])
    );
    assert_eq!(
        (flags_on_board(&p), p.carried_flag(0)),
        (Vec::<String>::new(), None)
    );
    assert_eq!(at(&p, "i5"), Some((1, Captain)));
    assert_eq!(p.to_move(), 1);
}

#[test]
fn carry_home_two_player_carried_flag_disappears_when_its_seat_is_out_another_way() {
    let mut p = Pos::two()
        .opts(carry())
        .carrier("c8", 0, Engineer, 1, "b12")
        .with(&[("e1", 0, Captain), ("c10", 1, Captain)])
        .build();
    table(&mut p, |p, e| p.resign(1, e));
    assert_eq!(
        (outcome(&p), p.carried_flag(1), at(&p, "c8")),
        ("win 0 resigned".into(), None, Some((0, Engineer)))
    );
}

// ---- modes -------------------------------------------------------------------------------------

#[test]
fn open_and_half_open_change_visibility_only() {
    // The same four-player position plays the same in dark, open and half-open play.
    let pieces: &[(&str, u8, Role)] = &[
        ("k6", 0, Marshal),
        ("l7", 1, Marshal),
        ("h1", 0, Flag),
        ("q8", 1, Flag),
        ("h4", 0, Captain),
        ("n8", 1, Captain),
        ("j14", 2, Captain),
        ("d10", 3, Captain),
    ];
    let mut results = Vec::new();
    for mode in [Mode::Dark, Mode::Open, Mode::HalfOpen] {
        let mut p = Pos::four().mode(mode).with(pieces).build();
        let before = actions(&p);
        let e = play(&mut p, "k6-l7");
        results.push((before, e, board(&p), p.to_move()));
    }
    assert_eq!(results[0], results[1]);
    assert_eq!(results[0], results[2]);
    assert_eq!(
        results[0].1,
        ev(&[
            "attack 0 k6-l7 both_removed",
            "flag_revealed 0 h1",
            "flag_revealed 1 q8"
        ])
    );
}
