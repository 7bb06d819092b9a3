//! Game records: the rules, the start (deployments, or a full start position), every entry of
//! the game (actions and table actions) and the result, with a line-oriented text form, a JSON
//! form and a replay through the referee. [`Game`] keeps a record and the current position
//! together, for servers and command-line tools.
//!
//! The text form (see `docs/formats.md`):
//!
//! ```text
//! # comments run from '#' to the end of the line
//! board two_player
//! mode dark
//! option landmine both_die
//! table leaver partner_plays_on  # a table rule the referee needs (RULES §10), when not the default
//! first 0
//! deploy 0 <layout>          # Deployment's text form, one line per seat
//! deploy 1 <layout>
//! 0 a5-a6                    # seat 0 moves (or attacks)
//! 1 e7-e6
//! timeout 0                  # seat 0's clock ran out
//! resign 1
//! result win 0 resigned
//! ```
//!
//! Instead of `first` and `deploy`, a record may give `start <position>` with a position in the
//! text form of [`crate::text`] (flip play, whose deal is a position, or any other start). The
//! other entries are `<seat> flip <square>`, `leave <seat>`, `draw` and `abort`; the result is
//! `result win <seats> <reason>`, `result draw <reason>` or `result aborted`.

use crate::deploy::{Deployment, DeploymentError};
use crate::event::{Action, EliminationReason, Event, EventSink, Outcome};
use crate::json::{
    draw_reason_from_name, get_array, get_seat, get_str, outcome_from_json, outcome_to_json,
    read_rules, setup_from_json, setup_to_json, show, topology, Obj,
};
use crate::notation::{action_from_text, action_to_text};
use crate::options::{Options, Rules};
use crate::position::{Position, Setup, SetupError};
use crate::preset::TableRules;
use crate::referee::IllegalAction;
use crate::text::{changed_options, option_value_from_text, setup_from_text, setup_to_text};
use crate::topology::Topology;
use crate::types::{BoardKind, Mode, Seat, SeatSet};
use rand::Rng;
use serde_json::{json, Map, Value};

/// How a recorded game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// Dark, open and half-open play: each seat's deployment (index = seat) and the seat that
    /// moves first.
    Deployments {
        /// One deployment per seat.
        deployments: Vec<Deployment>,
        /// The seat that moves first.
        first: Seat,
    },
    /// A full start position: the flip deal, or any position (text form `start <position>`).
    Position(Setup),
}

/// One entry of a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// An action of the seat to move. Text `0 a5-a6`, `1 flip b3`.
    Action {
        /// The acting seat (must be the seat to move).
        seat: Seat,
        /// What it did.
        action: Action,
    },
    /// The clock of the seat to move ran out (RULES §10). Text `timeout 1`.
    Timeout {
        /// The seat whose turn was skipped (must be the seat to move).
        seat: Seat,
    },
    /// A seat resigned. Text `resign 0`.
    Resign(Seat),
    /// A seat left for good. Text `leave 2`.
    Leave(Seat),
    /// Every remaining seat agreed to a draw. Text `draw`.
    Draw,
    /// The game was aborted. Text `abort`.
    Abort,
}

fn parse_seat_text(s: &str, what: &str, board: BoardKind) -> Result<Seat, String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} must be a seat number, got {s:?}"));
    }
    match s.parse::<u64>() {
        Ok(n) if n < board.seats() as u64 => Ok(n as Seat),
        _ => Err(format!(
            "{what}: seat {s} does not exist on the {board} board (seats 0 to {})",
            board.seats() - 1
        )),
    }
}

impl Entry {
    /// The text form of the entry (`0 a5-a6`, `1 flip b3`, `timeout 1`, `resign 0`, `leave 2`,
    /// `draw`, `abort`).
    pub fn to_text(&self, topo: &Topology) -> String {
        match *self {
            Entry::Action { seat, action } => format!("{seat} {}", action_to_text(topo, action)),
            Entry::Timeout { seat } => format!("timeout {seat}"),
            Entry::Resign(s) => format!("resign {s}"),
            Entry::Leave(s) => format!("leave {s}"),
            Entry::Draw => "draw".into(),
            Entry::Abort => "abort".into(),
        }
    }

    /// Parse the text form of an entry; squares and seats must exist on `topo`'s board.
    pub fn from_text(topo: &Topology, text: &str) -> Result<Entry, String> {
        let board = topo.board;
        let s = text.trim();
        let word = match table_entry_from_text(s, |t, what| parse_seat_text(t, what, board)) {
            TableText::Entry(e) => {
                return e.map(|e| match e {
                    TableEntry::Timeout(seat) => Entry::Timeout { seat },
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
                let seat = parse_seat_text(w, "the acting seat", board)?;
                let action = action_from_text(topo, rest)?;
                Ok(Entry::Action { seat, action })
            }
            _ => Err(format!(
                "unknown entry {s:?} (expected <seat> <action> such as 0 a5-a6 or 1 flip b3, \
                 timeout <seat>, resign <seat>, leave <seat>, draw or abort)"
            )),
        }
    }

    /// Apply the entry to a position with the referee. An action or a timeout must be by the
    /// seat to move. Nothing changes on an error.
    /// `table` holds the table rules the referee needs (what leaving does, RULES §10).
    pub fn apply(
        &self,
        pos: &mut Position,
        table: &TableRules,
        events: &mut impl EventSink,
    ) -> Result<(), IllegalAction> {
        let turn = |pos: &Position, seat: Seat| {
            if !pos.is_over() && pos.to_move() != seat {
                Err(IllegalAction::NotYourTurn {
                    to_move: pos.to_move(),
                    seat,
                })
            } else {
                Ok(())
            }
        };
        match *self {
            Entry::Action { seat, action } => {
                turn(pos, seat)?;
                pos.play(action, events)
            }
            Entry::Timeout { seat } => {
                turn(pos, seat)?;
                pos.timeout(events)
            }
            Entry::Resign(s) => pos.resign(s, events),
            Entry::Leave(s) => pos.leave(s, table.leaver, events),
            Entry::Draw => pos.agree_draw(),
            Entry::Abort => pos.abort(),
        }
    }

    fn to_json(self, topo: &Topology) -> Value {
        match self {
            Entry::Action { seat, action } => {
                json!({"kind": "action", "seat": seat, "action": action_to_text(topo, action)})
            }
            Entry::Timeout { seat } => json!({"kind": "timeout", "seat": seat}),
            Entry::Resign(s) => json!({"kind": "resign", "seat": s}),
            Entry::Leave(s) => json!({"kind": "leave", "seat": s}),
            Entry::Draw => json!({"kind": "draw"}),
            Entry::Abort => json!({"kind": "abort"}),
        }
    }

    fn from_json(topo: &Topology, v: &Value, path: &str) -> Result<Entry, String> {
        let (kind, o) = entry_object(v, path)?;
        let seat = || get_seat(o.req("seat")?, &o.path("seat"), topo.board);
        Ok(match kind {
            "action" => {
                let text = get_str(o.req("action")?, &o.path("action"))?;
                let action = action_from_text(topo, text)
                    .map_err(|e| format!("{}: {e}", o.path("action")))?;
                Entry::Action {
                    seat: seat()?,
                    action,
                }
            }
            "timeout" => Entry::Timeout { seat: seat()? },
            "resign" => Entry::Resign(seat()?),
            "leave" => Entry::Leave(seat()?),
            "draw" => Entry::Draw,
            _ => Entry::Abort,
        })
    }
}

/// A table entry (every board's records share them), generic over the board's seat type.
pub(crate) enum TableEntry<S> {
    Timeout(S),
    Resign(S),
    Leave(S),
    Draw,
    Abort,
}

/// What an entry's text is: a table entry (read, or the reason it is malformed), or else the
/// first word and the rest, for the board's `<seat> <action>`.
pub(crate) enum TableText<'a, S> {
    Entry(Result<TableEntry<S>, String>),
    Action { seat: &'a str, action: &'a str },
}

/// Read the table entries of the text form (`timeout <seat>`, `resign <seat>`,
/// `leave <seat>`, `draw`, `abort`) with the board's seat reader `seat(text, what)`.
pub(crate) fn table_entry_from_text<S>(
    s: &str,
    seat: impl Fn(&str, &str) -> Result<S, String>,
) -> TableText<'_, S> {
    let (word, rest) = match s.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (s, ""),
    };
    let seat_arg = |what: &str| -> Result<S, String> {
        if rest.is_empty() {
            return Err(format!("{what} needs a seat: {what} <seat>"));
        }
        seat(rest, what)
    };
    let no_arg = |e: TableEntry<S>| {
        if rest.is_empty() {
            Ok(e)
        } else {
            Err(format!("{word} takes nothing more, got {rest:?}"))
        }
    };
    TableText::Entry(match word {
        "timeout" => seat_arg("timeout").map(TableEntry::Timeout),
        "resign" => seat_arg("resign").map(TableEntry::Resign),
        "leave" => seat_arg("leave").map(TableEntry::Leave),
        "draw" => no_arg(TableEntry::Draw),
        "abort" => no_arg(TableEntry::Abort),
        _ => {
            return TableText::Action {
                seat: word,
                action: rest,
            }
        }
    })
}

/// An entry object's kind and its fields checked for that kind (every board's records share
/// the entry shapes: `action` with a seat and an action, `timeout`, `resign`, `leave` with a
/// seat, `draw` and `abort` alone).
pub(crate) fn entry_object<'a>(v: &'a Value, path: &str) -> Result<(&'a str, Obj<'a>), String> {
    let any = Obj::new(v, path, "an entry", &["kind", "seat", "action"])?;
    let kind = get_str(any.req("kind")?, &any.path("kind"))?;
    let fields: &[&str] = match kind {
        "action" => &["kind", "seat", "action"],
        "timeout" | "resign" | "leave" => &["kind", "seat"],
        "draw" | "abort" => &["kind"],
        other => {
            return Err(format!(
                "{}: unknown entry kind {other:?} (expected action, timeout, resign, leave, draw or abort)",
                any.path("kind")
            ))
        }
    };
    Ok((kind, Obj::new(v, path, "an entry", fields)?))
}

/// The text form of an outcome as a record's result line has it (after `result `):
/// `win 0 flag_captured`, `win 0,2 skips`, `draw quiet_plies`, `aborted`.
pub fn outcome_to_text(o: Outcome) -> String {
    match o {
        Outcome::Win { reason, .. } => {
            let w: Vec<String> = o.winners().iter().map(|s| s.to_string()).collect();
            format!("win {} {}", w.join(","), reason.name())
        }
        Outcome::Draw { reason } => format!("draw {}", reason.name()),
        Outcome::Aborted => "aborted".into(),
    }
}

/// Parse [`outcome_to_text`]'s form. Winners are seats 0 to 5, each at most once.
pub fn outcome_from_text(text: &str) -> Result<Outcome, String> {
    let t: Vec<&str> = text.split_whitespace().collect();
    match t[..] {
        ["win", winners, reason] => {
            let mut mask = SeatSet::EMPTY;
            for w in winners.split(',') {
                let s = parse_seat_text(w, "a winner", BoardKind::SixPlayer)?;
                if mask.contains(s) {
                    return Err(format!("winners list seat {s} twice"));
                }
                mask.insert(s);
            }
            let reason = EliminationReason::from_name(reason).ok_or_else(|| {
                format!(
                    "unknown win reason {reason:?} (expected flag_captured, no_movable_pieces, blocked, skips, resigned or left)"
                )
            })?;
            Ok(Outcome::Win {
                winners: mask,
                reason,
            })
        }
        ["draw", reason] => draw_reason_from_name(reason)
            .map(|reason| Outcome::Draw { reason })
            .ok_or_else(|| {
                format!(
                    "unknown draw reason {reason:?} (expected quiet_plies, max_plies or agreement)"
                )
            }),
        ["aborted"] => Ok(Outcome::Aborted),
        _ => Err(format!(
            "bad result {text:?} (expected win <seats> <reason>, draw <reason> or aborted)"
        )),
    }
}

/// Check that an outcome names only seats of the board.
fn check_outcome_seats(o: Outcome, board: BoardKind) -> Result<Outcome, String> {
    if let Outcome::Win { winners, .. } = o {
        if !winners.minus(SeatSet::first(board.seats())).is_empty() {
            return Err(format!(
                "the result names a winner that is not a seat of the {board} board"
            ));
        }
    }
    Ok(o)
}

/// A game record: everything needed to replay a game exactly (RULES §9: the rule set is part of
/// every record).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Board, mode and options.
    pub rules: Rules,
    /// The table rules the referee needs to replay (RULES §10: what leaving does).
    pub table: TableRules,
    /// How the game starts.
    pub start: Start,
    /// Every entry, in order.
    pub entries: Vec<Entry>,
    /// The result, if the record states one (it must then match the replay's outcome).
    pub result: Option<Outcome>,
}

impl Record {
    /// A record with no entries yet.
    pub fn new(rules: Rules, start: Start) -> Record {
        Record {
            rules,
            table: TableRules::default(),
            start,
            entries: Vec::new(),
            result: None,
        }
    }

    /// The topology the record's squares are named on.
    pub fn topology(&self) -> &'static Topology {
        topology(&self.rules)
    }

    /// The start position (deployments placed, or the start position validated).
    pub fn start_position(&self) -> Result<Position, String> {
        match &self.start {
            Start::Deployments { deployments, first } => {
                Position::from_deployments(self.rules, deployments, *first)
                    .map_err(|e| format!("start: {e}"))
            }
            Start::Position(setup) => {
                if setup.rules != self.rules {
                    return Err("start: the start position's rules differ from the record's".into());
                }
                Position::from_setup(setup).map_err(|e| format!("start: {e}"))
            }
        }
    }

    /// Replay every entry with the referee from the start and return the final position. An
    /// error says which entry failed (counting from 1) and why; if the record states a result,
    /// it must be the replay's outcome.
    pub fn replay(&self) -> Result<Position, String> {
        let mut pos = self.start_position()?;
        let topo = self.topology();
        for (i, e) in self.entries.iter().enumerate() {
            e.apply(&mut pos, &self.table, &mut ())
                .map_err(|err| format!("entry {} ({}): {}", i + 1, e.to_text(topo), err))?;
        }
        if let Some(r) = self.result {
            match pos.outcome() {
                Some(o) if o == r => {}
                Some(o) => {
                    return Err(format!(
                        "the record states the result `{}`, but the replay ends with `{}`",
                        outcome_to_text(r),
                        outcome_to_text(o)
                    ))
                }
                None => {
                    return Err(format!(
                    "the record states the result `{}`, but after the replay the game is not over",
                    outcome_to_text(r)
                ))
                }
            }
        }
        Ok(pos)
    }

    /// The line-oriented text form (see the module documentation).
    pub fn to_text(&self) -> String {
        let topo = self.topology();
        let mut out = vec![
            format!("board {}", self.rules.board),
            format!("mode {}", self.rules.mode),
        ];
        for (name, value) in changed_options(&self.rules) {
            out.push(format!("option {name} {value}"));
        }
        for (name, value) in self.table.changed() {
            out.push(format!("table {name} {value}"));
        }
        match &self.start {
            Start::Deployments { deployments, first } => {
                out.push(format!("first {first}"));
                for (seat, d) in deployments.iter().enumerate() {
                    out.push(format!("deploy {seat} {d}"));
                }
            }
            Start::Position(setup) => out.push(format!("start {}", setup_to_text(setup))),
        }
        for e in &self.entries {
            out.push(e.to_text(topo));
        }
        if let Some(r) = self.result {
            out.push(format!("result {}", outcome_to_text(r)));
        }
        let mut s = out.join("\n");
        s.push('\n');
        s
    }

    /// Parse the text form. Header lines (`board`, `mode`, `option`, `table`, `first`, `deploy`,
    /// `start`) come before the entries and `result`, if any, comes last; `#` starts a comment.
    /// Errors give the line number. Deployments and the start position are validated here; the
    /// entries are checked by [`Record::replay`].
    pub fn from_text(text: &str) -> Result<Record, String> {
        let mut board: Option<(usize, BoardKind)> = None;
        let mut mode: Option<(usize, Mode)> = None;
        let mut options: Vec<(usize, &str, &str)> = Vec::new();
        let mut table = TableRules::default();
        let mut table_lines: Vec<(usize, &str)> = Vec::new();
        let mut first: Option<(usize, &str)> = None;
        let mut deploys: Vec<(usize, &str, &str)> = Vec::new();
        let mut start: Option<(usize, &str)> = None;
        let mut entries: Vec<(usize, &str)> = Vec::new();
        let mut result: Option<(usize, &str)> = None;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if result.is_some() {
                return Err(format!("line {n}: nothing may follow the result line"));
            }
            let (word, rest) = match line.split_once(char::is_whitespace) {
                Some((w, r)) => (w, r.trim()),
                None => (line, ""),
            };
            let header = matches!(
                word,
                "board" | "mode" | "option" | "table" | "first" | "deploy" | "start"
            );
            if header && !entries.is_empty() {
                return Err(format!(
                    "line {n}: the header line `{word}` comes after the first entry (headers come first)"
                ));
            }
            let twice = |what: &str, prev: Option<usize>| match prev {
                Some(p) => Err(format!(
                    "line {n}: a second `{what}` line (the first is line {p})"
                )),
                None => Ok(()),
            };
            match word {
                "board" => {
                    twice("board", board.map(|b| b.0))?;
                    board = Some((n, rest.parse().map_err(|e| format!("line {n}: {e}"))?));
                }
                "mode" => {
                    twice("mode", mode.map(|m| m.0))?;
                    mode = Some((n, rest.parse().map_err(|e| format!("line {n}: {e}"))?));
                }
                "option" => {
                    let Some((name, value)) = rest.split_once(char::is_whitespace) else {
                        return Err(format!(
                            "line {n}: an option line is written option <name> <value>"
                        ));
                    };
                    let value = value.trim();
                    if let Some(&(p, _, _)) = options.iter().find(|o| o.1 == name) {
                        return Err(format!(
                            "line {n}: option {name} is given twice (also line {p})"
                        ));
                    }
                    options.push((n, name, value));
                }
                "table" => {
                    let Some((name, value)) = rest.split_once(char::is_whitespace) else {
                        return Err(format!(
                            "line {n}: a table line is written table <name> <value>"
                        ));
                    };
                    if let Some(&(p, _)) = table_lines.iter().find(|t| t.1 == name) {
                        return Err(format!(
                            "line {n}: table rule {name} is given twice (also line {p})"
                        ));
                    }
                    table_lines.push((n, name));
                    table
                        .set(name, value.trim())
                        .map_err(|e| format!("line {n}: {e}"))?;
                }
                "first" => {
                    twice("first", first.map(|f| f.0))?;
                    first = Some((n, rest));
                }
                "deploy" => {
                    let Some((seat, layout)) = rest.split_once(char::is_whitespace) else {
                        return Err(format!(
                            "line {n}: a deploy line is written deploy <seat> <layout>"
                        ));
                    };
                    deploys.push((n, seat, layout.trim()));
                }
                "start" => {
                    twice("start", start.map(|s| s.0))?;
                    start = Some((n, rest));
                }
                "result" => result = Some((n, rest)),
                _ => entries.push((n, line)),
            }
        }
        let (bn, board) =
            board.ok_or("missing `board` line (board two_player or board four_player)")?;
        let (mn, mode) = mode.ok_or("missing `mode` line (mode dark, open, half_open or flip)")?;
        let mut opts = Options::defaults(board, mode);
        for &(n, name, value) in &options {
            opts.set(name, &option_value_from_text(value))
                .map_err(|e| format!("line {n}: {e}"))?;
        }
        let rules =
            Rules::new(board, mode, opts).map_err(|e| format!("line {}: {e}", bn.max(mn)))?;
        let topo = topology(&rules);
        let start = match start {
            Some((n, text)) => {
                if let Some(&(d, _, _)) = deploys.first() {
                    return Err(format!(
                        "line {d}: a record with a `start` position (line {n}) has no deployments"
                    ));
                }
                if let Some((f, _)) = first {
                    return Err(format!(
                        "line {f}: a record with a `start` position (line {n}) has no `first` line: the position says who moves"
                    ));
                }
                let setup = setup_from_text(text).map_err(|e| format!("line {n}: {e}"))?;
                if setup.rules != rules {
                    return Err(format!(
                        "line {n}: the start position's board, mode or options differ from the header's"
                    ));
                }
                Position::from_setup(&setup).map_err(|e| format!("line {n}: {e}"))?;
                Start::Position(setup)
            }
            None => {
                if rules.is_flip() {
                    return Err(
                        "flip play has no deployments: give the dealt position with a `start` line"
                            .into(),
                    );
                }
                let first = match first {
                    None => 0,
                    Some((n, s)) => {
                        parse_seat_text(s, "first", board).map_err(|e| format!("line {n}: {e}"))?
                    }
                };
                let mut ds: Vec<Option<Deployment>> = vec![None; board.seats()];
                for &(n, seat, layout) in &deploys {
                    let seat = parse_seat_text(seat, "deploy", board)
                        .map_err(|e| format!("line {n}: {e}"))?;
                    if ds[seat as usize].is_some() {
                        return Err(format!("line {n}: a second deployment of seat {seat}"));
                    }
                    let d = Deployment::from_text(layout)
                        .and_then(|d| d.validate(board, seat).map(|_| d))
                        .map_err(|e| format!("line {n}: seat {seat}: {e}"))?;
                    ds[seat as usize] = Some(d);
                }
                let deployments = ds
                    .into_iter()
                    .enumerate()
                    .map(|(seat, d)| {
                        d.ok_or_else(|| format!("missing `deploy {seat} <layout>` line"))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Start::Deployments { deployments, first }
            }
        };
        let entries = entries
            .into_iter()
            .map(|(n, line)| Entry::from_text(topo, line).map_err(|e| format!("line {n}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let result = match result {
            None => None,
            Some((n, text)) => Some(
                outcome_from_text(text)
                    .and_then(|o| check_outcome_seats(o, board))
                    .map_err(|e| format!("line {n}: {e}"))?,
            ),
        };
        Ok(Record {
            rules,
            table,
            start,
            entries,
            result,
        })
    }

    /// The JSON form: `board`, `mode`, `options` (those differing from the defaults), `table`
    /// (the table rules differing from the defaults, RULES §10; absent when none do), `start`
    /// (`{"first": s, "deployments": [layout, ...]}` or `{"position": <RULES §11.1>}`),
    /// `entries` (`{"kind": "action", "seat": 0, "action": "a5-a6"}`, `{"kind": "timeout",
    /// "seat": 1}`, `{"kind": "resign", "seat": 0}`, `{"kind": "leave", "seat": 2}`,
    /// `{"kind": "draw"}`, `{"kind": "abort"}`) and `result` (an outcome as in §11.2, `null`
    /// when not stated).
    pub fn to_json(&self) -> Value {
        let topo = self.topology();
        let start = match &self.start {
            Start::Deployments { deployments, first } => json!({
                "first": first,
                "deployments": deployments.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
            }),
            Start::Position(setup) => json!({ "position": setup_to_json(setup) }),
        };
        let mut m = Map::new();
        m.insert("board".into(), self.rules.board.name().into());
        m.insert("mode".into(), self.rules.mode.name().into());
        m.insert(
            "options".into(),
            Value::Object(
                self.rules
                    .options
                    .to_json(self.rules.board, self.rules.mode),
            ),
        );
        let table = self.table.to_json();
        if !table.is_empty() {
            m.insert("table".into(), Value::Object(table));
        }
        m.insert("start".into(), start);
        m.insert(
            "entries".into(),
            Value::Array(self.entries.iter().map(|e| e.to_json(topo)).collect()),
        );
        m.insert("result".into(), outcome_to_json(self.result));
        Value::Object(m)
    }

    /// Read the JSON form (strict: unknown fields are rejected, errors name the field).
    pub fn from_json(v: &Value) -> Result<Record, String> {
        let o = Obj::new(
            v,
            "",
            "the record",
            &[
                "board", "mode", "options", "table", "start", "entries", "result",
            ],
        )?;
        let rules = read_rules(&o)?;
        let table = TableRules::from_json(o.opt("table")).map_err(|e| format!("table: {e}"))?;
        let board = rules.board;
        let topo = topology(&rules);
        let sv = o.req("start")?;
        let so = Obj::new(sv, "start", "start", &["first", "deployments", "position"])?;
        let start = if let Some(p) = so.opt("position") {
            if so.opt("first").is_some() || so.opt("deployments").is_some() {
                return Err(
                    "start has either a position or first and deployments, not both".into(),
                );
            }
            let setup = setup_from_json(p).map_err(|e| format!("start.position: {e}"))?;
            if setup.rules != rules {
                return Err(
                    "start.position: its board, mode or options differ from the record's".into(),
                );
            }
            Position::from_setup(&setup).map_err(|e| format!("start.position: {e}"))?;
            Start::Position(setup)
        } else {
            if rules.is_flip() {
                return Err("start: flip play has no deployments: give the dealt position as start.position".into());
            }
            let first = match so.opt("first") {
                None => 0,
                Some(f) => get_seat(f, "start.first", board)?,
            };
            let list = get_array(so.req("deployments")?, "start.deployments")?;
            if list.len() != board.seats() {
                return Err(format!(
                    "start.deployments must hold one layout per seat ({} on the {board} board), got {}",
                    board.seats(),
                    list.len()
                ));
            }
            let mut deployments = Vec::new();
            for (seat, d) in list.iter().enumerate() {
                let path = format!("start.deployments[{seat}]");
                let text = get_str(d, &path)?;
                let d = Deployment::from_text(text)
                    .and_then(|d| d.validate(board, seat as Seat).map(|_| d))
                    .map_err(|e| format!("{path}: {e}"))?;
                deployments.push(d);
            }
            Start::Deployments { deployments, first }
        };
        let entries = get_array(o.req("entries")?, "entries")?
            .iter()
            .enumerate()
            .map(|(i, e)| Entry::from_json(topo, e, &format!("entries[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        let result = match o.opt("result") {
            None => None,
            Some(r) => Some(
                outcome_from_json(r)
                    .and_then(|o| o.map(|o| check_outcome_seats(o, board)).transpose())
                    .map_err(|e| format!("result: {e}"))?
                    .ok_or_else(|| format!("result must be an outcome, got {}", show(r)))?,
            ),
        };
        Ok(Record {
            rules,
            table,
            start,
            entries,
            result,
        })
    }

    /// [`Record::from_json`] from JSON text (a syntax error says where).
    pub fn from_json_str(text: &str) -> Result<Record, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("bad JSON: {e}"))?;
        Record::from_json(&v)
    }
}

/// A game in progress: its record and its current position, kept in step. Every method applies
/// to the position through the referee and appends to the record only when accepted; on an
/// error nothing changes. Replaying [`Game::record`] gives exactly [`Game::position`].
#[derive(Clone, Debug)]
pub struct Game {
    record: Record,
    position: Position,
}

impl Game {
    /// A dark, open or half-open game from each seat's deployment, `first` to move.
    pub fn new_from_deployments(
        rules: Rules,
        deployments: &[Deployment],
        first: Seat,
    ) -> Result<Game, DeploymentError> {
        let position = Position::from_deployments(rules, deployments, first)?;
        let start = Start::Deployments {
            deployments: deployments.to_vec(),
            first,
        };
        Ok(Game {
            record: Record::new(rules, start),
            position,
        })
    }

    /// A flip game, dealt at random, `first` to move.
    pub fn new_dealt(
        rules: Rules,
        first: Seat,
        rng: &mut impl Rng,
    ) -> Result<Game, DeploymentError> {
        let position = Position::deal(rules, first, rng)?;
        let start = Start::Position(position.to_setup());
        Ok(Game {
            record: Record::new(rules, start),
            position,
        })
    }

    /// A game from any valid start position.
    pub fn new_from_setup(setup: &Setup) -> Result<Game, SetupError> {
        let position = Position::from_setup(setup)?;
        let start = Start::Position(position.to_setup());
        Ok(Game {
            record: Record::new(position.rules().to_owned(), start),
            position,
        })
    }

    /// A game that goes on from a record (replayed; see [`Record::replay`]).
    pub fn from_record(mut record: Record) -> Result<Game, String> {
        let position = record.replay()?;
        record.result = position.outcome();
        Ok(Game { record, position })
    }

    /// The same game played under these table rules (RULES §10: what leaving does; a preset's
    /// are [`crate::preset::Preset::table_rules`]). Only before the first entry: the record
    /// keeps them, and every entry is replayed under them.
    pub fn with_table_rules(mut self, table: TableRules) -> Result<Game, String> {
        if !self.record.entries.is_empty() {
            return Err("the table rules are set before the first entry of a game".into());
        }
        self.record.table = table;
        Ok(self)
    }

    /// Apply an entry (checked as [`Entry::apply`] does) and record it. Returns the events.
    pub fn apply(&mut self, entry: Entry) -> Result<Vec<Event>, IllegalAction> {
        let mut next = self.position.clone();
        let mut events = Vec::new();
        entry.apply(&mut next, &self.record.table, &mut events)?;
        self.position = next;
        self.record.entries.push(entry);
        self.record.result = self.position.outcome();
        Ok(events)
    }

    /// The seat to move acts.
    pub fn play(&mut self, action: Action) -> Result<Vec<Event>, IllegalAction> {
        let seat = self.position.to_move();
        self.apply(Entry::Action { seat, action })
    }

    /// The clock of the seat to move ran out.
    pub fn timeout(&mut self) -> Result<Vec<Event>, IllegalAction> {
        let seat = self.position.to_move();
        self.apply(Entry::Timeout { seat })
    }

    /// A seat resigns.
    pub fn resign(&mut self, seat: Seat) -> Result<Vec<Event>, IllegalAction> {
        self.apply(Entry::Resign(seat))
    }

    /// A seat leaves for good.
    pub fn leave(&mut self, seat: Seat) -> Result<Vec<Event>, IllegalAction> {
        self.apply(Entry::Leave(seat))
    }

    /// Every remaining seat agreed to a draw.
    pub fn agree_draw(&mut self) -> Result<(), IllegalAction> {
        self.apply(Entry::Draw).map(|_| ())
    }

    /// The game is aborted.
    pub fn abort(&mut self) -> Result<(), IllegalAction> {
        self.apply(Entry::Abort).map(|_| ())
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The record so far (its result is the outcome once the game is over).
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The record, consuming the game.
    pub fn into_record(self) -> Record {
        self.record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{DrawReason, EliminationReason};
    use rand::SeedableRng;

    fn random_game(rules: Rules, seed: u64, plies: usize) -> Game {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut g = if rules.is_flip() {
            Game::new_dealt(rules, 1, &mut rng).unwrap()
        } else {
            let ds: Vec<Deployment> = (0..rules.seats())
                .map(|_| Deployment::random(&mut rng))
                .collect();
            Game::new_from_deployments(rules, &ds, 0).unwrap()
        };
        for i in 0..plies {
            if g.position().is_over() {
                break;
            }
            if i % 17 == 16 {
                g.timeout().unwrap();
                continue;
            }
            let acts = g.position().legal_actions();
            g.play(acts[rng.gen_range(0..acts.len())]).unwrap();
        }
        g
    }

    #[test]
    fn text_and_json_round_trip_and_replay() {
        for (board, mode) in [
            (BoardKind::TwoPlayer, Mode::Dark),
            (BoardKind::TwoPlayer, Mode::Flip),
            (BoardKind::FourPlayer, Mode::HalfOpen),
        ] {
            let mut rules = Rules::defaults(board, mode).unwrap();
            rules.options.quiet_plies = 25;
            let mut g = random_game(rules, 3, 400);
            if !g.position().is_over() {
                g.resign(g.position().to_move()).unwrap();
            }
            let r = g.record();
            assert!(r.result.is_some());
            let text = r.to_text();
            assert_eq!(Record::from_text(&text).as_ref(), Ok(r), "{text}");
            assert_eq!(Record::from_json(&r.to_json()).as_ref(), Ok(r));
            assert_eq!(&r.replay().unwrap(), g.position());
            let again = Game::from_record(r.clone()).unwrap();
            assert_eq!(again.position(), g.position());
        }
    }

    #[test]
    fn errors_change_nothing_and_replay_names_the_entry() {
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let mut g = random_game(rules, 9, 4);
        let before = (g.position().clone(), g.record().clone());
        let t = g.position().topology();
        let bad = Action::Move {
            from: t.parse_square("c4").unwrap(),
            to: t.parse_square("c4").unwrap(),
        };
        assert!(g.play(bad).is_err());
        assert!(g.resign(7).is_err());
        assert_eq!((g.position().clone(), g.record().clone()), before);
        g.agree_draw().unwrap();
        assert_eq!(
            g.record().result,
            Some(Outcome::Draw {
                reason: DrawReason::Agreement
            })
        );
        assert!(g.abort().is_err());
        assert!(g.timeout().is_err());

        let mut r = g.record().clone();
        r.entries.insert(
            2,
            Entry::Action {
                seat: 0,
                action: bad,
            },
        );
        let e = r.replay().unwrap_err();
        assert!(e.starts_with("entry 3 ("), "{e}");
        let mut r = g.record().clone();
        r.result = Some(Outcome::Win {
            winners: SeatSet(1),
            reason: EliminationReason::Resigned,
        });
        assert!(r
            .replay()
            .unwrap_err()
            .contains("replay ends with `draw agreement`"));
        r.entries.pop();
        assert!(r.replay().unwrap_err().contains("not over"));
    }

    #[test]
    fn text_errors_give_the_line() {
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let g = random_game(rules, 1, 3);
        let good = g.record().to_text();
        let lines: Vec<&str> = good.lines().collect();
        let with = |i: usize, l: &str| {
            let mut v = lines.clone();
            v[i] = l;
            Record::from_text(&v.join("\n")).unwrap_err()
        };
        let last = lines.len() - 1;
        // Lines: 0 board, 1 mode, 2 first, 3 deploy 0, 4 deploy 1, 5.. entries.
        for (e, needle) in [
            (with(0, "board three"), "line 1: unknown board"),
            (
                with(1, "mode flip"),
                "give the dealt position with a `start` line",
            ),
            (with(2, "first 2"), "line 3: first: seat 2 does not exist"),
            (
                with(3, "deploy 0 xx"),
                "line 4: seat 0: a deployment has 6 rows",
            ),
            (
                with(4, "deploy 0 x"),
                "line 5: a second deployment of seat 0",
            ),
            (with(5, "0 a5-z5"), "line 6: unknown square \"z5\""),
            (
                with(5, "2 a5-a4"),
                "line 6: the acting seat: seat 2 does not exist",
            ),
            (with(5, "jump"), "line 6: unknown entry"),
            (with(5, "draw now"), "line 6: draw takes nothing more"),
            (
                with(6, "board two_player"),
                "line 7: the header line `board` comes after the first entry",
            ),
            (with(5, "option fog 1"), "unknown option \"fog\""),
            (with(last, "result win 0 luck"), "unknown win reason"),
            (
                with(last, "result win 2 left"),
                "not a seat of the two_player board",
            ),
        ] {
            assert!(e.contains(needle), "expected {needle:?} in {e:?}");
        }
        let e = Record::from_text(&format!("{good}result aborted\n0 a1-a2\n")).unwrap_err();
        assert!(e.contains("nothing may follow the result line"), "{e}");
        assert!(Record::from_text("# nothing\n")
            .unwrap_err()
            .contains("missing `board`"));
        // Comments and blank lines are ignored.
        let commented = good
            .replace("\nfirst", "\n\n# a comment\nfirst")
            .replace("deploy 1", "deploy 1 ")
            + "# end\n";
        assert_eq!(Record::from_text(&commented).unwrap(), *g.record());
    }

    #[test]
    fn table_rules_are_kept_and_replayed() {
        use crate::preset::{Leaver, Preset};
        let rules = Rules::new(
            BoardKind::FourPlayer,
            Mode::Dark,
            Preset::Qq
                .options(BoardKind::FourPlayer, Mode::Dark)
                .unwrap(),
        )
        .unwrap();
        let mut g = random_game(rules, 5, 8)
            .with_table_rules(Preset::Qq.table_rules())
            .unwrap_err();
        assert!(g.contains("before the first entry"), "{g}");
        g.clear();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let ds: Vec<Deployment> = (0..4).map(|_| Deployment::random(&mut rng)).collect();
        let mut g = Game::new_from_deployments(rules, &ds, 0)
            .unwrap()
            .with_table_rules(Preset::Qq.table_rules())
            .unwrap();
        let a = g.position().legal_actions()[0];
        g.play(a).unwrap();
        g.leave(3).unwrap();
        assert!(!g.position().is_over(), "the leaver's partner plays on");
        let text = g.record().to_text();
        assert!(
            text.contains("option blocked out_at_once\noption quiet_plies 71\ntable leaver partner_plays_on\n"),
            "{text}"
        );
        let back = Record::from_text(&text).unwrap();
        assert_eq!(&back, g.record());
        assert_eq!(&back.replay().unwrap(), g.position());
        let j = g.record().to_json();
        assert_eq!(
            j["table"],
            serde_json::json!({"leaver": "partner_plays_on"})
        );
        assert_eq!(&Record::from_json(&j).unwrap(), g.record());
        // The same entries under the rule book's default abort the game at the leave.
        let plain =
            Record::from_text(&text.replace("table leaver partner_plays_on\n", "")).unwrap();
        assert_eq!(plain.table.leaver, Leaver::Abort);
        assert_eq!(plain.replay().unwrap().outcome(), Some(Outcome::Aborted));
        assert!(!plain.to_json().as_object().unwrap().contains_key("table"));
        // Errors name the line; a record keeps options, never a preset's name.
        for (bad, needle) in [
            (
                "table leaver stay",
                "line 2: table rule leaver has no value \"stay\"",
            ),
            ("table clock 30", "line 2: unknown table rule \"clock\""),
            (
                "table leaver",
                "line 2: a table line is written table <name> <value>",
            ),
            ("option preset qq", "unknown option \"preset\""),
        ] {
            let e = Record::from_text(&text.replacen("\n", &format!("\n{bad}\n"), 1)).unwrap_err();
            assert!(e.contains(needle), "expected {needle:?} in {e:?}");
        }
        let e = Record::from_text(&text.replacen(
            "table leaver partner_plays_on",
            "table leaver partner_plays_on\ntable leaver abort",
            1,
        ))
        .unwrap_err();
        assert!(e.contains("given twice"), "{e}");
        let mut j2 = j.clone();
        j2["table"] = serde_json::json!({"leaver": 3});
        let e = Record::from_json(&j2).unwrap_err();
        assert!(e.starts_with("table: "), "{e}");
    }
}
