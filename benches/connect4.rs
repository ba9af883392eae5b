//! Connect Four benchmark over Pons' six test sets: mean µs and mean nodes per position, printed
//! as a table, for the default search and for a baseline (the same search with its enhancements
//! switched off) measured in the same run, plus the reference solver's figures from
//! `verify/data/README.md` (taken on this machine kind) for comparison.
//!
//! `cargo bench --bench connect4` runs everything; `-- --quick` takes a tenth of each set;
//! `-- --external /path/to/binary` also times another solver that reads move strings on stdin
//! and prints `moves score nodes micros` per line (Pons' protocol) in the same run. The
//! transposition table (64 MiB, like Pons') is cleared before every position.
//!
//! The zugzwang column asks the solver API what `zugzwang solve connect4 --batch` asks (one
//! thread, no best moves); the baseline runs the search itself with its enhancements switched
//! off ([`Options::baseline`]), a switch the API does not offer because no user needs it.

use std::io::{BufRead, Write};
use std::process::{Command, Stdio};
use std::time::Instant;
use zugzwang::game::Connect4;
use zugzwang::search::{Depth, MemoryTable, Options, Table, Unstoppable};
use zugzwang::solver::{BestMoves, Control, GameSpec, Question, Solver, SolverConfig};

/// (set, positions measured, reference mean nodes, reference mean CPU µs) — the figures of
/// Pons' solver from the data README, over the same prefixes of each set.
const SETS: [(&str, usize, f64, f64); 6] = [
    ("Test_L3_R1", 1000, 51.3, 7.0),
    ("Test_L2_R1", 1000, 449.1, 59.0),
    ("Test_L2_R2", 1000, 39_807.5, 6_499.0),
    ("Test_L1_R1", 1000, 3_295.5, 466.0),
    ("Test_L1_R2", 200, 1_116_296.0, 182_260.0),
    ("Test_L1_R3", 18, 24_139_995.0, 4_790_222.0),
];

struct Stat {
    micros: f64,
    nodes: f64,
}

fn read_set(name: &str, take: usize) -> Vec<(String, i32)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("verify/data/connect4")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.to_string(), it.next()?.parse().ok()?))
        })
        .take(take)
        .collect()
}

fn run_baseline(set: &[(String, i32)], table: &MemoryTable, options: Options) -> Stat {
    let (mut micros, mut nodes) = (0u128, 0u64);
    for (moves, expected) in set {
        let pos = Connect4::from_moves(7, 6, moves).expect("valid test line");
        table.clear();
        let start = Instant::now();
        let mut s = Unstoppable::new(table, options);
        let score = s.solve(&pos, Depth::Strong);
        micros += start.elapsed().as_micros();
        nodes += s.nodes();
        assert_eq!(score, *expected, "wrong score for {moves}");
    }
    let n = set.len() as f64;
    Stat {
        micros: micros as f64 / n,
        nodes: nodes as f64 / n,
    }
}

fn run_api(set: &[(String, i32)]) -> Stat {
    let cfg = SolverConfig {
        threads: 1,
        best: BestMoves::None,
        mem_bytes: 64 << 20,
        ..SolverConfig::for_game(GameSpec::CONNECT4)
    };
    let mut solver = Solver::new(GameSpec::CONNECT4, cfg).expect("the defaults run");
    solver.prefault();
    let (mut micros, mut nodes) = (0u128, 0u64);
    for (moves, expected) in set {
        solver.clear();
        let start = Instant::now();
        let s = solver
            .solve(moves, Question::Value, None, &Control::new())
            .expect("valid test line");
        micros += start.elapsed().as_micros();
        nodes += s.nodes;
        assert_eq!(s.score, *expected, "wrong score for {moves}");
    }
    let n = set.len() as f64;
    Stat {
        micros: micros as f64 / n,
        nodes: nodes as f64 / n,
    }
}

fn run_external(binary: &str, set: &[(String, i32)]) -> Option<Stat> {
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let input: String = set.iter().map(|(m, _)| format!("{m}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = std::io::BufReader::new(child.stdout.take()?);
    let (mut micros, mut nodes, mut n) = (0f64, 0f64, 0usize);
    for (line, (_, expected)) in out.lines().zip(set) {
        let line = line.ok()?;
        let f: Vec<&str> = line.split_whitespace().collect();
        let score: i32 = f.get(1)?.parse().ok()?;
        assert_eq!(score, *expected, "external solver disagrees on {line}");
        nodes += f.get(2)?.parse::<f64>().ok()?;
        micros += f.get(3)?.parse::<f64>().ok()?;
        n += 1;
    }
    writer.join().ok()?.ok()?;
    child.wait().ok()?;
    (n == set.len()).then(|| Stat {
        micros: micros / n as f64,
        nodes: nodes / n as f64,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let external = args
        .iter()
        .position(|a| a == "--external")
        .map(|i| args.get(i + 1).expect("--external needs a path").clone());
    let table = MemoryTable::with_bytes(64 << 20);
    table.prefault();
    println!("Connect Four 7x6, strong solve, table 64 MiB cleared per position, one thread");
    println!(
        "| set | positions | baseline µs | baseline nodes | zugzwang µs | zugzwang nodes | time vs baseline | nodes vs baseline | ref. nodes | ref. µs | nodes vs ref. | time vs ref. |{}",
        if external.is_some() { " external µs | external nodes | time vs external |" } else { "" }
    );
    println!(
        "|---|---|---|---|---|---|---|---|---|---|---|---|{}",
        if external.is_some() {
            "---|---|---|"
        } else {
            ""
        }
    );
    for (name, take, ref_nodes, ref_us) in SETS {
        let take = if quick { (take / 10).max(2) } else { take };
        let set = read_set(name, take);
        let base = run_baseline(&set, &table, Options::baseline());
        let ours = run_api(&set);
        let ext = external.as_deref().and_then(|b| run_external(b, &set));
        let ext_cols = ext
            .map(|e| {
                format!(
                    " {:.1} | {:.1} | {:.2} |",
                    e.micros,
                    e.nodes,
                    ours.micros / e.micros
                )
            })
            .unwrap_or_default();
        println!(
            "| {name} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} | {ref_nodes:.1} | {ref_us:.0} | {:.2} | {:.2} |{ext_cols}",
            set.len(),
            base.micros,
            base.nodes,
            ours.micros,
            ours.nodes,
            ours.micros / base.micros,
            ours.nodes / base.nodes,
            ours.nodes / ref_nodes,
            ours.micros / ref_us,
        );
    }
}
