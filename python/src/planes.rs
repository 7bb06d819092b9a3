//! The fixed action-id space of a board and the numpy observation planes of a seat.
//!
//! # Action ids
//!
//! A board with `n` squares (in the core's square order, [`junqi_core::Topology::squares`]) has
//! `n·n + n` action ids: a move `from-to` is `from·n + to`, a flip of square `s` is `n·n + s`.
//! The space is the same for every position, mode and option of the board (two-player 3 660,
//! three-player 9 900, four-player 16 770, six-player 37 442); most ids are never legal (a
//! mask says which are).
//!
//! # Planes
//!
//! A seat's observation as `uint8` planes of shape `[C, n]`, one column per square in square
//! order, every value 0 or 1, computed only from what the seat may know (RULES §6: the same test
//! as [`junqi_core::Position::observe`], [`junqi_core::Position::identity_known`]). The other
//! seats are taken in turn order from the observer: slot `k` (1 … seats−1) is seat
//! `(observer + k) mod seats`. `C = 18 + 15·(seats − 1)`:
//!
//! | planes | meaning |
//! |---|---|
//! | 0 … 11 | the observer's own pieces, by role (`marshal` … `flag`, [`junqi_core::Role::ALL`]) |
//! | per slot `k`: 15 planes from `12 + 15·(k−1)` | 0: a piece of that seat; 1 … 12: its role, where the observer may know it (announced, open play, a half-open partner); 13: all ones if that seat is the observer's teammate; 14: all ones if it is eliminated |
//! | `F = 12 + 15·(seats−1)` | a face-down piece (flip play: colour and role unknown) |
//! | `F + 1` | the piece there has moved at least once (so it is neither a landmine nor a flag) |
//! | `F + 2` | the piece there has won an attack, as attacker or defender |
//! | `F + 3` | the square the last action left (a flip: the flipped square) |
//! | `F + 4` | the square the last action reached |
//! | `F + 5` | an own piece whose identity is public (announced to every seat) |
//!
//! The history planes (`F + 1` … `F + 4`) come from the referee's public announcements alone
//! (moves, attacks and their results, flips), so they are the same for every observer and carry
//! no belief; a game read from a JSON position (no history) starts them at zero. In flip play
//! before the colours are settled, colour `c` is shown as seat `c`.

use junqi_core::{
    Action, AttackResult, Event, Mode, Observer, Position, Role, Seat, Square, Topology,
};

/// Planes per seat slot other than the observer.
const PER_OTHER: usize = 15;

/// Number of planes for a board with `seats` seats.
pub fn plane_count(seats: usize) -> usize {
    18 + PER_OTHER * (seats - 1)
}

/// The size of the action-id space of a board with `n` squares.
pub fn action_count(n: usize) -> usize {
    n * n + n
}

/// The id of an action on a board with `n` squares.
#[inline]
pub fn action_id(n: usize, a: Action) -> usize {
    match a {
        Action::Move { from, to } => from.index() * n + to.index(),
        Action::Flip(s) => n * n + s.index(),
    }
}

/// The action of an id on a board with `n` squares, or `None` past the space.
pub fn action_of_id(n: usize, id: usize) -> Option<Action> {
    if id < n * n {
        Some(Action::Move {
            from: Square((id / n) as u8),
            to: Square((id % n) as u8),
        })
    } else if id < n * n + n {
        Some(Action::Flip(Square((id - n * n) as u8)))
    } else {
        None
    }
}

/// The public history a game's announcements give, per square.
#[derive(Clone, Debug)]
pub struct History {
    /// The piece on the square has moved.
    pub moved: Vec<bool>,
    /// The piece on the square has won an attack.
    pub won: Vec<bool>,
    /// The squares of the last action.
    pub last: Option<(Square, Square)>,
}

impl History {
    /// No history, for a board of `n` squares.
    pub fn new(n: usize) -> History {
        History {
            moved: vec![false; n],
            won: vec![false; n],
            last: None,
        }
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.moved.fill(false);
        self.won.fill(false);
        self.last = None;
    }

    /// Take in the announcements of one step.
    pub fn update(&mut self, events: &[Event]) {
        for e in events {
            match *e {
                Event::Move { from, to, .. } => {
                    let (f, t) = (from.index(), to.index());
                    self.won[t] = self.won[f];
                    self.moved[t] = true;
                    self.moved[f] = false;
                    self.won[f] = false;
                    self.last = Some((from, to));
                }
                Event::Attack {
                    from, to, result, ..
                } => {
                    let (f, t) = (from.index(), to.index());
                    match result {
                        AttackResult::AttackerWins | AttackResult::FlagCaptured => {
                            self.moved[t] = true;
                            self.won[t] = true;
                        }
                        AttackResult::DefenderWins => self.won[t] = true,
                        AttackResult::BothRemoved => {
                            self.moved[t] = false;
                            self.won[t] = false;
                        }
                    }
                    self.moved[f] = false;
                    self.won[f] = false;
                    self.last = Some((from, to));
                }
                Event::Flip { at, .. } => self.last = Some((at, at)),
                _ => {}
            }
        }
    }
}

/// The owning seat of a piece of `seat` (flip play: a colour) as the planes show it.
#[inline]
fn owner(pos: &Position, flip: bool, seat: Seat) -> Seat {
    if flip {
        pos.seat_of_colour(seat).unwrap_or(seat)
    } else {
        seat
    }
}

/// Write the square-by-square planes of the piece on `sq` (everything but the row-wide
/// `teammate`, `eliminated`, `last_from` and `last_to` planes) into `out`, whose column `sq`
/// must be zero in those planes; or, with `CLEAR`, zero every entry that write sets (so the
/// column is all zeros again in those planes, given the same position and history).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn write_square<const CLEAR: bool>(
    pos: &Position,
    hist: &History,
    observer: Seat,
    flip: bool,
    seats: usize,
    n: usize,
    sq: Square,
    out: &mut [u8],
) {
    let i = sq.index();
    let fd = 12 + PER_OTHER * (seats - 1);
    let Some(piece) = pos.piece_at(sq) else {
        return;
    };
    let one = !CLEAR as u8;
    if piece.face_down {
        out[fd * n + i] = one;
        return;
    }
    let seat = owner(pos, flip, piece.seat);
    let role = piece.role as usize;
    let k = (seat as usize + seats - observer as usize) % seats;
    if k == 0 {
        out[role * n + i] = one;
        out[(fd + 5) * n + i] = one & pos.is_public(sq) as u8;
    } else {
        let base = 12 + PER_OTHER * (k - 1);
        out[base * n + i] = one;
        out[(base + 1 + role) * n + i] =
            one & pos.identity_known(Observer::Seat(observer), sq) as u8;
    }
    out[(fd + 1) * n + i] = one & hist.moved[i] as u8;
    out[(fd + 2) * n + i] = one & hist.won[i] as u8;
}

/// Write the planes of `observer` in `pos` with history `hist` into `out` (length
/// `plane_count(seats) · n`, overwritten entirely).
///
/// After the row is zeroed, every piece's planes are written unconditionally (a 0 where a fact
/// does not hold): the facts vary from square to square in ways a branch predictor cannot
/// learn, and stores are cheaper than mispredicted branches.
pub fn write_planes(pos: &Position, hist: &History, observer: Seat, out: &mut [u8]) {
    let topo: &Topology = pos.topology();
    let n = topo.len();
    let seats = pos.seats();
    assert_eq!(out.len(), plane_count(seats) * n);
    out.fill(0);
    let flip = pos.rules().mode == Mode::Flip;
    let teams = pos.rules().teams();
    let fd = 12 + PER_OTHER * (seats - 1);
    for sq in topo.squares() {
        write_square::<false>(pos, hist, observer, flip, seats, n, sq, out);
    }
    for k in 1..seats {
        let seat = ((observer as usize + k) % seats) as Seat;
        let base = 12 + PER_OTHER * (k - 1);
        if teams.same_team(seat, observer) {
            out[(base + 13) * n..(base + 14) * n].fill(1);
        }
        if pos.is_eliminated(seat) {
            out[(base + 14) * n..(base + 15) * n].fill(1);
        }
    }
    if let Some((from, to)) = hist.last {
        out[(fd + 3) * n + from.index()] = 1;
        out[(fd + 4) * n + to.index()] = 1;
    }
}

/// Whether one step's announcements changed the planes only at the action's `squares`
/// ([`action_squares`]): only moves, attacks other than a flag's capture and flips on those
/// squares, and skipped turns. When false the planes must be written afresh (colours settled,
/// a flag revealed or captured, a defender scouted, a seat eliminated: facts that reach beyond
/// the squares of the action).
pub fn step_is_local(events: &[Event], squares: &[Square]) -> bool {
    let on = |s: Square| squares.contains(&s);
    events.iter().all(|e| match *e {
        Event::Move { from, to, .. } => on(from) && on(to),
        Event::Attack {
            from, to, result, ..
        } => result != AttackResult::FlagCaptured && on(from) && on(to),
        Event::Flip { at, .. } => on(at),
        Event::Skipped { .. } => true,
        _ => false,
    })
}

/// The squares an action may change: its from and to squares (a flip: its square).
pub fn action_squares(a: Action, out: &mut Vec<Square>) {
    out.clear();
    match a {
        Action::Move { from, to } => out.extend([from, to]),
        Action::Flip(s) => out.push(s),
    }
}

/// Before a step: zero, in the planes `out` of `observer` written for `pos` with `hist` (the
/// position and history before the step), the square-by-square planes of `squares` (the
/// action's, [`action_squares`]). Only the entries that can be ones are stored to (a handful
/// per square, not a column of every plane).
pub fn clear_squares(
    pos: &Position,
    hist: &History,
    observer: Seat,
    squares: &[Square],
    out: &mut [u8],
) {
    let n = pos.topology().len();
    let seats = pos.seats();
    let flip = pos.rules().mode == Mode::Flip;
    for &sq in squares {
        write_square::<true>(pos, hist, observer, flip, seats, n, sq, out);
    }
}

/// After a local step ([`step_is_local`]) whose action's squares, `touched`, were cleared
/// before it ([`clear_squares`]): write their planes and move the `last_from`/`last_to` marks from
/// `old_last`. The result equals [`write_planes`] of the new position.
pub fn update_planes(
    pos: &Position,
    hist: &History,
    observer: Seat,
    touched: &[Square],
    old_last: Option<(Square, Square)>,
    out: &mut [u8],
) {
    let n = pos.topology().len();
    let seats = pos.seats();
    debug_assert_eq!(out.len(), plane_count(seats) * n);
    let flip = pos.rules().mode == Mode::Flip;
    let fd = 12 + PER_OTHER * (seats - 1);
    for &sq in touched {
        write_square::<false>(pos, hist, observer, flip, seats, n, sq, out);
    }
    if let Some((from, to)) = old_last {
        out[(fd + 3) * n + from.index()] = 0;
        out[(fd + 4) * n + to.index()] = 0;
    }
    if let Some((from, to)) = hist.last {
        out[(fd + 3) * n + from.index()] = 1;
        out[(fd + 4) * n + to.index()] = 1;
    }
}

/// Write the legal-action mask of `pos` (length `action_count(n)`, overwritten) using `buf`.
pub fn write_mask(pos: &Position, buf: &mut Vec<Action>, out: &mut [bool]) {
    let n = pos.topology().len();
    out.fill(false);
    buf.clear();
    pos.legal_actions_into(buf);
    for &a in buf.iter() {
        out[action_id(n, a)] = true;
    }
}

/// The names of the planes of a board with `seats` seats, in order.
pub fn plane_names(seats: usize) -> Vec<String> {
    let mut v: Vec<String> = Role::ALL
        .iter()
        .map(|r| format!("own_{}", r.name()))
        .collect();
    for k in 1..seats {
        v.push(format!("seat+{k}_piece"));
        for r in Role::ALL {
            v.push(format!("seat+{k}_{}", r.name()));
        }
        v.push(format!("seat+{k}_teammate"));
        v.push(format!("seat+{k}_eliminated"));
    }
    for s in [
        "face_down",
        "moved",
        "won_attack",
        "last_from",
        "last_to",
        "own_public",
    ] {
        v.push(s.into());
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for n in [60usize, 99, 129, 193] {
            for id in [0, 1, n + 3, n * n - 1, n * n, n * n + n - 1] {
                let a = action_of_id(n, id).unwrap();
                assert_eq!(action_id(n, a), id);
            }
            assert!(action_of_id(n, action_count(n)).is_none());
        }
        assert_eq!(plane_names(2).len(), plane_count(2));
        assert_eq!(plane_names(6).len(), plane_count(6));
    }
}

#[cfg(test)]
mod timing {
    use super::*;
    use rand::SeedableRng;

    #[test]
    #[ignore]
    fn time_planes() {
        let rules =
            junqi_core::Rules::defaults(junqi_core::BoardKind::TwoPlayer, Mode::Dark).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let pos = junqi_core::playout::random_position(rules, 30, &mut rng);
        let hist = History::new(60);
        let mut out = vec![0u8; plane_count(2) * 60];
        let t = std::time::Instant::now();
        let mut k = 0usize;
        for _ in 0..1_000_000 {
            write_planes(&pos, &hist, 0, &mut out);
            k += out.iter().filter(|&&b| b == 1).count();
        }
        println!(
            "planes {:?} per call, {} ones",
            t.elapsed() / 1_000_000,
            k / 1_000_000
        );
        let mut buf = Vec::new();
        let t = std::time::Instant::now();
        for _ in 0..1_000_000 {
            buf.clear();
            pos.legal_actions_into(&mut buf);
        }
        println!("legal {:?} per call", t.elapsed() / 1_000_000);
    }
}
