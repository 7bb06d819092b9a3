//! `junqi rules legal|apply`, `junqi perft` and `junqi selfplay` as a user runs them: through the
//! real binary, with good and bad input lines.

use std::io::Write;
use std::process::{Command, Stdio};

fn run(args: &[&str], input: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_junqi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run junqi");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

const POS: &str = r#"{"board":"two_player","mode":"dark","to_move":0,"pieces":[{"at":"a5","seat":0,"role":"engineer"},{"at":"c3","seat":0,"role":"colonel"},{"at":"b1","seat":0,"role":"flag"},{"at":"a7","seat":1,"role":"captain"},{"at":"b12","seat":1,"role":"flag"}]}"#;

#[test]
fn legal_answers_every_line_and_survives_garbage() {
    let bad_lines = [
        "{",
        "[]",
        "\"x\"",
        r#"{"board":"two_player","mode":"dark","to_move":0,"pieces":[{"at":"a5","seat":0,"role":"sapper"}]}"#,
        r#"{"board":"two_player","mode":"dark","to_move":0,"pieces":[{"at":"z9","seat":0,"role":"engineer"}]}"#,
        r#"{"board":"two_player","mode":"dark","to_move":0,"pieces":[{"at":"a5","seat":0,"role":"engineer"},{"at":"a5","seat":1,"role":"engineer"}]}"#,
        r#"{"board":"two_player","mode":"dark","to_move":0,"pieces":[{"at":"a5","seat":2,"role":"engineer"}]}"#,
        r#"{"board":"two_player","mode":"half_open","to_move":0,"pieces":[]}"#,
        r#"{"board":"two_player","mode":"dark","to_move":0,"options":{"fog":true},"pieces":[]}"#,
        r#"{"board":"two_player","mode":"dark","to_move":0,"pieces":[{"at":"a1","seat":0,"role":"flag"},{"at":"a2","seat":0,"role":"flag"}]}"#,
        "",
    ];
    let mut input = String::new();
    input += POS;
    input += "\n";
    for l in bad_lines {
        input += l;
        input += "\n";
    }
    input += POS;
    input += "\n";
    let (out, _, ok) = run(&["rules", "legal"], &input);
    assert!(ok);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), bad_lines.len() + 2);
    assert!(lines[0]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "a5-a7"));
    for (i, l) in lines[1..=bad_lines.len()].iter().enumerate() {
        let e = l["error"]
            .as_str()
            .unwrap_or_else(|| panic!("line {i} should be an error: {l}"));
        assert!(!e.is_empty());
    }
    assert_eq!(lines.last(), lines.first());
    assert!(lines[4]["error"].as_str().unwrap().contains("sapper"));
    assert!(lines[5]["error"].as_str().unwrap().contains("z9"));
    assert!(lines[6]["error"].as_str().unwrap().contains("a5"));
}

#[test]
fn apply_gives_step_results_or_errors() {
    let input = format!(
        "{}\n{}\n{}\n",
        serde_json::json!({"position": serde_json::from_str::<serde_json::Value>(POS).unwrap(), "action": "a5-a7"}),
        serde_json::json!({"position": serde_json::from_str::<serde_json::Value>(POS).unwrap(), "action": "b1-b2"}),
        serde_json::json!({"position": serde_json::from_str::<serde_json::Value>(POS).unwrap()}),
    );
    let (out, _, ok) = run(&["rules", "apply"], &input);
    assert!(ok);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0]["events"][0],
        serde_json::json!({"kind":"attack","seat":0,"from":"a5","to":"a7","result":"defender_wins"})
    );
    assert_eq!(lines[0]["outcome"], serde_json::Value::Null);
    assert_eq!(lines[0]["position"]["plies"], 1);
    assert!(
        lines[1]["error"].as_str().unwrap().contains("flag"),
        "{}",
        lines[1]
    );
    assert!(lines[2]["error"].as_str().unwrap().contains("action"));
}

#[test]
fn perft_and_selfplay_report_numbers() {
    let (out, _, ok) = run(&["perft", "--depth", "2"], POS);
    assert!(ok);
    assert!(out.lines().last().unwrap().starts_with("perft 2 "), "{out}");
    let (out, err, ok) = run(&["perft", "--depth", "2"], "{nope");
    assert!(!ok && out.is_empty() && err.contains("JSON"), "{err}");
    let (out, _, ok) = run(&["selfplay", "--games", "20", "--seed", "5", "--json"], "");
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["games"], 20);
    for k in ["plies", "seconds", "plies_per_sec", "results"] {
        assert!(v.get(k).is_some(), "{k} missing in {v}");
    }
    let total: u64 = v["results"]
        .as_object()
        .unwrap()
        .values()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(total, 20);
    let (_, err, ok) = run(
        &["selfplay", "--board", "two_player", "--mode", "half_open"],
        "",
    );
    assert!(!ok && err.contains("half_open"), "{err}");
}
