//! Interchange formats over thousands of random games: JSON (RULES §11.1, §11.2), the one-line
//! position text, game records (text and JSON) and their replay, on every board/mode pairing and
//! some non-default options; and malformed inputs, which must give a helpful error and never
//! panic.
//!
//! `JUNQI_INTERCHANGE_GAMES` sets the number of games per rule set (default 160).

use junqi_core::json::{
    event_from_json, event_to_json, outcome_from_json, outcome_to_json, position_from_json,
    position_from_json_str, position_to_json, setup_from_json, step_result_from_json,
    step_result_json,
};
use junqi_core::options::{
    Blocked, FlipColour, HqExit, LandmineRule, LosingAttacks, MiddleCrossing, RailTurns, TurnOrder,
    WinByFlag,
};
use junqi_core::record::{Entry, Game, Record, Start};
use junqi_core::text::{position_from_text, position_to_text, setup_from_text};
use junqi_core::*;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// Every board/mode pairing with default options, and some non-default option sets.
fn rule_sets() -> Vec<(&'static str, Rules)> {
    use BoardKind::*;
    use Mode::*;
    let d = |b, m| Rules::defaults(b, m).unwrap();
    let with = |b, m, f: &dyn Fn(&mut Options)| {
        let mut r = Rules::defaults(b, m).unwrap();
        f(&mut r.options);
        r
    };
    vec![
        ("2p dark", d(TwoPlayer, Dark)),
        ("2p open", d(TwoPlayer, Open)),
        ("2p flip", d(TwoPlayer, Flip)),
        ("4p dark", d(FourPlayer, Dark)),
        ("4p open", d(FourPlayer, Open)),
        ("4p half_open", d(FourPlayer, HalfOpen)),
        ("3p dark", d(ThreePlayer, Dark)),
        ("3p open", d(ThreePlayer, Open)),
        ("6p dark", d(SixPlayer, Dark)),
        ("6p half_open", d(SixPlayer, HalfOpen)),
        (
            "6p open teams opposite carry_home",
            with(SixPlayer, Open, &|o| {
                o.teams = junqi_core::Teams::Opposite;
                o.win_by_flag = WinByFlag::CarryHome;
            }),
        ),
        (
            "6p dark teams none engineer_scout",
            with(SixPlayer, Dark, &|o| {
                o.teams = junqi_core::Teams::None;
                o.engineer_scout = true;
            }),
        ),
        (
            "4p half_open teams opposite",
            with(FourPlayer, HalfOpen, &|o| {
                o.teams = junqi_core::Teams::Opposite
            }),
        ),
        (
            "2p dark carry_home engineer_scout",
            with(TwoPlayer, Dark, &|o| {
                o.win_by_flag = WinByFlag::CarryHome;
                o.engineer_scout = true;
            }),
        ),
        (
            "4p dark carry_home bomb_flies",
            with(FourPlayer, Dark, &|o| {
                o.win_by_flag = WinByFlag::CarryHome;
                o.bomb_flies = true;
                o.quiet_plies = 60;
            }),
        ),
        (
            "2p open landmine both_die, rail_turns any, middle road",
            with(TwoPlayer, Open, &|o| {
                o.landmine = LandmineRule::BothDie;
                o.rail_turns = RailTurns::Any;
                o.middle_crossing = MiddleCrossing::Road;
            }),
        ),
        (
            "2p dark blocked skip, hq free, no flag reveal, short limits",
            with(TwoPlayer, Dark, &|o| {
                o.blocked = Blocked::Skip;
                o.hq_exit = HqExit::Free;
                o.reveal_flag_on_marshal_loss = false;
                o.quiet_plies = 12;
                o.max_plies = 150;
            }),
        ),
        (
            "4p half_open clockwise, blocked lose, rail_turns any",
            with(FourPlayer, HalfOpen, &|o| {
                o.turn_order = TurnOrder::Clockwise;
                o.blocked = Blocked::Lose;
                o.rail_turns = RailTurns::Any;
            }),
        ),
        (
            "2p flip first_engineer, losing attacks allowed, unguarded flag",
            with(TwoPlayer, Flip, &|o| {
                o.flip_colour = FlipColour::FirstEngineer;
                o.losing_attacks = LosingAttacks::Allowed;
                o.flag_guarded_by_mines = false;
                o.bomb_flies = true;
            }),
        ),
        (
            "4p dark qq (blocked out_at_once, quiet_plies 71, the leaver's partner plays on)",
            Rules::new(
                FourPlayer,
                Dark,
                Preset::Qq.options(FourPlayer, Dark).unwrap(),
            )
            .unwrap(),
        ),
        (
            "3p dark blocked out_at_once, clockwise",
            with(ThreePlayer, Dark, &|o| {
                o.blocked = Blocked::OutAtOnce;
                o.turn_order = TurnOrder::Clockwise;
            }),
        ),
        (
            "4p open carry_home, engineer_scout, landmine both_die",
            with(FourPlayer, Open, &|o| {
                o.win_by_flag = WinByFlag::CarryHome;
                o.engineer_scout = true;
                o.landmine = LandmineRule::BothDie;
            }),
        ),
    ]
}

/// Games per rule set whose every position is checked (the others are sampled).
const FULLY_CHECKED: usize = 6;

fn games_per_rule_set() -> usize {
    std::env::var("JUNQI_INTERCHANGE_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(160)
}

/// A new game under `rules`: random deployments and first seat, or a random deal.
fn new_game(rules: Rules, rng: &mut ChaCha8Rng) -> Game {
    let first = rng.gen_range(0..rules.seats()) as Seat;
    let game = if rules.is_flip() {
        Game::new_dealt(rules, first, rng).unwrap()
    } else {
        let ds: Vec<Deployment> = (0..rules.seats())
            .map(|_| Deployment::random(rng))
            .collect();
        Game::new_from_deployments(rules, &ds, first).unwrap()
    };
    // The QQ rule set is played with QQ's table rules too (the leaver's partner plays on), so
    // that records keep and replay them.
    let qq = Preset::Qq.table_rules();
    if Preset::of(&rules, &qq) == Some(Preset::Qq) && rules.board == BoardKind::FourPlayer {
        game.with_table_rules(qq).unwrap()
    } else {
        game
    }
}

#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    carried: usize,
    face_down: usize,
    eliminated_to_move: usize,
    events: usize,
    outcomes: [usize; 3],
    /// Seats put out for having no legal action (reason `blocked`).
    blocked_out: usize,
    /// Seats that left while the game went on.
    left_play_on: usize,
}

/// JSON and text round trips of one position; the position must come back exactly (compared
/// through `to_setup`, since the interchange forms carry neither the outcome nor which
/// identities have been announced).
fn check_position(pos: &Position, seen: &mut Seen) {
    seen.positions += 1;
    let setup = pos.to_setup();
    if !setup.captured_flags.is_empty() {
        seen.carried += 1;
    }
    if setup.pieces.iter().any(|p| p.face_down) {
        seen.face_down += 1;
    }
    let j = position_to_json(pos);
    assert_eq!(setup_from_json(&j).as_ref(), Ok(&setup), "{j}");
    let text = serde_json::to_string(&j).unwrap();
    let t = position_to_text(pos);
    assert_eq!(setup_from_text(&t).as_ref(), Ok(&setup), "{t}");
    // A finished game may leave an eliminated seat to move (RULES §7.1: `to_move` stays the seat
    // that acted); such a position reads back too, and is over.
    if pos.is_over() && pos.is_eliminated(pos.to_move()) {
        seen.eliminated_to_move += 1;
    }
    match (position_from_json_str(&text), position_from_text(&t)) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.to_setup(), setup);
            assert_eq!(b.to_setup(), setup);
            assert_eq!(a, b);
            // The outcome is not part of the position, but a won game (a side out) reads back
            // as over.
            if let Some(Outcome::Win { .. }) = pos.outcome() {
                assert!(a.is_over() && a.legal_actions().is_empty(), "{t}");
            }
        }
        (a, b) => panic!("position does not round-trip: {a:?} / {b:?}\n{t}"),
    }
}

fn check_step(pos: &Position, events: &[Event], seen: &mut Seen) {
    seen.events += events.len();
    let topo = pos.topology();
    for e in events {
        assert_eq!(event_from_json(topo, &event_to_json(topo, e)), Ok(*e));
    }
    assert_eq!(
        outcome_from_json(&outcome_to_json(pos.outcome())),
        Ok(pos.outcome())
    );
    let j = step_result_json(pos, events);
    let back = step_result_from_json(&j).unwrap();
    assert_eq!(back.position, pos.to_setup());
    assert_eq!(back.events, events);
    assert_eq!(back.outcome, pos.outcome());
}

fn check_record(game: &Game) {
    let r = game.record();
    let text = r.to_text();
    let from_text = Record::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&from_text, r);
    let j = r.to_json();
    let from_json = Record::from_json_str(&serde_json::to_string(&j).unwrap()).unwrap();
    assert_eq!(&from_json, r);
    assert_eq!(&r.replay().unwrap(), game.position(), "{text}");
    assert_eq!(&from_text.replay().unwrap(), game.position());
}

/// Positions always checked: finished games and carried flags.
fn interesting(pos: &Position) -> bool {
    pos.is_over() || (0..pos.seats() as Seat).any(|s| pos.carried_flag(s).is_some())
}

/// Play one random game: mostly uniform random legal actions, sometimes a timeout, rarely a
/// resignation, a departure, a draw or an abort; check every position and step.
fn play_random_game(rules: Rules, rng: &mut ChaCha8Rng, seen: &mut Seen, every: usize) -> Game {
    let mut game = new_game(rules, rng);
    let mut acts = Vec::new();
    let mut step = 0;
    loop {
        if step % every == 0 || interesting(game.position()) {
            check_position(game.position(), seen);
        }
        step += 1;
        if game.position().is_over() {
            break;
        }
        let roll: f64 = rng.gen();
        let seats = rules.seats() as Seat;
        let events = if roll < 0.01 {
            game.timeout().unwrap()
        } else if roll < 0.0115 {
            let seat = rng.gen_range(0..seats);
            match game.resign(seat) {
                Ok(ev) => ev,
                Err(_) => {
                    assert!(game.position().is_eliminated(seat));
                    continue;
                }
            }
        } else if roll < 0.0125 {
            let seat = rng.gen_range(0..seats);
            match game.leave(seat) {
                Ok(ev) => ev,
                Err(_) => continue,
            }
        } else if roll < 0.013 {
            game.agree_draw().unwrap();
            Vec::new()
        } else if roll < 0.0133 {
            game.abort().unwrap();
            Vec::new()
        } else {
            acts.clear();
            game.position().legal_actions_into(&mut acts);
            assert!(!acts.is_empty(), "{:?}", game.position());
            game.play(acts[rng.gen_range(0..acts.len())]).unwrap()
        };
        for e in &events {
            if let Event::Eliminated { reason, .. } = e {
                match reason {
                    EliminationReason::Blocked => seen.blocked_out += 1,
                    EliminationReason::Left if !game.position().is_over() => seen.left_play_on += 1,
                    _ => {}
                }
            }
        }
        if step % every == 0 || interesting(game.position()) {
            check_step(game.position(), &events, seen);
        }
    }
    let o = game.position().outcome().unwrap();
    seen.outcomes[match o {
        Outcome::Win { .. } => 0,
        Outcome::Draw { .. } => 1,
        Outcome::Aborted => 2,
    }] += 1;
    assert_eq!(game.record().result, Some(o));
    game
}

#[test]
fn random_games_round_trip_in_every_format() {
    let n = games_per_rule_set();
    let mut total = Seen::default();
    for (i, (name, rules)) in rule_sets().into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + i as u64);
        let mut seen = Seen::default();
        for g in 0..n {
            // Every position and step of the first games; a sample of the others.
            let every = if g < FULLY_CHECKED { 1 } else { 40 };
            let game = play_random_game(rules, &mut rng, &mut seen, every);
            check_record(&game);
        }
        if n >= 20 {
            if rules.carry_home() {
                assert!(seen.carried > 0, "{name}: no carried flag seen");
            }
            if rules.is_flip() {
                assert!(seen.face_down > 0, "{name}");
            }
            assert!(seen.outcomes[0] > 0, "{name}: no win seen");
            if rules.options.blocked == Blocked::OutAtOnce {
                assert!(seen.blocked_out > 0, "{name}: no seat put out as blocked");
            }
            if name.contains("qq") {
                assert!(
                    seen.left_play_on > 0,
                    "{name}: no leaver whose partner played on"
                );
            }
        }
        eprintln!("{name}: {seen:?}");
        total.positions += seen.positions;
        total.eliminated_to_move += seen.eliminated_to_move;
        for k in 0..3 {
            total.outcomes[k] += seen.outcomes[k];
        }
    }
    eprintln!(
        "{} positions checked, of which {} finished with an eliminated seat to move",
        total.positions, total.eliminated_to_move
    );
}

/// A record whose entries are changed must fail to replay with a message naming the entry, or
/// replay to some position: never panic.
#[test]
fn corrupted_records_fail_cleanly() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    for (_, rules) in rule_sets() {
        let mut seen = Seen::default();
        let game = play_random_game(rules, &mut rng, &mut seen, 1);
        let r = game.record();
        for _ in 0..20 {
            let mut bad = r.clone();
            if bad.entries.is_empty() {
                break;
            }
            let i = rng.gen_range(0..bad.entries.len());
            let j = rng.gen_range(0..bad.entries.len());
            bad.entries.swap(i, j);
            if i != j && bad.entries[i] != bad.entries[j] {
                if let Err(e) = bad.replay() {
                    assert!(e.starts_with("entry ") || e.contains("result"), "{e}");
                }
            }
            bad.entries.truncate(i.min(j));
            bad.result = None;
            bad.replay().unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Malformed inputs.

fn sample_positions() -> &'static Vec<Position> {
    static POOL: OnceLock<Vec<Position>> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut out = Vec::new();
        for (_, rules) in rule_sets() {
            let mut pos = Position::random_start(rules, &mut rng);
            for step in 0..120 {
                if step % 40 == 0 {
                    out.push(pos.clone());
                }
                let acts = pos.legal_actions();
                if acts.is_empty() {
                    break;
                }
                pos.play(acts[rng.gen_range(0..acts.len())], &mut ())
                    .unwrap();
            }
        }
        out
    })
}

fn sample_records() -> &'static Vec<String> {
    static POOL: OnceLock<Vec<String>> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let mut out = Vec::new();
        for (_, rules) in rule_sets() {
            let mut game = new_game(rules, &mut rng);
            for _ in 0..12 {
                let acts = game.position().legal_actions();
                if acts.is_empty() {
                    break;
                }
                game.play(acts[rng.gen_range(0..acts.len())]).unwrap();
            }
            game.resign(game.position().to_move()).unwrap();
            out.push(game.record().to_text());
        }
        out
    })
}

fn json_with(board: &str, mode: &str, pieces: Value) -> Value {
    json!({"board": board, "mode": mode, "to_move": 0, "pieces": pieces})
}

#[test]
fn malformed_positions_give_helpful_errors() {
    let err = |v: Value| position_from_json(&v).unwrap_err();
    let bomb = |at: &str, seat: u8| json!({"at": at, "seat": seat, "role": "bomb"});
    let cases: Vec<(String, String, &str)> = vec![
        (
            err(json_with(
                "two_player",
                "dark",
                json!([{"at": "a1", "seat": 0, "role": "sapper"}]),
            )),
            position_from_text("two_player dark 0 a1=0S").unwrap_err(),
            "unknown role",
        ),
        (
            err(json_with(
                "two_player",
                "dark",
                json!([{"at": "f1", "seat": 0, "role": "bomb"}]),
            )),
            position_from_text("two_player dark 0 f1=0B").unwrap_err(),
            "unknown square \"f1\" on the two_player board",
        ),
        (
            err(json_with(
                "two_player",
                "dark",
                json!([bomb("a1", 0), bomb("a1", 1)]),
            )),
            position_from_text("two_player dark 0 a1=0B a1=1B").unwrap_err(),
            "two pieces on a1",
        ),
        (
            err(json_with(
                "two_player",
                "dark",
                json!([bomb("a1", 0), bomb("a2", 0), bomb("a3", 0)]),
            )),
            position_from_text("two_player dark 0 a1=0B a2=0B a3=0B").unwrap_err(),
            "more than 2 bomb (the piece on a3 is one too many)",
        ),
        (
            err(json_with("two_player", "dark", json!([bomb("a1", 2)]))),
            position_from_text("two_player dark 0 a1=2B").unwrap_err(),
            "seat 2 does not exist on the two_player board",
        ),
        (
            err(json_with(
                "two_player",
                "open",
                json!([{"at": "a1", "seat": 0, "role": "bomb", "face_down": true}]),
            )),
            position_from_text("two_player open 0 a1=0B*").unwrap_err(),
            "face down, which only flip play allows",
        ),
        (
            err(json_with("four_player", "flip", json!([]))),
            position_from_text("four_player flip 0").unwrap_err(),
            "flip on two_player only",
        ),
        (
            err(json_with(
                "two_player",
                "dark",
                json!([{"at": "g7", "seat": 0, "role": "bomb"}]),
            )),
            position_from_text("two_player dark 0 g7=0B").unwrap_err(),
            "unknown square \"g7\"",
        ),
    ];
    for (j, t, needle) in cases {
        assert!(j.contains(needle), "JSON: expected {needle:?} in {j:?}");
        assert!(t.contains(needle), "text: expected {needle:?} in {t:?}");
    }
    // Truncated JSON and text, at every length: an error, never a panic.
    for pos in sample_positions().iter().take(6) {
        let j = serde_json::to_string(&position_to_json(pos)).unwrap();
        for cut in (0..j.len()).step_by(7) {
            if let Some(prefix) = j.get(..cut) {
                let e = position_from_json_str(prefix).unwrap_err();
                assert!(e.contains("JSON"), "{e}");
            }
        }
        let t = position_to_text(pos);
        for cut in 0..t.len() {
            if let Some(prefix) = t.get(..cut) {
                // A cut between tokens can be a valid position with fewer pieces.
                let _ = position_from_text(prefix);
            }
        }
    }
}

/// Change `s` at a few places: delete, duplicate or replace a character.
fn mutate(s: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for &(at, op, c) in edits {
        if chars.is_empty() {
            chars.push(c);
            continue;
        }
        let i = at % chars.len();
        match op % 4 {
            0 => {
                chars.remove(i);
            }
            1 => chars.insert(i, chars[i]),
            2 => chars[i] = c,
            _ => chars.insert(i, c),
        }
    }
    chars.into_iter().collect()
}

fn interesting_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            ' ', '=', '*', '^', '@', ',', '-', '0', '1', '2', '3', '9', 'B', 'L', 'F', 'a', 'q',
            '\n', '#', '{', '}', '"', ':', '[', ']', 'é',
        ]),
        any::<char>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_position_text_never_panics(
        k in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), interesting_char()), 1..4),
    ) {
        let pos = k.get(sample_positions());
        let t = mutate(&position_to_text(pos), &edits);
        if let Ok(p) = position_from_text(&t) {
            let again = position_from_text(&position_to_text(&p)).unwrap();
            prop_assert_eq!(again.to_setup(), p.to_setup());
            for a in p.legal_actions() {
                let mut q = p.clone();
                q.play(a, &mut ()).unwrap();
            }
        }
    }

    #[test]
    fn mutated_position_json_never_panics(
        k in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), interesting_char()), 1..4),
    ) {
        let pos = k.get(sample_positions());
        let j = mutate(&serde_json::to_string(&position_to_json(pos)).unwrap(), &edits);
        if let Ok(p) = position_from_json_str(&j) {
            let again = position_from_json(&position_to_json(&p)).unwrap();
            prop_assert_eq!(again.to_setup(), p.to_setup());
            for a in p.legal_actions() {
                let mut q = p.clone();
                q.play(a, &mut ()).unwrap();
            }
        }
    }

    #[test]
    fn mutated_records_never_panic(
        k in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), interesting_char()), 1..4),
    ) {
        let original: &String = k.get(sample_records());
        let text = mutate(original, &edits);
        if let Ok(r) = Record::from_text(&text) {
            prop_assert_eq!(Record::from_text(&r.to_text()), Ok(r.clone()));
            prop_assert_eq!(Record::from_json(&r.to_json()), Ok(r.clone()));
            if let Ok(end) = r.replay() {
                let g = Game::from_record(r.clone()).unwrap();
                prop_assert_eq!(g.position(), &end);
            }
        }
    }

    #[test]
    fn arbitrary_action_text_never_panics(s in "\\PC{0,12}", k in any::<prop::sample::Index>()) {
        let pos = k.get(sample_positions());
        let topo = pos.topology();
        if let Ok(a) = action_from_text(topo, &s) {
            prop_assert_eq!(action_from_text(topo, &action_to_text(topo, a)), Ok(a));
            let _ = pos.check(a);
        }
        let _ = Entry::from_text(topo, &s);
    }
}

#[test]
fn start_positions_in_records_must_match_the_rules() {
    let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Flip).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let game = Game::new_dealt(rules, 0, &mut rng).unwrap();
    let mut r = game.record().clone();
    if let Start::Position(s) = &mut r.start {
        s.rules.options.bomb_flies = true;
    }
    assert!(r.replay().unwrap_err().contains("rules differ"));
    let text = r.to_text();
    assert!(Record::from_text(&text)
        .unwrap_err()
        .contains("differ from the header"));
    assert!(Record::from_json(&r.to_json())
        .unwrap_err()
        .contains("differ from the record"));
}
