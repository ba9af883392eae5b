//! Parallel solving on a shared table (rayon): every thread searches the same null-window probe,
//! helpers with slightly perturbed move ordering near the root, all reading and writing one
//! lock-free table. The first thread to finish a probe answers it and stops the others; what the
//! others proved meanwhile stays in the table and speeds up the rest. The value is exactly the
//! one-thread value (every thread runs the same exact search); only the node count varies.

use super::negamax::{drive, Depth, Options, Probe, Searcher, Stopped};
use super::transposition::Table;
use crate::game::{Bits, Game};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// What a parallel solve found and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Exact score (strong) or its sign (weak).
    pub score: i32,
    /// Every legal move (one-bit masks) that achieves the score.
    pub best_moves: Vec<u64>,
    /// Nodes searched by all threads together.
    pub nodes: u64,
    /// The score driver's probes (nodes summed over threads).
    pub probes: Vec<Probe>,
}

/// A parallel solver: `threads` searchers on one table.
pub struct ParallelSolver<'t, T: Table> {
    table: &'t T,
    pool: rayon::ThreadPool,
    threads: usize,
    options: Options,
    progress: Option<&'t AtomicU64>,
}

impl<'t, T: Table> ParallelSolver<'t, T> {
    /// A solver with `threads` threads (0 = one per core) on `table`.
    pub fn new(table: &'t T, threads: usize) -> Result<Self, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} search threads: {e}"))?;
        let threads = pool.current_num_threads();
        Ok(ParallelSolver {
            table,
            pool,
            threads,
            options: Options::default(),
            progress: None,
        })
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

    fn searcher<'s>(&self, stop: &'s AtomicBool, helper: usize) -> Searcher<'s, T>
    where
        't: 's,
    {
        let mut s = Searcher::new(self.table)
            .with_options(self.options)
            .with_stop(stop);
        if helper > 0 {
            s = s.with_noise(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(helper as u64 * 2 + 1));
        }
        if let Some(p) = self.progress {
            s = s.with_progress(p);
        }
        s
    }

    /// One null-window probe on every thread; the first answer wins.
    fn probe<G: Game>(&self, g: &G, test: i32, nodes: &AtomicU64) -> i32 {
        let stop = AtomicBool::new(false);
        let answer = Mutex::new(None);
        self.pool.scope(|scope| {
            for helper in 0..self.threads {
                let (stop, answer) = (&stop, &answer);
                scope.spawn(move |_| {
                    let mut s = self.searcher(stop, helper);
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
        let a = answer.into_inner().unwrap_or_else(|e| e.into_inner());
        a.expect("a thread that is never stopped from outside always finishes")
    }

    /// Solves `g` and finds every best move (moves are checked in parallel, one per task).
    pub fn solve<G: Game>(&self, g: &G, depth: Depth) -> Solved {
        let nodes = AtomicU64::new(0);
        let mut probes = Vec::new();
        let score = drive(g, depth, |test| {
            let before = nodes.load(Ordering::Relaxed);
            let r = self.probe(g, test, &nodes);
            probes.push(Probe {
                test,
                result: r,
                nodes: nodes.load(Ordering::Relaxed) - before,
            });
            Ok::<i32, Stopped>(r)
        })
        .expect("never stopped");
        let target = match depth {
            Depth::Strong => score,
            Depth::Weak if score < 0 => -g.max_score(),
            Depth::Weak => score,
        };
        let moves: Vec<u64> = Bits(g.playable()).collect();
        let never = AtomicBool::new(false);
        let best_moves = self.pool.install(|| {
            moves
                .par_iter()
                .filter(|&&mv| {
                    let mut s = self.searcher(&never, 0);
                    let ok = s.achieves(g, mv, target).expect("never stopped");
                    nodes.fetch_add(s.nodes, Ordering::Relaxed);
                    ok
                })
                .copied()
                .collect()
        });
        Solved {
            score,
            best_moves,
            nodes: nodes.into_inner(),
            probes,
        }
    }
}
