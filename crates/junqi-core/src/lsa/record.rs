//! Land-sea-air game records and games in progress (LANDSEAAIR §9: the rule set is part of every
//! record; `RULES.md` §10 for the table rules). A [`Record`] holds the mode, the options, the
//! start (two deployments and the side that moves first, or any start position), every
//! [`Entry`] (actions and table actions) and the result; [`Game`] keeps a record and its
//! current position in step, for the terminal, the engine protocol and servers.
//!
//! The text form, one line per item, as the 军棋 record of `docs/formats.md`:
//!
//! ```text
//! # comments run from '#' to the end of the line
//! board land_sea_air
//! mode dark
//! option fort_strike once
//! first 0
//! deploy 0 e1=flag d1=landmine …     # square=role, every piece of the side
//! deploy 1 e15=flag …
//! 0 a6-a9                           # South moves (or attacks, lands, flies, strikes)
//! 1 scout i15 i5                    # North's scout plane looks at i5
//! timeout 0                         # South's clock ran out
//! resign 1
//! result win 0 resigned
//! ```
//!
//! Instead of `first` and the two `deploy` lines a record may give `start <position>` with a
//! position in its JSON form (§10.2) on one line. The other entries are `leave <seat>`, `draw`
//! (both sides agreed) and `abort`; the result is `result win <seat> <reason>`,
//! `result draw <reason>` or `result aborted`.
//!
//! The JSON form: `{"board": "land_sea_air", "mode", "options", "start": {"first": 0,
//! "deployments": [{"e1": "flag", …}, {…}]} or {"position": {…}}, "entries": [{"kind":
//! "action", "seat": 0, "action": "a6-a9"}, {"kind": "timeout", "seat": 1}, {"kind": "resign",
//! "seat": 0}, {"kind": "leave", "seat": 1}, {"kind": "draw"}, {"kind": "abort"}], "result"}`.
//!
//! # Where the rule books are silent
//! - A from–to action names its kind only against the position it is played in (§10.1), so a
//!   record is read by replaying it: [`Record::from_text`] and [`Record::from_json`] reject an
//!   entry the referee refuses, naming the line or the entry.
//! - A timeout skips the side's turn and is not a ply, as a blocked skip (§7); the fifth skip
//!   of a side, whatever its reason, eliminates it (`skips`).
//! - Abort ends the game without a result for the board (outcome `aborted`); the position
//!   itself stays as it was.

use super::board::{Side, Square};
use super::deploy::Deployment;
use super::json::{
    options_from_json, options_to_json, outcome, position_from_json, position_to_json, read_rules,
    side_of,
};
use super::movegen::Action;
use super::notation::{action_from_text, parse_square};
use super::pieces::Role;
use super::position::{Concession, Events, IllegalAction, Options, Position, Status};
use super::view::Mode;
use crate::event::Outcome;
use crate::json::{get_array, get_str, outcome_from_json, outcome_to_json, show, Obj};
use crate::record::{
    entry_object, outcome_from_text, outcome_to_text, table_entry_from_text, TableEntry, TableText,
};
use crate::text::option_value_from_text;
use serde_json::{json, Map, Value};

/// The board's name in records.
const BOARD: &str = super::board::BOARD_NAME;

/// How a recorded game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// South's and North's deployments and the side that moves first.
    Deployments {
        /// `[south, north]`.
        deployments: Box<[Deployment; 2]>,
        /// Who moves first.
        first: Side,
    },
    /// Any start position (a composed problem, a game taken over midway).
    Position(Box<Position>),
}

/// One entry of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// An action of the side to move. Text `0 a6-a9`, `1 scout i15 i5`.
    Action {
        /// The acting side (must be the side to move).
        side: Side,
        /// What it did.
        action: Action,
    },
    /// The clock of the side to move ran out. Text `timeout 1`.
    Timeout {
        /// The side whose turn is skipped (must be the side to move).
        side: Side,
    },
    /// A side resigned. Text `resign 0`.
    Resign(Side),
    /// A side left for good. Text `leave 1`.
    Leave(Side),
    /// Both sides agreed to a draw. Text `draw`.
    Draw,
    /// The game was aborted. Text `abort`.
    Abort,
}

fn seat_number(side: Side) -> u8 {
    side as u8
}

fn parse_side(text: &str, what: &str) -> Result<Side, String> {
    match text {
        "0" => Ok(Side::South),
        "1" => Ok(Side::North),
        _ => Err(format!(
            "{what} must be a seat of the land_sea_air board, 0 (South) or 1 (North); got {text:?}"
        )),
    }
}

impl Entry {
    /// The text form (`0 a6-a9`, `1 scout i15 i5`, `timeout 1`, `resign 0`, `leave 1`, `draw`,
    /// `abort`).
    pub fn to_text(&self) -> String {
        match *self {
            Entry::Action { side, action } => format!("{} {action}", seat_number(side)),
            Entry::Timeout { side } => format!("timeout {}", seat_number(side)),
            Entry::Resign(s) => format!("resign {}", seat_number(s)),
            Entry::Leave(s) => format!("leave {}", seat_number(s)),
            Entry::Draw => "draw".into(),
            Entry::Abort => "abort".into(),
        }
    }

    /// Read the text form against the position it is played in (which decides what kind of
    /// action a from–to is). The action must be legal there; the acting side is checked when
    /// the entry is applied.
    pub fn from_text(pos: &Position, text: &str) -> Result<Entry, String> {
        let s = text.trim();
        let word = match table_entry_from_text(s, parse_side) {
            TableText::Entry(e) => {
                return e.map(|e| match e {
                    TableEntry::Timeout(side) => Entry::Timeout { side },
                    TableEntry::Resign(s) => Entry::Resign(s),
                    TableEntry::Leave(s) => Entry::Leave(s),
                    TableEntry::Draw => Entry::Draw,
                    TableEntry::Abort => Entry::Abort,
                })
            }
            TableText::Action { seat, action } => (seat, action),
        };
        match word {
            (w, rest) if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) => {
                let side = parse_side(w, "the acting seat")?;
                if !pos.is_over() && pos.to_move() != side {
                    return Err(not_your_turn(pos.to_move(), side));
                }
                let action = action_from_text(pos, rest)?;
                Ok(Entry::Action { side, action })
            }
            _ => Err(format!(
                "unknown entry {s:?} (expected <seat> <action> such as 0 a6-a9 or 1 scout i15 i5, \
                 timeout <seat>, resign <seat>, leave <seat>, draw or abort)"
            )),
        }
    }

    fn to_json(self) -> Value {
        match self {
            Entry::Action { side, action } => {
                json!({"kind": "action", "seat": seat_number(side), "action": action.to_string()})
            }
            Entry::Timeout { side } => json!({"kind": "timeout", "seat": seat_number(side)}),
            Entry::Resign(s) => json!({"kind": "resign", "seat": seat_number(s)}),
            Entry::Leave(s) => json!({"kind": "leave", "seat": seat_number(s)}),
            Entry::Draw => json!({"kind": "draw"}),
            Entry::Abort => json!({"kind": "abort"}),
        }
    }

    /// Read the JSON form against the position it is played in, as [`Entry::from_text`].
    fn from_json(pos: &Position, v: &Value, path: &str) -> Result<Entry, String> {
        let (kind, o) = entry_object(v, path)?;
        let side = || side_of(o.req("seat")?, &o.path("seat"));
        Ok(match kind {
            "action" => {
                let side = side()?;
                let text = get_str(o.req("action")?, &o.path("action"))?;
                if !pos.is_over() && pos.to_move() != side {
                    return Err(format!(
                        "{}: {}",
                        o.path("seat"),
                        not_your_turn(pos.to_move(), side)
                    ));
                }
                let action = action_from_text(pos, text)
                    .map_err(|e| format!("{}: {e}", o.path("action")))?;
                Entry::Action { side, action }
            }
            "timeout" => Entry::Timeout { side: side()? },
            "resign" => Entry::Resign(side()?),
            "leave" => Entry::Leave(side()?),
            "draw" => Entry::Draw,
            _ => Entry::Abort,
        })
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South (seat 0)",
        Side::North => "North (seat 1)",
    }
}

fn not_your_turn(to_move: Side, side: Side) -> String {
    format!(
        "it is {}'s turn, not {}'s",
        side_name(to_move),
        side_name(side)
    )
}

/// Why a [`Game`] refused an entry. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The referee refused the action or table action.
    Illegal(IllegalAction),
    /// An action or timeout by the side not to move.
    NotYourTurn {
        /// Who is to move.
        to_move: Side,
        /// Who tried.
        side: Side,
    },
    /// The game was aborted.
    Aborted,
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Illegal(e) => e.fmt(f),
            GameError::NotYourTurn { to_move, side } => {
                f.write_str(&not_your_turn(*to_move, *side))
            }
            GameError::Aborted => f.write_str("the game was aborted"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<IllegalAction> for GameError {
    fn from(e: IllegalAction) -> GameError {
        GameError::Illegal(e)
    }
}

/// A deployment's text form: `square=role` for every piece, lowest square first.
pub fn deployment_to_text(d: &Deployment) -> String {
    d.pieces()
        .map(|(s, r)| format!("{s}={}", r.name()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn role_named(name: &str) -> Result<Role, String> {
    name.parse::<Role>().map_err(|_| {
        format!(
            "unknown role {name:?} (the roles of LANDSEAAIR §1, e.g. marshal, tank, battleship, fighter)"
        )
    })
}

fn place(d: &mut Deployment, square: Square, role: Role) -> Result<(), String> {
    if let Some(before) = d.at(square) {
        return Err(format!(
            "{square} is given twice ({} and {})",
            before.name(),
            role.name()
        ));
    }
    d.set(square, Some(role));
    Ok(())
}

/// Read [`deployment_to_text`]'s form for a side and check it against the piece set (§3).
pub fn deployment_from_text(side: Side, text: &str, opts: &Options) -> Result<Deployment, String> {
    let mut d = Deployment::empty(side);
    for word in text.split_whitespace() {
        let (sq, role) = word
            .split_once('=')
            .ok_or_else(|| format!("{word:?} is not square=role (e.g. e1=flag)"))?;
        place(&mut d, parse_square(sq)?, role_named(role)?)?;
    }
    d.validate(opts.piece_set).map_err(|e| e.to_string())?;
    Ok(d)
}

fn deployment_to_json(d: &Deployment) -> Value {
    Value::Object(
        d.pieces()
            .map(|(s, r)| (s.to_string(), Value::from(r.name())))
            .collect(),
    )
}

fn deployment_from_json(
    side: Side,
    v: &Value,
    path: &str,
    opts: &Options,
) -> Result<Deployment, String> {
    let m = v.as_object().ok_or_else(|| {
        format!(
            "{path} must be an object of square: role (e.g. {{\"e1\": \"flag\"}}), got {}",
            show(v)
        )
    })?;
    let mut d = Deployment::empty(side);
    for (sq, role) in m {
        let at = parse_square(sq).map_err(|e| format!("{path}: {e}"))?;
        let role = role_named(get_str(role, &format!("{path}.{sq}"))?)
            .map_err(|e| format!("{path}.{sq}: {e}"))?;
        place(&mut d, at, role).map_err(|e| format!("{path}: {e}"))?;
    }
    d.validate(opts.piece_set)
        .map_err(|e| format!("{path}: {e}"))?;
    Ok(d)
}

/// A land-sea-air game record: everything needed to replay the game exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Dark or open.
    pub mode: Mode,
    /// The options (their `first` is the start's when the start is deployments).
    pub options: Options,
    /// How the game starts.
    pub start: Start,
    /// Every entry, in order.
    pub entries: Vec<Entry>,
    /// The result, if the record states one (it must be the replay's outcome).
    pub result: Option<Outcome>,
}

impl Record {
    /// The start position.
    pub fn start_position(&self) -> Result<Position, String> {
        match &self.start {
            Start::Deployments { deployments, first } => {
                let opts = Options {
                    first: *first,
                    ..self.options
                };
                Position::new(opts, &deployments[0], &deployments[1])
                    .map_err(|e| format!("start: {e}"))
            }
            Start::Position(p) => {
                if p.options() != &self.options {
                    return Err(
                        "start: the start position's options differ from the record's".into(),
                    );
                }
                Ok((**p).clone())
            }
        }
    }

    /// Replay every entry with the referee and return the game at its end. An error names the
    /// entry (counting from 1) and why; a stated result must be the replay's outcome.
    pub fn replay(&self) -> Result<Game, String> {
        let mut game = Game::start(self.mode, self.start.clone(), self.options)?;
        for (i, e) in self.entries.iter().enumerate() {
            game.apply(*e)
                .map_err(|err| format!("entry {} ({}): {err}", i + 1, e.to_text()))?;
        }
        game.check_result(self.result)?;
        Ok(game)
    }

    /// The text form (module documentation).
    pub fn to_text(&self) -> String {
        let mut out = vec![
            format!("board {BOARD}"),
            format!("mode {}", self.mode.name()),
        ];
        for (name, value) in options_to_json(&self.options) {
            let v = match value {
                Value::String(s) => s,
                v => v.to_string(),
            };
            out.push(format!("option {name} {v}"));
        }
        match &self.start {
            Start::Deployments { deployments, first } => {
                out.push(format!("first {}", seat_number(*first)));
                for d in deployments.iter() {
                    out.push(format!(
                        "deploy {} {}",
                        seat_number(d.side()),
                        deployment_to_text(d)
                    ));
                }
            }
            Start::Position(p) => out.push(format!("start {}", position_to_json(self.mode, p))),
        }
        out.extend(self.entries.iter().map(Entry::to_text));
        if let Some(r) = self.result {
            out.push(format!("result {}", outcome_to_text(r)));
        }
        let mut s = out.join("\n");
        s.push('\n');
        s
    }

    /// Read the text form. Header lines (`board`, `mode`, `option`, `first`, `deploy`, `start`)
    /// come first, then the entries, then `result` if any. The record is replayed as it is
    /// read, so an entry the referee refuses is an error; errors give the line number.
    pub fn from_text(text: &str) -> Result<Record, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, raw)| (i + 1, raw.split('#').next().unwrap_or("").trim()))
            .filter(|(_, l)| !l.is_empty())
            .peekable();
        let at = |n: usize, e: String| format!("line {n}: {e}");
        let mut board = false;
        let mut mode = None;
        let mut options = Map::new();
        let mut first: Option<Side> = None;
        let mut deploys: [Option<(usize, &str)>; 2] = [None, None];
        let mut start: Option<(usize, &str)> = None;
        while let Some(&(n, line)) = lines.peek() {
            let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            match word {
                "board" => {
                    if rest != BOARD {
                        return Err(at(
                            n,
                            format!("this is a reader for {BOARD} records, not {rest:?}"),
                        ));
                    }
                    board = true;
                }
                "mode" => mode = Some(Mode::from_name(rest).map_err(|e| at(n, e))?),
                "option" => {
                    let (name, value) = rest
                        .split_once(char::is_whitespace)
                        .ok_or_else(|| at(n, "option needs a name and a value".into()))?;
                    options.insert(name.to_string(), option_value_from_text(value.trim()));
                }
                "first" => first = Some(parse_side(rest, "first").map_err(|e| at(n, e))?),
                "deploy" => {
                    let (seat, layout) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                    let side = parse_side(seat, "deploy's seat").map_err(|e| at(n, e))?;
                    if deploys[side as usize].replace((n, layout)).is_some() {
                        return Err(at(n, format!("a second deployment for seat {seat}")));
                    }
                }
                "start" => start = Some((n, rest)),
                _ => break,
            }
            lines.next();
        }
        if !board {
            return Err(format!("the record has no `board {BOARD}` line"));
        }
        let mode = mode.ok_or("the record has no `mode` line (dark or open)")?;
        let options = options_from_json(Some(&Value::Object(options)))
            .map_err(|e| format!("options: {e}"))?;
        let start = match (start, deploys) {
            (Some((n, json)), [None, None]) if first.is_none() => {
                let (m, p) = super::json::position_from_json_str(json).map_err(|e| at(n, e))?;
                if m != mode || p.options() != &options {
                    return Err(at(
                        n,
                        "the start position's mode or options differ from the record's".into(),
                    ));
                }
                Start::Position(Box::new(p))
            }
            (Some((n, _)), _) => {
                return Err(at(
                    n,
                    "a record starts from `start` or from `first` and `deploy`, not both".into(),
                ))
            }
            (None, [Some((ns, s)), Some((nn, nt))]) => Start::Deployments {
                deployments: Box::new([
                    deployment_from_text(Side::South, s, &options).map_err(|e| at(ns, e))?,
                    deployment_from_text(Side::North, nt, &options).map_err(|e| at(nn, e))?,
                ]),
                first: first.unwrap_or(Side::South),
            },
            (None, _) => {
                return Err(
                    "the record needs `deploy 0 …` and `deploy 1 …` lines, or a `start` position"
                        .into(),
                )
            }
        };
        let mut game = Game::start(mode, start, options)?;
        let mut result = None;
        for (n, line) in lines {
            if result.is_some() {
                return Err(at(n, "nothing may follow the result line".into()));
            }
            if let Some(r) = line.strip_prefix("result ") {
                result = Some(outcome_from_text(r).map_err(|e| at(n, e))?);
                continue;
            }
            let entry = Entry::from_text(game.position(), line).map_err(|e| at(n, e))?;
            game.apply(entry).map_err(|e| at(n, e.to_string()))?;
        }
        game.check_result(result)?;
        Ok(Record {
            result,
            ..game.into_record()
        })
    }

    /// The JSON form (module documentation).
    pub fn to_json(&self) -> Value {
        let start = match &self.start {
            Start::Deployments { deployments, first } => json!({
                "first": seat_number(*first),
                "deployments": deployments.iter().map(deployment_to_json).collect::<Vec<_>>(),
            }),
            Start::Position(p) => json!({ "position": position_to_json(self.mode, p) }),
        };
        json!({
            "board": BOARD,
            "mode": self.mode.name(),
            "options": Value::Object(options_to_json(&self.options)),
            "start": start,
            "entries": self.entries.iter().map(|e| e.to_json()).collect::<Vec<_>>(),
            "result": outcome_to_json(self.result),
        })
    }

    /// Read the JSON form (strict: unknown fields are rejected, errors name the field), replaying
    /// it as it is read.
    pub fn from_json(v: &Value) -> Result<Record, String> {
        let o = Obj::new(
            v,
            "",
            "the record",
            &["board", "mode", "options", "start", "entries", "result"],
        )?;
        let (mode, options) = read_rules(&o)?;
        let so = Obj::new(
            o.req("start")?,
            "start",
            "start",
            &["first", "deployments", "position"],
        )?;
        let start = if let Some(p) = so.opt("position") {
            if so.opt("first").is_some() || so.opt("deployments").is_some() {
                return Err(
                    "start has either a position or first and deployments, not both".into(),
                );
            }
            let (m, p) = position_from_json(p).map_err(|e| format!("start.position: {e}"))?;
            if m != mode || p.options() != &options {
                return Err("start.position: its mode or options differ from the record's".into());
            }
            Start::Position(Box::new(p))
        } else {
            let first = match so.opt("first") {
                None => Side::South,
                Some(f) => side_of(f, "start.first")?,
            };
            let list = get_array(so.req("deployments")?, "start.deployments")?;
            if list.len() != 2 {
                return Err(format!(
                    "start.deployments must hold two layouts, South's and North's; got {}",
                    list.len()
                ));
            }
            Start::Deployments {
                deployments: Box::new([
                    deployment_from_json(Side::South, &list[0], "start.deployments[0]", &options)?,
                    deployment_from_json(Side::North, &list[1], "start.deployments[1]", &options)?,
                ]),
                first,
            }
        };
        let mut game = Game::start(mode, start, options)?;
        for (i, e) in get_array(o.req("entries")?, "entries")?.iter().enumerate() {
            let path = format!("entries[{i}]");
            let entry = Entry::from_json(game.position(), e, &path)?;
            game.apply(entry).map_err(|e| format!("{path}: {e}"))?;
        }
        let result = match o.opt("result") {
            None => None,
            Some(r) => outcome_from_json(r).map_err(|e| format!("result: {e}"))?,
        };
        game.check_result(result)?;
        Ok(Record {
            result,
            ..game.into_record()
        })
    }

    /// [`Record::from_json`] from JSON text (a syntax error says where).
    pub fn from_json_str(text: &str) -> Result<Record, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("bad JSON: {e}"))?;
        Record::from_json(&v)
    }
}

/// A game in progress: its record and its current position, kept in step. Every method goes
/// through the referee and appends to the record only what it accepts; on an error nothing
/// changes. Replaying [`Game::record`] gives exactly [`Game::position`].
#[derive(Clone, Debug)]
pub struct Game {
    record: Record,
    position: Position,
    aborted: bool,
}

impl Game {
    /// A game from the two sides' deployments (each checked against the piece set, §3).
    pub fn new(
        mode: Mode,
        options: Options,
        south: Deployment,
        north: Deployment,
        first: Side,
    ) -> Result<Game, String> {
        Game::start(
            mode,
            Start::Deployments {
                deployments: Box::new([south, north]),
                first,
            },
            options,
        )
    }

    /// A game from any start.
    pub fn start(mode: Mode, start: Start, options: Options) -> Result<Game, String> {
        let options = match &start {
            Start::Deployments { first, .. } => Options {
                first: *first,
                ..options
            },
            Start::Position(_) => options,
        };
        let record = Record {
            mode,
            options,
            start,
            entries: Vec::new(),
            result: None,
        };
        let position = record.start_position()?;
        Ok(Game {
            record,
            position,
            aborted: false,
        })
    }

    /// Apply one entry. An action or a timeout must be by the side to move.
    pub fn apply(&mut self, entry: Entry) -> Result<Events, GameError> {
        if self.aborted {
            return Err(GameError::Aborted);
        }
        let turn = |pos: &Position, side: Side| {
            if pos.is_over() || pos.to_move() == side {
                Ok(())
            } else {
                Err(GameError::NotYourTurn {
                    to_move: pos.to_move(),
                    side,
                })
            }
        };
        let pos = &mut self.position;
        let events = match entry {
            Entry::Action { side, action } => {
                turn(pos, side)?;
                pos.apply(action)?.events
            }
            Entry::Timeout { side } => {
                turn(pos, side)?;
                pos.timeout()?
            }
            Entry::Resign(s) => pos.concede(s, Concession::Resign)?,
            Entry::Leave(s) => pos.concede(s, Concession::Leave)?,
            Entry::Draw => pos.agree_draw()?,
            Entry::Abort => {
                if let s @ (Status::Won { .. } | Status::Drawn(_)) = pos.status() {
                    return Err(IllegalAction::GameOver(s).into());
                }
                self.aborted = true;
                Events::default()
            }
        };
        self.record.entries.push(entry);
        Ok(events)
    }

    /// The side to move plays `action`.
    pub fn play(&mut self, action: Action) -> Result<Events, GameError> {
        let side = self.position.to_move();
        self.apply(Entry::Action { side, action })
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.record.mode
    }

    /// The record so far; its `result` is the outcome once the game is over.
    pub fn record(&self) -> Record {
        Record {
            result: self.outcome(),
            ..self.record.clone()
        }
    }

    /// The record, consumed.
    pub fn into_record(self) -> Record {
        let result = self.outcome();
        Record {
            result,
            ..self.record
        }
    }

    /// The outcome: `None` while the game goes on, [`Outcome::Aborted`] after an abort.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.aborted {
            Some(Outcome::Aborted)
        } else {
            outcome(self.position.status())
        }
    }

    /// Whether the game is over (won, drawn or aborted).
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    fn check_result(&self, stated: Option<Outcome>) -> Result<(), String> {
        match (stated, self.outcome()) {
            (None, _) => Ok(()),
            (Some(r), Some(o)) if r == o => Ok(()),
            (Some(r), Some(o)) => Err(format!(
                "the record states the result `{}`, but the replay ends with `{}`",
                outcome_to_text(r),
                outcome_to_text(o)
            )),
            (Some(r), None) => Err(format!(
                "the record states the result `{}`, but after the replay the game is not over",
                outcome_to_text(r)
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{DrawReason, EliminationReason};
    use crate::lsa::pieces::PieceSet;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A random game: random layouts, random actions with a few timeouts, ended by the
    /// referee, a resignation or an agreed draw.
    fn random_game(seed: u64, opts: Options) -> Game {
        let mut rng = StdRng::seed_from_u64(seed);
        let south = Deployment::random(Side::South, opts.piece_set, &mut rng);
        let north = Deployment::random(Side::North, opts.piece_set, &mut rng);
        let first = if rng.gen_bool(0.5) {
            Side::South
        } else {
            Side::North
        };
        let mut g = Game::new(Mode::Dark, opts, south, north, first).unwrap();
        let plies = rng.gen_range(0..400);
        while !g.is_over() && g.position().plies() < plies {
            if rng.gen_ratio(1, 50) {
                let side = g.position().to_move();
                g.apply(Entry::Timeout { side }).unwrap();
                continue;
            }
            let acts = g.position().legal_actions();
            let a = acts.as_slice()[rng.gen_range(0..acts.len())];
            g.play(a).unwrap();
        }
        if !g.is_over() {
            match rng.gen_range(0..3) {
                0 => g.apply(Entry::Resign(Side::North)).unwrap(),
                1 => g.apply(Entry::Draw).unwrap(),
                _ => g.apply(Entry::Abort).unwrap(),
            };
        }
        g
    }

    #[test]
    fn records_replay_and_read_back_in_both_forms() {
        for seed in 0..40 {
            let opts = Options {
                piece_set: if seed % 3 == 0 {
                    PieceSet::Taiwan
                } else {
                    PieceSet::Seed
                },
                ..Options::default()
            };
            let g = random_game(seed, opts);
            let r = g.record();
            assert!(r.result.is_some());
            let replayed = r.replay().unwrap();
            assert_eq!(replayed.position(), g.position(), "seed {seed}");
            let text = r.to_text();
            assert_eq!(Record::from_text(&text).unwrap(), r, "seed {seed}\n{text}");
            let js = r.to_json().to_string();
            assert_eq!(Record::from_json_str(&js).unwrap(), r, "seed {seed}");
        }
    }

    #[test]
    fn a_start_position_record_reads_back() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut pos = crate::lsa::playout::random_start(Options::default(), &mut rng);
        for _ in 0..30 {
            let acts = pos.legal_actions();
            let a = acts.as_slice()[rng.gen_range(0..acts.len())];
            pos.apply(a).unwrap();
        }
        let g = Game::start(
            Mode::Dark,
            Start::Position(Box::new(pos)),
            Options::default(),
        )
        .unwrap();
        assert!(!g.is_over());
        let start = Start::Position(Box::new(g.position().clone()));
        let mut h = Game::start(Mode::Open, start, Options::default()).unwrap();
        let a = h.position().legal_actions().as_slice()[0];
        h.play(a).unwrap();
        let r = h.record();
        assert_eq!(Record::from_text(&r.to_text()).unwrap(), r);
        assert_eq!(Record::from_json(&r.to_json()).unwrap(), r);
    }

    fn header() -> String {
        let mut rng = StdRng::seed_from_u64(1);
        let s = Deployment::random(Side::South, PieceSet::Seed, &mut rng);
        let n = Deployment::random(Side::North, PieceSet::Seed, &mut rng);
        format!(
            "board land_sea_air\nmode dark\nfirst 0\ndeploy 0 {}\ndeploy 1 {}\n",
            deployment_to_text(&s),
            deployment_to_text(&n)
        )
    }

    fn first_action() -> String {
        let r = Record::from_text(&header()).unwrap();
        let p = r.start_position().unwrap();
        p.legal_actions().as_slice()[0].to_string()
    }

    #[test]
    fn bad_records_are_refused_with_the_line_and_the_reason() {
        let h = header();
        let a = first_action();
        let cases = [
            (format!("{h}1 {a}\n"), "line 6: it is South (seat 0)'s turn"),
            (format!("{h}0 a1-a15\n"), "line 6:"),
            (format!("{h}0 {a}\nfrobnicate\n"), "line 7: unknown entry"),
            (
                format!("{h}resign 0\nresign 1\n"),
                "line 7: the game is over",
            ),
            (
                format!("{h}resign 0\nresult win 0 resigned\n"),
                "states the result `win 0 resigned`, but the replay ends with `win 1 resigned`",
            ),
            (format!("{h}result draw agreement\n"), "is not over"),
            (
                format!("{h}draw\nresult draw agreement\n0 {a}\n"),
                "line 8: nothing may follow",
            ),
            (format!("{h}abort\n0 {a}\n"), "line 7: the game was aborted"),
            (h.replace("mode dark\n", ""), "no `mode` line"),
            (
                h.replace("deploy 1", "deploy 0"),
                "a second deployment for seat 0",
            ),
            (h.replace("=flag", "=marshal"), "line 4: a deployment needs"),
            (
                h.replace("board land_sea_air", "board two_player"),
                "line 1: this is a reader for land_sea_air",
            ),
            (format!("option rail_max 0x\n{h}"), "options: "),
        ];
        for (text, want) in cases {
            let err = Record::from_text(&text).unwrap_err();
            assert!(err.contains(want), "{err:?} should contain {want:?}");
        }
        let mut v = Record::from_text(&h).unwrap().to_json();
        v["entries"] = json!([{"kind": "action", "seat": 1, "action": a}]);
        let err = Record::from_json(&v).unwrap_err();
        assert!(err.starts_with("entries[0].seat: it is South"), "{err}");
        v["entries"] = json!([{"kind": "resign", "seat": 2}]);
        assert!(Record::from_json(&v)
            .unwrap_err()
            .contains("entries[0].seat must be a seat"));
        v["entries"] = json!([]);
        v["start"]["deployments"][0]["z9"] = json!("flag");
        assert!(Record::from_json(&v)
            .unwrap_err()
            .contains("start.deployments[0]: \"z9\""));
    }

    #[test]
    fn timeouts_skip_without_a_ply_and_the_fifth_eliminates() {
        let mut g = Record::from_text(&header()).unwrap().replay().unwrap();
        for i in 0..4 {
            let side = g.position().to_move();
            assert_eq!(side, if i % 2 == 0 { Side::South } else { Side::North });
            let ev = g.apply(Entry::Timeout { side }).unwrap();
            assert_eq!(
                ev.as_slice(),
                [crate::lsa::Event::Skipped {
                    side,
                    reason: crate::event::SkipReason::Timeout
                }]
            );
        }
        assert_eq!(g.position().plies(), 0);
        assert_eq!(g.position().skips(Side::South), 2);
        // Timeouts by the side not to move are refused and change nothing.
        let err = g.apply(Entry::Timeout { side: Side::North }).unwrap_err();
        assert_eq!(
            err,
            GameError::NotYourTurn {
                to_move: Side::South,
                side: Side::North
            }
        );
        for _ in 0..5 {
            let side = g.position().to_move();
            g.apply(Entry::Timeout { side }).unwrap();
        }
        assert_eq!(
            g.outcome(),
            outcome(Status::Won {
                winner: Side::North,
                reason: EliminationReason::Skips
            })
        );
    }

    #[test]
    fn table_ends_give_their_outcomes() {
        let base = Record::from_text(&header()).unwrap().replay().unwrap();
        let mut g = base.clone();
        g.apply(Entry::Leave(Side::South)).unwrap();
        assert_eq!(
            g.position().status(),
            Status::Won {
                winner: Side::North,
                reason: EliminationReason::Left
            }
        );
        let mut g = base.clone();
        g.apply(Entry::Draw).unwrap();
        assert_eq!(g.position().status(), Status::Drawn(DrawReason::Agreement));
        let mut g = base;
        g.apply(Entry::Abort).unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Aborted));
        assert_eq!(g.apply(Entry::Draw), Err(GameError::Aborted));
        assert_eq!(g.record().entries, vec![Entry::Abort]);
    }
}
