//! Command-line parsing and reporting. Every game goes through one pipeline: arguments →
//! library request ([`zugzwang::solver`]) → answer → report and record. No game logic and no
//! game defaults live here.

mod args;
mod batch;
mod book_command;
mod common;
mod compare_command;
mod pack_command;
mod paused_search;
mod prove_command;
mod recheck;
mod report;
mod runs;
mod serve_command;
mod show;
mod signals;
mod table_command;

use args::GameArgs;
use clap::{Parser, Subcommand};
use common::{CliError, Progress};
use std::sync::Arc;
use zugzwang::solver::{Control, Question, Solver};

/// Exhaustive solver and proof tool for connection games with and without gravity.
#[derive(Parser)]
#[command(name = "zugzwang", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a position: value, exact score where asked, best moves.
    Solve {
        #[command(subcommand)]
        game: GameArgs,
    },
    /// The value of every legal move of a position.
    Analyze {
        #[command(subcommand)]
        game: GameArgs,
    },
    /// A position's value by the job-level proof search: a master and workers (threads, or MPI
    /// ranks with --mpi), resumable from --table.
    Prove(prove_command::ProveArgs),
    /// Print the results table (markdown) from the solve records in a directory.
    Runs(runs::RunsArgs),
    /// Inspect a position store directory (made by `solve ... --table DIR`).
    Table {
        #[command(subcommand)]
        command: table_command::TableCommand,
    },
    /// Opening books: the exact scores of every position of the first plies.
    Book {
        #[command(subcommand)]
        command: book_command::BookCommand,
    },
    /// Serve the web page (exact analysis, click to play) and its JSON API on localhost.
    Serve(serve_command::ServeArgs),
    /// Draw a position (4x4x4: the four levels side by side, threats and poisons marked).
    Show {
        #[command(subcommand)]
        game: show::ShowGame,
    },
}

/// Exit status for bad input (matches clap's own usage errors).
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit status when a batch found a score different from the expected one.
pub const EXIT_MISMATCH: i32 = 1;
/// Exit status when a solve stopped (time limit) before deciding the position.
pub const EXIT_UNDECIDED: i32 = 3;

/// Runs the command line; returns the process exit status.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return refuse_arguments(e),
    };
    let result = match cli.command {
        Command::Solve { game } => solve(&game, Question::Value),
        Command::Analyze { game } => solve(&game, Question::Analyze),
        Command::Prove(args) => prove_command::run(&args),
        Command::Runs(args) => runs::runs(&args),
        Command::Table { command } => table_command::run(&command),
        Command::Book { command } => book_command::run(&command),
        Command::Serve(args) => serve_command::run(&args),
        Command::Show { game } => show::show(&game),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

/// Help and version as clap prints them; any other argument error in one line (clap's first,
/// which names the argument and what is wrong) with exit status 2, like every other bad input.
fn refuse_arguments(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        _ => {
            let text = e.to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: bad arguments"));
            2
        }
    }
}

/// `solve` and `analyze` for every game: parse, ask the library, report, record.
fn solve(game: &GameArgs, question: Question) -> Result<i32, CliError> {
    let (spec, position, opts) = game.parts()?;
    if let Some(file) = &opts.batch {
        if question == Question::Analyze {
            return Err(CliError::BadInput("--batch works with solve only".into()));
        }
        return batch::run(spec, opts, file);
    }
    let request = opts.request(spec, position, question)?;
    let mut solver = opts.with_book(Solver::new(spec, request.config.clone())?)?;
    if let Some(dir) = &request.table {
        solver = match opts.save_every()? {
            Some(every) => solver.with_table_saving(dir, position, every)?,
            None => solver.with_table(dir, position)?,
        };
    }
    let control = Arc::new(Control::new());
    // Ctrl-C or SIGTERM stops the search like a time limit: the position store keeps what was
    // proved and the answer is "not decided" (exit status 3); a second one ends the process.
    signals::stop_on_signals(control.clone());
    let cpu0 = zugzwang::record::process_cpu_seconds();
    let solved = {
        let label = match question {
            Question::Value => "solving",
            Question::Analyze => "analyzing",
        };
        let _progress = Progress::start(label, control.clone(), opts.quiet);
        solver.solve(position, question, request.time_limit, &control)
    };
    let solution = solved?;
    let cpu = zugzwang::record::process_cpu_seconds() - cpu0;
    if opts.verbose {
        report::print_probes(&solution.probes);
    }
    report::print(&solution, opts.json);
    if let Some(dir) = &opts.record {
        report::record(dir, spec, &solution, cpu)?;
    }
    Ok(0)
}
