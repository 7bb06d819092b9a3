//! Piece roles (RULES §1): their counts, strengths, names and one-character codes.

use std::fmt;
use std::str::FromStr;

/// The role of a piece. The discriminant order is strongest ranked piece first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// 司令, strength 9.
    Marshal = 0,
    /// 军长, strength 8.
    General = 1,
    /// 师长, strength 7.
    MajorGeneral = 2,
    /// 旅长, strength 6.
    Brigadier = 3,
    /// 团长, strength 5.
    Colonel = 4,
    /// 营长, strength 4.
    Major = 5,
    /// 连长, strength 3.
    Captain = 6,
    /// 排长, strength 2.
    Lieutenant = 7,
    /// 工兵, strength 1; clears landmines and turns corners on the rail.
    Engineer = 8,
    /// 炸弹: removes itself and whatever it meets.
    Bomb = 9,
    /// 地雷: never moves; only an engineer clears it.
    Landmine = 10,
    /// 军旗: never moves; its capture eliminates its seat.
    Flag = 11,
}

impl Role {
    /// Every role, strongest ranked piece first.
    pub const ALL: [Role; 12] = [
        Role::Marshal,
        Role::General,
        Role::MajorGeneral,
        Role::Brigadier,
        Role::Colonel,
        Role::Major,
        Role::Captain,
        Role::Lieutenant,
        Role::Engineer,
        Role::Bomb,
        Role::Landmine,
        Role::Flag,
    ];

    /// Number of pieces of each role a seat has (indexed by `role as usize`); they sum to 25.
    pub const COUNTS: [u8; 12] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 2, 3, 1];

    /// Pieces per seat.
    pub const PIECES_PER_SEAT: usize = 25;

    /// The role with this index (`role as u8`), if any.
    pub const fn from_index(i: u8) -> Option<Role> {
        if i < 12 {
            Some(Role::ALL[i as usize])
        } else {
            None
        }
    }

    /// How many pieces of this role a seat starts with.
    pub const fn count(self) -> u8 {
        Role::COUNTS[self as usize]
    }

    /// Strength 9 (marshal) to 1 (engineer) for ranked pieces; `None` for bomb, landmine, flag.
    pub const fn rank(self) -> Option<u8> {
        match self {
            Role::Bomb | Role::Landmine | Role::Flag => None,
            r => Some(9 - r as u8),
        }
    }

    /// Whether pieces of this role can ever move (everything but landmines and flags).
    pub const fn is_movable(self) -> bool {
        !matches!(self, Role::Landmine | Role::Flag)
    }

    /// The spelling used in the interchange formats (RULES §1), e.g. `major_general`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Marshal => "marshal",
            Role::General => "general",
            Role::MajorGeneral => "major_general",
            Role::Brigadier => "brigadier",
            Role::Colonel => "colonel",
            Role::Major => "major",
            Role::Captain => "captain",
            Role::Lieutenant => "lieutenant",
            Role::Engineer => "engineer",
            Role::Bomb => "bomb",
            Role::Landmine => "landmine",
            Role::Flag => "flag",
        }
    }

    /// The Chinese name players know, e.g. 司令.
    pub const fn chinese(self) -> &'static str {
        match self {
            Role::Marshal => "司令",
            Role::General => "军长",
            Role::MajorGeneral => "师长",
            Role::Brigadier => "旅长",
            Role::Colonel => "团长",
            Role::Major => "营长",
            Role::Captain => "连长",
            Role::Lieutenant => "排长",
            Role::Engineer => "工兵",
            Role::Bomb => "炸弹",
            Role::Landmine => "地雷",
            Role::Flag => "军旗",
        }
    }

    /// One-character code used by the text formats: `9`…`1` for ranked pieces by strength,
    /// `B` bomb, `L` landmine, `F` flag.
    pub const fn code(self) -> char {
        match self {
            Role::Bomb => 'B',
            Role::Landmine => 'L',
            Role::Flag => 'F',
            r => (b'0' + (9 - r as u8)) as char,
        }
    }

    /// Inverse of [`Role::code`].
    pub fn from_code(c: char) -> Option<Role> {
        match c {
            'B' | 'b' => Some(Role::Bomb),
            'L' | 'l' => Some(Role::Landmine),
            'F' | 'f' => Some(Role::Flag),
            '1'..='9' => Role::from_index(b'9' - c as u8),
            _ => None,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for a role name that is not one of RULES §1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown role {0:?} (expected one of marshal, general, major_general, brigadier, colonel, major, captain, lieutenant, engineer, bomb, landmine, flag)")]
pub struct UnknownRole(pub String);

impl FromStr for Role {
    type Err = UnknownRole;
    fn from_str(s: &str) -> Result<Role, UnknownRole> {
        Role::ALL
            .iter()
            .copied()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownRole(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_sum_to_25() {
        assert_eq!(Role::COUNTS.iter().map(|&c| c as usize).sum::<usize>(), 25);
    }

    #[test]
    fn codes_and_names_round_trip() {
        for r in Role::ALL {
            assert_eq!(Role::from_code(r.code()), Some(r));
            assert_eq!(r.name().parse::<Role>(), Ok(r));
        }
        assert!("sapper".parse::<Role>().is_err());
        assert_eq!(Role::Marshal.rank(), Some(9));
        assert_eq!(Role::Engineer.rank(), Some(1));
        assert_eq!(Role::Bomb.rank(), None);
    }
}
