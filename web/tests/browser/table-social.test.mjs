// Browser tests of the social side of a table in real headless Chromium against the real server,
// at desktop (1280×800) and phone (390×844) sizes: chat and quick phrases between two people in
// two browsers (with a mute that is remembered), 再来一局 between people (colours swapped) and
// against the computer, 换对手, chat hidden against the computer, and paced computer replies (a
// server started with a delay: the bot's reply shows after the person's own move).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { helpers } from '../lib/page.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '../artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

const SIZES = [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]];

let server;
const browsers = [];
const errors = [];

before(async () => {
  // Many games a minute from one address: the creation limit is tested elsewhere (codes.test.mjs).
  server = await startServer(['--tables-per-minute', '600']);
});

after(async () => {
  for (const b of browsers) await b.close();
  if (server) await server.stop();
});

/** A page in a browser of its own (its own localStorage: its own guest and seat tokens). */
async function newPage(size) {
  const b = await launch();
  browsers.push(b);
  const p = await b.context.newPage();
  await p.setViewportSize(size);
  p.on('pageerror', (e) => errors.push(e.message));
  p.on('dialog', (d) => d.accept());
  return p;
}

/** Create a game on `p` through the client's own API helper and go to its table. */
async function create(p, url, path_, body) {
  await p.goto(url + '/');
  // The page's own guest session first, so that the table is this page's person's.
  await p.waitForSelector('#me-link');
  const id = await p.evaluate(async ([pth, b]) => {
    const r = await window.junqi.api('POST', pth, b);
    window.junqi.saveSeatToken(r.table.id, r.token);
    location.hash = `#/table/${r.table.id}`;
    return r.table.id;
  }, [path_, body]);
  await p.waitForURL(new RegExp(`#/table/${id}`));
  return id;
}

const tableId = (p) => p.evaluate(() => window.junqi.current.id);
const mySeat = (p) => p.evaluate(() => window.junqi.current.s.seat);
const noOverflow = (p) => p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

async function deployBoth(pages) {
  for (const p of pages) await helpers(p).deploy();
  for (const p of pages) await p.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });
}

async function resign(p) {
  await p.waitForSelector('#btn-resign');
  await p.click('#btn-resign');
  await p.waitForSelector('#outcome', { timeout: 15000 });
}

for (const [label, size] of SIZES) {
  test(`${label}: two people chat (quick phrases, mute remembered), rematch with colours swapped, 换对手`, async () => {
    const host = await newPage(size);
    const guest = await newPage(size);
    const id = await create(host, server.url, '/api/tables', { board: 'two_player', move_seconds: 0, resign_after_seconds: 0 });
    await guest.goto(`${server.url}/#/table/${id}`);
    await guest.click('.seat-row[data-seat="1"] button');
    await host.waitForSelector('#btn-start:not([disabled])');
    await host.click('#btn-start');
    await deployBoth([host, guest]);

    // Chat is on between people: free text one way, a quick phrase the other.
    for (const p of [host, guest]) await p.waitForSelector('#chat:not([hidden]) #chat-input');
    await host.fill('#chat-input', '你好，朋友');
    await host.press('#chat-input', 'Enter');
    await guest.waitForFunction(() => [...document.querySelectorAll('#chat-log li')].some((l) => /你好，朋友/.test(l.textContent)));
    await guest.click('#chat-phrases [data-phrase="good_move"]');
    await host.waitForSelector('#chat-log li[data-seat="1"] [data-phrase="good_move"]');
    assert.match(await host.locator('#chat-log li[data-seat="1"]').first().textContent(), /好棋/);
    assert.equal(await host.locator('#chat-input').inputValue(), '', 'the field is cleared after sending');
    assert.ok(await noOverflow(guest), 'the chat box fits the screen');
    // The screenshot of docs/client.md (desktop) and one for a phone, in web/tests/artifacts.
    await host.locator('#chat').screenshot({ path: path.join(ARTIFACTS, `social-chat-${label}.png`) }).catch(() => {});

    // The host mutes the guest: the guest's messages are hidden, and stay hidden after a reload.
    await host.click('#chat-mutes [data-mute]');
    await host.waitForSelector('#chat-mutes [aria-pressed="true"]');
    assert.equal(await host.locator('#chat-log li[data-seat="1"]').count(), 0);
    await guest.click('#chat-phrases [data-phrase="thanks"]');
    await host.waitForSelector('#chat-muted-count:not([hidden])');
    assert.equal(await host.locator('#chat-log [data-phrase="thanks"]').count(), 0);
    await host.reload();
    await host.waitForSelector('#chat-log li[data-seat="0"]');
    assert.equal(await host.locator('#chat-log li[data-seat="1"]').count(), 0, 'muted after a reload (history)');
    await host.click('#chat-mutes [data-mute]');
    await host.waitForSelector('#chat-log li[data-seat="1"] [data-phrase="thanks"]');

    // Game over, then 再来一局: the guest asks, the host accepts; both go to the new table.
    await resign(host);
    await guest.waitForSelector('#outcome');
    await guest.click('#btn-rematch');
    await guest.waitForSelector('#rematch-waiting');
    await host.waitForSelector('#rematch-offer');
    assert.match(await host.locator('#btn-rematch').textContent(), /同意再来一局/);
    await host.locator('#controls').screenshot({ path: path.join(ARTIFACTS, `social-rematch-${label}.png`) }).catch(() => {});
    await host.click('#btn-rematch');
    for (const p of [host, guest]) await p.waitForFunction((old) => window.junqi.current?.id !== old && window.junqi.current?.s.status === 'deploying', id);
    const id2 = await tableId(host);
    assert.equal(await tableId(guest), id2);
    assert.deepEqual([await mySeat(host), await mySeat(guest)], [1, 0], 'colours swapped');
    await deployBoth([host, guest]);
    // The first mover is seat 0: the guest this time.
    await guest.waitForSelector('.status-line.mine');

    // 换对手 between people: a new open table of the same settings, waiting for an opponent.
    await resign(guest);
    await host.waitForSelector('#outcome');
    await host.click('#btn-new-opponent');
    await host.waitForFunction((old) => window.junqi.current?.id !== old && window.junqi.current?.s.status === 'waiting', id2);
    const t = await host.evaluate(() => window.junqi.current.s.table);
    assert.equal(t.board, 'two_player');
    assert.equal(t.move_seconds, 0);
    assert.equal(t.resign_after_seconds, 0);
    assert.equal(t.seats[1].kind, 'empty');
    await host.screenshot({ path: path.join(ARTIFACTS, `social-people-${label}.png`) }).catch(() => {});
    assert.deepEqual(errors, []);
  });

  test(`${label}: against the computer: no chat, rematch (colours swapped), 换对手`, async () => {
    const p = await newPage(size);
    const id = await create(p, server.url, '/api/play-computer', { board: 'two_player', resign_after_seconds: 0, bot: 'random' });
    await helpers(p).deploy();
    await p.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });
    assert.equal(await p.locator('#chat').isHidden(), true, 'no chat against the computer');
    await resign(p);
    await p.click('#btn-rematch');
    await p.waitForFunction((old) => window.junqi.current?.id !== old && window.junqi.current?.s.seat === 1, id);
    const id2 = await tableId(p);
    await helpers(p).deploy();
    await p.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });
    const seats = await p.evaluate(() => window.junqi.current.s.table.seats.map((x) => x.name));
    assert.equal(seats[0], 'bot:random', 'the computer has the other colour now');
    assert.equal(await p.locator('#chat').isHidden(), true);
    await resign(p);
    await p.click('#btn-new-opponent');
    await p.waitForFunction((old) => window.junqi.current?.id !== old && window.junqi.current?.s.status === 'deploying', id2);
    const t = await p.evaluate(() => window.junqi.current.s.table);
    assert.equal(t.board, 'two_player');
    assert.equal(t.resign_after_seconds, 0);
    assert.ok(t.seats.some((x) => x.name === 'bot:random'), 'the same strength');
    assert.ok(await noOverflow(p));
    assert.deepEqual(errors, []);
  });
}

test('away from a game against the computer: a spectator sees 已暂停 until the player is back', async () => {
  const p = await newPage(SIZES[0][1]);
  const id = await create(p, server.url, '/api/play-computer', { board: 'two_player', move_seconds: 30 });
  await helpers(p).deploy();
  await p.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });
  const watcher = await newPage(SIZES[1][1]);
  await watcher.goto(`${server.url}/#/table/${id}`);
  await watcher.waitForSelector('#spectating');
  assert.equal(await watcher.locator('#paused-notice').count(), 0);
  // The player goes to the lobby (their page closes its connection): the game pauses.
  await p.goto(`${server.url}/#/`);
  await watcher.waitForSelector('#paused-notice');
  assert.match(await watcher.locator('#paused-notice').textContent(), /对局已暂停.*30 分钟/);
  await p.goto(`${server.url}/#/table/${id}`);
  await watcher.waitForSelector('#paused', { state: 'hidden' });
  assert.deepEqual(errors, []);
});

test('paced computer replies: the bot answers a delay after the person’s own move is shown', async () => {
  const paced = await startServer(['--bot-delay-ms', '1500']);
  try {
    for (const [label, size] of SIZES) {
      const p = await newPage(size);
      await create(p, paced.url, '/api/play-computer', { board: 'two_player', resign_after_seconds: 0 });
      await helpers(p).deploy();
      await p.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });
      // Record when each log line appears.
      await p.evaluate(() => {
        window.__logTimes = [];
        new MutationObserver(() => {
          const n = document.querySelectorAll('#log li').length;
          while (window.__logTimes.length < n) window.__logTimes.push(performance.now());
        }).observe(document.querySelector('#log'), { childList: true });
        window.__logTimes.length = document.querySelectorAll('#log li').length;
        window.__logTimes.fill(0);
      });
      const before = await p.locator('#log li').count();
      const moved = await helpers(p).playOneMove(0);
      // Right after the own move: its line is there, the bot's is not.
      const lines = await p.$$eval('#log li', (els) => els.map((e) => e.textContent));
      assert.ok(lines.slice(before).some((l) => l.includes(moved.from) && l.includes(moved.to)), `${label}: own move shown: ${lines.slice(before)}`);
      assert.equal(await p.locator('.status-line.mine').count(), 0, 'not the person’s turn yet');
      await p.waitForSelector('.status-line.mine', { timeout: 15000 });
      const times = await p.evaluate(() => window.__logTimes);
      const own = times[before];
      const reply = times[times.length - 1];
      assert.ok(reply - own >= 1000, `${label}: the reply came ${Math.round(reply - own)} ms after the own move`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await paced.stop();
  }
});
