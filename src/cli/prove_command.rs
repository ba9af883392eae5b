//! `zugzwang prove`: one position's value by the job-level proof search — worker threads of this
//! process, or MPI ranks (`--mpi`, a build with `--features mpi`).

use super::args::GameArgs;
use super::common::{CliError, Progress};
use clap::Args;
use std::sync::Arc;
use zugzwang::jobs::{self, JobSettings, Policy, Proved, DEFAULT_JOB_NODES};
use zugzwang::solver::budget::parse_duration;
use zugzwang::solver::{value_word, Control, Engine, Mode, Question, Request};

/// Options of `prove`, before the game.
#[derive(Args)]
pub struct ProveArgs {
    /// Worker threads of this process (default: one per core). With --mpi the ranks are the
    /// workers.
    #[arg(long)]
    pub workers: Option<usize>,
    /// Expanded nodes a worker spends on one job.
    #[arg(long, default_value_t = DEFAULT_JOB_NODES)]
    pub job_nodes: u64,
    /// How a job out counts while the next are chosen: virtual-win or virtual-loss.
    #[arg(long, default_value = "virtual-win")]
    pub policy: String,
    /// Jobs out per worker at a time (2: a worker starts its next job while its last report
    /// travels).
    #[arg(long, default_value_t = 2)]
    pub jobs_per_worker: usize,
    /// A job's thresholds are df-pn's times 1 + SLACK (larger: fewer, longer jobs).
    #[arg(long, default_value_t = jobs::master::DEFAULT_SLACK)]
    pub slack: f64,
    /// With --table: checkpoint the master's trees this often (e.g. 30s, 5m).
    #[arg(long, default_value = "60s", value_name = "DURATION")]
    pub checkpoint_every: String,
    /// Run under MPI: rank 0 is the master, every other rank a worker with --mem of its own and
    /// one search thread (`mpirun -np N zugzwang prove --mpi sogo ...`).
    #[arg(long)]
    pub mpi: bool,
    /// The game and position, with the options of `solve`.
    #[command(subcommand)]
    pub game: GameArgs,
}

/// Runs `prove`.
pub fn run(args: &ProveArgs) -> Result<i32, CliError> {
    let (spec, position, opts) = args.game.parts()?;
    for (given, name) in [
        (opts.batch.is_some(), "--batch"),
        (opts.book.is_some(), "--book"),
        (opts.record.is_some(), "--record"),
        (opts.strong, "--strong"),
    ] {
        if given {
            return Err(CliError::BadInput(format!(
                "{name} is for solve; prove gives win/draw/loss and prints its report (--json)"
            )));
        }
    }
    let mut request: Request = opts.request(spec, position, Question::Value)?;
    if opts.engine.is_none() {
        // the job-level search is the proof-number search, whatever the game's default engine
        request.config.engine = Engine::Pn;
        request.config.mode = Mode::Weak;
    }
    let policy = Policy::from_name(&args.policy).ok_or_else(|| {
        CliError::BadInput(format!(
            "--policy: '{}' is not virtual-win or virtual-loss",
            args.policy
        ))
    })?;
    if args.job_nodes == 0 {
        return Err(CliError::BadInput("--job-nodes must be at least 1".into()));
    }
    let checkpoint_every = parse_duration(&args.checkpoint_every)
        .map_err(|e| CliError::BadInput(format!("--checkpoint-every: {e}")))?;
    let settings = JobSettings {
        budget: args.job_nodes,
        policy,
        checkpoint_every,
        jobs_per_worker: args.jobs_per_worker.max(1),
        slack: args.slack,
        ..JobSettings::default()
    };
    jobs::check(&request)?;
    let control = Arc::new(Control::new());
    super::signals::stop_on_signals(control.clone());
    let proved = if args.mpi {
        match with_mpi(&request, settings, &control, opts.quiet || opts.json)? {
            Some(p) => p,
            // a worker rank: the master reports
            None => return Ok(0),
        }
    } else {
        let workers = args.workers.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        });
        let _progress = Progress::start("proving", control.clone(), opts.quiet || opts.json);
        jobs::prove_locally(&request, settings, workers, &control)?
    };
    print(&request, &proved, opts.json);
    Ok(0)
}

fn print(request: &Request, p: &Proved, json: bool) {
    if json {
        println!(
            "{}",
            serde_json::json!({
                "game": request.game.name(),
                "position": request.position,
                "score": p.score,
                "value": value_word(p.score),
                "jobs": p.stats,
            })
        );
        return;
    }
    let s = &p.stats;
    println!("value: {} ({:+})", value_word(p.score), p.score);
    println!(
        "jobs: {} sent ({} proved, {} disproved, {} open), {} wasted, {} sent again, {} stale \
         reports, {} leaves from the store",
        s.jobs, s.proved, s.disproved, s.open, s.wasted, s.reissued, s.stale, s.from_store
    );
    println!(
        "workers: {}, {} nodes, busy {:.0}% of {:.1} s; master CPU {:.2} s; tree {} nodes",
        s.workers,
        s.worker_nodes,
        100.0 * s.busy_share(),
        s.wall_seconds,
        s.master_cpu_seconds,
        s.tree_nodes
    );
    println!(
        "messages: {} ({} bytes out, {} in); facts stored: {}",
        s.messages, s.bytes_sent, s.bytes_received, s.facts
    );
    if s.earlier_jobs > 0 {
        println!(
            "resumed: {} jobs and {} nodes in earlier runs",
            s.earlier_jobs, s.earlier_nodes
        );
    }
}

#[cfg(feature = "mpi")]
fn with_mpi(
    request: &Request,
    settings: JobSettings,
    control: &Arc<Control>,
    quiet: bool,
) -> Result<Option<Proved>, CliError> {
    use mpi::traits::Communicator;
    let universe =
        mpi::initialize().ok_or_else(|| CliError::Failed("MPI is already initialised".into()))?;
    let world = universe.world();
    if world.size() < 2 {
        return Err(CliError::BadInput(
            "--mpi needs at least two ranks (mpirun -np 2 or more): rank 0 is the master".into(),
        ));
    }
    // a rank runs one search (jobs are the parallelism), as a local worker thread does
    let cfg = zugzwang::solver::SolverConfig {
        threads: 1,
        ..request.config.clone()
    };
    let session = jobs::session_id(request.game, &cfg, &request.position);
    if world.rank() > 0 {
        let state = jobs::worker_state(
            request,
            &cfg,
            session,
            world.rank() as usize - 1,
            settings.checkpoint_every,
        );
        let mut handle = jobs::handler_for(request.game, &cfg, session, None, None, state);
        jobs::mpi::serve(&world, |b| handle(b));
        return Ok(None);
    }
    let mut transport = jobs::mpi::MpiTransport::new(world);
    let _progress = Progress::start("proving", control.clone(), quiet);
    let store = jobs::open_store(request, &cfg)?;
    let p = jobs::prove_with(
        request,
        &cfg,
        settings,
        &mut transport,
        store.as_ref(),
        control,
    );
    jobs::forget_worker_states(request, &p);
    Ok(Some(p?))
}

#[cfg(not(feature = "mpi"))]
fn with_mpi(
    _: &Request,
    _: JobSettings,
    _: &Arc<Control>,
    _: bool,
) -> Result<Option<Proved>, CliError> {
    Err(CliError::BadInput(
        "--mpi: this zugzwang was built without MPI (cargo build --release --features mpi)".into(),
    ))
}
