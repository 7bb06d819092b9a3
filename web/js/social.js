// The social side of a table, kept out of table.js: chat (chat.js), rematch and 换对手
// (rematch.js) and the 已暂停 notice of a game against the computer whose player is away. The
// table view calls four hooks: `onFrame(f)` for every frame (before its own handling),
// `overControls()` for the game-over panel, `relabel()` after a language switch, and the
// constructor, which places the chat box under the side panel.
import { h, clear } from './ui.js';
import { t, seatName } from './i18n.js';
import { ChatBox } from './chat.js';
import { RematchPanel } from './rematch.js';

export class Social {
  constructor(table) {
    this.table = table;
    this.chat = new ChatBox(table);
    this.rematch = new RematchPanel(table);
    this.paused = false;
    this.pausedSeat = null;
    this.awayMs = null;
    this.notice = h('div', { id: 'paused', hidden: true });
    table.root.querySelector('.side')?.append(this.chat.el);
    table.statusEl?.after(this.notice);
  }

  onFrame(f) {
    this.chat.onFrame(f);
    this.rematch.onFrame(f);
    if (f.type === 'welcome' && typeof f.away_limit_ms === 'number') this.awayMs = f.away_limit_ms;
    if (f.type === 'welcome') this.watchConnection();
    if (f.type === 'table' && typeof f.paused === 'boolean') {
      this.paused = f.paused;
      if (f.paused) this.pausedSeat = (f.table?.seats || []).findIndex((x) => x.kind === 'human' && x.connected === false);
    }
    if (f.type === 'presence' && typeof f.paused === 'boolean') {
      this.paused = f.paused;
      if (f.paused) { this.pausedSeat = f.seat; this.awayMs = f.return_ms ?? this.awayMs; }
    }
    if (f.type === 'game_over') this.paused = false;
    this.renderNotice();
  }

  /**
   * While this page's own connection is down in a game against the computer, the game is
   * paused for it (the server cannot say so to a page it cannot reach): say so, and for how long.
   */
  watchConnection() {
    const sock = this.table.sock;
    if (!sock || this.watching) return;
    this.watching = true;
    const prev = sock.onState;
    sock.onState = (st) => { prev(st); this.conn = st; this.renderNotice(); };
  }

  renderNotice() {
    const s = this.table.s;
    const selfAway = this.conn === 'reconnecting' && s.status === 'playing' && s.seat !== null && (this.awayMs ?? 0) > 60000;
    const show = (this.paused || selfAway) && s.status !== 'over';
    this.notice.hidden = !show;
    clear(this.notice);
    if (show && selfAway) {
      this.notice.append(h('div', { class: 'notice', id: 'paused-self' }, t('paused.self', { minutes: Math.round(this.awayMs / 60000) })));
    } else if (show) {
      const minutes = Math.round((this.awayMs ?? 1800000) / 60000);
      const seat = this.pausedSeat >= 0 && this.pausedSeat !== null ? seatName(this.table.board, this.pausedSeat) : '';
      this.notice.append(h('div', { class: 'notice', id: 'paused-notice' }, t('paused.notice', { seat, minutes })));
    }
  }

  overControls() {
    return this.rematch.controls();
  }

  relabel() {
    this.chat.relabel();
    this.renderNotice();
  }
}
