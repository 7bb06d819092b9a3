// A player's page (#/player/NAME): Glicko-2 ratings per category with their deviation and rank
// (军衔), and the recent finished games with the result and a link to each replay
// (GET /api/players/{name}).
import { h, clear } from './ui.js';
import { t, seatName, getLang } from './i18n.js';
import { api } from './api.js';
import { serverMessage } from './errors.js';
import { titleBadge } from './leaderboard.js';
import { sameTeam } from './board.js';

/** `two_player/dark` → "两人军棋 · 暗棋". */
export function categoryLabel(category) {
  const [board, mode] = String(category).split('/');
  return `${t(`board.${board}`)} · ${t(`mode.${mode}`)}`;
}

/** The result of a game for the player at `seat`: 'win', 'loss', 'draw' or 'aborted'. */
export function resultFor(outcome, seat) {
  if (!outcome) return 'aborted';
  if (outcome.result === 'draw') return 'draw';
  if (outcome.result === 'aborted') return 'aborted';
  return (outcome.winners || []).includes(seat) ? 'win' : 'loss';
}

/** A link to a player's page (bots included) by name, or by `key` (a guest's id); null names give a dash. */
export function playerLink(name, attrs = {}, key = name) {
  if (!name) return '—';
  return h('a', { href: `#/player/${encodeURIComponent(key)}`, class: 'player-link', ...attrs }, displayName(name));
}

/** How to link a player: by name, except a guest (by id, when the id is known). */
export function linkKey(name, id, guest = null) {
  if (!id) return name;
  if (guest === false) return name;
  if (guest === true) return id;
  return String(id).startsWith('bot:') ? name : id;
}

/** A lobby seat's link key: `seat.player` ({id, name, guest}) when the server sends it. */
export function seatLinkKey(seat) {
  const p = seat?.player;
  return p ? linkKey(seat.name, p.id, !!p.guest) : seat?.name;
}

/** Names as shown: `bot:random` → "电脑 · random". */
export function displayName(name) {
  if (!String(name).startsWith('bot:')) return String(name);
  const bot = String(name).slice(4);
  const label = t(`bot.${bot}`);
  return `${t('seat.bot')} · ${label === `bot.${bot}` ? bot : label}`;
}

function paren(text) {
  return getLang() === 'zh' ? `（${text}）` : ` (${text})`;
}

function fmtTime(ms) {
  if (!ms) return '';
  try {
    return new Date(ms).toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' });
  } catch {
    return new Date(ms).toISOString();
  }
}

export class PlayerView {
  constructor(root, name, { me } = {}) {
    this.root = root;
    this.name = name;
    this.me = me || null;
    clear(root).append(h('div', { class: 'notice', id: 'player-loading' }, t('player.loading')));
    this.load();
  }

  async load() {
    try {
      this.data = await api('GET', `/api/players/${encodeURIComponent(this.name)}`);
      this.error = null;
    } catch (e) {
      this.data = null;
      this.error = e;
    }
    this.build();
  }

  relabel() {
    this.build();
  }

  build() {
    if (!this.data) {
      const e = this.error;
      const text = e && e.status === 404 ? t('player.notFound', { name: this.name }) : t('error', { msg: serverMessage(e) });
      clear(this.root).append(h('div', { class: 'notice error', id: 'player-error' }, text),
        h('a', { href: '#/' }, h('button', {}, t('btn.lobby'))));
      return;
    }
    const d = this.data;
    const p = d.player || {};
    if (!p.guest && p.name && this.name !== p.name && location.hash.startsWith('#/player/')) {
      history.replaceState(null, '', `#/player/${encodeURIComponent(p.name)}`);
      this.name = p.name;
    }
    const isBot = String(p.id || p.name || '').startsWith('bot:');
    const kind = isBot ? t('player.bot') : p.guest ? t('player.guest') : t('player.registered');
    const ratings = d.ratings || [];
    const games = d.recent_games || [];
    const ratingsEl = ratings.length
      ? h('table', { class: 'tables ratings', id: 'ratings' },
        h('thead', {}, h('tr', {}, h('th', {}, t('player.category')), h('th', {}, t('player.rating')),
          h('th', {}, t('player.rd')), h('th', {}, t('lb.title')), h('th', {}, t('player.games')))),
        h('tbody', {}, ratings.map((r) => h('tr', { 'data-category': r.category },
          h('td', {}, categoryLabel(r.category)),
          h('td', { class: 'rating num' }, Math.round(r.rating)),
          h('td', { class: 'rd num' }, `± ${Math.round(r.rd)}`),
          h('td', { class: 'title' }, titleBadge(r.title, r.provisional)),
          h('td', { class: 'num' }, r.games ?? '')))))
      : h('p', { class: 'muted', id: 'no-ratings' }, t('player.noRatings'));
    const gamesEl = games.length
      ? h('table', { class: 'tables games', id: 'games' },
        h('thead', {}, h('tr', {}, h('th', { class: 'opt' }, t('player.when')), h('th', {}, t('player.game')),
          h('th', { class: 'opt' }, t('player.seat')), h('th', {}, t('player.others')), h('th', {}, t('player.result')), h('th', {}))),
        h('tbody', {}, games.map((g) => this.gameRow(g))))
      : h('p', { class: 'muted', id: 'no-games' }, t('player.noGames'));
    clear(this.root).append(h('div', { class: 'player-page' },
      h('div', { class: 'card player' },
        h('h2', { id: 'player-name' }, t('player.title', { name: displayName(p.name || this.name) })),
        h('div', { class: 'muted', id: 'player-kind' }, kind)),
      h('div', { class: 'card' }, h('h3', {}, t('player.ratings')), ratingsEl,
        h('p', { class: 'muted small' }, t('player.ratingsHint'))),
      h('div', { class: 'card' }, h('h3', {}, t('player.recent')), gamesEl),
      h('div', { class: 'buttons' },
        h('button', { id: 'player-refresh', onclick: () => this.load() }, t('lobby.refresh')),
        h('a', { href: '#/' }, h('button', {}, t('btn.lobby'))))));
  }

  gameRow(g) {
    const board = g.board || 'two_player';
    const result = resultFor(g.outcome, g.seat);
    const reason = g.outcome?.reason ? t(`reason.${g.outcome.reason}`) : '';
    // Teammates under the game's `teams` option (RULES §7.2; absent: the board's default).
    const partner = (s) => s !== g.seat && sameTeam(board, g.options?.teams, g.seat, s);
    // Linked by id when the server gives ids (a guest has no page by name).
    const ids = g.player_ids || [];
    const others = (g.players || []).map((name, s) => (s === g.seat ? null : h('span', { class: 'other' },
      playerLink(name, {}, linkKey(name, ids[s])), h('span', { class: 'muted' }, paren(`${seatName(board, s)}${partner(s) ? ` · ${t('player.partner')}` : ''}`)))))
      .filter(Boolean);
    return h('tr', { 'data-game': g.id, 'data-result': result },
      h('td', { class: 'opt' }, fmtTime(g.finished_ms)),
      h('td', {}, `${t(`board.${board}`)} · ${t(`mode.${g.mode}`)}`),
      h('td', { class: 'opt' }, seatName(board, g.seat)),
      h('td', { class: 'others' }, others),
      h('td', { class: `result result-${result}` }, t(`result.${result}`), reason ? h('span', { class: 'muted' }, ` · ${reason}`) : null),
      h('td', {}, h('a', { href: `#/replay/${encodeURIComponent(g.id)}`, class: 'replay-link' }, t('player.replay'))));
  }
}
