//! The note's closing idea made executable: a rule-based value for any number of threats, by
//! reducing `n` threats to `n - 1` with the zugzwang case split.
//!
//! Model (the note's argument, no more): with no new threats (I) and none playable (V), both
//! players fill neutral cells and avoid the *key cells* — the empty cell directly below the lowest
//! threat of each threatened column. When only key cells and the cells above them are left (the
//! *key position*), the number of those cells fixes who is to move (White with an even number),
//! and that player `P` must occupy a key cell. Occupying a key cell starts a *cascade* in that
//! column: the cell above is now playable; its owner wins if it is the player to move, otherwise
//! that player must block it, which may expose the next cell, and so on. What is left is a
//! smaller threat set, whose key position again has a fixed player to move, so the value of the
//! rest depends on the remaining threats only. The note's case split:
//! 1. both players keep to the zugzwang strategy: `P` picks the best key cell in the key position;
//! 2. one player keeps to it and the other, `Q`, occupies a key cell voluntarily earlier (`P` gains
//!    nothing by volunteering: its options are the same as in the key position).
//!
//! So `u(D) = best for Q of { best for P of cascade(P, key cell), cascade(Q, key cell)... }`.
//! This ignores that `Q` may have no move before the key position (no neutral cell left), which
//! is one of the things the audit measures.

use super::extract::{Colour, Threat};
use std::collections::HashMap;

/// Memoised rule-based evaluator for threat sets on a board of a given height (width <= 8,
/// height <= 8).
pub struct Evaluator {
    height: u8,
    memo: HashMap<(u64, u64), i8>,
}

const fn bit(col: u8, row: u8) -> u64 {
    1u64 << (col as u32 * 8 + row as u32)
}

impl Evaluator {
    /// An evaluator for boards of `height` rows.
    pub fn new(height: u8) -> Evaluator {
        assert!(height <= 8, "the evaluator packs a column in 8 bits");
        Evaluator {
            height,
            memo: HashMap::new(),
        }
    }

    /// The note-style value `u` (White's view) of a threat set satisfying (V), or `None` when a
    /// threat lies on the bottom row (no key cell: (V) cannot hold).
    pub fn evaluate(&mut self, threats: &[Threat]) -> Option<i8> {
        let (mut w, mut b) = (0u64, 0u64);
        for t in threats {
            if t.row == 0 || t.row >= self.height || t.col >= 8 {
                return None;
            }
            match t.colour {
                Colour::White => w |= bit(t.col, t.row),
                Colour::Black => b |= bit(t.col, t.row),
            }
        }
        Some(self.value(w, b))
    }

    fn value(&mut self, w: u64, b: u64) -> i8 {
        let all = w | b;
        if all == 0 {
            return 0;
        }
        if let Some(&v) = self.memo.get(&(w, b)) {
            return v;
        }
        // key cells and the key position's number of empty cells
        let mut keys = [(0u8, 0u8); 8];
        let mut nkeys = 0;
        let mut empty = 0u32;
        for col in 0..8u8 {
            let colbits = (all >> (col as u32 * 8)) & 0xff;
            if colbits == 0 {
                continue;
            }
            let low = colbits.trailing_zeros() as u8;
            keys[nkeys] = (col, low - 1);
            nkeys += 1;
            empty += (self.height - (low - 1)) as u32;
        }
        let p = Colour::to_move_with_empty(empty);
        let q = p.other();
        let better = |who: Colour, a: i8, c: i8| {
            if (c - a) * who.sign() > 0 {
                c
            } else {
                a
            }
        };
        let mut forced = -p.sign();
        let mut volunteer = -q.sign();
        for &(col, key) in &keys[..nkeys] {
            let fp = self.cascade(p, col, key, w, b);
            forced = better(p, forced, fp);
            let fq = self.cascade(q, col, key, w, b);
            volunteer = better(q, volunteer, fq);
        }
        let v = better(q, forced, volunteer);
        self.memo.insert((w, b), v);
        v
    }

    /// `x` occupies the key cell `(col, key)`; play the forced replies up the column, then value
    /// the remaining threats.
    fn cascade(&mut self, x: Colour, col: u8, key: u8, mut w: u64, mut b: u64) -> i8 {
        let mut mover = x.other();
        let mut row = key + 1;
        while row < self.height {
            let cell = bit(col, row);
            let (own, opp) = match mover {
                Colour::White => (w, b),
                Colour::Black => (b, w),
            };
            if own & cell != 0 {
                return mover.sign();
            }
            if opp & cell == 0 {
                break;
            }
            // the mover blocks the threat just exposed
            w &= !cell;
            b &= !cell;
            mover = mover.other();
            row += 1;
        }
        self.value(w, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black as B, White as W};

    #[test]
    fn single_threats_follow_the_parity_rule() {
        let mut e = Evaluator::new(6);
        // physical rows: 0-based. A black threat on an odd row (second, fourth, sixth row) wins.
        for row in 1..6u8 {
            let black = e.evaluate(&[Threat::new(3, row, B)]).unwrap();
            let white = e.evaluate(&[Threat::new(3, row, W)]).unwrap();
            assert_eq!(black, if row % 2 == 1 { -1 } else { 0 }, "black row {row}");
            assert_eq!(white, if row % 2 == 0 { 1 } else { 0 }, "white row {row}");
        }
        assert_eq!(e.evaluate(&[Threat::new(3, 0, W)]), None);
    }

    #[test]
    fn two_black_threats_on_white_rows_in_two_columns_win() {
        // the case of lemma 2.7 (000): Black on 0-based even rows in different columns
        let mut e = Evaluator::new(6);
        let v = e.evaluate(&[Threat::new(2, 4, B), Threat::new(5, 2, B)]);
        assert_eq!(v, Some(-1));
    }
}
