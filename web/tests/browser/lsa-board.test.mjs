// The land-sea-air board (陆海空三军棋) drawn by the client in real Chromium, from the client's
// own modules served as static files: every square has its cell and its kind's drawing, the
// sea, both bridges and the six air lines are there, hidden enemy pieces show their public arm,
// a click reports the square under the pointer, and the board turns for North. Writes a
// picture of the board (LSA_SHOT=path) for the docs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';

const WEB = path.join(ROOT, 'web');
const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };

// A page with one board: South's pieces shown, North's hidden with their arms (as a seat's view
// of LANDSEAAIR §10.2 gives them).
const PAGE = `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/css/style.css"></head>
<body><div class="board-wrap" id="wrap" style="max-width:640px"></div>
<script type="module">
import { BoardView } from '/js/render.js';
const params = new URLSearchParams(location.search);
const clicks = [];
const view = new BoardView(document.getElementById('wrap'), {
  board: 'land_sea_air', viewer: Number(params.get('viewer') || 0), onClick: (sq) => clicks.push(sq),
});
view.update({ pieces: [
  { at: 'e1', seat: 0, role: 'flag' }, { at: 'e6', seat: 0, role: 'fort' },
  { at: 'a1', seat: 0, role: 'fighter' }, { at: 'i1', seat: 0, role: 'scout_plane' },
  { at: 'c7', seat: 0, role: 'battleship' }, { at: 'f7', seat: 0, role: 'submarine' },
  { at: 'b5', seat: 0, role: 'army_group_commander' }, { at: 'd5', seat: 0, role: 'tank' },
  { at: 'a6', seat: 0, role: 'missile' }, { at: 'g2', seat: 0, role: 'anti_aircraft_gun' },
  { at: 'e10', seat: 1, role: 'fort', arm: 'land' }, { at: 'c9', seat: 1, role: null, arm: 'sea' },
  { at: 'a15', seat: 1, role: null, arm: 'air' }, { at: 'e12', seat: 1, role: null, arm: 'air' },
  { at: 'd11', seat: 1, role: null, arm: 'land' }, { at: 'i10', seat: 1, role: null, arm: 'land' },
], targets: ['a7', 'a8', 'a9'], selected: 'a6' });
window.clicks = clicks;
</script></body></html>`;

let server;
let url;
let browser;

before(async () => {
  server = http.createServer(async (req, res) => {
    const p = new URL(req.url, 'http://x').pathname;
    if (p === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
      return;
    }
    const file = path.join(WEB, path.normalize(p));
    if (!file.startsWith(WEB)) {
      res.writeHead(403);
      res.end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function open(viewer, size = { width: 700, height: 1000 }) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewportSize(size);
  await page.goto(`${url}?viewer=${viewer}`);
  await page.waitForSelector('svg.board-land_sea_air .piece');
  return { page, errors };
}

test('the land-sea-air board is drawn with every square, the sea, the bridges and the air lines', async () => {
  const { page, errors } = await open(0);
  assert.deepEqual(errors, []);
  assert.equal(await page.locator('.hits [data-sq]').count(), 135);
  const kinds = await page.$$eval('[data-kind]', (els) => {
    const out = {};
    for (const e of els) out[e.dataset.kind] = (out[e.dataset.kind] || 0) + 1;
    return out;
  });
  assert.deepEqual(kinds, {
    station: 88, camp: 4, city: 6, airfield: 4, harbour: 2, bridgehead: 4, bridge: 6, anchor: 12, sea: 9,
  });
  assert.equal(await page.locator('rect.sea').count(), 1);
  assert.equal(await page.locator('rect.bridge').count(), 2);
  assert.equal(await page.locator('line.air-line').count(), 6);
  assert.equal(await page.locator('path.rail').count(), 56);
  assert.equal(await page.locator('line.road').count(), 146, '202 land edges, 56 of them rail');
  // Chinese labels on the shown pieces; the arm on hidden ones, never a role.
  assert.equal(await page.locator('.piece[data-at="b5"] .tile-label').textContent(), '兵团');
  assert.equal(await page.locator('.piece[data-at="c7"] .tile-label').textContent(), '主力舰');
  for (const [sq, glyph] of [['c9', '海'], ['a15', '空'], ['e12', '空'], ['d11', '陆']]) {
    assert.equal(await page.locator(`.piece[data-at="${sq}"] .arm-glyph`).textContent(), glyph, sq);
    assert.equal(await page.locator(`.piece[data-at="${sq}"] .tile-label`).count(), 0, `${sq} shows no role`);
  }
  // A click on a square's drawing reports that square.
  for (const sq of ['a8', 'e6', 'h9', 'i15']) {
    const b = await page.locator(`.hits [data-sq="${sq}"]`).boundingBox();
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  }
  assert.deepEqual(await page.evaluate(() => window.clicks), ['a8', 'e6', 'h9', 'i15']);
  // South at the bottom: a1 below a15, a1 left of i1.
  const y = async (sq) => (await page.locator(`.hits [data-sq="${sq}"]`).boundingBox()).y;
  const x = async (sq) => (await page.locator(`.hits [data-sq="${sq}"]`).boundingBox()).x;
  assert.ok((await y('a1')) > (await y('a15')));
  assert.ok((await x('a1')) < (await x('i1')));
  if (process.env.LSA_SHOT) await page.locator('svg.board').screenshot({ path: process.env.LSA_SHOT });
  await page.close();
});

test('North sees the board turned, its own half at the bottom, and a phone shows it whole', async () => {
  const { page, errors } = await open(1, { width: 390, height: 844 });
  assert.deepEqual(errors, []);
  const box = async (sq) => page.locator(`.hits [data-sq="${sq}"]`).boundingBox();
  assert.ok((await box('a15')).y > (await box('a1')).y, 'North at the bottom');
  assert.ok((await box('i15')).x < (await box('a15')).x, 'turned, not mirrored');
  const svg = await page.locator('svg.board').boundingBox();
  assert.ok(svg.width <= 390 && svg.x >= 0, `the board fits the phone's width (${svg.width})`);
  const cell = await box('e8');
  assert.ok(cell.width >= 30, `a phone cell is at least 30 px wide (${cell.width})`);
  await page.close();
});
