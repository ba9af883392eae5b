//! Tables that grow with the work: the active part of a hash table doubles as it fills.
//!
//! A table's memory is reserved at its full size but handed out by the kernel page by page, and
//! zeroed on first touch. A table probed at random touches every page soon, so a small solve in a
//! gigabyte table paid for zeroing the gigabyte: most of the process time of small solves was the
//! kernel's. Here a table uses only its first `2^k` buckets, and doubles that when about half of
//! its slots are taken, so the memory touched follows the entries stored, up to the full size.
//!
//! A bucket index is the low bits of a mixed hash; doubling adds one bit, so the entries of bucket
//! `b` either stay in `b` or move to `b + 2^k`, a bucket nothing used before. Growing moves them
//! while other threads search on. That is safe because a table may always drop an entry: a
//! thread that computed an index under the old size stores where nobody will look (a lost
//! entry) or misses an entry not moved yet (a miss), and a move can overwrite an entry just
//! stored (lost). No slot ever answers for another key (slots keep full keys), so growing can
//! only cost work, never change a result.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// One insert in `2^SAMPLE_BITS` is counted (by hash bits the index does not use), so counting
/// costs the searches next to nothing.
const SAMPLE_BITS: u32 = 6;

/// The active size of a table of buckets (see the module documentation).
#[derive(Debug)]
pub struct Growth {
    /// Active buckets minus one (a power of two minus one).
    mask: AtomicUsize,
    /// All buckets the table has reserved (a power of two).
    max_buckets: usize,
    /// Slots per bucket.
    ways: usize,
    /// Inserts into empty slots counted since the last clear (one in `2^SAMPLE_BITS`).
    sampled: AtomicU64,
    /// Held while moving entries (one grower at a time; the others go on searching).
    growing: Mutex<()>,
}

impl Growth {
    /// Starts with about `start_buckets` of `max_buckets` (both rounded down to powers of two).
    pub fn new(max_buckets: usize, start_buckets: usize, ways: usize) -> Growth {
        let pow2 = |n: usize| 1usize << (usize::BITS - 1 - n.max(1).leading_zeros());
        let max = pow2(max_buckets);
        Growth {
            mask: AtomicUsize::new(pow2(start_buckets).min(max) - 1),
            max_buckets: max,
            ways,
            sampled: AtomicU64::new(0),
            growing: Mutex::new(()),
        }
    }

    /// The bucket of hash bits `h` (the low bits are used: mix before).
    #[inline(always)]
    pub fn bucket(&self, h: u64) -> usize {
        h as usize & self.mask.load(Ordering::Relaxed)
    }

    /// Buckets in use now.
    #[inline]
    pub fn active_buckets(&self) -> usize {
        self.mask.load(Ordering::Relaxed) + 1
    }

    /// All buckets reserved.
    pub fn max_buckets(&self) -> usize {
        self.max_buckets
    }

    /// Counts an insert into an empty slot; `sample` are hash bits independent of the index (the
    /// top bits of the mixed hash). Returns whether the table should grow now.
    #[inline(always)]
    pub fn inserted(&self, sample: u64) -> bool {
        if sample >> (64 - SAMPLE_BITS) != 0 {
            return false;
        }
        let counted = self.sampled.fetch_add(1, Ordering::Relaxed) + 1;
        let active = self.active_buckets();
        active < self.max_buckets && (counted << SAMPLE_BITS) as usize * 2 > active * self.ways
    }

    /// Doubles the active part, moving entries with `split(old_buckets)` (which moves, from each
    /// bucket `b < old_buckets`, the entries whose new index is `b + old_buckets`). Does
    /// nothing when another thread is growing or the table is at its full size.
    #[cold]
    pub fn grow(&self, split: impl FnOnce(usize)) {
        let Ok(_one_at_a_time) = self.growing.try_lock() else {
            return;
        };
        let old = self.active_buckets();
        if old >= self.max_buckets {
            return;
        }
        // new stores use the new size at once; the moves follow
        self.mask.store(2 * old - 1, Ordering::Relaxed);
        split(old);
    }

    /// Grows to the full size (for timed work that must not pay page faults later).
    pub fn grow_to_max(&self, mut split: impl FnMut(usize)) {
        while self.active_buckets() < self.max_buckets {
            self.grow(&mut split);
        }
    }

    /// Forgets the count (the table was emptied); the size stays.
    pub fn cleared(&self) {
        self.sampled.store(0, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_when_half_full_and_stops_at_the_full_size() {
        let g = Growth::new(1 << 10, 4, 4);
        assert_eq!(g.active_buckets(), 4);
        // 4 buckets x 4 ways: grow after 8 counted inserts (only samples with top bits 0 count)
        let counted = 0u64; // top bits zero: counted
        let skipped = u64::MAX; // top bits set: not counted
        assert!(!g.inserted(skipped));
        let mut grow_at = None;
        for i in 1..=20 {
            if g.inserted(counted) {
                grow_at = Some(i);
                break;
            }
        }
        assert_eq!(grow_at, Some(1), "each counted insert stands for 64");
        let mut splits = Vec::new();
        g.grow(|old| splits.push(old));
        assert_eq!((g.active_buckets(), splits), (8, vec![4]));
        g.grow_to_max(|_| {});
        assert_eq!(g.active_buckets(), 1 << 10);
        assert!(!g.inserted(counted), "full size: no more growing");
        assert_eq!(g.bucket(u64::MAX), (1 << 10) - 1);
    }
}
