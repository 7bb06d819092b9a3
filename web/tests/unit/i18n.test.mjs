// Both languages are complete, and the server's error reasons are shown in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRINGS, setLang } from '../../js/i18n.js';
import { serverMessage, ERROR_KEYS } from '../../js/errors.js';
import { resultFor, categoryLabel } from '../../js/player.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const JS = path.resolve(here, '../../js');

test('every interface string exists in Chinese and in English, with the same placeholders', () => {
  const zh = Object.keys(STRINGS.zh).sort();
  const en = Object.keys(STRINGS.en).sort();
  assert.deepEqual(zh.filter((k) => !(k in STRINGS.en)), [], 'missing in English');
  assert.deepEqual(en.filter((k) => !(k in STRINGS.zh)), [], 'missing in Chinese');
  const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
  for (const k of zh) assert.equal(holes(STRINGS.zh[k]), holes(STRINGS.en[k]), k);
  for (const k of ERROR_KEYS) assert.ok(k in STRINGS.zh, k);
});

test("every literal t('key') of the client's modules exists", () => {
  const missing = [];
  for (const f of readdirSync(JS).filter((n) => n.endsWith('.js'))) {
    const src = readFileSync(path.join(JS, f), 'utf8');
    for (const m of src.matchAll(/\bt\('([\w.]+)'/g)) if (!(m[1] in STRINGS.zh)) missing.push(`${f}: ${m[1]}`);
  }
  assert.deepEqual(missing, []);
});

test("the server's error reasons in words", () => {
  setLang('zh');
  assert.equal(serverMessage('wrong name or password'), '用户名或密码错误');
  assert.equal(serverMessage('the name alice is taken'), '用户名 alice 已被占用');
  assert.equal(serverMessage('resignation is refused in the first 90 seconds of play'), '开局 90 秒内不能投降');
  assert.equal(serverMessage("it is seat 1's turn, not yours"), '还没轮到你走棋');
  assert.equal(serverMessage('the flag on a1 must stand in a headquarters (b1 or d1)'), 'a1 的军旗必须放在大本营（b1 或 d1）');
  assert.equal(serverMessage('the major general on c4 cannot move to c6'), 'c4 上的师长不能走到 c6');
  assert.equal(serverMessage('a deployment needs 3 landmine (地雷), this one has 2'), '需要 3 个地雷，现在有 2 个');
  assert.equal(serverMessage('something new'), '服务器：something new');
  assert.equal(serverMessage('mode flip does not exist on the four_player board'), '四国军棋没有翻棋模式');
  assert.equal(serverMessage('move_seconds must be a number of seconds from 0 to 3600'), '每步时限必须是 0 到 3600 之间的秒数');
  setLang('en');
  assert.equal(serverMessage('wrong name or password'), 'Wrong name or password');
  assert.equal(serverMessage('the major general on c4 cannot move to c6'), 'The Major general on c4 cannot move to c6');
  assert.equal(serverMessage('rate limited'), 'Too many actions; wait a moment');
  setLang('zh');
});

test("a game's result from the player's seat, and rating categories", () => {
  assert.equal(resultFor({ result: 'win', winners: [0, 2], reason: 'flag_captured' }, 2), 'win');
  assert.equal(resultFor({ result: 'win', winners: [1], reason: 'resigned' }, 0), 'loss');
  assert.equal(resultFor({ result: 'draw', winners: [], reason: 'agreement' }, 0), 'draw');
  assert.equal(resultFor(null, 0), 'aborted');
  setLang('zh');
  assert.equal(categoryLabel('two_player/dark'), '两人军棋 · 暗棋');
  setLang('en');
  assert.equal(categoryLabel('four_player/half_open'), 'Four-player Junqi · Half-open');
  setLang('zh');
});
