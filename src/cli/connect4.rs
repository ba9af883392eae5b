//! `zugzwang solve connect4` and `zugzwang analyze connect4`.

use super::common::{
    check_memory_budget, make_table, parse_bytes, save_record, value_word, CliError, Progress,
};
use clap::Args;
use serde::Serialize;
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Instant;
use zugzwang::game::{Connect4, Game};
use zugzwang::record::{self, Record};
use zugzwang::search::{Depth, ParallelSolver, Probe, Searcher, Table};

/// Arguments of `solve connect4`.
#[derive(Args)]
pub struct SolveArgs {
    /// Moves from the empty board as 1-based column digits (e.g. 4453); empty = the start.
    #[arg(default_value = "")]
    moves: String,
    /// Board size WIDTHxHEIGHT; any size with WIDTH*(HEIGHT+1) <= 64.
    #[arg(long, default_value = "7x6")]
    size: String,
    /// Only decide win/draw/loss (faster).
    #[arg(long)]
    weak: bool,
    /// One JSON object per position.
    #[arg(long)]
    json: bool,
    /// Solve every line `moves [expected_score]` of FILE (`-` = stdin) and summarise.
    #[arg(long, value_name = "FILE")]
    batch: Option<String>,
    /// Write a record of the run (JSON) into this directory, e.g. solve-runs/.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// Memory for the transposition table (e.g. 512M, 4G; auto = a quarter of RAM, at most 8G).
    #[arg(long, default_value = "auto")]
    mem: String,
    /// Also print every null-window probe of the score search (test value, result, nodes).
    #[arg(long)]
    verbose: bool,
    /// Search threads sharing the table (0 = one per core). The value never depends on it.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Keep proven results in this store directory: a repeated or killed-and-restarted solve
    /// continues from it. Inspect it with `zugzwang table stats|check DIR`.
    #[arg(long, value_name = "DIR")]
    table: Option<PathBuf>,
}

/// Arguments of `analyze connect4`.
#[derive(Args)]
pub struct AnalyzeArgs {
    /// Moves from the empty board as 1-based column digits.
    #[arg(default_value = "")]
    moves: String,
    /// Board size WIDTHxHEIGHT.
    #[arg(long, default_value = "7x6")]
    size: String,
    /// Only decide win/draw/loss for each move.
    #[arg(long)]
    weak: bool,
    /// Output as JSON.
    #[arg(long)]
    json: bool,
    /// Memory for the transposition table (auto = a quarter of RAM, at most 8G).
    #[arg(long, default_value = "auto")]
    mem: String,
}

/// The answer for one position, as printed with `--json`. Field names are a public interface.
#[derive(Serialize)]
struct Solved {
    moves: String,
    size: String,
    score: i32,
    value: &'static str,
    best_moves: Vec<u32>,
    nodes: u64,
    micros: u64,
    weak: bool,
}

fn parse_size(text: &str) -> Result<(u32, u32), CliError> {
    let bad = || {
        CliError::BadInput(format!(
            "board size '{text}' is not of the form WIDTHxHEIGHT (e.g. 7x6)"
        ))
    };
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    Connect4::new(w, h).map_err(|e| CliError::BadInput(e.to_string()))?;
    Ok((w, h))
}

fn parse_position(size: (u32, u32), moves: &str) -> Result<Connect4, CliError> {
    let pos = Connect4::from_moves(size.0, size.1, moves)
        .map_err(|e| CliError::BadInput(format!("in '{moves}': {e}")))?;
    if pos.is_won() {
        return Err(CliError::BadInput(format!(
            "in '{moves}': the game is already won; nothing to solve"
        )));
    }
    if pos.ply() == pos.max_ply() {
        return Err(CliError::BadInput(format!(
            "in '{moves}': the board is full; nothing to solve"
        )));
    }
    Ok(pos)
}

fn depth_of(weak: bool) -> Depth {
    if weak {
        Depth::Weak
    } else {
        Depth::Strong
    }
}

/// The score driver's probes, one line each, on stderr.
fn print_probes(probes: &[Probe]) {
    for p in probes {
        let verdict = if p.result > p.test {
            "above"
        } else {
            "at most"
        };
        eprintln!(
            "probe: score > {:+}? {verdict} ({:+}), {} nodes",
            p.test, p.result, p.nodes
        );
    }
}

/// `solve connect4`.
pub fn solve(args: &SolveArgs) -> Result<i32, CliError> {
    let size = parse_size(&args.size)?;
    if let Some(file) = &args.batch {
        if args.table.is_some() {
            return Err(CliError::BadInput(
                "--table works with single solves, not with --batch".into(),
            ));
        }
        return batch(args, size, file);
    }
    let pos = parse_position(size, &args.moves)?;
    match &args.table {
        None => {
            let table = make_table(&args.mem)?;
            solve_and_report(args, size, &pos, &table, table.bytes() as u64)
        }
        Some(dir) => {
            let (store, bytes) = open_store(args, size, dir)?;
            let code = solve_and_report(args, size, &pos, &store, bytes)?;
            store
                .flush()
                .map_err(|e| CliError::Failed(format!("position store: {e}")))?;
            let st = store.stats();
            if !args.json {
                println!(
                    "table:      {}: {} runs, {} entries, {} disk hits",
                    dir.display(),
                    st.runs,
                    st.entries,
                    st.disk_hits
                );
            }
            Ok(code)
        }
    }
}

/// Opens (or creates) the position store of `solve connect4 --table DIR`; returns it with the
/// bytes of its memory layer.
fn open_store(
    args: &SolveArgs,
    size: (u32, u32),
    dir: &std::path::Path,
) -> Result<(zugzwang::store::Store, u64), CliError> {
    use zugzwang::store::{Manifest, Store, StoreConfig, StoreError};
    let bytes = parse_bytes(&args.mem).map_err(|e| CliError::BadInput(format!("--mem: {e}")))?;
    let cfg = StoreConfig {
        mem_bytes: check_memory_budget(bytes)? as usize,
        ..StoreConfig::default()
    };
    let mem_bytes = cfg.mem_bytes as u64;
    let variant = format!("{}x{}", size.0, size.1);
    let manifest = Manifest::new("connect4", &variant, &args.moves, 0);
    // SAFETY: the store directory belongs to this process for the run (README: one solve per
    // directory at a time, and nothing else writes into it).
    let store = unsafe { Store::open(dir, &manifest, cfg) }.map_err(|e| match e {
        StoreError::Foreign { .. } | StoreError::NotADirectory(_) => {
            CliError::BadInput(e.to_string())
        }
        _ => CliError::Failed(e.to_string()),
    })?;
    Ok((store, mem_bytes))
}

/// Solves one position on `table` (memory table or position store), prints the answer and
/// writes the record if asked.
fn solve_and_report<T: Table>(
    args: &SolveArgs,
    size: (u32, u32),
    pos: &Connect4,
    table: &T,
    table_bytes: u64,
) -> Result<i32, CliError> {
    let counter = Arc::new(AtomicU64::new(0));
    let depth = depth_of(args.weak);
    let start = Instant::now();
    let cpu0 = record::process_cpu_seconds();
    let solver = ParallelSolver::new(table, args.threads)
        .map_err(CliError::Failed)?
        .with_progress(&counter);
    let threads = solver.threads();
    let solved = {
        let _progress = Progress::start("solving", counter.clone());
        solver.solve(pos, depth)
    };
    if args.verbose {
        print_probes(&solved.probes);
    }
    let (score, nodes) = (solved.score, solved.nodes);
    let best: Vec<u32> = solved
        .best_moves
        .iter()
        .map(|&mv| pos.move_column(mv) + 1)
        .collect();
    let elapsed = start.elapsed();
    let cpu = record::process_cpu_seconds() - cpu0;
    let out = Solved {
        moves: args.moves.clone(),
        size: format!("{}x{}", size.0, size.1),
        score,
        value: value_word(score),
        best_moves: best.clone(),
        nodes,
        micros: elapsed.as_micros() as u64,
        weak: args.weak,
    };
    if args.json {
        println!("{}", serde_json::to_string(&out).expect("serialisable"));
    } else {
        print!("{}", pos.render());
        let side = if pos.ply() % 2 == 0 {
            "X (first player)"
        } else {
            "O (second player)"
        };
        println!("to move:    {side}");
        if args.weak {
            println!("value:      {} (weak solve: score sign only)", out.value);
        } else {
            println!("score:      {score:+}");
            println!("value:      {}", out.value);
        }
        let best_text: Vec<String> = best.iter().map(|c| c.to_string()).collect();
        println!("best moves: {}", best_text.join(" "));
        let secs = elapsed.as_secs_f64();
        println!("nodes:      {nodes}");
        println!(
            "time:       {secs:.3} s ({:.2} M nodes/s, {threads} threads)",
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    if let Some(dir) = &args.record {
        let rec = Record {
            game: "connect4".into(),
            size: out.size.clone(),
            mode: if args.weak {
                "weak".into()
            } else {
                "strong".into()
            },
            moves: args.moves.clone(),
            value: out.value.into(),
            score,
            best_moves: best.iter().map(|c| c.to_string()).collect(),
            nodes,
            wall_seconds: elapsed.as_secs_f64(),
            cpu_seconds: cpu,
            threads,
            table_bytes,
            ..Record::default()
        };
        save_record(dir, rec)?;
    }
    Ok(0)
}

fn batch(args: &SolveArgs, size: (u32, u32), file: &str) -> Result<i32, CliError> {
    let reader: Box<dyn BufRead> = if file == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let f = std::fs::File::open(file)
            .map_err(|e| CliError::BadInput(format!("cannot open batch file {file}: {e}")))?;
        Box::new(std::io::BufReader::new(f))
    };
    // positions are timed one by one with the table cleared between them: a small table that is
    // touched in advance measures the search, not page faults
    let mem = if args.mem == "auto" {
        "64M"
    } else {
        args.mem.as_str()
    };
    let table = make_table(mem)?;
    table.prefault();
    let depth = depth_of(args.weak);
    let (mut count, mut mismatches, mut total_nodes, mut total_micros) = (0u64, 0u64, 0u64, 0u128);
    for (lineno, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| CliError::Failed(format!("reading {file}: {e}")))?;
        let mut parts = line.split_whitespace();
        let Some(moves) = parts.next() else { continue };
        let expected = match parts.next() {
            Some(t) => Some(t.parse::<i32>().map_err(|_| {
                CliError::BadInput(format!(
                    "{file} line {}: expected score '{t}' is not an integer",
                    lineno + 1
                ))
            })?),
            None => None,
        };
        let pos = parse_position(size, moves)
            .map_err(|e| CliError::BadInput(format!("{file} line {}: {e}", lineno + 1)))?;
        table.clear();
        let start = Instant::now();
        let mut searcher = Searcher::new(&table);
        let score = searcher.solve(&pos, depth).expect("no stop flag set");
        let micros = start.elapsed().as_micros();
        let expected_here = expected.map(|e| if args.weak { e.signum() } else { e });
        let ok = expected_here.is_none_or(|e| e == score);
        count += 1;
        total_nodes += searcher.nodes;
        total_micros += micros;
        if !ok {
            mismatches += 1;
        }
        if args.json {
            #[derive(Serialize)]
            struct Line<'a> {
                moves: &'a str,
                score: i32,
                value: &'static str,
                expected: Option<i32>,
                nodes: u64,
                micros: u64,
            }
            let l = Line {
                moves,
                score,
                value: value_word(score),
                expected,
                nodes: searcher.nodes,
                micros: micros as u64,
            };
            println!("{}", serde_json::to_string(&l).expect("serialisable"));
        } else {
            let flag = if ok { "" } else { "  MISMATCH" };
            let exp = expected
                .map(|e| format!(" expected {e}"))
                .unwrap_or_default();
            println!(
                "{moves} {score}{exp} nodes {} us {micros}{flag}",
                searcher.nodes
            );
        }
    }
    let n = count.max(1) as f64;
    eprintln!(
        "positions {count}, mismatches {mismatches}, mean {:.1} us, mean {:.1} nodes",
        total_micros as f64 / n,
        total_nodes as f64 / n
    );
    Ok(if mismatches > 0 {
        super::EXIT_MISMATCH
    } else {
        0
    })
}

/// `analyze connect4`.
pub fn analyze(args: &AnalyzeArgs) -> Result<i32, CliError> {
    let size = parse_size(&args.size)?;
    let pos = parse_position(size, &args.moves)?;
    let table = make_table(&args.mem)?;
    let counter = Arc::new(AtomicU64::new(0));
    let depth = depth_of(args.weak);
    let start = Instant::now();
    let (scores, nodes) = {
        let _progress = Progress::start("analyzing", counter.clone());
        let mut searcher = Searcher::new(&table).with_progress(&counter);
        let scores = searcher.analyze(&pos, depth).expect("no stop flag set");
        (scores, searcher.nodes)
    };
    let micros = start.elapsed().as_micros() as u64;
    let per_move: Vec<(u32, i32)> = scores
        .iter()
        .map(|&(mv, s)| (pos.move_column(mv) + 1, s))
        .collect();
    let best_score = per_move.iter().map(|&(_, s)| s).max().unwrap_or(0);
    if args.json {
        #[derive(Serialize)]
        struct MoveScore {
            column: u32,
            score: i32,
            value: &'static str,
        }
        #[derive(Serialize)]
        struct Analysis {
            moves: String,
            size: String,
            score: i32,
            value: &'static str,
            best_moves: Vec<u32>,
            move_scores: Vec<MoveScore>,
            nodes: u64,
            micros: u64,
            weak: bool,
        }
        let a = Analysis {
            moves: args.moves.clone(),
            size: format!("{}x{}", size.0, size.1),
            score: best_score,
            value: value_word(best_score),
            best_moves: per_move
                .iter()
                .filter(|m| m.1 == best_score)
                .map(|m| m.0)
                .collect(),
            move_scores: per_move
                .iter()
                .map(|&(c, s)| MoveScore {
                    column: c,
                    score: s,
                    value: value_word(s),
                })
                .collect(),
            nodes,
            micros,
            weak: args.weak,
        };
        println!("{}", serde_json::to_string(&a).expect("serialisable"));
    } else {
        print!("{}", pos.render());
        let mut line = String::new();
        for c in 1..=size.0 {
            match per_move.iter().find(|m| m.0 == c) {
                Some(&(_, s)) => line.push_str(&format!("{s:>4}")),
                None => line.push_str("   -"),
            }
        }
        println!(
            "column:{}",
            (1..=size.0).map(|c| format!("{c:>4}")).collect::<String>()
        );
        println!("score: {line}");
        println!("nodes: {nodes}, time {:.3} s", micros as f64 / 1e6);
    }
    Ok(0)
}
