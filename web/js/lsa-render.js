// The 陆海空三军棋 board drawn as a board printed on cardboard (LANDSEAAIR §2): each seat's land
// tinted, the sea across the middle with its anchor circles (锚圈), the two iron bridges (铁桥)
// on files a and i, railways as thick track lines and roads thin as on the 军棋 boards, the
// air lines (航空线) as dashed sky-blue lines beside them, cities (城市) with battlements,
// airfields (飞机场) with a runway, each harbour (海口) as the fort's emplacement, bridgeheads
// (桥头) marked, camps as circles. render.js calls drawLandSeaAir from its static layer and
// keeps everything else (pieces, highlights, pointer input) common to every board.
import { t } from './i18n.js';
import { el, edgeLines } from './svg.js';

/** Layout in board units: 9 columns of 64, 15 rows of 46 (a phone shows tiles of ~36 px). */
export const LSA_LAYOUT = { cx: 64, cy: 46, m: 24, tileW: 56, tileH: 32, font: 15, camp: 18 };

/** The arm glyph shown on a hidden piece (its arm is public, LANDSEAAIR §6). */
export const ARM_GLYPH = { land: '陆', sea: '海', air: '空' };

/**
 * Draw the static board into `root`: `g` is render.js's Geometry (positions `g.pos(name)`,
 * `g.at(file, rank)`), `tints` the seat tints.
 */
export function drawLandSeaAir(g, root, tints) {
  const L = g.L;
  const topo = g.topo;
  const box = (names, pad) => {
    const pts = names.map((n) => g.pos(n));
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const x = Math.min(...xs) - pad[0];
    const y = Math.min(...ys) - pad[1];
    return { x, y, width: Math.max(...xs) + pad[0] - x, height: Math.max(...ys) + pad[1] - y };
  };
  // Each half's land, tinted in its seat's colour.
  const tg = el('g', { class: 'tints' }, root);
  for (const seat of [0, 1]) {
    el('rect', { ...box(topo.territoryOf(seat), [L.cx / 2 - 2, L.cy / 2 - 2]), rx: 10, fill: tints[seat], class: `tint tint-${seat}` }, tg);
  }
  // The sea between the coasts (files b–h, ranks 7–9), waves, and the anchor circles.
  const sea = el('g', { class: 'lsa-sea' }, root);
  const seaNames = topo.names().filter((n) => topo.get(n).sea);
  const sb = box(seaNames, [L.cx / 2 + 2, L.cy / 2 + 2]);
  el('rect', { ...sb, rx: 6, class: 'sea' }, sea);
  for (let i = 1; i <= 5; i++) {
    const y = sb.y + (sb.height * i) / 6;
    let d = `M${sb.x + 6} ${y}`;
    for (let x = sb.x + 6; x < sb.x + sb.width - 20; x += 24) d += `q6 -4 12 0t12 0`;
    el('path', { d, class: 'wave' }, sea);
  }
  el('text', { x: sb.x + sb.width / 2, y: sb.y + sb.height / 2 + 7, class: 'sea-label', 'font-size': 20 }, sea).textContent = t('lsa.sea');
  // The bridges: a span on files a and i from bridgehead to bridgehead.
  for (const f of [0, 8]) {
    const [x1, y1] = g.at(f, 6);
    const [, y2] = g.at(f, 10);
    const w = L.cx * 0.5;
    const y = Math.min(y1, y2);
    const h = Math.abs(y2 - y1);
    el('rect', { x: x1 - w / 2, y, width: w, height: h, rx: 4, class: 'bridge' }, sea);
    for (const side of [-1, 1]) {
      el('line', { x1: x1 + (side * w) / 2, y1: y, x2: x1 + (side * w) / 2, y2: y + h, class: 'bridge-rail' }, sea);
    }
  }
  // Sea lanes: thin lines joining the sea squares a ship sails along.
  edgeLines(g, el('g', { class: 'lanes' }, root), topo.seaEdges, 'sea-lane');
  // Roads, rails (with ties), as on the 军棋 boards.
  edgeLines(g, el('g', { class: 'roads' }, root), topo.roadEdges, 'road');
  const rails = el('g', { class: 'rails' }, root);
  for (const cls of ['rail', 'rail-ties']) {
    for (const [a, b] of topo.railEdges) {
      const [x1, y1] = g.pos(a);
      const [x2, y2] = g.pos(b);
      el('path', { d: `M${x1} ${y1}L${x2} ${y2}`, class: cls }, rails);
    }
  }
  // Air lines: dashed, a little to the side of the squares' centres so that they stay apart
  // from the railways that share files a and i (to the right on files, above on rank 8).
  const air = el('g', { class: 'air-lines' }, root);
  const off = L.tileW / 2 + 3;
  for (const line of topo.airLines) {
    const [x1, y1] = g.pos(line[0]);
    const [x2, y2] = g.pos(line[line.length - 1]);
    const horizontal = Math.abs(y1 - y2) < 1;
    const [dx, dy] = horizontal ? [0, -(L.tileH / 2 + 3) * (g.turns ? -1 : 1)] : [off * (g.turns ? -1 : 1), 0];
    el('line', { x1: x1 + dx, y1: y1 + dy, x2: x2 + dx, y2: y2 + dy, class: 'air-line' }, air);
  }
  // Squares by type.
  const squares = el('g', { class: 'squares' }, root);
  const tile = (x, y, cls, extra = {}) => el('rect', {
    x: x - L.tileW / 2, y: y - L.tileH / 2, width: L.tileW, height: L.tileH, rx: 3, class: cls, ...extra,
  }, squares);
  const label = (x, y, text, cls, size = L.font * 0.62) => {
    el('text', { x, y: y + size * 0.35, class: cls, 'font-size': size }, squares).textContent = text;
  };
  for (const s of topo.squares.values()) {
    const [x, y] = g.pos(s.name);
    const attrs = { 'data-kind': s.kind };
    switch (s.kind) {
      case 'camp':
        el('circle', { cx: x, cy: y, r: L.camp, class: 'camp', ...attrs }, squares);
        break;
      case 'city': {
        // A gatehouse: the tile with battlements along its top.
        tile(x, y, 'city', attrs);
        const w = L.tileW;
        const top = y - L.tileH / 2;
        let d = `M${x - w / 2} ${top}`;
        const n = 5;
        for (let i = 0; i < n; i++) {
          const x0 = x - w / 2 + (w * i) / n;
          d += `L${x0} ${top - 5}L${x0 + w / (2 * n)} ${top - 5}L${x0 + w / (2 * n)} ${top}L${x0 + w / n} ${top}`;
        }
        el('path', { d, class: 'city-wall' }, squares);
        label(x, y, t('lsa.city'), 'square-label');
        break;
      }
      case 'airfield': {
        tile(x, y, 'airfield', attrs);
        el('line', { x1: x - L.tileW / 2 + 6, y1: y, x2: x + L.tileW / 2 - 6, y2: y, class: 'runway' }, squares);
        label(x, y - L.tileH / 4, t('lsa.airfield'), 'square-label airfield-label');
        break;
      }
      case 'harbour':
        tile(x, y, 'harbour', attrs);
        label(x, y, t('lsa.harbour'), 'square-label harbour-label');
        break;
      case 'anchor':
        el('circle', { cx: x, cy: y, r: L.tileH * 0.5, class: 'anchor', ...attrs }, squares);
        label(x, y, '⚓', 'anchor-label', L.font * 0.8);
        break;
      case 'sea':
        el('circle', { cx: x, cy: y, r: 3, class: 'sea-point', ...attrs }, squares);
        break;
      case 'bridge':
        tile(x, y, 'station rail-station bridge-station', attrs);
        break;
      case 'bridgehead':
        tile(x, y, 'station rail-station bridgehead', attrs);
        label(x, y, t('lsa.bridgehead'), 'square-label');
        break;
      default:
        tile(x, y, s.rail ? 'station rail-station' : 'station', attrs);
    }
  }
}
