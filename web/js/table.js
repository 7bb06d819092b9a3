// A table: seats and bots, the deployment editor, play (click or drag), announcements, the
// fallen-piece tracker, clocks, skips, resign/draw, spectators, game over and reconnection.
import { h, clear, fmtClock } from './ui.js';
import { t, seatName, getLang } from './i18n.js';
import { api, TableSocket, saveSeatToken, seatToken } from './api.js';
import { BoardView, SEAT_COLOURS } from './render.js';
import { topology, isLocalCamp } from './board.js';
import { roleName } from './roles.js';
import * as D from './deploy.js';
import { describeEntry, describeOutcome, lastMoveOf, fallen } from './events.js';
import { serverMessage, refusalSquares } from './errors.js';
import { seatLinkKey } from './player.js';
import { Social } from './social.js'; // chat, rematch, pause notice (social.js)

/**
 * The badge of a seat from what the server says it is (`kind`, `player.guest`), never from the
 * name: 「电脑」 for a bot, 「游客」 for a guest, none for a registered player or an empty seat.
 */
export function kindBadge(info) {
  if (info?.kind === 'bot') return h('span', { class: 'kind-badge bot', 'data-kind': 'bot' }, t('seat.kind.bot'));
  if (info?.kind === 'human' && info.player?.guest === true) {
    return h('span', { class: 'kind-badge guest', 'data-kind': 'guest' }, t('seat.kind.guest'));
  }
  return null;
}

const LAST_LAYOUT = 'junqi.lastLayout';

function parseAction(a) {
  if (a.startsWith('flip ')) return { flip: a.slice(5) };
  const [from, to] = a.split('-');
  return { from, to };
}

export class TableView {
  constructor(root, tableId, { info } = {}) {
    this.root = root;
    this.id = tableId;
    this.info = info || {};
    this.s = {
      table: null, seat: null, host: false, status: null, deployed: null, drawOffer: null,
      observation: null, clock: null, deploy: null, outcome: null, record: null,
      log: [], lastMove: null, v: null, selected: null, conn: 'connecting',
      cells: null, deploySel: null, submitted: null, message: null, playStart: null,
    };
    this.buildSkeleton();
    this.social = new Social(this); // social.js hook: chat box, rematch, pause notice
    // last_v 0: a game in progress or over is sent as its whole event history (so the log
    // and the last move are complete after a reload); otherwise the server sends a sync.
    this.sock = new TableSocket(tableId, {
      lastV: 0,
      onFrame: (f) => this.onFrame(f),
      onState: (st) => { this.s.conn = st; this.renderStatus(); },
    });
    this.ticker = setInterval(() => this.tick(), 250);
  }

  destroy() {
    clearInterval(this.ticker);
    this.sock.close();
  }

  get board() {
    return this.s.table?.board || this.s.observation?.board || this.s.deploy?.board || null;
  }
  get seats() {
    return this.board === 'four_player' ? 4 : 2;
  }
  get middleRail() {
    return (this.s.observation?.options?.middle_crossing || 'rail') !== 'road';
  }

  buildSkeleton() {
    this.boardEl = h('div', { class: 'board-wrap', id: 'board' });
    this.statusEl = h('div', { class: 'status-line', id: 'status' }, t('table.connecting'));
    this.messageEl = h('div', { id: 'message' });
    this.seatsEl = h('div', { class: 'seats card', id: 'seats' });
    this.controlsEl = h('div', { class: 'card', id: 'controls' });
    this.deployEl = h('div', { class: 'card', id: 'deploy', hidden: true });
    this.deadEl = h('div', { class: 'card dead', id: 'dead' });
    this.logList = h('ol', { class: 'log', id: 'log' });
    this.logEl = h('div', { class: 'card' }, h('h3', {}, t('log.title')), this.logList);
    const side = h('div', { class: 'side' }, this.seatsEl, this.controlsEl, this.deployEl, this.deadEl, this.logEl);
    clear(this.root).append(h('div', { class: 'game' }, h('div', { class: 'board-col' }, this.statusEl, this.messageEl, this.boardEl), side));
  }

  relabel() {
    this.logEl.querySelector('h3').textContent = t('log.title');
    if (this.view) this.view.relabel();
    this.renderAll();
    this.renderDeploy();
    this.renderLogAll();
    this.social.relabel(); // social.js hook
  }

  // ---------------------------------------------------------------------------------------
  // Frames

  onFrame(f) {
    const s = this.s;
    this.social.onFrame(f); // social.js hook
    switch (f.type) {
      case 'welcome':
        s.seat = f.seat ?? null;
        s.host = !!f.host;
        if (f.player) s.player = f.player;
        if (f.token) saveSeatToken(this.id, f.token);
        this.ensureBoard();
        break;
      case 'table':
        s.table = f.table;
        s.status = f.table.status;
        s.deployed = f.deployed || null;
        s.drawOffer = f.draw_offer || null;
        s.clockInfo = f.clock || s.clockInfo;
        // When play began, if the server says so (see the protocol's open questions).
        if (typeof f.clock?.started_ms === 'number') s.playStart = f.clock.started_ms;
        this.ensureBoard();
        break;
      case 'sync':
        s.status = f.status;
        s.v = f.v;
        s.outcome = f.outcome || null;
        if (f.observation) s.observation = f.observation;
        this.setClock(f.clock);
        s.deploy = f.deploy ? { ...f.deploy, at: Date.now() } : null;
        if (f.status === 'playing' && f.v === 0 && !s.playStart) s.playStart = Date.now();
        if (f.status === 'deploying') this.initCells();
        s.selected = null;
        this.ensureBoard();
        this.renderDeploy();
        break;
      case 'events': {
        if (s.v !== null && f.v <= s.v) break;
        s.v = f.v;
        if (!s.playStart && s.status === 'playing') s.playStart = Date.now();
        const lm = lastMoveOf(f.events);
        if (lm) s.lastMove = lm;
        for (const line of describeEntry(f.entry, f.events, this.board)) {
          this.addLog({ v: f.v, ...line });
        }
        if (f.outcome) s.outcome = f.outcome;
        // The observation that follows brings the new legal actions; until then nothing is legal.
        if (s.observation) s.observation = { ...s.observation, legal_actions: [], to_move: f.to_move ?? s.observation.to_move };
        s.selected = null;
        break;
      }
      case 'observation':
        s.observation = f.observation;
        if (s.status === 'deploying' || s.status === 'waiting') s.status = 'playing';
        this.setClock(f.clock);
        s.selected = null;
        this.ensureBoard();
        break;
      case 'clock':
        this.setClock(f);
        break;
      case 'deployed':
        if (s.deployed) s.deployed[f.seat] = true;
        if (f.seat === s.seat) this.renderDeploy();
        break;
      case 'draw_offer':
        s.drawOffer = { by: f.by, accepted: f.accepted || [] };
        this.addLog({ text: t('draw.offered', { seat: seatName(this.board, f.by) }), cls: 'major' });
        break;
      case 'draw_declined':
        s.drawOffer = null;
        this.addLog({ text: t('draw.declined', { seat: seatName(this.board, f.by) }), cls: '' });
        break;
      case 'presence':
        if (s.table?.seats?.[f.seat]) s.table.seats[f.seat].connected = f.connected;
        break;
      case 'game_over':
        s.status = 'over';
        s.outcome = f.outcome;
        s.record = f.record || null;
        if (f.observation) s.observation = f.observation;
        if (typeof f.v === 'number') s.v = Math.max(s.v ?? 0, f.v);
        s.selected = null;
        this.addLog({ text: describeOutcome(f.outcome, this.board, s.seat), cls: 'major' });
        break;
      case 'error':
        this.showMessage(serverMessage(f, { board: this.board }), 'error');
        // The squares the refusal names are outlined while the board is as it was refused.
        s.refused = { squares: refusalSquares(f), layout: this.isDeploying() && s.cells ? D.toText(s.cells) : null, v: s.v ?? null };
        break;
      default:
        break;
    }
    this.renderAll();
  }

  setClock(c) {
    if (!c) return;
    this.s.clock = { to_move: c.to_move, remaining_ms: c.remaining_ms ?? null, move_ms: c.move_ms ?? null, at: Date.now() };
  }

  showMessage(text, kind = '') {
    this.s.message = { text, kind, at: Date.now() };
    this.renderMessage();
  }

  addLog(line) {
    const prev = this.s.log[this.s.log.length - 1];
    line.first = line.v !== undefined && (!prev || prev.v !== line.v);
    this.s.log.push(line);
    this.logList.append(this.logItem(line));
    this.logList.scrollTop = this.logList.scrollHeight;
  }
  logItem(line) {
    return h('li', { class: line.cls || '', 'data-v': line.v ?? '' },
      h('span', { class: 'v' }, line.first ? `${line.v}.` : ''), line.text);
  }
  renderLogAll() {
    // Log lines are stored as text in the language of the moment; rebuild keeps them.
    clear(this.logList).append(...this.s.log.map((l) => this.logItem(l)));
  }

  // ---------------------------------------------------------------------------------------
  // Board

  ensureBoard() {
    const board = this.board;
    if (!board) return;
    const viewer = this.s.seat ?? 0;
    if (!this.view || this.view.opts.board !== board || this.viewMiddle !== this.middleRail) {
      this.boardEl.classList.toggle('four', board === 'four_player');
      this.boardEl.parentNode?.classList.toggle('four', board === 'four_player');
      this.viewMiddle = this.middleRail;
      this.view = new BoardView(this.boardEl, {
        board, middleRail: this.middleRail, viewer,
        onClick: (sq) => this.onSquare(sq),
        onDrag: (a, b) => this.onDrag(a, b),
        onDragStart: (a) => this.onDragStart(a),
        draggable: (sq) => this.canDrag(sq),
      });
    } else {
      this.view.setViewer(viewer);
    }
  }

  legal() {
    const o = this.s.observation;
    if (!o || this.s.status !== 'playing' || this.s.seat === null) return [];
    return (o.legal_actions || []).map((a) => ({ text: a, ...parseAction(a) }));
  }

  isDeploying() {
    return this.s.status === 'deploying' && this.s.seat !== null && this.s.cells;
  }

  localOf(sq) {
    const home = topology(this.board).get(sq)?.home;
    if (!home || home.seat !== this.s.seat) return null;
    return [home.row, home.col];
  }

  canDrag(sq) {
    if (this.isDeploying()) {
      const rc = this.localOf(sq);
      return !!(rc && this.s.cells[rc[0]][rc[1]]);
    }
    return this.legal().some((a) => a.from === sq);
  }

  onDragStart(sq) {
    if (this.isDeploying()) this.s.deploySel = null;
    else this.s.selected = sq;
    this.renderBoard();
  }

  onDrag(from, to) {
    if (this.isDeploying()) {
      this.swapCells(from, to);
      return;
    }
    const a = this.legal().find((x) => x.from === from && x.to === to);
    if (a) this.act(a.text);
    else {
      this.s.selected = null;
      this.renderBoard();
    }
  }

  onSquare(sq) {
    const s = this.s;
    if (this.isDeploying()) {
      const rc = sq && this.localOf(sq);
      if (!rc) { s.deploySel = null; this.renderBoard(); return; }
      if (s.deploySel && s.deploySel !== sq) {
        this.swapCells(s.deploySel, sq);
        return;
      }
      s.deploySel = s.deploySel === sq ? null : (s.cells[rc[0]][rc[1]] ? sq : null);
      this.renderBoard();
      return;
    }
    const legal = this.legal();
    if (!sq) { s.selected = null; this.renderBoard(); return; }
    const flip = legal.find((a) => a.flip === sq);
    if (s.selected) {
      const a = legal.find((x) => x.from === s.selected && x.to === sq);
      if (a) { this.act(a.text); return; }
    }
    if (legal.some((a) => a.from === sq)) {
      s.selected = s.selected === sq ? null : sq;
    } else if (flip) {
      this.act(flip.text);
      return;
    } else {
      s.selected = null;
    }
    this.renderBoard();
  }

  act(text) {
    this.s.selected = null;
    this.sock.send({ type: 'act', action: text });
    this.renderBoard();
  }

  boardPieces() {
    const s = this.s;
    if (this.isDeploying()) {
      const topo = topology(this.board);
      const out = [];
      for (let r = 0; r < 6; r++) for (let c = 0; c < 5; c++) {
        const role = s.cells[r][c];
        if (role) out.push({ at: topo.localSquare(s.seat, r, c), seat: s.seat, role });
      }
      return out;
    }
    return s.observation?.pieces || [];
  }

  renderBoard() {
    if (!this.view) return;
    const s = this.s;
    if (this.isDeploying()) {
      const problems = D.validate(s.cells, this.board, s.seat) || [];
      const topo = topology(this.board);
      const marks = problems.filter((p) => p.at).map((p) => topo.localSquare(s.seat, p.at[0], p.at[1]));
      const refused = s.refused && s.cells && s.refused.layout === D.toText(s.cells) ? s.refused.squares : [];
      this.view.update({ pieces: this.boardPieces(), selected: s.deploySel, targets: [], lastMove: null, marks, refused });
      return;
    }
    const targets = s.selected ? this.legal().filter((a) => a.from === s.selected).map((a) => a.to) : [];
    const refused = s.refused && s.refused.layout === null && s.refused.v === (s.v ?? null) ? s.refused.squares : [];
    this.view.update({ pieces: this.boardPieces(), selected: s.selected, targets, lastMove: s.lastMove, marks: [], refused });
  }

  // ---------------------------------------------------------------------------------------
  // Deployment editor

  initCells() {
    const s = this.s;
    if (s.seat === null || s.cells) return;
    let cells = null;
    if (s.deploy?.layout) cells = D.fromText(s.deploy.layout).cells;
    if (!cells) {
      try {
        const last = localStorage.getItem(LAST_LAYOUT);
        if (last) {
          const p = D.fromText(last);
          if (p.cells && !D.validate(p.cells, this.board, s.seat)) cells = p.cells;
        }
      } catch { /* ignore */ }
    }
    s.cells = cells || D.randomCells();
    s.submitted = s.deploy?.layout || null;
  }

  swapCells(a, b) {
    const s = this.s;
    const ra = this.localOf(a);
    const rb = this.localOf(b);
    s.deploySel = null;
    if (ra && rb && !D.swap(s.cells, ra, rb)) this.showMessage(t('deploy.err.camp', { sq: isLocalCamp(...ra) ? a : b, role: s.cells[ra[0]][ra[1]] || s.cells[rb[0]][rb[1]] }), 'error');
    this.renderBoard();
    this.renderDeploy();
  }

  renderDeploy() {
    const s = this.s;
    const el = this.deployEl;
    if (!this.isDeploying()) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const problems = D.validate(s.cells, this.board, s.seat);
    const text = D.toText(s.cells);
    const submittedNow = s.submitted && s.submitted === text;
    const layouts = D.loadLayouts();
    const textInput = h('input', { type: 'text', class: 'layout-text', value: text, 'aria-label': t('deploy.text'), id: 'layout-text' });
    const nameInput = h('input', { type: 'text', placeholder: t('deploy.saveName'), id: 'layout-name' });
    clear(el).append(
      h('h3', {}, t('deploy.title')),
      h('p', { class: 'muted' }, t('deploy.hint')),
      h('div', { class: 'buttons' },
        h('button', { id: 'btn-random', onclick: () => { s.cells = D.randomCells(); s.deploySel = null; this.renderBoard(); this.renderDeploy(); } }, t('deploy.random')),
        h('button', {
          id: 'btn-submit', class: 'primary', disabled: !!problems,
          onclick: () => {
            const layout = D.toText(s.cells);
            this.sock.send({ type: 'deploy', layout });
            s.submitted = layout;
            try { localStorage.setItem(LAST_LAYOUT, layout); } catch { /* ignore */ }
            this.renderDeploy();
          },
        }, s.submitted ? t('deploy.resubmit') : t('deploy.submit')),
      ),
      problems
        ? h('ul', { class: 'deploy-problems', id: 'deploy-problems' }, problems.map((p) => h('li', {}, t(p.key, p.args))))
        : h('div', { class: 'notice ok', id: 'deploy-ok' }, submittedNow ? t('deploy.submitted') : t('deploy.ok')),
      h('div', { class: 'row', style: { marginTop: '0.5rem' } }, textInput,
        h('button', {
          onclick: () => {
            const p = D.fromText(textInput.value);
            if (p.error) { this.showMessage(t(p.error.key, p.error.args), 'error'); return; }
            s.cells = p.cells;
            this.renderBoard();
            this.renderDeploy();
          },
        }, t('deploy.apply'))),
      h('div', { class: 'row', style: { marginTop: '0.5rem' } }, nameInput,
        h('button', {
          id: 'btn-save-layout',
          onclick: () => {
            const name = nameInput.value.trim() || new Date().toLocaleString();
            D.saveLayout(name, s.cells);
            this.renderDeploy();
          },
        }, t('deploy.save'))),
      layouts.length ? h('div', {}, h('h3', { style: { marginTop: '0.6rem' } }, t('deploy.saved')),
        h('ul', { class: 'layouts', id: 'layouts' }, layouts.map((l) => h('li', {},
          h('span', { title: l.text }, l.name),
          h('button', {
            onclick: () => {
              const p = D.fromText(l.text);
              if (p.cells) { s.cells = p.cells; this.renderBoard(); this.renderDeploy(); }
            },
          }, t('deploy.load')),
          h('button', { onclick: () => { D.deleteLayout(l.name); this.renderDeploy(); } }, t('deploy.delete')),
        )))) : null,
    );
  }

  // ---------------------------------------------------------------------------------------
  // Side panel

  renderAll() {
    this.renderBoard();
    this.renderStatus();
    this.renderSeats();
    this.renderControls();
    this.renderDead();
    this.renderMessage();
    if (!this.isDeploying()) this.deployEl.hidden = true;
  }

  renderMessage() {
    const m = this.s.message;
    clear(this.messageEl);
    if (m && Date.now() - m.at < 8000) {
      this.messageEl.append(h('div', { class: `notice ${m.kind}` }, m.text));
    }
  }

  statusText() {
    const s = this.s;
    if (s.conn === 'reconnecting') return [t('table.reconnecting'), false];
    if (!s.status) return [t('table.connecting'), false];
    if (s.status === 'over') return [describeOutcome(s.outcome, this.board, s.seat), false];
    if (s.status === 'waiting') return [t('status.waiting'), false];
    if (s.status === 'deploying') {
      if (s.seat !== null && s.deployed?.[s.seat]) return [t('table.waitingDeploy'), false];
      return [t('status.deploying'), s.seat !== null];
    }
    const o = s.observation;
    if (!o) return [t('status.playing'), false];
    if (s.seat !== null && o.to_move === s.seat && (o.legal_actions || []).length) return [t('table.yourTurn'), true];
    return [t('table.toMove', { seat: this.seatLabel(o.to_move) }), false];
  }

  seatLabel(seat) {
    const name = this.s.table?.seats?.[seat]?.name;
    const base = seatName(this.board, seat);
    return name ? `${base}（${name}）`.replace('（', getLang() === 'en' ? ' (' : '（').replace('）', getLang() === 'en' ? ')' : '）') : base;
  }

  renderStatus() {
    const [text, mine] = this.statusText();
    this.statusEl.textContent = text;
    this.statusEl.classList.toggle('mine', mine);
    this.statusEl.dataset.status = this.s.status || '';
  }

  clockText(seat) {
    const s = this.s;
    if (s.status === 'deploying' && s.deploy && s.deploy.remaining_ms !== null && s.deploy.remaining_ms !== undefined) {
      return s.deployed?.[seat] ? '✓' : fmtClock(s.deploy.remaining_ms - (Date.now() - s.deploy.at));
    }
    if (s.status !== 'playing' || !s.clock || s.clock.to_move !== seat) return '';
    if (s.clock.remaining_ms === null) return '';
    return fmtClock(s.clock.remaining_ms - (Date.now() - s.clock.at));
  }

  renderSeats() {
    const s = this.s;
    const el = this.seatsEl;
    clear(el);
    if (!this.board) return;
    const o = s.observation;
    const tableSeats = s.table?.seats || [];
    for (let seat = 0; seat < this.seats; seat++) {
      const info = tableSeats[seat] || { kind: 'empty' };
      const out = o?.eliminated?.includes(seat);
      const toMove = s.status === 'playing' && o && o.to_move === seat && !s.outcome;
      const row = h('div', { class: `seat-row${toMove ? ' to-move' : ''}${out ? ' out' : ''}`, 'data-seat': seat },
        h('span', { class: 'dot', style: { background: SEAT_COLOURS[this.board][seat] } }),
        h('strong', {}, seatName(this.board, seat)),
        kindBadge(info),
        h('span', { class: 'name' },
          info.kind === 'empty' ? t('seat.empty') : this.seatLink(info, seat),
          seat === s.seat ? t('seat.you') : '',
          info.kind === 'human' && info.connected === false ? ` · ${t('seat.offline')}` : ''),
      );
      if (o && o.skips) row.append(h('span', { class: 'tag skips', 'data-skips': o.skips[seat] }, t('table.skips', { n: o.skips[seat] ?? 0 })));
      if (out) row.append(h('span', { class: 'tag' }, t('table.eliminated')));
      if (s.status === 'deploying' && s.deployed) row.append(h('span', { class: 'tag' }, s.deployed[seat] ? t('table.deployed') : t('table.notDeployed')));
      const clock = h('span', { class: 'clock', 'data-clock-seat': seat }, this.clockText(seat));
      row.append(clock);
      if (s.status === 'waiting') {
        if (info.kind === 'empty' && s.seat === null) {
          row.append(h('button', { onclick: () => this.sock.send({ type: 'take_seat', seat }) }, t('seat.take')));
        }
        if (s.host && info.kind === 'empty') {
          row.append(h('button', { onclick: () => this.sock.send({ type: 'add_bot', seat, bot: (this.info.bots || ['random'])[0] }) }, t('seat.addBot')));
        }
        if (s.host && info.kind === 'bot') {
          row.append(h('button', { onclick: () => this.sock.send({ type: 'remove_bot', seat }) }, t('seat.removeBot')));
        }
      }
      el.append(row);
    }
    if (s.table?.spectators) el.append(h('div', { class: 'muted' }, t('table.spectators', { n: s.table.spectators })));
  }

  /**
   * The link to a seated player's page. A bot seat (`kind: 'bot'`, named `bot:<bot>` by the
   * server) shows its level in words; a person's name is shown exactly as chosen, so that no name
   * can make a person look like the computer (the badge of `kindBadge` says who is who).
   */
  seatLink(info, seat) {
    const s = this.s;
    if (!info.name) return '';
    const attrs = { class: 'player-link', 'data-player': info.name, target: s.status === 'playing' ? '_blank' : null };
    if (info.kind === 'bot') {
      const bot = String(info.name).replace(/^bot:/, '');
      const label = t(`bot.${bot}`);
      return h('a', { href: `#/player/${encodeURIComponent(info.name)}`, ...attrs }, label === `bot.${bot}` ? bot : label);
    }
    const key = info.player ? seatLinkKey(info) : seat === s.seat && s.player?.guest && s.player.name === info.name ? s.player.id : info.name;
    return h('a', { href: `#/player/${encodeURIComponent(key)}`, ...attrs }, String(info.name));
  }

  tick() {
    for (const c of this.seatsEl.querySelectorAll('[data-clock-seat]')) {
      const seat = Number(c.dataset.clockSeat);
      const text = this.clockText(seat);
      c.textContent = text;
      const ms = this.s.clock && this.s.clock.remaining_ms !== null ? this.s.clock.remaining_ms - (Date.now() - this.s.clock.at) : null;
      c.classList.toggle('low', this.s.status === 'playing' && this.s.clock?.to_move === seat && ms !== null && ms < 10000);
    }
    if (this.s.message && Date.now() - this.s.message.at >= 8000 && this.messageEl.firstChild) this.renderMessage();
  }

  renderControls() {
    const s = this.s;
    const el = this.controlsEl;
    clear(el);
    const parts = [];
    if (s.table && (s.status === 'waiting' || s.status === 'deploying')) {
      const link = `${location.origin}/#/join/${s.table.code}`;
      parts.push(h('div', { class: 'row share' },
        h('span', { class: 'muted' }, `${t('table.code')}: `), h('strong', { id: 'table-code' }, s.table.code),
        h('input', { type: 'text', readonly: true, value: link, 'aria-label': t('table.share'), onfocus: (e) => e.target.select() })));
    }
    if (s.status === 'waiting' && s.host) {
      const full = (s.table?.seats || []).every((x) => x.kind !== 'empty');
      parts.push(h('div', { class: 'buttons' }, h('button', { class: 'primary', id: 'btn-start', disabled: !full, onclick: () => this.sock.send({ type: 'start' }) }, t('table.start'))));
    }
    if (s.seat === null && s.status && s.status !== 'waiting' && s.status !== 'over') {
      parts.push(h('div', { class: 'muted', id: 'spectating' }, t('table.spectator')));
    }
    const o = s.observation;
    const iAmOut = o?.eliminated?.includes(s.seat);
    if (s.status === 'playing' && s.seat !== null && !iAmOut) {
      const btns = h('div', { class: 'buttons' });
      btns.append(h('button', { id: 'btn-resign', onclick: () => { if (confirm(t('confirm.resign'))) this.sock.send({ type: 'resign' }); } }, t('btn.resign')));
      const offer = s.drawOffer;
      if (offer && offer.by !== s.seat && !(offer.accepted || []).includes(s.seat)) {
        parts.push(h('div', { class: 'notice', id: 'draw-offer' }, t('draw.offered', { seat: seatName(this.board, offer.by) })));
        btns.append(h('button', { class: 'primary', id: 'btn-accept-draw', onclick: () => this.sock.send({ type: 'accept_draw' }) }, t('btn.acceptDraw')));
        btns.append(h('button', { id: 'btn-decline-draw', onclick: () => this.sock.send({ type: 'decline_draw' }) }, t('btn.declineDraw')));
      } else if (offer && offer.by === s.seat) {
        parts.push(h('div', { class: 'muted' }, t('draw.youOffered')));
      } else {
        btns.append(h('button', { id: 'btn-draw', onclick: () => this.sock.send({ type: 'offer_draw' }) }, t('btn.offerDraw')));
      }
      btns.append(h('button', { id: 'btn-leave', onclick: () => { if (confirm(t('confirm.leave'))) this.sock.send({ type: 'leave' }); } }, t('btn.leave')));
      parts.push(btns);
      const wait = this.resignAfterSeconds();
      if (s.playStart && Date.now() - s.playStart < wait * 1000) parts.push(h('div', { class: 'muted' }, t('resign.wait', { s: wait })));
    }
    if (s.status === 'over') {
      parts.push(h('div', { class: 'outcome', id: 'outcome' }, describeOutcome(s.outcome, this.board, s.seat)));
      parts.push(h('div', { class: 'buttons' },
        h('a', { href: `#/replay/${this.id}`, id: 'link-replay' }, h('button', { class: 'primary' }, t('btn.replay'))),
        h('a', { href: `/api/games/${this.id}/record`, download: `junqi-${this.id}.txt`, id: 'link-record' }, h('button', {}, t('btn.record'))),
        h('a', { href: '#/' }, h('button', {}, t('btn.lobby')))));
      parts.push(...this.social.overControls()); // social.js hook: 再来一局, 换对手
    }
    el.hidden = parts.length === 0;
    el.append(...parts);
  }

  /** The resignation window: the table's own (if the server sends one), else the default. */
  resignAfterSeconds() {
    const s = this.s;
    return s.clockInfo?.resign_after_seconds ?? s.table?.resign_after_seconds ?? this.info.defaults?.resign_after_seconds ?? 90;
  }

  renderDead() {
    const s = this.s;
    const el = this.deadEl;
    clear(el);
    const o = s.observation;
    if (!o || !this.board) { el.hidden = true; return; }
    el.hidden = false;
    el.append(h('h3', {}, t('dead.title')));
    const lang = getLang();
    for (const f of fallen(o, this.seats)) {
      const colour = SEAT_COLOURS[this.board][f.seat] || '#777';
      const chips = f.known.map((r) => h('span', { class: 'chip', style: { background: colour } }, roleName(r, lang)));
      el.append(h('div', { class: 'seat-dead', 'data-seat': f.seat, 'data-count': f.known.length + f.unknown },
        h('strong', {}, `${f.seat === null ? t('dead.total') : seatName(this.board, f.seat)}:`),
        chips.length || f.unknown ? chips : h('span', { class: 'muted' }, t('dead.none')),
        f.unknown ? h('span', { class: 'muted' }, t('dead.unknown', { n: f.unknown })) : null));
    }
  }
}

export { seatToken };
