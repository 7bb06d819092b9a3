//! `junqi play`: a person against bots in the terminal, on any board and in any mode.
//!
//! The person sees only what their seat may know (`Position::observe(Observer::Seat(s))`):
//! their own pieces by name, hidden pieces as `??` (or as their own guess, 标记), the
//! announcements in words, and the pieces removed so far as far as they were announced. Under
//! the board stay the dead-piece list, the last few moves and the result of the person's own last
//! action. A refused move says why (the core's reason from the person's own view). When the game
//! ends the result, the full board and the record's path are shown, and the program waits for
//! Enter. Input is read line by line, so the game can be driven through a pipe as well as from a
//! terminal.

mod board;
mod fallen;
mod history;
mod lsa;
mod marks;
mod record_file;
mod refusal;
#[cfg(test)]
mod testing;
mod words;

use super::arena::bot_factory;
use super::rules_args::RulesArgs;
use anyhow::{anyhow, bail, Result};
use board::{render, View};
use fallen::FallenList;
use history::History;
use junqi_ai::engine::parse_budget;
use junqi_ai::external::EngineProcess;
use junqi_ai::{Bot, BotError, Budget};
use junqi_core::notation::{action_from_text, action_to_text, parse_square};
use junqi_core::{
    Action, AttackResult, BoardKind, Deployment, Entry, Event, Observation, Observer, Outcome,
    Position, Record, Rules, Seat, SkipReason, Square, Start, Topology,
};
use marks::{MarkError, Marks};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use refusal::refusal_words;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, SystemTime};
use words::{draw_words, elimination_words, parse_role, role_word, seat_letter, seat_name, Lang};

/// How many of the last announcements stay under the board.
const RECENT: usize = 5;

/// Arguments of `junqi play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Your seat (two-player: 0 South, 1 North; three-player: 0 South, 1 East, 2 North;
    /// four-player: 0 South, 1 East, 2 North, 3 West; six-player: 0 Red, 1 Blue, 2 Orange,
    /// 3 Green, 4 Purple, 5 Black).
    #[arg(long, default_value_t = 0)]
    seat: u8,
    /// The bot playing every other seat: a level (beginner 入门, normal 普通, expert 高手,
    /// master 大师), another bot's name, or cmd:<command line> for an external engine.
    #[arg(long, default_value_t = junqi_ai::default_bot().to_string())]
    bot: String,
    /// The bots' budget per move: iterations:N, nodes:N or ms:N.
    #[arg(long, default_value = "iterations:1000")]
    budget: String,
    /// Seed of the deal, the random layouts and the bots (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Your layout in the deployment text form (default: a random legal layout).
    #[arg(long)]
    layout: Option<String>,
    /// Language of piece names and messages: zh or en.
    #[arg(long, default_value = "zh")]
    lang: String,
    /// Pieces in their seat's colour: auto (when the output is a terminal and NO_COLOR is not
    /// set), always or never.
    #[arg(long, visible_alias = "color", default_value = "auto")]
    colour: String,
    /// Start from this position (the position text form of docs/formats.md: an endgame, a
    /// puzzle) instead of deployments; its board, mode and options replace --board, --mode and
    /// --options.
    #[arg(long)]
    start: Option<String>,
    /// Where to save the game record (default: a new file under
    /// $XDG_DATA_HOME/junqi/games, else ~/.local/share/junqi/games).
    #[arg(long)]
    record: Option<PathBuf>,
}

/// The state of a game from the person's side.
struct Session<'a> {
    rules: Rules,
    topo: &'static Topology,
    me: Seat,
    lang: Lang,
    /// Paint pieces in their seat's colour.
    colour: bool,
    pos: Position,
    bots: Vec<Option<Box<dyn Bot>>>,
    budget: Budget,
    /// Pieces removed from the board (阵亡).
    fallen: FallenList,
    /// The person's guesses on hidden enemy pieces (标记).
    marks: Marks,
    /// The game's announcements in words.
    history: History,
    /// Steps taken (actions and resignations), and the step in which each seat was eliminated,
    /// for the placings of a game with more than two teams.
    steps: u32,
    out_at: Vec<(Seat, u32)>,
    /// The game record, saved at the end (or when the person leaves).
    record: Record,
    record_path: PathBuf,
    out: &'a mut dyn Write,
}

impl Session<'_> {
    fn obs(&self) -> Observation {
        self.pos.observe(Observer::Seat(self.me))
    }

    /// A seat's name, with `（你）` for the person and `（队友）` for a teammate.
    fn name(&self, seat: Seat) -> String {
        let n = seat_name(self.rules.board, seat, self.lang).to_string();
        if seat == self.me {
            format!("{n}{}", self.lang.t("（你）", " (you)"))
        } else if self.rules.teams().same_team(seat, self.me) {
            format!("{n}{}", self.lang.t("（队友）", " (ally)"))
        } else {
            n
        }
    }

    /// The seats of a multi-seat game in one line: letter, name, and who is out, e.g.
    /// `各方: S 南方（你） · E 东方 · N 北方（出局）`; with teams, the teams in turn.
    fn seat_legend(&self) -> String {
        let l = self.lang;
        let board = self.rules.board;
        if !board.is_multi_seat() {
            return String::new();
        }
        let teams = self.rules.teams();
        let seat = |s: Seat| {
            let out = if self.pos.is_eliminated(s) {
                l.t("（出局）", " (out)")
            } else {
                ""
            };
            let who = format!("{} {}", seat_letter(board, s), self.name(s));
            let colour = self.colour.then(|| board::seat_colour(s));
            format!("{}{out}", board::paint(&who, colour))
        };
        let parts: Vec<String> = if teams.has_teammates() {
            teams
                .teams()
                .map(|t| {
                    let seats: Vec<String> = teams.members(t).iter().map(seat).collect();
                    format!("{} {}", l.t("队", "team"), seats.join(" + "))
                })
                .collect()
        } else {
            board.seat_range().map(seat).collect()
        };
        format!("{}: {}\n", l.t("各方", "seats"), parts.join(" · "))
    }

    /// The labels of the six-player arms: `0 南方（你）`.
    fn arm_labels(&self) -> Vec<String> {
        if self.rules.board != BoardKind::SixPlayer {
            return Vec::new();
        }
        self.rules
            .board
            .seat_range()
            .map(|s| {
                let out = if self.pos.is_eliminated(s) {
                    self.lang.t("（出局）", " (out)")
                } else {
                    ""
                };
                format!("{} {}{out}", seat_letter(self.rules.board, s), self.name(s))
            })
            .collect()
    }

    /// The person's colour in flip play (once settled), else their seat.
    fn my_owner(&self) -> Option<Seat> {
        if self.rules.is_flip() {
            self.pos.flip_colours().map(|c| c[self.me as usize])
        } else {
            Some(self.me)
        }
    }

    /// The name of a piece owner: a seat, or in flip play a colour.
    fn owner_name(&self, owner: Seat) -> String {
        let l = self.lang;
        if self.rules.is_flip() {
            let tag = if Some(owner) == self.my_owner() {
                l.t("（你）", " (you)")
            } else {
                ""
            };
            format!("{} {owner}{tag}", l.t("颜色", "colour"))
        } else {
            self.name(owner)
        }
    }

    fn sq(&self, s: Square) -> &str {
        self.topo.name(s)
    }

    /// Describe one announcement in words.
    fn event_words(&self, e: &Event) -> String {
        let l = self.lang;
        match *e {
            Event::Move { seat, from, to } => {
                format!("{} {}-{}", self.name(seat), self.sq(from), self.sq(to))
            }
            Event::Attack {
                seat,
                from,
                to,
                result,
            } => {
                let r = match result {
                    AttackResult::AttackerWins => l.t("攻方胜", "attacker wins"),
                    AttackResult::DefenderWins => l.t("守方胜", "defender wins"),
                    AttackResult::BothRemoved => l.t("同归于尽", "both removed"),
                    AttackResult::FlagCaptured => l.t("夺得军旗！", "flag captured!"),
                };
                format!(
                    "{} {}-{} {} {}",
                    self.name(seat),
                    self.sq(from),
                    self.sq(to),
                    l.t("进攻：", "attacks:"),
                    r
                )
            }
            Event::Flip {
                seat,
                at,
                role,
                colour,
            } => format!(
                "{} {} {}: {} ({} {colour})",
                self.name(seat),
                l.t("翻开", "flips"),
                self.sq(at),
                role_word(role, l),
                l.t("颜色", "colour")
            ),
            Event::Colours { colours } => format!(
                "{}: {} {}, {} {}",
                l.t("颜色已定", "colours settled"),
                self.name(0),
                colours[0],
                self.name(1),
                colours[1]
            ),
            Event::FlagRevealed { seat, at } => {
                let who = if self.rules.is_flip() {
                    format!("{} {seat}", l.t("颜色", "colour"))
                } else {
                    self.name(seat)
                };
                format!(
                    "{} {} {}",
                    who,
                    l.t("司令阵亡，军旗位于", "lost its marshal; its flag is on"),
                    self.sq(at)
                )
            }
            Event::Scouted { at, role } => format!(
                "{} {}: {}",
                l.t("侦察", "scouted"),
                self.sq(at),
                role_word(role, l)
            ),
            Event::Skipped { seat, reason } => format!(
                "{} {} ({})",
                self.name(seat),
                l.t("被跳过", "is skipped"),
                match reason {
                    SkipReason::Blocked => l.t("无路可走", "blocked"),
                    SkipReason::Timeout => l.t("超时", "timeout"),
                }
            ),
            Event::Eliminated { seat, reason } => {
                format!(
                    "{} {} ({})",
                    self.name(seat),
                    l.t("出局", "is eliminated"),
                    elimination_words(reason, l)
                )
            }
        }
    }

    fn outcome_words(&self, o: Outcome) -> String {
        let l = self.lang;
        match o {
            Outcome::Win { reason, .. } => {
                let names: Vec<String> = o.winners().iter().map(|&s| self.name(s)).collect();
                format!(
                    "{} {} ({})",
                    names.join(l.t("、", ", ")),
                    l.t("获胜", "win"),
                    elimination_words(reason, l)
                )
            }
            Outcome::Draw { reason } => {
                format!("{} ({})", l.t("和棋", "draw"), draw_words(reason, l))
            }
            Outcome::Aborted => l.t("对局中止", "game aborted").to_string(),
        }
    }

    fn say(&mut self, s: &str) -> io::Result<()> {
        writeln!(self.out, "{s}")
    }

    /// Apply an action of the seat to move, tell every bot, and print the announcements.
    fn step(&mut self, action: Action) -> Result<()> {
        let seat = self.pos.to_move();
        let before = self.pos.clone();
        let mut events = Vec::new();
        self.pos
            .play(action, &mut events)
            .map_err(|e| anyhow!("{e}"))?;
        self.record.entries.push(Entry::Action { seat, action });
        self.after_step(&before, seat == self.me, &events)
    }

    /// Bring the bots, the dead list, the marks and the history up to date after one step
    /// from `before`.
    fn after_step(&mut self, before: &Position, by_me: bool, events: &[Event]) -> Result<()> {
        let seen = before.observe(Observer::Seat(self.me));
        self.fallen.note(before, &seen, events);
        let now = self.obs();
        self.marks.follow(events, &now);
        for (s, b) in self.bots.iter_mut().enumerate() {
            if let Some(b) = b {
                b.observe(events, &self.pos.observe(Observer::Seat(s as Seat)));
            }
        }
        self.steps += 1;
        for e in events {
            if let Event::Eliminated { seat, .. } = *e {
                self.out_at.push((seat, self.steps));
            }
        }
        let words: Vec<String> = events.iter().map(|e| self.event_words(e)).collect();
        for w in &words {
            self.say(&format!("  * {w}"))?;
        }
        self.history.push(before.plies() + 1, words, by_me);
        let me_out = events
            .iter()
            .any(|e| matches!(*e, Event::Eliminated { seat, .. } if seat == self.me));
        if me_out && !self.pos.is_over() {
            let l = self.lang;
            self.say(l.t(
                "（你已出局；其余各方继续对局，直到终局）",
                "(you are out; the others play on to the end)",
            ))?;
        }
        self.record.result = self.pos.outcome();
        Ok(())
    }

    fn resign(&mut self, seat: Seat) -> Result<()> {
        let before = self.pos.clone();
        let mut events = Vec::new();
        self.pos
            .resign(seat, &mut events)
            .map_err(|e| anyhow!("{e}"))?;
        self.record.entries.push(Entry::Resign(seat));
        // The person's team gives up together (the teammates are bots).
        for p in self.rules.teams().mates(seat).iter() {
            if !self.pos.is_over() && !self.pos.is_eliminated(p) {
                self.pos
                    .resign(p, &mut events)
                    .map_err(|e| anyhow!("{e}"))?;
                self.record.entries.push(Entry::Resign(p));
            }
        }
        self.after_step(&before, seat == self.me, &events)
    }

    /// The dead-piece list (阵亡); every identity once the game is over.
    fn dead_list(&self) -> String {
        self.fallen
            .lines(self.pos.is_over(), self.lang, |o| self.owner_name(o))
    }

    fn destinations(&self, obs: &Observation, from: Square) -> Vec<Square> {
        obs.legal_actions
            .iter()
            .filter_map(|a| match *a {
                Action::Move { from: f, to } if f == from => Some(to),
                _ => None,
            })
            .collect()
    }

    fn board(&self, obs: &Observation, selected: Option<Square>, dests: &[Square]) -> String {
        self.drawing(obs, selected, dests, false)
    }

    /// The board, or with `names` the map of square names.
    fn drawing(
        &self,
        obs: &Observation,
        selected: Option<Square>,
        dests: &[Square],
        names: bool,
    ) -> String {
        let labels = self.arm_labels();
        let mut s = self.seat_legend();
        s += &render(
            obs,
            &View {
                lang: self.lang,
                me: self.me,
                selected,
                dests,
                guesses: &self.marks,
                names,
                labels: &labels,
                colour: self.colour,
            },
        );
        s
    }

    /// The placings of a won game with more than two teams (RULES §7.2): the winning team
    /// first, then the other teams, the last out first; teams out in the same step share a
    /// place (and the next place is skipped). Each entry: the place and the teams in it.
    fn placings(&self) -> Option<Vec<(usize, Vec<Vec<Seat>>)>> {
        let teams = self.rules.teams();
        let o = self.pos.outcome()?;
        if teams.count() <= 2 || !matches!(o, Outcome::Win { .. }) {
            return None;
        }
        let winners = o.winners();
        // The step in which each losing team's last seat went out (0: before this session,
        // in a --start position).
        let mut rest: Vec<(u32, Vec<Seat>)> = teams
            .teams()
            .map(|t| teams.members(t).iter().collect::<Vec<Seat>>())
            .filter(|seats| !seats.iter().any(|s| winners.contains(s)))
            .map(|seats| {
                let out = seats
                    .iter()
                    .filter_map(|&s| self.out_at.iter().find(|e| e.0 == s).map(|e| e.1))
                    .max()
                    .unwrap_or(0);
                (out, seats)
            })
            .collect();
        rest.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut places = vec![(1, vec![winners.to_vec()])];
        let mut i = 0;
        while i < rest.len() {
            let same: Vec<Vec<Seat>> = rest[i..]
                .iter()
                .take_while(|t| t.0 == rest[i].0)
                .map(|t| t.1.clone())
                .collect();
            let n = same.len();
            places.push((i + 2, same));
            i += n;
        }
        Some(places)
    }

    /// The placings in words: `名次: 1. 北方  2. 南方（你）  3. 东方`.
    fn placings_words(&self, places: &[(usize, Vec<Vec<Seat>>)]) -> String {
        let l = self.lang;
        let team = |seats: &Vec<Seat>| -> String {
            let names: Vec<String> = seats.iter().map(|&s| self.name(s)).collect();
            names.join("+")
        };
        let parts: Vec<String> = places
            .iter()
            .map(|(n, teams)| {
                let names: Vec<String> = teams.iter().map(team).collect();
                format!("{n}. {}", names.join(l.t("、", ", ")))
            })
            .collect();
        format!("{}: {}", l.t("名次", "placings"), parts.join("  "))
    }

    /// The board with what stays under it: the dead list, the last moves, and the result of
    /// the person's own last action.
    fn show_board(&mut self, obs: &Observation) -> Result<()> {
        let l = self.lang;
        let mut s = String::from("\n");
        s += &self.board(obs, None, &[]);
        s += &self.dead_list();
        let recent = self.history.last(RECENT, l.t("第", "ply"));
        if !recent.is_empty() {
            s += &format!("{}\n{recent}", l.t("最近几步:", "last moves:"));
        }
        if let Some((ply, words)) = self.history.my_last() {
            s += &format!(
                "{} ({} {ply}): {words}\n",
                l.t("你的上一步", "your last move"),
                l.t("第", "ply")
            );
        }
        write!(self.out, "{s}")?;
        Ok(())
    }

    /// Save the record where `--record` says (or the default path) and say where.
    fn save_record(&mut self) -> Result<()> {
        let l = self.lang;
        let path = self.record_path.clone();
        match record_file::save(&self.record, &path) {
            Ok(()) => self.say(&format!(
                "{} {}",
                l.t("棋谱已保存:", "game record saved to"),
                path.display()
            ))?,
            Err(e) => self.say(&format!(
                "{} {e:#}",
                l.t("棋谱未能保存:", "the game record could not be saved:")
            ))?,
        }
        Ok(())
    }

    /// The end of the game: the result, the whole board, every dead piece, the last moves and
    /// the record's path.
    fn end_screen(&mut self) -> Result<()> {
        let l = self.lang;
        let o = self.pos.outcome().expect("over");
        let words = self.outcome_words(o);
        let verdict = match o {
            Outcome::Win { .. } if o.winners().contains(&self.me) => l.t("你赢了！", "You win!"),
            Outcome::Win { .. } => l.t("你输了。", "You lose."),
            Outcome::Draw { .. } => l.t("和棋。", "A draw."),
            Outcome::Aborted => l.t("对局中止。", "The game was aborted."),
        };
        self.say(&format!(
            "\n==== {} {words} — {verdict} ====",
            l.t("对局结束：", "game over:")
        ))?;
        if let Some(places) = self.placings() {
            let words = self.placings_words(&places);
            self.say(&words)?;
            let me = self.me;
            if let Some((n, _)) = places
                .iter()
                .find(|(_, teams)| teams.iter().any(|t| t.contains(&me)))
            {
                let place = match l {
                    Lang::Zh => format!("你的名次: 第 {n} 名"),
                    Lang::En => format!("your place: {n}"),
                };
                self.say(&place)?;
            }
        }
        // The game is over: the whole board may be shown (RULES §6).
        self.say(l.t("终局全盘揭晓:", "the whole board, revealed:"))?;
        let full = self.board(&self.pos.observe(Observer::Referee), None, &[]);
        self.say(&full)?;
        let d = self.dead_list();
        write!(self.out, "{d}")?;
        let recent = self.history.last(RECENT, l.t("第", "ply"));
        self.say(&format!("{}\n{recent}", l.t("最后几步:", "last moves:")))?;
        self.save_record()
    }
}

fn help(lang: Lang, board: BoardKind) -> String {
    let letters = match board {
        BoardKind::TwoPlayer => "S/N",
        BoardKind::ThreePlayer => "S/E/N",
        BoardKind::FourPlayer => "S/E/N/W",
        BoardKind::SixPlayer => "0-5",
    };
    let zh = format!(
        "命令: help 帮助 | board 棋盘 | map 坐标图 | <格> 或 moves <格> 列出该子可走的格 | <起>-<止> 走子 (如 a6-a7) | flip <格> 翻棋\n\
         \x20     history 全部走法 | dead 阵亡 | mark <格> <猜测> 标记敌子 (如 mark c9 炸弹; 司令 炸弹 地雷 军旗 …) | unmark <格> 取消标记 | marks 列出标记\n\
         \x20     resign 投降 | quit 退出\n\
         棋盘: {letters} 是棋子所属方; ?? 未知敌子; 炸? 等是你的标记; #### 未翻开的子; ( ) 行营; [ ] 大本营; ═ ║ 铁路; ─ │ ╲ ╱ 公路; * 可去之处"
    );
    let en = format!(
        "commands: help | board | map: the square names | <square> or moves <square>: where that piece may go | <from>-<to> to move (e.g. a6-a7) | flip <square>\n\
         \x20         history: every move | dead | mark <square> <guess>: mark a hidden enemy (e.g. mark c9 bomb; marshal bomb landmine flag …) | unmark <square> | marks\n\
         \x20         resign | quit\n\
         board: {letters} is a piece's seat; ?? a hidden enemy; Bm? etc. your marks; #### face down; ( ) camp; [ ] headquarters; ═ ║ rail; ─ │ ╲ ╱ road; * a place to go"
    );
    match lang {
        Lang::Zh => zh,
        Lang::En => en,
    }
}

/// Run the command with stdin and stdout.
pub fn run(a: Args) -> Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let terminal =
        stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut out = stdout.lock();
    match play(a, stdin.lock(), &mut out, terminal) {
        Err(e)
            if e.downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            Ok(())
        }
        r => r,
    }
}

/// Play a game reading the person's commands from `input`; `terminal` when the output is a
/// terminal that takes colours (`--colour auto`).
pub fn play(a: Args, input: impl BufRead, out: &mut dyn Write, terminal: bool) -> Result<()> {
    if a.rules.board == super::lsa::BOARD {
        let lang = match a.lang.as_str() {
            "zh" => Lang::Zh,
            "en" => Lang::En,
            other => bail!("--lang must be zh or en, got {other:?}"),
        };
        return lsa::play(&a, input, out, lang);
    }
    let start_setup = match &a.start {
        Some(t) => Some(junqi_core::text::setup_from_text(t).map_err(|e| anyhow!("--start: {e}"))?),
        None => None,
    };
    let rules = match &start_setup {
        Some(setup) => setup.rules,
        None => a.rules.rules()?,
    };
    let lang = match a.lang.as_str() {
        "zh" => Lang::Zh,
        "en" => Lang::En,
        other => bail!("--lang must be zh or en, got {other:?}"),
    };
    let colour = match a.colour.as_str() {
        "auto" => terminal,
        "always" => true,
        "never" => false,
        other => bail!("--colour must be auto, always or never, got {other:?}"),
    };
    if a.seat as usize >= rules.seats() {
        bail!(
            "--seat {} does not exist on the {} board (seats 0 to {})",
            a.seat,
            rules.board,
            rules.seats() - 1
        );
    }
    let budget = parse_budget(&a.budget).map_err(|e| anyhow!("--budget: {e}"))?;
    // One game: an external engine's process lives as long as it.
    let factory = bot_factory(&a.bot, Duration::from_secs(30), EngineProcess::PerGame)?;
    let started = SystemTime::now();
    let seed = a.seed.unwrap_or_else(|| {
        started
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let me = a.seat;
    let topo = Topology::get(rules.board, rules.middle_rail());
    let mut bots: Vec<Option<Box<dyn Bot>>> = (0..rules.seats() as Seat)
        .map(|s| {
            (s != me).then(|| {
                let mut b = factory();
                b.new_game(&rules, s, seed.wrapping_mul(31).wrapping_add(s as u64 + 1));
                b
            })
        })
        .collect();
    let (pos, start) = if let Some(setup) = start_setup {
        if a.layout.is_some() {
            bail!("--start gives the whole position: --layout does not apply");
        }
        let pos = Position::from_setup(&setup).map_err(|e| anyhow!("--start: {e}"))?;
        if pos.is_over() {
            bail!("--start: the game of that position is already over");
        }
        (pos, Start::Position(setup))
    } else if rules.is_flip() {
        if a.layout.is_some() {
            bail!("flip play has no deployment: --layout does not apply");
        }
        let pos = Position::deal(rules, 0, &mut rng).map_err(|e| anyhow!("{e}"))?;
        let start = Start::Position(pos.to_setup());
        (pos, start)
    } else {
        let mine = match &a.layout {
            Some(t) => {
                let d = Deployment::from_text(t).map_err(|e| anyhow!("--layout: {e}"))?;
                d.validate(rules.board, me)
                    .map_err(|e| anyhow!("--layout: {e}"))?;
                d
            }
            None => Deployment::random(&mut rng),
        };
        let mut layouts = Vec::new();
        for (s, b) in bots.iter_mut().enumerate() {
            match b {
                None => layouts.push(mine),
                Some(b) => {
                    let d = match b.deploy() {
                        Ok(d) if d.validate(rules.board, s as Seat).is_ok() => d,
                        Ok(_) | Err(BotError(_)) => {
                            writeln!(
                                out,
                                "(seat {s}: the bot gave no legal layout; a random one is used)"
                            )?;
                            Deployment::random(&mut rng)
                        }
                    };
                    layouts.push(d);
                }
            }
        }
        let pos = Position::from_deployments(rules, &layouts, 0).map_err(|e| anyhow!("{e}"))?;
        let start = Start::Deployments {
            deployments: layouts,
            first: 0,
        };
        (pos, start)
    };
    let record_path = a
        .record
        .clone()
        .unwrap_or_else(|| record_file::default_path(started, seed));
    let mut s = Session {
        rules,
        topo,
        me,
        lang,
        colour,
        pos,
        bots,
        budget,
        fallen: FallenList::default(),
        marks: Marks::default(),
        history: History::default(),
        steps: 0,
        out_at: Vec::new(),
        record: Record {
            table: a.rules.table_rules()?,
            ..Record::new(rules, start)
        },
        record_path,
        out,
    };
    for (seat, b) in s.bots.iter_mut().enumerate() {
        if let Some(b) = b {
            b.observe(&[], &s.pos.observe(Observer::Seat(seat as Seat)));
        }
    }
    let l = lang;
    s.say(&format!(
        "{} {} / {} — {} {}, {} {}",
        l.t("军棋", "Junqi"),
        rules.board,
        rules.mode,
        l.t("你是", "you play"),
        s.name(me),
        l.t("种子", "seed"),
        seed
    ))?;
    s.say(&help(l, rules.board))?;
    if rules.board == BoardKind::SixPlayer {
        // No file letters and rank numbers around this board: the names once, at the start.
        s.say(l.t(
            "坐标图 (之后输入 map 可再看):",
            "the square names (type map to see them again):",
        ))?;
        let map = s.drawing(&s.obs(), None, &[], true);
        write!(s.out, "{map}")?;
    }
    let mut lines = input.lines();
    let mut show_board = true;
    while !s.pos.is_over() {
        let seat = s.pos.to_move();
        if seat != me {
            let obs = s.pos.observe(Observer::Seat(seat));
            let budget = s.budget;
            let choice = match s.bots[seat as usize].as_mut() {
                Some(b) => b.choose(&obs, budget),
                None => Err(BotError("no bot for this seat".into())),
            };
            match choice {
                Ok(action) if obs.legal_actions.contains(&action) => s.step(action)?,
                Ok(action) => {
                    let t = action_to_text(topo, action);
                    s.say(&format!(
                        "({} {t}; {})",
                        s.name(seat),
                        l.t(
                            "走了非法的一步，判负",
                            "played an illegal action and resigns"
                        )
                    ))?;
                    s.resign(seat)?;
                }
                Err(BotError(why)) => {
                    s.say(&format!(
                        "({}: {why}; {})",
                        s.name(seat),
                        l.t("判负", "it resigns")
                    ))?;
                    s.resign(seat)?;
                }
            }
            show_board = true;
            continue;
        }
        let obs = s.obs();
        if show_board {
            s.show_board(&obs)?;
            s.say(&format!(
                "{} ({} {})",
                l.t("轮到你走", "your move"),
                l.t("第", "ply"),
                obs.plies + 1
            ))?;
            show_board = false;
        }
        write!(s.out, "> ")?;
        s.out.flush()?;
        let Some(line) = lines.next() else {
            s.say(l.t("\n（输入结束，退出）", "\n(end of input: leaving the game)"))?;
            s.save_record()?;
            return Ok(());
        };
        let line = match line {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                s.say(l.t("输入不是 UTF-8", "that line is not UTF-8"))?;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let cmd = line.trim();
        let (word, rest) = match cmd.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (cmd, ""),
        };
        match word {
            "" => {}
            "help" | "?" | "h" => s.say(&help(l, rules.board))?,
            "board" | "b" => show_board = true,
            "map" => {
                let map = s.drawing(&obs, None, &[], true);
                write!(s.out, "{map}")?;
            }
            "dead" => {
                let d = s.dead_list();
                write!(s.out, "{d}")?;
            }
            "history" | "hist" => {
                let h = s
                    .history
                    .all(l.t("第", "ply"), l.t("还没有走过棋", "no moves yet"));
                write!(s.out, "{h}")?;
            }
            "mark" => mark(&mut s, &obs, rest)?,
            "unmark" => unmark(&mut s, rest)?,
            "marks" => list_marks(&mut s)?,
            "quit" | "exit" => {
                s.save_record()?;
                s.say(l.t("再见", "bye"))?;
                return Ok(());
            }
            "resign" => {
                s.resign(me)?;
            }
            "moves" | "m" => list_moves(&mut s, &obs, rest)?,
            _ if parse_square(topo, cmd).is_ok() => list_moves(&mut s, &obs, cmd)?,
            _ => match action_from_text(topo, cmd) {
                Err(e) => s.say(&format!(
                    "{}: {e} ({})",
                    l.t("看不懂", "not understood"),
                    l.t("输入 help 查看命令", "type help")
                ))?,
                Ok(action) => match obs.why_illegal(action) {
                    None => {
                        s.step(action)?;
                        show_board = true;
                    }
                    Some(e) => {
                        let t = action_to_text(topo, action);
                        let why = refusal_words(&e, l);
                        s.say(&format!(
                            "{} {t}: {why}",
                            l.t("不能这样走:", "not a legal action:")
                        ))?
                    }
                },
            },
        }
    }
    s.end_screen()?;
    // Wait, so that the end is seen in a terminal multiplexer; the end of input ends it too.
    write!(s.out, "{}", l.t("按回车键退出… ", "press Enter to leave… "))?;
    s.out.flush()?;
    let _ = lines.next();
    s.say("")?;
    Ok(())
}

/// `mark <square> <guess>`: mark a hidden enemy piece.
fn mark(s: &mut Session<'_>, obs: &Observation, rest: &str) -> Result<()> {
    let l = s.lang;
    let (square, guess) = match rest.split_once(char::is_whitespace) {
        Some((a, b)) => (a, b.trim()),
        None => (rest, ""),
    };
    let usage = l.t(
        "用法: mark <格> <猜测>，如 mark c9 炸弹 (司令 军长 师长 旅长 团长 营长 连长 排长 工兵 炸弹 地雷 军旗)",
        "usage: mark <square> <guess>, e.g. mark c9 bomb (marshal general major_general brigadier colonel major captain lieutenant engineer bomb landmine flag)",
    );
    let (Ok(sq), Some(role)) = (parse_square(s.topo, square), parse_role(guess)) else {
        return Ok(s.say(usage)?);
    };
    match s.marks.set(obs, sq, role) {
        Ok(()) => s.say(&format!(
            "{} {square}: {}?",
            l.t("已标记", "marked"),
            role_word(role, l)
        ))?,
        Err(MarkError::Empty) => s.say(&format!("{square} {}", l.t("上没有棋子", "is empty")))?,
        Err(MarkError::Known) => s.say(l.t(
            "只能标记身份未知的敌子",
            "only a hidden enemy piece can be marked",
        ))?,
        Err(MarkError::FaceDown) => {
            s.say(l.t("未翻开的子不能标记", "a face-down piece cannot be marked"))?
        }
    }
    Ok(())
}

/// `unmark <square>`: drop a guess.
fn unmark(s: &mut Session<'_>, rest: &str) -> Result<()> {
    let l = s.lang;
    match parse_square(s.topo, rest) {
        Ok(sq) if s.marks.clear(sq) => {
            s.say(&format!("{} {rest}", l.t("已取消标记", "unmarked")))?
        }
        Ok(_) => s.say(&format!("{rest} {}", l.t("没有标记", "has no mark")))?,
        Err(e) => s.say(&e)?,
    }
    Ok(())
}

/// `marks`: every guess.
fn list_marks(s: &mut Session<'_>) -> Result<()> {
    let l = s.lang;
    let list: Vec<String> = s
        .marks
        .iter()
        .map(|(sq, r)| format!("{} {}?", s.topo.name(sq), role_word(r, l)))
        .collect();
    let text = if list.is_empty() {
        l.t("没有标记", "no marks").to_string()
    } else {
        list.join(", ")
    };
    s.say(&format!("{}: {text}", l.t("标记", "marks")))?;
    Ok(())
}

fn list_moves(s: &mut Session<'_>, obs: &Observation, square: &str) -> Result<()> {
    let l = s.lang;
    let sq = match parse_square(s.topo, square) {
        Ok(q) => q,
        Err(e) => {
            s.say(&e)?;
            return Ok(());
        }
    };
    let dests = s.destinations(obs, sq);
    let flip = obs.legal_actions.contains(&Action::Flip(sq));
    if dests.is_empty() && !flip {
        s.say(&format!(
            "{} {}",
            square,
            l.t("没有可走的步", "has no legal action")
        ))?;
        return Ok(());
    }
    let b = s.board(obs, Some(sq), &dests);
    s.say(&b)?;
    let names: Vec<String> = dests.iter().map(|&d| s.topo.name(d).to_string()).collect();
    let mut msg = format!("{square}: {}", names.join(" "));
    if flip {
        msg += &format!(" (flip {square})");
    }
    s.say(&msg)?;
    Ok(())
}
