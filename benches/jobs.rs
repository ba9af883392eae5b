//! The job-level proof search (`zugzwang prove`), measured two ways.
//!
//! `cargo build --release && cargo bench --bench jobs -- [POSITION...] [--rounds N]`: whole
//! processes, alternating in each round: `solve` on one thread (the baseline), `prove` with one
//! worker, `prove` with two, and `solve` on two threads — wall, user and system seconds and peak
//! memory (from `/usr/bin/time` where present), and of each `prove`: jobs, wasted jobs, the
//! master's CPU share, messages and bytes per job. The binary is `target/release/zugzwang` (or
//! `ZUGZWANG_BIN`).
//!
//! `cargo bench --bench jobs -- simulate [POSITION...] [--workers 1,16,64,512] [--latency S]`:
//! the real master and real jobs with many simulated workers (`zugzwang::jobs::simulate`):
//! simulated wall time, speed-up over one simulated worker, idle share, waste; then the forecast
//! of a run of `--nodes` nodes on 512 cores at the measured node rate and efficiency. Measured
//! and simulated figures are labelled as such.
//!
//! Without positions: the showcase and a Sogo position of 22 stones from a game of plausible
//! play (the README's cost forecast).

#[path = "common/process.rs"]
mod process;

use process::{timed, zugzwang_binary};
use zugzwang::jobs::{self, JobSettings, Policy};
use zugzwang::solver::{Engine, GameSpec, Mode, Request};

#[derive(clap::Parser)]
struct Args {
    /// `simulate` for the simulation; otherwise a position.
    positions: Vec<String>,
    /// Rounds of the whole-process comparison.
    #[arg(long, default_value_t = 2)]
    rounds: usize,
    /// Simulated worker counts.
    #[arg(long, default_value = "1,16,64,512")]
    workers: String,
    /// Simulated message latency, seconds each way.
    #[arg(long, default_value_t = 1e-4)]
    latency: f64,
    /// Expanded nodes per job.
    #[arg(long, default_value_t = jobs::DEFAULT_JOB_NODES)]
    job_nodes: u64,
    /// How jobs out count while the next are chosen.
    #[arg(long, default_value = "virtual-win")]
    policy: String,
    /// Tables of a simulated worker.
    #[arg(long, default_value = "64M")]
    worker_mem: String,
    /// Forecast: nodes of the runs to forecast, `name=nodes` (the README's cost curves).
    #[arg(long, default_value = "empty-sogo=1e14,empty-sogo-g=3e11")]
    nodes: String,
    /// Ignored (cargo bench passes it).
    #[arg(long, hide = true)]
    bench: bool,
}

const DEFAULT_POSITIONS: [&str; 2] = [
    // the showcase (README)
    "0x1000102480048205:0x0004000012215068",
    // 22 stones, game 5 of the cost forecast's plausible play (`cargo bench --bench cube --
    // forecast 22 --lines 8`)
    POSITION_22,
];

/// See [`DEFAULT_POSITIONS`].
const POSITION_22: &str = "0x000000200600b8e2:0x000002000120471d";

/// One process: its wall time, its times and peak memory, and its JSON output.
fn run(args: &[String]) -> (f64, String, serde_json::Value) {
    let t = timed(&zugzwang_binary(), args);
    let json = serde_json::from_slice(&t.stdout).unwrap_or_else(|_| {
        panic!(
            "{args:?}: no JSON (success {}){}",
            t.success,
            t.stderr.lines().next().unwrap_or("")
        )
    });
    let times = match (t.user, t.sys, t.peak_kb) {
        (Some(u), Some(y), Some(m)) => format!("{u:.2} user {y:.2} sys {m} KB"),
        _ => String::new(),
    };
    (t.wall, times, json)
}

fn whole_processes(a: &Args, positions: &[String]) {
    for p in positions {
        println!("{p}");
        let mut prove_walls = [0.0f64; 2];
        for round in 0..a.rounds {
            let common = |cmd: &str| -> Vec<String> {
                let mut v: Vec<String> = vec![cmd.into()];
                if cmd == "prove" {
                    v.extend(["--job-nodes".into(), a.job_nodes.to_string()]);
                    v.extend(["--policy".into(), a.policy.clone()]);
                }
                v
            };
            for (label, mut argv) in [
                ("solve 1t", common("solve")),
                ("prove 1w", common("prove")),
                ("prove 2w", common("prove")),
                ("solve 2t", common("solve")),
            ] {
                match label {
                    "prove 1w" => argv.extend(["--workers".into(), "1".into()]),
                    "prove 2w" => argv.extend(["--workers".into(), "2".into()]),
                    _ => {}
                }
                argv.extend(["sogo".into(), p.clone(), "--json".into(), "--quiet".into()]);
                argv.extend(["--mem".into(), "1G".into()]);
                if label.starts_with("solve") {
                    argv.extend(["--threads".into(), label[6..7].to_string()]);
                }
                let (wall, times, j) = run(&argv);
                let value = j["value"].as_str().unwrap_or("?");
                let mut line = format!("  r{round} {label}  {wall:>7.2} s  {times:<34} {value:<5}");
                if let Some(s) = j.get("jobs") {
                    let n = |k: &str| s[k].as_f64().unwrap_or(0.0);
                    let jobs = n("jobs").max(1.0);
                    line += &format!(
                        " jobs {:>6} wasted {:>4} master {:>5.2}% msgs/job {:.2} bytes/job {:>5.0} nodes {:>11}",
                        n("jobs"),
                        n("wasted"),
                        100.0 * n("master_cpu_seconds") / n("wall_seconds").max(1e-9),
                        n("messages") / jobs,
                        (n("bytes_sent") + n("bytes_received")) / jobs,
                        n("worker_nodes"),
                    );
                    prove_walls[usize::from(label == "prove 2w")] += wall;
                } else {
                    line += &format!(" nodes {:>11}", j["nodes"]);
                }
                println!("{line}");
            }
        }
        println!(
            "  prove, 2 workers against 1: x{:.2} (sum of {} rounds)",
            prove_walls[0] / prove_walls[1].max(1e-9),
            a.rounds
        );
    }
}

fn simulate(a: &Args, positions: &[String]) {
    let policy = Policy::from_name(&a.policy).expect("--policy virtual-win|virtual-loss");
    let mem = zugzwang::solver::Memory::parse(&a.worker_mem)
        .expect("--worker-mem")
        .resolve(64 << 20)
        .expect("--worker-mem");
    let counts: Vec<usize> = a
        .workers
        .split(',')
        .filter_map(|w| w.trim().parse().ok())
        .collect();
    println!(
        "SIMULATED: real master and real jobs, simulated clock (latency {} s)",
        a.latency
    );
    let mut efficiency_at_most = None;
    let mut rate = 0.0;
    for p in positions {
        println!("{p}");
        let mut base = None;
        for &w in &counts {
            let mut r = Request::new(GameSpec::Cube(zugzwang::game::Rules::Sogo), p);
            r.config.engine = Engine::Pn;
            r.config.mode = Mode::Weak;
            let s = JobSettings {
                budget: a.job_nodes,
                policy,
                ..JobSettings::default()
            };
            let (proved, sim) = jobs::prove_simulated(&r, s, w, mem, a.latency).expect("a value");
            let t1 = *base.get_or_insert(sim.seconds);
            let speedup = t1 / sim.seconds.max(1e-9);
            let st = &proved.stats;
            println!(
                "  {w:>4} workers: {:>9.2} s simulated, x{speedup:>7.2}, efficiency {:>5.1}%, idle {:>5.1}%, \
                 jobs {:>7}, wasted {:>5}, nodes {:>12}, master {:>5.2}%",
                sim.seconds,
                100.0 * speedup / w as f64,
                100.0 * sim.idle_share(w),
                st.jobs,
                st.wasted,
                st.worker_nodes,
                100.0 * sim.master / sim.seconds.max(1e-9)
            );
            if w == 1 {
                rate = st.worker_nodes as f64 / sim.busy.max(1e-9);
            }
            if w == *counts.iter().max().unwrap() {
                let e = speedup / w as f64;
                efficiency_at_most = Some(efficiency_at_most.map_or(e, |x: f64| x.max(e)));
            }
        }
    }
    let Some(eff) = efficiency_at_most else {
        return;
    };
    if rate <= 0.0 {
        println!("(no forecast: the node rate comes from a 1-worker run; add 1 to --workers)");
        return;
    }
    let cores = *counts.iter().max().unwrap() as f64;
    println!(
        "FORECAST (on paper): {} workers at the best simulated efficiency {:.1}% and the measured \
         {:.2} M nodes per worker-second (one worker, the last position):",
        cores,
        100.0 * eff,
        rate / 1e6
    );
    for item in a.nodes.split(',') {
        let Some((name, n)) = item.split_once('=') else {
            continue;
        };
        let Ok(n) = n.parse::<f64>() else { continue };
        let secs = n / (rate * cores * eff.max(1e-9));
        println!(
            "  {name}: {n:.1e} nodes -> {:.1e} s = {:.1} days on {cores} cores ({:.1e} core-hours; \
             {:.1e} at one worker's rate without losses)",
            secs,
            secs / 86_400.0,
            secs * cores / 3600.0,
            n / rate / 3600.0
        );
    }
}

fn main() {
    let a = <Args as clap::Parser>::parse();
    let (sim, rest) = match a.positions.first().map(String::as_str) {
        Some("simulate") => (true, a.positions[1..].to_vec()),
        _ => (false, a.positions.clone()),
    };
    let positions = if rest.is_empty() {
        DEFAULT_POSITIONS.iter().map(|s| s.to_string()).collect()
    } else {
        rest
    };
    if sim {
        simulate(&a, &positions);
    } else {
        whole_processes(&a, &positions);
    }
}
