// A whole 陆海空三军棋 game in real Chromium against the real server (`junqi serve`): the lobby's
// 人机对战（陆海空） button with the random player, the deploy editor (a refused swap, a good
// one, then the layout submitted), moves and a scout plane's look made by clicking the board
// until the game ends (or, if it runs past the resignation window, a resignation), and the
// game-over view with every piece shown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { helpers } from '../lib/page.mjs';
import { parseLsaActions } from '../../js/lsa-actions.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '../artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

// How long play goes on by clicking before the test resigns (the server's window is 90 s).
const PLAY_MS = 100000;

let server;
let browser;
let page;
const errors = [];

before(async () => {
  server = await startServer();
  browser = await launch();
  page = await browser.context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => d.accept());
});

after(async () => {
  if (page) await page.screenshot({ path: path.join(ARTIFACTS, 'lsa-game-last.png') }).catch(() => {});
  if (browser) await browser.close();
  if (server) await server.stop();
});

const roleAt = (sq) => page.locator(`#board .piece[data-at="${sq}"]`).getAttribute('data-role');
const state = () => page.evaluate(() => {
  const s = window.junqi.current.s;
  const q = window.junqi.current.queue;
  return { status: s.status, seat: s.seat, legal: s.observation?.legal_actions || [], toMove: s.observation?.to_move, idle: !q || (!q.busy && q.length === 0) };
});

test('a land-sea-air game against the computer from the lobby, played by clicking to its end', { timeout: 300000 }, async () => {
  const { clickSquare } = helpers(page);
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#play-computer-lsa:not([disabled])');
  await page.selectOption('#play-bot', 'beginner');
  await page.click('#play-computer-lsa');
  await page.waitForURL(/#\/table\//);
  await page.waitForSelector('#deploy:not([hidden]) #btn-submit:not([disabled])');
  assert.equal(await page.locator('svg.board-land_sea_air .piece').count(), 41, 'the suggested layout of the standard set');
  assert.equal(await page.locator('#deploy-ok').count(), 1, "the server's suggestion is legal for the client too");

  // A refused swap (a ship onto land), then a good one (two land pieces).
  const pieces = new Map(await page.$$eval('#board .piece', (els) => els.map((e) => [e.dataset.at, e.dataset.role])));
  const ship = [...pieces].find(([, r]) => r === 'cruiser')[0];
  const land = [...pieces].filter(([, r]) => ['tank', 'major', 'captain', 'engineer', 'marshal'].includes(r)).map(([sq]) => sq);
  await clickSquare(ship);
  await clickSquare(land[0]);
  await page.waitForSelector('#message .notice.error');
  assert.match(await page.locator('#message').textContent(), /巡洋舰不能放在 .*舰只只能放在己方锚圈/);
  assert.equal(await roleAt(ship), 'cruiser');
  await clickSquare(ship); // unselect
  const [a, b] = [land[0], land.find((sq) => pieces.get(sq) !== pieces.get(land[0]))];
  const [ra, rb] = [await roleAt(a), await roleAt(b)];
  await clickSquare(a);
  await clickSquare(b);
  assert.equal(await roleAt(a), rb);
  assert.equal(await roleAt(b), ra);
  await page.click('#btn-submit');
  await page.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });
  await page.waitForSelector('#board .piece[data-seat="1"] .arm-glyph');
  assert.equal(await roleAt(a), rb, 'the game starts from the submitted layout');

  // Play by clicking: a look when the scout plane has one (once), else a random move.
  const start = Date.now();
  let looked = null;
  let moves = 0;
  while (Date.now() - start < PLAY_MS) {
    await page.waitForFunction(() => {
      const v = window.junqi.current;
      const q = v.queue;
      const idle = !q || (!q.busy && q.length === 0);
      return v.s.status === 'over' || (idle && document.querySelector('.status-line.mine'));
    }, null, { timeout: 30000 });
    const st = await state();
    if (st.status === 'over') break;
    const acts = parseLsaActions(st.legal);
    const look = looked ? null : acts.find((x) => x.look);
    const act = look || acts[Math.floor(Math.random() * acts.length)];
    const before = await page.locator('#log li').count();
    await clickSquare(act.from);
    const target = act.look ? `[data-look="${act.at}"]` : `[data-target="${act.to}"]`;
    await page.waitForSelector(target);
    await clickSquare(act.look ? act.at : act.to);
    await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n || window.junqi.current.s.status === 'over', before, { timeout: 10000 });
    if (act.look) looked = act;
    moves += 1;
  }
  const log = () => page.locator('#log li').allTextContents();
  if (looked) {
    await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((l) => /侦察/.test(l.textContent)));
    const lines = await log();
    assert.ok(lines.some((l) => l.includes(`南：${looked.from} 侦察 ${looked.at}`)), lines.join(' | '));
    // What the look saw is said to its player (or the plane fell to an anti-aircraft gun).
    assert.ok(lines.some((l) => l.includes(`侦察：${looked.at} 是 `) || l.includes('侦察机被击落')), lines.join(' | '));
  }
  await page.screenshot({ path: path.join(ARTIFACTS, 'lsa-game-play.png') });
  // The enemy's fallen, known only by arm, are drawn in its colour, readable on the panel.
  const armChips = await page.$$eval('#dead .chip.by-arm', (els) => els.map((e) => [e.textContent, getComputedStyle(e).color]));
  for (const [text, colour] of armChips) {
    assert.match(text, /×\d+/);
    assert.notEqual(colour, 'rgb(255, 255, 255)', `${text} is readable`);
  }
  if ((await state()).status !== 'over') {
    // Past the resignation window: the game is ended by resigning, through the button.
    await page.click('#btn-resign');
  }
  await page.waitForSelector('#outcome', { timeout: 30000 });
  const outcome = await page.locator('#outcome').textContent();
  assert.match(outcome, /赢|输|和/, outcome);
  // The game-over view is the referee's: every piece shown, no arm-only tile left.
  await page.waitForFunction(() => document.querySelectorAll('#board .piece.hidden').length === 0);
  const shown = await page.locator('#board .piece').count();
  assert.ok(shown > 0 && shown === (await page.locator('#board .piece .tile-label').count()), `${shown} pieces, each with its role`);
  assert.equal(await page.locator('#link-replay').count(), 1);
  assert.equal(await page.locator('#dead .seat-dead').count(), 2);
  assert.ok(moves > 0, 'moves were made by clicking');
  await page.screenshot({ path: path.join(ARTIFACTS, 'lsa-game-over.png') });

  // The replay: the land-sea-air board from its start, every piece named, stepped to the end.
  await page.click('#link-replay');
  await page.waitForSelector('#replay-steps li[data-i="1"]');
  assert.equal(await page.locator('svg.board-land_sea_air').count(), 1);
  assert.equal(await page.locator('#board .piece').count(), 82, 'both sides at the start');
  assert.equal(await page.locator('#board .piece .tile-label').count(), 82, 'every piece named');
  const steps = await page.locator('#replay-steps li').count();
  assert.ok(steps > moves, `${steps} steps for ${moves} moves of ours`);
  assert.match(await page.locator('#replay-steps li[data-i="1"]').textContent(), /^1\. (南|北)：/);
  await page.click('#replay-last');
  assert.equal(await page.locator('#board .piece').count(), shown, 'the last step is the end of the game');
  assert.equal(await page.locator('#dead .seat-dead').count(), 2);
  await page.click('#replay-prev');
  assert.match(await page.locator('#replay-counter').textContent(), new RegExp(`${steps - 2}`));
  await page.screenshot({ path: path.join(ARTIFACTS, 'lsa-replay.png') });
  assert.deepEqual(errors, []);
});
