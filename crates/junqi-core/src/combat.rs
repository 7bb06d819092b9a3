//! Combat (RULES §5, with `landmine`, `engineer_scout` and `carry_home` of §9).

use crate::event::AttackResult;
use crate::options::{LandmineRule, Rules};
use crate::role::Role;

/// What an attack does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The announced result.
    pub result: AttackResult,
    /// Whether the attacker stays on the board (and takes the defender's square if the defender
    /// is gone).
    pub attacker_survives: bool,
    /// Whether the defender stays on the board. A captured flag does not (it is removed, or
    /// carried under `carry_home`).
    pub defender_survives: bool,
    /// Whether the defender's identity is announced (`engineer_scout`).
    pub scouted: bool,
}

const fn r(result: AttackResult, attacker_survives: bool, defender_survives: bool) -> Resolution {
    Resolution {
        result,
        attacker_survives,
        defender_survives,
        scouted: false,
    }
}

/// Resolve an attack of `attacker` onto `defender` under `rules`.
pub fn resolve(rules: &Rules, attacker: Role, defender: Role) -> Resolution {
    use AttackResult::*;
    if defender == Role::Flag {
        return if attacker == Role::Bomb {
            if rules.carry_home() {
                // §9.1: a bomb that attacks a flag is removed and the flag stays.
                r(DefenderWins, false, true)
            } else {
                r(FlagCaptured, false, false)
            }
        } else {
            r(FlagCaptured, true, false)
        };
    }
    let scout =
        rules.options.engineer_scout && attacker == Role::Engineer && defender != Role::Landmine;
    if attacker == Role::Bomb || defender == Role::Bomb {
        return Resolution {
            scouted: scout,
            ..r(BothRemoved, false, false)
        };
    }
    if defender == Role::Landmine {
        return if attacker == Role::Engineer {
            r(AttackerWins, true, false)
        } else if rules.options.landmine == LandmineRule::BothDie {
            r(BothRemoved, false, false)
        } else {
            r(DefenderWins, false, true)
        };
    }
    if scout {
        return Resolution {
            scouted: true,
            ..r(DefenderWins, false, true)
        };
    }
    let (a, d) = (
        attacker.rank().expect("ranked"),
        defender.rank().expect("ranked"),
    );
    match a.cmp(&d) {
        std::cmp::Ordering::Greater => r(AttackerWins, true, false),
        std::cmp::Ordering::Less => r(DefenderWins, false, true),
        std::cmp::Ordering::Equal => r(BothRemoved, false, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::WinByFlag;
    use crate::types::{BoardKind, Mode};
    use AttackResult::*;

    fn rules() -> Rules {
        Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap()
    }

    #[test]
    fn table_of_section_5() {
        let r = rules();
        assert_eq!(
            resolve(&r, Role::Marshal, Role::General).result,
            AttackerWins
        );
        assert_eq!(resolve(&r, Role::Captain, Role::Major).result, DefenderWins);
        assert_eq!(
            resolve(&r, Role::Colonel, Role::Colonel).result,
            BothRemoved
        );
        assert_eq!(resolve(&r, Role::Bomb, Role::Marshal).result, BothRemoved);
        assert_eq!(resolve(&r, Role::Engineer, Role::Bomb).result, BothRemoved);
        assert_eq!(resolve(&r, Role::Bomb, Role::Landmine).result, BothRemoved);
        assert_eq!(
            resolve(&r, Role::Engineer, Role::Landmine).result,
            AttackerWins
        );
        assert_eq!(
            resolve(&r, Role::Marshal, Role::Landmine).result,
            DefenderWins
        );
        let f = resolve(&r, Role::Engineer, Role::Flag);
        assert_eq!(
            (f.result, f.attacker_survives, f.defender_survives),
            (FlagCaptured, true, false)
        );
        let b = resolve(&r, Role::Bomb, Role::Flag);
        assert_eq!((b.result, b.attacker_survives), (FlagCaptured, false));
    }

    #[test]
    fn options_change_combat() {
        let mut r = rules();
        r.options.landmine = LandmineRule::BothDie;
        assert_eq!(
            resolve(&r, Role::Marshal, Role::Landmine).result,
            BothRemoved
        );
        let mut r = rules();
        r.options.engineer_scout = true;
        let s = resolve(&r, Role::Engineer, Role::Lieutenant);
        assert_eq!((s.result, s.scouted), (DefenderWins, true));
        let s = resolve(&r, Role::Engineer, Role::Engineer);
        assert_eq!((s.result, s.scouted), (DefenderWins, true));
        let s = resolve(&r, Role::Engineer, Role::Bomb);
        assert_eq!((s.result, s.scouted), (BothRemoved, true));
        let s = resolve(&r, Role::Engineer, Role::Landmine);
        assert_eq!((s.result, s.scouted), (AttackerWins, false));
        let mut r = rules();
        r.options.win_by_flag = WinByFlag::CarryHome;
        assert_eq!(resolve(&r, Role::Bomb, Role::Flag).result, DefenderWins);
    }
}
