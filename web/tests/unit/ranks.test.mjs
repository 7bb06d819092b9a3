// The client's ranks (web/js/leaderboard.js TITLES) are the server's (rating.rs TITLES), and each
// is named by its piece.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TITLES } from '../../js/leaderboard.js';
import { ROLES, ZH } from '../../js/roles.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const RATING_RS = path.resolve(here, '../../../crates/junqi-server/src/rating.rs');

test('the ranks and their thresholds are the server\'s', () => {
  const src = readFileSync(RATING_RS, 'utf8');
  const block = src.slice(src.indexOf('pub const TITLES'), src.indexOf('];', src.indexOf('pub const TITLES')));
  const server = [...block.matchAll(/\("(\w+)",\s*([-\w.:]+)\)/g)].map(([, code, v]) => [code, v.includes('NEG_INFINITY') ? -Infinity : Number(v)]);
  assert.equal(server.length, 9);
  assert.deepEqual(TITLES, server);
});

test('the ranks are the nine ranked pieces, strongest first', () => {
  assert.deepEqual(TITLES.map(([c]) => c), ROLES.slice(0, 9));
  assert.deepEqual(TITLES.map(([c]) => ZH[c]), ['司令', '军长', '师长', '旅长', '团长', '营长', '连长', '排长', '工兵']);
});
