//! Small shared vocabulary: boards, modes, seats, seat sets and teams.

use std::fmt;
use std::str::FromStr;

/// The most seats any board has (the six-player board).
pub const MAX_SEATS: usize = 6;

/// One value per seat, indexed by seat; boards with fewer seats use the first entries.
pub type PerSeat<T> = [T; MAX_SEATS];

/// Which board a game is played on (RULES §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// 5 × 12, 60 squares, seats 0 South and 1 North.
    TwoPlayer,
    /// 三国: the four-player board without West, 99 squares, seats 0 South, 1 East, 2 North.
    ThreePlayer,
    /// 四国: four arms around a centre, 129 squares, seats 0 South, 1 East, 2 North, 3 West.
    FourPlayer,
    /// 六国: six arms around a star, 193 squares, seats 0…5 counter-clockwise from the bottom.
    SixPlayer,
}

impl BoardKind {
    /// Every board.
    pub const ALL: [BoardKind; 4] = [
        BoardKind::TwoPlayer,
        BoardKind::ThreePlayer,
        BoardKind::FourPlayer,
        BoardKind::SixPlayer,
    ];

    /// The interchange spelling: `two_player`, `three_player`, `four_player`, `six_player`.
    pub const fn name(self) -> &'static str {
        match self {
            BoardKind::TwoPlayer => "two_player",
            BoardKind::ThreePlayer => "three_player",
            BoardKind::FourPlayer => "four_player",
            BoardKind::SixPlayer => "six_player",
        }
    }

    /// Number of seats.
    pub const fn seats(self) -> usize {
        match self {
            BoardKind::TwoPlayer => 2,
            BoardKind::ThreePlayer => 3,
            BoardKind::FourPlayer => 4,
            BoardKind::SixPlayer => 6,
        }
    }

    /// Whether a multi-seat board (three, four or six seats): eliminated seats leave the board
    /// and the game goes on while more than one team is left.
    pub const fn is_multi_seat(self) -> bool {
        !matches!(self, BoardKind::TwoPlayer)
    }

    /// The seats of this board.
    pub fn seat_range(self) -> impl Iterator<Item = Seat> {
        0..self.seats() as Seat
    }
}

impl fmt::Display for BoardKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BoardKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        BoardKind::ALL
            .iter()
            .copied()
            .find(|b| b.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown board {s:?} (expected two_player, three_player, four_player or six_player)"
                )
            })
    }
}

/// Visibility mode (RULES §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// 暗棋: enemy identities hidden.
    Dark,
    /// 明棋: every identity public.
    Open,
    /// 双明 (four- and six-player, with teams): teammates see each other, enemies stay dark.
    HalfOpen,
    /// 翻棋 (two-player only): everything dealt face down and turned up during play.
    Flip,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 4] = [Mode::Dark, Mode::Open, Mode::HalfOpen, Mode::Flip];

    /// The interchange spelling.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Dark => "dark",
            Mode::Open => "open",
            Mode::HalfOpen => "half_open",
            Mode::Flip => "flip",
        }
    }

    /// Whether this mode exists on that board (half-open on the four- and six-player boards,
    /// flip on the two-player board only).
    pub const fn allowed_on(self, board: BoardKind) -> bool {
        match self {
            Mode::Dark | Mode::Open => true,
            Mode::HalfOpen => matches!(board, BoardKind::FourPlayer | BoardKind::SixPlayer),
            Mode::Flip => matches!(board, BoardKind::TwoPlayer),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Mode::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown mode {s:?} (expected dark, open, half_open or flip)"))
    }
}

/// A seat index: two-player 0 South, 1 North; three-player 0 South, 1 East, 2 North;
/// four-player 0 South, 1 East, 2 North, 3 West; six-player 0…5 counter-clockwise from the
/// bottom. In flip play a piece's seat is its colour.
pub type Seat = u8;

/// A set of seats, as a bit mask (bit `s` for seat `s`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(pub u8);

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The set of one seat.
    pub const fn one(seat: Seat) -> SeatSet {
        SeatSet(1 << seat)
    }

    /// The first `n` seats.
    pub const fn first(n: usize) -> SeatSet {
        SeatSet(((1u16 << n) - 1) as u8)
    }

    /// Whether the seat is in the set.
    #[inline(always)]
    pub const fn contains(self, seat: Seat) -> bool {
        self.0 >> seat & 1 != 0
    }

    /// Add a seat.
    #[inline(always)]
    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat;
    }

    /// Whether no seat is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of seats in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Seats in both sets.
    pub const fn and(self, o: SeatSet) -> SeatSet {
        SeatSet(self.0 & o.0)
    }

    /// Seats in either set.
    pub const fn or(self, o: SeatSet) -> SeatSet {
        SeatSet(self.0 | o.0)
    }

    /// Seats in this set and not in `o`.
    pub const fn minus(self, o: SeatSet) -> SeatSet {
        SeatSet(self.0 & !o.0)
    }

    /// The seats, lowest first.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..8u8).filter(move |&s| self.contains(s))
    }
}

/// A team: the seats that play together (RULES §7.2), numbered from 0 by their lowest seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Team(pub u8);

impl Team {
    /// The index of the team (0 for the team of seat 0).
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The option `teams` (RULES §7.2): how the seats of a multi-seat board form teams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Teams {
    /// Every other seat together: four-player {0, 2} {1, 3}; six-player {0, 2, 4} {1, 3, 5}.
    Alternate,
    /// Seats facing each other together: four-player {0, 2} {1, 3}; six-player {0, 3} {1, 4}
    /// {2, 5}.
    Opposite,
    /// Every seat for itself (the only value on the three-player board).
    None,
}

impl Teams {
    /// Every value.
    pub const ALL: [Teams; 3] = [Teams::Alternate, Teams::Opposite, Teams::None];

    /// The interchange spelling.
    pub const fn name(self) -> &'static str {
        match self {
            Teams::Alternate => "alternate",
            Teams::Opposite => "opposite",
            Teams::None => "none",
        }
    }

    /// The default of a board: `alternate` on four and six seats, `none` elsewhere (on the
    /// two-player board the option is ignored; each seat is its own team).
    pub const fn default_for(board: BoardKind) -> Teams {
        match board {
            BoardKind::FourPlayer | BoardKind::SixPlayer => Teams::Alternate,
            BoardKind::TwoPlayer | BoardKind::ThreePlayer => Teams::None,
        }
    }

    /// Whether the board plays with this value (`alternate` and `opposite` need four or six
    /// seats; on the two-player board the option is accepted and ignored).
    pub const fn allowed_on(self, board: BoardKind) -> bool {
        !matches!(
            (self, board),
            (Teams::Alternate | Teams::Opposite, BoardKind::ThreePlayer)
        )
    }
}

impl fmt::Display for Teams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Teams {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Teams::ALL
            .iter()
            .copied()
            .find(|t| t.name() == s)
            .ok_or_else(|| format!("unknown teams {s:?} (expected alternate, opposite or none)"))
    }
}

/// The teams of a game: which team each seat is in, and each team's seats. Derived from the
/// board and the option `teams` ([`TeamMap::new`]); the two-player board is two teams of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TeamMap {
    team: PerSeat<u8>,
    members: PerSeat<SeatSet>,
    count: u8,
    seats: u8,
}

impl TeamMap {
    /// The teams of a board under an option value (a value the board does not play with is
    /// read as `none`; rule sets reject it before it gets here).
    pub const fn new(board: BoardKind, teams: Teams) -> TeamMap {
        let n = board.seats();
        let mut team = [0u8; MAX_SEATS];
        let mut s = 0;
        while s < n {
            let seat = s as u8;
            team[s] = match (board, teams) {
                (BoardKind::FourPlayer, Teams::Alternate | Teams::Opposite)
                | (BoardKind::SixPlayer, Teams::Alternate) => seat & 1,
                (BoardKind::SixPlayer, Teams::Opposite) => seat % 3,
                _ => seat,
            };
            s += 1;
        }
        let mut members = [SeatSet::EMPTY; MAX_SEATS];
        let mut count = 0u8;
        let mut s = 0;
        while s < n {
            let t = team[s] as usize;
            members[t] = SeatSet(members[t].0 | 1 << s);
            if t as u8 + 1 > count {
                count = t as u8 + 1;
            }
            s += 1;
        }
        TeamMap {
            team,
            members,
            count,
            seats: n as u8,
        }
    }

    /// The team of a seat.
    #[inline(always)]
    pub const fn team_of(&self, seat: Seat) -> Team {
        Team(self.team[seat as usize])
    }

    /// The seats of a team.
    #[inline(always)]
    pub const fn members(&self, team: Team) -> SeatSet {
        self.members[team.0 as usize]
    }

    /// The seats of `seat`'s team, `seat` included.
    #[inline(always)]
    pub const fn mates(&self, seat: Seat) -> SeatSet {
        self.members[self.team[seat as usize] as usize]
    }

    /// Whether two seats are in one team (a seat is in its own).
    #[inline(always)]
    pub const fn same_team(&self, a: Seat, b: Seat) -> bool {
        self.team[a as usize] == self.team[b as usize]
    }

    /// Number of teams.
    pub const fn count(&self) -> usize {
        self.count as usize
    }

    /// Every team, in order.
    pub fn teams(&self) -> impl Iterator<Item = Team> {
        (0..self.count).map(Team)
    }

    /// Whether some team has more than one seat.
    pub const fn has_teammates(&self) -> bool {
        (self.count as usize) < self.seats as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn team_maps() {
        let t = |b, v| TeamMap::new(b, v);
        let four = t(BoardKind::FourPlayer, Teams::Alternate);
        assert_eq!(four.count(), 2);
        assert_eq!(four.mates(0), SeatSet(0b0101));
        assert_eq!(four.mates(3), SeatSet(0b1010));
        assert_eq!(t(BoardKind::FourPlayer, Teams::Opposite), four);
        let six = t(BoardKind::SixPlayer, Teams::Alternate);
        assert_eq!((six.count(), six.mates(4)), (2, SeatSet(0b010101)));
        let opp = t(BoardKind::SixPlayer, Teams::Opposite);
        assert_eq!(opp.count(), 3);
        assert_eq!(opp.mates(1), SeatSet(0b010010));
        assert_eq!(opp.team_of(5), Team(2));
        for b in BoardKind::ALL {
            let none = t(b, Teams::None);
            assert_eq!(none.count(), b.seats());
            assert!(!none.has_teammates());
            assert!(b.seat_range().all(|s| none.mates(s) == SeatSet::one(s)));
        }
        assert!(six.has_teammates() && opp.has_teammates());
        assert!(!t(BoardKind::TwoPlayer, Teams::Alternate).has_teammates());
        assert!(!t(BoardKind::ThreePlayer, Teams::Alternate).has_teammates());
    }

    #[test]
    fn seat_sets() {
        let mut s = SeatSet::EMPTY;
        s.insert(5);
        s.insert(1);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![1, 5]);
        assert_eq!(s.len(), 2);
        assert_eq!(SeatSet::first(6), SeatSet(0b111111));
        assert!(s.contains(5) && !s.contains(0));
    }

    #[test]
    fn boards_parse() {
        for b in BoardKind::ALL {
            assert_eq!(b.name().parse::<BoardKind>(), Ok(b));
        }
        assert!("five_player".parse::<BoardKind>().is_err());
        assert!(Mode::HalfOpen.allowed_on(BoardKind::SixPlayer));
        assert!(!Mode::HalfOpen.allowed_on(BoardKind::ThreePlayer));
        assert!(!Mode::Flip.allowed_on(BoardKind::SixPlayer));
    }
}
