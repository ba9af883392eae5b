//! Zeroed arrays in anonymous memory that asks the kernel for 2 MiB pages: the memory of every
//! table probed at random (the search's transposition and proof tables, the store's Bloom
//! filters and fences).
//!
//! With 4 KiB pages nearly every random probe into a table of hundreds of megabytes also misses
//! the TLB, and on a virtual machine (nested page tables) the page walk costs more than the
//! cache miss itself. The pages arrive lazily and already zeroed by the kernel, so a large table
//! costs nothing until touched and needs no clearing pass. The advice is only a hint; without
//! transparent huge pages (or off Linux) everything works the same, only slower.
//!
//! An array asked for with [`HugeArray::zeroed_on_largest_pages`] goes on 1 GiB pages instead,
//! if it is whole gibibytes and the machine's administrator has reserved enough of them
//! (`/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages`): a table of gigabytes spans
//! thousands of 2 MiB pages, more than the TLB holds, so a long solve's random probes still miss
//! it, and a handful of 1 GiB pages covers the whole table. The kernel reserves such pages when
//! the mapping is made, so a pool too small for the array fails at once and the array falls back
//! to 2 MiB pages; once mapped, the pages are the array's, zeroed on first touch. Such a pool is
//! small where it exists at all (a gibibyte of contiguous free memory is rare on a machine that
//! has run for a while), so the table a long solve probes most asks for it first: the proof
//! search's, whose first probe of a position's children is where a long solve waits most
//! (README, "Why the defaults are what they are"). The proof search's endgame table (over a
//! position store, its memory layer) then takes what is left, if the pool holds it whole
//! (`MemoryTable::onto_largest_pages`): in a search deep in endgames its probes are the wait.

use memmap2::{MmapMut, MmapOptions};
use std::io;
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::AtomicU64;

/// Element types a [`HugeArray`] may hold.
///
/// # Safety
/// All-zero bytes must be a valid value of the type, and its alignment at most a page's.
pub unsafe trait Zeroed {}

// SAFETY: zero is a valid u64 and AtomicU64; both are 8-byte aligned.
unsafe impl Zeroed for u64 {}
// SAFETY: as above.
unsafe impl Zeroed for AtomicU64 {}
// SAFETY: a slot is two AtomicU64 (repr(C)); all zeros is its empty state.
unsafe impl Zeroed for super::slot::Slot {}

/// A fixed-length, zero-initialised array in huge-page memory (see the module documentation).
/// Types with interior mutability (atomics, [`super::slot::Slot`]) let threads share one
/// through `&self`.
pub struct HugeArray<T: Zeroed> {
    /// Keeps the mapping alive (`None` when empty).
    _map: Option<MmapMut>,
    /// The mapping's start (dangling when empty), kept so that a probe needs no branch.
    ptr: NonNull<T>,
    len: usize,
    /// Whether the mapping is on 1 GiB pages (see the module documentation).
    gigantic: bool,
    _owns: PhantomData<T>,
}

// SAFETY: the array owns its elements like a `Vec<T>`; the raw pointer only points into the
// mapping it owns.
unsafe impl<T: Zeroed + Send> Send for HugeArray<T> {}
// SAFETY: as above: shared access hands out only `&[T]`.
unsafe impl<T: Zeroed + Sync> Sync for HugeArray<T> {}

/// Zeroed `u64` words: the store's resident filters and fences.
pub type HugeWords = HugeArray<u64>;

/// log2 of the bytes of the largest page x86-64 offers (1 GiB).
const GIGANTIC_PAGE_BITS: u8 = 30;

/// A zeroed anonymous mapping of `bytes`: with `largest`, on 1 GiB pages where it is whole
/// gibibytes and the reserved pool has room for it (then `true`); on 2 MiB pages (a hint)
/// otherwise.
fn map_zeroed(bytes: usize, largest: bool) -> io::Result<(MmapMut, bool)> {
    #[cfg(not(target_os = "linux"))]
    let _ = largest; // no such pages to ask for
    #[cfg(target_os = "linux")]
    if largest && bytes % (1 << GIGANTIC_PAGE_BITS) == 0 {
        // fails at once (ENOMEM) unless the pool holds enough free pages: the kernel reserves
        // them with the mapping, so no later touch can find a page missing
        if let Ok(map) = MmapOptions::new()
            .len(bytes)
            .huge(Some(GIGANTIC_PAGE_BITS))
            .map_anon()
        {
            return Ok((map, true));
        }
    }
    let map = MmapOptions::new().len(bytes).map_anon()?;
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage); // a hint; failure only costs speed
    Ok((map, false))
}

impl<T: Zeroed> HugeArray<T> {
    /// `len` zeroed elements on 2 MiB pages.
    pub fn zeroed(len: usize) -> io::Result<Self> {
        Self::map(len, false)
    }

    /// `len` zeroed elements, on 1 GiB pages where the machine has them to spare (see the
    /// module documentation), else on 2 MiB pages.
    pub fn zeroed_on_largest_pages(len: usize) -> io::Result<Self> {
        Self::map(len, true)
    }

    fn map(len: usize, largest: bool) -> io::Result<Self> {
        let bytes = len * std::mem::size_of::<T>();
        if bytes == 0 {
            return Ok(HugeArray {
                _map: None,
                ptr: NonNull::dangling(),
                len,
                gigantic: false,
                _owns: PhantomData,
            });
        }
        let (mut map, gigantic) = map_zeroed(bytes, largest)?;
        let ptr = NonNull::new(map.as_mut_ptr().cast::<T>()).expect("a mapping is not null");
        Ok(HugeArray {
            _map: Some(map),
            ptr,
            len,
            gigantic,
            _owns: PhantomData,
        })
    }

    /// Whether the array is on 1 GiB pages (see the module documentation).
    pub fn on_gigantic_pages(&self) -> bool {
        self.gigantic
    }

    /// The elements.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: the mapping is page-aligned (so aligned for T), `len` elements long and was
        // zeroed by the kernel (a valid T: `Zeroed`); it lives as long as `self`. When empty,
        // the pointer is dangling but aligned, which a slice of length 0 allows.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The elements, writable.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`, and `&mut self` makes the borrow exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// Sets every element back to zero.
    pub fn zero(&mut self) {
        // SAFETY: `len` elements from `ptr` belong to the mapping, `&mut self` makes the access
        // exclusive, and zero is a valid T.
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) };
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::util::slot::Slot;

    #[test]
    fn arrays_start_zeroed_and_zero_again() {
        let mut w = HugeWords::zeroed(1 << 10).unwrap();
        assert!(w.as_slice().iter().all(|&x| x == 0));
        w.as_mut_slice()[7] = 9;
        assert_eq!(w.as_slice()[7], 9);
        w.zero();
        assert_eq!(w.as_slice()[7], 0);
        let s = HugeArray::<Slot>::zeroed(3).unwrap();
        s.as_slice()[2].store(5, 6);
        assert_eq!(s.as_slice()[2].get(5), Some(6));
        assert_eq!(s.bytes(), 48);
        let empty = HugeWords::zeroed(0).unwrap();
        assert!(empty.is_empty() && empty.as_slice().is_empty());
        assert!(!w.on_gigantic_pages() && !s.on_gigantic_pages());
    }

    /// The page size the kernel maps the address `at` with, in KiB, from /proc/self/smaps (also
    /// what other tables' tests check their own flag against).
    pub(crate) fn kernel_page_kib(at: usize) -> u64 {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            let range = line
                .split_whitespace()
                .next()
                .and_then(|r| r.split_once('-'));
            if let Some((a, b)) = range.filter(|_| !line.ends_with(" kB")) {
                let (a, b) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16));
                inside = matches!((a, b), (Ok(a), Ok(b)) if a <= at && at < b);
            } else if let Some(kib) = line.strip_prefix("KernelPageSize:").filter(|_| inside) {
                return kib.trim().trim_end_matches("kB").trim().parse().unwrap();
            }
        }
        panic!("{at:#x} is in no mapping")
    }

    /// The flag tells what the kernel did: 1 GiB pages only where asked for, for whole
    /// gibibytes, and where the machine's pool had them (never in CI, which has none); the
    /// array is zeroed and writable either way.
    #[test]
    #[cfg(target_os = "linux")]
    fn an_array_is_on_1_gib_pages_exactly_when_it_says_so() {
        let on_1_gib = |w: &HugeWords| kernel_page_kib(w.as_slice().as_ptr() as usize) == 1 << 20;
        let mut w = HugeWords::zeroed_on_largest_pages(1 << 27).unwrap(); // 1 GiB
        assert_eq!(w.on_gigantic_pages(), on_1_gib(&w));
        let last = w.len() - 1;
        assert_eq!((w.as_slice()[0], w.as_slice()[last]), (0, 0));
        w.as_mut_slice()[last] = 3;
        assert_eq!(w.as_slice()[last], 3);
        // not asked for, or not whole gibibytes: never on 1 GiB pages
        for other in [
            HugeWords::zeroed(1 << 27).unwrap(),
            HugeWords::zeroed_on_largest_pages((1 << 27) + 8).unwrap(),
        ] {
            assert!(!other.on_gigantic_pages() && !on_1_gib(&other));
        }
    }
}
