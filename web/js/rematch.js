// 再来一局 (rematch) and 换对手 (a new opponent) on the game-over panel. A rematch is the same
// players at a new table with colours swapped: each person asks, the server makes the table when
// everyone has, and sends each person their new seat token (`rematch_ready`); this client then
// goes there. 换对手 starts a new game with the same settings: against the computer a new
// /api/play-computer game with the same board, mode, options, clocks and strength; between
// people a new open table of the same settings, whose code can be shared or found in the lobby.
import { h } from './ui.js';
import { t, seatName } from './i18n.js';
import { api, saveSeatToken } from './api.js';
import { serverMessage } from './errors.js';

/** The body of a new game with the settings of a table summary (`GET /api/tables/{id}`). */
export function sameSettings(table) {
  const body = { board: table.board, mode: table.mode };
  if (table.options && typeof table.options === 'object') body.options = table.options;
  for (const k of ['move_seconds', 'deploy_seconds', 'resign_after_seconds']) {
    if (typeof table[k] === 'number') body[k] = table[k];
  }
  return body;
}

/** Every other seat is a bot: a game against the computer. */
export function againstComputer(table, seat) {
  const seats = table?.seats || [];
  return seats.length > 0 && seats.every((x, i) => (i === seat ? x.kind === 'human' : x.kind === 'bot'));
}

export class RematchPanel {
  constructor(table) {
    this.table = table;
    this.asked = [];
    this.ready = null;
    this.busy = false;
  }

  onFrame(f) {
    const me = this.table.s.seat;
    if (f.type === 'rematch') this.asked = f.asked || [];
    if (f.type === 'table' && f.rematch) this.asked = f.rematch.asked || [];
    if (f.type === 'rematch_ready') {
      this.ready = f;
      if (f.token) saveSeatToken(f.table, f.token);
      // A person who asked goes to the new table; anyone else gets a link.
      if (f.token && me !== null && this.asked.includes(me)) location.hash = `#/table/${f.table}`;
    }
  }

  /** The buttons of the game-over panel. */
  controls() {
    const s = this.table.s;
    const board = this.table.board;
    if (s.status !== 'over') return [];
    const out = [];
    if (this.ready && !(s.seat !== null && this.asked.includes(s.seat))) {
      out.push(h('a', { href: `#/table/${this.ready.table}`, id: 'link-rematch' }, h('button', {}, t('rematch.go'))));
    }
    if (s.seat === null) return out;
    const mine = this.asked.includes(s.seat);
    const others = this.asked.filter((x) => x !== s.seat && s.table?.seats?.[x]?.kind === 'human');
    if (others.length && !mine) {
      out.push(h('div', { class: 'notice', id: 'rematch-offer' }, t('rematch.offered', { seat: others.map((x) => seatName(board, x)).join('、') })));
    }
    if (mine && !this.ready) out.push(h('div', { class: 'muted', id: 'rematch-waiting' }, t('rematch.waiting')));
    out.push(h('div', { class: 'buttons' },
      h('button', { class: 'primary', id: 'btn-rematch', disabled: mine || !!this.ready, onclick: () => this.table.sock.send({ type: 'rematch' }) },
        others.length && !mine ? t('rematch.accept') : t('rematch.ask')),
      h('button', { id: 'btn-new-opponent', disabled: this.busy, onclick: () => this.newOpponent() }, t('rematch.newOpponent'))));
    return out;
  }

  /** 换对手: the same settings against a new opponent. */
  async newOpponent() {
    const s = this.table.s;
    if (!s.table || this.busy) return;
    this.busy = true;
    try {
      const body = sameSettings(s.table);
      let r;
      if (againstComputer(s.table, s.seat)) {
        const bot = String(s.table.seats.find((x) => x.kind === 'bot')?.name || '').replace(/^bot:/, '');
        if (bot) body.bot = bot;
        body.seat = s.seat ?? 0;
        r = await api('POST', '/api/play-computer', body);
      } else {
        body.private = !!s.table.private;
        if (s.table.name) body.name = s.table.name;
        r = await api('POST', '/api/tables', body);
      }
      saveSeatToken(r.table.id, r.token);
      location.hash = `#/table/${r.table.id}`;
    } catch (e) {
      this.table.showMessage(serverMessage(e, { board: this.table.board }), 'error');
    } finally {
      this.busy = false;
    }
  }
}
