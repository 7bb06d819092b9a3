//! RULES §5 combat, with the options `landmine`, `reveal_flag_on_marshal_loss` and
//! `engineer_scout` (§9). Every attack is South's piece on a6 onto North's piece on a7; a South
//! lieutenant on e1 and a North lieutenant on e12 keep both seats in the game.

mod common;
use common::*;

/// South `attacker` on a6 onto North `defender` on a7, under `options`, plus `extra` pieces.
fn duel(
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
            ("e12", 1, Lieutenant),
        ])
        .with(extra)
        .opts(options)
        .build()
}

/// What stands on a square: (seat, role).
type On = Option<(u8, Role)>;

/// Play a6-a7; return the events and what stands on a6 and a7 afterwards.
fn fight(p: &mut Position) -> (Vec<String>, On, On) {
    assert!(is_legal(p, "a6-a7"));
    let e = play(p, "a6-a7");
    (e, at(p, "a6"), at(p, "a7"))
}

#[test]
fn every_row_of_the_combat_table() {
    use Role::*;
    // (attacker, defender, announced result, what stands on a7 afterwards)
    let rows: &[(Role, Role, &str, On)] = &[
        // ranked piece onto ranked piece: stronger survives, equal both removed
        (Marshal, General, "attacker_wins", Some((0, Marshal))),
        (Major, Captain, "attacker_wins", Some((0, Major))),
        (Lieutenant, Engineer, "attacker_wins", Some((0, Lieutenant))),
        (Captain, Major, "defender_wins", Some((1, Major))),
        (Engineer, Lieutenant, "defender_wins", Some((1, Lieutenant))),
        (General, Marshal, "defender_wins", Some((1, Marshal))),
        (Colonel, Colonel, "both_removed", None),
        (Engineer, Engineer, "both_removed", None),
        (Marshal, Marshal, "both_removed", None),
        // bomb onto anything
        (Bomb, Marshal, "both_removed", None),
        (Bomb, Engineer, "both_removed", None),
        (Bomb, Bomb, "both_removed", None),
        (Bomb, Landmine, "both_removed", None),
        // anything onto a bomb
        (Marshal, Bomb, "both_removed", None),
        (Engineer, Bomb, "both_removed", None),
        // landmines
        (Engineer, Landmine, "attacker_wins", Some((0, Engineer))),
        (Marshal, Landmine, "defender_wins", Some((1, Landmine))),
        (Lieutenant, Landmine, "defender_wins", Some((1, Landmine))),
    ];
    for &(a, d, result, on_a7) in rows {
        let mut p = duel(a, d, json!({}), &[]);
        let (e, on_a6, after) = fight(&mut p);
        assert_eq!(e, vec![format!("attack 0 a6-a7 {result}")], "{a} onto {d}");
        assert_eq!(on_a6, None, "{a} onto {d}: the attacker always leaves a6");
        assert_eq!(after, on_a7, "{a} onto {d}");
        assert_eq!(
            (outcome(&p), p.to_move()),
            ("none".to_string(), 1),
            "{a} onto {d}"
        );
    }
}

#[test]
fn any_movable_piece_captures_the_flag_and_a_bomb_is_removed_with_it() {
    for (a, on_a7) in [
        (Role::Engineer, Some((0, Role::Engineer))),
        (Role::Marshal, Some((0, Role::Marshal))),
        (Role::Bomb, None),
    ] {
        let mut p = duel(a, Role::Flag, json!({}), &[]);
        let (e, on_a6, after) = fight(&mut p);
        assert_eq!(
            e,
            ev(&["attack 0 a6-a7 flag_captured", "eliminated 1 flag_captured"]),
            "{a}"
        );
        assert_eq!((on_a6, after), (None, on_a7), "{a}");
        assert_eq!(outcome(&p), "win 0 flag_captured");
        // Two-player: the board stays as it is.
        assert_eq!(at(&p, "e12"), Some((1, Role::Lieutenant)));
    }
}

// ---- flag reveal on the marshal's loss -------------------------------------------------------

const FLAGS: &[(&str, u8, Role)] = &[("b1", 0, Role::Flag), ("d12", 1, Role::Flag)];

#[test]
fn attacker_marshal_lost_reveals_the_attackers_flag() {
    let mut p = duel(Role::Marshal, Role::Landmine, json!({}), FLAGS);
    let (e, _, _) = fight(&mut p);
    assert_eq!(
        e,
        ev(&["attack 0 a6-a7 defender_wins", "flag_revealed 0 b1"])
    );
    assert!(p.is_public(sq(&p, "b1")));
    assert!(!p.is_public(sq(&p, "d12")));
}

#[test]
fn defender_marshal_lost_reveals_the_defenders_flag() {
    let mut p = duel(Role::Bomb, Role::Marshal, json!({}), FLAGS);
    let (e, _, _) = fight(&mut p);
    assert_eq!(
        e,
        ev(&["attack 0 a6-a7 both_removed", "flag_revealed 1 d12"])
    );
    assert!(p.is_public(sq(&p, "d12")));
    assert!(!p.is_public(sq(&p, "b1")));
}

#[test]
fn both_marshals_lost_in_one_exchange_reveal_both_flags_attacker_first() {
    let mut p = duel(Role::Marshal, Role::Marshal, json!({}), FLAGS);
    let (e, _, _) = fight(&mut p);
    assert_eq!(
        e,
        ev(&[
            "attack 0 a6-a7 both_removed",
            "flag_revealed 0 b1",
            "flag_revealed 1 d12"
        ])
    );
}

#[test]
fn a_marshal_that_wins_reveals_nothing() {
    let mut p = duel(Role::Marshal, Role::General, json!({}), FLAGS);
    let (e, _, _) = fight(&mut p);
    assert_eq!(e, ev(&["attack 0 a6-a7 attacker_wins"]));
}

#[test]
fn option_reveal_flag_on_marshal_loss_false() {
    let off = json!({"reveal_flag_on_marshal_loss": false});
    for (a, d) in [
        (Role::Marshal, Role::Marshal),
        (Role::Marshal, Role::Landmine),
        (Role::Bomb, Role::Marshal),
    ] {
        let mut p = duel(a, d, off.clone(), FLAGS);
        let (e, _, _) = fight(&mut p);
        assert_eq!(e.len(), 1, "{a} onto {d}: {e:?}");
        assert!(!p.is_public(sq(&p, "b1")) && !p.is_public(sq(&p, "d12")));
    }
}

#[test]
fn four_player_marshal_loss_reveals_that_seats_flag() {
    // East's marshal (seat 1) dies on South's bomb; East's flag on q10 is announced.
    let mut p = Pos::four()
        .with(&[
            ("k6", 0, Role::Bomb),
            ("l7", 1, Role::Marshal),
            ("q10", 1, Role::Flag),
            ("p9", 1, Role::Captain),
            ("h1", 0, Role::Flag),
            ("g4", 0, Role::Captain),
            ("i14", 2, Role::Captain),
            ("d9", 3, Role::Captain),
        ])
        .build();
    assert_eq!(
        play(&mut p, "k6-l7"),
        ev(&["attack 0 k6-l7 both_removed", "flag_revealed 1 q10"])
    );
    assert_eq!(p.to_move(), 1);
}

// ---- option landmine -------------------------------------------------------------------------

#[test]
fn option_landmine_both_die() {
    let both = json!({"landmine": "both_die"});
    let mut p = duel(Role::Lieutenant, Role::Landmine, both.clone(), &[]);
    assert_eq!(
        fight(&mut p),
        (ev(&["attack 0 a6-a7 both_removed"]), None, None)
    );
    // The marshal dies with it, and its flag is revealed.
    let mut p = duel(Role::Marshal, Role::Landmine, both.clone(), FLAGS);
    assert_eq!(
        fight(&mut p),
        (
            ev(&["attack 0 a6-a7 both_removed", "flag_revealed 0 b1"]),
            None,
            None
        )
    );
    // Engineers still clear landmines; bombs still remove both.
    let mut p = duel(Role::Engineer, Role::Landmine, both.clone(), &[]);
    assert_eq!(
        fight(&mut p),
        (
            ev(&["attack 0 a6-a7 attacker_wins"]),
            None,
            Some((0, Role::Engineer))
        )
    );
    let mut p = duel(Role::Bomb, Role::Landmine, both, &[]);
    assert_eq!(
        fight(&mut p),
        (ev(&["attack 0 a6-a7 both_removed"]), None, None)
    );
    // Default: the attacker dies and the landmine stays.
    let mut p = duel(Role::Lieutenant, Role::Landmine, json!({}), &[]);
    assert_eq!(
        fight(&mut p),
        (
            ev(&["attack 0 a6-a7 defender_wins"]),
            None,
            Some((1, Role::Landmine))
        )
    );
}

// ---- option engineer_scout -------------------------------------------------------------------

#[test]
fn option_engineer_scout() {
    let scout = json!({"engineer_scout": true});
    // An engineer attacking a ranked piece is removed, the defender stays and is announced —
    // even a weaker-or-equal one.
    for d in [Role::Lieutenant, Role::Engineer, Role::Marshal] {
        let mut p = duel(Role::Engineer, d, scout.clone(), &[]);
        let (e, a6, a7) = fight(&mut p);
        assert_eq!(
            e,
            vec![
                "attack 0 a6-a7 defender_wins".to_string(),
                format!("scouted a7 {d}")
            ]
        );
        assert_eq!((a6, a7), (None, Some((1, d))));
        assert!(p.is_public(sq(&p, "a7")));
    }
    // A bomb defender still removes both, and is announced.
    let mut p = duel(Role::Engineer, Role::Bomb, scout.clone(), &[]);
    assert_eq!(
        fight(&mut p),
        (
            ev(&["attack 0 a6-a7 both_removed", "scouted a7 bomb"]),
            None,
            None
        )
    );
    // Landmine and flag: no scouting.
    let mut p = duel(Role::Engineer, Role::Landmine, scout.clone(), &[]);
    assert_eq!(
        fight(&mut p),
        (
            ev(&["attack 0 a6-a7 attacker_wins"]),
            None,
            Some((0, Role::Engineer))
        )
    );
    let mut p = duel(Role::Engineer, Role::Flag, scout.clone(), &[]);
    assert_eq!(
        fight(&mut p).0,
        ev(&["attack 0 a6-a7 flag_captured", "eliminated 1 flag_captured"])
    );
    // Other attackers are not affected.
    let mut p = duel(Role::Captain, Role::Lieutenant, scout, &[]);
    assert_eq!(
        fight(&mut p),
        (
            ev(&["attack 0 a6-a7 attacker_wins"]),
            None,
            Some((0, Role::Captain))
        )
    );
    // Without the option an engineer onto a lieutenant is an ordinary loss, not announced.
    let mut p = duel(Role::Engineer, Role::Lieutenant, json!({}), &[]);
    assert_eq!(fight(&mut p).0, ev(&["attack 0 a6-a7 defender_wins"]));
    assert!(!p.is_public(sq(&p, "a7")));
    // …and an engineer onto an engineer is an exchange.
    let mut p = duel(Role::Engineer, Role::Engineer, json!({}), &[]);
    assert_eq!(fight(&mut p).0, ev(&["attack 0 a6-a7 both_removed"]));
}

#[test]
fn dark_play_never_names_the_pieces_in_an_attack() {
    // The announcement of an attack is squares and result only; the identities stay private.
    let mut p = duel(Role::Major, Role::Captain, json!({}), &[]);
    fight(&mut p);
    assert!(!p.is_public(sq(&p, "a7")));
}

#[test]
fn four_player_marshal_killed_in_combat_is_announced_even_if_its_seat_then_goes_out() {
    // East's marshal, its last movable piece, dies on South's landmine: its flag is announced
    // (step 1), then East is eliminated (step 3) and its pieces leave the board.
    let mut p = Pos::four()
        .with(&[
            ("k6", 0, Role::Landmine),
            ("h4", 0, Role::Captain),
            ("l7", 1, Role::Marshal),
            ("q10", 1, Role::Flag),
            ("i14", 2, Role::Captain),
            ("d9", 3, Role::Captain),
        ])
        .turn(1)
        .build();
    assert_eq!(
        play(&mut p, "l7-k6"),
        ev(&[
            "attack 1 l7-k6 defender_wins",
            "flag_revealed 1 q10",
            "eliminated 1 no_movable_pieces"
        ])
    );
    assert_eq!(at(&p, "q10"), None);
}
