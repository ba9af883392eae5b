//! Random play that keeps a game worth solving, for the tests of every search and for the
//! audits of `zugzwang-verify`: the positions they check are drawn this way.

use super::rng::xorshift;
use crate::game::{Bits, Game};

/// One move of *careful* random play: drawn uniformly among the moves that do not hand the
/// opponent an immediate win (so it blocks when it must and never plays under an enemy threat),
/// `pick(n)` giving the index below `n`; `None` when every move loses at once. Precondition: the
/// side to move has no immediate win ([`Game::non_losing_moves`]).
#[inline]
pub fn careful_move<G: Game>(g: &G, pick: impl FnOnce(u64) -> u64) -> Option<u64> {
    let moves = g.non_losing_moves();
    if moves == 0 {
        return None;
    }
    Bits(moves).nth(pick(moves.count_ones() as u64) as usize)
}

/// Careful random play from `g` down to `empty` empty cells: only non-losing moves, and `None`
/// if the game ends or the side to move is left an immediate win (such positions are trivial).
pub fn careful<G: Game>(mut g: G, empty: u32, seed: &mut u64) -> Option<G> {
    while g.max_ply() - g.ply() > empty {
        let mv = careful_move(&g, |n| xorshift(seed) % n)?;
        g.play(mv);
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

/// Random play from `start` down to `empties` empty cells that never wins (so the game goes
/// on) and avoids handing the opponent a win where it can, retried from `start` until it gets
/// there with no immediate win for the side to move. Unlike [`careful`], which gives up as soon
/// as a side is forced, it plays on through forced positions (a side with no safe move plays a
/// losing one that does not win, and the game is replayed only if it ends), so its positions
/// include the lopsided ones; the cube tests' samples are drawn this way.
pub fn careful_random<G: Game>(start: G, empties: u32, seed: &mut u64) -> G {
    'retry: loop {
        let mut g = start;
        while g.ply() < g.max_ply() - empties {
            // avoid winning moves when possible, and moves that hand the opponent a win
            let mut cand = g.playable() & !g.winning_moves();
            if cand == 0 {
                continue 'retry;
            }
            let safe = if g.winning_moves() == 0 {
                g.non_losing_moves() & cand
            } else {
                0
            };
            if safe != 0 {
                cand = safe;
            }
            let n = cand.count_ones();
            let k = (xorshift(seed) % n as u64) as usize;
            let mv = Bits(cand).nth(k).unwrap();
            g.play(mv);
            if g.last_mover_won() {
                continue 'retry;
            }
        }
        if g.winning_moves() == 0 {
            return g;
        }
    }
}
