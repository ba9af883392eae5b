//! The solver against plain minimax (no pruning, no table, no symmetry, no ordering, no
//! non-losing-move pruning) on random positions of small boards and late 7x6 positions.

mod common;

use common::{random_position, Rng};
use zugzwang::search::reference::minimax;
use zugzwang::search::{Depth, MemoryTable, Searcher, Table};

fn check_board(
    w: u32,
    h: u32,
    positions: usize,
    min_empty: u32,
    max_empty: u32,
    seed: u64,
) -> usize {
    let table = MemoryTable::with_bytes(1 << 22);
    let mut rng = Rng(seed);
    let mut checked = 0;
    let mut attempts = 0;
    while checked < positions {
        attempts += 1;
        assert!(attempts < positions * 20, "could not generate positions");
        let empties = min_empty + rng.below((max_empty - min_empty + 1) as u64) as u32;
        let Some((pos, moves)) = random_position(&mut rng, w, h, empties) else {
            continue;
        };
        let expected = minimax(&pos);
        table.clear();
        let mut s = Searcher::new(&table);
        let strong = s.solve(&pos, Depth::Strong).unwrap();
        assert_eq!(
            strong, expected,
            "{w}x{h} '{moves}': strong solve disagrees with minimax"
        );
        // the weak solve with a warm table, and with a cold one
        let weak = s.solve(&pos, Depth::Weak).unwrap();
        assert_eq!(
            weak,
            expected.signum(),
            "{w}x{h} '{moves}': weak (warm table)"
        );
        table.clear();
        let weak = Searcher::new(&table).solve(&pos, Depth::Weak).unwrap();
        assert_eq!(
            weak,
            expected.signum(),
            "{w}x{h} '{moves}': weak (cold table)"
        );
        checked += 1;
    }
    checked
}

#[test]
fn small_boards_agree_with_minimax() {
    let mut total = 0;
    total += check_board(4, 4, 500, 4, 12, 1);
    total += check_board(5, 4, 500, 4, 11, 2);
    total += check_board(4, 5, 500, 4, 11, 3);
    total += check_board(6, 4, 500, 4, 10, 4);
    assert_eq!(total, 2000);
}

#[test]
fn late_7x6_positions_agree_with_minimax() {
    assert_eq!(check_board(7, 6, 300, 4, 10, 5), 300);
}

#[test]
fn other_sizes_agree_with_minimax() {
    // odd heights (claimeven bound off), wide and tall boards, the 64-bit layouts
    assert_eq!(check_board(5, 5, 100, 4, 10, 6), 100);
    assert_eq!(check_board(4, 7, 100, 4, 10, 7), 100);
    assert_eq!(check_board(9, 6, 100, 4, 9, 8), 100);
    assert_eq!(check_board(8, 7, 100, 4, 9, 9), 100);
}

#[test]
fn parallel_solver_agrees_with_minimax_and_finds_exactly_the_best_moves() {
    use zugzwang::game::{Bits, Game};
    use zugzwang::search::ParallelSolver;
    let table = MemoryTable::with_bytes(1 << 22);
    let solver = ParallelSolver::new(&table, 3).unwrap();
    let mut rng = Rng(10);
    let mut checked = 0;
    while checked < 200 {
        let Some((pos, moves)) = random_position(&mut rng, 5, 4, 10) else {
            continue;
        };
        table.clear();
        let solved = solver.solve(&pos, Depth::Strong, usize::MAX).unwrap();
        assert_eq!(solved.score, minimax(&pos), "5x4 '{moves}'");
        // a move is best exactly when plain minimax of the child gives the same score
        let mut best = Vec::new();
        for mv in Bits(pos.playable()) {
            let mut child = pos;
            child.play(mv);
            let v = if child.last_mover_won() {
                pos.win_now_score()
            } else if child.ply() == child.max_ply() {
                0
            } else {
                -minimax(&child)
            };
            if v == solved.score {
                best.push(mv);
            }
        }
        assert_eq!(solved.best_moves, best, "5x4 '{moves}': best moves");
        checked += 1;
    }
}
