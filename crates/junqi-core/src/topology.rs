//! Board topology (RULES §2) as data: squares, their kinds, road and rail edges, straight rail
//! lines, the local coordinates of §2.3, drawing points and step distances. Each topology is
//! built once and shared (`&'static`).
//!
//! There are five: the three-, four- and six-player boards and two variants of the two-player
//! board, with the middle crossing c6–c7 as a rail edge (default) or as a road edge only (option
//! `middle_crossing = road`). The two-, three- and four-player boards lie on a grid of files and
//! ranks (`a1`, `g14`); the six-player board does not (`0b1`, `x`, `n4`, `t5`, §2.5).

use crate::bits::{has_word, set_word, Words, WORDS};
use crate::types::{BoardKind, PerSeat, Seat, MAX_SEATS};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// A square of a board: an index into its topology's tables. Its name (`a1`, `g14`, `3c6`) comes
/// from [`Topology::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The index into the topology's tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// What kind of point a square is (RULES §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareKind {
    /// 兵站: an ordinary point (on the rail or not).
    Station,
    /// 行营: a safe camp; pieces in it cannot be attacked.
    Camp,
    /// 大本营: headquarters.
    Headquarters,
}

/// Where a square lies in a seat's own territory: the owning seat and local (row, column) (§2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Local {
    /// The seat whose half or arm this is.
    pub seat: Seat,
    /// 0 = front row … 5 = HQ row.
    pub row: u8,
    /// 0 … 4 from the seat's own left.
    pub col: u8,
}

/// Local camps (row, column), the same for every seat.
pub const LOCAL_CAMPS: [(u8, u8); 5] = [(1, 1), (1, 3), (2, 2), (3, 1), (3, 3)];
/// Local HQs (row, column), the same for every seat.
pub const LOCAL_HQS: [(u8, u8); 2] = [(5, 1), (5, 3)];

/// Whether local (row, col) is a camp.
pub const fn is_local_camp(row: u8, col: u8) -> bool {
    matches!((row, col), (1, 1) | (1, 3) | (2, 2) | (3, 1) | (3, 3))
}

/// Whether local (row, col) is on its arm's rail ring (front row, second-last row, and the two
/// side files between them). Used by every board but the two-player one, whose rail is drawn
/// across both halves.
const fn on_ring(r: u8, c: u8) -> bool {
    r == 0 || r == 4 || ((c == 0 || c == 4) && r <= 4)
}

/// Local squares of one seat: `local[row][col]` is a square index.
type LocalTable = [[u8; 5]; 6];

/// The shared tables of one board.
pub struct Topology {
    /// Which board.
    pub board: BoardKind,
    /// Whether two-player c6–c7 is a rail edge (always true for the other boards).
    pub middle_rail: bool,
    names: Vec<String>,
    by_name: HashMap<String, u8>,
    grid_coords: Vec<Option<(u8, u8)>>,
    points: Vec<(f64, f64)>,
    grid: Vec<Option<u8>>,
    kinds: Vec<SquareKind>,
    home: Vec<Option<Local>>,
    local: PerSeat<LocalTable>,
    distance: Vec<u8>,
    pub(crate) step: Vec<Words>,
    pub(crate) rail_adj: Vec<Words>,
    pub(crate) rail: Words,
    pub(crate) camps: Words,
    pub(crate) hqs: Words,
    pub(crate) all: Words,
    /// HQ squares of each seat.
    pub(crate) seat_hqs: PerSeat<Words>,
    lines: Vec<Vec<u8>>,
    ray_ranges: Vec<(u16, u16)>,
    rays: Vec<(u16, u16)>,
    ray_squares: Vec<u8>,
    /// Two-player shift masks for the rail flood fill: squares whose upward (+5) or downward (-5)
    /// orthogonal neighbour is not joined to them by rail (the mountain, the road-only crossing).
    pub(crate) up_block: u64,
    pub(crate) down_block: u64,
    road_edges: usize,
    diagonal_edges: usize,
    rail_edges: usize,
}

/// Files and ranks of the grid the two-, three- and four-player boards lie on.
const GRID: usize = 17;

impl Topology {
    /// The two-player topology (`middle_rail` false for `middle_crossing = road`).
    pub fn two_player(middle_rail: bool) -> &'static Topology {
        static RAIL: OnceLock<Topology> = OnceLock::new();
        static ROAD: OnceLock<Topology> = OnceLock::new();
        if middle_rail {
            RAIL.get_or_init(|| build_two(true))
        } else {
            ROAD.get_or_init(|| build_two(false))
        }
    }

    /// The three-player topology (the four-player board without West, §2.4).
    pub fn three_player() -> &'static Topology {
        static THREE: OnceLock<Topology> = OnceLock::new();
        THREE.get_or_init(|| build_cross(BoardKind::ThreePlayer))
    }

    /// The four-player topology.
    pub fn four_player() -> &'static Topology {
        static FOUR: OnceLock<Topology> = OnceLock::new();
        FOUR.get_or_init(|| build_cross(BoardKind::FourPlayer))
    }

    /// The six-player topology (§2.5).
    pub fn six_player() -> &'static Topology {
        static SIX: OnceLock<Topology> = OnceLock::new();
        SIX.get_or_init(build_six)
    }

    /// The topology for a board (the two-player one with the crossing as given).
    pub fn get(board: BoardKind, middle_rail: bool) -> &'static Topology {
        match board {
            BoardKind::TwoPlayer => Topology::two_player(middle_rail),
            BoardKind::ThreePlayer => Topology::three_player(),
            BoardKind::FourPlayer => Topology::four_player(),
            BoardKind::SixPlayer => Topology::six_player(),
        }
    }

    /// Number of squares.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Never true; boards have squares.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// All squares, in index order.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.names.len() as u8).map(Square)
    }

    /// The name of a square, e.g. `a1`, `3c6`, `x`.
    pub fn name(&self, sq: Square) -> &str {
        &self.names[sq.index()]
    }

    /// The square with this name, if the board has it. Canonical spelling only (`g7`, not `g07`).
    pub fn parse_square(&self, name: &str) -> Option<Square> {
        self.by_name.get(name).map(|&i| Square(i))
    }

    /// The square at file index (0 = `a`) and rank (1-based), if the board lies on a grid and
    /// has one there.
    pub fn at(&self, file: u8, rank: u8) -> Option<Square> {
        if !self.grid.is_empty() && (file as usize) < GRID && (1..=GRID as u8).contains(&rank) {
            self.grid[file as usize * GRID + rank as usize - 1].map(Square)
        } else {
            None
        }
    }

    /// (file index, rank) of a square on the grid boards (two, three and four seats); `None` on
    /// the six-player board, which has no grid.
    pub fn grid_coords(&self, sq: Square) -> Option<(u8, u8)> {
        self.grid_coords[sq.index()]
    }

    /// Where to draw a square, in units of one step inside an arm, y up: (file, rank) on the
    /// grid boards, the coordinates of §2.5 on the six-player board.
    pub fn point(&self, sq: Square) -> (f64, f64) {
        self.points[sq.index()]
    }

    /// The fewest one-step moves (road or rail edges, ignoring pieces) between two squares.
    #[inline(always)]
    pub fn distance(&self, a: Square, b: Square) -> u8 {
        self.distance[a.index() * self.len() + b.index()]
    }

    /// Station, camp or HQ.
    pub fn kind(&self, sq: Square) -> SquareKind {
        self.kinds[sq.index()]
    }

    /// Whether the square is on the railway.
    pub fn is_rail(&self, sq: Square) -> bool {
        has_word(&self.rail, sq.0)
    }

    /// The seat's territory and local coordinates of a square (`None` in a centre).
    pub fn home(&self, sq: Square) -> Option<Local> {
        self.home[sq.index()]
    }

    /// The square of a seat's local (row, col) (§2.3).
    pub fn local(&self, seat: Seat, row: u8, col: u8) -> Square {
        Square(self.local[seat as usize][row as usize][col as usize])
    }
    /// One-step neighbours (road or rail edge).
    pub fn neighbours(&self, sq: Square) -> impl Iterator<Item = Square> + '_ {
        crate::bits::iter_words(self.step[sq.index()]).map(Square)
    }

    /// Neighbours along a rail edge.
    pub fn rail_neighbours(&self, sq: Square) -> impl Iterator<Item = Square> + '_ {
        crate::bits::iter_words(self.rail_adj[sq.index()]).map(Square)
    }

    /// Whether two squares are joined by a road or rail edge.
    pub fn adjacent(&self, a: Square, b: Square) -> bool {
        has_word(&self.step[a.index()], b.0)
    }

    /// Whether two squares are joined by a rail edge.
    pub fn rail_adjacent(&self, a: Square, b: Square) -> bool {
        has_word(&self.rail_adj[a.index()], b.0)
    }

    /// The straight rail lines (§2), each in order along the line.
    pub fn lines(&self) -> impl Iterator<Item = impl Iterator<Item = Square> + '_> + '_ {
        self.lines.iter().map(|l| l.iter().map(|&s| Square(s)))
    }

    /// Number of straight rail lines.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// Rays from a square along every line through it: each ray lists the squares in order
    /// moving away from the square.
    #[inline(always)]
    pub(crate) fn rays(&self, sq: u8) -> impl Iterator<Item = &[u8]> + '_ {
        let (a, b) = self.ray_ranges[sq as usize];
        self.rays[a as usize..b as usize]
            .iter()
            .map(move |&(s, e)| &self.ray_squares[s as usize..e as usize])
    }

    /// Counts of edges: (orthogonal road, camp-diagonal road, rail).
    pub fn edge_counts(&self) -> (usize, usize, usize) {
        (self.road_edges, self.diagonal_edges, self.rail_edges)
    }

    /// Number of rail squares.
    pub fn rail_square_count(&self) -> usize {
        crate::bits::count_words(&self.rail) as usize
    }

    /// The seat's HQ squares, local (5,1) first.
    pub fn hqs_of(&self, seat: Seat) -> [Square; 2] {
        [self.local(seat, 5, 1), self.local(seat, 5, 3)]
    }
}

impl fmt::Debug for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Topology({}, middle_rail={})",
            self.board, self.middle_rail
        )
    }
}

/// Where a square is: its name, its grid place (grid boards) and its drawing point.
struct SquareSpec {
    name: String,
    grid: Option<(u8, u8)>,
    point: (f64, f64),
}

impl SquareSpec {
    /// A square of a grid board, named and drawn by its file and rank.
    fn grid(file: u8, rank: u8) -> SquareSpec {
        SquareSpec {
            name: format!("{}{}", (b'a' + file) as char, rank),
            grid: Some((file, rank)),
            point: (file as f64, rank as f64),
        }
    }
}

/// Incremental builder shared by every board.
struct Builder {
    board: BoardKind,
    names: Vec<String>,
    by_name: HashMap<String, u8>,
    grid_coords: Vec<Option<(u8, u8)>>,
    points: Vec<(f64, f64)>,
    kinds: Vec<SquareKind>,
    home: Vec<Option<Local>>,
    local: PerSeat<LocalTable>,
    step: Vec<Words>,
    rail_adj: Vec<Words>,
    rail: Words,
    road_edges: usize,
    diagonal_edges: usize,
    rail_edges: usize,
}

impl Builder {
    fn new(board: BoardKind, squares: Vec<SquareSpec>) -> Builder {
        let n = squares.len();
        assert!(n <= 64 * WORDS, "too many squares for the square set");
        let by_name = squares
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), i as u8))
            .collect();
        Builder {
            board,
            by_name,
            grid_coords: squares.iter().map(|s| s.grid).collect(),
            points: squares.iter().map(|s| s.point).collect(),
            names: squares.into_iter().map(|s| s.name).collect(),
            kinds: vec![SquareKind::Station; n],
            home: vec![None; n],
            local: [[[0; 5]; 6]; MAX_SEATS],
            step: vec![[0; WORDS]; n],
            rail_adj: vec![[0; WORDS]; n],
            rail: [0; WORDS],
            road_edges: 0,
            diagonal_edges: 0,
            rail_edges: 0,
        }
    }

    fn named(&self, name: &str) -> u8 {
        *self
            .by_name
            .get(name)
            .unwrap_or_else(|| panic!("no square {name}"))
    }

    fn sq(&self, file: u8, rank: u8) -> u8 {
        self.named(&format!("{}{}", (b'a' + file) as char, rank))
    }

    fn link(&mut self, a: u8, b: u8) {
        set_word(&mut self.step[a as usize], b, true);
        set_word(&mut self.step[b as usize], a, true);
    }

    fn road(&mut self, a: u8, b: u8, diagonal: bool) {
        assert!(!has_word(&self.step[a as usize], b), "duplicate road edge");
        self.link(a, b);
        if diagonal {
            self.diagonal_edges += 1;
        } else {
            self.road_edges += 1;
        }
    }

    /// Mark a road edge as rail too (rail edges inside a territory follow its roads).
    fn rail_over_road(&mut self, a: u8, b: u8) {
        assert!(
            has_word(&self.step[a as usize], b),
            "rail over a missing road"
        );
        assert!(
            !has_word(&self.rail_adj[a as usize], b),
            "duplicate rail edge"
        );
        set_word(&mut self.rail_adj[a as usize], b, true);
        set_word(&mut self.rail_adj[b as usize], a, true);
        self.rail_edges += 1;
    }

    /// A rail edge that is not a road edge (links between arms and the centre, arcs).
    fn rail_edge(&mut self, a: u8, b: u8) {
        assert!(
            !has_word(&self.rail_adj[a as usize], b),
            "duplicate rail edge"
        );
        self.link(a, b);
        set_word(&mut self.rail_adj[a as usize], b, true);
        set_word(&mut self.rail_adj[b as usize], a, true);
        self.rail_edges += 1;
    }

    fn set_rail(&mut self, s: u8) {
        set_word(&mut self.rail, s, true);
    }

    /// A seat's territory, given the square of each local (row, col): kinds, home, orthogonal
    /// road edges, camp diagonals, as one half of the two-player board.
    fn territory(&mut self, seat: Seat, local: LocalTable) {
        self.local[seat as usize] = local;
        for r in 0..6u8 {
            for c in 0..5u8 {
                let s = local[r as usize][c as usize];
                self.home[s as usize] = Some(Local {
                    seat,
                    row: r,
                    col: c,
                });
                if is_local_camp(r, c) {
                    self.kinds[s as usize] = SquareKind::Camp;
                } else if LOCAL_HQS.contains(&(r, c)) {
                    self.kinds[s as usize] = SquareKind::Headquarters;
                }
            }
        }
        for r in 0..6usize {
            for c in 0..5usize {
                if r + 1 < 6 {
                    self.road(local[r][c], local[r + 1][c], false);
                }
                if c + 1 < 5 {
                    self.road(local[r][c], local[r][c + 1], false);
                }
            }
        }
        // Camp diagonals: each camp to its four diagonal neighbours, counted once.
        let mut seen = std::collections::HashSet::new();
        for &(r, c) in &LOCAL_CAMPS {
            for (dr, dc) in [(-1i8, -1i8), (-1, 1), (1, -1), (1, 1)] {
                let (nr, nc) = ((r as i8 + dr) as usize, (c as i8 + dc) as usize);
                let (a, b) = (local[r as usize][c as usize], local[nr][nc]);
                if seen.insert((a.min(b), a.max(b))) {
                    self.road(a, b, true);
                }
            }
        }
    }

    /// The rail ring of an arm (every board but the two-player one): its squares and edges.
    fn ring(&mut self, seat: Seat) {
        let loc = self.local[seat as usize];
        for r in 0..5u8 {
            for c in 0..5u8 {
                if on_ring(r, c) {
                    self.set_rail(loc[r as usize][c as usize]);
                }
                for (nr, nc) in [(r + 1, c), (r, c + 1)] {
                    if nr < 5 && nc < 5 && on_ring(r, c) && on_ring(nr, nc) {
                        self.rail_over_road(
                            loc[r as usize][c as usize],
                            loc[nr as usize][nc as usize],
                        );
                    }
                }
            }
        }
    }

    fn finish(
        self,
        middle_rail: bool,
        lines: Vec<Vec<u8>>,
        up_block: u64,
        down_block: u64,
    ) -> Topology {
        let n = self.names.len();
        let names = self.names;
        let mut camps = [0; WORDS];
        let mut hqs = [0; WORDS];
        let mut all = [0; WORDS];
        for i in 0..n {
            set_word(&mut all, i as u8, true);
            set_word(&mut camps, i as u8, self.kinds[i] == SquareKind::Camp);
            set_word(&mut hqs, i as u8, self.kinds[i] == SquareKind::Headquarters);
        }
        let mut seat_hqs = [[0; WORDS]; MAX_SEATS];
        for (seat, hq) in seat_hqs.iter_mut().enumerate().take(self.board.seats()) {
            for (r, c) in LOCAL_HQS {
                set_word(hq, self.local[seat][r as usize][c as usize], true);
            }
        }
        for line in &lines {
            for w in line.windows(2) {
                assert!(
                    has_word(&self.rail_adj[w[0] as usize], w[1]),
                    "line step {}-{} is not a rail edge",
                    names[w[0] as usize],
                    names[w[1] as usize]
                );
            }
        }
        // Rays: from each square of each line, both directions.
        let mut per_square: Vec<Vec<Vec<u8>>> = vec![Vec::new(); n];
        for line in &lines {
            for (i, &s) in line.iter().enumerate() {
                if i + 1 < line.len() {
                    per_square[s as usize].push(line[i + 1..].to_vec());
                }
                if i > 0 {
                    per_square[s as usize].push(line[..i].iter().rev().copied().collect());
                }
            }
        }
        let mut ray_ranges = Vec::with_capacity(n);
        let mut rays = Vec::new();
        let mut ray_squares = Vec::new();
        for list in per_square {
            let start = rays.len() as u16;
            for ray in list {
                let s = ray_squares.len() as u16;
                ray_squares.extend_from_slice(&ray);
                rays.push((s, ray_squares.len() as u16));
            }
            ray_ranges.push((start, rays.len() as u16));
        }
        // Step distances: a breadth-first search from every square.
        let mut distance = vec![u8::MAX; n * n];
        for from in 0..n {
            let row = &mut distance[from * n..(from + 1) * n];
            row[from] = 0;
            let mut queue = std::collections::VecDeque::from([from]);
            while let Some(a) = queue.pop_front() {
                for b in crate::bits::iter_words(self.step[a]) {
                    if row[b as usize] == u8::MAX {
                        row[b as usize] = row[a] + 1;
                        queue.push_back(b as usize);
                    }
                }
            }
        }
        let mut grid = Vec::new();
        if self.grid_coords.iter().all(Option::is_some) {
            grid = vec![None; GRID * GRID];
            for (i, g) in self.grid_coords.iter().enumerate() {
                let (f, r) = g.expect("grid board");
                grid[f as usize * GRID + r as usize - 1] = Some(i as u8);
            }
        }
        Topology {
            board: self.board,
            middle_rail,
            names,
            by_name: self.by_name,
            grid_coords: self.grid_coords,
            points: self.points,
            grid,
            kinds: self.kinds,
            home: self.home,
            local: self.local,
            distance,
            step: self.step,
            rail_adj: self.rail_adj,
            rail: self.rail,
            camps,
            hqs,
            all,
            seat_hqs,
            lines,
            ray_ranges,
            rays,
            ray_squares,
            up_block,
            down_block,
            road_edges: self.road_edges,
            diagonal_edges: self.diagonal_edges,
            rail_edges: self.rail_edges,
        }
    }

    /// The local table of a grid-board seat from its mapping of local (r, c) to (file, rank).
    fn grid_local(&self, map: impl Fn(u8, u8) -> (u8, u8)) -> LocalTable {
        let mut local = [[0u8; 5]; 6];
        for (r, row) in local.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let (f, k) = map(r as u8, c as u8);
                *cell = self.sq(f, k);
            }
        }
        local
    }

    /// A line from a spec such as `g2-g6 g7 g9` (runs along a file or rank, and single names).
    fn line(&self, spec: &str) -> Vec<u8> {
        spec.split_whitespace()
            .flat_map(|part| expand(self, part))
            .collect()
    }
}

fn build_two(middle_rail: bool) -> Topology {
    let mut squares = Vec::new();
    for rank in 1..=12u8 {
        for file in 0..5u8 {
            squares.push(SquareSpec::grid(file, rank));
        }
    }
    let mut b = Builder::new(BoardKind::TwoPlayer, squares);
    let south = b.grid_local(|r, c| (c, 6 - r));
    let north = b.grid_local(|r, c| (4 - c, 7 + r));
    b.territory(0, south);
    b.territory(1, north);
    // Across the front: a, c, e cross the mountain; b and d do not.
    let is_rail =
        |f: u8, r: u8| matches!(r, 2 | 6 | 7 | 11) || ((f == 0 || f == 4) && (2..=11).contains(&r));
    for f in 0..5u8 {
        for r in 1..=12u8 {
            if is_rail(f, r) {
                let s = b.sq(f, r);
                b.set_rail(s);
            }
        }
    }
    // Rail edges: orthogonal pairs of rail squares, the mountain excepted; the middle crossing
    // only when it is rail. Rail edges inside a half are already road edges; the crossings
    // a6-a7, e6-e7 (and c6-c7) are new edges.
    for f in 0..5u8 {
        for r in 1..=12u8 {
            for (df, dr) in [(1u8, 0u8), (0, 1)] {
                let (nf, nr) = (f + df, r + dr);
                if nf > 4 || nr > 12 || !is_rail(f, r) || !is_rail(nf, nr) {
                    continue;
                }
                let (a, c) = (b.sq(f, r), b.sq(nf, nr));
                let crossing = r == 6 && nr == 7;
                if crossing && (f == 1 || f == 3) {
                    continue;
                }
                if crossing {
                    b.road(a, c, false);
                    if f == 2 && !middle_rail {
                        continue;
                    }
                }
                b.rail_over_road(a, c);
            }
        }
    }
    let mut lines: Vec<Vec<u8>> = Vec::new();
    for r in [2u8, 6, 7, 11] {
        lines.push((0..5).map(|f| b.sq(f, r)).collect());
    }
    for f in [0u8, 4] {
        lines.push((2..=11).map(|r| b.sq(f, r)).collect());
    }
    if middle_rail {
        lines.push(vec![b.sq(2, 6), b.sq(2, 7)]);
    }
    let bit = |f: u8, r: u8| 1u64 << ((r - 1) * 5 + f);
    let mut up_block = bit(1, 6) | bit(3, 6);
    let mut down_block = bit(1, 7) | bit(3, 7);
    if !middle_rail {
        up_block |= bit(2, 6);
        down_block |= bit(2, 7);
    }
    b.finish(middle_rail, lines, up_block, down_block)
}

/// The four-player board (§2.2), or the three-player board, which is the same without the West
/// arm (§2.4).
fn build_cross(board: BoardKind) -> Topology {
    // Arms as (seat, mapping from local (r, c) to (file index, rank)).
    type Map = fn(u8, u8) -> (u8, u8);
    let all_arms: [(Seat, Map); 4] = [
        (0, |r, c| (6 + c, 6 - r)),   // South: file g+c, rank 6-r
        (1, |r, c| (11 + r, 7 + c)),  // East: file l+r, rank 7+c
        (2, |r, c| (10 - c, 12 + r)), // North: file k-c, rank 12+r
        (3, |r, c| (5 - r, 11 - c)),  // West: file f-r, rank 11-c
    ];
    let arms = &all_arms[..board.seats()];
    // Direction from an arm's front row into the centre, per seat.
    let forward: [(i8, i8); 4] = [(0, 1), (-1, 0), (0, -1), (1, 0)];
    let mut squares = Vec::new();
    for rank in 1..=17u8 {
        for file in 0..17u8 {
            let in_arm = arms
                .iter()
                .any(|&(_, m)| (0..6).any(|r| (0..5).any(|c| m(r, c) == (file, rank))));
            let centre = matches!(file, 6 | 8 | 10) && matches!(rank, 7 | 9 | 11);
            if in_arm || centre {
                squares.push(SquareSpec::grid(file, rank));
            }
        }
    }
    let mut b = Builder::new(board, squares);
    for &(seat, map) in arms {
        let local = b.grid_local(map);
        b.territory(seat, local);
        b.ring(seat);
        // Front-row outer and middle files to the adjacent centre square.
        let (df, dr) = forward[seat as usize];
        for c in [0usize, 2, 4] {
            let s = local[0][c];
            let (f, r) = b.grid_coords[s as usize].expect("grid board");
            let t = b.sq((f as i8 + df) as u8, (r as i8 + dr) as u8);
            b.rail_edge(s, t);
        }
    }
    for f in [6u8, 8, 10] {
        for r in [7u8, 9, 11] {
            let s = b.sq(f, r);
            b.set_rail(s);
        }
    }
    // Centre squares join their neighbours two files or two ranks away.
    for f in [6u8, 8, 10] {
        for r in [7u8, 9, 11] {
            let s = b.sq(f, r);
            if f < 10 {
                let e = b.sq(f + 2, r);
                b.rail_edge(s, e);
            }
            if r < 11 {
                let n = b.sq(f, r + 2);
                b.rail_edge(s, n);
            }
        }
    }
    let four = board == BoardKind::FourPlayer;
    let arcs: &[(&str, &str)] = if four {
        &[("g6", "f7"), ("k6", "l7"), ("k12", "l11"), ("g12", "f11")]
    } else {
        &[("k6", "l7"), ("k12", "l11")]
    };
    for (x, y) in arcs {
        let (a, c) = (b.named(x), b.named(y));
        b.rail_edge(a, c);
    }
    let specs: &[&str] = if four {
        &[
            "g2-k2",
            "g16-k16",
            "b7-b11",
            "p7-p11",
            "g6-k6",
            "g12-k12",
            "f7-f11",
            "l7-l11",
            "g2-g6 g7 g9 g11 g12-g16",
            "k2-k6 k7 k9 k11 k12-k16",
            "b7-f7 g7 i7 k7 l7-p7",
            "b11-f11 g11 i11 k11 l11-p11",
            "i6 i7 i9 i11 i12",
            "f9 g9 i9 k9 l9",
            "g16-g12 f11-b11",
            "k16-k12 l11-p11",
            "g2-g6 f7-b7",
            "k2-k6 l7-p7",
        ]
    } else {
        // §2.4: West's lines are gone; rank 7, rank 11 and the short line through i9 begin at
        // the centre, and the two arc lines into West are left as parts of file g.
        &[
            "g2-k2",
            "g16-k16",
            "p7-p11",
            "g6-k6",
            "g12-k12",
            "l7-l11",
            "g2-g6 g7 g9 g11 g12-g16",
            "k2-k6 k7 k9 k11 k12-k16",
            "g7 i7 k7 l7-p7",
            "g11 i11 k11 l11-p11",
            "i6 i7 i9 i11 i12",
            "g9 i9 k9 l9",
            "k16-k12 l11-p11",
            "k2-k6 l7-p7",
        ]
    };
    let lines = specs.iter().map(|s| b.line(s)).collect();
    b.finish(true, lines, 0, 0)
}

/// The six-player board (§2.5): six arms round a star of 13 rail squares. Squares are numbered
/// arm by arm (seat 0's local (0,0) … (5,4), then seat 1's …), then `x`, `n0`…`n5`, `t0`…`t5`.
fn build_six() -> Topology {
    let sqrt3 = 3f64.sqrt();
    let dir = |deg: f64| (deg.to_radians().cos(), deg.to_radians().sin());
    let theta = |k: usize| -90.0 + 60.0 * k as f64;
    let arm_name = |k: usize, r: u8, c: u8| format!("{k}{}{}", (b'a' + c) as char, 6 - r);
    let mut squares = Vec::new();
    for k in 0..6 {
        let (ax, ay) = dir(theta(k));
        let (sx, sy) = dir(theta(k) + 90.0);
        for r in 0..6u8 {
            for c in 0..5u8 {
                let out = 2.0 * sqrt3 + 1.0 + r as f64;
                let side = c as f64 - 2.0;
                squares.push(SquareSpec {
                    name: arm_name(k, r, c),
                    grid: None,
                    point: (out * ax + side * sx, out * ay + side * sy),
                });
            }
        }
    }
    squares.push(SquareSpec {
        name: "x".into(),
        grid: None,
        point: (0.0, 0.0),
    });
    for k in 0..6 {
        let (x, y) = dir(theta(k));
        squares.push(SquareSpec {
            name: format!("n{k}"),
            grid: None,
            point: (4.0 / sqrt3 * x, 4.0 / sqrt3 * y),
        });
    }
    for k in 0..6 {
        let (x, y) = dir(theta(k) + 30.0);
        squares.push(SquareSpec {
            name: format!("t{k}"),
            grid: None,
            point: (4.0 * x, 4.0 * y),
        });
    }
    let mut b = Builder::new(BoardKind::SixPlayer, squares);
    for k in 0..6usize {
        let mut local = [[0u8; 5]; 6];
        for (r, row) in local.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = b.named(&arm_name(k, r as u8, c as u8));
            }
        }
        b.territory(k as Seat, local);
        b.ring(k as Seat);
    }
    let name = |s: &str, k: usize| format!("{s}{}", k % 6);
    let (x, n, t) = (
        b.named("x"),
        |b: &Builder, k: usize| b.named(&name("n", k)),
        |b: &Builder, k: usize| b.named(&name("t", k)),
    );
    b.set_rail(x);
    for k in 0..6 {
        let (nk, tk) = (n(&b, k), t(&b, k));
        b.set_rail(nk);
        b.set_rail(tk);
    }
    for k in 0..6usize {
        let front = |b: &Builder, arm: usize, c: u8| b.named(&arm_name(arm % 6, 0, c));
        // Front links: ka6–t(k−1), kc6–nk, ke6–tk; the arc ke6–(k+1)a6.
        let (a6, c6, e6) = (front(&b, k, 0), front(&b, k, 2), front(&b, k, 4));
        let (prev_t, nk, tk) = (t(&b, k + 5), n(&b, k), t(&b, k));
        b.rail_edge(a6, prev_t);
        b.rail_edge(c6, nk);
        b.rail_edge(e6, tk);
        let next_a6 = front(&b, k + 1, 0);
        b.rail_edge(e6, next_a6);
        // Centre: x–nk, nk–n(k+1), tk–nk, tk–n(k+1).
        let nk1 = n(&b, k + 1);
        b.rail_edge(x, nk);
        b.rail_edge(nk, nk1);
        b.rail_edge(tk, nk);
        b.rail_edge(tk, nk1);
    }
    let run = |k: usize, rank_from: u8, rank_to: u8, file: char| -> String {
        let step: i8 = if rank_to >= rank_from { 1 } else { -1 };
        let mut out = Vec::new();
        let mut r = rank_from as i8;
        loop {
            out.push(format!("{}{file}{r}", k % 6));
            if r == rank_to as i8 {
                break;
            }
            r += step;
        }
        out.join(" ")
    };
    let mut specs: Vec<String> = Vec::new();
    for k in 0..6 {
        specs.push(format!("{k}a2 {k}b2 {k}c2 {k}d2 {k}e2"));
        specs.push(format!("{k}a6 {k}b6 {k}c6 {k}d6 {k}e6"));
    }
    for k in 0..3 {
        specs.push(format!("{k}c6 n{k} x n{} {}c6", k + 3, k + 3));
    }
    for k in 0..6 {
        specs.push(format!(
            "{} t{k} n{} n{} t{} {}",
            run(k, 2, 6, 'e'),
            (k + 1) % 6,
            (k + 2) % 6,
            (k + 2) % 6,
            run(k + 3, 6, 2, 'a')
        ));
    }
    for k in 0..6 {
        specs.push(format!("{} {}", run(k, 2, 6, 'e'), run(k + 1, 6, 2, 'a')));
    }
    let lines = specs.iter().map(|s| b.line(s)).collect();
    b.finish(true, lines, 0, 0)
}

/// Expand `g2-g6` (a straight run along a file or rank of a grid board, either direction) or a
/// single name.
fn expand(b: &Builder, part: &str) -> Vec<u8> {
    match part.split_once('-') {
        None => vec![b.named(part)],
        Some((x, y)) => {
            let (fx, rx) = b.grid_coords[b.named(x) as usize].expect("grid board");
            let (fy, ry) = b.grid_coords[b.named(y) as usize].expect("grid board");
            let steps = (fx as i8 - fy as i8).abs().max((rx as i8 - ry as i8).abs());
            let (df, dr) = (
                (fy as i8 - fx as i8).signum(),
                (ry as i8 - rx as i8).signum(),
            );
            (0..=steps)
                .map(|i| b.sq((fx as i8 + df * i) as u8, (rx as i8 + dr * i) as u8))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(t: &Topology, n: &str) -> Square {
        t.parse_square(n).unwrap_or_else(|| panic!("{n}"))
    }

    #[test]
    fn two_player_counts() {
        for middle in [true, false] {
            let t = Topology::two_player(middle);
            assert_eq!(t.len(), 60);
            let (road, diag, rail) = t.edge_counts();
            assert_eq!(road, 101);
            assert_eq!(diag, 32);
            assert_eq!(rail, if middle { 35 } else { 34 });
            assert_eq!(t.rail_square_count(), 32);
            assert_eq!(t.line_count(), if middle { 7 } else { 6 });
            let camps = t
                .squares()
                .filter(|&s| t.kind(s) == SquareKind::Camp)
                .count();
            let hqs = t
                .squares()
                .filter(|&s| t.kind(s) == SquareKind::Headquarters)
                .count();
            assert_eq!((camps, hqs), (10, 4));
        }
    }

    #[test]
    fn two_player_features() {
        let t = Topology::two_player(true);
        // The mountain: b and d do not cross, a c e do.
        assert!(!t.adjacent(sq(t, "b6"), sq(t, "b7")));
        assert!(!t.adjacent(sq(t, "d6"), sq(t, "d7")));
        assert!(t.rail_adjacent(sq(t, "a6"), sq(t, "a7")));
        assert!(t.rail_adjacent(sq(t, "c6"), sq(t, "c7")));
        assert!(t.rail_adjacent(sq(t, "e6"), sq(t, "e7")));
        let road = Topology::two_player(false);
        assert!(road.adjacent(sq(road, "c6"), sq(road, "c7")));
        assert!(!road.rail_adjacent(sq(road, "c6"), sq(road, "c7")));
        // Camp diagonals.
        for n in ["a2", "c2", "a4", "c4"] {
            assert!(t.adjacent(sq(t, "b3"), sq(t, n)), "b3-{n}");
        }
        assert!(
            !t.adjacent(sq(t, "c3"), sq(t, "b2")),
            "no diagonal between stations"
        );
        assert_eq!(t.kind(sq(t, "b1")), SquareKind::Headquarters);
        assert_eq!(t.kind(sq(t, "c9")), SquareKind::Camp);
        assert!(!t.is_rail(sq(t, "a1")));
        assert!(t.is_rail(sq(t, "a5")));
        assert!(!t.is_rail(sq(t, "b5")));
        assert_eq!(t.local(1, 5, 1), sq(t, "d12"));
        assert_eq!(t.local(0, 0, 0), sq(t, "a6"));
        assert_eq!(
            t.home(sq(t, "e7")),
            Some(Local {
                seat: 1,
                row: 0,
                col: 0
            })
        );
    }

    #[test]
    fn four_player_counts() {
        let t = Topology::four_player();
        assert_eq!(t.len(), 129);
        assert_eq!(t.edge_counts().2, 92);
        assert_eq!(t.line_count(), 18);
        assert_eq!(t.rail_square_count(), 16 * 4 + 9);
        let camps = t
            .squares()
            .filter(|&s| t.kind(s) == SquareKind::Camp)
            .count();
        assert_eq!(camps, 20);
    }

    #[test]
    fn four_player_features() {
        let t = Topology::four_player();
        for (a, b) in [("g6", "f7"), ("k6", "l7"), ("k12", "l11"), ("g12", "f11")] {
            assert!(t.rail_adjacent(sq(t, a), sq(t, b)), "arc {a}-{b}");
        }
        for (a, b) in [
            ("g6", "g7"),
            ("i6", "i7"),
            ("l9", "k9"),
            ("f11", "g11"),
            ("g7", "i7"),
            ("i9", "i11"),
        ] {
            assert!(t.rail_adjacent(sq(t, a), sq(t, b)), "{a}-{b}");
        }
        assert!(t
            .neighbours(sq(t, "h6"))
            .all(|n| t.home(n).map(|l| l.seat) == Some(0)));
        assert!(t.parse_square("h7").is_none());
        assert!(t.parse_square("a+1").is_none() && t.parse_square("g07").is_none());
        assert_eq!(t.local(1, 5, 1), sq(t, "q8"));
        assert_eq!(t.local(2, 5, 1), sq(t, "j17"));
        assert_eq!(t.local(3, 5, 3), sq(t, "a8"));
        assert_eq!(t.kind(sq(t, "n9")), SquareKind::Camp);
        assert_eq!(t.kind(sq(t, "d9")), SquareKind::Camp);
        assert!(t.home(sq(t, "i9")).is_none());
        // An arc ray: g14 down through g12 onto f11 … b11.
        let g14 = sq(t, "g14").0;
        let names: Vec<Vec<&str>> = t
            .rays(g14)
            .map(|r| r.iter().map(|&s| t.name(Square(s))).collect())
            .collect();
        assert!(names.contains(&vec!["g13", "g12", "f11", "e11", "d11", "c11", "b11"]));
        assert!(names.contains(&vec![
            "g13", "g12", "g11", "g9", "g7", "g6", "g5", "g4", "g3", "g2"
        ]));
    }

    fn count(t: &Topology, kind: SquareKind) -> usize {
        t.squares().filter(|&s| t.kind(s) == kind).count()
    }

    fn ray_names(t: &Topology, from: &str) -> Vec<Vec<String>> {
        t.rays(sq(t, from).0)
            .map(|r| r.iter().map(|&s| t.name(Square(s)).to_string()).collect())
            .collect()
    }

    #[test]
    fn three_player_counts() {
        let t = Topology::three_player();
        assert_eq!(t.len(), 99);
        assert_eq!(t.edge_counts().2, 71);
        assert_eq!(t.line_count(), 14);
        assert_eq!(t.rail_square_count(), 16 * 3 + 9);
        assert_eq!(
            (
                count(t, SquareKind::Camp),
                count(t, SquareKind::Headquarters)
            ),
            (15, 6)
        );
        // Road edges as in three arms: 49 orthogonal and 16 camp diagonals each.
        assert_eq!(t.edge_counts().0, 3 * 49);
        assert_eq!(t.edge_counts().1, 3 * 16);
        // West is gone, with its links and arcs.
        for n in ["f7", "a8", "b11", "e9"] {
            assert!(t.parse_square(n).is_none(), "{n}");
        }
        assert_eq!(t.rail_neighbours(sq(t, "g7")).count(), 3);
        assert!(t.rail_adjacent(sq(t, "k6"), sq(t, "l7")));
        assert_eq!(
            t.rail_neighbours(sq(t, "g6")).count(),
            3,
            "no arc into West"
        );
        // The locals are the four-player ones.
        let four = Topology::four_player();
        for seat in 0..3 {
            for r in 0..6 {
                for c in 0..5 {
                    assert_eq!(
                        t.name(t.local(seat, r, c)),
                        four.name(four.local(seat, r, c))
                    );
                }
            }
        }
    }

    #[test]
    fn three_player_lines_are_cut_short() {
        let t = Topology::three_player();
        // Rank 7 begins at g7; from k7 westwards a slide ends there.
        assert!(ray_names(t, "k7").contains(&vec!["i7".to_string(), "g7".to_string()]));
        // g14 runs down file g to g2 (the arc into West is gone).
        let g14 = ray_names(t, "g14");
        assert_eq!(g14.len(), 2);
        assert!(g14
            .iter()
            .any(|r| r.last().map(String::as_str) == Some("g2")));
        // The arc line from k2 into East stays one line.
        assert!(ray_names(t, "k3")
            .iter()
            .any(|r| r.join(" ") == "k4 k5 k6 l7 m7 n7 o7 p7"));
        // g9 starts the short line through i9.
        assert!(ray_names(t, "i9").iter().any(|r| r.join(" ") == "g9"));
    }

    #[test]
    fn six_player_counts() {
        let t = Topology::six_player();
        assert_eq!(t.len(), 193);
        assert_eq!(t.edge_counts().2, 144);
        assert_eq!(t.line_count(), 27);
        assert_eq!(t.rail_square_count(), 16 * 6 + 13);
        assert_eq!(
            (
                count(t, SquareKind::Camp),
                count(t, SquareKind::Headquarters)
            ),
            (30, 12)
        );
        assert_eq!(t.edge_counts().0, 6 * 49);
        assert_eq!(t.edge_counts().1, 6 * 16);
        assert!(t.at(0, 1).is_none() && t.grid_coords(sq(t, "x")).is_none());
        for n in ["0b1", "3c6", "x", "n4", "t5", "5e2"] {
            assert_eq!(t.name(sq(t, n)), n);
        }
        for n in ["6a1", "0f1", "0a7", "n6", "t", "xx", "0a01"] {
            assert!(t.parse_square(n).is_none(), "{n}");
        }
        assert_eq!(t.kind(sq(t, "2b1")), SquareKind::Headquarters);
        assert_eq!(t.kind(sq(t, "4c4")), SquareKind::Camp);
        assert_eq!(t.local(3, 0, 2), sq(t, "3c6"));
        assert_eq!(t.hqs_of(5), [sq(t, "5b1"), sq(t, "5d1")]);
        assert!(t.home(sq(t, "t2")).is_none());
    }

    #[test]
    fn six_player_edges() {
        let t = Topology::six_player();
        let rail = |a: &str, b: &str| t.rail_adjacent(sq(t, a), sq(t, b));
        for k in 0..6 {
            let (p, q) = (k, (k + 1) % 6);
            let prev = (k + 5) % 6;
            assert!(rail(&format!("{k}a6"), &format!("t{prev}")));
            assert!(rail(&format!("{k}c6"), &format!("n{k}")));
            assert!(rail(&format!("{k}e6"), &format!("t{k}")));
            assert!(rail(&format!("{p}e6"), &format!("{q}a6")), "arc {p}-{q}");
            assert!(rail("x", &format!("n{k}")));
            assert!(rail(&format!("n{p}"), &format!("n{q}")));
            assert!(
                rail(&format!("t{k}"), &format!("n{p}"))
                    && rail(&format!("t{k}"), &format!("n{q}"))
            );
            // The second and fourth files of the front row have no link out of the arm.
            for f in ['b', 'd'] {
                let s = sq(t, &format!("{k}{f}6"));
                assert!(t
                    .neighbours(s)
                    .all(|n| t.home(n).map(|l| l.seat) == Some(k as u8)));
            }
            // x, n, t: 6 + 6×(x, two n, two t, one c6) ; t: two n, two front corners.
            assert_eq!(t.rail_neighbours(sq(t, &format!("t{k}"))).count(), 4);
            assert_eq!(t.rail_neighbours(sq(t, &format!("n{k}"))).count(), 6);
        }
        assert_eq!(t.rail_neighbours(sq(t, "x")).count(), 6);
        // Every hexagon edge lies on exactly one long line; long lines are straight on paper.
        let lines: Vec<Vec<Square>> = t.lines().map(|l| l.collect()).collect();
        for k in 0..6 {
            let (a, b) = (sq(t, &format!("n{k}")), sq(t, &format!("n{}", (k + 1) % 6)));
            let on = lines
                .iter()
                .filter(|l| {
                    l.windows(2)
                        .any(|w| (w[0] == a && w[1] == b) || (w[0] == b && w[1] == a))
                })
                .count();
            assert_eq!(on, 1, "n{k}-n{}", (k + 1) % 6);
        }
        for l in lines.iter().filter(|l| l.len() == 14) {
            let (x0, y0) = t.point(l[0]);
            let (x1, y1) = t.point(l[l.len() - 1]);
            for &s in l {
                let (x, y) = t.point(s);
                let cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0);
                assert!(cross.abs() < 1e-6, "{} off its line", t.name(s));
            }
        }
        // ke6, tk and (k+1)a6 form a triangle of side 1.
        let d = |a: &str, b: &str| {
            let ((x0, y0), (x1, y1)) = (t.point(sq(t, a)), t.point(sq(t, b)));
            ((x0 - x1).powi(2) + (y0 - y1).powi(2)).sqrt()
        };
        for (a, b) in [("0e6", "t0"), ("t0", "1a6"), ("0e6", "1a6"), ("0c6", "0c5")] {
            assert!((d(a, b) - 1.0).abs() < 1e-9, "{a}-{b}");
        }
    }

    #[test]
    fn six_player_rays() {
        let t = Topology::six_player();
        let rays = ray_names(t, "0e3");
        let arc = "0e4 0e5 0e6 1a6 1a5 1a4 1a3 1a2";
        let long = "0e4 0e5 0e6 t0 n1 n2 t2 3a6 3a5 3a4 3a3 3a2";
        assert!(rays.iter().any(|r| r.join(" ") == arc), "{rays:?}");
        assert!(rays.iter().any(|r| r.join(" ") == long), "{rays:?}");
        let middle = ray_names(t, "1c6");
        assert!(middle.iter().any(|r| r.join(" ") == "n1 x n4 4c6"));
        assert!(middle.iter().any(|r| r.join(" ") == "1b6 1a6"));
    }

    #[test]
    fn distances_are_steps() {
        let two = Topology::two_player(true);
        assert_eq!(two.distance(sq(two, "a1"), sq(two, "a1")), 0);
        assert_eq!(two.distance(sq(two, "a1"), sq(two, "a2")), 1);
        assert_eq!(
            two.distance(sq(two, "b6"), sq(two, "b7")),
            3,
            "round the mountain"
        );
        let six = Topology::six_player();
        assert_eq!(six.distance(sq(six, "0c6"), sq(six, "3c6")), 4);
        for a in six.squares() {
            for b in six.squares() {
                assert_eq!(six.distance(a, b), six.distance(b, a));
                assert!(six.distance(a, b) < 40);
            }
        }
    }
}
