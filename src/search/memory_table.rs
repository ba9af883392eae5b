//! The in-memory transposition table: a lock-free [`Table`] in huge-page memory that grows with
//! what it holds.

use super::transposition::{Bounds, Table};
use crate::game::Key;
use crate::util::growth::Growth;
use crate::util::huge_pages::HugeArray;
use crate::util::prefetch::prefetch;
use crate::util::slot::Slot;
use std::sync::atomic::{AtomicU64, Ordering};

/// Lock-free in-memory table that grows with its contents up to its size (see
/// [`crate::util::growth`]): buckets of two slots, one kept by work (the most
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
    /// How many buckets are in use (see [`crate::util::growth`]).
    growth: Growth,
    /// Entries of another generation read as empty: [`Table::clear`] is O(1) except once every
    /// 255 generations, which keeps batch solving (a clear per position) cheap.
    generation: AtomicU64,
}

/// Buckets in use at first: 2 MiB, one huge page.
const START_BUCKETS: usize = (2 << 20) / 32;

/// The mixed hash of a key (multiplicative, so that structured keys spread over the buckets):
/// bits from 20 up pick the bucket, the top bits sample inserts.
#[inline(always)]
fn mix(key: Key) -> u64 {
    key.get().wrapping_mul(0x9E37_79B9_7F4A_7C15)
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
        let growth = Growth::new(bytes / 32, START_BUCKETS, 2);
        MemoryTable {
            slots: HugeArray::zeroed(growth.max_buckets() * 2)
                .expect("cannot map memory for the table"),
            growth,
            generation: AtomicU64::new(1),
        }
    }

    /// Moves a table that holds nothing yet onto 1 GiB pages, where the machine's pool has
    /// room for it (see [`crate::util::huge_pages`]); returns whether it is on them now.
    ///
    /// Why a move rather than a constructor: a proof search's tables share one scarce pool,
    /// and its proof table must get it first (it is what a long solve waits on most), yet the
    /// position store builds its memory layer before the proof table's size is known. So the
    /// memory layer starts on 2 MiB pages and moves once the proof table has been placed. A
    /// table holding entries stays where it is: the store's memory layer may hold facts not
    /// yet written to disk, and a move must lose nothing.
    pub fn onto_largest_pages(&mut self) -> bool {
        if self.slots.on_gigantic_pages() {
            return true;
        }
        if self.holds_anything() {
            return false;
        }
        match HugeArray::zeroed_on_largest_pages(self.slots.len()) {
            Ok(slots) if slots.on_gigantic_pages() => {
                self.slots = slots;
                true
            }
            _ => false,
        }
    }

    /// Whether any slot holds an entry, of any generation (only the buckets in use can: the
    /// others have never been written).
    fn holds_anything(&self) -> bool {
        let active = 2 * self.growth.active_buckets();
        self.slots()[..active].iter().any(|s| s.data() != 0)
    }

    /// Whether the table is on 1 GiB pages (see [`MemoryTable::onto_largest_pages`]).
    pub fn on_gigantic_pages(&self) -> bool {
        self.slots.on_gigantic_pages()
    }

    /// The slots.
    #[inline]
    fn slots(&self) -> &[Slot] {
        self.slots.as_slice()
    }

    /// Touches every page now, so that timed work afterwards does not pay first-touch page faults
    /// (used by batch solving and benchmarks, where positions are timed one by one).
    pub fn prefault(&self) {
        self.growth.grow_to_max(|old| self.split(old));
        for s in self.slots().iter().step_by(256) {
            if s.data() == 0 {
                s.clear();
            }
        }
    }

    /// Bytes reserved (the table grows into them as it fills).
    pub fn bytes(&self) -> usize {
        self.slots.bytes()
    }

    /// Bytes in use now.
    pub fn active_bytes(&self) -> usize {
        self.growth.active_buckets() * 32
    }

    /// Moves the entries of buckets `0..old` whose index is now `b + old` there, each into the
    /// same slot of its new bucket (see [`Growth::grow`]; other threads may store meanwhile: an
    /// entry may be lost, never misread).
    fn split(&self, old: usize) {
        let slots = self.slots();
        for b in 0..old {
            for way in 0..2 {
                let (k, d) = slots[2 * b + way].load();
                if d == 0 || self.bucket(Key::from_hash_low_bits(k)) != 2 * (b + old) {
                    continue;
                }
                slots[2 * (b + old) + way].store(k, d);
                slots[2 * b + way].clear();
            }
        }
    }

    /// The first slot of `key`'s bucket.
    #[inline]
    fn bucket(&self, key: Key) -> usize {
        self.bucket_of_mixed(mix(key))
    }

    /// The first slot of the bucket of a key whose mixed hash is `h`.
    #[inline]
    fn bucket_of_mixed(&self, h: u64) -> usize {
        self.growth.bucket(h >> 20) * 2
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
        let h = mix(key);
        let b = self.bucket_of_mixed(h);
        let raw = key.get(); // what a slot holds
        let d = pack(bounds, work, self.current_generation());
        let new_work = (d >> 23) & 63;
        let slots = self.slots();
        let grows = |old: u64| !self.live(old) && self.growth.inserted(h);
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
            let displaced = old_live && k0 != raw;
            let filled = if displaced {
                let d1 = slots[b + 1].data();
                slots[b + 1].store(k0, d0);
                grows(d1)
            } else {
                grows(d0)
            };
            slots[b].store(raw, d);
            if filled {
                self.growth.grow(|old| self.split(old));
            }
        } else {
            let d1 = slots[b + 1].data();
            slots[b + 1].store(raw, d);
            if grows(d1) {
                self.growth.grow(|old| self.split(old));
            }
        }
    }

    fn clear(&self) {
        let next = self.current_generation() + 1;
        self.growth.cleared();
        if next > 255 {
            for s in &self.slots()[..self.growth.active_buckets() * 2] {
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

    /// An empty table moves onto 1 GiB pages where the pool has room (never in CI, which has
    /// none) and works the same after; a table holding an entry, even one of a cleared
    /// generation, never moves and keeps it.
    #[test]
    fn only_an_empty_table_moves_onto_1_gib_pages() {
        let b = Bounds {
            lower: 0,
            upper: 2,
            best: Some(1),
        };
        let mut empty = MemoryTable::with_bytes(1 << 30);
        assert!(!empty.holds_anything());
        let moved = empty.onto_largest_pages();
        assert_eq!(moved, empty.on_gigantic_pages());
        // what the kernel did, not the table's own flag
        #[cfg(target_os = "linux")]
        {
            let at = empty.slots().as_ptr() as usize;
            let kib = crate::util::huge_pages::tests::kernel_page_kib(at);
            assert_eq!(moved, kib == 1 << 20, "{kib} KiB pages");
        }
        assert_eq!(empty.bytes(), 1 << 30);
        empty.store(Key::new(7), b, 100);
        assert_eq!(empty.probe(Key::new(7)), Some(b));

        let mut holding = MemoryTable::with_bytes(1 << 30);
        holding.store(Key::new(9), b, 100);
        assert!(holding.holds_anything());
        assert!(!holding.onto_largest_pages());
        assert!(!holding.on_gigantic_pages());
        assert_eq!(holding.probe(Key::new(9)), Some(b));

        let mut cleared = MemoryTable::with_bytes(64);
        cleared.store(Key::new(3), b, 100);
        cleared.clear();
        assert!(cleared.holds_anything());
        assert!(!cleared.onto_largest_pages());
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

    /// The table starts small, grows as it fills, and entries stored before a doubling are
    /// still found after it (moved, not dropped); threads storing while it grows never read
    /// another key's bounds.
    #[test]
    fn grows_with_its_contents_and_keeps_entries() {
        let t = MemoryTable::with_bytes(64 << 20);
        assert_eq!(t.active_bytes(), START_BUCKETS * 32);
        let bounds = |raw: u64| Bounds {
            lower: -((raw % 50) as i8),
            upper: (raw % 60) as i8,
            best: Some((raw % 64) as u8),
        };
        let n = 200_000u64;
        for raw in 0..n {
            t.store(Key::new(raw * 7919), bounds(raw), 1);
        }
        assert!(t.active_bytes() > START_BUCKETS * 32, "grew");
        assert!(t.active_bytes() <= t.bytes());
        // a doubling moves entries and drops none
        let found = |t: &MemoryTable| -> Vec<u64> {
            (0..n)
                .filter(|&raw| t.probe(Key::new(raw * 7919)) == Some(bounds(raw)))
                .collect()
        };
        let before = found(&t);
        assert!(before.len() as u64 > n / 2, "{} of {n} kept", before.len());
        let size = t.active_bytes();
        t.growth.grow(|old| t.split(old));
        assert_eq!(t.active_bytes(), 2 * size);
        assert_eq!(found(&t), before);
        let shared = MemoryTable::with_bytes(64 << 20);
        std::thread::scope(|s| {
            for part in 0..2u64 {
                let shared = &shared;
                s.spawn(move || {
                    for raw in (part..2 * n).step_by(2) {
                        shared.store(Key::new(raw), bounds(raw), raw % 7);
                        let back = raw / 2;
                        if let Some(b) = shared.probe(Key::new(back)) {
                            assert_eq!(b, bounds(back), "key {back}");
                        }
                    }
                });
            }
        });
        assert!(shared.active_bytes() > START_BUCKETS * 32);
    }
}
