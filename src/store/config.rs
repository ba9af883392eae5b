//! Tuning of a store.

use std::time::Duration;

/// Tuning of a store. The defaults suit a long Connect Four solve.
#[derive(Clone, Debug)]
pub struct StoreConfig {
    /// Bytes for the in-memory table.
    pub mem_bytes: usize,
    /// A result goes to disk only if proving it took at least this many nodes: cheap results
    /// are faster to recompute than to store.
    pub min_work: u64,
    /// Flush the write buffer into a run when it holds this many entries...
    pub buffer_entries: usize,
    /// ...or when this long has passed since the last flush (bounds the work a kill can lose).
    pub flush_every: Duration,
    /// Merge when there are more runs than this.
    pub max_runs: usize,
    /// How many of the smallest runs one merge combines.
    pub merge_width: usize,
    /// Merge on a background thread, so that the search does not wait for it. A merge still
    /// runs synchronously when runs pile up past four times `max_runs` (back-pressure).
    pub background_merge: bool,
    /// Keep the first value of a key and count a contradicting later one, instead of failing.
    /// For seed 003's keys only: there two positions of different values share a key by
    /// design (the unsoundness being measured), and the seed's store kept whatever came
    /// first. With sound keys a contradiction is a bug (or a 62-bit hash collision) and stops
    /// the writes.
    pub keep_first_on_conflict: bool,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            mem_bytes: 1 << 30,
            min_work: 64,
            buffer_entries: 4 << 20,
            flush_every: Duration::from_secs(5),
            max_runs: 8,
            merge_width: 4,
            background_merge: true,
            keep_first_on_conflict: false,
        }
    }
}
