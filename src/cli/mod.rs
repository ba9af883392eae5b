//! Command-line parsing and dispatch. Each game's commands live in their own module.

mod common;
mod connect4;
mod runs;
mod table;

use clap::{Parser, Subcommand};

/// Exhaustive solver and proof tool for connection games with and without gravity.
#[derive(Parser)]
#[command(name = "zugzwang", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a position: value, exact score, best moves.
    Solve {
        #[command(subcommand)]
        game: SolveGame,
    },
    /// The exact score of every legal move of a position.
    Analyze {
        #[command(subcommand)]
        game: AnalyzeGame,
    },
    /// Print the results table (markdown) from the solve records in a directory.
    Runs(runs::RunsArgs),
    /// Inspect a position store directory (made by `solve ... --table DIR`).
    Table {
        #[command(subcommand)]
        command: table::TableCommand,
    },
}

#[derive(Subcommand)]
enum SolveGame {
    /// Connect Four (default 7x6).
    Connect4(connect4::SolveArgs),
}

#[derive(Subcommand)]
enum AnalyzeGame {
    /// Connect Four (default 7x6).
    Connect4(connect4::AnalyzeArgs),
}

/// Exit status for bad input (matches clap's own usage errors).
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit status when a batch found a score different from the expected one.
pub const EXIT_MISMATCH: i32 = 1;

/// Runs the command line; returns the process exit status.
pub fn run() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve {
            game: SolveGame::Connect4(args),
        } => connect4::solve(&args),
        Command::Analyze {
            game: AnalyzeGame::Connect4(args),
        } => connect4::analyze(&args),
        Command::Runs(args) => runs::runs(&args),
        Command::Table { command } => table::run(&command),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}
