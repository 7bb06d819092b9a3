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

/// `junqi rules` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum RulesCommand {
    /// Read JSON positions (RULES §11.1, or LANDSEAAIR §10.2 for board land_sea_air), one per line; write `{"actions": [...]}` per line.
    Legal,
    /// Read `{"position": {...}, "action": "a2-a6"}` lines; write the step result (§11.2) per line.
    Apply,
}

/// The answer to one `rules legal` line.
pub fn legal_line(line: &str) -> Value {
    let v: Value = match serde_json::from_str(line) {
        Ok(v) => v,
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

/// The answer to one `rules apply` line.
pub fn apply_line(line: &str) -> Value {
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

fn filter(answer: fn(&str) -> Value) -> Result<()> {
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
pub fn run(cmd: RulesCommand) -> Result<()> {
    match cmd {
        RulesCommand::Legal => filter(legal_line),
        RulesCommand::Apply => filter(apply_line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POS: &str = r#"{"board":"two_player","mode":"dark","to_move":0,"pieces":[{"at":"a5","seat":0,"role":"engineer"},{"at":"b1","seat":0,"role":"flag"},{"at":"c3","seat":0,"role":"colonel"},{"at":"a7","seat":1,"role":"captain"},{"at":"b12","seat":1,"role":"flag"}]}"#;

    #[test]
    fn legal_lists_actions_and_errors() {
        let v = legal_line(POS);
        let acts: Vec<&str> = v["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert!(acts.contains(&"a5-a7"), "{acts:?}");
        assert!(acts.contains(&"a5-e2"), "engineers turn corners: {acts:?}");
        assert!(legal_line("{").get("error").is_some());
        let bad = POS.replace("captain", "sapper");
        assert!(legal_line(&bad)["error"]
            .as_str()
            .unwrap()
            .contains("sapper"));
    }

    #[test]
    fn apply_steps_or_refuses() {
        let v = apply_line(&format!(r#"{{"position":{POS},"action":"a5-a7"}}"#));
        assert_eq!(v["events"][0]["kind"], "attack");
        assert_eq!(v["events"][0]["result"], "defender_wins");
        assert_eq!(v["position"]["to_move"], 1);
        let e = apply_line(&format!(r#"{{"position":{POS},"action":"a5-c3"}}"#));
        assert!(e["error"].as_str().unwrap().contains("illegal"), "{e}");
        let e = apply_line(&format!(r#"{{"position":{POS},"action":"z9-a1"}}"#));
        assert!(e["error"].as_str().unwrap().contains("z9"), "{e}");
    }
}
