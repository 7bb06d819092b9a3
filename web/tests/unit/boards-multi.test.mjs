// The three- and six-player boards (RULES §2.4, §2.5) and the teams (§7.2), checked against the
// counts and the structure the rule book gives (the server's `junqi rules legal` may not know
// these boards yet; when it does, the last tests compare every square's moves with it too), and
// the six-player drawing coordinates (star.js) against the geometry §2.5 promises.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import {
  topology, slideTargets, engineerTargets, SEATS, armSquare, teamsOf, teamOf, sameTeam, teammatesOf, TEAMS,
} from '../../js/board.js';
import { starPoint, armPoint } from '../../js/star.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.JUNQI_BIN || path.resolve(here, '../../../target/debug/junqi');

const key = (a, b) => (a < b ? `${a}-${b}` : `${b}-${a}`);
const railSet = (t) => new Set(t.railEdges.map(([a, b]) => key(a, b)));
const lineText = (line) => line.join(' ');
const m6 = (i) => ((i % 6) + 6) % 6;

// ---------------------------------------------------------------------------------------------
// Three-player (§2.4)

test('three-player: 99 squares, 71 rail edges, 14 lines; the four-player board without West', () => {
  const t = topology('three_player');
  const four = topology('four_player');
  assert.equal(SEATS.three_player, 3);
  assert.equal(t.seats, 3);
  assert.equal(t.squares.size, 99);
  assert.equal(t.counts.rail, 71);
  assert.equal(t.railEdges.length, 71);
  assert.equal(t.lines.length, 14);
  // West's 30 squares (a–f × 7–11) do not exist; every other four-player square does.
  const west = new Set(four.territoryOf(3));
  assert.equal(west.size, 30);
  for (const n of four.names()) assert.equal(t.has(n), !west.has(n), n);
  // No edge touches West; every four-player edge between the remaining squares is kept, as
  // rail or road alike.
  const fourRail = railSet(four);
  const rail = railSet(t);
  for (const k of fourRail) {
    const [a, b] = k.split('-');
    assert.equal(rail.has(k), !west.has(a) && !west.has(b), k);
  }
  for (const n of t.names()) {
    const fourSteps = [...four.stepAdj.get(n)].filter((x) => !west.has(x)).sort();
    assert.deepEqual([...t.stepAdj.get(n)].sort(), fourSteps, n);
  }
  for (const gone of ['f7-g7', 'f9-g9', 'f11-g11', 'g6-f7', 'g12-f11']) assert.ok(!rail.has(key(...gone.split('-'))), gone);
  // Road edges of the three arms (49 orthogonal and 16 camp diagonals each).
  assert.deepEqual(t.counts, { road: 3 * 49, diagonal: 3 * 16, rail: 71 });
  assert.deepEqual(t.arcs, [['k6', 'l7'], ['k12', 'l11']]);
});

test('three-player: seats keep their four-player arms, kinds and local coordinates', () => {
  const t = topology('three_player');
  const four = topology('four_player');
  for (let seat = 0; seat < 3; seat++) {
    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 5; c++) {
        const n = t.localSquare(seat, r, c);
        assert.equal(n, four.localSquare(seat, r, c));
        assert.deepEqual(t.get(n).home, { seat, row: r, col: c });
        assert.equal(t.get(n).kind, four.get(n).kind);
        assert.equal(t.get(n).rail, four.get(n).rail);
      }
    }
  }
  assert.deepEqual(t.hqsOf(0), ['h1', 'j1']);
  assert.deepEqual(t.hqsOf(1), ['q8', 'q10']);
  assert.deepEqual(t.hqsOf(2), ['j17', 'h17']);
  assert.equal([...t.squares.values()].filter((s) => s.kind === 'camp').length, 15);
  assert.equal([...t.squares.values()].filter((s) => s.rail).length, 3 * 16 + 9);
});

test('three-player: the 14 straight lines are exactly those of §2.4', () => {
  const t = topology('three_player');
  const want = [
    'g2 h2 i2 j2 k2', 'g16 h16 i16 j16 k16', 'p7 p8 p9 p10 p11',
    'g6 h6 i6 j6 k6', 'g12 h12 i12 j12 k12', 'l7 l8 l9 l10 l11',
    'g2 g3 g4 g5 g6 g7 g9 g11 g12 g13 g14 g15 g16', 'k2 k3 k4 k5 k6 k7 k9 k11 k12 k13 k14 k15 k16',
    'g7 i7 k7 l7 m7 n7 o7 p7', 'g11 i11 k11 l11 m11 n11 o11 p11',
    'i6 i7 i9 i11 i12', 'g9 i9 k9 l9',
    'k16 k15 k14 k13 k12 l11 m11 n11 o11 p11', 'k2 k3 k4 k5 k6 l7 m7 n7 o7 p7',
  ];
  assert.deepEqual(t.lines.map(lineText).sort(), want.sort());
  // A piece on g14 runs down file g through the centre (West's arc line is gone).
  const reach = slideTargets(t, 'g14');
  assert.ok(reach.has('g2') && !reach.has('f11'));
});

// ---------------------------------------------------------------------------------------------
// Six-player (§2.5)

test('six-player: 193 squares named as §2.5 says, 144 rail edges, 27 lines', () => {
  const t = topology('six_player');
  assert.equal(SEATS.six_player, 6);
  assert.equal(t.seats, 6);
  assert.equal(t.squares.size, 193);
  assert.equal(t.counts.rail, 144);
  assert.equal(t.railEdges.length, 144);
  assert.equal(t.lines.length, 27);
  const names = new Set(t.names());
  for (let k = 0; k < 6; k++) {
    for (const f of 'abcde') for (let r = 1; r <= 6; r++) assert.ok(names.has(`${k}${f}${r}`), `${k}${f}${r}`);
    assert.ok(names.has(`n${k}`) && names.has(`t${k}`));
  }
  assert.ok(names.has('x'));
  // Every centre square is a rail square, with no camp and no HQ.
  for (const n of ['x', ...[0, 1, 2, 3, 4, 5].flatMap((k) => [`n${k}`, `t${k}`])]) {
    const s = t.get(n);
    assert.equal(s.rail, true, n);
    assert.equal(s.kind, 'station', n);
    assert.equal(s.home, null, n);
  }
  assert.equal([...t.squares.values()].filter((s) => s.rail).length, 6 * 16 + 13);
});

test('six-player: each arm is laid out like a four-player arm, local (r, c) = k + file a+c + rank 6−r', () => {
  const t = topology('six_player');
  const four = topology('four_player');
  for (let k = 0; k < 6; k++) {
    assert.equal(t.localSquare(k, 0, 0), `${k}a6`);
    assert.equal(t.localSquare(k, 5, 1), `${k}b1`);
    assert.equal(armSquare(3, 0, 2), '3c6');
    assert.deepEqual(t.hqsOf(k), [`${k}b1`, `${k}d1`]);
    const camps = t.territoryOf(k).filter((n) => t.get(n).kind === 'camp').sort();
    assert.deepEqual(camps, [`${k}b3`, `${k}b5`, `${k}c4`, `${k}d3`, `${k}d5`]);
    // Kinds, rail squares and one-step edges inside the arm match South's four-player arm.
    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 5; c++) {
        const n = t.localSquare(k, r, c);
        const s4 = four.localSquare(0, r, c);
        assert.deepEqual(t.get(n).home, { seat: k, row: r, col: c });
        assert.equal(t.get(n).kind, four.get(s4).kind, n);
        assert.equal(t.get(n).rail, four.get(s4).rail, n);
        const local = (topo, seat, sq) => [...topo.stepAdj.get(sq)].map((x) => topo.get(x).home).filter((h) => h && h.seat === seat).map((h) => `${h.row},${h.col}`).sort();
        assert.deepEqual(local(t, k, n), local(four, 0, s4), n);
      }
    }
  }
  assert.deepEqual(t.counts, { road: 6 * 49, diagonal: 6 * 16, rail: 144 });
});

test("six-player: each arm's ring of 16, three front links, the arcs and the 24 centre edges", () => {
  const t = topology('six_player');
  const rail = railSet(t);
  const centre = new Set(['x', ...[0, 1, 2, 3, 4, 5].flatMap((k) => [`n${k}`, `t${k}`])]);
  const armOf = (n) => (centre.has(n) ? null : Number(n[0]));
  let ringEdges = 0;
  for (let k = 0; k < 6; k++) {
    // The ring: files a and e from rank 2 to 6, ranks 2 and 6.
    const ring = new Set([...'abcde'].flatMap((f) => [`${k}${f}2`, `${k}${f}6`]).concat(['3', '4', '5'].flatMap((r) => [`${k}a${r}`, `${k}e${r}`])));
    assert.equal(ring.size, 16);
    const armRail = t.territoryOf(k).filter((n) => t.get(n).rail);
    assert.deepEqual(armRail.sort(), [...ring].sort());
    const inside = t.railEdges.filter(([a, b]) => armOf(a) === k && armOf(b) === k);
    assert.equal(inside.length, 16, `arm ${k}`);
    ringEdges += inside.length;
    for (const [a, b] of inside) assert.ok(ring.has(a) && ring.has(b));
    // Front links: ka6–t(k−1), kc6–nk, ke6–tk; kb6 and kd6 have none out of the arm.
    assert.ok(rail.has(key(`${k}a6`, `t${m6(k - 1)}`)), `${k}a6`);
    assert.ok(rail.has(key(`${k}c6`, `n${k}`)), `${k}c6`);
    assert.ok(rail.has(key(`${k}e6`, `t${k}`)), `${k}e6`);
    for (const f of ['b', 'd']) {
      const out = [...t.stepAdj.get(`${k}${f}6`)].filter((n) => armOf(n) !== k);
      assert.deepEqual(out, [], `${k}${f}6 has no link out of its arm`);
    }
    // The arc to the next arm.
    assert.ok(rail.has(key(`${k}e6`, `${m6(k + 1)}a6`)), `arc ${k}`);
    // Centre edges.
    assert.ok(rail.has(key('x', `n${k}`)));
    assert.ok(rail.has(key(`n${k}`, `n${m6(k + 1)}`)));
    assert.ok(rail.has(key(`t${k}`, `n${k}`)));
    assert.ok(rail.has(key(`t${k}`, `n${m6(k + 1)}`)));
  }
  assert.equal(ringEdges, 96);
  const between = t.railEdges.filter(([a, b]) => centre.has(a) && centre.has(b));
  assert.equal(between.length, 24);
  const links = t.railEdges.filter(([a, b]) => centre.has(a) !== centre.has(b));
  assert.equal(links.length, 18);
  const arcs = t.railEdges.filter(([a, b]) => !centre.has(a) && !centre.has(b) && armOf(a) !== armOf(b));
  assert.equal(arcs.length, 6);
  assert.deepEqual(t.arcs.map(([a, b]) => key(a, b)).sort(), arcs.map(([a, b]) => key(a, b)).sort());
  // Rail degrees in the centre: x and nk six each, tk four.
  assert.equal(t.railAdj.get('x').size, 6);
  for (let k = 0; k < 6; k++) {
    assert.equal(t.railAdj.get(`n${k}`).size, 6);
    assert.equal(t.railAdj.get(`t${k}`).size, 4);
  }
  // No road (one-step edge that is not rail) leaves an arm or touches the centre.
  for (const [a, b] of t.roadEdges) assert.ok(armOf(a) !== null && armOf(a) === armOf(b), `${a}-${b}`);
});

test('six-player: the 27 straight lines of §2.5', () => {
  const t = topology('six_player');
  const file = (k, f, from, to) => {
    const out = [];
    for (let r = from; ; r += Math.sign(to - from)) { out.push(`${k}${f}${r}`); if (r === to) break; }
    return out;
  };
  const want = [];
  for (let k = 0; k < 6; k++) want.push([...'abcde'].map((f) => `${k}${f}2`));
  for (let k = 0; k < 6; k++) want.push([...'abcde'].map((f) => `${k}${f}6`));
  for (let k = 0; k < 3; k++) want.push([`${k}c6`, `n${k}`, 'x', `n${k + 3}`, `${k + 3}c6`]);
  for (let k = 0; k < 6; k++) {
    want.push([...file(k, 'e', 2, 6), `t${k}`, `n${m6(k + 1)}`, `n${m6(k + 2)}`, `t${m6(k + 2)}`, ...file(m6(k + 3), 'a', 6, 2)]);
  }
  for (let k = 0; k < 6; k++) want.push([...file(k, 'e', 2, 6), ...file(m6(k + 1), 'a', 6, 2)]);
  assert.equal(want.length, 27);
  assert.deepEqual(t.lines.map(lineText).sort(), want.map(lineText).sort());
});

test('six-player: every hexagon edge nk–n(k+1) lies on exactly one line, a long line', () => {
  const t = topology('six_player');
  const onLine = (line, a, b) => line.some((s, i) => (s === a && line[i + 1] === b) || (s === b && line[i + 1] === a));
  for (let k = 0; k < 6; k++) {
    const a = `n${k}`;
    const b = `n${m6(k + 1)}`;
    const lines = t.lines.filter((l) => onLine(l, a, b));
    assert.equal(lines.length, 1, `${a}-${b}`);
    assert.equal(lines[0].length, 14, 'a long line: five squares, four centre squares, five squares');
    assert.ok(lines[0][5].startsWith('t') && lines[0][8].startsWith('t'));
  }
});

test('six-player: the ray from 0e3 runs 0e4 0e5 0e6 1a6 1a5 … (an arc line is one line)', () => {
  const t = topology('six_player');
  const runs = [];
  for (const line of t.lines) {
    const i = line.indexOf('0e3');
    if (i >= 0) runs.push(line.slice(i + 1).join(' '));
  }
  assert.ok(runs.includes('0e4 0e5 0e6 1a6 1a5 1a4 1a3 1a2'), runs.join(' | '));
  assert.ok(runs.includes('0e4 0e5 0e6 t0 n1 n2 t2 3a6 3a5 3a4 3a3 3a2'), 'and the long line');
  const reach = slideTargets(t, '0e3');
  for (const sq of ['0e4', '0e5', '0e6', '1a6', '1a5', '1a2', 't0', '3a2', '0e2']) assert.ok(reach.has(sq), sq);
  assert.ok(!reach.has('1b6') && !reach.has('n0') && !reach.has('0a2'), 'no change of line');
  // An engineer on the railway reaches every other rail square (the railway is connected),
  // plus its road steps (0a1, and the camp 0b3 on the diagonal).
  const eng = engineerTargets(t, '0a2');
  for (const s of t.squares.values()) if (s.rail && s.name !== '0a2') assert.ok(eng.has(s.name), s.name);
  assert.equal(eng.size, 6 * 16 + 13 - 1 + 2);
});

test('six-player drawing: ke6, tk and (k+1)a6 form a triangle of side 1, long lines are straight, the centre is a regular hexagram', () => {
  const t = topology('six_player');
  const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const close = (x, y, msg) => assert.ok(Math.abs(x - y) < 1e-9, `${msg}: ${x} vs ${y}`);
  for (let k = 0; k < 6; k++) {
    const e6 = starPoint(`${k}e6`);
    const tk = starPoint(`t${k}`);
    const a6 = starPoint(`${m6(k + 1)}a6`);
    close(dist(e6, tk), 1, `${k}e6-t${k}`);
    close(dist(tk, a6), 1, `t${k}-${m6(k + 1)}a6`);
    close(dist(e6, a6), 1, `${k}e6-${m6(k + 1)}a6`);
    // One step inside an arm is one unit.
    close(dist(starPoint(`${k}c6`), starPoint(`${k}c5`)), 1, 'rows');
    close(dist(starPoint(`${k}c6`), starPoint(`${k}d6`)), 1, 'files');
    close(dist(armPoint(k, 0, 2), starPoint(`${k}c6`)), 0, 'armPoint');
    // The hexagram: the points tk on a circle of radius 4, the inner corners on 4/√3, all
    // six hexagon sides equal.
    close(Math.hypot(...tk), 4, `t${k}`);
    close(Math.hypot(...starPoint(`n${k}`)), 4 / Math.sqrt(3), `n${k}`);
    close(dist(starPoint(`n${k}`), starPoint(`n${m6(k + 1)}`)), 4 / Math.sqrt(3), 'hexagon side');
  }
  const collinear = (line) => {
    const [p, q] = [starPoint(line[0]), starPoint(line[line.length - 1])];
    return line.every((n) => {
      const r = starPoint(n);
      return Math.abs((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])) < 1e-9;
    });
  };
  const long = t.lines.filter((l) => l.length === 14);
  assert.equal(long.length, 6);
  for (const l of long) assert.ok(collinear(l), lineText(l));
  const straight = t.lines.filter((l) => l.length !== 10); // all but the arc lines
  for (const l of straight) assert.ok(collinear(l), lineText(l));
  for (const l of t.lines.filter((x) => x.length === 10)) assert.ok(!collinear(l), `${lineText(l)} bends at its arc`);
});

// ---------------------------------------------------------------------------------------------
// Teams (§7.2)

test('teams: per-board defaults and values', () => {
  assert.deepEqual(teamsOf('four_player'), [[0, 2], [1, 3]]);
  assert.deepEqual(teamsOf('four_player', 'alternate'), [[0, 2], [1, 3]]);
  assert.deepEqual(teamsOf('four_player', 'opposite'), [[0, 2], [1, 3]]);
  assert.deepEqual(teamsOf('four_player', 'none'), [[0], [1], [2], [3]]);
  assert.deepEqual(teamsOf('six_player'), [[0, 2, 4], [1, 3, 5]]);
  assert.deepEqual(teamsOf('six_player', 'alternate'), [[0, 2, 4], [1, 3, 5]]);
  assert.deepEqual(teamsOf('six_player', 'opposite'), [[0, 3], [1, 4], [2, 5]]);
  assert.deepEqual(teamsOf('six_player', 'none'), [[0], [1], [2], [3], [4], [5]]);
  // Three-player: every seat alone, whatever is asked; two-player ignores the option.
  assert.deepEqual(teamsOf('three_player'), [[0], [1], [2]]);
  assert.deepEqual(teamsOf('three_player', 'alternate'), [[0], [1], [2]]);
  assert.deepEqual(teamsOf('two_player', 'alternate'), [[0], [1]]);
  assert.deepEqual(TEAMS.six_player[0], 'alternate');
  assert.deepEqual(TEAMS.three_player, ['none']);
  // Every seat in exactly one team.
  for (const board of Object.keys(SEATS)) {
    for (const v of ['alternate', 'opposite', 'none', undefined]) {
      const all = teamsOf(board, v).flat().sort((a, b) => a - b);
      assert.deepEqual(all, Array.from({ length: SEATS[board] }, (_, i) => i), `${board} ${v}`);
    }
  }
});

test('teams: teamOf, sameTeam, teammatesOf', () => {
  assert.deepEqual(teamOf('six_player', undefined, 3), [1, 3, 5]);
  assert.deepEqual(teamOf('six_player', 'opposite', 4), [1, 4]);
  assert.deepEqual(teamOf('three_player', 'none', 2), [2]);
  assert.equal(sameTeam('four_player', undefined, 0, 2), true);
  assert.equal(sameTeam('four_player', undefined, 0, 1), false);
  assert.equal(sameTeam('four_player', 'none', 0, 2), false);
  assert.equal(sameTeam('six_player', 'opposite', 2, 5), true);
  assert.equal(sameTeam('six_player', 'opposite', 2, 4), false);
  assert.equal(sameTeam('six_player', 'alternate', 2, 4), true);
  assert.equal(sameTeam('six_player', undefined, 0, 0), true, 'a seat is on its own team');
  assert.equal(sameTeam('six_player', undefined, null, 0), false, 'a spectator is on no team');
  assert.deepEqual(teammatesOf('six_player', undefined, 1), [3, 5]);
  assert.deepEqual(teammatesOf('six_player', 'opposite', 0), [3]);
  assert.deepEqual(teammatesOf('four_player', undefined, 3), [1]);
  assert.deepEqual(teammatesOf('three_player', undefined, 1), []);
  assert.deepEqual(teammatesOf('six_player', undefined, null), []);
});

// ---------------------------------------------------------------------------------------------
// Against the Rust generator, once the server knows these boards

function knows(board) {
  if (!existsSync(BIN)) return false;
  const t = topology(board);
  const pos = { board, mode: 'dark', to_move: 0, pieces: [{ at: t.localSquare(0, 0, 0), seat: 0, role: 'marshal' }] };
  const r = spawnSync(BIN, ['rules', 'legal'], { input: `${JSON.stringify(pos)}\n`, encoding: 'utf8' });
  return r.status === 0 && !/unknown board/.test(r.stdout) && !!JSON.parse(r.stdout.trim().split('\n')[0]).actions;
}

for (const board of ['three_player', 'six_player']) {
  test(`moves on an empty ${board} board match the Rust generator (when it knows the board)`, { skip: !knows(board) && `${BIN} does not know ${board}` }, () => {
    const t = topology(board);
    const positions = [];
    const expected = [];
    for (const n of t.names().filter((x) => t.get(x).kind !== 'hq')) {
      for (const role of ['marshal', 'engineer']) {
        positions.push({ board, mode: 'dark', to_move: 0, pieces: [{ at: n, seat: 0, role }] });
        const set = role === 'marshal' ? slideTargets(t, n) : engineerTargets(t, n);
        expected.push([...set].map((to) => `${n}-${to}`).sort());
      }
    }
    const input = positions.map((p) => JSON.stringify(p)).join('\n') + '\n';
    const r = spawnSync(BIN, ['rules', 'legal'], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(r.status, 0, r.stderr);
    r.stdout.trim().split('\n').map((l) => JSON.parse(l)).forEach((a, i) => {
      assert.deepEqual([...(a.actions || [])].sort(), expected[i], JSON.stringify(positions[i].pieces[0]));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The table's per-seat panels take the seat count from the board

test('the tally and the fallen list count every seat of the three- and six-player boards', async () => {
  const { analyse } = await import('../../js/tally.js');
  const { fallen } = await import('../../js/events.js');
  for (const board of ['three_player', 'six_player']) {
    const t = topology(board);
    const pieces = [];
    for (let seat = 0; seat < t.seats; seat++) {
      for (const sq of t.territoryOf(seat)) if (t.get(sq).kind !== 'camp') pieces.push({ at: sq, seat, role: null });
    }
    pieces.pop(); // the last seat has lost a piece
    const observation = { board, mode: 'dark', pieces, eliminated: [] };
    const seats = analyse({ board, viewer: 0, history: [], observation }).seats;
    assert.deepEqual(seats.map((s) => s.seat), Array.from({ length: t.seats }, (_, i) => i));
    assert.deepEqual(seats.map((s) => s.hidden), [...Array(t.seats - 1).fill(25), 24]);
    const f = fallen(observation, t.seats);
    assert.equal(f.length, t.seats);
    assert.equal(f.at(-1).unknown, 1);
  }
});

test('zoom: the three- and six-player boards open zoomed on a phone, whole on a desktop', async () => {
  const { readableZoom } = await import('../../js/zoom.js');
  const six = readableZoom('six_player', 370, 995);
  assert.ok(six > 2 && six < 3.5, `zoom ${six}`);
  // Tiles of 38 units on a board of 995 units shown 370 px wide: 32 px and more once zoomed.
  assert.ok(38 * (370 / 995) * six >= 32);
  assert.ok(readableZoom('three_player', 370, 700) > 1);
  assert.equal(readableZoom('six_player', 860, 995), 1);
  assert.equal(readableZoom('three_player', 1200), 1);
});
