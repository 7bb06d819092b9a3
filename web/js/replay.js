// The replay viewer: steps through a finished game's record with every identity shown
// (GET /api/games/{id}/replay gives the referee's position after each entry).
import { h, clear } from './ui.js';
import { t, seatName, getLang } from './i18n.js';
import { api } from './api.js';
import { BoardView, SEAT_COLOURS } from './render.js';
import { roleName } from './roles.js';
import { describeOutcome, lastMoveOf, fallen, entryText } from './events.js';
import { serverMessage } from './errors.js';
import { playerLink, linkKey } from './player.js';
import { topology, movePath, SEATS } from './board.js';
import { glideMs } from './queue.js';
import { LSA_BOARD } from './lsa-board.js';
import { renderLsaDead } from './lsa-table.js';

export class ReplayView {
  constructor(root, gameId) {
    this.root = root;
    this.id = gameId;
    this.i = 0;
    this.timer = null;
    clear(root).append(h('div', { class: 'notice' }, t('table.connecting')));
    this.load();
  }

  destroy() {
    clearInterval(this.timer);
  }

  async load() {
    try {
      this.data = await api('GET', `/api/games/${encodeURIComponent(this.id)}/replay`);
    } catch (e) {
      clear(this.root).append(h('div', { class: 'notice error', id: 'replay-error' }, e.status === 403 ? t('replay.notOver') : t('error', { msg: serverMessage(e) })));
      return;
    }
    this.board = this.data.start?.board || 'two_player';
    this.build();
    this.show(0);
  }

  get total() {
    return this.data.steps.length;
  }

  build() {
    const d = this.data;
    const multi = this.board !== 'two_player';
    this.boardEl = h('div', { class: `board-wrap${multi ? ' multi' : ''}${this.board === 'four_player' ? ' four' : ''}`, id: 'board' });
    this.slider = h('input', { type: 'range', min: 0, max: this.total, value: 0, id: 'replay-slider', 'aria-label': t('replay.title'), oninput: (e) => this.show(Number(e.target.value)) });
    this.counter = h('span', { id: 'replay-counter' });
    this.playBtn = h('button', { id: 'replay-play', onclick: () => this.togglePlay() }, t('replay.play'));
    const controls = h('div', { class: 'replay-controls' },
      h('button', { id: 'replay-first', title: 'first', onclick: () => this.show(0) }, t('replay.first')),
      h('button', { id: 'replay-prev', title: 'previous', onclick: () => this.show(this.i - 1) }, t('replay.prev')),
      h('button', { id: 'replay-next', title: 'next', onclick: () => this.show(this.i + 1) }, t('replay.next')),
      h('button', { id: 'replay-last', title: 'last', onclick: () => this.show(this.total) }, t('replay.last')),
      this.playBtn, this.slider, this.counter);
    this.stepsEl = h('ol', { class: 'steps', id: 'replay-steps' });
    const items = [h('li', { 'data-i': 0, onclick: () => this.show(0) }, `0. ${t('replay.start')}`)];
    d.steps.forEach((st, k) => {
      const words = entryText(st.entry, st.events, this.board) || st.entry;
      items.push(h('li', { 'data-i': k + 1, onclick: () => this.show(k + 1) }, `${k + 1}. ${words}`));
    });
    this.stepsEl.append(...items);
    this.deadEl = h('div', { class: 'card dead', id: 'dead' });
    const players = (d.players || []).map((p, s) => h('div', { class: 'seat-row' },
      h('span', { class: 'dot', style: { background: SEAT_COLOURS[this.board][s] } }),
      h('strong', {}, seatName(this.board, s)), h('span', { class: 'name' }, p ? playerLink(p, {}, linkKey(p, d.player_ids?.[s])) : '')));
    const side = h('div', { class: 'side' },
      h('div', { class: 'card' }, h('h2', {}, t('replay.title')),
        h('div', { class: 'outcome', id: 'outcome' }, describeOutcome(d.outcome, this.board)),
        h('div', { class: 'seats' }, players),
        h('div', { class: 'buttons', style: { marginTop: '0.5rem' } },
          h('a', { href: `/api/games/${this.id}/record`, download: `junqi-${this.id}.txt`, id: 'link-record' }, h('button', {}, t('btn.record'))),
          h('a', { href: '#/' }, h('button', {}, t('btn.lobby'))))),
      h('div', { class: 'card' }, controls),
      this.deadEl,
      h('div', { class: 'card' }, this.stepsEl));
    clear(this.root).append(h('div', { class: 'game replay' }, h('div', {}, this.boardEl), side));
    this.view = new BoardView(this.boardEl, {
      board: this.board,
      middleRail: (this.data.start?.options?.middle_crossing || 'rail') !== 'road',
      viewer: 0,
      seated: false, // the replay is seen from seat 0's side, by nobody in particular
      teams: this.data.start?.options?.teams,
      onClick: () => {},
    });
  }

  relabel() {
    if (!this.data) return;
    const i = this.i;
    this.build();
    this.show(i);
  }

  /**
   * Show the position after step i. One step forward glides the moving piece first (as at the
   * table; the counter and the list move at once); a jump (the slider, first, last, a click on a
   * step) is drawn at once, and so is a step taken while a glide is still going.
   */
  show(i) {
    i = Math.max(0, Math.min(this.total, i));
    const token = (this.token = (this.token || 0) + 1);
    const gliding = !!this.view?.anim;
    if (gliding) {
      this.view.endGlide();
      this.drawBoard(this.i);
    }
    const lm = i === this.i + 1 && !gliding ? lastMoveOf(this.data.steps[i - 1].events) : null;
    const reduce = !!globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    let ms = 0;
    // Land-sea-air moves are drawn at once: planes fly and ships sail off the rails' paths.
    if (lm?.from && this.view && this.board !== LSA_BOARD) {
      const pos = this.positionAt(this.i);
      const occupied = new Set((pos.pieces || []).map((p) => p.at));
      const topo = topology(this.board, (this.data.start?.options?.middle_crossing || 'rail') !== 'road');
      ms = Math.min(500, glideMs(movePath(topo, lm.from, lm.to, (sq) => occupied.has(sq)).length - 1, reduce));
    }
    this.i = i;
    this.drawInfo(i);
    if (ms) {
      this.view.glide(lm.from, lm.to, ms).then(() => { if (this.token === token) this.drawBoard(i); });
    } else {
      this.drawBoard(i);
    }
  }

  positionAt(i) {
    return i === 0 ? this.data.start : this.data.steps[i - 1].position;
  }

  drawBoard(i) {
    const lastMove = i === 0 ? null : lastMoveOf(this.data.steps[i - 1].events);
    this.view.update({ pieces: this.positionAt(i).pieces || [], lastMove, targets: [], selected: null });
  }

  drawInfo(i) {
    const pos = this.positionAt(i);
    this.slider.value = String(i);
    this.counter.textContent = t('replay.step', { n: i, total: this.total });
    for (const li of this.stepsEl.children) li.classList.toggle('current', Number(li.dataset.i) === i);
    const cur = this.stepsEl.querySelector('.current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
    if (this.board === LSA_BOARD) {
      renderLsaDead(clear(this.deadEl), pos);
      if (i === this.total) this.stopPlay();
      return;
    }
    const lang = getLang();
    clear(this.deadEl).append(h('h3', {}, t('dead.title')));
    for (const f of fallen(pos, SEATS[this.board] || 2)) {
      const colour = SEAT_COLOURS[this.board][f.seat] || '#777';
      this.deadEl.append(h('div', { class: 'seat-dead', 'data-seat': f.seat },
        h('strong', {}, `${f.seat === null ? t('dead.total') : seatName(this.board, f.seat)}:`),
        f.known.length ? f.known.map((r) => h('span', { class: 'chip', style: { background: colour } }, roleName(r, lang))) : (f.unknown ? null : h('span', { class: 'muted' }, t('dead.none'))),
        f.unknown ? h('span', { class: 'muted' }, t('dead.unknown', { n: f.unknown })) : null));
    }
    if (i === this.total) this.stopPlay();
  }

  togglePlay() {
    if (this.timer) { this.stopPlay(); return; }
    if (this.i >= this.total) this.show(0);
    this.playBtn.textContent = t('replay.pause');
    this.timer = setInterval(() => this.show(this.i + 1), 700);
  }

  stopPlay() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.playBtn) this.playBtn.textContent = t('replay.play');
  }
}
