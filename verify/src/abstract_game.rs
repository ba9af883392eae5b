//! The abstract oracle: exact search of the game in which only the declared threat cells win.
//!
//! This is the note's assumption (I) taken literally: stones are dropped into the real 7x6 board
//! with gravity, a player wins by filling one of *its own* threat cells, filling an opponent's
//! threat cell destroys that threat, and nothing else ever wins; a full board is a draw. Who is to
//! move follows from the number of empty cells (the note's (IV): White moves when it is even), so
//! a state is just the seven column heights.
//!
//! Written independently of `zugzwang::search` (a check that reuses the code it checks proves
//! little): plain minimax with a memo indexed by the heights. Columns without threat cells are
//! interchangeable (their cells are mere tempo moves), so their heights are sorted before
//! indexing — an exact symmetry of this game, which keeps a whole threat set's table small enough
//! to share between all starting positions of that set. [`brute_force`] is the same game with no
//! memo, no symmetry and no cut-offs, for the tests.

use crate::threats::{Colour, Threat};

/// Board width.
pub const WIDTH: usize = 7;
/// Board height.
pub const HEIGHT: u8 = 6;
const CELLS: u32 = WIDTH as u32 * HEIGHT as u32;
const STATES: usize = 7usize.pow(WIDTH as u32);
const UNKNOWN: i8 = 2;

/// The abstract game of one threat set, with its memo (valid for every starting position).
pub struct AbstractGame {
    /// Per column, bit `r` set: a White threat at row `r`.
    white: [u8; WIDTH],
    /// Per column, bit `r` set: a Black threat at row `r`.
    black: [u8; WIDTH],
    /// Columns holding at least one threat cell.
    threat_col: [bool; WIDTH],
    memo: Vec<i8>,
    /// States expanded so far.
    pub nodes: u64,
}

impl AbstractGame {
    /// The game whose only winning cells are `threats` (a cell may be a threat of both colours).
    pub fn new(threats: &[Threat]) -> AbstractGame {
        let mut white = [0u8; WIDTH];
        let mut black = [0u8; WIDTH];
        for t in threats {
            assert!(
                (t.col as usize) < WIDTH && t.row < HEIGHT,
                "threat off the board"
            );
            match t.colour {
                Colour::White => white[t.col as usize] |= 1 << t.row,
                Colour::Black => black[t.col as usize] |= 1 << t.row,
            }
        }
        let mut threat_col = [false; WIDTH];
        for c in 0..WIDTH {
            threat_col[c] = white[c] | black[c] != 0;
        }
        AbstractGame {
            white,
            black,
            threat_col,
            memo: vec![UNKNOWN; STATES],
            nodes: 0,
        }
    }

    /// The exact value (White's view: 1, 0, -1) of the position with these column heights.
    /// Precondition: no threat cell is filled (`heights[c] <= ` its row) — a filled threat cell
    /// would already have decided or been destroyed.
    pub fn value(&mut self, heights: [u8; WIDTH]) -> i8 {
        let mut h = heights;
        self.search(&mut h)
    }

    fn index(&self, h: &[u8; WIDTH]) -> usize {
        // threat columns keep their place; the others are sorted (exact symmetry, see module doc)
        let mut free = [0u8; WIDTH];
        let mut nfree = 0;
        for (&hc, &is_threat) in h.iter().zip(&self.threat_col) {
            if !is_threat {
                free[nfree] = hc;
                nfree += 1;
            }
        }
        free[..nfree].sort_unstable();
        let mut k = 0;
        let mut idx = 0usize;
        for c in (0..WIDTH).rev() {
            let v = if self.threat_col[c] {
                h[c]
            } else {
                k += 1;
                free[nfree - k]
            };
            idx = idx * 7 + v as usize;
        }
        idx
    }

    fn search(&mut self, h: &mut [u8; WIDTH]) -> i8 {
        let filled: u32 = h.iter().map(|&x| x as u32).sum();
        let empty = CELLS - filled;
        if empty == 0 {
            return 0;
        }
        let idx = self.index(h);
        if self.memo[idx] != UNKNOWN {
            return self.memo[idx];
        }
        self.nodes += 1;
        let mover = Colour::to_move_with_empty(empty);
        let own = match mover {
            Colour::White => self.white,
            Colour::Black => self.black,
        };
        let win = mover.sign();
        let mut best = -win;
        let mut won = false;
        for c in 0..WIDTH {
            if h[c] < HEIGHT && own[c] >> h[c] & 1 != 0 {
                won = true;
                break;
            }
        }
        if won {
            best = win;
        } else {
            // among threat-free columns, one per height is enough (they are interchangeable)
            let mut seen_free_height = 0u8;
            for c in 0..WIDTH {
                if h[c] >= HEIGHT {
                    continue;
                }
                if !self.threat_col[c] {
                    if seen_free_height >> h[c] & 1 != 0 {
                        continue;
                    }
                    seen_free_height |= 1 << h[c];
                }
                h[c] += 1;
                let v = self.search(h);
                h[c] -= 1;
                if (v - best) * win > 0 {
                    best = v;
                    if best == win {
                        break;
                    }
                }
            }
        }
        self.memo[idx] = best;
        best
    }
}

/// The same abstract game by plain minimax: every move, no memo, no symmetry, no cut-off.
/// Exponential in the number of empty cells; for tests on small cases only.
pub fn brute_force(threats: &[Threat], heights: [u8; WIDTH]) -> i8 {
    fn rec(threats: &[Threat], h: &mut [u8; WIDTH]) -> i8 {
        let filled: u32 = h.iter().map(|&x| x as u32).sum();
        let empty = CELLS - filled;
        if empty == 0 {
            return 0;
        }
        let mover = Colour::to_move_with_empty(empty);
        let mut values = Vec::new();
        for c in 0..WIDTH {
            if h[c] >= HEIGHT {
                continue;
            }
            let wins = threats
                .iter()
                .any(|t| t.col as usize == c && t.row == h[c] && t.colour == mover);
            if wins {
                values.push(mover.sign());
            } else {
                h[c] += 1;
                values.push(rec(threats, h));
                h[c] -= 1;
            }
        }
        match mover {
            Colour::White => *values.iter().max().expect("a move exists"),
            Colour::Black => *values.iter().min().expect("a move exists"),
        }
    }
    let mut h = heights;
    rec(threats, &mut h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_black_threat_on_second_row_wins_from_anywhere() {
        // lemma 1.1 in its simplest form: Black threat at physical row 1 in column D
        let t = [Threat::new(3, 1, Colour::Black)];
        let mut g = AbstractGame::new(&t);
        for free in 0..=36u8 {
            let mut h = [6u8; WIDTH];
            h[3] = 0;
            let mut left = free;
            for c in [0usize, 1, 2, 4, 5, 6] {
                let k = left.min(6);
                h[c] = 6 - k;
                left -= k;
            }
            assert_eq!(g.value(h), -1, "free {free}");
        }
    }

    #[test]
    fn memo_agrees_with_brute_force_on_a_small_case() {
        let t = [
            Threat::new(1, 3, Colour::White),
            Threat::new(4, 2, Colour::Black),
        ];
        let h = [6, 2, 6, 5, 1, 6, 4];
        assert_eq!(AbstractGame::new(&t).value(h), brute_force(&t, h));
    }
}
