//! The disk layer: the write buffer, flushing it into runs, and merging runs (on a background
//! thread).

use super::all_runs_filter::AllRunsFilter;
use super::config::StoreConfig;
use super::entry::{values_from_bounds, Entry, Knowledge};
use super::error::StoreError;
use super::files::run_name;
use super::lock::DirLock;
use super::merge::{KMerge, Normalised};
use super::run_file::{write_run, Identity, Run, RunError, Verify};
use crate::game::Key;
use crate::search::Bounds;
use rayon::slice::ParallelSliceMut;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

/// Entries waiting for the next flush, and when the last one was.
pub(super) struct Pending {
    pub(super) buf: Vec<u64>,
    pub(super) last_flush: Instant,
}

/// The runs a lookup sees, and the filter over all their keys (kept together under one lock: the
/// filter is replaced only where a run is published, see [`AllRunsFilter`]).
pub(super) struct Runs {
    pub(super) list: Vec<Arc<Run>>,
    pub(super) filter: Arc<AllRunsFilter>,
}

impl Runs {
    /// `list` with a filter holding all their keys, sized for twice as many keys as they hold
    /// and at least `min_capacity`.
    pub(super) fn new(list: Vec<Arc<Run>>, min_capacity: u64) -> std::io::Result<Runs> {
        let filter = Arc::new(filter_over(&list, min_capacity)?);
        Ok(Runs { list, filter })
    }
}

/// The least a runs' filter is sized for: a few flushes' worth of keys, so that a new store does
/// not rebuild its filter at every flush.
pub(super) fn min_filter_capacity(cfg: &StoreConfig) -> u64 {
    4 * cfg.buffer_entries as u64
}

/// A filter over every key of `runs`, sized for twice their entries and at least `min_capacity`.
fn filter_over(runs: &[Arc<Run>], min_capacity: u64) -> std::io::Result<AllRunsFilter> {
    let entries: u64 = runs.iter().map(|r| r.len()).sum();
    let filter = AllRunsFilter::with_capacity((2 * entries).max(min_capacity))?;
    for r in runs {
        filter.insert_entries(r.entries());
    }
    Ok(filter)
}

impl std::ops::Deref for Runs {
    type Target = Vec<Arc<Run>>;
    fn deref(&self) -> &Vec<Arc<Run>> {
        &self.list
    }
}

impl std::ops::DerefMut for Runs {
    fn deref_mut(&mut self) -> &mut Vec<Arc<Run>> {
        &mut self.list
    }
}

/// The disk layer of a [`super::Store`]: its directory, its runs, the write buffer and the
/// merge thread. Shared (`Arc`) between the store and a running background merge.
pub(super) struct Disk {
    pub(super) dir: PathBuf,
    pub(super) id: Identity,
    pub(super) cfg: StoreConfig,
    pub(super) runs: RwLock<Runs>,
    /// Whether `runs` is non-empty, readable without the lock: until the first flush every
    /// probe skips the disk layer for the price of one relaxed load.
    pub(super) has_runs: AtomicBool,
    pub(super) pending: Mutex<Pending>,
    pub(super) next_seq: AtomicU64,
    pub(super) failed: AtomicBool,
    pub(super) error: Mutex<Option<StoreError>>,
    /// The background merge thread, if one was started and not yet joined.
    pub(super) merger: Mutex<Option<std::thread::JoinHandle<()>>>,
    pub(super) merging: AtomicBool,
    pub(super) hits: AtomicU64,
    pub(super) flushed: AtomicU64,
    pub(super) merges: AtomicU64,
    /// Contradicting values met and dropped ([`StoreConfig::keep_first_on_conflict`]).
    pub(super) conflicts: AtomicU64,
    /// The directory's writer lock, held as long as anything (the merge thread too) may write.
    pub(super) _lock: DirLock,
}

impl Disk {
    #[inline]
    pub(super) fn lookup(&self, key: Key) -> Knowledge {
        if !self.has_runs.load(Ordering::Relaxed) {
            return Knowledge::NONE;
        }
        let runs = self.runs.read().expect("store lock poisoned");
        if runs.len() > 1 {
            // one block read says whether any run may hold the key (with one run, its own
            // filter is the same test)
            if !runs.filter.may_contain(key.get()) {
                return Knowledge::NONE;
            }
            // every run's filter block is loaded at once: the reads overlap
            for r in runs.iter() {
                r.prefetch(key);
            }
        }
        let mut k = Knowledge::NONE;
        for r in runs.iter() {
            k.0 |= r.lookup(key).0;
        }
        k
    }

    /// Asks the processor to start loading `key`'s block of the filter over all runs (a hint).
    #[inline]
    pub(super) fn prefetch(&self, key: Key) {
        self.runs
            .read()
            .expect("store lock poisoned")
            .filter
            .prefetch(key.get());
    }

    /// False: `key` is in no run, and was not added since the store opened. True: it may be.
    #[inline]
    pub(super) fn may_hold(&self, key: Key) -> bool {
        self.runs
            .read()
            .expect("store lock poisoned")
            .filter
            .may_contain(key.get())
    }

    pub(super) fn fail(&self, e: StoreError) {
        let mut slot = self.error.lock().expect("store lock poisoned");
        if slot.is_none() {
            *slot = Some(e);
        }
        self.failed.store(true, Ordering::Relaxed);
    }

    /// A contradiction between what the store says of `key` and a new fact: counted where the
    /// store keeps first values, the store's error otherwise.
    pub(super) fn conflict(&self, key: Key, old: Knowledge, new: Knowledge) {
        if self.cfg.keep_first_on_conflict {
            self.conflicts.fetch_add(1, Ordering::Relaxed);
            return;
        }
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

    pub(super) fn join_merger(&self) {
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
    pub(super) fn maybe_merge(self: &Arc<Self>, count: usize) -> Result<(), StoreError> {
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

    pub(super) fn add(self: &Arc<Self>, key: Key, bounds: Bounds) {
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
        // into the filter while the buffer is locked: a flush replacing the filter holds that
        // lock too, so the key is in whichever filter is current once it is in the buffer
        self.runs
            .read()
            .expect("store lock poisoned")
            .filter
            .insert(key.get());
        for &v in &vals[..n] {
            p.buf.push(Entry::new(key, v).word());
        }
        if p.buf.len() >= self.cfg.buffer_entries || p.last_flush.elapsed() >= self.cfg.flush_every
        {
            if let Err(e) = self.flush_locked(&mut p) {
                drop(p);
                self.fail(e);
            }
        }
    }

    /// Removes from the sorted `buf` every key whose entries contradict each other (neither
    /// came first in a way the buffer remembers), counting each.
    fn drop_contradictions(&self, buf: &mut Vec<u64>) {
        let key = |e: u64| Entry::from_word(e).key();
        let mut out = Vec::with_capacity(buf.len());
        let mut i = 0;
        while i < buf.len() {
            let mut j = i;
            let mut k = Knowledge::NONE;
            while j < buf.len() && key(buf[j]) == key(buf[i]) {
                k = k.with(Entry::from_word(buf[j]).value());
                j += 1;
            }
            if k.normalised().is_ok() {
                out.extend_from_slice(&buf[i..j]);
            } else {
                self.conflicts.fetch_add(1, Ordering::Relaxed);
            }
            i = j;
        }
        *buf = out;
    }

    /// Sorts the buffer, drops what the disk already says, and writes the rest as a new run.
    pub(super) fn flush_locked(self: &Arc<Self>, p: &mut Pending) -> Result<(), StoreError> {
        p.last_flush = Instant::now();
        if p.buf.is_empty() {
            return Ok(());
        }
        let mut buf = std::mem::take(&mut p.buf);
        buf.par_sort_unstable();
        if self.cfg.keep_first_on_conflict {
            self.drop_contradictions(&mut buf);
        }
        let mut fresh = Vec::with_capacity(buf.len());
        for e in Normalised::new(buf.into_iter()) {
            let e = e.map_err(|kind| RunError {
                path: self.dir.clone(),
                kind,
            })?;
            let (key, v) = (Entry::from_word(e).key(), Entry::from_word(e).value());
            let old = self.lookup(key);
            let with = old.with(v);
            match with.normalised() {
                Err(_) if self.cfg.keep_first_on_conflict => {
                    // the disk's value came first
                    self.conflicts.fetch_add(1, Ordering::Relaxed);
                }
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
        // the new run's keys went into the filter as they were added to the buffer, before the
        // run is visible (see AllRunsFilter); a full filter is replaced by one twice the size,
        // built from every run, the new one included (the buffer is empty now and adds wait for
        // its lock; a merge meanwhile only moves keys between runs, all of them in the snapshot's)
        let run = Arc::new(run);
        let full = {
            let runs = self.runs.read().expect("store lock poisoned");
            runs.filter.is_full().then(|| runs.list.clone())
        };
        let larger = if let Some(mut all) = full {
            all.push(Arc::clone(&run));
            let larger = filter_over(&all, min_filter_capacity(&self.cfg))
                .map_err(|e| StoreError::Io(self.dir.clone(), format!("a runs' filter: {e}")))?;
            Some(Arc::new(larger))
        } else {
            None
        };
        let count = {
            let mut runs = self.runs.write().expect("store lock poisoned");
            if let Some(larger) = larger {
                runs.filter = larger;
            }
            runs.push(run);
            self.has_runs.store(true, Ordering::Relaxed);
            runs.len()
        };
        if count > self.cfg.max_runs {
            self.maybe_merge(count)?;
        }
        Ok(())
    }

    /// Merges the `width` smallest runs into one new run, then deletes them.
    pub(super) fn merge_smallest(&self, width: usize) -> Result<(), StoreError> {
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
