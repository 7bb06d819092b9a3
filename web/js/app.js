// The single-page client: header (who you are, log in / out, language toggle), hash routes for
// the lobby (#/), a table (#/table/ID), joining by code (#/join/CODE), the replay viewer
// (#/replay/ID), a player's page (#/player/NAME), the account page (#/account) and a board
// preview that needs no server (#/demo/two_player, #/demo/four_player).
import { h, clear } from './ui.js';
import { t, getLang, setLang } from './i18n.js';
import { api, ensureSession, saveSeatToken, logout, ApiError, setSession } from './api.js';
import { serverMessage } from './errors.js';
import { PlayerView, playerLink, seatLinkKey, linkKey, displayName } from './player.js';
import { AccountView } from './account.js';
import { TableView } from './table.js';
import { ReplayView } from './replay.js';
import { BoardView } from './render.js';
import { topology } from './board.js';
import { randomCells } from './deploy.js';

const app = {
  info: null,
  player: null,
  current: null, // the active view (TableView, ReplayView, or a lobby object)
};

const main = document.getElementById('main');
const langBtn = document.getElementById('lang-toggle');
const title = document.getElementById('title');
const accountEl = document.getElementById('account');

/** A link to the player's own page: by name, or by id for a guest (guests have no page by name). */
function myPageHref(p) {
  return `#/player/${encodeURIComponent(p.guest ? p.id : p.name)}`;
}

function renderAccount() {
  clear(accountEl);
  const p = app.player;
  if (!p) return;
  accountEl.append(
    h('span', { class: 'who' }, h('span', { class: 'who-label' }, t('account.you')),
      h('a', { href: myPageHref(p), id: 'me-link', 'data-guest': p.guest ? 'true' : 'false' }, p.name),
      p.guest ? h('span', { class: 'guest-tag', id: 'me-guest' }, t('account.guest')) : null),
    p.guest
      ? h('a', { href: '#/account', id: 'login-link', class: 'header-button' }, t('account.loginRegister'))
      : h('button', { type: 'button', id: 'logout-btn', onclick: () => doLogout() }, t('account.logout')),
  );
}

function renderHeader() {
  title.textContent = t('app.title');
  langBtn.textContent = t('lang.toggle');
  document.title = `${t('app.title')} · ${t('app.subtitle')}`;
  renderAccount();
}

function setPlayer(p) {
  app.player = p;
  renderAccount();
}

async function doLogout() {
  const p = await logout();
  setPlayer(p);
  const note = t('account.loggedOut', { name: p?.name || '' });
  if (app.current instanceof AccountView) {
    app.current.player = p;
    app.current.build();
    app.current.say(() => t('account.loggedOut', { name: p?.name || '' }), 'ok');
  } else if (app.current instanceof Lobby) {
    app.current.say(note, 'ok');
  }
}

langBtn.addEventListener('click', () => {
  setLang(getLang() === 'zh' ? 'en' : 'zh');
  renderHeader();
  if (app.current && app.current.relabel) app.current.relabel();
  else route();
});

function seedRng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >> 17;
    x ^= x << 5; x >>>= 0;
    return x / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// Lobby

const OPTION_CHOICES = [
  ['landmine', ['attacker_dies', 'both_die']],
  ['middle_crossing', ['rail', 'road'], 'two_player'],
  ['rail_turns', ['straight', 'any']],
  ['win_by_flag', ['capture', 'carry_home']],
];
const OPTION_BOOLS = ['engineer_scout', 'bomb_flies'];

class Lobby {
  constructor(root) {
    this.root = root;
    this.error = h('div', { id: 'lobby-error' });
    this.build();
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 5000);
  }
  destroy() {
    clearInterval(this.timer);
  }
  relabel() {
    this.build();
    this.refresh();
  }
  fail(e) {
    const msg = e instanceof ApiError ? serverMessage(e) : e.message || String(e);
    this.say(t('error', { msg }), 'error');
  }
  say(text, kind) {
    clear(this.error).append(h('div', { class: `notice ${kind}`, id: 'lobby-message' }, text));
  }
  async playComputer(board) {
    try {
      const body = { board };
      if (this.botSel && this.botSel.value) body.bot = this.botSel.value;
      const r = await api('POST', '/api/play-computer', body);
      saveSeatToken(r.table.id, r.token);
      location.hash = `#/table/${r.table.id}`;
    } catch (e) {
      this.fail(e);
    }
  }
  build() {
    const info = app.info || {};
    const boardSel = h('select', { id: 'create-board' },
      ['two_player', 'four_player'].map((b) => h('option', { value: b }, t(`board.${b}`))));
    const modeSel = h('select', { id: 'create-mode' });
    const seatSel = h('select', { id: 'create-seat' });
    const botsBox = h('div', { class: 'row', id: 'create-bots' });
    const optsBox = h('div', { class: 'grid-form', id: 'create-options' });
    const fill = () => {
      const b = boardSel.value;
      const modes = info.modes?.[b] || (b === 'two_player' ? ['dark', 'open', 'flip'] : ['dark', 'open', 'half_open']);
      clear(modeSel).append(...modes.map((m) => h('option', { value: m }, t(`mode.${m}`))));
      const n = b === 'two_player' ? 2 : 4;
      clear(seatSel).append(...Array.from({ length: n }, (_, s) => h('option', { value: s }, t(`seat.${b}.${s}`))));
      const fillBots = () => {
        clear(botsBox).append(h('span', { class: 'muted' }, `${t('lobby.bots')}:`));
        for (let s = 0; s < n; s++) {
          if (String(s) === seatSel.value) continue;
          botsBox.append(h('label', {}, h('input', { type: 'checkbox', 'data-bot-seat': s }), ` ${t(`seat.${b}.${s}`)}`));
        }
      };
      seatSel.onchange = fillBots;
      fillBots();
      clear(optsBox);
      for (const [name, values, only] of OPTION_CHOICES) {
        if (only && only !== b) continue;
        optsBox.append(h('label', { class: 'field' }, t(`opt.${name}`),
          h('select', { 'data-option': name }, values.map((v) => h('option', { value: v }, t(`opt.${name}.${v}`))))));
      }
      for (const name of OPTION_BOOLS) {
        optsBox.append(h('label', { class: 'field' }, t(`opt.${name}`),
          h('select', { 'data-option-bool': name }, h('option', { value: 'false' }, t('no')), h('option', { value: 'true' }, t('yes')))));
      }
    };
    boardSel.onchange = fill;
    fill();
    const moveSecs = h('input', { type: 'number', min: 0, max: 600, value: info.defaults?.move_seconds ?? 30, id: 'create-move-seconds' });
    const nameIn = h('input', { type: 'text', id: 'create-name', placeholder: t('lobby.name') });
    const priv = h('input', { type: 'checkbox', id: 'create-private' });
    const create = async () => {
      const b = boardSel.value;
      const options = {};
      for (const s of optsBox.querySelectorAll('[data-option]')) {
        const def = OPTION_CHOICES.find(([n]) => n === s.dataset.option)[1][0];
        if (s.value !== def) options[s.dataset.option] = s.value;
      }
      for (const s of optsBox.querySelectorAll('[data-option-bool]')) if (s.value === 'true') options[s.dataset.optionBool] = true;
      const bots = [...botsBox.querySelectorAll('[data-bot-seat]')].filter((c) => c.checked)
        .map((c) => ({ seat: Number(c.dataset.botSeat), bot: this.botSel?.value || (info.bots || ['random'])[0] }));
      const body = {
        board: b, mode: modeSel.value, options, move_seconds: Number(moveSecs.value) || 0,
        seat: Number(seatSel.value), bots, private: priv.checked,
      };
      if (nameIn.value.trim()) body.name = nameIn.value.trim();
      try {
        const r = await api('POST', '/api/tables', body);
        saveSeatToken(r.table.id, r.token);
        location.hash = `#/table/${r.table.id}`;
      } catch (e) {
        this.fail(e);
      }
    };
    const codeIn = h('input', { type: 'text', id: 'join-code', placeholder: t('lobby.joinCode'), maxlength: 12, size: 10 });
    const join = () => { if (codeIn.value.trim()) location.hash = `#/join/${codeIn.value.trim().toUpperCase()}`; };
    codeIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') join(); });
    const bots = info.bots || [];
    this.botSel = bots.length > 1
      ? h('select', { id: 'play-bot', 'aria-label': t('lobby.opponent') }, bots.map((b) => h('option', { value: b }, t(`bot.${b}`) === `bot.${b}` ? b : t(`bot.${b}`))))
      : null;
    // The default opponent is the server's default bot (not the random beginner).
    if (this.botSel && info.default_bot && bots.includes(info.default_bot)) this.botSel.value = info.default_bot;
    this.tablesEl = h('div', { id: 'tables' });
    this.recentEl = h('div', { id: 'recent-games' });
    clear(this.root).append(
      this.error,
      h('div', { class: 'card' }, h('div', { class: 'big-buttons' },
        h('button', { class: 'primary', id: 'play-computer-2', onclick: () => this.playComputer('two_player') }, t('lobby.play2')),
        h('button', { class: 'primary', id: 'play-computer-4', onclick: () => this.playComputer('four_player') }, t('lobby.play4'))),
        this.botSel ? h('label', { class: 'row', style: { marginTop: '0.5rem' } }, t('lobby.opponent'), this.botSel) : null),
      h('div', { class: 'card' }, h('div', { class: 'row' }, codeIn, h('button', { id: 'join-btn', onclick: join }, t('lobby.join')))),
      h('div', { class: 'card' }, h('div', { class: 'row', style: { justifyContent: 'space-between' } },
        h('h2', {}, t('lobby.tables')), h('button', { onclick: () => this.refresh() }, t('lobby.refresh'))), this.tablesEl),
      h('div', { class: 'card' }, h('h2', {}, t('lobby.recent')), this.recentEl),
      h('details', { class: 'card', id: 'create' },
        h('summary', {}, h('strong', {}, t('lobby.create'))),
        h('div', { class: 'grid-form', style: { marginTop: '0.6rem' } },
          h('label', { class: 'field' }, t('lobby.board'), boardSel),
          h('label', { class: 'field' }, t('lobby.mode'), modeSel),
          h('label', { class: 'field' }, t('lobby.seat'), seatSel),
          h('label', { class: 'field' }, t('lobby.moveSeconds'), moveSecs),
          h('label', { class: 'field' }, t('lobby.name'), nameIn)),
        h('h3', { style: { marginTop: '0.7rem' } }, t('lobby.options')), optsBox,
        h('div', { style: { marginTop: '0.6rem' } }, botsBox),
        h('label', { class: 'row', style: { marginTop: '0.5rem' } }, priv, t('lobby.private')),
        h('div', { class: 'buttons', style: { marginTop: '0.6rem' } }, h('button', { class: 'primary', id: 'create-btn', onclick: create }, t('lobby.create')))),
    );
  }
  async refresh() {
    let list;
    let lobby;
    try {
      lobby = await api('GET', '/api/tables');
      list = lobby.tables || [];
    } catch (e) {
      this.fail(e);
      return;
    }
    this.showRecent(lobby.recent_games || []);
    if (!list.length) {
      clear(this.tablesEl).append(h('p', { class: 'muted' }, t('lobby.none')));
      return;
    }
    const rows = list.map((tb) => h('tr', { 'data-table': tb.id },
      h('td', {}, tb.name || tb.code),
      h('td', {}, t(`board.${tb.board}`)),
      h('td', { class: 'opt' }, t(`mode.${tb.mode}`)),
      h('td', {}, t(`status.${tb.status}`)),
      h('td', { class: 'opt players' }, (tb.seats || []).map((s, i) => [i ? ' · ' : null, s.kind === 'empty' ? '—' : playerLink(s.name, {}, seatLinkKey(s))])),
      h('td', {}, h('a', { href: `#/table/${tb.id}` }, h('button', {}, tb.status === 'waiting' ? t('lobby.open') : t('lobby.watch'))))));
    clear(this.tablesEl).append(h('table', { class: 'tables' },
      h('thead', {}, h('tr', {}, h('th', {}, t('lobby.name')), h('th', {}, t('lobby.board')), h('th', { class: 'opt' }, t('lobby.mode')),
        h('th', {}, t('lobby.status')), h('th', { class: 'opt' }, t('lobby.players')), h('th', {}))),
      h('tbody', {}, rows)));
  }
  /** Finished public games from the server's database, newest first, each with its replay. */
  showRecent(games) {
    if (!games.length) {
      clear(this.recentEl).append(h('p', { class: 'muted' }, t('lobby.recentNone')));
      return;
    }
    const rows = games.map((g) => {
      const ids = g.player_ids || [];
      const players = (g.players || []).map((name, s) => [s ? ' · ' : null, playerLink(name, {}, linkKey(name, ids[s]))]);
      const o = g.outcome || {};
      const result = o.result === 'draw' ? t('result.draw')
        : o.result === 'aborted' || !o.result ? t('result.aborted')
          : `${(o.winners || []).map((s) => displayName(g.players?.[s] || '')).join(' · ')} ${t('lobby.winners')}`;
      return h('tr', { 'data-game': g.id },
        h('td', {}, `${t(`board.${g.board}`)} · ${t(`mode.${g.mode}`)}`),
        h('td', { class: 'players' }, players),
        h('td', {}, result),
        h('td', {}, h('a', { href: `#/replay/${encodeURIComponent(g.id)}`, class: 'replay-link' }, t('player.replay'))));
    });
    clear(this.recentEl).append(h('table', { class: 'tables' }, h('tbody', {}, rows)));
  }
}

// ---------------------------------------------------------------------------------------------
// Board preview without a server

class Demo {
  constructor(root, board, viewer) {
    this.root = root;
    this.board = board === 'four_player' ? 'four_player' : 'two_player';
    this.viewer = Number(viewer) || 0;
    this.build();
  }
  relabel() { this.build(); }
  build() {
    const topo = topology(this.board);
    const rng = seedRng(42);
    const pieces = [];
    for (let seat = 0; seat < topo.seats; seat++) {
      const cells = randomCells(rng);
      for (let r = 0; r < 6; r++) for (let c = 0; c < 5; c++) {
        if (cells[r][c]) pieces.push({ at: topo.localSquare(seat, r, c), seat, role: seat === this.viewer ? cells[r][c] : null });
      }
    }
    const wrap = h('div', { class: `board-wrap${this.board === 'four_player' ? ' four' : ''}`, id: 'board' });
    clear(this.root).append(wrap);
    const view = new BoardView(wrap, { board: this.board, viewer: this.viewer, onClick: () => {} });
    const v = this.viewer;
    view.update({ pieces, lastMove: { from: topo.localSquare(v, 1, 0), to: topo.localSquare(v, 0, 0), result: 'attacker_wins' } });
  }
}

// ---------------------------------------------------------------------------------------------
// Router

async function route(e) {
  // A view with a game at stake (a table) may keep the person: the address goes back.
  if (e && app.current?.confirmLeave && !app.current.confirmLeave(location.hash)) {
    history.replaceState(null, '', e.oldURL);
    return;
  }
  if (app.current && app.current.destroy) app.current.destroy();
  app.current = null;
  const hash = location.hash.replace(/^#\/?/, '');
  const [page, arg, arg2] = hash.split('/');
  if (page === 'demo') {
    app.current = new Demo(main, arg, arg2);
    return;
  }
  if (!app.info) {
    try { app.info = await api('GET', '/api/info'); } catch { app.info = {}; }
  }
  if (!app.player) setPlayer(await ensureSession());
  if (page === 'table' && arg) {
    app.current = new TableView(main, arg, { info: app.info });
  } else if (page === 'player' && arg) {
    app.current = new PlayerView(main, decodeURIComponent(arg), { me: app.player });
  } else if (page === 'account') {
    app.current = new AccountView(main, { player: app.player, onChange: setPlayer, returnTo: app.returnTo || '#/' });
  } else if (page === 'replay' && arg) {
    app.current = new ReplayView(main, arg);
  } else if (page === 'join' && arg) {
    try {
      const tb = await api('GET', `/api/join/${encodeURIComponent(arg)}`);
      location.replace(`#/table/${tb.id || tb.table?.id}`);
    } catch (e) {
      app.current = new Lobby(main);
      // An unknown code is said with the code; any other refusal in its own words.
      const unknown = !(e instanceof ApiError) || e.code === 'table.code_not_found';
      app.current.fail(unknown ? { message: t('lobby.notFound', { code: arg }) } : e);
    }
  } else {
    app.current = new Lobby(main);
  }
}

// Remember the last page that is not the account page: logging in returns there.
window.addEventListener('hashchange', (e) => {
  const prev = new URL(e.oldURL).hash;
  if (!/^#\/account/.test(prev) && /^#\/account/.test(location.hash)) app.returnTo = prev || '#/';
});

// For scripts and tests: the active view (its state is what the page shows), and the API.
app.api = api;
app.saveSeatToken = saveSeatToken;
app.setSession = setSession;
window.junqi = app;

setLang(getLang());
renderHeader();
window.addEventListener('hashchange', route);
route();
