// Land-sea-air actions as the server lists them (LANDSEAAIR §10.1): `<from>-<to>` for every
// kind of move (a step, a slide, sailing, a landing, a flight, a missile's flight, a strike)
// and `scout <from> <at>` for a scout plane's look, which leaves the plane where it is. The
// table asks which squares a selected piece may go to or look at, and which action a click
// sends. Pure: tested in node.

/** One action text → {text, from, to} or {text, from, at, look: true}; null if unreadable. */
export function parseLsaAction(text) {
  const s = String(text).trim();
  const look = /^scout\s+([a-i]\d{1,2})\s+([a-i]\d{1,2})$/.exec(s);
  if (look) return { text: s, from: look[1], at: look[2], look: true };
  const move = /^([a-i]\d{1,2})-([a-i]\d{1,2})$/.exec(s);
  if (move) return { text: s, from: move[1], to: move[2] };
  return null;
}

/** The legal action texts of a view, parsed (unreadable ones dropped). */
export function parseLsaActions(texts) {
  return (texts || []).map(parseLsaAction).filter(Boolean);
}

/** Whether a piece on `sq` has any legal action (it can be selected). */
export function canAct(actions, sq) {
  return actions.some((a) => a.from === sq);
}

/** The targets of the piece on `from`: {moves: [square], looks: [square]}. */
export function targetsOf(actions, from) {
  const moves = [];
  const looks = [];
  for (const a of actions) {
    if (a.from !== from) continue;
    if (a.look) looks.push(a.at);
    else moves.push(a.to);
  }
  return { moves, looks };
}

/**
 * The action a click on `sq` sends while the piece on `from` is selected, or null.
 *
 * A move wins over a look at the same square. The rules core never gives one piece both
 * (movegen.rs: a scout plane's flights end on empty squares, its looks aim at enemy pieces), so
 * this only decides what a malformed list would do; a look is then still drawn, with its own
 * marker, but a click sends the move, which is the safe choice: a look would be a turn spent on
 * something the player did not see they were choosing.
 */
export function actionAt(actions, from, sq) {
  const mine = actions.filter((a) => a.from === from);
  return mine.find((a) => !a.look && a.to === sq) || mine.find((a) => a.look && a.at === sq) || null;
}
