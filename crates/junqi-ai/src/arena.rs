//! The arena: paired matches between two bots with honest statistics.
//!
//! Every deal is played once per team, the first bot (A) taking each team in turn and the second
//! (B) every other team: two-player and two teams (four- and six-player with teams) each deal
//! twice with the sides swapped; six-player `opposite` (three teams of two) three times, B
//! playing two teams; free-for-all (three-player, and `teams = none`) once per seat, A playing
//! that seat and B every other. Games run on as many threads as asked; results are stored by
//! game index, so a match is reproducible from its seed whatever the thread count.
//!
//! Scores come from placings (RULES §7.2): the winning team is first, the other teams follow in
//! reverse order of elimination, teams out in the same step (or still in at a draw) share their
//! placings (the average). A's placing p among n teams scores (n − p) / (n − 1): with two teams
//! a win 1, a draw ½, a loss 0.

use crate::bot::{Bot, BotError, Budget};
use junqi_core::json::outcome_to_json;
use junqi_core::{
    Action, Deployment, EliminationReason, Event, Observer, Outcome, Position, Rules, Seat,
    SeatSet, Team,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Makes a fresh bot for each game.
pub type BotFactory = Arc<dyn Fn() -> Box<dyn Bot> + Send + Sync>;

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The referee's outcome.
    pub outcome: Outcome,
    /// Plies played.
    pub plies: u32,
    /// A forfeit: the seat whose bot failed, and why.
    pub forfeit: Option<(Seat, String)>,
    /// Eliminations in order: the referee step (0 the first action, one per action; a forfeit's
    /// resignations count as one more) and the seat eliminated.
    pub eliminations: Vec<(u32, Seat)>,
}

impl GameResult {
    /// Each seat's placing (by seat; RULES §7.2): its team's place, 1 the winner, the others in
    /// reverse order of elimination; teams out in the same step, or still in when the game
    /// ended without a winner, share their places (the average of the places they span).
    pub fn placings(&self, rules: &Rules) -> Vec<f64> {
        let teams = rules.teams();
        let winners = match self.outcome {
            Outcome::Win { winners, .. } => winners,
            _ => SeatSet::EMPTY,
        };
        // Per team: None while in the game (or the winner), else the step its last seat left.
        let mut groups: Vec<(Option<u32>, Team)> = Vec::new();
        let mut first = 1.0;
        for t in teams.teams() {
            let members = teams.members(t);
            if !members.and(winners).is_empty() {
                first = 2.0;
                continue;
            }
            let out = members
                .iter()
                .map(|s| self.eliminations.iter().find(|e| e.1 == s).map(|e| e.0));
            let mut last = Some(0);
            for o in out {
                last = match (last, o) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
            }
            groups.push((last, t));
        }
        // Still in first (None), then the latest out.
        groups.sort_by(|a, b| match (a.0, b.0) {
            (None, None) => std::cmp::Ordering::Equal,
            (None, Some(_)) => std::cmp::Ordering::Less,
            (Some(_), None) => std::cmp::Ordering::Greater,
            (Some(x), Some(y)) => y.cmp(&x),
        });
        let mut team_place = vec![1.0; teams.count()];
        let mut i = 0;
        while i < groups.len() {
            let mut j = i;
            while j < groups.len() && groups[j].0 == groups[i].0 {
                j += 1;
            }
            // Places first + i … first + j − 1, shared.
            let shared = first + (i + j - 1) as f64 / 2.0;
            for g in &groups[i..j] {
                team_place[g.1.index()] = shared;
            }
            i = j;
        }
        (0..rules.seats() as Seat)
            .map(|s| team_place[teams.team_of(s).index()])
            .collect()
    }
}

/// The score of a placing among `teams` teams: (teams − placing) / (teams − 1), 1 for first,
/// 0 for last (two teams: a win 1, a draw ½, a loss 0).
pub fn placing_score(placing: f64, teams: usize) -> f64 {
    let n = teams.max(2) as f64;
    (n - placing) / (n - 1.0)
}

/// Play one game between `bots` (one per seat) under `rules`.
pub fn play_game(rules: Rules, bots: &mut [Box<dyn Bot>], seed: u64, budget: Budget) -> GameResult {
    play_game_watched(rules, bots, seed, budget, &mut |_, _, _| {})
}

/// [`play_game`], calling `watch` after each action with the position it left, the seat that
/// acted and the referee's events (diagnostic tools replay arena games through this).
pub fn play_game_watched(
    rules: Rules,
    bots: &mut [Box<dyn Bot>],
    seed: u64,
    budget: Budget,
    watch: &mut dyn FnMut(&Position, Seat, &[Event]),
) -> GameResult {
    let seats = rules.seats();
    assert_eq!(bots.len(), seats, "one bot per seat");
    let mut eliminations: Vec<(u32, Seat)> = Vec::new();
    let mut step = 0u32;
    for (s, b) in bots.iter_mut().enumerate() {
        b.new_game(
            &rules,
            s as Seat,
            seed.wrapping_mul(31).wrapping_add(s as u64 + 1),
        );
    }
    let forfeit = |pos: &mut Position,
                   seat: Seat,
                   why: String,
                   mut eliminations: Vec<(u32, Seat)>,
                   step: u32|
     -> GameResult {
        // A failing bot loses: it resigns, and so do its teammates (its whole team is out).
        let mut ev = Vec::new();
        for s in rules.teams().mates(seat).iter() {
            if !pos.is_over() && !pos.is_eliminated(s) {
                let _ = pos.resign(s, &mut ev);
            }
        }
        note_eliminations(&mut eliminations, step, &ev);
        GameResult {
            outcome: pos.outcome().unwrap_or(Outcome::Aborted),
            plies: pos.plies(),
            forfeit: Some((seat, why)),
            eliminations,
        }
    };
    let mut pos = if rules.is_flip() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Position::deal(rules, 0, &mut rng).expect("flip rules")
    } else {
        let mut layouts: Vec<Deployment> = Vec::with_capacity(seats);
        for (s, b) in bots.iter_mut().enumerate() {
            match b.deploy() {
                Ok(d) => match d.validate(rules.board, s as Seat) {
                    Ok(()) => layouts.push(d),
                    Err(e) => {
                        let mut p = placeholder(rules, seed);
                        let why = format!("illegal deployment: {e}");
                        return forfeit(&mut p, s as Seat, why, eliminations, step);
                    }
                },
                Err(BotError(e)) => {
                    let mut p = placeholder(rules, seed);
                    let why = format!("no deployment: {e}");
                    return forfeit(&mut p, s as Seat, why, eliminations, step);
                }
            }
        }
        Position::from_deployments(rules, &layouts, 0).expect("validated")
    };
    let mut events: Vec<Event> = Vec::new();
    for (s, b) in bots.iter_mut().enumerate() {
        b.observe(&[], &pos.observe(Observer::Seat(s as Seat)));
    }
    while !pos.is_over() {
        let seat = pos.to_move();
        let obs = pos.observe(Observer::Seat(seat));
        let action: Action = match bots[seat as usize].choose(&obs, budget) {
            Ok(a) => a,
            Err(BotError(e)) => return forfeit(&mut pos, seat, e, eliminations, step),
        };
        events.clear();
        if let Err(e) = pos.play(action, &mut events) {
            let text = junqi_core::notation::action_to_text(pos.topology(), action);
            let why = format!("illegal action {text}: {e}");
            return forfeit(&mut pos, seat, why, eliminations, step);
        }
        note_eliminations(&mut eliminations, step, &events);
        step += 1;
        for (s, b) in bots.iter_mut().enumerate() {
            b.observe(&events, &pos.observe(Observer::Seat(s as Seat)));
        }
        watch(&pos, seat, &events);
    }
    GameResult {
        outcome: pos.outcome().expect("over"),
        plies: pos.plies(),
        forfeit: None,
        eliminations,
    }
}

/// Add the seats eliminated by one step's `events` to `out`, with the step's number.
fn note_eliminations(out: &mut Vec<(u32, Seat)>, step: u32, events: &[Event]) {
    for e in events {
        if let Event::Eliminated { seat, .. } = *e {
            out.push((step, seat));
        }
    }
}

/// A position to resign in when a bot fails before play starts.
fn placeholder(rules: Rules, seed: u64) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Position::random_start(rules, &mut rng)
}

/// A match's settings.
#[derive(Clone, Copy, Debug)]
pub struct MatchConfig {
    /// The rules of every game.
    pub rules: Rules,
    /// Number of games (rounded up to a multiple of [`deal_games`]: each deal once per team).
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Each bot's budget per decision.
    pub budget: Budget,
    /// Worker threads.
    pub threads: usize,
}

/// One game of a match, from the first bot's side.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Game index.
    pub index: u64,
    /// Whether the first bot played seat 0 (two teams: the first bot took team 0).
    pub first_bot_south: bool,
    /// The seats of the first bot and of the second ([`match_seats`]).
    pub seats: [Vec<Seat>; 2],
    /// The result.
    pub result: GameResult,
    /// Each seat's placing ([`match_placings`]).
    pub placings: Vec<f64>,
    /// The first bot's placing (1 = won).
    pub placing: f64,
    /// The first bot's score ([`placing_score`] of its placing): two teams 1, ½ or 0.
    pub score: f64,
}

/// A match's statistics, from the first bot's side.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Bot names.
    pub names: [String; 2],
    /// The teams of every game (their seats), in team order.
    pub teams: Vec<Vec<Seat>>,
    /// Games played.
    pub games: u64,
    /// Wins of the first bot (its team won).
    pub wins: u64,
    /// Games nobody won (draws and aborted games).
    pub draws: u64,
    /// Losses of the first bot (another team won, or the first bot forfeited).
    pub losses: u64,
    /// Score fraction (the mean of the per-game scores).
    pub score: f64,
    /// Wilson 95% interval of the score.
    pub ci_low: f64,
    /// Wilson 95% interval of the score.
    pub ci_high: f64,
    /// Elo difference (first minus second) and its 95% interval.
    pub elo: f64,
    /// Lower end of the Elo interval.
    pub elo_low: f64,
    /// Upper end of the Elo interval.
    pub elo_high: f64,
    /// The first bot's average placing (1 = first).
    pub avg_placing: f64,
    /// The second bot's average placing (over all the teams it played).
    pub second_avg_placing: f64,
    /// Average plies per game.
    pub avg_plies: f64,
    /// Results by reason (`flag_captured`, `quiet_plies`, …; forfeits as `forfeit`).
    pub reasons: BTreeMap<String, u64>,
    /// Forfeits: game index, seat, why.
    pub forfeits: Vec<(u64, Seat, String)>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Every game.
    pub per_game: Vec<MatchGame>,
}

/// How many games of a match share one deal under `rules`: one per team, so that the first bot
/// plays every team's seats on the same deal (two-player and two teams: 2; six-player
/// `opposite`: 3; free-for-all: one per seat).
pub fn deal_games(rules: &Rules) -> u64 {
    rules.teams().count() as u64
}

/// The seed of game `index` of a match with master seed `master`: the games of one deal (the
/// first bot on each team in turn, [`deal_games`]) share it, so `trace` tools can replay any
/// game of a match.
pub fn game_seed(rules: &Rules, master: u64, index: u64) -> u64 {
    master
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index / deal_games(rules))
}

/// Play game `index` of a match with master seed `master` between `a` and `b`, as
/// [`run_match`] plays it ([`match_seats`]; the deal's seed), calling `watch` after each
/// action as [`play_game_watched`] does. Diagnostic tools replay a match's games through this.
pub fn play_match_game(
    rules: Rules,
    master: u64,
    index: u64,
    (a, b): (&BotFactory, &BotFactory),
    budget: Budget,
    watch: &mut dyn FnMut(&Position, Seat, &[Event]),
) -> GameResult {
    let [first, _] = match_seats(&rules, index);
    let mut bots: Vec<Box<dyn Bot>> = (0..rules.seats() as Seat)
        .map(|s| if first.contains(&s) { a() } else { b() })
        .collect();
    let seed = game_seed(&rules, master, index);
    play_game_watched(rules, &mut bots, seed, budget, watch)
}

/// The seats of the first bot and of the second in game `index` of a match under `rules`: the
/// first bot takes team `index mod teams` (two-player: seat 0 on even games, seat 1 on odd ones;
/// four-player with teams: seats 0 and 2, then 1 and 3; free-for-all: seat `index mod seats`),
/// the second bot every other seat.
pub fn match_seats(rules: &Rules, index: u64) -> [Vec<Seat>; 2] {
    let teams = rules.teams();
    let first = Team((index % teams.count() as u64) as u8);
    let (a, b): (Vec<Seat>, Vec<Seat>) =
        (0..rules.seats() as Seat).partition(|&s| teams.team_of(s) == first);
    [a, b]
}

/// Which bot of a match won a game with `outcome`, the bots having `seats` ([`match_seats`]):
/// `Some(0)` the first, `Some(1)` the second, `None` a draw or an aborted game.
pub fn match_winner(outcome: &Outcome, seats: &[Vec<Seat>; 2]) -> Option<usize> {
    let won = outcome.winners();
    seats
        .iter()
        .position(|mine| mine.iter().any(|s| won.contains(s)))
}

/// The first bot's score in game `index` of a match under `rules` that ended with `result`
/// ([`placing_score`] of its placing, [`match_placings`]): two teams 1 a win, ½ a draw, 0 a loss.
pub fn first_bot_score(rules: &Rules, result: &GameResult, index: u64) -> f64 {
    let seats = match_seats(rules, index);
    let placings = match_placings(rules, result, &seats);
    placing_score(placings[seats[0][0] as usize], rules.teams().count())
}

/// Each seat's placing in a match game ([`GameResult::placings`]), except that a forfeit places
/// the failing bot last: if the first bot failed its team is last and the other teams share the
/// places above; if the second bot failed the first bot's team is first and the others share
/// the places below.
pub fn match_placings(rules: &Rules, result: &GameResult, seats: &[Vec<Seat>; 2]) -> Vec<f64> {
    let Some((failed, _)) = result.forfeit else {
        return result.placings(rules);
    };
    let n = rules.teams().count() as f64;
    let first_failed = seats[0].contains(&failed);
    let (mine, others) = if first_failed {
        (n, n / 2.0)
    } else {
        (1.0, (2.0 + n) / 2.0)
    };
    (0..rules.seats() as Seat)
        .map(|s| if seats[0].contains(&s) { mine } else { others })
        .collect()
}

/// Play a paired match between `a` and `b`.
pub fn run_match(cfg: MatchConfig, a: BotFactory, b: BotFactory) -> MatchReport {
    let per_deal = deal_games(&cfg.rules);
    let games = cfg.games.div_ceil(per_deal) * per_deal;
    let next = AtomicU64::new(0);
    let results: Mutex<Vec<Option<MatchGame>>> = Mutex::new(vec![None; games as usize]);
    let start = std::time::Instant::now();
    let names = [a().name(), b().name()];
    let n_teams = cfg.rules.teams().count();
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let result = play_match_game(
                    cfg.rules,
                    cfg.seed,
                    i,
                    (&a, &b),
                    cfg.budget,
                    &mut |_, _, _| {},
                );
                let seats = match_seats(&cfg.rules, i);
                let placings = match_placings(&cfg.rules, &result, &seats);
                let placing = placings[seats[0][0] as usize];
                results.lock().expect("results")[i as usize] = Some(MatchGame {
                    index: i,
                    first_bot_south: seats[0].contains(&0),
                    seats,
                    result,
                    placings,
                    placing,
                    score: placing_score(placing, n_teams),
                });
            });
        }
    });
    let per_game: Vec<MatchGame> = results
        .into_inner()
        .expect("results")
        .into_iter()
        .map(|g| g.expect("played"))
        .collect();
    report(&cfg.rules, names, per_game, start.elapsed().as_secs_f64())
}

fn reason_name(g: &GameResult) -> String {
    if g.forfeit.is_some() {
        return "forfeit".into();
    }
    match g.outcome {
        Outcome::Win { reason, .. } => reason.name().into(),
        Outcome::Draw { reason } => format!("draw_{}", reason.name()),
        Outcome::Aborted => "aborted".into(),
    }
}

/// Wilson score interval (95%) for a proportion `p` observed over `n` trials.
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo difference for a score fraction (clamped to ±1000 at 0 and 1).
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        -1000.0
    } else if score >= 1.0 {
        1000.0
    } else {
        (-400.0 * (1.0 / score - 1.0).log10()).clamp(-1000.0, 1000.0)
    }
}

/// The scoring rule of a match with `teams` teams, in words (the report's `score_rule`).
pub fn score_rule(teams: usize) -> String {
    if teams <= 2 {
        "the first bot (A): win 1, draw 0.5, loss 0".into()
    } else {
        format!(
            "the first bot (A) by its placing p among {teams} teams: ({teams} - p) / {}, \
             first 1, last 0; shared placings (teams out in the same step, or still in at a \
             draw) are averaged; a forfeit places the failing bot last",
            teams - 1
        )
    }
}

impl MatchGame {
    /// Whether the first bot won (0), lost (1: another team won, or it forfeited) or neither.
    fn class(&self) -> Option<usize> {
        if let Some((s, _)) = &self.result.forfeit {
            return Some(usize::from(self.seats[0].contains(s)));
        }
        match self.winner() {
            Some(0) => Some(0),
            Some(_) => Some(1),
            None => None,
        }
    }

    /// The second bot's average placing in this game (over its teams).
    fn second_placing(&self, rules: &Rules) -> f64 {
        let teams = rules.teams();
        let mut seen = Vec::new();
        for &s in &self.seats[1] {
            let t = teams.team_of(s);
            if !seen.contains(&t) {
                seen.push(t);
            }
        }
        let total: f64 = seen
            .iter()
            .map(|t| self.placings[teams.members(*t).iter().next().unwrap_or(0) as usize])
            .sum();
        total / seen.len().max(1) as f64
    }
}

fn report(
    rules: &Rules,
    names: [String; 2],
    per_game: Vec<MatchGame>,
    seconds: f64,
) -> MatchReport {
    let n = per_game.len() as u64;
    let wins = per_game.iter().filter(|g| g.class() == Some(0)).count() as u64;
    let losses = per_game.iter().filter(|g| g.class() == Some(1)).count() as u64;
    let draws = n - wins - losses;
    let mean = |f: &dyn Fn(&MatchGame) -> f64, empty: f64| {
        if n == 0 {
            empty
        } else {
            per_game.iter().map(f).sum::<f64>() / n as f64
        }
    };
    let score = mean(&|g| g.score, 0.5);
    let avg_placing = mean(&|g| g.placing, 0.0);
    let second_avg_placing = mean(&|g| g.second_placing(rules), 0.0);
    let (ci_low, ci_high) = wilson(score, n as f64);
    let mut reasons = BTreeMap::new();
    let mut forfeits = Vec::new();
    for g in &per_game {
        *reasons.entry(reason_name(&g.result)).or_insert(0) += 1;
        if let Some((s, why)) = &g.result.forfeit {
            forfeits.push((g.index, *s, why.clone()));
        }
    }
    let avg_plies = per_game.iter().map(|g| g.result.plies as f64).sum::<f64>() / n.max(1) as f64;
    let t = rules.teams();
    MatchReport {
        names,
        teams: t.teams().map(|x| t.members(x).iter().collect()).collect(),
        games: n,
        wins,
        draws,
        losses,
        score,
        ci_low,
        ci_high,
        elo: elo(score),
        elo_low: elo(ci_low),
        elo_high: elo(ci_high),
        avg_placing,
        second_avg_placing,
        avg_plies,
        reasons,
        forfeits,
        seconds,
        per_game,
    }
}

impl MatchGame {
    /// Which bot won: `Some(0)` the first, `Some(1)` the second, `None` a draw or an aborted
    /// game ([`match_winner`]).
    pub fn winner(&self) -> Option<usize> {
        match_winner(&self.result.outcome, &self.seats)
    }

    /// The bot (0 the first, 1 the second) that plays `seat`.
    pub fn bot_of(&self, seat: Seat) -> usize {
        usize::from(!self.seats[0].contains(&seat))
    }
}

/// One bot's totals in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotTotals {
    /// Games the bot won.
    pub wins: u64,
    /// Games drawn (and aborted).
    pub draws: u64,
    /// Games the bot lost.
    pub losses: u64,
}

impl MatchReport {
    /// The totals of the first bot (`0`) or of the second (`1`).
    pub fn totals(&self, bot: usize) -> BotTotals {
        let (wins, losses) = if bot == 0 {
            (self.wins, self.losses)
        } else {
            (self.losses, self.wins)
        };
        BotTotals {
            wins,
            draws: self.draws,
            losses,
        }
    }

    /// The first bot's share of games won.
    pub fn win_rate(&self) -> f64 {
        self.wins as f64 / self.games.max(1) as f64
    }

    /// The report as one JSON object (documented in `docs/engine-protocol.md`, "The arena
    /// report"): the first bot's statistics, and per game and per bot who played which seats,
    /// who won and who placed where.
    pub fn to_json(&self) -> Value {
        let name = |b: usize| self.names[b].as_str();
        let per_game: Vec<Value> = self
            .per_game
            .iter()
            .map(|g| {
                let seats = g.seats[0].len() + g.seats[1].len();
                let winner = g.winner();
                json!({
                    "game": g.index,
                    "seats": g.seats,
                    "seat_bots": (0..seats as Seat).map(|s| name(g.bot_of(s))).collect::<Vec<_>>(),
                    "outcome": outcome_to_json(Some(g.result.outcome)),
                    "winner": winner.map(name),
                    "winner_index": winner,
                    "placings": g.placings,
                    "placing": g.placing,
                    "score": g.score,
                    "plies": g.result.plies,
                    "reason": reason_name(&g.result),
                    "forfeit": g.result.forfeit.as_ref().map(|(s, why)| {
                        json!({"seat": s, "bot": name(g.bot_of(*s)), "why": why})
                    }),
                })
            })
            .collect();
        let per_bot: Vec<Value> = (0..2)
            .map(|b| {
                let t = self.totals(b);
                let score = if b == 0 { self.score } else { 1.0 - self.score };
                let placing = if b == 0 {
                    self.avg_placing
                } else {
                    self.second_avg_placing
                };
                json!({"bot": name(b), "index": b, "wins": t.wins, "draws": t.draws,
                       "losses": t.losses, "score": score, "avg_placing": placing})
            })
            .collect();
        let forfeits: Vec<Value> = self
            .forfeits
            .iter()
            .map(|(i, s, w)| {
                let bot = self
                    .per_game
                    .iter()
                    .find(|g| g.index == *i)
                    .map(|g| name(g.bot_of(*s)));
                json!({"game": i, "seat": s, "bot": bot, "why": w})
            })
            .collect();
        json!({
            "bots": self.names,
            "teams": self.teams,
            "score_rule": score_rule(self.teams.len()),
            "games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "win_rate": self.win_rate(),
            "score": self.score, "ci_low": self.ci_low, "ci_high": self.ci_high,
            "elo": self.elo, "elo_low": self.elo_low, "elo_high": self.elo_high,
            "avg_placing": self.avg_placing,
            "avg_plies": self.avg_plies, "results": self.reasons,
            "forfeits": forfeits,
            "seconds": self.seconds,
            "per_game": per_game,
            "per_bot": per_bot,
        })
    }

    /// The report as text for a terminal.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{} vs {}: {} games\n  +{} ={} -{}  score {:.3}  (95% CI {:.3}–{:.3})\n  Elo {:+.0} (95% CI {:+.0} to {:+.0})\n  average plies {:.1}, {:.1} s\n",
            self.names[0], self.names[1], self.games, self.wins, self.draws, self.losses, self.score,
            // `+ 0.0` turns -0 into 0 so that an even match does not print "Elo -0".
            self.ci_low, self.ci_high, self.elo.round() + 0.0, self.elo_low.round() + 0.0, self.elo_high.round() + 0.0, self.avg_plies, self.seconds
        );
        if self.teams.len() > 2 {
            s += &format!(
                "  {} teams: {} won {:.1}% of games, average placing {:.2} ({} {:.2})\n  score: {}\n",
                self.teams.len(),
                self.names[0],
                100.0 * self.win_rate(),
                self.avg_placing,
                self.names[1],
                self.second_avg_placing,
                score_rule(self.teams.len())
            );
        }
        for (k, v) in &self.reasons {
            s += &format!("  {k:<20} {v}\n");
        }
        for (i, seat, why) in &self.forfeits {
            s += &format!("  forfeit in game {i}: seat {seat}: {why}\n");
        }
        s
    }
}

/// Elimination reasons, for callers that tabulate them.
pub fn reason_label(r: EliminationReason) -> &'static str {
    r.name()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::RandomBot;
    use junqi_core::{BoardKind, Mode, SeatSet};

    #[test]
    fn wilson_and_elo() {
        let (lo, hi) = wilson(0.5, 100.0);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.1);
    }

    fn rules(board: BoardKind) -> Rules {
        Rules::defaults(board, Mode::Dark).unwrap()
    }

    #[test]
    fn match_seats_and_winners() {
        let two = rules(BoardKind::TwoPlayer);
        let four = rules(BoardKind::FourPlayer);
        assert_eq!(match_seats(&two, 0), [vec![0], vec![1]]);
        assert_eq!(match_seats(&two, 3), [vec![1], vec![0]]);
        assert_eq!(match_seats(&four, 2), [vec![0, 2], vec![1, 3]]);
        assert_eq!(match_seats(&four, 1), [vec![1, 3], vec![0, 2]]);
        let win = |winners| Outcome::Win {
            winners,
            reason: EliminationReason::FlagCaptured,
        };
        let odd = match_seats(&four, 1);
        assert_eq!(match_winner(&win(SeatSet(0b1010)), &odd), Some(0));
        assert_eq!(match_winner(&win(SeatSet(0b0101)), &odd), Some(1));
        assert_eq!(match_winner(&Outcome::Aborted, &odd), None);
        let result = |outcome| GameResult {
            outcome,
            plies: 10,
            forfeit: None,
            eliminations: Vec::new(),
        };
        for index in 0..4 {
            let seats = match_seats(&two, index);
            for (o, score) in [(win(SeatSet(0b01)), 1.0), (win(SeatSet(0b10)), 0.0)] {
                let first_won = seats[0] == [0];
                let expect = if first_won { score } else { 1.0 - score };
                assert_eq!(first_bot_score(&two, &result(o), index), expect);
                let w = match_winner(&o, &seats);
                assert_eq!(w == Some(0), expect == 1.0, "game {index}");
            }
            let draw = Outcome::Draw {
                reason: junqi_core::DrawReason::QuietPlies,
            };
            assert_eq!(first_bot_score(&two, &result(draw), index), 0.5);
        }
        // Two-player and two teams: the deal's seed is shared by pairs, as it always was.
        assert_eq!(deal_games(&two), 2);
        assert_eq!(deal_games(&four), 2);
        assert_eq!(game_seed(&two, 5, 0), game_seed(&two, 5, 1));
        assert_ne!(game_seed(&two, 5, 1), game_seed(&two, 5, 2));
    }

    #[test]
    fn free_for_all_rotates_the_first_bot_over_every_seat_of_a_deal() {
        let three = rules(BoardKind::ThreePlayer);
        assert_eq!(deal_games(&three), 3);
        for i in 0..6u64 {
            let s = (i % 3) as Seat;
            let others: Vec<Seat> = (0..3).filter(|&x| x != s).collect();
            assert_eq!(match_seats(&three, i), [vec![s], others]);
        }
        assert_eq!(game_seed(&three, 9, 0), game_seed(&three, 9, 2));
        assert_ne!(game_seed(&three, 9, 2), game_seed(&three, 9, 3));
        let mut ffa = rules(BoardKind::SixPlayer);
        ffa.options.teams = junqi_core::Teams::None;
        assert_eq!(deal_games(&ffa), 6);
        assert_eq!(match_seats(&ffa, 10), [vec![4], vec![0, 1, 2, 3, 5]]);
        // Six-player teams: alternate two teams of three, opposite three teams of two (the
        // second bot then plays two teams).
        let six = rules(BoardKind::SixPlayer);
        assert_eq!(deal_games(&six), 2);
        assert_eq!(match_seats(&six, 1), [vec![1, 3, 5], vec![0, 2, 4]]);
        let mut opp = six;
        opp.options.teams = junqi_core::Teams::Opposite;
        assert_eq!(deal_games(&opp), 3);
        assert_eq!(match_seats(&opp, 2), [vec![2, 5], vec![0, 1, 3, 4]]);
        assert_eq!(match_seats(&opp, 4), [vec![1, 4], vec![0, 2, 3, 5]]);
    }

    #[test]
    fn placings_follow_the_order_of_elimination() {
        let three = rules(BoardKind::ThreePlayer);
        let won = |winners, eliminations| GameResult {
            outcome: Outcome::Win {
                winners,
                reason: EliminationReason::FlagCaptured,
            },
            plies: 100,
            forfeit: None,
            eliminations,
        };
        // Seat 1 out first, then seat 0: seat 2 won.
        let g = won(SeatSet::one(2), vec![(10, 1), (40, 0)]);
        assert_eq!(g.placings(&three), vec![2.0, 3.0, 1.0]);
        // Seat 2's first-bot score: won; seat 0: second of three (½); seat 1: last.
        for (index, score) in [(2, 1.0), (0, 0.5), (1, 0.0)] {
            assert_eq!(first_bot_score(&three, &g, index), score, "game {index}");
        }
        // Two seats out in the same step share second and third.
        let g = won(SeatSet::one(0), vec![(7, 1), (7, 2)]);
        assert_eq!(g.placings(&three), vec![1.0, 2.5, 2.5]);
        assert_eq!(first_bot_score(&three, &g, 1), 0.25);
        // A draw: the seats still in share the top places.
        let draw = GameResult {
            outcome: Outcome::Draw {
                reason: junqi_core::DrawReason::QuietPlies,
            },
            plies: 105,
            forfeit: None,
            eliminations: vec![(3, 2)],
        };
        assert_eq!(draw.placings(&three), vec![1.5, 1.5, 3.0]);
        assert_eq!(first_bot_score(&three, &draw, 0), 0.75);
        // Six-player teams: a team is out when its last seat is.
        let mut opp = rules(BoardKind::SixPlayer);
        opp.options.teams = junqi_core::Teams::Opposite;
        let g = won(SeatSet(0b010010), vec![(5, 0), (9, 2), (12, 5), (30, 3)]);
        assert_eq!(g.placings(&opp), vec![2.0, 1.0, 3.0, 2.0, 1.0, 3.0]);
        assert_eq!(first_bot_score(&opp, &g, 0), 0.5);
        assert_eq!(first_bot_score(&opp, &g, 1), 1.0);
        // A forfeit places the failing bot last (here the first bot, on seat 1 of game 1).
        let forfeit = GameResult {
            outcome: Outcome::Aborted,
            plies: 3,
            forfeit: Some((1, "crashed".into())),
            eliminations: vec![(2, 1)],
        };
        let seats = match_seats(&three, 1);
        assert_eq!(
            match_placings(&three, &forfeit, &seats),
            vec![1.5, 3.0, 1.5]
        );
        // ... or first when the second bot fails.
        let seats = match_seats(&three, 0);
        assert_eq!(
            match_placings(&three, &forfeit, &seats),
            vec![1.0, 2.5, 2.5]
        );
    }

    #[test]
    fn a_three_player_match_reports_placings() {
        let three = rules(BoardKind::ThreePlayer);
        let heuristic: BotFactory =
            Arc::new(|| Box::new(crate::HeuristicBot::default()) as Box<dyn Bot>);
        let random: BotFactory = Arc::new(|| Box::new(RandomBot::default()) as Box<dyn Bot>);
        let cfg = MatchConfig {
            rules: three,
            games: 4,
            seed: 5,
            budget: Budget::Iterations(1),
            threads: 2,
        };
        let r = run_match(cfg, heuristic, random);
        // Rounded up to whole deals: every seat of each deal once.
        assert_eq!(r.games, 6);
        assert!(r.forfeits.is_empty());
        let v = r.to_json();
        assert_eq!(v["teams"], json!([[0], [1], [2]]));
        assert!(v["score_rule"].as_str().unwrap().contains("placing"));
        let mut placing_sum = 0.0;
        for (i, g) in v["per_game"].as_array().unwrap().iter().enumerate() {
            let a = i % 3;
            assert_eq!(g["seats"][0], json!([a]));
            let placings: Vec<f64> = serde_json::from_value(g["placings"].clone()).unwrap();
            assert_eq!(placings.len(), 3);
            // Three places shared out: they sum to 1 + 2 + 3.
            assert!((placings.iter().sum::<f64>() - 6.0).abs() < 1e-9, "{g}");
            assert_eq!(g["placing"], placings[a]);
            let score = (3.0 - placings[a]) / 2.0;
            assert_eq!(g["score"].as_f64().unwrap(), score);
            placing_sum += placings[a];
            if g["winner_index"] == 0 {
                assert_eq!(placings[a], 1.0);
            }
        }
        assert!((v["avg_placing"].as_f64().unwrap() - placing_sum / 6.0).abs() < 1e-9);
        assert_eq!(
            v["win_rate"].as_f64().unwrap(),
            r.wins as f64 / r.games as f64
        );
        assert!(r.to_text().contains("average placing"));
    }

    #[test]
    fn the_json_report_says_who_won_each_game() {
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let heuristic: BotFactory =
            Arc::new(|| Box::new(crate::HeuristicBot::default()) as Box<dyn Bot>);
        let random: BotFactory = Arc::new(|| Box::new(RandomBot::default()) as Box<dyn Bot>);
        let cfg = MatchConfig {
            rules,
            games: 6,
            seed: 11,
            budget: Budget::Iterations(1),
            threads: 2,
        };
        let r = run_match(cfg, heuristic, random);
        let v = r.to_json();
        let games = v["per_game"].as_array().unwrap();
        assert_eq!(games.len(), 6);
        let mut wins = [0u64; 2];
        let mut draws = 0;
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g["game"], i as u64);
            let first_seat = if i % 2 == 0 { 0 } else { 1 };
            assert_eq!(g["seats"], json!([[first_seat], [1 - first_seat]]), "{g}");
            let mut by_seat = ["random", "random"];
            by_seat[first_seat] = "heuristic";
            assert_eq!(g["seat_bots"], json!(by_seat), "{g}");
            let outcome = &g["outcome"];
            assert_eq!(
                outcome,
                &outcome_to_json(Some(r.per_game[i].result.outcome))
            );
            match outcome["result"].as_str().unwrap() {
                "win" => {
                    let seat = outcome["winners"][0].as_u64().unwrap() as usize;
                    let w = g["winner_index"].as_u64().unwrap() as usize;
                    assert_eq!(w, usize::from(seat != first_seat), "{g}");
                    assert_eq!(g["winner"], by_seat[seat], "{g}");
                    assert_eq!(g["score"], if w == 0 { 1.0 } else { 0.0 });
                    wins[w] += 1;
                }
                _ => {
                    assert!(g["winner"].is_null() && g["winner_index"].is_null(), "{g}");
                    assert_eq!(g["score"], 0.5);
                    draws += 1;
                }
            }
            assert!(g["plies"].as_u64().unwrap() > 0);
            assert!(g["forfeit"].is_null());
            assert!(v["results"].get(g["reason"].as_str().unwrap()).is_some());
        }
        let totals = v["per_bot"].as_array().unwrap();
        for (b, t) in totals.iter().enumerate() {
            assert_eq!(t["bot"], ["heuristic", "random"][b]);
            assert_eq!(t["index"], b);
            assert_eq!(
                (&t["wins"], &t["draws"], &t["losses"]),
                (&json!(wins[b]), &json!(draws), &json!(wins[1 - b])),
                "{t}"
            );
        }
        assert!(wins[0] + wins[1] > 0, "some game was won: {v}");
        assert_eq!(totals[0]["score"], v["score"]);
        let second = totals[1]["score"].as_f64().unwrap();
        assert!((second - (1.0 - v["score"].as_f64().unwrap())).abs() < 1e-12);
        // The old fields are all still there.
        for k in [
            "bots", "games", "wins", "draws", "losses", "score", "results", "forfeits",
        ] {
            assert!(v.get(k).is_some(), "{k}");
        }
        assert_eq!(v["wins"], wins[0]);
    }

    #[test]
    fn random_vs_random_is_reproducible_across_thread_counts() {
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let f: BotFactory = Arc::new(|| Box::new(RandomBot::default()) as Box<dyn Bot>);
        let cfg = MatchConfig {
            rules,
            games: 10,
            seed: 3,
            budget: Budget::Iterations(1),
            threads: 1,
        };
        let one = run_match(cfg, f.clone(), f.clone());
        let two = run_match(MatchConfig { threads: 2, ..cfg }, f.clone(), f);
        assert_eq!(one.games, 10);
        let scores = |r: &MatchReport| {
            r.per_game
                .iter()
                .map(|g| (g.score, g.result.plies))
                .collect::<Vec<_>>()
        };
        assert_eq!(scores(&one), scores(&two));
        assert_eq!(one.wins + one.draws + one.losses, 10);
    }
}
