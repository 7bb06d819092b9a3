// What a table does differently on the land-sea-air board (陆海空三军棋), kept out of table.js
// as social.js keeps the chat: the deploy editor (swaps limited to the squares each role may
// start on, lsa-deploy.js), play by click (moves and a scout plane's looks, lsa-actions.js),
// the player's scout notes on the board and in the 侦察记录 panel (lsa-notes.js) and the dead
// panel by arm (lsa-pieces.js). TableView asks `active` first and hands these parts over.
import { h, clear } from './ui.js';
import { t, seatName, getLang } from './i18n.js';
import { roleName } from './roles.js';
import { LSA_BOARD, lsaArm } from './lsa-board.js';
import { SEAT_COLOURS } from './render.js';
import { parseLsaActions, canAct, targetsOf, actionAt } from './lsa-actions.js';
import { parseLayout, layoutText, swapSquares, validateLayout, randomLayout, problemText } from './lsa-deploy.js';
import { noteMarks, noteRows } from './lsa-notes.js';
import { lsaFallen, pieceSetOf } from './lsa-pieces.js';

export class LsaTable {
  constructor(table) {
    this.table = table;
    this.layout = null; // Map square → role while deploying
    this.suggested = null; // the server's proposal, to start again from
    this.sel = null; // the selected square of the editor
    this.refused = null; // the square of the last refused swap, outlined until the next click
  }

  /** Whether the table plays this board. */
  get active() {
    return this.table.board === LSA_BOARD;
  }

  get s() {
    return this.table.s;
  }

  /** The piece set of the table (its options; the standard set when they do not say). */
  get pieceSet() {
    return pieceSetOf(this.s.table?.options || this.s.observation?.options);
  }

  // ---------------------------------------------------------------------------------------
  // Deployment

  /**
   * The editor starts from the layout this seat already sent (a reload), else from the server's
   * suggestion; a sync during deployment does not undo the player's own changes.
   */
  initLayout(deploy) {
    if (this.s.seat === null || this.s.seat === undefined) return;
    const sug = deploy?.suggested ? parseLayout(deploy.suggested).layout : null;
    if (sug) this.suggested = sug;
    if (this.layout) return;
    const sent = deploy?.layout ? parseLayout(deploy.layout).layout : null;
    if (sent) this.s.submitted = deploy.layout;
    const start = sent || sug;
    this.layout = start ? new Map(start) : null;
  }

  text() {
    return this.layout ? layoutText(this.layout) : null;
  }

  deployPieces() {
    const seat = this.s.seat;
    return [...(this.layout || [])].map(([at, role]) => ({ at, seat, role, arm: lsaArm(role) }));
  }

  canDrag(sq) {
    return !!this.layout?.has(sq);
  }

  /**
   * A click in the editor: the first click picks a piece, the second trades it with what is on
   * the square clicked (a piece or nothing). A refused trade says why and keeps the selection,
   * so that the player can try another square.
   */
  onDeploySquare(sq) {
    this.refused = null;
    if (!sq || sq === this.sel) {
      this.sel = null;
    } else if (this.sel) {
      this.swap(this.sel, sq);
      return;
    } else if (this.layout.has(sq)) {
      this.sel = sq;
    }
    this.table.renderBoard();
    this.table.renderDeploy();
  }

  swap(a, b) {
    const r = swapSquares(this.layout, this.s.seat, a, b);
    if (r.ok) {
      this.sel = null;
      this.refused = null;
      this.table.clearMessage();
    } else {
      this.refused = r.args.sq;
      this.table.showMessage(problemText(r), 'error');
    }
    this.table.renderBoard();
    this.table.renderDeploy();
  }

  deployBoardState() {
    const problems = validateLayout(this.layout, this.s.seat, this.pieceSet) || [];
    const refusedByServer = this.s.refused && this.s.refused.layout === this.text() ? this.s.refused.squares : [];
    return {
      pieces: this.deployPieces(), selected: this.sel, targets: [], looks: [], notes: {}, lastMove: null,
      marks: [...problems.filter((p) => p.at).map((p) => p.at), ...(this.refused ? [this.refused] : [])],
      refused: refusedByServer,
    };
  }

  renderDeploy(el) {
    const s = this.s;
    if (!this.layout) {
      clear(el).append(h('h3', {}, t('deploy.title')), h('p', { class: 'muted', id: 'lsa-no-layout' }, t('lsa.deploy.noLayout')));
      return;
    }
    const problems = validateLayout(this.layout, s.seat, this.pieceSet);
    const text = this.text();
    const submittedNow = s.submitted && s.submitted === text;
    const reset = (layout) => {
      this.layout = new Map(layout);
      this.sel = null;
      this.refused = null;
      this.table.renderBoard();
      this.renderDeploy(el);
    };
    const selRole = this.sel && this.layout.get(this.sel);
    clear(el).append(...[
      h('h3', {}, t('deploy.title')),
      h('p', { class: 'muted' }, t('lsa.deploy.hint')),
      selRole ? h('div', { class: 'notice', id: 'lsa-selected', 'data-sq': this.sel },
        t('lsa.deploy.selected', { sq: this.sel, role: roleName(selRole, getLang()) })) : null,
      h('div', { class: 'buttons' },
        h('button', { id: 'btn-random', onclick: () => reset(randomLayout(this.layout, s.seat)) }, t('deploy.random')),
        this.suggested ? h('button', { id: 'btn-suggested', onclick: () => reset(this.suggested) }, t('lsa.deploy.suggested')) : null,
        h('button', {
          id: 'btn-submit', class: 'primary', disabled: !!problems,
          onclick: () => {
            this.table.sock.send({ type: 'deploy', layout: text });
            s.submitted = text;
            this.table.keepTableLayout(text);
            this.renderDeploy(el);
          },
        }, s.submitted ? t('deploy.resubmit') : t('deploy.submit'))),
      problems
        ? h('ul', { class: 'deploy-problems', id: 'deploy-problems' }, problems.map((p) => h('li', {}, problemText(p))))
        : h('div', { class: 'notice ok', id: 'deploy-ok' }, submittedNow ? t('deploy.submitted') : t('deploy.ok')),
    ].filter((x) => x !== null));
  }

  // ---------------------------------------------------------------------------------------
  // Play

  legal() {
    const o = this.s.observation;
    if (!o || this.s.status !== 'playing' || this.s.seat === null) return [];
    return parseLsaActions(o.legal_actions);
  }

  onPlaySquare(sq) {
    const s = this.s;
    const acts = this.legal();
    if (sq && s.selected) {
      const a = actionAt(acts, s.selected, sq);
      if (a) { this.table.act(a.text); return; }
    }
    s.selected = sq && canAct(acts, sq) && s.selected !== sq ? sq : null;
    this.table.renderBoard();
  }

  /** A drag is a move (or, for a scout plane dropped on an enemy it may look at, a look). */
  onPlayDrag(from, to) {
    const a = actionAt(this.legal(), from, to);
    if (a) {
      if (!a.look) this.table.dragged = `${from}-${to}`;
      this.table.act(a.text);
      return;
    }
    this.s.selected = null;
    this.table.renderBoard();
  }

  /** The notes this viewer may see on the board: a seated player's own, nobody else's. */
  marks() {
    const s = this.s;
    return noteMarks(s.notes, s.observation?.pieces, s.seat);
  }

  playBoardState() {
    const s = this.s;
    const { moves, looks } = s.selected ? targetsOf(this.legal(), s.selected) : { moves: [], looks: [] };
    return { targets: moves, looks, notes: this.marks(), guesses: {}, deduced: {} };
  }

  // ---------------------------------------------------------------------------------------
  // Side panels

  /** 侦察记录: the player's notes (none for a spectator, who has none). */
  renderNotes(el) {
    const s = this.s;
    const seated = s.seat !== null && s.seat !== undefined;
    if (!this.active || !seated || (s.status !== 'playing' && s.status !== 'over')) { el.hidden = true; return; }
    el.hidden = false;
    // In play, the notes on pieces still hidden; at the end every piece is shown, so the notes
    // are listed as the server last sent them.
    const rows = s.status === 'over' ? (s.notes || []).filter((n) => n?.at && n?.role) : noteRows(this.marks());
    const lang = getLang();
    clear(el).append(h('h3', {}, t('lsa.notes.title')),
      rows.length
        ? h('ul', { id: 'lsa-notes-list' }, rows.map((r) => {
          const li = h('li', { 'data-at': r.at, 'data-role': r.role }, h('span', { class: 'sq' }, r.at), roleName(r.role, lang));
          this.table.pointsAt(li, [r.at]);
          return li;
        }))
        : h('p', { class: 'muted small', id: 'lsa-notes-none' }, t('lsa.notes.none')),
      rows.length ? h('p', { class: 'muted small' }, t('lsa.notes.hint')) : null);
  }

  /** 阵亡: a known seat's dead by name, a hidden seat's by arm (arms are public). */
  renderDead(el) {
    renderLsaDead(el, this.s.observation);
  }
}

/**
 * The dead panel of a land-sea-air view, into `el`: each seat's fallen by role where they are
 * known, else by arm. The table and the replay viewer draw it alike.
 */
export function renderLsaDead(el, view) {
  const lang = getLang();
  el.append(h('h3', {}, t('dead.title')));
  for (const f of lsaFallen(view)) {
    const colour = SEAT_COLOURS[LSA_BOARD][f.seat];
    const chips = f.known.map((r) => h('span', { class: 'chip', style: { background: colour } }, roleName(r, lang)));
    const arms = Object.entries(f.byArm).map(([arm, n]) => h('span', { class: 'chip by-arm', 'data-arm': arm, style: { color: colour, borderColor: colour } }, t('lsa.dead.byArm', { arm: t(`lsa.arm.${arm}`), n })));
    el.append(h('div', { class: 'seat-dead', 'data-seat': f.seat, 'data-count': f.known.length + f.unknown },
      h('strong', {}, `${seatName(LSA_BOARD, f.seat)}:`),
      chips.length || arms.length ? [...chips, ...arms] : h('span', { class: 'muted' }, t('dead.none'))));
  }
}
