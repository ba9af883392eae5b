//! Several threads on one question: they share the table, follow the same best path, and split
//! the defender's moves among themselves where another thread is already in the best one.

use super::dfpn::biased;
use super::{ChildCache, Halt, ProofSearch, INFINITE};
use crate::game::Game;
use crate::search::vcf::ForcingSearch;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};

/// Slots of the marks of the positions on the threads' current paths (see [`Shared`]).
const BUSY_SLOTS: usize = 1 << 16;

/// What the threads of one parallel search share besides the table: how many threads have each
/// position on their current path (by a hash slot of its tag; a collision only makes a thread
/// avoid a position nobody is in), and the flag that ends the search for all of them.
pub(super) struct Shared {
    pub(super) busy: Vec<AtomicU16>,
    pub(super) abandon: AtomicBool,
}

impl Shared {
    pub(super) fn new() -> Self {
        Shared {
            busy: (0..BUSY_SLOTS).map(|_| AtomicU16::new(0)).collect(),
            abandon: AtomicBool::new(false),
        }
    }
}

/// What a worker counted, handed back to the search that started it.
struct Counts {
    nodes: u64,
    forcing_wins: u64,
    endgame_nodes: u64,
    split_choices: u64,
    settled_hits: u64,
    recorded: u64,
    replay_proofs: u64,
    unreported: u64,
}

impl Counts {
    fn of(w: &ProofSearch<'_>) -> Counts {
        Counts {
            nodes: w.nodes,
            forcing_wins: w.forcing_wins,
            endgame_nodes: w.endgame_nodes,
            split_choices: w.split_choices,
            settled_hits: w.settled_hits,
            recorded: w.recorded,
            replay_proofs: w.replay_proofs,
            unreported: w.unreported,
        }
    }

    fn add_to(self, s: &mut ProofSearch<'_>) {
        s.nodes += self.nodes;
        s.forcing_wins += self.forcing_wins;
        s.endgame_nodes += self.endgame_nodes;
        s.split_choices += self.split_choices;
        s.settled_hits += self.settled_hits;
        s.recorded += self.recorded;
        s.replay_proofs += self.replay_proofs;
        // a worker's last nodes not yet shown
        s.count_for_progress(self.unreported);
    }
}

#[inline]
pub(super) fn busy_slot(tag: u64) -> usize {
    (tag.wrapping_mul(0xd6e8_feb8_6659_fd93) >> (64 - BUSY_SLOTS.trailing_zeros())) as usize
}

impl<'t> ProofSearch<'t> {
    /// A worker of a parallel search: this search's settings, its own cache of children,
    /// forcing-win search and counters, `share` of the node budget.
    fn worker<'s>(
        &self,
        shared: &'s Shared,
        (child_cache, forcing): (ChildCache, ForcingSearch),
        share: u64,
    ) -> ProofSearch<'s>
    where
        't: 's,
    {
        ProofSearch {
            table: self.table,
            nodes: 0,
            forcing,
            forcing_wins: 0,
            endgame: self.endgame,
            endgame_nodes: 0,
            split_choices: 0,
            first_question: None,
            attacker: self.attacker,
            node_limit: share,
            proof_limit: self.proof_limit,
            order_bias: self.order_bias,
            stop: self.stop,
            progress: self.progress,
            unreported: 0,
            threads: 1,
            shared: Some(shared),
            zone_guess: self.zone_guess,
            child_cache,
            helpers: Vec::new(),
            settled: self.settled,
            record_min_work: self.record_min_work,
            settled_hits: 0,
            recorded: 0,
            root_report: self.root_report,
            report_line: super::ReportLine::at(0),
            replay_budget: self.replay_budget,
            replay_proofs: 0,
        }
    }

    /// [`ProofSearch::attacker_wins`] with `threads` workers (this thread is one of them); the
    /// first to settle the question, stop or reach its share of the node limit ends all. Each
    /// worker's cache of children and forcing-win search are kept for the next call: this one's
    /// in the search itself, the helpers' in `helpers`. ([`ProofSearch::value`] calls this once
    /// a turn; new ones every turn cost their memories' contents, and zeroing 16 MiB caches,
    /// which the allocator hands back from its heap once one has been freed, took most of the
    /// time of small solves.)
    pub(super) fn attacker_wins_in_parallel<G: Game>(&mut self, g: &G) -> Result<bool, Halt> {
        let shared = Shared::new();
        let threads = self.threads;
        let share = match self.node_limit {
            u64::MAX => u64::MAX,
            limit => limit.saturating_sub(self.nodes) / threads as u64 + 1,
        };
        let own = (
            std::mem::replace(&mut self.child_cache, ChildCache::stand_in()),
            std::mem::replace(&mut self.forcing, ForcingSearch::stand_in()),
        );
        let mut helpers = std::mem::take(&mut self.helpers);
        helpers.truncate(threads - 1);
        for (_, forcing) in &mut helpers {
            forcing.follow(&own.1);
        }
        while helpers.len() < threads - 1 {
            helpers.push((ChildCache::new(), own.1.fresh()));
        }
        let (results, own, helpers) = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .into_iter()
                .map(|parts| {
                    let mut w = self.worker(&shared, parts, share);
                    scope.spawn(move || {
                        let r = w.attacker_wins_then_end_all(g);
                        (r, Counts::of(&w), (w.child_cache, w.forcing))
                    })
                })
                .collect();
            let mut w = self.worker(&shared, own, share);
            let r = w.attacker_wins_then_end_all(g);
            let mut results = vec![(r, Counts::of(&w))];
            let mut helpers = Vec::with_capacity(running.len());
            for h in running {
                let (r, counts, parts) = h.join().expect("search thread panicked");
                results.push((r, counts));
                helpers.push(parts);
            }
            (results, (w.child_cache, w.forcing), helpers)
        });
        (self.child_cache, self.forcing) = own;
        self.helpers = helpers;
        let mut answer = Err(Halt::Abandoned);
        for (r, counts) in results {
            counts.add_to(self);
            answer = match (answer, r) {
                (Ok(a), Ok(b)) => {
                    debug_assert_eq!(a, b, "two threads disagree");
                    Ok(a)
                }
                (Ok(a), _) | (_, Ok(a)) => Ok(a),
                (Err(Halt::Stopped), _) | (_, Err(Halt::Stopped)) => Err(Halt::Stopped),
                (Err(Halt::Limit), _) | (_, Err(Halt::Limit)) => Err(Halt::Limit),
                _ => Err(Halt::Abandoned),
            };
        }
        answer
    }

    /// A worker's search, which ends the other workers' when it ends.
    fn attacker_wins_then_end_all<G: Game>(&mut self, g: &G) -> Result<bool, Halt> {
        let r = self.attacker_wins_here(g);
        self.shared().abandon.store(true, Ordering::Relaxed);
        r
    }

    /// The shared state of a worker.
    fn shared(&self) -> &Shared {
        self.shared.expect("a worker of a parallel search")
    }

    /// In a parallel search, when another thread is inside the best child `best`: the best
    /// child no thread is in and the second-best number among the others, if that child's
    /// number is below `th_phi` (else this thread could not make progress there and joins the
    /// other in `best`).
    pub(super) fn idle_choice(
        &self,
        tags: &[u64],
        numbers: &[(u32, u32)],
        best: usize,
        th_phi: u32,
    ) -> Option<(usize, u32)> {
        let busy = &self.shared().busy;
        if busy[busy_slot(tags[best])].load(Ordering::Relaxed) == 0 {
            return None;
        }
        let mut choice = None;
        let mut first = INFINITE;
        let mut second = INFINITE;
        for (i, &t) in tags.iter().enumerate() {
            if busy[busy_slot(t)].load(Ordering::Relaxed) != 0 {
                continue;
            }
            let d = biased(numbers[i].1, i as u64, self.order_bias);
            if d < first {
                second = first;
                first = d;
                choice = Some(i);
            } else if d < second {
                second = d;
            }
        }
        choice
            .filter(|_| first < th_phi && first > 0)
            .map(|i| (i, second))
    }
}
