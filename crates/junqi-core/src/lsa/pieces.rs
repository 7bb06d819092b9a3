//! The pieces of land-sea-air (LANDSEAAIR §1): arms, roles with their names, codes and classes,
//! the landed-ship profiles, and the two piece sets (`piece_set = seed | taiwan`).

use std::fmt;
use std::str::FromStr;

/// An arm (军种). Every piece's arm is public from deployment on (§3), so it is the first thing
/// legality looks at (§4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Arm {
    /// 陆军: stands on land squares (stations, cities, camps, harbours, bridges).
    Land,
    /// 海军: stands on sea squares.
    Sea,
    /// 空军: stands on air squares (airfields and the air lines).
    Air,
}

impl Arm {
    /// Every arm.
    pub const ALL: [Arm; 3] = [Arm::Land, Arm::Sea, Arm::Air];

    /// The interchange spelling: `land`, `sea`, `air`.
    pub const fn name(self) -> &'static str {
        match self {
            Arm::Land => "land",
            Arm::Sea => "sea",
            Arm::Air => "air",
        }
    }

    /// The Chinese name: 陆军, 海军, 空军.
    pub const fn chinese(self) -> &'static str {
        match self {
            Arm::Land => "陆军",
            Arm::Sea => "海军",
            Arm::Air => "空军",
        }
    }
}

impl fmt::Display for Arm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a piece is for combat and movement (the "class: strength" column of §1). Strengths only
/// order pieces of one class; they are not the numbers of `RULES.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// 军官: `marshal` 12 … `engineer` 1 (the rank).
    Officer(u8),
    /// 武器, one of the six chain pieces: `atomic_cannon` 6 … `machine_gun` 1 (the power).
    Weapon(u8),
    /// `poison_gas`: kills officers, harmless to weapons.
    Gas,
    /// `missile`: exchanges with what it hits (beats gas).
    Missile,
    /// `bomb`: exchanges with whatever it meets.
    Bomb,
    /// `landmine`: never moves.
    Landmine,
    /// `trap`: never moves; kills all but engineers and fighters.
    Trap,
    /// `flag`: never moves; its capture ends the game.
    Flag,
    /// A ship with a strength: `battleship` 4 … `destroyer` 1.
    Ship(u8),
    /// The `submarine`: a ship outside the strength order (§5.2 C8).
    Submarine,
    /// A plane: `fighter` or `scout_plane`.
    Plane,
}

/// A role (兵种) of land-sea-air, in the order of the table of §1. The discriminant is a small
/// index for tables (`role as usize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)] // Each variant's meaning is its row of §1; see `chinese` and `class`.
pub enum Role {
    Marshal,
    ArmyGroupCommander,
    General,
    MajorGeneral,
    Brigadier,
    Colonel,
    Major,
    Captain,
    Lieutenant,
    Cavalry,
    Infantry,
    Engineer,
    AtomicCannon,
    Tank,
    Artillery,
    AntiAircraftGun,
    Fort,
    MachineGun,
    PoisonGas,
    Missile,
    Bomb,
    Landmine,
    Trap,
    Flag,
    Battleship,
    Cruiser,
    Gunboat,
    Destroyer,
    Submarine,
    Fighter,
    ScoutPlane,
}

/// Number of roles.
pub const ROLES: usize = 31;

impl Role {
    /// Every role, in the order of §1.
    pub const ALL: [Role; ROLES] = [
        Role::Marshal,
        Role::ArmyGroupCommander,
        Role::General,
        Role::MajorGeneral,
        Role::Brigadier,
        Role::Colonel,
        Role::Major,
        Role::Captain,
        Role::Lieutenant,
        Role::Cavalry,
        Role::Infantry,
        Role::Engineer,
        Role::AtomicCannon,
        Role::Tank,
        Role::Artillery,
        Role::AntiAircraftGun,
        Role::Fort,
        Role::MachineGun,
        Role::PoisonGas,
        Role::Missile,
        Role::Bomb,
        Role::Landmine,
        Role::Trap,
        Role::Flag,
        Role::Battleship,
        Role::Cruiser,
        Role::Gunboat,
        Role::Destroyer,
        Role::Submarine,
        Role::Fighter,
        Role::ScoutPlane,
    ];

    /// The role with this index (`role as u8`), if any.
    pub const fn from_index(i: u8) -> Option<Role> {
        if (i as usize) < ROLES {
            Some(Role::ALL[i as usize])
        } else {
            None
        }
    }

    /// The interchange spelling (§1, §10), e.g. `army_group_commander`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Marshal => "marshal",
            Role::ArmyGroupCommander => "army_group_commander",
            Role::General => "general",
            Role::MajorGeneral => "major_general",
            Role::Brigadier => "brigadier",
            Role::Colonel => "colonel",
            Role::Major => "major",
            Role::Captain => "captain",
            Role::Lieutenant => "lieutenant",
            Role::Cavalry => "cavalry",
            Role::Infantry => "infantry",
            Role::Engineer => "engineer",
            Role::AtomicCannon => "atomic_cannon",
            Role::Tank => "tank",
            Role::Artillery => "artillery",
            Role::AntiAircraftGun => "anti_aircraft_gun",
            Role::Fort => "fort",
            Role::MachineGun => "machine_gun",
            Role::PoisonGas => "poison_gas",
            Role::Missile => "missile",
            Role::Bomb => "bomb",
            Role::Landmine => "landmine",
            Role::Trap => "trap",
            Role::Flag => "flag",
            Role::Battleship => "battleship",
            Role::Cruiser => "cruiser",
            Role::Gunboat => "gunboat",
            Role::Destroyer => "destroyer",
            Role::Submarine => "submarine",
            Role::Fighter => "fighter",
            Role::ScoutPlane => "scout_plane",
        }
    }

    /// The Chinese name of §1 (the first spelling where §1 gives two: 总司令, not 司令).
    pub const fn chinese(self) -> &'static str {
        match self {
            Role::Marshal => "总司令",
            Role::ArmyGroupCommander => "兵团司令",
            Role::General => "军长",
            Role::MajorGeneral => "师长",
            Role::Brigadier => "旅长",
            Role::Colonel => "团长",
            Role::Major => "营长",
            Role::Captain => "连长",
            Role::Lieutenant => "排长",
            Role::Cavalry => "骑兵",
            Role::Infantry => "步兵",
            Role::Engineer => "工兵",
            Role::AtomicCannon => "原子炮",
            Role::Tank => "坦克",
            Role::Artillery => "大炮",
            Role::AntiAircraftGun => "高射炮",
            Role::Fort => "炮垒",
            Role::MachineGun => "机关枪",
            Role::PoisonGas => "毒气",
            Role::Missile => "飞弹",
            Role::Bomb => "炸弹",
            Role::Landmine => "地雷",
            Role::Trap => "陷阱",
            Role::Flag => "军旗",
            Role::Battleship => "主力舰",
            Role::Cruiser => "巡洋舰",
            Role::Gunboat => "炮舰",
            Role::Destroyer => "驱逐舰",
            Role::Submarine => "潜水艇",
            Role::Fighter => "战斗机",
            Role::ScoutPlane => "侦察机",
        }
    }

    /// The three-letter code of the result matrix of §5.3, e.g. `AGC`, `SCT`.
    ///
    /// Spec silent: §5.3 has no column for the three Taiwanese-only roles; they get `CAV`, `INF`
    /// and `ATC` (atomic cannon), in the style of the others.
    pub const fn code(self) -> &'static str {
        match self {
            Role::Marshal => "MAR",
            Role::ArmyGroupCommander => "AGC",
            Role::General => "GEN",
            Role::MajorGeneral => "MGN",
            Role::Brigadier => "BRG",
            Role::Colonel => "COL",
            Role::Major => "MAJ",
            Role::Captain => "CPT",
            Role::Lieutenant => "LT",
            Role::Cavalry => "CAV",
            Role::Infantry => "INF",
            Role::Engineer => "ENG",
            Role::AtomicCannon => "ATC",
            Role::Tank => "TNK",
            Role::Artillery => "ART",
            Role::AntiAircraftGun => "AAG",
            Role::Fort => "FRT",
            Role::MachineGun => "MGU",
            Role::PoisonGas => "GAS",
            Role::Missile => "MSL",
            Role::Bomb => "BMB",
            Role::Landmine => "MIN",
            Role::Trap => "TRP",
            Role::Flag => "FLG",
            Role::Battleship => "BSH",
            Role::Cruiser => "CRU",
            Role::Gunboat => "GBT",
            Role::Destroyer => "DES",
            Role::Submarine => "SUB",
            Role::Fighter => "FTR",
            Role::ScoutPlane => "SCT",
        }
    }

    /// Inverse of [`Role::code`] (upper case, as §5.3 writes them).
    pub fn from_code(code: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.code() == code)
    }

    /// The arm: land for `marshal` … `flag`, sea for the five ships, air for the two planes.
    /// A landed battleship or cruiser is a land piece though its role stays a sea role; the
    /// position, not the role, knows that (see [`LandedShip`]).
    pub const fn arm(self) -> Arm {
        match self {
            Role::Battleship
            | Role::Cruiser
            | Role::Gunboat
            | Role::Destroyer
            | Role::Submarine => Arm::Sea,
            Role::Fighter | Role::ScoutPlane => Arm::Air,
            _ => Arm::Land,
        }
    }

    /// The class and strength of §1.
    pub const fn class(self) -> Class {
        match self {
            Role::Marshal => Class::Officer(12),
            Role::ArmyGroupCommander => Class::Officer(11),
            Role::General => Class::Officer(10),
            Role::MajorGeneral => Class::Officer(9),
            Role::Brigadier => Class::Officer(8),
            Role::Colonel => Class::Officer(7),
            Role::Major => Class::Officer(6),
            Role::Captain => Class::Officer(5),
            Role::Lieutenant => Class::Officer(4),
            Role::Cavalry => Class::Officer(3),
            Role::Infantry => Class::Officer(2),
            Role::Engineer => Class::Officer(1),
            Role::AtomicCannon => Class::Weapon(6),
            Role::Tank => Class::Weapon(5),
            Role::Artillery => Class::Weapon(4),
            Role::AntiAircraftGun => Class::Weapon(3),
            Role::Fort => Class::Weapon(2),
            Role::MachineGun => Class::Weapon(1),
            Role::PoisonGas => Class::Gas,
            Role::Missile => Class::Missile,
            Role::Bomb => Class::Bomb,
            Role::Landmine => Class::Landmine,
            Role::Trap => Class::Trap,
            Role::Flag => Class::Flag,
            Role::Battleship => Class::Ship(4),
            Role::Cruiser => Class::Ship(3),
            Role::Gunboat => Class::Ship(2),
            Role::Destroyer => Class::Ship(1),
            Role::Submarine => Class::Submarine,
            Role::Fighter | Role::ScoutPlane => Class::Plane,
        }
    }

    /// Whether an officer (`marshal` … `engineer`).
    pub const fn is_officer(self) -> bool {
        matches!(self.class(), Class::Officer(_))
    }

    /// Whether one of the six weapons (the chain `atomic_cannon` … `machine_gun`).
    pub const fn is_weapon(self) -> bool {
        matches!(self.class(), Class::Weapon(_))
    }

    /// Whether a ship (one of the five sea roles).
    pub const fn is_ship(self) -> bool {
        matches!(self.arm(), Arm::Sea)
    }

    /// Whether a plane (fighter or scout plane).
    pub const fn is_plane(self) -> bool {
        matches!(self.arm(), Arm::Air)
    }

    /// Whether the piece counts as movable for the end of the game (§1, §7): every role but
    /// `flag`, `landmine`, `trap` and `fort` (the fort only strikes).
    pub const fn is_movable(self) -> bool {
        !matches!(self, Role::Flag | Role::Landmine | Role::Trap | Role::Fort)
    }

    /// Whether pieces of this role ever take an action (move, strike or look): all but flags,
    /// landmines and traps (§4).
    pub const fn acts(self) -> bool {
        !matches!(self, Role::Flag | Role::Landmine | Role::Trap)
    }

    /// The ship this role lands as, if it is one of the two that land (§4.4).
    pub const fn landing_ship(self) -> Option<LandedShip> {
        match self {
            Role::Battleship => Some(LandedShip::Battleship),
            Role::Cruiser => Some(LandedShip::Cruiser),
            _ => None,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for a role name that is not one of §1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown land-sea-air role {0:?}")]
pub struct UnknownRole(pub String);

impl FromStr for Role {
    type Err = UnknownRole;
    fn from_str(s: &str) -> Result<Role, UnknownRole> {
        Role::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownRole(s.to_string()))
    }
}

/// A battleship or cruiser that has landed (§1, §4.4): a land piece for good, with a dual profile.
/// Only these two roles can land, so a landed destroyer cannot be written down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LandedShip {
    /// A landed 主力舰: 师长 to officers, 坦克 to weapons.
    Battleship,
    /// A landed 巡洋舰: 旅长 to officers, 大炮 to weapons.
    Cruiser,
}

impl LandedShip {
    /// The role, which a landed ship keeps.
    pub const fn role(self) -> Role {
        match self {
            LandedShip::Battleship => Role::Battleship,
            LandedShip::Cruiser => Role::Cruiser,
        }
    }

    /// The dual profile (officer rank, weapon power): battleship (9, 5), cruiser (8, 4).
    pub const fn profile(self) -> (u8, u8) {
        match self {
            LandedShip::Battleship => (9, 5),
            LandedShip::Cruiser => (8, 4),
        }
    }

    /// The three-letter code of §5.3: `LBS`, `LCR`.
    pub const fn code(self) -> &'static str {
        match self {
            LandedShip::Battleship => "LBS",
            LandedShip::Cruiser => "LCR",
        }
    }
}

/// The piece set (option `piece_set`, §9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PieceSet {
    /// `seed` (default): the 25 pieces of 军棋 plus one of each of the 16 the seed adds, 41.
    #[default]
    Seed,
    /// `taiwan`: the 30 pieces of 華雄 三軍戰鬪棋, one of each (no 旅长; 原子炮, 骑兵, 步兵).
    Taiwan,
}

/// Pieces per role under `seed`, indexed by `role as usize`.
const SEED_COUNTS: [u8; ROLES] = [
    1, 1, 1, 2, 2, 2, 2, 3, 3, 0, 0, 3, // officers
    0, 1, 1, 1, 1, 1, // weapons
    1, 1, 2, 3, 1, 1, // gas, missile, bomb, landmine, trap, flag
    1, 1, 1, 1, 1, // ships
    1, 1, // planes
];

/// Pieces per role under `taiwan`, indexed by `role as usize`.
const TAIWAN_COUNTS: [u8; ROLES] = [
    1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, // officers
    1, 1, 1, 1, 1, 1, // weapons
    1, 1, 1, 1, 1, 1, // gas, missile, bomb, landmine, trap, flag
    1, 1, 1, 1, 1, // ships
    1, 1, // planes
];

impl PieceSet {
    /// Both sets.
    pub const ALL: [PieceSet; 2] = [PieceSet::Seed, PieceSet::Taiwan];

    /// The option value: `seed`, `taiwan`.
    pub const fn name(self) -> &'static str {
        match self {
            PieceSet::Seed => "seed",
            PieceSet::Taiwan => "taiwan",
        }
    }

    /// The set with this option value.
    pub fn from_name(name: &str) -> Option<PieceSet> {
        PieceSet::ALL.into_iter().find(|s| s.name() == name)
    }

    /// How many pieces of a role each seat has.
    pub const fn count(self, role: Role) -> u8 {
        match self {
            PieceSet::Seed => SEED_COUNTS[role as usize],
            PieceSet::Taiwan => TAIWAN_COUNTS[role as usize],
        }
    }

    /// Pieces per seat: 41 or 30.
    pub const fn total(self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < ROLES {
            n += self.count(Role::ALL[i]) as usize;
            i += 1;
        }
        n
    }

    /// Pieces per seat of one arm (land 34 / 23, sea 5, air 2).
    pub fn arm_total(self, arm: Arm) -> usize {
        Role::ALL
            .into_iter()
            .filter(|r| r.arm() == arm)
            .map(|r| self.count(r) as usize)
            .sum()
    }

    /// Whether the role is in the set at all.
    pub const fn has(self, role: Role) -> bool {
        self.count(role) > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lsa_totals_match_section_1() {
        assert_eq!(PieceSet::Seed.total(), 41);
        assert_eq!(PieceSet::Taiwan.total(), 30);
        assert_eq!(
            Arm::ALL.map(|a| PieceSet::Seed.arm_total(a)),
            [34, 5, 2],
            "seed: 34 land + 5 sea + 2 air"
        );
        assert_eq!(
            Arm::ALL.map(|a| PieceSet::Taiwan.arm_total(a)),
            [23, 5, 2],
            "taiwan: 23 land + 5 sea + 2 air"
        );
        // Taiwan is one of each, with no brigadier.
        for r in Role::ALL {
            let want = u8::from(r != Role::Brigadier);
            assert_eq!(PieceSet::Taiwan.count(r), want, "{r}");
        }
    }

    #[test]
    fn lsa_seed_is_junqi_plus_sixteen_singles() {
        // The 25 pieces of 军棋 keep their RULES.md counts; the 16 added roles are one each.
        for old in crate::role::Role::ALL {
            let r: Role = old.name().parse().unwrap();
            assert_eq!(PieceSet::Seed.count(r), old.count(), "{r}");
        }
        let added: Vec<Role> = Role::ALL
            .into_iter()
            .filter(|r| crate::role::Role::from_str(r.name()).is_err())
            .collect();
        assert_eq!(
            added.len(),
            19,
            "16 seed additions + cavalry, infantry, atomic cannon"
        );
        let seed_added: usize = added
            .iter()
            .map(|&r| PieceSet::Seed.count(r) as usize)
            .sum();
        assert_eq!(seed_added, 16);
        for r in [Role::Cavalry, Role::Infantry, Role::AtomicCannon] {
            assert!(!PieceSet::Seed.has(r) && PieceSet::Taiwan.has(r));
        }
    }

    #[test]
    fn lsa_names_codes_round_trip() {
        for (i, r) in Role::ALL.into_iter().enumerate() {
            assert_eq!(r as usize, i);
            assert_eq!(Role::from_index(i as u8), Some(r));
            assert_eq!(r.name().parse::<Role>(), Ok(r));
            assert_eq!(Role::from_code(r.code()), Some(r));
        }
        assert_eq!(Role::from_index(ROLES as u8), None);
        assert!("sapper".parse::<Role>().is_err());
        for s in PieceSet::ALL {
            assert_eq!(PieceSet::from_name(s.name()), Some(s));
        }
    }

    #[test]
    fn lsa_classes_and_arms() {
        let officers: Vec<u8> = Role::ALL
            .into_iter()
            .filter_map(|r| match r.class() {
                Class::Officer(n) => Some(n),
                _ => None,
            })
            .collect();
        assert_eq!(officers, (1..=12).rev().collect::<Vec<u8>>());
        let weapons: Vec<Role> = Role::ALL.into_iter().filter(|r| r.is_weapon()).collect();
        assert_eq!(
            weapons,
            [
                Role::AtomicCannon,
                Role::Tank,
                Role::Artillery,
                Role::AntiAircraftGun,
                Role::Fort,
                Role::MachineGun
            ]
        );
        assert_eq!(Role::ALL.into_iter().filter(|r| r.is_ship()).count(), 5);
        assert_eq!(Role::ALL.into_iter().filter(|r| r.is_plane()).count(), 2);
        let still: Vec<Role> = Role::ALL.into_iter().filter(|r| !r.is_movable()).collect();
        assert_eq!(still, [Role::Fort, Role::Landmine, Role::Trap, Role::Flag]);
        assert!(Role::Fort.acts() && !Role::Trap.acts());
        assert_eq!(
            Role::Battleship.landing_ship().map(LandedShip::profile),
            Some((9, 5))
        );
        assert_eq!(
            Role::Cruiser.landing_ship().map(LandedShip::profile),
            Some((8, 4))
        );
        assert_eq!(Role::Gunboat.landing_ship(), None);
    }
}
