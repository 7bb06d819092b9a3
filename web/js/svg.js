// SVG helpers shared by the board drawings (render.js, lsa-render.js).

const NS = 'http://www.w3.org/2000/svg';

/** An SVG element with these attributes (null and undefined left out), appended to `parent`. */
export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** A straight line of class `cls` in `parent` for each edge [a, b] (square names) of `edges`. */
export function edgeLines(g, parent, edges, cls) {
  for (const [a, b] of edges) {
    const [x1, y1] = g.pos(a);
    const [x2, y2] = g.pos(b);
    el('line', { x1, y1, x2, y2, class: cls }, parent);
  }
}
