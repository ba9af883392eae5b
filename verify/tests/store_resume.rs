//! Kill-and-resume: a table-backed Connect Four solve is killed (SIGKILL) at random moments and
//! restarted on the same directory; every completed run must give the same value as a plain
//! solve, the resumed run must do less work than a fresh one, and the table must pass the checks.
//!
//! The solve runs in a child process: this test binary re-executes itself running only the
//! ignored helper test `child_solve`, with the directory in an environment variable. That needs
//! no path to the `zugzwang` binary (which another package's tests cannot name) and kills a real
//! process mid-write.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};
use zugzwang::game::{Connect4, Game, Key};
use zugzwang::search::{Depth, MemoryTable, Searcher};
use zugzwang::store::check::{self, connect4_from_key};
use zugzwang::store::entry::{Entry, Knowledge};
use zugzwang::store::run_file::{Run, Verify};
use zugzwang::store::{run_files, Manifest, Store, StoreConfig};

const ENV_DIR: &str = "ZUGZWANG_STORE_CHILD_DIR";
/// A board whose weak solve lasts about a second: kills at 10-40% of it must come after the
/// store's first flushes (every 100 ms), or the resumed solve has nothing to resume from (6x5
/// took 0.1 s once the static bounds had grown).
const W: u32 = 7;
const H: u32 = 5;

fn config() -> StoreConfig {
    StoreConfig {
        mem_bytes: 32 << 20,
        min_work: 64,
        buffer_entries: 8192,
        flush_every: Duration::from_millis(100),
        max_runs: 4,
        merge_width: 3,
        background_merge: true,
        keep_first_on_conflict: false,
    }
}

fn manifest() -> Manifest {
    Manifest::new("connect4", &format!("{W}x{H}"), "", 0)
}

/// Helper process for `kill_and_resume` (does nothing unless started by it).
#[test]
#[ignore = "helper process started by kill_and_resume"]
fn child_solve() {
    let Some(dir) = std::env::var_os(ENV_DIR) else {
        eprintln!("child_solve only runs as kill_and_resume's child process");
        return;
    };
    // SAFETY: the parent gives each child the directory alone, one child at a time.
    let store = unsafe { Store::open(Path::new(&dir), &manifest(), config()) }.unwrap();
    let pos = Connect4::new(W, H).unwrap();
    let mut s = Searcher::new(&store);
    let score = s.solve(&pos, Depth::Weak).unwrap();
    store.flush().unwrap();
    println!("RESULT {score} {}", s.nodes);
}

/// Runs the child; kills it after `kill_after` if given. Returns (score, nodes) if it finished.
fn run_child(dir: &Path, kill_after: Option<Duration>) -> Option<(i32, u64)> {
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new(exe)
        .args([
            "--ignored",
            "--exact",
            "child_solve",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(ENV_DIR, dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    if let Some(after) = kill_after {
        let t0 = Instant::now();
        while t0.elapsed() < after {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = child.kill(); // SIGKILL
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // libtest may print "test child_solve ... " on the same line first
    let line = text.lines().find_map(|l| l.split("RESULT ").nth(1))?;
    let mut parts = line.split_whitespace();
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// The table's checks: every run verifies, the walk justifies what it reaches, and a sample
/// of entries decoded back to positions agree with a direct solve.
fn check_table(dir: &Path) {
    let id = manifest().identity();
    let runs: Vec<Run> = run_files(dir)
        .unwrap()
        .into_iter()
        // SAFETY: no child is running any more.
        .map(|(_, p)| unsafe { Run::open(&p, Some(&id), Verify::Full) }.unwrap())
        .collect();
    assert!(!runs.is_empty());
    let lookup = |key: Key| {
        runs.iter()
            .fold(Knowledge::NONE, |k, r| Knowledge(k.0 | r.lookup(key).0))
    };
    let start = Connect4::new(W, H).unwrap();
    let report = check::walk(
        &start,
        &lookup,
        16 << 20,
        check::Scope::Everything,
        1500,
        1,
        check::WalkAids::default(),
    );
    assert_eq!(report.failures, 0, "{:?}", report.failure_lines);
    assert!(report.justified > 0);
    let table = MemoryTable::with_bytes(16 << 20);
    let mut direct = 0;
    for r in &runs {
        for &e in r.entries().iter().step_by(97) {
            let key = Entry::from_word(e).key();
            let pos = connect4_from_key(W, H, key).expect("entries decode");
            if pos.max_ply() - pos.ply() <= 14 {
                check::check_connect4_entry(W, H, key, lookup(key), &table).unwrap();
                direct += 1;
            }
        }
    }
    assert!(direct > 0);
}

#[test]
fn kill_and_resume() {
    let seed = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("kill_and_resume seed {seed}");
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };

    // the plain answer and its cost
    let pos = Connect4::new(W, H).unwrap();
    let table = MemoryTable::with_bytes(32 << 20);
    let mut s = Searcher::new(&table);
    let fresh_score = s.solve(&pos, Depth::Weak).unwrap();
    let fresh_nodes = s.nodes;

    // a fresh table-backed solve gives the same answer; its duration sets the kill window
    let dir = tempfile::tempdir().unwrap();
    let t0 = Instant::now();
    let (score, _) = run_child(dir.path(), None).expect("completes");
    let full = t0.elapsed();
    assert_eq!(score, fresh_score);
    check_table(dir.path());

    // now kill a new solve several times at random moments, then let it finish
    let dir = tempfile::tempdir().unwrap();
    let mut killed = 0;
    for _ in 0..4 {
        let frac = 0.1 + (next() % 1000) as f64 / 1000.0 * 0.3;
        let after = full.mul_f64(frac);
        if let Some((score, _)) = run_child(dir.path(), Some(after)) {
            assert_eq!(
                score, fresh_score,
                "a restart that finished before its kill"
            );
        } else {
            killed += 1;
        }
        // whatever state the kill left must open cleanly
        for (_, p) in run_files(dir.path()).unwrap() {
            // SAFETY: the child is dead.
            unsafe { Run::open(&p, Some(&manifest().identity()), Verify::Full) }.unwrap();
        }
    }
    assert!(killed > 0, "no run was killed mid-solve");
    let (score, nodes) = run_child(dir.path(), None).expect("the resumed solve completes");
    assert_eq!(score, fresh_score);
    assert!(
        nodes < fresh_nodes,
        "resumed solve did {nodes} nodes, a fresh one {fresh_nodes}"
    );
    check_table(dir.path());
    eprintln!(
        "fresh {fresh_nodes} nodes, resumed after {killed} kills {nodes} nodes, {} runs on disk",
        run_files(dir.path()).unwrap().len()
    );

    // a repeat of the finished question answers from the table at a fraction of the work
    let (score, again) = run_child(dir.path(), None).unwrap();
    assert_eq!(score, fresh_score);
    assert!(
        again * 10 < fresh_nodes,
        "repeat did {again} nodes of {fresh_nodes}"
    );
}
