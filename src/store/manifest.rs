//! `DIR/manifest.json`: what a store directory is for.
//!
//! Human-readable JSON, and covered by a checksum like every other byte of the store: the last
//! field, `checksum`, is the xxh3-64 (16 hex digits) of the whole file as written with those 16
//! digits set to `0`. Any changed byte — a value, a key, white space, the checksum itself — is
//! refused with one line, so a damaged manifest can never make a store read runs as another game
//! or size. (To edit a manifest by hand, which nothing needs, recompute the checksum.)

use super::error::StoreError;
use super::run_file::{sync_dir, Identity};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::Path;

/// Name of the manifest file in a store directory.
pub const MANIFEST: &str = "manifest.json";
/// Version of the manifest format: 2 added the checksum.
pub const MANIFEST_FORMAT: u32 = 2;

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

/// The file's form: the manifest's fields, then the checksum.
#[derive(Serialize, Deserialize)]
struct OnDisk {
    #[serde(flatten)]
    manifest: Manifest,
    checksum: String,
}

/// The checksum field as the writer spells it, with `digits` as the value.
fn checksum_field(digits: &str) -> String {
    format!("\"checksum\": \"{digits}\"")
}

const ZEROS: &str = "0000000000000000";

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

    /// The file's text: pretty JSON ending in the checksum field.
    pub fn to_text(&self) -> String {
        let on_disk = OnDisk {
            manifest: self.clone(),
            checksum: ZEROS.into(),
        };
        let text = serde_json::to_string_pretty(&on_disk).expect("serialisable") + "\n";
        let sum = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text.as_bytes()));
        text.replacen(&checksum_field(ZEROS), &checksum_field(&sum), 1)
    }

    /// Parses and checks a manifest file's bytes. `Err` is one line (without the file name).
    pub fn from_bytes(bytes: &[u8]) -> Result<Manifest, String> {
        let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}"))?;
        let flat = |e: serde_json::Error| e.to_string().replace('\n', " ");
        // the format first: another format may checksum differently
        let m: Manifest = serde_json::from_str(text).map_err(flat)?;
        if m.format > MANIFEST_FORMAT {
            return Err(format!(
                "newer manifest format {} (this program reads format {MANIFEST_FORMAT})",
                m.format
            ));
        }
        if m.format < MANIFEST_FORMAT {
            return Err(format!(
                "older manifest format {} (this program reads format {MANIFEST_FORMAT} only; rebuild the table: move the directory away and solve again)",
                m.format
            ));
        }
        let on_disk: OnDisk = serde_json::from_str(text).map_err(flat)?;
        let field = checksum_field(&on_disk.checksum);
        if on_disk.checksum.len() != 16 || text.matches(&field).count() != 1 {
            return Err("the checksum field is not as written".into());
        }
        let zeroed = text.replacen(&field, &checksum_field(ZEROS), 1);
        let sum = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(zeroed.as_bytes()));
        if sum != on_disk.checksum {
            return Err(format!(
                "checksum mismatch: the file says {}, its bytes give {sum}",
                on_disk.checksum
            ));
        }
        Ok(on_disk.manifest)
    }

    /// Reads `dir/manifest.json`; `Ok(None)` if there is none.
    pub fn read(dir: &Path) -> Result<Option<Manifest>, StoreError> {
        let path = dir.join(MANIFEST);
        let bytes = match fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(StoreError::Io(path, e.to_string())),
        };
        Manifest::from_bytes(&bytes)
            .map(Some)
            .map_err(|why| StoreError::Manifest(path, why))
    }

    /// Writes `dir/manifest.json` atomically.
    pub(super) fn write(&self, dir: &Path) -> Result<(), StoreError> {
        let path = dir.join(MANIFEST);
        let tmp = dir.join(format!(".tmp-{}-{MANIFEST}", std::process::id()));
        let io = |e: std::io::Error| StoreError::Io(path.clone(), e.to_string());
        fs::write(&tmp, self.to_text()).map_err(io)?;
        fs::File::open(&tmp)
            .and_then(|f| f.sync_all())
            .map_err(io)?;
        fs::rename(&tmp, &path).map_err(io)?;
        sync_dir(dir).map_err(StoreError::Run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Manifest {
        Manifest::new("connect4", "7x6", "4453", 0)
    }

    #[test]
    fn round_trips_and_reads_as_json() {
        let text = sample().to_text();
        assert_eq!(Manifest::from_bytes(text.as_bytes()).unwrap(), sample());
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["game"], "connect4");
        assert_eq!(v["checksum"].as_str().unwrap().len(), 16);
    }

    /// Every byte is covered: one flipped bit anywhere (two bits tried per byte) is refused with a
    /// one-line reason.
    #[test]
    fn a_flip_at_every_offset_is_refused() {
        let good = sample().to_text().into_bytes();
        for at in 0..good.len() {
            for bit in [1u8 << (at % 7), 0x80] {
                let mut b = good.clone();
                b[at] ^= bit;
                let e = Manifest::from_bytes(&b).expect_err(&format!("byte {at} ^ {bit:#x}"));
                assert!(!e.contains('\n'), "{e}");
            }
        }
    }

    #[test]
    fn other_formats_are_refused_with_one_line() {
        let old =
            r#"{"format": 1, "game": "connect4", "variant": "7x6", "start": "", "hash_seed": 0}"#;
        let e = Manifest::from_bytes(old.as_bytes()).unwrap_err();
        assert!(e.contains("older manifest format 1"), "{e}");
        let newer = sample().to_text().replace("\"format\": 2", "\"format\": 3");
        let e = Manifest::from_bytes(newer.as_bytes()).unwrap_err();
        assert!(e.contains("newer manifest format 3"), "{e}");
    }
}
