//! Re-checking a stored table: is every stored value justified?
//!
//! Two independent checks, both exiting through a [`CheckReport`]:
//! - [`walk`] (any game): from the start position the table was built for, visit every position
//!   that has an entry (following moves through positions with entries and at most `WALK_GAP`
//!   plies in a row without) and justify each
//!   stored value by the position's children — their own entries where they have them, a fresh
//!   search (with its own memory table, never the store) where they do not. A win needs one
//!   child that loses, a loss needs every child to win, and likewise for the draw bounds. The
//!   walk is the only check possible where keys are hashes.
//! - [`connect4_from_key`] (Connect Four, exact keys; `check/connect4.rs`): every entry decodes
//!   back to a position, which can be solved directly and compared.
//!
//! The walk needs only [`Game`] and a way to decide children ([`walk_deciding`]), so it serves
//! every game (the 4x4x4 games decide children by their own proof search); the direct check exists
//! where keys are exact, i.e. Connect Four.

mod connect4;

pub use connect4::{check_connect4_entry, connect4_from_key};

use super::entry::{Knowledge, Value};
use crate::game::{Bits, Game, Key};
use crate::search::{MemoryTable, Options, Unstoppable};
use std::collections::HashSet;

/// What a check found.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Positions with entries visited.
    pub positions: u64,
    /// Stored values justified.
    pub justified: u64,
    /// Children whose needed fact came from their own entry.
    pub by_entry: u64,
    /// Children whose needed fact needed a search.
    pub by_search: u64,
    /// Whether the walk stopped at its position limit.
    pub truncated: bool,
    /// Number of unjustified values found.
    pub failures: u64,
    /// The first few failures, one line each.
    pub failure_lines: Vec<String>,
    /// The moves from the start to a shallowest position whose stored value failed (empty if
    /// none failed, or the start did).
    pub first_failure_line: Vec<u64>,
}

impl CheckReport {
    fn fail(&mut self, line: String) {
        self.failures += 1;
        if self.failure_lines.len() < 20 {
            self.failure_lines.push(line);
        }
    }
}

/// Decides for a child without an entry whether its score (for its side to move) is `<= t`
/// (`at_most`) or `>= t`, with `t` in `-1..=1`: an independent search, never the store. The last
/// argument is a budget level (0, 1, 2, ...: each about twice the last); `None` means "not
/// decided within it" (a search without budgets always answers).
pub type Decide<'a, G> = &'a mut dyn FnMut(&G, i32, bool, u32) -> Option<bool>;

/// One checker: the table, and the search it uses for children without entries.
struct Judge<'a, G> {
    lookup: &'a dyn Fn(Key) -> Knowledge,
    decide: Decide<'a, G>,
}

impl<G: Game> Judge<'_, G> {
    /// Sign bounds `(lo, hi)` on the score the *parent* gets by playing `mv` in `p`, from what
    /// needs no search: an immediate win, a full board, the child's entry.
    fn via_entries(&self, p: &G, mv: u64) -> ((i8, i8), Option<G>) {
        if p.winning_moves() & mv != 0 {
            return ((1, 1), None);
        }
        let mut c = *p;
        c.play(mv);
        if c.ply() >= c.max_ply() {
            return ((0, 0), None);
        }
        let (lo, hi) = (self.lookup)(c.key()).sign_bounds();
        ((-hi, -lo), Some(c))
    }

    /// Whether the child `c`'s score is `<= t` (`at_most`) or `>= t`, by search within the
    /// budget of `level` (`None`: not decided within it).
    fn child_test(&mut self, c: &G, t: i32, at_most: bool, level: u32) -> Option<bool> {
        if c.winning_moves() != 0 {
            let v = c.win_now_score();
            return Some(if at_most { v <= t } else { v >= t });
        }
        (self.decide)(c, t, at_most, level)
    }

    /// Whether value `v` stored for `p` follows from its children.
    fn justify(&mut self, p: &G, v: Value, report: &mut CheckReport) -> bool {
        // "exists a move whose result for the mover is >= t" (Win: t = 1, AtLeastDraw: t = 0)
        // or "every move's result is <= t" (Loss: t = -1, AtMostDraw: t = 0)
        let (exists, t) = match v {
            Value::Win => (true, 1),
            Value::AtLeastDraw => (true, 0),
            Value::Loss => (false, -1),
            Value::AtMostDraw => (false, 0),
        };
        let mut pending = Vec::new();
        for mv in Bits(p.playable()) {
            let ((lo, hi), child) = self.via_entries(p, mv);
            if exists && lo as i32 >= t {
                report.by_entry += 1;
                return true;
            }
            if !exists && hi as i32 > t {
                pending.push(child);
            } else if !exists {
                report.by_entry += 1;
            } else if hi as i32 >= t {
                pending.push(child);
            }
        }
        let mut open = Vec::new();
        for child in pending {
            match child {
                Some(c) => open.push(c),
                // decided without search and not good enough
                None if exists => {}
                None => return false,
            }
        }
        report.by_search += open.len() as u64;
        // The children in turns with growing budgets: a hard child that does not decide the
        // question keeps no easy one that does waiting (the proof search's children can be
        // anything the original search cut off).
        for level in 0.. {
            if open.is_empty() {
                break;
            }
            let mut still = Vec::new();
            for c in open {
                // parent's result via this move = -child score: exists needs child <= -t,
                // every needs child >= -t
                match self.child_test(&c, -t, exists, level) {
                    Some(true) if exists => return true,
                    Some(false) if !exists => return false,
                    Some(_) => {}
                    None => still.push(c),
                }
            }
            open = still;
        }
        !exists
    }
}

/// Walks from `start` through every position that has an entry (at most `max_positions` of
/// them, 0 = no limit) and justifies each stored value by the children. `lookup` reads the table;
/// children without a deciding entry are searched by alpha-beta with a memory table of
/// `search_mem` bytes.
pub fn walk<G: Game>(
    start: &G,
    lookup: &dyn Fn(Key) -> Knowledge,
    search_mem: usize,
    max_positions: u64,
) -> CheckReport {
    let table = MemoryTable::with_bytes(search_mem);
    let mut decide = |c: &G, t: i32, at_most: bool, _level: u32| {
        let mut s = Unstoppable::new(&table, Options::default());
        Some(if at_most {
            s.negamax(c, t, t + 1) <= t
        } else {
            s.negamax(c, t - 1, t) >= t
        })
    };
    walk_deciding(start, lookup, &|g: &G| g.id(), &mut decide, max_positions)
}

/// [`walk`] with the search for children without entries given: games whose children near the
/// start are beyond plain alpha-beta (the 4x4x4 games) decide them by their own solver.
pub fn walk_deciding<G: Game>(
    start: &G,
    lookup: &dyn Fn(Key) -> Knowledge,
    identity: Identity<'_, G>,
    decide: Decide<'_, G>,
    max_positions: u64,
) -> CheckReport {
    let mut judge = Judge { lookup, decide };
    let mut report = CheckReport::default();
    report.truncated = walk_entries(start, lookup, identity, max_positions, &mut |p, k, line| {
        report.positions += 1;
        let failures = report.failures;
        match k.normalised() {
            Err(c) => report.fail(format!("key {:#x}: stored as {c}", p.key())),
            Ok(k) => {
                for v in k.values() {
                    if judge.justify(p, v, &mut report) {
                        report.justified += 1;
                    } else {
                        report.fail(format!(
                            "key {:#x} (ply {}): stored {v}, not justified by its children",
                            p.key(),
                            p.ply()
                        ));
                    }
                }
            }
        }
        if failures == 0 && report.failures > 0 {
            report.first_failure_line = line();
        }
        true
    });
    report
}

/// What the walk treats as the same position ([`walk_entries`] visits each once): the exact
/// position ([`Game::id`]) where keys may merge positions of different values (seed 003's), or
/// a sound canonical form under the game's symmetries, which visits each class of symmetric
/// positions once (their game trees are the same, so one justification serves all).
pub type Identity<'a, G> = &'a dyn Fn(&G) -> u128;

/// A visitor of [`walk_entries`]: the position, its entry, and a way to get the moves from the
/// start to it; returns whether the walk goes on.
pub type Visit<'a, G> = &'a mut dyn FnMut(&G, Knowledge, &dyn Fn() -> Vec<u64>) -> bool;

/// Visits, breadth first from `start`, every position that has an entry in `lookup`, following
/// moves through positions with entries and at most [`WALK_GAP`] plies in a row without, each
/// position once by its `identity` (exact where keys are unsound, as seed 003's: two positions
/// sharing a key must both be visited). `visit` gets the position, its entry and a way to get
/// the moves from the start to it, and returns whether to go on. At most `max_positions`
/// positions are visited (0: all); returns whether that limit stopped the walk.
pub fn walk_entries<G: Game>(
    start: &G,
    lookup: &dyn Fn(Key) -> Knowledge,
    identity: Identity<'_, G>,
    max_positions: u64,
    visit: Visit<'_, G>,
) -> bool {
    let mut seen = HashSet::from([identity(start)]);
    // how each queued position was reached: (parent's index, move)
    let mut reached: Vec<(usize, u64)> = vec![(usize::MAX, 0)];
    // with each position: how many positions without entries lead to it, and its index
    let mut queue = std::collections::VecDeque::from([(*start, 0u32, 0usize)]);
    let mut visited = 0u64;
    while let Some((p, gap, at)) = queue.pop_front() {
        if p.ply() >= p.max_ply() {
            continue;
        }
        let k = lookup(p.key());
        let gap = if k.is_empty() { gap + 1 } else { 0 };
        if gap > WALK_GAP {
            continue;
        }
        if !k.is_empty() {
            if max_positions > 0 && visited >= max_positions {
                return true;
            }
            visited += 1;
            if !visit(&p, k, &|| line_to(&reached, at)) {
                return false;
            }
        }
        if p.winning_moves() != 0 {
            continue; // the game ends here for a perfect player; children are not reached
        }
        for mv in Bits(p.playable()) {
            let mut c = p;
            c.play(mv);
            // a child without an entry one ply past the gap would only be dropped when taken
            // from the queue: not queueing it keeps the queue to the positions the walk visits
            // (at the full gap, 16 times fewer per ply), and keeps it out of `seen`, where it
            // would shut out the same position reached later by a path with a shorter gap
            let beyond = gap >= WALK_GAP && lookup(c.key()).is_empty();
            if c.ply() < c.max_ply() && !beyond && seen.insert(identity(&c)) {
                reached.push((at, mv));
                queue.push_back((c, gap, reached.len() - 1));
            }
        }
    }
    false
}

/// The moves from the start to the position with index `at` (see [`walk_entries`]).
fn line_to(reached: &[(usize, u64)], mut at: usize) -> Vec<u64> {
    let mut line = Vec::new();
    while at != 0 {
        let (parent, mv) = reached[at];
        line.push(mv);
        at = parent;
    }
    line.reverse();
    line
}

/// How many plies in a row the walk goes through positions without entries. A search keeps a
/// result only when it cost enough, and a transposition can make a position cheap to prove
/// whose children were expensive (found proved in another branch), so stored positions are not
/// always next to each other; each ply of gap costs a table look-up per move.
const WALK_GAP: u32 = 2;
