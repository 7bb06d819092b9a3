// Browser tests of accounts and ratings in real headless Chromium against the real server:
// register, log out (the session ends), a wrong password (the server's error in words, in both
// languages), log in; a guest who registers keeps its games;
// a game against the computer finished by resignation, then seen on the player page with a
// rating and a link to its replay; a draw offered to the computer (bots always decline); and a
// draw between two people at one table (two browsers): offered and declined, then offered and
// accepted; links to player pages from table seats and the lobby.
//
// The game against the computer asks for no resignation window (`resign_after_seconds: 0`); with
// a server that ignores it the 90 s of RULES §10 run while the draw test plays at another table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { helpers } from '../lib/page.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '../artifacts');

let server;
const browsers = [];
const errors = [];
let page; // Alice: registers, plays the computer, resigns
let info;
const NAME = `alice_${Date.now() % 100000}`;
const PASSWORD = 'correct horse 1';

/** Fill the registration form on `p` with `name` and the shared password, and submit it. */
async function submitRegistration(p, name) {
  await p.fill('#register-form [name=name]', name);
  await p.fill('#register-form [name=password]', PASSWORD);
  await p.fill('#register-form [name=password2]', PASSWORD);
  await p.click('#register-submit');
}

async function newPage() {
  const b = await launch();
  browsers.push(b);
  const p = await b.context.newPage();
  p.on('pageerror', (e) => errors.push(e.message));
  p.on('dialog', (d) => d.accept());
  return p;
}

before(async () => {
  server = await startServer();
  info = await (await fetch(`${server.url}/api/info`)).json();
  page = await newPage();
});

after(async () => {
  if (page && process.env.KEEP_SCREENSHOTS !== '0') await page.screenshot({ path: path.join(ARTIFACTS, 'accounts-last.png') }).catch(() => {});
  for (const b of browsers) await b.close();
  if (server) await server.stop();
});

test('a guest plays without signing up; register, log out, a wrong password, log in', async () => {
  await page.goto(server.url + '/');
  // A guest from the first visit, shown in the header.
  await page.waitForSelector('#me-link[data-guest="true"]');
  const guest = await page.locator('#me-link').textContent();
  assert.match(guest, /^Guest-\d+$/);
  assert.equal(await page.locator('#me-guest').textContent(), '游客');

  // Register.
  await page.click('#login-link');
  await page.waitForURL(/#\/account$/);
  assert.match(await page.locator('#guest-hint').textContent(), new RegExp(guest));
  await submitRegistration(page, NAME);
  await page.waitForSelector('#me-link[data-guest="false"]');
  assert.equal(await page.locator('#me-link').textContent(), NAME);
  assert.equal(await page.locator('#me-link').getAttribute('href'), `#/player/${NAME}`);
  await page.waitForSelector('#play-computer-2');
  assert.ok(await page.evaluate(() => localStorage.getItem('junqi.session')));

  // Log out: the session ends, and a new guest goes on.
  const oldSession = await page.evaluate(() => localStorage.getItem('junqi.session'));
  await page.click('#logout-btn');
  await page.waitForSelector('#me-link[data-guest="true"]');
  const me = await fetch(`${server.url}/api/me`, { headers: { Authorization: `Bearer ${oldSession}` } });
  assert.equal(me.status, 401, 'the old session is no longer valid');
  assert.notEqual(await page.evaluate(() => localStorage.getItem('junqi.session')), oldSession);
  assert.notEqual(await page.locator('#me-link').textContent(), NAME);
  assert.match(await page.locator('#lobby-message').textContent(), /已退出登录/);

  // The name is taken now; a wrong password is refused; both are said in words.
  await page.click('#login-link');
  await submitRegistration(page, NAME);
  await page.waitForSelector('#account-message');
  assert.equal(await page.locator('#account-message').textContent(), `错误：用户名 ${NAME} 已被占用`);
  await page.fill('#login-form [name=name]', NAME);
  await page.fill('#login-form [name=password]', 'not the password');
  await page.click('#login-submit');
  await page.waitForFunction(() => /用户名或密码错误/.test(document.querySelector('#account-message')?.textContent));
  assert.equal(await page.locator('#account-message').textContent(), '错误：用户名或密码错误');
  await page.click('#lang-toggle');
  assert.equal(await page.locator('#account-message').textContent(), 'Error: Wrong name or password', 'the message follows the toggle');
  await page.fill('#login-form [name=name]', NAME);
  await page.fill('#login-form [name=password]', 'still not it');
  await page.click('#login-submit');
  await page.waitForFunction(() => /Wrong name or password/.test(document.querySelector('#account-message')?.textContent));
  assert.equal(await page.locator('#account-message').textContent(), 'Error: Wrong name or password');
  assert.equal(await page.locator('#me-guest').textContent(), 'guest');
  await page.click('#lang-toggle');
  assert.equal(await page.locator('#me-link[data-guest="true"]').count(), 1, 'still a guest');

  // Log in.
  await page.fill('#login-form [name=name]', NAME);
  await page.fill('#login-form [name=password]', PASSWORD);
  await page.click('#login-submit');
  await page.waitForSelector('#me-link[data-guest="false"]');
  assert.equal(await page.locator('#me-link').textContent(), NAME);
  // A reload keeps the session.
  await page.reload();
  await page.waitForSelector('#me-link[data-guest="false"]');
  assert.equal(await page.locator('#me-link').textContent(), NAME);
  assert.deepEqual(errors, []);
});

let playStart = 0;
let gameId = null;

test('a game against the computer as a registered player; a draw offered to the computer is declined', async () => {
  const H = helpers(page);
  // Ask for no resignation window (used if the server supports it, ignored otherwise).
  gameId = await page.evaluate(async () => {
    const r = await window.junqi.api('POST', '/api/play-computer', { board: 'two_player', resign_after_seconds: 0 });
    window.junqi.saveSeatToken(r.table.id, r.token);
    location.hash = `#/table/${r.table.id}`;
    return r.table.id;
  });
  await page.waitForSelector('#deploy:not([hidden])');
  // The seat shows the player's name as a link to the player page.
  await page.waitForSelector(`.seat-row[data-seat="0"] a.player-link[href="#/player/${NAME}"]`);
  await page.waitForSelector('.seat-row[data-seat="1"] a.player-link[href^="#/player/bot"]');
  await H.deploy();
  await page.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });
  playStart = Date.now();
  await H.playOneMove(0);

  // Offer a draw: the computer declines at once.
  await page.click('#btn-draw');
  await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((l) => /北 拒绝和棋/.test(l.textContent)));
  await page.waitForSelector('#btn-draw');
  assert.equal(await page.evaluate(() => window.junqi.current.s.drawOffer), null);
  assert.equal(await page.locator('#status[data-status="playing"]').count(), 1);
  assert.deepEqual(errors, []);
});

test('two people at one table: a draw offered and declined, then offered and accepted', async () => {
  const host = await newPage();
  const guest = await newPage();
  await host.goto(server.url + '/');
  await host.waitForSelector('#me-link[data-guest="true"]');
  const hostName = await host.locator('#me-link').textContent();
  await host.click('#create summary');
  await host.fill('#create-move-seconds', '0');
  await host.click('#create-btn');
  await host.waitForURL(/#\/table\//);
  const code = await (await host.waitForSelector('#table-code')).textContent();

  await guest.goto(`${server.url}/#/join/${code}`);
  await guest.waitForURL(/#\/table\//);
  await guest.waitForSelector('#me-link[data-guest="true"]');
  const guestName = await guest.locator('#me-link').textContent();
  const guestHref = await guest.locator('#me-link').getAttribute('href');
  assert.match(guestHref, /^#\/player\/p_/, 'a guest is linked by id');
  await guest.click('.seat-row[data-seat="1"] button');
  // A guest's own seat links to its page by id (guest names are not unique).
  await guest.waitForSelector('.seat-row[data-seat="1"] a.player-link[href^="#/player/p_"]');
  await host.waitForSelector('#btn-start:not([disabled])');
  await host.waitForSelector(`.seat-row[data-seat="1"] a.player-link[data-player="${guestName}"][href="${guestHref}"]`);
  await host.click('#btn-start');
  for (const p of [host, guest]) await helpers(p).deploy();
  for (const p of [host, guest]) await p.waitForSelector('#status[data-status="playing"]', { timeout: 30000 });

  // The host offers, the guest declines.
  await host.click('#btn-draw');
  await guest.waitForSelector('#draw-offer');
  assert.match(await guest.locator('#draw-offer').textContent(), /南 提议和棋/);
  await guest.click('#btn-decline-draw');
  await host.waitForFunction(() => [...document.querySelectorAll('#log li')].some((l) => /北 拒绝和棋/.test(l.textContent)));
  await host.waitForSelector('#btn-draw');
  await guest.waitForSelector('#btn-draw');

  // The guest offers (in English), the host accepts: a draw by agreement.
  await guest.click('#lang-toggle');
  await guest.click('#btn-draw');
  await guest.waitForFunction(() => /You offered a draw/.test(document.querySelector('#controls').textContent));
  await host.waitForSelector('#btn-accept-draw');
  await host.click('#btn-accept-draw');
  await host.waitForSelector('#outcome');
  assert.match(await host.locator('#outcome').textContent(), /和棋（协议和棋）/);
  await guest.waitForSelector('#outcome');
  assert.match(await guest.locator('#outcome').textContent(), /Draw \(agreement\)/);

  // Player links in the lobby: the finished game is among the recent games (from the database).
  await host.goto(server.url + '/#/');
  await host.waitForSelector(`#recent-games a.player-link[href="${guestHref}"]`);
  await host.waitForSelector('#recent-games a.replay-link');
  // The guest's own page (guests are found by id) shows the draw and a rating.
  await guest.click('#me-link');
  await guest.waitForURL(/#\/player\/p_/);
  for (let i = 0; i < 40 && !(await guest.locator('#ratings tr[data-category="two_player/dark"]').count()); i++) {
    await new Promise((r) => setTimeout(r, 250));
    await guest.reload();
    await guest.waitForSelector('#player-name');
  }
  assert.match(await guest.locator('#player-name').textContent(), new RegExp(guestName));
  assert.match(await guest.locator('#player-kind').textContent(), /guest/);
  await guest.waitForSelector('#games tr[data-result="draw"]');
  assert.match(await guest.locator('#games tr[data-result="draw"]').textContent(), /draw · agreement/);
  assert.match(await guest.locator('#games tr[data-result="draw"] .others').textContent(), new RegExp(hostName));

  // The guest registers: the account keeps the guest's games and rating (same player).
  const BOB = `bob_${Date.now() % 100000}`;
  await guest.click('#login-link');
  await submitRegistration(guest, BOB);
  await guest.waitForSelector('#me-link[data-guest="false"]');
  await guest.click('#me-link');
  await guest.waitForURL(new RegExp(`#/player/${BOB}$`));
  await guest.waitForSelector('#player-name');
  assert.equal(await guest.locator('#player-kind').textContent(), 'registered player');
  await guest.waitForSelector('#games tr[data-result="draw"]');
  await guest.waitForSelector('#ratings tr[data-category="two_player/dark"]');
  assert.deepEqual(errors, []);
});

test('resign, then the game is on the player page with a rating and a replay link', async () => {
  const windowS = await page.evaluate(() => window.junqi.current.resignAfterSeconds());
  const wait = windowS * 1000 - (Date.now() - playStart) + 1000;
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  await page.waitForSelector('#btn-resign');
  await page.click('#btn-resign');
  await page.waitForSelector('#outcome', { timeout: 15000 });
  assert.match(await page.locator('#outcome').textContent(), /你输了.*投降/);

  // The header leads to the player page.
  await page.click('#me-link');
  await page.waitForURL(new RegExp(`#/player/${NAME}$`));
  for (let i = 0; i < 40 && !(await page.locator('#ratings tr[data-category="two_player/dark"]').count()); i++) {
    await new Promise((r) => setTimeout(r, 250));
    await page.reload();
    await page.waitForSelector('#player-name');
  }
  assert.match(await page.locator('#player-name').textContent(), new RegExp(NAME));
  assert.equal(await page.locator('#player-kind').textContent(), '注册玩家');
  const row = page.locator('#ratings tr[data-category="two_player/dark"]');
  assert.match(await row.textContent(), /两人军棋 · 暗棋/);
  const rating = Number(await row.locator('.rating').textContent());
  assert.ok(rating > 1000 && rating < 1500, `a loss lowers the rating below 1500: ${rating}`);
  assert.match(await row.locator('.rd').textContent(), /^± \d+$/);
  const game = page.locator(`#games tr[data-game="${gameId}"]`);
  assert.equal(await game.getAttribute('data-result'), 'loss');
  assert.match(await game.textContent(), /负 · 投降/);
  assert.match(await game.locator('.others').textContent(), /电脑/);
  await page.screenshot({ path: path.join(ARTIFACTS, 'player-page.png') });

  // English relabels the page.
  await page.click('#lang-toggle');
  assert.match(await page.locator('#games').textContent(), /lost · resigned/);
  assert.match(await page.locator('#ratings').textContent(), /Two-player Junqi · Dark/);
  await page.click('#lang-toggle');

  // The replay link.
  await game.locator('a.replay-link').click();
  await page.waitForURL(new RegExp(`#/replay/${gameId}`));
  await page.waitForSelector('#replay-steps li');
  assert.match(await page.locator('#outcome').textContent(), /投降/);
  await page.waitForSelector('.seat-row a.player-link');
  const links = await page.$$eval('.seat-row a.player-link', (els) => els.map((e) => [e.textContent, e.getAttribute('href')]));
  assert.ok(links.some(([text, href]) => text === NAME && /^#\/player\/(p_|alice_)/.test(href)), JSON.stringify(links));
  // The computer's page (bots are rated too).
  await page.click('.seat-row a.player-link[href^="#/player/bot"]');
  await page.waitForSelector('#player-kind');
  assert.equal(await page.locator('#player-kind').textContent(), '电脑玩家');
  await page.waitForSelector(`#games tr[data-game="${gameId}"][data-result="win"]`);
  // An unknown player.
  await page.goto(`${server.url}/#/player/nobody_here`);
  await page.waitForSelector('#player-error');
  assert.match(await page.locator('#player-error').textContent(), /找不到玩家 nobody_here/);
  assert.deepEqual(errors, []);
});
