//! Depth-first proof-number search (df-pn) for one yes/no question: "does this side win?".
//!
//! Alpha-beta proves a win by searching the winner's moves in order, and a poorly ordered first
//! move costs a full refutation before the right one is tried. Proof-number search instead
//! always expands the position that is cheapest to settle (fewest leaves still to prove or
//! disprove), which is what made Qubic and Go-Moku solvable (Allis 1994). This is Nagai's
//! depth-first form, which needs memory only for a transposition table, with forcing-win search
//! ([`crate::search::vcf`]) as the leaf test of the attacker's positions. (Pawlewicz and Lew's
//! "1 + epsilon" thresholds were tried and dropped: with epsilon 1/4 the Qubic test positions of
//! the benchmark took 7 times the nodes, the forcing-win leaves settle most subtrees anyway.)
//!
//! Numbers are kept in the phi/delta form: at every position, `phi` is the proof number of "the
//! side to move reaches its goal" and `delta` its disproof number, where the attacker's goal is
//! to win and the defender's to stop that (a draw is a defender success). Then phi of a position
//! is the least delta of its children and delta combines their phis (here the weak form: the
//! largest plus one per other open child), for both sides.
//!
//! Exactness rests on the [`Game`] contract only: a position is settled by an immediate win, by
//! [`Game::non_losing_moves`] being empty (the side to move loses on the next stone), by a full
//! board, by a proved [`Game::static_bounds`], or by a forcing win, each of which is a proof; all
//! other positions are expanded move by move. Keys are the game's symmetry-normalised keys,
//! tagged with the attacker's colour, so both questions can share one table.
//!
//! Several threads can work on one question ([`ProofSearch::with_threads`]): they share the
//! lock-less table and split the defender's moves among themselves. What only changes the
//! speed — the order bias, deferred threat zones, threads, the table's size — is tested never
//! to change a value.

use super::negamax::{Searcher, Stopped};
use super::order::MoveList;
use super::table::{huge_zeroed, prefetch, MemoryTable};
use super::vcf::ForcingSearch;
use crate::game::{Bits, Game};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};

/// The proof or disproof number of what cannot be done. Numbers (and thresholds) stay at or
/// below it, so that a table entry holds both in 29 bits each.
pub const INFINITE: u32 = 1 << 28;

/// "The side to move reaches its goal": phi 0, delta infinite.
const SUCCEEDS: (u32, u32) = (0, INFINITE);
/// "The side to move fails": phi infinite, delta 0.
const FAILS: (u32, u32) = (INFINITE, 0);

/// Entries per bucket: four 16-byte slots, one 64-byte cache line.
const WAYS: usize = 4;

/// Data word layout: phi in bits 0..29, delta in 29..58, log2 of the work in 58..64.
const NUMBER_BITS: u32 = 29;
const NUMBER_MASK: u64 = (1 << NUMBER_BITS) - 1;
const WORK_SHIFT: u32 = 2 * NUMBER_BITS;

/// The transposition table of the proof search: (phi, delta) per tagged key, with the work spent
/// on it, so that a full bucket gives up its cheapest entry.
///
/// A slot is two words, `tag ^ data` and `data` (phi, delta and the log2 of the work packed, see
/// [`NUMBER_BITS`]); a reader accepts a slot only when the two agree with its tag, so a write
/// torn by another thread reads as a miss, never as another position's numbers (Hyatt's
/// lock-less hashing, as in [`MemoryTable`]). An all-zero slot is empty: real data is never
/// zero (phi and delta are never both 0) and real tags have the top bit set. Four slots make a
/// bucket of one cache line, so a probe costs one memory access, and the search prefetches the
/// buckets of all children of a position before it reads any (their latencies overlap). The
/// memory is an anonymous mapping the kernel zeroes page by page on first touch (on huge pages
/// where allowed, see `huge_zeroed`), so a large table costs nothing until touched.
pub struct ProofTable {
    /// Zeroed huge-page memory holding `len` slots of two words.
    map: memmap2::MmapMut,
    len: usize,
    bucket_bits: u32,
}

impl ProofTable {
    /// A table of at most `bytes` bytes (rounded down to a power of two of buckets).
    pub fn new(bytes: usize) -> Self {
        let buckets = (bytes / (16 * WAYS)).max(1);
        let bucket_bits = usize::BITS - 1 - buckets.leading_zeros();
        let len = WAYS << bucket_bits;
        ProofTable {
            map: huge_zeroed(len * 16),
            len,
            bucket_bits,
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.len * 16
    }

    #[inline]
    fn slots(&self) -> &[[AtomicU64; 2]] {
        // SAFETY: the mapping is page-aligned (so aligned for u64), `len * 16` bytes long,
        // zeroed by the kernel (a valid bit pattern for atomics) and lives as long as `self`;
        // all access after creation goes through these atomics.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<[AtomicU64; 2]>(), self.len) }
    }

    /// The first slot of `tag`'s bucket.
    #[inline]
    fn bucket(&self, tag: u64) -> usize {
        if self.bucket_bits == 0 {
            return 0;
        }
        let h = tag.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((h >> (64 - self.bucket_bits)) as usize) * WAYS
    }

    /// Asks the processor to start loading `tag`'s bucket (a hint: several loads in flight
    /// overlap, one probe after another does not).
    #[inline]
    pub fn prefetch(&self, tag: u64) {
        prefetch(&self.slots()[self.bucket(tag)]);
    }

    /// The numbers stored for `tag`, if any.
    #[inline]
    pub fn probe(&self, tag: u64) -> Option<(u32, u32)> {
        let b = self.bucket(tag);
        self.slots()[b..b + WAYS].iter().find_map(|s| {
            let data = s[1].load(Ordering::Relaxed);
            (s[0].load(Ordering::Relaxed) ^ data == tag).then_some((
                (data & NUMBER_MASK) as u32,
                ((data >> NUMBER_BITS) & NUMBER_MASK) as u32,
            ))
        })
    }

    /// Stores the numbers of `tag` (each at most [`INFINITE`]); `work` (nodes spent) decides
    /// what a full bucket drops.
    #[inline]
    pub fn store(&self, tag: u64, phi: u32, delta: u32, work: u64) {
        debug_assert!(phi <= INFINITE && delta <= INFINITE);
        // a settled entry is worth keeping: give it the weight of a large subtree
        let work = if phi == 0 || delta == 0 {
            work.max(1 << 20)
        } else {
            work
        };
        let log_work = (u64::BITS - work.leading_zeros()).min(63) as u64;
        let data = phi as u64 | (delta as u64) << NUMBER_BITS | log_work << WORK_SHIFT;
        let b = self.bucket(tag);
        let bucket = &self.slots()[b..b + WAYS];
        let words = |i: usize| {
            let d = bucket[i][1].load(Ordering::Relaxed);
            (bucket[i][0].load(Ordering::Relaxed) ^ d, d)
        };
        // the entry itself, else an empty slot, else the one with the least work
        let slot = (0..WAYS).find(|&i| words(i).0 == tag).unwrap_or_else(|| {
            (0..WAYS)
                .min_by_key(|&i| {
                    let d = words(i).1;
                    (d != 0, d >> WORK_SHIFT)
                })
                .unwrap_or(0)
        });
        bucket[slot][0].store(tag ^ data, Ordering::Relaxed);
        bucket[slot][1].store(data, Ordering::Relaxed);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.map.fill(0);
    }
}

/// The two questions whose answers make a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Does the side to move win?
    MoverWins,
    /// Does the opponent win?
    OpponentWins,
}

/// Why a search stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halt {
    /// The caller's stop flag.
    Stopped,
    /// The node limit of one round of [`ProofSearch::value`].
    Limit,
    /// Another thread of a parallel search ended it (settled the question, or stopped).
    Abandoned,
}

/// log2 of the slots of the per-thread cache of children (see `ProofSearch::children`): 16384
/// slots of about 1 KiB, 16 MiB a thread (mapped as it is used). Qubic, one thread: 2^12 slots
/// 20.2–20.6 s, 2^14 18.9–19.2 s, 2^16 19.1 s (same nodes).
const CHILD_CACHE_BITS: u32 = 14;

/// The per-thread cache of positions' children (see `ProofSearch::children`), one array per
/// field. Every array starts as zeros (an empty slot has `len` 0), allocated zeroed so that the
/// system maps pages lazily: a search touches only the pages it uses. (Built as one array of
/// structs, written out in full, each of the two workers of every round of a parallel search
/// wrote 16 MiB before its first node: a solve settled without search took 23 ms instead of
/// 1 ms, and the bench's p3_20, 270-470 nodes, 0.04 s instead of 0.01 s.)
struct ChildCache {
    /// The exact position ([`Game::id`]).
    ids: Vec<u128>,
    /// The attacker of the question (high half), and the count of the children plus one (low
    /// half; 0: an empty slot).
    meta: Vec<u64>,
    /// 64 moves a slot, then 64 tags (flat: `vec!` maps zeroed arrays lazily only for
    /// primitive elements).
    lists: Vec<u64>,
}

impl ChildCache {
    fn new() -> Self {
        let slots = 1 << CHILD_CACHE_BITS;
        ChildCache {
            ids: vec![0; slots],
            meta: vec![0; slots],
            lists: vec![0; slots * 128],
        }
    }
}

/// Slots of the marks of the positions on the threads' current paths (see [`Shared`]).
const BUSY_SLOTS: usize = 1 << 16;

/// What the threads of one parallel search share besides the table: how many threads have each
/// position on their current path (by a hash slot of its tag; a collision only makes a thread
/// avoid a position nobody is in), and the flag that ends the search for all of them.
struct Shared {
    busy: Vec<AtomicU16>,
    abandon: AtomicBool,
}

impl Shared {
    fn new() -> Self {
        Shared {
            busy: (0..BUSY_SLOTS).map(|_| AtomicU16::new(0)).collect(),
            abandon: AtomicBool::new(false),
        }
    }
}

#[inline]
fn busy_slot(tag: u64) -> usize {
    (tag.wrapping_mul(0xd6e8_feb8_6659_fd93) >> (64 - BUSY_SLOTS.trailing_zeros())) as usize
}

/// One df-pn search over a [`ProofTable`].
pub struct ProofSearch<'t> {
    table: &'t ProofTable,
    /// Positions expanded (a position is counted each time it is expanded).
    pub nodes: u64,
    /// The leaf test of the attacker's positions.
    forcing: ForcingSearch,
    /// Leaves settled by a forcing win.
    pub forcing_wins: u64,
    /// Alpha-beta for leaves with at most this many empty cells (and its table), if set.
    endgame: Option<(&'t MemoryTable, u32)>,
    /// Nodes of those alpha-beta searches.
    pub endgame_nodes: u64,
    /// Times a thread of a parallel search took another defence than the best one because
    /// another thread was in it (how much the threads split the work).
    pub split_choices: u64,
    /// A question [`ProofSearch::value`] settles completely before the other, if set.
    first_question: Option<Question>,
    /// Parity of the attacker's plies (0: the first player attacks).
    attacker: u32,
    node_limit: u64,
    /// `k` of the order bias (see [`DEFAULT_ORDER_BIAS`]).
    order_bias: u64,
    stop: Option<&'t AtomicBool>,
    progress: Option<&'t AtomicU64>,
    /// Threads per question (see [`ProofSearch::with_threads`]).
    threads: usize,
    /// Set in the workers of a parallel search only.
    shared: Option<&'t Shared>,
    /// Defer threat zones, counting an unexamined child as this many defences (see
    /// [`ProofSearch::with_zone_guess`]).
    zone_guess: Option<u32>,
    /// Recently expanded positions' children (see `ProofSearch::children`).
    child_cache: ChildCache,
}

/// Attacking moves the forcing-win test tries per leaf unless told otherwise. Measured with
/// weak proof numbers and the order bias: three Qubic openings after 2 plies (see
/// [`QUBIC_ORDER_BIAS`]) need 10.98 M / 2.27 M / 2.22 M / 1.87 M / 1.80 M nodes with budgets
/// 60 / 200 / 600 / 2000 / 5000 (and no fewer with 20000); Sogo preset3 9.9 s -> 7.8 s and
/// p0_18 9.8 s -> 9.8 s from 200 to 2000.
pub const DEFAULT_VCF_BUDGET: u32 = 2000;

/// Empty cells from which the gravity games hand positions to alpha-beta by default (see
/// [`ProofSearch::with_endgame`]). Before Sogo's pairing bounds 28 was best (against 20, 24, 32
/// and 36). With them pn's leaves settle far more often by a bound, and a smaller endgame pays:
/// pn, 2 threads, `--mem 2G` (showcase / p2_18 / preset3 / p0_18, seconds): 28: 70.9 / 5.9 / 0.95
/// / 2.3; 24: 41.6 / 4.0 / 1.1; 20: 23.9, 23.9 / 3.1, 3.6 / 1.3 / 0.94; 16: 23.0, 24.8 / 4.1, 4.2
/// / 1.3 / 1.2; 12: 31.6 / 4.5 / 1.5.
pub const DEFAULT_GRAVITY_ENDGAME: u32 = 20;

/// Empty cells from which the alpha-beta endgames (and the 4x4x4 `alphabeta` engine) try the
/// forcing-win search at nodes where a win would end the node (see `Searcher::with_forcing`).
/// pn on the Sogo presets, 2 threads, same session (p2_18 / p0_20 / preset3): never 17.5 /
/// 0.51 / 4.45 s; from 24 cells 29.0 s on p2_18 (one run); 18: 11.3 / 0.35 / 2.37 s; 16: 10.6
/// / 0.33 / 2.26 s; 14: 10.9 / 0.34 / 2.15 s; 12: 12.3 / 0.37 s. The `alphabeta` engine (weak,
/// from 16): p0_20 5.7 s -> 4.1 s, preset3 25.0 s -> 14.1 s.
pub const ENDGAME_FORCING_MIN_EMPTY: u32 = 16;

/// Nodes between two looks at the stop flag and two progress reports.
const TICK: u64 = 1 << 12;

impl<'t> ProofSearch<'t> {
    /// A search using `table` (entries of earlier questions stay valid: they are tagged).
    pub fn new(table: &'t ProofTable) -> Self {
        ProofSearch {
            table,
            nodes: 0,
            forcing: ForcingSearch::new(DEFAULT_VCF_BUDGET),
            forcing_wins: 0,
            endgame: None,
            endgame_nodes: 0,
            split_choices: 0,
            first_question: None,
            attacker: 0,
            node_limit: u64::MAX,
            order_bias: DEFAULT_ORDER_BIAS,
            stop: None,
            progress: None,
            threads: 1,
            shared: None,
            zone_guess: None,
            child_cache: ChildCache::new(),
        }
    }

    /// Finds the threat zone of an attacker's move (see `evaluate`) only when the search is
    /// about to enter the position it leads to, counting it as `guess` defences until then;
    /// `None` finds every zone when the attacker's position is first expanded. Most moves of
    /// an attacker's position are never entered, and each zone costs a forcing-win search;
    /// a guess near the zone of a typical good move lets the searched moves' real zones
    /// decide which to enter next. Changes the speed, never the answer (see
    /// [`QUBIC_ZONE_GUESS`] for what was measured).
    pub fn with_zone_guess(mut self, guess: Option<u32>) -> Self {
        self.zone_guess = guess.map(|g| g.max(1));
        self
    }

    /// Searches each question with `threads` threads sharing the table (1: no helpers). The
    /// threads follow the same best path down to the first defender position whose most
    /// promising move another thread is already in, and there take the next one: every
    /// defence must be refuted for a proof, so that work is rarely wasted, while at the
    /// attacker's positions only the best move pays. Changes the speed, never the answer.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Lets the forcing-win test try `budget` attacking moves per leaf (more finds more wins
    /// and costs more per leaf).
    pub fn with_vcf_budget(mut self, budget: u32) -> Self {
        self.forcing.budget = budget;
        self
    }

    /// Settles every leaf with at most `empty` empty cells by alpha-beta (a null-window
    /// negamax with `table`): near the end of a long game, alpha-beta with its static bounds
    /// and move ordering settles a subtree for less than proof-number search spends on it
    /// node by node (gravity games, where wins come from parity rather than threats).
    pub fn with_endgame(mut self, table: &'t MemoryTable, empty: u32) -> Self {
        self.endgame = Some((table, empty));
        self
    }

    /// Makes [`ProofSearch::value`] settle `question` completely before it looks at the other
    /// (instead of alternating): for positions whose likely value is known, such as a game
    /// known to be a first-player win, this halves the work when the guess is right and
    /// cannot change the answer when it is wrong.
    pub fn with_first_question(mut self, question: Question) -> Self {
        self.first_question = Some(question);
        self
    }

    /// Sets how strongly the search prefers better-ordered moves: the `i`-th child's number
    /// counts `1 + i / k` times (`k` at least 1; see [`DEFAULT_ORDER_BIAS`]). Changes the
    /// speed, never the answer.
    pub fn with_order_bias(mut self, k: u64) -> Self {
        self.order_bias = k.max(1);
        self
    }

    /// Lets another thread stop this search by setting `flag`.
    pub fn with_stop(mut self, flag: &'t AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Reports progress by adding expanded nodes to `counter` now and then.
    pub fn with_progress(mut self, counter: &'t AtomicU64) -> Self {
        self.progress = Some(counter);
        self
    }

    /// Whether the player of parity `attacker` (0: first player, 1: second) wins from `g`
    /// against every defence.
    pub fn side_wins<G: Game>(&mut self, g: &G, attacker: u32) -> Result<bool, Stopped> {
        self.node_limit = u64::MAX;
        self.attacker_wins(g, attacker).map_err(|_| Stopped)
    }

    /// The value of `g` for the side to move: 1 win, 0 draw, -1 loss. Both questions ("do I
    /// win?", "does the opponent win?") are searched in turns with doubling node budgets, so a
    /// position is settled about as fast as its cheaper proof allows, and a draw needs both
    /// disproofs.
    pub fn value<G: Game>(&mut self, g: &G) -> Result<i32, Stopped> {
        if g.ply() < g.max_ply() && g.winning_moves() != 0 {
            return Ok(1);
        }
        let me = g.ply() & 1;
        let mut answers = [None, None];
        if let Some(first) = self.first_question {
            let q = usize::from(first == Question::OpponentWins);
            self.node_limit = u64::MAX;
            match self.attacker_wins(g, me ^ q as u32) {
                Ok(true) => return Ok(if q == 0 { 1 } else { -1 }),
                Ok(false) => answers[q] = Some(false),
                Err(_) => return Err(Stopped),
            }
        }
        // a win of either side settles the value
        self.settle_in_turns(&[(*g, me), (*g, me ^ 1)], &mut answers, |wins| wins)?;
        Ok(match answers {
            [Some(true), _] => 1,
            [_, Some(true)] => -1,
            _ => 0,
        })
    }

    /// Settles the open `answers` to the questions "does the player of parity `attacker` win
    /// from `position`?" in turns with doubling node budgets, until all are settled or
    /// `enough` says of the answer just found that the others are not needed. Each question
    /// then costs about what settling it costs, and no hard question is searched to the end
    /// while an easy one that would have been enough waits ([`ProofSearch::value`]'s two
    /// questions; [`ProofSearch::best_moves`]' candidates).
    fn settle_in_turns<G: Game>(
        &mut self,
        questions: &[(G, u32)],
        answers: &mut [Option<bool>],
        mut enough: impl FnMut(bool) -> bool,
    ) -> Result<(), Stopped> {
        let mut budget = 1u64 << 14;
        while answers.iter().any(Option::is_none) {
            for (answer, (position, attacker)) in answers.iter_mut().zip(questions) {
                if answer.is_some() {
                    continue;
                }
                self.node_limit = self.nodes.saturating_add(budget);
                match self.attacker_wins(position, *attacker) {
                    Ok(wins) => {
                        *answer = Some(wins);
                        if enough(wins) {
                            return Ok(());
                        }
                    }
                    Err(Halt::Limit) => {}
                    Err(Halt::Stopped | Halt::Abandoned) => return Err(Stopped),
                }
            }
            budget = budget.saturating_mul(2);
        }
        Ok(())
    }

    /// The moves of the side to move that keep the value `value` (as returned by
    /// [`ProofSearch::value`]); with `first_only`, just the first one found. For a loss every
    /// legal move is best.
    ///
    /// The candidates are settled in turns with doubling node budgets, not one after the
    /// other: a move that does not keep the value can be far harder to refute than the right
    /// move is to prove (Qubic after `a11 d44 d11 a41 b11 c11`: 10 s for the value, minutes
    /// for the first candidates' refutations), and the winning child is often still proved in
    /// the table from the value's own search.
    pub fn best_moves<G: Game>(
        &mut self,
        g: &G,
        value: i32,
        first_only: bool,
    ) -> Result<Vec<u64>, Stopped> {
        let me = g.ply() & 1;
        // nothing to search: an immediate win, or a loss (every move is as good)
        let without_search: Option<Vec<u64>> = if value > 0 && g.winning_moves() != 0 {
            Some(Bits(g.winning_moves()).collect())
        } else if value < 0 {
            Some(
                MoveList::new(g, g.playable(), None, false, 0)
                    .as_slice()
                    .to_vec(),
            )
        } else {
            None
        };
        if let Some(mut best) = without_search {
            if first_only {
                best.truncate(1);
            }
            return Ok(best);
        }
        let list = MoveList::new(g, g.non_losing_moves(), None, false, 0);
        let candidates = list.as_slice();
        // a win is kept by a move after which I still win; a draw by one after which the
        // opponent does not win
        let attacker = if value > 0 { me } else { me ^ 1 };
        let keeps_if = value > 0;
        let questions: Vec<(G, u32)> = candidates
            .iter()
            .map(|&mv| {
                let mut child = *g;
                child.play(mv);
                (child, attacker)
            })
            .collect();
        let mut answers = vec![None; questions.len()];
        self.settle_in_turns(&questions, &mut answers, |wins| {
            first_only && wins == keeps_if
        })?;
        Ok(candidates
            .iter()
            .zip(&answers)
            .filter(|(_, answer)| **answer == Some(keeps_if))
            .map(|(&mv, _)| mv)
            .collect())
    }

    fn attacker_wins<G: Game>(&mut self, g: &G, attacker: u32) -> Result<bool, Halt> {
        self.attacker = attacker & 1;
        if self.threads > 1 && self.shared.is_none() {
            self.attacker_wins_in_parallel(g)
        } else {
            self.attacker_wins_here(g)
        }
    }

    /// The question of [`ProofSearch::attacker_wins`] in this thread, until it is settled.
    fn attacker_wins_here<G: Game>(&mut self, g: &G) -> Result<bool, Halt> {
        let attacker_to_move = g.ply() & 1 == self.attacker;
        let tag = self.tag(g);
        loop {
            let (phi, delta) = match self.table.probe(tag) {
                Some(numbers) => numbers,
                None => {
                    let numbers = self.evaluate(g, false, true)?;
                    self.table.store(tag, numbers.0, numbers.1, 0);
                    numbers
                }
            };
            if phi == 0 || delta == 0 {
                let mover_succeeds = phi == 0;
                return Ok(mover_succeeds == attacker_to_move);
            }
            self.mid(g, tag, INFINITE, INFINITE)?;
        }
    }

    /// A worker of a parallel search: this search's settings, its own forcing-win search and
    /// counters, `share` of the node budget.
    fn worker<'s>(&self, shared: &'s Shared, forcing: ForcingSearch, share: u64) -> ProofSearch<'s>
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
            order_bias: self.order_bias,
            stop: self.stop,
            progress: self.progress,
            threads: 1,
            shared: Some(shared),
            zone_guess: self.zone_guess,
            child_cache: ChildCache::new(),
        }
    }

    /// [`ProofSearch::attacker_wins`] with `threads` workers (this thread is one of them); the
    /// first to settle the question, stop or reach its share of the node limit ends all.
    fn attacker_wins_in_parallel<G: Game>(&mut self, g: &G) -> Result<bool, Halt> {
        let shared = Shared::new();
        let threads = self.threads;
        let share = match self.node_limit {
            u64::MAX => u64::MAX,
            limit => limit.saturating_sub(self.nodes) / threads as u64 + 1,
        };
        let budget = self.forcing.budget;
        let own_forcing = std::mem::replace(&mut self.forcing, ForcingSearch::new(0));
        let (results, own) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|_| {
                    let mut w = self.worker(&shared, ForcingSearch::new(budget), share);
                    scope.spawn(move || {
                        let r = w.attacker_wins_then_end_all(g);
                        (r, w.nodes, w.forcing_wins, w.endgame_nodes, w.split_choices)
                    })
                })
                .collect();
            let mut w = self.worker(&shared, own_forcing, share);
            let r = w.attacker_wins_then_end_all(g);
            let mut results = vec![(r, w.nodes, w.forcing_wins, w.endgame_nodes, w.split_choices)];
            results.extend(
                helpers
                    .into_iter()
                    .map(|h| h.join().expect("search thread panicked")),
            );
            (results, w.forcing)
        });
        self.forcing = own;
        let mut answer = Err(Halt::Abandoned);
        for (r, nodes, forcing_wins, endgame_nodes, split_choices) in results {
            self.nodes += nodes;
            self.split_choices += split_choices;
            self.forcing_wins += forcing_wins;
            self.endgame_nodes += endgame_nodes;
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

    #[inline]
    fn tag<G: Game>(&self, g: &G) -> u64 {
        g.key() | (self.attacker as u64) << 62 | 1 << 63
    }

    /// Settles `g` if a cheap proof exists, else gives its first numbers: phi 1 and delta the
    /// number of moves (all of them must fail for the side to move to fail). For the defender
    /// to move, delta counts only the moves that can stop the attacker's forcing win if the
    /// defender passed (the cells of that line): a position with such a threat has few
    /// defences, and the other moves usually fall to the same attack at once.
    fn evaluate<G: Game>(
        &mut self,
        g: &G,
        no_forcing_win: bool,
        with_zone: bool,
    ) -> Result<(u32, u32), Halt> {
        let attacker_to_move = g.ply() & 1 == self.attacker;
        // what the side to move gets from a game that ends without a winner
        let no_winner = if attacker_to_move { FAILS } else { SUCCEEDS };
        if g.ply() >= g.max_ply() {
            return Ok(no_winner);
        }
        if g.winning_moves() != 0 {
            return Ok(SUCCEEDS);
        }
        if g.ply() + 1 >= g.max_ply() {
            // the last cell, and it does not win: a draw
            return Ok(no_winner);
        }
        let moves = g.non_losing_moves();
        if moves == 0 {
            // every move lets the opponent complete a line on the next stone
            return Ok(FAILS);
        }
        let (lo, hi) = g.static_bounds();
        if attacker_to_move && hi <= 0 {
            return Ok(FAILS);
        }
        if !attacker_to_move && lo >= 0 {
            return Ok(SUCCEEDS);
        }
        // bounds that decide the question the other way: the attacker to move surely wins, the
        // defender to move surely loses
        if attacker_to_move && lo > 0 {
            return Ok(SUCCEEDS);
        }
        if !attacker_to_move && hi < 0 {
            return Ok(FAILS);
        }
        // A move after which the defender's static bounds prove his loss (Sogo's pairing
        // strategies with the attacker as follower): a win found without a forcing-win search
        // or an expansion. Sogo, pn 2 threads: showcase 29.4 M -> 14.4 M nodes (16.1 s ->
        // 11.6-12.2 s), a 20-stone plausible-play position 29.9 M -> 12.9 M (18.2 s -> 12.1 s),
        // p0_18 1.2-1.4 M -> 0.65 M; p2_18 and preset3 ~20% slower (0.9 -> 1.0 s, 1.2 -> 1.4 s).
        if attacker_to_move
            && g.bounds_may_prove_loss_after_move()
            && Bits(moves).any(|mv| {
                let mut child = *g;
                child.play(mv);
                child.static_bounds().1 < 0
            })
        {
            return Ok(SUCCEEDS);
        }
        if attacker_to_move && !no_forcing_win && self.forcing.wins(g) {
            self.forcing_wins += 1;
            return Ok(SUCCEEDS);
        }
        if let Some((table, empty)) = self.endgame {
            if g.max_ply() - g.ply() <= empty {
                let forcing = std::mem::replace(&mut self.forcing, ForcingSearch::stand_in());
                let mut searcher =
                    Searcher::new(table).with_forcing(forcing, ENDGAME_FORCING_MIN_EMPTY);
                if let Some(flag) = self.stop {
                    searcher = searcher.with_stop(flag);
                }
                // the attacker to move asks "score > 0?", the defender "score < 0?"
                let (alpha, beta) = if attacker_to_move { (0, 1) } else { (-1, 0) };
                let r = searcher.negamax(g, alpha, beta).map_err(|_| Halt::Stopped);
                self.forcing = searcher.take_forcing().expect("lent above");
                self.endgame_nodes += searcher.nodes;
                let v = r?;
                let attacker_wins = if attacker_to_move { v > 0 } else { v < 0 };
                return Ok(if attacker_wins == attacker_to_move {
                    SUCCEEDS
                } else {
                    FAILS
                });
            }
        }
        if !attacker_to_move && with_zone {
            return Ok(self.zone_numbers(g, moves));
        }
        Ok((1, moves.count_ones()))
    }

    /// The first numbers of an unsettled defender's position with the non-losing `moves`: delta
    /// counts only the moves on the attacker's forcing line if the defender passed (a position
    /// with such a threat has few defences, and the other moves usually fall to the same attack
    /// at once), else all of them.
    fn zone_numbers<G: Game>(&mut self, g: &G, moves: u64) -> (u32, u32) {
        if let Some(passed) = g.null_move() {
            if self.forcing.wins(&passed) {
                let zone = self.forcing.line_cells(&passed) & moves;
                return (1, zone.count_ones().max(1));
            }
        }
        (1, moves.count_ones())
    }

    /// The moves of `g` (tagged `tag`) in move order, symmetric images of an earlier child
    /// dropped, with their children's tags and their count. df-pn expands most positions more
    /// than once (about twice in Qubic), and ordering the moves and finding the children's
    /// canonical keys is most of an expansion's own cost, so the answer is kept in a small
    /// per-thread cache keyed by the exact position.
    fn children<G: Game>(&mut self, g: &G, tag: u64) -> ([u64; 64], [u64; 64], usize) {
        let id = g.id();
        let slot = (tag.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - CHILD_CACHE_BITS)) as usize;
        let cache = &mut self.child_cache;
        let (attacker, len) = (cache.meta[slot] >> 32, cache.meta[slot] as u32);
        if cache.ids[slot] == id && attacker == self.attacker as u64 && len > 0 {
            let lists = &cache.lists[slot * 128..slot * 128 + 128];
            let mut moves = [0u64; 64];
            let mut tags = [0u64; 64];
            moves.copy_from_slice(&lists[..64]);
            tags.copy_from_slice(&lists[64..]);
            return (moves, tags, len as usize - 1);
        }
        let list = MoveList::new(g, g.non_losing_moves(), None, false, 0);
        let mut tags = [0u64; 64];
        let mut kept = [0u64; 64];
        let mut n_kept = 0;
        for &mv in list.as_slice() {
            let mut child = *g;
            child.play(mv);
            let t = self.tag(&child);
            if tags[..n_kept].contains(&t) {
                // a symmetric image of a child already listed: the same position, counted once
                continue;
            }
            tags[n_kept] = t;
            kept[n_kept] = mv;
            n_kept += 1;
        }
        let cache = &mut self.child_cache;
        cache.ids[slot] = id;
        cache.meta[slot] = (self.attacker as u64) << 32 | (n_kept as u64 + 1);
        cache.lists[slot * 128..slot * 128 + 64].copy_from_slice(&kept);
        cache.lists[slot * 128 + 64..slot * 128 + 128].copy_from_slice(&tags);
        (kept, tags, n_kept)
    }

    /// In a parallel search, when another thread is inside the best child `best`: the best
    /// child no thread is in and the second-best number among the others, if that child's
    /// number is below `th_phi` (else this thread could not make progress there and joins the
    /// other in `best`).
    fn idle_choice(
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

    #[inline]
    fn tick(&mut self) -> Result<(), Halt> {
        self.nodes += 1;
        if self.nodes % TICK == 0 {
            if let Some(counter) = self.progress {
                counter.fetch_add(TICK, Ordering::Relaxed);
            }
            if let Some(flag) = self.stop {
                if flag.load(Ordering::Relaxed) {
                    return Err(Halt::Stopped);
                }
            }
        }
        if self.nodes >= self.node_limit {
            return Err(Halt::Limit);
        }
        if let Some(shared) = self.shared {
            if shared.abandon.load(Ordering::Relaxed) {
                return Err(Halt::Abandoned);
            }
        }
        Ok(())
    }

    /// Expands `g` (unsettled, numbers below the thresholds) until its phi reaches `th_phi` or
    /// its delta reaches `th_delta`; stores and returns its numbers. In a parallel search the
    /// position is marked as on this thread's path meanwhile.
    fn mid<G: Game>(
        &mut self,
        g: &G,
        tag: u64,
        th_phi: u32,
        th_delta: u32,
    ) -> Result<(u32, u32), Halt> {
        let Some(shared) = self.shared else {
            return self.expand(g, tag, th_phi, th_delta);
        };
        let mark = &shared.busy[busy_slot(tag)];
        mark.fetch_add(1, Ordering::Relaxed);
        let r = self.expand(g, tag, th_phi, th_delta);
        mark.fetch_sub(1, Ordering::Relaxed);
        r
    }

    /// The body of [`ProofSearch::mid`].
    fn expand<G: Game>(
        &mut self,
        g: &G,
        tag: u64,
        th_phi: u32,
        th_delta: u32,
    ) -> Result<(u32, u32), Halt> {
        self.tick()?;
        let start = self.nodes;
        // The defender to move, and the attacker has no forcing win even if the defender
        // passes (a complete search, not a budget cut): then none of the defender's moves gives
        // him one where stones never change what is playable (see `Game::defence_is_monotone`),
        // and the children are spared their forcing-win searches.
        let no_forcing_win = g.ply() & 1 != self.attacker
            && g.defence_is_monotone()
            && g.null_move()
                .is_some_and(|passed| !self.forcing.wins(&passed) && self.forcing.complete);
        let mut numbers = [(0u32, 0u32); 64];
        let (kept, tags, n_kept) = self.children(g, tag);
        for &t in &tags[..n_kept] {
            self.table.prefetch(t);
        }
        // The attacker to move, and zones are deferred: his children's threat zones (a
        // forcing-win search each) are found only when a child is about to be searched; until
        // then a child counts as `guess` defences (see `with_zone_guess`).
        let defer_zones = self.zone_guess.filter(|_| g.ply() & 1 == self.attacker);
        let mut pending: u64 = 0;
        for i in 0..n_kept {
            let n = match self.table.probe(tags[i]) {
                Some(n) => n,
                None => {
                    let mut child = *g;
                    child.play(kept[i]);
                    let n = self.evaluate(&child, no_forcing_win, defer_zones.is_none())?;
                    if let Some(guess) = defer_zones.filter(|_| n.0 == 1 && n.1 > 1) {
                        pending |= 1 << i;
                        (1, guess)
                    } else {
                        self.table.store(tags[i], n.0, n.1, 0);
                        n
                    }
                }
            };
            if n.1 == 0 {
                // a child whose mover fails: this position succeeds, no need to look further
                self.table
                    .store(tag, SUCCEEDS.0, SUCCEEDS.1, self.nodes - start + 1);
                return Ok(SUCCEEDS);
            }
            numbers[i] = n;
        }
        // in a parallel search, the defender's moves are shared out among the threads
        let avoid_busy = self.shared.is_some() && g.ply() & 1 != self.attacker && n_kept > 1;
        // the children's numbers are fresh until a child is searched; from then on a
        // transposition (or another thread) may have changed any of them
        let mut reprobe = false;
        loop {
            let mut phi = INFINITE;
            let mut second = INFINITE;
            let mut best = 0;
            let mut open: u64 = 0;
            let mut maxp: u64 = 0;
            if reprobe {
                for &t in &tags[..n_kept] {
                    self.table.prefetch(t);
                }
            }
            for i in 0..n_kept {
                if reprobe {
                    if let Some(n) = self.table.probe(tags[i]) {
                        numbers[i] = n;
                    }
                }
                let (p, d) = numbers[i];
                let d = biased(d, i as u64, self.order_bias);
                if d < phi {
                    second = phi;
                    phi = d;
                    best = i;
                } else if d < second {
                    second = d;
                }
                if p > 0 {
                    open += 1;
                    maxp = maxp.max(p as u64);
                }
            }
            // weak proof numbers: the largest child plus one per other open child, not the
            // sum (transpositions make sums count the same subtree many times over)
            let sum = maxp + open.max(1) - 1;
            let delta = if numbers[..n_kept].iter().any(|n| n.0 >= INFINITE) {
                INFINITE
            } else {
                sum.min(INFINITE as u64 - 1) as u32
            };
            if phi >= th_phi || delta >= th_delta {
                self.table.store(tag, phi, delta, self.nodes - start + 1);
                return Ok((phi, delta));
            }
            if pending & 1 << best != 0 {
                // a child not evaluated in full yet: find its threat zone, then choose again
                pending &= !(1 << best);
                let mut child = *g;
                child.play(kept[best]);
                let n = self.zone_numbers(&child, child.non_losing_moves());
                self.table.store(tags[best], n.0, n.1, 0);
                numbers[best] = n;
                continue;
            }
            if avoid_busy {
                if let Some((b, s)) =
                    self.idle_choice(&tags[..n_kept], &numbers[..n_kept], best, th_phi)
                {
                    best = b;
                    second = s;
                    self.split_choices += 1;
                }
            }
            // the parent's number reaches its threshold once this child's exceeds the others'
            // largest by what is missing
            let child_th_phi = (th_delta as u64 - delta as u64 + maxp).min(INFINITE as u64);
            let child_th_delta = unbiased(
                th_phi.min(second.saturating_add(1).min(INFINITE)),
                best as u64,
                self.order_bias,
            );
            let mut child = *g;
            child.play(kept[best]);
            numbers[best] = self.mid(&child, tags[best], child_th_phi as u32, child_th_delta)?;
            reprobe = true;
        }
    }
}

/// How strongly a parent prefers its better-ordered children by default: the `i`-th child's
/// number counts `1 + i / k` times. Without it every child of a quiet position starts with the
/// same numbers and df-pn spends its effort evenly over all of them; with it the move ordering
/// steers the search. Measured on the Sogo presets (pn, 2 threads, nodes): k = 2 / 4 / 8 / 12 /
/// 16 on p0_20 13.1 M / 9.6 M / 2.3 M / 2.2 M / 2.2 M, on p2_18 124 M / 121 M / 119 M / 271 M /
/// 182 M; k = 4 / 8 on preset3 18.2 M / 33.8 M, p0_18 52.4 M / 62.0 M, preset1 10.5 M / 14.9 M.
/// k = 8 costs about the same in total and lifts the worst ratio to that solver's time (p0_20,
/// 50% -> 16%) while the others stay far under 10%. (One thread, before threads: k = 4 against
/// 16, p2_18 39.6 s against 52.3 s; preset3 19.6 s unbiased, 8.4 s with k = 4.) Qubic prefers
/// a lighter bias (see [`QUBIC_ORDER_BIAS`]).
pub const DEFAULT_ORDER_BIAS: u64 = 8;

/// The order bias for games without gravity, where the ordering is less sure of itself: three
/// Qubic openings after 2 plies (a11 b11, a11 d11, a11 b21), nodes to prove White's win for
/// k = 2, 4, 6, 8, 12, 16, 32, 64 (forcing-win budget 200): 14.2 M, 4.21 M, 3.84 M, 3.22 M,
/// 2.27 M, 2.24 M, 6.88 M, 10.8 M; for k = 8, 12, 16, 24 (budget 2000): 2.01 M, 1.87 M, 1.62 M,
/// 2.84 M.
pub const QUBIC_ORDER_BIAS: u64 = 16;

/// The deferred threat-zone guess for games without gravity (see
/// [`ProofSearch::with_zone_guess`]). Qubic from the empty board, 2 threads: zones found at once
/// 45.0 s (5.0 M nodes); guesses 8 / 12 / 16 / 20 / 24 / 32: 23.4 / 19.0 / 17.1 / 20.5 / 21.3 /
/// 20.5 s. Three Qubic openings after 2 plies, 1 thread: at once 28.9 s; guesses 1 / 2 / 4 / 8 /
/// 12 / 16 / 20 / 24 / 32 / 64: 25.4 / 24.7 / 18.8 / 14.7 / 11.1 / 9.2 / 8.9 / 11.6 / 13.6 /
/// 25.7 s. (Low guesses make every move look good until examined, so most get examined; high
/// ones make unexamined moves look worse than the examined.) The Sogo presets are slower with a
/// guess of 16 (p2_18 25.5 s against 19.8 s, preset3 4.5 against 2.2) and keep zones at once.
pub const QUBIC_ZONE_GUESS: u32 = 16;

/// A child's number as its parent ranks it (see [`DEFAULT_ORDER_BIAS`]); settled numbers stay
/// settled.
#[inline]
fn biased(d: u32, rank: u64, k: u64) -> u32 {
    if d == 0 || d >= INFINITE {
        return d;
    }
    ((d as u64 * (k + rank)) / k).min(INFINITE as u64 - 1) as u32
}

/// The threshold for a child's own number that keeps its biased number below `t`: the child
/// of rank `rank` stays below `t` biased exactly while its raw number stays below the result.
#[inline]
fn unbiased(t: u32, rank: u64, k: u64) -> u32 {
    if t >= INFINITE {
        return t;
    }
    ((t as u64 * k + k + rank - 1) / (k + rank)).max(1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Connect4, Cube, Rules};
    use crate::search::reference::minimax;
    use crate::search::testing::careful_positions;

    /// df-pn's value and best moves against plain minimax on `count` random positions.
    fn agrees<G: Game>(
        start: G,
        empty: u32,
        count: usize,
        seed: u64,
        table_bytes: usize,
        endgame: Option<u32>,
    ) {
        let endgame_table = MemoryTable::with_bytes(1 << 20);
        let mut seen = [0usize; 3];
        let table = ProofTable::new(table_bytes);
        for (i, g) in careful_positions(start, empty, count, seed).enumerate() {
            let checked = i + 1;
            let exact = minimax(&g).signum();
            // every position gets another order bias (1..=17), every other one a second thread
            // and every third one deferred threat zones: none may ever change a value
            let bias = 1 + (checked as u64 * 5) % 17;
            let threads = 1 + checked % 2;
            let zone_guess = (checked % 3 == 0).then_some(1 + checked as u32 % 20);
            let mut search = ProofSearch::new(&table)
                .with_order_bias(bias)
                .with_threads(threads)
                .with_zone_guess(zone_guess);
            if let Some(cells) = endgame {
                search = search.with_endgame(&endgame_table, cells);
            }
            let v = search.value(&g).unwrap();
            assert_eq!(v, exact, "value differs from minimax");
            seen[(v + 1) as usize] += 1;
            let best = search.best_moves(&g, v, false).unwrap();
            for mv in Bits(g.playable()) {
                let mut child = g;
                child.play(mv);
                let child_value = if child.last_mover_won() {
                    1
                } else if child.ply() == child.max_ply() {
                    0
                } else {
                    -minimax(&child).signum()
                };
                assert_eq!(
                    best.contains(&mv),
                    child_value == v,
                    "best move set differs from minimax"
                );
            }
        }
        assert!(
            seen.iter().filter(|&&n| n > 0).count() >= 2,
            "too few kinds of values: {seen:?}"
        );
    }

    #[test]
    fn agrees_with_minimax_connect4_small_boards() {
        agrees(Connect4::new(4, 4).unwrap(), 12, 300, 11, 1 << 16, None);
        agrees(Connect4::new(5, 4).unwrap(), 13, 200, 12, 1 << 20, None);
    }

    #[test]
    fn agrees_with_minimax_cube_games() {
        for (rules, seed) in Rules::ALL.into_iter().zip(21..) {
            agrees(Cube::new(rules), 9, 150, seed, 1 << 20, None);
        }
    }

    #[test]
    fn alpha_beta_endgame_leaves_keep_values_exact() {
        agrees(Connect4::new(5, 4).unwrap(), 13, 150, 14, 1 << 20, Some(7));
        for (rules, seed) in [
            (Rules::Sogo, 24),
            (Rules::SogoPoison, 25),
            (Rules::Qubic, 26),
        ] {
            agrees(Cube::new(rules), 9, 100, seed, 1 << 20, Some(5));
        }
    }

    /// Two threads split a real search (some defences taken because the other thread was in
    /// the best one) and agree with one thread; each one's winning move is confirmed by a
    /// fresh one-thread search (the first move found may differ with the threads' timing).
    #[test]
    fn two_threads_split_the_work_and_agree_with_one() {
        let g = Cube::parse(Rules::Qubic, "a11 b22 a14 d41").unwrap();
        fn searcher(table: &ProofTable) -> ProofSearch<'_> {
            ProofSearch::new(table)
                .with_order_bias(QUBIC_ORDER_BIAS)
                .with_zone_guess(Some(QUBIC_ZONE_GUESS))
        }
        for threads in [1, 2] {
            let table = ProofTable::new(1 << 26);
            let mut search = searcher(&table).with_threads(threads);
            assert_eq!(
                search.value(&g).unwrap(),
                1,
                "White wins after a11 b22 a14 d41"
            );
            let best = search.best_moves(&g, 1, true).unwrap();
            if threads == 1 {
                assert_eq!(search.split_choices, 0);
            } else {
                assert!(search.split_choices > 0, "the threads never split");
            }
            let mut after = g;
            after.play(best[0]);
            let table = ProofTable::new(1 << 26);
            assert!(searcher(&table).side_wins(&after, 0).unwrap());
        }
    }

    #[test]
    fn a_tiny_table_still_gives_exact_values() {
        // constant eviction must cost time, never correctness
        agrees(Connect4::new(5, 4).unwrap(), 12, 60, 13, 24 * 4, None);
    }
}
