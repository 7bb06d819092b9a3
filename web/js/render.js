// SVG board: both boards drawn as on a real board (railways as thick track lines, roads thin,
// camps as circles, headquarters arched, the two-player mountain, the four-player arcs), pieces
// as tiles in their seat's colour with Chinese or English labels, hidden pieces as blank tiles,
// highlights for selection, legal destinations, the last move and its combat result. Pointer
// input (click or drag) is reported as square names; a long press or a right click on a square
// that `markable` accepts asks for a 标记 (onMark). Optional layers: square names (coordinates),
// squares highlighted from the log, and the player's guesses on hidden pieces. A move can be
// drawn as a glide along its path (glide()).
import { topology, movePath } from './board.js';
import { roleName, rank } from './roles.js';
import { t, getLang } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';

export const SEAT_COLOURS = {
  two_player: ['#c0392b', '#1f5fa8'],
  four_player: ['#c0392b', '#1f5fa8', '#d9822b', '#2e8b57'],
};
const TINTS = {
  two_player: ['#f6ddd5', '#d9e4f2'],
  four_player: ['#f6ddd5', '#d9e4f2', '#f8e6cf', '#d7ecdf'],
};

/** Layout constants per board. */
const LAYOUT = {
  two_player: { cx: 98, cy: 62, gap: 74, m: 26, tileW: 66, tileH: 36, font: 18, camp: 23 },
  // Tiles nearly fill the 48-unit cells, so that a zoomed phone board shows pieces of 32 px and more.
  four_player: { cx: 48, cy: 48, gap: 0, m: 16, tileW: 42, tileH: 34, font: 14, camp: 19 },
};

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** Board geometry in view coordinates, rotated so that `viewer` sits at the bottom. */
export class Geometry {
  constructor(board, middleRail = true, viewer = 0) {
    this.board = board;
    this.topo = topology(board, middleRail);
    this.L = LAYOUT[board];
    const L = this.L;
    if (board === 'two_player') {
      this.width = 2 * L.m + 5 * L.cx;
      this.height = 2 * L.m + 12 * L.cy + L.gap;
      this.turns = viewer === 1 ? 2 : 0;
    } else {
      this.width = 2 * L.m + 18 * L.cx;
      this.height = 2 * L.m + 18 * L.cy;
      this.turns = ((viewer % 4) + 4) % 4;
    }
  }
  /** Unrotated position of grid (file, rank), file/rank may be fractional. */
  raw(file, rank) {
    const L = this.L;
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
    const cx = this.width / 2;
    const cy = this.height / 2;
    let dx = x - cx;
    let dy = y - cy;
    for (let i = 0; i < this.turns; i++) [dx, dy] = [-dy, dx];
    return [cx + dx, cy + dy];
  }
  at(file, rank) {
    return this.rotate(this.raw(file, rank));
  }
  pos(name) {
    const s = this.topo.get(name);
    return this.at(s.file, s.rank);
  }
  /** The square whose cell contains view point (x, y), or null. */
  squareAt(x, y) {
    let best = null;
    let bestD = Infinity;
    const { cx, cy } = this.L;
    const swap = this.turns % 2 === 1;
    const hw = (swap ? cy : cx) / 2;
    const hh = (swap ? cx : cy) / 2;
    for (const name of this.topo.squares.keys()) {
      const [px, py] = this.pos(name);
      const dx = Math.abs(px - x);
      const dy = Math.abs(py - y);
      if (dx <= hw && dy <= hh) {
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

/**
 * A board view in a container element.
 * options: {board, middleRail, viewer, onClick(name|null), onDrag(from, to), draggable(name)}
 * state (set with update): {pieces: [{at, seat, role|null, face_down, carrying_flag_of}],
 *   selected, targets: [names], lastMove: {from, to, result}, marks: [names] (errors), refused: [names] (squares the server refused),
 *   territory: seat to emphasise (deployment), highlight: [names] (from the log), coords: bool,
 *   guesses: {name: role} (标记 on hidden pieces), deduced: {name: role} (hidden pieces whose
 *   role the events tell)}
 */
export class BoardView {
  constructor(container, options) {
    this.container = container;
    this.opts = options;
    this.state = { pieces: [] };
    this.geo = new Geometry(options.board, options.middleRail ?? true, options.viewer ?? 0);
    this.svg = el('svg', {
      class: `board board-${options.board}`,
      viewBox: `0 0 ${this.geo.width} ${this.geo.height}`,
      role: 'img',
      'aria-label': t(`board.${options.board}`),
    });
    container.replaceChildren(this.svg);
    this.drawStatic();
    this.dynamic = el('g', { class: 'dynamic' }, this.svg);
    this.hits = el('g', { class: 'hits' }, this.svg);
    this.drawHits();
    this.installPointer();
  }

  setViewer(viewer) {
    if (this.opts.viewer === viewer) return;
    this.opts.viewer = viewer;
    this.geo = new Geometry(this.opts.board, this.opts.middleRail ?? true, viewer);
    this.svg.replaceChildren();
    this.drawStatic();
    this.dynamic = el('g', { class: 'dynamic' }, this.svg);
    this.hits = el('g', { class: 'hits' }, this.svg);
    this.drawHits();
    this.render();
  }

  /** Redraw everything after a language change. */
  relabel() {
    this.svg.replaceChildren();
    this.drawStatic();
    this.dynamic = el('g', { class: 'dynamic' }, this.svg);
    this.hits = el('g', { class: 'hits' }, this.svg);
    this.drawHits();
    this.render();
  }

  drawStatic() {
    const g = this.geo;
    const L = g.L;
    const topo = g.topo;
    const board = this.opts.board;
    const root = el('g', { class: 'static' }, this.svg);
    el('rect', { x: 0, y: 0, width: g.width, height: g.height, rx: 14, class: 'board-bg' }, root);
    // Territory tints.
    const tints = el('g', { class: 'tints' }, root);
    for (let seat = 0; seat < topo.seats; seat++) {
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
    if (board === 'two_player') this.drawMountain(root);
    // Roads, then rails.
    const roads = el('g', { class: 'roads' }, root);
    for (const [a, b] of topo.roadEdges) {
      const [x1, y1] = g.pos(a);
      const [x2, y2] = g.pos(b);
      el('line', { x1, y1, x2, y2, class: 'road' }, roads);
    }
    const rails = el('g', { class: 'rails' }, root);
    const arcs = new Set((topo.arcs || []).map(([a, b]) => `${a}-${b}`));
    const railPath = (a, b) => {
      const [x1, y1] = g.pos(a);
      const [x2, y2] = g.pos(b);
      if (!arcs.has(`${a}-${b}`) && !arcs.has(`${b}-${a}`)) return `M${x1} ${y1}L${x2} ${y2}`;
      // An arc: a quarter ellipse about the empty corner between the two arms (the candidate
      // corner farther from the middle of the board).
      const c1 = [x2, y1];
      const c2 = [x1, y2];
      const far = (p) => Math.hypot(p[0] - g.width / 2, p[1] - g.height / 2);
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
        const w = L.tileW + 4;
        const h = L.tileH + 6;
        const x0 = x - w / 2;
        const y1 = y + h / 2;
        const r = Math.min(w / 2, h * 0.55);
        el('path', {
          d: `M${x0} ${y1}V${y - h / 2 + r * 0.6}Q${x0} ${y - h / 2} ${x0 + r} ${y - h / 2}H${x0 + w - r}Q${x0 + w} ${y - h / 2} ${x0 + w} ${y - h / 2 + r * 0.6}V${y1}Z`,
          class: 'hq',
        }, squares);
        el('text', { x, y: y + L.font * 0.3, class: 'hq-label', 'font-size': L.font * 0.62 }, squares).textContent = t('hq');
      } else {
        el('rect', {
          x: x - L.tileW / 2, y: y - L.tileH / 2, width: L.tileW, height: L.tileH, rx: 3,
          class: s.rail ? 'station rail-station' : 'station',
        }, squares);
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
    const swap = g.turns % 2 === 1;
    const w = swap ? g.L.cy : g.L.cx;
    const h = swap ? g.L.cx : g.L.cy;
    for (const name of g.topo.squares.keys()) {
      const [x, y] = g.pos(name);
      el('rect', { x: x - w / 2, y: y - h / 2, width: w, height: h, class: 'hit', 'data-sq': name }, this.hits);
    }
  }

  update(state) {
    this.state = { ...this.state, ...state };
    this.render();
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
        const [x, y] = g.pos(sq);
        el('rect', { x: x - L.tileW / 2 - 4, y: y - L.tileH / 2 - 4, width: L.tileW + 8, height: L.tileH + 8, rx: 6, class: cls }, dyn);
      }
    }
    for (const sq of st.marks || []) {
      const [x, y] = g.pos(sq);
      el('rect', { x: x - L.tileW / 2 - 4, y: y - L.tileH / 2 - 4, width: L.tileW + 8, height: L.tileH + 8, rx: 6, class: 'mark-error' }, dyn);
    }
    // The squares the server's last refusal names (its args.square, from, to).
    for (const sq of st.refused || []) {
      if (!g.topo.has(sq)) continue;
      const [x, y] = g.pos(sq);
      el('rect', { x: x - L.tileW / 2 - 7, y: y - L.tileH / 2 - 7, width: L.tileW + 14, height: L.tileH + 14, rx: 8, class: 'mark-refused', 'data-sq': sq }, dyn);
    }
    // Squares a log line points at.
    for (const sq of st.highlight || []) {
      if (!sq || !g.topo.has(sq)) continue;
      const [x, y] = g.pos(sq);
      el('rect', { x: x - L.tileW / 2 - 5, y: y - L.tileH / 2 - 5, width: L.tileW + 10, height: L.tileH + 10, rx: 7, class: 'hl', 'data-hl': sq }, dyn);
    }
    // Pieces.
    const pieces = el('g', { class: 'pieces' }, dyn);
    const guesses = st.guesses || {};
    for (const p of st.pieces || []) {
      if (!g.topo.has(p.at)) continue;
      const [x, y] = g.pos(p.at);
      const hidden = !p.role || p.face_down;
      const grp = el('g', {
        class: `piece seat-${p.seat ?? 'unknown'}${hidden ? ' hidden' : ''}${p.face_down ? ' face-down' : ''}${st.selected === p.at ? ' selected' : ''}`,
        'data-at': p.at, 'data-seat': p.seat ?? '', 'data-role': p.role || '',
        transform: `translate(${x} ${y})`,
      }, pieces);
      const fill = p.face_down ? '#8c7a5b' : SEAT_COLOURS[board][p.seat] || '#777';
      el('rect', { x: -L.tileW / 2, y: -L.tileH / 2, width: L.tileW, height: L.tileH, rx: 5, fill, class: 'tile' }, grp);
      el('rect', { x: -L.tileW / 2 + 2.5, y: -L.tileH / 2 + 2.5, width: L.tileW - 5, height: L.tileH - 5, rx: 3.5, class: 'tile-inner' }, grp);
      if (!hidden) {
        const label = roleName(p.role, lang, true);
        const size = lang === 'en' ? Math.min(L.font * 0.78, (L.tileW - 6) / (label.length * 0.55)) : L.font;
        el('text', { x: 0, y: size * 0.36, class: 'tile-label', 'font-size': size.toFixed(1) }, grp).textContent = label;
        const r = rank(p.role);
        if (lang === 'en' && r !== null && board === 'two_player') {
          el('text', { x: L.tileW / 2 - 5, y: -L.tileH / 2 + 10, class: 'tile-rank', 'font-size': 9 }, grp).textContent = String(r);
        }
      }
      const told = (st.deduced || {})[p.at];
      if (hidden && told) {
        // A role the events tell (tally.js): a fact, drawn as a label with a dotted frame.
        const label = roleName(told, lang, true);
        const size = lang === 'en' ? Math.min(L.font * 0.78, (L.tileW - 6) / (label.length * 0.55)) : L.font * 0.9;
        el('rect', { x: -L.tileW / 2 + 3.5, y: -L.tileH / 2 + 3.5, width: L.tileW - 7, height: L.tileH - 7, rx: 3, class: 'deduced-frame' }, grp);
        el('text', { x: 0, y: size * 0.36, class: 'tile-label deduced', 'font-size': size.toFixed(1), 'data-deduced': told }, grp).textContent = label;
      } else if (hidden && guesses[p.at]) {
        // The player's guess, on the blank tile with a question mark: never taken for a fact.
        const label = `${roleName(guesses[p.at], lang, true)}?`;
        const size = Math.min(L.font * 0.8, (L.tileW - 6) / (label.length * (lang === 'en' ? 0.58 : 1)));
        el('text', { x: 0, y: size * 0.36, class: 'guess', 'font-size': size.toFixed(1), 'data-guess': guesses[p.at] }, grp).textContent = label;
      }
      if (p.carrying_flag_of !== undefined && p.carrying_flag_of !== null) {
        el('circle', { cx: -L.tileW / 2 + 4, cy: -L.tileH / 2 + 4, r: 6, class: 'carry-badge', fill: SEAT_COLOURS[board][p.carrying_flag_of] }, grp);
      }
    }
    // Legal destinations.
    for (const sq of st.targets || []) {
      const [x, y] = g.pos(sq);
      if (byAt.has(sq)) {
        el('rect', { x: x - L.tileW / 2 - 3, y: y - L.tileH / 2 - 3, width: L.tileW + 6, height: L.tileH + 6, rx: 6, class: 'target-attack', 'data-target': sq }, dyn);
      } else {
        el('circle', { cx: x, cy: y, r: Math.min(L.tileH, L.tileW) * 0.24, class: 'target', 'data-target': sq }, dyn);
      }
    }
    this.markDraggable();
    // Combat result badge.
    if (st.lastMove && st.lastMove.result && g.topo.has(st.lastMove.to)) {
      const [x, y] = g.pos(st.lastMove.to);
      const bx = x + L.tileW / 2 - 2;
      const by = y - L.tileH / 2 - 2;
      const r = board === 'two_player' ? 14 : 12;
      // The badge pops in once, when its move is new (a later redraw shows it still).
      const key = `${st.lastMove.from}-${st.lastMove.to}-${st.lastMove.result}`;
      const fresh = this.badgeKey !== key;
      this.badgeKey = key;
      const b = el('g', { class: `badge badge-${st.lastMove.result}${fresh ? ' fresh' : ''}`, 'data-result': st.lastMove.result }, dyn);
      el('circle', { cx: bx, cy: by, r }, b);
      el('text', { x: bx, y: by + r * 0.38, 'font-size': r * 1.05 }, b).textContent = t(`badge.${st.lastMove.result}`);
    }
    // Square names, as the log writes them (a6, c11, …), at each cell's corner.
    if (st.coords) {
      const cg = el('g', { class: 'coords' }, dyn);
      // Two-player cells leave room above each tile; four-player names sit on the tile's corner.
      const two = board === 'two_player';
      const fs = two ? 11 : 8.5;
      for (const name of g.topo.squares.keys()) {
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
