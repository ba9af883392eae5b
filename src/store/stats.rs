//! Counters of the disk layer.

use super::layers::Store;
use std::sync::atomic::Ordering;

/// Counters of the disk layer, for progress lines and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreStats {
    /// Runs on disk now.
    pub runs: u64,
    /// Entries in those runs.
    pub entries: u64,
    /// Probes answered (at least partly) by the disk layer.
    pub disk_hits: u64,
    /// Entries written by flushes (before merging).
    pub flushed: u64,
    /// Merges performed.
    pub merges: u64,
    /// Contradicting values met and dropped (stores that keep first values: seed 003's keys).
    pub conflicts: u64,
}

impl Store {
    /// Counters of the disk layer.
    pub fn stats(&self) -> StoreStats {
        let Some(d) = &self.disk else {
            return StoreStats::default();
        };
        let runs = d.runs.read().expect("store lock poisoned");
        StoreStats {
            runs: runs.len() as u64,
            entries: runs.iter().map(|r| r.len()).sum(),
            disk_hits: d.hits.load(Ordering::Relaxed),
            flushed: d.flushed.load(Ordering::Relaxed),
            merges: d.merges.load(Ordering::Relaxed),
            conflicts: d.conflicts.load(Ordering::Relaxed),
        }
    }
}
