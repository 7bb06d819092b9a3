// The lobby (#/): play the computer in one click (board — two, three, four or six seats — mode,
// rules preset, strength and move clock, the last choice remembered), join by code, the table
// list (a table whose rules are not 标准 tagged QQ, 台湾 or 自定义), recent games and the create
// form (board, mode, 规则：标准 / QQ / 自定义, teams, seat, house rules, what leaving does on four
// seats; the house-rule names explain themselves on hover or tap). Boards the server does not
// list in GET /api/info are shown but not offered. 陆海空三军棋 (land_sea_air) has its own 人机对战
// button and a piece-set choice (标准 / 台湾), and is a board of the create form. Messages are
// toasts (toast.js), so an old error never pushes the page down. The presets themselves (what
// each sets, a create request's rule fields, rules in words) are presets.js's.
import { h, clear } from './ui.js';
import { t } from './i18n.js';
import { api, saveSeatToken, ApiError } from './api.js';
import { serverMessage } from './errors.js';
import { playerLink, seatLinkKey, linkKey, displayName } from './player.js';
import { toast, dismissToast } from './toast.js';
import { ruleTip } from './help.js';
import {
  CUSTOM, LEAVERS, BLOCKED, presetsOf, presetNames, presetLabel, formDefaults, presetValues,
  createRules, presetSummary, describeRules, leaverKeepsPreset,
} from './presets.js';
// MODES: the modes of each board when the server does not say (GET /api/info "modes").
import { BOARDS, SEATS, TEAMS, MODES } from './board.js';

/** The 人机对战 button of each board (its id is `play-computer-<seats>`, `play-computer-lsa`). */
const PLAY_KEYS = { two_player: 'lobby.play2', three_player: 'lobby.play3', four_player: 'lobby.play4', six_player: 'lobby.play6', land_sea_air: 'lobby.playLsa' };

/** The land-sea-air board: two seats, its piece sets (the option `piece_set`, default first). */
const LSA = 'land_sea_air';
const PIECE_SETS = ['seed', 'taiwan'];
/** Every board a table can be made on: the 军棋 boards, then land-sea-air. */
const TABLE_BOARDS = [...BOARDS, LSA];
const seatsOf = (b) => SEATS[b] || 2;
const playId = (b) => (b === LSA ? 'play-computer-lsa' : `play-computer-${SEATS[b]}`);

/** Boards as a list in words (两人军棋、四国军棋 / two-player and four-player). */
function boardList(boards) {
  return boards.map((b) => t(`lobby.only.${b}`)).join(t('lobby.boardsJoin'));
}

/** Move clocks offered against the computer, in seconds (0: none). The server takes 0–3600. */
export const CLOCKS = [0, 20, 30, 60, 120];

/** Where the last 人机对战 choice is remembered. */
const CHOICE_KEY = 'junqi.vsComputer';

/** The remembered choice: {mode, bot, move_seconds, teams} (anything unreadable gives {}). */
export function loadChoice() {
  try {
    const c = JSON.parse(globalThis.localStorage?.getItem(CHOICE_KEY) || '{}');
    return c && typeof c === 'object' ? c : {};
  } catch {
    return {};
  }
}
function saveChoice(c) {
  try { globalThis.localStorage?.setItem(CHOICE_KEY, JSON.stringify(c)); } catch { /* no storage */ }
}

/** A bot's name in words (`heuristic` → 普通), or the name itself when the client has none. */
function botLabel(b) {
  const k = `bot.${b}`;
  const s = t(k);
  return s === k ? b : s;
}

/** The create form's house rules with a choice of values (`only`: the one board that has it). */
const OPTION_CHOICES = [
  ['landmine', ['attacker_dies', 'both_die']],
  ['middle_crossing', ['rail', 'road'], 'two_player'],
  ['rail_turns', ['straight', 'any']],
  ['win_by_flag', ['capture', 'carry_home']],
];
const OPTION_BOOLS = ['engineer_scout', 'bomb_flies'];

/**
 * A small tag beside a listed table's board naming its rules when they are not 标准 (QQ, 台湾,
 * 自定义); nothing for 标准, the usual case, or for a server that does not name presets.
 */
function presetTag(tb) {
  if (!('preset' in tb) || tb.preset === 'standard') return null;
  return h('span', { class: 'preset-tag', 'data-preset': tb.preset ?? CUSTOM, title: t('table.rules', { preset: presetLabel(tb.preset) }) },
    presetLabel(tb.preset));
}

export class Lobby {
  /** `info` is GET /api/info (bots, default bot, modes, defaults). */
  constructor(root, { info } = {}) {
    this.root = root;
    this.info = info || {};
    this.build();
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 5000);
  }
  destroy() {
    clearInterval(this.timer);
    dismissToast();
  }
  relabel() {
    this.build();
    this.refresh();
  }
  fail(e) {
    const msg = e instanceof ApiError ? serverMessage(e) : e.message || String(e);
    this.say(t('error', { msg }), 'error');
  }
  /** A passing message (a toast; the element keeps the id `lobby-message`). */
  say(text, kind) {
    toast(text, kind, { id: 'lobby-message' });
  }

  // -------------------------------------------------------------------------------------------
  // 人机对战

  /** The modes a board offers, as the server says. */
  modesOf(board) {
    return this.info.modes?.[board] || MODES[board];
  }
  /** Whether the server plays a board (GET /api/info "boards"; every board when it does not say). */
  served(board) {
    return !Array.isArray(this.info.boards) || this.info.boards.includes(board);
  }
  /** Every mode of any board, in the order the server lists them (暗棋 明棋 翻棋 双明). */
  allModes() {
    const all = [];
    for (const b of BOARDS) for (const m of this.modesOf(b)) if (!all.includes(m)) all.push(m);
    return all;
  }

  /** The panel: mode chips, strength, move clock, and a start button per board. */
  computerPanel() {
    const bots = this.info.bots || [];
    const choice = loadChoice();
    const modes = this.allModes();
    const mode = modes.includes(choice.mode) ? choice.mode : 'dark';
    const modeBox = h('div', { class: 'chips', role: 'radiogroup', id: 'pc-modes', 'aria-label': t('lobby.mode') },
      modes.map((m) => h('label', { class: 'chip' },
        h('input', { type: 'radio', name: 'pc-mode', value: m, id: `pc-mode-${m}`, checked: m === mode }),
        h('span', {}, t(`mode.${m}`)))));
    // The playing levels (入门 普通 高手 大师) first; the other bots (for bot authors and the
    // curious: random, the heuristic, the frozen 2026 generation) in their own group.
    const levels = (this.info.levels || []).filter((b) => bots.includes(b));
    const others = bots.filter((b) => !levels.includes(b));
    const options = (list) => list.map((b) => h('option', { value: b }, botLabel(b)));
    this.botSel = bots.length
      ? h('select', { id: 'play-bot', 'aria-label': t('lobby.opponent') },
        ...(levels.length
          ? [h('optgroup', { label: t('lobby.levels'), id: 'play-bot-levels' }, options(levels)),
            h('optgroup', { label: t('lobby.otherBots'), id: 'play-bot-others' }, options(others))]
          : options(bots)))
      : null;
    if (this.botSel) {
      // The remembered strength, else the server's default bot (not the random beginner).
      const def = [choice.bot, this.info.default_bot].find((b) => b && bots.includes(b));
      if (def) this.botSel.value = def;
    }
    // Teams (RULES §7.2) for the boards that have a choice (four and six seats); three-player
    // is always every seat alone, and two-player has no teams.
    const teamChoices = [...new Set(BOARDS.flatMap((b) => (TEAMS[b].length > 1 ? TEAMS[b] : [])))];
    const teams = teamChoices.includes(choice.teams) ? choice.teams : teamChoices[0];
    this.pcTeamsSel = teamChoices.length
      ? h('select', { id: 'pc-teams', 'aria-label': t('lobby.pcTeams') },
        teamChoices.map((v) => h('option', { value: v }, t(`opt.teams.${v}`))))
      : null;
    if (this.pcTeamsSel) this.pcTeamsSel.value = teams;
    // The rules preset (RULES §10.1): every preset some board has (标准, QQ, 台湾); a board
    // without the chosen one is disabled, as for a mode, and the hint says which boards have it.
    const presetChoices = presetNames(this.info, TABLE_BOARDS.filter((b) => this.served(b)));
    this.pcPresetSel = presetChoices.length > 1
      ? h('select', { id: 'pc-preset', 'aria-label': t('opt.preset') },
        presetChoices.map((p) => h('option', { value: p }, presetLabel(p))))
      : null;
    if (this.pcPresetSel) this.pcPresetSel.value = presetChoices.includes(choice.preset) ? choice.preset : presetChoices[0];
    const presetHint = h('p', { class: 'muted small', id: 'pc-preset-summary', hidden: true });
    const clocks = CLOCKS.includes(Number(choice.move_seconds)) ? Number(choice.move_seconds) : 0;
    this.clockSel = h('select', { id: 'pc-clock', 'aria-label': t('lobby.clock') },
      CLOCKS.map((s) => h('option', { value: s }, s ? t('lobby.clockSeconds', { s }) : t('clock.none'))));
    this.clockSel.value = String(clocks);
    const hint = h('p', { class: 'muted small', id: 'pc-hint' });
    const starts = TABLE_BOARDS.map((b) => h('button', {
      class: 'primary', id: playId(b), 'data-board': b, onclick: () => this.playComputer(b),
    }, t(PLAY_KEYS[b])));
    // The land-sea-air piece set (standard 41 pieces, or the Taiwanese 30).
    this.pieceSetSel = h('select', { id: 'pc-piece-set', 'aria-label': t('opt.piece_set') },
      PIECE_SETS.map((v) => h('option', { value: v }, t(`opt.piece_set.${v}`))));
    this.pieceSetSel.value = PIECE_SETS.includes(choice.piece_set) ? choice.piece_set : PIECE_SETS[0];
    /** The piece set chosen by hand (a preset's own is shown while it is chosen). */
    this.pieceSet = this.pieceSetSel.value;
    // A board the server does not play yet is shown, disabled, and said once.
    const unserved = TABLE_BOARDS.filter((b) => !this.served(b));
    const servedHint = h('p', { class: 'muted small', id: 'pc-served', hidden: !unserved.length },
      unserved.length ? t('lobby.notServed', { boards: boardList(unserved) }) : '');
    // A mode some board lacks (翻棋, 双明) disables that board's button, and says which boards have it.
    // So does a rules preset some board lacks (QQ: two and four seats; 台湾: land-sea-air).
    const sync = () => {
      const m = this.chosenMode();
      TABLE_BOARDS.forEach((b, i) => {
        starts[i].disabled = !this.served(b) || !this.modesOf(b).includes(m) || !this.teamsFit(b, m) || !this.presetFits(b);
      });
      const served = TABLE_BOARDS.filter((b) => this.served(b));
      const having = served.filter((b) => this.modesOf(b).includes(m));
      const withPreset = served.filter((b) => this.presetFits(b));
      const preset = this.pcPresetSel?.value;
      hint.textContent = [
        having.length && having.length < served.length ? t('lobby.modeOnly', { mode: t(`mode.${m}`), boards: boardList(having) }) : '',
        having.some((b) => !this.teamsFit(b, m)) ? t('lobby.pcTeamsHalfOpen') : '',
        withPreset.length < served.length ? t('lobby.presetOnly', { preset: presetLabel(preset), boards: boardList(withPreset) }) : '',
      ].filter(Boolean).join(t('lobby.hintJoin'));
      // What the chosen preset means where it changes anything (QQ on four seats).
      const meaning = preset && preset !== 'standard'
        ? withPreset.map((b) => [b, this.chosenPreset(b)]).filter(([b, p]) => p && describeRules(p.options, p.leaver, b).length)
          .map(([b, p]) => t('lobby.presetRules', { preset: presetLabel(p.name), board: t(`lobby.only.${b}`), rules: presetSummary(p, b) }))
        : [];
      presetHint.textContent = meaning.join(t('lobby.hintJoin'));
      presetHint.hidden = !meaning.length;
      // A preset that sets the land-sea-air piece set (台湾) shows it in the piece-set choice;
      // the person's own choice comes back with another preset.
      const lsaSet = this.chosenPreset(LSA)?.options?.piece_set;
      this.pieceSetSel.value = lsaSet || this.pieceSet;
      this.pieceSetSel.disabled = !!lsaSet;
      this.remember();
    };
    this.modeBox = modeBox;
    modeBox.addEventListener('change', sync);
    this.botSel?.addEventListener('change', () => this.remember());
    this.pcTeamsSel?.addEventListener('change', sync);
    this.pcPresetSel?.addEventListener('change', sync);
    this.clockSel.addEventListener('change', () => this.remember());
    this.pieceSetSel.addEventListener('change', () => {
      this.pieceSet = this.pieceSetSel.value;
      this.remember();
    });
    const panel = h('section', { class: 'card vs-computer', id: 'vs-computer' },
      h('h2', {}, t('lobby.vsComputer')),
      h('div', { class: 'vs-fields' },
        h('div', { class: 'field' }, h('span', { class: 'field-name' }, t('lobby.mode')), modeBox),
        this.pcPresetSel ? h('label', { class: 'field', id: 'pc-preset-field' }, t('opt.preset'), this.pcPresetSel) : null,
        this.botSel ? h('label', { class: 'field' }, t('lobby.opponent'), this.botSel) : null,
        this.pcTeamsSel ? h('label', { class: 'field', id: 'pc-teams-field' }, t('lobby.pcTeams'), this.pcTeamsSel) : null,
        h('label', { class: 'field' }, t('lobby.clock'), this.clockSel),
        h('label', { class: 'field', id: 'pc-piece-set-field' }, `${t('board.land_sea_air')} · ${t('opt.piece_set')}`, this.pieceSetSel)),
      h('div', { class: 'big-buttons' }, ...starts),
      hint, presetHint, servedHint);
    sync();
    return panel;
  }
  chosenMode() {
    return this.modeBox?.querySelector('input[name=pc-mode]:checked')?.value || 'dark';
  }
  /** The chosen teams if `board` takes a choice of them, else null (its only value). */
  chosenTeams(board) {
    const v = this.pcTeamsSel?.value;
    const values = TEAMS[board] || ['none'];
    return v && values.length > 1 && values.includes(v) ? v : null;
  }
  /** The panel's rules preset if `board` has it (from GET /api/info `presets`), else null. */
  chosenPreset(board) {
    const name = this.pcPresetSel?.value;
    return presetsOf(this.info, board).find((p) => p.name === name) || null;
  }
  /** Whether `board` can be played under the panel's preset (标准 always: the defaults). */
  presetFits(board) {
    const name = this.pcPresetSel?.value;
    return !name || name === 'standard' || !!this.chosenPreset(board);
  }
  /** Whether the chosen teams can be played on `board` in mode `m` (half-open needs teams). */
  teamsFit(board, m) {
    return !(m === 'half_open' && this.chosenTeams(board) === 'none');
  }
  remember() {
    saveChoice({
      mode: this.chosenMode(), bot: this.botSel?.value || null, move_seconds: Number(this.clockSel?.value) || 0,
      teams: this.pcTeamsSel?.value || null, piece_set: this.pieceSet || null,
      preset: this.pcPresetSel?.value || null,
    });
  }
  async playComputer(board) {
    const mode = this.chosenMode();
    const body = { board, mode: this.modesOf(board).includes(mode) ? mode : 'dark', move_seconds: Number(this.clockSel?.value) || 0 };
    if (this.botSel && this.botSel.value && this.botFits(board, this.botSel.value)) body.bot = this.botSel.value;
    // 标准 is the defaults: no preset is named, and the table's rules stay as short as they were.
    const preset = this.chosenPreset(board);
    if (preset && preset.name !== 'standard') body.preset = preset.name;
    const options = {};
    if (board === LSA && !preset?.options?.piece_set && this.pieceSet && this.pieceSet !== PIECE_SETS[0]) {
      options.piece_set = this.pieceSet;
    }
    const teams = this.chosenTeams(board);
    // The board's default needs no option.
    if (teams && teams !== TEAMS[board][0]) options.teams = teams;
    if (Object.keys(options).length) body.options = options;
    this.remember();
    try {
      const r = await api('POST', '/api/play-computer', body);
      saveSeatToken(r.table.id, r.token);
      location.hash = `#/table/${r.table.id}`;
    } catch (e) {
      this.fail(e);
    }
  }

  /**
   * Whether a bot plays `board`: the levels play every board; a board with its own players
   * (GET /api/info `bots_of`: land-sea-air's random, heuristic, search) takes only those, so a
   * 军棋-only bot is left out and the server picks its default.
   */
  botFits(board, bot) {
    const own = this.info.bots_of?.[board];
    return !Array.isArray(own) || own.includes(bot) || (this.info.levels || []).includes(bot);
  }

  /** The bot of the create form's bot seats: the chosen strength if it plays `board`. */
  tableBot(board) {
    const v = this.botSel?.value || (this.info.bots || ['random'])[0];
    return this.botFits(board, v) ? v : 'random';
  }

  // -------------------------------------------------------------------------------------------
  // Join by code

  joinCard() {
    const codeIn = h('input', { type: 'text', id: 'join-code', placeholder: t('lobby.joinCode'), maxlength: 12, size: 10 });
    const join = () => {
      const code = codeIn.value.trim();
      // An empty code replaces whatever was said before: the old error would be about another code.
      if (!code) {
        this.say(t('lobby.codeEmpty'), 'error');
        codeIn.focus();
        return;
      }
      dismissToast();
      location.hash = `#/join/${code.toUpperCase()}`;
    };
    codeIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') join(); });
    return h('div', { class: 'card' }, h('div', { class: 'row' }, codeIn, h('button', { id: 'join-btn', onclick: join }, t('lobby.join'))));
  }

  // -------------------------------------------------------------------------------------------
  // Create a table

  createForm() {
    const info = this.info;
    // Every board; one the server does not play yet is listed but cannot be chosen.
    const boardSel = h('select', { id: 'create-board' },
      TABLE_BOARDS.map((b) => h('option', { value: b, disabled: !this.served(b) }, t(`board.${b}`))));
    const modeSel = h('select', { id: 'create-mode' });
    // 规则：标准 / QQ / 自定义 (RULES §10.1): the presets of the board, as GET /api/info lists them.
    // A preset sets the rule controls below and the leaving rule; a change by hand makes it
    // 自定义. The line under it says what the preset means, including what no control shows
    // (QQ's 71 quiet plies).
    const presetSel = h('select', { id: 'create-preset', 'aria-label': t('opt.preset') });
    const presetSummaryEl = h('p', { class: 'muted small preset-summary', id: 'create-preset-summary' });
    const presetField = h('div', { class: 'field', id: 'create-preset-field' }, ruleTip('preset'), presetSel, presetSummaryEl);
    // Teams (RULES §7.2) on the boards that have a choice: four and six seats.
    const teamsSel = h('select', { id: 'create-teams', 'data-opt': 'teams', 'aria-label': t('opt.teams') });
    const teamsField = h('div', { class: 'field', id: 'create-teams-field' }, ruleTip('teams'), teamsSel);
    const teamsHint = h('p', { class: 'muted small', id: 'create-teams-hint', hidden: true }, t('lobby.halfOpenTeams'));
    // What leaving for good does on four seats (RULES §10): abort, a bot takes the seat, or
    // (QQ) the partner plays on. Offered when the server lists the choice.
    const leavers = Array.isArray(info.leaver) ? LEAVERS.filter((l) => info.leaver.includes(l)) : [];
    const leaverSel = h('select', { id: 'create-leaver', 'data-leaver': 'true', 'aria-label': t('opt.leaver') },
      leavers.map((l) => h('option', { value: l }, t(`opt.leaver.${l}`))));
    const leaverField = h('div', { class: 'field', id: 'create-leaver-field' }, ruleTip('leaver'), leaverSel);
    const leaverShown = (b) => b === 'four_player' && leavers.length > 1;
    // The modes of the board, without half-open when every seat plays alone (RULES §8.2).
    const fillModes = () => {
      const b = boardSel.value;
      const was = modeSel.value;
      const alone = (TEAMS[b] || []).length > 1 && teamsSel.value === 'none';
      const modes = this.modesOf(b).filter((m) => !(alone && m === 'half_open'));
      clear(modeSel).append(...modes.map((m) => h('option', { value: m }, t(`mode.${m}`))));
      if (modes.includes(was)) modeSel.value = was;
      teamsHint.hidden = !(alone && this.modesOf(b).includes('half_open'));
    };
    teamsSel.onchange = fillModes;
    const seatSel = h('select', { id: 'create-seat' });
    const botsBox = h('div', { class: 'row', id: 'create-bots' });
    const optsBox = h('div', { class: 'grid-form', id: 'create-options' });
    // The rule controls' values (booleans as booleans), and setting them.
    const controls = () => [...optsBox.querySelectorAll('select[data-opt]')];
    const values = () => Object.fromEntries(controls().map((s) => [s.dataset.opt, s.dataset.bool ? s.value === 'true' : s.value]));
    const setValues = (v) => {
      for (const s of controls()) if (s.dataset.opt in v) s.value = String(v[s.dataset.opt]);
    };
    const presets = () => presetsOf(info, boardSel.value);
    const chosenPreset = () => presets().find((p) => p.name === presetSel.value) || null;
    // The preset 自定义 was made from (its options no control shows are kept), if any.
    let base = null;
    const showSummary = () => {
      presetSummaryEl.textContent = presetSummary(chosenPreset(), boardSel.value, presetSel.value === CUSTOM ? base : null);
    };
    // Choosing a preset sets every control to its value (the defaults under the preset's options).
    const applyPreset = () => {
      const p = chosenPreset();
      if (p) {
        setValues(presetValues(p, formDefaults(boardSel.value, modeSel.value)));
        if (leaverShown(boardSel.value)) leaverSel.value = p.leaver && leavers.includes(p.leaver) ? p.leaver : 'abort';
        fillModes();
      }
      showSummary();
    };
    // 自定义 chosen from the select starts from the preset that was shown.
    let shown = null;
    presetSel.onfocus = () => { shown = presetSel.value; };
    presetSel.onchange = () => {
      base = presetSel.value === CUSTOM ? (shown !== CUSTOM ? shown : base) : null;
      shown = presetSel.value;
      applyPreset();
    };
    // A rule changed by hand is no preset any more (a bot taking a leaver's seat keeps 标准:
    // the game's rules are the same, as the server names them).
    optsBox.addEventListener('change', (e) => {
      const el = e.target;
      if (!el.matches('select[data-opt], select[data-leaver]') || presetSel.value === CUSTOM) return;
      if (el.dataset.leaver && leaverKeepsPreset(chosenPreset(), el.value)) return;
      base = presetSel.value;
      presetSel.value = CUSTOM;
      shown = CUSTOM;
      showSummary();
    });
    const fill = () => {
      const b = boardSel.value;
      const choices = TEAMS[b];
      clear(teamsSel).append(...choices.map((v) => h('option', { value: v }, t(`opt.teams.${v}`))));
      teamsField.hidden = choices.length < 2;
      fillModes();
      const n = seatsOf(b);
      clear(seatSel).append(...Array.from({ length: n }, (_, s) => h('option', { value: s }, t(`seat.${b}.${s}`))));
      const fillBots = () => {
        clear(botsBox).append(h('span', { class: 'muted' }, `${t('lobby.bots')}:`));
        for (let s = 0; s < n; s++) {
          if (String(s) === seatSel.value) continue;
          botsBox.append(h('label', {}, h('input', { type: 'checkbox', 'data-bot-seat': s }), ` ${t(`seat.${b}.${s}`)}`));
        }
      };
      seatSel.onchange = fillBots;
      fillBots();
      // The board's presets, keeping the one chosen if this board has it too (else 标准).
      const was = presetSel.value;
      const list = presets();
      clear(presetSel).append(...list.map((p) => h('option', { value: p.name }, presetLabel(p.name))),
        h('option', { value: CUSTOM }, presetLabel(CUSTOM)));
      presetSel.value = list.some((p) => p.name === was) ? was : (list[0]?.name ?? CUSTOM);
      // 自定义 keeps its starting preset only where the new board has it.
      if (!list.some((p) => p.name === base)) base = null;
      shown = presetSel.value;
      // A server that lists no presets: the controls alone, as before presets.
      presetField.hidden = !list.length;
      clear(optsBox);
      if (choices.length > 1) optsBox.append(teamsField);
      // The option's name carries its explanation (ruleTip): not inside a <label>, so that a tap
      // on the name opens the explanation instead of the select.
      if (b === LSA) {
        // Land-sea-air takes its own options (LANDSEAAIR §9); the 军棋 house rules are not its.
        optsBox.append(h('div', { class: 'field' }, h('span', { class: 'field-name' }, t('opt.piece_set')),
          h('select', { 'data-opt': 'piece_set', id: 'create-piece-set', 'aria-label': t('opt.piece_set') },
            PIECE_SETS.map((v) => h('option', { value: v }, t(`opt.piece_set.${v}`))))));
      } else {
        for (const [name, values, only] of OPTION_CHOICES) {
          if (only && only !== b) continue;
          optsBox.append(h('div', { class: 'field' }, ruleTip(name),
            h('select', { 'data-opt': name, 'aria-label': t(`opt.${name}`) }, values.map((v) => h('option', { value: v }, t(`opt.${name}.${v}`))))));
        }
        for (const name of OPTION_BOOLS) {
          optsBox.append(h('div', { class: 'field' }, ruleTip(name),
            h('select', { 'data-opt': name, 'data-bool': 'true', 'aria-label': t(`opt.${name}`) }, h('option', { value: 'false' }, t('no')), h('option', { value: 'true' }, t('yes')))));
        }
        // 无子可动: eliminated when its turn comes, skipped, or (QQ) out at once.
        optsBox.append(h('div', { class: 'field' }, ruleTip('blocked'),
          h('select', { 'data-opt': 'blocked', id: 'create-blocked', 'aria-label': t('opt.blocked') },
            BLOCKED.map((v) => h('option', { value: v }, t(`opt.blocked.${v}`))))));
        if (leaverShown(b)) optsBox.append(leaverField);
      }
      // Every control at the defaults, then the preset over them.
      setValues(formDefaults(b, modeSel.value));
      leaverSel.value = 'abort';
      applyPreset();
    };
    boardSel.onchange = fill;
    fill();
    const moveSecs = h('input', { type: 'number', min: 0, max: 600, value: info.defaults?.move_seconds ?? 30, id: 'create-move-seconds' });
    const nameIn = h('input', { type: 'text', id: 'create-name', placeholder: t('lobby.name') });
    const priv = h('input', { type: 'checkbox', id: 'create-private' });
    const create = async () => {
      const b = boardSel.value;
      // With a preset: its name and whatever differs from it; 自定义: the options that differ
      // from the defaults, as before presets (teams among them).
      const rules = createRules({
        presets: presets(), choice: presetSel.value, values: values(), defaults: formDefaults(b, modeSel.value),
        leaver: leaverShown(b) ? leaverSel.value : null, base,
      });
      const bots = [...botsBox.querySelectorAll('[data-bot-seat]')].filter((c) => c.checked)
        .map((c) => ({ seat: Number(c.dataset.botSeat), bot: this.tableBot(b) }));
      const body = {
        board: b, mode: modeSel.value, ...rules, move_seconds: Number(moveSecs.value) || 0,
        seat: Number(seatSel.value), bots, private: priv.checked,
      };
      if (nameIn.value.trim()) body.name = nameIn.value.trim();
      try {
        const r = await api('POST', '/api/tables', body);
        saveSeatToken(r.table.id, r.token);
        location.hash = `#/table/${r.table.id}`;
      } catch (e) {
        this.fail(e);
      }
    };
    return h('details', { class: 'card', id: 'create' },
      h('summary', {}, h('strong', {}, t('lobby.create'))),
      h('div', { class: 'grid-form', style: { marginTop: '0.6rem' } },
        h('label', { class: 'field' }, t('lobby.board'), boardSel),
        h('label', { class: 'field' }, t('lobby.mode'), modeSel),
        h('label', { class: 'field' }, t('lobby.seat'), seatSel),
        h('label', { class: 'field' }, t('lobby.moveSeconds'), moveSecs),
        h('label', { class: 'field' }, t('lobby.name'), nameIn)),
      h('h3', { style: { marginTop: '0.7rem' } }, t('lobby.options'), ' ',
        h('a', { href: '#/help/rules', class: 'small', id: 'create-rules-help' }, t('lobby.ruleHelp'))),
      presetField,
      optsBox,
      teamsHint,
      h('div', { style: { marginTop: '0.6rem' } }, botsBox),
      h('label', { class: 'row', style: { marginTop: '0.5rem' } }, priv, t('lobby.private')),
      h('div', { class: 'buttons', style: { marginTop: '0.6rem' } }, h('button', { class: 'primary', id: 'create-btn', onclick: create }, t('lobby.create'))));
  }

  build() {
    this.tablesEl = h('div', { id: 'tables' });
    this.recentEl = h('div', { id: 'recent-games' });
    clear(this.root).append(h('div', { class: 'lobby' },
      this.computerPanel(),
      this.joinCard(),
      h('div', { class: 'card' }, h('div', { class: 'row', style: { justifyContent: 'space-between' } },
        h('h2', {}, t('lobby.tables')), h('button', { onclick: () => this.refresh() }, t('lobby.refresh'))), this.tablesEl),
      h('div', { class: 'card' }, h('h2', {}, t('lobby.recent')), this.recentEl),
      this.createForm()));
  }

  // -------------------------------------------------------------------------------------------
  // Tables and recent games

  async refresh() {
    let list;
    let lobby;
    try {
      lobby = await api('GET', '/api/tables');
      list = lobby.tables || [];
    } catch (e) {
      this.fail(e);
      return;
    }
    this.showRecent(lobby.recent_games || []);
    if (!list.length) {
      clear(this.tablesEl).append(h('p', { class: 'muted' }, t('lobby.none')));
      return;
    }
    const rows = list.map((tb) => h('tr', { 'data-table': tb.id },
      h('td', {}, tb.name || tb.code),
      h('td', {}, t(`board.${tb.board}`), presetTag(tb)),
      h('td', { class: 'opt' }, t(`mode.${tb.mode}`)),
      h('td', {}, t(`status.${tb.status}`)),
      h('td', { class: 'opt players' }, (tb.seats || []).map((s, i) => [i ? ' · ' : null, s.kind === 'empty' ? '—' : playerLink(s.name, {}, seatLinkKey(s))])),
      h('td', {}, h('a', { href: `#/table/${tb.id}` }, h('button', {}, tb.status === 'waiting' ? t('lobby.open') : t('lobby.watch'))))));
    clear(this.tablesEl).append(h('table', { class: 'tables' },
      h('thead', {}, h('tr', {}, h('th', {}, t('lobby.name')), h('th', {}, t('lobby.board')), h('th', { class: 'opt' }, t('lobby.mode')),
        h('th', {}, t('lobby.status')), h('th', { class: 'opt' }, t('lobby.players')), h('th', {}))),
      h('tbody', {}, rows)));
  }
  /** Finished public games from the server's database, newest first, each with its replay. */
  showRecent(games) {
    if (!games.length) {
      clear(this.recentEl).append(h('p', { class: 'muted' }, t('lobby.recentNone')));
      return;
    }
    const rows = games.map((g) => {
      const ids = g.player_ids || [];
      const players = (g.players || []).map((name, s) => [s ? ' · ' : null, playerLink(name, {}, linkKey(name, ids[s]))]);
      const o = g.outcome || {};
      const result = o.result === 'draw' ? t('result.draw')
        : o.result === 'aborted' || !o.result ? t('result.aborted')
          : `${(o.winners || []).map((s) => displayName(g.players?.[s] || '')).join(' · ')} ${t('lobby.winners')}`;
      return h('tr', { 'data-game': g.id },
        h('td', {}, `${t(`board.${g.board}`)} · ${t(`mode.${g.mode}`)}`),
        h('td', { class: 'players' }, players),
        h('td', {}, result),
        h('td', {}, h('a', { href: `#/replay/${encodeURIComponent(g.id)}`, class: 'replay-link' }, t('player.replay'))));
    });
    clear(this.recentEl).append(h('table', { class: 'tables' }, h('tbody', {}, rows)));
  }
}
