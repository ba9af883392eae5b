//! Seed 003's keys side by side with the sound keys (issue #16): the eight Sogo presets of
//! `verify/data/cube/sogo-presets.txt`, careful random positions per ply band and the positions
//! of the cost forecast's games of plausible play, each solved twice through the solver API —
//! `--keys sound` and `--keys seed`, same engine (our proof search, or `--engine seed`, the
//! seed's own search), threads and memory, each with the same time limit — printing value and
//! nodes per mode, then a summary: disagreements by group and direction (which side the seed's
//! keys favour), and the node ratio seed/sound over the positions both modes finished.
//!
//! `cargo bench --bench cube_seed -- [--engine pn|seed] [--bands 8,10,12] [--count 200]
//! [--seconds 10] [--threads 1] [--mem 64M] [--game sogo|sogo-g|qubic] [--no-presets]
//! [--lines 3 --plies 28,26,24]`. A band is a number of empty cells; `--lines N` adds the
//! positions after each of `--plies` stones of the first N forecast games (`benches/cube.rs
//! forecast --lines`, same games), each game from its largest ply backwards until both modes
//! are unfinished; `--seed-only` solves with seed keys alone (a cost curve). A solve stopped by the time limit is reported as unfinished, never as a
//! value.

use std::time::Duration;
use zugzwang::game::{Cube, Game, Rules};
use zugzwang::search::order;
use zugzwang::solver::{
    BestMoves, Control, GameSpec, KeyMode, Question, SolveError, Solver, SolverConfig,
};
use zugzwang::util::random_play::careful_positions;

/// The bench's command line (after `--`).
#[derive(clap::Parser)]
#[command(name = "cube_seed bench")]
struct BenchArgs {
    /// Empty-cell counts of the random bands, comma-separated (`""`: none).
    #[arg(long, default_value = "8,10,12,14")]
    bands: String,
    /// Careful random positions per band.
    #[arg(long, default_value_t = 200)]
    count: usize,
    /// Seconds per solve before it counts as unfinished.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// Search threads per solve.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Memory per solve (bytes, with K/M/G).
    #[arg(long, default_value = "64M")]
    mem: String,
    /// The game of the random bands: sogo, sogo-g, qubic (the presets are Sogo's).
    #[arg(long, default_value = "sogo")]
    game: String,
    /// Skip the presets.
    #[arg(long)]
    no_presets: bool,
    /// The engine of both modes: pn (the CLI's default) or seed (seed 003's search).
    #[arg(long, default_value = "pn")]
    engine: String,
    /// Seed keys only (the cost curve of the seed's method where the sound keys take far
    /// longer); nothing is compared.
    #[arg(long)]
    seed_only: bool,
    /// Games of plausible play (the forecast's) whose positions to add.
    #[arg(long, default_value_t = 0)]
    lines: usize,
    /// Stone counts of the forecast games' positions, comma-separated.
    #[arg(long, default_value = "28,26,24,22,20")]
    plies: String,
    /// Cargo passes `--bench` to every bench binary.
    #[arg(long, hide = true)]
    bench: bool,
}

/// One solve: the value (`None` if stopped) and the nodes.
fn solve(g: &Cube, mode: KeyMode, args: &BenchArgs, mem: u64) -> (Option<i32>, u64) {
    let spec = GameSpec::Cube(g.rules());
    let cfg = SolverConfig {
        threads: args.threads,
        mem_bytes: mem,
        best: BestMoves::None,
        key_mode: mode,
        engine: args.engine.parse().expect("--engine: pn or seed"),
        ..SolverConfig::for_game(spec)
    };
    let mut solver = Solver::new(spec, cfg).expect("the defaults run");
    match solver.solve_position(
        g,
        Question::Value,
        Some(Duration::from_secs(args.seconds)),
        &Control::new(),
    ) {
        Ok(s) => (Some(s.score), s.nodes),
        Err(SolveError::Stopped { nodes, .. }) => (None, nodes),
        Err(e) => panic!("{e}"),
    }
}

/// Per band: positions, disagreements by direction, unfinished, and the node sums over the
/// positions both modes finished.
#[derive(Default)]
struct Tally {
    positions: u64,
    /// The seed's value is better for the side to move than the sound one.
    seed_favours_mover: u64,
    /// ... worse for the side to move.
    seed_favours_other: u64,
    /// The seed's value is better for White (the first player) than the sound one.
    seed_favours_white: u64,
    unfinished: u64,
    sound_nodes: u64,
    seed_nodes: u64,
}

fn column((v, nodes): (Option<i32>, u64)) -> String {
    match v {
        Some(v) => format!("{v:>3} {nodes:>11}"),
        None => format!("  > {nodes:>11}"),
    }
}

/// Both modes on `g`; the tally counts it. Whether either finished.
fn side_by_side(label: &str, g: &Cube, args: &BenchArgs, mem: u64, t: &mut Tally) -> bool {
    let seed = solve(g, KeyMode::Seed, args, mem);
    if args.seed_only {
        println!(
            "{label:<10} {:>3} {} |     - | {}",
            g.max_ply() - g.ply(),
            g.to_hex(),
            column(seed)
        );
        return seed.0.is_some();
    }
    let sound = solve(g, KeyMode::Sound, args, mem);
    t.positions += 1;
    let finished = sound.0.is_some() || seed.0.is_some();
    let mark = match (sound.0, seed.0) {
        (Some(a), Some(b)) => {
            t.sound_nodes += sound.1;
            t.seed_nodes += seed.1;
            if a == b {
                ""
            } else {
                if b > a {
                    t.seed_favours_mover += 1;
                } else {
                    t.seed_favours_other += 1;
                }
                // White moves at even plies: the mover's gain is White's there
                if (b > a) == (g.ply() % 2 == 0) {
                    t.seed_favours_white += 1;
                }
                "  DIFFERS"
            }
        }
        _ => {
            t.unfinished += 1;
            "  unfinished"
        }
    };
    println!(
        "{label:<10} {:>3} {} | {} | {}{mark}",
        g.max_ply() - g.ply(),
        g.to_hex(),
        column(sound),
        column(seed)
    );
    finished
}

fn summary(name: &str, t: &Tally) {
    let differ = t.seed_favours_mover + t.seed_favours_other;
    println!(
        "{name:<10} {:>5} positions, {differ:>3} differ (seed better for the mover {}, worse {}; better for White {}, for Black {}), {} unfinished, nodes seed/sound {:.3} ({} / {})",
        t.positions,
        t.seed_favours_mover,
        t.seed_favours_other,
        t.seed_favours_white,
        differ - t.seed_favours_white,
        t.unfinished,
        t.seed_nodes as f64 / t.sound_nodes.max(1) as f64,
        t.seed_nodes,
        t.sound_nodes
    );
}

/// The positions of the first `--lines` forecast games after each of `--plies` stones, each
/// game from its largest ply back until neither mode finishes.
fn forecast_games(args: &BenchArgs, rules: Rules, mem: u64) -> Tally {
    let mut plies: Vec<u32> = args
        .plies
        .split(',')
        .map(|p| p.trim().parse().expect("--plies: stone counts"))
        .collect();
    plies.sort_unstable_by(|a, b| b.cmp(a));
    let mut t = Tally::default();
    // the seed of `benches/cube.rs forecast --lines`: the same games
    let mut seed = 0x9a3e_11e5_u64;
    for line in 0..args.lines {
        let moves = order::plausible_game(&Cube::new(rules), plies[0], 3, &mut seed);
        for &ply in &plies {
            let mut g = Cube::new(rules);
            for &mv in &moves[..ply as usize] {
                g.play(mv);
            }
            if !side_by_side(&format!("game{line}-{ply}"), &g, args, mem, &mut t) {
                break;
            }
        }
    }
    t
}

fn parse_bytes(text: &str) -> u64 {
    let t = text.trim();
    let (num, mul) = match t.chars().last() {
        Some('K' | 'k') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M' | 'm') => (&t[..t.len() - 1], 1 << 20),
        Some('G' | 'g') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    num.parse::<u64>().expect("--mem: a size such as 64M") * mul
}

fn main() {
    let args = <BenchArgs as clap::Parser>::parse();
    let mem = parse_bytes(&args.mem);
    let rules = match GameSpec::from_name(&args.game, None) {
        Ok(GameSpec::Cube(r)) => r,
        _ => panic!("--game: sogo, sogo-g or qubic"),
    };
    println!(
        "engine {}, {} thread(s), {} per solve, {} s limit; columns: name, empty cells, position | sound: value nodes | seed: value nodes",
        args.engine, args.threads, args.mem, args.seconds
    );
    let mut summaries = Vec::new();
    if !args.no_presets {
        let text = include_str!("../verify/data/cube/sogo-presets.txt");
        let mut t = Tally::default();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let f: Vec<&str> = line.split_whitespace().collect();
            let g = Cube::from_hex(Rules::Sogo, f[2]).expect("preset parses");
            side_by_side(f[0], &g, &args, mem, &mut t);
        }
        summaries.push(("presets".to_string(), t));
    }
    for band in args
        .bands
        .split(',')
        .filter(|b| !b.trim().is_empty())
        .map(|b| b.trim().parse::<u32>().expect("--bands: empty-cell counts"))
    {
        let mut t = Tally::default();
        let seed = 0x5eed_0003 ^ u64::from(band);
        for g in careful_positions(Cube::new(rules), band, args.count, seed) {
            side_by_side(&format!("{}-{band}", args.game), &g, &args, mem, &mut t);
        }
        summaries.push((format!("{band} empty"), t));
    }
    if args.lines > 0 {
        summaries.push(("forecast".to_string(), forecast_games(&args, rules, mem)));
    }
    println!("summary ({}, engine {}):", args.game, args.engine);
    for (name, t) in &summaries {
        summary(name, t);
    }
}
