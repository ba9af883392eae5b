//! What an unfinished build has solved: `DIR/book-partial.txt`, so that a book too costly for
//! one sitting is built in several (each run solves what the last one did not, then writes the
//! book and removes the file).
//!
//! A text file, one line per solved position of the deepest level (`KEY_HEX SCORE`), headed by
//! the build it belongs to (`connect4 7x6 plies 2`); appended after every solve and synced at
//! most once a second (a sync per line makes a build of many cheap positions wait on the disk
//! more than it searches), so a kill loses at most a second's solves. A line cut short by a kill
//! is dropped on reading.

use super::BookError;
use crate::game::Key;
use crate::solver::GameSpec;
use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Longest time between two syncs of the record.
const SYNC_EVERY: Duration = Duration::from_secs(1);

/// The file's name inside the book directory.
pub const PARTIAL_FILE: &str = "book-partial.txt";

/// The solved scores of an unfinished build, and the file they go on in.
pub(crate) struct Partial {
    path: PathBuf,
    file: File,
    last_sync: Instant,
    /// Scores solved so far, by key.
    pub done: HashMap<Key, i32>,
}

fn io(path: &Path, e: std::io::Error) -> BookError {
    BookError::BadInput(format!("{}: {e}", path.display()))
}

impl Partial {
    /// Opens (or starts) the record of a build of `plies` plies of `spec` in `dir`. A record of
    /// another build there is refused: finish that one or remove the file.
    pub fn open(dir: &Path, spec: GameSpec, plies: u32) -> Result<Partial, BookError> {
        let path = dir.join(PARTIAL_FILE);
        let head = format!("{} {} plies {plies}", spec.name(), spec.size());
        let mut done = HashMap::new();
        let mut keep = 0;
        if path.exists() {
            let text = fs::read_to_string(&path).map_err(|e| io(&path, e))?;
            // only whole lines count: the last one may have been cut by a kill
            keep = text.rfind('\n').map_or(0, |i| i + 1);
            let mut lines = text[..keep].lines();
            if lines.next() != Some(head.as_str()) {
                return Err(BookError::BadInput(format!(
                    "{}: an unfinished build of another book is here (not '{head}'): finish it, or remove the file",
                    path.display()
                )));
            }
            for (i, line) in lines.enumerate() {
                let bad = || {
                    BookError::BadInput(format!(
                        "{}: line {} is not 'KEY SCORE': '{line}'",
                        path.display(),
                        i + 2
                    ))
                };
                let (k, s) = line.split_once(' ').ok_or_else(bad)?;
                let k = u64::from_str_radix(k, 16).map_err(|_| bad())?;
                let s: i32 = s.parse().map_err(|_| bad())?;
                if k >= 1 << 62 {
                    return Err(bad());
                }
                done.insert(Key::new(k), s);
            }
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| io(&path, e))?;
        if keep == 0 {
            file.set_len(0).map_err(|e| io(&path, e))?;
            writeln!(file, "{head}").map_err(|e| io(&path, e))?;
        } else {
            file.set_len(keep as u64).map_err(|e| io(&path, e))?;
        }
        Ok(Partial {
            path,
            file,
            last_sync: Instant::now(),
            done,
        })
    }

    /// Records one solved position (on disk within a second; at once when the build stops).
    pub fn record(&mut self, key: Key, score: i32) -> Result<(), BookError> {
        writeln!(self.file, "{:x} {score}", key.get()).map_err(|e| io(&self.path, e))?;
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.file.sync_data().map_err(|e| io(&self.path, e))?;
            self.last_sync = Instant::now();
        }
        self.done.insert(key, score);
        Ok(())
    }

    /// The build is complete: the record goes.
    pub fn finish(self) -> Result<(), BookError> {
        fs::remove_file(&self.path).map_err(|e| io(&self.path, e))
    }
}

impl Drop for Partial {
    /// A build that stops (time limit, Ctrl-C, an error) leaves its record synced.
    fn drop(&mut self) {
        let _ = self.file.sync_data();
    }
}
