//! The fixed-size header at the start of every run file — and the only place in the crate that
//! uses bincode.
//!
//! bincode is pinned at `=2.0.1`: the 3.x line is an empty tombstone and 2.0.1 is frozen (flagged
//! unmaintained by RUSTSEC-2025-0141). Keeping every use behind [`RunHeader::encode`] and
//! [`RunHeader::decode`] makes replacing it a one-file change; the entry body and the Bloom filter
//! are raw little-endian words and need no serialiser.
//!
//! Layout: [`HEADER_LEN`] bytes. The bincode encoding (fixed-width little-endian integers) of
//! [`RunHeader`] comes first — an 8-byte magic, then the `u32` format version, so that both can
//! be checked before anything else is decoded — followed by an xxh3 of those bytes (so a flipped
//! byte in the header is caught, not just one in the body), and zero padding.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Size of the header region; the body starts here (a multiple of 64, so the body and the
/// Bloom filter behind it stay aligned in the memory map).
pub const HEADER_LEN: usize = 256;
/// First bytes of every run file.
pub const MAGIC: [u8; 8] = *b"ZZSTORE\x1a";
/// The format this code writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;
/// Longest game or variant name a header holds.
pub const MAX_NAME: usize = 64;

/// What a run header records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunHeader {
    magic: [u8; 8],
    /// Format version of the file.
    pub version: u32,
    /// Game the keys belong to (e.g. `connect4`).
    pub game: String,
    /// Board size or rule variant (e.g. `7x6`, `sogo-g`).
    pub variant: String,
    /// Seed of the key hash (0 where keys are exact).
    pub hash_seed: u64,
    /// Number of `u64` entries in the body.
    pub entry_count: u64,
    /// Blocks (of 64 bytes) in the Bloom filter behind the entries.
    pub bloom_blocks: u64,
    /// Bits set per key in the Bloom filter.
    pub bloom_hashes: u32,
    /// xxh3-64 of everything after the header: entries, padding and Bloom filter.
    pub body_checksum: u64,
}

/// Why a header was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// Fewer than [`HEADER_LEN`] bytes.
    Truncated,
    /// The first bytes are not [`MAGIC`]: not a run file.
    BadMagic,
    /// Written by a newer version of the format.
    NewerFormat {
        /// Version in the file.
        found: u32,
    },
    /// Magic and version are right but the rest does not decode or fails its checksum.
    Corrupt(String),
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::Truncated => {
                write!(f, "truncated: shorter than its {HEADER_LEN}-byte header")
            }
            HeaderError::BadMagic => f.write_str("bad magic: not a zugzwang run file"),
            HeaderError::NewerFormat { found } => write!(
                f,
                "newer format: version {found}, this program reads up to {FORMAT_VERSION}"
            ),
            HeaderError::Corrupt(why) => write!(f, "checksum mismatch in header: {why}"),
        }
    }
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_little_endian()
        // a damaged length field must not make the decoder allocate gigabytes
        .with_limit::<HEADER_LEN>()
}

#[derive(Deserialize)]
struct Prefix {
    magic: [u8; 8],
    version: u32,
}

impl RunHeader {
    /// A current-version header. Names longer than [`MAX_NAME`] bytes are refused by
    /// [`RunHeader::encode`].
    pub fn new(
        game: &str,
        variant: &str,
        hash_seed: u64,
        entry_count: u64,
        bloom_blocks: u64,
        bloom_hashes: u32,
        body_checksum: u64,
    ) -> Self {
        RunHeader {
            magic: MAGIC,
            version: FORMAT_VERSION,
            game: game.to_string(),
            variant: variant.to_string(),
            hash_seed,
            entry_count,
            bloom_blocks,
            bloom_hashes,
            body_checksum,
        }
    }

    /// The [`HEADER_LEN`] bytes of this header. Err if a name is too long to fit.
    pub fn encode(&self) -> Result<[u8; HEADER_LEN], String> {
        if self.game.len() > MAX_NAME || self.variant.len() > MAX_NAME {
            return Err(format!(
                "game or variant name longer than {MAX_NAME} bytes: '{}' '{}'",
                self.game, self.variant
            ));
        }
        let body = bincode::serde::encode_to_vec(self, config()).map_err(|e| e.to_string())?;
        let mut out = [0u8; HEADER_LEN];
        out[..body.len()].copy_from_slice(&body);
        let check = xxhash_rust::xxh3::xxh3_64(&body);
        out[body.len()..body.len() + 8].copy_from_slice(&check.to_le_bytes());
        Ok(out)
    }

    /// Reads a header from the start of a file's bytes, checking in this order: length, magic,
    /// version, then decoding and the header's own checksum.
    pub fn decode(bytes: &[u8]) -> Result<RunHeader, HeaderError> {
        // what there is of the magic must match; a short file that starts right is truncated
        let m = bytes.len().min(MAGIC.len());
        if bytes[..m] != MAGIC[..m] {
            return Err(HeaderError::BadMagic);
        }
        if bytes.len() < HEADER_LEN {
            return Err(HeaderError::Truncated);
        }
        let bytes = &bytes[..HEADER_LEN];
        let (prefix, _): (Prefix, usize) = bincode::serde::decode_from_slice(bytes, config())
            .map_err(|e| HeaderError::Corrupt(e.to_string()))?;
        debug_assert_eq!(prefix.magic, MAGIC);
        if prefix.version > FORMAT_VERSION {
            return Err(HeaderError::NewerFormat {
                found: prefix.version,
            });
        }
        if prefix.version != FORMAT_VERSION {
            return Err(HeaderError::Corrupt(format!(
                "unknown format version {}",
                prefix.version
            )));
        }
        let (header, used): (RunHeader, usize) = bincode::serde::decode_from_slice(bytes, config())
            .map_err(|e| HeaderError::Corrupt(e.to_string()))?;
        if used + 8 > HEADER_LEN {
            return Err(HeaderError::Corrupt("header overruns its region".into()));
        }
        let stored = u64::from_le_bytes(bytes[used..used + 8].try_into().expect("8 bytes"));
        if stored != xxhash_rust::xxh3::xxh3_64(&bytes[..used]) {
            return Err(HeaderError::Corrupt(
                "header bytes do not match their xxh3".into(),
            ));
        }
        Ok(header)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> RunHeader {
        RunHeader::new("connect4", "7x6", 0, 12345, 17, 7, 0xdead_beef)
    }

    #[test]
    fn round_trips() {
        let h = sample();
        let bytes = h.encode().unwrap();
        assert_eq!(RunHeader::decode(&bytes), Ok(h));
    }

    #[test]
    fn each_damage_gives_its_error() {
        let bytes = sample().encode().unwrap();
        assert_eq!(
            RunHeader::decode(&bytes[..100]),
            Err(HeaderError::Truncated)
        );
        assert_eq!(RunHeader::decode(&bytes[..3]), Err(HeaderError::Truncated));
        assert_eq!(RunHeader::decode(&[]), Err(HeaderError::Truncated));
        assert_eq!(RunHeader::decode(b"junk\n"), Err(HeaderError::BadMagic));
        let mut bad = bytes;
        bad[0] ^= 1;
        assert_eq!(RunHeader::decode(&bad), Err(HeaderError::BadMagic));
        let mut newer = sample();
        newer.version = FORMAT_VERSION + 1;
        assert_eq!(
            RunHeader::decode(&newer.encode().unwrap()),
            Err(HeaderError::NewerFormat {
                found: FORMAT_VERSION + 1
            })
        );
        // every single flipped byte in the used part after the version is caught
        let used = bincode::serde::encode_to_vec(sample(), config())
            .unwrap()
            .len()
            + 8;
        for i in 12..used {
            let mut b = bytes;
            b[i] ^= 0x40;
            assert!(
                matches!(RunHeader::decode(&b), Err(HeaderError::Corrupt(_))),
                "byte {i}"
            );
        }
    }

    #[test]
    fn long_names_are_refused() {
        let h = RunHeader::new(&"x".repeat(65), "7x6", 0, 0, 1, 7, 0);
        assert!(h.encode().is_err());
    }
}
