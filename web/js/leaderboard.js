// The leaderboard (#/leaderboard/<board>/<mode>): rated players of one board and mode, best
// first, from GET /api/leaderboard, with their ranks (军衔) named by the pieces. Also the ranks
// themselves: TITLES mirrors junqi_server::rating::TITLES (web/tests/unit/ranks.test.mjs checks
// that the two agree), and titleBadge shows one wherever a rating is shown.
import { h, clear } from './ui.js';
import { t, getLang } from './i18n.js';
import { api } from './api.js';
import { roleName } from './roles.js';
import { serverMessage } from './errors.js';
import { playerLink, linkKey } from './player.js';
import { BOARDS, MODES } from './board.js';

/** The ranks, highest first: the role code and the lowest rating that earns it. */
export const TITLES = [
  ['marshal', 2250], ['general', 2100], ['major_general', 1950], ['brigadier', 1800],
  ['colonel', 1650], ['major', 1500], ['captain', 1350], ['lieutenant', 1200],
  ['engineer', -Infinity],
];

const PAGE = 50;

/** A rank by its role code, as the pieces are named (营长 / Major). */
export function titleName(code) {
  return roleName(code, getLang());
}

/** A rank as a small badge; a provisional rating's rank is marked as such. */
export function titleBadge(code, provisional = false) {
  if (!code) return '';
  return h('span', {
    class: `title-badge title-${code}${provisional ? ' provisional' : ''}`, 'data-title': code,
    title: provisional ? t('lb.provisionalHint') : null,
  }, titleName(code), provisional ? h('span', { class: 'prov-mark' }, '?') : null);
}

export class LeaderboardView {
  constructor(root, board, mode, { info } = {}) {
    this.root = root;
    // The server's modes per board, and the rule book's for a board it does not list.
    this.modes = { ...MODES, ...(info?.modes || {}) };
    this.board = BOARDS.includes(board) ? board : 'two_player';
    this.mode = (this.modes[this.board] || []).includes(mode) ? mode : 'dark';
    this.offset = 0;
    this.data = null;
    this.error = null;
    this.boardsServed = Array.isArray(info?.boards) ? info.boards : null;
    this.build();
    this.load();
  }
  relabel() { this.build(); }
  /** Whether the server plays the board shown (a board it does not play has no ratings yet). */
  served() {
    return !this.boardsServed || this.boardsServed.includes(this.board);
  }
  /** Show another board or mode (the URL follows, so it can be shared or reloaded). */
  show(board, mode) {
    this.board = board;
    this.mode = (this.modes[board] || []).includes(mode) ? mode : 'dark';
    this.offset = 0;
    history.replaceState(null, '', `#/leaderboard/${this.board}/${this.mode}`);
    this.build();
    this.load();
  }
  async load() {
    if (!this.served()) {
      this.data = { players: [] };
      this.error = null;
      this.build();
      return;
    }
    const want = `${this.board}/${this.mode}/${this.offset}`;
    this.loading = want;
    try {
      const d = await api('GET', `/api/leaderboard?board=${this.board}&mode=${this.mode}&limit=${PAGE}&offset=${this.offset}`);
      if (this.loading !== want) return; // a later choice already asked
      this.data = d;
      this.error = null;
    } catch (e) {
      if (this.loading !== want) return;
      this.data = null;
      this.error = e;
    }
    this.build();
  }
  tabs() {
    const boardTabs = h('div', { class: 'tabs', role: 'tablist', id: 'lb-boards' }, BOARDS.map((b) => h('button', {
      type: 'button', role: 'tab', 'data-board': b, 'aria-selected': String(b === this.board), class: b === this.board ? 'tab active' : 'tab',
      onclick: () => this.show(b, this.mode),
    }, t(`board.${b}`))));
    const modeTabs = h('div', { class: 'tabs', role: 'tablist', id: 'lb-modes' }, (this.modes[this.board] || []).map((m) => h('button', {
      type: 'button', role: 'tab', 'data-mode': m, 'aria-selected': String(m === this.mode), class: m === this.mode ? 'tab active' : 'tab',
      onclick: () => this.show(this.board, m),
    }, t(`mode.${m}`))));
    return [boardTabs, modeTabs];
  }
  body() {
    if (this.error) return h('div', { class: 'notice error', id: 'lb-error' }, t('error', { msg: serverMessage(this.error) }));
    if (!this.data) return h('p', { class: 'muted', id: 'lb-loading' }, t('player.loading'));
    const players = this.data.players || [];
    if (!players.length) {
      return h('p', { class: 'muted', id: 'lb-empty' }, this.served() ? t('lb.empty') : t('lobby.notServed', { boards: t(`lobby.only.${this.board}`) }));
    }
    const rows = players.map((p) => h('tr', { 'data-player': p.id, 'data-rank': p.rank },
      h('td', { class: 'num rank' }, p.rank),
      h('td', { class: 'name' }, playerLink(p.name, {}, linkKey(p.name, p.id, false))),
      h('td', { class: 'title' }, titleBadge(p.title, p.provisional)),
      h('td', { class: 'num rating' }, Math.round(p.rating), h('span', { class: 'muted small opt' }, ` ±${Math.round(p.rd)}`)),
      h('td', { class: 'num games' }, p.games),
      h('td', { class: 'num opt record' }, `${p.wins} / ${p.losses} / ${p.draws}`)));
    const total = this.data.total || 0;
    const pager = total > PAGE ? h('div', { class: 'row pager' },
      h('button', { id: 'lb-prev', disabled: this.offset === 0, onclick: () => { this.offset = Math.max(0, this.offset - PAGE); this.load(); } }, t('lb.prev')),
      h('span', { class: 'muted' }, t('lb.range', { from: this.offset + 1, to: Math.min(total, this.offset + PAGE), total })),
      h('button', { id: 'lb-next', disabled: this.offset + PAGE >= total, onclick: () => { this.offset += PAGE; this.load(); } }, t('lb.next'))) : null;
    return [h('table', { class: 'tables leaderboard', id: 'leaderboard' },
      h('thead', {}, h('tr', {}, h('th', {}, t('lb.rank')), h('th', {}, t('lb.player')), h('th', {}, t('lb.title')),
        h('th', {}, t('player.rating')), h('th', {}, t('player.games')), h('th', { class: 'opt' }, t('lb.record')))),
      h('tbody', {}, rows)), pager];
  }
  build() {
    clear(this.root).append(h('div', { class: 'leaderboard-page' },
      h('div', { class: 'card' },
        h('h1', { class: 'page-title' }, t('lb.heading')),
        ...this.tabs(),
        this.body(),
        h('p', { class: 'muted small' }, t('lb.hint'), ' ', h('a', { href: '#/help/ranks', id: 'lb-ranks-help' }, t('lb.ranksHelp'))))));
  }
}
