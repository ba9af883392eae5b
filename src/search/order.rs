//! Move ordering: which candidate to search first.
//!
//! Ordering never changes a result, only how soon a cutoff comes. The candidates are already the
//! game's *non-losing* moves (so "win now" is handled before the search and "never play under an
//! enemy threat" / "block now" are enforced by [`Game::non_losing_moves`]); here they are ranked by
//! the move remembered in the table, then by the game's own hint ([`Game::move_score`]: threats
//! created, seed 003's line weights, ...). The list lives on the stack: no allocation per node.

use crate::game::{Bits, Game};
use crate::util::rng::xorshift;

/// Up to 64 candidate moves, best first.
pub struct MoveList {
    moves: [u64; 64],
    scores: [i32; 64],
    len: usize,
}

impl MoveList {
    /// Ranks `candidates` for `game`, putting the cell `first` (a remembered best move) in front.
    #[inline]
    pub fn new<G: Game>(game: &G, candidates: u64, first: Option<u8>, urgent: bool) -> Self {
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

/// A game of *plausible play* from `start`: `plies` stones in total, each one of the `width`
/// best non-losing moves by [`Game::move_score`], picked by `next` (a random source). The
/// moves, or `None` if the game ends, or leaves the side to move a win or no safe move, first.
/// Careful random play blunders early; positions from plausible play keep the long lines and
/// parity fights of real games, so the Sogo cost forecast (`benches/cube.rs`) follows them and
/// the tests of the rules that need long lines (`game::cube::pairing`) draw from them.
pub fn plausible_line<G: Game>(
    start: &G,
    plies: u32,
    width: usize,
    next: impl FnMut() -> u64,
) -> Option<Vec<u64>> {
    plausible_line_within(start, plies, width, !0, next)
}

/// [`plausible_line`] with the moves limited to the cells `allowed` (a game that keeps a column
/// empty, say): `None` also when no non-losing move is left inside them.
pub fn plausible_line_within<G: Game>(
    start: &G,
    plies: u32,
    width: usize,
    allowed: u64,
    mut next: impl FnMut() -> u64,
) -> Option<Vec<u64>> {
    let mut g = *start;
    let mut moves = Vec::new();
    while g.ply() < plies {
        let safe = g.non_losing_moves() & allowed;
        if safe == 0 || g.winning_moves() != 0 {
            return None;
        }
        let mut ranked: Vec<u64> = Bits(safe).collect();
        ranked.sort_by_key(|&mv| std::cmp::Reverse(g.move_score(mv)));
        let mv = ranked[(next() % ranked.len().min(width) as u64) as usize];
        g.play(mv);
        moves.push(mv);
    }
    (g.winning_moves() == 0 && g.non_losing_moves() != 0).then_some(moves)
}

/// The moves of the next game of plausible play to `plies` stones from `start` (as
/// [`plausible_line`], one of the `width` best moves at random), drawn with [`xorshift`] from
/// `seed` and restarted until a game gets there: the cost forecasts' games, the same ones in
/// every bench for the same seed.
pub fn plausible_game<G: Game>(start: &G, plies: u32, width: usize, seed: &mut u64) -> Vec<u64> {
    loop {
        if let Some(moves) = plausible_line(start, plies, width, || xorshift(seed)) {
            return moves;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cube::Rules;
    use crate::game::Cube;

    /// A game limited to some cells plays only there, each move one of the `width` best
    /// non-losing moves among them, and a game with no cell allowed does not start.
    #[test]
    fn a_plausible_line_within_cells_keeps_to_them() {
        let start = Cube::new(Rules::Sogo);
        let mut lines = 0;
        for column in 0..16u32 {
            let outside: u64 = !(0x0001_0001_0001_0001u64 << column);
            let mut seed = 0x5eed_0000_0000_0001 + u64::from(column);
            let Some(moves) = plausible_line_within(&start, 30, 3, outside, || xorshift(&mut seed))
            else {
                continue;
            };
            lines += 1;
            assert_eq!(moves.len(), 30);
            let mut g = start;
            for mv in moves {
                assert_eq!(mv & outside, mv, "column {column}: a move inside it");
                let safe = g.non_losing_moves() & outside;
                let better = Bits(safe)
                    .filter(|&m| g.move_score(m) > g.move_score(mv))
                    .count();
                assert!(safe & mv != 0 && better < 3, "column {column}");
                g.play(mv);
            }
        }
        assert!(lines >= 8, "{lines} of 16 games reached 30 stones");
        // no cell allowed: no game, though the start has safe moves
        assert_eq!(plausible_line_within(&start, 1, 3, 0, || 1), None);
    }
}
