//! Zeroed arrays in anonymous memory that asks the kernel for 2 MiB pages: the memory of every
//! table probed at random (the search's transposition and proof tables, the store's Bloom
//! filters and fences).
//!
//! With 4 KiB pages nearly every random probe into a table of hundreds of megabytes also misses
//! the TLB, and on a virtual machine (nested page tables) the page walk costs more than the
//! cache miss itself. The pages arrive lazily and already zeroed by the kernel, so a large table
//! costs nothing until touched and needs no clearing pass. The advice is only a hint; without
//! transparent huge pages (or off Linux) everything works the same, only slower.

use memmap2::MmapMut;
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
    _owns: PhantomData<T>,
}

// SAFETY: the array owns its elements like a `Vec<T>`; the raw pointer only points into the
// mapping it owns.
unsafe impl<T: Zeroed + Send> Send for HugeArray<T> {}
// SAFETY: as above: shared access hands out only `&[T]`.
unsafe impl<T: Zeroed + Sync> Sync for HugeArray<T> {}

/// Zeroed `u64` words: the store's resident filters and fences.
pub type HugeWords = HugeArray<u64>;

impl<T: Zeroed> HugeArray<T> {
    /// `len` zeroed elements.
    pub fn zeroed(len: usize) -> io::Result<Self> {
        let bytes = len * std::mem::size_of::<T>();
        if bytes == 0 {
            return Ok(HugeArray {
                _map: None,
                ptr: NonNull::dangling(),
                len,
                _owns: PhantomData,
            });
        }
        let mut map = MmapMut::map_anon(bytes)?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage); // a hint; failure only costs speed
        let ptr = NonNull::new(map.as_mut_ptr().cast::<T>()).expect("a mapping is not null");
        Ok(HugeArray {
            _map: Some(map),
            ptr,
            len,
            _owns: PhantomData,
        })
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
mod tests {
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
    }
}
