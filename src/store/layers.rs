//! The [`Store`]: a memory layer in front of an optional disk layer, behind one [`Table`].

use super::checkpoint::SearchState;
use super::config::StoreConfig;
use super::disk::{min_filter_capacity, Disk, Pending, Runs};
use super::entry::Knowledge;
use super::error::StoreError;
use super::files::{remove_stale_temporaries, run_files};
use super::lock::DirLock;
use super::manifest::{Manifest, MANIFEST};
use super::run_file::{Run, Verify};
use crate::game::Key;
use crate::search::proof::Settled;
use crate::search::{Bounds, MemoryTable, Table};
use std::fmt;
use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

/// The two-layer position store (see the module documentation).
pub struct Store {
    pub(super) mem: MemoryTable,
    pub(super) disk: Option<Arc<Disk>>,
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
    /// `manifest`. Refuses, with one line naming the file, a directory in use by another store,
    /// one made for another game, size or hash seed, a damaged manifest, and any run file that is
    /// truncated, corrupt, foreign or of another format version; a refused file is left as it is.
    ///
    /// # Safety
    ///
    /// The runs are memory-mapped (see [`Run::open`]): no other process may modify or truncate
    /// files in `dir` while the store is open. A second store on one directory (in this process
    /// or another zugzwang process) is refused by the directory's lock ([`super::lock`]); the
    /// lock is advisory, so other programs must keep out of `dir` by themselves.
    pub unsafe fn open(
        dir: &Path,
        manifest: &Manifest,
        cfg: StoreConfig,
    ) -> Result<Store, StoreError> {
        if dir.exists() && !dir.is_dir() {
            return Err(StoreError::NotADirectory(dir.to_path_buf()));
        }
        fs::create_dir_all(dir).map_err(|e| StoreError::Io(dir.to_path_buf(), e.to_string()))?;
        // before anything is read or written: a second writer must not even see half a flush
        let lock = DirLock::exclusive(dir)?;
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
        let runs = Runs::new(runs, min_filter_capacity(&cfg))
            .map_err(|e| StoreError::Io(dir.to_path_buf(), format!("a runs' filter: {e}")))?;
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
                conflicts: AtomicU64::new(0),
                _lock: lock,
            })),
        })
    }

    /// The memory layer.
    pub fn memory(&self) -> &MemoryTable {
        &self.mem
    }

    /// Moves the memory layer onto 1 GiB pages while it holds nothing (see
    /// [`MemoryTable::onto_largest_pages`]); returns whether it is on them.
    pub fn memory_onto_largest_pages(&mut self) -> bool {
        self.mem.onto_largest_pages()
    }

    /// Everything the disk layer says about `key` (nothing without a disk layer).
    pub fn disk_knowledge(&self, key: Key) -> Knowledge {
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

    /// The proof search's table saved by [`Store::save_search_state`] (empty without a disk
    /// layer or a saved state).
    pub fn search_state(&self) -> Result<SearchState, StoreError> {
        match &self.disk {
            // SAFETY: the directory is this store's while it is open (its lock), and the state
            // is used while the store is open.
            Some(d) => unsafe { super::checkpoint::read(&d.dir, &d.id) },
            None => Ok(SearchState::default()),
        }
    }

    /// Saves a proof search's table beside the runs (see [`super::checkpoint`]); returns the
    /// entries written. A failure is also kept as the store's error ([`Store::error`]), like a
    /// failed flush.
    pub fn save_search_state(
        &self,
        entries: impl IntoIterator<Item = [u64; 2]>,
    ) -> Result<u64, StoreError> {
        let Some(d) = &self.disk else { return Ok(0) };
        super::checkpoint::write(&d.dir, &d.id, entries).inspect_err(|e| d.fail(e.clone()))
    }

    /// Removes the saved proof-search snapshot (the search it was for has ended). A failure is
    /// also kept as the store's error.
    pub fn drop_search_state(&self) -> Result<(), StoreError> {
        let Some(d) = &self.disk else { return Ok(()) };
        super::checkpoint::remove(&d.dir).inspect_err(|e| d.fail(e.clone()))
    }

    /// Keeps proven `bounds` for `key` in memory, and on disk if `to_disk` says so.
    #[inline]
    fn keep(&self, key: Key, bounds: Bounds, work: u64, to_disk: impl FnOnce(&Disk) -> bool) {
        self.mem.store(key, bounds, work);
        if let Some(d) = &self.disk {
            if to_disk(d) {
                d.add(key, bounds);
            }
        }
    }

    /// Bytes the runs keep in memory (Bloom filters and fences, and the filter over all runs).
    pub fn resident_bytes(&self) -> u64 {
        self.disk.as_ref().map_or(0, |d| {
            let runs = d.runs.read().expect("store lock poisoned");
            runs.filter.bytes() + runs.iter().map(|r| r.resident_bytes()).sum::<u64>()
        })
    }

    /// Bytes the write buffer can take, with the sorted copy a flush makes.
    pub fn buffer_bytes(&self) -> u64 {
        self.disk
            .as_ref()
            .map_or(0, |d| 2 * 8 * d.cfg.buffer_entries as u64)
    }

    /// The first error met (a write failure, or a contradiction between the search and the
    /// table). After an error the disk layer stops writing; probes still work.
    pub fn error(&self) -> Option<StoreError> {
        let d = self.disk.as_ref()?;
        d.error.lock().expect("store lock poisoned").clone()
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

impl Table for Store {
    /// The memory layer's slot only: every probe reads it, while the runs are read only where
    /// it has no exact value.
    #[inline]
    fn prefetch(&self, key: Key) {
        self.mem.prefetch(key);
    }

    #[inline]
    fn probe(&self, key: Key) -> Option<Bounds> {
        let m = self.mem.probe(key);
        if m.is_some_and(|b| b.is_exact()) {
            return m;
        }
        let Some(d) = &self.disk else { return m };
        let Some(db) = disk_bounds(d, key) else {
            return m;
        };
        let Some(mb) = m else { return Some(db) };
        let b = Bounds {
            lower: mb.lower.max(db.lower),
            upper: mb.upper.min(db.upper),
            best: mb.best,
        };
        if b.lower > b.upper {
            if d.cfg.keep_first_on_conflict {
                // the disk's value came first
                d.conflicts.fetch_add(1, Ordering::Relaxed);
                return Some(db);
            }
            d.fail(StoreError::Conflict(
                d.dir.clone(),
                format!("key {key:#x}: the table says {db:?}, the memory table {mb:?}",),
            ));
            return m;
        }
        Some(b)
    }

    #[inline]
    fn store(&self, key: Key, bounds: Bounds, work: u64) {
        self.keep(key, bounds, work, |d| work >= d.cfg.min_work);
    }

    /// Forgets the memory layer; the disk layer keeps everything (it holds proven facts that
    /// stay true).
    fn clear(&self) {
        self.mem.clear();
    }
}

/// What the runs say of `key` as bounds, counted as a disk hit; `None` if they say nothing, or
/// contradict each other (then the store's error).
#[inline]
fn disk_bounds(d: &Disk, key: Key) -> Option<Bounds> {
    let k = d.lookup(key);
    if k.is_empty() {
        return None;
    }
    let Some(b) = k.to_bounds() else {
        d.fail(StoreError::Conflict(
            d.dir.clone(),
            format!("key {key:#x} has contradicting entries in different runs"),
        ));
        return None;
    };
    d.hits.fetch_add(1, Ordering::Relaxed);
    Some(b)
}

/// The proof search's view of the store: what memory or disk knows, asked only of a key the
/// filter over all runs passes, and every result the search chose to keep (its own work threshold
/// replaces [`StoreConfig::min_work`], whose unit is alpha-beta's cheaper nodes).
///
/// The filter holds every key of the runs and every key recorded since the store opened (see
/// `all_runs_filter`). A key it rejects may still have an entry in the memory layer, but only one
/// never meant for the disk: an alpha-beta endgame's result, which the endgame finds in that
/// table at its first probe, or a cheap alpha-beta result. So leaving such keys out loses nothing
/// the proof search recorded, and spares it, for nearly every position new to its proof table, a
/// random read of a memory layer of gigabytes that held nothing (README, "Why the defaults are
/// what they are"). Leaving a fact out can never give a wrong one: a fact missed is searched
/// again.
impl Settled for Store {
    #[inline]
    fn settled(&self, key: Key) -> Option<Bounds> {
        match &self.disk {
            Some(d) if !d.may_hold(key) => None,
            _ => self.probe(key),
        }
    }

    /// The block of the filter over all runs (or, without a disk layer, the memory layer's slot).
    #[inline]
    fn prefetch(&self, key: Key) {
        match &self.disk {
            Some(d) => d.prefetch(key),
            None => self.mem.prefetch(key),
        }
    }

    fn record(&self, key: Key, bounds: Bounds, work: u64) {
        self.keep(key, bounds, work, |_| true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::entry::{values_from_bounds, Value};
    use crate::store::run_file;
    use proptest::prelude::*;
    use std::collections::HashMap;
    use std::time::Duration;

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
            keep_first_on_conflict: false,
        }
    }

    /// A proven win for the side to move.
    const WIN: Bounds = Bounds {
        lower: 1,
        upper: 1,
        best: None,
    };

    /// The capacity of `store`'s filter over all runs now.
    fn filter_capacity(store: &Store) -> u64 {
        store
            .disk
            .as_ref()
            .unwrap()
            .runs
            .read()
            .unwrap()
            .filter
            .capacity()
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
            let got = store.disk_knowledge(Key::new(k));
            assert_eq!(got.normalised().unwrap(), want, "key {k}");
            // the proof search's view is the probe's wherever the disk knows something (every
            // key stored here went to the disk layer, so the filter passes it); elsewhere the
            // memory layer holds at most bounds no value says, which settle nothing
            let settled = Settled::settled(store, Key::new(k));
            if got.is_empty() {
                assert!(
                    settled.is_none_or(|b| values_from_bounds(b).1 == 0),
                    "key {k}"
                );
            } else {
                assert_eq!(settled, store.probe(Key::new(k)), "key {k}");
            }
            // and the probe never claims more than the truth allows
            if let Some(b) = store.probe(Key::new(k)) {
                assert!(b.lower <= truth(k) && truth(k) <= b.upper, "key {k}: {b:?}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]
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
                        store.store(Key::new(k), b, 1000);
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
            // a background merge may still be deleting its inputs: let it finish (the store's drop
            // joins it) before listing the files
            drop(store);
            for (_, path) in run_files(dir.path()).unwrap() {
                // SAFETY: as in `open`.
                let run = unsafe { Run::open(&path, None, Verify::Full) };
                prop_assert!(run.is_ok(), "{}: {:?}", path.display(), run.err());
            }
        }
    }

    /// The filter over all runs outgrows its first size and is rebuilt larger, in flushes
    /// racing background merges, and never loses a key: every key flushed is found, and a key
    /// never stored is not.
    #[test]
    fn the_filter_over_all_runs_grows_and_keeps_every_key() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        let first = filter_capacity(&store);
        for k in 0..400u64 {
            store.store(Key::new(k * 3), WIN, 1000);
            if k % 37 == 0 {
                store.flush().unwrap();
                for j in 0..=k {
                    assert_eq!(
                        store.disk_knowledge(Key::new(j * 3)),
                        Knowledge::NONE.with(Value::Win)
                    );
                }
            }
        }
        store.flush().unwrap();
        let grown = filter_capacity(&store);
        assert!(grown >= 400 && first < 400, "capacity {first} -> {grown}");
        for k in 0..400u64 {
            assert_eq!(
                store.disk_knowledge(Key::new(k * 3)),
                Knowledge::NONE.with(Value::Win)
            );
            assert!(store.disk_knowledge(Key::new(k * 3 + 1)).is_empty());
        }
        assert!(store.error().is_none());
    }

    /// proptest's shrunk case from the model (a key stored with bounds no 2-bit value says): the
    /// disk layer and the filter never see it, the memory layer keeps the bounds, and the proof
    /// search's view has nothing that settles anything.
    #[test]
    fn bounds_no_value_says_settle_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        let wide = Bounds {
            lower: truth(16),
            upper: truth(16) + 2,
            best: None,
        };
        assert_eq!(values_from_bounds(wide).1, 0);
        store.store(Key::new(16), wide, 1000);
        store.flush().unwrap();
        assert!(store.disk_knowledge(Key::new(16)).is_empty());
        assert_eq!(store.probe(Key::new(16)), Some(wide));
        assert_eq!(Settled::settled(&store, Key::new(16)), None);
    }

    /// What the proof search records it reads back at once, before any flush (a job-level run's
    /// next job, or a best-move search, asks with a fresh proof table), while a cheap alpha-beta
    /// result kept in memory alone is not asked of it (the filter has never seen that key).
    #[test]
    fn a_recorded_fact_is_settled_before_any_flush() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = StoreConfig {
            min_work: 1000,
            buffer_entries: 1000,
            ..small()
        };
        // SAFETY: a private temporary directory, used by one store at a time.
        let store = unsafe { Store::open(dir.path(), &manifest("6x5"), cfg) }.unwrap();
        Settled::record(&store, Key::new(7), WIN, 1);
        assert_eq!(store.stats().runs, 0, "nothing flushed yet");
        assert_eq!(Settled::settled(&store, Key::new(7)), Some(WIN));
        store.store(Key::new(9), WIN, 1); // under min_work: memory only
        assert_eq!(store.probe(Key::new(9)), Some(WIN));
        assert_eq!(Settled::settled(&store, Key::new(9)), None);
        store.flush().unwrap();
        assert_eq!(Settled::settled(&store, Key::new(7)), Some(WIN));
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
            store.store(Key::new(k), win, 1000); // a flush every 5 entries, a merge past 3 runs
        }
        store.flush().unwrap();
        store.wait_for_merges();
        let st = store.stats();
        assert!(st.merges > 0, "{st:?}");
        assert_eq!(st.entries, 400, "{st:?}");
        for k in 0..400u64 {
            assert_eq!(
                store.disk_knowledge(Key::new(k)),
                Knowledge::NONE.with(Value::Win)
            );
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
        store.store(Key::new(7), win, 1000);
        store.store(Key::new(7), draw_at_most, 1000);
        let err = store.flush().unwrap_err();
        assert!(err.to_string().contains("0x7"), "{err}");
        drop(store);
        // between the disk and a new result
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        store.store(Key::new(9), win, 1000);
        store.flush().unwrap();
        store.memory().clear();
        store.store(Key::new(9), draw_at_most, 1000);
        let err = store.flush().unwrap_err();
        assert!(matches!(err, StoreError::Conflict(..)), "{err}");
        assert!(err.to_string().contains("0x9"), "{err}");
    }

    #[test]
    fn a_directory_for_another_size_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        store.store(
            Key::new(3),
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
                Key::new(k),
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
        let mid = run_file::bloom_offset(1) as usize - 16;
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
            store.store(Key::new(k), b, 1000);
        }
        store.store(
            Key::new(5),
            Bounds {
                lower: 0,
                upper: 0,
                best: None,
            },
            1000,
        );
        store.store(
            Key::new(6),
            Bounds {
                lower: -1,
                upper: 1,
                best: None,
            },
            1000,
        );
        store.store(
            Key::new(7),
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
            assert_eq!(store.disk_knowledge(Key::new(k)), Knowledge::NONE.with(v));
        }
        let draw = Knowledge::NONE
            .with(Value::AtLeastDraw)
            .with(Value::AtMostDraw);
        assert_eq!(store.disk_knowledge(Key::new(5)), draw);
        assert_eq!(
            store.probe(Key::new(5)),
            Some(Bounds {
                lower: 0,
                upper: 0,
                best: None
            })
        );
        assert!(store.disk_knowledge(Key::new(6)).is_empty());
        assert_eq!(store.probe(Key::new(7)), None);
    }

    /// Opening a store refuses a run or a manifest with one flipped bit at any offset, with one
    /// line naming the file, and leaves the file as it is.
    #[test]
    fn open_refuses_a_flip_at_every_offset() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        for k in 0..30u64 {
            store.store(
                Key::new(k * 11),
                Bounds {
                    lower: 1,
                    upper: 5,
                    best: None,
                },
                1000,
            );
        }
        store.compact().unwrap();
        drop(store);
        let (_, run) = run_files(dir.path()).unwrap().pop().unwrap();
        for path in [run, dir.path().join(MANIFEST)] {
            let good = fs::read(&path).unwrap();
            for at in 0..good.len() {
                let mut b = good.clone();
                b[at] ^= 1 << (at % 8);
                fs::write(&path, &b).unwrap();
                // SAFETY: as in `open`.
                let e = unsafe { Store::open(dir.path(), &manifest("6x5"), small()) }
                    .expect_err(&format!("{}: byte {at}", path.display()));
                let line = e.to_string();
                assert!(line.contains(&path.display().to_string()), "{line}");
                assert!(!line.contains('\n'), "{line}");
                assert_eq!(fs::read(&path).unwrap(), b, "the refused file is untouched");
            }
            fs::write(&path, &good).unwrap();
        }
        drop(open(dir.path()));
    }

    #[test]
    fn a_second_store_on_one_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let first = open(dir.path());
        // SAFETY: as in `open`.
        let e = unsafe { Store::open(dir.path(), &manifest("6x5"), small()) }.unwrap_err();
        assert!(matches!(e, StoreError::Lock(_)), "{e}");
        assert!(
            e.to_string().contains("in use by another zugzwang process"),
            "{e}"
        );
        drop(first);
        drop(open(dir.path()));
    }

    /// A temporary file left by a killed writer is removed on open even if its pid now belongs to
    /// a live process (pid 1 here): the lock says no other writer exists. Other files stay.
    #[test]
    fn open_removes_stale_temporaries_whatever_their_pid() {
        let dir = tempfile::tempdir().unwrap();
        drop(open(dir.path()));
        let stale = dir.path().join(".tmp-1-run-0000000007.zzr");
        let other = dir.path().join("notes.txt");
        fs::write(&stale, b"half a run").unwrap();
        fs::write(&other, b"mine").unwrap();
        drop(open(dir.path()));
        assert!(!stale.exists());
        assert!(other.exists());
    }
}
