//! The searches behind a request, over any [`Solvable`] game: parallel alpha-beta (with capped
//! deepening where the game supports it) and proof-number search, each answering a position's
//! value with its best moves, or the value of every move.

use super::config::{BestMoves, Engine, Mode, SolverConfig};
use super::control::Control;
use super::games::{game_over_score, Solvable};
use crate::game::Bits;
use crate::search::{
    Depth, MemoryTable, ParallelSolver, Probe, ProofSearch, ProofTable, Stopped, Table,
};

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

/// The tables of the proof-number engine: its own, and its alpha-beta endgames'.
pub(crate) struct ProofTables {
    pub proof: ProofTable,
    pub endgame: Option<MemoryTable>,
}

impl ProofTables {
    /// Splits `bytes` between the proof table and, with endgames, the endgame table (half).
    pub fn new(bytes: u64, endgame: bool) -> ProofTables {
        let endgame = endgame.then(|| MemoryTable::with_bytes((bytes / 2) as usize));
        let rest = bytes - endgame.as_ref().map_or(0, |t| t.bytes() as u64);
        ProofTables {
            proof: ProofTable::new(rest as usize),
            endgame,
        }
    }

    /// Bytes of both tables.
    pub fn bytes(&self) -> u64 {
        (self.proof.bytes() + self.endgame.as_ref().map_or(0, |t| t.bytes())) as u64
    }
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
        ..crate::search::Options::default()
    });
    if let Some(min_empty) = cfg.forcing_min_empty {
        solver = solver.with_forcing(cfg.vcf_budget, min_empty);
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

/// The moves of an analysis that reach `score`.
fn best_of(scores: &[(u64, i32)], score: i32) -> Vec<u64> {
    scores
        .iter()
        .filter(|m| m.1 == score)
        .map(|m| m.0)
        .collect()
}

/// Proof-number search: the value, then the best moves asked for; or the value of every move.
pub(crate) fn proof_number<G: Solvable>(
    g: &G,
    tables: &ProofTables,
    cfg: &SolverConfig,
    control: &Control,
    analyze: bool,
) -> Result<Found, Stopped> {
    debug_assert_eq!(cfg.engine, Engine::Pn);
    let mut search = ProofSearch::new(&tables.proof)
        .with_progress(control.node_counter())
        .with_stop(control.stop_flag())
        .with_vcf_budget(cfg.vcf_budget)
        .with_order_bias(cfg.order_bias)
        .with_threads(cfg.threads)
        .with_zone_guess(cfg.zone_guess);
    if let Some(t) = &tables.endgame {
        search = search.with_endgame(t, cfg.endgame);
    }
    if let Some(first) = cfg.first {
        search = search.with_first_question(first.proof_question());
    }
    let (score, best, move_scores) = if analyze {
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
    };
    Ok(Found {
        score,
        best,
        nodes: search.nodes + search.endgame_nodes,
        cap: None,
        probes: Vec::new(),
        move_scores,
    })
}
