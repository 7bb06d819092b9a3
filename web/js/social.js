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

  renderNotice() {
    const show = this.paused && this.table.s.status !== 'over';
    this.notice.hidden = !show;
    clear(this.notice);
    if (show) {
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
