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
    /// Rules queries as JSON Lines filters (legal actions, applying an action).
    #[command(subcommand)]
    Rules(cmd::rules::RulesCommand),
    /// Count action sequences to a depth from a JSON position.
    Perft(cmd::perft::Args),
    /// Uniform-random self-play: games, plies, plies per second, results by reason.
    Selfplay(cmd::selfplay::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rules(c) => cmd::rules::run(c),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Selfplay(a) => cmd::selfplay::run(a),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}
