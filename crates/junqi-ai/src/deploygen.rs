//! Deployment generation (布阵): the bots' layouts, the layouts of the players they meet (as a
//! prior for the belief), and a few named classic layouts.
//!
//! The bots deploy with [`layout_for_bot`] = [`generate`], layouts that a strong player would
//! respect (issue 14: an expert found the marshal of a bot locked in an HQ for the whole game).
//! Every layout, whatever the seed, keeps these (unit tests over thousands of seeds check each,
//! and check that the casual generator breaks each):
//! - the flag in an HQ, either at even odds, with all three squares next to it landmines
//!   ([`Style::three_mine_lock`]; a style may put a bomb in one of the three instead);
//! - the other HQ a decoy: a lieutenant or a captain (a landmine in styles that leave one
//!   free), next to the landmine in the middle of the HQ row that also guards the flag;
//! - the rest of the HQ row lieutenants and captains, so the marshal, the general, the major
//!   generals and the engineers stand in the first five rows: never in an HQ, never walled in
//!   behind landmines, all with a way to the front;
//! - bombs only where they protect ([`protecting_bomb_square`]): in the standard style mostly
//!   on the side files behind the front corners, next to the front camps (local (1,0) and
//!   (1,4)), where they stop rail slides down files a and e, otherwise on the middle squares
//!   behind the front line that are next to camps;
//! - the marshal and the general mostly on squares next to two or three camps, the general
//!   more often on the other wing than the marshal's; engineers mostly on the rail; the
//!   captains and the lieutenants mostly in the front row, probing.
//!
//! Everything else is drawn with noise, so that layouts vary per game and cannot be learned:
//! 1000 draws give 1000 distinct layouts, the flag left in about half of them, both file bombs
//! in about two layouts in three, the marshal on twenty squares.
//!
//! The standard [`Style`] was chosen by self-play (`examples/layouts.rs`: the same bot on both
//! sides, each side deploying from its own generator, two-player dark): against the bots'
//! layouts before issue 14 it scores 0.538 (Wilson 95 % 0.531–0.545) over 20 000 games of
//! `heuristic` (0.529 on another seed; `search`, 100 games: 0.605, 0.507–0.695). A bomb in the
//! flag's lock instead of the third landmine cost most (0.387 with every lock so, against
//! 0.514 with none); bombs on the files were worth about 0.035 against bombs spread over all
//! protecting squares. The figures and commands are in `STRENGTH.md`, section "Deployment".
//!
//! [`casual`] is the generator the bots used before: layouts shaped the way players lay out
//! their pieces, looser (the flag guarded by landmines about three times in four, bombs
//! anywhere behind the front row, at times the marshal in the decoy HQ). It stays as the model
//! of opponents in [`layout_prior`] — how often each role stands on each local square, which
//! the belief uses as a prior for where the enemy put what.

#![allow(clippy::needless_range_loop)]

use junqi_core::topology::is_local_camp;
use junqi_core::{Deployment, Role};
use rand::Rng;
use std::sync::OnceLock;

/// Named classic layouts (text form of [`Deployment::from_text`]: front row first, HQ row last).
/// The bots no longer deploy them ([`layout_for_bot`]): fixed layouts can be learned.
pub const CLASSIC_LAYOUTS: [(&str, &str); 3] = [
    ("left-fortress", "37262/9.5.8/B4.7B/1.6.5/3L412/LFL31"),
    ("right-fortress", "26372/8.B.9/51.45/B.6.7/314L2/13LFL"),
    ("engineer-screen", "31213/7.9.6/4B.B5/8.7.6/5L2L4/LF321"),
];

/// The names of the classic layouts.
pub fn classic_names() -> Vec<&'static str> {
    CLASSIC_LAYOUTS.iter().map(|(n, _)| *n).collect()
}

/// A classic layout by name.
pub fn classic(name: &str) -> Option<Deployment> {
    CLASSIC_LAYOUTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| Deployment::from_text(t).expect("classic layouts are valid"))
}

/// Whether local (row, col) is on the seat's rail (front row, second-last row, side files).
fn on_rail(r: u8, c: u8) -> bool {
    r == 0 || r == 4 || ((c == 0 || c == 4) && r <= 4)
}

/// The preference (before noise) of `role` for local (r, c), given where the flag stands.
fn weight(role: Role, r: u8, c: u8, flag_col: u8) -> f64 {
    let near_flag = (r == 5 && (c as i8 - flag_col as i8).abs() == 1) || (r == 4 && c == flag_col);
    let flag_side = (c as i8 - flag_col as i8).abs() <= 1;
    match role {
        // Players lock the flag: all three squares next to it mined (about three layouts in
        // four with this weight), since an open square there, above all the one in front of the
        // flag on the rail, is how a lone attacker ends the game.
        Role::Landmine => {
            if near_flag {
                40.0
            } else if r == 4 && flag_side {
                2.0
            } else {
                0.6
            }
        }
        // A bomb often fills a square next to the flag that the landmines left open.
        Role::Bomb if near_flag => 6.0,
        Role::Bomb => match r {
            1..=2 => 3.0,
            3 => 2.0,
            4 if flag_side => 2.0,
            _ => 0.5,
        },
        Role::Marshal | Role::General => {
            (match r {
                0 => 1.0,
                1 | 2 => 4.0,
                3 => 2.0,
                _ => 0.2,
            }) * if on_rail(r, c) { 1.5 } else { 1.0 }
        }
        Role::MajorGeneral | Role::Brigadier => match r {
            0 => 2.5,
            1..=3 => 2.5,
            4 => 1.0,
            _ => 0.3,
        },
        Role::Colonel | Role::Major => match r {
            0..=3 => 2.0,
            _ => 1.0,
        },
        Role::Engineer => {
            if r == 5 && !(c == 1 || c == 3) {
                2.0
            } else if r == 5 {
                0.3
            } else if on_rail(r, c) {
                1.5
            } else {
                1.0
            }
        }
        Role::Captain | Role::Lieutenant => match r {
            0 => 3.0,
            5 if c == 1 || c == 3 => 1.5,
            _ => 1.0,
        },
        Role::Flag => 1.0,
    }
}

fn set(cells: &mut [[Option<Role>; 5]; 6], (r, c): (u8, u8), role: Role) {
    cells[r as usize][c as usize] = Some(role);
}

/// A seeded, legal, varied layout in the style casual players use — the bots' generator until
/// issue 14, kept as the model of opponents' layouts in [`layout_prior`]. It often leaves the
/// flag half open, and it may put the marshal or the general in the decoy HQ, where they are
/// locked for the game. Every call with the same random state gives the same layout.
pub fn casual(rng: &mut impl Rng) -> Deployment {
    let mut cells: [[Option<Role>; 5]; 6] = [[None; 5]; 6];
    let flag_col: u8 = if rng.gen_bool(0.5) { 1 } else { 3 };
    cells[5][flag_col as usize] = Some(Role::Flag);
    // Most constrained roles first, then the strongest.
    let order = [
        Role::Landmine,
        Role::Bomb,
        Role::Marshal,
        Role::General,
        Role::MajorGeneral,
        Role::Brigadier,
        Role::Engineer,
        Role::Colonel,
        Role::Major,
        Role::Captain,
        Role::Lieutenant,
    ];
    for role in order {
        for _ in 0..role.count() {
            let mut opts: Vec<((u8, u8), f64)> = Vec::with_capacity(25);
            for r in 0..6u8 {
                for c in 0..5u8 {
                    if is_local_camp(r, c) || cells[r as usize][c as usize].is_some() {
                        continue;
                    }
                    let legal = match role {
                        Role::Landmine => r >= 4,
                        Role::Bomb => r >= 1,
                        _ => true,
                    };
                    if legal {
                        // Noise keeps layouts varied.
                        let w = weight(role, r, c, flag_col) * rng.gen_range(0.5..1.5);
                        opts.push(((r, c), w));
                    }
                }
            }
            let total: f64 = opts.iter().map(|o| o.1).sum();
            let mut x = rng.gen_range(0.0..total);
            let mut pick = opts[opts.len() - 1].0;
            for &(sq, w) in &opts {
                if x < w {
                    pick = sq;
                    break;
                }
                x -= w;
            }
            cells[pick.0 as usize][pick.1 as usize] = Some(role);
        }
    }
    Deployment { cells }
}

/// The knobs of [`generate_with`]: how the flag is locked and where the bombs go. The layout
/// harness (`examples/layouts.rs`) plays candidate styles against each other; [`Style::STANDARD`]
/// is the one that scored best (figures in `STRENGTH.md`, section "Deployment").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// The probability that all three squares next to the flag are landmines; otherwise two
    /// are, and a bomb holds the third, which frees a landmine for the decoy HQ or the flag's
    /// approaches.
    pub three_mine_lock: f64,
    /// Weight of the file squares behind the front corners, next to the front camps (local
    /// (1,0) and (1,4)), for a free bomb: a bomb there stops rail slides down the side files.
    pub file_bomb: f64,
    /// Weight of the squares on the flag's approaches (the back rail next to the flag, and the
    /// flag side's file just above it) for a free bomb.
    pub approach_bomb: f64,
    /// Weight of the middle squares behind the front line (local (1,2), (2,1), (2,3), each next
    /// to camps) for a free bomb.
    pub centre_bomb: f64,
    /// How much more the marshal and the general like squares next to two or three camps (so
    /// that, threatened, they always have a camp to step into) than other squares.
    pub camp_side: f64,
    /// Weight of the front row for the captains and the lieutenants (against 1 for the middle
    /// rows): cheap pieces in front probe and take the first hits.
    pub front_probe: f64,
    /// Factor on the general's weight for squares on the marshal's half of the board: below 1
    /// the two strongest pieces cover both wings.
    pub same_wing: f64,
}

impl Style {
    /// The bots' style, the best of the candidates in self-play: the flag always locked by
    /// three landmines (a bomb in the lock scored 0.13 a game worse), bombs mostly on the side
    /// files, never on the flag's approaches (worse than the files by about 0.03), and the
    /// placement weights of the strong and the small pieces at values that follow strong
    /// players' habits (varying them moved the score by less than the noise).
    pub const STANDARD: Style = Style {
        three_mine_lock: 1.0,
        file_bomb: 10.0,
        approach_bomb: 0.0,
        centre_bomb: 1.0,
        camp_side: 3.0,
        front_probe: 2.5,
        same_wing: 0.35,
    };
}

/// The named layout families a person can load into the deployment editor (布阵方案): each a
/// [`Style`] whose layouts keep every constraint of [`generate_with`] and vary with the seed, so
/// that a family is a way of playing, not a layout to be learned.
/// - `flag-fortress` (旗堡): the bots' own style ([`Style::STANDARD`]): the flag shut by three
///   landmines, bombs mostly behind the front corners on the side files;
/// - `bomb-ahead` (炸弹前置): the bombs on the middle squares behind the front line, next to the
///   front camps, where a piece that breaks through the centre meets them;
/// - `bomb-by-flag` (炸弹护旗): one bomb in the flag's lock (two landmines and a bomb), the
///   freed landmine and the other bomb on the flag's approaches: a deep defence.
pub const FAMILIES: [(&str, Style); 3] = [
    ("flag-fortress", Style::STANDARD),
    (
        "bomb-ahead",
        Style {
            file_bomb: 0.0,
            centre_bomb: 10.0,
            ..Style::STANDARD
        },
    ),
    (
        "bomb-by-flag",
        Style {
            three_mine_lock: 0.0,
            file_bomb: 0.0,
            approach_bomb: 10.0,
            centre_bomb: 0.0,
            ..Style::STANDARD
        },
    ),
];

/// The names of the layout families, in [`FAMILIES`] order.
pub fn family_names() -> Vec<&'static str> {
    FAMILIES.iter().map(|(n, _)| *n).collect()
}

/// A layout of a named family ([`FAMILIES`]), drawn with `rng`; `None` for an unknown name.
pub fn family_layout(name: &str, rng: &mut impl Rng) -> Option<Deployment> {
    FAMILIES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, style)| generate_with(style, rng))
}

impl Default for Style {
    fn default() -> Style {
        Style::STANDARD
    }
}

/// The local squares a bomb may take in the bots' layouts when the flag stands in column
/// `flag_col`: where it protects. Behind the front line next to the camps — the side files'
/// squares behind the front corners, (1,0) and (1,4), which stop rail slides down the files,
/// and the middle squares (1,2), (2,1), (2,3) —, the flag's approaches (the back rail (4,x)
/// next to the flag and the flag side's file square (3,0) or (3,4)), and the squares next to
/// the flag itself (where a bomb completes the lock when two landmines are there).
pub fn protecting_bomb_square(r: u8, c: u8, flag_col: u8) -> bool {
    let flag_side_file = if flag_col == 1 { 0 } else { 4 };
    let next_to_flag = (r == 5 && c.abs_diff(flag_col) == 1) || (r == 4 && c == flag_col);
    next_to_flag
        || matches!((r, c), (1, 0) | (1, 4) | (1, 2) | (2, 1) | (2, 3))
        || (r == 4 && c.abs_diff(flag_col) == 1)
        || (r == 3 && c == flag_side_file)
}

/// How many of the seat's camps local (r, c) is next to (orthogonally, or diagonally along a
/// camp's diagonal road): every square of the first five rows is next to one, and the squares
/// next to two or three are where a threatened piece always has a camp to step into.
fn camps_next(r: u8, c: u8) -> usize {
    (0..6u8)
        .flat_map(|cr| (0..5u8).map(move |cc| (cr, cc)))
        .filter(|&(cr, cc)| {
            is_local_camp(cr, cc)
                && (cr, cc) != (r, c)
                && cr.abs_diff(r) <= 1
                && cc.abs_diff(c) <= 1
        })
        .count()
}

/// A weighted draw among the free squares where `w` is positive (noise keeps layouts varied).
fn pick(
    rng: &mut impl Rng,
    cells: &[[Option<Role>; 5]; 6],
    w: impl Fn(u8, u8) -> f64,
) -> Option<(u8, u8)> {
    let mut opts: Vec<((u8, u8), f64)> = Vec::with_capacity(25);
    for r in 0..6u8 {
        for c in 0..5u8 {
            if is_local_camp(r, c) || cells[r as usize][c as usize].is_some() {
                continue;
            }
            let x = w(r, c);
            if x > 0.0 {
                opts.push(((r, c), x * rng.gen_range(0.5..1.5)));
            }
        }
    }
    let total: f64 = opts.iter().map(|o| o.1).sum();
    if opts.is_empty() {
        return None;
    }
    let mut x = rng.gen_range(0.0..total);
    for &(sq, w) in &opts {
        if x < w {
            return Some(sq);
        }
        x -= w;
    }
    opts.last().map(|o| o.0)
}

/// A layout that a strong player would respect ([`Style::STANDARD`]): seeded, legal and varied.
/// Every call with the same random state gives the same layout.
pub fn generate(rng: &mut impl Rng) -> Deployment {
    generate_with(&Style::STANDARD, rng)
}

/// A layout in `style`. What every layout keeps, whatever the style and the seed:
/// - the flag in an HQ (either, at even odds) with all three squares next to it held by
///   landmines, or by two landmines and a bomb;
/// - the other HQ (the decoy) holding a landmine, a lieutenant or a captain — never a piece
///   worth keeping mobile —, and next to the flag's lock, so that it looks defended: the middle
///   square of the HQ row, next to both HQs, always holds a landmine or a bomb;
/// - the rest of the HQ row filled with lieutenants and captains, so that the marshal, the
///   general, the major generals and the engineers stand in the first five rows, never in an
///   HQ (where they would be locked for the game) and never walled in behind landmines;
/// - bombs only where they protect ([`protecting_bomb_square`]);
/// - the marshal and the general near camps, on opposite halves of the board more often than
///   not; engineers mostly on the rail, where they move fastest.
pub fn generate_with(style: &Style, rng: &mut impl Rng) -> Deployment {
    let mut cells: [[Option<Role>; 5]; 6] = [[None; 5]; 6];
    let fc: u8 = if rng.gen_bool(0.5) { 1 } else { 3 };
    let dc = 4 - fc;
    let outer = if fc == 1 { 0 } else { 4 };
    let decoy_outer = 4 - outer;
    set(&mut cells, (5, fc), Role::Flag);
    let lock = [(5, outer), (5, 2), (4, fc)];
    // (free landmines, free bombs) once the flag is locked
    let (mines, bombs) = if rng.gen_bool(style.three_mine_lock.clamp(0.0, 1.0)) {
        for sq in lock {
            set(&mut cells, sq, Role::Landmine);
        }
        (0, 2)
    } else {
        // The bomb mostly takes the square in front of the flag, on the back rail, where
        // attackers arrive by rail; the landmines take the two squares beside it.
        let b = match rng.gen_range(0..10) {
            0..=5 => 2,
            6 | 7 => 1,
            _ => 0,
        };
        for (i, &sq) in lock.iter().enumerate() {
            let role = if i == b { Role::Bomb } else { Role::Landmine };
            set(&mut cells, sq, role);
        }
        (1, 1)
    };
    // A free landmine defends the decoy HQ or the flag's approaches.
    for _ in 0..mines {
        let sq = pick(rng, &cells, |r, c| match (r, c) {
            (5, c) if c == dc => 3.0,
            (4, c) if c == dc => 1.5,
            (5, c) if c == decoy_outer => 1.0,
            (4, c) if c.abs_diff(fc) == 1 => 1.0,
            (4, _) => 0.3,
            _ => 0.0,
        })
        .expect("a back-row square is free");
        set(&mut cells, sq, Role::Landmine);
    }
    for _ in 0..bombs {
        let sq = pick(rng, &cells, |r, c| {
            let w = if !protecting_bomb_square(r, c, fc) {
                return 0.0;
            } else if r == 1 && (c == 0 || c == 4) {
                style.file_bomb
            } else if r >= 3 {
                style.approach_bomb
            } else {
                style.centre_bomb
            };
            // A style with every weight zero still places its bombs on protecting squares.
            w.max(1e-9)
        })
        .expect("a protecting square is free");
        set(&mut cells, sq, Role::Bomb);
    }
    // The rest of the HQ row (the decoy HQ if still empty, the corners) takes the cheap pieces:
    // whatever stands there is locked (the HQ) or walled in, and so should be worth little.
    let (mut lieutenants, mut captains) = (3, 3);
    for c in 0..5u8 {
        if cells[5][c as usize].is_none() {
            let role = if lieutenants > 0 && (captains == 0 || rng.gen_bool(0.65)) {
                lieutenants -= 1;
                Role::Lieutenant
            } else {
                captains -= 1;
                Role::Captain
            };
            set(&mut cells, (5, c), role);
        }
    }
    // Now only rows 0–4 are free, all of them squares from which a piece can move.
    let front = |r: u8| -> f64 {
        match r {
            0 => 1.0,
            1 | 2 => 1.3,
            3 => 1.0,
            _ => 0.25,
        }
    };
    let marshal = pick(rng, &cells, |r, c| {
        front(r)
            * if camps_next(r, c) >= 2 {
                style.camp_side
            } else {
                1.0
            }
    })
    .expect("free square");
    set(&mut cells, marshal, Role::Marshal);
    // The general takes the other half more often than not: the two strongest pieces cover
    // both wings instead of one attack taking both.
    let half = |c: u8| (c as i8 - 2).signum();
    let mh = half(marshal.1);
    let general = pick(rng, &cells, |r, c| {
        let camp = if camps_next(r, c) >= 2 {
            style.camp_side
        } else {
            1.0
        };
        let wing = if mh != 0 && half(c) == mh {
            style.same_wing
        } else {
            1.0
        };
        (front(r) * camp * wing).max(1e-9)
    })
    .expect("free square");
    set(&mut cells, general, Role::General);
    let mut rest: Vec<Role> = [
        Role::MajorGeneral,
        Role::MajorGeneral,
        Role::Engineer,
        Role::Engineer,
        Role::Engineer,
        Role::Brigadier,
        Role::Brigadier,
    ]
    .to_vec();
    rest.extend(std::iter::repeat_n(Role::Colonel, 2));
    rest.extend(std::iter::repeat_n(Role::Major, 2));
    rest.extend(std::iter::repeat_n(Role::Captain, captains));
    rest.extend(std::iter::repeat_n(Role::Lieutenant, lieutenants));
    for role in rest {
        // Every free square stays possible (a style may zero a weight): the free squares are
        // all in rows 0–4, where any piece may stand.
        let sq = pick(rng, &cells, |r, c| {
            let w = match role {
                // Engineers on the rail (rows 0 and 4, the side files), where they fly; one or two
                // stay back, to dig out an attacker's landmines later and to stop intruders.
                Role::Engineer if on_rail(r, c) => {
                    if r == 0 {
                        1.0
                    } else {
                        2.0
                    }
                }
                Role::Engineer => 0.5,
                Role::MajorGeneral | Role::Brigadier => {
                    front(r) * if camps_next(r, c) >= 2 { 1.5 } else { 1.0 }
                }
                // The small pieces probe in the front row and screen the back rail.
                Role::Captain | Role::Lieutenant => match r {
                    0 => style.front_probe,
                    4 => 1.5,
                    _ => 1.0,
                },
                _ => 1.0,
            };
            w.max(1e-9)
        })
        .expect("free square");
        set(&mut cells, sq, role);
    }
    Deployment { cells }
}

/// A layout for a bot: [`generate`]d. (The classic layouts are no longer mixed in: a fixed
/// layout can be learned, and they bury an engineer in the HQ row and keep their bombs off the
/// squares that protect.)
pub fn layout_for_bot(rng: &mut impl Rng) -> Deployment {
    generate(rng)
}

/// `prior[row][col][role]`: the probability that a layout holds `role` on local (row, col),
/// averaged half from [`casual`] and half from uniformly random legal layouts (so that the
/// prior is never zero where a role may legally stand). Computed once.
///
/// The prior models opponents — mostly people, of every strength — not the bots, so it did not
/// follow the bots to [`generate`] (issue 14): it stays the broad prior it was, bit for bit, and
/// the belief's behaviour against people does not change with the bots' own layouts. A bot
/// meeting [`generate`]'s layouts is therefore a little surprised by them, as it would be by a
/// strong player's; the self-play figures in `STRENGTH.md` are measured with that prior.
pub fn layout_prior() -> &'static [[[f64; 12]; 5]; 6] {
    static PRIOR: OnceLock<[[[f64; 12]; 5]; 6]> = OnceLock::new();
    PRIOR.get_or_init(|| {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x5eed);
        let mut p = [[[0.0f64; 12]; 5]; 6];
        let n = 3000;
        for i in 0..2 * n {
            let d = if i % 2 == 0 {
                casual(&mut rng)
            } else {
                Deployment::random(&mut rng)
            };
            for r in 0..6 {
                for c in 0..5 {
                    if let Some(role) = d.cells[r][c] {
                        p[r][c][role as usize] += 1.0;
                    }
                }
            }
        }
        for row in p.iter_mut() {
            for cell in row.iter_mut() {
                let s: f64 = cell.iter().sum();
                if s > 0.0 {
                    cell.iter_mut().for_each(|x| *x /= s);
                }
            }
        }
        p
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::BoardKind;
    use rand::SeedableRng;
    use std::collections::{BTreeMap, HashSet, VecDeque};

    fn rng(seed: u64) -> rand_chacha::ChaCha8Rng {
        rand_chacha::ChaCha8Rng::seed_from_u64(seed)
    }

    fn at(d: &Deployment, (r, c): (u8, u8)) -> Option<Role> {
        d.cells[r as usize][c as usize]
    }

    fn squares_of(d: &Deployment, role: Role) -> Vec<(u8, u8)> {
        (0..6u8)
            .flat_map(|r| (0..5u8).map(move |c| (r, c)))
            .filter(|&sq| at(d, sq) == Some(role))
            .collect()
    }

    fn flag_col(d: &Deployment) -> u8 {
        squares_of(d, Role::Flag)[0].1
    }

    /// Local neighbours within the arm: orthogonal steps, and the camps' diagonal roads.
    fn neighbours(r: u8, c: u8) -> Vec<(u8, u8)> {
        let mut v = Vec::new();
        for (dr, dc) in [
            (-1i8, -1i8),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            let (nr, nc) = (r as i8 + dr, c as i8 + dc);
            if !(0..6).contains(&nr) || !(0..5).contains(&nc) {
                continue;
            }
            let (nr, nc) = (nr as u8, nc as u8);
            if dr != 0 && dc != 0 && !is_local_camp(r, c) && !is_local_camp(nr, nc) {
                continue;
            }
            v.push((nr, nc));
        }
        v
    }

    /// Whether the piece on `from` can reach the front row, passing only squares that do not
    /// hold a piece that never moves (landmines, the flag, whatever stands in an HQ).
    fn reaches_front(d: &Deployment, from: (u8, u8)) -> bool {
        let fixed = |(r, c): (u8, u8)| {
            matches!(at(d, (r, c)), Some(Role::Landmine | Role::Flag))
                || (r == 5 && (c == 1 || c == 3))
        };
        if fixed(from) {
            return false;
        }
        let mut seen = HashSet::from([from]);
        let mut queue = VecDeque::from([from]);
        while let Some((r, c)) = queue.pop_front() {
            if r == 0 {
                return true;
            }
            for n in neighbours(r, c) {
                if !fixed(n) && seen.insert(n) {
                    queue.push_back(n);
                }
            }
        }
        false
    }

    /// The hard constraints of the bots' layouts that `d` breaks, by name.
    fn violations(d: &Deployment) -> Vec<&'static str> {
        let mut v = Vec::new();
        let fc = flag_col(d);
        let lock = [(5, fc - 1), (5, fc + 1), (4, fc)];
        let mines = lock
            .iter()
            .filter(|&&sq| at(d, sq) == Some(Role::Landmine))
            .count();
        let held = lock
            .iter()
            .all(|&sq| matches!(at(d, sq), Some(Role::Landmine | Role::Bomb)));
        if !held || mines < 2 {
            v.push("flag locked");
        }
        let hq_row = [Role::Marshal, Role::General, Role::Engineer];
        if hq_row
            .iter()
            .any(|&r| squares_of(d, r).iter().any(|sq| sq.0 == 5))
        {
            v.push("no marshal, general or engineer in the HQ row");
        }
        if squares_of(d, Role::Bomb)
            .iter()
            .any(|&(r, c)| !protecting_bomb_square(r, c, fc))
        {
            v.push("bombs protect");
        }
        let movers = [
            Role::Marshal,
            Role::General,
            Role::MajorGeneral,
            Role::Engineer,
        ];
        if movers
            .iter()
            .any(|&r| squares_of(d, r).iter().any(|&sq| !reaches_front(d, sq)))
        {
            v.push("strong pieces and engineers can move out");
        }
        let decoy = (5, 4 - fc);
        let cheap = matches!(
            at(d, decoy),
            Some(Role::Landmine | Role::Lieutenant | Role::Captain)
        );
        if !cheap || !matches!(at(d, (5, 2)), Some(Role::Landmine | Role::Bomb)) {
            v.push("decoy HQ cheap and guarded");
        }
        v
    }

    const NAMES: [&str; 5] = [
        "flag locked",
        "no marshal, general or engineer in the HQ row",
        "bombs protect",
        "strong pieces and engineers can move out",
        "decoy HQ cheap and guarded",
    ];

    /// Every bot layout keeps every hard constraint, and is legal for every seat of every
    /// board; and the checks are not vacuous: the casual generator (the bots' generator before
    /// issue 14) breaks each of them in some layouts.
    #[test]
    fn bot_layouts_keep_the_hard_constraints() {
        for seed in 0..3000u64 {
            let d = layout_for_bot(&mut rng(seed));
            for board in BoardKind::ALL {
                let seat = (seed % board.seats() as u64) as u8;
                d.validate(board, seat).unwrap();
            }
            assert_eq!(layout_for_bot(&mut rng(seed)), d, "seeded");
            assert!(violations(&d).is_empty(), "{d}: {:?}", violations(&d));
        }
        let mut broken: BTreeMap<&str, usize> = BTreeMap::new();
        for seed in 0..3000u64 {
            for v in violations(&casual(&mut rng(seed))) {
                *broken.entry(v).or_default() += 1;
            }
        }
        for name in NAMES {
            assert!(
                broken.get(name).is_some_and(|&n| n > 0),
                "{name}: {broken:?}"
            );
        }
    }

    /// Every style keeps the constraints too (the harness plays styles at their extremes).
    #[test]
    fn every_style_keeps_the_constraints() {
        let styles = [
            Style {
                three_mine_lock: 0.0,
                file_bomb: 0.0,
                approach_bomb: 0.0,
                centre_bomb: 1.0,
                camp_side: 1.0,
                front_probe: 0.0,
                same_wing: 0.0,
            },
            Style {
                three_mine_lock: 1.0,
                file_bomb: 10.0,
                approach_bomb: 0.0,
                centre_bomb: 0.0,
                camp_side: 10.0,
                front_probe: 10.0,
                same_wing: 1.0,
            },
            Style {
                three_mine_lock: 0.3,
                file_bomb: 0.0,
                approach_bomb: 5.0,
                centre_bomb: 0.0,
                camp_side: 0.5,
                front_probe: 1.0,
                same_wing: 3.0,
            },
        ];
        for (i, style) in styles.iter().enumerate() {
            for seed in 0..1000u64 {
                let d = generate_with(style, &mut rng(seed));
                d.validate(BoardKind::TwoPlayer, 0).unwrap();
                assert!(
                    violations(&d).is_empty(),
                    "style {i}: {d}: {:?}",
                    violations(&d)
                );
                let fc = flag_col(&d);
                let lock_mines = [(5, fc - 1), (5, fc + 1), (4, fc)]
                    .iter()
                    .filter(|&&sq| at(&d, sq) == Some(Role::Landmine))
                    .count();
                if style.three_mine_lock == 1.0 {
                    assert_eq!(lock_mines, 3);
                } else if style.three_mine_lock == 0.0 {
                    assert_eq!(lock_mines, 2);
                }
            }
        }
    }

    /// A layout that walls an engineer in behind landmines, and one with the marshal in the
    /// decoy HQ, are caught (the mobility check is a path search, not a row test).
    #[test]
    fn the_checks_catch_walled_in_and_locked_pieces() {
        // Engineer on (5,4) behind a landmine on (4,4) and a captain locked in the HQ (5,3).
        let walled = Deployment::from_text("32324/B.9.8/76.75/5.4.1/1B26L/LFL31").unwrap();
        walled.validate(BoardKind::TwoPlayer, 0).unwrap();
        assert!(!reaches_front(&walled, (5, 4)));
        assert!(violations(&walled).contains(&"strong pieces and engineers can move out"));
        let locked = Deployment::from_text("32324/1.8.7/B6.75/5.4.1/BL261/LFL93").unwrap();
        locked.validate(BoardKind::TwoPlayer, 0).unwrap();
        let v = violations(&locked);
        assert!(
            v.contains(&"no marshal, general or engineer in the HQ row"),
            "{v:?}"
        );
        assert!(v.contains(&"decoy HQ cheap and guarded"), "{v:?}");
        assert!(v.contains(&"bombs protect"), "{v:?}");
    }

    /// Layouts vary per game: every draw is new, the flag takes either HQ at even odds, the
    /// bombs mostly guard the side files but not always both, the marshal stands on many
    /// squares, the decoy HQ holds a lieutenant or a captain.
    #[test]
    fn bot_layouts_vary() {
        let n = 1000;
        let mut seen = HashSet::new();
        let (mut left, mut three_mines, mut both_files) = (0, 0, 0);
        let mut bomb_squares: BTreeMap<(u8, u8), usize> = BTreeMap::new();
        let mut marshal_squares: BTreeMap<(u8, u8), usize> = BTreeMap::new();
        let mut decoys: BTreeMap<Option<Role>, usize> = BTreeMap::new();
        let mut r = rng(14);
        for _ in 0..n {
            let d = layout_for_bot(&mut r);
            seen.insert(d.to_string());
            let fc = flag_col(&d);
            left += usize::from(fc == 1);
            let lock = [(5, fc - 1), (5, fc + 1), (4, fc)];
            three_mines += usize::from(lock.iter().all(|&sq| at(&d, sq) == Some(Role::Landmine)));
            let bombs = squares_of(&d, Role::Bomb);
            both_files += usize::from(bombs == [(1, 0), (1, 4)]);
            for b in bombs {
                *bomb_squares.entry(b).or_default() += 1;
            }
            *marshal_squares
                .entry(squares_of(&d, Role::Marshal)[0])
                .or_default() += 1;
            *decoys.entry(at(&d, (5, 4 - fc))).or_default() += 1;
        }
        assert_eq!(seen.len(), n, "distinct layouts");
        assert!((450..=550).contains(&left), "{left}");
        // The standard style always locks the flag with three landmines (the self-play
        // figures in STRENGTH.md: a bomb in the lock lost 0.13 of a point a game).
        assert_eq!(three_mines, n);
        assert!((450..=850).contains(&both_files), "{both_files}");
        for sq in [(1, 0), (1, 4), (1, 2), (2, 1), (2, 3)] {
            assert!(
                bomb_squares.get(&sq).is_some_and(|&k| k >= 50),
                "{bomb_squares:?}"
            );
        }
        let common = marshal_squares.values().filter(|&&k| k >= 20).count();
        assert!(common >= 12, "{marshal_squares:?}");
        assert!(
            marshal_squares.values().all(|&k| k <= 200),
            "{marshal_squares:?}"
        );
        assert_eq!(
            decoys.keys().copied().collect::<Vec<_>>(),
            [Some(Role::Captain), Some(Role::Lieutenant)]
        );
    }

    /// The bots' layouts start a legal game on every board, every seat deploying its own.
    #[test]
    fn bot_layouts_deploy_every_seat_of_every_board() {
        let mut rng = rng(77);
        for board in BoardKind::ALL {
            let mode = if board.is_multi_seat() {
                junqi_core::Mode::Dark
            } else {
                junqi_core::Mode::Open
            };
            let rules = junqi_core::Rules::defaults(board, mode).unwrap();
            let layouts: Vec<Deployment> = board
                .seat_range()
                .map(|_| layout_for_bot(&mut rng))
                .collect();
            let pos = junqi_core::Position::from_deployments(rules, &layouts, 0).unwrap();
            assert_eq!(pos.pieces().count(), 25 * board.seats());
            for seat in board.seat_range() {
                let flag = pos
                    .pieces()
                    .find(|(_, p)| p.seat == seat && p.role == Role::Flag)
                    .unwrap()
                    .0;
                assert!(
                    pos.topology().hqs_of(seat).contains(&flag),
                    "{board} seat {seat}"
                );
            }
        }
    }

    #[test]
    fn casual_layouts_are_legal_varied_and_usually_guarded() {
        let mut seen = HashSet::new();
        let mut r = rng(1);
        let (mut guarded, mut locked, mut held) = (0, 0, 0);
        for _ in 0..1000 {
            let d = casual(&mut r);
            d.validate(BoardKind::TwoPlayer, 0).unwrap();
            seen.insert(d.to_string());
            let fc = flag_col(&d);
            let guards = [(5, fc - 1), (5, fc + 1), (4, fc)];
            let mines = guards
                .iter()
                .filter(|&&sq| at(&d, sq) == Some(Role::Landmine))
                .count();
            guarded += usize::from(mines >= 2);
            locked += usize::from(mines == 3);
            held += usize::from(
                guards
                    .iter()
                    .all(|&sq| matches!(at(&d, sq), Some(Role::Landmine | Role::Bomb))),
            );
        }
        assert!(seen.len() > 990);
        assert!(guarded > 700, "{guarded}");
        assert!((650..900).contains(&locked), "{locked}");
        assert!(held > locked + 40, "{held} {locked}");
    }

    /// Every family's layouts keep the bots' constraints, vary, and look like their family:
    /// where the bombs and the lock's landmines stand.
    #[test]
    fn families_keep_the_constraints_and_their_shape() {
        for (name, _) in FAMILIES {
            let mut r = rng(44);
            let mut seen = HashSet::new();
            let (mut file_bombs, mut centre_bombs, mut lock_bombs) = (0, 0, 0);
            let n = 300;
            for _ in 0..n {
                let d = family_layout(name, &mut r).unwrap();
                let v = violations(&d);
                assert!(v.is_empty(), "{name}: {v:?} in {d}");
                seen.insert(d.to_string());
                let fc = flag_col(&d);
                for b in squares_of(&d, Role::Bomb) {
                    file_bombs += usize::from(matches!(b, (1, 0) | (1, 4)));
                    centre_bombs += usize::from(matches!(b, (1, 2) | (2, 1) | (2, 3)));
                    lock_bombs += usize::from(b == (4, fc) || (b.0 == 5 && b.1.abs_diff(fc) == 1));
                }
            }
            assert!(
                seen.len() >= n - 2,
                "{name}: {} distinct of {n}",
                seen.len()
            );
            match name {
                "flag-fortress" => assert!(file_bombs > centre_bombs && lock_bombs == 0),
                "bomb-ahead" => assert!(centre_bombs == 2 * n && lock_bombs == 0),
                "bomb-by-flag" => assert!(lock_bombs == n && file_bombs + centre_bombs == 0),
                other => panic!("a family without a check: {other}"),
            }
        }
        assert!(family_layout("fortress", &mut rng(1)).is_none());
    }

    #[test]
    fn classics_are_legal() {
        for name in classic_names() {
            let d = classic(name).unwrap();
            for board in BoardKind::ALL {
                for seat in board.seat_range() {
                    d.validate(board, seat).unwrap();
                }
            }
        }
        let p = layout_prior();
        assert_eq!(p[0][0][Role::Landmine as usize], 0.0);
        assert!(p[5][1][Role::Flag as usize] > 0.3);
    }
}
