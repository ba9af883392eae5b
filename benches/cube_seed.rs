//! Seed 003's keys side by side with the sound keys (issue #16): the eight Sogo presets of
//! `verify/data/cube/sogo-presets.txt` and careful random positions per ply band, each solved
//! twice through the solver API — `--keys sound` and `--keys seed`, same engine, threads and
//! memory, each with the same time limit — printing value and nodes per mode, then a summary:
//! disagreements by ply band and direction (which side the seed's keys favour), and the node
//! ratio seed/sound over the positions both modes finished.
//!
//! `cargo bench --bench cube_seed -- [--bands 8,10,12] [--count 200] [--seconds 10]
//! [--threads 1] [--mem 64M] [--game sogo|sogo-g|qubic] [--no-presets]`. A band is a number of
//! empty cells. A solve stopped by the time limit is reported as unfinished, never as a value.

use std::time::Duration;
use zugzwang::game::{Cube, Game, Rules};
use zugzwang::solver::{
    BestMoves, Control, GameSpec, KeyMode, Question, SolveError, Solver, SolverConfig,
};
use zugzwang::util::random_play::careful_positions;

/// The bench's command line (after `--`).
#[derive(clap::Parser)]
#[command(name = "cube_seed bench")]
struct BenchArgs {
    /// Empty-cell counts of the random bands, comma-separated.
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

/// Both modes on `g`; the tally counts it.
fn side_by_side(label: &str, g: &Cube, args: &BenchArgs, mem: u64, t: &mut Tally) {
    let sound = solve(g, KeyMode::Sound, args, mem);
    let seed = solve(g, KeyMode::Seed, args, mem);
    t.positions += 1;
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
        "{} thread(s), {} per solve, {} s limit; columns: name, empty cells, position | sound: value nodes | seed: value nodes",
        args.threads, args.mem, args.seconds
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
        .map(|b| b.trim().parse::<u32>().expect("--bands: empty-cell counts"))
    {
        let mut t = Tally::default();
        let seed = 0x5eed_0003 ^ u64::from(band);
        for g in careful_positions(Cube::new(rules), band, args.count, seed) {
            side_by_side(&format!("{}-{band}", args.game), &g, &args, mem, &mut t);
        }
        summaries.push((format!("{band} empty"), t));
    }
    println!("summary ({}):", args.game);
    for (name, t) in &summaries {
        summary(name, t);
    }
}
