//! `junqi play`: a person against bots in the terminal, on either board and in any mode.
//!
//! The person sees only what their seat may know (`Position::observe(Observer::Seat(s))`):
//! their own pieces by name, hidden pieces as `??`, the announcements in words, and the pieces
//! removed so far as far as they were announced. Input is read line by line, so the game can be
//! driven through a pipe as well as from a terminal.

use super::arena::bot_factory;
use super::rules_args::RulesArgs;
use anyhow::{anyhow, bail, Result};
use junqi_ai::engine::parse_budget;
use junqi_ai::external::EngineProcess;
use junqi_ai::{Bot, BotError, Budget};
use junqi_core::notation::{action_from_text, action_to_text, parse_square};
use junqi_core::{
    Action, AttackResult, BoardKind, Deployment, DrawReason, EliminationReason, Event, Observation,
    Observer, Outcome, Position, Role, Rules, Seat, SkipReason, Square, SquareKind, Topology,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// Arguments of `junqi play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Your seat (two-player: 0 South, 1 North; four-player: 0 South, 1 East, 2 North, 3 West).
    #[arg(long, default_value_t = 0)]
    seat: u8,
    /// The bot playing every other seat: a name, or cmd:<command line> for an external engine.
    #[arg(long, default_value = "heuristic")]
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
}

/// Language of the display.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lang {
    Zh,
    En,
}

impl Lang {
    fn t(self, zh: &'static str, en: &'static str) -> &'static str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// A piece's name in exactly four display columns.
fn role_tile(role: Role, lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => role.chinese(),
        Lang::En => match role {
            Role::Marshal => "Mrsl",
            Role::General => "Genl",
            Role::MajorGeneral => "MGen",
            Role::Brigadier => "Brig",
            Role::Colonel => "Col ",
            Role::Major => "Maj ",
            Role::Captain => "Capt",
            Role::Lieutenant => "Lt  ",
            Role::Engineer => "Engr",
            Role::Bomb => "Bomb",
            Role::Landmine => "Mine",
            Role::Flag => "Flag",
        },
    }
}

fn role_word(role: Role, lang: Lang) -> String {
    match lang {
        Lang::Zh => role.chinese().to_string(),
        Lang::En => role.name().replace('_', " "),
    }
}

fn seat_name(board: BoardKind, seat: Seat, lang: Lang) -> &'static str {
    match (board, seat, lang) {
        (BoardKind::TwoPlayer, 0, Lang::Zh) => "南方",
        (BoardKind::TwoPlayer, _, Lang::Zh) => "北方",
        (BoardKind::TwoPlayer, 0, Lang::En) => "South",
        (BoardKind::TwoPlayer, _, Lang::En) => "North",
        (_, 0, Lang::Zh) => "南方",
        (_, 1, Lang::Zh) => "东方",
        (_, 2, Lang::Zh) => "北方",
        (_, _, Lang::Zh) => "西方",
        (_, 0, Lang::En) => "South",
        (_, 1, Lang::En) => "East",
        (_, 2, Lang::En) => "North",
        (_, _, Lang::En) => "West",
    }
}

/// One letter per seat for the board tiles.
fn seat_letter(board: BoardKind, seat: Seat) -> char {
    match (board, seat) {
        (BoardKind::TwoPlayer, 0) => 'S',
        (BoardKind::TwoPlayer, _) => 'N',
        (_, 0) => 'S',
        (_, 1) => 'E',
        (_, 2) => 'N',
        _ => 'W',
    }
}

fn elimination_words(r: EliminationReason, lang: Lang) -> &'static str {
    match r {
        EliminationReason::FlagCaptured => lang.t("军旗被夺", "flag captured"),
        EliminationReason::NoMovablePieces => lang.t("无子可动", "no movable pieces"),
        EliminationReason::Blocked => lang.t("无路可走", "blocked"),
        EliminationReason::Skips => lang.t("超时过多", "too many skipped turns"),
        EliminationReason::Resigned => lang.t("投降", "resigned"),
        EliminationReason::Left => lang.t("逃跑", "left the table"),
    }
}

fn draw_words(r: DrawReason, lang: Lang) -> &'static str {
    match r {
        DrawReason::QuietPlies => lang.t("长时间无交战", "too many plies without an attack"),
        DrawReason::MaxPlies => lang.t("步数上限", "the ply limit"),
        DrawReason::Agreement => lang.t("双方同意", "agreement"),
    }
}

/// The state of a game from the person's side.
struct Session<'a> {
    rules: Rules,
    topo: &'static Topology,
    me: Seat,
    lang: Lang,
    pos: Position,
    bots: Vec<Option<Box<dyn Bot>>>,
    budget: Budget,
    /// Pieces removed from the board, by owner (flip play: colour), with the role when the
    /// person knew it.
    dead: Vec<Vec<Option<Role>>>,
    out: &'a mut dyn Write,
}

impl Session<'_> {
    fn obs(&self) -> Observation {
        self.pos.observe(Observer::Seat(self.me))
    }

    fn name(&self, seat: Seat) -> String {
        let n = seat_name(self.rules.board, seat, self.lang).to_string();
        if seat == self.me {
            format!("{n}{}", self.lang.t("（你）", " (you)"))
        } else {
            n
        }
    }

    /// The person's colour in flip play (once settled), else their seat.
    fn my_owner(&self) -> Option<Seat> {
        if self.rules.is_flip() {
            self.pos.flip_colours().map(|c| c[self.me as usize])
        } else {
            Some(self.me)
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

    /// Note the pieces an attack removed, as the person knew them before it.
    fn note_dead(&mut self, before: &Observation, events: &[Event]) {
        for e in events {
            let Event::Attack { from, to, .. } = *e else {
                continue;
            };
            let after = self.obs();
            let (Some(att), Some(def)) =
                (before.piece_at(from).copied(), before.piece_at(to).copied())
            else {
                continue;
            };
            // Attacker and defender are never face down, so their seats show.
            let (Some(a_seat), Some(d_seat)) = (att.seat, def.seat) else {
                continue;
            };
            let now = after.piece_at(to).and_then(|p| p.seat);
            let att_dead =
                now != Some(a_seat) || after.piece_at(from).is_some_and(|p| p.seat != Some(a_seat));
            let def_dead = now != Some(d_seat);
            if att_dead {
                self.dead[a_seat as usize].push(att.role);
            }
            if def_dead {
                self.dead[d_seat as usize].push(def.role);
            }
        }
    }

    fn say(&mut self, s: &str) -> io::Result<()> {
        writeln!(self.out, "{s}")
    }

    /// Apply an action of the seat to move, tell every bot, and print the announcements.
    fn step(&mut self, action: Action) -> Result<()> {
        let before = self.obs();
        let mut events = Vec::new();
        self.pos
            .play(action, &mut events)
            .map_err(|e| anyhow!("{e}"))?;
        self.after_step(&before, &events)
    }

    fn after_step(&mut self, before: &Observation, events: &[Event]) -> Result<()> {
        self.note_dead(before, events);
        for (s, b) in self.bots.iter_mut().enumerate() {
            if let Some(b) = b {
                b.observe(events, &self.pos.observe(Observer::Seat(s as Seat)));
            }
        }
        for e in events {
            let w = self.event_words(e);
            self.say(&format!("  * {w}"))?;
        }
        Ok(())
    }

    fn resign(&mut self, seat: Seat) -> Result<()> {
        let before = self.obs();
        let mut events = Vec::new();
        self.pos
            .resign(seat, &mut events)
            .map_err(|e| anyhow!("{e}"))?;
        if self.rules.board == BoardKind::FourPlayer && !self.pos.is_over() {
            // The person's side gives up together (the partner is a bot).
            let p = junqi_core::types::partner(seat);
            if !self.pos.is_eliminated(p) {
                self.pos
                    .resign(p, &mut events)
                    .map_err(|e| anyhow!("{e}"))?;
            }
        }
        self.after_step(&before, &events)
    }

    /// The dead-piece list (阵亡).
    fn dead_list(&self) -> String {
        let l = self.lang;
        let mut s = String::new();
        let mine = self.my_owner();
        for (owner, list) in self.dead.iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            let who = if self.rules.is_flip() {
                let tag = if Some(owner as Seat) == mine {
                    l.t("（你）", " (you)")
                } else {
                    ""
                };
                format!("{} {owner}{tag}", l.t("颜色", "colour"))
            } else {
                self.name(owner as Seat)
            };
            let mut parts = Vec::new();
            for role in Role::ALL {
                let n = list.iter().filter(|r| **r == Some(role)).count();
                if n > 0 {
                    parts.push(format!("{}×{n}", role_word(role, l)));
                }
            }
            let unknown = list.iter().filter(|r| r.is_none()).count();
            if unknown > 0 {
                parts.push(format!("{}×{unknown}", l.t("未知", "unknown")));
            }
            s += &format!("{} {who}: {}\n", l.t("阵亡", "Dead"), parts.join(" "));
        }
        if s.is_empty() {
            s = format!("{} {}\n", l.t("阵亡", "Dead"), l.t("无", "none"));
        }
        s
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
}

/// Draw the board as `obs` shows it. `marks` are highlighted squares (legal destinations),
/// `selected` the chosen piece. `flip_view` turns a two-player board round for North.
fn render(
    obs: &Observation,
    lang: Lang,
    me: Seat,
    selected: Option<Square>,
    marks: &[Square],
) -> String {
    let topo = obs.topology();
    let board = obs.rules.board;
    let (mut max_f, mut max_r) = (0u8, 0u8);
    for sq in topo.squares() {
        let (f, r) = topo.coords(sq);
        max_f = max_f.max(f);
        max_r = max_r.max(r);
    }
    let turn = board == BoardKind::TwoPlayer && me == 1;
    let files: Vec<u8> = if turn {
        (0..=max_f).rev().collect()
    } else {
        (0..=max_f).collect()
    };
    let ranks: Vec<u8> = if turn {
        (1..=max_r).collect()
    } else {
        (1..=max_r).rev().collect()
    };
    let at = |f: u8, r: u8| topo.at(f, r);
    let my_colour = if obs.rules.is_flip() {
        obs.flip_colours.map(|c| c[me as usize])
    } else {
        Some(me)
    };
    let tile = |sq: Square| -> String {
        let kind = topo.kind(sq);
        let marked = marks.contains(&sq);
        match obs.piece_at(sq) {
            None => {
                let (l, r) = match kind {
                    SquareKind::Camp => ('(', ')'),
                    SquareKind::Headquarters => ('[', ']'),
                    SquareKind::Station => (' ', ' '),
                };
                let mid = if marked {
                    " * "
                } else if kind == SquareKind::Station {
                    " · "
                } else {
                    "   "
                };
                format!("{l}{mid}{r}")
            }
            Some(p) => {
                let tag = if marked {
                    '*'
                } else if selected == Some(sq) {
                    '>'
                } else if obs.rules.is_flip() {
                    if p.face_down {
                        ' '
                    } else if my_colour.is_some() && p.seat == my_colour {
                        '+'
                    } else {
                        '-'
                    }
                } else {
                    p.seat.map_or(' ', |s| seat_letter(board, s))
                };
                let body = if p.face_down {
                    "####".to_string()
                } else {
                    match p.role {
                        Some(r) => role_tile(r, lang).to_string(),
                        None => " ?? ".to_string(),
                    }
                };
                format!("{tag}{body}")
            }
        }
    };
    let rail = |a: Option<Square>, b: Option<Square>| match (a, b) {
        (Some(a), Some(b)) if topo.rail_adjacent(a, b) => 2,
        (Some(a), Some(b)) if topo.adjacent(a, b) => 1,
        _ => 0,
    };
    let mut out = String::new();
    let header = |out: &mut String| {
        out.push_str("    ");
        for &f in &files {
            out.push_str(&format!("  {}   ", (b'a' + f) as char));
        }
        out.push('\n');
    };
    header(&mut out);
    for (ri, &r) in ranks.iter().enumerate() {
        // The rank's squares and the links between neighbouring files.
        out.push_str(&format!("{r:>3} "));
        for (fi, &f) in files.iter().enumerate() {
            match at(f, r) {
                Some(sq) => out.push_str(&tile(sq)),
                None => {
                    // A gap the rail crosses (the four-player centre).
                    let (l, rt) = (
                        fi.checked_sub(1).map(|i| files[i]),
                        files.get(fi + 1).copied(),
                    );
                    let h = match (l, rt) {
                        (Some(l), Some(rt)) => rail(at(l, r), at(rt, r)),
                        _ => 0,
                    };
                    let v = if r > 1 && r < max_r {
                        rail(at(f, r + 1), at(f, r - 1))
                    } else {
                        0
                    };
                    out.push_str(if h == 2 {
                        "═════"
                    } else if v == 2 {
                        "  ║  "
                    } else {
                        "     "
                    });
                }
            }
            if let Some(&g) = files.get(fi + 1) {
                let mut link = rail(at(f, r), at(g, r));
                if link == 0 && at(f, r).is_some() != at(g, r).is_some() {
                    // Next to a gap the rail crosses.
                    let gap = if at(f, r).is_none() { f } else { g };
                    let (a, b) = (gap.checked_sub(1), gap.checked_add(1));
                    if let (Some(a), Some(b)) = (a, b) {
                        if rail(at(a, r), at(b, r)) == 2 {
                            link = 2;
                        }
                    }
                }
                out.push(match link {
                    2 => '═',
                    1 => '─',
                    _ => ' ',
                });
            }
        }
        out.push_str(&format!(" {r}\n"));
        // Links to the next rank down the screen.
        let Some(&next) = ranks.get(ri + 1) else {
            continue;
        };
        out.push_str("    ");
        let mut any = false;
        for (fi, &f) in files.iter().enumerate() {
            let mut v = rail(at(f, r), at(f, next));
            if v == 0 && (at(f, r).is_none() || at(f, next).is_none()) {
                // Through a gap: g7–g9 on the four-player board.
                let (a, b) = if r > next {
                    (r + 1, next)
                } else {
                    (r, next + 1)
                };
                let (a2, b2) = if r > next {
                    (r, next.wrapping_sub(1))
                } else {
                    (r.wrapping_sub(1), next)
                };
                if rail(at(f, a), at(f, b)) == 2 || rail(at(f, a2), at(f, b2)) == 2 {
                    v = 2;
                }
            }
            any |= v > 0;
            out.push_str(match v {
                2 => "  ║  ",
                1 => "  │  ",
                _ => "     ",
            });
            if let Some(&g) = files.get(fi + 1) {
                let d1 = at(f, r)
                    .zip(at(g, next))
                    .is_some_and(|(a, b)| topo.adjacent(a, b));
                let d2 = at(g, r)
                    .zip(at(f, next))
                    .is_some_and(|(a, b)| topo.adjacent(a, b));
                out.push(match (d1, d2) {
                    (true, true) => '╳',
                    (true, false) => '╲',
                    (false, true) => '╱',
                    _ => ' ',
                });
            }
        }
        if board == BoardKind::TwoPlayer && r.min(next) == 6 {
            out.push_str(lang.t("  山界", "  mountain"));
        } else if !any {
            // Nothing joins these ranks.
        }
        out.push('\n');
    }
    header(&mut out);
    out
}

fn help(lang: Lang) -> &'static str {
    lang.t(
        "命令: help 帮助 | board 棋盘 | <格> 或 moves <格> 列出该子可走的格 | <起>-<止> 走子 (如 a6-a7) | flip <格> 翻棋 | dead 阵亡 | resign 投降 | quit 退出\n\
         棋盘: 字母 S/N/E/W 是棋子所属方; ?? 未知敌子; #### 未翻开的子; ( ) 行营; [ ] 大本营; ═ ║ 铁路; ─ │ ╲ ╱ 公路; * 可去之处",
        "commands: help | board | <square> or moves <square>: where that piece may go | <from>-<to> to move (e.g. a6-a7) | flip <square> | dead | resign | quit\n\
         board: S/N/E/W is a piece's seat; ?? a hidden enemy; #### face down; ( ) camp; [ ] headquarters; ═ ║ rail; ─ │ ╲ ╱ road; * a place to go",
    )
}

/// Run the command with stdin and stdout.
pub fn run(a: Args) -> Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match play(a, stdin.lock(), &mut out) {
        Err(e)
            if e.downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            Ok(())
        }
        r => r,
    }
}

/// Play a game reading the person's commands from `input`.
pub fn play(a: Args, input: impl BufRead, out: &mut dyn Write) -> Result<()> {
    let rules = a.rules.rules()?;
    let lang = match a.lang.as_str() {
        "zh" => Lang::Zh,
        "en" => Lang::En,
        other => bail!("--lang must be zh or en, got {other:?}"),
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
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
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
    let pos = if rules.is_flip() {
        if a.layout.is_some() {
            bail!("flip play has no deployment: --layout does not apply");
        }
        Position::deal(rules, 0, &mut rng).map_err(|e| anyhow!("{e}"))?
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
        Position::from_deployments(rules, &layouts, 0).map_err(|e| anyhow!("{e}"))?
    };
    let mut s = Session {
        rules,
        topo,
        me,
        lang,
        pos,
        bots,
        budget,
        dead: vec![Vec::new(); rules.seats()],
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
    s.say(help(l))?;
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
            let b = render(&obs, l, me, None, &[]);
            s.say("")?;
            s.say(&b)?;
            let d = s.dead_list();
            write!(s.out, "{d}")?;
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
            "help" | "?" | "h" => s.say(help(l))?,
            "board" | "b" => show_board = true,
            "dead" => {
                let d = s.dead_list();
                write!(s.out, "{d}")?;
            }
            "quit" | "exit" => {
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
                Ok(action) if obs.legal_actions.contains(&action) => {
                    s.step(action)?;
                    show_board = true;
                }
                Ok(action) => {
                    let t = action_to_text(topo, action);
                    s.say(&format!(
                        "{} {t} ({})",
                        l.t("不能这样走:", "not a legal action:"),
                        l.t(
                            "输入一个格名查看可走之处",
                            "type a square to list where its piece may go"
                        )
                    ))?
                }
            },
        }
    }
    let o = s.pos.outcome().expect("over");
    let words = s.outcome_words(o);
    s.say(&format!("\n{} {words}", l.t("对局结束：", "game over:")))?;
    // The game is over: the whole board may be shown (RULES §6).
    let full = render(&s.pos.observe(Observer::Referee), l, me, None, &[]);
    s.say(&full)?;
    let d = s.dead_list();
    write!(s.out, "{d}")?;
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
    let b = render(obs, l, s.me, Some(sq), &dests);
    s.say(&b)?;
    let names: Vec<String> = dests.iter().map(|&d| s.topo.name(d).to_string()).collect();
    let mut msg = format!("{square}: {}", names.join(" "));
    if flip {
        msg += &format!(" (flip {square})");
    }
    s.say(&msg)?;
    Ok(())
}
