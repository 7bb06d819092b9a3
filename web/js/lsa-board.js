// The 陆海空三军棋 board (`land_sea_air`, LANDSEAAIR.md §2), mirroring
// crates/junqi-core/src/lsa/board.rs: 9 files a–i × 15 ranks, South's land on ranks 1–6, the
// sea on ranks 7–9 crossed by two iron bridges (files a and i), North's land on ranks 10–15.
// Squares carry their type (station, camp, city, harbour, airfield, bridgehead, bridge, sea,
// anchor), whether they are rail or air squares and which seat owns them; the topology lists
// road, rail and sea edges, the rail, sea and air lines, the local coordinates of §2.6 and the
// deployment squares of each kind of piece (§3). Pure data: importable in node for the unit
// tests, which check every count §2 states. The drawing is lsa-render.js's.

export const LSA_BOARD = 'land_sea_air';
export const LSA_FILES = 'abcdefghi';
export const LSA_RANKS = 15;

const name = (f, r) => LSA_FILES[f] + r;

/** The seat whose half holds rank `r` (null for the sea ranks 7–9). */
function halfOf(r) {
  if (r <= 6) return 0;
  if (r >= 10) return 1;
  return null;
}

/** Local (row, col) of §2.6 → [file index, rank] for a seat. */
export function lsaLocal(seat, row, col) {
  return seat === 0 ? [col, 6 - row] : [8 - col, 10 + row];
}

/** The square type of (file index, rank), §2.1–2.2. */
function kindAt(f, r) {
  const file = LSA_FILES[f];
  if (r >= 7 && r <= 9) {
    if (f === 0 || f === 8) return 'bridge';
    if (f === 4) return 'sea';
    return r === 8 ? 'sea' : 'anchor';
  }
  if (r === 1 || r === 15) {
    if (f === 0 || f === 8) return 'airfield';
    if (f === 2 || f === 4 || f === 6) return 'city';
    return 'station';
  }
  if ((r === 3 || r === 13) && (file === 'c' || file === 'g')) return 'camp';
  if ((r === 6 || r === 10) && file === 'e') return 'harbour';
  if ((r === 6 || r === 10) && (f === 0 || f === 8)) return 'bridgehead';
  return 'station';
}

const RAIL_RANKS = [2, 5, 11, 14];
function isRail(f, r) {
  return RAIL_RANKS.includes(r) || ((f === 0 || f === 8) && r >= 2 && r <= 14);
}

/** The six air lines of §2.5, each a list of squares in order. */
function airLines() {
  const file = (f, from, to) => Array.from({ length: to - from + 1 }, (_, i) => name(f, from + i));
  return [
    file(0, 1, 15),
    file(8, 1, 15),
    file(2, 2, 14),
    file(4, 2, 14),
    file(6, 2, 14),
    Array.from({ length: 9 }, (_, f) => name(f, 8)),
  ];
}

class LsaTopology {
  constructor() {
    this.board = LSA_BOARD;
    this.seats = 2;
    /** name → {name, file, rank, kind, rail, air, sea, land, seat, home: {seat,row,col}|null} */
    this.squares = new Map();
    this.roadEdges = []; // [a, b, diagonal]: one-step land edges that are not rail
    this.railEdges = []; // [a, b]
    this.seaEdges = []; // [a, b]
    this.lines = []; // rail lines (straight)
    this.seaLines = [];
    this.airLines = airLines();
    this.stepAdj = new Map(); // land one-step neighbours (road and rail edges)
    this.railAdj = new Map();
    this.seaAdj = new Map();
    this.counts = { road: 0, diagonal: 0, rail: 0, sea: 0 };
    this.arcs = [];
    this.local = [[], []]; // local[seat][row][col] = name (§2.6)
  }

  get(n) {
    return this.squares.get(n);
  }
  has(n) {
    return this.squares.has(n);
  }
  names() {
    return [...this.squares.keys()];
  }
  localSquare(seat, row, col) {
    return this.local[seat][row][col];
  }
  /** The squares of a seat's half (its land, its airfields; not the sea or the bridges). */
  territoryOf(seat) {
    return this.names().filter((n) => this.get(n).seat === seat);
  }
  /** A seat has no headquarters on this board (its flag stands in a city). */
  hqsOf() {
    return [];
  }

  /** Where a piece of `role` (LANDSEAAIR §1 name) of `seat` may start (§3). */
  deploySquares(seat, role) {
    const own = (pred) => this.names().filter((n) => {
      const s = this.get(n);
      return pred(s) && (s.seat === seat || (s.kind === 'anchor' && s.anchorOf === seat));
    });
    // Stations (bridgeheads and coast squares included); cities are added where §3 allows them.
    const landPiece = (s) => s.kind === 'station' || s.kind === 'bridgehead';
    switch (role) {
      case 'flag':
        return own((s) => s.kind === 'city');
      case 'fort':
        return own((s) => s.kind === 'harbour');
      case 'battleship': case 'cruiser': case 'gunboat': case 'destroyer': case 'submarine':
        return own((s) => s.kind === 'anchor');
      case 'fighter': case 'scout_plane':
        return own((s) => s.kind === 'airfield');
      case 'landmine':
        return own((s) => (landPiece(s) || s.kind === 'city') && s.home && s.home.row >= 4);
      case 'bomb': case 'trap':
        return own((s) => (landPiece(s) || s.kind === 'city') && s.home && s.home.row > 0);
      default:
        return own((s) => landPiece(s) || s.kind === 'city');
    }
  }
}

function link(map, a, b) {
  map.get(a).add(b);
  map.get(b).add(a);
}

function build() {
  const t = new LsaTopology();
  for (let r = 1; r <= LSA_RANKS; r++) {
    for (let f = 0; f < 9; f++) {
      const kind = kindAt(f, r);
      const n = name(f, r);
      const sea = kind === 'sea' || kind === 'anchor';
      const land = !sea && kind !== 'airfield';
      t.squares.set(n, {
        name: n, file: f, rank: r, kind, sea, land,
        rail: isRail(f, r),
        air: false,
        seat: sea || kind === 'bridge' ? null : halfOf(r),
        // Anchors belong to the seat whose ships start there (§2.2): rank 7 South, rank 9 North.
        anchorOf: kind === 'anchor' ? (r === 7 ? 0 : 1) : null,
        home: null,
      });
      t.stepAdj.set(n, new Set());
      t.railAdj.set(n, new Set());
      t.seaAdj.set(n, new Set());
    }
  }
  for (const line of t.airLines) for (const n of line) t.get(n).air = true;
  for (const seat of [0, 1]) {
    for (let row = 0; row < 6; row++) {
      t.local[seat].push([]);
      for (let col = 0; col < 9; col++) {
        const [f, r] = lsaLocal(seat, row, col);
        const n = name(f, r);
        t.local[seat][row].push(n);
        t.get(n).home = { seat, row, col };
      }
    }
  }
  // Road edges: orthogonal pairs of land squares (the bridges join the halves), then the camps'
  // diagonals; rail edges are the consecutive squares of the rail lines, each also a road edge.
  for (let r = 1; r <= LSA_RANKS; r++) {
    for (let f = 0; f < 9; f++) {
      const a = t.get(name(f, r));
      for (const [df, dr] of [[1, 0], [0, 1]]) {
        if (f + df > 8 || r + dr > LSA_RANKS) continue;
        const b = t.get(name(f + df, r + dr));
        if (a.land && b.land) {
          link(t.stepAdj, a.name, b.name);
          if (a.rail && b.rail) {
            link(t.railAdj, a.name, b.name);
            t.railEdges.push([a.name, b.name]);
            t.counts.rail += 1;
          } else {
            t.roadEdges.push([a.name, b.name, false]);
          }
          t.counts.road += 1;
        } else if (a.sea && b.sea) {
          link(t.seaAdj, a.name, b.name);
          t.seaEdges.push([a.name, b.name]);
          t.counts.sea += 1;
        }
      }
    }
  }
  for (const s of t.squares.values()) {
    if (s.kind !== 'camp') continue;
    for (const [df, dr] of [[-1, -1], [-1, 1], [1, -1], [1, 1]]) {
      const b = name(s.file + df, s.rank + dr);
      link(t.stepAdj, s.name, b);
      t.roadEdges.push([s.name, b, true]);
      t.counts.diagonal += 1;
    }
  }
  const run = (f0, r0, f1, r1) => {
    const n = Math.max(Math.abs(f1 - f0), Math.abs(r1 - r0));
    return Array.from({ length: n + 1 }, (_, i) => name(f0 + Math.sign(f1 - f0) * i, r0 + Math.sign(r1 - r0) * i));
  };
  for (const r of RAIL_RANKS) t.lines.push(run(0, r, 8, r));
  t.lines.push(run(0, 2, 0, 14), run(8, 2, 8, 14));
  for (const r of [7, 8, 9]) t.seaLines.push(run(1, r, 7, r));
  for (let f = 1; f <= 7; f++) t.seaLines.push(run(f, 7, f, 9));
  return t;
}

let cached = null;
/** The land-sea-air topology (built once). */
export function lsaTopology() {
  if (!cached) cached = build();
  return cached;
}

/** The arm (land / sea / air) of a role (LANDSEAAIR §1). */
export function lsaArm(role) {
  if (['battleship', 'cruiser', 'gunboat', 'destroyer', 'submarine'].includes(role)) return 'sea';
  if (role === 'fighter' || role === 'scout_plane') return 'air';
  return 'land';
}
