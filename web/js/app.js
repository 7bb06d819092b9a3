// The single-page client: header (who you are, log in / out, the leaderboard and help links,
// language toggle), hash routes for the lobby (#/, lobby.js), a table (#/table/ID), joining by
// code (#/join/CODE), the replay viewer (#/replay/ID), a player's page (#/player/NAME), the
// leaderboard (#/leaderboard/BOARD/MODE), the rules and help page (#/help, #/help/SECTION), the
// account page (#/account) and a board preview that needs no server (#/demo/two_player,
// #/demo/four_player).
import { h, clear, seededRng } from './ui.js';
import { t, getLang, setLang } from './i18n.js';
import { api, ensureSession, saveSeatToken, logout, ApiError, setSession } from './api.js';
import { PlayerView } from './player.js';
import { Lobby } from './lobby.js';
import { LeaderboardView } from './leaderboard.js';
import { HelpView } from './help.js';
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
const navLeaderboard = document.getElementById('nav-leaderboard');
const navHelp = document.getElementById('nav-help');

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
  if (navLeaderboard) navLeaderboard.textContent = t('nav.leaderboard');
  if (navHelp) navHelp.textContent = t('nav.help');
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
    const rng = seededRng(42);
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
  } else if (page === 'leaderboard') {
    app.current = new LeaderboardView(main, arg, arg2, { info: app.info });
  } else if (page === 'help') {
    app.current = new HelpView(main, arg && decodeURIComponent(arg));
  } else if (page === 'account') {
    app.current = new AccountView(main, { player: app.player, onChange: setPlayer, returnTo: app.returnTo || '#/' });
  } else if (page === 'replay' && arg) {
    app.current = new ReplayView(main, arg);
  } else if (page === 'join' && arg) {
    try {
      const tb = await api('GET', `/api/join/${encodeURIComponent(arg)}`);
      location.replace(`#/table/${tb.id || tb.table?.id}`);
    } catch (e) {
      app.current = new Lobby(main, { info: app.info });
      // An unknown code is said with the code; any other refusal in its own words.
      const unknown = !(e instanceof ApiError) || e.code === 'table.code_not_found';
      app.current.fail(unknown ? { message: t('lobby.notFound', { code: arg }) } : e);
    }
  } else {
    app.current = new Lobby(main, { info: app.info });
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
