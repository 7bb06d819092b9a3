// How seats are named and what leaving costs: one display name for a bot everywhere (the seat
// panel, the status line), and the warning before leaving a game in progress.
import { t } from './i18n.js';
import { displayName } from './player.js';

/**
 * A bot seat's name as people read it: 电脑 · 普通 (from the server's `bot:<level>`), the name
 * player.js gives bots on every page.
 */
export function botDisplayName(name) {
  const n = String(name || '');
  return displayName(n.startsWith('bot:') ? n : `bot:${n}`);
}

/**
 * The warning before leaving a game in progress. `awayMs` is how long the seat may be away (the
 * welcome frame's `away_limit_ms`; 60 s when the server does not say); against the computer the
 * server pauses the game meanwhile when it allows more than a minute.
 */
export function leaveWarning(awayMs, vsComputer) {
  const ms = typeof awayMs === 'number' && awayMs > 0 ? awayMs : 60000;
  if (vsComputer && ms > 60000) return t('leave.paused', { min: Math.round(ms / 60000) });
  return t('leave.timed', { s: Math.round(ms / 1000) });
}
