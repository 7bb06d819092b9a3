// Land-sea-air announcements in words (LANDSEAAIR §10.3): a landing, the kinds of attack (a
// strike, an attack from a landing, a missile's flight), a scout plane's look and its fate, and
// the look's result, which only the looking player's frames carry (`scouted_private`). The
// kinds both games share (move, a plain attack, flag_revealed, skipped, eliminated) are said by
// events.js. Pure: tested in node.
import { t, seatName, getLang } from './i18n.js';
import { roleName } from './roles.js';

const KINDS = ['landed', 'attack', 'scout', 'scouted_private'];

/** Whether this module says the event (else events.js's common words do). */
export function saysLsaEvent(ev) {
  if (!KINDS.includes(ev?.kind)) return false;
  return ev.kind !== 'attack' || !!(ev.strike || ev.landing || ev.flight);
}

/** One land-sea-air event as a sentence (see saysLsaEvent for which). */
export function describeLsaEvent(ev, board = 'land_sea_air') {
  const seat = seatName(board, ev.seat);
  switch (ev.kind) {
    case 'landed':
      return t('lsa.ev.landed', { seat, from: ev.from, to: ev.to });
    case 'attack': {
      const how = ev.strike ? 'strike' : ev.landing ? 'landing' : 'flight';
      return t(`lsa.ev.attack.${how}`, { seat, from: ev.from, to: ev.to, result: t(`res.${ev.result}`) });
    }
    case 'scout':
      return t(ev.result === 'shot_down' ? 'lsa.ev.shotDown' : 'lsa.ev.scout', { seat, from: ev.from, at: ev.at });
    case 'scouted_private': {
      const role = roleName(ev.role, getLang());
      return t(ev.landed ? 'lsa.ev.seenLanded' : 'lsa.ev.seen', { at: ev.at, role });
    }
    default:
      return '';
  }
}

/** The log line's class: attacks as attacks, a look and a plane shot down stand out. */
export function lsaEventClass(ev) {
  if (ev.kind === 'attack') return 'attack';
  if (ev.kind === 'scout') return ev.result === 'shot_down' ? 'attack scout' : 'scout';
  if (ev.kind === 'scouted_private') return 'major scout';
  return '';
}
