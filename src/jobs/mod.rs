//! Job-level proof-number search (Wu, Lin, Lin and others, 2013; the TU Munich Sogo attempt ran
//! it): one solve across many workers — threads of this process, or MPI ranks on a cluster.
//!
//! A master keeps the top of the proof tree of each question ("does the side to move win?",
//! "does the opponent?", taking turns as the local search's do) in memory and checkpointed on
//! disk. It repeatedly picks a most-proving leaf and sends it to an idle worker as a job: the
//! position, the question and a budget of nodes. The worker runs the local proof search (its
//! forcing-win leaves, static bounds and endgames, in tables of its own) for that budget and
//! reports: proved, disproved, or open with the numbers of the position's children, which the
//! master adds to its tree; and the settled results worth keeping, which the master — the store's
//! one writer — writes to the position store. Several jobs are out at once: a leaf out counts as
//! a virtual win or loss while the next ones are chosen ([`Policy`]).
//!
//! Why the answer is exact: every number the master settles a node with is a proof — a worker's
//! proof or disproof of the leaf's question, or a fact of the store — and its tree combines them
//! by the rules of minimax (`tree`); virtual numbers steer the choice of leaves and never settle
//! anything. A report counts only for the job it names, once, from the worker it was sent to,
//! and only in its session (game, rules, keys, start), so a late, repeated or foreign report
//! changes nothing.
//!
//! Faults: a worker that dies (a panicking thread; a report that is not one) has its jobs sent to
//! others. A killed run restarts from the checkpoint (`job-trees.zzj` in the table directory,
//! see [`checkpoint`]) and the store, losing the jobs that were out. The final value is in the
//! store, where `table check` re-checks it like any solve's.
//!
//! By file: the messages and their bytes ([`protocol`]), the master's tree ([`tree`]), the
//! master ([`master`]), a worker ([`worker`]), moving bytes ([`transport`]; MPI ranks in `mpi`
//! behind the `mpi` feature), the checkpoint ([`checkpoint`]), and a replay of real jobs on many
//! simulated workers ([`simulate`]).

pub mod checkpoint;
pub mod master;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod protocol;
pub mod simulate;
#[cfg(test)]
mod tests;
pub mod transport;
pub mod tree;
pub mod worker;
pub mod worker_state;

pub use master::{JobSettings, JobStats, Master, Proved, DEFAULT_JOB_NODES};
pub use transport::{ThreadTransport, Transport};
pub use tree::Policy;
pub use worker::{session_id, JobWorker};
pub use worker_state::WorkerState;

use crate::game::{Connect4, Cube};
use crate::solver::engines::SEARCH_STATE_EVERY;
use crate::solver::games::{game_over_score, Solvable};
use crate::solver::{Control, Engine, GameSpec, KeyMode, Request, SolveError, SolverConfig};
use crate::store::Store;
use std::sync::Arc;

/// Memory of the master's store layer out of a local run's budget: the master only looks up
/// leaves and writes facts, the workers search.
const MASTER_MEM_SHARE: u64 = 16;

/// Refuses what the job-level search cannot run, in one line: it is the proof-number search
/// (weak values) over sound keys.
pub fn check(request: &Request) -> Result<(), SolveError> {
    let cfg = &request.config;
    if cfg.engine != Engine::Pn {
        return Err(SolveError::BadInput(
            "prove runs the proof-number search (--engine pn)".into(),
        ));
    }
    if cfg.key_mode == KeyMode::Seed {
        return Err(SolveError::BadInput(
            "prove keeps only sound facts: --keys seed is for the seed's own engine".into(),
        ));
    }
    cfg.check().map_err(SolveError::BadInput)
}

/// Proves `request`'s position with `workers` worker threads of this process (each with one
/// search thread and an equal share of the memory budget).
pub fn prove_locally(
    request: &Request,
    settings: JobSettings,
    workers: usize,
    control: &Arc<Control>,
) -> Result<Proved, SolveError> {
    check(request)?;
    let workers = workers.max(1);
    let mut cfg = request.config.clone();
    cfg.threads = 1;
    let master_mem = cfg.mem_bytes / MASTER_MEM_SHARE;
    let worker_cfg = SolverConfig {
        mem_bytes: (cfg.mem_bytes - master_mem) / workers as u64,
        ..cfg.clone()
    };
    let spec = request.game;
    let session = session_id(spec, &cfg, &request.position);
    let cfg = SolverConfig {
        mem_bytes: master_mem,
        ..cfg
    };
    let store = open_store(request, &cfg)?.map(Arc::new);
    let make = {
        let (control, store, request) = (control.clone(), store.clone(), request.clone());
        let every = settings.checkpoint_every;
        move |i: usize| {
            handler_for(
                spec,
                &worker_cfg,
                session,
                Some(control.clone()),
                store.clone(),
                worker_state(&request, &worker_cfg, session, i, every),
            )
        }
    };
    let mut transport = ThreadTransport::spawn(workers, make);
    let result = prove_with(
        request,
        &cfg,
        settings,
        &mut transport,
        store.as_deref(),
        control,
    );
    // workers stop their jobs with the master
    control.cancel();
    transport.shut_down();
    forget_worker_states(request, &result);
    result
}

/// Removes the workers' snapshots once the position is decided (the store holds the result).
pub fn forget_worker_states(request: &Request, result: &Result<Proved, SolveError>) {
    if let (Some(dir), Ok(_)) = (&request.table, result) {
        worker_state::remove_all(dir);
    }
}

/// The position store of `request`'s table directory (created if missing), with `cfg`'s memory
/// for its memory layer; `None` without a table.
pub fn open_store(request: &Request, cfg: &SolverConfig) -> Result<Option<Store>, SolveError> {
    let Some(dir) = &request.table else {
        return Ok(None);
    };
    Ok(Some(crate::solver::session::open_store(
        request.game,
        cfg,
        dir,
        &request.position,
        SEARCH_STATE_EVERY,
        cfg.mem_bytes as usize,
    )?))
}

/// Proves `request`'s position with `workers` simulated workers ([`simulate`]): the real
/// master and real jobs (each simulated worker with tables of `worker_mem` bytes, one search
/// thread), a simulated clock with `latency` seconds a message. For forecasts of runs on more
/// cores than this machine has.
pub fn prove_simulated(
    request: &Request,
    settings: JobSettings,
    workers: usize,
    worker_mem: u64,
    latency: f64,
) -> Result<(Proved, simulate::SimStats), SolveError> {
    check(request)?;
    let mut cfg = request.config.clone();
    cfg.threads = 1;
    let worker_cfg = SolverConfig {
        mem_bytes: worker_mem,
        ..cfg.clone()
    };
    let spec = request.game;
    let session = session_id(spec, &cfg, &request.position);
    let mut t = simulate::SimTransport::new(workers.max(1), latency, move |_| {
        handler_for(spec, &worker_cfg, session, None, None, None)
    });
    let store = open_store(request, &cfg)?;
    let p = prove_with(
        request,
        &cfg,
        settings,
        &mut t,
        store.as_ref(),
        &Control::new(),
    )?;
    Ok((p, t.stats))
}

/// A worker's handler for `spec`'s game: a job's bytes in, a report's bytes out. With a
/// `control`, the worker stops its job when it is cancelled (local workers stop with their
/// master); with a `store` (local workers: the master's), it reads the facts there, its own
/// and other workers' and earlier runs', never writing (the master is the one writer).
pub fn handler_for(
    spec: GameSpec,
    cfg: &SolverConfig,
    session: u64,
    control: Option<Arc<Control>>,
    store: Option<Arc<Store>>,
    state: Option<WorkerState>,
) -> transport::Handler {
    fn make<G: Solvable>(
        spec: GameSpec,
        cfg: &SolverConfig,
        session: u64,
        control: Option<Arc<Control>>,
        store: Option<Arc<Store>>,
        state: Option<WorkerState>,
    ) -> transport::Handler {
        let mut w = JobWorker::<G>::new(spec, cfg, session);
        if let Some(c) = control {
            w = w.with_control(c);
        }
        if let Some(s) = store {
            w = w.reading(s);
        }
        if let Some(s) = state {
            w = w.keeping(s);
        }
        Box::new(move |bytes: &[u8]| w.handle(bytes))
    }
    match spec {
        GameSpec::Connect4 { .. } => make::<Connect4>(spec, cfg, session, control, store, state),
        GameSpec::Cube(_) => make::<Cube>(spec, cfg, session, control, store, state),
    }
}

/// The snapshot of worker `index` in `request`'s table directory, if it has one.
pub fn worker_state(
    request: &Request,
    cfg: &SolverConfig,
    session: u64,
    index: usize,
    every: std::time::Duration,
) -> Option<WorkerState> {
    let dir = request.table.as_deref()?;
    Some(WorkerState::new(dir, index, session, cfg.hash_seed, every))
}

/// The master's side of a run over any transport: reads the position and runs the master
/// over `store` (see [`open_store`]), checkpointing beside it.
pub fn prove_with<T: Transport>(
    request: &Request,
    cfg: &SolverConfig,
    settings: JobSettings,
    transport: &mut T,
    store: Option<&Store>,
    control: &Control,
) -> Result<Proved, SolveError> {
    check(request)?;
    match request.game {
        GameSpec::Connect4 { .. } => {
            prove_game::<Connect4, T>(request, cfg, settings, transport, store, control)
        }
        GameSpec::Cube(_) => {
            prove_game::<Cube, T>(request, cfg, settings, transport, store, control)
        }
    }
}

fn prove_game<G: Solvable, T: Transport>(
    request: &Request,
    cfg: &SolverConfig,
    settings: JobSettings,
    transport: &mut T,
    store: Option<&Store>,
    control: &Control,
) -> Result<Proved, SolveError> {
    let g = G::parse(request.game, &request.position, cfg.hash_seed)
        .map_err(SolveError::BadInput)?
        .keyed(cfg.hash_seed, cfg.key_mode);
    if let Some(score) = game_over_score(&g) {
        return Ok(finished(score.signum()));
    }
    if g.winning_moves() != 0 {
        return Ok(finished(1));
    }
    let session = session_id(request.game, cfg, &request.position);
    let checkpoint = request.table.as_deref().map(checkpoint::path_in);
    let settings = JobSettings {
        time_limit: settings.time_limit.or(request.time_limit),
        ..settings
    };
    let master = Master::new(
        g,
        &request.position,
        session,
        cfg,
        settings,
        transport,
        store,
        checkpoint,
        control,
    )?;
    let proved = master.run();
    if let Some(s) = store {
        record_root(s, &g, &proved);
    }
    proved
}

/// Writes the root's value to the store (the tree's root fact is written as it settles; this
/// covers a value decided by both questions, a draw, whose two facts combine to one).
fn record_root<G: Solvable>(store: &Store, g: &G, proved: &Result<Proved, SolveError>) {
    use crate::search::proof::Settled;
    if let Ok(p) = proved {
        // the weak value as bounds: a win is "at least 1", a loss "at most -1", a draw 0
        let (lower, upper) = match p.score {
            1 => (1, i8::MAX),
            -1 => (i8::MIN, -1),
            _ => (0, 0),
        };
        store.record(
            g.key(),
            crate::search::Bounds {
                lower,
                upper,
                best: None,
            },
            u64::MAX,
        );
        let _ = store.flush();
    }
}

/// The answer for a position decided without a job.
fn finished(score: i32) -> Proved {
    Proved {
        score,
        stats: JobStats::default(),
    }
}
