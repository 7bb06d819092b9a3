//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"): one rating period per game.
//! Team games rate each player against the enemy team; free-for-all games (three-player,
//! `teams = none`) as pairwise results by placing, the placings coming from the order in which
//! the teams went out ([`placings`], [`rate_game`]).

use junqi_core::{Outcome, Record, Seat, Team, TeamMap};

/// A player's rating in one category.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Rating (Glicko scale, 1500 to start).
    pub rating: f64,
    /// Rating deviation (350 to start).
    pub rd: f64,
    /// Volatility (0.06 to start).
    pub vol: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            rd: 350.0,
            vol: 0.06,
        }
    }
}

/// The ranks (军衔) a rating earns, highest first: a role code (the piece names of `roles.js` and
/// RULES §1) and the lowest rating that earns it. Everybody starts at 1500, the bottom of 营长
/// (major): a win against an equal opponent lifts a new player above it, a loss drops them to
/// 连长 (captain). Each rank spans 150 points, about the gap at which the stronger player scores
/// 70 % (Glicko-2's expected score), so a rank up is a clearly stronger player. 司令 needs 2250,
/// rare as a marshal in QQ 四国军棋; below 1200 is 工兵 (engineer). See docs/server-protocol.md,
/// "Leaderboard".
pub const TITLES: [(&str, f64); 9] = [
    ("marshal", 2250.0),
    ("general", 2100.0),
    ("major_general", 1950.0),
    ("brigadier", 1800.0),
    ("colonel", 1650.0),
    ("major", 1500.0),
    ("captain", 1350.0),
    ("lieutenant", 1200.0),
    ("engineer", f64::NEG_INFINITY),
];

/// The rank (军衔) of a rating, as a role code: `"marshal"` … `"engineer"` (see [`TITLES`]).
pub fn title(rating: f64) -> &'static str {
    TITLES
        .iter()
        .find(|(_, lowest)| rating >= *lowest)
        .map_or("engineer", |(code, _)| code)
}

/// A rating whose deviation is above this is provisional: too few games to trust it (a new
/// player's 350 falls below it after some fifteen games).
pub const PROVISIONAL_RD: f64 = 110.0;

/// Whether a rating with deviation `rd` is still provisional.
pub fn provisional(rd: f64) -> bool {
    rd > PROVISIONAL_RD
}

const SCALE: f64 = 173.7178;
const TAU: f64 = 0.5;

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// The rating after one period against `results`: (opponent, score 1 / 0.5 / 0).
pub fn update(player: Rating, results: &[(Rating, f64)]) -> Rating {
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.rd / SCALE;
    if results.is_empty() {
        let phi_star = (phi * phi + player.vol * player.vol).sqrt();
        return Rating {
            rd: (phi_star * SCALE).min(350.0),
            ..player
        };
    }
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for &(opp, score) in results {
        let mu_j = (opp.rating - 1500.0) / SCALE;
        let phi_j = opp.rd / SCALE;
        let gj = g(phi_j);
        let e = 1.0 / (1.0 + (-gj * (mu - mu_j)).exp());
        v_inv += gj * gj * e * (1.0 - e);
        delta_sum += gj * (score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;
    // The new volatility (Illinois algorithm).
    let a = (player.vol * player.vol).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 && k < 100.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    let mut iterations = 0;
    while (big_b - big_a).abs() > 1e-6 && iterations < 100 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
        iterations += 1;
    }
    let vol = (big_a / 2.0).exp();
    let phi_star = (phi * phi + vol * vol).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * delta_sum;
    Rating {
        rating: mu_new * SCALE + 1500.0,
        rd: (phi_new * SCALE).clamp(30.0, 350.0),
        vol,
    }
}

/// A team's strength as one opponent: the members' average rating, the root mean square of
/// their deviations and their average volatility.
pub fn team(members: &[Rating]) -> Rating {
    let n = members.len().max(1) as f64;
    Rating {
        rating: members.iter().map(|r| r.rating).sum::<f64>() / n,
        rd: (members.iter().map(|r| r.rd * r.rd).sum::<f64>() / n).sqrt(),
        vol: members.iter().map(|r| r.vol).sum::<f64>() / n,
    }
}

/// The placing of each team (1 = first, by team index) from the order in which the teams went
/// out (RULES §7.2): `out_steps` lists, step by step (one entry of the record each), the teams
/// whose last seat was eliminated in that step, earliest first; `first` the teams placed first
/// (the winner, or at a draw every team still in). The last team out is next after the first,
/// teams out in the same step share their placing, and a placing shared by k teams is followed
/// by the placing k further on (1, 2, 2, 4).
pub fn team_placings(count: usize, out_steps: &[Vec<Team>], first: &[Team]) -> Vec<u32> {
    let mut place = vec![0u32; count];
    for t in first {
        place[t.index()] = 1;
    }
    let mut next = 1 + first.len() as u32;
    for step in out_steps.iter().rev() {
        let here: Vec<Team> = step
            .iter()
            .copied()
            .filter(|t| !first.contains(t) && place[t.index()] == 0)
            .collect();
        for t in &here {
            place[t.index()] = next;
        }
        next += here.len() as u32;
    }
    // (Every team is first or went out; a team neither would be last.)
    for p in place.iter_mut().filter(|p| **p == 0) {
        *p = next;
    }
    place
}

/// The placing of each team of a finished game (see [`team_placings`]), replayed from its
/// record; `None` for a game that was aborted or is not over (not rated).
pub fn placings(record: &Record) -> Result<Option<Vec<u32>>, String> {
    let teams = record.rules.teams();
    let mut pos = record.start_position()?;
    let mut out = vec![false; teams.count()];
    let mut out_steps: Vec<Vec<Team>> = Vec::new();
    for e in &record.entries {
        e.apply(&mut pos, &record.table, &mut ())
            .map_err(|x| x.to_string())?;
        let now: Vec<Team> = teams
            .teams()
            .filter(|&t| !out[t.index()] && pos.team_out(t))
            .collect();
        for t in &now {
            out[t.index()] = true;
        }
        if !now.is_empty() {
            out_steps.push(now);
        }
    }
    let first: Vec<Team> = match pos.outcome() {
        None | Some(Outcome::Aborted) => return Ok(None),
        Some(o @ Outcome::Win { .. }) => o
            .winners()
            .first()
            .map(|&s| vec![teams.team_of(s)])
            .unwrap_or_default(),
        Some(Outcome::Draw { .. }) => teams.teams().filter(|t| !out[t.index()]).collect(),
    };
    Ok(Some(team_placings(teams.count(), &out_steps, &first)))
}

/// The new ratings after one game: for each rated player, the seat it is rated at (its first)
/// and its new rating. `players` and `current` are by seat (`None`: nobody to rate there),
/// `placings` by team ([`placings`]).
///
/// Each player is rated once, in one Glicko-2 period, against every enemy team as one opponent
/// of that team's strength ([`team`] of its rated seats), scoring 1 against a team it placed
/// above, 0 below, ½ level. Two teams (two-player, four- and six-player with teams): one
/// result against the other team, a win, a loss or a draw. Free-for-all (three-player, `teams =
/// none`; also six-player `opposite`, three teams): pairwise results by placing. A player
/// sitting in more than one team (the same bot at several seats of a free-for-all) is not rated,
/// but still counts as an opponent at each of its seats.
pub fn rate_game(
    teams: &TeamMap,
    players: &[Option<String>],
    current: &[Option<Rating>],
    placings: &[u32],
) -> Vec<(usize, Rating)> {
    let n = players.len().min(current.len());
    let mut rated: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for seat in 0..n {
        let (Some(pid), Some(mine)) = (&players[seat], current[seat]) else {
            continue;
        };
        if rated.contains(&pid.as_str()) {
            continue;
        }
        rated.push(pid);
        let me = teams.team_of(seat as Seat);
        let both_sides =
            (0..n).any(|o| players[o].as_ref() == Some(pid) && teams.team_of(o as Seat) != me);
        if both_sides {
            continue; // one player on two sides: not rated
        }
        let mut results = Vec::new();
        for t in teams.teams().filter(|&t| t != me) {
            let strength: Vec<Rating> = teams
                .members(t)
                .iter()
                .filter_map(|e| current.get(e as usize).copied().flatten())
                .collect();
            let (Some(&mine_at), Some(&theirs)) =
                (placings.get(me.index()), placings.get(t.index()))
            else {
                continue;
            };
            if strength.is_empty() {
                continue;
            }
            let score = match mine_at.cmp(&theirs) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Greater => 0.0,
                std::cmp::Ordering::Equal => 0.5,
            };
            results.push((team(&strength), score));
        }
        if !results.is_empty() {
            out.push((seat, update(mine, &results)));
        }
    }
    out
}

/// A finished game to rate.
pub(crate) struct RatingJob {
    pub category: String,
    /// The teams of the game.
    pub teams: TeamMap,
    /// The player at each seat (`None`: nobody to rate).
    pub players: Vec<Option<String>>,
    /// Each team's placing ([`placings`]); `None`: not rated (aborted).
    pub placings: Option<Vec<u32>>,
}

/// What the rating task is asked.
pub(crate) enum RatingMsg {
    /// Rate a finished game.
    Rate(RatingJob),
    /// Answer once every job sent before is done (a shutdown waits for the queue).
    Flush(tokio::sync::oneshot::Sender<()>),
}

/// Rates finished games one at a time (so that no two updates of one player race).
pub(crate) async fn rating_task(
    db: crate::db::Db,
    mut rx: tokio::sync::mpsc::UnboundedReceiver<RatingMsg>,
) {
    while let Some(msg) = rx.recv().await {
        let job = match msg {
            RatingMsg::Rate(job) => job,
            RatingMsg::Flush(done) => {
                let _ = done.send(());
                continue;
            }
        };
        let Some(placings) = &job.placings else {
            continue;
        };
        // A failed write (the database away for a moment) is tried again from fresh reads, so
        // that an update another server made meanwhile is built on, not overwritten.
        for attempt in 1..=3 {
            match rate_one(&db, &job, placings).await {
                Ok(()) => break,
                Err(e) if attempt == 3 => tracing::warn!("rating update failed: {e}"),
                Err(e) => {
                    tracing::info!("rating update failed (attempt {attempt}, tried again): {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(200 * attempt)).await;
                }
            }
        }
    }
}

/// Read the current ratings of a finished game's players, and write their new ones.
async fn rate_one(db: &crate::db::Db, job: &RatingJob, placings: &[u32]) -> Result<(), String> {
    let mut current = Vec::with_capacity(job.players.len());
    for p in &job.players {
        current.push(match p {
            Some(id) => Some(crate::store::rating(db, id, &job.category).await),
            None => None,
        });
    }
    let ratings: Vec<Option<Rating>> = current.iter().map(|c| c.map(|c| c.0)).collect();
    let mut stmts = Vec::new();
    for (seat, new) in rate_game(&job.teams, &job.players, &ratings, placings) {
        let (Some(pid), Some((_, games))) = (&job.players[seat], current[seat]) else {
            continue;
        };
        stmts.extend(crate::store::set_rating(pid, &job.category, new, games + 1));
    }
    if stmts.is_empty() {
        return Ok(());
    }
    db.write(stmts).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glickman_example() {
        // The worked example of Glickman's paper.
        let p = Rating {
            rating: 1500.0,
            rd: 200.0,
            vol: 0.06,
        };
        let r = update(
            p,
            &[
                (
                    Rating {
                        rating: 1400.0,
                        rd: 30.0,
                        vol: 0.06,
                    },
                    1.0,
                ),
                (
                    Rating {
                        rating: 1550.0,
                        rd: 100.0,
                        vol: 0.06,
                    },
                    0.0,
                ),
                (
                    Rating {
                        rating: 1700.0,
                        rd: 300.0,
                        vol: 0.06,
                    },
                    0.0,
                ),
            ],
        );
        assert!((r.rating - 1464.06).abs() < 0.1, "{r:?}");
        assert!((r.rd - 151.52).abs() < 0.1, "{r:?}");
        assert!((r.vol - 0.05999).abs() < 0.0001, "{r:?}");
    }

    #[test]
    fn titles_by_rating() {
        assert_eq!(title(1500.0), "major");
        assert_eq!(title(1499.9), "captain");
        assert_eq!(title(1350.0), "captain");
        assert_eq!(title(1200.0), "lieutenant");
        assert_eq!(title(1199.0), "engineer");
        assert_eq!(title(-50.0), "engineer");
        assert_eq!(title(1650.0), "colonel");
        assert_eq!(title(1800.0), "brigadier");
        assert_eq!(title(1950.0), "major_general");
        assert_eq!(title(2100.0), "general");
        assert_eq!(title(2249.0), "general");
        assert_eq!(title(2250.0), "marshal");
        assert_eq!(title(3000.0), "marshal");
        assert_eq!(title(f64::NAN), "engineer");
        assert!(provisional(350.0) && !provisional(110.0) && !provisional(60.0));
    }

    fn pids(n: usize) -> Vec<Option<String>> {
        (0..n).map(|s| Some(format!("p{s}"))).collect()
    }

    fn score(a: u32, b: u32) -> f64 {
        match a.cmp(&b) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Greater => 0.0,
            std::cmp::Ordering::Equal => 0.5,
        }
    }

    #[test]
    fn placings_follow_the_order_of_going_out() {
        let t = Team;
        // Six alone: 3 out first, then 1 and 5 in one step, then 0, then 2; 4 wins.
        let p = team_placings(
            6,
            &[vec![t(3)], vec![t(1), t(5)], vec![t(0)], vec![t(2)]],
            &[t(4)],
        );
        assert_eq!(p, vec![3, 4, 2, 6, 1, 4]);
        // A winner whose last seat went out in the final step is still first.
        let p = team_placings(3, &[vec![t(1)], vec![t(0), t(2)]], &[t(0)]);
        assert_eq!(p, vec![1, 3, 2]);
        // A draw: the teams still in share first.
        assert_eq!(
            team_placings(4, &[vec![t(2)]], &[t(0), t(1), t(3)]),
            vec![1, 1, 4, 1]
        );
    }

    #[test]
    fn placings_of_real_records() {
        use junqi_core::{BoardKind, Deployment, Entry, Game, Mode, Options, Rules, Teams};
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let game = |board: BoardKind, teams: Teams, rng: &mut rand_chacha::ChaCha8Rng| {
            let mut o = Options::defaults(board, Mode::Dark);
            o.teams = teams;
            let rules = Rules::new(board, Mode::Dark, o).unwrap();
            let layouts: Vec<Deployment> = (0..board.seats())
                .map(|_| Deployment::random(rng))
                .collect();
            Game::new_from_deployments(rules, &layouts, 0).unwrap()
        };
        // Three-player: 1 resigns, then 2: 0 first, 2 second, 1 third.
        let mut g = game(BoardKind::ThreePlayer, Teams::None, &mut rng);
        g.apply(Entry::Resign(1)).unwrap();
        assert_eq!(placings(g.record()).unwrap(), None, "not over");
        g.apply(Entry::Resign(2)).unwrap();
        assert_eq!(placings(g.record()).unwrap(), Some(vec![1, 3, 2]));
        // Four alone: 3 resigns, then a draw: the three still in share first.
        let mut g = game(BoardKind::FourPlayer, Teams::None, &mut rng);
        g.apply(Entry::Resign(3)).unwrap();
        g.apply(Entry::Draw).unwrap();
        assert_eq!(placings(g.record()).unwrap(), Some(vec![1, 1, 1, 4]));
        // Six-player opposite ({0,3} {1,4} {2,5}): 1 and 4 resign (team 1 out), then 0 and 3.
        let mut g = game(BoardKind::SixPlayer, Teams::Opposite, &mut rng);
        for s in [1, 4, 3, 0] {
            g.apply(Entry::Resign(s)).unwrap();
        }
        assert_eq!(placings(g.record()).unwrap(), Some(vec![2, 3, 1]));
        // Four-player with teams, a partner still in: leaving aborts, nothing is rated.
        let mut g = game(BoardKind::FourPlayer, Teams::Alternate, &mut rng);
        g.apply(Entry::Leave(1)).unwrap();
        assert_eq!(placings(g.record()).unwrap(), None);
    }

    #[test]
    fn a_six_player_free_for_all_rates_pairwise_by_placing() {
        let teams = TeamMap::new(junqi_core::BoardKind::SixPlayer, junqi_core::Teams::None);
        let players = pids(6);
        let current: Vec<Option<Rating>> = (0..6)
            .map(|s| {
                Some(Rating {
                    rating: 1400.0 + 40.0 * s as f64,
                    rd: 200.0,
                    vol: 0.06,
                })
            })
            .collect();
        let placings = vec![3, 4, 2, 6, 1, 4];
        let new = rate_game(&teams, &players, &current, &placings);
        assert_eq!(new.len(), 6);
        for &(seat, r) in &new {
            // One period over the five others, each scored by placing.
            let results: Vec<(Rating, f64)> = (0..6)
                .filter(|&o| o != seat)
                .map(|o| (current[o].unwrap(), score(placings[seat], placings[o])))
                .collect();
            assert_eq!(r, update(current[seat].unwrap(), &results), "seat {seat}");
        }
        let after = |s: usize| new.iter().find(|x| x.0 == s).unwrap().1.rating;
        let before = |s: usize| current[s].unwrap().rating;
        // The winner and the runner-up go up, the last goes down; 1 and 5 shared their placing
        // and scored ½ against each other.
        assert!(after(4) > before(4) && after(2) > before(2), "{new:?}");
        assert!(after(3) < before(3), "{new:?}");
        assert!(
            after(1) - before(1) > after(5) - before(5),
            "5 was rated higher: {new:?}"
        );
    }

    #[test]
    fn a_three_player_game_rates_each_against_the_other_two() {
        let teams = TeamMap::new(junqi_core::BoardKind::ThreePlayer, junqi_core::Teams::None);
        let d = Rating::default();
        let new = rate_game(&teams, &pids(3), &[Some(d); 3], &[1, 3, 2]);
        let r = |s: usize| new.iter().find(|x| x.0 == s).unwrap().1;
        assert_eq!(r(0), update(d, &[(d, 1.0), (d, 1.0)]));
        assert_eq!(r(2), update(d, &[(d, 1.0), (d, 0.0)]));
        assert_eq!(r(1), update(d, &[(d, 0.0), (d, 0.0)]));
        // The runner-up of equals stays where it was; the winner gains what the last loses.
        assert!((r(2).rating - 1500.0).abs() < 1e-9);
        assert!((r(0).rating - 1500.0 + r(1).rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn team_games_rate_against_the_enemy_team() {
        // Six-player alternate: {0, 2, 4} beat {1, 3, 5}: each player against the other
        // team's strength, one result (as four-player always was).
        let teams = TeamMap::new(
            junqi_core::BoardKind::SixPlayer,
            junqi_core::Teams::Alternate,
        );
        let current: Vec<Option<Rating>> = (0..6)
            .map(|s| {
                Some(Rating {
                    rating: 1500.0 + 10.0 * s as f64,
                    ..Rating::default()
                })
            })
            .collect();
        let new = rate_game(&teams, &pids(6), &current, &[1, 2]);
        let odd = team(&[1, 3, 5].map(|s| current[s].unwrap()));
        let even = team(&[0, 2, 4].map(|s| current[s].unwrap()));
        for (seat, r) in new {
            let (opp, sc) = if seat % 2 == 0 {
                (odd, 1.0)
            } else {
                (even, 0.0)
            };
            assert_eq!(r, update(current[seat].unwrap(), &[(opp, sc)]));
        }
        // Six-player opposite: three teams, each against the two others by placing.
        let teams = TeamMap::new(
            junqi_core::BoardKind::SixPlayer,
            junqi_core::Teams::Opposite,
        );
        let new = rate_game(&teams, &pids(6), &current, &[2, 3, 1]);
        let pair = |a: usize, b: usize| team(&[current[a].unwrap(), current[b].unwrap()]);
        let r0 = new.iter().find(|x| x.0 == 0).unwrap().1;
        assert_eq!(
            r0,
            update(current[0].unwrap(), &[(pair(1, 4), 1.0), (pair(2, 5), 0.0)])
        );
    }

    #[test]
    fn one_player_on_two_sides_is_not_rated_but_still_an_opponent() {
        let teams = TeamMap::new(junqi_core::BoardKind::ThreePlayer, junqi_core::Teams::None);
        let players = vec![
            Some("alice".to_string()),
            Some("bot:random".to_string()),
            Some("bot:random".to_string()),
        ];
        let d = Rating::default();
        let new = rate_game(&teams, &players, &[Some(d); 3], &[2, 1, 3]);
        assert_eq!(new.len(), 1, "only alice: {new:?}");
        assert_eq!(new[0], (0, update(d, &[(d, 0.0), (d, 1.0)])));
        // Two seats of one team are one player, rated once.
        let four = TeamMap::new(
            junqi_core::BoardKind::FourPlayer,
            junqi_core::Teams::Alternate,
        );
        let players = ["a", "b", "a", "c"].map(|p| Some(p.to_string()));
        let new = rate_game(&four, &players, &[Some(d); 4], &[1, 2]);
        assert_eq!(new.iter().filter(|x| x.0 == 0 || x.0 == 2).count(), 1);
    }

    #[test]
    fn winner_goes_up() {
        let a = Rating::default();
        let b = Rating::default();
        assert!(update(a, &[(b, 1.0)]).rating > 1500.0);
        assert!(update(b, &[(a, 0.0)]).rating < 1500.0);
        assert!((update(a, &[(b, 0.5)]).rating - 1500.0).abs() < 1e-6);
    }
}
