//! 4x4x4 benchmarks: plays per second (move generation + play + win test), canonical forms over
//! 8 and 192 symmetries, full keys, and the eight Sogo presets of
//! `verify/data/cube/sogo-presets.txt` solved one by one (value, nodes, seconds; each value
//! checked against the file's).
//!
//! `cargo bench --bench cube` runs everything; `-- --quick` shortens criterion's part;
//! `CUBE_PRESET_SECONDS=N` limits each preset (default 600 s; a preset stopped by the limit is
//! reported as unfinished, never as a value); `CUBE_THREADS=N` gives the pn engine N threads
//! (default: one per core, as the CLI); `CUBE_ENGINES=pn` skips alpha-beta; `CUBE_PRESETS_ONLY=1`
//! skips criterion's part.

use criterion::{black_box, Criterion};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use zugzwang::game::symmetry::{min192, min8};
use zugzwang::game::{Bits, Cube, Game, Rules};
use zugzwang::search::order;
use zugzwang::search::proof::{
    DEFAULT_GRAVITY_ENDGAME, DEFAULT_VCF_BUDGET, ENDGAME_FORCING_MIN_EMPTY,
};
use zugzwang::search::vcf::ForcingSearch;
use zugzwang::search::{MemoryTable, ProofSearch, ProofTable, Searcher, Table};

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// Plays random games to the end: per stone, the playable set, the immediate-win test of the
/// side to move (which needs the threat update done by `play`) and the play itself.
fn random_games(rules: Rules, games: usize, seed: &mut u64) -> u64 {
    let mut plays = 0;
    for _ in 0..games {
        let mut g = Cube::new(rules);
        while g.ply() < 64 {
            let moves = g.playable();
            if g.winning_moves() != 0 {
                break;
            }
            // a cheap random choice (no division): the lowest playable cell at or after a
            // random rotation of the board
            let r = (xorshift(seed) & 63) as u32;
            let rot = moves.rotate_right(r);
            let mv = (rot & rot.wrapping_neg()).rotate_left(r);
            g.play(mv);
            plays += 1;
        }
    }
    plays
}

fn random_boards(n: usize) -> Vec<(u64, u64)> {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    (0..n)
        .map(|_| {
            let occ = xorshift(&mut s) & xorshift(&mut s);
            let w = occ & xorshift(&mut s);
            (w, occ & !w)
        })
        .collect()
}

fn criterion_part(c: &mut Criterion) {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    // plays per second, measured directly too (criterion reports time per 100 games). One round
    // takes only some 30 ms, so a burst of work on the other core can halve it: report the best
    // and the median of several rounds (the same games in every round and every run).
    for rules in [Rules::Sogo, Rules::Qubic] {
        let mut rates = Vec::new();
        let mut plays = 0;
        for _ in 0..9 {
            let mut round_seed = 0x9e37_79b9_7f4a_7c15u64;
            let t = Instant::now();
            plays = random_games(rules, 200_000, &mut round_seed);
            rates.push(plays as f64 / t.elapsed().as_secs_f64() / 1e6);
        }
        rates.sort_by(f64::total_cmp);
        println!(
            "{rules:?}: {plays} plays per round, best {:.1} M plays/s, median {:.1} M plays/s over {} rounds (playable + win test + play)",
            rates[rates.len() - 1],
            rates[rates.len() / 2],
            rates.len()
        );
        c.bench_function(&format!("{rules:?} 100 random games"), |b| {
            b.iter(|| random_games(rules, 100, &mut seed))
        });
    }
    let boards = random_boards(1024);
    c.bench_function("canonical min over 8 symmetries (per board)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) & 1023;
            let (w, k) = boards[i];
            black_box(min8(black_box(w), black_box(k)))
        })
    });
    c.bench_function("canonical min over 192 symmetries (per board)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) & 1023;
            let (w, k) = boards[i];
            black_box(min192(black_box(w), black_box(k)))
        })
    });
    // full keys (dead cells + canonical + xxh3) of mid-game positions
    let mut s = 7u64;
    let positions: Vec<(Cube, Cube)> = (0..256)
        .map(|_| {
            let mut g = Cube::new(Rules::Sogo);
            let mut q = Cube::new(Rules::Qubic);
            for _ in 0..24 {
                let m = g.playable();
                g.play(
                    Bits(m)
                        .nth((xorshift(&mut s) % m.count_ones() as u64) as usize)
                        .unwrap(),
                );
                let m = q.playable();
                q.play(
                    Bits(m)
                        .nth((xorshift(&mut s) % m.count_ones() as u64) as usize)
                        .unwrap(),
                );
            }
            (g, q)
        })
        .collect();
    c.bench_function("Sogo key at ply 24", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) & 255;
            black_box(positions[i].0.key())
        })
    });
    c.bench_function("Qubic key at ply 24", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) & 255;
            black_box(positions[i].1.key())
        })
    });
}

/// Raises `stop` after `limit` seconds unless `done` is raised first.
fn stop_after(
    limit: u64,
    stop: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let t = Instant::now();
        while !done.load(Ordering::Relaxed) && t.elapsed() < Duration::from_secs(limit) {
            std::thread::sleep(Duration::from_millis(50));
        }
        stop.store(true, Ordering::Relaxed);
    })
}

/// Solves `g` with the alpha-beta engine from an empty `table` as the CLI's `--engine
/// alphabeta` does (capped deepening, ETC from 30 empty cells, the forcing-win cutoff), stopped
/// after `limit` seconds: the value (`None` if stopped), nodes and seconds. One place for the presets and the
/// forecast, so that both measure the same search.
fn solve_limited(table: &MemoryTable, g: &Cube, limit: u64) -> (Option<i32>, u64, f64) {
    table.clear();
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let timer = stop_after(limit, stop.clone(), done.clone());
    let t = Instant::now();
    let mut searcher = Searcher::new(table)
        .with_stop(&stop)
        .with_etc_min_empty(30)
        .with_forcing(
            ForcingSearch::new(DEFAULT_VCF_BUDGET),
            ENDGAME_FORCING_MIN_EMPTY,
        );
    let r = zugzwang::search::capped::solve_deepening(&mut searcher, g, 4, 2);
    let secs = t.elapsed().as_secs_f64();
    done.store(true, Ordering::Relaxed);
    let _ = timer.join();
    (r.ok().map(|(v, _)| v), searcher.nodes, secs)
}

/// The same with the proof-number engine as the CLI's default `--engine pn` runs it on Sogo
/// (alpha-beta leaves from 20 empty cells, on `endgame`); nodes of both searches.
fn prove_limited(
    table: &mut ProofTable,
    endgame: &MemoryTable,
    g: &Cube,
    limit: u64,
    threads: usize,
) -> (Option<i32>, u64, f64) {
    table.clear();
    endgame.clear();
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let timer = stop_after(limit, stop.clone(), done.clone());
    let t = Instant::now();
    let mut search = ProofSearch::new(table)
        .with_stop(&stop)
        .with_endgame(endgame, DEFAULT_GRAVITY_ENDGAME)
        .with_threads(threads);
    let r = search.value(g);
    let secs = t.elapsed().as_secs_f64();
    done.store(true, Ordering::Relaxed);
    let _ = timer.join();
    (r.ok(), search.nodes + search.endgame_nodes, secs)
}

/// The environment variable `name` as a number, else `default`.
fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The tables of the preset and forecast runs: 1 GiB for alpha-beta (touched up front, so page
/// faults do not land in the first timing) and 1 GiB for pn.
fn benchmark_tables() -> (MemoryTable, ProofTable) {
    let table = MemoryTable::with_bytes(1 << 30);
    table.prefault();
    (table, ProofTable::new(1 << 30))
}

/// `CUBE_THREADS`, else one per core.
fn pn_threads() -> usize {
    env_or(
        "CUBE_THREADS",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    )
}

/// Whether `CUBE_ENGINES` (default both) asks for alpha-beta.
fn alphabeta_wanted() -> bool {
    std::env::var("CUBE_ENGINES").map_or(true, |e| e.contains("alphabeta"))
}

/// One result column: value, nodes, seconds, or how far an unfinished search got.
fn column((r, nodes, secs): (Option<i32>, u64, f64)) -> String {
    match r {
        Some(v) => format!("{v:>5} {nodes:>11} {secs:>7.2}"),
        None => format!("    > {nodes:>11} {secs:>7.0}"),
    }
}

fn presets() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/verify/data/cube/sogo-presets.txt"
    );
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            println!("presets: cannot read {path}: {e}");
            return;
        }
    };
    let limit: u64 = env_or("CUBE_PRESET_SECONDS", 600);
    let (table, mut proof_table) = benchmark_tables();
    let threads = pn_threads();
    println!(
        "preset     stones expected | alphabeta: value nodes seconds | pn ({threads} threads): value nodes seconds | that solver"
    );
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (name, masks, expected) = (f[0], f[2], f[3].parse::<i32>().unwrap_or(9));
        let theirs = f[4..].join(" ");
        let g = Cube::from_hex(Rules::Sogo, masks).expect("preset parses");
        let ab = if alphabeta_wanted() {
            solve_limited(&table, &g, limit)
        } else {
            (None, 0, 0.0)
        };
        let pn = prove_limited(&mut proof_table, &table, &g, limit, threads);
        let mut verdict = "ok";
        for v in [ab.0, pn.0].into_iter().flatten() {
            assert_eq!(v, expected, "{name}: value differs from the file's");
        }
        if ab.0.is_none() && pn.0.is_none() {
            verdict = "unfinished";
        }
        println!(
            "{name:<10} {:>6} {expected:>8} | {} | {} | {theirs} {verdict}",
            g.ply(),
            column(ab),
            column(pn),
        );
    }
}

/// Careful random play to `plies` stones: never a winning move, never a move handing the
/// opponent a win when another exists; restarts if a game ends or the side to move can win.
fn careful_random(plies: u32, seed: &mut u64) -> Cube {
    'retry: loop {
        let mut g = Cube::new(Rules::Sogo);
        while g.ply() < plies {
            let mut cand = g.playable() & !g.winning_moves();
            let safe = g.non_losing_moves() & cand;
            if safe != 0 {
                cand = safe;
            }
            if cand == 0 {
                continue 'retry;
            }
            let k = (xorshift(seed) % cand.count_ones() as u64) as usize;
            g.play(Bits(cand).nth(k).unwrap_or(0));
        }
        if g.winning_moves() == 0 && g.non_losing_moves() != 0 {
            return g;
        }
    }
}

/// The moves of a game of plausible play to `plies` stones: at every ply one of the three
/// non-losing moves the move ordering ranks highest (seed 003's weights and ours), at random;
/// restarts if a game ends early or the side to move can win at once.
fn plausible_line(plies: u32, seed: &mut u64) -> Vec<u64> {
    let start = Cube::new(Rules::Sogo);
    loop {
        if let Some(moves) = order::plausible_line(&start, plies, 3, || xorshift(seed)) {
            return moves;
        }
    }
}

/// The Sogo cost forecast along `CUBE_FORECAST_LINES` games of plausible play: each game's
/// position after every ply of `CUBE_FORECAST` (largest first, e.g. `26,24,22,20`) solved by
/// pn, until one is unfinished in `CUBE_PRESET_SECONDS` (the earlier plies of that game would
/// be too). Positions of one game share their history, so their costs show how each pair of
/// plies more multiplies the work on the way to the empty board.
fn forecast_lines(plies: &str, lines: usize) {
    let limit: u64 = env_or("CUBE_PRESET_SECONDS", 300);
    let (table, mut proof_table) = benchmark_tables();
    let mut plies: Vec<u32> = plies
        .split(',')
        .filter_map(|p| p.trim().parse().ok())
        .collect();
    plies.sort_unstable_by(|a, b| b.cmp(a));
    let threads = pn_threads();
    println!(
        "line ply  position                               | pn ({threads} threads): value nodes seconds"
    );
    let mut seed = 0x9a3e_11e5_u64;
    for line in 0..lines {
        let moves = plausible_line(plies[0], &mut seed);
        for &ply in &plies {
            let mut g = Cube::new(Rules::Sogo);
            for &mv in &moves[..ply as usize] {
                g.play(mv);
            }
            let pn = prove_limited(&mut proof_table, &table, &g, limit, threads);
            println!("{line:>4} {ply:>3}  {} | {}", g.to_hex(), column(pn));
            if pn.0.is_none() {
                break;
            }
        }
    }
}

/// The Sogo cost forecast: random positions after each ply of `CUBE_FORECAST` (e.g.
/// `24,22,20,18`), `CUBE_FORECAST_COUNT` of each, each limited to `CUBE_PRESET_SECONDS`.
fn forecast(plies: &str) {
    let count: usize = env_or("CUBE_FORECAST_COUNT", 3);
    let limit: u64 = env_or("CUBE_PRESET_SECONDS", 300);
    let (table, mut proof_table) = benchmark_tables();
    let mut seed = 0xf04e_ca57_u64;
    println!("ply  position                               | alphabeta: value nodes seconds | pn: value nodes seconds");
    for ply in plies
        .split(',')
        .filter_map(|p| p.trim().parse::<u32>().ok())
    {
        for _ in 0..count {
            let g = careful_random(ply, &mut seed);
            let ab = if alphabeta_wanted() {
                solve_limited(&table, &g, limit)
            } else {
                (None, 0, 0.0)
            };
            let pn = prove_limited(&mut proof_table, &table, &g, limit, pn_threads());
            if let (Some(a), Some(p)) = (ab.0, pn.0) {
                assert_eq!(a, p, "engines disagree on {}", g.to_hex());
            }
            println!("{ply:>3}  {} | {} | {}", g.to_hex(), column(ab), column(pn));
        }
    }
}

fn main() {
    if let Ok(plies) = std::env::var("CUBE_FORECAST") {
        match std::env::var("CUBE_FORECAST_LINES")
            .ok()
            .and_then(|v| v.parse().ok())
        {
            Some(lines) => forecast_lines(&plies, lines),
            None => forecast(&plies),
        }
        return;
    }
    if std::env::var("CUBE_PRESETS_ONLY").is_err() {
        let mut c = Criterion::default().configure_from_args();
        criterion_part(&mut c);
        c.final_summary();
    }
    if std::env::var("CUBE_SKIP_PRESETS").is_err() {
        presets();
    }
}
