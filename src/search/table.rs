//! The transposition-table interface the search talks to, and its in-memory implementation.
//!
//! The search never assumes more than this trait: "remember bounds on the score of a key, and
//! the move that proved them". That lets the position store (`crate::store`) take the table's
//! place without the search changing.

use std::sync::atomic::{AtomicU64, Ordering};

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
    fn probe(&self, key: u64) -> Option<Bounds>;
    /// Records bounds proven for `key`; `work` (nodes spent proving them) guides replacement.
    /// A table may drop any entry it likes; it must never keep a wrong one.
    fn store(&self, key: u64, bounds: Bounds, work: u64);
    /// Forgets everything (used between independent benchmark positions).
    fn clear(&self);
    /// Hints that `key` will be probed soon, so its memory can be fetched while other work goes
    /// on (several prefetches overlap; one probe after another does not).
    #[inline]
    fn prefetch(&self, _key: u64) {}
}

/// Asks the processor to start loading the cache line of `item` (a hint: several loads in
/// flight overlap, one probe after another does not). A no-op off x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint and never faults; the pointer comes from a reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch(
            (item as *const T).cast::<i8>(),
            std::arch::x86_64::_MM_HINT_T0,
        )
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// A zeroed anonymous mapping of `bytes` bytes for a table read at random: its pages arrive
/// lazily (the kernel zeroes them, so no clearing pass) and, on Linux, as transparent huge pages
/// when the system allows them on request (`madvise` mode), which spares a TLB miss on almost
/// every probe of a table of gigabytes.
pub(crate) fn huge_zeroed(bytes: usize) -> memmap2::MmapMut {
    let map = memmap2::MmapMut::map_anon(bytes.max(1)).expect("cannot map memory for the table");
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage); // a hint; failure only costs speed
    map
}

/// Fixed-size, lock-free in-memory table: buckets of two slots, one kept by work (the most
/// expensive entry survives) and one always replaced (Fhourstones' two-slot bucket).
///
/// Each slot is two words: `key ^ data` and `data`. A reader accepts a slot only when the two
/// words agree with the key it asked for, so a torn write by another thread is read as a miss,
/// never as a wrong entry (Hyatt's lock-less hashing). Keys are stored in full: no collision can
/// return another position's bounds.
pub struct MemoryTable {
    /// Anonymous zeroed mapping holding the slots; pages arrive lazily and, on Linux, as
    /// transparent huge pages (a 1 GiB table would otherwise cost 262,144 page faults and as many
    /// TLB misses).
    map: memmap2::MmapMut,
    len: usize,
    bucket_mask: usize,
    /// Entries of another generation read as empty: [`Table::clear`] is O(1) except once every
    /// 255 generations, which keeps batch solving (a clear per position) cheap.
    generation: AtomicU64,
}

/// data layout: bits 0..8 lower+128, 8..16 upper+128, 16..23 best (127 = none), 23..29 work log2,
/// 32..40 generation (1..=255), bit 63 set so that an empty slot (0, 0) never validates.
const VALID: u64 = 1 << 63;
const GEN_SHIFT: u32 = 32;
const GEN_MASK: u64 = 0xff << GEN_SHIFT;

fn pack(b: Bounds, work: u64, generation: u64) -> u64 {
    let w = (64 - work.leading_zeros()).min(63) as u64;
    let best = b.best.map(|c| c as u64).unwrap_or(127);
    VALID
        | ((b.lower as i32 + 128) as u64)
        | (((b.upper as i32 + 128) as u64) << 8)
        | (best << 16)
        | (w << 23)
        | (generation << GEN_SHIFT)
}

fn unpack(d: u64) -> (Bounds, u64) {
    let lower = ((d & 0xff) as i32 - 128) as i8;
    let upper = (((d >> 8) & 0xff) as i32 - 128) as i8;
    let best = ((d >> 16) & 127) as u8;
    let work = (d >> 23) & 63;
    (
        Bounds {
            lower,
            upper,
            best: if best == 127 { None } else { Some(best) },
        },
        work,
    )
}

impl MemoryTable {
    /// A table using about `bytes` of memory (rounded down to a power of two of buckets, each
    /// bucket 32 bytes; at least one bucket).
    pub fn with_bytes(bytes: usize) -> Self {
        let buckets = (bytes / 32).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let len = buckets * 4;
        let map = huge_zeroed(len * 8);
        MemoryTable {
            map,
            len,
            bucket_mask: buckets - 1,
            generation: AtomicU64::new(1),
        }
    }

    /// The slots as atomics.
    #[inline]
    fn slots(&self) -> &[AtomicU64] {
        // SAFETY: the mapping is page-aligned (so aligned for u64), `len * 8` bytes long, zeroed
        // by the kernel (a valid AtomicU64 bit pattern), lives as long as `self`, and is only ever
        // accessed through these atomics, which allow shared mutation.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<AtomicU64>(), self.len) }
    }

    /// Touches every page now, so that timed work afterwards does not pay first-touch page faults
    /// (used by batch solving and benchmarks, where positions are timed one by one).
    pub fn prefault(&self) {
        for s in self.slots().iter().step_by(512) {
            s.store(0, Ordering::Relaxed);
        }
    }

    /// Bytes actually allocated.
    pub fn bytes(&self) -> usize {
        self.len * 8
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // multiplicative mixing so that structured keys spread over the buckets
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h >> 20) as usize & self.bucket_mask) * 4
    }

    #[inline]
    fn current_generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed)
    }

    /// Whether slot data belongs to the live generation.
    #[inline]
    fn live(&self, d: u64) -> bool {
        d & VALID != 0 && (d & GEN_MASK) >> GEN_SHIFT == self.current_generation()
    }

    #[inline]
    fn read(&self, i: usize, key: u64) -> Option<(Bounds, u64)> {
        let k = self.slots()[i].load(Ordering::Relaxed);
        let d = self.slots()[i + 1].load(Ordering::Relaxed);
        if self.live(d) && k ^ d == key {
            Some(unpack(d))
        } else {
            None
        }
    }

    #[inline]
    fn write(&self, i: usize, key: u64, d: u64) {
        self.slots()[i].store(key ^ d, Ordering::Relaxed);
        self.slots()[i + 1].store(d, Ordering::Relaxed);
    }
}

impl Table for MemoryTable {
    #[inline]
    fn probe(&self, key: u64) -> Option<Bounds> {
        let b = self.bucket(key);
        self.read(b, key)
            .or_else(|| self.read(b + 2, key))
            .map(|(x, _)| x)
    }

    #[inline]
    fn prefetch(&self, key: u64) {
        prefetch(&self.slots()[self.bucket(key)]);
    }

    #[inline]
    fn store(&self, key: u64, bounds: Bounds, work: u64) {
        let b = self.bucket(key);
        let d = pack(bounds, work, self.current_generation());
        let new_work = (d >> 23) & 63;
        // same key in the work slot: update it there
        if self.read(b, key).is_some() {
            self.write(b, key, d);
            return;
        }
        let d0 = self.slots()[b + 1].load(Ordering::Relaxed);
        let old_live = self.live(d0);
        let old_work = if old_live { (d0 >> 23) & 63 } else { 0 };
        if !old_live || new_work >= old_work {
            // the displaced expensive entry moves to the always-replace slot
            if old_live {
                let k0 = self.slots()[b].load(Ordering::Relaxed) ^ d0;
                if k0 != key {
                    self.write(b + 2, k0, d0);
                }
            }
            self.write(b, key, d);
        } else {
            self.write(b + 2, key, d);
        }
    }

    fn clear(&self) {
        let next = self.current_generation() + 1;
        if next > 255 {
            for s in self.slots() {
                s.store(0, Ordering::Relaxed);
            }
            self.generation.store(1, Ordering::Relaxed);
        } else {
            self.generation.store(next, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips() {
        for lower in -64i8..=64 {
            for upper in [lower, 64] {
                for best in [None, Some(0u8), Some(63)] {
                    let b = Bounds { lower, upper, best };
                    assert_eq!(unpack(pack(b, 12345, 7)).0, b);
                }
            }
        }
    }

    #[test]
    fn stores_and_replaces_without_lying() {
        let t = MemoryTable::with_bytes(64); // two buckets
        let b = Bounds {
            lower: -1,
            upper: 3,
            best: Some(5),
        };
        for key in 0..1000u64 {
            t.store(key, b, key);
            if let Some(got) = t.probe(key) {
                assert_eq!(got, b);
            }
        }
        for key in 1000..2000u64 {
            assert_eq!(t.probe(key), None);
        }
        for _ in 0..300 {
            t.store(999, b, 1);
            t.clear();
            assert_eq!(t.probe(999), None);
        }
    }
}
