//! The codes and args of the core's errors as real deployments, setups and actions produce them
//! (the table "Error codes" of `docs/formats.md`): each test builds the faulty input and checks
//! the code, the args and the English text.

mod common;
use common::*;
use junqi_core::{
    Action, Deployment, DeploymentError, Entry, Game, IllegalAction, Leaver, Options, Rules, Setup,
    SetupError, Square, SquareKind, TableRules,
};
use serde_json::Value;
use std::fmt::Display;

/// The three error types, seen through their code and args.
trait Coded: Display {
    fn code_and_args(&self) -> (&'static str, Value);
}

impl Coded for DeploymentError {
    fn code_and_args(&self) -> (&'static str, Value) {
        (self.code(), Value::Object(self.args()))
    }
}

impl Coded for SetupError {
    fn code_and_args(&self) -> (&'static str, Value) {
        (self.code(), Value::Object(self.args()))
    }
}

impl Coded for IllegalAction {
    fn code_and_args(&self) -> (&'static str, Value) {
        (self.code(), Value::Object(self.args()))
    }
}

/// `result` is an error with this code, these args and this English text.
#[track_caller]
fn assert_error<T: std::fmt::Debug, E: Coded>(
    result: Result<T, E>,
    code: &str,
    args: Value,
    text: &str,
) {
    let e = match result {
        Ok(v) => panic!("accepted ({code} expected): {v:?}"),
        Err(e) => e,
    };
    assert_eq!(e.code_and_args(), (code, args), "{e}");
    assert_eq!(e.to_string(), text);
}

// ---- deployments -----------------------------------------------------------------------------

/// A legal layout: rows front (0) to HQ row (5), `.` at the camps; the flag on local (5,1).
const LAYOUT: &str = "98776/6.5.5/44.33/3.B.B/22211/1FLLL";

fn layout(text: &str) -> Deployment {
    Deployment::from_text(text).unwrap()
}

fn dark(board: BoardKind) -> Rules {
    Rules::defaults(board, Mode::Dark).unwrap()
}

#[test]
fn a_piece_in_a_camp_is_camp_not_empty() {
    // Local (1,1) is b5 for South and d8 for North.
    let d = layout("98776/665.5/44.33/3.B.B/22211/1FLLL");
    assert_error(
        d.validate(BoardKind::TwoPlayer, 0),
        "deploy.camp_not_empty",
        json!({"square": "b5", "role": "brigadier"}),
        "b5 is a camp and must start empty, but holds a brigadier",
    );
    assert_error(
        d.validate(BoardKind::TwoPlayer, 1),
        "deploy.camp_not_empty",
        json!({"square": "d8", "role": "brigadier"}),
        "d8 is a camp and must start empty, but holds a brigadier",
    );
}

#[test]
fn a_seat_of_a_start_keeps_its_layout_code_and_adds_the_seat() {
    let bad = layout("98776/665.5/44.33/3.B.B/22211/1FLLL");
    let rules = dark(BoardKind::TwoPlayer);
    assert_error(
        Position::from_deployments(rules, &[layout(LAYOUT), bad], 0),
        "deploy.camp_not_empty",
        json!({"square": "d8", "role": "brigadier", "seat": 1}),
        "seat 1: d8 is a camp and must start empty, but holds a brigadier",
    );
    let e = Game::new_from_deployments(rules, &[bad, layout(LAYOUT)], 0).expect_err("refused");
    assert_eq!(
        e,
        DeploymentError::OfSeat {
            seat: 0,
            error: Box::new(DeploymentError::CampNotEmpty {
                square: "b5".into(),
                role: Role::Brigadier
            })
        }
    );
}

#[test]
fn layout_rules_each_have_their_code() {
    let south = |text: &str| layout(text).validate(BoardKind::TwoPlayer, 0);
    assert_error(
        south("98776/6.5.5/44.33/3.B.B/22211/1FLL."),
        "deploy.square_empty",
        json!({"square": "e1"}),
        "e1 is empty: all 25 non-camp squares need a piece",
    );
    assert_error(
        south("98776/6.5.5/44.33/3.B.B/22211/F1LLL"),
        "deploy.flag_not_in_headquarters",
        json!({"square": "a1", "hqs": ["b1", "d1"]}),
        "the flag on a1 must stand in a headquarters (b1 or d1)",
    );
    // West on the four-player board: its own HQs.
    assert_error(
        layout("98776/6.5.5/44.33/3.B.B/22211/F1LLL").validate(BoardKind::FourPlayer, 3),
        "deploy.flag_not_in_headquarters",
        json!({"square": "a11", "hqs": ["a10", "a8"]}),
        "the flag on a11 must stand in a headquarters (a10 or a8)",
    );
    assert_error(
        south("98776/6.5.5/44.33/L.B.B/22211/1F3LL"),
        "deploy.landmine_not_in_last_rows",
        json!({"square": "a3"}),
        "the landmine on a3 must stand in the last two rows",
    );
    assert_error(
        south("B8776/6.5.5/44.33/3.9.B/22211/1FLLL"),
        "deploy.bomb_in_front_row",
        json!({"square": "a6"}),
        "the bomb on a6 may not stand in the front row",
    );
    assert_error(
        south("98776/6.5.5/44.93/3.B.B/22211/1FLLL"),
        "deploy.wrong_count",
        json!({"role": "marshal", "want": 1, "have": 2}),
        "a deployment needs 1 marshal (司令), this one has 2",
    );
    assert_error(
        layout(LAYOUT).validate(BoardKind::TwoPlayer, 2),
        "deploy.no_such_seat",
        json!({"seat": 2, "board": "two_player"}),
        "seat 2 does not exist on the two_player board",
    );
}

#[test]
fn the_text_form_of_a_layout_has_its_codes() {
    assert_error(
        Deployment::from_text("98776/6.5.5/44.33/3.B.B/22211"),
        "deploy.wrong_row_count",
        json!({"got": 5}),
        "a deployment has 6 rows separated by '/', got 5",
    );
    assert_error(
        Deployment::from_text("98776/6.5.5/44.3/3.B.B/22211/1FLLL"),
        "deploy.wrong_row_length",
        json!({"row": 2, "text": "44.3"}),
        "row 2 of the deployment must have 5 squares, got \"44.3\"",
    );
    assert_error(
        Deployment::from_text("9877X/6.5.5/44.33/3.B.B/22211/1FLLL"),
        "deploy.unknown_piece_code",
        json!({"code": "X", "row": 0, "column": 4}),
        "unknown piece code 'X' in row 0, column 4 (codes: 9…1, B, L, F, '.')",
    );
}

#[test]
fn starts_have_their_codes() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let d = layout(LAYOUT);
    let flip = Rules::defaults(BoardKind::TwoPlayer, Mode::Flip).unwrap();
    assert_error(
        Position::from_deployments(flip, &[d, d], 0),
        "deploy.flip_has_no_deployment",
        json!({}),
        "flip play has no deployment: use Position::deal",
    );
    assert_error(
        Position::deal(dark(BoardKind::TwoPlayer), 0, &mut rng),
        "deploy.deal_needs_flip",
        json!({}),
        "only flip play is dealt",
    );
    assert_error(
        Position::from_deployments(dark(BoardKind::FourPlayer), &[d, d], 0),
        "deploy.wrong_deployment_count",
        json!({"board": "four_player", "want": 4, "got": 2}),
        "the four_player board needs 4 deployments, got 2",
    );
    assert_error(
        Position::from_deployments(dark(BoardKind::TwoPlayer), &[d, d], 2),
        "deploy.no_such_first_seat",
        json!({"seat": 2}),
        "seat 2 cannot move first: no such seat",
    );
    assert_error(
        Position::deal(flip, 2, &mut rng),
        "deploy.no_such_first_seat",
        json!({"seat": 2}),
        "seat 2 cannot move first: no such seat",
    );
}

// ---- setups ----------------------------------------------------------------------------------

fn setup_error(p: Pos) -> Result<Position, SetupError> {
    p.try_build()
}

fn from_setup(s: &Setup) -> Result<Position, SetupError> {
    Position::from_setup(s)
}

#[test]
fn pieces_of_a_setup_have_their_codes() {
    assert_error(
        setup_error(Pos::two().with(&[("a2", 0, Captain), ("a2", 1, Captain)])),
        "setup.two_pieces",
        json!({"square": "a2"}),
        "two pieces on a2",
    );
    assert_error(
        setup_error(Pos::two().with(&[
            ("a1", 0, Engineer),
            ("a2", 0, Engineer),
            ("a3", 0, Engineer),
            ("a4", 0, Engineer),
        ])),
        "setup.too_many",
        json!({"seat": 0, "role": "engineer", "max": 3, "square": "a4"}),
        "seat 0 has more than 3 engineer (the piece on a4 is one too many)",
    );
    assert_error(
        setup_error(Pos::two().with(&[("a2", 2, Captain)])),
        "setup.no_such_seat",
        json!({"square": "a2", "seat": 2, "board": "two_player"}),
        "the piece on a2 belongs to seat 2, which does not exist on the two_player board",
    );
    assert_error(
        setup_error(Pos::two().down(&[("a2", 0, Captain)])),
        "setup.face_down_not_flip",
        json!({"square": "a2"}),
        "the piece on a2 is face down, which only flip play allows",
    );
    assert_error(
        setup_error(Pos::four().with(&[("g2", 1, Captain)]).eliminated(&[1])),
        "setup.eliminated_seat_has_piece",
        json!({"seat": 1, "square": "g2"}),
        "seat 1 is eliminated but has a piece on g2 (an eliminated seat's pieces leave a multi-seat board)",
    );
    let mut s = Pos::two().with(&[("a2", 0, Captain)]).setup();
    s.pieces[0].at = Square(60);
    assert_error(
        from_setup(&s),
        "setup.square_off_board",
        json!({"index": 60, "board": "two_player"}),
        "square index 60 is not on the two_player board",
    );
}

#[test]
fn seats_and_counters_of_a_setup_have_their_codes() {
    let one = || Pos::two().with(&[("a2", 0, Captain)]);
    assert_error(
        setup_error(one().turn(2)),
        "setup.to_move_not_a_seat",
        json!({"to_move": 2, "board": "two_player", "max": 1}),
        "to_move 2 is not a seat of the two_player board (seats 0 to 1)",
    );
    assert_error(
        setup_error(one().eliminated(&[3])),
        "setup.no_such_eliminated_seat",
        json!({"seat": 3, "board": "two_player"}),
        "eliminated seat 3 does not exist on the two_player board",
    );
    assert_error(
        setup_error(one().eliminated(&[1, 1])),
        "setup.eliminated_twice",
        json!({"seat": 1}),
        "seat 1 is listed twice in eliminated",
    );
    assert_error(
        setup_error(one().skips(&[0, 0, 0])),
        "setup.skips_length",
        json!({"want": 2, "got": 3}),
        "skips must list one count per seat (2), got 3",
    );
    assert_error(
        setup_error(one().skips(&[0, 256])),
        "setup.skips_too_large",
        json!({"seat": 1, "skips": 256}),
        "skips of seat 1 is too large (256)",
    );
    assert_error(
        setup_error(one().colours([0, 1])),
        "setup.flip_colours_not_flip",
        json!({}),
        "flip_colours is only for flip play",
    );
    assert_error(
        setup_error(Pos::flip().with(&[("a2", 0, Captain)]).colours([0, 2])),
        "setup.bad_flip_colours",
        json!({"colours": [0, 2]}),
        "flip_colours must be [0, 1] or [1, 0], got [0, 2]",
    );
    let mut s = one().setup();
    s.rules = Rules {
        board: BoardKind::TwoPlayer,
        mode: Mode::HalfOpen,
        options: Options::defaults(BoardKind::TwoPlayer, Mode::HalfOpen),
    };
    assert_error(
        from_setup(&s),
        "setup.mode_not_on_board",
        json!({"mode": "half_open", "board": "two_player"}),
        "mode half_open is not played on the two_player board (half_open is played on four_player and six_player, flip on two_player only)",
    );
}

#[test]
fn carried_flags_of_a_setup_have_their_codes() {
    let carry = || Pos::two().opts(json!({"win_by_flag": "carry_home"}));
    assert_error(
        setup_error(Pos::two().carrier("a2", 0, Captain, 1, "b12")),
        "setup.carry_not_allowed",
        json!({"square": "a2"}),
        "the piece on a2 carries a flag, which only win_by_flag = carry_home allows",
    );
    assert_error(
        setup_error(carry().carrier("a2", 0, Captain, 0, "b1")),
        "setup.cannot_carry_flag_of",
        json!({"square": "a2", "flag_of": 0}),
        "the piece on a2 cannot carry the flag of seat 0",
    );
    assert_error(
        setup_error(carry().carrier("a2", 0, Bomb, 1, "b12")),
        "setup.role_cannot_carry",
        json!({"role": "bomb", "square": "a2"}),
        "the bomb on a2 cannot carry a flag",
    );
    assert_error(
        setup_error(
            carry()
                .carrier("a2", 0, Captain, 1, "b12")
                .carrier("a3", 0, Major, 1, "b12"),
        ),
        "setup.flag_carried_twice",
        json!({"flag_of": 1}),
        "the flag of seat 1 is carried by two pieces",
    );
    assert_error(
        setup_error(
            carry()
                .carrier("a2", 0, Captain, 1, "b12")
                .with(&[("d12", 1, Flag)]),
        ),
        "setup.flag_on_board_and_carried",
        json!({"flag_of": 1}),
        "the flag of seat 1 is both on the board and carried",
    );
    let carried = carry().carrier("a2", 0, Captain, 1, "b12").setup();
    let mut s = carried.clone();
    s.captured_flags.clear();
    assert_error(
        from_setup(&s),
        "setup.capture_square_missing",
        json!({"flag_of": 1}),
        "captured_flags does not say where the flag of seat 1 was captured",
    );
    let mut s = carried.clone();
    s.captured_flags[0].1 = Square(60);
    assert_error(
        from_setup(&s),
        "setup.capture_square_off_board",
        json!({"index": 60, "board": "two_player"}),
        "captured_flags names a square not on the two_player board",
    );
    let mut s = carried.clone();
    s.captured_flags.push((0, s.captured_flags[0].1));
    assert_error(
        from_setup(&s),
        "setup.captured_flag_not_carried",
        json!({"flag_of": 0}),
        "captured_flags lists seat 0, but no piece carries its flag",
    );
    let mut s = carried;
    s.captured_flags.push(s.captured_flags[0]);
    assert_error(
        from_setup(&s),
        "setup.captured_flags_twice",
        json!({}),
        "captured_flags lists a seat twice",
    );
}

// ---- actions ---------------------------------------------------------------------------------

#[track_caller]
fn check(p: &Position, text: &str) -> Result<(), IllegalAction> {
    let r = p.check(action(p, text));
    // `play` agrees, and a refusal changes nothing.
    let mut q = p.clone();
    assert_eq!(q.play(action(p, text), &mut Vec::new()), r);
    if r.is_err() {
        assert_eq!(&q, p);
    }
    r
}

#[test]
fn a_move_across_the_mountain_cannot_move() {
    // b6-b7 is no edge: the enemy right across cannot be attacked.
    let p = Pos::two()
        .with(&[("b6", 0, Captain), ("b7", 1, Lieutenant)])
        .build();
    assert_error(
        check(&p, "b6-b7"),
        "action.cannot_move",
        json!({"role": "captain", "from": "b6", "to": "b7", "why": "mountain"}),
        "the captain on b6 cannot move to b7: the mountain lies between: files b and d do not cross it",
    );
    // The same step on file c crosses.
    let p = Pos::two()
        .with(&[("c6", 0, Captain), ("c7", 1, Lieutenant)])
        .build();
    assert_eq!(check(&p, "c6-c7"), Ok(()));
}

#[test]
fn a_move_onto_a_friend_or_into_an_occupied_camp_cannot_move() {
    let p = Pos::two()
        .with(&[
            ("a3", 0, Captain),
            ("a4", 0, Lieutenant),
            ("c3", 0, Major),
            ("c4", 1, Lieutenant),
        ])
        .build();
    assert_error(
        check(&p, "a3-a4"),
        "action.cannot_move",
        json!({"role": "captain", "from": "a3", "to": "a4", "why": "friend_there"}),
        "the captain on a3 cannot move to a4: a piece of its own side stands there",
    );
    // c4 is a camp: its enemy cannot be attacked there.
    assert_error(
        check(&p, "c3-c4"),
        "action.cannot_move",
        json!({"role": "major", "from": "c3", "to": "c4", "why": "camp_occupied"}),
        "the major on c3 cannot move to c4: a piece in a camp cannot be attacked",
    );
}

#[test]
fn a_move_onto_a_partner_cannot_move() {
    // Four-player: seat 2's piece next to one of seat 0's (not in a camp, where no piece is
    // attacked).
    let base = Pos::four().with(&[("g2", 0, Captain)]).build();
    let t = base.topology();
    let to = t
        .neighbours(sq(&base, "g2"))
        .find(|&s| t.kind(s) != SquareKind::Camp)
        .expect("g2 has a neighbour that is no camp");
    let to = t.name(to).to_string();
    let p = Pos::four()
        .with(&[("g2", 0, Captain), (to.as_str(), 2, Captain)])
        .build();
    let text = format!("g2-{to}");
    assert_error(
        check(&p, &text),
        "action.cannot_move",
        json!({"role": "captain", "from": "g2", "to": to, "why": "friend_there"}),
        &format!("the captain on g2 cannot move to {to}: a piece of its own side stands there"),
    );
    // An enemy (seat 1) there is attacked.
    let p = Pos::four()
        .with(&[("g2", 0, Captain), (to.as_str(), 1, Captain)])
        .build();
    assert_eq!(check(&p, &text), Ok(()));
}

#[test]
fn pieces_that_may_not_move_have_their_codes() {
    let p = Pos::two()
        .with(&[
            ("b1", 0, Captain),
            ("c3", 0, Landmine),
            ("e1", 0, Captain),
            ("c10", 1, Captain),
        ])
        .build();
    assert_error(
        check(&p, "b1-a1"),
        "action.headquarters_locked",
        json!({"square": "b1"}),
        "the piece on b1 stands in a headquarters and may not leave it",
    );
    assert_error(
        check(&p, "c3-c2"),
        "action.never_moves",
        json!({"role": "landmine", "square": "c3"}),
        "the landmine on c3 never moves",
    );
    assert_error(
        check(&p, "a3-a4"),
        "action.no_piece",
        json!({"square": "a3"}),
        "there is no piece on a3",
    );
    assert_error(
        check(&p, "c10-c11"),
        "action.not_your_piece",
        json!({"square": "c10", "seat": 0}),
        "the piece on c10 is not seat 0's",
    );
    assert_error(
        check(&p, "flip e1"),
        "action.no_flips",
        json!({}),
        "flips exist only in flip play",
    );
    let off = Action::Move {
        from: sq(&p, "e1"),
        to: Square(200),
    };
    assert_error(
        p.check(off),
        "action.square_off_board",
        json!({"index": 200}),
        "square index 200 is not on the board",
    );
    // With `hq_exit = free` the HQ piece moves.
    let p = Pos::two()
        .opts(json!({"hq_exit": "free"}))
        .with(&[("b1", 0, Captain), ("c10", 1, Captain)])
        .build();
    assert_eq!(check(&p, "b1-a1"), Ok(()));
}

#[test]
fn flip_play_has_its_codes() {
    let p = Pos::flip()
        .down(&[("a1", 0, Captain), ("b2", 1, Engineer)])
        .with(&[("c3", 0, Captain)])
        .build();
    assert_error(
        check(&p, "c3-c2"),
        "action.colours_not_settled",
        json!({}),
        "colours are not settled yet: only flips are legal",
    );
    assert_error(
        check(&p, "flip a2"),
        "action.nothing_to_flip",
        json!({"square": "a2"}),
        "there is no piece on a2 to flip",
    );
    assert_error(
        check(&p, "flip c3"),
        "action.already_face_up",
        json!({"square": "c3"}),
        "the piece on c3 is already face up",
    );
    let p = Pos::flip()
        .down(&[("a1", 0, Captain), ("b2", 1, Engineer)])
        .with(&[("c3", 0, Captain), ("c10", 1, Captain)])
        .colours([0, 1])
        .build();
    assert_error(
        check(&p, "a1-a2"),
        "action.face_down",
        json!({"square": "a1"}),
        "the piece on a1 is face down",
    );
    assert_eq!(check(&p, "c3-c2"), Ok(()));
}

#[test]
fn a_finished_game_refuses_with_its_outcome() {
    let mut p = Pos::two()
        .with(&[("a3", 0, Captain), ("c10", 1, Captain)])
        .build();
    p.agree_draw().unwrap();
    assert_error(
        check(&p, "a3-a4"),
        "action.game_over",
        json!({"outcome": {"result": "draw", "reason": "agreement"}}),
        "the game is over (Draw { reason: Agreement })",
    );
    assert_error(
        p.abort(),
        "action.game_over",
        json!({"outcome": {"result": "draw", "reason": "agreement"}}),
        "the game is over (Draw { reason: Agreement })",
    );
    // Read back with a side out and no outcome recorded.
    let p = Pos::two()
        .with(&[("a5", 0, Engineer), ("a8", 1, Captain)])
        .eliminated(&[1])
        .build();
    assert_error(
        check(&p, "a5-a6"),
        "action.side_eliminated",
        json!({}),
        "the game is over: a side is eliminated",
    );
}

#[test]
fn table_actions_and_entries_have_their_codes() {
    let mut p = Pos::four()
        .with(&[("g6", 0, Engineer), ("k12", 2, Engineer)])
        .eliminated(&[3])
        .build();
    assert_error(
        p.resign(4, &mut Vec::new()),
        "action.no_such_seat",
        json!({"seat": 4}),
        "seat 4 does not exist",
    );
    assert_error(
        p.leave(3, Leaver::Abort, &mut Vec::new()),
        "action.already_out",
        json!({"seat": 3}),
        "seat 3 is already out of the game",
    );
    let a = action(&p, "g6-g5");
    assert_error(
        Entry::Action { seat: 1, action: a }.apply(&mut p, &TableRules::default(), &mut Vec::new()),
        "action.not_your_turn",
        json!({"to_move": 0, "seat": 1}),
        "it is seat 0's turn, not seat 1's",
    );
    assert_error(
        Entry::Timeout { seat: 2 }.apply(&mut p, &TableRules::default(), &mut Vec::new()),
        "action.not_your_turn",
        json!({"to_move": 0, "seat": 2}),
        "it is seat 0's turn, not seat 2's",
    );
}
