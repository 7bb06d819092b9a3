// Browser tests of names and seat badges in real headless Chromium against the real server
// (docs/server-protocol.md, "Accounts and security"): the seat panel marks the computer 「电脑」
// and guests 「游客」 from the seat's `kind` and `player.guest`, never from the name, so a person
// seated under a bot-like name is still shown as a person; look-alike, reserved and invisible
// names are refused and the client says why in Chinese and English; a two-character Chinese name
// registers through the form.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { setLang } from '../../js/i18n.js';
import { serverMessage } from '../../js/errors.js';

const PASSWORD = 'correct horse 1';
let server;
let browser;
const errors = [];

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  assert.deepEqual(errors, [], 'no page errors');
});

async function post(path, body, session) {
  const headers = { 'content-type': 'application/json' };
  if (session) headers.authorization = `Bearer ${session}`;
  const r = await fetch(server.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

async function newPage() {
  const p = await browser.context.newPage();
  p.on('pageerror', (e) => errors.push(e.message));
  p.on('dialog', (d) => d.accept());
  return p;
}

/** The badges and the name link text of one seat row. */
async function seatView(page, seat) {
  const row = page.locator(`.seat-row[data-seat="${seat}"]`);
  return {
    badges: await row.locator('.kind-badge').evaluateAll((els) => els.map((e) => [e.dataset.kind, e.textContent])),
    name: await row.locator('a.player-link').first().textContent(),
    text: await row.textContent(),
  };
}

test('the computer and guests carry a badge from the seat, registered players none', async () => {
  const g = await post('/api/guest', { name: '小明' });
  assert.equal(g.status, 200, JSON.stringify(g.body));
  const vsBot = await post('/api/play-computer', { board: 'two_player' }, g.body.session);
  assert.equal(vsBot.status, 201, JSON.stringify(vsBot.body));
  const host = `host_${Date.now() % 100000}`;
  const reg = await post('/api/register', { name: host, password: PASSWORD });
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  const open = await post('/api/tables', { board: 'two_player', seat: 0 }, reg.body.session);
  assert.equal(open.status, 201, JSON.stringify(open.body));

  const page = await newPage();
  await page.goto(`${server.url}/#/table/${vsBot.body.table.id}`);
  await page.waitForSelector('.seat-row[data-seat="1"] .kind-badge[data-kind="bot"]');
  assert.deepEqual((await seatView(page, 0)).badges, [['guest', '游客']]);
  assert.equal((await seatView(page, 0)).name, '小明');
  assert.deepEqual((await seatView(page, 1)).badges, [['bot', '电脑']]);
  await page.click('#lang-toggle');
  await page.waitForSelector('.seat-row[data-seat="1"] .kind-badge[data-kind="bot"]');
  assert.deepEqual((await seatView(page, 0)).badges, [['guest', 'guest']]);
  assert.deepEqual((await seatView(page, 1)).badges, [['bot', 'computer']]);
  await page.click('#lang-toggle');

  // A registered host has no badge; the visitor who sits down is a guest.
  await page.goto(`${server.url}/#/table/${open.body.table.id}`);
  await page.waitForSelector(`.seat-row[data-seat="0"] a.player-link[data-player="${host}"]`);
  assert.deepEqual((await seatView(page, 0)).badges, []);
  await page.click('.seat-row[data-seat="1"] button');
  await page.waitForSelector('.seat-row[data-seat="1"] .kind-badge[data-kind="guest"]');
  assert.deepEqual((await seatView(page, 1)).badges, [['guest', '游客']]);
  assert.deepEqual((await seatView(page, 0)).badges, []);
  await page.close();
});

test('a person seated under a bot-like name is shown as a person, not as the computer', async () => {
  const mallory = await post('/api/register', { name: 'mallory', password: PASSWORD });
  assert.equal(mallory.status, 200, JSON.stringify(mallory.body));
  // The server refuses the name for guests and accounts…
  for (const path of ['/api/guest', '/api/register']) {
    const r = await post(path, { name: 'bot:search-strong', password: PASSWORD });
    assert.equal(r.status, 400, `${path}: ${JSON.stringify(r.body)}`);
  }
  // …and a seat's display name, where the server still takes one, must not fool the client.
  const table = await post('/api/tables', { board: 'two_player', seat: 0 });
  assert.equal(table.status, 201, JSON.stringify(table.body));
  const id = table.body.table.id;
  const page = await newPage();
  await page.goto(`${server.url}/#/`);
  const answer = await page.evaluate(async ({ id, session }) => {
    const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/${id}`);
    window.malloryWs = ws;
    const frames = [];
    await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
    const next = (pred) => new Promise((resolve) => {
      ws.onmessage = (m) => { const f = JSON.parse(m.data); frames.push(f); if (pred(f)) resolve(f); };
    });
    const hello = next((f) => f.type === 'welcome');
    ws.send(JSON.stringify({ type: 'hello', session }));
    await hello;
    const sat = next((f) => (f.type === 'welcome' && f.seat === 1) || f.type === 'error');
    ws.send(JSON.stringify({ type: 'take_seat', seat: 1, name: 'bot:search-strong' }));
    return sat;
  }, { id, session: mallory.body.session });
  if (answer.type === 'error') {
    // Refused by the server: as safe as it gets.
    assert.ok(answer.reason, JSON.stringify(answer));
  } else {
    await page.goto(`${server.url}/#/table/${id}`);
    await page.waitForSelector('.seat-row[data-seat="1"] a.player-link');
    const seat = await seatView(page, 1);
    assert.deepEqual(seat.badges, [], 'no computer badge for a person');
    assert.equal(seat.name, 'bot:search-strong', 'the name as chosen, not turned into the computer');
    assert.ok(!seat.text.includes('电脑'), seat.text);
    assert.deepEqual((await seatView(page, 0)).badges, [['guest', '游客']]);
  }
  await page.close();
});

test('look-alike, reserved and invisible names are refused in words; a Chinese name registers', async () => {
  assert.equal((await post('/api/register', { name: 'alice', password: PASSWORD })).status, 200);
  // Every reason the server gives for a name has words in both languages.
  const bad = ['ＡＬＩＣＥ', 'aIice', '\u0430lice', 'Guest-1234', '电脑', 'ali\u202Ece', 'a\u0301\u0302lice',
    'bob!', 'bob smith', 'x', '\u16A0\u16A2'];
  for (const name of bad) {
    const r = await post('/api/register', { name, password: PASSWORD });
    assert.ok(r.status === 400 || r.status === 409, `${name}: ${JSON.stringify(r.body)}`);
    for (const lang of ['zh', 'en']) {
      setLang(lang);
      const said = serverMessage(r.body);
      assert.ok(!said.includes(r.body.error), `${lang} words for ${JSON.stringify(r.body.error)}: ${said}`);
    }
  }
  setLang('zh');
  const guest = await post('/api/guest', { name: 'Alice' });
  assert.equal(guest.status, 400);
  assert.match(serverMessage(guest.body), /注册玩家 alice 的名字/);

  const page = await newPage();
  await page.goto(`${server.url}/#/account`);
  const submit = async (name) => {
    await page.fill('#register-form [name=name]', name);
    await page.fill('#register-form [name=password]', PASSWORD);
    await page.fill('#register-form [name=password2]', PASSWORD);
    await page.click('#register-submit');
  };
  for (const [name, said] of [
    ['ＡＬＩＣＥ', '错误：用户名 ALICE 已被占用：它和 alice 看起来是同一个名字'],
    ['Guest-1234', /^错误：「Guest-1234」是保留名称/],
    ['\u0430lice', /^错误：用户名混用了字形相近的文字/],
  ]) {
    const before = await page.evaluate(() => document.querySelector('#account-message')?.textContent ?? '');
    await submit(name);
    await page.waitForFunction((b) => {
      const m = document.querySelector('#account-message');
      return m && m.textContent !== b;
    }, before);
    const text = await page.locator('#account-message').textContent();
    if (typeof said === 'string') assert.equal(text, said);
    else assert.match(text, said);
  }
  // Two Chinese characters are a name (the form lets them through, the server takes them).
  await submit('张三');
  await page.waitForSelector('#me-link[data-guest="false"]');
  assert.equal(await page.locator('#me-link').textContent(), '张三');
  await page.close();
});
