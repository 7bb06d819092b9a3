//! Deployment generation (布阵): seeded, legal, varied layouts shaped the way players lay out
//! their pieces — the flag in an HQ with landmines guarding it, bombs behind the front row near
//! the routes an attacker takes, strong pieces on the rail where they can strike, engineers
//! spread out — plus a few named classic layouts.
//!
//! Also the statistics of the generator ([`layout_prior`]): how often each role stands on each
//! local square, which the belief uses as a prior for where the enemy put what.

#![allow(clippy::needless_range_loop)]

use junqi_core::topology::is_local_camp;
use junqi_core::{Deployment, Role};
use rand::Rng;
use std::sync::OnceLock;

/// Named classic layouts (text form of [`Deployment::from_text`]: front row first, HQ row last).
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

/// A seeded, legal, varied layout in the style players use. Every call with the same random
/// state gives the same layout.
pub fn generate(rng: &mut impl Rng) -> Deployment {
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

/// A layout for a bot: usually [`generate`]d, sometimes a classic one.
pub fn layout_for_bot(rng: &mut impl Rng) -> Deployment {
    if rng.gen_bool(0.1) {
        let (_, t) = CLASSIC_LAYOUTS[rng.gen_range(0..CLASSIC_LAYOUTS.len())];
        Deployment::from_text(t).expect("classic layouts are valid")
    } else {
        generate(rng)
    }
}

/// `prior[row][col][role]`: the probability that a layout holds `role` on local (row, col),
/// averaged half from [`generate`] and half from uniformly random legal layouts (so that the
/// prior is never zero where a role may legally stand). Computed once.
pub fn layout_prior() -> &'static [[[f64; 12]; 5]; 6] {
    static PRIOR: OnceLock<[[[f64; 12]; 5]; 6]> = OnceLock::new();
    PRIOR.get_or_init(|| {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x5eed);
        let mut p = [[[0.0f64; 12]; 5]; 6];
        let n = 3000;
        for i in 0..2 * n {
            let d = if i % 2 == 0 {
                generate(&mut rng)
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
