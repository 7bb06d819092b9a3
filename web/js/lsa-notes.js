// 侦察记录: what a land-sea-air player's scout looks have seen (LANDSEAAIR §4.8). The server
// sends a seated player's notes with its views (`notes: [{at, role}]`, at the square where the
// seen piece stands now); they are that player's only, so the board draws them for that player
// and nobody else, on enemy pieces that are still hidden to the view (the arm glyph stays, the
// seen role is a tag, never the tile's own label). Pure: tested in node.

/**
 * The notes to draw: {square: role} for each note on an enemy piece the view shows hidden.
 * `viewer` is the seat the notes belong to (null for a spectator: nothing). A note on a square
 * without such a piece (a stale note between an event and its view) is left out.
 */
export function noteMarks(notes, pieces, viewer) {
  if (viewer === null || viewer === undefined || !Array.isArray(notes)) return {};
  const hidden = new Map((pieces || []).filter((p) => p.seat !== viewer && !p.role).map((p) => [p.at, p]));
  const out = {};
  for (const n of notes) {
    if (n && typeof n.at === 'string' && typeof n.role === 'string' && hidden.has(n.at)) out[n.at] = n.role;
  }
  return out;
}

/** The notes as panel rows [{at, role}], in board order (rank, then file). */
export function noteRows(marks) {
  const key = (sq) => Number(sq.slice(1)) * 16 + sq.charCodeAt(0);
  return Object.keys(marks).sort((a, b) => key(a) - key(b)).map((at) => ({ at, role: marks[at] }));
}
