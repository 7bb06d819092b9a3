//! The `--board`, `--mode`, `--preset` and `--options` arguments shared by every command that
//! plays games.

use anyhow::Result;
use junqi_core::{BoardKind, Mode, Options, Preset, Rules, TableRules};

/// Board, mode and rule options from the command line.
#[derive(clap::Args, Debug, Clone)]
pub struct RulesArgs {
    /// two_player, three_player, four_player, six_player or land_sea_air (selfplay, perft and
    /// arena).
    #[arg(long, default_value = "two_player")]
    pub board: String,
    /// dark, open, half_open (four- and six-player, with teams) or flip (two-player).
    #[arg(long, default_value = "dark")]
    pub mode: String,
    /// A rule preset (RULES §10.1): standard, qq (two- and four-player: QQ's rules) or taiwan
    /// (land_sea_air); --options then changes it. The same as --options '{"preset":"..."}'.
    #[arg(long)]
    pub preset: Option<String>,
    /// Rule options as a JSON object, e.g. '{"landmine":"both_die"}'.
    #[arg(long)]
    pub options: Option<String>,
    /// The option teams (RULES §7.2): alternate, opposite or none; the same as
    /// --options '{"teams":"..."}'.
    #[arg(long)]
    pub teams: Option<String>,
}

impl RulesArgs {
    /// The rule set these arguments name, or a clear error.
    pub fn rules(&self) -> Result<Rules> {
        parse_rules(&self.board, &self.mode, self.options_json()?.as_deref())
    }

    /// The options JSON of `--options` with `teams` from `--teams` and `preset` from `--preset`
    /// added (an error where `--options` names another value).
    pub fn options_json(&self) -> Result<Option<String>> {
        let options = with_field(self.options.as_deref(), "teams", self.teams.as_deref())?;
        with_field(options.as_deref(), "preset", self.preset.as_deref())
    }

    /// The table rules of `--preset` (RULES §10: QQ's leaver's partner plays on), which a
    /// game's record keeps; the defaults without a preset.
    pub fn table_rules(&self) -> Result<TableRules> {
        Ok(match &self.preset {
            Some(p) => Preset::from_name(p, &self.board)
                .map_err(anyhow::Error::msg)?
                .table_rules(),
            None => TableRules::default(),
        })
    }
}

/// The options JSON with `field` added from its own flag (an error if `--options` names another
/// value).
fn with_field(options: Option<&str>, field: &str, value: Option<&str>) -> Result<Option<String>> {
    let Some(value) = value else {
        return Ok(options.map(str::to_string));
    };
    let mut map = match options {
        Some(s) => match serde_json::from_str::<serde_json::Value>(s) {
            Ok(serde_json::Value::Object(m)) => m,
            Ok(_) => anyhow::bail!("--options must be a JSON object"),
            Err(e) => anyhow::bail!("--options is not JSON: {e}"),
        },
        None => serde_json::Map::new(),
    };
    match map.get(field) {
        Some(v) if v.as_str() != Some(value) => {
            anyhow::bail!("--{field} {value} and --options {field} {v} disagree")
        }
        _ => {
            map.insert(field.into(), serde_json::Value::String(value.into()));
        }
    }
    Ok(Some(serde_json::Value::Object(map).to_string()))
}

/// Parse board, mode and options into a rule set.
pub fn parse_rules(board: &str, mode: &str, options: Option<&str>) -> Result<Rules> {
    let board: BoardKind = board.parse().map_err(anyhow::Error::msg)?;
    let mode: Mode = mode.parse().map_err(anyhow::Error::msg)?;
    let json = match options {
        Some(s) => Some(
            serde_json::from_str::<serde_json::Value>(s)
                .map_err(|e| anyhow::anyhow!("--options is not JSON: {e}"))?,
        ),
        None => None,
    };
    let opts = Options::from_json(board, mode, json.as_ref()).map_err(anyhow::Error::msg)?;
    Rules::new(board, mode, opts).map_err(anyhow::Error::msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::{BoardKind, SeatSet};

    fn args(board: &str, options: Option<&str>, teams: Option<&str>) -> RulesArgs {
        RulesArgs {
            board: board.into(),
            mode: "dark".into(),
            preset: None,
            options: options.map(str::to_string),
            teams: teams.map(str::to_string),
        }
    }

    #[test]
    fn preset_from_the_flag_changed_by_the_options() {
        use junqi_core::options::Blocked;
        let mut a = args("four_player", Some(r#"{"quiet_plies":90}"#), None);
        a.preset = Some("qq".into());
        let r = a.rules().unwrap();
        assert_eq!(
            (r.options.blocked, r.options.quiet_plies),
            (Blocked::OutAtOnce, 90)
        );
        assert_eq!(
            a.table_rules().unwrap().leaver,
            junqi_core::Leaver::PartnerPlaysOn
        );
        a.options = None;
        assert_eq!(a.rules().unwrap().options.quiet_plies, 71);
        a.options = Some(r#"{"preset":"standard"}"#.into());
        let e = a.rules().unwrap_err().to_string();
        assert!(e.contains("--preset qq and --options preset"), "{e}");
        let mut b = args("six_player", None, None);
        b.preset = Some("qq".into());
        let e = b.rules().unwrap_err().to_string();
        assert!(e.contains("not played on the six_player board"), "{e}");
        assert!(b.table_rules().is_err());
    }

    #[test]
    fn teams_from_the_flag_or_the_options() {
        let r = args("six_player", None, Some("opposite")).rules().unwrap();
        assert_eq!(r.board, BoardKind::SixPlayer);
        assert_eq!(r.teams().mates(1), SeatSet(0b010010));
        let r = args("six_player", Some(r#"{"teams":"none"}"#), None)
            .rules()
            .unwrap();
        assert!(!r.teams().has_teammates());
        let r = args(
            "six_player",
            Some(r#"{"landmine":"both_die"}"#),
            Some("none"),
        )
        .rules()
        .unwrap();
        assert_eq!(r.teams().count(), 6);
        // Defaults: alternate on six seats, none on three.
        assert_eq!(
            args("six_player", None, None)
                .rules()
                .unwrap()
                .teams()
                .count(),
            2
        );
        assert_eq!(
            args("three_player", None, None)
                .rules()
                .unwrap()
                .teams()
                .count(),
            3
        );
        for bad in [
            args("six_player", Some(r#"{"teams":"none"}"#), Some("opposite")),
            args("three_player", None, Some("alternate")),
            args("six_player", None, Some("pairs")),
            args("six_player", Some("[1]"), Some("none")),
        ] {
            assert!(bad.rules().is_err(), "{bad:?}");
        }
    }
}
