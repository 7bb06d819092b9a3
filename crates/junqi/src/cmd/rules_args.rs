//! The `--board`, `--mode` and `--options` arguments shared by every command that plays games.

use anyhow::Result;
use junqi_core::{BoardKind, Mode, Options, Rules};

/// Board, mode and rule options from the command line.
#[derive(clap::Args, Debug, Clone)]
pub struct RulesArgs {
    /// two_player or four_player.
    #[arg(long, default_value = "two_player")]
    pub board: String,
    /// dark, open, half_open (four-player) or flip (two-player).
    #[arg(long, default_value = "dark")]
    pub mode: String,
    /// Rule options as a JSON object, e.g. '{"landmine":"both_die"}'.
    #[arg(long)]
    pub options: Option<String>,
}

impl RulesArgs {
    /// The rule set these arguments name, or a clear error.
    pub fn rules(&self) -> Result<Rules> {
        parse_rules(&self.board, &self.mode, self.options.as_deref())
    }
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
