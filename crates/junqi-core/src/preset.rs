//! Rule presets (RULES §10.1) and the table rules a game record keeps (§10).
//!
//! A preset names a set of rule options and table rules: `standard` (the defaults), `qq` (the
//! QQ 四国军棋 platform's rules) and, on the land-sea-air board, `taiwan` (the Taiwanese rule
//! book). A preset is a way to choose; it is never what a record stores: records, positions and
//! tables keep the options it resolved to, so that a record replays the same whatever presets
//! become later. [`Preset::of`] names the preset a resolved rule set is, if any.

use crate::lsa;
use crate::options::{option_enum, Blocked, Options, Rules};
use crate::types::{BoardKind, Mode, Teams};
use serde_json::{Map, Value};
use std::fmt;

option_enum!(
    /// What a seat leaving a four-player game with teams for good does while its partner is
    /// still in the game (RULES §10). Elsewhere leaving always eliminates the seat (two-player:
    /// it loses), whatever this says.
    #[derive(Default)]
    Leaver {
        /// The game is aborted with no winner (the rule book's default).
        #[default]
        Abort = "abort",
        /// The leaver is eliminated (reason `left`) as after a resignation, and the partner
        /// plays on (QQ).
        PartnerPlaysOn = "partner_plays_on",
    }
);

/// The table rules (RULES §10) that the referee needs to replay a game, kept in its record.
/// The others (clocks, the resignation window, a bot taking a leaver's seat) decide when an
/// entry is made, not what it does, so records do not need them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TableRules {
    /// What leaving does while a partner is still in (four-player with teams).
    pub leaver: Leaver,
}

/// The names of the table rules a record keeps.
pub const TABLE_RULE_NAMES: [&str; 1] = ["leaver"];

impl TableRules {
    /// Set one table rule from its name and text value (a record's `table <name> <value>`).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "leaver" => {
                self.leaver = Leaver::parse(value).ok_or_else(|| {
                    format!(
                        "table rule leaver has no value {value:?} (expected one of {})",
                        Leaver::expected()
                    )
                })?
            }
            _ => {
                return Err(format!(
                    "unknown table rule {name:?} (known table rules: {})",
                    TABLE_RULE_NAMES.join(", ")
                ))
            }
        }
        Ok(())
    }

    /// The table rules that differ from the defaults, as `(name, value)` pairs.
    pub fn changed(&self) -> Vec<(&'static str, &'static str)> {
        let mut out = Vec::new();
        if self.leaver != Leaver::default() {
            out.push(("leaver", self.leaver.name()));
        }
        out
    }

    /// The table rules that differ from the defaults, as a JSON object.
    pub fn to_json(&self) -> Map<String, Value> {
        self.changed()
            .into_iter()
            .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
            .collect()
    }

    /// Read a JSON object of table rules (absent ones take their defaults; `null` means all).
    pub fn from_json(v: Option<&Value>) -> Result<TableRules, String> {
        let mut t = TableRules::default();
        match v {
            None | Some(Value::Null) => {}
            Some(Value::Object(m)) => {
                for (k, val) in m {
                    let s = val
                        .as_str()
                        .ok_or_else(|| format!("table rule {k} must be a string, got {val}"))?;
                    t.set(k, s)?;
                }
            }
            Some(other) => return Err(format!("table rules must be a JSON object, got {other}")),
        }
        Ok(t)
    }
}

option_enum!(
    /// A named set of rule options and table rules (RULES §10.1).
    Preset {
        /// The defaults of RULES §9 and §10 (LANDSEAAIR §9 on the land-sea-air board).
        Standard = "standard",
        /// QQ 四国军棋 (four-player) and QQ 两人 (two-player): RULES §10.1.
        Qq = "qq",
        /// 華雄 三軍戰鬪棋, the Taiwanese land-sea-air rules: the Taiwanese piece set, combat
        /// T1–T4 and the landmine that dies with its attacker (LANDSEAAIR §5.4, §9).
        Taiwan = "taiwan",
    }
);

/// The board name of 陆海空三军棋, where the presets are `standard` and `taiwan`.
const LSA_BOARD: &str = lsa::board::BOARD_NAME;

impl Preset {
    /// The presets of a board, by its interchange name (`two_player`, …, `land_sea_air`).
    pub fn for_board(board: &str) -> &'static [Preset] {
        match board {
            LSA_BOARD => &[Preset::Standard, Preset::Taiwan],
            "two_player" | "four_player" => &[Preset::Standard, Preset::Qq],
            _ => &[Preset::Standard],
        }
    }

    /// A preset by name, checked against the board it is for.
    pub fn from_name(name: &str, board: &str) -> Result<Preset, String> {
        let p = Preset::parse(name).ok_or_else(|| {
            format!(
                "no preset {name:?} (expected one of {})",
                Preset::expected()
            )
        })?;
        let allowed = Preset::for_board(board);
        if !allowed.contains(&p) {
            let names: Vec<&str> = allowed.iter().map(|p| p.name()).collect();
            return Err(format!(
                "the preset {name} is not played on the {board} board (its presets: {})",
                names.join(", ")
            ));
        }
        Ok(p)
    }

    /// The options of this preset on a 军棋 board and mode (an error for a preset the board
    /// does not have).
    pub fn options(self, board: BoardKind, mode: Mode) -> Result<Options, String> {
        Preset::from_name(self.name(), board.name())?;
        let mut o = Options::defaults(board, mode);
        if self == Preset::Qq {
            // RULES §10.1: the defaults already hold landmine attacker_dies, the flag revealed
            // by the marshal's loss, no scouting engineers, locked HQs, straight rail turns, no
            // flying bombs and capture on contact; they are set again so that the preset stays
            // QQ's should a default ever change.
            o.landmine = crate::options::LandmineRule::AttackerDies;
            o.reveal_flag_on_marshal_loss = true;
            o.engineer_scout = false;
            o.hq_exit = crate::options::HqExit::Locked;
            o.rail_turns = crate::options::RailTurns::Straight;
            o.bomb_flies = false;
            o.win_by_flag = crate::options::WinByFlag::Capture;
            if board == BoardKind::FourPlayer {
                o.blocked = Blocked::OutAtOnce;
                o.quiet_plies = 71;
                o.teams = Teams::Alternate;
            } else {
                // QQ 两人: the two-player board keeps `blocked = lose` and its quiet-ply
                // default (no recorded two-player QQ game has confirmed anything else).
                o.blocked = Blocked::Lose;
            }
        }
        Ok(o)
    }

    /// The land-sea-air options of this preset (an error for `qq`).
    pub fn lsa_options(self) -> Result<lsa::Options, String> {
        Preset::from_name(self.name(), LSA_BOARD)?;
        let mut o = lsa::Options::default();
        if self == Preset::Taiwan {
            o.piece_set = lsa::PieceSet::Taiwan;
            o.combat.combat = lsa::CombatRule::Taiwan;
            o.combat.landmine = crate::options::LandmineRule::BothDie;
        }
        Ok(o)
    }

    /// The table rules of this preset: QQ lets the leaver's partner play on.
    pub fn table_rules(self) -> TableRules {
        TableRules {
            leaver: match self {
                Preset::Qq => Leaver::PartnerPlaysOn,
                Preset::Standard | Preset::Taiwan => Leaver::Abort,
            },
        }
    }

    /// The preset a resolved 军棋 rule set and its table rules are, if any (`standard` first
    /// where two presets resolve the same, as on the two-player board, where QQ's rules are
    /// the defaults). Where leaving cannot abort a game (every board but the four-player one
    /// with teams) the table rule is not compared.
    pub fn of(rules: &Rules, table: &TableRules) -> Option<Preset> {
        let leaving_matters = rules.board == BoardKind::FourPlayer && rules.teams().has_teammates();
        Preset::for_board(rules.board.name())
            .iter()
            .copied()
            .find(|p| {
                p.options(rules.board, rules.mode).ok() == Some(rules.options)
                    && (!leaving_matters || p.table_rules() == *table)
            })
    }

    /// The preset land-sea-air options are, if any.
    pub fn of_lsa(options: &lsa::Options) -> Option<Preset> {
        Preset::for_board(LSA_BOARD)
            .iter()
            .copied()
            .find(|p| p.lsa_options().ok().as_ref() == Some(options))
    }
}

/// Take the `preset` field out of a JSON options object: the options object without it, and
/// the preset it names for this board (`None` when absent). Every options reader starts from
/// the preset, then applies the other fields over it, whatever their order.
pub fn split_preset(
    json: Option<&Value>,
    board: &str,
) -> Result<(Option<Value>, Option<Preset>), String> {
    match json {
        Some(Value::Object(m)) if m.contains_key("preset") => {
            let name = m["preset"]
                .as_str()
                .ok_or_else(|| format!("preset must be a string, got {}", m["preset"]))?;
            let preset = Preset::from_name(name, board)?;
            let mut rest = m.clone();
            rest.remove("preset");
            Ok((Some(Value::Object(rest)), Some(preset)))
        }
        other => Ok((other.cloned(), None)),
    }
}

/// An options object with `"preset": preset` put in (a separate preset argument: `--preset`,
/// a create request's `preset`, Python's `preset=`); an object that names another preset, or
/// options that are not an object, are refused.
pub fn with_preset(options: Option<&Value>, preset: &str) -> Result<Value, String> {
    let mut map = match options {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(other) => return Err(format!("options must be a JSON object, got {other}")),
    };
    match map.get("preset") {
        Some(v) if v.as_str() != Some(preset) => Err(format!(
            "preset {preset} and the options' preset {v} disagree"
        )),
        _ => {
            map.insert("preset".into(), Value::String(preset.to_string()));
            Ok(Value::Object(map))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn qq_on_four_players_is_rules_10_1() {
        let o = Preset::Qq
            .options(BoardKind::FourPlayer, Mode::Dark)
            .unwrap();
        let want = Options::from_json(
            BoardKind::FourPlayer,
            Mode::Dark,
            Some(&json!({"blocked": "out_at_once", "quiet_plies": 71})),
        )
        .unwrap();
        assert_eq!(o, want);
        assert_eq!(Preset::Qq.table_rules().leaver, Leaver::PartnerPlaysOn);
        // Two players: the defaults (QQ 两人 is not known to differ).
        let two = Preset::Qq
            .options(BoardKind::TwoPlayer, Mode::Dark)
            .unwrap();
        assert_eq!(two, Options::defaults(BoardKind::TwoPlayer, Mode::Dark));
    }

    #[test]
    fn presets_belong_to_boards() {
        for board in ["three_player", "six_player"] {
            let e = Preset::from_name("qq", board).unwrap_err();
            assert!(
                e.contains("not played on the") && e.contains("standard"),
                "{e}"
            );
        }
        assert!(Preset::Qq
            .options(BoardKind::SixPlayer, Mode::Dark)
            .is_err());
        assert!(Preset::Taiwan
            .options(BoardKind::TwoPlayer, Mode::Dark)
            .is_err());
        assert!(Preset::Qq.lsa_options().is_err());
        let e = Preset::from_name("QQ", "four_player").unwrap_err();
        assert!(e.contains("standard, qq, taiwan"), "{e}");
        let t = Preset::Taiwan.lsa_options().unwrap();
        assert_eq!(Preset::of_lsa(&t), Some(Preset::Taiwan));
        assert_eq!(
            Preset::of_lsa(&lsa::Options::default()),
            Some(Preset::Standard)
        );
    }

    #[test]
    fn a_resolved_rule_set_names_its_preset() {
        let four = |o: Options| Rules::new(BoardKind::FourPlayer, Mode::Dark, o).unwrap();
        let qq = Preset::Qq
            .options(BoardKind::FourPlayer, Mode::Dark)
            .unwrap();
        let qq_table = Preset::Qq.table_rules();
        assert_eq!(Preset::of(&four(qq), &qq_table), Some(Preset::Qq));
        // QQ's options without QQ's leaving rule are neither preset.
        assert_eq!(Preset::of(&four(qq), &TableRules::default()), None);
        let mut custom = qq;
        custom.quiet_plies = 80;
        assert_eq!(Preset::of(&four(custom), &qq_table), None);
        let std = Options::defaults(BoardKind::FourPlayer, Mode::Dark);
        assert_eq!(
            Preset::of(&four(std), &TableRules::default()),
            Some(Preset::Standard)
        );
        // Where leaving cannot abort, the table rule is not compared.
        let two = Rules::defaults(BoardKind::TwoPlayer, Mode::Dark).unwrap();
        assert_eq!(Preset::of(&two, &qq_table), Some(Preset::Standard));
    }

    #[test]
    fn table_rules_read_and_write() {
        let t = TableRules::from_json(Some(&json!({"leaver": "partner_plays_on"}))).unwrap();
        assert_eq!(t.leaver, Leaver::PartnerPlaysOn);
        assert_eq!(
            Value::Object(t.to_json()),
            json!({"leaver": "partner_plays_on"})
        );
        assert!(TableRules::default().to_json().is_empty());
        let e = TableRules::from_json(Some(&json!({"leaver": "stay"}))).unwrap_err();
        assert!(e.contains("abort, partner_plays_on"), "{e}");
        let e = TableRules::from_json(Some(&json!({"clock": "x"}))).unwrap_err();
        assert!(e.contains("unknown table rule"), "{e}");
        let e = TableRules::from_json(Some(&json!({"leaver": 1}))).unwrap_err();
        assert!(e.contains("must be a string"), "{e}");
    }

    #[test]
    fn the_preset_field_is_split_off() {
        let (rest, p) = split_preset(
            Some(&json!({"preset": "qq", "quiet_plies": 80})),
            "four_player",
        )
        .unwrap();
        assert_eq!(
            (rest, p),
            (Some(json!({"quiet_plies": 80})), Some(Preset::Qq))
        );
        let e = split_preset(Some(&json!({"preset": 1})), "four_player").unwrap_err();
        assert!(e.contains("preset must be a string"), "{e}");
        assert_eq!(split_preset(None, "two_player").unwrap(), (None, None));
    }
}
