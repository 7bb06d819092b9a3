//! Land-sea-air games and matches between two [`LsaBot`]s, as the referee runs them: each bot
//! sees only its seat's view and the events its seat receives.

use super::bot::LsaBot;
use crate::arena::{elo, wilson};
use crate::{BotError, Budget};
use junqi_core::lsa::{events_for, Event, Mode, Observer, Options, Position, Side, Status};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// How one game ended, from South's (the first bot's) side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LsaResult {
    /// The side won.
    Win(Side),
    /// Drawn.
    Draw,
}

/// A game played to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LsaPlayed {
    /// How it ended.
    pub status: Status,
    /// Plies played.
    pub plies: u32,
}

impl LsaPlayed {
    /// The result from South's side.
    pub fn result(&self) -> LsaResult {
        match self.status {
            Status::Won { winner, .. } => LsaResult::Win(winner),
            _ => LsaResult::Draw,
        }
    }
}

/// Play one game: `bots[0]` is South, `bots[1]` North. A bot that cannot answer (an error or
/// an illegal action) is returned with its error: the caller scores it as a forfeit.
pub fn play_game(
    mut bots: [&mut dyn LsaBot; 2],
    options: &Options,
    mode: Mode,
    seed: u64,
    budget: Budget,
) -> Result<LsaPlayed, (Side, BotError)> {
    let sides = [Side::South, Side::North];
    for (i, b) in bots.iter_mut().enumerate() {
        b.new_game(
            options,
            sides[i],
            seed.wrapping_mul(2).wrapping_add(i as u64),
        );
    }
    let south_layout = bots[0].deploy().map_err(|e| (Side::South, e))?;
    let north_layout = bots[1].deploy().map_err(|e| (Side::North, e))?;
    let mut pos = Position::new(*options, &south_layout, &north_layout)
        .map_err(|e| (Side::South, BotError(format!("layouts refused: {e}"))))?;
    // Each seat sees the start before the first move, as a driver tells an engine.
    for (i, b) in bots.iter_mut().enumerate() {
        b.observe(&[], &pos.view(mode, Observer::Seat(sides[i])));
    }
    while !pos.is_over() {
        let me = pos.to_move();
        let view = pos.view(mode, Observer::Seat(me));
        let action = bots[me as usize]
            .choose(&view, budget)
            .map_err(|e| (me, e))?;
        let step = pos
            .apply(action)
            .map_err(|e| (me, BotError(format!("illegal action {action}: {e}"))))?;
        for (i, b) in bots.iter_mut().enumerate() {
            let obs = Observer::Seat(sides[i]);
            let events: Vec<Event> = events_for(obs, step.events.as_slice()).collect();
            b.observe(&events, &pos.view(mode, obs));
        }
    }
    Ok(LsaPlayed {
        status: pos.status(),
        plies: pos.plies(),
    })
}

/// The first bot's score over `games` games, seats alternating (win 1, draw ½), with the
/// game counts (wins, draws, losses).
pub fn score(
    first: &mut dyn LsaBot,
    second: &mut dyn LsaBot,
    options: &Options,
    mode: Mode,
    games: u32,
    seed: u64,
    budget: Budget,
) -> Result<(f64, [u32; 3]), (Side, BotError)> {
    let mut tally = [0u32; 3];
    for g in 0..games {
        let first_south = g % 2 == 0;
        let game_seed = seed.wrapping_add(u64::from(g));
        let result = if first_south {
            play_game(
                [&mut *first, &mut *second],
                options,
                mode,
                game_seed,
                budget,
            )?
            .result()
        } else {
            play_game(
                [&mut *second, &mut *first],
                options,
                mode,
                game_seed,
                budget,
            )?
            .result()
        };
        let first_side = if first_south {
            Side::South
        } else {
            Side::North
        };
        match result {
            LsaResult::Win(s) if s == first_side => tally[0] += 1,
            LsaResult::Draw => tally[1] += 1,
            LsaResult::Win(_) => tally[2] += 1,
        }
    }
    let s = (f64::from(tally[0]) + 0.5 * f64::from(tally[1])) / f64::from(games.max(1));
    Ok((s, tally))
}

/// Makes a fresh bot for each game of a match.
pub type LsaBotFactory = Box<dyn Fn() -> Box<dyn LsaBot> + Send + Sync>;

/// A land-sea-air match between two bots.
#[derive(Clone, Copy, Debug)]
pub struct LsaMatchConfig {
    /// The rule options.
    pub options: Options,
    /// Dark or open play.
    pub mode: Mode,
    /// Games, rounded up to an even number: each deal is played twice, sides swapped (the
    /// same game seed, so that each side's layout is the same in both when the bots deploy
    /// the same way).
    pub games: u64,
    /// The master seed.
    pub seed: u64,
    /// Each bot's budget per decision.
    pub budget: Budget,
    /// Worker threads.
    pub threads: usize,
}

/// One game of a match.
#[derive(Clone, Debug)]
pub struct LsaMatchGame {
    /// Its number in the match.
    pub index: u64,
    /// Whether the first bot played South.
    pub first_south: bool,
    /// How it ended (`None` after a forfeit).
    pub played: Option<LsaPlayed>,
    /// The side that forfeited and why.
    pub forfeit: Option<(Side, String)>,
}

impl LsaMatchGame {
    /// The first bot's score: 1 for a win, ½ for a draw, 0 for a loss or its forfeit.
    pub fn score(&self) -> f64 {
        let first = if self.first_south {
            Side::South
        } else {
            Side::North
        };
        if let Some((side, _)) = &self.forfeit {
            return if *side == first { 0.0 } else { 1.0 };
        }
        match self.played.map(|p| p.result()) {
            Some(LsaResult::Win(s)) if s == first => 1.0,
            Some(LsaResult::Win(_)) => 0.0,
            _ => 0.5,
        }
    }

    /// Why it ended: an elimination reason, `draw_<reason>`, or `forfeit`.
    pub fn reason(&self) -> String {
        match (&self.forfeit, self.played.map(|p| p.status)) {
            (Some(_), _) | (None, None) => "forfeit".into(),
            (None, Some(Status::Won { reason, .. })) => reason.name().into(),
            (None, Some(Status::Drawn(r))) => format!("draw_{}", r.name()),
            (None, Some(Status::Playing)) => "unfinished".into(),
        }
    }
}

/// What a match gave.
#[derive(Clone, Debug)]
pub struct LsaMatchReport {
    /// The bots' names, first bot first.
    pub names: [String; 2],
    /// Every game, in order.
    pub games: Vec<LsaMatchGame>,
    /// Seconds the match took.
    pub seconds: f64,
}

/// Play a match: game `i` is deal `i / 2`, the first bot South in even games.
pub fn run_match(
    cfg: LsaMatchConfig,
    first: LsaBotFactory,
    second: LsaBotFactory,
) -> LsaMatchReport {
    let games = cfg.games.div_ceil(2) * 2;
    let next = AtomicU64::new(0);
    let results: Mutex<Vec<Option<LsaMatchGame>>> = Mutex::new(vec![None; games as usize]);
    let start = std::time::Instant::now();
    let names = [first().name(), second().name()];
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let (mut a, mut b) = (first(), second());
                let first_south = i.is_multiple_of(2);
                let seed = cfg
                    .seed
                    .wrapping_add((i / 2).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                let bots: [&mut dyn LsaBot; 2] = if first_south {
                    [a.as_mut(), b.as_mut()]
                } else {
                    [b.as_mut(), a.as_mut()]
                };
                let outcome = play_game(bots, &cfg.options, cfg.mode, seed, cfg.budget);
                let game = LsaMatchGame {
                    index: i,
                    first_south,
                    played: outcome.as_ref().ok().copied(),
                    forfeit: outcome.err().map(|(side, e)| (side, e.0)),
                };
                results.lock().expect("results")[i as usize] = Some(game);
            });
        }
    });
    let games = results
        .into_inner()
        .expect("results")
        .into_iter()
        .map(|g| g.expect("every game played"))
        .collect();
    LsaMatchReport {
        names,
        games,
        seconds: start.elapsed().as_secs_f64(),
    }
}

impl LsaMatchReport {
    /// The first bot's wins, draws and losses.
    pub fn tally(&self) -> [u64; 3] {
        let mut t = [0; 3];
        for g in &self.games {
            let s = g.score();
            t[if s == 1.0 {
                0
            } else if s == 0.0 {
                2
            } else {
                1
            }] += 1;
        }
        t
    }

    /// The first bot's mean score.
    pub fn score(&self) -> f64 {
        let n = self.games.len().max(1) as f64;
        self.games.iter().map(LsaMatchGame::score).sum::<f64>() / n
    }

    /// How many games ended each way.
    pub fn reasons(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::new();
        for g in &self.games {
            *m.entry(g.reason()).or_insert(0) += 1;
        }
        m
    }

    fn avg_plies(&self) -> f64 {
        let n = self.games.len().max(1) as f64;
        self.games
            .iter()
            .map(|g| f64::from(g.played.map_or(0, |p| p.plies)))
            .sum::<f64>()
            / n
    }

    /// The report as one JSON object, with the fields of the 军棋 boards' arena report that
    /// apply to two seats.
    pub fn to_json(&self) -> Value {
        let [wins, draws, losses] = self.tally();
        let n = self.games.len() as f64;
        let score = self.score();
        let (lo, hi) = wilson(score, n);
        let per_game: Vec<Value> = self
            .games
            .iter()
            .map(|g| {
                let (south, north) = if g.first_south { (0, 1) } else { (1, 0) };
                json!({
                    "game": g.index,
                    "seat_bots": [self.names[south].as_str(), self.names[north].as_str()],
                    "score": g.score(),
                    "plies": g.played.map(|p| p.plies),
                    "reason": g.reason(),
                    "forfeit": g.forfeit.as_ref().map(|(s, why)| json!({"seat": *s as u8, "why": why})),
                })
            })
            .collect();
        json!({
            "bots": self.names,
            "games": self.games.len(), "wins": wins, "draws": draws, "losses": losses,
            "score": score, "ci_low": lo, "ci_high": hi,
            "elo": elo(score), "elo_low": elo(lo), "elo_high": elo(hi),
            "avg_plies": self.avg_plies(), "results": self.reasons(),
            "seconds": self.seconds,
            "per_game": per_game,
        })
    }

    /// The report as text for a terminal.
    pub fn to_text(&self) -> String {
        let [wins, draws, losses] = self.tally();
        let score = self.score();
        let (lo, hi) = wilson(score, self.games.len() as f64);
        let mut s = format!(
            "{} vs {}: {} games\n  +{wins} ={draws} -{losses}  score {score:.3}  (95% CI {lo:.3}–{hi:.3})\n  Elo {:+.0} (95% CI {:+.0} to {:+.0})\n  average plies {:.1}, {:.1} s\n",
            self.names[0],
            self.names[1],
            self.games.len(),
            elo(score).round() + 0.0,
            elo(lo).round() + 0.0,
            elo(hi).round() + 0.0,
            self.avg_plies(),
            self.seconds
        );
        for (k, v) in self.reasons() {
            s += &format!("  {k:<20} {v}\n");
        }
        for g in &self.games {
            if let Some((side, why)) = &g.forfeit {
                s += &format!(
                    "  forfeit in game {}: seat {}: {why}\n",
                    g.index, *side as u8
                );
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsa::{LsaHeuristicBot, LsaRandomBot};

    /// A match plays every game in pairs with sides swapped, counts each result once, and
    /// scores a bot that fails as a forfeit loss.
    #[test]
    fn match_reports_paired_games_and_forfeits() {
        let cfg = LsaMatchConfig {
            options: Options::default(),
            mode: Mode::Dark,
            games: 3,
            seed: 5,
            budget: Budget::Nodes(1),
            threads: 2,
        };
        let r = run_match(
            cfg,
            Box::new(|| Box::new(LsaHeuristicBot::default())),
            Box::new(|| Box::new(LsaRandomBot::default())),
        );
        assert_eq!(r.games.len(), 4, "rounded up to whole deals");
        assert_eq!(
            r.games.iter().map(|g| g.first_south).collect::<Vec<_>>(),
            [true, false, true, false]
        );
        let [w, d, l] = r.tally();
        assert_eq!(w + d + l, 4);
        assert!(w >= 3, "{:?}", r.to_text());
        let j = r.to_json();
        assert_eq!(j["games"], 4);
        assert_eq!(j["per_game"].as_array().unwrap().len(), 4);
        assert_eq!(j["bots"][0], "heuristic");

        /// A bot that cannot deploy.
        struct Broken;
        impl LsaBot for Broken {
            fn name(&self) -> String {
                "broken".into()
            }
            fn new_game(&mut self, _: &Options, _: Side, _: u64) {}
            fn deploy(&mut self) -> Result<junqi_core::lsa::Deployment, BotError> {
                Err(BotError("no layout".into()))
            }
            fn observe(&mut self, _: &[Event], _: &junqi_core::lsa::View) {}
            fn choose(
                &mut self,
                _: &junqi_core::lsa::View,
                _: Budget,
            ) -> Result<junqi_core::lsa::Action, BotError> {
                Err(BotError("no move".into()))
            }
        }
        let r = run_match(
            LsaMatchConfig { games: 2, ..cfg },
            Box::new(|| Box::new(Broken)),
            Box::new(|| Box::new(LsaRandomBot::default())),
        );
        assert_eq!(r.tally(), [0, 0, 2]);
        assert_eq!(r.reasons().get("forfeit"), Some(&2));
        assert!(r.to_text().contains("no layout"), "{}", r.to_text());
    }

    /// The heuristic beats the random player clearly over seeded games of both piece sets.
    #[test]
    fn heuristic_beats_random() {
        for set in junqi_core::lsa::PieceSet::ALL {
            let options = Options {
                piece_set: set,
                ..Options::default()
            };
            let (s, tally) = score(
                &mut LsaHeuristicBot::default(),
                &mut LsaRandomBot::default(),
                &options,
                Mode::Dark,
                20,
                11,
                Budget::Nodes(1),
            )
            .unwrap();
            assert!(
                s >= 0.8,
                "{set:?}: heuristic scored {s} {tally:?} against random"
            );
        }
    }
}
