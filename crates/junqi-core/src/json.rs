//! The JSON interchange forms of RULES §11: positions (§11.1), events, outcomes and game-step
//! results (§11.2), spelled exactly as the rule book spells them.
//!
//! Readers are strict: a field that is not in the spec, a value of the wrong type, an unknown
//! role or square is rejected with a message that says which field is wrong and why. Nothing
//! here panics, whatever the input.

use crate::event::{AttackResult, DrawReason, EliminationReason, Event, Outcome, SkipReason};
use crate::notation::{parse_square, square_name};
use crate::options::{Options, Rules};
use crate::position::{PlacedPiece, Position, Setup};
use crate::role::Role;
use crate::topology::{Square, Topology};
use crate::types::{BoardKind, Mode, Seat, SeatSet};
use serde_json::{json, Map, Value};

/// The fields of a position object (RULES §11.1).
pub const POSITION_FIELDS: [&str; 11] = [
    "board",
    "mode",
    "options",
    "to_move",
    "flip_colours",
    "pieces",
    "plies",
    "quiet_plies",
    "skips",
    "eliminated",
    "captured_flags",
];

const PIECE_FIELDS: [&str; 5] = ["at", "seat", "role", "face_down", "carrying_flag_of"];

/// The map of a JSON object built with `json!({...})` (the args of the core's errors).
pub(crate) fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        other => unreachable!("not a JSON object: {other}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Reading helpers, shared with the record format.

/// A JSON value shown in an error message, cut short if long.
pub(crate) fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        let cut: String = s.chars().take(57).collect();
        format!("{cut}...")
    } else {
        s
    }
}

/// A JSON object being read: knows its path (for messages) and rejects unknown fields.
pub(crate) struct Obj<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Obj<'a> {
    /// `v` must be an object whose keys are all in `allowed`. `path` names it in messages
    /// (empty for the top level, which is then called `what`).
    pub(crate) fn new(
        v: &'a Value,
        path: &str,
        what: &str,
        allowed: &[&str],
    ) -> Result<Obj<'a>, String> {
        let name = if path.is_empty() {
            what.to_string()
        } else {
            path.to_string()
        };
        let Value::Object(map) = v else {
            return Err(format!("{name} must be a JSON object, got {}", show(v)));
        };
        for k in map.keys() {
            if !allowed.contains(&k.as_str()) {
                return Err(format!(
                    "unknown field {k:?} in {name} (known fields: {})",
                    allowed.join(", ")
                ));
            }
        }
        Ok(Obj {
            map,
            path: path.to_string(),
        })
    }

    /// The path of a field, for messages.
    pub(crate) fn path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// A required field.
    pub(crate) fn req(&self, key: &str) -> Result<&'a Value, String> {
        self.map
            .get(key)
            .ok_or_else(|| format!("missing field {}", self.path(key)))
    }

    /// An optional field; JSON `null` counts as absent.
    pub(crate) fn opt(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }
}

pub(crate) fn get_str<'a>(v: &'a Value, path: &str) -> Result<&'a str, String> {
    v.as_str()
        .ok_or_else(|| format!("{path} must be a string, got {}", show(v)))
}

pub(crate) fn get_bool(v: &Value, path: &str) -> Result<bool, String> {
    v.as_bool()
        .ok_or_else(|| format!("{path} must be true or false, got {}", show(v)))
}

pub(crate) fn get_u32(v: &Value, path: &str) -> Result<u32, String> {
    v.as_u64()
        .filter(|&n| n <= u32::MAX as u64)
        .map(|n| n as u32)
        .ok_or_else(|| format!("{path} must be a non-negative integer, got {}", show(v)))
}

pub(crate) fn get_array<'a>(v: &'a Value, path: &str) -> Result<&'a Vec<Value>, String> {
    v.as_array()
        .ok_or_else(|| format!("{path} must be a JSON array, got {}", show(v)))
}

/// A seat of a board with `seats` seats.
pub(crate) fn get_seat(v: &Value, path: &str, board: BoardKind) -> Result<Seat, String> {
    let n = v
        .as_u64()
        .ok_or_else(|| format!("{path} must be a seat number, got {}", show(v)))?;
    if n >= board.seats() as u64 {
        return Err(format!(
            "{path}: seat {n} does not exist on the {board} board (seats 0 to {})",
            board.seats() - 1
        ));
    }
    Ok(n as Seat)
}

/// A flip colour: 0 or 1.
fn get_colour(v: &Value, path: &str) -> Result<u8, String> {
    match v.as_u64() {
        Some(n @ (0 | 1)) => Ok(n as u8),
        _ => Err(format!("{path} must be a colour, 0 or 1, got {}", show(v))),
    }
}

pub(crate) fn get_square(topo: &Topology, v: &Value, path: &str) -> Result<Square, String> {
    let s = get_str(v, path)?;
    parse_square(topo, s).map_err(|e| format!("{path}: {e}"))
}

fn get_role(v: &Value, path: &str) -> Result<Role, String> {
    let s = get_str(v, path)?;
    s.parse::<Role>().map_err(|e| format!("{path}: {e}"))
}

/// Board, mode and options from an object holding `board`, `mode` and optional `options`.
pub(crate) fn read_rules(o: &Obj<'_>) -> Result<Rules, String> {
    let board: BoardKind = get_str(o.req("board")?, &o.path("board"))?
        .parse()
        .map_err(|e| format!("{}: {e}", o.path("board")))?;
    let mode: Mode = get_str(o.req("mode")?, &o.path("mode"))?
        .parse()
        .map_err(|e| format!("{}: {e}", o.path("mode")))?;
    let options = Options::from_json(board, mode, o.opt("options"))
        .map_err(|e| format!("{}: {e}", o.path("options")))?;
    Rules::new(board, mode, options)
}

/// The topology of a rule set.
pub(crate) fn topology(rules: &Rules) -> &'static Topology {
    Topology::get(rules.board, rules.middle_rail())
}

// ---------------------------------------------------------------------------------------------
// Positions (§11.1).

/// Read a position object (RULES §11.1) into an unvalidated [`Setup`]. Checks the JSON itself:
/// required fields (`board`, `mode`, `to_move`, `pieces`), unknown fields, types, role names,
/// square names and seat numbers. Absent counters default to zero (`skips` to one zero per
/// seat). The rest (piece counts, one piece per square, …) is [`Position::from_setup`]'s job.
pub fn setup_from_json(v: &Value) -> Result<Setup, String> {
    let o = Obj::new(v, "", "the position", &POSITION_FIELDS)?;
    let rules = read_rules(&o)?;
    let board = rules.board;
    let topo = topology(&rules);
    let to_move = get_seat(o.req("to_move")?, "to_move", board)?;
    let flip_colours = match o.opt("flip_colours") {
        None => None,
        Some(c) => {
            let a = get_array(c, "flip_colours")?;
            if a.len() != 2 {
                return Err(format!(
                    "flip_colours must be null or [c0, c1], got {}",
                    show(c)
                ));
            }
            Some([
                get_colour(&a[0], "flip_colours[0]")?,
                get_colour(&a[1], "flip_colours[1]")?,
            ])
        }
    };
    let mut pieces = Vec::new();
    for (i, p) in get_array(o.req("pieces")?, "pieces")?.iter().enumerate() {
        let path = format!("pieces[{i}]");
        let po = Obj::new(p, &path, "a piece", &PIECE_FIELDS)?;
        let at = get_square(topo, po.req("at")?, &po.path("at"))?;
        let seat = get_seat(po.req("seat")?, &po.path("seat"), board)?;
        let role = get_role(po.req("role")?, &po.path("role"))?;
        let face_down = match po.opt("face_down") {
            None => false,
            Some(f) => get_bool(f, &po.path("face_down"))?,
        };
        let carrying_flag_of = match po.opt("carrying_flag_of") {
            None => None,
            Some(f) => Some(get_seat(f, &po.path("carrying_flag_of"), board)?),
        };
        pieces.push(PlacedPiece {
            at,
            seat,
            role,
            face_down,
            carrying_flag_of,
        });
    }
    let plies = match o.opt("plies") {
        None => 0,
        Some(n) => get_u32(n, "plies")?,
    };
    let quiet_plies = match o.opt("quiet_plies") {
        None => 0,
        Some(n) => get_u32(n, "quiet_plies")?,
    };
    let skips = match o.opt("skips") {
        None => vec![0; board.seats()],
        Some(s) => {
            let a = get_array(s, "skips")?;
            if a.len() != board.seats() {
                return Err(format!(
                    "skips must list one count per seat ({} on the {board} board), got {}",
                    board.seats(),
                    a.len()
                ));
            }
            a.iter()
                .enumerate()
                .map(|(i, k)| get_u32(k, &format!("skips[{i}]")))
                .collect::<Result<_, _>>()?
        }
    };
    let eliminated = match o.opt("eliminated") {
        None => Vec::new(),
        Some(e) => get_array(e, "eliminated")?
            .iter()
            .enumerate()
            .map(|(i, s)| get_seat(s, &format!("eliminated[{i}]"), board))
            .collect::<Result<_, _>>()?,
    };
    let mut captured_flags = Vec::new();
    if let Some(c) = o.opt("captured_flags") {
        for (i, f) in get_array(c, "captured_flags")?.iter().enumerate() {
            let path = format!("captured_flags[{i}]");
            let fo = Obj::new(f, &path, "a captured flag", &["seat", "at"])?;
            let seat = get_seat(fo.req("seat")?, &fo.path("seat"), board)?;
            let at = get_square(topo, fo.req("at")?, &fo.path("at"))?;
            captured_flags.push((seat, at));
        }
    }
    Ok(Setup {
        rules,
        to_move,
        pieces,
        flip_colours,
        plies,
        quiet_plies,
        skips,
        eliminated,
        captured_flags,
    })
}

/// Read and validate a position object (RULES §11.1): [`setup_from_json`], then
/// [`Position::from_setup`].
pub fn position_from_json(v: &Value) -> Result<Position, String> {
    let setup = setup_from_json(v)?;
    Position::from_setup(&setup).map_err(|e| e.to_string())
}

/// [`position_from_json`] from JSON text (a syntax error says where).
pub fn position_from_json_str(text: &str) -> Result<Position, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("bad JSON: {e}"))?;
    position_from_json(&v)
}

/// Write a [`Setup`] as a position object (RULES §11.1): `board`, `mode`, `options` (only those
/// that differ from the defaults of the board and mode), `to_move`, `flip_colours` (`null` unless
/// settled), `pieces` in the setup's order (`face_down` only when true, `carrying_flag_of` only
/// when carrying), the counters `plies`, `quiet_plies`, `skips`, `eliminated`, and
/// `captured_flags` only when some flag is carried.
pub fn setup_to_json(s: &Setup) -> Value {
    let rules = &s.rules;
    let topo = topology(rules);
    let pieces: Vec<Value> = s
        .pieces
        .iter()
        .map(|p| {
            let mut m = Map::new();
            m.insert("at".into(), square_name(topo, p.at).into());
            m.insert("seat".into(), p.seat.into());
            m.insert("role".into(), p.role.name().into());
            if p.face_down {
                m.insert("face_down".into(), true.into());
            }
            if let Some(f) = p.carrying_flag_of {
                m.insert("carrying_flag_of".into(), f.into());
            }
            Value::Object(m)
        })
        .collect();
    let mut m = Map::new();
    m.insert("board".into(), rules.board.name().into());
    m.insert("mode".into(), rules.mode.name().into());
    m.insert(
        "options".into(),
        Value::Object(rules.options.to_json(rules.board, rules.mode)),
    );
    m.insert("to_move".into(), s.to_move.into());
    m.insert(
        "flip_colours".into(),
        s.flip_colours.map_or(Value::Null, |c| json!(c)),
    );
    m.insert("pieces".into(), Value::Array(pieces));
    m.insert("plies".into(), s.plies.into());
    m.insert("quiet_plies".into(), s.quiet_plies.into());
    // An empty list means all zero (see `Setup::skips`): written out, one count per seat.
    let skips = if s.skips.is_empty() {
        vec![0; rules.seats()]
    } else {
        s.skips.clone()
    };
    m.insert("skips".into(), json!(skips));
    m.insert("eliminated".into(), json!(s.eliminated));
    if !s.captured_flags.is_empty() {
        let flags: Vec<Value> = s
            .captured_flags
            .iter()
            .map(|&(seat, at)| json!({"seat": seat, "at": square_name(topo, at)}))
            .collect();
        m.insert("captured_flags".into(), Value::Array(flags));
    }
    Value::Object(m)
}

/// Write a position as JSON (RULES §11.1, with counters); see [`setup_to_json`]. Pieces come in
/// square order.
pub fn position_to_json(pos: &Position) -> Value {
    setup_to_json(&pos.to_setup())
}

// ---------------------------------------------------------------------------------------------
// Events and outcomes (§11.2).

fn draw_reason(s: &str) -> Option<DrawReason> {
    [
        DrawReason::QuietPlies,
        DrawReason::MaxPlies,
        DrawReason::Agreement,
    ]
    .into_iter()
    .find(|r| r.name() == s)
}

/// Parse an enumerated value from its interchange spelling.
fn pick<T>(
    v: &Value,
    path: &str,
    parse: fn(&str) -> Option<T>,
    expected: &str,
) -> Result<T, String> {
    let s = get_str(v, path)?;
    parse(s).ok_or_else(|| format!("{path}: unknown value {s:?} (expected {expected})"))
}

/// Parse a draw reason from its spelling: `quiet_plies`, `max_plies`, `agreement`.
pub(crate) fn draw_reason_from_name(s: &str) -> Option<DrawReason> {
    draw_reason(s)
}

/// The elimination reasons, as error messages list them.
pub(crate) const ELIMINATION_REASONS: &str =
    "flag_captured, no_movable_pieces, blocked, skips, resigned or left";

/// An event as JSON (RULES §11.2): `{"kind": "move", "seat": 0, "from": "a5", "to": "a6"}` and
/// so on. `topo` names the squares.
pub fn event_to_json(topo: &Topology, e: &Event) -> Value {
    let n = |sq: Square| square_name(topo, sq);
    match *e {
        Event::Move { seat, from, to } => {
            json!({"kind": "move", "seat": seat, "from": n(from), "to": n(to)})
        }
        Event::Attack {
            seat,
            from,
            to,
            result,
        } => json!({
            "kind": "attack", "seat": seat, "from": n(from), "to": n(to), "result": result.name()
        }),
        Event::Flip {
            seat,
            at,
            role,
            colour,
        } => json!({
            "kind": "flip", "seat": seat, "at": n(at), "role": role.name(), "colour": colour
        }),
        Event::Colours { colours } => json!({"kind": "colours", "colours": colours}),
        Event::FlagRevealed { seat, at } => {
            json!({"kind": "flag_revealed", "seat": seat, "at": n(at)})
        }
        Event::Scouted { at, role } => json!({"kind": "scouted", "at": n(at), "role": role.name()}),
        Event::Skipped { seat, reason } => {
            json!({"kind": "skipped", "seat": seat, "reason": reason.name()})
        }
        Event::Eliminated { seat, reason } => {
            json!({"kind": "eliminated", "seat": seat, "reason": reason.name()})
        }
    }
}

/// Read an event (RULES §11.2). Every field of its kind is required and no other is allowed;
/// seats must exist on `topo`'s board and squares on it.
pub fn event_from_json(topo: &Topology, v: &Value) -> Result<Event, String> {
    let board = topo.board;
    let kind_of = Obj::new(
        v,
        "",
        "an event",
        &[
            "kind", "seat", "from", "to", "result", "at", "role", "colour", "colours", "reason",
        ],
    )?;
    let kind = get_str(kind_of.req("kind")?, "kind")?;
    let fields: &[&str] = match kind {
        "move" => &["kind", "seat", "from", "to"],
        "attack" => &["kind", "seat", "from", "to", "result"],
        "flip" => &["kind", "seat", "at", "role", "colour"],
        "colours" => &["kind", "colours"],
        "flag_revealed" => &["kind", "seat", "at"],
        "scouted" => &["kind", "at", "role"],
        "skipped" | "eliminated" => &["kind", "seat", "reason"],
        other => {
            return Err(format!(
                "unknown event kind {other:?} (expected move, attack, flip, colours, flag_revealed, scouted, skipped or eliminated)"
            ))
        }
    };
    let what = format!("a {kind} event");
    let o = Obj::new(v, "", &what, fields)?;
    let seat = || get_seat(o.req("seat")?, "seat", board);
    let sq = |k: &str| get_square(topo, o.req(k)?, k);
    Ok(match kind {
        "move" => Event::Move {
            seat: seat()?,
            from: sq("from")?,
            to: sq("to")?,
        },
        "attack" => Event::Attack {
            seat: seat()?,
            from: sq("from")?,
            to: sq("to")?,
            result: pick(
                o.req("result")?,
                "result",
                AttackResult::from_name,
                "attacker_wins, defender_wins, both_removed or flag_captured",
            )?,
        },
        "flip" => Event::Flip {
            seat: seat()?,
            at: sq("at")?,
            role: get_role(o.req("role")?, "role")?,
            colour: get_colour(o.req("colour")?, "colour")?,
        },
        "colours" => {
            let c = o.req("colours")?;
            let a = get_array(c, "colours")?;
            if a.len() != 2 {
                return Err(format!("colours must be [c0, c1], got {}", show(c)));
            }
            Event::Colours {
                colours: [
                    get_colour(&a[0], "colours[0]")?,
                    get_colour(&a[1], "colours[1]")?,
                ],
            }
        }
        "flag_revealed" => Event::FlagRevealed {
            seat: seat()?,
            at: sq("at")?,
        },
        "scouted" => Event::Scouted {
            at: sq("at")?,
            role: get_role(o.req("role")?, "role")?,
        },
        "skipped" => Event::Skipped {
            seat: seat()?,
            reason: pick(
                o.req("reason")?,
                "reason",
                SkipReason::from_name,
                "blocked or timeout",
            )?,
        },
        _ => Event::Eliminated {
            seat: seat()?,
            reason: pick(
                o.req("reason")?,
                "reason",
                EliminationReason::from_name,
                ELIMINATION_REASONS,
            )?,
        },
    })
}

/// An outcome as JSON (RULES §11.2): `null` while the game goes on, else
/// `{"result": "win", "winners": [0], "reason": "flag_captured"}`,
/// `{"result": "draw", "reason": "quiet_plies"}` or `{"result": "aborted"}`.
pub fn outcome_to_json(outcome: Option<Outcome>) -> Value {
    match outcome {
        None => Value::Null,
        Some(o @ Outcome::Win { reason, .. }) => {
            json!({"result": "win", "winners": o.winners(), "reason": reason.name()})
        }
        Some(Outcome::Draw { reason }) => json!({"result": "draw", "reason": reason.name()}),
        Some(Outcome::Aborted) => json!({"result": "aborted"}),
    }
}

/// Read an outcome (RULES §11.2); `null` is `None` (the game goes on). Winners are seats 0 to
/// 3, each at most once, at least one.
pub fn outcome_from_json(v: &Value) -> Result<Option<Outcome>, String> {
    if v.is_null() {
        return Ok(None);
    }
    let top = Obj::new(v, "", "the outcome", &["result", "winners", "reason"])?;
    let result = get_str(top.req("result")?, "result")?;
    Ok(Some(match result {
        "win" => {
            let o = Obj::new(v, "", "a win", &["result", "winners", "reason"])?;
            let mut winners = SeatSet::EMPTY;
            let list = get_array(o.req("winners")?, "winners")?;
            if list.is_empty() {
                return Err("winners must name at least one seat".into());
            }
            for (i, w) in list.iter().enumerate() {
                let seat = get_seat(w, &format!("winners[{i}]"), BoardKind::SixPlayer)?;
                if winners.contains(seat) {
                    return Err(format!("winners lists seat {seat} twice"));
                }
                winners.insert(seat);
            }
            let reason = pick(
                o.req("reason")?,
                "reason",
                EliminationReason::from_name,
                ELIMINATION_REASONS,
            )?;
            Outcome::Win { winners, reason }
        }
        "draw" => {
            let o = Obj::new(v, "", "a draw", &["result", "reason"])?;
            let reason = pick(
                o.req("reason")?,
                "reason",
                draw_reason,
                "quiet_plies, max_plies or agreement",
            )?;
            Outcome::Draw { reason }
        }
        "aborted" => {
            Obj::new(v, "", "an abort", &["result"])?;
            Outcome::Aborted
        }
        other => {
            return Err(format!(
                "result: unknown value {other:?} (expected win, draw or aborted)"
            ))
        }
    }))
}

// ---------------------------------------------------------------------------------------------
// Step results (§11.2).

/// The result of one step (RULES §11.2) as JSON:
/// `{"position": <§11.1 with counters>, "events": [...], "outcome": ...}`.
pub fn step_result_json(pos_after: &Position, events: &[Event]) -> Value {
    let topo = pos_after.topology();
    json!({
        "position": position_to_json(pos_after),
        "events": events.iter().map(|e| event_to_json(topo, e)).collect::<Vec<_>>(),
        "outcome": outcome_to_json(pos_after.outcome()),
    })
}

/// A game-step result read back from JSON (RULES §11.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepResult {
    /// The position after the step (unvalidated; see [`Position::from_setup`]).
    pub position: Setup,
    /// The announcements, in order.
    pub events: Vec<Event>,
    /// The outcome, `None` while the game goes on.
    pub outcome: Option<Outcome>,
}

/// Read a game-step result (RULES §11.2).
pub fn step_result_from_json(v: &Value) -> Result<StepResult, String> {
    let o = Obj::new(v, "", "the step result", &["position", "events", "outcome"])?;
    let position = setup_from_json(o.req("position")?).map_err(|e| format!("position: {e}"))?;
    let topo = topology(&position.rules);
    let events = get_array(o.req("events")?, "events")?
        .iter()
        .enumerate()
        .map(|(i, e)| event_from_json(topo, e).map_err(|m| format!("events[{i}]: {m}")))
        .collect::<Result<_, _>>()?;
    let outcome = outcome_from_json(o.req("outcome")?).map_err(|e| format!("outcome: {e}"))?;
    Ok(StepResult {
        position,
        events,
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Action;
    use rand::{Rng, SeedableRng};

    fn two() -> &'static Topology {
        Topology::get(BoardKind::TwoPlayer, true)
    }

    #[test]
    fn spec_example_parses() {
        let v = json!({
            "board": "two_player",
            "mode": "dark",
            "options": { "landmine": "both_die" },
            "to_move": 0,
            "flip_colours": null,
            "pieces": [
                { "at": "b1", "seat": 0, "role": "flag" },
                { "at": "c4", "seat": 1, "role": "engineer" }
            ]
        });
        let p = position_from_json(&v).unwrap();
        assert_eq!(p.pieces().count(), 2);
        let back = position_to_json(&p);
        assert_eq!(back["options"], json!({"landmine": "both_die"}));
        assert_eq!(back["skips"], json!([0, 0]));
        assert_eq!(back["flip_colours"], Value::Null);
        assert!(back.get("captured_flags").is_none());
        assert_eq!(position_from_json(&back).unwrap(), p);
    }

    #[test]
    fn empty_skips_are_written_as_zeros() {
        let mut s = position_from_json(&json!({
            "board": "four_player", "mode": "dark", "to_move": 1, "pieces": []
        }))
        .unwrap()
        .to_setup();
        s.skips.clear();
        let j = setup_to_json(&s);
        assert_eq!(j["skips"], json!([0, 0, 0, 0]));
        assert_eq!(setup_from_json(&j).unwrap().skips, vec![0; 4]);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let base = json!({"board": "two_player", "mode": "dark", "to_move": 0, "pieces": []});
        let with = |k: &str, v: Value| {
            let mut b = base.clone();
            b[k] = v;
            position_from_json(&b).unwrap_err()
        };
        let piece = |p: Value| with("pieces", json!([p]));
        let cases = [
            (with("board", json!("five_player")), "unknown board"),
            (with("mode", json!("fog")), "unknown mode"),
            (
                with("mode", json!("half_open")),
                "half_open is played on four_player and six_player",
            ),
            (
                with("options", json!({"fog": true})),
                "unknown option \"fog\"",
            ),
            (with("to_move", json!(2)), "seat 2 does not exist"),
            (with("to_move", json!("0")), "to_move must be a seat number"),
            (with("colour", json!(1)), "unknown field \"colour\""),
            (with("pieces", json!({})), "pieces must be a JSON array"),
            (with("skips", json!([1])), "one count per seat"),
            (
                with("plies", json!(-1)),
                "plies must be a non-negative integer",
            ),
            (with("flip_colours", json!([0, 1])), "only for flip play"),
            (
                piece(json!({"at": "z9", "seat": 0, "role": "flag"})),
                "pieces[0].at: unknown square \"z9\"",
            ),
            (
                piece(json!({"at": "a1", "seat": 0, "role": "sapper"})),
                "pieces[0].role: unknown role \"sapper\"",
            ),
            (
                piece(json!({"at": "a1", "seat": 2, "role": "flag"})),
                "pieces[0].seat: seat 2 does not exist",
            ),
            (
                piece(json!({"at": "a1", "seat": 0})),
                "missing field pieces[0].role",
            ),
            (
                piece(json!({"at": "a1", "seat": 0, "role": "flag", "hidden": true})),
                "unknown field \"hidden\" in pieces[0]",
            ),
            (
                piece(json!({"at": "a1", "seat": 0, "role": "bomb", "face_down": true})),
                "face down",
            ),
            (
                piece(json!({"at": "a1", "seat": 0, "role": "bomb", "face_down": 1})),
                "face_down must be true or false",
            ),
            (
                piece(json!({"at": "a1", "seat": 0, "role": "bomb", "carrying_flag_of": 1})),
                "carry_home",
            ),
        ];
        for (e, needle) in cases {
            assert!(e.contains(needle), "expected {needle:?} in {e:?}");
        }
        let mut b = base.clone();
        b.as_object_mut().unwrap().remove("pieces");
        assert!(position_from_json(&b)
            .unwrap_err()
            .contains("missing field pieces"));
        let two_on_one = with(
            "pieces",
            json!([{"at": "a1", "seat": 0, "role": "bomb"}, {"at": "a1", "seat": 1, "role": "bomb"}]),
        );
        assert!(two_on_one.contains("two pieces on a1"), "{two_on_one}");
        let e = position_from_json_str("{\"board\": \"two_").unwrap_err();
        assert!(e.contains("bad JSON"), "{e}");
        assert!(position_from_json(&json!([1]))
            .unwrap_err()
            .contains("the position must be a JSON object"));
    }

    #[test]
    fn events_and_outcomes_round_trip() {
        let t = two();
        let sq = |s: &str| t.parse_square(s).unwrap();
        let events = [
            Event::Move {
                seat: 0,
                from: sq("a5"),
                to: sq("a6"),
            },
            Event::Attack {
                seat: 1,
                from: sq("a7"),
                to: sq("a6"),
                result: AttackResult::BothRemoved,
            },
            Event::Flip {
                seat: 0,
                at: sq("b3"),
                role: Role::Engineer,
                colour: 1,
            },
            Event::Colours { colours: [1, 0] },
            Event::FlagRevealed {
                seat: 1,
                at: sq("b12"),
            },
            Event::Scouted {
                at: sq("c4"),
                role: Role::Bomb,
            },
            Event::Skipped {
                seat: 1,
                reason: SkipReason::Timeout,
            },
            Event::Eliminated {
                seat: 0,
                reason: EliminationReason::Left,
            },
        ];
        for e in events {
            let j = event_to_json(t, &e);
            assert_eq!(event_from_json(t, &j), Ok(e), "{j}");
        }
        assert_eq!(
            event_to_json(t, &events[1]),
            json!({"kind": "attack", "seat": 1, "from": "a7", "to": "a6", "result": "both_removed"})
        );
        let e = event_from_json(t, &json!({"kind": "move", "seat": 0, "from": "a5"})).unwrap_err();
        assert!(e.contains("missing field to"), "{e}");
        let e = event_from_json(
            t,
            &json!({"kind": "move", "seat": 0, "from": "a5", "to": "a6", "result": "x"}),
        )
        .unwrap_err();
        assert!(
            e.contains("unknown field \"result\" in a move event"),
            "{e}"
        );
        let e = event_from_json(t, &json!({"kind": "dance"})).unwrap_err();
        assert!(e.contains("unknown event kind"), "{e}");
        for o in [
            None,
            Some(Outcome::Win {
                winners: SeatSet(0b101),
                reason: EliminationReason::Skips,
            }),
            Some(Outcome::Draw {
                reason: DrawReason::Agreement,
            }),
            Some(Outcome::Aborted),
        ] {
            assert_eq!(outcome_from_json(&outcome_to_json(o)), Ok(o));
        }
        assert_eq!(
            outcome_to_json(Some(Outcome::Win {
                winners: SeatSet(0b101),
                reason: EliminationReason::Skips
            })),
            json!({"result": "win", "winners": [0, 2], "reason": "skips"})
        );
        assert!(
            outcome_from_json(&json!({"result": "win", "winners": [], "reason": "left"})).is_err()
        );
        assert!(
            outcome_from_json(&json!({"result": "draw", "reason": "boredom"}))
                .unwrap_err()
                .contains("boredom")
        );
        assert!(outcome_from_json(&json!({"result": "aborted", "reason": "left"})).is_err());
    }

    #[test]
    fn step_results_round_trip_through_random_games() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        for (board, mode) in [
            (BoardKind::TwoPlayer, Mode::Flip),
            (BoardKind::FourPlayer, Mode::Dark),
        ] {
            let rules = Rules::defaults(board, mode).unwrap();
            let mut pos = Position::random_start(rules, &mut rng);
            for _ in 0..200 {
                let acts = pos.legal_actions();
                if acts.is_empty() {
                    break;
                }
                let a: Action = acts[rng.gen_range(0..acts.len())];
                let mut ev = Vec::new();
                pos.play(a, &mut ev).unwrap();
                let j = step_result_json(&pos, &ev);
                let back = step_result_from_json(&j).unwrap();
                assert_eq!(back.position, pos.to_setup());
                assert_eq!(back.events, ev);
                assert_eq!(back.outcome, pos.outcome());
            }
        }
    }
}
