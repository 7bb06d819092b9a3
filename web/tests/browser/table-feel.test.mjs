// The table's feel (issue 12), in real headless Chromium against the real server, on a desktop
// (1280×800) and on a phone (390×844, touch): the header and the language switch out of the way
// of the board, a readable zoomed four-player board, moves drawn one at a time with the attack's
// result in view, coordinates and log highlights, the leave warning, the small defects (skip
// labels, bot names, 队友, the stray null, the last layout, error toasts, the log's language),
// 标记 marks, the enemy tally, sounds with a remembered mute, 步数/用时 and the last five moves.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../lib/server.mjs';
import { launchScreen } from '../lib/browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '../artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

let server;
// Eighteen tests at two sizes start more games a minute than one address may by default (20):
// the limit is not what these tests are about (codes.test.mjs tests it).
before(async () => { server = await startServer(['--tables-per-minute', '600']); });
after(async () => { if (server) await server.stop(); });

/** A page on `screen` with sounds recorded in window.__sounds and dialogs recorded. */
async function open(screen, options = {}) {
  const b = await launchScreen(screen, options);
  const page = await b.context.newPage();
  const errors = [];
  const dialogs = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => { dialogs.push({ type: d.type(), message: d.message() }); (page.acceptDialogs ? d.accept() : d.dismiss()).catch(() => {}); });
  await page.addInitScript(() => {
    window.__sounds = [];
    window.addEventListener('junqi:sound', (e) => window.__sounds.push(e.detail));
  });
  // Reloads during a game ask first (beforeunload): accepted unless a test says otherwise.
  page.acceptDialogs = true;
  const tap = async (sq) => {
    await page.locator(`.hits [data-sq="${sq}"]`).scrollIntoViewIfNeeded();
    const r = await page.locator(`.hits [data-sq="${sq}"]`).boundingBox();
    assert.ok(r, `no square ${sq}`);
    const x = r.x + r.width / 2;
    const y = r.y + r.height / 2;
    if (screen === 'phone') await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
  };
  return { ...b, page, errors, dialogs, tap, screen };
}

/** Start a game against the computer (no resignation window) and deploy; returns the table id. */
async function startGame(page, body = { board: 'two_player' }, { deploy = true } = {}) {
  await page.goto(server.url + '/');
  await page.waitForSelector('#play-computer-2');
  const id = await page.evaluate(async (b) => {
    const r = await window.junqi.api('POST', '/api/play-computer', { resign_after_seconds: 0, ...b });
    window.junqi.saveSeatToken(r.table.id, r.token);
    location.hash = `#/table/${r.table.id}`;
    return r.table.id;
  }, body);
  await page.waitForSelector('#btn-submit:not([disabled])', { timeout: 30000 });
  if (deploy) {
    await page.click('#btn-submit');
    await page.waitForSelector('#status[data-status="playing"].mine', { timeout: 30000 });
  }
  return id;
}

/** Sample the board every animation frame into window.__frames: [t, lastMove, result, badge, anim]. */
async function recordBoard(page) {
  await page.evaluate(() => {
    window.__frames = [];
    const t0 = performance.now();
    const step = () => {
      const svg = document.querySelector('svg.board');
      if (svg) window.__frames.push([performance.now() - t0, svg.dataset.lastMove || '', svg.dataset.lastResult || '', !!svg.querySelector('.badge'), svg.dataset.anim || '']);
      if (window.__frames.length < 4000) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
}

for (const screen of ['desktop', 'phone']) {
  describe(`on a ${screen}`, () => {
    test('the header never covers the board, and a language switch mid-game keeps everything', async () => {
      const b = await open(screen);
      const { page, tap } = b;
      try {
        await startGame(page, { board: 'two_player' }, { deploy: false });
        // Deployment in progress: a swap survives the switch.
        const roleAt = (sq) => page.locator(`.piece[data-at="${sq}"]`).getAttribute('data-role');
        const [r4a, r4e] = [await roleAt('a4'), await roleAt('e4')];
        await tap('a4');
        await tap('e4');
        assert.equal(await roleAt('a4'), r4e);
        await page.click('#lang-toggle');
        await page.waitForFunction(() => document.documentElement.lang === 'en');
        assert.equal(await roleAt('a4'), r4e, 'the swap is kept');
        assert.equal(await roleAt('e4'), r4a);
        assert.match(await page.locator('#deploy h3').textContent(), /Deploy/i);
        await page.click('#lang-toggle');
        await page.click('#btn-submit');
        await page.waitForSelector('#status[data-status="playing"].mine', { timeout: 30000 });

        // Scrolled so that the board's top reaches the window's top: the top row is the board's,
        // not the header's (a tap there hit the language button).
        await page.evaluate(() => window.scrollTo(0, document.querySelector('svg.board').getBoundingClientRect().top + window.scrollY));
        const top = await page.locator('.hits [data-sq="a12"]').boundingBox();
        const hit = await page.evaluate(([x, y]) => {
          const e = document.elementFromPoint(x, y);
          return e?.closest('svg.board') ? 'board' : e?.closest('header') ? 'header' : e?.tagName;
        }, [top.x + top.width / 2, Math.max(1, top.y + top.height / 2)]);
        assert.equal(hit, 'board', 'the top row of the board can be tapped');
        const header = await page.locator('header.top').boundingBox();
        const board = await page.locator('svg.board').boundingBox();
        assert.ok(header.y + header.height <= board.y + 1, 'the header does not overlap the board');

        // A move in the log, a piece selected: the switch keeps the selection and says the log
        // again in English.
        await tap('a6');
        await tap('a7');
        await page.waitForFunction(() => window.junqi.current.s.log.length >= 2 && document.querySelector('.status-line.mine'), null, { timeout: 15000 });
        const legal = await page.evaluate(() => window.junqi.current.s.observation.legal_actions);
        const from = legal[0].split('-')[0];
        await tap(from);
        assert.equal(await page.locator(`.piece.selected[data-at="${from}"]`).count(), 1);
        const targets = await page.locator('[data-target]').count();
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.click('#lang-toggle');
        assert.equal(await page.locator(`.piece.selected[data-at="${from}"]`).count(), 1, 'the selection is kept');
        assert.equal(await page.locator('[data-target]').count(), targets);
        const log = await page.locator('#log li').allTextContents();
        assert.ok(log.every((l) => !/[南北攻击胜]/.test(l)), `the log is in English: ${log.join(' | ')}`);
        assert.match(log.join(' '), /South: a6 attacks a7/);
        // And the move still goes.
        const to = legal[0].split('-')[1];
        await tap(to);
        await page.waitForFunction((n) => window.junqi.current.s.log.length > n, log.length, { timeout: 10000 });
        await page.click('#lang-toggle');
        assert.deepEqual(b.errors, []);
      } finally {
        await b.close();
      }
    });

    test('the four-player board: pieces of 32 px and more, a tap selects, zoom buttons', async () => {
      const b = await open(screen);
      const { page, tap } = b;
      try {
        await startGame(page, { board: 'four_player' });
        const boxes = await page.$$eval('.piece[data-seat="0"] .tile', (els) => els.map((e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; }));
        assert.equal(boxes.length, 25);
        // A phone opens zoomed with pieces of 32 px and more; a desktop shows the whole board
        // (its height fits the window) with pieces about 32 × 26 px.
        const min = screen === 'phone' ? 32 : 24;
        const small = boxes.filter(([w, hgt]) => w < min || hgt < min);
        assert.deepEqual(small, [], `own pieces at least ${min} px: ${JSON.stringify(boxes[0])}`);
        if (screen === 'phone') assert.ok(Number(await page.getAttribute('#board', 'data-zoom')) > 1, 'zoomed on a phone');
        else assert.equal(await page.getAttribute('#board', 'data-zoom'), '1', 'the whole board on a desktop');
        // The own arm is in view (the zoomed board opens on it).
        const inView = await page.evaluate(() => {
          const wrap = document.getElementById('board').getBoundingClientRect();
          return [...document.querySelectorAll('.piece[data-seat="0"]')].filter((p) => {
            const r = p.getBoundingClientRect();
            return r.left >= wrap.left - 1 && r.right <= wrap.right + 1 && r.top >= wrap.top - 1 && r.bottom <= wrap.bottom + 1;
          }).length;
        });
        assert.ok(inView >= 15, `own pieces in view: ${inView}`);
        const legal = await page.evaluate(() => window.junqi.current.s.observation.legal_actions);
        const from = legal[0].split('-')[0];
        await page.locator(`.hits [data-sq="${from}"]`).scrollIntoViewIfNeeded();
        await tap(from);
        assert.equal(await page.locator(`.piece.selected[data-at="${from}"]`).count(), 1, 'a tap selects the piece');
        assert.ok(await page.locator('[data-target]').count() > 0);
        // Coordinates name all 129 squares as the log does.
        await page.click('#btn-coords');
        assert.equal(await page.locator('.coord').count(), 129);
        assert.equal(await page.locator('.coord[data-coord="p11"]').count(), 1);
        await page.click('#btn-coords');
        // Zoom in and back to the whole board.
        const z0 = Number(await page.getAttribute('#board', 'data-zoom'));
        await page.click('#zoom-in');
        assert.ok(Number(await page.getAttribute('#board', 'data-zoom')) > z0);
        await page.click('#zoom-fit');
        assert.equal(await page.getAttribute('#board', 'data-zoom'), '1');
        const w = await page.locator('svg.board').evaluate((e) => e.getBoundingClientRect().width);
        assert.ok(w <= (screen === 'phone' ? 390 : 1280), `the whole board fits: ${w}`);
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scroll');
        await page.screenshot({ path: path.join(ARTIFACTS, `four-${screen}.png`) });
        assert.deepEqual(b.errors, []);
      } finally {
        await b.close();
      }
    });

    test("after the person's attack the result badge stays in view before the computer's move is drawn", async () => {
      const b = await open(screen);
      const { page, tap } = b;
      try {
        await startGame(page);
        await recordBoard(page);
        // a6 attacks a7 at once: the front rows face each other on file a.
        await tap('a6');
        await tap('a7');
        await page.waitForFunction(() => window.junqi.current.s.log.length >= 2 && document.querySelector('#status.mine'), null, { timeout: 15000 });
        await page.waitForTimeout(200);
        const frames = await page.evaluate(() => window.__frames);
        assert.ok(frames.some((f) => f[1] === 'a6-a7' && f[4] === 'glide'), 'the attacker glides');
        const badge = frames.filter((f) => f[1] === 'a6-a7' && f[3]);
        assert.ok(badge.length, 'the badge of the attack is drawn');
        const shown = badge[badge.length - 1][0] - badge[0][0];
        assert.ok(shown >= 800, `the badge stays about a second (${Math.round(shown)} ms)`);
        const firstBot = frames.findIndex((f) => f[1] && f[1] !== 'a6-a7');
        assert.ok(firstBot === -1 || frames[firstBot][0] > badge[badge.length - 1][0], "the computer's move comes after the badge");
        // Sounds: the attack, then the turn coming back.
        const sounds = await page.evaluate(() => window.__sounds.map((x) => x.name));
        assert.equal(sounds[0], 'attack');
        assert.ok(sounds.includes('turn'), sounds.join(','));
        assert.equal(await page.getAttribute('html', 'data-last-sound'), 'turn');
        await page.screenshot({ path: path.join(ARTIFACTS, `attack-${screen}.png`) });
      } finally {
        await b.close();
      }
    });

    test('reduced motion: no glide; a reload draws the history at once', async () => {
      const b = await open(screen, { reducedMotion: 'reduce' });
      const { page, tap } = b;
      try {
        await startGame(page);
        await recordBoard(page);
        await tap('a6');
        await tap('a7');
        await page.waitForFunction(() => window.junqi.current.s.log.length >= 2 && document.querySelector('#status.mine'), null, { timeout: 15000 });
        const frames = await page.evaluate(() => window.__frames);
        assert.ok(!frames.some((f) => f[4] === 'glide'), 'no glide under reduced motion');
        await page.reload();
        await page.waitForSelector('.status-line.mine', { timeout: 15000 });
        await recordBoard(page);
        await page.waitForTimeout(300);
        const again = await page.evaluate(() => window.__frames);
        assert.ok(!again.some((f) => f[4] === 'glide'), 'history is not animated');
        assert.equal(await page.getAttribute('svg.board', 'data-anim'), null);
      } finally {
        await b.close();
      }
    });

    test('coordinates (remembered) and log lines that highlight their squares', async () => {
      const b = await open(screen);
      const { page, tap } = b;
      try {
        await startGame(page);
        assert.equal(await page.locator('.coord').count(), 0);
        await page.click('#btn-coords');
        assert.equal(await page.locator('.coord').count(), 60);
        assert.equal(await page.locator('.coord[data-coord="a6"]').textContent(), 'a6');
        await tap('a6');
        await tap('a7');
        await page.waitForFunction(() => window.junqi.current.s.log.length >= 2 && document.querySelector('#status.mine'), null, { timeout: 15000 });
        await page.reload();
        await page.waitForSelector('.status-line.mine');
        assert.equal(await page.locator('.coord').count(), 60, 'coordinates are remembered');
        const li = page.locator('#log li[data-squares="a6 a7"]').first();
        if (screen === 'phone') await li.tap(); else await li.hover();
        assert.deepEqual(await page.$$eval('.hl', (els) => els.map((e) => e.dataset.hl).sort()), ['a6', 'a7']);
        // The last five moves, newest first, with the same highlight; 步数 and 用时.
        const recent = await page.locator('#recent-moves li').count();
        assert.ok(recent >= 1 && recent <= 5);
        assert.equal(await page.getAttribute('#plies', 'data-plies'), String(await page.evaluate(() => window.junqi.current.s.observation.plies)));
        assert.match(await page.locator('#game-time').textContent(), /用时 \d+:\d\d/);
        const rli = page.locator('#recent-moves li').first();
        if (screen === 'phone') await rli.tap(); else { await page.mouse.move(0, 0); await rli.hover(); }
        assert.ok((await page.locator('.hl').count()) >= 1);
        await page.click('#btn-coords');
        assert.equal(await page.locator('.coord').count(), 0);
      } finally {
        await b.close();
      }
    });

    test('leaving a game in progress asks first (in-app and on unload)', async () => {
      const b = await open(screen);
      const { page } = b;
      try {
        const id = await startGame(page);
        page.acceptDialogs = false;
        await page.click('#title');
        await page.waitForTimeout(300);
        assert.equal(b.dialogs.length, 1);
        assert.equal(b.dialogs[0].type, 'confirm');
        assert.match(b.dialogs[0].message, /60 秒内不回来.*逃跑|分钟内回来/);
        assert.match(page.url(), new RegExp(`#/table/${id}`), 'refused: still at the table');
        assert.equal(await page.locator('svg.board').count(), 1);
        const prevented = await page.evaluate(() => {
          const e = new Event('beforeunload', { cancelable: true });
          window.dispatchEvent(e);
          return e.defaultPrevented;
        });
        assert.equal(prevented, true, 'beforeunload asks too');
        // A server that pauses games against the computer says how long in the welcome frame
        // (away_limit_ms): the warning says so.
        await page.evaluate(() => { window.junqi.current.s.awayLimitMs = 30 * 60000; });
        await page.click('#title');
        await page.waitForTimeout(300);
        assert.match(b.dialogs[1].message, /离开后对局暂停，30 分钟内回来可以继续/);
        page.acceptDialogs = true;
        await page.click('#title');
        await page.waitForSelector('#play-computer-2');
      } finally {
        await b.close();
      }
    });

    test('small defects: skip labels, bot names, no stray null, last layout, error toast', async () => {
      const b = await open(screen);
      const { page, tap } = b;
      try {
        await startGame(page, { board: 'two_player' }, { deploy: false });
        const deployText = await page.locator('#deploy').innerText();
        assert.doesNotMatch(deployText, /null/);
        // Swap two pieces and submit: the next game on this board starts from this layout.
        await tap('a4');
        await tap('e4');
        const layout = await page.inputValue('#layout-text');
        await page.click('#btn-submit');
        await page.waitForSelector('#status[data-status="playing"].mine', { timeout: 30000 });
        // No move clock: no 超时 0/5.
        assert.equal(await page.locator('.tag.timeouts').count(), 0);
        assert.doesNotMatch(await page.locator('#seats').innerText(), /超时/);
        // The computer's name is the seat panel's everywhere, never its id.
        await tap('a6');
        await tap('a7');
        await page.waitForFunction(() => /电脑/.test(document.getElementById('status').textContent), null, { timeout: 5000 });
        const status = await page.locator('#status').textContent();
        assert.match(status, /^轮到 北（电脑 · .+）\s?走棋$/);
        assert.doesNotMatch(status, /bot:/);
        await page.waitForSelector('.status-line.mine', { timeout: 15000 });
        // A refusal is a toast over the page: the board does not move; the next action clears it.
        const y0 = (await page.locator('svg.board').boundingBox()).y;
        await page.evaluate(() => window.junqi.current.sock.send({ type: 'act', action: 'a1-a12' }));
        await page.waitForSelector('#message .notice.error');
        assert.equal((await page.locator('svg.board').boundingBox()).y, y0, 'the board stays put');
        assert.equal(await page.locator('#message').evaluate((e) => getComputedStyle(e).position), 'fixed');
        const through = await page.evaluate(() => {
          const r = document.querySelector('#message .notice').getBoundingClientRect();
          return !document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('#message');
        });
        assert.ok(through, 'a tap on the toast reaches what is under it');
        const legal = await page.evaluate(() => window.junqi.current.s.observation.legal_actions);
        await page.evaluate((a) => window.junqi.current.sock.send({ type: 'act', action: a }), legal[0]);
        await page.waitForFunction(() => !document.querySelector('#message .notice'), null, { timeout: 5000 });
        // The next game: the last layout is set up, and said so.
        await startGame(page, { board: 'two_player' }, { deploy: false });
        assert.equal(await page.inputValue('#layout-text'), layout);
        await page.waitForSelector('#deploy-last');
        // A table with a move clock shows the timeouts (none yet).
        await page.goto(server.url + '/#/');
        await page.evaluate(async () => {
          const r = await window.junqi.api('POST', '/api/tables', { board: 'two_player', mode: 'dark', move_seconds: 60, seat: 0, bots: [{ seat: 1, bot: 'random' }] });
          window.junqi.saveSeatToken(r.table.id, r.token);
          location.hash = `#/table/${r.table.id}`;
        });
        await page.waitForSelector('#btn-start:not([disabled])');
        await page.click('#btn-start');
        await page.waitForSelector('#btn-submit:not([disabled])');
        await page.click('#btn-submit');
        await page.waitForSelector('#status[data-status="playing"].mine', { timeout: 30000 });
        assert.equal(await page.locator('.seat-row[data-seat="0"] .tag.timeouts').textContent(), '超时 0');
        assert.deepEqual(b.errors, []);
      } finally {
        await b.close();
      }
    });

    test('four players: 队友 on the partner; 标记 on a hidden piece kept over a reload; the tally', async () => {
      const b = await open(screen);
      const { page, tap } = b;
      try {
        await startGame(page, { board: 'four_player' });
        assert.equal(await page.locator('.seat-row[data-seat="2"] .tag.partner').textContent(), '队友');
        assert.equal(await page.locator('.tag.partner').count(), 1);
        // Mark a hidden piece of East (seat 1): right click on a desktop, 标记 mode and a tap on a phone.
        const sq = await page.evaluate(() => window.junqi.current.s.observation.pieces.find((p) => p.seat === 1).at);
        await page.locator(`.hits [data-sq="${sq}"]`).scrollIntoViewIfNeeded();
        const r = await page.locator(`.hits [data-sq="${sq}"]`).boundingBox();
        if (screen === 'phone') {
          await page.click('#btn-mark');
          await tap(sq);
        } else {
          await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2, { button: 'right' });
        }
        await page.waitForSelector('#mark-menu');
        await page.click('#mark-menu [data-guess="bomb"]');
        assert.equal(await page.locator(`.piece[data-at="${sq}"] .guess`).textContent(), '炸弹?');
        await page.reload();
        await page.waitForSelector('.status-line.mine', { timeout: 15000 });
        assert.equal(await page.locator(`.piece[data-at="${sq}"] .guess`).getAttribute('data-guess'), 'bomb', 'the mark is kept');
        // A long press (phone) or a right click (desktop) on another hidden piece opens the menu;
        // Escape closes it without a mark.
        const sq2 = await page.evaluate((first) => window.junqi.current.s.observation.pieces.find((p) => p.seat === 3 && p.at !== first).at, sq);
        const loc2 = page.locator(`.hits [data-sq="${sq2}"]`);
        await loc2.scrollIntoViewIfNeeded();
        const r2 = await loc2.boundingBox();
        const [x2, y2] = [r2.x + r2.width / 2, r2.y + r2.height / 2];
        if (screen === 'phone') {
          const cdp = await page.context().newCDPSession(page);
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x2, y: y2 }] });
          await page.waitForTimeout(700);
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        } else {
          await page.mouse.click(x2, y2, { button: 'right' });
        }
        await page.waitForSelector(`#mark-menu[data-sq="${sq2}"]`);
        await page.keyboard.press('Escape');
        assert.equal(await page.locator('#mark-menu').count(), 0);
        assert.equal(await page.locator(`.piece[data-at="${sq2}"] .guess`).count(), 0);
        // The tally: the three other seats but not the partner, twelve roles each, a full set.
        assert.deepEqual(await page.$$eval('#tally .tally-seat', (els) => els.map((e) => e.dataset.seat)), ['1', '3']);
        const left = await page.$$eval('#tally .tally-seat[data-seat="1"] .tally-role', (els) => els.map((e) => Number(e.dataset.left)));
        assert.equal(left.length, 12);
        assert.ok(left.reduce((a, x) => a + x, 0) <= 25);
        assert.equal(await page.getAttribute('#tally .tally-seat[data-seat="1"] [data-role="marshal"]', 'data-left'), '1');
        await page.screenshot({ path: path.join(ARTIFACTS, `mark-${screen}.png`) });
        assert.deepEqual(b.errors, []);
      } finally {
        await b.close();
      }
    });

    test('sounds are announced, and mute is remembered over a reload', async () => {
      const b = await open(screen);
      const { page, tap } = b;
      try {
        await startGame(page);
        await page.click('#btn-sound');
        assert.equal(await page.getAttribute('#btn-sound', 'aria-pressed'), 'false');
        await page.reload();
        await page.waitForSelector('.status-line.mine');
        assert.equal(await page.getAttribute('#btn-sound', 'aria-pressed'), 'false', 'muted after the reload');
        assert.match(await page.locator('#btn-sound').textContent(), /静音/);
        await tap('c6');
        const legal = await page.evaluate(() => window.junqi.current.s.observation.legal_actions);
        const a = legal.find((x) => x.startsWith('c6-')) || legal[0];
        await page.evaluate((x) => window.junqi.current.act(x), a);
        await page.waitForFunction(() => window.__sounds.length >= 2, null, { timeout: 15000 });
        const sounds = await page.evaluate(() => window.__sounds);
        assert.ok(sounds.every((x) => x.muted === true), 'announced, muted');
        assert.ok(['move', 'attack'].includes(sounds[0].name));
        await page.click('#btn-sound');
        await page.reload();
        await page.waitForSelector('.status-line.mine');
        assert.equal(await page.getAttribute('#btn-sound', 'aria-pressed'), 'true');
        // The clock's last ten seconds: a table with an 11-second move clock warns at once.
        await page.goto(server.url + '/#/');
        await page.evaluate(async () => {
          const r = await window.junqi.api('POST', '/api/tables', { board: 'two_player', mode: 'dark', move_seconds: 11, seat: 0, bots: [{ seat: 1, bot: 'random' }] });
          window.junqi.saveSeatToken(r.table.id, r.token);
          location.hash = `#/table/${r.table.id}`;
        });
        await page.waitForSelector('#btn-start:not([disabled])');
        await page.click('#btn-start');
        await page.waitForSelector('#btn-submit:not([disabled])');
        await page.click('#btn-submit');
        await page.waitForSelector('#status[data-status="playing"].mine', { timeout: 30000 });
        await page.waitForFunction(() => window.__sounds.some((x) => x.name === 'clock' && x.muted === false), null, { timeout: 8000 });
      } finally {
        await b.close();
      }
    });
  });
}
