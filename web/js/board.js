// Board topology (RULES §2), mirroring crates/junqi-core/src/topology.rs: squares with kinds
// (station, camp, hq), rail squares, road and rail edges, straight rail lines, local coordinates
// (§2.3), for the two-, three-, four- and six-player boards, and the teams of §7.2. Pure data:
// importable in node for the unit tests, which check the two- and four-player boards against
// the Rust topology through `junqi rules legal` and the three- and six-player boards against
// the counts and structure RULES §2.4 and §2.5 give. Drawing positions are render.js's (the
// six-player star's are star.js's). The land-sea-air board (LANDSEAAIR §2) is lsa-board.js's,
// returned by topology('land_sea_air') with the same interface.

import { lsaTopology } from './lsa-board.js';

export const LOCAL_CAMPS = [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]];
export const LOCAL_HQS = [[5, 1], [5, 3]];

export function isLocalCamp(r, c) {
  return LOCAL_CAMPS.some(([a, b]) => a === r && b === c);
}
export function isLocalHq(r, c) {
  return LOCAL_HQS.some(([a, b]) => a === r && b === c);
}

export const FILES = 'abcdefghijklmnopq';
export function squareName(file, rank) {
  return FILES[file] + rank;
}
export function parseSquare(name) {
  const f = FILES.indexOf(name[0]);
  const r = Number(name.slice(1));
  return [f, r];
}

/** Local (row, col) → (file index, rank) per grid board and seat (§2.3). Fractional rows and
 * columns give points between squares (render.js places arm labels with them). */
export const MAPS = {
  two_player: [
    (r, c) => [c, 6 - r],
    (r, c) => [4 - c, 7 + r],
  ],
  four_player: [
    (r, c) => [6 + c, 6 - r],
    (r, c) => [11 + r, 7 + c],
    (r, c) => [10 - c, 12 + r],
    (r, c) => [5 - r, 11 - c],
  ],
};
// The three-player board is the four-player board without West (§2.4).
MAPS.three_player = MAPS.four_player.slice(0, 3);

/** Seats per board. */
export const SEATS = { two_player: 2, three_player: 3, four_player: 4, six_player: 6 };
export const BOARDS = Object.keys(SEATS);

/** The modes of each board (RULES §8): flip only on two seats, half-open only with teams. */
export const MODES = {
  two_player: ['dark', 'open', 'flip'],
  three_player: ['dark', 'open'],
  four_player: ['dark', 'open', 'half_open'],
  six_player: ['dark', 'open', 'half_open'],
  // 陆海空三军棋 (lsa-board.js) is not one of BOARDS, whose pages (rules, leaderboard) are the
  // 军棋 boards'; the lobby offers it with these modes.
  land_sea_air: ['dark', 'open'],
};

/** A six-player arm square: seat digit, then file and rank as on South's half (§2.5: `0b1`). */
export function armSquare(k, r, c) {
  return `${k}${'abcde'[c]}${6 - r}`;
}

class Topology {
  constructor(board, middleRail) {
    this.board = board;
    this.middleRail = middleRail;
    this.seats = SEATS[board];
    /** name → {name, file, rank, kind: 'station'|'camp'|'hq', rail, home: {seat,row,col}|null} */
    this.squares = new Map();
    this.roadEdges = []; // [a, b, diagonal] one-step edges that are not rail edges
    this.railEdges = []; // [a, b]
    this.lines = [];
    this.local = []; // local[seat][row][col] = name
    this.stepAdj = new Map(); // name → Set(name), every one-step neighbour
    this.railAdj = new Map();
    this.counts = { road: 0, diagonal: 0, rail: 0 };
    this.diagonals = new Set(); // 'a-b' keys of the camp diagonals
    this.arcs = []; // [a, b] rail edges drawn as arcs
  }
  /** A grid square (file index, rank), named as on the two- and four-player boards. */
  addSquare(file, rank) {
    return this.addNamed(squareName(file, rank), { file, rank });
  }
  /** A square by name; `extra` says where it is (file and rank, or the six-player arm). */
  addNamed(name, extra = {}) {
    this.squares.set(name, { name, ...extra, kind: 'station', rail: false, home: null });
    this.stepAdj.set(name, new Set());
    this.railAdj.set(name, new Set());
    return name;
  }
  has(name) {
    return this.squares.has(name);
  }
  sq(file, rank) {
    const n = squareName(file, rank);
    if (!this.squares.has(n)) throw new Error(`no square ${n}`);
    return n;
  }
  link(a, b) {
    this.stepAdj.get(a).add(b);
    this.stepAdj.get(b).add(a);
  }
  road(a, b, diagonal) {
    if (this.stepAdj.get(a).has(b)) throw new Error(`duplicate road ${a}-${b}`);
    this.link(a, b);
    this.counts[diagonal ? 'diagonal' : 'road'] += 1;
    if (diagonal) this.diagonals.add(a < b ? `${a}-${b}` : `${b}-${a}`);
  }
  /** Mark an existing one-step edge (or a new one) as rail. */
  rail(a, b, isNew) {
    if (this.railAdj.get(a).has(b)) throw new Error(`duplicate rail ${a}-${b}`);
    if (isNew) this.link(a, b);
    this.railAdj.get(a).add(b);
    this.railAdj.get(b).add(a);
    this.counts.rail += 1;
  }
  /** A seat's 30 squares: `nameOf(r, c)` names local (r, c); kinds, homes and road edges. */
  territory(seat, nameOf) {
    const local = [];
    for (let r = 0; r < 6; r++) {
      local.push([]);
      for (let c = 0; c < 5; c++) {
        const n = nameOf(r, c);
        if (!this.squares.has(n)) throw new Error(`no square ${n}`);
        local[r].push(n);
        const s = this.squares.get(n);
        s.home = { seat, row: r, col: c };
        if (isLocalCamp(r, c)) s.kind = 'camp';
        else if (isLocalHq(r, c)) s.kind = 'hq';
      }
    }
    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 5; c++) {
        if (r + 1 < 6) this.road(local[r][c], local[r + 1][c], false);
        if (c + 1 < 5) this.road(local[r][c], local[r][c + 1], false);
      }
    }
    const seen = new Set();
    for (const [r, c] of LOCAL_CAMPS) {
      for (const [dr, dc] of [[-1, -1], [-1, 1], [1, -1], [1, 1]]) {
        const a = local[r][c];
        const b = local[r + dr][c + dc];
        const key = [a, b].sort().join('-');
        if (!seen.has(key)) {
          seen.add(key);
          this.road(a, b, true);
        }
      }
    }
    return local;
  }
  finish() {
    // Drawing lists: rail edges, and the one-step edges that are not rail.
    const done = new Set();
    for (const [a, set] of this.stepAdj) {
      for (const b of set) {
        const key = a < b ? `${a}-${b}` : `${b}-${a}`;
        if (done.has(key)) continue;
        done.add(key);
        if (this.railAdj.get(a).has(b)) this.railEdges.push([a, b]);
        else this.roadEdges.push([a, b, this.diagonals.has(key)]);
      }
    }
    for (const line of this.lines) {
      for (let i = 0; i + 1 < line.length; i++) {
        if (!this.railAdj.get(line[i]).has(line[i + 1])) {
          throw new Error(`line step ${line[i]}-${line[i + 1]} is not rail`);
        }
      }
    }
    return this;
  }
  get(name) {
    return this.squares.get(name);
  }
  names() {
    return [...this.squares.keys()];
  }
  localSquare(seat, row, col) {
    return this.local[seat][row][col];
  }
  hqsOf(seat) {
    return [this.local[seat][5][1], this.local[seat][5][3]];
  }
  /** Squares of a seat's territory (30), by local row then col. */
  territoryOf(seat) {
    return this.local[seat].flat();
  }
  /** Mark local ring squares of every arm as rail and join them (the 16-square ring, §2.2). */
  rings() {
    const ring = (r, c) => r === 0 || r === 4 || ((c === 0 || c === 4) && r <= 4);
    for (const loc of this.local) {
      for (let r = 0; r < 6; r++) for (let c = 0; c < 5; c++) if (ring(r, c)) this.get(loc[r][c]).rail = true;
      for (let r = 0; r < 5; r++) {
        for (let c = 0; c < 5; c++) {
          for (const [nr, nc] of [[r + 1, c], [r, c + 1]]) {
            if (nr < 5 && nc < 5 && ring(r, c) && ring(nr, nc)) this.rail(loc[r][c], loc[nr][nc], false);
          }
        }
      }
    }
  }
}

const gridName = (map) => (r, c) => squareName(...map(r, c));

function buildTwo(middleRail) {
  const t = new Topology('two_player', middleRail);
  for (let rank = 1; rank <= 12; rank++) for (let file = 0; file < 5; file++) t.addSquare(file, rank);
  t.local[0] = t.territory(0, gridName(MAPS.two_player[0]));
  t.local[1] = t.territory(1, gridName(MAPS.two_player[1]));
  const isRail = (f, r) => [2, 6, 7, 11].includes(r) || ((f === 0 || f === 4) && r >= 2 && r <= 11);
  for (let f = 0; f < 5; f++) for (let r = 1; r <= 12; r++) if (isRail(f, r)) t.get(t.sq(f, r)).rail = true;
  for (let f = 0; f < 5; f++) {
    for (let r = 1; r <= 12; r++) {
      for (const [df, dr] of [[1, 0], [0, 1]]) {
        const nf = f + df;
        const nr = r + dr;
        if (nf > 4 || nr > 12 || !isRail(f, r) || !isRail(nf, nr)) continue;
        const a = t.sq(f, r);
        const b = t.sq(nf, nr);
        const crossing = r === 6 && nr === 7;
        if (crossing && (f === 1 || f === 3)) continue;
        if (crossing && f === 2 && !middleRail) {
          t.road(a, b, false);
          continue;
        }
        if (crossing) t.road(a, b, false);
        t.rail(a, b, false);
      }
    }
  }
  for (const r of [2, 6, 7, 11]) t.lines.push([0, 1, 2, 3, 4].map((f) => t.sq(f, r)));
  for (const f of [0, 4]) {
    const line = [];
    for (let r = 2; r <= 11; r++) line.push(t.sq(f, r));
    t.lines.push(line);
  }
  if (middleRail) t.lines.push([t.sq(2, 6), t.sq(2, 7)]);
  return t.finish();
}

/** Lines of RULES §2.2 and §2.4 in short form: `g2-k2` a run, single squares between. */
const CROSS_LINES = {
  four_player: [
    'g2-k2', 'g16-k16', 'b7-b11', 'p7-p11', 'g6-k6', 'g12-k12', 'f7-f11', 'l7-l11',
    'g2-g6 g7 g9 g11 g12-g16', 'k2-k6 k7 k9 k11 k12-k16',
    'b7-f7 g7 i7 k7 l7-p7', 'b11-f11 g11 i11 k11 l11-p11',
    'i6 i7 i9 i11 i12', 'f9 g9 i9 k9 l9',
    'g16-g12 f11-b11', 'k16-k12 l11-p11', 'g2-g6 f7-b7', 'k2-k6 l7-p7',
  ],
  // West's lines are gone; rank 7, rank 11 and the short line through i9 begin at the centre,
  // and of the two arc lines into West only parts of file g remain (which file g covers).
  three_player: [
    'g2-k2', 'g16-k16', 'p7-p11', 'g6-k6', 'g12-k12', 'l7-l11',
    'g2-g6 g7 g9 g11 g12-g16', 'k2-k6 k7 k9 k11 k12-k16',
    'g7 i7 k7 l7-p7', 'g11 i11 k11 l11-p11',
    'i6 i7 i9 i11 i12', 'g9 i9 k9 l9',
    'k16-k12 l11-p11', 'k2-k6 l7-p7',
  ],
};
const CROSS_ARCS = {
  four_player: [['g6', 'f7'], ['k6', 'l7'], ['k12', 'l11'], ['g12', 'f11']],
  three_player: [['k6', 'l7'], ['k12', 'l11']],
};

/** The four-player board (§2.2), or the three-player one: the same without West (§2.4). */
function buildCross(board) {
  const t = new Topology(board, true);
  const maps = MAPS[board];
  const inArm = new Set();
  for (const m of maps) for (let r = 0; r < 6; r++) for (let c = 0; c < 5; c++) inArm.add(m(r, c).join(','));
  for (let rank = 1; rank <= 17; rank++) {
    for (let file = 0; file < 17; file++) {
      const centre = [6, 8, 10].includes(file) && [7, 9, 11].includes(rank);
      if (inArm.has(`${file},${rank}`) || centre) t.addSquare(file, rank);
    }
  }
  for (let seat = 0; seat < maps.length; seat++) t.local[seat] = t.territory(seat, gridName(maps[seat]));
  t.rings();
  // Each arm's outer and middle front squares to the centre square in front of them.
  const forward = [[0, 1], [-1, 0], [0, -1], [1, 0]];
  for (let seat = 0; seat < maps.length; seat++) {
    const [df, dr] = forward[seat];
    for (const c of [0, 2, 4]) {
      const s = t.get(t.local[seat][0][c]);
      t.rail(s.name, t.sq(s.file + df, s.rank + dr), true);
    }
  }
  for (const f of [6, 8, 10]) for (const r of [7, 9, 11]) t.get(t.sq(f, r)).rail = true;
  for (const f of [6, 8, 10]) {
    for (const r of [7, 9, 11]) {
      if (f < 10) t.rail(t.sq(f, r), t.sq(f + 2, r), true);
      if (r < 11) t.rail(t.sq(f, r), t.sq(f, r + 2), true);
    }
  }
  t.arcs = CROSS_ARCS[board];
  for (const [a, b] of t.arcs) t.rail(a, b, true);
  const expand = (part) => {
    if (!part.includes('-')) return [t.sq(...parseSquare(part))];
    const [x, y] = part.split('-').map(parseSquare);
    const steps = Math.max(Math.abs(x[0] - y[0]), Math.abs(x[1] - y[1]));
    const df = Math.sign(y[0] - x[0]);
    const dr = Math.sign(y[1] - x[1]);
    const out = [];
    for (let i = 0; i <= steps; i++) out.push(t.sq(x[0] + df * i, x[1] + dr * i));
    return out;
  };
  for (const spec of CROSS_LINES[board]) t.lines.push(spec.split(/\s+/).flatMap(expand));
  return t.finish();
}

/**
 * The six-player board (§2.5): six arms laid out like four-player arms around a star of 13
 * rail squares: `x` in the middle, `n0`…`n5` the inner corners (nk in front of arm k's middle
 * file), `t0`…`t5` the star's points (tk between arm k's right front corner and arm k+1's left).
 */
function buildSix() {
  const t = new Topology('six_player', true);
  const m = (i) => ((i % 6) + 6) % 6;
  for (let k = 0; k < 6; k++) {
    for (let r = 0; r < 6; r++) for (let c = 0; c < 5; c++) t.addNamed(armSquare(k, r, c), { arm: k });
  }
  t.addNamed('x', { arm: null });
  for (let k = 0; k < 6; k++) t.addNamed(`n${k}`, { arm: null });
  for (let k = 0; k < 6; k++) t.addNamed(`t${k}`, { arm: null });
  for (let k = 0; k < 6; k++) t.local[k] = t.territory(k, (r, c) => armSquare(k, r, c));
  t.rings();
  for (const s of t.squares.values()) if (s.arm === null) s.rail = true;
  for (let k = 0; k < 6; k++) {
    // Front links: the left corner to the star's point on its left, the middle to the inner
    // corner, the right corner to the point on its right.
    t.rail(`${k}a6`, `t${m(k - 1)}`, true);
    t.rail(`${k}c6`, `n${k}`, true);
    t.rail(`${k}e6`, `t${k}`, true);
  }
  for (let k = 0; k < 6; k++) t.arcs.push([`${k}e6`, `${m(k + 1)}a6`]);
  for (const [a, b] of t.arcs) t.rail(a, b, true);
  for (let k = 0; k < 6; k++) t.rail('x', `n${k}`, true);
  for (let k = 0; k < 6; k++) t.rail(`n${k}`, `n${m(k + 1)}`, true);
  for (let k = 0; k < 6; k++) {
    t.rail(`t${k}`, `n${k}`, true);
    t.rail(`t${k}`, `n${m(k + 1)}`, true);
  }
  const file = (k, f, from, to) => {
    const out = [];
    const d = Math.sign(to - from);
    for (let r = from; ; r += d) { out.push(`${k}${f}${r}`); if (r === to) break; }
    return out;
  };
  const row = (k, rank) => [...'abcde'].map((f) => `${k}${f}${rank}`);
  for (let k = 0; k < 6; k++) t.lines.push(row(k, 2));
  for (let k = 0; k < 6; k++) t.lines.push(row(k, 6));
  for (let k = 0; k < 3; k++) t.lines.push([`${k}c6`, `n${k}`, 'x', `n${k + 3}`, `${k + 3}c6`]);
  // Long lines: one side of the star's triangles, continued into the arms at both ends.
  for (let k = 0; k < 6; k++) {
    t.lines.push([...file(k, 'e', 2, 6), `t${k}`, `n${m(k + 1)}`, `n${m(k + 2)}`, `t${m(k + 2)}`, ...file(m(k + 3), 'a', 6, 2)]);
  }
  // Arc lines: up one arm's right file and down its neighbour's left file, one line (§4.2).
  for (let k = 0; k < 6; k++) t.lines.push([...file(k, 'e', 2, 6), ...file(m(k + 1), 'a', 6, 2)]);
  return t.finish();
}

const cache = new Map();
/** The topology of a board (a name of BOARDS); middleRail for two-player c6–c7. */
export function topology(board, middleRail = true) {
  const key = `${board}/${board === 'two_player' ? middleRail : true}`;
  if (!cache.has(key)) {
    if (board === 'two_player') cache.set(key, buildTwo(middleRail));
    else if (board === 'four_player' || board === 'three_player') cache.set(key, buildCross(board));
    else if (board === 'six_player') cache.set(key, buildSix());
    else if (board === 'land_sea_air') cache.set(key, lsaTopology());
    else throw new Error(`unknown board ${board}`);
  }
  return cache.get(key);
}

// ---------------------------------------------------------------------------------------------
// Teams (RULES §7.2, option `teams`)

/** The `teams` values a board takes, the default first (two-player ignores the option). */
export const TEAMS = {
  two_player: ['none'],
  three_player: ['none'],
  four_player: ['alternate', 'opposite', 'none'],
  six_player: ['alternate', 'opposite', 'none'],
  land_sea_air: ['none'],
};

/**
 * The teams of a board under a `teams` option (absent: the board's default), as lists of seats
 * in ascending order. A value the board does not take gives its default (the server rejects
 * such a table; the client only has to draw something sensible).
 */
export function teamsOf(board, teams) {
  const n = SEATS[board] || 2;
  const values = TEAMS[board] || ['none'];
  const v = values.includes(teams) ? teams : values[0];
  const seats = Array.from({ length: n }, (_, i) => i);
  if (v === 'none') return seats.map((s) => [s]);
  // alternate: every other seat; opposite: seats half the board apart. On four seats the two
  // are the same teams ({0, 2} {1, 3}).
  const parts = v === 'alternate' ? 2 : n / 2;
  return Array.from({ length: parts }, (_, i) => seats.filter((s) => s % parts === i));
}

/** The team (seat list) of `seat`. */
export function teamOf(board, teams, seat) {
  return teamsOf(board, teams).find((team) => team.includes(seat)) || [seat];
}

/** Whether seats `a` and `b` play together (a seat is its own teammate). */
export function sameTeam(board, teams, a, b) {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  return teamOf(board, teams, a).includes(b);
}

/** The teammates of `seat`, itself left out (empty for a spectator or a lone seat). */
export function teammatesOf(board, teams, seat) {
  if (seat === null || seat === undefined) return [];
  return teamOf(board, teams, seat).filter((s) => s !== seat);
}

// ---------------------------------------------------------------------------------------------
// Movement on an empty board, used by the unit tests to compare with the Rust generator and by
// the deployment editor's preview. The game itself takes legal actions from the server.

/** Squares a non-engineer on `from` may reach on an empty board (steps and straight slides). */
export function slideTargets(t, from) {
  const out = new Set(t.stepAdj.get(from));
  if (t.get(from).rail) {
    for (const line of t.lines) {
      const i = line.indexOf(from);
      if (i < 0) continue;
      for (let j = 0; j < line.length; j++) if (j !== i) out.add(line[j]);
    }
  }
  out.delete(from);
  return out;
}

/** Squares an engineer on `from` may reach on an empty board. */
export function engineerTargets(t, from) {
  const out = new Set(t.stepAdj.get(from));
  if (t.get(from).rail) {
    const stack = [from];
    const seen = new Set([from]);
    while (stack.length) {
      const s = stack.pop();
      for (const n of t.railAdj.get(s)) {
        if (!seen.has(n)) {
          seen.add(n);
          out.add(n);
          stack.push(n);
        }
      }
    }
  }
  out.delete(from);
  return out;
}

/**
 * The squares a piece passes from `from` to `to` (both included), for drawing a move as a glide:
 * one step when the squares are neighbours, else the shortest run along the railway through
 * squares that `occupied(name)` says are free (the destination may be occupied: an attack). An
 * engineer's turning run is one of its shortest runs; a straight run is the straight line. Falls
 * back to [from, to] when no run is found.
 */
export function movePath(t, from, to, occupied = () => false) {
  if (!t.has(from) || !t.has(to)) return [from, to];
  if (t.stepAdj.get(from).has(to)) return [from, to];
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const s = queue.shift();
    if (s === to) break;
    for (const n of t.railAdj.get(s)) {
      if (prev.has(n)) continue;
      if (n !== to && occupied(n)) continue;
      prev.set(n, s);
      queue.push(n);
    }
  }
  if (!prev.has(to)) return [from, to];
  const path = [];
  for (let s = to; s !== null; s = prev.get(s)) path.unshift(s);
  return path;
}
