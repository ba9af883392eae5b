//! One directory, one writer: an advisory lock on `DIR/zugzwang.lock`.
//!
//! Two processes writing one store directory would each buffer, flush and merge on their own view
//! of the runs: a merge in one deletes runs the other has just listed, and both pick the same next
//! run number. So a store opened for writing ([`crate::store::Store::open`]) holds an exclusive
//! lock for as long as it lives, and a second writer — in another process or in this one — is
//! refused with one line. `table stats` and `table check` take a shared lock: any number of them
//! may read a directory together, but not while a solve writes it (a merge could delete a run
//! between their listing and their opening it, which they would report as damage).
//!
//! The lock is `flock(2)` through [`std::fs::File::try_lock`]: the kernel drops it when the process
//! dies, even by `kill -9`, so a crash never leaves a directory locked. The file itself stays; it
//! holds the pid of the last writer, which only serves the error message (shown only while that
//! process is alive, as `/proc` tells: on Linux). Advisory means other programs can ignore it: the
//! README says to leave a store directory alone while a solve runs.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Name of the lock file in a store directory.
pub const LOCK_FILE: &str = "zugzwang.lock";

/// Why a directory could not be locked.
#[derive(Debug)]
pub enum LockError {
    /// Another holder has the directory: a writer (`pid` if it is alive and known) or, for a
    /// writer asking, readers.
    InUse {
        /// The store directory.
        dir: PathBuf,
        /// The writer's process id, if it recorded one and still runs.
        pid: Option<u32>,
    },
    /// The lock file could not be created, opened or locked.
    Io {
        /// The lock file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockError::InUse { dir, pid: Some(pid) } => write!(
                f,
                "{}: in use by another zugzwang process (pid {pid}); one process at a time may use a table directory",
                dir.display()
            ),
            LockError::InUse { dir, pid: None } => write!(
                f,
                "{}: in use by another zugzwang process; one process at a time may use a table directory",
                dir.display()
            ),
            LockError::Io { path, source } => {
                write!(f, "{}: cannot lock: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for LockError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LockError::InUse { .. } => None,
            LockError::Io { source, .. } => Some(source),
        }
    }
}

/// A held lock on a store directory; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct DirLock {
    /// `None` only for a shared lock on a directory this process cannot write and that has no
    /// lock file: nothing of ours can be writing it.
    _file: Option<File>,
}

impl DirLock {
    /// The exclusive (writer's) lock on `dir`, which must exist. Records this process's pid in the
    /// lock file for the error message of a refused second writer.
    pub fn exclusive(dir: &Path) -> Result<DirLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(in_use(dir, &mut file)),
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0)
            .and_then(|()| file.write_all(format!("{}\n", std::process::id()).as_bytes()))
            .map_err(io)?;
        Ok(DirLock { _file: Some(file) })
    }

    /// A shared (reader's) lock on `dir`: granted alongside other readers, refused while a writer
    /// holds the directory.
    pub fn shared(dir: &Path) -> Result<DirLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let opened = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .or_else(|e| match e.kind() {
                // a table on read-only media, or someone else's: lock it if it has a lock file
                io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem => {
                    File::open(&path)
                }
                _ => Err(e),
            });
        let mut file = match opened {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(DirLock { _file: None }),
            Err(e) => return Err(io(e)),
        };
        match file.try_lock_shared() {
            Ok(()) => Ok(DirLock { _file: Some(file) }),
            Err(TryLockError::WouldBlock) => Err(in_use(dir, &mut file)),
            Err(TryLockError::Error(e)) => Err(io(e)),
        }
    }
}

/// The refusal, with the writer's pid if the lock file names a live process other than this one.
fn in_use(dir: &Path, file: &mut File) -> LockError {
    let mut text = String::new();
    let _ = file.read_to_string(&mut text);
    let pid = text
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|&p| p != std::process::id() && Path::new(&format!("/proc/{p}")).exists());
    LockError::InUse {
        dir: dir.to_path_buf(),
        pid,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_writer_or_many_readers() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let w = DirLock::exclusive(d).unwrap();
        // flock locks belong to the open file, so a second open in this process is refused too
        for second in [DirLock::exclusive(d), DirLock::shared(d)] {
            let e = second.unwrap_err();
            assert!(matches!(e, LockError::InUse { .. }), "{e}");
            let line = e.to_string();
            assert!(
                line.contains("in use by another zugzwang process"),
                "{line}"
            );
            assert!(!line.contains('\n'), "{line}");
        }
        drop(w);
        let r1 = DirLock::shared(d).unwrap();
        let r2 = DirLock::shared(d).unwrap();
        assert!(matches!(
            DirLock::exclusive(d),
            Err(LockError::InUse { .. })
        ));
        drop((r1, r2));
        DirLock::exclusive(d).unwrap();
    }

    #[test]
    fn a_reader_of_a_directory_without_lock_file_creates_one() {
        let dir = tempfile::tempdir().unwrap();
        let _r = DirLock::shared(dir.path()).unwrap();
        assert!(dir.path().join(LOCK_FILE).exists());
        assert!(DirLock::exclusive(dir.path()).is_err());
    }
}
