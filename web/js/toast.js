// Passing messages (toasts): they float over the page instead of taking a place in it, so a stale
// error never pushes the content down, and they go away by themselves (or on a tap).
import { h } from './ui.js';

/** How long a toast stays, by kind (ms): errors stay longer, to be read. */
const DURATION = { error: 8000, ok: 5000, info: 5000 };

let current = null;

function region() {
  let r = document.getElementById('toasts');
  if (!r) {
    // role=status: screen readers announce the text without moving the focus.
    r = h('div', { id: 'toasts', class: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.append(r);
  }
  return r;
}

/** Remove the toast on show (if any). */
export function dismissToast() {
  if (!current) return;
  clearTimeout(current.timer);
  current.el.remove();
  current = null;
}

/**
 * Show `text` as a toast of `kind` ('error', 'ok' or 'info'), replacing the one on show. `id`
 * names the element (views keep their own ids, e.g. `lobby-message`, for tests and scripts).
 * Returns the element.
 */
export function toast(text, kind = 'info', { id, ms } = {}) {
  dismissToast();
  const el = h('div', { class: `toast notice ${kind}`, id, 'data-kind': kind, onclick: () => dismissToast() }, text);
  region().append(el);
  const me = { el, timer: setTimeout(() => { if (current === me) dismissToast(); }, ms ?? DURATION[kind] ?? 5000) };
  current = me;
  return el;
}
