//! The master: keeps the two question trees, sends most-proving leaves to idle workers as jobs,
//! grows the trees by their reports, writes what is settled to the position store (its one
//! writer), checkpoints, and stops with a value or when told.

use super::checkpoint::{self, Progress};
use super::protocol::{Job, Message, Outcome, Report};
use super::transport::{Event, Transport};
use super::tree::{NodeId, Policy, Tree};
use super::worker::attacker_of;
use crate::game::{Key, Player};
use crate::search::proof::{answer_from_bounds, bounds_from_outcome, Numbers, Settled, INFINITE};
use crate::solver::games::Solvable;
use crate::solver::{Control, SolveError, SolverConfig, StopReason};
use crate::store::Store;
use serde::Serialize;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How the master hands out work.
#[derive(Clone, Debug)]
pub struct JobSettings {
    /// Expanded nodes a worker may spend on one job.
    pub budget: u64,
    /// How jobs out count while the next ones are chosen.
    pub policy: Policy,
    /// How often the trees are checkpointed (with a table directory).
    pub checkpoint_every: Duration,
    /// Stop after this much wall-clock time.
    pub time_limit: Option<Duration>,
    /// Stop after this many jobs answered in this run (the restart tests' "kill").
    pub job_limit: Option<u64>,
    /// Jobs out per worker at a time: with two, a worker starts its next job while the report
    /// of the last is on its way and the master chooses again.
    pub jobs_per_worker: usize,
    /// Thresholds of a job are df-pn's times `1 + slack`: a job runs on a little after
    /// another leaf has become the most proving one (Pawlewicz and Lew's 1 + epsilon), so
    /// that jobs are fewer and longer. Changes the work, never the value.
    pub slack: f64,
}

impl Default for JobSettings {
    fn default() -> Self {
        JobSettings {
            budget: DEFAULT_JOB_NODES,
            policy: Policy::VirtualWin,
            checkpoint_every: Duration::from_secs(60),
            time_limit: None,
            job_limit: None,
            jobs_per_worker: 2,
            slack: DEFAULT_SLACK,
        }
    }
}

/// Nodes per job by default: about a second of a worker's search in the middle game, long
/// enough that a message's cost and the master's choice are small beside it, short enough that
/// the master's tree, not one worker, decides where the search goes.
pub const DEFAULT_JOB_NODES: u64 = 1 << 18;

/// See [`JobSettings::slack`].
pub const DEFAULT_SLACK: f64 = 0.25;

/// Jobs of the first turn of each question; each round doubles it (see `Master::after_send`).
const FIRST_TURN_JOBS: u64 = 8;

/// What a run of the master did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct JobStats {
    /// Workers at the start.
    pub workers: usize,
    /// Jobs sent.
    pub jobs: u64,
    /// Jobs answered proved, disproved, open.
    pub proved: u64,
    /// (see `proved`)
    pub disproved: u64,
    /// (see `proved`)
    pub open: u64,
    /// Answered jobs whose leaf, or a node above it, was settled before the answer came: work
    /// the speculation wasted.
    pub wasted: u64,
    /// Jobs lost with their worker (or stopped) and to be sent again.
    pub reissued: u64,
    /// Reports not accepted: for a job not out (answered already, or sent before a restart).
    pub stale: u64,
    /// Leaves settled from the position store without a job.
    pub from_store: u64,
    /// Messages sent and received.
    pub messages: u64,
    /// Bytes sent to workers.
    pub bytes_sent: u64,
    /// Bytes received from workers.
    pub bytes_received: u64,
    /// Nodes the workers searched.
    pub worker_nodes: u64,
    /// Seconds the workers spent on answered jobs.
    pub worker_seconds: f64,
    /// CPU seconds of the master's own thread.
    pub master_cpu_seconds: f64,
    /// Wall-clock seconds of the run.
    pub wall_seconds: f64,
    /// Nodes of the two trees at the end.
    pub tree_nodes: u64,
    /// Facts written to the position store.
    pub facts: u64,
    /// Jobs and worker nodes of earlier runs this one resumed (from the checkpoint).
    pub earlier_jobs: u64,
    /// (see `earlier_jobs`)
    pub earlier_nodes: u64,
}

impl JobStats {
    /// The share of the workers' time spent on answered jobs.
    pub fn busy_share(&self) -> f64 {
        if self.workers == 0 || self.wall_seconds <= 0.0 {
            return 0.0;
        }
        (self.worker_seconds / (self.workers as f64 * self.wall_seconds)).min(1.0)
    }
}

/// The value of a position proved by jobs.
#[derive(Clone, Debug, Serialize)]
pub struct Proved {
    /// The weak value for the side to move: 1 win, 0 draw, -1 loss.
    pub score: i32,
    /// What the run did.
    pub stats: JobStats,
}

/// A job out.
struct Out {
    worker: usize,
    question: usize,
    node: NodeId,
}

/// The master of one run; see the module documentation.
pub struct Master<'a, G: Solvable, T: Transport> {
    root: G,
    /// The root as the user wrote it: jobs name their positions by it and moves from it.
    start: String,
    session: u64,
    settings: JobSettings,
    transport: &'a mut T,
    store: Option<&'a Store>,
    checkpoint: Option<PathBuf>,
    control: &'a Control,
    /// Question 0: does the side to move win? Question 1: does the opponent?
    trees: [Tree; 2],
    /// Settle this question before the other, if set.
    first: Option<usize>,
    progress: Progress,
    out: HashMap<u64, Out>,
    idle: Vec<usize>,
    alive: Vec<bool>,
    next_id: u64,
    stats: JobStats,
}

impl<'a, G: Solvable, T: Transport> Master<'a, G, T> {
    /// A master for the position `root`, written `start` (keyed as the session's workers key
    /// it), of `session`,
    /// with the workers behind `transport`; with a `store`, the trees are checkpointed beside it
    /// at `checkpoint` and restored from there.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        root: G,
        start: &str,
        session: u64,
        cfg: &SolverConfig,
        settings: JobSettings,
        transport: &'a mut T,
        store: Option<&'a Store>,
        checkpoint: Option<PathBuf>,
        control: &'a Control,
    ) -> Result<Self, SolveError> {
        let policy = settings.policy;
        let (trees, progress) = match &checkpoint {
            Some(p) => checkpoint::load(p, session, policy, cfg.order_bias)
                .map_err(SolveError::BadInput)?,
            None => None,
        }
        .unwrap_or_else(|| {
            (
                [
                    Tree::new(true, policy, cfg.order_bias),
                    Tree::new(false, policy, cfg.order_bias),
                ],
                Progress {
                    round_jobs: FIRST_TURN_JOBS,
                    ..Progress::default()
                },
            )
        });
        let workers = transport.workers();
        // a worker's free job slots, each worker once per round so that all get work first
        let slots = (0..settings.jobs_per_worker.max(1))
            .flat_map(|_| (0..workers).rev())
            .collect();
        let first = cfg.first.map(|f| match f.proof_question() {
            crate::search::proof::Question::MoverWins => 0,
            crate::search::proof::Question::OpponentWins => 1,
        });
        Ok(Master {
            root,
            start: start.to_string(),
            session,
            stats: JobStats {
                workers,
                earlier_jobs: progress.jobs,
                earlier_nodes: progress.nodes,
                ..JobStats::default()
            },
            settings,
            transport,
            store,
            checkpoint,
            control,
            trees,
            first,
            progress: Progress {
                active: first.map_or(progress.active, |f| f as u8),
                ..progress
            },
            out: HashMap::new(),
            idle: slots,
            alive: vec![true; workers],
            next_id: 1,
        })
    }

    /// The value once known: a win of either side settles it, a draw needs both disproofs.
    fn value(&self) -> Option<i32> {
        match [self.trees[0].answer(), self.trees[1].answer()] {
            [Some(true), _] => Some(1),
            [_, Some(true)] => Some(-1),
            [Some(false), Some(false)] => Some(0),
            _ => None,
        }
    }

    /// Runs until the value is known, the time or job limit passes, or `control` stops it.
    pub fn run(mut self) -> Result<Proved, SolveError> {
        let start = Instant::now();
        let cpu0 = thread_cpu_seconds();
        let mut next_save = start + self.settings.checkpoint_every;
        let answered_at_start = self.answered();
        let result = loop {
            if let Some(score) = self.value() {
                break Ok(score);
            }
            if let Some(reason) = self.should_stop(start, answered_at_start) {
                break Err(reason);
            }
            self.dispatch()?;
            if self.out.is_empty() && self.value().is_none() {
                // nothing out and nothing to choose cannot happen with live workers: every
                // unsettled root has a leaf that is not out
                return Err(SolveError::BadInput(
                    "every worker is gone: nothing left to run the jobs".into(),
                ));
            }
            if let Some(event) = self.transport.receive(Duration::from_millis(100)) {
                self.hear(event)?;
            }
            if self.checkpoint.is_some() && Instant::now() >= next_save {
                let took = Instant::now();
                // the store first: a kill after this loses only what came later, and the
                // checkpoint never runs ahead of the facts written beside it
                self.flush_store()?;
                self.save_checkpoint();
                next_save =
                    Instant::now() + self.settings.checkpoint_every.max(took.elapsed() * 20);
            }
        };
        // jobs still out are leaves again (a restart sends them anew)
        for (_, o) in self.out.drain() {
            self.trees[o.question].abandon(o.node);
        }
        // the files before the workers end, the store first: decided, the store holds the
        // result and the trees go; stopped, the trees are saved, and a worker that ends while
        // a checkpoint is there saves its table beside it (`worker_state`)
        let files = self.flush_store().map(|()| match &result {
            Ok(_) => {
                if let Some(p) = &self.checkpoint {
                    let _ = std::fs::remove_file(p);
                }
            }
            Err(_) => self.save_checkpoint(),
        });
        self.transport.shut_down();
        self.stats.wall_seconds = start.elapsed().as_secs_f64();
        self.stats.master_cpu_seconds = thread_cpu_seconds() - cpu0;
        self.stats.tree_nodes = (self.trees[0].len() + self.trees[1].len()) as u64;
        files?;
        match result {
            Ok(score) => Ok(Proved {
                score,
                stats: self.stats,
            }),
            Err(reason) => Err(SolveError::Stopped {
                reason,
                nodes: self.stats.worker_nodes,
                elapsed: start.elapsed(),
                table: None,
            }),
        }
    }

    /// What the run did so far.
    pub fn stats(&self) -> &JobStats {
        &self.stats
    }

    fn answered(&self) -> u64 {
        self.stats.proved + self.stats.disproved + self.stats.open
    }

    fn should_stop(&self, start: Instant, answered_at_start: u64) -> Option<StopReason> {
        if let Some(r) = self.control.stopped() {
            return Some(r);
        }
        if self
            .settings
            .time_limit
            .is_some_and(|t| start.elapsed() >= t)
        {
            self.control.raise(StopReason::TimeLimit);
            return Some(StopReason::TimeLimit);
        }
        if self
            .settings
            .job_limit
            .is_some_and(|n| self.answered() - answered_at_start >= n)
        {
            self.control.cancel();
            return Some(StopReason::Cancelled);
        }
        None
    }

    /// Sends jobs to the idle workers while there are leaves to choose.
    fn dispatch(&mut self) -> Result<(), SolveError> {
        while !self.idle.is_empty() {
            let Some((question, node, thresholds)) = self.choose() else {
                return Ok(());
            };
            // the worker whose tables hold the leaf's subtree, if it has a free slot
            let slot = self.trees[question]
                .preferred_worker(node)
                .and_then(|w| self.idle.iter().rposition(|&i| i == w))
                .unwrap_or(self.idle.len() - 1);
            let worker = self.idle[slot];
            let thresholds = with_slack(thresholds, self.settings.slack);
            let g = self.position(question, node);
            let attacker = attacker_of(self.root.ply(), question == 0);
            if let Some(proved) = self.known(&g, attacker) {
                // settled by an earlier run's facts: no job needed
                self.stats.from_store += 1;
                let settled = self.trees[question].settle(node, proved);
                self.record(question, &settled);
                continue;
            }
            let id = self.next_id;
            self.next_id += 1;
            let job = Job {
                session: self.session,
                id,
                attacker,
                position: self.start.clone(),
                moves: self.trees[question].path(node),
                budget: self.settings.budget,
                thresholds,
            };
            let bytes = Message::Job(job).encode();
            self.stats.messages += 1;
            self.stats.bytes_sent += bytes.len() as u64;
            self.idle.remove(slot);
            if self.transport.send(worker, bytes).is_err() {
                self.alive[worker] = false;
                continue;
            }
            self.trees[question].begin(node, worker);
            self.out.insert(
                id,
                Out {
                    worker,
                    question,
                    node,
                },
            );
            self.stats.jobs += 1;
            self.after_send(question);
        }
        Ok(())
    }

    /// The next leaf: from the question worked on, else (every leaf there out) from the other
    /// one, unless the first question must be settled first.
    fn choose(&self) -> Option<(usize, NodeId, Numbers)> {
        let active = self.progress.active as usize;
        let mut order = vec![active];
        if self.first.is_none_or(|f| self.trees[f].answer().is_some()) {
            order.push(1 - active);
        }
        order
            .into_iter()
            .filter(|&q| self.trees[q].answer().is_none())
            .find_map(|q| self.trees[q].select().map(|(id, th)| (q, id, th)))
    }

    /// The questions take turns, as the local search's do: each turn gets a number of jobs that
    /// doubles every round, so a position is settled about as fast as its cheaper proof allows.
    fn after_send(&mut self, question: usize) {
        if question != self.progress.active as usize {
            return;
        }
        self.progress.jobs_in_turn += 1;
        let other = 1 - question;
        let may_switch = self.first.is_none_or(|f| self.trees[f].answer().is_some());
        if self.progress.jobs_in_turn >= self.progress.round_jobs
            && may_switch
            && self.trees[other].answer().is_none()
        {
            self.progress.active = other as u8;
            self.progress.jobs_in_turn = 0;
            if other == 0 {
                self.progress.round_jobs = self.progress.round_jobs.saturating_mul(2);
            }
        }
        if self.trees[question].answer().is_some() && self.trees[other].answer().is_none() {
            self.progress.active = other as u8;
        }
    }

    /// The position of `node` in the tree of `question`.
    fn position(&self, question: usize, node: NodeId) -> G {
        let mut g = self.root;
        for mv in self.trees[question].path(node) {
            g.play(mv);
        }
        g
    }

    /// Whether the store's facts answer "does `attacker` win from `g`?".
    fn known(&self, g: &G, attacker: Player) -> Option<bool> {
        let b = self.store?.settled(g.key())?;
        answer_from_bounds(b, Player::of_ply(g.ply()) == attacker)
    }

    fn hear(&mut self, event: Event) -> Result<(), SolveError> {
        match event {
            Event::Lost { worker } => {
                self.lose(worker);
                Ok(())
            }
            Event::Message { worker, bytes } => {
                self.stats.messages += 1;
                self.stats.bytes_received += bytes.len() as u64;
                match Message::decode(&bytes) {
                    Ok(Message::Report(r)) if r.session == self.session => self.accept(worker, r),
                    // not a report of this session: the worker cannot be trusted with jobs
                    _ => {
                        self.lose(worker);
                        Ok(())
                    }
                }
            }
        }
    }

    /// Worker `worker` is gone: its jobs go back to their trees, to be sent to others.
    fn lose(&mut self, worker: usize) {
        if !std::mem::replace(&mut self.alive[worker], false) {
            return;
        }
        self.idle.retain(|&w| w != worker);
        let lost: Vec<u64> = self
            .out
            .iter()
            .filter(|(_, o)| o.worker == worker)
            .map(|(&id, _)| id)
            .collect();
        for id in lost {
            let o = self.out.remove(&id).expect("listed above");
            self.trees[o.question].abandon(o.node);
            self.stats.reissued += 1;
        }
    }

    fn accept(&mut self, worker: usize, r: Report) -> Result<(), SolveError> {
        // a report is accepted once, for the job it names, from the worker it went to
        let Some(o) = self.out.remove_entry(&r.id).and_then(|(id, o)| {
            if o.worker == worker {
                Some(o)
            } else {
                self.out.insert(id, o);
                None
            }
        }) else {
            self.stats.stale += 1;
            return Ok(());
        };
        if self.alive[worker] {
            self.idle.push(worker);
        }
        self.stats.worker_nodes += r.nodes;
        self.stats.worker_seconds += r.seconds;
        self.progress.nodes += r.nodes;
        self.progress.jobs += 1;
        self.control
            .node_counter()
            .fetch_add(r.nodes, std::sync::atomic::Ordering::Relaxed);
        if self.trees[o.question].settled_above(o.node) {
            self.stats.wasted += 1;
        }
        if let Some(store) = self.store {
            for f in &r.facts {
                let b = crate::search::Bounds {
                    lower: f.lower,
                    upper: f.upper,
                    best: None,
                };
                store.record(Key::from_hash_low_bits(f.key), b, f.work);
            }
            self.stats.facts += r.facts.len() as u64;
        }
        let tree = &mut self.trees[o.question];
        let settled = match r.outcome {
            Outcome::Proved => {
                self.stats.proved += 1;
                tree.settle(o.node, true)
            }
            Outcome::Disproved => {
                self.stats.disproved += 1;
                tree.settle(o.node, false)
            }
            Outcome::Open { children, .. } => {
                self.stats.open += 1;
                if children.is_empty() {
                    return Err(SolveError::BadInput(format!(
                        "job {}: an open position without moves from worker {worker}",
                        r.id
                    )));
                }
                tree.expand(o.node, &children)
            }
            Outcome::Refused(why) => return Err(SolveError::BadInput(why)),
        };
        self.record(o.question, &settled);
        Ok(())
    }

    /// Writes the facts the settled nodes of `question`'s tree prove to the store.
    fn record(&mut self, question: usize, settled: &[NodeId]) {
        let Some(store) = self.store else { return };
        let attacker = attacker_of(self.root.ply(), question == 0);
        for &id in settled {
            let g = self.position(question, id);
            let Some(attacker_wins) = self.trees[question].answer_at(id) else {
                continue;
            };
            let attacker_to_move = Player::of_ply(g.ply()) == attacker;
            let mover_succeeds = attacker_wins == attacker_to_move;
            store.record(
                g.key(),
                bounds_from_outcome(mover_succeeds, attacker_to_move),
                u64::MAX,
            );
            self.stats.facts += 1;
        }
    }

    fn save_checkpoint(&self) {
        if let Some(p) = &self.checkpoint {
            if let Err(e) = checkpoint::save(p, self.session, &self.trees, self.progress) {
                eprintln!(
                    "warning: cannot save the job checkpoint {}: {e}",
                    p.display()
                );
            }
        }
    }

    fn flush_store(&self) -> Result<(), SolveError> {
        if let Some(store) = self.store {
            store.flush()?;
            if let Some(e) = store.error() {
                return Err(SolveError::Store(e));
            }
        }
        Ok(())
    }
}

/// `th` times `1 + slack`, each number at most [`INFINITE`].
fn with_slack(th: Numbers, slack: f64) -> Numbers {
    let scale =
        |t: u32| ((t as f64 * (1.0 + slack.max(0.0))).ceil() as u64).min(INFINITE as u64) as u32;
    Numbers {
        proof: scale(th.proof),
        disproof: scale(th.disproof),
    }
}

/// CPU seconds of the calling thread (Linux; 0 elsewhere).
fn thread_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
        return 0.0;
    };
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}
