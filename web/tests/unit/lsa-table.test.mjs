// The pure parts of playing 陆海空三军棋 at a table: action texts (moves and looks), the deploy
// editor's swaps and their refusals, random layouts, the scout notes a board draws, the
// fallen pieces by arm, and the events in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setLang } from '../../js/i18n.js';
import { parseLsaAction, parseLsaActions, targetsOf, actionAt, canAct } from '../../js/lsa-actions.js';
import {
  parseLayout, layoutText, checkSwap, swapSquares, validateLayout, randomLayout, deployZone, whereKey, problemText,
} from '../../js/lsa-deploy.js';
import { noteMarks, noteRows } from '../../js/lsa-notes.js';
import { lsaCounts, lsaTotal, lsaFallen, LSA_ROLE_ORDER } from '../../js/lsa-pieces.js';
import { describeEntry, lastMoveOf } from '../../js/events.js';
import { lsaArm } from '../../js/lsa-board.js';
import { seededRng } from '../../js/ui.js';

test('action texts: every kind of move is from-to, a look is scout <from> <at>', () => {
  assert.deepEqual(parseLsaAction('a6-a9'), { text: 'a6-a9', from: 'a6', to: 'a9' });
  assert.deepEqual(parseLsaAction('e10-e9'), { text: 'e10-e9', from: 'e10', to: 'e9' });
  assert.deepEqual(parseLsaAction('scout i1 i11'), { text: 'scout i1 i11', from: 'i1', at: 'i11', look: true });
  for (const bad of ['', 'flip a1', 'a6 a9', 'scout i1', 'z1-a2', 'scout i1-i11']) assert.equal(parseLsaAction(bad), null, bad);
  const acts = parseLsaActions(['i1-i2', 'i1-i3', 'scout i1 i11', 'a1-a2', 'nonsense']);
  assert.equal(acts.length, 4);
  assert.deepEqual(targetsOf(acts, 'i1'), { moves: ['i2', 'i3'], looks: ['i11'] });
  assert.deepEqual(targetsOf(acts, 'c4'), { moves: [], looks: [] });
  assert.ok(canAct(acts, 'a1') && !canAct(acts, 'i11'));
  assert.equal(actionAt(acts, 'i1', 'i11').text, 'scout i1 i11');
  assert.equal(actionAt(acts, 'i1', 'i3').text, 'i1-i3');
  assert.equal(actionAt(acts, 'i1', 'a2'), null, 'another piece’s target is not this one’s');
  // A square that is both a move and a look of one piece: the move wins (lsa-actions.js).
  const both = parseLsaActions(['scout i1 i5', 'i1-i5']);
  assert.equal(actionAt(both, 'i1', 'i5').text, 'i1-i5');
});

test('the piece sets: 41 and 30 pieces, five ships and two planes each', () => {
  assert.equal(lsaTotal('seed'), 41);
  assert.equal(lsaTotal('taiwan'), 30);
  for (const set of ['seed', 'taiwan']) {
    const arms = { land: 0, sea: 0, air: 0 };
    for (const [r, n] of Object.entries(lsaCounts(set))) arms[lsaArm(r)] += n;
    assert.deepEqual(arms, set === 'seed' ? { land: 34, sea: 5, air: 2 } : { land: 23, sea: 5, air: 2 }, set);
  }
  assert.equal(lsaCounts('seed').cavalry, undefined, 'no cavalry in the standard set');
  assert.equal(lsaCounts('taiwan').brigadier, undefined, 'no brigadier in the Taiwanese set');
  assert.equal(LSA_ROLE_ORDER.length, 31);
});

/** A full legal layout of a set for a seat, from the random generator. */
function fullLayout(seat, set, seed = 1) {
  const pieces = new Map();
  let i = 0;
  for (const [role, n] of Object.entries(lsaCounts(set))) for (let k = 0; k < n; k++) pieces.set(`x${i++}`, role);
  return randomLayout(pieces, seat, seededRng(seed));
}

test('random layouts are legal for both seats and both sets, and read back from their text', () => {
  for (const set of ['seed', 'taiwan']) {
    for (const seat of [0, 1]) {
      for (let seed = 1; seed <= 30; seed++) {
        const l = fullLayout(seat, set, seed);
        assert.equal(l.size, lsaTotal(set));
        assert.equal(validateLayout(l, seat, set), null, `${set} seat ${seat} seed ${seed}: ${layoutText(l)}`);
        const back = parseLayout(layoutText(l));
        assert.deepEqual([...back.layout].sort(), [...l].sort());
      }
    }
  }
  const l = fullLayout(0, 'seed');
  assert.equal(validateLayout(l, 1, 'seed')?.[0].key, 'lsa.deploy.refuse', "South's layout is not North's");
  assert.equal(validateLayout(l, 0, 'taiwan').at(-1).key, 'lsa.deploy.err.count', 'the counts are the set’s');
});

test('layout text errors name the word at fault', () => {
  assert.deepEqual(parseLayout('e1=flag z9=tank').error, { key: 'lsa.deploy.err.square', args: { sq: 'z9' } });
  assert.deepEqual(parseLayout('e1=flag e1=tank').error, { key: 'lsa.deploy.err.twice', args: { sq: 'e1' } });
  assert.deepEqual(parseLayout('e1').error, { key: 'lsa.deploy.err.word', args: { word: 'e1' } });
  assert.deepEqual(parseLayout('e1=king').error, { key: 'lsa.deploy.err.role', args: { word: 'e1=king' } });
  assert.equal(layoutText(parseLayout('e2=tank a1=fighter e1=flag').layout), 'a1=fighter e1=flag e2=tank');
});

test('swaps keep every piece where its role may start, and say why not', () => {
  // A small hand layout for South: the point is the squares, not the counts.
  const l = parseLayout('e1=flag e6=fort c7=battleship a1=fighter i1=scout_plane b1=landmine d2=bomb b6=tank c1=marshal').layout;
  const refuse = (a, b) => { const r = checkSwap(l, 0, a, b); assert.equal(r.ok, false, `${a}↔${b}`); return r; };
  // Ships only on South's anchors (rank 7), planes on its airfields, the fort on its harbour.
  assert.deepEqual(refuse('c7', 'b6').args, { role: 'battleship', sq: 'b6', where: 'sea' });
  assert.deepEqual(refuse('a1', 'c7').args, { role: 'fighter', sq: 'c7', where: 'air' });
  assert.deepEqual(refuse('e6', 'd5').args, { role: 'fort', sq: 'd5', where: 'fort' });
  // The flag in a city; a landmine on the last two rows; a bomb off the front row (rank 6).
  assert.deepEqual(refuse('e1', 'd1').args, { role: 'flag', sq: 'd1', where: 'flag' });
  assert.deepEqual(refuse('b1', 'b3').args, { role: 'landmine', sq: 'b3', where: 'landmine' });
  assert.deepEqual(refuse('d2', 'd6').args, { role: 'bomb', sq: 'd6', where: 'back' });
  // The other piece of a trade must fit too: the tank may go to the landmine's square, but the
  // landmine may not come to the tank's (the front row).
  assert.deepEqual(refuse('b6', 'b1').args, { role: 'landmine', sq: 'b6', where: 'landmine' });
  // Camps start empty; North's half and the sea are not South's.
  assert.equal(refuse('b6', 'c3').key, 'lsa.deploy.err.camp');
  assert.equal(refuse('b6', 'b12').key, 'lsa.deploy.err.zone');
  assert.equal(refuse('c7', 'c8').key, 'lsa.deploy.err.zone', 'the middle of the sea is no anchor');
  assert.equal(refuse('c7', 'c9').key, 'lsa.deploy.err.zone', "North's anchors are North's");
  assert.equal(refuse('d3', 'd4').key, 'lsa.deploy.err.empty');
  // Allowed: a ship to an empty anchor of South, two land pieces trading, a flag to another city.
  assert.deepEqual(swapSquares(l, 0, 'c7', 'f7'), { ok: true });
  assert.equal(l.get('f7'), 'battleship');
  assert.equal(l.has('c7'), false);
  assert.ok(swapSquares(l, 0, 'b6', 'c1').ok);
  assert.equal(l.get('b6'), 'marshal');
  assert.equal(l.get('c1'), 'tank');
  assert.ok(swapSquares(l, 0, 'e1', 'g1').ok);
  assert.equal(l.get('g1'), 'flag');
  assert.ok(swapSquares(l, 0, 'a1', 'i1').ok, 'the two planes trade airfields');
  // A refused swap leaves the layout as it was.
  const before = layoutText(l);
  assert.equal(swapSquares(l, 0, 'f7', 'd5').ok, false);
  assert.equal(layoutText(l), before);
  // North's zone is North's own half and anchors (rank 9).
  const north = deployZone(1);
  assert.ok(north.has('c9') && north.has('e10') && north.has('a15') && !north.has('c13') && !north.has('c7'));
  assert.equal(whereKey('trap'), 'back');
  assert.equal(whereKey('submarine'), 'sea');
});

test('refusals in words, in Chinese and in English', () => {
  const r = checkSwap(parseLayout('c7=battleship').layout, 0, 'c7', 'b6');
  setLang('zh');
  assert.equal(problemText(r), '主力舰不能放在 b6：舰只只能放在己方锚圈');
  assert.equal(problemText({ key: 'lsa.deploy.err.camp', args: { sq: 'c3' } }), 'c3 是行营：开局时行营里没有棋子');
  setLang('en');
  assert.equal(problemText(r), 'The Battleship cannot start on b6: ships start on your anchors');
  setLang('zh');
});

test('scout notes are drawn for their seat only, on enemy pieces still hidden', () => {
  const pieces = [
    { at: 'c12', seat: 1, arm: 'land', role: null },
    { at: 'a15', seat: 1, arm: 'air', role: null },
    { at: 'e10', seat: 1, arm: 'land', role: 'fort' }, // already known to the view
    { at: 'c4', seat: 0, arm: 'land', role: 'tank' },
  ];
  const notes = [{ at: 'c12', role: 'tank' }, { at: 'a15', role: 'scout_plane' }, { at: 'e10', role: 'fort' }, { at: 'd9', role: 'gunboat' }];
  assert.deepEqual(noteMarks(notes, pieces, 0), { c12: 'tank', a15: 'scout_plane' });
  assert.deepEqual(noteMarks(notes, pieces, null), {}, 'a spectator sees no notes');
  assert.deepEqual(noteMarks(notes, pieces, 1), {}, "North's own pieces take no notes of South's");
  assert.deepEqual(noteMarks(undefined, pieces, 0), {});
  assert.deepEqual(noteRows({ c12: 'tank', a15: 'scout_plane', b12: 'major' }).map((r) => r.at), ['b12', 'c12', 'a15']);
});

test('fallen pieces: named for a known seat, by arm for a hidden one', () => {
  const south = fullLayout(0, 'seed');
  const north = fullLayout(1, 'seed', 7);
  const pieces = [...south].map(([at, role]) => ({ at, seat: 0, arm: lsaArm(role), role }))
    .concat([...north].map(([at, role]) => ({ at, seat: 1, arm: lsaArm(role), role: null })));
  // South loses its fighter and a tank; North a ship and two land pieces.
  const drop = (seat, pred, n) => {
    for (let k = 0; k < n; k++) pieces.splice(pieces.findIndex((p) => p.seat === seat && pred(p)), 1);
  };
  drop(0, (p) => p.role === 'fighter', 1);
  drop(0, (p) => p.role === 'tank', 1);
  drop(1, (p) => p.arm === 'sea', 1);
  drop(1, (p) => p.arm === 'land', 2);
  const [s, n] = lsaFallen({ options: {}, pieces, eliminated: [1] });
  assert.deepEqual(s.known, ['tank', 'fighter']);
  assert.equal(s.unknown, 0);
  assert.deepEqual(n.byArm, { land: 2, sea: 1 });
  assert.equal(n.unknown, 3);
  assert.equal(n.eliminated, true);
});

test('land-sea-air events in words; a look is a move on the board that does not glide', () => {
  setLang('zh');
  const lines = (events) => describeEntry('0 x', events, 'land_sea_air').map((l) => [l.text, l.cls]);
  assert.deepEqual(lines([{ kind: 'move', seat: 0, from: 'a6', to: 'a9' }]), [['南：a6 → a9', '']]);
  assert.deepEqual(lines([{ kind: 'landed', seat: 0, from: 'c9', to: 'c10' }]), [['南：c9 登陆 c10', '']]);
  assert.deepEqual(lines([{ kind: 'attack', seat: 1, from: 'e10', to: 'e9', result: 'attacker_wins', strike: true }]),
    [['北：e10 炮击 e9，攻方胜', 'attack']]);
  assert.deepEqual(lines([{ kind: 'attack', seat: 0, from: 'c9', to: 'c10', result: 'defender_wins', landing: true }]),
    [['南：c9 登陆攻击 c10，守方胜', 'attack']]);
  assert.deepEqual(lines([{ kind: 'attack', seat: 0, from: 'c4', to: 'c13', result: 'both_removed', flight: true }]),
    [['南：c4 飞行攻击 c13，同归于尽', 'attack']]);
  assert.deepEqual(lines([{ kind: 'attack', seat: 0, from: 'a6', to: 'a7', result: 'flag_captured' }]),
    [['南：a6 攻击 a7，夺得军旗！', 'attack']]);
  assert.deepEqual(lines([{ kind: 'scout', seat: 0, from: 'i1', at: 'i11', result: 'viewed' },
    { kind: 'scouted_private', seat: 0, at: 'i11', role: 'tank' }]),
  [['南：i1 侦察 i11', 'scout'], ['侦察：i11 是 坦克', 'major scout']]);
  assert.deepEqual(lines([{ kind: 'scouted_private', seat: 0, at: 'c5', role: 'battleship', landed: true }]),
    [['侦察：c5 是 主力舰（已登陆）', 'major scout']]);
  assert.deepEqual(lines([{ kind: 'scout', seat: 1, from: 'a15', at: 'a5', result: 'shot_down' }]),
    [['北：a15 侦察 a5，侦察机被击落', 'attack scout']]);
  assert.deepEqual(lines([{ kind: 'flag_revealed', seat: 1, at: 'c15' }]), [['司令阵亡，北 军旗在 c15', 'major']]);
  assert.deepEqual(lines([{ kind: 'skipped', seat: 1, reason: 'timeout' }]), [['北 超时，跳过（贻误战机）', '']]);
  assert.deepEqual(lines([{ kind: 'eliminated', seat: 1, reason: 'flag_captured' }]), [['北 出局（军旗被夺）', 'major']]);
  setLang('en');
  assert.deepEqual(lines([{ kind: 'scout', seat: 0, from: 'i1', at: 'i11', result: 'viewed' },
    { kind: 'scouted_private', seat: 0, at: 'i11', role: 'anti_aircraft_gun' }]),
  [['South: i1 looks at i11', 'scout'], ['Scouted: i11: Anti-aircraft gun', 'major scout']]);
  assert.equal(lines([{ kind: 'landed', seat: 1, from: 'c7', to: 'c6' }])[0][0], 'North: c7 lands on c6');
  setLang('zh');
  assert.deepEqual(lastMoveOf([{ kind: 'scout', seat: 0, from: 'i1', at: 'i11', result: 'viewed' }]),
    { from: 'i1', to: 'i11', result: null, look: true });
  assert.deepEqual(lastMoveOf([{ kind: 'scout', seat: 1, from: 'a15', at: 'a5', result: 'shot_down' }]),
    { from: 'a15', to: 'a5', result: 'shot_down', look: true });
  assert.deepEqual(lastMoveOf([{ kind: 'landed', seat: 0, from: 'c9', to: 'c10' }]), { from: 'c9', to: 'c10', result: null });
});
