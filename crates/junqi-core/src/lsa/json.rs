//! The JSON interchange forms of land-sea-air (LANDSEAAIR §9, §10.2, §10.3, and `RULES.md`
//! §11.2): rule options, positions, views, events, outcomes and game-step results.
//!
//! Readers are strict, as the 军棋 readers of [`crate::json`]: a field outside the spec, a
//! value of the wrong type, an unknown role, square or option is rejected with a message that
//! says which field is wrong and why. Nothing here panics, whatever the input.
//!
//! # Where the rule book is silent
//! - Options are written out only where they differ from the §9 defaults (as `RULES.md`
//!   positions do); the `RULES.md` options that §9 accepts and ignores are checked and then
//!   dropped, so they are never written back.
//! - A position's `eliminated` may name one seat (a two-player game ends with the first
//!   elimination). Its reason is not in the position; it is taken as the first that fits:
//!   `flag_captured` (the seat has no flag on the board), `no_movable_pieces`, `skips` (5 or
//!   more), `blocked` (no legal action), else `resigned`.
//! - A position does not list announcements. When it is read, a seat without its marshal on
//!   the board under `reveal_flag_on_marshal_loss = true` has its flag announced (the marshal
//!   must have been removed, and the flag never moves); the anti-aircraft gun that shot a
//!   scout down is not known from a position, so its identity is not in views built from one.
//! - A piece of a position may carry `"arm"` (so that a view of an open game, which lists
//!   every role, reads back as a position); it must then be the role's arm.
//! - `skips` counts above 255 are refused (the limit is 5).
//! - The referee's `drawn` announcement has no event kind in §10.3: a draw shows in the
//!   outcome only, as in `RULES.md` §11.2. `skipped` always has reason `blocked` (the clock's
//!   `timeout` is a table matter).
//! - A view is the §10.2 position shape, every piece with its `arm` and with `role` only where
//!   §6 allows, plus `observer` (`{"seat": s}`, `"public"` or `"referee"`), `outcome` and
//!   `legal_actions` (the seat's, when it is to move; else `[]`), mirroring the 军棋
//!   observations of `docs/formats.md`.

use super::board::{Side, Square, BOARD_NAME};
use super::combat::{CombatRule, Combatant};
use super::movegen::Action;
use super::notation::{action_from_text, parse_square};
use super::pieces::{Arm, PieceSet, Role};
use super::position::{CampProtects, Event, FortStrike, Options, Piece, Position, Status};
use super::view::{Mode, Observer, View, ViewPiece};
use crate::event::{AttackResult, EliminationReason, Outcome, SkipReason};
use crate::json::{get_array, get_bool, get_str, get_u32, show, Obj, ELIMINATION_REASONS};
use crate::options::{Blocked, LandmineRule};
use crate::types::{BoardKind, SeatSet};
use serde_json::{json, Map, Value};
use std::num::NonZeroU32;

/// The options of §9 that change play on this board, in the order of §9.
pub const OPTION_NAMES: [&str; 10] = [
    "piece_set",
    "combat",
    "rail_max",
    "camp_protects",
    "landmine",
    "fort_strike",
    "reveal_flag_on_marshal_loss",
    "blocked",
    "quiet_plies",
    "max_plies",
];

/// The `RULES.md` options that §9 accepts (with a value `RULES.md` §9 allows) and ignores.
pub const IGNORED_OPTIONS: [&str; 11] = [
    "middle_crossing",
    "bomb_flies",
    "rail_turns",
    "hq_exit",
    "engineer_scout",
    "win_by_flag",
    "turn_order",
    "teams",
    "flip_colour",
    "losing_attacks",
    "flag_guarded_by_mines",
];

/// The fields of a position object (§10.2).
pub const POSITION_FIELDS: [&str; 10] = [
    "board",
    "mode",
    "options",
    "to_move",
    "pieces",
    "fort_struck",
    "plies",
    "quiet_plies",
    "skips",
    "eliminated",
];

const PIECE_FIELDS: [&str; 5] = ["at", "seat", "role", "landed", "arm"];

/// The counters of a position or a view: `plies`, `quiet_plies` (absent: 0) and `skips`
/// (absent: none).
fn counters(o: &Obj<'_>) -> Result<(u32, u32, [u8; 2]), String> {
    let count = |k: &str| o.opt(k).map_or(Ok(0), |n| get_u32(n, k));
    let skips = match o.opt("skips") {
        None => [0, 0],
        Some(s) => pair(s, "skips", |v, p| {
            let n = get_u32(v, p)?;
            u8::try_from(n).map_err(|_| format!("{p}: {n} skips is more than any game reaches"))
        })?,
    };
    Ok((count("plies")?, count("quiet_plies")?, skips))
}

/// What every piece object of a position or a view holds: its path (`pieces[i]`, for
/// messages), the object, its square, its seat, and whether it is a landed ship.
fn piece_fields(p: &Value, i: usize) -> Result<(String, Obj<'_>, Square, Side, bool), String> {
    let path = format!("pieces[{i}]");
    let po = Obj::new(p, &path, "a piece", &PIECE_FIELDS)?;
    let at = square_of(po.req("at")?, &po.path("at"))?;
    let side = side_of(po.req("seat")?, &po.path("seat"))?;
    let landed = match po.opt("landed") {
        None => false,
        Some(l) => get_bool(l, &po.path("landed"))?,
    };
    Ok((path, po, at, side, landed))
}

// ---------------------------------------------------------------------------------------------
// Options (§9).

fn one_of<T: Copy>(
    name: &str,
    v: &Value,
    values: &[T],
    spell: fn(T) -> &'static str,
) -> Result<T, String> {
    let s = v
        .as_str()
        .ok_or_else(|| format!("option {name} must be a string, got {}", show(v)))?;
    values
        .iter()
        .copied()
        .find(|&x| spell(x) == s)
        .ok_or_else(|| {
            let all: Vec<&str> = values.iter().map(|&x| spell(x)).collect();
            format!(
                "option {name} has no value {s:?} (expected one of {})",
                all.join(", ")
            )
        })
}

fn limit(name: &str, v: &Value) -> Result<NonZeroU32, String> {
    let n = v
        .as_u64()
        .filter(|&n| n <= u32::MAX as u64)
        .ok_or_else(|| format!("option {name} must be a positive integer, got {}", show(v)))?;
    NonZeroU32::new(n as u32).ok_or_else(|| {
        format!("option {name} must be at least 1 (a limit of 0 would draw the game before its first move)")
    })
}

/// Set one option of §9 from its name and JSON value. The `RULES.md` options that do not
/// apply to this board are checked against `RULES.md` §9 and ignored; an unknown name is an
/// error.
pub fn set_option(o: &mut Options, name: &str, v: &Value) -> Result<(), String> {
    match name {
        "piece_set" => o.piece_set = one_of(name, v, &PieceSet::ALL, PieceSet::name)?,
        "combat" => {
            o.combat.combat = one_of(
                name,
                v,
                &[CombatRule::Seed, CombatRule::Taiwan],
                CombatRule::name,
            )?
        }
        "rail_max" => {
            o.rail_max = v
                .as_u64()
                .filter(|&n| n <= u32::MAX as u64)
                .ok_or_else(|| {
                    format!(
                        "option rail_max must be an integer, at least 1, or 0 for no limit; got {}",
                        show(v)
                    )
                })? as u32
        }
        "camp_protects" => {
            o.camp_protects = one_of(
                name,
                v,
                &[CampProtects::Owner, CampProtects::Anyone],
                CampProtects::name,
            )?
        }
        "landmine" => o.combat.landmine = one_of(name, v, LandmineRule::ALL, LandmineRule::name)?,
        "fort_strike" => {
            o.fort_strike = one_of(
                name,
                v,
                &[FortStrike::Repeat, FortStrike::Once, FortStrike::Never],
                FortStrike::name,
            )?
        }
        "reveal_flag_on_marshal_loss" => {
            o.reveal_flag_on_marshal_loss = v
                .as_bool()
                .ok_or_else(|| format!("option {name} must be true or false, got {}", show(v)))?
        }
        // LANDSEAAIR §9 has `lose` and `skip`; QQ's `out_at_once` is a 军棋 option only.
        "blocked" => o.blocked = one_of(name, v, &[Blocked::Lose, Blocked::Skip], Blocked::name)?,
        "quiet_plies" => o.quiet_plies = limit(name, v)?,
        "max_plies" => o.max_plies = limit(name, v)?,
        _ if IGNORED_OPTIONS.contains(&name) => {
            // Checked as RULES §9 has it, then ignored (LANDSEAAIR §9).
            let mut scratch =
                crate::options::Options::defaults(BoardKind::TwoPlayer, crate::types::Mode::Dark);
            scratch
                .set(name, v)
                .map_err(|e| format!("{e} (the option does not apply to land_sea_air and is ignored, but its value must be one RULES §9 allows)"))?;
        }
        _ => {
            return Err(format!(
                "unknown option {name:?} (land_sea_air options: {}; accepted and ignored: {})",
                OPTION_NAMES.join(", "),
                IGNORED_OPTIONS.join(", ")
            ))
        }
    }
    Ok(())
}

/// Options from a JSON object holding any subset of §9 (absent options take their defaults);
/// `None` or `null` means all defaults. A `"preset"` field (`standard` or `taiwan`) gives the
/// starting point the other fields change.
pub fn options_from_json(v: Option<&Value>) -> Result<Options, String> {
    let (v, preset) = crate::preset::split_preset(v, crate::lsa::board::BOARD_NAME)?;
    let mut o = match preset {
        Some(p) => p.lsa_options()?,
        None => Options::default(),
    };
    match v.as_ref() {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (k, val) in m {
                set_option(&mut o, k, val)?;
            }
        }
        Some(other) => {
            return Err(format!(
                "options must be a JSON object, got {}",
                show(other)
            ))
        }
    }
    Ok(o)
}

fn option_value(o: &Options, name: &str) -> Value {
    match name {
        "piece_set" => o.piece_set.name().into(),
        "combat" => o.combat.combat.name().into(),
        "rail_max" => o.rail_max.into(),
        "camp_protects" => o.camp_protects.name().into(),
        "landmine" => o.combat.landmine.name().into(),
        "fort_strike" => o.fort_strike.name().into(),
        "reveal_flag_on_marshal_loss" => o.reveal_flag_on_marshal_loss.into(),
        "blocked" => o.blocked.name().into(),
        "quiet_plies" => o.quiet_plies.get().into(),
        _ => o.max_plies.get().into(),
    }
}

/// The options that differ from the §9 defaults, as a JSON object.
pub fn options_to_json(o: &Options) -> Map<String, Value> {
    let d = Options::default();
    OPTION_NAMES
        .iter()
        .filter(|n| option_value(o, n) != option_value(&d, n))
        .map(|n| (n.to_string(), option_value(o, n)))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Positions (§10.2).

pub(crate) fn side_of(v: &Value, path: &str) -> Result<Side, String> {
    match v.as_u64() {
        Some(0) => Ok(Side::South),
        Some(1) => Ok(Side::North),
        _ => Err(format!(
            "{path} must be a seat of the land_sea_air board, 0 (South) or 1 (North); got {}",
            show(v)
        )),
    }
}

fn square_of(v: &Value, path: &str) -> Result<Square, String> {
    parse_square(get_str(v, path)?).map_err(|e| format!("{path}: {e}"))
}

fn role_of(v: &Value, path: &str) -> Result<Role, String> {
    let s = get_str(v, path)?;
    s.parse::<Role>().map_err(|_| {
        format!("{path}: unknown role {s:?} (the roles of LANDSEAAIR §1, e.g. marshal, tank, battleship, fighter)")
    })
}

fn pair<T>(
    v: &Value,
    path: &str,
    item: fn(&Value, &str) -> Result<T, String>,
) -> Result<[T; 2], String> {
    let a = get_array(v, path)?;
    if a.len() != 2 {
        return Err(format!(
            "{path} must list one value per seat ([south, north]), got {}",
            show(v)
        ));
    }
    Ok([
        item(&a[0], &format!("{path}[0]"))?,
        item(&a[1], &format!("{path}[1]"))?,
    ])
}

/// The mode and rule options of an object holding `board`, `mode` and optional `options`.
pub(crate) fn read_rules(o: &Obj<'_>) -> Result<(Mode, Options), String> {
    let board = get_str(o.req("board")?, "board")?;
    if board != BOARD_NAME {
        return Err(format!(
            "board: {board:?} is not {BOARD_NAME:?} (this reader is for land-sea-air positions)"
        ));
    }
    let mode =
        Mode::from_name(get_str(o.req("mode")?, "mode")?).map_err(|e| format!("mode: {e}"))?;
    let opts = options_from_json(o.opt("options")).map_err(|e| format!("options: {e}"))?;
    Ok((mode, opts))
}

/// Why a side is taken as eliminated in a position read from JSON (module doc).
fn elimination_reason(pos: &Position, side: Side) -> EliminationReason {
    let has_flag = pos
        .pieces()
        .any(|(_, p)| p.side() == side && p.role() == Role::Flag);
    if !has_flag {
        EliminationReason::FlagCaptured
    } else if pos.movable_count(side) == 0 {
        EliminationReason::NoMovablePieces
    } else if pos.skips(side) >= super::position::SKIP_LIMIT {
        EliminationReason::Skips
    } else if !pos.can_act(side) {
        EliminationReason::Blocked
    } else {
        EliminationReason::Resigned
    }
}

/// Read and check a position object (§10.2): its mode and the referee's full state. Rejects
/// unknown fields, a board other than `land_sea_air`, a mode other than dark or open, bad
/// options, a piece on a square its arm can never use, the fort off its harbour, `landed` on a
/// role other than battleship or cruiser, a role outside the piece set or over its count, two
/// pieces on a square, and `eliminated` naming both seats.
pub fn position_from_json(v: &Value) -> Result<(Mode, Position), String> {
    let o = Obj::new(v, "", "the position", &POSITION_FIELDS)?;
    let (mode, opts) = read_rules(&o)?;
    let to_move = side_of(o.req("to_move")?, "to_move")?;
    let mut pieces = Vec::new();
    for (i, p) in get_array(o.req("pieces")?, "pieces")?.iter().enumerate() {
        let (path, po, at, side, landed) = piece_fields(p, i)?;
        let role = role_of(po.req("role")?, &po.path("role"))?;
        if !opts.piece_set.has(role) {
            return Err(format!(
                "{path}: role {role} is not in the piece set {} (LANDSEAAIR §1)",
                opts.piece_set.name()
            ));
        }
        let body = if landed {
            match role.landing_ship() {
                Some(ship) => Combatant::Landed(ship),
                None => {
                    return Err(format!(
                        "{path}: landed is only for a battleship or a cruiser, not a {role}"
                    ))
                }
            }
        } else {
            Combatant::Piece(role)
        };
        let piece = Piece::of(side, body);
        if let Some(a) = po.opt("arm") {
            let arm = get_str(a, &po.path("arm"))?;
            if arm != piece.arm().name() {
                return Err(format!(
                    "{path}: arm {arm:?} is not the arm of a {}{role} ({})",
                    if landed { "landed " } else { "" },
                    piece.arm()
                ));
            }
        }
        pieces.push((at, piece));
    }
    let mut pos = Position::from_pieces(opts, to_move, &pieces).map_err(|e| e.to_string())?;
    if let Some(f) = o.opt("fort_struck") {
        let [s, n] = pair(f, "fort_struck", get_bool)?;
        pos.set_fort_struck(Side::South, s);
        pos.set_fort_struck(Side::North, n);
    }
    let (plies, quiet, skips) = counters(&o)?;
    pos.set_counters(plies, quiet, skips);
    if opts.reveal_flag_on_marshal_loss {
        for side in Side::BOTH {
            if !pos
                .pieces()
                .any(|(_, p)| p.side() == side && p.role() == Role::Marshal)
            {
                pos.reveal_flag(side);
            }
        }
    }
    if let Some(e) = o.opt("eliminated") {
        let list = get_array(e, "eliminated")?;
        let sides = list
            .iter()
            .enumerate()
            .map(|(i, s)| side_of(s, &format!("eliminated[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        match sides.as_slice() {
            [] => {}
            [side] => {
                let reason = elimination_reason(&pos, *side);
                pos.set_eliminated(*side, reason);
            }
            _ => {
                return Err(
                    "eliminated may name at most one seat (the first elimination ends a two-player game)"
                        .into(),
                )
            }
        }
    }
    Ok((mode, pos))
}

/// [`position_from_json`] from JSON text.
pub fn position_from_json_str(text: &str) -> Result<(Mode, Position), String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("bad JSON: {e}"))?;
    position_from_json(&v)
}

fn eliminated(status: Status) -> Vec<u8> {
    match status {
        Status::Won { winner, .. } => vec![winner.other() as u8],
        _ => Vec::new(),
    }
}

fn head(m: &mut Map<String, Value>, mode: Mode, opts: &Options, to_move: Side) {
    m.insert("board".into(), BOARD_NAME.into());
    m.insert("mode".into(), mode.name().into());
    m.insert("options".into(), Value::Object(options_to_json(opts)));
    m.insert("to_move".into(), (to_move as u8).into());
}

fn tail(
    m: &mut Map<String, Value>,
    fort_struck: [bool; 2],
    plies: u32,
    quiet: u32,
    skips: [u8; 2],
    status: Status,
) {
    m.insert("fort_struck".into(), json!(fort_struck));
    m.insert("plies".into(), plies.into());
    m.insert("quiet_plies".into(), quiet.into());
    m.insert("skips".into(), json!(skips));
    m.insert("eliminated".into(), json!(eliminated(status)));
}

/// Write a position as JSON (§10.2, with counters): options only where they differ from the
/// defaults, pieces in square order, `landed` only on landed ships.
pub fn position_to_json(mode: Mode, pos: &Position) -> Value {
    let mut m = Map::new();
    head(&mut m, mode, pos.options(), pos.to_move());
    let pieces: Vec<Value> = pos
        .pieces()
        .map(|(at, p)| piece_json(at, p.side(), None, Some(p.role()), p.landed()))
        .collect();
    m.insert("pieces".into(), Value::Array(pieces));
    tail(
        &mut m,
        [pos.fort_struck(Side::South), pos.fort_struck(Side::North)],
        pos.plies(),
        pos.quiet_plies(),
        [pos.skips(Side::South), pos.skips(Side::North)],
        pos.status(),
    );
    Value::Object(m)
}

// ---------------------------------------------------------------------------------------------
// Views (§6, §10.2).

/// An observer as JSON: `{"seat": s}`, `"public"` (a spectator) or `"referee"`.
pub fn observer_to_json(o: Observer) -> Value {
    match o {
        Observer::Seat(s) => json!({"seat": s as u8}),
        Observer::Spectator => "public".into(),
        Observer::Referee => "referee".into(),
    }
}

/// Write a view as JSON: the §10.2 position shape, every piece with its `arm` and its `role`
/// only where §6 allows, plus `observer`, `outcome` and `legal_actions` (module doc).
pub fn view_to_json(v: &View) -> Value {
    let mut m = Map::new();
    head(&mut m, v.mode, &v.options, v.to_move);
    m.insert("observer".into(), observer_to_json(v.observer));
    let pieces: Vec<Value> = v
        .pieces
        .iter()
        .map(|p| piece_json(p.at, p.side, Some(p.arm), p.role, p.landed))
        .collect();
    m.insert("pieces".into(), Value::Array(pieces));
    tail(
        &mut m,
        v.fort_struck,
        v.plies,
        v.quiet_plies,
        v.skips,
        v.status,
    );
    m.insert("outcome".into(), outcome_to_json(v.status));
    m.insert(
        "legal_actions".into(),
        actions_to_json(v.legal_actions.iter().copied()),
    );
    Value::Object(m)
}

/// The fields of a view object: a position's, plus `observer`, `outcome` and `legal_actions`.
pub const VIEW_FIELDS: [&str; 13] = {
    let extra = ["observer", "outcome", "legal_actions"];
    let mut all = [""; 13];
    let mut i = 0;
    while i < all.len() {
        all[i] = if i < POSITION_FIELDS.len() {
            POSITION_FIELDS[i]
        } else {
            extra[i - POSITION_FIELDS.len()]
        };
        i += 1;
    }
    all
};

/// An observer from JSON: `{"seat": 0|1}`, `"public"` or `"referee"`.
pub fn observer_from_json(v: &Value) -> Result<Observer, String> {
    match v {
        Value::String(s) if s == "public" => Ok(Observer::Spectator),
        Value::String(s) if s == "referee" => Ok(Observer::Referee),
        Value::Object(_) => {
            let o = Obj::new(v, "observer", "an observer", &["seat"])?;
            Ok(Observer::Seat(side_of(o.req("seat")?, "observer.seat")?))
        }
        _ => Err(format!(
            "observer must be {{\"seat\": 0|1}}, \"public\" or \"referee\"; got {}",
            show(v)
        )),
    }
}

/// The status an `outcome` value (RULES §11.2) stands for on this board.
fn status_of(v: &Value) -> Result<Status, String> {
    Ok(
        match crate::json::outcome_from_json(v).map_err(|e| format!("outcome: {e}"))? {
            None => Status::Playing,
            Some(Outcome::Win { winners, reason }) => {
                let list: Vec<u8> = winners.iter().collect();
                let winner = match list.as_slice() {
                    [0] => Side::South,
                    [1] => Side::North,
                    _ => {
                        return Err(format!(
                            "outcome: a land-sea-air game has one winner, seat 0 or 1; got {list:?}"
                        ))
                    }
                };
                Status::Won { winner, reason }
            }
            Some(Outcome::Draw { reason }) => Status::Drawn(reason),
            Some(Outcome::Aborted) => {
                return Err("outcome: a land-sea-air game is never aborted".into())
            }
        },
    )
}

/// Read and check a view object ([`view_to_json`]'s shape): every piece with its `arm`, its
/// `role` where shown, `observer`, `outcome` and `legal_actions` (texts read against
/// [`View::stand_in`], so each becomes the action the referee means by it). Rejects what
/// [`position_from_json`] rejects, a shown role whose arm is not the piece's, an `eliminated`
/// that disagrees with the outcome, and legal actions in a view whose observer is not to move
/// in a game that goes on.
pub fn view_from_json(v: &Value) -> Result<View, String> {
    let o = Obj::new(v, "", "the view", &VIEW_FIELDS)?;
    let (mode, options) = read_rules(&o)?;
    let to_move = side_of(o.req("to_move")?, "to_move")?;
    let observer = observer_from_json(o.req("observer")?)?;
    let mut pieces = Vec::new();
    for (i, p) in get_array(o.req("pieces")?, "pieces")?.iter().enumerate() {
        let (path, po, at, side, landed) = piece_fields(p, i)?;
        let arm_name = get_str(po.req("arm")?, &po.path("arm"))?;
        let arm = Arm::ALL
            .into_iter()
            .find(|a| a.name() == arm_name)
            .ok_or_else(|| format!("{path}.arm: {arm_name:?} is not land, sea or air"))?;
        let role = po
            .opt("role")
            .map(|r| role_of(r, &po.path("role")))
            .transpose()?;
        if landed && arm != Arm::Land {
            return Err(format!("{path}: a landed ship is a land-arm piece"));
        }
        if let Some(r) = role {
            if !options.piece_set.has(r) {
                return Err(format!(
                    "{path}: role {r} is not in the piece set {} (LANDSEAAIR §1)",
                    options.piece_set.name()
                ));
            }
            let want = if landed {
                r.landing_ship().map(|_| Arm::Land)
            } else {
                Some(r.arm())
            };
            if want != Some(arm) {
                return Err(format!(
                    "{path}: a {}{r} is not of arm {arm}",
                    if landed { "landed " } else { "" }
                ));
            }
        }
        pieces.push(ViewPiece {
            at,
            side,
            arm,
            landed,
            role,
        });
    }
    pieces.sort_by_key(|p| p.at);
    let fort_struck = match o.opt("fort_struck") {
        None => [false, false],
        Some(f) => pair(f, "fort_struck", get_bool)?,
    };
    let (plies, quiet_plies, skips) = counters(&o)?;
    let status = status_of(o.req("outcome")?)?;
    if let Some(e) = o.opt("eliminated") {
        let list = get_array(e, "eliminated")?;
        let sides = list
            .iter()
            .enumerate()
            .map(|(i, s)| side_of(s, &format!("eliminated[{i}]")).map(|s| s as u8))
            .collect::<Result<Vec<_>, _>>()?;
        if sides != eliminated(status) {
            return Err(format!(
                "eliminated {sides:?} does not agree with the outcome (the loser of a win, else nobody)"
            ));
        }
    }
    let mut view = View {
        observer,
        mode,
        options,
        to_move,
        pieces,
        fort_struck,
        plies,
        quiet_plies,
        skips,
        status,
        legal_actions: Vec::new(),
    };
    let stand_in = view.stand_in()?;
    let texts = get_array(o.req("legal_actions")?, "legal_actions")?;
    if !texts.is_empty() && (observer != Observer::Seat(to_move) || status != Status::Playing) {
        return Err(
            "legal_actions: only the view of the seat to move in a game that goes on lists actions"
                .into(),
        );
    }
    for (i, t) in texts.iter().enumerate() {
        let path = format!("legal_actions[{i}]");
        let text = get_str(t, &path)?;
        let a = action_from_text(&stand_in, text).map_err(|e| format!("{path}: {e}"))?;
        if view.legal_actions.contains(&a) {
            return Err(format!("{path}: {text} is listed twice"));
        }
        view.legal_actions.push(a);
    }
    Ok(view)
}

/// [`view_from_json`] from JSON text.
pub fn view_from_json_str(text: &str) -> Result<View, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("bad JSON: {e}"))?;
    view_from_json(&v)
}

/// One piece of a position or a view: its square and seat, its arm (views), its role where it
/// is shown, and `landed` only when true.
fn piece_json(at: Square, side: Side, arm: Option<Arm>, role: Option<Role>, landed: bool) -> Value {
    let mut q = Map::new();
    q.insert("at".into(), at.to_string().into());
    q.insert("seat".into(), (side as u8).into());
    if let Some(a) = arm {
        q.insert("arm".into(), a.name().into());
    }
    if let Some(r) = role {
        q.insert("role".into(), r.name().into());
    }
    if landed {
        q.insert("landed".into(), true.into());
    }
    Value::Object(q)
}

// ---------------------------------------------------------------------------------------------
// Events (§10.3) and outcomes (RULES §11.2).

/// An event as JSON (§10.3), or `None` for the referee's draw announcement, which has no
/// event kind (the outcome carries it).
pub fn event_to_json(e: &Event) -> Option<Value> {
    let seat = |s: Side| s as u8;
    Some(match *e {
        Event::Moved { side, from, to } => {
            json!({"kind": "move", "seat": seat(side), "from": from.to_string(), "to": to.to_string()})
        }
        Event::Landed { side, from, to } => {
            json!({"kind": "landed", "seat": seat(side), "from": from.to_string(), "to": to.to_string()})
        }
        Event::Attack {
            side,
            from,
            to,
            result,
            kind,
        } => {
            let mut v = json!({
                "kind": "attack", "seat": seat(side), "from": from.to_string(),
                "to": to.to_string(), "result": result.name()
            });
            let flag = match kind {
                super::position::AttackKind::Plain => None,
                super::position::AttackKind::Landing => Some("landing"),
                super::position::AttackKind::Strike => Some("strike"),
                super::position::AttackKind::Flight => Some("flight"),
            };
            if let (Some(f), Value::Object(m)) = (flag, &mut v) {
                m.insert(f.into(), true.into());
            }
            v
        }
        Event::Scout {
            side,
            from,
            at,
            shot_down,
        } => json!({
            "kind": "scout", "seat": seat(side), "from": from.to_string(), "at": at.to_string(),
            "result": if shot_down { "shot_down" } else { "viewed" }
        }),
        Event::ScoutedPrivate {
            side,
            at,
            role,
            landed,
        } => {
            let mut v = json!({"kind": "scouted_private", "seat": seat(side), "at": at.to_string(), "role": role.name()});
            if let (true, Value::Object(m)) = (landed, &mut v) {
                m.insert("landed".into(), true.into());
            }
            v
        }
        Event::FlagRevealed { side, at } => {
            json!({"kind": "flag_revealed", "seat": seat(side), "at": at.to_string()})
        }
        Event::Skipped { side, reason } => {
            json!({"kind": "skipped", "seat": seat(side), "reason": reason.name()})
        }
        Event::Eliminated { side, reason } => {
            json!({"kind": "eliminated", "seat": seat(side), "reason": reason.name()})
        }
        Event::Drawn { .. } => return None,
    })
}

const EVENT_FIELDS: [&str; 10] = [
    "kind", "seat", "from", "to", "at", "result", "role", "landed", "reason", "strike",
];

/// Read an event (§10.3). Every field of its kind is required, the attack flags and `landed`
/// are optional (at most one attack flag, each `true` when present), and no other field is
/// allowed.
pub fn event_from_json(v: &Value) -> Result<Event, String> {
    let mut all: Vec<&str> = EVENT_FIELDS.to_vec();
    all.extend(["landing", "flight"]);
    let k = Obj::new(v, "", "an event", &all)?;
    let kind = get_str(k.req("kind")?, "kind")?;
    let fields: &[&str] = match kind {
        "move" | "landed" => &["kind", "seat", "from", "to"],
        "attack" => &[
            "kind", "seat", "from", "to", "result", "strike", "landing", "flight",
        ],
        "scout" => &["kind", "seat", "from", "at", "result"],
        "scouted_private" => &["kind", "seat", "at", "role", "landed"],
        "flag_revealed" => &["kind", "seat", "at"],
        "skipped" | "eliminated" => &["kind", "seat", "reason"],
        other => {
            return Err(format!(
                "unknown event kind {other:?} (expected move, landed, attack, scout, scouted_private, flag_revealed, skipped or eliminated)"
            ))
        }
    };
    let what = format!("a {kind} event");
    let o = Obj::new(v, "", &what, fields)?;
    let side = side_of(o.req("seat")?, "seat")?;
    let sq = |key: &str| square_of(o.req(key)?, key);
    let flag = |key: &str| -> Result<bool, String> {
        match o.opt(key) {
            None => Ok(false),
            Some(f) => match get_bool(f, key)? {
                true => Ok(true),
                false => Err(format!("{key} is written only when true")),
            },
        }
    };
    Ok(match kind {
        "move" => Event::Moved {
            side,
            from: sq("from")?,
            to: sq("to")?,
        },
        "landed" => Event::Landed {
            side,
            from: sq("from")?,
            to: sq("to")?,
        },
        "attack" => {
            let r = get_str(o.req("result")?, "result")?;
            let result = AttackResult::from_name(r).ok_or_else(|| {
                format!("result: unknown value {r:?} (expected attacker_wins, defender_wins, both_removed or flag_captured)")
            })?;
            use super::position::AttackKind;
            let kind = match (flag("strike")?, flag("landing")?, flag("flight")?) {
                (false, false, false) => AttackKind::Plain,
                (true, false, false) => AttackKind::Strike,
                (false, true, false) => AttackKind::Landing,
                (false, false, true) => AttackKind::Flight,
                _ => return Err("an attack carries at most one of strike, landing, flight".into()),
            };
            Event::Attack {
                side,
                from: sq("from")?,
                to: sq("to")?,
                result,
                kind,
            }
        }
        "scout" => {
            let r = get_str(o.req("result")?, "result")?;
            let shot_down = match r {
                "viewed" => false,
                "shot_down" => true,
                other => {
                    return Err(format!(
                        "result: unknown value {other:?} (expected viewed or shot_down)"
                    ))
                }
            };
            Event::Scout {
                side,
                from: sq("from")?,
                at: sq("at")?,
                shot_down,
            }
        }
        "scouted_private" => {
            let role = role_of(o.req("role")?, "role")?;
            let landed = flag("landed")?;
            if landed && role.landing_ship().is_none() {
                return Err(format!(
                    "landed is only for a battleship or a cruiser, not a {role}"
                ));
            }
            Event::ScoutedPrivate {
                side,
                at: sq("at")?,
                role,
                landed,
            }
        }
        "flag_revealed" => Event::FlagRevealed {
            side,
            at: sq("at")?,
        },
        "skipped" => {
            let name = get_str(o.req("reason")?, "reason")?;
            let reason = SkipReason::from_name(name).ok_or_else(|| {
                format!("reason: {name:?} is not a skip reason (blocked or timeout)")
            })?;
            Event::Skipped { side, reason }
        }
        _ => {
            let r = get_str(o.req("reason")?, "reason")?;
            let reason = EliminationReason::from_name(r).ok_or_else(|| {
                format!("reason: unknown value {r:?} (expected {ELIMINATION_REASONS})")
            })?;
            Event::Eliminated { side, reason }
        }
    })
}

/// The outcome of a game state (RULES §11.2): `None` while it goes on.
pub fn outcome(status: Status) -> Option<Outcome> {
    match status {
        Status::Playing => None,
        Status::Won { winner, reason } => {
            let mut winners = SeatSet::EMPTY;
            winners.insert(winner as u8);
            Some(Outcome::Win { winners, reason })
        }
        Status::Drawn(reason) => Some(Outcome::Draw { reason }),
    }
}

/// The outcome as JSON (RULES §11.2): `null`, `{"result": "win", "winners": [s], "reason": …}`
/// or `{"result": "draw", "reason": …}`.
pub fn outcome_to_json(status: Status) -> Value {
    crate::json::outcome_to_json(outcome(status))
}

/// The game-step result (RULES §11.2) after an action, as `observer` receives it: the next
/// position (the referee's, with counters) or the observer's view of it, the events the
/// observer receives, and the outcome.
pub fn step_result_json(
    mode: Mode,
    after: &Position,
    events: &[Event],
    observer: Observer,
) -> Value {
    let position = match observer {
        Observer::Referee => position_to_json(mode, after),
        o => view_to_json(&after.view(mode, o)),
    };
    let events: Vec<Value> = events
        .iter()
        .filter(|e| observer.receives(e))
        .filter_map(event_to_json)
        .collect();
    json!({
        "position": position,
        "events": events,
        "outcome": outcome_to_json(after.status()),
    })
}

/// The text of a legal action, and the action list of a position as JSON strings.
pub fn actions_to_json(actions: impl Iterator<Item = Action>) -> Value {
    actions.map(|a| Value::String(a.to_string())).collect()
}

#[cfg(test)]
mod tests {
    use super::super::movegen::ActionList;
    use super::super::playout::random_start;
    use super::*;
    use proptest::prelude::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn spec_example() -> Value {
        json!({
          "board": "land_sea_air",
          "mode": "dark",
          "options": { "rail_max": 3, "fort_strike": "once" },
          "to_move": 1,
          "pieces": [
            { "at": "e1",  "seat": 0, "role": "flag" },
            { "at": "e6",  "seat": 0, "role": "fort" },
            { "at": "i1",  "seat": 0, "role": "scout_plane" },
            { "at": "a11", "seat": 0, "role": "fighter" },
            { "at": "c10", "seat": 0, "role": "battleship", "landed": true },
            { "at": "d9",  "seat": 1, "role": "submarine" }
          ],
          "fort_struck": [true, false],
          "plies": 57, "quiet_plies": 3, "skips": [0, 0], "eliminated": []
        })
    }

    #[test]
    fn lsa_spec_position_example_reads_and_writes_back() {
        let (mode, p) = position_from_json(&spec_example()).unwrap();
        assert_eq!(mode, Mode::Dark);
        assert_eq!(p.options().fort_strike, FortStrike::Once);
        assert!(p.fort_struck(Side::South) && !p.fort_struck(Side::North));
        assert_eq!(
            (p.plies(), p.quiet_plies(), p.to_move()),
            (57, 3, Side::North)
        );
        let sq = |s: &str| Square::parse(s).unwrap();
        assert!(p.at(sq("c10")).unwrap().landed());
        let back = position_to_json(mode, &p);
        // rail_max 3 is the default: not written back.
        assert_eq!(back["options"], json!({"fort_strike": "once"}));
        assert_eq!(back["pieces"].as_array().unwrap().len(), 6);
        assert!(back["pieces"]
            .as_array()
            .unwrap()
            .contains(&json!({"at": "e6", "seat": 0, "role": "fort"})));
        let again = position_from_json(&back).unwrap().1;
        assert_eq!(position_to_json(mode, &again), back);
        // South has no marshal on the board: its flag counts as announced.
        assert!(p.is_announced(sq("e1")));
        let view = view_to_json(&p.view(mode, Observer::Seat(Side::North)));
        let pieces = view["pieces"].as_array().unwrap();
        assert!(pieces.iter().all(|q| q.get("arm").is_some()));
        let at = |s: &str| pieces.iter().find(|q| q["at"] == s).unwrap().clone();
        assert_eq!(
            at("c10"),
            json!({"at": "c10", "seat": 0, "arm": "land", "landed": true})
        );
        assert_eq!(at("e6")["role"], "fort");
        assert_eq!(at("e1")["role"], "flag");
        assert!(at("i1").get("role").is_none());
        assert_eq!(at("d9")["role"], "submarine");
        assert_eq!(view["observer"], json!({"seat": 1}));
        assert!(!view["legal_actions"].as_array().unwrap().is_empty());
    }

    fn reject(mut f: impl FnMut(&mut Value), want: &str) {
        let mut v = spec_example();
        f(&mut v);
        let e = position_from_json(&v).unwrap_err();
        assert!(e.contains(want), "{want:?} not in {e:?}");
    }

    #[test]
    fn lsa_bad_positions_are_rejected_with_reasons() {
        reject(|v| v["board"] = "two_player".into(), "land_sea_air");
        reject(|v| v["mode"] = "flip".into(), "dark or open");
        reject(|v| v["mode"] = "half_open".into(), "dark or open");
        reject(|v| v["colour"] = 1.into(), "unknown field \"colour\"");
        reject(|v| v["to_move"] = 2.into(), "to_move");
        reject(|v| v["pieces"][0]["role"] = "sapper".into(), "sapper");
        reject(|v| v["pieces"][0]["at"] = "j1".into(), "j1");
        reject(|v| v["pieces"][0]["landed"] = true.into(), "landed is only");
        reject(|v| v["pieces"][1]["at"] = "d6".into(), "harbour");
        reject(|v| v["pieces"][5]["at"] = "d6".into(), "never stand on d6");
        reject(|v| v["pieces"][2]["at"] = "c1".into(), "never stand on c1");
        reject(|v| v["pieces"][4]["at"] = "e6".into(), "two pieces on e6");
        reject(|v| v["pieces"][3]["arm"] = "land".into(), "arm");
        reject(
            |v| v["pieces"][0]["role"] = "cavalry".into(),
            "not in the piece set seed",
        );
        reject(
            |v| {
                v["pieces"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"at": "e2", "seat": 0, "role": "flag"}))
            },
            "more of flag",
        );
        reject(|v| v["fort_struck"] = json!([true]), "fort_struck");
        reject(|v| v["skips"] = json!([0, 300]), "skips[1]");
        reject(|v| v["eliminated"] = json!([0, 1]), "at most one seat");
        reject(|v| v["options"]["rail_max"] = (-1).into(), "rail_max");
        reject(|v| v["face_down"] = true.into(), "unknown field");
    }

    /// A change to a good document and a word the refusal must contain.
    type BadCase = (fn(&mut Value), &'static str);

    #[test]
    fn lsa_bad_views_are_rejected_with_reasons() {
        let (mode, p) = position_from_json(&spec_example()).unwrap();
        let good = view_to_json(&p.view(mode, Observer::Seat(Side::North)));
        assert!(view_from_json(&good).is_ok());
        let cases: [BadCase; 6] = [
            (|v| v["observer"] = json!({"seat": 2}), "observer.seat"),
            (|v| v["pieces"][0]["arm"] = "sea".into(), "not of arm sea"),
            (
                |v| v["legal_actions"] = json!(["a1-a2"]),
                "legal_actions[0]",
            ),
            (|v| v["eliminated"] = json!([0]), "does not agree"),
            (
                |v| v["observer"] = "public".into(),
                "only the view of the seat to move",
            ),
            (|v| v["outcome"] = json!({"result": "aborted"}), "outcome"),
        ];
        for (f, want) in cases {
            let mut v = good.clone();
            f(&mut v);
            let e = view_from_json(&v).expect_err(want);
            assert!(e.contains(want), "{e:?} should say {want:?}");
        }
    }

    #[test]
    fn lsa_options_parse_every_value_and_refuse_bad_ones() {
        let o = options_from_json(Some(&json!({
            "piece_set": "taiwan", "combat": "taiwan", "rail_max": 0, "camp_protects": "anyone",
            "landmine": "both_die", "fort_strike": "never", "reveal_flag_on_marshal_loss": false,
            "blocked": "skip", "quiet_plies": 7, "max_plies": 9,
            "middle_crossing": "road", "bomb_flies": true, "rail_turns": "any", "hq_exit": "free",
            "engineer_scout": true, "win_by_flag": "carry_home", "turn_order": "clockwise",
            "teams": "none", "flip_colour": "first_engineer", "losing_attacks": "forbidden",
            "flag_guarded_by_mines": true
        })))
        .unwrap();
        assert_eq!(o.piece_set, PieceSet::Taiwan);
        assert_eq!(o.combat.combat, CombatRule::Taiwan);
        assert_eq!(o.rail_max, 0);
        assert_eq!(o.camp_protects, CampProtects::Anyone);
        assert_eq!(o.combat.landmine, LandmineRule::BothDie);
        assert_eq!(o.fort_strike, FortStrike::Never);
        assert!(!o.reveal_flag_on_marshal_loss);
        assert_eq!(o.blocked, Blocked::Skip);
        assert_eq!((o.quiet_plies.get(), o.max_plies.get()), (7, 9));
        // Every option differs from its default, and the ignored ones are not written.
        let back = options_to_json(&o);
        assert_eq!(back.len(), OPTION_NAMES.len());
        assert_eq!(options_from_json(Some(&Value::Object(back))).unwrap(), o);
        assert_eq!(options_from_json(None).unwrap(), Options::default());
        assert!(options_to_json(&Options::default()).is_empty());
        for (bad, want) in [
            (json!({"fog": 1}), "unknown option \"fog\""),
            (
                json!({"piece_set": "western"}),
                "expected one of seed, taiwan",
            ),
            (json!({"combat": 1}), "must be a string"),
            (json!({"rail_max": "three"}), "rail_max"),
            (json!({"rail_max": 2.5}), "rail_max"),
            (json!({"camp_protects": "nobody"}), "owner, anyone"),
            (json!({"fort_strike": "twice"}), "repeat, once, never"),
            (
                json!({"reveal_flag_on_marshal_loss": "yes"}),
                "true or false",
            ),
            (json!({"blocked": "pass"}), "lose, skip"),
            (json!({"quiet_plies": 0}), "at least 1"),
            (json!({"max_plies": -3}), "max_plies"),
            (json!({"bomb_flies": "sometimes"}), "RULES"),
            (json!({"teams": "pairs"}), "teams"),
            (json!({"middle_crossing": "air"}), "middle_crossing"),
            (json!([1]), "JSON object"),
        ] {
            let e = options_from_json(Some(&bad)).unwrap_err();
            assert!(e.contains(want), "{bad}: {want:?} not in {e:?}");
        }
    }

    #[test]
    fn lsa_spec_event_examples_read_and_write_back() {
        for v in [
            json!({ "kind": "attack", "seat": 0, "from": "c9", "to": "c10", "result": "attacker_wins", "landing": true }),
            json!({ "kind": "attack", "seat": 1, "from": "e10", "to": "e9", "result": "attacker_wins", "strike": true }),
            json!({ "kind": "attack", "seat": 0, "from": "c4", "to": "c13", "result": "both_removed", "flight": true }),
            json!({ "kind": "attack", "seat": 0, "from": "a6", "to": "a7", "result": "defender_wins" }),
            json!({ "kind": "scout", "seat": 0, "from": "i1", "at": "i11", "result": "viewed" }),
            json!({ "kind": "scout", "seat": 1, "from": "a15", "at": "a5", "result": "shot_down" }),
            json!({ "kind": "scouted_private", "seat": 0, "at": "i11", "role": "tank" }),
            json!({ "kind": "scouted_private", "seat": 0, "at": "c6", "role": "cruiser", "landed": true }),
            json!({ "kind": "move", "seat": 1, "from": "a15", "to": "a3" }),
            json!({ "kind": "landed", "seat": 0, "from": "c9", "to": "c10" }),
            json!({ "kind": "flag_revealed", "seat": 1, "at": "e15" }),
            json!({ "kind": "skipped", "seat": 1, "reason": "blocked" }),
            json!({ "kind": "eliminated", "seat": 1, "reason": "flag_captured" }),
        ] {
            let e = event_from_json(&v).unwrap_or_else(|e| panic!("{v}: {e}"));
            assert_eq!(event_to_json(&e).unwrap(), v);
        }
        for (bad, want) in [
            (
                json!({"kind": "attack", "seat": 0, "from": "c9", "to": "c10", "result": "attacker_wins", "landing": true, "strike": true}),
                "at most one",
            ),
            (
                json!({"kind": "attack", "seat": 0, "from": "c9", "to": "c10", "result": "won"}),
                "won",
            ),
            (
                json!({"kind": "scout", "seat": 0, "from": "i1", "at": "i11", "result": "seen"}),
                "viewed or shot_down",
            ),
            (
                json!({"kind": "scouted_private", "seat": 0, "at": "i11", "role": "tank", "landed": true}),
                "landed is only",
            ),
            (
                json!({"kind": "flip", "seat": 0, "at": "i11"}),
                "unknown event kind",
            ),
            (
                json!({"kind": "move", "seat": 0, "from": "a1"}),
                "missing field to",
            ),
            (
                json!({"kind": "move", "seat": 2, "from": "a1", "to": "a2"}),
                "seat",
            ),
            (
                json!({"kind": "skipped", "seat": 0, "reason": "asleep"}),
                "blocked or timeout",
            ),
        ] {
            let e = event_from_json(&bad).unwrap_err();
            assert!(e.contains(want), "{bad}: {want:?} not in {e:?}");
        }
    }

    /// Random games: every position writes, reads back to the same JSON and the same legal
    /// actions; every event reads back; each seat's step result holds no enemy role it may
    /// not know and no other seat's look.
    #[test]
    fn lsa_json_round_trips_over_random_games() {
        let mut rng = SmallRng::seed_from_u64(21);
        let mut list = ActionList::new();
        for g in 0..6 {
            let opts = Options {
                piece_set: if g % 2 == 0 {
                    PieceSet::Seed
                } else {
                    PieceSet::Taiwan
                },
                fort_strike: if g % 3 == 0 {
                    FortStrike::Once
                } else {
                    FortStrike::Repeat
                },
                ..Options::default()
            };
            let mode = if g == 5 { Mode::Open } else { Mode::Dark };
            let mut p = random_start(opts, &mut rng);
            while !p.is_over() && p.plies() < 800 {
                let j = position_to_json(mode, &p);
                let (m2, q) = position_from_json(&j).unwrap();
                assert_eq!(m2, mode);
                assert_eq!(position_to_json(mode, &q), j);
                assert_eq!(q.legal_actions().as_slice(), p.legal_actions().as_slice());
                for o in [
                    Observer::Seat(Side::South),
                    Observer::Seat(Side::North),
                    Observer::Spectator,
                    Observer::Referee,
                ] {
                    let v = p.view(mode, o);
                    let back = view_from_json(&view_to_json(&v));
                    assert_eq!(back.as_ref(), Ok(&v), "{o:?} at ply {}", p.plies());
                }
                list.clear();
                p.legal_actions_into(&mut list);
                let a = list[rng.gen_range(0..list.len())];
                assert_eq!(
                    super::super::notation::action_from_text(&p, &a.to_string()),
                    Ok(a)
                );
                let before = p.clone();
                let step = p.apply(a).unwrap();
                for e in step.events.iter() {
                    if let Some(v) = event_to_json(&e) {
                        assert_eq!(event_from_json(&v), Ok(e), "{v}");
                    }
                }
                for side in Side::BOTH {
                    let r =
                        step_result_json(mode, &p, step.events.as_slice(), Observer::Seat(side));
                    for e in r["events"].as_array().unwrap() {
                        if e["kind"] == "scouted_private" {
                            assert_eq!(e["seat"], side as u8);
                        }
                    }
                    if mode == Mode::Dark {
                        for q in r["position"]["pieces"].as_array().unwrap() {
                            let sq = Square::parse(q["at"].as_str().unwrap()).unwrap();
                            let real = p.at(sq).unwrap();
                            if q.get("role").is_some() && real.side() != side {
                                assert!(
                                    real.role() == Role::Fort || p.is_announced(sq),
                                    "{q} leaked to {side:?} after {a} from {before:?}"
                                );
                            }
                        }
                    }
                }
                let public =
                    step_result_json(mode, &p, step.events.as_slice(), Observer::Spectator);
                assert!(public["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|e| e["kind"] != "scouted_private"));
            }
            if p.is_over() {
                let (_, q) = position_from_json(&position_to_json(mode, &p)).unwrap();
                assert_eq!(q.is_over(), matches!(p.status(), Status::Won { .. }));
            }
        }
    }

    fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            (0u64..20).prop_map(Value::from),
            any::<f64>().prop_map(|f| json!(f)),
            "[a-z_]{0,12}".prop_map(Value::from),
            "[a-i][0-9]{1,2}".prop_map(Value::from),
            proptest::sample::select(vec![
                "land_sea_air",
                "dark",
                "open",
                "flip",
                "marshal",
                "battleship",
                "fort",
                "flag",
                "scout_plane",
                "taiwan",
                "seed",
                "attack",
                "scout",
                "move",
                "landed",
            ])
            .prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 48, 8, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::btree_map(
                    proptest::sample::select(vec![
                        "board",
                        "mode",
                        "options",
                        "to_move",
                        "pieces",
                        "at",
                        "seat",
                        "role",
                        "landed",
                        "arm",
                        "fort_struck",
                        "plies",
                        "quiet_plies",
                        "skips",
                        "eliminated",
                        "kind",
                        "from",
                        "to",
                        "result",
                        "strike",
                        "flight",
                        "landing",
                        "reason",
                        "rail_max",
                        "piece_set",
                        "teams",
                        "zzz",
                    ])
                    .prop_map(String::from),
                    inner,
                    0..6
                )
                .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn lsa_json_readers_never_panic(v in arb_json()) {
            let _ = position_from_json(&v);
            let _ = view_from_json(&v);
            let _ = event_from_json(&v);
            let _ = options_from_json(Some(&v));
        }

        #[test]
        fn lsa_mutated_positions_never_panic(
            key in proptest::sample::select(POSITION_FIELDS.to_vec()),
            piece in 0usize..6,
            pkey in proptest::sample::select(PIECE_FIELDS.to_vec()),
            v in arb_json(),
        ) {
            let mut p = spec_example();
            p[key] = v.clone();
            let _ = position_from_json(&p);
            let mut p = spec_example();
            p["pieces"][piece][pkey] = v;
            if let Ok((mode, pos)) = position_from_json(&p) {
                let mut view = view_to_json(&pos.view(mode, Observer::Seat(pos.to_move())));
                let _ = view_from_json(&view);
                view[key] = p["pieces"][piece][pkey].clone();
                let _ = view_from_json(&view);
                let _ = view_to_json(&pos.view(mode, Observer::Spectator));
                let _ = pos.legal_actions();
            }
        }

        #[test]
        fn lsa_json_text_never_panics(s in "\\PC{0,40}") {
            let _ = position_from_json_str(&s);
        }
    }
}
