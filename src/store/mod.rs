//! The position store: what the search proved, kept in memory and on disk.
//!
//! Two layers behind one [`crate::search::Table`]:
//! - **memory**: a fixed-budget [`MemoryTable`](crate::search::MemoryTable) holding exact score
//!   bounds, replacement by work;
//! - **disk** (optional, one directory): every result worth keeping — an exact result or a proven
//!   bound whose search cost at least [`StoreConfig::min_work`] nodes — is reduced to the 2-bit
//!   values of [`entry`] (win, loss, at least / at most a draw) and appended to a buffer. When the
//!   buffer is full, or [`StoreConfig::flush_every`] has passed, it is sorted (rayon), normalised,
//!   checked against what is already on disk, and written as an immutable sorted *run*
//!   ([`run_file`]); when there are more than [`StoreConfig::max_runs`] runs the smallest are
//!   merged k-way ([`merge`]) into one. Writes are atomic, so a process killed at any moment leaves
//!   a directory that reopens with everything flushed before the kill.
//!
//! A probe asks memory first; unless memory knows the exact score, the runs are asked too (one
//! filter over all runs, then each run's Bloom filter, then binary search) and the two answers are
//! intersected. The proof search asks only about keys that filter passes (see `Settled for Store` in
//! [`layers`]). Contradictions — the disk
//! says win, the search proves a draw at most — are errors that are reported
//! ([`Store::error`]), never resolved by picking one.
//!
//! The directory records what it is for in `manifest.json` ([`Manifest`]): game, size or variant,
//! start position and hash seed. A directory made for another game or size is refused. Every byte
//! of every file is covered by a checksum (run header, run body, manifest), so a flipped byte is
//! refused with one line, never read as data. One process at a time writes a directory: opening a
//! store takes the directory's lock ([`lock`]).
//!
//! Where things are:
//!
//! | module | job |
//! |---|---|
//! | [`layers`] | [`Store`]: the two layers, probe and store, open, flush, compact |
//! | `disk` | the disk layer: write buffer, flushing into runs, the background merge thread |
//! | [`config`] / [`stats`] | [`StoreConfig`] (tuning) and [`StoreStats`] (counters) |
//! | [`manifest`] | `manifest.json` |
//! | [`files`] | run file names, listing, stale temporaries |
//! | [`lock`] | the directory's one-writer lock |
//! | [`error`] | [`StoreError`] |
//! | [`export`] | a store written in one go (the proof of one value taken out of a table, a pack), or a run added to one |
//! | [`run_file`] | one sorted run file: write, open, look up |
//! | [`header`] | a run file's 256-byte header (the crate's only bincode) |
//! | [`entry`] | the `u64` entry: key and 2-bit value |
//! | [`bloom`] | the blocked Bloom filter of a run |
//! | `all_runs_filter` | one blocked Bloom filter over the keys of all runs and the buffer, asked before the runs' own |
//! | [`merge`] | k-way merge and normalisation of sorted entries |
//! | [`resident`] | huge-page memory for a run's Bloom filter and fence |
//! | [`checkpoint`] | `search-state.zzs`: a proof search's open numbers, for resuming (not facts) |
//! | [`compare`] | `table compare`: do several stores' facts about the same keys agree? |
//! | [`check`] | `table check`: is every stored value justified by its children? (any game; Connect Four also decodes keys) |

mod all_runs_filter;
pub mod bloom;
pub mod check;
pub mod checkpoint;
pub mod compare;
pub mod config;
mod disk;
pub mod entry;
pub mod error;
pub mod export;
pub mod files;
pub mod header;
pub mod layers;
pub mod lock;
pub mod manifest;
pub mod merge;
pub mod resident;
pub mod run_file;
pub mod stats;

pub use config::StoreConfig;
pub use error::StoreError;
pub use files::run_files;
pub use layers::Store;
pub use manifest::{Manifest, MANIFEST, MANIFEST_FORMAT};
pub use stats::StoreStats;
