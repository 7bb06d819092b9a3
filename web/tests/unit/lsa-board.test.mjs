// The land-sea-air board of the web client (web/js/lsa-board.js) against every count and
// list LANDSEAAIR.md §2 and §3 state, and its moves against `junqi rules legal` (JUNQI_BIN).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { lsaTopology, lsaLocal, lsaArm } from '../../js/lsa-board.js';

const t = lsaTopology();
const sq = [...t.squares.values()];
const kinds = (k) => sq.filter((s) => s.kind === k).map((s) => s.name).sort();

test('135 squares of the types §2.2 lists', () => {
  assert.equal(sq.length, 135);
  assert.deepEqual(kinds('airfield'), ['a1', 'a15', 'i1', 'i15']);
  assert.deepEqual(kinds('city'), ['c1', 'c15', 'e1', 'e15', 'g1', 'g15']);
  assert.deepEqual(kinds('camp'), ['c13', 'c3', 'g13', 'g3']);
  assert.deepEqual(kinds('harbour'), ['e10', 'e6']);
  assert.deepEqual(kinds('bridgehead'), ['a10', 'a6', 'i10', 'i6']);
  assert.deepEqual(kinds('bridge'), ['a7', 'a8', 'a9', 'i7', 'i8', 'i9']);
  assert.equal(kinds('anchor').length, 12);
  assert.equal(sq.filter((s) => s.sea).length, 21);
  assert.equal(sq.filter((s) => s.land).length, 110);
  for (const seat of [0, 1]) {
    const half = sq.filter((s) => s.seat === seat);
    assert.equal(half.filter((s) => s.land).length, 52, `seat ${seat} land squares`);
    assert.equal(half.filter((s) => s.kind === 'station' || s.kind === 'bridgehead').length, 46);
    assert.equal(half.filter((s) => s.kind === 'airfield').length, 2);
  }
  assert.deepEqual(sq.filter((s) => s.anchorOf === 0).map((s) => s.name).sort(), ['b7', 'c7', 'd7', 'f7', 'g7', 'h7']);
});

test('road, rail and sea edges and lines as §2.3–2.4 count them', () => {
  assert.equal(t.counts.road, 186);
  assert.equal(t.counts.diagonal, 16);
  assert.equal(t.roadEdges.length + t.railEdges.length, 202);
  assert.equal(sq.filter((s) => s.rail).length, 54);
  assert.equal(t.counts.rail, 56);
  assert.equal(t.railEdges.length, 56);
  assert.equal(t.lines.length, 6);
  for (const line of t.lines) {
    for (let i = 0; i + 1 < line.length; i++) assert.ok(t.railAdj.get(line[i]).has(line[i + 1]), `${line[i]}-${line[i + 1]}`);
  }
  assert.equal(t.counts.sea, 32);
  assert.equal(t.seaLines.length, 10);
  for (const s of ['c3', 'g13']) assert.equal(t.stepAdj.get(s).size, 8, `${s} has four orthogonal and four diagonal roads`);
  // Nothing joins the halves but the bridges.
  for (const [a, b] of [...t.roadEdges, ...t.railEdges]) {
    const ra = t.get(a).rank;
    const rb = t.get(b).rank;
    if ((ra <= 6) !== (rb <= 6) || (ra >= 10) !== (rb >= 10)) assert.ok(['a', 'i'].includes(a[0]) && a[0] === b[0], `${a}-${b}`);
  }
  for (const n of ['a1', 'i15']) assert.equal(t.stepAdj.get(n).size, 0, 'airfields have no road edges');
});

test('73 air squares on six air lines (§2.5)', () => {
  assert.equal(t.airLines.length, 6);
  assert.equal(sq.filter((s) => s.air).length, 73);
  for (const c of kinds('city')) assert.equal(t.get(c).air, false, `${c} is on no air line`);
  for (const a of kinds('airfield')) assert.equal(t.get(a).air, true);
});

test('local coordinates of §2.6', () => {
  assert.deepEqual(lsaLocal(0, 0, 0), [0, 6]);
  assert.equal(t.localSquare(0, 5, 0), 'a1');
  assert.equal(t.localSquare(1, 0, 0), 'i10');
  assert.equal(t.localSquare(1, 5, 8), 'a15');
});

test('deployment squares of §3', () => {
  assert.deepEqual(t.deploySquares(0, 'flag').sort(), ['c1', 'e1', 'g1']);
  assert.deepEqual(t.deploySquares(1, 'fort'), ['e10']);
  assert.deepEqual(t.deploySquares(1, 'submarine').sort(), ['b9', 'c9', 'd9', 'f9', 'g9', 'h9']);
  assert.deepEqual(t.deploySquares(0, 'fighter').sort(), ['a1', 'i1']);
  assert.equal(t.deploySquares(0, 'marshal').length, 49, '46 stations and the three cities (the flag takes one)');
  const mines = t.deploySquares(0, 'landmine');
  assert.ok(mines.every((n) => t.get(n).rank <= 2));
  assert.equal(mines.length, 16, 'ranks 1–2 without the airfields: 9 + 4 stations and 3 cities');
  assert.ok(!t.deploySquares(1, 'bomb').some((n) => t.get(n).rank === 10), 'no bomb on the front row');
  assert.equal(lsaArm('cruiser'), 'sea');
  assert.equal(lsaArm('scout_plane'), 'air');
  assert.equal(lsaArm('trap'), 'land');
});

// The JS geometry against the Rust move generator: a lone piece on each square of an empty
// board — a major (steps and straight rail slides of at most rail_max = 3 edges), an engineer
// (rail paths of at most 3 edges, turning), a destroyer (sailing along the sea lines) and a
// fighter (flights along the air lines, never onto the enemy's empty airfield) — must reach
// exactly the squares `junqi rules legal` lists. No move passes a bridgehead (§4.3).

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.JUNQI_BIN || path.resolve(here, '../../../target/debug/junqi');
const RAIL_MAX = 3;

function rustLegal(positions) {
  const input = positions.map((p) => JSON.stringify(p)).join('\n') + '\n';
  const r = spawnSync(BIN, ['rules', 'legal'], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

const bridgehead = (n) => t.get(n).kind === 'bridgehead';

function slideTargets(from) {
  const out = new Set(t.stepAdj.get(from));
  for (const line of t.lines) {
    const i = line.indexOf(from);
    if (i < 0) continue;
    for (const dir of [-1, 1]) {
      for (let k = 1; k <= RAIL_MAX; k++) {
        const n = line[i + dir * k];
        if (n === undefined) break;
        out.add(n);
        if (bridgehead(n)) break;
      }
    }
  }
  return out;
}

function engineerTargets(from) {
  const out = new Set(t.stepAdj.get(from));
  if (!t.get(from).rail) return out;
  let frontier = [from];
  const seen = new Set([from]);
  for (let d = 1; d <= RAIL_MAX; d++) {
    const next = [];
    for (const a of frontier) {
      if (a !== from && bridgehead(a)) continue;
      for (const b of t.railAdj.get(a)) {
        if (seen.has(b)) continue;
        seen.add(b);
        out.add(b);
        next.push(b);
      }
    }
    frontier = next;
  }
  return out;
}

function lineTargets(lines, from, stop) {
  const out = new Set();
  for (const line of lines) {
    const i = line.indexOf(from);
    if (i < 0) continue;
    for (const dir of [-1, 1]) {
      for (let j = i + dir; j >= 0 && j < line.length; j += dir) if (stop(line[j])) out.add(line[j]);
    }
  }
  return out;
}

const sailTargets = (from) => lineTargets(t.seaLines, from, () => true);
// A South fighter may stop on its own airfields but not on North's (a15, i15).
const flightTargets = (from) => lineTargets(t.airLines, from, (n) => !(t.get(n).kind === 'airfield' && t.get(n).seat === 1));

test('moves of a lone piece on every square match `junqi rules legal`', { skip: !existsSync(BIN) && `no ${BIN}` }, () => {
  const cases = [];
  for (const s of sq) {
    if (s.land) {
      cases.push(['major', s.name, slideTargets(s.name)]);
      cases.push(['engineer', s.name, engineerTargets(s.name)]);
    }
    if (s.sea) cases.push(['destroyer', s.name, sailTargets(s.name)]);
    if (s.air) cases.push(['fighter', s.name, flightTargets(s.name)]);
  }
  const positions = cases.map(([role, at]) => ({
    board: 'land_sea_air', mode: 'dark', to_move: 0, pieces: [{ at, seat: 0, role }],
  }));
  const answers = rustLegal(positions);
  assert.equal(answers.length, cases.length);
  let checked = 0;
  cases.forEach(([role, at, want], i) => {
    const a = answers[i];
    assert.ok(a.actions, `${role} on ${at}: ${JSON.stringify(a)}`);
    const got = a.actions.map((x) => {
      const [f, to] = x.split('-');
      assert.equal(f, at, x);
      return to;
    }).sort();
    assert.deepEqual(got, [...want].sort(), `${role} on ${at}`);
    checked += 1;
  });
  assert.ok(checked > 300, `${checked} cases`);
});
