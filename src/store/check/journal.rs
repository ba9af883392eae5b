//! A proof walk's journal (`table check --proof --journal FILE`): the positions whose stored
//! values the walk has justified, so that a check stopped at any moment (a kill, the end of a
//! session) goes on where it was instead of searching every child again. The proof of one
//! milestone reply takes hours to re-check: its children without entries are each re-solved.
//!
//! A journal speaks for one state of one table: its header holds the caller's description of
//! that state (the table's identity, its runs and their sizes, the walk's start), and a journal
//! of any other state is refused. That matters for soundness: a resumed walk does not search a
//! journaled position's children again, it only looks up which children's entries the
//! justification rested on and walks on into them, which finds the same children only if no
//! entry has changed.
//!
//! Format: an 8-byte magic, a `u32` version, a `u32` length and the description as text, then
//! records of four `u64` words: the position's identity (two words, low first), the stored
//! knowledge it was justified with, and the xxh3-64 of those 24 bytes seeded with the xxh3-64
//! of the header. A knowledge word with [`KEPT`] set records instead a value a search found
//! for a child and the walk took into its proof (see [`Journal::keep`]): the position is not
//! justified yet, its claim only stands in for the entry a resumed walk would not have. Each
//! record is written as it is made (a kill loses at most the position being justified); a torn
//! or damaged record ends the journal where it starts, and the file is cut back to the records
//! before it.

use super::super::entry::Knowledge;
use crate::game::Key;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::{Duration, Instant};
use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

const MAGIC: &[u8; 8] = b"ZZJOURN\0";
/// 2: kept claims ([`KEPT`]). A journal of another version is refused (version 1 knew no
/// kept claims, and would cut a version-2 journal back at its first one).
const VERSION: u32 = 2;
/// The flag of a kept claim's knowledge word.
const KEPT: u64 = 1 << 8;
/// Bytes of one record.
const RECORD: usize = 32;
/// How often the journal is pushed to the disk (a kill of the process loses nothing written;
/// this bounds what a crash of the machine loses).
const SYNC_EVERY: Duration = Duration::from_secs(60);

/// The positions a proof walk justified, read from and appended to one file.
pub struct Journal {
    file: File,
    seed: u64,
    done: HashMap<u128, u8>,
    kept: HashMap<Key, u8>,
    /// Records read from the file when it was opened.
    pub loaded: u64,
    synced: Instant,
    error: Option<String>,
}

impl Journal {
    /// Opens the journal `path` for the table state `description`, creating it if it does not
    /// exist. An error if the file is not a journal, or is one of another state.
    pub fn open(path: &Path, description: &str) -> io::Result<Journal> {
        let mut header = Vec::with_capacity(16 + description.len());
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&(description.len() as u32).to_le_bytes());
        header.extend_from_slice(description.as_bytes());
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        if bytes.is_empty() {
            file.write_all(&header)?;
            file.sync_all()?;
            bytes = header.clone();
        }
        if !bytes.starts_with(&header) {
            let version = bytes
                .get(8..12)
                .map(|v| u32::from_le_bytes(v.try_into().unwrap()));
            let why = if bytes.starts_with(MAGIC) && version != Some(VERSION) {
                "was written in another journal format (by another version of zugzwang): \
                 start a new journal"
            } else if bytes.starts_with(MAGIC) {
                "is the journal of another table, start or state of the table (a table that \
                 has changed since needs a new journal)"
            } else {
                "is not a proof check's journal"
            };
            return Err(io::Error::new(io::ErrorKind::InvalidData, why));
        }
        let seed = xxh3_64(&header);
        let (mut done, mut kept) = (HashMap::new(), HashMap::new());
        let mut end = header.len();
        for r in bytes[header.len()..].chunks_exact(RECORD) {
            let w: [u64; 4] = std::array::from_fn(|i| {
                u64::from_le_bytes(r[8 * i..8 * i + 8].try_into().unwrap())
            });
            if w[3] != xxh3_64_with_seed(&r[..24], seed) || w[2] & !KEPT > u8::MAX as u64 {
                break;
            }
            let id = w[0] as u128 | (w[1] as u128) << 64;
            if w[2] & KEPT != 0 {
                kept.insert(Key::new(w[0]), w[2] as u8);
            } else {
                done.insert(id, w[2] as u8);
            }
            end += RECORD;
        }
        if end < bytes.len() {
            file.set_len(end as u64)?;
        }
        file.seek(SeekFrom::Start(end as u64))?;
        Ok(Journal {
            file,
            seed,
            loaded: done.len() as u64,
            done,
            kept,
            synced: Instant::now(),
            error: None,
        })
    }

    /// Whether the position `id` was justified with the stored knowledge `k`.
    pub fn knows(&self, id: u128, k: Knowledge) -> bool {
        self.done.get(&id) == Some(&k.0)
    }

    /// Records that the position `id` was justified with the stored knowledge `k`. A write that
    /// fails is kept as [`Journal::error`] and ends the writing (the walk goes on: the journal
    /// only saves work).
    pub fn record(&mut self, id: u128, k: Knowledge) {
        if !self.knows(id, k) && self.write(id, k.0 as u64) {
            self.done.insert(id, k.0);
        }
    }

    /// Records that the walk took the value `k` a search found for the position of `key` into
    /// its proof, to be justified in its turn (a resumed walk reads it back with
    /// [`Journal::kept`]; the key takes the identity's place in the record). Failures as for
    /// [`Journal::record`].
    pub fn keep(&mut self, key: Key, k: Knowledge) {
        if self.kept.get(&key) != Some(&k.0) && self.write(key.get() as u128, KEPT | k.0 as u64) {
            self.kept.insert(key, k.0);
        }
    }

    /// The claims kept by [`Journal::keep`], as read and written.
    pub fn kept(&self) -> impl Iterator<Item = (Key, Knowledge)> + '_ {
        self.kept.iter().map(|(&key, &k)| (key, Knowledge(k)))
    }

    /// Appends one record; whether it was written.
    fn write(&mut self, id: u128, word: u64) -> bool {
        if self.error.is_some() {
            return false;
        }
        let mut r = [0u8; RECORD];
        r[..8].copy_from_slice(&(id as u64).to_le_bytes());
        r[8..16].copy_from_slice(&((id >> 64) as u64).to_le_bytes());
        r[16..24].copy_from_slice(&word.to_le_bytes());
        let sum = xxh3_64_with_seed(&r[..24], self.seed);
        r[24..].copy_from_slice(&sum.to_le_bytes());
        let mut written = self.file.write_all(&r);
        if written.is_ok() && self.synced.elapsed() >= SYNC_EVERY {
            written = self.file.sync_data();
            self.synced = Instant::now();
        }
        match written {
            Ok(()) => true,
            Err(e) => {
                self.error = Some(e.to_string());
                false
            }
        }
    }

    /// The first write that failed, if one did.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is recorded is known after reopening, under the same description only; a torn
    /// last record is dropped and the file cut back, so that later records are read again.
    #[test]
    fn a_journal_remembers_its_records_for_its_state_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("proof.journal");
        let (a, b, c) = (Knowledge(1), Knowledge(2), Knowledge(12));
        let big = u128::MAX - 5;
        {
            let mut j = Journal::open(&path, "table X runs 1").unwrap();
            assert_eq!(j.loaded, 0);
            assert!(!j.knows(7, a));
            j.record(7, a);
            j.record(big, b);
            j.record(7, a); // once is enough
            assert!(j.knows(7, a) && !j.knows(7, b) && j.knows(big, b));
            // a kept claim is read back as one, not as a justified position
            j.keep(Key::new(11), c);
            j.keep(Key::new(11), c);
            assert!(!j.knows(11, c));
        }
        let len = std::fs::metadata(&path).unwrap().len();
        // the header, then 7, big and the claim of 11, each once
        assert_eq!(len as usize, 16 + "table X runs 1".len() + 3 * RECORD);
        let j = Journal::open(&path, "table X runs 1").unwrap();
        assert_eq!(j.loaded, 2);
        assert!(j.knows(7, a) && j.knows(big, b) && !j.knows(8, a) && !j.knows(11, c));
        assert_eq!(j.kept().collect::<Vec<_>>(), vec![(Key::new(11), c)]);
        drop(j);

        // a journal of another format: refused as such
        let old = dir.path().join("old.journal");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        std::fs::write(&old, &bytes).unwrap();
        let e = Journal::open(&old, "table X runs 1").err().unwrap();
        assert!(e.to_string().contains("another journal format"), "{e}");

        let other = Journal::open(&path, "table X runs 2").err().unwrap();
        assert!(other.to_string().contains("another"), "{other}");
        let stranger = dir.path().join("not-a-journal");
        std::fs::write(&stranger, b"hello").unwrap();
        let e = Journal::open(&stranger, "table X runs 1").err().unwrap();
        assert!(e.to_string().contains("not a proof check"), "{e}");

        // a torn record (a kill mid-write) and a damaged one: both dropped, the file cut back
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend_from_slice(&[1, 2, 3]);
        std::fs::write(&path, &bytes).unwrap();
        let mut j = Journal::open(&path, "table X runs 1").unwrap();
        assert_eq!(
            (j.loaded, std::fs::metadata(&path).unwrap().len()),
            (2, len)
        );
        j.record(9, c);
        drop(j);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - RECORD;
        bytes[last] ^= 1; // the record of 9: its checksum no longer holds
        std::fs::write(&path, &bytes).unwrap();
        let j = Journal::open(&path, "table X runs 1").unwrap();
        assert!(j.loaded == 2 && !j.knows(9, c) && !j.knows(8, c));
        assert_eq!(j.kept().count(), 1);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), len);
        assert!(j.error().is_none());
    }
}
