//! Deployment (布阵, RULES §3) in local coordinates (§2.3): validation with errors that name the
//! square or piece at fault, a seeded random generator, the text form of a layout, and the
//! starting positions of every mode (deployments, or the flip deal).

use crate::json::object;
use crate::options::Rules;
use crate::position::{Cell, Piece, Position};
use crate::role::Role;
use crate::topology::{is_local_camp, Topology};
use crate::types::{BoardKind, Seat};
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{json, Map, Value};
use std::fmt;

/// One seat's layout in local coordinates: `cells[row][col]`, row 0 the front row, row 5 the HQ
/// row, col 0 the seat's own left. Camps are `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deployment {
    /// The pieces by local (row, col).
    pub cells: [[Option<Role>; 5]; 6],
}

/// Why a deployment is not legal. The message names the offending square or piece; squares are
/// held by their names on the board (e.g. `b1`). [`DeploymentError::code`] and
/// [`DeploymentError::args`] give the reason in a form clients can translate (the table
/// "Error codes" of `docs/formats.md`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeploymentError {
    /// The seat is not a seat of the board.
    #[error("seat {seat} does not exist on the {board} board")]
    NoSuchSeat {
        /// The seat asked for.
        seat: Seat,
        /// The board.
        board: BoardKind,
    },
    /// A camp holds a piece (camps start empty).
    #[error("{square} is a camp and must start empty, but holds a {role}")]
    CampNotEmpty {
        /// The camp.
        square: String,
        /// The piece it holds.
        role: Role,
    },
    /// A non-camp square is empty.
    #[error("{square} is empty: all 25 non-camp squares need a piece")]
    SquareEmpty {
        /// The empty square.
        square: String,
    },
    /// The flag stands outside the two headquarters.
    #[error("the flag on {square} must stand in a headquarters ({} or {})", .hqs[0], .hqs[1])]
    FlagNotInHeadquarters {
        /// Where the flag stands.
        square: String,
        /// The seat's two headquarters.
        hqs: [String; 2],
    },
    /// A landmine stands before the last two rows.
    #[error("the landmine on {square} must stand in the last two rows")]
    LandmineNotInLastRows {
        /// Where the landmine stands.
        square: String,
    },
    /// A bomb stands in the front row.
    #[error("the bomb on {square} may not stand in the front row")]
    BombInFrontRow {
        /// Where the bomb stands.
        square: String,
    },
    /// The layout has the wrong number of pieces of a role (the first such role).
    #[error("a deployment needs {want} {role} ({}), this one has {have}", .role.chinese())]
    WrongCount {
        /// The role.
        role: Role,
        /// How many a deployment has.
        want: u8,
        /// How many this one has.
        have: u8,
    },
    /// The text form does not have 6 rows.
    #[error("a deployment has 6 rows separated by '/', got {got}")]
    WrongRowCount {
        /// The number of rows found.
        got: usize,
    },
    /// A row of the text form does not have 5 squares.
    #[error("row {row} of the deployment must have 5 squares, got {text:?}")]
    WrongRowLength {
        /// The row (0 the front row).
        row: usize,
        /// The row as written.
        text: String,
    },
    /// A character of the text form is no role code.
    #[error(
        "unknown piece code {code:?} in row {row}, column {column} (codes: 9…1, B, L, F, '.')"
    )]
    UnknownPieceCode {
        /// The character.
        code: char,
        /// Its row (0 the front row).
        row: usize,
        /// Its column (0 the seat's left).
        column: usize,
    },
    /// Deployments were given for flip play.
    #[error("flip play has no deployment: use Position::deal")]
    FlipHasNoDeployment,
    /// Flip play was asked to deal for rules that are not flip play.
    #[error("only flip play is dealt")]
    DealNeedsFlip,
    /// Not one deployment per seat.
    #[error("the {board} board needs {} deployments, got {got}", .board.seats())]
    WrongDeploymentCount {
        /// The board.
        board: BoardKind,
        /// The number of deployments given.
        got: usize,
    },
    /// The seat to move first does not exist.
    #[error("seat {seat} cannot move first: no such seat")]
    NoSuchFirstSeat {
        /// The seat given.
        seat: Seat,
    },
    /// One seat's deployment is not legal. Its code and args are the inner error's, with `seat`
    /// added.
    #[error("seat {seat}: {error}")]
    OfSeat {
        /// The seat whose deployment is at fault.
        seat: Seat,
        /// What is wrong with it.
        error: Box<DeploymentError>,
    },
}

impl DeploymentError {
    /// The stable code of the reason, e.g. `deploy.camp_not_empty` (for [`OfSeat`], the inner
    /// error's code).
    ///
    /// [`OfSeat`]: DeploymentError::OfSeat
    pub fn code(&self) -> &'static str {
        match self {
            DeploymentError::NoSuchSeat { .. } => "deploy.no_such_seat",
            DeploymentError::CampNotEmpty { .. } => "deploy.camp_not_empty",
            DeploymentError::SquareEmpty { .. } => "deploy.square_empty",
            DeploymentError::FlagNotInHeadquarters { .. } => "deploy.flag_not_in_headquarters",
            DeploymentError::LandmineNotInLastRows { .. } => "deploy.landmine_not_in_last_rows",
            DeploymentError::BombInFrontRow { .. } => "deploy.bomb_in_front_row",
            DeploymentError::WrongCount { .. } => "deploy.wrong_count",
            DeploymentError::WrongRowCount { .. } => "deploy.wrong_row_count",
            DeploymentError::WrongRowLength { .. } => "deploy.wrong_row_length",
            DeploymentError::UnknownPieceCode { .. } => "deploy.unknown_piece_code",
            DeploymentError::FlipHasNoDeployment => "deploy.flip_has_no_deployment",
            DeploymentError::DealNeedsFlip => "deploy.deal_needs_flip",
            DeploymentError::WrongDeploymentCount { .. } => "deploy.wrong_deployment_count",
            DeploymentError::NoSuchFirstSeat { .. } => "deploy.no_such_first_seat",
            DeploymentError::OfSeat { error, .. } => error.code(),
        }
    }

    /// The data of the reason as JSON: squares by name, roles by their interchange name
    /// ([`Role::name`]), boards by name, seats and counts as numbers. [`OfSeat`] gives the inner
    /// error's args with `seat` added.
    ///
    /// [`OfSeat`]: DeploymentError::OfSeat
    pub fn args(&self) -> Map<String, Value> {
        object(match self {
            DeploymentError::NoSuchSeat { seat, board } => {
                json!({"seat": seat, "board": board.name()})
            }
            DeploymentError::CampNotEmpty { square, role } => {
                json!({"square": square, "role": role.name()})
            }
            DeploymentError::SquareEmpty { square }
            | DeploymentError::LandmineNotInLastRows { square }
            | DeploymentError::BombInFrontRow { square } => json!({"square": square}),
            DeploymentError::FlagNotInHeadquarters { square, hqs } => {
                json!({"square": square, "hqs": hqs})
            }
            DeploymentError::WrongCount { role, want, have } => {
                json!({"role": role.name(), "want": want, "have": have})
            }
            DeploymentError::WrongRowCount { got } => json!({"got": got}),
            DeploymentError::WrongRowLength { row, text } => json!({"row": row, "text": text}),
            DeploymentError::UnknownPieceCode { code, row, column } => {
                json!({"code": code.to_string(), "row": row, "column": column})
            }
            DeploymentError::FlipHasNoDeployment | DeploymentError::DealNeedsFlip => json!({}),
            DeploymentError::WrongDeploymentCount { board, got } => {
                json!({"board": board.name(), "want": board.seats(), "got": got})
            }
            DeploymentError::NoSuchFirstSeat { seat } => json!({"seat": seat}),
            DeploymentError::OfSeat { seat, error } => {
                let mut m = error.args();
                m.insert("seat".into(), json!(seat));
                return m;
            }
        })
    }
}

/// Local rows where landmines may stand.
pub const LANDMINE_ROWS: [u8; 2] = [4, 5];

impl Deployment {
    /// Check RULES §3 for `seat` on `board`: 25 pieces on the 25 non-camp squares with the right
    /// counts, the flag in an HQ, landmines in the last two rows, no bomb in the front row.
    /// Errors name squares as the board names them (e.g. `b1`).
    pub fn validate(&self, board: BoardKind, seat: Seat) -> Result<(), DeploymentError> {
        let topo = Topology::get(board, true);
        if seat as usize >= board.seats() {
            return Err(DeploymentError::NoSuchSeat { seat, board });
        }
        let name = |r: u8, c: u8| topo.name(topo.local(seat, r, c)).to_string();
        let mut counts = [0u8; 12];
        for r in 0..6u8 {
            for c in 0..5u8 {
                let cell = self.cells[r as usize][c as usize];
                if is_local_camp(r, c) {
                    if let Some(role) = cell {
                        return Err(DeploymentError::CampNotEmpty {
                            square: name(r, c),
                            role,
                        });
                    }
                    continue;
                }
                let Some(role) = cell else {
                    return Err(DeploymentError::SquareEmpty { square: name(r, c) });
                };
                counts[role as usize] += 1;
                match role {
                    Role::Flag if !(r == 5 && (c == 1 || c == 3)) => {
                        return Err(DeploymentError::FlagNotInHeadquarters {
                            square: name(r, c),
                            hqs: [name(5, 1), name(5, 3)],
                        })
                    }
                    Role::Landmine if r < 4 => {
                        return Err(DeploymentError::LandmineNotInLastRows { square: name(r, c) })
                    }
                    Role::Bomb if r == 0 => {
                        return Err(DeploymentError::BombInFrontRow { square: name(r, c) })
                    }
                    _ => {}
                }
            }
        }
        for role in Role::ALL {
            let (have, want) = (counts[role as usize], role.count());
            if have != want {
                return Err(DeploymentError::WrongCount { role, want, have });
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
            return Err(DeploymentError::WrongRowCount { got: rows.len() });
        }
        let mut cells = [[None; 5]; 6];
        for (r, row) in rows.iter().enumerate() {
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != 5 {
                return Err(DeploymentError::WrongRowLength {
                    row: r,
                    text: row.to_string(),
                });
            }
            for (c, &ch) in chars.iter().enumerate() {
                cells[r][c] = if ch == '.' {
                    None
                } else {
                    Some(
                        Role::from_code(ch).ok_or(DeploymentError::UnknownPieceCode {
                            code: ch,
                            row: r,
                            column: c,
                        })?,
                    )
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
            return Err(DeploymentError::FlipHasNoDeployment);
        }
        let seats = rules.seats();
        if deployments.len() != seats {
            return Err(DeploymentError::WrongDeploymentCount {
                board: rules.board,
                got: deployments.len(),
            });
        }
        if first as usize >= seats {
            return Err(DeploymentError::NoSuchFirstSeat { seat: first });
        }
        for (seat, d) in deployments.iter().enumerate() {
            d.validate(rules.board, seat as Seat)
                .map_err(|e| DeploymentError::OfSeat {
                    seat: seat as Seat,
                    error: Box::new(e),
                })?;
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
            return Err(DeploymentError::DealNeedsFlip);
        }
        if first > 1 {
            return Err(DeploymentError::NoSuchFirstSeat { seat: first });
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
        let e = d.validate(BoardKind::TwoPlayer, 0).unwrap_err();
        assert_eq!(
            e,
            DeploymentError::LandmineNotInLastRows {
                square: "a6".into()
            }
        );
        assert!(e.to_string().contains("landmine on a6"), "{e}");
        let e = d.validate(BoardKind::FourPlayer, 1).unwrap_err();
        assert!(e.to_string().contains("landmine on l7"), "{e}");
        let mut d = Deployment::random(&mut rng);
        d.cells[1][1] = Some(Role::Engineer);
        let e = d.validate(BoardKind::TwoPlayer, 1).unwrap_err();
        assert_eq!(
            e,
            DeploymentError::CampNotEmpty {
                square: "d8".into(),
                role: Role::Engineer
            }
        );
        assert!(e.to_string().contains("d8 is a camp"), "{e}");
        let mut d = Deployment::random(&mut rng);
        let flag = (0..6)
            .flat_map(|r| (0..5).map(move |c| (r, c)))
            .find(|&(r, c)| d.cells[r][c] == Some(Role::Flag))
            .unwrap();
        d.cells[flag.0][flag.1] = Some(Role::Engineer);
        let e = d.validate(BoardKind::TwoPlayer, 0).unwrap_err();
        assert!(e.to_string().contains("needs 3 engineer"), "{e}");
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
