//! One sorted run file: written once, atomically, then only read (memory-mapped).
//!
//! File layout (all integers little-endian):
//!
//! ```text
//! [0, 256)              header (store::header: magic, version, game, variant, hash seed,
//!                       entry count, Bloom shape, xxh3 of everything below; zero padding; in
//!                       its last 8 bytes an xxh3 of the header's first 248)
//! [256, 256 + 8n)       n entries, strictly increasing u64 (key << w | value; w = the
//!                       header's value width: 2 for the store, wider for a book)
//! padding to 64 bytes   zeros
//! Bloom filter          blocks x 64 bytes (store::bloom)
//! ```
//!
//! Writing goes to a temporary file in the same directory, is fsync'ed, and is renamed to its
//! final name (then the directory is fsync'ed): a process killed at any moment leaves either no
//! run or a complete one under a run name, never half a file. A run is never modified after the
//! rename; it is only deleted once a merge has published a run holding its entries.
//!
//! Lookups test the Bloom filter, then binary-search a small in-memory "fence" (every 512th
//! entry) and finally one 4 KiB stretch of the mapped entries, so a warm lookup touches one
//! Bloom cache line and about two pages however large the run is.
//!
//! The Bloom filter (1.4 bytes per entry) and the fence (1/64 byte per entry) are copied into
//! memory that asks the kernel for 2 MiB pages ([`super::resident`]): a random probe into a
//! 137 MB filter otherwise pays a TLB miss on top of its cache miss. Only the entries stay
//! memory-mapped and are read from disk on demand.

#[cfg(not(target_endian = "little"))]
compile_error!("run files are read in place as little-endian u64 words");

use super::bloom::{BloomBuilder, BloomRef, WORDS_PER_BLOCK};
use super::entry::{Entry, Knowledge};
use super::header::{HeaderError, RunHeader, HEADER_LEN, LEGACY_VALUE_BITS};
use super::resident::HugeWords;
use crate::game::Key;
use memmap2::{Advice, Mmap};
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Entries between two fence keys (4 KiB of entries).
const FENCE_STRIDE: usize = 512;

/// What a store's files are for: keys of one game variant under one hash seed. Runs of another
/// identity are refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// Game name, e.g. `connect4`.
    pub game: String,
    /// Size or rule variant, e.g. `7x6`.
    pub variant: String,
    /// Seed of the key hash (0 where keys are exact).
    pub hash_seed: u64,
}

impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} (hash seed {})",
            self.game, self.variant, self.hash_seed
        )
    }
}

/// Why a run file was refused or could not be written.
#[derive(Clone, Debug)]
pub enum RunErrorKind {
    /// The operating system refused a read, write or map.
    Io(String),
    /// The file is shorter than its header says it must be.
    Truncated,
    /// Not a run file.
    BadMagic,
    /// Made for another game, size or hash seed.
    ForeignGame {
        /// What the file says.
        found: String,
        /// What was expected.
        expected: String,
    },
    /// Written by a newer format version.
    NewerFormat {
        /// Version in the file.
        found: u32,
    },
    /// Written by an older format version, no longer read.
    OlderFormat {
        /// Version in the file.
        found: u32,
    },
    /// The header is damaged (its checksum, padding or fields), or cannot be written.
    Header(HeaderError),
    /// The body does not match its checksum.
    ChecksumMismatch(String),
    /// The file is longer than its header says, or its Bloom shape is impossible.
    BadLayout(String),
    /// Entries out of order, or contradicting each other (a key stored as win and loss).
    BadEntries(String),
}

/// A run-file error: which file, and why. Displays as one line.
#[derive(Clone, Debug)]
pub struct RunError {
    /// The file.
    pub path: PathBuf,
    /// The reason.
    pub kind: RunErrorKind,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.path.display();
        match &self.kind {
            RunErrorKind::Io(e) => write!(f, "{p}: {e}"),
            RunErrorKind::Truncated => write!(f, "{p}: truncated run file"),
            RunErrorKind::BadMagic => write!(f, "{p}: bad magic: not a zugzwang run file"),
            RunErrorKind::ForeignGame { found, expected } => {
                write!(f, "{p}: foreign run: made for {found}, expected {expected}")
            }
            RunErrorKind::NewerFormat { found } => write!(
                f,
                "{p}: newer format version {found} (this program reads version {})",
                super::header::FORMAT_VERSION
            ),
            RunErrorKind::OlderFormat { found } => {
                write!(f, "{p}: {}", HeaderError::OlderFormat { found: *found })
            }
            RunErrorKind::Header(e) => write!(f, "{p}: {e}"),
            RunErrorKind::ChecksumMismatch(why) => write!(f, "{p}: checksum mismatch: {why}"),
            RunErrorKind::BadLayout(why) => write!(f, "{p}: bad layout: {why}"),
            RunErrorKind::BadEntries(why) => write!(f, "{p}: bad entries: {why}"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            RunErrorKind::Header(e) => Some(e),
            _ => None,
        }
    }
}

impl RunError {
    fn new(path: &Path, kind: RunErrorKind) -> Self {
        RunError {
            path: path.to_path_buf(),
            kind,
        }
    }
    fn io(path: &Path, e: io::Error) -> Self {
        Self::new(path, RunErrorKind::Io(e.to_string()))
    }
}

/// How much of a run to check when opening it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verify {
    /// Header, identity and sizes only: constant time.
    Header,
    /// Also the body checksum, the sort order and the absence of contradictions: reads the file.
    Full,
}

/// Byte offset of the Bloom filter in a file of `n` entries.
pub(crate) fn bloom_offset(n: u64) -> u64 {
    (HEADER_LEN as u64 + 8 * n).div_ceil(64) * 64
}

/// An open, memory-mapped run.
pub struct Run {
    path: PathBuf,
    header: RunHeader,
    map: Mmap,
    fence: HugeWords,
    bloom: HugeWords,
}

impl fmt::Debug for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Run")
            .field("path", &self.path)
            .field("entries", &self.header.entry_count)
            .finish()
    }
}

impl Run {
    /// Opens and checks a run file; `expect`, if given, must match the file's identity.
    ///
    /// Checks, in order: length and magic, format version, header checksum, identity, file size
    /// against the header, and with [`Verify::Full`] the body checksum and entry order.
    ///
    /// # Safety
    ///
    /// The file is memory-mapped, and Rust references into the map must not change under them.
    /// The caller guarantees that, while the returned `Run` lives, no process modifies or
    /// truncates the file in place (deleting or renaming it is fine: the mapping keeps the old
    /// contents). The store's own code never does: runs are written under temporary names and
    /// are immutable once renamed. Other programs must leave a store directory alone while it
    /// is open.
    pub unsafe fn open(
        path: &Path,
        expect: Option<&Identity>,
        verify: Verify,
    ) -> Result<Run, RunError> {
        // SAFETY: forwarded to the caller (the same contract).
        unsafe { Run::open_wide(path, expect, verify, LEGACY_VALUE_BITS) }
    }

    /// [`Run::open`] for a run whose entries carry `value_bits` bits of value (an opening
    /// book's exact scores); a run of another width is refused. Wide runs hold one entry per
    /// key, and a full check asks only that the keys strictly increase.
    ///
    /// # Safety
    ///
    /// As for [`Run::open`].
    pub unsafe fn open_wide(
        path: &Path,
        expect: Option<&Identity>,
        verify: Verify,
        value_bits: u32,
    ) -> Result<Run, RunError> {
        let mut file = File::open(path).map_err(|e| RunError::io(path, e))?;
        let len = file.metadata().map_err(|e| RunError::io(path, e))?.len();
        if len < HEADER_LEN as u64 {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)
                .map_err(|e| RunError::io(path, e))?;
            return Err(header_error(path, RunHeader::decode(&bytes).unwrap_err()));
        }
        // SAFETY: forwarded to the caller (see the contract above).
        let map = unsafe { Mmap::map(&file) }.map_err(|e| RunError::io(path, e))?;
        let header = RunHeader::decode(&map).map_err(|e| header_error(path, e))?;
        if let Some(id) = expect {
            let found = Identity {
                game: header.game.clone(),
                variant: header.variant.clone(),
                hash_seed: header.hash_seed,
            };
            if &found != id {
                return Err(RunError::new(
                    path,
                    RunErrorKind::ForeignGame {
                        found: found.to_string(),
                        expected: id.to_string(),
                    },
                ));
            }
        }
        if header.value_bits != value_bits {
            return Err(RunError::new(
                path,
                RunErrorKind::BadLayout(format!(
                    "entries carry {} bits of value, expected {value_bits}",
                    header.value_bits
                )),
            ));
        }
        let n = header.entry_count;
        let bloom_words = header
            .bloom_blocks
            .checked_mul(WORDS_PER_BLOCK as u64)
            .filter(|_| (1..=7).contains(&header.bloom_hashes) && header.bloom_blocks > 0)
            .ok_or_else(|| {
                RunError::new(
                    path,
                    RunErrorKind::BadLayout("impossible Bloom filter shape".into()),
                )
            })?;
        let expected_len = n
            .checked_mul(8)
            .and_then(|_| bloom_offset(n).checked_add(bloom_words.checked_mul(8)?))
            .ok_or_else(|| {
                RunError::new(
                    path,
                    RunErrorKind::BadLayout("entry count overflows".into()),
                )
            })?;
        if len < expected_len {
            return Err(RunError::new(path, RunErrorKind::Truncated));
        }
        if len > expected_len {
            return Err(RunError::new(
                path,
                RunErrorKind::BadLayout(format!(
                    "{len} bytes, but the header describes {expected_len}"
                )),
            ));
        }
        let mut run = Run {
            path: path.to_path_buf(),
            header,
            map,
            fence: HugeWords::zeroed(0).map_err(|e| RunError::io(path, e))?,
            bloom: HugeWords::zeroed(0).map_err(|e| RunError::io(path, e))?,
        };
        if verify == Verify::Full {
            let sum = xxhash_rust::xxh3::xxh3_64(&run.map[HEADER_LEN..]);
            if sum != run.header.body_checksum {
                return Err(RunError::new(
                    path,
                    RunErrorKind::ChecksumMismatch(format!(
                        "body xxh3 is {sum:016x}, the header says {:016x}",
                        run.header.body_checksum
                    )),
                ));
            }
            run.check_entries()?;
        }
        // building the fence walks the whole file in order: let the kernel read ahead
        let _ = run.map.advise(Advice::Sequential);
        let io = |e: io::Error| RunError::io(path, e);
        let entries = run.entries();
        let mut fence = HugeWords::zeroed(entries.len().div_ceil(FENCE_STRIDE)).map_err(io)?;
        for (dst, &e) in fence
            .as_mut_slice()
            .iter_mut()
            .zip(entries.iter().step_by(FENCE_STRIDE))
        {
            *dst = e;
        }
        let mapped = run.mapped_bloom_words();
        let mut bloom = HugeWords::zeroed(mapped.len()).map_err(io)?;
        bloom.as_mut_slice().copy_from_slice(mapped);
        run.fence = fence;
        run.bloom = bloom;
        // lookups jump around: no read-ahead from now on (a hint only, so a failure is harmless)
        let _ = run.map.advise(Advice::Random);
        Ok(run)
    }

    /// The file this run was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The decoded header.
    pub fn header(&self) -> &RunHeader {
        &self.header
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.header.entry_count
    }

    /// Whether the run holds no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Size of the file in bytes.
    pub fn file_bytes(&self) -> u64 {
        self.map.len() as u64
    }

    /// The sorted entries, in place in the map.
    #[inline]
    pub fn entries(&self) -> &[u64] {
        let n = self.header.entry_count as usize;
        let bytes = &self.map[HEADER_LEN..HEADER_LEN + 8 * n];
        // SAFETY: the map starts page-aligned and HEADER_LEN is a multiple of 8, so the pointer is
        // aligned for u64; the length was checked against the file size in `open`; every bit
        // pattern is a valid u64; the slice borrows `self`, which owns the map.
        unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<u64>(), n) }
    }

    /// The Bloom filter's words in the file map.
    fn mapped_bloom_words(&self) -> &[u64] {
        let off = bloom_offset(self.header.entry_count) as usize;
        let words = self.header.bloom_blocks as usize * WORDS_PER_BLOCK;
        let bytes = &self.map[off..off + 8 * words];
        // SAFETY: as in `entries`: `off` is a multiple of 64 from a page-aligned base, the range
        // was checked in `open`, and any bits are a valid u64.
        unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<u64>(), words) }
    }

    /// The run's Bloom filter (the resident copy).
    #[inline]
    pub fn bloom(&self) -> BloomRef<'_> {
        BloomRef::new(
            self.bloom.as_slice(),
            self.header.bloom_blocks,
            self.header.bloom_hashes,
        )
        .expect("shape checked in open")
    }

    /// Bytes of memory this run keeps resident (Bloom filter and fence), besides the mapped
    /// entries the kernel pages in and out.
    pub fn resident_bytes(&self) -> u64 {
        8 * (self.bloom.len() + self.fence.len()) as u64
    }

    /// Starts loading the Bloom filter block of `key` (see [`BloomRef::prefetch`]).
    #[inline]
    pub fn prefetch(&self, key: Key) {
        BloomRef::new_unchecked(
            self.bloom.as_slice(),
            self.header.bloom_blocks,
            self.header.bloom_hashes,
        )
        .prefetch(key.get());
    }

    /// Everything this run says about `key` (nothing if the Bloom filter rejects it).
    #[inline]
    pub fn lookup(&self, key: Key) -> Knowledge {
        let bloom = BloomRef::new_unchecked(
            self.bloom.as_slice(),
            self.header.bloom_blocks,
            self.header.bloom_hashes,
        );
        // the filter hashes raw words (see `store::bloom`)
        if !bloom.may_contain(key.get()) {
            return Knowledge::NONE;
        }
        self.search_after_bloom(key)
    }

    /// The search behind a passed Bloom test, kept out of line so that the common path (a
    /// rejected key) stays short: fewer instructions per lookup let the CPU overlap more of
    /// them.
    #[inline(never)]
    fn search_after_bloom(&self, key: Key) -> Knowledge {
        self.search(key)
    }

    /// The value stored for `key` in a wide run (one entry per key; see [`Run::open_wide`]),
    /// Bloom filter first.
    pub fn lookup_wide(&self, key: Key) -> Option<u64> {
        let bits = self.header.value_bits;
        let bloom = self.bloom();
        if !bloom.may_contain(key.get()) {
            return None;
        }
        let entries = self.entries();
        let i = self.first_at_least(entries, key.get() << bits);
        let word = *entries.get(i)?;
        (word >> bits == key.get()).then_some(word & ((1u64 << bits) - 1))
    }

    /// Everything this run says about `key`, skipping the Bloom filter.
    #[inline]
    pub fn search(&self, key: Key) -> Knowledge {
        let target = Entry::first_of(key).word();
        let entries = self.entries();
        let mut i = self.first_at_least(entries, target);
        let mut k = Knowledge::NONE;
        while i < entries.len() && Entry::from_word(entries[i]).key() == key {
            k = k.with(Entry::from_word(entries[i]).value());
            i += 1;
        }
        k
    }

    /// Index of the first entry `>= target`.
    ///
    /// The fence narrows the search to one stretch of [`FENCE_STRIDE`] entries; inside it the
    /// first probe is interpolated from the stretch's end keys and the search gallops from
    /// there. Hashed keys are uniform, so the guess lands within a cache line or two of the
    /// answer (a plain binary search pays one dependent cache miss per step); clustered keys
    /// (Connect Four bitboards) only cost the galloping's logarithmic steps.
    #[inline]
    fn first_at_least(&self, entries: &[u64], target: u64) -> usize {
        let f = self.fence.as_slice().partition_point(|&e| e < target);
        if f == 0 {
            return 0;
        }
        let lo = (f - 1) * FENCE_STRIDE;
        let hi = (f * FENCE_STRIDE).min(entries.len());
        // entries[lo] < target <= entries[hi] (or hi == len)
        let lo_key = entries[lo];
        let hi_key = if hi < entries.len() {
            entries[hi]
        } else {
            entries[hi - 1].saturating_add(1)
        };
        let span = (hi - lo) as u128;
        let guess =
            lo + ((target - lo_key) as u128 * span / (hi_key - lo_key).max(1) as u128) as usize;
        let guess = guess.clamp(lo + 1, hi.max(lo + 1)).min(entries.len());
        // gallop from the guess to bracket the answer in (a, b]: entries[a] < target and
        // (b == hi or entries[b] >= target)
        let (mut a, mut b);
        if guess < hi && entries[guess] < target {
            a = guess;
            let mut step = 1;
            loop {
                let next = (a + step).min(hi);
                if next == hi || entries[next] >= target {
                    b = next;
                    break;
                }
                a = next;
                step *= 2;
            }
        } else {
            b = guess;
            let mut step = 1;
            loop {
                let next = b.saturating_sub(step).max(lo);
                if next == lo || entries[next] < target {
                    a = next;
                    break;
                }
                b = next;
                step *= 2;
            }
        }
        a += 1;
        a + entries[a..b].partition_point(|&e| e < target)
    }

    /// Checks that entries strictly increase and that no key holds contradicting or redundant
    /// values (what the writer guarantees).
    pub fn check_entries(&self) -> Result<(), RunError> {
        let e = self.entries();
        let bad = |why: String| RunError::new(&self.path, RunErrorKind::BadEntries(why));
        if let Some(i) = (1..e.len()).find(|&i| e[i] <= e[i - 1]) {
            return Err(bad(format!("entry {i} is not above entry {}", i - 1)));
        }
        let bits = self.header.value_bits;
        if bits != LEGACY_VALUE_BITS {
            return match (1..e.len()).find(|&i| e[i] >> bits == e[i - 1] >> bits) {
                Some(i) => Err(bad(format!("entries {} and {i} share a key", i - 1))),
                None => Ok(()),
            };
        }
        let key_of = |&w: &u64| Entry::from_word(w).key();
        for group in e.chunk_by(|a, b| key_of(a) == key_of(b)) {
            let k = group
                .iter()
                .fold(Knowledge::NONE, |k, &x| k.with(Entry::from_word(x).value()));
            let key = key_of(&group[0]);
            match k.normalised() {
                Err(c) => return Err(bad(format!("key {key:#x} is stored as {c}"))),
                Ok(norm) if norm != k => {
                    return Err(bad(format!("key {key:#x} has redundant values")))
                }
                Ok(_) => {}
            }
        }
        Ok(())
    }
}

fn header_error(path: &Path, e: HeaderError) -> RunError {
    let kind = match e {
        HeaderError::Truncated { .. } => RunErrorKind::Truncated,
        HeaderError::BadMagic => RunErrorKind::BadMagic,
        HeaderError::NewerFormat { found } => RunErrorKind::NewerFormat { found },
        HeaderError::OlderFormat { found } => RunErrorKind::OlderFormat { found },
        e => RunErrorKind::Header(e),
    };
    RunError::new(path, kind)
}

/// Writes a run of `entries` (strictly increasing, normalised — at most `max_count` of them) to
/// `dir/name`, atomically: temporary file, fsync, rename, fsync of the directory. Returns the
/// number of entries written. An `Err` item (a contradiction found by the merge feeding this)
/// abandons the write: the temporary file is removed and nothing appears under `name`.
pub fn write_run(
    dir: &Path,
    name: &str,
    id: &Identity,
    entries: impl IntoIterator<Item = Result<u64, RunErrorKind>>,
    max_count: u64,
) -> Result<u64, RunError> {
    write_run_wide(dir, name, id, LEGACY_VALUE_BITS, entries, max_count)
}

/// [`write_run`] for entries `key << value_bits | value` (strictly increasing, one per key):
/// an opening book's exact scores.
pub fn write_run_wide(
    dir: &Path,
    name: &str,
    id: &Identity,
    value_bits: u32,
    entries: impl IntoIterator<Item = Result<u64, RunErrorKind>>,
    max_count: u64,
) -> Result<u64, RunError> {
    let final_path = dir.join(name);
    let tmp_path = dir.join(format!(".tmp-{}-{name}", std::process::id()));
    let result = write_tmp(&tmp_path, id, value_bits, entries, max_count)
        .map_err(|mut e| {
            match &mut e.kind {
                // about the data, not the temporary file
                RunErrorKind::BadEntries(_) => e.path = dir.to_path_buf(),
                // a full disk: name the run that could not be, and say nothing was left behind
                RunErrorKind::Io(why) => {
                    e.path = final_path.clone();
                    *why = format!("not written ({why}); the directory is unchanged");
                }
                _ => {}
            }
            e
        })
        .and_then(|n| {
            fs::rename(&tmp_path, &final_path).map_err(|e| RunError::io(&final_path, e))?;
            sync_dir(dir)?;
            Ok(n)
        });
    if result.is_err() {
        let _ = fs::remove_file(&tmp_path);
    }
    result
}

/// Flushes a directory's entries (the rename) to disk.
pub fn sync_dir(dir: &Path) -> Result<(), RunError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| RunError::io(dir, e))
}

fn write_tmp(
    path: &Path,
    id: &Identity,
    value_bits: u32,
    entries: impl IntoIterator<Item = Result<u64, RunErrorKind>>,
    max_count: u64,
) -> Result<u64, RunError> {
    let err = |e: io::Error| RunError::io(path, e);
    let file = File::options()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(err)?;
    let mut out = io::BufWriter::with_capacity(1 << 20, file);
    out.write_all(&[0u8; HEADER_LEN]).map_err(err)?;
    let mut bloom = BloomBuilder::for_keys(max_count);
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut chunk: Vec<u8> = Vec::with_capacity(1 << 16);
    let mut n = 0u64;
    let mut prev: Option<u64> = None;
    for e in entries {
        let e = e.map_err(|kind| RunError::new(path, kind))?;
        if prev.is_some_and(|p| p >= e) || n >= max_count {
            return Err(RunError::new(
                path,
                RunErrorKind::BadEntries(format!(
                    "writer given unsorted entries or more than {max_count} (a bug)"
                )),
            ));
        }
        prev = Some(e);
        // the filter hashes the key's raw word (see `store::bloom`)
        bloom.insert(e >> value_bits);
        chunk.extend_from_slice(&e.to_le_bytes());
        n += 1;
        if chunk.len() >= 1 << 16 {
            hasher.update(&chunk);
            out.write_all(&chunk).map_err(err)?;
            chunk.clear();
        }
    }
    let pad = (bloom_offset(n) - (HEADER_LEN as u64 + 8 * n)) as usize;
    chunk.resize(chunk.len() + pad, 0);
    hasher.update(&chunk);
    out.write_all(&chunk).map_err(err)?;
    for block in bloom.words().chunks(1 << 13) {
        chunk.clear();
        for w in block {
            chunk.extend_from_slice(&w.to_le_bytes());
        }
        hasher.update(&chunk);
        out.write_all(&chunk).map_err(err)?;
    }
    let header = RunHeader::new(
        &id.game,
        &id.variant,
        id.hash_seed,
        n,
        bloom.blocks(),
        bloom.hashes(),
        hasher.digest(),
    )
    .with_value_bits(value_bits);
    let bytes = header
        .encode()
        .map_err(|e| RunError::new(path, RunErrorKind::Header(e)))?;
    let mut file = out.into_inner().map_err(|e| err(e.into_error()))?;
    file.seek(SeekFrom::Start(0)).map_err(err)?;
    file.write_all(&bytes).map_err(err)?;
    file.sync_all().map_err(err)?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::entry::Value;

    fn id(game: &str) -> Identity {
        Identity {
            game: game.into(),
            variant: "6x5".into(),
            hash_seed: 0,
        }
    }

    /// A run of 10,000 entries in a fresh directory.
    fn sample(dir: &Path) -> PathBuf {
        let entries: Vec<u64> = (0..10_000u64)
            .map(|k| Entry::new(Key::new(k * 3), Value::from_code(k)).word())
            .collect();
        let n = entries.len() as u64;
        write_run(
            dir,
            "run-0000000001.zzr",
            &id("connect4"),
            entries.into_iter().map(Ok),
            n,
        )
        .unwrap();
        dir.join("run-0000000001.zzr")
    }

    fn open(path: &Path, game: &str) -> Result<Run, RunErrorKind> {
        // SAFETY: test files in a private temporary directory.
        unsafe { Run::open(path, Some(&id(game)), Verify::Full) }.map_err(|e| {
            assert_eq!(e.path, path, "the error names the file");
            assert!(!e.to_string().contains('\n'), "one line");
            e.kind
        })
    }

    #[test]
    fn writes_and_finds_every_entry() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(dir.path());
        let run = open(&path, "connect4").unwrap();
        assert_eq!(run.len(), 10_000);
        for k in 0..10_000u64 {
            let got = run.lookup(Key::new(k * 3));
            assert_eq!(got, Knowledge::NONE.with(Value::from_code(k)));
            assert!(run.lookup(Key::new(k * 3 + 1)).is_empty());
        }
        // no temporary file is left behind
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
    }

    /// The interpolating search against a sorted set, on uniform and on badly clustered keys.
    #[test]
    fn search_finds_exactly_the_stored_keys() {
        let dir = tempfile::tempdir().unwrap();
        let mut x = 0x1234_5678u64;
        for (name, clustered) in [("run-0000000001.zzr", false), ("run-0000000002.zzr", true)] {
            let mut keys = std::collections::BTreeSet::new();
            let mut key = 5u64;
            while keys.len() < 60_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                key += if clustered && x % 100 == 0 {
                    x >> 20
                } else {
                    2 + x % 1000
                };
                keys.insert(key);
            }
            let entries: Vec<u64> = keys
                .iter()
                .map(|&k| Entry::new(Key::new(k), Value::Win).word())
                .collect();
            let n = entries.len() as u64;
            write_run(
                dir.path(),
                name,
                &id("connect4"),
                entries.into_iter().map(Ok),
                n,
            )
            .unwrap();
            let run = open(&dir.path().join(name), "connect4").unwrap();
            let last = *keys.iter().next_back().unwrap();
            for probe in (0..2000)
                .map(|i| i * 7)
                .chain(keys.iter().flat_map(|&k| [k - 1, k, k + 1]))
                .chain([last + 1, Key::MAX.get()])
            {
                let want = keys.contains(&probe);
                let probe_key = Key::new(probe);
                assert_eq!(!run.search(probe_key).is_empty(), want, "key {probe}");
                if want {
                    assert!(run.bloom().may_contain(probe));
                }
            }
        }
    }

    #[test]
    fn every_kind_of_damage_gives_its_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(dir.path());
        let good = fs::read(&path).unwrap();

        // a flipped byte in the body, in the Bloom filter, in the header
        for at in [HEADER_LEN + 8 * 5000 + 3, good.len() - 7] {
            let mut b = good.clone();
            b[at] ^= 0x10;
            fs::write(&path, &b).unwrap();
            assert!(matches!(
                open(&path, "connect4"),
                Err(RunErrorKind::ChecksumMismatch(_))
            ));
        }
        for at in [40, 200] {
            let mut b = good.clone();
            b[at] ^= 0x01;
            fs::write(&path, &b).unwrap();
            assert!(matches!(
                open(&path, "connect4"),
                Err(RunErrorKind::Header(HeaderError::Checksum { .. }))
            ));
        }

        // truncation: anywhere, including inside the header
        for len in [good.len() - 1, HEADER_LEN + 100, 100, 0] {
            fs::write(&path, &good[..len]).unwrap();
            let got = open(&path, "connect4");
            assert!(
                matches!(got, Err(RunErrorKind::Truncated)),
                "length {len}: {got:?}"
            );
        }
        // bytes appended
        let mut b = good.clone();
        b.extend_from_slice(&[0; 64]);
        fs::write(&path, &b).unwrap();
        assert!(matches!(
            open(&path, "connect4"),
            Err(RunErrorKind::BadLayout(_))
        ));

        // wrong magic
        let mut b = good.clone();
        b[..4].copy_from_slice(b"JUNK");
        fs::write(&path, &b).unwrap();
        assert!(matches!(
            open(&path, "connect4"),
            Err(RunErrorKind::BadMagic)
        ));

        // foreign game
        fs::write(&path, &good).unwrap();
        assert!(matches!(
            open(&path, "sogo"),
            Err(RunErrorKind::ForeignGame { .. })
        ));

        // newer format
        let mut h = RunHeader::decode(&good).unwrap();
        h.version += 1;
        let mut b = good.clone();
        b[..HEADER_LEN].copy_from_slice(&h.encode().unwrap());
        fs::write(&path, &b).unwrap();
        assert!(matches!(
            open(&path, "connect4"),
            Err(RunErrorKind::NewerFormat { found }) if found == h.version
        ));

        // and the intact file still opens
        fs::write(&path, &good).unwrap();
        assert!(open(&path, "connect4").is_ok());
    }

    #[test]
    fn a_contradiction_fed_to_the_writer_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let items = vec![
            Ok(Entry::new(Key::new(1), Value::Win).word()),
            Err(RunErrorKind::BadEntries("conflict".into())),
        ];
        let err =
            write_run(dir.path(), "run-0000000001.zzr", &id("connect4"), items, 2).unwrap_err();
        assert_eq!(err.path, dir.path());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// A run written by format 2 (before the value width was in the header) still opens, passes
    /// the full check and answers every lookup as before.
    #[test]
    fn a_format_2_run_still_reads() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(dir.path());
        let mut bytes = fs::read(&path).unwrap();
        let h = RunHeader::decode(&bytes).unwrap();
        bytes[..HEADER_LEN].copy_from_slice(&crate::store::header::tests::encode_v2(&h));
        fs::write(&path, &bytes).unwrap();
        let run = open(&path, "connect4").unwrap();
        assert_eq!(run.header().version, 2);
        for k in 0..10_000u64 {
            let got = run.lookup(Key::new(k * 3));
            assert_eq!(got, Knowledge::NONE.with(Value::from_code(k)));
        }
        // and it is no book: opening it as one is refused
        let wide = unsafe { Run::open_wide(&path, Some(&id("connect4")), Verify::Full, 8) };
        assert!(matches!(
            wide,
            Err(RunError {
                kind: RunErrorKind::BadLayout(_),
                ..
            })
        ));
    }

    /// Wide entries: one value of 8 bits per key, found exactly; a 2-bit open refuses them;
    /// two entries of one key are refused by the full check.
    #[test]
    fn wide_runs_store_one_value_per_key() {
        let dir = tempfile::tempdir().unwrap();
        let words: Vec<u64> = (0..5_000u64)
            .map(|k| (k * 5 + 2) << 8 | (k % 251))
            .collect();
        write_run_wide(
            dir.path(),
            "book.zzr",
            &id("connect4"),
            8,
            words.iter().map(|&w| Ok(w)),
            words.len() as u64,
        )
        .unwrap();
        let path = dir.path().join("book.zzr");
        // SAFETY: a private temporary file.
        let run = unsafe { Run::open_wide(&path, Some(&id("connect4")), Verify::Full, 8) }.unwrap();
        for k in 0..5_000u64 {
            assert_eq!(run.lookup_wide(Key::new(k * 5 + 2)), Some(k % 251));
            assert_eq!(run.lookup_wide(Key::new(k * 5 + 3)), None);
        }
        assert!(matches!(
            open(&path, "connect4"),
            Err(RunErrorKind::BadLayout(_))
        ));
        let twice = [3u64 << 8 | 1, 3 << 8 | 2];
        write_run_wide(
            dir.path(),
            "twice.zzr",
            &id("connect4"),
            8,
            twice.iter().map(|&w| Ok(w)),
            2,
        )
        .unwrap();
        let got = unsafe {
            Run::open_wide(
                &dir.path().join("twice.zzr"),
                Some(&id("connect4")),
                Verify::Full,
                8,
            )
        };
        assert!(matches!(
            got,
            Err(RunError {
                kind: RunErrorKind::BadEntries(_),
                ..
            })
        ));
    }

    /// A small run (40 entries: header, body, padding, Bloom filter; 1 KiB in all): one flipped
    /// bit at any offset makes a full open fail with a one-line error naming the file, and the
    /// file is left as it is.
    #[test]
    fn a_flip_at_every_offset_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let entries: Vec<u64> = (0..40u64)
            .map(|k| Entry::new(Key::new(k * 7 + 1), Value::from_code(k)).word())
            .collect();
        write_run(
            dir.path(),
            "run-0000000001.zzr",
            &id("connect4"),
            entries.into_iter().map(Ok),
            40,
        )
        .unwrap();
        let path = dir.path().join("run-0000000001.zzr");
        let good = fs::read(&path).unwrap();
        assert!(good.len() > HEADER_LEN + 40 * 8, "{}", good.len());
        for at in 0..good.len() {
            let mut b = good.clone();
            b[at] ^= 1 << (at % 8);
            fs::write(&path, &b).unwrap();
            // `open` asserts that the error names the file and is one line
            let got = open(&path, "connect4");
            assert!(got.is_err(), "a flip at byte {at} went unnoticed");
            assert_eq!(
                fs::read(&path).unwrap(),
                b,
                "byte {at}: the file is untouched"
            );
        }
        fs::write(&path, &good).unwrap();
        assert!(open(&path, "connect4").is_ok());
    }
}
