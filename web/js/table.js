// A table: seats and bots, the deployment editor, play (click or drag), announcements, the
// fallen-piece tracker, clocks, skips, resign/draw, spectators, game over and reconnection.
// Frames are applied one at a time through a queue (queue.js) so that moves glide and attack
// results stay in view; a toolbar over the board holds the step counter, the game timer and the
// switches (coordinates, 标记 mode, sound, zoom); marks (marks.js), the enemy tally (tally.js)
// and the last five moves are in the side panel. The land-sea-air board's own parts (its deploy
// editor, scout looks and notes) are lsa-table.js's.
import { h, clear, fmtClock } from './ui.js';
import { t, seatName, getLang } from './i18n.js';
import { api, TableSocket, saveSeatToken, seatToken } from './api.js';
import { BoardView, SEAT_COLOURS } from './render.js';
import { topology, isLocalCamp, movePath, SEATS, sameTeam } from './board.js';
import { roleName, ROLES } from './roles.js';
import * as D from './deploy.js';
import { describeEntry, describeOutcome, lastMoveOf, fallen, skipCounts, eventSquares } from './events.js';
import { serverMessage, refusalSquares } from './errors.js';
import { seatLinkKey } from './player.js';
import { FrameQueue, TIMING, glideMs } from './queue.js';
import { MarkStore, GUESSES } from './marks.js';
import { analyse } from './tally.js';
import { play as playSound, isMuted, setMuted } from './sound.js';
import { getFlag, setFlag, getZoom, setZoom } from './prefs.js';
import { Zoom, readableZoom, stepZoom } from './zoom.js';
import { botDisplayName, leaveWarning } from './seats.js';
import { Social } from './social.js'; // chat, rematch, pause notice (social.js)
import { LsaTable } from './lsa-table.js'; // the land-sea-air board's editor, looks and notes
import { tableRules } from './presets.js';

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

// The last layout submitted, per board (and the old key of one layout for every board).
const LAST_LAYOUT = 'junqi.lastLayout';
/** The named layout families the server draws from (junqi_ai::deploygen::FAMILIES). */
const LAYOUT_FAMILIES = ['flag-fortress', 'bomb-ahead', 'bomb-by-flag'];
const lastLayoutKey = (board) => `${LAST_LAYOUT}.${board}`;
// The layout submitted at a table, for the tally (the player's own pieces in past attacks).
const tableLayoutKey = (id, seat) => `junqi.layout.${id}.${seat}`;

function reducedMotion() {
  return !!globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}

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
      history: [], highlight: null, markMode: false, awayLimitMs: null, paused: null,
      endedAt: null, fromLast: null,
      // An attack whose result waits for the observation after its glide (then its badge shows).
      pending: null,
    };
    this.coords = getFlag('coords', false);
    this.marks = null;
    // Frames from the welcome up to the first observation or sync are history (a reload, a
    // reconnection): applied at once, without animation.
    this.catchingUp = true;
    this.queue = new FrameQueue((f, ctx) => this.applyFrame(f, ctx));
    this.buildSkeleton();
    document.body.classList.add('at-table');
    this.onUnload = (e) => {
      if (!this.gameAtStake()) return;
      e.preventDefault();
      e.returnValue = this.leaveText();
    };
    window.addEventListener('beforeunload', this.onUnload);
    this.onVisibility = () => { if (document.hidden) this.queue.fastForward(); };
    document.addEventListener('visibilitychange', this.onVisibility);
    this.social = new Social(this); // social.js hook: chat box, rematch, pause notice
    this.lsa = new LsaTable(this); // lsa-table.js: used when the table plays land_sea_air
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
    this.queue.clear();
    this.sock.close();
    this.closeMarkMenu();
    window.removeEventListener('beforeunload', this.onUnload);
    document.removeEventListener('visibilitychange', this.onVisibility);
    document.body.classList.remove('at-table');
  }

  /** A game this person would lose by leaving: seated, in play (or deploying), not out. */
  gameAtStake() {
    const s = this.s;
    if (s.seat === null || s.seat === undefined) return false;
    if (s.status !== 'playing' && s.status !== 'deploying') return false;
    return !s.observation?.eliminated?.includes(s.seat);
  }

  /** Against the computer: every other seat is a bot. */
  vsComputer() {
    const seats = this.s.table?.seats || [];
    return seats.length > 0 && seats.every((x, i) => i === this.s.seat || x.kind === 'bot');
  }

  leaveText() {
    return leaveWarning(this.s.awayLimitMs, this.vsComputer());
  }

  /**
   * Asked by the router before it leaves the table for `hash`: true to go. A game at stake asks
   * the person first, with how long they may be away.
   */
  confirmLeave(hash) {
    if (String(hash).startsWith(`#/table/${this.id}`)) return true;
    if (!this.gameAtStake()) return true;
    return confirm(this.leaveText());
  }

  get board() {
    return this.s.table?.board || this.s.observation?.board || this.s.deploy?.board || null;
  }
  /** Seats of the board (2, 3, 4 or 6). */
  get seats() {
    return SEATS[this.board] || 2;
  }
  /** The table's `teams` option (RULES §7.2), as the table or the observation says it. */
  get teams() {
    return this.s.table?.options?.teams ?? this.s.observation?.options?.teams;
  }
  /** Whether `seat` is this person's teammate (their own seat left out; nobody's for a spectator). */
  isTeammate(seat) {
    const me = this.s.seat;
    return me !== null && me !== undefined && seat !== me && sameTeam(this.board, this.teams, me, seat);
  }
  get middleRail() {
    return (this.s.observation?.options?.middle_crossing || 'rail') !== 'road';
  }

  buildSkeleton() {
    this.boardEl = h('div', { class: 'board-wrap', id: 'board' });
    this.zoom = new Zoom(this.boardEl, { onChange: (z) => { if (this.board) setZoom(this.board, z); this.renderBar(); } });
    this.statusEl = h('div', { class: 'status-line', id: 'status' }, t('table.connecting'));
    this.barEl = h('div', { class: 'table-bar', id: 'table-bar', role: 'toolbar', 'aria-label': t('table.toolbar') });
    // Errors are a toast over the page: they never push the board down.
    this.messageEl = h('div', { id: 'message', class: 'table-toast', role: 'status', 'aria-live': 'polite' });
    this.seatsEl = h('div', { class: 'seats card', id: 'seats' });
    this.controlsEl = h('div', { class: 'card', id: 'controls' });
    this.deployEl = h('div', { class: 'card', id: 'deploy', hidden: true });
    this.recentEl = h('div', { class: 'card recent', id: 'recent', hidden: true });
    this.tallyEl = h('div', { class: 'card tally', id: 'tally', hidden: true });
    this.deadEl = h('div', { class: 'card dead', id: 'dead' });
    this.notesEl = h('div', { class: 'card lsa-notes', id: 'lsa-notes', hidden: true });
    this.logList = h('ol', { class: 'log', id: 'log' });
    this.logTitle = h('h3', {}, t('log.title'));
    this.logEl = h('div', { class: 'card' }, this.logTitle, this.logList);
    const side = h('div', { class: 'side' }, this.seatsEl, this.controlsEl, this.deployEl, this.recentEl, this.notesEl, this.tallyEl, this.deadEl, this.logEl);
    this.boardCol = h('div', { class: 'board-col' }, this.statusEl, this.barEl, this.boardEl);
    clear(this.root).append(h('div', { class: 'game' }, this.boardCol, side), this.messageEl);
  }

  /** After a language switch: everything is drawn again in place, nothing is lost. */
  relabel() {
    this.logTitle.textContent = t('log.title');
    this.barEl.setAttribute('aria-label', t('table.toolbar'));
    if (this.view) this.view.relabel();
    this.closeMarkMenu();
    this.renderAll();
    this.renderDeploy();
    this.renderLogAll();
    this.social.relabel(); // social.js hook
  }

  // ---------------------------------------------------------------------------------------
  // Frames

  /** Every frame goes through the queue, which applies them one at a time (applyFrame). */
  onFrame(f) {
    // A refusal is said at once: it answers what the person just did.
    if (f.type === 'error' || f.type === 'pong') {
      this.applyFrame(f, { backlog: 0 });
      return;
    }
    this.queue.push(f);
  }

  /**
   * Apply one frame; returns how long the queue waits before the next one (ms): the glide of a
   * move, then the time an attack's result badge stays. History (catching up after a reload or
   * a reconnection), a hidden page and a long backlog are drawn at once.
   */
  applyFrame(f, ctx = {}) {
    const s = this.s;
    const live = !this.catchingUp && !ctx.fast && !document.hidden;
    let hold = 0;
    this.social.onFrame(f); // social.js hook
    switch (f.type) {
      case 'welcome':
        s.seat = f.seat ?? null;
        s.host = !!f.host;
        if (f.player) s.player = f.player;
        if (f.token) saveSeatToken(this.id, f.token);
        if (typeof f.away_limit_ms === 'number') s.awayLimitMs = f.away_limit_ms;
        if (!this.marks || this.marks.seat !== s.seat) this.marks = new MarkStore(this.id, s.seat);
        this.catchingUp = true;
        this.ensureBoard();
        break;
      case 'paused':
        // The server pauses a game against the computer while its person is away (its shape is
        // the server's; a false `paused` or a `resumed` frame ends it).
        s.paused = f.paused === false ? null : f;
        break;
      case 'resumed':
        s.paused = null;
        break;
      case 'table':
        // Play begins: on a phone the 确认布阵 button is below the board, so the board is brought
        // back into view.
        if (live && s.status === 'deploying' && f.table.status === 'playing') {
          setTimeout(() => this.boardEl.scrollIntoView?.({ block: 'nearest' }), 0);
        }
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
        // A land-sea-air seat's scout notes come with its views (lsa-notes.js).
        if (Array.isArray(f.notes)) s.notes = f.notes;
        this.setClock(f.clock);
        s.deploy = f.deploy ? { ...f.deploy, at: Date.now() } : null;
        if (f.status === 'playing' && f.v === 0 && !s.playStart) s.playStart = Date.now();
        if (f.status === 'deploying') {
          if (this.lsa.active) this.lsa.initLayout(f.deploy);
          else this.initCells();
        }
        if (f.status === 'playing' && f.v === 0) s.history = [];
        s.selected = null;
        s.pending = null;
        this.catchingUp = false;
        this.ensureBoard();
        this.renderDeploy();
        break;
      case 'events': {
        if (s.v !== null && f.v <= s.v) break;
        s.v = f.v;
        if (!s.playStart && s.status === 'playing') s.playStart = Date.now();
        const events = this.annotate(f.events || []);
        s.history.push({ v: f.v, entry: f.entry, events });
        this.marks?.follow(f.v, events);
        const lm = lastMoveOf(events);
        for (const line of describeEntry(f.entry, events, this.board)) {
          this.addLog({ v: f.v, ...line, entry: f.entry });
        }
        if (f.outcome) s.outcome = f.outcome;
        // The observation that follows brings the new legal actions; until then nothing is legal.
        if (s.observation) s.observation = { ...s.observation, legal_actions: [], to_move: f.to_move ?? s.observation.to_move };
        s.selected = null;
        this.clearMessage();
        if (lm) {
          s.lastMove = lm;
          if (live) {
            playSound(lm.result ? 'attack' : 'move');
            // The piece glides on the board as it was; its result waits for the observation.
            const occupied = new Set((s.observation?.pieces || []).map((p) => p.at));
            // A look leaves the scout plane where it is: nothing glides.
            const steps = lm.from && !lm.look ? movePath(topology(this.board, this.middleRail), lm.from, lm.to, (sq) => occupied.has(sq)).length - 1 : 0;
            const dragged = this.dragged === `${lm.from}-${lm.to}`;
            this.dragged = null;
            const ms = dragged ? 0 : glideMs(steps, reducedMotion());
            s.pending = lm.result ? lm : null;
            if (lm.result) s.lastMove = { ...lm, result: null };
            if (ms && steps > 0 && this.view) {
              this.renderAll();
              this.view.glide(lm.from, lm.to, ms);
              hold = ms;
            }
          }
        }
        break;
      }
      case 'observation': {
        const wasMine = this.isMyTurn();
        s.observation = f.observation;
        if (Array.isArray(f.notes)) s.notes = f.notes;
        if (s.status === 'deploying' || s.status === 'waiting') s.status = 'playing';
        this.setClock(f.clock);
        s.selected = null;
        if (s.pending) {
          // The attack's result is drawn now, and stays a moment before the next ply.
          s.lastMove = s.pending;
          s.pending = null;
          if (live) hold = TIMING.badge;
        }
        this.marks?.prune((sq) => this.isMarkable(sq));
        this.ensureBoard();
        if (live && !wasMine && this.isMyTurn()) playSound('turn');
        this.catchingUp = false;
        break;
      }
      case 'clock':
        this.setClock(f);
        break;
      case 'deployed':
        if (s.deployed) s.deployed[f.seat] = true;
        if (f.seat === s.seat) { this.clearMessage(); this.renderDeploy(); }
        break;
      case 'ack':
        // The server took the last action: an old refusal is no longer news.
        this.clearMessage();
        break;
      case 'draw_offer':
        s.drawOffer = { by: f.by, accepted: f.accepted || [] };
        this.addLog({ say: () => t('draw.offered', { seat: seatName(this.board, f.by) }), cls: 'major' });
        break;
      case 'draw_declined':
        s.drawOffer = null;
        this.addLog({ say: () => t('draw.declined', { seat: seatName(this.board, f.by) }), cls: '' });
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
        if (s.pending) { s.lastMove = s.pending; s.pending = null; }
        if (!this.catchingUp) s.endedAt = Date.now();
        this.addLog({ say: () => describeOutcome(f.outcome, this.board, s.seat), cls: 'major' });
        if (live && s.seat !== null) playSound(f.outcome?.winners?.includes(s.seat) ? 'win' : 'lose');
        this.catchingUp = false;
        break;
      case 'error':
        this.showMessage(serverMessage(f, { board: this.board }), 'error');
        // The squares the refusal names are outlined while the board is as it was refused.
        s.refused = { squares: refusalSquares(f), layout: this.isDeploying() ? this.layoutText() : null, v: s.v ?? null };
        break;
      default:
        break;
    }
    this.renderAll();
    return hold;
  }

  isMyTurn() {
    const o = this.s.observation;
    return this.s.seat !== null && !!o && o.to_move === this.s.seat && (o.legal_actions || []).length > 0;
  }

  /**
   * The events with what this seat knew of an attack's two pieces when it happened (its own
   * piece's role, or a piece it could see), for the tally; the board before the events is the
   * observation still shown.
   */
  annotate(events) {
    const o = this.s.observation;
    if (!o?.pieces) return events;
    const at = new Map(o.pieces.map((p) => [p.at, p]));
    return events.map((ev) => {
      if (ev.kind !== 'attack') return ev;
      const a = at.get(ev.from);
      const d = at.get(ev.to);
      const role = (p) => (p && p.role && !p.face_down ? p.role : null);
      return { ...ev, roles: { from: role(a), to: role(d) } };
    });
  }

  setClock(c) {
    if (!c) return;
    this.s.clock = { to_move: c.to_move, remaining_ms: c.remaining_ms ?? null, move_ms: c.move_ms ?? null, at: Date.now() };
  }

  showMessage(text, kind = '') {
    this.s.message = { text, kind, at: Date.now() };
    this.renderMessage();
  }

  clearMessage() {
    if (!this.s.message) return;
    this.s.message = null;
    this.renderMessage();
  }

  /**
   * A log line: {v, ev?, say?, cls}. Lines keep their event (or a function that says them), not
   * their words, so that a language switch says them again in the new language.
   */
  addLog(line) {
    const prev = this.s.log[this.s.log.length - 1];
    line.first = line.v !== undefined && (!prev || prev.v !== line.v);
    this.s.log.push(line);
    this.logList.append(this.logItem(line));
    this.logList.scrollTop = this.logList.scrollHeight;
  }
  lineText(line) {
    if (line.say) return line.say();
    if (line.ev) return describeEntry(null, [line.ev], this.board)[0].text;
    if (line.entry === 'draw') return t('ev.draw');
    if (line.entry === 'abort') return t('ev.abort');
    return line.text || '';
  }
  logItem(line) {
    const squares = line.ev ? eventSquares(line.ev) : [];
    const li = h('li', { class: `${line.cls || ''}${squares.length ? ' has-squares' : ''}`, 'data-v': line.v ?? '', 'data-squares': squares.join(' ') || null },
      h('span', { class: 'v' }, line.first ? `${line.v}.` : ''), this.lineText(line));
    if (squares.length) this.pointsAt(li, squares);
    return li;
  }
  /** Hovering or tapping an element highlights its squares on the board. */
  pointsAt(elem, squares) {
    elem.addEventListener('mouseenter', () => { this.hoverAt = Date.now(); this.setHighlight(squares); });
    elem.addEventListener('mouseleave', () => this.setHighlight(null));
    // A tap also sends a mouseenter just before its click: a click right after it keeps the
    // highlight; a second tap on the same line takes it away.
    elem.addEventListener('click', () => {
      const same = this.s.highlight && this.s.highlight.join() === squares.join();
      const justHovered = Date.now() - (this.hoverAt || 0) < 600;
      this.setHighlight(same && !justHovered ? null : squares);
    });
  }
  setHighlight(squares) {
    this.s.highlight = squares;
    this.renderBoard();
  }
  renderLogAll() {
    clear(this.logList).append(...this.s.log.map((l) => this.logItem(l)));
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  // ---------------------------------------------------------------------------------------
  // Board

  ensureBoard() {
    const board = this.board;
    if (!board) return;
    const viewer = this.s.seat ?? 0;
    if (!this.view || this.view.opts.board !== board || this.viewMiddle !== this.middleRail) {
      // Multi-seat boards (three, four, six seats) take the wider column.
      const multi = board !== 'two_player';
      for (const e of [this.boardEl, this.boardEl.parentNode]) {
        e?.classList.toggle('four', board === 'four_player');
        e?.classList.toggle('multi', multi);
      }
      this.viewMiddle = this.middleRail;
      this.view = new BoardView(this.boardEl, {
        board, middleRail: this.middleRail, viewer, teams: this.teams, seated: this.s.seat !== null && this.s.seat !== undefined,
        onClick: (sq) => this.onSquare(sq),
        onDrag: (a, b) => this.onDrag(a, b),
        onDragStart: (a) => this.onDragStart(a),
        draggable: (sq) => this.canDrag(sq),
        markable: (sq) => this.isMarkable(sq),
        onMark: (sq, x, y) => this.openMarkMenu(sq, x, y),
      });
      // A multi-seat board on a phone opens zoomed (pieces of 32 px and more), on your own arm.
      const want = getZoom(board) ?? readableZoom(board, this.boardEl.clientWidth, this.view.geo.width);
      this.zoom.z = 1;
      this.zoom.set(want);
      this.renderBar();
    } else {
      this.view.setViewer(viewer, this.s.seat !== null && this.s.seat !== undefined);
      this.view.setTeams(this.teams);
    }
  }

  /** A piece whose role this seat does not know and that is not its own: it takes a mark. */
  isMarkable(sq) {
    const s = this.s;
    // 标记 guesses are 军棋 roles (marks.js); land-sea-air shows arms and scout notes instead.
    if (s.status !== 'playing' || !s.observation || this.lsa.active) return false;
    const p = (s.observation.pieces || []).find((x) => x.at === sq);
    return !!p && (!p.role || p.face_down) && (p.seat === null || p.seat === undefined || p.seat !== s.seat);
  }

  legal() {
    if (this.lsa.active) return this.lsa.legal();
    const o = this.s.observation;
    if (!o || this.s.status !== 'playing' || this.s.seat === null) return [];
    return (o.legal_actions || []).map((a) => ({ text: a, ...parseAction(a) }));
  }

  isDeploying() {
    return this.s.status === 'deploying' && this.s.seat !== null && !!(this.lsa.active ? this.lsa.layout : this.s.cells);
  }

  /** The layout in the editor as text (for matching a refusal to the layout it refused). */
  layoutText() {
    return this.lsa.active ? this.lsa.text() : this.s.cells ? D.toText(this.s.cells) : null;
  }

  localOf(sq) {
    const home = topology(this.board).get(sq)?.home;
    if (!home || home.seat !== this.s.seat) return null;
    return [home.row, home.col];
  }

  canDrag(sq) {
    if (this.isDeploying() && this.lsa.active) return this.lsa.canDrag(sq);
    if (this.isDeploying()) {
      const rc = this.localOf(sq);
      return !!(rc && this.s.cells[rc[0]][rc[1]]);
    }
    return this.legal().some((a) => a.from === sq);
  }

  onDragStart(sq) {
    if (this.isDeploying()) { this.s.deploySel = null; this.lsa.sel = null; }
    else this.s.selected = sq;
    this.renderBoard();
  }

  onDrag(from, to) {
    if (this.lsa.active) {
      if (this.isDeploying()) this.lsa.swap(from, to);
      else this.lsa.onPlayDrag(from, to);
      return;
    }
    if (this.isDeploying()) {
      this.swapCells(from, to);
      return;
    }
    const a = this.legal().find((x) => x.from === from && x.to === to);
    // A dragged piece is already where it goes: its move is not drawn as a glide again.
    if (a) { this.dragged = `${from}-${to}`; this.act(a.text); }
    else {
      this.s.selected = null;
      this.renderBoard();
    }
  }

  onSquare(sq) {
    const s = this.s;
    if (this.lsa.active) {
      if (this.isDeploying()) this.lsa.onDeploySquare(sq);
      else if (s.status === 'playing') this.lsa.onPlaySquare(sq);
      return;
    }
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
    if (s.markMode && sq && this.isMarkable(sq)) {
      const b = this.boardEl.querySelector(`.hits [data-sq="${sq}"]`)?.getBoundingClientRect();
      this.openMarkMenu(sq, b ? b.left + b.width / 2 : 0, b ? b.bottom : 0);
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

  // ---------------------------------------------------------------------------------------
  // 标记: a menu of guesses for a hidden enemy piece

  openMarkMenu(sq, x, y) {
    this.closeMarkMenu();
    const lang = getLang();
    const pick = (role) => {
      this.marks?.set(sq, role);
      this.closeMarkMenu();
      this.renderBoard();
    };
    const menu = h('div', { class: 'mark-menu', id: 'mark-menu', role: 'menu', 'data-sq': sq },
      h('div', { class: 'mark-title' }, t('mark.title', { sq })),
      h('div', { class: 'mark-roles' }, GUESSES.map((r) => h('button', {
        type: 'button', role: 'menuitem', 'data-guess': r, class: this.marks?.get(sq) === r ? 'on' : '',
        onclick: () => pick(r),
      }, `${roleName(r, lang, true)}?`))),
      h('div', { class: 'buttons' },
        h('button', { type: 'button', id: 'mark-clear', onclick: () => pick(null) }, t('mark.clear')),
        h('button', { type: 'button', id: 'mark-close', onclick: () => this.closeMarkMenu() }, t('mark.close'))));
    document.body.append(menu);
    // Beside the piece, inside the window.
    const w = menu.offsetWidth;
    const hgt = menu.offsetHeight;
    menu.style.left = `${Math.max(4, Math.min(window.innerWidth - w - 4, x - w / 2))}px`;
    menu.style.top = `${Math.max(4, Math.min(window.innerHeight - hgt - 4, y + 8))}px`;
    this.markMenu = menu;
    this.onOutside = (e) => { if (!menu.contains(e.target)) this.closeMarkMenu(); };
    this.onEscape = (e) => { if (e.key === 'Escape') this.closeMarkMenu(); };
    setTimeout(() => document.addEventListener('pointerdown', this.onOutside, true), 0);
    document.addEventListener('keydown', this.onEscape);
    menu.querySelector('button')?.focus();
  }

  closeMarkMenu() {
    if (this.markMenu) this.markMenu.remove();
    this.markMenu = null;
    if (this.onOutside) document.removeEventListener('pointerdown', this.onOutside, true);
    if (this.onEscape) document.removeEventListener('keydown', this.onEscape);
    this.onOutside = null;
    this.onEscape = null;
  }

  boardPieces() {
    const s = this.s;
    if (this.isDeploying() && this.lsa.active) return this.lsa.deployPieces();
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
    if (this.isDeploying() && this.lsa.active) {
      this.view.update(this.lsa.deployBoardState());
      return;
    }
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
    this.view.update({
      pieces: this.boardPieces(), selected: s.selected, targets, lastMove: s.lastMove, marks: [], refused,
      highlight: s.highlight || [], coords: this.coords, guesses: s.status === 'playing' ? this.marks?.marks || {} : {},
      deduced: s.status === 'playing' ? this.analysis().deduced : {}, looks: [], notes: {},
      ...(this.lsa.active ? this.lsa.playBoardState() : {}),
    });
  }

  // ---------------------------------------------------------------------------------------
  // Deployment editor

  initCells() {
    const s = this.s;
    if (s.seat === null || s.cells) return;
    let cells = null;
    if (s.deploy?.layout) cells = D.fromText(s.deploy.layout).cells;
    if (!cells) {
      // The layout last submitted on this board is set up again (the player may change it).
      try {
        const last = localStorage.getItem(lastLayoutKey(this.board)) || localStorage.getItem(LAST_LAYOUT);
        if (last) {
          const p = D.fromText(last);
          if (p.cells && !D.validate(p.cells, this.board, s.seat)) { cells = p.cells; s.fromLast = last; }
        }
      } catch { /* ignore */ }
    }
    s.cells = cells || D.randomCells();
    s.submitted = s.deploy?.layout || null;
    if (s.submitted) this.keepTableLayout(s.submitted);
  }

  keepTableLayout(layout) {
    try { localStorage.setItem(tableLayoutKey(this.id, this.s.seat), layout); } catch { /* ignore */ }
  }

  /** This seat's own deployment at this table (for the tally), when this browser knows it. */
  ownCells() {
    try {
      const text = localStorage.getItem(tableLayoutKey(this.id, this.s.seat));
      return text ? D.fromText(text).cells || null : null;
    } catch {
      return null;
    }
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

  /**
   * 布阵方案: a layout of a named family (the server draws a fresh one each time from the bots'
   * generator, GET /api/layouts/<family>), loaded into the editor to adjust.
   */
  familySelect() {
    const sel = h('select', { id: 'deploy-family', 'aria-label': t('deploy.family') },
      h('option', { value: '' }, t('deploy.family')),
      LAYOUT_FAMILIES.map((f) => h('option', { value: f }, t(`deploy.family.${f}`))));
    sel.onchange = async () => {
      const family = sel.value;
      if (!family) return;
      try {
        const r = await api('GET', `/api/layouts/${family}`);
        const p = D.fromText(r.layout);
        if (!p.cells || D.validate(p.cells, this.board, this.s.seat)) return;
        this.s.cells = p.cells;
        this.s.deploySel = null;
        this.renderBoard();
        this.renderDeploy();
      } catch (e) {
        this.showMessage(e.message, 'error');
      }
    };
    return sel;
  }

  renderDeploy() {
    const s = this.s;
    const el = this.deployEl;
    if (!this.isDeploying()) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    if (this.lsa.active) { this.lsa.renderDeploy(el); return; }
    const problems = D.validate(s.cells, this.board, s.seat);
    const text = D.toText(s.cells);
    const submittedNow = s.submitted && s.submitted === text;
    const layouts = D.loadLayouts();
    const textInput = h('input', { type: 'text', class: 'layout-text', value: text, 'aria-label': t('deploy.text'), id: 'layout-text' });
    const nameInput = h('input', { type: 'text', placeholder: t('deploy.saveName'), id: 'layout-name' });
    const fromLast = s.fromLast && s.fromLast === text;
    // append() writes a null as the text "null": the parts that may be absent are filtered.
    clear(el).append(...[
      h('h3', {}, t('deploy.title')),
      h('p', { class: 'muted' }, t('deploy.hint')),
      fromLast ? h('div', { class: 'notice ok', id: 'deploy-last' }, t('deploy.lastUsed', { board: t(`board.${this.board}`) })) : null,
      h('div', { class: 'buttons' },
        h('button', { id: 'btn-random', onclick: () => { s.cells = D.randomCells(); s.deploySel = null; this.renderBoard(); this.renderDeploy(); } }, t('deploy.random')),
        this.familySelect(),
        h('button', {
          id: 'btn-submit', class: 'primary', disabled: !!problems,
          onclick: () => {
            const layout = D.toText(s.cells);
            this.sock.send({ type: 'deploy', layout });
            s.submitted = layout;
            try {
              localStorage.setItem(lastLayoutKey(this.board), layout);
              localStorage.setItem(LAST_LAYOUT, layout);
            } catch { /* ignore */ }
            this.keepTableLayout(layout);
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
    ].filter((x) => x !== null));
  }

  // ---------------------------------------------------------------------------------------
  // Side panel

  renderAll() {
    this.renderBoard();
    this.renderStatus();
    this.renderBar();
    this.renderSeats();
    this.renderControls();
    this.renderRecent();
    this.renderTally();
    this.renderDead();
    this.lsa.renderNotes(this.notesEl);
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

  /** The toolbar over the board: 步数, 用时, and the switches. */
  renderBar() {
    const s = this.s;
    const el = this.barEl;
    if (!el) return;
    const o = s.observation;
    const playing = s.status === 'playing' || s.status === 'over';
    const toggle = (id, on, label, onclick, extra = {}) => h('button', {
      type: 'button', id, class: `tb${on ? ' on' : ''}`, 'aria-pressed': on ? 'true' : 'false', onclick, ...extra,
    }, label);
    const parts = [];
    if (playing && o) {
      parts.push(h('span', { class: 'stat', id: 'plies', 'data-plies': o.plies ?? 0 }, t('tb.plies', { n: o.plies ?? 0 })));
      parts.push(h('span', { class: 'stat', id: 'game-time' }, t('tb.time', { t: this.gameTime() })));
    }
    parts.push(h('span', { class: 'spacer' }));
    parts.push(toggle('btn-coords', this.coords, t('tb.coords'), () => {
      this.coords = !this.coords;
      setFlag('coords', this.coords);
      this.renderBoard();
      this.renderBar();
    }));
    if (s.status === 'playing' && s.seat !== null && s.observation?.mode !== 'open' && !this.lsa.active) {
      parts.push(toggle('btn-mark', s.markMode, t('tb.mark'), () => {
        s.markMode = !s.markMode;
        if (s.markMode) this.showMessage(t('mark.modeOn'), '');
        this.renderBar();
      }, { title: t('mark.hint') }));
    }
    const muted = isMuted();
    parts.push(toggle('btn-sound', !muted, muted ? t('tb.muted') : t('tb.sound'), () => {
      setMuted(!isMuted());
      this.renderBar();
    }));
    if (this.board) {
      const z = this.zoom.z;
      parts.push(h('span', { class: 'zoom-buttons' },
        h('button', { type: 'button', id: 'zoom-out', class: 'tb', title: t('tb.zoomOut'), 'aria-label': t('tb.zoomOut'), disabled: z <= 1, onclick: () => this.zoom.set(stepZoom(this.zoom.z, -1)) }, '−'),
        h('button', { type: 'button', id: 'zoom-fit', class: 'tb', title: t('tb.zoomFit'), disabled: z <= 1, onclick: () => this.zoom.set(1) }, t('tb.zoomFit')),
        h('button', { type: 'button', id: 'zoom-in', class: 'tb', title: t('tb.zoomIn'), 'aria-label': t('tb.zoomIn'), onclick: () => this.zoom.set(stepZoom(this.zoom.z, 1)) }, '+')));
    }
    clear(el).append(...parts);
  }

  /** Time played: from the start of play to now, or to the end of the game. */
  gameTime() {
    const s = this.s;
    if (!s.playStart) return '0:00';
    const end = s.status === 'over' ? s.endedAt : Date.now();
    if (!end) return '—';
    return fmtClock(Math.max(0, end - s.playStart - 999));
  }

  /** The last five moves (and flips), newest first; hovering or tapping one highlights it. */
  renderRecent() {
    const s = this.s;
    const el = this.recentEl;
    if (s.status !== 'playing' && s.status !== 'over') { el.hidden = true; return; }
    el.hidden = false;
    const moves = s.log.filter((l) => l.ev && ['move', 'attack', 'flip', 'landed', 'scout'].includes(l.ev.kind)).slice(-5).reverse();
    clear(el).append(h('h3', {}, t('recent.title')),
      moves.length
        ? h('ol', { class: 'recent-moves', id: 'recent-moves' }, moves.map((l) => {
          const li = h('li', { class: l.cls || '', 'data-v': l.v, 'data-squares': eventSquares(l.ev).join(' ') },
            h('span', { class: 'v' }, `${l.v}.`), this.lineText(l));
          this.pointsAt(li, eventSquares(l.ev));
          return li;
        }))
        : h('p', { class: 'muted' }, t('recent.none')));
  }

  /** What the events tell of the enemy (tally.js), for the tally and the board. */
  analysis() {
    const s = this.s;
    const o = s.observation;
    // tally.js counts 军棋 roles; a land-sea-air enemy is told by its arm and scout notes.
    if (!o || !this.board || this.lsa.active) return { seats: [], deduced: {} };
    return analyse({
      board: this.board, mode: o.mode, options: o.options || {}, viewer: s.seat,
      own: s.seat !== null ? this.ownCells() : null, history: s.history, observation: o,
    });
  }

  /** 敌情: per enemy seat, the pieces of each role not yet accounted for. */
  renderTally() {
    const s = this.s;
    const el = this.tallyEl;
    const o = s.observation;
    if (!o || !this.board || s.status !== 'playing' || this.lsa.active) { el.hidden = true; return; }
    el.hidden = false;
    const rows = this.analysis().seats;
    // Not the viewer's own seat, nor a teammate's (RULES §7.2).
    const friend = (seat) => seat === s.seat || this.isTeammate(seat);
    const lang = getLang();
    const body = [];
    for (const r of rows) {
      if (friend(r.seat) && o.mode !== 'flip') continue;
      const colour = SEAT_COLOURS[this.board][r.seat] || '#777';
      body.push(h('div', { class: 'tally-seat', 'data-seat': r.seat },
        h('div', { class: 'tally-head' }, h('span', { class: 'dot', style: { background: colour } }),
          h('strong', {}, o.mode === 'flip' ? t(`colour.${r.seat}`) : seatName(this.board, r.seat)),
          r.eliminated ? h('span', { class: 'muted' }, t('tally.out')) : h('span', { class: 'muted' }, t('tally.hidden', { n: r.hidden }))),
        h('div', { class: 'tally-roles' }, ROLES.map((role) => h('span', {
          class: `tally-role${r.left[role] ? '' : ' none'}`, 'data-role': role, 'data-left': r.left[role],
        }, roleName(role, lang, true), h('b', {}, String(r.left[role])))))));
    }
    clear(el).append(h('h3', { title: t('tally.hint') }, t('tally.title')), h('p', { class: 'muted small' }, t('tally.hint')), ...body);
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
    if (s.paused) return [t('table.paused'), false];
    if (!o) return [t('status.playing'), false];
    if (s.seat !== null && o.to_move === s.seat && (o.legal_actions || []).length) return [t('table.yourTurn'), true];
    // 轮到 北（电脑 · 普通）走棋: no space after a full-width bracket.
    return [t('table.toMove', { seat: this.seatLabel(o.to_move) }).replace('） ', '）'), false];
  }

  seatLabel(seat) {
    const info = this.s.table?.seats?.[seat];
    // A bot by the name the seat panel gives it (电脑 · 普通), never by its internal id.
    const name = info?.kind === 'bot' ? botDisplayName(info.name) : info?.name;
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
      if (this.isTeammate(seat)) {
        row.append(h('span', { class: 'tag partner', 'data-partner': 'true' }, t('seat.partner')));
      }
      if (o && o.skips) row.append(...this.skipTags(seat));
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
    // The table's rules (规则：QQ / 标准 / 自定义) and what they change, in words.
    const rules = tableRules(s.table);
    if (rules) {
      el.append(h('div', { class: 'table-rules small', id: 'table-rules', 'data-preset': rules.preset ?? 'custom' },
        h('strong', {}, rules.label), rules.detail ? h('span', { class: 'muted' }, ` · ${rules.detail}`) : null));
    }
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

  /**
   * A seat's skips: timeouts (shown only in games with a move clock) and blocked turns (无棋可走)
   * told apart by the `skipped` events; the limit of 5 counts them together.
   */
  skipTags(seat) {
    const s = this.s;
    const total = s.observation?.skips?.[seat] ?? 0;
    const c = skipCounts(s.history, seat);
    const clocked = !!(s.clock?.move_ms || s.clockInfo?.move_seconds);
    const tags = [];
    if (clocked) tags.push(h('span', { class: 'tag timeouts', 'data-timeouts': c.timeout }, t('table.timeouts', { n: c.timeout })));
    if (c.blocked) tags.push(h('span', { class: 'tag blocked', 'data-blocked': c.blocked }, t('table.blocked', { n: c.blocked })));
    if (total) tags.push(h('span', { class: 'tag skips', 'data-skips': total }, t('table.skipsTotal', { n: total })));
    return tags;
  }

  tick() {
    const gt = this.barEl?.querySelector('#game-time');
    if (gt && this.s.status === 'playing') gt.textContent = t('tb.time', { t: this.gameTime() });
    // The clock's last ten seconds of one's own move are heard once.
    const c = this.s.clock;
    if (c && c.remaining_ms !== null && this.isMyTurn()) {
      const ms = c.remaining_ms - (Date.now() - c.at);
      const key = `${this.s.v}:${c.at}`;
      if (ms < 10000 && ms > 0 && this.warned !== key) { this.warned = key; playSound('clock'); }
    }
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
    if (this.lsa.active) { this.lsa.renderDead(el); return; }
    el.append(h('h3', {}, t('dead.title')));
    const lang = getLang();
    const told = this.analysis().seats;
    for (const f of fallen(o, this.seats)) {
      const colour = SEAT_COLOURS[this.board][f.seat] || '#777';
      // Hidden seats: the dead the events name (tally.js: a marshal whose loss revealed the flag,
      // a piece an attack told) by name, the rest as a count.
      if (f.seat !== null && f.unknown && told[f.seat]) {
        const named = ROLES.flatMap((r) => Array(told[f.seat].dead[r]).fill(r)).slice(0, f.unknown);
        f.known = named;
        f.unknown -= named.length;
      }
      const chips = f.known.map((r) => h('span', { class: 'chip', style: { background: colour } }, roleName(r, lang)));
      el.append(h('div', { class: 'seat-dead', 'data-seat': f.seat, 'data-count': f.known.length + f.unknown },
        h('strong', {}, `${f.seat === null ? t('dead.total') : seatName(this.board, f.seat)}:`),
        chips.length || f.unknown ? chips : h('span', { class: 'muted' }, t('dead.none')),
        f.unknown ? h('span', { class: 'muted' }, t('dead.unknown', { n: f.unknown })) : null));
    }
  }
}

export { seatToken };
