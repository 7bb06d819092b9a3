// 敌情: the enemy pieces not yet accounted for, by role, from what the viewer may know. Starting
// from each seat's 25 pieces (RULES §1) it follows the public events (RULES §6, §11.2) over the
// start position and subtracts what they allow to be told: pieces seen on the board (open play,
// flips, a flag revealed by its marshal's loss, a scout's report), pieces whose death names them
// (the marshal whose loss reveals the flag, a captured flag) and pieces whose role an attack's
// result tells once the other side of the attack is known (RULES §5: an engineer that takes a
// square held a landmine, a piece that takes a landmine is an engineer, …). Pure: tested in node.
import { ROLES, COUNTS } from './roles.js';
import { combat } from './combat.js';

export { combat };
import { topology, isLocalCamp } from './board.js';

/**
 * The roles the unknown side of an attack may have had: `known` is the other side's role,
 * `unknownIs` 'attacker' or 'defender', `candidates` the roles still possible for that piece.
 */
export function possibleRoles(known, unknownIs, result, options = {}, candidates = ROLES) {
  return candidates.filter((r) => (unknownIs === 'attacker' ? combat(r, known, options) : combat(known, r, options)) === result);
}

const IMMOBILE = new Set(['landmine', 'flag']);

/** The start position's occupancy: square → piece {seat, role, moved}. */
function startPieces(board, mode, viewer, own) {
  const t = topology(board);
  const occ = new Map();
  if (mode === 'flip') {
    for (let seat = 0; seat < t.seats; seat++) {
      for (let r = 0; r < 6; r++) for (let c = 0; c < 5; c++) {
        if (!isLocalCamp(r, c)) occ.set(t.localSquare(seat, r, c), { seat: null, role: null, moved: false });
      }
    }
    return occ;
  }
  for (let seat = 0; seat < t.seats; seat++) {
    for (let r = 0; r < 6; r++) for (let c = 0; c < 5; c++) {
      if (isLocalCamp(r, c)) continue;
      const role = seat === viewer && own ? own[r][c] : null;
      occ.set(t.localSquare(seat, r, c), { seat, role: role || null, moved: false });
    }
  }
  return occ;
}

/**
 * The tally.
 * @param {object} p
 * @param {string} p.board a board of board.js BOARDS (its seat count comes from the topology)
 * @param {string} [p.mode] 'dark' | 'open' | 'half_open' | 'flip'
 * @param {object} [p.options] rule options (landmine, engineer_scout)
 * @param {number|null} p.viewer the viewer's seat (null: a spectator)
 * @param {string[][]|null} [p.own] the viewer's deployment cells (local rows), when known
 * @param {{events: object[]}[]} p.history the `events` frames so far, in order; an event may
 *   carry `roles: {from, to}` (the viewer's knowledge of the two pieces when it happened)
 * @param {object|null} [p.observation] the current observation (the truth of the board now)
 * @returns {{seat: number, eliminated: boolean, left: Object<string, number>, dead: Object<string, number>,
 *   shown: Object<string, number>, deadUnknown: number, hidden: number}[]} one entry per seat
 *   (per colour in flip play); `left[role]` is how many pieces of that role are not accounted for
 */
export function tally(p) {
  return analyse(p).seats;
}

/**
 * The tally (`seats`, as tally() gives it) and `deduced`: {square: role} for the pieces on the
 * board whose role the viewer's observation does not show but the events tell (the piece that
 * took your 军长 is the 司令).
 */
export function analyse({ board, mode = 'dark', options = {}, viewer = null, own = null, history = [], observation = null }) {
  const seats = topology(board).seats;
  const occ = startPieces(board, mode, viewer, own);
  const zero = () => Object.fromEntries(ROLES.map((r) => [r, 0]));
  const dead = Array.from({ length: seats }, () => []); // {role|null}
  const eliminated = new Set();
  let colours = null; // flip: colours[player] = colour (= piece seat)
  const deadKnown = (seat) => {
    const n = zero();
    for (const d of dead[seat]) if (d.role) n[d.role] += 1;
    return n;
  };
  // The roles a piece of `seat` may still be: one not yet used up by what is known of the seat.
  const candidates = (seat, piece) => {
    if (seat === null || seat === undefined) return ROLES.filter((r) => !(piece.moved && IMMOBILE.has(r)));
    const used = deadKnown(seat);
    for (const p of occ.values()) if (p !== piece && p.seat === seat && p.role) used[p.role] += 1;
    return ROLES.filter((r) => used[r] < COUNTS[r] && !(piece.moved && IMMOBILE.has(r)));
  };
  for (const frame of history) {
    const diedNow = [];
    for (const ev of frame.events || []) {
      switch (ev.kind) {
        case 'move': {
          const p = occ.get(ev.from);
          if (!p) break;
          occ.delete(ev.from);
          p.moved = true;
          if (mode === 'flip' && colours && p.seat === null) p.seat = colours[ev.seat];
          occ.set(ev.to, p);
          break;
        }
        case 'attack': {
          const a = occ.get(ev.from);
          const d = occ.get(ev.to);
          if (!a || !d) break;
          a.moved = true;
          if (ev.roles?.from && !a.role) a.role = ev.roles.from;
          if (ev.roles?.to && !d.role) d.role = ev.roles.to;
          if (mode === 'flip' && colours) {
            if (a.seat === null) a.seat = colours[ev.seat];
            if (d.seat === null) d.seat = 1 - a.seat;
          }
          if (a.role && !d.role) {
            const c = possibleRoles(a.role, 'defender', ev.result, options, candidates(d.seat, d));
            if (c.length === 1) d.role = c[0];
          } else if (d.role && !a.role) {
            const c = possibleRoles(d.role, 'attacker', ev.result, options, candidates(a.seat, a));
            if (c.length === 1) a.role = c[0];
          }
          if (ev.result === 'flag_captured') d.role = 'flag';
          const kill = (p) => {
            if (p.seat !== null && p.seat !== undefined) {
              const rec = { role: p.role };
              dead[p.seat].push(rec);
              diedNow.push({ seat: p.seat, rec });
            }
          };
          if (ev.result === 'attacker_wins' || ev.result === 'flag_captured') {
            kill(d);
            occ.delete(ev.from);
            // A bomb that takes a flag is removed with it (RULES §5).
            if (a.role === 'bomb') kill(a);
            else occ.set(ev.to, a);
          } else if (ev.result === 'defender_wins') {
            kill(a);
            occ.delete(ev.from);
          } else if (ev.result === 'both_removed') {
            kill(a);
            kill(d);
            occ.delete(ev.from);
            occ.delete(ev.to);
          }
          break;
        }
        case 'flag_revealed': {
          // The seat's marshal has just left the board: name it among this entry's dead.
          const rec = diedNow.find((x) => x.seat === ev.seat && !x.rec.role);
          if (rec) rec.rec.role = 'marshal';
          else if (!dead[ev.seat]?.some((x) => x.role === 'marshal')) {
            const unknown = dead[ev.seat]?.find((x) => !x.role);
            if (unknown) unknown.role = 'marshal';
          }
          const f = occ.get(ev.at);
          if (f && !f.role) f.role = 'flag';
          break;
        }
        case 'scouted': {
          const p = occ.get(ev.at);
          if (p) p.role = ev.role;
          break;
        }
        case 'flip': {
          const p = occ.get(ev.at);
          if (p) p.role = ev.role;
          break;
        }
        case 'colours':
          colours = ev.colours;
          break;
        case 'eliminated':
          eliminated.add(ev.seat);
          break;
        default:
          break;
      }
    }
  }
  // The observation is the truth of the board now: what it shows replaces what was followed.
  const onBoard = new Map();
  const deduced = {};
  if (observation?.pieces) {
    for (const p of observation.pieces) {
      const mine = occ.get(p.at);
      const known = p.role && !p.face_down ? p.role : null;
      const role = known || (p.face_down ? null : mine?.role) || null;
      if (!known && role && p.seat !== viewer) deduced[p.at] = role;
      onBoard.set(p.at, { seat: p.seat ?? mine?.seat ?? null, role });
    }
  } else {
    for (const [sq, p] of occ) onBoard.set(sq, { seat: p.seat, role: p.role });
  }
  const out = [];
  for (let seat = 0; seat < seats; seat++) {
    const shown = zero();
    let hidden = 0;
    for (const p of onBoard.values()) {
      if (p.seat !== seat) continue;
      if (p.role) shown[p.role] += 1;
      else hidden += 1;
    }
    const d = deadKnown(seat);
    const deadUnknown = dead[seat].filter((x) => !x.role).length;
    const left = zero();
    for (const r of ROLES) left[r] = Math.max(0, COUNTS[r] - d[r] - shown[r]);
    out.push({ seat, eliminated: eliminated.has(seat), left, dead: d, shown, deadUnknown, hidden });
  }
  return { seats: out, deduced };
}
