// The three-player (三国) and six-player (六国) boards in real headless Chromium, at a desktop
// (1280×800) and a phone (390×844, touch) size: the demo routes (#/demo/three_player,
// #/demo/six_player) draw every square, rail edge and arc; labels stay upright on turned arms;
// the viewer's arm is at the bottom; 你 and 队友 stand on the right arms under each `teams`
// value; the pieces of a phone's zoomed six-player board are big enough to tap, and a tap hits
// the square under the finger. The lobby offers both boards and the `teams` choice (against a
// server whose GET /api/info lists them, mocked here while the server does not play them yet),
// and when the server serves a board's geometry (GET /api/boards/NAME) it is the client's.
// The screenshots docs/table-six-desktop.png, docs/table-six-phone.png and
// docs/table-three-desktop.png are taken here.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, ROOT } from '../lib/server.mjs';
import { launchScreen } from '../lib/browser.mjs';
import { topology } from '../../js/board.js';
import { randomCells } from '../../js/deploy.js';
import { seededRng } from '../../js/ui.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '../artifacts');
mkdirSync(ARTIFACTS, { recursive: true });
const DOCS = path.join(ROOT, 'docs');

let server;
before(async () => { server = await startServer(); });
after(async () => { if (server) await server.stop(); });

async function open(screen) {
  const b = await launchScreen(screen);
  const page = await b.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { ...b, page, errors };
}

/** Open a demo board and wait for its pieces. */
async function demo(page, hash) {
  await page.goto(`${server.url}/#/demo/${hash}`);
  await page.waitForSelector('svg.board .piece');
}

/**
 * Every text of the board that must read upright: its screen transform has no rotation (nor a
 * mirror). Returns the texts that fail, with their matrices.
 */
async function tiltedTexts(page) {
  return page.$$eval('svg.board text', (els) => els.map((e) => {
    const m = e.getScreenCTM();
    return { text: e.textContent, cls: e.getAttribute('class'), a: m.a, b: m.b, c: m.c, d: m.d };
  }).filter((m) => Math.abs(m.b) > 1e-6 || Math.abs(m.c) > 1e-6 || m.a <= 0 || m.d <= 0));
}

/** Screen centres (CSS px) of the given squares' hit cells. */
async function centres(page, squares) {
  return page.evaluate((sqs) => Object.fromEntries(sqs.map((sq) => {
    const r = document.querySelector(`.hits [data-sq="${sq}"]`).getBoundingClientRect();
    return [sq, [r.x + r.width / 2, r.y + r.height / 2]];
  })), squares);
}

for (const screen of ['desktop', 'phone']) {
  describe(`${screen}`, () => {
    test('the six-player board: 193 squares, 144 rails with 6 arcs, upright labels, the viewer at the bottom, tap targets', async () => {
      const b = await open(screen);
      const { page } = b;
      try {
        await demo(page, 'six_player/0/alternate/half_open');
        const topo = topology('six_player');
        assert.equal(await page.locator('.hits [data-sq]').count(), 193);
        assert.equal(await page.locator('svg.board-six_player .squares .camp').count(), 30);
        assert.equal(await page.locator('svg.board-six_player .squares .hq').count(), 12);
        assert.equal(await page.locator('svg.board-six_player .rail').count(), 144);
        assert.equal(await page.locator('svg.board-six_player .rail[d*="A"]').count(), 6, 'the arcs between arms drawn as arcs');
        assert.equal(await page.locator('svg.board-six_player .centre-star').count(), 1);
        // Half-open demo: the viewer's pieces and its two teammates' (arms 2 and 4) are named.
        assert.equal(await page.locator('.piece').count(), 150);
        assert.equal(await page.locator('.piece .tile-label').count(), 75);
        assert.deepEqual(await tiltedTexts(page), [], 'every label upright');
        // The teammates' tiles lie along their arms (turned), their labels do not.
        const turns = await page.$$eval('.piece[data-seat="2"] .tile-body', (els) => [...new Set(els.map((e) => e.getAttribute('transform')))]);
        assert.deepEqual(turns, ['rotate(-120)']);
        assert.equal(await page.locator('.piece[data-seat="0"] .tile-body').count(), 0, 'the viewer\'s own arm is upright');
        // Arm names: six, 你 on the viewer's, 队友 on the teammates' (alternate: 2 and 4).
        assert.deepEqual(await page.$$eval('.arm-name .arm-label', (els) => els.map((e) => e.textContent)), ['红', '蓝', '橙', '绿', '紫', '黑']);
        assert.deepEqual(await page.$$eval('.arm-name.ally', (els) => els.map((e) => e.dataset.seat)), ['2', '4']);
        assert.equal(await page.locator('.arm-name.own[data-seat="0"] .arm-tag').textContent(), '你');
        assert.equal(await page.locator('.arm-name[data-seat="2"] .arm-tag').textContent(), '队友');
        // The viewer's arm is at the bottom: its HQ row lowest, in the middle.
        const c = await centres(page, topo.names());
        const lowest = Object.entries(c).sort((p, q) => q[1][1] - p[1][1]).slice(0, 5).map(([n]) => n).sort();
        assert.deepEqual(lowest, ['0a1', '0b1', '0c1', '0d1', '0e1']);
        assert.ok(Math.abs(c['0c1'][0] - c.x[0]) < 1, '0c1 under the middle');
        // Tap targets: neighbouring squares at least 28 px apart (the zoomed phone board), own
        // pieces at least 28 px (phone: 32 px, as the four-player board) tall.
        let minStep = Infinity;
        for (const [a, bb] of [...topo.railEdges, ...topo.roadEdges]) {
          if (topo.get(a).home?.seat !== 0 && topo.get(bb).home?.seat !== 0) continue; // the arm in view
          minStep = Math.min(minStep, Math.hypot(c[a][0] - c[bb][0], c[a][1] - c[bb][1]));
        }
        assert.ok(minStep >= 28, `own arm's squares ${minStep.toFixed(1)} px apart`);
        const tiles = await page.$$eval('.piece[data-seat="0"] .tile', (els) => els.map((e) => e.getBoundingClientRect().height));
        const minTile = screen === 'phone' ? 32 : 22;
        assert.ok(Math.min(...tiles) >= minTile, `own tiles ${Math.min(...tiles).toFixed(1)} px tall`);
        if (screen === 'phone') {
          assert.ok(Number(await page.getAttribute('#board', 'data-zoom')) > 1, 'a phone opens the board zoomed');
          // The own arm in view.
          const inView = await page.evaluate(() => {
            const wrap = document.getElementById('board').getBoundingClientRect();
            return [...document.querySelectorAll('.piece[data-seat="0"]')].filter((p) => {
              const r = p.getBoundingClientRect();
              return r.left >= wrap.left - 1 && r.right <= wrap.right + 1 && r.top >= wrap.top - 1 && r.bottom <= wrap.bottom + 1;
            }).length;
          });
          assert.ok(inView >= 15, `own pieces in view: ${inView}`);
          assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scroll');
          await page.screenshot({ path: path.join(DOCS, 'table-six-phone.png') });
        } else {
          await page.screenshot({ path: path.join(DOCS, 'table-six-desktop.png') });
        }
        // A tap (a click on a desktop) hits the square under it, on the viewer's arm and on a
        // turned one (scrolled into view on the zoomed phone board).
        for (const sq of ['0b2', 't0', '1c3', 'n1']) {
          const hit = page.locator(`.hits [data-sq="${sq}"]`);
          await hit.scrollIntoViewIfNeeded();
          const r = await hit.boundingBox();
          const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
          if (screen === 'phone') await page.touchscreen.tap(x, y);
          else await page.mouse.click(x, y);
          assert.equal(await page.evaluate(() => window.junqi.current.clicked), sq);
          assert.equal(await page.locator(`svg.board .piece.selected[data-at="${sq}"]`).count(), await page.locator(`.piece[data-at="${sq}"]`).count());
        }
        assert.deepEqual(b.errors, []);
      } finally {
        await b.close();
      }
    });

    test('the three-player board: 99 squares, 71 rails with 2 arcs, no West, the viewer at the bottom', async () => {
      const b = await open(screen);
      const { page } = b;
      try {
        for (const viewer of [0, 1, 2]) {
          await demo(page, `three_player/${viewer}`);
          assert.equal(await page.locator('.hits [data-sq]').count(), 99);
          assert.equal(await page.locator('svg.board-three_player .rail').count(), 71);
          assert.equal(await page.locator('svg.board-three_player .rail[d*="A"]').count(), 2);
          assert.equal(await page.locator('svg.board-three_player .camp').count(), 15);
          assert.equal(await page.locator('.hits [data-sq="f9"]').count(), 0, 'West is gone');
          assert.equal(await page.locator('.piece').count(), 75);
          assert.deepEqual(await page.$$eval('.arm-name .arm-label', (els) => els.map((e) => e.textContent)), ['南', '东', '北']);
          assert.deepEqual(await page.$$eval('.arm-name.ally', (els) => els.length), 0, 'every seat alone');
          assert.deepEqual(await tiltedTexts(page), []);
          const t = topology('three_player');
          const c = await centres(page, t.names());
          const hq = t.hqsOf(viewer);
          const bottom = Math.max(...Object.values(c).map((p) => p[1]));
          for (const sq of hq) assert.ok(Math.abs(c[sq][1] - bottom) < 1, `${sq} on the bottom row for viewer ${viewer}`);
          // The board is cut to its three arms: no more than a margin (with the arm names)
          // beyond the squares on any side, where West's arm would have stood six cells.
          const margins = await page.evaluate(() => {
            const g = window.junqi.current.view.geo;
            const pts = g.topo.names().map((n) => g.pos(n));
            const xs = pts.map((p) => p[0]);
            const ys = pts.map((p) => p[1]);
            return [Math.min(...xs), g.width - Math.max(...xs), Math.min(...ys), g.height - Math.max(...ys)].map((v) => v / g.L.cx);
          });
          for (const m of margins) assert.ok(m < 3.5, `margins of ${margins.map((v) => v.toFixed(2))} cells for viewer ${viewer}`);
          if (viewer === 0 && screen === 'desktop') await page.screenshot({ path: path.join(DOCS, 'table-three-desktop.png') });
        }
        assert.deepEqual(b.errors, []);
      } finally {
        await b.close();
      }
    });
  });
}

test('teams on the arms: alternate, opposite, none, and the seat turned to the bottom', async () => {
  const b = await open('desktop');
  const { page } = b;
  try {
    const allies = async () => page.$$eval('.arm-name.ally', (els) => els.map((e) => Number(e.dataset.seat)));
    await demo(page, 'six_player/1');
    assert.deepEqual(await allies(), [3, 5]);
    await demo(page, 'six_player/1/opposite');
    assert.deepEqual(await allies(), [4]);
    await demo(page, 'six_player/1/none');
    assert.deepEqual(await allies(), []);
    // Seat 1 at the bottom: the whole star turned by −60°, its arm under the middle.
    const c = await centres(page, ['1c1', 'x', '0c1']);
    assert.ok(Math.abs(c['1c1'][0] - c.x[0]) < 1 && c['1c1'][1] > c.x[1]);
    assert.ok(c['0c1'][0] < c.x[0], "seat 0's arm to the viewer's left-bottom");
    // English: six colours, "you" and "ally".
    await page.click('#lang-toggle');
    await demo(page, 'six_player/3');
    assert.deepEqual(await page.$$eval('.arm-name .arm-label', (els) => els.map((e) => e.textContent)), ['Red', 'Blue', 'Orange', 'Green', 'Purple', 'Black']);
    assert.equal(await page.locator('.arm-name[data-seat="1"] .arm-tag').textContent(), 'ally');
    assert.equal(await page.locator('.arm-name[data-seat="3"] .arm-tag').textContent(), 'you');
    await page.click('#lang-toggle');
    // The four-player board names its arms too, 队友 on the partner.
    await demo(page, 'four_player');
    assert.deepEqual(await allies(), [2]);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('the lobby offers three- and six-player games and the teams choice (a server that lists them)', async () => {
  const b = await open('desktop');
  const { page } = b;
  try {
    // This server does not play them yet: the buttons are there but disabled, and say so.
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector('#play-computer-6');
    const info = await (await fetch(`${server.url}/api/info`)).json();
    const served = (board) => (info.boards || []).includes(board);
    for (const [id, board] of [['3', 'three_player'], ['6', 'six_player']]) {
      assert.equal(await page.locator(`#play-computer-${id}`).isDisabled(), !served(board), board);
    }
    if (!served('six_player')) assert.match(await page.locator('#pc-served').textContent(), /六国军棋/);
    // A server that lists every board (GET /api/info mocked), and the requests the lobby makes.
    await page.route('**/api/info', (route) => route.fulfill({
      json: {
        ...info,
        boards: ['two_player', 'three_player', 'four_player', 'six_player', 'land_sea_air'],
        modes: { ...info.modes, three_player: ['dark', 'open'], six_player: ['dark', 'open', 'half_open'] },
      },
    }));
    const posted = [];
    /** Wait until the lobby has made more than `n` requests (each refused with a toast). */
    const nextRequest = async (n) => {
      for (let i = 0; i < 100 && posted.length <= n; i++) await page.waitForTimeout(50);
      assert.ok(posted.length > n, 'a request was made');
      return posted.at(-1);
    };
    const refuse = (route) => {
      posted.push({ url: route.request().url(), body: route.request().postDataJSON() });
      return route.fulfill({ status: 400, json: { code: 'request.bad', error: 'not in this test', args: {} } });
    };
    await page.route('**/api/play-computer', refuse);
    await page.route('**/api/tables', (route) => (route.request().method() === 'POST' ? refuse(route) : route.fallback()));
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.waitForSelector('#play-computer-6');
    assert.equal(await page.locator('#pc-served').isHidden(), true);
    assert.deepEqual(await page.$$eval('.big-buttons button', (els) => els.map((e) => e.id)), ['play-computer-2', 'play-computer-3', 'play-computer-4', 'play-computer-6', 'play-computer-lsa']);
    assert.equal(await page.locator('#play-computer-3').textContent(), '人机对战（三国）');
    assert.equal(await page.locator('#play-computer-6').textContent(), '人机对战（六国）');
    assert.equal(await page.locator('#play-computer-3').isDisabled(), false);
    // 双明 needs teams: not on three seats.
    await page.click('label:has(#pc-mode-half_open)');
    assert.equal(await page.locator('#play-computer-3').isDisabled(), true);
    assert.equal(await page.locator('#play-computer-6').isDisabled(), false);
    assert.equal(await page.locator('#pc-hint').textContent(), '双明只有四国军棋、六国军棋');
    let n = posted.length;
    await page.click('#play-computer-6');
    const six = await nextRequest(n);
    assert.deepEqual([six.body.board, six.body.mode], ['six_player', 'half_open']);
    await page.waitForSelector('#lobby-message');
    await page.click('label:has(#pc-mode-dark)');
    n = posted.length;
    await page.click('#play-computer-3');
    const three = await nextRequest(n);
    assert.deepEqual([three.body.board, three.body.mode], ['three_player', 'dark']);
    // The create form: three-player has no teams choice and dark/open; six-player has the
    // three teams values, and half-open only with teams.
    await page.click('#create summary');
    await page.selectOption('#create-board', 'three_player');
    assert.equal(await page.locator('#create-teams-field').isVisible(), false);
    assert.deepEqual(await page.$$eval('#create-mode option', (els) => els.map((e) => e.value)), ['dark', 'open']);
    assert.deepEqual(await page.$$eval('#create-seat option', (els) => els.map((e) => e.textContent)), ['南', '东', '北']);
    await page.selectOption('#create-board', 'six_player');
    assert.equal(await page.locator('#create-teams-field').isVisible(), true);
    assert.deepEqual(await page.$$eval('#create-teams option', (els) => els.map((e) => [e.value, e.textContent])),
      [['alternate', '隔位联盟'], ['opposite', '对面联盟'], ['none', '各自为战']]);
    assert.deepEqual(await page.$$eval('#create-seat option', (els) => els.map((e) => e.textContent)), ['红', '蓝', '橙', '绿', '紫', '黑']);
    assert.equal(await page.locator('#create-bots [data-bot-seat]').count(), 5);
    assert.deepEqual(await page.$$eval('#create-mode option', (els) => els.map((e) => e.value)), ['dark', 'open', 'half_open']);
    await page.selectOption('#create-teams', 'none');
    assert.deepEqual(await page.$$eval('#create-mode option', (els) => els.map((e) => e.value)), ['dark', 'open']);
    assert.equal(await page.locator('#create-teams-hint').isVisible(), true);
    await page.selectOption('#create-teams', 'opposite');
    await page.selectOption('#create-mode', 'half_open');
    n = posted.length;
    await page.click('#create-btn');
    const made = await nextRequest(n);
    assert.ok(made.url.endsWith('/api/tables'));
    assert.equal(made.body.board, 'six_player');
    assert.equal(made.body.mode, 'half_open');
    assert.equal(made.body.options.teams, 'opposite');
    // The default (alternate) is not sent, like every other default.
    await page.selectOption('#create-teams', 'alternate');
    n = posted.length;
    await page.click('#create-btn');
    assert.equal((await nextRequest(n)).body.options.teams, undefined);
    // The teams tip explains itself.
    await page.hover('[data-tip="teams"] .rule-name');
    await page.waitForSelector('#tip-teams:not([hidden])');
    assert.match(await page.locator('#tip-teams').textContent(), /隔位联盟.*对面联盟.*各自为战/);
    // The leaderboard and the help page know the boards.
    await page.goto(`${server.url}/#/leaderboard/six_player/half_open`);
    await page.waitForSelector('#lb-boards');
    assert.deepEqual(await page.$$eval('#lb-boards [data-board]', (els) => els.map((e) => e.dataset.board)), ['two_player', 'three_player', 'four_player', 'six_player']);
    assert.equal(await page.getAttribute('#lb-boards [data-board="six_player"]', 'aria-selected'), 'true');
    assert.deepEqual(await page.$$eval('#lb-modes [data-mode]', (els) => els.map((e) => e.dataset.mode)), ['dark', 'open', 'half_open']);
    await page.goto(`${server.url}/#/help/boards`);
    await page.waitForSelector('#help-board-six_player svg .piece');
    assert.equal(await page.locator('#help-board-three_player svg .piece').count(), 75);
    assert.equal(await page.locator('#help-board-six_player svg .piece').count(), 150);
    assert.equal(await page.locator('#help-rule-teams').count(), 1);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test("the client's three- and six-player geometry is the server's (GET /api/boards), once the server serves them", async (t) => {
  for (const board of ['three_player', 'six_player']) {
    const r = await fetch(`${server.url}/api/boards/${board}`);
    if (!r.ok) {
      t.diagnostic(`${board}: not served yet (${r.status})`);
      continue;
    }
    const data = await r.json();
    const topo = topology(board);
    assert.equal(data.squares.length, topo.squares.size, board);
    for (const sq of data.squares) {
      const mine = topo.get(sq.name);
      assert.ok(mine, `${board} ${sq.name}`);
      assert.deepEqual([mine.kind, mine.rail, mine.home], [sq.kind === 'headquarters' ? 'hq' : sq.kind, sq.rail, sq.home ?? null], sq.name);
      if (board === 'three_player') assert.deepEqual([mine.file, mine.rank], [sq.file, sq.rank], sq.name);
    }
    const key = (a, b, rail) => `${[a, b].sort().join('-')}:${rail}`;
    const theirs = new Set(data.edges.map((e) => key(e.a, e.b, e.rail)));
    const ours = new Set([...topo.roadEdges.map(([a, b]) => key(a, b, false)), ...topo.railEdges.map(([a, b]) => key(a, b, true))]);
    assert.deepEqual([...ours].sort(), [...theirs].sort(), board);
  }
});

// ---------------------------------------------------------------------------------------------
// The table and the replay viewer with three and six seats, against a stand-in for the server's
// table socket and replay (the real server does not play these boards yet): the protocol is the
// one of docs/server-protocol.md, only the board name, the seat count and `teams` are new.

/** A position of `board` with a random legal layout per seat; the viewer's roles shown. */
function position(board, viewer, { teams, known = false } = {}) {
  const topo = topology(board);
  const rng = seededRng(7);
  const pieces = [];
  for (let seat = 0; seat < topo.seats; seat++) {
    const cells = randomCells(rng);
    for (let r = 0; r < 6; r++) for (let c = 0; c < 5; c++) {
      if (cells[r][c]) pieces.push({ at: topo.localSquare(seat, r, c), seat, role: known || seat === viewer ? cells[r][c] : null });
    }
  }
  return { board, mode: 'dark', options: teams ? { teams } : {}, to_move: 0, plies: 0, skips: Array(topo.seats).fill(0), eliminated: [], pieces };
}

/** Serve one table's socket: a seated player at seat 0, bots elsewhere, play under way. */
async function fakeTable(page, board, teams, legal) {
  const topo = topology(board);
  const obs = { ...position(board, 0, { teams }), observer: { seat: 0 }, legal_actions: legal };
  const seats = Array.from({ length: topo.seats }, (_, i) => (i === 0
    ? { kind: 'human', name: 'Me', player: { id: 'p_me', name: 'Me', guest: true }, connected: true }
    : { kind: 'bot', name: 'bot:heuristic', player: null, connected: true }));
  const table = { id: `fake-${board}`, code: 'QX7K2P', board, mode: 'dark', status: 'playing', options: teams ? { teams } : {}, seats, spectators: 0 };
  const acts = [];
  await page.routeWebSocket(/\/ws\//, (ws) => {
    ws.onMessage((m) => {
      const f = JSON.parse(m);
      if (f.type === 'hello') {
        ws.send(JSON.stringify({ type: 'welcome', seat: 0, host: true, player: { id: 'p_me', name: 'Me', guest: true } }));
        ws.send(JSON.stringify({ type: 'table', table, deployed: Array(topo.seats).fill(true) }));
        ws.send(JSON.stringify({ type: 'sync', status: 'playing', v: 0, observation: obs, clock: { to_move: 0, remaining_ms: null, move_ms: 0 }, outcome: null }));
      } else if (f.type === 'act') {
        acts.push(f.action);
        const [from, to] = f.action.split('-');
        ws.send(JSON.stringify({ type: 'ack', id: f.id }));
        ws.send(JSON.stringify({ type: 'events', v: 1, entry: f.action, events: [{ kind: 'move', seat: 0, from, to }], to_move: 1 }));
        const pieces = obs.pieces.map((p) => (p.at === from ? { ...p, at: to } : p));
        ws.send(JSON.stringify({ type: 'observation', v: 1, observation: { ...obs, pieces, to_move: 1, plies: 1, legal_actions: [] }, clock: { to_move: 1, remaining_ms: null, move_ms: 0 } }));
      }
    });
  });
  return { acts, table };
}

for (const [board, teams, partners, enemies] of [
  ['six_player', undefined, ['2', '4'], ['1', '3', '5']],
  ['six_player', 'opposite', ['3'], ['1', '2', '4', '5']],
  ['three_player', undefined, [], ['1', '2']],
]) {
  test(`a ${board} table (teams ${teams || 'default'}): seat panels, 队友, the tally, the fallen list, a move by clicks`, async () => {
    const b = await open('desktop');
    const { page } = b;
    try {
      const topo = topology(board);
      const front = topo.localSquare(0, 0, 2); // the middle of the front row, to the centre
      const to = board === 'six_player' ? 'n0' : 'i7';
      const { acts } = await fakeTable(page, board, teams, [`${front}-${to}`]);
      await page.goto(`${server.url}/#/table/fake-${board}`);
      await page.waitForSelector(`svg.board-${board} .piece`);
      assert.equal(await page.locator('.hits [data-sq]').count(), topo.squares.size);
      assert.equal(await page.locator('.piece').count(), 25 * topo.seats);
      assert.equal(await page.locator('#seats .seat-row').count(), topo.seats);
      assert.deepEqual(await page.$$eval('#seats .seat-row:has(.tag.partner)', (els) => els.map((e) => e.dataset.seat)), partners);
      assert.deepEqual(await page.$$eval('.arm-name.ally', (els) => els.map((e) => e.dataset.seat)), partners);
      assert.deepEqual(await page.$$eval('#tally .tally-seat', (els) => els.map((e) => e.dataset.seat)), enemies);
      assert.equal(await page.locator('#dead .seat-dead').count(), topo.seats);
      assert.equal(await page.locator('#status').textContent(), '轮到你走棋');
      // Click the piece, see its destination, click it: the move goes to the server and is drawn.
      await page.locator(`.hits [data-sq="${front}"]`).click();
      assert.deepEqual(await page.$$eval('[data-target]', (els) => els.map((e) => e.dataset.target)), [to]);
      await page.locator(`.hits [data-sq="${to}"]`).click();
      await page.waitForSelector(`.last-to[data-last="${to}"]`);
      assert.deepEqual(acts, [`${front}-${to}`]);
      await page.waitForSelector(`.piece[data-at="${to}"][data-seat="0"]`);
      assert.match(await page.locator('#status').textContent(), /轮到 (蓝|东)（电脑/);
      assert.deepEqual(await tiltedTexts(page), []);
      await page.screenshot({ path: path.join(ARTIFACTS, `table-${board}-${teams || 'default'}.png`) });
      assert.deepEqual(b.errors, []);
    } finally {
      await b.close();
    }
  });
}

test('the replay of a six-player game: six seats, the fallen of each, a step forward', async () => {
  const b = await open('desktop');
  const { page } = b;
  try {
    const start = position('six_player', 0, { known: true });
    const moved = { ...start, pieces: start.pieces.filter((p) => p.at !== '1c6').map((p) => (p.at === '0c6' ? { ...p, at: 'n0' } : p)) };
    await page.route('**/api/games/fake6/replay', (route) => route.fulfill({
      json: {
        start,
        steps: [{ entry: '0c6-n0', events: [{ kind: 'move', seat: 0, from: '0c6', to: 'n0' }], position: moved }],
        players: ['Me', 'bot:heuristic', 'bot:heuristic', 'bot:heuristic', 'bot:heuristic', 'bot:heuristic'],
        outcome: { result: 'win', winners: [0, 2, 4], reason: 'resigned' },
      },
    }));
    await page.goto(`${server.url}/#/replay/fake6`);
    await page.waitForSelector('svg.board-six_player .piece');
    assert.equal(await page.locator('.piece').count(), 150);
    assert.equal(await page.locator('.side .seats .seat-row').count(), 6);
    assert.match(await page.locator('#outcome').textContent(), /红 \+ 橙 \+ 紫/);
    assert.equal(await page.locator('#dead .seat-dead').count(), 6);
    await page.click('#replay-next');
    await page.waitForSelector('.last-to[data-last="n0"]');
    assert.equal(await page.locator('#dead .seat-dead[data-seat="1"] .chip').count(), 1, "blue's lost piece named");
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
