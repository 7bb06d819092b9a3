//! Static evaluation shared by the bots: piece values, who is an enemy, and the evaluation of a
//! full (determinized) position from one side's point of view.

use junqi_core::types::team_of;
use junqi_core::{Mode, Observation, Position, Role, Seat, SquareKind, Topology};

/// Material value of each role (indexed by `role as usize`).
pub const VALUES: [f64; 12] = [
    10.0, // marshal
    8.0,  // general
    6.0,  // major general
    4.5,  // brigadier
    3.5,  // colonel
    2.5,  // major
    2.0,  // captain
    1.5,  // lieutenant
    2.5,  // engineer (clears landmines, runs the rail)
    5.0,  // bomb
    2.5,  // landmine
    30.0, // flag (its loss ends the game; this is only for expectations)
];

/// The score of a won game (minus: lost).
pub const WIN: f64 = 10_000.0;

/// Value of a role.
#[inline]
pub fn value(r: Role) -> f64 {
    VALUES[r as usize]
}

/// The owner index (seat, or flip colour) `seat` plays, if known.
pub fn my_owner(obs: &Observation, seat: Seat) -> Option<u8> {
    if obs.rules.mode == Mode::Flip {
        obs.flip_colours.map(|c| c[seat as usize])
    } else {
        Some(seat)
    }
}

/// Whether pieces of `owner` are enemies of `seat` (flip play: of the other colour, once
/// colours are settled).
pub fn is_enemy(obs: &Observation, seat: Seat, owner: u8) -> bool {
    if obs.rules.mode == Mode::Flip {
        my_owner(obs, seat).is_some_and(|c| c != owner)
    } else {
        team_of(obs.rules.board, owner) != team_of(obs.rules.board, seat)
    }
}

/// How far a square lies towards the enemy, 0 (own back row) to about 1 (enemy back row), for
/// pieces of `owner`.
pub fn advance(topo: &Topology, owner: u8, sq: junqi_core::Square) -> f64 {
    match topo.home(sq) {
        Some(l) if l.seat == owner => (5 - l.row) as f64 / 11.0,
        Some(l) => (6 + l.row) as f64 / 11.0,
        None => 0.55,
    }
}

/// Evaluate a full position for the side of `seat` (its team in four-player play): the game's
/// result if it is over, else material, plus small terms for advancing and for enemy pieces
/// near one's flag, shrunk towards a draw as the quiet-plies limit nears.
pub fn evaluate(pos: &Position, seat: Seat) -> f64 {
    let board = pos.rules().board;
    let my_team = team_of(board, seat);
    if let Some(o) = pos.outcome() {
        return match o {
            junqi_core::Outcome::Win { winners, .. } => {
                let won = (0..4u8).any(|s| winners >> s & 1 != 0 && team_of(board, s) == my_team);
                if won {
                    WIN - pos.plies() as f64
                } else {
                    -WIN + pos.plies() as f64
                }
            }
            _ => 0.0,
        };
    }
    let flip = pos.rules().mode == Mode::Flip;
    let topo = pos.topology();
    let side_of = |owner: u8| -> Option<u8> {
        if flip {
            pos.seat_of_colour(owner).map(|s| team_of(board, s))
        } else {
            Some(team_of(board, owner))
        }
    };
    let mut score = 0.0;
    let mut flags: [Option<junqi_core::Square>; 4] = [None; 4];
    for (sq, p) in pos.pieces() {
        if p.role == Role::Flag && !p.face_down {
            flags[p.seat as usize] = Some(sq);
        }
    }
    for (sq, p) in pos.pieces() {
        let Some(side) = side_of(p.seat) else {
            continue;
        };
        let sign = if side == my_team { 1.0 } else { -1.0 };
        let mut v = if p.face_down { 3.0 } else { value(p.role) };
        if !p.face_down && p.role.is_movable() {
            v += 0.3 * advance(topo, p.seat, sq);
            if topo.kind(sq) == SquareKind::Camp {
                v += 0.1;
            }
            // Pressure on an enemy flag.
            let (x, y) = topo.coords(sq);
            for (fs, f) in flags.iter().enumerate() {
                let Some(f) = f else { continue };
                let fside = side_of(fs as u8);
                if fside.is_some() && fside != Some(side) {
                    let (fx, fy) = topo.coords(*f);
                    let d = (x as i32 - fx as i32).abs() + (y as i32 - fy as i32).abs();
                    if d <= 3 {
                        v += 0.4 * (4 - d) as f64;
                    }
                }
            }
        }
        score += sign * v;
    }
    // A quiet-plies draw scores 0: as it nears, the position's worth shrinks towards that, so
    // the side ahead prefers an attack (which resets the count) to another quiet move.
    let limit = pos.rules().options.quiet_plies.max(1) as f64;
    let pressure = (pos.quiet_plies() as f64 / limit).min(1.0);
    score * (1.0 - 0.6 * pressure * pressure)
}
