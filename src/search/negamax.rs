//! Alpha-beta negamax with a transposition table, and the null-window driver that turns it into
//! an exact (or win/draw/loss) solver. Game-independent: everything game-specific comes through
//! [`Game`].

use super::busy::Busy;
use super::order::MoveList;
use super::transposition::{Bounds, Table};
use super::vcf::ForcingSearch;
use crate::game::{Bits, Game, Key};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How much to find out about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// Exact score (how fast the win or loss comes).
    Strong,
    /// Only win / draw / loss: the score's sign. Same search, narrower window.
    Weak,
}

/// The search state of one thread: a table to share and a node counter to report.
pub struct Searcher<'t, T: Table + ?Sized> {
    table: &'t T,
    /// Positions visited (calls of the recursive search).
    pub nodes: u64,
    /// Children left for later because another thread was inside them (see [`super::busy`]).
    pub deferrals: u64,
    /// Set from outside to stop a search early; a stopped search returns no result.
    stop: Option<&'t AtomicBool>,
    /// A second stop flag: the caller's cancellation, beside a parallel search's own flag
    /// (which ends the helpers when one thread has answered a probe).
    abort: Option<&'t AtomicBool>,
    /// Shared node counter for progress displays, advanced every 65,536 nodes.
    progress: Option<&'t AtomicU64>,
    options: Options,
    /// A forcing-win search tried at nodes with at least the given empty cells whose window a
    /// win would end (see [`Searcher::with_forcing`]).
    forcing: Option<(ForcingSearch, u32)>,
    /// Positions other threads are searching (see [`super::busy`]): shared by the threads of
    /// a parallel search, absent with one thread.
    busy: Option<&'t Busy>,
    /// Every null-window probe of [`Searcher::solve`]: its test value, the bound it returned and
    /// the nodes it took. Shown by `--verbose`, it tells where an exact solve spends its time.
    pub probes: Vec<Probe>,
}

/// One null-window search of the score driver: "is the score above `test`?"
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The window was `(test, test + 1)`.
    pub test: i32,
    /// What the search returned: above `test` a lower bound, otherwise an upper bound.
    pub result: i32,
    /// Nodes the probe searched.
    pub nodes: u64,
}

/// Switches for the search's enhancements. Every combination gives the same values (the tests
/// check this); they exist so that benchmarks can measure each enhancement against a baseline
/// in the same run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Empty cells at or above which children's table entries are checked before searching them
    /// (enhanced transposition cutoff); `u32::MAX` turns it off. Near the leaves the extra probes
    /// cost more than they save.
    pub etc_min_empty: u32,
    /// Use [`Game::static_bounds`].
    pub static_bounds: bool,
    /// Empty cells below which the table is neither read nor written: near the leaves a table
    /// access (a cache miss) costs more than re-searching the few nodes below (the README lists
    /// the measurement behind the default).
    pub table_min_empty: u32,
    /// Empty cells at or above which a thread of a parallel search leaves children that another
    /// thread is searching for last (see [`super::busy`]); `u32::MAX` turns it off. Below it
    /// subtrees are too small for two threads to collide in for long.
    pub defer_min_empty: u32,
    /// Bound each node's score from below by its children's static bounds before searching
    /// any of them, in games whose static bounds are cheap ([`Game::CHEAP_STATIC_BOUNDS`]).
    pub static_children: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            etc_min_empty: 12,
            static_bounds: true,
            table_min_empty: 6,
            defer_min_empty: 12,
            static_children: true,
        }
    }
}

impl Options {
    /// Plain alpha-beta with table and ordering, no enhancement: the benchmarks' baseline.
    pub fn baseline() -> Self {
        Options {
            etc_min_empty: u32::MAX,
            static_bounds: false,
            table_min_empty: 0,
            defer_min_empty: u32::MAX,
            static_children: false,
        }
    }
}

/// Thrown out of the recursion when the stop flag is raised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

impl<'t, T: Table + ?Sized> Searcher<'t, T> {
    /// A searcher using `table`.
    pub fn new(table: &'t T) -> Self {
        Searcher {
            table,
            nodes: 0,
            deferrals: 0,
            stop: None,
            abort: None,
            progress: None,
            options: Options::default(),
            probes: Vec::new(),
            forcing: None,
            busy: None,
        }
    }

    /// Tries `forcing` at nodes with at least `min_empty` empty cells where any win of the side
    /// to move would fail high (`beta <= 1`): a forcing win found there proves a score of at
    /// least 1 (the forcing search only answers `true` with a proof), which ends the node
    /// without searching its moves. The weak questions of the proof-number search's endgames
    /// are such windows; the search's memories (lines, failures) are its own to keep.
    pub fn with_forcing(mut self, forcing: ForcingSearch, min_empty: u32) -> Self {
        self.forcing = Some((forcing, min_empty));
        self
    }

    /// Gives back the forcing-win search lent by [`Searcher::with_forcing`].
    pub fn take_forcing(&mut self) -> Option<ForcingSearch> {
        self.forcing.take().map(|(f, _)| f)
    }

    /// Uses `options` instead of the defaults.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Shares `busy` with the other threads of a parallel search: children another thread is
    /// searching are searched last (see [`super::busy`]).
    pub fn with_busy(mut self, busy: &'t Busy) -> Self {
        self.busy = Some(busy);
        self
    }

    /// Lets another thread stop this search by setting `flag`.
    pub fn with_stop(mut self, flag: &'t AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Reports progress by adding visited nodes to `counter` now and then.
    pub fn with_progress(mut self, counter: &'t AtomicU64) -> Self {
        self.progress = Some(counter);
        self
    }

    /// Lets the caller stop this search by setting `flag`, independently of
    /// [`Searcher::with_stop`] (a parallel search uses that one for itself).
    pub fn with_abort(mut self, flag: &'t AtomicBool) -> Self {
        self.abort = Some(flag);
        self
    }

    /// Checks children's table entries before searching (enhanced transposition cutoff) only at
    /// nodes with at least `empty` empty cells. Games with costly keys (the 4x4x4 symmetry
    /// canonical forms) want it only near the root.
    pub fn with_etc_min_empty(mut self, empty: u32) -> Self {
        self.options.etc_min_empty = empty;
        self
    }

    /// The table this searcher uses.
    pub fn table(&self) -> &'t T {
        self.table
    }

    /// Alpha-beta negamax.
    ///
    /// Contract (fail-soft): with true score `v`, the result `r` satisfies
    /// - `r <= alpha` ⇒ `v <= r` (an upper bound),
    /// - `r >= beta`  ⇒ `v >= r` (a lower bound),
    /// - otherwise `r == v`.
    ///
    /// Precondition: the side to move cannot win at once (see [`Game`]), `alpha < beta`.
    pub fn negamax<G: Game>(
        &mut self,
        g: &G,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, Stopped> {
        debug_assert!(alpha < beta);
        debug_assert_eq!(g.winning_moves(), 0);
        self.nodes += 1;
        if self.nodes & 0xffff == 0 {
            if let Some(counter) = self.progress {
                counter.fetch_add(0x10000, Ordering::Relaxed);
            }
            let raised = |f: Option<&AtomicBool>| f.is_some_and(|f| f.load(Ordering::Relaxed));
            if raised(self.stop) || raised(self.abort) {
                return Err(Stopped);
            }
        }
        let ply = g.ply() as i32;
        let max_ply = g.max_ply() as i32;
        let next = g.non_losing_moves();
        if next == 0 {
            return Ok(no_reply_score(max_ply, ply));
        }
        if ply >= max_ply - 2 {
            // neither of the last two stones can win (trait contract): draw
            return Ok(0);
        }
        if next & (next - 1) == 0 && ply < max_ply - 3 {
            // a single non-losing move: play it without a table entry of its own (forced lines
            // are cheap to replay and would only crowd the table)
            let mut child = *g;
            child.play(next);
            return Ok(-self.negamax(&child, -beta, -alpha)?);
        }
        // the opponent wins at the earliest with its stone after our next move;
        // we win at the earliest with our stone after that
        let mut lo = -((max_ply - 2 - ply) / 2);
        let mut hi = (max_ply - 1 - ply) / 2;
        if self.options.static_bounds {
            let (slo, shi) = g.static_bounds();
            lo = lo.max(slo);
            hi = hi.min(shi);
        }
        let use_table = (max_ply - ply) as u32 >= self.options.table_min_empty;
        let key = if use_table { g.key() } else { Key::default() };
        let mut best_hint = None;
        if let Some(b) = if use_table {
            self.table.probe(key)
        } else {
            None
        } {
            lo = lo.max(b.lower as i32);
            hi = hi.min(b.upper as i32);
            best_hint = b.best;
        }
        if lo >= hi {
            return Ok(lo);
        }
        if lo >= beta {
            return Ok(lo);
        }
        if hi <= alpha {
            return Ok(hi);
        }
        if G::CHEAP_STATIC_BOUNDS && self.options.static_bounds && self.options.static_children {
            // Every child's static upper bound `u` (for the opponent, who moves there) proves
            // that playing into it scores at least `-u` here, so the best of them is a lower
            // bound on this node, found without searching: at or above beta it ends the node
            // (fail-soft: a proven lower bound), otherwise it narrows the window. A child whose
            // every move hands us a win (our double threat) is scored exactly as its own search
            // would score it, so such a move ends the node before any other child is searched;
            // the children after one that ends the node are not asked.
            let mut floor = i32::MIN;
            let mut floor_move = None;
            for mv in Bits(next) {
                let mut child = *g;
                child.play(mv);
                let upper = match child.safe_moves_and_upper_bound() {
                    (0, _) => no_reply_score(max_ply, ply + 1),
                    (_, upper) => upper,
                };
                if upper != i32::MAX && -upper > floor {
                    floor = -upper;
                    floor_move = Some(G::cell_index(mv) as u8);
                    if floor >= beta || floor >= hi {
                        break; // the node ends here whatever the other children hold
                    }
                }
            }
            if floor > lo {
                lo = floor;
                if lo >= beta || lo >= hi {
                    return Ok(self.cut(use_table.then_some(key), lo, hi, floor_move));
                }
            }
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let alpha0 = alpha;

        if let Some((forcing, min_empty)) = self.forcing.as_mut() {
            if beta <= 1 && (max_ply - ply) as u32 >= *min_empty && forcing.wins(g) {
                // a proven win: the score is at least 1, which is at least beta
                return Ok(self.cut(use_table.then_some(key), lo.max(1), hi, best_hint));
            }
        }

        // The children's keys, computed once where the enhanced transposition cutoff or the
        // deferral of busy children needs them (in `next`'s bit order), their buckets prefetched
        // so that the memory latencies of the probes overlap.
        let etc_here = (max_ply - ply) as u32 >= self.options.etc_min_empty;
        // with other threads around, children one of them is inside now go last
        let busy = self
            .busy
            .filter(|_| (max_ply - ply) as u32 >= self.options.defer_min_empty);
        let keys = (etc_here || busy.is_some()).then(|| self.child_keys(g, next));

        // enhanced transposition cutoff: a child already known to be good enough ends the node
        if let Some(keys) = keys.as_ref().filter(|_| etc_here) {
            for (i, mv) in Bits(next).enumerate() {
                if let Some(b) = self.table.probe(keys[i]) {
                    let v = -(b.upper as i32);
                    if v >= beta {
                        let best = Some(G::cell_index(mv) as u8);
                        return Ok(self.cut(use_table.then_some(key), v, hi, best));
                    }
                }
            }
        }

        let nodes0 = self.nodes;
        // a window asking for a score in the upper half of what is possible hunts a fast win
        let urgent = 2 * beta > hi + 1;
        let moves = MoveList::new(g, next, best_hint, urgent);
        let mut best = i32::MIN;
        let mut best_move = None;
        // busy children: the first pass skips them, the second searches them (unless the first
        // ended in a cutoff)
        let mut deferred = 0u64;
        'passes: for pass in 0..2 {
            for (i, &mv) in moves.as_slice().iter().enumerate() {
                if pass == 1 && mv & deferred == 0 {
                    continue;
                }
                let mut child = *g;
                child.play(mv);
                let v = match (busy, &keys) {
                    (Some(busy), Some(keys)) if pass == 0 => {
                        // the child's place in `next`'s bit order
                        let child_key = keys[(next & (mv - 1)).count_ones() as usize];
                        if i > 0 && busy.contains(child_key) {
                            deferred |= mv;
                            self.deferrals += 1;
                            continue;
                        }
                        busy.enter(child_key);
                        let r = self.negamax(&child, -beta, -alpha);
                        busy.leave(child_key);
                        -r?
                    }
                    _ => -self.negamax(&child, -beta, -alpha)?,
                };
                if v > best {
                    best = v;
                    best_move = Some(G::cell_index(mv) as u8);
                    if v >= beta {
                        break 'passes;
                    }
                    if v > alpha {
                        alpha = v;
                    }
                }
            }
            if deferred == 0 {
                break;
            }
        }
        let work = self.nodes - nodes0;
        let bounds = if best >= beta {
            Bounds {
                lower: best as i8,
                upper: hi as i8,
                best: best_move,
            }
        } else if best <= alpha0 {
            // every move failed low: only an upper bound, and no move is known to be better
            Bounds {
                lower: lo as i8,
                upper: best as i8,
                best: best_hint,
            }
        } else {
            Bounds {
                lower: best as i8,
                upper: best as i8,
                best: best_move,
            }
        };
        if use_table {
            self.table.store(key, bounds, work);
        }
        Ok(best)
    }

    /// Ends a node on a proven bound found without searching its moves: stores `lower..=upper`
    /// with `best` under `key` (when the node uses the table) and returns `lower`, the fail-soft
    /// result.
    #[inline]
    fn cut(&self, key: Option<Key>, lower: i32, upper: i32, best: Option<u8>) -> i32 {
        if let Some(key) = key {
            let bounds = Bounds {
                lower: lower as i8,
                upper: upper as i8,
                best,
            };
            self.table.store(key, bounds, 1);
        }
        lower
    }

    /// The keys of the children `next` leads to, in its bit order, their table buckets
    /// prefetched.
    #[inline]
    fn child_keys<G: Game>(&self, g: &G, next: u64) -> [Key; 64] {
        let mut keys = [Key::default(); 64];
        for (slot, mv) in keys.iter_mut().zip(Bits(next)) {
            let mut child = *g;
            child.play(mv);
            *slot = child.key();
            self.table.prefetch(*slot);
        }
        keys
    }

    /// The score of `g` for the side to move, exactly ([`Depth::Strong`]) or only its sign
    /// ([`Depth::Weak`]), by a sequence of null-window searches that narrow `[min, max]`.
    ///
    /// Handles the positions `negamax` does not take: an immediate win, a full board.
    /// Precondition: the game is not over.
    pub fn solve<G: Game>(&mut self, g: &G, depth: Depth) -> Result<i32, Stopped> {
        drive(g, depth, |test| {
            let before = self.nodes;
            let r = self.negamax(g, test, test + 1)?;
            self.probes.push(Probe {
                test,
                result: r,
                nodes: self.nodes - before,
            });
            Ok(r)
        })
    }

    /// Whether playing `mv` in `g` achieves at least `target` for the mover (`target` being the
    /// proven score of `g`, this tells whether `mv` is a best move).
    pub fn achieves<G: Game>(&mut self, g: &G, mv: u64, target: i32) -> Result<bool, Stopped> {
        if g.winning_moves() & mv != 0 {
            return Ok(g.win_now_score() >= target);
        }
        let mut child = *g;
        child.play(mv);
        if child.ply() >= child.max_ply() {
            return Ok(0 >= target);
        }
        if child.winning_moves() != 0 {
            return Ok(-child.win_now_score() >= target);
        }
        // child score <= -target  <=>  negamax(child, -target, -target + 1) <= -target
        let r = self.negamax(&child, -target, -target + 1)?;
        Ok(r <= -target)
    }

    /// The exact (or weak) score of every legal move: the score the mover gets by playing it.
    pub fn analyze<G: Game>(&mut self, g: &G, depth: Depth) -> Result<Vec<(u64, i32)>, Stopped> {
        let mut out = Vec::new();
        for mv in Bits(g.playable()) {
            let score = if g.winning_moves() & mv != 0 {
                match depth {
                    Depth::Strong => g.win_now_score(),
                    Depth::Weak => 1,
                }
            } else {
                let mut child = *g;
                child.play(mv);
                -self.solve(&child, depth)?
            };
            out.push((mv, score));
        }
        Ok(out)
    }
}

/// A searcher nobody can stop: it is made without a stop flag and offers no way to add one, so
/// its searches always finish and return plain values (checks and benchmarks that must run to
/// the end use it instead of unwrapping a [`Stopped`] that cannot happen).
pub struct Unstoppable<'t, T: Table + ?Sized>(Searcher<'t, T>);

impl<'t, T: Table + ?Sized> Unstoppable<'t, T> {
    /// A searcher on `table` with `options`, without stop flags.
    pub fn new(table: &'t T, options: Options) -> Self {
        Unstoppable(Searcher::new(table).with_options(options))
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.0.nodes
    }

    /// [`Searcher::negamax`], which only a stop flag can interrupt.
    pub fn negamax<G: Game>(&mut self, g: &G, alpha: i32, beta: i32) -> i32 {
        finished(self.0.negamax(g, alpha, beta))
    }

    /// [`Searcher::solve`], which only a stop flag can interrupt.
    pub fn solve<G: Game>(&mut self, g: &G, depth: Depth) -> i32 {
        finished(self.0.solve(g, depth))
    }
}

/// The score of the side to move at `ply` when every one of its moves hands the opponent a win
/// with the opponent's next stone (a double threat against it, or no safe move left).
#[inline]
fn no_reply_score(max_ply: i32, ply: i32) -> i32 {
    -((max_ply - ply) / 2)
}

/// The result of a search without stop flags: [`Stopped`] comes only from a raised flag.
fn finished<R>(r: Result<R, Stopped>) -> R {
    match r {
        Ok(v) => v,
        Err(Stopped) => unreachable!("a search without a stop flag was stopped"),
    }
}

/// The score driver shared by the one-thread and the parallel solver: asks `probe(test)` (a
/// null-window search of `(test, test + 1)` with negamax's fail-soft contract) until the score is
/// pinned down. Handles the positions negamax does not take: an immediate win, a full board.
pub(crate) fn drive<G: Game>(
    g: &G,
    depth: Depth,
    mut probe: impl FnMut(i32) -> Result<i32, Stopped>,
) -> Result<i32, Stopped> {
    if g.winning_moves() != 0 {
        return Ok(match depth {
            Depth::Strong => g.win_now_score(),
            Depth::Weak => 1,
        });
    }
    if g.ply() >= g.max_ply() {
        return Ok(0);
    }
    let (mut min, mut max) = match depth {
        Depth::Strong => (-g.max_score(), g.max_score()),
        Depth::Weak => (-1, 1),
    };
    // Bisect, leaning towards the extremes (Pons' rule): proving a *fast* win or loss is cheap
    // (forcing lines, urgent ordering) while tests near a small true score are the expensive
    // ones, so cheap far tests come first and narrow the range. In the opening (the first
    // tenth of the board) scores are small, and a test just beyond the true score costs as
    // much as the answer itself: there the driver asks the weak question first (above 0?,
    // which every solve must answer anyway) and then walks outwards from the side it learnt,
    // one score, then two, four, ... further each time, until a test comes back from the
    // other side; what is left between the two is bisected (the README has the savings on
    // the empty 7x6 board).
    let opening = g.ply() * 10 < g.max_ply();
    let mut walk = opening.then_some(1);
    let mut med = if opening { 0 } else { lean(min, max) };
    let mut last_up = None;
    while min < max {
        med = med.clamp(min, max - 1);
        let r = probe(med)?;
        let up = r > med;
        if up {
            min = r.max(min);
        } else {
            max = r.min(max);
        }
        if depth == Depth::Weak {
            min = min.max(-1);
            max = max.min(1);
        }
        if last_up.is_some_and(|was| was != up) {
            // bracketed from both sides: bisect what is left
            walk = None;
        }
        last_up = Some(up);
        med = match walk {
            Some(step) if up => min + step - 1,
            Some(step) => max - step,
            None => lean(min, max),
        };
        walk = walk.map(|step| step * 2);
    }
    Ok(match depth {
        Depth::Strong => min,
        Depth::Weak => min.signum(),
    })
}

/// The next test of the score driver: the middle of `[min, max]`, moved halfway towards the
/// nearer extreme when the middle is on that side of zero.
fn lean(min: i32, max: i32) -> i32 {
    let med = min + (max - min) / 2;
    if med <= 0 && min / 2 < med {
        min / 2
    } else if med >= 0 && max / 2 > med {
        max / 2
    } else {
        med
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Connect4, Cube, Rules};
    use crate::search::reference::minimax;
    use crate::search::MemoryTable;
    use crate::util::random_play::careful_positions;

    /// Every switch of [`Options`], alone and all together, gives plain minimax's exact scores on
    /// boards of even and odd height; the children's static bounds must also save nodes (they
    /// prove something the search would otherwise search for).
    #[test]
    fn every_option_keeps_values() {
        let full = Options::default();
        let variants = [
            full,
            Options::baseline(),
            Options {
                static_children: false,
                ..full
            },
            Options {
                static_bounds: false,
                ..full
            },
            Options {
                etc_min_empty: 0,
                table_min_empty: 0,
                ..full
            },
        ];
        let mut nodes = [0u64; 5];
        for (w, h, empty, seed) in [(5, 4, 12, 1), (6, 4, 12, 2), (5, 5, 12, 3), (7, 6, 11, 4)] {
            for g in careful_positions(Connect4::new(w, h).unwrap(), empty, 30, seed) {
                let exact = minimax(&g);
                for (options, n) in variants.iter().zip(nodes.iter_mut()) {
                    let table = MemoryTable::with_bytes(1 << 20);
                    let mut s = Searcher::new(&table).with_options(*options);
                    assert_eq!(s.solve(&g, Depth::Strong).unwrap(), exact, "{options:?}");
                    *n += s.nodes;
                }
            }
        }
        assert!(
            nodes[0] < nodes[2],
            "static children saved nothing: {nodes:?}"
        );
    }

    /// A probe as fail-soft negamax may answer it for a true score `v`: the bound it returns
    /// lies anywhere between the test and the score (or the score itself), as `loose` picks.
    fn fail_soft(v: i32, test: i32, loose: u64) -> i32 {
        if v > test {
            v - (loose % (v - test) as u64) as i32
        } else {
            v + (loose % (test - v + 1) as u64) as i32
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None, ..Default::default()
        })]
        /// The score driver finds every score, weak and strong, in the opening (where it walks
        /// outwards from 0) and later (where it bisects), however loose the probes' bounds.
        #[test]
        fn drive_finds_every_score(v in -18i32..=18, moves in "[4]{0,3}|[1-7]{10,12}", seed: u64) {
            let g = Connect4::from_moves(7, 6, &moves);
            proptest::prop_assume!(g.as_ref().is_ok_and(|g| g.winning_moves() == 0));
            let g = g.unwrap();
            let v = v.clamp(-g.max_score(), g.max_score());
            let mut s = seed | 1;
            let mut probes = 0;
            let strong = drive(&g, Depth::Strong, |test| {
                probes += 1;
                Ok(fail_soft(v, test, crate::util::rng::xorshift(&mut s)))
            });
            proptest::prop_assert_eq!(strong, Ok(v));
            proptest::prop_assert!(probes <= 12, "{} probes", probes);
            let weak = drive(&g, Depth::Weak, |test| {
                Ok(fail_soft(v, test, crate::util::rng::xorshift(&mut s)))
            });
            proptest::prop_assert_eq!(weak, Ok(v.signum()));
        }
    }

    /// The forcing-win cutoff changes no value: exact scores (the driver's windows include
    /// ones with `beta <= 1`, where the cutoff fires) and the weak questions, with the forcing
    /// search tried at every node, against plain minimax; some positions must have a forcing
    /// win at the root for the test to mean anything.
    fn forcing_cutoffs_keep_values<G: Game>(start: G, empty: u32, count: usize, seed: u64) {
        let table = MemoryTable::with_bytes(1 << 20);
        let mut probe = ForcingSearch::new(100_000);
        let mut forcing = 0;
        for g in careful_positions(start, empty, count, seed) {
            forcing += usize::from(probe.wins(&g));
            let exact = minimax(&g);
            table.clear();
            let mut searcher = Searcher::new(&table).with_forcing(ForcingSearch::new(2000), 0);
            assert_eq!(searcher.solve(&g, Depth::Strong).unwrap(), exact);
            table.clear();
            let weak = searcher.solve(&g, Depth::Weak).unwrap();
            assert_eq!(weak.signum(), exact.signum());
            assert!(searcher.take_forcing().is_some());
        }
        assert!(
            forcing > count / 50,
            "only {forcing} forcing wins in {count}"
        );
    }

    #[test]
    fn forcing_cutoffs_keep_values_cube() {
        for (rules, seed) in Rules::ALL.into_iter().zip(11..) {
            forcing_cutoffs_keep_values(Cube::new(rules), 10, 120, seed);
        }
    }

    #[test]
    fn forcing_cutoffs_keep_values_connect4() {
        forcing_cutoffs_keep_values(Connect4::new(5, 4).unwrap(), 12, 300, 14);
    }
}
