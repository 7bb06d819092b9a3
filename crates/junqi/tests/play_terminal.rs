//! `junqi play` as an expert player uses it (issue 12, "The terminal"), driven through stdin from
//! hand-built start positions (`--start`): the end screen (result, full reveal, record path, and
//! the wait for Enter), camp and headquarters marks around occupied squares, the reason of a
//! refused move, the identities of fallen pieces, the move history, the last result under the
//! board, and 标记 (marks on hidden enemy pieces).

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
