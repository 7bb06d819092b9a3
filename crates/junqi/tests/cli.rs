//! The command line: `junqi arena` (text and `--json`, built-in and external bots, forfeits),
//! `junqi play` driven through a pipe (on every board), and `junqi engine` on bad input.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_junqi");

fn junqi(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        // `junqi play` saves its records under the data directory: not the user's.
        .env(
            "XDG_DATA_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/cli-data"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start junqi");
    let mut stdin = child.stdin.take().unwrap();
    // The program may stop reading early; a failed write is then expected.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn arena_json(args: &[&str]) -> Value {
    let mut all = vec!["arena"];
    all.extend_from_slice(args);
    all.push("--json");
    let o = junqi(&all, "");
    assert!(
        o.status.success(),
        "junqi {all:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 1, "one JSON object: {text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn arena_json_has_the_statistics() {
    let v = arena_json(&[
        "--bot",
        "random",
        "--bot",
        "random",
        "--games",
        "6",
        "--seed",
        "3",
        "--budget",
        "iterations:5",
    ]);
    for k in [
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "ci_low",
        "ci_high",
        "elo",
        "elo_low",
        "elo_high",
        "avg_plies",
        "results",
        "forfeits",
    ] {
        assert!(v.get(k).is_some(), "missing {k} in {v}");
    }
    assert_eq!(v["games"], 6);
    let n =
        v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap() + v["losses"].as_u64().unwrap();
    assert_eq!(n, 6);
    let (lo, s, hi) = (
        v["ci_low"].as_f64().unwrap(),
        v["score"].as_f64().unwrap(),
        v["ci_high"].as_f64().unwrap(),
    );
    assert!(lo <= s && s <= hi, "{v}");
    assert_eq!(v["forfeits"].as_array().unwrap().len(), 0);
    // Reproducible from the seed, whatever the thread count.
    let w = arena_json(&[
        "--bot",
        "random",
        "--bot",
        "random",
        "--games",
        "6",
        "--seed",
        "3",
        "--budget",
        "iterations:5",
        "--threads",
        "1",
    ]);
    assert_eq!(
        (v["wins"].clone(), v["avg_plies"].clone()),
        (w["wins"].clone(), w["avg_plies"].clone())
    );
}

/// The field names in the first column of each table of the doc's section on the arena
/// report: the top-level table first, then the `per_game` one.
fn documented_report_fields() -> Vec<Vec<String>> {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/engine-protocol.md"
    ))
    .unwrap();
    let start = doc
        .find("## The arena report")
        .expect("the arena report section");
    let section = &doc[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let mut tables: Vec<Vec<String>> = Vec::new();
    let mut in_table = false;
    for line in section.lines() {
        let Some(row) = line.strip_prefix('|') else {
            in_table = false;
            continue;
        };
        if !in_table {
            tables.push(Vec::new());
            in_table = true;
        }
        let first = row.split('|').next().unwrap();
        let names = first.split('`').skip(1).step_by(2).map(str::to_string);
        tables.last_mut().unwrap().extend(names);
    }
    tables
}

#[test]
fn arena_json_fields_are_the_documented_ones() {
    let tables = documented_report_fields();
    assert_eq!(tables.len(), 2, "{tables:?}");
    let v = arena_json(&[
        "--bot",
        "heuristic",
        "--bot",
        "random",
        "--games",
        "2",
        "--seed",
        "1",
    ]);
    let keys = |o: &Value| {
        let mut k: Vec<String> = o.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let sorted = |t: &[String]| {
        let mut t = t.to_vec();
        t.sort();
        t
    };
    assert_eq!(keys(&v), sorted(&tables[0]), "top-level fields");
    assert_eq!(
        keys(&v["per_game"][0]),
        sorted(&tables[1]),
        "per_game fields"
    );
}

#[test]
fn arena_takes_a_tuned_search_bot() {
    // A small node budget keeps the games quick; the name in the report is the spec.
    let o = junqi(
        &[
            "arena",
            "--bot",
            "search@depth=1,nodes=3000,hw=0.5,q=2",
            "--bot",
            "random",
            "--games",
            "2",
            "--seed",
            "5",
        ],
        "",
    );
    let text = stdout(&o);
    assert!(o.status.success(), "{text}");
    assert!(
        text.contains("search@depth=1,nodes=3000,hw=0.5,q=2 vs random"),
        "{text}"
    );
}

#[test]
fn arena_plays_external_engines_and_reports_forfeits() {
    let engine = format!("cmd:'{BIN}' engine --bot random");
    let v = arena_json(&[
        "--bot",
        &engine,
        "--bot",
        "random",
        "--games",
        "2",
        "--board",
        "four_player",
        "--mode",
        "half_open",
        "--seed",
        "2",
    ]);
    assert_eq!(v["games"], 2);
    assert_eq!(v["forfeits"].as_array().unwrap().len(), 0, "{v}");
    // Per game, who had which seats: the first bot takes seats 0 and 2 on even games.
    let games = v["per_game"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["seats"], serde_json::json!([[0, 2], [1, 3]]));
    assert_eq!(games[1]["seats"], serde_json::json!([[1, 3], [0, 2]]));
    assert_eq!(
        games[1]["seat_bots"],
        serde_json::json!(["random", engine, "random", engine])
    );
    for g in games {
        match g["outcome"]["result"].as_str().unwrap() {
            "win" => {
                let seat = g["outcome"]["winners"][0].as_u64().unwrap() as usize;
                assert_eq!(g["winner"], g["seat_bots"][seat], "{g}");
            }
            _ => assert!(g["winner"].is_null(), "{g}"),
        }
    }
    let v = arena_json(&[
        "--bot",
        "cmd:false",
        "--bot",
        "random",
        "--games",
        "2",
        "--seed",
        "2",
        "--time-limit-ms",
        "2000",
    ]);
    assert_eq!(v["losses"], 2, "{v}");
    let f = v["forfeits"].as_array().unwrap();
    assert_eq!(f.len(), 2);
    assert!(
        f[0]["why"].as_str().unwrap().contains("the engine stopped"),
        "{v}"
    );
    assert_eq!(v["results"]["forfeit"], 2);
    // Who forfeited, who won, and the totals of each bot.
    assert!(f.iter().all(|x| x["bot"] == "cmd:false"), "{v}");
    for g in v["per_game"].as_array().unwrap() {
        assert_eq!(g["winner"], "random", "{g}");
        assert_eq!(g["winner_index"], 1, "{g}");
        assert_eq!(g["reason"], "forfeit", "{g}");
        assert_eq!(g["forfeit"]["bot"], "cmd:false", "{g}");
        let seat = g["forfeit"]["seat"].as_u64().unwrap() as usize;
        assert_eq!(g["seat_bots"][seat], "cmd:false", "{g}");
    }
    assert_eq!(
        v["per_bot"],
        serde_json::json!([
            {"bot": "cmd:false", "index": 0, "wins": 0, "draws": 0, "losses": 2, "score": 0.0, "avg_placing": 2.0},
            {"bot": "random", "index": 1, "wins": 2, "draws": 0, "losses": 0, "score": 1.0, "avg_placing": 1.0},
        ])
    );
    // The text report says the same.
    let o = junqi(
        &[
            "arena",
            "--bot",
            "cmd:false",
            "--bot",
            "random",
            "--games",
            "2",
        ],
        "",
    );
    let text = stdout(&o);
    assert!(
        text.contains("forfeit in game 0") && text.contains("Elo"),
        "{text}"
    );
}

/// `--engine-process per-match` keeps one process for the match; the default starts one per
/// game. Counted by an engine that appends a line to a file when its process starts.
#[test]
fn arena_engine_process_per_match_or_per_game() {
    let dir = std::env::temp_dir().join(format!("junqi-cli-per-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let count = dir.join("count");
    let script = dir.join("engine");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho started >> '{}'\nexec '{BIN}' engine --bot random\n",
            count.display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let engine = format!("cmd:'{}'", script.display());
    let run = |extra: &[&str]| {
        let _ = std::fs::remove_file(&count);
        let mut args = vec![
            "--bot",
            &engine,
            "--bot",
            "random",
            "--games",
            "4",
            "--seed",
            "4",
            "--threads",
            "1",
            "--budget",
            "iterations:5",
        ];
        args.extend_from_slice(extra);
        let v = arena_json(&args);
        assert_eq!(v["forfeits"].as_array().unwrap().len(), 0, "{v}");
        let started = std::fs::read_to_string(&count).map_or(0, |s| s.lines().count());
        (started, v)
    };
    let (kept, v) = run(&["--engine-process", "per-match"]);
    assert_eq!(kept, 1, "{v}");
    assert_eq!(v["engine_process"], "per-match");
    let (fresh, w) = run(&[]);
    assert_eq!(fresh, 4, "{w}");
    assert_eq!(w["engine_process"], "per-game");
    let (fresh, _) = run(&["--engine-process", "per-game"]);
    assert_eq!(fresh, 4);
    assert_eq!(
        (&v["wins"], &v["draws"], &v["avg_plies"]),
        (&w["wins"], &w["draws"], &w["avg_plies"])
    );
    let o = junqi(
        &[
            "arena",
            "--bot",
            "random",
            "--bot",
            "random",
            "--engine-process",
            "sometimes",
        ],
        "",
    );
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("per-match"),
        "the error lists the values"
    );
    let help = stdout(&junqi(&["arena", "--help"], ""));
    assert!(
        help.contains("--engine-process") && help.contains("per-match") && help.contains("default"),
        "{help}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_rejects_bad_arguments() {
    for args in [
        vec!["arena", "--bot", "random"],
        vec!["arena", "--bot", "random", "--bot", "nobody"],
        vec![
            "arena", "--bot", "random", "--bot", "random", "--budget", "lots",
        ],
        vec!["arena", "--bot", "random", "--bot", "cmd:'unclosed"],
        vec!["arena", "--bot", "random", "--bot", "search@depth=0"],
        vec!["arena", "--bot", "random", "--bot", "search@speed=9"],
        vec!["arena", "--bot", "random", "--bot", "search@nodes=many"],
        vec![
            "arena",
            "--bot",
            "random",
            "--bot",
            "random",
            "--mode",
            "flip",
            "--board",
            "four_player",
        ],
    ] {
        let o = junqi(&args, "");
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(!o.stderr.is_empty());
    }
}

#[test]
fn play_through_a_pipe_moves_and_resigns() {
    // a6 always holds a movable piece and b5 is an empty camp next to it, so a6-b5 is legal.
    let input = "help\na6\nmoves c6\nnonsense\ne1-e12\na6-b5\nboard\ndead\nresign\n";
    let o = junqi(
        &[
            "play",
            "--seed",
            "11",
            "--bot",
            "random",
            "--budget",
            "iterations:5",
        ],
        input,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    for needle in [
        "南方（你）",       // who you are
        "  a     b     c",  // file labels
        " 12 N ?? ",        // hidden enemy pieces, rank labels
        "阵亡",             // the dead-piece list
        "a6: ",             // legal destinations of a6
        "看不懂",           // an unknown command
        "不能这样走",       // an illegal move
        "南方（你） a6-b5", // the move announced
        "出局 (投降)",      // the resignation
        "北方 获胜",        // the outcome
        "山界",             // the mountain
    ] {
        assert!(out.contains(needle), "missing {needle:?} in:\n{out}");
    }
    // Own pieces are named; only after the game is the enemy shown.
    let before_end = &out[..out.find("对局结束").unwrap()];
    assert!(before_end.contains("S司令") || before_end.contains("S军旗"));
    assert!(
        !before_end.contains("N司令") && !before_end.contains("N军旗"),
        "an enemy identity leaked"
    );
}

#[test]
fn play_four_player_in_english_and_end_of_input() {
    let o = junqi(
        &[
            "play",
            "--board",
            "four_player",
            "--seat",
            "1",
            "--seed",
            "5",
            "--lang",
            "en",
            "--budget",
            "iterations:5",
        ],
        "l7\nl7-m8\nq7\n",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(out.contains("you play East (you)"), "{out}");
    assert!(out.contains("East (you) l7-m8"), "{out}");
    assert!(out.contains("end of input"), "{out}");
    assert!(out.contains("Dead"), "{out}");
}

#[test]
fn play_rejects_bad_arguments_and_accepts_a_layout() {
    for args in [
        vec!["play", "--seat", "2"],
        vec!["play", "--lang", "fr"],
        vec!["play", "--layout", "nonsense"],
        vec![
            "play",
            "--mode",
            "flip",
            "--layout",
            "31537/1.5.4/2B.4B/2.7.9/1L6L2/6FL83",
        ],
        vec!["play", "--layout", "L1537/1.5.4/2B.4B/2.7.9/136L2/6FL83"],
    ] {
        let o = junqi(&args, "quit\n");
        assert!(!o.status.success(), "{args:?} succeeded");
    }
    let o = junqi(
        &[
            "play",
            "--layout",
            "31537/1.5.4/2B.4B/2.7.9/1L6L2/6FL83",
            "--seed",
            "1",
            "--lang",
            "en",
        ],
        "quit\n",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(out.contains(" 6 SCapt═SEngr═SCol ═SCapt═SMGen 6"), "{out}");
    assert!(out.contains("bye"));
}

#[test]
fn play_on_the_three_and_six_player_boards_checks_seats_teams_and_modes() {
    for (args, why) in [
        (vec!["--board", "three_player", "--seat", "3"], "--seat 3"),
        (vec!["--board", "six_player", "--seat", "6"], "--seat 6"),
        (
            vec!["--board", "three_player", "--teams", "alternate"],
            "teams",
        ),
        (
            vec!["--board", "three_player", "--mode", "half_open"],
            "half_open",
        ),
        (vec!["--board", "six_player", "--teams", "pairs"], "pairs"),
        (vec!["--board", "six_player", "--mode", "flip"], "flip"),
        (vec!["--colour", "sometimes"], "--colour"),
    ] {
        let mut all = vec!["play"];
        all.extend_from_slice(&args);
        let o = junqi(&all, "quit\n");
        assert!(!o.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
    }
    // A layout of one's own on the six-player board, seat 5: its front row is drawn eleven
    // rows above the bottom, left to right as the seat sees it.
    let o = junqi(
        &[
            "play",
            "--board",
            "six_player",
            "--seat",
            "5",
            "--layout",
            "31537/1.5.4/2B.4B/2.7.9/1L6L2/6FL83",
            "--mode",
            "half_open",
            "--teams",
            "opposite",
            "--seed",
            "1",
            "--lang",
            "en",
            "--bot",
            "random",
        ],
        "board\nquit\n",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(out.contains("you play Black (you)"), "{out}");
    assert!(out.contains("seats: team 0 Red + 3 Green · team 1 Blue + 4 Purple · team 2 Orange (ally) + 5 Black (you)"), "{out}");
    let board: Vec<&str> = out
        .rsplit("seats: team 0")
        .next()
        .unwrap()
        .lines()
        .skip(1)
        .take(39)
        .collect();
    assert!(
        board[38].contains("5Brig[5Flag]5Mine[5Genl]5Capt"),
        "{}",
        board[38]
    );
    assert!(
        board[28].contains("5Capt═5Engr═5Col ═5Capt═5MGen"),
        "{}",
        board[28]
    );
    // Half-open play: the ally's (Orange's) pieces are named, the others hidden.
    let text = board.join("\n");
    assert!(text.contains("2Flag"), "{text}");
    assert!(!text.contains("0Flag") && text.contains("0 ??"), "{text}");
}

#[test]
fn engine_answers_errors_and_survives_garbage() {
    let o = junqi(
        &["engine"],
        "\u{0}\u{1}\nnewgame board two_player mode dark seat 9\ngo\nobservation {}\nisready\n",
    );
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[..4].iter().all(|l| l.starts_with("error ")), "{out}");
    assert_eq!(lines[4], "readyok");
    let o = junqi(&["engine", "--bot", "nobody"], "");
    assert!(!o.status.success());
}
