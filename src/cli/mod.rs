//! Command-line parsing and dispatch. Each game's commands live in their own module.

mod common;
mod connect4;
mod cube;
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
    /// Draw a position (4x4x4: the four levels side by side, threats and poisons marked).
    Show {
        #[command(subcommand)]
        game: ShowGame,
    },
}

#[derive(Subcommand)]
enum ShowGame {
    /// Sogo (4x4x4 with gravity; -g poison rule, -q for Qubic).
    Sogo(cube::ShowArgs),
    /// Qubic (4x4x4 without gravity).
    Qubic(cube::ShowArgs),
}

#[derive(Subcommand)]
enum SolveGame {
    /// Connect Four (default 7x6).
    Connect4(connect4::SolveArgs),
    /// Sogo (4x4x4 with gravity; -g poison rule, -q for Qubic).
    Sogo(cube::SolveArgs),
    /// Qubic (4x4x4 without gravity).
    Qubic(cube::SolveArgs),
}

#[derive(Subcommand)]
enum AnalyzeGame {
    /// Connect Four (default 7x6).
    Connect4(connect4::AnalyzeArgs),
    /// Sogo (4x4x4 with gravity).
    Sogo(cube::SolveArgs),
    /// Qubic (4x4x4 without gravity).
    Qubic(cube::SolveArgs),
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
        Command::Solve {
            game: SolveGame::Sogo(args),
        } => cube::solve(&args, false),
        Command::Solve {
            game: SolveGame::Qubic(args),
        } => cube::solve(&args, true),
        Command::Analyze {
            game: AnalyzeGame::Sogo(args),
        } => cube::analyze(&args, false),
        Command::Analyze {
            game: AnalyzeGame::Qubic(args),
        } => cube::analyze(&args, true),
        Command::Show {
            game: ShowGame::Sogo(args),
        } => cube::show(&args, false),
        Command::Show {
            game: ShowGame::Qubic(args),
        } => cube::show(&args, true),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}
