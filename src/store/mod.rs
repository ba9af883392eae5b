//! The position store: what the search proved, kept in memory and on disk.
//!
//! Two layers behind one [`crate::search::Table`]:
//! - **memory**: a fixed-budget [`MemoryTable`] holding exact score bounds, replacement by work;
//! - **disk** (optional, one directory): every result worth keeping — an exact result or a proven
//!   bound whose search cost at least [`StoreConfig::min_work`] nodes — is reduced to the 2-bit
//!   values of [`entry`] (win, loss, at least / at most a draw) and appended to a buffer. When the
//!   buffer is full, or [`StoreConfig::flush_every`] has passed, it is sorted (rayon), normalised,
//!   checked against what is already on disk, and written as an immutable sorted *run*
//!   ([`table`]); when there are more than [`StoreConfig::max_runs`] runs the smallest are merged
//!   k-way ([`merge`]) into one. Writes are atomic, so a process killed at any moment leaves a
//!   directory that reopens with everything flushed before the kill.
//!
//! A probe asks memory first; unless memory knows the exact score, the runs are asked too (Bloom
//! filter, then binary search) and the two answers are intersected. Contradictions — the disk
//! says win, the search proves a draw at most — are errors that are reported
//! ([`Store::error`]), never resolved by picking one.
//!
//! The directory records what it is for in `manifest.json` ([`Manifest`]): game, size or variant,
//! start position and hash seed. A directory made for another game or size is refused.

pub mod bloom;
pub mod check;
pub mod entry;
pub mod header;
pub mod merge;
pub mod resident;
pub mod table;

use crate::search::{Bounds, MemoryTable, Table};
use entry::{values_from_bounds, Entry, Knowledge};
use merge::{KMerge, Normalised};
use rayon::slice::ParallelSliceMut;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use table::{write_run, Identity, Run, RunError, Verify};

/// Name of the manifest file in a store directory.
pub const MANIFEST: &str = "manifest.json";
/// Version of the manifest format.
pub const MANIFEST_FORMAT: u32 = 1;

/// What a store directory is for, recorded in `DIR/manifest.json` when it is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Manifest format version.
    pub format: u32,
    /// Game name, e.g. `connect4`.
    pub game: String,
    /// Size or variant, e.g. `7x6`.
    pub variant: String,
    /// The position the table was built for, as the game's move string (`table check` walks from
    /// here). Later solves of other positions of the same game may add to the table.
    pub start: String,
    /// Seed of the key hash (0 where keys are exact).
    pub hash_seed: u64,
}

impl Manifest {
    /// A manifest of the current format.
    pub fn new(game: &str, variant: &str, start: &str, hash_seed: u64) -> Self {
        Manifest {
            format: MANIFEST_FORMAT,
            game: game.into(),
            variant: variant.into(),
            start: start.into(),
            hash_seed,
        }
    }

    /// The identity every run in the directory must carry.
    pub fn identity(&self) -> Identity {
        Identity {
            game: self.game.clone(),
            variant: self.variant.clone(),
            hash_seed: self.hash_seed,
        }
    }

    /// Reads `dir/manifest.json`; `Ok(None)` if there is none.
    pub fn read(dir: &Path) -> Result<Option<Manifest>, StoreError> {
        let path = dir.join(MANIFEST);
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(StoreError::Io(path, e.to_string())),
        };
        let m: Manifest = serde_json::from_str(&text)
            .map_err(|e| StoreError::Manifest(path.clone(), e.to_string()))?;
        if m.format > MANIFEST_FORMAT {
            return Err(StoreError::Manifest(
                path,
                format!(
                    "newer manifest format {} (this program reads up to {MANIFEST_FORMAT})",
                    m.format
                ),
            ));
        }
        Ok(Some(m))
    }

    /// Writes `dir/manifest.json` atomically.
    fn write(&self, dir: &Path) -> Result<(), StoreError> {
        let path = dir.join(MANIFEST);
        let tmp = dir.join(format!(".tmp-{}-{MANIFEST}", std::process::id()));
        let text = serde_json::to_string_pretty(self).expect("serialisable");
        let io = |e: std::io::Error| StoreError::Io(path.clone(), e.to_string());
        fs::write(&tmp, text + "\n").map_err(io)?;
        fs::File::open(&tmp)
            .and_then(|f| f.sync_all())
            .map_err(io)?;
        fs::rename(&tmp, &path).map_err(io)?;
        table::sync_dir(dir).map_err(StoreError::Run)
    }
}

/// A store failure, shown as one line naming the file or directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// A run file was refused or could not be written.
    Run(RunError),
    /// The path given as the store directory exists and is not a directory.
    NotADirectory(PathBuf),
    /// The directory was made for another game, size or hash seed.
    Foreign {
        /// The directory.
        dir: PathBuf,
        /// What its manifest says.
        found: String,
        /// What the caller wanted.
        expected: String,
    },
    /// The manifest is missing where it must exist, or unreadable.
    Manifest(PathBuf, String),
    /// Another I/O failure.
    Io(PathBuf, String),
    /// The search proved something that contradicts the stored table.
    Conflict(PathBuf, String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Run(e) => e.fmt(f),
            StoreError::NotADirectory(p) => {
                write!(f, "{}: exists and is not a directory", p.display())
            }
            StoreError::Foreign {
                dir,
                found,
                expected,
            } => write!(
                f,
                "{}: table made for {found}, not for {expected}",
                dir.display()
            ),
            StoreError::Manifest(p, why) => write!(f, "{}: bad manifest: {why}", p.display()),
            StoreError::Io(p, why) => write!(f, "{}: {why}", p.display()),
            StoreError::Conflict(p, why) => write!(f, "{}: conflicting values: {why}", p.display()),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<RunError> for StoreError {
    fn from(e: RunError) -> Self {
        StoreError::Run(e)
    }
}

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
        }
    }
}

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
}

/// The two-layer position store (see the module documentation).
pub struct Store {
    mem: MemoryTable,
    disk: Option<Arc<Disk>>,
}

struct Pending {
    buf: Vec<u64>,
    last_flush: Instant,
}

struct Disk {
    dir: PathBuf,
    id: Identity,
    cfg: StoreConfig,
    runs: RwLock<Vec<Arc<Run>>>,
    /// Whether `runs` is non-empty, readable without the lock: until the first flush every
    /// probe skips the disk layer for the price of one relaxed load.
    has_runs: AtomicBool,
    pending: Mutex<Pending>,
    next_seq: AtomicU64,
    failed: AtomicBool,
    error: Mutex<Option<StoreError>>,
    /// The background merge thread, if one was started and not yet joined.
    merger: Mutex<Option<std::thread::JoinHandle<()>>>,
    merging: AtomicBool,
    hits: AtomicU64,
    flushed: AtomicU64,
    merges: AtomicU64,
}

/// File name of run number `seq`.
fn run_name(seq: u64) -> String {
    format!("run-{seq:010}.zzr")
}

/// The sequence number of a run file name, if it is one.
fn run_seq(name: &str) -> Option<u64> {
    name.strip_prefix("run-")?
        .strip_suffix(".zzr")?
        .parse()
        .ok()
}

/// The run files of `dir`, in sequence order.
pub fn run_files(dir: &Path) -> Result<Vec<(u64, PathBuf)>, StoreError> {
    let rd = fs::read_dir(dir).map_err(|e| StoreError::Io(dir.to_path_buf(), e.to_string()))?;
    let mut out = Vec::new();
    for ent in rd {
        let ent = ent.map_err(|e| StoreError::Io(dir.to_path_buf(), e.to_string()))?;
        if let Some(seq) = ent.file_name().to_str().and_then(run_seq) {
            out.push((seq, ent.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// Removes temporary files left by store processes that no longer run (a `kill -9` during a
/// write). Files of a live process, and every other file, are left alone.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for ent in rd.flatten() {
        let name = ent.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(".tmp-")) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = fs::remove_file(ent.path());
        }
    }
}

impl Store {
    /// A store without a disk layer: just the memory table.
    pub fn memory_only(cfg: StoreConfig) -> Store {
        Store {
            mem: MemoryTable::with_bytes(cfg.mem_bytes),
            disk: None,
        }
    }

    /// Opens (creating if needed) the store directory `dir` for the game described by
    /// `manifest`. Refuses, with one line naming the file, a directory made for another game,
    /// size or hash seed, and any run file that is truncated, corrupt, foreign or of a newer
    /// format; a refused file is left as it is.
    ///
    /// # Safety
    ///
    /// The runs are memory-mapped (see [`Run::open`]): no other process may modify or truncate
    /// files in `dir` while the store is open. Two stores (in one or two processes) may not be
    /// open on one directory at once.
    pub unsafe fn open(
        dir: &Path,
        manifest: &Manifest,
        cfg: StoreConfig,
    ) -> Result<Store, StoreError> {
        if dir.exists() && !dir.is_dir() {
            return Err(StoreError::NotADirectory(dir.to_path_buf()));
        }
        fs::create_dir_all(dir).map_err(|e| StoreError::Io(dir.to_path_buf(), e.to_string()))?;
        let id = manifest.identity();
        let files = run_files(dir)?;
        match Manifest::read(dir)? {
            Some(found) => {
                if found.identity() != id {
                    return Err(StoreError::Foreign {
                        dir: dir.to_path_buf(),
                        found: found.identity().to_string(),
                        expected: id.to_string(),
                    });
                }
            }
            None if !files.is_empty() => {
                return Err(StoreError::Manifest(
                    dir.join(MANIFEST),
                    "missing, but the directory holds run files".into(),
                ))
            }
            None => manifest.write(dir)?,
        }
        remove_stale_temporaries(dir);
        let mut runs = Vec::new();
        for (_, path) in &files {
            // SAFETY: forwarded to our caller.
            runs.push(Arc::new(unsafe {
                Run::open(path, Some(&id), Verify::Full)
            }?));
        }
        let next = files.last().map_or(1, |(s, _)| s + 1);
        Ok(Store {
            mem: MemoryTable::with_bytes(cfg.mem_bytes),
            disk: Some(Arc::new(Disk {
                dir: dir.to_path_buf(),
                id,
                cfg,
                has_runs: AtomicBool::new(!runs.is_empty()),
                runs: RwLock::new(runs),
                pending: Mutex::new(Pending {
                    buf: Vec::new(),
                    last_flush: Instant::now(),
                }),
                next_seq: AtomicU64::new(next),
                failed: AtomicBool::new(false),
                error: Mutex::new(None),
                merger: Mutex::new(None),
                merging: AtomicBool::new(false),
                hits: AtomicU64::new(0),
                flushed: AtomicU64::new(0),
                merges: AtomicU64::new(0),
            })),
        })
    }

    /// The memory layer.
    pub fn memory(&self) -> &MemoryTable {
        &self.mem
    }

    /// Everything the disk layer says about `key` (nothing without a disk layer).
    pub fn disk_knowledge(&self, key: u64) -> Knowledge {
        self.disk
            .as_ref()
            .map_or(Knowledge::NONE, |d| d.lookup(key))
    }

    /// Writes the buffer out as a run now (and merges if there are too many runs). Returns the
    /// first error the store met, here or during the search.
    pub fn flush(&self) -> Result<(), StoreError> {
        let Some(d) = &self.disk else { return Ok(()) };
        if !d.failed.load(Ordering::Relaxed) {
            let mut p = d.pending.lock().expect("store lock poisoned");
            if let Err(e) = d.flush_locked(&mut p) {
                d.fail(e);
            }
        }
        match self.error() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Waits for a background merge, if one is running.
    pub fn wait_for_merges(&self) {
        if let Some(d) = &self.disk {
            d.join_merger();
        }
    }

    /// Merges all runs into one now.
    pub fn compact(&self) -> Result<(), StoreError> {
        let Some(d) = &self.disk else { return Ok(()) };
        self.flush()?;
        let _p = d.pending.lock().expect("store lock poisoned");
        d.join_merger();
        let n = d.runs.read().expect("store lock poisoned").len();
        if n > 1 {
            d.merge_smallest(n)?;
        }
        Ok(())
    }

    /// The first error met (a write failure, or a contradiction between the search and the
    /// table). After an error the disk layer stops writing; probes still work.
    pub fn error(&self) -> Option<StoreError> {
        let d = self.disk.as_ref()?;
        d.error.lock().expect("store lock poisoned").clone()
    }

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
        }
    }
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store")
            .field("dir", &self.disk.as_ref().map(|d| &d.dir))
            .field("stats", &self.stats())
            .finish()
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        let _ = self.flush();
        self.wait_for_merges();
    }
}

impl Disk {
    #[inline]
    fn lookup(&self, key: u64) -> Knowledge {
        if !self.has_runs.load(Ordering::Relaxed) {
            return Knowledge::NONE;
        }
        let runs = self.runs.read().expect("store lock poisoned");
        let mut k = Knowledge::NONE;
        for r in runs.iter() {
            k.0 |= r.lookup(key).0;
        }
        k
    }

    fn fail(&self, e: StoreError) {
        let mut slot = self.error.lock().expect("store lock poisoned");
        if slot.is_none() {
            *slot = Some(e);
        }
        self.failed.store(true, Ordering::Relaxed);
    }

    fn conflict(&self, key: u64, old: Knowledge, new: Knowledge) {
        let fmt = |k: Knowledge| k.values().map(|v| v.name()).collect::<Vec<_>>().join("+");
        self.fail(StoreError::Conflict(
            self.dir.clone(),
            format!(
                "key {key:#x} is stored as {} but the search proved {}",
                fmt(old),
                fmt(new)
            ),
        ));
    }

    fn join_merger(&self) {
        let handle = self.merger.lock().expect("store lock poisoned").take();
        if let Some(h) = handle {
            if h.join().is_err() {
                self.fail(StoreError::Io(
                    self.dir.clone(),
                    "the merge thread panicked".into(),
                ));
            }
        }
    }

    /// Starts a merge of the smallest runs: in the background unless disabled or unless runs
    /// have piled up (then the caller waits, which slows the producer down to the merge rate).
    fn maybe_merge(self: &Arc<Self>, count: usize) -> Result<(), StoreError> {
        let width = self.cfg.merge_width.max(2);
        if !self.cfg.background_merge || count > 4 * self.cfg.max_runs {
            self.join_merger();
            return self.merge_smallest(width);
        }
        if self.merging.swap(true, Ordering::AcqRel) {
            return Ok(()); // one is running; the next flush will look again
        }
        self.join_merger(); // reap the previous, finished thread
        let me = Arc::clone(self);
        let handle = std::thread::Builder::new()
            .name("store-merge".into())
            .spawn(move || {
                if let Err(e) = me.merge_smallest(width) {
                    me.fail(e);
                }
                me.merging.store(false, Ordering::Release);
            })
            .map_err(|e| {
                StoreError::Io(self.dir.clone(), format!("starting a merge thread: {e}"))
            })?;
        *self.merger.lock().expect("store lock poisoned") = Some(handle);
        Ok(())
    }

    fn add(self: &Arc<Self>, key: u64, bounds: Bounds) {
        if self.failed.load(Ordering::Relaxed) {
            return;
        }
        let (vals, n) = values_from_bounds(bounds);
        if n == 0 {
            return;
        }
        let new = vals[..n].iter().fold(Knowledge::NONE, |k, &v| k.with(v));
        let old = self.lookup(key);
        let both = Knowledge(old.0 | new.0);
        match (both.normalised(), old.normalised()) {
            (Err(_), _) => return self.conflict(key, old, new),
            (Ok(b), Ok(o)) if b == o => return, // nothing new
            _ => {}
        }
        let mut p = self.pending.lock().expect("store lock poisoned");
        for &v in &vals[..n] {
            p.buf.push(Entry::new(key, v).0);
        }
        if p.buf.len() >= self.cfg.buffer_entries || p.last_flush.elapsed() >= self.cfg.flush_every
        {
            if let Err(e) = self.flush_locked(&mut p) {
                drop(p);
                self.fail(e);
            }
        }
    }

    /// Sorts the buffer, drops what the disk already says, and writes the rest as a new run.
    fn flush_locked(self: &Arc<Self>, p: &mut Pending) -> Result<(), StoreError> {
        p.last_flush = Instant::now();
        if p.buf.is_empty() {
            return Ok(());
        }
        let mut buf = std::mem::take(&mut p.buf);
        buf.par_sort_unstable();
        let mut fresh = Vec::with_capacity(buf.len());
        for e in Normalised::new(buf.into_iter()) {
            let e = e.map_err(|kind| RunError {
                path: self.dir.clone(),
                kind,
            })?;
            let (key, v) = (e >> 2, Entry(e).value());
            let old = self.lookup(key);
            let with = old.with(v);
            match with.normalised() {
                Err(_) => {
                    return Err(StoreError::Conflict(
                        self.dir.clone(),
                        format!("key {key:#x}: the table says {old:?}, a flush adds {v}"),
                    ))
                }
                Ok(k) if Ok(k) == old.normalised() => {} // implied by the disk already
                Ok(_) => fresh.push(e),
            }
        }
        if fresh.is_empty() {
            return Ok(());
        }
        let seq = self.next_seq.fetch_add(1, Ordering::Relaxed);
        let n = fresh.len() as u64;
        write_run(
            &self.dir,
            &run_name(seq),
            &self.id,
            fresh.into_iter().map(Ok),
            n,
        )?;
        // SAFETY: we just wrote this file; runs are never modified after their rename, and the
        // store's contract (Store::open) keeps other processes from touching the directory.
        let run = unsafe {
            Run::open(
                &self.dir.join(run_name(seq)),
                Some(&self.id),
                Verify::Header,
            )
        }?;
        self.flushed.fetch_add(n, Ordering::Relaxed);
        let count = {
            let mut runs = self.runs.write().expect("store lock poisoned");
            runs.push(Arc::new(run));
            self.has_runs.store(true, Ordering::Relaxed);
            runs.len()
        };
        if count > self.cfg.max_runs {
            self.maybe_merge(count)?;
        }
        Ok(())
    }

    /// Merges the `width` smallest runs into one new run, then deletes them.
    fn merge_smallest(&self, width: usize) -> Result<(), StoreError> {
        let mut chosen: Vec<Arc<Run>> = self.runs.read().expect("store lock poisoned").clone();
        chosen.sort_by_key(|r| r.len());
        chosen.truncate(width);
        if chosen.len() < 2 {
            return Ok(());
        }
        let total: u64 = chosen.iter().map(|r| r.len()).sum();
        let seq = self.next_seq.fetch_add(1, Ordering::Relaxed);
        let name = run_name(seq);
        let inputs: Vec<&[u64]> = chosen.iter().map(|r| r.entries()).collect();
        write_run(
            &self.dir,
            &name,
            &self.id,
            Normalised::new(KMerge::new(inputs)),
            total,
        )?;
        // SAFETY: as in flush_locked: our own, freshly renamed, immutable file.
        let merged = unsafe { Run::open(&self.dir.join(&name), Some(&self.id), Verify::Header) }?;
        {
            let mut runs = self.runs.write().expect("store lock poisoned");
            runs.retain(|r| !chosen.iter().any(|c| Arc::ptr_eq(c, r)));
            runs.push(Arc::new(merged));
        }
        // The merged run is published; the inputs may go. A kill before this point leaves
        // duplicates, which are harmless (identical, or merged again later).
        for r in &chosen {
            let _ = fs::remove_file(r.path());
        }
        self.merges.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

impl Table for Store {
    #[inline]
    fn probe(&self, key: u64) -> Option<Bounds> {
        let m = self.mem.probe(key);
        if m.is_some_and(|b| b.is_exact()) {
            return m;
        }
        let Some(d) = &self.disk else { return m };
        let k = d.lookup(key);
        if k.is_empty() {
            return m;
        }
        let Some(db) = k.to_bounds() else {
            d.fail(StoreError::Conflict(
                d.dir.clone(),
                format!("key {key:#x} has contradicting entries in different runs"),
            ));
            return m;
        };
        d.hits.fetch_add(1, Ordering::Relaxed);
        let Some(mb) = m else { return Some(db) };
        let b = Bounds {
            lower: mb.lower.max(db.lower),
            upper: mb.upper.min(db.upper),
            best: mb.best,
        };
        if b.lower > b.upper {
            d.fail(StoreError::Conflict(
                d.dir.clone(),
                format!("key {key:#x}: the table says {db:?}, the memory table {mb:?}",),
            ));
            return m;
        }
        Some(b)
    }

    #[inline]
    fn store(&self, key: u64, bounds: Bounds, work: u64) {
        self.mem.store(key, bounds, work);
        if let Some(d) = &self.disk {
            if work >= d.cfg.min_work {
                d.add(key, bounds);
            }
        }
    }

    /// Forgets the memory layer; the disk layer keeps everything (it holds proven facts that
    /// stay true).
    fn clear(&self) {
        self.mem.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use entry::Value;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn manifest(variant: &str) -> Manifest {
        Manifest::new("connect4", variant, "", 0)
    }

    /// Small buffers and few runs, so that a handful of inserts flushes and merges.
    fn small() -> StoreConfig {
        StoreConfig {
            mem_bytes: 1024,
            min_work: 0,
            buffer_entries: 5,
            flush_every: Duration::from_secs(3600),
            max_runs: 3,
            merge_width: 2,
            background_merge: true,
        }
    }

    fn open(dir: &Path) -> Store {
        // SAFETY: a private temporary directory, used by one store at a time.
        unsafe { Store::open(dir, &manifest("6x5"), small()) }.unwrap()
    }

    #[derive(Clone, Debug)]
    enum Op {
        /// Store bounds `lower <= v <= upper` for key `k`, where v is the key's true score.
        Insert {
            k: u64,
            lo_off: i8,
            hi_off: i8,
        },
        Flush,
        Compact,
        Reopen,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => (0u64..40, 0i8..4, 0i8..4).prop_map(|(k, lo_off, hi_off)| Op::Insert { k, lo_off, hi_off }),
            1 => Just(Op::Flush),
            1 => Just(Op::Compact),
            1 => Just(Op::Reopen),
        ]
    }

    /// The true score of key `k` in the model game: -2..=2, so every value code occurs.
    fn truth(k: u64) -> i8 {
        (k % 5) as i8 - 2
    }

    fn check_against_model(store: &Store, model: &HashMap<u64, Knowledge>) {
        for k in 0..40u64 {
            let want = model
                .get(&k)
                .copied()
                .unwrap_or_default()
                .normalised()
                .unwrap();
            let got = store.disk_knowledge(k);
            assert_eq!(got.normalised().unwrap(), want, "key {k}");
            // and the probe never claims more than the truth allows
            if let Some(b) = store.probe(k) {
                assert!(b.lower <= truth(k) && truth(k) <= b.upper, "key {k}: {b:?}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// The store against a HashMap model: after every flush, merge and reopen, the disk
        /// layer knows exactly what the model says (the normalised union of all inserted
        /// values), duplicates included.
        #[test]
        fn store_matches_a_hashmap_model(ops in proptest::collection::vec(op(), 1..80)) {
            let dir = tempfile::tempdir().unwrap();
            let mut store = open(dir.path());
            let mut model: HashMap<u64, Knowledge> = HashMap::new();
            for op in ops {
                match op {
                    Op::Insert { k, lo_off, hi_off } => {
                        let v = truth(k);
                        let b = Bounds { lower: v - lo_off, upper: v + hi_off, best: None };
                        let (vals, n) = values_from_bounds(b);
                        let e = model.entry(k).or_default();
                        for &x in &vals[..n] {
                            *e = e.with(x);
                        }
                        store.store(k, b, 1000);
                    }
                    Op::Flush => {
                        store.flush().unwrap();
                        check_against_model(&store, &model);
                    }
                    Op::Compact => {
                        store.compact().unwrap();
                        prop_assert!(store.stats().runs <= 1);
                        check_against_model(&store, &model);
                    }
                    Op::Reopen => {
                        drop(store);
                        store = open(dir.path());
                        check_against_model(&store, &model);
                    }
                }
                prop_assert!(store.error().is_none());
                // background merges may lag; back-pressure bounds the pile-up
                prop_assert!(store.stats().runs <= 4 * 3 + 1);
            }
            store.flush().unwrap();
            check_against_model(&store, &model);
            for (_, path) in run_files(dir.path()).unwrap() {
                // SAFETY: as in `open`.
                let run = unsafe { Run::open(&path, None, Verify::Full) };
                prop_assert!(run.is_ok());
            }
        }
    }

    #[test]
    fn background_merges_keep_everything() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        let win = Bounds {
            lower: 1,
            upper: 5,
            best: None,
        };
        for k in 0..400u64 {
            store.store(k, win, 1000); // a flush every 5 entries, a merge past 3 runs
        }
        store.flush().unwrap();
        store.wait_for_merges();
        let st = store.stats();
        assert!(st.merges > 0, "{st:?}");
        assert_eq!(st.entries, 400, "{st:?}");
        for k in 0..400u64 {
            assert_eq!(store.disk_knowledge(k), Knowledge::NONE.with(Value::Win));
        }
        assert!(store.error().is_none());
        // files on disk are exactly the runs the store knows
        assert_eq!(run_files(dir.path()).unwrap().len() as u64, st.runs);
    }

    #[test]
    fn contradictions_are_reported_not_resolved() {
        let win = Bounds {
            lower: 1,
            upper: 5,
            best: None,
        };
        let draw_at_most = Bounds {
            lower: -5,
            upper: 0,
            best: None,
        };
        // within one buffer
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        store.store(7, win, 1000);
        store.store(7, draw_at_most, 1000);
        let err = store.flush().unwrap_err();
        assert!(err.to_string().contains("0x7"), "{err}");
        drop(store);
        // between the disk and a new result
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        store.store(9, win, 1000);
        store.flush().unwrap();
        store.memory().clear();
        store.store(9, draw_at_most, 1000);
        let err = store.flush().unwrap_err();
        assert!(matches!(err, StoreError::Conflict(..)), "{err}");
        assert!(err.to_string().contains("0x9"), "{err}");
    }

    #[test]
    fn a_directory_for_another_size_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        store.store(
            3,
            Bounds {
                lower: 1,
                upper: 5,
                best: None,
            },
            1000,
        );
        drop(store);
        // SAFETY: as in `open`.
        let err = unsafe { Store::open(dir.path(), &manifest("7x6"), small()) }.unwrap_err();
        assert!(matches!(err, StoreError::Foreign { .. }));
        let line = err.to_string();
        assert!(
            line.contains("6x5") && line.contains("7x6") && !line.contains('\n'),
            "{line}"
        );
    }

    #[test]
    fn a_corrupt_run_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        for k in 0..20 {
            store.store(
                k,
                Bounds {
                    lower: 1,
                    upper: 5,
                    best: None,
                },
                1000,
            );
        }
        drop(store);
        let (_, path) = run_files(dir.path()).unwrap().pop().unwrap();
        let mut bytes = fs::read(&path).unwrap();
        let mid = table::bloom_offset(1) as usize - 16;
        bytes[mid] ^= 0xff;
        fs::write(&path, &bytes).unwrap();
        // SAFETY: as in `open`.
        let err = unsafe { Store::open(dir.path(), &manifest("6x5"), small()) }.unwrap_err();
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert!(err.to_string().contains("checksum mismatch"), "{err}");
        assert_eq!(
            fs::read(&path).unwrap(),
            bytes,
            "the refused file is untouched"
        );
    }

    #[test]
    fn values_survive_for_every_code() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = StoreConfig {
            min_work: 100,
            ..small()
        };
        // SAFETY: as in `open`.
        let store = unsafe { Store::open(dir.path(), &manifest("6x5"), cfg) }.unwrap();
        let cases = [
            (
                1u64,
                Bounds {
                    lower: 2,
                    upper: 9,
                    best: None,
                },
                Value::Win,
            ),
            (
                2,
                Bounds {
                    lower: -9,
                    upper: -3,
                    best: None,
                },
                Value::Loss,
            ),
            (
                3,
                Bounds {
                    lower: 0,
                    upper: 4,
                    best: None,
                },
                Value::AtLeastDraw,
            ),
            (
                4,
                Bounds {
                    lower: -4,
                    upper: 0,
                    best: None,
                },
                Value::AtMostDraw,
            ),
        ];
        for (k, b, _) in cases {
            store.store(k, b, 1000);
        }
        store.store(
            5,
            Bounds {
                lower: 0,
                upper: 0,
                best: None,
            },
            1000,
        );
        store.store(
            6,
            Bounds {
                lower: -1,
                upper: 1,
                best: None,
            },
            1000,
        );
        store.store(
            7,
            Bounds {
                lower: 5,
                upper: 5,
                best: None,
            },
            10,
        ); // too cheap for disk
        drop(store);
        let store = open(dir.path());
        for (k, _, v) in cases {
            assert_eq!(store.disk_knowledge(k), Knowledge::NONE.with(v));
        }
        let draw = Knowledge::NONE
            .with(Value::AtLeastDraw)
            .with(Value::AtMostDraw);
        assert_eq!(store.disk_knowledge(5), draw);
        assert_eq!(
            store.probe(5),
            Some(Bounds {
                lower: 0,
                upper: 0,
                best: None
            })
        );
        assert!(store.disk_knowledge(6).is_empty());
        assert_eq!(store.probe(7), None);
    }
}
