// The lobby's 人机对战 panel, toasts and the join-by-code message, the leaderboard with ranks
// (军衔), ranks on player pages, the rules and help page and the house-rule tips of the create
// form: each in real headless Chromium against the real server, at desktop (1280×800) and phone
// (390×844) sizes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { freshVisit as visit, noHorizontalOverflow as fits, tableSummary as summaryOf } from '../lib/page.mjs';
import { combat, ATTACKERS } from '../../js/combat.js';
import { ROLES, ZH } from '../../js/roles.js';

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

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
  if (browser) await browser.close();
  if (server) await server.stop();
  assert.deepEqual(errors, [], 'no errors in the page');
});

/** A fresh visit in Chinese (no remembered choice, language or session). */
const freshVisit = (hash) => visit(page, server.url, hash);
const noHorizontalOverflow = () => fits(page);
const tableSummary = (id) => summaryOf(server.url, id);
/** A registered player who has played `games` quick games against the computer (resigned). */
async function playerWithGames(name, bot, games) {
  await freshVisit('#/account');
  await page.fill('#register-form [name=name]', name);
  await page.fill('#register-form [name=password]', 'a long password');
  await page.fill('#register-form [name=password2]', 'a long password');
  await page.click('#register-submit');
  await page.waitForSelector('#me-link[data-guest="false"]');
  for (let i = 0; i < games; i++) {
    await page.evaluate(async (bot) => {
      const r = await window.junqi.api('POST', '/api/play-computer', { board: 'two_player', bot, resign_after_seconds: 0 });
      window.junqi.saveSeatToken(r.table.id, r.token);
      location.hash = `#/table/${r.table.id}`;
    }, bot);
    await page.waitForSelector('#btn-submit:not([disabled])');
    await page.click('#btn-submit');
    await page.waitForSelector('#btn-resign');
    await page.click('#btn-resign');
    await page.waitForSelector('#outcome');
  }
}

for (const [size, viewport] of Object.entries(SIZES)) {
  test(`人机对战 from the lobby: mode, strength and clock, remembered (${size})`, async () => {
    await page.setViewportSize(viewport);
    await freshVisit();
    await page.waitForSelector('#vs-computer');
    const info = await (await fetch(`${server.url}/api/info`)).json();
    // The modes of both boards, the server's bots by their names, the clocks.
    const modes = await page.$$eval('#pc-modes input', (els) => els.map((e) => e.value));
    assert.deepEqual(modes, ['dark', 'open', 'flip', 'half_open']);
    assert.equal(await page.locator('#pc-mode-dark').isChecked(), true);
    assert.deepEqual(await page.$$eval('#play-bot option', (els) => els.map((e) => e.value)), info.bots);
    assert.equal(await page.locator('#play-bot').inputValue(), info.default_bot);
    // The levels first, in their own group, by the names players know; 普通 is the default.
    assert.deepEqual(await page.$$eval('#play-bot-levels option', (els) => els.map((e) => e.textContent)), ['入门', '普通', '高手', '大师']);
    assert.equal(await page.locator('#play-bot').inputValue(), 'normal');
    assert.equal(await page.locator('#play-bot-others option[value="search-2026"]').textContent(), '搜索（2026版）');
    assert.equal(await page.locator('#pc-teams').inputValue(), 'alternate');
    assert.equal(await page.locator('#pc-clock').inputValue(), '0');
    assert.equal(await page.locator('#pc-clock option[value="0"]').textContent(), '不限时');
    assert.ok(await noHorizontalOverflow());

    // 翻棋 is two-player only: the four-player button is disabled and the hint says why.
    await page.click('label:has(#pc-mode-flip)');
    assert.equal(await page.locator('#play-computer-4').isDisabled(), true);
    assert.equal(await page.locator('#play-computer-2').isDisabled(), false);
    assert.equal(await page.locator('#pc-hint').textContent(), '翻棋只有两人军棋');
    await page.selectOption('#play-bot', 'random');
    await page.selectOption('#pc-clock', '30');
    await page.click('#play-computer-2');
    await page.waitForURL(/#\/table\//);
    const id = page.url().split('#/table/')[1];
    const t2 = await tableSummary(id);
    assert.equal(t2.board, 'two_player');
    assert.equal(t2.mode, 'flip');
    assert.equal(t2.move_seconds, 30);
    assert.equal(t2.seats[1].name, 'bot:random');

    // Back in the lobby the choice is remembered.
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('#vs-computer');
    assert.equal(await page.locator('#pc-mode-flip').isChecked(), true);
    assert.equal(await page.locator('#play-bot').inputValue(), 'random');
    assert.equal(await page.locator('#pc-clock').inputValue(), '30');

    // 双明 is four- (and, on a server that plays it, six-) player only.
    await page.click('label:has(#pc-mode-half_open)');
    assert.equal(await page.locator('#play-computer-2').isDisabled(), true);
    const six = (info.boards || []).includes('six_player');
    assert.equal(await page.locator('#pc-hint').textContent(), six ? '双明只有四国军棋、六国军棋' : '双明只有四国军棋');
    await page.selectOption('#pc-clock', '0');
    await page.click('#play-computer-4');
    await page.waitForURL(/#\/table\//);
    const t4 = await tableSummary(page.url().split('#/table/')[1]);
    assert.equal(t4.board, 'four_player');
    assert.equal(t4.mode, 'half_open');
    assert.equal(t4.move_seconds, 0);
    assert.deepEqual(t4.seats.slice(1).map((s) => s.kind), ['bot', 'bot', 'bot']);

    // Teams: every seat alone cannot be half-open (the buttons say so); 对面联盟 on six seats
    // gives three teams of two, and the choice is remembered.
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('#vs-computer');
    await page.selectOption('#pc-teams', 'none');
    assert.equal(await page.locator('#play-computer-4').isDisabled(), true);
    assert.equal(await page.locator('#pc-hint').textContent(),
      `${six ? '双明只有四国军棋、六国军棋' : '双明只有四国军棋'}；双明需要联盟：各自为战时四国、六国不能双明`);
    await page.click('label:has(#pc-mode-dark)');
    assert.equal(await page.locator('#play-computer-4').isDisabled(), false);
    if (six) {
      await page.selectOption('#pc-teams', 'opposite');
      await page.selectOption('#play-bot', 'beginner');
      await page.click('#play-computer-6');
      await page.waitForURL(/#\/table\//);
      const t6 = await tableSummary(page.url().split('#/table/')[1]);
      assert.equal(t6.board, 'six_player');
      assert.equal(t6.options.teams, 'opposite');
      assert.deepEqual(t6.teams, [[0, 3], [1, 4], [2, 5]]);
      assert.equal(t6.seats[1].name, 'bot:beginner');
      await page.goto(`${server.url}/#/`);
      await page.waitForSelector('#vs-computer');
      assert.equal(await page.locator('#pc-teams').inputValue(), 'opposite');
    }
  });

  test(`join by code: an empty code replaces the old error; messages float and go away (${size})`, async () => {
    await page.setViewportSize(viewport);
    await freshVisit();
    await page.waitForSelector('#vs-computer');
    const top = async () => (await page.locator('#vs-computer').boundingBox()).y;
    const before = await top();
    await page.fill('#join-code', 'zzzzzz');
    await page.click('#join-btn');
    await page.waitForSelector('#lobby-message');
    assert.equal(await page.locator('#lobby-message').textContent(), '错误：找不到棋桌 ZZZZZZ');
    // The message floats over the page: nothing moved down.
    assert.equal(await top(), before);
    assert.equal(await page.locator('#lobby-message').evaluate((e) => getComputedStyle(e.parentElement).position), 'fixed');
    // An empty code: the old error is replaced by what is wrong now.
    await page.fill('#join-code', '   ');
    await page.click('#join-btn');
    await page.waitForFunction(() => document.querySelector('#lobby-message')?.textContent.includes('棋桌代码是空的'));
    assert.equal(await page.locator('.toast').count(), 1);
    assert.equal(await top(), before);
    // It goes away by itself.
    await page.waitForSelector('#lobby-message', { state: 'detached', timeout: 15000 });
    // A tap dismisses one at once.
    await page.click('#join-btn');
    await page.waitForSelector('#lobby-message');
    await page.click('#lobby-message');
    await page.waitForSelector('#lobby-message', { state: 'detached', timeout: 2000 });
  });
}

test('the leaderboard lists rated players best first with their ranks, at both sizes', async () => {
  await page.setViewportSize(SIZES.desktop);
  // alice loses twice to the random bot, bob once to 普通 (the level `normal`).
  await playerWithGames('alice', 'random', 2);
  await playerWithGames('bob', 'normal', 1);
  const api = async () => (await fetch(`${server.url}/api/leaderboard?board=two_player&mode=dark`)).json();
  for (let i = 0; i < 50 && (await api()).total < 4; i++) await new Promise((r) => setTimeout(r, 100));
  const data = await api();
  assert.equal(data.total, 4, JSON.stringify(data));

  for (const viewport of Object.values(SIZES)) {
    await page.setViewportSize(viewport);
    await page.click('#nav-leaderboard');
    await page.waitForURL(/#\/leaderboard/);
    await page.waitForSelector('#leaderboard tbody tr');
    const rows = await page.$$eval('#leaderboard tbody tr', (trs) => trs.map((tr) => ({
      rank: tr.querySelector('.rank').textContent,
      name: tr.querySelector('.name').textContent,
      title: tr.querySelector('.title-badge').dataset.title,
      titleText: tr.querySelector('.title-badge').textContent,
      rating: tr.querySelector('.rating').firstChild.textContent,
    })));
    assert.deepEqual(rows.map((r) => r.rank), ['1', '2', '3', '4']);
    // In the server's order, each rank named by its piece, provisional ranks marked with "?".
    assert.deepEqual(rows.map((r) => r.title), data.players.map((p) => p.title));
    for (const r of rows) assert.equal(r.titleText, `${ZH[r.title]}?`);
    assert.deepEqual(rows.map((r) => Number(r.rating)), data.players.map((p) => Math.round(p.rating)));
    const ratings = rows.map((r) => Number(r.rating));
    assert.deepEqual(ratings, [...ratings].sort((a, b) => b - a));
    assert.ok(rows.some((r) => r.name === 'alice') && rows.some((r) => r.name === '电脑 · 普通'));
    assert.ok(await noHorizontalOverflow(), 'no sideways scrolling');
  }
  // Two losses to a new bot: alice is last, a lieutenant or lower.
  assert.equal(data.players[3].name, 'alice');

  // Tabs: the four-player board has its own modes, and nobody yet.
  await page.click('#lb-boards [data-board="four_player"]');
  await page.waitForSelector('#lb-empty');
  assert.match(page.url(), /#\/leaderboard\/four_player\/dark$/);
  assert.deepEqual(await page.$$eval('#lb-modes [data-mode]', (els) => els.map((e) => e.dataset.mode)), ['dark', 'open', 'half_open']);
  await page.click('#lb-boards [data-board="two_player"]');
  await page.waitForSelector('#leaderboard tbody tr');
  // In English the ranks are the pieces' English names.
  await page.click('#lang-toggle');
  await page.waitForSelector('#leaderboard');
  assert.equal(await page.locator('#nav-leaderboard').textContent(), 'Leaderboard');
  const first = data.players[0].title;
  const en = { colonel: 'Colonel', major: 'Major', captain: 'Captain', lieutenant: 'Lieutenant', engineer: 'Engineer', brigadier: 'Brigadier' };
  assert.equal(await page.locator('#leaderboard tbody tr:first-child .title-badge').textContent(), `${en[first]}?`);
  await page.click('#lang-toggle');

  // A name leads to the player page, which shows the rank per category too.
  await page.click('#leaderboard a.player-link:text-is("bob")');
  await page.waitForURL(/#\/player\/bob$/);
  await page.waitForSelector('#ratings tr[data-category="two_player/dark"] .title-badge');
  const bob = data.players.find((p) => p.name === 'bob');
  assert.equal(await page.locator('#ratings tr[data-category="two_player/dark"] .title-badge').getAttribute('data-title'), bob.title);
});

for (const [size, viewport] of Object.entries(SIZES)) {
  test(`the rules and help page: combat table from the code, both boards, in both languages (${size})`, async () => {
    await page.setViewportSize(viewport);
    await freshVisit();
    await page.click('#nav-help');
    await page.waitForURL(/#\/help$/);
    await page.waitForSelector('#combat-table');
    assert.equal(await page.locator('#help h1').textContent(), '规则与帮助');
    // One row per attacker, one column per role, each cell the referee's result.
    const cells = await page.$$eval('#combat-table tbody tr', (trs) => trs.map((tr) => ({
      attacker: tr.dataset.attacker,
      results: [...tr.querySelectorAll('td')].map((td) => [td.dataset.result, td.textContent]),
    })));
    assert.deepEqual(cells.map((c) => c.attacker), ATTACKERS);
    const badge = { attacker_wins: '胜', defender_wins: '守', both_removed: '亡', flag_captured: '旗' };
    for (const c of cells) {
      assert.deepEqual(c.results, ROLES.map((d) => [combat(c.attacker, d), badge[combat(c.attacker, d)]]), c.attacker);
    }
    assert.deepEqual(await page.$$eval('#combat-table thead th[data-defender]', (ths) => ths.map((th) => th.textContent)), ROLES.map((r) => ZH[r]));
    // Both boards, drawn by the game's renderer: South's 25 pieces named, the others hidden.
    assert.equal(await page.locator('#help-board-two_player svg .piece').count(), 50);
    assert.equal(await page.locator('#help-board-four_player svg .piece').count(), 100);
    assert.equal(await page.locator('#help-board-two_player svg .piece[data-role="marshal"]').count(), 1);
    // Modes, house rules and ranks have their sections.
    for (const id of ['play', 'pieces', 'modes', 'rules', 'rule-bomb_flies', 'rule-landmine', 'table', 'ranks']) {
      assert.equal(await page.locator(`#help-${id}`).count(), 1, id);
    }
    assert.equal(await page.locator('#ranks-table tr[data-title="major"] td.num').textContent(), '1500 分以上');
    assert.ok(await noHorizontalOverflow(), 'the page does not scroll sideways (the combat table scrolls in its box)');
    // English.
    await page.click('#lang-toggle');
    assert.equal(await page.locator('#help h1').textContent(), 'Rules and help');
    assert.equal(await page.locator('#help-combat h2').textContent(), 'Combat: who beats whom');
    assert.equal(await page.locator('#combat-table tbody tr[data-attacker="engineer"] th').textContent(), 'Eng');
    assert.equal(await page.locator('#help-board-two_player svg .piece').count(), 50);
    await page.click('#lang-toggle');
  });

  test(`house-rule tips in the create form: hover, tap, and a link to the help page (${size})`, async () => {
    await page.setViewportSize(viewport);
    await freshVisit();
    await page.waitForSelector('#create', { state: 'attached' });
    await page.click('#create summary');
    const names = await page.$$eval('#create-options .rule-tip', (els) => els.map((e) => e.dataset.tip));
    assert.deepEqual(names, ['landmine', 'middle_crossing', 'rail_turns', 'win_by_flag', 'engineer_scout', 'bomb_flies', 'blocked']);
    // Hover shows the explanation; leaving hides it.
    await page.hover('[data-tip="landmine"] .rule-name');
    await page.waitForSelector('#tip-landmine:not([hidden])');
    assert.match(await page.locator('#tip-landmine').textContent(), /弹簧雷.*炸弹雷/);
    await page.mouse.move(1, 1);
    await page.waitForSelector('#tip-landmine', { state: 'hidden' });
    // A tap pins it open, inside the window even at the right edge of a phone.
    await page.locator('[data-tip="bomb_flies"] .rule-name').scrollIntoViewIfNeeded();
    await page.click('[data-tip="bomb_flies"] .rule-name');
    await page.mouse.move(1, 1);
    await page.waitForSelector('#tip-bomb_flies:not([hidden])');
    const box = await page.locator('#tip-bomb_flies').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, JSON.stringify(box));
    assert.ok(await noHorizontalOverflow());
    // One tip at a time.
    await page.click('[data-tip="engineer_scout"] .rule-name');
    await page.waitForSelector('#tip-bomb_flies', { state: 'hidden' });
    assert.match(await page.locator('#tip-engineer_scout').textContent(), /侦察/);
    // Its link opens the rule's section of the help page.
    await page.click('#tip-engineer_scout .tip-more');
    await page.waitForURL(/#\/help\/rule-engineer_scout$/);
    await page.waitForSelector('#help-rule-engineer_scout.highlight');
    await page.waitForFunction(() => {
      const r = document.querySelector('#help-rule-engineer_scout').getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight;
    });
  });
}
