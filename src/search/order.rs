//! Move ordering: which candidate to search first.
//!
//! Ordering never changes a result, only how soon a cutoff comes. The candidates are already the
//! game's *non-losing* moves (so "win now" is handled before the search and "never play under an
//! enemy threat" / "block now" are enforced by [`Game::non_losing_moves`]); here they are ranked by
//! the move remembered in the table, then by the game's own hint ([`Game::move_score`]: threats
//! created, seed 003's line weights, ...). The list lives on the stack: no allocation per node.

use crate::game::{Bits, Game};

/// Up to 64 candidate moves, best first.
pub struct MoveList {
    moves: [u64; 64],
    scores: [i32; 64],
    len: usize,
}

impl MoveList {
    /// Ranks `candidates` for `game`, putting the cell `first` (a remembered best move) in front.
    /// A non-zero `noise` perturbs the game's scores a little (about one threat's worth), so that
    /// parallel searchers sharing a table explore different moves first.
    #[inline]
    pub fn new<G: Game>(
        game: &G,
        candidates: u64,
        first: Option<u8>,
        urgent: bool,
        noise: u64,
    ) -> Self {
        let mut list = MoveList {
            moves: [0; 64],
            scores: [0; 64],
            len: 0,
        };
        for mv in Bits(candidates) {
            let score = if first == Some(G::cell_index(mv) as u8) {
                i32::MAX
            } else if urgent {
                game.urgent_move_score(mv)
            } else {
                game.move_score(mv)
            };
            let score = if noise != 0 && score != i32::MAX {
                score + ((mv.wrapping_mul(noise) >> 61) as i32) * 24
            } else {
                score
            };
            // insertion sort, stable: equal scores keep the game's bit order
            let mut i = list.len;
            while i > 0 && list.scores[i - 1] < score {
                list.moves[i] = list.moves[i - 1];
                list.scores[i] = list.scores[i - 1];
                i -= 1;
            }
            list.moves[i] = mv;
            list.scores[i] = score;
            list.len += 1;
        }
        list
    }

    /// The ranked moves.
    #[inline]
    pub fn as_slice(&self) -> &[u64] {
        &self.moves[..self.len]
    }
}
