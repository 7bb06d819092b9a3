// Who beats whom (RULES §5): the result of one attack from the two roles and the rule options
// that change combat. The help page's combat table is drawn from this, in the role order of
// roles.js; web/tests/unit/combat.test.mjs checks every pair against the Rust referee.
import { ROLES, rank, isMovable } from './roles.js';

/** The roles that can attack (everything but landmines and flags), strongest first. */
export const ATTACKERS = ROLES.filter(isMovable);

/**
 * The announced result of `attacker` attacking `defender`: 'attacker_wins', 'defender_wins',
 * 'both_removed' or 'flag_captured'; null when the attacker never moves. `options` are the
 * RULES §9 options that matter here: `landmine` ('attacker_dies' | 'both_die') and
 * `engineer_scout` (boolean). Capturing a flag under `win_by_flag = carry_home` is not covered.
 */
export function combat(attacker, defender, options = {}) {
  if (!isMovable(attacker)) return null;
  if (defender === 'flag') return 'flag_captured';
  if (attacker === 'bomb' || defender === 'bomb') return 'both_removed';
  if (defender === 'landmine') {
    if (attacker === 'engineer') return 'attacker_wins';
    return options.landmine === 'both_die' ? 'both_removed' : 'defender_wins';
  }
  // Two ranked pieces. A scouting engineer dies against any of them, its own rank included.
  if (options.engineer_scout && attacker === 'engineer') return 'defender_wins';
  const a = rank(attacker);
  const d = rank(defender);
  return a > d ? 'attacker_wins' : a < d ? 'defender_wins' : 'both_removed';
}
