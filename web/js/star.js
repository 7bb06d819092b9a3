// The six-player board's drawing coordinates, exactly as RULES §2.5 "Drawing" gives them: the
// centre at the origin, y up, one unit = one step inside an arm; arm k's axis points at
// θk = −90° + 60°·k (arm 0 at the bottom, the arms going round counter-clockwise). With these
// numbers `ke6`, `tk` and `(k+1)a6` form a triangle of side 1, every long line is geometrically
// straight and the centre is a regular hexagram (the unit tests check all three). render.js
// scales, rotates (the viewer's arm at the bottom) and flips y for the screen. Pure: no DOM.

const R3 = Math.sqrt(3);
/** Distance from the centre to an arm's front row (local row 0). */
export const FRONT = 2 * R3 + 1;

const rad = (deg) => (deg * Math.PI) / 180;
const dir = (deg) => [Math.cos(rad(deg)), Math.sin(rad(deg))];

/** Arm k's axis angle in degrees: the direction from the centre out along the arm. */
export function axisAngle(k) {
  return -90 + 60 * k;
}

/**
 * Local (r, c) of arm k as a point; fractional r and c give points between squares (labels).
 * r grows away from the centre, c from the arm's own left (as its seat sees it).
 */
export function armPoint(k, r, c) {
  const th = axisAngle(k);
  const [ux, uy] = dir(th);
  const [vx, vy] = dir(th + 90);
  const a = FRONT + r;
  const b = c - 2;
  return [a * ux + b * vx, a * uy + b * vy];
}

/** The parts of a six-player square name: {arm, r, c} for `kXn`, {centre: 'x'|'n'|'t', k}. */
export function parseStarSquare(name) {
  let m = /^([0-5])([a-e])([1-6])$/.exec(name);
  if (m) return { arm: Number(m[1]), r: 6 - Number(m[3]), c: 'abcde'.indexOf(m[2]) };
  if (name === 'x') return { centre: 'x', k: 0 };
  m = /^([nt])([0-5])$/.exec(name);
  if (m) return { centre: m[1], k: Number(m[2]) };
  return null;
}

/** A square's point (y up), or null for a name the board does not have. */
export function starPoint(name) {
  const p = parseStarSquare(name);
  if (!p) return null;
  if (p.arm !== undefined) return armPoint(p.arm, p.r, p.c);
  if (p.centre === 'x') return [0, 0];
  const th = axisAngle(p.k);
  if (p.centre === 'n') return dir(th).map((v) => (v * 4) / R3);
  return dir(th + 30).map((v) => v * 4);
}

/**
 * The angle (degrees, counter-clockwise) a square's tile is turned from arm 0's: arm k's squares
 * and its inner corner nk lie along arm k (60°·k), a star point tk between arms k and k+1
 * (60°·k + 30°), the middle square upright. Pieces' labels stay upright whatever the turn.
 */
export function starTurn(name) {
  const p = parseStarSquare(name);
  if (!p) return 0;
  if (p.arm !== undefined) return 60 * p.arm;
  if (p.centre === 'x') return 0;
  return 60 * p.k + (p.centre === 't' ? 30 : 0);
}

/** Rotate point `p` by `deg` degrees counter-clockwise about the origin. */
export function rotatePoint([x, y], deg) {
  const c = Math.cos(rad(deg));
  const s = Math.sin(rad(deg));
  return [x * c - y * s, x * s + y * c];
}
