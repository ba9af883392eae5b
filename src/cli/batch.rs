//! `solve GAME --batch FILE`: many positions, one line each, with a summary, for test sets.

use super::args::SolveOptions;
use super::common::CliError;
use serde::Serialize;
use std::io::BufRead;
use zugzwang::solver::{value_word, BestMoves, Control, GameSpec, Memory, Question, Solver};

/// One line of the batch output with `--json`.
#[derive(Serialize)]
struct Line<'a> {
    moves: &'a str,
    score: i32,
    value: &'static str,
    expected: Option<i32>,
    nodes: u64,
    micros: u64,
}

/// Solves every `POSITION [EXPECTED_SCORE]` line of `file`; returns the exit status.
///
/// A batch times positions one by one: the tables are cleared between positions and touched in
/// advance (64 MiB unless `--mem` says otherwise), one thread searches and no best moves are
/// proved unless asked for, so each line measures one search of one position.
pub fn run(game: GameSpec, opts: &SolveOptions, file: &str) -> Result<i32, CliError> {
    if opts.table.is_some() {
        return Err(CliError::BadInput(
            "--table works with single solves, not with --batch".into(),
        ));
    }
    let reader: Box<dyn BufRead> = if file == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let f = std::fs::File::open(file)
            .map_err(|e| CliError::BadInput(format!("cannot open batch file {file}: {e}")))?;
        Box::new(std::io::BufReader::new(f))
    };
    let mut opts = opts.clone();
    if opts.memory()? == Memory::Auto {
        opts.mem = "64M".into();
    }
    opts.threads.get_or_insert(1);
    opts.best.get_or_insert(BestMoves::None);
    let cfg = opts.config(game)?;
    let weak = cfg.mode == zugzwang::solver::Mode::Weak;
    let mut solver = opts.with_book(Solver::new(game, cfg).map_err(CliError::from)?)?;
    solver.prefault();
    let (mut count, mut mismatches, mut total_nodes, mut total_micros) = (0u64, 0u64, 0u64, 0u64);
    for (lineno, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| CliError::Failed(format!("reading {file}: {e}")))?;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() {
            continue;
        }
        // the last token is the expected score if it is a number and something precedes it
        let (position, expected) = match tokens.split_last() {
            Some((last, rest)) if !rest.is_empty() => match last.parse::<i32>() {
                Ok(e) => (rest.join(" "), Some(e)),
                // a Connect Four line is one token of digits: a second token must be the score
                Err(_) if rest.len() == 1 && matches!(game, GameSpec::Connect4 { .. }) => {
                    return Err(CliError::BadInput(format!(
                        "{file} line {}: expected score '{last}' is not an integer",
                        lineno + 1
                    )))
                }
                Err(_) => (tokens.join(" "), None),
            },
            _ => (tokens.join(" "), None),
        };
        solver.clear();
        let s = solver
            .solve(&position, Question::Value, None, &Control::new())
            .map_err(|e| match CliError::from(e) {
                CliError::BadInput(m) => {
                    CliError::BadInput(format!("{file} line {}: {m}", lineno + 1))
                }
                other => other,
            })?;
        let expected_here = expected.map(|e| if weak { e.signum() } else { e });
        let ok = expected_here.is_none_or(|e| e == s.score);
        count += 1;
        total_nodes += s.nodes;
        total_micros += s.micros;
        if !ok {
            mismatches += 1;
        }
        if opts.json {
            let l = Line {
                moves: &position,
                score: s.score,
                value: value_word(s.score),
                expected,
                nodes: s.nodes,
                micros: s.micros,
            };
            println!("{}", serde_json::to_string(&l).expect("serialisable"));
        } else {
            let flag = if ok { "" } else { "  MISMATCH" };
            let exp = expected
                .map(|e| format!(" expected {e}"))
                .unwrap_or_default();
            println!(
                "{position} {}{exp} nodes {} us {}{flag}",
                s.score, s.nodes, s.micros
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
