//! The land-sea-air board (`land_sea_air`, LANDSEAAIR.md) in the command-line tool: `rules
//! legal`, `rules apply`, `perft`, `selfplay` and `arena` hand positions and games of that board here
//! (they dispatch on the position's `"board"` or on `--board`), and the answers have the same
//! shapes as for the 军棋 boards.

use super::rules_args::RulesArgs;
use super::selfplay::{play_batches, report, Tally};
use anyhow::{bail, Result};
use junqi_ai::external::{EngineProcess, LsaExternalBot};
use junqi_ai::lsa::{run_match, LsaMatchConfig};
use junqi_ai::Budget;
use junqi_core::lsa::json::{options_from_json, position_from_json, step_result_json};
use junqi_core::lsa::notation::action_from_text;
use junqi_core::lsa::playout::{perft, random_playout, random_start};
use junqi_core::lsa::{ActionList, Mode, Observer, Options, Position, Status};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The board name.
pub const BOARD: &str = junqi_core::lsa::board::BOARD_NAME;

/// Whether a JSON position names the land-sea-air board.
pub fn is_lsa(position: &Value) -> bool {
    position.get("board").and_then(Value::as_str) == Some(BOARD)
}

/// The answer to one `rules legal` line holding a land-sea-air position.
pub fn legal(v: &Value) -> Value {
    match position_from_json(v) {
        Ok((_, pos)) => {
            let actions: Vec<String> = pos.legal_actions().iter().map(|a| a.to_string()).collect();
            json!({ "actions": actions })
        }
        Err(e) => json!({ "error": e }),
    }
}

/// The answer to one `rules apply` line holding a land-sea-air position: the step result of
/// RULES §11.2 as the referee sees it (the full next position, every event).
pub fn apply(position: &Value, text: &str) -> Value {
    let (mode, mut pos) = match position_from_json(position) {
        Ok(p) => p,
        Err(e) => return json!({ "error": format!("position: {e}") }),
    };
    let action = match action_from_text(&pos, text) {
        Ok(a) => a,
        Err(e) => return json!({ "error": format!("illegal action {}: {e}", text.trim()) }),
    };
    match pos.apply(action) {
        Ok(step) => step_result_json(mode, &pos, step.events.as_slice(), Observer::Referee),
        Err(e) => json!({ "error": format!("illegal action {}: {e}", text.trim()) }),
    }
}

/// `junqi perft` on a land-sea-air position: prints the divide lines if asked, then
/// `perft <depth> <count>`, and the speed on standard error.
pub fn run_perft(pos: &Position, depth: u32, divide: bool) -> Result<()> {
    let start = Instant::now();
    let total = if divide && depth > 0 {
        let mut total = 0;
        for act in pos.legal_actions().iter() {
            let mut next = pos.clone();
            next.apply(act).map_err(|e| anyhow::anyhow!("{e}"))?;
            let n = perft(&next, depth - 1);
            println!("{act} {n}");
            total += n;
        }
        total
    } else {
        perft(pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("perft {depth} {total}");
    eprintln!(
        "{:.3} s, {:.0} nodes/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// The position `junqi perft` counts from: the JSON text given, or, when none is given, a
/// random start from `seed` (random legal deployments of the options' piece set).
pub fn perft_position(text: Option<&str>, seed: u64) -> Result<Position> {
    match text {
        Some(t) => {
            let v: Value = serde_json::from_str(t)
                .map_err(|e| anyhow::anyhow!("the position is not JSON: {e}"))?;
            if !is_lsa(&v) {
                bail!("--board {BOARD}: the position's board is {}", v["board"]);
            }
            position_from_json(&v)
                .map(|(_, p)| p)
                .map_err(anyhow::Error::msg)
        }
        None => Ok(random_start(
            Options::default(),
            &mut ChaCha8Rng::seed_from_u64(seed),
        )),
    }
}

/// The mode and options of `--mode` and `--options` (and `--teams`, an option §9 accepts and
/// ignores) for the land-sea-air board.
pub fn rules(mode: &str, options: Option<&str>, teams: Option<&str>) -> Result<(Mode, Options)> {
    let mode = Mode::from_name(mode).map_err(anyhow::Error::msg)?;
    let mut json = match options {
        Some(s) => serde_json::from_str::<Value>(s)
            .map_err(|e| anyhow::anyhow!("--options is not JSON: {e}"))?,
        None => json!({}),
    };
    if let (Some(t), Value::Object(m)) = (teams, &mut json) {
        m.insert("teams".into(), t.into());
    }
    let opts = options_from_json(Some(&json)).map_err(anyhow::Error::msg)?;
    Ok((mode, opts))
}

/// [`rules`] from the shared rule arguments (`--preset` and `--teams` included).
pub(crate) fn rules_of(r: &RulesArgs) -> Result<(Mode, Options)> {
    rules(&r.mode, r.options_json()?.as_deref(), None)
}

fn reason_label(s: Status) -> &'static str {
    match s {
        Status::Won { reason, .. } => reason.name(),
        Status::Drawn(r) => r.name(),
        Status::Playing => "unfinished",
    }
}

fn run_games(opts: Options, seed: u64, first: u64, count: u64) -> Tally {
    let mut t = Tally::default();
    let mut buf = ActionList::new();
    for g in first..first + count {
        // One generator per game, so results do not depend on the thread split.
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut pos = random_start(opts, &mut rng);
        let (status, plies) = random_playout(&mut pos, &mut rng, &mut buf);
        t.count(reason_label(status), plies);
    }
    t
}

/// Settings of `junqi selfplay --board land_sea_air`.
pub struct SelfPlay<'a> {
    /// `--board`, `--mode`, `--options`, `--teams` (accepted and ignored, as §9 has it).
    pub rules: &'a RulesArgs,
    /// `--games`.
    pub games: u64,
    /// `--seed`.
    pub seed: u64,
    /// `--threads`.
    pub threads: usize,
    /// `--json`.
    pub json: bool,
}

/// `junqi selfplay --board land_sea_air`: uniform-random legal play from random deployments,
/// printed as for the 军棋 boards.
pub fn run_selfplay(a: SelfPlay<'_>) -> Result<()> {
    let (mode, opts) = rules_of(a.rules)?;
    let (tally, secs) = play_batches(a.threads, a.games, |first, count| {
        run_games(opts, a.seed, first, count)
    })?;
    report(
        (BOARD, mode.name()),
        (a.seed, a.threads, a.json),
        &tally,
        secs,
    );
    Ok(())
}

/// Settings of `junqi arena --board land_sea_air`.
pub struct Arena<'a> {
    /// The two `--bot` specs.
    pub bots: [&'a str; 2],
    /// `--board`, `--mode`, `--options`, `--teams` (accepted and ignored, as §9 has it).
    pub rules: &'a RulesArgs,
    /// `--games`.
    pub games: u64,
    /// `--seed`.
    pub seed: u64,
    /// `--budget`, parsed.
    pub budget: Budget,
    /// `--budget` as given, for the report.
    pub budget_text: &'a str,
    /// `--threads`.
    pub threads: usize,
    /// `--json`.
    pub json: bool,
    /// `--time-limit-ms`: the limit on each answer of an external engine.
    pub time_limit: Duration,
    /// `--engine-process`.
    pub process: EngineProcess,
}

/// `junqi arena --board land_sea_air`: a match between two land-sea-air players (built-in, or
/// external engines given as `cmd:<command line>`), each deal played twice with sides swapped.
pub fn run_arena(a: Arena<'_>) -> Result<()> {
    let (mode, options) = rules_of(a.rules)?;
    let factory = |spec: &str| {
        if let Some(cmd) = spec.strip_prefix("cmd:") {
            return LsaExternalBot::factory_with(cmd, mode, a.time_limit, a.process)
                .map_err(|e| anyhow::anyhow!("--bot {spec:?}: {e}"));
        }
        junqi_ai::lsa::bot_by_spec(spec).map_err(|e| {
            anyhow::anyhow!("--bot {spec:?}: {e}, or cmd:<command line> for an external engine")
        })
    };
    let first = factory(a.bots[0])?;
    let second = factory(a.bots[1])?;
    let cfg = LsaMatchConfig {
        options,
        mode,
        games: a.games,
        seed: a.seed,
        budget: a.budget,
        threads: a.threads,
    };
    let report = run_match(cfg, first, second);
    if a.json {
        let mut v = report.to_json();
        v["board"] = BOARD.into();
        v["mode"] = mode.name().into();
        v["seed"] = a.seed.into();
        v["budget"] = a.budget_text.into();
        println!("{v}");
    } else {
        println!(
            "board {BOARD} mode {} seed {} budget {}",
            mode.name(),
            a.seed,
            a.budget_text
        );
        print!("{}", report.to_text());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const POS: &str = r#"{"board":"land_sea_air","mode":"dark","to_move":0,"pieces":[{"at":"e1","seat":0,"role":"flag"},{"at":"e6","seat":0,"role":"fort"},{"at":"c9","seat":0,"role":"battleship"},{"at":"e7","seat":1,"role":"destroyer"},{"at":"c10","seat":1,"role":"major"},{"at":"e15","seat":1,"role":"flag"}]}"#;

    #[test]
    fn lsa_legal_and_apply() {
        let v: Value = serde_json::from_str(POS).unwrap();
        assert!(is_lsa(&v));
        let l = legal(&v);
        let acts: Vec<&str> = l["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert!(
            acts.contains(&"e6-e7") && acts.contains(&"c9-c10"),
            "{acts:?}"
        );
        let r = apply(&v, "e6-e7");
        assert_eq!(
            r["events"][0],
            json!({"kind": "attack", "seat": 0, "from": "e6", "to": "e7", "result": "attacker_wins", "strike": true})
        );
        assert_eq!(r["position"]["fort_struck"], json!([true, false]));
        assert!(r["outcome"].is_null());
        let r = apply(&v, "c9-c10");
        assert_eq!(r["events"][0]["landing"], true);
        let e = apply(&v, "e6-e5");
        assert!(e["error"].as_str().unwrap().contains("illegal"), "{e}");
        let bad: Value = serde_json::from_str(&POS.replace("\"dark\"", "\"flip\"")).unwrap();
        assert!(legal(&bad)["error"]
            .as_str()
            .unwrap()
            .contains("dark or open"));
    }

    #[test]
    fn lsa_rules_from_flags() {
        let (m, o) = rules("open", Some(r#"{"rail_max":0}"#), Some("none")).unwrap();
        assert_eq!((m, o.rail_max), (Mode::Open, 0));
        assert!(rules("flip", None, None).is_err());
        assert!(rules("dark", Some(r#"{"fog":1}"#), None).is_err());
        assert!(rules("dark", None, Some("pairs")).is_err());
    }

    /// Both boards keep one convention once a game is over: the step that ended it leaves
    /// `to_move` as the side that acted (RULES §7.1, even when the other side was eliminated
    /// as blocked); a legal query answers an empty list; an action is refused as over.
    #[test]
    fn finished_positions_answer_alike_on_both_boards() {
        use super::super::rules::{apply_line, legal_line};
        // Land-sea-air: South's move leaves North's captain boxed in by its own flag and mines.
        let lsa = r#"{"board":"land_sea_air","mode":"dark","to_move":0,"pieces":[{"at":"b1","seat":0,"role":"captain"},{"at":"e15","seat":1,"role":"captain"},{"at":"d15","seat":1,"role":"landmine"},{"at":"f15","seat":1,"role":"landmine"},{"at":"e14","seat":1,"role":"flag"}]}"#;
        // Two-player 军棋: South's engineer takes North's last movable piece.
        let junqi = r#"{"board":"two_player","mode":"dark","to_move":0,"flip_colours":null,"pieces":[{"at":"b1","seat":0,"role":"flag"},{"at":"c4","seat":0,"role":"major"},{"at":"c5","seat":1,"role":"engineer"},{"at":"b12","seat":1,"role":"flag"}]}"#;
        for (pos, action) in [(lsa, "b1-b2"), (junqi, "c4-c5")] {
            let step = apply_line(
                &json!({"position": serde_json::from_str::<Value>(pos).unwrap(), "action": action})
                    .to_string(),
                None,
            );
            assert_eq!(step["outcome"]["result"], "win", "{step}");
            assert_eq!(
                step["position"]["to_move"], 0,
                "the side that acted: {step}"
            );
            let after = step["position"].to_string();
            assert_eq!(legal_line(&after, None), json!({"actions": []}), "{after}");
            let refused = apply_line(
                &json!({"position": step["position"], "action": action}).to_string(),
                None,
            );
            assert!(
                refused["error"]
                    .as_str()
                    .unwrap_or("")
                    .contains("the game is over"),
                "{refused}"
            );
        }
    }
}
