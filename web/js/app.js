// The single-page client: header (who you are, log in / out, the leaderboard and help links,
// language toggle), hash routes for the lobby (#/, lobby.js), a table (#/table/ID), joining by
// code (#/join/CODE), the replay viewer (#/replay/ID), a player's page (#/player/NAME), the
// leaderboard (#/leaderboard/BOARD/MODE), the rules and help page (#/help, #/help/SECTION), the
// account page (#/account) and a board preview that needs no server (#/demo/BOARD/VIEWER/TEAMS:
// #/demo/two_player, #/demo/three_player, #/demo/four_player, #/demo/six_player/2/opposite).
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
import { topology, BOARDS, SEATS, sameTeam } from './board.js';
import { randomCells } from './deploy.js';
import { Zoom, readableZoom } from './zoom.js';

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
  /**
   * `#/demo/BOARD/VIEWER/TEAMS/MODE`: a sample position of BOARD seen from VIEWER's seat (a
   * random legal layout for every seat), under the `teams` option TEAMS; MODE `half_open` shows
   * the teammates' pieces too, `open` every piece. The viewer's piece on its left front corner
   * has just won an attack, and one piece stands selected with the squares it could reach; a
   * tap on another square selects that one (this.clicked). A phone opens the board zoomed on
   * the viewer's arm, as a table does.
   */
  constructor(root, board, viewer, teams, mode) {
    this.root = root;
    this.board = BOARDS.includes(board) ? board : 'two_player';
    const n = SEATS[this.board];
    this.viewer = ((Number(viewer) || 0) % n + n) % n;
    this.teams = teams || undefined;
    this.mode = mode || 'dark';
    this.build();
  }
  relabel() { this.build(); }
  build() {
    const topo = topology(this.board);
    const rng = seededRng(42);
    const v = this.viewer;
    const shown = (seat) => seat === v || this.mode === 'open' || (this.mode === 'half_open' && sameTeam(this.board, this.teams, v, seat));
    const pieces = [];
    for (let seat = 0; seat < topo.seats; seat++) {
      const cells = randomCells(rng);
      for (let r = 0; r < 6; r++) for (let c = 0; c < 5; c++) {
        if (cells[r][c]) pieces.push({ at: topo.localSquare(seat, r, c), seat, role: shown(seat) ? cells[r][c] : null });
      }
    }
    // The piece on the viewer's right front corner selected, with its reach on this position.
    const selected = topo.localSquare(v, 0, 4);
    const occupied = new Map(pieces.map((p) => [p.at, p]));
    const mine = occupied.get(selected);
    const targets = mine && mine.role !== 'landmine' && mine.role !== 'flag' ? demoTargets(topo, selected, occupied, this.board, this.teams) : [];
    const multi = this.board !== 'two_player';
    const wrap = h('div', { class: `board-wrap${multi ? ' multi' : ''}${this.board === 'four_player' ? ' four' : ''}`, id: 'board' });
    clear(this.root).append(wrap);
    const view = new BoardView(wrap, {
      board: this.board, viewer: v, teams: this.teams,
      onClick: (sq) => {
        this.clicked = sq;
        view.update({ selected: sq, targets: sq === selected ? targets : [] });
      },
    });
    view.update({
      pieces, selected: mine ? selected : null, targets,
      lastMove: { from: topo.localSquare(v, 1, 0), to: topo.localSquare(v, 0, 0), result: 'attacker_wins' },
    });
    this.view = view;
    this.zoom = new Zoom(wrap);
    this.zoom.set(readableZoom(this.board, wrap.clientWidth, view.geo.width));
  }
}

/**
 * Where a non-engineer on `from` could go on the demo position: one step, or a run along a
 * straight line up to the first piece (an enemy's is an attack). Camps are never attacked.
 */
function demoTargets(topo, from, occupied, board, teams) {
  const me = occupied.get(from);
  const ok = (sq) => {
    const p = occupied.get(sq);
    return !p || (!sameTeam(board, teams, me.seat, p.seat) && topo.get(sq).kind !== 'camp');
  };
  const out = new Set([...topo.stepAdj.get(from)].filter(ok));
  if (topo.get(from).rail) {
    for (const line of topo.lines) {
      const i = line.indexOf(from);
      if (i < 0) continue;
      for (const d of [-1, 1]) {
        for (let j = i + d; j >= 0 && j < line.length; j += d) {
          if (occupied.has(line[j])) { if (ok(line[j])) out.add(line[j]); break; }
          out.add(line[j]);
        }
      }
    }
  }
  return [...out];
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
    app.current = new Demo(main, arg, arg2, hash.split('/')[3], hash.split('/')[4]);
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
