//! `junqi play` as an expert player uses it (issue 12, "The terminal"), driven through stdin from
//! hand-built start positions (`--start`): the end screen (result, full reveal, record path, and
//! the wait for Enter), camp and headquarters marks around occupied squares, the reason of a
//! refused move, the identities of fallen pieces, the move history, the last result under the
//! board, and 标记 (marks on hidden enemy pieces). And the three- and six-player boards (issue
//! 13): whole games from the deal and from endgames, the drawings (every square once, the
//! player's arm at the bottom), teammates, and the placings of free-for-all games.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_junqi");

/// A fresh directory for one test's records.
fn data_dir(test: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("play-terminal-{test}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn spawn(args: &[&str], data: &PathBuf) -> Child {
    Command::new(BIN)
        .args(args)
        .env("XDG_DATA_HOME", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start junqi")
}

/// Run `junqi play <args>` with `input` on stdin (then end of input); the output as text.
fn play(test: &str, args: &[&str], input: &str) -> (String, PathBuf) {
    let data = data_dir(test);
    let mut all = vec![
        "play",
        "--bot",
        "random",
        "--budget",
        "iterations:5",
        "--seed",
        "7",
    ];
    all.extend_from_slice(args);
    let mut child = spawn(&all, &data);
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let o: Output = child.wait_with_output().unwrap();
    assert!(
        o.status.success(),
        "junqi {all:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    (String::from_utf8(o.stdout).unwrap(), data)
}

#[track_caller]
fn has(out: &str, needles: &[&str]) {
    for n in needles {
        assert!(out.contains(n), "missing {n:?} in:\n{out}");
    }
}

/// South's captain on b11 next to North's flag on b12; North keeps a captain on e12.
const FLAG_NEXT_DOOR: &str = "two_player dark 0 b11=03 e3=04 b12=1F e12=13 d12=1L";

/// South's bomb on a3 faces North's marshal on a4; South's engineer sits in North's camp c9 next
/// to North's landmine on c10. North's captain on e12 can only step to e11 (its flag and a
/// landmine hold the headquarters), so it cannot disturb anything for two moves.
const SKIRMISH: &str = "two_player dark 0 a3=0B c9=01 a4=19 c10=1L b12=1F d12=1L e12=13";

#[test]
fn the_end_screen_shows_result_reveal_and_record_and_waits_for_enter() {
    let data = data_dir("end-wait");
    let mut child = spawn(
        &[
            "play",
            "--bot",
            "random",
            "--seed",
            "3",
            "--start",
            FLAG_NEXT_DOOR,
        ],
        &data,
    );
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"b11-b12\n").unwrap();
    stdin.flush().unwrap();
    // The game is over after that move, but the program waits for Enter.
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(1500) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "junqi play exited without waiting for Enter"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    stdin.write_all(b"\n").unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    has(
        &out,
        &[
            "对局结束",
            "南方（你） 获胜 (军旗被夺)",
            "你赢了",
            "终局全盘揭晓",
            // North's captain and landmine, hidden during the game, are shown.
            "N连长",
            "N地雷",
            "棋谱已保存:",
            "按回车键退出",
        ],
    );
    let before_end = &out[..out.find("对局结束").unwrap()];
    assert!(!before_end.contains("N连长"), "an identity leaked");
    // The record is where the screen says, under the data directory, and replays to the result.
    let line = out.lines().find(|l| l.starts_with("棋谱已保存:")).unwrap();
    let path = PathBuf::from(line.trim_start_matches("棋谱已保存:").trim());
    assert!(
        path.starts_with(data.join("junqi/games")),
        "{}",
        path.display()
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let record = junqi_core::Record::from_text(&text).unwrap();
    let end = record.replay().unwrap();
    assert!(end.is_over());
    assert!(text.contains("0 b11-b12"), "{text}");
    assert!(text.contains("result win 0 flag_captured"), "{text}");
}

#[test]
fn the_end_screen_in_english_after_resigning_and_end_of_input_ends_the_wait() {
    // A game dealt as usual (no --start).
    let (out, data) = play("end-english", &["--lang", "en"], "resign\n");
    has(
        &out,
        &[
            "game over: North win (resigned) — You lose.",
            "the whole board, revealed:",
            "NMrsl",
            "game record saved to",
            "press Enter to leave",
        ],
    );
    // An explicit --record path is used as given.
    let path = data.join("mine.txt");
    let (out, _) = play(
        "end-english-record",
        &[
            "--lang",
            "en",
            "--start",
            SKIRMISH,
            "--record",
            path.to_str().unwrap(),
        ],
        "resign\n",
    );
    has(&out, &[&format!("game record saved to {}", path.display())]);
    assert!(std::fs::read_to_string(&path).unwrap().contains("resign 0"));
}

#[test]
fn occupied_camps_and_headquarters_keep_their_marks() {
    // South's engineer in the camp c9, North's flag and landmine in their headquarters.
    let (out, _) = play("camps", &["--start", SKIRMISH], "quit\n");
    let rank9 = out.lines().find(|l| l.starts_with("  9 ")).unwrap();
    assert!(rank9.contains("(S工兵)"), "{rank9}");
    let rank12 = out.lines().find(|l| l.starts_with(" 12 ")).unwrap();
    assert_eq!(rank12.matches("[N ?? ]").count(), 2, "{rank12}");
    // Empty camps keep theirs too.
    let rank8 = out.lines().find(|l| l.starts_with("  8 ")).unwrap();
    assert_eq!(rank8.matches("(     )").count(), 2, "{rank8}");
    // A game dealt as usual: both of South's headquarters hold a piece (one the flag).
    let (out, _) = play("camps-dealt", &[], "quit\n");
    let rank1 = out.lines().find(|l| l.starts_with("  1 ")).unwrap();
    assert_eq!(rank1.matches("[S").count(), 2, "{rank1}");
    assert!(rank1.contains("[S军旗]"), "{rank1}");
}

#[test]
fn a_refused_move_says_why() {
    let start = "two_player dark 0 b6=03 b1=05 d1=0F c1=0L a3=03 a4=02 c3=04 c4=12 e3=03 a2=06 \
                 c5=07 a1=08 e12=13 a12=1F";
    let input =
        "b6-b7\nb1-a1\nc1-c2\nd1-d2\na3-a4\nc3-c4\ne3-c2\na2-a5\nc5-c7\na1-b2\ne12-e11\nquit\n";
    let (out, _) = play("refusals", &["--start", start], input);
    has(
        &out,
        &[
            "b6 上的连长不能走到 b7：中间隔着山界",
            "b1 是大本营：进了大本营的棋子不能再动",
            "c1 上的地雷不能移动",
            "d1 上的军旗不能移动",
            "a3 上的连长不能走到 a4：那里是自己一方的棋子",
            "c3 上的营长不能走到 c4：行营里的棋子不能被攻击",
            "e3 上的连长不能走到 c2：两格不在同一条直铁路上，只有工兵能在铁路上拐弯",
            "a2 上的旅长不能走到 a5：a3 上的棋子挡住了去路",
            "c5 上的师长不能走到 c7：它不在铁路上，只能走一步",
            "a1 上的军长不能走到 b2：斜线只通行营",
            "e12 上不是你的棋子",
        ],
    );
    // The reasons name nothing hidden: North's lieutenant in the camp c4 stays unnamed.
    let refusals: Vec<&str> = out.lines().filter(|l| l.contains("不能这样走")).collect();
    assert_eq!(refusals.len(), 11, "{refusals:?}");
    assert!(refusals.iter().all(|l| !l.contains("排长")), "{refusals:?}");
    // And in English.
    let (out, _) = play(
        "refusals-en",
        &["--start", start, "--lang", "en"],
        "b6-b7\nc3-c4\n",
    );
    has(
        &out,
        &[
            "the captain on b6 cannot move to b7: the mountain lies between",
            "the major on c3 cannot move to c4: a piece in a camp cannot be attacked",
        ],
    );
}

#[test]
fn fallen_pieces_show_what_was_announced_and_everything_after_the_reveal() {
    // a3-a4: bomb and marshal both removed, and North's flag is announced, which names the
    // marshal. c9-c10: the engineer clears the landmine, which nobody announces.
    let (out, _) = play(
        "fallen",
        &["--start", SKIRMISH],
        "a3-a4\ndead\nc9-c10\ndead\nresign\n",
    );
    has(
        &out,
        &[
            "阵亡 北方: 司令×1\n",
            "阵亡 南方（你）: 炸弹×1",
            "阵亡 北方: 司令×1 未知×1\n",
            "阵亡（终局揭晓） 北方: 司令×1 地雷×1",
        ],
    );
}

#[test]
fn history_lists_the_moves_and_the_last_result_stays_under_the_board() {
    let (out, _) = play(
        "history",
        &["--start", SKIRMISH],
        "history\na3-a4\nhistory\nquit\n",
    );
    has(&out, &["还没有走过棋"]);
    // The full history after one move each.
    let h = out
        .rfind("第   1  南方（你） a3-a4 进攻： 同归于尽")
        .unwrap();
    assert!(out[h..].contains("第   1  北方 司令阵亡，军旗位于 b12"));
    assert!(out[h..].contains("第   2  北方 e12-e11"));
    // Under the redrawn board, after North's reply: the last moves and the person's own result.
    let board = out.rfind("最近几步:").unwrap();
    let panel = &out[board..];
    assert!(panel.contains("第   2  北方 e12-e11"), "{panel}");
    assert!(
        panel.contains("你的上一步 (第 1): 南方（你） a3-a4 进攻： 同归于尽"),
        "{panel}"
    );
}

#[test]
fn marks_show_on_the_board_follow_their_piece_and_die_with_it() {
    let input =
        "mark c9 炸弹\nmark e12 司令\nmark c10 地雷\nmarks\na3-a4\nmarks\nunmark e11\nmarks\n\
                 c9-c10\nmarks\nquit\n";
    let (out, _) = play("marks", &["--start", SKIRMISH], input);
    has(
        &out,
        &[
            "只能标记身份未知的敌子",
            "已标记 e12: 司令?",
            "标记: c10 地雷?, e12 司令?",
            // North's captain stepped e12-e11: the guess went with it.
            "标记: c10 地雷?, e11 司令?",
            "已取消标记 e11",
            "标记: c10 地雷?\n",
            // The engineer cleared the landmine: its guess is gone with it.
            "标记: 没有标记",
        ],
    );
    // On the board: the guess replaces ?? on the piece.
    let rank11 = out
        .lines()
        .filter(|l| l.starts_with(" 11 "))
        .find(|l| l.contains("N司?"));
    assert!(rank11.is_some(), "no marked piece on rank 11:\n{out}");
    let rank10 = out
        .lines()
        .find(|l| l.starts_with(" 10 ") && l.contains("N雷?"));
    assert!(rank10.is_some(), "no marked landmine on rank 10:\n{out}");
}

// ---- The three- and six-player boards (issue 13) ----

/// The words of a drawing: its tiles' contents split at spaces, frames and links.
fn words(drawing: &str) -> Vec<&str> {
    drawing
        .split(|c: char| c.is_whitespace() || "[]()─═│║╲╱╳·".contains(c))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The lines of the first drawing that follows `marker` in `out`: from the line after the
/// marker (the seat legend `各方: …` is skipped) up to the next blank line, legend, prompt or
/// dead list.
fn drawing_after<'a>(out: &'a str, marker: &str) -> Vec<&'a str> {
    let start = out
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker:?} in:\n{out}"));
    out[start..]
        .lines()
        .skip(1)
        .skip_while(|l| l.starts_with("各方") || l.starts_with("seats"))
        .take_while(|l| {
            !l.is_empty()
                && !["> ", "  * ", "阵亡", "Dead", "各方", "seats"]
                    .iter()
                    .any(|p| l.starts_with(p))
        })
        .collect()
}

/// Terminal columns of a line (CJK characters take two).
fn columns(line: &str) -> usize {
    line.chars()
        .map(|c| match c as u32 {
            0x2E80..=0x303E | 0x3041..=0xA4CF | 0xFF00..=0xFF60 => 2,
            _ => 1,
        })
        .sum()
}

/// Every square name of the board exactly once among the words of a map.
#[track_caller]
fn every_square_once(board: junqi_core::BoardKind, map: &[&str]) {
    let text = map.join("\n");
    let w = words(&text);
    let topo = junqi_core::Topology::get(board, true);
    for sq in topo.squares() {
        let name = topo.name(sq);
        let n = w.iter().filter(|x| **x == name).count();
        assert_eq!(n, 1, "{name} appears {n} times in:\n{text}");
    }
}

/// The game record a finished run saved, replayed.
#[track_caller]
fn replayed(out: &str, saved: &str) -> junqi_core::Position {
    let line = out.lines().find(|l| l.starts_with(saved)).unwrap();
    let path = PathBuf::from(line.trim_start_matches(saved).trim());
    let text = std::fs::read_to_string(&path).unwrap();
    junqi_core::Record::from_text(&text)
        .unwrap()
        .replay()
        .unwrap()
}

#[test]
fn a_three_player_game_from_the_deal_as_east_to_the_placings() {
    // East's front corner l7 always holds a movable piece and the camp m8 is empty at the
    // start: l7-m8 is legal in every deal. Then East resigns and the bots play on to the end.
    let (out, _) = play(
        "three-deal",
        &["--board", "three_player", "--seat", "1"],
        "map\nl7\nq9-q8\nl7-m8\nresign\n",
    );
    has(
        &out,
        &[
            "军棋 three_player / dark — 你是 东方（你）",
            "各方: S 南方 · E 东方（你） · N 北方",
            "棋盘: S/E/N 是棋子所属方",
            "东方（你） l7-m8",
            "东方（你） 出局 (投降)",
            "（你已出局；其余各方继续对局，直到终局）",
            "对局结束",
            "你输了",
        ],
    );
    // The map names every square once; East's arm is at the bottom: the ranks run across,
    // the files down, East's headquarters file q last.
    let map = drawing_after(&out, "> 各方");
    every_square_once(junqi_core::BoardKind::ThreePlayer, &map);
    assert!(
        map[0].trim_start().starts_with("1     2     3"),
        "{}",
        map[0]
    );
    let rows: Vec<&str> = map
        .iter()
        .copied()
        .filter(|l| l.starts_with("  "))
        .collect();
    let bottom = map[map.len() - 2];
    assert_eq!(
        words(bottom),
        ["q", "q7", "q8", "q9", "q10", "q11", "q"],
        "{bottom}"
    );
    assert!(
        rows.iter().all(|l| columns(l) <= 110),
        "{}",
        rows.join("\n")
    );
    // The first board: South's and North's pieces hidden, East's named, East's headquarters
    // (q8 q10) on the bottom row of tiles.
    let board = drawing_after(&out, "各方: S 南方 · E 东方（你） · N 北方\n");
    let text = board.join("\n");
    // (South has moved once: an attack may have taken a piece.)
    let hidden = text.matches("S ??").count() + text.matches("N ??").count();
    assert!((48..=50).contains(&hidden), "{hidden}\n{text}");
    assert_eq!(text.matches("E ??").count(), 0, "{text}");
    let bottom = board[board.len() - 2];
    assert!(
        bottom.starts_with("  q ") && bottom.matches("[E").count() == 2,
        "{bottom}"
    );
    // Moves of l7, and a refusal.
    has(&out, &["l7: ", "不能这样走: q9-q8"]);
    // A free-for-all: a win gives every seat its place, East (out first) last.
    if out.contains("获胜") {
        let placings = out.lines().find(|l| l.starts_with("名次: 1. ")).unwrap();
        assert!(placings.ends_with("3. 东方（你）"), "{placings}");
        has(&out, &["你的名次: 第 3 名"]);
    } else {
        has(&out, &["和棋"]);
    }
    assert!(replayed(&out, "棋谱已保存:").is_over());
}

/// South's captains beside East's flag (q8) and North's (h17); East's and North's only movable
/// pieces (p9, k14) cannot reach them in one move.
const THREE_FLAGS: &str = "three_player dark 0 h1=0F i4=05 q7=03 g17=03 q8=1F p9=13 h17=2F k14=23";

#[test]
fn a_three_player_endgame_taking_both_flags_with_marks_dead_and_history() {
    let input = "q7-q9\nmark p9 炸弹\nmark k14 司令\nq7-q8\ndead\nhistory\ng17-h17\n";
    let (out, _) = play("three-flags", &["--start", THREE_FLAGS], input);
    has(
        &out,
        &[
            "你是 南方（你）",
            // A refusal on the new board.
            "不能这样走: q7-q9",
            "已标记 p9: 炸弹?",
            "已标记 k14: 司令?",
            "南方（你） q7-q8 进攻： 夺得军旗！",
            "东方 出局 (军旗被夺)",
            "各方: S 南方（你） · E 东方（出局） · N 北方",
            "阵亡 东方: 军旗×1",
            "第   1  南方（你） q7-q8 进攻： 夺得军旗！",
            "南方（你） g17-h17 进攻： 夺得军旗！",
            "北方 出局 (军旗被夺)",
            "对局结束： 南方（你） 获胜 (军旗被夺) — 你赢了！",
            // Out last, out second.
            "名次: 1. 南方（你）  2. 北方  3. 东方\n",
            "你的名次: 第 1 名",
        ],
    );
    // The mark on North's piece shows on the board, South's arm at the bottom, no West.
    let board = drawing_after(&out, "各方: S 南方（你） · E 东方（出局） · N 北方\n");
    let text = board.join("\n");
    assert!(text.contains("N司?"), "{text}");
    assert!(
        board[0].trim_start().starts_with("g     h     i"),
        "{}",
        board[0]
    );
    assert!(board[board.len() - 2].starts_with("  1 "), "{text}");
    // The record replays to South's win.
    let end = replayed(&out, "棋谱已保存:");
    assert_eq!(end.outcome().unwrap().winners(), vec![0]);
}

#[test]
fn a_six_player_game_from_the_deal_as_purple_with_teammates() {
    // The arm's front corner 4a6 always holds a movable piece, the camp 4b5 is empty.
    let (out, _) = play(
        "six-deal",
        &["--board", "six_player", "--seat", "4"],
        "4a6\n4a6-4b5\nresign\n",
    );
    has(
        &out,
        &[
            "军棋 six_player / dark — 你是 紫方（你）",
            "棋盘: 0-5 是棋子所属方",
            "各方: 队 0 红方（队友） + 2 橙方（队友） + 4 紫方（你） · 队 1 蓝方 + 3 绿方 + 5 黑方",
            "4a6: ",
            "紫方（你） 4a6-4b5",
            // The team gives up together: two teams, so no placings.
            "对局结束： 蓝方、绿方、黑方 获胜 (投降) — 你输了。",
        ],
    );
    assert!(!out.contains("名次"), "{out}");
    // The map at the start: every square once, 39 rows within 120 columns, the player's arm
    // at the bottom (its headquarters row last, files a…e left to right) and the arm opposite
    // (seat 1) at the top, upside down.
    let map = drawing_after(&out, "坐标图 (");
    assert_eq!(map.len(), 39, "{}", map.join("\n"));
    every_square_once(junqi_core::BoardKind::SixPlayer, &map);
    assert!(map.iter().all(|l| columns(l) <= 117), "{}", map.join("\n"));
    let last = words(map[38]);
    assert_eq!(
        last[last.len() - 5..],
        ["4a1", "4b1", "4c1", "4d1", "4e1"],
        "{}",
        map[38]
    );
    assert!(map[38].contains("4 紫方（你）"), "{}", map[38]);
    let first = words(map[0]);
    assert_eq!(
        first[first.len() - 5..],
        ["1e1", "1d1", "1c1", "1b1", "1a1"],
        "{}",
        map[0]
    );
    // The board: the other seats' 25 pieces each hidden (teammates too: dark play), the
    // player's named, with the flag in a headquarters on the bottom row.
    // (The first legend is the map's; the second, the first board's.)
    let legends: Vec<usize> = out.match_indices("\n各方: 队 0").map(|m| m.0).collect();
    let board = drawing_after(&out[legends[1] + 1..], "各方");
    let text = board.join("\n");
    assert_eq!(board.len(), 39, "{text}");
    // (The bots have moved once each: an arc joins neighbouring arms' front corners, so an
    // attack may already have taken a piece or two.)
    for s in [0, 1, 2, 3, 5] {
        let hidden = text.matches(&format!("{s} ??")).count();
        assert!((23..=25).contains(&hidden), "seat {s}: {hidden}\n{text}");
        assert!(
            !text.contains(&format!("{s}军旗")),
            "seat {s}'s flag shown:\n{text}"
        );
    }
    assert_eq!(text.matches("4 ??").count(), 0, "{text}");
    assert!(board[38].contains("[4军旗]"), "{}", board[38]);
    assert!(board.iter().all(|l| columns(l) <= 117), "{text}");
}

/// Three teams under `teams=opposite` ({0, 3} {1, 4} {2, 5}), Purple and Black already
/// out: Red's captains beside the flags of Blue (1b1) and Orange (2b1), whose majors
/// cannot reach them in one move.
const SIX_FLAGS: &str = "six_player dark 0 teams=opposite eliminated=4,5 0b1=0F 0c3=04 \
                         1a1=03 2a1=03 1b1=1F 1c3=14 2b1=2F 2c3=24 3b1=3F 3c3=34";

#[test]
fn a_six_player_endgame_of_three_teams_in_english_gives_placings() {
    let (out, _) = play(
        "six-flags",
        &["--start", SIX_FLAGS, "--lang", "en"],
        "1a1-1c1\n1a1-1b1\ndead\n2a1-2b1\n",
    );
    has(
        &out,
        &[
            "seats: team 0 Red (you) + 3 Green (ally) · team 1 Blue + 4 Purple (out) · \
             team 2 Orange + 5 Black (out)",
            "not a legal action: 1a1-1c1",
            "Red (you) 1a1-1b1 attacks: flag captured!",
            "Blue is eliminated (flag captured)",
            "Dead Blue: flag×1",
            "game over: Red (you), Green (ally) win (flag captured) — You win!",
            "placings: 1. Red (you)+Green (ally)  2. Orange+Black  3. Blue+Purple",
            "your place: 1",
        ],
    );
    let end = replayed(&out, "game record saved to");
    assert_eq!(end.outcome().unwrap().winners(), vec![0, 3]);
}

#[test]
fn a_six_player_free_for_all_from_the_deal_plays_on_after_the_player_resigns() {
    let (out, _) = play(
        "six-none",
        &[
            "--board",
            "six_player",
            "--teams",
            "none",
            "--seat",
            "2",
            "--lang",
            "en",
        ],
        "2a6-2b5\nresign\n",
    );
    has(
        &out,
        &[
            "seats: 0 Red · 1 Blue · 2 Orange (you) · 3 Green · 4 Purple · 5 Black",
            "Orange (you) 2a6-2b5",
            "(you are out; the others play on to the end)",
            "game over:",
        ],
    );
    assert!(!out.contains("(ally)"), "nobody is anybody's ally");
    if out.contains(" win (") {
        let placings = out
            .lines()
            .find(|l| l.starts_with("placings: 1. "))
            .unwrap();
        assert!(placings.ends_with("6. Orange (you)"), "{placings}");
        has(&out, &["your place: 6"]);
    }
    assert!(replayed(&out, "game record saved to").is_over());
}

#[test]
fn colours_on_request_never_through_a_pipe_by_default() {
    let (out, _) = play("colour-off", &["--board", "six_player"], "quit\n");
    assert!(!out.contains('\x1b'), "colour codes through a pipe");
    let (out, _) = play(
        "colour-on",
        &["--board", "six_player", "--colour", "always"],
        "quit\n",
    );
    // Red's own pieces, Blue's hidden ones, the legend.
    has(
        &out,
        &[
            "\x1b[1;38;5;160m0 红方（你）\x1b[0m",
            "\x1b[1;38;5;26m1 ??",
            "\x1b[1;38;5;160m0军旗",
        ],
    );
    let (out, _) = play(
        "colour-on-three",
        &[
            "--board",
            "three_player",
            "--color",
            "always",
            "--lang",
            "en",
        ],
        "quit\n",
    );
    has(
        &out,
        &[
            "seats: \x1b[1;38;5;160mS South (you)\x1b[0m",
            "\x1b[1;38;5;172mN ?? ",
        ],
    );
}
