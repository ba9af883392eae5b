//! `zugzwang solve|analyze|show sogo|qubic`: the 4x4x4 games.
//!
//! Values are win/draw/loss for the side to move (the search runs with [`Depth::Weak`] unless
//! `--strong` asks for the exact score). The transposition table is the shared
//! [`MemoryTable`]; for these games its keys are 62-bit xxh3 hashes of the canonical position
//! (seeded by `--hash-seed`), so a second run with another seed confirms a result independently
//! of hash collisions.

use super::common::{
    check_memory_budget, parse_bytes, save_record, value_word, CliError, Progress,
};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Instant;
use zugzwang::game::cube::DEFAULT_HASH_SEED;
use zugzwang::game::{Bits, Cube, Game, Rules};
use zugzwang::record::{self, Record};
use zugzwang::search::capped::solve_deepening;
use zugzwang::search::proof::{Question, ENDGAME_FORCING_MIN_EMPTY};
use zugzwang::search::vcf::ForcingSearch;
use zugzwang::search::{Depth, ProofSearch, ProofTable, Searcher, Table};

/// Arguments shared by `solve sogo` and `solve qubic`.
#[derive(Args, Clone)]
pub struct SolveArgs {
    /// Sogo: columns a1..d4; Qubic: cells a11..d44 (column + level); or 0xWHITE:0xBLACK.
    #[arg(default_value = "")]
    moves: String,
    /// Sogo only: creating a poison wins for its creator on the spot.
    #[arg(short = 'g', long = "poison")]
    poison: bool,
    /// Play Qubic rules (no gravity); `solve sogo -q` is the same as `solve qubic`.
    #[arg(short = 'q', long = "qubic")]
    qubic: bool,
    /// Exact score (how fast the win comes) instead of win/draw/loss.
    #[arg(long)]
    strong: bool,
    /// Output as JSON.
    #[arg(long)]
    json: bool,
    /// Write a record of the run (JSON) into this directory, e.g. solve-runs/.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// Memory for the transposition table (e.g. 512M, 4G).
    #[arg(long, default_value = "1G")]
    mem: String,
    /// Seed of the position hash (a second seed confirms a result against hash collisions).
    #[arg(long, default_value_t = DEFAULT_HASH_SEED)]
    hash_seed: u64,
    /// Count games reaching this ply as draws first (an optimisation: a win under the cap is a
    /// real win; any other result is re-checked without the cap). 0 = no cap.
    #[arg(long, default_value_t = 0)]
    cap: u32,
    /// Weak solves: deepen the cap by this many plies at a time before the uncapped search
    /// (finds short wins and losses fast). 0 = search without caps at once.
    #[arg(long, default_value_t = 4)]
    step: u32,
    /// How many deepening caps to try before the uncapped search.
    #[arg(long, default_value_t = 2)]
    tries: u32,
    /// Enhanced transposition cutoffs (probe every child first) only at nodes with at least
    /// this many empty cells.
    #[arg(long, default_value_t = 30)]
    etc: u32,
    /// The search: `pn` (proof-number search with forcing-win leaves: win/draw/loss only) or
    /// `alphabeta` (the shared negamax; needed for `--strong`).
    #[arg(long, value_enum, default_value_t = Engine::Pn)]
    engine: Engine,
    /// Which best moves to prove: `first` (one is enough to play on), `all` (every move that
    /// keeps the value: can cost far more than the value itself), `none`.
    #[arg(long, value_enum, default_value_t = BestMoves::First)]
    best: BestMoves,
    /// Attacking moves the forcing-win test may try per position (pn engine).
    #[arg(long, default_value_t = zugzwang::search::proof::DEFAULT_VCF_BUDGET)]
    vcf_budget: u32,
    /// pn engine: settle positions with at most this many empty cells by alpha-beta (half of
    /// --mem goes to its table). Default: 20 for Sogo, 0 (off) for Qubic.
    #[arg(long)]
    endgame: Option<u32>,
    /// pn engine: how strongly to prefer better-ordered moves (the i-th move's proof number
    /// counts 1 + i/K times). Default: 8 for Sogo, 16 for Qubic.
    #[arg(long)]
    order_bias: Option<u64>,
    /// pn engine: settle one question completely first (`win`: does the side to move win?,
    /// `loss`: does it lose?) instead of alternating between both; the value is the same.
    #[arg(long, value_enum)]
    first: Option<FirstQuestion>,
    /// pn engine: find the threat zone of an attacker's move only when the search enters it,
    /// counting it as N defences until then (0: find every zone at once). Default: 16 for
    /// Qubic, 0 for Sogo.
    #[arg(long, value_name = "N")]
    zone_guess: Option<u32>,
    /// pn engine: search threads sharing the table (0 = one per core). The value never
    /// depends on it; node counts vary from run to run with more than one.
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

/// `--first`: the question the pn engine settles first.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstQuestion {
    /// Does the side to move win?
    Win,
    /// Does the side to move lose?
    Loss,
}

/// The search engines for the 4x4x4 games.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Depth-first proof-number search (win/draw/loss).
    Pn,
    /// Alpha-beta negamax (win/draw/loss or, with --strong, the exact score).
    Alphabeta,
}

/// How many best moves to prove after the value.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMoves {
    /// The first move found that keeps the value.
    First,
    /// Every move that keeps the value.
    All,
    /// None: the value only.
    None,
}

/// The answer, as printed with `--json`. Field names match Connect Four's.
#[derive(Serialize)]
struct Solved {
    game: String,
    moves: String,
    position: String,
    score: i32,
    value: &'static str,
    best_moves: Vec<String>,
    nodes: u64,
    micros: u64,
    weak: bool,
    hash_seed: u64,
    /// The cap (ply counted as a draw) under which a decisive result was proven, if any.
    proven_under_cap: Option<u32>,
}

fn rules_of(qubic: bool, poison: bool) -> Result<Rules, CliError> {
    match (qubic, poison) {
        (true, true) => Err(CliError::BadInput(
            "-g (poison wins) applies to Sogo only, not to Qubic".into(),
        )),
        (true, false) => Ok(Rules::Qubic),
        (false, true) => Ok(Rules::SogoPoison),
        (false, false) => Ok(Rules::Sogo),
    }
}

/// Parses a position and refuses finished games (one line, exit status 2).
pub fn parse_position(rules: Rules, moves: &str, seed: u64) -> Result<Cube, CliError> {
    let g =
        Cube::parse(rules, moves).map_err(|e| CliError::BadInput(format!("in '{moves}': {e}")))?;
    if g.last_mover_won() {
        return Err(CliError::BadInput(format!(
            "in '{moves}': the game is already won; nothing to solve"
        )));
    }
    if g.ply() >= g.max_ply() {
        return Err(CliError::BadInput(format!(
            "in '{moves}': the board is full; nothing to solve"
        )));
    }
    Ok(g.with_seed(seed))
}

/// What a solve found, whichever engine ran.
struct Outcome {
    score: i32,
    best: Vec<u64>,
    nodes: u64,
    /// The cap (ply counted as a draw) under which a decisive result was proven, if any.
    cap: Option<u32>,
    table_bytes: u64,
}

/// Alpha-beta: in weak mode under the cap `--cap` first (if given), then by deepening caps of
/// `--step` plies (if not 0), then without a cap; a decisive result under a cap is real (see
/// [`zugzwang::search::capped`]).
fn solve_alphabeta(args: &SolveArgs, g: &Cube, bytes: u64, counter: &AtomicU64) -> Outcome {
    let table = zugzwang::search::MemoryTable::with_bytes(bytes as usize);
    let mut searcher = Searcher::new(&table)
        .with_progress(counter)
        .with_etc_min_empty(args.etc)
        .with_forcing(
            ForcingSearch::new(args.vcf_budget),
            ENDGAME_FORCING_MIN_EMPTY,
        );
    let depth = if args.strong {
        Depth::Strong
    } else {
        Depth::Weak
    };
    let (score, used) = if depth == Depth::Weak {
        let mut found = None;
        if args.cap > g.ply() + 1 && args.cap < 64 {
            let capped = g.with_cap(args.cap);
            let v = searcher.solve(&capped, depth).expect("no stop flag set");
            searcher.table().clear();
            if v != 0 {
                found = Some((v, Some(args.cap)));
            }
        }
        match found {
            Some(f) => f,
            None => {
                solve_deepening(&mut searcher, g, args.step, args.tries).expect("no stop flag set")
            }
        }
    } else {
        (searcher.solve(g, depth).expect("no stop flag set"), None)
    };
    let pos = used.map(|c| g.with_cap(c)).unwrap_or(*g);
    let target = match depth {
        Depth::Strong => score,
        Depth::Weak if score < 0 => -pos.max_score(),
        Depth::Weak => score,
    };
    let mut best = Vec::new();
    if args.best != BestMoves::None {
        for mv in Bits(pos.playable()) {
            if searcher
                .achieves(&pos, mv, target)
                .expect("no stop flag set")
            {
                best.push(mv);
                if args.best == BestMoves::First {
                    break;
                }
            }
        }
    }
    Outcome {
        score,
        best,
        nodes: searcher.nodes,
        cap: used,
        table_bytes: table.bytes() as u64,
    }
}

/// Proof-number search: the value, then the best moves asked for.
fn solve_pn(args: &SolveArgs, g: &Cube, bytes: u64, counter: &AtomicU64) -> Outcome {
    // with alpha-beta endgames, half of the memory goes to their table
    let endgame = endgame_cells(args, g);
    let endgame_table =
        (endgame > 0).then(|| zugzwang::search::MemoryTable::with_bytes((bytes / 2) as usize));
    let proof_bytes = bytes - endgame_table.as_ref().map_or(0, |t| t.bytes() as u64);
    let table = ProofTable::new(proof_bytes as usize);
    let table_bytes = (table.bytes() + endgame_table.as_ref().map_or(0, |t| t.bytes())) as u64;
    let mut search = ProofSearch::new(&table)
        .with_progress(counter)
        .with_vcf_budget(args.vcf_budget)
        .with_order_bias(order_bias(args, g))
        .with_threads(pn_threads(args))
        .with_zone_guess(zone_guess(args, g));
    if let Some(t) = &endgame_table {
        search = search.with_endgame(t, endgame);
    }
    match args.first {
        Some(FirstQuestion::Win) => search = search.with_first_question(Question::MoverWins),
        Some(FirstQuestion::Loss) => search = search.with_first_question(Question::OpponentWins),
        None => {}
    }
    let score = search.value(g).expect("no stop flag set");
    let best = match args.best {
        BestMoves::None => Vec::new(),
        which => search
            .best_moves(g, score, which == BestMoves::First)
            .expect("no stop flag set"),
    };
    Outcome {
        score,
        best,
        nodes: search.nodes + search.endgame_nodes,
        cap: None,
        table_bytes,
    }
}

/// The `--endgame` threshold: as given, else 20 empty cells for the gravity games (where
/// alpha-beta's parity bounds settle endgames) and off for Qubic.
fn endgame_cells(args: &SolveArgs, g: &Cube) -> u32 {
    args.endgame.unwrap_or(if g.rules().gravity() {
        zugzwang::search::proof::DEFAULT_GRAVITY_ENDGAME
    } else {
        0
    })
}

/// `--threads` of the pn engine: as given, or one per core.
fn pn_threads(args: &SolveArgs) -> usize {
    match args.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// `--zone-guess` (0: none), or the measured default of the rules.
fn zone_guess(args: &SolveArgs, g: &Cube) -> Option<u32> {
    match args.zone_guess {
        Some(0) => None,
        Some(n) => Some(n),
        None => (!g.rules().gravity()).then_some(zugzwang::search::proof::QUBIC_ZONE_GUESS),
    }
}

/// `--order-bias`, or the measured default of the rules.
fn order_bias(args: &SolveArgs, g: &Cube) -> u64 {
    args.order_bias.unwrap_or(if g.rules().gravity() {
        zugzwang::search::proof::DEFAULT_ORDER_BIAS
    } else {
        zugzwang::search::proof::QUBIC_ORDER_BIAS
    })
}

/// What `solve` and `analyze` both need: the rules, the position and the table's size.
fn prepare(args: &SolveArgs, qubic: bool) -> Result<(Rules, Cube, u64), CliError> {
    let rules = rules_of(args.qubic || qubic, args.poison)?;
    let g = parse_position(rules, &args.moves, args.hash_seed)?;
    let bytes = parse_bytes(&args.mem).map_err(|e| CliError::BadInput(format!("--mem: {e}")))?;
    let bytes = check_memory_budget(bytes)?;
    if args.strong && args.engine == Engine::Pn {
        return Err(CliError::BadInput(
            "--strong needs --engine alphabeta (proof-number search gives win/draw/loss)".into(),
        ));
    }
    Ok((rules, g, bytes))
}

/// `solve sogo` (or `solve qubic` with `qubic` set).
pub fn solve(args: &SolveArgs, qubic: bool) -> Result<i32, CliError> {
    let (rules, g, bytes) = prepare(args, qubic)?;
    let counter = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let cpu0 = record::process_cpu_seconds();
    let outcome = {
        let _progress = Progress::start("solving", counter.clone());
        match args.engine {
            Engine::Pn => solve_pn(args, &g, bytes, &counter),
            Engine::Alphabeta => solve_alphabeta(args, &g, bytes, &counter),
        }
    };
    let Outcome {
        score,
        best,
        nodes,
        cap,
        table_bytes,
    } = outcome;
    let elapsed = start.elapsed();
    let cpu = record::process_cpu_seconds() - cpu0;
    let best_names: Vec<String> = best.iter().map(|&m| g.move_name(m)).collect();
    let out = Solved {
        game: rules.name().into(),
        moves: args.moves.clone(),
        position: g.to_hex(),
        score,
        value: value_word(score),
        best_moves: best_names.clone(),
        nodes,
        micros: elapsed.as_micros() as u64,
        weak: !args.strong,
        hash_seed: args.hash_seed,
        proven_under_cap: cap,
    };
    if args.json {
        println!("{}", serde_json::to_string(&out).expect("serialisable"));
    } else {
        print!("{}", g.render());
        let side = if g.ply() % 2 == 0 {
            "X (White, first player)"
        } else {
            "O (Black, second player)"
        };
        println!("game:       {}", rules.name());
        println!("to move:    {side}");
        if args.strong {
            println!("score:      {score:+}");
        }
        println!("value:      {}", out.value);
        println!("best moves: {}", best_names.join(" "));
        if let Some(c) = cap {
            println!("proven:     under a cap of ply {c} (best moves: those that win by then)");
        }
        let secs = elapsed.as_secs_f64();
        println!("nodes:      {nodes}");
        println!(
            "time:       {secs:.3} s ({:.2} M nodes/s)",
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    if let Some(dir) = &args.record {
        let rec = Record {
            game: if rules == Rules::Qubic {
                "qubic".into()
            } else {
                "sogo".into()
            },
            size: match rules {
                Rules::SogoPoison => "4x4x4 -g".into(),
                _ => "4x4x4".into(),
            },
            mode: if args.strong {
                "strong".into()
            } else {
                "weak".into()
            },
            moves: args.moves.clone(),
            value: out.value.into(),
            score,
            best_moves: best_names,
            nodes,
            wall_seconds: elapsed.as_secs_f64(),
            cpu_seconds: cpu,
            threads: if args.engine == Engine::Pn {
                pn_threads(args)
            } else {
                1
            },
            table_bytes,
            ..Record::default()
        };
        save_record(dir, rec)?;
    }
    Ok(0)
}

/// `analyze sogo|qubic`: the value of every legal move.
pub fn analyze(args: &SolveArgs, qubic: bool) -> Result<i32, CliError> {
    let (rules, g, bytes) = prepare(args, qubic)?;
    let counter = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let (scores, nodes) = {
        let _progress = Progress::start("analyzing", counter.clone());
        match args.engine {
            Engine::Alphabeta => {
                let table = zugzwang::search::MemoryTable::with_bytes(bytes as usize);
                let mut searcher = Searcher::new(&table)
                    .with_progress(&counter)
                    .with_etc_min_empty(args.etc);
                let depth = if args.strong {
                    Depth::Strong
                } else {
                    Depth::Weak
                };
                let s = searcher.analyze(&g, depth).expect("no stop flag set");
                (s, searcher.nodes)
            }
            Engine::Pn => {
                let table = ProofTable::new(bytes as usize);
                let mut search = ProofSearch::new(&table)
                    .with_progress(&counter)
                    .with_vcf_budget(args.vcf_budget)
                    .with_order_bias(order_bias(args, &g))
                    .with_threads(pn_threads(args))
                    .with_zone_guess(zone_guess(args, &g));
                let mut s = Vec::new();
                for mv in Bits(g.playable()) {
                    let mut child = g;
                    child.play(mv);
                    let v = if child.last_mover_won() {
                        1
                    } else if child.ply() >= child.max_ply() {
                        0
                    } else {
                        -search.value(&child).expect("no stop flag set")
                    };
                    s.push((mv, v));
                }
                (s, search.nodes)
            }
        }
    };
    let micros = start.elapsed().as_micros() as u64;
    let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
    if args.json {
        #[derive(Serialize)]
        struct MoveScore {
            r#move: String,
            score: i32,
            value: &'static str,
        }
        #[derive(Serialize)]
        struct Analysis {
            game: String,
            moves: String,
            score: i32,
            value: &'static str,
            best_moves: Vec<String>,
            move_scores: Vec<MoveScore>,
            nodes: u64,
            micros: u64,
            weak: bool,
        }
        let a = Analysis {
            game: rules.name().into(),
            moves: args.moves.clone(),
            score: best,
            value: value_word(best),
            best_moves: scores
                .iter()
                .filter(|m| m.1 == best)
                .map(|m| g.move_name(m.0))
                .collect(),
            move_scores: scores
                .iter()
                .map(|&(m, s)| MoveScore {
                    r#move: g.move_name(m),
                    score: s,
                    value: value_word(s),
                })
                .collect(),
            nodes,
            micros,
            weak: !args.strong,
        };
        println!("{}", serde_json::to_string(&a).expect("serialisable"));
    } else {
        print!("{}", g.render());
        for &(m, s) in &scores {
            if args.strong {
                println!("{:>4} {:>5} {s:+}", g.move_name(m), value_word(s));
            } else {
                println!("{:>4} {}", g.move_name(m), value_word(s));
            }
        }
        println!("nodes: {nodes}, time {:.3} s", micros as f64 / 1e6);
    }
    Ok(0)
}

/// Arguments of `show sogo|qubic`.
#[derive(Args, Clone)]
pub struct ShowArgs {
    /// The position (moves or 0xWHITE:0xBLACK).
    #[arg(default_value = "")]
    moves: String,
    /// Sogo only: creating a poison wins.
    #[arg(short = 'g', long = "poison")]
    poison: bool,
    /// Qubic rules.
    #[arg(short = 'q', long = "qubic")]
    qubic: bool,
}

/// `show sogo|qubic`: the four levels side by side with threats and poisons marked.
pub fn show(args: &ShowArgs, qubic: bool) -> Result<i32, CliError> {
    let rules = rules_of(args.qubic || qubic, args.poison)?;
    let g = Cube::parse(rules, &args.moves)
        .map_err(|e| CliError::BadInput(format!("in '{}': {e}", args.moves)))?;
    print!("{}", g.render());
    println!("X = White (first), O = Black; * threat of the side to move, + threat of the other side, ! poison (threat over an empty cell)");
    let side = if g.ply() % 2 == 0 { "X" } else { "O" };
    if g.last_mover_won() {
        println!("game over: the last move won");
    } else {
        println!("to move: {side}, ply {}", g.ply());
    }
    println!("position: {}", g.to_hex());
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        args: SolveArgs,
    }

    fn args(list: &[&str]) -> SolveArgs {
        let mut v = vec!["zugzwang"];
        v.extend_from_slice(list);
        Wrap::try_parse_from(v).expect("clap parses").args
    }

    #[test]
    fn bad_input_is_exit_status_2_with_one_line() {
        for (list, qubic) in [
            (vec!["a1 e5"], false),
            (vec!["a1a1a1a1a1"], false),
            (vec!["a11 a11"], true),
            (vec!["0x1:0x1"], true),
            (vec!["0x10000:0x0"], false),
            (vec!["a1 a2 b1 b2 c1 c2 d1"], false),
            (vec!["a11", "-g"], true),
            (vec!["", "--mem", "lots"], false),
            (vec!["a1", "--strong"], false),
        ] {
            let e = solve(&args(&list), qubic).expect_err("bad input refused");
            assert_eq!(e.exit_code(), 2, "{list:?}");
            assert!(!e.to_string().contains('\n'), "{e}");
        }
    }

    #[test]
    fn solves_a_short_sogo_position() {
        // White to move wins at once on a1; every other move lets Black win on b1. (Preset p1_18
        // decides its value in a second, but proving which of its 16 moves are best takes minutes.)
        for engine in ["pn", "alphabeta"] {
            let a = args(&["a1b1a1b1a1b1", "--mem", "16M", "--json", "--engine", engine]);
            assert_eq!(solve(&a, false).expect("solves"), 0);
        }
    }

    #[test]
    fn best_moves_all_with_both_engines() {
        // only a1 wins (three White stones below it); every other move lets Black win on b1
        let g = parse_position(Rules::Sogo, "a1b1a1b1a1b1", DEFAULT_HASH_SEED).unwrap();
        for engine in ["pn", "alphabeta"] {
            let a = args(&["a1b1a1b1a1b1", "--best", "all", "--engine", engine]);
            let out = if engine == "pn" {
                solve_pn(&a, &g, 16 << 20, &AtomicU64::new(0))
            } else {
                solve_alphabeta(&a, &g, 16 << 20, &AtomicU64::new(0))
            };
            assert_eq!(out.score, 1);
            let names: Vec<String> = out.best.iter().map(|&m| g.move_name(m)).collect();
            assert_eq!(names, ["a1"], "{engine}");
        }
    }
}
