//! Rule options (RULES §9) and the rule set (board + mode + options).

use crate::types::{BoardKind, Mode, TeamMap, Teams};
use serde_json::{Map, Value};
use std::fmt;

macro_rules! option_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* #[doc = concat!("`", $text, "`")] $variant),+ }
        impl $name {
            /// Every value.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The interchange spelling.
            pub const fn name(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
            fn parse(s: &str) -> Option<$name> {
                match s { $($text => Some($name::$variant),)+ _ => None }
            }
            fn expected() -> String {
                [$($text),+].join(", ")
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.name()) }
        }
    };
}
pub(crate) use option_enum;

option_enum!(
    /// `middle_crossing`: whether two-player c6–c7 is a rail edge or a road edge only.
    MiddleCrossing { Rail = "rail", Road = "road" }
);
option_enum!(
    /// `landmine`: what happens to a non-engineer that hits a landmine.
    LandmineRule {
        /// 弹簧雷: the attacker dies, the landmine stays.
        AttackerDies = "attacker_dies",
        /// 炸弹雷: both die.
        BothDie = "both_die",
    }
);
option_enum!(
    /// `rail_turns`: whether non-engineers may turn on the rail.
    RailTurns { Straight = "straight", Any = "any" }
);
option_enum!(
    /// `hq_exit`: whether a piece in an HQ may leave it.
    HqExit { Locked = "locked", Free = "free" }
);
option_enum!(
    /// `win_by_flag`: flag captured on contact, or carried home (§9.1).
    WinByFlag { Capture = "capture", CarryHome = "carry_home" }
);
option_enum!(
    /// `blocked`: a seat with movable pieces but no legal action loses when its turn comes, is
    /// skipped, or (QQ) is put out at once, whoever is to move (RULES §7.1 step 3).
    Blocked {
        /// Eliminated when its turn comes (reason `blocked`).
        Lose = "lose",
        /// Skipped, its skip count going up.
        Skip = "skip",
        /// Eliminated at step 3 of the referee's step after any other seat's action (QQ).
        OutAtOnce = "out_at_once",
    }
);
option_enum!(
    /// `turn_order`: multi-seat turn order.
    TurnOrder { CounterClockwise = "counter_clockwise", Clockwise = "clockwise" }
);
option_enum!(
    /// `flip_colour`: how colours are settled in flip play.
    FlipColour { FirstFlip = "first_flip", FirstEngineer = "first_engineer" }
);
option_enum!(
    /// `losing_attacks`: whether an attack that must lose is a legal move.
    LosingAttacks { Forbidden = "forbidden", Allowed = "allowed" }
);

/// Every rule option, resolved to a value (RULES §9). Build with [`Options::defaults`] and
/// change fields, or parse with [`Options::from_json`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// `middle_crossing`.
    pub middle_crossing: MiddleCrossing,
    /// `landmine`.
    pub landmine: LandmineRule,
    /// `bomb_flies`: bombs move like engineers on the rail.
    pub bomb_flies: bool,
    /// `rail_turns`.
    pub rail_turns: RailTurns,
    /// `hq_exit` as set (see [`Rules::hq_locked`] for the effective value).
    pub hq_exit: HqExit,
    /// `reveal_flag_on_marshal_loss`.
    pub reveal_flag_on_marshal_loss: bool,
    /// `engineer_scout`.
    pub engineer_scout: bool,
    /// `win_by_flag` as set (see [`Rules::carry_home`]).
    pub win_by_flag: WinByFlag,
    /// `blocked`.
    pub blocked: Blocked,
    /// `turn_order`.
    pub turn_order: TurnOrder,
    /// `teams` (§7.2): see [`Rules::teams`] for the teams it gives.
    pub teams: Teams,
    /// `flip_colour`.
    pub flip_colour: FlipColour,
    /// `losing_attacks`.
    pub losing_attacks: LosingAttacks,
    /// `flag_guarded_by_mines`.
    pub flag_guarded_by_mines: bool,
    /// `quiet_plies`: plies without attack or flip before a draw.
    pub quiet_plies: u32,
    /// `max_plies`: plies before a draw.
    pub max_plies: u32,
}

/// The names of every option, in the order of RULES §9.
pub const OPTION_NAMES: [&str; 16] = [
    "middle_crossing",
    "landmine",
    "bomb_flies",
    "rail_turns",
    "hq_exit",
    "reveal_flag_on_marshal_loss",
    "engineer_scout",
    "win_by_flag",
    "blocked",
    "turn_order",
    "teams",
    "flip_colour",
    "losing_attacks",
    "flag_guarded_by_mines",
    "quiet_plies",
    "max_plies",
];

impl Options {
    /// The defaults of RULES §9 for a board and mode.
    pub fn defaults(board: BoardKind, mode: Mode) -> Options {
        let multi = board.is_multi_seat();
        let flip = mode == Mode::Flip;
        Options {
            middle_crossing: MiddleCrossing::Rail,
            landmine: LandmineRule::AttackerDies,
            bomb_flies: false,
            rail_turns: RailTurns::Straight,
            hq_exit: HqExit::Locked,
            reveal_flag_on_marshal_loss: true,
            engineer_scout: false,
            win_by_flag: WinByFlag::Capture,
            blocked: if multi && !flip {
                Blocked::Skip
            } else {
                Blocked::Lose
            },
            turn_order: TurnOrder::CounterClockwise,
            teams: Teams::default_for(board),
            flip_colour: FlipColour::FirstFlip,
            losing_attacks: if flip {
                LosingAttacks::Forbidden
            } else {
                LosingAttacks::Allowed
            },
            flag_guarded_by_mines: flip,
            quiet_plies: match board {
                BoardKind::TwoPlayer => 70,
                BoardKind::ThreePlayer => 105,
                BoardKind::FourPlayer => 140,
                BoardKind::SixPlayer => 210,
            },
            max_plies: 2000,
        }
    }

    /// Set one option from its interchange name and JSON value.
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), String> {
        fn text<'a>(name: &str, v: &'a Value) -> Result<&'a str, String> {
            v.as_str()
                .ok_or_else(|| format!("option {name} must be a string, got {v}"))
        }
        fn boolean(name: &str, v: &Value) -> Result<bool, String> {
            v.as_bool()
                .ok_or_else(|| format!("option {name} must be true or false, got {v}"))
        }
        fn count(name: &str, v: &Value) -> Result<u32, String> {
            v.as_u64()
                .filter(|&n| n <= u32::MAX as u64)
                .map(|n| n as u32)
                .ok_or_else(|| format!("option {name} must be a non-negative integer, got {v}"))
        }
        // A draw limit of 0 would end the game before its first move.
        fn limit(name: &str, v: &Value) -> Result<u32, String> {
            match count(name, v)? {
                0 => Err(format!(
                    "option {name} must be at least 1 (a limit of 0 would draw the game before its first move)"
                )),
                n => Ok(n),
            }
        }
        macro_rules! pick {
            ($ty:ident) => {{
                let s = text(name, value)?;
                $ty::parse(s).ok_or_else(|| {
                    format!(
                        "option {name} has no value {s:?} (expected one of {})",
                        $ty::expected()
                    )
                })?
            }};
        }
        match name {
            "middle_crossing" => self.middle_crossing = pick!(MiddleCrossing),
            "landmine" => self.landmine = pick!(LandmineRule),
            "bomb_flies" => self.bomb_flies = boolean(name, value)?,
            "rail_turns" => self.rail_turns = pick!(RailTurns),
            "hq_exit" => self.hq_exit = pick!(HqExit),
            "reveal_flag_on_marshal_loss" => {
                self.reveal_flag_on_marshal_loss = boolean(name, value)?
            }
            "engineer_scout" => self.engineer_scout = boolean(name, value)?,
            "win_by_flag" => self.win_by_flag = pick!(WinByFlag),
            "blocked" => self.blocked = pick!(Blocked),
            "turn_order" => self.turn_order = pick!(TurnOrder),
            "teams" => {
                let s = text(name, value)?;
                self.teams = s.parse().map_err(|_| {
                    format!("option teams has no value {s:?} (expected one of alternate, opposite, none)")
                })?
            }
            "flip_colour" => self.flip_colour = pick!(FlipColour),
            "losing_attacks" => self.losing_attacks = pick!(LosingAttacks),
            "flag_guarded_by_mines" => self.flag_guarded_by_mines = boolean(name, value)?,
            "quiet_plies" => self.quiet_plies = limit(name, value)?,
            "max_plies" => self.max_plies = limit(name, value)?,
            _ => {
                return Err(format!(
                    "unknown option {name:?} (known options: {})",
                    OPTION_NAMES.join(", ")
                ))
            }
        }
        Ok(())
    }

    /// The value of one option as JSON.
    pub fn get(&self, name: &str) -> Option<Value> {
        Some(match name {
            "middle_crossing" => self.middle_crossing.name().into(),
            "landmine" => self.landmine.name().into(),
            "bomb_flies" => self.bomb_flies.into(),
            "rail_turns" => self.rail_turns.name().into(),
            "hq_exit" => self.hq_exit.name().into(),
            "reveal_flag_on_marshal_loss" => self.reveal_flag_on_marshal_loss.into(),
            "engineer_scout" => self.engineer_scout.into(),
            "win_by_flag" => self.win_by_flag.name().into(),
            "blocked" => self.blocked.name().into(),
            "turn_order" => self.turn_order.name().into(),
            "teams" => self.teams.name().into(),
            "flip_colour" => self.flip_colour.name().into(),
            "losing_attacks" => self.losing_attacks.name().into(),
            "flag_guarded_by_mines" => self.flag_guarded_by_mines.into(),
            "quiet_plies" => self.quiet_plies.into(),
            "max_plies" => self.max_plies.into(),
            _ => return None,
        })
    }

    /// Options for a board and mode from a JSON object holding any subset of §9 (absent options
    /// take their defaults). `None` or JSON `null` means all defaults. The object may also name
    /// a preset (`"preset": "qq"`, RULES §10.1): its options are the starting point, and the
    /// other fields change them. Only the options are resolved here; the preset's table rules
    /// are [`crate::preset::Preset::table_rules`].
    pub fn from_json(
        board: BoardKind,
        mode: Mode,
        json: Option<&Value>,
    ) -> Result<Options, String> {
        let (json, preset) = crate::preset::split_preset(json, board.name())?;
        let mut o = match preset {
            Some(p) => p.options(board, mode)?,
            None => Options::defaults(board, mode),
        };
        match json.as_ref() {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                for (k, v) in map {
                    o.set(k, v)?;
                }
            }
            Some(other) => return Err(format!("options must be a JSON object, got {other}")),
        }
        Ok(o)
    }

    /// The options that differ from the defaults of this board and mode, as a JSON object.
    pub fn to_json(&self, board: BoardKind, mode: Mode) -> Map<String, Value> {
        let d = Options::defaults(board, mode);
        let mut m = Map::new();
        for name in OPTION_NAMES {
            let (v, dv) = (self.get(name), d.get(name));
            if v != dv {
                m.insert(name.to_string(), v.expect("known option"));
            }
        }
        m
    }
}

/// Every board's teams under every value of the option, indexed by `BoardKind as usize` and
/// `Teams as usize` (the enums' declaration order).
const TEAM_MAPS: [[TeamMap; 3]; 4] = {
    const fn row(board: BoardKind) -> [TeamMap; 3] {
        [
            TeamMap::new(board, Teams::Alternate),
            TeamMap::new(board, Teams::Opposite),
            TeamMap::new(board, Teams::None),
        ]
    }
    [
        row(BoardKind::TwoPlayer),
        row(BoardKind::ThreePlayer),
        row(BoardKind::FourPlayer),
        row(BoardKind::SixPlayer),
    ]
};

/// A rule set: board, mode and options (RULES §9). Part of every position and record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The board.
    pub board: BoardKind,
    /// The mode.
    pub mode: Mode,
    /// The options as set.
    pub options: Options,
}

impl Rules {
    /// A rule set; rejects a mode that does not exist on the board, `teams` other than `none`
    /// on the three-player board, and half-open play without teams.
    pub fn new(board: BoardKind, mode: Mode, options: Options) -> Result<Rules, String> {
        if !mode.allowed_on(board) {
            return Err(format!(
                "mode {mode} is not played on the {board} board (half_open is played on four_player and six_player, flip on two_player only)"
            ));
        }
        if !options.teams.allowed_on(board) {
            return Err(format!(
                "teams {} is not played on the {board} board (every seat plays for itself there: teams must be none)",
                options.teams
            ));
        }
        if mode == Mode::HalfOpen && options.teams == Teams::None {
            return Err(
                "mode half_open needs teams (teammates see each other): it is not played with teams none"
                    .to_string(),
            );
        }
        Ok(Rules {
            board,
            mode,
            options,
        })
    }

    /// The default rules of a board and mode.
    pub fn defaults(board: BoardKind, mode: Mode) -> Result<Rules, String> {
        Rules::new(board, mode, Options::defaults(board, mode))
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        self.board.seats()
    }

    /// The teams of the game (§7.2): from the option `teams` on the four- and six-player boards;
    /// every seat alone on the two- and three-player boards.
    /// Looked up in a table built at compile time: the move generator and the bots ask at
    /// every step.
    #[inline(always)]
    pub fn teams(&self) -> TeamMap {
        let teams = match self.board {
            BoardKind::FourPlayer | BoardKind::SixPlayer => self.options.teams,
            BoardKind::TwoPlayer | BoardKind::ThreePlayer => Teams::None,
        };
        TEAM_MAPS[self.board as usize][teams as usize]
    }

    /// Whether flip play.
    pub fn is_flip(&self) -> bool {
        self.mode == Mode::Flip
    }

    /// Whether the flag is carried home (§9.1); never in flip play.
    pub fn carry_home(&self) -> bool {
        self.options.win_by_flag == WinByFlag::CarryHome && !self.is_flip()
    }

    /// Whether pieces in an HQ are locked there: `hq_exit = locked`, except in flip play and
    /// under `carry_home`, which imply `free`.
    pub fn hq_locked(&self) -> bool {
        self.options.hq_exit == HqExit::Locked && !self.is_flip() && !self.carry_home()
    }

    /// Whether two-player c6–c7 is rail.
    pub fn middle_rail(&self) -> bool {
        self.options.middle_crossing == MiddleCrossing::Rail
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_team_table_is_the_team_map() {
        for board in BoardKind::ALL {
            for teams in Teams::ALL {
                let mut o = Options::defaults(board, Mode::Dark);
                o.teams = teams;
                let r = Rules {
                    board,
                    mode: Mode::Dark,
                    options: o,
                };
                let want = match board {
                    BoardKind::FourPlayer | BoardKind::SixPlayer => TeamMap::new(board, teams),
                    _ => TeamMap::new(board, Teams::None),
                };
                assert_eq!(r.teams(), want, "{board} {teams}");
            }
        }
    }

    #[test]
    fn defaults_depend_on_board_and_mode() {
        let two = Options::defaults(BoardKind::TwoPlayer, Mode::Dark);
        let four = Options::defaults(BoardKind::FourPlayer, Mode::Dark);
        let flip = Options::defaults(BoardKind::TwoPlayer, Mode::Flip);
        assert_eq!(
            (two.blocked, four.blocked, flip.blocked),
            (Blocked::Lose, Blocked::Skip, Blocked::Lose)
        );
        assert_eq!((two.quiet_plies, four.quiet_plies), (70, 140));
        assert_eq!(flip.losing_attacks, LosingAttacks::Forbidden);
        assert!(flip.flag_guarded_by_mines && !two.flag_guarded_by_mines);
    }

    #[test]
    fn parse_and_errors() {
        let o = Options::from_json(
            BoardKind::TwoPlayer,
            Mode::Dark,
            Some(&json!({"landmine": "both_die", "bomb_flies": true, "quiet_plies": 10})),
        )
        .unwrap();
        assert_eq!(o.landmine, LandmineRule::BothDie);
        assert!(o.bomb_flies);
        assert_eq!(o.quiet_plies, 10);
        let j = o.to_json(BoardKind::TwoPlayer, Mode::Dark);
        assert_eq!(
            Value::Object(j),
            json!({"landmine": "both_die", "bomb_flies": true, "quiet_plies": 10})
        );
        let e = Options::from_json(BoardKind::TwoPlayer, Mode::Dark, Some(&json!({"fog": 1})))
            .unwrap_err();
        assert!(e.contains("unknown option \"fog\""), "{e}");
        let e = Options::from_json(
            BoardKind::TwoPlayer,
            Mode::Dark,
            Some(&json!({"bomb_flies": "yes"})),
        )
        .unwrap_err();
        assert!(e.contains("bomb_flies"), "{e}");
        let e = Options::from_json(
            BoardKind::TwoPlayer,
            Mode::Dark,
            Some(&json!({"landmine": "x"})),
        )
        .unwrap_err();
        assert!(e.contains("attacker_dies"), "{e}");
        assert!(Rules::defaults(BoardKind::TwoPlayer, Mode::HalfOpen).is_err());
        assert!(Rules::defaults(BoardKind::FourPlayer, Mode::Flip).is_err());
    }

    #[test]
    fn draw_limits_of_zero_are_refused() {
        for name in ["max_plies", "quiet_plies"] {
            let e = Options::from_json(BoardKind::TwoPlayer, Mode::Dark, Some(&json!({name: 0})))
                .unwrap_err();
            assert!(e.contains(name) && e.contains("at least 1"), "{e}");
            let o = Options::from_json(BoardKind::TwoPlayer, Mode::Dark, Some(&json!({name: 1})))
                .unwrap();
            assert_eq!(
                if name == "max_plies" {
                    o.max_plies
                } else {
                    o.quiet_plies
                },
                1
            );
        }
    }

    #[test]
    fn effective_hq_lock() {
        let mut r = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        assert!(r.hq_locked());
        r.options.win_by_flag = WinByFlag::CarryHome;
        assert!(!r.hq_locked() && r.carry_home());
        let f = Rules::defaults(BoardKind::TwoPlayer, Mode::Flip).unwrap();
        assert!(!f.hq_locked());
    }
}
