//! The proof walk ([`Scope::Proof`](super::Scope::Proof)): a breadth-first walk of the positions
//! one stored value rests on, justified on as many threads as there are judges, with the
//! journal, the progress report, the extracted proof and the kept claims of [`WalkAids`] filed
//! under one lock as each position is done.

use super::entries::{line_to, Identity};
use super::{CheckReport, Judge, WalkAids};
use crate::game::Game;
use crate::store::export::entry_words;
use std::collections::{HashSet, VecDeque};
use std::sync::{Condvar, Mutex};

/// [`Scope::Proof`]: breadth first from `start`, each position's stored values justified and
/// only the children's entries they rely on visited next (each position once by its
/// `identity`), one position at a time on each judge's thread. A start without an entry has
/// nothing to prove: the report then has no positions. A position the journal knows is not
/// justified again: the entries its justification rested on are looked up and walked into, as
/// if it had just been justified.
///
/// With one judge this is a plain breadth-first walk. With more, positions are taken from the
/// queue in the same order but finish in any order. With exact identities the same positions
/// are justified (which children a justification rests on depends on the position and the
/// table alone); with an identity that merges symmetric positions, the member of a class
/// reached first may differ, and with it the children its justification rests on: another
/// proof of the same value. The failure shown is a shallowest one found.
pub(super) fn walk_proof<G: Game + Send + Sync>(
    start: &G,
    judges: &mut [Judge<'_, G>],
    identity: Identity<'_, G>,
    max_positions: u64,
    aids: WalkAids<'_, G>,
    report: &mut CheckReport,
) {
    let walk = Mutex::new(ProofWalk {
        queue: VecDeque::from([(*start, 0usize, identity(start))]),
        seen: HashSet::from([identity(start)]),
        reached: vec![(usize::MAX, 0)],
        report: std::mem::take(report),
        aids,
        taken: 0,
        busy: 0,
        over: false,
        shallowest_failure: None,
    });
    let changed = Condvar::new();
    let limits = (identity, max_positions);
    std::thread::scope(|s| {
        for judge in judges.iter_mut() {
            let (walk, changed) = (&walk, &changed);
            s.spawn(move || justify_from_queue(judge, walk, changed, limits));
        }
    });
    let walk = walk.into_inner().expect("a judge panicked");
    *report = walk.report;
    report.first_failure_line = walk.shallowest_failure.unwrap_or_default();
}

/// A proof walk's state, shared by its threads (under one lock: a position's justification
/// takes milliseconds to minutes, its bookkeeping microseconds).
struct ProofWalk<'a, G> {
    /// Positions to justify: each with its index in `reached` and its identity (worked out
    /// once, when it is queued).
    queue: VecDeque<(G, usize, u128)>,
    /// The identities of the positions queued so far.
    seen: HashSet<u128>,
    /// How each queued position was reached: (parent's index, move).
    reached: Vec<(usize, u64)>,
    report: CheckReport,
    aids: WalkAids<'a, G>,
    /// Positions with entries taken from the queue (for the limit).
    taken: u64,
    /// Positions being justified now.
    busy: usize,
    /// Whether the walk is over (nothing queued and nothing being justified, or the limit).
    over: bool,
    /// The moves to the shallowest failing position found.
    shallowest_failure: Option<Vec<u64>>,
}

/// Ends a proof walk when one of its threads panics (a search that failed), so that the
/// others stop instead of waiting for it forever; the panic then reaches the walk's caller.
struct EndOnPanic<'w, 'a, G> {
    walk: &'w Mutex<ProofWalk<'a, G>>,
    changed: &'w Condvar,
}

impl<G> Drop for EndOnPanic<'_, '_, G> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut w = self.walk.lock().unwrap_or_else(|e| e.into_inner());
            w.over = true;
            self.changed.notify_all();
        }
    }
}

/// One thread of [`walk_proof`]: takes the next queued position, justifies it (the lock
/// released), and files the result: its counts, the journal, the children it rested on.
fn justify_from_queue<G: Game + Send + Sync>(
    judge: &mut Judge<'_, G>,
    walk: &Mutex<ProofWalk<'_, G>>,
    changed: &Condvar,
    (identity, max_positions): (Identity<'_, G>, u64),
) {
    let _end_on_panic = EndOnPanic { walk, changed };
    let mut used = Vec::new();
    let mut w = walk.lock().expect("a judge panicked");
    loop {
        if w.over {
            return;
        }
        let Some((p, at, id)) = w.queue.pop_front() else {
            if w.busy == 0 {
                w.over = true;
                changed.notify_all();
                return;
            }
            w = changed.wait(w).expect("a judge panicked");
            continue;
        };
        let k = judge.knowledge(&p);
        if k.is_empty() {
            continue; // only the start can be without an entry here
        }
        if max_positions > 0 && w.taken >= max_positions {
            w.report.truncated = true;
            w.over = true;
            changed.notify_all();
            return;
        }
        w.taken += 1;
        w.busy += 1;
        let known = w.aids.journal.as_ref().is_some_and(|j| j.knows(id, k));
        drop(w);

        let mut part = CheckReport::default();
        used.clear();
        judge.found.clear();
        if let Some(kept) = judge.passed_over.as_mut() {
            kept.clear();
        }
        let justified = if known {
            judge.replay_entry(&p, k, &mut part, &mut used);
            true
        } else {
            judge.justify_entry(&p, k, &mut part, &mut used)
        };

        w = walk.lock().expect("a judge panicked");
        w.busy -= 1;
        changed.notify_all();
        let w_ = &mut *w;
        w_.report.absorb(&part);
        if let Some(progress) = w_.aids.progress.as_mut() {
            progress(&w_.report, w_.queue.len());
        }
        if !justified {
            let line = line_to(&w_.reached, at);
            if w_
                .shallowest_failure
                .as_ref()
                .is_none_or(|l| line.len() < l.len())
            {
                w_.shallowest_failure = Some(line);
            }
            continue;
        }
        if let Some(journal) = w_.aids.journal.as_mut() {
            journal.record(id, k);
        }
        if let Some(proof) = w_.aids.proof.as_mut() {
            proof.extend(entry_words(
                judge.key_in_proof(&p),
                k.normalised().unwrap_or(k),
            ));
            proof.extend(judge.passed_over.iter().flatten());
        }
        keep_found(judge, w_, at, identity);
        for &(mv, c) in &used {
            let id = identity(&c);
            if w_.seen.insert(id) {
                w_.reached.push((at, mv));
                w_.queue.push_back((c, w_.reached.len() - 1, id));
            }
        }
    }
}

/// Takes the children `judge` found by hard searches for the position with index `at` into the
/// walk's proof ([`WalkAids::keep_searched`]): each not yet on the walk gets the value found as
/// a claim (journaled) and is queued to be justified like an entry. One the walk has already
/// reached is left as it is: it may have been justified before the claim, which must not then
/// be relied on. So is one whose entry contradicts the search (the proof did not use that
/// entry; the full walk reports such a table).
fn keep_found<G: Game>(
    judge: &mut Judge<'_, G>,
    w: &mut ProofWalk<'_, G>,
    at: usize,
    identity: Identity<'_, G>,
) {
    let Some(claims) = judge.claims else {
        return;
    };
    for (mv, c, v) in judge.found.drain(..) {
        let id = identity(&c);
        if w.seen.contains(&id) {
            continue;
        }
        let key = c.key();
        let mut claims = claims.write().unwrap_or_else(|e| e.into_inner());
        let claim = claims.get(&key).copied().unwrap_or_default().with(v);
        if (judge.lookup)(key).union(claim).conflict().is_some() {
            continue;
        }
        claims.insert(key, claim);
        drop(claims);
        if let Some(journal) = w.aids.journal.as_mut() {
            journal.keep(key, claim);
        }
        w.report.kept += 1;
        w.seen.insert(id);
        w.reached.push((at, mv));
        w.queue.push_back((c, w.reached.len() - 1, id));
    }
}
