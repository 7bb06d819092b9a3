// Chat and quick phrases (快捷语) at a table: a collapsible box under the side panel. Seated
// people send free text (at most 200 characters) or a quick phrase by id (the words are the
// client's, in the interface language); spectators read. A player can be muted: their messages
// are hidden, and the choice is remembered in localStorage (by player id). The box is hidden
// where the server says chat is off (a game against the computer).
import { h, clear } from './ui.js';
import { t } from './i18n.js';

/** The quick phrases the server knows (docs/server-protocol.md, `chat`), in button order. */
export const PHRASES = ['hello', 'good_move', 'hurry', 'thanks', 'sorry', 'oops', 'wait', 'well_played', 'gg', 'bye'];
/** The most characters of a message (the server's limit). */
export const MAX_CHARS = 200;
const MUTED = 'junqi.chatMuted';

/** The muted player ids (localStorage). */
export function mutedPlayers() {
  try {
    const v = JSON.parse(localStorage.getItem(MUTED) || '[]');
    return new Set(Array.isArray(v) ? v : []);
  } catch { return new Set(); }
}

function saveMuted(set) {
  try { localStorage.setItem(MUTED, JSON.stringify([...set])); } catch { /* private mode */ }
}

export class ChatBox {
  /** `table` is the TableView: its socket sends, its state says who is seated. */
  constructor(table) {
    this.table = table;
    this.on = null; // unknown until the server says
    this.messages = [];
    this.muted = mutedPlayers();
    this.list = h('ol', { class: 'chat-log', id: 'chat-log', 'aria-live': 'polite' });
    this.input = h('input', { type: 'text', id: 'chat-input', maxlength: MAX_CHARS, autocomplete: 'off' });
    this.body = h('div', { class: 'chat-body' });
    this.summary = h('summary', { id: 'chat-toggle' });
    this.el = h('details', { class: 'card chat', id: 'chat', open: true, hidden: true }, this.summary, this.body);
  }

  onFrame(f) {
    switch (f.type) {
      case 'welcome':
      case 'table':
        if (typeof f.chat === 'boolean') this.on = f.chat;
        break;
      case 'chat':
        this.messages.push(f);
        if (this.messages.length > 100) this.messages.shift();
        break;
      case 'chat_history':
        this.messages = Array.isArray(f.messages) ? f.messages.slice() : [];
        break;
      default:
        return;
    }
    this.render();
  }

  /** Seated people (not me), who can be muted. */
  others() {
    const s = this.table.s;
    return (s.table?.seats || []).filter((x, i) => x.kind === 'human' && x.player && i !== s.seat);
  }

  toggleMute(id) {
    if (this.muted.has(id)) this.muted.delete(id);
    else this.muted.add(id);
    saveMuted(this.muted);
    this.render();
  }

  send(frame) {
    this.table.sock.send({ type: 'chat', ...frame });
  }

  /** The parts that do not change with each message (the input keeps its focus and text). */
  build() {
    this.phrases = h('div', { class: 'phrases', id: 'chat-phrases' });
    this.form = h('form', {
      class: 'row chat-form', id: 'chat-form',
      onsubmit: (e) => {
        e.preventDefault();
        const text = this.input.value.trim();
        if (!text) return;
        this.send({ text });
        this.input.value = '';
      },
    }, this.input, this.sendBtn = h('button', { type: 'submit', id: 'chat-send' }));
    this.mutedCount = h('div', { class: 'muted', id: 'chat-muted-count' });
    this.spectator = h('div', { class: 'muted', id: 'chat-spectator' });
    this.mutes = h('div', { class: 'row chat-mutes', id: 'chat-mutes' });
    this.body.append(this.list, this.mutedCount, this.spectator, this.phrases, this.form, this.mutes);
    this.labels();
  }

  /** The words of the fixed parts, in the interface language. */
  labels() {
    if (!this.phrases) return;
    this.summary.textContent = t('chat.title');
    this.input.placeholder = t('chat.placeholder');
    this.sendBtn.textContent = t('chat.send');
    this.spectator.textContent = t('chat.spectator');
    this.phrases.setAttribute('aria-label', t('chat.phrases'));
    clear(this.phrases).append(...PHRASES.map((p) => h('button', { type: 'button', 'data-phrase': p, onclick: () => this.send({ phrase: p }) }, t(`chat.phrase.${p}`))));
  }

  relabel() {
    this.labels();
    this.render();
  }

  render() {
    const s = this.table.s;
    this.el.hidden = this.on !== true;
    if (this.el.hidden) return;
    if (!this.phrases) this.build();
    const shown = this.messages.filter((m) => !this.muted.has(m.player?.id));
    const hiddenN = this.messages.length - shown.length;
    clear(this.list).append(...shown.map((m) => h('li', {
      class: m.seat === s.seat && s.seat !== null ? 'mine' : '', 'data-seat': m.seat ?? '', 'data-player': m.player?.id || '',
    }, h('strong', {}, `${m.player?.name ?? '?'}：`),
    m.phrase ? h('span', { class: 'phrase', 'data-phrase': m.phrase }, t(`chat.phrase.${m.phrase}`)) : m.text)));
    this.list.scrollTop = this.list.scrollHeight;
    this.mutedCount.hidden = !hiddenN;
    this.mutedCount.textContent = hiddenN ? t('chat.mutedCount', { n: hiddenN }) : '';
    const seated = s.seat !== null;
    this.spectator.hidden = seated;
    this.phrases.hidden = !seated;
    this.form.hidden = !seated;
    const others = this.others();
    this.mutes.hidden = !others.length;
    clear(this.mutes).append(...others.map((x) => {
      const muted = this.muted.has(x.player.id);
      return h('button', {
        type: 'button', class: muted ? 'muted-on' : '', 'data-mute': x.player.id, 'aria-pressed': muted ? 'true' : 'false',
        onclick: () => this.toggleMute(x.player.id),
      }, t(muted ? 'chat.unmute' : 'chat.mute', { name: x.name }));
    }));
  }
}
