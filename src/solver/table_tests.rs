//! The position store under the 4x4x4 proof search: a table never changes a value (whatever its
//! memory, stopped and resumed or not, read back by a second solve), what it keeps is read
//! back, and a table made for other rules, keys or seed is refused.

use super::*;
use crate::game::{Cube, Rules};
use crate::util::random_play::careful_positions;
use games::Solvable;
use std::path::Path;
use std::time::Duration;

fn config(game: GameSpec, mem: u64, threads: usize) -> SolverConfig {
    SolverConfig {
        mem_bytes: mem,
        threads,
        best: BestMoves::None,
        ..SolverConfig::for_game(game)
    }
}

fn value_in_memory(game: GameSpec, g: &Cube) -> i32 {
    let mut s = Solver::new(game, config(game, 16 << 20, 1)).unwrap();
    s.solve_position(g, Question::Value, None, &Control::new())
        .unwrap()
        .score
}

fn with_table(game: GameSpec, dir: &Path, mem: u64, threads: usize) -> Solver {
    Solver::new(game, config(game, mem, threads))
        .unwrap()
        .with_table(dir, "")
        .unwrap()
}

/// Two positions of a few thousand to a few hundred thousand nodes in memory: deep enough that
/// results are recorded, cheap enough for a test (most random positions are decided statically).
fn positions(rules: Rules) -> Vec<Cube> {
    let game = GameSpec::Cube(rules);
    let empty = match rules {
        Rules::Qubic => 46,
        _ => 38,
    };
    let found = careful_positions(Cube::new(rules), empty, 400, 11)
        .filter(|g| {
            let mut s = Solver::new(game, config(game, 16 << 20, 1)).unwrap();
            let limit = Some(Duration::from_secs(2));
            s.solve_position(g, Question::Value, limit, &Control::new())
                .is_ok_and(|r| (2_000..300_000).contains(&r.nodes))
        })
        .take(2)
        .collect::<Vec<_>>();
    assert!(!found.is_empty(), "no test position for {}", game.name());
    found
}

#[test]
fn a_table_never_changes_a_value_and_is_read_back() {
    for rules in Rules::ALL {
        let game = GameSpec::Cube(rules);
        let dir = tempfile::tempdir().unwrap();
        for g in positions(rules) {
            let want = value_in_memory(game, &g);
            let ctx = format!("{} {}", game.name(), g.position_text());
            // a small table and a larger one, one thread and two, sharing one directory
            for (mem, threads) in [(4 << 20, 1), (32 << 20, 2)] {
                let mut s = with_table(game, dir.path(), mem, threads);
                let got = s
                    .solve_position(&g, Question::Value, None, &Control::new())
                    .unwrap();
                assert_eq!(got.score, want, "{ctx} mem {mem} threads {threads}");
                assert!(got.table.is_some(), "{ctx}");
            }
        }
        // the table holds results, and a fresh solver over it finds them
        let mut s = with_table(game, dir.path(), 4 << 20, 1);
        for g in positions(rules) {
            let again = s
                .solve_position(&g, Question::Value, None, &Control::new())
                .unwrap();
            assert_eq!(again.score, value_in_memory(game, &g));
            assert!(again.table.unwrap().entries > 0, "{}", game.name());
        }
    }
}

#[test]
fn a_stopped_solve_resumes_to_the_same_value_with_less_work() {
    let game = GameSpec::Cube(Rules::Sogo);
    let g = careful_positions(Cube::new(Rules::Sogo), 36, 1, 5)
        .next()
        .unwrap();
    let fresh = {
        let dir = tempfile::tempdir().unwrap();
        let mut s = with_table(game, dir.path(), 32 << 20, 1);
        s.solve_position(&g, Question::Value, None, &Control::new())
            .unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    let mut stopped_nodes = 0;
    for limit in [50, 100, 200] {
        let mut s = with_table(game, dir.path(), 32 << 20, 1);
        match s.solve_position(
            &g,
            Question::Value,
            Some(Duration::from_millis(limit)),
            &Control::new(),
        ) {
            Err(SolveError::Stopped { nodes, .. }) => stopped_nodes += nodes,
            Ok(done) => {
                assert_eq!(done.score, fresh.score);
                break;
            }
            Err(e) => panic!("{e}"),
        }
    }
    let mut s = with_table(game, dir.path(), 32 << 20, 1);
    let resumed = s
        .solve_position(&g, Question::Value, None, &Control::new())
        .unwrap();
    assert_eq!(resumed.score, fresh.score);
    assert!(
        resumed.nodes < fresh.nodes,
        "resumed {} nodes (after {stopped_nodes} stopped), fresh {}",
        resumed.nodes,
        fresh.nodes
    );
}

#[test]
fn a_table_made_for_other_rules_keys_or_seed_is_refused() {
    let sogo = GameSpec::Cube(Rules::Sogo);
    let poison = GameSpec::Cube(Rules::SogoPoison);
    let dir = tempfile::tempdir().unwrap();
    drop(with_table(sogo, dir.path(), 1 << 20, 1));
    let refused = |game: GameSpec, cfg: SolverConfig| {
        let e = Solver::new(game, cfg)
            .unwrap()
            .with_table(dir.path(), "")
            .err()
            .expect("refused");
        assert!(e.is_bad_input(), "{e}");
        assert!(e.to_string().contains("table made for"), "{e}");
        assert!(!e.to_string().contains('\n'), "{e}");
    };
    refused(poison, config(poison, 1 << 20, 1));
    refused(GameSpec::Cube(Rules::Qubic), config(sogo, 1 << 20, 1));
    refused(
        GameSpec::CONNECT4,
        SolverConfig::for_game(GameSpec::CONNECT4),
    );
    let mut other_seed = config(sogo, 1 << 20, 1);
    other_seed.hash_seed ^= 1;
    refused(sogo, other_seed);
    let mut seed_keys = config(sogo, 1 << 20, 1);
    seed_keys.key_mode = KeyMode::Seed;
    refused(sogo, seed_keys);
    // alpha-beta on the same game shares the table: both keep facts about the same positions
    let mut ab = config(sogo, 1 << 20, 1);
    ab.engine = Engine::Alphabeta;
    assert!(Solver::new(sogo, ab)
        .unwrap()
        .with_table(dir.path(), "")
        .is_ok());
}

/// A store that can no longer write (here: its directory removed under it) ends the solve
/// within about a second with the store's error, instead of searching on for nothing until
/// the time limit.
#[test]
fn a_failed_store_stops_the_solve_at_once() {
    let game = GameSpec::Cube(Rules::Sogo);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let mut s = Solver::new(game, config(game, 64 << 20, 1))
        .unwrap()
        .with_table_saving(&dir, "", Duration::from_millis(100))
        .unwrap();
    let start = std::time::Instant::now();
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            // the store may write a file between remove_dir_all's listing and its last rmdir
            // (DirectoryNotEmpty on a loaded machine): try again until the directory is gone
            while let Err(e) = std::fs::remove_dir_all(&dir) {
                assert_eq!(e.kind(), std::io::ErrorKind::DirectoryNotEmpty, "{e}");
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        // the empty board: far from decided within the limit
        s.solve(
            "",
            Question::Value,
            Some(Duration::from_secs(60)),
            &Control::new(),
        )
    });
    let e = result.expect_err("the store failed");
    assert!(matches!(e, SolveError::Store(_)), "{e}");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "stopped after {:?}",
        start.elapsed()
    );
}

/// With seed 003's keys two positions of different values may share a key: the store keeps
/// the first value, counts the contradiction and goes on (the seed's store kept whatever came
/// first); with sound keys the same contradiction is an error.
#[test]
fn a_seed_keyed_store_keeps_first_values_and_counts_contradictions() {
    use crate::game::Key;
    use crate::search::{Bounds, Table};
    use crate::store::{Store, StoreConfig};
    let win = Bounds {
        lower: 1,
        upper: 1,
        best: None,
    };
    let at_most_draw = Bounds {
        lower: -1,
        upper: 0,
        best: None,
    };
    let manifest = game_manifest(KeyMode::Seed);
    for keep_first in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let cfg = StoreConfig {
            mem_bytes: 1 << 20,
            min_work: 0,
            keep_first_on_conflict: keep_first,
            ..StoreConfig::default()
        };
        // SAFETY: the test's own directory.
        let store = unsafe { Store::open(dir.path(), &manifest, cfg) }.unwrap();
        // within one buffer: both facts dropped
        store.store(Key::new(7), win, 1000);
        store.store(Key::new(7), at_most_draw, 1000);
        // between the disk and a later fact: the disk's stays
        store.store(Key::new(9), win, 1000);
        let first = store.flush();
        store.memory().clear();
        store.store(Key::new(9), at_most_draw, 1000);
        let second = store.flush();
        if keep_first {
            assert!(first.is_ok() && second.is_ok(), "{first:?} {second:?}");
            assert_eq!(store.stats().conflicts, 2);
            assert_eq!(store.disk_knowledge(Key::new(7)), Default::default());
            assert_eq!(store.probe(Key::new(9)).map(|b| b.lower), Some(1));
        } else {
            assert!(
                first.is_err(),
                "a contradiction under sound keys is an error"
            );
        }
    }
}

fn game_manifest(keys: KeyMode) -> crate::store::Manifest {
    GameSpec::Cube(Rules::Sogo).store_manifest(keys, 1, "")
}
