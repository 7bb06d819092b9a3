// Browser tests of the web client in real headless Chromium against the real server:
// play the computer, deploy (random layout, swap by click and by drag, submit), move by
// clicking, announcements, reconnect, spectator view, resignation, the replay viewer, a
// four-player table, the English toggle and a phone-sized screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { helpers } from '../lib/page.mjs';
import { topology } from '../../js/board.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '../artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

let server;
let browser;
let page;
// Square clicks and moves on `page` (web/tests/lib/page.mjs), bound once the page exists.
let box;
let clickSquare;
let playOneMove;
const errors = [];

before(async () => {
  server = await startServer();
  browser = await launch();
  page = await browser.context.newPage();
  ({ box, clickSquare, playOneMove } = helpers(page));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => d.accept());
});

after(async () => {
  if (page && process.env.KEEP_SCREENSHOTS !== '0') await page.screenshot({ path: path.join(ARTIFACTS, 'last.png') }).catch(() => {});
  if (browser) await browser.close();
  if (server) await server.stop();
});

async function dragSquare(from, to) {
  const a = await box(`.hits [data-sq="${from}"]`);
  const b = await box(`.hits [data-sq="${to}"]`);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + 10, a.y + 10, { steps: 3 });
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}
async function roleAt(sq) {
  return page.locator(`.piece[data-at="${sq}"]`).getAttribute('data-role');
}
async function noHorizontalOverflow() {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}


test("the client's board geometry is the server's (GET /api/boards)", async () => {
  for (const [board, query, middle] of [['two_player', '', true], ['two_player', '?middle_crossing=road', false], ['four_player', '', true]]) {
    const data = await (await fetch(`${server.url}/api/boards/${board}${query}`)).json();
    const t = topology(board, middle);
    assert.equal(data.squares.length, t.squares.size);
    for (const sq of data.squares) {
      const mine = t.get(sq.name);
      assert.ok(mine, sq.name);
      assert.deepEqual(
        [mine.file, mine.rank, mine.kind, mine.rail, mine.home],
        [sq.file, sq.rank, sq.kind === 'headquarters' ? 'hq' : sq.kind, sq.rail, sq.home ?? null],
        sq.name,
      );
    }
    const key = (a, b, rail) => `${[a, b].sort().join('-')}:${rail}`;
    const theirs = new Set(data.edges.map((e) => key(e.a, e.b, e.rail)));
    const ours = new Set([...t.roadEdges.map(([a, b]) => key(a, b, false)), ...t.railEdges.map(([a, b]) => key(a, b, true))]);
    assert.deepEqual([...ours].sort(), [...theirs].sort(), `${board}${query}`);
  }
});

test('two-player game against the computer: deploy, move, reconnect, spectate, resign, replay', async () => {
  await page.goto(server.url + '/');
  await page.waitForSelector('#play-computer-2');
  // What the button does, asking for no resignation window (a server without that option
  // ignores it and the test waits out the 90 s). The button itself is clicked in later tests.
  const tableId = await page.evaluate(async () => {
    const r = await window.junqi.api('POST', '/api/play-computer', { board: 'two_player', resign_after_seconds: 0 });
    window.junqi.saveSeatToken(r.table.id, r.token);
    location.hash = `#/table/${r.table.id}`;
    return r.table.id;
  });
  await page.waitForURL(/#\/table\//);
  await page.waitForSelector('#deploy:not([hidden])');
  await page.waitForSelector('svg.board-two_player .piece');
  assert.equal(await page.locator('.piece').count(), 25);

  // 布阵方案: a fresh layout of each named family, drawn by the server, loads into the editor.
  for (const family of ['flag-fortress', 'bomb-ahead', 'bomb-by-flag']) {
    const before = await page.inputValue('#layout-text');
    await page.selectOption('#deploy-family', family);
    await page.waitForFunction((b) => document.querySelector('#layout-text').value !== b, before);
    assert.equal(await page.locator('#deploy-ok').count(), 1, `a ${family} layout is legal`);
  }
  // The last, bomb-by-flag, has a bomb beside the flag (b1 or d1).
  const flagAt = (await roleAt('b1')) === 'flag' ? 'b1' : 'd1';
  const beside = flagAt === 'b1' ? ['a1', 'c1', 'b2'] : ['c1', 'e1', 'd2'];
  const roles = await Promise.all(beside.map((sq) => roleAt(sq)));
  assert.ok(roles.includes('bomb'), `a bomb beside the flag on ${flagAt}: ${roles}`);

  // Random layout, then swap two pieces by clicking and two by dragging.
  await page.click('#btn-random');
  assert.equal(await page.locator('#deploy-ok').count(), 1, 'a random layout is legal');
  const [a, b] = [await roleAt('a4'), await roleAt('e4')];
  await clickSquare('a4');
  await clickSquare('e4');
  assert.equal(await roleAt('a4'), b);
  assert.equal(await roleAt('e4'), a);
  const [c, d] = [await roleAt('a5'), await roleAt('c5')];
  await dragSquare('a5', 'c5');
  assert.equal(await roleAt('a5'), d);
  assert.equal(await roleAt('c5'), c);

  // An illegal layout is explained and cannot be submitted: the flag out of its HQ.
  const flagSq = (await roleAt('b1')) === 'flag' ? 'b1' : 'd1';
  await clickSquare(flagSq);
  await clickSquare('a4');
  await page.waitForSelector('#deploy-problems li');
  const problem = await page.locator('#deploy-problems li').first().textContent();
  assert.match(problem, /a4/);
  assert.ok(await page.locator('#btn-submit').isDisabled());
  await clickSquare('a4');
  await clickSquare(flagSq);
  await page.waitForSelector('#deploy-ok');

  // Save the layout, then submit.
  await page.fill('#layout-name', 'test layout');
  await page.click('#btn-save-layout');
  await page.waitForSelector('#layouts li');
  await page.click('#btn-submit');
  await page.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });
  const playStart = Date.now();
  await page.waitForSelector('.piece[data-seat="1"]');
  assert.equal(await page.locator('.piece[data-seat="1"][data-role=""]').count(), 25, 'enemy pieces are blank tiles');

  // Moves by clicking; each is announced, the last move is highlighted.
  for (let i = 0; i < 4; i++) {
    const mv = await playOneMove(0);
    assert.ok(mv.from);
  }
  await page.waitForSelector('.last-to');
  const log = await page.locator('#log li').allTextContents();
  assert.ok(log.length >= 4, `announcements: ${log.join(' | ')}`);
  assert.ok(log.some((l) => /南：\w+\d+ (→|攻击) /.test(l)), log.join(' | '));
  assert.equal(await page.locator('#dead .seat-dead').count(), 2);
  await page.screenshot({ path: path.join(ARTIFACTS, 'two-player-game.png') });

  // Reconnect: a reload keeps the seat (token in localStorage) and the whole announcement log.
  const logBefore = await page.locator('#log li').count();
  await page.reload();
  await page.waitForSelector('#status[data-status="playing"]');
  await page.waitForSelector('.piece[data-seat="0"][data-role="flag"]');
  await page.waitForFunction((n) => document.querySelectorAll('#log li').length >= n, logBefore);
  await page.waitForSelector('.last-to');
  await playOneMove(0);
  // A dropped connection comes back by itself and resumes from the last event it had.
  await page.waitForSelector('.status-line.mine');
  const v = await page.evaluate(() => window.junqi.current.s.v);
  await page.evaluate(() => window.junqi.current.sock.ws.close());
  await page.waitForFunction(() => window.junqi.current.s.conn === 'reconnecting');
  await page.waitForFunction(() => window.junqi.current.s.conn === 'open');
  await playOneMove(0);
  // The computer's answer is drawn after the move's glide (frames are played one at a time).
  await page.waitForFunction((v0) => window.junqi.current.s.v >= v0 + 2, v, { timeout: 10000 });

  // Spectator view of the same table: no seat, no identities.
  const tokens = await page.evaluate(() => localStorage.getItem('junqi.seats'));
  await page.evaluate(() => localStorage.removeItem('junqi.seats'));
  await page.reload();
  await page.waitForSelector('#spectating');
  await page.waitForSelector('.piece');
  // The only identity dark play announces to all is a flag whose marshal was lost (RULES §6);
  // the moves above are the first legal ones of a random layout, so that can happen.
  const seen = await page.$$eval('.piece:not([data-role=""])', (els) => els.map((e) => e.dataset.role));
  assert.ok(seen.every((r) => r === 'flag'), `spectators see no identity but an announced flag: ${seen}`);
  assert.equal(await page.locator('#btn-resign').count(), 0);
  await page.evaluate((v) => localStorage.setItem('junqi.seats', v), tokens);
  await page.reload();
  await page.waitForSelector('#btn-resign');

  // Resign once the resignation window (RULES §10) is over.
  const windowS = await page.evaluate(() => window.junqi.current.resignAfterSeconds());
  const wait = windowS * 1000 - (Date.now() - playStart) + 1500;
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  await page.click('#btn-resign');
  await page.waitForSelector('#outcome', { timeout: 15000 });
  assert.match(await page.locator('#outcome').textContent(), /你输了.*投降/);
  await page.waitForFunction(() => [...document.querySelectorAll('.piece[data-seat="1"]')].every((e) => e.dataset.role));

  // The replay viewer: every identity, stepping through the record.
  await page.click('#link-replay');
  await page.waitForURL(new RegExp(`#/replay/${tableId}`));
  await page.waitForSelector('#replay-steps li');
  const steps = await page.locator('#replay-steps li').count();
  assert.ok(steps >= 10, `steps: ${steps}`);
  assert.equal(await page.locator('.piece').count(), 50);
  assert.equal(await page.locator('.piece[data-role=""]').count(), 0, 'identities revealed');
  await page.click('#replay-next');
  await page.click('#replay-next');
  assert.match(await page.locator('#replay-counter').textContent(), /2/);
  await page.waitForSelector('.last-to');
  await page.click('#replay-last');
  assert.match(await page.locator('#outcome').textContent(), /投降/);
  const rec = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/record`)).text(), tableId);
  assert.match(rec, /resign 0/);
  assert.deepEqual(errors, []);
});

test('a four-player table renders and plays', async () => {
  await page.goto(server.url + '/#/');
  await page.click('#play-computer-4');
  await page.waitForURL(/#\/table\//);
  await page.waitForSelector('svg.board-four_player');
  assert.equal(await page.locator('.hits [data-sq]').count(), 129);
  assert.equal(await page.locator('svg.board-four_player .camp').count(), 20);
  assert.equal(await page.locator('svg.board-four_player .hq').count(), 8);
  await page.waitForSelector('#btn-submit:not([disabled])');
  await page.click('#btn-submit');
  await page.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });
  await page.waitForFunction(() => document.querySelectorAll('.piece').length === 100);
  await playOneMove(0);
  assert.equal(await page.locator('.seat-row').count(), 4);
  await page.screenshot({ path: path.join(ARTIFACTS, 'four-player-game.png') });
  assert.deepEqual(errors, []);
});

test('a table created in the lobby: flip play against a computer, started by the host', async () => {
  await page.goto(server.url + '/#/');
  await page.click('#create summary');
  await page.selectOption('#create-mode', 'flip');
  await page.check('#create-bots [data-bot-seat="1"]');
  await page.fill('#create-move-seconds', '60');
  await page.click('#create-btn');
  await page.waitForURL(/#\/table\//);
  await page.waitForSelector('#table-code');
  await page.waitForSelector('#btn-start:not([disabled])');
  await page.click('#btn-start');
  await page.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });
  await page.waitForSelector('.status-line.mine');
  assert.equal(await page.locator('.piece.face-down').count(), 50);
  assert.match(await page.locator('[data-clock-seat="0"]').textContent(), /^[01]:\d\d$/, 'the move clock runs');
  const before = await page.locator('#log li').count();
  await clickSquare('c3');
  await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
  assert.match(await page.locator('#log li').first().textContent(), /翻开 c3/);
  assert.equal(await page.locator('.piece[data-at="c3"].face-down').count(), 0);
  assert.deepEqual(errors, []);
});

test('the English toggle relabels the interface and the pieces', async () => {
  await page.goto(server.url + '/#/');
  await page.waitForSelector('#play-computer-2');
  assert.equal(await page.locator('#lang-toggle').textContent(), 'English');
  await page.click('#lang-toggle');
  assert.equal(await page.locator('#lang-toggle').textContent(), '中文');
  assert.match(await page.locator('#play-computer-2').textContent(), /Play the computer/);
  await page.click('#play-computer-2');
  await page.waitForSelector('.piece');
  const labels = await page.locator('.piece .tile-label').allTextContents();
  assert.ok(labels.includes('Marshal') && labels.includes('Flag'), labels.join(','));
  await page.click('#lang-toggle');
  const zh = await page.locator('.piece .tile-label').allTextContents();
  assert.ok(zh.includes('司令') && zh.includes('军旗'), zh.join(','));
});

test('a phone-sized screen shows the lobby and a table without horizontal overflow', async () => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(server.url + '/#/');
  await page.waitForSelector('#play-computer-2');
  assert.ok(await noHorizontalOverflow(), 'lobby overflows');
  await page.click('#play-computer-2');
  await page.waitForSelector('.piece');
  assert.ok(await noHorizontalOverflow(), 'table overflows');
  const w = await page.locator('svg.board').evaluate((e) => e.getBoundingClientRect().width);
  assert.ok(w <= 375 && w > 300, `board width ${w}`);
  await page.click('#btn-submit');
  await page.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });
  await playOneMove(0);
  assert.ok(await noHorizontalOverflow(), 'game overflows');
  await page.screenshot({ path: path.join(ARTIFACTS, 'phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
});
