//! Deployment of land-sea-air (LANDSEAAIR §3): where each role may start, the validation of one
//! side's full setup with errors that name the square or piece at fault, and a seeded random
//! legal deployment for either piece set.
//!
//! The start squares of a side, by role ([`start_squares`]):
//! - `flag`: one of the side's three cities;
//! - `fort`: the side's harbour;
//! - ships: the side's six anchors (one stays empty);
//! - planes: the side's two airfields;
//! - `landmine`: stations or cities of local rows 4–5;
//! - `bomb`, `trap`: stations or cities outside local row 0 (the front row, bridgeheads
//!   included);
//! - every other land piece: any station or city of the side.
//!
//! Camps start empty: no role may start on one. One piece per square; the flag takes one city,
//! the other two are open to the land pieces.
//!
//! # Where the rule book is silent
//! - §3 marks the trap's front-row ban as our choice; it is applied exactly like the bomb's.
//! - A city is open to landmines (they are in local row 5), bombs and traps like any station
//!   (§3 says "stations or cities" for the landmine and nothing narrower for the others).
//! - The random generator picks each square uniformly among the free allowed ones, the most
//!   constrained roles first (flag, fort, ships, planes, landmines, bombs and traps, then the
//!   rest), which always succeeds; it is not uniform over all legal deployments.

use super::board::{Board, Side, Square, SquareSet, SquareType, SQUARES};
use super::pieces::{Arm, PieceSet, Role, ROLES};
use rand::seq::SliceRandom;
use rand::Rng;
use std::fmt;

/// The squares a piece of `role` may start on for `side` (§3).
pub fn start_squares(side: Side, role: Role) -> SquareSet {
    let b = Board::get();
    let stations = b
        .of_side(side, SquareType::Station)
        .union(b.of_side(side, SquareType::City));
    match role {
        Role::Flag => b.of_side(side, SquareType::City),
        Role::Fort => SquareSet::EMPTY.with(b.harbour(side)),
        Role::Landmine => stations
            .iter()
            .filter(|&s| b.local(s).is_some_and(|l| l.row() >= 4))
            .collect(),
        Role::Bomb | Role::Trap => stations
            .iter()
            .filter(|&s| b.local(s).is_some_and(|l| l.row() != 0))
            .collect(),
        r => match r.arm() {
            Arm::Sea => b.anchors(side),
            Arm::Air => b.of_side(side, SquareType::Airfield),
            Arm::Land => stations,
        },
    }
}

/// What §3 allows a role, in words, for error messages.
fn where_allowed(role: Role) -> &'static str {
    match role {
        Role::Flag => "in one of its side's cities",
        Role::Fort => "on its side's harbour",
        Role::Landmine => "on a station or city of the last two rows (local rows 4–5)",
        Role::Bomb | Role::Trap => {
            "on a station or city of its side outside the front row (local row 0)"
        }
        r => match r.arm() {
            Arm::Sea => "on one of its side's anchors",
            Arm::Air => "on one of its side's airfields",
            Arm::Land => "on a station or city of its side",
        },
    }
}

/// One side's layout: which role starts on which square. Squares outside the side's own start
/// squares can be written down, but [`Deployment::validate`] rejects them.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Deployment {
    side: Side,
    cells: [Option<Role>; SQUARES],
}

impl fmt::Debug for Deployment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .key(&"side")
            .value(&self.side)
            .entries(self.pieces().map(|(s, r)| (s.to_string(), r)))
            .finish()
    }
}

/// Why a deployment is not legal (§3). The message names the square or the role at fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeployError {
    /// A piece stands on a square its role may not start on.
    WrongSquare {
        /// The role.
        role: Role,
        /// Where it stands.
        square: Square,
        /// The side deploying.
        side: Side,
    },
    /// The layout has the wrong number of pieces of a role (the first such role, in §1 order).
    WrongCount {
        /// The role.
        role: Role,
        /// How many the piece set has.
        want: u8,
        /// How many the layout has.
        have: u8,
    },
    /// A deployment of one side was given for the other.
    WrongSide {
        /// The side expected.
        want: Side,
        /// The side of the deployment.
        have: Side,
    },
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::South => "South",
        Side::North => "North",
    }
}

impl fmt::Display for DeployError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DeployError::WrongSquare { role, square, side } => {
                let b = Board::get();
                let what = if b.of_type(SquareType::Camp).contains(square) {
                    " (camps start empty)".to_string()
                } else if b.side(square).is_some_and(|s| s != side) {
                    " (the enemy's half)".to_string()
                } else {
                    format!(" (a {})", b.square_type(square).name())
                };
                write!(
                    f,
                    "the {role} ({}) on {square}{what} must start {} ({})",
                    role.chinese(),
                    where_allowed(role),
                    side_name(side),
                )
            }
            DeployError::WrongCount { role, want, have } => write!(
                f,
                "a deployment needs {want} {role} ({}), this one has {have}",
                role.chinese()
            ),
            DeployError::WrongSide { want, have } => write!(
                f,
                "a deployment for {} was given where {} deploys",
                side_name(have),
                side_name(want)
            ),
        }
    }
}

impl std::error::Error for DeployError {}

impl Deployment {
    /// An empty layout for a side.
    pub fn empty(side: Side) -> Deployment {
        Deployment {
            side,
            cells: [None; SQUARES],
        }
    }

    /// The side deploying.
    pub fn side(&self) -> Side {
        self.side
    }

    /// Put a role on a square (replacing what was there), returning the layout for chaining.
    pub fn with(mut self, square: Square, role: Role) -> Deployment {
        self.cells[square.index()] = Some(role);
        self
    }

    /// Put a role on a square, or clear it with `None`.
    pub fn set(&mut self, square: Square, role: Option<Role>) {
        self.cells[square.index()] = role;
    }

    /// The role on a square, if any.
    pub fn at(&self, square: Square) -> Option<Role> {
        self.cells[square.index()]
    }

    /// Every (square, role), lowest square first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Role)> + '_ {
        Square::all().filter_map(|s| self.cells[s.index()].map(|r| (s, r)))
    }

    /// Check the layout against §3 for a piece set: every piece on one of its start squares
    /// ([`start_squares`]), squares checked lowest first, then the count of every role.
    pub fn validate(&self, set: PieceSet) -> Result<(), DeployError> {
        let mut counts = [0u8; ROLES];
        for (square, role) in self.pieces() {
            if !start_squares(self.side, role).contains(square) {
                return Err(DeployError::WrongSquare {
                    role,
                    square,
                    side: self.side,
                });
            }
            counts[role as usize] += 1;
        }
        for role in Role::ALL {
            let (want, have) = (set.count(role), counts[role as usize]);
            if want != have {
                return Err(DeployError::WrongCount { role, want, have });
            }
        }
        Ok(())
    }

    /// A random legal deployment of `set` for `side` (see the module doc for the order).
    pub fn random(side: Side, set: PieceSet, rng: &mut impl Rng) -> Deployment {
        let mut d = Deployment::empty(side);
        let mut used = SquareSet::EMPTY;
        let mut buf = [Square::from_index(0).expect("a1"); SQUARES];
        let mut place = |d: &mut Deployment, role: Role, rng: &mut dyn rand::RngCore| {
            let mut n = 0;
            for s in start_squares(side, role).difference(used).iter() {
                buf[n] = s;
                n += 1;
            }
            assert!(n > 0, "§3 always leaves room for a {role}");
            let s = buf[rng.gen_range(0..n)];
            used.insert(s);
            d.set(s, Some(role));
        };
        // The most constrained roles first; the rest in random order.
        let first = [
            Role::Flag,
            Role::Fort,
            Role::Battleship,
            Role::Cruiser,
            Role::Gunboat,
            Role::Destroyer,
            Role::Submarine,
            Role::Fighter,
            Role::ScoutPlane,
            Role::Landmine,
            Role::Bomb,
            Role::Trap,
        ];
        for role in first {
            for _ in 0..set.count(role) {
                place(&mut d, role, rng);
            }
        }
        let mut rest = [Role::Marshal; 64];
        let mut n = 0;
        for role in Role::ALL.into_iter().filter(|r| !first.contains(r)) {
            for _ in 0..set.count(role) {
                rest[n] = role;
                n += 1;
            }
        }
        rest[..n].shuffle(rng);
        for &role in &rest[..n] {
            place(&mut d, role, rng);
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    fn random(side: Side, set: PieceSet, seed: u64) -> Deployment {
        Deployment::random(side, set, &mut SmallRng::seed_from_u64(seed))
    }

    #[test]
    fn lsa_deploy_random_is_legal_for_both_sets_and_sides() {
        for set in PieceSet::ALL {
            for side in Side::BOTH {
                for seed in 0..200 {
                    let d = random(side, set, seed);
                    assert_eq!(d.validate(set), Ok(()), "{set:?} {side:?} {seed}: {d:?}");
                    assert_eq!(d.pieces().count(), set.total());
                    assert_eq!(d.side(), side);
                }
            }
        }
        // Seeded: the same seed gives the same layout, another seed (almost surely) another.
        let a = random(Side::South, PieceSet::Seed, 5);
        assert_eq!(a, random(Side::South, PieceSet::Seed, 5));
        assert_ne!(a, random(Side::South, PieceSet::Seed, 6));
    }

    #[test]
    fn lsa_deploy_start_squares() {
        let names = |s: SquareSet| {
            s.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(names(start_squares(Side::South, Role::Flag)), "c1 e1 g1");
        assert_eq!(names(start_squares(Side::North, Role::Flag)), "c15 e15 g15");
        assert_eq!(names(start_squares(Side::South, Role::Fort)), "e6");
        assert_eq!(names(start_squares(Side::North, Role::Fort)), "e10");
        assert_eq!(
            names(start_squares(Side::South, Role::Submarine)),
            "b7 c7 d7 f7 g7 h7"
        );
        assert_eq!(
            names(start_squares(Side::North, Role::Battleship)),
            "b9 c9 d9 f9 g9 h9"
        );
        assert_eq!(names(start_squares(Side::South, Role::Fighter)), "a1 i1");
        assert_eq!(
            names(start_squares(Side::North, Role::ScoutPlane)),
            "a15 i15"
        );
        // Landmines: ranks 1–2 without airfields = 7 + 9 squares.
        let mines = start_squares(Side::South, Role::Landmine);
        assert_eq!(mines.len(), 16);
        assert!(mines.iter().all(|s| s.rank() <= 2));
        assert!(mines.contains(sq("e1")) && !mines.contains(sq("a1")));
        let north_mines = start_squares(Side::North, Role::Landmine);
        assert!(north_mines.iter().all(|s| s.rank() >= 14));
        // Bombs and traps: 46 stations + 3 cities but the 8 stations of the front row.
        for role in [Role::Bomb, Role::Trap] {
            let s = start_squares(Side::South, role);
            assert_eq!(s.len(), 41);
            assert!(!s.contains(sq("a6")) && !s.contains(sq("e6")) && s.contains(sq("e5")));
        }
        let general = start_squares(Side::South, Role::General);
        assert_eq!(general.len(), 49);
        for bad in ["c3", "g3", "e6", "a1", "b7", "a7", "c10"] {
            assert!(!general.contains(sq(bad)), "{bad}");
        }
        assert!(general.contains(sq("a6")) && general.contains(sq("c1")));
        // The rule is symmetric under the half-turn.
        for role in Role::ALL {
            let s = start_squares(Side::South, role);
            let n: SquareSet = s.iter().map(Square::rotated).collect();
            assert_eq!(n, start_squares(Side::North, role), "{role}");
        }
    }

    /// Move the first piece of `role` to `to`.
    fn moved(mut d: Deployment, role: Role, to: Square) -> Deployment {
        let (from, _) = d.pieces().find(|&(_, r)| r == role).unwrap();
        let displaced = d.at(to);
        d.set(to, Some(role));
        d.set(from, displaced);
        d
    }

    /// Move the first piece of `role` to `to`, taking off what stood there (so that the only
    /// misplaced piece is this one; the count error comes after the square errors).
    fn misplaced(mut d: Deployment, role: Role, to: Square) -> Deployment {
        let (from, _) = d.pieces().find(|&(_, r)| r == role).unwrap();
        d.set(from, None);
        d.set(to, Some(role));
        d
    }

    fn wrong_square(d: Deployment, set: PieceSet, role: Role, to: &str) -> String {
        let d = misplaced(d, role, sq(to));
        match d.validate(set) {
            Err(
                e @ DeployError::WrongSquare {
                    role: r, square, ..
                },
            ) => {
                assert_eq!((r, square), (role, sq(to)), "{e}");
                e.to_string()
            }
            other => panic!("{role} on {to}: {other:?}"),
        }
    }

    #[test]
    fn lsa_deploy_flag_in_a_city() {
        for set in PieceSet::ALL {
            let d = random(Side::South, set, 1);
            let msg = wrong_square(d, set, Role::Flag, "b1");
            assert!(msg.contains("b1") && msg.contains("cities"), "{msg}");
            wrong_square(d, set, Role::Flag, "c3");
        }
    }

    #[test]
    fn lsa_deploy_fort_on_the_harbour() {
        let d = random(Side::North, PieceSet::Seed, 2);
        let msg = wrong_square(d, PieceSet::Seed, Role::Fort, "d10");
        assert!(msg.contains("harbour"), "{msg}");
        // No other piece may take the harbour.
        let mut d = random(Side::South, PieceSet::Taiwan, 2);
        let (s, _) = d.pieces().find(|&(_, r)| r == Role::Tank).unwrap();
        d.set(s, None);
        d.set(sq("e6"), Some(Role::Tank));
        assert!(matches!(
            d.validate(PieceSet::Taiwan),
            Err(DeployError::WrongSquare {
                role: Role::Tank,
                ..
            })
        ));
    }

    #[test]
    fn lsa_deploy_ships_on_anchors_planes_on_airfields() {
        for set in PieceSet::ALL {
            let d = random(Side::South, set, 3);
            wrong_square(d, set, Role::Destroyer, "e7");
            wrong_square(d, set, Role::Cruiser, "c9");
            wrong_square(d, set, Role::Submarine, "a7");
            let msg = wrong_square(d, set, Role::Fighter, "c2");
            assert!(msg.contains("airfields"), "{msg}");
            wrong_square(d, set, Role::ScoutPlane, "a15");
            // A land piece on an anchor or an airfield.
            let empty_anchor = start_squares(Side::South, Role::Gunboat)
                .iter()
                .find(|&s| d.at(s).is_none())
                .unwrap();
            let mut e = d;
            let (from, _) = d.pieces().find(|&(_, r)| r == Role::Engineer).unwrap();
            e.set(from, None);
            e.set(empty_anchor, Some(Role::Engineer));
            assert!(matches!(
                e.validate(set),
                Err(DeployError::WrongSquare {
                    role: Role::Engineer,
                    ..
                })
            ));
        }
    }

    #[test]
    fn lsa_deploy_landmines_in_the_last_two_rows() {
        for set in PieceSet::ALL {
            let d = random(Side::South, set, 4);
            let msg = wrong_square(d, set, Role::Landmine, "d3");
            assert!(msg.contains("last two rows"), "{msg}");
            let d = random(Side::North, set, 4);
            wrong_square(d, set, Role::Landmine, "d13");
            assert_eq!(moved(d, Role::Landmine, sq("b14")).validate(set), Ok(()));
        }
    }

    #[test]
    fn lsa_deploy_bomb_and_trap_not_in_the_front_row() {
        for set in PieceSet::ALL {
            for role in [Role::Bomb, Role::Trap] {
                let d = random(Side::South, set, 5);
                let msg = wrong_square(d, set, role, "a6");
                assert!(msg.contains("front row"), "{msg}");
                wrong_square(d, set, role, "d6");
                let d = random(Side::North, set, 5);
                wrong_square(d, set, role, "c10");
                assert_eq!(moved(d, role, sq("c11")).validate(set), Ok(()));
            }
        }
    }

    #[test]
    fn lsa_deploy_camps_start_empty_and_own_half_only() {
        for set in PieceSet::ALL {
            let d = random(Side::South, set, 6);
            let msg = wrong_square(d, set, Role::Major, "c3");
            assert!(msg.contains("camps start empty"), "{msg}");
            let msg = wrong_square(d, set, Role::Major, "c12");
            assert!(msg.contains("enemy"), "{msg}");
            wrong_square(d, set, Role::Major, "a8");
        }
    }

    #[test]
    fn lsa_deploy_counts() {
        let d = random(Side::South, PieceSet::Seed, 7);
        // A seed layout is not a Taiwanese one: brigadiers are not in that set.
        assert!(matches!(
            d.validate(PieceSet::Taiwan),
            Err(DeployError::WrongCount { .. })
        ));
        let mut e = d;
        let (s, _) = d.pieces().find(|&(_, r)| r == Role::Captain).unwrap();
        e.set(s, None);
        let err = e.validate(PieceSet::Seed).unwrap_err();
        assert_eq!(
            err,
            DeployError::WrongCount {
                role: Role::Captain,
                want: 3,
                have: 2
            }
        );
        assert!(err.to_string().contains("captain"), "{err}");
        e.set(s, Some(Role::Marshal));
        assert_eq!(
            e.validate(PieceSet::Seed),
            Err(DeployError::WrongCount {
                role: Role::Marshal,
                want: 1,
                have: 2
            })
        );
        assert!(matches!(
            Deployment::empty(Side::North).validate(PieceSet::Taiwan),
            Err(DeployError::WrongCount {
                role: Role::Marshal,
                want: 1,
                have: 0
            })
        ));
    }
}
