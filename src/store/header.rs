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
//! be checked before anything else is decoded — then zeros, and in the last 8 bytes an xxh3 of
//! everything before them. The checksum covers the padding too, and the padding must be zero, so
//! every one of the 256 bytes is checked: a flipped byte anywhere in a run file is refused, never
//! read (format 1 covered only the encoded fields, and flips in its padding went unnoticed).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// Size of the header region; the body starts here (a multiple of 64, so the body and the
/// Bloom filter behind it stay aligned in the memory map).
pub const HEADER_LEN: usize = 256;
/// Where the header's own checksum sits: its last 8 bytes.
pub const CHECKSUM_AT: usize = HEADER_LEN - 8;
/// First bytes of every run file.
pub const MAGIC: [u8; 8] = *b"ZZSTORE\x1a";
/// The format this code writes.
pub const FORMAT_VERSION: u32 = 3;
/// The oldest format this code reads (format 2: no value width, always 2-bit values).
pub const OLDEST_READ: u32 = 2;
/// The value width of every format-2 file: the store's 2-bit bounds.
pub const LEGACY_VALUE_BITS: u32 = 2;
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
    /// Bits of value in the low end of every entry word (the key is the word shifted right by
    /// this many bits): 2 for the store's bounds, wider for a book's exact scores.
    pub value_bits: u32,
}

/// A format-2 header: [`RunHeader`] without the value width. Decoded only, to read old runs
/// (and encoded by the tests that make one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct RunHeaderV2 {
    magic: [u8; 8],
    version: u32,
    game: String,
    variant: String,
    hash_seed: u64,
    entry_count: u64,
    bloom_blocks: u64,
    bloom_hashes: u32,
    body_checksum: u64,
}

impl From<RunHeaderV2> for RunHeader {
    fn from(h: RunHeaderV2) -> RunHeader {
        RunHeader {
            magic: h.magic,
            version: h.version,
            game: h.game,
            variant: h.variant,
            hash_seed: h.hash_seed,
            entry_count: h.entry_count,
            bloom_blocks: h.bloom_blocks,
            bloom_hashes: h.bloom_hashes,
            body_checksum: h.body_checksum,
            value_bits: LEGACY_VALUE_BITS,
        }
    }
}

/// Why a header was refused or could not be written. Displays as one line.
#[derive(Clone, Debug)]
pub enum HeaderError {
    /// Fewer than [`HEADER_LEN`] bytes.
    Truncated {
        /// Bytes there are.
        len: usize,
    },
    /// The first bytes are not [`MAGIC`]: not a run file.
    BadMagic,
    /// Written by a newer version of the format.
    NewerFormat {
        /// Version in the file.
        found: u32,
    },
    /// Written by an older version of the format, which this program no longer reads.
    OlderFormat {
        /// Version in the file.
        found: u32,
    },
    /// The header's bytes do not match the checksum in its last 8 bytes.
    Checksum {
        /// The checksum the header holds.
        stored: u64,
        /// The checksum of its bytes.
        computed: u64,
    },
    /// A byte between the encoded fields and the checksum is not zero.
    NonZeroPadding {
        /// Offset of the first such byte.
        at: usize,
    },
    /// The fields do not decode (bincode's reason is the [`source`](std::error::Error::source)).
    Decode(Arc<bincode::error::DecodeError>),
    /// The fields could not be encoded.
    Encode(Arc<bincode::error::EncodeError>),
    /// A game or variant name longer than [`MAX_NAME`] bytes.
    NameTooLong {
        /// The name.
        name: String,
    },
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::Truncated { len } => {
                write!(f, "truncated: {len} bytes, shorter than its {HEADER_LEN}-byte header")
            }
            HeaderError::BadMagic => f.write_str("bad magic: not a zugzwang run file"),
            HeaderError::NewerFormat { found } => write!(
                f,
                "newer format: version {found}, this program reads versions {OLDEST_READ} to {FORMAT_VERSION}"
            ),
            HeaderError::OlderFormat { found } => write!(
                f,
                "older format: version {found}, this program reads versions {OLDEST_READ} to {FORMAT_VERSION} only (rebuild the table: move the directory away and solve again)"
            ),
            HeaderError::Checksum { stored, computed } => write!(
                f,
                "header checksum mismatch: the header says {stored:016x}, its bytes give {computed:016x}"
            ),
            HeaderError::NonZeroPadding { at } => {
                write!(f, "header padding is not zero at byte {at}")
            }
            // bincode's messages are one line; newlines are flattened all the same
            HeaderError::Decode(e) => write!(
                f,
                "header fields do not decode: {}",
                e.to_string().replace('\n', " ")
            ),
            HeaderError::Encode(e) => write!(
                f,
                "header fields do not encode: {}",
                e.to_string().replace('\n', " ")
            ),
            HeaderError::NameTooLong { name } => {
                write!(f, "game or variant name longer than {MAX_NAME} bytes: '{name}'")
            }
        }
    }
}

impl std::error::Error for HeaderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HeaderError::Decode(e) => Some(e.as_ref()),
            HeaderError::Encode(e) => Some(e.as_ref()),
            _ => None,
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

impl RunHeader {
    /// A current-version header of a run of 2-bit values (see [`RunHeader::with_value_bits`]).
    /// Names longer than [`MAX_NAME`] bytes are refused by [`RunHeader::encode`].
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
            value_bits: LEGACY_VALUE_BITS,
        }
    }

    /// The same header for entries carrying `bits` bits of value.
    pub fn with_value_bits(mut self, bits: u32) -> Self {
        self.value_bits = bits;
        self
    }

    /// The [`HEADER_LEN`] bytes of this header. Err if a name is too long to fit.
    pub fn encode(&self) -> Result<[u8; HEADER_LEN], HeaderError> {
        for name in [&self.game, &self.variant] {
            if name.len() > MAX_NAME {
                return Err(HeaderError::NameTooLong { name: name.clone() });
            }
        }
        let mut out = [0u8; HEADER_LEN];
        // fields that would run into the checksum fail here, as an encode error
        bincode::serde::encode_into_slice(self, &mut out[..CHECKSUM_AT], config())
            .map_err(|e| HeaderError::Encode(Arc::new(e)))?;
        let check = xxhash_rust::xxh3::xxh3_64(&out[..CHECKSUM_AT]);
        out[CHECKSUM_AT..].copy_from_slice(&check.to_le_bytes());
        Ok(out)
    }

    /// Reads a header from the start of a file's bytes, checking in this order: magic, length,
    /// version, the checksum over all [`CHECKSUM_AT`] bytes before it, the fields, and that the
    /// padding between the fields and the checksum is zero.
    pub fn decode(bytes: &[u8]) -> Result<RunHeader, HeaderError> {
        // what there is of the magic must match; a short file that starts right is truncated
        let m = bytes.len().min(MAGIC.len());
        if bytes[..m] != MAGIC[..m] {
            return Err(HeaderError::BadMagic);
        }
        if bytes.len() < HEADER_LEN {
            return Err(HeaderError::Truncated { len: bytes.len() });
        }
        let bytes = &bytes[..HEADER_LEN];
        // the version is the fixed-width u32 right after the magic, in every format
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version > FORMAT_VERSION {
            return Err(HeaderError::NewerFormat { found: version });
        }
        if version < OLDEST_READ {
            return Err(HeaderError::OlderFormat { found: version });
        }
        let stored = u64::from_le_bytes(bytes[CHECKSUM_AT..].try_into().expect("8 bytes"));
        let computed = xxhash_rust::xxh3::xxh3_64(&bytes[..CHECKSUM_AT]);
        if stored != computed {
            return Err(HeaderError::Checksum { stored, computed });
        }
        let fields = &bytes[..CHECKSUM_AT];
        let decode_err = |e| HeaderError::Decode(Arc::new(e));
        let (header, used): (RunHeader, usize) = if version == 2 {
            let (old, used): (RunHeaderV2, usize) =
                bincode::serde::decode_from_slice(fields, config()).map_err(decode_err)?;
            (old.into(), used)
        } else {
            bincode::serde::decode_from_slice(fields, config()).map_err(decode_err)?
        };
        if let Some(i) = bytes[used..CHECKSUM_AT].iter().position(|&b| b != 0) {
            return Err(HeaderError::NonZeroPadding { at: used + i });
        }
        Ok(header)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::error::Error;

    fn sample() -> RunHeader {
        RunHeader::new("connect4", "7x6", 0, 12345, 17, 7, 0xdead_beef)
    }

    #[test]
    fn round_trips() {
        let h = sample();
        let bytes = h.encode().unwrap();
        assert_eq!(RunHeader::decode(&bytes).unwrap(), h);
    }

    #[test]
    fn each_damage_gives_its_error() {
        let bytes = sample().encode().unwrap();
        for len in [100, 3, 0] {
            assert!(matches!(
                RunHeader::decode(&bytes[..len]),
                Err(HeaderError::Truncated { len: l }) if l == len
            ));
        }
        assert!(matches!(
            RunHeader::decode(b"junk\n"),
            Err(HeaderError::BadMagic)
        ));
        let mut bad = bytes;
        bad[0] ^= 1;
        assert!(matches!(
            RunHeader::decode(&bad),
            Err(HeaderError::BadMagic)
        ));
        let mut newer = sample();
        newer.version = FORMAT_VERSION + 1;
        assert!(matches!(
            RunHeader::decode(&newer.encode().unwrap()),
            Err(HeaderError::NewerFormat { found }) if found == FORMAT_VERSION + 1
        ));
    }

    /// Every byte of the header is covered: one flipped bit at any of the 256 offsets is refused
    /// (by the magic, the version or the checksum), with a one-line reason.
    #[test]
    fn a_flip_at_every_offset_is_refused() {
        let bytes = sample().encode().unwrap();
        for at in 0..HEADER_LEN {
            for bit in [0x01u8, 0x80] {
                let mut b = bytes;
                b[at] ^= bit;
                let e = RunHeader::decode(&b).expect_err(&format!("byte {at}"));
                assert!(!e.to_string().contains('\n'), "{e}");
            }
        }
    }

    /// A header whose padding is not zero but whose checksum matches (only a writer bug could make
    /// one) is refused too: the padding is part of the format.
    #[test]
    fn padding_must_be_zero() {
        let mut b = sample().encode().unwrap();
        b[CHECKSUM_AT - 1] = 7;
        let sum = xxhash_rust::xxh3::xxh3_64(&b[..CHECKSUM_AT]);
        b[CHECKSUM_AT..].copy_from_slice(&sum.to_le_bytes());
        assert!(matches!(
            RunHeader::decode(&b),
            Err(HeaderError::NonZeroPadding { at }) if at == CHECKSUM_AT - 1
        ));
    }

    /// A format-1 file (its checksum right after the fields, padding unchecked) is refused with
    /// one line saying what to do.
    #[test]
    fn an_older_format_is_refused_with_one_line() {
        let mut old = sample();
        old.version = 1;
        let body = bincode::serde::encode_to_vec(&old, config()).unwrap();
        let mut b = [0u8; HEADER_LEN];
        b[..body.len()].copy_from_slice(&body);
        let sum = xxhash_rust::xxh3::xxh3_64(&body);
        b[body.len()..body.len() + 8].copy_from_slice(&sum.to_le_bytes());
        let e = RunHeader::decode(&b).unwrap_err();
        assert!(matches!(e, HeaderError::OlderFormat { found: 1 }), "{e}");
        let line = e.to_string();
        assert!(line.contains("version 1") && !line.contains('\n'), "{line}");
    }

    /// The bytes of `h` as format 2 wrote them (no value width; the checksum and padding rules
    /// of today).
    pub(crate) fn encode_v2(h: &RunHeader) -> [u8; HEADER_LEN] {
        let old = RunHeaderV2 {
            magic: MAGIC,
            version: 2,
            game: h.game.clone(),
            variant: h.variant.clone(),
            hash_seed: h.hash_seed,
            entry_count: h.entry_count,
            bloom_blocks: h.bloom_blocks,
            bloom_hashes: h.bloom_hashes,
            body_checksum: h.body_checksum,
        };
        let mut out = [0u8; HEADER_LEN];
        bincode::serde::encode_into_slice(&old, &mut out[..CHECKSUM_AT], config()).unwrap();
        let check = xxhash_rust::xxh3::xxh3_64(&out[..CHECKSUM_AT]);
        out[CHECKSUM_AT..].copy_from_slice(&check.to_le_bytes());
        out
    }

    /// A format-2 header (written before the value width existed) reads as a 2-bit run with
    /// every other field as it was; a wide format-3 header keeps its width.
    #[test]
    fn format_2_still_reads_and_the_width_round_trips() {
        let h = sample();
        let old = RunHeader::decode(&encode_v2(&h)).unwrap();
        assert_eq!(old.version, 2);
        assert_eq!(old.value_bits, LEGACY_VALUE_BITS);
        assert_eq!(
            RunHeader {
                version: FORMAT_VERSION,
                ..old
            },
            h
        );
        let wide = sample().with_value_bits(8);
        let back = RunHeader::decode(&wide.encode().unwrap()).unwrap();
        assert_eq!(back.value_bits, 8);
        assert_eq!(back, wide);
    }

    /// Fields that pass the checksum but do not decode keep bincode's error as the source.
    #[test]
    fn a_decode_failure_keeps_its_source() {
        let mut b = sample().encode().unwrap();
        // the game name's length (u64 after magic and version) claims more than the header holds
        b[12..20].copy_from_slice(&1000u64.to_le_bytes());
        let sum = xxhash_rust::xxh3::xxh3_64(&b[..CHECKSUM_AT]);
        b[CHECKSUM_AT..].copy_from_slice(&sum.to_le_bytes());
        let e = RunHeader::decode(&b).unwrap_err();
        assert!(matches!(e, HeaderError::Decode(_)), "{e}");
        assert!(e.source().is_some());
        assert!(!e.to_string().contains('\n'), "{e}");
    }

    #[test]
    fn long_names_are_refused() {
        let h = RunHeader::new(&"x".repeat(65), "7x6", 0, 0, 1, 7, 0);
        assert!(matches!(h.encode(), Err(HeaderError::NameTooLong { .. })));
    }
}
