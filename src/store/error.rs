//! The store's errors: one line each, naming the file or directory.

use super::lock::LockError;
use super::run_file::RunError;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// A store failure, shown as one line naming the file or directory.
#[derive(Clone, Debug)]
pub enum StoreError {
    /// A run file was refused or could not be written.
    Run(RunError),
    /// The path given as the store directory exists and is not a directory.
    NotADirectory(PathBuf),
    /// The directory was made for another game, size or hash seed.
    Foreign {
        /// The directory.
        dir: PathBuf,
        /// What its manifest says.
        found: String,
        /// What the caller wanted.
        expected: String,
    },
    /// The manifest is missing where it must exist, or unreadable.
    Manifest(PathBuf, String),
    /// Another I/O failure.
    Io(PathBuf, String),
    /// The search proved something that contradicts the stored table.
    Conflict(PathBuf, String),
    /// Another process (or another store in this one) has the directory.
    Lock(Arc<LockError>),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Run(e) => e.fmt(f),
            StoreError::NotADirectory(p) => {
                write!(f, "{}: exists and is not a directory", p.display())
            }
            StoreError::Foreign {
                dir,
                found,
                expected,
            } => write!(
                f,
                "{}: table made for {found}, not for {expected}",
                dir.display()
            ),
            StoreError::Manifest(p, why) => write!(f, "{}: bad manifest: {why}", p.display()),
            StoreError::Io(p, why) => write!(f, "{}: {why}", p.display()),
            StoreError::Conflict(p, why) => write!(f, "{}: conflicting values: {why}", p.display()),
            StoreError::Lock(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Run(e) => Some(e),
            StoreError::Lock(e) => Some(e.as_ref()),
            _ => None,
        }
    }
}

impl From<LockError> for StoreError {
    fn from(e: LockError) -> Self {
        StoreError::Lock(Arc::new(e))
    }
}

impl From<RunError> for StoreError {
    fn from(e: RunError) -> Self {
        StoreError::Run(e)
    }
}
