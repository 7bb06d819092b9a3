//! `junqi rules legal` and `junqi rules apply`: the rules core as a JSON Lines filter, for
//! comparing implementations and scripting.
//!
//! Every input line gets exactly one output line; a bad line gets `{"error": "..."}` and the
//! filter goes on with the next.

use anyhow::Result;
use junqi_core::json::{position_from_json, step_result_json};
use junqi_core::notation::{action_from_text, action_to_text};
use serde_json::{json, Value};
use std::io::{BufRead, Write};

/// `junqi rules [--preset P] <legal|apply>`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A rule preset (RULES §10.1: standard, qq, taiwan) for every position read: its options
    /// are the starting point of each position's own `options` (a position that names a preset
    /// keeps its own).
    #[arg(long)]
    pub preset: Option<String>,
    /// What to answer.
    #[command(subcommand)]
    pub command: RulesCommand,
}

/// `junqi rules` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum RulesCommand {
    /// Read JSON positions (RULES §11.1, or LANDSEAAIR §10.2 for board land_sea_air), one per line; write `{"actions": [...]}` per line.
    Legal,
    /// Read `{"position": {...}, "action": "a2-a6"}` lines; write the step result (§11.2) per line.
    Apply,
}

/// A position object with `preset` added to its options, unless it names one already.
fn with_preset(mut position: Value, preset: Option<&str>) -> Value {
    let Some(preset) = preset else {
        return position;
    };
    if let Some(obj) = position.as_object_mut() {
        let options = obj
            .entry("options")
            .or_insert_with(|| Value::Object(Default::default()));
        if options.is_null() {
            *options = Value::Object(Default::default());
        }
        if let Some(o) = options.as_object_mut() {
            o.entry("preset")
                .or_insert_with(|| Value::String(preset.to_string()));
        }
    }
    position
}

/// The answer to one `rules legal` line, its position read under `preset` (if any).
pub fn legal_line(line: &str, preset: Option<&str>) -> Value {
    let v: Value = match serde_json::from_str(line) {
        Ok(v) => with_preset(v, preset),
        Err(e) => return json!({"error": format!("not JSON: {e}")}),
    };
    if super::lsa::is_lsa(&v) {
        return super::lsa::legal(&v);
    }
    match position_from_json(&v) {
        Ok(pos) => {
            let t = pos.topology();
            let actions: Vec<String> = pos
                .legal_actions()
                .into_iter()
                .map(|a| action_to_text(t, a))
                .collect();
            json!({ "actions": actions })
        }
        Err(e) => json!({ "error": e }),
    }
}

/// The answer to one `rules apply` line, its position read under `preset` (if any).
pub fn apply_line(line: &str, preset: Option<&str>) -> Value {
    let v: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return json!({"error": format!("not JSON: {e}")}),
    };
    let Some(obj) = v.as_object() else {
        return json!({"error": "expected an object {\"position\": {...}, \"action\": \"...\"}"});
    };
    if let Some(k) = obj.keys().find(|k| *k != "position" && *k != "action") {
        return json!({"error": format!("unknown field {k:?} (expected position and action)")});
    }
    let Some(p) = obj.get("position") else {
        return json!({"error": "missing field position"});
    };
    let p = &with_preset(p.clone(), preset);
    let Some(text) = obj.get("action").and_then(Value::as_str) else {
        return json!({"error": "missing field action (a string such as \"a2-a6\" or \"flip b3\")"});
    };
    if super::lsa::is_lsa(p) {
        return super::lsa::apply(p, text);
    }
    let mut pos = match position_from_json(p) {
        Ok(p) => p,
        Err(e) => return json!({ "error": format!("position: {e}") }),
    };
    let action = match action_from_text(pos.topology(), text) {
        Ok(a) => a,
        Err(e) => return json!({ "error": format!("action: {e}") }),
    };
    let mut events = Vec::new();
    match pos.play(action, &mut events) {
        Ok(()) => step_result_json(&pos, &events),
        Err(e) => json!({ "error": format!("illegal action {text}: {e}") }),
    }
}

fn filter(answer: impl Fn(&str) -> Value) -> Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let line = line?;
        let line = line.trim();
        let v = if line.is_empty() {
            json!({"error": "empty line"})
        } else {
            answer(line)
        };
        writeln!(out, "{v}")?;
        out.flush()?;
    }
    Ok(())
}

/// Run a `rules` subcommand.
pub fn run(a: Args) -> Result<()> {
    let preset = a.preset.as_deref();
    match a.command {
        RulesCommand::Legal => filter(|l| legal_line(l, preset)),
        RulesCommand::Apply => filter(|l| apply_line(l, preset)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POS: &str = r#"{"board":"two_player","mode":"dark","to_move":0,"pieces":[{"at":"a5","seat":0,"role":"engineer"},{"at":"b1","seat":0,"role":"flag"},{"at":"c3","seat":0,"role":"colonel"},{"at":"a7","seat":1,"role":"captain"},{"at":"b12","seat":1,"role":"flag"}]}"#;

    #[test]
    fn legal_lists_actions_and_errors() {
        let v = legal_line(POS, None);
        let acts: Vec<&str> = v["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert!(acts.contains(&"a5-a7"), "{acts:?}");
        assert!(acts.contains(&"a5-e2"), "engineers turn corners: {acts:?}");
        assert!(legal_line("{", None).get("error").is_some());
        let bad = POS.replace("captain", "sapper");
        assert!(legal_line(&bad, None)["error"]
            .as_str()
            .unwrap()
            .contains("sapper"));
    }

    #[test]
    fn apply_steps_or_refuses() {
        let v = apply_line(&format!(r#"{{"position":{POS},"action":"a5-a7"}}"#), None);
        assert_eq!(v["events"][0]["kind"], "attack");
        assert_eq!(v["events"][0]["result"], "defender_wins");
        assert_eq!(v["position"]["to_move"], 1);
        let e = apply_line(&format!(r#"{{"position":{POS},"action":"a5-c3"}}"#), None);
        assert!(e["error"].as_str().unwrap().contains("illegal"), "{e}");
        let e = apply_line(&format!(r#"{{"position":{POS},"action":"z9-a1"}}"#), None);
        assert!(e["error"].as_str().unwrap().contains("z9"), "{e}");
    }

    #[test]
    fn a_preset_is_the_starting_point_of_every_position() {
        // West moves; East's captain on q7 is walled in by its own landmine and flag. Under
        // the qq preset East is out at once; by default (skip) nothing happens yet.
        let four = r#"{"board":"four_player","mode":"dark","to_move":3,"pieces":[{"at":"h4","seat":0,"role":"captain"},{"at":"q7","seat":1,"role":"captain"},{"at":"p7","seat":1,"role":"landmine"},{"at":"q8","seat":1,"role":"flag"},{"at":"j14","seat":2,"role":"captain"},{"at":"d10","seat":3,"role":"captain"}]}"#;
        let line = format!(r#"{{"position":{four},"action":"d10-d11"}}"#);
        let qq = apply_line(&line, Some("qq"));
        assert_eq!(qq["events"][1]["kind"], "eliminated", "{qq}");
        assert_eq!(qq["events"][1]["reason"], "blocked", "{qq}");
        // The position written back holds the options the preset resolved to, not its name.
        assert_eq!(
            qq["position"]["options"],
            json!({"blocked": "out_at_once", "quiet_plies": 71}),
            "{qq}"
        );
        let plain = apply_line(&line, None);
        assert_eq!(plain["events"].as_array().unwrap().len(), 1, "{plain}");
        // A position naming its own preset keeps it; a preset the board lacks is an error.
        let own = line.replace(
            r#""mode":"dark","#,
            r#""mode":"dark","options":{"preset":"standard"},"#,
        );
        assert_eq!(
            apply_line(&own, Some("qq"))["events"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
        let e = legal_line(POS, Some("taiwan"));
        assert!(e["error"].as_str().unwrap().contains("taiwan"), "{e}");
    }
}
