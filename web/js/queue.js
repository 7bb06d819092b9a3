// The table's frame queue: frames from the server are applied one at a time, each one holding the
// queue for as long as its animation needs (a piece gliding, an attack's result badge), so that
// two plies never jump onto the board at once however fast the server answers. Pure: no DOM,
// timers injected, tested in node (web/tests/unit/queue.test.mjs).

/**
 * A queue of frames applied in order by `apply(frame)`, which returns how long (ms) the next
 * frame must wait (0 or nothing: no wait). While a frame holds the queue, later frames wait.
 * `fastForward()` ends the current hold and applies everything queued without waiting (used
 * when the page was hidden, or when too much is queued: catching up is better than a slow film).
 */
export class FrameQueue {
  /**
   * @param {(frame: object, ctx: {backlog: number}) => number|void} apply
   * @param {{setTimeout?: Function, clearTimeout?: Function, maxBacklog?: number}} [opts]
   */
  constructor(apply, opts = {}) {
    this.apply = apply;
    this.setTimer = opts.setTimeout || ((f, ms) => setTimeout(f, ms));
    this.clearTimer = opts.clearTimeout || ((id) => clearTimeout(id));
    this.maxBacklog = opts.maxBacklog ?? 8;
    this.frames = [];
    this.timer = null;
    this.holding = false;
  }

  /** Add a frame; it is applied now if nothing holds the queue. */
  push(frame) {
    this.frames.push(frame);
    if (!this.holding) this.drain();
  }

  /** Frames waiting. */
  get length() {
    return this.frames.length;
  }

  /** True while a frame's animation holds the queue. */
  get busy() {
    return this.holding;
  }

  drain() {
    while (this.frames.length) {
      const frame = this.frames.shift();
      const backlog = this.frames.length;
      const hold = Number(this.apply(frame, { backlog, fast: backlog >= this.maxBacklog })) || 0;
      if (hold > 0 && backlog < this.maxBacklog) {
        this.holding = true;
        this.timer = this.setTimer(() => {
          this.timer = null;
          this.holding = false;
          this.drain();
        }, hold);
        return;
      }
    }
  }

  /** Stop holding and apply every waiting frame at once. */
  fastForward() {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.holding = false;
    const max = this.maxBacklog;
    this.maxBacklog = 0; // every hold is skipped while draining
    try { this.drain(); } finally { this.maxBacklog = max; }
  }

  /** Drop everything (the view is closing). */
  clear() {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.holding = false;
    this.frames = [];
  }
}

/** Timings of the table's animations, in ms. */
export const TIMING = {
  /** Per square a gliding piece passes. */
  step: 110,
  /** A glide never takes longer than this, however long the rail run. */
  glideMax: 650,
  /** How long an attack's result badge stays before the next ply is drawn. */
  badge: 1000,
};

/** Glide duration for a path of `steps` squares (0 under reduced motion). */
export function glideMs(steps, reducedMotion = false) {
  if (reducedMotion || steps <= 0) return 0;
  return Math.min(TIMING.glideMax, 160 + TIMING.step * steps);
}
