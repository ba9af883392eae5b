//! Pons' test sets: every line of L3_R1 and L2_R1, samples of the others, exact scores.

mod common;

use common::read_set;
use zugzwang::game::Connect4;
use zugzwang::search::{Depth, MemoryTable, Searcher, Table};

fn check(name: &str, take: usize, step: usize) {
    let set = read_set(name);
    assert_eq!(set.len(), 1000, "{name} should have 1000 lines");
    let table = MemoryTable::with_bytes(64 << 20);
    let mut n = 0;
    for (moves, expected) in set.iter().step_by(step).take(take) {
        let pos = Connect4::from_moves(7, 6, moves).unwrap();
        table.clear();
        let got = Searcher::new(&table).solve(&pos, Depth::Strong).unwrap();
        assert_eq!(got, *expected, "{name}: '{moves}'");
        table.clear();
        let weak = Searcher::new(&table).solve(&pos, Depth::Weak).unwrap();
        assert_eq!(weak, expected.signum(), "{name} weak: '{moves}'");
        n += 1;
    }
    assert_eq!(n, take);
}

#[test]
fn end_easy_all() {
    check("Test_L3_R1", 1000, 1);
}

#[test]
fn middle_easy_all() {
    check("Test_L2_R1", 1000, 1);
}

#[test]
fn middle_medium_sample() {
    check("Test_L2_R2", 100, 10);
}

#[test]
fn begin_easy_sample() {
    check("Test_L1_R1", 200, 5);
}

#[test]
fn begin_medium_sample() {
    check("Test_L1_R2", 10, 100);
}

#[test]
fn begin_hard_sample() {
    check("Test_L1_R3", 2, 500);
}
