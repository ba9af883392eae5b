//! A worker: the local proof search, run on one job at a time within the job's budget, with
//! tables of its own that it keeps from job to job (neighbouring jobs share much of their
//! trees).

use super::protocol::{Fact, Job, Message, Outcome, Report};
use super::worker_state::WorkerState;
use crate::game::{Key, Player};
use crate::search::proof::{JobAnswer, Settled};
use crate::search::Bounds;
use crate::solver::engines::{self, ProofTables, PN_RECORD_MIN_WORK};
use crate::solver::games::Solvable;
use crate::solver::{Control, GameSpec, SolverConfig};
use crate::store::Store;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The settled results of a worker's search worth keeping, collected for the master (the one
/// writer of the position store), and the store's facts where the worker can read it (a local
/// worker: the master's store, in the same process).
#[derive(Default)]
struct Collected(Mutex<Vec<Fact>>, Option<Arc<Store>>);

impl Settled for Collected {
    fn settled(&self, key: Key) -> Option<Bounds> {
        self.1.as_ref()?.settled(key)
    }

    fn record(&self, key: Key, bounds: Bounds, work: u64) {
        self.0.lock().expect("facts lock poisoned").push(Fact {
            key: key.get(),
            lower: bounds.lower,
            upper: bounds.upper,
            work,
        });
    }
}

/// One worker of one session; see the module documentation.
pub struct JobWorker<G: Solvable> {
    spec: GameSpec,
    cfg: SolverConfig,
    session: u64,
    tables: ProofTables,
    control: Arc<Control>,
    facts: Collected,
    /// The last start position read, with its text.
    start: Option<(String, G)>,
    /// Where the worker saves its table for a restart, if the run has a table directory.
    state: Option<WorkerState>,
    _game: PhantomData<G>,
}

impl<G: Solvable> JobWorker<G> {
    /// A worker for `session` of `spec` searching as `cfg` says, in `cfg.mem_bytes` of tables.
    pub fn new(spec: GameSpec, cfg: &SolverConfig, session: u64) -> JobWorker<G> {
        let cfg = cfg.clone().with_resolved_threads();
        JobWorker {
            spec,
            tables: ProofTables::new(cfg.mem_bytes, cfg.endgame > 0, cfg.threads),
            cfg,
            session,
            control: Arc::new(Control::new()),
            facts: Collected::default(),
            start: None,
            state: None,
            _game: PhantomData,
        }
    }

    /// The same worker stopping its job when `control` is cancelled (local workers, which
    /// stop with their master).
    pub fn with_control(mut self, control: Arc<Control>) -> JobWorker<G> {
        self.control = control;
        self
    }

    /// The same worker reading facts from `store` (never writing: the master is its writer).
    pub fn reading(mut self, store: Arc<Store>) -> JobWorker<G> {
        self.facts.1 = Some(store);
        self
    }

    /// The same worker starting from, and saving to, the snapshot `state` (see
    /// [`super::worker_state`]).
    pub fn keeping(mut self, state: WorkerState) -> JobWorker<G> {
        state.load_into(&self.tables.proof);
        self.state = Some(state);
        self
    }

    /// Answers the message in `bytes`: a report's bytes for a job, `None` for the end (or
    /// bytes that are no message: a master never sends those, and a worker cannot answer them).
    pub fn handle(&mut self, bytes: &[u8]) -> Option<Vec<u8>> {
        match Message::decode(bytes) {
            Ok(Message::Job(job)) => self.run(&job).map(|r| Message::Report(r).encode()),
            _ => None,
        }
    }

    /// The job's position: its start (read once per session start and kept), then its moves,
    /// each checked to be legal.
    fn position(&mut self, job: &Job) -> Result<G, String> {
        let start = match &self.start {
            Some((text, g)) if *text == job.position => *g,
            _ => {
                let g = G::parse(self.spec, &job.position, self.cfg.hash_seed)?
                    .keyed(self.cfg.hash_seed, self.cfg.key_mode);
                self.start = Some((job.position.clone(), g));
                g
            }
        };
        let mut g = start;
        for &mv in &job.moves {
            if mv.count_ones() != 1 || g.playable() & mv == 0 || g.last_mover_won() {
                return Err(format!("move {mv:#x} is not playable there"));
            }
            g.play(mv);
        }
        Ok(g)
    }

    /// Works on `job` for its budget; `None` if the worker's control stopped it.
    pub fn run(&mut self, job: &Job) -> Option<Report> {
        let start = Instant::now();
        let session = self.session;
        let refused = |why: String| Report {
            session,
            id: job.id,
            outcome: Outcome::Refused(why),
            nodes: 0,
            seconds: 0.0,
            facts: Vec::new(),
        };
        if job.session != self.session {
            return Some(refused(format!(
                "job {} belongs to another session ({:016x}, this worker's is {:016x}): the \
                 master and its workers were started with different games or settings",
                job.id, job.session, self.session
            )));
        }
        let g = match self.position(job) {
            Ok(g) => g,
            Err(e) => return Some(refused(format!("job {}: {e}", job.id))),
        };
        // (the tables keep the last job's caches for the next)
        let mut search = engines::proof_search(&self.tables, &self.cfg, &self.control)
            .with_settled(&self.facts, PN_RECORD_MIN_WORK);
        let answer = search.question_within(&g, job.attacker, job.budget, job.thresholds);
        let nodes = search.nodes + search.endgame_nodes;
        self.tables.keep_scratch(search);
        if let Some(state) = &mut self.state {
            state.save_if_due(&self.tables.proof);
        }
        let facts = std::mem::take(&mut *self.facts.0.lock().expect("facts lock poisoned"));
        let outcome = match answer {
            Ok(JobAnswer::Proved) => Outcome::Proved,
            Ok(JobAnswer::Disproved) => Outcome::Disproved,
            Ok(JobAnswer::Open { numbers, children }) => Outcome::Open { numbers, children },
            Err(_) => return None,
        };
        Some(Report {
            session: self.session,
            id: job.id,
            outcome,
            nodes,
            seconds: start.elapsed().as_secs_f64(),
            facts,
        })
    }
}

impl<G: Solvable> Drop for JobWorker<G> {
    /// A worker ending with its run undecided keeps its table for the restart (see
    /// [`WorkerState::save_at_end`]); one ending in a panic saves nothing.
    fn drop(&mut self) {
        if let (Some(state), false) = (&self.state, std::thread::panicking()) {
            state.save_at_end(&self.tables.proof);
        }
    }
}

/// The identity of a session, which every job and report carries: the game and its rules, the
/// keys (mode and hash seed) and the start position. A worker started with other settings
/// refuses the master's jobs.
pub fn session_id(spec: GameSpec, cfg: &SolverConfig, start: &str) -> u64 {
    let text = format!("{spec:?}|{}|{}|{start}", cfg.key_mode.name(), cfg.hash_seed);
    xxhash_rust::xxh3::xxh3_64(text.as_bytes())
}

/// The attacker of a question about `g`'s side to move: `mover` asks "does the side to move
/// win?", otherwise "does the opponent win?".
pub fn attacker_of(ply: u32, mover: bool) -> Player {
    let me = Player::of_ply(ply);
    if mover {
        me
    } else {
        me.other()
    }
}
