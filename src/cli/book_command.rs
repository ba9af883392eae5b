//! `zugzwang book build|check`: make an opening book, and check one against fresh solves.

use super::args::SolveOptions;
use super::common::{human_bytes, CliError};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;
use zugzwang::book::build::{build, BuildProgress};
use zugzwang::book::{check_bookable, Book};
use zugzwang::game::{Bits, Connect4, Game};
use zugzwang::solver::games::game_over_score;
use zugzwang::solver::{Control, GameSpec, Mode, Question, Solver};

/// `book ...`.
#[derive(Subcommand)]
pub enum BookCommand {
    /// Solve every position of the first plies exactly and store the scores as a book.
    Build {
        #[command(subcommand)]
        game: BuildGame,
    },
    /// Check a book: its file, a sample of its scores against fresh solves, its hit rate.
    Check(CheckArgs),
}

/// The game of `book build` (Connect Four only: the 4x4x4 games' keys are hashes).
#[derive(Subcommand)]
pub enum BuildGame {
    /// Connect Four.
    Connect4(BuildConnect4),
}

/// `book build connect4 --plies N --table DIR`.
#[derive(Args)]
pub struct BuildConnect4 {
    /// Book every position of up to this many stones.
    #[arg(long)]
    plies: u32,
    /// The book's directory (created if missing).
    #[arg(long, value_name = "DIR")]
    table: PathBuf,
    /// Board size WIDTHxHEIGHT.
    #[arg(long, default_value = "7x6")]
    size: String,
    /// Memory for the searches' table (e.g. 1G; auto: Connect Four's default).
    #[arg(long, default_value = "auto")]
    mem: String,
    /// Search threads (0 = one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Stop after this much time (e.g. 10m): what was solved is kept, and the same command
    /// continues the build (exit status 3 until it is complete).
    #[arg(long, value_name = "DURATION")]
    time_limit: Option<String>,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
}

/// `book check DIR`.
#[derive(Args)]
pub struct CheckArgs {
    /// The book's directory.
    dir: PathBuf,
    /// Positions of the book (at random plies, reached by random moves) solved afresh and
    /// compared with their stored score.
    #[arg(long, default_value_t = 10)]
    sample: u32,
    /// Random games played to the end to measure how many of their positions the book
    /// analyses without search.
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Memory for the fresh solves' table.
    #[arg(long, default_value = "1G")]
    mem: String,
    /// Also time the analysis (book first, then search, as `serve` does with one thread) of
    /// every position of this ply (symmetric ones once), or of --time-sample random ones.
    #[arg(long, value_name = "PLY")]
    time_ply: Option<u32>,
    /// How many positions of --time-ply to time (0: all of them).
    #[arg(long, default_value_t = 0)]
    time_sample: u32,
}

/// Runs a `book` command.
pub fn run(command: &BookCommand) -> Result<i32, CliError> {
    match command {
        BookCommand::Build {
            game: BuildGame::Connect4(a),
        } => build_connect4(a),
        BookCommand::Check(a) => check(a),
    }
}

fn build_connect4(a: &BuildConnect4) -> Result<i32, CliError> {
    let spec = GameSpec::from_name("connect4", Some(&a.size))
        .map_err(|e| CliError::BadInput(e.to_string()))?;
    check_bookable(spec).map_err(|e| CliError::BadInput(e.to_string()))?;
    let options = SolveOptions {
        mem: a.mem.clone(),
        threads: a.threads,
        ..SolveOptions::default()
    };
    let config = options.config(spec)?;
    let control = Arc::new(Control::new());
    if let Some(t) = &a.time_limit {
        let limit = zugzwang::solver::budget::parse_duration(t)
            .map_err(|e| CliError::BadInput(format!("--time-limit: {e}")))?;
        let c = control.clone();
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            c.cancel();
        });
    }
    // Ctrl-C or SIGTERM stops like the time limit: the solved positions are kept for the next run
    super::signals::stop_on_signals(control.clone());
    let start = Instant::now();
    let mut last = Instant::now();
    let report = build(spec, a.plies, &a.table, config, &control, |p: BuildProgress| {
        if !a.quiet && (last.elapsed().as_secs() >= 5 || p.done == p.total) {
            last = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            let eta = secs / (p.done - p.resumed) as f64 * (p.total - p.done) as f64;
            eprintln!(
                "[{secs:>6.0} s] solved {} of {} positions at ply {}, {} nodes, about {eta:.0} s to go",
                p.done, p.total, a.plies, p.nodes
            );
        }
    })
    .map_err(book_error)?;
    println!(
        "book of connect4 {} up to ply {}: {} positions ({} searched, {} of them by earlier runs; {} nodes) in {:.1} s, {} in {}",
        spec.size(),
        a.plies,
        report.entries,
        report.searched,
        report.resumed,
        report.nodes,
        report.elapsed.as_secs_f64(),
        human_bytes(report.file_bytes),
        a.table.join(zugzwang::book::BOOK_FILE).display()
    );
    Ok(0)
}

fn book_error(e: zugzwang::book::BookError) -> CliError {
    match e {
        zugzwang::book::BookError::BadInput(s) => CliError::BadInput(s),
        e @ zugzwang::book::BookError::Stopped { .. } => CliError::Undecided(e.to_string()),
        e => CliError::Failed(e.to_string()),
    }
}

/// xorshift64: the random moves of `book check` (reproducible from the seed).
fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// A random legal move of `g` (not over).
fn random_move(g: &Connect4, x: &mut u64) -> u64 {
    let moves: Vec<u64> = Bits(g.playable()).collect();
    moves[(next(x) % moves.len() as u64) as usize]
}

fn check(a: &CheckArgs) -> Result<i32, CliError> {
    let book = Arc::new(Book::open(&a.dir).map_err(book_error)?);
    let spec = book.spec();
    let GameSpec::Connect4 { width, height } = spec else {
        return Err(CliError::BadInput("only Connect Four books exist".into()));
    };
    println!(
        "{}: connect4 {} up to ply {}, {} positions, {} (every checksum verified)",
        a.dir.display(),
        spec.size(),
        book.plies(),
        book.entries(),
        human_bytes(book.file_bytes())
    );
    let empty = Connect4::new(width, height).expect("a booked size");
    let mut x = a.seed.max(1);
    // fresh solves of random book positions
    let options = SolveOptions {
        mem: a.mem.clone(),
        ..SolveOptions::default()
    };
    let mut config = options.config(spec)?;
    config.mode = Mode::Strong;
    let mut wrong = 0;
    for i in 0..a.sample {
        let ply = (next(&mut x) % (u64::from(book.plies()) + 1)) as u32;
        let mut g = empty;
        while g.ply() < ply && game_over_score(&g).is_none() {
            g.play(random_move(&g, &mut x));
        }
        let stored = book
            .score(&g)
            .ok_or_else(|| CliError::Failed(format!("{} is missing from the book", g.to_text())))?;
        let t = Instant::now();
        let fresh = Solver::new(spec, config.clone())?
            .solve_position(&g, Question::Value, None, &Control::new())?
            .score;
        let ok = fresh == stored;
        wrong += u32::from(!ok);
        println!(
            "sample {:>3}: ply {:>2} {}: book {stored:>3}, fresh solve {fresh:>3} ({:.1} s) {}",
            i + 1,
            g.ply(),
            g.to_text(),
            t.elapsed().as_secs_f64(),
            if ok { "ok" } else { "MISMATCH" }
        );
    }
    // hit rate and speed over random games
    let solver = Solver::new(spec, config)?.with_book(book.clone())?;
    let mut solver = solver;
    let (mut asked, mut answered, mut micros) = (0u64, 0u64, 0u128);
    let mut slowest = 0u128;
    for _ in 0..a.games {
        let mut g = empty;
        while game_over_score(&g).is_none() {
            asked += 1;
            if book.move_scores(&g).is_some() {
                answered += 1;
                let t = Instant::now();
                let s = solver.solve_position(&g, Question::Analyze, None, &Control::new())?;
                let us = t.elapsed().as_micros();
                debug_assert!(s.from_book);
                micros += us;
                slowest = slowest.max(us);
            }
            g.play(random_move(&g, &mut x));
        }
    }
    println!(
        "random games: {} of {} positions ({:.1}%) analysed from the book, {:.0} us each on average, {} us at most",
        answered,
        asked,
        100.0 * answered as f64 / asked.max(1) as f64,
        micros as f64 / answered.max(1) as f64,
        slowest
    );
    if let Some(ply) = a.time_ply {
        time_analysis(
            &book,
            &mut config_for_timing(a, spec)?,
            ply,
            a.time_sample,
            &mut x,
        )?;
    }
    if wrong > 0 {
        return Err(CliError::Failed(format!(
            "{wrong} of {} sampled scores differ from a fresh solve",
            a.sample
        )));
    }
    println!("{} sampled scores match fresh solves", a.sample);
    Ok(0)
}

/// The configuration `serve` solves with by default: one thread, 512 MiB.
fn config_for_timing(
    a: &CheckArgs,
    spec: GameSpec,
) -> Result<zugzwang::solver::SolverConfig, CliError> {
    let options = SolveOptions {
        mem: a.mem.clone(),
        threads: Some(1),
        ..SolveOptions::default()
    };
    options.config(spec)
}

/// Times the analysis of the positions of `ply` (all symmetry classes, or `sample` random
/// ones), each by a fresh solver with the book, and prints the mean and the slowest.
fn time_analysis(
    book: &Arc<Book>,
    config: &mut zugzwang::solver::SolverConfig,
    ply: u32,
    sample: u32,
    x: &mut u64,
) -> Result<(), CliError> {
    let GameSpec::Connect4 { width, height } = book.spec() else {
        unreachable!("Connect Four books only")
    };
    let empty = Connect4::new(width, height).expect("a booked size");
    let mut positions: Vec<Connect4> = Vec::new();
    if sample == 0 {
        let mut level = vec![empty];
        for _ in 0..ply {
            let mut next = std::collections::HashMap::new();
            for g in &level {
                if game_over_score(g).is_some() {
                    continue;
                }
                for mv in Bits(g.playable()) {
                    let mut c = *g;
                    c.play(mv);
                    next.entry(c.key()).or_insert(c);
                }
            }
            level = next.into_values().collect();
        }
        positions = level
            .into_iter()
            .filter(|g| game_over_score(g).is_none())
            .collect();
    } else {
        while positions.len() < sample as usize {
            let mut g = empty;
            while g.ply() < ply && game_over_score(&g).is_none() {
                g.play(random_move(&g, x));
            }
            if g.ply() == ply && game_over_score(&g).is_none() {
                positions.push(g);
            }
        }
    }
    config.mode = Mode::Strong;
    let (mut total, mut slowest, mut worst) = (0.0f64, 0.0f64, String::new());
    for g in &positions {
        let mut solver = Solver::new(book.spec(), config.clone())?.with_book(book.clone())?;
        let t = Instant::now();
        solver.solve_position(g, Question::Analyze, None, &Control::new())?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        total += ms;
        if ms > slowest {
            slowest = ms;
            worst = g.to_text();
        }
    }
    println!(
        "analysis of {} positions of ply {ply}: {:.1} ms on average, {:.1} ms at most ({worst})",
        positions.len(),
        total / positions.len().max(1) as f64,
        slowest
    );
    Ok(())
}
