// Every error code the server and the rules core can send has words in Chinese and in English:
// the codes are read from the tables of docs/server-protocol.md and docs/formats.md ("Error
// codes"), so a code documented without words (or words without their args) fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRINGS, setLang } from '../../js/i18n.js';
import { serverMessage, keyOf } from '../../js/errors.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const DOCS = path.resolve(here, '../../../docs');

/** The rows of the markdown table under `## Error codes` of a doc: {code, args: [names]}. */
function codeTable(file) {
  const text = readFileSync(path.join(DOCS, file), 'utf8');
  const start = text.indexOf('\n## Error codes');
  assert.ok(start >= 0, `${file} has a section "Error codes"`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const rows = [];
  let header = null;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) continue;
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    if (!header) { header = cells; continue; }
    if (cells.every((c) => /^-+$/.test(c))) continue;
    const code = /^`([a-z_]+\.[a-z_]+)`$/.exec(cells[header.indexOf('code')]);
    assert.ok(code, `${file}: a code in ${line}`);
    // Args are the `name`s at the start of the args cell's comma-separated items.
    const argCell = cells[header.indexOf('args')];
    const args = argCell === '—' ? [] : argCell.split(/,(?![^(]*\))/).map((a) => /`(\w+)`/.exec(a)?.[1]).filter(Boolean);
    rows.push({ code: code[1], args });
  }
  return rows;
}

const server = codeTable('server-protocol.md');
const core = codeTable('formats.md');

test('the docs list the codes of the server, the accounts and the core', () => {
  const codes = new Set([...server, ...core].map((r) => r.code));
  for (const c of ['table.not_your_turn', 'account.wrong_password', 'account.throttled', 'name.mixed_scripts',
    'player.not_found', 'request.bad', 'deploy.camp_not_empty', 'setup.too_many', 'action.cannot_move']) {
    assert.ok(codes.has(c), c);
  }
  assert.ok(server.length >= 60, `server codes: ${server.length}`);
  assert.ok(core.length >= 50, `core codes: ${core.length}`);
});

test('every documented code has Chinese and English words that use only its args', () => {
  const missing = [];
  for (const { code, args } of [...server, ...core]) {
    for (const lang of ['zh', 'en']) {
      const key = `err.${code}`;
      const words = STRINGS[lang][key];
      if (typeof words !== 'string' || !words) { missing.push(`${lang} ${key}`); continue; }
      // The words' placeholders are args of the code (or `ch`, made from `char` and `code_point`).
      for (const m of words.matchAll(/\{(\w+)\}/g)) {
        const ok = args.includes(m[1]) || (m[1] === 'ch' && args.includes('code_point'));
        if (!ok) missing.push(`${lang} ${key}: {${m[1]}} is not an arg (${args.join(', ')})`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

test('every documented code is shown in words, never as the fallback or with holes', () => {
  const sample = { square: 'c3', from: 'c3', to: 'c5', role: 'major_general', seat: 1, to_move: 1, flag_of: 1,
    board: 'two_player', mode: 'flip', field: 'move_seconds', hqs: ['b1', 'd1'], scripts: ['Cyrillic', 'Latin'],
    bots: ['random', 'search'], colours: [1, 1], char: '!', code_point: 'U+0021', what: 'logins_per_name' };
  for (const lang of ['zh', 'en']) {
    setLang(lang);
    for (const { code, args } of [...server, ...core]) {
      const a = Object.fromEntries(args.map((k) => [k, sample[k] ?? 7]));
      const said = serverMessage({ code, args: a, reason: 'ENGLISH TEXT' }, { board: 'two_player' });
      assert.ok(!said.includes('ENGLISH TEXT'), `${lang} ${code}: ${said}`);
      assert.ok(!/\{\w+\}/.test(said), `${lang} ${code}: ${said}`);
      assert.ok(!said.includes('major_general'), `${lang} ${code}: roles by name: ${said}`);
    }
  }
  setLang('zh');
  // Variants by args have words too.
  for (const what of ['logins_per_name', 'logins_per_address', 'registrations_per_address']) {
    assert.ok(keyOf('account.throttled', { what }) in STRINGS.en, what);
  }
});
