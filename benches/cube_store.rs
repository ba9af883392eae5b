//! The position store under the 4x4x4 proof search, measured as whole processes: a fresh
//! `solve ... --table`, the same solve stopped part way (`--time-limit`) and then resumed, each
//! timed (wall, user, system seconds, peak memory from `/usr/bin/time` where present, else wall
//! only) with the nodes it reports; then the cost of a store look-up in the 4x4x4 table the
//! fresh run left: a Bloom-rejected miss and a warm hit.
//!
//! `cargo build --release && cargo bench --bench cube_store -- [POSITION...] [--stop-at 0.5]
//! [--game sogo] [--threads N]`. Without positions: the presets showcase and p2_18. The binary is `target/release/zugzwang` (or `ZUGZWANG_BIN`).

#[path = "common/process.rs"]
mod process;

use process::{timed, zugzwang_binary};
use std::path::{Path, PathBuf};
use std::time::Instant;
use zugzwang::game::Key;
use zugzwang::search::proof::Settled;
use zugzwang::solver::{GameSpec, KeyMode, SolverConfig};
use zugzwang::store::entry::Entry;
use zugzwang::store::run_file::{Run, Verify};
use zugzwang::store::{run_files, Store, StoreConfig};

#[derive(clap::Parser)]
struct Args {
    /// Positions (`0xWHITE:0xBLACK` or moves); default: the presets showcase and p2_18.
    positions: Vec<String>,
    /// The game.
    #[arg(long, default_value = "sogo")]
    game: String,
    /// Stop the interrupted run after this share of the fresh run's wall time.
    #[arg(long, default_value_t = 0.5)]
    stop_at: f64,
    /// Search threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Only time look-ups in this existing table (of `--game`, default hash seed unless
    /// `--hash-seed`), no solves.
    #[arg(long, value_name = "DIR")]
    lookups_in: Option<PathBuf>,
    /// The table's hash seed (with `--lookups-in`).
    #[arg(long)]
    hash_seed: Option<u64>,
    /// Ignored (cargo bench passes it).
    #[arg(long, hide = true)]
    bench: bool,
}

const DEFAULT_POSITIONS: [&str; 2] = [
    "0x1000102480048205:0x0004000012215068",
    "0x00000000d000a470:0x0000004022405281",
];

/// What one process did.
struct Run1 {
    wall: f64,
    times: String,
    nodes: u64,
    value: String,
}

/// Runs one solve as its own process.
fn solve(args: &Args, position: &str, table: &Path, limit: Option<f64>) -> Run1 {
    let mut argv: Vec<String> = [
        "solve", &args.game, position, "--json", "--quiet", "--table",
    ]
    .map(String::from)
    .into();
    argv.push(table.display().to_string());
    argv.extend(["--threads".to_string(), args.threads.to_string()]);
    if let Some(s) = limit {
        argv.extend(["--time-limit".to_string(), format!("{s:.3}s")]);
    }
    let t = timed(&zugzwang_binary(), &argv);
    let times = match (t.user, t.sys, t.peak_kb) {
        (Some(u), Some(y), Some(m)) => format!("{u:.2} user {y:.2} sys {m} KB peak"),
        _ => String::new(),
    };
    let (nodes, value) = match serde_json::from_slice::<serde_json::Value>(&t.stdout) {
        Ok(v) => (
            v["nodes"].as_u64().unwrap_or(0),
            v["value"].as_str().unwrap_or("?").to_string(),
        ),
        // stopped: "not decided ... after S s and N nodes"
        Err(_) => (
            t.stderr
                .split(" and ")
                .nth(1)
                .and_then(|t| t.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0),
            "not decided".into(),
        ),
    };
    Run1 {
        wall: t.wall,
        times,
        nodes,
        value,
    }
}

fn show(what: &str, r: &Run1) {
    println!(
        "  {what:<10} {:>8.2} s wall  {:<36} {:>12} nodes  {}",
        r.wall, r.times, r.nodes, r.value
    );
}

/// Look-up costs in the table `dir` holds: keys stored there (warm hits) and random keys (nearly
/// all rejected by the Bloom filters).
fn lookups(args: &Args, dir: &Path) {
    let game = GameSpec::from_name(&args.game, None).expect("a 4x4x4 game");
    let cfg = SolverConfig::for_game(game);
    let seed = args.hash_seed.unwrap_or(cfg.hash_seed);
    let manifest = game.store_manifest(KeyMode::Sound, seed, "");
    let files = run_files(dir).expect("the table");
    let mut keys: Vec<Key> = Vec::new();
    for (_, path) in &files {
        // SAFETY: the bench's own table, not written meanwhile.
        let run = unsafe { Run::open(path, None, Verify::Header) }.expect("a run");
        keys.extend(run.entries().iter().map(|&e| Entry::from_word(e).key()));
    }
    let store_cfg = StoreConfig {
        mem_bytes: 1 << 20,
        ..StoreConfig::default()
    };
    // SAFETY: as above.
    let store = unsafe { Store::open(dir, &manifest, store_cfg) }.expect("open the table");
    let rounds = (2_000_000 / keys.len().max(1)).max(1);
    let start = Instant::now();
    let mut found = 0u64;
    for _ in 0..rounds {
        for &k in &keys {
            found += store.settled(k).is_some() as u64;
        }
    }
    let hit = start.elapsed().as_nanos() as f64 / (rounds * keys.len()).max(1) as f64;
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let n = 2_000_000;
    let start = Instant::now();
    let mut false_hits = 0u64;
    for _ in 0..n {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        false_hits += store.settled(Key::from_hash_low_bits(s)).is_some() as u64;
    }
    let miss = start.elapsed().as_nanos() as f64 / n as f64;
    println!(
        "  look-ups in {} runs, {} entries: warm hit {hit:.0} ns ({found} found), random key {miss:.0} ns ({false_hits} of {n} not rejected)",
        files.len(),
        keys.len()
    );
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    if let Some(dir) = &args.lookups_in {
        lookups(&args, dir);
        return;
    }
    let positions: Vec<String> = if args.positions.is_empty() {
        DEFAULT_POSITIONS.iter().map(|s| s.to_string()).collect()
    } else {
        args.positions.clone()
    };
    let base = std::env::temp_dir().join(format!("zz-cube-store-bench-{}", std::process::id()));
    for p in &positions {
        println!("{} {p} ({} threads)", args.game, args.threads);
        let fresh_dir = base.join("fresh");
        let resumed_dir = base.join("resumed");
        let _ = std::fs::remove_dir_all(&base);
        let fresh = solve(&args, p, &fresh_dir, None);
        show("fresh", &fresh);
        let stopped = solve(&args, p, &resumed_dir, Some(fresh.wall * args.stop_at));
        show("stopped", &stopped);
        let resumed = solve(&args, p, &resumed_dir, None);
        show("resumed", &resumed);
        println!(
            "  resumed / fresh: {:.2} of the wall time, {:.2} of the nodes; stopped + resumed / fresh: {:.2}",
            resumed.wall / fresh.wall,
            resumed.nodes as f64 / fresh.nodes.max(1) as f64,
            (stopped.wall + resumed.wall) / fresh.wall
        );
        let again = solve(&args, p, &fresh_dir, None);
        show("re-run", &again);
        lookups(&args, &fresh_dir);
    }
    let _ = std::fs::remove_dir_all(&base);
}
