//! `junqi rules legal|apply`, `junqi perft` and `junqi selfplay` as a user runs them: through the
//! real binary, with good and bad input lines.

mod common;
use common::run;

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

/// A position JSON from (square, seat, role) triples.
fn position(
    board: &str,
    to_move: u8,
    options: serde_json::Value,
    pieces: &[(&str, u8, &str)],
) -> String {
    let pieces: Vec<serde_json::Value> = pieces
        .iter()
        .map(|&(at, seat, role)| serde_json::json!({"at": at, "seat": seat, "role": role}))
        .collect();
    serde_json::json!({
        "board": board, "mode": "dark", "to_move": to_move, "options": options, "pieces": pieces
    })
    .to_string()
}

fn legal(pos: &str) -> Vec<String> {
    let (out, _, ok) = run(&["rules", "legal"], &format!("{pos}\n"));
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let Some(actions) = v["actions"].as_array() else {
        panic!("no actions: {v}");
    };
    actions
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}

fn apply(pos: &str, action: &str) -> serde_json::Value {
    let line = format!(r#"{{"position": {pos}, "action": "{action}"}}"#);
    let (out, _, ok) = run(&["rules", "apply"], &format!("{line}\n"));
    assert!(ok);
    serde_json::from_str(out.trim()).unwrap()
}

/// Six seats, each with its flag on its left headquarters and a major in its arm (which no
/// line of the tests crosses); South's captain on 0e3, North's lieutenant on 3a2.
fn six(extra: &[(&str, u8, &str)], options: serde_json::Value) -> String {
    let mut pieces = vec![("0e3", 0, "captain"), ("3a2", 3, "lieutenant")];
    for s in 0..6u8 {
        pieces.push((
            ["0b1", "1b1", "2b1", "3b1", "4b1", "5b1"][s as usize],
            s,
            "flag",
        ));
        pieces.push((
            ["0c3", "1c3", "2c3", "3c3", "4c3", "5c3"][s as usize],
            s,
            "major",
        ));
    }
    pieces.extend_from_slice(extra);
    position("six_player", 0, options, &pieces)
}

#[test]
fn six_player_positions_slide_along_long_and_arc_lines() {
    let pos = six(&[], serde_json::json!({}));
    let acts = legal(&pos);
    for a in [
        // The long line 0e2…0e6, t0, n1, n2, t2, 3a6…3a2 to the end, through the star.
        "0e3-t0", "0e3-n1", "0e3-n2", "0e3-t2", "0e3-3a6", "0e3-3a2",
        // The arc line 0e2…0e6 then 1a6…1a2.
        "0e3-1a6", "0e3-1a2",
        // Along the arm's side file and one step off the rail.
        "0e3-0e2", "0e3-0d3",
    ] {
        assert!(acts.iter().any(|x| x == a), "{a} missing: {acts:?}");
    }
    // A captain does not turn: not onto the middle line or round the hexagon.
    for a in ["0e3-x", "0e3-n0", "0e3-t1", "0e3-2a6", "0e3-0a6"] {
        assert!(!acts.iter().any(|x| x == a), "{a} is not legal: {acts:?}");
    }
    let captain = acts.iter().filter(|a| a.starts_with("0e3-")).count();
    assert_eq!(captain, 19, "{acts:?}");
    // A piece on n2 blocks the line beyond it.
    let blocked = legal(&six(&[("n2", 0, "engineer")], serde_json::json!({})));
    assert!(blocked.iter().any(|x| x == "0e3-n1"));
    assert!(
        !blocked.iter().any(|x| x == "0e3-t2" || x == "0e3-3a2"),
        "{blocked:?}"
    );
    // The slide ends in an attack, won by the captain, which now stands on 3a2.
    let v = apply(&pos, "0e3-3a2");
    assert_eq!(
        v["events"],
        serde_json::json!([{"kind":"attack","seat":0,"from":"0e3","to":"3a2","result":"attacker_wins"}])
    );
    assert_eq!(v["position"]["board"], "six_player");
    assert_eq!(v["position"]["to_move"], 1);
    let on_3a2: Vec<&serde_json::Value> = v["position"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["at"] == "3a2")
        .collect();
    assert_eq!(on_3a2.len(), 1);
    assert_eq!(
        (&on_3a2[0]["seat"], &on_3a2[0]["role"]),
        (&serde_json::json!(0), &serde_json::json!("captain"))
    );
    assert_eq!(v["outcome"], serde_json::Value::Null);
    // The perft of the position counts the same moves (the major's four with them).
    let (out, _, ok) = run(&["perft", "--depth", "1"], &pos);
    assert!(
        ok && out.contains(&format!("perft 1 {}", acts.len())),
        "{out}"
    );
}

#[test]
fn six_player_teams_decide_who_may_be_attacked() {
    // South's engineer on 0e6 next to t0, where Northeast's (seat 2) colonel stands: seat 2 is
    // South's teammate under alternate (the default) and opposite-team pairs {0, 3} {1, 4}
    // {2, 5}; on its own under none.
    let extra = [("0e6", 0, "engineer"), ("t0", 2, "colonel")];
    for (options, attack) in [
        (serde_json::json!({}), false),
        (serde_json::json!({"teams": "alternate"}), false),
        (serde_json::json!({"teams": "opposite"}), true),
        (serde_json::json!({"teams": "none"}), true),
    ] {
        let acts = legal(&six(&extra, options.clone()));
        assert_eq!(
            acts.iter().any(|x| x == "0e6-t0"),
            attack,
            "{options}: {acts:?}"
        );
    }
    // Under opposite, North (seat 3) is South's teammate: its lieutenant on 3a2 is safe.
    let acts = legal(&six(&[], serde_json::json!({"teams": "opposite"})));
    assert!(!acts.iter().any(|x| x == "0e3-3a2"), "{acts:?}");
    assert!(acts.iter().any(|x| x == "0e3-3a3"), "{acts:?}");
    // Teams on the three-player board are refused.
    let (out, _, _) = run(
        &["rules", "legal"],
        &format!(
            "{}\n",
            position(
                "three_player",
                0,
                serde_json::json!({"teams": "alternate"}),
                &[]
            )
        ),
    );
    assert!(out.contains("error"), "{out}");
}

#[test]
fn three_player_positions_use_the_four_player_board_without_west() {
    let pieces = [
        ("k3", 0, "captain"),
        ("h1", 0, "flag"),
        ("q8", 1, "flag"),
        ("p7", 1, "major"),
        ("h17", 2, "flag"),
        ("i14", 2, "major"),
    ];
    let pos = position("three_player", 0, serde_json::json!({}), &pieces);
    let acts = legal(&pos);
    for a in [
        // The arc line k2…k6 then l7…p7, ending in an attack on East's major.
        "k3-l7", "k3-o7", "k3-p7", // File k through the centre into North's arm.
        "k3-k7", "k3-k9", "k3-k11", "k3-k16",
    ] {
        assert!(acts.iter().any(|x| x == a), "{a} missing: {acts:?}");
    }
    // No turning off a line; West is gone.
    assert!(
        !acts.iter().any(|x| x == "k3-i7" || x == "k3-g7"),
        "{acts:?}"
    );
    let v = apply(&pos, "k3-p7");
    assert_eq!(
        v["events"][0],
        serde_json::json!({"kind":"attack","seat":0,"from":"k3","to":"p7","result":"defender_wins"})
    );
    assert_eq!(v["position"]["to_move"], 1);
    // West's squares and the four-player seat 3 do not exist.
    for bad in [
        position(
            "three_player",
            0,
            serde_json::json!({}),
            &[("b9", 0, "captain")],
        ),
        position(
            "three_player",
            0,
            serde_json::json!({}),
            &[("g9", 3, "captain")],
        ),
    ] {
        let (out, _, ok) = run(&["rules", "legal"], &format!("{bad}\n"));
        assert!(ok && out.contains("error"), "{out}");
    }
    // The East's seat is 1: from East's turn the major's moves, along the arc to the south.
    let east = position("three_player", 1, serde_json::json!({}), &pieces);
    let acts = legal(&east);
    assert!(acts.iter().any(|x| x == "p7-k3"), "{acts:?}");
}

#[test]
fn selfplay_runs_on_the_new_boards_with_teams() {
    for args in [
        vec!["--board", "three_player"],
        vec!["--board", "six_player"],
        vec!["--board", "six_player", "--teams", "opposite"],
        vec!["--board", "six_player", "--options", r#"{"teams":"none"}"#],
    ] {
        let mut all = vec!["selfplay", "--games", "3", "--seed", "2", "--json"];
        all.extend_from_slice(&args);
        let (out, err, ok) = run(&all, "");
        assert!(ok, "{args:?}: {err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["games"], 3, "{v}");
    }
    let (_, err, ok) = run(
        &["selfplay", "--board", "three_player", "--teams", "opposite"],
        "",
    );
    assert!(!ok && err.contains("teams"), "{err}");
}
