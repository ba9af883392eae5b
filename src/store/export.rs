//! A store directory written in one go from a set of entries: the proof of one value taken out
//! of a large table (`table check --proof --extract`).
//!
//! A long solve's table holds far more than the proof of its answer (everything the search
//! settled on the way, and the snapshot of its open numbers); the proof alone is a few bytes per
//! position of its tree, small enough to keep beside the result and publish, while the table
//! lives only as long as the machine that made it. What is written here is an ordinary store —
//! manifest and one sorted run — so `table check`, `table stats` and `solve --table` read it
//! like any other.

use super::entry::Entry;
use super::error::StoreError;
use super::files::{run_files, run_name};
use super::manifest::Manifest;
use super::merge::Normalised;
use super::run_file::write_run;
use std::fs;
use std::path::Path;

/// Writes `entries` (entry words, any order, duplicates allowed) as a new store in `dir` made
/// for `manifest`: the directory is created if missing and must otherwise be empty, so that
/// nothing stored is overwritten or mixed with it. The entries are sorted and normalised (a
/// contradiction is refused, as in any run). Returns the number of entries written.
pub fn write_store(dir: &Path, manifest: &Manifest, entries: Vec<u64>) -> Result<u64, StoreError> {
    let io = |e: std::io::Error| StoreError::Io(dir.to_path_buf(), e.to_string());
    if dir.exists() {
        if !dir.is_dir() {
            return Err(StoreError::NotADirectory(dir.to_path_buf()));
        }
        if fs::read_dir(dir).map_err(io)?.next().is_some() {
            return Err(StoreError::Io(
                dir.to_path_buf(),
                "not empty (a proof is written only into a new or empty directory)".into(),
            ));
        }
    } else {
        fs::create_dir_all(dir).map_err(io)?;
    }
    let written = write_sorted(dir, 1, manifest, entries)?;
    // the manifest last: a directory without one is not taken for a store
    manifest.write(dir)?;
    Ok(written)
}

/// Writes `entries` (entry words, any order, duplicates allowed) as one more run of the store
/// in `dir`, made for `manifest`, numbered after its last run; its other files are left as
/// they are (a pack added to: `table pack --add`). The caller holds the directory's writer
/// lock and has checked that the store was made for `manifest`. Returns the number of entries
/// written.
pub fn add_run(dir: &Path, manifest: &Manifest, entries: Vec<u64>) -> Result<u64, StoreError> {
    let last = run_files(dir)?.last().map_or(0, |&(seq, _)| seq);
    write_sorted(dir, last + 1, manifest, entries)
}

/// Sorts and normalises `entries` (a contradiction is refused, as in any run) into run `seq`
/// of `dir`.
fn write_sorted(
    dir: &Path,
    seq: u64,
    manifest: &Manifest,
    mut entries: Vec<u64>,
) -> Result<u64, StoreError> {
    entries.sort_unstable();
    entries.dedup();
    let count = entries.len() as u64;
    write_run(
        dir,
        &run_name(seq),
        &manifest.identity(),
        Normalised::new(entries.into_iter()),
        count,
    )
    .map_err(StoreError::Run)
}

/// The entry words of `key`'s values in `knowledge`.
pub fn entry_words(
    key: crate::game::Key,
    knowledge: super::entry::Knowledge,
) -> impl Iterator<Item = u64> {
    knowledge.values().map(move |v| Entry::new(key, v).word())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Key;
    use crate::store::entry::{Knowledge, Value};
    use crate::store::{Store, StoreConfig};

    fn words(pairs: &[(u64, Value)]) -> Vec<u64> {
        pairs
            .iter()
            .flat_map(|&(k, v)| entry_words(Key::new(k), Knowledge::NONE.with(v)))
            .collect()
    }

    /// What is written reads back as a store: every key with its values, the rest unknown.
    #[test]
    fn a_written_store_opens_and_answers() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("proof");
        let m = Manifest::new("connect4", "5x4", "", 0);
        let entries = words(&[(9, Value::Loss), (3, Value::Win), (9, Value::Loss)]);
        assert_eq!(write_store(&out, &m, entries).unwrap(), 2);
        assert_eq!(Manifest::read(&out).unwrap(), Some(m.clone()));
        // SAFETY: a private temporary directory.
        let store = unsafe { Store::open(&out, &m, StoreConfig::default()) }.unwrap();
        assert_eq!(
            store.disk_knowledge(Key::new(3)),
            Knowledge::NONE.with(Value::Win)
        );
        assert_eq!(
            store.disk_knowledge(Key::new(9)),
            Knowledge::NONE.with(Value::Loss)
        );
        assert!(store.disk_knowledge(Key::new(4)).is_empty());
    }

    /// A run added to a written store comes after its last run, leaves the earlier run's bytes
    /// as they were, and the store answers from both.
    #[test]
    fn an_added_run_follows_the_last_and_keeps_the_others() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("pack");
        let m = Manifest::new("connect4", "5x4", "", 0);
        write_store(&out, &m, words(&[(3, Value::Win)])).unwrap();
        let first = out.join(run_name(1));
        let before = std::fs::read(&first).unwrap();
        assert_eq!(add_run(&out, &m, words(&[(5, Value::Loss)])).unwrap(), 1);
        assert_eq!(
            add_run(&out, &m, words(&[(7, Value::AtLeastDraw)])).unwrap(),
            1
        );
        let seqs: Vec<u64> = run_files(&out).unwrap().iter().map(|r| r.0).collect();
        assert_eq!(seqs, [1, 2, 3]);
        assert_eq!(std::fs::read(&first).unwrap(), before);
        // SAFETY: a private temporary directory.
        let store = unsafe { Store::open(&out, &m, StoreConfig::default()) }.unwrap();
        for (key, v) in [(3, Value::Win), (5, Value::Loss), (7, Value::AtLeastDraw)] {
            assert_eq!(store.disk_knowledge(Key::new(key)), Knowledge::NONE.with(v));
        }
    }

    /// A directory that holds anything is refused and left as it was; so is a contradiction,
    /// which leaves no store behind.
    #[test]
    fn refuses_a_used_directory_and_contradictions() {
        let dir = tempfile::tempdir().unwrap();
        let m = Manifest::new("connect4", "5x4", "", 0);
        std::fs::write(dir.path().join("keep.txt"), "x").unwrap();
        let e = write_store(dir.path(), &m, words(&[(1, Value::Win)])).unwrap_err();
        assert!(e.to_string().contains("not empty"), "{e}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);

        let out = dir.path().join("proof");
        let e = write_store(&out, &m, words(&[(1, Value::Win), (1, Value::Loss)])).unwrap_err();
        assert!(!e.to_string().contains('\n'), "{e}");
        assert_eq!(Manifest::read(&out).unwrap(), None);
    }
}
