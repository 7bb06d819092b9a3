// Piece roles (RULES §1): interchange names, one-character codes, counts, labels.
// Mirrors crates/junqi-core/src/role.rs.

/** Every role, strongest ranked piece first (the order of role.rs). */
export const ROLES = [
  'marshal', 'general', 'major_general', 'brigadier', 'colonel', 'major',
  'captain', 'lieutenant', 'engineer', 'bomb', 'landmine', 'flag',
];

/** Pieces of each role per seat (sum 25). */
export const COUNTS = {
  marshal: 1, general: 1, major_general: 2, brigadier: 2, colonel: 2, major: 2,
  captain: 3, lieutenant: 3, engineer: 3, bomb: 2, landmine: 3, flag: 1,
};

export const PIECES_PER_SEAT = 25;

/** Chinese names as players know them. */
export const ZH = {
  marshal: '司令', general: '军长', major_general: '师长', brigadier: '旅长',
  colonel: '团长', major: '营长', captain: '连长', lieutenant: '排长',
  engineer: '工兵', bomb: '炸弹', landmine: '地雷', flag: '军旗',
};

/** The pieces 陆海空三军棋 adds (LANDSEAAIR §1; its marshal is 总司令, shown 司令 on tiles). */
export const LSA_ROLES = [
  'army_group_commander', 'cavalry', 'infantry', 'atomic_cannon', 'tank', 'artillery',
  'anti_aircraft_gun', 'fort', 'machine_gun', 'poison_gas', 'missile', 'trap',
  'battleship', 'cruiser', 'gunboat', 'destroyer', 'submarine', 'fighter', 'scout_plane',
];
Object.assign(ZH, {
  army_group_commander: '兵团司令', cavalry: '骑兵', infantry: '步兵', atomic_cannon: '原子炮',
  tank: '坦克', artillery: '大炮', anti_aircraft_gun: '高射炮', fort: '炮垒', machine_gun: '机关枪',
  poison_gas: '毒气', missile: '飞弹', trap: '陷阱', battleship: '主力舰', cruiser: '巡洋舰',
  gunboat: '炮舰', destroyer: '驱逐舰', submarine: '潜水艇', fighter: '战斗机', scout_plane: '侦察机',
});
/** Tile labels where the full Chinese name is too long for a tile. */
const ZH_SHORT = { army_group_commander: '兵团' };

/** English names (full) and short tile labels. */
export const EN = {
  marshal: 'Marshal', general: 'General', major_general: 'Major general', brigadier: 'Brigadier',
  colonel: 'Colonel', major: 'Major', captain: 'Captain', lieutenant: 'Lieutenant',
  engineer: 'Engineer', bomb: 'Bomb', landmine: 'Landmine', flag: 'Flag',
};
export const EN_SHORT = {
  marshal: 'Marshal', general: 'General', major_general: 'Maj Gen', brigadier: 'Brig',
  colonel: 'Colonel', major: 'Major', captain: 'Captain', lieutenant: 'Lieut',
  engineer: 'Eng', bomb: 'Bomb', landmine: 'Mine', flag: 'Flag',
};
Object.assign(EN, {
  army_group_commander: 'Army group commander', cavalry: 'Cavalry', infantry: 'Infantry',
  atomic_cannon: 'Atomic cannon', tank: 'Tank', artillery: 'Artillery',
  anti_aircraft_gun: 'Anti-aircraft gun', fort: 'Fort', machine_gun: 'Machine gun',
  poison_gas: 'Poison gas', missile: 'Missile', trap: 'Trap', battleship: 'Battleship',
  cruiser: 'Cruiser', gunboat: 'Gunboat', destroyer: 'Destroyer', submarine: 'Submarine',
  fighter: 'Fighter', scout_plane: 'Scout plane',
});
Object.assign(EN_SHORT, {
  army_group_commander: 'AG Cmdr', cavalry: 'Cavalry', infantry: 'Infantry', atomic_cannon: 'Atomic',
  tank: 'Tank', artillery: 'Artill', anti_aircraft_gun: 'AA gun', fort: 'Fort', machine_gun: 'MG',
  poison_gas: 'Gas', missile: 'Missile', trap: 'Trap', battleship: 'Battlesh', cruiser: 'Cruiser',
  gunboat: 'Gunboat', destroyer: 'Destroy', submarine: 'Sub', fighter: 'Fighter', scout_plane: 'Scout',
});

/** Strength 9 (marshal) … 1 (engineer); null for bomb, landmine, flag. */
export function rank(role) {
  const i = ROLES.indexOf(role);
  return i >= 0 && i <= 8 ? 9 - i : null;
}

export function isMovable(role) {
  return role !== 'landmine' && role !== 'flag';
}

/** One-character code: 9…1 by strength, B, L, F. */
export function code(role) {
  if (role === 'bomb') return 'B';
  if (role === 'landmine') return 'L';
  if (role === 'flag') return 'F';
  const r = rank(role);
  if (r === null) throw new Error(`unknown role ${role}`);
  return String(r);
}

/** Inverse of code (case-insensitive letters); null if unknown. */
export function fromCode(ch) {
  switch (ch) {
    case 'B': case 'b': return 'bomb';
    case 'L': case 'l': return 'landmine';
    case 'F': case 'f': return 'flag';
    default:
      if (ch >= '1' && ch <= '9') return ROLES[9 - Number(ch)];
      return null;
  }
}

/** Label of a role in a language ('zh' or 'en'); short = tile label. */
export function roleName(role, lang, short = false) {
  if (lang === 'en') return (short ? EN_SHORT : EN)[role] ?? role;
  return (short && ZH_SHORT[role]) || ZH[role] || role;
}
