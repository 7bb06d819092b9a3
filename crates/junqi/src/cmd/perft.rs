//! `junqi perft`: count the action sequences of a given depth from a JSON position.

use anyhow::{Context, Result};
use junqi_core::json::position_from_json;
use junqi_core::notation::action_to_text;
use junqi_core::playout::perft;
use std::io::Read;
use std::time::Instant;

/// Arguments of `junqi perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// A file holding the JSON position (RULES §11.1; LANDSEAAIR §10.2 for land_sea_air);
    /// standard input if absent.
    position: Option<std::path::PathBuf>,
    /// `land_sea_air`: count on that board; without a position file, from a random start
    /// (random deployments from --seed) instead of reading standard input.
    #[arg(long)]
    board: Option<String>,
    /// Seed of the random start (with --board land_sea_air and no position file).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Also print the count below each first action.
    #[arg(long)]
    divide: bool,
}

/// Run the command.
pub fn run(a: Args) -> Result<()> {
    let lsa_board = match a.board.as_deref() {
        None => false,
        Some(super::lsa::BOARD) => true,
        Some(other) => anyhow::bail!(
            "--board {other}: perft reads the board from the position; --board is for {} only",
            super::lsa::BOARD
        ),
    };
    if lsa_board && a.position.is_none() {
        let pos = super::lsa::perft_position(None, a.seed)?;
        return super::lsa::run_perft(&pos, a.depth, a.divide);
    }
    let text = match &a.position {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?
        }
        None => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s)?;
            s
        }
    };
    let v: serde_json::Value = serde_json::from_str(&text).context("the position is not JSON")?;
    if lsa_board || super::lsa::is_lsa(&v) {
        let pos = super::lsa::perft_position(Some(&text), a.seed)?;
        return super::lsa::run_perft(&pos, a.depth, a.divide);
    }
    let pos = position_from_json(&v).map_err(anyhow::Error::msg)?;
    let start = Instant::now();
    let total = if a.divide && a.depth > 0 {
        let mut total = 0;
        for act in pos.legal_actions() {
            let mut next = pos.clone();
            next.play_unchecked(act, &mut ());
            let n = perft(&next, a.depth - 1);
            println!("{} {n}", action_to_text(pos.topology(), act));
            total += n;
        }
        total
    } else {
        perft(&pos, a.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("perft {} {total}", a.depth);
    eprintln!(
        "{:.3} s, {:.0} nodes/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}
