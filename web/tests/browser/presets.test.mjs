// Rule presets (规则：标准 / QQ / 自定义, RULES §10.1) in real headless Chromium against the real
// server: the create form's 规则 choice fills the rule controls and the leaving rule, a change by
// hand makes it 自定义, the tables made say their preset and leaving rule in their summaries, the
// 人机对战 panel's 规则 choice, the table's rules line, the lobby list's tag, land-sea-air's 台湾,
// and the help page's presets section in both languages; at desktop (1280×800) and phone
// (390×844) sizes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { freshVisit as visit, noHorizontalOverflow as fits, tableSummary as summaryOf } from '../lib/page.mjs';

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

let server;
let browser;
let page;
let info;
const errors = [];
/** The bodies the page POSTs to the create endpoints, in order. */
const posted = [];

before(async () => {
  server = await startServer();
  info = await (await fetch(`${server.url}/api/info`)).json();
  browser = await launch();
  page = await browser.context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => d.accept());
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/(tables|play-computer)$/.test(r.url())) posted.push({ url: r.url(), body: r.postDataJSON() });
  });
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
/** The table the page is at, once it has gone there. */
async function tableId() {
  await page.waitForURL(/#\/table\//);
  return decodeURIComponent(page.url().split('#/table/')[1]);
}
/** The create form opened on `board`. */
async function openCreate(board) {
  await page.waitForSelector('#create', { state: 'attached' });
  await page.click('#create summary');
  await page.selectOption('#create-board', board);
}
/** Every rule control of the create form: name → value. */
async function controls() {
  return page.$$eval('#create-options select[data-opt]', (els) => Object.fromEntries(els.map((e) => [e.dataset.opt, e.value])));
}

test('the server lists the presets this client offers', () => {
  assert.deepEqual(info.presets.four_player.map((p) => p.name), ['standard', 'qq']);
  assert.deepEqual(info.presets.land_sea_air.map((p) => p.name), ['standard', 'taiwan']);
  assert.deepEqual(info.leaver, ['abort', 'bot', 'partner_plays_on']);
});

for (const [size, viewport] of Object.entries(SIZES)) {
  test(`create form: QQ on four seats fills the controls and makes a QQ table (${size})`, async () => {
    await page.setViewportSize(viewport);
    await freshVisit();
    await openCreate('four_player');
    // The board's presets and 自定义; 标准 chosen, the controls at the defaults.
    assert.deepEqual(await page.$$eval('#create-preset option', (els) => els.map((e) => [e.value, e.textContent])),
      [['standard', '标准'], ['qq', 'QQ'], ['custom', '自定义']]);
    assert.equal(await page.locator('#create-preset').inputValue(), 'standard');
    assert.equal(await page.locator('#create-preset-summary').textContent(), '默认规则');
    assert.equal((await controls()).blocked, 'skip');
    assert.equal(await page.locator('#create-leaver').inputValue(), 'abort');
    assert.deepEqual(await page.$$eval('#create-leaver option', (els) => els.map((e) => e.textContent)), ['中止对局', '电脑接替', '队友继续']);
    assert.deepEqual(await page.$$eval('#create-blocked option', (els) => els.map((e) => e.textContent)), ['轮到时出局', '跳过这一轮', 'QQ：立即出局']);
    // QQ sets them, and says what no control shows (71 quiet plies).
    await page.selectOption('#create-preset', 'qq');
    assert.deepEqual(await controls(), {
      teams: 'alternate', landmine: 'attacker_dies', rail_turns: 'straight', win_by_flag: 'capture',
      engineer_scout: 'false', bomb_flies: 'false', blocked: 'out_at_once',
    });
    assert.equal(await page.locator('#create-leaver').inputValue(), 'partner_plays_on');
    assert.equal(await page.locator('#create-preset-summary').textContent(), '无子可动立即出局 · 71 步无吃子和棋 · 逃跑后队友继续');
    assert.ok(await noHorizontalOverflow());
    // The 规则 tip explains the presets and links to them.
    await page.click('[data-tip="preset"] .rule-name');
    await page.waitForSelector('#tip-preset:not([hidden])');
    assert.match(await page.locator('#tip-preset').textContent(), /QQ/);
    assert.equal(await page.locator('#tip-preset .tip-more').getAttribute('href'), '#/help/rule-preset');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#tip-preset', { state: 'hidden' });
    await page.fill('#create-move-seconds', '0');
    await page.fill('#create-name', `QQ ${size}`);
    const n = posted.length;
    await page.click('#create-btn');
    const id = await tableId();
    // Only the preset's name is sent: the server resolves its options and leaving rule.
    const body = posted[n].body;
    assert.equal(body.preset, 'qq');
    assert.equal(body.options, undefined);
    assert.equal(body.leaver, undefined);
    const tb = await tableSummary(id);
    assert.equal(tb.preset, 'qq');
    assert.equal(tb.leaver, 'partner_plays_on');
    assert.deepEqual(tb.options, { blocked: 'out_at_once', quiet_plies: 71 });
    // The table says its rules.
    await page.waitForSelector('#table-rules');
    assert.equal(await page.locator('#table-rules').getAttribute('data-preset'), 'qq');
    assert.equal(await page.locator('#table-rules').textContent(), '规则：QQ · 无子可动立即出局 · 71 步无吃子和棋 · 逃跑后队友继续');
    assert.ok(await noHorizontalOverflow());
    // The lobby lists it with a QQ tag.
    await page.goto(`${server.url}/#/`);
    const row = page.locator(`#tables tr[data-table="${id}"]`);
    await row.waitFor();
    assert.equal(await row.locator('.preset-tag').textContent(), 'QQ');
    assert.equal(await row.locator('.preset-tag').getAttribute('data-preset'), 'qq');
    assert.ok(await noHorizontalOverflow());
    // In English.
    await page.click('#lang-toggle');
    await page.goto(`${server.url}/#/table/${id}`);
    await page.waitForSelector('#table-rules');
    assert.equal(await page.locator('#table-rules strong').textContent(), 'Rules: QQ');
    await page.click('#lang-toggle');
  });

  test(`create form: a rule changed by hand makes it 自定义 (${size})`, async () => {
    await page.setViewportSize(viewport);
    await freshVisit();
    await openCreate('four_player');
    await page.selectOption('#create-preset', 'qq');
    await page.selectOption('#create-options select[data-opt="landmine"]', 'both_die');
    assert.equal(await page.locator('#create-preset').inputValue(), 'custom');
    assert.equal(await page.locator('#create-preset-summary').textContent(), '按下面选的规则，其余同QQ');
    // The other controls keep QQ's values.
    assert.equal((await controls()).blocked, 'out_at_once');
    assert.equal(await page.locator('#create-leaver').inputValue(), 'partner_plays_on');
    await page.fill('#create-move-seconds', '0');
    let n = posted.length;
    await page.click('#create-btn');
    let id = await tableId();
    // Made from QQ: QQ is the starting point, so what no control shows (71 quiet plies) stays.
    assert.deepEqual(posted[n].body.options, { landmine: 'both_die' });
    assert.equal(posted[n].body.preset, 'qq');
    assert.equal(posted[n].body.leaver, undefined);
    let tb = await tableSummary(id);
    assert.equal(tb.preset, null);
    assert.equal(tb.leaver, 'partner_plays_on');
    assert.deepEqual(tb.options, { landmine: 'both_die', blocked: 'out_at_once', quiet_plies: 71 });
    await page.waitForSelector('#table-rules');
    assert.equal(await page.locator('#table-rules').getAttribute('data-preset'), 'custom');
    assert.match(await page.locator('#table-rules').textContent(), /^规则：自定义 · 地雷：炸弹雷（同归于尽） · 无子可动立即出局 · 71 步无吃子和棋 · 逃跑后队友继续$/);
    // The leaving rule by hand: a bot in a runaway's seat keeps 标准 (the game's rules are the
    // same, and the server names it so), but leaves QQ.
    await page.goto(`${server.url}/#/`);
    await openCreate('four_player');
    await page.selectOption('#create-leaver', 'bot');
    assert.equal(await page.locator('#create-preset').inputValue(), 'standard');
    await page.fill('#create-move-seconds', '0');
    n = posted.length;
    await page.click('#create-btn');
    id = await tableId();
    assert.equal(posted[n].body.preset, 'standard');
    assert.equal(posted[n].body.leaver, 'bot');
    tb = await tableSummary(id);
    assert.deepEqual([tb.preset, tb.leaver], ['standard', 'bot']);
    await page.goto(`${server.url}/#/`);
    await openCreate('four_player');
    await page.selectOption('#create-preset', 'qq');
    await page.selectOption('#create-leaver', 'bot');
    assert.equal(await page.locator('#create-preset').inputValue(), 'custom');
    // Choosing QQ again sets everything back.
    await page.selectOption('#create-preset', 'qq');
    assert.equal(await page.locator('#create-leaver').inputValue(), 'partner_plays_on');
    // Another board keeps a preset it has too (two seats: QQ), and says what it is there.
    await page.selectOption('#create-board', 'two_player');
    assert.equal(await page.locator('#create-preset').inputValue(), 'qq');
    assert.equal(await page.locator('#create-preset-summary').textContent(), '在这个棋盘上与标准规则相同');
    assert.equal(await page.locator('#create-leaver-field').count(), 0, 'no leaving choice on two seats');
    assert.equal((await controls()).blocked, 'lose');
    // Three seats have 标准 alone.
    await page.selectOption('#create-board', 'three_player');
    assert.deepEqual(await page.$$eval('#create-preset option', (els) => els.map((e) => e.value)), ['standard', 'custom']);
    assert.equal(await page.locator('#create-preset').inputValue(), 'standard');
    assert.ok(await noHorizontalOverflow());
  });

  test(`人机对战 panel: 规则 QQ makes a QQ table, 台湾 a Taiwanese land-sea-air one (${size})`, async () => {
    await page.setViewportSize(viewport);
    await freshVisit();
    await page.waitForSelector('#pc-preset');
    assert.deepEqual(await page.$$eval('#pc-preset option', (els) => els.map((e) => [e.value, e.textContent])),
      [['standard', '标准'], ['qq', 'QQ'], ['taiwan', '台湾']]);
    assert.equal(await page.locator('#pc-preset').inputValue(), 'standard');
    assert.equal(await page.locator('#pc-preset-summary').isHidden(), true);
    await page.selectOption('#pc-preset', 'qq');
    // Boards without QQ are disabled, and the hint says which have it.
    assert.equal(await page.locator('#play-computer-2').isDisabled(), false);
    assert.equal(await page.locator('#play-computer-4').isDisabled(), false);
    assert.equal(await page.locator('#play-computer-3').isDisabled(), true);
    assert.equal(await page.locator('#play-computer-6').isDisabled(), true);
    assert.equal(await page.locator('#play-computer-lsa').isDisabled(), true);
    assert.equal(await page.locator('#pc-hint').textContent(), 'QQ规则只有两人军棋、四国军棋');
    assert.equal(await page.locator('#pc-preset-summary').textContent(), 'QQ（四国军棋）：无子可动立即出局 · 71 步无吃子和棋 · 逃跑后队友继续');
    assert.ok(await noHorizontalOverflow());
    let n = posted.length;
    await page.click('#play-computer-4');
    let id = await tableId();
    assert.equal(posted[n].body.preset, 'qq');
    assert.equal(posted[n].body.board, 'four_player');
    let tb = await tableSummary(id);
    assert.deepEqual([tb.preset, tb.leaver], ['qq', 'partner_plays_on']);
    await page.waitForSelector('#table-rules');
    assert.match(await page.locator('#table-rules').textContent(), /^规则：QQ · /);
    assert.ok(await noHorizontalOverflow());
    // Remembered.
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('#pc-preset');
    assert.equal(await page.locator('#pc-preset').inputValue(), 'qq');
    // 台湾: land-sea-air alone, its piece set the preset's.
    await page.selectOption('#pc-preset', 'taiwan');
    assert.equal(await page.locator('#play-computer-lsa').isDisabled(), false);
    assert.equal(await page.locator('#play-computer-2').isDisabled(), true);
    assert.equal(await page.locator('#pc-piece-set').inputValue(), 'taiwan');
    assert.equal(await page.locator('#pc-piece-set').isDisabled(), true);
    n = posted.length;
    await page.click('#play-computer-lsa');
    id = await tableId();
    assert.equal(posted[n].body.preset, 'taiwan');
    assert.equal(posted[n].body.options, undefined);
    tb = await tableSummary(id);
    assert.equal(tb.preset, 'taiwan');
    assert.equal(tb.options.piece_set, 'taiwan');
    // 标准 names no preset (the table's rules stay the defaults) and frees the piece set.
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('#pc-preset');
    await page.selectOption('#pc-preset', 'standard');
    assert.equal(await page.locator('#pc-piece-set').isDisabled(), false);
    assert.equal(await page.locator('#pc-piece-set').inputValue(), 'seed', 'the piece set chosen by hand comes back');
    n = posted.length;
    await page.click('#play-computer-2');
    id = await tableId();
    assert.equal(posted[n].body.preset, undefined);
    assert.equal((await tableSummary(id)).preset, 'standard');
    await page.waitForSelector('#table-rules');
    assert.equal(await page.locator('#table-rules').textContent(), '规则：标准');
  });
}

test('create form: land-sea-air offers 标准 / 台湾 / 自定义', async () => {
  await page.setViewportSize(SIZES.desktop);
  await freshVisit();
  await openCreate('land_sea_air');
  assert.deepEqual(await page.$$eval('#create-preset option', (els) => els.map((e) => e.textContent)), ['标准', '台湾', '自定义']);
  await page.selectOption('#create-preset', 'taiwan');
  assert.equal(await page.locator('#create-piece-set').inputValue(), 'taiwan');
  assert.equal(await page.locator('#create-preset-summary').textContent(), '棋子：台湾 · 吃子规则：台湾 · 地雷：炸弹雷（同归于尽）');
  await page.fill('#create-move-seconds', '0');
  const n = posted.length;
  await page.click('#create-btn');
  const id = await tableId();
  assert.equal(posted[n].body.preset, 'taiwan');
  assert.equal((await tableSummary(id)).preset, 'taiwan');
  // The piece set alone by hand is 自定义 (the Taiwanese pieces under the standard combat).
  await page.goto(`${server.url}/#/`);
  await openCreate('land_sea_air');
  await page.selectOption('#create-piece-set', 'taiwan');
  assert.equal(await page.locator('#create-preset').inputValue(), 'custom');
});

for (const [size, viewport] of Object.entries(SIZES)) {
  test(`the help page explains the presets, QQ's rules and blocked = out_at_once (${size})`, async () => {
    await page.setViewportSize(viewport);
    await freshVisit('#/help/presets');
    await page.waitForSelector('#help-presets.highlight');
    assert.equal(await page.locator('#help-toc [data-section="presets"]').textContent(), '规则：标准 / QQ / 自定义');
    assert.deepEqual(await page.$$eval('#help-presets dt', (els) => els.map((e) => e.textContent)), ['标准', 'QQ', '台湾', '自定义']);
    const qq = await page.locator('#help-qq-rules').textContent();
    for (const words of ['弹簧雷', '公布他那一方军旗', '工兵不侦察', '大本营', '71 步', '立即出局', '队友继续']) assert.ok(qq.includes(words), words);
    assert.equal(await page.locator('#help-qq-rules li').count(), 8);
    // The house rules: 无子可动 with QQ's value, each default said per board, and 逃跑.
    assert.deepEqual(await page.$$eval('#help-rule-blocked li', (els) => els.map((e) => e.textContent)),
      ['轮到时出局 (两人默认)', '跳过这一轮 (三国、四国、六国默认)', 'QQ：立即出局']);
    assert.match(await page.locator('#help-rule-blocked p').textContent(), /即使还没轮到它/);
    assert.deepEqual(await page.$$eval('#help-rule-leaver li strong', (els) => els.map((e) => e.textContent)), ['中止对局', '电脑接替', '队友继续']);
    assert.match(await page.locator('#help-table').textContent(), /队友继续/);
    assert.ok(await noHorizontalOverflow());
    await page.click('#lang-toggle');
    assert.equal(await page.locator('#help-presets h2').textContent(), 'Rules: Standard / QQ / Custom');
    const en = await page.locator('#help-qq-rules').textContent();
    for (const words of ['Landmines', 'flag', 'Engineers do not scout', 'headquarters', '71 plies', 'out at once', 'partner plays on']) assert.ok(en.includes(words), words);
    assert.deepEqual(await page.$$eval('#help-rule-blocked li strong', (els) => els.map((e) => e.textContent)),
      ['out when its turn comes', 'turn skipped', 'QQ: out at once']);
    assert.ok(await noHorizontalOverflow());
    await page.click('#lang-toggle');
    // The create form's 规则 tip leads here.
    await page.goto(`${server.url}/#/help/rule-preset`);
    await page.waitForSelector('#help-rule-preset.highlight');
  });
}
