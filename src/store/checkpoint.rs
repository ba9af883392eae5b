//! `DIR/search-state.zzs`: a snapshot of a proof search's table, so that a stopped or killed
//! solve resumes near where it was.
//!
//! The runs hold the results worth keeping for good: settled positions that cost enough to
//! prove. A proof search also holds, in memory, many cheap settled leaves (forcing wins, static
//! bounds: each costs a search that is not counted as a node) and the proof and disproof numbers
//! of the positions it has not settled yet, which say where the proof is nearly done. Measured on
//! the showcase, resuming with the runs alone repeats most of the killed run's work, so the whole
//! table is saved here now and then, apart from the runs: a resumed search starts as if the
//! process had never stopped. These entries are the same search's own, under the same keys as
//! the runs; `table check` does not read them, and rechecks every run entry on its own.
//!
//! Format: an 8-byte magic, a `u32` version, a `u32` length and the table's identity as text, then
//! pairs of `u64` words (the search's own tag and data), then the `u64` count of pairs and the
//! xxh3-64 of every byte before it. The snapshot is streamed out while the search goes on (a pair
//! torn by a concurrent write reads under a tag nobody asks for) into a temporary file that is
//! renamed over the old one, so a kill leaves the old snapshot or the new one, never half of one.
//! It is read back through a memory map, checked in full before any entry is used.

use super::error::StoreError;
use super::run_file::{sync_dir, Identity};
use memmap2::Mmap;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;
use xxhash_rust::xxh3::Xxh3Default;

/// File name of the search state in a store directory.
pub const SEARCH_STATE: &str = "search-state.zzs";
const MAGIC: &[u8; 8] = b"ZZSTATE\0";
const VERSION: u32 = 1;

/// A writer that checksums what it writes.
struct Summed<W: Write> {
    out: W,
    sum: Xxh3Default,
}

impl<W: Write> Summed<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.sum.update(bytes);
        self.out.write_all(bytes)
    }
}

/// Writes `entries` as the search state of the store `dir` for `id` (atomically); returns how
/// many were written.
pub fn write(
    dir: &Path,
    id: &Identity,
    entries: impl IntoIterator<Item = [u64; 2]>,
) -> Result<u64, StoreError> {
    write_as(dir, SEARCH_STATE, id, entries)
}

/// [`write`] into the file `name` of `dir` (the job-level search's workers keep one each).
pub fn write_as(
    dir: &Path,
    name: &str,
    id: &Identity,
    entries: impl IntoIterator<Item = [u64; 2]>,
) -> Result<u64, StoreError> {
    let path = dir.join(name);
    let tmp = dir.join(format!(".tmp-{}-{name}", std::process::id()));
    let io = |e: std::io::Error| StoreError::Io(tmp.clone(), e.to_string());
    let written = (|| {
        let file = fs::File::create(&tmp)?;
        let mut w = Summed {
            out: BufWriter::with_capacity(1 << 20, file),
            sum: Xxh3Default::new(),
        };
        let id_text = id.to_string();
        w.put(MAGIC)?;
        w.put(&VERSION.to_le_bytes())?;
        w.put(&(id_text.len() as u32).to_le_bytes())?;
        w.put(id_text.as_bytes())?;
        let mut count = 0u64;
        for [a, b] in entries {
            w.put(&a.to_le_bytes())?;
            w.put(&b.to_le_bytes())?;
            count += 1;
        }
        w.put(&count.to_le_bytes())?;
        let sum = w.sum.digest();
        w.out.write_all(&sum.to_le_bytes())?;
        let file = w.out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        Ok(count)
    })()
    .map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io(e)
    })?;
    fs::rename(&tmp, &path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        StoreError::Io(path.clone(), e.to_string())
    })?;
    sync_dir(dir).map_err(StoreError::Run)?;
    Ok(written)
}

/// Removes the search state of `dir`, if there is one.
pub fn remove(dir: &Path) -> Result<(), StoreError> {
    remove_as(dir, SEARCH_STATE)
}

/// [`remove`] of the file `name` of `dir`.
pub fn remove_as(dir: &Path, name: &str) -> Result<(), StoreError> {
    let path = dir.join(name);
    match fs::remove_file(&path) {
        Ok(()) => sync_dir(dir).map_err(StoreError::Run),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(StoreError::Io(path, e.to_string())),
    }
}

/// A checked search state, mapped from its file.
#[derive(Default)]
pub struct SearchState {
    map: Option<Mmap>,
    start: usize,
    count: usize,
}

impl SearchState {
    /// The saved `[tag, data]` pairs.
    pub fn entries(&self) -> impl Iterator<Item = [u64; 2]> + '_ {
        let words = match &self.map {
            Some(m) => &m[self.start..self.start + 16 * self.count],
            None => &[][..],
        };
        words.chunks_exact(16).map(|c| {
            [
                u64::from_le_bytes(c[..8].try_into().expect("8 bytes")),
                u64::from_le_bytes(c[8..].try_into().expect("8 bytes")),
            ]
        })
    }

    /// How many pairs there are.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there are none (no file, or an empty one).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// The search state stored in `dir` for `id`: empty if there is none; refused with one line if
/// it is damaged or was written for another table.
///
/// # Safety
/// The file is memory-mapped: nothing may modify or truncate it while the state is alive (the
/// store's directory lock keeps zugzwang processes out; see [`super::Store::open`]).
pub unsafe fn read(dir: &Path, id: &Identity) -> Result<SearchState, StoreError> {
    // SAFETY: forwarded to the caller.
    unsafe { read_as(dir, SEARCH_STATE, id) }
}

/// [`read`] of the file `name` of `dir`.
///
/// # Safety
/// As for [`read`]: nothing may modify or truncate the file while the state is alive.
pub unsafe fn read_as(dir: &Path, name: &str, id: &Identity) -> Result<SearchState, StoreError> {
    let path = dir.join(name);
    let file = match fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(SearchState {
                map: None,
                start: 0,
                count: 0,
            })
        }
        Err(e) => return Err(StoreError::Io(path, e.to_string())),
    };
    // SAFETY: forwarded to the caller.
    let map =
        unsafe { Mmap::map(&file) }.map_err(|e| StoreError::Io(path.clone(), e.to_string()))?;
    let (start, count) = parse(&map, id).map_err(|why| {
        StoreError::Io(
            path,
            format!("{why} (the file only speeds up resuming: delete it to go on without it)"),
        )
    })?;
    Ok(SearchState {
        map: Some(map),
        start,
        count,
    })
}

/// Checks the file's bytes; returns where the pairs start and how many there are.
fn parse(bytes: &[u8], id: &Identity) -> Result<(usize, usize), String> {
    if bytes.len() < 8 + 4 + 4 + 8 + 8 || &bytes[..8] != MAGIC {
        return Err("not a search-state file".into());
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if xxhash_rust::xxh3::xxh3_64(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err("checksum mismatch".into());
    }
    let word4 = |at: usize| u32::from_le_bytes(body[at..at + 4].try_into().expect("4 bytes"));
    let version = word4(8);
    if version != VERSION {
        return Err(format!(
            "version {version}, this program reads version {VERSION}"
        ));
    }
    let id_len = word4(12) as usize;
    let start = 16 + id_len;
    let Some(id_text) = body.get(16..start) else {
        return Err("truncated".into());
    };
    if id_text != id.to_string().as_bytes() {
        return Err(format!(
            "written for {}, not for {id}",
            String::from_utf8_lossy(id_text)
        ));
    }
    let pairs = body.len().checked_sub(start + 8).ok_or("truncated")?;
    let count = u64::from_le_bytes(body[body.len() - 8..].try_into().expect("8 bytes"));
    if pairs % 16 != 0 || (pairs / 16) as u64 != count {
        return Err(format!(
            "{count} entries announced, {pairs} bytes of them found"
        ));
    }
    Ok((start, pairs / 16))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(variant: &str) -> Identity {
        Identity {
            game: "sogo".into(),
            variant: variant.into(),
            hash_seed: 7,
        }
    }

    fn load(dir: &Path, variant: &str) -> Result<Vec<[u64; 2]>, StoreError> {
        // SAFETY: a private temporary directory.
        unsafe { read(dir, &id(variant)) }.map(|s| s.entries().collect())
    }

    #[test]
    fn round_trips_and_refuses_damage_and_strangers() {
        let dir = tempfile::tempdir().unwrap();
        assert!(load(dir.path(), "a").unwrap().is_empty(), "no file");
        let entries = vec![[1, 2], [u64::MAX, 0], [0x8000_0000_0000_0005, 42]];
        assert_eq!(write(dir.path(), &id("a"), entries.clone()).unwrap(), 3);
        assert_eq!(load(dir.path(), "a").unwrap(), entries);
        let e = load(dir.path(), "b").unwrap_err().to_string();
        assert!(e.contains("written for") && !e.contains('\n'), "{e}");
        let path = dir.path().join(SEARCH_STATE);
        let good = fs::read(&path).unwrap();
        for at in 0..good.len() {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            fs::write(&path, &bad).unwrap();
            assert!(load(dir.path(), "a").is_err(), "byte {at}");
        }
        for cut in [1, 3, 16, good.len() - 1] {
            fs::write(&path, &good[..good.len() - cut]).unwrap();
            assert!(load(dir.path(), "a").is_err(), "cut {cut}");
        }
        write(dir.path(), &id("a"), []).unwrap();
        assert!(load(dir.path(), "a").unwrap().is_empty());
        remove(dir.path()).unwrap();
        remove(dir.path()).unwrap();
        assert!(load(dir.path(), "a").unwrap().is_empty(), "removed");
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert!(left.is_empty(), "no temporary file left behind");
    }
}
