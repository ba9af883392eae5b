//! The walk through a table's entries: breadth first from the start, every position that has an
//! entry (and at most [`WALK_GAP`] plies in a row without), each once by its identity. The full
//! check justifies what it visits; `table stats` and the tests visit the same positions.

use crate::game::{Bits, Game, Key};
use crate::store::entry::Knowledge;
use std::collections::HashSet;

/// What the walk treats as the same position ([`walk_entries`] visits each once): the exact
/// position ([`Game::id`]) where keys may merge positions of different values (seed 003's), or
/// a sound canonical form under the game's symmetries, which visits each class of symmetric
/// positions once (their game trees are the same, so one justification serves all).
pub type Identity<'a, G> = &'a (dyn Fn(&G) -> u128 + Sync);

/// A visitor of [`walk_entries`]: the position, its entry, and a way to get the moves from the
/// start to it; returns whether the walk goes on.
pub type Visit<'a, G> = &'a mut dyn FnMut(&G, Knowledge, &dyn Fn() -> Vec<u64>) -> bool;

/// Visits, breadth first from `start`, every position that has an entry in `lookup`, following
/// moves through positions with entries and at most [`WALK_GAP`] plies in a row without, each
/// position once by its `identity` (exact where keys are unsound, as seed 003's: two positions
/// sharing a key must both be visited). `visit` gets the position, its entry and a way to get
/// the moves from the start to it, and returns whether to go on. At most `max_positions`
/// positions are visited (0: all); returns whether that limit stopped the walk.
pub fn walk_entries<G: Game>(
    start: &G,
    lookup: &dyn Fn(Key) -> Knowledge,
    identity: Identity<'_, G>,
    max_positions: u64,
    visit: Visit<'_, G>,
) -> bool {
    let mut seen = HashSet::from([identity(start)]);
    // how each queued position was reached: (parent's index, move)
    let mut reached: Vec<(usize, u64)> = vec![(usize::MAX, 0)];
    // with each position: how many positions without entries lead to it, and its index
    let mut queue = std::collections::VecDeque::from([(*start, 0u32, 0usize)]);
    let mut visited = 0u64;
    while let Some((p, gap, at)) = queue.pop_front() {
        if p.ply() >= p.max_ply() {
            continue;
        }
        let k = lookup(p.key());
        let gap = if k.is_empty() { gap + 1 } else { 0 };
        if gap > WALK_GAP {
            continue;
        }
        if !k.is_empty() {
            if max_positions > 0 && visited >= max_positions {
                return true;
            }
            visited += 1;
            if !visit(&p, k, &|| line_to(&reached, at)) {
                return false;
            }
        }
        if p.winning_moves() != 0 {
            continue; // the game ends here for a perfect player; children are not reached
        }
        for mv in Bits(p.playable()) {
            let mut c = p;
            c.play(mv);
            // a child without an entry one ply past the gap would only be dropped when taken
            // from the queue: not queueing it keeps the queue to the positions the walk visits
            // (at the full gap, 16 times fewer per ply), and keeps it out of `seen`, where it
            // would shut out the same position reached later by a path with a shorter gap
            let beyond = gap >= WALK_GAP && lookup(c.key()).is_empty();
            if c.ply() < c.max_ply() && !beyond && seen.insert(identity(&c)) {
                reached.push((at, mv));
                queue.push_back((c, gap, reached.len() - 1));
            }
        }
    }
    false
}

/// The moves from the start to the position with index `at` (see [`walk_entries`]).
pub(super) fn line_to(reached: &[(usize, u64)], mut at: usize) -> Vec<u64> {
    let mut line = Vec::new();
    while at != 0 {
        let (parent, mv) = reached[at];
        line.push(mv);
        at = parent;
    }
    line.reverse();
    line
}

/// How many plies in a row the walk goes through positions without entries. A search keeps a
/// result only when it cost enough, and a transposition can make a position cheap to prove
/// whose children were expensive (found proved in another branch), so stored positions are not
/// always next to each other; each ply of gap costs a table look-up per move.
pub(super) const WALK_GAP: u32 = 2;
