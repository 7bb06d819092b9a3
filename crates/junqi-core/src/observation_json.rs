//! Observations as JSON, read and written in one place for every program that passes them on:
//! the engine protocol, the server's frames, the command line and the tests. The form is the
//! §11.1 position shape with `"role": null` for identities the observer may not know, plus
//! `observer`, `teams`, `outcome` and `legal_actions` (docs/formats.md).

use crate::json::{outcome_from_json, show as short};
use crate::notation::{action_from_text, parse_square};
use crate::observation::{Observation, ObservedPiece, Observer};
use crate::options::{Options, Rules};
use crate::role::Role;
use crate::topology::{Square, Topology};
use crate::types::{BoardKind, Mode, Seat};
use serde_json::Value;

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key)
        .ok_or_else(|| format!("observation: missing field {key}"))
}

fn as_u32(v: &Value, what: &str) -> Result<u32, String> {
    v.as_u64()
        .filter(|&n| n <= u32::MAX as u64)
        .map(|n| n as u32)
        .ok_or_else(|| format!("{what} must be a non-negative integer, got {}", short(v)))
}

fn as_seat(v: &Value, what: &str, board: BoardKind) -> Result<Seat, String> {
    let n = as_u32(v, what)?;
    if n as usize >= board.seats() {
        return Err(format!(
            "{what}: seat {n} does not exist on the {board} board"
        ));
    }
    Ok(n as Seat)
}

fn as_str<'a>(v: &'a Value, what: &str) -> Result<&'a str, String> {
    v.as_str()
        .ok_or_else(|| format!("{what} must be a string, got {}", short(v)))
}

fn as_array<'a>(v: &'a Value, what: &str) -> Result<&'a Vec<Value>, String> {
    v.as_array()
        .ok_or_else(|| format!("{what} must be an array, got {}", short(v)))
}

/// Read an observation written by [`Observation::to_json`]. Every square, seat and role is
/// checked; fields other than the known ones are ignored.
pub fn observation_from_json(v: &Value) -> Result<Observation, String> {
    if !v.is_object() {
        return Err(format!(
            "observation must be a JSON object, got {}",
            short(v)
        ));
    }
    let rules = {
        let board: BoardKind = as_str(field(v, "board")?, "board")?.parse()?;
        let mode: Mode = as_str(field(v, "mode")?, "mode")?.parse()?;
        let options = Options::from_json(board, mode, v.get("options"))
            .map_err(|e| format!("options: {e}"))?;
        Rules::new(board, mode, options)?
    };
    let board = rules.board;
    let topo = Topology::get(board, rules.middle_rail());
    let sq = |v: &Value, what: &str| -> Result<Square, String> {
        parse_square(topo, as_str(v, what)?).map_err(|e| format!("{what}: {e}"))
    };
    let observer = match field(v, "observer")? {
        Value::String(s) if s == "public" => Observer::Public,
        Value::String(s) if s == "referee" => Observer::Referee,
        o @ Value::Object(m) => {
            if let Some(s) = m.get("seat") {
                Observer::Seat(as_seat(s, "observer.seat", board)?)
            } else if let Some(t) = m.get("team") {
                let t = as_u32(t, "observer.team")?;
                let teams = rules.teams().count();
                if t as usize >= teams {
                    return Err(format!(
                        "observer.team: the game has teams 0 to {}, got {t}",
                        teams - 1
                    ));
                }
                Observer::Team(t as u8)
            } else {
                return Err(format!("bad observer {}", short(o)));
            }
        }
        o => return Err(format!("bad observer {}", short(o))),
    };
    let to_move = as_seat(field(v, "to_move")?, "to_move", board)?;
    let opt_u32 = |key: &str| {
        v.get(key)
            .filter(|x| !x.is_null())
            .map_or(Ok(0), |x| as_u32(x, key))
    };
    let plies = opt_u32("plies")?;
    let quiet_plies = opt_u32("quiet_plies")?;
    let skips = match v.get("skips").filter(|x| !x.is_null()) {
        None => vec![0; board.seats()],
        Some(s) => {
            let a = as_array(s, "skips")?;
            if a.len() != board.seats() {
                return Err(format!(
                    "skips must have one count per seat ({}), got {}",
                    board.seats(),
                    a.len()
                ));
            }
            a.iter()
                .map(|k| as_u32(k, "skips[]"))
                .collect::<Result<_, _>>()?
        }
    };
    let eliminated = match v.get("eliminated").filter(|x| !x.is_null()) {
        None => Vec::new(),
        Some(e) => as_array(e, "eliminated")?
            .iter()
            .map(|s| as_seat(s, "eliminated[]", board))
            .collect::<Result<_, _>>()?,
    };
    let flip_colours = match v.get("flip_colours").filter(|x| !x.is_null()) {
        None => None,
        Some(c) => {
            let a = as_array(c, "flip_colours")?;
            let col = |x: &Value| match x.as_u64() {
                Some(n @ (0 | 1)) => Ok(n as u8),
                _ => Err(format!(
                    "flip_colours: a colour is 0 or 1, got {}",
                    short(x)
                )),
            };
            if a.len() != 2 {
                return Err("flip_colours must be null or [c0, c1]".into());
            }
            Some([col(&a[0])?, col(&a[1])?])
        }
    };
    let mut pieces = Vec::new();
    for (i, p) in as_array(field(v, "pieces")?, "pieces")?.iter().enumerate() {
        let what = format!("pieces[{i}]");
        let get = |k: &str| p.get(k).ok_or_else(|| format!("{what}: missing field {k}"));
        let at = sq(get("at")?, &format!("{what}.at"))?;
        if pieces.iter().any(|q: &ObservedPiece| q.at == at) {
            return Err(format!("{what}: a second piece on {}", topo.name(at)));
        }
        let face_down = match p.get("face_down").filter(|x| !x.is_null()) {
            None => false,
            Some(f) => f
                .as_bool()
                .ok_or_else(|| format!("{what}.face_down must be true or false"))?,
        };
        // A face-down piece in flip play shows no colour: `"seat": null`.
        let seat = match get("seat")? {
            Value::Null if face_down => None,
            Value::Null => return Err(format!("{what}.seat: null only for a face-down piece")),
            s => Some(as_seat(s, &format!("{what}.seat"), board)?),
        };
        let role = match p.get("role").filter(|x| !x.is_null()) {
            None => None,
            Some(r) => Some(
                as_str(r, &format!("{what}.role"))?
                    .parse::<Role>()
                    .map_err(|e| format!("{what}.role: {e}"))?,
            ),
        };
        let carrying_flag_of = match p.get("carrying_flag_of").filter(|x| !x.is_null()) {
            None => None,
            Some(s) => Some(as_seat(s, &format!("{what}.carrying_flag_of"), board)?),
        };
        pieces.push(ObservedPiece {
            at,
            seat,
            role,
            face_down,
            carrying_flag_of,
        });
    }
    pieces.sort_by_key(|p| p.at);
    let mut captured_flags = Vec::new();
    if let Some(c) = v.get("captured_flags").filter(|x| !x.is_null()) {
        for f in as_array(c, "captured_flags")? {
            let s = as_seat(
                f.get("seat").unwrap_or(&Value::Null),
                "captured_flags[].seat",
                board,
            )?;
            let at = sq(f.get("at").unwrap_or(&Value::Null), "captured_flags[].at")?;
            captured_flags.push((s, at));
        }
    }
    let outcome = match v.get("outcome") {
        None => None,
        Some(o) => outcome_from_json(o).map_err(|e| format!("outcome: {e}"))?,
    };
    let mut legal_actions = Vec::new();
    if let Some(l) = v.get("legal_actions").filter(|x| !x.is_null()) {
        for a in as_array(l, "legal_actions")? {
            let text = as_str(a, "legal_actions[]")?;
            legal_actions
                .push(action_from_text(topo, text).map_err(|e| format!("legal_actions: {e}"))?);
        }
    }
    Ok(Observation {
        rules,
        observer,
        to_move,
        plies,
        quiet_plies,
        skips,
        eliminated,
        flip_colours,
        pieces,
        captured_flags,
        outcome,
        legal_actions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::random_position;
    use rand::SeedableRng;

    #[test]
    fn every_observer_round_trips_on_every_board() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
        for board in BoardKind::ALL {
            for mode in [Mode::Dark, Mode::Open, Mode::HalfOpen, Mode::Flip] {
                let Ok(rules) = Rules::defaults(board, mode) else {
                    continue;
                };
                let pos = random_position(rules, 40, &mut rng);
                let mut observers = vec![Observer::Public, Observer::Referee];
                observers.extend(board.seat_range().map(Observer::Seat));
                observers.extend(rules.teams().teams().map(|t| Observer::Team(t.0)));
                for o in observers {
                    let obs = pos.observe(o);
                    let v = obs.to_json();
                    assert_eq!(v["teams"].as_array().unwrap().len(), rules.teams().count());
                    assert_eq!(
                        observation_from_json(&v).unwrap(),
                        obs,
                        "{board} {mode} {o:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_team_the_game_does_not_have_is_refused() {
        let rules = Rules::defaults(BoardKind::SixPlayer, Mode::Dark).unwrap();
        let pos = crate::position::Position::empty(rules);
        let mut v = pos.observe(Observer::Team(1)).to_json();
        assert!(observation_from_json(&v).is_ok());
        v["observer"] = serde_json::json!({"team": 2});
        let e = observation_from_json(&v).unwrap_err();
        assert!(e.contains("teams 0 to 1"), "{e}");
    }
}
