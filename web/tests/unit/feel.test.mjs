// Unit tests of the table's pure modules (issue 12): the frame queue, the glide paths, marks that
// follow their pieces, the enemy tally, zoom sizes, skip counts, seat names and the leave warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameQueue, glideMs, TIMING } from '../../js/queue.js';
import { topology, movePath } from '../../js/board.js';
import { followEvent, MarkStore } from '../../js/marks.js';
import { tally, analyse, combat, possibleRoles } from '../../js/tally.js';
import { readableZoom, stepZoom, MIN_PIECE_PX } from '../../js/zoom.js';
import { skipCounts, eventSquares, entryText } from '../../js/events.js';
import { botDisplayName, leaveWarning } from '../../js/seats.js';
import { setLang } from '../../js/i18n.js';
import { COUNTS } from '../../js/roles.js';

/** Fake timers: run() fires the due callbacks as time is advanced. */
function clock() {
  let now = 0;
  let timers = [];
  return {
    setTimeout: (f, ms) => { const id = Symbol('t'); timers.push({ id, at: now + ms, f }); return id; },
    clearTimeout: (id) => { timers = timers.filter((x) => x.id !== id); },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers.shift();
        now = next.at;
        next.f();
      }
      now = end;
    },
  };
}

test('the frame queue applies one frame at a time, each holding the next for its animation', () => {
  const c = clock();
  const applied = [];
  const q = new FrameQueue((f) => { applied.push(f.n); return f.hold; }, c);
  q.push({ n: 1, hold: 300 }); // my move: a glide
  q.push({ n: 2, hold: 1000 }); // its observation: the attack's badge
  q.push({ n: 3, hold: 300 }); // the bot's move, sent at once by the server
  q.push({ n: 4, hold: 0 });
  assert.deepEqual(applied, [1]);
  c.advance(299);
  assert.deepEqual(applied, [1]);
  c.advance(1);
  assert.deepEqual(applied, [1, 2]);
  c.advance(999);
  assert.deepEqual(applied, [1, 2], 'the badge stays before the next ply is drawn');
  c.advance(1);
  assert.deepEqual(applied, [1, 2, 3]);
  c.advance(300);
  assert.deepEqual(applied, [1, 2, 3, 4]);
  assert.equal(q.busy, false);
});

test('the frame queue fast-forwards on demand and when the backlog is long', () => {
  const c = clock();
  const applied = [];
  const q = new FrameQueue((f, ctx) => { applied.push([f.n, !!ctx.fast]); return 500; }, { ...c, maxBacklog: 3 });
  q.push({ n: 1 });
  for (let n = 2; n <= 6; n++) q.push({ n });
  assert.equal(applied.length, 1);
  c.advance(500);
  // Five waiting: frames are applied at once until the backlog is short again.
  assert.deepEqual(applied.map((a) => a[0]), [1, 2, 3, 4]);
  assert.equal(applied[1][1], true);
  q.fastForward();
  assert.deepEqual(applied.map((a) => a[0]), [1, 2, 3, 4, 5, 6]);
  assert.equal(q.busy, false);
  q.push({ n: 7 });
  assert.equal(q.busy, true, 'after a fast-forward frames hold again');
  q.clear();
  assert.equal(q.length, 0);
});

test('glides take longer for longer runs, never more than the maximum, none under reduced motion', () => {
  assert.ok(glideMs(1) > 0 && glideMs(1) < glideMs(4));
  assert.equal(glideMs(30), TIMING.glideMax);
  assert.equal(glideMs(3, true), 0);
  assert.ok(TIMING.badge >= 900, 'the result badge stays about a second');
});

test('a move glides along its path: one step, a straight rail run, an engineer turning a corner', () => {
  const t = topology('two_player');
  assert.deepEqual(movePath(t, 'a6', 'a7'), ['a6', 'a7']);
  assert.deepEqual(movePath(t, 'a2', 'a5'), ['a2', 'a3', 'a4', 'a5']);
  const corner = movePath(t, 'a5', 'c6');
  assert.deepEqual(corner, ['a5', 'a6', 'b6', 'c6']);
  // Blocked on b6: the run goes round by the next line it can use, or falls back to a line.
  const blocked = movePath(t, 'a5', 'c6', (sq) => sq === 'b6');
  assert.ok(!blocked.includes('b6'));
  assert.equal(blocked[0], 'a5');
  assert.equal(blocked[blocked.length - 1], 'c6');
});

test('a mark follows its piece and is dropped when the piece leaves the board', () => {
  let m = { a7: 'bomb', c7: 'marshal', e7: 'landmine' };
  m = followEvent(m, { kind: 'move', seat: 1, from: 'a7', to: 'a6' });
  assert.deepEqual(m, { a6: 'bomb', c7: 'marshal', e7: 'landmine' });
  m = followEvent(m, { kind: 'attack', seat: 1, from: 'c7', to: 'c6', result: 'attacker_wins' });
  assert.equal(m.c6, 'marshal');
  assert.equal(m.c7, undefined);
  m = followEvent(m, { kind: 'attack', seat: 0, from: 'a5', to: 'a6', result: 'both_removed' });
  assert.equal(m.a6, undefined);
  m = followEvent(m, { kind: 'attack', seat: 0, from: 'e6', to: 'e7', result: 'defender_wins' });
  assert.equal(m.e7, 'landmine', 'a defender that holds keeps its mark');
  m = followEvent(m, { kind: 'attack', seat: 1, from: 'e7', to: 'e6', result: 'defender_wins' });
  assert.equal(m.e7, undefined, 'an attacker that loses takes its mark with it');
});

test('marks are kept per table and seat, and events replayed after a reload are not applied twice', () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  const a = new MarkStore('t1', 0, storage);
  a.set('a7', 'bomb');
  assert.equal(a.follow(3, [{ kind: 'move', from: 'a7', to: 'a6' }]), true);
  const b = new MarkStore('t1', 0, storage);
  assert.deepEqual(b.marks, { a6: 'bomb' });
  assert.equal(b.follow(3, [{ kind: 'move', from: 'a6', to: 'a5' }]), false, 'already followed');
  assert.deepEqual(b.marks, { a6: 'bomb' });
  assert.deepEqual(new MarkStore('t1', 1, storage).marks, {}, 'another seat has its own marks');
  assert.deepEqual(new MarkStore('t2', 0, storage).marks, {}, 'another table has its own marks');
  b.prune((sq) => sq !== 'a6');
  assert.deepEqual(new MarkStore('t1', 0, storage).marks, {});
});

test('the combat table and what one known side of an attack tells of the other', () => {
  assert.equal(combat('marshal', 'general'), 'attacker_wins');
  assert.equal(combat('engineer', 'landmine'), 'attacker_wins');
  assert.equal(combat('general', 'landmine'), 'defender_wins');
  assert.equal(combat('general', 'landmine', { landmine: 'both_die' }), 'both_removed');
  assert.equal(combat('bomb', 'marshal'), 'both_removed');
  assert.equal(combat('captain', 'flag'), 'flag_captured');
  // My engineer took a square: the defender was a landmine.
  assert.deepEqual(possibleRoles('engineer', 'defender', 'attacker_wins'), ['landmine']);
  // A piece took my landmine: it was an engineer.
  assert.deepEqual(possibleRoles('landmine', 'attacker', 'attacker_wins'), ['engineer']);
  // My marshal was stopped: a landmine (a bomb would have removed both).
  assert.deepEqual(possibleRoles('marshal', 'defender', 'defender_wins'), ['landmine']);
});

/** North's pieces of a two-player start, all hidden, and South's from a layout. */
const LAYOUT = '86932/5.3.2/B3.17/1.4.5/B7L64/LF21L';
function ownCells() {
  const rows = LAYOUT.split('/');
  const code = { 9: 'marshal', 8: 'general', 7: 'major_general', 6: 'brigadier', 5: 'colonel', 4: 'major', 3: 'captain', 2: 'lieutenant', 1: 'engineer', B: 'bomb', L: 'landmine', F: 'flag' };
  return rows.map((r) => [...r].map((ch) => code[ch] || null));
}

test('the tally: a marshal lost reveals the flag and names the dead; attacks against known pieces tell roles', () => {
  // South's front row (local row 0 = rank 6): a6 marshal… from the layout '86932': a6 general (8),
  // b6 brigadier (6), c6 marshal (9), d6 captain (3), e6 lieutenant (2).
  const own = ownCells();
  assert.equal(own[0][2], 'marshal');
  const history = [
    // North attacks c6 (my marshal) from c7 and both are removed: the attacker was a marshal or a
    // bomb; then North's marshal loss is announced: the dead attacker was the marshal.
    { events: [{ kind: 'attack', seat: 1, from: 'c7', to: 'c6', result: 'both_removed' }, { kind: 'flag_revealed', seat: 1, at: 'b12' }] },
    // My general (a6) attacks a7: the defender holds. A general loses only to a marshal (dead),
    // so the defender was a landmine — impossible on the front row? It is not known to the
    // rules here, which only know the counts: a landmine is the one role left.
    { events: [{ kind: 'attack', seat: 0, from: 'a6', to: 'a7', result: 'defender_wins' }] },
  ];
  const [south, north] = tally({ board: 'two_player', viewer: 0, own, history });
  assert.equal(north.dead.marshal, 1, 'the marshal whose loss revealed the flag');
  assert.equal(north.left.marshal, 0);
  assert.equal(north.shown.flag, 1, 'the revealed flag is on the board');
  assert.equal(north.left.flag, 0);
  assert.equal(north.left.landmine, COUNTS.landmine - 1, 'the piece that stopped my general was a landmine');
  assert.equal(north.left.general, 1);
  assert.equal(south.left.marshal, 0);
});

test('the tally: an engineer that takes my landmine, a captured flag, open play and flips', () => {
  // A North piece takes a square whose piece this seat knew to be a landmine (the role the
  // table noted when the attack happened): the attacker was an engineer.
  const history = [{ events: [{ kind: 'attack', seat: 1, from: 'c7', to: 'c6', result: 'attacker_wins', roles: { from: null, to: 'landmine' } }] }];
  const [, north] = tally({ board: 'two_player', viewer: 0, own: null, history });
  assert.equal(north.shown.engineer, 1, 'an engineer, known now, on c6');
  assert.equal(north.left.engineer, 2);
  // Open play: the observation shows everything.
  const obs = { pieces: [{ at: 'a7', seat: 1, role: 'marshal' }, { at: 'b7', seat: 1, role: 'bomb' }] };
  const [, n2] = tally({ board: 'two_player', mode: 'open', viewer: 0, history: [], observation: obs });
  assert.equal(n2.left.marshal, 0);
  assert.equal(n2.left.bomb, 1);
  assert.equal(n2.hidden, 0);
  // Flip play: a flipped piece is shown; its colour comes from the observation.
  const flips = [{ events: [{ kind: 'flip', seat: 0, at: 'c3', role: 'general' }, { kind: 'colours', colours: [1, 0] }] }];
  const fo = { pieces: [{ at: 'c3', seat: 1, role: 'general' }, { at: 'a1', seat: null, role: null, face_down: true }] };
  const [c0, c1] = tally({ board: 'two_player', mode: 'flip', viewer: 0, history: flips, observation: fo });
  assert.equal(c1.left.general, 0);
  assert.equal(c0.left.general, 1);
});

test('zoom: a four-player board on a phone opens at a zoom with pieces of 32 px and more', () => {
  const z = readableZoom('four_player', 370);
  assert.ok(z > 2 && z < 3, `zoom ${z}`);
  const pxPerUnit = (370 * z) / (2 * 16 + 18 * 48);
  assert.ok(34 * pxPerUnit >= MIN_PIECE_PX, 'tile height at least 32 px');
  assert.equal(readableZoom('four_player', 1400), 1);
  assert.equal(readableZoom('four_player', 860), 1, 'a desktop shows the whole board');
  assert.equal(readableZoom('two_player', 900), 1);
  assert.equal(stepZoom(1, -1), 1);
  assert.ok(stepZoom(2, 1) > 2);
});

test('skips are told apart by reason; events name their squares; entries join in the language', () => {
  const history = [
    { events: [{ kind: 'skipped', seat: 1, reason: 'timeout' }] },
    { events: [{ kind: 'skipped', seat: 1, reason: 'blocked' }, { kind: 'skipped', seat: 2, reason: 'blocked' }] },
  ];
  assert.deepEqual(skipCounts(history, 1), { timeout: 1, blocked: 1 });
  assert.deepEqual(skipCounts(history, 0), { timeout: 0, blocked: 0 });
  assert.deepEqual(eventSquares({ kind: 'attack', from: 'a6', to: 'a7' }), ['a6', 'a7']);
  assert.deepEqual(eventSquares({ kind: 'flip', at: 'c3' }), ['c3']);
  const evs = [{ kind: 'attack', seat: 0, from: 'c7', to: 'c6', result: 'both_removed' }, { kind: 'flag_revealed', seat: 1, at: 'b12' }];
  setLang('zh');
  const zh = entryText('0 c7-c6', evs, 'two_player');
  assert.match(zh, /；/);
  assert.doesNotMatch(zh, /;/, 'no ASCII semicolon in Chinese');
  setLang('en');
  assert.match(entryText('0 c7-c6', evs, 'two_player'), /; /);
  setLang('zh');
});

test('a bot has one display name, and leaving warns with the time one may be away', () => {
  setLang('zh');
  assert.equal(botDisplayName('bot:normal'), '电脑 · 普通');
  assert.equal(botDisplayName('bot:master'), '电脑 · 大师');
  assert.equal(botDisplayName('bot:heuristic'), '电脑 · 一步启发');
  assert.equal(botDisplayName('bot:newbot'), '电脑 · newbot');
  assert.match(leaveWarning(undefined, true), /60 秒/);
  assert.match(leaveWarning(1800000, true), /暂停，30 分钟内回来/);
  assert.match(leaveWarning(60000, false), /60 秒内不回来.*逃跑/);
  setLang('en');
  assert.equal(botDisplayName('bot:normal'), 'computer · normal');
  assert.equal(botDisplayName('bot:heuristic'), 'computer · one-ply heuristic');
  assert.match(leaveWarning(60000, false), /60 s to come back/);
  setLang('zh');
});

test('the tally names on the board a hidden piece whose role an attack told', () => {
  // My general (a6 in the layout '86932') is taken by the piece from a7: only a marshal does that.
  const own = ownCells();
  assert.equal(own[0][0], 'general');
  const history = [{ events: [{ kind: 'attack', seat: 1, from: 'a7', to: 'a6', result: 'attacker_wins' }] }];
  const observation = { pieces: [{ at: 'a6', seat: 1, role: null }, { at: 'b6', seat: 0, role: 'brigadier' }] };
  const { seats, deduced } = analyse({ board: 'two_player', viewer: 0, own, history, observation });
  assert.deepEqual(deduced, { a6: 'marshal' });
  assert.equal(seats[1].left.marshal, 0);
  assert.equal(seats[1].shown.marshal, 1);
  // Without the layout nothing is told.
  assert.deepEqual(analyse({ board: 'two_player', viewer: 0, history, observation }).deduced, {});
});
