//! Test-only helpers shared by the search modules' tests: random positions that are still
//! worth solving.

use crate::game::{Bits, Game};

/// A small, seedable random source (xorshift64): tests must be reproducible.
pub fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// Careful random play from `g` down to `empty` empty cells: only non-losing moves, and `None`
/// if the game ends or the side to move is left an immediate win (such positions are trivial).
pub fn careful<G: Game>(mut g: G, empty: u32, seed: &mut u64) -> Option<G> {
    while g.max_ply() - g.ply() > empty {
        let moves = g.non_losing_moves();
        if moves == 0 {
            return None;
        }
        let pick = (xorshift(seed) % moves.count_ones() as u64) as usize;
        g.play(Bits(moves).nth(pick)?);
        if g.winning_moves() != 0 {
            return None;
        }
    }
    Some(g)
}

/// The first `count` positions [`careful`] play reaches from `start` (down to `empty` empty
/// cells) with the random source seeded by `seed`, trivial ones skipped: the sample every
/// search test checks against plain minimax.
pub fn careful_positions<G: Game>(
    start: G,
    empty: u32,
    count: usize,
    seed: u64,
) -> impl Iterator<Item = G> {
    let mut s = seed;
    std::iter::repeat_with(move || careful(start, empty, &mut s))
        .flatten()
        .take(count)
}
