// Deployment editor logic (RULES §3) and announcements in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as D from '../../js/deploy.js';
import { t, setLang } from '../../js/i18n.js';
import { describeEvent, describeOutcome, fallen, lastMoveOf } from '../../js/events.js';
import { COUNTS, ROLES, code, fromCode } from '../../js/roles.js';

function seeded(seed) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

test('role codes round trip', () => {
  for (const r of ROLES) assert.equal(fromCode(code(r)), r);
  assert.equal(Object.values(COUNTS).reduce((a, b) => a + b, 0), 25);
});

test('random layouts are legal on every seat and round trip through the text form', () => {
  const rng = seeded(7);
  for (let i = 0; i < 300; i++) {
    const cells = D.randomCells(rng);
    assert.equal(D.validate(cells, 'two_player', 0), null);
    assert.equal(D.validate(cells, 'two_player', 1), null);
    for (let s = 0; s < 4; s++) assert.equal(D.validate(cells, 'four_player', s), null);
    assert.deepEqual(D.fromText(D.toText(cells)).cells, cells);
  }
});

test('errors name the square, as the core does', () => {
  setLang('en');
  const rng = seeded(1);
  let cells = D.randomCells(rng);
  // A landmine into the front row.
  let mine;
  for (let r = 4; r < 6 && !mine; r++) for (let c = 0; c < 5; c++) if (cells[r][c] === 'landmine') { mine = [r, c]; break; }
  assert.ok(D.swap(cells, [0, 0], mine));
  let p = D.validate(cells, 'two_player', 0);
  assert.equal(t(p[0].key, p[0].args), 'The landmine on a6 must stand in the last two rows');
  p = D.validate(cells, 'four_player', 1);
  assert.equal(t(p[0].key, p[0].args), 'The landmine on l7 must stand in the last two rows');
  cells = D.randomCells(rng);
  cells[1][1] = 'engineer';
  p = D.validate(cells, 'two_player', 1);
  assert.match(t(p[0].key, p[0].args), /^d8 is a camp/);
  cells = D.randomCells(rng);
  const flag = cells.flat().indexOf('flag');
  cells[Math.floor(flag / 5)][flag % 5] = 'engineer';
  p = D.validate(cells, 'two_player', 0);
  assert.ok(p.some((x) => t(x.key, x.args) === 'A layout needs 3 × Engineer, this one has 4'));
  assert.ok(p.some((x) => t(x.key, x.args) === 'A layout needs 1 × Flag, this one has 0'));
  // Flag outside an HQ, bomb in the front row.
  cells = D.randomCells(rng);
  const f = cells.flat().indexOf('flag');
  D.swap(cells, [Math.floor(f / 5), f % 5], [0, 2]);
  p = D.validate(cells, 'two_player', 0);
  assert.ok(p.some((x) => t(x.key, x.args) === 'The flag on c6 must stand in a headquarters (b1 or d1)'));
  setLang('zh');
  assert.equal(t(p[0].key, p[0].args).includes('c6'), true);
});

test('swaps refuse to fill a camp; the text form reports bad input', () => {
  const cells = D.randomCells(seeded(3));
  assert.equal(D.swap(cells, [0, 0], [1, 1]), false);
  assert.equal(D.swap(cells, [0, 0], [0, 0]), false);
  assert.ok(D.swap(cells, [0, 0], [0, 1]));
  assert.equal(D.fromText('12345/1.2.3').error.key, 'deploy.err.rows');
  assert.equal(D.fromText('12345/1.2.3/12.45/1.2.3/12345/1234').error.key, 'deploy.err.rowlen');
  assert.equal(D.fromText('12345/1.2.3/12.45/1.2.3/12345/1234X').error.key, 'deploy.err.code');
});

test('saved layouts live in storage', () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  const cells = D.randomCells(seeded(5));
  D.saveLayout('mine', cells, storage);
  D.saveLayout('mine', cells, storage);
  assert.deepEqual(D.loadLayouts(storage), [{ name: 'mine', text: D.toText(cells) }]);
  assert.deepEqual(D.deleteLayout('mine', storage), []);
});

test('announcements in words', () => {
  setLang('zh');
  assert.equal(describeEvent({ kind: 'attack', seat: 0, from: 'a6', to: 'a7', result: 'attacker_wins' }, 'two_player'), '南：a6 攻击 a7，攻方胜');
  assert.equal(describeEvent({ kind: 'flag_revealed', seat: 1, at: 'b12' }, 'two_player'), '司令阵亡，北 军旗在 b12');
  setLang('en');
  assert.equal(describeEvent({ kind: 'move', seat: 3, from: 'f7', to: 'f8' }, 'four_player'), 'West: f7 → f8');
  assert.equal(describeEvent({ kind: 'eliminated', seat: 1, reason: 'resigned' }, 'two_player'), 'North is out (resigned)');
  assert.equal(describeOutcome({ result: 'win', winners: [0, 2], reason: 'skips' }, 'four_player'), 'South + North won (too many skips)');
  assert.equal(describeOutcome({ result: 'win', winners: [1], reason: 'resigned' }, 'two_player', 0), 'You lost (resigned)');
  assert.deepEqual(lastMoveOf([{ kind: 'attack', seat: 0, from: 'a6', to: 'a7', result: 'both_removed' }]), { from: 'a6', to: 'a7', result: 'both_removed' });
  setLang('zh');
});

test('the fallen tracker knows own pieces and counts hidden ones', () => {
  const pieces = [];
  for (const r of ROLES) for (let i = 0; i < COUNTS[r]; i++) pieces.push({ at: 'x', seat: 0, role: r });
  pieces.splice(pieces.findIndex((p) => p.role === 'marshal'), 1);
  for (let i = 0; i < 23; i++) pieces.push({ at: 'y', seat: 1, role: null });
  const f = fallen({ mode: 'dark', pieces, eliminated: [] }, 2);
  assert.deepEqual(f[0], { seat: 0, known: ['marshal'], unknown: 0, eliminated: false });
  assert.deepEqual(f[1], { seat: 1, known: [], unknown: 2, eliminated: false });
  // Flip play: face-down pieces show no colour, so only the total is known.
  const flip = [{ at: 'a1', seat: null, role: null, face_down: true }, { at: 'a2', seat: 0, role: 'bomb' }];
  for (let i = 0; i < 45; i++) flip.push({ at: 'z', seat: null, role: null, face_down: true });
  assert.deepEqual(fallen({ mode: 'flip', pieces: flip, eliminated: [] }, 2), [{ seat: null, known: [], unknown: 3, eliminated: false }]);
});
