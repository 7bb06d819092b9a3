// Table sounds, synthesised with the Web Audio API (no sound files): a move, an attack, a win, a
// loss, your turn, and the clock's last ten seconds. A mute switch is remembered (prefs.js).
// Every sound is announced, muted or not, as a `junqi:sound` window event and in the
// `data-last-sound` attribute of <html>, so that tests and scripts can follow them.
import { getFlag, setFlag } from './prefs.js';

/** The notes of each sound: [frequency Hz, start s, length s, wave, gain]. */
const NOTES = {
  move: [[520, 0, 0.07, 'triangle', 0.25]],
  attack: [[180, 0, 0.12, 'square', 0.18], [120, 0.06, 0.22, 'sawtooth', 0.16]],
  win: [[523, 0, 0.14, 'triangle', 0.3], [659, 0.14, 0.14, 'triangle', 0.3], [784, 0.28, 0.3, 'triangle', 0.3]],
  lose: [[392, 0, 0.2, 'sine', 0.3], [311, 0.2, 0.2, 'sine', 0.3], [262, 0.4, 0.4, 'sine', 0.3]],
  turn: [[880, 0, 0.09, 'sine', 0.22], [1175, 0.1, 0.12, 'sine', 0.2]],
  clock: [[1000, 0, 0.05, 'square', 0.12]],
};

export const SOUNDS = Object.keys(NOTES);

let ctx = null;
function audio() {
  if (ctx) return ctx;
  const AC = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!AC) return null;
  try { ctx = new AC(); } catch { ctx = null; }
  return ctx;
}

/** Whether sounds are muted (remembered). */
export function isMuted() {
  return getFlag('mute', false);
}

export function setMuted(on) {
  setFlag('mute', on);
  if (globalThis.document) document.documentElement.dataset.mute = on ? '1' : '0';
}

/** Play a sound by name (see SOUNDS); announced even when muted. */
export function play(name) {
  const muted = isMuted();
  if (globalThis.document) {
    document.documentElement.dataset.lastSound = name;
    globalThis.dispatchEvent?.(new CustomEvent('junqi:sound', { detail: { name, muted } }));
  }
  if (muted || !NOTES[name]) return;
  const ac = audio();
  if (!ac) return;
  if (ac.state === 'suspended') ac.resume().catch(() => {});
  const t0 = ac.currentTime + 0.01;
  for (const [freq, start, len, type, gain] of NOTES[name]) {
    const osc = ac.createOscillator();
    const g = ac.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    g.gain.setValueAtTime(0.0001, t0 + start);
    g.gain.exponentialRampToValueAtTime(gain, t0 + start + 0.01);
    g.gain.exponentialRampToValueAtTime(0.0001, t0 + start + len);
    osc.connect(g).connect(ac.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + len + 0.02);
  }
}
