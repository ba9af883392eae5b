//! Prefetching: the probes of a table read at random are cache misses, and several misses in
//! flight overlap where one probe after another does not.

/// Asks the processor to start loading the cache line of `item` (a hint: several loads in
/// flight overlap, one probe after another does not). A no-op off x86-64.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
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
