//! `junqi play --board land_sea_air`: a person against a land-sea-air computer player in the
//! terminal (LANDSEAAIR.md).
//!
//! The person sees their seat's view: their own pieces by name, every enemy piece by its arm
//! (`?陆` land, `?海` sea, `?空` air: arms are public, §6), the fort on its harbour and any
//! announced identity by name, and what their own scout plane saw (侦察) in their notes: the
//! looked-at piece stays hidden on the board for everybody else, and for the person it is drawn
//! with a lower-case seat letter (`n坦克`) and follows the piece as it moves, until it falls.
//! Squares are framed by type: `( )` camp, `[ ]` city, `{ }` harbour, `< >` airfield, `= =`
//! iron bridge, `~ ~` sea. Input is read line by line, so the game can be driven through a pipe.
//!
//! # Choices the rule book leaves open
//! - The bot levels of 军棋 map to the land-sea-air players: 入门 (beginner) → `random`,
//!   普通 (normal) → `heuristic`, 高手 (expert) and 大师 (master) → `search`; the names
//!   `random`, `heuristic`, `search` and `search@…` are accepted as well.
//! - The person's default layout is the guarded layout the computer deploys with (flag in a
//!   city with defenders near it); `--layout` takes the record's deployment form
//!   (`e1=flag d1=landmine …`).

use super::record_file;
use super::words::Lang;
use super::Args;
use crate::cmd::lsa::rules_of;
use anyhow::{anyhow, bail, Result};
use junqi_ai::external::LsaExternalBot;
use junqi_ai::lsa::{bot_by_spec, guarded_layout, level_spec, LsaBot};
use junqi_ai::Budget;
use junqi_core::lsa::board::{Board, Side, Square, SquareType};
use junqi_core::lsa::notation::{action_from_text, parse_square};
use junqi_core::lsa::record::deployment_from_text;
use junqi_core::lsa::{
    events_for, Action, Arm, AttackKind, Entry, Event, Game, LookNotes, Mode, Observer, Role, View,
};
use junqi_core::{AttackResult, Outcome};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, Write};
use std::time::SystemTime;

/// A role's short name in four display columns: two Chinese characters, or the §5.3 code.
fn role_tile(role: Role, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{:<4}", role.code()),
        Lang::Zh => match role {
            Role::Marshal => "司令",
            Role::ArmyGroupCommander => "兵团",
            Role::AtomicCannon => "原炮",
            Role::AntiAircraftGun => "高炮",
            Role::MachineGun => "机枪",
            Role::Battleship => "主舰",
            Role::Cruiser => "巡舰",
            Role::Destroyer => "驱逐",
            Role::Submarine => "潜艇",
            Role::Fighter => "战机",
            Role::ScoutPlane => "侦机",
            r => r.chinese(),
        }
        .to_string(),
    }
}

/// A role's full name.
fn role_name(role: Role, lang: Lang) -> String {
    match lang {
        Lang::Zh => role.chinese().to_string(),
        Lang::En => role.name().replace('_', " "),
    }
}

fn arm_tile(arm: Arm, lang: Lang) -> &'static str {
    match (arm, lang) {
        (Arm::Land, Lang::Zh) => "?陆",
        (Arm::Sea, Lang::Zh) => "?海",
        (Arm::Air, Lang::Zh) => "?空",
        (Arm::Land, Lang::En) => "?L",
        (Arm::Sea, Lang::En) => "?S",
        (Arm::Air, Lang::En) => "?A",
    }
}

fn side_name(side: Side, lang: Lang) -> &'static str {
    match side {
        Side::South => lang.t("南方", "South"),
        Side::North => lang.t("北方", "North"),
    }
}

fn side_letter(side: Side) -> char {
    match side {
        Side::South => 'S',
        Side::North => 'N',
    }
}

/// The frame characters of a square's type.
fn frame(t: SquareType) -> (char, char) {
    match t {
        SquareType::Camp => ('(', ')'),
        SquareType::City => ('[', ']'),
        SquareType::Harbour => ('{', '}'),
        SquareType::Airfield => ('<', '>'),
        SquareType::Bridge => ('=', '='),
        SquareType::Sea => ('~', '~'),
        SquareType::Station => (' ', ' '),
    }
}

/// Display columns of a text (CJK characters take two).
fn width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

fn pad(s: &str, cols: usize) -> String {
    format!("{s}{}", " ".repeat(cols.saturating_sub(width(s))))
}

/// The board as text, the person's side at the bottom. Each square is seven columns: its
/// frame, a seat letter and four columns of piece.
fn render(view: &View, me: Side, notes: &LookNotes, lang: Lang) -> String {
    let b = Board::get();
    let files: Vec<u8> = match me {
        Side::South => (0..9).collect(),
        Side::North => (0..9).rev().collect(),
    };
    let ranks: Vec<u8> = match me {
        Side::South => (0..15).rev().collect(),
        Side::North => (0..15).collect(),
    };
    let letters: String = files
        .iter()
        .map(|&f| format!("   {}   ", (b'a' + f) as char))
        .collect();
    let mut out = format!("    {letters}\n");
    for &r in &ranks {
        let mut line = format!("{:>3} ", r + 1);
        for &f in &files {
            let sq = Square::new(f, r + 1).expect("on the board");
            let (open, close) = frame(b.square_type(sq));
            let (letter, body) = match view.at(sq) {
                None => (' ', String::new()),
                Some(p) if p.side == me => {
                    (side_letter(p.side), role_tile(p.role.expect("own"), lang))
                }
                Some(p) => match (p.role, notes.get(sq)) {
                    (Some(role), _) => (side_letter(p.side), role_tile(role, lang)),
                    (None, Some(seen)) => (
                        side_letter(p.side).to_ascii_lowercase(),
                        role_tile(seen, lang),
                    ),
                    (None, None) => (side_letter(p.side), arm_tile(p.arm, lang).to_string()),
                },
            };
            line.push(open);
            line.push(letter);
            line.push_str(&pad(&body, 4));
            line.push(close);
        }
        out.push_str(&format!("{line} {:<3}\n", r + 1));
    }
    out.push_str(&format!("    {letters}\n"));
    out
}

/// An announcement in words, as the person receives it.
fn event_words(e: &Event, lang: Lang) -> Option<String> {
    let l = lang;
    Some(match *e {
        Event::Moved { side, from, to } => format!("{} {from}-{to}", side_name(side, l)),
        Event::Landed { side, from, to } => format!(
            "{} {from}-{to} {}",
            side_name(side, l),
            l.t("登陆", "lands")
        ),
        Event::Attack {
            side,
            from,
            to,
            result,
            kind,
        } => {
            let how = match kind {
                AttackKind::Plain => "",
                AttackKind::Landing => l.t(" 登陆攻击", " (landing)"),
                AttackKind::Strike => l.t(" 炮击", " (strike)"),
                AttackKind::Flight => l.t(" 飞弹", " (missile flight)"),
            };
            let res = match result {
                AttackResult::AttackerWins => l.t("吃掉", "takes"),
                AttackResult::DefenderWins => l.t("碰死", "is beaten"),
                AttackResult::BothRemoved => l.t("同归于尽", "both removed"),
                AttackResult::FlagCaptured => l.t("夺得军旗", "captures the flag"),
            };
            format!("{} {from}-{to}{how}: {res}", side_name(side, l))
        }
        Event::Scout {
            side,
            from,
            at,
            shot_down,
        } => format!(
            "{} {} {from} → {at}{}",
            side_name(side, l),
            l.t("侦察", "scouts"),
            if shot_down {
                l.t("，被高射炮击落", ", shot down by the anti-aircraft gun")
            } else {
                ""
            }
        ),
        Event::ScoutedPrivate {
            at, role, landed, ..
        } => format!(
            "{} {at}: {}{}",
            l.t("侦察所见（仅你知道）", "your look saw (only you know)"),
            role_name(role, l),
            if landed {
                l.t("（已登陆）", " (landed)")
            } else {
                ""
            }
        ),
        Event::FlagRevealed { side, at } => format!(
            "{} {} {at}",
            side_name(side, l),
            l.t("军旗亮明在", "flag shown at")
        ),
        Event::Skipped { side, .. } => {
            format!(
                "{} {}",
                side_name(side, l),
                l.t("无子可走，跳过", "skipped")
            )
        }
        Event::Eliminated { side, reason } => format!(
            "{} {} ({})",
            side_name(side, l),
            l.t("出局", "is out"),
            reason.name()
        ),
        Event::Drawn { reason } => format!("{} ({})", l.t("和棋", "draw"), reason.name()),
    })
}

/// The land-sea-air player a `--bot` value names.
/// `cmd:<command line>` is an external engine that speaks the protocol for this board.
fn bot_spec(bot: &str, mode: Mode) -> Result<Box<dyn LsaBot>> {
    let spec = level_spec(bot);
    if let Some(cmd) = spec.strip_prefix("cmd:") {
        let bot = LsaExternalBot::new(cmd, mode)
            .map_err(|e| anyhow!("--bot {bot:?}: {e}"))?
            .with_time_limit(std::time::Duration::from_secs(30));
        return Ok(Box::new(bot));
    }
    let factory = bot_by_spec(spec).map_err(|e| anyhow!("--bot {bot:?}: {e}"))?;
    Ok(factory())
}

fn help(lang: Lang) -> String {
    lang.t(
        "命令: <起>-<止> 走子、登陆、飞行、炮击 (如 a6-a9) | scout <侦察机> <目标> 侦察 (如 scout i1 i11)\n      \
         <格> 或 moves <格> 列出该子可走之处 | board 棋盘 | notes 侦察记录 | history 全部走法 | resign 投降 | quit 退出\n\
         棋盘: S/N 所属方; ?陆 ?海 ?空 未知敌子的兵种; 小写 n 是你侦察到的敌子（只有你知道）;\n      \
         ( ) 行营  [ ] 城市  { } 海口  < > 飞机场  = = 铁桥  ~ ~ 海",
        "commands: <from>-<to> move, land, fly, strike (e.g. a6-a9) | scout <scout plane> <target> look (e.g. scout i1 i11)\n          \
         <square> or moves <square> lists where a piece may go | board | notes (your looks) | history | resign | quit\n\
         board: S/N seat; ?L ?S ?A a hidden enemy's arm (land, sea, air); lower-case n an enemy your scout saw (only you know);\n       \
         ( ) camp  [ ] city  { } harbour  < > airfield  = = iron bridge  ~ ~ sea",
    )
    .to_string()
}

/// The game the arguments set up: the deployments placed, the bot ready.
struct Setup {
    game: Game,
    bot: Box<dyn LsaBot>,
    budget: Budget,
    me: Side,
    seed: u64,
    started: SystemTime,
}

fn setup(a: &Args) -> Result<Setup> {
    if a.start.is_some() {
        bail!("--start takes a 军棋 position; land_sea_air games start from deployments");
    }
    let (mode, options) = rules_of(&a.rules)?;
    let me = match a.seat {
        0 => Side::South,
        1 => Side::North,
        s => bail!("--seat {s} does not exist on the land_sea_air board (0 South, 1 North)"),
    };
    let budget = junqi_ai::engine::parse_budget(&a.budget).map_err(|e| anyhow!("--budget: {e}"))?;
    let started = SystemTime::now();
    let seed = a.seed.unwrap_or_else(|| {
        started
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut bot = bot_spec(&a.bot, mode)?;
    bot.new_game(&options, me.other(), seed);
    let mine = match &a.layout {
        Some(t) => deployment_from_text(me, t, &options).map_err(|e| anyhow!("--layout: {e}"))?,
        None => guarded_layout(me, options.piece_set, &mut ChaCha8Rng::seed_from_u64(seed)),
    };
    let theirs = bot.deploy().map_err(|e| anyhow!("the bot's layout: {e}"))?;
    let (south, north) = match me {
        Side::South => (mine, theirs),
        Side::North => (theirs, mine),
    };
    let game = Game::new(mode, options, south, north, options.first).map_err(anyhow::Error::msg)?;
    // The bot sees the start before its first move, as the arena shows it.
    bot.observe(&[], &game.position().view(mode, Observer::Seat(me.other())));
    Ok(Setup {
        game,
        bot,
        budget,
        me,
        seed,
        started,
    })
}

/// Play one land-sea-air game against the bot, reading the person's commands from `input`.
pub fn play(a: &Args, input: impl BufRead, out: &mut dyn Write, lang: Lang) -> Result<()> {
    let Setup {
        mut game,
        bot,
        budget,
        me,
        seed,
        started,
    } = setup(a)?;
    let record_path = a
        .record
        .clone()
        .unwrap_or_else(|| record_file::default_path(started, seed));
    let mut s = Session {
        game: &mut game,
        me,
        lang,
        bot,
        budget,
        notes: LookNotes::default(),
        history: Vec::new(),
        out,
    };
    writeln!(
        s.out,
        "{} land_sea_air / {} — {} {}, {} {seed}",
        lang.t("陆海空三军棋", "Land-sea-air army chess"),
        s.game.mode().name(),
        lang.t("你是", "you play"),
        side_name(me, lang),
        lang.t("种子", "seed")
    )?;
    writeln!(s.out, "{}", help(lang))?;
    let result = s.run(input);
    let text = s.game.record().to_text();
    record_file::save_text(&text, &record_path)?;
    writeln!(
        s.out,
        "{} {}",
        lang.t("棋谱已保存:", "record saved:"),
        record_path.display()
    )?;
    result
}

struct Session<'a> {
    game: &'a mut Game,
    me: Side,
    lang: Lang,
    bot: Box<dyn LsaBot>,
    budget: Budget,
    /// What the person's looks saw, on the squares the pieces stand on now.
    notes: LookNotes,
    /// Every announcement in words.
    history: Vec<String>,
    out: &'a mut dyn Write,
}

impl Session<'_> {
    fn view(&self) -> View {
        self.game
            .position()
            .view(self.game.mode(), Observer::Seat(self.me))
    }

    fn show_board(&mut self) -> Result<()> {
        let board = render(&self.view(), self.me, &self.notes, self.lang);
        write!(self.out, "{board}")?;
        Ok(())
    }

    /// Pass the events of one step to the person (in words, notes followed) and to the bot.
    fn announce(&mut self, events: &[Event]) -> Result<()> {
        let mine: Vec<Event> = events_for(Observer::Seat(self.me), events).collect();
        self.notes.follow(&mine);
        for e in &mine {
            if let Some(w) = event_words(e, self.lang) {
                writeln!(self.out, "  {w}")?;
                self.history.push(w);
            }
        }
        let them = Observer::Seat(self.me.other());
        let theirs: Vec<Event> = events_for(them, events).collect();
        let view = self.game.position().view(self.game.mode(), them);
        self.bot.observe(&theirs, &view);
        Ok(())
    }

    /// The bot moves while it is its turn.
    fn bot_turns(&mut self) -> Result<()> {
        while !self.game.is_over() && self.game.position().to_move() != self.me {
            let side = self.me.other();
            let view = self
                .game
                .position()
                .view(self.game.mode(), Observer::Seat(side));
            let action = self
                .bot
                .choose(&view, self.budget)
                .map_err(|e| anyhow!("the bot failed: {e}"))?;
            let events = self
                .game
                .play(action)
                .map_err(|e| anyhow!("the bot played an illegal action {action}: {e}"))?;
            self.announce(events.as_slice())?;
        }
        Ok(())
    }

    fn run(&mut self, input: impl BufRead) -> Result<()> {
        self.bot_turns()?;
        self.show_board()?;
        self.prompt()?;
        let mut lines = input.lines();
        while !self.game.is_over() {
            let Some(line) = lines.next() else {
                writeln!(
                    self.out,
                    "\n{}",
                    self.lang
                        .t("（输入结束，离开对局）", "(end of input: leaving the game)")
                )?;
                self.game
                    .apply(Entry::Leave(self.me))
                    .map_err(anyhow::Error::msg)?;
                break;
            };
            let line = line?;
            self.command(line.trim())?;
            if !self.game.is_over() {
                self.prompt()?;
            }
        }
        self.finish()
    }

    fn prompt(&mut self) -> Result<()> {
        let p = self.game.position();
        write!(
            self.out,
            "{} ({} {})\n> ",
            self.lang.t("轮到你走", "your move"),
            self.lang.t("第", "ply"),
            p.plies() + 1
        )?;
        self.out.flush()?;
        Ok(())
    }

    fn command(&mut self, line: &str) -> Result<()> {
        let l = self.lang;
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match word {
            "" => {}
            "help" | "帮助" => writeln!(self.out, "{}", help(l))?,
            "board" | "棋盘" => self.show_board()?,
            "history" | "走法" => {
                for (i, h) in self.history.iter().enumerate() {
                    writeln!(self.out, "{:>4}. {h}", i + 1)?;
                }
            }
            "notes" | "侦察" => {
                if self.notes.is_empty() {
                    writeln!(self.out, "{}", l.t("侦察记录: 无", "notes: none"))?;
                }
                for (sq, role) in self.notes.iter() {
                    writeln!(self.out, "  {sq}: {}", role_name(role, l))?;
                }
            }
            "moves" => self.list_moves(rest.trim())?,
            "resign" | "投降" | "quit" | "退出" => {
                // Resigning and quitting both end the game for the person; the record says which.
                let entry = if matches!(word, "resign" | "投降") {
                    Entry::Resign(self.me)
                } else {
                    Entry::Leave(self.me)
                };
                let events = self.game.apply(entry).map_err(anyhow::Error::msg)?;
                self.announce(events.as_slice())?;
            }
            _ if !line.contains('-') && !line.contains(' ') && parse_square(line).is_ok() => {
                self.list_moves(line)?
            }
            _ => self.act(line)?,
        }
        Ok(())
    }

    fn list_moves(&mut self, square: &str) -> Result<()> {
        let l = self.lang;
        let sq = match parse_square(square) {
            Ok(s) => s,
            Err(e) => {
                writeln!(self.out, "{e}")?;
                return Ok(());
            }
        };
        let acts: Vec<String> = self
            .view()
            .legal_actions
            .iter()
            .filter(|a| a.from() == sq)
            .map(|a| a.to_string())
            .collect();
        if acts.is_empty() {
            writeln!(self.out, "{sq}: {}", l.t("无处可走", "no legal action"))?;
        } else {
            writeln!(self.out, "{sq}: {}", acts.join("  "))?;
        }
        Ok(())
    }

    fn act(&mut self, text: &str) -> Result<()> {
        let action: Action = match action_from_text(self.game.position(), text) {
            Ok(a) => a,
            Err(e) => {
                writeln!(
                    self.out,
                    "{}: {e} ({})",
                    self.lang.t("不能走", "refused"),
                    self.lang
                        .t("输入 help 查看命令", "type help for the commands")
                )?;
                return Ok(());
            }
        };
        let events = self.game.play(action).map_err(anyhow::Error::msg)?;
        self.announce(events.as_slice())?;
        self.bot_turns()?;
        if !self.game.is_over() {
            self.show_board()?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<()> {
        let l = self.lang;
        let words = match self.game.outcome() {
            Some(Outcome::Win { winners, reason }) => {
                let won = winners.contains(self.me as u8);
                format!(
                    "{} ({})",
                    if won {
                        l.t("你赢了！", "You win!")
                    } else {
                        l.t("你输了。", "You lose.")
                    },
                    reason.name()
                )
            }
            Some(Outcome::Draw { reason }) => {
                format!("{} ({})", l.t("和棋", "Draw"), reason.name())
            }
            Some(Outcome::Aborted) | None => l.t("对局中止", "Game aborted").to_string(),
        };
        writeln!(self.out, "\n{words}")?;
        writeln!(
            self.out,
            "{}",
            l.t("终局（全部明示）:", "final position, every piece shown:")
        )?;
        let full = self.game.position().view(Mode::Open, Observer::Referee);
        let board = render(&full, self.me, &LookNotes::default(), l);
        write!(self.out, "{board}")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use rand::Rng;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn args(extra: &[&str]) -> Args {
        let mut argv = vec!["play", "--board", "land_sea_air"];
        argv.extend_from_slice(extra);
        Cli::parse_from(argv).args
    }

    /// A whole game through the command loop: the person's moves are found by playing the same
    /// seeded game once beforehand, then fed as text; the game must end on the board and the
    /// saved record must replay to the same result.
    #[test]
    fn a_piped_game_is_played_to_the_end_and_recorded() {
        for (seat, lang) in [("0", "zh"), ("1", "en")] {
            let dir =
                std::env::temp_dir().join(format!("junqi-lsa-play-{}-{seat}", std::process::id()));
            let path = dir.join("game.txt");
            let path_text = path.to_string_lossy().to_string();
            let a = args(&[
                "--seed", "11", "--bot", "random", "--seat", seat, "--lang", lang, "--record",
                &path_text,
            ]);
            // The rehearsal: the same setup, random legal moves for the person.
            let Setup {
                mut game,
                bot,
                budget,
                me,
                ..
            } = setup(&a).unwrap();
            let mut sink = Vec::new();
            let mut s = Session {
                game: &mut game,
                me,
                lang: Lang::En,
                bot,
                budget,
                notes: LookNotes::default(),
                history: Vec::new(),
                out: &mut sink,
            };
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            let mut lines = Vec::new();
            s.bot_turns().unwrap();
            while !s.game.is_over() {
                let acts = s.view().legal_actions;
                let text = acts[rng.gen_range(0..acts.len())].to_string();
                s.command(&text).unwrap();
                lines.push(text);
            }
            let outcome = s.game.outcome().unwrap();
            assert!(!matches!(outcome, Outcome::Aborted));
            // The game itself, through the command loop.
            let mut out = Vec::new();
            let input = lines.join("\n") + "\n";
            play(
                &a,
                input.as_bytes(),
                &mut out,
                if lang == "zh" { Lang::Zh } else { Lang::En },
            )
            .unwrap();
            let out = String::from_utf8(out).unwrap();
            assert!(
                out.contains(if lang == "zh" {
                    "终局"
                } else {
                    "final position"
                }),
                "{out}"
            );
            let record =
                junqi_core::lsa::Record::from_text(&std::fs::read_to_string(&path).unwrap())
                    .unwrap();
            assert_eq!(record.result, Some(outcome));
            assert_eq!(record.replay().unwrap().position(), game.position());
            std::fs::remove_dir_all(&dir).ok();
        }
    }

    #[test]
    fn bad_arguments_are_refused_with_the_reason() {
        let err = |extra: &[&str]| setup(&args(extra)).err().unwrap().to_string();
        assert!(err(&["--seat", "2"]).contains("--seat 2 does not exist"));
        assert!(err(&["--bot", "nobody"]).contains("no land-sea-air player"));
        assert!(err(&["--layout", "e1=flag"]).contains("--layout: "));
        assert!(err(&["--bot", "cmd:/nonexistent/engine"]).contains("cannot start"));
    }

    #[test]
    fn every_square_is_seven_columns_and_hidden_enemies_show_their_arm() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let pos = junqi_core::lsa::playout::random_start(Default::default(), &mut rng);
        let view = pos.view(Mode::Dark, Observer::Seat(Side::South));
        for lang in [Lang::Zh, Lang::En] {
            let text = render(&view, Side::South, &LookNotes::default(), lang);
            let rows: Vec<&str> = text.lines().collect();
            assert_eq!(rows.len(), 17);
            for r in &rows[1..16] {
                assert_eq!(width(r), 4 + 9 * 7 + 4, "{r:?}");
            }
            // North's pieces are hidden but their arms show; the fort on its harbour is named.
            assert!(rows[1].contains(arm_tile(Arm::Land, lang)));
            assert!(text.contains(&role_tile(Role::Fort, lang)));
            assert!(!text.contains(&format!("N{}", role_tile(Role::Marshal, lang))));
        }
    }
}
