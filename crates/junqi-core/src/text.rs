//! A compact one-line text form of a full position: everything of RULES §11.1 (board, mode,
//! options, the seat to move, colours, every piece, counters, carried flags) in one line of
//! white-space separated tokens:
//!
//! ```text
//! <board> <mode> <to_move> [<key>=<value> ...] [<square>=<seat><code>[*][^<flag seat>@<square>] ...]
//! ```
//!
//! - `<key>=<value>`: a rule option that differs from the defaults, by its §9 name
//!   (`landmine=both_die`, `bomb_flies=true`, `quiet_plies=40`), or a counter: `plies=N`,
//!   `quiet=N` (consecutive quiet plies), `skips=a,b[,c,d]` (one count per seat),
//!   `eliminated=s[,s…]`, `colours=c0,c1` (flip play, once settled). Zero counters are left out.
//! - a piece: its square, `=`, its seat (flip play: colour) digit, its role code
//!   ([`Role::code`]: `9`…`1` marshal to engineer, `B` bomb, `L` landmine, `F` flag), `*` when
//!   face down, and under `carry_home` `^<seat>@<square>` for the flag it carries and where that
//!   flag was captured.
//!
//! Example: `two_player dark 0 plies=12 quiet=3 a1=0L b1=0F c4=19 d12=1F`.
//! [`position_to_text`] writes options first (in §9 order), then counters, then the pieces in
//! square order; [`position_from_text`] takes the keys in any order and checks everything.

use crate::json::topology;
use crate::notation::{parse_square, square_name};
use crate::options::{Options, Rules, OPTION_NAMES};
use crate::position::{PlacedPiece, Position, Setup};
use crate::role::Role;
use crate::types::{BoardKind, Mode, Seat};
use serde_json::Value;

/// Counter keys of the text form.
const COUNTER_KEYS: [&str; 5] = ["plies", "quiet", "skips", "eliminated", "colours"];

/// An option value as text: strings as they are, booleans and numbers in JSON spelling.
pub(crate) fn option_value_to_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// An option value from text: `true`/`false` are booleans, digits a number, anything else a
/// string (the option itself then says whether it fits).
pub(crate) fn option_value_from_text(s: &str) -> Value {
    match s {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => match s.parse::<u64>() {
            Ok(n) => Value::from(n),
            Err(_) => Value::String(s.to_string()),
        },
        _ => Value::String(s.to_string()),
    }
}

/// The non-default options of a rule set as `(name, text value)`, in §9 order.
pub(crate) fn changed_options(rules: &Rules) -> Vec<(&'static str, String)> {
    let m = rules.options.to_json(rules.board, rules.mode);
    OPTION_NAMES
        .iter()
        .filter_map(|&n| m.get(n).map(|v| (n, option_value_to_text(v))))
        .collect()
}

fn join<T: ToString>(xs: &[T]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Write a [`Setup`] in the text form (pieces in the setup's order).
pub fn setup_to_text(s: &Setup) -> String {
    let rules = &s.rules;
    let topo = topology(rules);
    let mut out = vec![
        rules.board.name().to_string(),
        rules.mode.name().to_string(),
        s.to_move.to_string(),
    ];
    for (name, value) in changed_options(rules) {
        out.push(format!("{name}={value}"));
    }
    if let Some(c) = s.flip_colours {
        out.push(format!("colours={}", join(&c)));
    }
    if s.plies != 0 {
        out.push(format!("plies={}", s.plies));
    }
    if s.quiet_plies != 0 {
        out.push(format!("quiet={}", s.quiet_plies));
    }
    if s.skips.iter().any(|&k| k != 0) {
        out.push(format!("skips={}", join(&s.skips)));
    }
    if !s.eliminated.is_empty() {
        out.push(format!("eliminated={}", join(&s.eliminated)));
    }
    for p in &s.pieces {
        let mut t = format!("{}={}{}", square_name(topo, p.at), p.seat, p.role.code());
        if p.face_down {
            t.push('*');
        }
        if let Some(f) = p.carrying_flag_of {
            let at = s
                .captured_flags
                .iter()
                .find(|(seat, _)| *seat == f)
                .map_or_else(|| "?".to_string(), |&(_, sq)| square_name(topo, sq));
            t.push_str(&format!("^{f}@{at}"));
        }
        out.push(t);
    }
    out.join(" ")
}

/// Write a position in the text form.
pub fn position_to_text(pos: &Position) -> String {
    setup_to_text(&pos.to_setup())
}

fn parse_num<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} must be a non-negative integer, got {s:?}"));
    }
    s.parse().map_err(|_| format!("{what} is too large: {s}"))
}

fn parse_seat(s: &str, what: &str, board: BoardKind) -> Result<Seat, String> {
    let n: u64 = parse_num(s, what)?;
    if n >= board.seats() as u64 {
        return Err(format!(
            "{what}: seat {n} does not exist on the {board} board (seats 0 to {})",
            board.seats() - 1
        ));
    }
    Ok(n as Seat)
}

fn parse_list<T>(
    s: &str,
    what: &str,
    each: impl Fn(&str, &str) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    if s.is_empty() {
        return Err(format!("{what} must list at least one value"));
    }
    s.split(',')
        .enumerate()
        .map(|(i, x)| each(x, &format!("{what}[{i}]")))
        .collect()
}

/// Whether a key looks like a square name (a letter then digits), so that an unknown one is
/// reported as an unknown square rather than an unknown key.
/// Whether a key names a square rather than an option or counter: a grid square (`a2`, `g14`)
/// or a six-player one (`0b1`, `x`, `n4`, `t5`). Whether the board has it is checked later.
fn looks_like_square(k: &str) -> bool {
    let b = k.as_bytes();
    let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    let grid = b.len() >= 2 && b[0].is_ascii_alphabetic() && digits(&b[1..]);
    let arm =
        b.len() >= 3 && b[0].is_ascii_digit() && b[1].is_ascii_alphabetic() && digits(&b[2..]);
    grid || arm || k == "x"
}

/// Read the text form into an unvalidated [`Setup`]: the syntax, option names and values,
/// square names, role codes and seat numbers are checked here; the rest by
/// [`Position::from_setup`]. Absent counters are zero (`skips`: one zero per seat).
pub fn setup_from_text(text: &str) -> Result<Setup, String> {
    let mut tokens = text.split_whitespace();
    let usage = "a position is written <board> <mode> <to_move> [key=value ...] [square=piece ...]";
    let board: BoardKind = tokens
        .next()
        .ok_or_else(|| format!("empty position text: {usage}"))?
        .parse()?;
    let mode: Mode = tokens
        .next()
        .ok_or_else(|| format!("the position text ends after the board: {usage}"))?
        .parse()?;
    let to_move_text = tokens
        .next()
        .ok_or_else(|| format!("the position text ends after the mode: {usage}"))?;
    let to_move = parse_seat(to_move_text, "to_move", board)?;
    let mut options = Options::defaults(board, mode);
    let mut seen: Vec<String> = Vec::new();
    let mut piece_tokens = Vec::new();
    let mut setup = Setup {
        rules: Rules::new(board, mode, options)?,
        to_move,
        pieces: Vec::new(),
        flip_colours: None,
        plies: 0,
        quiet_plies: 0,
        skips: vec![0; board.seats()],
        eliminated: Vec::new(),
        captured_flags: Vec::new(),
    };
    for tok in tokens {
        let Some((key, value)) = tok.split_once('=') else {
            return Err(format!(
                "token {tok:?} is neither <key>=<value> nor <square>=<piece>"
            ));
        };
        if looks_like_square(key) {
            piece_tokens.push((key, value, tok));
            continue;
        }
        if seen.iter().any(|k| k == key) {
            return Err(format!("{key} is given twice"));
        }
        seen.push(key.to_string());
        match key {
            "plies" => setup.plies = parse_num(value, "plies")?,
            "quiet" => setup.quiet_plies = parse_num(value, "quiet")?,
            "skips" => {
                setup.skips = parse_list(value, "skips", parse_num)?;
                if setup.skips.len() != board.seats() {
                    return Err(format!(
                        "skips must list one count per seat ({} on the {board} board), got {value:?}",
                        board.seats()
                    ));
                }
            }
            "eliminated" => {
                setup.eliminated = parse_list(value, "eliminated", |x, w| parse_seat(x, w, board))?
            }
            "colours" => {
                let c = parse_list(value, "colours", |x, w| match x {
                    "0" => Ok(0u8),
                    "1" => Ok(1u8),
                    _ => Err(format!("{w} must be a colour, 0 or 1, got {x:?}")),
                })?;
                let [a, b] = c[..] else {
                    return Err(format!("colours must be c0,c1, got {value:?}"));
                };
                setup.flip_colours = Some([a, b]);
            }
            name if OPTION_NAMES.contains(&name) => {
                options.set(name, &option_value_from_text(value))?;
            }
            other => {
                return Err(format!(
                    "unknown key {other:?} (expected an option ({}) or a counter ({}))",
                    OPTION_NAMES.join(", "),
                    COUNTER_KEYS.join(", ")
                ))
            }
        }
    }
    setup.rules = Rules::new(board, mode, options)?;
    let topo = topology(&setup.rules);
    for (key, value, tok) in piece_tokens {
        let at = parse_square(topo, key)?;
        let piece = parse_piece(value, board).map_err(|e| format!("piece {tok:?}: {e}"))?;
        let (seat, role, face_down, carry) = piece;
        let carrying_flag_of = match carry {
            None => None,
            Some((f, sq)) => {
                let sq = parse_square(topo, sq).map_err(|e| format!("piece {tok:?}: {e}"))?;
                if setup.captured_flags.iter().any(|&(s, _)| s == f) {
                    return Err(format!("the flag of seat {f} is carried by two pieces"));
                }
                setup.captured_flags.push((f, sq));
                Some(f)
            }
        };
        setup.pieces.push(PlacedPiece {
            at,
            seat,
            role,
            face_down,
            carrying_flag_of,
        });
    }
    setup.captured_flags.sort_by_key(|&(s, _)| s);
    Ok(setup)
}

/// A carried flag written after a piece: the flag's seat and the square of its capture.
type CarryText<'a> = Option<(Seat, &'a str)>;

/// `<seat><code>[*][^<flag seat>@<square>]`.
fn parse_piece(v: &str, board: BoardKind) -> Result<(Seat, Role, bool, CarryText<'_>), String> {
    let expected = "expected <seat><code>[*][^<flag seat>@<square>], e.g. 09, 1F* or 27^1@l8";
    let mut chars = v.char_indices();
    let (Some((_, s)), Some((_, c))) = (chars.next(), chars.next()) else {
        return Err(format!("too short ({expected})"));
    };
    let seat = parse_seat(s.encode_utf8(&mut [0; 4]), "its seat", board)?;
    let role = match c {
        '1'..='9' | 'B' | 'L' | 'F' => Role::from_code(c),
        _ => None,
    }
    .ok_or_else(|| {
        format!(
            "unknown role code {c:?} (codes: 9…1 marshal to engineer, B bomb, L landmine, F flag)"
        )
    })?;
    let mut rest = chars.as_str();
    let face_down = rest.starts_with('*');
    if face_down {
        rest = &rest[1..];
    }
    if rest.is_empty() {
        return Ok((seat, role, face_down, None));
    }
    let Some(carry) = rest.strip_prefix('^') else {
        return Err(format!("unexpected {rest:?} ({expected})"));
    };
    let Some((f, at)) = carry.split_once('@') else {
        return Err(format!(
            "a carried flag is written ^<flag seat>@<square>, got {rest:?}"
        ));
    };
    let f = parse_seat(f, "the carried flag's seat", board)?;
    Ok((seat, role, face_down, Some((f, at))))
}

/// Read and validate a position in the text form: [`setup_from_text`], then
/// [`Position::from_setup`].
pub fn position_from_text(text: &str) -> Result<Position, String> {
    let setup = setup_from_text(text)?;
    Position::from_setup(&setup).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{LandmineRule, WinByFlag};
    use rand::{Rng, SeedableRng};

    #[test]
    fn example_parses() {
        let p = position_from_text("two_player dark 0 plies=12 quiet=3 a1=0L b1=0F c4=19 d12=1F")
            .unwrap();
        assert_eq!(p.plies(), 12);
        assert_eq!(p.quiet_plies(), 3);
        assert_eq!(p.pieces().count(), 4);
        assert_eq!(
            position_to_text(&p),
            "two_player dark 0 plies=12 quiet=3 a1=0L b1=0F c4=19 d12=1F"
        );
    }

    #[test]
    fn options_counters_and_carries_round_trip() {
        let mut rules = Rules::defaults(BoardKind::FourPlayer, Mode::Dark).unwrap();
        rules.options.landmine = LandmineRule::BothDie;
        rules.options.win_by_flag = WinByFlag::CarryHome;
        rules.options.quiet_plies = 33;
        rules.options.bomb_flies = true;
        let t = "four_player dark 1 landmine=both_die bomb_flies=true win_by_flag=carry_home quiet_plies=33 \
                 plies=9 quiet=2 skips=0,1,0,4 eliminated=3 h1=0F g7=09^1@q8 q10=1L";
        let s = setup_from_text(t).unwrap();
        assert_eq!(s.rules, rules);
        assert_eq!(s.captured_flags.len(), 1);
        let p = Position::from_setup(&s).unwrap();
        assert_eq!(
            position_to_text(&p),
            t.split_whitespace().collect::<Vec<_>>().join(" ")
        );
        assert_eq!(p.to_setup(), s);
        let f = "two_player flip 1 colours=1,0 a1=0F* b1=19 c4=1B*";
        let p = position_from_text(f).unwrap();
        assert_eq!(p.flip_colours(), Some([1, 0]));
        assert_eq!(position_to_text(&p), f);
    }

    #[test]
    fn errors() {
        for (t, needle) in [
            ("", "empty position text"),
            ("two_player", "ends after the board"),
            ("two_player dark", "ends after the mode"),
            ("five_player dark 0", "unknown board"),
            (
                "two_player half_open 0",
                "half_open is played on four_player and six_player",
            ),
            ("two_player dark 2", "seat 2 does not exist"),
            (
                "two_player dark x",
                "to_move must be a non-negative integer",
            ),
            ("two_player dark 0 fog=1", "unknown key \"fog\""),
            (
                "two_player dark 0 landmine=x",
                "option landmine has no value \"x\"",
            ),
            ("two_player dark 0 plies=1 plies=2", "plies is given twice"),
            (
                "two_player dark 0 plies=-1",
                "plies must be a non-negative integer",
            ),
            ("two_player dark 0 plies=99999999999", "too large"),
            ("two_player dark 0 skips=1", "one count per seat"),
            ("two_player dark 0 colours=0", "colours must be c0,c1"),
            ("two_player dark 0 colours=0,1", "only for flip play"),
            ("two_player dark 0 a1", "neither"),
            ("two_player dark 0 z9=0F", "unknown square \"z9\""),
            ("two_player dark 0 a1=0X", "unknown role code 'X'"),
            ("two_player dark 0 a1=2F", "seat 2 does not exist"),
            ("two_player dark 0 a1=0", "too short"),
            ("two_player dark 0 a1=0F*x", "unexpected \"x\""),
            ("two_player dark 0 a1=0F* ", "face down"),
            ("two_player dark 0 a1=0B a1=1B", "two pieces on a1"),
            ("two_player dark 0 a1=0B a2=0B a3=0B", "more than 2 bomb"),
            ("two_player dark 0 a1=09^1", "^<flag seat>@<square>"),
            ("two_player dark 0 a1=09^1@z1", "unknown square \"z1\""),
            ("two_player dark 0 a1=09^1@b12", "carry_home"),
            ("two_player dark 0 a1=0é", "unknown role code"),
            ("two_player dark 0 a1=é9", "its seat must be"),
        ] {
            let e = position_from_text(t).unwrap_err();
            assert!(e.contains(needle), "{t:?}: expected {needle:?} in {e:?}");
        }
    }

    #[test]
    fn random_positions_round_trip() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        for (board, mode) in [
            (BoardKind::TwoPlayer, Mode::Flip),
            (BoardKind::FourPlayer, Mode::HalfOpen),
        ] {
            let rules = Rules::defaults(board, mode).unwrap();
            let mut pos = Position::random_start(rules, &mut rng);
            for _ in 0..300 {
                let s = setup_from_text(&position_to_text(&pos)).unwrap();
                assert_eq!(s, pos.to_setup());
                let acts = pos.legal_actions();
                if acts.is_empty() {
                    break;
                }
                pos.play(acts[rng.gen_range(0..acts.len())], &mut ())
                    .unwrap();
            }
        }
    }
}
