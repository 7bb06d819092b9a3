//! Board topology (RULES §2) as data: squares, their kinds, road and rail edges, straight rail
//! lines, and the local coordinates of §2.3. Each topology is built once and shared (`&'static`).
//!
//! There are three: the four-player board and two variants of the two-player board, with the
//! middle crossing c6–c7 as a rail edge (default) or as a road edge only (option
//! `middle_crossing = road`).

use crate::bits::{has_word, set_word, Words};
use crate::types::{BoardKind, Seat};
use std::fmt;
use std::sync::OnceLock;

/// A square of a board: an index into its topology's tables. Its name (`a1`, `g14`) comes from
/// [`Topology::name`].
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

/// The shared tables of one board.
pub struct Topology {
    /// Which board.
    pub board: BoardKind,
    /// Whether two-player c6–c7 is a rail edge (always true for the four-player board).
    pub middle_rail: bool,
    names: Vec<String>,
    coords: Vec<(u8, u8)>,
    grid: Vec<Option<u8>>,
    kinds: Vec<SquareKind>,
    home: Vec<Option<Local>>,
    local: [[[u8; 5]; 6]; 4],
    pub(crate) step: Vec<Words>,
    pub(crate) rail_adj: Vec<Words>,
    pub(crate) rail: Words,
    pub(crate) camps: Words,
    pub(crate) hqs: Words,
    pub(crate) all: Words,
    /// HQ squares of each seat.
    pub(crate) seat_hqs: [Words; 4],
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

    /// The four-player topology.
    pub fn four_player() -> &'static Topology {
        static FOUR: OnceLock<Topology> = OnceLock::new();
        FOUR.get_or_init(build_four)
    }

    /// The topology for a board (the two-player one with the crossing as given).
    pub fn get(board: BoardKind, middle_rail: bool) -> &'static Topology {
        match board {
            BoardKind::TwoPlayer => Topology::two_player(middle_rail),
            BoardKind::FourPlayer => Topology::four_player(),
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

    /// The name of a square, e.g. `a1`.
    pub fn name(&self, sq: Square) -> &str {
        &self.names[sq.index()]
    }

    /// The square with this name, if the board has it.
    pub fn parse_square(&self, name: &str) -> Option<Square> {
        let b = name.as_bytes();
        if b.len() < 2 || b.len() > 3 || !(b'a'..=b'q').contains(&b[0]) {
            return None;
        }
        let file = b[0] - b'a';
        // Canonical spelling only: digits, no leading zero or sign.
        if b[1] == b'0' || !b[1..].iter().all(u8::is_ascii_digit) {
            return None;
        }
        let rank: u8 = std::str::from_utf8(&b[1..]).ok()?.parse().ok()?;
        self.at(file, rank)
    }

    /// The square at file index (0 = `a`) and rank (1-based), if any.
    pub fn at(&self, file: u8, rank: u8) -> Option<Square> {
        if (file as usize) < GRID && (1..=GRID as u8).contains(&rank) {
            self.grid[file as usize * GRID + rank as usize - 1].map(Square)
        } else {
            None
        }
    }

    /// (file index, rank) of a square.
    pub fn coords(&self, sq: Square) -> (u8, u8) {
        self.coords[sq.index()]
    }

    /// Station, camp or HQ.
    pub fn kind(&self, sq: Square) -> SquareKind {
        self.kinds[sq.index()]
    }

    /// Whether the square is on the railway.
    pub fn is_rail(&self, sq: Square) -> bool {
        has_word(&self.rail, sq.0)
    }

    /// The seat's territory and local coordinates of a square (`None` in the four-player centre).
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

/// Incremental builder shared by both boards.
struct Builder {
    board: BoardKind,
    coords: Vec<(u8, u8)>,
    grid: Vec<Option<u8>>,
    kinds: Vec<SquareKind>,
    home: Vec<Option<Local>>,
    step: Vec<Words>,
    rail_adj: Vec<Words>,
    rail: Words,
    road_edges: usize,
    diagonal_edges: usize,
    rail_edges: usize,
}

impl Builder {
    fn new(board: BoardKind, squares: &[(u8, u8)]) -> Builder {
        let mut grid = vec![None; GRID * GRID];
        for (i, &(f, r)) in squares.iter().enumerate() {
            grid[f as usize * GRID + r as usize - 1] = Some(i as u8);
        }
        let n = squares.len();
        Builder {
            board,
            coords: squares.to_vec(),
            grid,
            kinds: vec![SquareKind::Station; n],
            home: vec![None; n],
            step: vec![[0; 3]; n],
            rail_adj: vec![[0; 3]; n],
            rail: [0; 3],
            road_edges: 0,
            diagonal_edges: 0,
            rail_edges: 0,
        }
    }

    fn sq(&self, file: u8, rank: u8) -> u8 {
        self.grid[file as usize * GRID + rank as usize - 1]
            .unwrap_or_else(|| panic!("no square at file {file} rank {rank}"))
    }

    fn named(&self, name: &str) -> u8 {
        let b = name.as_bytes();
        self.sq(b[0] - b'a', name[1..].parse().expect("rank"))
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

    /// The squares of a seat's territory in local coordinates, wired as one half of the
    /// two-player board: kinds, home, orthogonal road edges, camp diagonals.
    fn territory(&mut self, seat: Seat, map: impl Fn(u8, u8) -> (u8, u8)) -> [[u8; 5]; 6] {
        let mut local = [[0u8; 5]; 6];
        for (r, row) in local.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let (f, k) = map(r as u8, c as u8);
                *cell = self.sq(f, k);
            }
        }
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
        local
    }

    fn finish(
        self,
        middle_rail: bool,
        local: [[[u8; 5]; 6]; 4],
        lines: Vec<Vec<u8>>,
        up_block: u64,
        down_block: u64,
    ) -> Topology {
        let n = self.coords.len();
        let names: Vec<String> = self
            .coords
            .iter()
            .map(|&(f, r)| format!("{}{}", (b'a' + f) as char, r))
            .collect();
        let mut camps = [0; 3];
        let mut hqs = [0; 3];
        let mut all = [0; 3];
        for i in 0..n {
            set_word(&mut all, i as u8, true);
            set_word(&mut camps, i as u8, self.kinds[i] == SquareKind::Camp);
            set_word(&mut hqs, i as u8, self.kinds[i] == SquareKind::Headquarters);
        }
        let mut seat_hqs = [[0; 3]; 4];
        for (seat, hq) in seat_hqs.iter_mut().enumerate().take(self.board.seats()) {
            for (r, c) in LOCAL_HQS {
                set_word(hq, local[seat][r as usize][c as usize], true);
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
        Topology {
            board: self.board,
            middle_rail,
            names,
            coords: self.coords,
            grid: self.grid,
            kinds: self.kinds,
            home: self.home,
            local,
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
}

fn build_two(middle_rail: bool) -> Topology {
    let mut squares = Vec::new();
    for rank in 1..=12u8 {
        for file in 0..5u8 {
            squares.push((file, rank));
        }
    }
    let mut b = Builder::new(BoardKind::TwoPlayer, &squares);
    let south = b.territory(0, |r, c| (c, 6 - r));
    let north = b.territory(1, |r, c| (4 - c, 7 + r));
    // Across the front: a, c, e cross the mountain; b and d do not.
    let is_rail =
        |f: u8, r: u8| matches!(r, 2 | 6 | 7 | 11) || ((f == 0 || f == 4) && (2..=11).contains(&r));
    for f in 0..5u8 {
        for r in 1..=12u8 {
            if is_rail(f, r) {
                let s = b.sq(f, r);
                set_word(&mut b.rail, s, true);
            }
        }
    }
    // Rail edges: orthogonal pairs of rail squares, the mountain excepted; the middle crossing
    // only when it is rail. Rail edges inside a half are already road edges, so they are added
    // to the rail table only; the crossings a6-a7, e6-e7 (and c6-c7) are new edges.
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
                if crossing && f == 2 && !middle_rail {
                    b.road(a, c, false);
                    continue;
                }
                if crossing {
                    b.road(a, c, false);
                }
                set_word(&mut b.rail_adj[a as usize], c, true);
                set_word(&mut b.rail_adj[c as usize], a, true);
                b.rail_edges += 1;
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
    let mut local = [[[0u8; 5]; 6]; 4];
    local[0] = south;
    local[1] = north;
    b.finish(middle_rail, local, lines, up_block, down_block)
}

fn build_four() -> Topology {
    // Arms as (seat, mapping from local (r, c) to (file index, rank)).
    type Map = fn(u8, u8) -> (u8, u8);
    let arms: [(Seat, Map); 4] = [
        (0, |r, c| (6 + c, 6 - r)),   // South: file g+c, rank 6-r
        (1, |r, c| (11 + r, 7 + c)),  // East: file l+r, rank 7+c
        (2, |r, c| (10 - c, 12 + r)), // North: file k-c, rank 12+r
        (3, |r, c| (5 - r, 11 - c)),  // West: file f-r, rank 11-c
    ];
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
                squares.push((file, rank));
            }
        }
    }
    let mut b = Builder::new(BoardKind::FourPlayer, &squares);
    let mut local = [[[0u8; 5]; 6]; 4];
    for &(seat, map) in &arms {
        local[seat as usize] = b.territory(seat, map);
    }
    let ring = |r: usize, c: usize| r == 0 || r == 4 || ((c == 0 || c == 4) && r <= 4);
    for (seat, loc) in local.iter().enumerate() {
        for (r, row) in loc.iter().enumerate() {
            for (c, &s) in row.iter().enumerate() {
                if ring(r, c) {
                    set_word(&mut b.rail, s, true);
                }
            }
        }
        // Ring edges are already road edges; add them to the rail table.
        for r in 0..5 {
            for c in 0..5 {
                for (nr, nc) in [(r + 1, c), (r, c + 1)] {
                    if nr < 5 && nc < 5 && ring(r, c) && ring(nr, nc) {
                        let (x, y) = (loc[r][c], loc[nr][nc]);
                        set_word(&mut b.rail_adj[x as usize], y, true);
                        set_word(&mut b.rail_adj[y as usize], x, true);
                        b.rail_edges += 1;
                    }
                }
            }
        }
        // Front-row outer and middle files to the adjacent centre square.
        let (df, dr) = forward[seat];
        for c in [0usize, 2, 4] {
            let s = loc[0][c];
            let (f, r) = b.coords[s as usize];
            let t = b.sq((f as i8 + df) as u8, (r as i8 + dr) as u8);
            b.rail_edge(s, t);
        }
    }
    for f in [6u8, 8, 10] {
        for r in [7u8, 9, 11] {
            let s = b.sq(f, r);
            set_word(&mut b.rail, s, true);
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
    for (x, y) in [("g6", "f7"), ("k6", "l7"), ("k12", "l11"), ("g12", "f11")] {
        let (a, c) = (b.named(x), b.named(y));
        b.rail_edge(a, c);
    }
    let seq = |b: &Builder, names: &str| -> Vec<u8> {
        names
            .split_whitespace()
            .flat_map(|part| expand(b, part))
            .collect()
    };
    let specs = [
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
    ];
    let lines = specs.iter().map(|s| seq(&b, s)).collect();
    b.finish(true, local, lines, 0, 0)
}

/// Expand `g2-g6` (a straight run along a file or rank, either direction) or a single name.
fn expand(b: &Builder, part: &str) -> Vec<u8> {
    match part.split_once('-') {
        None => vec![b.named(part)],
        Some((x, y)) => {
            let (fx, rx) = b.coords[b.named(x) as usize];
            let (fy, ry) = b.coords[b.named(y) as usize];
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
}
