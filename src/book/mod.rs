//! An opening book: the exact score of every position of a game's first plies, read in
//! microseconds instead of searched in seconds.
//!
//! A book is a directory holding one run file ([`BOOK_FILE`]) in the position store's format
//! ([`crate::store::run_file`]), with [`VALUE_BITS`]-bit values: each entry is the position's
//! key (symmetry-reduced, [`crate::game::Game::key`]) shifted left by 8, and the score for the
//! side to move as a signed byte. The store's 2-bit bounds cannot hold "wins in 9" — hence the
//! run format's value width. The run's identity names the game, the board and the depth
//! (`7x6 book 8`), so a book for another board is refused like a foreign table, and a flipped
//! byte anywhere in the file is refused by the run's checksums.
//!
//! Only games whose keys are exact and short enough to leave 8 bits free are booked (Connect
//! Four up to 56 bits of board): a hashed key could collide, and a book answer is believed
//! without search. [`build`] makes a book; [`Book::found`] answers a solver's question from it.

pub mod build;
pub mod partial;

use crate::game::{Bits, Key};
use crate::solver::games::{game_over_score, Solvable};
use crate::solver::GameSpec;
use crate::store::run_file::{Identity, Run, Verify};
use crate::store::StoreError;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The run file inside a book directory.
pub const BOOK_FILE: &str = "book.zzr";
/// Bits of value per entry: a signed byte of score.
pub const VALUE_BITS: u32 = 8;
/// The largest key a book entry holds: keys must leave [`VALUE_BITS`] bits of the word free.
pub const MAX_KEY_BITS: u32 = 64 - VALUE_BITS;

/// Why a book could not be made or read. One line.
#[derive(Debug)]
pub enum BookError {
    /// The request is wrong: a game that cannot be booked, a directory that is not a book.
    BadInput(String),
    /// The run file is damaged or could not be written or read.
    Store(StoreError),
    /// A build was stopped (its time limit, or Ctrl-C) after solving `done` of `total`
    /// positions; what it solved is kept, and the same command continues it.
    Stopped {
        /// Positions solved, by this run and earlier ones.
        done: u64,
        /// Positions to solve.
        total: u64,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::BadInput(s) => f.write_str(s),
            BookError::Store(e) => write!(f, "book: {e}"),
            BookError::Stopped { done, total } => write!(
                f,
                "book build stopped after {done} of {total} positions; run the same command again to continue"
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// Whether `spec` can be booked: exact keys with room for the value. Err names why not.
pub fn check_bookable(spec: GameSpec) -> Result<(), BookError> {
    match spec {
        GameSpec::Connect4 { width, height } if width * (height + 1) <= MAX_KEY_BITS => Ok(()),
        GameSpec::Connect4 { width, height } => Err(BookError::BadInput(format!(
            "a book needs exact keys of at most {MAX_KEY_BITS} bits: connect4 {width}x{height} has {} bits of board",
            width * (height + 1)
        ))),
        GameSpec::Cube(_) => Err(BookError::BadInput(format!(
            "no book for {}: its keys are hashes, and a book answer is believed without search",
            spec.name()
        ))),
    }
}

/// The run identity of a book of `plies` plies for `spec`.
fn identity(spec: GameSpec, plies: u32) -> Identity {
    Identity {
        game: spec.name().to_string(),
        variant: format!("{} book {plies}", spec.size()),
        hash_seed: 0,
    }
}

/// The entry word of a position's key and score.
pub(crate) fn entry(key: Key, score: i32) -> u64 {
    key.get() << VALUE_BITS | u64::from(score as i8 as u8)
}

/// A score from an entry's value bits.
fn score_of_value(value: u64) -> i32 {
    i32::from(value as u8 as i8)
}

/// An open book: one memory-mapped run, and counters of how often it answered.
pub struct Book {
    run: Run,
    spec: GameSpec,
    plies: u32,
    dir: PathBuf,
    asked: AtomicU64,
    answered: AtomicU64,
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Book({}, {} plies)", self.dir.display(), self.plies)
    }
}

impl Book {
    /// Opens the book in `dir`, checking the whole file (checksums, order, one entry per key).
    pub fn open(dir: &Path) -> Result<Book, BookError> {
        let path = dir.join(BOOK_FILE);
        if !path.is_file() {
            return Err(BookError::BadInput(format!(
                "{}: no opening book here (make one with `zugzwang book build`)",
                dir.display()
            )));
        }
        // SAFETY: a book's run is written once under a temporary name and renamed; nothing
        // modifies it in place (README: leave a book directory alone while it is served).
        let run = unsafe { Run::open_wide(&path, None, Verify::Full, VALUE_BITS) }
            .map_err(|e| BookError::Store(e.into()))?;
        let header = run.header();
        let not_a_book = || {
            BookError::BadInput(format!(
                "{}: not a book run (made for {} {})",
                path.display(),
                header.game,
                header.variant
            ))
        };
        let (size, plies) = header.variant.split_once(" book ").ok_or_else(not_a_book)?;
        let plies: u32 = plies.parse().map_err(|_| not_a_book())?;
        let size = (header.game == "connect4").then_some(size);
        let spec = GameSpec::from_name(&header.game, size).map_err(|_| not_a_book())?;
        if run.header().hash_seed != 0 || identity(spec, plies).variant != header.variant {
            return Err(not_a_book());
        }
        Ok(Book {
            run,
            spec,
            plies,
            dir: dir.to_path_buf(),
            asked: AtomicU64::new(0),
            answered: AtomicU64::new(0),
        })
    }

    /// The game the book is for.
    pub fn spec(&self) -> GameSpec {
        self.spec
    }

    /// Positions of up to this many stones are in the book.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Positions stored (symmetric positions once).
    pub fn entries(&self) -> u64 {
        self.run.len()
    }

    /// Bytes of the run file.
    pub fn file_bytes(&self) -> u64 {
        self.run.file_bytes()
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The exact score of `g` for the side to move: a finished game's result, or the book's
    /// entry. `None`: not in the book (deeper than its plies, or another game).
    pub fn score<G: Solvable>(&self, g: &G) -> Option<i32> {
        if g.spec() != self.spec {
            return None;
        }
        if let Some(s) = game_over_score(g) {
            return Some(s);
        }
        if g.ply() > self.plies {
            return None;
        }
        self.run.lookup_wide(g.key()).map(score_of_value)
    }

    /// Every legal move of `g` with the mover's exact score, if the book holds every child.
    pub fn move_scores<G: Solvable>(&self, g: &G) -> Option<Vec<(u64, i32)>> {
        Bits(g.playable())
            .map(|mv| {
                let mut child = *g;
                child.play(mv);
                self.score(&child).map(|s| (mv, -s))
            })
            .collect()
    }

    /// Counts a question put to the book and whether it answered; returns `answer`.
    pub(crate) fn count<T>(&self, answer: Option<T>) -> Option<T> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        if answer.is_some() {
            self.answered.fetch_add(1, Ordering::Relaxed);
        }
        answer
    }

    /// Questions put to the book so far, and how many it answered.
    pub fn hits(&self) -> (u64, u64) {
        (
            self.asked.load(Ordering::Relaxed),
            self.answered.load(Ordering::Relaxed),
        )
    }
}

#[cfg(test)]
mod tests;
