// Announcements in words and the fallen-piece (阵亡) tracker. Pure: tested in node.
import { t, seatName } from './i18n.js';
import { ROLES, COUNTS } from './roles.js';
import { saysLsaEvent, describeLsaEvent, lsaEventClass } from './lsa-events.js';

/** One event (RULES §11.2) as a sentence. `board` names seats. */
export function describeEvent(ev, board) {
  // Land-sea-air's own kinds (a landing, strikes, looks): lsa-events.js.
  if (saysLsaEvent(ev)) return describeLsaEvent(ev, board);
  const seat = (s) => seatName(board, s);
  switch (ev.kind) {
    case 'move':
      return t('ev.move', { seat: seat(ev.seat), from: ev.from, to: ev.to });
    case 'attack':
      return t('ev.attack', { seat: seat(ev.seat), from: ev.from, to: ev.to, result: t(`res.${ev.result}`) });
    case 'flip':
      return t('ev.flip', { seat: seat(ev.seat), at: ev.at, role: ev.role });
    case 'colours':
      return t('ev.colours', { c0: t(`colour.${ev.colours[0]}`), c1: t(`colour.${ev.colours[1]}`) });
    case 'flag_revealed':
      return t('ev.flag_revealed', { seat: seat(ev.seat), at: ev.at });
    case 'scouted':
      return t('ev.scouted', { at: ev.at, role: ev.role });
    case 'skipped':
      return t(`ev.skipped.${ev.reason === 'timeout' ? 'timeout' : 'blocked'}`, { seat: seat(ev.seat) });
    case 'eliminated':
      return t('ev.eliminated', { seat: seat(ev.seat), reason: t(`reason.${ev.reason}`) });
    default:
      return JSON.stringify(ev);
  }
}

/** An `events` frame (entry text + events) as log lines [{text, cls}]. */
export function describeEntry(entry, events, board) {
  const out = [];
  for (const ev of events || []) {
    const cls = saysLsaEvent(ev) ? lsaEventClass(ev)
      : ev.kind === 'attack' ? 'attack' : ['eliminated', 'flag_revealed', 'scouted'].includes(ev.kind) ? 'major' : '';
    out.push({ text: describeEvent(ev, board), cls, ev });
  }
  if (entry === 'draw') out.push({ text: t('ev.draw'), cls: 'major' });
  if (entry === 'abort') out.push({ text: t('ev.abort'), cls: 'major' });
  return out;
}

/** The outcome in words, from `viewerSeat`'s side if it played (null for spectators). */
export function describeOutcome(outcome, board, viewerSeat = null) {
  if (!outcome) return '';
  if (outcome.result === 'draw') return t('over.draw', { reason: t(`reason.${outcome.reason}`) });
  if (outcome.result === 'aborted') return t('over.aborted');
  const reason = t(`reason.${outcome.reason}`);
  if (viewerSeat !== null && viewerSeat !== undefined) {
    return outcome.winners.includes(viewerSeat) ? t('over.youWin', { reason }) : t('over.youLose', { reason });
  }
  const seats = outcome.winners.map((s) => seatName(board, s)).join(' + ');
  return t('over.win', { seats, reason });
}

/**
 * The last move on the board from a list of events: {from, to, result}. A land-sea-air look is
 * one too (`look: true`: the plane stays on `from`, nothing glides), its result `shot_down`
 * when the plane fell; a landing is a move.
 */
export function lastMoveOf(events) {
  let last = null;
  for (const ev of events || []) {
    if (ev.kind === 'move' || ev.kind === 'landed') last = { from: ev.from, to: ev.to, result: null };
    else if (ev.kind === 'scout') last = { from: ev.from, to: ev.at, result: ev.result === 'shot_down' ? 'shot_down' : null, look: true };
    else if (ev.kind === 'attack') last = { from: ev.from, to: ev.to, result: ev.result };
    else if (ev.kind === 'flip') last = { from: null, to: ev.at, result: null };
  }
  return last;
}

/**
 * Fallen pieces per seat from an observation: for a seat whose every piece on the board is known
 * (own seat, open play, the referee's view) the exact roles; otherwise the known-fallen roles
 * cannot be told, only how many are gone.
 * Returns [{seat, known: [role...], unknown: n, eliminated}]; in flip play, where face-down
 * pieces show no colour, one entry with seat null and the total count.
 */
export function fallen(observation, seats) {
  const out = [];
  const eliminated = new Set(observation.eliminated || []);
  const flip = observation.mode === 'flip';
  const pieces = observation.pieces || [];
  if (flip && pieces.some((p) => p.seat === null || p.seat === undefined)) {
    // Face-down pieces show no colour (RULES §6): only the total off the board is known.
    return [{ seat: null, known: [], unknown: 25 * seats - pieces.length, eliminated: false }];
  }
  for (let seat = 0; seat < seats; seat++) {
    const mine = (observation.pieces || []).filter((p) => p.seat === seat);
    const onBoard = mine.length;
    const allKnown = mine.every((p) => p.role && !p.face_down);
    const gone = 25 - onBoard;
    if (flip) {
      // Face-down pieces may be any role: count what is off the board only.
      const known = [];
      out.push({ seat, known, unknown: gone, eliminated: eliminated.has(seat) });
      continue;
    }
    if (allKnown) {
      const left = Object.fromEntries(ROLES.map((r) => [r, COUNTS[r]]));
      for (const p of mine) left[p.role] -= 1;
      const known = [];
      for (const r of ROLES) for (let i = 0; i < left[r]; i++) known.push(r);
      out.push({ seat, known, unknown: 0, eliminated: eliminated.has(seat) });
    } else {
      out.push({ seat, known: [], unknown: gone, eliminated: eliminated.has(seat) });
    }
  }
  return out;
}

/** The squares an event names (from, to, at), to highlight on the board. */
export function eventSquares(ev) {
  if (!ev) return [];
  return [ev.from, ev.to, ev.at].filter((s) => typeof s === 'string' && s);
}

/**
 * A seat's skipped turns told apart: {timeout, blocked} from the `skipped` events of the
 * history ([{events}]): a timeout (贻误战机) or a turn without a legal action (无棋可走).
 */
export function skipCounts(history, seat) {
  const out = { timeout: 0, blocked: 0 };
  for (const frame of history || []) {
    for (const ev of frame.events || []) {
      if (ev.kind === 'skipped' && ev.seat === seat) out[ev.reason === 'timeout' ? 'timeout' : 'blocked'] += 1;
    }
  }
  return out;
}

/** The log lines of an entry as one line, joined with the language's own punctuation (；). */
export function entryText(entry, events, board) {
  return describeEntry(entry, events, board).map((l) => l.text).join(t('log.sep'));
}
