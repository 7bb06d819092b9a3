//! A tiny position builder and helpers for the rule tests: squares by name, legal destinations
//! as sorted names, actions by text (`a2-a6`, `flip b3`), events and outcomes as short text.

#![allow(dead_code)]

use junqi_core::*;
use serde_json::Value;

pub use junqi_core::Role::*;
pub use junqi_core::{BoardKind, Mode, Position, Role};
pub use serde_json::json;

/// A position under construction (RULES §11.1 by hand).
#[derive(Clone, Debug)]
pub struct Pos {
    board: BoardKind,
    mode: Mode,
    options: Value,
    pieces: Vec<(String, u8, Role, bool, Option<u8>)>,
    to_move: u8,
    flip_colours: Option<[u8; 2]>,
    plies: u32,
    quiet: u32,
    skips: Vec<u32>,
    eliminated: Vec<u8>,
    captured: Vec<(u8, String)>,
}

impl Pos {
    pub fn new(board: BoardKind, mode: Mode) -> Pos {
        Pos {
            board,
            mode,
            options: json!({}),
            pieces: Vec::new(),
            to_move: 0,
            flip_colours: None,
            plies: 0,
            quiet: 0,
            skips: Vec::new(),
            eliminated: Vec::new(),
            captured: Vec::new(),
        }
    }
    /// Two-player dark play.
    pub fn two() -> Pos {
        Pos::new(BoardKind::TwoPlayer, Mode::Dark)
    }
    /// Four-player dark play.
    pub fn four() -> Pos {
        Pos::new(BoardKind::FourPlayer, Mode::Dark)
    }
    /// Three-player dark play.
    pub fn three() -> Pos {
        Pos::new(BoardKind::ThreePlayer, Mode::Dark)
    }
    /// Six-player dark play (teams alternate unless `opts` says otherwise).
    pub fn six() -> Pos {
        Pos::new(BoardKind::SixPlayer, Mode::Dark)
    }
    /// Two-player flip play.
    pub fn flip() -> Pos {
        Pos::new(BoardKind::TwoPlayer, Mode::Flip)
    }
    pub fn mode(mut self, mode: Mode) -> Pos {
        self.mode = mode;
        self
    }
    pub fn opts(mut self, options: Value) -> Pos {
        self.options = options;
        self
    }
    /// Face-up pieces: (square, seat or colour, role).
    pub fn with(mut self, pieces: &[(&str, u8, Role)]) -> Pos {
        for &(at, seat, role) in pieces {
            self.pieces.push((at.to_string(), seat, role, false, None));
        }
        self
    }
    /// Face-down pieces (flip play): (square, colour, role).
    pub fn down(mut self, pieces: &[(&str, u8, Role)]) -> Pos {
        for &(at, seat, role) in pieces {
            self.pieces.push((at.to_string(), seat, role, true, None));
        }
        self
    }
    /// A piece carrying the flag of `flag_of`, captured on `captured_at` (carry_home).
    pub fn carrier(
        mut self,
        at: &str,
        seat: u8,
        role: Role,
        flag_of: u8,
        captured_at: &str,
    ) -> Pos {
        self.pieces
            .push((at.to_string(), seat, role, false, Some(flag_of)));
        self.captured.push((flag_of, captured_at.to_string()));
        self
    }
    pub fn turn(mut self, seat: u8) -> Pos {
        self.to_move = seat;
        self
    }
    pub fn colours(mut self, c: [u8; 2]) -> Pos {
        self.flip_colours = Some(c);
        self
    }
    pub fn plies(mut self, plies: u32, quiet: u32) -> Pos {
        self.plies = plies;
        self.quiet = quiet;
        self
    }
    pub fn skips(mut self, skips: &[u32]) -> Pos {
        self.skips = skips.to_vec();
        self
    }
    pub fn eliminated(mut self, seats: &[u8]) -> Pos {
        self.eliminated = seats.to_vec();
        self
    }

    /// The rule set (options parsed from JSON); panics on a bad rule set.
    pub fn rules(&self) -> Rules {
        self.try_rules()
            .unwrap_or_else(|e| panic!("bad rules: {e}"))
    }

    pub fn try_rules(&self) -> Result<Rules, String> {
        let o = Options::from_json(self.board, self.mode, Some(&self.options))?;
        Rules::new(self.board, self.mode, o)
    }

    /// The [`Setup`] (squares resolved by name; panics on an unknown name or bad rules).
    pub fn setup(&self) -> Setup {
        let rules = self.rules();
        let topo = Topology::get(rules.board, rules.middle_rail());
        let sq = |n: &str| {
            topo.parse_square(n)
                .unwrap_or_else(|| panic!("no square {n} on {}", rules.board))
        };
        Setup {
            rules,
            to_move: self.to_move,
            pieces: self
                .pieces
                .iter()
                .map(|(at, seat, role, down, carry)| PlacedPiece {
                    at: sq(at),
                    seat: *seat,
                    role: *role,
                    face_down: *down,
                    carrying_flag_of: *carry,
                })
                .collect(),
            flip_colours: self.flip_colours,
            plies: self.plies,
            quiet_plies: self.quiet,
            skips: self.skips.clone(),
            eliminated: self.eliminated.clone(),
            captured_flags: self.captured.iter().map(|(s, at)| (*s, sq(at))).collect(),
        }
    }

    pub fn try_build(&self) -> Result<Position, SetupError> {
        Position::from_setup(&self.setup())
    }

    pub fn build(&self) -> Position {
        self.try_build()
            .unwrap_or_else(|e| panic!("invalid test position: {e}"))
    }
}

/// The builder of the brief: `pos(board, mode, &[("a2", 0, Role::Engineer)], options, to_move)`.
pub fn pos(
    board: BoardKind,
    mode: Mode,
    pieces: &[(&str, u8, Role)],
    options: Value,
    to_move: u8,
) -> Position {
    Pos::new(board, mode)
        .with(pieces)
        .opts(options)
        .turn(to_move)
        .build()
}

/// A square by name.
pub fn sq(p: &Position, name: &str) -> Square {
    p.topology()
        .parse_square(name)
        .unwrap_or_else(|| panic!("no square {name}"))
}

pub fn name(p: &Position, s: Square) -> String {
    p.topology().name(s).to_string()
}

/// Sort square names by file, then rank (`a2` before `a10`; six-player `0e2` before `0e10`
/// likewise, by the name up to its last digits and then their number).
pub fn sorted(names: impl IntoIterator<Item = impl Into<String>>) -> Vec<String> {
    let mut v: Vec<String> = names.into_iter().map(Into::into).collect();
    v.sort_by_key(|n| {
        let cut = n
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .len()
            .max(1);
        (n[..cut].to_string(), n[cut..].parse::<u32>().unwrap_or(0))
    });
    v.dedup();
    v
}

/// The squares the piece on `from` may legally move to (or attack), sorted.
pub fn dests(p: &Position, from: &str) -> Vec<String> {
    let f = sq(p, from);
    sorted(p.legal_actions().into_iter().filter_map(|a| match a {
        Action::Move { from, to } if from == f => Some(name(p, to)),
        _ => None,
    }))
}

/// Assert the exact set of destinations of the piece on `from`.
#[track_caller]
pub fn assert_dests(p: &Position, from: &str, expected: &[&str]) {
    assert_eq!(
        dests(p, from),
        sorted(expected.iter().copied()),
        "destinations of {from}"
    );
}

/// Every legal action of the seat to move, as text, sorted.
pub fn actions(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_actions()
        .into_iter()
        .map(|a| action_text(p, a))
        .collect();
    v.sort();
    v
}

pub fn action_text(p: &Position, a: Action) -> String {
    match a {
        Action::Move { from, to } => format!("{}-{}", name(p, from), name(p, to)),
        Action::Flip(at) => format!("flip {}", name(p, at)),
    }
}

/// Parse `a2-a6` or `flip b3`.
pub fn action(p: &Position, text: &str) -> Action {
    if let Some(at) = text.strip_prefix("flip ") {
        return Action::Flip(sq(p, at));
    }
    let (a, b) = text
        .split_once('-')
        .unwrap_or_else(|| panic!("bad action {text}"));
    Action::Move {
        from: sq(p, a),
        to: sq(p, b),
    }
}

/// Play an action by text; returns the events as text. Panics if it is illegal.
#[track_caller]
pub fn play(p: &mut Position, text: &str) -> Vec<String> {
    try_play(p, text).unwrap_or_else(|e| panic!("{text} refused: {e}"))
}

/// Play an action by text; the events as text, or the refusal.
pub fn try_play(p: &mut Position, text: &str) -> Result<Vec<String>, String> {
    let a = action(p, text);
    let mut ev = Vec::new();
    p.play(a, &mut ev).map_err(|e| e.to_string())?;
    Ok(events(p, &ev))
}

/// Whether an action is legal (listed and accepted by `check`, which must agree).
pub fn is_legal(p: &Position, text: &str) -> bool {
    let a = action(p, text);
    let listed = p.legal_actions().contains(&a);
    assert_eq!(
        listed,
        p.check(a).is_ok(),
        "legal_actions and check disagree on {text}"
    );
    listed
}

/// Events as short text: `move 0 a2-a6`, `attack 0 a6-a7 attacker_wins`,
/// `flip 0 b3 engineer 1`, `colours 1 0`, `flag_revealed 1 b12`, `scouted c4 bomb`,
/// `skipped 1 blocked`, `eliminated 1 flag_captured`.
pub fn events(p: &Position, ev: &[Event]) -> Vec<String> {
    let n = |s: Square| name(p, s);
    ev.iter()
        .map(|e| match *e {
            Event::Move { seat, from, to } => format!("move {seat} {}-{}", n(from), n(to)),
            Event::Attack {
                seat,
                from,
                to,
                result,
            } => {
                format!("attack {seat} {}-{} {}", n(from), n(to), result.name())
            }
            Event::Flip {
                seat,
                at,
                role,
                colour,
            } => format!("flip {seat} {} {role} {colour}", n(at)),
            Event::Colours { colours } => format!("colours {} {}", colours[0], colours[1]),
            Event::FlagRevealed { seat, at } => format!("flag_revealed {seat} {}", n(at)),
            Event::Scouted { at, role } => format!("scouted {} {role}", n(at)),
            Event::Skipped { seat, reason } => format!("skipped {seat} {}", reason.name()),
            Event::Eliminated { seat, reason } => format!("eliminated {seat} {}", reason.name()),
        })
        .collect()
}

/// Run a table action (timeout, resign, …) and return its events as text.
#[track_caller]
pub fn table(
    p: &mut Position,
    f: impl FnOnce(&mut Position, &mut Vec<Event>) -> Result<(), IllegalAction>,
) -> Vec<String> {
    let mut ev = Vec::new();
    f(p, &mut ev).unwrap_or_else(|e| panic!("table action refused: {e}"));
    events(p, &ev)
}

/// The outcome as text: `none`, `win 0,2 flag_captured`, `draw quiet_plies`, `aborted`.
pub fn outcome(p: &Position) -> String {
    match p.outcome() {
        None => "none".into(),
        Some(o @ Outcome::Win { reason, .. }) => {
            let w: Vec<String> = o.winners().iter().map(|s| s.to_string()).collect();
            format!("win {} {}", w.join(","), reason.name())
        }
        Some(Outcome::Draw { reason }) => format!("draw {}", reason.name()),
        Some(Outcome::Aborted) => "aborted".into(),
    }
}

/// The piece on a square as (seat, role), if any.
pub fn at(p: &Position, square: &str) -> Option<(u8, Role)> {
    p.piece_at(sq(p, square)).map(|x| (x.seat, x.role))
}

/// Every piece on the board as `square seat role`, in square order.
pub fn board(p: &Position) -> Vec<String> {
    p.pieces()
        .map(|(s, x)| format!("{} {} {}", name(p, s), x.seat, x.role))
        .collect()
}

/// Expected event lists are written as `&[&str]`.
pub fn ev(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}
