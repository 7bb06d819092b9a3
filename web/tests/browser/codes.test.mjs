// Refusals through the real UI and server, shown in Chinese from their codes and args
// (docs/server-protocol.md, "Error codes"): a layout the server refuses (its square outlined from
// `args.square`), names and passwords the account endpoints refuse, and a table too many.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { topology } from '../../js/board.js';
import { randomCells, toText } from '../../js/deploy.js';

const PASSWORD = 'correct horse 1';
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
  assert.deepEqual(errors, [], 'no page errors');
});

/** A fresh guest on a fresh page load, in Chinese. */
async function freshVisit(hash = '') {
  await page.goto(`${server.url}/${hash}`);
  await page.evaluate(() => { localStorage.clear(); localStorage.setItem('junqi.lang', 'zh'); });
  await page.goto(`${server.url}/${hash}`);
  await page.reload();
  await page.waitForSelector('#me-link[data-guest="true"]');
}

/** The text of `sel` once it differs from `before`. */
async function changedText(sel, before) {
  await page.waitForFunction(([s, b]) => {
    const m = document.querySelector(s);
    return m && m.textContent && m.textContent !== b;
  }, [sel, before]);
  return page.locator(sel).textContent();
}

test('a layout the server refuses: the Chinese reason, and its square outlined from args', async () => {
  await freshVisit();
  await page.click('#play-computer-2');
  await page.waitForSelector('#layout-text');
  // A legal layout with a bomb moved into the front row (local row 0, column 0).
  let seed = 7;
  const cells = randomCells(() => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; });
  let bomb = null;
  for (let r = 1; r < 6 && !bomb; r++) for (let c = 0; c < 5; c++) if (cells[r][c] === 'bomb') { bomb = [r, c]; break; }
  [cells[0][0], cells[bomb[0]][bomb[1]]] = [cells[bomb[0]][bomb[1]], cells[0][0]];
  const seat = await page.evaluate(() => window.junqi.current.s.seat);
  const square = topology('two_player').localSquare(seat, 0, 0);
  await page.fill('#layout-text', toText(cells));
  await page.click('#layout-text + button');
  // The editor finds the problem itself and keeps the button off; send the layout anyway, as a
  // client that checked less would: the server's refusal is what is shown.
  await page.waitForSelector('#btn-submit[disabled]');
  await page.evaluate(() => { document.querySelector('#btn-submit').disabled = false; });
  await page.click('#btn-submit');
  const said = await changedText('#message .notice', '');
  assert.equal(said, `${square} 的炸弹不能放在第一排`);
  await page.waitForSelector(`.mark-refused[data-sq="${square}"]`);
  assert.equal(await page.locator('.mark-refused').count(), 1, 'only the refused square is outlined');
  // Another layout: the outline goes.
  await page.click('#btn-random');
  await page.waitForFunction(() => !document.querySelector('.mark-refused'));
});

test('names and passwords the server refuses are said in Chinese', async () => {
  await freshVisit('#/account');
  await page.waitForSelector('#register-form');
  const register = async (name, password = PASSWORD) => {
    const before = await page.evaluate(() => document.querySelector('#account-message')?.textContent ?? '');
    await page.fill('#register-form [name=name]', name);
    await page.fill('#register-form [name=password]', password);
    await page.fill('#register-form [name=password2]', password);
    await page.click('#register-submit');
    return changedText('#account-message', before);
  };
  // The scripts' names in Chinese (args.scripts), not the server's English names.
  assert.equal(await register('\u0430lice'), '错误：用户名混用了字形相近的文字（西里尔字母、拉丁字母），请只用一种');
  // An invisible character by its code point (args.code_point).
  assert.equal(await register('ali\u200Bce'), '错误：用户名含有不可见的格式字符 U+200B（如文字方向控制符或零宽字符）');
  // A wrong password.
  const before = await page.evaluate(() => document.querySelector('#account-message')?.textContent ?? '');
  await page.fill('#login-form [name=name]', 'nobody-here');
  await page.fill('#login-form [name=password]', 'not the password');
  await page.click('#login-submit');
  assert.equal(await changedText('#account-message', before), '错误：用户名或密码错误');
  await page.click('#lang-toggle');
  assert.equal(await page.locator('#account-message').textContent(), 'Error: Wrong name or password');
  await page.click('#lang-toggle');
});

test('one table too many: the limit said in Chinese from args.limit', async () => {
  await freshVisit();
  const create = async () => {
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('#create-btn', { state: 'attached' });
    await page.evaluate(() => { document.querySelector('#create').open = true; });
    await page.click('#create-btn');
  };
  for (let i = 0; i < 5; i++) {
    await create();
    await page.waitForURL(/#\/table\//);
  }
  await create();
  const said = await changedText('#lobby-message', '');
  assert.equal(said, '错误：你已有 5 张未开始的棋桌：先下完或离开一张再建新的');
});
