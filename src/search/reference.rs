//! The slow, obviously correct reference: plain minimax, no pruning, no table, no symmetry, no
//! ordering, and no use of [`Game::non_losing_moves`]. Every fast path is checked against it.

use crate::game::{Bits, Game};

/// Exact score of `g` for the side to move by full minimax. Exponential: small boards only.
/// Precondition: the game is not over (nobody has won, the board is not full).
pub fn minimax<G: Game>(g: &G) -> i32 {
    move_scores(g)
        .into_iter()
        .map(|(_, v)| v)
        .max()
        .unwrap_or(i32::MIN)
}

/// Every legal move of `g` with the exact score the mover gets by playing it, by full minimax
/// (the oracle of analyses and best moves). Same precondition as [`minimax`].
pub fn move_scores<G: Game>(g: &G) -> Vec<(u64, i32)> {
    Bits(g.playable())
        .map(|mv| {
            let mut child = *g;
            child.play(mv);
            let v = if child.last_mover_won() {
                g.win_now_score()
            } else if child.ply() >= child.max_ply() {
                0
            } else {
                -minimax(&child)
            };
            (mv, v)
        })
        .collect()
}
