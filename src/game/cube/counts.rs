//! Counts of positions by ply, checked against the README's tables and perft: the move
//! generator and win test against independent enumeration.

use super::*;
use crate::game::symmetry::{min192, min8};
use crate::game::{Bits, Game};
use std::collections::HashSet;

/// The positions one ply after those of `level`, one for each distinct `key`; won
/// positions are not expanded (play stops at a win, as in README's tables).
fn next_level<K: Eq + std::hash::Hash>(level: &[Cube], key: impl Fn(&Cube) -> K) -> Vec<Cube> {
    let mut seen = HashSet::new();
    let mut next = Vec::new();
    for g in level.iter().filter(|g| !g.last_mover_won()) {
        for mv in Bits(g.playable()) {
            let mut c = *g;
            c.play(mv);
            if seen.insert(key(&c)) {
                next.push(c);
            }
        }
    }
    next
}

/// Distinct positions and classes by ply (play stops at a win), from README's table.
fn sogo_levels(max: u32) -> Vec<(usize, usize, usize)> {
    let mut level: Vec<Cube> = vec![Cube::new(Rules::Sogo)];
    let mut out = vec![];
    for _ in 0..max {
        let next = next_level(&level, |c| (c.white(), c.black()));
        let classes: HashSet<u128> = next.iter().map(|g| min8(g.white(), g.black())).collect();
        let won = next.iter().filter(|g| g.last_mover_won()).count();
        out.push((next.len(), classes.len(), won));
        level = next;
    }
    out
}

#[test]
fn sogo_positions_and_classes_by_ply_1_to_6() {
    let got = sogo_levels(6);
    let want = [
        (16, 3, 0),
        (256, 36, 0),
        (2_416, 321, 0),
        (22_576, 2_925, 0),
        (153_200, 19_421, 0),
        (1_063_520, 133_834, 0),
    ];
    assert_eq!(got, want);
}

#[test]
#[ignore = "minutes and gigabytes: cargo test --release -- --ignored sogo_positions_7_8"]
fn sogo_positions_7_8() {
    let got = sogo_levels(8);
    assert_eq!(got[6], (5_869_840, 736_407, 19_040));
    assert_eq!(got[7], (33_089_960, 4_144_520, 86_864));
}

fn perft(g: &Cube, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for mv in Bits(g.playable()) {
        let mut c = *g;
        c.play(mv);
        n += if c.last_mover_won() {
            (depth == 1) as u64
        } else {
            perft(&c, depth - 1)
        };
    }
    n
}

#[test]
fn sogo_perft_1_to_5() {
    let g = Cube::new(Rules::Sogo);
    let got: Vec<u64> = (1..=5).map(|d| perft(&g, d)).collect();
    assert_eq!(got, [16, 256, 4_096, 65_536, 1_048_560]);
}

fn qubic_classes(max: u32) -> Vec<usize> {
    let mut reps = vec![Cube::new(Rules::Qubic)];
    let mut out = vec![];
    for _ in 0..max {
        // one representative per class
        let next = next_level(&reps, |c| min192(c.white(), c.black()));
        out.push(next.len());
        reps = next;
    }
    out
}

#[test]
fn qubic_classes_by_ply_1_to_4() {
    assert_eq!(qubic_classes(4), [2, 35, 757, 20_851]);
}

#[test]
#[ignore = "a few seconds: cargo test --release -- --ignored qubic_classes_ply_5"]
fn qubic_classes_ply_5() {
    assert_eq!(qubic_classes(5)[4], 401_778);
}
