//! Parallel solving on a shared table (rayon): every thread searches the same null-window probe
//! in the same move order, all reading and writing one lock-free table, each leaving for later
//! the children another thread is inside ([`super::busy`]): that, not a perturbed order, is
//! what spreads the threads over the tree (a helper trying another first move at a node that
//! needs one good move only wastes its work; the README has the measurement). The first thread
//! to finish a probe answers it and stops the others; what the others proved meanwhile stays in
//! the table and speeds up the rest. The value is exactly the
//! one-thread value (every thread runs the same exact search); only the node count varies. With
//! one thread the search is exactly [`Searcher::solve`] followed by [`Searcher::achieves`] for
//! each move, in move order: the same nodes.

use super::busy::Busy;
use super::negamax::{drive, Depth, Options, Probe, Searcher, Stopped};
use super::transposition::Table;
use super::vcf::ForcingSearch;
use crate::game::{Bits, Game};
use rayon::prelude::*;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// What a parallel solve found and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Exact score (strong) or its sign (weak).
    pub score: i32,
    /// The legal moves (one-bit masks) that achieve the score: all of them, or as many as the
    /// caller asked for, in move order.
    pub best_moves: Vec<u64>,
    /// Nodes searched by all threads together.
    pub nodes: u64,
    /// The score driver's probes (nodes summed over threads).
    pub probes: Vec<Probe>,
}

/// The search threads could not be started.
#[derive(Debug)]
pub struct ThreadsError {
    threads: usize,
    source: rayon::ThreadPoolBuildError,
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot start {} search threads: {}",
            self.threads, self.source
        )
    }
}

impl std::error::Error for ThreadsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Builds the thread pool of a [`ParallelSolver`] (0 threads = one per core). Building one costs
/// far more than a small search: callers that solve many positions build it once and pass it to
/// [`ParallelSolver::on_pool`].
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, ThreadsError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| ThreadsError { threads, source })
}

/// The pool a solver runs on: its own, or one its caller keeps between solves.
enum Pool<'t> {
    Owned(rayon::ThreadPool),
    Borrowed(&'t rayon::ThreadPool),
}

impl std::ops::Deref for Pool<'_> {
    type Target = rayon::ThreadPool;
    fn deref(&self) -> &rayon::ThreadPool {
        match self {
            Pool::Owned(p) => p,
            Pool::Borrowed(p) => p,
        }
    }
}

/// A parallel solver: `threads` searchers on one table. With one thread it searches on the
/// caller's thread (handing each probe to a pool thread costs microseconds, as much as a whole
/// search of an easy position).
pub struct ParallelSolver<'t, T: Table> {
    table: &'t T,
    pool: Pool<'t>,
    threads: usize,
    options: Options,
    progress: Option<&'t AtomicU64>,
    abort: Option<&'t AtomicBool>,
    /// Forcing-win tests (the search whose settings each thread's copy takes, from how many
    /// empty cells): see [`Searcher::with_forcing`].
    forcing: Option<(ForcingSearch, u32)>,
    /// The positions the threads are inside ([`Busy::shared`]); none with one thread, where
    /// nothing is deferred.
    busy: Option<&'static Busy>,
}

impl<'t, T: Table> ParallelSolver<'t, T> {
    /// A solver with `threads` threads (0 = one per core) on `table`.
    pub fn new(table: &'t T, threads: usize) -> Result<Self, ThreadsError> {
        Ok(Self::with_pool(table, Pool::Owned(thread_pool(threads)?)))
    }

    /// A solver on `table` using `pool`'s threads (see [`thread_pool`]).
    pub fn on_pool(table: &'t T, pool: &'t rayon::ThreadPool) -> Self {
        Self::with_pool(table, Pool::Borrowed(pool))
    }

    fn with_pool(table: &'t T, pool: Pool<'t>) -> Self {
        let threads = pool.current_num_threads();
        ParallelSolver {
            table,
            pool,
            threads,
            options: Options::default(),
            progress: None,
            abort: None,
            forcing: None,
            busy: (threads > 1).then(Busy::shared).flatten(),
        }
    }

    /// Search threads actually running.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Reports progress through `counter` (see [`Searcher::with_progress`]).
    pub fn with_progress(mut self, counter: &'t AtomicU64) -> Self {
        self.progress = Some(counter);
        self
    }

    /// Lets the caller stop the solve by setting `flag`: [`ParallelSolver::solve`] then
    /// returns [`Stopped`].
    pub fn with_abort(mut self, flag: &'t AtomicBool) -> Self {
        self.abort = Some(flag);
        self
    }

    /// Uses `options` instead of the defaults.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Gives every thread a forcing-win search with the settings of `forcing` and memories of
    /// its own ([`ForcingSearch::fresh`]), tried at nodes with at least `min_empty` empty cells
    /// (see [`Searcher::with_forcing`]).
    pub fn with_forcing(mut self, forcing: ForcingSearch, min_empty: u32) -> Self {
        self.forcing = Some((forcing, min_empty));
        self
    }

    fn searcher<'s>(&'s self, stop: &'s AtomicBool) -> Searcher<'s, T>
    where
        't: 's,
    {
        let mut s = Searcher::new(self.table)
            .with_options(self.options)
            .with_stop(stop);
        if let Some(busy) = &self.busy {
            s = s.with_busy(busy);
        }
        if let Some(p) = self.progress {
            s = s.with_progress(p);
        }
        if let Some(a) = self.abort {
            s = s.with_abort(a);
        }
        if let Some((forcing, min_empty)) = &self.forcing {
            s = s.with_forcing(forcing.fresh(), *min_empty);
        }
        s
    }

    /// One null-window probe on every thread; the first answer wins.
    fn probe<G: Game>(&self, g: &G, test: i32, nodes: &AtomicU64) -> Result<i32, Stopped> {
        let stop = AtomicBool::new(false);
        if self.threads == 1 {
            let mut s = self.searcher(&stop);
            let r = s.negamax(g, test, test + 1);
            nodes.fetch_add(s.nodes, Ordering::Relaxed);
            return r;
        }
        let answer = Mutex::new(None);
        self.pool.scope(|scope| {
            for _ in 0..self.threads {
                let (stop, answer) = (&stop, &answer);
                scope.spawn(move |_| {
                    let mut s = self.searcher(stop);
                    let r = s.negamax(g, test, test + 1);
                    nodes.fetch_add(s.nodes, Ordering::Relaxed);
                    if let Ok(r) = r {
                        let mut a = answer.lock().unwrap_or_else(|e| e.into_inner());
                        if a.is_none() {
                            *a = Some(r);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        // no answer: every thread was stopped, which only the caller's flag does
        answer
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .ok_or(Stopped)
    }

    /// The score of `g` only (exact or its sign), without best moves.
    pub fn score<G: Game>(&self, g: &G, depth: Depth) -> Result<(i32, u64), Stopped> {
        let nodes = AtomicU64::new(0);
        let score = drive(g, depth, |test| self.probe(g, test, &nodes))?;
        Ok((score, nodes.into_inner()))
    }

    /// Up to `best_limit` of the moves that keep `score`, the proven score of `g` (0: none;
    /// `usize::MAX`: all), with the nodes spent. All best moves are checked in parallel, one
    /// move per task; a limited number one after the other in move order, stopping at the
    /// limit.
    pub fn best_moves<G: Game>(
        &self,
        g: &G,
        depth: Depth,
        score: i32,
        best_limit: usize,
    ) -> Result<(Vec<u64>, u64), Stopped> {
        let target = match depth {
            Depth::Strong => score,
            Depth::Weak if score < 0 => -g.max_score(),
            Depth::Weak => score,
        };
        let nodes = AtomicU64::new(0);
        let moves: Vec<u64> = Bits(g.playable()).collect();
        let never = AtomicBool::new(false);
        let achieves = |mv: u64| -> Result<bool, Stopped> {
            let mut s = self.searcher(&never);
            let ok = s.achieves(g, mv, target);
            nodes.fetch_add(s.nodes, Ordering::Relaxed);
            ok
        };
        let best_moves = if best_limit == 0 {
            Vec::new()
        } else if best_limit >= moves.len() && self.threads > 1 {
            let checked: Vec<Result<bool, Stopped>> = self
                .pool
                .install(|| moves.par_iter().map(|&mv| achieves(mv)).collect());
            let mut best = Vec::new();
            for (&mv, ok) in moves.iter().zip(checked) {
                if ok? {
                    best.push(mv);
                }
            }
            best
        } else {
            let mut best = Vec::new();
            for &mv in &moves {
                if best.len() >= best_limit {
                    break;
                }
                if achieves(mv)? {
                    best.push(mv);
                }
            }
            best
        };
        Ok((best_moves, nodes.into_inner()))
    }

    /// Solves `g` and finds up to `best_limit` of its best moves (see
    /// [`ParallelSolver::best_moves`]).
    pub fn solve<G: Game>(
        &self,
        g: &G,
        depth: Depth,
        best_limit: usize,
    ) -> Result<Solved, Stopped> {
        let nodes = AtomicU64::new(0);
        let mut probes = Vec::new();
        let score = drive(g, depth, |test| {
            let before = nodes.load(Ordering::Relaxed);
            let r = self.probe(g, test, &nodes)?;
            probes.push(Probe {
                test,
                result: r,
                nodes: nodes.load(Ordering::Relaxed) - before,
            });
            Ok(r)
        })?;
        let (best_moves, best_nodes) = self.best_moves(g, depth, score, best_limit)?;
        nodes.fetch_add(best_nodes, Ordering::Relaxed);
        Ok(Solved {
            score,
            best_moves,
            nodes: nodes.into_inner(),
            probes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Connect4;
    use crate::search::MemoryTable;
    use crate::util::random_play::careful_positions;

    /// Children another thread is inside are searched last, never skipped: with every child
    /// but the first marked busy at the root (as if other threads were in them), and deferral
    /// at every node, the scores are plain minimax's; and three threads deferring at every
    /// node agree with minimax too.
    #[test]
    fn deferring_busy_children_keeps_values() {
        use crate::search::busy::Busy;
        use crate::search::negamax::Options;
        use crate::search::reference::minimax;
        let options = Options {
            defer_min_empty: 0,
            ..Options::default()
        };
        let mut deferrals = 0;
        for (w, h, empty) in [(5, 4, 12), (6, 4, 13), (4, 5, 12)] {
            let start = Connect4::new(w, h).unwrap();
            for g in careful_positions(start, empty, 30, w as u64 * 7 + h as u64) {
                let exact = minimax(&g);
                let busy = Busy::new().unwrap();
                for mv in Bits(g.non_losing_moves()).skip(1) {
                    let mut child = g;
                    child.play(mv);
                    busy.enter(child.key());
                }
                let table = MemoryTable::with_bytes(1 << 20);
                let mut s = Searcher::new(&table).with_options(options).with_busy(&busy);
                assert_eq!(s.solve(&g, Depth::Strong).unwrap(), exact);
                deferrals += s.deferrals;
                table.clear();
                let threads = ParallelSolver::new(&table, 3)
                    .unwrap()
                    .with_options(options);
                assert_eq!(threads.score(&g, Depth::Strong).unwrap().0, exact);
            }
        }
        assert!(deferrals > 50, "only {deferrals} deferrals");
    }

    /// The module's promise: one thread is exactly the one-thread searcher, node for node.
    #[test]
    fn one_thread_is_the_plain_searcher() {
        let start = Connect4::new(6, 5).unwrap();
        for g in careful_positions(start, 16, 20, 11) {
            let (a, b) = (
                MemoryTable::with_bytes(1 << 20),
                MemoryTable::with_bytes(1 << 20),
            );
            let solved = ParallelSolver::new(&a, 1)
                .unwrap()
                .solve(&g, Depth::Strong, usize::MAX)
                .unwrap();
            let mut s = Searcher::new(&b);
            let score = s.solve(&g, Depth::Strong).unwrap();
            let best: Vec<u64> = Bits(g.playable())
                .filter(|&mv| s.achieves(&g, mv, score).unwrap())
                .collect();
            assert_eq!((solved.score, &solved.best_moves), (score, &best));
            assert_eq!(solved.nodes, s.nodes);
        }
    }
}
