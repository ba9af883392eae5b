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
//! Either walk can be narrowed to a proof ([`Scope::Proof`]): the start's own stored value and,
//! recursively, only the children's entries its justification rests on. That is the proof tree
//! of one value (for a won position one refuted child, for a lost one every child), far smaller
//! than everything a long search stored beside it, so one result of a large shared table can be
//! re-checked alone.
//!
//! A long proof walk can keep a [`Journal`] of the positions it justified, from which a stopped
//! walk goes on, report its progress, and hand over the entries of the proof it walked, to be
//! kept as a small store of their own where the table cannot be kept, with the children whose
//! search was hard joined to it ([`WalkAids`]). It justifies positions on as many
//! threads as it is given searches for children (one each): a position's justification needs
//! nothing but the table and its own searches, so any number go on at once.
//!
//! The walk needs only [`Game`] and a way to decide children ([`walk_deciding`]), so it serves
//! every game (the 4x4x4 games decide children by their own proof search); the direct check exists
//! where keys are exact, i.e. Connect Four.

mod connect4;
mod entries;
mod journal;
mod proof_walk;

pub use connect4::{check_connect4_entry, connect4_from_key};
pub use entries::{walk_entries, Identity, Visit};
pub use journal::Journal;
use proof_walk::walk_proof;

use super::entry::{Knowledge, Value};
use super::export::entry_words;
use crate::game::{Bits, Game, Key};
use crate::search::{MemoryTable, Options, Unstoppable};
use std::collections::HashMap;
use std::sync::RwLock;

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
    /// Children among those searched whose search was hard enough that the walk took the value
    /// it found into the proof ([`WalkAids::keep_searched`]), justified in their turn.
    pub kept: u64,
    /// Positions justified by an earlier walk, as its journal says (counted in `positions` and
    /// `justified` too; their children were not searched again).
    pub from_journal: u64,
    /// Whether the walk stopped at its position limit.
    pub truncated: bool,
    /// Number of unjustified values found.
    pub failures: u64,
    /// The first few failures, one line each.
    pub failure_lines: Vec<String>,
    /// The moves from the start to a shallowest position whose stored value failed (empty if
    /// none failed, or the start did).
    pub first_failure_line: Vec<u64>,
    /// The start's stored values (normalised; empty if it has none).
    pub start_values: Vec<Value>,
    /// Positions visited at each ply (the index): the shape of a proof, which widens at the
    /// plies where every move must be refuted and narrows where one refutation is enough.
    pub by_ply: Vec<u64>,
}

/// How many failures a report spells out.
const FAILURE_LINES: usize = 20;

impl CheckReport {
    fn fail(&mut self, line: String) {
        self.failures += 1;
        if self.failure_lines.len() < FAILURE_LINES {
            self.failure_lines.push(line);
        }
    }

    /// Counts a visited position at `ply`.
    fn visit(&mut self, ply: u32) {
        self.positions += 1;
        let ply = ply as usize;
        if self.by_ply.len() <= ply {
            self.by_ply.resize(ply + 1, 0);
        }
        self.by_ply[ply] += 1;
    }

    /// Adds the counts and failures of one position's justification (a worker's own report).
    fn absorb(&mut self, part: &CheckReport) {
        if self.by_ply.len() < part.by_ply.len() {
            self.by_ply.resize(part.by_ply.len(), 0);
        }
        for (total, n) in self.by_ply.iter_mut().zip(&part.by_ply) {
            *total += n;
        }
        self.positions += part.positions;
        self.justified += part.justified;
        self.by_entry += part.by_entry;
        self.by_search += part.by_search;
        self.kept += part.kept;
        self.from_journal += part.from_journal;
        self.failures += part.failures;
        let room = FAILURE_LINES.saturating_sub(self.failure_lines.len());
        self.failure_lines
            .extend(part.failure_lines.iter().take(room).cloned());
    }
}

/// Which stored values a walk justifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every position with an entry reachable from the start (through at most `WALK_GAP` plies
    /// without entries in a row).
    Everything,
    /// The start's stored values and, recursively, the children's entries their justification
    /// uses: a proof tree. Sound by induction on the empty cells: each visited value follows from
    /// immediate facts, fresh searches, and entries that are themselves visited and justified.
    Proof,
}

/// Decides for a child without an entry whether its score (for its side to move) is `<= t`
/// (`at_most`) or `>= t`, with `t` in `-1..=1`: an independent search, never the store. The last
/// argument is a budget level (0, 1, 2, ...: each about twice the last); `None` means "not
/// decided within it" (a search without budgets always answers). A proof walk runs one on each
/// of its threads.
pub type Decide<'a, G> = &'a mut (dyn FnMut(&G, i32, bool, u32) -> Option<bool> + Send);

/// What the table knows of a key (read by every thread of a walk).
pub type Lookup<'a> = &'a (dyn Fn(Key) -> Knowledge + Sync);

/// One checker: the table, and the search it uses for children without entries.
struct Judge<'a, G> {
    lookup: Lookup<'a>,
    decide: Decide<'a, G>,
    /// The values hard searches found for children the walk took into its proof, by key
    /// (shared by every judge; `None` unless the walk keeps them, [`WalkAids::keep_searched`]).
    /// They stand beside the table's entries, in the same keys: each is justified in its turn,
    /// like one.
    claims: Option<&'a RwLock<HashMap<Key, Knowledge>>>,
    /// The budget level from which a child decided for the proof by search is kept.
    keep_from: u32,
    /// The children the last justifications decided for the proof by a search at `keep_from`
    /// or above, with their moves and the value found for them. Cleared by the walk before
    /// each position.
    found: Vec<(u64, G, Value)>,
    /// The entry words of the children its last justifications passed over by their entries
    /// while looking for a refutation by search (children stored as no refutation): not on the
    /// proof, but a walk over the proof alone would have to search them again (see
    /// [`Judge::by_entries`]). Cleared by the walk before each position; `None` unless the
    /// walk hands its proof over ([`WalkAids::proof`]).
    passed_over: Option<Vec<u64>>,
    /// The key a position's entry words get in the extracted proof ([`WalkAids::proof_key`]).
    proof_key: Option<KeyOf<'a, G>>,
}

impl<G: Game> Judge<'_, G> {
    /// The key of `p` in the extracted proof: the table's own, or the one the walk was given.
    fn key_in_proof(&self, p: &G) -> Key {
        self.proof_key.map_or_else(|| p.key(), |key_of| key_of(p))
    }

    /// What the table, and the claims the walk keeps, know of `p`.
    fn knowledge(&self, p: &G) -> Knowledge {
        let key = p.key();
        let k = (self.lookup)(key);
        let Some(claims) = self.claims else {
            return k;
        };
        let claims = claims.read().unwrap_or_else(|e| e.into_inner());
        claims.get(&key).map_or(k, |&claim| k.union(claim))
    }

    /// Sign bounds `(lo, hi)` on the score the *parent* gets by playing `mv` in `p`, from what
    /// needs no search: an immediate win, a full board, the child's entry.
    /// With the child, its entry.
    fn via_entries(&self, p: &G, mv: u64) -> ((i8, i8), Option<(G, Knowledge)>) {
        if p.winning_moves() & mv != 0 {
            return ((1, 1), None);
        }
        let mut c = *p;
        c.play(mv);
        if c.ply() >= c.max_ply() {
            return ((0, 0), None);
        }
        let k = self.knowledge(&c);
        let (lo, hi) = k.sign_bounds();
        ((-hi, -lo), Some((c, k)))
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

    /// Whether value `v` stored for `p` follows from its children. The children whose entries
    /// it relies on go to `used` with their moves (a won position: the one refuted child it
    /// found, if by entry; a lost one: every child settled by entry), for [`Scope::Proof`].
    fn justify(
        &mut self,
        p: &G,
        v: Value,
        report: &mut CheckReport,
        used: &mut Vec<(u64, G)>,
    ) -> bool {
        let (exists, t) = question(v);
        let pending = match self.by_entries(p, exists, t, report, used) {
            Ok(answer) => return answer,
            Err(pending) => pending,
        };
        let mut open: Vec<(u64, G)> = Vec::new();
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
            for (mv, c) in open {
                // parent's result via this move = -child score: exists needs child <= -t,
                // every needs child >= -t
                match self.child_test(&c, -t, exists, level) {
                    Some(true) => {
                        // the child's value: the parent's, from the child's side
                        self.keep(level, mv, c, v.negated());
                        if exists {
                            return true;
                        }
                    }
                    Some(false) if !exists => return false,
                    Some(false) => {}
                    None => still.push((mv, c)),
                }
            }
            open = still;
        }
        !exists
    }

    /// Notes child `c` (by move `mv`), decided for the proof by a search at budget `level`
    /// to have value `v`, to be kept if the search was a hard one.
    fn keep(&mut self, level: u32, mv: u64, c: G, v: Value) {
        if self.claims.is_some() && level >= self.keep_from {
            self.found.push((mv, c, v));
        }
    }

    /// The part of [`Judge::justify`] that needs no search, for "some move's result for the
    /// mover is >= t" (`exists`) or "every move's result is <= t": `Ok(answer)` where the
    /// children's entries and immediate facts decide, else the children they leave open, with
    /// their moves (`None`: decided without search, and not good enough). The children whose
    /// entries it relies on go to `used`.
    ///
    /// Where "some move's result" is left to search, the children whose entries said they are
    /// no refutation were passed over; their entries go to `passed_over`, so that the proof
    /// kept alone passes over them too instead of searching them (at a won position near the
    /// start such a search can take hours). Keeping them is sound whatever they say: an entry
    /// there can only take a child out of the search for a refutation, which makes the value
    /// harder to justify, never a false one true.
    fn by_entries(
        &mut self,
        p: &G,
        exists: bool,
        t: i32,
        report: &mut CheckReport,
        used: &mut Vec<(u64, G)>,
    ) -> Result<bool, Vec<Option<(u64, G)>>> {
        let mut pending = Vec::new();
        for mv in Bits(p.playable()) {
            let ((lo, hi), entry) = self.via_entries(p, mv);
            let child = entry.map(|(c, _)| (mv, c));
            if exists && lo as i32 >= t {
                report.by_entry += 1;
                used.extend(child);
                return Ok(true);
            }
            if !exists && hi as i32 > t {
                pending.push(child);
            } else if !exists {
                report.by_entry += 1;
                used.extend(child);
            } else if hi as i32 >= t {
                pending.push(child);
            } else if let Some((c, k)) = entry.filter(|_| self.passed_over.is_some()) {
                let words = entry_words(self.key_in_proof(&c), k.normalised().unwrap_or(k));
                self.passed_over.as_mut().expect("just seen").extend(words);
            }
        }
        Err(pending)
    }

    /// The children's entries that the justification of entry `k` of `p` relied on, into
    /// `used`, without searching: for a position an earlier walk justified (its journal says
    /// so), whose children needing a search were decided then. Counts it in `report`.
    fn replay_entry(
        &mut self,
        p: &G,
        k: Knowledge,
        report: &mut CheckReport,
        used: &mut Vec<(u64, G)>,
    ) {
        report.visit(p.ply());
        report.from_journal += 1;
        // the values as `justify_entry` took them (it journals only what normalises)
        let k = k.normalised().unwrap_or(k);
        for v in k.values() {
            let (exists, t) = question(v);
            // (the answer was found then; only the entries it rested on are wanted now)
            let _ = self.by_entries(p, exists, t, report, used);
            report.justified += 1;
        }
    }

    /// Justifies every value of entry `k` stored for `p`, counting in `report`; the children
    /// their justifications rely on go to `used`. Returns whether all were justified.
    fn justify_entry(
        &mut self,
        p: &G,
        k: Knowledge,
        report: &mut CheckReport,
        used: &mut Vec<(u64, G)>,
    ) -> bool {
        report.visit(p.ply());
        let k = match k.normalised() {
            Ok(k) => k,
            Err(c) => {
                report.fail(format!("key {:#x}: stored as {c}", p.key()));
                return false;
            }
        };
        let mut all = true;
        for v in k.values() {
            if self.justify(p, v, report, used) {
                report.justified += 1;
            } else {
                all = false;
                report.fail(format!(
                    "key {:#x} (ply {}): stored {v}, not justified by its children",
                    p.key(),
                    p.ply()
                ));
            }
        }
        all
    }
}

/// What the value `v` claims of a position's moves: "some move's result for the mover is >= t"
/// (`exists`; Win: t = 1, AtLeastDraw: t = 0) or "every move's result is <= t" (Loss: t = -1,
/// AtMostDraw: t = 0).
fn question(v: Value) -> (bool, i32) {
    match v {
        Value::Win => (true, 1),
        Value::AtLeastDraw => (true, 0),
        Value::Loss => (false, -1),
        Value::AtMostDraw => (false, 0),
    }
}

/// A walk's report of progress: the report so far and the number of positions queued.
pub type Progress<'a> = &'a mut (dyn FnMut(&CheckReport, usize) + Send);

/// A position's key as some store has it (see [`WalkAids::proof_key`]).
pub type KeyOf<'a, G> = &'a (dyn Fn(&G) -> Key + Sync);

/// What a long walk may use besides the table ([`Scope::Proof`] only): a journal of the
/// positions justified so far, read to skip the searches of those an earlier walk justified and
/// written as positions are justified; and a report of progress, called after each position
/// with the report so far and the number of positions queued.
pub struct WalkAids<'a, G> {
    /// The journal of this table's state and start.
    pub journal: Option<&'a mut Journal>,
    /// Called after each position.
    pub progress: Option<Progress<'a>>,
    /// Gets the entry words of every position on the proof (justified now or by the journal's
    /// walk): the proof alone, to be written as a store of its own
    /// ([`crate::store::export::write_store`]) that the same walk passes on.
    pub proof: Option<&'a mut Vec<u64>>,
    /// With `proof`: the budget level (of the [`Decide`] searches) from which a child decided
    /// for the proof by search joins the proof with the value the search found, and is
    /// justified in its turn like an entry. A search stores what it proved only where that
    /// cost enough, and a full table loses entries, so a proof's positions near its start can
    /// rest on children whose search takes minutes; kept, they make the proof alone quick to
    /// re-check from its start, at the price of justifying them once here. Sound: a kept
    /// value is a claim like any entry, and the walk does not end before it is justified (a
    /// child already on the walk is not given one: it may have been justified without it).
    pub keep_searched: Option<u32>,
    /// With `proof`: the key each position of the proof is written under (`None`: the table's
    /// own, [`Game::key`]). The 4x4x4 games give the key of another hash seed: the proof then
    /// stands in a store of that seed, and its check there (every look-up and every search
    /// keyed by the new seed) confirms the value with no key of the first seed in it, so no
    /// collision of the first seed's keys can have made it. Any key is sound here: the walk
    /// visits positions, never keys, so each entry is written for a position it justified.
    pub proof_key: Option<KeyOf<'a, G>>,
}

impl<G> Default for WalkAids<'_, G> {
    fn default() -> Self {
        WalkAids {
            journal: None,
            progress: None,
            proof: None,
            keep_searched: None,
            proof_key: None,
        }
    }
}

/// Walks from `start` through every position that has an entry, or only the proof of the
/// start's value (`scope`, with `aids`, on `threads` threads; the full walk uses one), at most
/// `max_positions` of them (0 = no limit), and justifies each stored value by the children.
/// `lookup` reads the table; children without a deciding entry are searched by alpha-beta with
/// memory tables of `search_mem` bytes in all (one a thread).
pub fn walk<G: Game + Send + Sync>(
    start: &G,
    lookup: Lookup<'_>,
    search_mem: usize,
    scope: Scope,
    max_positions: u64,
    threads: usize,
    aids: WalkAids<'_, G>,
) -> CheckReport {
    let threads = if scope == Scope::Proof {
        threads.max(1)
    } else {
        1
    };
    let tables: Vec<MemoryTable> = (0..threads)
        .map(|_| MemoryTable::with_bytes(search_mem / threads))
        .collect();
    let mut searches: Vec<_> = tables.iter().map(by_alpha_beta).collect();
    let deciders = searches.iter_mut().map(|d| d as Decide<'_, G>).collect();
    walk_deciding(
        start,
        lookup,
        &|g: &G| g.id(),
        deciders,
        scope,
        max_positions,
        aids,
    )
}

/// [`walk`]'s way to decide children: alpha-beta null-window tests with `table` (budgets do
/// not apply: it always answers).
fn by_alpha_beta<G: Game>(
    table: &MemoryTable,
) -> impl FnMut(&G, i32, bool, u32) -> Option<bool> + '_ {
    move |c: &G, t: i32, at_most: bool, _level: u32| {
        let mut s = Unstoppable::new(table, Options::default());
        Some(if at_most {
            s.negamax(c, t, t + 1) <= t
        } else {
            s.negamax(c, t - 1, t) >= t
        })
    }
}

/// [`walk`] with the searches for children without entries given, one for each thread of a
/// proof walk (the full walk uses the first): games whose children near the start are beyond
/// plain alpha-beta (the 4x4x4 games) decide them by their own solver.
pub fn walk_deciding<G: Game + Send + Sync>(
    start: &G,
    lookup: Lookup<'_>,
    identity: Identity<'_, G>,
    deciders: Vec<Decide<'_, G>>,
    scope: Scope,
    max_positions: u64,
    aids: WalkAids<'_, G>,
) -> CheckReport {
    let start_values = match lookup(start.key()).normalised() {
        Ok(k) => k.values().collect(),
        Err(_) => Vec::new(),
    };
    let keep_passed_over = aids.proof.is_some();
    // the claims kept, from the journal's walk first: a resumed walk replays the positions
    // that rested on them
    let claims =
        (scope == Scope::Proof && keep_passed_over && aids.keep_searched.is_some()).then(|| {
            let journaled = aids.journal.as_ref().map(|j| j.kept().collect());
            RwLock::new(journaled.unwrap_or_default())
        });
    let mut judges: Vec<Judge<'_, G>> = deciders
        .into_iter()
        .map(|decide| Judge {
            lookup,
            decide,
            claims: claims.as_ref(),
            keep_from: aids.keep_searched.unwrap_or(u32::MAX),
            found: Vec::new(),
            passed_over: keep_passed_over.then(Vec::new),
            proof_key: aids.proof_key,
        })
        .collect();
    assert!(!judges.is_empty(), "a walk needs a search for children");
    let mut report = CheckReport {
        start_values,
        ..CheckReport::default()
    };
    if scope == Scope::Proof {
        walk_proof(
            start,
            &mut judges,
            identity,
            max_positions,
            aids,
            &mut report,
        );
        return report;
    }
    let judge = &mut judges[0];
    let mut used = Vec::new(); // the full walk follows every child anyway
    report.truncated = walk_entries(start, lookup, identity, max_positions, &mut |p, k, line| {
        let before = report.failures;
        used.clear();
        judge.justify_entry(p, k, &mut report, &mut used);
        if before == 0 && report.failures > 0 {
            report.first_failure_line = line();
        }
        true
    });
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Connect4;
    use crate::store::entry::Entry;
    use std::collections::{HashMap, HashSet};
    use std::sync::Mutex;
    use std::time::Duration;

    const MEM: usize = 16 << 20;

    /// The sign of `p`'s score for its mover, by the null-window tests the walk uses.
    fn sign(p: &Connect4, table: &MemoryTable) -> i32 {
        let mut decide = by_alpha_beta(table);
        if decide(p, 1, false, 0) == Some(true) {
            1
        } else if decide(p, -1, true, 0) == Some(true) {
            -1
        } else {
            0
        }
    }

    /// What an honest table stores for a score of sign `v`.
    fn knowledge(v: i32) -> Knowledge {
        match v {
            1 => Knowledge::NONE.with(Value::Win),
            -1 => Knowledge::NONE.with(Value::Loss),
            _ => Knowledge::NONE
                .with(Value::AtLeastDraw)
                .with(Value::AtMostDraw),
        }
    }

    /// Every position of the first `plies` plies of `p`'s game with its true sign, keyed.
    fn honest(p: &Connect4, plies: u32, table: &MemoryTable, out: &mut HashMap<Key, i32>) {
        if p.ply() >= p.max_ply() || out.contains_key(&p.key()) {
            return;
        }
        out.insert(p.key(), sign(p, table));
        if plies == 0 || p.winning_moves() != 0 {
            return;
        }
        for mv in Bits(p.playable()) {
            let mut c = *p;
            c.play(mv);
            honest(&c, plies - 1, table, out);
        }
    }

    /// 6x4 Connect Four's empty board and the true values of its first five plies.
    fn honest_6x4() -> (Connect4, HashMap<Key, i32>) {
        let table = MemoryTable::with_bytes(MEM);
        let start = Connect4::new(6, 4).unwrap();
        let mut values = HashMap::new();
        honest(&start, 5, &table, &mut values);
        (start, values)
    }

    /// One walk of a table of true values with `lies` planted: its report, the keys it read
    /// and the keys of the positions it visited.
    fn walk_with(
        start: &Connect4,
        values: &HashMap<Key, i32>,
        lies: &HashMap<Key, Knowledge>,
        scope: Scope,
    ) -> (CheckReport, HashSet<Key>, HashSet<Key>) {
        walk_aided(start, values, lies, scope, 0, 1, WalkAids::default())
    }

    /// [`walk_with`], at most `max_positions` positions, on `threads` threads, with `aids`.
    fn walk_aided(
        start: &Connect4,
        values: &HashMap<Key, i32>,
        lies: &HashMap<Key, Knowledge>,
        scope: Scope,
        max_positions: u64,
        threads: usize,
        aids: WalkAids<'_, Connect4>,
    ) -> (CheckReport, HashSet<Key>, HashSet<Key>) {
        walk_slowly(
            start,
            values,
            lies,
            (scope, max_positions, threads),
            Duration::ZERO,
            aids,
        )
    }

    /// [`walk_aided`] with every search for a child taking at least `delay` (as a hard child's
    /// does: the other threads find the queue empty meanwhile).
    fn walk_slowly(
        start: &Connect4,
        values: &HashMap<Key, i32>,
        lies: &HashMap<Key, Knowledge>,
        (scope, max_positions, threads): (Scope, u64, usize),
        delay: Duration,
        aids: WalkAids<'_, Connect4>,
    ) -> (CheckReport, HashSet<Key>, HashSet<Key>) {
        let (read, visited) = (Mutex::new(HashSet::new()), Mutex::new(HashSet::new()));
        let lookup = |key: Key| {
            read.lock().unwrap().insert(key);
            match lies.get(&key) {
                Some(&k) => k,
                None => values.get(&key).map_or(Knowledge::NONE, |&v| knowledge(v)),
            }
        };
        // the walk asks every position it queues (and so visits) for its identity
        let identity = |g: &Connect4| {
            visited.lock().unwrap().insert(g.key());
            g.id()
        };
        let tables: Vec<MemoryTable> = (0..threads).map(|_| MemoryTable::with_bytes(MEM)).collect();
        let mut searches: Vec<_> = tables
            .iter()
            .map(|t| {
                let mut search = by_alpha_beta(t);
                move |c: &Connect4, t: i32, at_most: bool, level: u32| {
                    std::thread::sleep(delay);
                    search(c, t, at_most, level)
                }
            })
            .collect();
        let deciders = searches.iter_mut().map(|d| d as Decide<'_, _>).collect();
        let report = walk_deciding(
            start,
            &lookup,
            &identity,
            deciders,
            scope,
            max_positions,
            aids,
        );
        let (read, visited) = (read.into_inner(), visited.into_inner());
        (report, read.unwrap(), visited.unwrap())
    }

    /// The proof walk justifies the start's value by what it rests on only. On an honest table it
    /// passes, visiting fewer positions than the full walk; a lie it never reads fails the full
    /// walk and not the proof; a lie that the proof comes to rest on (a won position's child
    /// falsely stored as lost, so taken as its refutation) fails it.
    #[test]
    fn a_proof_walk_checks_the_start_and_only_what_it_rests_on() {
        let table = MemoryTable::with_bytes(MEM);
        // 6x4 is lost for the first player: its empty board (a loss: every child is on the
        // proof) and its position after one move (a win: one refutation is)
        let empty = Connect4::new(6, 4).unwrap();
        let mut one_move = empty;
        one_move.play(Bits(empty.playable()).nth(2).unwrap());
        for start in [empty, one_move] {
            let ply = start.ply(); // names the case in messages
            let mut values = HashMap::new();
            honest(&start, 4, &table, &mut values);
            let none = HashMap::new();
            let (all, ..) = walk_with(&start, &values, &none, Scope::Everything);
            let (proof, read, visited) = walk_with(&start, &values, &none, Scope::Proof);
            assert_eq!((all.failures, proof.failures), (0, 0), "ply {ply}");
            let start_value = values[&start.key()];
            assert_ne!(start_value, 0, "ply {ply}: a decided start");
            assert_eq!(
                proof.start_values,
                knowledge(start_value).values().collect::<Vec<_>>()
            );
            assert!(
                0 < proof.positions && proof.positions < all.positions,
                "ply {ply}: proof {} positions, all {}",
                proof.positions,
                all.positions
            );

            // off the proof: a stored position the proof walk never read
            let (&off, &v) = values
                .iter()
                .filter(|(k, _)| !read.contains(k))
                .min_by_key(|(k, _)| **k)
                .expect("positions off the proof");
            let lies = HashMap::from([(off, knowledge(if v == 1 { -1 } else { 1 }))]);
            let (all, ..) = walk_with(&start, &values, &lies, Scope::Everything);
            let (proof, ..) = walk_with(&start, &values, &lies, Scope::Proof);
            assert!(all.failures > 0, "ply {ply}: the full walk misses a lie");
            assert_eq!(proof.failures, 0, "ply {ply}: {:?}", proof.failure_lines);

            // on the proof: a child of a visited won position falsely stored as lost
            let mut rested_on = 0;
            let mut frontier = vec![start];
            while let Some(p) = frontier.pop() {
                if p.winning_moves() != 0 || !values.contains_key(&p.key()) {
                    continue;
                }
                for mv in Bits(p.playable()) {
                    let mut c = p;
                    c.play(mv);
                    if values.get(&c.key()).is_some_and(|&v| v >= 0) {
                        frontier.push(c);
                    }
                    let won = visited.contains(&p.key()) && values[&p.key()] == 1;
                    if !won || values.get(&c.key()).is_none_or(|&v| v == -1) {
                        continue;
                    }
                    let lies = HashMap::from([(c.key(), knowledge(-1))]);
                    let (proof, _, visited) = walk_with(&start, &values, &lies, Scope::Proof);
                    if visited.contains(&c.key()) {
                        rested_on += 1;
                        assert!(
                            proof.failures > 0,
                            "ply {ply}: a lie the proof rests on passes"
                        );
                    }
                }
            }
            assert!(rested_on > 0, "ply {ply}: no lie the proof rests on");

            // no stored value at the start: nothing to prove
            let empty = walk(
                &start,
                &|_| Knowledge::NONE,
                MEM,
                Scope::Proof,
                0,
                2,
                WalkAids::default(),
            );
            assert_eq!((empty.positions, empty.justified), (0, 0));
            assert!(empty.start_values.is_empty());
        }
    }

    /// The proof taken out of a table (the entries of the positions a proof walk justified) is
    /// a table of its own on which the same walk passes, justifying the same positions; one
    /// collected by a walk that resumed from its journal, or by two threads, is the same proof.
    /// A lie planted in it that the walk rests on fails.
    #[test]
    fn the_proof_taken_out_of_a_table_passes_alone() {
        let (start, values) = honest_6x4();
        let none = HashMap::new();
        let extract = |threads: usize, journal: Option<&mut Journal>, stop_at: u64| {
            let mut words = Vec::new();
            let aids = WalkAids {
                journal,
                proof: Some(&mut words),
                ..WalkAids::default()
            };
            let (report, ..) =
                walk_aided(&start, &values, &none, Scope::Proof, stop_at, threads, aids);
            let mut proof: HashMap<Key, Knowledge> = HashMap::new();
            for w in words {
                let e = Entry::from_word(w);
                let k = proof.entry(e.key()).or_insert(Knowledge::NONE);
                *k = k.with(e.value());
            }
            (report, proof)
        };
        let (whole, proof) = extract(1, None, 0);
        assert_eq!(whole.failures, 0);
        assert!(!proof.is_empty());
        assert!(
            proof.len() < values.len(),
            "the proof is not the whole table"
        );
        for (key, k) in &proof {
            assert_eq!(*k, knowledge(values[key]), "an entry as the table has it");
        }
        // alone: the table's values are gone, the proof's entries stand in for them
        let empty = HashMap::new();
        let (alone, ..) = walk_with(&start, &empty, &proof, Scope::Proof);
        assert_eq!(alone.failures, 0, "{:?}", alone.failure_lines);
        assert_eq!(
            (alone.positions, alone.justified),
            (whole.positions, whole.justified)
        );
        // the same searches too: the children passed over by their entries are kept with it
        assert_eq!(alone.by_search, whole.by_search);
        let (two_threads, two) = extract(2, None, 0);
        assert_eq!(two.len(), proof.len());
        // the proof's shape: every position counted once, at its ply
        assert_eq!(whole.by_ply.iter().sum::<u64>(), whole.positions);
        assert_eq!(whole.by_ply[start.ply() as usize], 1);
        assert_eq!(two_threads.by_ply, whole.by_ply);

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal");
        let mut journal = Journal::open(&path, "6x4 honest").unwrap();
        let (first, _) = extract(1, Some(&mut journal), whole.positions / 2);
        assert!(first.truncated);
        drop(journal);
        let mut journal = Journal::open(&path, "6x4 honest").unwrap();
        let (rest, resumed) = extract(1, Some(&mut journal), 0);
        assert!(rest.from_journal > 0 && !rest.truncated);
        assert_eq!(
            resumed, proof,
            "the journal's positions are on the proof too"
        );

        // a child of a won position on the proof falsely stored as lost: taken as the
        // refutation where it comes first, and then it fails
        let mut rested_on = 0;
        let mut tried = HashSet::new();
        for p in positions_upto(&start, 4) {
            if rested_on >= 4 || proof.get(&p.key()) != Some(&knowledge(1)) {
                continue;
            }
            for mv in Bits(p.playable()) {
                let mut c = p;
                c.play(mv);
                if values.get(&c.key()).is_none_or(|&v| v == -1) || !tried.insert(c.key()) {
                    continue;
                }
                let mut lying = proof.clone();
                lying.insert(c.key(), knowledge(-1));
                let (lied, _, visited) = walk_with(&start, &empty, &lying, Scope::Proof);
                if visited.contains(&c.key()) {
                    rested_on += 1;
                    assert!(lied.failures > 0, "a lie in the proof passes");
                }
            }
        }
        assert!(rested_on > 0, "no lie the proof rests on");
    }

    /// How [`walk_hard_near_start`] walks: on how many threads, whether it extracts the proof
    /// and keeps hard children (`Some(level)`), with which journal, up to how many positions.
    struct HardWalk<'j> {
        threads: usize,
        max_positions: u64,
        extract: bool,
        keep_searched: Option<u32>,
        journal: Option<&'j mut Journal>,
        /// A child whose search lies: says it loses.
        liar: Option<Key>,
    }

    impl HardWalk<'_> {
        fn check(threads: usize) -> Self {
            HardWalk {
                threads,
                max_positions: 0,
                extract: false,
                keep_searched: None,
                journal: None,
                liar: None,
            }
        }
        fn extract(keep_searched: Option<u32>) -> Self {
            HardWalk {
                extract: true,
                keep_searched,
                ..HardWalk::check(1)
            }
        }
    }

    /// A proof walk of `table` from `start` whose searches for children at plies 1 and 2 are
    /// hard (they answer only at budget level 2 and above; deeper ones at once, and the liar's
    /// falsely): its report, the proof's entries (if extracted) and how many children it
    /// decided by a hard search.
    fn walk_hard_near_start(
        start: &Connect4,
        table: &HashMap<Key, Knowledge>,
        how: HardWalk<'_>,
    ) -> (CheckReport, HashMap<Key, Knowledge>, u64) {
        let (threads, hard_to) = (how.threads, 2);
        let lookup = |key: Key| table.get(&key).copied().unwrap_or_default();
        let identity = |g: &Connect4| g.id();
        let hard = std::sync::atomic::AtomicU64::new(0);
        let tables: Vec<MemoryTable> = (0..threads).map(|_| MemoryTable::with_bytes(MEM)).collect();
        let mut searches: Vec<_> = tables
            .iter()
            .map(|table| {
                let mut search = by_alpha_beta(table);
                let hard = &hard;
                move |c: &Connect4, t: i32, at_most: bool, level: u32| {
                    if how.liar == Some(c.key()) && at_most {
                        return (level >= 2).then_some(true);
                    }
                    if c.ply() <= hard_to {
                        if level < 2 {
                            return None;
                        }
                        hard.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    search(c, t, at_most, level)
                }
            })
            .collect();
        let deciders = searches.iter_mut().map(|d| d as Decide<'_, _>).collect();
        let mut words = Vec::new();
        let aids = WalkAids {
            journal: how.journal,
            proof: how.extract.then_some(&mut words),
            keep_searched: how.keep_searched,
            ..WalkAids::default()
        };
        let report = walk_deciding(
            start,
            &lookup,
            &identity,
            deciders,
            Scope::Proof,
            how.max_positions,
            aids,
        );
        drop(searches);
        let mut proof: HashMap<Key, Knowledge> = HashMap::new();
        for w in words {
            let e = Entry::from_word(w);
            let k = proof.entry(e.key()).or_insert(Knowledge::NONE);
            *k = k.with(e.value());
        }
        (report, proof, hard.into_inner())
    }

    /// A proof extracted from a table without entries near its start keeps the children its
    /// hard searches decided, with the values found: the proof alone then passes without a
    /// hard search, where the one extracted without them needs every one again. A walk that
    /// resumes from its journal keeps the same children; a kept value that is false fails.
    #[test]
    fn an_extracted_proof_keeps_the_children_its_hard_searches_decided() {
        let (start, values) = honest_6x4();
        // the table of a search that kept nothing of plies 1 and 2
        let table: HashMap<Key, Knowledge> = positions_upto(&start, 5)
            .iter()
            .filter(|p| !(1..=2).contains(&p.ply()))
            .filter_map(|p| Some((p.key(), knowledge(*values.get(&p.key())?))))
            .collect();
        let (plain, plain_proof, plain_hard) =
            walk_hard_near_start(&start, &table, HardWalk::extract(None));
        let (kept, proof, hard) = walk_hard_near_start(&start, &table, HardWalk::extract(Some(2)));
        assert_eq!((plain.failures, kept.failures), (0, 0));
        assert!(plain_hard > 0 && plain.kept == 0, "{plain:?}");
        // every position of ply 1 is on the proof of a lost start, each kept by its search
        let ply1 = positions_upto(&start, 1).len() as u64 - 1;
        assert!(kept.kept >= ply1 && hard >= plain_hard, "{kept:?}");
        for p in positions_upto(&start, 2) {
            if let Some(k) = proof.get(&p.key()) {
                assert_eq!(*k, knowledge(values[&p.key()]), "kept as it is");
            }
        }
        assert!(proof.len() as u64 >= plain_proof.len() as u64 + ply1);

        // alone: no hard search with the kept children, all of them again without
        let (alone, _, alone_hard) = walk_hard_near_start(&start, &proof, HardWalk::check(1));
        assert_eq!((alone.failures, alone_hard), (0, 0), "{alone:?}");
        assert_eq!(alone.positions, kept.positions);
        let (plain_alone, _, plain_alone_hard) =
            walk_hard_near_start(&start, &plain_proof, HardWalk::check(2));
        assert_eq!(plain_alone.failures, 0);
        assert_eq!(plain_alone_hard, plain_hard);
        // two threads keep a proof that passes alone just as well (how many they keep depends
        // on timing: a mirror image of a kept child searched before its claim is kept too)
        let two_threads = HardWalk {
            threads: 2,
            ..HardWalk::extract(Some(2))
        };
        let (two, two_proof, _) = walk_hard_near_start(&start, &table, two_threads);
        assert!(two.failures == 0 && two.kept >= ply1, "{two:?}");
        let (two_alone, _, two_alone_hard) =
            walk_hard_near_start(&start, &two_proof, HardWalk::check(1));
        assert_eq!((two_alone.failures, two_alone_hard), (0, 0));

        // stopped half way and resumed from its journal: the same proof
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal");
        let mut journal = Journal::open(&path, "6x4 thin").unwrap();
        let stopping = HardWalk {
            journal: Some(&mut journal),
            max_positions: kept.positions / 2,
            ..HardWalk::extract(Some(2))
        };
        let (first, ..) = walk_hard_near_start(&start, &table, stopping);
        assert!(first.truncated && first.kept > 0, "{first:?}");
        drop(journal);
        let mut journal = Journal::open(&path, "6x4 thin").unwrap();
        // one claim a key (a kept child's mirror image shares it)
        let claims = journal.kept().count() as u64;
        assert!(0 < claims && claims <= first.kept, "{claims} {first:?}");
        let resuming = HardWalk {
            journal: Some(&mut journal),
            ..HardWalk::extract(Some(2))
        };
        let (rest, resumed, _) = walk_hard_near_start(&start, &table, resuming);
        assert!(rest.from_journal > 0 && rest.failures == 0, "{rest:?}");
        assert_eq!(resumed, proof, "the journal's claims are on the proof too");

        // a hard search that lies (a child of ply 2 that does not lose said to lose, where it
        // is its parent's first move): the value kept fails when its turn comes; without
        // keeping, the walk cannot see the lie
        let liar = positions_upto(&start, 1)[1..]
            .iter()
            .map(|p| {
                let mut c = *p;
                c.play(Bits(p.playable()).next().unwrap());
                c.key()
            })
            .find(|key| values[key] != -1)
            .expect("a first move that does not win");
        let lying = |keep_searched| HardWalk {
            liar: Some(liar),
            ..HardWalk::extract(keep_searched)
        };
        let (lied, ..) = walk_hard_near_start(&start, &table, lying(Some(2)));
        assert!(lied.failures > 0, "a false kept value passes");
        let (unseen, ..) = walk_hard_near_start(&start, &table, lying(None));
        assert_eq!(unseen.failures, 0);
    }

    /// Every position of the first `plies` plies from `p` that is not over.
    fn positions_upto(p: &Connect4, plies: u32) -> Vec<Connect4> {
        let mut out = vec![*p];
        if plies > 0 && p.winning_moves() == 0 && p.ply() < p.max_ply() {
            for mv in Bits(p.playable()) {
                let mut c = *p;
                c.play(mv);
                out.extend(positions_upto(&c, plies - 1));
            }
        }
        out
    }

    /// A proof walk stopped part way goes on from its journal: the walk that resumes visits the
    /// same positions as one from nothing, justifies what the first did not, searches no child
    /// of a journaled position again, and still fails on a lie. Progress is reported once per
    /// position.
    #[test]
    fn a_stopped_proof_walk_goes_on_from_its_journal() {
        let (start, values) = honest_6x4();
        let none = HashMap::new();
        let (whole, _, whole_visited) = walk_with(&start, &values, &none, Scope::Proof);
        assert!(whole.positions > 20 && whole.by_search > 0, "{whole:?}");

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal");
        // (the deepest positions, whose children have no entries, come last)
        let stop_at = whole.positions * 3 / 4;
        let mut journal = Journal::open(&path, "6x4 honest").unwrap();
        let mut calls = 0u64;
        let mut progress = |r: &CheckReport, _queued: usize| {
            calls += 1;
            assert_eq!(r.positions, calls);
        };
        let aids = WalkAids {
            journal: Some(&mut journal),
            progress: Some(&mut progress),
            ..WalkAids::default()
        };
        let (first, ..) = walk_aided(&start, &values, &none, Scope::Proof, stop_at, 1, aids);
        assert!(first.truncated && first.positions == stop_at);
        assert_eq!(calls, stop_at);
        drop(journal);

        let mut journal = Journal::open(&path, "6x4 honest").unwrap();
        assert_eq!(journal.loaded, stop_at);
        let aids = WalkAids {
            journal: Some(&mut journal),
            ..WalkAids::default()
        };
        let (rest, _, visited) = walk_aided(&start, &values, &none, Scope::Proof, 0, 1, aids);
        assert_eq!(visited, whole_visited);
        assert_eq!(
            (
                rest.positions,
                rest.justified,
                rest.failures,
                rest.truncated
            ),
            (whole.positions, whole.justified, 0, false)
        );
        assert_eq!(rest.from_journal, stop_at);
        assert!(rest.by_search < whole.by_search, "{rest:?} {whole:?}");
        // what the second walk justified is journaled too: a third searches nothing
        let aids = WalkAids {
            journal: Some(&mut journal),
            ..WalkAids::default()
        };
        let (third, ..) = walk_aided(&start, &values, &none, Scope::Proof, 0, 1, aids);
        assert_eq!((third.from_journal, third.by_search), (whole.positions, 0));

        // a lie where a journal is kept still fails, and is not journaled: the start (lost)
        // stored as won
        let lie = HashMap::from([(start.key(), knowledge(1))]);
        let mut journal = Journal::open(&dir.path().join("fresh"), "6x4 lie").unwrap();
        let aids = WalkAids {
            journal: Some(&mut journal),
            ..WalkAids::default()
        };
        let (lying, ..) = walk_aided(&start, &values, &lie, Scope::Proof, 0, 1, aids);
        assert_eq!(lying.failures, 1);
        assert!(!journal.knows(start.id(), knowledge(1)) && journal.error().is_none());
    }

    /// A proof walk on several threads justifies what the walk on one does: on an honest table
    /// the same positions with the same counts; with a lie the proof rests on, a failure at the
    /// same depth; a limit stops it at exactly that many positions; and a journal it kept lets a
    /// walk on one thread go on from it. The start's justification needs a slow search (one of
    /// its children has no entry), so the other threads wait for their first position.
    #[test]
    fn a_proof_walk_on_several_threads_justifies_what_one_does() {
        let (start, mut values) = honest_6x4();
        let mut first = start;
        first.play(Bits(start.playable()).next().unwrap());
        values.remove(&first.key());
        let none = HashMap::new();
        let counts = |r: &CheckReport| {
            (
                r.positions,
                r.justified,
                r.by_entry,
                r.by_search,
                r.failures,
                r.truncated,
            )
        };
        let delay = Duration::from_millis(1);
        let on = |threads, lies: &HashMap<Key, Knowledge>, max, aids: WalkAids<'_, Connect4>| {
            let limits = (Scope::Proof, max, threads);
            walk_slowly(&start, &values, lies, limits, delay, aids)
        };
        let (one, _, one_visited) = on(1, &none, 0, WalkAids::default());
        assert!(one.positions > 20 && one.by_search > 0, "{one:?}");
        for threads in [2, 3] {
            let (many, _, visited) = on(threads, &none, 0, WalkAids::default());
            assert_eq!(visited, one_visited, "{threads} threads");
            assert_eq!(counts(&many), counts(&one), "{threads} threads");
        }

        // lies on the proof, the stored values of a fifth of its positions turned over in turn:
        // the same verdict and the same depth of the failure shown
        let mut keys: Vec<Key> = one_visited.iter().copied().collect();
        keys.sort();
        let mut deep_failures = 0;
        for key in keys
            .into_iter()
            .filter(|k| values.contains_key(k))
            .step_by(5)
        {
            let lie = HashMap::from([(key, knowledge(if values[&key] == 1 { -1 } else { 1 }))]);
            let (single, ..) = on(1, &lie, 0, WalkAids::default());
            let (double, ..) = on(2, &lie, 0, WalkAids::default());
            assert_eq!(single.failures > 0, double.failures > 0, "key {key:#x}");
            assert_eq!(
                single.first_failure_line.len(),
                double.first_failure_line.len(),
                "key {key:#x}"
            );
            deep_failures += usize::from(single.first_failure_line.len() >= 2);
        }
        assert!(deep_failures > 0, "no failure below the start's children");

        // a limit, then a journal taken up by one thread
        let stop_at = one.positions / 2;
        let (cut, ..) = on(2, &none, stop_at, WalkAids::default());
        assert!(cut.truncated && cut.positions == stop_at, "{cut:?}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal");
        let mut journal = Journal::open(&path, "6x4 honest").unwrap();
        let aids = WalkAids {
            journal: Some(&mut journal),
            ..WalkAids::default()
        };
        on(2, &none, stop_at, aids);
        drop(journal);
        let mut journal = Journal::open(&path, "6x4 honest").unwrap();
        assert_eq!(journal.loaded, stop_at);
        let aids = WalkAids {
            journal: Some(&mut journal),
            ..WalkAids::default()
        };
        let (rest, _, visited) = on(1, &none, 0, aids);
        assert_eq!(visited, one_visited);
        assert_eq!(
            (rest.positions, rest.justified, rest.failures),
            (one.positions, one.justified, 0)
        );
        assert_eq!(rest.from_journal, stop_at);
    }
    /// A search that panics on one thread ends the walk on every thread, and the panic reaches
    /// the caller (the other threads do not wait for the failed one forever).
    #[test]
    fn a_panicking_search_ends_a_walk_on_several_threads() {
        let (start, values) = honest_6x4();
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let walked = std::panic::catch_unwind(|| {
                let lookup = |key: Key| values.get(&key).map_or(Knowledge::NONE, |&v| knowledge(v));
                let calls = std::sync::atomic::AtomicU32::new(0);
                let mut searches: Vec<_> = (0..2)
                    .map(|_| {
                        |_: &Connect4, _: i32, _: bool, _: u32| {
                            // the others wait meanwhile, the queue empty or not
                            std::thread::sleep(Duration::from_millis(5));
                            let n = calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            assert!(n != 3, "one search fails, the others go on");
                            Some(true)
                        }
                    })
                    .collect();
                let deciders = searches.iter_mut().map(|d| d as Decide<'_, _>).collect();
                let identity = |g: &Connect4| g.id();
                walk_deciding(
                    &start,
                    &lookup,
                    &identity,
                    deciders,
                    Scope::Proof,
                    0,
                    WalkAids::default(),
                )
            });
            done.send(walked.is_err()).unwrap();
        });
        let panicked = finished.recv_timeout(Duration::from_secs(60));
        assert_eq!(panicked, Ok(true), "the walk hung or did not panic");
    }
}
