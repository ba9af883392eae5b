//! Which positions some thread is searching right now, so that the others can leave them for
//! later (Weill's ABDADA in the simplified form chess engines use, after Tom Kerrigan).
//!
//! Threads that share a transposition table but search the same null-window probe from the same
//! root walk the same tree in nearly the same order: without coordination the second thread
//! mostly repeats the first one's work a moment later, and two threads are barely faster than
//! one. With this set a thread that is about to enter a child another thread is already
//! searching moves that child to the end of its own list and searches its siblings first; by the
//! time it comes back, the other thread's result is usually in the table.
//!
//! The set is a small array of atomic words, one per position hash: a lossy, lock-free
//! approximation. A lost mark or a false "busy" only changes the order in which moves are
//! searched, never a value (every move is still searched, deferred ones last).

use crate::game::Key;
use crate::util::huge_pages::HugeArray;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Slots of the set: far more than the positions a few threads can be inside at once near the
/// root, and small enough (256 KiB) to stay in cache.
const SLOTS: usize = 1 << 15;

/// Positions being searched by some thread (see the module comment).
pub struct Busy {
    slots: HugeArray<AtomicU64>,
}

impl Busy {
    /// An empty set.
    pub fn new() -> io::Result<Self> {
        Ok(Busy {
            slots: HugeArray::zeroed(SLOTS)?,
        })
    }

    /// The process's one set, made on first use (`None` if it could not be mapped: threads
    /// then only lose deferral, never a value). Parallel solvers are made per question (a
    /// batch of small positions makes thousands), so they share this one instead of each
    /// setting up its own; marks of unrelated searches running at once can only reorder
    /// moves.
    pub fn shared() -> Option<&'static Busy> {
        static SHARED: OnceLock<Option<Busy>> = OnceLock::new();
        SHARED.get_or_init(|| Busy::new().ok()).as_ref()
    }

    /// The slot of `key` and the word that marks it (never 0, the empty slot).
    #[inline]
    fn slot(&self, key: Key) -> (&AtomicU64, u64) {
        let h = key.get().wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = (h >> 40) as usize & (SLOTS - 1);
        (&self.slots.as_slice()[i], key.get() | 1 << 63)
    }

    /// Whether some thread has marked `key` and not yet released it (or another key sharing
    /// its slot has the same word: impossible, the word is the key).
    #[inline]
    pub fn contains(&self, key: Key) -> bool {
        let (slot, word) = self.slot(key);
        slot.load(Ordering::Relaxed) == word
    }

    /// Marks `key` as being searched (replacing whatever shared its slot: that thread's mark is
    /// lost, which only costs a little duplicated work).
    #[inline]
    pub fn enter(&self, key: Key) {
        let (slot, word) = self.slot(key);
        slot.store(word, Ordering::Relaxed);
    }

    /// Releases `key`'s mark if it is still there.
    #[inline]
    pub fn leave(&self, key: Key) {
        let (slot, word) = self.slot(key);
        let _ = slot.compare_exchange(word, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_come_and_go() {
        let busy = Busy::new().unwrap();
        let (a, b) = (Key::new(12345), Key::new(67890));
        assert!(!busy.contains(a));
        busy.enter(a);
        assert!(busy.contains(a) && !busy.contains(b));
        busy.leave(b);
        assert!(busy.contains(a));
        busy.leave(a);
        assert!(!busy.contains(a));
        // the empty slot never reads as the key 0
        assert!(!busy.contains(Key::new(0)));
    }
}
