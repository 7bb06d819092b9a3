// Deployment (布阵, RULES §3) in local coordinates (§2.3): validation mirroring
// crates/junqi-core/src/deploy.rs with messages that name the square at fault, a random legal
// layout, swaps, the text form (six rows front → HQ, '/'-separated, codes 9…1 B L F, '.' at
// camps), and layouts saved in localStorage.
import { ROLES, COUNTS, code, fromCode } from './roles.js';
import { isLocalCamp, isLocalHq, topology } from './board.js';

/** cells[row][col] = role or null; row 0 = front row, row 5 = HQ row. */
export function emptyCells() {
  return Array.from({ length: 6 }, () => Array(5).fill(null));
}

export function toText(cells) {
  return cells.map((row) => row.map((r) => (r ? code(r) : '.')).join('')).join('/');
}

/** Parse the text form; returns {cells} or {error: {key, args}}. */
export function fromText(s) {
  const rows = String(s).trim().split('/');
  if (rows.length !== 6) return { error: { key: 'deploy.err.rows', args: { n: rows.length } } };
  const cells = emptyCells();
  for (let r = 0; r < 6; r++) {
    const chars = [...rows[r]];
    if (chars.length !== 5) return { error: { key: 'deploy.err.rowlen', args: { r, row: rows[r] } } };
    for (let c = 0; c < 5; c++) {
      if (chars[c] === '.') continue;
      const role = fromCode(chars[c]);
      if (!role) return { error: { key: 'deploy.err.code', args: { ch: chars[c], r, c } } };
      cells[r][c] = role;
    }
  }
  return { cells };
}

/**
 * Check RULES §3 for `seat` on `board`. Returns null when legal, else every problem found as
 * {key, args} (i18n keys; args name squares as the board names them), the first one being the
 * one the server would report.
 */
export function validate(cells, board, seat) {
  const t = topology(board);
  const name = (r, c) => t.localSquare(seat, r, c);
  const problems = [];
  const counts = Object.fromEntries(ROLES.map((r) => [r, 0]));
  for (let r = 0; r < 6; r++) {
    for (let c = 0; c < 5; c++) {
      const role = cells[r][c];
      if (isLocalCamp(r, c)) {
        if (role) problems.push({ key: 'deploy.err.camp', args: { sq: name(r, c), role }, at: [r, c] });
        continue;
      }
      if (!role) {
        problems.push({ key: 'deploy.err.empty', args: { sq: name(r, c) }, at: [r, c] });
        continue;
      }
      counts[role] += 1;
      if (role === 'flag' && !isLocalHq(r, c)) {
        problems.push({ key: 'deploy.err.flag', args: { sq: name(r, c), hq1: name(5, 1), hq2: name(5, 3) }, at: [r, c] });
      } else if (role === 'landmine' && r < 4) {
        problems.push({ key: 'deploy.err.landmine', args: { sq: name(r, c) }, at: [r, c] });
      } else if (role === 'bomb' && r === 0) {
        problems.push({ key: 'deploy.err.bomb', args: { sq: name(r, c) }, at: [r, c] });
      }
    }
  }
  for (const role of ROLES) {
    if (counts[role] !== COUNTS[role]) {
      problems.push({ key: 'deploy.err.count', args: { role, want: COUNTS[role], have: counts[role] } });
    }
  }
  return problems.length ? problems : null;
}

/** A uniformly random legal layout (same scheme as Deployment::random). rng() in [0,1). */
export function randomCells(rng = Math.random) {
  const cells = emptyCells();
  const free = [];
  for (let r = 0; r < 6; r++) for (let c = 0; c < 5; c++) if (!isLocalCamp(r, c)) free.push([r, c]);
  const place = (role, n, allowed) => {
    for (let k = 0; k < n; k++) {
      const options = free.map((rc, i) => [rc, i]).filter(([[r, c]]) => allowed(r, c));
      const [[r, c], i] = options[Math.floor(rng() * options.length)];
      free.splice(i, 1);
      cells[r][c] = role;
    }
  };
  place('flag', 1, (r, c) => isLocalHq(r, c));
  place('landmine', 3, (r) => r >= 4);
  place('bomb', 2, (r) => r >= 1);
  const rest = [];
  for (const role of ROLES) if (!['flag', 'landmine', 'bomb'].includes(role)) for (let i = 0; i < COUNTS[role]; i++) rest.push(role);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  free.forEach(([r, c], i) => { cells[r][c] = rest[i]; });
  return cells;
}

/** Swap two local squares (either may be empty); camps may not be filled. Returns ok. */
export function swap(cells, a, b) {
  const [ra, ca] = a;
  const [rb, cb] = b;
  if (ra === rb && ca === cb) return false;
  if ((isLocalCamp(ra, ca) && cells[rb][cb]) || (isLocalCamp(rb, cb) && cells[ra][ca])) return false;
  const x = cells[ra][ca];
  cells[ra][ca] = cells[rb][cb];
  cells[rb][cb] = x;
  return true;
}

export function cloneCells(cells) {
  return cells.map((row) => row.slice());
}

// Saved layouts: localStorage key 'junqi.layouts' = [{name, text}].
const KEY = 'junqi.layouts';
export function loadLayouts(storage = globalThis.localStorage) {
  try {
    const v = JSON.parse(storage?.getItem(KEY) || '[]');
    return Array.isArray(v) ? v.filter((l) => l && typeof l.name === 'string' && typeof l.text === 'string') : [];
  } catch {
    return [];
  }
}
export function saveLayout(name, cells, storage = globalThis.localStorage) {
  const list = loadLayouts(storage).filter((l) => l.name !== name);
  list.push({ name, text: toText(cells) });
  storage?.setItem(KEY, JSON.stringify(list));
  return list;
}
export function deleteLayout(name, storage = globalThis.localStorage) {
  const list = loadLayouts(storage).filter((l) => l.name !== name);
  storage?.setItem(KEY, JSON.stringify(list));
  return list;
}
