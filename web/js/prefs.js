// The player's table preferences, remembered in localStorage: coordinates shown, sounds muted,
// the board's zoom. Reads never throw (private windows may refuse storage).

const KEYS = { coords: 'junqi.coords', mute: 'junqi.mute', zoom: 'junqi.zoom' };

/** A remembered boolean preference ('coords', 'mute'). */
export function getFlag(name, fallback = false, storage = globalThis.localStorage) {
  try {
    const v = storage?.getItem(KEYS[name]);
    return v === null || v === undefined ? fallback : v === '1';
  } catch {
    return fallback;
  }
}

export function setFlag(name, on, storage = globalThis.localStorage) {
  try { storage?.setItem(KEYS[name], on ? '1' : '0'); } catch { /* ignore */ }
}

/** The zoom remembered for a board, or null. */
export function getZoom(board, storage = globalThis.localStorage) {
  try {
    const z = Number(JSON.parse(storage?.getItem(KEYS.zoom) || '{}')[board]);
    return Number.isFinite(z) && z >= 1 ? z : null;
  } catch {
    return null;
  }
}

export function setZoom(board, z, storage = globalThis.localStorage) {
  try {
    const all = JSON.parse(storage?.getItem(KEYS.zoom) || '{}');
    all[board] = z;
    storage?.setItem(KEYS.zoom, JSON.stringify(all));
  } catch { /* ignore */ }
}
