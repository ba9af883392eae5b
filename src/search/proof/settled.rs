//! Proven results that outlive one search: how the proof search reads and writes the position
//! store ([`crate::store::Store`]) behind a long solve.
//!
//! The proof search's numbers answer one question at a time ("does the attacker win?"), while
//! the store keeps facts about a position's score for the side to move (win, loss, at least or
//! at most a draw). Both directions of the translation are here, with the proof that neither
//! claims more than it knows.

use super::{ProofSearch, FAILS, SUCCEEDS};
use crate::game::{Game, Key, Player};
use crate::search::Bounds;

/// Proven bounds on positions' scores, kept beyond one search (the position store).
pub trait Settled: Sync {
    /// Proven bounds on the score of `key`'s position for the side to move, if any are known.
    fn settled(&self, key: Key) -> Option<Bounds>;
    /// Records proven bounds on the score of `key`'s position for the side to move, which cost
    /// `work` nodes to prove.
    fn record(&self, key: Key, bounds: Bounds, work: u64);
    /// Hints that `key` will be asked soon (see [`crate::search::Table::prefetch`]).
    #[inline]
    fn prefetch(&self, _key: Key) {}
}

/// The proof search's numbers for a position with known score `bounds` (for the side to move),
/// if the bounds settle the current question; `attacker_to_move` says whose question it is.
///
/// Proof: the attacker to move reaches his goal (a win) iff his score is at least 1, and fails
/// iff it is at most 0; the defender to move reaches his (no loss) iff his score is at least 0,
/// and fails (a loss) iff it is at most -1. Bounds that prove neither settle nothing.
pub(super) fn numbers_from_bounds(b: Bounds, attacker_to_move: bool) -> Option<(u32, u32)> {
    let (succeeds_from, fails_to) = if attacker_to_move { (1, 0) } else { (0, -1) };
    if b.lower >= succeeds_from {
        Some(SUCCEEDS)
    } else if b.upper <= fails_to {
        Some(FAILS)
    } else {
        None
    }
}

/// The score bounds a settled question proves for the side to move: the converse of
/// [`numbers_from_bounds`] (the mover succeeding as attacker is a win, as defender at least a
/// draw; failing as attacker at most a draw, as defender a loss). The other side stays
/// unknown.
pub fn bounds_from_outcome(mover_succeeds: bool, attacker_to_move: bool) -> Bounds {
    let (lower, upper) = match (mover_succeeds, attacker_to_move) {
        (true, true) => (1, i8::MAX),
        (true, false) => (0, i8::MAX),
        (false, true) => (i8::MIN, 0),
        (false, false) => (i8::MIN, -1),
    };
    Bounds {
        lower,
        upper,
        best: None,
    }
}

/// Whether bounds on a position's score (for the side to move) answer "does the attacker
/// win?", and how: the same translation as the search's own (`numbers_from_bounds`), for
/// callers that keep their own trees (the job-level master).
pub fn answer_from_bounds(b: Bounds, attacker_to_move: bool) -> Option<bool> {
    let (phi, _) = numbers_from_bounds(b, attacker_to_move)?;
    // the mover succeeds (phi 0): the attacker wins iff the mover is the attacker
    Some((phi == 0) == attacker_to_move)
}

impl<'t> ProofSearch<'t> {
    /// Keeps settled results in `store` (read where the proof table has nothing, written when
    /// proving them cost at least `min_work` nodes, endgame nodes included): a long solve then
    /// survives its process, and a second solve starts from what the first proved.
    pub fn with_settled(mut self, store: &'t dyn Settled, min_work: u64) -> Self {
        self.settled = Some(store);
        self.record_min_work = min_work;
        self
    }

    /// Hints that the store will be asked about the positions keyed `tags` soon: the children
    /// of an expansion that the proof table does not know are each asked once, and their
    /// memory latencies overlap when fetched together.
    #[inline]
    pub(super) fn prefetch_settled(&self, tags: &[u64]) {
        if let Some(store) = self.settled {
            for &t in tags {
                store.prefetch(key_of_tag(t));
            }
        }
    }

    /// The numbers the store proves for `g` (keyed `tag`) under the current question.
    #[inline]
    pub(super) fn settled_numbers<G: Game>(&mut self, g: &G, tag: u64) -> Option<(u32, u32)> {
        let store = self.settled?;
        let attacker_to_move = Player::of_ply(g.ply()) == self.attacker;
        let n = numbers_from_bounds(store.settled(key_of_tag(tag))?, attacker_to_move)?;
        self.settled_hits += 1;
        Some(n)
    }

    /// Records that the side to move in `g` (keyed `tag`) succeeds or fails under the current
    /// question, if proving it cost at least the store's threshold.
    #[inline]
    pub(super) fn record_settled<G: Game>(
        &mut self,
        g: &G,
        tag: u64,
        mover_succeeds: bool,
        work: u64,
    ) {
        let Some(store) = self.settled else { return };
        if work < self.record_min_work {
            return;
        }
        let attacker_to_move = Player::of_ply(g.ply()) == self.attacker;
        store.record(
            key_of_tag(tag),
            bounds_from_outcome(mover_succeeds, attacker_to_move),
            work,
        );
        self.recorded += 1;
    }
}

/// The position key inside a proof-table tag (see `ProofSearch::tag`).
#[inline]
fn key_of_tag(tag: u64) -> Key {
    Key::from_hash_low_bits(tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading back what was recorded settles the same question the same way, and the other
    /// question only where the fact decides it.
    #[test]
    fn outcomes_round_trip_through_bounds() {
        for mover_succeeds in [false, true] {
            for attacker_to_move in [false, true] {
                let b = bounds_from_outcome(mover_succeeds, attacker_to_move);
                let n = numbers_from_bounds(b, attacker_to_move);
                assert_eq!(n, Some(if mover_succeeds { SUCCEEDS } else { FAILS }));
            }
        }
        // a win for the mover settles both questions; "at least a draw" only the defender's
        let win = bounds_from_outcome(true, true);
        assert_eq!(numbers_from_bounds(win, false), Some(SUCCEEDS));
        let at_least_draw = bounds_from_outcome(true, false);
        assert_eq!(numbers_from_bounds(at_least_draw, true), None);
        let at_most_draw = bounds_from_outcome(false, true);
        assert_eq!(numbers_from_bounds(at_most_draw, false), None);
        let loss = bounds_from_outcome(false, false);
        assert_eq!(numbers_from_bounds(loss, true), Some(FAILS));
    }

    /// Against every exact score: the numbers read from the score's bounds are what the
    /// question's definition says.
    #[test]
    fn numbers_agree_with_exact_scores() {
        for score in -3i8..=3 {
            let exact = Bounds {
                lower: score,
                upper: score,
                best: None,
            };
            let attacker = numbers_from_bounds(exact, true).unwrap();
            assert_eq!(attacker == SUCCEEDS, score >= 1, "attacker, score {score}");
            let defender = numbers_from_bounds(exact, false).unwrap();
            assert_eq!(defender == SUCCEEDS, score >= 0, "defender, score {score}");
        }
    }
}
