// Land-sea-air deployment (LANDSEAAIR §3) for the table's editor: the layout text the server
// reads and writes (`square=role` words, e.g. `e1=flag d1=landmine …`), swaps that keep every
// piece on a square its role may start on (lsa-board.js deploySquares, mirroring
// crates/junqi-core/src/lsa/deploy.rs start_squares) with the reason a swap is refused, a check
// of a whole layout, a random legal layout of the same pieces, and the refusals in words.
// Pure: tested in node.
import { lsaTopology, lsaArm } from './lsa-board.js';
import { LSA_ROLE_ORDER, lsaCounts } from './lsa-pieces.js';
import { t } from './i18n.js';

/** Parse layout text → {layout: Map(square → role)} or {error: {key, args}}. */
export function parseLayout(text) {
  const topo = lsaTopology();
  const layout = new Map();
  for (const word of String(text || '').split(/\s+/).filter(Boolean)) {
    const [sq, role, extra] = word.split('=');
    if (!role || extra !== undefined) return { error: { key: 'lsa.deploy.err.word', args: { word } } };
    if (!topo.has(sq)) return { error: { key: 'lsa.deploy.err.square', args: { sq } } };
    if (!LSA_ROLE_ORDER.includes(role)) return { error: { key: 'lsa.deploy.err.role', args: { word } } };
    if (layout.has(sq)) return { error: { key: 'lsa.deploy.err.twice', args: { sq } } };
    layout.set(sq, role);
  }
  return { layout };
}

/** Layout → text, squares in board order (rank by rank, file a first), as the server reads it. */
export function layoutText(layout) {
  const topo = lsaTopology();
  return topo.names().filter((n) => layout.has(n)).map((n) => `${n}=${layout.get(n)}`).join(' ');
}

/**
 * What a role may start on, as a word for the refusal (lsa.where.*): the categories of
 * deploy.rs where_allowed.
 */
export function whereKey(role) {
  if (['flag', 'fort', 'landmine'].includes(role)) return role;
  if (role === 'bomb' || role === 'trap') return 'back';
  const arm = lsaArm(role);
  return arm === 'land' ? 'land' : arm;
}

/** Whether a piece of `role` of `seat` may start on `sq` (§3). */
export function mayStart(seat, role, sq) {
  return lsaTopology().deploySquares(seat, role).includes(sq);
}

/** Every square a seat may put some piece on: its stations, cities, harbour, airfields, anchors. */
export function deployZone(seat) {
  const topo = lsaTopology();
  const zone = new Set();
  for (const role of LSA_ROLE_ORDER) for (const sq of topo.deploySquares(seat, role)) zone.add(sq);
  return zone;
}

/**
 * May the pieces on `a` and `b` trade squares (either may be empty, not both)? Returns
 * {ok: true} or {ok: false, key, args: {sq, role?, where?}}: the first piece that would stand
 * where its role may not start, or the square outside the seat's start squares.
 */
export function checkSwap(layout, seat, a, b) {
  if (a === b) return { ok: false, key: 'lsa.deploy.err.same', args: { sq: a } };
  const zone = deployZone(seat);
  const topo = lsaTopology();
  for (const sq of [a, b]) {
    if (zone.has(sq)) continue;
    // Camps start empty (§3); anything else outside the zone is the enemy's half or the sea.
    const camp = topo.get(sq)?.kind === 'camp' && topo.get(sq).seat === seat;
    return { ok: false, key: camp ? 'lsa.deploy.err.camp' : 'lsa.deploy.err.zone', args: { sq } };
  }
  const ra = layout.get(a);
  const rb = layout.get(b);
  if (!ra && !rb) return { ok: false, key: 'lsa.deploy.err.empty', args: { sq: a } };
  if (ra && !mayStart(seat, ra, b)) return { ok: false, key: 'lsa.deploy.refuse', args: { role: ra, sq: b, where: whereKey(ra) } };
  if (rb && !mayStart(seat, rb, a)) return { ok: false, key: 'lsa.deploy.refuse', args: { role: rb, sq: a, where: whereKey(rb) } };
  return { ok: true };
}

/** Swap (or move onto an empty square) when checkSwap allows it; returns checkSwap's answer. */
export function swapSquares(layout, seat, a, b) {
  const c = checkSwap(layout, seat, a, b);
  if (!c.ok) return c;
  const ra = layout.get(a);
  const rb = layout.get(b);
  layout.delete(a);
  layout.delete(b);
  if (ra) layout.set(b, ra);
  if (rb) layout.set(a, rb);
  return c;
}

/**
 * The problems of a whole layout for `seat` under piece set `set` (null when legal): pieces on
 * squares their role may not start on, then counts that differ from the set.
 */
export function validateLayout(layout, seat, set = 'seed') {
  const problems = [];
  const have = {};
  for (const [sq, role] of layout) {
    have[role] = (have[role] || 0) + 1;
    if (!mayStart(seat, role, sq)) problems.push({ key: 'lsa.deploy.refuse', args: { role, sq, where: whereKey(role) }, at: sq });
  }
  const want = lsaCounts(set);
  for (const role of LSA_ROLE_ORDER) {
    if ((have[role] || 0) !== (want[role] || 0)) {
      problems.push({ key: 'lsa.deploy.err.count', args: { role, want: want[role] || 0, have: have[role] || 0 } });
    }
  }
  return problems.length ? problems : null;
}

// The order random placement fills roles in: the fewest allowed squares first, as deploy.rs's
// generator does, so that every layout it makes is legal.
const PLACE_ORDER = (role) => {
  const w = whereKey(role);
  return ['flag', 'fort', 'sea', 'air', 'landmine', 'back'].indexOf(w) + 1 || 7;
};

/** A random legal layout of the same pieces as `layout` for `seat`; rng() in [0, 1). */
export function randomLayout(layout, seat, rng = Math.random) {
  const roles = [...layout.values()].sort((x, y) => PLACE_ORDER(x) - PLACE_ORDER(y));
  const topo = lsaTopology();
  const out = new Map();
  for (const role of roles) {
    const free = topo.deploySquares(seat, role).filter((sq) => !out.has(sq));
    out.set(free[Math.floor(rng() * free.length)], role);
  }
  return out;
}

/** A problem or refusal ({key, args} above) in words; i18n's t() names the role itself. */
export function problemText(p) {
  const args = { ...p.args };
  if (args.where) args.why = t(`lsa.where.${args.where}`);
  return t(p.key, args);
}
