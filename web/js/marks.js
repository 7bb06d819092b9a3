// 标记: a player's guesses at hidden enemy pieces (司令? 炸弹? …), kept for the game in
// localStorage under the table and seat. A mark follows its piece as the public events move it
// and is dropped when the piece leaves the board. Pure except for the storage, which is injected.

/** The guesses a mark may hold, in the menu's order (roles of roles.js). */
export const GUESSES = [
  'marshal', 'general', 'major_general', 'brigadier', 'colonel', 'major',
  'captain', 'lieutenant', 'engineer', 'bomb', 'landmine', 'flag',
];

/**
 * Marks after one event: `marks` is {square: role}; returns a new object. A moving piece takes
 * its mark along; a piece removed by an attack loses it (RULES §5: a surviving attacker takes the
 * defender's square, a surviving defender stays).
 */
export function followEvent(marks, ev) {
  const m = { ...marks };
  const moveMark = (from, to) => {
    const g = m[from];
    delete m[from];
    delete m[to];
    if (g) m[to] = g;
  };
  switch (ev.kind) {
    case 'move':
      moveMark(ev.from, ev.to);
      break;
    case 'attack':
      if (ev.result === 'attacker_wins' || ev.result === 'flag_captured') moveMark(ev.from, ev.to);
      else if (ev.result === 'defender_wins') delete m[ev.from];
      else if (ev.result === 'both_removed') { delete m[ev.from]; delete m[ev.to]; }
      break;
    case 'flip':
    case 'scouted':
      // The piece is known now: the guess has served.
      delete m[ev.at];
      break;
    default:
      break;
  }
  return m;
}

/** The storage key of a table's marks for a seat. */
export function marksKey(tableId, seat) {
  return `junqi.marks.${tableId}.${seat ?? 'watch'}`;
}

/**
 * A table's marks, kept with the event version they are up to date with (so that events replayed
 * after a reload are not applied twice).
 */
export class MarkStore {
  constructor(tableId, seat, storage = globalThis.localStorage) {
    this.key = marksKey(tableId, seat);
    this.seat = seat;
    this.storage = storage;
    this.v = 0;
    this.marks = {};
    try {
      const saved = JSON.parse(storage?.getItem(this.key) || 'null');
      if (saved && typeof saved === 'object' && saved.marks && typeof saved.marks === 'object') {
        this.marks = saved.marks;
        this.v = Number(saved.v) || 0;
      }
    } catch { /* a broken entry: start again */ }
  }

  save() {
    try { this.storage?.setItem(this.key, JSON.stringify({ v: this.v, marks: this.marks })); } catch { /* full or absent */ }
  }

  /** Set (or with null clear) the guess on a square. */
  set(square, role) {
    if (role) this.marks[square] = role;
    else delete this.marks[square];
    this.save();
  }

  get(square) {
    return this.marks[square] || null;
  }

  /** Follow the events of entry `v`; entries at or before the stored version are skipped. */
  follow(v, events) {
    if (typeof v !== 'number' || v <= this.v) return false;
    for (const ev of events || []) this.marks = followEvent(this.marks, ev);
    this.v = v;
    this.save();
    return true;
  }

  /** Keep only marks on squares where `hidden(square)` holds (a piece whose role is unknown). */
  prune(hidden) {
    let changed = false;
    for (const sq of Object.keys(this.marks)) {
      if (!hidden(sq)) { delete this.marks[sq]; changed = true; }
    }
    if (changed) this.save();
  }
}
