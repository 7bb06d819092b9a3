//! `junqi engine`: serve one of our bots over the engine protocol on stdin/stdout
//! (`docs/engine-protocol.md`).

use anyhow::{anyhow, Result};
use junqi_ai::engine::{parse_budget, Engine};
use junqi_ai::{bot_by_name, bot_names};
use std::io::{self, BufWriter};

/// Arguments of `junqi engine`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The bot to serve (see `--bot` of `junqi arena` for the names).
    #[arg(long, default_value = "random")]
    bot: String,
    /// The budget of a `go` that names none: iterations:N, nodes:N or ms:N.
    #[arg(long)]
    budget: Option<String>,
}

/// Run the command: serve until `quit` or the end of input.
pub fn run(a: Args) -> Result<()> {
    let factory = bot_by_name(&a.bot).ok_or_else(|| {
        anyhow!(
            "unknown bot {:?} (known: {})",
            a.bot,
            bot_names().join(", ")
        )
    })?;
    let mut engine = Engine::new(factory());
    if let Some(b) = &a.budget {
        engine = engine.with_budget(parse_budget(b).map_err(anyhow::Error::msg)?);
    }
    let stdin = io::stdin();
    let stdout = io::stdout();
    match engine.serve(stdin.lock(), BufWriter::new(stdout.lock())) {
        Ok(()) => Ok(()),
        // The driver went away: nothing more to say.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(e.into()),
    }
}
