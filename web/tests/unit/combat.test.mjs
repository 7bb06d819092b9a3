// The help page's combat table (web/js/combat.js) against the Rust referee: every attacker
// against every defender, under the default rules and the options that change combat, played
// through `junqi rules apply` on a two-player board (a6 attacks a7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { combat, ATTACKERS } from '../../js/combat.js';
import { ROLES } from '../../js/roles.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.JUNQI_BIN || path.resolve(here, '../../../target/debug/junqi');

const OPTION_SETS = [{}, { landmine: 'both_die' }, { engineer_scout: true }];

test('the attackers are the movable roles, strongest first', () => {
  assert.deepEqual(ATTACKERS, ['marshal', 'general', 'major_general', 'brigadier', 'colonel', 'major',
    'captain', 'lieutenant', 'engineer', 'bomb']);
  assert.equal(combat('landmine', 'flag'), null);
  assert.equal(combat('marshal', 'general'), 'attacker_wins');
  assert.equal(combat('engineer', 'landmine'), 'attacker_wins');
});

test('every attack in the combat table is what the Rust referee announces', { skip: !existsSync(BIN) && `no ${BIN}` }, () => {
  const cases = [];
  for (const options of OPTION_SETS) {
    for (const attacker of ATTACKERS) {
      for (const defender of ROLES) {
        // A spare captain each (at the back) so that neither side runs out of pieces.
        const pieces = [
          { at: 'a6', seat: 0, role: attacker }, { at: 'a7', seat: 1, role: defender },
          { at: 'e1', seat: 0, role: 'captain' }, { at: 'e12', seat: 1, role: 'captain' },
        ];
        cases.push({ options, attacker, defender, line: { position: { board: 'two_player', mode: 'dark', options, to_move: 0, pieces }, action: 'a6-a7' } });
      }
    }
  }
  const input = cases.map((c) => JSON.stringify(c.line)).join('\n') + '\n';
  const r = spawnSync(BIN, ['rules', 'apply'], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  const answers = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(answers.length, cases.length);
  answers.forEach((a, i) => {
    const c = cases[i];
    const attack = (a.events || []).find((e) => e.kind === 'attack');
    assert.ok(attack, `${JSON.stringify(c.options)} ${c.attacker} × ${c.defender}: ${JSON.stringify(a)}`);
    assert.equal(combat(c.attacker, c.defender, c.options), attack.result, `${JSON.stringify(c.options)} ${c.attacker} × ${c.defender}`);
  });
});
