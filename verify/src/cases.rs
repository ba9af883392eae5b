//! Generators of abstract cases: threat sets and starting fillings of the 7x6 board.
//!
//! A case is a threat set plus column heights satisfying (V): every threat cell is empty and so is
//! the cell below each threat (the key cell), so no threat is playable. For one and two threats
//! the enumeration is exhaustive: every column (pair), every row (pair) 1..5 (physical; row 0
//! cannot satisfy (V)), both colours, same and different columns, both orders in a column,
//! adjacent cells and a cell threatened by both colours; every admissible height of each threat
//! column; and every number `F` of free cells in the other columns. The abstract game only sees
//! those columns as tempo moves (its search sorts them), so a canonical filling per `F` — the
//! free cells packed into the leftmost other columns — covers every filling of them.

use crate::abstract_game::{HEIGHT, WIDTH};
use crate::threats::{Colour, Threat};

/// Every threat set of exactly `k` threats (`k` = 1 or 2) on the 7x6 board whose threats could
/// satisfy (V) (rows 1..5), each sorted.
pub fn threat_sets(k: usize) -> Vec<Vec<Threat>> {
    let mut singles = Vec::new();
    for col in 0..WIDTH as u8 {
        for row in 1..HEIGHT {
            for colour in [Colour::White, Colour::Black] {
                singles.push(Threat::new(col, row, colour));
            }
        }
    }
    match k {
        1 => singles.into_iter().map(|t| vec![t]).collect(),
        2 => {
            let mut out = Vec::new();
            for i in 0..singles.len() {
                for j in i + 1..singles.len() {
                    out.push(vec![singles[i], singles[j]]);
                }
            }
            out
        }
        _ => panic!("exhaustive threat sets only for 1 or 2 threats"),
    }
}

/// Every starting filling for `threats` (see the module documentation).
pub fn starts(threats: &[Threat]) -> Vec<[u8; WIDTH]> {
    let mut lowest = [HEIGHT; WIDTH];
    for t in threats {
        lowest[t.col as usize] = lowest[t.col as usize].min(t.row);
    }
    let threat_cols: Vec<usize> = (0..WIDTH).filter(|&c| lowest[c] < HEIGHT).collect();
    let other_cols: Vec<usize> = (0..WIDTH).filter(|&c| lowest[c] == HEIGHT).collect();
    let mut out = Vec::new();
    // every height 0..=lowest-1 of every threat column
    let mut choice = vec![0u8; threat_cols.len()];
    loop {
        for free in 0..=(other_cols.len() as u8 * HEIGHT) {
            let mut h = [0u8; WIDTH];
            for (i, &c) in threat_cols.iter().enumerate() {
                h[c] = choice[i];
            }
            let mut left = free;
            for &c in &other_cols {
                let k = left.min(HEIGHT);
                h[c] = HEIGHT - k;
                left -= k;
            }
            out.push(h);
        }
        // next combination
        let mut i = 0;
        loop {
            if i == choice.len() {
                return out;
            }
            choice[i] += 1;
            if choice[i] < lowest[threat_cols[i]] {
                break;
            }
            choice[i] = 0;
            i += 1;
        }
    }
}

/// Empty cells of a filling.
pub fn empty_cells(h: &[u8; WIDTH]) -> u32 {
    WIDTH as u32 * HEIGHT as u32 - h.iter().map(|&x| x as u32).sum::<u32>()
}

/// The audits' random source (SplitMix64): reproducible samples without a dependency.
pub use zugzwang::util::rng::SplitMix64 as Rng;

/// A random threat set of `k` distinct threats (rows 1..5; a cell may carry both colours), sorted;
/// the audit of the n-threat evaluator draws its 3- and 4-threat sets here.
pub fn random_set(rng: &mut Rng, k: usize) -> Vec<Threat> {
    let mut set: Vec<Threat> = Vec::new();
    while set.len() < k {
        let t = Threat::new(
            rng.below(WIDTH as u64) as u8,
            1 + rng.below(HEIGHT as u64 - 1) as u8,
            if rng.below(2) == 0 {
                Colour::White
            } else {
                Colour::Black
            },
        );
        if !set.contains(&t) {
            set.push(t);
        }
    }
    set.sort();
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_counts() {
        assert_eq!(threat_sets(1).len(), 70);
        assert_eq!(threat_sets(2).len(), 70 * 69 / 2);
    }

    #[test]
    fn starts_satisfy_v() {
        let t = [
            Threat::new(2, 3, Colour::White),
            Threat::new(2, 4, Colour::Black),
        ];
        let s = starts(&t);
        assert_eq!(s.len(), 3 * 37);
        for h in s {
            assert!(h[2] <= 2);
        }
    }
}
