//! Running solves for the server: at most a fixed number at once (a semaphore), each on a
//! blocking thread so the server keeps answering, each within the time budget, each cancelled
//! when its client goes away or asks to. Solvers are kept between requests (their tables make
//! the next click's analysis faster), at most as many as may run at once.

use super::query::{ApiError, Position};
use crate::book::Book;
use crate::solver::{
    Control, GameSpec, Question, Solution, SolveError, Solver, SolverConfig, StopReason,
};
use axum::http::StatusCode;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// How the server solves: limits and what every solve gets.
#[derive(Clone, Debug)]
pub struct SolveLimits {
    /// Solves running at once.
    pub max_solves: usize,
    /// Wall-clock budget of one request (waiting for a slot included).
    pub budget: Duration,
    /// Table memory of one solver.
    pub mem_bytes: u64,
    /// Search threads of one solver.
    pub threads: usize,
    /// A directory of position stores, one per game and board (`DIR/connect4-7x6`).
    pub table: Option<PathBuf>,
}

/// The outcome of one solve request.
pub enum Outcome {
    /// Decided.
    Solved(Box<Solution>),
    /// Stopped before deciding: the budget ran out, or it was cancelled.
    Undecided(SolveError),
}

/// A solve in progress, as `/api/progress` shows it.
struct Job {
    control: Arc<Control>,
    started: Instant,
}

/// The server's solving machinery, shared by every request.
pub struct Solves {
    limits: SolveLimits,
    slots: Arc<Semaphore>,
    book: Option<Arc<Book>>,
    idle: Mutex<Vec<Solver>>,
    /// Games whose position store a solver holds now (one per directory at a time).
    tables_out: Mutex<Vec<GameSpec>>,
    jobs: Mutex<HashMap<String, Job>>,
    /// Solves started, finished with an answer, stopped by the budget, cancelled.
    pub(crate) counts: Counts,
}

/// Counters for `/api/status` (and the tests).
#[derive(Default)]
pub struct Counts {
    /// Solves started.
    pub started: AtomicU64,
    /// Solves that decided the position.
    pub solved: AtomicU64,
    /// Solves stopped by the time budget.
    pub timed_out: AtomicU64,
    /// Solves cancelled (client gone, or `/api/cancel`).
    pub cancelled: AtomicU64,
}

/// A request's hold on its solve: when the request ends, its job name is forgotten, and if it
/// ends before the answer (the client closed the connection, so the request was dropped) the
/// solve is cancelled.
struct JobGuard<'a> {
    solves: &'a Solves,
    job: Option<String>,
    control: Arc<Control>,
    answered: bool,
}

impl Drop for JobGuard<'_> {
    fn drop(&mut self) {
        if !self.answered {
            self.control.cancel();
        }
        if let Some(job) = &self.job {
            let mut jobs = self.solves.jobs.lock().expect("jobs lock");
            // a later request may have reused the name: forget only our own
            if jobs
                .get(job)
                .is_some_and(|j| Arc::ptr_eq(&j.control, &self.control))
            {
                jobs.remove(job);
            }
        }
    }
}

impl Solves {
    /// The machinery for `limits`, answering from `book` where it can.
    pub fn new(limits: SolveLimits, book: Option<Arc<Book>>) -> Solves {
        Solves {
            slots: Arc::new(Semaphore::new(limits.max_solves.max(1))),
            limits,
            book,
            idle: Mutex::new(Vec::new()),
            tables_out: Mutex::new(Vec::new()),
            jobs: Mutex::new(HashMap::new()),
            counts: Counts::default(),
        }
    }

    /// The limits.
    pub fn limits(&self) -> &SolveLimits {
        &self.limits
    }

    /// The book, if any.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// Solves running now.
    pub fn running(&self) -> usize {
        self.limits.max_solves.max(1) - self.slots.available_permits()
    }

    /// Answers `question` about `pos` within the budget. A slot is waited for within the
    /// budget too (HTTP 503 if none frees); the solve runs on a blocking thread and is
    /// cancelled if this future is dropped.
    pub async fn solve(
        self: &Arc<Self>,
        pos: Position,
        question: Question,
    ) -> Result<Outcome, ApiError> {
        let start = Instant::now();
        let budget = self.limits.budget;
        let permit = match tokio::time::timeout(budget, self.slots.clone().acquire_owned()).await {
            Ok(Ok(p)) => p,
            _ => {
                return Err(ApiError::with_status(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "busy: all {} solve slots stayed taken for the {:.1} s budget",
                        self.limits.max_solves,
                        budget.as_secs_f64()
                    ),
                ))
            }
        };
        let control = Arc::new(Control::new());
        let mut guard = JobGuard {
            solves: self,
            job: pos.job.clone(),
            control: control.clone(),
            answered: false,
        };
        if let Some(job) = &pos.job {
            self.jobs.lock().expect("jobs lock").insert(
                job.clone(),
                Job {
                    control: control.clone(),
                    started: start,
                },
            );
        }
        let left = budget
            .saturating_sub(start.elapsed())
            .max(Duration::from_millis(1));
        let me = self.clone();
        let (spec, moves) = (pos.spec, pos.moves.clone());
        let task_control = control.clone();
        self.counts.started.fetch_add(1, Ordering::Relaxed);
        let task = tokio::task::spawn_blocking(move || {
            // the permit is held until the search has really stopped
            let _permit = permit;
            let mut solver = me.take_solver(spec)?;
            let result = solver.solve(&moves, question, Some(left), &task_control);
            me.put_back(solver);
            // counted here: a request whose client left is dropped before it could count
            let counter = match &result {
                Ok(_) => Some(&me.counts.solved),
                Err(SolveError::Stopped { reason, .. }) => Some(match reason {
                    StopReason::TimeLimit => &me.counts.timed_out,
                    StopReason::Cancelled => &me.counts.cancelled,
                }),
                Err(_) => None,
            };
            if let Some(c) = counter {
                c.fetch_add(1, Ordering::Relaxed);
            }
            result
        });
        let joined = task.await;
        guard.answered = true;
        drop(guard);
        match joined {
            Ok(Ok(s)) => Ok(Outcome::Solved(Box::new(s))),
            Ok(Err(e @ SolveError::Stopped { .. })) => Ok(Outcome::Undecided(e)),
            Ok(Err(SolveError::BadInput(m))) => Err(ApiError::bad(m)),
            Ok(Err(e)) => Err(ApiError::with_status(
                StatusCode::INTERNAL_SERVER_ERROR,
                e.to_string(),
            )),
            Err(e) => Err(ApiError::with_status(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the solve failed: {e}"),
            )),
        }
    }

    /// An idle solver for `spec`, or a new one (with the game's position store if no other
    /// solver holds it, and the book if it is for this game).
    fn take_solver(&self, spec: GameSpec) -> Result<Solver, SolveError> {
        {
            let mut idle = self.idle.lock().expect("idle lock");
            if let Some(i) = idle.iter().position(|s| s.game() == spec) {
                return Ok(idle.swap_remove(i));
            }
        }
        let config = SolverConfig {
            mem_bytes: self.limits.mem_bytes,
            threads: self.limits.threads,
            ..SolverConfig::for_game(spec)
        };
        let mut solver = Solver::new(spec, config)?;
        if let Some(book) = self.book.as_ref().filter(|b| b.spec() == spec) {
            solver = solver.with_book(book.clone())?;
        }
        if let Some(dir) = &self.limits.table {
            let mut out = self.tables_out.lock().expect("tables lock");
            if !out.contains(&spec) {
                let sub = dir.join(format!("{}-{}", spec.name(), spec.size()));
                solver = solver.with_table(&sub, "")?;
                out.push(spec);
            }
        }
        Ok(solver)
    }

    /// Keeps `solver` for the next request, dropping the oldest idle one beyond the limit
    /// (memory stays within `max_solves` solvers' tables).
    fn put_back(&self, solver: Solver) {
        let mut idle = self.idle.lock().expect("idle lock");
        idle.push(solver);
        while idle.len() > self.limits.max_solves.max(1) {
            let old = idle.remove(0);
            let (game, had_table) = (old.game(), old.has_table());
            // closes the store (and its lock) before another solver may open it
            drop(old);
            if had_table {
                self.tables_out
                    .lock()
                    .expect("tables lock")
                    .retain(|&g| g != game);
            }
        }
    }

    /// Nodes and seconds of the running job `name`.
    pub fn progress(&self, name: &str) -> Option<(u64, f64)> {
        let jobs = self.jobs.lock().expect("jobs lock");
        jobs.get(name)
            .map(|j| (j.control.nodes(), j.started.elapsed().as_secs_f64()))
    }

    /// Cancels the running job `name`; whether there was one.
    pub fn cancel(&self, name: &str) -> bool {
        let jobs = self.jobs.lock().expect("jobs lock");
        match jobs.get(name) {
            Some(j) => {
                j.control.cancel();
                true
            }
            None => false,
        }
    }
}
