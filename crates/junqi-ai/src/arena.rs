//! The arena: paired matches between two bots with honest statistics.
//!
//! Each seed is played twice with the seats swapped (four-player: the teams swapped), on as many
//! threads as asked; results are stored by game index, so a match is reproducible from its seed
//! whatever the thread count.

use crate::bot::{Bot, BotError, Budget};
use junqi_core::json::outcome_to_json;
use junqi_core::{
    Action, BoardKind, Deployment, EliminationReason, Event, Observer, Outcome, Position, Rules,
    Seat,
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
    for (s, b) in bots.iter_mut().enumerate() {
        b.new_game(
            &rules,
            s as Seat,
            seed.wrapping_mul(31).wrapping_add(s as u64 + 1),
        );
    }
    let forfeit = |pos: &mut Position, seat: Seat, why: String| -> GameResult {
        // A failing bot loses: it resigns, and so do its teammates (its whole team is out).
        let mut ev = Vec::new();
        for s in rules.teams().mates(seat).iter() {
            if !pos.is_over() && !pos.is_eliminated(s) {
                let _ = pos.resign(s, &mut ev);
            }
        }
        GameResult {
            outcome: pos.outcome().unwrap_or(Outcome::Aborted),
            plies: pos.plies(),
            forfeit: Some((seat, why)),
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
                        return forfeit(&mut p, s as Seat, format!("illegal deployment: {e}"));
                    }
                },
                Err(BotError(e)) => {
                    let mut p = placeholder(rules, seed);
                    return forfeit(&mut p, s as Seat, format!("no deployment: {e}"));
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
            Err(BotError(e)) => return forfeit(&mut pos, seat, e),
        };
        events.clear();
        if let Err(e) = pos.play(action, &mut events) {
            let text = junqi_core::notation::action_to_text(pos.topology(), action);
            return forfeit(&mut pos, seat, format!("illegal action {text}: {e}"));
        }
        for (s, b) in bots.iter_mut().enumerate() {
            b.observe(&events, &pos.observe(Observer::Seat(s as Seat)));
        }
        watch(&pos, seat, &events);
    }
    GameResult {
        outcome: pos.outcome().expect("over"),
        plies: pos.plies(),
        forfeit: None,
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
    /// Number of games (rounded up to an even number: each seed twice, seats swapped).
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
    /// Whether the first bot played seat 0 (four-player: seats 0 and 2).
    pub first_bot_south: bool,
    /// The seats of the first bot and of the second ([`match_seats`]).
    pub seats: [Vec<Seat>; 2],
    /// The result.
    pub result: GameResult,
    /// 1, ½ or 0 for the first bot.
    pub score: f64,
}

/// A match's statistics, from the first bot's side.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Bot names.
    pub names: [String; 2],
    /// Games played.
    pub games: u64,
    /// Wins of the first bot.
    pub wins: u64,
    /// Draws (and aborted games).
    pub draws: u64,
    /// Losses of the first bot.
    pub losses: u64,
    /// Score fraction.
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

/// The seed of game `index` of a match with master seed `master`: both games of a pair (the
/// seats swapped) share it, so `trace` tools can replay any game of a match.
pub fn game_seed(master: u64, index: u64) -> u64 {
    master
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index / 2)
}

/// Play game `index` of a match with master seed `master` between `a` and `b`, as
/// [`run_match`] plays it (the first bot takes team 0, seats 0 and 2, on even games; the pair's
/// seed), calling `watch` after each action as [`play_game_watched`] does. Diagnostic tools
/// replay a match's games through this.
pub fn play_match_game(
    rules: Rules,
    master: u64,
    index: u64,
    (a, b): (&BotFactory, &BotFactory),
    budget: Budget,
    watch: &mut dyn FnMut(&Position, Seat, &[Event]),
) -> GameResult {
    let [first, _] = match_seats(rules.board, index);
    let mut bots: Vec<Box<dyn Bot>> = (0..rules.seats() as Seat)
        .map(|s| if first.contains(&s) { a() } else { b() })
        .collect();
    play_game_watched(rules, &mut bots, game_seed(master, index), budget, watch)
}

/// The seats of the first bot and of the second in game `index` of a match on `board`: the first
/// bot takes team 0 (seat 0; four-player, seats 0 and 2) on even games and team 1 on odd ones.
pub fn match_seats(board: BoardKind, index: u64) -> [Vec<Seat>; 2] {
    let first_team = (index % 2) as Seat;
    let team =
        |t: Seat| -> Vec<Seat> { (0..board.seats() as Seat).filter(|s| s % 2 == t).collect() };
    [team(first_team), team(1 - first_team)]
}

/// Which bot of a match won a game with `outcome`, the bots having `seats` ([`match_seats`]):
/// `Some(0)` the first, `Some(1)` the second, `None` a draw or an aborted game.
pub fn match_winner(outcome: &Outcome, seats: &[Vec<Seat>; 2]) -> Option<usize> {
    let won = outcome.winners();
    seats
        .iter()
        .position(|mine| mine.iter().any(|s| won.contains(s)))
}

/// The first bot's score in game `index` of a match (1 a win, ½ a draw, 0 a loss): it plays
/// team 0 on even games, team 1 on odd ones.
pub fn first_bot_score(outcome: &Outcome, index: u64) -> f64 {
    let first_team = index % 2;
    match outcome {
        Outcome::Win { winners, .. } => {
            if winners.contains(first_team as Seat) {
                1.0
            } else {
                0.0
            }
        }
        _ => 0.5,
    }
}

/// Play a paired match between `a` and `b`.
pub fn run_match(cfg: MatchConfig, a: BotFactory, b: BotFactory) -> MatchReport {
    let games = cfg.games + cfg.games % 2;
    let next = AtomicU64::new(0);
    let results: Mutex<Vec<Option<MatchGame>>> = Mutex::new(vec![None; games as usize]);
    let start = std::time::Instant::now();
    let names = [a().name(), b().name()];
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let first_bot_south = i.is_multiple_of(2);
                let result = play_match_game(
                    cfg.rules,
                    cfg.seed,
                    i,
                    (&a, &b),
                    cfg.budget,
                    &mut |_, _, _| {},
                );
                let score = first_bot_score(&result.outcome, i);
                results.lock().expect("results")[i as usize] = Some(MatchGame {
                    index: i,
                    first_bot_south,
                    seats: match_seats(cfg.rules.board, i),
                    result,
                    score,
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
    report(names, per_game, start.elapsed().as_secs_f64())
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

fn report(names: [String; 2], per_game: Vec<MatchGame>, seconds: f64) -> MatchReport {
    let n = per_game.len() as u64;
    let wins = per_game.iter().filter(|g| g.score == 1.0).count() as u64;
    let losses = per_game.iter().filter(|g| g.score == 0.0).count() as u64;
    let draws = n - wins - losses;
    let score = if n == 0 {
        0.5
    } else {
        (wins as f64 + draws as f64 / 2.0) / n as f64
    };
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
    MatchReport {
        names,
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

    /// The report as one JSON object (documented in `docs/engine-protocol.md`, "The arena
    /// report"): the first bot's statistics, and per game and per bot who played which seats
    /// and who won.
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
                let score = if self.games == 0 {
                    0.5
                } else {
                    (t.wins as f64 + t.draws as f64 / 2.0) / self.games as f64
                };
                json!({"bot": name(b), "index": b, "wins": t.wins, "draws": t.draws,
                       "losses": t.losses, "score": score})
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
            "games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "score": self.score, "ci_low": self.ci_low, "ci_high": self.ci_high,
            "elo": self.elo, "elo_low": self.elo_low, "elo_high": self.elo_high,
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
    use junqi_core::{Mode, SeatSet};

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

    #[test]
    fn match_seats_and_winners() {
        assert_eq!(match_seats(BoardKind::TwoPlayer, 0), [vec![0], vec![1]]);
        assert_eq!(match_seats(BoardKind::TwoPlayer, 3), [vec![1], vec![0]]);
        assert_eq!(
            match_seats(BoardKind::FourPlayer, 2),
            [vec![0, 2], vec![1, 3]]
        );
        assert_eq!(
            match_seats(BoardKind::FourPlayer, 1),
            [vec![1, 3], vec![0, 2]]
        );
        let win = |winners| Outcome::Win {
            winners,
            reason: EliminationReason::FlagCaptured,
        };
        let odd = match_seats(BoardKind::FourPlayer, 1);
        assert_eq!(match_winner(&win(SeatSet(0b1010)), &odd), Some(0));
        assert_eq!(match_winner(&win(SeatSet(0b0101)), &odd), Some(1));
        assert_eq!(match_winner(&Outcome::Aborted, &odd), None);
        for index in 0..4 {
            let seats = match_seats(BoardKind::TwoPlayer, index);
            for (o, score) in [(win(SeatSet(0b01)), 1.0), (win(SeatSet(0b10)), 0.0)] {
                let first_won = seats[0] == [0];
                let expect = if first_won { score } else { 1.0 - score };
                assert_eq!(first_bot_score(&o, index), expect);
                let w = match_winner(&o, &seats);
                assert_eq!(w == Some(0), expect == 1.0, "game {index}");
            }
        }
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
