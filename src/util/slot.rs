//! The lock-less two-word slot of the search's tables (Hyatt's lock-less hashing).
//!
//! A slot holds `tag ^ data` and `data`. A reader accepts a slot only when the two words agree
//! with the tag it asked for, so a write torn by another thread (one word of an old entry, one
//! of a new) reads as a miss, never as another position's data. Tags are kept in full, so no
//! collision can return another position's data either. The words are relaxed atomics: readers
//! and writers on any thread need no lock, and the check above is what makes a slot consistent.

use std::sync::atomic::{AtomicU64, Ordering};

/// One two-word slot (see the module documentation). All zeros is a valid, empty slot, so a
/// table of slots can live in zeroed memory.
#[repr(C)]
#[derive(Debug, Default)]
pub struct Slot([AtomicU64; 2]);

impl Slot {
    /// The slot's tag and data as read now (the tag is `tag ^ data` undone, so a torn slot gives
    /// a tag nobody asked for).
    #[inline(always)]
    pub fn load(&self) -> (u64, u64) {
        let mixed = self.0[0].load(Ordering::Relaxed);
        let data = self.0[1].load(Ordering::Relaxed);
        (mixed ^ data, data)
    }

    /// The data word alone (for replacement decisions; not checked against a tag).
    #[inline(always)]
    pub fn data(&self) -> u64 {
        self.0[1].load(Ordering::Relaxed)
    }

    /// The data stored for `tag`, if the slot holds it.
    #[inline(always)]
    pub fn get(&self, tag: u64) -> Option<u64> {
        let (t, data) = self.load();
        (t == tag).then_some(data)
    }

    /// Stores `data` for `tag`.
    #[inline(always)]
    pub fn store(&self, tag: u64, data: u64) {
        self.0[0].store(tag ^ data, Ordering::Relaxed);
        self.0[1].store(data, Ordering::Relaxed);
    }

    /// Empties the slot.
    #[inline]
    pub fn clear(&self) {
        self.store(0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_answers_only_its_own_tag_and_a_torn_one_none() {
        let s = Slot::default();
        assert_eq!(
            s.get(0),
            Some(0),
            "zeroed: tag 0, data 0 (tables keep real tags non-zero)"
        );
        s.store(0x8000_0000_0000_0007, 42);
        assert_eq!(s.get(0x8000_0000_0000_0007), Some(42));
        assert_eq!(s.get(0x8000_0000_0000_0008), None);
        // a torn write: the first word of one entry, the second of another
        s.0[1].store(43, Ordering::Relaxed);
        assert_eq!(s.get(0x8000_0000_0000_0007), None);
        s.clear();
        assert_eq!(s.load(), (0, 0));
    }
}
