// SVG board: every board drawn as on a real board (railways as thick track lines, roads thin,
// camps as circles, headquarters arched, the two-player mountain, the arcs between arms), pieces
// as tiles in their seat's colour with Chinese or English labels, hidden pieces as blank tiles,
// highlights for selection, legal destinations, the last move and its combat result. The board
// is turned so that the viewer's seat is at the bottom; on the six-player star (star.js) tiles
// lie along their arm while every label stays upright. Multi-seat boards name each arm (its seat,
// and 你 / 队友 for the viewer and the viewer's teammates under the `teams` option). Pointer
// input (click or drag) is reported as square names; a long press or a right click on a square
// that `markable` accepts asks for a 标记 (onMark). Optional layers: square names (coordinates),
// squares highlighted from the log, and the player's guesses on hidden pieces. A move can be
// drawn as a glide along its path (glide()).
import { topology, movePath, MAPS, SEATS, sameTeam } from './board.js';
import { starPoint, starTurn, armPoint, rotatePoint } from './star.js';
import { roleName, rank } from './roles.js';
import { t, getLang, seatName } from './i18n.js';
import { LSA_LAYOUT, ARM_GLYPH, drawLandSeaAir } from './lsa-render.js';
import { el, edgeLines } from './svg.js';

// Seat colours: the four-player colours of South, East, North, West are kept by the three
// seats of the three-player board (the same arms); the six-player board adds purple and black,
// so that the teams of `alternate` are red, orange, purple against blue, green, black.
const FOUR_COLOURS = ['#c0392b', '#1f5fa8', '#d9822b', '#2e8b57'];
const FOUR_TINTS = ['#f6ddd5', '#d9e4f2', '#f8e6cf', '#d7ecdf'];
export const SEAT_COLOURS = {
  two_player: ['#c0392b', '#1f5fa8'],
  land_sea_air: ['#c0392b', '#1f5fa8'],
  three_player: FOUR_COLOURS.slice(0, 3),
  four_player: FOUR_COLOURS,
  six_player: [...FOUR_COLOURS, '#7d3c98', '#2f3640'],
};
const TINTS = {
  two_player: ['#f6ddd5', '#d9e4f2'],
  land_sea_air: ['#f6ddd5', '#d9e4f2'],
  three_player: FOUR_TINTS.slice(0, 3),
  four_player: FOUR_TINTS,
  six_player: [...FOUR_TINTS, '#e8daef', '#dcdde1'],
};

/** Layout constants per board (board units; `step` is the six-player distance of two rows). */
const CROSS = { cx: 48, cy: 48, gap: 0, m: 16, tileW: 42, tileH: 34, font: 14, camp: 19 };
export const LAYOUT = {
  two_player: { cx: 98, cy: 62, gap: 74, m: 26, tileW: 66, tileH: 36, font: 18, camp: 23 },
  // Tiles nearly fill the 48-unit cells, so that a zoomed phone board shows pieces of 32 px and more.
  four_player: CROSS,
  three_player: CROSS,
  // A little taller than the four-player tiles: a label turned 60° against its tile must fit.
  six_player: { step: 48, cx: 48, cy: 48, m: 20, tileW: 42, tileH: 38, font: 15, camp: 19 },
  land_sea_air: LSA_LAYOUT,
};

/**
 * Where each arm's name stands, as a local column beside the arm's back rows: left of the arm
 * (as its seat sees it) unless the neighbour there is missing. The three-player board has no
 * West, so South's name goes to its right, into the corner that stays on the cropped board.
 */
const LABEL_COL = { left: -1.6, right: 5.6 };
const LABEL_SIDE = { three_player: ['right', 'left', 'left'] };
const LABEL_ROW = 4.5;

const round = (v) => Math.round(v * 100) / 100;

/**
 * Board geometry in view coordinates, turned so that `viewer` sits at the bottom. Grid boards
 * (two-, three-, four-player) turn by quarter turns and keep their tiles upright; the
 * six-player star turns by −60°·viewer and each square has its own tile angle (turn()).
 */
export class Geometry {
  constructor(board, middleRail = true, viewer = 0) {
    this.board = board;
    this.topo = topology(board, middleRail);
    this.L = LAYOUT[board];
    this.viewer = viewer;
    this.seats = SEATS[board];
    this.star = board === 'six_player';
    this.ox = 0;
    this.oy = 0;
    const L = this.L;
    if (board === 'land_sea_air') {
      this.width = 2 * L.m + 9 * L.cx;
      this.height = 2 * L.m + 15 * L.cy;
      this.turns = viewer === 1 ? 2 : 0;
    } else if (board === 'two_player') {
      this.width = 2 * L.m + 5 * L.cx;
      this.height = 2 * L.m + 12 * L.cy + L.gap;
      this.turns = viewer === 1 ? 2 : 0;
    } else if (this.star) {
      // Every viewer sees the same extent: a turn of 60° maps the star onto itself.
      this.turns = 0;
      this.spin = -60 * (((viewer % 6) + 6) % 6);
      let ex = 0;
      let ey = 0;
      for (const n of this.topo.names()) {
        const [x, y] = starPoint(n);
        ex = Math.max(ex, Math.abs(x));
        ey = Math.max(ey, Math.abs(y));
      }
      // Three quarters of a step beyond the outermost squares' centres: room for a turned tile.
      this.halfX = round((ex + 0.75) * L.step + L.m);
      this.halfY = round((ey + 0.75) * L.step + L.m);
      this.width = 2 * this.halfX;
      this.height = 2 * this.halfY;
    } else {
      this.width = 2 * L.m + 18 * L.cx;
      this.height = 2 * L.m + 18 * L.cy;
      this.turns = ((viewer % 4) + 4) % 4;
    }
    this.cw = this.width;
    this.ch = this.height;
    if (board === 'three_player') this.crop();
  }
  /**
   * The three-player board is the four-player canvas without West: cut to what is drawn (the
   * squares with their cells, the arm names), which side that is depending on the turn.
   */
  crop() {
    const L = this.L;
    const pts = [];
    const swap = this.turns % 2 === 1;
    const hw = (swap ? L.cy : L.cx) / 2 + L.m;
    const hh = (swap ? L.cx : L.cy) / 2 + L.m;
    for (const n of this.topo.names()) {
      const [x, y] = this.pos(n);
      pts.push([x - hw, y - hh], [x + hw, y + hh]);
    }
    for (let s = 0; s < this.seats; s++) {
      const [x, y] = this.labelPoint(s);
      pts.push([x - 40, y - 24], [x + 40, y + 24]);
    }
    const x0 = Math.max(0, Math.min(...pts.map((p) => p[0])));
    const y0 = Math.max(0, Math.min(...pts.map((p) => p[1])));
    const x1 = Math.min(this.cw, Math.max(...pts.map((p) => p[0])));
    const y1 = Math.min(this.ch, Math.max(...pts.map((p) => p[1])));
    this.ox = x0;
    this.oy = y0;
    this.width = round(x1 - x0);
    this.height = round(y1 - y0);
  }
  /** Unrotated position of grid (file, rank), file/rank may be fractional. */
  raw(file, rank) {
    const L = this.L;
    if (this.board === 'land_sea_air') return [L.m + (file + 0.5) * L.cx, L.m + (15 - rank + 0.5) * L.cy];
    if (this.board === 'two_player') {
      const gap = rank <= 6.5 ? L.gap : 0;
      return [L.m + (file + 0.5) * L.cx, L.m + (12 - rank + 0.5) * L.cy + gap];
    }
    // Four-player: the arms stand half a cell away from the centre, as on a real board, which
    // leaves room for the arcs.
    const spread = (v) => v + 0.5 + (v < 5.75 ? -0.5 : v > 10.25 ? 0.5 : 0);
    return [L.m + (spread(file) + 0.5) * L.cx, L.m + (spread(18 - rank) - 0.5) * L.cy];
  }
  rotate([x, y]) {
    const cx = this.cw / 2;
    const cy = this.ch / 2;
    let dx = x - cx;
    let dy = y - cy;
    for (let i = 0; i < this.turns; i++) [dx, dy] = [-dy, dx];
    return [cx + dx - this.ox, cy + dy - this.oy];
  }
  at(file, rank) {
    return this.rotate(this.raw(file, rank));
  }
  /** A six-player point (steps, y up) in view coordinates: turned, scaled, y down. */
  fromStar(p) {
    const [x, y] = rotatePoint(p, this.spin);
    return [round(this.halfX + x * this.L.step), round(this.halfY - y * this.L.step)];
  }
  pos(name) {
    if (this.star) return this.fromStar(starPoint(name));
    const s = this.topo.get(name);
    return this.at(s.file, s.rank);
  }
  /** Degrees (clockwise, as SVG turns) a square's tile is turned: 0 except on the star. */
  turn(name) {
    if (!this.star) return 0;
    let a = -(starTurn(name) + this.spin);
    a = ((a % 360) + 540) % 360 - 180; // into (−180, 180]
    return a === -180 ? 180 : a;
  }
  /** A seat's local (r, c) in view coordinates; fractional values give points between squares. */
  localPoint(seat, r, c) {
    if (this.star) return this.fromStar(armPoint(seat, r, c));
    return this.at(...MAPS[this.board][seat](r, c));
  }
  /** Where a seat's name stands (multi-seat boards). */
  labelPoint(seat) {
    const side = LABEL_SIDE[this.board]?.[seat] || 'left';
    return this.localPoint(seat, LABEL_ROW, LABEL_COL[side]);
  }
  /** The middle of the board (the centre square). */
  middle() {
    if (this.board === 'two_player' || this.board === 'land_sea_air') return [this.width / 2, this.height / 2];
    return this.pos(this.star ? 'x' : 'i9');
  }
  /** A square's hit cell [w, h] in the square's own frame (see turn()). */
  cell() {
    const { cx, cy } = this.L;
    return this.turns % 2 === 1 ? [cy, cx] : [cx, cy];
  }
  /** The point (dx, dy) of a square's tile frame (turned with the tile) in view coordinates. */
  onTile(name, dx, dy) {
    const [x, y] = this.pos(name);
    const a = (this.turn(name) * Math.PI) / 180;
    return [x + dx * Math.cos(a) - dy * Math.sin(a), y + dx * Math.sin(a) + dy * Math.cos(a)];
  }
  /** The square whose cell contains view point (x, y), or null. */
  squareAt(x, y) {
    let best = null;
    let bestD = Infinity;
    const [cw, chh] = this.cell();
    for (const name of this.topo.squares.keys()) {
      const [px, py] = this.pos(name);
      const dx = Math.abs(px - x);
      const dy = Math.abs(py - y);
      // On the star the nearest square within about half a step (the cells are turned).
      const inside = this.star ? Math.hypot(dx, dy) <= 0.62 * this.L.step : dx <= cw / 2 && dy <= chh / 2;
      if (inside) {
        const d = dx * dx + dy * dy;
        if (d < bestD) {
          bestD = d;
          best = name;
        }
      }
    }
    return best;
  }
}

/** The `transform` that puts a tile's frame on square `name` (turned on the star). */
function tileTransform(g, name, [x, y] = g.pos(name)) {
  const a = g.turn(name);
  return a ? `translate(${x} ${y}) rotate(${a})` : `translate(${x} ${y})`;
}

/**
 * The font size that fits `label` on a tile turned `deg` degrees against the upright text:
 * the text's box, turned against the tile, must stay inside the tile's inner frame.
 */
function fitLabel(L, label, lang, deg, base) {
  const en = lang === 'en';
  let size = en ? Math.min(L.font * 0.78, (L.tileW - 6) / (label.length * 0.55)) : base;
  if (deg % 180 !== 0) {
    const a = (Math.abs(deg) * Math.PI) / 180;
    const c = Math.abs(Math.cos(a));
    const s = Math.abs(Math.sin(a));
    // The ink's box per unit of font size: a Chinese character is about 0.92 wide and 0.85
    // tall, a Latin letter about 0.55 wide and 0.75 tall.
    const w = label.length * (en ? 0.55 : 0.92);
    const hgt = en ? 0.75 : 0.85;
    const fit = Math.min((L.tileW - 7) / (w * c + hgt * s), (L.tileH - 7) / (w * s + hgt * c));
    size = Math.min(size, fit);
  }
  return size;
}

/**
 * A board view in a container element.
 * options: {board, middleRail, viewer, teams (the `teams` option, for the 队友 marks),
 *   onClick(name|null), onDrag(from, to), draggable(name)}
 * state (set with update): {pieces: [{at, seat, role|null, face_down, carrying_flag_of}],
 *   selected, targets: [names], lastMove: {from, to, result}, marks: [names] (errors), refused: [names] (squares the server refused),
 *   territory: seat to emphasise (deployment), highlight: [names] (from the log), coords: bool,
 *   guesses: {name: role} (标记 on hidden pieces), deduced: {name: role} (hidden pieces whose
 *   role the events tell), looks: [names] (a land-sea-air scout plane's look targets), notes:
 *   {name: role} (what the viewer's scout looks saw on hidden enemy pieces)}
 */
export class BoardView {
  constructor(container, options) {
    this.container = container;
    this.opts = options;
    this.state = { pieces: [] };
    this.svg = el('svg', {
      class: `board board-${options.board}`,
      role: 'img',
      'aria-label': t(`board.${options.board}`),
    });
    container.replaceChildren(this.svg);
    this.redraw(false);
    this.installPointer();
  }

  /** Draw the board anew (a new viewer, language or teams); `render` draws the pieces too. */
  redraw(render = true) {
    const o = this.opts;
    this.geo = new Geometry(o.board, o.middleRail ?? true, o.viewer ?? 0);
    const g = this.geo;
    this.svg.setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
    // Where the viewer's own arm is, for the zoom to open on it (zoom.js).
    if (g.seats > 2) {
      const [hx, hy] = g.localPoint(((o.viewer ?? 0) % g.seats + g.seats) % g.seats, 2.5, 2);
      this.svg.dataset.homeX = (hx / g.width).toFixed(3);
      this.svg.dataset.homeY = (hy / g.height).toFixed(3);
    }
    this.svg.replaceChildren();
    this.drawStatic();
    this.dynamic = el('g', { class: 'dynamic' }, this.svg);
    this.hits = el('g', { class: 'hits' }, this.svg);
    this.drawHits();
    if (render) this.render();
  }

  /** The seat at the bottom; `seated` false for a spectator (no 你 / 队友 on the arms). */
  setViewer(viewer, seated = this.opts.seated) {
    if (this.opts.viewer === viewer && this.opts.seated === seated) return;
    this.opts.viewer = viewer;
    this.opts.seated = seated;
    this.redraw();
  }

  /** The table's `teams` option (for the 队友 marks on the arms). */
  setTeams(teams) {
    if (this.opts.teams === teams) return;
    this.opts.teams = teams;
    this.redraw();
  }

  /** Redraw everything after a language change. */
  relabel() {
    this.redraw();
  }

  drawStatic() {
    const g = this.geo;
    const L = g.L;
    const topo = g.topo;
    const board = this.opts.board;
    const root = el('g', { class: 'static' }, this.svg);
    el('rect', { x: 0, y: 0, width: g.width, height: g.height, rx: 14, class: 'board-bg' }, root);
    if (board === 'land_sea_air') {
      drawLandSeaAir(g, root, TINTS[board]);
      return;
    }
    // Territory tints.
    const tints = el('g', { class: 'tints' }, root);
    for (let seat = 0; seat < topo.seats; seat++) {
      if (g.star) {
        // The arm's outline, turned with the arm.
        const pad = 0.5;
        const corners = [[-pad, -pad], [-pad, 4 + pad], [5 + pad, 4 + pad], [5 + pad, -pad]];
        const points = corners.map(([r, c]) => g.localPoint(seat, r, c).join(',')).join(' ');
        el('polygon', { points, fill: TINTS[board][seat], class: `tint tint-${seat}`, 'stroke-linejoin': 'round' }, tints);
        continue;
      }
      const sqs = topo.territoryOf(seat).map((n) => g.pos(n));
      const xs = sqs.map((p) => p[0]);
      const ys = sqs.map((p) => p[1]);
      const swap = g.turns % 2 === 1;
      const padX = (swap ? L.cy : L.cx) / 2 - 2;
      const padY = (swap ? L.cx : L.cy) / 2 - 2;
      const x0 = Math.min(...xs) - padX;
      const y0 = Math.min(...ys) - padY;
      el('rect', {
        x: x0, y: y0, width: Math.max(...xs) + padX - x0, height: Math.max(...ys) + padY - y0,
        rx: 10, fill: TINTS[board][seat], class: `tint tint-${seat}`,
      }, tints);
    }
    if (g.star) {
      // The star in the middle (六角星): its twelve corners, the points tk and inner corners nk.
      const pts = [];
      for (let k = 0; k < 6; k++) pts.push(g.pos(`n${k}`), g.pos(`t${k}`));
      el('polygon', { points: pts.map((p) => p.join(',')).join(' '), class: 'centre-star' }, tints);
    }
    if (board === 'two_player') this.drawMountain(root);
    // Roads, then rails.
    edgeLines(g, el('g', { class: 'roads' }, root), topo.roadEdges, 'road');
    const rails = el('g', { class: 'rails' }, root);
    const arcs = new Set((topo.arcs || []).map(([a, b]) => `${a}-${b}`));
    const [mx, my] = g.middle();
    const railPath = (a, b) => {
      const [x1, y1] = g.pos(a);
      const [x2, y2] = g.pos(b);
      if (!arcs.has(`${a}-${b}`) && !arcs.has(`${b}-${a}`)) return `M${x1} ${y1}L${x2} ${y2}`;
      if (g.star) {
        // An arc of a circle between two neighbouring arms' front corners, bulging outwards.
        const d = Math.hypot(x2 - x1, y2 - y1);
        const out = [(x1 + x2) / 2 - mx, (y1 + y2) / 2 - my];
        const left = [y2 - y1, -(x2 - x1)]; // left of a → b on the screen
        const sweep = left[0] * out[0] + left[1] * out[1] > 0 ? 1 : 0;
        // A half circle: a flatter arc would hide under the two corner tiles.
        return `M${x1} ${y1}A${round(d / 2)} ${round(d / 2)} 0 0 ${sweep} ${x2} ${y2}`;
      }
      // An arc: a quarter ellipse about the empty corner between the two arms (the candidate
      // corner farther from the middle of the board).
      const c1 = [x2, y1];
      const c2 = [x1, y2];
      const far = (p) => Math.hypot(p[0] - mx, p[1] - my);
      const [ox, oy] = far(c1) > far(c2) ? c1 : c2;
      const rx = Math.abs(x1 - x2);
      const ry = Math.abs(y1 - y2);
      const cross = (x1 - ox) * (y2 - oy) - (y1 - oy) * (x2 - ox);
      return `M${x1} ${y1}A${rx} ${ry} 0 0 ${cross > 0 ? 1 : 0} ${x2} ${y2}`;
    };
    for (const [a, b] of topo.railEdges) el('path', { d: railPath(a, b), class: 'rail' }, rails);
    for (const [a, b] of topo.railEdges) el('path', { d: railPath(a, b), class: 'rail-ties' }, rails);
    // Squares.
    const squares = el('g', { class: 'squares' }, root);
    for (const s of topo.squares.values()) {
      const [x, y] = g.pos(s.name);
      if (s.kind === 'camp') {
        el('circle', { cx: x, cy: y, r: L.camp, class: 'camp' }, squares);
      } else if (s.kind === 'hq') {
        // Arched towards the front of its arm on the star (upright on the grid boards); the
        // name 大本营 upright.
        const w = L.tileW + 4;
        const h = L.tileH + 6;
        const x0 = -w / 2;
        const y1 = h / 2;
        const r = Math.min(w / 2, h * 0.55);
        el('path', {
          d: `M${x0} ${y1}V${-h / 2 + r * 0.6}Q${x0} ${-h / 2} ${x0 + r} ${-h / 2}H${x0 + w - r}Q${x0 + w} ${-h / 2} ${x0 + w} ${-h / 2 + r * 0.6}V${y1}Z`,
          class: 'hq', transform: tileTransform(g, s.name, [x, y]),
        }, squares);
        el('text', { x, y: y + L.font * 0.3, class: 'hq-label', 'font-size': L.font * 0.62 }, squares).textContent = t('hq');
      } else {
        el('rect', {
          x: -L.tileW / 2, y: -L.tileH / 2, width: L.tileW, height: L.tileH, rx: 3,
          class: s.rail ? 'station rail-station' : 'station', transform: tileTransform(g, s.name, [x, y]),
        }, squares);
      }
    }
    if (g.seats > 2) this.drawArmNames(root);
  }

  /**
   * Each arm's name (its seat) beside its back rows, upright, in the seat's colour; under it 你
   * for the viewer's own arm and 队友 for a teammate's (the `teams` option).
   */
  drawArmNames(root) {
    const g = this.geo;
    const board = this.opts.board;
    const viewer = this.opts.viewer;
    const seated = viewer !== null && viewer !== undefined && this.opts.seated !== false;
    const names = el('g', { class: 'arm-names' }, root);
    for (let seat = 0; seat < g.seats; seat++) {
      const [x, y] = g.labelPoint(seat);
      const own = seated && seat === viewer;
      const ally = seated && !own && sameTeam(board, this.opts.teams, viewer, seat);
      const grp = el('g', { class: `arm-name${own ? ' own' : ''}${ally ? ' ally' : ''}`, 'data-seat': seat }, names);
      el('text', { x, y: own || ally ? y - 1 : y + 8, class: 'arm-label', fill: SEAT_COLOURS[board][seat], 'font-size': 22 }, grp).textContent = seatName(board, seat);
      if (own || ally) {
        el('text', { x, y: y + 18, class: `arm-tag${ally ? ' ally' : ''}`, 'font-size': 14, 'data-ally': ally ? 'true' : null }, grp)
          .textContent = own ? t('arm.you') : t('seat.partner');
      }
    }
  }

  drawMountain(root) {
    const g = this.geo;
    const L = g.L;
    const m = el('g', { class: 'mountain' }, root);
    // The band between ranks 6 and 7.
    const [, yTop] = g.at(0, 7);
    const [, yBot] = g.at(0, 6);
    const ya = Math.min(yTop, yBot) + L.cy / 2;
    const yb = Math.max(yTop, yBot) - L.cy / 2;
    const ymid = (ya + yb) / 2;
    el('rect', { x: L.m, y: ya + 4, width: 5 * L.cx, height: yb - ya - 8, rx: 8, class: 'mountain-band' }, m);
    // Peaks at b and d, where no road crosses; the name under each.
    const band = yb - ya;
    for (const f of [1, 3]) {
      const [x] = g.at(f, 6.5);
      const w = L.cx * 0.34;
      const h = band * 0.42;
      const base = ymid + h * 0.25;
      el('path', {
        d: `M${x - w} ${base}L${x - w * 0.35} ${base - h}L${x} ${base - h * 0.45}L${x + w * 0.35} ${base - h - 4}L${x + w} ${base}Z`,
        class: 'mountain-peak',
      }, m);
      el('text', { x, y: base + 15, class: 'mountain-label', 'font-size': 13 }, m).textContent = t('mountain');
    }
  }

  drawHits() {
    const g = this.geo;
    const [w, h] = g.cell();
    for (const name of g.topo.squares.keys()) {
      const [x, y] = g.pos(name);
      const a = g.turn(name);
      el('rect', {
        x: x - w / 2, y: y - h / 2, width: w, height: h, class: 'hit', 'data-sq': name,
        transform: a ? `rotate(${a} ${x} ${y})` : null,
      }, this.hits);
    }
  }

  update(state) {
    this.state = { ...this.state, ...state };
    this.render();
  }

  /** A frame around square `sq`'s tile, `pad` units out, turned with the tile. */
  frame(parent, sq, pad, rx, attrs) {
    const L = this.geo.L;
    return el('rect', {
      x: -L.tileW / 2 - pad, y: -L.tileH / 2 - pad, width: L.tileW + 2 * pad, height: L.tileH + 2 * pad, rx,
      transform: tileTransform(this.geo, sq), ...attrs,
    }, parent);
  }

  render() {
    const g = this.geo;
    const L = g.L;
    const st = this.state;
    const dyn = this.dynamic;
    dyn.replaceChildren();
    const lang = getLang();
    const board = this.opts.board;
    const byAt = new Map((st.pieces || []).map((p) => [p.at, p]));
    // Last move.
    if (st.lastMove) {
      for (const [sq, cls] of [[st.lastMove.from, 'last-from'], [st.lastMove.to, 'last-to']]) {
        if (!sq || !g.topo.has(sq)) continue;
        this.frame(dyn, sq, 4, 6, { class: cls, 'data-last': sq });
      }
    }
    for (const sq of st.marks || []) {
      if (!g.topo.has(sq)) continue;
      this.frame(dyn, sq, 4, 6, { class: 'mark-error' });
    }
    // The squares the server's last refusal names (its args.square, from, to).
    for (const sq of st.refused || []) {
      if (!g.topo.has(sq)) continue;
      this.frame(dyn, sq, 7, 8, { class: 'mark-refused', 'data-sq': sq });
    }
    // Squares a log line points at.
    for (const sq of st.highlight || []) {
      if (!sq || !g.topo.has(sq)) continue;
      this.frame(dyn, sq, 5, 7, { class: 'hl', 'data-hl': sq });
    }
    // Pieces: the tile turned with its square, the label upright.
    const pieces = el('g', { class: 'pieces' }, dyn);
    const guesses = st.guesses || {};
    for (const p of st.pieces || []) {
      if (!g.topo.has(p.at)) continue;
      const [x, y] = g.pos(p.at);
      const turn = g.turn(p.at);
      const hidden = !p.role || p.face_down;
      const grp = el('g', {
        class: `piece seat-${p.seat ?? 'unknown'}${hidden ? ' hidden' : ''}${p.face_down ? ' face-down' : ''}${st.selected === p.at ? ' selected' : ''}`,
        'data-at': p.at, 'data-seat': p.seat ?? '', 'data-role': p.role || '',
        transform: `translate(${x} ${y})`,
      }, pieces);
      const fill = p.face_down ? '#8c7a5b' : SEAT_COLOURS[board][p.seat] || '#777';
      const body = turn ? el('g', { transform: `rotate(${turn})`, class: 'tile-body' }, grp) : grp;
      el('rect', { x: -L.tileW / 2, y: -L.tileH / 2, width: L.tileW, height: L.tileH, rx: 5, fill, class: 'tile' }, body);
      el('rect', { x: -L.tileW / 2 + 2.5, y: -L.tileH / 2 + 2.5, width: L.tileW - 5, height: L.tileH - 5, rx: 3.5, class: 'tile-inner' }, body);
      if (!hidden) {
        const label = roleName(p.role, lang, true);
        const size = fitLabel(L, label, lang, turn, L.font);
        el('text', { x: 0, y: size * 0.36, class: 'tile-label', 'font-size': size.toFixed(1) }, grp).textContent = label;
        const r = rank(p.role);
        if (lang === 'en' && r !== null && board === 'two_player') {
          el('text', { x: L.tileW / 2 - 5, y: -L.tileH / 2 + 10, class: 'tile-rank', 'font-size': 9 }, grp).textContent = String(r);
        }
      }
      if (hidden && p.arm && ARM_GLYPH[p.arm]) {
        // Land-sea-air: every piece's arm is public; a hidden piece shows it in a corner.
        el('text', { x: -L.tileW / 2 + 8, y: -L.tileH / 2 + 11, class: 'arm-glyph', 'font-size': 10, 'data-arm': p.arm }, grp).textContent = ARM_GLYPH[p.arm];
      }
      const told = (st.deduced || {})[p.at];
      const seen = (st.notes || {})[p.at];
      if (hidden && seen) {
        // A land-sea-air scout note (lsa-notes.js): the piece stays hidden, its arm glyph shows,
        // and what the look saw hangs below the tile as a tag, never as the tile's own label.
        const label = roleName(seen, lang, true);
        const size = Math.min(L.font * 0.62, (L.tileW - 8) / (label.length * (lang === 'en' ? 0.55 : 0.95)));
        const w = Math.min(L.tileW - 4, label.length * size * (lang === 'en' ? 0.6 : 1) + 8);
        const ty = L.tileH / 2 - size * 0.55;
        el('rect', { x: -w / 2, y: ty - size * 0.75, width: w, height: size * 1.5, rx: size * 0.5, class: 'note-tag' }, grp);
        el('text', { x: 0, y: ty + size * 0.36, class: 'note-label', 'font-size': size.toFixed(1), 'data-note': seen }, grp).textContent = label;
      } else if (hidden && told) {
        // A role the events tell (tally.js): a fact, drawn as a label with a dotted frame.
        const label = roleName(told, lang, true);
        const size = fitLabel(L, label, lang, turn, L.font * 0.9);
        el('rect', { x: -L.tileW / 2 + 3.5, y: -L.tileH / 2 + 3.5, width: L.tileW - 7, height: L.tileH - 7, rx: 3, class: 'deduced-frame' }, body);
        el('text', { x: 0, y: size * 0.36, class: 'tile-label deduced', 'font-size': size.toFixed(1), 'data-deduced': told }, grp).textContent = label;
      } else if (hidden && guesses[p.at]) {
        // The player's guess, on the blank tile with a question mark: never taken for a fact.
        const label = `${roleName(guesses[p.at], lang, true)}?`;
        const size = Math.min(L.font * 0.8, (L.tileW - 6) / (label.length * (lang === 'en' ? 0.58 : 1)), fitLabel(L, label, lang, turn, L.font * 0.8));
        el('text', { x: 0, y: size * 0.36, class: 'guess', 'font-size': size.toFixed(1), 'data-guess': guesses[p.at] }, grp).textContent = label;
      }
      if (p.carrying_flag_of !== undefined && p.carrying_flag_of !== null) {
        el('circle', { cx: -L.tileW / 2 + 4, cy: -L.tileH / 2 + 4, r: 6, class: 'carry-badge', fill: SEAT_COLOURS[board][p.carrying_flag_of] }, body);
      }
    }
    // Legal destinations.
    for (const sq of st.targets || []) {
      if (!g.topo.has(sq)) continue;
      const [x, y] = g.pos(sq);
      if (byAt.has(sq)) {
        this.frame(dyn, sq, 3, 6, { class: 'target-attack', 'data-target': sq });
      } else {
        el('circle', { cx: x, cy: y, r: Math.min(L.tileH, L.tileW) * 0.24, class: 'target', 'data-target': sq }, dyn);
      }
    }
    // A scout plane's looks (land-sea-air): a dashed ring with an eye, apart from the moves.
    for (const sq of st.looks || []) {
      if (!g.topo.has(sq)) continue;
      const [x, y] = g.pos(sq);
      const r = Math.max(L.tileW, L.tileH) * 0.55;
      const look = el('g', { class: 'target-look', 'data-look': sq }, dyn);
      el('title', {}, look).textContent = t('lsa.look');
      el('circle', { cx: x, cy: y, r, class: 'look-ring' }, look);
      // The eye drawn, not a character: no font is needed for it.
      const [ex, ey] = [x + r * 0.7, y - r * 0.62];
      el('ellipse', { cx: ex, cy: ey, rx: 8, ry: 5, class: 'look-eye' }, look);
      el('circle', { cx: ex, cy: ey, r: 2.4, class: 'look-pupil' }, look);
    }
    this.markDraggable();
    // Combat result badge, at the tile's upper right corner (as the tile is turned).
    if (st.lastMove && st.lastMove.result && g.topo.has(st.lastMove.to)) {
      const [bx, by] = g.onTile(st.lastMove.to, L.tileW / 2 - 2, -L.tileH / 2 - 2);
      const r = board === 'two_player' ? 14 : 12;
      // The badge pops in once, when its move is new (a later redraw shows it still).
      const key = `${st.lastMove.from}-${st.lastMove.to}-${st.lastMove.result}`;
      const fresh = this.badgeKey !== key;
      this.badgeKey = key;
      const b = el('g', { class: `badge badge-${st.lastMove.result}${fresh ? ' fresh' : ''}`, 'data-result': st.lastMove.result }, dyn);
      el('circle', { cx: bx, cy: by, r }, b);
      el('text', { x: bx, y: by + r * 0.38, 'font-size': r * 1.05 }, b).textContent = t(`badge.${st.lastMove.result}`);
    }
    // Square names, as the log writes them (a6, c11, 0b1, …), at each cell's corner.
    if (st.coords) {
      const cg = el('g', { class: 'coords' }, dyn);
      // Two-player cells leave room above each tile; elsewhere names sit on the tile's corner
      // (on the star the corner turned with the tile, the name upright).
      const two = board === 'two_player';
      const fs = two ? 11 : 8.5;
      for (const name of g.topo.squares.keys()) {
        if (g.star) {
          const [x, y] = g.onTile(name, -L.tileW / 2 + 9, -L.tileH / 2 + 6);
          el('text', { x: round(x), y: round(y + fs * 0.35), class: 'coord', 'text-anchor': 'middle', 'font-size': fs, 'data-coord': name }, cg).textContent = name;
          continue;
        }
        const [x, y] = g.pos(name);
        const ty = two ? y - L.tileH / 2 - 2 : y - L.tileH / 2 + fs * 0.85;
        el('text', { x: x - L.tileW / 2 + 1, y: ty, class: 'coord', 'font-size': fs, 'data-coord': name }, cg).textContent = name;
      }
    }
    const lm = st.lastMove;
    this.svg.dataset.lastMove = lm ? `${lm.from || ''}-${lm.to || ''}` : '';
    this.svg.dataset.lastResult = lm?.result || '';
    if (this.anim) this.stepGlide();
  }

  /**
   * Draw the move `from` → `to` as the piece on `from` gliding along its path over `ms`
   * milliseconds (the board as it was before the move). Resolves when the glide is over; a
   * render in between keeps the glide going.
   */
  glide(from, to, ms) {
    if (!ms || !this.geo.topo.has(from) || !this.geo.topo.has(to)) return Promise.resolve();
    const occupied = new Set((this.state.pieces || []).map((p) => p.at));
    const path = movePath(this.geo.topo, from, to, (sq) => occupied.has(sq)).map((sq) => this.geo.pos(sq));
    this.endGlide();
    return new Promise((resolve) => {
      this.anim = { from, path, ms, start: performance.now(), resolve };
      this.svg.dataset.anim = 'glide';
      const frame = () => {
        if (!this.anim) return;
        this.stepGlide();
        if (this.anim && performance.now() - this.anim.start < this.anim.ms) requestAnimationFrame(frame);
        else this.endGlide();
      };
      requestAnimationFrame(frame);
    });
  }

  /** Put the gliding piece where it is at this moment of its glide. */
  stepGlide() {
    const a = this.anim;
    const grp = this.pieceGroup(a.from);
    if (!grp) return;
    if (grp.nextSibling) grp.parentNode.appendChild(grp);
    grp.classList.add('gliding');
    const k = Math.min(1, (performance.now() - a.start) / a.ms);
    const e = k < 0.5 ? 2 * k * k : 1 - (-2 * k + 2) ** 2 / 2; // ease in and out
    const seg = a.path.length - 1;
    const f = e * seg;
    const i = Math.min(seg - 1, Math.floor(f));
    const u = f - i;
    const [x0, y0] = a.path[i];
    const [x1, y1] = a.path[i + 1] || a.path[i];
    grp.setAttribute('transform', `translate(${x0 + (x1 - x0) * u} ${y0 + (y1 - y0) * u})`);
  }

  endGlide() {
    const a = this.anim;
    if (!a) return;
    this.anim = null;
    delete this.svg.dataset.anim;
    a.resolve();
  }

  /** Mark the hit cells of draggable squares (touch drags there must not scroll the page). */
  markDraggable() {
    const can = this.opts.draggable;
    for (const r of this.hits.children) {
      r.classList.toggle('grab', !!(can && can(r.dataset.sq)));
    }
  }

  pieceGroup(sq) {
    return this.dynamic.querySelector(`.piece[data-at="${sq}"]`);
  }

  toSvg(evt) {
    const pt = this.svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = pt.matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  installPointer() {
    const svg = this.svg;
    // A right click asks for a mark (标记) on a square that takes one.
    svg.addEventListener('contextmenu', (e) => {
      const [x, y] = this.toSvg(e);
      const sq = this.geo.squareAt(x, y);
      if (sq && this.opts.markable && this.opts.markable(sq) && this.opts.onMark) {
        e.preventDefault();
        this.opts.onMark(sq, e.clientX, e.clientY);
      }
    });
    svg.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      const [x, y] = this.toSvg(e);
      const sq = this.geo.squareAt(x, y);
      this.press = { sq, x: e.clientX, y: e.clientY, id: e.pointerId, dragging: false };
      // A long press (half a second without moving) on a square that takes a mark asks for one.
      if (sq && this.opts.markable && this.opts.markable(sq) && this.opts.onMark) {
        const p = this.press;
        p.longTimer = setTimeout(() => {
          if (this.press !== p) return;
          p.long = true;
          this.opts.onMark(sq, p.x, p.y);
        }, 500);
      }
      if (sq && this.opts.draggable && this.opts.draggable(sq)) {
        this.press.canDrag = true;
        try { svg.setPointerCapture(e.pointerId); } catch { /* ignore */ }
      }
    });
    svg.addEventListener('pointermove', (e) => {
      const p = this.press;
      if (p && p.id === e.pointerId && p.longTimer && Math.hypot(e.clientX - p.x, e.clientY - p.y) > 8) {
        clearTimeout(p.longTimer);
        p.longTimer = null;
      }
      if (!p || p.id !== e.pointerId || !p.canDrag) return;
      if (!p.dragging && Math.hypot(e.clientX - p.x, e.clientY - p.y) > 6) {
        p.dragging = true;
        p.group = this.pieceGroup(p.sq);
        if (p.group) {
          p.group.classList.add('dragging');
          p.group.parentNode.appendChild(p.group);
        }
        if (this.opts.onDragStart) this.opts.onDragStart(p.sq);
        p.group = this.pieceGroup(p.sq);
        if (p.group) {
          p.group.classList.add('dragging');
          p.group.parentNode.appendChild(p.group);
        }
      }
      if (p.dragging && p.group) {
        const [x, y] = this.toSvg(e);
        p.group.setAttribute('transform', `translate(${x} ${y})`);
      }
      if (p.dragging) e.preventDefault();
    });
    const finish = (e, cancelled) => {
      const p = this.press;
      if (!p || p.id !== e.pointerId) return;
      this.press = null;
      clearTimeout(p.longTimer);
      if (p.long) return; // the long press asked for a mark: no click
      try { svg.releasePointerCapture(e.pointerId); } catch { /* ignore */ }
      const [x, y] = this.toSvg(e);
      const sq = this.geo.squareAt(x, y);
      if (p.dragging) {
        this.render();
        if (!cancelled && sq && sq !== p.sq && this.opts.onDrag) this.opts.onDrag(p.sq, sq);
        else if (this.opts.onDragCancel) this.opts.onDragCancel(p.sq);
      } else if (!cancelled && this.opts.onClick) {
        this.opts.onClick(sq);
      }
    };
    svg.addEventListener('pointerup', (e) => finish(e, false));
    svg.addEventListener('pointercancel', (e) => finish(e, true));
  }
}
