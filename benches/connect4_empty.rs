//! The empty Connect Four board as a user waits for it: whole processes of `zugzwang solve
//! connect4` (table set-up, search, best moves, exit), alternated in one run with other solvers
//! and other zugzwang binaries, on one and two threads.
//!
//! ```text
//! cargo build --release && cargo bench --bench connect4_empty -- [--rounds N] [--threads 1,2]
//!     [--weak] [--mem SIZE] [--size WxH] [--zugzwang PATH]... [--zugzwang-args ARGS]
//!     [--other T=COMMAND]...
//! ```
//!
//! `--zugzwang` (repeatable; default this checkout's release build or `ZUGZWANG_BIN`) compares
//! binaries, e.g. two commits; `--other 1=/tmp/c4/c4-1t` runs another solver's command (split on
//! spaces, stdin closed) in the rounds with that many threads: ChristopheSteininger/c4 fixes its
//! board and threads at compile time, so each thread count is its own binary. Nothing of another
//! solver is part of this repository: whoever runs the comparison builds it from its public
//! source. Every round runs every process once, in the same order, so slow drifts of the machine
//! hit all of them alike; the summary gives each one's mean wall time and its ratio to the first
//! zugzwang binary.

#[path = "common/process.rs"]
mod process;

use process::{timed, zugzwang_binary, Timed};
use std::path::PathBuf;

#[derive(clap::Parser)]
struct Args {
    /// Rounds: every process runs once per round.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Thread counts to run, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    threads: Vec<usize>,
    /// Only win/draw/loss (default: the exact score, as `solve connect4` does).
    #[arg(long)]
    weak: bool,
    /// `--mem` for zugzwang (default: the game's).
    #[arg(long)]
    mem: Option<String>,
    /// More arguments for zugzwang, split on spaces (e.g. `--best none`: the score only, the
    /// question c4's solver answers; by default every best move is proved too).
    #[arg(long, allow_hyphen_values = true)]
    zugzwang_args: Option<String>,
    /// Board size for zugzwang (the other solvers' sizes are their own).
    #[arg(long, default_value = "7x6")]
    size: String,
    /// zugzwang binaries to time (default: this checkout's release build).
    #[arg(long)]
    zugzwang: Vec<PathBuf>,
    /// Another solver for T threads: `T=COMMAND`.
    #[arg(long, value_parser = parse_other)]
    other: Vec<(usize, String)>,
    /// Ignored (cargo bench passes it).
    #[arg(long, hide = true)]
    bench: bool,
}

fn parse_other(s: &str) -> Result<(usize, String), String> {
    let (t, cmd) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}': expected THREADS=COMMAND"))?;
    let t = t
        .parse()
        .map_err(|_| format!("'{t}': not a thread count"))?;
    Ok((t, cmd.to_string()))
}

/// One process to time, and the wall times it took.
struct Entrant {
    label: String,
    threads: usize,
    program: PathBuf,
    args: Vec<String>,
    zugzwang: bool,
    walls: Vec<f64>,
}

fn show(e: &Entrant, round: usize, t: &Timed) {
    let mut line = format!("r{round} {:>2}t {:<28} {}", e.threads, e.label, t.summary());
    if e.zugzwang {
        match serde_json::from_slice::<serde_json::Value>(&t.stdout) {
            Ok(v) => {
                line += &format!(
                    ", {} nodes, score {}",
                    v["nodes"].as_u64().unwrap_or(0),
                    v["score"]
                )
            }
            Err(_) => line += &format!(", no answer: {}", t.stderr.trim()),
        }
    } else if !t.success {
        line += ", failed";
    }
    println!("{line}");
}

fn main() {
    let args: Args = clap::Parser::parse();
    let binaries = if args.zugzwang.is_empty() {
        vec![zugzwang_binary()]
    } else {
        args.zugzwang.clone()
    };
    let mut entrants = Vec::new();
    for &threads in &args.threads {
        for b in &binaries {
            let mut a: Vec<String> = ["solve", "connect4", "--size", &args.size, "--json"]
                .map(String::from)
                .into();
            a.extend(["--quiet".into(), "--threads".into(), threads.to_string()]);
            if args.weak {
                a.push("--weak".into());
            }
            if let Some(m) = &args.mem {
                a.extend(["--mem".into(), m.clone()]);
            }
            if let Some(extra) = &args.zugzwang_args {
                a.extend(extra.split_whitespace().map(String::from));
            }
            entrants.push(Entrant {
                label: b.display().to_string(),
                threads,
                program: b.clone(),
                args: a,
                zugzwang: true,
                walls: Vec::new(),
            });
        }
        for (t, cmd) in args.other.iter().filter(|(t, _)| *t == threads) {
            let mut words = cmd.split_whitespace().map(String::from);
            let program = PathBuf::from(words.next().expect("--other needs a command"));
            entrants.push(Entrant {
                label: cmd.clone(),
                threads: *t,
                program,
                args: words.collect(),
                zugzwang: false,
                walls: Vec::new(),
            });
        }
    }
    println!(
        "Connect Four {} empty board, {}, whole processes, {} round(s)",
        args.size,
        if args.weak { "weak" } else { "strong" },
        args.rounds
    );
    for round in 1..=args.rounds {
        for e in &mut entrants {
            let t = timed(&e.program, &e.args);
            show(e, round, &t);
            e.walls.push(t.wall);
        }
    }
    println!("\n| threads | process | mean wall s | vs first zugzwang |");
    println!("|---|---|---|---|");
    for &threads in &args.threads {
        let group: Vec<&Entrant> = entrants.iter().filter(|e| e.threads == threads).collect();
        let mean = |e: &Entrant| e.walls.iter().sum::<f64>() / e.walls.len() as f64;
        let first = group.iter().find(|e| e.zugzwang).map(|e| mean(e));
        for e in group {
            let ratio = first.map_or(String::from("-"), |f| format!("{:.2}", mean(e) / f));
            println!("| {threads} | {} | {:.2} | {ratio} |", e.label, mean(e));
        }
    }
}
