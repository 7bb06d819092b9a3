// The JS board geometry against the Rust topology: for every square of both boards (and the
// road-only middle crossing), the moves `junqi rules legal` gives a lone marshal and a lone
// engineer must be exactly the steps, slides and rail paths the JS tables predict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { topology, slideTargets, engineerTargets } from '../../js/board.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.JUNQI_BIN || path.resolve(here, '../../../target/debug/junqi');

function rustLegal(positions) {
  const input = positions.map((p) => JSON.stringify(p)).join('\n') + '\n';
  const r = spawnSync(BIN, ['rules', 'legal'], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

test('counts match RULES §2', () => {
  const two = topology('two_player', true);
  assert.equal(two.squares.size, 60);
  assert.deepEqual(two.counts, { road: 101, diagonal: 32, rail: 35 });
  assert.equal(two.lines.length, 7);
  assert.deepEqual(topology('two_player', false).counts, { road: 101, diagonal: 32, rail: 34 });
  const four = topology('four_player');
  assert.equal(four.squares.size, 129);
  assert.equal(four.counts.rail, 92);
  assert.equal(four.lines.length, 18);
  assert.equal([...four.squares.values()].filter((s) => s.rail).length, 73);
  assert.equal([...four.squares.values()].filter((s) => s.kind === 'camp').length, 20);
  assert.deepEqual(four.hqsOf(1), ['q8', 'q10']);
  assert.deepEqual(four.hqsOf(2), ['j17', 'h17']);
  assert.equal(two.localSquare(1, 5, 1), 'd12');
});

for (const [board, middleRail] of [['two_player', true], ['two_player', false], ['four_player', true]]) {
  test(`moves on an empty ${board} board (middle rail ${middleRail}) match the Rust generator`, { skip: !existsSync(BIN) && `no ${BIN}` }, () => {
    const t = topology(board, middleRail);
    const names = t.names().filter((n) => t.get(n).kind !== 'hq');
    const positions = [];
    const expected = [];
    for (const n of names) {
      for (const role of ['marshal', 'engineer']) {
        const pos = { board, mode: 'dark', to_move: 0, pieces: [{ at: n, seat: 0, role }] };
        if (!middleRail) pos.options = { middle_crossing: 'road' };
        positions.push(pos);
        const set = role === 'marshal' ? slideTargets(t, n) : engineerTargets(t, n);
        expected.push([...set].map((to) => `${n}-${to}`).sort());
      }
    }
    const answers = rustLegal(positions);
    answers.forEach((a, i) => {
      assert.ok(a.actions, JSON.stringify(a));
      assert.deepEqual([...a.actions].sort(), expected[i], JSON.stringify(positions[i].pieces[0]));
    });
  });
}
