//! `junqi`: the command-line tool of the junqi project.

mod cmd;

use clap::{Parser, Subcommand};

/// Junqi (军棋) and four-player Junqi (四国军棋): rules queries, perft, self-play.
#[derive(Parser, Debug)]
#[command(name = "junqi", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Uniform-random self-play: games, plies, plies per second, results by reason.
    Selfplay(cmd::selfplay::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Selfplay(a) => cmd::selfplay::run(a),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}
