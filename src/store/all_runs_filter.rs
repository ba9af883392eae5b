//! One blocked Bloom filter over the keys of all of a store's runs and of every key added since
//! it opened: "is this key possibly in any run, or in the write buffer?", answered with one cache
//! miss before the runs' own filters are asked.
//!
//! Each run has its own filter ([`super::bloom`]), and a lookup asks every run: one random block
//! read per run. A store being written has several runs at once (a flush every few seconds, a
//! merge past [`super::StoreConfig::max_runs`]), and a long proof search asks the store about
//! every position new to its proof table, nearly always about a key no run holds. So nearly every
//! lookup paid one memory latency per run to learn nothing. This filter holds every key of every
//! run, so a key it rejects is in no run and the runs are not asked; a key it passes (one stored,
//! or a false positive) is asked of the runs as before. It also holds every key added to the
//! write buffer from the moment it is added, so the proof search can ask it first whether the
//! store knows anything of a position at all, memory layer included (see `Settled for Store`).
//!
//! Why it is never wrong: it only ever answers "certainly absent" for a key one of whose bits is
//! clear, and its bits are only ever set, never cleared, so it suffices that every key of every
//! run a lookup can see, and every key added to the buffer, was inserted before. The disk layer
//! keeps that invariant ([`super::disk`]): the filter is built from all runs when the store
//! opens; a key is inserted when it is added to the buffer, under the buffer's lock, so before
//! the flush that writes it into a run publishes that run (under the runs' write lock, which a
//! lookup's read lock then orders after the inserts); a merge publishes a run whose keys are
//! exactly its inputs' (already inserted); nothing else adds runs or keys. A filter that has taken
//! more keys than it was sized for is replaced, by a flush, holding the buffer's lock, in the same
//! critical section that publishes the run, by a larger one built from every run (the buffer is
//! empty then: its keys are in the new run). Keys are counted with repeats (an overcount only
//! makes the rebuild come sooner); keys of runs merged away stay set: false positives, never a
//! wrong answer.

use super::bloom::WORDS_PER_BLOCK;
use super::bloom::{blocks_for, locate, test_bits, DEFAULT_BITS_PER_KEY, DEFAULT_HASHES};
use crate::util::huge_pages::HugeArray;
use std::sync::atomic::{AtomicU64, Ordering};

/// A blocked Bloom filter over the keys of every run, filled while lookups read it.
pub(super) struct AllRunsFilter {
    words: HugeArray<AtomicU64>,
    blocks: u64,
    /// The keys it was sized for, at the runs' own bits per key.
    capacity: u64,
    /// Keys inserted so far, counted with repeats.
    inserted: AtomicU64,
}

impl AllRunsFilter {
    /// An empty filter sized for `capacity` keys (at least one block).
    pub(super) fn with_capacity(capacity: u64) -> std::io::Result<AllRunsFilter> {
        let blocks = blocks_for(capacity, DEFAULT_BITS_PER_KEY);
        Ok(AllRunsFilter {
            // random reads and writes all over it: huge pages spare a TLB miss per access
            words: HugeArray::zeroed(blocks as usize * WORDS_PER_BLOCK)?,
            blocks,
            capacity,
            inserted: AtomicU64::new(0),
        })
    }

    /// Adds a key's word (the runs' filters hash the raw word too). Safe beside lookups: a bit
    /// is set atomically, and a lookup that misses it is one that could not see the key's run
    /// yet (see the module documentation).
    #[inline]
    pub(super) fn insert(&self, key: u64) {
        let (block, h) = locate(key, self.blocks);
        let words = &self.words.as_slice()[block * WORDS_PER_BLOCK..(block + 1) * WORDS_PER_BLOCK];
        for i in 0..DEFAULT_HASHES {
            let bit = (h >> (9 * i)) & 511;
            words[(bit >> 6) as usize].fetch_or(1 << (bit & 63), Ordering::Relaxed);
        }
        self.inserted.fetch_add(1, Ordering::Relaxed);
    }

    /// Adds every key of a sorted run's entries (several entries of one key are adjacent and
    /// inserted once).
    pub(super) fn insert_entries(&self, entries: &[u64]) {
        let mut last = None;
        for &e in entries {
            let key = super::entry::Entry::from_word(e).key().get();
            if last != Some(key) {
                self.insert(key);
                last = Some(key);
            }
        }
    }

    /// False: no run holds the key. True: one may.
    #[inline]
    pub(super) fn may_contain(&self, key: u64) -> bool {
        let (block, h) = locate(key, self.blocks);
        let words = &self.words.as_slice()[block * WORDS_PER_BLOCK..(block + 1) * WORDS_PER_BLOCK];
        let loaded: [u64; WORDS_PER_BLOCK] =
            std::array::from_fn(|i| words[i].load(Ordering::Relaxed));
        test_bits::<{ DEFAULT_HASHES as usize }>(&loaded, h)
    }

    /// Asks the processor to start loading the key's block (a hint).
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        let (block, _) = locate(key, self.blocks);
        if let Some(w) = self.words.as_slice().get(block * WORDS_PER_BLOCK) {
            crate::util::prefetch::prefetch(w);
        }
    }

    /// Whether it has taken more keys than it was sized for (its false positives then climb
    /// past the runs' own rate).
    pub(super) fn is_full(&self) -> bool {
        self.inserted.load(Ordering::Relaxed) > self.capacity
    }

    /// The keys it was sized for.
    #[cfg(test)]
    pub(super) fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Bytes of its words.
    pub(super) fn bytes(&self) -> u64 {
        self.words.bytes() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Key;
    use crate::store::entry::{Entry, Value};

    /// Every inserted key passes (no false negatives, whether inserted alone or from a run's
    /// entries), and at capacity the false-positive rate stays under the runs' 1%.
    #[test]
    fn holds_every_key_and_rejects_most_others() {
        let n = 100_000u64;
        let f = AllRunsFilter::with_capacity(n).unwrap();
        let entries: Vec<u64> = (0..n / 2)
            .flat_map(|i| {
                let key = Key::new(i * 0x81);
                [
                    Entry::new(key, Value::Loss).word(),
                    Entry::new(key, Value::Win).word(),
                ]
            })
            .collect();
        f.insert_entries(&entries);
        for i in n / 2..n {
            f.insert(i * 0x81);
        }
        assert!(!f.is_full(), "adjacent entries of one key count once");
        for i in 0..n {
            assert!(f.may_contain(i * 0x81), "key {i} lost");
        }
        // keys with bit 63 set are never stored
        let fp = (0..200_000u64)
            .filter(|&i| f.may_contain((1 << 63) | i.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
            .count() as f64
            / 200_000.0;
        assert!(fp > 0.0 && fp <= 0.01, "false-positive rate {fp}");
        f.insert(1 << 62);
        assert!(f.is_full(), "one key past its capacity");
    }

    /// Two threads inserting keys that share blocks, a third looking them up meanwhile: every
    /// key of both is found once they are joined (a plain read-modify-write of the words would
    /// lose one thread's bits where both write a word at once).
    #[test]
    fn concurrent_inserts_lose_no_bits() {
        // sized for the keys, so that a lost bit shows (a filter with every bit set would pass
        // any key); the writers go through the same blocks at the same pace
        let f = AllRunsFilter::with_capacity(40_000).unwrap();
        let keys = |t: u64| (0..20_000u64).map(move |k| k * 2 + t);
        std::thread::scope(|s| {
            s.spawn(|| keys(0).for_each(|k| f.insert(k)));
            s.spawn(|| keys(1).for_each(|k| f.insert(k)));
            s.spawn(|| keys(0).filter(|&k| f.may_contain(k)).count());
        });
        assert!(keys(0).chain(keys(1)).all(|k| f.may_contain(k)));
        let strangers = (0..10_000u64)
            .filter(|&k| f.may_contain((1 << 63) | k))
            .count();
        assert!(
            strangers < 200,
            "{strangers} of 10,000 never inserted pass: saturated"
        );
    }
}
