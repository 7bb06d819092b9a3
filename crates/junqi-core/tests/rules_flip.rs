//! RULES §8.3 flip play (翻棋), with its options `flip_colour`, `losing_attacks`,
//! `flag_guarded_by_mines` and `blocked`. A piece's seat here is its colour; `colours(c)` says
//! which colour each player plays.

mod common;
use common::*;

fn first_engineer() -> serde_json::Value {
    json!({"flip_colour": "first_engineer"})
}

// ---- flips and colours -----------------------------------------------------------------------

#[test]
fn before_colours_are_settled_only_flips_are_legal() {
    let p = Pos::flip()
        .opts(first_engineer())
        .down(&[("a1", 0, Captain), ("b2", 1, Engineer)])
        .with(&[("c3", 0, Captain)])
        .build();
    assert_eq!(actions(&p), vec!["flip a1", "flip b2"]);
    let e = p.check(action(&p, "c3-c2")).unwrap_err();
    assert!(e.to_string().contains("colours are not settled"), "{e}");
}

#[test]
fn first_flip_gives_the_flipped_colour_to_the_flipper() {
    let mut p = Pos::flip()
        .down(&[
            ("a1", 1, Captain),
            ("b2", 0, Engineer),
            ("e12", 0, Landmine),
        ])
        .plies(3, 2)
        .build();
    assert_eq!(p.flip_colours(), None);
    assert_eq!(
        play(&mut p, "flip a1"),
        ev(&["flip 0 a1 captain 1", "colours 1 0"])
    );
    assert_eq!(p.flip_colours(), Some([1, 0]));
    assert_eq!((p.to_move(), p.plies(), p.quiet_plies()), (1, 4, 0));
    // Seat 1 plays colour 0, whose pieces are all face down: it may flip any face-down piece.
    assert_eq!(actions(&p), vec!["flip b2", "flip e12"]);
    assert_eq!(play(&mut p, "flip b2"), ev(&["flip 1 b2 engineer 0"]));
    // Seat 0 moves the colour-1 captain (HQs aren't special here) or flips.
    assert_eq!(actions(&p), vec!["a1-a2", "a1-b1", "flip e12"]);
}

#[test]
fn first_engineer_settles_colours_on_the_first_engineer() {
    let mut p = Pos::flip()
        .opts(first_engineer())
        .down(&[
            ("a1", 1, Captain),
            ("b2", 0, Engineer),
            ("e12", 0, Landmine),
        ])
        .build();
    assert_eq!(play(&mut p, "flip a1"), ev(&["flip 0 a1 captain 1"]));
    assert_eq!((p.flip_colours(), p.to_move()), (None, 1));
    assert_eq!(
        actions(&p),
        vec!["flip b2", "flip e12"],
        "the face-up captain belongs to nobody yet"
    );
    assert_eq!(
        play(&mut p, "flip b2"),
        ev(&["flip 1 b2 engineer 0", "colours 1 0"])
    );
    assert_eq!(p.flip_colours(), Some([1, 0]));
    assert_eq!(actions(&p), vec!["a1-a2", "a1-b1", "flip e12"]);
}

#[test]
fn flips_reset_quiet_plies() {
    let mut p = Pos::flip()
        .colours([0, 1])
        .with(&[("c3", 0, Captain), ("c10", 1, Captain)])
        .down(&[("e12", 1, Lieutenant)])
        .opts(json!({"quiet_plies": 6}))
        .plies(10, 5)
        .build();
    assert_eq!(play(&mut p, "flip e12"), ev(&["flip 0 e12 lieutenant 1"]));
    assert_eq!(
        (p.plies(), p.quiet_plies(), outcome(&p)),
        (11, 0, "none".to_string())
    );
    play(&mut p, "c10-c11");
    assert_eq!((p.plies(), p.quiet_plies()), (12, 1));
}

// ---- face-down pieces --------------------------------------------------------------------------

#[test]
fn face_down_pieces_block_and_cannot_be_attacked() {
    let p = Pos::flip()
        .colours([0, 1])
        .with(&[("a2", 0, Captain), ("c10", 1, Captain)])
        .down(&[("a4", 1, Lieutenant), ("c2", 0, Lieutenant)])
        .build();
    assert_dests(&p, "a2", &["a1", "a3", "b2", "b3"]);
    let p = Pos::flip()
        .colours([0, 1])
        .with(&[("a2", 0, Engineer), ("c10", 1, Captain)])
        .down(&[("a3", 1, Lieutenant), ("b2", 1, Lieutenant)])
        .build();
    assert_dests(&p, "a2", &["a1", "b3"]);
}

// ---- option losing_attacks ---------------------------------------------------------------------

#[test]
fn losing_attacks_are_forbidden_and_exchanges_allowed() {
    use Role::*;
    let legal = |a: Role, d: Role, options: serde_json::Value| {
        let p = Pos::flip()
            .colours([0, 1])
            .with(&[
                ("a6", 0, a),
                ("a7", 1, d),
                ("e1", 0, Lieutenant),
                ("e12", 1, Lieutenant),
            ])
            .opts(options)
            .build();
        is_legal(&p, "a6-a7")
    };
    let none = || json!({});
    assert!(!legal(Captain, Major, none()), "weaker onto stronger");
    assert!(legal(Captain, Major, json!({"losing_attacks": "allowed"})));
    assert!(
        legal(Captain, Captain, none()),
        "equal ranks are an exchange"
    );
    assert!(legal(Captain, Lieutenant, none()));
    assert!(
        legal(Marshal, Bomb, none()) && legal(Bomb, Marshal, none()),
        "bombs are exchanges"
    );
    assert!(
        !legal(Captain, Landmine, none()),
        "non-engineer onto a landmine under attacker_dies"
    );
    assert!(
        legal(Captain, Landmine, json!({"landmine": "both_die"})),
        "an exchange under both_die"
    );
    assert!(legal(Engineer, Landmine, none()));
    assert!(legal(Engineer, Engineer, none()));
    let scout = || json!({"engineer_scout": true});
    assert!(
        !legal(Engineer, Lieutenant, scout()),
        "a scouting engineer onto a ranked piece"
    );
    assert!(!legal(Engineer, Engineer, scout()));
    assert!(legal(Engineer, Bomb, scout()));
    assert!(
        legal(Captain, Flag, none()),
        "no landmine of colour 1 left: the flag may be taken"
    );
}

// ---- option flag_guarded_by_mines --------------------------------------------------------------

#[test]
fn the_flag_is_guarded_by_its_colours_landmines_face_down_ones_included() {
    let base = || {
        Pos::flip().colours([0, 1]).with(&[
            ("a6", 0, Captain),
            ("b7", 0, Bomb),
            ("a7", 1, Flag),
            ("c10", 1, Lieutenant),
        ])
    };
    let p = base().down(&[("e12", 1, Landmine)]).build();
    assert!(
        !is_legal(&p, "a6-a7") && !is_legal(&p, "b7-a7"),
        "a bomb's attack included"
    );
    let p = base().with(&[("e12", 1, Landmine)]).build();
    assert!(!is_legal(&p, "a6-a7") && !is_legal(&p, "b7-a7"));
    // The other colour's landmines do not guard it.
    let mut p = base().with(&[("e1", 0, Landmine)]).build();
    assert!(is_legal(&p, "a6-a7") && is_legal(&p, "b7-a7"));
    assert_eq!(
        play(&mut p, "a6-a7"),
        ev(&["attack 0 a6-a7 flag_captured", "eliminated 1 flag_captured"])
    );
    assert_eq!(outcome(&p), "win 0 flag_captured");
    // Option off.
    let p = base()
        .down(&[("e12", 1, Landmine)])
        .opts(json!({"flag_guarded_by_mines": false}))
        .build();
    assert!(is_legal(&p, "a6-a7") && is_legal(&p, "b7-a7"));
}

#[test]
fn flag_capture_eliminates_the_player_of_that_colour() {
    // Seat 0 plays colour 1 and takes colour 0's flag: seat 1 is out.
    let mut p = Pos::flip()
        .colours([1, 0])
        .with(&[("a6", 1, Captain), ("a7", 0, Flag), ("c10", 0, Lieutenant)])
        .build();
    assert_eq!(
        play(&mut p, "a6-a7"),
        ev(&["attack 0 a6-a7 flag_captured", "eliminated 1 flag_captured"])
    );
    assert_eq!(outcome(&p), "win 0 flag_captured");
}

// ---- HQs, movable pieces, blocked ------------------------------------------------------------

#[test]
fn hqs_do_not_lock_pieces_in_flip_play() {
    for options in [json!({}), json!({"hq_exit": "locked"})] {
        let p = Pos::flip()
            .colours([0, 1])
            .with(&[("b1", 0, Captain), ("c10", 1, Captain)])
            .opts(options)
            .build();
        assert_dests(&p, "b1", &["a1", "b2", "c1"]);
    }
}

#[test]
fn a_colour_with_no_movable_piece_face_up_or_face_down_loses() {
    // Seat 0 plays colour 1 and removes colour 0's last movable piece; colour 0 keeps only a
    // face-down flag and landmine: seat 1 is out.
    let base = || {
        Pos::flip()
            .colours([1, 0])
            .with(&[("a6", 1, Captain), ("a7", 0, Lieutenant)])
            .down(&[("d12", 0, Flag)])
    };
    let mut p = base().down(&[("e12", 0, Landmine)]).build();
    assert_eq!(
        play(&mut p, "a6-a7"),
        ev(&[
            "attack 0 a6-a7 attacker_wins",
            "eliminated 1 no_movable_pieces"
        ])
    );
    assert_eq!(outcome(&p), "win 0 no_movable_pieces");
    // A face-down movable piece keeps the colour in the game.
    let mut p = base().down(&[("e12", 0, Captain)]).build();
    assert_eq!(play(&mut p, "a6-a7"), ev(&["attack 0 a6-a7 attacker_wins"]));
    assert_eq!((outcome(&p), p.to_move()), ("none".to_string(), 1));
}

#[test]
fn no_movable_piece_check_waits_until_colours_are_settled() {
    // Colour 1 has only a flag and a landmine. Under first_engineer nothing happens until the
    // engineer is turned up; then the player given colour 1 is out at once.
    let mut p = Pos::flip()
        .opts(first_engineer())
        .down(&[
            ("c3", 0, Engineer),
            ("e1", 0, Captain),
            ("d12", 1, Flag),
            ("e12", 1, Landmine),
        ])
        .build();
    assert_eq!(play(&mut p, "flip e12"), ev(&["flip 0 e12 landmine 1"]));
    assert_eq!((outcome(&p), p.to_move()), ("none".to_string(), 1));
    assert_eq!(
        play(&mut p, "flip c3"),
        ev(&[
            "flip 1 c3 engineer 0",
            "colours 1 0",
            "eliminated 0 no_movable_pieces"
        ])
    );
    assert_eq!(
        (outcome(&p), p.to_move()),
        ("win 1 no_movable_pieces".to_string(), 1)
    );
    // Under first_flip the first flip settles colours, and the check follows in the same step.
    let mut p = Pos::flip()
        .down(&[
            ("c3", 0, Engineer),
            ("e1", 0, Captain),
            ("d12", 1, Flag),
            ("e12", 1, Landmine),
        ])
        .build();
    assert_eq!(
        play(&mut p, "flip e12"),
        ev(&[
            "flip 0 e12 landmine 1",
            "colours 1 0",
            "eliminated 0 no_movable_pieces"
        ])
    );
}

#[test]
fn a_player_with_no_flip_and_no_move_is_blocked() {
    let base = || {
        Pos::flip().colours([0, 1]).with(&[
            ("c3", 0, Captain),
            ("a12", 1, Captain),
            ("a11", 1, Landmine),
            ("b12", 1, Flag),
        ])
    };
    let mut p = base().build();
    assert_eq!(
        play(&mut p, "c3-c2"),
        ev(&["move 0 c3-c2", "eliminated 1 blocked"])
    );
    assert_eq!(outcome(&p), "win 0 blocked");
    // A face-down piece anywhere gives it a flip.
    let mut p = base().down(&[("e1", 0, Lieutenant)]).build();
    assert_eq!(play(&mut p, "c3-c2"), ev(&["move 0 c3-c2"]));
    assert_eq!(actions(&p), vec!["flip e1"]);
}

// ---- flag reveal -----------------------------------------------------------------------------

#[test]
fn flag_revealed_on_marshal_loss_only_if_face_up() {
    let duel = || {
        Pos::flip().colours([0, 1]).with(&[
            ("a6", 0, Bomb),
            ("a7", 1, Marshal),
            ("e1", 0, Lieutenant),
            ("e12", 1, Lieutenant),
        ])
    };
    let mut p = duel().down(&[("d12", 1, Flag)]).build();
    assert_eq!(play(&mut p, "a6-a7"), ev(&["attack 0 a6-a7 both_removed"]));
    assert!(!p.is_public(sq(&p, "d12")));
    let mut p = duel().with(&[("d12", 1, Flag)]).build();
    assert_eq!(
        play(&mut p, "a6-a7"),
        ev(&["attack 0 a6-a7 both_removed", "flag_revealed 1 d12"])
    );
    // The event names the flag's colour; the attack names the acting player.
    let mut p = Pos::flip()
        .colours([1, 0])
        .with(&[
            ("a6", 1, Bomb),
            ("a7", 0, Marshal),
            ("b1", 0, Flag),
            ("e1", 1, Lieutenant),
            ("e12", 0, Lieutenant),
        ])
        .build();
    assert_eq!(
        play(&mut p, "a6-a7"),
        ev(&["attack 0 a6-a7 both_removed", "flag_revealed 0 b1"])
    );
}

// ---- not a rule: the searches' flip that reveals nothing ---------------------------------------

#[test]
fn a_flip_that_reveals_nothing_counts_the_ply_resets_the_quiet_count_and_passes() {
    let mut p = Pos::flip()
        .colours([0, 1])
        .down(&[("a1", 1, Captain), ("b2", 0, Engineer)])
        .with(&[("c3", 0, Captain), ("d12", 1, Major)])
        .plies(10, 6)
        .build();
    let before = board(&p);
    let mut events = Vec::new();
    p.pass_as_flip_unchecked(&mut events);
    assert!(events.is_empty(), "{events:?}");
    assert_eq!(board(&p), before, "no piece turned up or moved");
    assert_eq!((p.to_move(), p.plies(), p.quiet_plies()), (1, 11, 0));
    assert_eq!(outcome(&p), "none");
    // The ply limit still ends the game.
    let mut p = Pos::flip()
        .opts(json!({"max_plies": 11}))
        .colours([0, 1])
        .down(&[("a1", 1, Captain)])
        .with(&[("c3", 0, Captain), ("d12", 1, Major)])
        .plies(10, 6)
        .build();
    p.pass_as_flip_unchecked(&mut ());
    assert_eq!(outcome(&p), "draw max_plies");
}
