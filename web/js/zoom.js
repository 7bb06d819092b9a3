// Zoom and pan of the board on small screens. The board's wrapper becomes a scrolling window
// onto a larger board (pan by scrolling or by dragging an empty part of the board, zoom with the
// buttons, a pinch or ctrl + wheel). A multi-seat board (three, four or six seats) on a phone opens
// zoomed so that its pieces are at least 32 px, centred on the player's own arm (render.js marks
// where it is on the svg). Pure sizing rules are exported for the unit tests.

/** Board units per piece tile height, per board (render.js LAYOUT tileH). */
const TILE_H = { two_player: 36, three_player: 34, four_player: 34, six_player: 38 };
/**
 * Board width in units (render.js Geometry), when the caller does not say: the three-player
 * board's width depends on the viewer (it is cut to its three arms), the six-player star's is
 * that of a 193-square star of 48-unit steps.
 */
const WIDTH = { two_player: 2 * 26 + 5 * 98, three_player: 2 * 16 + 18 * 48, four_player: 2 * 16 + 18 * 48, six_player: 995 };
/** Pieces must be at least this tall on screen (px) for labels to be read and taps to hit. */
export const MIN_PIECE_PX = 32;
export const MAX_ZOOM = 4;

/**
 * The zoom (1 = the board as wide as its window) at which a board shown `widthPx` wide has
 * pieces of at least MIN_PIECE_PX, a little above it; 1 when the board already has them.
 * `units` is the board's width in board units (the svg's viewBox), when known.
 */
export function readableZoom(board, widthPx, units = WIDTH[board]) {
  if (!widthPx || !WIDTH[board]) return 1;
  // The two-player board keeps its overview (its pieces are wide enough to tap and read); the
  // zoom buttons enlarge it on demand.
  if (board === 'two_player') return 1;
  // Wide screens show the whole board (it fits the window's height there; a mouse hits its
  // cells); the zoom is for phones and narrow windows.
  if (widthPx >= 600) return 1;
  const pxPerUnit = widthPx / (units || WIDTH[board]);
  const need = (MIN_PIECE_PX + 2) / (TILE_H[board] * pxPerUnit);
  return need <= 1 ? 1 : Math.min(MAX_ZOOM, Math.round(need * 100) / 100);
}

/** The next zoom step up or down (dir +1 / -1), between 1 and MAX_ZOOM. */
export function stepZoom(z, dir) {
  const next = dir > 0 ? z * 1.25 : z / 1.25;
  return Math.max(1, Math.min(MAX_ZOOM, Math.round(next * 100) / 100));
}

/**
 * Zoom control of a board wrapper (`wrap` holds one svg.board).
 * onChange(z) is told every new zoom (to remember it).
 */
export class Zoom {
  constructor(wrap, { onChange } = {}) {
    this.wrap = wrap;
    this.z = 1;
    this.onChange = onChange || (() => {});
    this.pointers = new Map();
    wrap.addEventListener('wheel', (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      this.set(stepZoom(this.z, e.deltaY < 0 ? 1 : -1), { x: e.clientX, y: e.clientY });
    }, { passive: false });
    // Two fingers: pinch. Tracked on the wrapper in the capture phase, so that the board's own
    // handlers still see single taps and drags.
    wrap.addEventListener('pointerdown', (e) => {
      if (e.pointerType !== 'touch') return;
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.pointers.size === 2) this.pinch = { d: this.spread(), z: this.z };
    }, true);
    wrap.addEventListener('pointermove', (e) => {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.pinch && this.pointers.size === 2) {
        const d = this.spread();
        if (this.pinch.d > 0) this.set(Math.max(1, Math.min(MAX_ZOOM, this.pinch.z * d / this.pinch.d)), this.centre());
      }
    }, true);
    const up = (e) => {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size < 2) this.pinch = null;
    };
    wrap.addEventListener('pointerup', up, true);
    wrap.addEventListener('pointercancel', up, true);
  }

  spread() {
    const [a, b] = [...this.pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  }

  centre() {
    const [a, b] = [...this.pointers.values()];
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }

  get svg() {
    return this.wrap.querySelector('svg.board');
  }

  /**
   * Set the zoom. `at` (client point) stays where it is on screen; without it the view is
   * centred on the player's own side (the bottom centre of the board).
   */
  set(z, at = null) {
    const w = this.wrap;
    const svg = this.svg;
    if (!svg) return;
    const old = this.z;
    this.z = Math.max(1, Math.min(MAX_ZOOM, z));
    const r = w.getBoundingClientRect();
    const fx = at ? (at.x - r.left + w.scrollLeft) / (w.scrollWidth || 1) : 0.5;
    const fy = at ? (at.y - r.top + w.scrollTop) / (w.scrollHeight || 1) : 1;
    w.classList.toggle('zoomed', this.z > 1);
    svg.style.width = this.z > 1 ? `${this.z * 100}%` : '';
    w.dataset.zoom = String(this.z);
    if (this.z > 1) {
      const vx = at ? at.x - r.left : w.clientWidth / 2;
      const vy = at ? at.y - r.top : w.clientHeight;
      // Own arm: where the board says it is (a multi-seat board marks the middle of the
      // viewer's arm), else the bottom centre.
      const home = svg.dataset.homeY !== undefined;
      const tx = at || !home ? fx : Number(svg.dataset.homeX);
      const ty = at ? fy : home ? Number(svg.dataset.homeY) : fy;
      w.scrollLeft = tx * w.scrollWidth - vx;
      w.scrollTop = ty * w.scrollHeight - (at ? vy : w.clientHeight / 2);
    }
    if (old !== this.z) this.onChange(this.z);
  }

  /** Re-apply the zoom to a new svg (the board was redrawn). */
  reapply() {
    const svg = this.svg;
    if (svg) svg.style.width = this.z > 1 ? `${this.z * 100}%` : '';
  }
}
