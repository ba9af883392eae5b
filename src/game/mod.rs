//! The rules of the games, and nothing else.
//!
//! Every game zugzwang solves places one stone per move on one cell of a board of at most 64 cells,
//! and is won by completing a line. That shared shape lets one search (`crate::search`) solve all of
//! them: a move is a one-bit `u64` mask of the cell it fills, and each game answers a handful of
//! bitboard questions (where may I play, where would I win, which moves do not lose at once).

pub mod connect4;
pub mod cube;
mod key;
mod player;
pub mod svg;
pub mod symmetry;

pub use connect4::Connect4;
pub use cube::{Cube, Rules};
pub use key::Key;
pub use player::Player;

/// Iterates the set bits of a mask, lowest first, each as a one-bit mask.
///
/// Moves are one-bit masks throughout the crate, so this is how a move set is walked.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u64;
    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.0 == 0 {
            None
        } else {
            let low = self.0 & self.0.wrapping_neg();
            self.0 ^= low;
            Some(low)
        }
    }
}

/// The playable cells left to a side whose opponent threatens to win on `threats` (empty cells
/// that complete one of his lines): none if two of them are playable (he wins on the other),
/// the one that blocks if one is, else all of `playable`. The core of every game's
/// [`Game::non_losing_moves`]; under gravity the game also drops the cells below his threats.
#[inline(always)]
pub(crate) fn blocking_moves(playable: u64, threats: u64) -> u64 {
    let forced = playable & threats;
    if forced == 0 {
        playable
    } else if forced & (forced - 1) != 0 {
        0 // two immediate threats: cannot block both
    } else {
        forced
    }
}

/// The move (ply, counted from 1 on the empty board) on which a game ends under perfect play,
/// from the exact `score` of a position with `ply` stones on a board of `max_ply` cells: the
/// inverse of the score convention of [`Game`]. The published tables of Connect Four on other
/// boards (Steininger's, `verify/data/connect4/board-sizes.txt`) give their results this way.
///
/// A win with the stone that is move `m` is worth `(max_ply + 2 - m) / 2` to its player, so two
/// moves share each score and the winner's parity picks one: the side to move makes the moves
/// `m` with `m - 1 - ply` even; a loss is the opponent's win. A draw ends on the last cell.
pub fn ending_ply(max_ply: u32, ply: u32, score: i32) -> u32 {
    if score == 0 {
        return max_ply;
    }
    let winner_moves_at_parity = if score > 0 { ply % 2 } else { (ply + 1) % 2 };
    let m = (max_ply + 2)
        .saturating_sub(2 * score.unsigned_abs())
        .max(1);
    if (m - 1) % 2 == winner_moves_at_parity {
        m
    } else {
        m - 1
    }
}

/// A two-player connection game as the search sees it.
///
/// The contract that makes the search exact (documented once here, relied on everywhere):
/// - The search only visits positions in which the side to move **cannot win at once** (the root
///   is checked with [`Game::winning_moves`] before searching).
/// - [`Game::non_losing_moves`] is *exact*: playing a move it returns leaves the opponent no
///   immediate win, and every legal move it leaves out gives the opponent one. An empty set therefore
///   means the side to move loses on the opponent's next stone. This is what lets the search skip
///   win tests at every node and lets the last two plies of the board be scored as draws.
/// - Scores follow the Connect Four convention generalised to any board of `max_ply` cells: a win
///   with the stone played at ply `p` (stones on the board before it) is worth
///   `(max_ply + 1 - p) / 2`, a draw is 0, a loss is the negative of the winner's score.
///
/// Positions are small `Copy` values (a few words): the search plays every move on a copy
/// instead of undoing it, and the forcing-win search keeps positions in uninitialised stack
/// arrays, which only a type without a destructor allows.
///
/// Moves and cell sets stay raw `u64` one-bit masks (a move is a set of one cell) for now,
/// unlike [`Key`]: they are the hot-path currency of every search (played, intersected, shifted
/// and counted at every node by every game), so a cell-set newtype has to carry the whole bit
/// algebra and be shown to compile to the same code before it can replace them. It is planned;
/// until then a `u64` parameter or result named as moves, cells or threats is such a mask, and
/// a position's key is always a [`Key`], never a `u64`.
pub trait Game: Clone + Copy + Send + Sync {
    /// Stones on the board.
    fn ply(&self) -> u32;
    /// Cells on the board: the ply at which the game is a draw if nobody has won.
    fn max_ply(&self) -> u32;
    /// Every cell the side to move may fill now.
    fn playable(&self) -> u64;
    /// The playable cells on which the side to move wins at once.
    fn winning_moves(&self) -> u64;
    /// The legal moves that do not hand the opponent an immediate win (see the trait contract).
    /// Precondition: `winning_moves() == 0`.
    fn non_losing_moves(&self) -> u64;
    /// Plays a legal move (a one-bit mask of a playable cell).
    fn play(&mut self, mv: u64);
    /// Whether the player who just moved has won (completed a line; in Sogo `-g`, also created a
    /// poison). Deliberately independent of [`Game::winning_moves`]: the reference search uses
    /// only this, so the two are checked against each other.
    fn last_mover_won(&self) -> bool;
    /// A key of the position up to the game's symmetries; below 2^62 so it fits a store entry.
    /// Exact where the position fits in 62 bits, a hash otherwise.
    fn key(&self) -> Key;
    /// Ordering hint: larger is searched first. Must not change the result, only the speed.
    fn move_score(&self, mv: u64) -> i32;
    /// Seed 003's move order (`crate::search::seed`): larger is tried first. Games without
    /// the seed's weights use [`Game::move_score`].
    #[inline]
    fn seed_move_score(&self, mv: u64) -> i32 {
        self.move_score(mv)
    }
    /// Ordering hint when the search needs a *fast* win (the window asks for a score in the upper
    /// half of what is still possible): forcing moves first. Defaults to [`Game::move_score`].
    #[inline]
    fn urgent_move_score(&self, mv: u64) -> i32 {
        self.move_score(mv)
    }
    /// The position as played, exactly and without symmetry: a cheap cache key for searches
    /// that must not pay for the canonical form of [`Game::key`] (one such cache serves one
    /// game and board size).
    fn id(&self) -> u128;
    /// A superset of the moves after which the opponent may be left a single reply that does not
    /// lose at once: the only moves a forcing-win search ([`crate::search::vcf`]) needs to try.
    /// Only that search's reach depends on it, never its correctness (a forcing win it reports
    /// is checked move by move); the default (every playable cell) misses nothing, and games
    /// narrow it to the cells that make a threat, which is what makes the search cheap.
    #[inline]
    fn forcing_candidates(&self) -> u64 {
        self.playable()
    }
    /// The same stones with the other side to move, as if the side to move had passed (not a
    /// legal move). For heuristics only, never for values: "would the opponent win by force if
    /// I did nothing?" tells a proof search how urgent a position is. `None`: not supported.
    #[inline]
    fn null_move(&self) -> Option<Self> {
        None
    }
    /// Whether a stone of the side to move never gives the *opponent* a forcing win he did not
    /// have if the side to move had passed ([`Game::null_move`]). True where a stone changes no
    /// other cell's playability (no gravity): every forcing line of the opponent after the
    /// stone is also one after the pass (its threats do not use the stone's cell, its forced
    /// replies are the same, and the side to move has fewer threats of its own). A proof
    /// search then skips the forcing-win test under a defender who faces none.
    #[inline]
    fn defence_is_monotone(&self) -> bool {
        false
    }
    /// The cell index (0..64) of a one-bit move mask, used to remember a best move in 6 bits.
    #[inline]
    fn cell_index(mv: u64) -> u32 {
        mv.trailing_zeros()
    }
    /// Whether [`Game::static_bounds`] costs so little (a few bitboard operations) that the
    /// search may ask it of every child of a node before searching any, to bound the node from
    /// below (see `search::negamax`). Games whose bounds are strategies computed per position
    /// (the 4x4x4 pairings) leave it off.
    const CHEAP_STATIC_BOUNDS: bool = false;
    /// Static bounds on the score that the game can prove cheaply (for example "the side to move
    /// has no live line left, so it cannot win"). The default proves nothing beyond the range.
    /// Each bound must be backed by a strategy argument documented where it is implemented.
    #[inline]
    fn static_bounds(&self) -> (i32, i32) {
        (i32::MIN, i32::MAX)
    }
    /// Whether [`Game::static_bounds`] proves that the side to move loses (its upper bound is
    /// below 0): the same answer, found as cheaply as the game can, for searches that ask it of
    /// many positions and want nothing else (a move that leaves the opponent a proved loss).
    #[inline]
    fn static_loss(&self) -> bool {
        self.static_bounds().1 < 0
    }
    /// [`Game::non_losing_moves`] and, where there is one, the upper bound of
    /// [`Game::static_bounds`] (`i32::MAX` where there is none): in one call for games whose two
    /// answers start from the same work (Connect Four: the opponent's threats), as the search
    /// asks both of every child before searching any.
    #[inline]
    fn safe_moves_and_upper_bound(&self) -> (u64, i32) {
        let safe = self.non_losing_moves();
        let upper = if safe == 0 {
            i32::MAX
        } else {
            self.static_bounds().1
        };
        (safe, upper)
    }
    /// Whether [`Game::static_bounds`] may prove, after some move from here, that the side
    /// then to move loses. Searches try every move for such a proof only where it can succeed:
    /// the tries cost a play and a bound each.
    #[inline]
    fn bounds_may_prove_loss_after_move(&self) -> bool {
        false
    }

    /// Score of winning with the next stone of the side to move.
    #[inline]
    fn win_now_score(&self) -> i32 {
        ((self.max_ply() + 1 - self.ply()) / 2) as i32
    }
    /// Highest score any result of this game can have from this position.
    #[inline]
    fn max_score(&self) -> i32 {
        self.win_now_score()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ending_ply` inverts the score convention: a game won on move `m` by either side, from
    /// any ply of any board size, maps back to `m`; a draw to the last cell.
    #[test]
    fn ending_ply_inverts_the_score_of_every_ending() {
        for max_ply in 16..=64u32 {
            for ply in 0..max_ply {
                for m in ply + 1..=max_ply {
                    let stones_before = m - 1;
                    let worth = ((max_ply + 1 - stones_before) / 2) as i32;
                    let side_to_move_wins = (stones_before - ply) % 2 == 0;
                    let score = if side_to_move_wins { worth } else { -worth };
                    assert_eq!(
                        ending_ply(max_ply, ply, score),
                        m,
                        "{max_ply} {ply} {score}"
                    );
                }
                assert_eq!(ending_ply(max_ply, ply, 0), max_ply);
            }
        }
        // Connect Four 7x6: +1 from the empty board is the first player's 21st stone, move 41.
        assert_eq!(ending_ply(42, 0, 1), 41);
        assert_eq!(ending_ply(42, 0, 18), 7);
        assert_eq!(ending_ply(36, 0, -1), 36);
    }
}
