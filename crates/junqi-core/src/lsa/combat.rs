//! Combat of land-sea-air (LANDSEAAIR §5): the rule list C1–C10 of §5.2 (the first rule that
//! matches decides), the land profiles of §5.1, the Taiwanese rules T1–T4 of §5.4 applied
//! first under `combat = taiwan`, and the `landmine` option. [`can_meet`] says which
//! attacker–defender pairs an attack can ever bring together (the non-`.` cells of §5.3).

use super::pieces::{Arm, Class, LandedShip, Role};
use crate::event::AttackResult;
use crate::options::LandmineRule;

/// Option `combat` (§9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CombatRule {
    /// `seed` (default): §5.2 alone.
    #[default]
    Seed,
    /// `taiwan`: T1–T4 of §5.4, then §5.2.
    Taiwan,
}

impl CombatRule {
    /// The option value.
    pub const fn name(self) -> &'static str {
        match self {
            CombatRule::Seed => "seed",
            CombatRule::Taiwan => "taiwan",
        }
    }

    /// The rule with this option value.
    pub fn from_name(name: &str) -> Option<CombatRule> {
        [CombatRule::Seed, CombatRule::Taiwan]
            .into_iter()
            .find(|r| r.name() == name)
    }
}

/// The options that change combat (default: `combat = seed`, `landmine = attacker_dies`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CombatOptions {
    /// `combat`.
    pub combat: CombatRule,
    /// `landmine`.
    pub landmine: LandmineRule,
}

impl Default for CombatOptions {
    fn default() -> CombatOptions {
        CombatOptions {
            combat: CombatRule::Seed,
            landmine: LandmineRule::AttackerDies,
        }
    }
}

/// A piece as combat sees it: its role, or a landed battleship or cruiser (which fights with
/// its dual profile). `Piece(Role::Battleship)` is a battleship at sea; its landing attack is
/// resolved as `Landed(LandedShip::Battleship)` (§4.4, §5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Combatant {
    /// A piece that is not a landed ship.
    Piece(Role),
    /// A landed battleship or cruiser.
    Landed(LandedShip),
}

impl Combatant {
    /// The role (a landed ship keeps its role).
    pub const fn role(self) -> Role {
        match self {
            Combatant::Piece(r) => r,
            Combatant::Landed(s) => s.role(),
        }
    }

    /// The arm it fights in: a landed ship is a land piece.
    pub const fn arm(self) -> Arm {
        match self {
            Combatant::Piece(r) => r.arm(),
            Combatant::Landed(_) => Arm::Land,
        }
    }

    /// Whether a ship at sea (not landed).
    const fn at_sea(self) -> bool {
        matches!(self, Combatant::Piece(r) if r.is_ship())
    }

    /// The three-letter code of §5.3 (`LBS`, `LCR` for landed ships).
    pub const fn code(self) -> &'static str {
        match self {
            Combatant::Piece(r) => r.code(),
            Combatant::Landed(s) => s.code(),
        }
    }

    /// The land-combat profile of §5.1 when attacking (the gunboat counts as a weapon 4 in its
    /// bridge strike), `None` for pieces with none.
    fn profile(self, attacking: bool) -> Option<Profile> {
        match self {
            Combatant::Landed(s) => {
                let (o, w) = s.profile();
                Some(Profile::Dual(o, w))
            }
            Combatant::Piece(Role::Gunboat) if attacking => Some(Profile::Weapon(4)),
            Combatant::Piece(r) => match r.class() {
                Class::Officer(n) => Some(Profile::Officer(n)),
                Class::Weapon(n) => Some(Profile::Weapon(n)),
                Class::Gas => Some(Profile::Gas),
                _ => None,
            },
        }
    }
}

impl From<Role> for Combatant {
    fn from(r: Role) -> Combatant {
        Combatant::Piece(r)
    }
}

/// A land-combat profile (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Profile {
    Officer(u8),
    Weapon(u8),
    Gas,
    /// Officer value, weapon value.
    Dual(u8, u8),
}

/// What an attack does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The announced result.
    pub result: AttackResult,
    /// Whether the attacker stays on the board (it takes the defender's square if the defender
    /// is gone, except in a strike).
    pub attacker_survives: bool,
    /// Whether the defender stays on the board.
    pub defender_survives: bool,
}

const fn out(result: AttackResult) -> Outcome {
    Outcome {
        result,
        attacker_survives: matches!(result, AttackResult::AttackerWins),
        defender_survives: matches!(result, AttackResult::DefenderWins),
    }
}

const A: Outcome = out(AttackResult::AttackerWins);
const D: Outcome = out(AttackResult::DefenderWins);
const X: Outcome = out(AttackResult::BothRemoved);

fn compare(a: u8, d: u8) -> Outcome {
    match a.cmp(&d) {
        std::cmp::Ordering::Greater => A,
        std::cmp::Ordering::Less => D,
        std::cmp::Ordering::Equal => X,
    }
}

/// Resolve an attack of `attacker` on `defender`: T1–T4 first under `combat = taiwan`, then the
/// first of C1–C10 that matches. `None` only for pairs no rule covers, which are pairs that
/// can never meet (a destroyer and a marshal: [`can_meet`] is false for all of them).
pub fn resolve(attacker: Combatant, defender: Combatant, opts: CombatOptions) -> Option<Outcome> {
    use Role::*;
    let (a, d) = (attacker.role(), defender.role());
    let a_piece = matches!(attacker, Combatant::Piece(_));
    if opts.combat == CombatRule::Taiwan {
        // T1: the engineer beats gas, bomb and fort, whichever attacks.
        if a == Engineer && matches!(d, PoisonGas | Bomb | Fort) {
            return Some(A);
        }
        if d == Engineer && matches!(a, PoisonGas | Bomb | Fort) {
            return Some(D);
        }
        // T2: an officer (not a landed ship) attacking a bomb is removed, the bomb stays.
        if a_piece && a.is_officer() && a != Engineer && d == Bomb {
            return Some(D);
        }
        // T3: the bomb beats gas, whichever attacks.
        if a == Bomb && d == PoisonGas {
            return Some(A);
        }
        if a == PoisonGas && d == Bomb {
            return Some(D);
        }
        // T4: a fighter attacking a bomb or a missile wins.
        if a == Fighter && matches!(d, Bomb | Missile) {
            return Some(A);
        }
    }
    // C1: the flag is captured; a bomb or missile that captures it goes with it.
    if d == Flag {
        return Some(Outcome {
            result: AttackResult::FlagCaptured,
            attacker_survives: !matches!(a, Bomb | Missile),
            defender_survives: false,
        });
    }
    // C2: the trap kills all but engineers and fighters.
    if d == Trap {
        return Some(if matches!(a, Engineer | Fighter) {
            A
        } else {
            D
        });
    }
    // C3: the landmine.
    if d == Landmine {
        return Some(match a {
            Engineer | Fighter => A,
            Bomb | Missile => X,
            _ => match opts.landmine {
                LandmineRule::AttackerDies => D,
                LandmineRule::BothDie => X,
            },
        });
    }
    // C4: the bomb exchanges with anything.
    if a == Bomb || d == Bomb {
        return Some(X);
    }
    // C5: the missile beats gas and exchanges with anything else.
    if a == Missile || d == Missile {
        return Some(match (a, d) {
            (Missile, PoisonGas) => A,
            (PoisonGas, Missile) => D,
            _ => X,
        });
    }
    // C6: the fighter.
    if a == Fighter {
        return Some(match defender {
            Combatant::Piece(Fighter | ScoutPlane) => A,
            Combatant::Piece(AntiAircraftGun | Gunboat | Submarine) => D,
            _ => A,
        });
    }
    // C7: a plane attacked by an anti-aircraft gun or a gunboat.
    if d.is_plane() {
        return Some(A);
    }
    // C8: ships at sea.
    if attacker.at_sea() && defender.at_sea() {
        return Some(match (a, d) {
            _ if a == d => X,
            (Destroyer, Submarine) => A,
            (Submarine, Destroyer) => D,
            (Submarine, _) => A,
            (_, Submarine) => D,
            _ => match (a.class(), d.class()) {
                (Class::Ship(x), Class::Ship(y)) => compare(x, y),
                _ => unreachable!("every ship but the submarine has a strength"),
            },
        });
    }
    // C9: the fort striking a ship at sea.
    if a == Fort && defender.at_sea() {
        return Some(if matches!(d, Battleship | Cruiser) {
            D
        } else {
            A
        });
    }
    // C10: land combat by profile.
    let (pa, pd) = (attacker.profile(true)?, defender.profile(false)?);
    use Profile::*;
    Some(match (pa, pd) {
        (Officer(x), Officer(y)) | (Weapon(x), Weapon(y)) => compare(x, y),
        (Officer(_), Weapon(_) | Gas) => D,
        (Officer(x), Dual(y, _)) => compare(x, y),
        (Weapon(_), Officer(_) | Gas) => A,
        (Weapon(x), Dual(_, y)) => compare(x, y),
        (Gas, Officer(_)) => A,
        (Gas, Weapon(_) | Dual(..)) => D,
        (Gas, Gas) => X,
        (Dual(x, _), Officer(y)) => compare(x, y),
        (Dual(_, x), Weapon(y)) => compare(x, y),
        (Dual(..), Gas) => A,
        (Dual(_, x), Dual(_, y)) => compare(x, y),
    })
}

/// Whether an attack of `attacker` on `defender` can ever happen in a game played from legal
/// deployments: the attack rights of §4.1 by the defender's arm, and the board's facts (the
/// fort's strike squares only ever hold enemy pieces that move; no flag stands on an air line,
/// a bridge or a fort's strike square). These are the cells of §5.3 that are not `.`.
pub fn can_meet(attacker: Combatant, defender: Combatant) -> bool {
    use Role::*;
    let d = defender.role();
    // Pieces that never leave their deployment square never reach a bridge or a fort.
    let moves_about = d.is_movable();
    let land_attacker = |c: Combatant| match c {
        Combatant::Landed(_) => true,
        Combatant::Piece(r) => r.arm() == Arm::Land && r.acts() && !matches!(r, Fort | Missile),
    };
    match (attacker, defender.arm()) {
        (Combatant::Piece(Missile), _) => true,
        (a, Arm::Land) if land_attacker(a) => true,
        (Combatant::Piece(AntiAircraftGun), Arm::Air) => true,
        (a, _) if land_attacker(a) => false,
        (Combatant::Piece(Fort), Arm::Land) => moves_about,
        (Combatant::Piece(Fort), Arm::Sea) => true,
        (Combatant::Piece(Gunboat), Arm::Land) => moves_about,
        (Combatant::Piece(Gunboat), _) => true,
        (Combatant::Piece(Battleship | Cruiser | Destroyer | Submarine), arm) => arm == Arm::Sea,
        (Combatant::Piece(Fighter), _) => d != Flag,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsa::pieces::PieceSet;

    /// §5.3 of LANDSEAAIR.md, copied verbatim (the spec is not in the repository).
    const MATRIX: &str = "\
att\\def MAR AGC GEN MGN BRG COL MAJ CPT  LT ENG TNK ART AAG FRT MGU GAS MSL BMB MIN TRP FLG LBS LCR BSH CRU GBT DES SUB FTR SCT
MAR       X   W   W   W   W   W   W   W   W   W   L   L   L   L   L   L   X   X   L   L   F   W   W   .   .   .   .   .   .   .
AGC       L   X   W   W   W   W   W   W   W   W   L   L   L   L   L   L   X   X   L   L   F   W   W   .   .   .   .   .   .   .
GEN       L   L   X   W   W   W   W   W   W   W   L   L   L   L   L   L   X   X   L   L   F   W   W   .   .   .   .   .   .   .
MGN       L   L   L   X   W   W   W   W   W   W   L   L   L   L   L   L   X   X   L   L   F   X   W   .   .   .   .   .   .   .
BRG       L   L   L   L   X   W   W   W   W   W   L   L   L   L   L   L   X   X   L   L   F   L   X   .   .   .   .   .   .   .
COL       L   L   L   L   L   X   W   W   W   W   L   L   L   L   L   L   X   X   L   L   F   L   L   .   .   .   .   .   .   .
MAJ       L   L   L   L   L   L   X   W   W   W   L   L   L   L   L   L   X   X   L   L   F   L   L   .   .   .   .   .   .   .
CPT       L   L   L   L   L   L   L   X   W   W   L   L   L   L   L   L   X   X   L   L   F   L   L   .   .   .   .   .   .   .
LT        L   L   L   L   L   L   L   L   X   W   L   L   L   L   L   L   X   X   L   L   F   L   L   .   .   .   .   .   .   .
ENG       L   L   L   L   L   L   L   L   L   X   L   L   L   L   L   L   X   X   W   W   F   L   L   .   .   .   .   .   .   .
TNK       W   W   W   W   W   W   W   W   W   W   X   W   W   W   W   W   X   X   L   L   F   X   W   .   .   .   .   .   .   .
ART       W   W   W   W   W   W   W   W   W   W   L   X   W   W   W   W   X   X   L   L   F   L   X   .   .   .   .   .   .   .
AAG       W   W   W   W   W   W   W   W   W   W   L   L   X   W   W   W   X   X   L   L   F   L   L   .   .   .   .   .   W   W
FRT       W   W   W   W   W   W   W   W   W   W   L   L   L   .   W   W   X   X   .   .   .   L   L   L   L   W   W   W   .   .
MGU       W   W   W   W   W   W   W   W   W   W   L   L   L   L   X   W   X   X   L   L   F   L   L   .   .   .   .   .   .   .
GAS       W   W   W   W   W   W   W   W   W   W   L   L   L   L   L   X   L   X   L   L   F   L   L   .   .   .   .   .   .   .
MSL       X   X   X   X   X   X   X   X   X   X   X   X   X   X   X   W   X   X   X   L   F   X   X   X   X   X   X   X   X   X
BMB       X   X   X   X   X   X   X   X   X   X   X   X   X   X   X   X   X   X   X   L   F   X   X   .   .   .   .   .   .   .
LBS       L   L   L   X   W   W   W   W   W   W   X   W   W   W   W   W   X   X   L   L   F   X   W   .   .   .   .   .   .   .
LCR       L   L   L   L   X   W   W   W   W   W   L   X   W   W   W   W   X   X   L   L   F   L   X   .   .   .   .   .   .   .
BSH       .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   X   W   W   W   L   .   .
CRU       .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   L   X   W   W   L   .   .
GBT       W   W   W   W   W   W   W   W   W   W   L   X   W   .   W   W   X   X   .   .   .   L   X   L   L   X   W   L   W   W
DES       .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   L   L   L   X   W   .   .
SUB       .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   W   W   W   L   X   .   .
FTR       W   W   W   W   W   W   W   W   W   W   W   W   L   W   W   W   X   X   W   W   .   W   W   W   W   L   W   L   W   W
";

    fn combatant(code: &str) -> Combatant {
        match code {
            "LBS" => Combatant::Landed(LandedShip::Battleship),
            "LCR" => Combatant::Landed(LandedShip::Cruiser),
            c => Combatant::Piece(Role::from_code(c).unwrap_or_else(|| panic!("code {c}"))),
        }
    }

    fn letter(a: Combatant, d: Combatant, opts: CombatOptions) -> char {
        if !can_meet(a, d) {
            return '.';
        }
        let o = resolve(a, d, opts).expect("every pair that meets has a rule");
        match o.result {
            AttackResult::AttackerWins => 'W',
            AttackResult::DefenderWins => 'L',
            AttackResult::BothRemoved => 'X',
            AttackResult::FlagCaptured => 'F',
        }
    }

    /// The matrix generated from the code, in the spec's layout.
    fn check_matrix(opts: CombatOptions, edit: impl Fn(&str, &str, char) -> char) {
        let mut lines = MATRIX.lines();
        let header: Vec<&str> = lines.next().unwrap().split_whitespace().skip(1).collect();
        assert_eq!(header.len(), 30);
        let mut rows = 0;
        for line in lines {
            let mut cells = line.split_whitespace();
            let row = cells.next().unwrap();
            let cells: Vec<char> = cells.map(|c| c.chars().next().unwrap()).collect();
            assert_eq!(cells.len(), header.len(), "row {row}");
            for (col, &want) in header.iter().zip(&cells) {
                let got = letter(combatant(row), combatant(col), opts);
                assert_eq!(got, edit(row, col, want), "{row} attacking {col}");
            }
            rows += 1;
        }
        assert_eq!(rows, 26);
    }

    #[test]
    fn lsa_matrix_of_section_5_3() {
        check_matrix(CombatOptions::default(), |_, _, c| c);
    }

    #[test]
    fn lsa_landmine_both_die() {
        let opts = CombatOptions {
            landmine: LandmineRule::BothDie,
            ..CombatOptions::default()
        };
        check_matrix(
            opts,
            |_, col, c| if col == "MIN" && c == 'L' { 'X' } else { c },
        );
    }

    #[test]
    fn lsa_every_meeting_resolves() {
        let all: Vec<Combatant> = Role::ALL
            .into_iter()
            .map(Combatant::Piece)
            .chain([LandedShip::Battleship, LandedShip::Cruiser].map(Combatant::Landed))
            .collect();
        for combat in [CombatRule::Seed, CombatRule::Taiwan] {
            for landmine in [LandmineRule::AttackerDies, LandmineRule::BothDie] {
                let opts = CombatOptions { combat, landmine };
                for &a in &all {
                    for &d in &all {
                        if can_meet(a, d) {
                            let o = resolve(a, d, opts).unwrap();
                            // The announced result and the survivors agree.
                            match o.result {
                                AttackResult::AttackerWins => {
                                    assert!(o.attacker_survives && !o.defender_survives)
                                }
                                AttackResult::DefenderWins => {
                                    assert!(!o.attacker_survives && o.defender_survives)
                                }
                                AttackResult::BothRemoved | AttackResult::FlagCaptured => {
                                    assert!(!o.defender_survives)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn lsa_flag_capture_removes_bomb_and_missile() {
        let o = resolve(
            Role::Engineer.into(),
            Role::Flag.into(),
            CombatOptions::default(),
        );
        assert_eq!(o.map(|o| o.attacker_survives), Some(true));
        for r in [Role::Bomb, Role::Missile] {
            let o = resolve(r.into(), Role::Flag.into(), CombatOptions::default()).unwrap();
            assert_eq!(o.result, AttackResult::FlagCaptured);
            assert!(!o.attacker_survives && !o.defender_survives);
        }
    }

    #[test]
    fn lsa_taiwan_rules() {
        use Role::*;
        let tw = CombatOptions {
            combat: CombatRule::Taiwan,
            ..CombatOptions::default()
        };
        let r = |a: Combatant, d: Combatant| resolve(a, d, tw).unwrap().result;
        let p = Combatant::Piece;
        use AttackResult::*;
        // T1, whichever attacks.
        for x in [PoisonGas, Bomb, Fort] {
            assert_eq!(r(p(Engineer), p(x)), AttackerWins, "{x}");
            assert_eq!(r(p(x), p(Engineer)), DefenderWins, "{x}");
        }
        // T2: officers attacking a bomb lose it; a landed ship still exchanges (C4).
        for o in [Marshal, Lieutenant, Cavalry, Infantry] {
            assert_eq!(r(p(o), p(Bomb)), DefenderWins, "{o}");
        }
        assert_eq!(
            r(Combatant::Landed(LandedShip::Battleship), p(Bomb)),
            BothRemoved
        );
        assert_eq!(
            r(p(Bomb), p(Marshal)),
            BothRemoved,
            "a bomb attacking still exchanges"
        );
        // T3, whichever attacks.
        assert_eq!(r(p(Bomb), p(PoisonGas)), AttackerWins);
        assert_eq!(r(p(PoisonGas), p(Bomb)), DefenderWins);
        // T4.
        assert_eq!(r(p(Fighter), p(Bomb)), AttackerWins);
        assert_eq!(r(p(Fighter), p(Missile)), AttackerWins);
        assert_eq!(
            r(p(Missile), p(Fighter)),
            BothRemoved,
            "T4 is the fighter attacking"
        );
        // The seed rules are unchanged elsewhere.
        assert_eq!(r(p(Tank), p(Marshal)), AttackerWins);
        let seed = CombatOptions::default();
        assert_eq!(
            resolve(p(Engineer), p(Bomb), seed).unwrap().result,
            BothRemoved
        );
        assert_eq!(
            resolve(p(Fighter), p(Bomb), seed).unwrap().result,
            BothRemoved
        );
    }

    #[test]
    fn lsa_taiwan_pieces_fit_the_chains() {
        use AttackResult::*;
        use Role::*;
        let r = |a: Role, d: Role| {
            resolve(a.into(), d.into(), CombatOptions::default())
                .unwrap()
                .result
        };
        assert!(PieceSet::Taiwan.has(Cavalry));
        assert_eq!(r(Lieutenant, Cavalry), AttackerWins);
        assert_eq!(r(Cavalry, Infantry), AttackerWins);
        assert_eq!(r(Infantry, Engineer), AttackerWins);
        assert_eq!(r(Engineer, Infantry), DefenderWins);
        assert_eq!(r(AtomicCannon, Tank), AttackerWins);
        assert_eq!(r(Tank, AtomicCannon), DefenderWins);
        assert_eq!(r(AtomicCannon, Marshal), AttackerWins);
        assert_eq!(r(AtomicCannon, AtomicCannon), BothRemoved);
        assert_eq!(
            resolve(
                AtomicCannon.into(),
                Combatant::Landed(LandedShip::Battleship),
                CombatOptions::default()
            )
            .unwrap()
            .result,
            AttackerWins
        );
        assert_eq!(CombatRule::from_name("taiwan"), Some(CombatRule::Taiwan));
        assert_eq!(CombatRule::from_name("seed"), Some(CombatRule::Seed));
        assert_eq!(CombatRule::from_name("open"), None);
    }
}
