//! The typed errors of the core ([`DeploymentError`], [`SetupError`], [`IllegalAction`]): one
//! constructed value per variant, with its code, args and English text, and the table "Error
//! codes" of `docs/formats.md` checked against them.
//!
//! The `*_variant` functions match exhaustively, so a new variant does not compile until it is
//! given an index here, and the coverage checks then fail until it has a sample.

use crate::deploy::DeploymentError;
use crate::event::{DrawReason, Outcome};
use crate::options::{Options, Rules};
use crate::position::SetupError;
use crate::referee::IllegalAction;
use crate::role::Role;
use crate::types::{BoardKind, Mode};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// One constructed error: its code, its args and its English text, and whether it is the seat
/// wrapper of a deployment error (which borrows its inner error's code).
struct Sample {
    code: &'static str,
    args: Value,
    message: String,
    of_seat: bool,
}

fn sample(
    code: &'static str,
    args: Value,
    message: &str,
    (got_code, got_args, got_message): (&'static str, Value, String),
) -> Sample {
    assert_eq!(got_code, code, "code of {message:?}");
    assert_eq!(got_args, args, "args of {code}");
    assert_eq!(got_message, message, "English text of {code}");
    Sample {
        code,
        args,
        message: message.to_string(),
        of_seat: false,
    }
}

fn seen<E: std::error::Error>(
    e: &E,
    code: &'static str,
    args: serde_json::Map<String, Value>,
) -> (&'static str, Value, String) {
    // Each is a std::error::Error with no source (a wrapped error is part of the text).
    assert!(e.source().is_none());
    (code, Value::Object(args), e.to_string())
}

fn deploy_variant(e: &DeploymentError) -> usize {
    match e {
        DeploymentError::NoSuchSeat { .. } => 0,
        DeploymentError::CampNotEmpty { .. } => 1,
        DeploymentError::SquareEmpty { .. } => 2,
        DeploymentError::FlagNotInHeadquarters { .. } => 3,
        DeploymentError::LandmineNotInLastRows { .. } => 4,
        DeploymentError::BombInFrontRow { .. } => 5,
        DeploymentError::WrongCount { .. } => 6,
        DeploymentError::WrongRowCount { .. } => 7,
        DeploymentError::WrongRowLength { .. } => 8,
        DeploymentError::UnknownPieceCode { .. } => 9,
        DeploymentError::FlipHasNoDeployment => 10,
        DeploymentError::DealNeedsFlip => 11,
        DeploymentError::WrongDeploymentCount { .. } => 12,
        DeploymentError::NoSuchFirstSeat { .. } => 13,
        DeploymentError::OfSeat { .. } => 14,
    }
}
const DEPLOY_VARIANTS: usize = 15;

fn setup_variant(e: &SetupError) -> usize {
    match e {
        SetupError::ModeNotOnBoard { .. } => 0,
        SetupError::ToMoveNotASeat { .. } => 1,
        SetupError::NoSuchEliminatedSeat { .. } => 2,
        SetupError::EliminatedTwice { .. } => 3,
        SetupError::SkipsLength { .. } => 4,
        SetupError::SkipsTooLarge { .. } => 5,
        SetupError::FlipColoursNotFlip => 6,
        SetupError::BadFlipColours { .. } => 7,
        SetupError::SquareOffBoard { .. } => 8,
        SetupError::NoSuchSeat { .. } => 9,
        SetupError::TwoPieces { .. } => 10,
        SetupError::FaceDownNotFlip { .. } => 11,
        SetupError::EliminatedSeatHasPiece { .. } => 12,
        SetupError::TooMany { .. } => 13,
        SetupError::CarryNotAllowed { .. } => 14,
        SetupError::CannotCarryFlagOf { .. } => 15,
        SetupError::RoleCannotCarry { .. } => 16,
        SetupError::FlagCarriedTwice { .. } => 17,
        SetupError::CarriesTwoFlags { .. } => 18,
        SetupError::FlagOnBoardAndCarried { .. } => 19,
        SetupError::CaptureSquareMissing { .. } => 20,
        SetupError::CaptureSquareOffBoard { .. } => 21,
        SetupError::CapturedFlagNotCarried { .. } => 22,
        SetupError::CapturedFlagsTwice => 23,
    }
}
const SETUP_VARIANTS: usize = 24;

fn action_variant(e: &IllegalAction) -> usize {
    match e {
        IllegalAction::GameOver { .. } => 0,
        IllegalAction::SideEliminated => 1,
        IllegalAction::SquareOffBoard { .. } => 2,
        IllegalAction::NoFlips => 3,
        IllegalAction::NothingToFlip { .. } => 4,
        IllegalAction::AlreadyFaceUp { .. } => 5,
        IllegalAction::NoPiece { .. } => 6,
        IllegalAction::ColoursNotSettled => 7,
        IllegalAction::FaceDown { .. } => 8,
        IllegalAction::NotYourPiece { .. } => 9,
        IllegalAction::NeverMoves { .. } => 10,
        IllegalAction::HeadquartersLocked { .. } => 11,
        IllegalAction::CannotMove { .. } => 12,
        IllegalAction::NoSuchSeat { .. } => 13,
        IllegalAction::AlreadyOut { .. } => 14,
        IllegalAction::NotYourTurn { .. } => 15,
    }
}
const ACTION_VARIANTS: usize = 16;

fn sq(name: &str) -> String {
    name.to_string()
}

/// Every variant of [`DeploymentError`] once; the index of each in `covered`.
fn deploy_samples(covered: &mut Vec<usize>) -> Vec<Sample> {
    use DeploymentError as D;
    let mut check = |e: D, code, args, message: &str| {
        covered.push(deploy_variant(&e));
        Sample {
            of_seat: matches!(e, D::OfSeat { .. }),
            ..sample(code, args, message, seen(&e, e.code(), e.args()))
        }
    };
    vec![
        check(
            D::NoSuchSeat {
                seat: 2,
                board: BoardKind::TwoPlayer,
            },
            "deploy.no_such_seat",
            json!({"seat": 2, "board": "two_player"}),
            "seat 2 does not exist on the two_player board",
        ),
        check(
            D::CampNotEmpty {
                square: sq("b3"),
                role: Role::MajorGeneral,
            },
            "deploy.camp_not_empty",
            json!({"square": "b3", "role": "major_general"}),
            "b3 is a camp and must start empty, but holds a major_general",
        ),
        check(
            D::SquareEmpty { square: sq("a1") },
            "deploy.square_empty",
            json!({"square": "a1"}),
            "a1 is empty: all 25 non-camp squares need a piece",
        ),
        check(
            D::FlagNotInHeadquarters {
                square: sq("a1"),
                hqs: [sq("b1"), sq("d1")],
            },
            "deploy.flag_not_in_headquarters",
            json!({"square": "a1", "hqs": ["b1", "d1"]}),
            "the flag on a1 must stand in a headquarters (b1 or d1)",
        ),
        check(
            D::LandmineNotInLastRows { square: sq("a6") },
            "deploy.landmine_not_in_last_rows",
            json!({"square": "a6"}),
            "the landmine on a6 must stand in the last two rows",
        ),
        check(
            D::BombInFrontRow { square: sq("c6") },
            "deploy.bomb_in_front_row",
            json!({"square": "c6"}),
            "the bomb on c6 may not stand in the front row",
        ),
        check(
            D::WrongCount {
                role: Role::Engineer,
                want: 3,
                have: 4,
            },
            "deploy.wrong_count",
            json!({"role": "engineer", "want": 3, "have": 4}),
            "a deployment needs 3 engineer (工兵), this one has 4",
        ),
        check(
            D::WrongRowCount { got: 5 },
            "deploy.wrong_row_count",
            json!({"got": 5}),
            "a deployment has 6 rows separated by '/', got 5",
        ),
        check(
            D::WrongRowLength {
                row: 2,
                text: sq("44.3"),
            },
            "deploy.wrong_row_length",
            json!({"row": 2, "text": "44.3"}),
            "row 2 of the deployment must have 5 squares, got \"44.3\"",
        ),
        check(
            D::UnknownPieceCode {
                code: 'X',
                row: 0,
                column: 4,
            },
            "deploy.unknown_piece_code",
            json!({"code": "X", "row": 0, "column": 4}),
            "unknown piece code 'X' in row 0, column 4 (codes: 9…1, B, L, F, '.')",
        ),
        check(
            D::FlipHasNoDeployment,
            "deploy.flip_has_no_deployment",
            json!({}),
            "flip play has no deployment: use Position::deal",
        ),
        check(
            D::DealNeedsFlip,
            "deploy.deal_needs_flip",
            json!({}),
            "only flip play is dealt",
        ),
        check(
            D::WrongDeploymentCount {
                board: BoardKind::FourPlayer,
                got: 2,
            },
            "deploy.wrong_deployment_count",
            json!({"board": "four_player", "want": 4, "got": 2}),
            "the four_player board needs 4 deployments, got 2",
        ),
        check(
            D::NoSuchFirstSeat { seat: 3 },
            "deploy.no_such_first_seat",
            json!({"seat": 3}),
            "seat 3 cannot move first: no such seat",
        ),
        // The wrapper has the inner error's code, its args with the seat, and the old prefix.
        check(
            D::OfSeat {
                seat: 1,
                error: Box::new(D::BombInFrontRow { square: sq("e7") }),
            },
            "deploy.bomb_in_front_row",
            json!({"square": "e7", "seat": 1}),
            "seat 1: the bomb on e7 may not stand in the front row",
        ),
    ]
}

/// Every variant of [`SetupError`] once.
fn setup_samples(covered: &mut Vec<usize>) -> Vec<Sample> {
    use SetupError as S;
    let mut check = |e: S, code, args, message: &str| {
        covered.push(setup_variant(&e));
        sample(code, args, message, seen(&e, e.code(), e.args()))
    };
    vec![
        check(
            S::ModeNotOnBoard {
                mode: Mode::Flip,
                board: BoardKind::FourPlayer,
            },
            "setup.mode_not_on_board",
            json!({"mode": "flip", "board": "four_player"}),
            "mode flip is not played on the four_player board (half_open is played on four_player and six_player, flip on two_player only)",
        ),
        check(
            S::ToMoveNotASeat {
                to_move: 4,
                board: BoardKind::FourPlayer,
            },
            "setup.to_move_not_a_seat",
            json!({"to_move": 4, "board": "four_player", "max": 3}),
            "to_move 4 is not a seat of the four_player board (seats 0 to 3)",
        ),
        check(
            S::NoSuchEliminatedSeat {
                seat: 2,
                board: BoardKind::TwoPlayer,
            },
            "setup.no_such_eliminated_seat",
            json!({"seat": 2, "board": "two_player"}),
            "eliminated seat 2 does not exist on the two_player board",
        ),
        check(
            S::EliminatedTwice { seat: 1 },
            "setup.eliminated_twice",
            json!({"seat": 1}),
            "seat 1 is listed twice in eliminated",
        ),
        check(
            S::SkipsLength { want: 2, got: 3 },
            "setup.skips_length",
            json!({"want": 2, "got": 3}),
            "skips must list one count per seat (2), got 3",
        ),
        check(
            S::SkipsTooLarge {
                seat: 1,
                skips: 256,
            },
            "setup.skips_too_large",
            json!({"seat": 1, "skips": 256}),
            "skips of seat 1 is too large (256)",
        ),
        check(
            S::FlipColoursNotFlip,
            "setup.flip_colours_not_flip",
            json!({}),
            "flip_colours is only for flip play",
        ),
        check(
            S::BadFlipColours { colours: [1, 1] },
            "setup.bad_flip_colours",
            json!({"colours": [1, 1]}),
            "flip_colours must be [0, 1] or [1, 0], got [1, 1]",
        ),
        check(
            S::SquareOffBoard {
                index: 60,
                board: BoardKind::TwoPlayer,
            },
            "setup.square_off_board",
            json!({"index": 60, "board": "two_player"}),
            "square index 60 is not on the two_player board",
        ),
        check(
            S::NoSuchSeat {
                square: sq("a1"),
                seat: 2,
                board: BoardKind::TwoPlayer,
            },
            "setup.no_such_seat",
            json!({"square": "a1", "seat": 2, "board": "two_player"}),
            "the piece on a1 belongs to seat 2, which does not exist on the two_player board",
        ),
        check(
            S::TwoPieces { square: sq("a2") },
            "setup.two_pieces",
            json!({"square": "a2"}),
            "two pieces on a2",
        ),
        check(
            S::FaceDownNotFlip { square: sq("a1") },
            "setup.face_down_not_flip",
            json!({"square": "a1"}),
            "the piece on a1 is face down, which only flip play allows",
        ),
        check(
            S::EliminatedSeatHasPiece {
                seat: 3,
                square: sq("a10"),
            },
            "setup.eliminated_seat_has_piece",
            json!({"seat": 3, "square": "a10"}),
            "seat 3 is eliminated but has a piece on a10 (an eliminated seat's pieces leave a multi-seat board)",
        ),
        check(
            S::TooMany {
                seat: 0,
                role: Role::Bomb,
                square: sq("a3"),
            },
            "setup.too_many",
            json!({"seat": 0, "role": "bomb", "max": 2, "square": "a3"}),
            "seat 0 has more than 2 bomb (the piece on a3 is one too many)",
        ),
        check(
            S::CarryNotAllowed { square: sq("c7") },
            "setup.carry_not_allowed",
            json!({"square": "c7"}),
            "the piece on c7 carries a flag, which only win_by_flag = carry_home allows",
        ),
        check(
            S::CannotCarryFlagOf {
                square: sq("c7"),
                flag_of: 0,
            },
            "setup.cannot_carry_flag_of",
            json!({"square": "c7", "flag_of": 0}),
            "the piece on c7 cannot carry the flag of seat 0",
        ),
        check(
            S::RoleCannotCarry {
                role: Role::Bomb,
                square: sq("c7"),
            },
            "setup.role_cannot_carry",
            json!({"role": "bomb", "square": "c7"}),
            "the bomb on c7 cannot carry a flag",
        ),
        check(
            S::FlagCarriedTwice { flag_of: 1 },
            "setup.flag_carried_twice",
            json!({"flag_of": 1}),
            "the flag of seat 1 is carried by two pieces",
        ),
        check(
            S::CarriesTwoFlags { square: sq("c7") },
            "setup.carries_two_flags",
            json!({"square": "c7"}),
            "the piece on c7 carries two flags",
        ),
        check(
            S::FlagOnBoardAndCarried { flag_of: 1 },
            "setup.flag_on_board_and_carried",
            json!({"flag_of": 1}),
            "the flag of seat 1 is both on the board and carried",
        ),
        check(
            S::CaptureSquareMissing { flag_of: 1 },
            "setup.capture_square_missing",
            json!({"flag_of": 1}),
            "captured_flags does not say where the flag of seat 1 was captured",
        ),
        check(
            S::CaptureSquareOffBoard {
                index: 200,
                board: BoardKind::FourPlayer,
            },
            "setup.capture_square_off_board",
            json!({"index": 200, "board": "four_player"}),
            "captured_flags names a square not on the four_player board",
        ),
        check(
            S::CapturedFlagNotCarried { flag_of: 1 },
            "setup.captured_flag_not_carried",
            json!({"flag_of": 1}),
            "captured_flags lists seat 1, but no piece carries its flag",
        ),
        check(
            S::CapturedFlagsTwice,
            "setup.captured_flags_twice",
            json!({}),
            "captured_flags lists a seat twice",
        ),
    ]
}

/// Every variant of [`IllegalAction`] once.
fn action_samples(covered: &mut Vec<usize>) -> Vec<Sample> {
    use IllegalAction as A;
    let mut check = |e: A, code, args, message: &str| {
        covered.push(action_variant(&e));
        sample(code, args, message, seen(&e, e.code(), e.args()))
    };
    vec![
        check(
            A::GameOver {
                outcome: Outcome::Draw {
                    reason: DrawReason::Agreement,
                },
            },
            "action.game_over",
            json!({"outcome": {"result": "draw", "reason": "agreement"}}),
            "the game is over (Draw { reason: Agreement })",
        ),
        check(
            A::SideEliminated,
            "action.side_eliminated",
            json!({}),
            "the game is over: a side is eliminated",
        ),
        check(
            A::SquareOffBoard { index: 60 },
            "action.square_off_board",
            json!({"index": 60}),
            "square index 60 is not on the board",
        ),
        check(
            A::NoFlips,
            "action.no_flips",
            json!({}),
            "flips exist only in flip play",
        ),
        check(
            A::NothingToFlip { square: sq("b3") },
            "action.nothing_to_flip",
            json!({"square": "b3"}),
            "there is no piece on b3 to flip",
        ),
        check(
            A::AlreadyFaceUp { square: sq("b2") },
            "action.already_face_up",
            json!({"square": "b2"}),
            "the piece on b2 is already face up",
        ),
        check(
            A::NoPiece { square: sq("a3") },
            "action.no_piece",
            json!({"square": "a3"}),
            "there is no piece on a3",
        ),
        check(
            A::ColoursNotSettled,
            "action.colours_not_settled",
            json!({}),
            "colours are not settled yet: only flips are legal",
        ),
        check(
            A::FaceDown { square: sq("a2") },
            "action.face_down",
            json!({"square": "a2"}),
            "the piece on a2 is face down",
        ),
        check(
            A::NotYourPiece {
                square: sq("a7"),
                seat: 0,
            },
            "action.not_your_piece",
            json!({"square": "a7", "seat": 0}),
            "the piece on a7 is not seat 0's",
        ),
        check(
            A::NeverMoves {
                role: Role::Landmine,
                square: sq("c1"),
            },
            "action.never_moves",
            json!({"role": "landmine", "square": "c1"}),
            "the landmine on c1 never moves",
        ),
        check(
            A::HeadquartersLocked { square: sq("b1") },
            "action.headquarters_locked",
            json!({"square": "b1"}),
            "the piece on b1 stands in a headquarters and may not leave it",
        ),
        check(
            A::CannotMove {
                role: Role::MajorGeneral,
                from: sq("b6"),
                to: sq("b7"),
                why: crate::explain::MoveBlocked::Mountain,
            },
            "action.cannot_move",
            json!({"role": "major_general", "from": "b6", "to": "b7", "why": "mountain"}),
            "the major_general on b6 cannot move to b7: the mountain lies between: files b and d do not cross it",
        ),
        check(
            A::NoSuchSeat { seat: 2 },
            "action.no_such_seat",
            json!({"seat": 2}),
            "seat 2 does not exist",
        ),
        check(
            A::AlreadyOut { seat: 1 },
            "action.already_out",
            json!({"seat": 1}),
            "seat 1 is already out of the game",
        ),
        check(
            A::NotYourTurn {
                to_move: 1,
                seat: 0,
            },
            "action.not_your_turn",
            json!({"to_move": 1, "seat": 0}),
            "it is seat 1's turn, not seat 0's",
        ),
    ]
}

/// Every sample, with a check that each variant of each enum has exactly one.
fn all_samples() -> Vec<Sample> {
    let mut out = Vec::new();
    for (name, n, samples) in [
        (
            "DeploymentError",
            DEPLOY_VARIANTS,
            deploy_samples as fn(&mut Vec<usize>) -> Vec<Sample>,
        ),
        ("SetupError", SETUP_VARIANTS, setup_samples),
        ("IllegalAction", ACTION_VARIANTS, action_samples),
    ] {
        let mut covered = Vec::new();
        out.extend(samples(&mut covered));
        covered.sort_unstable();
        assert_eq!(
            covered,
            (0..n).collect::<Vec<_>>(),
            "{name}: one sample per variant"
        );
    }
    out
}

#[test]
fn every_variant_has_its_code_args_and_english_text() {
    let samples = all_samples();
    // Codes are unique (the seat wrapper aside, which borrows its inner error's code) and
    // spelled `<family>.<snake_case>`, the family naming the type.
    let mut codes = BTreeSet::new();
    for s in samples.iter().filter(|s| !s.of_seat) {
        let (family, name) = s.code.split_once('.').expect("a dotted code");
        assert!(
            ["deploy", "setup", "action"].contains(&family),
            "{}",
            s.code
        );
        assert!(
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
            "{}",
            s.code
        );
        assert!(codes.insert(s.code), "{} twice", s.code);
    }
    assert_eq!(
        codes.len(),
        DEPLOY_VARIANTS - 1 + SETUP_VARIANTS + ACTION_VARIANTS
    );
}

#[test]
fn the_mode_error_of_a_setup_is_the_text_of_rules_new() {
    for (board, mode) in [
        (BoardKind::TwoPlayer, Mode::HalfOpen),
        (BoardKind::FourPlayer, Mode::Flip),
    ] {
        let want = Rules::new(board, mode, Options::defaults(board, Mode::Dark)).unwrap_err();
        assert_eq!(SetupError::ModeNotOnBoard { mode, board }.to_string(), want);
    }
}

// ---- The table of docs/formats.md ------------------------------------------------------------

/// One row of the table "Error codes": code, arg names, English template.
struct DocRow {
    line: usize,
    args: BTreeSet<String>,
    template: String,
}

fn doc_rows() -> BTreeMap<String, DocRow> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/formats.md");
    let doc = std::fs::read_to_string(path).expect("docs/formats.md");
    let mut rows = BTreeMap::new();
    let mut in_section = false;
    for (i, line) in doc.lines().enumerate() {
        if let Some(title) = line.strip_prefix("## ") {
            in_section = title.trim() == "Error codes";
            continue;
        }
        if !in_section || !line.starts_with("| `") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(
            cells.len(),
            3,
            "docs/formats.md line {}: three columns",
            i + 1
        );
        let ticked = |cell: &str| -> Vec<String> {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect()
        };
        let code = ticked(cells[0]);
        let template = ticked(cells[2]);
        assert!(
            code.len() == 1 && template.len() == 1,
            "docs/formats.md line {}: a code and a text in backticks",
            i + 1
        );
        let row = DocRow {
            line: i + 1,
            args: ticked(cells[1]).into_iter().collect(),
            template: template[0].clone(),
        };
        assert!(
            rows.insert(code[0].clone(), row).is_none(),
            "docs/formats.md line {}: {} twice",
            i + 1,
            code[0]
        );
    }
    rows
}

/// A piece of a template: literal text, or a placeholder no arg fills (any text).
enum Piece {
    Text(String),
    Any,
}

/// The template with every `{name}` (or `{name[i]}`) whose arg is a string or a number filled in.
fn fill(template: &str, args: &Value) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open]);
        let close = rest[open..].find('}').expect("a closed placeholder") + open;
        let name = &rest[open + 1..close];
        let value = match name.split_once('[') {
            Some((key, index)) => {
                let i: usize = index.trim_end_matches(']').parse().expect("an index");
                args.get(key).and_then(|v| v.get(i))
            }
            None => args.get(name),
        };
        match value {
            Some(Value::String(s)) => text.push_str(s),
            Some(Value::Number(n)) => text.push_str(&n.to_string()),
            _ => {
                out.push(Piece::Text(std::mem::take(&mut text)));
                out.push(Piece::Any);
            }
        }
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    out.push(Piece::Text(text));
    out
}

/// Whether `s` is the pieces in order, each `Any` standing for at least one character.
fn matches(pieces: &[Piece], s: &str) -> bool {
    match pieces.split_first() {
        None => s.is_empty(),
        Some((Piece::Text(t), rest)) => {
            s.strip_prefix(t.as_str()).is_some_and(|s| matches(rest, s))
        }
        Some((Piece::Any, rest)) => s
            .char_indices()
            .skip(1)
            .map(|(i, _)| i)
            .chain([s.len()])
            .filter(|&i| i > 0)
            .any(|i| matches(rest, &s[i..])),
    }
}

#[test]
fn the_formats_doc_lists_every_code_with_its_args_and_text() {
    let rows = doc_rows();
    let samples = all_samples();
    let mut listed = BTreeSet::new();
    for s in &samples {
        let Some(row) = rows.get(s.code) else {
            panic!("docs/formats.md has no row for {}", s.code);
        };
        let mut keys: BTreeSet<String> = s.args.as_object().unwrap().keys().cloned().collect();
        let mut template = row.template.clone();
        if s.of_seat {
            // The seat wrapper (described under the table): the inner error's args with `seat`,
            // its text after `seat {seat}: `.
            keys.remove("seat");
            template = format!("seat {{seat}}: {template}");
        } else {
            listed.insert(s.code.to_string());
        }
        assert_eq!(
            row.args, keys,
            "docs/formats.md line {}: args of {}",
            row.line, s.code
        );
        assert!(
            matches(&fill(&template, &s.args), &s.message),
            "docs/formats.md line {}: {:?} does not give {:?}",
            row.line,
            row.template,
            s.message
        );
    }
    let extra: Vec<&String> = rows.keys().filter(|c| !listed.contains(*c)).collect();
    assert!(
        extra.is_empty(),
        "docs/formats.md lists codes the core does not have: {extra:?}"
    );
}

#[test]
fn templates_match_only_their_text() {
    let args = json!({"square": "a1", "hqs": ["b1", "d1"]});
    let t = "the flag on {square} must stand in a headquarters ({hqs[0]} or {hqs[1]})";
    assert!(matches(
        &fill(t, &args),
        "the flag on a1 must stand in a headquarters (b1 or d1)"
    ));
    assert!(!matches(
        &fill(t, &args),
        "the flag on a1 must stand in a headquarters (d1 or b1)"
    ));
    let t = "a deployment needs {want} {role} ({chinese}), this one has {have}";
    let args = json!({"role": "engineer", "want": 3, "have": 4});
    assert!(matches(
        &fill(t, &args),
        "a deployment needs 3 engineer (工兵), this one has 4"
    ));
    assert!(!matches(
        &fill(t, &args),
        "a deployment needs 3 engineer (), this one has 4"
    ));
    assert!(!matches(
        &fill(t, &args),
        "a deployment needs 3 engineer (工兵), this one has 5"
    ));
}
