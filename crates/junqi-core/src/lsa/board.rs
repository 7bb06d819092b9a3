//! The land-sea-air board (LANDSEAAIR §2) as data: 9 files × 15 ranks, every square with its
//! type, road and rail edges, sea edges, landing edges, strike squares, the rail, sea and air
//! lines, and the local coordinates of each seat. Built once ([`Board::get`]) into fixed tables
//! indexed by [`Square`] (a `u8` below 135) and [`SquareSet`] bitsets, so that move generation
//! can read it without allocating.

use super::pieces::Arm;
use crate::types::Seat;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// Files `a`–`i`.
pub const FILES: u8 = 9;
/// Ranks `1`–`15`.
pub const RANKS: u8 = 15;
/// Number of squares.
pub const SQUARES: usize = FILES as usize * RANKS as usize;

/// A square of the board: index `(rank − 1) × 9 + file`, `a1` = 0 … `i15` = 134. Only the
/// constructors make one, so every `Square` is on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at a file (0 = `a`) and rank (1 … 15), if on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank >= 1 && rank <= RANKS {
            Some(Square((rank - 1) * FILES + file))
        } else {
            None
        }
    }

    /// The square with this index, if below 135.
    pub const fn from_index(i: u8) -> Option<Square> {
        if (i as usize) < SQUARES {
            Some(Square(i))
        } else {
            None
        }
    }

    /// The index into the board's tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 = `a` … 8 = `i`.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// The rank, 1 … 15.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / FILES + 1
    }

    /// The image under the half-turn `(x, r) → (i − x, 16 − r)` that swaps the two sides (§2).
    pub const fn rotated(self) -> Square {
        Square(SQUARES as u8 - 1 - self.0)
    }

    /// The image under the left–right mirror `(x, r) → (i − x, r)`.
    pub const fn mirrored(self) -> Square {
        Square(self.0 - self.file() + (FILES - 1 - self.file()))
    }

    /// Every square, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    /// The square named `a1` … `i15` (canonical spelling only: `a7`, not `a07` or `A7`).
    pub fn parse(name: &str) -> Option<Square> {
        let b = name.as_bytes();
        let (&f, digits) = b.split_first()?;
        if !(b'a'..b'a' + FILES).contains(&f) || digits.is_empty() || digits.len() > 2 {
            return None;
        }
        if digits[0] == b'0' || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let rank = digits.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
        Square::new(f - b'a', rank)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// Error for a name that is no square of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is no square of the land_sea_air board (a1 … i15)")]
pub struct UnknownSquare(pub String);

impl FromStr for Square {
    type Err = UnknownSquare;
    fn from_str(s: &str) -> Result<Square, UnknownSquare> {
        Square::parse(s).ok_or_else(|| UnknownSquare(s.to_string()))
    }
}

impl From<Square> for crate::topology::Square {
    fn from(s: Square) -> crate::topology::Square {
        crate::topology::Square(s.0)
    }
}

/// A set of squares: a 135-bit bitset in three words.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SquareSet([u64; 3]);

impl SquareSet {
    /// No square.
    pub const EMPTY: SquareSet = SquareSet([0; 3]);

    /// Whether the square is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0[(sq.0 >> 6) as usize] >> (sq.0 & 63) & 1 != 0
    }

    /// The set with the square added.
    #[inline(always)]
    pub const fn with(mut self, sq: Square) -> SquareSet {
        self.0[(sq.0 >> 6) as usize] |= 1 << (sq.0 & 63);
        self
    }

    /// Add a square.
    #[inline(always)]
    pub fn insert(&mut self, sq: Square) {
        *self = self.with(sq);
    }

    /// Remove a square.
    #[inline(always)]
    pub fn remove(&mut self, sq: Square) {
        self.0[(sq.0 >> 6) as usize] &= !(1 << (sq.0 & 63));
    }

    /// Number of squares.
    pub const fn len(self) -> usize {
        (self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()) as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] == 0
    }

    /// The squares in either set.
    pub const fn union(self, o: SquareSet) -> SquareSet {
        SquareSet([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }

    /// The squares in both sets.
    pub const fn intersection(self, o: SquareSet) -> SquareSet {
        SquareSet([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }

    /// The squares of `self` not in `o`.
    pub const fn difference(self, o: SquareSet) -> SquareSet {
        SquareSet([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
        ])
    }

    /// The squares, lowest index first.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        let mut w = self.0;
        std::iter::from_fn(move || {
            for (i, x) in w.iter_mut().enumerate() {
                if *x != 0 {
                    let b = x.trailing_zeros() as u8;
                    *x &= *x - 1;
                    return Some(Square(b + 64 * i as u8));
                }
            }
            None
        })
    }

    /// The words, for the crate's generic square sets ([`crate::bits::Wide`]`<3>`).
    pub const fn words(self) -> [u64; 3] {
        self.0
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(it: I) -> SquareSet {
        it.into_iter().fold(SquareSet::EMPTY, SquareSet::with)
    }
}

impl From<SquareSet> for crate::bits::Wide<3> {
    fn from(s: SquareSet) -> crate::bits::Wide<3> {
        crate::bits::Wide(s.0)
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|s| s.to_string()))
            .finish()
    }
}

/// One of the two sides. Land-sea-air is a two-seat game; this type keeps a third seat out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Seat 0: ranks 1–6.
    South = 0,
    /// Seat 1: ranks 10–15.
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The seat number (0, 1).
    pub const fn seat(self) -> Seat {
        self as Seat
    }

    /// The side of a seat number, if 0 or 1.
    pub const fn from_seat(seat: Seat) -> Option<Side> {
        match seat {
            0 => Some(Side::South),
            1 => Some(Side::North),
            _ => None,
        }
    }

    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }
}

/// The type of a square (§2.2). Every square has exactly one; the finer facts (coast,
/// bridgehead, anchor, rail, air) are properties of [`Board`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareType {
    /// 兵站: an ordinary land square (bridgeheads and the coast but the harbour included).
    Station,
    /// 城市 (城门兵站): the flag's possible posts; on no air line.
    City,
    /// 行营: a camp (§4.3).
    Camp,
    /// 海口: the fort's post, also a coast square.
    Harbour,
    /// 飞机场: for planes only.
    Airfield,
    /// 铁桥: an iron-bridge square (land, rail, neutral).
    Bridge,
    /// 海: a sea square (the anchors included).
    Sea,
}

impl SquareType {
    /// Every type.
    pub const ALL: [SquareType; 7] = [
        SquareType::Station,
        SquareType::City,
        SquareType::Camp,
        SquareType::Harbour,
        SquareType::Airfield,
        SquareType::Bridge,
        SquareType::Sea,
    ];

    /// The English name of §2.2.
    pub const fn name(self) -> &'static str {
        match self {
            SquareType::Station => "station",
            SquareType::City => "city",
            SquareType::Camp => "camp",
            SquareType::Harbour => "harbour",
            SquareType::Airfield => "airfield",
            SquareType::Bridge => "bridge",
            SquareType::Sea => "sea",
        }
    }

    /// Whether land-arm pieces stand on squares of this type (§2.2).
    pub const fn is_land(self) -> bool {
        !matches!(self, SquareType::Airfield | SquareType::Sea)
    }
}

/// Where a square lies in a side's half (§2.6): row 0 (front, rank 6 / 10) … 5 (back, rank 1 /
/// 15), column 0 … 8 from that side's own left. Only [`Local::new`] and [`Board::local`] make
/// one, so the row and column are always in range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Local {
    side: Side,
    row: u8,
    col: u8,
}

impl Local {
    /// Local rows per side.
    pub const ROWS: u8 = 6;
    /// Local columns.
    pub const COLS: u8 = FILES;

    /// The local place (row < 6, col < 9), if in range.
    pub const fn new(side: Side, row: u8, col: u8) -> Option<Local> {
        if row < Local::ROWS && col < Local::COLS {
            Some(Local { side, row, col })
        } else {
            None
        }
    }

    /// The side whose half this is.
    pub const fn side(self) -> Side {
        self.side
    }

    /// 0 = front row … 5 = back row.
    pub const fn row(self) -> u8 {
        self.row
    }

    /// 0 … 8 from the side's own left.
    pub const fn col(self) -> u8 {
        self.col
    }

    /// The square: South file `a + c`, rank `6 − r`; North file `i − c`, rank `10 + r`.
    pub const fn square(self) -> Square {
        match self.side {
            Side::South => Square((5 - self.row) * FILES + self.col),
            Side::North => Square((9 + self.row) * FILES + (FILES - 1 - self.col)),
        }
    }
}

/// What a line carries (§2.3–2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// A straight rail line (6).
    Rail,
    /// A straight sea line (10).
    Sea,
    /// An air line (6).
    Air,
}

/// A straight line of squares, in order (rank lines from file `a`, file lines from the lowest
/// rank). At most 15 squares, stored inline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    squares: [Square; RANKS as usize],
    len: u8,
}

impl Line {
    fn new(squares: impl IntoIterator<Item = Square>) -> Line {
        let mut line = Line {
            squares: [Square(0); RANKS as usize],
            len: 0,
        };
        for s in squares {
            line.squares[line.len as usize] = s;
            line.len += 1;
        }
        line
    }

    /// The squares, in order.
    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }

    /// Where a square is on the line.
    pub fn position(&self, sq: Square) -> Option<usize> {
        self.squares().iter().position(|&s| s == sq)
    }

    /// Whether the square is on the line.
    pub fn contains(&self, sq: Square) -> bool {
        self.position(sq).is_some()
    }

    /// Number of edges (squares − 1).
    pub fn edges(&self) -> usize {
        self.len as usize - 1
    }

    /// The squares beyond `from`, moving away from it: towards the line's end if `forward`,
    /// towards its start otherwise. Empty if `from` is not on the line.
    pub fn ray(&self, from: Square, forward: bool) -> impl Iterator<Item = Square> + '_ {
        let s = self.squares();
        let (ahead, behind): (&[Square], &[Square]) = match self.position(from) {
            Some(i) if forward => (&s[i + 1..], &[]),
            Some(i) => (&[], &s[..i]),
            None => (&[], &[]),
        };
        ahead.iter().chain(behind.iter().rev()).copied()
    }
}

/// The board's tables. Get the one instance with [`Board::get`].
pub struct Board {
    types: [SquareType; SQUARES],
    by_type: [SquareSet; 7],
    halves: [SquareSet; 2],
    rail: SquareSet,
    air: SquareSet,
    coast: [SquareSet; 2],
    bridgeheads: SquareSet,
    anchors: [SquareSet; 2],
    road: [SquareSet; SQUARES],
    rail_adj: [SquareSet; SQUARES],
    sea_adj: [SquareSet; SQUARES],
    landing: [[Option<Square>; SQUARES]; 2],
    gunboat: [SquareSet; SQUARES],
    fort_strike: [SquareSet; 2],
    rail_lines: [Line; 6],
    sea_lines: [Line; 10],
    air_lines: [Line; 6],
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Board(land_sea_air)")
    }
}

/// The interchange name of the board (§10).
pub const BOARD_NAME: &str = "land_sea_air";

fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank).expect("square on the board")
}

#[cfg(test)]
fn named(name: &str) -> Square {
    Square::parse(name).expect("square name")
}

/// The square type of (file, rank) from the diagram of §2.1.
fn type_at(f: u8, r: u8) -> SquareType {
    match (f, r) {
        (0 | 8, 7..=9) => SquareType::Bridge,
        (_, 7..=9) => SquareType::Sea,
        (0 | 8, 1 | 15) => SquareType::Airfield,
        (2 | 4 | 6, 1 | 15) => SquareType::City,
        (2 | 6, 3 | 13) => SquareType::Camp,
        (4, 6 | 10) => SquareType::Harbour,
        _ => SquareType::Station,
    }
}

impl Board {
    /// The board, built on first use.
    pub fn get() -> &'static Board {
        static BOARD: OnceLock<Board> = OnceLock::new();
        BOARD.get_or_init(Board::build)
    }

    fn build() -> Board {
        let types: [SquareType; SQUARES] =
            std::array::from_fn(|i| type_at(i as u8 % FILES, i as u8 / FILES + 1));
        let set =
            |p: &dyn Fn(Square) -> bool| -> SquareSet { Square::all().filter(|&s| p(s)).collect() };
        let by_type = SquareType::ALL.map(|t| set(&|s| types[s.index()] == t));
        let halves = [set(&|s| s.rank() <= 6), set(&|s| s.rank() >= 10)];
        let is_rail = |f: u8, r: u8| {
            matches!(r, 2 | 5 | 11 | 14) || (matches!(f, 0 | 8) && (2..=14).contains(&r))
        };
        let rail = set(&|s| is_rail(s.file(), s.rank()));
        let air = set(&|s| match s.file() {
            0 | 8 => true,
            2 | 4 | 6 => (2..=14).contains(&s.rank()),
            _ => s.rank() == 8,
        });
        let coast = [6, 10].map(|r| set(&|s| s.rank() == r && (1..=7).contains(&s.file())));
        let bridgeheads = set(&|s| matches!(s.file(), 0 | 8) && matches!(s.rank(), 6 | 10));
        let anchors = [7, 9].map(|r| set(&|s| s.rank() == r && matches!(s.file(), 1..=3 | 5..=7)));
        let land = |s: Square| types[s.index()].is_land();
        let sea = |s: Square| types[s.index()] == SquareType::Sea;
        let mut road = [SquareSet::EMPTY; SQUARES];
        let mut rail_adj = [SquareSet::EMPTY; SQUARES];
        let mut sea_adj = [SquareSet::EMPTY; SQUARES];
        let mut gunboat = [SquareSet::EMPTY; SQUARES];
        for a in Square::all() {
            for (df, dr) in [(1u8, 0u8), (0, 1)] {
                let Some(b) = Square::new(a.file() + df, a.rank() + dr) else {
                    continue;
                };
                // Land squares on both halves are never orthogonal neighbours (the sea lies
                // between them), so "both land" gives exactly the halves plus the bridges.
                if land(a) && land(b) {
                    road[a.index()].insert(b);
                    road[b.index()].insert(a);
                    if is_rail(a.file(), a.rank()) && is_rail(b.file(), b.rank()) {
                        rail_adj[a.index()].insert(b);
                        rail_adj[b.index()].insert(a);
                    }
                }
                if sea(a) && sea(b) {
                    sea_adj[a.index()].insert(b);
                    sea_adj[b.index()].insert(a);
                }
                // Gunboat strike edges: sea to an adjacent bridge or coast square.
                for (x, y) in [(a, b), (b, a)] {
                    let ty = types[y.index()];
                    let coastal = coast[0].union(coast[1]).contains(y);
                    if sea(x) && (ty == SquareType::Bridge || coastal) {
                        gunboat[x.index()].insert(y);
                    }
                }
            }
        }
        for camp in by_type[SquareType::Camp as usize].iter() {
            for (df, dr) in [(-1i8, -1i8), (-1, 1), (1, -1), (1, 1)] {
                let d = sq(
                    (camp.file() as i8 + df) as u8,
                    (camp.rank() as i8 + dr) as u8,
                );
                road[camp.index()].insert(d);
                road[d.index()].insert(camp);
            }
        }
        // A South ship lands from rank 9 onto North's coast (rank 10), a North ship from rank 7
        // onto South's coast (rank 6): always forward, never on its own coast.
        let mut landing = [[None; SQUARES]; 2];
        for f in 1..=7 {
            landing[Side::South as usize][sq(f, 9).index()] = Some(sq(f, 10));
            landing[Side::North as usize][sq(f, 7).index()] = Some(sq(f, 6));
        }
        let fort_strike = [sq(4, 6), sq(4, 10)].map(|h| {
            set(&|s| s != h && s.file().abs_diff(h.file()) <= 1 && s.rank().abs_diff(h.rank()) <= 1)
        });
        let rank_line =
            |r: u8, files: std::ops::RangeInclusive<u8>| Line::new(files.map(|f| sq(f, r)));
        let file_line =
            |f: u8, ranks: std::ops::RangeInclusive<u8>| Line::new(ranks.map(|r| sq(f, r)));
        let rail_lines = [
            rank_line(2, 0..=8),
            rank_line(5, 0..=8),
            rank_line(11, 0..=8),
            rank_line(14, 0..=8),
            file_line(0, 2..=14),
            file_line(8, 2..=14),
        ];
        let sea_lines = std::array::from_fn(|i| {
            if i < 3 {
                rank_line(7 + i as u8, 1..=7)
            } else {
                file_line(i as u8 - 2, 7..=9)
            }
        });
        let air_lines = [
            file_line(0, 1..=15),
            file_line(8, 1..=15),
            file_line(2, 2..=14),
            file_line(4, 2..=14),
            file_line(6, 2..=14),
            rank_line(8, 0..=8),
        ];
        Board {
            types,
            by_type,
            halves,
            rail,
            air,
            coast,
            bridgeheads,
            anchors,
            road,
            rail_adj,
            sea_adj,
            landing,
            gunboat,
            fort_strike,
            rail_lines,
            sea_lines,
            air_lines,
        }
    }

    /// The type of a square.
    #[inline(always)]
    pub fn square_type(&self, s: Square) -> SquareType {
        self.types[s.index()]
    }

    /// Every square of a type.
    pub fn of_type(&self, t: SquareType) -> SquareSet {
        self.by_type[t as usize]
    }

    /// The side whose half the square is in; `None` for ranks 7–9 (bridges and sea).
    pub fn side(&self, s: Square) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|&side| self.halves[side as usize].contains(s))
    }

    /// A side's half: its 54 squares (52 land squares and 2 airfields).
    pub fn half(&self, side: Side) -> SquareSet {
        self.halves[side as usize]
    }

    /// The 110 land squares (§2.2): both halves but the airfields, and the bridges.
    pub fn land(&self) -> SquareSet {
        SquareType::ALL
            .into_iter()
            .filter(|t| t.is_land())
            .fold(SquareSet::EMPTY, |a, t| a.union(self.of_type(t)))
    }

    /// Whether land-arm pieces may stand on the square.
    #[inline(always)]
    pub fn is_land(&self, s: Square) -> bool {
        self.square_type(s).is_land()
    }

    /// The 54 rail squares (§2.3).
    pub fn rail(&self) -> SquareSet {
        self.rail
    }

    /// Whether the square is a rail square.
    #[inline(always)]
    pub fn is_rail(&self, s: Square) -> bool {
        self.rail.contains(s)
    }

    /// The 73 air squares (§2.5), the four airfields included.
    pub fn air(&self) -> SquareSet {
        self.air
    }

    /// Whether the square is on an air line.
    #[inline(always)]
    pub fn is_air(&self, s: Square) -> bool {
        self.air.contains(s)
    }

    /// A side's coast (海岸线): its front row but the bridgeheads, b6–h6 / b10–h10, the harbour
    /// included.
    pub fn coast(&self, side: Side) -> SquareSet {
        self.coast[side as usize]
    }

    /// The four bridgeheads a6 i6 a10 i10: rail stations no move may pass through (§2.3).
    pub fn bridgeheads(&self) -> SquareSet {
        self.bridgeheads
    }

    /// Whether the square is a bridgehead.
    #[inline(always)]
    pub fn is_bridgehead(&self, s: Square) -> bool {
        self.bridgeheads.contains(s)
    }

    /// A side's six anchors (锚圈, sea squares where its ships deploy): b7 c7 d7 f7 g7 h7 for
    /// South, b9 … h9 but e9 for North.
    pub fn anchors(&self, side: Side) -> SquareSet {
        self.anchors[side as usize]
    }

    /// The side's harbour, e6 / e10.
    pub fn harbour(&self, side: Side) -> Square {
        match side {
            Side::South => sq(4, 6),
            Side::North => sq(4, 10),
        }
    }

    /// The squares of a type in a side's half (cities, camps, airfields, stations …).
    pub fn of_side(&self, side: Side, t: SquareType) -> SquareSet {
        self.of_type(t).intersection(self.half(side))
    }

    /// The squares a piece of this arm may ever stand on: land squares, sea squares, or air
    /// squares (planes, parked on an airfield or stopped over any air square).
    pub fn usable_by(&self, arm: Arm) -> SquareSet {
        match arm {
            Arm::Land => self.land(),
            Arm::Sea => self.of_type(SquareType::Sea),
            Arm::Air => self.air,
        }
    }

    /// Road neighbours (one step, rail edges and camp diagonals included).
    #[inline(always)]
    pub fn road_neighbours(&self, s: Square) -> SquareSet {
        self.road[s.index()]
    }

    /// Rail neighbours (each also a road neighbour).
    #[inline(always)]
    pub fn rail_neighbours(&self, s: Square) -> SquareSet {
        self.rail_adj[s.index()]
    }

    /// Orthogonal sea neighbours (sea squares only).
    #[inline(always)]
    pub fn sea_neighbours(&self, s: Square) -> SquareSet {
        self.sea_adj[s.index()]
    }

    /// The enemy coast square a side's battleship or cruiser on `from` may land on (§2.4).
    #[inline(always)]
    pub fn landing(&self, side: Side, from: Square) -> Option<Square> {
        self.landing[side as usize][from.index()]
    }

    /// The land squares a gunboat on the sea square `from` strikes along gunboat strike edges:
    /// adjacent bridge squares (any piece) and coast squares (planes only) (§2.4, §4.7).
    #[inline(always)]
    pub fn gunboat_strikes(&self, from: Square) -> SquareSet {
        self.gunboat[from.index()]
    }

    /// The 8 strike squares of a side's fort (the neighbours of its harbour, diagonals
    /// included).
    pub fn fort_strike_squares(&self, side: Side) -> SquareSet {
        self.fort_strike[side as usize]
    }

    /// The harbour approach: the three sea squares among the fort's strike squares.
    pub fn harbour_approach(&self, side: Side) -> SquareSet {
        self.fort_strike[side as usize].intersection(self.of_type(SquareType::Sea))
    }

    /// The lines of a kind: 6 rail, 10 sea (ranks 7–9, then files b–h), 6 air (files a, i, c,
    /// e, g, then rank 8).
    pub fn lines(&self, kind: LineKind) -> &[Line] {
        match kind {
            LineKind::Rail => &self.rail_lines,
            LineKind::Sea => &self.sea_lines,
            LineKind::Air => &self.air_lines,
        }
    }

    /// The lines of a kind through a square (at most two).
    pub fn lines_through(&self, kind: LineKind, s: Square) -> impl Iterator<Item = &Line> + '_ {
        self.lines(kind).iter().filter(move |l| l.contains(s))
    }

    /// The square of a local place (§2.6).
    pub fn square(&self, local: Local) -> Square {
        local.square()
    }

    /// The local place of a square in its side's half; `None` for ranks 7–9.
    pub fn local(&self, s: Square) -> Option<Local> {
        match self.side(s)? {
            Side::South => Local::new(Side::South, 6 - s.rank(), s.file()),
            Side::North => Local::new(Side::North, s.rank() - 10, FILES - 1 - s.file()),
        }
    }
}

/// Number of edges in an adjacency table (each edge is in two rows).
fn edge_count(adj: impl Fn(Square) -> SquareSet) -> usize {
    Square::all().map(|s| adj(s).len()).sum::<usize>() / 2
}

impl Board {
    /// Counts of edges as §2 states them: (road, of which camp diagonals, rail, sea, landing,
    /// gunboat strike).
    pub fn edge_counts(&self) -> EdgeCounts {
        let diagonal = Square::all()
            .map(|a| {
                self.road_neighbours(a)
                    .iter()
                    .filter(|b| b.file() != a.file() && b.rank() != a.rank())
                    .count()
            })
            .sum::<usize>()
            / 2;
        EdgeCounts {
            road: edge_count(|s| self.road_neighbours(s)),
            diagonal,
            rail: edge_count(|s| self.rail_neighbours(s)),
            sea: edge_count(|s| self.sea_neighbours(s)),
            landing: Side::BOTH
                .into_iter()
                .map(|side| {
                    Square::all()
                        .filter(|&s| self.landing(side, s).is_some())
                        .count()
                })
                .sum(),
            gunboat: Square::all().map(|s| self.gunboat_strikes(s).len()).sum(),
        }
    }
}

/// Edge counts of the board (see [`Board::edge_counts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeCounts {
    /// Road edges, rail and camp diagonals included (202).
    pub road: usize,
    /// Camp-diagonal road edges (16).
    pub diagonal: usize,
    /// Rail edges (56).
    pub rail: usize,
    /// Sea edges (32).
    pub sea: usize,
    /// Landing edges, both sides (14).
    pub landing: usize,
    /// Gunboat strike edges (20).
    pub gunboat: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b() -> &'static Board {
        Board::get()
    }

    fn names(set: SquareSet) -> String {
        set.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn set(list: &str) -> SquareSet {
        list.split_whitespace().map(named).collect()
    }

    #[test]
    fn lsa_squares_by_type() {
        let b = b();
        assert_eq!(Square::all().count(), 135);
        let t = |ty| b.of_type(ty);
        assert_eq!(t(SquareType::Airfield), set("a1 i1 a15 i15"));
        assert_eq!(t(SquareType::City), set("c1 e1 g1 c15 e15 g15"));
        assert_eq!(t(SquareType::Camp), set("c3 g3 c13 g13"));
        assert_eq!(t(SquareType::Harbour), set("e6 e10"));
        assert_eq!(t(SquareType::Bridge), set("a7 a8 a9 i7 i8 i9"));
        assert_eq!(t(SquareType::Sea).len(), 21);
        assert_eq!(t(SquareType::Station).len(), 92);
        assert_eq!(b.bridgeheads(), set("a6 i6 a10 i10"));
        assert_eq!(b.coast(Side::South), set("b6 c6 d6 e6 f6 g6 h6"));
        assert_eq!(b.coast(Side::North), set("b10 c10 d10 e10 f10 g10 h10"));
        assert_eq!(b.anchors(Side::South), set("b7 c7 d7 f7 g7 h7"));
        assert_eq!(b.anchors(Side::North), set("b9 c9 d9 f9 g9 h9"));
        for side in Side::BOTH {
            let a = b.anchors(side);
            assert_eq!(
                a.intersection(t(SquareType::Sea)),
                a,
                "anchors are sea squares"
            );
            assert!(
                b.coast(side).contains(b.harbour(side)),
                "the harbour is coast"
            );
            for s in b.bridgeheads().iter() {
                assert_eq!(b.square_type(s), SquareType::Station);
                assert!(b.is_rail(s));
            }
            // Each side: 52 land squares (46 stations, 3 cities, 2 camps, 1 harbour), 2 airfields.
            let half = b.half(side);
            assert_eq!(half.len(), 54);
            assert_eq!(half.intersection(b.land()).len(), 52);
            assert_eq!(b.of_side(side, SquareType::Station).len(), 46);
            assert_eq!(b.of_side(side, SquareType::City).len(), 3);
            assert_eq!(b.of_side(side, SquareType::Camp).len(), 2);
            assert_eq!(b.of_side(side, SquareType::Harbour).len(), 1);
            assert_eq!(b.of_side(side, SquareType::Airfield).len(), 2);
        }
        assert_eq!(b.land().len(), 110);
        assert_eq!(b.usable_by(Arm::Sea).len(), 21);
        assert_eq!(b.usable_by(Arm::Air).len(), 73);
    }

    #[test]
    fn lsa_edges() {
        let b = b();
        let e = b.edge_counts();
        assert_eq!(
            e,
            EdgeCounts {
                road: 202,
                diagonal: 16,
                rail: 56,
                sea: 32,
                landing: 14,
                gunboat: 20
            }
        );
        // 89 orthogonal road edges in each half, 8 on the bridge chains.
        for side in Side::BOTH {
            let half = b.half(side);
            let orth = half
                .iter()
                .map(|a| {
                    b.road_neighbours(a)
                        .intersection(half)
                        .iter()
                        .filter(|c| c.file() == a.file() || c.rank() == a.rank())
                        .count()
                })
                .sum::<usize>()
                / 2;
            assert_eq!(orth, 89);
        }
        assert_eq!(names(b.road_neighbours(named("a8"))), "a7 a9");
        assert_eq!(names(b.road_neighbours(named("a6"))), "a5 b6 a7");
        assert_eq!(
            names(b.road_neighbours(named("c3"))),
            "b2 c2 d2 b3 d3 b4 c4 d4"
        );
        assert_eq!(
            names(b.road_neighbours(named("g13"))),
            "f12 g12 h12 f13 h13 f14 g14 h14"
        );
        assert!(b.road_neighbours(named("a1")).is_empty());
        assert!(b.road_neighbours(named("e8")).is_empty());
        // Rail edges are road edges; rail squares are never camps, cities, harbours, airfields.
        for a in Square::all() {
            let r = b.rail_neighbours(a);
            assert_eq!(r.intersection(b.road_neighbours(a)), r);
        }
        assert_eq!(b.rail().len(), 54);
        for t in [
            SquareType::Camp,
            SquareType::City,
            SquareType::Harbour,
            SquareType::Airfield,
        ] {
            assert!(b.rail().intersection(b.of_type(t)).is_empty(), "{t:?}");
        }
        // Nothing but the bridges joins the halves.
        for a in b.half(Side::South).iter() {
            assert!(b
                .road_neighbours(a)
                .intersection(b.half(Side::North))
                .is_empty());
        }
        assert_eq!(b.landing(Side::South, named("c9")), Some(named("c10")));
        assert_eq!(b.landing(Side::South, named("e9")), Some(named("e10")));
        assert_eq!(b.landing(Side::North, named("h7")), Some(named("h6")));
        assert_eq!(
            b.landing(Side::South, named("c7")),
            None,
            "never on its own coast"
        );
        assert_eq!(names(b.gunboat_strikes(named("b8"))), "a8");
        assert_eq!(names(b.gunboat_strikes(named("b7"))), "b6 a7");
        assert_eq!(names(b.gunboat_strikes(named("e9"))), "e10");
        assert!(b.gunboat_strikes(named("e8")).is_empty());
        assert_eq!(
            b.fort_strike_squares(Side::South),
            set("d5 e5 f5 d6 f6 d7 e7 f7")
        );
        assert_eq!(
            b.fort_strike_squares(Side::North),
            set("d9 e9 f9 d10 f10 d11 e11 f11")
        );
        assert_eq!(b.harbour_approach(Side::South), set("d7 e7 f7"));
        assert_eq!(b.harbour_approach(Side::North), set("d9 e9 f9"));
        // No camp is adjacent to a fort (§4.7 relies on it).
        for side in Side::BOTH {
            assert!(b
                .fort_strike_squares(side)
                .intersection(b.of_type(SquareType::Camp))
                .is_empty());
        }
    }

    #[test]
    fn lsa_lines() {
        let b = b();
        let line_names = |kind| {
            b.lines(kind)
                .iter()
                .map(|l| {
                    l.squares()
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
        };
        let rail = b.lines(LineKind::Rail);
        assert_eq!(rail.len(), 6);
        assert_eq!(rail.iter().map(Line::edges).sum::<usize>(), 56);
        let on_rail: SquareSet = rail
            .iter()
            .flat_map(|l| l.squares().iter().copied())
            .collect();
        assert_eq!(on_rail, b.rail());
        for l in rail {
            for w in l.squares().windows(2) {
                assert!(b.rail_neighbours(w[0]).contains(w[1]));
            }
        }
        assert_eq!(
            line_names(LineKind::Rail)[4],
            "a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 a14"
        );
        let sea = b.lines(LineKind::Sea);
        assert_eq!(sea.len(), 10);
        assert_eq!(sea.iter().map(Line::edges).sum::<usize>(), 32);
        assert_eq!(line_names(LineKind::Sea)[0], "b7 c7 d7 e7 f7 g7 h7");
        assert_eq!(line_names(LineKind::Sea)[9], "h7 h8 h9");
        let air = b.lines(LineKind::Air);
        assert_eq!(air.len(), 6);
        let on_air: SquareSet = air
            .iter()
            .flat_map(|l| l.squares().iter().copied())
            .collect();
        assert_eq!(on_air.len(), 73);
        assert_eq!(on_air, b.air());
        assert_eq!(
            line_names(LineKind::Air)[2],
            "c2 c3 c4 c5 c6 c7 c8 c9 c10 c11 c12 c13 c14"
        );
        assert!(b.air().intersection(b.of_type(SquareType::City)).is_empty());
        assert_eq!(
            b.air().intersection(b.of_type(SquareType::Airfield)).len(),
            4
        );
        assert_eq!(b.air().intersection(b.of_type(SquareType::Camp)).len(), 4);
        assert_eq!(
            b.air().intersection(b.of_type(SquareType::Harbour)).len(),
            2
        );
        let crossings: SquareSet = Square::all()
            .filter(|&s| b.lines_through(LineKind::Air, s).count() == 2)
            .collect();
        assert_eq!(crossings, set("a8 c8 e8 g8 i8"));
        let ray: Vec<String> = air[5]
            .ray(named("e8"), false)
            .map(|s| s.to_string())
            .collect();
        assert_eq!(ray, ["d8", "c8", "b8", "a8"]);
        let ray: Vec<String> = air[5]
            .ray(named("e8"), true)
            .map(|s| s.to_string())
            .collect();
        assert_eq!(ray, ["f8", "g8", "h8", "i8"]);
        assert_eq!(air[5].ray(named("e9"), true).count(), 0);
    }

    #[test]
    fn lsa_names_round_trip() {
        for s in Square::all() {
            let name = s.to_string();
            assert_eq!(Square::parse(&name), Some(s));
            assert_eq!(name.parse::<Square>(), Ok(s));
            assert_eq!(Square::from_index(s.index() as u8), Some(s));
            assert_eq!(Square::new(s.file(), s.rank()), Some(s));
        }
        assert_eq!(named("a1").index(), 0);
        assert_eq!(named("i15").index(), 134);
        for bad in [
            "", "a", "a0", "a16", "j1", "A1", "a01", "a1 ", "a-1", "a100",
        ] {
            assert_eq!(Square::parse(bad), None, "{bad:?}");
            assert!(bad.parse::<Square>().is_err());
        }
        assert_eq!(Square::from_index(135), None);
        assert_eq!(Square::new(9, 1), None);
    }

    #[test]
    fn lsa_local_coordinates() {
        let b = b();
        for side in Side::BOTH {
            let mut seen = SquareSet::EMPTY;
            for row in 0..Local::ROWS {
                for col in 0..Local::COLS {
                    let l = Local::new(side, row, col).unwrap();
                    let s = b.square(l);
                    assert_eq!(b.local(s), Some(l));
                    seen.insert(s);
                }
            }
            assert_eq!(seen, b.half(side));
        }
        let l = |side, r, c| b.square(Local::new(side, r, c).unwrap()).to_string();
        assert_eq!(l(Side::South, 0, 0), "a6");
        assert_eq!(l(Side::South, 5, 8), "i1");
        assert_eq!(l(Side::North, 0, 0), "i10");
        assert_eq!(l(Side::North, 5, 8), "a15");
        assert_eq!(b.local(named("e8")), None);
        assert_eq!(Local::new(Side::South, 6, 0), None);
        assert_eq!(Local::new(Side::South, 0, 9), None);
    }

    #[test]
    fn lsa_board_is_symmetric() {
        let b = b();
        let image = |set: SquareSet, f: fn(Square) -> Square| set.iter().map(f).collect();
        for s in Square::all() {
            for m in [Square::rotated, Square::mirrored] {
                let t = m(s);
                assert_eq!(m(t), s);
                assert_eq!(b.square_type(t), b.square_type(s), "{s} {t}");
                assert_eq!(b.is_rail(t), b.is_rail(s));
                assert_eq!(b.is_air(t), b.is_air(s));
                assert_eq!(b.is_bridgehead(t), b.is_bridgehead(s));
                assert_eq!(b.road_neighbours(t), image(b.road_neighbours(s), m));
                assert_eq!(b.rail_neighbours(t), image(b.rail_neighbours(s), m));
                assert_eq!(b.sea_neighbours(t), image(b.sea_neighbours(s), m));
                assert_eq!(b.gunboat_strikes(t), image(b.gunboat_strikes(s), m));
            }
            let r = s.rotated();
            assert_eq!(b.side(r), b.side(s).map(Side::other));
            if let Some(l) = b.local(s) {
                let other = Local::new(l.side().other(), l.row(), l.col()).unwrap();
                assert_eq!(
                    b.local(r),
                    Some(other),
                    "local coordinates swap with the sides"
                );
            }
            for side in Side::BOTH {
                assert_eq!(
                    b.landing(side.other(), r),
                    b.landing(side, s).map(Square::rotated)
                );
            }
        }
        assert_eq!(named("c3").rotated(), named("g13"));
        assert_eq!(named("c3").mirrored(), named("g3"));
        for side in Side::BOTH {
            let o = side.other();
            assert_eq!(b.harbour(o), b.harbour(side).rotated());
            for (x, y) in [
                (b.coast(side), b.coast(o)),
                (b.anchors(side), b.anchors(o)),
                (b.fort_strike_squares(side), b.fort_strike_squares(o)),
                (b.half(side), b.half(o)),
            ] {
                assert_eq!(image(x, Square::rotated), y);
                assert_eq!(image(x, Square::mirrored), x);
            }
        }
        let line_images = |kind| {
            let lines = b.lines(kind);
            for m in [Square::rotated, Square::mirrored] {
                for l in lines {
                    let img: SquareSet = l.squares().iter().map(|&s| m(s)).collect();
                    assert!(
                        lines
                            .iter()
                            .any(|k| k.squares().iter().copied().collect::<SquareSet>() == img),
                        "{kind:?} line image"
                    );
                }
            }
        };
        line_images(LineKind::Rail);
        line_images(LineKind::Sea);
        line_images(LineKind::Air);
    }

    #[test]
    fn lsa_square_sets() {
        let mut s = SquareSet::EMPTY;
        assert!(s.is_empty());
        for x in Square::all() {
            s.insert(x);
        }
        assert_eq!(s.len(), 135);
        assert_eq!(s.iter().count(), 135);
        s.remove(named("i15"));
        assert!(!s.contains(named("i15")) && s.contains(named("h15")));
        assert_eq!(format!("{:?}", set("a1 e8")), "{\"a1\", \"e8\"}");
        let w: crate::bits::Wide<3> = set("i15").into();
        assert_eq!(w.0[2], 1 << (134 - 128));
    }
}
