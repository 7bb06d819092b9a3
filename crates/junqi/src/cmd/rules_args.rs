//! The `--board`, `--mode` and `--options` arguments shared by every command that plays games.

use anyhow::Result;
use junqi_core::{BoardKind, Mode, Options, Rules};

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
        let options = with_teams(self.options.as_deref(), self.teams.as_deref())?;
        parse_rules(&self.board, &self.mode, options.as_deref())
    }
}

/// The options JSON with `teams` added from `--teams` (an error if `--options` names another
/// value).
fn with_teams(options: Option<&str>, teams: Option<&str>) -> Result<Option<String>> {
    let Some(teams) = teams else {
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
    match map.get("teams") {
        Some(v) if v.as_str() != Some(teams) => {
            anyhow::bail!("--teams {teams} and --options teams {v} disagree")
        }
        _ => {
            map.insert("teams".into(), serde_json::Value::String(teams.into()));
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
            options: options.map(str::to_string),
            teams: teams.map(str::to_string),
        }
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
