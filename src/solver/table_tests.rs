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
