//! 4x4x4 benchmarks: plays per second (move generation + play + win test), canonical forms over
//! 8 and 192 symmetries, full keys, and the eight Sogo presets of
//! `verify/data/cube/sogo-presets.txt` solved one by one through the solver API (value, nodes,
//! seconds including the tables' set-up; each value checked against the file's), and the cost
//! forecasts.
//!
//! Settings come from the command line after `--` (`cargo bench --bench cube -- --help`):
//! `micro [--quick]` (criterion's part), `presets [--seconds N] [--engines pn,alphabeta]
//! [--threads N]`, `forecast PLIES [--count N]` (careful random positions), `forecast PLIES
//! --lines N [--from 0xW:0xB]` (games of plausible play, from the empty board or a given
//! position such as the TU Munich milestone), `coverage PLIES [--count N]` (how often the static
//! bounds decide positions of plausible play, and how many lines the simplest pairing leaves
//! whole); no command runs `micro` and `presets`. A solve stopped
//! by the time limit is reported as unfinished, never as a value.

use criterion::{black_box, Criterion};
use std::time::{Duration, Instant};
use zugzwang::game::symmetry::{min192, min8};
use zugzwang::game::{Bits, Cube, Game, Rules};
use zugzwang::search::order;
use zugzwang::solver::{
    BestMoves, Control, Engine, GameSpec, Question, SolveError, Solver, SolverConfig,
};
use zugzwang::util::rng::xorshift;

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

/// Careful random play to `plies` stones: never a winning move, never a move handing the
/// opponent a win when another exists; restarts if a game ends or the side to move can win.
fn careful_random(rules: Rules, plies: u32, seed: &mut u64) -> Cube {
    'retry: loop {
        let mut g = Cube::new(rules);
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

/// The bench's command line (after `--`).
#[derive(clap::Parser)]
#[command(name = "cube bench")]
struct BenchArgs {
    #[command(subcommand)]
    job: Option<Job>,
    /// Seconds per solve before it counts as unfinished (default 600 for the presets, 300
    /// for the forecasts).
    #[arg(long, global = true)]
    seconds: Option<u64>,
    /// Engines to run, comma-separated: pn, alphabeta (each with the CLI's Sogo defaults).
    #[arg(long, global = true, default_value = "pn,alphabeta")]
    engines: String,
    /// Search threads (0 = one per core, as the CLI).
    #[arg(long, global = true, default_value_t = 0)]
    threads: usize,
    /// Cargo passes `--bench` to every bench binary.
    #[arg(long, global = true, hide = true)]
    bench: bool,
}

#[derive(clap::Subcommand)]
enum Job {
    /// Criterion's micro-benchmarks.
    Micro {
        /// Short measurements.
        #[arg(long)]
        quick: bool,
    },
    /// The eight Sogo presets.
    Presets,
    /// The cost forecast at these plies (e.g. 28,26,24).
    Forecast {
        /// Stone counts, comma-separated.
        plies: String,
        /// Positions per ply (careful random play).
        #[arg(long, default_value_t = 3)]
        count: usize,
        /// Games of plausible play instead, each solved from its largest ply backwards until
        /// one is unfinished.
        #[arg(long)]
        lines: Option<usize>,
        /// With --lines: the games start here (`0xWHITE:0xBLACK`; e.g. the TU Munich milestone
        /// position) instead of the empty board.
        #[arg(long, requires = "lines")]
        from: Option<String>,
        /// Sogo `-g` (creating a poison wins) instead of plain Sogo.
        #[arg(short = 'g', long)]
        poison: bool,
    },
    /// How often Sogo's static bounds decide positions of plausible play, by stone count: the
    /// knowledge that ends a proof search's branches without search.
    Coverage {
        /// Stone counts, comma-separated.
        plies: String,
        /// Positions per stone count (games of plausible play from the empty board).
        #[arg(long, default_value_t = 1000)]
        count: usize,
    },
}

/// One solve through the API with the Sogo defaults and `engine`, stopped after `limit`
/// seconds: the value (`None` if stopped), nodes and seconds, the tables' set-up included (as
/// a user waits for it).
fn solve_limited(g: &Cube, engine: Engine, threads: usize, limit: u64) -> (Option<i32>, u64, f64) {
    let spec = GameSpec::Cube(g.rules());
    let cfg = SolverConfig {
        engine,
        threads,
        best: BestMoves::None,
        ..SolverConfig::for_game(spec)
    };
    let t = Instant::now();
    let mut solver = Solver::new(spec, cfg).expect("the defaults run");
    let r = solver.solve_position(
        g,
        Question::Value,
        Some(Duration::from_secs(limit)),
        &Control::new(),
    );
    let secs = t.elapsed().as_secs_f64();
    match r {
        Ok(s) => (Some(s.score), s.nodes, secs),
        Err(SolveError::Stopped { nodes, .. }) => (None, nodes, secs),
        Err(e) => panic!("{e}"),
    }
}

/// One result column: value, nodes, seconds, or how far an unfinished search got.
fn column((r, nodes, secs): (Option<i32>, u64, f64)) -> String {
    match r {
        Some(v) => format!("{v:>5} {nodes:>11} {secs:>7.2}"),
        None => format!("    > {nodes:>11} {secs:>7.0}"),
    }
}

/// The engines asked for.
fn engines(args: &BenchArgs) -> Vec<Engine> {
    args.engines
        .split(',')
        .map(|e| e.trim().parse().expect("--engines: pn, alphabeta"))
        .collect()
}

/// Every engine on `g`; the values of those that finish must agree with each other.
fn solve_all(args: &BenchArgs, g: &Cube, limit: u64) -> Vec<(Option<i32>, u64, f64)> {
    let results: Vec<_> = engines(args)
        .into_iter()
        .map(|e| solve_limited(g, e, args.threads, limit))
        .collect();
    let values: Vec<i32> = results.iter().filter_map(|r| r.0).collect();
    assert!(
        values.windows(2).all(|w| w[0] == w[1]),
        "engines disagree on {}",
        g.to_hex()
    );
    results
}

fn columns(results: Vec<(Option<i32>, u64, f64)>) -> String {
    results
        .into_iter()
        .map(column)
        .collect::<Vec<_>>()
        .join(" | ")
}

fn presets(args: &BenchArgs) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/verify/data/cube/sogo-presets.txt"
    );
    let text = std::fs::read_to_string(path).expect("the presets are in the repository");
    let limit = args.seconds.unwrap_or(600);
    println!(
        "preset     stones expected | {} (value nodes seconds) | that solver",
        args.engines
    );
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (name, masks, expected) = (f[0], f[2], f[3].parse::<i32>().unwrap_or(9));
        let theirs = f[4..].join(" ");
        let g = Cube::from_hex(Rules::Sogo, masks).expect("preset parses");
        let results = solve_all(args, &g, limit);
        for v in results.iter().filter_map(|r| r.0) {
            assert_eq!(v, expected, "{name}: value differs from the file's");
        }
        let verdict = if results.iter().all(|r| r.0.is_none()) {
            "unfinished"
        } else {
            "ok"
        };
        println!(
            "{name:<10} {:>6} {expected:>8} | {} | {theirs} {verdict}",
            g.ply(),
            columns(results)
        );
    }
}

/// The Sogo (or `-g`, `rules`) cost forecast along `lines` games of plausible play: each game's position after
/// every ply of `plies` (largest first, e.g. `26,24,22,20`) solved by pn, until one is
/// unfinished in the time limit (the earlier plies of that game would be too). Positions of
/// one game share their history, so their costs show how each pair of plies more multiplies
/// the work on the way to the empty board.
fn forecast_lines(args: &BenchArgs, rules: Rules, plies: &str, lines: usize, from: Option<&str>) {
    let start = match from {
        Some(text) => Cube::from_hex(rules, text).expect("--from: a Sogo position 0xW:0xB"),
        None => Cube::new(rules),
    };
    let limit = args.seconds.unwrap_or(300);
    let mut plies: Vec<u32> = plies
        .split(',')
        .filter_map(|p| p.trim().parse().ok())
        .collect();
    plies.sort_unstable_by(|a, b| b.cmp(a));
    println!("line ply  position                               | pn: value nodes seconds");
    let mut seed = 0x9a3e_11e5_u64;
    for line in 0..lines {
        let moves = order::plausible_game(&start, plies[0], 3, &mut seed);
        for &ply in plies.iter().filter(|&&p| p >= start.ply()) {
            let mut g = start;
            for &mv in &moves[..(ply - start.ply()) as usize] {
                g.play(mv);
            }
            let pn = solve_limited(&g, Engine::Pn, args.threads, limit);
            println!("{line:>4} {ply:>3}  {} | {}", g.to_hex(), column(pn));
            if pn.0.is_none() {
                break;
            }
        }
    }
}

/// For `count` positions of plausible play at each stone count of `plies`: how many the
/// opponent's pairing strategies prove lost or not winnable for the side to move, in how many
/// some move leaves the opponent a pairing loss (what the proof search's attacker leaves test),
/// how many lines of the side to move the simplest pairing leaves whole, and the same three counts
/// with the pair games (`Cube::pair_games_bound`, which the search does not ask). At any ply, though
/// the search asks the pairings only from the ply where `Game::static_bounds` starts: this
/// measures what that leaves out.
fn coverage(plies: &str, count: usize) {
    let start = Cube::new(Rules::Sogo);
    println!(
        "| stones | positions | pairing: side to move loses | pairing: cannot win | \
         a move leaves a pairing loss | lines left whole (median) | \
         with pair games: loses | cannot win | a move leaves a loss |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for ply in plies
        .split(',')
        .filter_map(|p| p.trim().parse::<u32>().ok())
    {
        let mut seed = 0xc0fe_u64 + ply as u64;
        let mut pairing = BoundCounts::default();
        let mut games = BoundCounts::default();
        let mut lines_left = Vec::with_capacity(count);
        for _ in 0..count {
            let moves = order::plausible_game(&start, ply, 3, &mut seed);
            let mut g = start;
            for &mv in &moves {
                g.play(mv);
            }
            lines_left.push(g.pairing_lines_left());
            pairing.add(&g, Cube::pairing_bound);
            games.add(&g, Cube::pair_games_bound);
        }
        let share = |n: usize| format!("{n} ({:.1}%)", 100.0 * n as f64 / count as f64);
        lines_left.sort_unstable();
        println!(
            "| {ply} | {count} | {} | {} | {} | {} | {} | {} | {} |",
            share(pairing.loses),
            share(pairing.no_win),
            share(pairing.move_leaves_loss),
            lines_left[count / 2],
            share(games.loses),
            share(games.no_win),
            share(games.move_leaves_loss)
        );
    }
}

/// What one static bound proves over the coverage bench's positions.
#[derive(Default)]
struct BoundCounts {
    /// Positions it proves lost for the side to move.
    loses: usize,
    /// Positions it proves the side to move cannot win.
    no_win: usize,
    /// Positions where some move leaves the opponent a proved loss.
    move_leaves_loss: usize,
}

impl BoundCounts {
    fn add(&mut self, g: &Cube, bound: fn(&Cube) -> i32) {
        let hi = bound(g);
        self.loses += (hi < 0) as usize;
        self.no_win += (hi == 0) as usize;
        self.move_leaves_loss += Bits(g.non_losing_moves()).any(|mv| {
            let mut child = *g;
            child.play(mv);
            bound(&child) < 0
        }) as usize;
    }
}

/// The Sogo (or `-g`, `rules`) cost forecast: `count` careful random positions after each ply of `plies` (e.g.
/// `24,22,20,18`), every engine limited to the time limit.
fn forecast(args: &BenchArgs, rules: Rules, plies: &str, count: usize) {
    let limit = args.seconds.unwrap_or(300);
    let mut seed = 0xf04e_ca57_u64;
    println!(
        "ply  position                               | {} (value nodes seconds)",
        args.engines
    );
    for ply in plies
        .split(',')
        .filter_map(|p| p.trim().parse::<u32>().ok())
    {
        for _ in 0..count {
            let g = careful_random(rules, ply, &mut seed);
            println!(
                "{ply:>3}  {} | {}",
                g.to_hex(),
                columns(solve_all(args, &g, limit))
            );
        }
    }
}

/// Criterion's part; `quick` shortens every measurement.
fn micro(quick: bool) {
    let mut c = Criterion::default();
    if quick {
        c = c
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(Duration::from_millis(500))
            .sample_size(10);
    }
    criterion_part(&mut c);
    c.final_summary();
}

fn main() {
    let args = <BenchArgs as clap::Parser>::parse();
    match &args.job {
        Some(Job::Micro { quick }) => micro(*quick),
        Some(Job::Presets) => presets(&args),
        Some(Job::Forecast {
            plies,
            count,
            lines,
            from,
            poison,
        }) => {
            let rules = if *poison {
                Rules::SogoPoison
            } else {
                Rules::Sogo
            };
            match lines {
                Some(n) => forecast_lines(&args, rules, plies, *n, from.as_deref()),
                None => forecast(&args, rules, plies, *count),
            }
        }
        Some(Job::Coverage { plies, count }) => coverage(plies, *count),
        None => {
            micro(false);
            presets(&args);
        }
    }
}
