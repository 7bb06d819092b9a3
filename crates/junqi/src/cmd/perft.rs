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
    /// A file holding the JSON position (RULES §11.1); standard input if absent.
    position: Option<std::path::PathBuf>,
    /// Also print the count below each first action.
    #[arg(long)]
    divide: bool,
}

/// Run the command.
pub fn run(a: Args) -> Result<()> {
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
