// Rule presets (presets.js, RULES §10.1): the create form's values under a preset, the rule
// fields of a create request, the leaving rule that keeps or leaves a preset, and rules in words
// in both languages. The presets are those GET /api/info lists (copied here as the server
// sends them; the browser tests read the real server's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRINGS, setLang } from '../../js/i18n.js';
import {
  CUSTOM, LEAVERS, BLOCKED, presetsOf, presetNames, presetLabel, blockedDefault, formDefaults, presetValues,
  leaverRule, leaverKeepsPreset, createRules, optionPhrase, describeRules, presetSummary, tableRules,
} from '../../js/presets.js';

const INFO = {
  presets: {
    two_player: [{ name: 'standard', options: {}, leaver: 'abort' }, { name: 'qq', options: {}, leaver: 'partner_plays_on' }],
    three_player: [{ name: 'standard', options: {}, leaver: 'abort' }],
    four_player: [
      { name: 'standard', options: {}, leaver: 'abort' },
      { name: 'qq', options: { blocked: 'out_at_once', quiet_plies: 71 }, leaver: 'partner_plays_on' },
    ],
    six_player: [{ name: 'standard', options: {}, leaver: 'abort' }],
    land_sea_air: [
      { name: 'standard', options: {}, leaver: 'abort' },
      { name: 'taiwan', options: { piece_set: 'taiwan', combat: 'taiwan', landmine: 'both_die' }, leaver: 'abort' },
    ],
  },
  leaver: ['abort', 'bot', 'partner_plays_on'],
};
const qq4 = INFO.presets.four_player[1];

test('the presets of a board as the server lists them, none from an older server', () => {
  assert.deepEqual(presetsOf(INFO, 'four_player').map((p) => p.name), ['standard', 'qq']);
  assert.deepEqual(presetsOf(INFO, 'land_sea_air').map((p) => p.name), ['standard', 'taiwan']);
  assert.deepEqual(presetsOf({}, 'four_player'), []);
  assert.deepEqual(presetsOf({ presets: { four_player: 'nonsense' } }, 'four_player'), []);
  assert.deepEqual(presetNames(INFO, ['two_player', 'three_player', 'four_player', 'six_player', 'land_sea_air']), ['standard', 'qq', 'taiwan']);
  assert.deepEqual(presetNames(INFO, ['three_player', 'six_player']), ['standard']);
});

test('the form defaults follow RULES §9 per board (blocked: lose on two seats and in flip, else skip)', () => {
  assert.equal(blockedDefault('two_player', 'dark'), 'lose');
  assert.equal(blockedDefault('two_player', 'flip'), 'lose');
  assert.equal(blockedDefault('four_player', 'dark'), 'skip');
  assert.equal(blockedDefault('six_player', 'half_open'), 'skip');
  assert.deepEqual(formDefaults('two_player', 'dark'), {
    landmine: 'attacker_dies', middle_crossing: 'rail', rail_turns: 'straight', win_by_flag: 'capture',
    engineer_scout: false, bomb_flies: false, blocked: 'lose',
  });
  assert.deepEqual(formDefaults('four_player', 'dark'), {
    landmine: 'attacker_dies', rail_turns: 'straight', win_by_flag: 'capture',
    engineer_scout: false, bomb_flies: false, blocked: 'skip', teams: 'alternate',
  });
  assert.equal('teams' in formDefaults('three_player', 'dark'), false, 'three seats: always alone, no choice');
  assert.deepEqual(formDefaults('land_sea_air', 'dark'), { piece_set: 'seed' });
  assert.deepEqual(BLOCKED, ['lose', 'skip', 'out_at_once']);
  assert.deepEqual(LEAVERS, INFO.leaver);
});

test("a preset sets the controls it has; the options no control shows stay the preset's", () => {
  const d = formDefaults('four_player', 'dark');
  assert.deepEqual(presetValues(qq4, d), { ...d, blocked: 'out_at_once' });
  assert.deepEqual(presetValues(INFO.presets.land_sea_air[1], formDefaults('land_sea_air', 'dark')), { piece_set: 'taiwan' });
  assert.deepEqual(presetValues(null, d), d);
});

test('the rule fields of a create request', () => {
  const presets = INFO.presets.four_player;
  const d = formDefaults('four_player', 'dark');
  // A preset as chosen: its name alone (the server resolves quiet_plies and the leaving rule).
  assert.deepEqual(createRules({ presets, choice: 'qq', values: presetValues(qq4, d), defaults: d, leaver: 'partner_plays_on' }), { preset: 'qq' });
  assert.deepEqual(createRules({ presets, choice: 'standard', values: d, defaults: d, leaver: 'abort' }), { preset: 'standard' });
  // What differs from the preset goes with it.
  assert.deepEqual(createRules({ presets, choice: 'standard', values: d, defaults: d, leaver: 'bot' }), { preset: 'standard', leaver: 'bot' });
  assert.deepEqual(
    createRules({ presets, choice: 'qq', values: { ...presetValues(qq4, d), teams: 'none' }, defaults: d, leaver: 'partner_plays_on' }),
    { preset: 'qq', options: { teams: 'none' } });
  // 自定义: the options that differ from the defaults, as before presets; leaving when not abort.
  // 自定义 made from QQ starts from QQ: only what differs from it is sent.
  assert.deepEqual(
    createRules({ presets, choice: CUSTOM, base: 'qq', values: { ...presetValues(qq4, d), landmine: 'both_die' }, defaults: d, leaver: 'partner_plays_on' }),
    { preset: 'qq', options: { landmine: 'both_die' } });
  assert.equal(presetSummary(null, 'four_player', 'qq'), '按下面选的规则，其余同QQ');
  assert.equal(presetSummary(null, 'four_player', 'standard'), '按下面选的规则，其余为默认');
  assert.deepEqual(createRules({ presets, choice: CUSTOM, values: d, defaults: d, leaver: 'abort' }), { options: {} });
  assert.deepEqual(
    createRules({ presets, choice: CUSTOM, values: { ...d, landmine: 'both_die', blocked: 'out_at_once', bomb_flies: true }, defaults: d, leaver: 'partner_plays_on' }),
    { options: { landmine: 'both_die', blocked: 'out_at_once', bomb_flies: true }, leaver: 'partner_plays_on' });
  // No leaving choice on the board: nothing said about it.
  const d2 = formDefaults('two_player', 'dark');
  assert.deepEqual(createRules({ presets: INFO.presets.two_player, choice: 'qq', values: d2, defaults: d2 }), { preset: 'qq' });
  // A preset the board does not have is 自定义.
  assert.deepEqual(createRules({ presets: INFO.presets.two_player, choice: 'taiwan', values: d2, defaults: d2 }), { options: {} });
});

test('a leaving rule chosen by hand keeps a preset only where the game is the same', () => {
  const standard = INFO.presets.four_player[0];
  assert.equal(leaverRule('bot'), 'abort');
  assert.equal(leaverKeepsPreset(standard, 'bot'), true, 'a bot in a leaver\'s seat: still 标准');
  assert.equal(leaverKeepsPreset(standard, 'partner_plays_on'), false);
  assert.equal(leaverKeepsPreset(qq4, 'bot'), false);
  assert.equal(leaverKeepsPreset(qq4, 'abort'), false);
  assert.equal(leaverKeepsPreset(qq4, 'partner_plays_on'), true);
  assert.equal(leaverKeepsPreset(null, 'abort'), false);
});

test('rules in words, in Chinese and in English', () => {
  setLang('zh');
  assert.equal(presetLabel('qq'), 'QQ');
  assert.equal(presetLabel('standard'), '标准');
  assert.equal(presetLabel(null), '自定义');
  assert.equal(presetLabel(CUSTOM), '自定义');
  assert.equal(presetLabel('something_new'), 'something_new');
  assert.equal(presetSummary(qq4, 'four_player'), '无子可动立即出局 · 71 步无吃子和棋 · 逃跑后队友继续');
  assert.equal(presetSummary(INFO.presets.four_player[0], 'four_player'), '默认规则');
  assert.equal(presetSummary(INFO.presets.two_player[1], 'two_player'), '在这个棋盘上与标准规则相同', 'QQ 两人: no partner to play on');
  assert.equal(presetSummary(null, 'four_player'), '按下面选的规则，其余为默认');
  assert.equal(presetSummary(INFO.presets.land_sea_air[1], 'land_sea_air'), '棋子：台湾 · 吃子规则：台湾 · 地雷：炸弹雷（同归于尽）');
  assert.equal(optionPhrase('bomb_flies', true), '炸弹满天飞');
  assert.equal(optionPhrase('engineer_scout', false), '工兵侦察：否');
  assert.equal(optionPhrase('teams', 'opposite'), '联盟：对面联盟');
  assert.equal(optionPhrase('hq_exit', 'free'), 'hq_exit：free', 'an option the client has no words for is shown as the server names it');
  assert.deepEqual(describeRules({ teams: 'none' }, 'bot', 'six_player'), ['联盟：各自为战', '逃跑后电脑接替']);
  assert.deepEqual(describeRules({}, 'partner_plays_on', 'six_player'), [], 'a partner plays on only on four seats');
  assert.deepEqual(describeRules({}, 'bot', 'two_player'), []);
  // Told in the order of RULES §9 whatever the server's (sorted) order; unknown options last.
  assert.deepEqual(describeRules({ zz_new: 1, quiet_plies: 71, landmine: 'both_die', blocked: 'out_at_once' }, 'abort', 'four_player'),
    ['地雷：炸弹雷（同归于尽）', '无子可动立即出局', '71 步无吃子和棋', 'zz_new：1']);
  setLang('en');
  assert.equal(presetLabel(null), 'Custom');
  assert.equal(presetSummary(qq4, 'four_player'),
    'a seat with no legal action is out at once · a draw after 71 plies without an attack · a runaway\'s partner plays on');
  assert.equal(optionPhrase('blocked', 'out_at_once'), 'a seat with no legal action is out at once');
  assert.equal(optionPhrase('landmine', 'both_die'), 'Landmine: both die');
  setLang('zh');
});

test("a table's rules line from its summary; nothing from a server that names no preset", () => {
  setLang('zh');
  assert.deepEqual(tableRules({ board: 'four_player', preset: 'qq', options: { blocked: 'out_at_once', quiet_plies: 71 }, leaver: 'partner_plays_on' }),
    { preset: 'qq', label: '规则：QQ', detail: '无子可动立即出局 · 71 步无吃子和棋 · 逃跑后队友继续' });
  assert.deepEqual(tableRules({ board: 'two_player', preset: 'standard', options: {}, leaver: 'abort' }),
    { preset: 'standard', label: '规则：标准', detail: '' });
  assert.deepEqual(tableRules({ board: 'two_player', preset: null, options: { landmine: 'both_die' }, leaver: 'abort' }),
    { preset: null, label: '规则：自定义', detail: '地雷：炸弹雷（同归于尽）' });
  assert.equal(tableRules({ board: 'two_player', options: {} }), null);
  assert.equal(tableRules(null), null);
  setLang('en');
  assert.equal(tableRules({ board: 'four_player', preset: 'qq', options: {}, leaver: 'abort' }).label, 'Rules: QQ');
  setLang('zh');
});

test('every string the presets build from a name exists in both languages', () => {
  const keys = [
    ...['standard', 'qq', 'taiwan', 'custom'].map((p) => `preset.${p}`),
    ...BLOCKED.flatMap((v) => [`opt.blocked.${v}`, `phrase.blocked.${v}`]),
    ...LEAVERS.flatMap((v) => [`opt.leaver.${v}`, `phrase.leaver.${v}`]),
    ...['standard', 'qq', 'taiwan', 'custom'].map((p) => `help.preset.${p}`),
    'help.rule.blocked', 'help.rule.leaver', 'tip.preset', 'tip.blocked', 'tip.leaver', 'opt.preset', 'opt.blocked', 'opt.leaver',
    'help.presets.title', 'opt.combat.taiwan',
  ];
  for (const k of keys) {
    assert.ok(k in STRINGS.zh, `${k} in Chinese`);
    assert.ok(k in STRINGS.en, `${k} in English`);
  }
  // QQ's rules are listed one per line, the same number in both languages.
  assert.equal(STRINGS.zh['help.preset.qq.items'].split('\n').length, STRINGS.en['help.preset.qq.items'].split('\n').length);
});
