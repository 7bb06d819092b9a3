//! The land-sea-air board (`land_sea_air`) through the real binary: `junqi rules legal` and
//! `junqi rules apply` dispatch on the position's board, `junqi perft --board land_sea_air`
//! counts from a random start or a position, `junqi selfplay --board land_sea_air` plays random
//! games, `junqi arena --board land_sea_air` plays matches between its built-in players.

mod common;
use common::run;

fn lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

const POS: &str = r#"{"board":"land_sea_air","mode":"dark","to_move":0,"pieces":[{"at":"e1","seat":0,"role":"flag"},{"at":"e6","seat":0,"role":"fort"},{"at":"c9","seat":0,"role":"battleship"},{"at":"i1","seat":0,"role":"scout_plane"},{"at":"e7","seat":1,"role":"destroyer"},{"at":"c10","seat":1,"role":"major"},{"at":"i11","seat":1,"role":"tank"},{"at":"e15","seat":1,"role":"flag"}]}"#;

const TWO: &str = r#"{"board":"two_player","mode":"dark","to_move":0,"pieces":[{"at":"a5","seat":0,"role":"engineer"},{"at":"b1","seat":0,"role":"flag"},{"at":"a7","seat":1,"role":"captain"},{"at":"b12","seat":1,"role":"flag"}]}"#;

#[test]
fn lsa_rules_legal_lists_actions_beside_other_boards() {
    let bad = [
        POS.replace("\"dark\"", "\"flip\""),
        POS.replace("major", "cavalry"),
        POS.replace("\"e6\"", "\"d6\""),
        POS.replace(
            "\"to_move\":0",
            "\"to_move\":0,\"options\":{\"rail_max\":\"x\"}",
        ),
        POS.replace(
            "\"role\":\"battleship\"",
            "\"role\":\"destroyer\",\"landed\":true",
        ),
    ];
    let mut input = format!("{POS}\n{TWO}\n");
    for b in &bad {
        input += b;
        input += "\n";
    }
    let (out, _, ok) = run(&["rules", "legal"], &input);
    assert!(ok);
    let l = lines(&out);
    assert_eq!(l.len(), 2 + bad.len());
    let acts: Vec<&str> = l[0]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    for want in ["e6-e7", "c9-c10", "scout i1 i11", "i1-i10"] {
        assert!(acts.contains(&want), "{want} not in {acts:?}");
    }
    assert!(l[1]["actions"]
        .as_array()
        .unwrap()
        .contains(&"a5-a7".into()));
    for (i, want) in ["dark or open", "cavalry", "harbour", "rail_max", "landed"]
        .iter()
        .enumerate()
    {
        let e = l[2 + i]["error"].as_str().unwrap();
        assert!(e.contains(want), "{want:?} not in {e:?}");
    }
}

#[test]
fn lsa_rules_apply_gives_step_results() {
    let input = [
        format!(r#"{{"position":{POS},"action":"e6-e7"}}"#),
        format!(r#"{{"position":{POS},"action":"c9-c10"}}"#),
        format!(r#"{{"position":{POS},"action":"scout i1 i11"}}"#),
        format!(r#"{{"position":{POS},"action":"e6-e5"}}"#),
        format!(r#"{{"position":{POS},"action":"i1-i11"}}"#),
        format!(r#"{{"position":{POS},"action":"q1-a1"}}"#),
    ]
    .join("\n");
    let (out, _, ok) = run(&["rules", "apply"], &input);
    assert!(ok);
    let l = lines(&out);
    assert_eq!(l.len(), 6);
    assert_eq!(
        l[0]["events"][0],
        serde_json::json!({"kind": "attack", "seat": 0, "from": "e6", "to": "e7", "result": "attacker_wins", "strike": true})
    );
    assert_eq!(
        l[0]["position"]["fort_struck"],
        serde_json::json!([true, false])
    );
    assert_eq!(l[0]["position"]["to_move"], 1);
    assert!(l[0]["outcome"].is_null());
    assert_eq!(l[1]["events"][0]["landing"], true);
    assert_eq!(l[2]["events"][0]["kind"], "scout");
    assert_eq!(
        l[2]["events"][1],
        serde_json::json!({"kind": "scouted_private", "seat": 0, "at": "i11", "role": "tank"})
    );
    assert!(l[3]["error"].as_str().unwrap().contains("illegal"));
    assert!(l[4]["error"].as_str().unwrap().contains("scout i1 i11"));
    assert!(l[5]["error"].as_str().unwrap().contains("q1"));
}

#[test]
fn lsa_perft_and_selfplay() {
    let seeded = [
        "perft",
        "--board",
        "land_sea_air",
        "--depth",
        "2",
        "--seed",
        "3",
    ];
    let (out, _, ok) = run(&seeded, "");
    assert!(ok);
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("perft 2 "), "{out}");
    let (out2, _, _) = run(&seeded, "");
    assert_eq!(out, out2, "a seeded random start is reproducible");
    let (out, _, ok) = run(&["perft", "--depth", "1", "--divide"], POS);
    assert!(ok);
    assert!(out.contains("scout i1 i11 1"), "{out}");
    let n: u64 = out.lines().count() as u64 - 1;
    assert!(out.ends_with(&format!("perft 1 {n}\n")), "{out}");
    let file = std::env::temp_dir().join(format!("lsa_cli_two_{}.json", std::process::id()));
    std::fs::write(&file, TWO).unwrap();
    let (_, err, ok) = run(
        &[
            "perft",
            "--board",
            "land_sea_air",
            "--depth",
            "1",
            file.to_str().unwrap(),
        ],
        "",
    );
    let _ = std::fs::remove_file(&file);
    assert!(!ok && err.contains("land_sea_air"), "{err}");

    let (out, _, ok) = run(
        &[
            "selfplay",
            "--board",
            "land_sea_air",
            "--games",
            "4",
            "--seed",
            "5",
            "--json",
        ],
        "",
    );
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["board"], "land_sea_air");
    assert_eq!(v["games"], 4);
    let total: u64 = v["results"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(total, 4);
    let (out, _, ok) = run(
        &[
            "selfplay",
            "--board",
            "land_sea_air",
            "--games",
            "2",
            "--mode",
            "open",
            "--options",
            r#"{"piece_set":"taiwan","rail_max":0}"#,
            "--threads",
            "2",
        ],
        "",
    );
    assert!(ok);
    assert!(out.starts_with("board land_sea_air mode open"), "{out}");
    for bad in [
        vec!["--mode", "flip"],
        vec!["--options", r#"{"fog":1}"#],
        vec!["--teams", "pairs"],
    ] {
        let mut args = vec!["selfplay", "--board", "land_sea_air", "--games", "1"];
        args.extend(bad);
        let (_, err, ok) = run(&args, "");
        assert!(!ok && err.contains("error"), "{args:?}: {err}");
    }
}

#[test]
fn lsa_arena_plays_paired_games_and_refuses_what_it_cannot_play() {
    let args = [
        "arena",
        "--board",
        "land_sea_air",
        "--bot",
        "heuristic",
        "--bot",
        "random",
        "--games",
        "3",
        "--seed",
        "4",
        "--budget",
        "nodes:1",
        "--json",
    ];
    let (out, err, ok) = run(&args, "");
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["board"], "land_sea_air");
    assert_eq!(v["games"], 4, "rounded up to whole deals: {v}");
    assert_eq!(v["bots"], serde_json::json!(["heuristic", "random"]));
    let wins = v["wins"].as_u64().unwrap();
    let draws = v["draws"].as_u64().unwrap();
    let losses = v["losses"].as_u64().unwrap();
    assert_eq!(wins + draws + losses, 4);
    assert!(wins >= 3, "the heuristic beats random: {v}");
    let per_game = v["per_game"].as_array().unwrap();
    assert_eq!(
        per_game[0]["seat_bots"],
        serde_json::json!(["heuristic", "random"])
    );
    assert_eq!(
        per_game[1]["seat_bots"],
        serde_json::json!(["random", "heuristic"])
    );
    let (out2, _, _) = run(&args, "");
    let v2: serde_json::Value = serde_json::from_str(out2.trim()).unwrap();
    assert_eq!(v["per_game"], v2["per_game"], "reproducible from --seed");

    // The same match with the heuristic behind the engine protocol is the same games: the
    // protocol carries everything the seat may know, and nothing else the bot could use.
    let engine = format!(
        "cmd:'{}' engine --bot heuristic",
        env!("CARGO_BIN_EXE_junqi")
    );
    let mut ext_args = args;
    ext_args[4] = &engine;
    for process in ["per-game", "per-match"] {
        let mut a = ext_args.to_vec();
        a.extend(["--engine-process", process, "--threads", "1"]);
        let (out3, err, ok) = run(&a, "");
        assert!(ok, "{err}");
        let v3: serde_json::Value = serde_json::from_str(out3.trim()).unwrap();
        let games3 = v3["per_game"].as_array().unwrap();
        assert_eq!(games3.len(), per_game.len());
        for (a, b) in per_game.iter().zip(games3) {
            assert!(b["forfeit"].is_null(), "{process}: {b}");
            assert_eq!(
                (&a["score"], &a["plies"], &a["reason"]),
                (&b["score"], &b["plies"], &b["reason"]),
                "{process}: {a} / {b}"
            );
        }
    }
    // An engine that is not one fails its games with the reason.
    let (out4, err, ok) = run(
        &[
            "arena",
            "--board",
            "land_sea_air",
            "--bot",
            "cmd:cat",
            "--bot",
            "random",
            "--games",
            "2",
            "--time-limit-ms",
            "300",
            "--json",
        ],
        "",
    );
    assert!(ok, "{err}");
    let v4: serde_json::Value = serde_json::from_str(out4.trim()).unwrap();
    assert_eq!(v4["losses"], 2, "{v4}");
    assert!(v4.to_string().contains("did not answer"), "{v4}");
    let (_, err, ok) = run(
        &[
            "arena",
            "--board",
            "land_sea_air",
            "--bot",
            "minimax",
            "--bot",
            "random",
        ],
        "",
    );
    assert!(!ok && err.contains("random, heuristic, search"), "{err}");
    let (_, err, ok) = run(
        &[
            "arena",
            "--board",
            "land_sea_air",
            "--bot",
            "random",
            "--bot",
            "random",
            "--mode",
            "flip",
        ],
        "",
    );
    assert!(!ok && err.contains("dark or open"), "{err}");
}

/// `junqi play --board land_sea_air` against an external engine: the engine (South) moves
/// first through the protocol, the person resigns, and the game ends with the engine's win.
#[test]
fn lsa_terminal_play_takes_an_external_engine() {
    let engine = format!(
        "cmd:'{}' engine --bot heuristic",
        env!("CARGO_BIN_EXE_junqi")
    );
    let (out, err, ok) = run(
        &[
            "play",
            "--board",
            "land_sea_air",
            "--bot",
            &engine,
            "--seat",
            "1",
            "--seed",
            "3",
            "--lang",
            "en",
        ],
        "resign\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("final position"), "{out}");
    assert!(out.contains("resign"), "{out}");
}
