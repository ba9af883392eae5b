//! A worker's snapshot of its proof table, `worker-N.zzs` in the table directory, so that a
//! restarted run's workers start where the killed run's were.
//!
//! Why: a job's report keeps only the numbers of the leaf's children; the subtree below them is
//! in the worker's table, and the master sends the next jobs of that subtree to the same worker
//! (its affinity, saved in the master's checkpoint). Without the tables, every leaf of a
//! restarted tree is searched again from nothing: measured with small jobs, a restarted run then
//! did more work than one from scratch. The snapshot is the solve's own format
//! ([`crate::store::checkpoint`]: identity, pairs, count, xxh3; temporary file and rename), under
//! the identity of the session, so a file of another game, key mode, hash seed or start is never
//! read. It is a cache of the worker's own search — proven entries and proof numbers under the
//! session's keys — and never a fact: the master takes its facts from reports, and `table check`
//! does not read it.
//!
//! A worker saves between jobs (its table is not being written then), at most every
//! `checkpoint_every` and so that saving takes at most a twentieth of its time, and as it ends
//! while its run is undecided (stopped by a time limit or Ctrl-C); the master removes the
//! snapshots once the position is decided (under MPI, a rank still finishing a job
//! then may leave its file behind: it is the size of the rank's table, and safe to delete).

use crate::search::proof::ProofTable;
use crate::store::checkpoint;
use crate::store::run_file::Identity;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Files of worker snapshots start with this.
const PREFIX: &str = "worker-";
/// ... and end with this.
const SUFFIX: &str = ".zzs";

/// Where and when one worker saves its table.
pub struct WorkerState {
    dir: PathBuf,
    name: String,
    id: Identity,
    every: Duration,
    next: Instant,
}

impl WorkerState {
    /// The snapshot of worker `index` of `session` in the table directory `dir`, saved about
    /// every `every`.
    pub fn new(dir: &Path, index: usize, session: u64, hash_seed: u64, every: Duration) -> Self {
        WorkerState {
            dir: dir.to_path_buf(),
            name: format!("{PREFIX}{index}{SUFFIX}"),
            id: Identity {
                game: "job-worker".into(),
                variant: format!("session {session:016x}"),
                hash_seed,
            },
            every,
            next: Instant::now() + every,
        }
    }

    /// Fills `table` from the snapshot, if there is one; returns how many entries it took. A
    /// damaged or foreign snapshot is only a lost cache: one warning, and the worker starts
    /// empty (its next save replaces the file).
    pub fn load_into(&self, table: &ProofTable) -> usize {
        // SAFETY: the table directory's lock keeps other zugzwang processes out, and this
        // worker is the only writer of its file; the map is dropped before the next save.
        match unsafe { checkpoint::read_as(&self.dir, &self.name, &self.id) } {
            Ok(state) => table.preload(state.entries()),
            Err(e) => {
                eprintln!("warning: worker snapshot not used: {e}");
                0
            }
        }
    }

    /// Saves `table` if it is time to; a failure is a warning (the run goes on without it).
    pub fn save_if_due(&mut self, table: &ProofTable) {
        if Instant::now() < self.next {
            return;
        }
        let took = Instant::now();
        if let Err(e) = checkpoint::write_as(&self.dir, &self.name, &self.id, table.entries()) {
            eprintln!("warning: cannot save the worker snapshot: {e}");
        }
        self.next = Instant::now() + self.every.max(took.elapsed() * 20);
    }
}

impl WorkerState {
    /// Saves `table` as the worker ends, if the run it worked for stopped undecided: its
    /// master saved a checkpoint (a decided master removed it before its workers ended).
    pub fn save_at_end(&self, table: &ProofTable) {
        if super::checkpoint::path_in(&self.dir).exists() {
            if let Err(e) = checkpoint::write_as(&self.dir, &self.name, &self.id, table.entries()) {
                eprintln!("warning: cannot save the worker snapshot: {e}");
            }
        }
    }
}

/// Removes every worker snapshot of the table directory `dir` (the position is decided).
pub fn remove_all(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(PREFIX) && name.ends_with(SUFFIX) {
            let _ = checkpoint::remove_as(dir, &name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_refills_a_table_and_only_its_sessions() {
        let dir = tempfile::tempdir().unwrap();
        let table = ProofTable::new(1 << 20);
        for key in 1..200u64 {
            table.store(key.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1, 3, 5, 64);
        }
        let every = Duration::ZERO;
        let mut s = WorkerState::new(dir.path(), 1, 42, 7, every);
        s.save_if_due(&table);
        let saved = table.entries().count();
        assert!(saved > 0);
        let fresh = ProofTable::new(1 << 20);
        assert_eq!(s.load_into(&fresh), saved);
        assert_eq!(fresh.entries().count(), saved);
        // another session's worker of the same index does not read it
        let other = WorkerState::new(dir.path(), 1, 43, 7, every);
        assert_eq!(other.load_into(&ProofTable::new(1 << 20)), 0);
        remove_all(dir.path());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert_eq!(s.load_into(&ProofTable::new(1 << 20)), 0, "no file: empty");
    }
}
