//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"): one rating period per game.

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

/// A team's strength for four-player rating: the members' average rating and the root mean
/// square of their deviations.
pub fn team(members: &[Rating]) -> Rating {
    let n = members.len().max(1) as f64;
    Rating {
        rating: members.iter().map(|r| r.rating).sum::<f64>() / n,
        rd: (members.iter().map(|r| r.rd * r.rd).sum::<f64>() / n).sqrt(),
        vol: members.iter().map(|r| r.vol).sum::<f64>() / n,
    }
}

/// A finished game to rate.
pub(crate) struct RatingJob {
    pub category: String,
    pub board: junqi_core::BoardKind,
    /// The teams of the game.
    pub teams: junqi_core::TeamMap,
    /// The player at each seat (`None`: nobody to rate).
    pub players: Vec<Option<String>>,
    pub outcome: junqi_core::Outcome,
}

/// Rates finished games one at a time (so that no two updates of one player race).
pub(crate) async fn rating_task(
    db: crate::db::Db,
    mut rx: tokio::sync::mpsc::UnboundedReceiver<RatingJob>,
) {
    use junqi_core::{BoardKind, Outcome, Seat};
    while let Some(job) = rx.recv().await {
        let score = |seat: Seat| -> Option<f64> {
            match job.outcome {
                Outcome::Win { .. } => Some(if job.outcome.winners().contains(&seat) {
                    1.0
                } else {
                    0.0
                }),
                Outcome::Draw { .. } => Some(0.5),
                Outcome::Aborted => None,
            }
        };
        let n = job.players.len();
        let mut current = Vec::with_capacity(n);
        for p in &job.players {
            current.push(match p {
                Some(id) => Some(crate::store::rating(&db, id, &job.category).await),
                None => None,
            });
        }
        let mut stmts = Vec::new();
        for seat in 0..n {
            let (Some(pid), Some((mine, games)), Some(s)) =
                (&job.players[seat], current[seat], score(seat as Seat))
            else {
                continue;
            };
            let opponent = match job.board {
                BoardKind::TwoPlayer => current[1 - seat].map(|c| c.0),
                _ => {
                    let enemies: Vec<Rating> = (0..n)
                        .filter(|&e| !job.teams.same_team(e as Seat, seat as Seat))
                        .filter_map(|e| current[e].map(|c| c.0))
                        .collect();
                    (!enemies.is_empty()).then(|| team(&enemies))
                }
            };
            let Some(opp) = opponent else { continue };
            if job.players.iter().enumerate().any(|(o, q)| {
                o != seat
                    && q.as_ref() == Some(pid)
                    && !job.teams.same_team(o as Seat, seat as Seat)
            }) {
                continue; // one person on both sides: not rated
            }
            let new = update(mine, &[(opp, s)]);
            stmts.extend(crate::store::set_rating(pid, &job.category, new, games + 1));
        }
        if !stmts.is_empty() {
            if let Err(e) = db.write(stmts).await {
                tracing::warn!("rating update failed: {e}");
            }
        }
    }
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

    #[test]
    fn winner_goes_up() {
        let a = Rating::default();
        let b = Rating::default();
        assert!(update(a, &[(b, 1.0)]).rating > 1500.0);
        assert!(update(b, &[(a, 0.0)]).rating < 1500.0);
        assert!((update(a, &[(b, 0.5)]).rating - 1500.0).abs() < 1e-6);
    }
}
