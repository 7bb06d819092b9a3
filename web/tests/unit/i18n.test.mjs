// Both languages are complete, and the server's refusals are shown in words by their codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRINGS, setLang } from '../../js/i18n.js';
import { serverMessage, refusalSquares } from '../../js/errors.js';
import { resultFor, categoryLabel } from '../../js/player.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const JS = path.resolve(here, '../../js');

test('every reason a move is blocked (docs/formats.md) has words in both languages', () => {
  const doc = readFileSync(path.resolve(here, '../../../docs/formats.md'), 'utf8');
  const section = doc.split('## Why a move is blocked')[1].split('\n## ')[0];
  const whys = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]).filter((w) => w !== 'why');
  assert.ok(whys.length >= 15, `found ${whys.length} reasons`);
  for (const w of whys) {
    assert.ok(`why.${w}` in STRINGS.zh, `why.${w} in Chinese`);
    assert.ok(`why.${w}` in STRINGS.en, `why.${w} in English`);
  }
});

test('every interface string exists in Chinese and in English, with the same placeholders', () => {
  const zh = Object.keys(STRINGS.zh).sort();
  const en = Object.keys(STRINGS.en).sort();
  assert.deepEqual(zh.filter((k) => !(k in STRINGS.en)), [], 'missing in English');
  assert.deepEqual(en.filter((k) => !(k in STRINGS.zh)), [], 'missing in Chinese');
  const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
  for (const k of zh) assert.equal(holes(STRINGS.zh[k]), holes(STRINGS.en[k]), k);
});

test("every literal t('key') of the client's modules exists", () => {
  const missing = [];
  for (const f of readdirSync(JS).filter((n) => n.endsWith('.js'))) {
    const src = readFileSync(path.join(JS, f), 'utf8');
    for (const m of src.matchAll(/\bt\('([\w.]+)'/g)) if (!(m[1] in STRINGS.zh)) missing.push(`${f}: ${m[1]}`);
  }
  assert.deepEqual(missing, []);
});

test("the server's refusals in words, by code and args", () => {
  const say = (code, args = {}, text = '', ctx) => serverMessage({ code, args, reason: text }, ctx);
  setLang('zh');
  assert.equal(say('account.wrong_password'), '用户名或密码错误');
  assert.equal(say('account.name_taken', { name: 'alice', owner: 'alice' }), '用户名 alice 已被占用');
  assert.equal(say('account.name_taken', { name: 'ALICE', owner: 'alice' }), '用户名 ALICE 已被占用：它和 alice 看起来是同一个名字');
  assert.equal(say('account.throttled', { what: 'logins_per_name', retry_after: 840 }), '这个账号登录失败次数太多，请 840 秒后再试');
  assert.equal(say('account.throttled', { what: 'something_new', retry_after: 3 }), '尝试次数太多，请 3 秒后再试');
  assert.equal(say('table.resign_too_early', { seconds: 90 }), '开局 90 秒内不能投降');
  assert.equal(say('table.not_your_turn', { seat: 1 }, '', { board: 'two_player' }), '现在轮到 北 走棋，还没轮到你');
  assert.equal(say('table.not_your_turn', { seat: 1 }), '现在轮到 座位 1 走棋，还没轮到你');
  assert.equal(say('deploy.flag_not_in_headquarters', { square: 'a1', hqs: ['b1', 'd1'] }), 'a1 的军旗必须放在大本营（b1 或 d1）');
  assert.equal(say('action.cannot_move', { role: 'major_general', from: 'c4', to: 'c6' }), 'c4 上的师长不能走到 c6');
  assert.equal(say('action.cannot_move', { role: 'colonel', from: 'b6', to: 'b7', why: 'mountain' }), 'b6 上的团长不能走到 b7：中间隔着山界（b、d 两路不通）');
  assert.equal(say('action.cannot_move', { role: 'engineer', from: 'a2', to: 'a6', why: 'path_blocked', at: 'a4' }), 'a2 上的工兵不能走到 a6：a4 上的棋子挡住了去路');
  // A reason the words do not know yet: the move alone.
  assert.equal(say('action.cannot_move', { role: 'engineer', from: 'a2', to: 'a6', why: 'something_new' }), 'a2 上的工兵不能走到 a6');
  assert.equal(say('deploy.wrong_count', { role: 'landmine', want: 3, have: 2 }), '需要 3 个地雷，现在有 2 个');
  assert.equal(say('deploy.camp_not_empty', { square: 'b3', role: 'bomb', seat: 0 }), 'b3 是行营，开局必须空着，这里放了炸弹');
  assert.equal(say('setup.no_mode', { mode: 'flip', board: 'four_player' }), '四国军棋没有翻棋模式');
  assert.equal(say('setup.bad_seconds', { field: 'move_seconds' }), '每步时限必须是 0 到 3600 之间的秒数');
  assert.equal(say('name.mixed_scripts', { scripts: ['Cyrillic', 'Latin'] }), '用户名混用了字形相近的文字（西里尔字母、拉丁字母），请只用一种');
  assert.equal(say('name.format', { char: '\u202e', code_point: 'U+202E' }), '用户名含有不可见的格式字符 U+202E（如文字方向控制符或零宽字符）');
  assert.equal(say('name.character', { char: '!', code_point: 'U+0021' }), "用户名含有 '!' (U+0021)：只能用汉字、字母、数字、_ 和 -");
  assert.equal(say('name.length', { count: 1, min: 2, max: 24 }), '用户名须为 2–24 个字（现在是 1 个）');
  // An unknown code: the server's English text after a translated prefix.
  assert.equal(say('table.something_new', {}, 'something new'), '服务器：something new');
  // Errors without a code: the client's own are in words, others keep their text.
  assert.equal(serverMessage('the server cannot be reached'), '无法连接服务器');
  assert.equal(serverMessage({ message: 'the server cannot be reached', code: null }), '无法连接服务器');
  assert.equal(serverMessage('rate limited'), '服务器：rate limited');
  // HTTP bodies and frames name their text differently; both work.
  assert.equal(serverMessage({ error: 'no such player', code: 'player.not_found', args: {} }), '找不到该玩家');
  assert.equal(serverMessage({ type: 'error', reason: 'seat 1 is taken', code: 'table.seat_taken', args: { seat: 1 } }, { board: 'four_player' }), '东 已有人');
  assert.deepEqual(refusalSquares({ code: 'action.cannot_move', args: { role: 'engineer', from: 'b2', to: 'b6' } }), ['b2', 'b6']);
  assert.deepEqual(refusalSquares({ code: 'deploy.bomb_in_front_row', args: { square: 'c6', seat: 0 } }), ['c6']);
  setLang('en');
  assert.equal(say('account.wrong_password'), 'Wrong name or password');
  assert.equal(say('action.cannot_move', { role: 'major_general', from: 'c4', to: 'c6' }), 'The Major general on c4 cannot move to c6');
  assert.equal(say('action.cannot_move', { role: 'engineer', from: 'a2', to: 'a6', why: 'path_blocked', at: 'a4' }), 'The Engineer on a2 cannot move to a6: the piece on a4 is in the way');
  assert.equal(say('request.rate_limited', { retry_after: 2 }), 'Too many actions; try again in 2 s');
  assert.equal(say('table.not_your_turn', { seat: 0 }, '', { board: 'two_player' }), "It is South's turn, not yours");
  assert.equal(say('table.something_new', {}, 'something new'), 'Server: something new');
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
