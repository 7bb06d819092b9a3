// A land-sea-air table in real Chromium without a server: the client's own TableView on a static
// page whose WebSocket is a stand-in, fed the frames docs/server-protocol.md gives a
// land_sea_air table (welcome, table, sync with `deploy.suggested`, views with `notes`, events,
// game_over) and recording what the client sends. Checked at phone (390×844) and desktop sizes:
// the deploy editor swaps pieces by two clicks, refuses a swap that would put a piece where its
// role may not start and says why, resets to the suggestion and submits the layout text; in
// play a scout plane's looks are drawn apart from its moves and a click sends `scout <from>
// <at>`; the scout notes show on the board and in 侦察记录 for their player only; the game-over
// view shows every piece. LSA_TABLE_SHOT=dir writes pictures of the board in play.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '../lib/server.mjs';
import { launchScreen } from '../lib/browser.mjs';
import { seededRng } from '../../js/ui.js';
import { randomLayout, layoutText, parseLayout, validateLayout } from '../../js/lsa-deploy.js';
import { lsaCounts } from '../../js/lsa-pieces.js';
import { lsaArm, lsaTopology } from '../../js/lsa-board.js';

const WEB = path.join(ROOT, 'web');
const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };

// The page: a WebSocket stand-in that records what is sent, then the table view of app.js.
const PAGE = `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/css/style.css"></head>
<body><main id="main"></main>
<script type="module">
window.sent = [];
window.sockets = [];
class StandInSocket {
  static OPEN = 1;
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    window.sockets.push(this);
    setTimeout(() => { this.readyState = 1; this.onopen?.(); }, 0);
  }
  send(data) { window.sent.push(JSON.parse(data)); }
  close() { this.readyState = 3; }
}
window.WebSocket = StandInSocket;
const { TableView } = await import('/js/table.js');
window.junqi = { current: new TableView(document.getElementById('main'), 'T1', { info: {} }) };
window.push = (frame) => window.sockets[0].onmessage({ data: JSON.stringify(frame) });
window.ready = true;
</script></body></html>`;

let server;
let url;

before(async () => {
  server = http.createServer(async (req, res) => {
    const p = new URL(req.url, 'http://x').pathname;
    if (p === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
      return;
    }
    const file = path.join(WEB, path.normalize(p));
    if (!file.startsWith(WEB)) { res.writeHead(403); res.end(); return; }
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
});

after(() => server?.close());

/** A full layout of the standard set for a seat, as the server's `suggested` would be. */
function layoutFor(seat, seed) {
  const pieces = new Map();
  let i = 0;
  for (const [role, n] of Object.entries(lsaCounts('seed'))) for (let k = 0; k < n; k++) pieces.set(`x${i++}`, role);
  return randomLayout(pieces, seat, seededRng(seed));
}
const SOUTH = layoutFor(0, 3);
const NORTH = layoutFor(1, 5);
const squareOf = (layout, role) => [...layout].find(([, r]) => r === role)[0];

const tableFrame = (status, seats) => ({
  type: 'table',
  table: {
    id: 'T1', code: 'LSA1', board: 'land_sea_air', mode: 'dark', options: {}, status,
    seats: seats || [
      { seat: 0, kind: 'human', name: 'me', connected: true, player: null },
      { seat: 1, kind: 'bot', name: 'bot:random', connected: true, player: null },
    ],
  },
  deployed: status === 'deploying' ? [false, true] : null,
  clock: { move_seconds: 0, deploy_seconds: 0, resign_after_seconds: 90 },
});

/** A seat's view of the start position: its own roles, the enemy's arms (LANDSEAAIR §10.2). */
function viewOf(seat, legal) {
  const pieces = [];
  for (const [s, layout] of [[0, SOUTH], [1, NORTH]]) {
    for (const [at, role] of layout) pieces.push({ at, seat: s, arm: lsaArm(role), role: s === seat || seat === 'referee' ? role : null });
  }
  return {
    board: 'land_sea_air', mode: 'dark', options: {}, to_move: 0, observer: seat === null ? 'spectator' : seat,
    pieces, fort_struck: [false, false], plies: 0, quiet_plies: 0, skips: [0, 0], eliminated: [], outcome: null,
    legal_actions: legal || [],
  };
}

async function openPage(screen) {
  const b = await launchScreen(screen);
  const page = await b.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.ready && window.sockets.length && window.sockets[0].readyState === 1);
  const push = (f) => page.evaluate((x) => window.push(x), f);
  const click = (sq) => page.locator(`.hits [data-sq="${sq}"]`).click();
  const pieceAt = (sq) => page.locator(`#board .piece[data-at="${sq}"]`);
  const roleAt = async (sq) => ((await pieceAt(sq).count()) ? pieceAt(sq).getAttribute('data-role') : null);
  return { b, page, errors, push, click, pieceAt, roleAt };
}

for (const screen of ['phone', 'desktop']) {
  test(`${screen}: the deploy editor swaps within each role's squares and refuses the rest`, async () => {
    const { b, page, errors, push, click, roleAt } = await openPage(screen);
    try {
      await push({ type: 'welcome', seat: 0, host: true });
      await push(tableFrame('deploying'));
      await push({
        type: 'sync', status: 'deploying', v: 0, observation: null, clock: null, outcome: null,
        deploy: { remaining_ms: null, layout: null, board: 'land_sea_air', suggested: layoutText(SOUTH) },
      });
      await page.waitForSelector('#deploy #btn-submit:not([disabled])');
      assert.equal(await page.locator('#board .piece').count(), 41, 'the suggested layout is on the board');
      assert.equal(await page.locator('#deploy-ok').count(), 1);

      // A ship onto a land square: refused, with the reason, the layout unchanged.
      const ship = squareOf(SOUTH, 'battleship');
      const emptyStation = lsaTopology().deploySquares(0, 'tank').find((sq) => !SOUTH.has(sq));
      await click(ship);
      assert.equal(await page.locator('#lsa-selected').getAttribute('data-sq'), ship);
      await click(emptyStation);
      await page.waitForSelector('#message .notice.error');
      assert.equal(await page.locator('#message').textContent(), `主力舰不能放在 ${emptyStation}：舰只只能放在己方锚圈`);
      assert.equal(await roleAt(ship), 'battleship');
      assert.equal(await roleAt(emptyStation), null);
      assert.equal(await page.locator(`#board .mark-error`).count(), 1, 'the refused square is outlined');

      // Still selected: the ship goes to South's empty anchor instead.
      const anchor = lsaTopology().deploySquares(0, 'battleship').find((sq) => !SOUTH.has(sq));
      await click(anchor);
      assert.equal(await roleAt(anchor), 'battleship');
      assert.equal(await roleAt(ship), null);
      assert.equal(await page.locator('#message .notice').count(), 0, 'a good swap clears the refusal');

      // Two land pieces trade places.
      const tank = squareOf(SOUTH, 'tank');
      const marshal = squareOf(SOUTH, 'marshal');
      await click(tank);
      await click(marshal);
      assert.equal(await roleAt(tank), 'marshal');
      assert.equal(await roleAt(marshal), 'tank');

      // The flag off its city, a plane onto North's half, a piece into a camp: each refused.
      await click(squareOf(SOUTH, 'flag'));
      await click(emptyStation);
      assert.match(await page.locator('#message').textContent(), /军旗只能放在己方的城市/);
      await click(squareOf(SOUTH, 'flag')); // unselect
      await click(squareOf(SOUTH, 'fighter'));
      await click('c12');
      assert.equal(await page.locator('#message').textContent(), 'c12 不是己方的布阵格');
      await click(squareOf(SOUTH, 'fighter'));
      await click(marshal);
      await click('c3');
      assert.equal(await page.locator('#message').textContent(), 'c3 是行营：开局时行营里没有棋子');
      await click(marshal);

      // Submitted: the layout text with both swaps, legal for South.
      await page.click('#btn-submit');
      const sent = (await page.evaluate(() => window.sent)).filter((f) => f.type === 'deploy');
      assert.equal(sent.length, 1);
      const layout = parseLayout(sent[0].layout).layout;
      assert.equal(layout.get(anchor), 'battleship');
      assert.equal(layout.get(tank), 'marshal');
      assert.equal(layout.get(marshal), 'tank');
      assert.equal(validateLayout(layout, 0, 'seed'), null);
      assert.equal(await page.locator('#deploy-ok').textContent(), '布阵已提交');

      // 推荐布阵 puts the suggestion back.
      await page.click('#btn-suggested');
      assert.equal(await roleAt(ship), 'battleship');
      assert.equal(await roleAt(tank), 'tank');
      // The board fits a phone's width.
      const svg = await page.locator('svg.board').boundingBox();
      assert.ok(svg.width <= (screen === 'phone' ? 390 : 1280), `the board fits (${svg.width})`);
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
  });

  test(`${screen}: a scout plane's look is its own target, and its notes are the player's only`, async () => {
    const plane = squareOf(SOUTH, 'scout_plane');
    const enemy = squareOf(NORTH, 'tank');
    // A flight over its own pieces to the first empty square of its file (§4.5), and a look.
    const flyTo = Array.from({ length: 5 }, (_, i) => `${plane[0]}${i + 2}`).find((sq) => !SOUTH.has(sq));
    const legal = [`${plane}-${flyTo}`, `scout ${plane} ${enemy}`];
    const notes = [{ at: enemy, role: 'tank' }];
    const { b, page, errors, push, click, pieceAt } = await openPage(screen);
    try {
      await push({ type: 'welcome', seat: 0 });
      await push(tableFrame('playing'));
      await push({ type: 'sync', status: 'playing', v: 3, observation: viewOf(0, legal), notes, clock: null, deploy: null, outcome: null });
      // The note: a tag on the hidden piece, its arm still shown, no label of its own.
      const tag = pieceAt(enemy).locator('.note-label');
      await tag.waitFor();
      assert.equal(await tag.textContent(), '坦克');
      assert.equal(await pieceAt(enemy).locator('.arm-glyph').textContent(), '陆');
      assert.equal(await pieceAt(enemy).locator('.tile-label').count(), 0);
      assert.equal(await page.locator('#board .note-label').count(), 1);
      assert.deepEqual(await page.$$eval('#lsa-notes li', (els) => els.map((e) => e.textContent)), [`${enemy}坦克`]);
      assert.equal(await page.locator('#tally').isHidden(), true, 'no 军棋 tally on this board');

      // The plane's targets: a move dot and a look ring; a click on the ring sends the look.
      await click(plane);
      assert.deepEqual(await page.$$eval('[data-target]', (els) => els.map((e) => e.dataset.target)), [flyTo]);
      assert.deepEqual(await page.$$eval('[data-look]', (els) => els.map((e) => e.dataset.look)), [enemy]);
      // LSA_TABLE_SHOT=dir writes a picture of the board with the plane selected.
      if (process.env.LSA_TABLE_SHOT) await page.screenshot({ path: path.join(process.env.LSA_TABLE_SHOT, `lsa-table-${screen}.png`), fullPage: true });
      await click(enemy);
      const acts = (await page.evaluate(() => window.sent)).filter((f) => f.type === 'act');
      assert.deepEqual(acts.map((a) => a.action), [`scout ${plane} ${enemy}`]);

      // The look's result, for its player: in the log; a new note in the view that follows.
      const gun = squareOf(NORTH, 'anti_aircraft_gun');
      await push({
        type: 'events', v: 4, entry: `0 scout ${plane} ${gun}`, to_move: 1, outcome: null,
        events: [{ kind: 'scout', seat: 0, from: plane, at: gun, result: 'viewed' }, { kind: 'scouted_private', seat: 0, at: gun, role: 'anti_aircraft_gun' }],
      });
      await push({ type: 'observation', v: 4, observation: { ...viewOf(0, []), to_move: 1 }, notes: [...notes, { at: gun, role: 'anti_aircraft_gun' }], clock: null });
      await page.waitForFunction((sq) => document.querySelector(`#board .piece[data-at="${sq}"] .note-label`), gun);
      const log = await page.$$eval('#log li', (els) => els.map((e) => e.textContent));
      assert.ok(log.some((l) => l.includes(`南：${plane} 侦察 ${gun}`)), log.join(' | '));
      assert.ok(log.some((l) => l.includes(`侦察：${gun} 是 高射炮`)), log.join(' | '));
      assert.equal(await page.locator('#lsa-notes li').count(), 2);
      assert.equal(await page.locator('svg.board').getAttribute('data-last-move'), `${plane}-${gun}`);
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
    // A spectator's page shows no notes even if a frame carried some: they are the player's.
    const spect = await openPage(screen);
    try {
      await spect.push({ type: 'welcome', seat: null });
      await spect.push(tableFrame('playing'));
      await spect.push({ type: 'sync', status: 'playing', v: 3, observation: viewOf(null), notes, clock: null, deploy: null, outcome: null });
      await spect.page.waitForSelector(`#board .piece[data-at="${enemy}"]`);
      assert.equal(await spect.page.locator('#board .note-label').count(), 0);
      assert.equal(await spect.page.locator('#lsa-notes').isHidden(), true);
      assert.deepEqual(spect.errors, []);
    } finally {
      await spect.b.close();
    }
  });
}

test('the game over view shows every piece, and the result', async () => {
  const { b, page, errors, push } = await openPage('desktop');
  try {
    await push({ type: 'welcome', seat: 0 });
    await push(tableFrame('playing'));
    await push({ type: 'sync', status: 'playing', v: 9, observation: viewOf(0, []), notes: [], clock: null, deploy: null, outcome: null });
    const outcome = { result: 'win', winners: [0], reason: 'flag_captured' };
    await push({ type: 'game_over', v: 10, outcome, record: '', observation: { ...viewOf('referee'), outcome } });
    await page.waitForSelector('#outcome');
    assert.match(await page.locator('#outcome').textContent(), /军旗被夺/);
    assert.equal(await page.locator('#board .piece').count(), 82);
    assert.equal(await page.locator('#board .piece .tile-label').count(), 82, 'every piece shows its role');
    assert.equal(await page.locator('#board .arm-glyph').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
