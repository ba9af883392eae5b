//! The searches behind a request, over any [`Solvable`] game: parallel alpha-beta (with capped
//! deepening where the game supports it) and proof-number search, each answering a position's
//! value with its best moves, or the value of every move.

use super::config::{BestMoves, Engine, Mode, SolverConfig};
use super::control::{with_ticks, Control};
use super::games::{game_over_score, Solvable};
use crate::game::Bits;
use crate::search::proof::Scratch;
use crate::search::seed::SeedSearch;
use crate::search::vcf::ForcingSearch;
use crate::search::{
    Depth, MemoryTable, ParallelSolver, Probe, ProofSearch, ProofTable, Stopped, Table,
};
use crate::store::{Store, StoreError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a proof search over a position store saves a snapshot of its table for resuming
/// (see [`crate::store::checkpoint`]): at most this long apart, unless writing it takes more
/// than a twentieth of the time (a large table). The results worth keeping go to the runs every
/// few seconds regardless.
pub const SEARCH_STATE_EVERY: Duration = Duration::from_secs(60);

/// The longest wait between two snapshots however long the last one took to write: a write
/// that seemed slow (the process was paused with SIGSTOP meanwhile, or the disk was busy) must
/// not leave a kill to lose hours of search.
pub const SEARCH_STATE_MAX_GAP: Duration = Duration::from_secs(15 * 60);

/// When the next snapshot is due after one that took `took` to write, for snapshots asked for
/// every `every`: a twentieth of the time at most goes to writing them, but no longer apart than
/// [`SEARCH_STATE_MAX_GAP`] (unless `every` itself is longer).
pub fn next_snapshot_gap(every: Duration, took: Duration) -> Duration {
    every.max((20 * took).min(SEARCH_STATE_MAX_GAP))
}

/// Nodes (expansions and endgame nodes) a result of the proof search must have cost to go to the
/// position store: cheaper ones are faster to prove again than to keep.
pub const PN_RECORD_MIN_WORK: u64 = 32;

/// What a search found.
pub(crate) struct Found {
    pub score: i32,
    pub best: Vec<u64>,
    pub nodes: u64,
    pub cap: Option<u32>,
    pub probes: Vec<Probe>,
    /// Analysis: every legal move with the mover's score.
    pub move_scores: Option<Vec<(u64, i32)>>,
}

/// The tables of the proof-number engine: its own, its alpha-beta endgames', and the position
/// store it keeps settled results in, if it has one (the store's memory layer is then the
/// endgame table, so endgame results and recorded ones meet in one place).
pub(crate) struct ProofTables {
    pub proof: ProofTable,
    endgame: Option<MemoryTable>,
    store: Option<Box<Store>>,
    /// How often the search's snapshot is saved into the store.
    save_every: Duration,
    /// The last search's caches, for the next question this solver is asked (see
    /// [`Scratch`]): a caller asking many small questions (`table check` decides millions of
    /// children) would otherwise spend most of its time zeroing a new 16 MiB cache for each.
    scratch: Mutex<Option<Box<Scratch>>>,
}

impl ProofTables {
    /// Splits `bytes`, less what `threads` threads hold of their own, between the proof table
    /// and, with endgames, the endgame table (half). The proof table takes 1 GiB pages first,
    /// the endgame table what is left of them (see [`MemoryTable::onto_largest_pages`]).
    pub fn new(bytes: u64, endgame: bool, threads: usize) -> ProofTables {
        let bytes = tables_share(bytes, threads);
        let mut endgame = endgame.then(|| MemoryTable::with_bytes((bytes / 2) as usize));
        let rest = bytes - endgame.as_ref().map_or(0, |t| t.bytes() as u64);
        let proof = ProofTable::new(rest as usize);
        if let Some(t) = endgame.as_mut() {
            t.onto_largest_pages();
        }
        ProofTables {
            proof,
            endgame,
            store: None,
            save_every: SEARCH_STATE_EVERY,
            scratch: Mutex::new(None),
        }
    }

    /// Tables over the position store `open` opens with the memory it is given: of `bytes`
    /// less what the threads and the store's buffers and resident filters hold, half with
    /// endgames (its memory layer is their table), an eighth without (it only caches what the
    /// store knows).
    pub fn with_store(
        bytes: u64,
        endgame: bool,
        threads: usize,
        save_every: Duration,
        open: impl FnOnce(usize) -> Result<Store, StoreError>,
    ) -> Result<ProofTables, StoreError> {
        let bytes = tables_share(bytes, threads);
        let store_bytes = if endgame { bytes / 2 } else { bytes / 8 };
        let mut store = open(store_bytes as usize)?;
        let overhead = store.resident_bytes() + store.buffer_bytes();
        let rest = bytes
            .saturating_sub(store.memory().bytes() as u64)
            .saturating_sub(overhead)
            .max(MIN_TABLE_BYTES);
        let proof = ProofTable::new(rest as usize);
        // the proof table has taken its 1 GiB pages: the memory layer gets what is left
        store.memory_onto_largest_pages();
        proof.preload(store.search_state()?.entries());
        Ok(ProofTables {
            proof,
            endgame: None,
            store: Some(Box::new(store)),
            save_every,
            scratch: Mutex::new(None),
        })
    }

    /// What the last search over these tables left for the next (see [`Scratch`]), if any.
    fn take_scratch(&self) -> Option<Scratch> {
        self.scratch.lock().ok()?.take().map(|kept| *kept)
    }

    /// Keeps `search`'s caches for the next search over these tables ([`proof_search`] takes
    /// them).
    pub fn keep_scratch(&self, search: ProofSearch<'_>) {
        if let Ok(mut kept) = self.scratch.lock() {
            *kept = Some(Box::new(search.into_scratch()));
        }
    }

    /// Saves the proof table into the store, if there is one.
    fn save_search_state(&self) {
        if let Some(store) = self.store() {
            // a failure is kept as the store's error and reported when the solve ends
            let _ = store.save_search_state(self.proof.entries());
        }
    }

    /// Removes the saved snapshot from the store, if there is one.
    fn drop_search_state(&self) {
        if let Some(store) = self.store() {
            let _ = store.drop_search_state();
        }
    }

    /// Publishes the tables' state in `control`.
    fn report(&self, control: &Control) {
        control.set_table_fill(self.proof.fill());
        control.set_tables_on_gigantic_pages(
            self.proof.on_gigantic_pages(),
            self.endgame().is_some_and(|t| t.on_gigantic_pages()),
        );
        if let Some(store) = self.store() {
            control.set_settled(store.stats().entries);
        }
    }

    /// The endgames' alpha-beta table.
    pub fn endgame(&self) -> Option<&MemoryTable> {
        match &self.store {
            Some(s) => Some(s.memory()),
            None => self.endgame.as_ref(),
        }
    }

    /// The position store, if the tables have one.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_deref()
    }

    /// Bytes of the tables.
    pub fn bytes(&self) -> u64 {
        let endgame = self.endgame().map_or(0, |t| t.bytes());
        (self.proof.bytes() + endgame) as u64
    }

    /// Forgets the memory tables (a store keeps its runs).
    pub fn clear(&mut self) {
        self.proof.clear();
        if let Some(e) = self.endgame() {
            e.clear();
        }
    }
}

/// The least a table gets, whatever the budget.
const MIN_TABLE_BYTES: u64 = 1 << 20;

/// What `bytes` of `--mem` leave for the tables once `threads` threads of a proof search hold
/// their own memory.
fn tables_share(bytes: u64, threads: usize) -> u64 {
    bytes
        .saturating_sub(threads.max(1) as u64 * crate::search::proof::PER_THREAD_BYTES)
        .max(MIN_TABLE_BYTES)
}

/// The score a move gets by playing it, where no search is needed: an immediate win, or a
/// child that is a finished game.
fn move_score_without_search<G: Solvable>(g: &G, mv: u64, mode: Mode) -> Result<i32, G> {
    if g.winning_moves() & mv != 0 {
        return Ok(match mode {
            Mode::Strong => g.win_now_score(),
            Mode::Weak => 1,
        });
    }
    let mut child = *g;
    child.play(mv);
    match game_over_score(&child) {
        Some(s) => Ok(-weaken(s, mode)),
        None => Err(child),
    }
}

/// A score as the mode reports it: the sign in weak mode.
pub(crate) fn weaken(score: i32, mode: Mode) -> i32 {
    match mode {
        Mode::Strong => score,
        Mode::Weak => score.signum(),
    }
}

/// Every legal move of `g` with the mover's score, children settled by `child_score`.
fn analyze_with<G: Solvable>(
    g: &G,
    mode: Mode,
    mut child_score: impl FnMut(&G) -> Result<i32, Stopped>,
) -> Result<Vec<(u64, i32)>, Stopped> {
    let mut out = Vec::new();
    for mv in Bits(g.playable()) {
        let s = match move_score_without_search(g, mv, mode) {
            Ok(s) => s,
            Err(child) => -child_score(&child)?,
        };
        out.push((mv, s));
    }
    Ok(out)
}

/// Alpha-beta on `table`: threads share it; weak solves of games that support it try short
/// caps first (a decisive result under a cap is real, see [`crate::search::capped`]).
pub(crate) fn alphabeta<G: Solvable, T: Table>(
    g: &G,
    table: &T,
    caps_allowed: bool,
    pool: &rayon::ThreadPool,
    cfg: &SolverConfig,
    control: &Control,
    analyze: bool,
) -> Result<Found, Stopped> {
    let mut solver = ParallelSolver::on_pool(table, pool)
        .with_progress(control.node_counter())
        .with_abort(control.stop_flag());
    solver = solver.with_options(crate::search::Options {
        etc_min_empty: cfg.etc_min_empty,
        // deferring busy children needs their keys, which ETC computes at the same nodes: the
        // game's ETC horizon (near the root for the costly 4x4x4 keys) serves both
        defer_min_empty: cfg.etc_min_empty,
        ..crate::search::Options::default()
    });
    if let Some(min_empty) = cfg.forcing_min_empty {
        let forcing = ForcingSearch::new(cfg.vcf_budget).with_zugzwang_ends(cfg.zugzwang_lines);
        solver = solver.with_forcing(forcing, min_empty);
    }
    let depth = cfg.mode.depth();
    if analyze {
        let mut nodes = 0;
        let scores = analyze_with(g, cfg.mode, |child| {
            let (s, n) = solver.score(child, depth)?;
            nodes += n;
            Ok(s)
        })?;
        let score = scores.iter().map(|m| m.1).max().unwrap_or(0);
        return Ok(Found {
            score,
            best: best_of(&scores, score),
            nodes,
            cap: None,
            probes: Vec::new(),
            move_scores: Some(scores),
        });
    }
    // Weak solves try short caps first where the game supports them (a decisive result under
    // a cap is real). Only on a memory table: entries proven under a cap must not outlive it,
    // and a position store would keep them.
    let caps = match (depth, caps_allowed) {
        (Depth::Weak, true) => crate::search::capped::caps_to_try(g, cfg.cap, cfg.step, cfg.tries),
        _ => Vec::new(),
    };
    let mut nodes = 0;
    for cap in caps {
        let Some(capped) = g.capped(cap) else { break };
        let (score, n) = solver.score(&capped, Depth::Weak)?;
        nodes += n;
        if score != 0 {
            // The moves that keep the result under the cap are best moves; proving that another
            // move does *not* keep it would need the uncapped search the cap was there to avoid.
            let (best, n) = solver.best_moves(&capped, depth, score, cfg.best.limit())?;
            return Ok(Found {
                score,
                best,
                nodes: nodes + n,
                cap: Some(cap),
                probes: Vec::new(),
                move_scores: None,
            });
        }
        // a draw under a cap says nothing, and its entries are not valid without the cap
        table.clear();
    }
    let solved = solver.solve(g, depth, cfg.best.limit())?;
    Ok(Found {
        score: solved.score,
        best: solved.best_moves,
        nodes: nodes + solved.nodes,
        cap: None,
        probes: solved.probes,
        move_scores: None,
    })
}

/// Seed 003's search (`crate::search::seed`) on the seed's form of the position: the value
/// and the best moves asked for, or the value of every move; one thread.
pub(crate) fn seed<G: Solvable, T: Table>(
    g: &G,
    table: &T,
    cfg: &SolverConfig,
    control: &Control,
    analyze: bool,
) -> Result<Found, Stopped> {
    debug_assert_eq!(cfg.engine, Engine::Seed);
    let played = g;
    let g = g
        .seed_form()
        .expect("the solver refuses the seed engine for games without a seed form");
    let mut search = SeedSearch::new(table)
        .with_progress(control.node_counter())
        .with_stop(control.stop_flag());
    let (score, best, move_scores) = if analyze {
        let scores = analyze_with(&g, Mode::Weak, |child| search.value(child))?;
        let score = scores.iter().map(|m| m.1).max().unwrap_or(0);
        (score, best_of(&scores, score), Some(scores))
    } else {
        let score = search.value(&g)?;
        let best = search.best_moves(&g, score, cfg.best.limit())?;
        (score, best, None)
    };
    Ok(Found {
        score,
        best,
        nodes: search.nodes,
        // the seed's Qubic counts long games as draws: say so with the value
        cap: (g.max_ply() < played.max_ply()).then(|| g.max_ply()),
        probes: Vec::new(),
        move_scores,
    })
}

/// The moves of an analysis that reach `score`.
fn best_of(scores: &[(u64, i32)], score: i32) -> Vec<u64> {
    scores
        .iter()
        .filter(|m| m.1 == score)
        .map(|m| m.0)
        .collect()
}

/// Proof-number search: the value, then the best moves asked for; or the value of every move.
/// Meanwhile the tables' state is published in `control` every second and, over a position
/// store, a snapshot of the proof table is saved every [`SEARCH_STATE_EVERY`] (or as the
/// solver was told) and when the search is stopped; once the position is decided the runs hold
/// the result and the snapshot is removed.
pub(crate) fn proof_number<G: Solvable>(
    g: &G,
    tables: &ProofTables,
    cfg: &SolverConfig,
    control: &Control,
    analyze: bool,
) -> Result<Found, Stopped> {
    let start = Instant::now();
    let every = tables.save_every;
    let mut next_save = start + every;
    let housekeeping = || {
        tables.report(control);
        if Instant::now() >= next_save {
            let took = Instant::now();
            tables.save_search_state();
            next_save = Instant::now() + next_snapshot_gap(every, took.elapsed());
        }
    };
    let found = with_ticks(Duration::from_secs(1).min(every), housekeeping, || {
        proof_number_search(g, tables, cfg, control, analyze)
    });
    // (after the housekeeping has ended, so that no save of it comes after this)
    match found {
        // stopped: the snapshot lets the same command go on from here
        Err(Stopped) => tables.save_search_state(),
        // decided: the runs hold the result; a snapshot would be the size of the table
        Ok(_) => tables.drop_search_state(),
    }
    if start.elapsed() >= Duration::from_secs(1) {
        // (a quick solve skips this: it samples pages all over the proof table)
        tables.report(control);
    }
    found
}

fn proof_number_search<G: Solvable>(
    g: &G,
    tables: &ProofTables,
    cfg: &SolverConfig,
    control: &Control,
    analyze: bool,
) -> Result<Found, Stopped> {
    debug_assert_eq!(cfg.engine, Engine::Pn);
    let mut search = proof_search(tables, cfg, control).with_root_report(control.root_report());
    if let Some(store) = tables.store() {
        search = search.with_settled(store, PN_RECORD_MIN_WORK);
    }
    if let Some(first) = cfg.first {
        search = search.with_first_question(first.proof_question());
    }
    let answer = proof_number_answer(g, &mut search, cfg, analyze);
    let nodes = search.nodes + search.endgame_nodes;
    tables.keep_scratch(search);
    let (score, best, move_scores) = answer?;
    Ok(Found {
        score,
        best,
        nodes,
        cap: None,
        probes: Vec::new(),
        move_scores,
    })
}

/// A score, its best moves and (analysing) every move's score.
type Answer = (i32, Vec<u64>, Option<Vec<(u64, i32)>>);

/// The [`Answer`] `search` finds for `g`.
fn proof_number_answer<G: Solvable>(
    g: &G,
    search: &mut ProofSearch<'_>,
    cfg: &SolverConfig,
    analyze: bool,
) -> Result<Answer, Stopped> {
    Ok(if analyze {
        let scores = analyze_with(g, Mode::Weak, |child| search.value(child))?;
        let score = scores.iter().map(|m| m.1).max().unwrap_or(0);
        (score, best_of(&scores, score), Some(scores))
    } else {
        let score = search.value(g)?;
        let best = match cfg.best {
            BestMoves::None => Vec::new(),
            which => search.best_moves(g, score, which == BestMoves::First)?,
        };
        (score, best, None)
    })
}

/// The proof search `cfg` describes over `tables` (without the position store, which only the
/// process that owns it may write), with the caches the last search over them left
/// ([`ProofTables::keep_scratch`]): the one place the configuration's knobs become a search,
/// for a local solve and for a worker of the job-level search alike.
pub(crate) fn proof_search<'t>(
    tables: &'t ProofTables,
    cfg: &SolverConfig,
    control: &'t Control,
) -> ProofSearch<'t> {
    let mut search = ProofSearch::reusing(&tables.proof, tables.take_scratch())
        .with_progress(control.node_counter())
        .with_stop(control.stop_flag())
        .with_vcf_budget(cfg.vcf_budget)
        .with_order_bias(cfg.order_bias)
        .with_threads(cfg.threads)
        .with_zone_guess(cfg.zone_guess)
        .with_replays(cfg.replay_budget)
        .with_zugzwang_lines(cfg.zugzwang_lines);
    if let Some(t) = tables.endgame() {
        if cfg.endgame > 0 {
            search = search.with_endgame(t, cfg.endgame);
        }
    }
    search
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshots_are_never_further_apart_than_the_cap() {
        let min = Duration::from_secs(60);
        // a quick write: the asked-for interval
        assert_eq!(next_snapshot_gap(min, Duration::from_secs(1)), min);
        // a slow write: twenty times its time, so that writing costs at most 5%
        assert_eq!(
            next_snapshot_gap(min, Duration::from_secs(30)),
            Duration::from_secs(600)
        );
        // a write that seemed to take an hour (a paused process): the cap
        assert_eq!(
            next_snapshot_gap(min, Duration::from_secs(3600)),
            SEARCH_STATE_MAX_GAP
        );
        // an interval asked for beyond the cap is kept
        let long = Duration::from_secs(3600);
        assert_eq!(next_snapshot_gap(long, Duration::from_secs(3600)), long);
    }
}
