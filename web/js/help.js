// The rules and help page (#/help, #/help/<section>) in the interface language: how to play, the
// pieces and the combat table (drawn from combat.js in the role order of roles.js), pictures of
// the four boards (two, three, four and six seats) drawn by the game's own renderer, the modes,
// the rule presets (规则：标准 / QQ / 自定义, RULES §10.1, with QQ's rules one by one), the house
// rules of the create form (teams, 无子可动 and 逃跑 among them), the table rules and the ranks
// (军衔). Also the explanations the create form shows on its house-rule names (ruleTip), each
// linking to its section here.
import { h, clear, seededRng } from './ui.js';
import { t, getLang } from './i18n.js';
import { ROLES, COUNTS, rank, roleName } from './roles.js';
import { combat, ATTACKERS } from './combat.js';
import { BoardView } from './render.js';
import { topology, BOARDS } from './board.js';
import { randomCells } from './deploy.js';
import { TITLES } from './leaderboard.js';

/**
 * The house rules of the create form, with their values (RULES §9, §10), in the form's order.
 * The first value is the default, unless a third entry says which value is whose default (the
 * key of its note): `blocked` has one default on two seats and another on more.
 */
export const HOUSE_RULES = [
  ['landmine', ['attacker_dies', 'both_die']],
  ['middle_crossing', ['rail', 'road']],
  ['rail_turns', ['straight', 'any']],
  ['win_by_flag', ['capture', 'carry_home']],
  ['engineer_scout', ['no', 'yes']],
  ['bomb_flies', ['no', 'yes']],
  ['blocked', ['lose', 'skip', 'out_at_once'], { lose: 'help.default.two', skip: 'help.default.multi' }],
  ['teams', ['alternate', 'opposite', 'none']],
  ['leaver', ['abort', 'bot', 'partner_plays_on']],
];

/** The presets the page explains, in the order of RULES §10.1. */
const PRESETS = ['standard', 'qq', 'taiwan', 'custom'];

/** The pieces with a special power, explained in the pieces table. */
const PIECE_NOTES = ['marshal', 'engineer', 'bomb', 'landmine', 'flag'];

/** The page's sections, in order: id (for #/help/<id>) and title key. */
const SECTIONS = ['play', 'pieces', 'combat', 'boards', 'modes', 'presets', 'rules', 'table', 'ranks'];

/** The open tip (one at a time). */
let openTip = null;

function closeTip() {
  if (!openTip) return;
  openTip.classList.remove('open');
  openTip.querySelector('.tip-body').hidden = true;
  openTip = null;
}

/** Keep an open tip's box inside the window (a phone is narrower than the box's natural place). */
function place(tip) {
  const body = tip.querySelector('.tip-body');
  body.style.left = '0px';
  const r = body.getBoundingClientRect();
  const over = r.right - (document.documentElement.clientWidth - 8);
  if (over > 0) body.style.left = `${-Math.min(over, r.left - 8)}px`;
}

function open(tip, pinned) {
  if (openTip && openTip !== tip) closeTip();
  tip.classList.add('open');
  tip.classList.toggle('pinned', !!pinned);
  tip.querySelector('.tip-body').hidden = false;
  openTip = tip;
  place(tip);
}

// A tap or click outside an open tip closes it.
if (globalThis.document) {
  document.addEventListener('click', (e) => {
    if (openTip && !openTip.contains(e.target)) closeTip();
  });
}

/**
 * A house rule's name that explains itself: hovering or focusing shows a short explanation, a
 * tap (or click) pins it open; the explanation links to the rule's section of the help page.
 */
export function ruleTip(name) {
  const body = h('span', { class: 'tip-body', role: 'tooltip', id: `tip-${name}`, hidden: true },
    h('span', { class: 'tip-text' }, t(`tip.${name}`)), ' ',
    h('a', { href: `#/help/rule-${name}`, class: 'tip-more' }, t('lobby.ruleHelp')));
  const tip = h('span', { class: 'rule-tip', 'data-tip': name },
    h('span', { class: 'rule-name', tabindex: 0, role: 'button', 'aria-describedby': `tip-${name}` }, t(`opt.${name}`)),
    body);
  const nameEl = tip.firstChild;
  tip.addEventListener('mouseenter', () => { if (!tip.classList.contains('pinned')) open(tip, false); });
  tip.addEventListener('mouseleave', () => { if (!tip.classList.contains('pinned')) closeTip(); });
  nameEl.addEventListener('focus', () => open(tip, tip.classList.contains('pinned')));
  nameEl.addEventListener('click', (e) => {
    e.preventDefault();
    if (tip.classList.contains('open') && tip.classList.contains('pinned')) closeTip();
    else open(tip, true);
  });
  // Moving the focus out of the tip (Tab) closes it; moving it to the tip's own link does not.
  tip.addEventListener('focusout', (e) => {
    if (openTip === tip && !tip.contains(e.relatedTarget)) closeTip();
  });
  nameEl.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') closeTip();
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); open(tip, true); }
  });
  return tip;
}


/** A board with a legal random layout for every seat; seat 0's pieces shown, the others hidden. */
export function drawSampleBoard(container, board) {
  const topo = topology(board);
  const rng = seededRng(42);
  const pieces = [];
  for (let seat = 0; seat < topo.seats; seat++) {
    const cells = randomCells(rng);
    for (let r = 0; r < 6; r++) for (let c = 0; c < 5; c++) {
      if (cells[r][c]) pieces.push({ at: topo.localSquare(seat, r, c), seat, role: seat === 0 ? cells[r][c] : null });
    }
  }
  const view = new BoardView(container, { board, viewer: 0, onClick: () => {} });
  view.update({ pieces });
  return view;
}

/** The combat table: a row per attacker, a column per defender, the result as the board's badge. */
function combatTable(options = {}) {
  const lang = getLang();
  const head = h('tr', {}, h('th', { class: 'corner' }, t('help.combat.corner')),
    ROLES.map((d) => h('th', { scope: 'col', 'data-defender': d }, roleName(d, lang, true))));
  const rows = ATTACKERS.map((a) => h('tr', { 'data-attacker': a },
    h('th', { scope: 'row' }, roleName(a, lang, true)),
    ROLES.map((d) => {
      const r = combat(a, d, options);
      return h('td', { class: `res res-${r}`, 'data-result': r, title: t(`res.${r}`) }, t(`badge.${r}`));
    })));
  return h('div', { class: 'scroll-x' }, h('table', { class: 'combat', id: 'combat-table' }, h('thead', {}, head), h('tbody', {}, rows)));
}

function piecesTable() {
  const lang = getLang();
  return h('div', { class: 'scroll-x' }, h('table', { class: 'tables pieces', id: 'pieces-table' },
    h('thead', {}, h('tr', {}, h('th', {}, t('help.pieces.piece')), h('th', {}, t('help.pieces.count')),
      h('th', {}, t('help.pieces.strength')), h('th', {}, t('help.pieces.note')))),
    h('tbody', {}, ROLES.map((r) => h('tr', { 'data-role': r },
      h('td', {}, roleName(r, lang), lang === 'zh' ? h('span', { class: 'muted small' }, ` ${roleName(r, 'en')}`) : h('span', { class: 'muted small' }, ` ${roleName(r, 'zh')}`)),
      h('td', { class: 'num' }, COUNTS[r]),
      h('td', { class: 'num' }, rank(r) ?? '—'),
      h('td', { class: 'small' }, PIECE_NOTES.includes(r) ? t(`help.piece.${r}`) : ''))))));
}

function ranksTable() {
  const lang = getLang();
  return h('table', { class: 'tables ranks', id: 'ranks-table' },
    h('thead', {}, h('tr', {}, h('th', {}, t('lb.title')), h('th', {}, t('help.ranks.from')))),
    h('tbody', {}, TITLES.map(([code, min]) => h('tr', { 'data-title': code },
      h('td', {}, h('span', { class: `title-badge title-${code}` }, roleName(code, lang))),
      h('td', { class: 'num' }, Number.isFinite(min) ? t('help.ranks.atLeast', { n: min }) : t('help.ranks.below', { n: TITLES[TITLES.length - 2][1] }))))));
}

function paras(key) {
  return t(key).split('\n').map((p) => h('p', {}, p));
}

export class HelpView {
  /** `section`: a section id or `rule-<option>` to scroll to. */
  constructor(root, section) {
    this.root = root;
    this.section = section || null;
    this.build();
    // A new page starts at its top (the router keeps the window's scroll between pages).
    if (!this.section) window.scrollTo(0, 0);
  }
  relabel() { this.build(); }
  build() {
    const sec = (id, ...body) => h('section', { class: 'card help-section', id: `help-${id}` }, h('h2', {}, t(`help.${id}.title`)), ...body);
    const toc = h('nav', { class: 'card help-toc', id: 'help-toc' }, h('strong', {}, t('help.toc')), ' ',
      SECTIONS.map((s) => h('a', { href: `#/help/${s}`, 'data-section': s }, t(`help.${s}.title`))));
    const boards = h('div', { class: 'help-boards' },
      BOARDS.map((b) => h('figure', { class: 'help-board', 'data-board': b },
        h('div', { class: `board-wrap help-board-wrap${b === 'two_player' ? '' : ' multi'}${b === 'four_player' ? ' four' : ''}`, id: `help-board-${b}` }),
        h('figcaption', {}, t(`help.boards.${b}`)))));
    const defaultNote = (v, values, notes) => {
      const key = notes ? notes[v] : v === values[0] ? 'help.default' : null;
      return key ? h('span', { class: 'muted' }, ` (${t(key)})`) : null;
    };
    const rules = HOUSE_RULES.map(([name, values, notes]) => h('div', { class: 'help-rule', id: `help-rule-${name}` },
      h('h3', {}, t(`opt.${name}`)),
      h('p', {}, t(`help.rule.${name}`)),
      h('ul', { class: 'small' }, values.map((v) => h('li', { 'data-value': v }, h('strong', {}, v === 'yes' || v === 'no' ? t(v) : t(`opt.${name}.${v}`)),
        defaultNote(v, values, notes))))));
    // The presets: what each is, QQ's rules one by one. The create form's 规则 tip links here.
    const presets = h('div', { class: 'help-rule', id: 'help-rule-preset' },
      h('p', {}, t('help.presets.intro')),
      h('dl', {}, PRESETS.map((p) => [
        h('dt', { 'data-preset': p }, t(`preset.${p}`)),
        h('dd', {}, t(`help.preset.${p}`),
          p === 'qq' ? [h('ul', { class: 'qq-rules', id: 'help-qq-rules' }, t('help.preset.qq.items').split('\n').map((x) => h('li', {}, x))),
            h('p', { class: 'small muted' }, t('help.preset.qqTwo'))] : null)])));
    clear(this.root).append(h('div', { class: 'help-page', id: 'help' },
      h('h1', { class: 'page-title' }, t('help.heading')),
      toc,
      sec('play', ...paras('help.play.body')),
      sec('pieces', piecesTable()),
      sec('combat', h('p', {}, t('help.combat.intro')), combatTable(),
        h('p', { class: 'small legend' }, ['attacker_wins', 'defender_wins', 'both_removed', 'flag_captured']
          .map((r) => h('span', { class: `res res-${r}` }, `${t(`badge.${r}`)} ${t(`res.${r}`)}`))),
        ...paras('help.combat.notes')),
      sec('boards', ...paras('help.boards.body'), boards),
      sec('modes', h('dl', {}, ['dark', 'open', 'flip', 'half_open'].map((m) => [h('dt', {}, t(`mode.${m}`)), h('dd', {}, t(`help.mode.${m}`))]))),
      sec('presets', presets),
      sec('rules', h('p', {}, t('help.rules.intro')), rules),
      sec('table', ...paras('help.table.body')),
      sec('ranks', h('p', {}, t('help.ranks.intro')), ranksTable(), h('p', { class: 'small muted' }, t('help.ranks.note'))),
    ));
    for (const b of BOARDS) drawSampleBoard(this.root.querySelector(`#help-board-${b}`), b);
    if (this.section) {
      const target = this.root.querySelector(`#help-${CSS.escape(this.section)}`);
      if (target) {
        target.classList.add('highlight');
        requestAnimationFrame(() => target.scrollIntoView({ block: 'start' }));
      }
    }
  }
}
