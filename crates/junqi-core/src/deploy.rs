//! Deployment (布阵, RULES §3) in local coordinates (§2.3): validation with errors that name the
//! square or piece at fault, a seeded random generator, the text form of a layout, and the
//! starting positions of every mode (deployments, or the flip deal).

use crate::options::Rules;
use crate::position::{Cell, Piece, Position};
use crate::role::Role;
use crate::topology::{is_local_camp, Topology};
use crate::types::{BoardKind, Seat};
use rand::seq::SliceRandom;
use rand::Rng;
use std::fmt;

/// One seat's layout in local coordinates: `cells[row][col]`, row 0 the front row, row 5 the HQ
/// row, col 0 the seat's own left. Camps are `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deployment {
    /// The pieces by local (row, col).
    pub cells: [[Option<Role>; 5]; 6],
}

/// Why a deployment is not legal. The message names the offending square or piece.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DeploymentError(pub String);

/// Local rows where landmines may stand.
pub const LANDMINE_ROWS: [u8; 2] = [4, 5];

impl Deployment {
    /// Check RULES §3 for `seat` on `board`: 25 pieces on the 25 non-camp squares with the right
    /// counts, the flag in an HQ, landmines in the last two rows, no bomb in the front row.
    /// Errors name squares as the board names them (e.g. `b1`).
    pub fn validate(&self, board: BoardKind, seat: Seat) -> Result<(), DeploymentError> {
        let topo = Topology::get(board, true);
        if seat as usize >= board.seats() {
            return Err(DeploymentError(format!(
                "seat {seat} does not exist on the {board} board"
            )));
        }
        let name = |r: u8, c: u8| topo.name(topo.local(seat, r, c)).to_string();
        let mut counts = [0u8; 12];
        for r in 0..6u8 {
            for c in 0..5u8 {
                let cell = self.cells[r as usize][c as usize];
                if is_local_camp(r, c) {
                    if let Some(role) = cell {
                        return Err(DeploymentError(format!(
                            "{} is a camp and must start empty, but holds a {role}",
                            name(r, c)
                        )));
                    }
                    continue;
                }
                let Some(role) = cell else {
                    return Err(DeploymentError(format!(
                        "{} is empty: all 25 non-camp squares need a piece",
                        name(r, c)
                    )));
                };
                counts[role as usize] += 1;
                match role {
                    Role::Flag if !(r == 5 && (c == 1 || c == 3)) => {
                        return Err(DeploymentError(format!(
                            "the flag on {} must stand in a headquarters ({} or {})",
                            name(r, c),
                            name(5, 1),
                            name(5, 3)
                        )))
                    }
                    Role::Landmine if r < 4 => {
                        return Err(DeploymentError(format!(
                            "the landmine on {} must stand in the last two rows",
                            name(r, c)
                        )))
                    }
                    Role::Bomb if r == 0 => {
                        return Err(DeploymentError(format!(
                            "the bomb on {} may not stand in the front row",
                            name(r, c)
                        )))
                    }
                    _ => {}
                }
            }
        }
        for role in Role::ALL {
            let (have, want) = (counts[role as usize], role.count());
            if have != want {
                return Err(DeploymentError(format!(
                    "a deployment needs {want} {role} ({}), this one has {have}",
                    role.chinese()
                )));
            }
        }
        Ok(())
    }

    /// A uniformly random legal deployment: the flag in one of the two HQs, the landmines among
    /// the remaining squares of the last two rows, the bombs off the front row, the rest anywhere.
    pub fn random(rng: &mut impl Rng) -> Deployment {
        let mut cells = [[None; 5]; 6];
        let mut free: Vec<(u8, u8)> = (0..6u8)
            .flat_map(|r| (0..5u8).map(move |c| (r, c)))
            .filter(|&(r, c)| !is_local_camp(r, c))
            .collect();
        let mut place =
            |role: Role, n: u8, allowed: &dyn Fn(u8, u8) -> bool, rng: &mut dyn rand::RngCore| {
                for _ in 0..n {
                    let options: Vec<usize> = (0..free.len())
                        .filter(|&i| allowed(free[i].0, free[i].1))
                        .collect();
                    let i = options[rng.gen_range(0..options.len())];
                    let (r, c) = free.swap_remove(i);
                    cells[r as usize][c as usize] = Some(role);
                }
            };
        place(Role::Flag, 1, &|r, c| r == 5 && (c == 1 || c == 3), rng);
        place(Role::Landmine, 3, &|r, _| r >= 4, rng);
        place(Role::Bomb, 2, &|r, _| r >= 1, rng);
        let mut rest: Vec<Role> = Role::ALL
            .iter()
            .filter(|r| !matches!(r, Role::Flag | Role::Landmine | Role::Bomb))
            .flat_map(|&r| std::iter::repeat_n(r, r.count() as usize))
            .collect();
        rest.shuffle(rng);
        for (&(r, c), role) in free.iter().zip(rest) {
            cells[r as usize][c as usize] = Some(role);
        }
        Deployment { cells }
    }

    /// Parse the text form: six rows from the front row to the HQ row, separated by `/`, each
    /// five role codes ([`Role::code`]) with `.` at the camps, e.g.
    /// `33221/4.5.1/69.78/B.6.5/L2BL4/7FL1L`... (see `docs/formats.md`).
    pub fn from_text(s: &str) -> Result<Deployment, DeploymentError> {
        let rows: Vec<&str> = s.trim().split('/').collect();
        if rows.len() != 6 {
            return Err(DeploymentError(format!(
                "a deployment has 6 rows separated by '/', got {}",
                rows.len()
            )));
        }
        let mut cells = [[None; 5]; 6];
        for (r, row) in rows.iter().enumerate() {
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != 5 {
                return Err(DeploymentError(format!(
                    "row {r} of the deployment must have 5 squares, got {:?}",
                    row
                )));
            }
            for (c, &ch) in chars.iter().enumerate() {
                cells[r][c] = if ch == '.' {
                    None
                } else {
                    Some(Role::from_code(ch).ok_or_else(|| {
                        DeploymentError(format!("unknown piece code {ch:?} in row {r}, column {c} (codes: 9…1, B, L, F, '.')"))
                    })?)
                };
            }
        }
        Ok(Deployment { cells })
    }
}

impl fmt::Display for Deployment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, row) in self.cells.iter().enumerate() {
            if r > 0 {
                f.write_str("/")?;
            }
            for cell in row {
                write!(f, "{}", cell.map_or('.', |r| r.code()))?;
            }
        }
        Ok(())
    }
}

impl Position {
    /// The starting position of a dark, open or half-open game: each seat's deployment placed,
    /// `first` to move. Every deployment is validated first; nothing is built on an error.
    pub fn from_deployments(
        rules: Rules,
        deployments: &[Deployment],
        first: Seat,
    ) -> Result<Position, DeploymentError> {
        if rules.is_flip() {
            return Err(DeploymentError(
                "flip play has no deployment: use Position::deal".into(),
            ));
        }
        let seats = rules.seats();
        if deployments.len() != seats {
            return Err(DeploymentError(format!(
                "the {} board needs {seats} deployments, got {}",
                rules.board,
                deployments.len()
            )));
        }
        if first as usize >= seats {
            return Err(DeploymentError(format!(
                "seat {first} cannot move first: no such seat"
            )));
        }
        for (seat, d) in deployments.iter().enumerate() {
            d.validate(rules.board, seat as Seat)
                .map_err(|e| DeploymentError(format!("seat {seat}: {e}")))?;
        }
        let mut pos = Position::empty(rules);
        let topo = pos.topo;
        for (seat, d) in deployments.iter().enumerate() {
            for r in 0..6u8 {
                for c in 0..5u8 {
                    if let Some(role) = d.cells[r as usize][c as usize] {
                        let sq = topo.local(seat as Seat, r, c);
                        pos.put(
                            sq,
                            Cell::new(
                                Piece {
                                    role,
                                    seat: seat as Seat,
                                    face_down: false,
                                },
                                false,
                            ),
                        );
                    }
                }
            }
        }
        pos.to_move = first;
        Ok(pos)
    }

    /// The starting position of flip play: all 50 pieces shuffled face down onto the 50 non-camp
    /// squares, `first` to move.
    pub fn deal(
        rules: Rules,
        first: Seat,
        rng: &mut impl Rng,
    ) -> Result<Position, DeploymentError> {
        if !rules.is_flip() {
            return Err(DeploymentError("only flip play is dealt".into()));
        }
        if first > 1 {
            return Err(DeploymentError(format!(
                "seat {first} cannot move first: no such seat"
            )));
        }
        let mut pos = Position::empty(rules);
        let topo = pos.topo;
        let mut pieces: Vec<Piece> = (0..2u8)
            .flat_map(|seat| {
                Role::ALL.iter().flat_map(move |&role| {
                    std::iter::repeat_n(
                        Piece {
                            role,
                            seat,
                            face_down: true,
                        },
                        role.count() as usize,
                    )
                })
            })
            .collect();
        pieces.shuffle(rng);
        let squares = topo
            .squares()
            .filter(|&s| topo.kind(s) != crate::topology::SquareKind::Camp);
        for (sq, p) in squares.zip(pieces) {
            pos.put(sq, Cell::new(p, false));
        }
        pos.to_move = first;
        Ok(pos)
    }

    /// A random starting position for these rules: random deployments (or the flip deal), seat 0
    /// to move.
    pub fn random_start(rules: Rules, rng: &mut impl Rng) -> Position {
        if rules.is_flip() {
            Position::deal(rules, 0, rng).expect("flip rules")
        } else {
            let ds: Vec<Deployment> = (0..rules.seats())
                .map(|_| Deployment::random(rng))
                .collect();
            Position::from_deployments(rules, &ds, 0).expect("random deployments are legal")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Mode;
    use rand::SeedableRng;

    #[test]
    fn random_deployments_are_legal_and_round_trip() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for _ in 0..500 {
            let d = Deployment::random(&mut rng);
            for board in [BoardKind::TwoPlayer, BoardKind::FourPlayer] {
                for seat in 0..board.seats() as u8 {
                    d.validate(board, seat).unwrap();
                }
            }
            assert_eq!(Deployment::from_text(&d.to_string()).unwrap(), d);
        }
    }

    #[test]
    fn errors_name_the_square() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        let mut d = Deployment::random(&mut rng);
        // Put a landmine in the front row by swapping with whatever is at (0, 0).
        let (mr, mc) = (4..6)
            .flat_map(|r| (0..5).map(move |c| (r, c)))
            .find(|&(r, c)| d.cells[r][c] == Some(Role::Landmine))
            .unwrap();
        let front = d.cells[0][0];
        d.cells[0][0] = Some(Role::Landmine);
        d.cells[mr][mc] = front;
        let e = d.validate(BoardKind::TwoPlayer, 0).unwrap_err().0;
        assert!(e.contains("landmine on a6"), "{e}");
        let e = d.validate(BoardKind::FourPlayer, 1).unwrap_err().0;
        assert!(e.contains("landmine on l7"), "{e}");
        let mut d = Deployment::random(&mut rng);
        d.cells[1][1] = Some(Role::Engineer);
        assert!(d
            .validate(BoardKind::TwoPlayer, 1)
            .unwrap_err()
            .0
            .contains("d8 is a camp"));
        let mut d = Deployment::random(&mut rng);
        let flag = (0..6)
            .flat_map(|r| (0..5).map(move |c| (r, c)))
            .find(|&(r, c)| d.cells[r][c] == Some(Role::Flag))
            .unwrap();
        d.cells[flag.0][flag.1] = Some(Role::Engineer);
        let e = d.validate(BoardKind::TwoPlayer, 0).unwrap_err().0;
        assert!(e.contains("needs 3 engineer"), "{e}");
    }

    #[test]
    fn deal_fills_the_non_camp_squares() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let rules = Rules::defaults(BoardKind::TwoPlayer, Mode::Flip).unwrap();
        let pos = Position::deal(rules, 0, &mut rng).unwrap();
        assert_eq!(pos.pieces().count(), 50);
        assert!(pos.pieces().all(|(_, p)| p.face_down));
        assert!(pos
            .legal_actions()
            .iter()
            .all(|a| matches!(a, crate::Action::Flip(_))));
        assert_eq!(pos.legal_actions().len(), 50);
    }
}
