//! The in-memory transposition table: a fixed-size, lock-free [`Table`] in huge-page memory.

use super::transposition::{Bounds, Table};
use crate::game::Key;
use crate::util::huge_pages::HugeArray;
use crate::util::prefetch::prefetch;
use crate::util::slot::Slot;
use std::sync::atomic::{AtomicU64, Ordering};

/// Fixed-size, lock-free in-memory table: buckets of two slots, one kept by work (the most
/// expensive entry survives) and one always replaced (Fhourstones' two-slot bucket).
///
/// Each slot is a lock-less two-word [`Slot`] keyed by the full key: a torn write by another
/// thread reads as a miss, and no collision can return another position's bounds. A slot holds
/// the key's raw word ([`Key::get`]): the conversion happens only in `bucket`, `read` and
/// `store` below.
pub struct MemoryTable {
    /// The slots, two a bucket, in zeroed huge-page memory: pages arrive lazily, and a table of
    /// gigabytes does not pay a page fault and a TLB miss per 4 KiB.
    slots: HugeArray<Slot>,
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
        MemoryTable {
            slots: HugeArray::zeroed(buckets * 2).expect("cannot map memory for the table"),
            bucket_mask: buckets - 1,
            generation: AtomicU64::new(1),
        }
    }

    /// The slots.
    #[inline]
    fn slots(&self) -> &[Slot] {
        self.slots.as_slice()
    }

    /// Touches every page now, so that timed work afterwards does not pay first-touch page faults
    /// (used by batch solving and benchmarks, where positions are timed one by one).
    pub fn prefault(&self) {
        for s in self.slots().iter().step_by(256) {
            s.clear();
        }
    }

    /// Bytes actually allocated.
    pub fn bytes(&self) -> usize {
        self.slots.bytes()
    }

    /// The first slot of `key`'s bucket.
    #[inline]
    fn bucket(&self, key: Key) -> usize {
        // multiplicative mixing so that structured keys spread over the buckets
        let h = key.get().wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h >> 20) as usize & self.bucket_mask) * 2
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
    fn read(&self, i: usize, key: Key) -> Option<(Bounds, u64)> {
        let (k, d) = self.slots()[i].load();
        if self.live(d) && k == key.get() {
            Some(unpack(d))
        } else {
            None
        }
    }
}

impl Table for MemoryTable {
    #[inline]
    fn probe(&self, key: Key) -> Option<Bounds> {
        let b = self.bucket(key);
        self.read(b, key)
            .or_else(|| self.read(b + 1, key))
            .map(|(x, _)| x)
    }

    #[inline]
    fn prefetch(&self, key: Key) {
        prefetch(&self.slots()[self.bucket(key)]);
    }

    #[inline]
    fn store(&self, key: Key, bounds: Bounds, work: u64) {
        let b = self.bucket(key);
        let raw = key.get(); // what a slot holds
        let d = pack(bounds, work, self.current_generation());
        let new_work = (d >> 23) & 63;
        let slots = self.slots();
        // same key in the work slot: update it there
        if self.read(b, key).is_some() {
            slots[b].store(raw, d);
            return;
        }
        let (k0, d0) = slots[b].load();
        let old_live = self.live(d0);
        let old_work = if old_live { (d0 >> 23) & 63 } else { 0 };
        if !old_live || new_work >= old_work {
            // the displaced expensive entry moves to the always-replace slot
            if old_live && k0 != raw {
                slots[b + 1].store(k0, d0);
            }
            slots[b].store(raw, d);
        } else {
            slots[b + 1].store(raw, d);
        }
    }

    fn clear(&self) {
        let next = self.current_generation() + 1;
        if next > 255 {
            for s in self.slots() {
                s.clear();
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
        for raw in 0..1000u64 {
            t.store(Key::new(raw), b, raw);
            if let Some(got) = t.probe(Key::new(raw)) {
                assert_eq!(got, b);
            }
        }
        for raw in 1000..2000u64 {
            assert_eq!(t.probe(Key::new(raw)), None);
        }
        for _ in 0..300 {
            t.store(Key::new(999), b, 1);
            t.clear();
            assert_eq!(t.probe(Key::new(999)), None);
        }
    }
}
