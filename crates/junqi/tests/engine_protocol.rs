//! The engine protocol end to end: the transcript of `docs/engine-protocol.md` still gets the
//! same answers, `junqi engine` plays arena games through `ExternalBot` without forfeits, and a
//! broken engine's games are forfeited with the reason reported.

use junqi_ai::external::{EngineProcess, ExternalBot};
use junqi_ai::{bot_by_name, run_match, Budget, MatchConfig};
use junqi_core::{position_from_json, BoardKind, Mode, Observer, Rules};
use serde_json::json;
mod common;
use common::run;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_junqi");
const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/engine-protocol.md");

/// The commands of the documented transcript after `marker` (`> ` lines), and the answers
/// (`< ` lines).
fn transcript_at(marker: &str) -> (Vec<String>, Vec<String>) {
    let doc = std::fs::read_to_string(DOC).expect("docs/engine-protocol.md");
    let start = doc.find(marker).expect("a transcript marker in the doc");
    let block = &doc[start..];
    let block = &block[block.find("```").expect("a code block") + 3..];
    let block = &block[block.find('\n').unwrap() + 1..];
    let block = &block[..block.find("```").expect("the end of the block")];
    let (mut sent, mut got) = (Vec::new(), Vec::new());
    for line in block.lines() {
        if let Some(c) = line.strip_prefix("> ") {
            sent.push(c.to_string());
        } else if let Some(a) = line.strip_prefix("< ") {
            got.push(a.to_string());
        }
    }
    (sent, got)
}

fn run_engine(args: &[&str], input: &str) -> String {
    let (out, err, ok) = run(args, input);
    assert!(ok, "junqi {args:?} failed: {err}");
    out
}

/// Both documented transcripts (the 军棋 one and the land-sea-air one) still get the same
/// answers from `junqi engine`.
#[test]
fn the_documented_transcripts_get_the_same_answers() {
    for marker in ["<!-- transcript -->", "<!-- lsa transcript -->"] {
        let (sent, expected) = transcript_at(marker);
        assert!(sent.len() >= 10, "the transcript {marker} is too short");
        let out = run_engine(&["engine", "--bot", "random"], &(sent.join("\n") + "\n"));
        let got: Vec<&str> = out.lines().collect();
        assert_eq!(
            got, expected,
            "the engine's answers differ from the {marker} of docs/engine-protocol.md"
        );
    }
}

/// Prints the commands of the transcript (run with `--ignored --nocapture` to regenerate the
/// doc's observation lines).
#[test]
#[ignore]
fn print_transcript_position() {
    let pos = position_from_json(&json!({
        "board": "two_player", "mode": "dark", "to_move": 1, "plies": 40, "quiet_plies": 3,
        "pieces": [
            {"at": "a1", "seat": 0, "role": "landmine"}, {"at": "b1", "seat": 0, "role": "flag"},
            {"at": "c3", "seat": 0, "role": "engineer"}, {"at": "e6", "seat": 0, "role": "captain"},
            {"at": "c8", "seat": 1, "role": "marshal"}, {"at": "a11", "seat": 1, "role": "engineer"},
            {"at": "e11", "seat": 1, "role": "bomb"}, {"at": "c12", "seat": 1, "role": "landmine"},
            {"at": "d12", "seat": 1, "role": "flag"}
        ]
    }))
    .unwrap();
    println!(
        "{}",
        junqi_ai::engine::observation_line(&pos.observe(Observer::Seat(1)))
    );
}

fn engine_cmd(args: &str) -> String {
    format!("'{BIN}' {args}")
}

#[test]
fn an_external_engine_plays_a_match_without_forfeits() {
    for (board, mode) in [
        (BoardKind::TwoPlayer, Mode::Dark),
        (BoardKind::TwoPlayer, Mode::Flip),
        (BoardKind::FourPlayer, Mode::Dark),
    ] {
        let rules = Rules::defaults(board, mode).unwrap();
        let ext = ExternalBot::factory(&engine_cmd("engine --bot random"), Duration::from_secs(20))
            .unwrap();
        let cfg = MatchConfig {
            rules,
            games: 2,
            seed: 5,
            budget: Budget::Iterations(10),
            threads: 2,
        };
        let r = run_match(cfg, ext, bot_by_name("random").unwrap());
        assert_eq!(r.games, 2);
        assert!(r.forfeits.is_empty(), "{board} {mode}: {:?}", r.forfeits);
        assert!(r.per_game.iter().all(|g| g.result.plies > 0));
    }
    // A bot that tracks announcements plays through the protocol as well.
    if !junqi_ai::bot_names().contains(&"heuristic") {
        return;
    }
    let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
    let ext = ExternalBot::factory(
        &engine_cmd("engine --bot heuristic"),
        Duration::from_secs(20),
    )
    .unwrap();
    let cfg = MatchConfig {
        rules,
        games: 2,
        seed: 9,
        budget: Budget::Iterations(10),
        threads: 2,
    };
    let r = run_match(cfg, ext, bot_by_name("random").unwrap());
    assert!(r.forfeits.is_empty(), "{:?}", r.forfeits);
}

/// Three- and six-player games (free-for-all and teams) through the protocol: `junqi engine`
/// processes play whole games via `ExternalBot` in the arena, one process per seat, and every
/// seat's observations and events reach them as JSON.
#[test]
fn external_engines_play_three_and_six_player_games() {
    let with_teams = |board, mode, teams: &str| {
        let opts =
            junqi_core::Options::from_json(board, mode, Some(&json!({ "teams": teams }))).unwrap();
        Rules::new(board, mode, opts).unwrap()
    };
    for (rules, games) in [
        (
            Rules::defaults(BoardKind::ThreePlayer, Mode::Dark).unwrap(),
            3,
        ),
        (
            Rules::defaults(BoardKind::SixPlayer, Mode::Dark).unwrap(),
            2,
        ),
        (
            with_teams(BoardKind::SixPlayer, Mode::HalfOpen, "opposite"),
            3,
        ),
        (with_teams(BoardKind::SixPlayer, Mode::Open, "none"), 6),
    ] {
        let ext = ExternalBot::factory(
            &engine_cmd("engine --bot heuristic"),
            Duration::from_secs(20),
        )
        .unwrap();
        let cfg = MatchConfig {
            rules,
            games,
            seed: 4,
            budget: Budget::Iterations(10),
            threads: 2,
        };
        let r = run_match(cfg, ext, bot_by_name("random").unwrap());
        let what = format!("{} {} {}", rules.board, rules.mode, rules.options.teams);
        assert_eq!(r.games, games, "{what}");
        assert!(r.forfeits.is_empty(), "{what}: {:?}", r.forfeits);
        for g in &r.per_game {
            assert!(g.result.plies > 0, "{what}");
            // The engine's team(s) and the other bot's cover every seat.
            assert_eq!(g.seats[0].len() + g.seats[1].len(), rules.seats(), "{what}");
            assert_eq!(g.placings.len(), rules.seats(), "{what}");
        }
        // The heuristic behind the protocol beats random players.
        assert!(r.score > 0.5, "{what}: {}", r.to_text());
    }
}

/// A shell script engine that deploys legally and then answers every `go` with `move`.
fn script_engine(dir: &std::path::Path, name: &str, on_go: &str) -> String {
    let layout = junqi_core::Deployment::random(
        &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1),
    );
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n    junqi) echo 'id name {name}'; echo junqiok;;\n    isready) echo readyok;;\n    deploy) echo 'deployment {layout}';;\n    go) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    format!("'{}'", path.display())
}

/// An engine that is `junqi engine --bot random` but first appends a line to `count` each time
/// its process starts: the number of lines is the number of processes started.
fn counting_engine(dir: &std::path::Path, count: &std::path::Path) -> String {
    let path = dir.join("counting");
    let script = format!(
        "#!/bin/sh\necho started >> '{}'\nexec '{BIN}' engine --bot random\n",
        count.display()
    );
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    format!("'{}'", path.display())
}

fn processes_started(count: &std::path::Path) -> usize {
    std::fs::read_to_string(count).map_or(0, |s| s.lines().count())
}

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("junqi-test-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An engine that writes bytes that are not UTF-8 and then far more than a pipe holds to its
/// stderr must neither block nor die of SIGPIPE (stderr is read to its end, as bytes), and its
/// last stderr line is quoted in the forfeit.
#[test]
fn a_chatty_engine_stderr_neither_blocks_nor_kills_it() {
    let dir = temp_dir("chatty");
    let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
    let on_go = "printf '\\377\\376 not UTF-8\\n' >&2; \
                 head -c 300000 /dev/zero | tr '\\0' x >&2; \
                 printf '\\nstderr-tail-marker\\n' >&2; exit 3";
    let cmd = script_engine(&dir, "chatty", on_go);
    let ext = ExternalBot::factory(&cmd, Duration::from_secs(5)).unwrap();
    let cfg = MatchConfig {
        rules,
        games: 2,
        seed: 1,
        budget: Budget::Iterations(10),
        threads: 2,
    };
    let r = run_match(cfg, ext, bot_by_name("random").unwrap());
    assert_eq!(r.forfeits.len(), 2, "{:?}", r.forfeits);
    for (_, _, w) in &r.forfeits {
        assert!(
            w.contains("stopped before answering bestmove") && w.contains("stderr-tail-marker"),
            "{w:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn per_match_keeps_the_engine_processes_for_the_match() {
    let dir = temp_dir("per-match");
    let count = dir.join("count");
    let engine = counting_engine(&dir, &count);
    let random = bot_by_name("random").unwrap();
    let play = |board, process, games, threads| {
        let _ = std::fs::remove_file(&count);
        let ext = ExternalBot::factory_with(&engine, Duration::from_secs(20), process).unwrap();
        let cfg = MatchConfig {
            rules: Rules::defaults(board, Mode::Dark).unwrap(),
            games,
            seed: 7,
            budget: Budget::Iterations(10),
            threads,
        };
        let r = run_match(cfg, ext, random.clone());
        // The run_match above has dropped the factory: every process has been stopped.
        assert!(r.forfeits.is_empty(), "{process:?}: {:?}", r.forfeits);
        assert_eq!(r.games, games);
        let results: Vec<_> = r
            .per_game
            .iter()
            .map(|g| (g.score, g.result.plies, g.result.outcome))
            .collect();
        (processes_started(&count), results)
    };
    // One thread, two-player: one process for all four games, against one per game.
    let (kept, kept_results) = play(BoardKind::TwoPlayer, EngineProcess::PerMatch, 4, 1);
    let (fresh, fresh_results) = play(BoardKind::TwoPlayer, EngineProcess::PerGame, 4, 1);
    assert_eq!((kept, fresh), (1, 4));
    // `newgame` starts each game afresh: the same games either way.
    assert_eq!(kept_results, fresh_results);
    // Four-player: the engine plays two seats of every game, one process each.
    let (kept, _) = play(BoardKind::FourPlayer, EngineProcess::PerMatch, 4, 1);
    assert_eq!(kept, 2);
    // Two threads: at most one process per seat played at a time, whatever the scheduling.
    let (kept, kept_results) = play(BoardKind::TwoPlayer, EngineProcess::PerMatch, 6, 2);
    assert!((1..=2).contains(&kept), "{kept} processes");
    let (_, fresh_results) = play(BoardKind::TwoPlayer, EngineProcess::PerGame, 6, 2);
    assert_eq!(kept_results, fresh_results);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A kept process may still owe an answer about its last game: here every `gameover` reaches
/// `junqi engine` as `gameover null`, which it answers with `error`. That error belongs to a game
/// already over; the next game must not be forfeited for it.
#[test]
fn per_match_drops_what_the_engine_says_late_about_the_last_game() {
    let dir = temp_dir("late-error");
    let path = dir.join("late");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nsed -u 's/^gameover .*/gameover null/' | '{BIN}' engine --bot random\n"
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let ext = ExternalBot::factory_with(
        &format!("'{}'", path.display()),
        Duration::from_secs(20),
        EngineProcess::PerMatch,
    )
    .unwrap();
    let cfg = MatchConfig {
        rules: Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap(),
        games: 4,
        seed: 3,
        budget: Budget::Iterations(10),
        threads: 1,
    };
    let r = run_match(cfg, ext, bot_by_name("random").unwrap());
    assert!(r.forfeits.is_empty(), "{:?}", r.forfeits);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_engines_forfeit_with_their_reason() {
    let dir = temp_dir("broken");
    let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
    let random = bot_by_name("random").unwrap();
    let cases = [
        (
            script_engine(&dir, "illegal", "echo 'bestmove a1-e12'"),
            "illegal action a1-e12",
        ),
        (
            script_engine(&dir, "nonsense", "echo 'bestmove castle'"),
            "bad bestmove",
        ),
        (
            script_engine(&dir, "slow", "sleep 5; echo 'bestmove a1-a2'"),
            "did not answer bestmove within",
        ),
        (
            script_engine(&dir, "crash", "exit 3"),
            "stopped before answering bestmove",
        ),
        ("false".to_string(), "the engine stopped"),
    ];
    for ((cmd, why), process) in cases
        .iter()
        .flat_map(|c| [(c, EngineProcess::PerGame), (c, EngineProcess::PerMatch)])
    {
        let ext = ExternalBot::factory_with(cmd, Duration::from_millis(700), process).unwrap();
        let cfg = MatchConfig {
            rules,
            games: 2,
            seed: 1,
            budget: Budget::Iterations(10),
            threads: 2,
        };
        let r = run_match(cfg, ext, random.clone());
        assert_eq!(r.forfeits.len(), 2, "{cmd} {process}: {:?}", r.forfeits);
        assert_eq!(r.losses, 2, "{cmd} {process}");
        assert_eq!(r.reasons.get("forfeit"), Some(&2));
        for (_, _, w) in &r.forfeits {
            assert!(
                w.contains(why),
                "{cmd} {process}: {w:?} does not say {why:?}"
            );
        }
        assert!(r.to_text().contains(*why));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Prints the observation line of the land-sea-air transcript (run with `--ignored
/// --nocapture` to regenerate the doc's observation line).
#[test]
#[ignore]
fn print_lsa_transcript_view() {
    let (mode, pos) = junqi_core::lsa::json::position_from_json(&json!({
        "board": "land_sea_air", "mode": "dark", "to_move": 1, "plies": 30, "quiet_plies": 2,
        "pieces": [
            {"at": "e1", "seat": 0, "role": "flag"}, {"at": "e6", "seat": 0, "role": "fort"},
            {"at": "c9", "seat": 0, "role": "battleship"}, {"at": "e7", "seat": 1, "role": "destroyer"},
            {"at": "c10", "seat": 1, "role": "major"}, {"at": "e15", "seat": 1, "role": "flag"}
        ]
    }))
    .unwrap();
    let view = pos.view(
        mode,
        junqi_core::lsa::Observer::Seat(junqi_core::lsa::Side::North),
    );
    println!("{}", junqi_ai::engine::lsa::observation_line(&view));
}
