// Rule presets (RULES §10.1): 规则：标准 / QQ / 自定义 in the create form and the 人机对战 panel,
// and a table's rules in words (the table's info, the lobby list). A preset is a name for a set
// of rule options and a table rule for leaving; the server lists each board's presets in
// GET /api/info (`presets`) and names the preset a table's resolved rules are (`preset` in the
// table summary, null: 自定义). Pure functions of plain data and the interface strings, so node's
// unit tests can run them.
import { t } from './i18n.js';
import { SEATS, TEAMS } from './board.js';

/** The choice of the 规则 select that is no preset. */
export const CUSTOM = 'custom';
/** What a seat's leaving for good does (RULES §10), as the server spells it. */
export const LEAVERS = ['abort', 'bot', 'partner_plays_on'];
/** The values of the `blocked` option (RULES §9): QQ's `out_at_once` last. */
export const BLOCKED = ['lose', 'skip', 'out_at_once'];

/** A board's presets as the server lists them (`[]` when it lists none: an older server). */
export function presetsOf(info, board) {
  const list = info?.presets?.[board];
  return Array.isArray(list) ? list.filter((p) => p && typeof p.name === 'string') : [];
}

/** Every preset name of some board, in the order the server lists them (standard, qq, taiwan). */
export function presetNames(info, boards) {
  const names = [];
  for (const b of boards) for (const p of presetsOf(info, b)) if (!names.includes(p.name)) names.push(p.name);
  return names;
}

/** A string of the interface, or `fallback` when the client has none for the key. */
function tr(key, args, fallback) {
  const s = t(key, args);
  return s === key ? fallback : s;
}

/** A preset's name in words (标准, QQ, 台湾); null or `custom` is 自定义. */
export function presetLabel(name) {
  if (name === null || name === undefined || name === CUSTOM) return t('preset.custom');
  return tr(`preset.${name}`, {}, String(name));
}

/**
 * The `blocked` default of a board and mode (RULES §9): skipped on the three-, four- and
 * six-player boards, eliminated on two seats and in flip play.
 */
export function blockedDefault(board, mode) {
  return (SEATS[board] || 2) > 2 && mode !== 'flip' ? 'skip' : 'lose';
}

/**
 * The values of the create form's rule controls at the defaults of a board and mode: the house
 * rules of a 军棋 board (`middle_crossing` only on two seats, `teams` where there is a choice),
 * or land-sea-air's piece set. Booleans are booleans.
 */
export function formDefaults(board, mode) {
  if (board === 'land_sea_air') return { piece_set: 'seed' };
  const d = { landmine: 'attacker_dies' };
  if (board === 'two_player') d.middle_crossing = 'rail';
  Object.assign(d, {
    rail_turns: 'straight', win_by_flag: 'capture', engineer_scout: false, bomb_flies: false,
    blocked: blockedDefault(board, mode),
  });
  const teams = TEAMS[board] || [];
  if (teams.length > 1) d.teams = teams[0];
  return d;
}

/** The controls' values under a preset: the defaults with the preset's options over them. */
export function presetValues(preset, defaults) {
  const v = { ...defaults };
  for (const [k, x] of Object.entries(preset?.options || {})) if (k in v) v[k] = x;
  return v;
}

/** The entries of `values` that differ from `base`, as an options object. */
function diff(values, base) {
  const out = {};
  for (const [k, v] of Object.entries(values)) if (v !== base[k]) out[k] = v;
  return out;
}

/**
 * Which leaving rules the server tells apart when it names a table's preset: a bot taking the
 * seat is no rule of the game (nothing is recorded), so it names the same preset as aborting.
 */
export function leaverRule(leaver) {
  return leaver === 'partner_plays_on' ? 'partner_plays_on' : 'abort';
}

/**
 * Whether choosing `leaver` by hand keeps the form's preset: only when the game's rule stays the
 * preset's (a bot instead of aborting keeps 标准; anything but 队友继续 leaves QQ).
 */
export function leaverKeepsPreset(preset, leaver) {
  return !!preset && leaverRule(leaver) === leaverRule(preset.leaver || 'abort');
}

/**
 * The rule fields of a create request (POST /api/tables, /api/play-computer): with a preset
 * chosen, `preset` and only the options (and leaving rule) that differ from it; with 自定义
 * made from a preset (`base`), the same from that preset (the server then names the table
 * 自定义); with 自定义 from nothing, the options that differ from the defaults, as before
 * presets, and the leaving rule when it is not the default. `leaver` is null where the form does
 * not offer the choice.
 */
export function createRules({ presets, choice, values, defaults, leaver = null, base = null }) {
  // 自定义 made from a preset by changing some controls keeps the preset's options that no
  // control shows (QQ's 71 quiet plies): the request names it as the starting point.
  const from = choice === CUSTOM && base ? base : choice;
  const preset = from && from !== CUSTOM ? presets.find((p) => p.name === from) : null;
  if (preset) {
    const out = { preset: preset.name };
    const options = diff(values, presetValues(preset, defaults));
    // 自定义 always sends its options object (empty when the controls came back to the preset's).
    if (Object.keys(options).length || choice === CUSTOM) out.options = options;
    if (leaver && leaver !== (preset.leaver || 'abort')) out.leaver = leaver;
    return out;
  }
  const out = { options: diff(values, defaults) };
  if (leaver && leaver !== 'abort') out.leaver = leaver;
  return out;
}

/** One option's value in words: 无子可动立即出局, 71 步无吃子和棋, 地雷：炸弹雷（同归于尽）. */
export function optionPhrase(name, value) {
  if (name === 'blocked') return tr(`phrase.blocked.${value}`, {}, `${name}: ${value}`);
  if (name === 'quiet_plies' || name === 'max_plies') return t(`phrase.${name}`, { n: value });
  const label = tr(`opt.${name}`, {}, name);
  if (value === true) return label;
  if (value === false) return `${label}${t('phrase.sep')}${t('no')}`;
  return `${label}${t('phrase.sep')}${tr(`opt.${name}.${value}`, {}, String(value))}`;
}

/**
 * Whether a leaving rule says anything on a board: 队友继续 only where a partner can play on
 * (four seats), 电脑接替 on every board of more than two seats; aborting is the rule book's.
 */
function leaverTold(board, leaver) {
  if (leaver === 'partner_plays_on') return board === 'four_player';
  if (leaver === 'bot') return (SEATS[board] || 2) > 2;
  return false;
}

/**
 * The order options are told in: RULES §9's (land-sea-air's piece set and combat first), then
 * any the client does not know, as the server sent them (its JSON objects are sorted by name).
 */
const OPTION_ORDER = [
  'piece_set', 'combat', 'middle_crossing', 'landmine', 'bomb_flies', 'rail_turns', 'hq_exit',
  'reveal_flag_on_marshal_loss', 'engineer_scout', 'win_by_flag', 'blocked', 'turn_order', 'teams',
  'flip_colour', 'losing_attacks', 'flag_guarded_by_mines', 'quiet_plies', 'max_plies',
];
const rank = (name) => {
  const i = OPTION_ORDER.indexOf(name);
  return i < 0 ? OPTION_ORDER.length : i;
};

/**
 * Rules in words: each option that differs from the defaults, then the leaving rule where it
 * says anything. `options` is a preset's or a table's (the server's options that differ).
 */
export function describeRules(options, leaver, board) {
  const parts = Object.entries(options || {}).filter(([k]) => k !== 'preset')
    .sort(([a], [b]) => rank(a) - rank(b)).map(([k, v]) => optionPhrase(k, v));
  if (leaverTold(board, leaver)) parts.push(t(`phrase.leaver.${leaver}`));
  return parts;
}

/**
 * What a preset means on a board, in one line under the 规则 select: its options and leaving
 * rule in words (QQ on four seats: 无子可动立即出局 · 71 步无吃子和棋 · 逃跑后队友继续), 默认规则
 * for 标准, 与标准相同 for a preset that is the defaults on this board (QQ on two seats); for
 * 自定义 made from a preset (`base`), that the rest is that preset's.
 */
export function presetSummary(preset, board, base = null) {
  if (!preset && base && base !== 'standard') return t('preset.summary.customFrom', { preset: presetLabel(base) });
  if (!preset) return t('preset.summary.custom');
  const parts = describeRules(preset.options, preset.leaver, board);
  if (parts.length) return parts.join(t('phrase.join'));
  return preset.name === 'standard' ? t('preset.summary.standard') : t('preset.summary.same');
}

/**
 * A table's rules in words from its summary (`preset`, `options`, `leaver`): 规则：QQ and what
 * its rules say, or null for a server that does not name presets.
 */
export function tableRules(table) {
  if (!table || !('preset' in table)) return null;
  const parts = describeRules(table.options, table.leaver, table.board);
  return {
    preset: table.preset ?? null,
    label: t('table.rules', { preset: presetLabel(table.preset) }),
    detail: parts.join(t('phrase.join')),
  };
}
