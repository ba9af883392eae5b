//! The names of a store directory's files, and the clean-up of what a killed process left.

use super::error::StoreError;
use std::fs;
use std::path::{Path, PathBuf};

/// File name of run number `seq`.
pub(super) fn run_name(seq: u64) -> String {
    format!("run-{seq:010}.zzr")
}

/// The sequence number of a run file name, if it is one.
fn run_seq(name: &str) -> Option<u64> {
    name.strip_prefix("run-")?
        .strip_suffix(".zzr")?
        .parse()
        .ok()
}

/// The run files of `dir`, in sequence order.
pub fn run_files(dir: &Path) -> Result<Vec<(u64, PathBuf)>, StoreError> {
    let rd = fs::read_dir(dir).map_err(|e| StoreError::Io(dir.to_path_buf(), e.to_string()))?;
    let mut out = Vec::new();
    for ent in rd {
        let ent = ent.map_err(|e| StoreError::Io(dir.to_path_buf(), e.to_string()))?;
        if let Some(seq) = ent.file_name().to_str().and_then(run_seq) {
            out.push((seq, ent.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// Removes temporary files left by store processes that no longer run (a `kill -9` during a
/// write). Called with the directory's writer lock held, so no other zugzwang process is writing
/// here and every temporary file but this process's own is stale, whatever its pid (a dead
/// writer's pid may belong to an unrelated process by now). Every other file is left alone.
pub(super) fn remove_stale_temporaries(dir: &Path) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    let mine = format!(".tmp-{}-", std::process::id());
    for ent in rd.flatten() {
        let name = ent.file_name();
        if name
            .to_str()
            .is_some_and(|n| n.starts_with(".tmp-") && !n.starts_with(&mine))
        {
            let _ = fs::remove_file(ent.path());
        }
    }
}
