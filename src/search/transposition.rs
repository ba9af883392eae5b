//! The transposition-table interface the search talks to.
//!
//! The search never assumes more than this trait: "remember bounds on the score of a key, and
//! the move that proved them". That lets the position store (`crate::store`) take the place of
//! the in-memory table ([`super::MemoryTable`]) without the search changing.

use crate::game::Key;

/// What is known about a position's score: `lower <= score <= upper`, and a move worth trying
/// first (the one that last raised alpha or caused a cutoff).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Proven lower bound on the score for the side to move.
    pub lower: i8,
    /// Proven upper bound on the score for the side to move.
    pub upper: i8,
    /// Cell index (0..64) of a good move, if one is known.
    pub best: Option<u8>,
}

impl Bounds {
    /// Bounds that prove nothing in a game whose scores lie within `-max..=max`.
    pub fn unknown(max: i32) -> Self {
        Bounds {
            lower: -max as i8,
            upper: max as i8,
            best: None,
        }
    }
    /// Whether the score is known exactly.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// A transposition table shared by the threads of one search. Methods take `&self` so that a
/// parallel search can share one table; implementations use atomics or locks internally.
pub trait Table: Sync {
    /// Bounds stored for `key`, if any. Never returns bounds that were not proven for this key.
    fn probe(&self, key: Key) -> Option<Bounds>;
    /// Records bounds proven for `key`; `work` (nodes spent proving them) guides replacement.
    /// A table may drop any entry it likes; it must never keep a wrong one.
    fn store(&self, key: Key, bounds: Bounds, work: u64);
    /// Forgets everything (used between independent benchmark positions).
    fn clear(&self);
    /// Hints that `key` will be probed soon, so its memory can be fetched while other work goes
    /// on (several prefetches overlap; one probe after another does not).
    #[inline]
    fn prefetch(&self, _key: Key) {}
}
