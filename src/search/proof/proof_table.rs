//! The transposition table of the proof search.

use super::INFINITE;
use crate::util::growth::Growth;
use crate::util::huge_pages::HugeArray;
use crate::util::prefetch::prefetch;
use crate::util::slot::Slot;

/// Entries per bucket: four 16-byte slots, one 64-byte cache line.
const WAYS: usize = 4;

/// Data word layout: phi in bits 0..29, delta in 29..58, log2 of the work in 58..64.
const NUMBER_BITS: u32 = 29;
const NUMBER_MASK: u64 = (1 << NUMBER_BITS) - 1;
const WORK_SHIFT: u32 = 2 * NUMBER_BITS;

/// Whether a slot's words are an entry: a real tag (top bit set), numbers within range, not
/// both zero.
fn is_entry(tag: u64, data: u64) -> bool {
    let phi = data & NUMBER_MASK;
    let delta = (data >> NUMBER_BITS) & NUMBER_MASK;
    let limit = INFINITE as u64;
    tag >> 63 == 1 && phi <= limit && delta <= limit && (phi | delta) != 0
}

/// The transposition table of the proof search: (phi, delta) per tagged key, with the work spent
/// on it, so that a full bucket gives up its cheapest entry.
///
/// A slot is a lock-less two-word [`Slot`] holding phi, delta and the log2 of the work packed
/// (see `NUMBER_BITS`): a write torn by another thread reads as a miss, never as another
/// position's numbers. An all-zero slot is empty: real data is never zero (phi and delta are
/// never both 0) and real tags have the top bit set. Four slots make a bucket of one cache line,
/// so a probe costs one memory access, and the search prefetches the buckets of all children of
/// a position before it reads any (their latencies overlap). The memory is zeroed huge-page
/// memory the kernel hands out page by page on first touch, and the table uses a part of it
/// that doubles as it fills ([`Growth`]), so a large table costs what is stored in it.
pub struct ProofTable {
    /// The slots, [`WAYS`] a bucket.
    slots: HugeArray<Slot>,
    /// How many buckets are in use (see [`crate::util::growth`]).
    growth: Growth,
}

/// Buckets in use at first: 2 MiB, one huge page.
const START_BUCKETS: usize = (2 << 20) / (16 * WAYS);

/// The mixed hash of a tag: its low bits pick the bucket, its top bits sample inserts.
#[inline(always)]
fn mix(tag: u64) -> u64 {
    tag.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl ProofTable {
    /// A table of at most `bytes` bytes (rounded down to a power of two of buckets).
    pub fn new(bytes: usize) -> Self {
        let growth = Growth::new(bytes / (16 * WAYS), START_BUCKETS, WAYS);
        ProofTable {
            slots: HugeArray::zeroed_on_largest_pages(WAYS * growth.max_buckets())
                .expect("cannot map memory for the table"),
            growth,
        }
    }

    /// Bytes reserved (the table grows into them as it fills).
    pub fn bytes(&self) -> usize {
        self.slots.bytes()
    }

    /// Bytes in use now.
    pub fn active_bytes(&self) -> usize {
        self.growth.active_buckets() * WAYS * 16
    }

    /// Whether the table is on 1 GiB pages (see [`crate::util::huge_pages`]).
    pub fn on_gigantic_pages(&self) -> bool {
        self.slots.on_gigantic_pages()
    }

    /// The slots in use now.
    #[inline]
    fn active_slots(&self) -> &[Slot] {
        &self.slots()[..self.growth.active_buckets() * WAYS]
    }

    #[inline]
    fn slots(&self) -> &[Slot] {
        self.slots.as_slice()
    }

    /// The first slot of `tag`'s bucket.
    #[inline]
    fn bucket(&self, tag: u64) -> usize {
        self.bucket_of_mixed(mix(tag))
    }

    /// The first slot of the bucket of a tag whose mixed hash is `h`.
    #[inline]
    fn bucket_of_mixed(&self, h: u64) -> usize {
        self.growth.bucket(h >> 16) * WAYS
    }

    /// Asks the processor to start loading `tag`'s bucket (a hint: several loads in flight
    /// overlap, one probe after another does not).
    #[inline]
    pub fn prefetch(&self, tag: u64) {
        prefetch(&self.slots()[self.bucket(tag)]);
    }

    /// The numbers stored for `tag`, if any.
    #[inline]
    pub fn probe(&self, tag: u64) -> Option<(u32, u32)> {
        let b = self.bucket(tag);
        self.slots()[b..b + WAYS].iter().find_map(|s| {
            s.get(tag).map(|data| {
                let (phi, delta, _) = Self::decode(data);
                (phi, delta)
            })
        })
    }

    /// An entry's data word as phi, delta and about how much work was spent on it (a power of
    /// two, 0 if none was recorded): for readers of [`ProofTable::entries`], such as a report
    /// of where a saved search stood.
    #[inline]
    pub fn decode(data: u64) -> (u32, u32, u64) {
        let log = data >> WORK_SHIFT;
        (
            (data & NUMBER_MASK) as u32,
            ((data >> NUMBER_BITS) & NUMBER_MASK) as u32,
            if log == 0 { 0 } else { 1 << (log - 1) },
        )
    }

    /// About how much work was spent on `tag` so far (as stored: a power of two), 0 if none.
    #[inline]
    pub fn work(&self, tag: u64) -> u64 {
        let b = self.bucket(tag);
        self.slots()[b..b + WAYS]
            .iter()
            .find_map(|s| s.get(tag))
            .map_or(0, |data| Self::decode(data).2)
    }

    /// Stores the numbers of `tag` (each at most [`INFINITE`]); `work` (nodes spent) decides
    /// what a full bucket drops, settled or not. Which entries a full table keeps changes only
    /// what is searched again, never an answer: a dropped entry is a miss, and the position is
    /// evaluated afresh.
    #[inline]
    pub fn store(&self, tag: u64, phi: u32, delta: u32, work: u64) {
        debug_assert!(phi <= INFINITE && delta <= INFINITE);
        // A settled entry weighs what it cost, like an open one: weighed more, every leaf a
        // forcing-win test settled would stay for good and a full table would drop the open
        // positions df-pn keeps coming back to instead. An expensive result keeps its weight
        // (and its place in the position store); a cheap one is one evaluation to find again.
        let log_work = (u64::BITS - work.leading_zeros()).min(63) as u64;
        let data = phi as u64 | (delta as u64) << NUMBER_BITS | log_work << WORK_SHIFT;
        let h = mix(tag);
        let b = self.bucket_of_mixed(h);
        let bucket = &self.slots()[b..b + WAYS];
        // the entry itself, else an empty slot, else the one with the least work
        let slot = (0..WAYS)
            .find(|&i| bucket[i].load().0 == tag)
            .unwrap_or_else(|| {
                (0..WAYS)
                    .min_by_key(|&i| {
                        let d = bucket[i].data();
                        (d != 0, d >> WORK_SHIFT)
                    })
                    .unwrap_or(0)
            });
        let was_empty = bucket[slot].data() == 0;
        bucket[slot].store(tag, data);
        if was_empty && self.growth.inserted(h) {
            self.growth.grow(|old| self.split(old));
        }
    }

    /// Moves the entries of buckets `0..old` whose index is now `b + old` there (see
    /// [`Growth::grow`]; other threads may store meanwhile: an entry may be lost, never
    /// misread).
    fn split(&self, old: usize) {
        let slots = self.slots();
        for b in 0..old {
            for i in b * WAYS..(b + 1) * WAYS {
                let (tag, data) = slots[i].load();
                if data == 0 || self.bucket(tag) != (b + old) * WAYS {
                    continue;
                }
                let target = &slots[(b + old) * WAYS..(b + old + 1) * WAYS];
                if let Some(free) = target.iter().find(|s| s.data() == 0) {
                    free.store(tag, data);
                }
                slots[i].clear();
            }
        }
    }

    /// Every entry, as `[tag, data]` words, for a snapshot a resumed search starts from (see
    /// [`crate::store::checkpoint`]). Other threads may write meanwhile: a torn slot gives a tag
    /// nobody asks for (as a hash collision would, with the same odds).
    pub fn entries(&self) -> impl Iterator<Item = [u64; 2]> + '_ {
        self.active_slots().iter().filter_map(|slot| {
            let (tag, data) = slot.load();
            is_entry(tag, data).then_some([tag, data])
        })
    }

    /// Puts back entries of [`ProofTable::entries`] (saved by an earlier process); words that are
    /// not an entry are skipped. Returns how many were taken.
    pub fn preload(&self, entries: impl IntoIterator<Item = [u64; 2]>) -> usize {
        let mut taken = 0;
        for [tag, data] in entries {
            if is_entry(tag, data) {
                // the work as stored (a power of two, or 0), which `store` keeps unchanged
                let (phi, delta, work) = Self::decode(data);
                self.store(tag, phi, delta, work);
                taken += 1;
            }
        }
        taken
    }

    /// The share of the reserved slots in use, estimated from 4096 buckets spread over the part
    /// in use.
    pub fn fill(&self) -> f64 {
        let buckets = self.growth.active_buckets();
        let step = (buckets / 4096).max(1);
        let (mut used, mut seen) = (0usize, 0usize);
        for b in (0..buckets).step_by(step) {
            let bucket = &self.slots()[b * WAYS..(b + 1) * WAYS];
            used += bucket.iter().filter(|s| s.data() != 0).count();
            seen += WAYS;
        }
        used as f64 / seen as f64 * buckets as f64 / self.growth.max_buckets() as f64
    }

    /// Forgets everything (the size in use stays).
    pub fn clear(&mut self) {
        for s in self.active_slots() {
            s.clear();
        }
        self.growth.cleared();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distinct real tags, spread over the buckets.
    fn tag(i: u64) -> u64 {
        i.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1 << 63
    }

    /// A full bucket gives up its entry with the least work, whether settled or open: a cheaply
    /// settled position goes before open ones that cost more, and an expensive settled one stays.
    #[test]
    fn a_full_bucket_drops_its_cheapest_entry_settled_or_not() {
        // the smallest table never grows, so the bucket stays where it is
        let t = ProofTable::new(START_BUCKETS * WAYS * 16);
        let b = t.bucket(tag(0));
        let same: Vec<u64> = (0..)
            .map(tag)
            .filter(|&x| t.bucket(x) == b)
            .take(WAYS + 2)
            .collect();
        let (cheap_settled, costly_settled, open) = (same[0], same[1], &same[2..WAYS]);
        t.store(cheap_settled, 0, INFINITE, 1);
        t.store(costly_settled, INFINITE, 0, 1 << 12);
        for &x in open {
            t.store(x, 3, 4, 100);
        }
        t.store(same[WAYS], 5, 6, 0);
        assert_eq!(
            t.probe(cheap_settled),
            None,
            "the cheapest entry, though settled"
        );
        assert_eq!(t.probe(costly_settled), Some((INFINITE, 0)));
        for &x in open {
            assert_eq!(t.probe(x), Some((3, 4)));
        }
        assert_eq!(t.probe(same[WAYS]), Some((5, 6)), "the new entry is stored");
        // the next new entry replaces the cheapest again: the one just stored
        t.store(same[WAYS + 1], 7, 8, 0);
        assert_eq!(t.probe(same[WAYS]), None);
        assert_eq!(t.probe(costly_settled), Some((INFINITE, 0)));
        // a snapshot put back into another table keeps every entry's words, work included
        let again = ProofTable::new(START_BUCKETS * WAYS * 16);
        assert_eq!(again.preload(t.entries()), WAYS);
        let words = |t: &ProofTable| {
            let mut w: Vec<[u64; 2]> = t.entries().collect();
            w.sort_unstable();
            w
        };
        assert_eq!(words(&again), words(&t));
    }

    /// The table starts small, grows as it fills, and what it answers is always what was stored
    /// for that tag, through doublings and with two threads storing at once.
    #[test]
    fn grows_with_its_contents_and_never_misreads() {
        let t = ProofTable::new(64 << 20);
        assert_eq!(t.active_bytes(), START_BUCKETS * WAYS * 16);
        let numbers = |i: u64| ((i % 1000 + 1) as u32, (i % 777 + 1) as u32);
        std::thread::scope(|s| {
            for part in 0..2u64 {
                let t = &t;
                s.spawn(move || {
                    for i in (part..400_000).step_by(2) {
                        let (p, d) = numbers(i);
                        t.store(tag(i), p, d, i % 100);
                        if let Some(got) = t.probe(tag(i / 2)) {
                            assert_eq!(got, numbers(i / 2));
                        }
                    }
                });
            }
        });
        assert!(t.active_bytes() > START_BUCKETS * WAYS * 16, "grew");
        let found = (0..400_000u64)
            .filter(|&i| t.probe(tag(i)) == Some(numbers(i)))
            .count();
        assert!(found > 200_000, "{found} kept");
        // a doubling moves entries and drops none
        // (slots misplaced by a doubling during the threads' stores are skipped: never found)
        let before: Vec<[u64; 2]> = t
            .entries()
            .filter(|&[tag, _]| t.probe(tag).is_some())
            .collect();
        let size = t.active_bytes();
        t.growth.grow(|old| t.split(old));
        assert_eq!(t.active_bytes(), 2 * size);
        for [tag, data] in before {
            let phi = (data & NUMBER_MASK) as u32;
            let delta = ((data >> NUMBER_BITS) & NUMBER_MASK) as u32;
            assert_eq!(t.probe(tag), Some((phi, delta)));
        }
    }
}
