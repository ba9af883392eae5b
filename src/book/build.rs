//! Making a book: every position of the first `plies` plies, each symmetry class once, with its
//! exact score.
//!
//! Only the deepest level is searched: the positions at ply `plies` are solved one by one by a
//! [`Solver`] that keeps its table between them (neighbouring positions share most of their
//! subtrees). Every shallower position's score is then the negamax of its children's, which
//! are all in the book by then — exact, and free. A finished game is scored by its result.

use super::partial::Partial;
use super::{check_bookable, entry, identity, BookError, BOOK_FILE, VALUE_BITS};
use crate::game::{Bits, Connect4, Game, Key};
use crate::solver::games::{game_over_score, Solvable};
use crate::solver::{
    BestMoves, Control, GameSpec, Mode, Question, SolveError, Solver, SolverConfig,
};
use crate::store::run_file::write_run_wide;
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// What a finished build reports.
#[derive(Clone, Debug)]
pub struct BuildReport {
    /// Positions stored (symmetry classes of plies 0..=plies).
    pub entries: u64,
    /// Positions solved by search (the deepest level, games not over).
    pub searched: u64,
    /// Of these, positions an earlier, interrupted run had solved.
    pub resumed: u64,
    /// Nodes the searches took.
    pub nodes: u64,
    /// Wall-clock time of the whole build.
    pub elapsed: Duration,
    /// Bytes of the run file.
    pub file_bytes: u64,
}

/// Progress of the deepest level's searches: done of total, nodes so far.
#[derive(Clone, Copy, Debug)]
pub struct BuildProgress {
    /// Positions solved (by this run and, see `resumed`, earlier ones).
    pub done: u64,
    /// Of these, positions an earlier run had solved.
    pub resumed: u64,
    /// Positions to solve.
    pub total: u64,
    /// Nodes so far.
    pub nodes: u64,
}

/// The symmetry classes of each ply up to `plies`: one position per key, in key order.
fn levels<G: Solvable>(start: G, plies: u32) -> Vec<Vec<(Key, G)>> {
    let mut out = vec![vec![(start.key(), start)]];
    for _ in 0..plies {
        let mut next: HashMap<Key, G> = HashMap::new();
        for (_, g) in out.last().expect("level 0 is there") {
            if game_over_score(g).is_some() {
                continue;
            }
            for mv in Bits(g.playable()) {
                let mut child = *g;
                child.play(mv);
                next.entry(child.key()).or_insert(child);
            }
        }
        let mut level: Vec<(Key, G)> = next.into_iter().collect();
        level.sort_unstable_by_key(|e| e.0);
        out.push(level);
    }
    out
}

/// Builds the book of `spec`'s first `plies` plies into `dir` (created if missing; a book
/// already there is replaced only when the new one is complete). `config` runs the searches
/// (its mode and best moves are overridden: exact scores, no best moves); `progress` is called
/// after each search. Each solved position is recorded at once ([`super::partial`]): a build
/// stopped through `control`, or killed, continues where it was when run again.
pub fn build(
    spec: GameSpec,
    plies: u32,
    dir: &Path,
    config: SolverConfig,
    control: &Control,
    mut progress: impl FnMut(BuildProgress),
) -> Result<BuildReport, BookError> {
    check_bookable(spec)?;
    let GameSpec::Connect4 { width, height } = spec else {
        unreachable!("check_bookable admits Connect Four only")
    };
    if plies > width * height {
        return Err(BookError::BadInput(format!(
            "--plies {plies}: the {width}x{height} board holds {} stones",
            width * height
        )));
    }
    let start = Instant::now();
    let levels = levels(Connect4::new(width, height).expect("checked size"), plies);
    let config = SolverConfig {
        mode: Mode::Strong,
        best: BestMoves::None,
        ..config
    };
    let mut solver = Solver::new(spec, config).map_err(solve_error)?;
    let mut scores: HashMap<Key, i32> = HashMap::new();
    let deepest = levels.last().expect("level 0 is there");
    let total = deepest
        .iter()
        .filter(|(_, g)| game_over_score(g).is_none())
        .count() as u64;
    std::fs::create_dir_all(dir)
        .map_err(|e| BookError::BadInput(format!("{}: {e}", dir.display())))?;
    let mut partial = Partial::open(dir, spec, plies)?;
    let (mut done, mut nodes) = (0u64, 0u64);
    let mut resumed = 0u64;
    for (key, g) in deepest {
        let score = match (game_over_score(g), partial.done.get(key)) {
            (Some(s), _) => s,
            (None, Some(&s)) => {
                done += 1;
                resumed += 1;
                s
            }
            (None, None) => {
                // small searches may end before they look at the flag: look here too
                if control.stopped().is_some() {
                    return Err(BookError::Stopped { done, total });
                }
                let s = match solver.solve_position(g, Question::Value, None, control) {
                    Ok(s) => s,
                    Err(SolveError::Stopped { .. }) => {
                        return Err(BookError::Stopped { done, total })
                    }
                    Err(e) => return Err(solve_error(e)),
                };
                partial.record(*key, s.score)?;
                done += 1;
                nodes += s.nodes;
                progress(BuildProgress {
                    done,
                    resumed,
                    total,
                    nodes,
                });
                s.score
            }
        };
        scores.insert(*key, score);
    }
    for level in levels[..levels.len() - 1].iter().rev() {
        for (key, g) in level {
            let score = game_over_score(g).unwrap_or_else(|| {
                Bits(g.playable())
                    .map(|mv| {
                        let mut child = *g;
                        child.play(mv);
                        -scores[&child.key()]
                    })
                    .max()
                    .expect("a game not over has a move")
            });
            scores.insert(*key, score);
        }
    }
    let mut words: Vec<u64> = scores.iter().map(|(&k, &s)| entry(k, s)).collect();
    words.sort_unstable();
    let n = words.len() as u64;
    write_run_wide(
        dir,
        BOOK_FILE,
        &identity(spec, plies),
        VALUE_BITS,
        words.into_iter().map(Ok),
        n,
    )
    .map_err(|e| BookError::Store(e.into()))?;
    partial.finish()?;
    let file_bytes = std::fs::metadata(dir.join(BOOK_FILE))
        .map(|m| m.len())
        .unwrap_or(0);
    Ok(BuildReport {
        entries: n,
        searched: total,
        resumed,
        nodes,
        elapsed: start.elapsed(),
        file_bytes,
    })
}

fn solve_error(e: SolveError) -> BookError {
    match e {
        SolveError::BadInput(s) => BookError::BadInput(s),
        SolveError::Store(e) => BookError::Store(e),
        e => BookError::BadInput(format!("while building the book: {e}")),
    }
}
