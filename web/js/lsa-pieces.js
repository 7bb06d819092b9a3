// The piece sets of 陆海空三军棋 (LANDSEAAIR §1, option `piece_set`): how many pieces of each
// role a seat has, mirroring SEED_COUNTS and TAIWAN_COUNTS of crates/junqi-core/src/lsa/pieces.rs,
// and the fallen pieces of each seat as the dead panel shows them. Pure: tested in node.
import { lsaArm } from './lsa-board.js';

/** Every role in the order of pieces.rs (officers, weapons, specials, ships, planes). */
export const LSA_ROLE_ORDER = [
  'marshal', 'army_group_commander', 'general', 'major_general', 'brigadier', 'colonel', 'major',
  'captain', 'lieutenant', 'cavalry', 'infantry', 'engineer',
  'atomic_cannon', 'tank', 'artillery', 'anti_aircraft_gun', 'fort', 'machine_gun',
  'poison_gas', 'missile', 'bomb', 'landmine', 'trap', 'flag',
  'battleship', 'cruiser', 'gunboat', 'destroyer', 'submarine', 'fighter', 'scout_plane',
];

const SEED = [1, 1, 1, 2, 2, 2, 2, 3, 3, 0, 0, 3, 0, 1, 1, 1, 1, 1, 1, 1, 2, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1];
const TAIWAN = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];

/** The set a table plays: `taiwan`, else the standard set (`seed`, the option's default). */
export function pieceSetOf(options) {
  return options?.piece_set === 'taiwan' ? 'taiwan' : 'seed';
}

/** role → pieces per seat under a set (roles the set lacks are left out). */
export function lsaCounts(set = 'seed') {
  const n = set === 'taiwan' ? TAIWAN : SEED;
  const out = {};
  LSA_ROLE_ORDER.forEach((r, i) => { if (n[i]) out[r] = n[i]; });
  return out;
}

/** Pieces per seat: 41 in the standard set, 30 in the Taiwanese one. */
export function lsaTotal(set = 'seed') {
  return Object.values(lsaCounts(set)).reduce((a, b) => a + b, 0);
}

/**
 * Fallen pieces per seat of a land-sea-air view, as events.js's fallen() gives them for 军棋:
 * [{seat, known: [role…], unknown: n, eliminated}]. A seat whose pieces on the board are all
 * known (one's own, open play, the referee's view at the end) has its dead named; for a hidden
 * seat only the count is known, by arm (the arm is public), e.g. `{land: 3, sea: 1}`.
 */
export function lsaFallen(view) {
  const set = pieceSetOf(view.options);
  const counts = lsaCounts(set);
  const eliminated = new Set(view.eliminated || []);
  const out = [];
  for (const seat of [0, 1]) {
    const mine = (view.pieces || []).filter((p) => p.seat === seat);
    const allKnown = mine.every((p) => p.role);
    const entry = { seat, known: [], unknown: 0, byArm: {}, eliminated: eliminated.has(seat) };
    if (allKnown) {
      const left = { ...counts };
      // A landed ship keeps its role (LANDSEAAIR §4.6): it is counted as the ship it is.
      for (const p of mine) left[p.role] -= 1;
      for (const r of LSA_ROLE_ORDER) for (let i = 0; i < (left[r] || 0); i++) entry.known.push(r);
    } else {
      const armsLeft = { land: 0, sea: 0, air: 0 };
      for (const [r, n] of Object.entries(counts)) armsLeft[lsaArm(r)] += n;
      for (const p of mine) armsLeft[p.arm || lsaArm(p.role)] -= 1;
      for (const [arm, n] of Object.entries(armsLeft)) if (n > 0) entry.byArm[arm] = n;
      entry.unknown = lsaTotal(set) - mine.length;
    }
    out.push(entry);
  }
  return out;
}
