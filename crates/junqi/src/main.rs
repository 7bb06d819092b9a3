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
    Rules(cmd::rules::Args),
    /// Count action sequences to a depth from a JSON position.
    Perft(cmd::perft::Args),
    /// Uniform-random self-play: games, plies, plies per second, results by reason.
    Selfplay(cmd::selfplay::Args),
    /// A match between two bots (built-in or external engines): score, intervals, Elo, forfeits.
    Arena(cmd::arena::Args),
    /// Serve a bot over the engine protocol on stdin/stdout (docs/engine-protocol.md).
    Engine(cmd::engine::Args),
    /// Play against bots in the terminal.
    Play(cmd::play::Args),
    /// Run the server: lobby, tables, bots, persistence and the browser client in one process.
    Serve(cmd::serve::Args),
    /// Many concurrent bot-driven games against a running server: actions/s, p50/p99 round trip.
    Loadtest(cmd::loadtest::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rules(c) => cmd::rules::run(c),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Selfplay(a) => cmd::selfplay::run(a),
        Command::Arena(a) => cmd::arena::run(a),
        Command::Engine(a) => cmd::engine::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Loadtest(a) => cmd::loadtest::run(a),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}
