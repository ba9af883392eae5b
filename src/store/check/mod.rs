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
/// (`at_most`) or `>= t`, with `t` in `-1..=1`: an independent search, never the store.
pub type Decide<'a, G> = &'a mut dyn FnMut(&G, i32, bool) -> bool;

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

    /// Whether the child `c`'s score is `<= t` (`at_most`) or `>= t`, by search.
    fn child_test(&mut self, c: &G, t: i32, at_most: bool) -> bool {
        if c.winning_moves() != 0 {
            let v = c.win_now_score();
            return if at_most { v <= t } else { v >= t };
        }
        (self.decide)(c, t, at_most)
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
        for child in pending {
            let Some(c) = child else {
                // decided without search and not good enough
                if exists {
                    continue;
                }
                return false;
            };
            report.by_search += 1;
            // parent's result via this move = -child score
            let ok = if exists {
                self.child_test(&c, -t, true) // child <= -t
            } else {
                self.child_test(&c, -t, false) // child >= -t
            };
            if exists && ok {
                return true;
            }
            if !exists && !ok {
                return false;
            }
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
    let mut decide = |c: &G, t: i32, at_most: bool| {
        let mut s = Unstoppable::new(&table, Options::default());
        if at_most {
            s.negamax(c, t, t + 1) <= t
        } else {
            s.negamax(c, t - 1, t) >= t
        }
    };
    walk_deciding(start, lookup, &mut decide, max_positions)
}

/// [`walk`] with the search for children without entries given: games whose children near the
/// start are beyond plain alpha-beta (the 4x4x4 games) decide them by their own solver.
pub fn walk_deciding<G: Game>(
    start: &G,
    lookup: &dyn Fn(Key) -> Knowledge,
    decide: Decide<'_, G>,
    max_positions: u64,
) -> CheckReport {
    let mut judge = Judge { lookup, decide };
    let mut report = CheckReport::default();
    let mut seen = HashSet::new();
    // a position, and how many positions without entries lead to it from the last one with
    let mut stack = vec![(*start, 0u32)];
    seen.insert(start.key());
    while let Some((p, gap)) = stack.pop() {
        if p.ply() >= p.max_ply() {
            continue;
        }
        let k = lookup(p.key());
        let gap = if k.is_empty() { gap + 1 } else { 0 };
        if gap > WALK_GAP {
            continue;
        }
        if !k.is_empty() {
            if max_positions > 0 && report.positions >= max_positions {
                report.truncated = true;
                break;
            }
            report.positions += 1;
            match k.normalised() {
                Err(c) => report.fail(format!("key {:#x}: stored as {c}", p.key())),
                Ok(k) => {
                    for v in k.values() {
                        if judge.justify(&p, v, &mut report) {
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
        }
        if p.winning_moves() != 0 {
            continue; // the game ends here for a perfect player; children are not reached
        }
        for mv in Bits(p.playable()) {
            let mut c = p;
            c.play(mv);
            if c.ply() < c.max_ply() && seen.insert(c.key()) {
                stack.push((c, gap));
            }
        }
    }
    report
}

/// How many plies in a row the walk goes through positions without entries. A search keeps a
/// result only when it cost enough, and a transposition can make a position cheap to prove
/// whose children were expensive (found proved in another branch), so stored positions are not
/// always next to each other; each ply of gap costs a table look-up per move.
const WALK_GAP: u32 = 2;
